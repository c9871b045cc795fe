/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What the stream walker needs from the packet families beyond
 * vatom_engine.h: the result bytes of a validated packet, without decoding
 * it again at execute time.
 *
 * Below that, what the vISA files share: a packet's decoding (struct
 * visa_pkt, visa_layout()) and its fixed part (visa_shape_next()), used by
 * validation (visa.c) and execution (visa_dword.c, visa_typed_addc.c), and
 * the TYPED_ATOMIC and ADDC lanes that vatom_visa_execute() calls. The
 * helpers are static inline, most __always_inline, so that
 * every lane loop and validation loop has them inlined.
 */
#ifndef _VATOM_VISA_INTERNAL_H_
#define _VATOM_VISA_INTERNAL_H_

#include "vatom_engine.h"

/* The Dst of DWORD_ATOMIC and TYPED_ATOMIC: one element of each of @n lanes. */
static inline u64 visa_dword_result_bytes(u32 n, bool is64)
{
	return vatom_align8((u64)n * (is64 ? 8 : 4));
}

/*
 * Result bytes of a vISA packet that vatom_visa_validate() accepted: the
 * same value validate reported, computed from the fixed part alone so that
 * execution does not decode a packet twice.
 */
static inline u64 vatom_visa_result_bytes(const struct drm_vatom_visa *p)
{
	u32 n = 1u << (p->exec_size & DRM_VATOM_VISA_EXEC_SIZE_MASK);
	bool is64 = p->type == DRM_VATOM_VISA_TYPE_UQ ||
		    p->type == DRM_VATOM_VISA_TYPE_Q;

	if (!(p->operands & DRM_VATOM_VISA_OPND_DST))
		return 0;
	if (p->opcode == DRM_VATOM_VISA_ADDC)
		return 2 * vatom_align8(4 * n);
	return visa_dword_result_bytes(n, is64);
}

u32 vatom_visa_validate_run(const u8 *stream, u32 size, u32 *pos, u32 max,
			    const struct vatom_bindings *b, u32 *count,
			    u64 *result_bytes);
u32 vatom_visa_execute_run(const u8 *stream, u32 size, u32 *pos, u32 max,
			   const struct vatom_bindings *b, u8 *results,
			   u64 *off, u64 *elements);

u32 vatom_ptx_execute_run(const u8 *stream, u32 size, u32 *pos, u32 max,
			  const struct vatom_bindings *b, u8 *results,
			  u64 *off, u64 *elements);

/**
 * struct visa_pkt - a packet decoded once, before its lanes run
 * @addr: Element_offset or U, per lane; NULL when V0
 * @v: V per lane, or NULL
 * @r: R per lane, or NULL
 * @lod: LOD per lane, or NULL
 * @src0: Src0 elements (one for an immediate), or NULL
 * @src1: Src1 elements, or NULL
 * @n: lanes
 * @chen: ChEn, bit i for lane i
 * @op: the operation, Op bits 4..0
 * @is16: the .16 form
 * @is64: UQ/Q data
 * @imm0: Src0 is one immediate (ADDC)
 * @imm1: Src1 is one immediate (ADDC)
 * @bytes: packet size the operands imply
 */
struct visa_pkt {
	const u32 *addr;
	const u32 *v;
	const u32 *r;
	const u32 *lod;
	const void *src0;
	const void *src1;
	u32 n;
	u32 chen;
	u32 op;
	bool is16;
	bool is64;
	bool imm0;
	bool imm1;
	u32 bytes;
};

static inline bool visa_type_is64(u8 type)
{
	return type == DRM_VATOM_VISA_TYPE_UQ || type == DRM_VATOM_VISA_TYPE_Q;
}

/* ChEn of every lane of @n. */
static __always_inline u32 visa_lanes_all(u32 n)
{
	return n >= 32 ? ~0u : (1u << n) - 1;
}

#define VISA_OPND_KNOWN	(DRM_VATOM_VISA_OPND_ADDR | DRM_VATOM_VISA_OPND_V | \
			 DRM_VATOM_VISA_OPND_R | DRM_VATOM_VISA_OPND_LOD | \
			 DRM_VATOM_VISA_OPND_SRC0 | DRM_VATOM_VISA_OPND_SRC1 | \
			 DRM_VATOM_VISA_OPND_DST | \
			 DRM_VATOM_VISA_OPND_SRC0_IMM | \
			 DRM_VATOM_VISA_OPND_SRC1_IMM)
#define VISA_OPND_COORD	(DRM_VATOM_VISA_OPND_V | DRM_VATOM_VISA_OPND_R | \
			 DRM_VATOM_VISA_OPND_LOD)
#define VISA_OPND_IMM	(DRM_VATOM_VISA_OPND_SRC0_IMM | \
			 DRM_VATOM_VISA_OPND_SRC1_IMM)
/* The operands each opcode may have. */
#define VISA_OPND_TYPED	(VISA_OPND_KNOWN & ~VISA_OPND_IMM)
#define VISA_OPND_DWORD	(VISA_OPND_TYPED & ~VISA_OPND_COORD)
#define VISA_OPND_ADDC	(VISA_OPND_KNOWN & ~VISA_OPND_COORD & \
			 ~DRM_VATOM_VISA_OPND_ADDR)

/*
 * The operands a validated packet of @opcode (a constant) may have; 0:
 * any opcode.
 */
static __always_inline u32 visa_opnds(u32 opcode)
{
	switch (opcode) {
	case DRM_VATOM_VISA_DWORD_ATOMIC:
		return VISA_OPND_DWORD;
	case DRM_VATOM_VISA_TYPED_ATOMIC:
		return VISA_OPND_TYPED;
	case DRM_VATOM_VISA_ADDC:
		return VISA_OPND_ADDC;
	}
	return VISA_OPND_KNOWN;
}

/*
 * Where the next operand array lies, or NULL when it is absent (or only
 * its size is wanted); advances *pos past it and its padding.
 */
static __always_inline const void *visa_array(const u8 *base, u32 *pos,
					      bool present, u32 bytes,
					      bool set_pointer)
{
	const void *at = NULL;

	if (present) {
		if (set_pointer)
			at = base + *pos;
		*pos += vatom_align8(bytes);
	}
	return at;
}

/*
 * Fill in @d from the fixed part: lanes, ChEn, where each operand array
 * lies and the packet size they imply. Reads nothing past the fixed part;
 * the array pointers are only formed once the size has been checked (or
 * the packet was validated before). @opcode, a constant, is the packet's
 * when its operands were checked against it, so that the arrays it cannot
 * have are no code; 0 for any.
 */
static __always_inline void visa_layout_as(const struct drm_vatom_visa *p,
					   struct visa_pkt *d,
					   bool set_pointers, u32 opcode)
{
	const u8 *base = (const u8 *)p;
	u32 ops = p->operands & visa_opnds(opcode);
	u32 n = 1u << (p->exec_size & DRM_VATOM_VISA_EXEC_SIZE_MASK);
	u32 ctrl = p->exec_size >> DRM_VATOM_VISA_EXEC_MASK_SHIFT;
	u32 esz, pos = sizeof(*p);
	u32 lanes = visa_lanes_all(n);
	u32 chen;

	d->n = n;
	d->op = p->op & DRM_VATOM_VISA_OP_MASK;
	d->is16 = p->op & DRM_VATOM_VISA_OP_16;
	d->is64 = visa_type_is64(p->type);
	d->imm0 = ops & DRM_VATOM_VISA_OPND_SRC0_IMM;
	d->imm1 = ops & DRM_VATOM_VISA_OPND_SRC1_IMM;
	esz = d->is64 ? 8 : 4;

	if (ctrl & DRM_VATOM_VISA_EXEC_NM)
		chen = lanes;
	else
		chen = (u32)((u64)p->emask >> (4 * (ctrl & 7))) & lanes;
	if (p->flags & DRM_VATOM_VISA_PREDICATED)
		chen &= p->pred;
	d->chen = chen;

	d->addr = visa_array(base, &pos, ops & DRM_VATOM_VISA_OPND_ADDR, 4 * n,
			     set_pointers);
	d->v = visa_array(base, &pos, ops & DRM_VATOM_VISA_OPND_V, 4 * n,
			  set_pointers);
	d->r = visa_array(base, &pos, ops & DRM_VATOM_VISA_OPND_R, 4 * n,
			  set_pointers);
	d->lod = visa_array(base, &pos, ops & DRM_VATOM_VISA_OPND_LOD, 4 * n,
			    set_pointers);
	d->src0 = visa_array(base, &pos, ops & (DRM_VATOM_VISA_OPND_SRC0 |
						DRM_VATOM_VISA_OPND_SRC0_IMM),
			     d->imm0 ? esz : esz * n, set_pointers);
	d->src1 = visa_array(base, &pos, ops & (DRM_VATOM_VISA_OPND_SRC1 |
						DRM_VATOM_VISA_OPND_SRC1_IMM),
			     d->imm1 ? esz : esz * n, set_pointers);
	d->bytes = pos;
}

static __always_inline void visa_layout(const struct drm_vatom_visa *p,
					struct visa_pkt *d, bool set_pointers)
{
	visa_layout_as(p, d, set_pointers, 0);
}

/*
 * Is there a packet at @at of @stream (@size bytes) whose fixed part
 * (struct drm_vatom_visa, 32 bytes) is that of the packet of @psize bytes
 * before it, i.e. one more packet of the same shape? Read from the packet
 * before, rather than kept, so that a run of one packet copies nothing.
 */
static __always_inline bool visa_shape_next(const u8 *stream, u32 size,
					    u32 at, u32 psize)
{
	const u8 *p = stream + at, *q = p - psize;
	u64 x[4], y[4];

	static_assert(sizeof(struct drm_vatom_visa) == sizeof(x),
		      "the fixed part of a vISA packet is 4 words");
	if (size - at < psize)
		return false;
	memcpy(x, p, sizeof(x));
	memcpy(y, q, sizeof(y));
	return !((x[0] ^ y[0]) | (x[1] ^ y[1]) | (x[2] ^ y[2]) |
		 (x[3] ^ y[3]));
}

/* TYPED_ATOMIC and ADDC (visa_typed_addc.c), @d decoded with Src0 and Src1 */
u64 visa_typed(const struct visa_pkt *d, const struct vatom_surface_view *s,
	       u8 *res);
u64 visa_addc(const struct visa_pkt *d, u8 *res);

#endif /* _VATOM_VISA_INTERNAL_H_ */
