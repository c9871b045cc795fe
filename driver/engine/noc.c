// SPDX-License-Identifier: GPL-2.0 OR MIT
/* NoC atomics: not implemented yet. */
#include "vatom_engine.h"

u32 vatom_noc_validate(const struct drm_vatom_noc *p,
		       const struct vatom_bindings *b, u64 *result_bytes)
{
	return DRM_VATOM_ERR_UNSUPPORTED;
}

u64 vatom_noc_execute(const struct drm_vatom_noc *p,
		      const struct vatom_bindings *b, u8 *results)
{
	return 0;
}

u64 vatom_noc_opcodes_mask(u32 profile)
{
	return 0;
}
