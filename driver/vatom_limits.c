// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The policy limits an administrator sets as module parameters, read-only
 * once loaded, each clamped here to the range the driver supports, so the
 * code that enforces a limit never sees a value outside it.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <linux/minmax.h>
#include <linux/moduleparam.h>

#include "vatom_engine.h"
#include "vatom_limits.h"

static unsigned long file_mem_cap = 1ul << 30;
module_param(file_mem_cap, ulong, 0444);
MODULE_PARM_DESC(file_mem_cap,
		 "Bytes of surfaces, streams and job data a file may make the kernel hold (default 1 GiB)");

static unsigned int max_jobs = 64;
module_param(max_jobs, uint, 0444);
MODULE_PARM_DESC(max_jobs, "Jobs a file may have in flight (1-65536, default 64)");

static unsigned long max_submit_ops = 1ul << 24;
module_param(max_submit_ops, ulong, 0444);
MODULE_PARM_DESC(max_submit_ops,
		 "Element operations one submission may cost (16384-2^32, default 2^24)");

static unsigned int max_poll_queues = 4;
module_param(max_poll_queues, uint, 0444);
MODULE_PARM_DESC(max_poll_queues,
		 "Polling queues a device has at once, all processes together (default: 4)");

/* Largest drm_vatom_queue_create.poll_idle_us: one second. */
#define VATOM_MAX_POLL_IDLE_US	1000000

/** vatom_file_mem_cap() - bytes one file may have charged */
u64 vatom_file_mem_cap(void)
{
	return file_mem_cap;
}

/** vatom_max_jobs() - jobs one file may have in flight */
unsigned int vatom_max_jobs(void)
{
	return clamp(max_jobs, 1u, 65536u);
}

/** vatom_max_submit_ops() - element operations one submission may cost */
u64 vatom_max_submit_ops(void)
{
	return clamp_t(u64, max_submit_ops, VATOM_CHECK_OPS, 1ull << 32);
}

/** vatom_max_poll_queues() - polling queues a device has at once */
unsigned int vatom_max_poll_queues(void)
{
	return max_poll_queues;
}

/** vatom_max_poll_idle_us() - the largest idle time of a poller, in us */
u32 vatom_max_poll_idle_us(void)
{
	return VATOM_MAX_POLL_IDLE_US;
}
