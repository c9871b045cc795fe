/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the asynchronous-submission, abuse and queue tests
 * (test_async*.c, test_abuse.c, test_observe*.c, test_validate.c,
 * test_queue*.c): time, syncobjs and an unsignalled vgem fence (va_*) and
 * the 64 x 64 broadcast grid (ab_*). Compiled on its own (async_common.c);
 * only the VA_BLOCKER() macro needs the harness, where it is expanded.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_SELFTEST_ASYNC_COMMON_H_
#define _VATOM_SELFTEST_ASYNC_COMMON_H_

#include "common.h"
#include "common_kernel.h"
#include "common_packets.h"

#define VA_NS_PER_MS	1000000ll

long long va_now_ns(void);
void va_sleep_ms(unsigned int ms);

/* ------------------------------------------------------------------------ */
/* A fence nobody has signalled: vgem                                        */
/* ------------------------------------------------------------------------ */

/**
 * struct va_blocker - an unsignalled vgem fence, as a sync_file
 * @vfd: vgem's primary node
 * @fence: vgem's fence id
 * @sync_file: a sync_file holding the fence
 * @signalled: va_blocker_signal() ran
 */
struct va_blocker {
	int vfd;
	__u32 fence;
	int sync_file;
	bool signalled;
};

int va_blocker_init(struct va_blocker *b);
int va_blocker_signal(struct va_blocker *b);
void va_blocker_fini(struct va_blocker *b);

/* In a test: the blocker, or skip without vgem (closing @fd). */
#define VA_BLOCKER(b, fd) do {						\
	int __r = va_blocker_init(b);					\
	if (__r == -ENODEV)						\
		SKIP(close(fd); return, "no vgem device (modprobe vgem)");\
	ASSERT_EQ(0, __r) TH_LOG("vgem fence: %s", strerror(-__r));	\
} while (0)

/* ------------------------------------------------------------------------ */
/* Syncobjs                                                                  */
/* ------------------------------------------------------------------------ */

__u32 va_syncobj(int fd, bool signalled);
__u32 va_blocker_syncobj(int fd, const struct va_blocker *b);
/*
 * TIMELINE_WAIT for @point (0: a binary syncobj) until @abs_ns, with
 * @flags (va_wait(): none): 0 or -errno.
 */
int va_wait_flags(int fd, __u32 h, __u64 point, __u32 flags,
		  long long abs_ns);
int va_wait(int fd, __u32 h, __u64 point, long long abs_ns);
int va_wait_ms(int fd, __u32 h, __u64 point, int ms);
int va_export(int fd, __u32 h);
int va_sync_file_status(int sf);
int va_status(int fd, __u32 h);

/* ------------------------------------------------------------------------ */
/* Submissions                                                               */
/* ------------------------------------------------------------------------ */

void va_stream(struct vt_stream *s, __u8 op, unsigned int n,
	       const __u32 *addr, const __u32 *src, bool dst);

/**
 * struct va_sub - a submission under construction (see va_sub_init())
 * @args: the SUBMIT arguments
 * @bind: slot 0
 * @in: in-syncobjs
 * @out: out-syncobjs
 */
struct va_sub {
	struct drm_vatom_submit args;
	struct drm_vatom_binding bind;
	struct drm_vatom_sync in[4];
	struct drm_vatom_sync out[4];
};

void va_sub_init(struct va_sub *j, const struct vt_stream *s, __u32 h,
		 bool async, __u32 res, __u64 res_off);
void va_sub_in(struct va_sub *j, __u32 syncobj, __u64 point);
void va_sub_out(struct va_sub *j, __u32 syncobj, __u64 point);
int va_sub_submit(int fd, struct va_sub *j);
int va_add(int fd, __u32 h, unsigned int word, __u32 val, bool async,
	   __u32 in, __u32 out);

/* ------------------------------------------------------------------------ */
/* Debugfs counters and module parameters                                    */
/* ------------------------------------------------------------------------ */

long long va_stat_settle(const char *path, const char *name, long long want);
long long va_read_ll(const char *path);
long long va_modparam(const char *name);
int va_job_timeout_swap(unsigned int ms, unsigned int *old);

/* ------------------------------------------------------------------------ */
/* The largest grid: 64 x 64 broadcasts                                      */
/* ------------------------------------------------------------------------ */

/* A 64 x 64 Blackhole grid of Tensix tiles with 16-byte L1s (2 MiB). */
#define AB_DIM		64
#define AB_TILES	(AB_DIM * AB_DIM)
#define AB_L1		16
/* Counter blocks first: 2 NIUs x 64 counters x 4 bytes per tile. */
#define AB_L1_BASE	(AB_TILES * 2 * 64 * 4)
#define AB_GRID_SIZE	(AB_L1_BASE + AB_TILES * AB_L1)

int ab_grid_create(int fd, __u32 *handle, __u64 *size);
struct drm_vatom_noc *ab_broadcasts(unsigned int n);
void ab_submit_args(struct drm_vatom_submit *args,
		    struct drm_vatom_binding *bind, __u32 grid,
		    const struct drm_vatom_noc *p, unsigned int n);
long ab_common_count(const __u8 *map);
__u32 ab_first_count(const __u8 *map);

#endif /* _VATOM_SELFTEST_ASYNC_COMMON_H_ */
