// SPDX-License-Identifier: GPL-2.0
/*
 * Polling queues (DRM_VATOM_QUEUE_CREATE_POLL, UAPI 5) and what a queue
 * signals per batch (a timeline syncobj point, an eventfd): the
 * parameters, every creation, KICK and DESTROY error, jobs with no system
 * call, the NEED_WAKEUP doorbell, a refused tail, the poller stopped by
 * DESTROY, close, exit and SIGKILL, the device-wide limit, a hostile
 * writer, SUBMIT alongside, and syncobj/eventfd completion in kick and
 * polling mode.
 *
 * #included by vatom_test.c after test_async.c (va_* time, syncobj and
 * debugfs helpers), test_abuse.c (ab_* grid broadcasts) and test_queue.c
 * (vq_* queue helpers), before test_kmsg.c. Expected memory contents are
 * sums of the increments the tests issue; expected counts (points,
 * signals, jobs) are what the tests published, never values read back
 * from the device first.
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

/* How long the tests wait for published jobs, and for a poller to stop. */
#define QP_DONE_MS		10000
#define QP_STOP_MS		2000
/* A short idle time: the poller sleeps soon after its last job. */
#define QP_IDLE_SHORT		1000
/* drm_vatom_queue_create.poll_idle_us at most (DRM_VATOM_PARAM_MAX_POLL_IDLE_US). */
#define QP_IDLE_MAX		1000000
/* What a status the kernel has not written yet holds. */
#define QP_UNTOUCHED		0x5eed
/* Bytes of the stream surface: room for a long job's stream at offset 0. */
#define QP_STREAMS_MIN		(64 * 1024)

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */
/* ------------------------------------------------------------------------ */

/**
 * struct qp_mode - how a test creates its queue
 * @flags: DRM_VATOM_QUEUE_CREATE_*
 * @idle_us: poll_idle_us
 * @syncobj: syncobj handle, or 0
 * @efd: the eventfd (with DRM_VATOM_QUEUE_CREATE_EVENTFD)
 */
struct qp_mode {
	__u32 flags;
	__u32 idle_us;
	__u32 syncobj;
	int efd;
};

/* QUEUE_CREATE with @m, then map the ring and page into @q: 0 or -errno. */
static int qp_queue_create(int fd, __u32 entries, const struct drm_vatom_binding *b,
			   __u32 n, const struct qp_mode *m, struct vq *q)
{
	struct drm_vatom_queue_create a = {
		.entries = entries, .bindings = vt_u64_ptr(b), .binding_count = n,
		.flags = m->flags, .poll_idle_us = m->idle_us, .syncobj = m->syncobj,
		.eventfd = m->flags & DRM_VATOM_QUEUE_CREATE_EVENTFD ? m->efd : 0,
	};

	memset(q, 0, sizeof(*q));
	if (vq_create_args(fd, &a))
		return -errno;
	q->fd = fd;
	q->id = a.queue_id;
	q->entries = entries;
	q->ring_handle = a.ring_handle;
	q->ctl_handle = a.ctl_handle;
	q->ring = vt_map(fd, a.ring_handle, vt_page_round(entries * sizeof(*q->ring)));
	q->ctl = vt_map(fd, a.ctl_handle, VT_PAGE_SIZE);
	return q->ring && q->ctl ? 0 : -ENOMEM;
}

/**
 * struct qp_env - a queue with target, stream and results surfaces bound at
 * VQ_SLOT_* (as test_queue.c's struct vq_env), any creation flags
 * @fd: the file
 * @th: target; @sh: streams (@slen bytes); @rh: results (@rlen bytes)
 * @target, @streams, @results: their mappings
 * @bind: the binding table
 * @q: the queue
 */
struct qp_env {
	int fd;
	__u32 th, sh, rh;
	__u32 *target;
	void *streams, *results;
	size_t slen, rlen;
	struct drm_vatom_binding bind[3];
	struct vq q;
};

/*
 * Surfaces and a queue created with @m. @th: a target surface to bind
 * (an import, say), or 0 for a new one. Return: 0 or -errno.
 */
static int qp_env_init(struct qp_env *v, int fd, __u32 entries, __u32 th,
		       const struct qp_mode *m)
{
	memset(v, 0, sizeof(*v));
	v->fd = fd;
	v->th = th;
	v->slen = vt_page_round(entries * VQ_STREAM_STRIDE);
	if (v->slen < QP_STREAMS_MIN)
		v->slen = QP_STREAMS_MIN;
	v->rlen = vt_page_round(entries * VQ_RES_STRIDE);
	if ((!th && vt_buffer_create(fd, VT_PAGE_SIZE, &v->th)) ||
	    vt_buffer_create(fd, v->slen, &v->sh) ||
	    vt_buffer_create(fd, v->rlen, &v->rh))
		return -errno;
	v->target = vt_map(fd, v->th, VT_PAGE_SIZE);
	v->streams = vt_map(fd, v->sh, v->slen);
	v->results = vt_map(fd, v->rh, v->rlen);
	if (!v->target || !v->streams || !v->results)
		return -ENOMEM;
	v->bind[0] = (struct drm_vatom_binding){ .slot = VQ_SLOT_TARGET, .handle = v->th };
	v->bind[1] = (struct drm_vatom_binding){ .slot = VQ_SLOT_STREAM, .handle = v->sh };
	v->bind[2] = (struct drm_vatom_binding){ .slot = VQ_SLOT_RESULTS, .handle = v->rh };
	return qp_queue_create(fd, entries, v->bind, 3, m, &v->q);
}

/* Drop every mapping of @v: with its file closed, that releases the file. */
static void qp_env_unmap(struct qp_env *v)
{
	munmap(v->target, VT_PAGE_SIZE);
	munmap(v->streams, v->slen);
	munmap(v->results, v->rlen);
	munmap(v->q.ring, vt_page_round(v->q.entries * sizeof(*v->q.ring)));
	munmap(v->q.ctl, VT_PAGE_SIZE);
}

static __u32 qp_flags(const struct vq *q)
{
	return __atomic_load_n(&q->ctl->flags, __ATOMIC_ACQUIRE);
}

/*
 * The producer's doorbell protocol: store the tail @n positions on
 * (release), a full barrier, load the flags; KICK only when the consumer
 * asks for it. Return: 1 after a KICK, 0 without one, or -errno of the KICK.
 */
static int qp_publish(struct vq *q, __u32 n)
{
	q->tail += n;
	__atomic_store_n(&q->ctl->tail, q->tail, __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (!(__atomic_load_n(&q->ctl->flags, __ATOMIC_RELAXED) &
	      DRM_VATOM_QUEUE_CTL_NEED_WAKEUP))
		return 0;
	return vq_kick(q->fd, q->id) ? -errno : 1;
}

/* Spin until @n jobs are complete or @ms pass. Return: whether they are. */
static bool qp_wait_completed(const struct vq *q, __u64 n, int ms)
{
	long long end = va_now_ns() + ms * VA_NS_PER_MS;
	unsigned long i;

	for (i = 1; vq_completed(q) < n; i++) {
		if (i % 1024)
			continue;
		if (va_now_ns() > end)
			return vq_completed(q) >= n;
		/* Spin a while, then leave the CPU to the poller too. */
		if (i > 64 * 1024)
			sched_yield();
	}
	return true;
}

/* Wait up to @ms for (flags & @mask) == @want. Return: whether it came. */
static bool qp_wait_flags(const struct vq *q, __u32 mask, __u32 want, int ms)
{
	long long end = va_now_ns() + ms * VA_NS_PER_MS;

	while ((qp_flags(q) & mask) != want) {
		if (va_now_ns() > end)
			return (qp_flags(q) & mask) == want;
		usleep(500);
	}
	return true;
}

/* Raw syncobj ioctls: a handle (0 on failure) and the last point (or -errno). */
static __u32 qp_syncobj_create(int fd, __u32 flags)
{
	struct drm_syncobj_create c = { .flags = flags };

	return ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &c) ? 0 : c.handle;
}

static int qp_syncobj_destroy(int fd, __u32 h)
{
	struct drm_syncobj_destroy d = { .handle = h };

	return ioctl(fd, DRM_IOCTL_SYNCOBJ_DESTROY, &d) ? -errno : 0;
}

static long long qp_syncobj_query(int fd, __u32 h)
{
	struct drm_syncobj_timeline_array a;
	__u64 point = VT_POISON64;

	memset(&a, 0, sizeof(a));
	a.handles = vt_u64_ptr(&h);
	a.points = vt_u64_ptr(&point);
	a.count_handles = 1;
	if (ioctl(fd, DRM_IOCTL_SYNCOBJ_QUERY, &a))
		return -errno;
	return point;
}

/* TIMELINE_WAIT for @point with @flags, @ms from now: 0 or -errno. */
static int qp_wait_point(int fd, __u32 h, __u64 point, __u32 flags, int ms)
{
	struct drm_syncobj_timeline_wait w;

	memset(&w, 0, sizeof(w));
	w.handles = vt_u64_ptr(&h);
	w.points = vt_u64_ptr(&point);
	w.count_handles = 1;
	w.flags = flags;
	w.timeout_nsec = ms ? va_now_ns() + ms * VA_NS_PER_MS : 0;
	return ioctl(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w) ? -errno : 0;
}

/* The eventfd's count (0 when it has none: non-blocking), or -errno. */
static long long qp_eventfd_take(int efd)
{
	__u64 v = 0;

	if (read(efd, &v, sizeof(v)) == sizeof(v))
		return v;
	return errno == EAGAIN ? 0 : -errno;
}

/**
 * struct qp_live - the device's live objects (debugfs), where readable
 * @surfaces: vatom_stats "surfaces", or -1
 * @pollers: vatom_limits "poll_queues", or -1
 */
struct qp_live {
	long long surfaces, pollers;
};

static char qp_stats_path[256], qp_limits_path[256];

static void qp_live(struct qp_live *l)
{
	if (!qp_stats_path[0]) {
		vt_debugfs_stats_path(vt_render_path, qp_stats_path, sizeof(qp_stats_path));
		vt_debugfs_limits_path(vt_render_path, qp_limits_path,
				       sizeof(qp_limits_path));
	}
	l->surfaces = vt_debugfs_stat(qp_stats_path, "surfaces");
	l->pollers = vt_debugfs_stat(qp_limits_path, "poll_queues");
}

/* The live counts back at @base (waiting up to ~2 s for each). */
static void qp_expect_live(struct __test_metadata *_metadata, const struct qp_live *base)
{
	if (base->surfaces >= 0)
		EXPECT_EQ(base->surfaces, va_stat_settle(qp_stats_path, "surfaces",
							 base->surfaces));
	if (base->pollers >= 0)
		EXPECT_EQ(base->pollers, va_stat_settle(qp_limits_path, "poll_queues",
							base->pollers));
}

/* Polling queues and completion signals: what every test here needs. */
#define QP_CAPS		(DRM_VATOM_CAP_QUEUE_POLL | DRM_VATOM_CAP_QUEUE_SIGNAL)

static bool qp_supported(int fd)
{
	return (vt_caps(fd) & QP_CAPS) == QP_CAPS;
}

/*
 * A fixture's file: -1 (and @skip set) without a vatom device or its
 * polling queues; the harness of 6.1 runs the test after a skipping
 * setup, so each test checks @skip first.
 */
static int qp_fixture_open(bool *skip)
{
	int fd = vt_open();

	*skip = fd == -ENODEV;
	if (fd >= 0 && !qp_supported(fd)) {
		close(fd);
		*skip = true;
		fd = -1;
	}
	return fd;
}

static __u64 qp_param(int fd, __u32 param)
{
	__u64 v = VT_POISON64;

	vt_get_param(fd, param, 0, &v);
	return v;
}

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

#define QP_POLL		DRM_VATOM_QUEUE_CREATE_POLL
#define QP_EVENTFD	DRM_VATOM_QUEUE_CREATE_EVENTFD

static const struct qp_create_case {
	const char *name;
	__u32 entries;
	__u32 flags;
	enum qp_idle idle;
	__u32 pad;
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
	{ "pad_poll",		 8, QP_POLL, QP_IDLE_0, 1, QP_SYNC_NONE, QP_EFD_ZERO, false,
	  EINVAL },
	{ "pad_high",		 8, 0, QP_IDLE_0, 1u << 31, QP_SYNC_NONE, QP_EFD_ZERO, false,
	  EINVAL },
	{ "pad_signals",	 8, QP_EVENTFD, QP_IDLE_0, 1, QP_SYNC_GOOD, QP_EFD_GOOD, false,
	  EINVAL },
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
	{ "flag_unknown_poll",	 8, QP_POLL | (QP_EVENTFD << 1), QP_IDLE_0, 0, QP_SYNC_NONE,
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
		a.pad = t->pad;
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
	qp_expect_live(_metadata, &live);
	close(pfd[0]);
	close(pfd[1]);
	close(efd);
	close(fd2);
	close(fd);
}

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
			for (k = 0; k < 16; k++)
				ASSERT_EQ((__u32)(sum * (k + 1)), res[k])
					TH_LOG("job %u lane %u", i, k);
			sum += i % 5 + 1;
		}
	}
	for (k = 0; k < 16; k++)
		EXPECT_EQ((__u32)(sum * (k + 1)), v->target[k]) TH_LOG("word %u", k);
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

/* Ring entries @first.. of @v: jobs of @packets broadcasts at @offset of the streams. */
static void qp_broadcast_jobs(struct qp_env *v, __u32 first, __u32 n, __u32 packets,
			      __u32 offset)
{
	struct drm_vatom_noc *p = ab_broadcasts(packets);
	__u32 i;

	memcpy((char *)v->streams + offset, p, packets * sizeof(*p));
	free(p);
	for (i = first; i < first + n; i++) {
		struct drm_vatom_queue_job *j = &v->q.ring[i & (v->q.entries - 1)];

		memset(j, 0, sizeof(*j));
		j->stream_slot = VQ_SLOT_STREAM;
		j->stream_offset = offset;
		j->stream_size = packets * sizeof(*p);
		j->status = QP_UNTOUCHED;
	}
}

/*
 * After poll_idle_us without work the poller sets NEED_WAKEUP and sleeps:
 * jobs published then wait for a KICK. The KICK returns at once; the
 * poller clears the flag while it consumes, and sets it again once idle.
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
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, v.q.ring[i].status) TH_LOG("job %u", i);
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
		for (i = 0; i < 8; i++)
			EXPECT_EQ(0, v.q.ring[i].status) TH_LOG("job %u", i);
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
 * @grid: the grid (test_abuse.c's 64 x 64), imported, at slot 0
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

/* Tile (0, 0)'s count: broadcasts executed so far (all tiles alike). */
static __u32 qp_grid_count(const __u8 *map)
{
	return __atomic_load_n((const __u32 *)(map + AB_L1_BASE), __ATOMIC_RELAXED);
}

/* Wait up to @ms until the grid shows a broadcast. */
static bool qp_grid_started(const __u8 *map, int ms)
{
	long long end = va_now_ns() + ms * VA_NS_PER_MS;

	while (!qp_grid_count(map) && va_now_ns() < end)
		usleep(200);
	return qp_grid_count(map) != 0;
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

FIXTURE(qpoll_busy) {
	bool skip;
	int fd;
	__u32 grid;
	__u8 *map;
	__u64 size;
	int dmabuf;
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
	self->dmabuf = -1;
	self->map = NULL;
	self->fd = qp_fixture_open(&self->skip);
	if (self->skip)
		SKIP(return, "no vatom device, or no polling queues");
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, ab_grid_create(self->fd, &self->grid, &self->size));
	self->map = vt_map(self->fd, self->grid, self->size);
	ASSERT_NE(NULL, self->map);
	ASSERT_EQ(0, vt_prime_export(self->fd, self->grid, &self->dmabuf));
}

FIXTURE_TEARDOWN(qpoll_busy)
{
	if (self->map)
		munmap(self->map, self->size);
	if (self->dmabuf >= 0)
		close(self->dmabuf);
	if (self->fd >= 0)
		close(self->fd);
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

	if (self->skip)
		SKIP(return, "no vatom device, or no polling queues");
	qp_live(&base);
	if (variant->end == QP_END_DESTROY || variant->end == QP_END_CLOSE) {
		ret = qp_busy_start(self->dmabuf, &b);
		ASSERT_EQ(0, ret) TH_LOG("busy queue: %s", strerror(-ret));
		ASSERT_TRUE(qp_grid_started(self->map, 6 * QP_DONE_MS));
		t0 = va_now_ns();
		if (variant->end == QP_END_DESTROY) {
			EXPECT_EQ(0, vq_destroy(b.fd, b.q.id));
		} else {
			close(b.fd);
			qp_busy_unmap(&b);
		}
		stop_ns = va_now_ns() - t0;
	} else {
		ASSERT_EQ(0, pipe(up));
		ASSERT_EQ(0, pipe(down));
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid) {
			close(up[0]);
			close(down[1]);
			ret = qp_busy_start(self->dmabuf, &b);
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
		ASSERT_TRUE(qp_grid_started(self->map, 6 * QP_DONE_MS));
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
	count = ab_common_count(self->map);
	TH_LOG("%lld broadcasts of %u ran", count, QP_BUSY_JOBS * QP_BUSY_PACKETS);
	ASSERT_LE(1, count) TH_LOG("not the same count on every tile");
	EXPECT_GT(QP_BUSY_JOBS * QP_BUSY_PACKETS, count) TH_LOG("every job ran");
	va_sleep_ms(100);
	EXPECT_EQ(count, ab_common_count(self->map));

	if (variant->end == QP_END_DESTROY) {
		/* The queue's own view: statuses, the count, the id gone. */
		done = vq_completed(&b.q);
		TH_LOG("%llu of %u jobs completed", (unsigned long long)done, QP_BUSY_JOBS);
		ASSERT_LE(1, done);
		for (i = 0; i + 1 < done; i++)
			ASSERT_EQ(0, b.q.ring[i].status) TH_LOG("job %u", i);
		full = done - 1;
		st = b.q.ring[done - 1].status;
		EXPECT_TRUE(!st || st == -ECANCELED || st == -EINTR) TH_LOG("status %d", st);
		full += !st;
		for (i = done; i < QP_BUSY_JOBS; i++)
			ASSERT_EQ(QP_UNTOUCHED, b.q.ring[i].status) TH_LOG("job %u", i);
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
			seen = ab_common_count(self->map);
			EXPECT_EQ(count + 1, seen);
			free(p);
		}
		close(b.fd);
		qp_busy_unmap(&b);
	}
	qp_expect_live(_metadata, &base);
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
	if (base.pollers >= 0)
		ASSERT_EQ(0, base.pollers) TH_LOG("polling queues left by someone else");
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
	if (base.pollers >= 0)
		EXPECT_EQ(max, now.pollers);
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
	for (i = 0; i < on2; i++)
		EXPECT_LT(0, qp_poller(fd3)) TH_LOG("slot %u of %u freed by close", i + 1, on2);
	EXPECT_EQ(-EBUSY, qp_poller(fd3));
	close(fd3);
	close(fd1);
	qp_expect_live(_metadata, &base);
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
	for (k = 0; k < 16; k++)
		EXPECT_EQ(3 * (k + 1), v.target[k]);
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
	for (k = 0; k < 16; k++)
		EXPECT_EQ((2 * rounds * e + 1000 * x.iters) * (k + 1), v.target[k])
			TH_LOG("word %u", k);
}

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
	self->fd = qp_fixture_open(&self->skip);
	if (self->skip)
		SKIP(return, "no vatom device, or no polling queues");
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
