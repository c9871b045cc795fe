// SPDX-License-Identifier: MIT
/*
 * User-mode queues of the in-process device, in kick mode, as vatom.ko's
 * vatom_queue_ioctl.c and vatom_queue.c: a ring of descriptors and a
 * control page in two buffers the caller maps, a binding table fixed at
 * creation, and a KICK that consumes the ring from its head to the tail
 * it reads, in the calling thread, one KICK of a queue at a time. Each
 * job is the driver's: the descriptor copied once and checked by the
 * same rule (vatom_rule_queue_job()), the stream copied from its surface
 * and validated whole, executed by the execution core within the job
 * timeout (exec.c), its status, head and completed count published in
 * that order; after the batch, a point on the queue's timeline syncobj
 * and a write to its eventfd.
 *
 * In polling mode the device's poller (poller.c) consumes as the tail
 * moves; a KICK wakes it when it sleeps, and while it is awake consumes
 * as in kick mode.
 */

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device.h"
#include "poller.h"

/**
 * struct shim_queue - one user-mode queue (vatom_queue)
 * @refs: the file's table's, and each KICK's
 * @f: its file
 * @entries: descriptors in the ring, a power of two
 * @lock: one KICK at a time; protects @head, @completed, @chain
 * @dead: destroyed: a KICK stops after its current job
 * @ring_surf: the ring's buffer, referenced
 * @ctl_surf: the control page's, referenced
 * @ring: the ring, in the shim's mapping
 * @ctl: the control page
 * @head: the next position to consume
 * @completed: jobs completed since creation
 * @surf: the bound surfaces, by slot, referenced
 * @b: their views
 * @syncobj: the timeline it adds a point to per batch, or NULL
 * @chain: the next point's node, allocated before the batch
 * @eventfd: a descriptor of the eventfd it signals per batch, or -1
 * @sb: the copy of the stream of the job it consumes, charged to the file
 * @poller: polling mode: its poller, referenced; NULL in kick mode
 * @idle_ns: polling mode: its idle time
 */
struct shim_queue {
	atomic_uint refs;
	struct shim_file *f;
	u32 entries;
	struct shim_mutex lock;
	atomic_bool dead;
	struct shim_surface *ring_surf, *ctl_surf;
	struct drm_vatom_queue_job *ring;
	struct drm_vatom_queue_ctl *ctl;
	u32 head;
	u64 completed;
	struct shim_surface *surf[DRM_VATOM_MAX_SLOTS];
	struct vatom_bindings b;
	struct shim_syncobj *syncobj;
	struct shim_chain *chain;
	int eventfd;
	struct shim_stream_buf sb;
	struct shim_poller *poller;
	u64 idle_ns;
};

static void shim_queue_put(struct shim_queue *q)
{
	u32 i;

	if (atomic_fetch_sub(&q->refs, 1) != 1)
		return;
	for (i = 0; i < DRM_VATOM_MAX_SLOTS; i++)
		if (q->surf[i])
			shim_surface_put(q->surf[i]);
	if (q->ring_surf)
		shim_surface_put(q->ring_surf);
	if (q->ctl_surf)
		shim_surface_put(q->ctl_surf);
	if (q->syncobj)
		shim_syncobj_put(q->syncobj);
	shim_chain_free(q->chain);
	shim_fd_private_close(q->eventfd);
	shim_account_uncharge(q->f->acct, sizeof(*q));
	shim_stream_buf_free(&q->sb, q->f->acct);
	if (q->poller)
		shim_poller_put_queue(q->poller);
	free(q);
}

/* The queue @id of @f, referenced, or NULL. */
static struct shim_queue *shim_queue_get(struct shim_file *f, u32 id)
{
	struct shim_queue *q = NULL;

	pthread_mutex_lock(&f->queues_lock);
	if (id && id <= VATOM_MAX_QUEUES) {
		q = f->queues[id - 1];
		if (q)
			atomic_fetch_add(&q->refs, 1);
	}
	pthread_mutex_unlock(&f->queues_lock);
	return q;
}

/*
 * Whether @cpu may run the poller: online, and one the caller may run on
 * (vatom_queue_poll_cpu_ok()).
 */
static bool shim_queue_cpu_ok(u32 cpu)
{
	cpu_set_t set;

	if (cpu >= CPU_SETSIZE || sched_getaffinity(0, sizeof(set), &set))
		return false;
	return CPU_ISSET(cpu, &set);
}

/* The queue's syncobj and eventfd (vatom_queue_get_signals()). */
static int shim_queue_get_signals(struct shim_queue *q,
				  const struct drm_vatom_queue_create *args)
{
	int fd;

	if (args->syncobj) {
		q->syncobj = shim_syncobj_find(q->f->syncobjs, args->syncobj);
		if (!q->syncobj)
			return -ENOENT;
	}
	if (args->flags & DRM_VATOM_QUEUE_CREATE_EVENTFD) {
		fd = shim_eventfd_get(args->eventfd);
		if (fd < 0)
			return fd;
		q->eventfd = fd;
	}
	return 0;
}

int shim_queue_create(struct shim_file *f, void *arg)
{
	struct drm_vatom_queue_create *args = arg;
	u32 ring_handle = 0, ctl_handle = 0, id;
	struct shim_queue *q;
	int ret;

	ret = vatom_rule_queue_create(args, shim_queue_cpu_ok);
	if (ret)
		return ret;

	ret = shim_account_charge(f->acct, sizeof(*q));
	if (ret)
		return ret;
	q = calloc(1, sizeof(*q));
	if (!q) {
		shim_account_uncharge(f->acct, sizeof(*q));
		return -ENOMEM;
	}
	atomic_init(&q->refs, 1);
	q->f = f;
	q->entries = args->entries;
	q->eventfd = -1;
	shim_mutex_init(&q->lock);

	ret = shim_bindings_read(f, (const void *)(uintptr_t)args->bindings,
				 args->binding_count, q->surf, &q->b, NULL, NULL);
	if (!ret)
		ret = shim_queue_get_signals(q, args);
	if (!ret)
		ret = shim_buffer_new(f, (u64)args->entries * sizeof(*q->ring),
				      &ring_handle, &q->ring_surf);
	if (ret)
		goto free;
	q->ring = (struct drm_vatom_queue_job *)q->ring_surf->view.vaddr;
	ret = shim_buffer_new(f, DRM_VATOM_QUEUE_CTL_SIZE, &ctl_handle,
			      &q->ctl_surf);
	if (ret)
		goto handles;
	q->ctl = (struct drm_vatom_queue_ctl *)q->ctl_surf->view.vaddr;
	if (args->flags & DRM_VATOM_QUEUE_CREATE_POLL) {
		/* Awake from the start; it sets NEED_WAKEUP when it sleeps. */
		ret = shim_queue_poll_start(f->dev,
					    args->flags & DRM_VATOM_QUEUE_CREATE_POLL_CPU ?
					    (int)args->poll_cpu : -1, &q->poller);
		if (ret)
			goto handles;
		q->idle_ns = (u64)(args->poll_idle_us ? args->poll_idle_us :
				   DRM_VATOM_QUEUE_POLL_IDLE_US_DEFAULT) * 1000;
	} else {
		/* Kick mode: every job needs a KICK. */
		__atomic_store_n(&q->ctl->flags, DRM_VATOM_QUEUE_CTL_NEED_WAKEUP,
				 __ATOMIC_RELAXED);
	}

	/* The lowest free id (xa_alloc() from 1), or -EBUSY. */
	pthread_mutex_lock(&f->queues_lock);
	for (id = 0; id < VATOM_MAX_QUEUES && f->queues[id]; id++)
		;
	if (id < VATOM_MAX_QUEUES) {
		if (q->poller)
			shim_queue_poll_attach(q, q->poller);
		f->queues[id] = q;
	}
	pthread_mutex_unlock(&f->queues_lock);
	if (id == VATOM_MAX_QUEUES) {
		ret = -EBUSY;
		goto poller;
	}
	args->queue_id = id + 1;
	args->ring_handle = ring_handle;
	args->ctl_handle = ctl_handle;
	return 0;

poller:
	if (q->poller)
		shim_queue_poll_stop(q, q->poller);
handles:
	if (ctl_handle)
		shim_handle_delete(f, ctl_handle);
	shim_handle_delete(f, ring_handle);
free:
	shim_queue_put(q);
	return ret;
}

/*
 * Destroyed: a KICK or the poller's batch under way stops after its job;
 * the poller lets go of it; the table's reference.
 */
static void shim_queue_destroy(struct shim_queue *q)
{
	atomic_store(&q->dead, true);
	if (q->poller)
		shim_queue_poll_stop(q, q->poller);
	shim_queue_put(q);
}

int shim_queue_destroy_ioctl(struct shim_file *f, void *arg)
{
	struct drm_vatom_queue_destroy *args = arg;
	struct shim_queue *q = NULL;

	if (args->pad)
		return -EINVAL;
	pthread_mutex_lock(&f->queues_lock);
	if (args->queue_id && args->queue_id <= VATOM_MAX_QUEUES) {
		q = f->queues[args->queue_id - 1];
		f->queues[args->queue_id - 1] = NULL;
	}
	pthread_mutex_unlock(&f->queues_lock);
	if (!q)
		return -ENOENT;
	shim_queue_destroy(q);
	return 0;
}

/* At the file's release: every queue it still has. */
void shim_file_queues_release(struct shim_file *f)
{
	u32 i;

	for (i = 0; i < VATOM_MAX_QUEUES; i++) {
		if (f->queues[i])
			shim_queue_destroy(f->queues[i]);
		f->queues[i] = NULL;
	}
}

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
static bool shim_queue_tail_ok(struct shim_queue *q, u32 tail)
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

/*
 * vatom_queue_drain(): consume the ring from the head to @tail, then
 * signal; @polled: the consumer is the poller, which also stops between
 * two jobs when a detach waits for it. Return: 0, -ENOMEM (the syncobj
 * point: nothing consumed).
 */
static int shim_queue_drain(struct shim_queue *q, u32 tail, bool polled)
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
		if (polled && shim_poller_detaching(q->poller))
			break;	/* the poller comes back to it */
		shim_queue_consume(q, &x);
	}
	if (q->completed != completed)
		shim_queue_signal(q);
	return 0;
}

int shim_queue_kick(struct shim_file *f, void *arg)
{
	struct drm_vatom_queue_kick *args = arg;
	struct shim_queue *q;
	u64 completed;
	int ret = 0;
	u32 tail;

	if (args->pad)
		return -EINVAL;
	q = shim_queue_get(f, args->queue_id);
	if (!q)
		return -ENOENT;
	/*
	 * Polling mode: wake a sleeping poller, which consumes; while it is
	 * awake (or has no thread: a fork()ed child's) consume as in kick
	 * mode, after the batch it may be running here.
	 */
	if (q->poller && !shim_poller_orphan(q->poller)) {
		tail = __atomic_load_n(&q->ctl->tail, __ATOMIC_ACQUIRE);
		if (!shim_queue_tail_ok(q, tail)) {
			ret = -EINVAL;
			goto put;
		}
		if (shim_poller_wake(q->poller))
			goto put;
	}
	shim_mutex_lock(&q->lock);
	tail = __atomic_load_n(&q->ctl->tail, __ATOMIC_ACQUIRE);
	completed = q->completed;
	ret = shim_queue_tail_ok(q, tail) ? shim_queue_drain(q, tail, false) : -EINVAL;
	if (q->poller && q->completed != completed)
		shim_poller_kicked(q->poller);
	shim_mutex_unlock(&q->lock);
put:
	shim_queue_put(q);
	return ret;
}

/* --- for the poller (poller.h) */

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

void shim_queue_poll_drain(struct shim_queue *q)
{
	int ret = 0;
	u32 tail;

	if (!shim_mutex_trylock(&q->lock))
		return;		/* a KICK is at it: move on */
	if (shim_queue_has_work(q, &tail))
		ret = shim_queue_drain(q, tail, true);
	shim_mutex_unlock(&q->lock);
	/* Out of memory for the syncobj point: nothing consumed; back off. */
	if (ret == -ENOMEM)
		usleep(1000);
}

/* In a fork()ed child: a KICK or the poller may have held the lock. */
void shim_file_queues_after_fork(struct shim_file *f)
{
	u32 i;

	for (i = 0; i < VATOM_MAX_QUEUES; i++)
		if (f->queues[i])
			shim_mutex_init(&f->queues[i]->lock);
}
