// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the vatom selftests: what the kernel shows of the
 * device, its log, debugfs, fdinfo, sysfs and debugfs files, the fault
 * attributes, fences through sync_files. See common.h.
 *
 * Copyright (C) 2026 The vatom developers
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <linux/sync_file.h>
#include <xf86drm.h>

#include "common_kernel.h"

long long vt_kmsg_start_seq = -1;

/* ------------------------------------------------------------------------ */
/* Kernel log                                                                */
/* ------------------------------------------------------------------------ */

/*
 * Read every record of /dev/kmsg ("prio,seq,ts,flags;text\n" plus
 * continuation lines), calling @fn with the sequence number and text.
 */
int vt_kmsg_walk(void (*fn)(long long seq, const char *text, void *arg),
		 void *arg)
{
	char rec[8192];
	int fd;

	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t n = read(fd, rec, sizeof(rec) - 1);
		long long seq;
		char *text, *nl;

		if (n < 0 && errno == EPIPE)
			continue;	/* records overwritten while reading */
		if (n <= 0)
			break;
		rec[n] = '\0';
		text = strchr(rec, ';');
		if (!text || sscanf(rec, "%*u,%lld,", &seq) != 1)
			continue;
		text++;
		nl = strchr(text, '\n');
		if (nl)
			*nl = '\0';
		fn(seq, text, arg);
	}
	close(fd);
	return 0;
}

static void vt_kmsg_seq_fn(long long seq, const char *text, void *arg)
{
	(void)text;
	*(long long *)arg = seq;
}

/* Sequence number of the newest kernel log record, or -1. */
long long vt_kmsg_last_seq(void)
{
	long long seq = -1;

	if (vt_kmsg_walk(vt_kmsg_seq_fn, &seq))
		return -1;
	return seq;
}

/* Write a line into the kernel log (root only; ignored otherwise). */
void vt_kmsg_mark(const char *text)
{
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	if (write(fd, text, strlen(text)) < 0)
		(void)0;	/* the scan works without the marker */
	close(fd);
}

struct vt_kmsg_scan_state {
	long long after;
	int bad;
	char *first;
	size_t len;
};

/* What a kernel splat starts with. */
static const char * const vt_splat[] = {
	"BUG:", "WARNING:", "Oops", "Call Trace", "general protection fault",
	"kernel BUG", "UBSAN:", "KASAN:", "refcount_t:", "list_add corruption",
	"list_del corruption", "INFO: task", "possible recursive locking",
	"inconsistent lock state", "circular locking dependency",
	"rcu_sched detected stall", "rcu: INFO:", "Bad page", "stack-protector",
};

static void vt_kmsg_scan_fn(long long seq, const char *text, void *arg)
{
	struct vt_kmsg_scan_state *st = arg;
	size_t i;

	if (seq <= st->after)
		return;
	for (i = 0; i < VT_ARRAY_SIZE(vt_splat); i++) {
		if (!strstr(text, vt_splat[i]))
			continue;
		if (!st->bad++)
			snprintf(st->first, st->len, "%s", text);
		return;
	}
}

/**
 * vt_kmsg_scan() - count kernel splats logged after record @after_seq
 * @after_seq: the last record before the tests started
 * @first_bad: receives the first offending line
 * @len: bytes at @first_bad
 *
 * Return: the number of offending records, or -errno when /dev/kmsg cannot
 * be read.
 */
int vt_kmsg_scan(long long after_seq, char *first_bad, size_t len)
{
	struct vt_kmsg_scan_state st = {
		.after = after_seq, .first = first_bad, .len = len,
	};
	int ret;

	first_bad[0] = '\0';
	ret = vt_kmsg_walk(vt_kmsg_scan_fn, &st);
	return ret ? ret : st.bad;
}

/* ------------------------------------------------------------------------ */
/* debugfs counters                                                          */
/* ------------------------------------------------------------------------ */

/**
 * vt_debugfs_stats_path() - the vatom_stats file of a render node's device
 * @node: the render node, e.g. /dev/dri/renderD129
 * @path: receives the debugfs path
 * @len: bytes at @path
 *
 * DRM names the debugfs directory after the minor: the render node's, or on
 * kernels that only create one for the primary node, the card's.
 *
 * Return: true when the file exists and is readable.
 */
bool vt_debugfs_stats_path(const char *node, char *path, size_t len)
{
	char card[VT_PATH_MAX];
	struct dirent *de;
	struct stat st;
	bool found = false;
	DIR *dir;

	if (stat(node, &st))
		return false;
	snprintf(path, len, "/sys/kernel/debug/dri/%u/vatom_stats",
		 minor(st.st_rdev));
	if (!access(path, R_OK))
		return true;
	snprintf(card, sizeof(card), "/sys/dev/char/%u:%u/device/drm",
		 major(st.st_rdev), minor(st.st_rdev));
	dir = opendir(card);
	if (!dir)
		return false;
	while (!found && (de = readdir(dir))) {
		unsigned int n;

		if (sscanf(de->d_name, "card%u", &n) != 1)
			continue;
		snprintf(path, len, "/sys/kernel/debug/dri/%u/vatom_stats", n);
		found = !access(path, R_OK);
	}
	closedir(dir);
	return found;
}

/**
 * vt_debugfs_file_path() - another debugfs file of a render node's device
 * @node: the render node
 * @name: the file's name, e.g. vatom_limits
 * @path: receives the debugfs path
 * @len: bytes at @path
 *
 * Return: true when the file exists and is readable.
 */
bool vt_debugfs_file_path(const char *node, const char *name, char *path,
			  size_t len)
{
	char *slash;

	if (!vt_debugfs_stats_path(node, path, len))
		return false;
	slash = strrchr(path, '/');
	if (!slash || (size_t)(slash + 1 - path) + strlen(name) + 1 > len)
		return false;
	strcpy(slash + 1, name);
	return !access(path, R_OK);
}

long long vt_debugfs_stat(const char *path, const char *name)
{
	char line[128], key[64];
	long long val, ret = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %lld", key, &val) == 2 && !strcmp(key, name))
			ret = val;
	fclose(f);
	return ret;
}

const char *vt_fdinfo_text(int fd, const char *key, char *line, size_t len)
{
	const char *text = NULL;
	size_t n = strlen(key);
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	while (!text && fgets(line, len, f)) {
		if (!strncmp(line, key, n) && line[n] == ':' && line[n + 1] == '\t') {
			line[strcspn(line, "\n")] = '\0';
			text = line + n + 2;
		}
	}
	fclose(f);
	return text;
}

long long vt_fdinfo(int fd, const char *key)
{
	char line[256];
	const char *text = vt_fdinfo_text(fd, key, line, sizeof(line));

	return text ? strtoll(text, NULL, 0) : -1;
}

/* ------------------------------------------------------------------------ */
/* Files and fences                                                          */
/* ------------------------------------------------------------------------ */

/* Read @path's first line (sysfs, debugfs) into @buf: 0 or -errno. */
int vt_read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/*
 * Write @val to @path, whole (a sysfs, debugfs or procfs file):
 * 0 or -errno. Async-signal-safe, for the fuzzer's exit handler.
 */
int vt_write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;
	ssize_t n = strlen(val);

	if (fd < 0)
		return -errno;
	if (write(fd, val, n) != n)
		ret = -errno;
	close(fd);
	return ret;
}

/* Set vatom's job timeout (ms), as root: 0 or -errno. */
int vt_job_timeout_set(unsigned int ms)
{
	char v[16];

	snprintf(v, sizeof(v), "%u", ms);
	return vt_write_file(VT_JOB_TIMEOUT_PARAM, v);
}

/*
 * Set vatom's fault attribute @name (fail_hang, ...) to fail its next
 * @times calls (0: no limit; fail-nth does not look at it), armed
 * (probability 100) or not: 0 or -errno. The other knobs (interval,
 * task-filter, ...) are the caller's.
 */
int vt_fault_arm(const char *name, unsigned int times, bool armed)
{
	char path[96], v[16];
	int ret;

	snprintf(path, sizeof(path), VT_FAULT_DIR "/%s/times", name);
	snprintf(v, sizeof(v), "%u", times);
	ret = vt_write_file(path, v);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), VT_FAULT_DIR "/%s/probability", name);
	return vt_write_file(path, armed ? "100" : "0");
}

/*
 * Arm fault attribute @name (fail_hang, fail_job, ...) to fail the next
 * @times calls, whatever the task, quietly; @times 0 disarms it.
 */
int vt_fault_quiet(const char *name, unsigned int times)
{
	static const char *const knobs[][2] = {
		{ "interval", "1" }, { "verbose", "0" }, { "space", "0" },
		{ "task-filter", "N" },
	};
	char path[128];
	unsigned int i;
	int ret;

	for (i = 0; i < VT_ARRAY_SIZE(knobs); i++) {
		snprintf(path, sizeof(path), VT_FAULT_DIR "/%s/%s", name, knobs[i][0]);
		ret = vt_write_file(path, knobs[i][1]);
		if (ret)
			return ret;
	}
	return vt_fault_arm(name, times, times);
}

/*
 * The status of syncobj @h's fence, through a sync_file: 1 signalled, 0
 * not yet, or its error; -EBADMSG when it has none (or no answer).
 */
int vt_fence_status(int fd, __u32 h)
{
	struct sync_file_info info;
	int sf, st = -EBADMSG;

	if (drmSyncobjExportSyncFile(fd, h, &sf))
		return st;
	memset(&info, 0, sizeof(info));
	if (!ioctl(sf, SYNC_IOC_FILE_INFO, &info))
		st = info.status;
	close(sf);
	return st;
}
