/* SPDX-License-Identifier: MIT */
/*
 * libvatom: Batches.
 * One area of the library's interface: programs include <vatom.h>,
 * which includes them all; this header also compiles alone.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_BATCH_H_
#define _VATOM_BATCH_H_

#include <vatom/common.h>

#if defined(__cplusplus)
extern "C" {
#endif

/*
 * A batch is a command stream under construction plus its binding table
 * (slot -> surface). Each vatom_prep_*() appends one packet and returns its
 * index in the stream, which is also the *result handle* of that packet:
 * after a successful submission, vatom_result_*(batch, res, ...) read the
 * values the packet returned, wherever the UAPI's layout rules put them
 * (regions in packet order, each rounded up to 8 bytes).
 */

/**
 * vatom_batch_create() - create an empty batch
 * @dev: the device the batch will be submitted to; NULL builds streams
 *	offline (submission then fails with -ENODEV)
 * @capacity: initial stream capacity in bytes (0: 4096); it grows on demand
 * @bp: out, the new batch
 *
 * Return: 0; -EINVAL for a NULL @bp; -ENOMEM.
 */
VATOM_API int vatom_batch_create(struct vatom_device *dev, size_t capacity,
				 struct vatom_batch **bp);

/**
 * vatom_batch_destroy() - free a batch
 * @b: the batch, or NULL
 */
VATOM_API void vatom_batch_destroy(struct vatom_batch *b);

/**
 * vatom_batch_reserve() - make room for @bytes more stream bytes
 * @b: the batch
 * @bytes: bytes of packets about to be added
 *
 * Optional: the prep functions grow the stream themselves.
 *
 * Return: 0; -E2BIG past the device's %DRM_VATOM_PARAM_MAX_STREAM_SIZE;
 * -ENOMEM.
 */
VATOM_API int vatom_batch_reserve(struct vatom_batch *b, size_t bytes);

/**
 * vatom_batch_reset() - empty a batch for reuse
 * @b: the batch
 *
 * Drops every packet, result and error; keeps the bindings and the
 * allocated memory. A batch may also be submitted again unchanged.
 */
VATOM_API void vatom_batch_reset(struct vatom_batch *b);

/**
 * vatom_batch_bind() - bind a surface to a slot of the binding table
 * @b: the batch
 * @slot: 0 .. %DRM_VATOM_MAX_SLOTS - 1 (%VATOM_T0, %VATOM_T255 for vISA)
 * @s: the surface, or NULL to unbind the slot
 *
 * A surface may be bound to several slots. Binding is by reference: the
 * surface must stay alive while the batch is submitted.
 *
 * Return: 0; -EINVAL for a slot out of range; -EXDEV for a surface of
 * another device.
 */
VATOM_API int vatom_batch_bind(struct vatom_batch *b, unsigned int slot,
			       struct vatom_surface *s);

/**
 * vatom_batch_packets() - number of packets in the batch
 * @b: the batch
 *
 * Return: the count.
 */
VATOM_API int vatom_batch_packets(const struct vatom_batch *b);

/**
 * vatom_batch_stream() - the encoded command stream
 * @b: the batch
 * @size: out (optional), bytes of the stream
 *
 * Return: the packets as they will be submitted (valid until the batch
 * changes).
 */
VATOM_API const void *vatom_batch_stream(const struct vatom_batch *b,
					 size_t *size);

/**
 * vatom_batch_packet() - one encoded packet
 * @b: the batch
 * @res: the packet's index (result handle)
 * @size: out (optional), the packet's size in bytes
 *
 * Return: the packet (starting with struct drm_vatom_packet), or NULL
 * for an index out of range.
 */
VATOM_API const void *vatom_batch_packet(const struct vatom_batch *b, int res,
					 size_t *size);

/**
 * vatom_batch_results_size() - bytes of results the stream produces
 * @b: the batch
 *
 * Computed by the library from the UAPI rules; the kernel's own count
 * (results_needed) must agree, or the submission reports -EPROTO.
 *
 * Return: the size in bytes.
 */
VATOM_API uint64_t vatom_batch_results_size(const struct vatom_batch *b);

/**
 * vatom_batch_submit() - validate and execute the batch, synchronously
 * @b: the batch
 *
 * Results land in a buffer owned by the batch (zero-filled first, so a
 * disabled lane reads as 0) and are read with vatom_result_*() until the
 * batch changes or is submitted again.
 *
 * Return: 0; -ENODEV for an offline batch; -EINVAL for a rejected stream
 * (vatom_batch_error() names the packet and reason; nothing was executed);
 * -EOPNOTSUPP for a valid encoding the device does not implement (also
 * with a packet and reason); -ENOENT for a destroyed surface; -E2BIG past
 * the device's limits; -ENOMEM; -EPROTO when the kernel's result size
 * disagrees with the library's (results are then unavailable);
 * -ETIMEDOUT when the job ran past the job timeout and was stopped, -EIO
 * when it faulted (either way a prefix of its packets ran, there are no
 * results, and the device is guilty), or -EIO without executing while the
 * device is guilty (vatom_device_reset_status()).
 */
VATOM_API int vatom_batch_submit(struct vatom_batch *b);

/**
 * vatom_batch_validate() - have the kernel check the batch, executing nothing
 * @b: the batch, its surfaces bound
 *
 * The submission vatom_batch_submit() would make, with
 * %DRM_VATOM_SUBMIT_VALIDATE_ONLY: every packet, the stream's cost, the
 * bindings and the result destination are checked as they would be, and
 * nothing executes or changes. vatom_batch_error() then names the first
 * failing packet and the reason, as after a rejected submission; there are
 * no results to read.
 *
 * Return: 0 when the batch would be accepted; the negative errno the
 * submission would return (-EINVAL with a packet and reason, -E2BIG past the
 * cost limit, ...); -EINVAL from a kernel without
 * %DRM_VATOM_CAP_VALIDATE_ONLY (it rejects the flag).
 */
VATOM_API int vatom_batch_validate(struct vatom_batch *b);

/**
 * vatom_batch_submit_to() - like vatom_batch_submit(), results into a surface
 * @b: the batch
 * @results: a buffer surface of the same device (needs
 *	%DRM_VATOM_CAP_RESULT_SURFACE)
 * @offset: byte offset of the first result in @results
 *
 * The results are read with vatom_result_*() through the surface's
 * mapping (so the surface must outlive those reads), or by anyone the
 * surface is shared with. The surface is not cleared first: disabled lanes
 * keep what the surface held. @offset must be a multiple of 8.
 *
 * Return: as vatom_batch_submit(); -EXDEV for a surface of another device.
 */
VATOM_API int vatom_batch_submit_to(struct vatom_batch *b,
				    struct vatom_surface *results,
				    uint64_t offset);

/**
 * vatom_batch_error() - outcome of the last submission
 * @b: the batch
 * @index: out (optional), index of the packet the kernel rejected
 * @reason: out (optional), DRM_VATOM_ERR_* (DRM_VATOM_ERR_NONE on success)
 *
 * Return: the last submission's return value (0 when none was made).
 */
VATOM_API int vatom_batch_error(const struct vatom_batch *b, uint32_t *index,
				uint32_t *reason);

/**
 * vatom_batch_results() - the raw result bytes of the last submission
 * @b: the batch
 * @size: out (optional), bytes of results
 *
 * Return: the results, or NULL when there are none available.
 */
VATOM_API const void *vatom_batch_results(const struct vatom_batch *b,
					  size_t *size);

#if defined(__cplusplus)
}
#endif

#endif /* _VATOM_BATCH_H_ */
