// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Host tests of the engine's integer soft-float (driver/engine/softfloat.c).
 *
 * Part (a): hand tables over edge values, every expected bit pattern written
 * from IEEE 754 reasoning (the comments give it where it is not obvious).
 *
 * Part (b): a differential test of every function against the host FPU over
 * random operand pairs biased towards the interesting cases. References:
 * - f16: both operands widened to double, added there (exact: a sum of two
 *   binary16 values needs at most 40 significant bits), then converted once
 *   to _Float16 by libgcc, a single correct rounding.
 * - bf16: widened to double and added; the sum is then rounded to bfloat16 by
 *   ref_bf16_from_double() below, written for this test. A bf16 sum is not
 *   always exact in double, but double rounding to p = 8 bits through
 *   p' = 53 >= 2p + 2 bits is innocuous for addition (Figueroa, 1995).
 * - f32: float addition (SSE, round to nearest even, no FTZ/DAZ).
 * - f64: double addition.
 * - ftz: inputs flushed by hand before the host add, result flushed by hand.
 * - min/max/eq: host comparisons plus explicit NaN and signed-zero rules.
 * A NaN result must be the canonical NaN of the format.
 */
#include <math.h>
#include <string.h>
#include <time.h>

#include "softfloat.h"
#include "vt_host.h"
#include "vt_test.h"

#ifdef VT_SANITIZED
#define DIFF_PAIRS	100000ull
#else
#define DIFF_PAIRS	10000000ull
#endif
#define DIFF_SEED	0x5eedf10a7c0ffeeull

/* ---------------------------------------------------------------------- */
/* (a) hand tables                                                        */
/* ---------------------------------------------------------------------- */

struct add16 {
	u16 a, b;
	u16 want, want_ftz;
};

struct add32 {
	u32 a, b;
	u32 want, want_ftz;
};

struct add64 {
	u64 a, b, want;
};

/*
 * binary16: bias 15, 10 fraction bits. 0x3c00 = 1, 0x4000 = 2, 0x7bff =
 * 65504 (max), 0x0400 = 2^-14 (min normal), 0x03ff = max subnormal, 0x0001 =
 * 2^-24 (min subnormal), 0x7c00 = inf, 0x7e00 = qNaN, 0x7c01 = sNaN.
 */
static const struct add16 f16_add_tab[] = {
	{ 0x0000, 0x0000, 0x0000, 0x0000 },
	/* exact zero sum of opposite signs is +0 in RNE */
	{ 0x0000, 0x8000, 0x0000, 0x0000 },
	{ 0x8000, 0x0000, 0x0000, 0x0000 },
	{ 0x8000, 0x8000, 0x8000, 0x8000 },	/* (-0) + (-0) = -0 */
	{ 0x3c00, 0x3c00, 0x4000, 0x4000 },	/* 1 + 1 = 2 */
	{ 0x3c00, 0xbc00, 0x0000, 0x0000 },	/* 1 - 1 = +0 */
	{ 0xbc00, 0x3c00, 0x0000, 0x0000 },
	{ 0xbc00, 0xbc00, 0xc000, 0xc000 },
	{ 0x3c00, 0x8000, 0x3c00, 0x3c00 },	/* x + -0 = x */
	{ 0x8000, 0xbc00, 0xbc00, 0xbc00 },
	{ 0x7bff, 0x7bff, 0x7c00, 0x7c00 },	/* max + max overflows */
	{ 0xfbff, 0xfbff, 0xfc00, 0xfc00 },
	{ 0x7bff, 0xfbff, 0x0000, 0x0000 },
	/*
	 * 65504 + 16 = 65520: half an ulp (32) above max, a tie between
	 * 0x7bff (odd) and 2^16 (even, not representable) -> +inf.
	 */
	{ 0x7bff, 0x4c00, 0x7c00, 0x7c00 },
	/* 65504 + 15 (0x4b80) = 65519 is below the tie: stays max */
	{ 0x7bff, 0x4b80, 0x7bff, 0x7bff },
	{ 0x7c00, 0x3c00, 0x7c00, 0x7c00 },	/* inf + 1 */
	{ 0x7c00, 0x7bff, 0x7c00, 0x7c00 },
	{ 0x7c00, 0x7c00, 0x7c00, 0x7c00 },
	{ 0xfc00, 0xfc00, 0xfc00, 0xfc00 },
	{ 0x7c00, 0xfc00, 0x7fff, 0x7fff },	/* inf - inf = NaN */
	{ 0xfc00, 0x7c00, 0x7fff, 0x7fff },
	{ 0x7c00, 0x0001, 0x7c00, 0x7c00 },	/* inf + subnormal */
	{ 0x7e00, 0x3c00, 0x7fff, 0x7fff },	/* qNaN -> canonical */
	{ 0x3c00, 0x7c01, 0x7fff, 0x7fff },	/* sNaN -> canonical */
	{ 0x7c01, 0x7c00, 0x7fff, 0x7fff },
	{ 0xfe00, 0x0000, 0x7fff, 0x7fff },	/* negative NaN -> +NaN */
	{ 0x7e00, 0xfc00, 0x7fff, 0x7fff },
	{ 0x7fff, 0x7fff, 0x7fff, 0x7fff },
	{ 0x0001, 0x7d00, 0x7fff, 0x7fff },
	/* 1 + 2^-11 (0x1000): tie between 1 (even) and 1+2^-10 -> 1 */
	{ 0x3c00, 0x1000, 0x3c00, 0x3c00 },
	/* (1+2^-10) + 2^-11: tie between 0x3c01 (odd), 0x3c02 -> 0x3c02 */
	{ 0x3c01, 0x1000, 0x3c02, 0x3c02 },
	/* 1 + 2^-11(1+2^-10): just above the tie -> 0x3c01 */
	{ 0x3c00, 0x1001, 0x3c01, 0x3c01 },
	/* 1 - 2^-12: tie between 1-2^-11 (0x3bff, odd) and 1 -> 1 */
	{ 0x3c00, 0x8c00, 0x3c00, 0x3c00 },
	/* 1 - 2^-11 is exact: 0x3bff */
	{ 0x3c00, 0x9000, 0x3bff, 0x3bff },
	/* 1 - 2^-12(1+2^-10): just below that tie -> 0x3bff */
	{ 0x3c00, 0x8c01, 0x3bff, 0x3bff },
	/* (1-2^-11) + 2^-12 = 1-2^-12, same tie -> 1: rounding carries
	 * out of the significand into the exponent */
	{ 0x3bff, 0x0c00, 0x3c00, 0x3c00 },
	/* (2-2^-10) + 2^-11: tie between 0x3fff (odd) and 2 -> 2 */
	{ 0x3fff, 0x1000, 0x4000, 0x4000 },
	/* 2048 + 1: spacing 2, tie between 2048 (even) and 2050 -> 2048 */
	{ 0x6800, 0x3c00, 0x6800, 0x6800 },
	/* 2050 + 1: tie between 2050 (odd) and 2052 -> 2052 */
	{ 0x6801, 0x3c00, 0x6802, 0x6802 },
	/* 2048 + (1+2^-10): above the tie -> 2050 */
	{ 0x6800, 0x3c01, 0x6801, 0x6801 },
	/* cancellation: (1+2^-10) - 1 = 2^-10 = 0x1400, exact */
	{ 0x3c01, 0xbc00, 0x1400, 0x1400 },
	/* 1.5 - 1.25 = 0.25 */
	{ 0x3e00, 0xbd00, 0x3400, 0x3400 },
	/* 1 + 2^-24: far below half an ulp -> 1; also 1 - 2^-24 -> 1 */
	{ 0x3c00, 0x0001, 0x3c00, 0x3c00 },
	{ 0x3c00, 0x8001, 0x3c00, 0x3c00 },
	{ 0x7bff, 0x0001, 0x7bff, 0x7bff },
	/* subnormals: exact; with ftz the inputs are signed zeros */
	{ 0x0001, 0x0001, 0x0002, 0x0000 },
	{ 0x8001, 0x8001, 0x8002, 0x8000 },	/* ftz: (-0)+(-0) = -0 */
	{ 0x8001, 0x0001, 0x0000, 0x0000 },	/* ftz: (-0)+(+0) = +0 */
	{ 0x8001, 0x8000, 0x8001, 0x8000 },
	{ 0x0001, 0x8000, 0x0001, 0x0000 },
	/* max subnormal + min subnormal = min normal (0 with ftz inputs) */
	{ 0x03ff, 0x0001, 0x0400, 0x0000 },
	/* 2 * 1023 * 2^-24 = 2046 * 2^-24 = 2^-14 * (1 + 1022/1024) */
	{ 0x03ff, 0x03ff, 0x07fe, 0x0000 },
	/* min normal - min subnormal = max subnormal; ftz flushes the
	 * input 0x8001 to -0, so the result is min normal */
	{ 0x0400, 0x8001, 0x03ff, 0x0400 },
	/* normal - normal = subnormal 2^-24: ftz flushes the result to a
	 * zero of its sign */
	{ 0x0401, 0x8400, 0x0001, 0x0000 },
	{ 0x8401, 0x0400, 0x8001, 0x8000 },
	/* 2^-13 - 2^-14(1+2^-10) = 2^-14 - 2^-24: subnormal 0x03ff */
	{ 0x0800, 0x8401, 0x03ff, 0x0000 },
	/* 2^-14 + 2^-14 = 2^-13 */
	{ 0x0400, 0x0400, 0x0800, 0x0800 },
	{ 0x0400, 0x8400, 0x0000, 0x0000 },
	{ 0x8400, 0x8000, 0x8400, 0x8400 },
};

/*
 * bfloat16: bias 127, 7 fraction bits. 0x3f80 = 1, 0x7f7f = max, 0x0080 =
 * 2^-126 (min normal), 0x007f = max subnormal, 0x0001 = 2^-133, 0x7f80 = inf,
 * 0x7fc0 = qNaN, 0x7f81 = sNaN.
 */
static const struct add16 bf16_add_tab[] = {
	{ 0x0000, 0x8000, 0x0000, 0x0000 },
	{ 0x8000, 0x8000, 0x8000, 0x8000 },
	{ 0x3f80, 0x3f80, 0x4000, 0x4000 },	/* 1 + 1 = 2 */
	{ 0x3f80, 0xbf80, 0x0000, 0x0000 },
	{ 0xbf80, 0xbf80, 0xc000, 0xc000 },
	{ 0x7f7f, 0x7f7f, 0x7f80, 0x7f80 },	/* overflow */
	{ 0xff7f, 0xff7f, 0xff80, 0xff80 },
	/* max + 2^119 (0x7b00, half an ulp of max): tie, even is 2^128
	 * -> +inf */
	{ 0x7f7f, 0x7b00, 0x7f80, 0x7f80 },
	/* max + 2^118(2 - 2^-7) (0x7aff) is just below the tie */
	{ 0x7f7f, 0x7aff, 0x7f7f, 0x7f7f },
	{ 0x7f80, 0xff80, 0x7fff, 0x7fff },
	{ 0xff80, 0x3f80, 0xff80, 0xff80 },
	{ 0x7fc0, 0x3f80, 0x7fff, 0x7fff },
	{ 0x3f80, 0x7f81, 0x7fff, 0x7fff },
	{ 0xffc0, 0xff80, 0x7fff, 0x7fff },
	/* 1 + 2^-8 (0x3b80): tie between 1 (even) and 1+2^-7 -> 1 */
	{ 0x3f80, 0x3b80, 0x3f80, 0x3f80 },
	/* (1+2^-7) + 2^-8: tie, 0x3f81 odd -> 0x3f82 */
	{ 0x3f81, 0x3b80, 0x3f82, 0x3f82 },
	{ 0x3f80, 0x3b81, 0x3f81, 0x3f81 },	/* above the tie */
	/* 1 - 2^-9 (0xbb00): tie between 0x3f7f (odd) and 1 -> 1 */
	{ 0x3f80, 0xbb00, 0x3f80, 0x3f80 },
	/* 256 + 1: spacing 2, tie -> 256 (0x4380); 258 + 1 -> 260 */
	{ 0x4380, 0x3f80, 0x4380, 0x4380 },
	{ 0x4381, 0x3f80, 0x4382, 0x4382 },
	/* (1+2^-7) - 1 = 2^-7 = 0x3c00 */
	{ 0x3f81, 0xbf80, 0x3c00, 0x3c00 },
	{ 0x0001, 0x0001, 0x0002, 0x0000 },
	{ 0x8001, 0x8001, 0x8002, 0x8000 },
	{ 0x8001, 0x0000, 0x8001, 0x0000 },	/* ftz: (-0)+(+0) = +0 */
	{ 0x007f, 0x0001, 0x0080, 0x0000 },
	{ 0x0080, 0x8001, 0x007f, 0x0080 },
	/* 2^-126(1+2^-7) - 2^-126 = 2^-133: subnormal, ftz -> +0 */
	{ 0x0081, 0x8080, 0x0001, 0x0000 },
	{ 0x8081, 0x0080, 0x8001, 0x8000 },
	{ 0x3f80, 0x0001, 0x3f80, 0x3f80 },
	{ 0x7f80, 0x8001, 0x7f80, 0x7f80 },
};

/*
 * binary32: 0x3f800000 = 1, 0x7f7fffff = max, 0x00800000 = 2^-126,
 * 0x007fffff = max subnormal, 0x00000001 = 2^-149.
 */
static const struct add32 f32_add_tab[] = {
	{ 0x00000000, 0x80000000, 0x00000000, 0x00000000 },
	{ 0x80000000, 0x00000000, 0x00000000, 0x00000000 },
	{ 0x80000000, 0x80000000, 0x80000000, 0x80000000 },
	{ 0x3f800000, 0x3f800000, 0x40000000, 0x40000000 },
	{ 0x3f800000, 0xbf800000, 0x00000000, 0x00000000 },
	{ 0xbf800000, 0x3f800000, 0x00000000, 0x00000000 },
	{ 0xbf800000, 0x00000000, 0xbf800000, 0xbf800000 },
	{ 0x7f7fffff, 0x7f7fffff, 0x7f800000, 0x7f800000 },
	{ 0xff7fffff, 0xff7fffff, 0xff800000, 0xff800000 },
	{ 0x7f7fffff, 0xff7fffff, 0x00000000, 0x00000000 },
	/* max + 2^103 (0x73000000, half an ulp): tie -> +inf */
	{ 0x7f7fffff, 0x73000000, 0x7f800000, 0x7f800000 },
	/* max + 2^102(2 - 2^-23) (0x72ffffff): below the tie -> max */
	{ 0x7f7fffff, 0x72ffffff, 0x7f7fffff, 0x7f7fffff },
	{ 0x7f800000, 0xff800000, 0x7fffffff, 0x7fffffff },
	{ 0xff800000, 0x3f800000, 0xff800000, 0xff800000 },
	{ 0x7f800000, 0x00000001, 0x7f800000, 0x7f800000 },
	{ 0xffc00000, 0x3f800000, 0x7fffffff, 0x7fffffff },
	{ 0x7f800001, 0x7f800001, 0x7fffffff, 0x7fffffff },
	{ 0x3f800000, 0x7fa00000, 0x7fffffff, 0x7fffffff },
	{ 0x7fffffff, 0xff800000, 0x7fffffff, 0x7fffffff },
	/* 1 + 2^-24 (0x33800000): tie -> 1 (even) */
	{ 0x3f800000, 0x33800000, 0x3f800000, 0x3f800000 },
	/* (1+2^-23) + 2^-24: tie, odd -> 0x3f800002 */
	{ 0x3f800001, 0x33800000, 0x3f800002, 0x3f800002 },
	/* 1 + 2^-24(1+2^-23): above the tie -> 0x3f800001 */
	{ 0x3f800000, 0x33800001, 0x3f800001, 0x3f800001 },
	/* 1 - 2^-25 (0xb3000000): tie between 0x3f7fffff (odd) and 1 */
	{ 0x3f800000, 0xb3000000, 0x3f800000, 0x3f800000 },
	/* 1 - 2^-25(1+2^-23): the sticky bit puts it below the tie */
	{ 0x3f800000, 0xb3000001, 0x3f7fffff, 0x3f7fffff },
	/* 1 - 2^-24 is exact */
	{ 0x3f800000, 0xb3800000, 0x3f7fffff, 0x3f7fffff },
	/* 1 - 2^-60 (0xa1800000): far below, rounds back to 1 */
	{ 0x3f800000, 0xa1800000, 0x3f800000, 0x3f800000 },
	/* 2^24 + 1: spacing 2, tie -> 2^24; (2^24+2) + 1 -> 2^24+4 */
	{ 0x4b800000, 0x3f800000, 0x4b800000, 0x4b800000 },
	{ 0x4b800001, 0x3f800000, 0x4b800002, 0x4b800002 },
	/* (2-2^-23) + 2^-24: tie, carries into the exponent -> 2 */
	{ 0x3fffffff, 0x33800000, 0x40000000, 0x40000000 },
	/* (1+2^-23) - 1 = 2^-23 (0x34000000): cancellation, exact */
	{ 0x3f800001, 0xbf800000, 0x34000000, 0x34000000 },
	/* 1.5 - 1.25 = 0.25 */
	{ 0x3fc00000, 0xbfa00000, 0x3e800000, 0x3e800000 },
	/* subnormals */
	{ 0x00000001, 0x00000001, 0x00000002, 0x00000000 },
	{ 0x80000001, 0x80000001, 0x80000002, 0x80000000 },
	{ 0x80000001, 0x00000001, 0x00000000, 0x00000000 },
	{ 0x007fffff, 0x00000001, 0x00800000, 0x00000000 },
	{ 0x007fffff, 0x007fffff, 0x00fffffe, 0x00000000 },
	{ 0x00800000, 0x80000001, 0x007fffff, 0x00800000 },
	/* normal - normal = 2^-149: ftz flushes it to a zero of its sign */
	{ 0x00800001, 0x80800000, 0x00000001, 0x00000000 },
	{ 0x80800001, 0x00800000, 0x80000001, 0x80000000 },
	/* 2^-125 - 2^-126(1+2^-23) = 2^-126 - 2^-149: max subnormal */
	{ 0x01000000, 0x80800001, 0x007fffff, 0x00000000 },
	{ 0x00800000, 0x00800000, 0x01000000, 0x01000000 },
	{ 0x3f800000, 0x00000001, 0x3f800000, 0x3f800000 },
	{ 0x7f7fffff, 0x80000001, 0x7f7fffff, 0x7f7fffff },
};

/* binary64: 0x3ff0000000000000 = 1, bias 1023, 52 fraction bits. */
static const struct add64 f64_add_tab[] = {
	{ 0x0000000000000000, 0x8000000000000000, 0x0000000000000000 },
	{ 0x8000000000000000, 0x8000000000000000, 0x8000000000000000 },
	{ 0x3ff0000000000000, 0x3ff0000000000000, 0x4000000000000000 },
	{ 0x3ff0000000000000, 0xbff0000000000000, 0x0000000000000000 },
	{ 0x7fefffffffffffff, 0x7fefffffffffffff, 0x7ff0000000000000 },
	{ 0xffefffffffffffff, 0xffefffffffffffff, 0xfff0000000000000 },
	/* max + 2^970 (half an ulp): tie -> +inf; a bit less -> max */
	{ 0x7fefffffffffffff, 0x7c90000000000000, 0x7ff0000000000000 },
	{ 0x7fefffffffffffff, 0x7c8fffffffffffff, 0x7fefffffffffffff },
	{ 0x7ff0000000000000, 0xfff0000000000000, 0x7fffffffffffffff },
	{ 0xfff0000000000000, 0x7fefffffffffffff, 0xfff0000000000000 },
	{ 0x7ff8000000000000, 0x3ff0000000000000, 0x7fffffffffffffff },
	{ 0x3ff0000000000000, 0x7ff0000000000001, 0x7fffffffffffffff },
	{ 0xfff8000000000000, 0x7ff0000000000000, 0x7fffffffffffffff },
	/* 1 + 2^-53: tie -> 1; (1+2^-52) + 2^-53 -> 1+2^-51 */
	{ 0x3ff0000000000000, 0x3ca0000000000000, 0x3ff0000000000000 },
	{ 0x3ff0000000000001, 0x3ca0000000000000, 0x3ff0000000000002 },
	{ 0x3ff0000000000000, 0x3ca0000000000001, 0x3ff0000000000001 },
	/* 1 - 2^-54: tie -> 1; 1 - 2^-54(1+2^-52): below -> 1-2^-53 */
	{ 0x3ff0000000000000, 0xbc90000000000000, 0x3ff0000000000000 },
	{ 0x3ff0000000000000, 0xbc90000000000001, 0x3fefffffffffffff },
	/* 2^53 + 1: tie -> 2^53; (2^53+2) + 1 -> 2^53+4 */
	{ 0x4340000000000000, 0x3ff0000000000000, 0x4340000000000000 },
	{ 0x4340000000000001, 0x3ff0000000000000, 0x4340000000000002 },
	/*
	 * (2-2^-52) + 2^-51(1+2^-52) = 2 + 2^-52 + 2^-103: the carry out
	 * of the significand must keep the 2^-103 sticky bit, which lifts
	 * the sum above the tie 2 + 2^-52 -> 2 + 2^-51. Without it, the
	 * exact tie rounds to even: 2.
	 */
	{ 0x3fffffffffffffff, 0x3cc0000000000001, 0x4000000000000001 },
	{ 0x3fffffffffffffff, 0x3cc0000000000000, 0x4000000000000000 },
	/* (1+2^-52) - 1 = 2^-52 */
	{ 0x3ff0000000000001, 0xbff0000000000000, 0x3cb0000000000000 },
	/* subnormals are kept */
	{ 0x0000000000000001, 0x0000000000000001, 0x0000000000000002 },
	{ 0x000fffffffffffff, 0x0000000000000001, 0x0010000000000000 },
	{ 0x0010000000000001, 0x8010000000000000, 0x0000000000000001 },
	{ 0x8010000000000001, 0x0010000000000000, 0x8000000000000001 },
	{ 0x0010000000000000, 0x8000000000000001, 0x000fffffffffffff },
	{ 0x7fefffffffffffff, 0x0000000000000001, 0x7fefffffffffffff },
	{ 0x8000000000000001, 0x7fefffffffffffff, 0x7fefffffffffffff },
};

static void test_f16_add_table(void)
{
	size_t i;

	for (i = 0; i < sizeof(f16_add_tab) / sizeof(f16_add_tab[0]); i++) {
		const struct add16 *t = &f16_add_tab[i];

		VT_EXPECT_EQ_MSG(vatom_f16_add(t->a, t->b, false), t->want,
				 "0x%04x + 0x%04x", t->a, t->b);
		VT_EXPECT_EQ_MSG(vatom_f16_add(t->a, t->b, true), t->want_ftz,
				 "0x%04x + 0x%04x ftz", t->a, t->b);
		/* Addition commutes, NaN, zero signs and all. */
		VT_EXPECT_EQ_MSG(vatom_f16_add(t->b, t->a, false), t->want,
				 "0x%04x + 0x%04x", t->b, t->a);
		VT_EXPECT_EQ_MSG(vatom_f16_add(t->b, t->a, true), t->want_ftz,
				 "0x%04x + 0x%04x ftz", t->b, t->a);
	}
}

static void test_bf16_add_table(void)
{
	size_t i;

	for (i = 0; i < sizeof(bf16_add_tab) / sizeof(bf16_add_tab[0]); i++) {
		const struct add16 *t = &bf16_add_tab[i];

		VT_EXPECT_EQ_MSG(vatom_bf16_add(t->a, t->b, false), t->want,
				 "0x%04x + 0x%04x", t->a, t->b);
		VT_EXPECT_EQ_MSG(vatom_bf16_add(t->a, t->b, true), t->want_ftz,
				 "0x%04x + 0x%04x ftz", t->a, t->b);
		VT_EXPECT_EQ_MSG(vatom_bf16_add(t->b, t->a, false), t->want,
				 "0x%04x + 0x%04x", t->b, t->a);
		VT_EXPECT_EQ_MSG(vatom_bf16_add(t->b, t->a, true), t->want_ftz,
				 "0x%04x + 0x%04x ftz", t->b, t->a);
	}
}

static void test_f32_add_table(void)
{
	size_t i;

	for (i = 0; i < sizeof(f32_add_tab) / sizeof(f32_add_tab[0]); i++) {
		const struct add32 *t = &f32_add_tab[i];

		VT_EXPECT_EQ_MSG(vatom_f32_add(t->a, t->b, false), t->want,
				 "0x%08x + 0x%08x", t->a, t->b);
		VT_EXPECT_EQ_MSG(vatom_f32_add(t->a, t->b, true), t->want_ftz,
				 "0x%08x + 0x%08x ftz", t->a, t->b);
		VT_EXPECT_EQ_MSG(vatom_f32_add(t->b, t->a, false), t->want,
				 "0x%08x + 0x%08x", t->b, t->a);
		VT_EXPECT_EQ_MSG(vatom_f32_add(t->b, t->a, true), t->want_ftz,
				 "0x%08x + 0x%08x ftz", t->b, t->a);
	}
}

static void test_f64_add_table(void)
{
	size_t i;

	for (i = 0; i < sizeof(f64_add_tab) / sizeof(f64_add_tab[0]); i++) {
		const struct add64 *t = &f64_add_tab[i];

		VT_EXPECT_EQ_MSG(vatom_f64_add(t->a, t->b), t->want,
				 "0x%016llx + 0x%016llx",
				 (unsigned long long)t->a,
				 (unsigned long long)t->b);
		VT_EXPECT_EQ_MSG(vatom_f64_add(t->b, t->a), t->want,
				 "0x%016llx + 0x%016llx",
				 (unsigned long long)t->b,
				 (unsigned long long)t->a);
	}
}

/* min and max expected for (a, b); both must also hold for (b, a). */
struct mm16 {
	u16 a, b, min, max;
};

struct mm32 {
	u32 a, b, min, max;
};

static const struct mm16 f16_mm_tab[] = {
	{ 0x3c00, 0x4000, 0x3c00, 0x4000 },	/* 1, 2 */
	{ 0xbc00, 0x3c00, 0xbc00, 0x3c00 },	/* -1, 1 */
	{ 0xbc00, 0xc000, 0xc000, 0xbc00 },	/* -1, -2 */
	{ 0x0000, 0x8000, 0x8000, 0x0000 },	/* -0 < +0 */
	{ 0x8000, 0x8000, 0x8000, 0x8000 },
	{ 0x0000, 0x0000, 0x0000, 0x0000 },
	{ 0x3c00, 0x3c00, 0x3c00, 0x3c00 },
	/* subnormals are compared, never flushed */
	{ 0x0001, 0x8001, 0x8001, 0x0001 },
	{ 0x0001, 0x0000, 0x0000, 0x0001 },
	{ 0x8000, 0x0001, 0x8000, 0x0001 },
	{ 0x8001, 0x8000, 0x8001, 0x8000 },
	{ 0x03ff, 0x0400, 0x03ff, 0x0400 },
	{ 0xfc00, 0xfbff, 0xfc00, 0xfbff },	/* -inf, -max */
	{ 0x7c00, 0x7bff, 0x7bff, 0x7c00 },
	{ 0x7c00, 0xfc00, 0xfc00, 0x7c00 },
	/* one NaN (quiet or signalling, any sign) is ignored */
	{ 0x7e00, 0x3c00, 0x3c00, 0x3c00 },
	{ 0x7c01, 0xbc00, 0xbc00, 0xbc00 },
	{ 0xfe00, 0xfc00, 0xfc00, 0xfc00 },
	{ 0x7fff, 0x8000, 0x8000, 0x8000 },
	{ 0x7e00, 0x7c00, 0x7c00, 0x7c00 },
	/* two NaNs: canonical NaN */
	{ 0x7e00, 0x7e00, 0x7fff, 0x7fff },
	{ 0x7c01, 0xfe00, 0x7fff, 0x7fff },
};

static const struct mm16 bf16_mm_tab[] = {
	{ 0x3f80, 0x4000, 0x3f80, 0x4000 },
	{ 0xbf80, 0x3f80, 0xbf80, 0x3f80 },
	{ 0x0000, 0x8000, 0x8000, 0x0000 },
	{ 0x0001, 0x8001, 0x8001, 0x0001 },
	{ 0x0080, 0x007f, 0x007f, 0x0080 },
	{ 0xff80, 0xff7f, 0xff80, 0xff7f },
	{ 0x7f80, 0x7f7f, 0x7f7f, 0x7f80 },
	{ 0x7fc0, 0x3f80, 0x3f80, 0x3f80 },
	{ 0x7f81, 0x8000, 0x8000, 0x8000 },
	{ 0xffc0, 0x0001, 0x0001, 0x0001 },
	{ 0x7fc0, 0x7f81, 0x7fff, 0x7fff },
	{ 0xffff, 0xffff, 0x7fff, 0x7fff },
};

static const struct mm32 f32_mm_tab[] = {
	{ 0x3f800000, 0x40000000, 0x3f800000, 0x40000000 },
	{ 0xbf800000, 0x3f800000, 0xbf800000, 0x3f800000 },
	{ 0xbf800000, 0xc0000000, 0xc0000000, 0xbf800000 },
	{ 0x00000000, 0x80000000, 0x80000000, 0x00000000 },
	{ 0x00000001, 0x80000001, 0x80000001, 0x00000001 },
	{ 0x80000000, 0x00000001, 0x80000000, 0x00000001 },
	{ 0x007fffff, 0x00800000, 0x007fffff, 0x00800000 },
	{ 0x3f800000, 0x3f800001, 0x3f800000, 0x3f800001 },
	{ 0xff800000, 0xff7fffff, 0xff800000, 0xff7fffff },
	{ 0x7f800000, 0xff800000, 0xff800000, 0x7f800000 },
	{ 0x7fc00000, 0x3f800000, 0x3f800000, 0x3f800000 },
	{ 0x7f800001, 0xbf800000, 0xbf800000, 0xbf800000 },
	{ 0xffc00000, 0x80000000, 0x80000000, 0x80000000 },
	{ 0x7fc00000, 0x7f800000, 0x7f800000, 0x7f800000 },
	{ 0x7fc00000, 0x7fc00000, 0x7fffffff, 0x7fffffff },
	{ 0x7f800001, 0xffffffff, 0x7fffffff, 0x7fffffff },
};

static void test_minmax_tables(void)
{
	size_t i;

	for (i = 0; i < sizeof(f16_mm_tab) / sizeof(f16_mm_tab[0]); i++) {
		const struct mm16 *t = &f16_mm_tab[i];

		VT_EXPECT_EQ_MSG(vatom_f16_min(t->a, t->b), t->min,
				 "f16 min 0x%04x 0x%04x", t->a, t->b);
		VT_EXPECT_EQ_MSG(vatom_f16_min(t->b, t->a), t->min,
				 "f16 min 0x%04x 0x%04x", t->b, t->a);
		VT_EXPECT_EQ_MSG(vatom_f16_max(t->a, t->b), t->max,
				 "f16 max 0x%04x 0x%04x", t->a, t->b);
		VT_EXPECT_EQ_MSG(vatom_f16_max(t->b, t->a), t->max,
				 "f16 max 0x%04x 0x%04x", t->b, t->a);
	}
	for (i = 0; i < sizeof(bf16_mm_tab) / sizeof(bf16_mm_tab[0]); i++) {
		const struct mm16 *t = &bf16_mm_tab[i];

		VT_EXPECT_EQ_MSG(vatom_bf16_min(t->a, t->b), t->min,
				 "bf16 min 0x%04x 0x%04x", t->a, t->b);
		VT_EXPECT_EQ_MSG(vatom_bf16_min(t->b, t->a), t->min,
				 "bf16 min 0x%04x 0x%04x", t->b, t->a);
		VT_EXPECT_EQ_MSG(vatom_bf16_max(t->a, t->b), t->max,
				 "bf16 max 0x%04x 0x%04x", t->a, t->b);
		VT_EXPECT_EQ_MSG(vatom_bf16_max(t->b, t->a), t->max,
				 "bf16 max 0x%04x 0x%04x", t->b, t->a);
	}
	for (i = 0; i < sizeof(f32_mm_tab) / sizeof(f32_mm_tab[0]); i++) {
		const struct mm32 *t = &f32_mm_tab[i];

		VT_EXPECT_EQ_MSG(vatom_f32_min(t->a, t->b), t->min,
				 "f32 min 0x%08x 0x%08x", t->a, t->b);
		VT_EXPECT_EQ_MSG(vatom_f32_min(t->b, t->a), t->min,
				 "f32 min 0x%08x 0x%08x", t->b, t->a);
		VT_EXPECT_EQ_MSG(vatom_f32_max(t->a, t->b), t->max,
				 "f32 max 0x%08x 0x%08x", t->a, t->b);
		VT_EXPECT_EQ_MSG(vatom_f32_max(t->b, t->a), t->max,
				 "f32 max 0x%08x 0x%08x", t->b, t->a);
	}
}

struct eq16 {
	u16 a, b;
	bool eq;
};

struct eq32 {
	u32 a, b;
	bool eq;
};

static const struct eq16 f16_eq_tab[] = {
	{ 0x0000, 0x8000, true },	/* -0 == +0 */
	{ 0x8000, 0x8000, true },
	{ 0x3c00, 0x3c00, true },
	{ 0x3c00, 0x3c01, false },
	{ 0x3c00, 0xbc00, false },
	{ 0x0001, 0x0001, true },	/* subnormals are not flushed */
	{ 0x0001, 0x8001, false },
	{ 0x0001, 0x0000, false },
	{ 0x7c00, 0x7c00, true },
	{ 0x7c00, 0xfc00, false },
	{ 0x7bff, 0x7c00, false },
	{ 0x7e00, 0x7e00, false },	/* NaN != NaN, same bits or not */
	{ 0x7fff, 0x7fff, false },
	{ 0x7c01, 0x7c01, false },
	{ 0x7e00, 0x3c00, false },
	{ 0x0000, 0xfe00, false },
};

static const struct eq32 f32_eq_tab[] = {
	{ 0x00000000, 0x80000000, true },
	{ 0x3f800000, 0x3f800000, true },
	{ 0x3f800000, 0x3f800001, false },
	{ 0x00000001, 0x00000001, true },
	{ 0x00000001, 0x00000000, false },
	{ 0x00000001, 0x80000001, false },
	{ 0x7f800000, 0x7f800000, true },
	{ 0xff800000, 0x7f800000, false },
	{ 0x7fc00000, 0x7fc00000, false },
	{ 0x7fffffff, 0x7fffffff, false },
	{ 0x7f800001, 0x7f800001, false },
	{ 0xffc00000, 0x3f800000, false },
};

static void test_eq_tables(void)
{
	size_t i;

	for (i = 0; i < sizeof(f16_eq_tab) / sizeof(f16_eq_tab[0]); i++) {
		const struct eq16 *t = &f16_eq_tab[i];

		VT_EXPECT_EQ_MSG(vatom_f16_eq(t->a, t->b), t->eq,
				 "f16 eq 0x%04x 0x%04x", t->a, t->b);
		VT_EXPECT_EQ_MSG(vatom_f16_eq(t->b, t->a), t->eq,
				 "f16 eq 0x%04x 0x%04x", t->b, t->a);
	}
	for (i = 0; i < sizeof(f32_eq_tab) / sizeof(f32_eq_tab[0]); i++) {
		const struct eq32 *t = &f32_eq_tab[i];

		VT_EXPECT_EQ_MSG(vatom_f32_eq(t->a, t->b), t->eq,
				 "f32 eq 0x%08x 0x%08x", t->a, t->b);
		VT_EXPECT_EQ_MSG(vatom_f32_eq(t->b, t->a), t->eq,
				 "f32 eq 0x%08x 0x%08x", t->b, t->a);
	}
}

/* ---------------------------------------------------------------------- */
/* (b) differential test against the host FPU                             */
/* ---------------------------------------------------------------------- */

static u64 rng_state;

/* splitmix64: fast, fixed seed, good enough to spread bit patterns. */
static inline u64 rng(void)
{
	u64 z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A format: exponent and fraction widths. */
struct fmt {
	unsigned int e, f;
};

static inline u64 fmt_sign(struct fmt t) { return 1ull << (t.e + t.f); }
static inline u64 fmt_mag(struct fmt t) { return fmt_sign(t) - 1; }
static inline u64 fmt_emax(struct fmt t) { return (1ull << t.e) - 1; }
static inline u64 fmt_fracm(struct fmt t) { return (1ull << t.f) - 1; }

static inline u64 fmt_make(struct fmt t, u64 sign, u64 exp, u64 frac)
{
	return (sign ? fmt_sign(t) : 0) | (exp << t.f) | (frac & fmt_fracm(t));
}

/* Zeros, ones, extremes, infinities and NaNs of every kind. */
static u64 gen_special(struct fmt t)
{
	u64 r = rng();
	u64 s = r & 1, inf = fmt_emax(t) << t.f;
	u64 v;

	switch ((r >> 1) % 12) {
	case 0: v = 0; break;					/* zero */
	case 1: v = (fmt_emax(t) >> 1) << t.f; break;		/* 1.0 */
	case 2: v = inf - 1; break;				/* max */
	case 3: v = 1ull << t.f; break;				/* min normal */
	case 4: v = (1ull << t.f) - 1; break;			/* max subn. */
	case 5: v = 1; break;					/* min subn. */
	case 6: v = inf; break;					/* inf */
	case 7: v = inf | (1ull << (t.f - 1)); break;		/* qNaN */
	case 8: v = inf | 1; break;				/* sNaN */
	case 9: v = fmt_mag(t); break;				/* canonical */
	case 10: v = inf | ((r >> 8) & fmt_fracm(t)) | 1; break; /* NaN */
	default: v = (1ull << t.f) | ((r >> 8) & 1); break;	/* ~min normal */
	}
	return v | (s ? fmt_sign(t) : 0);
}

/* One operand, from a mix of distributions. */
static u64 gen_one(struct fmt t)
{
	u64 r = rng(), x = rng();
	u64 s = r & 1, emax = fmt_emax(t), bias = emax >> 1;

	switch ((r >> 1) & 7) {
	case 0:
	case 1:	/* uniform bit patterns */
		return x & (fmt_sign(t) | fmt_mag(t));
	case 2:	/* around 1.0: exponent within bias +- 4 */
		return fmt_make(t, s, bias - 4 + (r >> 4) % 9, x);
	case 3:	/* subnormal, sometimes with only a few low bits */
		return fmt_make(t, s, 0, (r >> 4) & 1 ? x : x >> ((r >> 5) % t.f));
	case 4:	/* near overflow */
		return fmt_make(t, s, emax - 1 - (r >> 4) % 3, x);
	case 5:	/* the smallest normal binades */
		return fmt_make(t, s, 1 + (r >> 4) % 3, x);
	case 6:
		return gen_special(t);
	default: /* sparse or full fractions: ties and carries */
		return fmt_make(t, s, (r >> 8) % emax,
				(r >> 4) & 1 ? x & rng() & rng() : fmt_fracm(t));
	}
}

/* An operand pair; the second is often related to the first. */
static void gen_pair(struct fmt t, u64 *pa, u64 *pb)
{
	u64 a = gen_one(t), r = rng(), x = rng();
	u64 ea = (a & fmt_mag(t)) >> t.f, b;
	u64 s = r & 1;
	unsigned int k;

	switch ((r >> 1) & 7) {
	case 0:
	case 1:
	case 2:	/* independent */
		b = gen_one(t);
		break;
	case 3:	/* same exponent, opposite sign, fraction close: cancellation */
		k = (r >> 4) % (t.f + 1);
		b = (a ^ fmt_sign(t)) ^ (x & ((1ull << k) - 1));
		break;
	case 4:	/* exponent a little below: alignment and rounding */
		k = (r >> 4) % (t.f + 4);
		b = fmt_make(t, s, ea > k ? ea - k : 0, x);
		break;
	case 5:	/* a power of two near half an ulp of a: ties */
		k = t.f + (r >> 4) % 3;		/* f, f+1, f+2 below */
		b = fmt_make(t, s, ea > k ? ea - k : 0,
			     (r >> 6) & 1 ? 0 : x & rng() & rng() & rng());
		break;
	case 6:	/* equal, negated, or the other zero */
		b = (r >> 4) % 3 == 0 ? a : (r >> 4) % 3 == 1 ?
			a ^ fmt_sign(t) : (a & fmt_sign(t)) ^ fmt_sign(t);
		break;
	default:
		b = gen_special(t);
		break;
	}
	if ((r >> 10) & 1) {
		*pa = a;
		*pb = b;
	} else {
		*pa = b;
		*pb = a;
	}
}

/* Host views of bit patterns (f32 and f64: vt_host.h). */
static inline double f16_to_double(u16 x)
{
	_Float16 h;

	memcpy(&h, &x, 2);
	return (double)h;
}

static inline u16 f16_from_double(double d)
{
	_Float16 h = (_Float16)d;	/* one correct rounding (libgcc) */
	u16 x;

	memcpy(&x, &h, 2);
	return x;
}

static inline double bf16_to_double(u16 x)
{
	return (double)vt_bits_f32((u32)x << 16);
}

/*
 * Round a double to bfloat16, nearest even, by scaling: bfloat16 has 8
 * significant bits and quantum 2^(max(E, -126) - 7) for a value in
 * [2^E, 2^(E+1)); divide by the quantum (exact, a power of two), let rint()
 * round to an integer (the host default mode is nearest even), multiply
 * back. The result is a bfloat16 value, so exact as a float, whose top 16
 * bits are the pattern.
 */
static u16 ref_bf16_from_double(double d)
{
	int e;
	double q;

	if (isnan(d))
		return 0x7fff;
	if (isinf(d) || d == 0)
		return (u16)(vt_f32_bits((float)d) >> 16);
	frexp(d, &e);			/* d = m * 2^e, 0.5 <= |m| < 1 */
	e = (e - 1 < -126 ? -126 : e - 1) - 7;
	q = ldexp(rint(ldexp(d, -e)), e);
	if (fabs(q) >= 0x1p128)
		return d < 0 ? 0xff80 : 0x7f80;
	return (u16)(vt_f32_bits((float)q) >> 16);
}

/* Flush a host value below @min_normal in magnitude to a signed zero. */
static inline double flush(double v, double min_normal)
{
	return fabs(v) < min_normal ? copysign(0.0, v) : v;
}

static inline float flushf(float v)
{
	return fabsf(v) < 0x1p-126f ? copysignf(0.0f, v) : v;
}

static u64 ref_f16_add(u64 a, u64 b, bool ftz)
{
	double x = f16_to_double((u16)a), y = f16_to_double((u16)b);
	double r;

	if (ftz) {
		x = flush(x, 0x1p-14);
		y = flush(y, 0x1p-14);
	}
	r = x + y;
	if (isnan(r))
		return 0x7fff;
	r = f16_to_double(f16_from_double(r));
	if (ftz)
		r = flush(r, 0x1p-14);
	return f16_from_double(r);	/* exact: r is a binary16 value */
}

static u64 ref_bf16_add(u64 a, u64 b, bool ftz)
{
	double x = bf16_to_double((u16)a), y = bf16_to_double((u16)b);
	double r;

	if (ftz) {
		x = flush(x, 0x1p-126);
		y = flush(y, 0x1p-126);
	}
	r = x + y;
	if (isnan(r))
		return 0x7fff;
	r = bf16_to_double(ref_bf16_from_double(r));
	if (ftz)
		r = flush(r, 0x1p-126);
	return ref_bf16_from_double(r);
}

static u64 ref_f32_add(u64 a, u64 b, bool ftz)
{
	float x = vt_bits_f32((u32)a), y = vt_bits_f32((u32)b), r;

	if (ftz) {
		x = flushf(x);
		y = flushf(y);
	}
	r = x + y;
	if (isnan(r))
		return 0x7fffffff;
	if (ftz)
		r = flushf(r);
	return vt_f32_bits(r);
}

static u64 ref_f64_add(u64 a, u64 b, bool ftz)
{
	double r = vt_bits_f64(a) + vt_bits_f64(b);

	return isnan(r) ? 0x7fffffffffffffffull : vt_f64_bits(r);
}

/*
 * minimumNumber / maximumNumber from host comparisons: fmin() semantics for
 * NaNs (one is ignored, two give NaN), then -0 < +0 made explicit because
 * the host compares -0 == +0. x and y are the host values of a and b.
 */
static u64 ref_minmax(u64 a, u64 b, double x, double y, bool want_max,
		      u64 nan)
{
	if (isnan(x) && isnan(y))
		return nan;
	if (isnan(x))
		return b;
	if (isnan(y))
		return a;
	if (x < y)
		return want_max ? b : a;
	if (y < x)
		return want_max ? a : b;
	if (x == 0 && signbit(x) != signbit(y))
		return (signbit(x) != 0) != want_max ? a : b;
	return a;			/* equal non-zero: same bits */
}

static u64 ref_f16_min(u64 a, u64 b, bool ftz)
{
	return ref_minmax(a, b, f16_to_double((u16)a), f16_to_double((u16)b),
			  false, 0x7fff);
}

static u64 ref_f16_max(u64 a, u64 b, bool ftz)
{
	return ref_minmax(a, b, f16_to_double((u16)a), f16_to_double((u16)b),
			  true, 0x7fff);
}

static u64 ref_bf16_min(u64 a, u64 b, bool ftz)
{
	return ref_minmax(a, b, bf16_to_double((u16)a),
			  bf16_to_double((u16)b), false, 0x7fff);
}

static u64 ref_bf16_max(u64 a, u64 b, bool ftz)
{
	return ref_minmax(a, b, bf16_to_double((u16)a),
			  bf16_to_double((u16)b), true, 0x7fff);
}

static u64 ref_f32_min(u64 a, u64 b, bool ftz)
{
	return ref_minmax(a, b, vt_bits_f32((u32)a), vt_bits_f32((u32)b), false,
			  0x7fffffff);
}

static u64 ref_f32_max(u64 a, u64 b, bool ftz)
{
	return ref_minmax(a, b, vt_bits_f32((u32)a), vt_bits_f32((u32)b), true,
			  0x7fffffff);
}

static u64 ref_f16_eq(u64 a, u64 b, bool ftz)
{
	return f16_to_double((u16)a) == f16_to_double((u16)b);
}

static u64 ref_f32_eq(u64 a, u64 b, bool ftz)
{
	return vt_bits_f32((u32)a) == vt_bits_f32((u32)b);
}

/* The engine's functions behind one signature. */
static u64 eng_f16_add(u64 a, u64 b, bool ftz)
{
	return vatom_f16_add((u16)a, (u16)b, ftz);
}

static u64 eng_bf16_add(u64 a, u64 b, bool ftz)
{
	return vatom_bf16_add((u16)a, (u16)b, ftz);
}

static u64 eng_f32_add(u64 a, u64 b, bool ftz)
{
	return vatom_f32_add((u32)a, (u32)b, ftz);
}

static u64 eng_f64_add(u64 a, u64 b, bool ftz)
{
	return vatom_f64_add(a, b);
}

static u64 eng_f16_min(u64 a, u64 b, bool ftz)
{
	return vatom_f16_min((u16)a, (u16)b);
}

static u64 eng_f16_max(u64 a, u64 b, bool ftz)
{
	return vatom_f16_max((u16)a, (u16)b);
}

static u64 eng_bf16_min(u64 a, u64 b, bool ftz)
{
	return vatom_bf16_min((u16)a, (u16)b);
}

static u64 eng_bf16_max(u64 a, u64 b, bool ftz)
{
	return vatom_bf16_max((u16)a, (u16)b);
}

static u64 eng_f32_min(u64 a, u64 b, bool ftz)
{
	return vatom_f32_min((u32)a, (u32)b);
}

static u64 eng_f32_max(u64 a, u64 b, bool ftz)
{
	return vatom_f32_max((u32)a, (u32)b);
}

static u64 eng_f16_eq(u64 a, u64 b, bool ftz)
{
	return vatom_f16_eq((u16)a, (u16)b);
}

static u64 eng_f32_eq(u64 a, u64 b, bool ftz)
{
	return vatom_f32_eq((u32)a, (u32)b);
}

struct diff_op {
	const char *name;
	struct fmt fmt;
	bool ftz;
	u64 (*eng)(u64 a, u64 b, bool ftz);
	u64 (*ref)(u64 a, u64 b, bool ftz);
	bool is_eq;
};

static const struct diff_op diff_ops[] = {
	{ "f16 add", { 5, 10 }, false, eng_f16_add, ref_f16_add, false },
	{ "f16 add ftz", { 5, 10 }, true, eng_f16_add, ref_f16_add, false },
	{ "bf16 add", { 8, 7 }, false, eng_bf16_add, ref_bf16_add, false },
	{ "bf16 add ftz", { 8, 7 }, true, eng_bf16_add, ref_bf16_add, false },
	{ "f32 add", { 8, 23 }, false, eng_f32_add, ref_f32_add, false },
	{ "f32 add ftz", { 8, 23 }, true, eng_f32_add, ref_f32_add, false },
	{ "f64 add", { 11, 52 }, false, eng_f64_add, ref_f64_add, false },
	{ "f16 min", { 5, 10 }, false, eng_f16_min, ref_f16_min, false },
	{ "f16 max", { 5, 10 }, false, eng_f16_max, ref_f16_max, false },
	{ "bf16 min", { 8, 7 }, false, eng_bf16_min, ref_bf16_min, false },
	{ "bf16 max", { 8, 7 }, false, eng_bf16_max, ref_bf16_max, false },
	{ "f32 min", { 8, 23 }, false, eng_f32_min, ref_f32_min, false },
	{ "f32 max", { 8, 23 }, false, eng_f32_max, ref_f32_max, false },
	{ "f16 eq", { 5, 10 }, false, eng_f16_eq, ref_f16_eq, true },
	{ "f32 eq", { 8, 23 }, false, eng_f32_eq, ref_f32_eq, true },
};

static const struct diff_op *cur_op;
static unsigned long long total_pairs;

static void test_diff(void)
{
	const struct diff_op *op = cur_op;
	unsigned long long i, bad = 0, nan_res = 0, zero_res = 0, sub_res = 0,
			   inf_res = 0;
	u64 a, b, got, want;
	int hex = (int)(op->fmt.e + op->fmt.f + 4) / 4;

	rng_state = DIFF_SEED ^ (u64)(op - diff_ops);
	for (i = 0; i < DIFF_PAIRS; i++) {
		gen_pair(op->fmt, &a, &b);
		got = op->eng(a, b, op->ftz);
		want = op->ref(a, b, op->ftz);
		nan_res += want == fmt_mag(op->fmt);
		zero_res += (want & fmt_mag(op->fmt)) == 0;
		inf_res += (want & fmt_mag(op->fmt)) ==
			   fmt_emax(op->fmt) << op->fmt.f;
		sub_res += (want & fmt_mag(op->fmt)) - 1 <
			   fmt_fracm(op->fmt);
		if (got != want) {
			bad++;
			VT_EXPECT_EQ_MSG(got, want, "%s 0x%0*llx 0x%0*llx",
					 op->name, hex, (unsigned long long)a,
					 hex, (unsigned long long)b);
		}
	}
	total_pairs += i;
	printf("# %-12s %llu pairs, seed 0x%llx^%u: %llu mismatches",
	       op->name, i, (unsigned long long)DIFF_SEED,
	       (unsigned int)(op - diff_ops), bad);
	if (op->is_eq)
		printf(" (%llu equal)\n", i - zero_res);
	else
		printf(" (results: %llu NaN, %llu inf, %llu zero, "
		       "%llu subnormal)\n", nan_res, inf_res, zero_res, sub_res);
}

/* The references themselves, on cases whose answer is known. */
static void test_references(void)
{
	VT_EXPECT_EQ(ref_bf16_from_double(1.0 + 0x1p-8), 0x3f80);
	VT_EXPECT_EQ(ref_bf16_from_double(1.0 + 0x1p-7 + 0x1p-8), 0x3f82);
	VT_EXPECT_EQ(ref_bf16_from_double(-0x1p-133), 0x8001);
	VT_EXPECT_EQ(ref_bf16_from_double(0x1p-134), 0x0000);	/* tie -> 0 */
	VT_EXPECT_EQ(ref_bf16_from_double(0x1.8p-134), 0x0001);
	VT_EXPECT_EQ(ref_bf16_from_double(0x1.ffp127), 0x7f80);
	VT_EXPECT_EQ(ref_bf16_from_double(-0.0), 0x8000);
	VT_EXPECT_EQ(f16_from_double(1.0 + 0x1p-11), 0x3c00);
	VT_EXPECT_EQ(f16_from_double(1.0 + 0x1p-10 + 0x1p-11), 0x3c02);
	VT_EXPECT_EQ(f16_from_double(65520.0), 0x7c00);
	VT_EXPECT_EQ(f16_from_double(0x1p-25), 0x0000);
	VT_EXPECT_EQ(ref_f32_add(0x00800001, 0x80800000, true), 0);
	VT_EXPECT_EQ(ref_f16_add(0x8001, 0x8001, true), 0x8000);
	VT_EXPECT_EQ(ref_f16_min(0x0000, 0x8000, false), 0x8000);
	VT_EXPECT_EQ(ref_f32_max(0x80000000, 0x00000000, false), 0);
}

int main(void)
{
	struct timespec t0, t1;
	size_t i;
	char name[64];

	clock_gettime(CLOCK_MONOTONIC, &t0);
	vt_run(test_f16_add_table, "f16 add: hand table");
	vt_run(test_bf16_add_table, "bf16 add: hand table");
	vt_run(test_f32_add_table, "f32 add: hand table");
	vt_run(test_f64_add_table, "f64 add: hand table");
	vt_run(test_minmax_tables, "f16/bf16/f32 min/max: hand tables");
	vt_run(test_eq_tables, "f16/f32 eq: hand tables");
	vt_run(test_references, "differential references on known cases");
	for (i = 0; i < sizeof(diff_ops) / sizeof(diff_ops[0]); i++) {
		cur_op = &diff_ops[i];
		snprintf(name, sizeof(name), "%s: differential vs host FPU",
			 cur_op->name);
		vt_run(test_diff, name);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("# %llu differential pairs in %.1f s\n", total_pairs,
	       (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
	return vt_done();
}
