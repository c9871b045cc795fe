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

u64 vatom_file_mem_cap(void);
unsigned int vatom_max_jobs(void);
u64 vatom_max_submit_ops(void);
unsigned int vatom_max_poll_queues(void);
u32 vatom_max_poll_idle_us(void);

#endif /* _VATOM_LIMITS_H_ */
