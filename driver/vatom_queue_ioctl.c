// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * User-mode queues, the ioctls: QUEUE_CREATE, QUEUE_DESTROY and
 * QUEUE_KICK, and the queues' lifetime (docs/queues.md). A KICK consumes
 * with vatom_queue_drain() (vatom_queue.c), or in polling mode wakes the
 * process's poller (vatom_queue_poll.c).
 *
 * Lifetimes: the file's xarray holds one reference to each queue; a KICK
 * takes another for its duration. DESTROY (or the file's release) erases
 * the queue, tells a running KICK to stop after its current job, takes it
 * from its poller (waiting until the poller has left it) and drops the
 * xarray's reference; the last reference frees the queue, its references
 * to the bound surfaces, ring, control page, syncobj, eventfd and poller,
 * and its charges. A queue cannot outlive its file: a KICK is an ioctl of
 * the file, and the file's release destroys what is left. Nor the module:
 * files pin it.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <linux/cpumask.h>
#include <linux/dma-fence-chain.h>
#include <linux/eventfd.h>
#include <linux/kref.h>
#include <linux/log2.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_syncobj.h>

#include "vatom_file.h"
#include "vatom_gem.h"
#include "vatom_ioctl.h"
#include "vatom_limits.h"
#include "vatom_queue.h"
#include "vatom_queue_poll.h"

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
	vatom_stream_buf_free(&q->stream, acct);
	vatom_account_uncharge(acct, sizeof(*q));
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

/*
 * Whether @cpu may run the caller's poller: online, and one the caller
 * may run on itself (its affinity, within its cpuset), as io_uring asks
 * of IORING_SETUP_SQ_AFF.
 */
static bool vatom_queue_poll_cpu_ok(u32 cpu)
{
	return cpu < nr_cpu_ids && cpu_online(cpu) &&
	       cpumask_test_cpu(cpu, current->cpus_ptr);
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

	ret = vatom_rule_queue_create(args, vatom_queue_poll_cpu_ok);
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
		ret = vatom_queue_poll_start(q, args->poll_idle_us,
					     args->flags & DRM_VATOM_QUEUE_CREATE_POLL_CPU ?
					     (int)args->poll_cpu : -1);
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
		if (!vatom_queue_tail_ok(q, vatom_queue_tail(q)))
			ret = -EINVAL;
		if (ret || vatom_queue_poll_wake(q))
			goto put;
	}
	ret = mutex_lock_interruptible(&q->lock);
	if (ret)
		goto put;
	tail = vatom_queue_tail(q);
	completed = q->completed;
	if (vatom_queue_tail_ok(q, tail))
		ret = vatom_queue_drain(q, tail, NULL);
	else
		ret = -EINVAL;
	if (q->poller && q->completed != completed)
		vatom_queue_poll_kicked(q);
	mutex_unlock(&q->lock);
put:
	vatom_queue_put(q);
	return ret;
}
