/* SPDX-License-Identifier: MIT */
/*
 * libvatom: User-mode queues.
 * One area of the library's interface: programs include <vatom.h>,
 * which includes them all; this header also compiles alone.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_QUEUE_H_
#define _VATOM_QUEUE_H_

#include <vatom/common.h>

#if defined(__cplusplus)
extern "C" {
#endif

/*
 * A queue submits jobs without a system call each (docs/queues.md): jobs
 * are written to a ring shared with the kernel and consumed by one
 * vatom_queue_kick() for any number of them. Each job is a command stream
 * (built with a batch, or written directly) whose packets name the slots
 * of the binding table the queue was created with. The producer side
 * (reserve, commit, submit, kick) is for one thread at a time.
 */

struct vatom_queue;

/**
 * struct vatom_queue_params - the shape of a queue
 * @entries: jobs the ring holds, a power of two up to
 *	DRM_VATOM_PARAM_MAX_QUEUE_ENTRIES
 * @stream_bytes: bytes of stream one job may have (a multiple of 8, >= 8)
 * @results_bytes: bytes of results one job may have (a multiple of 8; 0
 *	for jobs that return none)
 */
struct vatom_queue_params {
	uint32_t entries;
	uint32_t stream_bytes;
	uint32_t results_bytes;
};

/**
 * vatom_queue_create() - create a kick-mode user-mode queue
 * @dev: the device
 * @p: its shape
 * @bindings: the binding table, as vatom_queue_create_ext()'s
 * @q: out, the queue
 *
 * vatom_queue_create_ext() with a NULL @ext: no polling thread, no
 * completion signals.
 *
 * Return: as vatom_queue_create_ext().
 */
VATOM_API int vatom_queue_create(struct vatom_device *dev,
				 const struct vatom_queue_params *p,
				 const struct vatom_batch *bindings,
				 struct vatom_queue **q);

/* struct vatom_queue_ext.flags: the UAPI's DRM_VATOM_QUEUE_CREATE_* bits */
#define VATOM_QUEUE_POLL	DRM_VATOM_QUEUE_CREATE_POLL
#define VATOM_QUEUE_EVENTFD	DRM_VATOM_QUEUE_CREATE_EVENTFD
#define VATOM_QUEUE_POLL_CPU	DRM_VATOM_QUEUE_CREATE_POLL_CPU

/**
 * struct vatom_queue_ext - what a queue does beyond its shape
 * @flags: %VATOM_QUEUE_POLL: a kernel thread consumes the ring, so a job
 *	needs no system call (vatom_queue_kick() makes one only when it
 *	sleeps); %VATOM_QUEUE_EVENTFD: signal @eventfd;
 *	%VATOM_QUEUE_POLL_CPU (with %VATOM_QUEUE_POLL): the thread runs on
 *	@poll_cpu
 * @poll_idle_us: with %VATOM_QUEUE_POLL, how long the thread polls an
 *	empty ring before it sleeps (0: the kernel's default, 1 ms; at most
 *	DRM_VATOM_PARAM_MAX_POLL_IDLE_US)
 * @syncobj: a DRM syncobj handle of the device's fd (libdrm's
 *	drmSyncobjCreate() on vatom_device_fd()), or 0: the queue adds
 *	point n, signalled, when its job n is complete (in batches: a wait
 *	for point n ends once job n is)
 * @eventfd: with %VATOM_QUEUE_EVENTFD, an eventfd(2) signalled once per
 *	batch of jobs completed
 * @poll_cpu: with %VATOM_QUEUE_POLL_CPU (libvatom 0.7), the CPU the
 *	thread runs on: one the caller may run on. A process has one such
 *	thread per device, for all its polling queues; the first queue to
 *	name a CPU pins it there, and a later one may name that CPU or none.
 *	Keep the producer on other CPUs: a thread that shares its CPU with
 *	the producer costs each job two context switches. Read only with
 *	its flag, so a program built against 0.6 is served as before.
 *
 * Zero it, then set what you use: the kernel-doc of
 * struct drm_vatom_queue_create says the rest.
 */
struct vatom_queue_ext {
	uint32_t flags;
	uint32_t poll_idle_us;
	uint32_t syncobj;
	int eventfd;
	uint32_t poll_cpu;
};

/**
 * vatom_queue_create_ext() - create a user-mode queue, with a polling
 *	thread, completion signals, or both
 * @dev: the device
 * @p: its shape
 * @ext: polling mode and signals, or NULL for neither
 * @bindings: a batch whose bound surfaces become the queue's binding table
 *	(fixed for the queue's life; the queue references them), or NULL
 * @q: out, the queue
 *
 * The library adds a stream surface and a results surface (one area of
 * @p->stream_bytes and @p->results_bytes per ring entry) at the two
 * highest slots @bindings leaves free.
 *
 * Return: 0; -EINVAL for a bad @p, a batch of another device, unknown
 * @ext->flags, a @poll_idle_us, @eventfd or %VATOM_QUEUE_POLL_CPU its flag
 * does not enable, or one the kernel refuses (a @poll_cpu the caller may
 * not run on, or another than the one its polling thread is pinned to);
 * -EOPNOTSUPP when the device has no %DRM_VATOM_CAP_QUEUE, or lacks what
 * @ext asks for (%DRM_VATOM_CAP_QUEUE_POLL, %DRM_VATOM_CAP_QUEUE_SIGNAL,
 * %DRM_VATOM_CAP_QUEUE_POLL_CPU); -ENOSPC when
 * @bindings leaves fewer than two slots free, or past the file's memory
 * cap; -EBUSY when the device file has its maximum of queues, or the
 * device runs DRM_VATOM_PARAM_MAX_POLL_QUEUES polling queues; -EBADF,
 * -ENOENT for a bad @eventfd or @syncobj; -E2BIG; -ENOMEM.
 */
VATOM_API int vatom_queue_create_ext(struct vatom_device *dev,
				     const struct vatom_queue_params *p,
				     const struct vatom_queue_ext *ext,
				     const struct vatom_batch *bindings,
				     struct vatom_queue **q);

/**
 * vatom_queue_destroy() - destroy a queue and the surfaces it made
 * @q: the queue, or NULL
 *
 * Jobs committed and not yet consumed are dropped, never executed.
 */
VATOM_API void vatom_queue_destroy(struct vatom_queue *q);

/**
 * vatom_queue_reserve() - the stream area of the next job
 * @q: the queue
 * @stream_size: bytes the stream will have
 * @stream: out, where to write it (8-byte aligned)
 *
 * Return: 0; -E2BIG when @stream_size exceeds the queue's stream_bytes or
 * is not a multiple of 8; -EAGAIN when the ring is full (wait for the job
 * one ring back, vatom_queue_wait()).
 */
VATOM_API int vatom_queue_reserve(struct vatom_queue *q, uint32_t stream_size,
				  void **stream);

/**
 * vatom_queue_commit() - publish the job whose stream was reserved and written
 * @q: the queue
 * @stream_size: bytes of the stream
 * @results_size: bytes of results it returns (0: none); at most the
 *	queue's results_bytes
 *
 * Return: the job's sequence number (1 for the queue's first job).
 */
VATOM_API uint64_t vatom_queue_commit(struct vatom_queue *q, uint32_t stream_size,
				      uint64_t results_size);

/**
 * vatom_queue_submit_batch() - reserve, copy @b's stream and commit
 * @q: the queue
 * @b: a batch whose packets use the queue's slots
 * @seqno: out, the job's sequence number
 *
 * Return: 0; -E2BIG when the stream or its results exceed the queue's
 * areas; -EAGAIN when the ring is full.
 */
VATOM_API int vatom_queue_submit_batch(struct vatom_queue *q,
				       const struct vatom_batch *b,
				       uint64_t *seqno);

/**
 * vatom_queue_kick() - have the kernel consume the committed jobs
 * @q: the queue
 *
 * Only calls the KICK ioctl when the kernel asks for it
 * (%DRM_VATOM_QUEUE_CTL_NEED_WAKEUP, read after a full barrier); in kick
 * mode, it returns once every job committed before it has completed; in
 * polling mode, it wakes the sleeping poller, if it sleeps, and returns
 * (a KICK while the poller serves the process's other queues consumes
 * this one in the calling thread: DRM_IOCTL_VATOM_QUEUE_KICK).
 *
 * Return: 0, or the ioctl's -errno.
 */
VATOM_API int vatom_queue_kick(struct vatom_queue *q);

/**
 * vatom_queue_completed() - jobs the queue has completed
 * @q: the queue
 *
 * Return: the sequence number of the last job complete (acquire: its
 * status and results are visible).
 */
VATOM_API uint64_t vatom_queue_completed(const struct vatom_queue *q);

/**
 * vatom_queue_wait() - wait until job @seqno is complete
 * @q: the queue
 * @seqno: a sequence number vatom_queue_commit() returned
 * @timeout_ns: relative timeout, or a negative value for none
 *
 * Polls the completed count a few times (none while the poller has
 * stepped aside, %DRM_VATOM_QUEUE_CTL_KICK_TO_WAIT) and kicks: in kick
 * mode when the kernel needs it; in polling mode always, which wakes a
 * sleeping poller or, while the poller is awake, runs the jobs in the
 * calling thread.
 * Then, when the queue was created with a syncobj, blocks on it (a
 * timeline wait for point @seqno, which the kernel adds once the job is
 * complete); otherwise sleeps in growing steps (up to 1 ms) while another
 * thread's kick or the poller consumes. The eventfd, if any, is left to
 * the caller.
 *
 * Return: 0; -EINVAL for a @seqno not committed; -ETIME on timeout; or
 * vatom_queue_kick()'s error.
 */
VATOM_API int vatom_queue_wait(struct vatom_queue *q, uint64_t seqno,
			       int64_t timeout_ns);

/**
 * vatom_queue_job_status() - outcome of a complete job
 * @q: the queue
 * @seqno: the job
 * @index: out (optional), the packet validation rejected
 * @reason: out (optional), DRM_VATOM_ERR_* (DRM_VATOM_ERR_DESCRIPTOR for
 *	a malformed descriptor)
 *
 * Return: the job's status (0, or the -errno SUBMIT would have returned:
 * -ETIMEDOUT or -EIO when the job timed out or faulted, a prefix of it
 * having run; -EIO without executing while the device is guilty, see
 * vatom_device_reset_status()); -EBUSY when it is not complete; -ENOENT when its ring entry has been
 * reused (more than entries jobs committed since) or it was never
 * committed. The two can be told apart from a job status by the job:
 * they are returned only for jobs not complete or not in the ring.
 */
VATOM_API int vatom_queue_job_status(const struct vatom_queue *q, uint64_t seqno,
				     uint32_t *index, uint32_t *reason);

/**
 * vatom_queue_job_results() - the raw results of a complete job
 * @q: the queue
 * @seqno: the job
 *
 * Return: its results area (valid until the ring entry is reused), or
 * NULL when the job is not complete, reused, or the queue has no results.
 */
VATOM_API const void *vatom_queue_job_results(const struct vatom_queue *q,
					      uint64_t seqno);

/**
 * vatom_queue_batch_results() - read a job's results with @b's accessors
 * @q: the queue
 * @seqno: a complete job submitted from @b with vatom_queue_submit_batch()
 * @b: the batch, unchanged since
 *
 * Makes vatom_batch_error() and the vatom_result_*() accessors of @b
 * report job @seqno, until @b changes or the ring entry is reused.
 *
 * Return: as vatom_queue_job_status().
 */
VATOM_API int vatom_queue_batch_results(const struct vatom_queue *q, uint64_t seqno,
					struct vatom_batch *b);

#if defined(__cplusplus)
}
#endif

#endif /* _VATOM_QUEUE_H_ */
