// SPDX-License-Identifier: GPL-2.0
/*
 * vatom_fuzz: a seeded ioctl fuzzer for the vatom render node.
 *
 *   vatom_fuzz [-t SECONDS] [-n CALLS] [-s SEED] [-j THREADS] [-F jobs] [-D shim] [-v]
 *
 * (-v prints every call of phase 1; calls over 0.5 s are printed anyway.
 * -F jobs injects faults into jobs: see below. -D shim is the
 * differential against the in-process device, libvatom-shim.so: phase 1
 * alone, on the device and on the shim, traced and compared, in
 * fuzz_trace.c; -T FILE is one half of it.)
 *
 * Two phases share the time budget (-t, default 20 s) half and half:
 *
 *  1. Deterministic: one thread, one PRNG seeded with -s (printed, so a
 *     failure reproduces with the same seed and -n), at most -n calls.
 *     Each call is a vatom ioctl (or a DRM core one vatom relies on: GEM
 *     close, PRIME, syncobjs, mmap) built valid and then mutated or not:
 *     packets of every family (vISA DWORD_ATOMIC, TYPED_ATOMIC, ADDC, PTX
 *     atom, NoC, broadcasts included) with flipped bits, wrong sizes,
 *     types, slots, handles, flags, syncobjs, result regions, asynchronous
 *     with user results, pointers to PROT_NONE or read-only memory and
 *     huge counts; user-mode queues in kick and polling mode, with
 *     syncobjs and eventfds (or pipes, closed descriptors) to signal,
 *     their descriptors, streams and tails mutated the same way; the
 *     reset status, acknowledged or not, with bad flags. Mixed
 *     in, a known-good workload: valid submissions (synchronous and
 *     asynchronous) and jobs of a polling queue that signals a timeline
 *     syncobj and an eventfd, which add known amounts to a ledger surface,
 *     whose totals (and the queue's last point) are checked exactly at the
 *     end.
 *  2. Concurrent: rounds of a forked process with -j threads (default 4)
 *     doing the same on shared files and handle pools, half of them as
 *     uid/gid 65534 (nobody) after opening, plus races: closing and
 *     reopening the shared file, unmapping user results while other
 *     threads submit with them, closing handles others use, forking
 *     children that queue jobs and are killed. The round process itself
 *     is SIGKILLed at a random moment or told to stop.
 *
 * Invariants: every ioctl fails, if it does, with an errno of the table in
 * docs/uapi.md (vatom ioctls) or one the DRM core documents (core ioctls);
 * EBADF and ENOTTY are allowed in phase 2 only, where another thread may
 * close or reuse the fd. At the end the debugfs live counts (surfaces,
 * jobs_in_flight, fences, poll_queues) of every device are back at their
 * baseline, the ledger holds exactly what the known-good workload added
 * and the kernel logged no splat. Prints TAP and the calls per second.
 *
 * A file whose job timed out or faulted is guilty, its submissions -EIO,
 * until it acknowledges (RESET_STATUS): a vatom ioctl that fails with EIO
 * acknowledges its file's reset, and so does every worker every 64 calls
 * (queue jobs fail silently), so that fuzzing goes on.
 *
 * -F jobs: faults are injected into jobs (debugfs /sys/kernel/debug/vatom,
 * CONFIG_FAULT_INJECTION_DEBUG_FS: the debug kernel; root). For the run,
 * every job of any task is picked with probability 1 % by fail_hang (it
 * hangs until the job timeout), 3 % by fail_job (half its packets, then
 * -EIO) and 3 % by fail_delay (delay_ms 20), and job_timeout_ms is 200;
 * each is set back at exit (also on a failure exit or SIGINT/SIGTERM/
 * SIGHUP). It skips where those files cannot be written. ("jobs" is the
 * only kind so far; the word also names the run's stage in the VM, which
 * scripts/vm-tests.sh names after the arguments that are not options.)
 * What must still
 * hold: no errno outside the table (EIO and ETIMEDOUT are in it anyway),
 * the live counts back at their baseline, no kernel splat, and the
 * ledger, exactly, counting what each of its jobs did: every one is a
 * single packet, so one that failed (timed out, faulted, refused or
 * cancelled by its file's reset: -ETIMEDOUT, -EIO, -ECANCELED, nothing
 * else) executed nothing and adds nothing. Which jobs the kernel picks is
 * random, so -s does not reproduce a run with -F. vatom_stats' counts of
 * job timeouts, job faults and resets during the run are printed.
 *
 * Copyright (C) 2026 The vatom developers
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/sync_file.h>
#include <xf86drm.h>

#include "kselftest.h"

#include "common.h"
#include "fuzz_trace.h"

#define VZ_MAX_HANDLES	24
#define VZ_MAX_SYNCS	12
#define VZ_MAX_THREADS	16
#define VZ_SCRATCH	(64 * 1024)
#define VZ_STREAM	(64 * 1024)
/* Random descriptors for eventfds stay below this; the ledger's is above. */
#define VZ_LEDGER_EFD_MIN	64
#define VZ_GRID_SLOT	7
#define VZ_TYPED_SLOT	3
#define VZ_LEDGER_LANES	8
#define VZ_NOBODY	65534
#define VZ_MAX_ERRNO	134
#define VZ_MAX_KEEP	(4u << 20)	/* larger surfaces are not kept */
#define VZ_MAX_QUEUES	4
#define VZ_QUEUE_SURF	(64 * 1024)	/* a worker's queue streams and results */
#define VZ_NCOUNTS	4		/* the live counts checked at the end */
/* -T: no job of a trace reaches it (vatom_rules.h's largest) */
#define VATOM_TRACE_TIMEOUT_MS	600000

/* ------------------------------------------------------------------------ */
/* PRNG: splitmix64, one per worker                                          */
/* ------------------------------------------------------------------------ */

static __u64 vz_next(__u64 *s)
{
	__u64 z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static __u32 vz_below(__u64 *s, __u32 n)
{
	return n ? vz_next(s) % n : 0;
}

/* True with probability @pct percent. */
static bool vz_chance(__u64 *s, __u32 pct)
{
	return vz_below(s, 100) < pct;
}

/* ------------------------------------------------------------------------ */
/* Shared state                                                              */
/* ------------------------------------------------------------------------ */

/**
 * struct vz_report - what every worker adds to, in shared memory
 * @calls: ioctls (and mmaps) made
 * @bad: errno violations
 * @errs: failures per errno
 * @stop: phase 2 workers stop when set
 * @claimed: @first is being or has been written (no lock: a process
 *	holding one may be killed)
 * @first: the first violation, described
 */
struct vz_report {
	atomic_ullong calls;
	atomic_uint bad;
	atomic_uint errs[VZ_MAX_ERRNO];
	atomic_int stop;
	atomic_int claimed;
	char first[512];
};

static struct vz_report *vz_rep;
static char vz_nodes[2][VT_PATH_MAX];
static char vz_stats[2][VT_PATH_MAX * 2];
static char vz_limits[2][VT_PATH_MAX * 2];
static int vz_ndev;
static bool vz_verbose;
static bool vz_faults;		/* -F */

/* Memory the pointer mutations point into. */
static void *vz_none;		/* PROT_NONE */
static void *vz_ro;		/* read-only, random bytes */

/**
 * struct vz_surf - a surface the worker knows
 * @h: its handle on the worker's file
 * @kind: DRM_VATOM_SURFACE_*
 * @size: addressable bytes
 * @w: a tile grid's width; @gh its height; @profile its NoC profile
 */
struct vz_surf {
	__u32 h, kind;
	__u64 size;
	__u32 w, gh, profile;
};

/**
 * struct vz_queue - a queue a worker made
 * @fd: the file it was made on
 * @id: its id there
 * @entries: ring entries
 * @tail: the worker's producer position
 * @poll: a polling queue
 * @ring: the ring, mapped, or NULL
 * @ctl: the control page, mapped, or NULL
 */
struct vz_queue {
	int fd;
	__u32 id, entries, tail;
	bool poll;
	struct drm_vatom_queue_job *ring;
	struct drm_vatom_queue_ctl *ctl;
};

/**
 * struct vz_worker - one fuzzing thread
 * @rng: its PRNG state
 * @fd: its vatom file (shared with others in phase 2 when @shared)
 * @fd2: a file of the second device, or -1
 * @mt: phase 2: other threads may close its files
 * @id: thread index
 * @surf: known surfaces; @nsurf how many
 * @sync: known syncobjs; @nsync how many
 * @scratch: RW user memory for results, descriptors and tile types
 * @stream: the stream buffer, followed by a PROT_NONE page
 * @results: user results to use instead of @scratch (phase 2's victim)
 * @queue: known queues; @nqueue how many
 * @qsurf: the surface of queue jobs' streams and results, mapped at @qmap
 * @efd: an eventfd queues may signal; @pipefd a pipe (not an eventfd)
 * @op: the operation being made (for reports)
 * @iter: calls made
 */
struct vz_worker {
	__u64 rng;
	int fd, fd2;
	bool mt;
	int id;
	struct vz_surf surf[VZ_MAX_HANDLES];
	int nsurf;
	__u32 sync[VZ_MAX_SYNCS];
	int nsync;
	__u8 *scratch;
	__u8 *stream;
	void *results;
	struct vz_queue queue[VZ_MAX_QUEUES];
	int nqueue;
	__u32 qsurf;
	__u8 *qmap;
	int efd, pipefd[2];
	const char *op;
	unsigned long long iter;
};

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
static void vz_ack(int fd)
{
	struct drm_vatom_reset_status st = { .flags = DRM_VATOM_RESET_ACK };

	if (ioctl(fd, DRM_IOCTL_VATOM_RESET_STATUS, &st))
		(void)0;
}

/*
 * Make an ioctl and check its errno against @core's table. EIO from a
 * vatom ioctl: the file is guilty; acknowledge, and fuzzing goes on.
 */
static int vz_ioctl(struct vz_worker *w, int fd, unsigned long req, void *arg,
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
static bool vz_ptr_known(struct vz_worker *w, __u64 p, const void *valid)
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
static __u64 vz_ptr(struct vz_worker *w, const void *valid, __u32 bad_pct)
{
	__u64 p = vz_ptr_any(w, valid, bad_pct);

	if (vd_trace && !vz_ptr_known(w, p, valid))
		return vt_u64_ptr(vz_none);
	return p;
}

/* -T: where pointer @p points, the same words in both halves. */
static const char *vz_ptr_name(struct vz_worker *w, __u64 p, char *buf, size_t len)
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
static __u32 vz_count(struct vz_worker *w, __u32 usual)
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
static __u32 vz_handle(struct vz_worker *w, __u32 kind_hint)
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

static struct vz_surf *vz_find(struct vz_worker *w, __u32 kind)
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

static void vz_forget(struct vz_worker *w, int i)
{
	w->surf[i] = w->surf[--w->nsurf];
}

/*
 * Keep a new surface. A large one is closed at once: a submission maps a
 * surface's every page in the kernel, and a few 256 MiB ones would take
 * the guest's memory.
 */
static void vz_remember(struct vz_worker *w, __u32 h, __u32 kind, __u64 size)
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
static void vz_grid_shape(struct vz_worker *w, __u32 h, __u32 gw, __u32 gh,
			  __u32 profile)
{
	struct vz_surf *s = w->nsurf ? &w->surf[w->nsurf - 1] : NULL;

	if (s && s->h == h && gw && gh && gw <= 64 && gh <= 64) {
		s->w = gw;
		s->gh = gh;
		s->profile = profile;
	}
}

static const __u32 vz_tile_l1[2] = { 1024, 512 };

/* SURFACE_CREATE of every kind, valid or mutated. */
static void vz_op_create(struct vz_worker *w)
{
	struct drm_vatom_surface_create c;
	struct drm_vatom_typed_desc *td = (void *)w->scratch;
	struct drm_vatom_tile_grid_desc *gd = (void *)w->scratch;
	__u8 *types = w->scratch + 256;
	bool mutate = vz_chance(&w->rng, 40);
	__u32 i, n;

	w->op = "surface_create";
	memset(&c, 0, sizeof(c));
	c.kind = vz_below(&w->rng, 3);
	switch (c.kind) {
	case DRM_VATOM_SURFACE_BUFFER:
		c.size = 1 + vz_below(&w->rng, 3 * VT_PAGE_SIZE);
		if (vz_chance(&w->rng, 5))
			c.size = 256ull << 20;
		break;
	case DRM_VATOM_SURFACE_TYPED:
		memset(td, 0, sizeof(*td));
		td->dim = vz_below(&w->rng, 5);
		td->width = 1 + vz_below(&w->rng, 64);
		td->height = td->dim >= DRM_VATOM_TYPED_2D ? 1 + vz_below(&w->rng, 32) : 1;
		td->depth = td->dim == DRM_VATOM_TYPED_3D ? 1 + vz_below(&w->rng, 8) : 1;
		td->array_size = (td->dim == DRM_VATOM_TYPED_1D_ARRAY ||
				  td->dim == DRM_VATOM_TYPED_2D_ARRAY) ?
				 1 + vz_below(&w->rng, 4) : 1;
		td->levels = 1 + vz_below(&w->rng, 3);
		c.desc = vt_u64_ptr(td);
		c.desc_size = sizeof(*td);
		break;
	default:
		memset(gd, 0, sizeof(*gd));
		gd->profile = vz_below(&w->rng, 2);
		gd->width = 1 + vz_below(&w->rng, 8);
		gd->height = 1 + vz_below(&w->rng, 8);
		gd->l1_size[0] = vz_tile_l1[0];
		gd->l1_size[1] = vz_tile_l1[1];
		n = gd->width * gd->height;
		for (i = 0; i < n; i++)
			types[i] = vz_chance(&w->rng, 80) ? DRM_VATOM_TILE_TENSIX :
				   vz_below(&w->rng, DRM_VATOM_TILE_TYPES);
		gd->tile_types = vt_u64_ptr(types);
		c.desc = vt_u64_ptr(gd);
		c.desc_size = sizeof(*gd);
		break;
	}
	if (mutate) {
		switch (vz_below(&w->rng, 8)) {
		case 0:
			c.kind = vz_next(&w->rng);
			break;
		case 1:
			c.flags = 1u << vz_below(&w->rng, 32);
			break;
		case 2:
			c.size = vz_next(&w->rng) >> vz_below(&w->rng, 64);
			break;
		case 3:
			c.desc = vz_ptr(w, w->scratch, 100);
			break;
		case 4:
			c.desc_size = vz_count(w, vz_below(&w->rng, 4200));
			break;
		case 5:
			w->scratch[vz_below(&w->rng, 64)] ^= 1u << vz_below(&w->rng, 8);
			break;
		case 6:
			gd->tile_types = vz_ptr(w, types, 100);
			break;
		default:
			gd->width = vz_below(&w->rng, 80);
			gd->height = vz_below(&w->rng, 80);
			break;
		}
	}
	/*
	 * -T: a bit flipped in the tile types' pointer (case 5) points
	 * where the process's layout says: PROT_NONE memory instead.
	 */
	if (vd_trace && c.kind == DRM_VATOM_SURFACE_TILE_GRID &&
	    !vz_ptr_known(w, gd->tile_types, types))
		gd->tile_types = vt_u64_ptr(vz_none);
	if (vd_trace) {
		char d[32], t[32];

		vd_printf("args kind %u flags %#x size %llu desc %s size %u types %s\n",
			  c.kind, c.flags, (unsigned long long)c.size,
			  vz_ptr_name(w, c.desc, d, sizeof(d)), c.desc_size,
			  c.kind == DRM_VATOM_SURFACE_TILE_GRID ?
			  vz_ptr_name(w, gd->tile_types, t, sizeof(t)) : "-");
	}
	if (!vz_ioctl(w, w->fd, DRM_IOCTL_VATOM_SURFACE_CREATE, &c, false)) {
		vz_remember(w, c.handle, c.kind, c.size);
		if (c.kind == DRM_VATOM_SURFACE_TILE_GRID)
			vz_grid_shape(w, c.handle, gd->width, gd->height, gd->profile);
	}
}

/* SURFACE_INFO, MMAP_OFFSET and an mmap of the offset. */
static void vz_op_info(struct vz_worker *w)
{
	struct drm_vatom_surface_info info;
	struct drm_vatom_surface_mmap_offset mo;
	size_t len;
	void *p;

	w->op = "surface_info/mmap";
	memset(&info, 0, sizeof(info));
	info.handle = vz_handle(w, ~0u);
	if (vz_chance(&w->rng, 10))
		info.flags = vz_next(&w->rng);
	if (vz_chance(&w->rng, 10))
		info.pad = vz_next(&w->rng);
	vz_ioctl(w, w->fd, DRM_IOCTL_VATOM_SURFACE_INFO,
		 vz_chance(&w->rng, 3) ? (void *)vz_ro : &info, false);

	memset(&mo, 0, sizeof(mo));
	mo.handle = vz_handle(w, ~0u);
	if (vz_chance(&w->rng, 10))
		mo.flags = vz_next(&w->rng);
	if (vz_ioctl(w, w->fd, DRM_IOCTL_VATOM_SURFACE_MMAP_OFFSET, &mo, false))
		return;
	len = VT_PAGE_SIZE * (1 + vz_below(&w->rng, 8));
	p = mmap(NULL, len, vz_chance(&w->rng, 50) ? PROT_READ : PROT_READ | PROT_WRITE,
		 MAP_SHARED, w->fd, mo.offset + (vz_chance(&w->rng, 10) ? VT_PAGE_SIZE : 0));
	atomic_fetch_add(&vz_rep->calls, 1);
	if (p != MAP_FAILED)
		munmap(p, len);
}

/* ------------------------------------------------------------------------ */
/* Packets                                                                   */
/* ------------------------------------------------------------------------ */

static const __u8 vz_dword_ops[] = {
	DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_OP_SUB, DRM_VATOM_VISA_OP_INC,
	DRM_VATOM_VISA_OP_DEC, DRM_VATOM_VISA_OP_MIN, DRM_VATOM_VISA_OP_MAX,
	DRM_VATOM_VISA_OP_XCHG, DRM_VATOM_VISA_OP_CMPXCHG, DRM_VATOM_VISA_OP_AND,
	DRM_VATOM_VISA_OP_OR, DRM_VATOM_VISA_OP_XOR, DRM_VATOM_VISA_OP_IMIN,
	DRM_VATOM_VISA_OP_IMAX, DRM_VATOM_VISA_OP_PREDEC, DRM_VATOM_VISA_OP_FMAX,
	DRM_VATOM_VISA_OP_FMIN, DRM_VATOM_VISA_OP_FCMPWR,
};

/* Operand values: offsets inside @size bytes, aligned to 4 mostly. */
static void vz_lanes(struct vz_worker *w, __u32 *addr, __u32 *src0, __u32 *src1,
		     __u32 n, __u64 size)
{
	__u32 i;

	for (i = 0; i < 2 * n; i++) {
		addr[i] = 4 * vz_below(&w->rng, size / 4 ? size / 4 : 1);
		if (vz_chance(&w->rng, 3))
			addr[i] = vz_next(&w->rng);
		src0[i] = vz_chance(&w->rng, 50) ? vz_below(&w->rng, 16) : vz_next(&w->rng);
		src1[i] = vz_next(&w->rng);
	}
}

/* One vISA packet of a random form: DWORD_ATOMIC, TYPED_ATOMIC or ADDC. */
static void vz_visa(struct vz_worker *w, struct vt_stream *s, __u64 size)
{
	__u32 addr[64], src0[64], src1[64], vc[32], rc[32], lod[32];
	struct vt_visa v;
	__u32 n, i;
	__u8 exec;

	memset(&v, 0, sizeof(v));
	/*
	 * A packet may name more lanes than were drawn (a TYPED_ATOMIC is
	 * SIMD8 whatever @exec): those read 0, not the stack.
	 */
	memset(addr, 0, sizeof(addr));
	memset(src0, 0, sizeof(src0));
	memset(src1, 0, sizeof(src1));
	exec = vz_below(&w->rng, 5);
	n = 1u << exec;
	vz_lanes(w, addr, src0, src1, n, size);
	switch (vz_below(&w->rng, 3)) {
	case 0:
		vt_dword(&v, vz_dword_ops[vz_below(&w->rng, sizeof(vz_dword_ops))],
			 vt_exec(exec, vz_chance(&w->rng, 20) ? DRM_VATOM_VISA_EXEC_NM : 0),
			 vz_below(&w->rng, 5), addr, src0,
			 vz_chance(&w->rng, 30) ? src1 : NULL, vz_chance(&w->rng, 70));
		v.surface = vz_chance(&w->rng, 20) ? 5 : vz_below(&w->rng, 3);
		if (vz_chance(&w->rng, 10))
			v.op |= DRM_VATOM_VISA_OP_16;
		vt_add_visa(s, &v);
		break;
	case 1:
		for (i = 0; i < 32; i++) {
			addr[i] %= 64;
			vc[i] = vz_below(&w->rng, 32);
			rc[i] = vz_below(&w->rng, 4);
			lod[i] = vz_below(&w->rng, 3);
		}
		v.opcode = DRM_VATOM_VISA_TYPED_ATOMIC;
		v.op = vz_dword_ops[vz_below(&w->rng, 13)];
		v.exec_size = vz_chance(&w->rng, 80) ? DRM_VATOM_VISA_EXEC_8 : exec;
		v.surface = VZ_TYPED_SLOT;
		v.type = vz_below(&w->rng, 3);
		v.emask = vz_next(&w->rng);
		v.addr = addr;
		v.src0 = src0;
		v.src1 = src1;
		v.operands = DRM_VATOM_VISA_OPND_ADDR | DRM_VATOM_VISA_OPND_SRC0 |
			     (vz_chance(&w->rng, 50) ? DRM_VATOM_VISA_OPND_V : 0) |
			     (vz_chance(&w->rng, 30) ? DRM_VATOM_VISA_OPND_R : 0) |
			     (vz_chance(&w->rng, 30) ? DRM_VATOM_VISA_OPND_LOD : 0) |
			     (vz_chance(&w->rng, 70) ? DRM_VATOM_VISA_OPND_DST : 0);
		vt_add_visa_coords(s, &v, vc, rc, lod);
		break;
	default:
		v.opcode = DRM_VATOM_VISA_ADDC;
		v.exec_size = vz_below(&w->rng, 6);
		v.type = DRM_VATOM_VISA_TYPE_UD;
		v.emask = vz_chance(&w->rng, 70) ? 0xffffffff : vz_next(&w->rng);
		v.src0 = src0;
		v.src1 = src1;
		v.operands = DRM_VATOM_VISA_OPND_DST |
			     (vz_chance(&w->rng, 30) ? DRM_VATOM_VISA_OPND_SRC0_IMM :
						       DRM_VATOM_VISA_OPND_SRC0) |
			     (vz_chance(&w->rng, 30) ? DRM_VATOM_VISA_OPND_SRC1_IMM :
						       DRM_VATOM_VISA_OPND_SRC1);
		vt_add_visa(s, &v);
		break;
	}
}

/* One PTX atom on slot 0..2, aligned and in bounds most of the time. */
static void vz_ptx(struct vz_worker *w, struct vt_stream *s, __u64 size)
{
	struct drm_vatom_ptx p;
	__u8 type = 1 + vz_below(&w->rng, DRM_VATOM_PTX_TYPE_F64);
	__u8 vec = vz_chance(&w->rng, 80) ? 0 : 2u << vz_below(&w->rng, 3);
	__u32 acc = vt_ptx_access_size(type, vec);
	__u64 addr = acc && size > acc ? acc * vz_below(&w->rng, size / acc) : 0;

	vt_ptx_init(&p, 1 + vz_below(&w->rng, DRM_VATOM_PTX_OP_MAX), type, vec,
		    vz_below(&w->rng, 4), addr);
	p.slot = vz_below(&w->rng, 3);
	p.sem = vz_chance(&w->rng, 20) ? vz_below(&w->rng, 4) : 0;
	p.scope = vz_chance(&w->rng, 20) ? vz_below(&w->rng, 4) : 0;
	p.b[0] = vz_next(&w->rng);
	p.b[1] = vz_next(&w->rng);
	if (p.op == DRM_VATOM_PTX_OP_CAS) {
		p.c[0] = vz_next(&w->rng);
		p.c[1] = vz_next(&w->rng);
	}
	if (vz_chance(&w->rng, 5)) {
		p.flags = DRM_VATOM_PTX_CACHE_HINT;
		p.cache_policy = vz_next(&w->rng);
	}
	vt_add_ptx(s, &p);
}

/*
 * One NoC atomic on the grid at VZ_GRID_SLOT (a w x h grid; most of its
 * tiles are Tensix): unicast or broadcast, posted or with a response.
 */
static void vz_noc(struct vz_worker *w, struct vt_stream *s, __u32 profile,
		   __u32 gw, __u32 gh)
{
	static const __u8 at_ops[] = {
		DRM_VATOM_NOC_AT_INCR, DRM_VATOM_NOC_AT_SWAP_MASK, DRM_VATOM_NOC_AT_CAS,
		DRM_VATOM_NOC_AT_SWAP_IDX6, DRM_VATOM_NOC_AT_SWAP_IDX7,
		DRM_VATOM_NOC_AT_ACC, DRM_VATOM_NOC_AT_RISCV,
	};
	struct drm_vatom_noc p;
	__u32 tx = vz_below(&w->rng, gw), ty = vz_below(&w->rng, gh);
	__u32 op = at_ops[vz_below(&w->rng, sizeof(at_ops))];

	memset(&p, 0, sizeof(p));
	p.hdr.type = DRM_VATOM_PACKET_NOC;
	p.hdr.size = sizeof(p);
	p.slot = VZ_GRID_SLOT;
	p.noc = vz_below(&w->rng, 2);
	p.x = vz_below(&w->rng, gw);
	p.y = vz_below(&w->rng, gh);
	p.targ_addr_lo = 16 * vz_below(&w->rng, 32);
	if (profile == DRM_VATOM_NOC_PROFILE_WORMHOLE)
		p.targ_addr_mid = tx << 4 | ty << 10;
	else
		p.targ_addr_hi = tx | ty << 6;
	p.ctrl = DRM_VATOM_NOC_CTRL_REQ_ATOMIC;
	p.at_len_be = op << DRM_VATOM_NOC_AT_OPCODE_SHIFT |
		      (vz_next(&w->rng) & 0xfff);
	p.at_data = vz_next(&w->rng);
	if (vz_chance(&w->rng, 30)) {
		/* Broadcast to the whole grid (0, 0) .. (w-1, h-1). */
		p.ctrl |= DRM_VATOM_NOC_CTRL_BRCST_PACKET;
		if (vz_chance(&w->rng, 50))
			p.ctrl |= DRM_VATOM_NOC_CTRL_BRCST_SRC_INCLUDE;
		if (profile == DRM_VATOM_NOC_PROFILE_WORMHOLE)
			p.targ_addr_mid = (gw - 1) << 4 | (gh - 1) << 10;
		else
			p.targ_addr_hi = (gw - 1) | (gh - 1) << 6;
	} else if (vz_chance(&w->rng, 40)) {
		p.ctrl |= DRM_VATOM_NOC_CTRL_RESP_MARKED;
		p.ret_addr_lo = 512 + 16 * vz_below(&w->rng, 16);
		if (profile == DRM_VATOM_NOC_PROFILE_WORMHOLE)
			p.ret_addr_mid = p.x << 4 | p.y << 10;
		else
			p.ret_addr_hi = p.x | p.y << 6;
		p.packet_tag = vz_below(&w->rng, 16) << DRM_VATOM_NOC_TAG_TXN_ID_SHIFT;
	}
	vt_add_raw(s, &p, sizeof(p));
}

/* Flip, overwrite or resize something in a built stream. */
static void vz_mutate_stream(struct vz_worker *w, struct vt_stream *s)
{
	__u8 *b = (__u8 *)s->buf;
	struct drm_vatom_packet *h = (void *)b;

	if (!s->size)
		return;
	switch (vz_below(&w->rng, 8)) {
	case 0:
		b[vz_below(&w->rng, s->size)] ^= 1u << vz_below(&w->rng, 8);
		break;
	case 1:
		b[vz_below(&w->rng, s->size)] = vz_next(&w->rng);
		break;
	case 2:
		h->size = vz_chance(&w->rng, 50) ? h->size + 8 * (int)(vz_below(&w->rng, 5) - 2) :
			  (__u32)vz_next(&w->rng);
		break;
	case 3:
		h->type = vz_below(&w->rng, 6);
		break;
	case 4:
		((__u32 *)b)[vz_below(&w->rng, s->size / 4)] = vz_next(&w->rng);
		break;
	case 5:
		s->size -= 8 * vz_below(&w->rng, s->size / 8 + 1);
		break;
	case 6:
		s->size += 8 * (1 + vz_below(&w->rng, 4));
		break;
	default:
		s->size |= 1 + vz_below(&w->rng, 7);	/* not a multiple of 8 */
		break;
	}
}

/* ------------------------------------------------------------------------ */
/* SUBMIT                                                                    */
/* ------------------------------------------------------------------------ */

/*
 * -T: what a call writes through a pointer into the first half of the
 * scratch (user results, NoC counters), traced: before the call (@done
 * false) the half is set to a known pattern, since it holds pointers of
 * earlier calls; after it, its digest goes in the trace.
 */
static void vz_trace_out(struct vz_worker *w, bool done)
{
	if (!vd_trace || w->results)
		return;
	if (!done)
		memset(w->scratch, 0xa5, VZ_SCRATCH / 2);
	else
		vd_printf("out %016llx\n",
			  (unsigned long long)vd_hash(w->scratch, VZ_SCRATCH / 2));
}

/*
 * -T: wait until the file's jobs have executed, so that what the next
 * call sees is the device's answer and not how far it got: a synchronous
 * SUBMIT runs after the file's earlier jobs, and the syncobjs' fences
 * are waited for (those with none fail at once).
 */
static void vz_trace_drain(struct vz_worker *w)
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
static void vz_trace_state(struct vz_worker *w, bool surfaces)
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

static void vz_op_submit(struct vz_worker *w)
{
	struct vt_stream *s = (void *)(w->scratch + VZ_SCRATCH / 2);
	struct drm_vatom_binding bind[8];
	struct drm_vatom_sync syncs[2][4];
	struct drm_vatom_submit a;
	struct vz_surf *buf = vz_find(w, DRM_VATOM_SURFACE_BUFFER);
	struct vz_surf *typed = vz_find(w, DRM_VATOM_SURFACE_TYPED);
	struct vz_surf *grid = vz_find(w, DRM_VATOM_SURFACE_TILE_GRID);
	__u64 bsize = buf ? buf->size : 64;
	__u32 gw = grid ? grid->w : 1, gh = grid ? grid->gh : 1;
	__u32 profile = grid ? grid->profile : 0;
	__u32 nb = 0, npk, i, nmut;
	void *res = w->results ? w->results : w->scratch;
	__u8 *stream;

	w->op = "submit";
	vt_stream_init(s);
	npk = 1 + vz_below(&w->rng, 8);
	for (i = 0; i < npk && s->size < VT_STREAM_MAX - 1024; i++) {
		switch (vz_below(&w->rng, 3)) {
		case 0:
			vz_visa(w, s, bsize);
			break;
		case 1:
			vz_ptx(w, s, bsize);
			break;
		default:
			vz_noc(w, s, profile, gw + vz_chance(&w->rng, 5),
			       gh + vz_chance(&w->rng, 5));
			break;
		}
	}
	/* Broadcast-heavy: many packets to the whole grid. */
	if (grid && vz_chance(&w->rng, 10))
		while (s->size < VT_STREAM_MAX - 64)
			vz_noc(w, s, profile, gw, gh);

	memset(bind, 0, sizeof(bind));
	for (i = 0; i < 3; i++) {
		bind[nb].slot = i;
		bind[nb++].handle = vz_handle(w, DRM_VATOM_SURFACE_BUFFER);
	}
	bind[nb].slot = 5;
	bind[nb++].handle = vz_handle(w, DRM_VATOM_SURFACE_BUFFER);
	bind[nb].slot = VZ_TYPED_SLOT;
	bind[nb++].handle = typed ? typed->h : vz_handle(w, ~0u);
	bind[nb].slot = VZ_GRID_SLOT;
	bind[nb++].handle = grid ? grid->h : vz_handle(w, ~0u);

	memset(&a, 0, sizeof(a));
	/* The stream at the end of its buffer: reading past it faults. */
	stream = w->stream + VZ_STREAM - vt_align8(s->size);
	memcpy(stream, s->buf, s->size);
	a.stream = vt_u64_ptr(stream);
	a.stream_size = s->size;
	a.bindings = vt_u64_ptr(bind);
	a.binding_count = nb;
	if (vz_chance(&w->rng, 60)) {
		a.results = vt_u64_ptr(res);
		a.results_size = s->results + 8 * vz_below(&w->rng, 4);
	} else if (buf) {
		a.result_handle = buf->h;
		a.result_offset = 8 * vz_below(&w->rng, 8);
		a.results_size = s->results;
	}
	/* Zero, not the stack's: the mutations below may point at them. */
	memset(syncs, 0, sizeof(syncs));
	if (w->nsync && vz_chance(&w->rng, 30)) {
		a.in_sync_count = vz_below(&w->rng, 3);
		a.out_sync_count = vz_below(&w->rng, 3);
		for (i = 0; i < 4; i++) {
			syncs[0][i].handle = w->sync[vz_below(&w->rng, w->nsync)];
			syncs[1][i].handle = w->sync[vz_below(&w->rng, w->nsync)];
			if (vz_chance(&w->rng, 30))
				syncs[1][i].point = 1 + vz_below(&w->rng, 100);
		}
		a.in_syncs = vt_u64_ptr(syncs[0]);
		a.out_syncs = vt_u64_ptr(syncs[1]);
	}
	if (vz_chance(&w->rng, 30))
		a.flags = DRM_VATOM_SUBMIT_ASYNC;

	nmut = vz_chance(&w->rng, 30) ? 0 : 1 + vz_below(&w->rng, 3);
	for (i = 0; i < nmut; i++) {
		switch (vz_below(&w->rng, 14)) {
		case 0: case 1: case 2: case 3:
			vz_mutate_stream(w, s);
			/* Again at the end of the buffer, as far as it goes. */
			i = s->size < VT_STREAM_MAX ? s->size : VT_STREAM_MAX;
			stream = w->stream + VZ_STREAM - vt_align8(i);
			memcpy(stream, s->buf, i);
			a.stream = vt_u64_ptr(stream);
			a.stream_size = s->size;
			if (vz_chance(&w->rng, 30))
				a.stream_size = vz_count(w, s->size);
			break;
		case 4:
			bind[vz_below(&w->rng, nb)].slot = vz_chance(&w->rng, 50) ?
				vz_below(&w->rng, 300) : bind[0].slot;
			break;
		case 5:
			if (vz_chance(&w->rng, 50))
				bind[vz_below(&w->rng, nb)].flags = vz_next(&w->rng);
			else
				bind[vz_below(&w->rng, nb)].pad = vz_next(&w->rng);
			break;
		case 6:
			a.binding_count = vz_count(w, nb);
			break;
		case 7:
			a.bindings = vz_ptr(w, bind, 100);
			break;
		case 8:
			a.stream = vz_ptr(w, stream, 100);
			break;
		case 9:
			a.results = vz_ptr(w, res, 100);
			a.results_size = vz_chance(&w->rng, 50) ? vz_next(&w->rng) :
					 s->results;
			break;
		case 10:
			a.result_handle = vz_handle(w, ~0u);
			a.result_offset = vz_chance(&w->rng, 50) ? vz_next(&w->rng) :
					  vz_below(&w->rng, 64);
			break;
		case 11:
			a.flags = vz_next(&w->rng);
			break;
		case 12:
			a.in_sync_count = vz_count(w, 1);
			a.out_sync_count = vz_count(w, 1);
			a.in_syncs = vz_ptr(w, syncs[0], 30);
			a.out_syncs = vz_ptr(w, syncs[1], 30);
			syncs[0][0].handle = (__u32)vz_next(&w->rng);
			syncs[1][0].flags = vz_chance(&w->rng, 50);
			syncs[0][1].point = vz_next(&w->rng);
			break;
		default:
			a.error_index = vz_next(&w->rng);
			a.results_needed = vz_next(&w->rng);
			break;
		}
	}
	vz_trace_out(w, false);
	if (vd_trace) {
		vd_printf("args flags %#x stream %u bindings %u", a.flags, a.stream_size,
			  a.binding_count);
		for (i = 0; i < nb; i++)
			vd_printf(" %u:%u:%#x:%#x", bind[i].slot, bind[i].handle,
				  bind[i].flags, bind[i].pad);
		vd_printf(" results %llu handle %u offset %llu syncs %u %u\n",
			  (unsigned long long)a.results_size, a.result_handle,
			  (unsigned long long)a.result_offset, a.in_sync_count,
			  a.out_sync_count);
	}
	if (!vz_ioctl(w, w->fd, DRM_IOCTL_VATOM_SUBMIT,
		      vz_chance(&w->rng, 2) ? (void *)vz_none : &a, false) && vd_trace)
		vz_trace_drain(w);
	vz_trace_out(w, true);
}

/* ------------------------------------------------------------------------ */
/* The rest                                                                  */
/* ------------------------------------------------------------------------ */

static void vz_op_counters(struct vz_worker *w)
{
	struct drm_vatom_noc_counters c;

	w->op = "noc_counters";
	memset(&c, 0, sizeof(c));
	c.handle = vz_handle(w, DRM_VATOM_SURFACE_TILE_GRID);
	c.flags = vz_chance(&w->rng, 80) ? 1u << vz_below(&w->rng, 3) :
		  vz_below(&w->rng, 16);
	c.x = vz_below(&w->rng, vz_chance(&w->rng, 90) ? 2 : 100);
	c.y = vz_below(&w->rng, vz_chance(&w->rng, 90) ? 2 : 100);
	c.noc = vz_below(&w->rng, vz_chance(&w->rng, 90) ? 2 : 9);
	if (c.flags & DRM_VATOM_NOC_COUNTERS_CLEAR_OUTSTANDING)
		c.id_mask = vz_chance(&w->rng, 90) ? vz_below(&w->rng, 0x10000) :
			    vz_next(&w->rng);
	if (c.flags & DRM_VATOM_NOC_COUNTERS_READ) {
		c.count = vz_chance(&w->rng, 90) ? 1 + vz_below(&w->rng, 64) :
			  vz_count(w, 64);
		c.counters = vz_ptr(w, w->scratch, 15);
	}
	if (vz_chance(&w->rng, 5))
		c.pad = 1;
	vz_trace_out(w, false);
	vz_ioctl(w, w->fd, DRM_IOCTL_VATOM_NOC_COUNTERS, &c, false);
	vz_trace_out(w, true);
}

static void vz_op_param(struct vz_worker *w)
{
	struct drm_vatom_get_param p;

	w->op = "get_param";
	memset(&p, 0, sizeof(p));
	p.param = vz_chance(&w->rng, 90) ? vz_below(&w->rng, 19) : vz_next(&w->rng);
	p.index = vz_chance(&w->rng, 70) ? 0 : vz_below(&w->rng, 8);
	vz_ioctl(w, w->fd, DRM_IOCTL_VATOM_GET_PARAM, &p, false);
}

static void vz_op_close(struct vz_worker *w)
{
	struct drm_gem_close c = { 0 };
	int i;

	w->op = "gem_close";
	if (w->nsurf && vz_chance(&w->rng, 70)) {
		i = vz_below(&w->rng, w->nsurf);
		c.handle = w->surf[i].h;
		vz_forget(w, i);
	} else {
		c.handle = vz_next(&w->rng);
		if (vz_chance(&w->rng, 20))
			c.pad = 1;
	}
	vz_ioctl(w, w->fd, DRM_IOCTL_GEM_CLOSE, &c, true);
}

/* PRIME export, import into this file or the other device's, and back. */
static void vz_op_prime(struct vz_worker *w)
{
	struct drm_prime_handle p = { 0 };
	int from = w->fd, to, dmabuf;
	__u32 h = vz_handle(w, DRM_VATOM_SURFACE_BUFFER);

	w->op = "prime";
	to = w->fd2 >= 0 && vz_chance(&w->rng, 50) ? w->fd2 : w->fd;
	p.handle = h;
	p.flags = vz_chance(&w->rng, 90) ? DRM_CLOEXEC | DRM_RDWR : vz_next(&w->rng);
	p.fd = -1;
	if (vz_ioctl(w, from, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p, true))
		return;
	dmabuf = p.fd;
	p.handle = 0;
	p.flags = 0;
	if (vz_chance(&w->rng, 5)) {
		p.fd = vz_below(&w->rng, 64);	/* any fd: not a dma-buf */
		/* -T: the same descriptor in both halves, a pipe */
		if (vd_trace)
			p.fd = w->pipefd[0];
	}
	if (!vz_ioctl(w, to, DRM_IOCTL_PRIME_FD_TO_HANDLE, &p, true)) {
		if (to == w->fd && p.handle != h)
			vz_remember(w, p.handle, DRM_VATOM_SURFACE_BUFFER, 0);
		if (to != w->fd) {
			struct drm_gem_close c = { .handle = p.handle };

			/* A submission on the other device's import first. */
			if (vz_chance(&w->rng, 50)) {
				struct vz_worker w2 = *w;

				w2.fd = to;
				w2.nsurf = 1;
				w2.surf[0].h = p.handle;
				w2.surf[0].kind = DRM_VATOM_SURFACE_BUFFER;
				w2.surf[0].size = VT_PAGE_SIZE;
				w2.nsync = 0;
				vz_op_submit(&w2);
				w->rng = w2.rng;
			}
			vz_ioctl(w, to, DRM_IOCTL_GEM_CLOSE, &c, true);
		}
	}
	close(dmabuf);
}

/* Syncobj create, destroy, wait, signal, export and import. */
static void vz_op_syncobj(struct vz_worker *w)
{
	__u32 h = w->nsync ? w->sync[vz_below(&w->rng, w->nsync)] :
		  (__u32)vz_next(&w->rng);
	union {
		struct drm_syncobj_create create;
		struct drm_syncobj_destroy destroy;
		struct drm_syncobj_wait wait;
		struct drm_syncobj_timeline_wait twait;
		struct drm_syncobj_handle fd;
		struct drm_syncobj_timeline_array array;
		struct drm_syncobj_transfer transfer;
	} u;
	__u64 points[2] = { 1 + vz_below(&w->rng, 50), 0 };
	__u32 hs[2] = { h, h };
	int i;

	w->op = "syncobj";
	memset(&u, 0, sizeof(u));
	switch (vz_below(&w->rng, 8)) {
	case 0:
		u.create.flags = vz_chance(&w->rng, 50) ? DRM_SYNCOBJ_CREATE_SIGNALED :
				 vz_below(&w->rng, 4);
		if (vz_ioctl(w, w->fd, DRM_IOCTL_SYNCOBJ_CREATE, &u.create, true))
			break;
		if (w->nsync == VZ_MAX_SYNCS) {
			i = vz_below(&w->rng, w->nsync);
			drmSyncobjDestroy(w->fd, w->sync[i]);
			w->sync[i] = w->sync[--w->nsync];
		}
		w->sync[w->nsync++] = u.create.handle;
		break;
	case 1:
		u.destroy.handle = h;
		for (i = 0; i < w->nsync; i++)
			if (w->sync[i] == h) {
				w->sync[i] = w->sync[--w->nsync];
				break;
			}
		vz_ioctl(w, w->fd, DRM_IOCTL_SYNCOBJ_DESTROY, &u.destroy, true);
		break;
	case 2:
		u.wait.handles = vz_ptr(w, hs, 10);
		/*
		 * Not huge: the DRM core's drm_syncobj_array_find() allocates
		 * count_handles entries without __GFP_NOWARN, so 2^21 and
		 * more warn in the page allocator (the core's, on any
		 * syncobj driver; seen with 6.1).
		 */
		u.wait.count_handles = vz_chance(&w->rng, 90) ? 1 + vz_below(&w->rng, 2) :
				       1u << vz_below(&w->rng, 11);
		u.wait.flags = vz_below(&w->rng, 8);
		u.wait.timeout_nsec = 0;
		vz_ioctl(w, w->fd, DRM_IOCTL_SYNCOBJ_WAIT, &u.wait, true);
		break;
	case 3:
		u.twait.handles = vz_ptr(w, hs, 10);
		u.twait.points = vz_ptr(w, points, 10);
		u.twait.count_handles = 1;
		u.twait.flags = vz_below(&w->rng, 8);
		vz_ioctl(w, w->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &u.twait, true);
		break;
	case 4:
		u.array.handles = vz_ptr(w, hs, 10);
		u.array.points = vz_ptr(w, points, 10);
		u.array.count_handles = 1;
		vz_ioctl(w, w->fd, vz_chance(&w->rng, 50) ?
			 DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL : DRM_IOCTL_SYNCOBJ_QUERY,
			 &u.array, true);
		break;
	case 5:
		u.fd.handle = h;
		u.fd.flags = vz_chance(&w->rng, 70) ?
			DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE : vz_below(&w->rng, 4);
		u.fd.fd = -1;
		if (vz_ioctl(w, w->fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &u.fd, true))
			break;
		u.fd.handle = w->nsync ? w->sync[vz_below(&w->rng, w->nsync)] : 0;
		u.fd.flags = u.fd.flags & DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE ?
			DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE : 0;
		i = u.fd.fd;
		if (!vz_ioctl(w, w->fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &u.fd, true) &&
		    !u.fd.flags) {
			/* A new handle for the same syncobj: keep it. */
			if (w->nsync < VZ_MAX_SYNCS)
				w->sync[w->nsync++] = u.fd.handle;
			else
				drmSyncobjDestroy(w->fd, u.fd.handle);
		}
		close(i);
		break;
	case 6:
		u.transfer.src_handle = h;
		u.transfer.dst_handle = w->nsync ? w->sync[vz_below(&w->rng, w->nsync)] : h;
		u.transfer.src_point = vz_chance(&w->rng, 50) ? 0 : points[0];
		u.transfer.dst_point = vz_chance(&w->rng, 50) ? 0 : points[0] + 1;
		/*
		 * WAIT_FOR_SUBMIT makes the core wait up to 5 s for a point
		 * nobody submits: rarely, or it takes the time budget.
		 */
		u.transfer.flags = vz_chance(&w->rng, 90) ? 0 :
				   (__u32)vz_next(&w->rng) &
				   ~DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT;
		if (!vz_below(&w->rng, 500))
			u.transfer.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT;
		/*
		 * Unknown flags only with a source nobody has: Debian's 6.12
		 * rejects them in drm_syncobj_find_fence() after taking the
		 * source's reference, which it then never drops (a DRM core
		 * leak, not vatom's; kmemleak shows the syncobj and its
		 * fences once the file is closed).
		 */
		if (u.transfer.flags & ~DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT)
			u.transfer.src_handle = 0;
		vz_ioctl(w, w->fd, DRM_IOCTL_SYNCOBJ_TRANSFER, &u.transfer, true);
		break;
	default:
		u.array.handles = vt_u64_ptr(hs);
		u.array.count_handles = 1;
		vz_ioctl(w, w->fd, vz_chance(&w->rng, 50) ? DRM_IOCTL_SYNCOBJ_RESET :
			 DRM_IOCTL_SYNCOBJ_SIGNAL, &u.array, true);
		break;
	}
}

/* ------------------------------------------------------------------------ */
/* Queues                                                                    */
/* ------------------------------------------------------------------------ */

/* A queue's binding table is SUBMIT's, plus the jobs' streams and results. */
#define VZ_QUEUE_SLOT		6
#define VZ_QUEUE_AREA		8192	/* stream (and results) bytes per job area */
#define VZ_QUEUE_AREAS		4

static __u64 vz_page_round(__u64 size)
{
	return (size + VT_PAGE_SIZE - 1) & ~(__u64)(VT_PAGE_SIZE - 1);
}

/* Forget queue @i, unmapping its ring and page. */
static void vz_queue_forget(struct vz_worker *w, int i)
{
	struct vz_queue *q = &w->queue[i];

	if (q->ring)
		munmap(q->ring, vz_page_round((__u64)q->entries * sizeof(*q->ring)));
	if (q->ctl)
		munmap(q->ctl, VT_PAGE_SIZE);
	w->queue[i] = w->queue[--w->nqueue];
}

static void vz_queue_destroy(struct vz_worker *w, int i)
{
	struct drm_vatom_queue_destroy d = { 0 };
	int fd = w->fd;

	w->op = "queue_destroy";
	if (i >= 0) {
		d.queue_id = w->queue[i].id;
		fd = w->queue[i].fd;
		vz_queue_forget(w, i);
	} else {
		d.queue_id = vz_chance(&w->rng, 50) ? vz_below(&w->rng, 70) : vz_next(&w->rng);
	}
	if (vz_chance(&w->rng, 3))
		d.pad = 1;
	vz_ioctl(w, fd, DRM_IOCTL_VATOM_QUEUE_DESTROY, &d, false);
}

/*
 * QUEUE_CREATE, valid or mutated: kick or polling mode, idle times, a
 * syncobj, an eventfd (or a pipe, a closed or any descriptor). The ring
 * and page join the handle pool (other calls bind and close them; the
 * queue keeps its own references).
 */
static void vz_queue_create(struct vz_worker *w)
{
	struct vz_surf *typed = vz_find(w, DRM_VATOM_SURFACE_TYPED);
	struct vz_surf *grid = vz_find(w, DRM_VATOM_SURFACE_TILE_GRID);
	struct drm_vatom_binding bind[8];
	struct drm_vatom_queue_create a;
	struct vz_queue *q;
	__u32 nb = 0, i;

	if (w->nqueue == VZ_MAX_QUEUES)
		vz_queue_destroy(w, vz_below(&w->rng, w->nqueue));
	w->op = "queue_create";
	memset(bind, 0, sizeof(bind));
	for (i = 0; i < 3; i++) {
		bind[nb].slot = i;
		bind[nb++].handle = vz_handle(w, DRM_VATOM_SURFACE_BUFFER);
	}
	bind[nb].slot = VZ_TYPED_SLOT;
	bind[nb++].handle = typed ? typed->h : vz_handle(w, ~0u);
	bind[nb].slot = VZ_GRID_SLOT;
	bind[nb++].handle = grid ? grid->h : vz_handle(w, ~0u);
	bind[nb].slot = VZ_QUEUE_SLOT;
	bind[nb++].handle = vz_chance(&w->rng, 95) ? w->qsurf : vz_handle(w, ~0u);

	memset(&a, 0, sizeof(a));
	a.entries = vz_chance(&w->rng, 90) ? 1u << vz_below(&w->rng, 7) : vz_count(w, 8);
	a.bindings = vz_ptr(w, bind, 5);
	a.binding_count = vz_chance(&w->rng, 90) ? nb : vz_count(w, nb);
	switch (vz_below(&w->rng, 8)) {
	case 0:
	case 1:
		break;
	case 2:
	case 3:
	case 4:
		a.flags = DRM_VATOM_QUEUE_CREATE_POLL;
		break;
	case 5:
		a.flags = DRM_VATOM_QUEUE_CREATE_EVENTFD;
		break;
	case 6:
		a.flags = DRM_VATOM_QUEUE_CREATE_POLL | DRM_VATOM_QUEUE_CREATE_EVENTFD;
		break;
	default:
		a.flags = vz_next(&w->rng);
		break;
	}
	/* Pollers that spin a second are rare: they take the CPU. */
	if (a.flags & DRM_VATOM_QUEUE_CREATE_POLL)
		a.poll_idle_us = vz_chance(&w->rng, 80) ? vz_below(&w->rng, 2000) :
				 vz_chance(&w->rng, 20) ? 1000000 : vz_next(&w->rng);
	else if (vz_chance(&w->rng, 3))
		a.poll_idle_us = vz_next(&w->rng);
	if (w->nsync && vz_chance(&w->rng, 50))
		a.syncobj = w->sync[vz_below(&w->rng, w->nsync)];
	else if (vz_chance(&w->rng, 10))
		a.syncobj = vz_next(&w->rng);
	if (a.flags & DRM_VATOM_QUEUE_CREATE_EVENTFD) {
		switch (vz_below(&w->rng, 10)) {
		case 0:
			a.eventfd = w->pipefd[0];
			break;
		case 1:
			a.eventfd = -1;
			break;
		case 2:
			a.eventfd = vz_below(&w->rng, VZ_LEDGER_EFD_MIN); /* whatever it is */
			/* -T: the same descriptor in both halves, a pipe */
			if (vd_trace)
				a.eventfd = w->pipefd[1];
			break;
		default:
			a.eventfd = w->efd;
			break;
		}
	} else if (vz_chance(&w->rng, 3)) {
		a.eventfd = w->efd;
	}
	/*
	 * The poller's CPU: mostly one that exists (the first queue of the
	 * process to name one pins its poller; another CPU is then -EINVAL),
	 * sometimes any value, with the flag or without.
	 */
	if ((a.flags & DRM_VATOM_QUEUE_CREATE_POLL) && vz_chance(&w->rng, 20))
		a.flags |= DRM_VATOM_QUEUE_CREATE_POLL_CPU;
	if (a.flags & DRM_VATOM_QUEUE_CREATE_POLL_CPU)
		a.poll_cpu = vz_chance(&w->rng, 90) ?
			     vz_below(&w->rng, (__u32)sysconf(_SC_NPROCESSORS_ONLN)) :
			     vz_next(&w->rng);
	else if (vz_chance(&w->rng, 3))
		a.poll_cpu = vz_next(&w->rng);
	/*
	 * -T: no polling queue. A poller consumes when it likes, so what
	 * the next call sees of its jobs is timing, not the device.
	 */
	if (vd_trace)
		a.flags &= ~(DRM_VATOM_QUEUE_CREATE_POLL | DRM_VATOM_QUEUE_CREATE_POLL_CPU);
	if (vz_ioctl(w, w->fd, DRM_IOCTL_VATOM_QUEUE_CREATE,
		     vz_chance(&w->rng, 2) ? (void *)vz_none : &a, false))
		return;
	q = &w->queue[w->nqueue++];
	q->fd = w->fd;
	q->id = a.queue_id;
	q->entries = a.entries;
	q->tail = 0;
	q->poll = a.flags & DRM_VATOM_QUEUE_CREATE_POLL;
	q->ring = vt_map(w->fd, a.ring_handle,
			 vz_page_round((__u64)a.entries * sizeof(*q->ring)));
	q->ctl = vt_map(w->fd, a.ctl_handle, VT_PAGE_SIZE);
	vz_remember(w, a.ring_handle, DRM_VATOM_SURFACE_BUFFER,
		    (__u64)a.entries * sizeof(*q->ring));
	vz_remember(w, a.ctl_handle, DRM_VATOM_SURFACE_BUFFER, VT_PAGE_SIZE);
}

/* KICK queue @q, or an id nobody has (@q NULL). */
static void vz_queue_kick(struct vz_worker *w, const struct vz_queue *q)
{
	struct drm_vatom_queue_kick k = { 0 };

	w->op = "queue_kick";
	k.queue_id = q ? q->id : vz_chance(&w->rng, 50) ? vz_below(&w->rng, 70) :
				  (__u32)vz_next(&w->rng);
	if (vz_chance(&w->rng, 3))
		k.pad = 1;
	vz_ioctl(w, q ? q->fd : w->fd, DRM_IOCTL_VATOM_QUEUE_KICK, &k, false);
}

/* A job's descriptor, its fields mutated now and then. */
static void vz_queue_job(struct vz_worker *w, struct drm_vatom_queue_job *j,
			 const struct vt_stream *s)
{
	__u32 area = vz_below(&w->rng, VZ_QUEUE_AREAS);

	memcpy(w->qmap + area * VZ_QUEUE_AREA, s->buf,
	       s->size < VZ_QUEUE_AREA ? s->size : VZ_QUEUE_AREA);
	memset(j, 0, sizeof(*j));
	j->stream_slot = VZ_QUEUE_SLOT;
	j->stream_offset = area * VZ_QUEUE_AREA;
	j->stream_size = s->size;
	j->user_data = vz_next(&w->rng);
	if (s->results) {
		j->results_slot = VZ_QUEUE_SLOT;
		j->results_offset = (VZ_QUEUE_AREAS + area) * VZ_QUEUE_AREA;
		j->results_size = s->results < VZ_QUEUE_AREA ? s->results : VZ_QUEUE_AREA;
	}
	if (!vz_chance(&w->rng, 20))
		return;
	switch (vz_below(&w->rng, 8)) {
	case 0:
		j->stream_slot = vz_below(&w->rng, 300);
		break;
	case 1:
		j->stream_offset = vz_chance(&w->rng, 50) ? vz_next(&w->rng) :
				   j->stream_offset + 4;
		break;
	case 2:
		j->stream_size = vz_count(w, j->stream_size);
		break;
	case 3:
		j->results_offset = vz_next(&w->rng) >> vz_below(&w->rng, 64);
		break;
	case 4:
		j->results_size = vz_chance(&w->rng, 50) ? 0 : vz_next(&w->rng);
		break;
	case 5:
		j->flags = 1u << vz_below(&w->rng, 32);
		break;
	case 6:
		j->pad = vz_next(&w->rng);
		break;
	default:
		j->results_slot = vz_below(&w->rng, 10);
		break;
	}
}

/*
 * Publish jobs on a queue: packets of every family, mutated or not, in
 * the worker's queue surface; the tail moved on, too far or anywhere;
 * then KICK as the protocol asks (kick mode: always; polling: when
 * NEED_WAKEUP is set), or anyway.
 */
static void vz_queue_jobs(struct vz_worker *w)
{
	struct vt_stream *s = (void *)(w->scratch + VZ_SCRATCH / 2);
	struct vz_surf *buf = vz_find(w, DRM_VATOM_SURFACE_BUFFER);
	struct vz_surf *grid = vz_find(w, DRM_VATOM_SURFACE_TILE_GRID);
	__u64 bsize = buf ? buf->size : 64;
	__u32 gw = grid ? grid->w : 1, gh = grid ? grid->gh : 1;
	__u32 profile = grid ? grid->profile : 0;
	__u32 n, i, p, npk, tail;
	struct vz_queue *q;

	if (!w->nqueue) {
		vz_queue_create(w);
		return;
	}
	q = &w->queue[vz_below(&w->rng, w->nqueue)];
	w->op = "queue_jobs";
	if (!q->ring || !q->ctl || !w->qmap) {
		vz_queue_kick(w, q);
		return;
	}
	n = 1 + vz_below(&w->rng, q->entries < 8 ? q->entries : 8);
	for (i = 0; i < n; i++) {
		vt_stream_init(s);
		npk = 1 + vz_below(&w->rng, 4);
		for (p = 0; p < npk; p++) {
			switch (vz_below(&w->rng, 3)) {
			case 0:
				vz_visa(w, s, bsize);
				break;
			case 1:
				vz_ptx(w, s, bsize);
				break;
			default:
				vz_noc(w, s, profile, gw, gh);
				break;
			}
		}
		if (vz_chance(&w->rng, 20))
			vz_mutate_stream(w, s);
		vz_queue_job(w, &q->ring[(q->tail + i) & (q->entries - 1)], s);
	}
	switch (vz_below(&w->rng, 10)) {
	case 0:		/* too far: KICK says -EINVAL, a poller sleeps */
		tail = q->tail + q->entries + 1 + vz_below(&w->rng, 100);
		break;
	case 1:
		tail = vz_next(&w->rng);
		break;
	case 2:		/* back to what the kernel consumed */
		q->tail = __atomic_load_n(&q->ctl->completed, __ATOMIC_ACQUIRE);
		tail = q->tail;
		break;
	default:
		q->tail += n;
		tail = q->tail;
		break;
	}
	__atomic_store_n(&q->ctl->tail, tail, __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (!q->poll || vz_chance(&w->rng, 10) ||
	    (__atomic_load_n(&q->ctl->flags, __ATOMIC_RELAXED) &
	     DRM_VATOM_QUEUE_CTL_NEED_WAKEUP))
		vz_queue_kick(w, q);
}

/* Queue calls: create, jobs, KICK, DESTROY; and the eventfd read. */
static void vz_op_queue(struct vz_worker *w)
{
	__u64 v;

	switch (vz_below(&w->rng, 10)) {
	case 0:
	case 1:
		vz_queue_create(w);
		break;
	case 2:
		vz_queue_kick(w, w->nqueue && vz_chance(&w->rng, 80) ?
			      &w->queue[vz_below(&w->rng, w->nqueue)] : NULL);
		break;
	case 3:
		vz_queue_destroy(w, w->nqueue && vz_chance(&w->rng, 85) ?
				 (int)vz_below(&w->rng, w->nqueue) : -1);
		break;
	case 4:
		w->op = "eventfd read";
		if (read(w->efd, &v, sizeof(v)) < 0)
			v = 0;	/* EAGAIN: nothing signalled since */
		break;
	default:
		vz_queue_jobs(w);
		break;
	}
}

/* RESET_STATUS: the file's reset status, acknowledged or not, mutated. */
static void vz_op_reset(struct vz_worker *w)
{
	struct drm_vatom_reset_status st;
	void *arg = &st;

	w->op = "reset_status";
	memset(&st, 0, sizeof(st));
	st.flags = vz_chance(&w->rng, 50) ? DRM_VATOM_RESET_ACK : 0;
	if (vz_chance(&w->rng, 10))
		st.flags = vz_next(&w->rng);
	if (vz_chance(&w->rng, 5))
		st.pad = vz_next(&w->rng);
	if (vz_chance(&w->rng, 3))
		arg = vz_chance(&w->rng, 50) ? vz_none : vz_ro;
	vz_ioctl(w, w->fd, DRM_IOCTL_VATOM_RESET_STATUS, arg, false);
}

/* A vatom ioctl number with a random size and direction, random bytes. */
static void vz_op_raw(struct vz_worker *w)
{
	__u32 nr = DRM_COMMAND_BASE + vz_below(&w->rng, DRM_VATOM_RESET_STATUS + 1);
	__u32 size = vz_below(&w->rng, 160);
	__u32 dir = vz_below(&w->rng, 4), i;
	__u64 *arg = (void *)w->scratch;

	w->op = "raw ioctl";
	for (i = 0; i < 20; i++)
		arg[i] = vz_chance(&w->rng, 50) ? vz_next(&w->rng) :
			 vz_below(&w->rng, 8);
	vz_ioctl(w, w->fd, _IOC(dir, DRM_IOCTL_BASE, nr, size), arg, false);
}

static void (*const vz_ops[])(struct vz_worker *w) = {
	vz_op_submit, vz_op_submit, vz_op_submit, vz_op_submit, vz_op_submit,
	vz_op_create, vz_op_create, vz_op_info, vz_op_counters, vz_op_param,
	vz_op_close, vz_op_prime, vz_op_syncobj, vz_op_syncobj, vz_op_raw,
	vz_op_queue, vz_op_queue, vz_op_queue, vz_op_reset,
};

/* A few valid surfaces and syncobjs to start from. */
static void vz_seed_pool(struct vz_worker *w)
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

static int vz_worker_init(struct vz_worker *w, int id, __u64 seed, int fd, int fd2)
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

static void vz_worker_fini(struct vz_worker *w)
{
	while (w->nqueue)
		vz_queue_forget(w, 0);
	if (w->qmap)
		munmap(w->qmap, VZ_QUEUE_SURF);
	close(w->efd);
	close(w->pipefd[0]);
	close(w->pipefd[1]);
	munmap(w->scratch, VZ_SCRATCH);
	munmap(w->stream, VZ_STREAM + VT_PAGE_SIZE);
}

/* ------------------------------------------------------------------------ */
/* The known-good workload                                                   */
/* ------------------------------------------------------------------------ */

static double vz_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The ledger's polling queue: ring entries, and stream bytes per entry. */
#define VZ_LQ_ENTRIES	64
#define VZ_LQ_STRIDE	512

/**
 * struct vz_ledger - valid submissions and queue jobs with a known total
 * @fd: its own file (its jobs are ordered only among themselves)
 * @buf: a 4 KiB buffer, mapped at @map; @res a result surface
 * @out: a syncobj each asynchronous submission signals
 * @sum: what the lanes must hold
 * @subs: submissions made
 * @bad: a submission or job failed
 * @q: a polling queue adding to @buf (id 0: none), its ring @ring, page
 *	@ctl, streams in @qs (mapped at @qmap)
 * @qsync: a timeline syncobj the queue adds a point to per batch
 * @efd: an eventfd it signals per batch
 * @jobs: jobs published on it
 * @qk: what the job in each ring entry adds
 * @seen: queue jobs whose status was read
 * @async_k: what the asynchronous job in flight adds (0: none)
 * @failed: jobs that failed as injected faults allow (-F), adding nothing
 *
 * @sum counts each job when it is submitted or published, and takes it
 * back when it turns out to have failed.
 */
struct vz_ledger {
	int fd;
	__u32 buf, res, out;
	__u32 *map;
	__u32 sum[VZ_LEDGER_LANES];
	unsigned int subs, bad;
	char why[160];
	__u32 q, qs, qsync;
	struct drm_vatom_queue_job *ring;
	struct drm_vatom_queue_ctl *ctl;
	__u8 *qmap;
	int efd;
	__u32 jobs;
	__u32 qk[VZ_LQ_ENTRIES];
	__u32 seen, async_k;
	unsigned int failed;
};

/*
 * The ledger's polling queue, made before the fuzzing takes the device's
 * pollers; without one (an older module) the ledger only submits.
 */
static void vz_ledger_queue(struct vz_ledger *l)
{
	struct drm_vatom_binding b[2] = { { .slot = 0 }, { .slot = 1 } };
	struct drm_vatom_queue_create a = {
		.entries = VZ_LQ_ENTRIES,
		.flags = DRM_VATOM_QUEUE_CREATE_POLL | DRM_VATOM_QUEUE_CREATE_EVENTFD,
		.bindings = vt_u64_ptr(b), .binding_count = 2,
	};

	/*
	 * Above every descriptor number the workers pick at random for a
	 * queue's eventfd (below 64, "whatever it is"): a random queue once
	 * signalled this one, 499 counts for 481 jobs.
	 */
	l->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (l->efd >= 0) {
		int high = fcntl(l->efd, F_DUPFD_CLOEXEC, VZ_LEDGER_EFD_MIN);

		close(l->efd);
		l->efd = high;
	}
	if (l->efd < 0 || drmSyncobjCreate(l->fd, 0, &l->qsync) ||
	    vt_buffer_create(l->fd, VZ_LQ_ENTRIES * VZ_LQ_STRIDE, &l->qs))
		return;
	l->qmap = vt_map(l->fd, l->qs, VZ_LQ_ENTRIES * VZ_LQ_STRIDE);
	b[0].handle = l->buf;
	b[1].handle = l->qs;
	a.syncobj = l->qsync;
	a.eventfd = l->efd;
	if (!l->qmap || ioctl(l->fd, DRM_IOCTL_VATOM_QUEUE_CREATE, &a))
		return;
	l->ring = vt_map(l->fd, a.ring_handle, VZ_LQ_ENTRIES * sizeof(*l->ring));
	l->ctl = vt_map(l->fd, a.ctl_handle, VT_PAGE_SIZE);
	if (l->ring && l->ctl)
		l->q = a.queue_id;
}

static int vz_ledger_init(struct vz_ledger *l)
{
	memset(l, 0, sizeof(*l));
	l->efd = -1;
	l->fd = vt_open_path(vz_nodes[0]);
	if (l->fd < 0 || vt_buffer_create(l->fd, VT_PAGE_SIZE, &l->buf) ||
	    vt_buffer_create(l->fd, VT_PAGE_SIZE, &l->res) ||
	    drmSyncobjCreate(l->fd, DRM_SYNCOBJ_CREATE_SIGNALED, &l->out))
		return -errno;
	l->map = vt_map(l->fd, l->buf, VT_PAGE_SIZE);
	if (!l->map)
		return -errno;
	vz_ledger_queue(l);
	return 0;
}

/* Wait (5 s at most) until the queue completed @n jobs. */
static bool vz_ledger_drained(struct vz_ledger *l, __u32 n)
{
	double end = vz_now() + 5;

	while (__atomic_load_n(&l->ctl->completed, __ATOMIC_ACQUIRE) < n) {
		if (vz_now() > end) {
			if (!l->bad++)
				snprintf(l->why, sizeof(l->why), "ledger queue: %llu of %u done",
					 (unsigned long long)l->ctl->completed, n);
			return false;
		}
		sched_yield();
	}
	return true;
}

/*
 * A ledger job that would have added @k failed with @err: with -F, a job
 * that timed out, faulted, or was refused or cancelled by its file's reset
 * executed nothing (it is one packet): take @k back and acknowledge the
 * reset. Anything else is a defect.
 */
static void vz_ledger_failed(struct vz_ledger *l, int err, __u32 k, const char *what)
{
	int i;

	for (i = 0; i < VZ_LEDGER_LANES; i++)
		l->sum[i] -= k;
	if (vz_faults && (err == -EIO || err == -ETIMEDOUT || err == -ECANCELED)) {
		l->failed++;
		vz_ack(l->fd);
		return;
	}
	if (!l->bad++)
		snprintf(l->why, sizeof(l->why), "ledger %s: %s", what,
			 strerrorname_np(-err) ? strerrorname_np(-err) : "?");
}

/* Read the status of the queue's jobs completed since the last call. */
static void vz_ledger_seen(struct vz_ledger *l)
{
	__u64 done = __atomic_load_n(&l->ctl->completed, __ATOMIC_ACQUIRE);
	__s32 status;

	for (; l->seen < l->jobs && l->seen < done; l->seen++) {
		status = __atomic_load_n(&l->ring[l->seen % VZ_LQ_ENTRIES].status,
					 __ATOMIC_RELAXED);
		if (status)
			vz_ledger_failed(l, status, l->qk[l->seen % VZ_LQ_ENTRIES],
					 "queue job");
	}
}

/*
 * Wait for the last job with the ledger's out-syncobj; an asynchronous one
 * that failed added nothing. Return: false when the wait failed.
 */
static bool vz_ledger_wait(struct vz_ledger *l)
{
	int st;

	if (drmSyncobjWait(l->fd, &l->out, 1, INT64_MAX, 0, NULL)) {
		if (!l->bad++)
			snprintf(l->why, sizeof(l->why), "ledger wait: %s", strerror(errno));
		return false;
	}
	if (l->async_k) {
		st = vt_fence_status(l->fd, l->out);
		if (st < 0)
			vz_ledger_failed(l, st, l->async_k, "asynchronous job");
		else if (st != 1 && !l->bad++)
			snprintf(l->why, sizeof(l->why), "ledger fence status %d", st);
		l->async_k = 0;
	}
	return true;
}

/* One job through the polling queue adding @k to every lane. */
static void vz_ledger_queue_add(struct vz_ledger *l, __u32 k)
{
	__u32 addr[VZ_LEDGER_LANES], src[VZ_LEDGER_LANES], pos = l->jobs, i;
	struct drm_vatom_queue_job *j = &l->ring[pos % VZ_LQ_ENTRIES];
	struct drm_vatom_queue_kick kick = { .queue_id = l->q };
	struct vt_stream s;
	struct vt_visa v;

	/* The ring entry and its stream are free once the job there is done. */
	if (pos >= VZ_LQ_ENTRIES && !vz_ledger_drained(l, pos - VZ_LQ_ENTRIES + 1))
		return;
	vz_ledger_seen(l);
	for (i = 0; i < VZ_LEDGER_LANES; i++) {
		addr[i] = 4 * i;
		src[i] = k;
	}
	vt_stream_init(&s);
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_8,
		 DRM_VATOM_VISA_TYPE_UD, addr, src, NULL, false);
	vt_add_visa(&s, &v);
	memcpy(l->qmap + (pos % VZ_LQ_ENTRIES) * VZ_LQ_STRIDE, s.buf, s.size);
	memset(j, 0, sizeof(*j));
	j->stream_slot = 1;
	j->stream_offset = (pos % VZ_LQ_ENTRIES) * VZ_LQ_STRIDE;
	j->stream_size = s.size;
	l->qk[pos % VZ_LQ_ENTRIES] = k;
	for (i = 0; i < VZ_LEDGER_LANES; i++)
		l->sum[i] += k;
	l->jobs++;
	__atomic_store_n(&l->ctl->tail, l->jobs, __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	atomic_fetch_add(&vz_rep->calls, 1);
	if ((__atomic_load_n(&l->ctl->flags, __ATOMIC_RELAXED) &
	     DRM_VATOM_QUEUE_CTL_NEED_WAKEUP) &&
	    ioctl(l->fd, DRM_IOCTL_VATOM_QUEUE_KICK, &kick) && !l->bad++)
		snprintf(l->why, sizeof(l->why), "ledger KICK: %s", strerror(errno));
}

/*
 * Add k (1..1000) to every lane, synchronously or not; it must work (with
 * -F: or fail as vz_ledger_failed() allows). A synchronous job's results
 * are the lanes before it: with -F every job before it must have been
 * accounted, the asynchronous one waited for.
 */
static void vz_ledger_add(struct vz_ledger *l, __u64 *rng)
{
	__u32 addr[VZ_LEDGER_LANES], src[VZ_LEDGER_LANES], res[VZ_LEDGER_LANES];
	struct drm_vatom_binding b = { .slot = 0, .handle = l->buf };
	struct drm_vatom_sync out = { .handle = l->out };
	struct drm_vatom_submit a;
	__u32 k = 1 + vz_below(rng, 1000), i, before;
	bool async = vz_chance(rng, 50);
	struct vt_stream s;
	struct vt_visa v;

	if (l->q && vz_chance(rng, 40)) {
		vz_ledger_queue_add(l, k);
		return;
	}
	/* Synchronous results hold the sum so far: the queue's jobs first. */
	if (l->q && !vz_ledger_drained(l, l->jobs))
		return;
	if (l->q)
		vz_ledger_seen(l);
	if (vz_faults && !vz_ledger_wait(l))
		return;
	for (i = 0; i < VZ_LEDGER_LANES; i++) {
		addr[i] = 4 * i;
		src[i] = k;
	}
	vt_stream_init(&s);
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_8,
		 DRM_VATOM_VISA_TYPE_UD, addr, src, NULL, true);
	vt_add_visa(&s, &v);
	vt_submit_args(&a, &s, &b, 1, res, sizeof(res));
	if (async || vz_chance(rng, 30)) {
		/* One asynchronous job in flight at most: never EBUSY. */
		if (!vz_ledger_wait(l))
			return;
		a.results = 0;
		a.result_handle = l->res;
		a.out_syncs = vt_u64_ptr(&out);
		a.out_sync_count = 1;
		if (async)
			a.flags = DRM_VATOM_SUBMIT_ASYNC;
	}
	before = l->sum[0];
	for (i = 0; i < VZ_LEDGER_LANES; i++)
		l->sum[i] += k;
	l->subs++;
	atomic_fetch_add(&vz_rep->calls, 1);
	if (vt_submit(l->fd, &a)) {
		int e = errno;

		if (vz_faults && (e == EIO || e == ETIMEDOUT)) {
			vz_ledger_failed(l, -e, k, "submission");
			return;
		}
		for (i = 0; i < VZ_LEDGER_LANES; i++)
			l->sum[i] -= k;
		if (!l->bad++)
			snprintf(l->why, sizeof(l->why), "ledger submission %u: %s (reason %u)",
				 l->subs, strerror(e), a.error_reason);
		return;
	}
	if (async)
		l->async_k = k;
	if (!async && !a.result_handle && res[0] != before && !l->bad++)
		snprintf(l->why, sizeof(l->why), "ledger submission %u returned %u, expected %u",
			 l->subs, res[0], before);
}

/*
 * Wait for the last job, then the lanes must hold exactly the sums; the
 * queue's timeline is at point "jobs published" and its eventfd was
 * signalled at least once and at most once per job.
 */
static bool vz_ledger_check(struct vz_ledger *l)
{
	struct drm_syncobj_timeline_wait w;
	struct drm_syncobj_timeline_array a;
	__u64 point = l->jobs, v = 0;
	int i;

	if (!vz_ledger_wait(l))
		return false;
	if (l->q && l->jobs) {
		if (!vz_ledger_drained(l, l->jobs))
			return false;
		vz_ledger_seen(l);
		memset(&w, 0, sizeof(w));
		w.handles = vt_u64_ptr(&l->qsync);
		w.points = vt_u64_ptr(&point);
		w.count_handles = 1;
		w.timeout_nsec = INT64_MAX;
		w.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT;
		memset(&a, 0, sizeof(a));
		a.handles = w.handles;
		a.points = w.points;
		a.count_handles = 1;
		if (ioctl(l->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w) ||
		    ioctl(l->fd, DRM_IOCTL_SYNCOBJ_QUERY, &a) || point != l->jobs) {
			snprintf(l->why, sizeof(l->why), "ledger queue: point %llu, %u jobs",
				 (unsigned long long)point, l->jobs);
			return false;
		}
		if (read(l->efd, &v, sizeof(v)) != sizeof(v) || !v || v > l->jobs) {
			snprintf(l->why, sizeof(l->why), "ledger queue: eventfd %llu, %u jobs",
				 (unsigned long long)v, l->jobs);
			return false;
		}
	}
	for (i = 0; i < VZ_LEDGER_LANES; i++)
		if (l->map[i] != l->sum[i]) {
			snprintf(l->why, sizeof(l->why), "lane %d holds %u, expected %u (%u jobs failed)",
				 i, l->map[i], l->sum[i], l->failed);
			return false;
		}
	return !l->bad;
}

/* ------------------------------------------------------------------------ */
/* Phases                                                                    */
/* ------------------------------------------------------------------------ */

/* Phase 1: one thread, seeded; returns the calls made. */
static unsigned long long vz_phase1(__u64 seed, double secs, unsigned long long max,
				    struct vz_ledger *l)
{
	struct vz_worker w;
	double end = vz_now() + secs;
	unsigned long long i;
	int fd, fd2 = -1;

	fd = vt_open_path(vz_nodes[0]);
	if (vz_ndev > 1)
		fd2 = vt_open_path(vz_nodes[1]);
	if (fd < 0 || vz_worker_init(&w, 0, seed, fd, fd2))
		ksft_exit_fail_msg("phase 1 setup: %s\n", strerror(errno));
	vz_seed_pool(&w);
	for (i = 0; i < max; i++) {
		double t = vz_now();

		w.iter = i;
		if (l && !(i % 16))
			vz_ledger_add(l, &w.rng);
		if (!(i % 64)) {
			vz_ack(fd);	/* its queues' jobs fail silently */
			if (fd2 >= 0)
				vz_ack(fd2);
		}
		/*
		 * -T: the scratch holds pointers from earlier calls, which a
		 * mutated call may read as numbers: cleared, for both halves.
		 */
		if (vd_trace)
			memset(w.scratch, 0, VZ_SCRATCH);
		vz_ops[vz_below(&w.rng, VT_ARRAY_SIZE(vz_ops))](&w);
		if (vd_trace)
			vz_trace_state(&w, !(i % 64));
		t = vz_now() - t;
		/* -v: every call; else the slow ones (a time budget's worth). */
		if (vz_verbose || t > 0.5)
			ksft_print_msg("call %llu: %s, %.3f s\n", i, w.op, t);
		if (!(i % 64) && vz_now() > end) {
			i++;
			break;
		}
	}
	if (vd_trace) {
		vz_trace_state(&w, true);
		vd_printf("end %llu\n", i);
	}
	vz_worker_fini(&w);
	close(fd);
	if (fd2 >= 0)
		close(fd2);
	return i;
}

/**
 * struct vz_round - what the threads of one phase-2 process share
 * @fd: the shared file (closed and reopened by the racing thread)
 * @victim: a page of user results another thread unmaps and maps again
 * @seed: the round's seed
 */
struct vz_round {
	_Atomic int fd;
	int fd2;
	void *victim;
	__u64 seed;
};

static struct vz_round vz_round;

/* Races: close/reopen the shared file, unmap the victim, fork and kill. */
static void vz_race(struct vz_worker *w)
{
	pid_t pid;
	int fd;

	switch (vz_below(&w->rng, 4)) {
	case 0:
		w->op = "close/reopen";
		fd = vt_open_path(vz_nodes[0]);
		if (fd >= 0)
			close(atomic_exchange(&vz_round.fd, fd));
		break;
	case 1:
		w->op = "munmap victim";
		munmap(vz_round.victim, VT_PAGE_SIZE);
		usleep(vz_below(&w->rng, 200));
		mmap(vz_round.victim, VT_PAGE_SIZE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
		break;
	default:
		w->op = "fork/kill";
		pid = fork();
		if (pid == 0) {
			/*
			 * Queue work on the inherited file, or on a file of
			 * its own (its queues die with it), then go.
			 */
			int i, own = vz_chance(&w->rng, 50) ? vt_open_path(vz_nodes[0]) : -1;

			w->fd = atomic_load(&vz_round.fd);
			if (own >= 0) {
				w->fd = own;
				w->nsurf = 0;
				w->nsync = 0;
				w->nqueue = 0;
				w->qmap = NULL;
				vz_seed_pool(w);
			}
			for (i = 0; i < 8; i++) {
				if (i % 2)
					vz_op_submit(w);
				else
					vz_queue_jobs(w);
			}
			_exit(0);
		}
		if (pid > 0) {
			usleep(vz_below(&w->rng, 3000));
			if (vz_chance(&w->rng, 50))
				kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
		}
		break;
	}
}

static void *vz_thread(void *arg)
{
	struct vz_worker *w = arg;
	bool shared = w->id & 2;
	int own = -1;

	if (!shared) {
		own = vt_open_path(vz_nodes[0]);
		w->fd = own;
	} else {
		w->fd = atomic_load(&vz_round.fd);
	}
	vz_seed_pool(w);
	/* Half of the threads give up root once their files are open. */
	if ((w->id & 1) && syscall(SYS_setresgid, VZ_NOBODY, VZ_NOBODY, VZ_NOBODY) == 0)
		syscall(SYS_setresuid, VZ_NOBODY, VZ_NOBODY, VZ_NOBODY);
	while (!atomic_load(&vz_rep->stop)) {
		w->iter++;
		if (shared)
			w->fd = atomic_load(&vz_round.fd);
		if (!(w->iter % 64)) {
			vz_ack(w->fd);
			if (w->fd2 >= 0)
				vz_ack(w->fd2);
		}
		if (w->id == 0 && vz_chance(&w->rng, 3)) {
			vz_race(w);
			continue;
		}
		if (vz_chance(&w->rng, 10)) {
			/* User results the racing thread may have unmapped. */
			w->results = vz_round.victim;
			vz_op_submit(w);
			w->results = NULL;
			continue;
		}
		vz_ops[vz_below(&w->rng, VT_ARRAY_SIZE(vz_ops))](w);
	}
	if (own >= 0)
		close(own);
	return NULL;
}

/* One phase-2 round, in its own process: -j threads until told or killed. */
static void vz_round_main(int nthreads)
{
	struct vz_worker *w = calloc(nthreads, sizeof(*w));
	pthread_t t[VZ_MAX_THREADS];
	int i;

	atomic_store(&vz_round.fd, vt_open_path(vz_nodes[0]));
	vz_round.fd2 = vz_ndev > 1 ? vt_open_path(vz_nodes[1]) : -1;
	vz_round.victim = mmap(NULL, VT_PAGE_SIZE, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (i = 0; i < nthreads; i++) {
		if (vz_worker_init(&w[i], i, vz_round.seed + i * 0x1000193,
				   atomic_load(&vz_round.fd), vz_round.fd2))
			_exit(2);
		w[i].mt = true;
		pthread_create(&t[i], NULL, vz_thread, &w[i]);
	}
	for (i = 0; i < nthreads; i++)
		pthread_join(t[i], NULL);
	_exit(0);
}

/* Phase 2: rounds of forked processes. Return: the rounds run. */
static int vz_phase2(__u64 seed, double secs, int nthreads)
{
	double end = vz_now() + secs;
	__u64 rng = seed ^ 0x5eed;
	int rounds = 0;

	while (vz_now() < end) {
		double len = 0.5 + vz_below(&rng, 2500) / 1000.0;
		pid_t pid;

		if (vz_now() + len > end)
			len = end - vz_now();
		atomic_store(&vz_rep->stop, 0);
		vz_round.seed = vz_next(&rng);
		pid = fork();
		if (pid < 0)
			ksft_exit_fail_msg("fork: %s\n", strerror(errno));
		if (pid == 0)
			vz_round_main(nthreads);
		usleep(len * 1e6);
		if (vz_chance(&rng, 50))
			kill(pid, SIGKILL);
		else
			atomic_store(&vz_rep->stop, 1);
		waitpid(pid, NULL, 0);
		rounds++;
	}
	return rounds;
}

/* ------------------------------------------------------------------------ */
/* -F: faults injected into jobs                                             */
/* ------------------------------------------------------------------------ */

#define VZ_FAULT_DIR		"/sys/kernel/debug/vatom"

/**
 * struct vz_knob - a setting -F writes, and what it was
 * @path: the file
 * @value: what -F writes
 * @saved: its value before, written back at exit
 * @set: it was written
 */
struct vz_knob {
	char path[96];
	const char *value;
	char saved[32];
	bool set;
};

/* The faults -F injects: each attribute's probability (%). */
static const struct {
	const char *name;
	const char *probability;
} vz_attrs[] = {
	{ "fail_hang", "1" }, { "fail_job", "3" }, { "fail_delay", "3" },
};

/* Written in this order (the probability last: armed), restored backwards. */
static const char *const vz_attr_knobs[][2] = {
	{ "verbose", "0" },	/* no stack trace: a splat to the log scan */
	{ "interval", "1" }, { "space", "0" }, { "task-filter", "N" },
	{ "times", "-1" },	/* no limit */
};

static struct vz_knob vz_knobs[24];
static int vz_nknobs;
static pid_t vz_main_pid;

static void vz_knob_add(const char *value, const char *fmt, ...)
{
	struct vz_knob *k = &vz_knobs[vz_nknobs++];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(k->path, sizeof(k->path), fmt, ap);
	va_end(ap);
	k->value = value;
}

/*
 * Put back every setting -F wrote, the last first (disarming before
 * anything else). Only the main process; async-signal-safe.
 */
static void vz_faults_restore(void)
{
	int i;

	if (getpid() != vz_main_pid)
		return;
	for (i = vz_nknobs - 1; i >= 0; i--)
		if (vz_knobs[i].set) {
			vt_write_file(vz_knobs[i].path, vz_knobs[i].saved);
			vz_knobs[i].set = false;
		}
}

static void vz_faults_signal(int sig)
{
	vz_faults_restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * Arm the faults (struct vz_knob's list) and shorten the job timeout,
 * before any file is opened: a file's scheduler takes the timeout when it
 * is made. Return: NULL, or why not (then nothing is left changed).
 */
static const char *vz_faults_arm(void)
{
	static char why[256];
	struct sigaction sa;
	size_t a, i;
	int ret;

	vz_main_pid = getpid();
	vz_knob_add("200", VT_JOB_TIMEOUT_PARAM);
	vz_knob_add("20", VZ_FAULT_DIR "/fail_delay/delay_ms");
	for (a = 0; a < VT_ARRAY_SIZE(vz_attrs); a++) {
		for (i = 0; i < VT_ARRAY_SIZE(vz_attr_knobs); i++)
			vz_knob_add(vz_attr_knobs[i][1], VZ_FAULT_DIR "/%s/%s",
				    vz_attrs[a].name, vz_attr_knobs[i][0]);
		vz_knob_add(vz_attrs[a].probability, VZ_FAULT_DIR "/%s/probability",
			    vz_attrs[a].name);
	}
	atexit(vz_faults_restore);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = vz_faults_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	for (i = 0; i < (size_t)vz_nknobs; i++) {
		struct vz_knob *k = &vz_knobs[i];

		ret = vt_read_file(k->path, k->saved, sizeof(k->saved));
		if (!ret) {
			ret = vt_write_file(k->path, k->value);
			k->set = !ret;
		}
		if (ret) {
			vz_faults_restore();
			snprintf(why, sizeof(why), "-F: cannot set %.96s: %.40s (root? CONFIG_FAULT_INJECTION_DEBUG_FS?)",
				 k->path, strerror(-ret));
			return why;
		}
	}
	return NULL;
}

/* vatom_stats' reset counts of every device. */
#define VZ_NRESETS	3

static void vz_resets(long long c[2][VZ_NRESETS])
{
	static const char * const names[VZ_NRESETS] = {
		"job_timeouts", "job_faults", "resets",
	};
	int d, i;

	memset(c, 0, sizeof(long long) * 2 * VZ_NRESETS);
	for (d = 0; d < vz_ndev; d++)
		for (i = 0; i < VZ_NRESETS; i++)
			c[d][i] = vt_debugfs_stat(vz_stats[d], names[i]);
}

/* ------------------------------------------------------------------------ */
/* main                                                                      */
/* ------------------------------------------------------------------------ */

static void vz_counts(long long c[2][VZ_NCOUNTS])
{
	static const char * const names[VZ_NCOUNTS - 1] = {
		"surfaces", "jobs_in_flight", "fences",
	};
	int d, i;

	memset(c, 0, sizeof(long long) * 2 * VZ_NCOUNTS);
	for (d = 0; d < vz_ndev; d++) {
		for (i = 0; i < VZ_NCOUNTS - 1; i++)
			c[d][i] = vt_debugfs_stat(vz_stats[d], names[i]);
		/* Every poller stopped (-1 for a module without the line). */
		c[d][i] = vt_debugfs_stat(vz_limits[d], "poll_queues");
	}
}

/*
 * -T FILE: one half of -D shim, on whichever device this process sees
 * (the real one, or the shim preloaded): phase 1 alone, traced, with what
 * timing could change taken out (no polling queue, every job done before
 * the next call, a job timeout no job reaches). Prints one TAP result.
 */
static int vz_trace_half(const char *path, __u64 seed, double secs,
			 unsigned long long max)
{
	char old[32] = "";
	unsigned long long calls;

	ksft_set_plan(1);
	vd_trace = fopen(path, "w");
	vz_rep = mmap(NULL, sizeof(*vz_rep), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	vz_none = mmap(NULL, 2 * VT_PAGE_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	vz_ro = mmap(NULL, VT_PAGE_SIZE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!vd_trace || vz_rep == MAP_FAILED || vz_none == MAP_FAILED ||
	    vz_ro == MAP_FAILED)
		ksft_exit_fail_msg("%s: %s\n", path, strerror(errno));
	memset(vz_ro, 0x5a, VT_PAGE_SIZE);
	mprotect(vz_ro, VT_PAGE_SIZE, PROT_READ);
	if (vt_read_file(VT_JOB_TIMEOUT_PARAM, old, sizeof(old)) < 0 ||
	    vt_job_timeout_set(VATOM_TRACE_TIMEOUT_MS))
		ksft_exit_fail_msg("%s: cannot be set (root?)\n", VT_JOB_TIMEOUT_PARAM);
	ksft_print_msg("%s: seed %llu, %s, job_timeout_ms %u, trace %s\n",
		       vt_shim() ? "in-process device" : vz_nodes[0],
		       (unsigned long long)seed, max == ~0ull ? "time budget" : "call budget",
		       VATOM_TRACE_TIMEOUT_MS, path);
	calls = vz_phase1(seed, secs, max, NULL);
	vt_write_file(VT_JOB_TIMEOUT_PARAM, old);
	fclose(vd_trace);
	ksft_test_result(!atomic_load(&vz_rep->bad),
			 "traced: %llu calls, errnos in the table%s%s\n", calls,
			 vz_rep->first[0] ? ": " : "", vz_rep->first);
	ksft_finished();
	return 0;
}

static void vz_usage(void)
{
	fprintf(stderr, "usage: vatom_fuzz [-t SECONDS] [-n CALLS] [-s SEED] [-j THREADS] [-F jobs] [-D shim] [-v]\n");
	exit(KSFT_FAIL);
}

int main(int argc, char **argv)
{
	char paths[VT_MAX_NODES][VT_PATH_MAX], bad[256], failed[48];
	unsigned long long max = ~0ull, calls1, calls2, c0;
	long long base[2][VZ_NCOUNTS], now[2][VZ_NCOUNTS];
	long long r0[2][VZ_NRESETS], r1[2][VZ_NRESETS];
	double secs = 20, t0, t1, t2;
	__u64 seed = 0;
	bool have_seed = false, settled = false, diff = false, ok;
	const char *trace = NULL;
	int nthreads = 4, opt, n, i, rounds;
	struct vz_ledger ledger;
	long long seq;

	/* Line by line: a crash or a kill keeps what was printed. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((opt = getopt(argc, argv, "t:n:s:j:F:D:T:v")) != -1) {
		switch (opt) {
		case 't':
			secs = atof(optarg);
			break;
		case 'n':
			max = strtoull(optarg, NULL, 0);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			have_seed = true;
			break;
		case 'j':
			nthreads = atoi(optarg);
			break;
		case 'F':
			if (strcmp(optarg, "jobs"))
				vz_usage();
			vz_faults = true;
			break;
		case 'D':
			if (strcmp(optarg, "shim"))
				vz_usage();
			diff = true;
			break;
		case 'T':	/* one half of -D: see vz_trace_half() */
			trace = optarg;
			break;
		case 'v':
			vz_verbose = true;
			break;
		default:
			vz_usage();
		}
	}
	if (nthreads < 1 || nthreads > VZ_MAX_THREADS || secs <= 0 ||
	    ((diff || trace) && vz_faults))
		vz_usage();
	if (!have_seed)
		seed = (__u64)time(NULL) ^ ((__u64)getpid() << 32);

	ksft_print_header();
	n = vt_scan_nodes("vatom", "renderD", paths, VT_MAX_NODES);
	if (n <= 0)
		ksft_exit_skip("no vatom device (is vatom.ko loaded?)\n");
	vz_ndev = n > 2 ? 2 : n;
	for (i = 0; i < vz_ndev; i++)
		snprintf(vz_nodes[i], VT_PATH_MAX, "%s", paths[i]);
	if (trace)
		return vz_trace_half(trace, seed, secs, max);
	if (diff) {
		if (vt_shim())
			ksft_exit_skip("-D shim compares the device with the shim: run it without the shim\n");
		vd_diff_main("/proc/self/exe", seed, secs, n);
	}
	for (i = 0; i < vz_ndev; i++) {
		/* The in-process device has no debugfs: no live counts. */
		if (vt_shim())
			continue;
		if (!vt_debugfs_stats_path(vz_nodes[i], vz_stats[i], sizeof(vz_stats[i])))
			ksft_exit_skip("no vatom_stats in debugfs for %s (root, debugfs?)\n",
				       vz_nodes[i]);
		vt_debugfs_limits_path(vz_nodes[i], vz_limits[i], sizeof(vz_limits[i]));
	}
	if (vz_faults) {
		const char *why = vz_faults_arm();

		if (why)
			ksft_exit_skip("%s\n", why);
	}
	/*
	 * The in-process device has no debugfs and no kernel log of its
	 * own: the live counts and the log are not its tests to run.
	 */
	ksft_set_plan(vt_shim() ? 3 : 5);
	ksft_print_msg("seed %llu (reproduce: vatom_fuzz -s %llu -n CALLS), %.0f s, %d threads, %d devices\n",
		       (unsigned long long)seed, (unsigned long long)seed, secs,
		       nthreads, vz_ndev);
	if (vz_faults)
		ksft_print_msg("faults injected into jobs: fail_hang %s %%, fail_job %s %%, fail_delay %s %% (20 ms); job_timeout_ms 200\n",
			       vz_attrs[0].probability, vz_attrs[1].probability,
			       vz_attrs[2].probability);

	vz_rep = mmap(NULL, sizeof(*vz_rep), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	vz_none = mmap(NULL, 2 * VT_PAGE_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	vz_ro = mmap(NULL, VT_PAGE_SIZE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (vz_rep == MAP_FAILED || vz_none == MAP_FAILED || vz_ro == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	memset(vz_ro, 0x5a, VT_PAGE_SIZE);
	mprotect(vz_ro, VT_PAGE_SIZE, PROT_READ);

	vt_kmsg_mark("vatom_fuzz: start\n");
	seq = vt_kmsg_last_seq();
	vz_counts(base);
	vz_resets(r0);
	if (vz_ledger_init(&ledger))
		ksft_exit_fail_msg("ledger: %s\n", strerror(errno));

	/* Phase 1. */
	t0 = vz_now();
	calls1 = vz_phase1(seed, secs / 2, max, &ledger);
	c0 = atomic_load(&vz_rep->calls);
	t1 = vz_now();
	ksft_test_result(!atomic_load(&vz_rep->bad),
			 "deterministic: %llu iterations, %llu calls in %.1f s (%.0f calls/s), errnos in the table%s%s\n",
			 calls1, c0, t1 - t0, c0 / (t1 - t0),
			 vz_rep->first[0] ? ": " : "", vz_rep->first);
	ok = vz_ledger_check(&ledger);
	failed[0] = '\0';
	if (vz_faults)
		snprintf(failed, sizeof(failed), ", %u failed (adding nothing)",
			 ledger.failed);
	ksft_test_result(ok, "known-good workload exact: %u submissions, %u queue jobs%s%s, lane total %u%s%s\n",
			 ledger.subs, ledger.jobs, ledger.q ? "" : " (no polling queue)",
			 failed, ledger.sum[0], ledger.why[0] ? ": " : "", ledger.why);
	close(ledger.fd);
	munmap(ledger.map, VT_PAGE_SIZE);
	if (ledger.qmap)
		munmap(ledger.qmap, VZ_LQ_ENTRIES * VZ_LQ_STRIDE);
	if (ledger.ring)
		munmap(ledger.ring, VZ_LQ_ENTRIES * sizeof(*ledger.ring));
	if (ledger.ctl)
		munmap(ledger.ctl, VT_PAGE_SIZE);
	if (ledger.efd >= 0)
		close(ledger.efd);

	/* Phase 2. */
	vz_rep->first[0] = '\0';
	atomic_store(&vz_rep->bad, 0);
	atomic_store(&vz_rep->claimed, 0);
	rounds = vz_phase2(seed, secs / 2, nthreads);
	calls2 = atomic_load(&vz_rep->calls) - c0;
	t2 = vz_now();
	ksft_test_result(!atomic_load(&vz_rep->bad),
			 "concurrent: %d rounds of %d threads, %llu calls in %.1f s (%.0f calls/s), errnos in the table%s%s\n",
			 rounds, nthreads, calls2, t2 - t1, calls2 / (t2 - t1),
			 vz_rep->first[0] ? ": " : "", vz_rep->first);

	/* Every file is closed: the live counts go back (5 s at most). */
	for (i = 0; i < 500 && !settled && !vt_shim(); i++) {
		vz_counts(now);
		settled = !memcmp(now, base, sizeof(now));
		if (!settled)
			usleep(10000);
	}
	if (vt_shim())
		ksft_print_msg("in-process device: no debugfs live counts, no kernel log\n");
	else
		ksft_test_result(settled,
				 "live counts back to baseline: dev0 surfaces %lld jobs %lld fences %lld pollers %lld (was %lld %lld %lld %lld)\n",
				 now[0][0], now[0][1], now[0][2], now[0][3], base[0][0],
				 base[0][1], base[0][2], base[0][3]);
	n = vt_shim() ? 0 : vt_kmsg_scan(seq, bad, sizeof(bad));
	if (n < 0)
		ksft_test_result_skip("kernel log clean: /dev/kmsg: %s\n", strerror(-n));
	else if (!vt_shim())
		ksft_test_result(n == 0, "kernel log clean%s%s\n", n ? ": " : "",
				 n ? bad : "");
	vz_faults_restore();
	vz_resets(r1);
	for (i = 0; i < vz_ndev; i++)
		ksft_print_msg("dev%d: %lld job timeouts, %lld job faults, %lld resets\n", i,
			       r1[i][0] - r0[i][0], r1[i][1] - r0[i][1], r1[i][2] - r0[i][2]);
	ksft_print_msg("total: %llu calls in %.1f s, %.0f calls/s; errnos:",
		       c0 + calls2, t2 - t0, (c0 + calls2) / (t2 - t0));
	for (i = 1; i < VZ_MAX_ERRNO; i++)
		if (atomic_load(&vz_rep->errs[i]))
			printf(" %s %u", strerrorname_np(i) ? strerrorname_np(i) : "?",
			       atomic_load(&vz_rep->errs[i]));
	printf("\n");
	ksft_finished();
}
