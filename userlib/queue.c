// SPDX-License-Identifier: MIT
/*
 * libvatom: user-mode queues (docs/queues.md). A queue owns, beside the
 * kernel's ring and control page, one stream surface and one results
 * surface, each cut into one area per ring entry: the job at ring
 * position p has its stream and its results in area p & (entries - 1),
 * which is free again once the job is complete. The producer side is
 * not thread-safe (one thread commits); vatom_queue_wait() may be called
 * from any thread. In polling mode a kernel thread consumes, and a kick
 * is a system call only when it sleeps.
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <sched.h>

#include <xf86drm.h>

#include "internal.h"

struct vatom_queue {
	struct vatom_device *dev;
	uint32_t id;
	uint32_t entries;
	uint32_t stream_bytes;
	uint32_t results_bytes;
	uint32_t ring_handle;
	uint32_t ctl_handle;
	uint32_t stream_slot;
	uint32_t results_slot;
	struct drm_vatom_queue_job *ring;
	size_t ring_len;
	struct drm_vatom_queue_ctl *ctl;
	struct vatom_surface *streams;
	struct vatom_surface *results;
	uint8_t *stream_map;
	uint8_t *results_map;
	uint32_t tail;			/* our producer position */
	uint64_t submitted;		/* jobs committed: the last seqno */
	bool polling;			/* a kernel thread consumes */
	uint32_t syncobj;		/* the kernel adds point n at job n */
};

VATOM_API void vatom_queue_destroy(struct vatom_queue *q)
{
	struct drm_vatom_queue_destroy d;

	if (!q)
		return;
	if (q->id) {
		d = (struct drm_vatom_queue_destroy){ .queue_id = q->id };
		vatom__ioctl(q->dev->fd, DRM_IOCTL_VATOM_QUEUE_DESTROY, &d);
	}
	if (q->ring)
		munmap(q->ring, q->ring_len);
	if (q->ctl)
		munmap(q->ctl, DRM_VATOM_QUEUE_CTL_SIZE);
	vatom__gem_close(q->dev, q->ring_handle);
	vatom__gem_close(q->dev, q->ctl_handle);
	vatom_surface_destroy(q->streams);
	vatom_surface_destroy(q->results);
	free(q);
}

/* The two highest slots @b leaves free: 0, or -ENOSPC. */
static int free_slots(const struct vatom_batch *b, uint32_t *s1, uint32_t *s2)
{
	int slot, found = 0;

	for (slot = DRM_VATOM_MAX_SLOTS - 1; slot >= 0 && found < 2; slot--) {
		if (b && b->slots[slot])
			continue;
		if (!found++)
			*s1 = slot;
		else
			*s2 = slot;
	}
	return found == 2 ? 0 : -ENOSPC;
}

VATOM_API int vatom_queue_create(struct vatom_device *dev,
				 const struct vatom_queue_params *p,
				 const struct vatom_batch *bindings,
				 struct vatom_queue **qp)
{
	return vatom_queue_create_ext(dev, p, NULL, bindings, qp);
}

/* The device features @ext needs: 0, -EINVAL or -EOPNOTSUPP. */
static int check_ext(const struct vatom_device *dev,
		     const struct vatom_queue_ext *ext)
{
	if (!ext)
		return 0;
	if (ext->flags & ~(VATOM_QUEUE_POLL | VATOM_QUEUE_EVENTFD |
			   VATOM_QUEUE_POLL_CPU) ||
	    (ext->poll_idle_us && !(ext->flags & VATOM_QUEUE_POLL)) ||
	    (ext->eventfd && !(ext->flags & VATOM_QUEUE_EVENTFD)) ||
	    ((ext->flags & VATOM_QUEUE_POLL_CPU) && !(ext->flags & VATOM_QUEUE_POLL)))
		return -EINVAL;
	if ((ext->flags & VATOM_QUEUE_POLL) && !(dev->caps & DRM_VATOM_CAP_QUEUE_POLL))
		return -EOPNOTSUPP;
	if ((ext->flags & VATOM_QUEUE_POLL_CPU) &&
	    !(dev->caps & DRM_VATOM_CAP_QUEUE_POLL_CPU))
		return -EOPNOTSUPP;
	if ((ext->syncobj || (ext->flags & VATOM_QUEUE_EVENTFD)) &&
	    !(dev->caps & DRM_VATOM_CAP_QUEUE_SIGNAL))
		return -EOPNOTSUPP;
	return 0;
}

VATOM_API int vatom_queue_create_ext(struct vatom_device *dev,
				     const struct vatom_queue_params *p,
				     const struct vatom_queue_ext *ext,
				     const struct vatom_batch *bindings,
				     struct vatom_queue **qp)
{
	struct drm_vatom_binding bind[DRM_VATOM_MAX_SLOTS];
	struct drm_vatom_queue_create args = { 0 };
	struct vatom_queue *q;
	uint32_t n = 0, slot;
	void *map;
	int ret;

	if (!dev || !p || !qp || !p->entries || (p->entries & (p->entries - 1)) ||
	    !p->stream_bytes || p->stream_bytes % 8 || p->results_bytes % 8)
		return -EINVAL;
	if (!(dev->caps & DRM_VATOM_CAP_QUEUE))
		return -EOPNOTSUPP;
	ret = check_ext(dev, ext);
	if (ret)
		return ret;
	if (bindings && bindings->dev != dev)
		return -EINVAL;
	q = calloc(1, sizeof(*q));
	if (!q)
		return -ENOMEM;
	q->dev = dev;
	q->entries = p->entries;
	q->stream_bytes = p->stream_bytes;
	q->results_bytes = p->results_bytes;
	ret = free_slots(bindings, &q->stream_slot, &q->results_slot);
	if (ret)
		goto fail;

	ret = vatom_surface_create_buffer(dev, (uint64_t)p->entries * p->stream_bytes,
					  0, &q->streams);
	if (!ret)
		ret = vatom_surface_map(q->streams, &map);
	if (ret)
		goto fail;
	q->stream_map = map;
	bind[n++] = (struct drm_vatom_binding){ .slot = q->stream_slot,
						.handle = q->streams->handle };
	if (p->results_bytes) {
		ret = vatom_surface_create_buffer(dev, (uint64_t)p->entries *
						  p->results_bytes, 0, &q->results);
		if (!ret)
			ret = vatom_surface_map(q->results, &map);
		if (ret)
			goto fail;
		q->results_map = map;
		bind[n++] = (struct drm_vatom_binding){ .slot = q->results_slot,
							.handle = q->results->handle };
	}
	for (slot = 0; bindings && slot < DRM_VATOM_MAX_SLOTS; slot++)
		if (bindings->slots[slot])
			bind[n++] = (struct drm_vatom_binding){
				.slot = slot, .handle = bindings->slots[slot]->handle };

	args.entries = p->entries;
	args.bindings = (uintptr_t)bind;
	args.binding_count = n;
	if (ext) {
		/* VATOM_QUEUE_* are the UAPI's DRM_VATOM_QUEUE_CREATE_* bits. */
		args.flags = ext->flags;
		args.poll_idle_us = ext->poll_idle_us;
		args.syncobj = ext->syncobj;
		args.eventfd = ext->eventfd;
		/* Read only with its flag: a 0.6 caller's struct ends before it. */
		if (ext->flags & VATOM_QUEUE_POLL_CPU)
			args.poll_cpu = ext->poll_cpu;
		q->polling = ext->flags & VATOM_QUEUE_POLL;
		q->syncobj = ext->syncobj;
	}
	ret = vatom__ioctl(dev->fd, DRM_IOCTL_VATOM_QUEUE_CREATE, &args);
	if (ret)
		goto fail;
	q->id = args.queue_id;
	q->ring_handle = args.ring_handle;
	q->ctl_handle = args.ctl_handle;
	/* mmap() and munmap() round the length to pages themselves */
	q->ring_len = (size_t)p->entries * sizeof(*q->ring);
	ret = vatom__gem_map(dev, q->ring_handle, q->ring_len, &map);
	if (ret)
		goto fail;
	q->ring = map;
	ret = vatom__gem_map(dev, q->ctl_handle, DRM_VATOM_QUEUE_CTL_SIZE, &map);
	if (ret)
		goto fail;
	q->ctl = map;
	*qp = q;
	return 0;
fail:
	vatom_queue_destroy(q);
	return ret;
}

VATOM_API uint64_t vatom_queue_completed(const struct vatom_queue *q)
{
	/* Pairs with the kernel's release: statuses and results come after. */
	return __atomic_load_n(&q->ctl->completed, __ATOMIC_ACQUIRE);
}

VATOM_API int vatom_queue_reserve(struct vatom_queue *q, uint32_t stream_size,
				  void **stream)
{
	if (stream_size > q->stream_bytes || stream_size % 8)
		return -E2BIG;
	/* The area is free once the job entries positions back is complete. */
	if (q->submitted - vatom_queue_completed(q) >= q->entries)
		return -EAGAIN;
	*stream = q->stream_map + (size_t)(q->tail & (q->entries - 1)) * q->stream_bytes;
	return 0;
}

VATOM_API uint64_t vatom_queue_commit(struct vatom_queue *q, uint32_t stream_size,
				      uint64_t results_size)
{
	uint32_t e = q->tail & (q->entries - 1);
	struct drm_vatom_queue_job *j = &q->ring[e];

	memset(j, 0, sizeof(*j));
	j->stream_slot = q->stream_slot;
	j->stream_offset = (uint64_t)e * q->stream_bytes;
	j->stream_size = stream_size;
	if (results_size) {
		j->results_slot = q->results_slot;
		j->results_offset = (uint64_t)e * q->results_bytes;
		j->results_size = q->results_bytes;
	}
	q->tail++;
	/* Pairs with the kernel's acquire: the descriptor comes first. */
	__atomic_store_n(&q->ctl->tail, q->tail, __ATOMIC_RELEASE);
	return ++q->submitted;
}

VATOM_API int vatom_queue_submit_batch(struct vatom_queue *q,
				       const struct vatom_batch *b,
				       uint64_t *seqno)
{
	void *stream;
	int ret;

	if (b->results_size > q->results_bytes || b->size > UINT32_MAX)
		return -E2BIG;
	ret = vatom_queue_reserve(q, (uint32_t)b->size, &stream);
	if (ret)
		return ret;
	memcpy(stream, b->stream, b->size);
	*seqno = vatom_queue_commit(q, (uint32_t)b->size, b->results_size);
	return 0;
}

VATOM_API int vatom_queue_kick(struct vatom_queue *q)
{
	struct drm_vatom_queue_kick k = { .queue_id = q->id };

	/*
	 * Order the tail store (commit) before the flags load: a poller
	 * going to sleep stores the flag, then loads the tail; one of the
	 * two sees the other (io_uring's SQPOLL rule).
	 */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (!(__atomic_load_n(&q->ctl->flags, __ATOMIC_ACQUIRE) &
	      DRM_VATOM_QUEUE_CTL_NEED_WAKEUP))
		return 0;
	return vatom__ioctl(q->dev->fd, DRM_IOCTL_VATOM_QUEUE_KICK, &k);
}

/*
 * A waiter's kick: in kick mode only when the kernel asks for it; in
 * polling mode always, since the ioctl then wakes a sleeping poller or,
 * while the poller is awake (maybe serving the process's other queues),
 * consumes this one in the calling thread rather than leave it waiting
 * its turn.
 */
static int queue_wait_kick(struct vatom_queue *q)
{
	struct drm_vatom_queue_kick k = { .queue_id = q->id };

	if (!q->polling)
		return vatom_queue_kick(q);
	return vatom__ioctl(q->dev->fd, DRM_IOCTL_VATOM_QUEUE_KICK, &k);
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * Busy polls of the completed count (each a sched_yield()) before the
 * first kick, then sleeps. Few: with 8 busy polling queues of a process on
 * 2 vCPUs, 4 spins gave 0.74x kick mode's aggregate against 0.25x with
 * 64, since a prompt kick does the job on the waiter's own CPU; one queue
 * lost a little (0.8-1.0x against 1.0-1.15x; bench/results.md, M). None
 * while the poller has stepped aside (KICK_TO_WAIT): no one else will.
 */
#define QUEUE_SPINS	4

/*
 * Block until job @seqno completes: a timeline wait for point @seqno of
 * the queue's syncobj, which the kernel adds once the batch holding the
 * job is complete (docs/queues.md); WAIT_FOR_SUBMIT, since the point does
 * not exist before. The eventfd is not used: reading it would take the
 * count from the caller's own poll() loop.
 */
static int wait_syncobj(struct vatom_queue *q, uint64_t seqno,
			int64_t timeout_ns)
{
	uint32_t handle = q->syncobj;
	uint64_t point = seqno;
	struct drm_syncobj_timeline_wait w = {
		.handles = (uintptr_t)&handle,
		.points = (uintptr_t)&point,
		.count_handles = 1,
		.timeout_nsec = INT64_MAX,
		.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
	};
	int ret;

	if (timeout_ns >= 0 && now_ns() < INT64_MAX - timeout_ns)
		w.timeout_nsec = now_ns() + timeout_ns;
	ret = vatom__ioctl(q->dev->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w);
	/* completed is the truth; the wait only saves the polling */
	if (ret && vatom_queue_completed(q) >= seqno)
		return 0;
	return ret;
}

VATOM_API int vatom_queue_wait(struct vatom_queue *q, uint64_t seqno,
			       int64_t timeout_ns)
{
	struct timespec ts = { 0, 1000 };
	int64_t deadline = 0;
	int i, ret;

	if (seqno > q->submitted)
		return -EINVAL;
	for (i = 0; i < QUEUE_SPINS; i++) {
		if (vatom_queue_completed(q) >= seqno)
			return 0;
		if (__atomic_load_n(&q->ctl->flags, __ATOMIC_RELAXED) &
		    DRM_VATOM_QUEUE_CTL_KICK_TO_WAIT)
			break;
		/* Gives the CPU to a poller that shares it, if any. */
		sched_yield();
	}
	/*
	 * Kick mode: a kick consumes up to the tail before it returns.
	 * Polling mode: it wakes the poller if it sleeps, or consumes
	 * while the poller is elsewhere.
	 */
	ret = queue_wait_kick(q);
	if (ret && ret != -EINTR)
		return ret;
	if (vatom_queue_completed(q) >= seqno)
		return 0;
	/* The kernel signals this queue: sleep on it rather than poll. */
	if (q->syncobj)
		return wait_syncobj(q, seqno, timeout_ns);
	if (timeout_ns >= 0)
		deadline = now_ns() + timeout_ns;
	while (vatom_queue_completed(q) < seqno) {
		if (timeout_ns >= 0 && now_ns() >= deadline)
			return -ETIME;
		/* Another thread's kick, or the poller, is consuming. */
		nanosleep(&ts, NULL);
		if (ts.tv_nsec < 1000000)
			ts.tv_nsec *= 2;
		if (q->polling) {
			ret = queue_wait_kick(q);
			if (ret && ret != -EINTR)
				return ret;
		}
	}
	return 0;
}

/* The ring entry of job @seqno, or NULL when it is not complete or reused. */
static const struct drm_vatom_queue_job *job_entry(const struct vatom_queue *q,
						   uint64_t seqno, int *err)
{
	if (!seqno || seqno > q->submitted || q->submitted - seqno >= q->entries) {
		*err = -ENOENT;
		return NULL;
	}
	if (vatom_queue_completed(q) < seqno) {
		*err = -EBUSY;
		return NULL;
	}
	return &q->ring[(seqno - 1) & (q->entries - 1)];
}

VATOM_API int vatom_queue_job_status(const struct vatom_queue *q, uint64_t seqno,
				     uint32_t *index, uint32_t *reason)
{
	const struct drm_vatom_queue_job *j;
	int err = 0;

	j = job_entry(q, seqno, &err);
	if (!j)
		return err;
	if (index)
		*index = j->error_index;
	if (reason)
		*reason = j->error_reason;
	return j->status;
}

VATOM_API const void *vatom_queue_job_results(const struct vatom_queue *q,
					      uint64_t seqno)
{
	int err = 0;

	if (!q->results_map || !job_entry(q, seqno, &err))
		return NULL;
	return q->results_map + (size_t)((seqno - 1) & (q->entries - 1)) * q->results_bytes;
}

VATOM_API int vatom_queue_batch_results(const struct vatom_queue *q, uint64_t seqno,
					struct vatom_batch *b)
{
	const struct drm_vatom_queue_job *j;
	int err = 0;

	j = job_entry(q, seqno, &err);
	if (!j)
		return err;
	b->last_ret = j->status;
	b->err_index = j->error_index;
	b->err_reason = j->error_reason;
	b->results = j->status || !b->results_size ? NULL :
		     vatom_queue_job_results(q, seqno);
	return j->status;
}
