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

/* new for a 32-bit lane; @a is Src0, @b is Src1. */
static __always_inline u32 visa_new32(u32 op, u32 old, u32 a, u32 b)
{
	switch (op) {
	case DRM_VATOM_VISA_OP_ADD:
		return old + a;
	case DRM_VATOM_VISA_OP_SUB:
		return old - a;
	case DRM_VATOM_VISA_OP_INC:
		return old + 1;
	case DRM_VATOM_VISA_OP_DEC:
		return old - 1;
	case DRM_VATOM_VISA_OP_MIN:
		return old < a ? old : a;
	case DRM_VATOM_VISA_OP_MAX:
		return old > a ? old : a;
	case DRM_VATOM_VISA_OP_XCHG:
		return a;
	case DRM_VATOM_VISA_OP_CMPXCHG:
		return old == b ? a : old;
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
	case DRM_VATOM_VISA_OP_PREDEC:
		return old - 1;
	case DRM_VATOM_VISA_OP_FMAX:
		return vatom_f32_max(old, a);
	case DRM_VATOM_VISA_OP_FMIN:
		return vatom_f32_min(old, a);
	case DRM_VATOM_VISA_OP_FCMPWR:
		return vatom_f32_eq(a, old) ? b : old;
	}
	return old;
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

/* new for a 64-bit lane. */
static __always_inline u64 visa_new64(u32 op, u64 old, u64 a, u64 b)
{
	switch (op) {
	case DRM_VATOM_VISA_OP_ADD:
		return old + a;
	case DRM_VATOM_VISA_OP_SUB:
		return old - a;
	case DRM_VATOM_VISA_OP_INC:
		return old + 1;
	case DRM_VATOM_VISA_OP_DEC:
		return old - 1;
	case DRM_VATOM_VISA_OP_MIN:
		return old < a ? old : a;
	case DRM_VATOM_VISA_OP_MAX:
		return old > a ? old : a;
	case DRM_VATOM_VISA_OP_XCHG:
		return a;
	case DRM_VATOM_VISA_OP_CMPXCHG:
		return old == b ? a : old;
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
	case DRM_VATOM_VISA_OP_PREDEC:
		return old - 1;
	}
	return old;
}

/*
 * One atomic 32-bit read-modify-write; returns what the lane returns (the
 * old value, the new one for PREDEC). Operations with a native instruction
 * use it; the others are a compare-and-swap loop. When the new value equals
 * the old one the loop stops at the atomic read: writing the same bits back
 * is indistinguishable from not writing them (the native load + CAS idiom).
 */
static __always_inline u32 visa_rmw32(u32 op, u32 *p, u32 a, u32 b)
{
	u32 old, new, prev;

	switch (op) {
	case DRM_VATOM_VISA_OP_ADD:
		return vatom_fetch_add32(p, a);
	case DRM_VATOM_VISA_OP_SUB:
		return vatom_fetch_add32(p, -a);
	case DRM_VATOM_VISA_OP_INC:
		return vatom_fetch_add32(p, 1);
	case DRM_VATOM_VISA_OP_DEC:
		return vatom_fetch_add32(p, ~0u);
	case DRM_VATOM_VISA_OP_XCHG:
		return vatom_xchg32(p, a);
	case DRM_VATOM_VISA_OP_CMPXCHG:
		return vatom_cmpxchg32(p, b, a);
	case DRM_VATOM_VISA_OP_PREDEC:
		return vatom_fetch_add32(p, ~0u) - 1;
	}
	/*
	 * The first test outside the loop, the loop itself out of the way:
	 * min/max-like ops most often change nothing.
	 */
	old = vatom_load32(p);
	new = visa_new32(op, old, a, b);
	if (__builtin_expect(new == old, 1))
		return old;
	for (;;) {
		prev = vatom_cmpxchg32(p, old, new);
		if (prev == old)
			return old;
		old = prev;
		new = visa_new32(op, old, a, b);
		if (new == old)
			return old;
	}
}

/*
 * 16-bit read-modify-write of the 2-aligned half-word at @h, as visa_rmw32():
 * 16-bit atomics that touch only the half-word's own two bytes, so neither
 * the other half of its dword nor a byte past a surface whose size is not a
 * multiple of 4 is ever accessed. The value is zero-extended.
 */
static __always_inline u32 visa_rmw16(u32 op, u16 *h, u32 a, u32 b)
{
	u16 old, new, prev;

	a &= 0xffff;
	b &= 0xffff;
	switch (op) {
	case DRM_VATOM_VISA_OP_ADD:
		return vatom_fetch_add16(h, (u16)a);
	case DRM_VATOM_VISA_OP_SUB:
		return vatom_fetch_add16(h, (u16)-a);
	case DRM_VATOM_VISA_OP_INC:
		return vatom_fetch_add16(h, 1);
	case DRM_VATOM_VISA_OP_DEC:
		return vatom_fetch_add16(h, 0xffff);
	case DRM_VATOM_VISA_OP_XCHG:
		return vatom_xchg16(h, (u16)a);
	case DRM_VATOM_VISA_OP_CMPXCHG:
		return vatom_cmpxchg16(h, (u16)b, (u16)a);
	case DRM_VATOM_VISA_OP_PREDEC:
		return (u16)(vatom_fetch_add16(h, 0xffff) - 1);
	}
	old = vatom_load16(h);
	new = (u16)visa_new16(op, old, a, b);
	if (__builtin_expect(new == old, 1))
		return old;
	for (;;) {
		prev = vatom_cmpxchg16(h, old, new);
		if (prev == old)
			return old;
		old = prev;
		new = (u16)visa_new16(op, old, a, b);
		if (new == old)
			return old;
	}
}

static __always_inline u64 visa_rmw64(u32 op, u64 *p, u64 a, u64 b)
{
	u64 old, new, prev;

	switch (op) {
	case DRM_VATOM_VISA_OP_ADD:
		return vatom_fetch_add64(p, a);
	case DRM_VATOM_VISA_OP_SUB:
		return vatom_fetch_add64(p, -a);
	case DRM_VATOM_VISA_OP_INC:
		return vatom_fetch_add64(p, 1);
	case DRM_VATOM_VISA_OP_DEC:
		return vatom_fetch_add64(p, ~0ull);
	case DRM_VATOM_VISA_OP_XCHG:
		return vatom_xchg64(p, a);
	case DRM_VATOM_VISA_OP_CMPXCHG:
		return vatom_cmpxchg64(p, b, a);
	case DRM_VATOM_VISA_OP_PREDEC:
		return vatom_fetch_add64(p, ~0ull) - 1;
	}
	old = vatom_load64(p);
	new = visa_new64(op, old, a, b);
	if (__builtin_expect(new == old, 1))
		return old;
	for (;;) {
		prev = vatom_cmpxchg64(p, old, new);
		if (prev == old)
			return old;
		old = prev;
		new = visa_new64(op, old, a, b);
		if (new == old)
			return old;
	}
}

#endif /* _VATOM_VISA_RMW_H_ */
