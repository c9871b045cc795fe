// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_pool.c: vatom_fuzz's checked ioctl, pointers, counts and the pool of surfaces and syncobjs a worker knows (fuzz.h).
 *
 * Copyright (C) 2026 The vatom developers
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/sync_file.h>
#include <xf86drm.h>

#include "kselftest.h"

#include "common.h"
#include "fuzz.h"
#include "fuzz_trace.h"

struct vz_report *vz_rep;
char vz_nodes[2][VT_PATH_MAX];
char vz_stats[2][VT_PATH_MAX * 2];
char vz_limits[2][VT_PATH_MAX * 2];
int vz_ndev;
bool vz_verbose;
bool vz_faults;
void *vz_none;
void *vz_ro;

/* ------------------------------------------------------------------------ */
/* Errno tables                                                              */
/* ------------------------------------------------------------------------ */

/*
 * docs/uapi.md, "Errors": what a vatom ioctl may return. ETIMEDOUT and
 * EIO without -F too: any job that runs past job_timeout_ms (a
 * broadcast-heavy one on a slow machine, or after someone shortened the
 * timeout) stops with -ETIMEDOUT, and its file refuses work with EIO
 * until it acknowledges. Not ENODEV: only an unbound device returns it,
 * and nothing here unbinds one.
 */
static const int vz_vatom_errnos[] = {
	EINVAL, EOPNOTSUPP, ENOENT, E2BIG, EBUSY, ENOSPC, ECANCELED, EFAULT,
	ENOMEM, EINTR, EBADF, ETIMEDOUT, EIO,
};

/*
 * The DRM core's GEM close, PRIME and syncobj ioctls (drm_prime.c,
 * drm_syncobj.c, drm_gem.c): bad fds, full fd tables, timeouts.
 */
static const int vz_core_errnos[] = {
	EINVAL, ENOENT, EFAULT, ENOMEM, EMFILE, EBADF, ETIME, EOPNOTSUPP,
	EINTR, ENOSPC, EBUSY,
};

static bool vz_in(const int *t, size_t n, int e)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i] == e)
			return true;
	return false;
}

static void vz_violation(struct vz_worker *w, const char *fmt, ...)
{
	va_list ap;

	atomic_fetch_add(&vz_rep->bad, 1);
	if (!atomic_exchange(&vz_rep->claimed, 1)) {
		int l = snprintf(vz_rep->first, sizeof(vz_rep->first),
				 "thread %d call %llu (%s): ", w->id, w->iter,
				 w->op ? w->op : "?");

		va_start(ap, fmt);
		vsnprintf(vz_rep->first + l, sizeof(vz_rep->first) - l, fmt, ap);
		va_end(ap);
	}
}

/*
 * Acknowledge the reset of file @fd, if it is guilty, so that its jobs run
 * again (not counted as a call; another thread may have closed @fd).
 */
void vz_ack(int fd)
{
	struct drm_vatom_reset_status st = { .flags = DRM_VATOM_RESET_ACK };

	if (ioctl(fd, DRM_IOCTL_VATOM_RESET_STATUS, &st))
		(void)0;
}

/*
 * Make an ioctl and check its errno against @core's table. EIO from a
 * vatom ioctl: the file is guilty; acknowledge, and fuzzing goes on.
 */
int vz_ioctl(struct vz_worker *w, int fd, unsigned long req, void *arg,
		    bool core)
{
	int ret = vd_trace ? vd_ioctl(fd, req, arg, w->op) : ioctl(fd, req, arg);
	int e = errno;

	atomic_fetch_add(&vz_rep->calls, 1);
	if (!ret)
		return 0;
	if (e > 0 && e < VZ_MAX_ERRNO)
		atomic_fetch_add(&vz_rep->errs[e], 1);
	if (e == EIO && !core)
		vz_ack(fd);
	if (core ? vz_in(vz_core_errnos, VT_ARRAY_SIZE(vz_core_errnos), e) :
		   vz_in(vz_vatom_errnos, VT_ARRAY_SIZE(vz_vatom_errnos), e))
		return -e;
	if (w->mt && (e == EBADF || e == ENOTTY))
		return -e;
	vz_violation(w, "ioctl %#lx returned errno %d (%s), not in the table",
		     req, e, strerrorname_np(e) ? strerrorname_np(e) : "?");
	return -e;
}

/* ------------------------------------------------------------------------ */
/* Pointers and numbers                                                      */
/* ------------------------------------------------------------------------ */

/* @valid most of the time, else a pointer the kernel must refuse. */
static __u64 vz_ptr_any(struct vz_worker *w, const void *valid, __u32 bad_pct)
{
	if (!vz_chance(&w->rng, bad_pct))
		return vt_u64_ptr(valid);
	switch (vz_below(&w->rng, 7)) {
	case 0:
		return 0;
	case 1:
		return vt_u64_ptr(vz_none);
	case 2:
		return vt_u64_ptr(vz_ro);
	case 3:
		return vt_u64_ptr(valid) + VT_PAGE_SIZE * 1024ull * 1024;
	case 4: return 0xffff888000000000ull;	/* the kernel's direct map */
	case 5: return vt_u64_ptr(valid) + 1;	/* misaligned */
	default:
		return vz_next(&w->rng);
	}
}

/* Whether @p is one of vz_ptr_any()'s answers for @valid, all but chance. */
bool vz_ptr_known(struct vz_worker *w, __u64 p, const void *valid)
{
	return p == vt_u64_ptr(valid) || p == vt_u64_ptr(valid) + 1 ||
	       p == vt_u64_ptr(vz_ro) || p == vt_u64_ptr(vz_none) ||
	       p == 0xffff888000000000ull || !p;
}

/*
 * vz_ptr_any(), with the same answer in both halves of -T's trace:
 * what lies 4 GiB past a buffer, or at a random address, depends on the
 * process's layout (the shim maps every surface), so those are PROT_NONE
 * memory there.
 */
__u64 vz_ptr(struct vz_worker *w, const void *valid, __u32 bad_pct)
{
	__u64 p = vz_ptr_any(w, valid, bad_pct);

	if (vd_trace && !vz_ptr_known(w, p, valid))
		return vt_u64_ptr(vz_none);
	return p;
}

/* -T: where pointer @p points, the same words in both halves. */
const char *vz_ptr_name(struct vz_worker *w, __u64 p, char *buf, size_t len)
{
	__u64 sc = vt_u64_ptr(w->scratch), st = vt_u64_ptr(w->stream);

	if (p >= sc && p < sc + VZ_SCRATCH)
		snprintf(buf, len, "scratch+%llu", (unsigned long long)(p - sc));
	else if (p >= st && p < st + VZ_STREAM + VT_PAGE_SIZE)
		snprintf(buf, len, "stream+%llu", (unsigned long long)(p - st));
	else if (p == vt_u64_ptr(vz_none))
		snprintf(buf, len, "none");
	else if (p == vt_u64_ptr(vz_ro))
		snprintf(buf, len, "read-only");
	else if (!p)
		snprintf(buf, len, "null");
	else
		snprintf(buf, len, "elsewhere");
	return buf;
}

/* A count: usually small, sometimes huge. */
__u32 vz_count(struct vz_worker *w, __u32 usual)
{
	switch (vz_below(&w->rng, 12)) {
	case 0:
		return 0;
	case 1:
		return 0xffffffffu;
	case 2:
		return 65;
	case 3:
		return 1u << vz_below(&w->rng, 32);
	default:
		return usual;
	}
}

/* A handle: a known surface, 0, or a number nobody gave out. */
__u32 vz_handle(struct vz_worker *w, __u32 kind_hint)
{
	int i;

	if (w->nsurf && vz_chance(&w->rng, 90)) {
		for (i = 0; i < 4; i++) {
			struct vz_surf *s = &w->surf[vz_below(&w->rng, w->nsurf)];

			if (kind_hint == ~0u || s->kind == kind_hint)
				return s->h;
		}
		return w->surf[vz_below(&w->rng, w->nsurf)].h;
	}
	return vz_chance(&w->rng, 50) ? 0 : (__u32)vz_next(&w->rng);
}

struct vz_surf *vz_find(struct vz_worker *w, __u32 kind)
{
	int i, start = vz_below(&w->rng, w->nsurf ? w->nsurf : 1);

	for (i = 0; i < w->nsurf; i++) {
		struct vz_surf *s = &w->surf[(start + i) % w->nsurf];

		if (s->kind == kind)
			return s;
	}
	return NULL;
}

/* ------------------------------------------------------------------------ */
/* Surfaces                                                                  */
/* ------------------------------------------------------------------------ */

void vz_forget(struct vz_worker *w, int i)
{
	w->surf[i] = w->surf[--w->nsurf];
}

/*
 * Keep a new surface. A large one is closed at once: a submission maps a
 * surface's every page in the kernel, and a few 256 MiB ones would take
 * the guest's memory.
 */
void vz_remember(struct vz_worker *w, __u32 h, __u32 kind, __u64 size)
{
	if (size > VZ_MAX_KEEP) {
		vt_gem_close(w->fd, h);
		return;
	}
	if (w->nsurf == VZ_MAX_HANDLES) {
		int i = vz_below(&w->rng, w->nsurf);

		vt_gem_close(w->fd, w->surf[i].h);
		vz_forget(w, i);
	}
	w->surf[w->nsurf].h = h;
	w->surf[w->nsurf].kind = kind;
	w->surf[w->nsurf].size = size;
	w->surf[w->nsurf].w = 1;
	w->surf[w->nsurf].gh = 1;
	w->surf[w->nsurf].profile = 0;
	w->nsurf++;
}

/* The shape of the grid just remembered (vz_remember() kept it last). */
void vz_grid_shape(struct vz_worker *w, __u32 h, __u32 gw, __u32 gh,
			  __u32 profile)
{
	struct vz_surf *s = w->nsurf ? &w->surf[w->nsurf - 1] : NULL;

	if (s && s->h == h && gw && gh && gw <= 64 && gh <= 64) {
		s->w = gw;
		s->gh = gh;
		s->profile = profile;
	}
}

/*
 * -T, before each call: the scratch holds pointers of earlier calls,
 * which a mutated call may read as numbers and which differ between the
 * two halves. Its first half, where user results and NoC counters go, is
 * set to a pattern (a result written as 0 shows), the rest to zeroes.
 */
void vz_trace_clear(struct vz_worker *w)
{
	memset(w->scratch, 0xa5, VZ_SCRATCH / 2);
	memset(w->scratch + VZ_SCRATCH / 2, 0, VZ_SCRATCH / 2);
}

/* -T, after a call that writes into the first half: its digest. */
void vz_trace_out(struct vz_worker *w)
{
	if (vd_trace)
		vd_printf("out %016llx\n",
			  (unsigned long long)vd_hash(w->scratch, VZ_SCRATCH / 2));
}

/*
 * -T: wait until the file's jobs have executed, so that what the next
 * call sees is the device's answer and not how far it got: a synchronous
 * SUBMIT runs after the file's earlier jobs, and the syncobjs' fences
 * are waited for (those with none fail at once).
 */
void vz_trace_drain(struct vz_worker *w)
{
	struct drm_vatom_submit empty = { 0 };
	struct timespec ts;
	__s64 deadline;
	int i;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	deadline = (ts.tv_sec + 60) * 1000000000ll + ts.tv_nsec;
	vd_printf("drain %d\n", ioctl(w->fd, DRM_IOCTL_VATOM_SUBMIT, &empty) ? -errno : 0);
	for (i = 0; i < w->nsync; i++)
		if (drmSyncobjWait(w->fd, &w->sync[i], 1, deadline, 0, NULL) &&
		    errno == ETIME)
			vd_printf("drain: syncobj %u still unsignalled after 60 s\n",
				  w->sync[i]);
}

/*
 * -T: the state a call left, in the trace: each syncobj's fence status
 * and timeline point; with @surfaces,
 * a digest of every surface the worker knows (and of the queue jobs'
 * streams and results).
 */
void vz_trace_state(struct vz_worker *w, bool surfaces)
{
	uint64_t point;
	void *map;
	size_t len;
	int i;

	vd_printf("sync");
	for (i = 0; i < w->nsync; i++) {
		point = 0;
		if (drmSyncobjQuery(w->fd, &w->sync[i], &point, 1))
			point = ~0ull;
		vd_printf(" %u:%d:%llu", w->sync[i], vt_fence_status(w->fd, w->sync[i]),
			  (unsigned long long)point);
	}
	vd_printf("\n");
	if (!surfaces)
		return;
	for (i = 0; i < w->nsurf; i++) {
		const struct vz_surf *s = &w->surf[i];

		if (!s->size || s->size > VZ_MAX_KEEP)
			continue;
		len = (s->size + VT_PAGE_SIZE - 1) & ~(size_t)(VT_PAGE_SIZE - 1);
		map = vt_map(w->fd, s->h, len);
		if (!map) {
			vd_printf("surf %u unmappable\n", s->h);
			continue;
		}
		vd_printf("surf %u %u %llu %016llx\n", s->h, s->kind,
			  (unsigned long long)s->size,
			  (unsigned long long)vd_hash(map, s->size));
		munmap(map, len);
	}
	if (w->qmap)
		vd_printf("surf queue %016llx\n",
			  (unsigned long long)vd_hash(w->qmap, VZ_QUEUE_SURF));
}


/* A few valid surfaces and syncobjs to start from. */
void vz_seed_pool(struct vz_worker *w)
{
	static const __u8 types[6] = { 0, 0, 0, 0, 1, 0 };
	struct drm_vatom_tile_grid_desc gd = {
		.profile = DRM_VATOM_NOC_PROFILE_BLACKHOLE, .width = 3, .height = 2,
		.l1_size = { 1024, 512 }, .tile_types = vt_u64_ptr(types),
	};
	struct drm_vatom_typed_desc td = {
		.dim = DRM_VATOM_TYPED_2D, .width = 16, .height = 8, .depth = 1,
		.array_size = 1, .levels = 1,
	};
	struct drm_vatom_surface_create c = { 0 };
	__u32 h;
	__u64 size;
	int i;

	for (i = 0; i < 3; i++)
		if (!vt_buffer_create(w->fd, VT_PAGE_SIZE << i, &h))
			vz_remember(w, h, DRM_VATOM_SURFACE_BUFFER, VT_PAGE_SIZE << i);
	if (!vt_typed_create(w->fd, &td, &h, &size))
		vz_remember(w, h, DRM_VATOM_SURFACE_TYPED, size);
	c.kind = DRM_VATOM_SURFACE_TILE_GRID;
	c.desc = vt_u64_ptr(&gd);
	c.desc_size = sizeof(gd);
	if (!vt_surface_create(w->fd, &c)) {
		vz_remember(w, c.handle, DRM_VATOM_SURFACE_TILE_GRID, c.size);
		vz_grid_shape(w, c.handle, gd.width, gd.height, gd.profile);
	}
	for (i = 0; i < 4; i++)
		if (!drmSyncobjCreate(w->fd, i & 1 ? DRM_SYNCOBJ_CREATE_SIGNALED : 0,
				      &w->sync[w->nsync]))
			w->nsync++;
	/* Not in the pool: the queue jobs' surface stays (unless the file goes). */
	if (!vt_buffer_create(w->fd, VZ_QUEUE_SURF, &w->qsurf))
		w->qmap = vt_map(w->fd, w->qsurf, VZ_QUEUE_SURF);
}

int vz_worker_init(struct vz_worker *w, int id, __u64 seed, int fd, int fd2)
{
	memset(w, 0, sizeof(*w));
	w->id = id;
	w->rng = seed;
	w->fd = fd;
	w->fd2 = fd2;
	w->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (w->efd < 0 || pipe2(w->pipefd, O_CLOEXEC))
		return -errno;
	w->scratch = mmap(NULL, VZ_SCRATCH, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	w->stream = mmap(NULL, VZ_STREAM + VT_PAGE_SIZE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (w->scratch == MAP_FAILED || w->stream == MAP_FAILED)
		return -errno;
	mprotect(w->stream + VZ_STREAM, VT_PAGE_SIZE, PROT_NONE);
	return 0;
}

void vz_worker_fini(struct vz_worker *w)
{
	if (w->qmap)
		munmap(w->qmap, VZ_QUEUE_SURF);
	close(w->efd);
	close(w->pipefd[0]);
	close(w->pipefd[1]);
	munmap(w->scratch, VZ_SCRATCH);
	munmap(w->stream, VZ_STREAM + VT_PAGE_SIZE);
}

