// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Jobs: what SUBMIT builds (vatom_submit.c), synchronous or asynchronous,
 * and what they share: their memory, limits, execution and fences.
 *
 * A synchronous job executes in the submitting thread, under its file's
 * lock, once every job submitted before it has completed; it waits for
 * its in-syncobjs and those jobs first, interruptibly, before its point of
 * no return, so an interrupted call leaves nothing behind and a restarted
 * one executes the stream exactly once. An asynchronous job is pushed to
 * its file's GPU scheduler (vatom_sched.c), which runs it once its
 * dependencies are met. Either way the jobs of a file execute, and their
 * fences signal, in submission order.
 *
 * A job does not execute when an in-syncobj fence failed (its fence gets
 * that error; a synchronous submission returns -ECANCELED) or when its
 * file was reset after it was submitted (vatom_reset.c), and stops at its
 * next checkpoint, between two packets, when its synchronous submitter is
 * killed, its file closes or it runs past the job timeout
 * (vatom_exec_stop()). A guilty file's submissions fail with -EIO.
 *
 * Limits per file: at most max_jobs jobs in flight (-EBUSY past it);
 * file_mem_cap bytes charged (-ENOSPC, vatom_account.c); a submission
 * costs at most max_submit_ops element operations (-E2BIG).
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <linux/dma-fence-chain.h>
#include <linux/module.h>
#include <linux/slab.h>

#include <drm/drm_drv.h>
#include <drm/drm_gem.h>

#include "vatom_compat_kernel.h"
#include "vatom_exec.h"
#include "vatom_file.h"
#include "vatom_job.h"
#include "vatom_limits.h"
#include "vatom_trace.h"

/*
 * Free a job whose members from fence_mem on are clean, and its stream
 * buffer, charged to @acct.
 */
static void vatom_job_destroy(struct vatom_job *job, struct vatom_account *acct)
{
	if (!job)
		return;
	vatom_stream_buf_free(&job->stream, acct);
	kfree(job->fence_mem);
	kfree(job);
}

/**
 * vatom_file_spare_job_free() - free the job a closing file keeps
 * @vfile: the file, whose jobs are all freed
 */
void vatom_file_spare_job_free(struct vatom_file *vfile)
{
	vatom_job_destroy(xchg(&vfile->spare_job, NULL), vfile->acct);
}

/*
 * A released job becomes the file's spare, for its next submission (its
 * head cleared; fence_mem, if unused, its stream buffer and the emptied
 * slot tables kept), unless the file has one already. A synchronous job
 * never touched its scheduler job (&vatom_job.base), which is still as
 * clear as the last asynchronous use or the allocation left it.
 */
static void vatom_job_keep(struct vatom_job *job)
{
	struct vatom_file *vfile = job->vfile;
	size_t from = job->async ? 0 : offsetofend(struct vatom_job, base);

	memset((u8 *)job + from, 0, offsetof(struct vatom_job, exec) - from);
	/* Full barrier: the cleared head before the job is seen as spare. */
	if (cmpxchg(&vfile->spare_job, NULL, job))
		vatom_job_destroy(job, vfile->acct);
}

/**
 * vatom_job_alloc() - a new job of @vfile, counted against its limits
 * @vfile: the submitting file
 * @async: an asynchronous submission
 * @in_syncs: in-syncobjs the job will wait for
 * @out_syncs: out-syncobjs it will signal
 *
 * Return: the job (free it with vatom_job_free() until it is pushed),
 * ERR_PTR(-EBUSY) when the file has its maximum of jobs in flight,
 * ERR_PTR(-ENOSPC) past its memory cap, or ERR_PTR(-ENOMEM).
 */
struct vatom_job *vatom_job_alloc(struct vatom_file *vfile, bool async,
				  unsigned int in_syncs, unsigned int out_syncs)
{
	struct vatom_job *job;
	int ret;

	if (atomic_inc_return(&vfile->inflight) > vatom_max_jobs()) {
		atomic_dec(&vfile->inflight);
		return ERR_PTR(-EBUSY);
	}

	job = xchg(&vfile->spare_job, NULL);
	if (!job) {
		job = kzalloc(sizeof(*job), GFP_KERNEL_ACCOUNT);
		if (!job) {
			atomic_dec(&vfile->inflight);
			return ERR_PTR(-ENOMEM);
		}
	}
	/* A kept job arrives with its head cleared (vatom_job_keep()). */
	job->vfile = vfile;
	job->inflight = true;
	job->async = async;
	/*
	 * In its submitter until it is pushed, whatever its door: an
	 * asynchronous job is validated there (vatom_sched_push()).
	 */
	vatom_exec_init(&job->exec, vfile, VATOM_DOOR_SYNC, NULL);
	INIT_LIST_HEAD(&job->link);
	atomic_inc(&vfile->live);
	this_cpu_inc(vfile->vdev->pcpu->jobs);

	/*
	 * An asynchronous job and its arrays count against the file's cap
	 * while in flight; a synchronous one lives within its call.
	 */
	if (async) {
		ret = vatom_job_charge(job, sizeof(*job) +
				       in_syncs * sizeof(*job->deps) +
				       out_syncs * sizeof(*job->outs));
		if (ret) {
			vatom_job_free(job);
			return ERR_PTR(ret);
		}
	}

	if (!job->fence_mem)
		job->fence_mem = kzalloc(sizeof(*job->fence_mem), GFP_KERNEL_ACCOUNT);
	if (in_syncs)
		job->deps = kcalloc(in_syncs, sizeof(*job->deps), GFP_KERNEL_ACCOUNT);
	if (in_syncs && async) {
		job->deps_fence = kzalloc(sizeof(*job->deps_fence), GFP_KERNEL_ACCOUNT);
		if (job->deps_fence)
			vatom_deps_fence_init(job->deps_fence);
	}
	if (out_syncs)
		job->outs = kcalloc(out_syncs, sizeof(*job->outs), GFP_KERNEL_ACCOUNT);
	if (!job->fence_mem || (in_syncs && !job->deps) ||
	    (in_syncs && async && !job->deps_fence) || (out_syncs && !job->outs)) {
		vatom_job_free(job);
		return ERR_PTR(-ENOMEM);
	}
	return job;
}

/**
 * __vatom_job_bounce() - vatom_job_bounce() of more than the job holds
 * @job: the job, not yet pushed
 * @size: bytes, more than &vatom_job.bounce_small and at most
 *	%VATOM_MAX_RESULTS_SIZE
 *
 * Return: 0, with @job->bounce allocated and charged to the file (until
 * the job completes); -ENOSPC past the file's cap, -ENOMEM.
 */
int __vatom_job_bounce(struct vatom_job *job, u64 size)
{
	int ret = vatom_job_charge(job, size);

	if (ret)
		return ret;
	job->bounce = kvmalloc(size, GFP_KERNEL_ACCOUNT);
	return job->bounce ? 0 : -ENOMEM;
}

/**
 * vatom_job_charge() - charge @bytes of job data to the file's memory cap
 * @job: the job; the charge is returned when it completes
 * @bytes: bytes to charge
 *
 * Return: 0, or -ENOSPC.
 */
int vatom_job_charge(struct vatom_job *job, u64 bytes)
{
	int ret = vatom_account_charge(job->vfile->acct, bytes);

	if (!ret)
		job->charged += bytes;
	return ret;
}

/* Return the job's in-flight slot and memory charge (once). */
static inline void vatom_job_unaccount(struct vatom_job *job)
{
	struct vatom_file *vfile = job->vfile;

	if (job->charged)	/* called at the signal and again at the free */
		vatom_account_uncharge(vfile->acct, job->charged);
	job->charged = 0;
	if (job->inflight)
		atomic_dec(&vfile->inflight);
	job->inflight = false;
}

/**
 * vatom_job_free() - release a job and everything it references
 * @job: a job that was never pushed, a synchronous job that ran, or an
 *	asynchronous one its scheduler is done with (its &vatom_job.base
 *	cleaned up)
 */
void vatom_job_free(struct vatom_job *job)
{
	struct vatom_file *vfile = job->vfile;
	struct vatom_device *vdev = vfile->vdev;
	unsigned int i;

	if (!list_empty(&job->link)) {
		spin_lock(&vfile->jobs_lock);
		list_del(&job->link);
		spin_unlock(&vfile->jobs_lock);
	}
	if (job->fence)
		dma_fence_put(&job->fence->base);
	if (job->deps_fence)
		dma_fence_put(&job->deps_fence->base);
	vatom_job_unaccount(job);

	if (job->deps) {	/* no in-syncobj, no call */
		for (i = 0; i < job->ndeps; i++)
			dma_fence_put(job->deps[i].fence);
		kfree(job->deps);
	}
	if (job->outs) {
		for (i = 0; i < job->nouts; i++) {
			dma_fence_chain_free(job->outs[i].chain);
			drm_syncobj_put(job->outs[i].syncobj);
		}
		kfree(job->outs);
	}

	vatom_binding_table_release(&job->table);
	if (job->result_surf)
		drm_gem_object_put(&job->result_surf->shmem.base);
	if (job->bounce && job->bounce != job->bounce_small)
		kvfree(job->bounce);
	vatom_job_keep(job);

	this_cpu_dec(vdev->pcpu->jobs);
	/* Last: the file's release may free @vfile as soon as this completes. */
	if (atomic_dec_and_test(&vfile->live))
		complete(&vfile->idle);
}

/*
 * The fence users see of the job: an asynchronous job's out-fence (the
 * scheduler's finished fence, once armed), a synchronous one's fence, or
 * NULL (a synchronous job without out-syncobjs has none).
 */
static struct dma_fence *vatom_job_out_fence(const struct vatom_job *job)
{
	if (job->async)
		return job->base.s_fence ? &job->base.s_fence->finished : NULL;
	return job->fence ? &job->fence->base : NULL;
}

/* The job's seqno on its file's timeline, 0 for one without a fence. */
static u64 vatom_job_seqno(const struct vatom_job *job)
{
	struct dma_fence *fence = vatom_job_out_fence(job);

	return fence ? fence->seqno : 0;
}

/*
 * Execute the job, inside drm_dev_enter() (vatom_exec_run(), which resets
 * its file if it timed out or faulted, before its fence signals, so a
 * waiter that sees the fence's error finds the file guilty; a job that
 * did not execute because an in-fence failed resets nothing), and count
 * it. Inlined into its two callers: a call is a good part of a small
 * job's cost under TCG (docs/driver.md).
 * Return: what vatom_exec_run() returns.
 */
static __always_inline int vatom_job_execute(struct vatom_job *job)
{
	struct vatom_file *vfile = job->vfile;
	const u32 size = job->stream_size;
	struct vatom_stats stats = {};
	u64 t0 = 0, ns;
	int ret;

	trace_vatom_job_start(vfile->client_id, job->id, vatom_job_seqno(job),
			      job->ops);
	/* An empty stream executes no element: no busy time to measure. */
	if (likely(size))
		t0 = vatom_busy_clock();
	ret = vatom_exec_run(&job->exec, job->stream.buf, size,
			     &job->table.bindings, job->results, &stats);
	ns = likely(size) ? vatom_busy_clock() - t0 : 0;
	vatom_exec_account(vfile, &stats, 1, ns);
	if (trace_vatom_job_end_enabled())
		trace_vatom_job_end(vfile->client_id, job->id,
				    vatom_job_seqno(job),
				    vatom_stats_elements(&stats), ns, ret);
	return ret;
}

/* vatom_job_signal() of a job with a fence: trace, set its error, signal. */
static void vatom_job_signal_fence(struct vatom_job *job, int error)
{
	struct vatom_file *vfile = job->vfile;
	struct dma_fence *out = vatom_job_out_fence(job);

	if (error == -ECANCELED)
		trace_vatom_fence_cancel(vfile->client_id, job->id,
					 out->context, out->seqno, error);
	else
		trace_vatom_fence_signal(vfile->client_id, job->id,
					 out->context, out->seqno, error);
	if (error) {
		if (out != &job->fence->base)
			dma_fence_set_error(out, error);
		dma_fence_set_error(&job->fence->base, error);
	}
	dma_fence_signal(&job->fence->base);
}

/*
 * Complete the job: return what it counts against the file's limits first,
 * so a waiter that sees the fence signalled can submit again at once; then
 * signal its fence, if it has one, with @error. An asynchronous job's
 * out-fence, the scheduler's, gets the error before the hardware fence
 * signals it (before 6.5 the scheduler did not pass the error on). Inline:
 * a synchronous job without out-syncobjs has no fence, and no call here.
 */
static __always_inline void vatom_job_signal(struct vatom_job *job, int error)
{
	struct vatom_file *vfile = job->vfile;

	vatom_job_unaccount(job);
	atomic64_inc(&vfile->completed);
	if (error == -ECANCELED)
		atomic64_inc(&vfile->vdev->stats.cancelled);
	if (job->fence)
		vatom_job_signal_fence(job, error);
}

/**
 * vatom_job_install_outs() - make the out-syncobjs point at @fence
 * @job: the job
 * @fence: its out-fence
 *
 * No failure is possible: the chain nodes are allocated.
 */
void vatom_job_install_outs(struct vatom_job *job, struct dma_fence *fence)
{
	struct vatom_out_sync *out;
	unsigned int i;

	for (i = 0; i < job->nouts; i++) {
		out = &job->outs[i];
		if (out->chain) {
			drm_syncobj_add_point(out->syncobj, out->chain, fence,
					      out->point);
			out->chain = NULL;	/* owned by the syncobj now */
		} else {
			drm_syncobj_replace_fence(out->syncobj, fence);
		}
	}
}

/**
 * vatom_job_run() - execute an asynchronous job that its scheduler ran,
 * or cancel it, and signal its hardware fence
 * @job: the job, with its hardware fence; its scheduler may free it as
 *	soon as the fence signals
 */
void vatom_job_run(struct vatom_job *job)
{
	int error = READ_ONCE(job->dep_error), idx;

	/* The device unbound: nothing executes, whatever else happened. */
	if (!drm_dev_enter(&job->vfile->vdev->drm, &idx)) {
		vatom_job_signal(job, -ENODEV);
		return;
	}
	/* Closing, or reset since the job was submitted. */
	if (job->cancelled || READ_ONCE(job->vfile->cancel) ||
	    vatom_exec_reset_since(&job->exec))
		error = -ECANCELED;
	if (!error)
		error = vatom_job_execute(job);
	drm_dev_exit(idx);
	vatom_job_signal(job, error);
}

/**
 * vatom_job_admit() - refuse a job of a guilty file, else note the resets
 * it comes after
 * @job: the job, under its file's lock
 *
 * Return: 0, or -EIO while the file has a reset to acknowledge.
 */
int vatom_job_admit(struct vatom_job *job)
{
	lockdep_assert_held(&job->vfile->lock);
	return vatom_exec_admit(&job->exec);
}

/*
 * vatom_job_accept(), inlined into vatom_job_run_sync(): a call is a good
 * part of a small job's cost under TCG (docs/driver.md).
 */
static __always_inline void __vatom_job_accept(struct vatom_job *job,
					       struct dma_fence *fence)
{
	struct vatom_file *vfile = job->vfile;
	u32 packets[VATOM_FAMILY_COUNT], offset;

	job->id = atomic64_inc_return(&vfile->submitted);
	vatom_exec_accept(&job->exec, job->id);	/* in the submitter's thread */
	if (trace_vatom_submit_enabled()) {
		vatom_stream_census(job->stream.buf, job->stream_size, packets, 0,
				    &offset);
		trace_vatom_submit(vfile->client_id, job->id,
				   fence ? fence->context : vfile->context,
				   packets, job->stream_size, job->ops,
				   job->async, job->ndeps, job->nouts);
	}
}

/**
 * vatom_job_accept() - the job passes its point of no return: it gets its
 * number in the file, the fault injected into it if any, and is traced
 * as submitted
 * @job: the job
 * @fence: its out-fence, or NULL
 */
void vatom_job_accept(struct vatom_job *job, struct dma_fence *fence)
{
	__vatom_job_accept(job, fence);
}

/*
 * Lock the file with every job submitted before completed: its last
 * asynchronous job's out-fence signalled. Waits interruptibly, with the
 * lock dropped, as long as another thread submits meanwhile.
 *
 * Return: 0 with vfile->lock held, or -ERESTARTSYS.
 */
static int vatom_file_lock_idle(struct vatom_file *vfile)
{
	struct dma_fence *last;
	long ret;

	for (;;) {
		if (mutex_lock_interruptible(&vfile->lock))
			return -ERESTARTSYS;
		if (!vfile->last_fence || dma_fence_is_signaled(vfile->last_fence))
			return 0;
		last = dma_fence_get(vfile->last_fence);
		mutex_unlock(&vfile->lock);
		ret = dma_fence_wait(last, true);
		dma_fence_put(last);
		if (ret)
			return ret;
	}
}

/* The first of the job's in-syncobj fences that failed, its error, or 0. */
static int vatom_job_deps_status(const struct vatom_job *job)
{
	unsigned int i;
	int status;

	for (i = 0; i < job->ndeps; i++) {
		status = dma_fence_get_status(job->deps[i].fence);
		if (status < 0)
			return status;
	}
	return 0;
}

/**
 * vatom_job_run_sync() - execute a synchronous job in the submitting thread
 * @job: a prepared synchronous job
 *
 * Waits, interruptibly, for the in-syncobjs' fences and the file's earlier
 * jobs, then executes the job under the file's lock (jobs submitted
 * meanwhile come after it), gives it a fence if it has out-syncobjs,
 * signals it and installs it in them.
 *
 * Return: 0 when the job executed; -ERESTARTSYS when interrupted before
 * it was accepted, or -EIO when the file is guilty (nothing changed);
 * -ECANCELED when an in-syncobj fence failed (nothing was executed, the
 * out-syncobjs are untouched); -EINTR when the submitter was killed while
 * the job executed (a prefix of the stream ran; the out-syncobjs get a
 * fence signalled with -ECANCELED); -ETIMEDOUT or -EIO when the job timed
 * out or faulted (a prefix ran; the fence has that error).
 */
int vatom_job_run_sync(struct vatom_job *job)
{
	struct vatom_file *vfile = job->vfile;
	unsigned int i;
	long ret;
	int idx;

	for (i = 0; i < job->ndeps; i++) {
		ret = dma_fence_wait(job->deps[i].fence, true);
		if (ret)
			return ret;
	}
	ret = vatom_file_lock_idle(vfile);
	if (ret)
		return ret;
	ret = vatom_job_admit(job);
	if (ret) {
		mutex_unlock(&vfile->lock);
		return ret;
	}

	ret = vatom_job_deps_status(job);
	if (ret) {
		__vatom_job_accept(job, NULL);
		vatom_job_signal(job, ret);
		mutex_unlock(&vfile->lock);
		return -ECANCELED;
	}
	if (job->nouts) {
		vatom_fence_init(job->fence_mem, vfile->vdev, NULL,
				 vfile->context, ++vfile->seqno);
		job->fence = job->fence_mem;
		job->fence_mem = NULL;
	}
	__vatom_job_accept(job, vatom_job_out_fence(job));
	if (drm_dev_enter(&vfile->vdev->drm, &idx)) {
		ret = vatom_job_execute(job);
		drm_dev_exit(idx);
	} else {
		ret = -ENODEV;	/* unbound since the ioctl began */
	}
	vatom_job_signal(job, ret);
	if (job->fence)
		vatom_job_install_outs(job, &job->fence->base);
	mutex_unlock(&vfile->lock);
	/* Stopped part way: its submitter was killed, there is no other way. */
	return ret == -ECANCELED ? -EINTR : ret;
}
