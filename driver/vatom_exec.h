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
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/percpu.h>

#include "vatom_device.h"
#include "vatom_engine.h"
#include "vatom_fault.h"
#include "vatom_file.h"
#include "vatom_limits.h"

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
 * enum vatom_door - the ways a job comes in (devcoredumps name them:
 * vatom_exec_reset())
 * @VATOM_DOOR_SYNC: a synchronous SUBMIT, executed in its submitter
 * @VATOM_DOOR_ASYNC: an asynchronous SUBMIT, executed by its file's
 *	scheduler (vatom_sched.c)
 * @VATOM_DOOR_KICK: a queue's job, consumed by a KICK in the kicker
 * @VATOM_DOOR_POLL: a polling queue's job, consumed by its poller
 */
enum vatom_door {
	VATOM_DOOR_SYNC,
	VATOM_DOOR_ASYNC,
	VATOM_DOOR_KICK,
	VATOM_DOOR_POLL,
};

/**
 * struct vatom_exec - the control block of one job's validation and
 * execution, whatever door the job came through
 * @ctl: the engine's: the device's limit of element operations, and
 *	vatom_exec_stop()
 * @vfile: the file whose job it is: its resets
 * @drm: its device: a job stops when it is unplugged (unbound)
 * @cancel: the job stops when this becomes true (its file closing, its
 *	queue destroyed), or NULL
 * @door: how the job came in (enum vatom_door); a job of
 *	vatom_exec_in_submitter() stops when its submitter is killed
 * @deadline: jiffies by which the executing job must be done, or 0: the
 *	job timeout, the same for every door (vatom_exec_run())
 * @fault: the fault injected into the job (vatom_fault.h)
 * @resets: the file's resets when the job was admitted
 *	(vatom_exec_admit()): another cancels the job if it has not begun
 * @id: the job's number in its file, for the reset's log line (0: a
 *	queue job)
 * @results_size: bytes of results the job's validated stream writes
 *	(devcoredumps)
 * @ran: what a job that timed out or faulted ran (packets and element
 *	operations per family): written by the engine where it stopped
 *	(&vatom_exec_ctl.stopped), or by vatom_exec_faulty(); its devcoredump
 *	reads it
 */
struct vatom_exec {
	struct vatom_exec_ctl ctl;
	struct vatom_file *vfile;
	struct drm_device *drm;
	const bool *cancel;
	u8 door;
	unsigned long deadline;
	enum vatom_fault fault;
	unsigned int resets;
	u64 id;
	u64 results_size;
	struct vatom_stats ran;
};

/**
 * vatom_exec_in_submitter() - whether a job runs in its submitter's thread
 * @x: its control block
 *
 * A synchronous SUBMIT and a KICK's jobs do: they stop when that thread is
 * killed (vatom_exec_stop()), and their devcoredump names it.
 */
static inline bool vatom_exec_in_submitter(const struct vatom_exec *x)
{
	return x->door == VATOM_DOOR_SYNC || x->door == VATOM_DOOR_KICK;
}

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

/*
 * Whether the job's device was unbound. The job executes inside
 * drm_dev_enter() (vatom_exec_run()), and drm_dev_unplug() sets the flag
 * before it waits for that section to end: read it, as the engine's
 * checkpoints and the queue's loop do, without another SRCU section.
 */
static inline bool vatom_exec_gone(const struct vatom_exec *x)
{
	return READ_ONCE(x->drm->unplugged);
}

/**
 * vatom_exec_init() - set up a job's control block
 * @x: the control block
 * @vfile: the file whose job it is
 * @door: how it came in: a synchronous job and a KICK's run in their
 *	submitter's thread, and stop when that is killed
 * @cancel: the job stops when this becomes true, or NULL
 */
static inline void vatom_exec_init(struct vatom_exec *x,
				   struct vatom_file *vfile,
				   enum vatom_door door, const bool *cancel)
{
	x->ctl.max_ops = vatom_max_submit_ops();
	x->ctl.stop = vatom_exec_stop;
	x->ctl.stopped = &x->ran;
	x->vfile = vfile;
	x->drm = &vfile->vdev->drm;
	x->cancel = cancel;
	x->door = door;
	x->deadline = 0;
	x->fault = VATOM_FAULT_NONE;
	x->id = 0;
}

/**
 * vatom_exec_pass_on() - a job validated in its submitter's thread goes on
 * through another door
 * @x: its control block, vatom_exec_init() with %VATOM_DOOR_SYNC
 * @door: the door it executes through
 * @cancel: it stops when this becomes true, or NULL
 *
 * An asynchronous SUBMIT is validated in the submitter, under the
 * submitter's stop rule, and executed by its file's scheduler.
 */
static inline void vatom_exec_pass_on(struct vatom_exec *x,
				      enum vatom_door door, const bool *cancel)
{
	x->door = door;
	x->cancel = cancel;
}

/*
 * The steps every job takes, whatever door it came through, in this
 * order: vatom_exec_admit() (the guilty check), vatom_exec_accept() at its
 * point of no return (its number, the fault injected into it), then
 * vatom_exec_run() (the job timeout, the stop rule, the fault, and the
 * reset of its file when it timed out or faulted), and vatom_exec_account()
 * of what ran (per job, or per queue batch).
 */

/**
 * vatom_exec_admit() - refuse a job while its file has a reset to
 * acknowledge, else note the resets it comes after
 * @x: the job's control block
 *
 * Return: 0, or -EIO: the file is guilty.
 */
static inline int vatom_exec_admit(struct vatom_exec *x)
{
	/* Read first: a reset from here on cancels a job not yet begun. */
	x->resets = atomic_read(&x->vfile->resets);
	return vatom_file_guilty(x->vfile) ? -EIO : 0;
}

/**
 * vatom_exec_reset_since() - whether the job's file was reset after the
 * job was admitted: a job that has not begun is then cancelled
 * @x: the job's control block
 */
static inline bool vatom_exec_reset_since(const struct vatom_exec *x)
{
	return x->resets != atomic_read(&x->vfile->resets);
}

/**
 * vatom_exec_accept() - the job passes its point of no return
 * @x: the job's control block
 * @id: its number in its file (0 for a queue job)
 *
 * Picks the fault injected into it, in the thread that accepts it (fault
 * injection's task filter): the submitter's, or a queue's consumer's.
 */
static inline void vatom_exec_accept(struct vatom_exec *x, u64 id)
{
	x->id = id;
	x->fault = vatom_fault_pick();
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
 * vatom_exec_validate() - validate a job's stream, stopping as its
 * execution would
 * @x: the job's control block
 * @stream: the kernel copy of the stream
 * @size: bytes of @stream, a multiple of 8
 * @b: the bindings
 * @needed: out, bytes of results the stream produces
 * @ops: out, element operations it costs
 * @err: out, on failure: the packet and reason
 *
 * Return: as vatom_stream_validate_ctl(), but -ENODEV when the stop rule
 * stopped it because the device is gone: every door reports a device's
 * loss so, and -EINTR only when its submitter was killed (or what it
 * belongs to is going away).
 */
static inline int vatom_exec_validate(struct vatom_exec *x, const void *stream,
				      u32 size, const struct vatom_bindings *b,
				      u64 *needed, u64 *ops,
				      struct vatom_stream_error *err)
{
	int ret = vatom_stream_validate_ctl(stream, size, b, &x->ctl, needed,
					    ops, err);

	return ret == -EINTR && vatom_exec_gone(x) ? -ENODEV : ret;
}

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

int vatom_exec_stop_error(const struct vatom_exec *x);
void __cold vatom_exec_reset(struct vatom_exec *x, int error,
			     const void *stream, u32 size,
			     const struct vatom_bindings *b, const u8 *results);
int vatom_exec_faulty(struct vatom_exec *x, const void *stream, u32 size,
		      const struct vatom_bindings *b, u8 *results,
		      struct vatom_stats *stats);

/**
 * vatom_exec_run() - execute a job's validated stream, within the job
 * timeout, with the fault injected into it if there is one
 * @x: the job's control block; the job gets the job timeout from now,
 *	as it is set now, whatever door it came through: the one timeout
 * @stream: the kernel copy of the stream, validated with @b
 * @size: bytes of @stream
 * @b: the bindings it was validated with
 * @results: where results go, or NULL
 * @stats: accumulates what was executed
 *
 * Called inside drm_dev_enter() on the job's device, so that unbinding it
 * (drm_dev_unplug()) waits for the jobs executing, which the stop rule
 * stops at their next checkpoint: the job's (vatom_job.c) or the
 * queue batch's (vatom_queue.c). Inline: every job of every door comes
 * here, and a small one's cost is mostly calls (docs/driver.md).
 *
 * A job that timed out or faulted resets its file here, before its
 * submitter or any waiter can see its outcome (vatom_reset.c), and
 * leaves a devcoredump of where it stopped (vatom_coredump.c).
 *
 * Return: 0 when the whole stream ran. Else a prefix of whole packets
 * ran: -ETIMEDOUT when the job ran past the job timeout (an injected hang
 * runs none), -ENODEV when its device was unbound, -ECANCELED when
 * vatom_exec_stop() stopped it otherwise, -EIO for an injected engine
 * fault (vatom_fault_prefix()).
 */
static inline int vatom_exec_run(struct vatom_exec *x, const void *stream,
				 u32 size, const struct vatom_bindings *b,
				 u8 *results, struct vatom_stats *stats)
{
	int ret = 0;

	/*
	 * A jiffy more, since the current one is partly gone: the job gets
	 * the whole timeout, not up to a jiffy less (a test saw 499 ms of 500).
	 * Never 0, which means none.
	 */
	x->deadline = (jiffies + READ_ONCE(vatom_job_timeout_jiffies) + 1) | 1;
	if (unlikely(x->fault != VATOM_FAULT_NONE))
		ret = vatom_exec_faulty(x, stream, size, b, results, stats);
	else if (vatom_exec_stream(stream, size, b, results, stats, &x->ctl))
		ret = vatom_exec_stop_error(x);
	x->deadline = 0;
	if (unlikely(vatom_error_resets(ret)))
		vatom_exec_reset(x, ret, stream, size, b, results);
	return ret;
}

/**
 * vatom_exec_account() - count what vatom_exec_stream() ran for a file
 * @vfile: the file whose work it was
 * @st: what ran
 * @jobs: how many streams that was
 * @ns: how long it took, busy time for fdinfo
 *
 * In one pass over the families: the device's statistics (@jobs
 * successful submissions, each family's packets and elements), and @ns
 * charged to the file's families, shared out by the element operations
 * each performed (fdinfo's drm-engine-<family>). Work that ran is never
 * charged nothing: a family that executed an element gets at least 1 ns,
 * whatever the clock's resolution. A queue counts a batch rather than
 * each stream, which keeps the clock (not cheap everywhere: a virtual
 * machine's) and the locked adds off the per-job path. Inline, as
 * vatom_exec_run() is.
 */
static inline void vatom_exec_account(struct vatom_file *vfile,
				      const struct vatom_stats *st,
				      u64 jobs, u64 ns)
{
	struct vatom_device *vdev = vfile->vdev;
	u64 total = vatom_stats_elements(st), share;
	int f;

	this_cpu_add(vdev->pcpu->submissions, jobs);
	for (f = 0; f < VATOM_FAMILY_COUNT; f++) {
		/* No element without a packet of its family. */
		if (!st->packets[f])
			continue;
		this_cpu_add(vdev->pcpu->packets[f], st->packets[f]);
		if (!st->elements[f])
			continue;
		this_cpu_add(vdev->pcpu->elements[f], st->elements[f]);
		share = total == st->elements[f] ? ns :
			mul_u64_u64_div_u64(ns, st->elements[f], total);
		atomic64_add(max_t(u64, share, 1), &vfile->busy_ns[f]);
	}
}

void vatom_exec_rejected(struct vatom_file *vfile, int error,
			 const void *stream, u32 size,
			 const struct vatom_stream_error *err);
void vatom_exec_failed(struct vatom_file *vfile);

#endif /* _VATOM_EXEC_H_ */
