// SPDX-License-Identifier: MIT
/*
 * syncobj_ioctl.c: the DRM_IOCTL_SYNCOBJ_* ioctls, in-process, as
 * drm_syncobj.c's *_ioctl() functions of Linux 6.1 answer them (and
 * EVENTFD, Linux 6.6's, where drm.h has it): file.c passes each here,
 * in the shim's own copy of its argument.
 *
 * Each checks its arguments in the kernel's order, so that the same
 * call fails with the same errno, copies the handle and point arrays in
 * with shim_copy_in() and acts through syncobj.c and the others.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <drm.h>

#include "shim.h"
#include "syncobj_internal.h"

static void *u64_to_user_ptr(uint64_t p)
{
	return (void *)(uintptr_t)p;
}

/* drm_syncobj_array_find() */
static int syncobj_array_find(struct shim_syncobjs *t, const void *user_handles,
			      uint32_t count, struct shim_syncobj ***out)
{
	struct shim_syncobj **syncobjs;
	uint32_t i, *handles;
	int ret;

	if (!kmalloc_array_fits(count, sizeof(*handles)))
		return -ENOMEM;
	handles = malloc(count * sizeof(*handles));
	if (!handles)
		return -ENOMEM;

	if (shim_copy_in(handles, user_handles, count * sizeof(*handles))) {
		ret = -EFAULT;
		goto err_free_handles;
	}

	if (!kmalloc_array_fits(count, sizeof(void *))) {
		ret = -ENOMEM;
		goto err_free_handles;
	}
	syncobjs = malloc(count * sizeof(*syncobjs));
	if (!syncobjs) {
		ret = -ENOMEM;
		goto err_free_handles;
	}

	for (i = 0; i < count; i++) {
		syncobjs[i] = shim_syncobj_find(t, handles[i]);
		if (!syncobjs[i]) {
			ret = -ENOENT;
			goto err_put_syncobjs;
		}
	}

	free(handles);
	*out = syncobjs;
	return 0;

err_put_syncobjs:
	while (i-- > 0)
		shim_syncobj_put(syncobjs[i]);
	free(syncobjs);
err_free_handles:
	free(handles);
	return ret;
}

static void syncobj_array_free(struct shim_syncobj **syncobjs, uint32_t count)
{
	uint32_t i;

	for (i = 0; i < count; i++)
		shim_syncobj_put(syncobjs[i]);
	free(syncobjs);
}

static int syncobj_create_ioctl(struct shim_syncobjs *t,
				struct drm_syncobj_create *args)
{
	struct shim_syncobj *s;
	int ret;

	/* no valid flags yet */
	if (args->flags & ~DRM_SYNCOBJ_CREATE_SIGNALED)
		return -EINVAL;

	ret = syncobj_create(&s, args->flags);
	if (ret)
		return ret;
	ret = syncobj_get_handle(t, s, &args->handle);
	shim_syncobj_put(s);
	return ret;
}

static int syncobj_destroy_ioctl(struct shim_syncobjs *t,
				 struct drm_syncobj_destroy *args)
{
	/* make sure padding is empty */
	if (args->pad)
		return -EINVAL;
	return syncobj_destroy(t, args->handle);
}

static int syncobj_handle_to_fd_ioctl(struct shim_syncobjs *t,
				      struct drm_syncobj_handle *args)
{
	if (args->pad)
		return -EINVAL;

	if (args->flags != 0 &&
	    args->flags != DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE)
		return -EINVAL;

	if (args->flags & DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE)
		return syncobj_export_sync_file(t, args->handle, &args->fd);

	return syncobj_handle_to_fd(t, args->handle, &args->fd);
}

static int syncobj_fd_to_handle_ioctl(struct shim_syncobjs *t,
				      struct drm_syncobj_handle *args)
{
	if (args->pad)
		return -EINVAL;

	if (args->flags != 0 &&
	    args->flags != DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE)
		return -EINVAL;

	if (args->flags & DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE)
		return syncobj_import_sync_file_fence(t, args->fd,
						      args->handle);

	return syncobj_fd_to_handle(t, args->fd, &args->handle);
}

static int syncobj_transfer_to_timeline(struct shim_syncobjs *t,
					struct drm_syncobj_transfer *args)
{
	struct shim_syncobj *timeline;
	struct shim_fence *fence, *tmp;
	struct shim_chain *chain;
	int ret;

	timeline = shim_syncobj_find(t, args->dst_handle);
	if (!timeline)
		return -ENOENT;
	/* 6.1 passes the flags on unchecked: only WAIT_FOR_SUBMIT counts */
	ret = shim_syncobj_find_fence(t, args->src_handle, args->src_point,
				      args->flags, &tmp);
	if (ret)
		goto err_put_timeline;

	fence = fence_unwrap_merge(tmp);
	shim_fence_put(tmp);
	if (!fence) {
		ret = -ENOMEM;
		goto err_put_timeline;
	}

	chain = shim_chain_alloc();
	if (!chain) {
		ret = -ENOMEM;
		goto err_free_fence;
	}

	shim_syncobj_add_point(timeline, chain, fence, args->dst_point);
err_free_fence:
	shim_fence_put(fence);
err_put_timeline:
	shim_syncobj_put(timeline);
	return ret;
}

static int syncobj_transfer_to_binary(struct shim_syncobjs *t,
				      struct drm_syncobj_transfer *args)
{
	struct shim_syncobj *binary;
	struct shim_fence *fence;
	int ret;

	binary = shim_syncobj_find(t, args->dst_handle);
	if (!binary)
		return -ENOENT;
	ret = shim_syncobj_find_fence(t, args->src_handle, args->src_point,
				      args->flags, &fence);
	if (!ret) {
		shim_syncobj_replace_fence(binary, fence);
		shim_fence_put(fence);
	}
	shim_syncobj_put(binary);
	return ret;
}

static int syncobj_transfer_ioctl(struct shim_syncobjs *t,
				  struct drm_syncobj_transfer *args)
{
	if (args->pad)
		return -EINVAL;

	if (args->dst_point)
		return syncobj_transfer_to_timeline(t, args);
	return syncobj_transfer_to_binary(t, args);
}

static int syncobj_wait_ioctl(struct shim_syncobjs *t,
			      struct drm_syncobj_wait *args)
{
	struct shim_syncobj **syncobjs;
	uint32_t first = ~0u;
	int ret;

	if (args->flags & ~(DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL |
			    DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT))
		return -EINVAL;

	if (args->count_handles == 0)
		return -EINVAL;

	ret = syncobj_array_find(t, u64_to_user_ptr(args->handles),
				 args->count_handles, &syncobjs);
	if (ret < 0)
		return ret;

	ret = syncobj_array_wait_timeout(syncobjs, NULL, args->count_handles,
					 args->flags, args->timeout_nsec,
					 &first);
	if (!ret)
		args->first_signaled = first;

	syncobj_array_free(syncobjs, args->count_handles);
	return ret;
}

static int syncobj_timeline_wait_ioctl(struct shim_syncobjs *t,
				       struct drm_syncobj_timeline_wait *args)
{
	struct shim_syncobj **syncobjs;
	uint32_t first = ~0u;
	int ret;

	if (args->flags & ~(DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL |
			    DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT |
			    DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE))
		return -EINVAL;

	if (args->count_handles == 0)
		return -EINVAL;

	ret = syncobj_array_find(t, u64_to_user_ptr(args->handles),
				 args->count_handles, &syncobjs);
	if (ret < 0)
		return ret;

	ret = syncobj_array_wait_timeout(syncobjs,
					 u64_to_user_ptr(args->points),
					 args->count_handles, args->flags,
					 args->timeout_nsec, &first);
	if (!ret)
		args->first_signaled = first;

	syncobj_array_free(syncobjs, args->count_handles);
	return ret;
}

static int syncobj_reset_ioctl(struct shim_syncobjs *t,
			       struct drm_syncobj_array *args)
{
	struct shim_syncobj **syncobjs;
	uint32_t i;
	int ret;

	if (args->pad != 0)
		return -EINVAL;

	if (args->count_handles == 0)
		return -EINVAL;

	ret = syncobj_array_find(t, u64_to_user_ptr(args->handles),
				 args->count_handles, &syncobjs);
	if (ret < 0)
		return ret;

	for (i = 0; i < args->count_handles; i++)
		shim_syncobj_replace_fence(syncobjs[i], NULL);

	syncobj_array_free(syncobjs, args->count_handles);
	return 0;
}

static int syncobj_signal_ioctl(struct shim_syncobjs *t,
				struct drm_syncobj_array *args)
{
	struct shim_syncobj **syncobjs;
	uint32_t i;
	int ret;

	if (args->pad != 0)
		return -EINVAL;

	if (args->count_handles == 0)
		return -EINVAL;

	ret = syncobj_array_find(t, u64_to_user_ptr(args->handles),
				 args->count_handles, &syncobjs);
	if (ret < 0)
		return ret;

	for (i = 0; i < args->count_handles; i++) {
		ret = syncobj_assign_null_handle(syncobjs[i]);
		if (ret < 0)
			break;
	}

	syncobj_array_free(syncobjs, args->count_handles);
	return ret;
}

static int syncobj_timeline_signal_ioctl(struct shim_syncobjs *t,
					 struct drm_syncobj_timeline_array *args)
{
	struct shim_syncobj **syncobjs;
	struct shim_chain **chains;
	uint64_t *points;
	uint32_t i, j;
	int ret;

	if (args->flags != 0)
		return -EINVAL;

	if (args->count_handles == 0)
		return -EINVAL;

	ret = syncobj_array_find(t, u64_to_user_ptr(args->handles),
				 args->count_handles, &syncobjs);
	if (ret < 0)
		return ret;

	points = NULL;
	if (kmalloc_array_fits(args->count_handles, sizeof(*points)))
		points = malloc(args->count_handles * sizeof(*points));
	if (!points) {
		ret = -ENOMEM;
		goto out;
	}
	if (!u64_to_user_ptr(args->points)) {
		memset(points, 0, args->count_handles * sizeof(*points));
	} else if (shim_copy_in(points, u64_to_user_ptr(args->points),
				args->count_handles * sizeof(*points))) {
		ret = -EFAULT;
		goto err_points;
	}

	chains = NULL;
	if (kmalloc_array_fits(args->count_handles, sizeof(void *)))
		chains = malloc(args->count_handles * sizeof(*chains));
	if (!chains) {
		ret = -ENOMEM;
		goto err_points;
	}
	for (i = 0; i < args->count_handles; i++) {
		chains[i] = shim_chain_alloc();
		if (!chains[i]) {
			for (j = 0; j < i; j++)
				shim_chain_free(chains[j]);
			ret = -ENOMEM;
			goto err_chains;
		}
	}

	for (i = 0; i < args->count_handles; i++) {
		struct shim_fence *fence = fence_get_stub();

		shim_syncobj_add_point(syncobjs[i], chains[i], fence,
				       points[i]);
		shim_fence_put(fence);
	}
err_chains:
	free(chains);
err_points:
	free(points);
out:
	syncobj_array_free(syncobjs, args->count_handles);
	return ret;
}

static int syncobj_query_ioctl(struct shim_syncobjs *t,
			       struct drm_syncobj_timeline_array *args)
{
	struct shim_syncobj **syncobjs;
	uint64_t *points = u64_to_user_ptr(args->points);
	uint32_t i;
	int ret;

	if (args->flags & ~DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED)
		return -EINVAL;

	if (args->count_handles == 0)
		return -EINVAL;

	ret = syncobj_array_find(t, u64_to_user_ptr(args->handles),
				 args->count_handles, &syncobjs);
	if (ret < 0)
		return ret;

	for (i = 0; i < args->count_handles; i++) {
		struct shim_fence *fence = syncobj_fence_get(syncobjs[i]);
		uint64_t point;

		if (is_chain(fence)) {
			struct shim_fence *iter;
			struct shim_fence *last_signaled =
				shim_fence_get(fence);

			if (args->flags &
			    DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED) {
				point = fence->seqno;
			} else {
				chain_for_each(iter, fence) {
					if (iter->context != fence->context) {
						shim_fence_put(iter);
						/* most likely unordered points */
						break;
					}
					shim_fence_put(last_signaled);
					last_signaled = shim_fence_get(iter);
				}
				point = fence_is_signaled(last_signaled) ?
					last_signaled->seqno :
					last_signaled->chain.prev_seqno;
			}
			shim_fence_put(last_signaled);
		} else {
			point = 0;
		}
		shim_fence_put(fence);
		ret = shim_copy_out(&points[i], &point, sizeof(point));
		ret = ret ? -EFAULT : 0;
		if (ret)
			break;
	}
	syncobj_array_free(syncobjs, args->count_handles);
	return ret;
}

#ifdef DRM_IOCTL_SYNCOBJ_EVENTFD
/* drm_syncobj_eventfd_ioctl(), Linux 6.6 */
static int syncobj_eventfd_ioctl(struct shim_syncobjs *t,
				 struct drm_syncobj_eventfd *args)
{
	struct syncobj_eventfd_entry *entry;
	struct shim_syncobj *s;
	struct list ready;
	int ev_fd, ret;

	if (args->flags & ~DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE)
		return -EINVAL;

	if (args->pad)
		return -EINVAL;

	s = shim_syncobj_find(t, args->handle);
	if (!s)
		return -ENOENT;

	/* our own reference to the eventfd, as eventfd_ctx is */
	ev_fd = shim_eventfd_get(args->fd);
	if (ev_fd < 0) {
		ret = ev_fd;
		goto err_put;
	}

	entry = calloc(1, sizeof(*entry));
	if (!entry) {
		shim_fd_private_close(ev_fd);
		ret = -ENOMEM;
		goto err_put;
	}
	entry->fd = ev_fd;
	entry->point = args->point;
	entry->flags = args->flags;

	/* drm_syncobj_add_eventfd() */
	list_init(&ready);
	pthread_mutex_lock(&s->lock);
	list_add_tail(&entry->node, &s->ev_fd_list);
	syncobj_eventfd_entry_func(s, entry, &ready);
	pthread_mutex_unlock(&s->lock);
	syncobj_eventfd_arm(&ready);
	ret = 0;

err_put:
	shim_syncobj_put(s);
	return ret;
}
#endif

int shim_syncobj_ioctl(struct shim_syncobjs *t, unsigned long request,
		       void *arg)
{
	switch (request) {
	case DRM_IOCTL_SYNCOBJ_CREATE:
		return syncobj_create_ioctl(t, arg);
	case DRM_IOCTL_SYNCOBJ_DESTROY:
		return syncobj_destroy_ioctl(t, arg);
	case DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD:
		return syncobj_handle_to_fd_ioctl(t, arg);
	case DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE:
		return syncobj_fd_to_handle_ioctl(t, arg);
	case DRM_IOCTL_SYNCOBJ_WAIT:
		return syncobj_wait_ioctl(t, arg);
	case DRM_IOCTL_SYNCOBJ_RESET:
		return syncobj_reset_ioctl(t, arg);
	case DRM_IOCTL_SYNCOBJ_SIGNAL:
		return syncobj_signal_ioctl(t, arg);
	case DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT:
		return syncobj_timeline_wait_ioctl(t, arg);
	case DRM_IOCTL_SYNCOBJ_QUERY:
		return syncobj_query_ioctl(t, arg);
	case DRM_IOCTL_SYNCOBJ_TRANSFER:
		return syncobj_transfer_ioctl(t, arg);
	case DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL:
		return syncobj_timeline_signal_ioctl(t, arg);
#ifdef DRM_IOCTL_SYNCOBJ_EVENTFD
	case DRM_IOCTL_SYNCOBJ_EVENTFD:
		return syncobj_eventfd_ioctl(t, arg);
#endif
	default:
		return -ENOTTY;
	}
}
