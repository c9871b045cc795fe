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
 *   drm-resident-memory		those with pages (an import always has),
 *					left out by newer kernels while none has
 *   vatom-jobs-submitted/-completed/-rejected
 *   vatom-memory-charged		against DRM_VATOM_PARAM_FILE_MEM_CAP
 *
 * drm-driver and drm-client-id come first, from the DRM core where it
 * prints them (6.5 on), else from VATOM_DEFINE_FOPS()'s shim. The memory
 * keys are the core's (drm_show_memory_stats()), sizes in the largest
 * unit that divides them ("12 KiB", "2 MiB", "0").
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <drm/drm_file.h>
#include <drm/drm_print.h>

#include "vatom_compat_kernel.h"
#include "vatom_device.h"
#include "vatom_file.h"
#include "vatom_gem.h"
#include "vatom_ioctl.h"

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
	u64 guilty, innocent;
	int f;

	for (f = 0; f < VATOM_FAMILY_COUNT; f++)
		drm_printf(p, "drm-engine-%s:\t%llu ns\n", vatom_family_name(f),
			   (u64)atomic64_read(&vfile->busy_ns[f]));

	vatom_show_memory_stats(p, file, vatom_gem_status);

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
