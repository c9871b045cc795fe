// SPDX-License-Identifier: GPL-2.0
/*
 * Polling queues under stress: the poller stopped by DESTROY, close, exit
 * and SIGKILL while it runs long jobs, the device-wide limit, a hostile
 * writer rewriting the ring, streams and tail, and SUBMIT alongside with
 * exact totals.
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

/* ------------------------------------------------------------------------ */
/* A hostile writer, and SUBMIT alongside                                    */
/* ------------------------------------------------------------------------ */

FIXTURE(qpoll_heavy) {
	bool skip;
	int fd;
};

/* How long the pollers poll: always awake, or asleep at every pause. */
FIXTURE_VARIANT(qpoll_heavy) {
	__u32 idle_us;
};

FIXTURE_VARIANT_ADD(qpoll_heavy, awake) {
	.idle_us = QP_IDLE_MAX,
};

FIXTURE_VARIANT_ADD(qpoll_heavy, sleepy) {
	.idle_us = 1,
};

FIXTURE_SETUP(qpoll_heavy)
{
	self->fd = qp_fixture_open(&self->skip);
	if (self->skip)
		SKIP(return, "no vatom device, or no polling queues");
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(qpoll_heavy)
{
	if (self->fd >= 0)
		close(self->fd);
}

/**
 * struct qp_hostile - what the hostile thread rewrites
 * @v: the queue and its surfaces
 * @sync: the queue's syncobj (signalled and reset at random too)
 * @efd: the queue's eventfd (drained at random)
 * @stop: set to stop
 * @seed: rand_r() state
 * @writes: rewrites made
 */
struct qp_hostile {
	struct qp_env *v;
	__u32 sync;
	int efd;
	int stop;
	unsigned int seed;
	unsigned long writes;
};

static void *qp_hostile_thread(void *arg)
{
	struct qp_hostile *h = arg;
	struct qp_env *v = h->v;
	__u64 *ring = (__u64 *)v->q.ring, *words = v->streams, point;
	struct drm_syncobj_timeline_array a;
	__u32 words_n = v->q.entries * VQ_STREAM_STRIDE / 8, head;
	unsigned int r;

	while (!__atomic_load_n(&h->stop, __ATOMIC_RELAXED)) {
		r = rand_r(&h->seed);
		/* The kernel's head: one position per job completed. */
		head = vq_completed(&v->q);
		switch (r % 6) {
		case 0:	/* any word of the ring */
			ring[r / 8 % (v->q.entries * 8)] = ((__u64)rand_r(&h->seed) << 32) |
							   rand_r(&h->seed);
			break;
		case 1:	/* a small value in a descriptor word */
			ring[r / 8 % (v->q.entries * 8)] = rand_r(&h->seed) % 1024;
			break;
		case 2:	/* any word of the streams */
			words[r / 8 % words_n] = ((__u64)rand_r(&h->seed) << 32) |
						 rand_r(&h->seed);
			break;
		case 3:	/* the tail, within or past the ring */
			__atomic_store_n(&v->q.ctl->tail,
					 head + rand_r(&h->seed) % (v->q.entries + 2),
					 __ATOMIC_RELEASE);
			break;
		case 4:	/* the words only the kernel writes */
			v->q.ctl->head = rand_r(&h->seed);
			v->q.ctl->flags = rand_r(&h->seed);
			break;
		default:	/* the signals: a foreign point, a reset, a read */
			memset(&a, 0, sizeof(a));
			point = rand_r(&h->seed) % 100000;
			a.handles = vt_u64_ptr(&h->sync);
			a.points = vt_u64_ptr(&point);
			a.count_handles = 1;
			if (r & 0x100)
				ioctl(v->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, &a);
			else if (r & 0x200)
				ioctl(v->fd, DRM_IOCTL_SYNCOBJ_RESET, &a);
			else
				qp_eventfd_take(h->efd);
			break;
		}
		h->writes++;
	}
	return NULL;
}

/*
 * A thread rewrites the ring, the streams, the tail and the page, and
 * plays with the queue's syncobj and eventfd, while the poller consumes
 * and the main thread fills good jobs and kicks (0, or -EINVAL for a tail
 * too far). A surface of the same file the queue does not bind and one of
 * another file are unchanged, the kernel logs nothing, and once the
 * writer stops the queue runs a clean job normally.
 */
TEST_F_TIMEOUT(qpoll_heavy, hostile_writer, 120)
{
	const __u32 entries = 16;
	struct qp_hostile h = { .seed = 4242 + variant->idle_us };
	struct qp_mode m = { .flags = QP_POLL | QP_EVENTFD, .idle_us = variant->idle_us };
	__u32 ch, oh, *canary, *other, i, k, pos;
	unsigned int kicks = 0, bad_kicks = 0;
	long long seq = vt_kmsg_last_seq(), end;
	struct qp_env v;
	struct vt_stream s;
	char bad[512];
	pthread_t t;
	__u64 done;
	int fd2, ret;

	if (self->skip)
		SKIP(return, "no vatom device, or no polling queues");
	VT_OPEN(fd2);
	m.syncobj = qp_syncobj_create(self->fd, 0);
	ASSERT_NE(0, m.syncobj);
	m.efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	ASSERT_LE(0, m.efd);
	ASSERT_EQ(0, qp_env_init(&v, self->fd, entries, 0, &m));
	VT_BUFFER(self->fd, 4096, ch, canary);
	VT_BUFFER(fd2, 4096, oh, other);
	for (i = 0; i < 1024; i++) {
		canary[i] = 0x5a5a0000 + i;
		other[i] = 0x5a5a0000 + i;
	}
	h.v = &v;
	h.sync = m.syncobj;
	h.efd = m.efd;

	vt_stream_init(&s);
	vq_add16(&s, 1, true);
	ASSERT_EQ(0, pthread_create(&t, NULL, qp_hostile_thread, &h));
	/* At least 4000 rounds and 2 s, whichever is longer. */
	end = va_now_ns() + 2000 * VA_NS_PER_MS;
	for (i = 0; i < 4000 || va_now_ns() < end; i++) {
		pos = (__u32)vq_completed(&v.q) + i % entries;
		vq_job(&v.q.ring[pos & (entries - 1)], v.streams, pos & (entries - 1), &s);
		if (i % 8 == 7) {
			ret = vq_kick(self->fd, v.q.id);
			kicks++;
			if (ret) {
				ASSERT_EQ(EINVAL, errno);
				bad_kicks++;
			}
		}
	}
	__atomic_store_n(&h.stop, 1, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
	TH_LOG("%u kicks (%u with a tail too far), %lu hostile writes, %llu jobs",
	       kicks, bad_kicks, h.writes, (unsigned long long)vq_completed(&v.q));
	for (i = 0; i < 1024; i++) {
		ASSERT_EQ(0x5a5a0000 + i, canary[i]) TH_LOG("canary word %u", i);
		ASSERT_EQ(0x5a5a0000 + i, other[i]) TH_LOG("other file's word %u", i);
	}

	/*
	 * The queue still works. The kernel's head is the count of jobs
	 * completed: a tail there publishes nothing; once the count stays
	 * put, the poller has nothing left in flight.
	 */
	do {
		done = vq_completed(&v.q);
		__atomic_store_n(&v.q.ctl->tail, (__u32)done, __ATOMIC_RELEASE);
		va_sleep_ms(100);
	} while (done != vq_completed(&v.q));
	pos = done;
	v.q.tail = pos;
	memset(v.target, 0, 4096);
	vt_stream_init(&s);
	vq_add16(&s, 3, false);
	vq_job(vq_next(&v.q), v.streams, pos & (entries - 1), &s);
	vq_publish(&v.q, 1);
	/* The page's flags are the writer's garbage: kick regardless. */
	ASSERT_EQ(0, vq_kick(self->fd, v.q.id));
	ASSERT_TRUE(qp_wait_completed(&v.q, done + 1, QP_DONE_MS));
	EXPECT_EQ(done + 1, vq_completed(&v.q));
	EXPECT_EQ(0, v.q.ring[pos & (entries - 1)].status);
	for (k = 0; k < 16; k++) {
		EXPECT_EQ(3 * (k + 1), v.target[k]);
	}
	close(m.efd);
	close(fd2);

	/* Nothing in the kernel log. */
	if (seq >= 0)
		EXPECT_EQ(0, vt_kmsg_scan(seq, bad, sizeof(bad))) TH_LOG("kernel log: %s", bad);
}

/*
 * Two polling queues of one file and SUBMITs (sync and async) of another
 * thread add to the same surface: the totals are exact.
 */
TEST_F_TIMEOUT(qpoll_heavy, with_submit, 120)
{
	const __u32 rounds = 30, e = 16;
	struct qp_mode m = { .flags = QP_POLL, .idle_us = variant->idle_us };
	struct vq_submitter x = { .iters = 300 };
	struct drm_vatom_submit sub;
	struct qp_env v;
	struct vq q2;
	struct vt_stream s;
	__u32 i, r, k;
	pthread_t t;

	if (self->skip)
		SKIP(return, "no vatom device, or no polling queues");
	ASSERT_EQ(0, qp_env_init(&v, self->fd, e, 0, &m));
	ASSERT_EQ(0, qp_queue_create(self->fd, e, v.bind, 3, &m, &q2));
	x.fd = self->fd;
	x.h = v.th;
	vt_stream_init(&s);
	vq_add16(&s, 1, false);
	for (i = 0; i < e; i++) {
		vq_job(&v.q.ring[i], v.streams, i, &s);
		vq_job(&q2.ring[i], v.streams, i, &s);
	}
	ASSERT_EQ(0, pthread_create(&t, NULL, vq_submit_thread, &x));
	for (r = 0; r < rounds; r++) {
		/* The descriptors stay valid: only the tails move. */
		ASSERT_LE(0, qp_publish(&v.q, e));
		ASSERT_LE(0, qp_publish(&q2, e));
		ASSERT_TRUE(qp_wait_completed(&v.q, (r + 1) * e, QP_DONE_MS));
		ASSERT_TRUE(qp_wait_completed(&q2, (r + 1) * e, QP_DONE_MS));
	}
	pthread_join(t, NULL);
	ASSERT_EQ(0, x.err);
	for (i = 0; i < e; i++) {
		EXPECT_EQ(0, v.q.ring[i].status);
		EXPECT_EQ(0, q2.ring[i].status);
	}
	/* A sync SUBMIT of nothing comes after the async ones. */
	vt_stream_init(&s);
	vt_submit_args(&sub, &s, v.bind, 1, NULL, 0);
	ASSERT_EQ(0, vt_submit(self->fd, &sub));
	for (k = 0; k < 16; k++) {
		EXPECT_EQ((2 * rounds * e + 1000 * x.iters) * (k + 1), v.target[k])
			TH_LOG("word %u", k);
	}
}
