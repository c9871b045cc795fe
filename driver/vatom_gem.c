// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Surfaces: shmem GEM objects with a lazily created, persistent kernel
 * mapping through which the engine performs its atomics. The mapping is
 * cached (never write-combined), so device atomics and CPU atomics through
 * a userspace mmap of the same pages are atomic with respect to each other.
 *
 * An imported surface is mapped through the dma-buf API (dma_buf_vmap()),
 * never through the shmem helper's vmap, which would take the exporter's
 * vmap lock under the importer's own, of the same class. Every mapping of
 * one of our own surfaces, ours or an importer's, is made under the
 * surface's lock, so the shmem helper's vmap lock, which it takes
 * interruptibly, is never contended: dma_buf_vmap() WARNs on the -EINTR a
 * signal would otherwise give it.
 *
 * A surface is charged to the account of the file that got its first
 * handle for as long as it lives (a dma-buf or an mmap can keep it alive
 * after every handle is closed); a handle in any other file is charged to
 * that file while it exists.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <linux/dma-buf.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>

#include "vatom_compat_kernel.h"
#include "vatom_device.h"
#include "vatom_file.h"
#include "vatom_gem.h"
#include "vatom_uaccess.h"

/*
 * Lock subclass of an imported surface's lock: mapping one holds it while
 * dma_buf_vmap() takes the exporter's, a vatom surface's own lock when
 * another vatom device exported the buffer (never the other way round).
 */
#define VATOM_LOCK_IMPORTED	SINGLE_DEPTH_NESTING

/* Map the whole surface into the kernel; under @surf->lock. */
static int vatom_surface_vmap(struct vatom_surface *surf, struct iosys_map *map)
{
	struct drm_gem_object *obj = &surf->shmem.base;

	if (obj->import_attach)
		return vatom_dma_buf_vmap(obj->import_attach->dmabuf, map);
	return vatom_shmem_vmap(&surf->shmem, map);
}

/* Undo vatom_surface_vmap(); under @surf->lock, or on the last reference. */
static void vatom_surface_vunmap(struct vatom_surface *surf,
				 struct iosys_map *map)
{
	struct drm_gem_object *obj = &surf->shmem.base;

	if (obj->import_attach)
		vatom_dma_buf_vunmap(obj->import_attach->dmabuf, map);
	else
		vatom_shmem_vunmap(&surf->shmem, map);
}

/*
 * &drm_gem_object_funcs.vmap and .vunmap before 6.5: an importer's
 * (dma_buf_vmap()) mapping of one of our surfaces, made under its lock like
 * our own (vatom_compat_kernel.h).
 */
static int __maybe_unused vatom_gem_vmap(struct drm_gem_object *obj,
					 struct iosys_map *map)
{
	struct vatom_surface *surf = to_vatom_surface(obj);
	int ret;

	mutex_lock(&surf->lock);
	ret = vatom_shmem_vmap(&surf->shmem, map);
	mutex_unlock(&surf->lock);
	return ret;
}

static void __maybe_unused vatom_gem_vunmap(struct drm_gem_object *obj,
					    struct iosys_map *map)
{
	struct vatom_surface *surf = to_vatom_surface(obj);

	mutex_lock(&surf->lock);
	vatom_shmem_vunmap(&surf->shmem, map);
	mutex_unlock(&surf->lock);
}

/*
 * &drm_gem_object_funcs.open: a handle to @obj is being created in @file.
 * The first handle's file becomes the surface's owner, charged until the
 * surface is freed; any other file is charged while it holds its handle
 * (a file has at most one handle to an object). Return: 0, or -ENOSPC
 * past the file's memory cap (no handle is created).
 */
static int vatom_gem_handle_open(struct drm_gem_object *obj,
				 struct drm_file *file)
{
	struct vatom_account *acct = vatom_file_account(file);
	struct vatom_surface *surf = to_vatom_surface(obj);
	int ret;

	if (READ_ONCE(surf->owner) == acct)
		return 0;
	ret = vatom_account_charge(acct, surf->charge);
	if (ret || READ_ONCE(surf->owner))
		return ret;
	vatom_account_get(acct);
	if (cmpxchg(&surf->owner, NULL, acct))
		vatom_account_put(acct);	/* another file came first */
	else	/* a complete surface: vatom_surface_free() will run */
		atomic64_inc(&to_vatom_device(obj->dev)->stats.surfaces);
	return 0;
}

/* &drm_gem_object_funcs.close: a handle of @file to @obj is gone. */
static void vatom_gem_handle_close(struct drm_gem_object *obj,
				   struct drm_file *file)
{
	struct vatom_account *acct = vatom_file_account(file);
	struct vatom_surface *surf = to_vatom_surface(obj);

	if (READ_ONCE(surf->owner) != acct)
		vatom_account_uncharge(acct, surf->charge);
}

static void vatom_surface_free(struct drm_gem_object *obj)
{
	struct vatom_surface *surf = to_vatom_surface(obj);
	struct vatom_device *vdev = to_vatom_device(obj->dev);

	if (surf->view.vaddr)
		vatom_surface_vunmap(surf, &surf->map);
	if (surf->owner) {
		vatom_account_uncharge(surf->owner, surf->charge);
		vatom_account_put(surf->owner);
		atomic64_dec(&vdev->stats.surfaces);
	}
	mutex_destroy(&surf->lock);
	kfree(surf->typed);
	kvfree(surf->grid);
	/* Frees surf: shmem is its first member. */
	drm_gem_shmem_free(&surf->shmem);
}

/*
 * A page fault of a mapping of a surface: the shmem helpers', while the
 * device is there. Once it is unbound (vatom_drv.c zaps the mappings), an
 * access raises SIGBUS, as on a device that was unplugged.
 */
static vm_fault_t vatom_gem_fault(struct vm_fault *vmf)
{
	struct drm_gem_object *obj = vmf->vma->vm_private_data;
	vm_fault_t ret;
	int idx;

	if (!drm_dev_enter(obj->dev, &idx))
		return VM_FAULT_SIGBUS;
	ret = drm_gem_shmem_vm_ops.fault(vmf);
	drm_dev_exit(idx);
	return ret;
}

static void vatom_gem_vm_open(struct vm_area_struct *vma)
{
	drm_gem_shmem_vm_ops.open(vma);
}

static void vatom_gem_vm_close(struct vm_area_struct *vma)
{
	drm_gem_shmem_vm_ops.close(vma);
}

static const struct vm_operations_struct vatom_gem_vm_ops = {
	.fault	= vatom_gem_fault,
	.open	= vatom_gem_vm_open,
	.close	= vatom_gem_vm_close,
};

/**
 * vatom_gem_status() - whether a surface's pages exist, for fdinfo
 * @obj: a vatom GEM object, created or imported
 *
 * Read without the object's lock: fdinfo shows a moment's state.
 *
 * Return: DRM_GEM_OBJECT_RESIDENT for an import (its exporter holds its
 * pages) or an object whose pages exist (bound, or mmapped and touched),
 * else 0.
 */
enum drm_gem_object_status vatom_gem_status(struct drm_gem_object *obj)
{
	if (obj->import_attach || READ_ONCE(to_drm_gem_shmem_obj(obj)->pages))
		return DRM_GEM_OBJECT_RESIDENT;
	return 0;
}

static const struct drm_gem_object_funcs vatom_gem_funcs = {
	.free		= vatom_surface_free,
	.open		= vatom_gem_handle_open,	/* the per-file memory cap */
	.close		= vatom_gem_handle_close,
	.print_info	= drm_gem_shmem_object_print_info,
	.pin		= drm_gem_shmem_object_pin,
	.unpin		= drm_gem_shmem_object_unpin,
	.get_sg_table	= drm_gem_shmem_object_get_sg_table,
	.vmap		= VATOM_GEM_VMAP(vatom_gem_vmap),
	.vunmap		= VATOM_GEM_VUNMAP(vatom_gem_vunmap),
	.mmap		= drm_gem_shmem_object_mmap,
	.vm_ops		= &vatom_gem_vm_ops,
	VATOM_GEM_STATUS(vatom_gem_status)
};

/*
 * Called by the shmem helpers for every object of this device, created
 * or imported, so imported dma-bufs are vatom surfaces (buffers) too.
 */
struct drm_gem_object *vatom_gem_create_object(struct drm_device *dev, size_t size)
{
	struct vatom_surface *surf;

	surf = kzalloc(sizeof(*surf), GFP_KERNEL_ACCOUNT);
	if (!surf)
		return ERR_PTR(-ENOMEM);

	mutex_init(&surf->lock);
	surf->view.kind = DRM_VATOM_SURFACE_BUFFER;
	surf->view.size = size;
	surf->charge = size;	/* page-rounded */
	surf->shmem.base.funcs = &vatom_gem_funcs;
	/*
	 * Counted in debugfs from its first handle: should the helper fail
	 * to finish the object, it kfree()s it without our .free.
	 */
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
 * __vatom_surface_view() - vatom_surface_view() for a surface not mapped
 * yet, or maybe being mapped by another thread
 * @surf: a surface the caller holds a reference to
 * @view: out, valid while the reference is held
 *
 * Return: 0, or a negative errno from mapping (-EINTR, -ENOMEM, ...).
 */
int __vatom_surface_view(struct vatom_surface *surf,
			 const struct vatom_surface_view **view)
{
	struct iosys_map map;
	int ret;

	ret = mutex_lock_interruptible_nested(&surf->lock,
					      surf->shmem.base.import_attach ?
					      VATOM_LOCK_IMPORTED : 0);
	if (ret)
		return ret;
	if (!surf->view.vaddr) {
		ret = vatom_surface_vmap(surf, &map);
		if (!ret && map.is_iomem) {
			/* The engine needs real memory for its atomics. */
			vatom_surface_vunmap(surf, &map);
			ret = -EOPNOTSUPP;
		}
		if (!ret) {
			surf->map = map;
			/* Published complete: vatom_surface_view() reads it. */
			smp_store_release(&surf->view.vaddr, map.vaddr);
		}
	}
	mutex_unlock(&surf->lock);
	if (!ret)
		*view = &surf->view;
	return ret;
}

/**
 * __vatom_binding_table_read() - vatom_binding_table_read() of a table
 * of at least one entry
 * @t: an empty table; on failure it holds what was bound so far, to be
 *	released by the caller
 * @file: the DRM file whose handles the table names
 * @ubindings: user pointer to struct drm_vatom_binding[@count]
 * @count: entries, 1 to %DRM_VATOM_MAX_SLOTS (the caller checks)
 *
 * Return: as vatom_binding_table_read().
 */
int __vatom_binding_table_read(struct vatom_binding_table *t,
			       struct drm_file *file, u64 ubindings, u32 count)
{
	struct drm_vatom_binding __user *ubind = u64_to_user_ptr(ubindings);
	const struct vatom_surface_view *view;
	struct drm_vatom_binding bind __aligned(8);
	struct vatom_surface *surf;
	unsigned int i;
	int ret;

	for (i = 0; i < count; i++) {
		if (vatom_user_copy(&bind, &ubind[i], sizeof(bind),
				    VATOM_COPY_IN))
			return -EFAULT;
		ret = vatom_rule_binding(&bind, &t->bindings);
		if (ret)
			return ret;

		surf = vatom_surface_lookup(file, bind.handle);
		if (!surf)
			return -ENOENT;
		t->bound[bind.slot] = surf;
		t->bound_handle[t->nbound] = bind.handle;
		t->bound_slot[t->nbound++] = bind.slot;

		ret = vatom_surface_view(surf, &view);
		if (ret)
			return ret;
		t->bindings.slot[bind.slot] = view;
	}
	return 0;
}

/**
 * __vatom_binding_table_release() - vatom_binding_table_release() of a
 * table with a slot bound
 * @t: the table
 */
void __vatom_binding_table_release(struct vatom_binding_table *t)
{
	unsigned int i, slot;

	for (i = 0; i < t->nbound; i++) {
		slot = t->bound_slot[i];
		drm_gem_object_put(&t->bound[slot]->shmem.base);
		t->bound[slot] = NULL;
		t->bindings.slot[slot] = NULL;
	}
	t->nbound = 0;
}

/**
 * vatom_surface_alloc() - a new surface of @size bytes, a buffer until its
 * creator says otherwise, with no handle yet
 * @dev: the device
 * @size: bytes, at most %VATOM_MAX_SURFACE_SIZE
 *
 * Return: the surface, with a reference, or an ERR_PTR() (-ENOMEM, ...).
 */
struct vatom_surface *vatom_surface_alloc(struct drm_device *dev, u64 size)
{
	struct drm_gem_shmem_object *shmem = drm_gem_shmem_create(dev, size);

	/*
	 * shmem_file_setup() says -ENOSPC when it cannot allocate an inode;
	 * -ENOSPC from us means the file's memory cap.
	 */
	if (IS_ERR(shmem))
		return PTR_ERR(shmem) == -ENOSPC ? ERR_PTR(-ENOMEM) : ERR_CAST(shmem);
	return to_vatom_surface(&shmem->base);
}

/**
 * vatom_buffer_new() - a new buffer surface with a handle in @file and a
 * kernel mapping, for the kernel's own use
 * @dev: the device
 * @file: the file that gets (and is charged for) the handle
 * @size: bytes, at most %VATOM_MAX_SURFACE_SIZE
 * @handle: out, the handle
 *
 * Return: the surface, zeroed, with a reference the caller must drop with
 * drm_gem_object_put() (after drm_gem_handle_delete() of @handle should
 * it give up), or an ERR_PTR() (-ENOSPC past the file's cap, -ENOMEM).
 */
struct vatom_surface *vatom_buffer_new(struct drm_device *dev,
				       struct drm_file *file, u64 size,
				       u32 *handle)
{
	const struct vatom_surface_view *view;
	struct vatom_surface *surf;
	int ret;

	surf = vatom_surface_alloc(dev, size);
	if (IS_ERR(surf))
		return surf;
	/* Addressable: what was asked for, as SURFACE_CREATE's buffers. */
	surf->view.size = size;
	ret = drm_gem_handle_create(file, &surf->shmem.base, handle);
	if (ret) {
		drm_gem_object_put(&surf->shmem.base);
		return ERR_PTR(ret);
	}
	ret = vatom_surface_view(surf, &view);
	if (ret) {
		drm_gem_handle_delete(file, *handle);
		drm_gem_object_put(&surf->shmem.base);
		return ERR_PTR(ret);
	}
	return surf;
}
