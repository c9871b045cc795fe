/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * vISA element operations: the new value of a lane for each Op, and the
 * atomic read-modify-write of a 16-, 32- or 64-bit lane. DWORD_ATOMIC
 * (visa_dword.c) and TYPED_ATOMIC (visa_typed_addc.c) share them; they are
 * __always_inline so that each lane loop instantiated for a constant Op
 * reduces to the one atomic it needs.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_VISA_RMW_H_
#define _VATOM_VISA_RMW_H_

#include "vatom_engine.h"
#include "softfloat.h"

/*
 * new for a 32-bit lane; @a is Src0, @b is Src1. Only the Ops without a
 * native atomic get here: visa_rmw<n>() does the others (ADD, SUB, INC,
 * DEC, XCHG, CMPXCHG, PREDEC) with the atomic itself.
 */
static __always_inline u32 visa_new32(u32 op, u32 old, u32 a, u32 b)
{
	switch (op) {
	case DRM_VATOM_VISA_OP_MIN:
		return old < a ? old : a;
	case DRM_VATOM_VISA_OP_MAX:
		return old > a ? old : a;
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
	case DRM_VATOM_VISA_OP_FMAX:
		return vatom_f32_max(old, a);
	case DRM_VATOM_VISA_OP_FMIN:
		return vatom_f32_min(old, a);
	case DRM_VATOM_VISA_OP_FCMPWR:
		return vatom_f32_eq(a, old) ? b : old;
	}
	return old;	/* not reached: no other Op gets here */
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

/* new for a 64-bit lane: the same Ops as visa_new32(), less the floats. */
static __always_inline u64 visa_new64(u32 op, u64 old, u64 a, u64 b)
{
	switch (op) {
	case DRM_VATOM_VISA_OP_MIN:
		return old < a ? old : a;
	case DRM_VATOM_VISA_OP_MAX:
		return old > a ? old : a;
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
	}
	return old;	/* not reached: no other Op gets here */
}

/*
 * DEFINE_VISA_RMW(n) defines visa_rmw<n>(): one atomic read-modify-
 * write of the @n-bit lane at @lane; returns what the lane returns (the
 * old value, the new one for PREDEC), zero-extended. Operations with a native instruction use
 * it; the others are a compare-and-swap loop. When the new value equals the
 * old one the loop stops at the atomic read: writing the same bits back is
 * indistinguishable from not writing them (the native load + CAS idiom).
 * The first test is outside the loop, the loop itself out of the way:
 * min/max-like ops most often change nothing.
 *
 * A 16-bit lane is a 2-aligned half-word, written with 16-bit atomics that
 * touch only its own two bytes, so neither the other half of its dword nor
 * a byte past a surface whose size is not a multiple of 4 is ever accessed;
 * its operands are the low 16 bits of @a and @b.
 */
#define DEFINE_VISA_RMW(n)						\
static __always_inline u64 visa_rmw##n(u32 op, void *lane, u##n a, u##n b) \
{									\
	typeof(a) *p = lane, old, new, prev;				\
									\
	switch (op) {							\
	case DRM_VATOM_VISA_OP_ADD:					\
		return vatom_fetch_add##n(p, a);			\
	case DRM_VATOM_VISA_OP_SUB:					\
		return vatom_fetch_add##n(p, -a);			\
	case DRM_VATOM_VISA_OP_INC:					\
		return vatom_fetch_add##n(p, 1);			\
	case DRM_VATOM_VISA_OP_DEC:					\
		return vatom_fetch_add##n(p, -1);			\
	case DRM_VATOM_VISA_OP_XCHG:					\
		return vatom_xchg##n(p, a);				\
	case DRM_VATOM_VISA_OP_CMPXCHG:					\
		return vatom_cmpxchg##n(p, b, a);			\
	case DRM_VATOM_VISA_OP_PREDEC:					\
		return (typeof(a))(vatom_fetch_add##n(p, -1) - 1);	\
	}								\
	old = vatom_load##n(p);						\
	new = visa_new##n(op, old, a, b);				\
	if (__builtin_expect(new == old, 1))				\
		return old;						\
	for (;;) {							\
		prev = vatom_cmpxchg##n(p, old, new);			\
		if (prev == old)					\
			return old;					\
		old = prev;						\
		new = visa_new##n(op, old, a, b);			\
		if (new == old)						\
			return old;					\
	}								\
}

DEFINE_VISA_RMW(16)
DEFINE_VISA_RMW(32)
DEFINE_VISA_RMW(64)

#endif /* _VATOM_VISA_RMW_H_ */
