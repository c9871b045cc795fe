// SPDX-License-Identifier: MIT
/*
 * A user-mode queue's consumption, as vatom.ko's vatom_queue.c: each job
 * is the driver's, the descriptor copied once and checked by the same
 * rule (vatom_rule_queue_job()), the stream copied from its surface and
 * validated whole, executed by the execution core within the job timeout
 * (exec.c), its status, head and completed count published in that
 * order; after the batch, a point on the queue's timeline syncobj and a
 * write to its eventfd. A KICK (queue_ioctl.c) and the poller (poller.c)
 * drain through here.
 */

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "queue.h"

/*
 * vatom_queue_job(): run the job of descriptor @d (the shim's copy) and
 * fill in @err. Return: its status.
 */
static int shim_queue_job(struct shim_queue *q, const struct drm_vatom_queue_job *d,
			  struct shim_exec *x, struct vatom_stream_error *err)
{
	u64 needed = 0;
	int ret;

	/* The descriptor, on its own: DRM_VATOM_ERR_DESCRIPTOR at index 0. */
	err->reason = DRM_VATOM_ERR_DESCRIPTOR;
	ret = vatom_rule_queue_job(d, &q->b);
	if (ret)
		return ret;
	err->reason = DRM_VATOM_ERR_NONE;
	if (d->stream_size) {
		ret = shim_stream_buf_reserve(&q->sb, q->f->acct, d->stream_size);
		if (ret)
			return ret;
		/* Our copy: the surface may change under us from here on. */
		memcpy(q->sb.buf, q->b.slot[d->stream_slot]->vaddr + d->stream_offset,
		       d->stream_size);
		ret = shim_exec_validate(x, q->sb.buf, d->stream_size, &q->b,
					 &needed, err);
		if (ret)
			return ret;
	}
	ret = vatom_rule_results_fit(needed, d->results_size, err);
	if (ret)
		return ret;
	return shim_exec_run(x, q->sb.buf, d->stream_size, &q->b,
			     needed ? q->b.slot[d->results_slot]->vaddr +
				      d->results_offset : NULL);
}

/* vatom_queue_consume(): the descriptor at the head, its outcome published. */
static void shim_queue_consume(struct shim_queue *q, struct shim_exec *x)
{
	struct drm_vatom_queue_job *slot = &q->ring[q->head & (q->entries - 1)];
	struct vatom_stream_error err = { 0 };
	struct drm_vatom_queue_job d;
	int ret;

	memcpy(&d, slot, sizeof(d));
	__atomic_signal_fence(__ATOMIC_SEQ_CST);	/* the one read of @slot */
	ret = shim_file_guilty(q->f) ? -EIO : shim_queue_job(q, &d, x, &err);

	__atomic_store_n(&slot->error_index, err.index, __ATOMIC_RELAXED);
	__atomic_store_n(&slot->error_reason, err.reason, __ATOMIC_RELAXED);
	__atomic_store_n(&slot->status, ret, __ATOMIC_RELAXED);
	__atomic_store_n(&q->head, q->head + 1, __ATOMIC_RELAXED);
	q->completed++;
	__atomic_store_n(&q->ctl->head, q->head, __ATOMIC_RELAXED);
	/* Pairs with userspace's acquire: status and results come first. */
	__atomic_store_n(&q->ctl->completed, q->completed, __ATOMIC_RELEASE);
}

/*
 * vatom_queue_tail_ok(): at most the ring's entries ahead of the head
 * (read once: the poller may move it under a polling queue's KICK).
 */
bool shim_queue_tail_ok(struct shim_queue *q, u32 tail)
{
	return tail - __atomic_load_n(&q->head, __ATOMIC_RELAXED) <= q->entries;
}

/* A point of the batch on the syncobj, a write to the eventfd. */
static void shim_queue_signal(struct shim_queue *q)
{
	struct shim_fence *fence;

	if (q->syncobj) {
		fence = shim_fence_new();
		if (fence) {
			shim_fence_signal(fence, 0);	/* dma_fence_get_stub() */
			shim_syncobj_add_point(q->syncobj, q->chain, fence,
					       q->completed);
			shim_fence_put(fence);
			q->chain = NULL;
		}
	}
	if (q->eventfd >= 0)
		shim_eventfd_signal(q->eventfd);
}

/**
 * shim_queue_drain() - vatom_queue_drain(): consume the ring from the
 * head to @tail, then signal
 * @q: the queue, its lock held
 * @tail: a tail shim_queue_tail_ok() accepted
 * @list: the poller's list when the poller drains, which stops between
 *	two jobs when a detach waits for its next copy; NULL for a KICK
 *
 * Return: 0, -ENOMEM (the syncobj point: nothing consumed).
 */
int shim_queue_drain(struct shim_queue *q, u32 tail,
		     struct shim_queue_list_gen *list)
{
	struct shim_exec x;
	u64 completed = q->completed;

	if (q->head == tail)
		return 0;
	shim_exec_init(&x, q->f, &q->dead);
	if (q->syncobj && !q->chain) {
		q->chain = shim_chain_alloc();
		if (!q->chain)
			return -ENOMEM;
	}
	while (q->head != tail && !atomic_load(&q->dead)) {
		if (list && atomic_load(&list->gen) != list->seen)
			break;	/* the poller comes back to it */
		shim_queue_consume(q, &x);
	}
	if (q->completed != completed)
		shim_queue_signal(q);
	return 0;
}

/* --- for the poller (queue.h) */

struct drm_vatom_queue_ctl *shim_queue_ctl(struct shim_queue *q)
{
	return q->ctl;
}

u64 shim_queue_idle_ns(struct shim_queue *q)
{
	return q->idle_ns;
}

bool shim_queue_has_work(struct shim_queue *q, u32 *tail)
{
	*tail = __atomic_load_n(&q->ctl->tail, __ATOMIC_ACQUIRE);
	return *tail != __atomic_load_n(&q->head, __ATOMIC_RELAXED) &&
	       shim_queue_tail_ok(q, *tail);
}

void shim_queue_poll_drain(struct shim_queue *q,
			   struct shim_queue_list_gen *list)
{
	int ret = 0;
	u32 tail;

	if (!shim_mutex_trylock(&q->lock))
		return;		/* a KICK is at it: move on */
	if (shim_queue_has_work(q, &tail))
		ret = shim_queue_drain(q, tail, list);
	shim_mutex_unlock(&q->lock);
	/* Out of memory for the syncobj point: nothing consumed; back off. */
	if (ret == -ENOMEM)
		usleep(1000);
}
