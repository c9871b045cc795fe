// SPDX-License-Identifier: MIT
/*
 * syncobj_fd.c: syncobjs as file descriptors, in-process: HANDLE_TO_FD
 * and FD_TO_HANDLE, as drm_syncobj.c and sync_file.c of Linux 6.1 make
 * and take them.
 *
 * A syncobj's fd is a memfd that stands for the syncobj; a sync_file an
 * eventfd, written once its fence signals, so that the user can poll()
 * it, and that answers SYNC_IOC_FILE_INFO. Both are tracked by
 * fdtable.c (shim_fd_track()), so that a dup() of one is one too and
 * its last close() releases what it holds.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>

#include <linux/sync_file.h>

#include "shim.h"
#include "syncobj_internal.h"

static void syncobj_file_release(void *data)
{
	shim_syncobj_put(data);
}

/* drm_syncobj_file_fops: FD_TO_HANDLE takes only these */
static const struct shim_fd_ops syncobj_file_ops = {
	.name = "syncobj_file",
	.release = syncobj_file_release,
};

/*
 * A sync_file: an eventfd the user polls, written once its fence
 * signals, through a dup of our own (the user may close theirs first).
 */
struct sync_file {
	int refcount;			/* the fd table's, the callback's */
	pthread_mutex_t lock;
	struct shim_fence *fence;
	struct shim_fence_cb cb;
	int wfd;			/* @lock; -1 once written or released */
};

static void sync_file_put(struct sync_file *sf)
{
	if (__atomic_sub_fetch(&sf->refcount, 1, __ATOMIC_ACQ_REL))
		return;
	shim_fence_put(sf->fence);
	pthread_mutex_destroy(&sf->lock);
	free(sf);
}

static void sync_file_close_wfd(struct sync_file *sf, bool write_one)
{
	pthread_mutex_lock(&sf->lock);
	if (sf->wfd >= 0) {
		if (write_one)
			shim_eventfd_signal(sf->wfd);
		shim_fd_private_close(sf->wfd);
		sf->wfd = -1;
	}
	pthread_mutex_unlock(&sf->lock);
}

static void sync_file_fence_func(struct shim_fence *f, struct shim_fence_cb *cb)
{
	struct sync_file *sf = container_of(cb, struct sync_file, cb);

	(void)f;
	sync_file_close_wfd(sf, true);
	sync_file_put(sf);
}

static void sync_file_release(void *data)
{
	struct sync_file *sf = data;

	if (fence_remove_callback(sf->fence, &sf->cb))
		sync_file_put(sf);	/* the callback's reference */
	sync_file_close_wfd(sf, false);
	sync_file_put(sf);
}

/*
 * SYNC_IOC_FILE_INFO, as sync_file_ioctl_fence_info() answers it for a
 * sync_file of one fence (what every export makes): with no room for
 * fence infos, the file's status and their count; else one info each.
 */
static int sync_file_info(struct sync_file *sf, struct sync_file_info *u)
{
	struct sync_fence_info fi;
	struct sync_file_info info;
	int status;

	if (shim_copy_in(&info, u, sizeof(info)))
		return -EFAULT;
	if (info.flags || info.pad)
		return -EINVAL;
	status = shim_fence_status(sf->fence);
	if (info.num_fences) {
		memset(&fi, 0, sizeof(fi));
		snprintf(fi.obj_name, sizeof(fi.obj_name), "%llu",
			 (unsigned long long)sf->fence->context);
		snprintf(fi.driver_name, sizeof(fi.driver_name), "vatom");
		fi.status = status;
		if (shim_copy_out((void *)(uintptr_t)info.sync_fence_info, &fi,
				  sizeof(fi)))
			return -EFAULT;
		status = status <= 0 ? status : 1;
	}
	snprintf(info.name, sizeof(info.name), "vatom-%llu-%llu",
		 (unsigned long long)sf->fence->context,
		 (unsigned long long)sf->fence->seqno);
	info.status = status;
	info.num_fences = 1;
	return shim_copy_out(u, &info, sizeof(info));
}

static int sync_file_ioctl(void *data, unsigned long request, void *arg)
{
	if (request == SYNC_IOC_FILE_INFO)
		return sync_file_info(data, arg);
	return -ENOTTY;		/* SYNC_IOC_MERGE: docs/shim.md */
}

static const struct shim_fd_ops sync_file_ops = {
	.name = "sync_file",
	.release = sync_file_release,
	.ioctl = sync_file_ioctl,
};

/* drm_syncobj_get_fd(): always O_CLOEXEC, as get_unused_fd_flags() */
static int syncobj_get_fd(struct shim_syncobj *s, int *p_fd)
{
	int fd = memfd_create("vatom-shim-syncobj", MFD_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = shim_fd_track(fd, &syncobj_file_ops, syncobj_get(s));
	if (ret) {
		shim_syncobj_put(s);
		shim_real_close(fd);
		return ret;
	}
	*p_fd = fd;
	return 0;
}

/* drm_syncobj_handle_to_fd(): an unknown handle is -EINVAL here */
int syncobj_handle_to_fd(struct shim_syncobjs *t, uint32_t handle,
			 int *p_fd)
{
	struct shim_syncobj *s = shim_syncobj_find(t, handle);
	int ret;

	if (!s)
		return -EINVAL;
	ret = syncobj_get_fd(s, p_fd);
	shim_syncobj_put(s);
	return ret;
}

static void *syncobj_file_get(void *data)
{
	return syncobj_get(data);
}

/* drm_syncobj_fd_to_handle(): a new handle for every import */
int syncobj_fd_to_handle(struct shim_syncobjs *t, int fd,
			 uint32_t *handle)
{
	struct shim_syncobj *s = shim_fd_get(fd, &syncobj_file_ops,
					     syncobj_file_get);
	int ret;

	if (!s)		/* not open, or not a syncobj file: both -EINVAL */
		return -EINVAL;
	ret = syncobj_get_handle(t, s, handle);
	shim_syncobj_put(s);
	return ret;
}

static void *sync_file_fence_get(void *data)
{
	return shim_fence_get(((struct sync_file *)data)->fence);
}

/* sync_file_get_fence() */
static struct shim_fence *sync_file_get_fence(int fd)
{
	return shim_fd_get(fd, &sync_file_ops, sync_file_fence_get);
}

int syncobj_import_sync_file_fence(struct shim_syncobjs *t, int fd,
				   uint32_t handle)
{
	struct shim_fence *fence = sync_file_get_fence(fd);
	struct shim_syncobj *s;

	if (!fence)
		return -EINVAL;

	s = shim_syncobj_find(t, handle);
	if (!s) {
		shim_fence_put(fence);
		return -ENOENT;
	}
	shim_syncobj_replace_fence(s, fence);
	shim_fence_put(fence);
	shim_syncobj_put(s);
	return 0;
}

int syncobj_export_sync_file(struct shim_syncobjs *t, uint32_t handle,
			     int *p_fd)
{
	struct shim_fence *fence;
	struct sync_file *sf;
	int fd, ret;

	/* the fd first, as get_unused_fd_flags() comes first there */
	fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (fd < 0)
		return -errno;

	ret = shim_syncobj_find_fence(t, handle, 0, 0, &fence);
	if (ret)
		goto err_close;

	sf = calloc(1, sizeof(*sf));
	if (!sf) {
		ret = -ENOMEM;
		goto err_put_fence;
	}
	sf->wfd = shim_fd_private_dup(fd);
	if (sf->wfd < 0) {
		ret = sf->wfd;
		free(sf);
		goto err_put_fence;
	}
	pthread_mutex_init(&sf->lock, NULL);
	sf->fence = fence;
	sf->refcount = 2;
	if (fence_add_callback(fence, &sf->cb, sync_file_fence_func))
		sync_file_fence_func(fence, &sf->cb);

	ret = shim_fd_track(fd, &sync_file_ops, sf);
	if (ret) {
		sync_file_release(sf);
		goto err_close;
	}
	*p_fd = fd;
	return 0;

err_put_fence:
	shim_fence_put(fence);
err_close:
	shim_real_close(fd);
	return ret;
}
