// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Tile grid surfaces: descriptor validation and the memory layout shared by
 * the kernel (which sizes and maps the surface), the NoC engine and
 * userspace (which reads L1s and NIU counters through mmap).
 */
#include "vatom_engine.h"
#include "tile_grid.h"

#define KIB 1024u

u32 vatom_tile_grid_default_l1(u32 profile, u32 type)
{
	/* L1 sizes from the ISA documentation (spec/noc-atomics.md §7). */
	static const u32 l1[2][DRM_VATOM_TILE_TYPES] = {
		[DRM_VATOM_NOC_PROFILE_WORMHOLE] = {
			[DRM_VATOM_TILE_TENSIX] = 1464 * KIB,
			[DRM_VATOM_TILE_ETHERNET] = 256 * KIB,
		},
		[DRM_VATOM_NOC_PROFILE_BLACKHOLE] = {
			[DRM_VATOM_TILE_TENSIX] = 1536 * KIB,
			[DRM_VATOM_TILE_ETHERNET] = 512 * KIB,
		},
	};

	if (profile > DRM_VATOM_NOC_PROFILE_BLACKHOLE ||
	    type >= DRM_VATOM_TILE_TYPES)
		return 0;
	return l1[profile][type];
}

int vatom_tile_grid_layout_init(struct vatom_tile_grid *g,
				const struct drm_vatom_tile_grid_desc *d,
				const u8 *types, u64 max_size)
{
	u64 off;
	u32 t, n;

	if (d->profile != DRM_VATOM_NOC_PROFILE_WORMHOLE &&
	    d->profile != DRM_VATOM_NOC_PROFILE_BLACKHOLE)
		return -EINVAL;
	if (d->flags)
		return -EINVAL;
	if (d->width < 1 || d->width > VATOM_TILE_GRID_MAX_DIM ||
	    d->height < 1 || d->height > VATOM_TILE_GRID_MAX_DIM)
		return -EINVAL;

	memset(g, 0, sizeof(*g));
	g->profile = d->profile;
	g->width = d->width;
	g->height = d->height;

	for (t = 0; t < DRM_VATOM_TILE_TYPES; t++) {
		u32 def = vatom_tile_grid_default_l1(d->profile, t);
		u32 sz = d->l1_size[t];

		if (!def) {
			/* DRAM and PCIe tiles have no L1 to size. */
			if (sz)
				return -EINVAL;
		} else if (!sz) {
			sz = def;
		} else if (sz % 16 || sz > def) {
			/* 16: the atomic block; every L1 stays 16-aligned. */
			return -EINVAL;
		}
		g->l1_size_by_type[t] = sz;
	}

	n = g->width * g->height;
	g->l1_base = (u64)n * VATOM_TILE_COUNTER_BYTES;
	off = g->l1_base;
	for (t = 0; t < n; t++) {
		if (types[t] >= DRM_VATOM_TILE_TYPES)
			return -EINVAL;
		g->type[t] = types[t];
		g->l1_size[t] = g->l1_size_by_type[types[t]];
		g->l1_offset[t] = off;
		/* At most 4096 * 1536 KiB: no overflow in 64 bits. */
		off += g->l1_size[t];
	}
	g->size = off;
	if (off > max_size)
		return -E2BIG;
	return 0;
}

void vatom_tile_grid_counters_take(const struct vatom_tile_grid *g, u8 *vaddr,
				   u32 x, u32 y, u32 noc, u64 clear, u32 *vals)
{
	u32 *cnt = vatom_tile_counters(g, vaddr, x, y, noc);
	u32 i, v;

	for (i = 0; i < DRM_VATOM_NOC_NIU_COUNTERS; i++) {
		if (clear & (1ull << i))
			v = vatom_xchg32(&cnt[i], 0);
		else
			v = vatom_load32(&cnt[i]);
		if (vals)
			vals[i] = v;
	}
}

void vatom_tile_grid_clear_outstanding(const struct vatom_tile_grid *g,
				       u8 *vaddr, u32 x, u32 y, u32 noc,
				       u32 mask)
{
	u64 ids = mask & ((1u << DRM_VATOM_NOC_TXN_IDS) - 1);

	if (x >= g->width || y >= g->height || noc >= VATOM_NOC_NIUS)
		return;
	vatom_tile_grid_counters_take(g, vaddr, x, y, noc,
				      ids << DRM_VATOM_NOC_MST_REQS_OUTSTANDING_ID(0),
				      NULL);
}
