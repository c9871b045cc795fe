/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * vatom: jobs (submissions), synchronous or asynchronous (vatom_job.c).
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_JOB_H_
#define _VATOM_JOB_H_

#include <linux/atomic.h>
#include <linux/dma-fence.h>
#include <linux/list.h>
#include <linux/types.h>

#include <drm/drm_syncobj.h>
#include <drm/gpu_scheduler.h>

#include "vatom_exec.h"
#include "vatom_fence.h"
#include "vatom_file.h"
#include "vatom_gem.h"

struct vatom_surface;

/**
 * struct vatom_dep - one in-syncobj fence an asynchronous job waits for
 * @cb: the callback on @fence
 * @fence: the fence, referenced
 * @job: the waiting job
 * @armed: @cb is installed (the fence had not signalled)
 */
struct vatom_dep {
	struct dma_fence_cb cb;
	struct dma_fence *fence;
	struct vatom_job *job;
	bool armed;
};

/**
 * struct vatom_out_sync - one syncobj a job signals
 * @syncobj: the syncobj, referenced
 * @chain: preallocated chain node for a timeline point, else NULL
 * @point: the timeline point, 0 for a binary syncobj
 */
struct vatom_out_sync {
	struct drm_syncobj *syncobj;
	struct dma_fence_chain *chain;
	u64 point;
};

/* Results up to this size need no bounce allocation (vatom_job.bounce_small). */
#define VATOM_JOB_BOUNCE_SMALL	128

/**
 * struct vatom_job - one submission, synchronous or asynchronous
 * @base: the scheduler's job (asynchronous jobs, vatom_sched.c)
 * @vfile: the submitting file
 * @link: in @vfile->jobs (asynchronous jobs with in-syncobjs, once pushed)
 * @run_link: in its scheduler's &vatom_sched.runnable
 * @pending: in-syncobj fences not yet signalled, plus one while pushing
 * @dep_error: error of the first in-syncobj fence that failed
 * @exec: the job's control block: when its execution stops early
 * @id: the job's number in its file (tracepoints), once accepted
 * @ops: element operations the stream costs, as validated
 * @async: returns before execution
 * @cancelled: the file was closed while an in-syncobj was unsignalled
 * @inflight: the job holds one of the file's in-flight slots
 * @fence: the fence of its execution: an asynchronous job's hardware
 *	fence (run_job's), a synchronous job's fence for its out-syncobjs
 * @deps_fence: what the scheduler waits for in place of the in-syncobjs
 *	(asynchronous jobs with in-syncobjs)
 * @ndeps: entries used in @deps
 * @deps: the in-syncobjs' fences
 * @nouts: entries used in @outs
 * @outs: syncobjs to signal
 * @charged: bytes charged to @vfile->acct for the job: its own memory and
 *	its kernel copy of user results
 * @result_surf: result surface, if results go to one
 * @results: where results are written (surface or @bounce)
 * @stream_size: bytes of the stream in @stream
 * @bounce: kernel copy of the user result region (@bounce_small or
 *	allocated)
 * @fence_mem: @fence before it is initialised
 * @stream: kernel copy of the command stream, charged to the file
 * @table: the surfaces bound, by slot
 * @bounce_small: @bounce of small result regions
 *
 * A freed job is kept by its file for the next submission: the members
 * from @exec on are then not cleared but left clean (unused @fence_mem,
 * no slot bound) or set up again (@exec, by vatom_exec_init()), which
 * saves clearing two 2 KiB slot tables per submission; @stream keeps its
 * buffer, still charged, for the next stream that fits (under TCG a fresh
 * vmalloc'ed page costs a fault and a clear, more than the atomics
 * themselves on real CPUs).
 */
struct vatom_job {
	struct drm_sched_job base;
	struct vatom_file *vfile;
	struct list_head link;
	struct list_head run_link;
	atomic_t pending;
	int dep_error;
	u64 id;
	u64 ops;
	bool async;
	bool cancelled;
	bool inflight;
	struct vatom_fence *fence;
	struct vatom_fence *deps_fence;
	unsigned int ndeps;
	struct vatom_dep *deps;
	unsigned int nouts;
	struct vatom_out_sync *outs;
	u64 charged;
	struct vatom_surface *result_surf;
	u8 *results;
	u32 stream_size;
	u8 *bounce;

	/* Kept clean across reuse, or set up again: see above. */
	struct vatom_exec exec;
	struct vatom_fence *fence_mem;
	struct vatom_stream_buf stream;
	struct vatom_binding_table table;
	u8 bounce_small[VATOM_JOB_BOUNCE_SMALL] __aligned(8);
};

/* vatom_job.c */
struct vatom_job *vatom_job_alloc(struct vatom_file *vfile, bool async,
				  unsigned int in_syncs, unsigned int out_syncs);
int vatom_job_charge(struct vatom_job *job, u64 bytes);
int __vatom_job_bounce(struct vatom_job *job, u64 size);

/**
 * vatom_job_bounce() - give a job its kernel copy of a user result region
 * @job: the job, not yet pushed
 * @size: bytes, at most %VATOM_MAX_RESULTS_SIZE
 *
 * Small regions use the job's own &vatom_job.bounce_small, which needs no
 * allocation or charge (a synchronous job lives within its call); larger
 * ones are allocated and charged to the file. Either is freed with the
 * job.
 *
 * Return: 0, -ENOSPC or -ENOMEM.
 */
static inline int vatom_job_bounce(struct vatom_job *job, u64 size)
{
	if (size > sizeof(job->bounce_small))
		return __vatom_job_bounce(job, size);
	job->bounce = job->bounce_small;
	return 0;
}

void vatom_job_free(struct vatom_job *job);
int vatom_job_admit(struct vatom_job *job);
void vatom_job_accept(struct vatom_job *job, struct dma_fence *fence);
void vatom_job_install_outs(struct vatom_job *job, struct dma_fence *fence);
void vatom_job_run(struct vatom_job *job);
int vatom_job_run_sync(struct vatom_job *job);
void vatom_file_spare_job_free(struct vatom_file *vfile);

#endif /* _VATOM_JOB_H_ */
