/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * vatom: faults injected into jobs, with the kernel's fault-injection
 * framework (vatom_fault.c). Without CONFIG_FAULT_INJECTION_DEBUG_FS
 * there are none, and the hooks compile away.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_FAULT_H_
#define _VATOM_FAULT_H_

#include <linux/types.h>

/**
 * enum vatom_fault - what an injected fault does to a job
 * @VATOM_FAULT_NONE: nothing
 * @VATOM_FAULT_HANG: the job executes nothing and never completes: the job
 *	timeout stops it (-ETIMEDOUT)
 * @VATOM_FAULT_ENGINE: the job executes the first half of its packets
 *	(vatom_fault_prefix()), then fails with -EIO
 * @VATOM_FAULT_DELAY: the job starts the set delay late
 */
enum vatom_fault {
	VATOM_FAULT_NONE,
	VATOM_FAULT_HANG,
	VATOM_FAULT_ENGINE,
	VATOM_FAULT_DELAY,
};

const char *vatom_fault_name(enum vatom_fault fault);
u32 vatom_fault_prefix(const void *stream, u32 size);

#ifdef CONFIG_FAULT_INJECTION_DEBUG_FS
void vatom_fault_init(void);
void vatom_fault_exit(void);
enum vatom_fault vatom_fault_pick(void);
unsigned int vatom_fault_delay_ms(void);
unsigned long vatom_fault_poll_stall(void);
#else
static inline void vatom_fault_init(void) {}
static inline void vatom_fault_exit(void) {}
static inline enum vatom_fault vatom_fault_pick(void) { return VATOM_FAULT_NONE; }
static inline unsigned int vatom_fault_delay_ms(void) { return 0; }
static inline unsigned long vatom_fault_poll_stall(void) { return 0; }
#endif

#endif /* _VATOM_FAULT_H_ */
