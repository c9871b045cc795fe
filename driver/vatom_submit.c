// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * SUBMIT: build a job from the user's arguments: check them, look up the
 * syncobjs, resolve the binding table (taking a reference on every
 * surface), copy the command stream in once and validate all of it. Only
 * then does the job pass its point of no return, after which nothing can
 * fail: a rejected submission has changed no memory and no syncobj.
 *
 * Synchronous and asynchronous submissions share all of this. A
 * synchronous one then waits for its dependencies, executes in the calling
 * thread and copies results back (vatom_job_run_sync()); an asynchronous
 * one is pushed to its file's GPU scheduler and returns at once
 * (vatom_sched_push()).
 *
 * Nothing a user passes is trusted: sizes are bounded before anything is
 * allocated and every handle is looked up (and referenced) before use.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <linux/dma-fence-chain.h>
#include <linux/slab.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_syncobj.h>

#include "vatom_device.h"
#include "vatom_exec.h"
#include "vatom_gem.h"
#include "vatom_ioctl.h"
#include "vatom_job.h"
#include "vatom_sched.h"
#include "vatom_uaccess.h"

/* Copy a stream of @args->stream_size (not 0) bytes into the job. */
static int vatom_job_copy_stream(struct vatom_job *job,
				 const struct drm_vatom_submit *args)
{
	int ret;

	/* The buffer counts against the file's memory cap while it exists. */
	ret = vatom_stream_buf_reserve(&job->stream, job->vfile->acct,
				       args->stream_size);
	if (ret)
		return ret;
	job->stream_size = args->stream_size;
	return vatom_user_copy(job->stream.buf, u64_to_user_ptr(args->stream),
			       args->stream_size, VATOM_COPY_IN);
}

/*
 * Find where results go: a result surface or a kernel bounce buffer that
 * starts as a copy of the user's region, so lanes the stream does not write
 * keep their values either way. The user's region must also be writable
 * now, before anything executes: a submission that fails changes nothing.
 */
static int vatom_job_results(struct vatom_job *job, struct drm_file *file,
			     struct drm_vatom_submit *args)
{
	const struct vatom_surface_view *view;
	struct vatom_stream_error err;
	int ret;

	if (args->result_handle) {
		job->result_surf = vatom_surface_lookup(file, args->result_handle);
		if (!job->result_surf)
			return -ENOENT;
		ret = vatom_surface_view(job->result_surf, &view);
		if (ret)
			return ret;
		if (!vatom_rule_region(view, args->result_offset,
				       args->results_size))
			return -EINVAL;
	}

	ret = vatom_rule_results_fit(args->results_needed, args->results_size,
				     &err);
	if (ret) {
		args->error_index = err.index;
		args->error_reason = err.reason;
		return ret;
	}
	job->exec.results_size = args->results_needed;
	if (!args->results_needed)
		return 0;

	if (job->result_surf) {
		job->results = view->vaddr + args->result_offset;
		return 0;
	}

	/* Only synchronous submissions get here (vatom_rule_submit()). */
	if (args->results_needed > VATOM_MAX_RESULTS_SIZE)
		return -E2BIG;
	ret = vatom_job_bounce(job, args->results_needed);
	if (ret)
		return ret;
	/*
	 * Writable? Write the bytes just read back: the region is the call's
	 * until it returns, and holds these bytes where no lane writes at the
	 * end anyway. Cheaper than fault_in_safe_writeable()'s page walk.
	 */
	ret = vatom_user_copy(job->bounce, u64_to_user_ptr(args->results),
			      args->results_needed,
			      VATOM_COPY_IN | VATOM_COPY_OUT);
	if (ret)
		return ret;
	job->results = job->bounce;
	return 0;
}

/* The fences of the in-syncobjs, as the DRM core finds them. */
static int vatom_job_in_syncs(struct vatom_job *job, struct drm_file *file,
			      const struct drm_vatom_submit *args)
{
	struct drm_vatom_sync __user *usync = u64_to_user_ptr(args->in_syncs);
	struct drm_vatom_sync sync;
	struct dma_fence *fence;
	struct vatom_dep *dep;
	unsigned int i;
	int ret;

	for (i = 0; i < args->in_sync_count; i++) {
		if (vatom_user_copy(&sync, &usync[i], sizeof(sync),
				    VATOM_COPY_IN))
			return -EFAULT;
		ret = vatom_rule_sync(&sync);
		if (ret)
			return ret;
		/*
		 * -ENOENT for an unknown handle; -EINVAL for a syncobj
		 * without a fence (nothing submitted yet), or for a point on
		 * a binary syncobj or past a timeline's last point.
		 */
		ret = drm_syncobj_find_fence(file, sync.handle, sync.point, 0, &fence);
		if (ret)
			return ret;
		dep = &job->deps[job->ndeps++];
		dep->fence = fence;
	}
	return 0;
}

/* The out-syncobjs, with a chain node for each timeline point. */
static int vatom_job_out_syncs(struct vatom_job *job, struct drm_file *file,
			       const struct drm_vatom_submit *args)
{
	struct drm_vatom_sync __user *usync = u64_to_user_ptr(args->out_syncs);
	struct drm_vatom_sync sync;
	struct vatom_out_sync *out;
	unsigned int i;
	int ret;

	for (i = 0; i < args->out_sync_count; i++) {
		if (vatom_user_copy(&sync, &usync[i], sizeof(sync),
				    VATOM_COPY_IN))
			return -EFAULT;
		ret = vatom_rule_sync(&sync);
		if (ret)
			return ret;
		out = &job->outs[job->nouts];
		out->syncobj = drm_syncobj_find(file, sync.handle);
		if (!out->syncobj)
			return -ENOENT;
		job->nouts++;
		if (sync.point) {
			out->chain = dma_fence_chain_alloc();
			if (!out->chain)
				return -ENOMEM;
			out->point = sync.point;
		}
	}
	return 0;
}

/* Everything that can fail, in the order the errors are reported. */
static int vatom_job_prepare(struct vatom_job *job, struct drm_file *file,
			     struct drm_vatom_submit *args)
{
	struct vatom_stream_error err = {};
	int ret;

	ret = vatom_job_in_syncs(job, file, args);
	if (ret)
		return ret;
	ret = vatom_job_out_syncs(job, file, args);
	if (ret)
		return ret;
	ret = vatom_binding_table_read(&job->table, file, args->bindings,
				       args->binding_count);
	if (ret)
		return ret;
	/* An empty stream: nothing to copy or validate. */
	if (args->stream_size) {
		ret = vatom_job_copy_stream(job, args);
		if (ret)
			return ret;
		/* In the submitter's thread, whatever the job's door. */
		ret = vatom_exec_validate(&job->exec, job->stream.buf,
					  args->stream_size,
					  &job->table.bindings,
					  &args->results_needed, &job->ops,
					  &err);
		if (ret) {
			args->error_index = err.index;
			args->error_reason = err.reason;
			return ret;
		}
	}
	return vatom_job_results(job, file, args);
}

/*
 * A submission failed before its point of no return: the core counts,
 * traces and explains it. @job: NULL when none was allocated.
 */
static void vatom_submit_rejected(struct drm_file *file,
				  const struct vatom_job *job,
				  const struct drm_vatom_submit *args, int ret)
{
	const struct vatom_stream_error err = {
		.index = args->error_index,
		.reason = args->error_reason,
	};

	vatom_exec_rejected(file->driver_priv, ret, job ? job->stream.buf : NULL,
			    job ? job->stream_size : 0, &err);
}

int vatom_ioctl_submit(struct drm_device *dev, void *data,
		       struct drm_file *file)
{
	struct drm_vatom_submit *args = data;
	struct vatom_job *job = NULL;
	bool async;
	int ret;

	/* Outputs only: never read back, so a restarted call sees no change. */
	args->error_index = 0;
	args->error_reason = DRM_VATOM_ERR_NONE;
	args->results_needed = 0;

	ret = vatom_rule_submit(args);
	if (ret)
		goto out;
	async = args->flags & DRM_VATOM_SUBMIT_ASYNC;

	job = vatom_job_alloc(file->driver_priv, async, args->in_sync_count,
			      args->out_sync_count);
	if (IS_ERR(job)) {
		ret = PTR_ERR(job);
		job = NULL;
		goto out;
	}

	ret = vatom_job_prepare(job, file, args);
	if (ret || (args->flags & DRM_VATOM_SUBMIT_VALIDATE_ONLY))
		goto free;	/* validate-only: everything is checked */
	if (async) {
		ret = vatom_sched_push(job);
		if (!ret)
			return 0;	/* the job belongs to its scheduler now */
		goto free;
	}

	/* Interrupted before its point of no return, it leaves nothing. */
	ret = vatom_job_run_sync(job);
	/*
	 * Only if another thread made the results unwritable since
	 * vatom_job_results() checked: executed, but say so.
	 */
	if (!ret && job->bounce &&
	    vatom_user_copy(job->bounce, u64_to_user_ptr(args->results),
			    args->results_needed, VATOM_COPY_OUT)) {
		args->error_reason = DRM_VATOM_ERR_RESULTS_FAULT;
		ret = -EFAULT;
	}
free:
	if (ret && !job->id)
		vatom_submit_rejected(file, job, args, ret);
	else if (ret)
		vatom_exec_failed(file->driver_priv);
	vatom_job_free(job);
	return ret;
out:
	/* Before a job was allocated. */
	vatom_submit_rejected(file, NULL, args, ret);
	return ret;
}
