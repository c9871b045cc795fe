// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Texel layout of typed surfaces (TYPED_ATOMIC). The kernel calls
 * vatom_typed_layout_init() when it creates a typed surface; the vISA
 * engine addresses texels with vatom_typed_texel() (typed.h).
 */
#include "typed.h"

/* floor(log2(x)) + 1 for x >= 1: the most mip levels extent x allows. */
static u32 typed_max_levels(u32 x)
{
	u32 n = 0;

	while (x) {
		n++;
		x >>= 1;
	}
	return n;
}

/* *acc = *acc * m, false on u64 overflow. */
static bool typed_mul(u64 *acc, u64 m)
{
	return !__builtin_mul_overflow(*acc, m, acc);
}

/**
 * vatom_typed_layout_init() - check a typed surface descriptor and lay it out
 * @l: out, the layout (zeroed on failure)
 * @d: the descriptor from DRM_IOCTL_VATOM_SURFACE_CREATE
 * @max_size: the largest surface the device allows, in bytes
 *
 * Return: 0; -EINVAL for an unknown dimensionality or format, non-zero
 * flags, a zero extent, an extent that the dimensionality fixes to 1 (height
 * of the 1D forms, depth unless 3D, array size unless an array form) being
 * another value, or a level count of 0, above %VATOM_TYPED_MAX_LEVELS or
 * above floor(log2(largest extent)) + 1; -E2BIG when the surface would be
 * larger than @max_size (computed without overflow).
 */
int vatom_typed_layout_init(struct vatom_typed_layout *l,
			    const struct drm_vatom_typed_desc *d, u64 max_size)
{
	bool is_3d, is_array;
	u32 lod, maxext;
	u64 total = 0;

	memset(l, 0, sizeof(*l));

	if (d->dim > DRM_VATOM_TYPED_3D || d->format != DRM_VATOM_FORMAT_R32 ||
	    d->flags)
		return -EINVAL;
	if (!d->width || !d->height || !d->depth || !d->array_size)
		return -EINVAL;

	is_3d = d->dim == DRM_VATOM_TYPED_3D;
	is_array = d->dim == DRM_VATOM_TYPED_1D_ARRAY ||
		   d->dim == DRM_VATOM_TYPED_2D_ARRAY;
	if ((d->dim == DRM_VATOM_TYPED_1D ||
	     d->dim == DRM_VATOM_TYPED_1D_ARRAY) && d->height != 1)
		return -EINVAL;
	if (!is_3d && d->depth != 1)
		return -EINVAL;
	if (!is_array && d->array_size != 1)
		return -EINVAL;

	maxext = d->width;
	if (d->height > maxext)
		maxext = d->height;
	if (d->depth > maxext)
		maxext = d->depth;
	if (!d->levels || d->levels > VATOM_TYPED_MAX_LEVELS ||
	    d->levels > typed_max_levels(maxext))
		return -EINVAL;

	for (lod = 0; lod < d->levels; lod++) {
		u64 bytes = VATOM_TYPED_TEXEL_SIZE;

		if (!typed_mul(&bytes, vatom_typed_extent(d->width, lod)) ||
		    !typed_mul(&bytes, vatom_typed_extent(d->height, lod)) ||
		    !typed_mul(&bytes, is_3d ? vatom_typed_extent(d->depth, lod)
					     : d->array_size))
			goto too_big;
		l->level_offset[lod] = total;
		if (__builtin_add_overflow(total, bytes, &total) ||
		    total > max_size)
			goto too_big;
	}

	l->dim = d->dim;
	l->width = d->width;
	l->height = d->height;
	l->depth = d->depth;
	l->array_size = d->array_size;
	l->levels = d->levels;
	l->size = total;
	return 0;

too_big:
	memset(l, 0, sizeof(*l));
	return -E2BIG;
}
