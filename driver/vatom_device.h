/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * vatom: a virtual atomic accelerator (DRM render-node driver): the device,
 * its identity, limits and statistics. Types only, for every file.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_DEVICE_H_
#define _VATOM_DEVICE_H_

#include <linux/atomic.h>
#include <linux/percpu.h>
#include <linux/platform_device.h>

#include <drm/drm_device.h>

#include "vatom_engine.h"
#include "vatom_rules.h"

#define DRIVER_NAME	VATOM_NAME
#define DRIVER_DESC	VATOM_DESC
#define DRIVER_DATE	VATOM_DATE
/* VATOM_VERSION*: from the file VERSION (Kbuild), the project's one version. */
#define DRIVER_MAJOR	VATOM_VERSION_MAJOR
#define DRIVER_MINOR	VATOM_VERSION_MINOR
#define DRIVER_PATCHLEVEL	VATOM_VERSION_PATCH

/**
 * struct vatom_stats_counters - debugfs counters of one device, off the
 * submission path
 * @errors: rejected submissions (any errno)
 * @surfaces: live surfaces (created or imported, not yet freed)
 * @cancelled: jobs completed as cancelled, not executed
 * @job_timeouts: jobs stopped by the job timeout
 * @job_faults: jobs that failed with an (injected) engine fault
 * @resets: files reset: the sum of the two, each a file made guilty
 */
struct vatom_stats_counters {
	atomic64_t errors;
	atomic64_t surfaces;
	atomic64_t cancelled;
	atomic64_t job_timeouts;
	atomic64_t job_faults;
	atomic64_t resets;
};

/**
 * struct vatom_stats_pcpu - debugfs counters every submission updates, per
 * CPU: a this_cpu_*() operation instead of a locked one on a shared line;
 * debugfs shows the sums
 * @submissions: successful submissions
 * @jobs: live jobs (submitted, synchronous or not, and not yet freed); a
 *	job may be counted on one CPU and uncounted on another, so only the
 *	sum means something
 * @packets: packets executed per engine family
 * @elements: element operations per engine family
 */
struct vatom_stats_pcpu {
	u64 submissions;
	s64 jobs;
	u64 packets[VATOM_FAMILY_COUNT];
	u64 elements[VATOM_FAMILY_COUNT];
};

/**
 * struct vatom_device - one vatom device
 * @drm: the DRM device, embedded
 * @platform: the platform device it hangs off
 * @stats: debugfs counters
 * @pcpu: debugfs counters of the submission path
 * @live_fences: live job fences made on devices of this index (the
 *	module's: a fence can outlive its job, file and device)
 * @wq: executes asynchronous jobs, and runs their schedulers' work
 *	(vatom_sched.c)
 * @poll_queues: polling queues of all files (their pollers are one per
 *	process: vatom_queue_poll.c)
 * @schedulers: GPU schedulers of all files, one per file that has had an
 *	asynchronous job (vatom_sched.c)
 */
struct vatom_device {
	struct drm_device drm;
	struct platform_device *platform;
	struct vatom_stats_counters stats;
	struct vatom_stats_pcpu __percpu *pcpu;
	atomic64_t *live_fences;
	struct workqueue_struct *wq;
	atomic_t poll_queues;
	atomic_t schedulers;
};

static inline struct vatom_device *to_vatom_device(struct drm_device *drm)
{
	return container_of(drm, struct vatom_device, drm);
}

#endif /* _VATOM_DEVICE_H_ */
