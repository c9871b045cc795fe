// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The execution core: what every job needs whatever door it came through,
 * SUBMIT (vatom_submit.c, vatom_job.c), a KICK or the poller
 * (vatom_queue.c): the stop rule of work done in the submitter's thread,
 * running a validated stream, and counting what ran, for fdinfo's busy
 * time and the device's statistics, in one place.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/sched/signal.h>

#include "vatom_exec.h"
#include "vatom_file.h"

/**
 * vatom_killed() - &vatom_exec_ctl.stop of work done in the submitter's
 * thread: stop when it has been killed
 * @ctl: unused
 *
 * Return: true when a fatal signal is pending.
 */
bool vatom_killed(const struct vatom_exec_ctl *ctl)
{
	return fatal_signal_pending(current);
}

/* Count @jobs successful submissions that executed @st in the device's stats. */
static void vatom_device_count(struct vatom_device *vdev,
			       const struct vatom_stats *st, u64 jobs)
{
	int f;

	this_cpu_add(vdev->pcpu->submissions, jobs);
	for (f = 0; f < VATOM_FAMILY_COUNT; f++) {
		if (!st->packets[f])
			continue;
		this_cpu_add(vdev->pcpu->packets[f], st->packets[f]);
		this_cpu_add(vdev->pcpu->elements[f], st->elements[f]);
	}
}

/*
 * Charge @ns of execution to the file's families, shared out by the
 * element operations each performed (fdinfo's drm-engine-<family>).
 * Work that ran is never charged nothing: a family that executed an
 * element gets at least 1 ns, whatever the clock's resolution.
 */
static void vatom_file_busy(struct vatom_file *vfile,
			    const struct vatom_stats *st, u64 ns)
{
	u64 total = 0, share;
	int f;

	for (f = 0; f < VATOM_FAMILY_COUNT; f++)
		total += st->elements[f];
	for (f = 0; f < VATOM_FAMILY_COUNT; f++) {
		if (!st->elements[f])
			continue;
		share = total == st->elements[f] ? ns :
			mul_u64_u64_div_u64(ns, st->elements[f], total);
		atomic64_add(max_t(u64, share, 1), &vfile->busy_ns[f]);
	}
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
int vatom_exec_stream(const void *stream, u32 size,
		      const struct vatom_bindings *b, u8 *results,
		      struct vatom_stats *stats, const struct vatom_exec_ctl *ctl)
{
	if (!size)
		return 0;
	return vatom_stream_execute_ctl(stream, size, b, results, stats, ctl);
}

/**
 * vatom_exec_account() - count what vatom_exec_stream() ran for a file
 * @vfile: the file whose work it was
 * @stats: what ran
 * @jobs: how many streams that was
 * @ns: how long it took, busy time for fdinfo
 *
 * A queue counts a batch rather than each stream, which keeps the clock
 * (not cheap everywhere: a virtual machine's) and the locked adds off the
 * per-job path.
 */
void vatom_exec_account(struct vatom_file *vfile,
			const struct vatom_stats *stats, u64 jobs, u64 ns)
{
	vatom_file_busy(vfile, stats, ns);
	vatom_device_count(vfile->vdev, stats, jobs);
}
