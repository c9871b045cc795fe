/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * vISA packets for the host tests: the short names of the UAPI's vISA
 * constants and one packet builder, which test_visa.c (execution) and
 * test_stream.c (validation) both use, so that a packet is laid out the
 * same way in each. Header-only, on the engine's compat types.
 */
#ifndef _VT_VISA_H_
#define _VT_VISA_H_

#include <string.h>

#include "vatom_engine.h"
#include "vt_host.h"

#define OPND(x)	DRM_VATOM_VISA_OPND_##x
#define OP(x)	DRM_VATOM_VISA_OP_##x
#define TY(x)	DRM_VATOM_VISA_TYPE_##x
#define DWORD	DRM_VATOM_VISA_DWORD_ATOMIC
#define TYPED	DRM_VATOM_VISA_TYPED_ATOMIC
#define ADDC	DRM_VATOM_VISA_ADDC
#define OP16	DRM_VATOM_VISA_OP_16
#define PRED	DRM_VATOM_VISA_PREDICATED
/* Exec_size byte: size code c, mask control m (0..7 = M1..M8), NoMask. */
#define EX(c, m)	((u8)((c) | ((m) << 4)))
#define EXNM(c, m)	((u8)((c) | (((m) | 8) << 4)))

/* The fields of one vISA packet; arrays hold at least n elements. */
struct pk {
	u8 opcode, op, exec, surface, type;
	u32 operands, emask, pred, flags;
	const u32 *addr, *v, *r, *lod;
	const void *src0, *src1;
};

/*
 * Append @k to @buf at *@pos as a packet, each operand array its
 * @operands bit names 8-byte aligned and zero padded; an array @k leaves
 * NULL comes from @dflt (NULL: none may be left out).
 * Return: the packet's size, which *@pos moves past.
 */
static inline u32 vt_visa_put(u8 *buf, u32 *pos, const struct pk *k,
			      const struct pk *dflt)
{
	u32 n = 1u << (k->exec & 7);
	u32 esz = (k->type == TY(UQ) || k->type == TY(Q)) ? 8 : 4;
	struct drm_vatom_visa h;
	u8 *p = buf + *pos;
	u32 at = sizeof(h);

	memset(&h, 0, sizeof(h));
	h.hdr.type = DRM_VATOM_PACKET_VISA;
	h.opcode = k->opcode;
	h.op = k->op;
	h.exec_size = k->exec;
	h.surface = k->surface;
	h.type = k->type;
	h.operands = k->operands;
	h.emask = k->emask;
	h.pred = k->pred;
	h.flags = k->flags;
#define ARR(bits, field, bytes) do {					\
	if (k->operands & (bits)) {					\
		const void *from = k->field ? (const void *)k->field :	\
			     dflt ? (const void *)dflt->field : NULL;	\
									\
		memset(p + at, 0, (u32)vt_align8(bytes));		\
		memcpy(p + at, from, (bytes));				\
		at += (u32)vt_align8(bytes);				\
	}								\
} while (0)
	ARR(OPND(ADDR), addr, 4 * n);
	ARR(OPND(V), v, 4 * n);
	ARR(OPND(R), r, 4 * n);
	ARR(OPND(LOD), lod, 4 * n);
	ARR(OPND(SRC0) | OPND(SRC0_IMM), src0,
	    (k->operands & OPND(SRC0_IMM)) ? esz : esz * n);
	ARR(OPND(SRC1) | OPND(SRC1_IMM), src1,
	    (k->operands & OPND(SRC1_IMM)) ? esz : esz * n);
#undef ARR
	h.hdr.size = at;
	memcpy(p, &h, sizeof(h));
	*pos += at;
	return at;
}

#endif /* _VT_VISA_H_ */
