// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Resets: what a job that timed out or faulted does to its file, and the
 * file's reset status (UAPI "job timeouts and resets", docs/robustness.md).
 *
 * A CPU-executed job cannot wedge the device, so a reset is the file's
 * alone: the file that caused it is guilty until it acknowledges, and
 * refuses work meanwhile; every other file is innocent and goes on. The
 * counts are the file's and the device's: a file's innocent resets are
 * the device's since the file was opened, less its own.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <linux/device.h>

#include <drm/drm_file.h>
#include <drm/vatom_drm.h>

#include "vatom_file.h"
#include "vatom_ioctl.h"

/**
 * vatom_file_reset() - a job of the file timed out or faulted: the file
 * is guilty until it acknowledges
 * @vfile: the file
 * @job: the job's number in the file (0 for a queue job)
 * @error: -ETIMEDOUT or -EIO
 */
void vatom_file_reset(struct vatom_file *vfile, u64 job, int error)
{
	struct vatom_device *vdev = vfile->vdev;

	if (error == -ETIMEDOUT)
		atomic64_inc(&vdev->stats.job_timeouts);
	else
		atomic64_inc(&vdev->stats.job_faults);
	atomic_inc(&vfile->resets);
	atomic64_inc(&vdev->stats.resets);
	dev_notice_ratelimited(vdev->drm.dev,
			       "client %llu: job %llu %s: context reset, guilty\n",
			       vfile->client_id, job,
			       error == -ETIMEDOUT ? "timed out" : "faulted");
}

/* Resets of the device since @vfile was opened. */
static u64 vatom_device_resets_since_open(struct vatom_file *vfile)
{
	return atomic64_read(&vfile->vdev->stats.resets) - vfile->device_resets_open;
}

static u64 vatom_file_innocent(struct vatom_file *vfile, u64 guilty)
{
	return vatom_rule_innocent(vatom_device_resets_since_open(vfile), guilty);
}

/**
 * vatom_ioctl_reset_status() - DRM_IOCTL_VATOM_RESET_STATUS
 * @dev: the device
 * @data: struct drm_vatom_reset_status
 * @file: the file asking
 *
 * Return: 0, -EINVAL for unknown flags or non-zero padding, or
 * -ERESTARTSYS when interrupted waiting for the file's synchronous job.
 */
int vatom_ioctl_reset_status(struct drm_device *dev, void *data,
			     struct drm_file *file)
{
	struct drm_vatom_reset_status *args = data;
	struct vatom_file *vfile = file->driver_priv;
	unsigned int guilty;
	u64 innocent;

	if (vatom_rule_reset_status(args))
		return -EINVAL;

	/*
	 * Orders acknowledgements with the submissions that check them. A
	 * synchronous job holds the lock while it executes (up to the job
	 * timeout): wait for it interruptibly.
	 */
	if (mutex_lock_interruptible(&vfile->lock))
		return -ERESTARTSYS;
	guilty = atomic_read(&vfile->resets);
	innocent = vatom_rule_reset_report(args, guilty,
					   atomic_read(&vfile->resets_acked),
					   vatom_device_resets_since_open(vfile),
					   vfile->innocent_acked);
	if (args->flags & DRM_VATOM_RESET_ACK) {
		atomic_set(&vfile->resets_acked, guilty);
		vfile->innocent_acked = innocent;
	}
	mutex_unlock(&vfile->lock);
	return 0;
}

/**
 * vatom_file_resets() - a file's reset counts, for fdinfo
 * @vfile: the file
 * @guilty: out, resets it caused
 * @innocent: out, resets other files caused since it was opened
 */
void vatom_file_resets(struct vatom_file *vfile, u64 *guilty, u64 *innocent)
{
	*guilty = atomic_read(&vfile->resets);
	*innocent = vatom_file_innocent(vfile, *guilty);
}
