// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Intel vISA DWORD_ATOMIC (0x7d), TYPED_ATOMIC (0x73) and ADDC (0x49).
 *
 * A packet is struct drm_vatom_visa followed by the operand arrays named in
 * its operands word, in bit order (ADDR, V, R, LOD, SRC0, SRC1), each
 * starting 8-byte aligned. Every lane's read-modify-write is one CPU atomic
 * on the surface memory. docs/semantics-visa.md describes every rule and
 * the choices made where the ISA text is silent.
 */
#include "vatom_engine.h"
#include "softfloat.h"
#include "typed.h"
#include "visa_internal.h"

#define VISA_T(t)	(1u << DRM_VATOM_VISA_TYPE_##t)
#define VISA_T32	(VISA_T(UD) | VISA_T(D) | VISA_T(F))
#define VISA_T64	(VISA_T(UQ) | VISA_T(Q))

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

/**
 * struct visa_op_info - one row of the DWORD_ATOMIC_OP table
 * @valid: the Op code exists
 * @types: VISA_T() of the data types allowed; any of UQ/Q means the 64-bit
 *	DWORD_ATOMIC form exists
 * @src0: Src0 is required (else it must be V0)
 * @src1: Src1 is required (else it must be V0)
 * @typed: allowed in TYPED_ATOMIC (32-bit and .16 forms, UD/D only)
 *
 * The validator and vatom_visa_ops_mask() both read this table, so what
 * GET_PARAM reports is exactly what the validator accepts.
 */
struct visa_op_info {
	u8 valid;
	u8 types;
	u8 src0;
	u8 src1;
	u8 typed;
};

#define VISA_OP(o, t, s0, s1, ty) \
	[DRM_VATOM_VISA_OP_##o] = { 1, (t), (s0), (s1), (ty) }

static const struct visa_op_info visa_ops[DRM_VATOM_VISA_OP_MASK + 1] = {
	VISA_OP(ADD,     VISA_T(UD) | VISA_T(UQ), 1, 0, 1),
	VISA_OP(SUB,     VISA_T(UD) | VISA_T(UQ), 1, 0, 1),
	VISA_OP(INC,     VISA_T(UD) | VISA_T(UQ), 0, 0, 1),
	VISA_OP(DEC,     VISA_T(UD) | VISA_T(UQ), 0, 0, 1),
	VISA_OP(MIN,     VISA_T(UD) | VISA_T(UQ), 1, 0, 1),
	VISA_OP(MAX,     VISA_T(UD) | VISA_T(UQ), 1, 0, 1),
	VISA_OP(XCHG,    VISA_T(UD) | VISA_T(UQ), 1, 0, 1),
	VISA_OP(CMPXCHG, VISA_T(UD) | VISA_T(UQ), 1, 1, 1),
	VISA_OP(AND,     VISA_T(UD) | VISA_T(UQ), 1, 0, 1),
	VISA_OP(OR,      VISA_T(UD) | VISA_T(UQ), 1, 0, 1),
	VISA_OP(XOR,     VISA_T(UD) | VISA_T(UQ), 1, 0, 1),
	VISA_OP(IMIN,    VISA_T(D) | VISA_T(Q), 1, 0, 1),
	VISA_OP(IMAX,    VISA_T(D) | VISA_T(Q), 1, 0, 1),
	/* The table says W/D/Q, the Notes "other operations: UD": take both. */
	VISA_OP(PREDEC,  VISA_T(UD) | VISA_T(D) | VISA_T(UQ) | VISA_T(Q),
		0, 0, 1),
	VISA_OP(FMAX,    VISA_T(F), 1, 0, 0),
	VISA_OP(FMIN,    VISA_T(F), 1, 0, 0),
	VISA_OP(FCMPWR,  VISA_T(F), 1, 1, 0),
};

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

static bool visa_type_is64(u8 type)
{
	return type == DRM_VATOM_VISA_TYPE_UQ || type == DRM_VATOM_VISA_TYPE_Q;
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
 * the packet was validated before).
 */
static __always_inline void visa_layout(const struct drm_vatom_visa *p,
					struct visa_pkt *d, bool set_pointers)
{
	const u8 *base = (const u8 *)p;
	u32 ops = p->operands;
	u32 n = 1u << (p->exec_size & DRM_VATOM_VISA_EXEC_SIZE_MASK);
	u32 ctrl = p->exec_size >> DRM_VATOM_VISA_EXEC_MASK_SHIFT;
	u32 esz, pos = sizeof(*p);
	u32 lanes = n >= 32 ? ~0u : (1u << n) - 1;
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

/* The 4 bytes after a one-element array of 4-byte elements must be zero. */
static bool visa_pad_ok(const void *arr, u32 bytes)
{
	const u8 *pad = arr;
	u32 i;

	if (!arr)
		return true;
	for (i = bytes; i < vatom_align8(bytes); i++)
		if (pad[i])
			return false;
	return true;
}

/* Every check that depends on the packet alone, in a fixed order. */
static u32 visa_decode(const struct drm_vatom_visa *p, struct visa_pkt *d)
{
	const struct visa_op_info *info = NULL;
	u32 ops, code, ctrl, n, esz, isz;
	bool addc, typed;

	if (p->hdr.size < sizeof(*p))
		return DRM_VATOM_ERR_PACKET_SIZE;

	switch (p->opcode) {
	case DRM_VATOM_VISA_DWORD_ATOMIC:
	case DRM_VATOM_VISA_TYPED_ATOMIC:
	case DRM_VATOM_VISA_ADDC:
		break;
	default:
		return DRM_VATOM_ERR_OPCODE;
	}
	addc = p->opcode == DRM_VATOM_VISA_ADDC;
	typed = p->opcode == DRM_VATOM_VISA_TYPED_ATOMIC;
	ops = p->operands;

	/* Reserved fields and bits. */
	if (p->pad[0] || p->pad[1] || p->pad[2] ||
	    (p->flags & ~DRM_VATOM_VISA_PREDICATED) ||
	    (ops & ~VISA_OPND_KNOWN) ||
	    (!(p->flags & DRM_VATOM_VISA_PREDICATED) && p->pred) ||
	    (addc && p->surface))
		return DRM_VATOM_ERR_RESERVED;

	/* The Op byte. */
	if (addc) {
		if (p->op)
			return DRM_VATOM_ERR_OP;
	} else {
		if (p->op & ~(DRM_VATOM_VISA_OP_MASK | DRM_VATOM_VISA_OP_16))
			return DRM_VATOM_ERR_OP;
		info = &visa_ops[p->op & DRM_VATOM_VISA_OP_MASK];
		if (!info->valid)
			return DRM_VATOM_ERR_OP;
		if ((p->op & DRM_VATOM_VISA_OP_16) && visa_type_is64(p->type))
			return DRM_VATOM_ERR_OP;
		if (typed && !info->typed)
			return DRM_VATOM_ERR_OP;
	}

	/* Exec_size: the size code per instruction, then the mask window. */
	code = p->exec_size & DRM_VATOM_VISA_EXEC_SIZE_MASK;
	ctrl = p->exec_size >> DRM_VATOM_VISA_EXEC_MASK_SHIFT;
	if (p->exec_size & DRM_VATOM_VISA_EXEC_RESERVED)
		return DRM_VATOM_ERR_EXEC_SIZE;
	if (addc ? code > DRM_VATOM_VISA_EXEC_32 :
	    typed ? code != DRM_VATOM_VISA_EXEC_8 :
	    code > DRM_VATOM_VISA_EXEC_16)
		return DRM_VATOM_ERR_EXEC_SIZE;
	n = 1u << code;
	if (4 * (ctrl & 7) + n > 32)
		return DRM_VATOM_ERR_EXEC_SIZE;

	/* Data type. */
	if (addc) {
		if (p->type != DRM_VATOM_VISA_TYPE_UD)
			return DRM_VATOM_ERR_TYPE;
	} else {
		if (p->type > DRM_VATOM_VISA_TYPE_Q ||
		    !(info->types & (1u << p->type)))
			return DRM_VATOM_ERR_TYPE;
		if (typed && visa_type_is64(p->type))
			return DRM_VATOM_ERR_TYPE;
	}

	/* Operand presence (TYPED's V and R also depend on the surface). */
	if (addc) {
		if (ops & (DRM_VATOM_VISA_OPND_ADDR | VISA_OPND_COORD))
			return DRM_VATOM_ERR_OPERANDS;
		if (!(ops & DRM_VATOM_VISA_OPND_SRC0) ==
		    !(ops & DRM_VATOM_VISA_OPND_SRC0_IMM))
			return DRM_VATOM_ERR_OPERANDS;
		if (!(ops & DRM_VATOM_VISA_OPND_SRC1) ==
		    !(ops & DRM_VATOM_VISA_OPND_SRC1_IMM))
			return DRM_VATOM_ERR_OPERANDS;
		if (!(ops & DRM_VATOM_VISA_OPND_DST))
			return DRM_VATOM_ERR_OPERANDS;
	} else {
		if ((ops & VISA_OPND_IMM) || !(ops & DRM_VATOM_VISA_OPND_ADDR))
			return DRM_VATOM_ERR_OPERANDS;
		if (!typed && (ops & VISA_OPND_COORD))
			return DRM_VATOM_ERR_OPERANDS;
		if (!(ops & DRM_VATOM_VISA_OPND_SRC0) != !info->src0 ||
		    !(ops & DRM_VATOM_VISA_OPND_SRC1) != !info->src1)
			return DRM_VATOM_ERR_OPERANDS;
	}

	/* Exact size, then the padding that the size covers. */
	visa_layout(p, d, false);
	if (p->hdr.size != d->bytes)
		return DRM_VATOM_ERR_PACKET_SIZE;
	visa_layout(p, d, true);
	esz = d->is64 ? 8 : 4;
	isz = 4 * n;
	if (!visa_pad_ok(d->addr, isz) || !visa_pad_ok(d->v, isz) ||
	    !visa_pad_ok(d->r, isz) || !visa_pad_ok(d->lod, isz) ||
	    !visa_pad_ok(d->src0, d->imm0 ? esz : esz * n) ||
	    !visa_pad_ok(d->src1, d->imm1 ? esz : esz * n))
		return DRM_VATOM_ERR_RESERVED;
	return DRM_VATOM_ERR_NONE;
}

/* The fixed part of a vISA packet, as 4 words to compare. */
struct visa_shape {
	u64 w[4];
};

static_assert(sizeof(struct drm_vatom_visa) == sizeof(struct visa_shape),
	      "a shape is the fixed part of a vISA packet");

static __always_inline void visa_shape_of(struct visa_shape *sh,
					  const u8 *p)
{
	memcpy(&sh->w[0], p, 8);
	memcpy(&sh->w[1], p + 8, 8);
	memcpy(&sh->w[2], p + 16, 8);
	memcpy(&sh->w[3], p + 24, 8);
}

/*
 * Is there a packet at @at of @stream (@size bytes) whose fixed part is
 * @sh, i.e. one more packet of @psize bytes of the same shape?
 */
static __always_inline bool visa_shape_next(const u8 *stream, u32 size,
					    u32 at,
					    const struct visa_shape *sh,
					    u32 psize)
{
	struct visa_shape x;

	if (size - at < psize)
		return false;
	visa_shape_of(&x, stream + at);
	return !((x.w[0] ^ sh->w[0]) | (x.w[1] ^ sh->w[1]) |
		 (x.w[2] ^ sh->w[2]) | (x.w[3] ^ sh->w[3]));
}

/* Checks against the bound surface (DWORD_ATOMIC, TYPED_ATOMIC). */
static u32 visa_check_surface(const struct drm_vatom_visa *p,
			      const struct vatom_bindings *b,
			      const struct visa_pkt *d)
{
	const struct vatom_surface_view *s = b ? b->slot[p->surface] : NULL;
	u32 ops = p->operands;
	u32 m, amask;

	if (!s)
		return DRM_VATOM_ERR_SLOT;

	if (p->opcode == DRM_VATOM_VISA_TYPED_ATOMIC) {
		bool want_v, want_r;

		if (s->kind != DRM_VATOM_SURFACE_TYPED || !s->typed)
			return DRM_VATOM_ERR_SURFACE_KIND;
		want_v = s->typed->dim != DRM_VATOM_TYPED_1D;
		want_r = s->typed->dim == DRM_VATOM_TYPED_2D_ARRAY ||
			 s->typed->dim == DRM_VATOM_TYPED_3D;
		if (!(ops & DRM_VATOM_VISA_OPND_V) != !want_v ||
		    !(ops & DRM_VATOM_VISA_OPND_R) != !want_r)
			return DRM_VATOM_ERR_OPERANDS;
		/* Texels are 4-byte aligned by construction. */
		return DRM_VATOM_ERR_NONE;
	}

	if (s->kind != DRM_VATOM_SURFACE_BUFFER)
		return DRM_VATOM_ERR_SURFACE_KIND;
	/* Enabled lanes only: a disabled lane's offset is never used. */
	amask = d->is16 ? 1 : d->is64 ? 7 : 3;
	for (m = d->chen; m; m &= m - 1)
		if (d->addr[__builtin_ctz(m)] & amask)
			return DRM_VATOM_ERR_ALIGN;
	return DRM_VATOM_ERR_NONE;
}

/**
 * vatom_visa_validate() - check one vISA packet
 * @p: the packet; its header lies within the stream
 * @b: the submission's bindings
 * @result_bytes: out, bytes of results the packet returns
 *
 * Return: 0 or a DRM_VATOM_ERR_* reason.
 */
u32 vatom_visa_validate(const struct drm_vatom_visa *p,
			const struct vatom_bindings *b, u64 *result_bytes)
{
	struct visa_pkt d;
	u32 reason;

	*result_bytes = 0;
	reason = visa_decode(p, &d);
	if (!reason && p->opcode != DRM_VATOM_VISA_ADDC)
		reason = visa_check_surface(p, b, &d);
	if (!reason)
		*result_bytes = vatom_visa_result_bytes(p);
	return reason;
}

/*
 * The checks left for a packet whose fixed part is identical to that of a
 * packet vatom_visa_validate() accepted with the same bindings: everything
 * decided by the fixed part (reserved fields, Op, Exec_size, type, operand
 * presence, exact size, the slot and its surface kind) passed already, so
 * what remains is what the operand arrays hold, checked in the same order
 * as there: the padding of a one-element array, then each enabled lane's
 * DWORD_ATOMIC alignment.
 */
static u32 visa_validate_same_shape(const struct drm_vatom_visa *p)
{
	struct visa_pkt d;
	u32 esz, isz, amask, m;

	visa_layout(p, &d, true);
	esz = d.is64 ? 8 : 4;
	isz = 4 * d.n;
	if (!visa_pad_ok(d.addr, isz) || !visa_pad_ok(d.v, isz) ||
	    !visa_pad_ok(d.r, isz) || !visa_pad_ok(d.lod, isz) ||
	    !visa_pad_ok(d.src0, d.imm0 ? esz : esz * d.n) ||
	    !visa_pad_ok(d.src1, d.imm1 ? esz : esz * d.n))
		return DRM_VATOM_ERR_RESERVED;
	if (p->opcode != DRM_VATOM_VISA_DWORD_ATOMIC)
		return DRM_VATOM_ERR_NONE;
	amask = d.is16 ? 1 : d.is64 ? 7 : 3;
	if (d.chen == (d.n >= 32 ? ~0u : (1u << d.n) - 1)) {
		/* All lanes enabled: one test of all offsets ORed. */
		u32 any = 0, i;

		for (i = 0; i < d.n; i++)
			any |= d.addr[i];
		return any & amask ? DRM_VATOM_ERR_ALIGN : DRM_VATOM_ERR_NONE;
	}
	for (m = d.chen; m; m &= m - 1)
		if (d.addr[__builtin_ctz(m)] & amask)
			return DRM_VATOM_ERR_ALIGN;
	return DRM_VATOM_ERR_NONE;
}

/**
 * vatom_visa_validate_run() - validate the vISA packet at *@pos and the
 * packets of the same shape that follow it
 * @stream: the stream
 * @size: its bytes
 * @pos: in: offset of a vISA packet whose header lies within the stream;
 *	out: offset past the last packet accepted
 * @max: most packets to accept (>= 1)
 * @b: the submission's bindings
 * @count: out, packets accepted (the failing one, if any, not included)
 * @result_bytes: out, result bytes of the packets accepted
 *
 * The first packet gets vatom_visa_validate(); each following packet whose
 * 32-byte fixed part is identical to it only gets the checks that depend
 * on its operand arrays (visa_validate_same_shape()), and has the same
 * result bytes. The reasons are those vatom_visa_validate() would give
 * packet by packet.
 *
 * Return: 0, or the DRM_VATOM_ERR_* reason of packet *@count of the run.
 */
u32 vatom_visa_validate_run(const u8 *stream, u32 size, u32 *pos, u32 max,
			    const struct vatom_bindings *b, u32 *count,
			    u64 *result_bytes)
{
	const struct drm_vatom_visa *first = (const void *)(stream + *pos);
	u32 psize = first->hdr.size, at = *pos, n = 0, reason;
	struct visa_shape sh;
	u64 rb;

	struct visa_pkt d;
	u32 o_addr = 0, amask = 0;

	*count = 0;
	*result_bytes = 0;
	reason = vatom_visa_validate(first, b, &rb);
	if (reason)
		return reason;
	visa_shape_of(&sh, (const u8 *)first);
	/*
	 * The common run: DWORD_ATOMIC, every lane enabled, no one-element
	 * array (so no padding to check): only the lane offsets' alignment
	 * is left, tested on all of them ORed, two at a time.
	 */
	visa_layout(first, &d, true);
	if (first->opcode == DRM_VATOM_VISA_DWORD_ATOMIC && d.n >= 2 &&
	    d.chen == (d.n >= 32 ? ~0u : (1u << d.n) - 1)) {
		o_addr = (u32)((const u8 *)d.addr - (const u8 *)first);
		amask = d.is16 ? 1 : d.is64 ? 7 : 3;
	}
	do {
		if (n && o_addr) {
			const u8 *a = stream + at + o_addr;
			u64 any = 0, w;
			u32 i;

			for (i = 0; i < d.n; i += 2, a += 8) {
				memcpy(&w, a, 8);
				any |= w;
			}
			if ((u32)(any | any >> 32) & amask) {
				reason = DRM_VATOM_ERR_ALIGN;
				break;
			}
		} else if (n) {
			reason = visa_validate_same_shape((const void *)
							  (stream + at));
			if (reason)
				break;
		}
		at += psize;
		n++;
	} while (n < max && visa_shape_next(stream, size, at, &sh, psize));
	*pos = at;
	*count = n;
	*result_bytes = rb * n;
	return reason;
}

/* ------------------------------------------------------------------------ */
/* Element operations                                                        */
/* ------------------------------------------------------------------------ */

/* new for a 32-bit lane; @a is Src0, @b is Src1. */
static __always_inline u32 visa_new32(u32 op, u32 old, u32 a, u32 b)
{
	switch (op) {
	case DRM_VATOM_VISA_OP_ADD:
		return old + a;
	case DRM_VATOM_VISA_OP_SUB:
		return old - a;
	case DRM_VATOM_VISA_OP_INC:
		return old + 1;
	case DRM_VATOM_VISA_OP_DEC:
		return old - 1;
	case DRM_VATOM_VISA_OP_MIN:
		return old < a ? old : a;
	case DRM_VATOM_VISA_OP_MAX:
		return old > a ? old : a;
	case DRM_VATOM_VISA_OP_XCHG:
		return a;
	case DRM_VATOM_VISA_OP_CMPXCHG:
		return old == b ? a : old;
	case DRM_VATOM_VISA_OP_AND:
		return old & a;
	case DRM_VATOM_VISA_OP_OR:
		return old | a;
	case DRM_VATOM_VISA_OP_XOR:
		return old ^ a;
	case DRM_VATOM_VISA_OP_IMIN:
		return (s32)old < (s32)a ? old : a;
	case DRM_VATOM_VISA_OP_IMAX:
		return (s32)old > (s32)a ? old : a;
	case DRM_VATOM_VISA_OP_PREDEC:
		return old - 1;
	case DRM_VATOM_VISA_OP_FMAX:
		return vatom_f32_max(old, a);
	case DRM_VATOM_VISA_OP_FMIN:
		return vatom_f32_min(old, a);
	case DRM_VATOM_VISA_OP_FCMPWR:
		return vatom_f32_eq(a, old) ? b : old;
	}
	return old;
}

/* new for a 16-bit lane (values in the low 16 bits). */
static __always_inline u32 visa_new16(u32 op, u32 old, u32 a, u32 b)
{
	switch (op) {
	case DRM_VATOM_VISA_OP_IMIN:
		return (s16)old < (s16)a ? old : a;
	case DRM_VATOM_VISA_OP_IMAX:
		return (s16)old > (s16)a ? old : a;
	case DRM_VATOM_VISA_OP_FMAX:
		return vatom_f16_max(old, a);
	case DRM_VATOM_VISA_OP_FMIN:
		return vatom_f16_min(old, a);
	case DRM_VATOM_VISA_OP_FCMPWR:
		return vatom_f16_eq(a, old) ? b : old;
	}
	/* Unsigned and bitwise results are the low 16 bits of the 32-bit ones. */
	return visa_new32(op, old, a, b) & 0xffff;
}

/* new for a 64-bit lane. */
static __always_inline u64 visa_new64(u32 op, u64 old, u64 a, u64 b)
{
	switch (op) {
	case DRM_VATOM_VISA_OP_ADD:
		return old + a;
	case DRM_VATOM_VISA_OP_SUB:
		return old - a;
	case DRM_VATOM_VISA_OP_INC:
		return old + 1;
	case DRM_VATOM_VISA_OP_DEC:
		return old - 1;
	case DRM_VATOM_VISA_OP_MIN:
		return old < a ? old : a;
	case DRM_VATOM_VISA_OP_MAX:
		return old > a ? old : a;
	case DRM_VATOM_VISA_OP_XCHG:
		return a;
	case DRM_VATOM_VISA_OP_CMPXCHG:
		return old == b ? a : old;
	case DRM_VATOM_VISA_OP_AND:
		return old & a;
	case DRM_VATOM_VISA_OP_OR:
		return old | a;
	case DRM_VATOM_VISA_OP_XOR:
		return old ^ a;
	case DRM_VATOM_VISA_OP_IMIN:
		return (s64)old < (s64)a ? old : a;
	case DRM_VATOM_VISA_OP_IMAX:
		return (s64)old > (s64)a ? old : a;
	case DRM_VATOM_VISA_OP_PREDEC:
		return old - 1;
	}
	return old;
}

/*
 * One atomic 32-bit read-modify-write; returns what the lane returns (the
 * old value, the new one for PREDEC). Operations with a native instruction
 * use it; the others are a compare-and-swap loop. When the new value equals
 * the old one the loop stops at the atomic read: writing the same bits back
 * is indistinguishable from not writing them (the native load + CAS idiom).
 */
static __always_inline u32 visa_rmw32(u32 op, u32 *p, u32 a, u32 b)
{
	u32 old, new, prev;

	switch (op) {
	case DRM_VATOM_VISA_OP_ADD:
		return vatom_fetch_add32(p, a);
	case DRM_VATOM_VISA_OP_SUB:
		return vatom_fetch_add32(p, -a);
	case DRM_VATOM_VISA_OP_INC:
		return vatom_fetch_add32(p, 1);
	case DRM_VATOM_VISA_OP_DEC:
		return vatom_fetch_add32(p, ~0u);
	case DRM_VATOM_VISA_OP_XCHG:
		return vatom_xchg32(p, a);
	case DRM_VATOM_VISA_OP_CMPXCHG:
		return vatom_cmpxchg32(p, b, a);
	case DRM_VATOM_VISA_OP_PREDEC:
		return vatom_fetch_add32(p, ~0u) - 1;
	}
	/*
	 * The first test outside the loop, the loop itself out of the way:
	 * min/max-like ops most often change nothing.
	 */
	old = vatom_load32(p);
	new = visa_new32(op, old, a, b);
	if (__builtin_expect(new == old, 1))
		return old;
	for (;;) {
		prev = vatom_cmpxchg32(p, old, new);
		if (prev == old)
			return old;
		old = prev;
		new = visa_new32(op, old, a, b);
		if (new == old)
			return old;
	}
}

/*
 * 16-bit read-modify-write of the 2-aligned half-word at @h, as visa_rmw32():
 * 16-bit atomics that touch only the half-word's own two bytes, so neither
 * the other half of its dword nor a byte past a surface whose size is not a
 * multiple of 4 is ever accessed. The value is zero-extended.
 */
static __always_inline u32 visa_rmw16(u32 op, u16 *h, u32 a, u32 b)
{
	u16 old, new, prev;

	a &= 0xffff;
	b &= 0xffff;
	switch (op) {
	case DRM_VATOM_VISA_OP_ADD:
		return vatom_fetch_add16(h, (u16)a);
	case DRM_VATOM_VISA_OP_SUB:
		return vatom_fetch_add16(h, (u16)-a);
	case DRM_VATOM_VISA_OP_INC:
		return vatom_fetch_add16(h, 1);
	case DRM_VATOM_VISA_OP_DEC:
		return vatom_fetch_add16(h, 0xffff);
	case DRM_VATOM_VISA_OP_XCHG:
		return vatom_xchg16(h, (u16)a);
	case DRM_VATOM_VISA_OP_CMPXCHG:
		return vatom_cmpxchg16(h, (u16)b, (u16)a);
	case DRM_VATOM_VISA_OP_PREDEC:
		return (u16)(vatom_fetch_add16(h, 0xffff) - 1);
	}
	old = vatom_load16(h);
	new = (u16)visa_new16(op, old, a, b);
	if (__builtin_expect(new == old, 1))
		return old;
	for (;;) {
		prev = vatom_cmpxchg16(h, old, new);
		if (prev == old)
			return old;
		old = prev;
		new = (u16)visa_new16(op, old, a, b);
		if (new == old)
			return old;
	}
}

static __always_inline u64 visa_rmw64(u32 op, u64 *p, u64 a, u64 b)
{
	u64 old, new, prev;

	switch (op) {
	case DRM_VATOM_VISA_OP_ADD:
		return vatom_fetch_add64(p, a);
	case DRM_VATOM_VISA_OP_SUB:
		return vatom_fetch_add64(p, -a);
	case DRM_VATOM_VISA_OP_INC:
		return vatom_fetch_add64(p, 1);
	case DRM_VATOM_VISA_OP_DEC:
		return vatom_fetch_add64(p, ~0ull);
	case DRM_VATOM_VISA_OP_XCHG:
		return vatom_xchg64(p, a);
	case DRM_VATOM_VISA_OP_CMPXCHG:
		return vatom_cmpxchg64(p, b, a);
	case DRM_VATOM_VISA_OP_PREDEC:
		return vatom_fetch_add64(p, ~0ull) - 1;
	}
	old = vatom_load64(p);
	new = visa_new64(op, old, a, b);
	if (__builtin_expect(new == old, 1))
		return old;
	for (;;) {
		prev = vatom_cmpxchg64(p, old, new);
		if (prev == old)
			return old;
		old = prev;
		new = visa_new64(op, old, a, b);
		if (new == old)
			return old;
	}
}

/* ------------------------------------------------------------------------ */
/* Lane loops                                                                */
/* ------------------------------------------------------------------------ */

/* Src0/Src1 of an operation that takes none: 32 lanes of 8 bytes. */
static const u64 visa_zeros[32];

/*
 * One DWORD_ATOMIC lane: the atomic (or 0 when out of bounds), the result.
 * The arrays come as arguments, not through the visa_pkt, so that the
 * result stores (which may alias anything) do not force them to be
 * reloaded for every lane.
 */
static __always_inline void visa_dword_lane(const u32 *addr, const void *src0,
					    const void *src1, u8 *base,
					    u64 lim, u8 *res, u32 op,
					    u32 width, u64 i)
{
	u32 off = addr[i];

	if (width == 64) {
		const u64 *s0 = src0;
		const u64 *s1 = src1;
		u64 old = 0;

		if (off < lim)
			old = visa_rmw64(op, (u64 *)(base + off), s0[i], s1[i]);
		memcpy(res + 8 * i, &old, 8);
	} else {
		const u32 *s0 = src0;
		const u32 *s1 = src1;
		u32 a = s0[i];
		u32 b = s1[i];
		u32 old = 0;

		if (off < lim) {
			if (width == 16)
				old = visa_rmw16(op, (u16 *)(base + off), a, b);
			else
				old = visa_rmw32(op, (u32 *)(base + off), a, b);
		}
		memcpy(res + 4 * i, &old, 4);
	}
}

/*
 * DWORD_ATOMIC lanes of one packet, instantiated once per (Op, access
 * width) so that each lane is the bare atomic plus a bounds check.
 * Out-of-bounds lanes return 0 and write nothing; disabled lanes are not
 * visited, so their result elements stay as they were. .16 results are
 * 4-byte elements, the 16-bit value zero-extended; 64-bit results are 8-byte
 * elements. All lanes enabled, the common case, is a plain counted loop.
 */
static __always_inline u64 visa_dword_lanes(const u32 *addr, const void *src0,
					    const void *src1, u32 n, u32 chen,
					    u8 *base, u64 size, u8 *res,
					    u32 op, u32 width)
{
	/* A lane at offset off is in bounds when off < lim. */
	u64 lim = size >= width / 8 ? size - width / 8 + 1 : 0;
	u32 m = chen;
	u64 count = 0, i;

	if (m == (n >= 32 ? ~0u : (1u << n) - 1)) {
		/* SIMD16 with a constant count, which gcc unrolls. */
		if (n == 16) {
			for (i = 0; i < 16; i++)
				visa_dword_lane(addr, src0, src1, base, lim,
						res, op, width, i);
			return 16;
		}
		for (i = 0; i < n; i++)
			visa_dword_lane(addr, src0, src1, base, lim, res, op,
					width, i);
		return n;
	}
	for (; m; m &= m - 1) {
		visa_dword_lane(addr, src0, src1, base, lim, res, op, width,
				__builtin_ctz(m));
		count++;
	}
	return count;
}

/**
 * struct visa_run - consecutive DWORD_ATOMIC packets of one shape
 * @stream: the stream
 * @size: its bytes
 * @at: offset of the packet to run next
 * @max: most packets to run
 * @done: packets run
 * @results: the stream's result destination, or NULL without Dst
 * @off: offset in @results of the next packet's region
 *
 * Packets whose fixed part (struct drm_vatom_visa: header, opcode, Op,
 * Exec_size, surface, type, operands, masks, flags) is identical have the
 * same lanes, ChEn, operation and layout: the first one's decoding serves
 * them all, only the operand arrays move with the packet.
 */
struct visa_run {
	const u8 *stream;
	u32 size;
	u32 at;
	u32 max;
	u32 done;
	u8 *results;
	u64 off;
};

/* Is the packet at @r->at one more of the run's shape @sh (@psize bytes)? */
static __always_inline bool visa_run_next(const struct visa_run *r,
					  const struct visa_shape *sh,
					  u32 psize)
{
	return r->done < r->max &&
	       visa_shape_next(r->stream, r->size, r->at, sh, psize);
}

/*
 * The lane loop of one (Op, width) over every packet of a run: @d is the
 * decoded first packet; the arrays of the others are at the same offsets.
 */
static __always_inline u64 visa_dword_run(struct visa_run *r,
					  const struct visa_pkt *d, u8 *base,
					  u64 size, u32 op, u32 width)
{
	const struct drm_vatom_visa *first =
		(const void *)(r->stream + r->at);
	const u8 *p0 = (const u8 *)first;
	/* Array offsets within a packet; V0 sources stay the zeros. */
	u32 o_addr = (u32)((const u8 *)d->addr - p0);
	bool rel0 = d->src0 != visa_zeros, rel1 = d->src1 != visa_zeros;
	u32 o_s0 = rel0 ? (u32)((const u8 *)d->src0 - p0) : 0;
	u32 o_s1 = rel1 ? (u32)((const u8 *)d->src1 - p0) : 0;
	u32 psize = first->hdr.size;
	u64 rbytes = vatom_visa_result_bytes(first);
	struct visa_shape sh;
	u64 scratch[32];
	u64 count = 0;

	visa_shape_of(&sh, p0);
	do {
		const u8 *p = r->stream + r->at;
		/* Without Dst the results go to a scratch array. */
		u8 *res = r->results ? r->results + r->off : (u8 *)scratch;

		count += visa_dword_lanes((const u32 *)(p + o_addr),
					  rel0 ? (const void *)(p + o_s0) : visa_zeros,
					  rel1 ? (const void *)(p + o_s1) : visa_zeros,
					  d->n, d->chen, base, size, res, op,
					  width);
		r->at += psize;
		r->off += rbytes;
		r->done++;
	} while (visa_run_next(r, &sh, psize));
	return count;
}

/* One instance of the run per Op of a width. */
static __always_inline u64 visa_dword_ops(struct visa_run *r,
					  const struct visa_pkt *d, u8 *base,
					  u64 size, u32 width)
{
	switch (d->op) {
	case DRM_VATOM_VISA_OP_ADD:
		return visa_dword_run(r, d, base, size,
				      DRM_VATOM_VISA_OP_ADD, width);
	case DRM_VATOM_VISA_OP_SUB:
		return visa_dword_run(r, d, base, size,
				      DRM_VATOM_VISA_OP_SUB, width);
	case DRM_VATOM_VISA_OP_INC:
		return visa_dword_run(r, d, base, size,
				      DRM_VATOM_VISA_OP_INC, width);
	case DRM_VATOM_VISA_OP_DEC:
		return visa_dword_run(r, d, base, size,
				      DRM_VATOM_VISA_OP_DEC, width);
	case DRM_VATOM_VISA_OP_MIN:
		return visa_dword_run(r, d, base, size,
				      DRM_VATOM_VISA_OP_MIN, width);
	case DRM_VATOM_VISA_OP_MAX:
		return visa_dword_run(r, d, base, size,
				      DRM_VATOM_VISA_OP_MAX, width);
	case DRM_VATOM_VISA_OP_XCHG:
		return visa_dword_run(r, d, base, size,
				      DRM_VATOM_VISA_OP_XCHG, width);
	case DRM_VATOM_VISA_OP_CMPXCHG:
		return visa_dword_run(r, d, base, size,
				      DRM_VATOM_VISA_OP_CMPXCHG, width);
	case DRM_VATOM_VISA_OP_AND:
		return visa_dword_run(r, d, base, size,
				      DRM_VATOM_VISA_OP_AND, width);
	case DRM_VATOM_VISA_OP_OR:
		return visa_dword_run(r, d, base, size,
				      DRM_VATOM_VISA_OP_OR, width);
	case DRM_VATOM_VISA_OP_XOR:
		return visa_dword_run(r, d, base, size,
				      DRM_VATOM_VISA_OP_XOR, width);
	case DRM_VATOM_VISA_OP_IMIN:
		return visa_dword_run(r, d, base, size,
				      DRM_VATOM_VISA_OP_IMIN, width);
	case DRM_VATOM_VISA_OP_IMAX:
		return visa_dword_run(r, d, base, size,
				      DRM_VATOM_VISA_OP_IMAX, width);
	case DRM_VATOM_VISA_OP_PREDEC:
		return visa_dword_run(r, d, base, size,
				      DRM_VATOM_VISA_OP_PREDEC, width);
	case DRM_VATOM_VISA_OP_FMAX:
		return visa_dword_run(r, d, base, size,
				      DRM_VATOM_VISA_OP_FMAX, width);
	case DRM_VATOM_VISA_OP_FMIN:
		return visa_dword_run(r, d, base, size,
				      DRM_VATOM_VISA_OP_FMIN, width);
	case DRM_VATOM_VISA_OP_FCMPWR:
		return visa_dword_run(r, d, base, size,
				      DRM_VATOM_VISA_OP_FCMPWR, width);
	}
	return 0;
}

/* DWORD_ATOMIC with UD/D/F data: the hot path. */
static u64 visa_dword32(struct visa_run *r, const struct visa_pkt *d,
			u8 *base, u64 size)
{
	return visa_dword_ops(r, d, base, size, 32);
}

/* DWORD_ATOMIC.16: 4-byte unpacked elements, 2-byte accesses. */
static u64 visa_dword16(struct visa_run *r, const struct visa_pkt *d,
			u8 *base, u64 size)
{
	return visa_dword_ops(r, d, base, size, 16);
}

/* DWORD_ATOMIC with UQ/Q data: 8-byte elements and accesses. */
static u64 visa_dword64(struct visa_run *r, const struct visa_pkt *d,
			u8 *base, u64 size)
{
	return visa_dword_ops(r, d, base, size, 64);
}

/* A run of DWORD_ATOMIC packets from the one at @r->at. */
static u64 visa_dword(struct visa_run *r, const struct vatom_bindings *b)
{
	const struct drm_vatom_visa *p = (const void *)(r->stream + r->at);
	const struct vatom_surface_view *s = b->slot[p->surface];
	struct visa_pkt d;

	visa_layout(p, &d, true);
	/* V0 sources read as zeros, so that lanes need not test for them. */
	if (!d.src0)
		d.src0 = visa_zeros;
	if (!d.src1)
		d.src1 = visa_zeros;
	if (!(p->operands & DRM_VATOM_VISA_OPND_DST))
		r->results = NULL;
	if (d.is16)
		return visa_dword16(r, &d, s->vaddr, s->size);
	if (d.is64)
		return visa_dword64(r, &d, s->vaddr, s->size);
	return visa_dword32(r, &d, s->vaddr, s->size);
}

/**
 * vatom_visa_execute_run() - execute consecutive vISA packets of a
 * validated stream
 * @stream: the stream
 * @size: its bytes
 * @pos: in: offset of a vISA packet; out: offset past the last one executed
 * @max: most packets to execute (>= 1)
 * @b: the bindings the stream was validated with
 * @results: the stream's result destination (NULL when it has none)
 * @off: in/out: offset in @results of the next packet's region
 * @elements: accumulates the element operations performed
 *
 * Executes the packet at *@pos and, for DWORD_ATOMIC, the packets of the
 * same shape that follow it (struct visa_run), up to @max, exactly as
 * vatom_visa_execute() one by one would, decoding the shape once.
 *
 * Return: the packets executed.
 */
u32 vatom_visa_execute_run(const u8 *stream, u32 size, u32 *pos, u32 max,
			   const struct vatom_bindings *b, u8 *results,
			   u64 *off, u64 *elements)
{
	const struct drm_vatom_visa *p = (const void *)(stream + *pos);
	struct visa_run r = {
		.stream = stream, .size = size, .at = *pos, .max = max,
		.results = results, .off = *off,
	};

	if (p->opcode != DRM_VATOM_VISA_DWORD_ATOMIC) {
		*elements += vatom_visa_execute(p, b, results ?
						results + *off : NULL);
		*off += vatom_visa_result_bytes(p);
		*pos += p->hdr.size;
		return 1;
	}
	*elements += visa_dword(&r, b);
	*pos = r.at;
	/* Without Dst the offset did not move (result bytes 0). */
	*off = r.off;
	return r.done;
}

/*
 * TYPED_ATOMIC: each lane addresses texel (U, V, R) of level LOD; a
 * coordinate outside its extent at that level, or a level that does not
 * exist, is an out-of-bounds access. The .16 form works on the low half of
 * the 32-bit texel.
 */
static u64 visa_typed(const struct visa_pkt *d,
		      const struct vatom_surface_view *s, u8 *res)
{
	const u32 *s0 = d->src0;
	const u32 *s1 = d->src1;
	u64 count = 0;
	u32 m;

	for (m = d->chen; m; m &= m - 1) {
		u32 i = __builtin_ctz(m);
		u32 a = s0 ? s0[i] : 0;
		u32 b = s1 ? s1[i] : 0;
		u32 old = 0;
		u64 off;

		count++;
		if (vatom_typed_texel(s->typed, d->addr[i], d->v ? d->v[i] : 0,
				      d->r ? d->r[i] : 0,
				      d->lod ? d->lod[i] : 0, &off) &&
		    off + 4 <= s->size) {
			if (d->is16)
				old = visa_rmw16(d->op, (u16 *)(s->vaddr + off),
						 a, b);
			else
				old = visa_rmw32(d->op, (u32 *)(s->vaddr + off),
						 a, b);
		}
		if (res)
			memcpy(res + 4 * i, &old, 4);
	}
	return count;
}

/* ADDC: dst[i] = src0 + src1, carry[i] = carry out; results dst then carry. */
static u64 visa_addc(const struct visa_pkt *d, u8 *res)
{
	const u32 *s0 = d->src0;
	const u32 *s1 = d->src1;
	u32 carry_at = vatom_align8(4 * d->n);
	u64 count = 0;
	u32 m;

	for (m = d->chen; m; m &= m - 1) {
		u32 i = __builtin_ctz(m);
		u32 a = s0[d->imm0 ? 0 : i];
		u32 sum = a + s1[d->imm1 ? 0 : i];
		u32 carry = sum < a;

		count++;
		if (res) {
			memcpy(res + 4 * i, &sum, 4);
			memcpy(res + carry_at + 4 * i, &carry, 4);
		}
	}
	return count;
}

/**
 * vatom_visa_execute() - run one validated vISA packet
 * @p: the packet
 * @b: the bindings it was validated with
 * @results: its result region, or NULL when it returns nothing
 *
 * Return: the element operations performed (enabled lanes).
 */
u64 vatom_visa_execute(const struct drm_vatom_visa *p,
		       const struct vatom_bindings *b, u8 *results)
{
	struct visa_run r = {
		.stream = (const u8 *)p, .size = p->hdr.size, .max = 1,
		.results = results,
	};
	struct visa_pkt d;
	u8 *res;

	/* A run of one packet: the same code as in a stream. */
	if (p->opcode == DRM_VATOM_VISA_DWORD_ATOMIC)
		return visa_dword(&r, b);

	visa_layout(p, &d, true);
	res = (p->operands & DRM_VATOM_VISA_OPND_DST) ? results : NULL;
	/* V0 sources read as zeros, so that lanes need not test for them. */
	if (!d.src0)
		d.src0 = visa_zeros;
	if (!d.src1)
		d.src1 = visa_zeros;

	switch (p->opcode) {
	case DRM_VATOM_VISA_ADDC:
		return visa_addc(&d, res);
	case DRM_VATOM_VISA_TYPED_ATOMIC:
		return visa_typed(&d, b->slot[p->surface], res);
	}
	return 0;
}

/**
 * vatom_visa_ops_mask() - the Op codes implemented for a form
 * @form: DRM_VATOM_VISA_FORM_*
 *
 * Return: bit n set when Op n is accepted in @form; 0 for an unknown form.
 */
u64 vatom_visa_ops_mask(u32 form)
{
	u32 want, op;
	bool typed = false;
	u64 mask = 0;

	switch (form) {
	case DRM_VATOM_VISA_FORM_DWORD32:
	case DRM_VATOM_VISA_FORM_DWORD16:
		want = VISA_T32;
		break;
	case DRM_VATOM_VISA_FORM_DWORD64:
		want = VISA_T64;
		break;
	case DRM_VATOM_VISA_FORM_TYPED32:
	case DRM_VATOM_VISA_FORM_TYPED16:
		want = VISA_T(UD) | VISA_T(D);
		typed = true;
		break;
	default:
		return 0;
	}
	for (op = 0; op <= DRM_VATOM_VISA_OP_MASK; op++)
		if (visa_ops[op].valid && (visa_ops[op].types & want) &&
		    (!typed || visa_ops[op].typed))
			mask |= 1ull << op;
	return mask;
}
