// SPDX-License-Identifier: MIT
/*
 * libvatom: surfaces (GEM objects): creation, mapping, PRIME sharing.
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <xf86drm.h>

#include "internal.h"

void vatom__gem_close(struct vatom_device *dev, uint32_t handle)
{
	struct drm_gem_close gc = { .handle = handle };

	if (handle)
		vatom__ioctl(dev->fd, DRM_IOCTL_GEM_CLOSE, &gc);
}

/* Map @len bytes of GEM object @handle (a surface, a queue's ring or page). */
int vatom__gem_map(struct vatom_device *dev, uint32_t handle, size_t len,
		   void **ptr)
{
	struct drm_vatom_surface_mmap_offset req = { .handle = handle };
	void *map;
	int ret;

	ret = vatom__ioctl(dev->fd, DRM_IOCTL_VATOM_SURFACE_MMAP_OFFSET, &req);
	if (ret)
		return ret;
	map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, dev->fd,
		   req.offset);
	if (map == MAP_FAILED)
		return -errno;
	*ptr = map;
	return 0;
}

/* Under dev->lock. */
static struct vatom_surface *find_handle(struct vatom_device *dev,
					 uint32_t handle)
{
	struct vatom_surface *s;

	for (s = dev->surfaces; s; s = s->next)
		if (s->handle == handle)
			return s;
	return NULL;
}

/* Under dev->lock: wrap a new handle in a surface and list it. */
static struct vatom_surface *surface_new(struct vatom_device *dev,
					 uint32_t handle, uint32_t kind,
					 uint64_t size)
{
	struct vatom_surface *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->dev = dev;
	s->handle = handle;
	s->kind = kind;
	s->size = size;
	s->refs = 1;
	s->next = dev->surfaces;
	dev->surfaces = s;
	return s;
}

static int surface_create(struct vatom_device *dev, uint32_t kind,
			  uint64_t size, const void *desc, uint32_t desc_size,
			  struct vatom_surface **sp)
{
	struct drm_vatom_surface_create req = {
		.kind = kind,
		.size = size,
		.desc = (uintptr_t)desc,
		.desc_size = desc_size,
	};
	struct vatom_surface *s;
	int ret;

	if (!dev || !sp)
		return -EINVAL;
	ret = vatom__ioctl(dev->fd, DRM_IOCTL_VATOM_SURFACE_CREATE, &req);
	if (ret)
		return ret;
	pthread_mutex_lock(&dev->lock);
	s = surface_new(dev, req.handle, kind, req.size);
	if (!s)
		vatom__gem_close(dev, req.handle);
	pthread_mutex_unlock(&dev->lock);
	if (!s)
		return -ENOMEM;
	*sp = s;
	return 0;
}

VATOM_API int vatom_surface_create_buffer(struct vatom_device *dev,
					  uint64_t size, unsigned int flags,
					  struct vatom_surface **sp)
{
	if (!size || flags)
		return -EINVAL;
	return surface_create(dev, DRM_VATOM_SURFACE_BUFFER, size, NULL, 0, sp);
}

VATOM_API int vatom_surface_create_typed(struct vatom_device *dev,
					 const struct drm_vatom_typed_desc *desc,
					 struct vatom_surface **sp)
{
	if (!desc)
		return -EINVAL;
	return surface_create(dev, DRM_VATOM_SURFACE_TYPED, 0, desc,
			      sizeof(*desc), sp);
}

VATOM_API int vatom_surface_create_tile_grid(struct vatom_device *dev,
					     const struct drm_vatom_tile_grid_desc *desc,
					     struct vatom_surface **sp)
{
	int ret;

	if (!desc)
		return -EINVAL;
	ret = surface_create(dev, DRM_VATOM_SURFACE_TILE_GRID, 0, desc,
			     sizeof(*desc), sp);
	/* For the L1 helpers; NULL (they say -EPROTO) if it cannot be had. */
	if (!ret)
		(*sp)->grid = vatom__grid_layout(desc, (*sp)->size);
	return ret;
}

static int surface_query(struct vatom_device *dev, uint32_t handle,
			 struct vatom_surface_info *info)
{
	struct drm_vatom_surface_info req = { .handle = handle };
	int ret;

	ret = vatom__ioctl(dev->fd, DRM_IOCTL_VATOM_SURFACE_INFO, &req);
	if (ret)
		return ret;
	info->kind = req.kind;
	info->handle = handle;
	info->size = req.size;
	info->mmap_size = req.mmap_size;
	return 0;
}

VATOM_API int vatom_surface_info(struct vatom_surface *s,
				 struct vatom_surface_info *info)
{
	if (!s || !info)
		return -EINVAL;
	return surface_query(s->dev, s->handle, info);
}

VATOM_API int vatom_surface_map(struct vatom_surface *s, void **ptr)
{
	struct vatom_device *dev;
	struct vatom_surface_info info;
	void *map;
	int ret = 0;

	if (!s || !ptr)
		return -EINVAL;
	dev = s->dev;
	pthread_mutex_lock(&dev->lock);
	if (s->map)
		goto out;
	/* The kernel says how much to map (page rounding is its business). */
	ret = surface_query(dev, s->handle, &info);
	if (ret)
		goto out;
	ret = vatom__gem_map(dev, s->handle, info.mmap_size, &map);
	if (ret)
		goto out;
	s->map = map;
	s->mmap_size = info.mmap_size;
out:
	if (!ret)
		*ptr = s->map;
	pthread_mutex_unlock(&dev->lock);
	return ret;
}

VATOM_API uint32_t vatom_surface_handle(const struct vatom_surface *s)
{
	return s->handle;
}

VATOM_API uint64_t vatom_surface_size(const struct vatom_surface *s)
{
	return s->size;
}

VATOM_API int vatom_surface_export(struct vatom_surface *s, int *fd)
{
	if (!s || !fd)
		return -EINVAL;
	if (drmPrimeHandleToFD(s->dev->fd, s->handle, DRM_CLOEXEC | DRM_RDWR, fd))
		return -errno;
	return 0;
}

VATOM_API int vatom_surface_import(struct vatom_device *dev, int fd,
				   struct vatom_surface **sp)
{
	struct vatom_surface_info info;
	struct vatom_surface *s;
	uint32_t handle;
	int ret = 0;

	if (!dev || !sp)
		return -EINVAL;
	if (fd < 0)
		return -EBADF;
	/*
	 * GEM gives a buffer one handle per file: importing a buffer this
	 * fd already knows returns the existing handle. Look-up, creation
	 * and the final GEM_CLOSE all happen under the lock, so that a
	 * handle is never wrapped twice or closed under another user.
	 */
	pthread_mutex_lock(&dev->lock);
	if (drmPrimeFDToHandle(dev->fd, fd, &handle)) {
		ret = -errno;
		goto out;
	}
	s = find_handle(dev, handle);
	if (s) {
		s->refs++;
		*sp = s;
		goto out;
	}
	ret = surface_query(dev, handle, &info);
	if (ret) {
		vatom__gem_close(dev, handle);
		goto out;
	}
	s = surface_new(dev, handle, info.kind, info.size);
	if (!s) {
		vatom__gem_close(dev, handle);
		ret = -ENOMEM;
		goto out;
	}
	*sp = s;
out:
	pthread_mutex_unlock(&dev->lock);
	return ret;
}

VATOM_API void vatom_surface_destroy(struct vatom_surface *s)
{
	struct vatom_device *dev;
	struct vatom_surface **pp;

	if (!s)
		return;
	dev = s->dev;
	pthread_mutex_lock(&dev->lock);
	if (--s->refs) {
		pthread_mutex_unlock(&dev->lock);
		return;
	}
	for (pp = &dev->surfaces; *pp; pp = &(*pp)->next) {
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	}
	if (s->map)
		munmap(s->map, s->mmap_size);
	vatom__gem_close(dev, s->handle);
	pthread_mutex_unlock(&dev->lock);
	free(s->grid);
	free(s);
}
