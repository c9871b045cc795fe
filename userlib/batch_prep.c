// SPDX-License-Identifier: MIT
/*
 * libvatom: packet encoding for every ISA family: vISA DWORD_ATOMIC,
 * TYPED_ATOMIC and ADDC, PTX atom, NoC atomic requests, each appended to a
 * batch (batch.c) with vatom__pkt_append().
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* ---- vISA ---------------------------------------------------------------- */

/* The Exec_size byte: log2(lanes) in bits 2..0, mask control in 7..4. */
static int exec_size_byte(const struct vatom_visa_exec *ex,
			  unsigned int max_lanes, uint8_t *out)
{
	uint8_t code;

	if (!ex || ex->size > max_lanes || ex->mask_ctrl > 0xf)
		return -EINVAL;
	switch (ex->size) {
	case 1:
		code = DRM_VATOM_VISA_EXEC_1;
		break;
	case 2:
		code = DRM_VATOM_VISA_EXEC_2;
		break;
	case 4:
		code = DRM_VATOM_VISA_EXEC_4;
		break;
	case 8:
		code = DRM_VATOM_VISA_EXEC_8;
		break;
	case 16:
		code = DRM_VATOM_VISA_EXEC_16;
		break;
	case 32:
		code = DRM_VATOM_VISA_EXEC_32;
		break;
	default:
		return -EINVAL;
	}
	*out = code | ex->mask_ctrl << DRM_VATOM_VISA_EXEC_MASK_SHIFT;
	return 0;
}

/* One operand array of a vISA packet (absent: V0). */
struct visa_opnd {
	uint32_t bit;		/* DRM_VATOM_VISA_OPND_* */
	const void *data;	/* NULL: V0 */
	size_t len;
};

struct visa_insn {
	uint8_t opcode;
	uint8_t op;
	uint8_t surface;
	uint8_t type;
	uint32_t flag_bits;	/* DST, _IMM bits of @operands */
	uint32_t res_len;	/* bytes returned (with DST) */
	uint32_t carry_len;	/* ADDC carry bytes */
};

/*
 * Encode a vISA packet: the fixed part, then each present operand array in
 * the order of its DRM_VATOM_VISA_OPND_* bit, each at an 8-byte boundary.
 */
static int visa_emit(struct vatom_batch *b, const struct vatom_visa_exec *ex,
		     uint8_t exec_size, const struct visa_insn *in,
		     const struct visa_opnd *o, unsigned int n)
{
	struct drm_vatom_visa *p;
	size_t size = sizeof(*p);
	uint8_t *cur;
	unsigned int i;
	int idx;

	for (i = 0; i < n; i++)
		if (o[i].data)
			size += vatom__align8(o[i].len);
	idx = vatom__pkt_append(b, DRM_VATOM_PACKET_VISA, size,
				(in->flag_bits & DRM_VATOM_VISA_OPND_DST) ?
				in->res_len : 0, in->carry_len, (void **)&p);
	if (idx < 0)
		return idx;
	p->opcode = in->opcode;
	p->op = in->op;
	p->exec_size = exec_size;
	p->surface = in->surface;
	p->type = in->type;
	p->operands = in->flag_bits;
	p->emask = ex->emask;
	if (ex->predicated) {
		p->flags = DRM_VATOM_VISA_PREDICATED;
		p->pred = ex->pred;
	}
	cur = (uint8_t *)(p + 1);
	for (i = 0; i < n; i++) {
		if (!o[i].data)
			continue;
		p->operands |= o[i].bit;
		memcpy(cur, o[i].data, o[i].len);
		cur += vatom__align8(o[i].len);
	}
	return idx;
}

#define VISA_TYPE_MASK	0xff00u
#define VISA_FLAGS	(VATOM_VISA_DST | VATOM_VISA_16 | VISA_TYPE_MASK)

/*
 * The data type: explicit, or what the ISA's notes require of the op
 * (IMIN/IMAX signed, FMAX/FMIN/FCMPWR float, everything else unsigned).
 */
static int visa_type(unsigned int op, unsigned int flags, bool wide)
{
	if (flags & VISA_TYPE_MASK)
		return ((flags & VISA_TYPE_MASK) >> 8) - 1;
	switch (op) {
	case VATOM_VISA_IMIN:
	case VATOM_VISA_IMAX:
		return wide ? DRM_VATOM_VISA_TYPE_Q : DRM_VATOM_VISA_TYPE_D;
	case VATOM_VISA_FMAX:
	case VATOM_VISA_FMIN:
	case VATOM_VISA_FCMPWR:
		return DRM_VATOM_VISA_TYPE_F;
	default:
		return wide ? DRM_VATOM_VISA_TYPE_UQ : DRM_VATOM_VISA_TYPE_UD;
	}
}

static int prep_memory_atomic(struct vatom_batch *b,
			      const struct vatom_visa_exec *ex, uint8_t opcode,
			      unsigned int op, unsigned int flags,
			      unsigned int surface, bool wide,
			      const struct visa_opnd *addr, unsigned int n_addr,
			      const void *src0, const void *src1)
{
	struct visa_opnd o[6];
	struct visa_insn in = { .opcode = opcode };
	size_t elem = wide ? 8 : 4;
	uint8_t exec_size;
	unsigned int i;

	if (!b || (flags & ~VISA_FLAGS) || op > DRM_VATOM_VISA_OP_MASK ||
	    surface >= DRM_VATOM_MAX_SLOTS || !addr[0].data ||
	    (wide && (flags & VATOM_VISA_16)) ||
	    exec_size_byte(ex, 16, &exec_size))
		return -EINVAL;
	in.op = op | ((flags & VATOM_VISA_16) ? DRM_VATOM_VISA_OP_16 : 0);
	in.surface = surface;
	in.type = visa_type(op, flags, wide);
	if (flags & VATOM_VISA_DST)
		in.flag_bits = DRM_VATOM_VISA_OPND_DST;
	in.res_len = ex->size * elem;
	for (i = 0; i < n_addr; i++)
		o[i] = addr[i];
	o[i++] = (struct visa_opnd){ DRM_VATOM_VISA_OPND_SRC0, src0, ex->size * elem };
	o[i++] = (struct visa_opnd){ DRM_VATOM_VISA_OPND_SRC1, src1, ex->size * elem };
	return visa_emit(b, ex, exec_size, &in, o, i);
}

VATOM_API int vatom_prep_dword_atomic(struct vatom_batch *b,
				      const struct vatom_visa_exec *ex,
				      enum vatom_visa_op op, unsigned int flags,
				      unsigned int surface, const uint32_t *offsets,
				      const uint32_t *src0, const uint32_t *src1)
{
	struct visa_opnd addr = { DRM_VATOM_VISA_OPND_ADDR, offsets,
				  ex ? ex->size * 4 : 0 };

	return prep_memory_atomic(b, ex, DRM_VATOM_VISA_DWORD_ATOMIC, op, flags,
				  surface, false, &addr, 1, src0, src1);
}

VATOM_API int vatom_prep_dword_atomic64(struct vatom_batch *b,
					const struct vatom_visa_exec *ex,
					enum vatom_visa_op op, unsigned int flags,
					unsigned int surface, const uint32_t *offsets,
					const uint64_t *src0, const uint64_t *src1)
{
	struct visa_opnd addr = { DRM_VATOM_VISA_OPND_ADDR, offsets,
				  ex ? ex->size * 4 : 0 };

	return prep_memory_atomic(b, ex, DRM_VATOM_VISA_DWORD_ATOMIC, op, flags,
				  surface, true, &addr, 1, src0, src1);
}

VATOM_API int vatom_prep_typed_atomic(struct vatom_batch *b,
				      const struct vatom_visa_exec *ex,
				      enum vatom_visa_op op, unsigned int flags,
				      unsigned int surface, const uint32_t *u,
				      const uint32_t *v, const uint32_t *r,
				      const uint32_t *lod, const uint32_t *src0,
				      const uint32_t *src1)
{
	size_t len = ex ? ex->size * 4 : 0;
	struct visa_opnd addr[4] = {
		{ DRM_VATOM_VISA_OPND_ADDR, u, len },
		{ DRM_VATOM_VISA_OPND_V, v, len },
		{ DRM_VATOM_VISA_OPND_R, r, len },
		{ DRM_VATOM_VISA_OPND_LOD, lod, len },
	};

	return prep_memory_atomic(b, ex, DRM_VATOM_VISA_TYPED_ATOMIC, op, flags,
				  surface, false, addr, 4, src0, src1);
}

VATOM_API int vatom_prep_addc(struct vatom_batch *b,
			      const struct vatom_visa_exec *ex,
			      unsigned int flags, const uint32_t *src0,
			      const uint32_t *src1)
{
	struct visa_insn in = {
		.opcode = DRM_VATOM_VISA_ADDC,
		.type = DRM_VATOM_VISA_TYPE_UD,
		.flag_bits = DRM_VATOM_VISA_OPND_DST,
	};
	struct visa_opnd o[2];
	uint8_t exec_size;

	if (!b || !src0 || !src1 ||
	    (flags & ~(VATOM_ADDC_SRC0_IMM | VATOM_ADDC_SRC1_IMM)) ||
	    exec_size_byte(ex, 32, &exec_size))
		return -EINVAL;
	/*
	 * An immediate is one element in the operand's place, flagged by the
	 * _IMM bit instead of the per-lane bit (exactly one of the two).
	 */
	o[0] = (flags & VATOM_ADDC_SRC0_IMM) ?
	       (struct visa_opnd){ DRM_VATOM_VISA_OPND_SRC0_IMM, src0, 4 } :
	       (struct visa_opnd){ DRM_VATOM_VISA_OPND_SRC0, src0, ex->size * 4 };
	o[1] = (flags & VATOM_ADDC_SRC1_IMM) ?
	       (struct visa_opnd){ DRM_VATOM_VISA_OPND_SRC1_IMM, src1, 4 } :
	       (struct visa_opnd){ DRM_VATOM_VISA_OPND_SRC1, src1, ex->size * 4 };
	in.res_len = ex->size * 4;
	in.carry_len = ex->size * 4;
	return visa_emit(b, ex, exec_size, &in, o, 2);
}

/* ---- PTX ----------------------------------------------------------------- */

VATOM_API int vatom_ptx_access_size(unsigned int type, unsigned int vec)
{
	int elem, size;

	switch (type) {
	case DRM_VATOM_PTX_TYPE_B16:
	case DRM_VATOM_PTX_TYPE_F16:
	case DRM_VATOM_PTX_TYPE_BF16:
		elem = 2;
		break;
	case DRM_VATOM_PTX_TYPE_B32:
	case DRM_VATOM_PTX_TYPE_U32:
	case DRM_VATOM_PTX_TYPE_S32:
	case DRM_VATOM_PTX_TYPE_F32:
	case DRM_VATOM_PTX_TYPE_F16X2:
	case DRM_VATOM_PTX_TYPE_BF16X2:
		elem = 4;
		break;
	case DRM_VATOM_PTX_TYPE_B64:
	case DRM_VATOM_PTX_TYPE_U64:
	case DRM_VATOM_PTX_TYPE_S64:
	case DRM_VATOM_PTX_TYPE_F64:
		elem = 8;
		break;
	case DRM_VATOM_PTX_TYPE_B128:
		elem = 16;
		break;
	default:
		return -EINVAL;
	}
	if (vec != 0 && vec != 2 && vec != 4 && vec != 8)
		return -EINVAL;
	size = vec ? elem * (int)vec : elem;
	return size > 16 ? -EINVAL : size;
}

VATOM_API int vatom_prep_ptx_atom(struct vatom_batch *b,
				  const struct vatom_ptx_atom *a)
{
	struct drm_vatom_ptx *p;
	int size, idx;

	if (!b || !a)
		return -EINVAL;
	size = vatom_ptx_access_size(a->type, a->vec);
	if (size < 0)
		return size;
	idx = vatom__pkt_append(b, DRM_VATOM_PACKET_PTX, sizeof(*p), size, 0,
				(void **)&p);
	if (idx < 0)
		return idx;
	p->op = a->op;
	p->type = a->type;
	p->vec = a->vec;
	p->space = a->space;
	p->sem = a->sem;
	p->scope = a->scope;
	p->slot = a->slot;
	p->flags = a->flags;
	p->addr = a->addr;
	p->cache_policy = a->cache_policy;
	/* union vatom_ptx_value is the UAPI's little-endian layout on LE hosts. */
	memcpy(p->b, &a->b, sizeof(p->b));
	memcpy(p->c, &a->c, sizeof(p->c));
	return idx;
}

/* ---- NoC ----------------------------------------------------------------- */

VATOM_API int vatom_prep_noc(struct vatom_batch *b,
			     const struct vatom_noc_req *req)
{
	struct drm_vatom_noc *p;
	int idx;

	if (!b || !req)
		return -EINVAL;
	idx = vatom__pkt_append(b, DRM_VATOM_PACKET_NOC, sizeof(*p), 0, 0,
				(void **)&p);
	if (idx < 0)
		return idx;
	p->slot = req->slot;
	p->noc = req->noc;
	p->x = req->x;
	p->y = req->y;
	p->targ_addr_lo = req->targ_addr_lo;
	p->targ_addr_mid = req->targ_addr_mid;
	p->targ_addr_hi = req->targ_addr_hi;
	p->ret_addr_lo = req->ret_addr_lo;
	p->ret_addr_mid = req->ret_addr_mid;
	p->ret_addr_hi = req->ret_addr_hi;
	p->packet_tag = req->packet_tag;
	p->ctrl = req->ctrl;
	p->at_len_be = req->at_len_be;
	p->at_data = req->at_data;
	return idx;
}
