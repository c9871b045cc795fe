// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Intel vISA DWORD_ATOMIC (0x7d), TYPED_ATOMIC (0x73) and ADDC (0x49):
 * the Op table, validation and the Op codes GET_PARAM reports. Execution
 * is in visa_dword.c (DWORD_ATOMIC) and visa_typed_addc.c (TYPED_ATOMIC,
 * ADDC); visa_internal.h has the decoding both sides share.
 *
 * A packet is struct drm_vatom_visa followed by the operand arrays named in
 * its operands word, in bit order (ADDR, V, R, LOD, SRC0, SRC1), each
 * starting 8-byte aligned. Every lane's read-modify-write is one CPU atomic
 * on the surface memory. docs/semantics-visa.md describes every rule and
 * the choices made where the ISA text is silent.
 */
#include "vatom_engine.h"
#include "typed.h"
#include "visa_internal.h"

#define VISA_T(t)	(1u << DRM_VATOM_VISA_TYPE_##t)
#define VISA_T32	(VISA_T(UD) | VISA_T(D) | VISA_T(F))
#define VISA_T64	(VISA_T(UQ) | VISA_T(Q))

/**
 * struct visa_op_info - one row of the DWORD_ATOMIC_OP table
 * @valid: the Op code exists
 * @types: VISA_T() of the data types allowed; any of UQ/Q means the 64-bit
 *	DWORD_ATOMIC form exists
 * @srcs: DRM_VATOM_VISA_OPND_SRC0 and _SRC1 when the Op takes Src0 and Src1
 *	(else each must be V0)
 * @typed: allowed in TYPED_ATOMIC (32-bit and .16 forms, UD/D only)
 *
 * The validator and vatom_visa_ops_mask() both read this table, so what
 * GET_PARAM reports is exactly what the validator accepts.
 */
struct visa_op_info {
	u8 valid;
	u8 types;
	u8 srcs;
	u8 typed;
};

#define VISA_OP(o, t, s0, s1, ty)					\
	[DRM_VATOM_VISA_OP_##o] = {					\
		1, (t),							\
		((s0) ? DRM_VATOM_VISA_OPND_SRC0 : 0) |			\
		((s1) ? DRM_VATOM_VISA_OPND_SRC1 : 0), (ty)		\
	}

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

/*
 * The padding of the operand arrays of a packet laid out in @d. Only an
 * array of one 4-byte element has any, so with two lanes or more and no
 * immediate (every DWORD_ATOMIC of SIMD2 and up) there is none to check.
 */
static __always_inline bool visa_pads_ok(const struct visa_pkt *d)
{
	u32 esz = d->is64 ? 8 : 4, isz = 4 * d->n;

	if (d->n > 1 && !d->imm0 && !d->imm1)
		return true;
	return visa_pad_ok(d->addr, isz) && visa_pad_ok(d->v, isz) &&
	       visa_pad_ok(d->r, isz) && visa_pad_ok(d->lod, isz) &&
	       visa_pad_ok(d->src0, d->imm0 ? esz : esz * d->n) &&
	       visa_pad_ok(d->src1, d->imm1 ? esz : esz * d->n);
}

/*
 * The @n (even) lane offsets at @addr (8-byte aligned) ORed, two at a
 * time: a misaligned one shows in the low bits.
 */
static __always_inline u32 visa_offsets_or(const u32 *addr, u32 n)
{
	const u32 *end = addr + n;
	u64 any = 0, w;

	for (; addr < end; addr += 2) {
		memcpy(&w, addr, 8);
		any |= w;
	}
	return (u32)(any | any >> 32);
}

/*
 * Whether an enabled lane's Element_offset is not a multiple of the access
 * (@amask: its size - 1). All lanes enabled, the common case, is one test
 * of all the offsets ORed.
 */
static __always_inline bool visa_misaligned(const struct visa_pkt *d,
					    u32 amask)
{
	u32 m;

	if (d->chen == visa_lanes_all(d->n))
		return (d->n > 1 ? visa_offsets_or(d->addr, d->n) :
			d->addr[0]) & amask;
	for (m = d->chen; m; m &= m - 1)
		if (d->addr[__builtin_ctz(m)] & amask)
			return true;
	return false;
}

/*
 * Every check that depends on the packet alone, in a fixed order, for a
 * packet of @opcode, a constant: each opcode's instance has only its own
 * checks, and the layout only the arrays the opcode can have.
 */
static __always_inline u32 visa_decode_as(const struct drm_vatom_visa *p,
					  struct visa_pkt *d, u32 opcode)
{
	const bool addc = opcode == DRM_VATOM_VISA_ADDC;
	const bool typed = opcode == DRM_VATOM_VISA_TYPED_ATOMIC;
	const struct visa_op_info *info = NULL;
	u32 ops = p->operands, code, ctrl, n;

	/* Reserved fields and bits. */
	if (unlikely(p->pad[0] || p->pad[1] || p->pad[2] ||
		     (p->flags & ~DRM_VATOM_VISA_PREDICATED) ||
		     (ops & ~VISA_OPND_KNOWN) ||
		     (!(p->flags & DRM_VATOM_VISA_PREDICATED) && p->pred) ||
		     (addc && p->surface)))
		return DRM_VATOM_ERR_RESERVED;

	/* The Op byte. */
	if (addc) {
		if (p->op)
			return DRM_VATOM_ERR_OP;
	} else {
		if (unlikely(p->op & ~(DRM_VATOM_VISA_OP_MASK | DRM_VATOM_VISA_OP_16)))
			return DRM_VATOM_ERR_OP;
		info = &visa_ops[p->op & DRM_VATOM_VISA_OP_MASK];
		if (unlikely(!info->valid))
			return DRM_VATOM_ERR_OP;
		if (unlikely((p->op & DRM_VATOM_VISA_OP_16) &&
			     visa_type_is64(p->type)))
			return DRM_VATOM_ERR_OP;
		if (typed && !info->typed)
			return DRM_VATOM_ERR_OP;
	}

	/* Exec_size: the size code per instruction, then the mask window. */
	code = p->exec_size & DRM_VATOM_VISA_EXEC_SIZE_MASK;
	ctrl = p->exec_size >> DRM_VATOM_VISA_EXEC_MASK_SHIFT;
	if (unlikely(p->exec_size & DRM_VATOM_VISA_EXEC_RESERVED))
		return DRM_VATOM_ERR_EXEC_SIZE;
	if (unlikely(addc ? code > DRM_VATOM_VISA_EXEC_32 :
		     typed ? code != DRM_VATOM_VISA_EXEC_8 :
		     code > DRM_VATOM_VISA_EXEC_16))
		return DRM_VATOM_ERR_EXEC_SIZE;
	n = 1u << code;
	if (unlikely(4 * (ctrl & 7) + n > 32))
		return DRM_VATOM_ERR_EXEC_SIZE;

	/* Data type. */
	if (addc) {
		if (p->type != DRM_VATOM_VISA_TYPE_UD)
			return DRM_VATOM_ERR_TYPE;
	} else {
		if (unlikely(p->type > DRM_VATOM_VISA_TYPE_Q ||
			     !(info->types & (1u << p->type))))
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
		/*
		 * Beside Dst, and TYPED's coordinates (which the surface
		 * decides), exactly ADDR and the sources the Op takes: no
		 * immediate, no coordinate for DWORD.
		 */
		if (unlikely((ops & ~(DRM_VATOM_VISA_OPND_DST |
				      (typed ? VISA_OPND_COORD : 0))) !=
			     (DRM_VATOM_VISA_OPND_ADDR | info->srcs)))
			return DRM_VATOM_ERR_OPERANDS;
	}

	/* Exact size, then the padding that the size covers. */
	visa_layout_as(p, d, false, opcode);
	if (unlikely(p->hdr.size != d->bytes))
		return DRM_VATOM_ERR_PACKET_SIZE;
	visa_layout_as(p, d, true, opcode);
	if (unlikely(!visa_pads_ok(d)))
		return DRM_VATOM_ERR_RESERVED;
	return DRM_VATOM_ERR_NONE;
}

/* Checks against the bound surface (DWORD_ATOMIC, TYPED_ATOMIC). */
static __always_inline u32 visa_check_surface(const struct drm_vatom_visa *p,
					      const struct vatom_bindings *b,
					      const struct visa_pkt *d,
					      u32 opcode)
{
	const struct vatom_surface_view *s = b ? b->slot[p->surface] : NULL;
	u32 ops = p->operands;

	if (unlikely(!s))
		return DRM_VATOM_ERR_SLOT;

	if (opcode == DRM_VATOM_VISA_TYPED_ATOMIC) {
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

	if (unlikely(s->kind != DRM_VATOM_SURFACE_BUFFER))
		return DRM_VATOM_ERR_SURFACE_KIND;
	/* Enabled lanes only: a disabled lane's offset is never used. */
	if (unlikely(visa_misaligned(d, d->is16 ? 1 : d->is64 ? 7 : 3)))
		return DRM_VATOM_ERR_ALIGN;
	return DRM_VATOM_ERR_NONE;
}

/* Every check of a packet of @opcode, a constant; @bytes: its results. */
static __always_inline u32 visa_validate_as(const struct drm_vatom_visa *p,
					    const struct vatom_bindings *b,
					    u64 *bytes, u32 opcode)
{
	struct visa_pkt d;
	u32 reason;

	reason = visa_decode_as(p, &d, opcode);
	if (!reason && opcode != DRM_VATOM_VISA_ADDC)
		reason = visa_check_surface(p, b, &d, opcode);
	*bytes = reason ? 0 : vatom_visa_result_bytes(p);
	return reason;
}

/* Every check of a packet, its opcode's instance. */
static __always_inline u32 visa_validate(const struct drm_vatom_visa *p,
					 const struct vatom_bindings *b,
					 u64 *bytes)
{
	*bytes = 0;
	if (unlikely(p->hdr.size < sizeof(*p)))
		return DRM_VATOM_ERR_PACKET_SIZE;
	switch (p->opcode) {
	case DRM_VATOM_VISA_DWORD_ATOMIC:
		return visa_validate_as(p, b, bytes,
					DRM_VATOM_VISA_DWORD_ATOMIC);
	case DRM_VATOM_VISA_TYPED_ATOMIC:
		return visa_validate_as(p, b, bytes,
					DRM_VATOM_VISA_TYPED_ATOMIC);
	case DRM_VATOM_VISA_ADDC:
		return visa_validate_as(p, b, bytes, DRM_VATOM_VISA_ADDC);
	}
	return DRM_VATOM_ERR_OPCODE;
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
	return visa_validate(p, b, result_bytes);
}

/**
 * vatom_visa_validate_one() - vatom_stream_validate_ctl() of a stream that
 * is one vISA packet
 * @stream: the packet: vatom_stream_is_one()
 * @size: its bytes
 * @b: the submission's bindings
 * @ctl: the most element operations it may cost (NULL: no limit)
 * @results_needed: out, as vatom_stream_validate_ctl()
 * @ops: out, as vatom_stream_validate_ctl()
 * @err: out, as vatom_stream_validate_ctl()
 *
 * vatom_visa_validate() and the cost in one call, which takes the walker's
 * arguments as they are, so that the walker ends in a jump to it.
 *
 * Return: as vatom_stream_validate_ctl().
 */
int vatom_visa_validate_one(const void *stream, u32 size,
			    const struct vatom_bindings *b,
			    const struct vatom_exec_ctl *ctl,
			    u64 *results_needed, u64 *ops,
			    struct vatom_stream_error *err)
{
	u64 bytes;
	u32 reason = visa_validate(stream, b, &bytes);

	/* Only a valid packet is known to hold more than its header. */
	return vatom_one_validated(reason, bytes,
				   reason ? 0 : vatom_visa_ops(stream), ctl,
				   results_needed, ops, err);
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

	visa_layout(p, &d, true);
	if (!visa_pads_ok(&d))
		return DRM_VATOM_ERR_RESERVED;
	if (p->opcode != DRM_VATOM_VISA_DWORD_ATOMIC)
		return DRM_VATOM_ERR_NONE;
	return visa_misaligned(&d, d.is16 ? 1 : d.is64 ? 7 : 3) ?
	       DRM_VATOM_ERR_ALIGN : DRM_VATOM_ERR_NONE;
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
	u64 rb;

	struct visa_pkt d;
	u32 o_addr = 0, amask = 0;

	*count = 0;
	*result_bytes = 0;
	reason = vatom_visa_validate(first, b, &rb);
	if (reason)
		return reason;
	/*
	 * The common run: DWORD_ATOMIC, every lane enabled, no one-element
	 * array (so no padding to check): only the lane offsets' alignment
	 * is left, tested on all of them ORed, two at a time.
	 */
	visa_layout(first, &d, true);
	if (first->opcode == DRM_VATOM_VISA_DWORD_ATOMIC && d.n >= 2 &&
	    d.chen == visa_lanes_all(d.n)) {
		o_addr = (u32)((const u8 *)d.addr - (const u8 *)first);
		amask = d.is16 ? 1 : d.is64 ? 7 : 3;
	}
	do {
		if (n && o_addr) {
			if (visa_offsets_or((const u32 *)(stream + at + o_addr),
					    d.n) & amask) {
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
	} while (n < max && visa_shape_next(stream, size, at, psize));
	*pos = at;
	*count = n;
	*result_bytes = rb * n;
	return reason;
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
