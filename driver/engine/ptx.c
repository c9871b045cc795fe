// SPDX-License-Identifier: GPL-2.0 OR MIT
/* PTX atom: not implemented yet. */
#include "vatom_engine.h"

u32 vatom_ptx_validate(const struct drm_vatom_ptx *p,
		       const struct vatom_bindings *b, u64 *result_bytes)
{
	return DRM_VATOM_ERR_UNSUPPORTED;
}

u64 vatom_ptx_execute(const struct drm_vatom_ptx *p,
		      const struct vatom_bindings *b, u8 *results)
{
	return 0;
}

u64 vatom_ptx_ops_mask(u32 type)
{
	return 0;
}
