/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * vatom: jobs (submissions), their fences and the per-file context.
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

#include "vatom_drv.h"
#include "vatom_engine.h"

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
 * struct vatom_account - the bytes one file makes the kernel hold, against
 * its memory cap (vatom_file_mem_cap())
 * @ref: one for the file, one for each surface it owns: an owned surface
 *	stays charged after the file is closed, for as long as it lives
 * @bytes: bytes charged
 *
 * Charged: every surface the file owns (got the first handle to) for its
 * whole life, every surface it holds another handle to while it does,
 * its stream buffers (in use or kept), the jobs it has in flight and
 * their kernel copies of user results.
 */
struct vatom_account {
	struct kref ref;
	atomic64_t bytes;
};

/**
 * struct vatom_file - per-file (per-context) state, drm_file.driver_priv
 * @vdev: the device
 * @acct: what the file is charged for
 * @lock: protects @jobs, @last_fence and @seqno, and orders the file's
 *	jobs: a direct job executes under it (vatom_job_run_direct()), so a
 *	job pushed meanwhile comes after it
 * @jobs: jobs submitted and not yet freed, in submission order
 * @last_fence: fence of the last job submitted (every job waits for it)
 * @context: the fence context of this file's jobs
 * @seqno: sequence number of the last job submitted
 * @inflight: jobs counted against the in-flight limit
 * @live: jobs not yet freed, plus one held by the open file
 * @idle: completed when @live drops to zero
 * @cancel: the file is closing and its jobs are to stop: those not
 *	started are cancelled, those executing stop at their next checkpoint
 * @spare_lock: protects @spare, @spare_size and @spare_job
 * @spare: one stream buffer kept for the file's next submission, or NULL
 * @spare_size: bytes of @spare
 * @spare_job: one freed job kept for the file's next submission, or NULL
 * @queues: the file's user-mode queues by id (vatom_queue.c)
 * @client_id: the file's number, as fdinfo's drm-client-id and tracepoints
 *	show it
 * @submitted: submissions accepted; a job's number is the count with it
 * @completed: jobs completed (executed, failed or cancelled)
 * @rejected: submissions that failed before execution
 * @busy_ns: time spent executing the file's jobs, per family (a job's time
 *	shared out by its element operations)
 */
struct vatom_file {
	struct vatom_device *vdev;
	struct vatom_account *acct;
	u64 client_id;
	atomic64_t submitted;
	atomic64_t completed;
	atomic64_t rejected;
	atomic64_t busy_ns[VATOM_FAMILY_COUNT];
	struct mutex lock; /* see above */
	struct list_head jobs;
	struct dma_fence *last_fence;
	u64 context;
	u64 seqno;
	atomic_t inflight;
	atomic_t live;
	struct completion idle;
	bool cancel;
	spinlock_t spare_lock; /* protects spare, spare_size, spare_job */
	void *spare;
	u32 spare_size;
	struct vatom_job *spare_job;
	struct xarray queues;
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
 * @ready: a synchronous job's dependencies are all met
 * @state: VATOM_JOB_* (synchronous jobs: who runs the job)
 * @pending: dependencies not yet signalled, plus one while submitting
 * @dep_error: error of the first in-syncobj fence that failed
 * @ctl: when the job's execution stops early (vatom_job_stop())
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
 * @stream: kernel copy of the command stream
 * @stream_size: bytes of @stream
 * @stream_alloc: bytes allocated at @stream (>= @stream_size)
 * @bounce: kernel copy of the user result region (@bounce_small or
 *	allocated)
 * @fence_mem: the fence before it is initialised
 * @table: the surfaces bound, by slot
 * @bounce_small: @bounce of small result regions
 *
 * A freed job is kept by its file for the next submission: the members
 * from @fence_mem on are then not cleared but left clean (unused
 * @fence_mem, no slot bound), which saves clearing two 2 KiB slot tables
 * per submission.
 */
struct vatom_job {
	struct vatom_file *vfile;
	struct list_head link;
	struct work_struct work;
	struct completion ready;
	atomic_t state;
	atomic_t pending;
	int dep_error;
	struct vatom_exec_ctl ctl;
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
	void *stream;
	u32 stream_size;
	u32 stream_alloc;
	u8 *bounce;

	/* Kept clean across reuse: see above. */
	struct vatom_fence *fence_mem;
	struct vatom_binding_table table;
	u8 bounce_small[VATOM_JOB_BOUNCE_SMALL] __aligned(8);
};

/* vatom_fence.c */
void vatom_fence_init(struct vatom_fence *vf, struct vatom_device *vdev,
		      u64 context, u64 seqno);

/* vatom_account.c */
struct vatom_account *vatom_account_create(void);
void vatom_account_get(struct vatom_account *acct);
void vatom_account_put(struct vatom_account *acct);
int vatom_account_charge(struct vatom_account *acct, u64 bytes);
void vatom_account_uncharge(struct vatom_account *acct, u64 bytes);

static inline struct vatom_account *vatom_file_account(struct drm_file *file)
{
	return ((struct vatom_file *)file->driver_priv)->acct;
}

/* vatom_job.c */
bool vatom_killed(const struct vatom_exec_ctl *ctl);
int vatom_file_open(struct drm_device *dev, struct drm_file *file);
void vatom_file_postclose(struct drm_device *dev, struct drm_file *file);

struct vatom_job *vatom_job_alloc(struct vatom_file *vfile, bool async,
				  unsigned int in_syncs, unsigned int out_syncs);
int vatom_job_charge(struct vatom_job *job, u64 bytes);
u8 *vatom_job_bounce(struct vatom_job *job, u64 size);
void *vatom_file_stream_get(struct vatom_file *vfile, u32 size, u32 *alloc);
void vatom_job_free(struct vatom_job *job);
void vatom_job_push(struct vatom_job *job);
int vatom_job_wait_deps(struct vatom_job *job);
int vatom_job_run_direct(struct vatom_job *job);
int vatom_job_run_sync(struct vatom_job *job, bool *abandoned);
int vatom_file_execute(const void *stream, u32 size,
		       const struct vatom_bindings *b, u8 *results,
		       struct vatom_stats *stats, const struct vatom_exec_ctl *ctl);
void vatom_file_executed(struct vatom_file *vfile, const struct vatom_stats *stats,
			 u64 jobs, u64 ns);

/*
 * The clock execution is timed with, for fdinfo's drm-engine-<family>:
 * the timekeeping clock, as upstream drivers use. Not local_clock(): once
 * a guest marks its TSC unstable (TCG on a busy host does), local_clock()
 * is held within a tick of the last tick's time and reads the same value
 * across a short job, which then looked as if it took no time at all.
 */
static inline u64 vatom_busy_clock(void)
{
	return ktime_get_ns();
}

/* vatom_queue.c */
void vatom_file_queues_release(struct vatom_file *vfile);

#endif /* _VATOM_JOB_H_ */
