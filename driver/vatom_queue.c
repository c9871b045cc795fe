// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * User-mode queues, the consumer side: draining a queue's ring
 * (docs/queues.md). The ioctls and the queue's lifetime are in
 * vatom_queue_ioctl.c, the polling thread in vatom_poller.c; both
 * consume through vatom_queue_drain().
 *
 * A queue has a ring of job descriptors and a control page, both buffer
 * surfaces the file holds handles to and maps, and a binding table fixed
 * at creation. The consumer takes the ring from the queue's head, which
 * lives in kernel memory (the page only shows it), to the tail userspace
 * last published: for each position it copies the descriptor, then the
 * stream the descriptor names, into kernel memory, and uses only those
 * copies. The ring, the streams and the control page can change under us
 * at any time; what a hostile or buggy writer gets is a failed job of its
 * own.
 *
 * Memory ordering (the io_uring SQ pattern): userspace writes descriptors,
 * then its tail with release semantics; the consumer reads the tail with
 * acquire, so it sees the descriptors. After each job it writes the
 * descriptor's status, then the head, then the completed count with
 * release; userspace reads the count with acquire, then the status and
 * results.
 *
 * The consumer is the kicking thread, or in polling mode the poller or a
 * KICK while the poller is awake; either drains the ring under the
 * queue's lock, then signals the syncobj point and eventfd of the batch.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <linux/dma-fence-chain.h>
#include <linux/mm.h>
#include <linux/sched.h>

#include <drm/drm_drv.h>
#include <drm/drm_syncobj.h>

#include "vatom_compat_kernel.h"
#include "vatom_exec.h"
#include "vatom_file.h"
#include "vatom_queue.h"
#include "vatom_trace.h"

static_assert(sizeof(struct drm_vatom_queue_job) == 64);
static_assert(sizeof(struct drm_vatom_queue_ctl) == 128);
static_assert(sizeof(struct drm_vatom_queue_ctl) <= DRM_VATOM_QUEUE_CTL_SIZE);

/*
 * Run the job of descriptor @d (the kernel's copy) under @x, adding what
 * it executed to @stats, and fill in @err; @ran says whether it got as
 * far as executing (in full or not).
 * Return: its status.
 */
static int vatom_queue_job(struct vatom_queue *q,
			   const struct drm_vatom_queue_job *d,
			   struct vatom_exec *x, struct vatom_stats *stats,
			   struct vatom_stream_error *err, bool *ran)
{
	const struct vatom_bindings *b = &q->table.bindings;
	u64 needed = 0, ops;
	int ret;

	/* The descriptor, on its own: DRM_VATOM_ERR_DESCRIPTOR at index 0. */
	err->reason = DRM_VATOM_ERR_DESCRIPTOR;
	ret = vatom_rule_queue_job(d, b);
	if (ret)
		return ret;
	err->reason = DRM_VATOM_ERR_NONE;

	if (d->stream_size) {
		ret = vatom_stream_buf_reserve(&q->stream, q->vfile->acct,
					       d->stream_size);
		if (ret)
			return ret;
		/* Our copy: the surface may change under us from here on. */
		memcpy(q->stream.buf, b->slot[d->stream_slot]->vaddr + d->stream_offset,
		       d->stream_size);
		ret = vatom_exec_validate(x, q->stream.buf, d->stream_size, b,
					  &needed, &ops, err);
		if (ret)
			return ret;
	}
	ret = vatom_rule_results_fit(needed, d->results_size, err);
	if (ret)
		return ret;
	*ran = true;
	x->results_size = needed;
	return vatom_exec_run(x, q->stream.buf, d->stream_size, b,
			      needed ? b->slot[d->results_slot]->vaddr +
				       d->results_offset : NULL,
			      stats);
}

/*
 * Consume the descriptor at the queue's head, adding what it executed to
 * @stats, and publish its outcome. A job completes unexecuted with
 * -ENODEV when the device is @gone (unbound), with -EIO when its file is
 * guilty.
 * Return: whether it was executed (in full or cut short).
 */
static bool vatom_queue_consume(struct vatom_queue *q, struct vatom_exec *x,
				struct vatom_stats *stats, bool gone)
{
	struct drm_vatom_queue_job *slot = &q->ring[q->head & (q->entries - 1)];
	struct vatom_stream_error err = {};
	struct drm_vatom_queue_job d;
	bool ran = false;
	int ret;

	lockdep_assert_held(&q->lock);
	/*
	 * The one read of the descriptor; the barrier keeps the compiler
	 * from reading @slot again where it could use @d.
	 */
	memcpy(&d, slot, sizeof(d));
	barrier();
	if (gone) {
		ret = -ENODEV;
	} else {
		ret = vatom_exec_admit(x);
		if (!ret) {
			/* The consumer's thread: the kicker's, or the poller's. */
			vatom_exec_accept(x, 0);
			ret = vatom_queue_job(q, &d, x, stats, &err, &ran);
		}
	}
	/* A job that ran and reset its file did so before its status shows. */
	if (ret && !ran)
		vatom_exec_rejected(q->vfile, ret,
				    err.reason && err.reason != DRM_VATOM_ERR_DESCRIPTOR ?
				    q->stream.buf : NULL, d.stream_size, &err);

	WRITE_ONCE(slot->error_index, err.index);
	WRITE_ONCE(slot->error_reason, err.reason);
	WRITE_ONCE(slot->status, ret);
	/* A polling queue's KICK reads the head to check the tail. */
	WRITE_ONCE(q->head, q->head + 1);
	q->completed++;
	WRITE_ONCE(q->ctl->head, q->head);
	/* Pairs with userspace's acquire: status and results come first. */
	smp_store_release(&q->ctl->completed, q->completed);
	return ran;
}

/* Add the point of the batch just consumed, and signal the eventfd. */
static void vatom_queue_signal(struct vatom_queue *q)
{
	struct dma_fence *fence;

	lockdep_assert_held(&q->lock);
	if (q->syncobj) {
		fence = dma_fence_get_stub();
		drm_syncobj_add_point(q->syncobj, q->chain, fence, q->completed);
		dma_fence_put(fence);
		q->chain = NULL;
	}
	if (q->eventfd)
		vatom_eventfd_signal(q->eventfd);
}

/**
 * vatom_queue_drain() - consume a batch: the ring from the head to @tail
 * @q: the queue, locked
 * @tail: a tail vatom_queue_tail_ok() accepted
 * @list: the generation of the poller's list when the poller consumes;
 *	NULL for a KICK
 *
 * Then adds the syncobj point and signals the eventfd, if anything was
 * consumed. Stops early when the queue is destroyed (the poller: at the
 * next checkpoint of the job it runs; a KICK: after it), the kicker is
 * killed, or (the poller) between two jobs when another queue of its
 * poller is being detached, which waits for it (vatom_queue_poll_stop()).
 * When the device goes away mid-batch, the job executing stops at its
 * next checkpoint and the rest of the batch completes with -ENODEV.
 *
 * Return: 0 once the batch is consumed, or left for the poller's next
 * turn; -ENODEV once consumed on a device that is gone; -ENOMEM when the
 * syncobj point cannot be allocated (nothing consumed); -EINTR when told
 * to stop with jobs left.
 */
int vatom_queue_drain(struct vatom_queue *q, u32 tail,
		      const struct vatom_queue_list_gen *list)
{
	bool polled = list;
	struct vatom_exec *x = &q->exec;
	u64 completed = q->completed, t0, ns, executed = 0;
	struct vatom_stats stats = {};
	int ret = 0, idx;
	bool gone;

	lockdep_assert_held(&q->lock);
	/*
	 * Nothing published since the last batch (a KICK that only checks,
	 * or one after the poller's batch): no section, no clock.
	 */
	if (q->head == tail)
		return 0;
	/* The poller stops when the queue is destroyed, a KICK when killed. */
	vatom_exec_init(x, q->vfile, polled ? VATOM_DOOR_POLL : VATOM_DOOR_KICK,
			polled ? &q->dead : NULL);
	if (q->syncobj && !q->chain) {
		q->chain = dma_fence_chain_alloc();
		if (!q->chain)
			return -ENOMEM;
	}
	/*
	 * One section for the batch: unbinding waits for it, and its stop
	 * rule stops it; once unbound, the poller completes what it finds.
	 */
	gone = !drm_dev_enter(&q->vfile->vdev->drm, &idx);
	t0 = vatom_busy_clock();
	while (q->head != tail && !READ_ONCE(q->dead)) {
		executed += vatom_queue_consume(q, x, &stats, gone);
		if (q->head == tail)
			break;	/* the batch is done: nothing left to stop */
		if (!gone && vatom_exec_gone(x)) {
			/* Unbound: leave the section, complete the rest. */
			drm_dev_exit(idx);
			gone = true;
		} else if (!gone && vatom_exec_stopped(x)) {
			ret = -EINTR;
			break;
		}
		/*
		 * The poller leaves the batch when a queue came or went: a
		 * detach waits for it to copy its list again, a wait this
		 * bounds by one job (the job timeout), not a batch. @seen is
		 * the poller's own, and this is the poller.
		 */
		if (list && READ_ONCE(list->gen) != list->seen)
			break;	/* the poller comes back to it */
		cond_resched();
	}
	if (!gone)
		drm_dev_exit(idx);
	else if (!ret)
		ret = -ENODEV;
	if (q->completed == completed)
		return ret;
	ns = vatom_busy_clock() - t0;
	vatom_exec_account(q->vfile, &stats, executed, ns);
	atomic64_add(executed, &q->vfile->submitted);
	atomic64_add(executed, &q->vfile->completed);
	vatom_queue_signal(q);
	if (trace_vatom_queue_batch_enabled())
		trace_vatom_queue_batch(q->vfile->client_id, q->id,
					completed + 1, q->completed - completed,
					q->completed - completed - executed,
					vatom_stats_elements(&stats), ns, polled);
	return ret;
}
