/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Soft-float internals shared by softfloat.c and the inline binary32 adder
 * of softfloat.h: the significand layout and the round-and-pack step. Not
 * an interface: include softfloat.h.
 */
#ifndef _VATOM_SOFTFLOAT_CORE_H_
#define _VATOM_SOFTFLOAT_CORE_H_

#include "vatom_compat.h"

/*
 * Hidden bit of an aligned operand significand (softfloat.c explains), and where the
 * leading bit of a sum is put before rounding: one higher, so that a carry
 * needs no shift and keeps every bit.
 */
#define SF_HIDDEN	61
#define SF_TOP		62

/* Masks of a format @e exponent bits and @f fraction bits wide. */
#define SF_SIGN(e, f)	(1ull << ((e) + (f)))
#define SF_MAG(e, f)	(SF_SIGN(e, f) - 1)
#define SF_INF(e, f)	(((1ull << (e)) - 1) << (f))
#define SF_FRAC(f)	((1ull << (f)) - 1)

/*
 * Round to nearest, ties to even, and pack. @sign is the sign bit in place,
 * @exp the biased exponent (>= 1) that goes with a significand whose leading
 * bit is at SF_TOP. A subnormal result arrives with @exp == 1 and its leading
 * bit lower, and packs to exponent field 0 because the exponent field is
 * formed by adding the rounded significand (leading bit included) to
 * (@exp - 1) << F. The same addition carries into the exponent when rounding
 * overflows the significand (1.11..1 -> 10.0), makes a subnormal the minimum
 * normal, or rounds the largest finite binade up to exactly the infinity
 * pattern, so only an @exp that is already too large needs a test. With
 * @ftz, a result that is subnormal after rounding becomes a zero of its sign.
 */
static __always_inline u64 sf_round_pack(u64 sign, s32 exp, u64 sig, bool ftz,
					 const u32 e, const u32 f)
{
	const u32 shift = SF_TOP - f;
	u64 mag;

	if (__builtin_expect(exp >= (s32)(1u << e) - 1, 0))
		return sign | SF_INF(e, f);
	/* + half - 1, + 1 more when the kept lsb is odd: ties go to even. */
	sig = (sig + (1ull << (shift - 1)) - 1 + ((sig >> shift) & 1)) >> shift;
	if (ftz) {
		mag = ((u64)(exp - 1) << f) + sig;
		return mag < (1ull << f) ? sign : sign | mag;
	}
	return (sign | ((u64)(exp - 1) << f)) + sig;
}

#endif /* _VATOM_SOFTFLOAT_CORE_H_ */
