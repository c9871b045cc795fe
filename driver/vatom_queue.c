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
 * Lifetimes: the file's xarray holds one reference to each queue; a KICK
 * takes another for its duration. DESTROY (or the file's release) erases
 * the queue and drops the xarray's reference, telling a running KICK to
 * stop after its current job; the last reference frees the queue, its
 * references to the bound surfaces, ring and control page, and its charges.
 * A queue cannot outlive its file: a KICK is an ioctl of the file, and the
 * file's release destroys what is left. Nor the module: files pin it.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <linux/kref.h>
#include <linux/log2.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>

#include "vatom_drv.h"
#include "vatom_job.h"

/* The control page: struct drm_vatom_queue_ctl at its start. */
#define VATOM_QUEUE_CTL_SIZE	4096

static_assert(sizeof(struct drm_vatom_queue_job) == 64);
static_assert(sizeof(struct drm_vatom_queue_ctl) == 128);
static_assert(sizeof(struct drm_vatom_queue_ctl) <= VATOM_QUEUE_CTL_SIZE);

/**
 * struct vatom_queue - one user-mode queue
 * @ref: the file's xarray holds one, each running KICK one
 * @vfile: the file, which outlives the queue
 * @lock: one consumer at a time; protects @head, @completed and @stream
 * @dead: destroyed: a running KICK stops after its current job
 * @entries: descriptors in the ring, a power of two
 * @head: the next ring position to consume (the kernel's own copy)
 * @completed: jobs completed since creation
 * @ring_surf: the ring, referenced
 * @ctl_surf: the control page, referenced
 * @ring: kernel mapping of the ring
 * @ctl: kernel mapping of the control page
 * @stream: kernel copy of the current job's stream, or NULL
 * @stream_alloc: bytes at @stream, charged to the file
 * @table: the surfaces bound at creation, by slot
 */
struct vatom_queue {
	struct kref ref;
	struct vatom_file *vfile;
	struct mutex lock; /* one consumer; protects head, completed, stream */
	bool dead;
	u32 entries;
	u32 head;
	u64 completed;
	struct vatom_surface *ring_surf;
	struct vatom_surface *ctl_surf;
	struct drm_vatom_queue_job *ring;
	struct drm_vatom_queue_ctl *ctl;
	void *stream;
	u32 stream_alloc;
	struct vatom_binding_table table;
};

static void vatom_queue_free(struct kref *ref)
{
	struct vatom_queue *q = container_of(ref, struct vatom_queue, ref);
	struct vatom_account *acct = q->vfile->acct;

	vatom_binding_table_release(&q->table);
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
	if (args->flags & ~DRM_VATOM_QUEUE_CREATE_FLAGS)
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
	q->entries = args->entries;

	ret = vatom_binding_table_read(&q->table, file, args->bindings,
				       args->binding_count);
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

	surf = vatom_buffer_new(dev, file, VATOM_QUEUE_CTL_SIZE, &ctl_handle);
	if (IS_ERR(surf)) {
		ret = PTR_ERR(surf);
		goto handles;
	}
	q->ctl_surf = surf;
	q->ctl = (struct drm_vatom_queue_ctl *)surf->view.vaddr;
	/* Kick mode: every job needs a KICK. */
	WRITE_ONCE(q->ctl->flags, DRM_VATOM_QUEUE_CTL_NEED_WAKEUP);

	ret = xa_alloc(&vfile->queues, &id, q, XA_LIMIT(1, VATOM_MAX_QUEUES),
		       GFP_KERNEL_ACCOUNT);
	if (ret)
		goto handles;	/* -EBUSY: the file has its maximum */

	args->queue_id = id;
	args->ring_handle = ring_handle;
	args->ctl_handle = ctl_handle;
	return 0;

handles:
	if (ctl_handle)
		drm_gem_handle_delete(file, ctl_handle);
	drm_gem_handle_delete(file, ring_handle);
free:
	vatom_queue_put(q);
	return ret;
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
	WRITE_ONCE(q->dead, true);
	vatom_queue_put(q);
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
		vatom_queue_put(q);
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

/*
 * Run the job of descriptor @d (the kernel's copy) and fill in @err.
 * Return: its status.
 */
static int vatom_queue_job(struct vatom_queue *q,
			   const struct drm_vatom_queue_job *d,
			   struct vatom_stream_error *err)
{
	const struct vatom_exec_ctl ctl = {
		.max_ops = vatom_max_submit_ops(),
		.stop = vatom_killed,
	};
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
						&q->table.bindings, &ctl, &needed,
						&ops, err);
		if (ret)
			return ret;
	}
	if (needed > d->results_size) {
		err->index = 0;
		err->reason = DRM_VATOM_ERR_RESULTS;
		return -EINVAL;
	}
	atomic64_inc(&q->vfile->submitted);
	ret = vatom_file_execute(q->vfile, q->stream, d->stream_size,
				 &q->table.bindings,
				 needed ? rv->vaddr + d->results_offset : NULL,
				 &ctl);
	atomic64_inc(&q->vfile->completed);
	return ret;
}

/* Consume the descriptor at the queue's head and publish its outcome. */
static void vatom_queue_consume(struct vatom_queue *q)
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
	ret = vatom_queue_job(q, &d, &err);
	if (ret) {
		atomic64_inc(&q->vfile->rejected);
		atomic64_inc(&q->vfile->vdev->stats.errors);
	}

	WRITE_ONCE(slot->error_index, err.index);
	WRITE_ONCE(slot->error_reason, err.reason);
	WRITE_ONCE(slot->status, ret);
	q->head++;
	q->completed++;
	WRITE_ONCE(q->ctl->head, q->head);
	/* Pairs with userspace's acquire: status and results come first. */
	smp_store_release(&q->ctl->completed, q->completed);
}

int vatom_ioctl_queue_kick(struct drm_device *dev, void *data,
			   struct drm_file *file)
{
	struct drm_vatom_queue_kick *args = data;
	struct vatom_queue *q;
	u32 tail;
	int ret;

	if (args->pad)
		return -EINVAL;
	q = vatom_queue_get(file->driver_priv, args->queue_id);
	if (!q)
		return -ENOENT;
	ret = mutex_lock_interruptible(&q->lock);
	if (ret)
		goto put;

	/* Pairs with userspace's release of the tail after its descriptors. */
	tail = smp_load_acquire(&q->ctl->tail);
	if (tail - q->head > q->entries) {
		ret = -EINVAL;
		goto unlock;
	}
	while (q->head != tail && !READ_ONCE(q->dead)) {
		vatom_queue_consume(q);
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		cond_resched();
	}
unlock:
	mutex_unlock(&q->lock);
put:
	vatom_queue_put(q);
	return ret;
}
