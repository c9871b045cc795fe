// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Job fences: one dma_fence per job that executes, signalled when the
 * engine has executed it, with an error when it did not (-ECANCELED, or a
 * failed dependency's error).
 *
 * An asynchronous job's fence is its hardware fence, which run_job hands
 * to the DRM scheduler (vatom_sched.c): users see the scheduler's finished
 * fence, which holds it. A synchronous job's fence is what its
 * out-syncobjs get. Either is on a timeline of the file's: its scheduler's,
 * or the file's own for synchronous jobs.
 *
 * A fence can outlive the file, the job and the device (unbound): syncobjs,
 * sync_files and other drivers keep references. Each fence therefore
 * carries its own lock, counts itself in a counter of the module's rather
 * than the device's, and holds a reference on this module, so the module
 * cannot be unloaded while
 * code of its dma_fence_ops may still be called, and a hardware fence
 * holds its scheduler, which the scheduler's fences name their timeline
 * after; the last dma_fence_put() drops both.
 *
 * The dependency fence of an asynchronous job (vatom_deps_fence_init()) is
 * internal: the job and its scheduler hold it, both gone before the file.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <linux/module.h>
#include <linux/slab.h>

#include "vatom_device.h"
#include "vatom_fence.h"

static const char *vatom_fence_driver_name(struct dma_fence *f)
{
	return DRIVER_NAME;
}

static const char *vatom_fence_timeline_name(struct dma_fence *f)
{
	return "vatom-file";
}

static void vatom_fence_release(struct dma_fence *f)
{
	struct vatom_fence *vf = container_of(f, struct vatom_fence, base);

	atomic64_dec(vf->live);
	if (vf->hold)
		vatom_fence_hold_put(vf->hold);
	/* kfree_rcu() of the fence: base is the first member of vatom_fence. */
	dma_fence_free(f);
	module_put(THIS_MODULE);
}

static const struct dma_fence_ops vatom_fence_ops = {
	.get_driver_name	= vatom_fence_driver_name,
	.get_timeline_name	= vatom_fence_timeline_name,
	.release		= vatom_fence_release,
};

/**
 * vatom_fence_init() - make an allocated fence a live, unsignalled fence
 * @vf: zeroed memory from kzalloc(sizeof(*vf)); freed with kfree() until
 *	this is called, with dma_fence_put() afterwards
 * @vdev: the device (its live-fence counter, which outlives it)
 * @hold: what the fence keeps alive (its job's scheduler), whose
 *	reference it takes, or NULL
 * @context: the fence context (one per file, and one per scheduler)
 * @seqno: the job's sequence number on that context
 *
 * Called from an ioctl or a scheduler of this module, so the module is
 * live and taking a reference cannot fail; nothing here can fail, so a job
 * calls it past its point of no return, when its place on the timeline is
 * known.
 */
void vatom_fence_init(struct vatom_fence *vf, struct vatom_device *vdev,
		      struct vatom_fence_hold *hold, u64 context, u64 seqno)
{
	BUILD_BUG_ON(offsetof(struct vatom_fence, base) != 0);

	spin_lock_init(&vf->lock);
	vf->live = vdev->live_fences;
	vf->hold = hold;
	if (hold)
		kref_get(&hold->ref);
	dma_fence_init(&vf->base, &vatom_fence_ops, &vf->lock, context, seqno);
	__module_get(THIS_MODULE);
	atomic64_inc(vf->live);
}

static const char *vatom_deps_fence_timeline_name(struct dma_fence *f)
{
	return "vatom-deps";
}

/* No .release: dma_fence_free(), base being first. */
static const struct dma_fence_ops vatom_deps_fence_ops = {
	.get_driver_name	= vatom_fence_driver_name,
	.get_timeline_name	= vatom_deps_fence_timeline_name,
};

/**
 * vatom_deps_fence_init() - make an allocated fence the dependency fence of
 * an asynchronous job: what its scheduler waits for in place of its
 * in-syncobjs' fences, signalled once they all have, or when the file
 * closes and stops waiting for them
 * @vf: zeroed memory from kzalloc(sizeof(*vf))
 *
 * Not counted as a job fence, and on a context of its own: it is never
 * compared with another fence.
 */
void vatom_deps_fence_init(struct vatom_fence *vf)
{
	spin_lock_init(&vf->lock);
	dma_fence_init(&vf->base, &vatom_deps_fence_ops, &vf->lock,
		       dma_fence_context_alloc(1), 1);
}
