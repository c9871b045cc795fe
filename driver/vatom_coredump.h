/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * vatom: devcoredumps of the jobs that time out or fault (vatom_coredump.c).
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_COREDUMP_H_
#define _VATOM_COREDUMP_H_

#include <linux/types.h>

struct drm_device;
struct vatom_bindings;
struct vatom_file;
struct vatom_stats;

/* The version of the dump's format: its second line (docs/robustness.md). */
#define VATOM_COREDUMP_VERSION	1

/**
 * struct vatom_dump_job - what a devcoredump says of its job, besides the
 * bytes of its stream, surfaces and results
 * @drm: its device
 * @vfile: its file
 * @door: how it came in, as the dump names it ("sync", "async", "kick",
 *	"poll")
 * @fault: the fault injected into it ("none", "hang", "delay", "engine")
 * @in_submitter: it ran in its submitter's thread, which is current: the
 *	dump names that thread, not the file's opener
 * @id: its number in its file (0: a queue job)
 * @results_size: bytes of results its validated stream writes
 * @ran: what it ran before it stopped (packets and element operations per
 *	family)
 */
struct vatom_dump_job {
	struct drm_device *drm;
	const struct vatom_file *vfile;
	const char *door;
	const char *fault;
	bool in_submitter;
	u64 id;
	u64 results_size;
	const struct vatom_stats *ran;
};

void vatom_coredump(const struct vatom_dump_job *job, int error,
		    const void *stream, u32 size,
		    const struct vatom_bindings *b, const u8 *results);

#endif /* _VATOM_COREDUMP_H_ */
