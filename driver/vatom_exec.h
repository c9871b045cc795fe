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

#include <linux/ktime.h>

#include "vatom_engine.h"

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
 * @cancel: the job stops when this becomes true (its file closing, its
 *	queue destroyed), or NULL
 * @killable: the job runs in its submitter's thread, and stops when that
 *	is killed
 */
struct vatom_exec {
	struct vatom_exec_ctl ctl;
	const bool *cancel;
	bool killable;
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

void vatom_exec_init(struct vatom_exec *x, const bool *cancel, bool killable);
bool vatom_exec_stopped(const struct vatom_exec *x);
int vatom_exec_check_stream_size(u64 size);
bool vatom_exec_region_ok(const struct vatom_surface_view *view, u64 offset,
			  u64 size);
int vatom_exec_results_fit(u64 needed, u64 size, struct vatom_stream_error *err);
int vatom_exec_stream(const void *stream, u32 size,
		      const struct vatom_bindings *b, u8 *results,
		      struct vatom_stats *stats, const struct vatom_exec_ctl *ctl);
void vatom_exec_account(struct vatom_file *vfile,
			const struct vatom_stats *stats, u64 jobs, u64 ns);
void vatom_exec_rejected(struct vatom_file *vfile, int error,
			 const void *stream, u32 size,
			 const struct vatom_stream_error *err);
void vatom_exec_failed(struct vatom_file *vfile);

#endif /* _VATOM_EXEC_H_ */
