// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Asynchronous jobs on the DRM GPU scheduler.
 *
 * Each file gets a scheduler of its own, with one entity, at its first
 * asynchronous submission: the arrangement of drivers whose firmware
 * schedules (Xe, panthor, nouveau). A scheduler completes, frees and
 * times its jobs in the order it ran them, as a hardware ring would,
 * while vatom executes the jobs of different files at the same time: on
 * one scheduler for the device, one file's long job would hold back the
 * cleanup and the timeouts of every other file's.
 *
 * A job is pushed to the entity under its file's lock (vatom_sched_push()),
 * its out-syncobjs get the scheduler's finished fence, and the scheduler
 * calls run_job once its dependencies are met. run_job gives the job its
 * hardware fence (vatom_fence.c) and hands it to the file's executor: a
 * work item on the device's unbound workqueue that executes the file's
 * jobs one after another, in the order run_job received them. So the
 * jobs of a file execute in submission order, back to back, while those
 * of different files execute on different CPUs; the scheduler's own
 * thread or work only hands jobs over, but for a small job (at most
 * VATOM_RUN_NOW_OPS element operations, microseconds) that finds the
 * executor idle, which it executes itself: the hand-over would cost more.
 *
 * In-syncobjs: the scheduler waits for one dependency fence per job,
 * signalled by callbacks on the in-syncobjs' fences once every one has
 * signalled (the first to fail gives the job its error, and the job does
 * not execute). The scheduler's own wait on a fence could not be called
 * off: a closing file calls off these callbacks, and the job completes,
 * cancelled, in its turn.
 *
 * A job that depends on another file's job waits for it to finish: the
 * scheduler waits for a fence of its own only until that job is handed
 * over, but another file's fence is another scheduler's.
 *
 * The scheduler times nothing (MAX_SCHEDULE_TIMEOUT, as Xe's firmware
 * scheduling does): the job timeout is the execution core's one deadline,
 * the same for every door (vatom_exec_run()), which stops the job at its
 * next checkpoint with -ETIMEDOUT, resetting its file (vatom_reset.c). A
 * CPU-executed job cannot wedge the device, so there is nothing for the
 * scheduler to recover: no stop, no resubmission, no timeout handler that
 * would have to put a job back on the scheduler's lists.
 *
 * Each scheduler is a kernel thread before 6.8: a device has at most
 * max_schedulers of them, all files together (-EBUSY past it), and each
 * is charged to its file's memory cap (VATOM_SCHED_BYTES) until the file
 * closes.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <linux/dma-fence.h>
#include <linux/slab.h>

#include <drm/drm_drv.h>
#include <drm/drm_print.h>

#include "vatom_compat_kernel.h"
#include "vatom_file.h"
#include "vatom_job.h"
#include "vatom_limits.h"
#include "vatom_sched.h"

/* How long a closing file lets its jobs complete before cancelling them. */
#define VATOM_CLOSE_DRAIN	(HZ / 2)

/*
 * Largest job run_job executes itself when the executor is idle: handing
 * it over would cost more than executing it (a wake-up and a context
 * switch), and the scheduler's thread or work is the file's own.
 */
#define VATOM_RUN_NOW_OPS	4096

/*
 * Jobs a scheduler hands to its executor ahead: enough that the executor
 * goes from one to the next without waiting for the scheduler.
 */
#define VATOM_SCHED_CREDITS	32

static inline struct vatom_job *to_vatom_job(struct drm_sched_job *sj)
{
	return container_of(sj, struct vatom_job, base);
}

static inline struct vatom_sched *to_vatom_sched(struct drm_gpu_scheduler *s)
{
	return container_of(s, struct vatom_sched, base);
}

/* Execute the jobs run_job handed over, in order, until there are none. */
static void vatom_sched_work(struct work_struct *work)
{
	struct vatom_sched *s = container_of(work, struct vatom_sched, work);
	struct vatom_job *job;

	for (;;) {
		spin_lock(&s->lock);
		job = list_first_entry_or_null(&s->runnable, struct vatom_job,
					       run_link);
		if (job)
			list_del(&job->run_link);
		else
			s->running = false;
		spin_unlock(&s->lock);
		if (!job)
			return;
		vatom_job_run(job);
		cond_resched();
	}
}

static struct dma_fence *vatom_sched_run_job(struct drm_sched_job *sj)
{
	struct vatom_job *job = to_vatom_job(sj);
	struct vatom_sched *s = to_vatom_sched(sj->sched);
	struct dma_fence *fence;
	bool kick, now;

	vatom_sched_thread_normal();
	/* Never run twice: vatom does not stop and resubmit (drm_sched_stop()). */
	vatom_fence_init(job->fence_mem, s->vfile->vdev, &s->hold, s->context,
			 ++s->seqno);
	job->fence = job->fence_mem;
	job->fence_mem = NULL;
	fence = dma_fence_get(&job->fence->base);

	spin_lock(&s->lock);
	/* A job with a fault injected may take long: never here. */
	now = !s->running && job->ops <= VATOM_RUN_NOW_OPS &&
	      job->exec.fault == VATOM_FAULT_NONE;
	if (!now)
		list_add_tail(&job->run_link, &s->runnable);
	kick = !s->running && !now;
	s->running |= kick;
	spin_unlock(&s->lock);
	if (now)
		vatom_job_run(job);	/* the executor is idle: nothing before it */
	else if (kick)
		queue_work(s->vfile->vdev->wq, &s->work);
	return fence;
}

/*
 * Never called: the scheduler's timeout is MAX_SCHEDULE_TIMEOUT and vatom
 * reports no fault to it (drm_sched_fault()). The job timeout is the
 * execution core's (vatom_exec_run()).
 */
static enum drm_gpu_sched_stat vatom_sched_timedout_job(struct drm_sched_job *sj)
{
	WARN_ON_ONCE(1);
	return VATOM_SCHED_STAT_NOT_HUNG;
}

static void vatom_sched_free_job(struct drm_sched_job *sj)
{
	drm_sched_job_cleanup(sj);
	vatom_job_free(to_vatom_job(sj));
}

static const struct drm_sched_backend_ops vatom_sched_ops = {
	.run_job	= vatom_sched_run_job,
	.timedout_job	= vatom_sched_timedout_job,
	.free_job	= vatom_sched_free_job,
};

/* &vatom_fence_hold.release: free a scheduler that is finished. */
static void vatom_sched_release(struct kref *ref)
{
	kfree(container_of(ref, struct vatom_sched, hold.ref));
}

/* What a file's scheduler makes the kernel hold: charged to the file. */
#define VATOM_SCHED_BYTES	(sizeof(struct vatom_sched) + VATOM_SCHED_THREAD_BYTES)

/* Give back a scheduler's place in the device and its charge. */
static void vatom_sched_unaccount(struct vatom_file *vfile)
{
	vatom_account_uncharge(vfile->acct, VATOM_SCHED_BYTES);
	atomic_dec(&vfile->vdev->schedulers);
}

/*
 * The file's scheduler, created at its first asynchronous job, within the
 * device's max_schedulers (-EBUSY) and the file's memory cap (-ENOSPC).
 */
static struct vatom_sched *vatom_file_sched(struct vatom_file *vfile)
{
	struct vatom_device *vdev = vfile->vdev;
	struct vatom_sched *s;
	int ret;

	lockdep_assert_held(&vfile->lock);
	if (vfile->sched)
		return vfile->sched;

	if (atomic_inc_return(&vdev->schedulers) > vatom_max_schedulers()) {
		atomic_dec(&vdev->schedulers);
		return ERR_PTR(-EBUSY);
	}
	ret = vatom_account_charge(vfile->acct, VATOM_SCHED_BYTES);
	if (ret) {
		atomic_dec(&vdev->schedulers);
		return ERR_PTR(ret);
	}
	s = kzalloc(sizeof(*s), GFP_KERNEL_ACCOUNT);
	if (!s) {
		ret = -ENOMEM;
		goto out_unaccount;
	}
	kref_init(&s->hold.ref);
	s->hold.release = vatom_sched_release;
	s->vfile = vfile;
	s->context = dma_fence_context_alloc(1);
	spin_lock_init(&s->lock);
	INIT_LIST_HEAD(&s->runnable);
	INIT_WORK(&s->work, vatom_sched_work);
	snprintf(s->name, sizeof(s->name), "vatom-client-%llu", vfile->client_id);

	/* No timeout: the job timeout is the execution core's. */
	ret = vatom_sched_init(&s->base, &vatom_sched_ops, vdev->wq,
			       VATOM_SCHED_CREDITS, MAX_SCHEDULE_TIMEOUT,
			       s->name, vdev->drm.dev);
	if (ret)
		goto out_free;
	s->list[0] = &s->base;
	ret = drm_sched_entity_init(&s->entity, DRM_SCHED_PRIORITY_NORMAL,
				    s->list, 1, NULL);
	if (ret)
		goto out_fini;
	vfile->sched = s;
	return s;

out_fini:
	drm_sched_fini(&s->base);
out_free:
	kfree(s);
out_unaccount:
	vatom_sched_unaccount(vfile);
	return ERR_PTR(ret);
}

/* One of the job's in-syncobj fences signalled, or is no longer waited for. */
static void vatom_sched_dep_done(struct vatom_job *job)
{
	if (atomic_dec_and_test(&job->pending))
		dma_fence_signal(&job->deps_fence->base);
}

/* Record the first failed in-syncobj fence; @error is 0 or negative. */
static void vatom_sched_dep_error(struct vatom_job *job, int error)
{
	if (error < 0)
		cmpxchg(&job->dep_error, 0, error);
}

static void vatom_sched_dep_cb(struct dma_fence *fence, struct dma_fence_cb *cb)
{
	struct vatom_dep *dep = container_of(cb, struct vatom_dep, cb);

	vatom_sched_dep_error(dep->job, fence->error);
	vatom_sched_dep_done(dep->job);
}

/* Have the job's dependency fence signal once its in-syncobjs' have. */
static void vatom_sched_arm_deps(struct vatom_job *job)
{
	struct vatom_dep *dep;
	unsigned int i;

	/* One count per fence, plus one until every callback is armed. */
	atomic_set(&job->pending, job->ndeps + 1);
	for (i = 0; i < job->ndeps; i++) {
		dep = &job->deps[i];
		dep->job = job;
		if (!dma_fence_add_callback(dep->fence, &dep->cb,
					    vatom_sched_dep_cb)) {
			dep->armed = true;
			continue;
		}
		/* Already signalled (-ENOENT). */
		vatom_sched_dep_error(job, dep->fence->error);
		vatom_sched_dep_done(job);
	}
	vatom_sched_dep_done(job);
}

/*
 * The file is closing, or its device is gone: stop waiting for the job's
 * in-syncobj fences that have not signalled, and cancel the job if there
 * was one. It completes in its turn, after the file's earlier jobs
 * (-ENODEV once the device is gone: vatom_job_run()).
 */
static void vatom_sched_cancel_waits(struct vatom_job *job)
{
	struct vatom_dep *dep;
	unsigned int i;

	/* Holding it keeps the job in the file's list, and alive. */
	lockdep_assert_held(&job->vfile->jobs_lock);
	for (i = 0; i < job->ndeps; i++) {
		dep = &job->deps[i];
		if (!dep->armed)
			continue;
		if (!dma_fence_remove_callback(dep->fence, &dep->cb))
			continue;	/* its callback has run */
		dep->armed = false;
		job->cancelled = true;
		vatom_sched_dep_done(job);
	}
}

/**
 * vatom_sched_push() - submit a prepared asynchronous job to its file's
 * scheduler
 * @job: a job whose stream is validated, surfaces bound, in-syncobj fences
 *	in @job->deps and out-syncobjs in @job->outs
 *
 * Return: 0, and the job belongs to the scheduler (the caller must not
 * touch it); -ERESTARTSYS, -EIO (the file is guilty), -EBUSY (the file's
 * first asynchronous job, with the device's max_schedulers files already
 * running them), -ENOSPC or -ENOMEM, and nothing changed (the caller
 * frees the job).
 */
int vatom_sched_push(struct vatom_job *job)
{
	struct vatom_file *vfile = job->vfile;
	struct dma_fence *finished;
	struct vatom_sched *s;
	int ret;

	if (mutex_lock_interruptible(&vfile->lock))
		return -ERESTARTSYS;
	ret = vatom_job_admit(job);
	if (ret)
		goto unlock;
	s = vatom_file_sched(vfile);
	if (IS_ERR(s)) {
		ret = PTR_ERR(s);
		goto unlock;
	}
	ret = vatom_sched_job_init(&job->base, &s->entity, vfile,
				   vfile->client_id);
	if (ret)
		goto unlock;
	if (job->deps_fence) {
		/* Takes the reference, also when it fails. */
		ret = drm_sched_job_add_dependency(&job->base,
						   dma_fence_get(&job->deps_fence->base));
		if (ret) {
			drm_sched_job_cleanup(&job->base);
			goto unlock;
		}
	}

	/* The point of no return; the job stops on its file's close. */
	drm_sched_job_arm(&job->base);
	vatom_exec_pass_on(&job->exec, VATOM_DOOR_ASYNC, &vfile->cancel);
	finished = &job->base.s_fence->finished;
	vatom_job_accept(job, finished);
	dma_fence_put(vfile->last_fence);
	vfile->last_fence = dma_fence_get(finished);
	vatom_job_install_outs(job, finished);
	if (job->deps_fence) {
		/*
		 * Listed and armed in one section of the lock a closing file
		 * and an unbind take to call off the waits: they see the job
		 * with its callbacks armed, or not at all. An unbind that
		 * walked the list before it (the device flag is set first)
		 * is seen here, and the waits are called off at once.
		 */
		spin_lock(&vfile->jobs_lock);
		list_add_tail(&job->link, &vfile->jobs);
		vatom_sched_arm_deps(job);
		if (drm_dev_is_unplugged(&vfile->vdev->drm))
			vatom_sched_cancel_waits(job);
		spin_unlock(&vfile->jobs_lock);
	}
	drm_sched_entity_push_job(&job->base);
unlock:
	mutex_unlock(&vfile->lock);
	return ret;
}

/**
 * vatom_file_jobs_stop_waiting() - stop waiting for the in-syncobjs of the
 * file's jobs: each completes in its turn, cancelled (or -ENODEV, its
 * device gone), its fence signalled
 * @vfile: the file, closing or on an unbound device
 */
void vatom_file_jobs_stop_waiting(struct vatom_file *vfile)
{
	struct vatom_job *job;

	spin_lock(&vfile->jobs_lock);
	list_for_each_entry(job, &vfile->jobs, link)
		vatom_sched_cancel_waits(job);
	spin_unlock(&vfile->jobs_lock);
}

/**
 * vatom_file_jobs_release() - end the jobs of a closing file: cancel those
 * that wait for in-syncobjs, let the others complete for a while, cancel
 * what is left, wait for every one, then finish the file's scheduler
 * @vfile: the file, whose handles, syncobjs and queues are already
 *	released, and on which no ioctl runs
 */
void vatom_file_jobs_release(struct vatom_file *vfile)
{
	struct vatom_sched *s = vfile->sched;

	vatom_file_jobs_stop_waiting(vfile);

	if (!atomic_dec_and_test(&vfile->live)) {
		/* As the DRM scheduler does for an exiting process's jobs. */
		if (!wait_for_completion_timeout(&vfile->idle, VATOM_CLOSE_DRAIN)) {
			WRITE_ONCE(vfile->cancel, true);
			wait_for_completion(&vfile->idle);
		}
	}
	vatom_file_spare_job_free(vfile);
	if (!s)
		return;

	/* Every job is freed: the entity is idle, the executor done. */
	drm_sched_entity_destroy(&s->entity);
	drm_sched_fini(&s->base);
	flush_work(&s->work);
	s->vfile = NULL;
	vfile->sched = NULL;
	vatom_sched_unaccount(vfile);
	vatom_fence_hold_put(&s->hold);
}
