// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * GET_PARAM: feature discovery. Capabilities and op masks come from the
 * engine's own tables, so what is reported is what is implemented; what
 * every device reports alike, and which parameters exist, from
 * vatom_param_fixed() (vatom_rules.h), which the in-process device
 * answers with too.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <drm/drm_device.h>
#include <drm/drm_file.h>

#include "vatom_device.h"
#include "vatom_ioctl.h"
#include "vatom_job.h"
#include "vatom_limits.h"

int vatom_ioctl_get_param(struct drm_device *dev, void *data,
			  struct drm_file *file)
{
	struct drm_vatom_get_param *args = data;
	int ret = vatom_param_fixed(args->param, args->index, &args->value);

	if (ret <= 0)
		return ret;

	/* The policy limits, and the file's charge. */
	switch (args->param) {
	case DRM_VATOM_PARAM_MAX_JOBS:
		args->value = vatom_max_jobs();
		break;
	case DRM_VATOM_PARAM_FILE_MEM_CAP:
		args->value = vatom_file_mem_cap();
		break;
	case DRM_VATOM_PARAM_MAX_SUBMIT_OPS:
		args->value = vatom_max_submit_ops();
		break;
	case DRM_VATOM_PARAM_FILE_MEM_CHARGED:
		args->value = atomic64_read(&vatom_file_account(file)->bytes);
		break;
	case DRM_VATOM_PARAM_MAX_POLL_QUEUES:
		args->value = vatom_max_poll_queues();
		break;
	case DRM_VATOM_PARAM_JOB_TIMEOUT_MS:
		args->value = vatom_job_timeout_ms();
		break;
	default:	/* DRM_VATOM_PARAM_MAX_SCHEDULERS */
		args->value = vatom_max_schedulers();
		break;
	}
	return 0;
}
