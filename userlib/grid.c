// SPDX-License-Identifier: MIT
/*
 * libvatom: the layout of a tile grid surface, computed once when the
 * surface is created (surface.c) and used to address its L1 words and
 * NIU counters (noc.c).
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <stdlib.h>

#include "internal.h"

#define GRID_COUNTER_BYTES	(2u * DRM_VATOM_NOC_NIU_COUNTERS * 4u)
#define KIB			1024u

/* The profiles' L1 sizes (spec/noc-atomics.md section 7). */
static uint32_t default_l1(uint32_t profile, uint32_t type)
{
	static const uint32_t l1[2][DRM_VATOM_TILE_TYPES] = {
		[DRM_VATOM_NOC_PROFILE_WORMHOLE] = { 1464 * KIB, 256 * KIB },
		[DRM_VATOM_NOC_PROFILE_BLACKHOLE] = { 1536 * KIB, 512 * KIB },
	};

	return l1[profile][type];
}

struct vatom__grid *vatom__grid_layout(const struct drm_vatom_tile_grid_desc *desc,
				       uint64_t size)
{
	const uint8_t *types = (const uint8_t *)(uintptr_t)desc->tile_types;
	uint32_t n = desc->width * desc->height, t;
	struct vatom__grid *g;
	uint64_t off;

	/* The kernel accepted @desc; only guard our own indexing. */
	if (desc->profile > DRM_VATOM_NOC_PROFILE_BLACKHOLE || !n ||
	    desc->width > 64 || desc->height > 64)
		return NULL;
	g = malloc(sizeof(*g) + n * sizeof(g->tile[0]));
	if (!g)
		return NULL;
	g->width = desc->width;
	g->height = desc->height;
	off = (uint64_t)n * GRID_COUNTER_BYTES;
	for (t = 0; t < n; t++) {
		uint32_t type = types[t], sz = 0;

		if (type == DRM_VATOM_TILE_TENSIX || type == DRM_VATOM_TILE_ETHERNET)
			sz = desc->l1_size[type] ? desc->l1_size[type] :
			     default_l1(desc->profile, type);
		g->tile[t].off = off;
		g->tile[t].size = sz;
		off += sz;
	}
	/* A layout that disagrees with the kernel's is not used. */
	if (off != size) {
		free(g);
		return NULL;
	}
	return g;
}

