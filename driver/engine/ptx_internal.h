/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What PTX validation (ptx.c) and execution (ptx_exec.c) share: the
 * op x type table, the packet's fixed size and head, and the small
 * helpers both sides use, static inline so that the run loops keep them
 * inlined.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_PTX_INTERNAL_H_
#define _VATOM_PTX_INTERNAL_H_

#include "vatom_engine.h"

#define PTX_PACKET_SIZE		72
#define PTX_TYPES		(DRM_VATOM_PTX_TYPE_F64 + 1)

/* .noftz policy of a type. */
enum ptx_noftz {
	PTX_NOFTZ_NEVER,	/* forbidden */
	PTX_NOFTZ_REQUIRED,	/* f16, bf16, f16x2, bf16x2 */
	PTX_NOFTZ_ALLOWED,	/* scalar add.f32: keeps subnormals */
};

/**
 * struct ptx_form - what the PTX ISA allows for one .type
 * @scalar: DRM_VATOM_PTX_OP_* bits allowed without a vector qualifier
 * @vector: DRM_VATOM_PTX_OP_* bits allowed with one of @vecs
 * @vecs: allowed vector lengths, bit n for .vn
 * @esize: bytes of one element (a packed x2 type is one 32-bit element)
 * @noftz: enum ptx_noftz
 *
 * 8 bytes, so that a type indexes the table with a shift.
 */
struct ptx_form {
	u16 scalar;
	u16 vector;
	u16 vecs;
	u8 esize;
	u8 noftz;
};

static_assert(sizeof(struct ptx_form) == 8, "a form is 8 bytes");

extern const struct ptx_form ptx_forms[PTX_TYPES];

static inline bool ptx_global(u32 space)
{
	/* Generic addresses resolve to .global on this device. */
	return space == DRM_VATOM_PTX_SPACE_GENERIC ||
	       space == DRM_VATOM_PTX_SPACE_GLOBAL;
}

/* add.f32 flushes subnormals on .global (generic) unless .noftz. */
static inline bool ptx_f32_ftz(const struct drm_vatom_ptx *p)
{
	return ptx_global(p->space) && !(p->flags & DRM_VATOM_PTX_NOFTZ);
}

static inline u32 ptx_access_size(const struct drm_vatom_ptx *p)
{
	return ptx_forms[p->type].esize * (p->vec ? p->vec : 1);
}

/*
 * The part of a PTX packet before @addr: header, op, type, vec, space, sem,
 * scope, slot, pad, flags, pad2. Packets that agree on it do the same
 * operation on the same surface, and pass or fail the same checks on it.
 */
#define PTX_HEAD	24
static_assert(offsetof(struct drm_vatom_ptx, addr) == PTX_HEAD,
	      "PTX_HEAD is everything before addr");

struct ptx_head {
	u64 w0, w1, w2;
};

/*
 * Three 8-byte loads into scalars: one 24-byte memcpy() into an array
 * would go through the stack, three more stores and loads per packet.
 */
static __always_inline void ptx_head_of(struct ptx_head *h, const u8 *p)
{
	memcpy(&h->w0, p, 8);
	memcpy(&h->w1, p + 8, 8);
	memcpy(&h->w2, p + 16, 8);
}

static __always_inline bool ptx_same_head(const u8 *p,
					  const struct ptx_head *h)
{
	struct ptx_head x;

	ptx_head_of(&x, p);
	return !((x.w0 ^ h->w0) | (x.w1 ^ h->w1) | (x.w2 ^ h->w2));
}

/* The result region of an access of @size bytes: 8, or 16 past 8. */
static inline u32 ptx_size_result_bytes(u32 size)
{
	return size > 8 ? 16 : 8;
}

static inline u32 ptx_result_bytes(const struct drm_vatom_ptx *p)
{
	return ptx_size_result_bytes(ptx_access_size(p));
}

#endif /* _VATOM_PTX_INTERNAL_H_ */
