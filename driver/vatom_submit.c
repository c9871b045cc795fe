// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * SUBMIT: copy the command stream in once, resolve the binding table,
 * validate the whole stream, and only then execute it.
 *
 * Nothing a user passes is trusted: sizes are bounded before anything is
 * allocated, every handle is looked up (and referenced) before use, and a
 * stream that fails validation has changed no memory.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>

#include "vatom_drv.h"

/**
 * struct vatom_job - one submission being prepared and executed
 * @bindings: slot table handed to the engine
 * @bound: surfaces referenced by the binding table, by slot
 * @result_surf: result surface, if results go to one
 * @stream: kernel copy of the command stream
 * @bounce: kernel copy of the user result region
 */
struct vatom_job {
	struct vatom_bindings bindings;
	struct vatom_surface *bound[DRM_VATOM_MAX_SLOTS];
	struct vatom_surface *result_surf;
	void *stream;
	u8 *bounce;
};

static void vatom_job_free(struct vatom_job *job)
{
	unsigned int i;

	for (i = 0; i < DRM_VATOM_MAX_SLOTS; i++)
		if (job->bound[i])
			drm_gem_object_put(&job->bound[i]->shmem.base);
	if (job->result_surf)
		drm_gem_object_put(&job->result_surf->shmem.base);
	kvfree(job->stream);
	kvfree(job->bounce);
	kfree(job);
}

static int vatom_job_bind(struct vatom_job *job, struct drm_file *file,
			  const struct drm_vatom_submit *args)
{
	struct drm_vatom_binding __user *ubind = u64_to_user_ptr(args->bindings);
	const struct vatom_surface_view *view;
	struct drm_vatom_binding bind;
	struct vatom_surface *surf;
	unsigned int i;
	int ret;

	for (i = 0; i < args->binding_count; i++) {
		if (copy_from_user(&bind, &ubind[i], sizeof(bind)))
			return -EFAULT;
		if (bind.flags || bind.pad || bind.slot >= DRM_VATOM_MAX_SLOTS)
			return -EINVAL;
		if (job->bound[bind.slot])
			return -EINVAL;		/* the same slot twice */

		surf = vatom_surface_lookup(file, bind.handle);
		if (!surf)
			return -ENOENT;
		job->bound[bind.slot] = surf;

		ret = vatom_surface_view(surf, &view);
		if (ret)
			return ret;
		job->bindings.slot[bind.slot] = view;
	}
	return 0;
}

static int vatom_job_copy_stream(struct vatom_job *job,
				 const struct drm_vatom_submit *args)
{
	if (!args->stream_size)
		return 0;

	job->stream = kvmalloc(args->stream_size, GFP_KERNEL);
	if (!job->stream)
		return -ENOMEM;
	if (copy_from_user(job->stream, u64_to_user_ptr(args->stream),
			   args->stream_size))
		return -EFAULT;
	return 0;
}

/*
 * Find where results go: a result surface or a kernel bounce buffer that
 * starts as a copy of the user's region, so lanes the stream does not write
 * keep their values either way.
 */
static int vatom_job_results(struct vatom_job *job, struct drm_file *file,
			     struct drm_vatom_submit *args, u8 **results)
{
	const struct vatom_surface_view *view;
	u64 end;
	int ret;

	*results = NULL;
	if (args->result_handle) {
		job->result_surf = vatom_surface_lookup(file, args->result_handle);
		if (!job->result_surf)
			return -ENOENT;
		ret = vatom_surface_view(job->result_surf, &view);
		if (ret)
			return ret;
		if (check_add_overflow(args->result_offset, args->results_size, &end) ||
		    end > view->size)
			return -EINVAL;
		/* Keep 64-bit results naturally aligned in the surface. */
		if (args->result_offset & 7)
			return -EINVAL;
	}

	if (args->results_needed > args->results_size) {
		args->error_index = 0;
		args->error_reason = DRM_VATOM_ERR_RESULTS;
		return -EINVAL;
	}
	if (!args->results_needed)
		return 0;

	if (job->result_surf) {
		*results = view->vaddr + args->result_offset;
		return 0;
	}

	if (args->results_needed > VATOM_MAX_RESULTS_SIZE)
		return -E2BIG;
	job->bounce = kvmalloc(args->results_needed, GFP_KERNEL);
	if (!job->bounce)
		return -ENOMEM;
	if (copy_from_user(job->bounce, u64_to_user_ptr(args->results),
			   args->results_needed))
		return -EFAULT;
	*results = job->bounce;
	return 0;
}

static int vatom_check_args(const struct drm_vatom_submit *args)
{
	if (args->flags & ~DRM_VATOM_SUBMIT_FLAGS)
		return -EINVAL;
	if (args->result_handle && args->results)
		return -EINVAL;		/* one destination only */
	if (!args->result_handle && args->result_offset)
		return -EINVAL;
	if (!args->binding_count && args->bindings)
		return -EINVAL;
	if (!args->in_sync_count && args->in_syncs)
		return -EINVAL;
	if (!args->out_sync_count && args->out_syncs)
		return -EINVAL;
	if (args->stream_size % 8)
		return -EINVAL;
	if (args->stream_size > VATOM_MAX_STREAM_SIZE ||
	    args->binding_count > DRM_VATOM_MAX_SLOTS)
		return -E2BIG;

	/* Asynchronous execution and syncobjs are not implemented yet. */
	if (args->flags & DRM_VATOM_SUBMIT_ASYNC ||
	    args->in_sync_count || args->out_sync_count)
		return -EOPNOTSUPP;
	return 0;
}

static void vatom_account(struct vatom_device *vdev, const struct vatom_stats *st)
{
	int f;

	atomic64_inc(&vdev->stats.submissions);
	for (f = 0; f < VATOM_FAMILY_COUNT; f++) {
		atomic64_add(st->packets[f], &vdev->stats.packets[f]);
		atomic64_add(st->elements[f], &vdev->stats.elements[f]);
	}
}

int vatom_ioctl_submit(struct drm_device *dev, void *data,
		       struct drm_file *file)
{
	struct vatom_device *vdev = to_vatom_device(dev);
	struct drm_vatom_submit *args = data;
	struct vatom_stream_error err = {};
	struct vatom_stats stats = {};
	struct vatom_job *job;
	u8 *results;
	int ret;

	/* Outputs only: never read back, so a restarted call sees no change. */
	args->error_index = 0;
	args->error_reason = DRM_VATOM_ERR_NONE;
	args->results_needed = 0;

	ret = vatom_check_args(args);
	if (ret)
		goto out;

	job = kzalloc(sizeof(*job), GFP_KERNEL);
	if (!job) {
		ret = -ENOMEM;
		goto out;
	}

	ret = vatom_job_bind(job, file, args);
	if (ret)
		goto out_free;
	ret = vatom_job_copy_stream(job, args);
	if (ret)
		goto out_free;

	ret = vatom_stream_validate(job->stream, args->stream_size,
				    &job->bindings, &args->results_needed, &err);
	if (ret) {
		args->error_index = err.index;
		args->error_reason = err.reason;
		goto out_free;
	}

	ret = vatom_job_results(job, file, args, &results);
	if (ret)
		goto out_free;

	vatom_stream_execute(job->stream, args->stream_size, &job->bindings,
			     results, &stats);
	vatom_account(vdev, &stats);

	if (job->bounce && copy_to_user(u64_to_user_ptr(args->results), job->bounce,
					args->results_needed))
		ret = -EFAULT;

out_free:
	vatom_job_free(job);
out:
	if (ret)
		atomic64_inc(&vdev->stats.errors);
	return ret;
}
