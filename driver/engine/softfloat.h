/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Integer soft-float for the engine (the kernel has no FPU): IEEE 754
 * binary16 (f16), bfloat16 (bf16), binary32 (f32) and binary64 (f64), values
 * passed as their bit patterns.
 *
 * Rules shared by every function (docs/semantics.md has the why):
 * - add rounds to nearest, ties to even; overflow gives +-inf.
 * - any NaN result is the canonical NaN of the format (VATOM_*_NAN).
 * - with @ftz, subnormal inputs are replaced by a zero of the same sign and
 *   a result that is subnormal after rounding becomes a zero of its sign.
 * - min/max follow IEEE 754-2019 minimumNumber/maximumNumber: -0 < +0, a
 *   NaN operand is ignored, two NaNs give the canonical NaN.
 * - eq is IEEE equality: NaN != anything, -0 == +0.
 */
#ifndef _VATOM_SOFTFLOAT_H_
#define _VATOM_SOFTFLOAT_H_

#include "softfloat_core.h"

#define VATOM_F16_NAN	((u16)0x7fff)
#define VATOM_BF16_NAN	((u16)0x7fff)
#define VATOM_F32_NAN	((u32)0x7fffffff)
#define VATOM_F64_NAN	((u64)0x7fffffffffffffffull)

u16 vatom_f16_add(u16 a, u16 b, bool ftz);
u16 vatom_bf16_add(u16 a, u16 b, bool ftz);
u32 vatom_f32_add(u32 a, u32 b, bool ftz);
u32 vatom_f32_add_slow(u32 a, u32 b, bool ftz);
u64 vatom_f64_add(u64 a, u64 b);

u16 vatom_f16_min(u16 a, u16 b);
u16 vatom_f16_max(u16 a, u16 b);
u16 vatom_bf16_min(u16 a, u16 b);
u16 vatom_bf16_max(u16 a, u16 b);
u32 vatom_f32_min(u32 a, u32 b);
u32 vatom_f32_max(u32 a, u32 b);

bool vatom_f16_eq(u16 a, u16 b);
bool vatom_f32_eq(u32 a, u32 b);

/**
 * vatom_f32_add_inline() - vatom_f32_add() with its common case inlined
 * @a: first operand, bit pattern
 * @b: second operand, bit pattern
 * @ftz: flush subnormal inputs and subnormal results to signed zero
 *
 * For the CAS loops of f32 atomic adds: normal operands with a normal sum
 * (what an accumulation lives in) are added here, in the caller, with no
 * call; everything else goes to vatom_f32_add_slow(). This is the
 * sf_add() steps of softfloat.c written out for binary32, in 32-bit
 * operations where they suffice.
 *
 * Return: the bit pattern of a + b, rounded to nearest even.
 */
static __always_inline u32 vatom_f32_add_inline(u32 a, u32 b, bool ftz)
{
	u32 ma = a & 0x7fffffff, mb = b & 0x7fffffff;
	u32 swap = -(u32)(ma < mb);
	u32 t = (a ^ b) & swap;
	u32 big = a ^ t, sml = b ^ t;
	u32 mbig = big & 0x7fffffff, msml = sml & 0x7fffffff;
	u32 eb, d, k;
	u64 sigb, sigs, sig, neg;
	s32 exp;

	if (__builtin_expect(msml < 0x00800000 || mbig >= 0x7f800000, 0))
		return vatom_f32_add_slow(a, b, ftz);
	eb = mbig >> 23;
	d = eb - (msml >> 23);
	if (__builtin_expect(d > 63, 0))
		return vatom_f32_add_slow(a, b, ftz);
	/* Hidden bit at bit 31, then at SF_HIDDEN: 38 guard bits. */
	sigb = (u64)((big << 8) | 0x80000000u) << (SF_HIDDEN - 31);
	sigs = ((u64)((sml << 8) | 0x80000000u) << (SF_HIDDEN - 31)) >> d;
	neg = -(u64)((a ^ b) >> 31);
	sig = sigb + ((sigs ^ neg) - neg);
	if (__builtin_expect(sig == 0, 0))
		return 0;
	k = SF_TOP - (63 ^ (u32)__builtin_clzll(sig));
	exp = (s32)eb + 1 - (s32)k;
	if (__builtin_expect(exp < 1, 0))
		return vatom_f32_add_slow(a, b, ftz);
	return (u32)sf_round_pack(big & 0x80000000u, exp, sig << k, false,
				  8, 23);
}

#endif /* _VATOM_SOFTFLOAT_H_ */
