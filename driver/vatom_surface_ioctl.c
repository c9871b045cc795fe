// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The surface ioctls: SURFACE_CREATE (a buffer, a typed surface or a tile
 * grid, each from its descriptor), SURFACE_MMAP_OFFSET and SURFACE_INFO.
 * What a surface is, and how it is mapped and charged, is vatom_gem.c's.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_vma_manager.h>

#include "vatom_device.h"
#include "vatom_gem.h"
#include "vatom_ioctl.h"

/*
 * Create the GEM object behind a surface of @size bytes and hand its handle
 * to @file. @typed and @grid (either may be NULL) pass to the surface, which
 * frees them.
 */
static int vatom_surface_create(struct drm_device *dev, struct drm_file *file,
				u32 kind, u64 size, struct vatom_typed_layout *typed,
				struct vatom_tile_grid *grid, u32 *handle)
{
	struct vatom_surface *surf;
	int ret;

	surf = vatom_surface_alloc(dev, size);
	if (IS_ERR(surf)) {
		kfree(typed);
		kvfree(grid);
		return PTR_ERR(surf);
	}
	/* The object is page-rounded; accesses past @size are out of bounds. */
	surf->view.kind = kind;
	surf->view.size = size;
	surf->typed = typed;
	surf->view.typed = typed;
	surf->grid = grid;
	surf->view.grid = grid;
	/*
	 * Charged with the first handle: what the surface holds beside its
	 * pages, as allocated (a grid's 52 KiB come from a 64 KiB block).
	 */
	if (typed)
		surf->charge += kmalloc_size_roundup(sizeof(*typed));
	if (grid)
		surf->charge += kmalloc_size_roundup(sizeof(*grid));

	ret = drm_gem_handle_create(file, &surf->shmem.base, handle);
	/* The handle holds the reference now, or creation failed and we free. */
	drm_gem_object_put(&surf->shmem.base);
	return ret;
}

/*
 * Copy a kind's descriptor: a shorter one (older userspace) is zero
 * extended, bytes past the known struct must be zero, and there are at
 * most VATOM_MAX_DESC_SIZE bytes to check (vatom_rule_surface_create()).
 */
static int vatom_copy_desc(void *desc, size_t size,
			   const struct drm_vatom_surface_create *args)
{
	int ret;

	ret = copy_struct_from_user(desc, size, u64_to_user_ptr(args->desc),
				    args->desc_size);
	/* Unknown non-zero trailing bytes are a malformed descriptor. */
	return ret == -E2BIG ? -EINVAL : ret;
}

static int vatom_create_buffer(struct drm_device *dev, struct drm_file *file,
			       struct drm_vatom_surface_create *args)
{
	return vatom_surface_create(dev, file, DRM_VATOM_SURFACE_BUFFER,
				    args->size, NULL, NULL, &args->handle);
}

static int vatom_create_typed(struct drm_device *dev, struct drm_file *file,
			      struct drm_vatom_surface_create *args)
{
	struct drm_vatom_typed_desc desc;
	struct vatom_typed_layout *l;
	int ret;

	ret = vatom_copy_desc(&desc, sizeof(desc), args);
	if (ret)
		return ret;

	l = kzalloc(sizeof(*l), GFP_KERNEL_ACCOUNT);
	if (!l)
		return -ENOMEM;
	ret = vatom_typed_layout_init(l, &desc, VATOM_MAX_SURFACE_SIZE);
	if (ret) {
		kfree(l);
		return ret;
	}
	args->size = l->size;
	return vatom_surface_create(dev, file, DRM_VATOM_SURFACE_TYPED, l->size,
				    l, NULL, &args->handle);
}

static int vatom_create_tile_grid(struct drm_device *dev, struct drm_file *file,
				  struct drm_vatom_surface_create *args)
{
	struct drm_vatom_tile_grid_desc desc;
	struct vatom_tile_grid *g;
	u8 *types;
	int ret;

	ret = vatom_copy_desc(&desc, sizeof(desc), args);
	if (ret)
		return ret;
	/* Bound the copy below before the layout checks everything else. */
	ret = vatom_rule_tile_grid_dims(&desc);
	if (ret)
		return ret;

	types = memdup_user(u64_to_user_ptr(desc.tile_types),
			    desc.width * desc.height);
	if (IS_ERR(types))
		return PTR_ERR(types);

	g = kvzalloc(sizeof(*g), GFP_KERNEL_ACCOUNT);
	if (!g) {
		kfree(types);
		return -ENOMEM;
	}
	ret = vatom_tile_grid_layout_init(g, &desc, types, VATOM_MAX_SURFACE_SIZE);
	kfree(types);
	if (ret) {
		kvfree(g);
		return ret;
	}
	args->size = g->size;
	return vatom_surface_create(dev, file, DRM_VATOM_SURFACE_TILE_GRID, g->size,
				    NULL, g, &args->handle);
}

int vatom_ioctl_surface_create(struct drm_device *dev, void *data,
			       struct drm_file *file)
{
	struct drm_vatom_surface_create *args = data;
	int ret;

	ret = vatom_rule_surface_create(args);
	if (ret)
		return ret;

	switch (args->kind) {
	case DRM_VATOM_SURFACE_BUFFER:
		return vatom_create_buffer(dev, file, args);
	case DRM_VATOM_SURFACE_TYPED:
		return vatom_create_typed(dev, file, args);
	default:
		return vatom_create_tile_grid(dev, file, args);
	}
}

int vatom_ioctl_surface_mmap_offset(struct drm_device *dev, void *data,
				    struct drm_file *file)
{
	struct drm_vatom_surface_mmap_offset *args = data;
	struct vatom_surface *surf;

	if (args->flags)
		return -EINVAL;

	surf = vatom_surface_lookup(file, args->handle);
	if (!surf)
		return -ENOENT;
	args->offset = drm_vma_node_offset_addr(&surf->shmem.base.vma_node);
	drm_gem_object_put(&surf->shmem.base);
	return 0;
}

int vatom_ioctl_surface_info(struct drm_device *dev, void *data,
			     struct drm_file *file)
{
	struct drm_vatom_surface_info *args = data;
	struct vatom_surface *surf;

	if (vatom_rule_surface_info(args))
		return -EINVAL;

	surf = vatom_surface_lookup(file, args->handle);
	if (!surf)
		return -ENOENT;
	args->kind = surf->view.kind;
	args->size = surf->view.size;
	args->mmap_size = surf->shmem.base.size;
	drm_gem_object_put(&surf->shmem.base);
	return 0;
}
