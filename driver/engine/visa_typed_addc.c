// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Intel vISA TYPED_ATOMIC and ADDC execution: these two opcodes run a
 * packet at a time, lane by lane over ChEn, as vatom_visa_execute()
 * (visa_dword.c) decodes it.
 *
 * Copyright (C) 2026 The vatom developers
 */
#include "vatom_engine.h"
#include "typed.h"
#include "visa_internal.h"
#include "visa_rmw.h"

/*
 * TYPED_ATOMIC: each lane addresses texel (U, V, R) of level LOD; a
 * coordinate outside its extent at that level, or a level that does not
 * exist, is an out-of-bounds access. The .16 form works on the low half of
 * the 32-bit texel.
 */
u64 visa_typed(const struct visa_pkt *d, const struct vatom_surface_view *s,
	       u8 *res)
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
u64 visa_addc(const struct visa_pkt *d, u8 *res)
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
