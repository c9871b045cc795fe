/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * vatom: the execution core, what every job needs whatever door it came
 * through (SUBMIT, a KICK, the poller): the control block and its one
 * stop rule, the checks of a job's envelope, running a validated stream,
 * and counting what ran or was rejected in the file's and the device's
 * statistics.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_EXEC_H_
#define _VATOM_EXEC_H_

#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/overflow.h>

#include "vatom_device.h"
#include "vatom_engine.h"
#include "vatom_fault.h"
#include "vatom_limits.h"

struct vatom_file;

/*
 * The clock execution is timed with, for fdinfo's drm-engine-<family>:
 * the timekeeping clock, as upstream drivers use. Not local_clock(): once
 * a guest marks its TSC unstable (TCG on a busy host does), local_clock()
 * is held within a tick of the last tick's time and reads the same value
 * across a short job, which then looked as if it took no time at all.
 */
static inline u64 vatom_busy_clock(void)
{
	return ktime_get_ns();
}

/**
 * struct vatom_exec - the control block of one job's validation and
 * execution, whatever door the job came through
 * @ctl: the engine's: the device's limit of element operations, and
 *	vatom_exec_stop()
 * @drm: the device: a job stops when it is unplugged (unbound)
 * @cancel: the job stops when this becomes true (its file closing, its
 *	queue destroyed), or NULL
 * @killable: the job runs in its submitter's thread, and stops when that
 *	is killed
 * @scheduled: a scheduler times the job (its timeout handler calls
 *	vatom_exec_time_out()); else vatom_exec_run() gives it a deadline
 * @timed_out: the job ran past the job timeout (vatom_exec_time_out())
 * @timeout: the job timeout, in jiffies, as it was at vatom_exec_init()
 * @deadline: jiffies by which the executing job must be done, or 0
 * @fault: the fault injected into the job (vatom_fault.h)
 */
struct vatom_exec {
	struct vatom_exec_ctl ctl;
	struct drm_device *drm;
	const bool *cancel;
	bool killable;
	bool scheduled;
	bool timed_out;
	unsigned long timeout;
	unsigned long deadline;
	enum vatom_fault fault;
};

/* The sum of @st's element operations, over the families. */
static inline u64 vatom_stats_elements(const struct vatom_stats *st)
{
	u64 n = 0;
	int f;

	for (f = 0; f < VATOM_FAMILY_COUNT; f++)
		n += st->elements[f];
	return n;
}

bool vatom_exec_stop(const struct vatom_exec_ctl *ctl);

/**
 * vatom_exec_init() - set up a job's control block
 * @x: the control block
 * @vdev: the device the job runs on
 * @cancel: the job stops when this becomes true, or NULL
 * @killable: the job runs in its submitter's thread: it stops when that
 *	is killed
 */
static inline void vatom_exec_init(struct vatom_exec *x,
				   struct vatom_device *vdev, const bool *cancel,
				   bool killable)
{
	x->ctl.max_ops = vatom_max_submit_ops();
	x->ctl.stop = vatom_exec_stop;
	x->drm = &vdev->drm;
	x->cancel = cancel;
	x->killable = killable;
	x->scheduled = false;
	x->timed_out = false;
	x->timeout = READ_ONCE(vatom_job_timeout_jiffies);
	x->deadline = 0;
	x->fault = VATOM_FAULT_NONE;
}

/**
 * vatom_exec_time_out() - the job timeout expired: stop the job at its
 * next checkpoint, with -ETIMEDOUT
 * @x: its control block; the job may be executing on another CPU
 */
static inline void vatom_exec_time_out(struct vatom_exec *x)
{
	WRITE_ONCE(x->timed_out, true);
}

/**
 * vatom_exec_stopped() - whether a job's work is to stop now
 * @x: its control block
 *
 * Return: what the engine's checkpoints would say.
 */
static inline bool vatom_exec_stopped(const struct vatom_exec *x)
{
	return vatom_exec_stop(&x->ctl);
}

/**
 * vatom_exec_check_stream_size() - the size of a stream a job names
 * @size: bytes
 *
 * Return: 0; -EINVAL when not a multiple of 8; -E2BIG past
 * %VATOM_MAX_STREAM_SIZE.
 */
static inline int vatom_exec_check_stream_size(u64 size)
{
	if (size % 8)
		return -EINVAL;
	if (size > VATOM_MAX_STREAM_SIZE)
		return -E2BIG;
	return 0;
}

/**
 * vatom_exec_region_ok() - whether a job's stream or results region lies
 * in its surface
 * @view: the surface, or NULL (none bound)
 * @offset: byte offset, a multiple of 8 (64-bit results stay naturally
 *	aligned)
 * @size: bytes
 *
 * Return: true when @size bytes at @offset lie in @view.
 */
static inline bool vatom_exec_region_ok(const struct vatom_surface_view *view,
					u64 offset, u64 size)
{
	u64 end;

	return view && !(offset & 7) && !check_add_overflow(offset, size, &end) &&
	       end <= view->size;
}

/**
 * vatom_exec_results_fit() - whether a job's results fit where they go
 * @needed: bytes of results its validated stream produces
 * @size: bytes available
 * @err: out, on failure: %DRM_VATOM_ERR_RESULTS at packet 0
 *
 * Return: 0 or -EINVAL.
 */
static inline int vatom_exec_results_fit(u64 needed, u64 size,
					 struct vatom_stream_error *err)
{
	if (needed <= size)
		return 0;
	err->index = 0;
	err->reason = DRM_VATOM_ERR_RESULTS;
	return -EINVAL;
}

int vatom_exec_run(struct vatom_exec *x, const void *stream, u32 size,
		   const struct vatom_bindings *b, u8 *results,
		   struct vatom_stats *stats);

/**
 * vatom_exec_stream() - execute a validated stream
 * @stream: the kernel copy of the stream, validated with @b
 * @size: bytes of @stream
 * @b: the bindings it was validated with
 * @results: where results go (at least what validation said), or NULL
 * @stats: accumulates what was executed
 * @ctl: stops the execution at a checkpoint
 *
 * Return: 0, or -ECANCELED when @ctl stopped it part way.
 */
static inline int vatom_exec_stream(const void *stream, u32 size,
				    const struct vatom_bindings *b, u8 *results,
				    struct vatom_stats *stats,
				    const struct vatom_exec_ctl *ctl)
{
	if (!size)
		return 0;
	return vatom_stream_execute_ctl(stream, size, b, results, stats, ctl);
}

void vatom_exec_account(struct vatom_file *vfile,
			const struct vatom_stats *stats, u64 jobs, u64 ns);
void vatom_exec_rejected(struct vatom_file *vfile, int error,
			 const void *stream, u32 size,
			 const struct vatom_stream_error *err);
void vatom_exec_failed(struct vatom_file *vfile);

#endif /* _VATOM_EXEC_H_ */
