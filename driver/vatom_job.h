/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * vatom: jobs (submissions) and their fences.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_JOB_H_
#define _VATOM_JOB_H_

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/dma-fence.h>
#include <linux/kref.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include <drm/drm_file.h>
#include <drm/drm_syncobj.h>

#include "vatom_device.h"
#include "vatom_engine.h"
#include "vatom_exec.h"
#include "vatom_file.h"
#include "vatom_gem.h"

struct vatom_device;
struct vatom_surface;

/* In- and out-syncobjs of one submission, each. */
#define VATOM_MAX_SYNCS		64

/**
 * struct vatom_fence - the completion fence of a job
 * @base: the dma_fence, first (dma_fence_free() frees it)
 * @lock: the fence's lock; the fence may outlive the file and the job
 * @vdev: the device, for its live-fence counter
 */
struct vatom_fence {
	struct dma_fence base;
	spinlock_t lock; /* the dma_fence lock */
	struct vatom_device *vdev;
};

/**
 * struct vatom_dep - one fence a job waits for
 * @cb: the callback on @fence
 * @fence: the fence, referenced
 * @job: the waiting job
 * @external: an in-syncobj (its error fails the job, close cancels the
 *	wait), not the file's previous job (ordering only)
 * @armed: @cb is installed (the fence had not signalled)
 */
struct vatom_dep {
	struct dma_fence_cb cb;
	struct dma_fence *fence;
	struct vatom_job *job;
	bool external;
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
 * @vfile: the submitting file
 * @link: in @vfile->jobs
 * @work: runs the job on the device's workqueue
 * @ready: a synchronous job's dependencies are all met (set up when it is
 *	pushed: the direct path does not wait)
 * @state: VATOM_JOB_* (synchronous jobs: who runs the job)
 * @pending: dependencies not yet signalled, plus one while submitting
 * @dep_error: error of the first in-syncobj fence that failed
 * @exec: the job's control block: when its execution stops early
 * @id: the job's number in its file (tracepoints), once accepted
 * @ops: element operations the stream costs, as validated
 * @async: returns before execution
 * @cancelled: the file was closed while an in-syncobj was unsignalled
 * @inflight: the job holds one of the file's in-flight slots
 * @fence: the job's fence, once submitted
 * @ndeps: entries used in @deps
 * @deps: fences to wait for: in-syncobjs, then the previous job
 * @dep_prev: @deps of a job without in-syncobjs
 * @nouts: entries used in @outs
 * @outs: syncobjs to signal
 * @charged: bytes charged to @vfile->acct for the job: its own memory and
 *	its kernel copy of user results
 * @result_surf: result surface, if results go to one
 * @results: where results are written (surface or @bounce)
 * @stream_size: bytes of the stream in @stream
 * @bounce: kernel copy of the user result region (@bounce_small or
 *	allocated)
 * @fence_mem: the fence before it is initialised
 * @stream: kernel copy of the command stream, charged to the file
 * @table: the surfaces bound, by slot
 * @bounce_small: @bounce of small result regions
 *
 * A freed job is kept by its file for the next submission: the members
 * from @fence_mem on are then not cleared but left clean (unused
 * @fence_mem, no slot bound), which saves clearing two 2 KiB slot tables
 * per submission; @stream keeps its buffer, still charged, for the next
 * stream that fits (under TCG a fresh vmalloc'ed page costs a fault and a
 * clear, more than the atomics themselves on real CPUs).
 */
struct vatom_job {
	struct vatom_file *vfile;
	struct list_head link;
	struct work_struct work;
	struct completion ready;
	atomic_t state;
	atomic_t pending;
	int dep_error;
	struct vatom_exec exec;
	u64 id;
	u64 ops;
	bool async;
	bool cancelled;
	bool inflight;
	struct vatom_fence *fence;
	unsigned int ndeps;
	struct vatom_dep *deps;
	struct vatom_dep dep_prev;
	unsigned int nouts;
	struct vatom_out_sync *outs;
	u64 charged;
	struct vatom_surface *result_surf;
	u8 *results;
	u32 stream_size;
	u8 *bounce;

	/* Kept clean across reuse: see above. */
	struct vatom_fence *fence_mem;
	struct vatom_stream_buf stream;
	struct vatom_binding_table table;
	u8 bounce_small[VATOM_JOB_BOUNCE_SMALL] __aligned(8);
};

/* vatom_fence.c */
void vatom_fence_init(struct vatom_fence *vf, struct vatom_device *vdev,
		      u64 context, u64 seqno);

/* vatom_job.c */
struct vatom_job *vatom_job_alloc(struct vatom_file *vfile, bool async,
				  unsigned int in_syncs, unsigned int out_syncs);
int vatom_job_charge(struct vatom_job *job, u64 bytes);
u8 *vatom_job_bounce(struct vatom_job *job, u64 size);
void vatom_job_free(struct vatom_job *job);
void vatom_job_push(struct vatom_job *job);
int vatom_job_wait_deps(struct vatom_job *job);
int vatom_job_run_direct(struct vatom_job *job);
int vatom_job_run_sync(struct vatom_job *job, bool *abandoned);
void vatom_file_jobs_release(struct vatom_file *vfile);

#endif /* _VATOM_JOB_H_ */
