// SPDX-License-Identifier: MIT
/*
 * surface_ioctl.c: the surface ioctls of the in-process device, as
 * vatom_surface_ioctl.c: SURFACE_CREATE (a buffer, a typed surface or a
 * tile grid, each from its descriptor, laid out by the engine),
 * SURFACE_MMAP_OFFSET and SURFACE_INFO. What a surface is, its handles,
 * charges and mapping, is surface.c's.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"

/*
 * copy_struct_from_user(): a shorter descriptor is zero extended; bytes
 * past ours must be zero (-EINVAL, as vatom_copy_desc() answers).
 */
static int shim_copy_desc(void *desc, size_t size,
			  const struct drm_vatom_surface_create *args)
{
	const unsigned char *u = (const void *)(uintptr_t)args->desc;
	unsigned char tail[64];
	size_t n = args->desc_size < size ? args->desc_size : size;
	size_t off, len, i;

	memset(desc, 0, size);
	if (shim_copy_in(desc, u, n))
		return -EFAULT;
	for (off = size; off < args->desc_size; off += len) {
		len = args->desc_size - off;
		if (len > sizeof(tail))
			len = sizeof(tail);
		if (shim_copy_in(tail, u + off, len))
			return -EFAULT;
		for (i = 0; i < len; i++)
			if (tail[i])
				return -EINVAL;
	}
	return 0;
}

/* The layout of a typed surface or a tile grid, from its descriptor. */
static int shim_surface_layout(const struct drm_vatom_surface_create *args,
			       struct vatom_typed_layout **typed,
			       struct vatom_tile_grid **grid, u64 *size)
{
	struct drm_vatom_tile_grid_desc gd;
	struct drm_vatom_typed_desc td;
	u8 *types;
	int ret;

	if (args->kind == DRM_VATOM_SURFACE_TYPED) {
		ret = shim_copy_desc(&td, sizeof(td), args);
		if (ret)
			return ret;
		*typed = calloc(1, sizeof(**typed));
		if (!*typed)
			return -ENOMEM;
		ret = vatom_typed_layout_init(*typed, &td, VATOM_MAX_SURFACE_SIZE);
		*size = (*typed)->size;
		return ret;
	}

	ret = shim_copy_desc(&gd, sizeof(gd), args);
	if (ret)
		return ret;
	ret = vatom_rule_tile_grid_dims(&gd);
	if (ret)
		return ret;
	types = malloc(gd.width * gd.height);
	if (!types)
		return -ENOMEM;
	if (shim_copy_in(types, (const void *)(uintptr_t)gd.tile_types,
			 gd.width * gd.height)) {
		free(types);
		return -EFAULT;
	}
	*grid = calloc(1, sizeof(**grid));
	if (!*grid) {
		free(types);
		return -ENOMEM;
	}
	ret = vatom_tile_grid_layout_init(*grid, &gd, types, VATOM_MAX_SURFACE_SIZE);
	free(types);
	*size = (*grid)->size;
	return ret;
}

int shim_surface_create(struct shim_file *f, void *arg)
{
	struct drm_vatom_surface_create *args = arg;
	struct vatom_typed_layout *typed = NULL;
	struct vatom_tile_grid *grid = NULL;
	struct shim_surface *s;
	u64 size = args->size;
	int ret;

	ret = vatom_rule_surface_create(args);
	if (ret)
		return ret;
	if (args->kind != DRM_VATOM_SURFACE_BUFFER) {
		ret = shim_surface_layout(args, &typed, &grid, &size);
		if (ret)
			goto fail;
	}
	ret = shim_surface_alloc(size, &s);
	if (ret)
		goto fail;
	s->view.kind = args->kind;
	s->typed = typed;
	s->view.typed = typed;
	s->grid = grid;
	s->view.grid = grid;
	if (typed)
		s->charge += sizeof(*typed);
	if (grid)
		s->charge += sizeof(*grid);
	ret = shim_handle_create(f, s, &args->handle);
	shim_surface_put(s);	/* the handle holds it, or it is gone */
	if (!ret && args->kind != DRM_VATOM_SURFACE_BUFFER)
		args->size = size;
	return ret;
fail:
	free(typed);
	free(grid);
	return ret;
}

int shim_surface_mmap_offset(struct shim_file *f, void *arg)
{
	struct drm_vatom_surface_mmap_offset *args = arg;
	struct shim_surface *s;

	if (args->flags)
		return -EINVAL;
	s = shim_surface_lookup(f, args->handle);
	if (!s)
		return -ENOENT;
	args->offset = s->offset;
	shim_surface_put(s);
	return 0;
}

int shim_surface_info(struct shim_file *f, void *arg)
{
	struct drm_vatom_surface_info *args = arg;
	struct shim_surface *s;

	if (vatom_rule_surface_info(args))
		return -EINVAL;
	s = shim_surface_lookup(f, args->handle);
	if (!s)
		return -ENOENT;
	args->kind = s->view.kind;
	args->size = s->view.size;
	args->mmap_size = s->mmap_size;
	shim_surface_put(s);
	return 0;
}
