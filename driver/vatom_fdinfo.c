// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * fdinfo: per-file usage in the keys of the kernel's DRM usage stats
 * (Documentation/gpu/drm-usage-stats.rst), which nvtop and gputop read
 * from /proc/<pid>/fdinfo/<fd>:
 *
 *   drm-engine-visa, -ptx, -noc	ns spent executing the file's jobs,
 *					a job's time shared out by its
 *					element operations per family
 *   drm-total-memory		surfaces the file holds handles to
 *   drm-shared-memory		those also held elsewhere (exported,
 *					imported, or a handle in another file)
 *   drm-resident-memory		those with pages (an import always has)
 *   vatom-jobs-submitted/-completed/-rejected
 *   vatom-memory-charged		against DRM_VATOM_PARAM_FILE_MEM_CAP
 *
 * drm-driver and drm-client-id come first, from the DRM core where it
 * prints them (6.5 on), else from vatom_compat_show_fdinfo().
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <linux/idr.h>
#include <linux/spinlock.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_print.h>

#include "vatom_compat_kernel.h"
#include "vatom_device.h"
#include "vatom_file.h"

/**
 * vatom_fdinfo_client_id() - the client id fdinfo and tracepoints show
 * @file: the DRM file
 *
 * Return: the file's id.
 */
u64 vatom_fdinfo_client_id(struct drm_file *file)
{
	return ((struct vatom_file *)file->driver_priv)->client_id;
}

/**
 * vatom_show_fdinfo() - print a file's usage stats
 * @p: the printer (of /proc/<pid>/fdinfo/<fd>)
 * @file: the DRM file
 */
void vatom_show_fdinfo(struct drm_printer *p, struct drm_file *file)
{
	struct vatom_file *vfile = file->driver_priv;
	u64 total = 0, shared = 0, resident = 0, guilty, innocent;
	struct drm_gem_object *obj;
	int id, f;

	for (f = 0; f < VATOM_FAMILY_COUNT; f++)
		drm_printf(p, "drm-engine-%s:\t%llu ns\n", vatom_family_name(f),
			   (u64)atomic64_read(&vfile->busy_ns[f]));

	spin_lock(&file->table_lock);
	idr_for_each_entry(&file->object_idr, obj, id) {
		total += obj->size;
		if (obj->handle_count > 1 || obj->dma_buf || obj->import_attach)
			shared += obj->size;
		if (obj->import_attach || READ_ONCE(to_drm_gem_shmem_obj(obj)->pages))
			resident += obj->size;
	}
	spin_unlock(&file->table_lock);
	drm_printf(p, "drm-total-memory:\t%llu KiB\n", total >> 10);
	drm_printf(p, "drm-shared-memory:\t%llu KiB\n", shared >> 10);
	drm_printf(p, "drm-resident-memory:\t%llu KiB\n", resident >> 10);

	drm_printf(p, "vatom-jobs-submitted:\t%llu\n",
		   (u64)atomic64_read(&vfile->submitted));
	drm_printf(p, "vatom-jobs-completed:\t%llu\n",
		   (u64)atomic64_read(&vfile->completed));
	drm_printf(p, "vatom-jobs-rejected:\t%llu\n",
		   (u64)atomic64_read(&vfile->rejected));
	drm_printf(p, "vatom-memory-charged:\t%llu KiB\n",
		   (u64)atomic64_read(&vfile->acct->bytes) >> 10);
	vatom_file_resets(vfile, &guilty, &innocent);
	drm_printf(p, "vatom-resets-guilty:\t%llu\n", guilty);
	drm_printf(p, "vatom-resets-innocent:\t%llu\n", innocent);
}
