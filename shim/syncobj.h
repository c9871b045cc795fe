/* SPDX-License-Identifier: MIT */
/*
 * syncobj.h: the shim's DRM syncobjs (their fences: fence.h).
 *
 * The kernel's drm_syncobj.c, dma_fence and dma_fence_chain (Linux 6.1,
 * with the 6.1.y stable fixes), in-process: file.c passes every
 * DRM_IOCTL_SYNCOBJ_* here, submit.c looks up the fences its jobs wait for
 * and installs the fences they signal. Same errnos and same semantics as
 * the kernel, so that a program (and libvatom) sees what vatom.ko shows it.
 * The files behind it are listed at the top of syncobj.c.
 *
 * Every function may be called from any thread. Fence callbacks run in
 * the thread that signals the fence, with no lock of this file held, so a
 * callback may signal other fences or call into the syncobjs.
 */
#ifndef _VATOM_SHIM_SYNCOBJ_H_
#define _VATOM_SHIM_SYNCOBJ_H_

#include <stdint.h>

#include "fence.h"

/* ------------------------------------------------------------------ */
/* Syncobjs                                                             */
/* ------------------------------------------------------------------ */

struct shim_syncobj;

/* One open file's syncobj handles: drm_file.syncobj_idr. */
struct shim_syncobjs;

/**
 * shim_syncobjs_new() - drm_syncobj_open(): an empty handle table
 *
 * Return: the table, or NULL when out of memory.
 */
struct shim_syncobjs *shim_syncobjs_new(void);

/**
 * shim_syncobjs_free() - drm_syncobj_release(): at the file's close
 * @t: the table, or NULL
 *
 * Drops every handle's reference; syncobjs exported as fds or imported
 * into other files live on.
 */
void shim_syncobjs_free(struct shim_syncobjs *t);

/*
 * The table's lock, taken around fork() (file.c), so that the child does
 * not inherit it held by a thread it does not have.
 */
void shim_syncobjs_lock(struct shim_syncobjs *t);
void shim_syncobjs_unlock(struct shim_syncobjs *t);

/**
 * shim_syncobj_ioctl() - one DRM_IOCTL_SYNCOBJ_* ioctl
 * @t: the file's handles
 * @request: the canonical DRM_IOCTL_SYNCOBJ_* value
 * @arg: the shim's own copy of the struct: already copied in, copied back
 *	out by the caller afterwards (also on error, as drm_ioctl() does)
 *
 * The user pointers inside @arg (handles, points) are read and written
 * with shim_copy_in() and shim_copy_out() only. Waits are not
 * interruptible (see shim_fence_wait()). DRM_IOCTL_SYNCOBJ_EVENTFD (Linux
 * 6.6) is served only when the drm.h it is built with defines it.
 *
 * Return: 0 or a negative errno, as the kernel's; -ENOTTY when @request
 * is not a syncobj ioctl.
 */
int shim_syncobj_ioctl(struct shim_syncobjs *t, unsigned long request,
		       void *arg);

/**
 * shim_syncobj_find_fence() - drm_syncobj_find_fence()
 * @t: the file's handles
 * @handle: a syncobj handle
 * @point: a timeline point, 0 for the syncobj's current fence
 * @flags: %DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT to wait (up to 5
 *	seconds, as the kernel does) for the point's fence to be added;
 *	other bits are ignored, as 6.1 ignores them
 * @fence: out: the point's fence, referenced; an already signaled stub
 *	when the point signaled and was collected from the timeline
 *
 * Return: 0; -ENOENT for an unknown handle; -EINVAL when the syncobj has
 * no fence, or @point is not 0 on a binary syncobj or is past the
 * timeline's last point (without WAIT_FOR_SUBMIT); -ETIME when
 * WAIT_FOR_SUBMIT waited 5 seconds in vain. *@fence is NULL on error.
 */
int shim_syncobj_find_fence(struct shim_syncobjs *t, uint32_t handle,
			    uint64_t point, uint32_t flags,
			    struct shim_fence **fence);

/**
 * shim_syncobj_find() - drm_syncobj_find()
 * @t: the file's handles
 * @handle: a syncobj handle
 *
 * Return: the syncobj, referenced, or NULL for an unknown handle.
 */
struct shim_syncobj *shim_syncobj_find(struct shim_syncobjs *t,
				       uint32_t handle);

/**
 * shim_syncobj_put() - drm_syncobj_put()
 * @s: a syncobj, or NULL
 */
void shim_syncobj_put(struct shim_syncobj *s);

/**
 * shim_syncobj_replace_fence() - drm_syncobj_replace_fence()
 * @s: the syncobj
 * @f: its new fence (the syncobj takes its own reference), or NULL to
 *	reset it
 *
 * Wakes the WAIT_FOR_SUBMIT waiters that @f satisfies.
 */
void shim_syncobj_replace_fence(struct shim_syncobj *s, struct shim_fence *f);

/**
 * shim_syncobj_add_point() - drm_syncobj_add_point()
 * @s: the syncobj
 * @chain: a node from shim_chain_alloc(); it passes to the syncobj
 * @f: the point's fence (the node takes its own reference)
 * @point: the point
 *
 * The node signals when @f and every earlier point's fence have. As
 * dma_fence_chain_init() does, a @point not above the timeline's last
 * one starts a new context with the last one's value (so QUERY may then
 * read 0), and a @point added on a binary syncobj's fence chains to it.
 * Wakes the waiters the point satisfies. Cannot fail.
 */
void shim_syncobj_add_point(struct shim_syncobj *s, struct shim_chain *chain,
			    struct shim_fence *f, uint64_t point);

#endif /* _VATOM_SHIM_SYNCOBJ_H_ */
