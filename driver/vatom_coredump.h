/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * vatom: devcoredumps of the jobs that time out or fault (vatom_coredump.c).
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_COREDUMP_H_
#define _VATOM_COREDUMP_H_

#include <linux/types.h>

struct vatom_bindings;
struct vatom_exec;

/* The version of the dump's format: its second line (docs/robustness.md). */
#define VATOM_COREDUMP_VERSION	1

void vatom_coredump(const struct vatom_exec *x, int error, const void *stream,
		    u32 size, const struct vatom_bindings *b, const u8 *results);

#endif /* _VATOM_COREDUMP_H_ */
