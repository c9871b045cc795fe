/* SPDX-License-Identifier: MIT */
/*
 * job.h: a SUBMIT's job, what submit.c, job.c and sched.c share (vatom.ko's
 * vatom_job.h): submit.c builds it from the arguments, job.c keeps its
 * memory and executes it, sched.c runs the asynchronous ones.
 */
#ifndef _VATOM_SHIM_JOB_H_
#define _VATOM_SHIM_JOB_H_

#include "device.h"

/**
 * struct shim_out - one out-syncobj of a job
 * @syncobj: the syncobj, referenced
 * @point: its timeline point, 0 for a binary one
 * @chain: the timeline node, allocated before the point of no return
 */
struct shim_out {
	struct shim_syncobj *syncobj;
	u64 point;
	struct shim_chain *chain;
};

/**
 * struct shim_job - one submission (vatom_job)
 * @x: its control block (exec.c)
 * @f: its file
 * @resets: its file's resets when it was admitted
 * @id: its number in the file
 * @async: an asynchronous job
 * @stream: the copy of its stream
 * @stream_size: bytes of @stream
 * @charged: bytes charged to the file for it
 * @nbound: entries of @bound
 * @result_surf: the result surface, referenced, or NULL
 * @results: where results go, or NULL
 * @bounce: a synchronous job's copy of the user's results, or NULL
 * @ndeps: entries of @deps
 * @deps: its in-syncobjs' fences, referenced
 * @nouts: entries of @outs
 * @outs: its out-syncobjs
 * @fence: its out-fence: an asynchronous job's, or a synchronous one's
 *	with out-syncobjs; NULL else
 * @next: the worker's queue
 * @sb: the memory of @stream, charged to the file: kept, charged, while the
 *	job is the file's spare (as vatom.ko's spare job keeps its own)
 * @bounce_buf: the memory of @bounce, @bounce_cap bytes, kept when the job
 *	is recycled (up to SHIM_JOB_KEEP bytes)
 * @bound: the slots bound, in order
 * @surf: the surfaces bound, by slot, referenced; NULL for every slot not
 *	in @bound, also while the job is a file's spare
 * @b: their views, likewise
 * @deps: its in-syncobjs' fences, referenced (@ndeps of them)
 * @outs: its out-syncobjs (@nouts)
 *
 * Everything from @f to @sb is zeroed for each submission (@x is
 * shim_exec_init()'s); the tables after it (6 KiB) are not: a recycled
 * job's slots were cleared one by one, and the rest are read no further
 * than their counts.
 */
struct shim_job {
	struct shim_exec x;
	struct shim_file *f;
	unsigned int resets;
	u64 id;
	bool async;
	void *stream;
	u32 stream_size;
	u64 charged;
	u32 nbound;
	struct shim_surface *result_surf;
	u8 *results;
	u8 *bounce;
	u32 ndeps;
	u32 nouts;
	struct shim_fence *fence;
	struct shim_job *next;
	/* not zeroed per submission: see above */
	struct shim_stream_buf sb;
	void *bounce_buf;
	u64 bounce_cap;
	u8 bound[DRM_VATOM_MAX_SLOTS];
	struct shim_surface *surf[DRM_VATOM_MAX_SLOTS];
	struct vatom_bindings b;
	struct shim_fence *deps[VATOM_MAX_SYNCS];
	struct shim_out outs[VATOM_MAX_SYNCS];
};

/* job.c */
int shim_job_charge(struct shim_job *job, u64 bytes);
void shim_job_unaccount(struct shim_job *job);
void shim_job_destroy(struct shim_job *job);
void shim_job_free(struct shim_job *job);
void *shim_job_buf(void **buf, u64 *cap, u64 n);
struct shim_job *shim_job_alloc(struct shim_file *f);
void shim_job_recycle(struct shim_job *job);
int shim_job_execute(struct shim_job *job);
void shim_job_signal(struct shim_job *job, int error);
void shim_job_install_outs(struct shim_job *job, struct shim_fence *fence);
int shim_job_deps_status(const struct shim_job *job);
int shim_job_run_sync(struct shim_job *job);

/* sched.c */
int shim_sched_push(struct shim_job *job);

#endif /* _VATOM_SHIM_JOB_H_ */
