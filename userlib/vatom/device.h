/* SPDX-License-Identifier: MIT */
/*
 * libvatom: Devices.
 * One area of the library's interface: programs include <vatom.h>,
 * which includes them all; this header also compiles alone.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_DEVICE_H_
#define _VATOM_DEVICE_H_

#include <vatom/common.h>

#if defined(__cplusplus)
extern "C" {
#endif

/**
 * vatom_device_count() - count the vatom devices of this system
 *
 * Devices are found through libdrm (drmGetDevices2(): every render node
 * whose driver name, from drmGetVersion(), is "vatom"); where libdrm lists
 * none (e.g. sysfs is missing) the render nodes in /dev/dri are probed
 * directly. Devices are numbered by render-node minor, from 0.
 *
 * Return: the number of devices (0 when there are none), or -ENOMEM.
 */
VATOM_API int vatom_device_count(void);

/**
 * vatom_device_open() - open the @index-th vatom device
 * @index: 0 for the first device (see vatom_device_count())
 * @flags: must be 0
 * @devp: out, the new device
 *
 * Opens the render node with O_RDWR | O_CLOEXEC and reads the device's
 * UAPI version, capabilities and limits (GET_PARAM) once.
 *
 * Return: 0; -EINVAL for non-zero @flags or a NULL @devp; -ENODEV when
 * there is no @index-th device; -ENOMEM; or the errno of open().
 */
VATOM_API int vatom_device_open(unsigned int index, unsigned int flags,
				struct vatom_device **devp);

/**
 * vatom_device_open_path() - open a given DRM node that must be a vatom device
 * @path: e.g. "/dev/dri/renderD129"
 * @flags: must be 0
 * @devp: out, the new device
 *
 * Return: 0; -EINVAL for non-zero @flags or NULL arguments; -ENODEV when
 * the node's driver is not "vatom"; -ENOMEM; or the errno of open().
 */
VATOM_API int vatom_device_open_path(const char *path, unsigned int flags,
				     struct vatom_device **devp);

/**
 * vatom_device_close() - close a device
 * @dev: the device, or NULL
 *
 * Every surface and batch of @dev must have been destroyed before.
 */
VATOM_API void vatom_device_close(struct vatom_device *dev);

/**
 * vatom_device_fd() - the DRM file descriptor of a device
 * @dev: the device
 *
 * For use with libdrm (syncobjs, PRIME); the library keeps ownership.
 *
 * Return: the fd.
 */
VATOM_API int vatom_device_fd(const struct vatom_device *dev);

/**
 * vatom_device_node() - the path of the device's render node
 * @dev: the device
 *
 * Return: a string owned by @dev.
 */
VATOM_API const char *vatom_device_node(const struct vatom_device *dev);

/**
 * vatom_device_get_param() - query a device parameter (GET_PARAM)
 * @dev: the device
 * @param: a DRM_VATOM_PARAM_* value
 * @index: sub-index for indexed parameters (DRM_VATOM_PARAM_VISA_OPS...), else 0
 * @value: out, the value
 *
 * Return: 0; -EINVAL for an unknown @param or a bad @index; -EFAULT.
 */
VATOM_API int vatom_device_get_param(struct vatom_device *dev, uint32_t param,
				     uint32_t index, uint64_t *value);

/**
 * vatom_device_caps() - the device's DRM_VATOM_CAP_* bits (read at open)
 * @dev: the device
 *
 * Return: the capability mask.
 */
VATOM_API uint64_t vatom_device_caps(const struct vatom_device *dev);

/**
 * vatom_device_uapi_version() - the kernel's DRM_VATOM_UAPI_VERSION (read at open)
 * @dev: the device
 *
 * Return: the version (the library was built against %DRM_VATOM_UAPI_VERSION).
 */
VATOM_API uint32_t vatom_device_uapi_version(const struct vatom_device *dev);

/*
 * Job timeouts and resets: a job that times out or faults resets its
 * device's context (vatom_device_reset_status() has the model).
 */

/* vatom_device_reset_status() flags: the UAPI's DRM_VATOM_RESET_* bits */
#define VATOM_RESET_ACK		DRM_VATOM_RESET_ACK

/* Reset statuses: the UAPI's DRM_VATOM_RESET_* values */
enum vatom_reset {
	VATOM_RESET_NONE = DRM_VATOM_RESET_NONE,	 /* none since the last ACK */
	VATOM_RESET_GUILTY = DRM_VATOM_RESET_GUILTY,	 /* a job of this device's */
	VATOM_RESET_INNOCENT = DRM_VATOM_RESET_INNOCENT, /* only other files' jobs */
};

/**
 * struct vatom_reset_status - a device's reset status
 * @status: enum vatom_reset, as it was before the call's acknowledgement:
 *	%VATOM_RESET_GUILTY while a reset the device caused is not
 *	acknowledged; else %VATOM_RESET_INNOCENT when other files caused
 *	resets since the last acknowledgement; else %VATOM_RESET_NONE
 * @guilty: resets the device caused (its jobs that timed out or faulted)
 *	since it was opened
 * @innocent: resets other files caused since the device was opened
 */
struct vatom_reset_status {
	uint32_t status;
	uint64_t guilty;
	uint64_t innocent;
};

/**
 * vatom_device_reset_status() - a device's reset status; acknowledge it
 * @dev: the device
 * @flags: 0, or %VATOM_RESET_ACK: acknowledge the resets reported, after
 *	which the device is no longer guilty and submits again (its
 *	surfaces as the jobs left them), and reports %VATOM_RESET_NONE
 *	until the next reset
 * @out: out (optional), the status; written only on success
 *
 * The UAPI's "job timeouts and resets": a job still executing
 * %DRM_VATOM_PARAM_JOB_TIMEOUT_MS after it began is stopped between two
 * packets and fails with -ETIMEDOUT; a job that faults fails with -EIO.
 * Either way a prefix of its packets ran, each whole, and the job *reset*
 * its device (the open render node: one context), which is *guilty*
 * until it acknowledges: meanwhile its submissions fail with -EIO,
 * changing nothing; its queue jobs complete with status -EIO without
 * executing; and its asynchronous jobs submitted before the reset that
 * had not started complete with -ECANCELED. The failure is reported
 * where the job's outcome is: vatom_batch_submit(), vatom_fence_wait(),
 * vatom_queue_job_status() (vatom_strerror() describes each error).
 * Every other device (another open file, of this process or another, on
 * the same node too) is *innocent*: its jobs go on; it counts those
 * resets and reports %VATOM_RESET_INNOCENT until it acknowledges them.
 *
 * As GL_ARB_robustness's GetGraphicsResetStatus, a program that sees one
 * of these errors reads the status, recovers what it must (the surfaces
 * keep what the jobs that ran wrote) and acknowledges.
 *
 * Return: 0; -EINVAL for a NULL @dev or unknown @flags; -EOPNOTSUPP when
 * the device has no %DRM_VATOM_CAP_RESET_STATUS (its jobs are never
 * stopped).
 */
VATOM_API int vatom_device_reset_status(struct vatom_device *dev,
					unsigned int flags,
					struct vatom_reset_status *out);

#if defined(__cplusplus)
}
#endif

#endif /* _VATOM_DEVICE_H_ */
