/* SPDX-License-Identifier: MIT */
/*
 * libvatom: Results.
 * One area of the library's interface: programs include <vatom.h>,
 * which includes them all; this header also compiles alone.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_RESULTS_H_
#define _VATOM_RESULTS_H_

#include <vatom/common.h>

#if defined(__cplusplus)
extern "C" {
#endif

/*
 * The accessors read the results of the last successful submission of @b
 * for the packet @res, indexed in elements of the accessor's width: lane i
 * of a 32-bit vISA result is vatom_result_u32(b, res, i), lane i of a
 * 64-bit one vatom_result_u64(b, res, i), half i of a PTX f16 vector
 * vatom_result_u16(b, res, i). They return 0 when there are no results
 * (not submitted, failed, reset), for a packet that returns nothing and
 * for an element past the packet's results; vatom_result_size() and
 * vatom_result_bytes() tell these cases apart.
 */

/**
 * vatom_result_u16() - 16-bit element @i of a packet's results
 * @b: the batch
 * @res: the result handle
 * @i: element index, in 16-bit units (half i of a PTX f16 vector)
 *
 * Return: the element, or 0 when there is none (see above).
 */
VATOM_API uint16_t vatom_result_u16(const struct vatom_batch *b, int res,
				    unsigned int i);

/**
 * vatom_result_u32() - 32-bit element @i of a packet's results
 * @b: the batch
 * @res: the result handle
 * @i: element index, in 32-bit units (lane i of a 32-bit vISA result)
 *
 * Return: the element, or 0 when there is none.
 */
VATOM_API uint32_t vatom_result_u32(const struct vatom_batch *b, int res,
				    unsigned int i);

/**
 * vatom_result_u64() - 64-bit element @i of a packet's results
 * @b: the batch
 * @res: the result handle
 * @i: element index, in 64-bit units (lane i of a UQ/Q vISA result)
 *
 * Return: the element, or 0 when there is none.
 */
VATOM_API uint64_t vatom_result_u64(const struct vatom_batch *b, int res,
				    unsigned int i);

/**
 * vatom_result_addc_dst() - the sum ADDC computed in lane @lane
 * @b: the batch
 * @res: the result handle of an ADDC packet
 * @lane: the lane
 *
 * Return: dst[@lane], or 0 when there is none.
 */
VATOM_API uint32_t vatom_result_addc_dst(const struct vatom_batch *b, int res,
					 unsigned int lane);

/**
 * vatom_result_addc_carry() - the carry ADDC computed in lane @lane
 * @b: the batch
 * @res: the result handle of an ADDC packet
 * @lane: the lane
 *
 * Return: carry[@lane] (0 or 1), or 0 when there is none.
 */
VATOM_API uint32_t vatom_result_addc_carry(const struct vatom_batch *b, int res,
					   unsigned int lane);

/**
 * vatom_result_size() - bytes of values the packet returns
 * @b: the batch
 * @res: the result handle
 *
 * The data bytes (not the rounding to 8): lanes * 4 for 32-bit vISA
 * results and ADDC dst, lanes * 8 for 64-bit ones, the access size for
 * PTX, 0 for packets that return nothing.
 *
 * Return: the size; -EINVAL for a handle out of range.
 */
VATOM_API int vatom_result_size(const struct vatom_batch *b, int res);

/**
 * vatom_result_offset() - where the packet's region starts in the results
 * @b: the batch
 * @res: the result handle
 *
 * Not needed to read results; offered for tools that dump raw results
 * and for users of a shared result surface.
 *
 * Return: the byte offset (relative to the result destination); -EINVAL
 * for a handle out of range.
 */
VATOM_API int64_t vatom_result_offset(const struct vatom_batch *b, int res);

/**
 * vatom_result_bytes() - copy the packet's returned bytes
 * @b: the batch
 * @res: the result handle
 * @buf: destination
 * @len: room at @buf
 *
 * Return: bytes copied, min(@len, vatom_result_size()); -EINVAL for a
 * handle out of range; -ENODATA when no results are available or the
 * packet returns nothing.
 */
VATOM_API int vatom_result_bytes(const struct vatom_batch *b, int res,
				 void *buf, size_t len);

#if defined(__cplusplus)
}
#endif

#endif /* _VATOM_RESULTS_H_ */
