// SPDX-License-Identifier: MIT
/*
 * syncobj_wait.c: waits on syncobjs, in-process: drm_syncobj.c's
 * drm_syncobj_find_fence(), which WAIT_FOR_SUBMIT makes wait for a
 * point's fence to be submitted, and drm_syncobj_array_wait_timeout(),
 * WAIT's and TIMELINE_WAIT's (all or any, WAIT_FOR_SUBMIT,
 * WAIT_AVAILABLE), of Linux 6.1 with the 6.1.y fixes (WAIT_AVAILABLE
 * waits for a point to be submitted, 6.1.63 and 6.1.80).
 *
 * A wait is a sleeping task (fence_internal.h's struct waiter) with an
 * entry on each syncobj it waits on, which syncobj.c hands the point's
 * fence when it comes, and a callback on each fence it waits to signal.
 * The deadline is absolute, on CLOCK_MONOTONIC; signals do not end the
 * wait.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <drm.h>

#include "shim.h"
#include "syncobj_internal.h"

/* drm_syncobj_find_fence(): 5s default for wait submission */
#define WAIT_FOR_SUBMIT_TIMEOUT_NS (5 * NSEC_PER_SEC)

/* sizeof(struct syncobj_wait_entry) in the kernel, for the same check */
#define KERNEL_WAIT_ENTRY_SIZE 64

/* ktime_get(): signed, so that a negative timeout is in the past */
#define now_ns()	((int64_t)shim_now_ns())

/* ------------------------------------------------------------------ */
/* drm_syncobj_find_fence()                                             */
/* ------------------------------------------------------------------ */

static void syncobj_wait_fence_func(struct shim_fence *f,
				    struct shim_fence_cb *cb)
{
	(void)f;
	waiter_wake(container_of(cb, struct syncobj_wait_entry,
				 fence_cb)->waiter);
}

/* drm_syncobj_fence_add_wait() */
static void syncobj_fence_add_wait(struct shim_syncobj *s,
				   struct syncobj_wait_entry *wait)
{
	struct shim_fence *fence;

	if (__atomic_load_n(&wait->fence, __ATOMIC_ACQUIRE))
		return;

	pthread_mutex_lock(&s->lock);
	/*
	 * We've already tried once to get a fence and failed. Now that we
	 * have the lock, try one more time just to be sure we don't add a
	 * callback when a fence has already been set.
	 */
	fence = shim_fence_get(s->fence);
	if (!fence || chain_find_seqno(&fence, wait->point)) {
		shim_fence_put(fence);
		list_add_tail(&wait->node, &s->cb_list);
		wait->listed = true;
	} else {
		if (!fence)
			fence = fence_get_stub();
		__atomic_store_n(&wait->fence, fence, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&s->lock);
}

/* drm_syncobj_remove_wait() */
static void syncobj_remove_wait(struct shim_syncobj *s,
				struct syncobj_wait_entry *wait)
{
	if (!wait->listed)
		return;
	pthread_mutex_lock(&s->lock);
	list_del_init(&wait->node);
	pthread_mutex_unlock(&s->lock);
}

static void wait_entry_init(struct syncobj_wait_entry *e, struct waiter *w,
			    uint64_t point)
{
	memset(e, 0, sizeof(*e));
	list_init(&e->node);
	e->waiter = w;
	e->point = point;
}

static int syncobj_find_fence(struct shim_syncobj *s, uint64_t point,
			      uint32_t flags, struct shim_fence **fence)
{
	struct syncobj_wait_entry wait;
	struct waiter w;
	int64_t deadline;
	int ret;

	*fence = syncobj_fence_get(s);
	if (*fence) {
		ret = chain_find_seqno(fence, point);
		if (!ret) {
			/*
			 * If the requested seqno is already signaled the
			 * chain may give a NULL fence: use a signaled one.
			 */
			if (!*fence)
				*fence = fence_get_stub();
			return 0;
		}
		shim_fence_put(*fence);
		*fence = NULL;
	} else {
		ret = -EINVAL;
	}

	if (!(flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT))
		return ret;

	deadline = now_ns() + WAIT_FOR_SUBMIT_TIMEOUT_NS;
	waiter_init(&w);
	wait_entry_init(&wait, &w, point);
	syncobj_fence_add_wait(s, &wait);

	for (;;) {
		unsigned int gen = waiter_gen(&w);

		if (__atomic_load_n(&wait.fence, __ATOMIC_ACQUIRE)) {
			ret = 0;
			break;
		}
		if (now_ns() >= deadline) {
			ret = -ETIME;
			break;
		}
		waiter_sleep(&w, gen, deadline);
	}

	syncobj_remove_wait(s, &wait);
	*fence = __atomic_load_n(&wait.fence, __ATOMIC_ACQUIRE);
	if (*fence)
		ret = 0;	/* handed over as the time ran out */
	waiter_fini(&w);
	return ret;
}

int shim_syncobj_find_fence(struct shim_syncobjs *t, uint32_t handle,
			    uint64_t point, uint32_t flags,
			    struct shim_fence **fence)
{
	struct shim_syncobj *s = shim_syncobj_find(t, handle);
	int ret;

	*fence = NULL;
	if (!s)
		return -ENOENT;
	ret = syncobj_find_fence(s, point, flags, fence);
	shim_syncobj_put(s);
	return ret;
}

/* ------------------------------------------------------------------ */
/* waits: drm_syncobj_array_wait_timeout()                              */
/* ------------------------------------------------------------------ */

/*
 * Returns 0 or a negative errno; *@idx as the kernel leaves it: the
 * first signaled at the first look, or for "any" the one that ended the
 * wait, else untouched (~0 from the caller).
 */
int syncobj_array_wait_timeout(struct shim_syncobj **syncobjs,
			       const void *user_points, uint32_t count,
			       uint32_t flags, int64_t timeout_nsec,
			       uint32_t *idx)
{
	struct syncobj_wait_entry *entries;
	struct waiter w;
	uint64_t *points;
	uint32_t signaled_count, i;
	int64_t deadline;
	bool expired;
	int ret = 0;

	/*
	 * drm_timeout_abs_to_jiffies(): 0 or a past time is a poll; the
	 * kernel rounds the rest up to a jiffy and one more.
	 */
	deadline = timeout_nsec;
	expired = timeout_nsec == 0 || timeout_nsec <= now_ns();

	if (!kmalloc_array_fits(count, sizeof(*points)))
		return -ENOMEM;
	points = malloc(count * sizeof(*points));
	if (!points)
		return -ENOMEM;
	if (!user_points) {
		memset(points, 0, count * sizeof(*points));
	} else if (shim_copy_in(points, user_points,
				count * sizeof(*points))) {
		ret = -EFAULT;
		goto err_free_points;
	}

	if (!kmalloc_array_fits(count, KERNEL_WAIT_ENTRY_SIZE)) {
		ret = -ENOMEM;
		goto err_free_points;
	}
	entries = malloc(count * sizeof(*entries));
	if (!entries) {
		ret = -ENOMEM;
		goto err_free_points;
	}
	waiter_init(&w);
	for (i = 0; i < count; i++)
		wait_entry_init(&entries[i], &w, points[i]);

	/*
	 * Walk the list of sync objects and initialize entries. We do this
	 * up-front so that we can properly return -EINVAL if there is a
	 * syncobj with a missing fence and then never have the chance of
	 * returning -EINVAL again.
	 */
	signaled_count = 0;
	for (i = 0; i < count; i++) {
		struct shim_fence *fence = syncobj_fence_get(syncobjs[i]);

		if (!fence || chain_find_seqno(&fence, points[i])) {
			shim_fence_put(fence);
			if (flags & (DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT |
				     DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE))
				continue;
			ret = -EINVAL;
			goto cleanup_entries;
		}
		if (!fence)
			fence = fence_get_stub();
		entries[i].fence = fence;

		if ((flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE) ||
		    fence_is_signaled(fence)) {
			if (signaled_count == 0 && idx)
				*idx = i;
			signaled_count++;
		}
	}

	if (signaled_count == count ||
	    (signaled_count > 0 && !(flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL)))
		goto cleanup_entries;

	if (flags & (DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT |
		     DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE))
		for (i = 0; i < count; i++)
			syncobj_fence_add_wait(syncobjs[i], &entries[i]);

	for (;;) {
		unsigned int gen = waiter_gen(&w);

		signaled_count = 0;
		for (i = 0; i < count; i++) {
			struct shim_fence *fence =
				__atomic_load_n(&entries[i].fence,
						__ATOMIC_ACQUIRE);

			if (!fence)
				continue;

			if ((flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE) ||
			    fence_is_signaled(fence) ||
			    (!entries[i].cb_added &&
			     fence_add_callback(fence, &entries[i].fence_cb,
						syncobj_wait_fence_func))) {
				/* The fence has been signaled */
				if (flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL) {
					signaled_count++;
				} else {
					if (idx)
						*idx = i;
					goto done_waiting;
				}
			} else {
				entries[i].cb_added = true;
			}
		}

		if (signaled_count == count)
			goto done_waiting;

		if (expired) {
			ret = -ETIME;
			goto done_waiting;
		}

		waiter_sleep(&w, gen, deadline);
		expired = now_ns() >= deadline;
	}

done_waiting:
cleanup_entries:
	for (i = 0; i < count; i++) {
		struct shim_fence *fence;

		syncobj_remove_wait(syncobjs[i], &entries[i]);
		fence = __atomic_load_n(&entries[i].fence, __ATOMIC_ACQUIRE);
		if (entries[i].cb_added)
			fence_remove_callback(fence, &entries[i].fence_cb);
		shim_fence_put(fence);
	}
	waiter_fini(&w);
	free(entries);
err_free_points:
	free(points);
	return ret;
}
