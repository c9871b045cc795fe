// SPDX-License-Identifier: GPL-2.0
/*
 * Asynchronous submissions and DRM syncobjs: the parameters, jobs, their
 * ordering and results, sync and async mixed. The rest of the async tests
 * follow it: test_async_deps.c (dependencies, timelines, waits),
 * test_async_cancel.c (failure propagation, cancellation, what keeps the
 * module loaded) and test_async_limits.c (errors, limits, schedulers).
 *
 * Jobs that must stay "in flight" wait on a fence nobody signals yet: a
 * vgem fence (DRM_IOCTL_VGEM_FENCE_ATTACH on a vgem buffer), exported from
 * the buffer's dma-buf as a sync_file and imported into a syncobj. The test
 * signals it (DRM_IOCTL_VGEM_FENCE_SIGNAL) when it wants; vgem itself
 * signals it after 10 s, so every wait here is much shorter.
 *
 * Expected memory contents are sums and sequences worked out by hand from
 * what each test submits (ADD/XCHG semantics, DWORD_ATOMIC), never read
 * from the device first.
 *
 * Part of vatom_test.c's translation unit (see there); not built alone.
 * The va_* helpers are queue_common.c's.
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <linux/dma-buf.h>
#include <linux/sync_file.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>

#include "queue_common.h"

/* Longest kernel tick (HZ=100): how early a jiffies-rounded wait may end. */
#define VA_TICK_MS	10

struct va_counts {
	long long jobs, fences, surfaces, cancelled;
};

static void va_counts(const char *path, struct va_counts *c)
{
	c->jobs = vt_debugfs_stat(path, "jobs_in_flight");
	c->fences = vt_debugfs_stat(path, "fences");
	c->surfaces = vt_debugfs_stat(path, "surfaces");
	c->cancelled = vt_debugfs_stat(path, "jobs_cancelled");
}

/* Every live count back to @base. */
#define VA_EXPECT_COUNTS(path, base) do {					\
	EXPECT_EQ((base)->jobs, va_stat_settle(path, "jobs_in_flight",	\
					       (base)->jobs));		\
	EXPECT_EQ((base)->fences, va_stat_settle(path, "fences",		\
						 (base)->fences));		\
	EXPECT_EQ((base)->surfaces, va_stat_settle(path, "surfaces",	\
						   (base)->surfaces));		\
} while (0)

/* /sys/module/vatom/refcnt; -1 if absent. */
static long long va_module_refcnt(void)
{
	return va_read_ll("/sys/module/vatom/refcnt");
}

/* ------------------------------------------------------------------------ */
/* Parameters                                                                */
/* The new limits are reported, and are what the module was loaded with. */
TEST(async_params)
{
	__u64 caps, jobs, cap, syncs, timeout;
	long long t;
	uint64_t v;
	int fd;

	VT_OPEN(fd);
	ASSERT_EQ(0, vt_get_param(fd, DRM_VATOM_PARAM_CAPS, 0, &caps));
	EXPECT_TRUE(caps & DRM_VATOM_CAP_SUBMIT_ASYNC);
	EXPECT_TRUE(caps & DRM_VATOM_CAP_SYNCOBJ);
	ASSERT_EQ(0, vt_get_param(fd, DRM_VATOM_PARAM_MAX_JOBS, 0, &jobs));
	ASSERT_EQ(0, vt_get_param(fd, DRM_VATOM_PARAM_FILE_MEM_CAP, 0, &cap));
	ASSERT_EQ(0, vt_get_param(fd, DRM_VATOM_PARAM_MAX_SYNCS, 0, &syncs));
	EXPECT_EQ(64, syncs);
	EXPECT_LE(1, jobs);
	ASSERT_EQ(0, vt_get_param(fd, DRM_VATOM_PARAM_JOB_TIMEOUT_MS, 0, &timeout));
	if (va_modparam("max_jobs") >= 0) {
		EXPECT_EQ(va_modparam("max_jobs"), jobs);
		EXPECT_EQ(va_modparam("file_mem_cap"), cap);
		/* The parameter, clamped to 100 ms .. 10 min. */
		t = va_modparam("job_timeout_ms");
		EXPECT_EQ(t < 100 ? 100 : t > 600000 ? 600000 : t, timeout);
	}
	EXPECT_LE(100, timeout);
	EXPECT_GE(600000, timeout);
	/* The DRM core serves timelines for this driver. */
	ASSERT_EQ(0, drmGetCap(fd, DRM_CAP_SYNCOBJ_TIMELINE, &v));
	EXPECT_EQ(1, v);
	ASSERT_EQ(0, drmGetCap(fd, DRM_CAP_SYNCOBJ, &v));
	EXPECT_EQ(1, v);
	close(fd);
}

/* ------------------------------------------------------------------------ */
/* Execution, ordering, results                                              */
/* ------------------------------------------------------------------------ */

/*
 * An asynchronous job returns at once and executes later; its fence in the
 * out-syncobj signals when the memory and the result surface hold what the
 * 16-lane ADD computes.
 */
TEST(async_basic)
{
	__u32 addr[16], src[16], h, r, out, *m, *rm;
	struct vt_stream s;
	struct va_sub j;
	unsigned int i;
	int fd;

	VT_OPEN(fd);
	VT_BUFFER(fd, 4096, h, m);
	VT_BUFFER(fd, 4096, r, rm);
	for (i = 0; i < 16; i++) {
		addr[i] = i * 8;
		src[i] = 1000 + i;
		m[i * 2] = i * 3;
		rm[i] = 0xdeadbeef;
	}
	out = va_syncobj(fd, false);
	ASSERT_NE(0, out);

	va_stream(&s, DRM_VATOM_VISA_OP_ADD, 16, addr, src, true);
	va_sub_init(&j, &s, h, true, r, 64);
	va_sub_out(&j, out, 0);
	ASSERT_EQ(0, va_sub_submit(fd, &j));
	EXPECT_EQ(64, j.args.results_needed);
	EXPECT_EQ(DRM_VATOM_ERR_NONE, j.args.error_reason);

	ASSERT_EQ(0, va_wait_ms(fd, out, 0, 5000));
	EXPECT_EQ(1, va_status(fd, out));
	for (i = 0; i < 16; i++) {
		EXPECT_EQ(i * 3 + 1000 + i, m[i * 2]) TH_LOG("lane %u", i);
		EXPECT_EQ(i * 3, rm[16 + i]) TH_LOG("lane %u", i);
		EXPECT_EQ(0, m[i * 2 + 1]);
	}
	for (i = 0; i < 16; i++) {
		EXPECT_EQ(0xdeadbeef, rm[i]);	/* before result_offset */
	close(fd);
	}
}

/*
 * Jobs of one file execute in submission order: 48 asynchronous XCHGs of
 * 1, 2, 3, ... on one word return 0, 1, 2, ... and leave the last value,
 * although only the first waits for anything (a blocker): the others are
 * held back by it alone.
 */
TEST(async_order_per_file)
{
	const unsigned int n = 48;
	__u32 h, r, out, blk, *m, *rm, addr = 0, val;
	struct va_blocker bl;
	struct vt_stream s;
	struct va_sub j;
	unsigned int i;
	int fd;

	VT_OPEN(fd);
	VT_BUFFER(fd, 4096, h, m);
	VT_BUFFER(fd, 4096, r, rm);
	VA_BLOCKER(&bl, fd);
	blk = va_blocker_syncobj(fd, &bl);
	out = va_syncobj(fd, false);
	ASSERT_NE(0, out);
	for (i = 0; i < n; i++) {
		val = i + 1;
		va_stream(&s, DRM_VATOM_VISA_OP_XCHG, 1, &addr, &val, true);
		va_sub_init(&j, &s, h, true, r, i * 8);
		if (!i)
			va_sub_in(&j, blk, 0);
		if (i == n - 1)
			va_sub_out(&j, out, 0);
		ASSERT_EQ(0, va_sub_submit(fd, &j)) TH_LOG("job %u", i);
	}
	EXPECT_EQ(-ETIME, va_wait_ms(fd, out, 0, 100));
	EXPECT_EQ(0, m[0]);
	ASSERT_EQ(0, va_blocker_signal(&bl));
	ASSERT_EQ(0, va_wait_ms(fd, out, 0, 10000));
	EXPECT_EQ(n, m[0]);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(i, rm[i * 2]) TH_LOG("job %u", i);
	}
	va_blocker_fini(&bl);
	close(fd);
}

/*
 * A synchronous submission waits for its file's earlier asynchronous jobs,
 * even one held back by an in-syncobj, and interleaved sync and async
 * submissions keep their order.
 */
TEST(sync_waits_for_earlier_async)
{
	__u32 h, blk, *m, addr = 0, val;
	struct va_blocker b;
	struct vt_stream s;
	struct va_sub j;
	long long t0;
	int fd;

	VT_OPEN(fd);
	VT_BUFFER(fd, 4096, h, m);
	VA_BLOCKER(&b, fd);
	blk = va_blocker_syncobj(fd, &b);
	ASSERT_NE(0, blk);

	/* Async XCHG 5, held back; then a sync XCHG 7 must run after it. */
	val = 5;
	va_stream(&s, DRM_VATOM_VISA_OP_XCHG, 1, &addr, &val, false);
	va_sub_init(&j, &s, h, true, 0, 0);
	va_sub_in(&j, blk, 0);
	ASSERT_EQ(0, va_sub_submit(fd, &j));
	va_sleep_ms(50);
	EXPECT_EQ(0, m[0]);	/* held back */

	if (!fork()) {
		/* Releases the first job in 300 ms. */
		va_sleep_ms(300);
		_exit(va_blocker_signal(&b) ? 1 : 0);
	}
	t0 = va_now_ns();
	{
		__u32 old[2] = { 0xcccccccc, 0xcccccccc };

		val = 7;
		va_stream(&s, DRM_VATOM_VISA_OP_XCHG, 1, &addr, &val, true);
		ASSERT_EQ(0, vt_run(fd, &s, h, old, sizeof(old), NULL));
		EXPECT_EQ(5, old[0]);	/* the async job ran first */
	}
	EXPECT_LE(250 * VA_NS_PER_MS, va_now_ns() - t0);
	EXPECT_EQ(7, m[0]);
	wait(NULL);
	b.signalled = true;
	va_blocker_fini(&b);
	close(fd);
}

/*
 * A synchronous submission without syncobjs executes without a fence
 * (docs/async.md): the live fence count does not move. With an
 * out-syncobj it gets one, which the syncobj keeps. After an asynchronous
 * job has completed, a synchronous one sees its effect.
 */
TEST(sync_direct_without_fence)
{
	struct va_counts base;
	char path[128];
	__u32 h, out, *m;
	int fd;

	VT_OPEN(fd);
	if (!vt_debugfs_stats_path(vt_render_path, path, sizeof(path)))
		SKIP(close(fd); return, "no vatom_stats in debugfs");
	va_counts(path, &base);
	VT_BUFFER(fd, 4096, h, m);

	ASSERT_EQ(0, va_add(fd, h, 0, 1, false, 0, 0));
	ASSERT_EQ(0, va_add(fd, h, 0, 2, false, 0, 0));
	EXPECT_EQ(3, m[0]);
	EXPECT_EQ(base.fences, va_stat_settle(path, "fences", base.fences));

	out = va_syncobj(fd, false);
	ASSERT_NE(0, out);
	ASSERT_EQ(0, va_add(fd, h, 0, 4, false, 0, out));
	EXPECT_EQ(7, m[0]);
	EXPECT_EQ(base.fences + 1,
		  va_stat_settle(path, "fences", base.fences + 1));

	ASSERT_EQ(0, va_add(fd, h, 1, 10, true, 0, out));
	ASSERT_EQ(0, va_wait_ms(fd, out, 0, 5000));
	ASSERT_EQ(0, va_add(fd, h, 1, 20, false, 0, 0));
	EXPECT_EQ(30, m[1]);

	drmSyncobjDestroy(fd, out);
	munmap(m, 4096);
	close(fd);
	VA_EXPECT_COUNTS(path, &base);
}

/*
 * A file reuses its last job's memory for the next submission: a slot
 * bound by the previous submission must not be bound in the next one
 * (-EINVAL, DRM_VATOM_ERR_SLOT), and its surface is not written.
 */
TEST(sync_slots_not_inherited)
{
	struct drm_vatom_binding bind[2];
	struct drm_vatom_submit args;
	__u32 h0, h5, *m0, *m5, addr = 0, val = 1, res[2];
	struct vt_stream s;
	struct vt_visa v;
	int fd;

	VT_OPEN(fd);
	VT_BUFFER(fd, 4096, h0, m0);
	VT_BUFFER(fd, 4096, h5, m5);
	bind[0].slot = 0;
	bind[0].handle = h0;
	bind[0].flags = 0;
	bind[0].pad = 0;
	bind[1] = bind[0];
	bind[1].slot = 5;
	bind[1].handle = h5;

	/* Packet 0 adds on slot 0, packet 1 on slot 5: both bound. */
	vt_stream_init(&s);
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_1,
		 DRM_VATOM_VISA_TYPE_UD, &addr, &val, NULL, false);
	vt_add_visa(&s, &v);
	v.surface = 5;
	vt_add_visa(&s, &v);
	vt_submit_args(&args, &s, bind, 2, res, sizeof(res));
	ASSERT_EQ(0, vt_submit(fd, &args));
	EXPECT_EQ(1, m0[0]);
	EXPECT_EQ(1, m5[0]);

	/* The same stream with only slot 0 bound. */
	vt_submit_args(&args, &s, bind, 1, res, sizeof(res));
	EXPECT_EQ(-1, vt_submit(fd, &args));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(1, args.error_index);
	EXPECT_EQ(DRM_VATOM_ERR_SLOT, args.error_reason);
	EXPECT_EQ(1, m0[0]);
	EXPECT_EQ(1, m5[0]);

	munmap(m0, 4096);
	munmap(m5, 4096);
	close(fd);
}

/* Add @iters times to 16 words, alternately sync and async; see below. */
struct va_mix {
	int fd;
	__u32 h;
	__u32 inc;
	unsigned int iters;
	int err;
};

static void *va_mix_thread(void *arg)
{
	struct va_mix *x = arg;
	__u32 addr[16], src[16], out;
	struct vt_stream s;
	struct va_sub j;
	unsigned int i, k;
	int ret;

	for (k = 0; k < 16; k++) {
		addr[k] = k * 4;
		src[k] = x->inc * (k + 1);
	}
	out = va_syncobj(x->fd, false);
	if (!out) {
		x->err = -ENOMEM;
		return NULL;
	}
	va_stream(&s, DRM_VATOM_VISA_OP_ADD, 16, addr, src, false);
	for (i = 0; i < x->iters; i++) {
		va_sub_init(&j, &s, x->h, i & 1, 0, 0);
		va_sub_out(&j, out, 0);
		do {
			ret = va_sub_submit(x->fd, &j);
			if (ret == -EBUSY)	/* the file's jobs are capped */
				va_wait_ms(x->fd, out, 0, 5000);
		} while (ret == -EBUSY);
		if (ret) {
			x->err = ret;
			break;
		}
	}
	if (!x->err)
		x->err = va_wait_ms(x->fd, out, 0, 20000);
	drmSyncobjDestroy(x->fd, out);
	return NULL;
}

/*
 * Two files (and threads) add to the same 16 words, each alternating sync
 * and async submissions: every word ends at exactly the sum of all adds.
 */
TEST(mixed_sync_async_totals)
{
	const unsigned int iters = 200;
	struct va_mix a = { .inc = 1, .iters = iters }, b = { .inc = 1000, .iters = iters };
	pthread_t ta, tb;
	__u32 *m;
	unsigned int k;

	VT_OPEN(a.fd);
	VT_OPEN(b.fd);
	VT_BUFFER(a.fd, 4096, a.h, m);
	ASSERT_EQ(0, vt_prime_share(a.fd, a.h, b.fd, &b.h));

	ASSERT_EQ(0, pthread_create(&ta, NULL, va_mix_thread, &a));
	ASSERT_EQ(0, pthread_create(&tb, NULL, va_mix_thread, &b));
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	EXPECT_EQ(0, a.err);
	EXPECT_EQ(0, b.err);
	for (k = 0; k < 16; k++) {
		EXPECT_EQ(iters * (1 + 1000) * (k + 1), m[k]) TH_LOG("word %u", k);
	}
	close(a.fd);
	close(b.fd);
}
