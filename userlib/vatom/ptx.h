/* SPDX-License-Identifier: MIT */
/*
 * libvatom: NVIDIA PTX atom.
 * One area of the library's interface: programs include <vatom.h>,
 * which includes them all; this header also compiles alone.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_PTX_H_
#define _VATOM_PTX_H_

#include <vatom/common.h>

#if defined(__cplusplus)
extern "C" {
#endif

/**
 * union vatom_ptx_value - a PTX operand of up to 128 bits
 *
 * Scalars, packed and vector values little-endian, element 0 first:
 * .u16[i] for f16/bf16 elements, .u32[i] for 32-bit ones, .u64[i] for
 * 64-bit ones, .u64[0..1] for b128.
 */
union vatom_ptx_value {
	/** @u16: 16-bit elements (f16, bf16, b16) */
	uint16_t u16[8];
	/** @u32: 32-bit elements (and packed x2 values) */
	uint32_t u32[4];
	/** @u64: 64-bit elements; b128 is u64[0] (low) and u64[1] */
	uint64_t u64[2];
};

/**
 * struct vatom_ptx_atom - one atom{.sem}{.scope}{.space}.op{.noftz}
 * {.L2::cache_hint}{.vec}.type d, [a], b{, c}{, cache-policy}
 * @op: DRM_VATOM_PTX_OP_*
 * @type: DRM_VATOM_PTX_TYPE_*
 * @vec: 0 (scalar), 2, 4 or 8
 * @space: DRM_VATOM_PTX_SPACE_* (0: generic, resolves to .global)
 * @sem: DRM_VATOM_PTX_SEM_* (0: .relaxed)
 * @scope: DRM_VATOM_PTX_SCOPE_* (0: .gpu)
 * @flags: DRM_VATOM_PTX_NOFTZ, DRM_VATOM_PTX_CACHE_HINT
 * @slot: binding slot of the surface holding a
 * @addr: byte offset of a in that surface
 * @cache_policy: the cache-policy operand (with DRM_VATOM_PTX_CACHE_HINT)
 * @b: operand b
 * @c: operand c (cas only)
 */
struct vatom_ptx_atom {
	uint8_t op;
	uint8_t type;
	uint8_t vec;
	uint8_t space;
	uint8_t sem;
	uint8_t scope;
	uint8_t slot;
	uint32_t flags;
	uint64_t addr;
	uint64_t cache_policy;
	union vatom_ptx_value b;
	union vatom_ptx_value c;
};

/**
 * vatom_ptx_access_size() - bytes accessed by an atom of @type and @vec
 * @type: DRM_VATOM_PTX_TYPE_*
 * @vec: 0, 2, 4 or 8
 *
 * Return: the size (2 .. 16); -EINVAL for an unknown type or vector
 * length, or an access wider than 128 bits.
 */
VATOM_API int vatom_ptx_access_size(unsigned int type, unsigned int vec);

/**
 * vatom_prep_ptx_atom() - append one PTX atom
 * @b: the batch
 * @a: the instruction
 *
 * Results: the old value(s) of a, vatom_ptx_access_size() bytes: read
 * them with vatom_result_u16/u32/u64(b, res, element) or
 * vatom_result_bytes().
 *
 * Return: the result handle; -EINVAL for a NULL @a or an access size the
 * library cannot compute; -E2BIG; -ENOMEM.
 */
VATOM_API int vatom_prep_ptx_atom(struct vatom_batch *b,
				  const struct vatom_ptx_atom *a);

#if defined(__cplusplus)
}
#endif

#endif /* _VATOM_PTX_H_ */
