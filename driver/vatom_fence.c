// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Job fences: one dma_fence per job, on the timeline (fence context) of the
 * file that submitted it, signalled when the job completes, with an error
 * when it did not execute (-ECANCELED, or a failed dependency's error).
 *
 * A fence can outlive the file and the job: syncobjs, sync_files and other
 * drivers keep references. Each fence therefore carries its own lock and
 * holds a reference on this module, so the module cannot be unloaded while
 * code of its dma_fence_ops may still be called; the last dma_fence_put()
 * drops it.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <linux/module.h>
#include <linux/slab.h>

#include "vatom_device.h"
#include "vatom_job.h"

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

	atomic64_dec(&vf->vdev->stats.fences);
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
 * @vdev: the device (for its live-fence counter)
 * @context: the fence context (one per file)
 * @seqno: the job's sequence number on that context
 *
 * Called from an ioctl of this module, so the module is live and taking a
 * reference cannot fail; nothing here can fail, so a submission calls it
 * past its point of no return, when its place on the timeline is known.
 */
void vatom_fence_init(struct vatom_fence *vf, struct vatom_device *vdev,
		      u64 context, u64 seqno)
{
	BUILD_BUG_ON(offsetof(struct vatom_fence, base) != 0);

	spin_lock_init(&vf->lock);
	vf->vdev = vdev;
	dma_fence_init(&vf->base, &vatom_fence_ops, &vf->lock, context, seqno);
	__module_get(THIS_MODULE);
	atomic64_inc(&vdev->stats.fences);
}
