// SPDX-License-Identifier: MIT
/*
 * syncobj.c: DRM syncobjs, in-process: the objects and their fence (a
 * binary syncobj's, or a timeline's last point), whom a new fence wakes
 * (waits, eventfds), and a file's handle table.
 *
 * A program run under the shim must see the syncobjs vatom.ko's DRM core
 * gives it: drivers/gpu/drm/drm_syncobj.c, dma-fence.c, dma-fence-chain.c
 * and dma-fence-unwrap.c of Linux 6.1 (Debian 12's kernel) with the 6.1.y
 * fixes (WAIT_AVAILABLE waits for a point to be submitted, 6.1.63 and
 * 6.1.80). The code follows those files function by function, with their
 * names where it helps to compare, and the same order of argument checks,
 * so the same call fails with the same errno. It is in these files:
 *
 *   fence.c          fences (dma-fence.c), and the sleeping tasks
 *   fence_chain.c    timeline points (dma-fence-chain.c)
 *   fence_unwrap.c   TRANSFER's merge (dma-fence-unwrap.c, -array.c)
 *   syncobj.c        the syncobjs and their handles
 *   syncobj_wait.c   the waits: WAIT_FOR_SUBMIT, WAIT, TIMELINE_WAIT
 *   syncobj_fd.c     syncobj files and sync_files
 *   syncobj_ioctl.c  the ioctls, DRM_IOCTL_SYNCOBJ_*
 *
 * with fence_internal.h, fence_chain.h and syncobj_internal.h between them,
 * fence.h and syncobj.h for the rest of the shim.
 *
 * Kernel to here: spinlocks and RCU are mutexes; sleeping tasks are
 * condition variables on CLOCK_MONOTONIC, which signals do not interrupt
 * (the kernel's waits are interruptible: -ERESTARTSYS); irq_work is a
 * direct call. Fence callbacks run in the signaling thread after its
 * fence's lock is dropped, and no syncobj lock is held while any runs.
 *
 * Lock order: syncobj table, then syncobj, then a fence's or a waiter's
 * (those two never nest another).
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <drm.h>

#include "shim.h"
#include "syncobj_internal.h"

/* ------------------------------------------------------------------ */
/* syncobjs                                                             */
/* ------------------------------------------------------------------ */

struct shim_syncobjs {
	pthread_mutex_t lock;
	struct shim_syncobj **idr;	/* [handle], [0] unused */
	uint32_t size;
	uint32_t free_hint;		/* no free handle below it */
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

static void syncobj_eventfd_entry_free(struct syncobj_eventfd_entry *e)
{
	shim_fence_put(e->fence);
	shim_fd_private_close(e->fd);
	free(e);
}

static void syncobj_eventfd_entry_fence_func(struct shim_fence *f,
					     struct shim_fence_cb *cb)
{
	struct syncobj_eventfd_entry *e =
		container_of(cb, struct syncobj_eventfd_entry, fence_cb);

	(void)f;
	shim_eventfd_signal(e->fd);
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
			shim_eventfd_signal(e->fd);
			syncobj_eventfd_entry_free(e);
			continue;
		}
		if (fence_add_callback(e->fence, &e->fence_cb,
				       syncobj_eventfd_entry_fence_func) ==
		    -ENOENT) {
			shim_eventfd_signal(e->fd);
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
