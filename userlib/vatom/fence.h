/* SPDX-License-Identifier: MIT */
/*
 * libvatom: Asynchronous submission and fences.
 * One area of the library's interface: programs include <vatom.h>,
 * which includes them all; this header also compiles alone.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_FENCE_H_
#define _VATOM_FENCE_H_

#include <vatom/common.h>

#if defined(__cplusplus)
extern "C" {
#endif

/*
 * Every submission on a device (an open render node: one context) is a job;
 * jobs of one device execute in submission order, synchronous and
 * asynchronous alike, so vatom_batch_submit() after vatom_submit_async()
 * sees its effects. A job can also wait for fences: of jobs of this or
 * another vatom device, or of any driver, imported from a sync_file.
 * docs/async.md has the whole model.
 */

/* In-fences one vatom_submit_async() takes at most (the kernel's MAX_SYNCS). */
#define VATOM_MAX_IN_FENCES	64

/**
 * vatom_submit_async() - queue the batch for execution and return at once
 * @b: the batch
 * @results: a buffer surface of the same device receiving the results at
 *	@offset (a multiple of 8), or NULL when the batch returns none
 * @offset: byte offset of the results in @results
 * @in_fences: fences the job waits for (of the same device; import others
 *	with vatom_fence_import_sync_file()), or NULL
 * @in_count: entries at @in_fences, at most %VATOM_MAX_IN_FENCES
 * @out_fence: out (optional), a new fence that signals when the job has
 *	completed; destroy it with vatom_fence_destroy()
 *
 * The kernel copies and validates the whole stream before returning, so a
 * malformed batch is reported here (vatom_batch_error()) and the batch can
 * be changed, reset or submitted again while the job is in flight. The
 * vatom_result_*() accessors read the results through @results' mapping:
 * only once the fence has signalled. The bound surfaces are referenced by
 * the job: destroying them meanwhile is safe.
 *
 * A job whose in-fence fails does not execute, and its fence carries that
 * error; so does a job still waiting for an in-fence when the device is
 * closed (-ECANCELED). A job that times out or faults carries -ETIMEDOUT
 * or -EIO and makes the device guilty; its jobs submitted before that had
 * not started then carry -ECANCELED (vatom_device_reset_status()).
 *
 * Return: 0; -EINVAL (also for results without @results, see
 * vatom_batch_submit()); -EXDEV for a surface or fence of another device;
 * -E2BIG; -EBUSY when the device already has %DRM_VATOM_PARAM_MAX_JOBS
 * jobs in flight (wait for one and retry); -ENOSPC past the per-file
 * memory cap; -ENOENT; -ENOMEM; -ENODEV for an offline batch; -EIO while
 * the device is guilty of a reset (vatom_device_reset_status()).
 */
VATOM_API int vatom_submit_async(struct vatom_batch *b,
				 struct vatom_surface *results, uint64_t offset,
				 struct vatom_fence *const *in_fences,
				 unsigned int in_count,
				 struct vatom_fence **out_fence);

/**
 * vatom_fence_wait() - wait until a fence signals or a deadline passes
 * @f: the fence
 * @abs_timeout_ns: absolute CLOCK_MONOTONIC deadline in nanoseconds (0 or
 *	any past time: just poll; INT64_MAX: no deadline)
 *
 * The wait is restarted after a signal handler runs; the deadline stays.
 *
 * Return: 0 when the job completed; -ETIME when the deadline passed first;
 * the job's error when it did not execute (-ECANCELED, or the error of the
 * fence it waited for) or did not complete (-ETIMEDOUT when the job
 * timeout stopped it, -EIO when it faulted: a prefix of its packets ran,
 * and the device is guilty); -EINVAL for a NULL @f.
 */
VATOM_API int vatom_fence_wait(struct vatom_fence *f, int64_t abs_timeout_ns);

/**
 * vatom_fence_status() - look at a fence without waiting
 * @f: the fence
 *
 * Return: 1 signalled and successful; 0 still pending; the job's negative
 * error (e.g. -ECANCELED, -ETIMEDOUT, -EIO: see vatom_fence_wait()) when
 * it signalled with one.
 */
VATOM_API int vatom_fence_status(struct vatom_fence *f);

/**
 * vatom_fence_export_sync_file() - the fence as a sync_file
 * @f: the fence
 * @fd: out, a new sync_file fd (the caller closes it)
 *
 * For other drivers and APIs (EGL/Vulkan sync fds, poll(), another vatom
 * device). SYNC_IOC_FILE_INFO on it reports the job's status.
 *
 * Return: 0; -EINVAL; -EMFILE; -ENOMEM.
 */
VATOM_API int vatom_fence_export_sync_file(struct vatom_fence *f, int *fd);

/**
 * vatom_fence_import_sync_file() - a fence of @dev from a sync_file
 * @dev: the device whose jobs will wait for it
 * @fd: a sync_file fd from any driver; it stays the caller's
 * @fp: out, the new fence (vatom_fence_destroy() it)
 *
 * Return: 0; -EINVAL for a bad @fd or NULL arguments; -ENOMEM.
 */
VATOM_API int vatom_fence_import_sync_file(struct vatom_device *dev, int fd,
					   struct vatom_fence **fp);

/**
 * vatom_fence_syncobj() - the binary DRM syncobj behind a fence
 * @f: the fence
 *
 * A handle on vatom_device_fd(), owned by @f, for libdrm (drmSyncobj*) or
 * raw submissions.
 *
 * Return: the handle.
 */
VATOM_API uint32_t vatom_fence_syncobj(const struct vatom_fence *f);

/**
 * vatom_fence_destroy() - release a fence
 * @f: the fence, or NULL
 *
 * The job itself is not affected: it completes whether or not anyone
 * holds its fence.
 */
VATOM_API void vatom_fence_destroy(struct vatom_fence *f);

#if defined(__cplusplus)
}
#endif

#endif /* _VATOM_FENCE_H_ */
