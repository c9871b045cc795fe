// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Surfaces: shmem GEM objects with a lazily created, persistent kernel
 * mapping through which the engine performs its atomics. The mapping is
 * cached (never write-combined), so device atomics and CPU atomics through
 * a userspace mmap of the same pages are atomic with respect to each other.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>

#include "vatom_drv.h"
#include "vatom_job.h"

static void vatom_surface_free(struct drm_gem_object *obj)
{
	struct vatom_surface *surf = to_vatom_surface(obj);
	struct vatom_device *vdev = to_vatom_device(obj->dev);

	if (surf->view.vaddr)
		drm_gem_shmem_vunmap(&surf->shmem, &surf->map);
	mutex_destroy(&surf->lock);
	kfree(surf->typed);
	kvfree(surf->grid);
	atomic64_dec(&vdev->stats.surfaces);
	/* Frees surf: shmem is its first member. */
	drm_gem_shmem_free(&surf->shmem);
}

static const struct drm_gem_object_funcs vatom_gem_funcs = {
	.free		= vatom_surface_free,
	.open		= vatom_gem_handle_open,	/* the per-file memory cap */
	.close		= vatom_gem_handle_close,
	.print_info	= drm_gem_shmem_object_print_info,
	.pin		= drm_gem_shmem_object_pin,
	.unpin		= drm_gem_shmem_object_unpin,
	.get_sg_table	= drm_gem_shmem_object_get_sg_table,
	.vmap		= drm_gem_shmem_object_vmap,
	.vunmap		= drm_gem_shmem_object_vunmap,
	.mmap		= drm_gem_shmem_object_mmap,
	.vm_ops		= &drm_gem_shmem_vm_ops,
};

/*
 * Called by the shmem helpers for every object of this device, created
 * or imported, so imported dma-bufs are vatom surfaces (buffers) too.
 */
struct drm_gem_object *vatom_gem_create_object(struct drm_device *dev, size_t size)
{
	struct vatom_surface *surf;

	surf = kzalloc(sizeof(*surf), GFP_KERNEL);
	if (!surf)
		return ERR_PTR(-ENOMEM);

	mutex_init(&surf->lock);
	surf->view.kind = DRM_VATOM_SURFACE_BUFFER;
	surf->view.size = size;
	surf->shmem.base.funcs = &vatom_gem_funcs;
	atomic64_inc(&to_vatom_device(dev)->stats.surfaces);
	return &surf->shmem.base;
}

/**
 * vatom_surface_lookup() - look up a handle of @file
 * @file: the DRM file
 * @handle: GEM handle
 *
 * Return: the surface with a reference held, or NULL when @handle is
 * unknown. Release with drm_gem_object_put().
 */
struct vatom_surface *vatom_surface_lookup(struct drm_file *file, u32 handle)
{
	struct drm_gem_object *obj = drm_gem_object_lookup(file, handle);

	if (!obj)
		return NULL;
	/* Every object of a vatom device is created by vatom_gem_create_object(). */
	if (WARN_ON(obj->funcs != &vatom_gem_funcs)) {
		drm_gem_object_put(obj);
		return NULL;
	}
	return to_vatom_surface(obj);
}

/**
 * vatom_surface_view() - the engine's view of a surface, mapping it first
 * @surf: a surface the caller holds a reference to
 * @view: out, valid while the reference is held
 *
 * The kernel mapping is made on first use and kept until the surface is
 * freed, so submissions after the first pay nothing for it.
 *
 * Return: 0, or a negative errno from mapping (-EINTR, -ENOMEM, ...).
 */
int vatom_surface_view(struct vatom_surface *surf,
		       const struct vatom_surface_view **view)
{
	struct iosys_map map;
	int ret = 0;

	/* Pairs with smp_store_release() below. */
	if (smp_load_acquire(&surf->view.vaddr)) {
		*view = &surf->view;
		return 0;
	}

	ret = mutex_lock_interruptible(&surf->lock);
	if (ret)
		return ret;
	if (!surf->view.vaddr) {
		ret = drm_gem_shmem_vmap(&surf->shmem, &map);
		if (!ret && map.is_iomem) {
			/* The engine needs real memory for its atomics. */
			drm_gem_shmem_vunmap(&surf->shmem, &map);
			ret = -EOPNOTSUPP;
		}
		if (!ret) {
			surf->map = map;
			/* Publish the mapping only once it is complete. */
			smp_store_release(&surf->view.vaddr, map.vaddr);
		}
	}
	mutex_unlock(&surf->lock);
	if (!ret)
		*view = &surf->view;
	return ret;
}

/*
 * Create the GEM object behind a surface of @size bytes and hand its handle
 * to @file. @typed and @grid (either may be NULL) pass to the surface, which
 * frees them.
 */
static int vatom_surface_create(struct drm_device *dev, struct drm_file *file,
				u32 kind, u64 size, struct vatom_typed_layout *typed,
				struct vatom_tile_grid *grid, u32 *handle)
{
	struct drm_gem_shmem_object *shmem;
	struct vatom_surface *surf;
	int ret;

	shmem = drm_gem_shmem_create(dev, size);
	if (IS_ERR(shmem)) {
		kfree(typed);
		kvfree(grid);
		return PTR_ERR(shmem);
	}
	surf = container_of(shmem, struct vatom_surface, shmem);
	/* The object is page-rounded; accesses past @size are out of bounds. */
	surf->view.kind = kind;
	surf->view.size = size;
	surf->typed = typed;
	surf->view.typed = typed;
	surf->grid = grid;
	surf->view.grid = grid;

	ret = drm_gem_handle_create(file, &shmem->base, handle);
	/* The handle holds the reference now, or creation failed and we free. */
	drm_gem_object_put(&shmem->base);
	return ret;
}

/*
 * Copy a kind's descriptor: a shorter one (older userspace) is zero
 * extended, bytes past the known struct must be zero.
 */
static int vatom_copy_desc(void *desc, size_t size,
			   const struct drm_vatom_surface_create *args)
{
	int ret;

	if (!args->desc || !args->desc_size || args->size)
		return -EINVAL;
	ret = copy_struct_from_user(desc, size, u64_to_user_ptr(args->desc),
				    args->desc_size);
	/* Unknown non-zero trailing bytes are a malformed descriptor. */
	return ret == -E2BIG ? -EINVAL : ret;
}

static int vatom_create_buffer(struct drm_device *dev, struct drm_file *file,
			       struct drm_vatom_surface_create *args)
{
	if (args->desc || args->desc_size || !args->size)
		return -EINVAL;
	if (args->size > VATOM_MAX_SURFACE_SIZE)
		return -E2BIG;
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

	l = kzalloc(sizeof(*l), GFP_KERNEL);
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
	if (!desc.width || !desc.height || desc.width > VATOM_TILE_GRID_MAX_DIM ||
	    desc.height > VATOM_TILE_GRID_MAX_DIM)
		return -EINVAL;

	types = memdup_user(u64_to_user_ptr(desc.tile_types),
			    desc.width * desc.height);
	if (IS_ERR(types))
		return PTR_ERR(types);

	g = kvzalloc(sizeof(*g), GFP_KERNEL);
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

	if (args->flags)
		return -EINVAL;

	switch (args->kind) {
	case DRM_VATOM_SURFACE_BUFFER:
		return vatom_create_buffer(dev, file, args);
	case DRM_VATOM_SURFACE_TYPED:
		return vatom_create_typed(dev, file, args);
	case DRM_VATOM_SURFACE_TILE_GRID:
		return vatom_create_tile_grid(dev, file, args);
	default:
		return -EINVAL;
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

	if (args->flags || args->pad)
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
