// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The policy limits an administrator sets as module parameters, each
 * clamped here to the range the driver supports, so the code that
 * enforces a limit never sees a value outside it. All are read-only once
 * loaded but the job timeout.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <linux/cache.h>
#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/kstrtox.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>

#include "vatom_engine.h"
#include "vatom_limits.h"

static unsigned long file_mem_cap = VATOM_DEFAULT_FILE_MEM_CAP;
module_param(file_mem_cap, ulong, 0444);
MODULE_PARM_DESC(file_mem_cap,
		 "Bytes of surfaces, streams and job data a file may make the kernel hold (default 1 GiB)");

static unsigned int max_jobs = VATOM_DEFAULT_MAX_JOBS;
module_param(max_jobs, uint, 0444);
MODULE_PARM_DESC(max_jobs, "Jobs a file may have in flight (1-65536, default 64)");

static unsigned long max_submit_ops = VATOM_DEFAULT_MAX_SUBMIT_OPS;
module_param(max_submit_ops, ulong, 0444);
MODULE_PARM_DESC(max_submit_ops,
		 "Element operations one submission may cost (16384-2^32, default 2^24)");

static unsigned int max_poll_queues = VATOM_DEFAULT_MAX_POLL_QUEUES;
module_param(max_poll_queues, uint, 0444);
MODULE_PARM_DESC(max_poll_queues,
		 "Polling queues a device has at once, all processes together (0-1024, default: 4)");

/*
 * Files of a device that may have a GPU scheduler (asynchronous jobs) at
 * once, clamped as it is set: writable, so that an administrator can
 * raise it without unloading (files keep the schedulers they have).
 */
static unsigned int max_schedulers = VATOM_DEFAULT_MAX_SCHEDULERS;

static int vatom_max_schedulers_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int ret = kstrtouint(val, 0, &n);

	if (ret)
		return ret;
	WRITE_ONCE(max_schedulers, vatom_rule_clamp(n, VATOM_MIN_MAX_SCHEDULERS,
						    VATOM_MAX_MAX_SCHEDULERS));
	return 0;
}

static const struct kernel_param_ops vatom_max_schedulers_ops = {
	.set = vatom_max_schedulers_set,
	.get = param_get_uint,
};

module_param_cb(max_schedulers, &vatom_max_schedulers_ops, &max_schedulers, 0644);
MODULE_PARM_DESC(max_schedulers,
		 "Files of a device that may have asynchronous jobs at once, each with a GPU scheduler: a kernel thread before 6.8 (1-4096, default 256; writable)");

/**
 * vatom_max_schedulers() - files of a device that may have a GPU scheduler
 *
 * Return: the value last set, clamped.
 */
unsigned int vatom_max_schedulers(void)
{
	return READ_ONCE(max_schedulers);
}

/*
 * The job timeout, clamped as it is set: at load, or at run time by the
 * administrator (tests shorten it). It applies to jobs that begin
 * executing afterwards, whatever door they came through.
 */
static unsigned int job_timeout_ms = VATOM_DEFAULT_JOB_TIMEOUT_MS;
unsigned long vatom_job_timeout_jiffies;

/* Clamp and store the job timeout, and its jiffies for the job paths. */
static void vatom_job_timeout_store(unsigned int ms)
{
	ms = vatom_rule_clamp(ms, VATOM_MIN_JOB_TIMEOUT_MS, VATOM_MAX_JOB_TIMEOUT_MS);
	WRITE_ONCE(job_timeout_ms, ms);
	WRITE_ONCE(vatom_job_timeout_jiffies, msecs_to_jiffies(ms));
}

static int vatom_job_timeout_set(const char *val, const struct kernel_param *kp)
{
	unsigned int ms;
	int ret = kstrtouint(val, 0, &ms);

	if (ret)
		return ret;
	vatom_job_timeout_store(ms);
	return 0;
}

static const struct kernel_param_ops vatom_job_timeout_ops = {
	.set = vatom_job_timeout_set,
	.get = param_get_uint,
};

module_param_cb(job_timeout_ms, &vatom_job_timeout_ops, &job_timeout_ms, 0644);
MODULE_PARM_DESC(job_timeout_ms,
		 "Milliseconds a job may execute before it is stopped with -ETIMEDOUT (100-600000, default 10000; writable)");

/**
 * vatom_job_timeout_ms() - the job timeout, in ms
 *
 * Return: the value last set, clamped.
 */
unsigned int vatom_job_timeout_ms(void)
{
	return READ_ONCE(job_timeout_ms);
}

struct vatom_limits vatom_limits __ro_after_init;

/**
 * vatom_limits_init() - clamp the module parameters once, at load
 *
 * They are read-only once loaded, so the job paths read the clamped
 * values (vatom_limits.h) rather than clamp on every job.
 */
void __init vatom_limits_init(void)
{
	vatom_limits.file_mem_cap = file_mem_cap;
	vatom_limits.max_jobs = vatom_rule_clamp(max_jobs, VATOM_MIN_MAX_JOBS,
						 VATOM_MAX_MAX_JOBS);
	vatom_limits.max_submit_ops = vatom_rule_clamp(max_submit_ops,
						       VATOM_MIN_MAX_SUBMIT_OPS,
						       VATOM_MAX_MAX_SUBMIT_OPS);
	/* Bounded: each poller has room for all of a device's queues. */
	vatom_limits.max_poll_queues = vatom_rule_clamp(max_poll_queues, 0,
							VATOM_MAX_MAX_POLL_QUEUES);
	vatom_job_timeout_store(job_timeout_ms);
}
