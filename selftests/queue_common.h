/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the queue tests (test_queue*.c, test_observe*.c):
 * kick-mode queues (vq_*) and polling queues with their completion signals
 * (qp_*), over async_common.h's. Compiled on its own (queue_common.c);
 * only the QP_EXPECT_LIVE() macro needs the harness, where it is expanded.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_SELFTEST_QUEUE_COMMON_H_
#define _VATOM_SELFTEST_QUEUE_COMMON_H_

#include "async_common.h"

/* ------------------------------------------------------------------------ */
/* Queues                                                                    */
/* ------------------------------------------------------------------------ */

/* Bytes of stream and of results each ring entry gets in the tests. */
#define VQ_STREAM_STRIDE	512
#define VQ_RES_STRIDE		128

/* Slots of the tests' binding table. */
#define VQ_SLOT_TARGET		0
#define VQ_SLOT_STREAM		1
#define VQ_SLOT_RESULTS		2

/**
 * struct vq - a queue under test and its mappings
 * @fd: the file
 * @id: queue id
 * @entries: ring entries
 * @ring_handle: GEM handle of the ring
 * @ctl_handle: GEM handle of the control page
 * @ring: the ring, mapped
 * @ctl: the control page, mapped
 * @tail: our producer position
 */
struct vq {
	int fd;
	__u32 id;
	__u32 entries;
	__u32 ring_handle;
	__u32 ctl_handle;
	struct drm_vatom_queue_job *ring;
	struct drm_vatom_queue_ctl *ctl;
	__u32 tail;
};

int vq_create_args(int fd, struct drm_vatom_queue_create *args);
int vq_destroy(int fd, __u32 id);
int vq_kick(int fd, __u32 id);
int vq_create_mapped(int fd, struct drm_vatom_queue_create *a, struct vq *q);
int vq_create(int fd, __u32 entries, const struct drm_vatom_binding *b,
	      __u32 n, struct vq *q);
struct drm_vatom_queue_job *vq_next(struct vq *q);
void vq_publish(struct vq *q, __u32 n);
__u64 vq_completed(const struct vq *q);
void vq_add16(struct vt_stream *s, __u32 inc, bool dst);
void vq_job(struct drm_vatom_queue_job *j, void *streams, __u32 e,
	    const struct vt_stream *s);
__u64 vq_charged(int fd);

/**
 * struct vq_submitter - vq_submit_thread()'s work
 * @fd: the file
 * @h: the surface bound at VQ_SLOT_TARGET
 * @iters: submissions to make
 * @err: 0, or the first submission's -errno
 */
struct vq_submitter {
	int fd;
	__u32 h;
	unsigned int iters;
	int err;
};

void *vq_submit_thread(void *arg);

/* ------------------------------------------------------------------------ */
/* Polling queues and completion signals                                     */
/* ------------------------------------------------------------------------ */

/* How long the tests wait for published jobs, and for a poller to stop. */
#define QP_DONE_MS		10000
#define QP_STOP_MS		2000
/* A short idle time: the poller sleeps soon after its last job. */
#define QP_IDLE_SHORT		1000
/* drm_vatom_queue_create.poll_idle_us at most (DRM_VATOM_PARAM_MAX_POLL_IDLE_US). */
#define QP_IDLE_MAX		1000000
/* What a status the kernel has not written yet holds. */
#define QP_UNTOUCHED		0x5eed

#define QP_POLL		DRM_VATOM_QUEUE_CREATE_POLL
#define QP_EVENTFD	DRM_VATOM_QUEUE_CREATE_EVENTFD
#define QP_POLL_CPU	DRM_VATOM_QUEUE_CREATE_POLL_CPU

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
	__u32 cpu;	/* with QP_POLL_CPU */
};

int qp_queue_create(int fd, __u32 entries, const struct drm_vatom_binding *b,
		    __u32 n, const struct qp_mode *m, struct vq *q);

/**
 * struct qp_env - a queue with target, stream and results surfaces bound at
 * VQ_SLOT_*: vq_env_init()'s kick-mode queue, or qp_env_init()'s with any
 * creation flags
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

int vq_env_init(struct qp_env *v, int fd, __u32 entries);
int qp_env_init(struct qp_env *v, int fd, __u32 entries, __u32 th,
		const struct qp_mode *m);
void qp_env_unmap(struct qp_env *v);
__u32 qp_flags(const struct vq *q);
int qp_publish(struct vq *q, __u32 n);
bool qp_wait_completed(const struct vq *q, __u64 n, int ms);
bool qp_wait_flags(const struct vq *q, __u32 mask, __u32 want, int ms);
__u32 qp_syncobj_create(int fd, __u32 flags);
int qp_syncobj_destroy(int fd, __u32 h);
long long qp_syncobj_query(int fd, __u32 h);
int qp_wait_point(int fd, __u32 h, __u64 point, __u32 flags, int ms);
long long qp_eventfd_take(int efd);

/**
 * struct qp_live - the device's live objects (debugfs), where readable
 * @surfaces: vatom_stats "surfaces", or -1
 * @poll_queues: vatom_limits "poll_queues", or -1
 * @pollers: vatom_limits "pollers" (threads, one per process), or -1
 */
struct qp_live {
	long long surfaces, poll_queues, pollers;
};

/* vatom_limits of the device vt_open() opens (set by qp_live()). */
extern char qp_limits_path[256];

void qp_live(struct qp_live *l);
void qp_live_settle(const struct qp_live *base, struct qp_live *now);

/* In a test: the live counts back at @base (waiting up to ~2 s for each). */
#define QP_EXPECT_LIVE(base) do {					\
	struct qp_live __now;						\
	qp_live_settle((base), &__now);					\
	if ((base)->surfaces >= 0)					\
		EXPECT_EQ((base)->surfaces, __now.surfaces);		\
	if ((base)->poll_queues >= 0)					\
		EXPECT_EQ((base)->poll_queues, __now.poll_queues);	\
	if ((base)->pollers >= 0)					\
		EXPECT_EQ((base)->pollers, __now.pollers);		\
} while (0)

void qp_broadcast_jobs(struct qp_env *v, __u32 first, __u32 n, __u32 packets,
		       __u32 offset);
pid_t qp_poller_tid(pid_t pid);

/* Polling queues and completion signals: what every test here needs. */
#define QP_CAPS		(DRM_VATOM_CAP_QUEUE_POLL | DRM_VATOM_CAP_QUEUE_SIGNAL)

bool qp_supported(int fd);
int qp_fixture_open_caps(bool *skip, __u64 caps);
int qp_fixture_open(bool *skip);
__u64 qp_param(int fd, __u32 param);

#endif /* _VATOM_SELFTEST_QUEUE_COMMON_H_ */
