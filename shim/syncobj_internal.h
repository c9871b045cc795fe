/* SPDX-License-Identifier: MIT */
/*
 * syncobj_internal.h: what the syncobj files share behind syncobj.h
 * (their face to the rest of the shim): struct shim_syncobj and the
 * entries that wait on one, and the drm_syncobj.c functions one file
 * calls in another, by the kernel's names less "drm_".
 *
 * syncobj.c has the syncobjs and their handles, syncobj_wait.c the
 * waits for their points, syncobj_fd.c their descriptors,
 * syncobj_ioctl.c the ioctls; the fences they hold are fence_internal.h's,
 * their timeline points fence_chain.h's.
 */
#ifndef _VATOM_SHIM_SYNCOBJ_INTERNAL_H_
#define _VATOM_SHIM_SYNCOBJ_INTERNAL_H_

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fence_internal.h"
#include "fence_chain.h"
#include "syncobj.h"

/*
 * KMALLOC_MAX_SIZE on x86-64 6.1 (MAX_ORDER 11): a larger kmalloc_array()
 * fails, so a huge count_handles is -ENOMEM, not a huge copy.
 */
#define KMALLOC_MAX_SIZE (4u << 20)

static inline bool kmalloc_array_fits(size_t n, size_t size)
{
	return n <= KMALLOC_MAX_SIZE / size;
}

struct shim_syncobj {
	int refcount;
	pthread_mutex_t lock;
	struct shim_fence *fence;	/* @lock */
	struct list cb_list;		/* struct syncobj_wait_entry */
	struct list ev_fd_list;		/* struct syncobj_eventfd_entry */
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

/* struct syncobj_eventfd_entry: DRM_IOCTL_SYNCOBJ_EVENTFD's */
struct syncobj_eventfd_entry {
	struct list node;
	struct shim_fence *fence;
	struct shim_fence_cb fence_cb;
	int fd;				/* shim_eventfd_get()'s copy */
	uint64_t point;
	uint32_t flags;
};

/* syncobj.c */
struct shim_syncobj *syncobj_get(struct shim_syncobj *s);
struct shim_fence *syncobj_fence_get(struct shim_syncobj *s);
void syncobj_eventfd_entry_func(struct shim_syncobj *s,
				struct syncobj_eventfd_entry *e,
				struct list *ready);
void syncobj_eventfd_arm(struct list *ready);
int syncobj_assign_null_handle(struct shim_syncobj *s);
int syncobj_create(struct shim_syncobj **out, uint32_t flags);
int syncobj_get_handle(struct shim_syncobjs *t, struct shim_syncobj *s,
		       uint32_t *handle);
int syncobj_destroy(struct shim_syncobjs *t, uint32_t handle);

/* syncobj_wait.c */
int syncobj_array_wait_timeout(struct shim_syncobj **syncobjs,
			       const void *user_points, uint32_t count,
			       uint32_t flags, int64_t timeout_nsec,
			       uint32_t *idx);

/* syncobj_fd.c */
int syncobj_handle_to_fd(struct shim_syncobjs *t, uint32_t handle,
			 int *p_fd);
int syncobj_fd_to_handle(struct shim_syncobjs *t, int fd, uint32_t *handle);
int syncobj_import_sync_file_fence(struct shim_syncobjs *t, int fd,
				   uint32_t handle);
int syncobj_export_sync_file(struct shim_syncobjs *t, uint32_t handle,
			     int *p_fd);

#endif /* _VATOM_SHIM_SYNCOBJ_INTERNAL_H_ */
