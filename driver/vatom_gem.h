/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * vatom: surfaces (shmem GEM objects) and binding tables, charged to the
 * files that hold them.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_GEM_H_
#define _VATOM_GEM_H_

#include <linux/iosys-map.h>
#include <linux/mutex.h>

#include <asm/barrier.h>

#include <drm/drm_gem_shmem_helper.h>

#include "tile_grid.h"
#include "typed.h"
#include "vatom_engine.h"

struct drm_file;

struct vatom_account;

/**
 * struct vatom_surface - a GEM object the engine can address
 * @shmem: the shmem GEM object, first so the helpers can free us
 * @lock: serialises creation and removal of kernel mappings (ours and, for
 *	a surface we export, the importers')
 * @map: kernel mapping, valid once @view.vaddr is set
 * @view: what the engine sees; @view.vaddr is published last
 * @typed: texel layout of a typed surface, else NULL
 * @grid: tile grid of a NoC surface, else NULL
 * @owner: the account of the file that got the first handle, charged
 *	@charge for as long as the surface lives (set once, then constant)
 * @charge: bytes the surface makes the kernel hold: its pages and its
 *	layout or grid
 */
struct vatom_surface {
	struct drm_gem_shmem_object shmem;
	struct mutex lock; /* protects @map and the setting of @view.vaddr */
	struct iosys_map map;
	struct vatom_surface_view view;
	struct vatom_typed_layout *typed;
	struct vatom_tile_grid *grid;
	struct vatom_account *owner;
	u64 charge;
};

static inline struct vatom_surface *to_vatom_surface(struct drm_gem_object *obj)
{
	return container_of(to_drm_gem_shmem_obj(obj), struct vatom_surface, shmem);
}

/**
 * struct vatom_binding_table - the surfaces bound to slots, as a
 * submission or a queue names them, each referenced
 * @nbound: slots bound, listed in @bound_slot
 * @bound_slot: the slots bound, in binding-table order
 * @bound_handle: the handles they were bound with, in the same order
 *	(devcoredumps)
 * @bindings: slot table handed to the engine
 * @bound: surfaces referenced by the binding table, by slot
 *
 * Empty when zeroed; vatom_binding_table_release() leaves it empty again
 * (touching only the slots bound, not the two 2 KiB tables).
 */
struct vatom_binding_table {
	unsigned int nbound;
	u8 bound_slot[DRM_VATOM_MAX_SLOTS];
	u32 bound_handle[DRM_VATOM_MAX_SLOTS];
	struct vatom_bindings bindings;
	struct vatom_surface *bound[DRM_VATOM_MAX_SLOTS];
};

/* vatom_gem.c */
struct drm_gem_object *vatom_gem_create_object(struct drm_device *dev, size_t size);
enum drm_gem_object_status vatom_gem_status(struct drm_gem_object *obj);
int __vatom_binding_table_read(struct vatom_binding_table *t,
			       struct drm_file *file, u64 ubindings, u32 count);
void __vatom_binding_table_release(struct vatom_binding_table *t);

/**
 * vatom_binding_table_read() - look up and map a user binding table
 * @t: an empty table; on failure it holds what was bound so far, to be
 *	released by the caller
 * @file: the DRM file whose handles the table names
 * @ubindings: user pointer to struct drm_vatom_binding[@count]
 * @count: entries, at most %DRM_VATOM_MAX_SLOTS (the caller checks)
 *
 * Inline: a table of no entry (a submission that binds nothing) costs
 * no call.
 *
 * Return: 0; -EFAULT, -EINVAL (flags, padding, a slot out of range or
 * twice), -ENOENT (an unknown handle) or an error from mapping a surface.
 */
static inline int vatom_binding_table_read(struct vatom_binding_table *t,
					   struct drm_file *file,
					   u64 ubindings, u32 count)
{
	return count ? __vatom_binding_table_read(t, file, ubindings, count) : 0;
}

/**
 * vatom_binding_table_release() - drop the table's references, empty it
 * @t: the table
 *
 * Inline, as vatom_binding_table_read().
 */
static inline void vatom_binding_table_release(struct vatom_binding_table *t)
{
	if (t->nbound)
		__vatom_binding_table_release(t);
}

struct vatom_surface *vatom_surface_lookup(struct drm_file *file, u32 handle);
int __vatom_surface_view(struct vatom_surface *surf,
			 const struct vatom_surface_view **view);

/**
 * vatom_surface_view() - the engine's view of a surface, mapping it first
 * @surf: a surface the caller holds a reference to
 * @view: out, valid while the reference is held
 *
 * The kernel mapping is made on first use and kept until the surface is
 * freed, so submissions after the first pay nothing for it: not even a
 * call.
 *
 * Return: 0, or a negative errno from mapping (-EINTR, -ENOMEM, ...).
 */
static inline int vatom_surface_view(struct vatom_surface *surf,
				     const struct vatom_surface_view **view)
{
	/* Pairs with the smp_store_release() that publishes the mapping. */
	if (likely(smp_load_acquire(&surf->view.vaddr))) {
		*view = &surf->view;
		return 0;
	}
	return __vatom_surface_view(surf, view);
}

struct vatom_surface *vatom_surface_alloc(struct drm_device *dev, u64 size);
struct vatom_surface *vatom_buffer_new(struct drm_device *dev,
				       struct drm_file *file, u64 size,
				       u32 *handle);

#endif /* _VATOM_GEM_H_ */
