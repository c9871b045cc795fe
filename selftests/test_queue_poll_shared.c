// SPDX-License-Identifier: GPL-2.0
/*
 * One poller per process and device (issue 24): every polling queue of a
 * process, in any of its files, is served by one thread, which ends with
 * the last queue; another process gets its own; a KICK consumes its
 * queue itself when the poller is not at it, and the poller then steps
 * aside (KICK_TO_WAIT): the queue_poll_pair tests. A queue can pin the
 * process's poller to a CPU: the queue_poll_cpu tests.
 *
 * #included by vatom_test.c; the qp_* helpers are queue_common.c's.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "queue_common.h"

/* Queues of the shared-poller test: two on one file, one on another. */
#define QP_SHARED_QUEUES	3
#define QP_SHARED_JOBS		8
/* The long batch that keeps the poller busy: 32 jobs of 32 whole-grid broadcasts. */
#define QP_LONG_JOBS		32
#define QP_LONG_PACKETS		32

/* Jobs 0..@n-1 of @v (1-packet SIMD16 adds of @inc with results). */
static void qp_add_jobs(struct qp_env *v, __u32 n, __u32 inc)
{
	struct vt_stream s;
	__u32 i;

	for (i = 0; i < n; i++) {
		vt_stream_init(&s);
		vq_add16(&s, inc, true);
		vq_job(&v->q.ring[i], v->streams, i, &s);
		v->q.ring[i].status = QP_UNTOUCHED;
	}
}

/*
 * @n jobs adding @inc to a zeroed target completed: status 0, each job's
 * results the old values (lane k: i * inc * (k + 1)) and the exact total.
 */
static void qp_expect_adds(struct __test_metadata *_metadata,
			   const struct qp_env *v, __u32 n, __u32 inc)
{
	__u32 i, k;

	for (i = 0; i < n; i++) {
		const __u32 *res = (const __u32 *)((const char *)v->results +
						   i * VQ_RES_STRIDE);

		EXPECT_EQ(0, v->q.ring[i].status) TH_LOG("job %u", i);
		for (k = 0; k < 16; k++) {
			EXPECT_EQ(i * inc * (k + 1), res[k]) TH_LOG("job %u lane %u", i, k);
		}
	}
	for (k = 0; k < 16; k++) {
		EXPECT_EQ(n * inc * (k + 1), v->target[k]) TH_LOG("lane %u", k);
	}
}

/* Wait up to @ms for the poller of process @pid to be gone. */
static bool qp_poller_gone(pid_t pid, int ms)
{
	long long end = va_now_ns() + ms * VA_NS_PER_MS;

	while (qp_poller_tid(pid) != -1) {
		if (va_now_ns() > end)
			return false;
		usleep(1000);
	}
	return true;
}

/*
 * Three polling queues of one process, on two files: one thread named
 * vatom-poll/PID serves them all (two make qp_poller_tid() -2; debugfs
 * vatom_limits counts 3 polling queues and 1 poller), each
 * queue's jobs complete unasked with exact values, destroying a queue
 * leaves the thread to the others, and the last queue's DESTROY ends it.
 */
TEST(queue_poll_shared)
{
	struct qp_mode m = { .flags = QP_POLL, .idle_us = QP_IDLE_MAX };
	struct qp_env v[QP_SHARED_QUEUES];
	struct qp_live base, now;
	int fd[2], ret;
	pid_t tid;
	__u32 i;

	VT_OPEN(fd[0]);
	if (!qp_supported(fd[0]) ||
	    qp_param(fd[0], DRM_VATOM_PARAM_MAX_POLL_QUEUES) < QP_SHARED_QUEUES)
		SKIP(close(fd[0]); return, "fewer than 3 polling queues");
	VT_OPEN(fd[1]);
	ASSERT_EQ(-1, qp_poller_tid(getpid()));
	qp_live(&base);
	for (i = 0; i < QP_SHARED_QUEUES; i++) {
		ASSERT_EQ(0, qp_env_init(&v[i], fd[i / 2], QP_SHARED_JOBS, 0, &m));
	}
	tid = qp_poller_tid(getpid());
	ASSERT_LT(0, tid) TH_LOG("not one thread named vatom-poll/%d: %d",
				 getpid(), tid);
	qp_live(&now);
	if (base.poll_queues >= 0)
		EXPECT_EQ(base.poll_queues + QP_SHARED_QUEUES, now.poll_queues);
	if (base.pollers >= 0)
		EXPECT_EQ(base.pollers + 1, now.pollers);

	/* Every queue served, none asking for a KICK (1 s idle time). */
	for (i = 0; i < QP_SHARED_QUEUES; i++)
		qp_add_jobs(&v[i], QP_SHARED_JOBS, i + 1);
	for (i = 0; i < QP_SHARED_QUEUES; i++) {
		ret = qp_publish(&v[i].q, QP_SHARED_JOBS);
		EXPECT_EQ(0, ret) TH_LOG("queue %u asked for a KICK: %d", i, ret);
	}
	for (i = 0; i < QP_SHARED_QUEUES; i++) {
		ASSERT_TRUE(qp_wait_completed(&v[i].q, QP_SHARED_JOBS, QP_DONE_MS))
			TH_LOG("queue %u: %llu", i, (unsigned long long)vq_completed(&v[i].q));
		qp_expect_adds(_metadata, &v[i], QP_SHARED_JOBS, i + 1);
	}

	/* The first gone, the same thread serves the third. */
	EXPECT_EQ(0, vq_destroy(fd[0], v[0].q.id));
	EXPECT_EQ(tid, qp_poller_tid(getpid()));
	qp_add_jobs(&v[2], QP_SHARED_JOBS, 3);	/* positions 8..15 */
	EXPECT_EQ(0, qp_publish(&v[2].q, QP_SHARED_JOBS));
	EXPECT_TRUE(qp_wait_completed(&v[2].q, 2 * QP_SHARED_JOBS, QP_DONE_MS));
	EXPECT_EQ(2 * QP_SHARED_JOBS * 3, v[2].target[0]);

	/* The third's file closed (its queue with it): the second keeps it. */
	qp_env_unmap(&v[2]);
	close(fd[1]);
	EXPECT_EQ(tid, qp_poller_tid(getpid()));
	/* The last queue: the thread ends. */
	EXPECT_EQ(0, vq_destroy(fd[0], v[1].q.id));
	EXPECT_TRUE(qp_poller_gone(getpid(), QP_STOP_MS))
		TH_LOG("vatom-poll/%d still there %d ms after its last queue",
		       getpid(), QP_STOP_MS);
	if (base.pollers >= 0)
		EXPECT_EQ(base.pollers, va_stat_settle(qp_limits_path, "pollers",
							base.pollers));
	qp_env_unmap(&v[0]);
	qp_env_unmap(&v[1]);
	close(fd[0]);
	QP_EXPECT_LIVE(&base);
}

/*
 * Another process gets its own poller, named by its pid, beside ours; its
 * exit ends it and leaves ours.
 */
TEST(queue_poll_per_process)
{
	struct qp_mode m = { .flags = QP_POLL, .idle_us = QP_IDLE_MAX };
	int fd, pipefd[2], status;
	struct qp_env v;
	pid_t tid, child;
	char c;

	VT_OPEN(fd);
	if (!qp_supported(fd) || qp_param(fd, DRM_VATOM_PARAM_MAX_POLL_QUEUES) < 2)
		SKIP(close(fd); return, "fewer than 2 polling queues");
	ASSERT_EQ(0, qp_env_init(&v, fd, 8, 0, &m));
	tid = qp_poller_tid(getpid());
	ASSERT_LT(0, tid);
	ASSERT_EQ(0, pipe(pipefd));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		struct qp_env cv;
		int cfd = vt_open();

		close(pipefd[0]);
		if (cfd < 0 || qp_env_init(&cv, cfd, 8, 0, &m))
			_exit(1);
		c = 1;
		if (write(pipefd[1], &c, 1) != 1)
			_exit(2);
		/* Held until the parent closes its end. */
		pause();
		_exit(0);
	}
	close(pipefd[1]);
	ASSERT_EQ(1, read(pipefd[0], &c, 1));
	EXPECT_LT(0, qp_poller_tid(child)) TH_LOG("no one vatom-poll/%d", child);
	EXPECT_NE(tid, qp_poller_tid(child));
	EXPECT_EQ(tid, qp_poller_tid(getpid()));
	kill(child, SIGKILL);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	close(pipefd[0]);
	EXPECT_TRUE(qp_poller_gone(child, QP_STOP_MS));
	EXPECT_EQ(tid, qp_poller_tid(getpid()));
	close(fd);
}

/*
 * Two polling queues of one process on one file, so one poller: @busy
 * (64 entries) on a tile grid, whose whole-grid broadcasts keep the poller
 * at one batch for a while, and @v (8 entries) beside it.
 */
FIXTURE(queue_poll_pair) {
	int fd;
	bool skip;
	__u32 grid;
	__u64 gsize;
	__u8 *gmap;
	struct qp_env busy, v;
};

FIXTURE_SETUP(queue_poll_pair)
{
	struct qp_mode m = { .flags = QP_POLL, .idle_us = QP_IDLE_MAX };

	self->gmap = NULL;
	self->fd = qp_fixture_open(&self->skip);
	if (self->skip)
		SKIP(return, "no vatom device, or no polling queues");
	ASSERT_LE(0, self->fd);
	if (qp_param(self->fd, DRM_VATOM_PARAM_MAX_POLL_QUEUES) < 2) {
		self->skip = true;
		SKIP(return, "fewer than 2 polling queues");
	}
	ASSERT_EQ(0, ab_grid_create(self->fd, &self->grid, &self->gsize));
	self->gmap = vt_map(self->fd, self->grid, self->gsize);
	ASSERT_NE(NULL, self->gmap);
	ASSERT_EQ(0, qp_env_init(&self->busy, self->fd, 64, self->grid, &m));
	ASSERT_EQ(0, qp_env_init(&self->v, self->fd, 8, 0, &m));
}

FIXTURE_TEARDOWN(queue_poll_pair)
{
	if (self->gmap)
		munmap(self->gmap, self->gsize);
	if (self->fd >= 0)
		close(self->fd);
}

/*
 * A KICK while the poller is awake consumes its queue as in kick mode:
 * while the poller is at another queue's long batch, it returns with its
 * own jobs complete (before, it only woke the poller); while the poller
 * is at its own queue, it returns once that batch and the rest are done.
 * A KICK to a sleeping poller only wakes it (queue_poll_need_wakeup).
 */
TEST_F(queue_poll_pair, kick_consumes)
{
	struct qp_env *busy = &self->busy, *v = &self->v;
	__u32 n = QP_LONG_JOBS;
	int fd = self->fd;
	__u64 done;

	if (self->skip)
		SKIP(return, "no vatom device, or fewer than 2 polling queues");

	/* The poller in a batch of 32 long jobs... */
	qp_broadcast_jobs(busy, 0, n, QP_LONG_PACKETS, 0);
	EXPECT_EQ(0, qp_publish(&busy->q, n));
	ASSERT_TRUE(qp_wait_completed(&busy->q, 1, QP_DONE_MS));
	/* ...a KICK of the other queue runs its jobs before it returns. */
	qp_add_jobs(v, 8, 5);
	EXPECT_EQ(0, qp_publish(&v->q, 8));	/* the poller is awake */
	ASSERT_EQ(0, vq_kick(fd, v->q.id));
	EXPECT_EQ(8, vq_completed(&v->q));
	done = vq_completed(&busy->q);
	EXPECT_GT(n, done) TH_LOG("the long batch ended first: inconclusive");
	qp_expect_adds(_metadata, v, 8, 5);

	ASSERT_TRUE(qp_wait_completed(&busy->q, n, 6 * QP_DONE_MS));
	EXPECT_EQ(n * QP_LONG_PACKETS, ab_common_count(self->gmap));

	/*
	 * A KICK of the queue the poller is at waits for its batch, then
	 * consumes the rest: when it returns, every job published is done.
	 */
	qp_broadcast_jobs(busy, n, n, QP_LONG_PACKETS, 0);
	EXPECT_EQ(0, qp_publish(&busy->q, n));
	ASSERT_TRUE(qp_wait_completed(&busy->q, n + 1, QP_DONE_MS));
	ASSERT_EQ(0, vq_kick(fd, busy->q.id));
	EXPECT_EQ(2 * n, vq_completed(&busy->q));
	EXPECT_EQ(2 * n * QP_LONG_PACKETS, ab_common_count(self->gmap));
	EXPECT_EQ(0, vq_destroy(fd, v->q.id));
	EXPECT_EQ(0, vq_destroy(fd, busy->q.id));
}

/* Rounds of the step-aside test: each a long batch and a KICK. */
#define QP_ASIDE_ROUNDS		16
/* Jobs of a round's batch: 3, doubled after a round the batch was too short for. */
#define QP_ASIDE_JOBS		3
#define QP_ASIDE_JOBS_MAX	48
/* KICKs a round adds until it sees the flag: 16 us doubled 8 times is 4 ms. */
#define QP_ASIDE_KICKS		16
/* The longest step aside (VATOM_POLL_ASIDE_MAX_NS), with room for TCG. */
#define QP_ASIDE_MAX_MS		4
#define QP_ASIDE_SLACK_MS	200

/* Count the queues of the pair that show KICK_TO_WAIT now. */
static void qp_aside_look(const struct qp_env *busy, const struct qp_env *v,
			  unsigned int *seen_busy, unsigned int *seen_v)
{
	*seen_v += !!(qp_flags(&v->q) & DRM_VATOM_QUEUE_CTL_KICK_TO_WAIT);
	*seen_busy += !!(qp_flags(&busy->q) & DRM_VATOM_QUEUE_CTL_KICK_TO_WAIT);
}

/*
 * When KICKs do the jobs of a process's queues, its poller steps aside and
 * says so (KICK_TO_WAIT, on each of its queues) rather than compete with
 * the kickers: each round keeps the poller at a batch of long jobs while
 * a KICK of another queue consumes that queue's job; when the batch ends
 * the flag must show, on both queues. A job published without a KICK
 * afterwards still completes, by the poller, once it is back (within the
 * 4 ms the UAPI promises, plus slack), and the flag is then clear. Every
 * job's effect is exact.
 *
 * The KICK does the job only if the batch outlasts it: on a loaded host
 * this thread can lose its CPU past the batch's end, the poller then takes
 * the job and has no reason to step aside. The next batch is then twice
 * as long (at_batch counts the rounds whose KICK came during the batch).
 * The first step aside is 16 us, too short for this thread to see when it
 * shares the poller's CPU on a slow kernel (a debug boot missed all 16):
 * it watches the flags while the batch ends, and until it sees them a
 * round kicks v again, as a kicking producer would, and each step aside
 * with a KICK doing work doubles the next.
 */
TEST_F(queue_poll_pair, steps_aside)
{
	struct qp_env *busy = &self->busy, *v = &self->v;
	unsigned int seen_v = 0, seen_busy = 0, vjobs = 0, kicks, r;
	unsigned int jobs = QP_ASIDE_JOBS, at_batch = 0;
	__u64 start, last, busy_jobs = 0;
	__u32 k;
	int fd = self->fd;
	long long end;

	if (self->skip)
		SKIP(return, "no vatom device, or fewer than 2 polling queues");
	qp_add_jobs(v, 8, 1);	/* descriptors stay; published in turn */

	for (r = 0; r < QP_ASIDE_ROUNDS && !(seen_v && seen_busy); r++) {
		start = vq_completed(&busy->q);
		qp_broadcast_jobs(busy, start, jobs, QP_LONG_PACKETS, 0);
		EXPECT_EQ(0, qp_publish(&busy->q, jobs));
		last = start + jobs;
		busy_jobs += jobs;
		ASSERT_TRUE(qp_wait_completed(&busy->q, start + 1, QP_DONE_MS));
		/* The poller at the batch: this KICK does v's job itself. */
		EXPECT_EQ(0, qp_publish(&v->q, 1));
		ASSERT_EQ(0, vq_kick(fd, v->q.id));
		EXPECT_EQ(++vjobs, vq_completed(&v->q));
		EXPECT_EQ(0, v->q.ring[(vjobs - 1) % 8].status);
		if (vq_completed(&busy->q) < last)
			at_batch++;
		else if (jobs * 2 <= QP_ASIDE_JOBS_MAX)
			jobs *= 2;
		/* The batch over, the poller steps aside for 16 us or more. */
		end = va_now_ns() + 6 * QP_DONE_MS * VA_NS_PER_MS;
		while (vq_completed(&busy->q) < last) {
			qp_aside_look(busy, v, &seen_busy, &seen_v);
			ASSERT_LT(va_now_ns(), end);
		}
		end = va_now_ns() + (QP_ASIDE_MAX_MS + QP_ASIDE_SLACK_MS) *
				    VA_NS_PER_MS;
		kicks = 0;
		do {
			qp_aside_look(busy, v, &seen_busy, &seen_v);
			if ((seen_v && seen_busy) || kicks++ == QP_ASIDE_KICKS)
				continue;
			EXPECT_EQ(0, qp_publish(&v->q, 1));
			ASSERT_EQ(0, vq_kick(fd, v->q.id));
			EXPECT_EQ(++vjobs, vq_completed(&v->q));
			EXPECT_EQ(0, v->q.ring[(vjobs - 1) % 8].status);
		} while (!(seen_v && seen_busy) && va_now_ns() < end);
	}
	EXPECT_LT(0, seen_v)
		TH_LOG("KICK_TO_WAIT never set in %u rounds (%u with the KICK during the batch)",
		       r, at_batch);
	EXPECT_LT(0, seen_busy);

	/* Not kicked: the poller comes back for it, and says so. */
	end = va_now_ns();
	EXPECT_EQ(0, qp_publish(&v->q, 1));
	EXPECT_TRUE(qp_wait_completed(&v->q, vjobs + 1, QP_ASIDE_MAX_MS +
					QP_ASIDE_SLACK_MS))
		TH_LOG("a job not kicked waited %lld ms",
		       (va_now_ns() - end) / VA_NS_PER_MS);
	EXPECT_EQ(0, qp_flags(&v->q) & DRM_VATOM_QUEUE_CTL_KICK_TO_WAIT);
	for (k = 0; k < 16; k++) {
		EXPECT_EQ((vjobs + 1) * (k + 1), v->target[k]) TH_LOG("lane %u", k);
	}
	EXPECT_EQ(busy_jobs * QP_LONG_PACKETS, ab_common_count(self->gmap));
	EXPECT_EQ(0, vq_destroy(fd, v->q.id));
	EXPECT_EQ(0, vq_destroy(fd, busy->q.id));
}

/* ------------------------------------------------------------------------ */
/* The poller's CPU (DRM_VATOM_QUEUE_CREATE_POLL_CPU, UAPI 9)                */
/* ------------------------------------------------------------------------ */

/* A CPU a variant names: none, the last the test may run on, another. */
enum qp_cpu { QP_CPU_NONE, QP_CPU_LAST, QP_CPU_OTHER };

FIXTURE(queue_poll_cpu) {
	int fd;
	bool skip;
	int cpu[3];	/* by enum qp_cpu; -1 when there is none */
	int ncpus;	/* CPUs the test may run on */
};

/*
 * @first, @second: the CPUs two polling queues of the process name;
 * @err1, @err2: their creation's errno; @self_other: the test first
 * keeps itself to QP_CPU_OTHER, so QP_CPU_LAST is not its to name.
 */
FIXTURE_VARIANT(queue_poll_cpu) {
	enum qp_cpu first, second;
	int err1, err2;
	bool self_other;
};

/* The first queue pins the poller; a second may name that CPU or none. */
FIXTURE_VARIANT_ADD(queue_poll_cpu, pin_then_none) {
	QP_CPU_LAST, QP_CPU_NONE, 0, 0, false };
FIXTURE_VARIANT_ADD(queue_poll_cpu, pin_then_same) {
	QP_CPU_LAST, QP_CPU_LAST, 0, 0, false };
FIXTURE_VARIANT_ADD(queue_poll_cpu, pin_then_other) {
	QP_CPU_LAST, QP_CPU_OTHER, 0, EINVAL, false };
/* A poller that runs anywhere is pinned by the first queue naming a CPU. */
FIXTURE_VARIANT_ADD(queue_poll_cpu, none_then_pin) {
	QP_CPU_NONE, QP_CPU_LAST, 0, 0, false };
/* Only a CPU the caller may run on itself. */
FIXTURE_VARIANT_ADD(queue_poll_cpu, outside_own_affinity) {
	QP_CPU_LAST, QP_CPU_NONE, EINVAL, 0, true };

FIXTURE_SETUP(queue_poll_cpu)
{
	cpu_set_t set;
	int c;

	self->fd = qp_fixture_open(&self->skip);
	if (self->skip)
		SKIP(return, "no polling queues");
	if (!(vt_caps(self->fd) & DRM_VATOM_CAP_QUEUE_POLL_CPU)) {
		self->skip = true;
		SKIP(return, "no DRM_VATOM_CAP_QUEUE_POLL_CPU");
	}
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(set), &set));
	self->cpu[QP_CPU_NONE] = -1;
	self->cpu[QP_CPU_LAST] = -1;
	self->cpu[QP_CPU_OTHER] = -1;
	self->ncpus = CPU_COUNT(&set);
	for (c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, &set))
			continue;
		if (self->cpu[QP_CPU_OTHER] < 0)
			self->cpu[QP_CPU_OTHER] = c;
		self->cpu[QP_CPU_LAST] = c;
	}
	if (self->ncpus < 2)
		self->cpu[QP_CPU_OTHER] = -1;
	if ((variant->second == QP_CPU_OTHER || variant->self_other) &&
	    self->cpu[QP_CPU_OTHER] < 0) {
		self->skip = true;
		SKIP(return, "one CPU: no other to name");
	}
}

FIXTURE_TEARDOWN(queue_poll_cpu)
{
	if (self->fd >= 0)
		close(self->fd);
}

/*
 * Whether task @tid may run on CPU @cpu only (@cpu -1: on more than one
 * CPU, when there are several), within @ms: a new poller pins itself
 * again once it runs.
 */
static bool qp_task_on(pid_t tid, int cpu, int ncpus, int ms)
{
	long long end = va_now_ns() + ms * VA_NS_PER_MS;
	cpu_set_t set;

	for (;;) {
		if (sched_getaffinity(tid, sizeof(set), &set))
			return false;
		if (cpu >= 0 ? CPU_COUNT(&set) == 1 && CPU_ISSET(cpu, &set) :
		    ncpus < 2 || CPU_COUNT(&set) > 1)
			return true;
		if (va_now_ns() > end)
			return false;
		usleep(1000);
	}
}

/*
 * Two polling queues name the variant's CPUs, with the variant's
 * outcome; the process's one poller runs where the first CPU named put
 * it (on every CPU until then), and serves both queues there: jobs with
 * exact values, none asking for a KICK. A creation that fails leaves the
 * poller as it was (or none).
 */
TEST_F(queue_poll_cpu, pinned)
{
	struct qp_mode m = { .flags = QP_POLL, .idle_us = QP_IDLE_MAX };
	int want = -1, ret, n = 0;
	struct qp_env v[2];
	enum qp_cpu c[2];
	cpu_set_t set;
	pid_t tid;
	__u32 i;

	if (self->skip)
		return;	/* setup skipped: this harness runs the test anyway */
	if (variant->self_other) {
		CPU_ZERO(&set);
		CPU_SET(self->cpu[QP_CPU_OTHER], &set);
		ASSERT_EQ(0, sched_setaffinity(0, sizeof(set), &set));
	}
	c[0] = variant->first;
	c[1] = variant->second;
	for (i = 0; i < 2; i++) {
		m.flags = QP_POLL | (c[i] != QP_CPU_NONE ? QP_POLL_CPU : 0);
		m.cpu = c[i] != QP_CPU_NONE ? self->cpu[c[i]] : 0;
		ret = qp_env_init(&v[n], self->fd, QP_SHARED_JOBS, 0, &m);
		EXPECT_EQ(-(i ? variant->err2 : variant->err1), ret)
			TH_LOG("queue %u naming CPU %d", i, self->cpu[c[i]]);
		if (ret) {
			/* Nothing pinned, nor a poller started, by a refusal. */
			tid = qp_poller_tid(getpid());
			if (!n) {
				EXPECT_EQ(-1, tid);
			} else {
				EXPECT_TRUE(qp_task_on(tid, want, self->ncpus, 0));
			}
			continue;
		}
		if (want < 0 && c[i] != QP_CPU_NONE)
			want = self->cpu[c[i]];
		tid = qp_poller_tid(getpid());
		ASSERT_LT(0, tid);
		EXPECT_TRUE(qp_task_on(tid, want, self->ncpus, QP_DONE_MS))
			TH_LOG("vatom-poll/%d not on CPU %d only", getpid(), want);
		n++;
	}
	for (i = 0; i < (__u32)n; i++) {
		qp_add_jobs(&v[i], QP_SHARED_JOBS, i + 1);
		EXPECT_EQ(0, qp_publish(&v[i].q, QP_SHARED_JOBS));
	}
	for (i = 0; i < (__u32)n; i++) {
		ASSERT_TRUE(qp_wait_completed(&v[i].q, QP_SHARED_JOBS, QP_DONE_MS));
		qp_expect_adds(_metadata, &v[i], QP_SHARED_JOBS, i + 1);
	}
	if (n)
		EXPECT_TRUE(qp_task_on(qp_poller_tid(getpid()), want, self->ncpus, 0));
	for (i = 0; i < (__u32)n; i++) {
		EXPECT_EQ(0, vq_destroy(self->fd, v[i].q.id));
		qp_env_unmap(&v[i]);
	}
}
