/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * vatom: asynchronous jobs on the DRM GPU scheduler (vatom_sched.c).
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_SCHED_H_
#define _VATOM_SCHED_H_

#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include <drm/gpu_scheduler.h>

#include "vatom_fence.h"

struct vatom_file;
struct vatom_job;

/**
 * struct vatom_sched - the GPU scheduler of one file's asynchronous jobs
 * @base: the scheduler
 * @entity: the file's one entity on it
 * @list: @base, as drm_sched_entity_init() takes it
 * @hold: one reference for the file, one per hardware fence of its
 *	jobs: the scheduler's fences, which outlive the file, name their
 *	timeline after @base
 * @vfile: the file, while it is open
 * @context: the fence context of the hardware fences
 * @seqno: the last hardware fence's seqno (run_job is serialised)
 * @lock: protects @runnable and @running
 * @runnable: jobs run_job has handed over and @work has not started, in
 *	the order received
 * @running: @work is queued or running
 * @work: executes @runnable, one job after another
 * @name: @base's name
 */
struct vatom_sched {
	struct drm_gpu_scheduler base;
	struct drm_sched_entity entity;
	struct drm_gpu_scheduler *list[1];
	struct vatom_fence_hold hold;
	struct vatom_file *vfile;
	u64 context;
	u64 seqno;
	spinlock_t lock; /* see above */
	struct list_head runnable;
	bool running;
	struct work_struct work;
	char name[32];
};

int vatom_sched_push(struct vatom_job *job);
void vatom_file_jobs_stop_waiting(struct vatom_file *vfile);
void vatom_file_jobs_release(struct vatom_file *vfile);

#endif /* _VATOM_SCHED_H_ */
