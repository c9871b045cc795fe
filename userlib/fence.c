// SPDX-License-Identifier: MIT
/*
 * libvatom: asynchronous submission and fences.
 *
 * A vatom_fence is a binary DRM syncobj on the device's fd that holds the
 * dma_fence of one job (or, once imported, any sync_file's fence). Waiting
 * is DRM_IOCTL_SYNCOBJ_WAIT with an absolute CLOCK_MONOTONIC deadline; a
 * job's error is read from its fence's status, through a sync_file.
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/sync_file.h>
#include <xf86drm.h>

#include "internal.h"

/* libdrm's syncobj helpers return -1 or -errno depending on the version. */
static int drm_ret(int ret)
{
	if (!ret)
		return 0;
	return errno ? -errno : (ret < 0 ? ret : -EIO);
}

static int fence_new(struct vatom_device *dev, struct vatom_fence **fp)
{
	struct vatom_fence *f;
	int ret;

	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->dev = dev;
	errno = 0;
	ret = drm_ret(drmSyncobjCreate(dev->fd, 0, &f->syncobj));
	if (ret) {
		free(f);
		return ret;
	}
	*fp = f;
	return 0;
}

VATOM_API void vatom_fence_destroy(struct vatom_fence *f)
{
	if (!f)
		return;
	drmSyncobjDestroy(f->dev->fd, f->syncobj);
	free(f);
}

VATOM_API int vatom_submit_async(struct vatom_batch *b,
				 struct vatom_surface *results, uint64_t offset,
				 struct vatom_fence *const *in_fences,
				 unsigned int in_count,
				 struct vatom_fence **out_fence)
{
	struct drm_vatom_sync in[VATOM_MAX_IN_FENCES], out = { 0 };
	struct vatom_fence *f = NULL;
	unsigned int i;
	int ret;

	if (!b || (in_count && !in_fences))
		return -EINVAL;
	if (in_count > VATOM_MAX_IN_FENCES)
		return -E2BIG;
	for (i = 0; i < in_count; i++)
		if (!in_fences[i])
			return -EINVAL;
	if (!b->dev)
		return -ENODEV;
	memset(in, 0, sizeof(in));
	for (i = 0; i < in_count; i++) {
		if (in_fences[i]->dev != b->dev)
			return -EXDEV;
		in[i].handle = in_fences[i]->syncobj;
	}
	if (out_fence) {
		*out_fence = NULL;
		ret = fence_new(b->dev, &f);
		if (ret)
			return ret;
		out.handle = f->syncobj;
	}

	ret = vatom__submit(b, results, offset, in, in_count, &out, f ? 1 : 0,
			    DRM_VATOM_SUBMIT_ASYNC);
	if (ret) {
		vatom_fence_destroy(f);
		return ret;
	}
	if (out_fence)
		*out_fence = f;
	return 0;
}

VATOM_API int vatom_fence_status(struct vatom_fence *f)
{
	struct sync_file_info info;
	int ret, fd;

	if (!f)
		return -EINVAL;
	ret = vatom_fence_export_sync_file(f, &fd);
	if (ret)
		return ret;
	memset(&info, 0, sizeof(info));
	ret = ioctl(fd, SYNC_IOC_FILE_INFO, &info) ? -errno : info.status;
	close(fd);
	return ret;
}

VATOM_API int vatom_fence_wait(struct vatom_fence *f, int64_t abs_timeout_ns)
{
	struct drm_syncobj_wait w;
	int ret;

	if (!f)
		return -EINVAL;
	memset(&w, 0, sizeof(w));
	w.handles = (uintptr_t)&f->syncobj;
	w.count_handles = 1;
	w.timeout_nsec = abs_timeout_ns;
	/* drmIoctl() restarts on EINTR; the deadline is absolute. */
	ret = vatom__ioctl(f->dev->fd, DRM_IOCTL_SYNCOBJ_WAIT, &w);
	if (ret)
		return ret;
	/* Signalled: did the job fail? */
	ret = vatom_fence_status(f);
	return ret < 0 ? ret : 0;
}

VATOM_API int vatom_fence_export_sync_file(struct vatom_fence *f, int *fd)
{
	if (!f || !fd)
		return -EINVAL;
	errno = 0;
	return drm_ret(drmSyncobjExportSyncFile(f->dev->fd, f->syncobj, fd));
}

VATOM_API int vatom_fence_import_sync_file(struct vatom_device *dev, int fd,
					   struct vatom_fence **fp)
{
	struct vatom_fence *f;
	int ret;

	if (!dev || !fp || fd < 0)
		return -EINVAL;
	ret = fence_new(dev, &f);
	if (ret)
		return ret;
	errno = 0;
	ret = drm_ret(drmSyncobjImportSyncFile(dev->fd, f->syncobj, fd));
	if (ret) {
		vatom_fence_destroy(f);
		return ret;
	}
	*fp = f;
	return 0;
}

VATOM_API uint32_t vatom_fence_syncobj(const struct vatom_fence *f)
{
	return f->syncobj;
}
