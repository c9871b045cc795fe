/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The tile grid of a DRM_VATOM_SURFACE_TILE_GRID surface: the metadata the
 * kernel keeps (this struct, kernel memory) and the layout of the surface
 * memory (NIU counter blocks, then every tile's L1), which userspace sees
 * through mmap. docs/semantics-noc.md describes the layout.
 *
 * Surface layout, all offsets in bytes from the start of the surface:
 *
 *	[0, l1_base)	 NIU counter blocks: for tile t = y * width + x and
 *			 NoC n, DRM_VATOM_NOC_NIU_COUNTERS __u32 counters at
 *			 (t * VATOM_NOC_NIUS + n) * VATOM_NIU_BLOCK_BYTES
 *	[l1_base, size)	 the L1 of each tile in row-major order, packed; a
 *			 tile without L1 (DRAM, PCIe) takes no bytes
 */
#ifndef _VATOM_TILE_GRID_H_
#define _VATOM_TILE_GRID_H_

#include "vatom_compat.h"
#include "drm/vatom_drm.h"

#define VATOM_TILE_GRID_MAX_DIM		64	/* 6-bit NoC coordinates */
#define VATOM_TILE_GRID_MAX_TILES	(VATOM_TILE_GRID_MAX_DIM * VATOM_TILE_GRID_MAX_DIM)
#define VATOM_NOC_NIUS			2	/* NoC 0 and NoC 1 */
#define VATOM_NIU_BLOCK_BYTES		(DRM_VATOM_NOC_NIU_COUNTERS * 4)
#define VATOM_TILE_COUNTER_BYTES	(VATOM_NOC_NIUS * VATOM_NIU_BLOCK_BYTES)

/**
 * struct vatom_tile_grid - shape and layout of a tile grid surface
 * @profile: DRM_VATOM_NOC_PROFILE_*
 * @width: tiles in X, 1..64
 * @height: tiles in Y, 1..64
 * @l1_size_by_type: L1 bytes of each tile type after defaults are applied
 * @l1_base: offset of the first L1 (= bytes of the counter blocks)
 * @size: bytes of the whole surface
 * @type: DRM_VATOM_TILE_* of tile y * @width + x
 * @l1_size: L1 bytes of each tile (0 for DRAM and PCIe)
 * @l1_offset: offset of each tile's L1 in the surface, 16-byte aligned
 *
 * Fixed-size arrays keep the engine free of allocation and every index
 * bounded; the kernel allocates one of these (about 52 KiB) per grid.
 */
struct vatom_tile_grid {
	u32 profile;
	u32 width;
	u32 height;
	u32 l1_size_by_type[DRM_VATOM_TILE_TYPES];
	u64 l1_base;
	u64 size;
	u8 type[VATOM_TILE_GRID_MAX_TILES];
	u32 l1_size[VATOM_TILE_GRID_MAX_TILES];
	u64 l1_offset[VATOM_TILE_GRID_MAX_TILES];
};

/**
 * vatom_tile_grid_default_l1() - the profile's L1 size of a tile type
 * @profile: DRM_VATOM_NOC_PROFILE_*
 * @type: DRM_VATOM_TILE_*
 *
 * Return: bytes (Wormhole Tensix 1464 KiB, Ethernet 256 KiB; Blackhole
 * Tensix 1536 KiB, Ethernet 512 KiB; 0 for DRAM, PCIe and unknown values).
 */
u32 vatom_tile_grid_default_l1(u32 profile, u32 type);

/**
 * vatom_tile_grid_layout_init() - validate a descriptor and lay the grid out
 * @g: out, the grid (every field is written)
 * @d: the descriptor as userspace passed it
 * @types: @d->width * @d->height tile types, row-major, in kernel memory
 * @max_size: the largest surface the device allows, bytes
 *
 * Return: 0; -EINVAL for an unknown profile, non-zero flags, a width or
 * height outside 1..64, an unknown tile type, an L1 size that is not a
 * multiple of 16 or exceeds the profile's size, or a non-zero L1 size for
 * DRAM or PCIe; -E2BIG when the surface would exceed @max_size.
 */
int vatom_tile_grid_layout_init(struct vatom_tile_grid *g,
				const struct drm_vatom_tile_grid_desc *d,
				const u8 *types, u64 max_size);

/**
 * vatom_tile_grid_counters_take() - read a tile NIU's counters, clearing some
 * @g: the grid
 * @vaddr: the surface mapping
 * @x: tile X, < @g->width
 * @y: tile Y, < @g->height
 * @noc: 0 or 1
 * @clear: bit i set zeroes counter i (an atomic exchange, so an update by a
 *	concurrent request is either in the value returned or kept)
 * @vals: out, the %DRM_VATOM_NOC_NIU_COUNTERS values before the clear, or
 *	NULL
 *
 * The caller checks the tile and NoC range.
 */
void vatom_tile_grid_counters_take(const struct vatom_tile_grid *g, u8 *vaddr,
				   u32 x, u32 y, u32 noc, u64 clear, u32 *vals);

/**
 * vatom_tile_grid_clear_outstanding() - the NIU's per-ID clear register
 * @g: the grid
 * @vaddr: the surface mapping
 * @x: tile X
 * @y: tile Y
 * @noc: 0 or 1
 * @mask: bit i set zeroes REQS_OUTSTANDING_ID(i); bits 16..31 are ignored
 *
 * The write of @mask to NIU_BASE + 0x50 (Wormhole) / + 0x60 (Blackhole).
 * Out-of-range tiles or NoCs are ignored.
 */
void vatom_tile_grid_clear_outstanding(const struct vatom_tile_grid *g,
				       u8 *vaddr, u32 x, u32 y, u32 noc,
				       u32 mask);

/* Index of tile (x, y); the caller checks the range. */
static inline u32 vatom_tile_index(const struct vatom_tile_grid *g,
				   u32 x, u32 y)
{
	return y * g->width + x;
}

/* Offset of the counter block of tile (x, y)'s NIU on @noc. */
static inline u64 vatom_tile_counters_offset(const struct vatom_tile_grid *g,
					     u32 x, u32 y, u32 noc)
{
	return ((u64)vatom_tile_index(g, x, y) * VATOM_NOC_NIUS + noc) *
	       VATOM_NIU_BLOCK_BYTES;
}

/* The counter block of tile (x, y)'s NIU on @noc. */
static inline u32 *vatom_tile_counters(const struct vatom_tile_grid *g,
				       u8 *vaddr, u32 x, u32 y, u32 noc)
{
	return (u32 *)(vaddr + vatom_tile_counters_offset(g, x, y, noc));
}

/* True when tile type @type has an L1 that atomics may address. */
static inline bool vatom_tile_has_l1(u32 type)
{
	return type == DRM_VATOM_TILE_TENSIX || type == DRM_VATOM_TILE_ETHERNET;
}

#endif /* _VATOM_TILE_GRID_H_ */
