// SPDX-License-Identifier: MIT
/*
 * syncobj.c: DRM syncobjs and their fences, in-process.
 *
 * A program run under the shim must see the syncobjs vatom.ko's DRM core
 * gives it: drivers/gpu/drm/drm_syncobj.c, dma-fence.c, dma-fence-chain.c
 * and dma-fence-unwrap.c of Linux 6.1 (Debian 12's kernel) with the 6.1.y
 * fixes (WAIT_AVAILABLE waits for a point to be submitted, 6.1.63 and
 * 6.1.80). The code follows those files function by function, with their
 * names where it helps to compare, and the same order of argument checks,
 * so the same call fails with the same errno.
 *
 * Kernel to here: spinlocks and RCU are mutexes; sleeping tasks are
 * condition variables on CLOCK_MONOTONIC, which signals do not interrupt
 * (the kernel's waits are interruptible: -ERESTARTSYS); irq_work is a
 * direct call. Fence callbacks run in the signaling thread after its
 * fence's lock is dropped, and no syncobj lock is held while any runs.
 * A syncobj fd is a memfd, a sync_file an eventfd that becomes readable
 * when its fence signals, both tracked by fdtable.c (shim_fd_track()).
 *
 * Lock order: syncobj table, then syncobj, then a fence's or a waiter's
 * (those two never nest another).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/mman.h>

#include <linux/sync_file.h>

#include <drm.h>

#include "shim.h"
#include "syncobj_internal.h"

/* drm_syncobj_find_fence(): 5s default for wait submission */
#define WAIT_FOR_SUBMIT_TIMEOUT_NS (5 * NSEC_PER_SEC)

/* sizeof(struct syncobj_wait_entry) in the kernel, for the same check */
#define KERNEL_WAIT_ENTRY_SIZE 64

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

/* ------------------------------------------------------------------ */
/* syncobjs                                                             */
/* ------------------------------------------------------------------ */

struct shim_syncobjs {
	pthread_mutex_t lock;
	struct shim_syncobj **idr;	/* [handle], [0] unused */
	uint32_t size;
	uint32_t free_hint;		/* no free handle below it */
};

/* struct syncobj_wait_entry: one syncobj of a wait */
struct syncobj_wait_entry {
	struct list node;		/* on the syncobj's cb_list */
	bool listed;
	struct waiter *waiter;
	struct shim_fence *fence;	/* atomic: set under the syncobj lock */
	struct shim_fence_cb fence_cb;
	bool cb_added;
	uint64_t point;
};

struct shim_syncobj *syncobj_get(struct shim_syncobj *s)
{
	__atomic_fetch_add(&s->refcount, 1, __ATOMIC_RELAXED);
	return s;
}

/* drm_syncobj_fence_get() */
struct shim_fence *syncobj_fence_get(struct shim_syncobj *s)
{
	struct shim_fence *f;

	pthread_mutex_lock(&s->lock);
	f = shim_fence_get(s->fence);
	pthread_mutex_unlock(&s->lock);
	return f;
}

void eventfd_write_one(int fd)
{
	uint64_t one = 1;
	ssize_t r;

	/* eventfd_signal(); a full counter (EAGAIN) is readable anyway */
	do {
		r = write(fd, &one, sizeof(one));
	} while (r < 0 && errno == EINTR);
}

static void syncobj_eventfd_entry_free(struct syncobj_eventfd_entry *e)
{
	shim_fence_put(e->fence);
	shim_real_close(e->fd);
	free(e);
}

static void syncobj_eventfd_entry_fence_func(struct shim_fence *f,
					     struct shim_fence_cb *cb)
{
	struct syncobj_eventfd_entry *e =
		container_of(cb, struct syncobj_eventfd_entry, fence_cb);

	(void)f;
	eventfd_write_one(e->fd);
	syncobj_eventfd_entry_free(e);
}

/*
 * syncobj_eventfd_entry_func(), under the syncobj lock: when the point
 * is there, take the entry off the list onto @ready, where it is armed
 * (or written) once the lock is dropped, so that no callback runs under
 * it.
 */
void syncobj_eventfd_entry_func(struct shim_syncobj *s,
				struct syncobj_eventfd_entry *e,
				struct list *ready)
{
	struct shim_fence *fence = shim_fence_get(s->fence);

	if (!fence)
		return;
	if (chain_find_seqno(&fence, e->point)) {
		/* The given seqno has not been submitted yet. */
		shim_fence_put(fence);
		return;
	}
	if (!fence)
		/* signaled, a later one submitted: still signal the eventfd */
		fence = fence_get_stub();

	list_del_init(&e->node);
	e->fence = fence;
	list_add_tail(&e->node, ready);
}

void syncobj_eventfd_arm(struct list *ready)
{
	while (!list_empty(ready)) {
		struct syncobj_eventfd_entry *e =
			container_of(ready->next, struct syncobj_eventfd_entry,
				     node);

		list_del_init(&e->node);
		if (e->flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE) {
			eventfd_write_one(e->fd);
			syncobj_eventfd_entry_free(e);
			continue;
		}
		if (fence_add_callback(e->fence, &e->fence_cb,
				       syncobj_eventfd_entry_fence_func) ==
		    -ENOENT) {
			eventfd_write_one(e->fd);
			syncobj_eventfd_entry_free(e);
		}
	}
}

/*
 * syncobj_wait_syncobj_func(), under the syncobj lock: hand a waiting
 * entry its point's fence once there is one.
 */
static void syncobj_wait_syncobj_func(struct shim_syncobj *s,
				      struct syncobj_wait_entry *wait)
{
	struct shim_fence *fence = shim_fence_get(s->fence);

	if (!fence || chain_find_seqno(&fence, wait->point)) {
		shim_fence_put(fence);
		return;
	}
	if (!fence)
		fence = fence_get_stub();

	__atomic_store_n(&wait->fence, fence, __ATOMIC_RELEASE);
	list_del_init(&wait->node);
	waiter_wake(wait->waiter);
}

/* Under the lock, after the fence changed: wake whom it satisfies. */
static void syncobj_fence_changed(struct shim_syncobj *s, struct list *ready)
{
	struct list *n, *next;

	for (n = s->cb_list.next; n != &s->cb_list; n = next) {
		struct syncobj_wait_entry *wait =
			container_of(n, struct syncobj_wait_entry, node);

		next = n->next;
		syncobj_wait_syncobj_func(s, wait);
	}
	for (n = s->ev_fd_list.next; n != &s->ev_fd_list; n = next) {
		struct syncobj_eventfd_entry *e =
			container_of(n, struct syncobj_eventfd_entry, node);

		next = n->next;
		syncobj_eventfd_entry_func(s, e, ready);
	}
}

void shim_syncobj_add_point(struct shim_syncobj *s, struct shim_chain *chain,
			    struct shim_fence *f, uint64_t point)
{
	struct shim_fence *prev, *iter;
	struct list ready;

	list_init(&ready);
	shim_fence_get(f);

	pthread_mutex_lock(&s->lock);
	prev = shim_fence_get(s->fence);
	/*
	 * An unordered point (prev->seqno >= point): the kernel only
	 * DRM_DEBUG()s it; dma_fence_chain_init() starts a new context.
	 */
	chain_init(&chain->base, prev, f, point);
	s->fence = &chain->base;	/* the node's own reference */
	syncobj_fence_changed(s, &ready);
	pthread_mutex_unlock(&s->lock);

	syncobj_eventfd_arm(&ready);

	/* Walk the chain once to trigger garbage collection */
	chain_for_each(iter, prev)
		;
	/* the syncobj's reference to its previous fence */
	shim_fence_put(prev);
}

void shim_syncobj_replace_fence(struct shim_syncobj *s, struct shim_fence *f)
{
	struct shim_fence *old;
	struct list ready;

	list_init(&ready);
	shim_fence_get(f);

	pthread_mutex_lock(&s->lock);
	old = s->fence;
	s->fence = f;
	if (f != old)
		syncobj_fence_changed(s, &ready);
	pthread_mutex_unlock(&s->lock);

	syncobj_eventfd_arm(&ready);
	shim_fence_put(old);
}

/* drm_syncobj_assign_null_handle() */
int syncobj_assign_null_handle(struct shim_syncobj *s)
{
	struct shim_fence *f = fence_allocate_private_stub();

	if (!f)
		return -ENOMEM;
	shim_syncobj_replace_fence(s, f);
	shim_fence_put(f);
	return 0;
}

/* drm_syncobj_free() */
static void syncobj_free(struct shim_syncobj *s)
{
	shim_syncobj_replace_fence(s, NULL);
	while (!list_empty(&s->ev_fd_list)) {
		struct syncobj_eventfd_entry *e =
			container_of(s->ev_fd_list.next,
				     struct syncobj_eventfd_entry, node);

		list_del_init(&e->node);
		syncobj_eventfd_entry_free(e);
	}
	pthread_mutex_destroy(&s->lock);
	free(s);
}

void shim_syncobj_put(struct shim_syncobj *s)
{
	if (s && !__atomic_sub_fetch(&s->refcount, 1, __ATOMIC_ACQ_REL))
		syncobj_free(s);
}

/* drm_syncobj_create() */
int syncobj_create(struct shim_syncobj **out, uint32_t flags)
{
	struct shim_syncobj *s = calloc(1, sizeof(*s));
	int ret;

	if (!s)
		return -ENOMEM;
	s->refcount = 1;
	pthread_mutex_init(&s->lock, NULL);
	list_init(&s->cb_list);
	list_init(&s->ev_fd_list);

	if (flags & DRM_SYNCOBJ_CREATE_SIGNALED) {
		ret = syncobj_assign_null_handle(s);
		if (ret < 0) {
			shim_syncobj_put(s);
			return ret;
		}
	}
	*out = s;
	return 0;
}

/* ------------------------------------------------------------------ */
/* the handle table: idr_alloc(&idr, syncobj, 1, 0, ...)               */
/* ------------------------------------------------------------------ */

struct shim_syncobjs *shim_syncobjs_new(void)
{
	struct shim_syncobjs *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	pthread_mutex_init(&t->lock, NULL);
	t->free_hint = 1;
	return t;
}

void shim_syncobjs_free(struct shim_syncobjs *t)
{
	uint32_t i;

	if (!t)
		return;
	for (i = 1; i < t->size; i++)
		shim_syncobj_put(t->idr[i]);
	free(t->idr);
	pthread_mutex_destroy(&t->lock);
	free(t);
}

struct shim_syncobj *shim_syncobj_find(struct shim_syncobjs *t,
				       uint32_t handle)
{
	struct shim_syncobj *s = NULL;

	pthread_mutex_lock(&t->lock);
	if (handle && handle < t->size && t->idr[handle])
		s = syncobj_get(t->idr[handle]);
	pthread_mutex_unlock(&t->lock);
	return s;
}

/*
 * drm_syncobj_get_handle(): the lowest free handle from 1, as the idr
 * gives, with the table's own reference.
 */
int syncobj_get_handle(struct shim_syncobjs *t, struct shim_syncobj *s,
		       uint32_t *handle)
{
	uint32_t h;
	int ret = 0;

	pthread_mutex_lock(&t->lock);
	for (h = t->free_hint; h < t->size && t->idr[h]; h++)
		;
	if (h >= (uint32_t)INT_MAX) {
		ret = -ENOSPC;
	} else if (h >= t->size) {
		uint32_t nsize = t->size ? t->size * 2 : 16;
		struct shim_syncobj **n;

		if (nsize <= h)
			nsize = h + 1;
		n = realloc(t->idr, nsize * sizeof(*n));
		if (!n) {
			ret = -ENOMEM;
		} else {
			memset(n + t->size, 0,
			       (nsize - t->size) * sizeof(*n));
			t->idr = n;
			t->size = nsize;
		}
	}
	if (!ret) {
		t->idr[h] = syncobj_get(s);
		t->free_hint = h + 1;
		*handle = h;
	}
	pthread_mutex_unlock(&t->lock);
	return ret;
}

void shim_syncobjs_lock(struct shim_syncobjs *t)
{
	pthread_mutex_lock(&t->lock);
}

void shim_syncobjs_unlock(struct shim_syncobjs *t)
{
	pthread_mutex_unlock(&t->lock);
}

/* drm_syncobj_destroy(): an unknown handle is -EINVAL here */
int syncobj_destroy(struct shim_syncobjs *t, uint32_t handle)
{
	struct shim_syncobj *s = NULL;

	pthread_mutex_lock(&t->lock);
	if (handle && handle < t->size) {
		s = t->idr[handle];
		t->idr[handle] = NULL;
		if (s && handle < t->free_hint)
			t->free_hint = handle;
	}
	pthread_mutex_unlock(&t->lock);

	if (!s)
		return -EINVAL;
	shim_syncobj_put(s);
	return 0;
}

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
