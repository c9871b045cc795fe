/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What the stream walker needs from the vISA family beyond
 * vatom_engine.h.
 */
#ifndef _VATOM_VISA_INTERNAL_H_
#define _VATOM_VISA_INTERNAL_H_

#include "vatom_engine.h"

/*
 * Result bytes of a vISA packet that vatom_visa_validate() accepted: the
 * same value validate reported, computed from the fixed part alone so that
 * execution does not decode a packet twice.
 */
u64 vatom_visa_result_bytes(const struct drm_vatom_visa *p);

#endif /* _VATOM_VISA_INTERNAL_H_ */
