/* SPDX-License-Identifier: MIT */
/*
 * fence.h: the shim's fences, as the rest of the shim uses them: dma_fence
 * (fence.c) and the node of a timeline point (dma_fence_chain,
 * fence_chain.c). Their insides, which only the fence and syncobj files
 * see, are in fence_internal.h.
 */
#ifndef _VATOM_SHIM_FENCE_H_
#define _VATOM_SHIM_FENCE_H_

#include <stdint.h>

/* ------------------------------------------------------------------ */
/* Fences                                                               */
/* ------------------------------------------------------------------ */

/*
 * A dma_fence: pending, then signaled once, with an error status. The
 * syncobjs also make chain nodes (a timeline point: dma_fence_chain) and
 * merged fences (dma_fence_array, from TRANSFER), which signal by
 * themselves; only fences from shim_fence_new() are signaled by callers.
 */
struct shim_fence;

/**
 * shim_fence_new() - a new pending fence
 *
 * Return: the fence with one reference, or NULL when out of memory.
 */
struct shim_fence *shim_fence_new(void);

/**
 * shim_fence_get() - take a reference
 * @f: a fence, or NULL
 *
 * Return: @f.
 */
struct shim_fence *shim_fence_get(struct shim_fence *f);

/**
 * shim_fence_put() - drop a reference
 * @f: a fence, or NULL
 *
 * The last one frees it. A callback still registered on a fence freed
 * pending is dropped without being called (a fence should be signaled).
 */
void shim_fence_put(struct shim_fence *f);

/**
 * shim_fence_signal() - signal a fence, dma_fence_set_error() included
 * @f: a fence from shim_fence_new()
 * @error: 0, or a negative errno the fence fails with
 *
 * Only the first call counts; later ones (and a positive @error's value)
 * are ignored. Wakes the waiters and runs the callbacks, in this thread,
 * before returning.
 */
void shim_fence_signal(struct shim_fence *f, int error);

/**
 * shim_fence_status() - dma_fence_get_status()
 * @f: a fence
 *
 * A timeline point (chain node) is signaled when its fence and every
 * earlier point's are; its own error stays 0, as dma_fence_chain's does
 * (6.1 does not copy the contained fence's error into the chain node).
 *
 * Return: 0 while pending, 1 when signaled without error, the negative
 * errno it was signaled with otherwise.
 */
int shim_fence_status(struct shim_fence *f);

/**
 * shim_fence_wait() - wait for a fence to signal
 * @f: a fence
 * @abs_timeout_ns: absolute CLOCK_MONOTONIC deadline; one in the past
 *	only checks, INT64_MAX waits for ever
 *
 * Not interruptible: signals do not end the wait (the kernel's
 * dma_fence_wait(fence, true) would return -ERESTARTSYS).
 *
 * Return: 0 once signaled (whatever its error), -ETIME at the deadline.
 */
int shim_fence_wait(struct shim_fence *f, int64_t abs_timeout_ns);

/**
 * shim_fence_add_callback() - dma_fence_add_callback()
 * @f: a fence
 * @cb: called once, in the thread signaling @f, with no lock held
 * @data: passed to @cb
 *
 * Return: 0 when @cb will be called; -ENOENT when @f has already
 * signaled (@cb is not called); -ENOMEM (the kernel's takes the caller's
 * struct dma_fence_cb and cannot fail so: allocate before a point of no
 * return, or check the fence's status there).
 */
int shim_fence_add_callback(struct shim_fence *f,
			    void (*cb)(struct shim_fence *f, void *data),
			    void *data);

/*
 * A timeline point's node, allocated before the caller's point of no
 * return (dma_fence_chain_alloc()), so that adding the point cannot fail.
 */
struct shim_chain;

/**
 * shim_chain_alloc() - dma_fence_chain_alloc()
 *
 * Return: an unused node, or NULL when out of memory.
 */
struct shim_chain *shim_chain_alloc(void);

/**
 * shim_chain_free() - dma_fence_chain_free(): a node never added
 * @chain: the node, or NULL
 */
void shim_chain_free(struct shim_chain *chain);

#endif /* _VATOM_SHIM_FENCE_H_ */
