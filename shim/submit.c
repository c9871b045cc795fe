// SPDX-License-Identifier: MIT
/*
 * SUBMIT and RESET_STATUS of the in-process device, as vatom.ko's
 * vatom_submit.c, vatom_job.c and vatom_reset.c: the arguments checked by
 * the same rules (vatom_rules.h) in the same order, the syncobjs looked
 * up, the binding table resolved, the stream copied in once and
 * validated whole by the engine before anything runs; then a synchronous
 * job executes in the caller's thread once the file's earlier jobs are
 * done, and an asynchronous one goes to its file's worker thread (the
 * file's drm_sched entity), which runs the file's jobs in submission
 * order as their in-fences signal. A job stops at the engine's next
 * checkpoint when it runs past the job timeout (-ETIMEDOUT: its file is
 * reset, guilty until it acknowledges) or its file closes.
 *
 * A job costs no system call: the engine runs on the surfaces' own
 * mapping, the copies are shim_copy_in()/shim_copy_out(), the clock is
 * the vDSO's.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

/**
 * struct shim_sched - a file's worker of asynchronous jobs
 * @thread: the worker
 * @lock: protects the rest
 * @wake: a job was queued, or the file closes
 * @head: the first job not yet run
 * @tail: the last
 * @stop: the file closes: the worker cancels what is left and ends
 */
struct shim_sched {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	struct shim_job *head, *tail;
	bool stop;
};

static int shim_job_charge(struct shim_job *job, u64 bytes)
{
	int ret = shim_account_charge(job->f->acct, bytes);

	if (!ret)
		job->charged += bytes;
	return ret;
}

/* Return the job's in-flight slot and charge (vatom_job_unaccount()). */
static void shim_job_unaccount(struct shim_job *job)
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

/* Free a released job and what it keeps (its stream buffer's charge back). */
static void shim_job_destroy(struct shim_job *job)
{
	shim_stream_buf_free(&job->sb, job->f->acct);
	free(job->bounce_buf);
	free(job);
}

static void shim_job_free(struct shim_job *job)
{
	shim_job_release(job);
	shim_job_destroy(job);
}

/* @n bytes of the job's kept bounce buffer (@buf, @cap), or NULL. */
static void *shim_job_buf(void **buf, u64 *cap, u64 n)
{
	if (n <= *cap)
		return *buf;
	free(*buf);
	*buf = malloc(n);
	*cap = *buf ? n : 0;
	return *buf;
}

/*
 * A new job of @f: its spare if it has one (no 6 KiB to zero, no 256
 * slots to look at when it ends), else a zeroed one.
 */
static struct shim_job *shim_job_alloc(struct shim_file *f)
{
	struct shim_job *job = atomic_exchange(&f->spare_job, NULL);

	if (!job)
		return calloc(1, sizeof(*job));
	/* @x is shim_exec_init()'s, whole */
	memset(&job->f, 0, offsetof(struct shim_job, sb) -
			   offsetof(struct shim_job, f));
	return job;
}

/* A synchronous job done with: kept as the file's spare, or freed. */
static void shim_job_recycle(struct shim_job *job)
{
	struct shim_job *none = NULL;
	struct shim_file *f = job->f;

	shim_job_release(job);
	if (!atomic_compare_exchange_strong(&f->spare_job, &none, job))
		shim_job_destroy(job);
}

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

/* --- executing */

/* vatom_exec_run() of the job's stream, to its results. */
static int shim_job_execute(struct shim_job *job)
{
	return shim_exec_run(&job->x, job->stream, job->stream_size, &job->b,
			     job->results);
}

/* vatom_job_signal(): its slot and charge back first, then its fence. */
static void shim_job_signal(struct shim_job *job, int error)
{
	shim_job_unaccount(job);
	if (job->fence)
		shim_fence_signal(job->fence, error);
}

/* vatom_job_install_outs(): the out-syncobjs point at @fence. */
static void shim_job_install_outs(struct shim_job *job, struct shim_fence *fence)
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

/* The first of the job's in-fences that failed, its error, or 0. */
static int shim_job_deps_status(const struct shim_job *job)
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

/* vatom_job_run_sync(), less what a signal or an unbind would do. */
static int shim_job_run_sync(struct shim_job *job)
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

/* --- the asynchronous worker (the file's drm_sched entity) */

/*
 * Wait for @fence, or for the file to close: a job that has not begun
 * when it closes is cancelled, whatever it waits for. Looks every 10 ms.
 */
static void shim_sched_wait(struct shim_file *f, struct shim_fence *fence)
{
	while (!atomic_load(&f->cancel) &&
	       shim_fence_wait(fence, shim_now_ns() + 10000000ull))
		;
}

/* vatom_job_run(): execute it, or cancel it, and signal its fence. */
static void shim_sched_run(struct shim_job *job)
{
	struct shim_file *f = job->f;
	int error;
	u32 i;

	for (i = 0; i < job->ndeps; i++)
		shim_sched_wait(f, job->deps[i]);
	error = shim_job_deps_status(job);
	if (!error && (atomic_load(&f->cancel) ||
		       job->resets != atomic_load(&f->resets)))
		error = -ECANCELED;
	if (!error)
		error = shim_job_execute(job);
	shim_job_signal(job, error);
}

static void *shim_sched_main(void *data)
{
	struct shim_sched *sched = data;
	struct shim_job *job;

	pthread_mutex_lock(&sched->lock);
	for (;;) {
		while (!sched->head && !sched->stop)
			pthread_cond_wait(&sched->wake, &sched->lock);
		job = sched->head;
		if (!job)
			break;
		sched->head = job->next;
		if (!sched->head)
			sched->tail = NULL;
		pthread_mutex_unlock(&sched->lock);
		shim_sched_run(job);
		shim_job_free(job);
		pthread_mutex_lock(&sched->lock);
	}
	pthread_mutex_unlock(&sched->lock);
	return NULL;
}

/* The file's worker, started with its first asynchronous job. */
static int shim_sched_get(struct shim_file *f)
{
	struct shim_sched *sched;

	if (f->sched)
		return 0;
	/* vatom_sched.c: a device's files with a scheduler are bounded. */
	if (atomic_fetch_add(&f->dev->schedulers, 1) >=
	    __atomic_load_n(&shim_limits.max_schedulers, __ATOMIC_RELAXED)) {
		atomic_fetch_sub(&f->dev->schedulers, 1);
		return -EBUSY;
	}
	sched = calloc(1, sizeof(*sched));
	if (!sched) {
		atomic_fetch_sub(&f->dev->schedulers, 1);
		return -ENOMEM;
	}
	pthread_mutex_init(&sched->lock, NULL);
	pthread_cond_init(&sched->wake, NULL);
	if (pthread_create(&sched->thread, NULL, shim_sched_main, sched)) {
		pthread_cond_destroy(&sched->wake);
		pthread_mutex_destroy(&sched->lock);
		free(sched);
		atomic_fetch_sub(&f->dev->schedulers, 1);
		return -EAGAIN;
	}
	f->sched = sched;
	return 0;
}

/* vatom_sched_push(): past the point of no return, the job is the worker's. */
static int shim_sched_push(struct shim_job *job)
{
	struct shim_file *f = job->f;
	struct shim_sched *sched;
	int ret;

	shim_mutex_lock(&f->lock);
	if (shim_file_guilty(f)) {
		shim_mutex_unlock(&f->lock);
		return -EIO;
	}
	ret = shim_sched_get(f);
	if (!ret) {
		job->fence = shim_fence_new();
		if (!job->fence)
			ret = -ENOMEM;
	}
	if (ret) {
		shim_mutex_unlock(&f->lock);
		return ret;
	}
	job->resets = atomic_load(&f->resets);
	job->id = atomic_fetch_add(&f->submitted, 1) + 1;
	shim_job_install_outs(job, job->fence);
	if (f->last_fence)
		shim_fence_put(f->last_fence);
	f->last_fence = shim_fence_get(job->fence);

	sched = f->sched;
	pthread_mutex_lock(&sched->lock);
	if (sched->tail)
		sched->tail->next = job;
	else
		sched->head = job;
	sched->tail = job;
	pthread_cond_signal(&sched->wake);
	pthread_mutex_unlock(&sched->lock);
	shim_mutex_unlock(&f->lock);
	return 0;
}

/**
 * shim_file_stop_jobs() - at the file's release: its jobs stop
 * @f: the file, with no ioctl in flight
 *
 * Those not begun are cancelled, the one executing stops at its next
 * checkpoint (-ECANCELED), and the worker ends; their fences signal.
 */
void shim_file_stop_jobs(struct shim_file *f)
{
	struct shim_sched *sched = f->sched;
	struct shim_job *job;

	atomic_store(&f->cancel, true);
	if (sched) {
		pthread_mutex_lock(&sched->lock);
		sched->stop = true;
		pthread_cond_signal(&sched->wake);
		pthread_mutex_unlock(&sched->lock);
		pthread_join(sched->thread, NULL);
		pthread_cond_destroy(&sched->wake);
		pthread_mutex_destroy(&sched->lock);
		free(sched);
		f->sched = NULL;
		atomic_fetch_sub(&f->dev->schedulers, 1);
	}
	if (f->last_fence)
		shim_fence_put(f->last_fence);
	f->last_fence = NULL;
	job = atomic_exchange(&f->spare_job, NULL);
	if (job)
		shim_job_destroy(job);
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
