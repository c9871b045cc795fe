// SPDX-License-Identifier: MIT
/*
 * Asynchronous jobs of the in-process device, as vatom.ko's vatom_sched.c:
 * a file gets a worker thread of its own at its first asynchronous job
 * (the file's drm_sched entity; max_schedulers bounds the device's files
 * that have one), which runs the file's jobs in submission order as their
 * in-fences signal. A job pushed is past its point of no return: the
 * worker's. One that has not begun when its file closes, or was reset
 * after it was pushed, is cancelled; the one executing when the file
 * closes stops at the engine's next checkpoint.
 */

#include <errno.h>
#include <stdlib.h>

#include "job.h"

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

/**
 * shim_sched_push() - vatom_sched_push(): past the point of no return, the
 * job is the worker's
 * @job: a prepared asynchronous job
 *
 * Return: 0, the job the worker's now; or, the job still the caller's, -EIO
 * (the file is guilty), -EBUSY (max_schedulers reached), -ENOMEM or
 * -EAGAIN.
 */
int shim_sched_push(struct shim_job *job)
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
