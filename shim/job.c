// SPDX-License-Identifier: MIT
/*
 * Jobs of the in-process device, as vatom.ko's vatom_job.c: what SUBMIT
 * builds (submit.c), synchronous or asynchronous, and what they share:
 * their memory (charged to the file; a synchronous job's kept as the
 * file's spare for its next SUBMIT), their execution and their fences. A
 * synchronous job executes in the caller's thread, under its file's lock,
 * once its in-fences have signalled and every job its file submitted
 * before it is done; an asynchronous one is run by its file's worker
 * (sched.c). A job whose in-fence failed does not execute: its fence gets
 * that error.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "job.h"

/**
 * shim_job_charge() - charge @bytes of job data to the file's memory cap
 * (vatom_job_charge())
 * @job: the job; the charge goes back with shim_job_unaccount()
 * @bytes: bytes to charge
 *
 * Return: 0, or -ENOSPC.
 */
int shim_job_charge(struct shim_job *job, u64 bytes)
{
	int ret = shim_account_charge(job->f->acct, bytes);

	if (!ret)
		job->charged += bytes;
	return ret;
}

/**
 * shim_job_unaccount() - return the job's in-flight slot and charge
 * (vatom_job_unaccount())
 * @job: the job
 */
void shim_job_unaccount(struct shim_job *job)
{
	if (job->charged)
		shim_account_uncharge(job->f->acct, job->charged);
	job->charged = 0;
	atomic_fetch_sub(&job->f->inflight, 1);
}

/* The largest bounce buffer a recycled job keeps: a page of results. */
#define SHIM_JOB_KEEP	4096

/* Drop what the job holds; its slots cleared again. */
static void shim_job_release(struct shim_job *job)
{
	u32 i, slot;

	for (i = 0; i < job->nbound; i++) {
		slot = job->bound[i];
		shim_surface_put(job->surf[slot]);
		job->surf[slot] = NULL;
		job->b.slot[slot] = NULL;
	}
	if (job->result_surf)
		shim_surface_put(job->result_surf);
	for (i = 0; i < job->ndeps; i++)
		shim_fence_put(job->deps[i]);
	for (i = 0; i < job->nouts; i++) {
		shim_chain_free(job->outs[i].chain);
		shim_syncobj_put(job->outs[i].syncobj);
	}
	if (job->fence)
		shim_fence_put(job->fence);
	if (job->bounce_cap > SHIM_JOB_KEEP) {
		free(job->bounce_buf);
		job->bounce_buf = NULL;
		job->bounce_cap = 0;
	}
}

/**
 * shim_job_destroy() - free a released job and what it keeps (its stream
 * buffer's charge back)
 * @job: the job, released (a file's spare, for one)
 */
void shim_job_destroy(struct shim_job *job)
{
	shim_stream_buf_free(&job->sb, job->f->acct);
	free(job->bounce_buf);
	free(job);
}

/**
 * shim_job_free() - release a job and free it
 * @job: the job: an asynchronous one its worker is done with
 */
void shim_job_free(struct shim_job *job)
{
	shim_job_release(job);
	shim_job_destroy(job);
}

/**
 * shim_job_buf() - @n bytes of the job's kept bounce buffer
 * @buf: the buffer (&shim_job.bounce_buf), replaced by a larger one when
 *	shorter than @n (its contents not kept)
 * @cap: its bytes (&shim_job.bounce_cap)
 * @n: bytes needed
 *
 * Return: the buffer, or NULL (then @buf is NULL and @cap 0).
 */
void *shim_job_buf(void **buf, u64 *cap, u64 n)
{
	if (n <= *cap)
		return *buf;
	free(*buf);
	*buf = malloc(n);
	*cap = *buf ? n : 0;
	return *buf;
}

/**
 * shim_job_alloc() - a new job of @f: its spare if it has one (no 6 KiB
 * to zero, no 256 slots to look at when it ends), else a zeroed one
 * @f: the submitting file
 *
 * Return: the job, or NULL.
 */
struct shim_job *shim_job_alloc(struct shim_file *f)
{
	struct shim_job *job = atomic_exchange(&f->spare_job, NULL);

	if (!job)
		return calloc(1, sizeof(*job));
	/* @x is shim_exec_init()'s, whole */
	memset(&job->f, 0, offsetof(struct shim_job, sb) -
			   offsetof(struct shim_job, f));
	return job;
}

/**
 * shim_job_recycle() - a synchronous job done with: kept as the file's
 * spare, or freed
 * @job: a job that ran synchronously, or one never pushed to the worker
 */
void shim_job_recycle(struct shim_job *job)
{
	struct shim_job *none = NULL;
	struct shim_file *f = job->f;

	shim_job_release(job);
	if (!atomic_compare_exchange_strong(&f->spare_job, &none, job))
		shim_job_destroy(job);
}

/* --- executing */

/**
 * shim_job_execute() - vatom_exec_run() of the job's stream, to its results
 * @job: the job, prepared
 *
 * Return: as shim_exec_run().
 */
int shim_job_execute(struct shim_job *job)
{
	return shim_exec_run(&job->x, job->stream, job->stream_size, &job->b,
			     job->results);
}

/**
 * shim_job_signal() - vatom_job_signal(): its slot and charge back first,
 * then its fence
 * @job: the job
 * @error: its fence's error, or 0
 */
void shim_job_signal(struct shim_job *job, int error)
{
	shim_job_unaccount(job);
	if (job->fence)
		shim_fence_signal(job->fence, error);
}

/**
 * shim_job_install_outs() - vatom_job_install_outs(): the out-syncobjs
 * point at @fence
 * @job: the job
 * @fence: its out-fence
 *
 * No failure is possible: the chain nodes are allocated.
 */
void shim_job_install_outs(struct shim_job *job, struct shim_fence *fence)
{
	struct shim_out *out;
	u32 i;

	for (i = 0; i < job->nouts; i++) {
		out = &job->outs[i];
		if (out->chain) {
			shim_syncobj_add_point(out->syncobj, out->chain, fence,
					       out->point);
			out->chain = NULL;	/* the syncobj's now */
		} else {
			shim_syncobj_replace_fence(out->syncobj, fence);
		}
	}
}

/**
 * shim_job_deps_status() - the first of the job's in-fences that failed
 * @job: the job
 *
 * Return: that fence's error, or 0.
 */
int shim_job_deps_status(const struct shim_job *job)
{
	int status;
	u32 i;

	for (i = 0; i < job->ndeps; i++) {
		status = shim_fence_status(job->deps[i]);
		if (status < 0)
			return status;
	}
	return 0;
}

/*
 * Lock the file with every job submitted before completed
 * (vatom_file_lock_idle()).
 */
static void shim_file_lock_idle(struct shim_file *f)
{
	struct shim_fence *last;

	for (;;) {
		shim_mutex_lock(&f->lock);
		if (!f->last_fence || shim_fence_status(f->last_fence))
			return;
		last = shim_fence_get(f->last_fence);
		shim_mutex_unlock(&f->lock);
		shim_fence_wait(last, INT64_MAX);
		shim_fence_put(last);
	}
}

/**
 * shim_job_run_sync() - vatom_job_run_sync(), less what a signal or an
 * unbind would do
 * @job: a prepared synchronous job
 *
 * Return: as shim_exec_run(), but -EINTR for its -ECANCELED; or, the job
 * not executed, -EIO (the file is guilty), -ECANCELED (an in-fence
 * failed) or -ENOMEM.
 */
int shim_job_run_sync(struct shim_job *job)
{
	struct shim_file *f = job->f;
	int ret;
	u32 i;

	for (i = 0; i < job->ndeps; i++)
		shim_fence_wait(job->deps[i], INT64_MAX);
	shim_file_lock_idle(f);
	if (shim_file_guilty(f)) {
		shim_mutex_unlock(&f->lock);
		return -EIO;
	}
	job->resets = atomic_load(&f->resets);
	ret = shim_job_deps_status(job);
	if (ret) {
		job->id = atomic_fetch_add(&f->submitted, 1) + 1;
		shim_job_signal(job, ret);
		shim_mutex_unlock(&f->lock);
		return -ECANCELED;
	}
	if (job->nouts) {
		job->fence = shim_fence_new();
		if (!job->fence) {
			shim_mutex_unlock(&f->lock);
			return -ENOMEM;
		}
	}
	job->id = atomic_fetch_add(&f->submitted, 1) + 1;
	ret = shim_job_execute(job);
	shim_job_signal(job, ret);
	if (job->fence)
		shim_job_install_outs(job, job->fence);
	shim_mutex_unlock(&f->lock);
	return ret == -ECANCELED ? -EINTR : ret;
}
