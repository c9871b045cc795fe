// SPDX-License-Identifier: GPL-2.0
/*
 * What a queue signals per batch, in kick and polling mode: a timeline
 * syncobj point (waits, WAIT_FOR_SUBMIT, a sync_file through TRANSFER) and
 * an eventfd, and both outliving the handles the queue was created with.
 *
 * The qp_*, vq_* and va_* helpers are queue_common.c's.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>

#include "queue_common.h"

/* ------------------------------------------------------------------------ */
/* Completion signals: a timeline syncobj point and an eventfd per batch    */
/* ------------------------------------------------------------------------ */

FIXTURE(qsignal) {
	bool skip;
	int fd;
	__u32 sync;
	int efd;
	struct qp_env v;
	__u64 sum;	/* what lane 0 of the target must hold */
};

/**
 * FIXTURE_VARIANT(qsignal) - the queue's mode
 * @flags: DRM_VATOM_QUEUE_CREATE_POLL or 0 (both get the eventfd flag)
 * @idle_us: poll_idle_us
 */
FIXTURE_VARIANT(qsignal) {
	__u32 flags, idle_us;
};

FIXTURE_VARIANT_ADD(qsignal, kick) {
	.flags = 0,
};

FIXTURE_VARIANT_ADD(qsignal, poll) {
	.flags = QP_POLL, .idle_us = QP_IDLE_MAX,
};

FIXTURE_VARIANT_ADD(qsignal, poll_short_idle) {
	.flags = QP_POLL, .idle_us = 1,
};

FIXTURE_SETUP(qsignal)
{
	struct qp_mode m = {
		.flags = variant->flags | QP_EVENTFD, .idle_us = variant->idle_us,
	};

	self->efd = -1;
	/* A kick-mode queue needs no poller: only its signals. */
	self->fd = qp_fixture_open_caps(&self->skip, variant->flags & QP_POLL ? QP_CAPS :
					DRM_VATOM_CAP_QUEUE | DRM_VATOM_CAP_QUEUE_SIGNAL);
	if (self->skip)
		SKIP(return, "no vatom device, or no queues that signal (polling ones: %s)",
		     variant->flags & QP_POLL ? "needed" : "not needed");
	ASSERT_LE(0, self->fd);
	self->sync = qp_syncobj_create(self->fd, 0);
	ASSERT_NE(0, self->sync);
	self->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	ASSERT_LE(0, self->efd);
	m.syncobj = self->sync;
	m.efd = self->efd;
	ASSERT_EQ(0, qp_env_init(&self->v, self->fd, 64, 0, &m));
	self->sum = 0;
}

FIXTURE_TEARDOWN(qsignal)
{
	if (self->efd >= 0)
		close(self->efd);
	if (self->fd >= 0)
		close(self->fd);
}

/*
 * Publish @n jobs (at most the ring) as one batch, one tail store: each
 * adds i + 1 to lane 0 (the i-th of the batch), the job at @bad (if < n)
 * has a bad descriptor instead. Kick mode: one KICK; polling: the
 * doorbell protocol. Then wait for them. Return: 0 or -errno.
 */
static int qs_batch(struct qp_env *v, __u64 *sum, __u32 n, __u32 bad, bool poll)
{
	struct vt_stream s;
	__u32 i, e = v->q.entries;
	__u64 want = v->q.tail + (__u64)n;	/* positions start at 0 */
	int ret;

	for (i = 0; i < n; i++) {
		struct drm_vatom_queue_job *j = &v->q.ring[(v->q.tail + i) & (e - 1)];

		memset(j, 0, sizeof(*j));
		vt_stream_init(&s);
		vq_add16(&s, i + 1, false);
		vq_job(j, v->streams, (v->q.tail + i) & (e - 1), &s);
		if (i == bad)
			j->flags = 1;
		else
			*sum += i + 1;
	}
	if (!poll) {
		vq_publish(&v->q, n);
		return vq_kick(v->fd, v->q.id) ? -errno : 0;
	}
	ret = qp_publish(&v->q, n);
	if (ret < 0)
		return ret;
	return qp_wait_completed(&v->q, want, QP_DONE_MS) ? 0 : -ETIMEDOUT;
}

#define QS_POLL(variant)	(!!((variant)->flags & QP_POLL))

/*
 * After each batch the syncobj has point n = the jobs published so far
 * (a failed job counts: it is complete), signalled: a wait for it ends, a
 * wait for n + 1 does not (no fence yet: -EINVAL; or -ETIME waiting for
 * its submission). A KICK with nothing published adds no point.
 */
TEST_F(qsignal, timeline_points)
{
	const __u32 batches[] = { 1, 3, 7, 16, 2, 64, 5 };
	__u64 n = 0;
	size_t b;
	int ret;

	if (self->skip)
		SKIP(return, "no vatom device, or no polling queues");
	EXPECT_EQ(0, qp_syncobj_query(self->fd, self->sync));
	for (b = 0; b < VT_ARRAY_SIZE(batches); b++) {
		ret = qs_batch(&self->v, &self->sum, batches[b], b == 2 ? 4 : ~0u,
			       QS_POLL(variant));
		ASSERT_EQ(0, ret) TH_LOG("batch %zu: %s", b, strerror(-ret));
		n += batches[b];
		/* The failed job (read before its entry is used again). */
		if (b == 2)
			EXPECT_EQ(-EINVAL, self->v.q.ring[(n - 3) & 63].status);
		/* Polling: the point follows the count; kick mode: before KICK returns. */
		if (QS_POLL(variant))
			EXPECT_EQ(0, qp_wait_point(self->fd, self->sync, n,
						   DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
						   QP_DONE_MS));
		EXPECT_EQ(0, qp_wait_point(self->fd, self->sync, n, 0, 0))
			TH_LOG("point %llu", (unsigned long long)n);
		EXPECT_EQ(n, qp_syncobj_query(self->fd, self->sync));
		EXPECT_EQ(-EINVAL, qp_wait_point(self->fd, self->sync, n + 1, 0, 0));
		EXPECT_EQ(-ETIME, qp_wait_point(self->fd, self->sync, n + 1,
						DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT, 50));
	}
	EXPECT_EQ(n, vq_completed(&self->v.q));
	EXPECT_EQ(self->sum, self->v.target[0]);
	/* Nothing published: no batch, no point. */
	EXPECT_EQ(0, vq_kick(self->fd, self->v.q.id));
	va_sleep_ms(20);
	EXPECT_EQ(n, qp_syncobj_query(self->fd, self->sync));
}

struct qs_waiter {
	int fd;
	__u32 sync;
	__u64 point;
	const struct vq *q;
	int ret;
	int done;		/* set when the wait returned */
	__u64 completed;	/* the queue's count when it did */
};

static void *qs_wait_thread(void *arg)
{
	struct qs_waiter *w = arg;

	w->ret = qp_wait_point(w->fd, w->sync, w->point,
			       DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT, 6 * QP_DONE_MS);
	w->completed = vq_completed(w->q);
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * A wait with WAIT_FOR_SUBMIT for a point no job has reached yet ends once
 * the jobs are published and that many are complete, not at an earlier
 * batch's point.
 */
TEST_F(qsignal, wait_for_submit)
{
	const __u32 batches[] = { 2, 2, 3 };
	struct qs_waiter w = {
		.fd = self->fd, .sync = self->sync, .point = 7, .q = &self->v.q,
	};
	pthread_t t;
	size_t b;

	if (self->skip)
		SKIP(return, "no vatom device, or no polling queues");
	ASSERT_EQ(0, pthread_create(&t, NULL, qs_wait_thread, &w));
	va_sleep_ms(100);
	EXPECT_EQ(0, __atomic_load_n(&w.done, __ATOMIC_ACQUIRE));
	for (b = 0; b < VT_ARRAY_SIZE(batches); b++) {
		ASSERT_EQ(0, qs_batch(&self->v, &self->sum, batches[b], ~0u, QS_POLL(variant)));
		if (b + 1 < VT_ARRAY_SIZE(batches)) {
			va_sleep_ms(30);
			EXPECT_EQ(0, __atomic_load_n(&w.done, __ATOMIC_ACQUIRE))
				TH_LOG("the wait for 7 ended at batch %zu", b);
		}
	}
	pthread_join(t, NULL);
	EXPECT_EQ(0, w.ret) TH_LOG("%s", strerror(-w.ret));
	EXPECT_LE(7, w.completed);
	EXPECT_EQ(self->sum, self->v.target[0]);
}

struct qs_transfer {
	int fd;
	__u32 src, dst;
	__u64 point;
	int ret;
};

static void *qs_transfer_thread(void *arg)
{
	struct qs_transfer *x = arg;
	struct drm_syncobj_transfer tr = {
		.src_handle = x->src, .dst_handle = x->dst, .src_point = x->point,
		.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
	};

	x->ret = ioctl(x->fd, DRM_IOCTL_SYNCOBJ_TRANSFER, &tr) ? -errno : 0;
	return NULL;
}

/* The fence of binary syncobj @h as a sync_file: poll() says POLLIN. */
static int qs_sync_file_ready(int fd, __u32 h)
{
	struct drm_syncobj_handle e = {
		.handle = h, .flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE,
		.fd = -1,
	};
	struct pollfd p = { .events = POLLIN };
	int ret;

	if (ioctl(fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &e))
		return -errno;
	p.fd = e.fd;
	ret = poll(&p, 1, QP_DONE_MS);
	if (ret == 1 && !(p.revents & POLLIN))
		ret = -EIO;
	if (ret == 1 && va_sync_file_status(e.fd) != 1)
		ret = -EPROTO;
	close(e.fd);
	return ret;
}

/*
 * A point of the queue's timeline moved to a binary syncobj
 * (SYNCOBJ_TRANSFER) and exported as a sync_file is readable to poll():
 * for jobs complete, and, transferred with WAIT_FOR_SUBMIT before the
 * jobs exist, once they are.
 */
TEST_F(qsignal, sync_file)
{
	struct qs_transfer x = { .fd = self->fd, .src = self->sync, .point = 4 };
	struct drm_syncobj_transfer tr = { .src_handle = self->sync, .src_point = 3 };
	__u32 bin;
	pthread_t t;

	if (self->skip)
		SKIP(return, "no vatom device, or no polling queues");
	bin = qp_syncobj_create(self->fd, 0);
	ASSERT_NE(0, bin);
	ASSERT_EQ(0, qs_batch(&self->v, &self->sum, 3, ~0u, QS_POLL(variant)));
	if (QS_POLL(variant))
		ASSERT_EQ(0, qp_wait_point(self->fd, self->sync, 3,
					   DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT, QP_DONE_MS));
	tr.dst_handle = bin;
	ASSERT_EQ(0, ioctl(self->fd, DRM_IOCTL_SYNCOBJ_TRANSFER, &tr));
	EXPECT_EQ(1, qs_sync_file_ready(self->fd, bin));

	/* Point 4 does not exist yet: the transfer waits for it. */
	x.dst = qp_syncobj_create(self->fd, 0);
	ASSERT_NE(0, x.dst);
	ASSERT_EQ(0, pthread_create(&t, NULL, qs_transfer_thread, &x));
	va_sleep_ms(100);
	ASSERT_EQ(0, qs_batch(&self->v, &self->sum, 1, ~0u, QS_POLL(variant)));
	pthread_join(t, NULL);
	ASSERT_EQ(0, x.ret) TH_LOG("transfer: %s", strerror(-x.ret));
	EXPECT_EQ(1, qs_sync_file_ready(self->fd, x.dst));
	EXPECT_EQ(self->sum, self->v.target[0]);
}

/*
 * The eventfd is signalled once per batch: nothing before a job, after
 * each batch at least one count and never more than the batches (kick
 * mode: exactly one per KICK that consumed anything).
 */
TEST_F(qsignal, eventfd)
{
	const __u32 batches[] = { 1, 5, 64, 2, 9 };
	long long got, total = 0;
	struct pollfd p = { .fd = self->efd, .events = POLLIN };
	size_t b;

	if (self->skip)
		SKIP(return, "no vatom device, or no polling queues");
	EXPECT_EQ(0, qp_eventfd_take(self->efd));
	for (b = 0; b < VT_ARRAY_SIZE(batches); b++) {
		ASSERT_EQ(0, qs_batch(&self->v, &self->sum, batches[b], b == 1 ? 0 : ~0u,
				      QS_POLL(variant)));
		/* Polling: the signal follows the count. */
		EXPECT_EQ(1, poll(&p, 1, QP_DONE_MS));
		got = qp_eventfd_take(self->efd);
		EXPECT_LE(1, got) TH_LOG("batch %zu", b);
		if (!QS_POLL(variant))
			EXPECT_EQ(1, got) TH_LOG("batch %zu", b);
		total += got;
	}
	EXPECT_GE((long long)VT_ARRAY_SIZE(batches), total);
	/* Nothing published: no batch, no signal. */
	EXPECT_EQ(0, vq_kick(self->fd, self->v.q.id));
	va_sleep_ms(20);
	EXPECT_EQ(0, qp_eventfd_take(self->efd));
	EXPECT_EQ(self->sum, self->v.target[0]);
}

/*
 * The queue holds its syncobj and eventfd: with the handle destroyed and
 * the descriptor closed (a syncobj fd and a dup kept), jobs still add
 * points to the same syncobj and signal the same eventfd.
 */
TEST_F(qsignal, signals_outlive_handles)
{
	struct drm_syncobj_handle e = { .handle = self->sync, .fd = -1 };
	struct pollfd p = { .events = POLLIN };
	__u32 again;
	int dup_efd;

	if (self->skip)
		SKIP(return, "no vatom device, or no polling queues");
	ASSERT_EQ(0, ioctl(self->fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &e));
	EXPECT_EQ(0, qp_syncobj_destroy(self->fd, self->sync));
	dup_efd = dup(self->efd);
	ASSERT_LE(0, dup_efd);
	close(self->efd);
	self->efd = -1;

	ASSERT_EQ(0, qs_batch(&self->v, &self->sum, 6, ~0u, QS_POLL(variant)));
	p.fd = dup_efd;
	EXPECT_EQ(1, poll(&p, 1, QP_DONE_MS));
	EXPECT_LE(1, qp_eventfd_take(dup_efd));
	e.handle = 0;
	ASSERT_EQ(0, ioctl(self->fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &e));
	again = e.handle;
	EXPECT_EQ(0, qp_wait_point(self->fd, again, 6,
				   DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT, QP_DONE_MS));
	EXPECT_EQ(6, qp_syncobj_query(self->fd, again));
	EXPECT_EQ(self->sum, self->v.target[0]);
	/* Destroying the queue drops them; nothing else happens. */
	EXPECT_EQ(0, vq_destroy(self->fd, self->v.q.id));
	EXPECT_EQ(6, qp_syncobj_query(self->fd, again));
	close(dup_efd);
}

/* Descriptors below this are scanned: the default soft RLIMIT_NOFILE. */
#define QS_FD_SCAN	1024

/* Which numbers below QS_FD_SCAN the process holds open. */
static void qs_open_fds(bool open[QS_FD_SCAN])
{
	int n;

	for (n = 0; n < QS_FD_SCAN; n++)
		open[n] = fcntl(n, F_GETFD) >= 0;
}

/*
 * The device holds files, never numbers of the process's table: a new
 * surface and a queue with an eventfd (closed at once) leave the process
 * the numbers it had; and a number the process does not hold is not open
 * to the device either: a queue with it as the eventfd is refused with
 * EBADF, whatever the device keeps. (The in-process device's own
 * descriptors are out of the process's reach, docs/shim.md.)
 */
TEST_F(qsignal, holds_no_descriptor)
{
	static bool before[QS_FD_SCAN], after[QS_FD_SCAN];
	const struct drm_vatom_queue_create t = {
		.entries = 8, .flags = QP_EVENTFD,
		.bindings = vt_u64_ptr(self->v.bind), .binding_count = 1,
	};
	struct drm_vatom_queue_create a = t;
	int n, efd, closed = 0;
	__u32 h;

	if (self->skip)
		SKIP(return, "no vatom device, or no polling queues");
	qs_open_fds(before);
	ASSERT_EQ(0, vt_buffer_create(self->fd, VT_PAGE_SIZE, &h));
	efd = eventfd(0, EFD_CLOEXEC);
	ASSERT_LE(0, efd);
	a.eventfd = efd;
	ASSERT_EQ(0, vq_create_args(self->fd, &a));
	close(efd);
	qs_open_fds(after);
	for (n = 0; n < QS_FD_SCAN; n++) {
		EXPECT_EQ(before[n], after[n]) TH_LOG("descriptor %d", n);
	}

	for (n = 0; n < QS_FD_SCAN; n++) {
		struct drm_vatom_queue_create c = t;

		if (after[n])
			continue;
		closed++;
		c.eventfd = n;
		errno = 0;
		EXPECT_EQ(-1, vq_create_args(self->fd, &c)) TH_LOG("eventfd %d", n);
		EXPECT_EQ(EBADF, errno) TH_LOG("eventfd %d", n);
	}
	EXPECT_LT(QS_FD_SCAN / 2, closed);
	EXPECT_EQ(0, vq_destroy(self->fd, a.queue_id));
	EXPECT_EQ(0, vt_gem_close(self->fd, h));
}
