/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What the stream walker needs from the packet families beyond
 * vatom_engine.h: the result bytes of a validated packet, without decoding
 * it again at execute time.
 */
#ifndef _VATOM_VISA_INTERNAL_H_
#define _VATOM_VISA_INTERNAL_H_

#include "vatom_engine.h"

/*
 * Result bytes of a vISA packet that vatom_visa_validate() accepted: the
 * same value validate reported, computed from the fixed part alone so that
 * execution does not decode a packet twice.
 */
static inline u64 vatom_visa_result_bytes(const struct drm_vatom_visa *p)
{
	u32 n = 1u << (p->exec_size & DRM_VATOM_VISA_EXEC_SIZE_MASK);
	bool is64 = p->type == DRM_VATOM_VISA_TYPE_UQ ||
		    p->type == DRM_VATOM_VISA_TYPE_Q;

	if (!(p->operands & DRM_VATOM_VISA_OPND_DST))
		return 0;
	if (p->opcode == DRM_VATOM_VISA_ADDC)
		return 2 * vatom_align8(4 * n);
	return vatom_align8((u64)n * (is64 ? 8 : 4));
}

u32 vatom_visa_validate_run(const u8 *stream, u32 size, u32 *pos, u32 max,
			    const struct vatom_bindings *b, u32 *count,
			    u64 *result_bytes);
u32 vatom_visa_execute_run(const u8 *stream, u32 size, u32 *pos, u32 max,
			   const struct vatom_bindings *b, u8 *results,
			   u64 *off, u64 *elements);

/*
 * Result bytes of a PTX packet that vatom_ptx_validate() accepted: 8, or 16
 * for an access wider than 8 bytes (b128, .v4.f32, .v8.f16, ...).
 */
u32 vatom_ptx_result_bytes(const struct drm_vatom_ptx *p);

u32 vatom_ptx_execute_run(const u8 *stream, u32 size, u32 *pos, u32 max,
			  const struct vatom_bindings *b, u8 *results,
			  u64 *off, u64 *elements);

#endif /* _VATOM_VISA_INTERNAL_H_ */
