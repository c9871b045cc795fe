// SPDX-License-Identifier: MIT
/*
 * noc.c: NOC_COUNTERS of the in-process device, as vatom_noc.c: read and
 * clear the NIU counters of a tile grid's tiles, which live in the
 * surface's memory, where the engine updates them with CPU atomics while
 * jobs run. The checks are vatom_rules.h's, the reading and clearing the
 * engine's (vatom_tile_grid_counters_take(): one atomic access a counter).
 */

#include <errno.h>

#include "device.h"

int shim_noc_counters(struct shim_file *f, void *arg)
{
	struct drm_vatom_noc_counters *args = arg;
	void *ucnt = (void *)(uintptr_t)args->counters;
	u32 vals[DRM_VATOM_NOC_NIU_COUNTERS] = { 0 };
	const struct vatom_tile_grid *g;
	struct shim_surface *s;
	int ret;

	ret = vatom_rule_noc_counters(args);
	if (ret)
		return ret;
	s = shim_surface_lookup(f, args->handle);
	if (!s)
		return -ENOENT;
	g = s->grid;
	ret = vatom_rule_noc_tile(&s->view, g, args);
	if (ret)
		goto out;
	/* A bad pointer fails the call before any counter is cleared. */
	if ((args->flags & DRM_VATOM_NOC_COUNTERS_READ) &&
	    shim_copy_out(ucnt, vals, args->count * sizeof(u32))) {
		ret = -EFAULT;
		goto out;
	}
	vatom_tile_grid_counters_take(g, s->view.vaddr, args->x, args->y,
				      args->noc, vatom_rule_noc_clear(args), vals);
	if ((args->flags & DRM_VATOM_NOC_COUNTERS_READ) &&
	    shim_copy_out(ucnt, vals, args->count * sizeof(u32)))
		ret = -EFAULT;
out:
	shim_surface_put(s);
	return ret;
}
