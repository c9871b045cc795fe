// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the asynchronous-submission, abuse and queue tests:
 * time, an unsignalled vgem fence, syncobjs, submissions, debugfs counters
 * and module parameters, the 64 x 64 broadcast grid. See async_common.h.
 *
 * Copyright (C) 2026 The vatom developers
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/dma-buf.h>
#include <linux/sync_file.h>
#include <xf86drm.h>

#include "async_common.h"

/* vgem's UAPI (include/uapi/drm/vgem_drm.h), which libdrm does not ship. */
struct va_vgem_fence_attach {
	__u32 handle;
	__u32 flags;
	__u32 out_fence;
	__u32 pad;
};

struct va_vgem_fence_signal {
	__u32 fence;
	__u32 flags;
};

#define VA_VGEM_FENCE_WRITE	0x1
#define VA_IOCTL_VGEM_FENCE_ATTACH \
	DRM_IOWR(DRM_COMMAND_BASE + 0x1, struct va_vgem_fence_attach)
#define VA_IOCTL_VGEM_FENCE_SIGNAL \
	DRM_IOW(DRM_COMMAND_BASE + 0x2, struct va_vgem_fence_signal)

long long va_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

void va_sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000l };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* ------------------------------------------------------------------------ */
/* A fence nobody has signalled: vgem                                        */
/* ------------------------------------------------------------------------ */

/* 0, -ENODEV without vgem, or -errno. */
int va_blocker_init(struct va_blocker *b)
{
	struct dma_buf_export_sync_file ex = { .flags = DMA_BUF_SYNC_WRITE, .fd = -1 };
	struct va_vgem_fence_attach at = { .flags = VA_VGEM_FENCE_WRITE };
	struct drm_mode_create_dumb dumb = { .width = 1024, .height = 1, .bpp = 32 };
	char vgem[1][VT_PATH_MAX];
	int dmabuf = -1, ret = 0;

	memset(b, 0, sizeof(*b));
	b->vfd = -1;
	b->sync_file = -1;
	if (vt_scan_nodes("vgem", "card", vgem, 1) < 1)
		return -ENODEV;
	b->vfd = vt_open_path(vgem[0]);
	if (b->vfd < 0)
		return -errno;
	if (ioctl(b->vfd, DRM_IOCTL_MODE_CREATE_DUMB, &dumb))
		goto err;
	at.handle = dumb.handle;
	if (ioctl(b->vfd, VA_IOCTL_VGEM_FENCE_ATTACH, &at))
		goto err;
	b->fence = at.out_fence;
	if (vt_prime_export(b->vfd, dumb.handle, &dmabuf))
		goto err;
	if (ioctl(dmabuf, DMA_BUF_IOCTL_EXPORT_SYNC_FILE, &ex))
		goto err;
	b->sync_file = ex.fd;
	close(dmabuf);
	return 0;
err:
	ret = -errno;
	if (dmabuf >= 0)
		close(dmabuf);
	close(b->vfd);
	b->vfd = -1;
	return ret;
}

int va_blocker_signal(struct va_blocker *b)
{
	struct va_vgem_fence_signal sig = { .fence = b->fence };

	b->signalled = true;
	return ioctl(b->vfd, VA_IOCTL_VGEM_FENCE_SIGNAL, &sig);
}

void va_blocker_fini(struct va_blocker *b)
{
	if (b->vfd >= 0 && !b->signalled)
		va_blocker_signal(b);
	if (b->sync_file >= 0)
		close(b->sync_file);
	if (b->vfd >= 0)
		close(b->vfd);
	b->vfd = -1;
	b->sync_file = -1;
}

/* ------------------------------------------------------------------------ */
/* Syncobjs                                                                  */
/* ------------------------------------------------------------------------ */

__u32 va_syncobj(int fd, bool signalled)
{
	__u32 h = 0;

	if (drmSyncobjCreate(fd, signalled ? DRM_SYNCOBJ_CREATE_SIGNALED : 0, &h))
		return 0;
	return h;
}

/* A syncobj on @fd holding the blocker's fence; 0 on failure. */
__u32 va_blocker_syncobj(int fd, const struct va_blocker *b)
{
	__u32 h = va_syncobj(fd, false);

	if (h && drmSyncobjImportSyncFile(fd, h, b->sync_file)) {
		drmSyncobjDestroy(fd, h);
		return 0;
	}
	return h;
}

int va_wait_flags(int fd, __u32 h, __u64 point, __u32 flags,
		  long long abs_ns)
{
	struct drm_syncobj_timeline_wait w;

	memset(&w, 0, sizeof(w));
	w.handles = vt_u64_ptr(&h);
	w.points = vt_u64_ptr(&point);
	w.count_handles = 1;
	w.flags = flags;
	w.timeout_nsec = abs_ns;
	return ioctl(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w) ? -errno : 0;
}

int va_wait(int fd, __u32 h, __u64 point, long long abs_ns)
{
	return va_wait_flags(fd, h, point, 0, abs_ns);
}

int va_wait_ms(int fd, __u32 h, __u64 point, int ms)
{
	return va_wait(fd, h, point, va_now_ns() + ms * VA_NS_PER_MS);
}

/* The syncobj's fence as a new sync_file, or -errno (-EINVAL: no fence). */
int va_export(int fd, __u32 h)
{
	int sf = -1;

	if (drmSyncobjExportSyncFile(fd, h, &sf))
		return -errno;
	return sf;
}

/* sync_file status: 1 signalled, 0 active, < 0 the fence's error. */
int va_sync_file_status(int sf)
{
	struct sync_file_info info;

	memset(&info, 0, sizeof(info));
	if (ioctl(sf, SYNC_IOC_FILE_INFO, &info))
		return -1000 - errno;	/* not a fence status */
	return info.status;
}

/* Status of a binary syncobj's fence; -2000 when it has none. */
int va_status(int fd, __u32 h)
{
	int sf = va_export(fd, h), st;

	if (sf < 0)
		return -2000;
	st = va_sync_file_status(sf);
	close(sf);
	return st;
}

/* ------------------------------------------------------------------------ */
/* Submissions                                                               */
/* ------------------------------------------------------------------------ */

/*
 * One DWORD_ATOMIC with @n lanes (1, 2, 4, 8 or 16) of @op on slot 0 at
 * byte offsets @addr with per-lane @src (NULL: V0), returning old values
 * when @dst.
 */
void va_stream(struct vt_stream *s, __u8 op, unsigned int n,
	       const __u32 *addr, const __u32 *src, bool dst)
{
	struct vt_visa v;
	__u8 code = 0;

	while ((1u << code) < n)
		code++;
	vt_stream_init(s);
	vt_dword(&v, op, code, DRM_VATOM_VISA_TYPE_UD, addr, src, NULL, dst);
	vt_add_visa(s, &v);
}

/*
 * @s on surface @h at slot 0; asynchronous with @async; results, if any, to
 * surface @res at @res_off (0: none).
 */
void va_sub_init(struct va_sub *j, const struct vt_stream *s, __u32 h,
		 bool async, __u32 res, __u64 res_off)
{
	memset(j, 0, sizeof(*j));
	j->bind.handle = h;
	vt_submit_args(&j->args, s, &j->bind, 1, NULL, 0);
	if (async)
		j->args.flags = DRM_VATOM_SUBMIT_ASYNC;
	if (res) {
		j->args.result_handle = res;
		j->args.result_offset = res_off;
		j->args.results_size = s->results;
	}
}

void va_sub_in(struct va_sub *j, __u32 syncobj, __u64 point)
{
	j->in[j->args.in_sync_count].handle = syncobj;
	j->in[j->args.in_sync_count].point = point;
	j->args.in_sync_count++;
	j->args.in_syncs = vt_u64_ptr(j->in);
}

void va_sub_out(struct va_sub *j, __u32 syncobj, __u64 point)
{
	j->out[j->args.out_sync_count].handle = syncobj;
	j->out[j->args.out_sync_count].point = point;
	j->args.out_sync_count++;
	j->args.out_syncs = vt_u64_ptr(j->out);
}

/* Submit: 0, or -errno. */
int va_sub_submit(int fd, struct va_sub *j)
{
	return vt_submit(fd, &j->args) ? -errno : 0;
}

/*
 * Submit "ADD @val to dword @word" on surface @h, async or not, waiting
 * on @in (0: none) and signalling @out (0: none): 0 or -errno.
 */
int va_add(int fd, __u32 h, unsigned int word, __u32 val, bool async,
	   __u32 in, __u32 out)
{
	const __u32 addr = word * 4;
	struct vt_stream s;
	struct va_sub j;

	va_stream(&s, DRM_VATOM_VISA_OP_ADD, 1, &addr, &val, false);
	va_sub_init(&j, &s, h, async, 0, 0);
	if (in)
		va_sub_in(&j, in, 0);
	if (out)
		va_sub_out(&j, out, 0);
	return va_sub_submit(fd, &j);
}

/* ------------------------------------------------------------------------ */
/* Debugfs counters and module parameters                                    */
/* ------------------------------------------------------------------------ */

/*
 * A completed job is freed, and a released fence counted, a moment after
 * its fence signals: poll a counter until it is @want (up to ~2 s).
 */
long long va_stat_settle(const char *path, const char *name, long long want)
{
	long long v = vt_debugfs_stat(path, name);
	int i;

	for (i = 0; i < 200 && v != want; i++) {
		va_sleep_ms(10);
		v = vt_debugfs_stat(path, name);
	}
	return v;
}

/* The number a sysfs file holds; -1 if absent. */
long long va_read_ll(const char *path)
{
	long long v = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (fscanf(f, "%lld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* Read a module parameter of vatom.ko from sysfs; -1 if absent. */
long long va_modparam(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/module/vatom/parameters/%s", name);
	return va_read_ll(path);
}

/*
 * Set vatom's job timeout to @ms and put the one it had in *@old, which
 * vt_job_timeout_set() restores: 0, or -errno and nothing changed (-EACCES
 * or -EPERM: not root).
 */
int va_job_timeout_swap(unsigned int ms, unsigned int *old)
{
	long long t = va_modparam("job_timeout_ms");
	int ret;

	if (t <= 0 || t > UINT_MAX)
		return -EINVAL;
	ret = vt_job_timeout_set(ms);
	if (!ret)
		*old = t;
	return ret;
}

/* ------------------------------------------------------------------------ */
/* The largest grid: 64 x 64 broadcasts                                     */
/* ------------------------------------------------------------------------ */

int ab_grid_create(int fd, __u32 *handle, __u64 *size)
{
	static __u8 types[AB_TILES];
	struct drm_vatom_tile_grid_desc d = {
		.profile = DRM_VATOM_NOC_PROFILE_BLACKHOLE,
		.width = AB_DIM, .height = AB_DIM,
		.tile_types = vt_u64_ptr(types),
	};

	memset(types, DRM_VATOM_TILE_TENSIX, sizeof(types));
	d.l1_size[DRM_VATOM_TILE_TENSIX] = AB_L1;
	return vn_create(fd, &d, handle, size);
}

/*
 * @n broadcasts from tile (0, 0) to the whole grid at slot 0, each adding 1
 * to word 0 of every tile's L1: each costs 4096 operations.
 */
struct drm_vatom_noc *ab_broadcasts(unsigned int n)
{
	struct drm_vatom_noc *p = calloc(n, sizeof(*p));
	unsigned int i;

	for (i = 0; p && i < n; i++) {
		p[i].hdr.type = DRM_VATOM_PACKET_NOC;
		p[i].hdr.size = sizeof(*p);
		/* BH TARG_ADDR_HI: End (63, 63), Start (0, 0). */
		p[i].targ_addr_hi = (AB_DIM - 1) | (AB_DIM - 1) << 6;
		p[i].ctrl = DRM_VATOM_NOC_CTRL_REQ_ATOMIC |
			    DRM_VATOM_NOC_CTRL_BRCST_PACKET |
			    DRM_VATOM_NOC_CTRL_BRCST_SRC_INCLUDE;
		p[i].at_len_be = DRM_VATOM_NOC_AT_INCR <<
				 DRM_VATOM_NOC_AT_OPCODE_SHIFT |
				 31 << DRM_VATOM_NOC_AT_INT_WIDTH_SHIFT;
		p[i].at_data = 1;
	}
	return p;
}

void ab_submit_args(struct drm_vatom_submit *args,
		    struct drm_vatom_binding *bind, __u32 grid,
		    const struct drm_vatom_noc *p, unsigned int n)
{
	memset(bind, 0, sizeof(*bind));
	bind->handle = grid;
	memset(args, 0, sizeof(*args));
	args->stream = vt_u64_ptr(p);
	args->stream_size = n * sizeof(*p);
	args->bindings = vt_u64_ptr(bind);
	args->binding_count = 1;
}

/*
 * Tile (0, 0)'s word 0: the broadcasts executed so far, read while a job
 * may be running (the other tiles may be a broadcast behind).
 */
__u32 ab_first_count(const __u8 *map)
{
	return __atomic_load_n((const __u32 *)(map + AB_L1_BASE), __ATOMIC_RELAXED);
}

/*
 * Every tile's word 0 holds the same count (a prefix of whole broadcasts
 * ran): return it, or -1 if two tiles differ.
 */
long ab_common_count(const __u8 *map)
{
	__u32 first, v;
	unsigned int t;

	memcpy(&first, map + AB_L1_BASE, 4);
	for (t = 1; t < AB_TILES; t++) {
		memcpy(&v, map + AB_L1_BASE + t * AB_L1, 4);
		if (v != first)
			return -1;
	}
	return first;
}
