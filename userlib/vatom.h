/* SPDX-License-Identifier: MIT */
/*
 * libvatom: userspace library for the vatom virtual atomic accelerator.
 *
 * Copyright (C) 2026 The vatom developers
 *
 * Conventions (the same in every header of the library):
 *  - Functions that can fail return 0 (or a non-negative count/index) on
 *    success and a negative errno on failure. errno is never part of the
 *    interface: its value after a call is unspecified.
 *  - Objects are opaque and created by the library; a NULL object pointer
 *    passed to a destroy/close function is a no-op.
 *  - The library *encodes* instructions: it checks only what it must to build
 *    the packet bytes (lane counts, NULL arrays, field widths). Whether an
 *    encoding is valid for the ISA (operand types, V0 rules, mask ranges...)
 *    is decided by the kernel at submit time, which names the failing packet
 *    and the reason (vatom_batch_error(), vatom_strreason()).
 *  - A device and its surfaces may be used from several threads; a batch
 *    must be used by one thread at a time.
 *
 * See docs/libvatom.md for a tour with one example per ISA family.
 *
 * It includes the per-area headers, installed beside it in <vatom/>:
 * common.h (versions, object types), device.h, surface.h, batch.h,
 * fence.h (asynchronous submission), visa.h, ptx.h, noc.h, results.h,
 * strings.h, text.h (the ISA text front end) and queue.h. Include this
 * one; each of the others also compiles alone.
 */
#ifndef _VATOM_H_
#define _VATOM_H_

#include <vatom/common.h>
#include <vatom/device.h>
#include <vatom/surface.h>
#include <vatom/batch.h>
#include <vatom/fence.h>
#include <vatom/visa.h>
#include <vatom/ptx.h>
#include <vatom/noc.h>
#include <vatom/results.h>
#include <vatom/strings.h>
#include <vatom/text.h>
#include <vatom/queue.h>

#endif /* _VATOM_H_ */
