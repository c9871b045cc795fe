/* SPDX-License-Identifier: MIT */
/*
 * libvatom: Surfaces.
 * One area of the library's interface: programs include <vatom.h>,
 * which includes them all; this header also compiles alone.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_SURFACE_H_
#define _VATOM_SURFACE_H_

#include <vatom/common.h>

#if defined(__cplusplus)
extern "C" {
#endif

/**
 * struct vatom_surface_info - what SURFACE_INFO reports about a surface
 * @kind: DRM_VATOM_SURFACE_*
 * @handle: GEM handle on the device's fd
 * @size: addressable bytes
 * @mmap_size: bytes of a mapping (page-rounded)
 */
struct vatom_surface_info {
	uint32_t kind;
	uint32_t handle;
	uint64_t size;
	uint64_t mmap_size;
};

/**
 * vatom_surface_create_buffer() - create a linear buffer surface
 * @dev: the device
 * @size: bytes, >= 1; the memory starts zeroed
 * @flags: must be 0
 * @sp: out, the new surface
 *
 * Return: 0; -EINVAL for size 0, non-zero @flags or NULL arguments; -E2BIG
 * past %DRM_VATOM_PARAM_MAX_SURFACE_SIZE; -ENOMEM.
 */
VATOM_API int vatom_surface_create_buffer(struct vatom_device *dev,
					  uint64_t size, unsigned int flags,
					  struct vatom_surface **sp);

/**
 * vatom_surface_create_typed() - create a typed surface for TYPED_ATOMIC
 * @dev: the device
 * @desc: the shape (dimensionality, format, extent, mip levels)
 * @sp: out, the new surface
 *
 * Return: 0; -EINVAL for a malformed @desc; -E2BIG; -EOPNOTSUPP when the
 * device has no typed surfaces; -ENOMEM.
 */
VATOM_API int vatom_surface_create_typed(struct vatom_device *dev,
					 const struct drm_vatom_typed_desc *desc,
					 struct vatom_surface **sp);

/**
 * vatom_surface_create_tile_grid() - create a NoC tile grid
 * @dev: the device
 * @desc: the grid (profile, extent, per-type L1 sizes, tile types)
 * @sp: out, the new surface
 *
 * Return: 0; -EINVAL for a malformed @desc; -E2BIG; -EOPNOTSUPP when the
 * device has no tile grids; -ENOMEM.
 */
VATOM_API int vatom_surface_create_tile_grid(struct vatom_device *dev,
					     const struct drm_vatom_tile_grid_desc *desc,
					     struct vatom_surface **sp);

/**
 * vatom_surface_map() - map a surface into this process (read/write, shared)
 * @s: the surface
 * @ptr: out, the address of byte 0
 *
 * The mapping is made once (SURFACE_MMAP_OFFSET + mmap on the device fd)
 * and cached until vatom_surface_destroy(); later calls return the same
 * address. CPU atomics on the mapping are atomic with respect to the
 * device's operations.
 *
 * Return: 0; -ENOENT if the handle is gone; -ENOMEM; or the errno of mmap().
 */
VATOM_API int vatom_surface_map(struct vatom_surface *s, void **ptr);

/**
 * vatom_surface_info() - ask the kernel to describe a surface (SURFACE_INFO)
 * @s: the surface
 * @info: out
 *
 * Return: 0; -ENOENT if the handle is gone.
 */
VATOM_API int vatom_surface_info(struct vatom_surface *s,
				 struct vatom_surface_info *info);

/**
 * vatom_surface_handle() - the surface's GEM handle (for binding tables, libdrm)
 * @s: the surface
 *
 * Return: the handle.
 */
VATOM_API uint32_t vatom_surface_handle(const struct vatom_surface *s);

/**
 * vatom_surface_size() - the surface's addressable size in bytes
 * @s: the surface
 *
 * Return: the size.
 */
VATOM_API uint64_t vatom_surface_size(const struct vatom_surface *s);

/**
 * vatom_surface_export() - export a surface as a dma-buf
 * @s: the surface
 * @fd: out, a new dma-buf fd (DRM_CLOEXEC | DRM_RDWR); the caller closes it
 *
 * Return: 0; -ENOENT; -EMFILE; -ENOMEM; or the errno of the PRIME ioctl.
 */
VATOM_API int vatom_surface_export(struct vatom_surface *s, int *fd);

/**
 * vatom_surface_import() - import a dma-buf (from any exporter) as a surface
 * @dev: the device
 * @fd: the dma-buf fd; it stays owned by the caller
 * @sp: out, the surface
 *
 * Importing a buffer that is already a surface of @dev (e.g. one that @dev
 * exported) returns that same surface object with one more reference: every
 * successful import is balanced by one vatom_surface_destroy().
 *
 * Return: 0; -EINVAL for NULL arguments; -EBADF; -ENOMEM; or the errno of
 * the PRIME ioctl.
 */
VATOM_API int vatom_surface_import(struct vatom_device *dev, int fd,
				   struct vatom_surface **sp);

/**
 * vatom_surface_destroy() - drop a reference to a surface
 * @s: the surface, or NULL
 *
 * The last reference unmaps the surface and closes its GEM handle. The
 * surface must not be bound in a batch that is submitted afterwards.
 */
VATOM_API void vatom_surface_destroy(struct vatom_surface *s);

#if defined(__cplusplus)
}
#endif

#endif /* _VATOM_SURFACE_H_ */
