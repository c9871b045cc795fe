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

#include "vatom_compat.h"

#define VATOM_F16_NAN	((u16)0x7fff)
#define VATOM_BF16_NAN	((u16)0x7fff)
#define VATOM_F32_NAN	((u32)0x7fffffff)
#define VATOM_F64_NAN	((u64)0x7fffffffffffffffull)

u16 vatom_f16_add(u16 a, u16 b, bool ftz);
u16 vatom_bf16_add(u16 a, u16 b, bool ftz);
u32 vatom_f32_add(u32 a, u32 b, bool ftz);
u64 vatom_f64_add(u64 a, u64 b);

u16 vatom_f16_min(u16 a, u16 b);
u16 vatom_f16_max(u16 a, u16 b);
u16 vatom_bf16_min(u16 a, u16 b);
u16 vatom_bf16_max(u16 a, u16 b);
u32 vatom_f32_min(u32 a, u32 b);
u32 vatom_f32_max(u32 a, u32 b);

bool vatom_f16_eq(u16 a, u16 b);
bool vatom_f32_eq(u32 a, u32 b);

#endif /* _VATOM_SOFTFLOAT_H_ */
