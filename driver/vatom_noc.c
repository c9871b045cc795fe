// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * NOC_COUNTERS: read and clear the NIU counters of a tile grid's tiles.
 *
 * The counters live in the surface memory (driver/engine/tile_grid.h gives
 * the layout), where the NoC engine updates them with CPU atomics while
 * submissions run. This ioctl touches them only with single atomic
 * accesses too: a load to read, an exchange with 0 to clear, so that a
 * clear never loses an update made by a concurrent submission (the
 * engine's REQS_OUTSTANDING_ID cmpxchg loop retries on the cleared value).
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <linux/uaccess.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>

#include "vatom_device.h"
#include "vatom_gem.h"
#include "vatom_ioctl.h"

int vatom_ioctl_noc_counters(struct drm_device *dev, void *data,
			     struct drm_file *file)
{
	struct drm_vatom_noc_counters *args = data;
	u32 __user *ucnt = u64_to_user_ptr(args->counters);
	const struct vatom_surface_view *view;
	u32 vals[DRM_VATOM_NOC_NIU_COUNTERS];
	const struct vatom_tile_grid *g;
	struct vatom_surface *surf;
	int ret;

	ret = vatom_rule_noc_counters(args);
	if (ret)
		return ret;

	surf = vatom_surface_lookup(file, args->handle);
	if (!surf)
		return -ENOENT;
	g = surf->grid;
	ret = vatom_rule_noc_tile(&surf->view, g, args);
	if (ret)
		goto out;

	/* A bad pointer fails the call before any counter is cleared. */
	if ((args->flags & DRM_VATOM_NOC_COUNTERS_READ) &&
	    clear_user(ucnt, args->count * sizeof(u32))) {
		ret = -EFAULT;
		goto out;
	}

	ret = vatom_surface_view(surf, &view);
	if (ret)
		goto out;
	/* The surface was sized from the layout; never trust blindly. */
	if (WARN_ON_ONCE(g->size > view->size)) {
		ret = -EINVAL;
		goto out;
	}

	vatom_tile_grid_counters_take(g, view->vaddr, args->x, args->y,
				      args->noc, vatom_rule_noc_clear(args), vals);

	if ((args->flags & DRM_VATOM_NOC_COUNTERS_READ) &&
	    copy_to_user(ucnt, vals, args->count * sizeof(u32)))
		ret = -EFAULT;
out:
	drm_gem_object_put(&surf->shmem.base);
	return ret;
}
