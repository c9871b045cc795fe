/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * vatom: the per-file (per-context) state, drm_file.driver_priv: its
 * memory account, its counters, the stream buffer it keeps, and the
 * bookkeeping its jobs (vatom_job.c) and queues (vatom_queue*.c) keep in it.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_FILE_H_
#define _VATOM_FILE_H_

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/xarray.h>

#include <drm/drm_file.h>

#include "vatom_account.h"
#include "vatom_device.h"

struct dma_fence;
struct vatom_job;
struct vatom_sched;

/**
 * struct vatom_stream_buf - a kernel buffer for copies of streams
 * @buf: the buffer, or NULL
 * @size: its bytes, charged to its owner's account while it exists
 */
struct vatom_stream_buf {
	void *buf;
	u32 size;
};

/**
 * struct vatom_file - per-file (per-context) state, drm_file.driver_priv
 * @vdev: the device
 * @acct: what the file is charged for
 * @lock: orders the file's submissions, and protects @last_fence,
 *	@seqno and @sched: an asynchronous job is pushed under it, a
 *	synchronous one executes under it once every job before it has
 *	completed, so a job submitted meanwhile comes after it
 * @sched: the scheduler of the file's asynchronous jobs, from the first
 *	one on (vatom_sched.c), or NULL
 * @last_fence: the out-fence of the last asynchronous job submitted
 * @context: the fence context of the file's synchronous jobs
 * @seqno: sequence number of the last synchronous job's fence
 * @jobs_lock: protects @jobs
 * @jobs: asynchronous jobs with in-syncobjs pushed and not yet freed, in
 *	submission order
 * @inflight: jobs counted against the in-flight limit
 * @live: jobs not yet freed, plus one held by the open file
 * @idle: completed when @live drops to zero
 * @cancel: the file is closing and its jobs are to stop: those not
 *	started are cancelled, those executing stop at their next checkpoint
 * @spare_job: one freed job kept for the file's next submission, or NULL:
 *	taken with xchg(), given back with cmpxchg(), no lock
 * @queues: the file's user-mode queues by id (vatom_queue.c)
 * @client_id: the file's number, as fdinfo's drm-client-id and tracepoints
 *	show it
 * @pid: the thread group that opened the file (devcoredumps of the jobs
 *	that run outside their submitter: asynchronous ones, the poller's)
 * @comm: that thread's name when it opened the file
 * @submitted: submissions accepted; a job's number is the count with it
 * @completed: jobs completed (executed, failed or cancelled)
 * @rejected: submissions that failed before execution
 * @busy_ns: time spent executing the file's jobs, per family (a job's time
 *	shared out by its element operations)
 * @resets: resets the file caused: its jobs that timed out or faulted
 *	(vatom_reset.c)
 * @resets_acked: @resets when the file last acknowledged them; the file is
 *	guilty while the two differ
 * @innocent_acked: resets of other files when it last acknowledged
 * @device_resets_open: the device's resets when the file was opened
 */
struct vatom_file {
	struct vatom_device *vdev;
	struct vatom_account *acct;
	u64 client_id;
	pid_t pid;
	char comm[TASK_COMM_LEN];
	atomic64_t submitted;
	atomic64_t completed;
	atomic64_t rejected;
	atomic64_t busy_ns[VATOM_FAMILY_COUNT];
	atomic_t resets;
	atomic_t resets_acked;
	u64 innocent_acked;
	u64 device_resets_open;
	struct mutex lock; /* see above */
	struct vatom_sched *sched;
	struct dma_fence *last_fence;
	u64 context;
	u64 seqno;
	spinlock_t jobs_lock; /* protects jobs */
	struct list_head jobs;
	atomic_t inflight;
	atomic_t live;
	struct completion idle;
	bool cancel;
	struct vatom_job *spare_job;
	struct xarray queues;
};

/* vatom_reset.c */
void vatom_file_reset(struct vatom_file *vfile, u64 job, int error);
void vatom_file_resets(struct vatom_file *vfile, u64 *guilty, u64 *innocent);

/**
 * vatom_file_guilty() - whether the file has a reset to acknowledge
 * @vfile: the file
 *
 * Return: true while its jobs are refused (-EIO).
 */
static inline bool vatom_file_guilty(struct vatom_file *vfile)
{
	return atomic_read(&vfile->resets) != atomic_read(&vfile->resets_acked);
}

/**
 * vatom_error_resets() - whether a job that completed with @error resets
 * its file: it timed out, or faulted
 * @error: the job's error
 */
static inline bool vatom_error_resets(int error)
{
	return error == -ETIMEDOUT || error == -EIO;
}

/* The account of the file @file. */
static inline struct vatom_account *vatom_file_account(struct drm_file *file)
{
	return ((struct vatom_file *)file->driver_priv)->acct;
}

/* vatom_file.c */
struct vatom_file *vatom_file_create(struct drm_device *dev,
				     struct drm_file *file);
void vatom_file_destroy(struct vatom_file *vfile);
int __vatom_stream_buf_reserve(struct vatom_stream_buf *sb,
			       struct vatom_account *acct, u32 size);

/**
 * vatom_stream_buf_reserve() - make a stream buffer at least @size bytes
 * @sb: the buffer, kept as it is when large enough
 * @acct: the account it is charged to
 * @size: bytes needed, at most %VATOM_MAX_STREAM_SIZE
 *
 * Return: 0; -ENOSPC past the account's cap or -ENOMEM, @sb unchanged.
 */
static inline int vatom_stream_buf_reserve(struct vatom_stream_buf *sb,
					   struct vatom_account *acct, u32 size)
{
	return size <= sb->size ? 0 : __vatom_stream_buf_reserve(sb, acct, size);
}

void vatom_stream_buf_free(struct vatom_stream_buf *sb,
			   struct vatom_account *acct);

#endif /* _VATOM_FILE_H_ */
