/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Texel layout of a DRM_VATOM_SURFACE_TYPED surface (TYPED_ATOMIC).
 *
 * Mip levels are stored one after the other from level 0. Level l has the
 * extents max(1, e >> l) for X (and Y for 2D/3D, Z for 3D); the array size
 * does not shrink. Within a level, texel (x, y, zs) - zs being Z for 3D and
 * the slice for the array forms - lies at
 *
 *	level_offset[l] + 4 * (x + w_l * (y + h_l * zs))
 *
 * docs/semantics-visa.md has the details and the why.
 */
#ifndef _VATOM_TYPED_H_
#define _VATOM_TYPED_H_

#include "vatom_compat.h"
#include "drm/vatom_drm.h"

/* Most mip levels a typed surface may have. */
#define VATOM_TYPED_MAX_LEVELS	16

/* Bytes per texel of DRM_VATOM_FORMAT_R32, the only format. */
#define VATOM_TYPED_TEXEL_SIZE	4

/**
 * struct vatom_typed_layout - shape and byte layout of a typed surface
 * @dim: DRM_VATOM_TYPED_*
 * @width: texels in X at level 0
 * @height: texels in Y at level 0 (1 for the 1D forms)
 * @depth: texels in Z at level 0 (1 unless 3D)
 * @array_size: slices (1 unless an array form); the same at every level
 * @levels: mip levels, 1 .. %VATOM_TYPED_MAX_LEVELS
 * @level_offset: byte offset of each level; entries >= @levels are 0
 * @size: total bytes of all levels
 */
struct vatom_typed_layout {
	u32 dim;
	u32 width;
	u32 height;
	u32 depth;
	u32 array_size;
	u32 levels;
	u64 level_offset[VATOM_TYPED_MAX_LEVELS];
	u64 size;
};

int vatom_typed_layout_init(struct vatom_typed_layout *l,
			    const struct drm_vatom_typed_desc *d, u64 max_size);

/* Extent @e at mip level @lod: max(1, e >> lod). @lod < 32. */
static inline u32 vatom_typed_extent(u32 e, u32 lod)
{
	e >>= lod;
	return e ? e : 1;
}

/**
 * vatom_typed_texel() - byte offset of a texel, or out of bounds
 * @l: the layout
 * @u: U (X)
 * @v: V (Y, or the slice of a 1D array); 0 for 1D
 * @r: R (Z, or the slice of a 2D array); 0 for 1D, 1D array and 2D
 * @lod: mip level
 * @off: out, the texel's byte offset in the surface
 *
 * Each coordinate is checked against its extent at @lod (the array size
 * for slices) and @lod against the level count.
 *
 * Return: true when the texel exists, false when the access is out of
 * bounds.
 */
static inline bool vatom_typed_texel(const struct vatom_typed_layout *l,
				     u32 u, u32 v, u32 r, u32 lod, u64 *off)
{
	u32 w, h, zs, y;

	if (lod >= l->levels)
		return false;
	w = vatom_typed_extent(l->width, lod);
	if (u >= w)
		return false;
	switch (l->dim) {
	case DRM_VATOM_TYPED_1D:
		y = 0;
		h = 1;
		zs = 0;
		break;
	case DRM_VATOM_TYPED_1D_ARRAY:
		if (v >= l->array_size)
			return false;
		y = 0;
		h = 1;
		zs = v;
		break;
	case DRM_VATOM_TYPED_2D:
		h = vatom_typed_extent(l->height, lod);
		if (v >= h)
			return false;
		y = v;
		zs = 0;
		break;
	case DRM_VATOM_TYPED_2D_ARRAY:
		h = vatom_typed_extent(l->height, lod);
		if (v >= h || r >= l->array_size)
			return false;
		y = v;
		zs = r;
		break;
	case DRM_VATOM_TYPED_3D:
		h = vatom_typed_extent(l->height, lod);
		if (v >= h || r >= vatom_typed_extent(l->depth, lod))
			return false;
		y = v;
		zs = r;
		break;
	default:
		return false;
	}
	/* In bounds, so this is below l->size, which fits in u64. */
	*off = l->level_offset[lod] + VATOM_TYPED_TEXEL_SIZE *
	       (u + (u64)w * (y + (u64)h * zs));
	return true;
}

#endif /* _VATOM_TYPED_H_ */
