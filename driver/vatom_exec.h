/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * vatom: the execution core, what every job needs whatever door it came
 * through (SUBMIT, a KICK, the poller): the stop rule of work done in the
 * submitter's thread, running a validated stream, and counting what ran
 * in the file's and the device's statistics.
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

bool vatom_killed(const struct vatom_exec_ctl *ctl);
int vatom_exec_stream(const void *stream, u32 size,
		      const struct vatom_bindings *b, u8 *results,
		      struct vatom_stats *stats, const struct vatom_exec_ctl *ctl);
void vatom_exec_account(struct vatom_file *vfile,
			const struct vatom_stats *stats, u64 jobs, u64 ns);

#endif /* _VATOM_EXEC_H_ */
