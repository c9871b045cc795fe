// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Integer soft-float in the style of Berkeley SoftFloat: binary16, bfloat16,
 * binary32 and binary64 add, min, max and equality, on bit patterns, with no
 * floating point types (vatom.ko runs without the FPU) and no library calls.
 *
 * One generic adder, sf_add(), is parameterised by the exponent and fraction
 * widths of the format; every caller passes constants, so each format gets its
 * own specialised copy with no run-time format dispatch. Inside it the
 * significand of every format sits in a u64 with its hidden bit at bit 61
 * (SF_HIDDEN): that leaves 61 - F guard bits below the format's last fraction
 * bit (9 for f64, 38 for f32) and one bit above for the carry of an addition,
 * which is all the precision IEEE rounding of a sum needs.
 *
 * The rules (rounding, NaN, flush-to-zero, signed zeros) are those stated in
 * softfloat.h; docs/semantics.md explains why.
 */
#include "softfloat.h"

#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif

/* Position of the hidden bit of a working significand (see above). */
#define SF_HIDDEN	61

/* Masks of a format @e exponent bits and @f fraction bits wide. */
#define SF_SIGN(e, f)	(1ull << ((e) + (f)))
#define SF_MAG(e, f)	(SF_SIGN(e, f) - 1)
#define SF_INF(e, f)	(((1ull << (e)) - 1) << (f))
#define SF_FRAC(f)	((1ull << (f)) - 1)

/*
 * Shift @sig right by @dist (any value), ORing every bit shifted out into bit
 * 0 ("jamming" a sticky bit), so that rounding still sees that the value was
 * above the truncated one. Masks instead of branches: a distance of 63 or
 * more leaves only the sticky bit, which is right because @sig < 2^63.
 */
static __always_inline u64 sf_shift_right_jam(u64 sig, u32 dist)
{
	u32 d = dist < 63 ? dist : 63;

	return (sig >> d) | ((sig & ((1ull << d) - 1)) != 0);
}

/*
 * Round to nearest, ties to even, and pack. @sign is the sign bit in place,
 * @exp the biased exponent (>= 1) that goes with a significand whose hidden
 * bit is at SF_HIDDEN. A subnormal result arrives with @exp == 1 and no hidden
 * bit, and packs to exponent field 0 because the exponent field is formed by
 * adding the rounded significand (hidden bit included) to (@exp - 1) << F:
 * the same addition carries into the exponent when rounding overflows the
 * significand (1.11..1 -> 10.0) or makes a subnormal the minimum normal. A
 * result at or above the infinity pattern overflowed: +-inf. With @ftz, a
 * result that is subnormal after rounding becomes a zero of its sign.
 */
static __always_inline u64 sf_round_pack(u64 sign, s32 exp, u64 sig, bool ftz,
					 const u32 e, const u32 f)
{
	const u32 shift = SF_HIDDEN - f;
	u64 mag;

	/* + half - 1, + 1 more when the kept lsb is odd: ties go to even. */
	sig = (sig + (1ull << (shift - 1)) - 1 + ((sig >> shift) & 1)) >> shift;
	mag = ((u64)(exp - 1) << f) + sig;
	if (mag >= SF_INF(e, f))
		return sign | SF_INF(e, f);
	if (ftz && mag < (1ull << f))
		mag = 0;
	return sign | mag;
}

/* inf and NaN operands: NaN wins, inf + -inf = NaN, else the inf. */
static u64 sf_add_special(u64 a, u64 b, const u32 e, const u32 f)
{
	u64 ma = a & SF_MAG(e, f), mb = b & SF_MAG(e, f);

	if (ma > SF_INF(e, f) || mb > SF_INF(e, f))
		return SF_MAG(e, f);		/* the canonical NaN */
	if (ma == mb && a != b)
		return SF_MAG(e, f);		/* inf + -inf */
	return ma == SF_INF(e, f) ? a : b;
}

/*
 * a + b for a format with @e exponent and @f fraction bits. Operands are
 * ordered by magnitude (for finite values the integer order of the magnitude
 * bits is the numeric order), so the larger one sets the exponent and the
 * sign, and a subtraction of significands never goes negative.
 */
static __always_inline u64 sf_add(u64 a, u64 b, bool ftz, const u32 e,
				  const u32 f)
{
	const u64 mag_mask = SF_MAG(e, f);
	const u64 hidden = 1ull << f;
	const u32 shift = SF_HIDDEN - f;
	u64 sa = a & SF_SIGN(e, f), sb = b & SF_SIGN(e, f);
	u64 ma = a & mag_mask, mb = b & mag_mask;
	u64 siga, sigb, sig, t;
	s32 ea, eb;
	u32 lz;

	if (__builtin_expect(ma >= SF_INF(e, f) || mb >= SF_INF(e, f), 0))
		return sf_add_special(a, b, e, f);
	if (ftz) {
		/* Subnormal inputs count as zeros of their sign. */
		ma = ma < hidden ? 0 : ma;
		mb = mb < hidden ? 0 : mb;
	}
	if (ma < mb) {
		t = ma; ma = mb; mb = t;
		t = sa; sa = sb; sb = t;
	}
	/* Normal: hidden bit set; subnormal and zero: exponent 1, no hidden. */
	ea = (s32)(ma >> f);
	eb = (s32)(mb >> f);
	siga = ((ma & SF_FRAC(f)) | ((u64)(ea != 0) << f)) << shift;
	sigb = ((mb & SF_FRAC(f)) | ((u64)(eb != 0) << f)) << shift;
	ea += ea == 0;
	eb += eb == 0;
	sigb = sf_shift_right_jam(sigb, (u32)(ea - eb));

	if (sa == sb) {
		/*
		 * Same signs: the sum has their sign, even when both are zeros
		 * ((-0) + (-0) = -0). A carry into bit 62 costs one bit,
		 * jammed into the sticky bit.
		 */
		sig = siga + sigb;
		if (sig >> (SF_HIDDEN + 1)) {
			sig = (sig >> 1) | (sig & 1);
			ea++;
		}
		return sf_round_pack(sa, ea, sig, ftz, e, f);
	}

	/* Opposite signs: x + (-x) is +0 when rounding to nearest. */
	sig = siga - sigb;
	if (sig == 0)
		return 0;
	/*
	 * Normalise, but not below exponent 1: what is left is subnormal.
	 * sig is not 0 here, so clzll is defined.
	 */
	lz = (u32)__builtin_clzll(sig) - (63 - SF_HIDDEN);
	if (lz > (u32)(ea - 1))
		lz = (u32)(ea - 1);
	return sf_round_pack(sa, ea - (s32)lz, sig << lz, ftz, e, f);
}

/**
 * vatom_f16_add() - IEEE binary16 addition
 * @a: first operand, bit pattern
 * @b: second operand, bit pattern
 * @ftz: flush subnormal inputs and subnormal results to signed zero
 *
 * Return: the bit pattern of a + b, rounded to nearest even.
 */
u16 vatom_f16_add(u16 a, u16 b, bool ftz)
{
	return (u16)sf_add(a, b, ftz, 5, 10);
}

/**
 * vatom_bf16_add() - bfloat16 addition
 * @a: first operand, bit pattern
 * @b: second operand, bit pattern
 * @ftz: flush subnormal inputs and subnormal results to signed zero
 *
 * Return: the bit pattern of a + b, rounded to nearest even.
 */
u16 vatom_bf16_add(u16 a, u16 b, bool ftz)
{
	return (u16)sf_add(a, b, ftz, 8, 7);
}

/**
 * vatom_f32_add() - IEEE binary32 addition
 * @a: first operand, bit pattern
 * @b: second operand, bit pattern
 * @ftz: flush subnormal inputs and subnormal results to signed zero
 *
 * Return: the bit pattern of a + b, rounded to nearest even.
 */
u32 vatom_f32_add(u32 a, u32 b, bool ftz)
{
	return (u32)sf_add(a, b, ftz, 8, 23);
}

/**
 * vatom_f64_add() - IEEE binary64 addition, subnormals kept
 * @a: first operand, bit pattern
 * @b: second operand, bit pattern
 *
 * Return: the bit pattern of a + b, rounded to nearest even.
 */
u64 vatom_f64_add(u64 a, u64 b)
{
	return sf_add(a, b, false, 11, 52);
}

/*
 * Key whose unsigned order is the numeric order of non-NaN values, with
 * -0 < +0: negative values are bit-inverted (bigger magnitude, smaller key),
 * positive ones get the sign bit set (above every negative one).
 */
static __always_inline u64 sf_order_key(u64 x, const u32 e, const u32 f)
{
	const u64 sign = SF_SIGN(e, f);

	return (x & sign) ? ~x & (sign | SF_MAG(e, f)) : x | sign;
}

static __always_inline bool sf_is_nan(u64 x, const u32 e, const u32 f)
{
	return (x & SF_MAG(e, f)) > SF_INF(e, f);
}

/*
 * IEEE 754-2019 minimumNumber (@want_max false) and maximumNumber: a NaN
 * operand, quiet or signalling, is ignored; two NaNs give the canonical
 * NaN; -0 < +0. The result is one of the operands, bit for bit.
 */
static __always_inline u64 sf_minmax(u64 a, u64 b, bool want_max,
				     const u32 e, const u32 f)
{
	bool a_nan = sf_is_nan(a, e, f), b_nan = sf_is_nan(b, e, f);
	bool a_less;

	if (__builtin_expect(a_nan || b_nan, 0)) {
		if (a_nan && b_nan)
			return SF_MAG(e, f);
		return a_nan ? b : a;
	}
	a_less = sf_order_key(a, e, f) < sf_order_key(b, e, f);
	return a_less != want_max ? a : b;
}

/**
 * vatom_f16_min() - IEEE 754-2019 minimumNumber of two binary16 values
 * @a: first operand, bit pattern
 * @b: second operand, bit pattern
 *
 * Return: the smaller operand (-0 < +0); the other one if one is a NaN; the
 * canonical NaN if both are.
 */
u16 vatom_f16_min(u16 a, u16 b)
{
	return (u16)sf_minmax(a, b, false, 5, 10);
}

/**
 * vatom_f16_max() - IEEE 754-2019 maximumNumber of two binary16 values
 * @a: first operand, bit pattern
 * @b: second operand, bit pattern
 *
 * Return: the larger operand (+0 > -0); the other one if one is a NaN; the
 * canonical NaN if both are.
 */
u16 vatom_f16_max(u16 a, u16 b)
{
	return (u16)sf_minmax(a, b, true, 5, 10);
}

/**
 * vatom_bf16_min() - IEEE 754-2019 minimumNumber of two bfloat16 values
 * @a: first operand, bit pattern
 * @b: second operand, bit pattern
 *
 * Return: as vatom_f16_min().
 */
u16 vatom_bf16_min(u16 a, u16 b)
{
	return (u16)sf_minmax(a, b, false, 8, 7);
}

/**
 * vatom_bf16_max() - IEEE 754-2019 maximumNumber of two bfloat16 values
 * @a: first operand, bit pattern
 * @b: second operand, bit pattern
 *
 * Return: as vatom_f16_max().
 */
u16 vatom_bf16_max(u16 a, u16 b)
{
	return (u16)sf_minmax(a, b, true, 8, 7);
}

/**
 * vatom_f32_min() - IEEE 754-2019 minimumNumber of two binary32 values
 * @a: first operand, bit pattern
 * @b: second operand, bit pattern
 *
 * Return: as vatom_f16_min().
 */
u32 vatom_f32_min(u32 a, u32 b)
{
	return (u32)sf_minmax(a, b, false, 8, 23);
}

/**
 * vatom_f32_max() - IEEE 754-2019 maximumNumber of two binary32 values
 * @a: first operand, bit pattern
 * @b: second operand, bit pattern
 *
 * Return: as vatom_f16_max().
 */
u32 vatom_f32_max(u32 a, u32 b)
{
	return (u32)sf_minmax(a, b, true, 8, 23);
}

/* IEEE equality: a NaN equals nothing, -0 == +0, otherwise same bits. */
static __always_inline bool sf_eq(u64 a, u64 b, const u32 e, const u32 f)
{
	if (sf_is_nan(a, e, f) || sf_is_nan(b, e, f))
		return false;
	return a == b || ((a | b) & SF_MAG(e, f)) == 0;
}

/**
 * vatom_f16_eq() - IEEE equality of two binary16 values
 * @a: first operand, bit pattern
 * @b: second operand, bit pattern
 *
 * Return: true when a == b numerically: never for a NaN, and -0 == +0.
 */
bool vatom_f16_eq(u16 a, u16 b)
{
	return sf_eq(a, b, 5, 10);
}

/**
 * vatom_f32_eq() - IEEE equality of two binary32 values
 * @a: first operand, bit pattern
 * @b: second operand, bit pattern
 *
 * Return: true when a == b numerically: never for a NaN, and -0 == +0.
 */
bool vatom_f32_eq(u32 a, u32 b)
{
	return sf_eq(a, b, 8, 23);
}
