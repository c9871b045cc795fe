// SPDX-License-Identifier: GPL-2.0
/*
 * Asynchronous jobs that wait: dependencies across files (a buffer two
 * files share, one's job waiting for the other's), timeline points, waits
 * with deadlines, and synchronous waits interrupted by signals and
 * restarted.
 *
 * Part of vatom_test.c's translation unit, after test_async.c (its
 * VA_TICK_MS and va_counts()); not built alone. The va_* helpers are
 * queue_common.c's.
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <signal.h>
#include <sys/time.h>
#include <sys/wait.h>

#include "queue_common.h"

/* ------------------------------------------------------------------------ */
/* Dependencies across files, timelines, waits                               */
/* ------------------------------------------------------------------------ */

/*
 * Two files sharing a buffer: A's surface ha (its results to ra), imported
 * into B as hb.
 */
FIXTURE(two_files) {
	int fa, fb;
	__u32 ha, hb, ra;
	__u32 *m, *rm;
};

FIXTURE_SETUP(two_files)
{

	self->fa = vt_open();
	self->fb = -1;
	if (self->fa == -ENODEV)
		SKIP(return, "no vatom device");
	ASSERT_LE(0, self->fa);
	self->fb = vt_open();
	ASSERT_LE(0, self->fb);
	VT_BUFFER(self->fa, 4096, self->ha, self->m);
	VT_BUFFER(self->fa, 4096, self->ra, self->rm);
	ASSERT_EQ(0, vt_prime_share(self->fa, self->ha, self->fb, &self->hb));
}

FIXTURE_TEARDOWN(two_files)
{
	if (self->fb >= 0)
		close(self->fb);
	if (self->fa >= 0)
		close(self->fa);
}

/*
 * A: XCHG @val into word 0 of ha, the old value to ra, after the job that
 * B's syncobj @sb holds (its fence moved to A as a sync_file). Return: A's
 * out-syncobj.
 */
static __u32 two_files_xchg_after(struct __test_metadata *_metadata,
				  FIXTURE_DATA(two_files) *self, __u32 sb,
				  __u32 val)
{
	__u32 sa, outa, addr = 0;
	struct vt_stream s;
	struct va_sub j;
	int sf;

	sf = va_export(self->fb, sb);
	EXPECT_LE(0, sf);
	sa = va_syncobj(self->fa, false);
	EXPECT_EQ(0, drmSyncobjImportSyncFile(self->fa, sa, sf));
	close(sf);
	outa = va_syncobj(self->fa, false);
	va_stream(&s, DRM_VATOM_VISA_OP_XCHG, 1, &addr, &val, true);
	va_sub_init(&j, &s, self->ha, true, self->ra, 0);
	va_sub_in(&j, sa, 0);
	va_sub_out(&j, outa, 0);
	EXPECT_EQ(0, va_sub_submit(self->fa, &j));
	return outa;
}

/*
 * A job of file A waits on the out-fence of a job of file B (shared as a
 * sync_file); B's job waits on a blocker. Nothing runs until the blocker
 * signals; then B's XCHG runs before A's.
 */
TEST_F(two_files, chain_across_files)
{
	__u32 sb, outa, blk, addr = 0, val = 11;
	struct va_blocker bl;
	struct vt_stream s;
	struct va_sub j;
	int sf;

	VA_BLOCKER(&bl, self->fa);
	blk = va_blocker_syncobj(self->fb, &bl);
	ASSERT_NE(0, blk);

	/* B: XCHG 11, after the blocker; its fence into sb. */
	sb = va_syncobj(self->fb, false);
	va_stream(&s, DRM_VATOM_VISA_OP_XCHG, 1, &addr, &val, false);
	va_sub_init(&j, &s, self->hb, true, 0, 0);
	va_sub_in(&j, blk, 0);
	va_sub_out(&j, sb, 0);
	ASSERT_EQ(0, va_sub_submit(self->fb, &j));
	sf = va_export(self->fb, sb);
	ASSERT_LE(0, sf);
	EXPECT_EQ(0, va_sync_file_status(sf));	/* B's job is pending */
	close(sf);

	/* A: XCHG 22 after B's job; old value to ra. */
	outa = two_files_xchg_after(_metadata, self, sb, 22);

	EXPECT_EQ(-ETIME, va_wait_ms(self->fa, outa, 0, 100));
	EXPECT_EQ(0, self->m[0]);
	EXPECT_EQ(0, self->rm[0]);

	ASSERT_EQ(0, va_blocker_signal(&bl));
	ASSERT_EQ(0, va_wait_ms(self->fa, outa, 0, 5000));
	EXPECT_EQ(1, va_status(self->fb, sb));
	EXPECT_EQ(1, va_status(self->fa, outa));
	EXPECT_EQ(22, self->m[0]);
	EXPECT_EQ(11, self->rm[0]);	/* B's value was there when A ran */
	va_blocker_fini(&bl);
}

/*
 * A job that depends on another file's long job waits for it to finish,
 * not only to start: B adds 1 to a word 16 x 65536 times (tens of ms on
 * its file's executor); A, waiting on B's out-fence, exchanges the word
 * and must read B's whole count. (A scheduler waits for a fence of its
 * own only until its job is handed over: files must not share one.)
 */
TEST_F(two_files, chain_across_files_waits_for_finish)
{
	enum { PACKETS = 65536 };
	__u32 zero[16] = { 0 }, one[16], sb, outa;
	struct drm_vatom_binding bind = { 0 };
	struct drm_vatom_submit args = { 0 };
	struct drm_vatom_sync out = { 0 };
	struct vt_stream s;
	__u8 *big;
	int i;

	/* B: 65536 packets, each adding 1 to word 0 in all 16 lanes. */
	for (i = 0; i < 16; i++)
		one[i] = 1;
	va_stream(&s, DRM_VATOM_VISA_OP_ADD, 16, zero, one, false);
	big = malloc((size_t)PACKETS * s.size);
	ASSERT_NE(NULL, big);
	for (i = 0; i < PACKETS; i++)
		memcpy(big + (size_t)i * s.size, s.buf, s.size);
	sb = va_syncobj(self->fb, false);
	bind.handle = self->hb;
	out.handle = sb;
	args.stream = vt_u64_ptr(big);
	args.stream_size = (__u64)PACKETS * s.size;
	args.bindings = vt_u64_ptr(&bind);
	args.binding_count = 1;
	args.out_syncs = vt_u64_ptr(&out);
	args.out_sync_count = 1;
	args.flags = DRM_VATOM_SUBMIT_ASYNC;
	ASSERT_EQ(0, vt_submit(self->fb, &args));

	/* A: XCHG 7 after B's job; the old value to ra. */
	outa = two_files_xchg_after(_metadata, self, sb, 7);

	ASSERT_EQ(0, va_wait_ms(self->fa, outa, 0, 20000));
	EXPECT_EQ(1, va_status(self->fb, sb));
	EXPECT_EQ(16 * PACKETS, self->rm[0]);	/* all of B's adds, none after */
	EXPECT_EQ(7, self->m[0]);
	free(big);
}

/*
 * A timeline syncobj with several points: jobs signal points 1, 2 (file
 * A) and 3 (file B, waiting on point 2 of the same syncobj, shared as a
 * syncobj fd); waits and queries see each point in turn.
 */
TEST(timeline_points)
{
	__u32 ha, hb, ra, rb, ta, tb, blk, *m, *rma, *rmb, addr = 0, val;
	struct va_blocker bl;
	struct vt_stream s;
	struct va_sub j;
	uint64_t point;
	int fa, fb, objfd;

	VT_OPEN(fa);
	VT_OPEN(fb);
	VT_BUFFER(fa, 4096, ha, m);
	VT_BUFFER(fa, 4096, ra, rma);
	VT_BUFFER(fb, 4096, rb, rmb);
	ASSERT_EQ(0, vt_prime_share(fa, ha, fb, &hb));
	VA_BLOCKER(&bl, fa);
	blk = va_blocker_syncobj(fa, &bl);
	ASSERT_NE(0, blk);
	ta = va_syncobj(fa, false);
	ASSERT_EQ(0, drmSyncobjHandleToFD(fa, ta, &objfd));
	ASSERT_EQ(0, drmSyncobjFDToHandle(fb, objfd, &tb));
	close(objfd);

	/* A: XCHG 1 -> point 1 (held back), XCHG 2 -> point 2. */
	for (val = 1; val <= 2; val++) {
		va_stream(&s, DRM_VATOM_VISA_OP_XCHG, 1, &addr, &val, true);
		va_sub_init(&j, &s, ha, true, ra, (val - 1) * 8);
		if (val == 1)
			va_sub_in(&j, blk, 0);
		va_sub_out(&j, ta, val);
		ASSERT_EQ(0, va_sub_submit(fa, &j));
	}
	/* B: XCHG 3 waiting on point 2 -> point 3. */
	val = 3;
	va_stream(&s, DRM_VATOM_VISA_OP_XCHG, 1, &addr, &val, true);
	va_sub_init(&j, &s, hb, true, rb, 0);
	va_sub_in(&j, tb, 2);
	va_sub_out(&j, tb, 3);
	ASSERT_EQ(0, va_sub_submit(fb, &j));
	/* Point 4 does not exist yet: waiting for it is -EINVAL. */
	va_sub_init(&j, &s, hb, true, rb, 8);
	va_sub_in(&j, tb, 4);
	EXPECT_EQ(-EINVAL, va_sub_submit(fb, &j));

	EXPECT_EQ(-ETIME, va_wait_ms(fa, ta, 1, 50));
	ASSERT_EQ(0, drmSyncobjQuery(fa, &ta, &point, 1));
	EXPECT_EQ(0, point);
	EXPECT_EQ(0, m[0]);

	ASSERT_EQ(0, va_blocker_signal(&bl));
	ASSERT_EQ(0, va_wait_ms(fb, tb, 3, 5000));
	ASSERT_EQ(0, drmSyncobjQuery(fa, &ta, &point, 1));
	EXPECT_EQ(3, point);
	EXPECT_EQ(0, va_wait(fa, ta, 1, 0));	/* already signalled */
	EXPECT_EQ(3, m[0]);
	EXPECT_EQ(0, rma[0]);
	EXPECT_EQ(1, rma[2]);
	EXPECT_EQ(2, rmb[0]);

	/* A synchronous job adds point 4 before it returns. */
	val = 4;
	va_stream(&s, DRM_VATOM_VISA_OP_XCHG, 1, &addr, &val, false);
	va_sub_init(&j, &s, ha, false, 0, 0);
	va_sub_in(&j, ta, 3);
	va_sub_out(&j, ta, 4);
	ASSERT_EQ(0, va_sub_submit(fa, &j));
	ASSERT_EQ(0, drmSyncobjQuery(fa, &ta, &point, 1));
	EXPECT_EQ(4, point);
	EXPECT_EQ(4, m[0]);
	va_blocker_fini(&bl);
	close(fa);
	close(fb);
}

/*
 * Waits with an absolute CLOCK_MONOTONIC deadline: on a fence that has
 * signalled (even with a past deadline), one that signals before the
 * deadline, and one that does not (-ETIME, not before the deadline less
 * the one tick the core's jiffies rounding may cost).
 */
TEST(wait_timeouts)
{
	__u32 h, out, out2, blk, *m;
	struct va_blocker bl;
	long long t0, dt;
	pid_t pid;
	int fd, st;

	VT_OPEN(fd);
	VT_BUFFER(fd, 4096, h, m);
	out = va_syncobj(fd, false);
	out2 = va_syncobj(fd, false);

	/* Signalled: a deadline in the past still succeeds. */
	ASSERT_EQ(0, va_add(fd, h, 0, 1, false, 0, out));
	EXPECT_EQ(0, va_wait(fd, out, 0, 0));
	EXPECT_EQ(0, va_wait(fd, out, 0, va_now_ns() - 1000 * VA_NS_PER_MS));

	/*
	 * Times out: -ETIME, not before the deadline less one tick. The DRM
	 * core turns the deadline into whole jiffies, truncating, and the
	 * first jiffy is already partly gone: the wait may end up to one tick
	 * (4 ms at Debian's HZ=250, 10 ms at HZ=100) early.
	 */
	VA_BLOCKER(&bl, fd);
	blk = va_blocker_syncobj(fd, &bl);
	ASSERT_EQ(0, va_add(fd, h, 1, 1, true, blk, out2));
	t0 = va_now_ns();
	EXPECT_EQ(-ETIME, va_wait(fd, out2, 0, t0 + 150 * VA_NS_PER_MS));
	dt = va_now_ns() - t0;
	EXPECT_LE((150 - VA_TICK_MS) * VA_NS_PER_MS, dt);
	EXPECT_GT(3000 * VA_NS_PER_MS, dt);
	EXPECT_EQ(-ETIME, va_wait(fd, out2, 0, 0));
	EXPECT_EQ(0, m[1]);

	/* Succeeds: signalled from another process 200 ms into the wait. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		va_sleep_ms(200);
		_exit(va_blocker_signal(&bl) ? 1 : 0);
	}
	t0 = va_now_ns();
	EXPECT_EQ(0, va_wait(fd, out2, 0, t0 + 5000 * VA_NS_PER_MS));
	dt = va_now_ns() - t0;
	EXPECT_LE(150 * VA_NS_PER_MS, dt);
	EXPECT_EQ(1, m[1]);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_EQ(0, st);
	bl.signalled = true;
	va_blocker_fini(&bl);
	close(fd);
}

/*
 * Synchronous submissions with syncobjs: the call waits for the in-fence,
 * and the out-syncobjs (binary and timeline) hold a signalled fence when
 * it returns.
 */
TEST(sync_with_syncobjs)
{
	__u32 h, in, out, tl, *m;
	struct vt_stream s;
	struct va_sub j;
	__u32 addr = 0, val = 9;
	uint64_t point;
	int fd;

	VT_OPEN(fd);
	VT_BUFFER(fd, 4096, h, m);
	in = va_syncobj(fd, true);
	out = va_syncobj(fd, false);
	tl = va_syncobj(fd, false);

	EXPECT_EQ(-2000, va_status(fd, out));	/* no fence yet */
	va_stream(&s, DRM_VATOM_VISA_OP_ADD, 1, &addr, &val, false);
	va_sub_init(&j, &s, h, false, 0, 0);
	va_sub_in(&j, in, 0);
	va_sub_out(&j, out, 0);
	va_sub_out(&j, tl, 5);
	ASSERT_EQ(0, va_sub_submit(fd, &j));
	EXPECT_EQ(9, m[0]);
	EXPECT_EQ(1, va_status(fd, out));
	EXPECT_EQ(0, va_wait(fd, out, 0, 0));
	ASSERT_EQ(0, drmSyncobjQuery(fd, &tl, &point, 1));
	EXPECT_EQ(5, point);
	close(fd);
}

/* ------------------------------------------------------------------------ */
/* Interrupted and restarted synchronous waits                               */
/* ------------------------------------------------------------------------ */

static void va_on_alarm(int sig)
{
}

static void va_alarm_ms(unsigned int ms, bool restart)
{
	struct itimerval it = { .it_value = { ms / 1000, (ms % 1000) * 1000 } };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = va_on_alarm;
	sa.sa_flags = restart ? SA_RESTART : 0;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
}

/*
 * A synchronous submission blocked on its in-syncobj is interrupted by a
 * signal: EINTR (no SA_RESTART), nothing executed, ever. Submitted again
 * once the fence signals, it executes exactly once. With SA_RESTART the
 * kernel restarts the call transparently and it too executes once.
 */
TEST(sync_wait_interrupted)
{
	__u32 h, blk, blk2, *m;
	struct va_blocker bl, bl2;
	long long t0;
	pid_t pid;
	int fd, st;

	VT_OPEN(fd);
	VT_BUFFER(fd, 4096, h, m);
	VA_BLOCKER(&bl, fd);
	blk = va_blocker_syncobj(fd, &bl);
	ASSERT_NE(0, blk);

	va_alarm_ms(100, false);
	t0 = va_now_ns();
	EXPECT_EQ(-EINTR, va_add(fd, h, 0, 1, false, blk, 0));
	EXPECT_LE(80 * VA_NS_PER_MS, va_now_ns() - t0);
	EXPECT_EQ(0, m[0]);

	ASSERT_EQ(0, va_blocker_signal(&bl));
	/* The interrupted call left nothing that could still execute. */
	ASSERT_EQ(0, va_add(fd, h, 0, 1, false, blk, 0));
	EXPECT_EQ(1, m[0]);
	va_sleep_ms(50);
	EXPECT_EQ(1, m[0]);

	/* SA_RESTART: restarted in the kernel, executed once. */
	VA_BLOCKER(&bl2, fd);
	blk2 = va_blocker_syncobj(fd, &bl2);
	ASSERT_NE(0, blk2);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		va_sleep_ms(300);
		_exit(va_blocker_signal(&bl2) ? 1 : 0);
	}
	va_alarm_ms(50, true);
	EXPECT_EQ(0, va_add(fd, h, 0, 10, false, blk2, 0));
	EXPECT_EQ(11, m[0]);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_EQ(0, st);
	bl2.signalled = true;
	signal(SIGALRM, SIG_DFL);
	va_blocker_fini(&bl2);
	va_blocker_fini(&bl);
	close(fd);
}

/*
 * A synchronous wait interrupted every 5 ms by a SA_RESTART signal for half
 * a second: each restart starts the submission afresh, none leaves a job
 * behind (no -EBUSY from the in-flight limit, live jobs back to before),
 * and the stream executes exactly once.
 */
TEST(sync_wait_many_restarts)
{
	struct itimerval it = { { 0, 5000 }, { 0, 5000 } }, off = { 0 };
	struct va_counts base;
	struct va_blocker bl;
	struct sigaction sa;
	char path[128];
	__u32 h, blk, *m;
	pid_t pid;
	int fd, st;

	VT_OPEN(fd);
	if (!vt_debugfs_stats_path(vt_render_path, path, sizeof(path)))
		SKIP(close(fd); return, "no vatom_stats in debugfs");
	va_counts(path, &base);
	VT_BUFFER(fd, 4096, h, m);
	VA_BLOCKER(&bl, fd);
	blk = va_blocker_syncobj(fd, &bl);
	ASSERT_NE(0, blk);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		va_sleep_ms(500);
		_exit(va_blocker_signal(&bl) ? 1 : 0);
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = va_on_alarm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	EXPECT_EQ(0, va_add(fd, h, 0, 1, false, blk, 0));
	setitimer(ITIMER_REAL, &off, NULL);
	signal(SIGALRM, SIG_DFL);
	EXPECT_EQ(1, m[0]);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_EQ(0, st);
	EXPECT_EQ(base.jobs, va_stat_settle(path, "jobs_in_flight", base.jobs));
	bl.signalled = true;
	va_blocker_fini(&bl);
	munmap(m, 4096);
	close(fd);
}
