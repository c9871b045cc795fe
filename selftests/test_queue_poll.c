// SPDX-License-Identifier: GPL-2.0
/*
 * Polling queues (DRM_VATOM_QUEUE_CREATE_POLL, UAPI 5): the parameters,
 * every creation, KICK and DESTROY error and a refused tail.
 * test_queue_poll_run.c follows with the jobs they run.
 *
 * The qp_*, vq_*, va_* and ab_* helpers are queue_common.c's. Expected
 * memory contents are sums of the increments the tests issue; expected
 * counts (points, signals, jobs) are what the tests published, never
 * values read back from the device first.
 *
 * Times: a job completes within QP_DONE_MS, a poller stops within
 * QP_STOP_MS. Both are far above what they take in the TCG test VM
 * (milliseconds); the ring of long jobs that makes "stops early"
 * observable would run for minutes there.
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <poll.h>
#include <sched.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "queue_common.h"

/* ------------------------------------------------------------------------ */
/* Parameters and creation errors                                            */
/* ------------------------------------------------------------------------ */

/* CAP bits, UAPI 5, MAX_POLL_QUEUES (the module parameter) and MAX_POLL_IDLE_US. */
TEST(queue_poll_params)
{
	long long modparam = va_modparam("max_poll_queues");
	__u64 caps, v;
	int fd;

	VT_OPEN(fd);
	ASSERT_EQ(0, vt_get_param(fd, DRM_VATOM_PARAM_CAPS, 0, &caps));
	EXPECT_TRUE(caps & DRM_VATOM_CAP_QUEUE_POLL);
	EXPECT_TRUE(caps & DRM_VATOM_CAP_QUEUE_SIGNAL);
	EXPECT_TRUE(caps & DRM_VATOM_CAP_QUEUE_POLL_CPU);
	ASSERT_EQ(0, vt_get_param(fd, DRM_VATOM_PARAM_UAPI_VERSION, 0, &v));
	EXPECT_LE(5, v);
	ASSERT_EQ(0, vt_get_param(fd, DRM_VATOM_PARAM_MAX_POLL_QUEUES, 0, &v));
	/* The module parameter, 4 unless the module was loaded with another. */
	EXPECT_EQ(modparam >= 0 ? (__u64)modparam : 4, v);
	ASSERT_EQ(0, vt_get_param(fd, DRM_VATOM_PARAM_MAX_POLL_IDLE_US, 0, &v));
	EXPECT_EQ(QP_IDLE_MAX, v);
	/* Neither takes an index. */
	VT_EXPECT_ERRNO(EINVAL, vt_get_param(fd, DRM_VATOM_PARAM_MAX_POLL_QUEUES, 1, &v));
	VT_EXPECT_ERRNO(EINVAL, vt_get_param(fd, DRM_VATOM_PARAM_MAX_POLL_IDLE_US, 1, &v));
	close(fd);
}

/* What a creation case passes as poll_idle_us. */
enum qp_idle {
	QP_IDLE_0,
	QP_IDLE_1,
	QP_IDLE_AT_MAX,
	QP_IDLE_OVER_MAX,
	QP_IDLE_U32_MAX,
};

/* What a creation case passes as syncobj. */
enum qp_sync {
	QP_SYNC_NONE,
	QP_SYNC_GOOD,		/* a timeline syncobj of the file */
	QP_SYNC_UNKNOWN,	/* a handle nobody gave out */
	QP_SYNC_OTHER_FILE,	/* a syncobj of another file only */
	QP_SYNC_GEM_HANDLE,	/* a GEM handle's number (no such syncobj) */
};

/* What a creation case passes as eventfd. */
enum qp_efd {
	QP_EFD_ZERO,		/* 0 */
	QP_EFD_GOOD,		/* an eventfd */
	QP_EFD_PIPE,		/* a pipe's read end */
	QP_EFD_DRM,		/* the DRM file itself */
	QP_EFD_CLOSED,		/* a descriptor just closed */
	QP_EFD_MINUS_1,
};

static const struct qp_create_case {
	const char *name;
	__u32 entries;
	__u32 flags;
	enum qp_idle idle;
	__u32 poll_cpu;
	enum qp_sync sync;
	enum qp_efd efd;
	bool bad_binding;	/* an unknown handle in the table */
	int err;
} qp_create_cases[] = {
	{ "idle_without_poll",	 8, 0, QP_IDLE_1, 0, QP_SYNC_NONE, QP_EFD_ZERO, false, EINVAL },
	{ "idle_max_without_poll", 8, QP_EVENTFD, QP_IDLE_AT_MAX, 0, QP_SYNC_NONE,
	  QP_EFD_GOOD, false, EINVAL },
	{ "idle_over_max",	 8, QP_POLL, QP_IDLE_OVER_MAX, 0, QP_SYNC_NONE, QP_EFD_ZERO,
	  false, EINVAL },
	{ "idle_u32_max",	 8, QP_POLL, QP_IDLE_U32_MAX, 0, QP_SYNC_GOOD, QP_EFD_ZERO,
	  false, EINVAL },
	{ "poll_cpu_without_flag", 8, QP_POLL, QP_IDLE_0, 1, QP_SYNC_NONE, QP_EFD_ZERO, false,
	  EINVAL },
	{ "poll_cpu_high_without_flag", 8, 0, QP_IDLE_0, 1u << 31, QP_SYNC_NONE, QP_EFD_ZERO,
	  false, EINVAL },
	{ "poll_cpu_signals_without_flag", 8, QP_EVENTFD, QP_IDLE_0, 1, QP_SYNC_GOOD,
	  QP_EFD_GOOD, false, EINVAL },
	{ "poll_cpu_flag_without_poll", 8, QP_POLL_CPU, QP_IDLE_0, 0, QP_SYNC_NONE,
	  QP_EFD_ZERO, false, EINVAL },
	{ "poll_cpu_flag_kick_signals", 8, QP_POLL_CPU | QP_EVENTFD, QP_IDLE_0, 0, QP_SYNC_GOOD,
	  QP_EFD_GOOD, false, EINVAL },
	{ "poll_cpu_not_a_cpu",	 8, QP_POLL | QP_POLL_CPU, QP_IDLE_0, 1u << 31, QP_SYNC_NONE,
	  QP_EFD_ZERO, false, EINVAL },
	{ "poll_cpu_u32_max",	 8, QP_POLL | QP_POLL_CPU, QP_IDLE_1, ~0u, QP_SYNC_GOOD,
	  QP_EFD_ZERO, false, EINVAL },
	{ "poll_cpu_past_possible", 8, QP_POLL | QP_POLL_CPU, QP_IDLE_0, 8192, QP_SYNC_NONE,
	  QP_EFD_ZERO, false, EINVAL },
	{ "eventfd_without_flag", 8, 0, QP_IDLE_0, 0, QP_SYNC_NONE, QP_EFD_GOOD, false, EINVAL },
	{ "eventfd_without_flag_poll", 8, QP_POLL, QP_IDLE_0, 0, QP_SYNC_GOOD, QP_EFD_GOOD,
	  false, EINVAL },
	{ "eventfd_minus_1_without_flag", 8, 0, QP_IDLE_0, 0, QP_SYNC_NONE, QP_EFD_MINUS_1,
	  false, EINVAL },
	{ "eventfd_pipe",	 8, QP_EVENTFD, QP_IDLE_0, 0, QP_SYNC_NONE, QP_EFD_PIPE, false,
	  EINVAL },
	{ "eventfd_pipe_poll",	 8, QP_EVENTFD | QP_POLL, QP_IDLE_1, 0, QP_SYNC_GOOD, QP_EFD_PIPE,
	  false, EINVAL },
	{ "eventfd_drm_file",	 8, QP_EVENTFD, QP_IDLE_0, 0, QP_SYNC_NONE, QP_EFD_DRM, false,
	  EINVAL },
	{ "eventfd_closed",	 8, QP_EVENTFD, QP_IDLE_0, 0, QP_SYNC_NONE, QP_EFD_CLOSED, false,
	  EBADF },
	{ "eventfd_closed_poll", 8, QP_EVENTFD | QP_POLL, QP_IDLE_0, 0, QP_SYNC_GOOD,
	  QP_EFD_CLOSED, false, EBADF },
	{ "eventfd_minus_1",	 8, QP_EVENTFD, QP_IDLE_0, 0, QP_SYNC_NONE, QP_EFD_MINUS_1, false,
	  EBADF },
	{ "syncobj_unknown",	 8, 0, QP_IDLE_0, 0, QP_SYNC_UNKNOWN, QP_EFD_ZERO, false, ENOENT },
	{ "syncobj_unknown_poll", 8, QP_POLL, QP_IDLE_AT_MAX, 0, QP_SYNC_UNKNOWN, QP_EFD_ZERO,
	  false, ENOENT },
	{ "syncobj_unknown_eventfd", 8, QP_EVENTFD | QP_POLL, QP_IDLE_0, 0, QP_SYNC_UNKNOWN,
	  QP_EFD_GOOD, false, ENOENT },
	{ "syncobj_other_file",	 8, QP_POLL, QP_IDLE_0, 0, QP_SYNC_OTHER_FILE, QP_EFD_ZERO,
	  false, ENOENT },
	{ "syncobj_gem_handle",	 8, 0, QP_IDLE_0, 0, QP_SYNC_GEM_HANDLE, QP_EFD_ZERO, false,
	  ENOENT },
	{ "binding_unknown_poll", 8, QP_POLL | QP_EVENTFD, QP_IDLE_0, 0, QP_SYNC_GOOD, QP_EFD_GOOD,
	  true, ENOENT },
	{ "entries_3_poll",	 3, QP_POLL, QP_IDLE_0, 0, QP_SYNC_NONE, QP_EFD_ZERO, false,
	  EINVAL },
	{ "entries_8192_poll",	 8192, QP_POLL, QP_IDLE_0, 0, QP_SYNC_GOOD, QP_EFD_ZERO, false,
	  E2BIG },
	{ "flag_unknown_poll",	 8, QP_POLL | (QP_POLL_CPU << 1), QP_IDLE_0, 0, QP_SYNC_NONE,
	  QP_EFD_ZERO, false, EINVAL },
};

/*
 * Every bad QUEUE_CREATE of the polling and signal fields fails with its
 * errno and creates nothing: no queue id taken (the next queue is id 1),
 * no GEM handle, nothing charged, no surface, no poller (all
 * MAX_POLL_QUEUES can still be created); then a good one, destroyed,
 * leaves nothing charged either.
 */
TEST(queue_poll_create_errors)
{
	const __u32 idle[] = {
		[QP_IDLE_0] = 0, [QP_IDLE_1] = 1, [QP_IDLE_AT_MAX] = QP_IDLE_MAX,
		[QP_IDLE_OVER_MAX] = QP_IDLE_MAX + 1, [QP_IDLE_U32_MAX] = ~0u,
	};
	struct drm_vatom_binding b = { .slot = 3 };
	struct drm_vatom_queue_create a;
	__u32 h, h2, sync, other_sync, sync_other_file, i, max;
	__u32 ids[16], rings[16], ctls[16];
	int fd, fd2, efd, pfd[2], closed, efds[QP_EFD_MINUS_1 + 1];
	__u64 charged;
	struct qp_live live, live_after;
	struct qp_mode m = { .flags = QP_POLL };
	struct vq q;
	size_t c;

	VT_OPEN(fd);
	if (!qp_supported(fd))
		SKIP(close(fd); return, "no polling queues or signals");
	VT_OPEN(fd2);
	ASSERT_EQ(0, vt_buffer_create(fd, 4096, &h));
	ASSERT_EQ(0, vt_buffer_create(fd, 4096, &h2));
	b.handle = h;
	sync = qp_syncobj_create(fd, 0);
	ASSERT_NE(0, sync);
	/* A GEM handle's number that is no syncobj's. */
	if (h2 == sync)
		h2 = h;
	/* A syncobj handle of the other file this file does not have. */
	other_sync = qp_syncobj_create(fd2, 0);
	sync_other_file = qp_syncobj_create(fd2, 0);
	ASSERT_NE(0, sync_other_file);
	if (sync_other_file == sync)
		sync_other_file = other_sync;
	ASSERT_NE(sync, sync_other_file);
	efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	ASSERT_LE(0, efd);
	ASSERT_EQ(0, pipe(pfd));
	closed = dup(efd);
	ASSERT_LE(0, closed);
	ASSERT_EQ(0, close(closed));
	efds[QP_EFD_ZERO] = 0;
	efds[QP_EFD_GOOD] = efd;
	efds[QP_EFD_PIPE] = pfd[0];
	efds[QP_EFD_DRM] = fd;
	efds[QP_EFD_CLOSED] = closed;
	efds[QP_EFD_MINUS_1] = -1;

	charged = vq_charged(fd);
	qp_live(&live);
	for (c = 0; c < VT_ARRAY_SIZE(qp_create_cases); c++) {
		const struct qp_create_case *t = &qp_create_cases[c];
		const __u32 syncs[] = {
			[QP_SYNC_NONE] = 0, [QP_SYNC_GOOD] = sync,
			[QP_SYNC_UNKNOWN] = sync + 1000,
			[QP_SYNC_OTHER_FILE] = sync_other_file,
			[QP_SYNC_GEM_HANDLE] = h2,
		};

		/* Nothing else opened meanwhile: the closed number stays free. */
		ASSERT_EQ(-1, fcntl(closed, F_GETFD));
		memset(&a, 0, sizeof(a));
		b.handle = t->bad_binding ? h + 1000 : h;
		a.entries = t->entries;
		a.flags = t->flags;
		a.bindings = vt_u64_ptr(&b);
		a.binding_count = 1;
		a.poll_idle_us = idle[t->idle];
		a.poll_cpu = t->poll_cpu;
		a.syncobj = syncs[t->sync];
		a.eventfd = efds[t->efd];
		a.queue_id = VT_POISON32;
		VT_EXPECT_ERRNO(t->err, vq_create_args(fd, &a));
		if (errno != t->err)
			TH_LOG("case %s", t->name);
	}
	/* Nothing was created, taken or charged. */
	EXPECT_EQ(charged, vq_charged(fd));
	for (i = 1; i <= 8; i++)
		if (i != h && i != h2)
			VT_EXPECT_ERRNO(EINVAL, vt_gem_close(fd, i));
	VT_EXPECT_ERRNO(ENOENT, vq_kick(fd, 1));
	qp_live(&live_after);
	EXPECT_EQ(live.surfaces, live_after.surfaces);
	EXPECT_EQ(live.poll_queues, live_after.poll_queues);
	EXPECT_EQ(live.pollers, live_after.pollers);
	b.handle = h;

	/* No poller slot leaked: every one of MAX_POLL_QUEUES can be had. */
	max = qp_param(fd, DRM_VATOM_PARAM_MAX_POLL_QUEUES);
	ASSERT_GE(VT_ARRAY_SIZE(ids), max);
	for (i = 0; i < max; i++) {
		memset(&a, 0, sizeof(a));
		a.entries = 1;
		a.flags = QP_POLL;
		a.bindings = vt_u64_ptr(&b);
		a.binding_count = 1;
		ASSERT_EQ(0, vq_create_args(fd, &a))
			TH_LOG("poller %u of %u: %s", i + 1, max, strerror(errno));
		/* The failed calls took no queue id. */
		EXPECT_EQ(i + 1, a.queue_id);
		ids[i] = a.queue_id;
		rings[i] = a.ring_handle;
		ctls[i] = a.ctl_handle;
	}
	for (i = 0; i < max; i++) {
		EXPECT_EQ(0, vq_destroy(fd, ids[i]));
		EXPECT_EQ(0, vt_gem_close(fd, rings[i]));
		EXPECT_EQ(0, vt_gem_close(fd, ctls[i]));
	}

	/* A good one with everything: created, destroyed, nothing left charged. */
	charged = vq_charged(fd);
	m.flags = QP_POLL | QP_EVENTFD;
	m.idle_us = QP_IDLE_MAX;
	m.syncobj = sync;
	m.efd = efd;
	ASSERT_EQ(0, qp_queue_create(fd, 16, &b, 1, &m, &q));
	EXPECT_NE(0, q.id);
	EXPECT_LT(charged, vq_charged(fd));
	EXPECT_EQ(0, vq_destroy(fd, q.id));
	munmap(q.ring, VT_PAGE_SIZE);
	munmap(q.ctl, VT_PAGE_SIZE);
	EXPECT_EQ(0, vt_gem_close(fd, q.ring_handle));
	EXPECT_EQ(0, vt_gem_close(fd, q.ctl_handle));
	EXPECT_EQ(charged, vq_charged(fd));
	QP_EXPECT_LIVE(&live);
	close(pfd[0]);
	close(pfd[1]);
	close(efd);
	close(fd2);
	close(fd);
}

/* ------------------------------------------------------------------------ */
/* KICK and DESTROY errors, a refused tail                                  */
/* ------------------------------------------------------------------------ */

/*
 * KICK and DESTROY of a polling queue check their arguments as for any
 * queue (-EINVAL for non-zero pad, -ENOENT for an id of no queue of the
 * file) and a refused call leaves the queue working.
 */
TEST(queue_poll_kick_destroy_errors)
{
	struct qp_mode m = { .flags = QP_POLL, .idle_us = QP_IDLE_SHORT };
	struct drm_vatom_queue_destroy d = { 0 };
	struct drm_vatom_queue_kick k = { 0 };
	struct vt_stream s;
	struct qp_env v;
	int fd, fd2;

	VT_OPEN(fd);
	if (!qp_supported(fd))
		SKIP(close(fd); return, "no polling queues or signals");
	VT_OPEN(fd2);
	ASSERT_EQ(0, qp_env_init(&v, fd, 4, 0, &m));
	k.queue_id = v.q.id;
	k.pad = 1;
	VT_EXPECT_ERRNO(EINVAL, ioctl(fd, DRM_IOCTL_VATOM_QUEUE_KICK, &k));
	d.queue_id = v.q.id;
	d.pad = 1;
	VT_EXPECT_ERRNO(EINVAL, ioctl(fd, DRM_IOCTL_VATOM_QUEUE_DESTROY, &d));
	VT_EXPECT_ERRNO(ENOENT, vq_kick(fd, v.q.id + 1));
	VT_EXPECT_ERRNO(ENOENT, vq_kick(fd2, v.q.id));
	VT_EXPECT_ERRNO(ENOENT, vq_destroy(fd2, v.q.id));
	/* Still there, and working. */
	vt_stream_init(&s);
	vq_add16(&s, 2, false);
	vq_job(vq_next(&v.q), v.streams, 0, &s);
	ASSERT_LE(0, qp_publish(&v.q, 1));
	ASSERT_TRUE(qp_wait_completed(&v.q, 1, QP_DONE_MS));
	EXPECT_EQ(0, v.q.ring[0].status);
	EXPECT_EQ(2, v.target[0]);
	EXPECT_EQ(2 * 16, v.target[15]);
	EXPECT_EQ(0, vq_destroy(fd, v.q.id));
	VT_EXPECT_ERRNO(ENOENT, vq_destroy(fd, v.q.id));
	VT_EXPECT_ERRNO(ENOENT, vq_kick(fd, v.q.id));
	close(fd2);
	close(fd);
}

/* Whether the poller is asleep or awake when the bad tail appears. */
static const struct qp_tail_case {
	const char *name;
	__u32 idle_us;
	bool asleep;
} qp_tail_cases[] = {
	{ "poller_asleep", QP_IDLE_SHORT, true },
	{ "poller_awake", QP_IDLE_MAX, false },
};

/*
 * A tail more than the ring's entries ahead of the head: KICK fails with
 * -EINVAL and the poller consumes nothing (it sleeps, NEED_WAKEUP set);
 * a good tail and a KICK then run the whole ring. A head or count the
 * page shows falsely changes nothing.
 */
TEST(queue_poll_tail_too_far)
{
	const __u32 bad_tails[] = { 9, 0xffffffffu, 0x80000000u };
	struct vt_stream s;
	struct qp_env v;
	size_t c, t;
	__u32 i;
	int fd;

	VT_OPEN(fd);
	if (!qp_supported(fd))
		SKIP(close(fd); return, "no polling queues or signals");
	for (c = 0; c < VT_ARRAY_SIZE(qp_tail_cases); c++) {
		const struct qp_tail_case *tc = &qp_tail_cases[c];
		struct qp_mode m = { .flags = QP_POLL, .idle_us = tc->idle_us };

		TH_LOG("case %s", tc->name);
		ASSERT_EQ(0, qp_env_init(&v, fd, 8, 0, &m));
		vt_stream_init(&s);
		vq_add16(&s, 1, false);
		for (i = 0; i < 8; i++) {
			vq_job(&v.q.ring[i], v.streams, i, &s);
			v.q.ring[i].status = QP_UNTOUCHED;
		}
		if (tc->asleep)
			ASSERT_TRUE(qp_wait_flags(&v.q, DRM_VATOM_QUEUE_CTL_NEED_WAKEUP,
						  DRM_VATOM_QUEUE_CTL_NEED_WAKEUP, QP_DONE_MS));
		for (t = 0; t < VT_ARRAY_SIZE(bad_tails); t++) {
			__atomic_store_n(&v.q.ctl->tail, bad_tails[t], __ATOMIC_RELEASE);
			__atomic_thread_fence(__ATOMIC_SEQ_CST);
			VT_EXPECT_ERRNO(EINVAL, vq_kick(fd, v.q.id));
		}
		/* Awake or not, it ends up asleep, having consumed nothing. */
		EXPECT_TRUE(qp_wait_flags(&v.q, DRM_VATOM_QUEUE_CTL_NEED_WAKEUP,
					  DRM_VATOM_QUEUE_CTL_NEED_WAKEUP, QP_DONE_MS));
		va_sleep_ms(50);
		EXPECT_EQ(0, vq_completed(&v.q));
		EXPECT_EQ(0, v.target[0]);
		EXPECT_EQ(QP_UNTOUCHED, v.q.ring[0].status);

		/* Exactly a full ring is fine. */
		v.q.tail = 0;
		EXPECT_LE(0, qp_publish(&v.q, 8));
		EXPECT_EQ(0, vq_kick(fd, v.q.id));
		ASSERT_TRUE(qp_wait_completed(&v.q, 8, QP_DONE_MS));
		for (i = 0; i < 8; i++) {
			EXPECT_EQ(0, v.q.ring[i].status) TH_LOG("job %u", i);
		}
		EXPECT_EQ(8, v.target[0]);
		EXPECT_EQ(8 * 16, v.target[15]);

		/* A false head and count on the page: the kernel keeps its own. */
		v.q.ctl->head = 0;
		v.q.ctl->completed = 0;
		vq_job(vq_next(&v.q), v.streams, 0, &s);
		EXPECT_LE(0, qp_publish(&v.q, 1));
		EXPECT_EQ(0, vq_kick(fd, v.q.id));
		ASSERT_TRUE(qp_wait_completed(&v.q, 9, QP_DONE_MS));
		EXPECT_EQ(9, vq_completed(&v.q));
		EXPECT_EQ(9, v.target[0]);
		EXPECT_EQ(0, vq_destroy(fd, v.q.id));
		qp_env_unmap(&v);
	}
	close(fd);
}
