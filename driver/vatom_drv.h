/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * vatom: a virtual atomic accelerator (DRM render-node driver).
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_DRV_H_
#define _VATOM_DRV_H_

#include <linux/atomic.h>
#include <linux/iosys-map.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/platform_device.h>

#include <drm/drm_device.h>
#include <drm/drm_gem_shmem_helper.h>

#include "vatom_engine.h"
#include "typed.h"
#include "tile_grid.h"

#define DRIVER_NAME	"vatom"
#define DRIVER_DESC	"Virtual atomic accelerator"
#define DRIVER_DATE	"20261123"
/* VATOM_VERSION*: from the file VERSION (Kbuild), the project's one version. */
#define DRIVER_MAJOR	VATOM_VERSION_MAJOR
#define DRIVER_MINOR	VATOM_VERSION_MINOR
#define DRIVER_PATCHLEVEL	VATOM_VERSION_PATCH

/* Device limits, reported through GET_PARAM. */
#define VATOM_MAX_SURFACE_SIZE	(256ull << 20)
#define VATOM_MAX_STREAM_SIZE	(16u << 20)
#define VATOM_MAX_RESULTS_SIZE	(64ull << 20)
#define VATOM_MAX_QUEUES	64	/* user-mode queues per file */

/**
 * struct vatom_stats_counters - debugfs counters of one device, off the
 * submission path
 * @errors: rejected submissions (any errno)
 * @surfaces: live surfaces (created or imported, not yet freed)
 * @fences: live job fences (a fence can outlive its job and file)
 * @cancelled: jobs completed as cancelled, not executed
 */
struct vatom_stats_counters {
	atomic64_t errors;
	atomic64_t surfaces;
	atomic64_t fences;
	atomic64_t cancelled;
};

/**
 * struct vatom_stats_pcpu - debugfs counters every submission updates, per
 * CPU: a this_cpu_*() operation instead of a locked one on a shared line;
 * debugfs shows the sums
 * @submissions: successful submissions
 * @jobs: live jobs (submitted, synchronous or not, and not yet freed); a
 *	job may be counted on one CPU and uncounted on another, so only the
 *	sum means something
 * @packets: packets executed per engine family
 * @elements: element operations per engine family
 */
struct vatom_stats_pcpu {
	u64 submissions;
	s64 jobs;
	u64 packets[VATOM_FAMILY_COUNT];
	u64 elements[VATOM_FAMILY_COUNT];
};

/**
 * struct vatom_device - one vatom device
 * @drm: the DRM device, embedded
 * @platform: the platform device it hangs off
 * @stats: debugfs counters
 * @pcpu: debugfs counters of the submission path
 * @wq: executes asynchronous jobs (vatom_job.c)
 * @poll_queues: polling queues of all files (their pollers are one per
 *	process: vatom_queue_poll.c)
 */
struct vatom_device {
	struct drm_device drm;
	struct platform_device *platform;
	struct vatom_stats_counters stats;
	struct vatom_stats_pcpu __percpu *pcpu;
	struct workqueue_struct *wq;
	atomic_t poll_queues;
};

static inline struct vatom_device *to_vatom_device(struct drm_device *drm)
{
	return container_of(drm, struct vatom_device, drm);
}

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
 * @bindings: slot table handed to the engine
 * @bound: surfaces referenced by the binding table, by slot
 *
 * Empty when zeroed; vatom_binding_table_release() leaves it empty again
 * (touching only the slots bound, not the two 2 KiB tables).
 */
struct vatom_binding_table {
	unsigned int nbound;
	u8 bound_slot[DRM_VATOM_MAX_SLOTS];
	struct vatom_bindings bindings;
	struct vatom_surface *bound[DRM_VATOM_MAX_SLOTS];
};

/* vatom_gem.c */
struct drm_gem_object *vatom_gem_create_object(struct drm_device *dev, size_t size);
int vatom_binding_table_read(struct vatom_binding_table *t,
			     struct drm_file *file, u64 ubindings, u32 count);
void vatom_binding_table_release(struct vatom_binding_table *t);
struct vatom_surface *vatom_surface_lookup(struct drm_file *file, u32 handle);
int vatom_surface_view(struct vatom_surface *surf,
		       const struct vatom_surface_view **view);
struct vatom_surface *vatom_buffer_new(struct drm_device *dev,
				       struct drm_file *file, u64 size,
				       u32 *handle);
int vatom_ioctl_surface_create(struct drm_device *dev, void *data,
			       struct drm_file *file);
int vatom_ioctl_surface_mmap_offset(struct drm_device *dev, void *data,
				    struct drm_file *file);
int vatom_ioctl_surface_info(struct drm_device *dev, void *data,
			     struct drm_file *file);

/* vatom_param.c */
int vatom_ioctl_get_param(struct drm_device *dev, void *data,
			  struct drm_file *file);

/* vatom_submit.c */
int vatom_ioctl_submit(struct drm_device *dev, void *data,
		       struct drm_file *file);

/* vatom_noc.c */
int vatom_ioctl_noc_counters(struct drm_device *dev, void *data,
			     struct drm_file *file);

/* vatom_queue.c */
int vatom_ioctl_queue_create(struct drm_device *dev, void *data,
			     struct drm_file *file);
int vatom_ioctl_queue_destroy(struct drm_device *dev, void *data,
			      struct drm_file *file);
int vatom_ioctl_queue_kick(struct drm_device *dev, void *data,
			   struct drm_file *file);

/* vatom_debugfs.c */
void vatom_debugfs_init(struct drm_minor *minor);

#endif /* _VATOM_DRV_H_ */
