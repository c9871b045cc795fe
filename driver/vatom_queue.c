// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * User-mode queues: jobs submitted through a ring in shared memory, one
 * KICK ioctl for any number of them (docs/queues.md).
 *
 * A queue has a ring of job descriptors and a control page, both buffer
 * surfaces the file holds handles to and maps, and a binding table fixed
 * at creation. KICK consumes the ring from the queue's head, which lives
 * in kernel memory (the page only shows it), to the tail userspace last
 * published: for each position it copies the descriptor, then the stream
 * the descriptor names, into kernel memory, and uses only those copies.
 * The ring, the streams and the control page can change under us at any
 * time; what a hostile or buggy writer gets is a failed job of its own.
 *
 * Memory ordering (the io_uring SQ pattern): userspace writes descriptors,
 * then its tail with release semantics; KICK reads the tail with acquire,
 * so it sees the descriptors. After each job KICK writes the descriptor's
 * status, then the head, then the completed count with release;
 * userspace reads the count with acquire, then the status and results.
 *
 * The consumer is the kicking thread, or in polling mode the poller
 * (vatom_queue_poll.c) or a KICK while the poller is awake; either
 * drains the ring under the queue's lock with vatom_queue_drain(), then
 * signals the syncobj point and eventfd of the batch.
 *
 * Lifetimes: the file's xarray holds one reference to each queue; a KICK
 * takes another for its duration. DESTROY (or the file's release) erases
 * the queue, tells a running KICK to stop after its current job, takes it
 * from its poller (waiting until the poller has left it) and drops the
 * xarray's reference; the last reference frees the queue, its references
 * to the bound surfaces, ring, control page, syncobj, eventfd and poller,
 * and its charges. A queue
 * cannot outlive its file: a KICK is an ioctl of the file, and the file's
 * release destroys what is left. Nor the module: files pin it.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <linux/dma-fence-chain.h>
#include <linux/eventfd.h>
#include <linux/kref.h>
#include <linux/log2.h>
#include <linux/memcontrol.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_syncobj.h>

#include "vatom_compat_kernel.h"
#include "vatom_drv.h"
#include "vatom_job.h"
#include "vatom_limits.h"
#include "vatom_queue.h"
#include "vatom_trace.h"

static_assert(sizeof(struct drm_vatom_queue_job) == 64);
static_assert(sizeof(struct drm_vatom_queue_ctl) == 128);
static_assert(sizeof(struct drm_vatom_queue_ctl) <= DRM_VATOM_QUEUE_CTL_SIZE);

static void vatom_queue_free(struct kref *ref)
{
	struct vatom_queue *q = container_of(ref, struct vatom_queue, ref);
	struct vatom_account *acct = q->vfile->acct;

	vatom_binding_table_release(&q->table);
	vatom_queue_poll_put(q);
	mem_cgroup_put(q->memcg);
	if (q->syncobj)
		drm_syncobj_put(q->syncobj);
	dma_fence_chain_free(q->chain);
	if (q->eventfd)
		eventfd_ctx_put(q->eventfd);
	if (q->ring_surf)
		drm_gem_object_put(&q->ring_surf->shmem.base);
	if (q->ctl_surf)
		drm_gem_object_put(&q->ctl_surf->shmem.base);
	kvfree(q->stream);
	vatom_account_uncharge(acct, q->stream_alloc + sizeof(*q));
	mutex_destroy(&q->lock);
	kfree(q);
}

static void vatom_queue_put(struct vatom_queue *q)
{
	kref_put(&q->ref, vatom_queue_free);
}

/* The queue @id of @vfile, referenced, or NULL. */
static struct vatom_queue *vatom_queue_get(struct vatom_file *vfile, u32 id)
{
	struct vatom_queue *q;

	xa_lock(&vfile->queues);
	q = xa_load(&vfile->queues, id);
	if (q)
		kref_get(&q->ref);
	xa_unlock(&vfile->queues);
	return q;
}

static int vatom_queue_check_args(const struct drm_vatom_queue_create *args)
{
	if (args->flags & ~DRM_VATOM_QUEUE_CREATE_FLAGS || args->pad)
		return -EINVAL;
	if (args->poll_idle_us && (!(args->flags & DRM_VATOM_QUEUE_CREATE_POLL) ||
				   args->poll_idle_us > vatom_max_poll_idle_us()))
		return -EINVAL;
	if (args->eventfd && !(args->flags & DRM_VATOM_QUEUE_CREATE_EVENTFD))
		return -EINVAL;
	if (!args->entries || !is_power_of_2(args->entries))
		return -EINVAL;
	if (!args->binding_count && args->bindings)
		return -EINVAL;
	if (args->entries > DRM_VATOM_QUEUE_MAX_ENTRIES ||
	    args->binding_count > DRM_VATOM_MAX_SLOTS)
		return -E2BIG;
	return 0;
}

/* Take references to what @args asks the queue to signal. */
static int vatom_queue_get_signals(struct vatom_queue *q, struct drm_file *file,
				   const struct drm_vatom_queue_create *args)
{
	struct eventfd_ctx *ctx;

	if (args->syncobj) {
		q->syncobj = drm_syncobj_find(file, args->syncobj);
		if (!q->syncobj)
			return -ENOENT;
	}
	if (args->flags & DRM_VATOM_QUEUE_CREATE_EVENTFD) {
		ctx = eventfd_ctx_fdget(args->eventfd);
		if (IS_ERR(ctx))
			return PTR_ERR(ctx);
		q->eventfd = ctx;
	}
	return 0;
}

int vatom_ioctl_queue_create(struct drm_device *dev, void *data,
			     struct drm_file *file)
{
	struct drm_vatom_queue_create *args = data;
	struct vatom_file *vfile = file->driver_priv;
	u32 ring_handle = 0, ctl_handle = 0, id;
	struct vatom_surface *surf;
	struct vatom_queue *q;
	int ret;

	ret = vatom_queue_check_args(args);
	if (ret)
		return ret;

	ret = vatom_account_charge(vfile->acct, sizeof(*q));
	if (ret)
		return ret;
	q = kzalloc(sizeof(*q), GFP_KERNEL_ACCOUNT);
	if (!q) {
		vatom_account_uncharge(vfile->acct, sizeof(*q));
		return -ENOMEM;
	}
	kref_init(&q->ref);
	q->vfile = vfile;
	mutex_init(&q->lock);
	INIT_LIST_HEAD(&q->poll_node);
	q->entries = args->entries;

	ret = vatom_binding_table_read(&q->table, file, args->bindings,
				       args->binding_count);
	if (ret)
		goto free;
	ret = vatom_queue_get_signals(q, file, args);
	if (ret)
		goto free;

	surf = vatom_buffer_new(dev, file, (u64)args->entries * sizeof(*q->ring),
				&ring_handle);
	if (IS_ERR(surf)) {
		ret = PTR_ERR(surf);
		goto free;
	}
	q->ring_surf = surf;
	q->ring = (struct drm_vatom_queue_job *)surf->view.vaddr;

	surf = vatom_buffer_new(dev, file, DRM_VATOM_QUEUE_CTL_SIZE, &ctl_handle);
	if (IS_ERR(surf)) {
		ret = PTR_ERR(surf);
		goto handles;
	}
	q->ctl_surf = surf;
	q->ctl = (struct drm_vatom_queue_ctl *)surf->view.vaddr;
	if (args->flags & DRM_VATOM_QUEUE_CREATE_POLL) {
		/* Awake from the start; it sets NEED_WAKEUP when it sleeps. */
		ret = vatom_queue_poll_start(q, args->poll_idle_us);
		if (ret)
			goto handles;
	} else {
		/* Kick mode: every job needs a KICK. */
		WRITE_ONCE(q->ctl->flags, DRM_VATOM_QUEUE_CTL_NEED_WAKEUP);
	}

	/* An id first (reserved: lookups do not see it), then the queue. */
	ret = xa_alloc(&vfile->queues, &id, NULL, XA_LIMIT(1, VATOM_MAX_QUEUES),
		       GFP_KERNEL_ACCOUNT);
	if (ret)
		goto poller;	/* -EBUSY: the file has its maximum */
	q->id = id;
	if (q->poller)
		vatom_queue_poll_attach(q);
	/*
	 * Published: another thread may DESTROY it (and free it) at once,
	 * so @q is not touched after this.
	 */
	ret = xa_err(xa_store(&vfile->queues, id, q, GFP_KERNEL_ACCOUNT));
	if (ret) {
		xa_release(&vfile->queues, id);
		goto poller;
	}

	args->queue_id = id;
	args->ring_handle = ring_handle;
	args->ctl_handle = ctl_handle;
	return 0;

poller:
	vatom_queue_poll_stop(q);
handles:
	if (ctl_handle)
		drm_gem_handle_delete(file, ctl_handle);
	drm_gem_handle_delete(file, ring_handle);
free:
	vatom_queue_put(q);
	return ret;
}

/* Erase nothing, stop everything: the common end of DESTROY and close. */
static void vatom_queue_destroy(struct vatom_queue *q)
{
	WRITE_ONCE(q->dead, true);
	vatom_queue_poll_stop(q);
	vatom_queue_put(q);
}

int vatom_ioctl_queue_destroy(struct drm_device *dev, void *data,
			      struct drm_file *file)
{
	struct drm_vatom_queue_destroy *args = data;
	struct vatom_file *vfile = file->driver_priv;
	struct vatom_queue *q;

	if (args->pad)
		return -EINVAL;
	q = xa_erase(&vfile->queues, args->queue_id);
	if (!q)
		return -ENOENT;
	vatom_queue_destroy(q);
	return 0;
}

/**
 * vatom_file_queues_release() - destroy every queue of a closing file
 * @vfile: the file, which has no ioctl running any more
 */
void vatom_file_queues_release(struct vatom_file *vfile)
{
	struct vatom_queue *q;
	unsigned long id;

	xa_for_each(&vfile->queues, id, q) {
		xa_erase(&vfile->queues, id);
		vatom_queue_destroy(q);
	}
	xa_destroy(&vfile->queues);
}

/*
 * A kernel buffer of at least @size bytes for the current job's stream,
 * charged to the file: the queue keeps its largest one.
 */
static int vatom_queue_stream_buf(struct vatom_queue *q, u32 size)
{
	struct vatom_account *acct = q->vfile->acct;
	void *buf;
	int ret;

	if (size <= q->stream_alloc)
		return 0;
	ret = vatom_account_charge(acct, size);
	if (ret)
		return ret;
	buf = kvmalloc(size, GFP_KERNEL_ACCOUNT);
	if (!buf) {
		vatom_account_uncharge(acct, size);
		return -ENOMEM;
	}
	kvfree(q->stream);
	vatom_account_uncharge(acct, q->stream_alloc);
	q->stream = buf;
	q->stream_alloc = size;
	return 0;
}

/* The view bound at @slot, or NULL. */
static const struct vatom_surface_view *vatom_queue_slot(const struct vatom_queue *q,
							 u32 slot)
{
	return slot < DRM_VATOM_MAX_SLOTS ? q->table.bindings.slot[slot] : NULL;
}

/* @size bytes at @offset lie in @view, @offset a multiple of 8. */
static bool vatom_queue_region_ok(const struct vatom_surface_view *view,
				  u64 offset, u64 size)
{
	u64 end;

	return view && !(offset & 7) && !check_add_overflow(offset, size, &end) &&
	       end <= view->size;
}

/**
 * struct vatom_queue_exec - how a consumer runs a batch's jobs
 * @ctl: the control block of each job
 * @q: the queue
 */
struct vatom_queue_exec {
	struct vatom_exec_ctl ctl;
	const struct vatom_queue *q;
};

/* &vatom_exec_ctl.stop of the poller's jobs: the queue was destroyed. */
static bool vatom_queue_destroyed(const struct vatom_exec_ctl *ctl)
{
	return READ_ONCE(container_of(ctl, struct vatom_queue_exec, ctl)->q->dead);
}

/*
 * Run the job of descriptor @d (the kernel's copy) under @ctl, adding
 * what it executed to @stats, and fill in @err.
 * Return: its status.
 */
static int vatom_queue_job(struct vatom_queue *q,
			   const struct drm_vatom_queue_job *d,
			   const struct vatom_exec_ctl *ctl,
			   struct vatom_stats *stats,
			   struct vatom_stream_error *err)
{
	const struct vatom_surface_view *sv = NULL, *rv = NULL;
	u64 needed = 0, ops;
	int ret;

	/* The descriptor, on its own: DRM_VATOM_ERR_DESCRIPTOR at index 0. */
	err->reason = DRM_VATOM_ERR_DESCRIPTOR;
	if (d->flags || d->pad || d->stream_size % 8)
		return -EINVAL;
	if (d->stream_size > VATOM_MAX_STREAM_SIZE)
		return -E2BIG;
	if (d->stream_size) {
		sv = vatom_queue_slot(q, d->stream_slot);
		if (!vatom_queue_region_ok(sv, d->stream_offset, d->stream_size))
			return -EINVAL;
	}
	if (d->results_size) {
		rv = vatom_queue_slot(q, d->results_slot);
		if (!vatom_queue_region_ok(rv, d->results_offset, d->results_size))
			return -EINVAL;
	} else if (d->results_slot || d->results_offset) {
		return -EINVAL;
	}
	err->reason = DRM_VATOM_ERR_NONE;

	if (d->stream_size) {
		ret = vatom_queue_stream_buf(q, d->stream_size);
		if (ret)
			return ret;
		/* Our copy: the surface may change under us from here on. */
		memcpy(q->stream, sv->vaddr + d->stream_offset, d->stream_size);
		ret = vatom_stream_validate_ctl(q->stream, d->stream_size,
						&q->table.bindings, ctl, &needed,
						&ops, err);
		if (ret)
			return ret;
	}
	if (needed > d->results_size) {
		err->index = 0;
		err->reason = DRM_VATOM_ERR_RESULTS;
		return -EINVAL;
	}
	return vatom_file_execute(q->stream, d->stream_size, &q->table.bindings,
				  needed ? rv->vaddr + d->results_offset : NULL,
				  stats, ctl);
}

/*
 * Consume the descriptor at the queue's head, adding what it executed to
 * @stats, and publish its outcome.
 * Return: whether it was executed (in full or cut short).
 */
static bool vatom_queue_consume(struct vatom_queue *q,
				const struct vatom_exec_ctl *ctl,
				struct vatom_stats *stats)
{
	struct drm_vatom_queue_job *slot = &q->ring[q->head & (q->entries - 1)];
	struct vatom_stream_error err = {};
	struct drm_vatom_queue_job d;
	int ret;

	/*
	 * The one read of the descriptor; the barrier keeps the compiler
	 * from reading @slot again where it could use @d.
	 */
	memcpy(&d, slot, sizeof(d));
	barrier();
	ret = vatom_queue_job(q, &d, ctl, stats, &err);
	if (ret && ret != -ECANCELED) {
		atomic64_inc(&q->vfile->rejected);
		atomic64_inc(&q->vfile->vdev->stats.errors);
	}

	WRITE_ONCE(slot->error_index, err.index);
	WRITE_ONCE(slot->error_reason, err.reason);
	WRITE_ONCE(slot->status, ret);
	/* A polling queue's KICK reads the head to check the tail. */
	WRITE_ONCE(q->head, q->head + 1);
	q->completed++;
	WRITE_ONCE(q->ctl->head, q->head);
	/* Pairs with userspace's acquire: status and results come first. */
	smp_store_release(&q->ctl->completed, q->completed);
	return !ret || ret == -ECANCELED;
}

/**
 * vatom_queue_tail_ok() - whether a tail userspace published can be consumed
 * @q: the queue
 * @tail: the tail
 *
 * Return: true when @tail is at most the ring's entries ahead of the head.
 */
bool vatom_queue_tail_ok(const struct vatom_queue *q, u32 tail)
{
	return tail - READ_ONCE(q->head) <= q->entries;
}

/* Add the point of the batch just consumed, and signal the eventfd. */
static void vatom_queue_signal(struct vatom_queue *q)
{
	struct dma_fence *fence;

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
 * @polled: the consumer is the poller, else a KICK
 *
 * Then adds the syncobj point and signals the eventfd, if anything was
 * consumed. Stops early when the queue is destroyed (the poller: at the
 * next checkpoint of the job it runs; a KICK: after it) or the kicker is
 * killed.
 *
 * Return: 0; -ENOMEM when the syncobj point cannot be allocated (nothing
 * consumed); -EINTR when told to stop.
 */
int vatom_queue_drain(struct vatom_queue *q, u32 tail, bool polled)
{
	const struct vatom_queue_exec x = {
		.ctl = {
			.max_ops = vatom_max_submit_ops(),
			.stop = polled ? vatom_queue_destroyed : vatom_killed,
		},
		.q = q,
	};
	u64 completed = q->completed, t0, ns, executed = 0;
	struct vatom_stats stats = {};
	int ret = 0;

	lockdep_assert_held(&q->lock);
	if (q->syncobj && !q->chain) {
		q->chain = dma_fence_chain_alloc();
		if (!q->chain)
			return -ENOMEM;
	}
	t0 = vatom_busy_clock();
	while (q->head != tail && !READ_ONCE(q->dead)) {
		executed += vatom_queue_consume(q, &x.ctl, &stats);
		if (x.ctl.stop(&x.ctl)) {
			ret = -EINTR;
			break;
		}
		cond_resched();
	}
	if (q->completed == completed)
		return ret;
	ns = vatom_busy_clock() - t0;
	vatom_file_executed(q->vfile, &stats, executed, ns);
	vatom_queue_signal(q);
	if (trace_vatom_queue_batch_enabled()) {
		u64 elements = 0;
		int f;

		for (f = 0; f < VATOM_FAMILY_COUNT; f++)
			elements += stats.elements[f];
		trace_vatom_queue_batch(q->vfile->client_id, q->id,
					completed + 1, q->completed - completed,
					q->completed - completed - executed,
					elements, ns, polled);
	}
	return ret;
}

int vatom_ioctl_queue_kick(struct drm_device *dev, void *data,
			   struct drm_file *file)
{
	struct drm_vatom_queue_kick *args = data;
	struct vatom_queue *q;
	u64 completed;
	int ret = 0;
	u32 tail;

	if (args->pad)
		return -EINVAL;
	q = vatom_queue_get(file->driver_priv, args->queue_id);
	if (!q)
		return -ENOENT;

	if (q->poller) {
		/*
		 * Polling mode: wake a sleeping poller, which consumes. While
		 * it is awake (serving the process's other queues, or this
		 * one) consume as in kick mode, after the batch it may be
		 * running here: the caller's CPU does the work rather than
		 * wait its turn.
		 */
		if (!vatom_queue_tail_ok(q, READ_ONCE(q->ctl->tail)))
			ret = -EINVAL;
		if (ret || vatom_queue_poll_wake(q))
			goto put;
	}
	ret = mutex_lock_interruptible(&q->lock);
	if (ret)
		goto put;
	/* Pairs with userspace's release of the tail after its descriptors. */
	tail = smp_load_acquire(&q->ctl->tail);
	completed = q->completed;
	if (vatom_queue_tail_ok(q, tail))
		ret = vatom_queue_drain(q, tail, false);
	else
		ret = -EINVAL;
	if (q->poller && q->completed != completed)
		vatom_queue_poll_kicked(q);
	mutex_unlock(&q->lock);
put:
	vatom_queue_put(q);
	return ret;
}
