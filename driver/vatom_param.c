// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * GET_PARAM: feature discovery. Capabilities and op masks come from the
 * engine's own tables, so what is reported is what is implemented.
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

	switch (args->param) {
	case DRM_VATOM_PARAM_VISA_OPS:
		if (args->index > DRM_VATOM_VISA_FORM_TYPED16)
			return -EINVAL;
		args->value = vatom_visa_ops_mask(args->index);
		return 0;
	case DRM_VATOM_PARAM_PTX_OPS:
		if (args->index < DRM_VATOM_PTX_TYPE_B16 ||
		    args->index > DRM_VATOM_PTX_TYPE_F64)
			return -EINVAL;
		args->value = vatom_ptx_ops_mask(args->index);
		return 0;
	case DRM_VATOM_PARAM_NOC_OPCODES:
		if (args->index > DRM_VATOM_NOC_PROFILE_BLACKHOLE)
			return -EINVAL;
		args->value = vatom_noc_opcodes_mask(args->index);
		return 0;
	}

	/* The remaining parameters take no index. */
	if (args->index)
		return -EINVAL;

	switch (args->param) {
	case DRM_VATOM_PARAM_UAPI_VERSION:
		args->value = DRM_VATOM_UAPI_VERSION;
		break;
	case DRM_VATOM_PARAM_CAPS:
		args->value = vatom_engine_caps() | DRM_VATOM_CAP_RESULT_SURFACE |
			      DRM_VATOM_CAP_NOC_COUNTERS | DRM_VATOM_CAP_SUBMIT_ASYNC |
			      DRM_VATOM_CAP_SYNCOBJ | DRM_VATOM_CAP_VALIDATE_ONLY |
			      DRM_VATOM_CAP_QUEUE | DRM_VATOM_CAP_QUEUE_POLL |
			      DRM_VATOM_CAP_QUEUE_SIGNAL |
			      DRM_VATOM_CAP_RESET_STATUS |
			      DRM_VATOM_CAP_QUEUE_POLL_CPU;
		break;
	case DRM_VATOM_PARAM_MAX_SURFACE_SIZE:
		args->value = VATOM_MAX_SURFACE_SIZE;
		break;
	case DRM_VATOM_PARAM_MAX_STREAM_SIZE:
		args->value = VATOM_MAX_STREAM_SIZE;
		break;
	case DRM_VATOM_PARAM_MAX_SLOTS:
		args->value = DRM_VATOM_MAX_SLOTS;
		break;
	case DRM_VATOM_PARAM_MAX_RESULTS_SIZE:
		args->value = VATOM_MAX_RESULTS_SIZE;
		break;
	case DRM_VATOM_PARAM_MAX_JOBS:
		args->value = vatom_max_jobs();
		break;
	case DRM_VATOM_PARAM_FILE_MEM_CAP:
		args->value = vatom_file_mem_cap();
		break;
	case DRM_VATOM_PARAM_MAX_SYNCS:
		args->value = VATOM_MAX_SYNCS;
		break;
	case DRM_VATOM_PARAM_MAX_SUBMIT_OPS:
		args->value = vatom_max_submit_ops();
		break;
	case DRM_VATOM_PARAM_FILE_MEM_CHARGED:
		args->value = atomic64_read(&vatom_file_account(file)->bytes);
		break;
	case DRM_VATOM_PARAM_MAX_QUEUE_ENTRIES:
		args->value = DRM_VATOM_QUEUE_MAX_ENTRIES;
		break;
	case DRM_VATOM_PARAM_MAX_QUEUES:
		args->value = VATOM_MAX_QUEUES;
		break;
	case DRM_VATOM_PARAM_MAX_POLL_QUEUES:
		args->value = vatom_max_poll_queues();
		break;
	case DRM_VATOM_PARAM_MAX_POLL_IDLE_US:
		args->value = vatom_max_poll_idle_us();
		break;
	case DRM_VATOM_PARAM_JOB_TIMEOUT_MS:
		args->value = vatom_job_timeout_ms();
		break;
	case DRM_VATOM_PARAM_MAX_SCHEDULERS:
		args->value = vatom_max_schedulers();
		break;
	default:
		return -EINVAL;
	}
	return 0;
}
