/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * vatom: the policy limits an administrator sets as module parameters,
 * in one place (vatom_limits.c); GET_PARAM and debugfs vatom_limits show
 * them.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_LIMITS_H_
#define _VATOM_LIMITS_H_

#include <linux/types.h>

#include "vatom_rules.h"

/**
 * struct vatom_limits - the module parameters, clamped at load
 * @file_mem_cap: bytes one file may have charged
 * @max_jobs: jobs one file may have in flight
 * @max_submit_ops: element operations one submission may cost
 * @max_poll_queues: polling queues a device has at once
 *
 * The writable ones are apart: vatom_job_timeout_ms(),
 * vatom_max_schedulers().
 */
struct vatom_limits {
	u64 file_mem_cap;
	unsigned int max_jobs;
	u64 max_submit_ops;
	unsigned int max_poll_queues;
};

extern struct vatom_limits vatom_limits;

void vatom_limits_init(void);
unsigned int vatom_job_timeout_ms(void);
unsigned int vatom_max_schedulers(void);

/* The job timeout in jiffies, as last set (vatom_limits.c). */
extern unsigned long vatom_job_timeout_jiffies;

/* vatom_file_mem_cap() - bytes one file may have charged */
static inline u64 vatom_file_mem_cap(void)
{
	return vatom_limits.file_mem_cap;
}

/* vatom_max_jobs() - jobs one file may have in flight */
static inline unsigned int vatom_max_jobs(void)
{
	return vatom_limits.max_jobs;
}

/* vatom_max_submit_ops() - element operations one submission may cost */
static inline u64 vatom_max_submit_ops(void)
{
	return vatom_limits.max_submit_ops;
}

/* vatom_max_poll_queues() - polling queues a device has at once */
static inline unsigned int vatom_max_poll_queues(void)
{
	return vatom_limits.max_poll_queues;
}

#endif /* _VATOM_LIMITS_H_ */
