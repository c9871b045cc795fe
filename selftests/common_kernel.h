/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the vatom selftests: what the kernel shows of the
 * device, its log, debugfs, fdinfo, sysfs and debugfs files, the fault
 * attributes, fences through sync_files (common_kernel.c).
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_SELFTEST_COMMON_KERNEL_H_
#define _VATOM_SELFTEST_COMMON_KERNEL_H_

#include "common.h"

/* The kernel log sequence number when the run started, or -1. */
extern long long vt_kmsg_start_seq;

/* ------------------------------------------------------------------------ */
/* Kernel log                                                                */
/* ------------------------------------------------------------------------ */

long long vt_kmsg_last_seq(void);
void vt_kmsg_mark(const char *text);
/* Call @fn for each record of /dev/kmsg: 0, or -errno. */
int vt_kmsg_walk(void (*fn)(long long seq, const char *text, void *arg),
		 void *arg);
int vt_kmsg_scan(long long after_seq, char *first_bad, size_t len);

/* ------------------------------------------------------------------------ */
/* debugfs counters and fault injection (vatom_fault, vatom_fuzz)           */
/* ------------------------------------------------------------------------ */

/*
 * The vatom_stats file of the device behind render node @node:
 * /sys/kernel/debug/dri/<minor>/vatom_stats (render minor, else the
 * primary's). Return: true when it exists.
 */
bool vt_debugfs_stats_path(const char *node, char *path, size_t len);

/*
 * Another debugfs file of the same device, beside its vatom_stats
 * (vatom_limits, vatom_clients). Return: true when it exists.
 */
bool vt_debugfs_file_path(const char *node, const char *name, char *path,
			  size_t len);

static inline bool vt_debugfs_limits_path(const char *node, char *path,
					  size_t len)
{
	return vt_debugfs_file_path(node, "vatom_limits", path, len);
}

/* The value of the "@name value" line of @path, or -1 when absent. */
long long vt_debugfs_stat(const char *path, const char *name);

/*
 * The text after "@key:\t" in /proc/self/fdinfo/@fd, read into @line
 * (@len bytes), or NULL; vt_fdinfo(): the number it starts with, or -1.
 */
const char *vt_fdinfo_text(int fd, const char *key, char *line, size_t len);
long long vt_fdinfo(int fd, const char *key);

/* Files and fences. */
#define VT_FAULT_DIR	"/sys/kernel/debug/vatom"
#define VT_JOB_TIMEOUT_PARAM	"/sys/module/vatom/parameters/job_timeout_ms"
int vt_read_file(const char *path, char *buf, size_t len);
int vt_write_file(const char *path, const char *val);
int vt_job_timeout_set(unsigned int ms);
int vt_fault_arm(const char *name, unsigned int times, bool armed);
int vt_fault_quiet(const char *name, unsigned int times);
int vt_fence_status(int fd, __u32 h);

#endif /* _VATOM_SELFTEST_COMMON_KERNEL_H_ */
