// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The execution core: what every job needs whatever door it came through,
 * SUBMIT (vatom_submit.c, vatom_job.c), a KICK or the poller
 * (vatom_queue.c), in one place: the control block with its one stop
 * rule, the checks of the job's envelope (its stream's size, its regions
 * in surfaces, its results' room), running the validated stream, and
 * counting what ran (fdinfo's busy time, the device's statistics) or was
 * rejected (the file's and device's counters, the reject tracepoint and
 * drm.debug's reason).
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <linux/ktime.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>

#include <drm/drm_drv.h>
#include <drm/drm_print.h>

#include "vatom_coredump.h"
#include "vatom_exec.h"
#include "vatom_file.h"
#include "vatom_trace.h"

/* Whether the job ran past the job timeout. */
static bool vatom_exec_expired(const struct vatom_exec *x)
{
	return x->deadline && time_after_eq(jiffies, x->deadline);
}

/**
 * vatom_exec_stop() - &vatom_exec_ctl.stop, the one stop rule
 * @ctl: the &vatom_exec.ctl of a job
 *
 * A job stops at its next checkpoint when its submitter, in whose thread
 * it runs, is killed, when what it belongs to is going away (its file
 * closing, for an asynchronous job; its queue destroyed, for the
 * poller's; its device unbound), or when it runs past the job timeout.
 *
 * Return: true when the job is to stop.
 */
bool vatom_exec_stop(const struct vatom_exec_ctl *ctl)
{
	const struct vatom_exec *x = container_of(ctl, struct vatom_exec, ctl);

	return (vatom_exec_in_submitter(x) && fatal_signal_pending(current)) ||
	       (x->cancel && READ_ONCE(*x->cancel)) || vatom_exec_expired(x) ||
	       vatom_exec_gone(x);
}

/**
 * vatom_exec_stop_error() - why a job stopped
 * @x: its control block
 *
 * Return: -ENODEV (its device is gone), -ETIMEDOUT, or -ECANCELED (killed
 * or cancelled).
 */
int vatom_exec_stop_error(const struct vatom_exec *x)
{
	if (vatom_exec_gone(x))
		return -ENODEV;
	return vatom_exec_expired(x) ? -ETIMEDOUT : -ECANCELED;
}

/*
 * Sleep until @end on the monotonic clock (KTIME_MAX: for ever) or until
 * the job is to stop, looking every jiffy: injected hangs and delays. The
 * end is on the clock a user times the job by, not in jiffies: in a TCG
 * guest jiffies can run ahead of it (a 300 ms delay counted in jiffies,
 * one more than msleep() would, once ended 299 ms after its submission
 * by CLOCK_MONOTONIC, in the debug boot).
 * Return: 0 after @end, else vatom_exec_stop_error().
 */
static int vatom_exec_sleep(const struct vatom_exec *x, ktime_t end)
{
	while (!vatom_exec_stopped(x)) {
		if (ktime_after(ktime_get(), end))
			return 0;
		schedule_timeout_killable(1);
	}
	return vatom_exec_stop_error(x);
}

/**
 * vatom_exec_faulty() - vatom_exec_run() of a job with an injected fault
 * @x: the job's control block, with its deadline set
 * @stream: the kernel copy of the stream, validated with @b
 * @size: bytes of @stream
 * @b: the bindings it was validated with
 * @results: where results go, or NULL
 * @stats: accumulates what was executed
 *
 * Return: as vatom_exec_run(): a hang runs nothing until the job is
 * stopped, a delay sleeps before the stream runs, an engine fault runs a
 * prefix (vatom_fault_prefix()) and fails with -EIO.
 */
int vatom_exec_faulty(struct vatom_exec *x, const void *stream, u32 size,
		      const struct vatom_bindings *b, u8 *results,
		      struct vatom_stats *stats)
{
	int ret, f;

	/* What ran, if it stops before the engine runs or after it is done. */
	memset(&x->ran, 0, sizeof(x->ran));
	switch (x->fault) {
	case VATOM_FAULT_HANG:
		return vatom_exec_sleep(x, KTIME_MAX);
	case VATOM_FAULT_DELAY:
		ret = vatom_exec_sleep(x, ktime_add_ms(ktime_get(),
						       vatom_fault_delay_ms()));
		if (ret)
			return ret;
		break;
	case VATOM_FAULT_ENGINE:
		size = vatom_fault_prefix(stream, size);
		ret = vatom_exec_stream(stream, size, b, results, &x->ran, &x->ctl);
		for (f = 0; f < VATOM_FAMILY_COUNT; f++) {
			stats->packets[f] += x->ran.packets[f];
			stats->elements[f] += x->ran.elements[f];
		}
		return ret ? vatom_exec_stop_error(x) : -EIO;
	default:
		break;
	}
	ret = vatom_exec_stream(stream, size, b, results, stats, &x->ctl);
	return ret ? vatom_exec_stop_error(x) : 0;
}

/**
 * vatom_exec_reset() - a job timed out or faulted: reset its file, and
 * leave the devcoredump of where it stopped
 * @x: its control block, &vatom_exec.ran written
 * @error: -ETIMEDOUT or -EIO
 * @stream: the kernel copy of its stream
 * @size: bytes of @stream
 * @b: its bindings
 * @results: where its results went, or NULL
 *
 * Out of line, with the arguments vatom_exec_run() has in hand: the jobs
 * that run whole pay nothing for it.
 */
void vatom_exec_reset(struct vatom_exec *x, int error, const void *stream,
		      u32 size, const struct vatom_bindings *b,
		      const u8 *results)
{
	static const char *const door_names[] = {
		[VATOM_DOOR_SYNC] = "sync",
		[VATOM_DOOR_ASYNC] = "async",
		[VATOM_DOOR_KICK] = "kick",
		[VATOM_DOOR_POLL] = "poll",
	};
	const struct vatom_dump_job job = {
		.drm = x->drm,
		.vfile = x->vfile,
		.door = door_names[x->door],
		.fault = vatom_fault_name(x->fault),
		.in_submitter = vatom_exec_in_submitter(x),
		.id = x->id,
		.results_size = x->results_size,
		.ran = &x->ran,
	};

	vatom_file_reset(x->vfile, x->id, error);
	vatom_coredump(&job, error, stream, size, b, results);
}

/**
 * vatom_exec_rejected() - a job failed before it executed: count it, trace
 * it and, with drm.debug's DRIVER category (or its dynamic debug site) on,
 * say why, with the head of the offending packet
 * @vfile: the submitting file
 * @error: the error it failed with
 * @stream: the kernel copy of its stream, or NULL when it failed before
 * @size: bytes of @stream
 * @err: the failing packet and reason (%DRM_VATOM_ERR_NONE: not the
 *	stream's fault)
 */
void vatom_exec_rejected(struct vatom_file *vfile, int error,
			 const void *stream, u32 size,
			 const struct vatom_stream_error *err)
{
	u32 type = 0, offset = 0, len = 0;

	atomic64_inc(&vfile->rejected);
	vatom_exec_failed(vfile);
	if (!trace_vatom_reject_enabled() && !drm_debug_enabled(DRM_UT_DRIVER))
		return;
	if (stream && err->reason) {
		type = vatom_stream_census(stream, size, NULL, err->index, &offset);
		len = min_t(u32, size - offset, 32);
	}
	trace_vatom_reject(vfile->client_id, error, err->index, type,
			   err->reason);
	drm_dbg_driver(&vfile->vdev->drm,
		       "client %llu: rejected (%d): packet %u, type %u, reason %u (%s): %*ph\n",
		       vfile->client_id, error, err->index, type, err->reason,
		       vatom_reason_name(err->reason), len,
		       len ? (const u8 *)stream + offset : NULL);
}

/**
 * vatom_exec_failed() - count a failed job in the device's errors
 * @vfile: the submitting file
 *
 * vatom_exec_rejected() counts it too; a job that failed once accepted
 * (stopped, or its results not copied out) counts here only.
 */
void vatom_exec_failed(struct vatom_file *vfile)
{
	atomic64_inc(&vfile->vdev->stats.errors);
}
