// SPDX-License-Identifier: GPL-2.0
/*
 * vatom_fault: The fault injection the run sets up: the failslab, fail_page_alloc
 * and vatom knobs saved, set and restored, fail-nth armed and disarmed; the
 * devices and their live counts, which must settle back after each call.
 *
 * Part of vatom_fault (vatom_fault.c says what it checks); the types and
 * what the files share are in fault.h.
 *
 * Copyright (C) 2026 The vatom developers
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <linux/sync_file.h>
#include <xf86drm.h>

#include "kselftest.h"

#include "common.h"
#include "fault.h"

/* ------------------------------------------------------------------------ */
/* Fault injection control                                                   */
/* ------------------------------------------------------------------------ */

/**
 * struct vf_knob - one debugfs fault-injection setting, and what it was
 * @path: the file
 * @value: what this program writes
 * @saved: its value before, written back at exit
 * @set: it was written
 */
struct vf_knob {
	const char *path;
	const char *value;
	char saved[32];
	bool set;
};

/*
 * The probabilities stay 0: only fail-nth injects. The ignore-* defaults
 * exclude sleeping (GFP_KERNEL) and highmem allocations, which are most of
 * a driver's; the verbose default prints a stack trace per injected fault,
 * which the VM runner would count as a splat.
 */
static struct vf_knob vf_knobs[] = {
	{ "/sys/kernel/debug/failslab/ignore-gfp-wait", "N" },
	{ "/sys/kernel/debug/failslab/verbose", "0" },
	{ "/sys/kernel/debug/fail_page_alloc/ignore-gfp-wait", "N" },
	{ "/sys/kernel/debug/fail_page_alloc/ignore-gfp-highmem", "N" },
	{ "/sys/kernel/debug/fail_page_alloc/min-order", "0" },
	{ "/sys/kernel/debug/fail_page_alloc/verbose", "0" },
	/* Optional: fail-nth counts user copies too when it exists. */
	{ "/sys/kernel/debug/fail_usercopy/verbose", "0" },
};

/* vatom's own fault attributes, when the module has them: disarmed. */
static struct vf_knob vf_vatom_knobs[] = {
	{ VF_VATOM "/fail_hang/probability", "0" },
	{ VF_VATOM "/fail_job/probability", "0" },
	{ VF_VATOM "/fail_delay/probability", "0" },
	{ VF_VATOM "/fail_poll_stall/probability", "0" },
};

/*
 * -F: quiet, a short delay; armed by pass (vf_run_pass(), vf_prior());
 * job_timeout_ms set by pass.
 */
static struct vf_knob vf_inject_knobs[] = {
	{ VT_JOB_TIMEOUT_PARAM, "200" },
	{ VF_VATOM "/fail_delay/delay_ms", "20" },
	{ VF_VATOM "/fail_hang/verbose", "0" },
	{ VF_VATOM "/fail_hang/times", "0" },
	{ VF_VATOM "/fail_hang/interval", "1" },
	{ VF_VATOM "/fail_hang/space", "0" },
	{ VF_VATOM "/fail_hang/task-filter", "Y" },
	{ VF_VATOM "/fail_job/verbose", "0" },
	{ VF_VATOM "/fail_job/times", "0" },
	{ VF_VATOM "/fail_job/interval", "1" },
	{ VF_VATOM "/fail_job/space", "0" },
	{ VF_VATOM "/fail_job/task-filter", "Y" },
	{ VF_VATOM "/fail_delay/verbose", "0" },
	{ VF_VATOM "/fail_delay/times", "0" },
	{ VF_VATOM "/fail_delay/interval", "1" },
	{ VF_VATOM "/fail_delay/space", "0" },
	{ VF_VATOM "/fail_delay/task-filter", "Y" },
};



/* The kind of surface the call under test creates (SURFACE_CREATE, import). */
__u32 vf_created_kind;
static int vf_nth_fd = -1;
bool vf_usercopy;
bool vf_cold_imports;
bool vf_jobfaults;	/* /sys/kernel/debug/vatom: vf_vatom_knobs set */
unsigned int vf_inject;	/* -F: the passes (VF_P_*) */
enum vf_pass vf_pass;
static bool vf_make_it_fail;

void vf_restore(void)
{
	size_t i;

	for (i = 0; i < VT_ARRAY_SIZE(vf_knobs); i++)
		if (vf_knobs[i].set)
			vt_write_file(vf_knobs[i].path, vf_knobs[i].saved);
	for (i = 0; i < VT_ARRAY_SIZE(vf_vatom_knobs); i++)
		if (vf_vatom_knobs[i].set) {
			vt_write_file(vf_vatom_knobs[i].path, vf_vatom_knobs[i].saved);
			vf_vatom_knobs[i].set = false;
		}
	for (i = 0; i < VT_ARRAY_SIZE(vf_inject_knobs); i++)
		if (vf_inject_knobs[i].set) {
			vt_write_file(vf_inject_knobs[i].path, vf_inject_knobs[i].saved);
			vf_inject_knobs[i].set = false;
		}
	if (vf_make_it_fail)
		vt_write_file("/proc/thread-self/make-it-fail", "0");
	vf_make_it_fail = false;
}

/* Save and write @n knobs: 0, or -errno (the ones written stay set). */
static int vf_knobs_set(struct vf_knob *k, size_t n)
{
	int ret;

	for (; n; n--, k++) {
		ret = vt_read_file(k->path, k->saved, sizeof(k->saved));
		if (!ret)
			ret = vt_write_file(k->path, k->value);
		if (ret)
			return ret;
		k->set = true;
	}
	return 0;
}

/* 0, or a reason to skip (static string). */
const char *vf_setup_injection(void)
{
	size_t i;

	vf_nth_fd = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	if (vf_nth_fd < 0)
		return "no /proc/thread-self/fail-nth (CONFIG_FAULT_INJECTION)";
	if (access("/sys/kernel/debug/failslab", F_OK))
		return "no /sys/kernel/debug/failslab (FAILSLAB, FAULT_INJECTION_DEBUG_FS)";
	if (access("/sys/kernel/debug/fail_page_alloc", F_OK))
		return "no /sys/kernel/debug/fail_page_alloc (CONFIG_FAIL_PAGE_ALLOC)";
	vf_usercopy = !access("/sys/kernel/debug/fail_usercopy", F_OK);
	for (i = 0; i < VT_ARRAY_SIZE(vf_knobs); i++) {
		struct vf_knob *k = &vf_knobs[i];

		if (strstr(k->path, "fail_usercopy") && !vf_usercopy)
			continue;
		if (vt_read_file(k->path, k->saved, sizeof(k->saved)))
			return "cannot read the fault-injection settings (not root?)";
		if (vt_write_file(k->path, k->value))
			return "cannot write the fault-injection settings (not root?)";
		k->set = true;
	}
	atexit(vf_restore);
	/* Disarmed whenever the module has them: no job fault by chance. */
	vf_jobfaults = !access(VF_VATOM "/fail_hang", F_OK);
	if (vf_inject && !vf_jobfaults)
		return "-F: no " VF_VATOM "/fail_hang (CONFIG_FAULT_INJECTION_DEBUG_FS, vatom.ko with fault injection)";
	if (vf_jobfaults &&
	    vf_knobs_set(vf_vatom_knobs, VT_ARRAY_SIZE(vf_vatom_knobs)))
		return "cannot write vatom's fault attributes (not root?)";
	if (vf_inject) {
		if (vf_knobs_set(vf_inject_knobs, VT_ARRAY_SIZE(vf_inject_knobs)))
			return "-F: cannot write vatom's fault attributes or job_timeout_ms";
		if (vt_write_file("/proc/thread-self/make-it-fail", "1"))
			return "-F: cannot write /proc/thread-self/make-it-fail";
		vf_make_it_fail = true;
	}
	return NULL;
}

/* The failures left to attribute @name, or -1. */
long vf_fault_left(const char *name)
{
	char path[96], v[32];

	snprintf(path, sizeof(path), VF_VATOM "/%s/times", name);
	if (vt_read_file(path, v, sizeof(v)))
		return -1;
	return strtol(v, NULL, 10);
}

/*
 * Fail the @n-th fault point of this thread from now on (0: disarm). The
 * write copies from user memory, a fault point itself while a count is
 * still armed: it may fail once with EFAULT, which leaves the count 0.
 */
void vf_arm(unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n), tries;

	for (tries = 0; tries < 3; tries++) {
		if (pwrite(vf_nth_fd, buf, len, 0) == len)
			return;
		if (errno != EFAULT)
			break;
	}
	ksft_exit_fail_msg("writing fail-nth: %s\n", strerror(errno));
}

/*
 * Whether the armed fault was injected (fail-nth reads 0), then disarm.
 * Reading copies to user memory, itself a fault point when fail_usercopy
 * exists: a read that fails with EFAULT consumed the last count, which
 * means the call left one, i.e. nothing was injected.
 */
bool vf_disarm(void)
{
	char buf[16] = "";
	ssize_t n;

	n = pread(vf_nth_fd, buf, sizeof(buf) - 1, 0);
	vf_arm(0);
	if (n < 0)
		return false;
	return strtoul(buf, NULL, 10) == 0;
}

/* ------------------------------------------------------------------------ */
/* Devices and their live counts                                             */
/* ------------------------------------------------------------------------ */

char vf_nodes[2][VT_PATH_MAX];
char vf_stats[2][VT_PATH_MAX * 2];
char vf_limits[2][VT_PATH_MAX * 2];
int vf_ndev;
char vf_vgem[VT_PATH_MAX];
int vf_first_tmp_fd;



static const char * const vf_count_names[VF_NCOUNTS] = {
	"surfaces", "jobs_in_flight", "fences", "poll_queues",
};

void vf_counts(struct vf_counts *c)
{
	int d, i;

	memset(c, 0, sizeof(*c));
	for (d = 0; d < vf_ndev; d++)
		for (i = 0; i < VF_NCOUNTS; i++)
			c->v[d][i] = vt_debugfs_stat(i < 3 ? vf_stats[d] : vf_limits[d],
						     vf_count_names[i]);
}

void vf_sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000l };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * Wait (up to 3 s: a job is freed and its fence released a moment after it
 * signals) until the counts equal @want; describe the first difference in
 * @why. Return: true when they do.
 */
bool vf_counts_settle(const struct vf_counts *want, char *why, size_t len)
{
	struct vf_counts now;
	int tries, d, i;

	for (tries = 0; tries < 300; tries++) {
		vf_counts(&now);
		if (!memcmp(&now, want, sizeof(now)))
			return true;
		vf_sleep_ms(10);
	}
	for (d = 0; d < vf_ndev; d++)
		for (i = 0; i < VF_NCOUNTS; i++)
			if (now.v[d][i] != want->v[d][i]) {
				snprintf(why, len, "device %d %s %lld, expected %lld",
					 d, vf_count_names[i], now.v[d][i],
					 want->v[d][i]);
				return false;
			}
	return false;
}
