// SPDX-License-Identifier: GPL-2.0
/*
 * Polling queues against their users: a hostile writer rewriting the
 * ring, streams and tail while the poller runs, and SUBMIT alongside with
 * exact totals.
 *
 * Part of vatom_test.c's translation unit, after test_queue_poll_life.c;
 * not built alone. The qp_*, vq_*, va_* and ab_* helpers are
 * queue_common.c's.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include "queue_common.h"

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
