/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * vatom: the fences of jobs (vatom_fence.c).
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_FENCE_H_
#define _VATOM_FENCE_H_

#include <linux/dma-fence.h>
#include <linux/kref.h>
#include <linux/spinlock.h>
#include <linux/types.h>

struct vatom_device;

/**
 * struct vatom_fence_hold - an object that the fences of its jobs keep
 * alive, counted
 * @ref: one per fence, plus its owner's
 * @release: frees the object, when @ref drops to zero
 */
struct vatom_fence_hold {
	struct kref ref;
	void (*release)(struct kref *ref);
};

/* Drop a reference on @hold: the last frees what holds it. */
static inline void vatom_fence_hold_put(struct vatom_fence_hold *hold)
{
	kref_put(&hold->ref, hold->release);
}

/**
 * struct vatom_fence - the fence of a job's execution by the engine
 * @base: the dma_fence, first (dma_fence_free() frees it)
 * @lock: the fence's lock; the fence may outlive the file and the job
 * @live: the live-fence counter of its device's index, which outlives the
 *	device (vatom_device.live_fences)
 * @hold: what the fence keeps alive, referenced: the scheduler whose job
 *	it completes (its hardware fence), or NULL (a synchronous job's)
 */
struct vatom_fence {
	struct dma_fence base;
	spinlock_t lock; /* the dma_fence lock */
	atomic64_t *live;
	struct vatom_fence_hold *hold;
};

void vatom_fence_init(struct vatom_fence *vf, struct vatom_device *vdev,
		      struct vatom_fence_hold *hold, u64 context, u64 seqno);
void vatom_deps_fence_init(struct vatom_fence *vf);

#endif /* _VATOM_FENCE_H_ */
