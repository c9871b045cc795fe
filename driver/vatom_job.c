// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Jobs: the execution side of SUBMIT, shared by synchronous and
 * asynchronous submissions, and the per-file context they run in.
 *
 * A job is built and validated by vatom_submit.c, then pushed: from that
 * point nothing can fail. Pushing gives the job its fence (the next seqno on
 * its file's fence context) and makes it depend on the file's previous job,
 * so the jobs of a file execute, and their fences signal, in submission
 * order. A job also waits for the fences of its in-syncobjs. Dependencies
 * are dma_fence callbacks counting down @pending; the last one makes the
 * job ready:
 *
 *  - an asynchronous job is queued on the device's workqueue, which
 *    executes it and signals its fence (installed in the out-syncobjs when
 *    it was pushed);
 *  - a synchronous job is executed by the submitting thread. It waits
 *    (interruptibly) for its in-syncobjs and the file's earlier jobs before
 *    it is pushed, so an interrupted call leaves nothing behind and a
 *    restarted one executes the stream exactly once; then it executes,
 *    signals its fence and installs it in the out-syncobjs. (Should
 *    another thread of the file submit in between, the pushed job waits
 *    again; interrupted then, it is abandoned: the workqueue completes it
 *    as cancelled, never executed.)
 *
 * A job does not execute when an in-syncobj fence failed (its fence gets
 * that error) or when it was cancelled: closing the file (or the death of
 * its process) cancels every job still waiting for an in-syncobj fence,
 * whose fence then signals -ECANCELED once the file's earlier jobs have
 * completed. The other jobs get VATOM_CLOSE_DRAIN to complete, killed
 * process or not (small jobs that are ready are not thrown away); then the
 * file cancels them: a job not started
 * does not execute, one executing stops at its next checkpoint, between
 * two packets, having executed a prefix of its stream; both signal
 * -ECANCELED. A synchronous job stops the same way when its submitter is
 * killed. The release of the file waits until every job of the file is
 * freed, which a checkpoint every few milliseconds keeps short.
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

#include <drm/drm_gem.h>

#include "vatom_compat_kernel.h"
#include "vatom_exec.h"
#include "vatom_file.h"
#include "vatom_job.h"
#include "vatom_limits.h"
#include "vatom_trace.h"

/* How long a closing file lets its jobs complete before cancelling them. */
#define VATOM_CLOSE_DRAIN	(HZ / 2)

/* Who executes a synchronous job (job->state). */
enum {
	VATOM_JOB_WAITING,	/* dependencies pending, the submitter waits */
	VATOM_JOB_READY,	/* the submitter executes it */
	VATOM_JOB_ABANDONED,	/* the submitter gave up: the workqueue cancels it */
};

/* ------------------------------------------------------------------------ */
/* Jobs                                                                      */
/* ------------------------------------------------------------------------ */

static void vatom_job_work(struct work_struct *work);

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

/*
 * A released job becomes the file's spare, for its next submission (its
 * head cleared; fence_mem, if unused, its stream buffer and the emptied
 * slot tables kept), unless the file has one already.
 */
static void vatom_job_keep(struct vatom_job *job)
{
	struct vatom_file *vfile = job->vfile;

	memset(job, 0, offsetof(struct vatom_job, fence_mem));
	spin_lock(&vfile->spare_lock);
	if (!vfile->spare_job) {
		vfile->spare_job = job;
		job = NULL;
	}
	spin_unlock(&vfile->spare_lock);
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

	spin_lock(&vfile->spare_lock);
	job = vfile->spare_job;
	vfile->spare_job = NULL;
	spin_unlock(&vfile->spare_lock);
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
	/* A synchronous job runs in its submitter; an asynchronous one stops on close. */
	vatom_exec_init(&job->exec, async ? &vfile->cancel : NULL, !async);
	INIT_LIST_HEAD(&job->link);
	INIT_WORK(&job->work, vatom_job_work);
	atomic_set(&job->state, VATOM_JOB_WAITING);
	atomic_inc(&vfile->live);
	this_cpu_inc(vfile->vdev->pcpu->jobs);

	/*
	 * An asynchronous job and its arrays count against the file's cap
	 * while in flight; a synchronous one lives within its call.
	 */
	if (async) {
		ret = vatom_job_charge(job, sizeof(*job) +
				       (in_syncs + 1) * sizeof(*job->deps) +
				       out_syncs * sizeof(*job->outs));
		if (ret) {
			vatom_job_free(job);
			return ERR_PTR(ret);
		}
	}

	if (!job->fence_mem)
		job->fence_mem = kzalloc(sizeof(*job->fence_mem), GFP_KERNEL_ACCOUNT);
	/* One more dependency for the file's previous job. */
	if (in_syncs)
		job->deps = kcalloc(in_syncs + 1, sizeof(*job->deps),
				    GFP_KERNEL_ACCOUNT);
	else
		job->deps = &job->dep_prev;
	if (out_syncs)
		job->outs = kcalloc(out_syncs, sizeof(*job->outs), GFP_KERNEL_ACCOUNT);
	if (!job->fence_mem || !job->deps || (out_syncs && !job->outs)) {
		vatom_job_free(job);
		return ERR_PTR(-ENOMEM);
	}
	return job;
}

/**
 * vatom_job_bounce() - the job's kernel copy of a user result region
 * @job: the job, not yet pushed
 * @size: bytes, at most %VATOM_MAX_RESULTS_SIZE and charged by the caller
 *
 * Return: the buffer, freed with the job, or NULL.
 */
u8 *vatom_job_bounce(struct vatom_job *job, u64 size)
{
	if (size <= sizeof(job->bounce_small))
		job->bounce = job->bounce_small;
	else
		job->bounce = kvmalloc(size, GFP_KERNEL_ACCOUNT);
	return job->bounce;
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
static void vatom_job_unaccount(struct vatom_job *job)
{
	struct vatom_file *vfile = job->vfile;

	vatom_account_uncharge(vfile->acct, job->charged);
	job->charged = 0;
	if (job->inflight)
		atomic_dec(&vfile->inflight);
	job->inflight = false;
}

/**
 * vatom_job_free() - release a job and everything it references
 * @job: a job that was never pushed, or one whose fence has signalled
 */
void vatom_job_free(struct vatom_job *job)
{
	struct vatom_file *vfile = job->vfile;
	struct vatom_device *vdev = vfile->vdev;
	unsigned int i;

	if (job->fence) {
		mutex_lock(&vfile->lock);
		list_del(&job->link);
		mutex_unlock(&vfile->lock);
		dma_fence_put(&job->fence->base);
	}
	vatom_job_unaccount(job);

	for (i = 0; i < job->ndeps; i++)
		dma_fence_put(job->deps[i].fence);
	if (job->deps != &job->dep_prev)
		kfree(job->deps);
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
	if (job->bounce != job->bounce_small)
		kvfree(job->bounce);
	vatom_job_keep(job);

	this_cpu_dec(vdev->pcpu->jobs);
	/* Last: the file's release may free @vfile as soon as this completes. */
	if (atomic_dec_and_test(&vfile->live))
		complete(&vfile->idle);
}

/* The job's seqno on its file's timeline, 0 for one without a fence. */
static u64 vatom_job_seqno(const struct vatom_job *job)
{
	return job->fence ? job->fence->base.seqno : 0;
}

/* Return: 0, or -ECANCELED when vatom_job_stop() stopped it part way. */
static int vatom_job_execute(struct vatom_job *job)
{
	struct vatom_file *vfile = job->vfile;
	struct vatom_stats stats = {};
	u64 t0, ns = 0;
	int ret = 0;

	trace_vatom_job_start(vfile->client_id, job->id, vatom_job_seqno(job),
			      job->ops);
	if (!job->stream_size)
		goto done;	/* nothing to time */
	t0 = vatom_busy_clock();
	ret = vatom_exec_stream(job->stream.buf, job->stream_size,
				&job->table.bindings, job->results, &stats,
				&job->exec.ctl);
	ns = vatom_busy_clock() - t0;
done:
	vatom_exec_account(vfile, &stats, 1, ns);
	if (trace_vatom_job_end_enabled())
		trace_vatom_job_end(vfile->client_id, job->id,
				    vatom_job_seqno(job),
				    vatom_stats_elements(&stats), ns, ret);
	return ret;
}

/*
 * Complete the job: return what it counts against the file's limits first,
 * so a waiter that sees the fence signalled can submit again at once.
 */
static void vatom_job_signal(struct vatom_job *job, int error)
{
	struct vatom_file *vfile = job->vfile;
	struct dma_fence *fence = &job->fence->base;

	vatom_job_unaccount(job);
	atomic64_inc(&vfile->completed);
	if (error == -ECANCELED) {
		atomic64_inc(&vfile->vdev->stats.cancelled);
		trace_vatom_fence_cancel(vfile->client_id, job->id,
					 fence->context, fence->seqno, error);
	} else {
		trace_vatom_fence_signal(vfile->client_id, job->id,
					 fence->context, fence->seqno, error);
	}
	if (error)
		dma_fence_set_error(fence, error);
	dma_fence_signal(fence);
}

/* Make the out-syncobjs point at the job's fence (no failure possible). */
static void vatom_job_install_outs(struct vatom_job *job)
{
	struct vatom_out_sync *out;
	unsigned int i;

	for (i = 0; i < job->nouts; i++) {
		out = &job->outs[i];
		if (out->chain) {
			drm_syncobj_add_point(out->syncobj, out->chain,
					      &job->fence->base, out->point);
			out->chain = NULL;	/* owned by the syncobj now */
		} else {
			drm_syncobj_replace_fence(out->syncobj, &job->fence->base);
		}
	}
}

static void vatom_job_work(struct work_struct *work)
{
	struct vatom_job *job = container_of(work, struct vatom_job, work);
	int error = READ_ONCE(job->dep_error);

	if (job->cancelled || atomic_read(&job->state) == VATOM_JOB_ABANDONED ||
	    READ_ONCE(job->vfile->cancel))
		error = -ECANCELED;
	if (!error)
		error = vatom_job_execute(job);
	vatom_job_signal(job, error);
	vatom_job_free(job);
}

/* Every dependency is met: have the job executed. */
static void vatom_job_ready(struct vatom_job *job)
{
	if (!job->async &&
	    atomic_cmpxchg(&job->state, VATOM_JOB_WAITING, VATOM_JOB_READY) ==
	    VATOM_JOB_WAITING) {
		complete(&job->ready);
		return;
	}
	/* Asynchronous, or a synchronous job its submitter abandoned. */
	queue_work(job->vfile->vdev->wq, &job->work);
}

static void vatom_job_dep_done(struct vatom_job *job)
{
	if (atomic_dec_and_test(&job->pending))
		vatom_job_ready(job);
}

/* Record the first failed in-syncobj fence; @error is 0 or negative. */
static void vatom_job_dep_error(struct vatom_job *job, int error)
{
	if (error < 0)
		cmpxchg(&job->dep_error, 0, error);
}

static void vatom_job_dep_cb(struct dma_fence *fence, struct dma_fence_cb *cb)
{
	struct vatom_dep *dep = container_of(cb, struct vatom_dep, cb);
	struct vatom_job *job = dep->job;

	if (dep->external)
		vatom_job_dep_error(job, fence->error);
	vatom_job_dep_done(job);
}

/*
 * The job passes its point of no return: it gets its number in the file
 * and is traced as submitted. @in_syncs: its in-syncobjs (job->ndeps
 * before the previous job is added).
 */
static void vatom_job_accept(struct vatom_job *job, unsigned int in_syncs)
{
	struct vatom_file *vfile = job->vfile;
	u32 packets[VATOM_FAMILY_COUNT], offset;

	job->id = atomic64_inc_return(&vfile->submitted);
	if (trace_vatom_submit_enabled()) {
		vatom_stream_census(job->stream.buf, job->stream_size, packets, 0,
				    &offset);
		trace_vatom_submit(vfile->client_id, job->id, vfile->context,
				   packets, job->stream_size, job->ops,
				   job->async, in_syncs, job->nouts);
	}
}

/**
 * vatom_job_push() - submit a fully prepared job; nothing can fail from here
 * @job: a job whose stream is validated, surfaces bound, in-syncobj fences
 *	in @job->deps[0 .. @job->ndeps - 1] and out-syncobjs in @job->outs
 *
 * An asynchronous job belongs to the workqueue afterwards (the caller must
 * not touch it); a synchronous one is then run with vatom_job_run_sync().
 */
void vatom_job_push(struct vatom_job *job)
{
	struct vatom_file *vfile = job->vfile;
	struct vatom_dep *dep;
	unsigned int i;
	int ret;

	/* Only a pushed synchronous job waits for it (the direct path does not). */
	if (!job->async)
		init_completion(&job->ready);
	vatom_job_accept(job, job->ndeps);
	mutex_lock(&vfile->lock);
	vatom_fence_init(job->fence_mem, vfile->vdev, vfile->context, ++vfile->seqno);
	job->fence = job->fence_mem;
	job->fence_mem = NULL;
	if (vfile->last_fence) {
		/* The previous job: ordering only; its reference moves here. */
		job->deps[job->ndeps++].fence = vfile->last_fence;
	}
	vfile->last_fence = dma_fence_get(&job->fence->base);
	list_add_tail(&job->link, &vfile->jobs);
	mutex_unlock(&vfile->lock);

	if (job->async)
		vatom_job_install_outs(job);

	/* One count per dependency, plus one until every callback is armed. */
	atomic_set(&job->pending, job->ndeps + 1);
	for (i = 0; i < job->ndeps; i++) {
		dep = &job->deps[i];
		dep->job = job;
		ret = dma_fence_add_callback(dep->fence, &dep->cb, vatom_job_dep_cb);
		if (!ret) {
			dep->armed = true;
			continue;
		}
		/* Already signalled (-ENOENT). */
		if (dep->external)
			vatom_job_dep_error(job, dep->fence->error);
		vatom_job_dep_done(job);
	}
	vatom_job_dep_done(job);
}

/**
 * vatom_job_wait_deps() - wait, interruptibly, for what a synchronous job
 * will depend on, before it is pushed
 * @job: the job, not yet pushed
 *
 * Waiting before the point of no return means an interrupted submission
 * leaves nothing behind: no job, no fence, no in-flight slot. (If another
 * thread of the file submits meanwhile, the job may still have to wait
 * after it is pushed; see vatom_job_run_sync().)
 *
 * Return: 0, or -ERESTARTSYS when a signal arrived.
 */
int vatom_job_wait_deps(struct vatom_job *job)
{
	struct vatom_file *vfile = job->vfile;
	struct dma_fence *last;
	unsigned int i;
	long ret;

	for (i = 0; i < job->ndeps; i++) {
		ret = dma_fence_wait(job->deps[i].fence, true);
		if (ret)
			return ret;
	}
	mutex_lock(&vfile->lock);
	last = dma_fence_get(vfile->last_fence);
	mutex_unlock(&vfile->lock);
	if (!last)
		return 0;
	ret = dma_fence_wait(last, true);
	dma_fence_put(last);
	return ret;
}

/**
 * vatom_job_run_direct() - execute a synchronous job at once, without a
 * fence, if its file has no job pending
 * @job: a prepared synchronous job without in- or out-syncobjs, not pushed
 *
 * Such a job has nothing to wait for and nothing to signal but its place
 * in the file's order. When every job pushed before it has completed, it
 * executes under the file's lock: jobs pushed later take that lock first,
 * so they come after it, as its fence would have made them. This saves
 * the fence, the dependency callbacks and the completion of the general
 * path (vatom_job_push(), vatom_job_run_sync()), most of the cost of a
 * small synchronous submission.
 *
 * Return: 0 when the job executed (free it, it was never pushed); -EINTR
 * when its submitter was killed while it executed (a prefix of the stream
 * ran); -EAGAIN when a job of the file is still pending: push it and run
 * it with vatom_job_run_sync().
 */
int vatom_job_run_direct(struct vatom_job *job)
{
	struct vatom_file *vfile = job->vfile;
	int ret = -EAGAIN;

	if (WARN_ON_ONCE(job->async || job->ndeps || job->nouts))
		return ret;
	mutex_lock(&vfile->lock);
	if (!vfile->last_fence || dma_fence_is_signaled(vfile->last_fence)) {
		vatom_job_accept(job, 0);
		ret = vatom_job_execute(job) ? -EINTR : 0;
		atomic64_inc(&vfile->completed);
	}
	mutex_unlock(&vfile->lock);
	return ret;
}

/**
 * vatom_job_run_sync() - wait for a pushed synchronous job's dependencies,
 * execute it and signal its fence and out-syncobjs
 * @job: the job
 * @abandoned: out, true when the wait was interrupted: the job is then
 *	cancelled, never executes and is no longer the caller's to free
 *
 * Normally vatom_job_wait_deps() has already waited and the job is ready
 * at once. If it is not (another thread of the file submitted in between)
 * and the wait is interrupted, the job is abandoned: it keeps its place in
 * the file's order and completes, cancelled, once its dependencies signal.
 *
 * Return: 0 when the job executed; -ERESTARTSYS when interrupted before it
 * could start; -ECANCELED when an in-syncobj fence failed (nothing was
 * executed, the out-syncobjs are untouched); -EINTR when the submitter was
 * killed while the job executed (a prefix of the stream ran; the fence,
 * installed in the out-syncobjs, signals -ECANCELED).
 */
int vatom_job_run_sync(struct vatom_job *job, bool *abandoned)
{
	int ret;

	*abandoned = false;
	ret = wait_for_completion_interruptible(&job->ready);
	if (ret) {
		if (atomic_cmpxchg(&job->state, VATOM_JOB_WAITING,
				   VATOM_JOB_ABANDONED) == VATOM_JOB_WAITING) {
			*abandoned = true;
			return ret;
		}
		/* It became ready meanwhile: complete() is imminent. */
		wait_for_completion(&job->ready);
	}

	ret = READ_ONCE(job->dep_error);
	if (ret) {
		vatom_job_signal(job, ret);
		return -ECANCELED;
	}
	ret = vatom_job_execute(job);
	vatom_job_signal(job, ret);
	vatom_job_install_outs(job);
	return ret ? -EINTR : 0;
}

/*
 * The file is closing: stop waiting for the job's in-syncobj fences that
 * have not signalled, and cancel the job if there was one. It still waits
 * for the file's previous job, so fences keep signalling in order.
 */
static void vatom_job_cancel_waits(struct vatom_job *job)
{
	struct vatom_dep *dep;
	unsigned int i;

	/* Holding it keeps the job in the file's list, and alive. */
	lockdep_assert_held(&job->vfile->lock);
	for (i = 0; i < job->ndeps; i++) {
		dep = &job->deps[i];
		if (!dep->external || !dep->armed)
			continue;
		if (!dma_fence_remove_callback(dep->fence, &dep->cb))
			continue;	/* its callback has run */
		dep->armed = false;
		job->cancelled = true;
		/* The job cannot be freed before the caller drops vfile->lock. */
		vatom_job_dep_done(job);
	}
}

/**
 * vatom_file_jobs_release() - end the jobs of a closing file: cancel those
 * that wait for in-syncobjs, let the others complete for a while, cancel
 * what is left and wait for every one
 * @vfile: the file, whose handles, syncobjs and queues are already released
 */
void vatom_file_jobs_release(struct vatom_file *vfile)
{
	struct vatom_job *job;

	mutex_lock(&vfile->lock);
	list_for_each_entry(job, &vfile->jobs, link)
		vatom_job_cancel_waits(job);
	mutex_unlock(&vfile->lock);

	if (!atomic_dec_and_test(&vfile->live)) {
		/* As the DRM scheduler does for an exiting process's jobs. */
		if (!wait_for_completion_timeout(&vfile->idle, VATOM_CLOSE_DRAIN)) {
			WRITE_ONCE(vfile->cancel, true);
			wait_for_completion(&vfile->idle);
		}
	}
	vatom_job_destroy(vfile->spare_job, vfile->acct);
	vfile->spare_job = NULL;
}
