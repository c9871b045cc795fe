// SPDX-License-Identifier: GPL-2.0
/*
 * Polling queues at work: jobs with no system call, the NEED_WAKEUP
 * doorbell, and a poller that goes to sleep when idle on a busy machine.
 *
 * Part of vatom_test.c's translation unit, after test_queue_poll.c; not
 * built alone. The qp_*, vq_*, va_* and ab_* helpers are
 * queue_common.c's. Expected memory contents are sums of the increments
 * the tests issue; expected counts are what the tests published.
 *
 * Times: a job completes within QP_DONE_MS, a poller stops within
 * QP_STOP_MS, far above what they take in the TCG test VM.
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <poll.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "queue_common.h"

/* ------------------------------------------------------------------------ */
/* Jobs with no system call                                                  */
/* ------------------------------------------------------------------------ */

FIXTURE(qpoll_trip) {
	bool skip;
	int fd;
	struct qp_env v;
};

/**
 * FIXTURE_VARIANT(qpoll_trip) - one way of feeding a polling queue
 * @entries: ring entries
 * @jobs: jobs in all
 * @max_batch: jobs published per tail store, 1 to @max_batch in turn
 * @idle_us: poll_idle_us
 * @kicks_allowed: the producer may KICK when NEED_WAKEUP is set (else the
 *	poller, polling 1 s after each job, must take every job unasked)
 */
FIXTURE_VARIANT(qpoll_trip) {
	__u32 entries, jobs, max_batch, idle_us;
	bool kicks_allowed;
};

FIXTURE_VARIANT_ADD(qpoll_trip, one_by_one) {
	.entries = 64, .jobs = 300, .max_batch = 1, .idle_us = QP_IDLE_MAX,
};

FIXTURE_VARIANT_ADD(qpoll_trip, batches) {
	.entries = 64, .jobs = 1000, .max_batch = 64, .idle_us = QP_IDLE_MAX,
};

FIXTURE_VARIANT_ADD(qpoll_trip, ring_of_2) {
	.entries = 2, .jobs = 500, .max_batch = 2, .idle_us = QP_IDLE_MAX,
};

FIXTURE_VARIANT_ADD(qpoll_trip, default_idle_protocol) {
	.entries = 16, .jobs = 400, .max_batch = 16, .idle_us = 0, .kicks_allowed = true,
};

FIXTURE_VARIANT_ADD(qpoll_trip, short_idle_protocol) {
	.entries = 32, .jobs = 400, .max_batch = 5, .idle_us = 1, .kicks_allowed = true,
};

FIXTURE_SETUP(qpoll_trip)
{
	struct qp_mode m = { .flags = QP_POLL, .idle_us = variant->idle_us };

	self->fd = qp_fixture_open(&self->skip);
	if (self->skip)
		SKIP(return, "no vatom device, or no polling queues");
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, qp_env_init(&self->v, self->fd, variant->entries, 0, &m));
}

FIXTURE_TEARDOWN(qpoll_trip)
{
	if (self->fd >= 0)
		close(self->fd);
}

/*
 * Jobs published by moving the tail only: each completes (status 0, its
 * results the exact old values: prefix sums), the totals are exact, and
 * with a 1 s idle time no KICK is ever asked for.
 */
TEST_F(qpoll_trip, round_trip)
{
	struct qp_env *v = &self->v;
	__u32 i, k, batch, first, e = variant->entries;
	unsigned int kicks = 0;
	__u64 sum = 0;
	struct vt_stream s;
	int ret;

	if (self->skip)
		SKIP(return, "no vatom device, or no polling queues");
	if (!variant->kicks_allowed) {
		/* A poller is awake from its creation on. */
		EXPECT_EQ(0, qp_flags(&v->q));
	}
	for (first = 0; first < variant->jobs; first += batch) {
		batch = 1 + first % variant->max_batch;
		if (first + batch > variant->jobs)
			batch = variant->jobs - first;
		/* Positions start at 0: job i is at position i. */
		for (i = first; i < first + batch; i++) {
			struct drm_vatom_queue_job *j = &v->q.ring[i & (e - 1)];

			memset(j, 0, sizeof(*j));
			vt_stream_init(&s);
			vq_add16(&s, i % 5 + 1, true);
			vq_job(j, v->streams, i & (e - 1), &s);
			j->status = QP_UNTOUCHED;
		}
		ret = qp_publish(&v->q, batch);
		ASSERT_LE(0, ret) TH_LOG("KICK: %s", strerror(-ret));
		kicks += ret;
		ASSERT_TRUE(qp_wait_completed(&v->q, first + batch, QP_DONE_MS))
			TH_LOG("jobs %u..%u: completed %llu", first, first + batch - 1,
			       (unsigned long long)vq_completed(&v->q));
		EXPECT_EQ(first + batch, vq_completed(&v->q));
		EXPECT_EQ(v->q.tail, v->q.ctl->head);
		for (i = first; i < first + batch; i++) {
			const struct drm_vatom_queue_job *j = &v->q.ring[i & (e - 1)];
			const __u32 *res = (const __u32 *)((char *)v->results +
							   (i & (e - 1)) * VQ_RES_STRIDE);

			ASSERT_EQ(0, j->status) TH_LOG("job %u", i);
			for (k = 0; k < 16; k++) {
				ASSERT_EQ((__u32)(sum * (k + 1)), res[k])
					TH_LOG("job %u lane %u", i, k);
			}
			sum += i % 5 + 1;
		}
	}
	for (k = 0; k < 16; k++) {
		EXPECT_EQ((__u32)(sum * (k + 1)), v->target[k]) TH_LOG("word %u", k);
	}
	TH_LOG("%u jobs, %u kicks", variant->jobs, kicks);
	if (!variant->kicks_allowed)
		EXPECT_EQ(0, kicks);
	EXPECT_EQ(0, vq_destroy(self->fd, v->q.id));
}

/* ------------------------------------------------------------------------ */
/* The doorbell                                                              */
/* ------------------------------------------------------------------------ */

/* The NEED_WAKEUP test's jobs: 32 of 32 whole-grid broadcasts (2^17 operations). */
#define QP_WAKE_JOBS		32
#define QP_WAKE_PACKETS		32

/*
 * After poll_idle_us without work the poller sets NEED_WAKEUP and sleeps:
 * jobs published then wait for a KICK. The KICK wakes it and returns at
 * once (it consumes only for a poller that is awake and elsewhere:
 * queue_poll_pair.kick_consumes); the poller clears the flag while it
 * consumes, and sets it again once idle.
 * The jobs broadcast to a grid (the queue's target), long enough to look
 * at the flag while they run.
 */
TEST(queue_poll_need_wakeup)
{
	const __u32 n = QP_WAKE_JOBS;
	struct qp_mode m = { .flags = QP_POLL, .idle_us = QP_IDLE_SHORT };
	unsigned int samples = 0, flagged = 0;
	long long t0, kick_ns;
	__u64 c1, c2, gsize;
	struct qp_env v;
	__u32 f, i, grid;
	__u8 *gmap;
	int fd;

	VT_OPEN(fd);
	if (!qp_supported(fd))
		SKIP(close(fd); return, "no polling queues or signals");
	ASSERT_EQ(0, ab_grid_create(fd, &grid, &gsize));
	gmap = vt_map(fd, grid, gsize);
	ASSERT_NE(NULL, gmap);
	ASSERT_EQ(0, qp_env_init(&v, fd, 64, grid, &m));
	qp_broadcast_jobs(&v, 0, n, QP_WAKE_PACKETS, 0);
	va_sleep_ms(50);
	ASSERT_TRUE(qp_wait_flags(&v.q, DRM_VATOM_QUEUE_CTL_NEED_WAKEUP,
				  DRM_VATOM_QUEUE_CTL_NEED_WAKEUP, QP_DONE_MS))
		TH_LOG("no NEED_WAKEUP 1 ms idle + 10 s after creation");
	/*
	 * The poller sets the flag, then looks at the tail once more before
	 * it sleeps: give it time to be asleep (the flag still set).
	 */
	va_sleep_ms(50);
	ASSERT_EQ(DRM_VATOM_QUEUE_CTL_NEED_WAKEUP, qp_flags(&v.q));

	/* Published, not kicked: the sleeping poller does not see it. */
	v.q.tail += n;
	__atomic_store_n(&v.q.ctl->tail, v.q.tail, __ATOMIC_RELEASE);
	va_sleep_ms(100);
	EXPECT_EQ(0, vq_completed(&v.q));
	EXPECT_EQ(DRM_VATOM_QUEUE_CTL_NEED_WAKEUP, qp_flags(&v.q));
	EXPECT_EQ(0, ab_common_count(gmap));
	EXPECT_EQ(QP_UNTOUCHED, v.q.ring[0].status);

	t0 = va_now_ns();
	ASSERT_EQ(0, vq_kick(fd, v.q.id));
	kick_ns = va_now_ns() - t0;
	ASSERT_TRUE(qp_wait_completed(&v.q, 1, QP_DONE_MS));
	/* While jobs remain, the flag is clear: sample it between two counts. */
	do {
		c1 = vq_completed(&v.q);
		f = qp_flags(&v.q);
		c2 = vq_completed(&v.q);
		if (c2 < n) {
			samples++;
			flagged += !!(f & DRM_VATOM_QUEUE_CTL_NEED_WAKEUP);
		}
	} while (c2 < n && qp_wait_completed(&v.q, c1 + 1, QP_DONE_MS));
	TH_LOG("KICK took %lld us; %u samples of the flag while busy",
	       kick_ns / 1000, samples);
	EXPECT_LT(0, samples);
	EXPECT_EQ(0, flagged);
	ASSERT_TRUE(qp_wait_completed(&v.q, n, 6 * QP_DONE_MS));
	EXPECT_EQ(n, vq_completed(&v.q));
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, v.q.ring[i].status) TH_LOG("job %u", i);
	}
	EXPECT_EQ(n * QP_WAKE_PACKETS, ab_common_count(gmap));

	/* Idle again: the flag comes back, and the next job needs a KICK. */
	EXPECT_TRUE(qp_wait_flags(&v.q, DRM_VATOM_QUEUE_CTL_NEED_WAKEUP,
				  DRM_VATOM_QUEUE_CTL_NEED_WAKEUP, QP_DONE_MS));
	va_sleep_ms(50);
	qp_broadcast_jobs(&v, n, 1, 1, 4096);
	EXPECT_EQ(1, qp_publish(&v.q, 1));
	ASSERT_TRUE(qp_wait_completed(&v.q, n + 1, QP_DONE_MS));
	EXPECT_EQ(0, v.q.ring[n].status);
	EXPECT_EQ(n * QP_WAKE_PACKETS + 1, ab_common_count(gmap));
	munmap(gmap, gsize);
	close(fd);
}

/* ------------------------------------------------------------------------ */
/* Idle on a busy machine                                                    */
/* ------------------------------------------------------------------------ */

/*
 * How late past poll_idle_us a poller may go to sleep while CPU hogs run:
 * a few scheduler slices in the TCG VM, far below "never" (issue 24: with
 * four hogs on two vCPUs it polled for ever at about 40 % of a CPU).
 */
#define QP_SLEEP_LATE_MS	500
/* The window in which a sleeping poller's CPU time is measured, and its most. */
#define QP_ASLEEP_WINDOW_MS	1000
#define QP_ASLEEP_CPU_MS	5
/*
 * The CPU a poller may burn past its idle time before it sleeps: its last
 * turn, which a host that deschedules the vCPU can stretch. Hogs excuse
 * QP_SLEEP_LATE_MS of wall time (waiting for a CPU), not of CPU.
 */
#define QP_IDLE_CPU_LATE_MS	100
#define QP_HOGS_MAX		4

/*
 * /proc/TID/stat of task @tid into @buf: the fields after "(comm) ", from
 * the state on, or NULL when unreadable.
 */
static const char *qp_task_stat(pid_t tid, char *buf, size_t len)
{
	char path[64], *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	p = fgets(buf, len, f);
	fclose(f);
	p = p ? strrchr(buf, ')') : NULL;
	return p && p[1] == ' ' ? p + 2 : NULL;
}

/*
 * CPU time task @tid has used, in ns: /proc/TID/schedstat (ns), else the
 * utime and stime of /proc/TID/stat (clock ticks); -1 when unreadable.
 */
static long long qp_task_cpu_ns(pid_t tid)
{
	unsigned long long run, ut, st;
	char path[64], buf[1024];
	const char *p;
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)tid);
	f = fopen(path, "r");
	if (f) {
		n = fscanf(f, "%llu", &run);
		fclose(f);
		if (n == 1)
			return run;
	}
	/* Fields 3 to 15: utime and stime are 14 and 15. */
	p = qp_task_stat(tid, buf, sizeof(buf));
	if (!p || sscanf(p, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			 &ut, &st) != 2)
		return -1;
	return (ut + st) * (1000000000ll / sysconf(_SC_CLK_TCK));
}

/* The state letter of task @tid (R, S, D, ...), or 0. */
static char qp_task_state(pid_t tid)
{
	char buf[1024];
	const char *p = qp_task_stat(tid, buf, sizeof(buf));

	return p ? p[0] : 0;
}

/* A child process that spins until killed (and dies with its parent). */
static pid_t qp_hog(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		volatile unsigned long spin = 0;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == 1)
			_exit(0);
		for (;;)
			spin++;
	}
	return pid;
}

FIXTURE(qpoll_idle) {
	bool skip;
	int fd;
	unsigned int hogs;
	pid_t hog[QP_HOGS_MAX];
	struct qp_env v;
};

/**
 * FIXTURE_VARIANT(qpoll_idle) - how busy the machine is when the queue idles
 * @hogs: processes spinning on the CPUs from before the last job to the end
 * @idle_us: poll_idle_us
 */
FIXTURE_VARIANT(qpoll_idle) {
	unsigned int hogs;
	__u32 idle_us;
};

FIXTURE_VARIANT_ADD(qpoll_idle, no_hogs) {
	.hogs = 0, .idle_us = QP_IDLE_SHORT,
};

FIXTURE_VARIANT_ADD(qpoll_idle, two_hogs) {
	.hogs = 2, .idle_us = QP_IDLE_SHORT,
};

FIXTURE_VARIANT_ADD(qpoll_idle, four_hogs) {
	.hogs = 4, .idle_us = QP_IDLE_SHORT,
};

FIXTURE_VARIANT_ADD(qpoll_idle, four_hogs_idle_200ms) {
	.hogs = 4, .idle_us = 200000,
};

FIXTURE_SETUP(qpoll_idle)
{
	struct qp_mode m = { .flags = QP_POLL, .idle_us = variant->idle_us };

	self->hogs = 0;
	self->fd = qp_fixture_open(&self->skip);
	if (self->skip)
		SKIP(return, "no vatom device, or no polling queues");
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, qp_env_init(&self->v, self->fd, 8, 0, &m));
}

FIXTURE_TEARDOWN(qpoll_idle)
{
	unsigned int i;

	for (i = 0; i < self->hogs; i++) {
		kill(self->hog[i], SIGKILL);
		waitpid(self->hog[i], NULL, 0);
	}
	if (self->fd >= 0)
		close(self->fd);
}

/*
 * With CPU hogs already running when the queue goes idle, the poller still
 * sleeps poll_idle_us after its last job, give or take QP_SLEEP_LATE_MS:
 * NEED_WAKEUP appears neither before the idle time (counted from before
 * the job was published) nor long after it (counted from its completion);
 * until then the poller's thread burns at most poll_idle_us of CPU, give
 * or take QP_IDLE_CPU_LATE_MS, and then none (its CPU time from /proc).
 * The next job needs a KICK, and runs.
 */
TEST_F_TIMEOUT(qpoll_idle, sleeps_when_idle, 60)
{
	const long long idle_ns = variant->idle_us * 1000ll;
	long long t_pub, t_done, t1, t2, seen = -1, cpu0, cpu1, cpu2;
	struct qp_env *v = &self->v;
	struct vt_stream s;
	unsigned int i;
	pid_t tid;

	if (self->skip)
		SKIP(return, "no vatom device, or no polling queues");
	tid = qp_poller_tid(getpid());
	ASSERT_LT(0, tid) TH_LOG("no single task named vatom-poll/%d", getpid());
	ASSERT_LE(0, qp_task_cpu_ns(tid));
	for (i = 0; i < variant->hogs; i++) {
		self->hog[i] = qp_hog();
		ASSERT_LT(0, self->hog[i]);
		self->hogs++;
	}
	/* Let the hogs take the CPUs. */
	va_sleep_ms(100);

	/* The last job: the poller may be asleep already (then KICKed). */
	vt_stream_init(&s);
	vq_add16(&s, 3, false);
	vq_job(vq_next(&v->q), v->streams, 0, &s);
	t_pub = va_now_ns();
	ASSERT_LE(0, qp_publish(&v->q, 1));
	ASSERT_TRUE(qp_wait_completed(&v->q, 1, QP_DONE_MS));
	t_done = va_now_ns();
	cpu0 = qp_task_cpu_ns(tid);
	EXPECT_EQ(0, v->q.ring[0].status);
	EXPECT_EQ(3, v->target[0]);

	/* NEED_WAKEUP: not before the idle time, and not much after it. */
	do {
		t1 = va_now_ns();
		if (qp_flags(&v->q) & DRM_VATOM_QUEUE_CTL_NEED_WAKEUP) {
			seen = va_now_ns();
			break;
		}
		usleep(200);
	} while (t1 - t_done < idle_ns + QP_SLEEP_LATE_MS * VA_NS_PER_MS);
	ASSERT_LE(0, seen)
		TH_LOG("%u hogs: no NEED_WAKEUP %u us + %d ms after the last job",
		       variant->hogs, variant->idle_us, QP_SLEEP_LATE_MS);
	EXPECT_LE(idle_ns, seen - t_pub);
	cpu1 = qp_task_cpu_ns(tid);
	TH_LOG("%u hogs, idle %u us: asleep %lld us after the job, %lld us of CPU",
	       variant->hogs, variant->idle_us, (seen - t_done) / 1000,
	       (cpu1 - cpu0) / 1000);
	/*
	 * It polls for poll_idle_us of wall time after its last job, however
	 * loaded its CPU (docs/queues.md): the CPU it burnt meanwhile is that
	 * and a last turn, whatever the hogs made it wait.
	 */
	EXPECT_GE(idle_ns + QP_IDLE_CPU_LATE_MS * VA_NS_PER_MS, cpu1 - cpu0);

	/*
	 * Asleep: no CPU at all, however long the hogs keep running. The
	 * window opens once the thread is seen sleeping: NEED_WAKEUP comes
	 * before its last turn ends, and a host that deschedules the vCPU
	 * meanwhile makes that turn's CPU time as long as it likes (a TCG
	 * guest has no steal time). That turn counts with the polling above.
	 */
	t2 = va_now_ns();
	while (qp_task_state(tid) != 'S' &&
	       va_now_ns() - t2 < QP_SLEEP_LATE_MS * VA_NS_PER_MS)
		usleep(200);
	ASSERT_EQ('S', qp_task_state(tid));
	cpu1 = qp_task_cpu_ns(tid);
	EXPECT_GE(idle_ns + QP_IDLE_CPU_LATE_MS * VA_NS_PER_MS, cpu1 - cpu0);
	t2 = va_now_ns();
	va_sleep_ms(QP_ASLEEP_WINDOW_MS);
	cpu2 = qp_task_cpu_ns(tid);
	TH_LOG("then %lld us of CPU in %lld ms", (cpu2 - cpu1) / 1000,
	       (va_now_ns() - t2) / VA_NS_PER_MS);
	EXPECT_GE(QP_ASLEEP_CPU_MS * VA_NS_PER_MS, cpu2 - cpu1);
	EXPECT_EQ(DRM_VATOM_QUEUE_CTL_NEED_WAKEUP, qp_flags(&v->q));
	EXPECT_EQ(1, vq_completed(&v->q));

	/* The doorbell wakes it, and the job runs. */
	vq_job(vq_next(&v->q), v->streams, 1, &s);
	EXPECT_EQ(1, qp_publish(&v->q, 1));
	ASSERT_TRUE(qp_wait_completed(&v->q, 2, QP_DONE_MS));
	EXPECT_EQ(0, v->q.ring[1].status);
	EXPECT_EQ(6, v->target[0]);
	EXPECT_EQ(0, vq_destroy(self->fd, v->q.id));
}
