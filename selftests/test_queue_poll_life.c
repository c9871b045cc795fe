// SPDX-License-Identifier: GPL-2.0
/*
 * Polling queues under stress: the poller stopped by DESTROY, close, exit
 * and SIGKILL while it runs long jobs, and the device-wide limit.
 * test_queue_poll_hostile.c follows with a hostile writer and SUBMIT
 * alongside.
 *
 * The qp_*, vq_*, va_* and ab_* helpers are queue_common.c's.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <poll.h>
#include <sys/eventfd.h>

#include "queue_common.h"

/* ------------------------------------------------------------------------ */
/* Stopping a busy poller                                                    */
/* ------------------------------------------------------------------------ */

/* Jobs in the busy ring: each is 4096 whole-grid broadcasts, 2^24 operations. */
#define QP_BUSY_JOBS		64
#define QP_BUSY_PACKETS		4096

/* How the busy queue ends. */
enum qp_end {
	QP_END_DESTROY,		/* QUEUE_DESTROY from the test */
	QP_END_CLOSE,		/* the test closes its file and unmaps */
	QP_END_EXIT,		/* a child process owning the file exits */
	QP_END_SIGKILL,		/* a child process owning the file is killed */
};

/**
 * struct qp_busy - a polling queue running the largest jobs
 * @fd: its own file
 * @grid: the grid (ab_grid_create()'s 64 x 64), imported, at slot 0
 * @sh: the stream surface (one job's broadcasts), at slot 1, mapped at @smap
 * @q: the queue
 */
struct qp_busy {
	int fd;
	__u32 grid, sh;
	void *smap;
	size_t slen;
	struct vq q;
};

/*
 * Open a file, import the grid @dmabuf, make a polling queue whose ring is
 * QP_BUSY_JOBS jobs of broadcasts to it, and publish them all.
 * Return: 0 or -errno.
 */
static int qp_busy_start(int dmabuf, struct qp_busy *b)
{
	struct qp_mode m = { .flags = QP_POLL, .idle_us = QP_IDLE_SHORT };
	struct drm_vatom_binding bind[2] = { { .slot = 0 }, { .slot = 1 } };
	struct drm_vatom_noc *p;
	__u32 i;
	int ret;

	memset(b, 0, sizeof(*b));
	b->slen = vt_page_round(QP_BUSY_PACKETS * sizeof(*p));
	b->fd = vt_open();
	if (b->fd < 0)
		return b->fd;
	if (vt_prime_import(b->fd, dmabuf, &b->grid) ||
	    vt_buffer_create(b->fd, b->slen, &b->sh))
		return -errno;
	b->smap = vt_map(b->fd, b->sh, b->slen);
	p = ab_broadcasts(QP_BUSY_PACKETS);
	if (!b->smap || !p)
		return -ENOMEM;
	memcpy(b->smap, p, QP_BUSY_PACKETS * sizeof(*p));
	free(p);
	bind[0].handle = b->grid;
	bind[1].handle = b->sh;
	ret = qp_queue_create(b->fd, QP_BUSY_JOBS, bind, 2, &m, &b->q);
	if (ret)
		return ret;
	for (i = 0; i < QP_BUSY_JOBS; i++) {
		struct drm_vatom_queue_job *j = &b->q.ring[i];

		j->stream_slot = 1;
		j->stream_size = QP_BUSY_PACKETS * sizeof(*p);
		j->status = QP_UNTOUCHED;
	}
	ret = qp_publish(&b->q, QP_BUSY_JOBS);
	return ret < 0 ? ret : 0;
}

static void qp_busy_unmap(struct qp_busy *b)
{
	munmap(b->smap, b->slen);
	munmap(b->q.ring, vt_page_round(QP_BUSY_JOBS * sizeof(*b->q.ring)));
	munmap(b->q.ctl, VT_PAGE_SIZE);
}

/* Wait up to @ms until the grid shows a broadcast. */
static bool qp_grid_started(const __u8 *map, int ms)
{
	long long end = va_now_ns() + ms * VA_NS_PER_MS;

	while (!ab_first_count(map) && va_now_ns() < end)
		usleep(200);
	return ab_first_count(map) != 0;
}

/* waitpid() for up to @ms; then SIGKILL and reap. Return: 0 if it ended. */
static int qp_reap(pid_t pid, int ms, int *status)
{
	long long end = va_now_ns() + ms * VA_NS_PER_MS;
	pid_t r;

	while ((r = waitpid(pid, status, WNOHANG)) == 0 && va_now_ns() < end)
		usleep(1000);
	if (r == pid)
		return 0;
	kill(pid, SIGKILL);
	waitpid(pid, status, 0);
	return -1;
}

/**
 * struct qp_grid - a test's own grid, mapped and exported, for the busy
 * queues of other files (qp_busy_start()) to import
 * @skip: no device, or no polling queues
 * @fd: the test's file
 * @grid: ab_grid_create()'s 64 x 64 grid, @size bytes mapped at @map
 * @dmabuf: its export
 */
struct qp_grid {
	bool skip;
	int fd;
	__u32 grid;
	__u8 *map;
	__u64 size;
	int dmabuf;
};

/* Open @g (or find it must be skipped): 0, or -errno. */
static int qp_grid_open(struct qp_grid *g)
{
	g->dmabuf = -1;
	g->map = NULL;
	g->fd = qp_fixture_open(&g->skip);
	if (g->skip)
		return 0;
	if (g->fd < 0)
		return g->fd;
	if (ab_grid_create(g->fd, &g->grid, &g->size))
		return -errno;
	g->map = vt_map(g->fd, g->grid, g->size);
	if (!g->map)
		return -ENOMEM;
	return vt_prime_export(g->fd, g->grid, &g->dmabuf) ? -errno : 0;
}

static void qp_grid_close(struct qp_grid *g)
{
	if (g->map)
		munmap(g->map, g->size);
	if (g->dmabuf >= 0)
		close(g->dmabuf);
	if (g->fd >= 0)
		close(g->fd);
}

FIXTURE(qpoll_busy) {
	struct qp_grid g;
};

FIXTURE_VARIANT(qpoll_busy) {
	enum qp_end end;
};

FIXTURE_VARIANT_ADD(qpoll_busy, destroy) {
	.end = QP_END_DESTROY,
};

FIXTURE_VARIANT_ADD(qpoll_busy, close) {
	.end = QP_END_CLOSE,
};

FIXTURE_VARIANT_ADD(qpoll_busy, exit) {
	.end = QP_END_EXIT,
};

FIXTURE_VARIANT_ADD(qpoll_busy, sigkill) {
	.end = QP_END_SIGKILL,
};

FIXTURE_SETUP(qpoll_busy)
{
	ASSERT_EQ(0, qp_grid_open(&self->g));
	if (self->g.skip)
		SKIP(return, "no vatom device, or no polling queues");
}

FIXTURE_TEARDOWN(qpoll_busy)
{
	qp_grid_close(&self->g);
}

/*
 * A poller running a ring of the largest jobs (2^24 operations each) is
 * stopped promptly, in the middle of its work, by DESTROY or by the
 * release of its file (close, exit, SIGKILL of its process): what ran is
 * a prefix of whole broadcasts, nothing runs afterwards, the job it was
 * running ends -ECANCELED (part of it ran) or -EINTR (none of it) and the
 * later ones never start; the file's surfaces and poller slot are freed.
 * The grid is this test's, imported by the queue's file, so the test sees
 * it after that file is gone.
 */
TEST_F_TIMEOUT(qpoll_busy, stops_promptly, 120)
{
	struct qp_live base;
	long long t0, stop_ns, count;
	struct qp_busy b;
	__u32 i, full = 0, seen;
	__u64 done;
	int st = 0, ret, up[2], down[2];
	char c = 0;
	pid_t pid = -1;

	if (self->g.skip)
		SKIP(return, "no vatom device, or no polling queues");
	qp_live(&base);
	if (variant->end == QP_END_DESTROY || variant->end == QP_END_CLOSE) {
		ret = qp_busy_start(self->g.dmabuf, &b);
		ASSERT_EQ(0, ret) TH_LOG("busy queue: %s", strerror(-ret));
		ASSERT_TRUE(qp_grid_started(self->g.map, 6 * QP_DONE_MS));
		t0 = va_now_ns();
		if (variant->end == QP_END_DESTROY) {
			EXPECT_EQ(0, vq_destroy(b.fd, b.q.id));
		} else {
			close(b.fd);
			qp_busy_unmap(&b);
		}
		stop_ns = va_now_ns() - t0;
	} else {
		VT_SKIP_ON_SHIM("an exiting process's poller stops where the exit finds it, not between packets");
		ASSERT_EQ(0, pipe(up));
		ASSERT_EQ(0, pipe(down));
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid) {
			close(up[0]);
			close(down[1]);
			ret = qp_busy_start(self->g.dmabuf, &b);
			c = ret ? 'E' : 'R';
			if (write(up[1], &c, 1) != 1 || ret)
				_exit(2);
			/* Exit when told (EOF included), or be killed meanwhile. */
			if (read(down[0], &c, 1) < 0)
				_exit(3);
			_exit(0);
		}
		close(up[1]);
		close(down[0]);
		ASSERT_EQ(1, read(up[0], &c, 1));
		close(up[0]);
		if (c != 'R')
			qp_reap(pid, QP_STOP_MS, &st);
		ASSERT_EQ('R', c) TH_LOG("the child could not start its queue");
		ASSERT_TRUE(qp_grid_started(self->g.map, 6 * QP_DONE_MS));
		t0 = va_now_ns();
		/* SIGKILL, or a byte that tells the child to exit. */
		ret = variant->end == QP_END_SIGKILL ? kill(pid, SIGKILL) :
		      write(down[1], "x", 1) - 1;
		ASSERT_EQ(0, ret);
		ret = qp_reap(pid, 10 * QP_STOP_MS, &st);
		stop_ns = va_now_ns() - t0;
		close(down[1]);
		ASSERT_EQ(0, ret) TH_LOG("not reaped in %d ms", 10 * QP_STOP_MS);
		EXPECT_TRUE(variant->end == QP_END_SIGKILL ?
			    WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL :
			    WIFEXITED(st) && WEXITSTATUS(st) == 0) TH_LOG("status %#x", st);
	}
	TH_LOG("stopped in %lld ms", stop_ns / 1000000);
	EXPECT_GT(QP_STOP_MS * VA_NS_PER_MS, stop_ns);

	/* A prefix of whole broadcasts ran, and nothing runs any more. */
	count = ab_common_count(self->g.map);
	TH_LOG("%lld broadcasts of %u ran", count, QP_BUSY_JOBS * QP_BUSY_PACKETS);
	ASSERT_LE(1, count) TH_LOG("not the same count on every tile");
	EXPECT_GT(QP_BUSY_JOBS * QP_BUSY_PACKETS, count) TH_LOG("every job ran");
	va_sleep_ms(100);
	EXPECT_EQ(count, ab_common_count(self->g.map));

	if (variant->end == QP_END_DESTROY) {
		/* The queue's own view: statuses, the count, the id gone. */
		done = vq_completed(&b.q);
		TH_LOG("%llu of %u jobs completed", (unsigned long long)done, QP_BUSY_JOBS);
		ASSERT_LE(1, done);
		for (i = 0; i + 1 < done; i++) {
			ASSERT_EQ(0, b.q.ring[i].status) TH_LOG("job %u", i);
		}
		full = done - 1;
		st = b.q.ring[done - 1].status;
		EXPECT_TRUE(!st || st == -ECANCELED || st == -EINTR) TH_LOG("status %d", st);
		full += !st;
		for (i = done; i < QP_BUSY_JOBS; i++) {
			ASSERT_EQ(QP_UNTOUCHED, b.q.ring[i].status) TH_LOG("job %u", i);
		}
		/* Whole jobs, and a prefix of the one cut short (none if -EINTR). */
		EXPECT_LE(full * QP_BUSY_PACKETS, count);
		EXPECT_GE((full + (st == -ECANCELED)) * QP_BUSY_PACKETS, count);
		va_sleep_ms(50);
		EXPECT_EQ(done, vq_completed(&b.q));
		VT_EXPECT_ERRNO(ENOENT, vq_kick(b.fd, b.q.id));
		VT_EXPECT_ERRNO(ENOENT, vq_destroy(b.fd, b.q.id));
		/* The surfaces it bound still work. */
		{
			struct drm_vatom_binding bind = { .handle = b.grid };
			struct drm_vatom_submit args;
			struct drm_vatom_noc *p = ab_broadcasts(1);

			ASSERT_NE(NULL, p);
			ab_submit_args(&args, &bind, b.grid, p, 1);
			EXPECT_EQ(0, vt_submit(b.fd, &args));
			seen = ab_common_count(self->g.map);
			EXPECT_EQ(count + 1, seen);
			free(p);
		}
		close(b.fd);
		qp_busy_unmap(&b);
	}
	QP_EXPECT_LIVE(&base);
}

/*
 * Detaching a queue waits for the poller to leave the batch it runs, on
 * any of its queues: between two jobs, not at the batch's end. With the
 * poller busy on a ring of the largest jobs, DESTROY of another queue of
 * the process returns within about one job (the job timeout bounds it),
 * and the busy queue goes on. (It once waited for the whole batch: 64
 * such jobs, minutes under TCG.)
 */
FIXTURE(qpoll_detach) {
	struct qp_grid g;
	unsigned int timeout;	/* the job timeout to restore, or 0 */
};

FIXTURE_SETUP(qpoll_detach)
{
	self->timeout = 0;
	ASSERT_EQ(0, qp_grid_open(&self->g));
	if (self->g.skip)
		SKIP(return, "no vatom device, or no polling queues");
}

FIXTURE_TEARDOWN(qpoll_detach)
{
	if (self->timeout)
		vt_job_timeout_set(self->timeout);
	qp_grid_close(&self->g);
}

TEST_F_TIMEOUT(qpoll_detach, other_queue_between_jobs, 120)
{
	struct qp_mode m = { .flags = QP_POLL, .idle_us = QP_IDLE_SHORT };
	__u64 before, after;
	struct qp_busy b;
	struct vq other;
	long long t0, ms;
	int ret;

	if (self->g.skip)
		SKIP(return, "no vatom device, or no polling queues");
	/* A busy job must not time out: under TCG on a loaded host it takes seconds. */
	ret = va_job_timeout_swap(600000, &self->timeout);
	if (ret == -EACCES || ret == -EPERM)
		SKIP(return, "cannot set job_timeout_ms (not root)");
	ASSERT_EQ(0, ret);
	/* The other queue first: the busy one's poller is the process's. */
	ASSERT_EQ(0, qp_queue_create(self->g.fd, 1, NULL, 0, &m, &other));
	ret = qp_busy_start(self->g.dmabuf, &b);
	ASSERT_EQ(0, ret) TH_LOG("busy queue: %s", strerror(-ret));
	ASSERT_TRUE(qp_grid_started(self->g.map, 6 * QP_DONE_MS));
	before = vq_completed(&b.q);
	t0 = va_now_ns();
	EXPECT_EQ(0, vq_destroy(self->g.fd, other.id));
	ms = (va_now_ns() - t0) / VA_NS_PER_MS;
	after = vq_completed(&b.q);
	TH_LOG("DESTROY of another queue: %lld ms, %llu busy jobs done meanwhile",
	       ms, (unsigned long long)(after - before));
	/* The job running, and at most the next one it began meanwhile. */
	EXPECT_GE(before + 2, after);
	EXPECT_GT(QP_BUSY_JOBS, after);
	/* The busy queue goes on. */
	t0 = va_now_ns();
	while (vq_completed(&b.q) == after && va_now_ns() - t0 < 6 * QP_DONE_MS * VA_NS_PER_MS)
		usleep(1000);
	EXPECT_LT(after, vq_completed(&b.q));
	munmap(other.ring, VT_PAGE_SIZE);
	munmap(other.ctl, VT_PAGE_SIZE);
	close(b.fd);
	qp_busy_unmap(&b);
}

/*
 * A poller polls for poll_idle_us after its last job, then sleeps: a
 * queue's first job, right after its creation, does not add a second
 * idle time (issue 36: with 1 s, it slept 2 s after the job).
 */
TEST_F_TIMEOUT(qpoll_detach, idle_once_after_first_job, 60)
{
	struct qp_mode m = { .flags = QP_POLL, .idle_us = QP_IDLE_MAX };
	const long long idle_ns = QP_IDLE_MAX * 1000ll;
	long long t_done, seen = -1;
	struct qp_env v;
	struct vt_stream s;

	if (self->g.skip)
		SKIP(return, "no vatom device, or no polling queues");
	ASSERT_EQ(0, qp_env_init(&v, self->g.fd, 8, 0, &m));
	vt_stream_init(&s);
	vq_add16(&s, 3, false);
	vq_job(vq_next(&v.q), v.streams, 0, &s);
	ASSERT_LE(0, qp_publish(&v.q, 1));
	ASSERT_TRUE(qp_wait_completed(&v.q, 1, QP_DONE_MS));
	t_done = va_now_ns();
	EXPECT_EQ(0, v.q.ring[0].status);
	while (va_now_ns() - t_done < 3 * idle_ns) {
		if (qp_flags(&v.q) & DRM_VATOM_QUEUE_CTL_NEED_WAKEUP) {
			seen = va_now_ns();
			break;
		}
		usleep(1000);
	}
	ASSERT_LE(0, seen) TH_LOG("awake 3 s after its only job");
	TH_LOG("asleep %lld ms after the job", (seen - t_done) / VA_NS_PER_MS);
	EXPECT_LE(idle_ns - 50 * VA_NS_PER_MS, seen - t_done);
	EXPECT_GE(idle_ns + QP_SLEEP_LATE_MS * VA_NS_PER_MS, seen - t_done);
	qp_env_unmap(&v);
}

/* ------------------------------------------------------------------------ */
/* The device's limit                                                        */
/* ------------------------------------------------------------------------ */

/* Create a polling queue with no bindings and no mappings: its id or -errno. */
static int qp_poller(int fd)
{
	struct drm_vatom_queue_create a = {
		.entries = 1, .flags = QP_POLL, .poll_idle_us = QP_IDLE_SHORT,
	};

	return vq_create_args(fd, &a) ? -errno : (int)a.queue_id;
}

/*
 * MAX_POLL_QUEUES polling queues per device, whatever the files: -EBUSY
 * past it (nothing created or charged), kick-mode queues unaffected;
 * destroying one, or closing a file with some, frees their slots.
 */
TEST(queue_poll_limit)
{
	__u32 max, i, on2 = 0;
	int fd1, fd2, fd3, id, first1 = 0;
	struct drm_vatom_queue_create kick = { .entries = 1 };
	struct qp_live base, now;
	__u64 charged;

	VT_OPEN(fd1);
	if (!qp_supported(fd1))
		SKIP(close(fd1); return, "no polling queues or signals");
	VT_OPEN(fd2);
	VT_OPEN(fd3);
	max = qp_param(fd1, DRM_VATOM_PARAM_MAX_POLL_QUEUES);
	ASSERT_GE(64, max);
	qp_live(&base);
	if (base.poll_queues >= 0)
		ASSERT_EQ(0, base.poll_queues) TH_LOG("polling queues left by someone else");
	/* Half on one file, the rest on another. */
	for (i = 0; i < max; i++) {
		id = qp_poller(i % 2 ? fd2 : fd1);
		ASSERT_LT(0, id) TH_LOG("poller %u of %u: %s", i + 1, max, strerror(-id));
		if (i % 2)
			on2++;
		else if (!first1)
			first1 = id;
	}
	qp_live(&now);
	if (base.poll_queues >= 0)
		EXPECT_EQ(max, now.poll_queues);
	charged = vq_charged(fd3);
	EXPECT_EQ(-EBUSY, qp_poller(fd1));
	EXPECT_EQ(-EBUSY, qp_poller(fd2));
	EXPECT_EQ(-EBUSY, qp_poller(fd3));
	EXPECT_EQ(charged, vq_charged(fd3));
	qp_live(&now);
	if (base.surfaces >= 0)
		EXPECT_EQ(base.surfaces + 2 * max, now.surfaces);
	/* Kick mode is not limited by it. */
	EXPECT_EQ(0, vq_create_args(fd3, &kick));
	EXPECT_EQ(1, kick.queue_id);

	if (max) {
		/* One destroyed: one slot, for any file. */
		EXPECT_EQ(0, vq_destroy(fd1, first1));
		EXPECT_LT(0, qp_poller(fd3));
		EXPECT_EQ(-EBUSY, qp_poller(fd1));
	}
	/* A file closed: all of its slots. */
	close(fd2);
	for (i = 0; i < on2; i++) {
		EXPECT_LT(0, qp_poller(fd3)) TH_LOG("slot %u of %u freed by close", i + 1, on2);
	}
	EXPECT_EQ(-EBUSY, qp_poller(fd3));
	close(fd3);
	close(fd1);
	QP_EXPECT_LIVE(&base);
}
