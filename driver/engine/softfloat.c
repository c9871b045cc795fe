// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Integer soft-float in the style of Berkeley SoftFloat: binary16, bfloat16,
 * binary32 and binary64 add, min, max and equality, on bit patterns, with no
 * floating point types (vatom.ko runs without the FPU) and no library calls.
 *
 * The adder is generic, parameterised by the exponent and fraction widths of
 * the format, and every caller passes constants, so each format gets its own
 * specialised copy with no run-time format dispatch: a short fast path,
 * sf_add(), for normal operands and a normal sum (the case a CAS loop of
 * accumulations lives in), and a complete path, sf_add_slow(), out of line.
 * Both share the unpacked sum and the round-and-pack. The significand of
 * every format sits in a u64 with its hidden bit at bit 61 (SF_HIDDEN): that
 * leaves 61 - F guard bits below the format's last fraction bit (9 for f64,
 * 38 for f32), more than the two guard bits and sticky bit that IEEE
 * rounding of a sum needs, and room above for its carry.
 *
 * The rules (rounding, NaN, flush-to-zero, signed zeros) are those stated in
 * softfloat.h; docs/semantics.md explains why.
 */
#include "softfloat.h"

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
 * The magnitude-ordered sum of two unpacked operands: @ma/@mb are the
 * magnitude bits (for finite values their integer order is the numeric
 * order), @siga/@sigb the significands with the hidden bit at SF_HIDDEN,
 * @ea/@eb the exponents (>= 1). The larger operand sets the exponent
 * (*@ebig) and the sign (*@sign), so a difference is never negative.
 * Addition and subtraction share this one path, and the choices between the
 * operands are masks and selects, not branches (gcc would branch on a ?:
 * here): the signs and order of the operands must not make branches
 * mispredict in the CAS loops that use this.
 */
static __always_inline u64 sf_add_sigs(u64 a, u64 b, u64 ma, u64 mb,
				       u64 siga, u64 sigb, u32 ea, u32 eb,
				       u32 *ebig, u64 *sign,
				       const u32 e, const u32 f)
{
	const u64 sign_bit = SF_SIGN(e, f);
	u64 swap = -(u64)(ma < mb);
	u64 t = (siga ^ sigb) & swap;
	u64 big = siga ^ t, small = sigb ^ t;
	/* Both distances, clamped before the choice: shorter dependencies. */
	u32 dab = ea - eb < 63 ? ea - eb : 63, dba = eb - ea < 63 ? eb - ea : 63;
	u32 d = dab ^ ((dab ^ dba) & (u32)swap);

	*ebig = ea ^ ((ea ^ eb) & (u32)swap);
	*sign = (a ^ ((a ^ b) & swap)) & sign_bit;
	/*
	 * Align. With S = SF_HIDDEN - F guard bits, bits are shifted out only
	 * when d > S, and then what is left of the smaller operand is below
	 * 2^(F+1) (in units of bit 0), while the sum, after a normalisation
	 * of at most two bits (d >= 2), rounds at half an ulp >= 2^(S-2): if
	 * S >= F + 3 the sum is within half an ulp of the larger operand with
	 * or without those bits, and both round to it. So only binary64 needs
	 * the sticky bit; the others take the plain, shorter shift.
	 */
	if (SF_HIDDEN - f < f + 3)
		small = sf_shift_right_jam(small, d);
	else
		small >>= d;
	/* Opposite signs subtract: add the two's complement (no branch). */
	t = -(((a ^ b) & sign_bit) >> (e + f));
	return big + ((small ^ t) - t);
}

/*
 * a + b, any operands: the path for zeros, subnormals, infinities and NaNs
 * and for results that are subnormal before rounding. Each format has it
 * out of line (sf_*_add_slow() below), so that the fast path stays short.
 */
static __always_inline u64 sf_add_slow(u64 a, u64 b, bool ftz, const u32 e,
				       const u32 f)
{
	const u64 hidden = 1ull << f;
	const u32 shift = SF_HIDDEN - f;
	u64 ma = a & SF_MAG(e, f), mb = b & SF_MAG(e, f);
	u64 siga, sigb, sign, sig;
	u32 ea, eb, ebig, k;

	if (ma >= SF_INF(e, f) || mb >= SF_INF(e, f))
		return sf_add_special(a, b, e, f);
	if (ftz) {
		/* Subnormal inputs count as zeros of their sign. */
		ma = ma < hidden ? 0 : ma;
		mb = mb < hidden ? 0 : mb;
	}
	/* Normal: hidden bit set; subnormal and zero: exponent 1, no hidden. */
	ea = (u32)(ma >> f);
	eb = (u32)(mb >> f);
	siga = ((ma & SF_FRAC(f)) | ((u64)(ea != 0) << f)) << shift;
	sigb = ((mb & SF_FRAC(f)) | ((u64)(eb != 0) << f)) << shift;
	ea += ea == 0;
	eb += eb == 0;
	sig = sf_add_sigs(a, b, ma, mb, siga, sigb, ea, eb, &ebig, &sign, e, f);
	/*
	 * Exact zero: (+0) + (+0) = +0, (-0) + (-0) = -0 and x + (-x) = +0
	 * when rounding to nearest, i.e. negative only if both signs are.
	 */
	if (sig == 0)
		return a & b & SF_SIGN(e, f);
	/*
	 * Bring the leading bit of sig (< 2^63, != 0) to SF_TOP: a carry is
	 * already there (k = 0, exponent + 1), no carry needs k = 1, a
	 * cancellation more; ebig + 1 - k is the exponent that goes with it.
	 * The exponent may not go below 1, what is left is then subnormal: a
	 * sentinel bit at SF_TOP - ebig caps k at ebig.
	 */
	k = (u32)__builtin_clzll(sig | ((1ull << SF_TOP) >>
					(ebig < 63 ? ebig : 63))) - 1;
	return sf_round_pack(sign, (s32)(ebig + 1 - k), sig << k, ftz, e, f);
}

typedef u64 (*sf_add_fn)(u64 a, u64 b, bool ftz);

/* The complete paths, one per format (gcc keeps them out of line). */
static u64 sf_f16_add_slow(u64 a, u64 b, bool ftz)
{
	return sf_add_slow(a, b, ftz, 5, 10);
}

static u64 sf_bf16_add_slow(u64 a, u64 b, bool ftz)
{
	return sf_add_slow(a, b, ftz, 8, 7);
}

static u64 sf_f32_add_slow(u64 a, u64 b, bool ftz)
{
	return sf_add_slow(a, b, ftz, 8, 23);
}

static u64 sf_f64_add_slow(u64 a, u64 b, bool ftz)
{
	return sf_add_slow(a, b, ftz, 11, 52);
}

/*
 * a + b for a format with @e exponent and @f fraction bits: the fast path,
 * for two normal operands and a result that is normal before rounding (so
 * after it too, and @ftz has nothing to flush). Everything else goes to
 * sf_add_slow(), on branches that workloads predict well.
 *
 * Written for few instructions, since a CAS loop around it is bounded by
 * them: the packed operands are ordered by magnitude first (masks, not ?:,
 * which gcc would turn into branches that the operands' signs and order
 * make mispredict), so that all that follows derives from the larger
 * operand (big) and the smaller one (sml) with no further choice: the
 * result's sign and exponent before normalisation are big's, the alignment
 * distance is never negative and neither is a difference.
 */
static __always_inline u64 sf_add(u64 a, u64 b, bool ftz, sf_add_fn slow,
				  const u32 e, const u32 f)
{
	const u64 mag = SF_MAG(e, f);
	u64 ma = a & mag, mb = b & mag;
	u64 swap = -(u64)(ma < mb);
	u64 t = (a ^ b) & swap;
	u64 big = a ^ t, sml = b ^ t;
	u64 mbig = big & mag, msml = sml & mag;
	u64 sigb, sigs, sig;
	u32 eb, d, k;
	s32 exp;

	/*
	 * |sml| <= |big|: both are normal exactly when sml is at least the
	 * smallest normal and big is finite.
	 */
	if (__builtin_expect(msml < 1ull << f || mbig >= SF_INF(e, f), 0))
		return slow(a, b, ftz);
	eb = (u32)(mbig >> f);
	d = eb - (u32)(msml >> f);
	/* Operands 2^64 apart or more: the slow path clamps the distance. */
	if (__builtin_expect(d > 63, 0))
		return slow(a, b, ftz);
	/*
	 * Fraction to the top, sign and exponent shifted out, hidden bit set
	 * in their place, then down to SF_HIDDEN.
	 */
	sigb = ((big << (63 - f)) | (1ull << 63)) >> (63 - SF_HIDDEN);
	sigs = ((sml << (63 - f)) | (1ull << 63)) >> (63 - SF_HIDDEN);
	/* Align; sf_add_sigs() says why only binary64 needs a sticky bit. */
	if (SF_HIDDEN - f < f + 3)
		sigs = sf_shift_right_jam(sigs, d);
	else
		sigs >>= d;
	/* Opposite signs subtract: add the two's complement (no branch). */
	t = -(((a ^ b) & SF_SIGN(e, f)) >> (e + f));
	sig = sigb + ((sigs ^ t) - t);
	/* Both normal: only x + (-x) is zero, and that is +0. */
	if (__builtin_expect(sig == 0, 0))
		return 0;
	/*
	 * Bring the leading bit to SF_TOP (as in sf_add_slow()); 62 - bsr(sig)
	 * is clz(sig) - 1 in one instruction fewer.
	 */
	k = SF_TOP - (63 ^ (u32)__builtin_clzll(sig));
	/* Below exponent 1 the result is subnormal before rounding: slow. */
	exp = (s32)eb + 1 - (s32)k;
	if (__builtin_expect(exp < 1, 0))
		return slow(a, b, ftz);
	return sf_round_pack(big & SF_SIGN(e, f), exp, sig << k, false, e, f);
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
	return (u16)sf_add(a, b, ftz, sf_f16_add_slow, 5, 10);
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
	return (u16)sf_add(a, b, ftz, sf_bf16_add_slow, 8, 7);
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
	return vatom_f32_add_inline(a, b, ftz);
}

/**
 * vatom_f32_add_slow() - vatom_f32_add() for any operands, out of line
 * @a: first operand, bit pattern
 * @b: second operand, bit pattern
 * @ftz: flush subnormal inputs and subnormal results to signed zero
 *
 * What vatom_f32_add_inline() leaves to a call.
 *
 * Return: the bit pattern of a + b, rounded to nearest even.
 */
u32 vatom_f32_add_slow(u32 a, u32 b, bool ftz)
{
	return (u32)sf_f32_add_slow(a, b, ftz);
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
	return sf_add(a, b, false, sf_f64_add_slow, 11, 52);
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
