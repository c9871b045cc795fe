// SPDX-License-Identifier: MIT
/*
 * SUBMIT and RESET_STATUS of the in-process device, as vatom.ko's
 * vatom_submit.c and vatom_reset.c: the arguments checked by the same
 * rules (vatom_rules.h) in the same order, the syncobjs looked up, the
 * binding table resolved, the stream copied in once and validated whole
 * by the engine before anything runs; then a synchronous job executes in
 * the caller's thread once the file's earlier jobs are done (job.c), and
 * an asynchronous one goes to its file's worker thread (sched.c), which
 * runs the file's jobs in submission order as their in-fences signal. A
 * job stops at the engine's next checkpoint when it runs past the job
 * timeout (-ETIMEDOUT: its file is reset, guilty until it acknowledges)
 * or its file closes.
 *
 * A job costs no system call: the engine runs on the surfaces' own
 * mapping, the copies are shim_copy_in()/shim_copy_out(), the clock is
 * the vDSO's.
 */

#include <errno.h>

#include "job.h"

/* --- preparing: everything that can fail, in the driver's order */

static int shim_job_in_syncs(struct shim_job *job,
			     const struct drm_vatom_submit *args)
{
	const struct drm_vatom_sync *u = (const void *)(uintptr_t)args->in_syncs;
	struct drm_vatom_sync sync;
	u32 i;
	int ret;

	for (i = 0; i < args->in_sync_count; i++) {
		if (shim_copy_in(&sync, &u[i], sizeof(sync)))
			return -EFAULT;
		ret = vatom_rule_sync(&sync);
		if (ret)
			return ret;
		ret = shim_syncobj_find_fence(job->f->syncobjs, sync.handle,
					      sync.point, 0, &job->deps[job->ndeps]);
		if (ret)
			return ret;
		job->ndeps++;
	}
	return 0;
}

static int shim_job_out_syncs(struct shim_job *job,
			      const struct drm_vatom_submit *args)
{
	const struct drm_vatom_sync *u = (const void *)(uintptr_t)args->out_syncs;
	struct drm_vatom_sync sync;
	struct shim_out *out;
	u32 i;
	int ret;

	for (i = 0; i < args->out_sync_count; i++) {
		if (shim_copy_in(&sync, &u[i], sizeof(sync)))
			return -EFAULT;
		ret = vatom_rule_sync(&sync);
		if (ret)
			return ret;
		out = &job->outs[job->nouts];
		out->chain = NULL;
		out->point = 0;
		out->syncobj = shim_syncobj_find(job->f->syncobjs, sync.handle);
		if (!out->syncobj)
			return -ENOENT;
		job->nouts++;
		if (sync.point) {
			out->chain = shim_chain_alloc();
			if (!out->chain)
				return -ENOMEM;
			out->point = sync.point;
		}
	}
	return 0;
}

static int shim_job_copy_stream(struct shim_job *job,
				const struct drm_vatom_submit *args)
{
	int ret;

	if (!args->stream_size)
		return 0;
	ret = shim_stream_buf_reserve(&job->sb, job->f->acct, args->stream_size);
	if (ret)
		return ret;
	job->stream = job->sb.buf;
	job->stream_size = args->stream_size;
	return shim_copy_in_stream(job->stream,
				   (const void *)(uintptr_t)args->stream,
				   args->stream_size);
}

/* vatom_job_results(): a result surface, or a bounce copy of the user's. */
static int shim_job_results(struct shim_job *job, struct drm_vatom_submit *args)
{
	struct vatom_stream_error err;
	void *u = (void *)(uintptr_t)args->results;
	int ret;

	if (args->result_handle) {
		job->result_surf = shim_surface_lookup(job->f, args->result_handle);
		if (!job->result_surf)
			return -ENOENT;
		if (!vatom_rule_region(&job->result_surf->view,
				       args->result_offset, args->results_size))
			return -EINVAL;
	}
	ret = vatom_rule_results_fit(args->results_needed, args->results_size,
				     &err);
	if (ret) {
		args->error_index = err.index;
		args->error_reason = err.reason;
		return ret;
	}
	if (!args->results_needed)
		return 0;
	if (job->result_surf) {
		job->results = job->result_surf->view.vaddr + args->result_offset;
		return 0;
	}
	/* Only synchronous submissions get here (vatom_rule_submit()). */
	if (args->results_needed > VATOM_MAX_RESULTS_SIZE)
		return -E2BIG;
	ret = shim_job_charge(job, args->results_needed);
	if (ret)
		return ret;
	job->bounce = shim_job_buf(&job->bounce_buf, &job->bounce_cap,
				   args->results_needed);
	if (!job->bounce)
		return -ENOMEM;
	/* Writable? The bytes just read, written back: nothing changes. */
	if (shim_copy_in(job->bounce, u, args->results_needed) ||
	    shim_copy_out_probe(u, job->bounce, args->results_needed))
		return -EFAULT;
	job->results = job->bounce;
	return 0;
}

static int shim_job_prepare(struct shim_job *job, struct drm_vatom_submit *args)
{
	struct vatom_stream_error err = { 0 };
	int ret;

	ret = shim_job_in_syncs(job, args);
	if (!ret)
		ret = shim_job_out_syncs(job, args);
	if (!ret)
		ret = shim_bindings_read(job->f, (const void *)(uintptr_t)args->bindings,
					 args->binding_count, job->surf, &job->b,
					 job->bound, &job->nbound);
	if (!ret)
		ret = shim_job_copy_stream(job, args);
	if (ret)
		return ret;
	ret = shim_exec_validate(&job->x, job->stream, job->stream_size, &job->b,
				 &args->results_needed, &err);
	if (ret) {
		args->error_index = err.index;
		args->error_reason = err.reason;
		return ret;
	}
	return shim_job_results(job, args);
}

/* --- the ioctls */

int shim_submit(struct shim_file *f, void *arg)
{
	struct drm_vatom_submit *args = arg;
	struct shim_job *job;
	int ret;

	/* Outputs only: never read back. */
	args->error_index = 0;
	args->error_reason = DRM_VATOM_ERR_NONE;
	args->results_needed = 0;

	ret = vatom_rule_submit(args);
	if (ret)
		return ret;
	if (atomic_fetch_add(&f->inflight, 1) >= shim_limits.max_jobs) {
		atomic_fetch_sub(&f->inflight, 1);
		return -EBUSY;
	}
	job = shim_job_alloc(f);
	if (!job) {
		atomic_fetch_sub(&f->inflight, 1);
		return -ENOMEM;
	}
	job->f = f;
	job->async = args->flags & DRM_VATOM_SUBMIT_ASYNC;
	shim_exec_init(&job->x, f, NULL);

	ret = shim_job_prepare(job, args);
	if (ret || (args->flags & DRM_VATOM_SUBMIT_VALIDATE_ONLY))
		goto free;
	if (job->async) {
		ret = shim_sched_push(job);
		if (!ret)
			return 0;	/* the worker's now */
		goto free;
	}
	ret = shim_job_run_sync(job);
	if (!ret && job->bounce &&
	    shim_copy_out((void *)(uintptr_t)args->results, job->bounce,
			  args->results_needed)) {
		args->error_reason = DRM_VATOM_ERR_RESULTS_FAULT;
		ret = -EFAULT;
	}
free:
	if (!job->id)
		shim_job_unaccount(job);
	shim_job_recycle(job);
	return ret;
}

int shim_reset_status(struct shim_file *f, void *arg)
{
	struct drm_vatom_reset_status *args = arg;
	u64 device, innocent;
	unsigned int guilty;

	if (vatom_rule_reset_status(args))
		return -EINVAL;
	shim_mutex_lock(&f->lock);
	guilty = atomic_load(&f->resets);
	device = atomic_load(&f->dev->resets) - f->device_resets_open;
	innocent = vatom_rule_reset_report(args, guilty,
					   atomic_load(&f->resets_acked), device,
					   f->innocent_acked);
	if (args->flags & DRM_VATOM_RESET_ACK) {
		atomic_store(&f->resets_acked, guilty);
		f->innocent_acked = innocent;
	}
	shim_mutex_unlock(&f->lock);
	return 0;
}
