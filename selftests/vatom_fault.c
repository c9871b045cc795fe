// SPDX-License-Identifier: GPL-2.0
/*
 * vatom_fault: every allocation of the vatom ioctls, failed in turn.
 *
 * The kernel's per-task fault injection (/proc/thread-self/fail-nth, with
 * failslab, fail_page_alloc and, where built, fail_usercopy) fails the N-th
 * allocation or user copy the calling thread makes from the moment N is
 * written. For each path below this program makes the same call with N =
 * 1, 2, ... on fresh state, until a call completes with no fault injected,
 * and checks every call:
 *
 *  - it returns 0 or a clean errno (ENOMEM, EFAULT; anything else fails);
 *  - a failed call changed nothing: surfaces, results, syncobjs and the
 *    debugfs live counts are as before it;
 *  - a call that succeeded despite the fault (a fallback) did exactly what
 *    it does without one;
 *  - once everything is closed, the live counts (surfaces, jobs_in_flight,
 *    fences) of every vatom device are back at their baseline;
 *  - the kernel logged no splat.
 *
 * The one exception the DRM core imposes: drm_ioctl() copies the argument
 * struct back after the driver returned, so a fault injected into that last
 * copy returns EFAULT for a call that did succeed (a surface created, a
 * stream executed). That is accepted only for the last fault point of a
 * call; likewise SUBMIT's own copy of user-memory results, which reports
 * DRM_VATOM_ERR_RESULTS_FAULT as documented.
 *
 * It needs a kernel with CONFIG_FAULT_INJECTION_DEBUG_FS, FAILSLAB and
 * FAIL_PAGE_ALLOC (the debug kernel, scripts/debug-kernel.sh) and root for
 * debugfs; elsewhere it skips. vgem (PRIME import from another driver) and
 * a second vatom device (vatom.ko num_devices=2) are used when present.
 * Asynchronous jobs execute in a kworker, which fail-nth does not reach:
 * what is covered is everything the submitting thread allocates.
 *
 * vatom's own fault attributes (/sys/kernel/debug/vatom, docs/robustness.md)
 * are disarmed for the run (probability 0): the driver asks an attribute
 * only once armed, and fail-nth would then count it too. Every call on a
 * vatom file is followed by a check of its reset status: allocation
 * failures never make a file guilty.
 *
 * -F jobs: injected job faults meet the allocation failures, in two passes
 * over paths that run jobs (the job timeout short meanwhile):
 *
 *  - "job fault points": fail_hang, fail_job and fail_delay armed so that
 *    only fail-nth fires them (probability 100, times 0). A job the call
 *    accepts asks them in turn, so three more values of N make it hang
 *    until the job timeout, fault after the first half of its packets, or
 *    start delay_ms (20) late. A job that timed out or faulted (vatom_stats'
 *    job_timeouts or job_faults moved) must have done exactly that:
 *    -ETIMEDOUT with no packet run, or -EIO with the first half run and
 *    the results of those only in a result surface (the fence carrying the
 *    error, for an asynchronous job), and its file guilty once. (A
 *    call's allocations vary by one now and then on the debug kernel, so
 *    a run may hit fail_job twice and fail_hang not at all.)
 *  - "file guilty": just before the call, an engine fault (fail_job armed
 *    for that one job, this thread's: task-filter and make-it-fail) left
 *    the file guilty. Each call must be refused, -EIO, after building its
 *    job (or fail cleanly before), changing nothing; a queue's job is
 *    consumed with -EIO, not executed; and the file stays guilty once.
 *    RESET_STATUS with ACK is the call of one more path: acknowledged
 *    exactly when it succeeded, after which the file submits again.
 *
 * -F hangs: one more pass, "behind a hung job" (asynchronous SUBMIT): an
 * asynchronous job of the file hangs (fail_hang) while the call runs. The
 * call's job is accepted and cancelled by the reset (its fence
 * -ECANCELED, nothing executed), or refused if the hang ended first; the
 * hang ends -ETIMEDOUT. Each call waits for a hang (job_timeout_ms 100):
 * about 0.8 s per fault point in the debug VM, 30 s in all, which is why
 * it is a pass of its own.
 *
 * -F skips without /sys/kernel/debug/vatom. (The word after -F also names
 * the run's stage in the VM, which scripts/vm-tests.sh names after the
 * arguments that are not options.)
 *
 * This file has the driver loop, the table of paths and main(); the paths
 * are in fault_submit.c, fault_surface.c, fault_sync.c and fault_queue.c,
 * the state they work on in fault_state.c, the injection's knobs and the
 * live counts in fault_control.c, and what they share in fault.h.
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
/* The driver loop                                                           */
/* ------------------------------------------------------------------------ */

static void vf_teardown(struct vf_ctx *c)
{
	if (c->map)
		munmap(c->map, VF_BUF_SIZE);
	if (c->rmap)
		munmap(c->rmap, VF_BUF_SIZE);
	if (c->gmap)
		munmap(c->gmap, c->glen);
	if (c->qsmap)
		munmap(c->qsmap, VF_QUEUE_STREAMS);
	if (c->qring)
		munmap(c->qring, VT_PAGE_SIZE);
	if (c->qctl)
		munmap(c->qctl, VT_PAGE_SIZE);
	/* Every fd made since setup began, leaked ones included. */
	syscall(SYS_close_range, vf_first_tmp_fd, ~0u, 0);
}

/*
 * Whether errno @e is a clean answer of @p to an allocation failure:
 * ENOMEM, EFAULT for a failed user copy (fail_usercopy), or the path's
 * documented exception.
 */
static bool vf_clean_errno(const struct vf_path *p, int e)
{
	return e == ENOMEM || (e == EFAULT && vf_usercopy) ||
	       (p->extra_errno && e == p->extra_errno);
}

/* Describe the first violation of each kind of a path; count them all. */
static void vf_note(struct vf_path *p, char *why, size_t len, const char *fmt, ...)
{
	size_t l = p->violations++ ? strlen(why) : 0;
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* The first one, and the first after close (a leak) if another. */
	if (l && (!strstr(msg, "after close") || strstr(why, "after close")))
		return;
	snprintf(why + l, len - l, "%s%s", l ? "; " : "", msg);
}

/* Check one call made with fail-nth @n. Return: false to stop the path. */
static bool vf_judge(struct vf_path *p, struct vf_ctx *c, unsigned int n,
		     int ret, bool injected, char *why, size_t len)
{
	const char *rs = ret ? vf_errname(-ret) : "0";
	char msg[160] = "";
	enum vf_state st = VF_BAD;

	if (vf_prior_end(c, msg, sizeof(msg)))
		st = p->check(c, ret, msg, sizeof(msg));
	if (st != VF_BAD && !vf_reset_check(p, c, st, msg, sizeof(msg)))
		st = VF_BAD;
	if (st == VF_BAD) {
		vf_note(p, why, len, "N=%u, returned %s: %s", n, rs, msg);
		return false;	/* state unknown: stop here */
	}
	if (ret && -ret < VF_MAX_ERRNO)
		p->errs[-ret]++;
	if (st == VF_FAULTED) {
		/* fail-nth reached the job's own fault point: checked. */
		if (!injected)
			vf_note(p, why, len, "N=%u: the job %s with no fault injected", n,
				c->fault == -EIO ? "faulted" : "timed out");
		p->job_faults[c->fault == -EIO]++;
		return true;
	}
	/* -F: the guilty file's answer, after a fault it got past or not. */
	if (st == VF_UNCHANGED && ret == -EIO && vf_pass_prior())
		st = VF_REFUSED;
	if (injected && (!ret || st == VF_REFUSED))
		p->tolerated++;
	if (st == VF_REFUSED)
		p->refused++;
	else if (!injected && ret)
		vf_note(p, why, len, "N=%u: no fault injected, returned %s", n, rs);
	else if (ret && !vf_clean_errno(p, -ret))
		vf_note(p, why, len, "N=%u: returned %s for an allocation failure",
			n, rs);
	else if (!ret && st != VF_DONE)
		vf_note(p, why, len, "N=%u: returned 0 and did nothing", n);
	if (ret && st == VF_DONE) {
		/* The work is done: only a late user copy may say EFAULT. */
		if (-ret == EFAULT &&
		    c->submit.error_reason == DRM_VATOM_ERR_RESULTS_FAULT)
			p->results_fault++;
		else if (-ret == EFAULT)
			p->late[p->nlate < 4 ? p->nlate++ : 3] = n;
		else
			vf_note(p, why, len, "N=%u: returned %s after doing the work",
				n, rs);
	} else if (ret && !vf_counts_settle(&c->counts, msg, sizeof(msg))) {
		/* A failed call must leave the live counts as they were. */
		vf_note(p, why, len, "N=%u, returned %s: %s", n, rs, msg);
	}
	return true;
}

/* Run @p with N = 1, 2, ... Return: true when every call was clean. */
static bool vf_run_path(struct vf_path *p, char *why, size_t len)
{
	struct vf_counts base;
	char msg[160];
	unsigned int n, i;

	vf_counts(&base);
	for (n = 1; n <= VF_MAX_POINTS; n++) {
		struct vf_ctx *c = calloc(1, sizeof(*c));
		bool injected, go_on;
		int ret;

		if (!c) {
			vf_note(p, why, len, "out of memory");
			return false;
		}
		c->fd = -1;
		c->fd2 = -1;
		c->dmabuf = -1;
		c->sync_file = -1;
		c->efd = -1;
		ret = p->setup(c);
		if (!ret && vf_pass_prior())
			ret = vf_prior_prepare(c);
		if (ret) {
			vf_note(p, why, len, "setup (N=%u): %s", n, strerror(-ret));
			vf_teardown(c);
			free(c);
			return false;
		}
		vf_counts(&c->counts);
		if (vf_pass_prior()) {
			const char *e = vf_prior(c);

			if (e) {
				vf_note(p, why, len, "setup (N=%u): %s", n, e);
				vf_teardown(c);
				free(c);
				return false;
			}
		}
		if (vf_jobfaults) {
			c->jf[0] = vt_debugfs_stat(vf_stats[0], "job_timeouts");
			c->jf[1] = vt_debugfs_stat(vf_stats[0], "job_faults");
		}

		vf_arm(n);
		ret = p->call(c);
		injected = vf_disarm();

		go_on = vf_judge(p, c, n, ret, injected, why, len);
		vf_teardown(c);
		free(c);
		if (!go_on)
			return false;
		if (!vf_counts_settle(&base, msg, sizeof(msg))) {
			/* A leak: note it, count from the new level on. */
			vf_note(p, why, len, "after close (N=%u): %s", n, msg);
			vf_counts(&base);
		}
		if (!injected) {
			p->points = n - 1;
			break;
		}
	}
	if (n > VF_MAX_POINTS) {
		vf_note(p, why, len, "more than %d fault points", VF_MAX_POINTS);
		return false;
	}
	/*
	 * EFAULT with the work done: only from the last user copies. The
	 * number of fault points of one call varies by one or two on the
	 * debug kernel (debug objects and kmemleak refill their pools with
	 * allocations fail-nth counts too), hence VF_SLACK.
	 */
	for (i = 0; i < p->nlate; i++)
		if (p->late[i] + p->late_copies + VF_SLACK <= p->points)
			vf_note(p, why, len,
				"N=%u of %u: EFAULT after doing the work, not at a late copy",
				p->late[i], p->points);
	return !p->violations;
}

#define VF_PATH(n, nd, s, c, k, ...) \
	{ .name = n, .needs = nd, .setup = s, .call = c, .check = k, \
	  .late_copies = 1, .passes = VF_P_PLAIN, __VA_ARGS__ }

/*
 * The paths that run jobs run with -F too (not all in every pass: the
 * debug VM's time).
 */
static struct vf_path vf_paths[] = {
	VF_PATH("submit sync, results to user memory, no syncobj", 0,
		vf_setup_sync_user, vf_call_submit, vf_check_submit,
		.passes = VF_P_PLAIN | VF_P_JOBS | VF_P_GUILTY),
	VF_PATH("submit sync, 49 packets over a page, results to user memory", 0,
		vf_setup_sync_user_big, vf_call_submit, vf_check_submit),
	VF_PATH("submit sync, result surface, binary+timeline in/out syncobjs", 0,
		vf_setup_sync_surface, vf_call_submit, vf_check_submit,
		.passes = VF_P_PLAIN | VF_P_JOBS),
	VF_PATH("submit async, result surface, binary+timeline in/out syncobjs", 0,
		vf_setup_async_surface, vf_call_submit, vf_check_submit,
		.passes = VF_P_PLAIN | VF_P_JOBS | VF_P_GUILTY | VF_P_HANG),
	VF_PATH("submit sync on a vgem buffer imported", 'v',
		vf_setup_submit_vgem, vf_call_submit, vf_check_submit),
	VF_PATH("submit sync on a buffer of vatom device 1 imported", '2',
		vf_setup_submit_vatom2, vf_call_submit, vf_check_submit),
	VF_PATH("surface_create buffer", 0,
		vf_setup_buffer, vf_call_create, vf_check_create),
	VF_PATH("surface_create typed (2D array, 4 levels)", 0,
		vf_setup_typed, vf_call_create, vf_check_create),
	VF_PATH("surface_create tile grid (4x3 Blackhole)", 0,
		vf_setup_grid, vf_call_create, vf_check_create),
	VF_PATH("prime export of a vatom buffer", 0,
		vf_setup_export, vf_call_export, vf_check_export),
	VF_PATH("prime import from vgem", 'v',
		vf_setup_import_vgem, vf_call_import, vf_check_import),
	VF_PATH("prime import from vatom device 1", '2',
		vf_setup_import_vatom2, vf_call_import, vf_check_import),
	/* The counters are copied out after the clear, then the arguments. */
	VF_PATH("noc_counters read + clear all", 0,
		vf_setup_counters, vf_call_counters, vf_check_counters,
		.late_copies = 2),
	/* open() copies nothing back. */
	VF_PATH("open of the render node", 0,
		vf_setup_file, vf_call_open, vf_check_open, .late_copies = 0),
	VF_PATH("syncobj create", 0,
		vf_setup_file, vf_call_so_create, vf_check_so_create),
	/*
	 * drm_syncobj_export_sync_file() returns -EINVAL when
	 * sync_file_create() fails for want of memory (DRM core, 6.1 and
	 * later).
	 */
	VF_PATH("syncobj export of a vatom job fence as sync_file", 0,
		vf_setup_job_fence, vf_call_so_export, vf_check_so_export,
		.extra_errno = EINVAL),
	VF_PATH("syncobj import of a vatom sync_file", 0,
		vf_setup_so_import, vf_call_so_import, vf_check_so_import),
	VF_PATH("syncobj transfer of a vatom fence to a timeline point", 0,
		vf_setup_so_transfer, vf_call_so_transfer, vf_check_so_transfer),
	VF_PATH("syncobj timeline signal", 0,
		vf_setup_so_signal, vf_call_so_signal, vf_check_so_transfer),
	/* The arguments are copied back (ids and handles) after the work. */
	VF_PATH("queue_create polling, timeline syncobj and eventfd", 0,
		vf_setup_queue_create, vf_call_queue_create, vf_check_queue_create),
	/* KICK copies nothing back. */
	VF_PATH("queue kick, kick mode, a stream over a page, syncobj and eventfd", 0,
		vf_setup_queue_kick, vf_call_queue_kick, vf_check_queue_kick,
		.late_copies = 0, .passes = VF_P_PLAIN | VF_P_JOBS | VF_P_GUILTY),
	/* On a guilty file: the acknowledgment, then a submission. */
	VF_PATH("reset_status ACK", 0,
		vf_setup_sync_user, vf_call_reset_status, vf_check_reset_status,
		.passes = VF_P_GUILTY, .own_reset = true),
};

/* What each pass's TAP lines add to the path's name. */
static const char *const vf_pass_names[VF_NPASSES] = {
	[VF_PASS_PLAIN] = "",
	[VF_PASS_JOBS] = ", job fault points",
	[VF_PASS_GUILTY] = ", file guilty",
	[VF_PASS_HANG] = ", behind a hung job",
};

/*
 * -F: a pass's job timeout (ms), short: a hang lasts that long, and in
 * the last pass every call waits for one, while no job of the call
 * executes; in the others only small jobs do.
 */
static const char *const vf_pass_timeouts[VF_NPASSES] = {
	[VF_PASS_JOBS] = "200", [VF_PASS_GUILTY] = "200", [VF_PASS_HANG] = "100",
};

/* -F: arm or disarm the job fault points for fail-nth only (VF_PASS_JOBS). */
static int vf_jobs_arm(bool armed)
{
	static const char *const attrs[] = { "fail_hang", "fail_job", "fail_delay" };
	unsigned int i;
	int ret = 0;

	for (i = 0; i < VT_ARRAY_SIZE(attrs); i++)
		ret = vt_fault_arm(attrs[i], 0, armed) ?: ret;
	return ret;
}

static void vf_summary(const struct vf_path *p, char *out, size_t len)
{
	size_t l;
	int e;

	l = snprintf(out, len, "%u fault points, %u tolerated", p->points,
		     p->tolerated);
	for (e = 1; e < VF_MAX_ERRNO && l < len; e++)
		if (p->errs[e])
			l += snprintf(out + l, len - l, ", %s %u", vf_errname(e),
				      p->errs[e]);
	if (p->nlate && l < len)
		l += snprintf(out + l, len - l, "; %u EFAULT from a late copy",
			      p->nlate);
	if (p->results_fault && l < len)
		l += snprintf(out + l, len - l, "; %u DRM_VATOM_ERR_RESULTS_FAULT",
			      p->results_fault);
	if ((p->job_faults[0] || p->job_faults[1]) && l < len)
		l += snprintf(out + l, len - l, "; the job timed out %u, faulted %u",
			      p->job_faults[0], p->job_faults[1]);
	if (p->refused && l < len)
		snprintf(out + l, len - l, "; %u refused (file guilty)", p->refused);
}

/* Run every path of pass @pass; add its fault points to @total. */
static void vf_run_pass(enum vf_pass pass, unsigned int *total, unsigned int *run,
			unsigned int *points)
{
	char name[160], why[256];
	unsigned int i;

	vf_pass = pass;
	if (pass != VF_PASS_PLAIN &&
	    (vt_write_file(VT_JOB_TIMEOUT_PARAM, vf_pass_timeouts[pass]) ||
	     (pass == VF_PASS_JOBS && vf_jobs_arm(true))))
		ksft_exit_fail_msg("cannot set job_timeout_ms or arm the job faults\n");
	for (i = 0; i < VT_ARRAY_SIZE(vf_paths); i++) {
		struct vf_path p = vf_paths[i];	/* fresh counts each pass */

		if (!(p.passes & (1u << pass)))
			continue;
		snprintf(name, sizeof(name), "%s%s", p.name, vf_pass_names[pass]);
		if (p.needs == 'v' && !vf_vgem[0]) {
			ksft_test_result_skip("%s: no vgem device\n", name);
			continue;
		}
		if (p.needs == '2' && vf_ndev < 2) {
			ksft_test_result_skip("%s: one vatom device (num_devices=2)\n",
					      name);
			continue;
		}
		why[0] = '\0';
		if (!vf_run_path(&p, why, sizeof(why))) {
			char sum[192];

			vf_summary(&p, sum, sizeof(sum));
			ksft_test_result_fail("%s: %s (%u violations; %s)\n", name,
					      why, p.violations, sum);
		} else {
			vf_summary(&p, why, sizeof(why));
			ksft_test_result_pass("%s: %s\n", name, why);
		}
		points[pass * VT_ARRAY_SIZE(vf_paths) + i] = p.points;
		*total += p.points;
		(*run)++;
	}
	if (pass == VF_PASS_JOBS)
		vf_jobs_arm(false);
}

int main(int argc, char **argv)
{
	static unsigned int points[VF_NPASSES * VT_ARRAY_SIZE(vf_paths)];
	char paths[VT_MAX_NODES][VT_PATH_MAX];
	unsigned int i, pass, total = 0, run = 0, plan = 1, passes;
	long long seq;
	const char *skip;
	char bad[256];
	int n;

	while ((n = getopt(argc, argv, "cF:")) != -1) {
		if (n == 'c') {
			vf_cold_imports = true;
		} else if (n == 'F' && !strcmp(optarg, "jobs")) {
			vf_inject |= VF_P_JOBS | VF_P_GUILTY;
		} else if (n == 'F' && !strcmp(optarg, "hangs")) {
			vf_inject |= VF_P_HANG;
		} else {
			fprintf(stderr, "usage: vatom_fault [-c] [-F jobs] [-F hangs]\n");
			return KSFT_FAIL;
		}
	}
	passes = vf_inject ?: VF_P_PLAIN;
	/* Line by line: a crash or a kill keeps what was printed. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	n = vt_scan_nodes("vatom", "renderD", paths, VT_MAX_NODES);
	if (n <= 0)
		ksft_exit_skip("no vatom device (is vatom.ko loaded?)\n");
	vf_ndev = n > 2 ? 2 : n;
	for (i = 0; i < (unsigned int)vf_ndev; i++) {
		snprintf(vf_nodes[i], VT_PATH_MAX, "%s", paths[i]);
		vt_debugfs_limits_path(vf_nodes[i], vf_limits[i], sizeof(vf_limits[i]));
		if (!vt_debugfs_stats_path(vf_nodes[i], vf_stats[i],
					   sizeof(vf_stats[i])))
			ksft_exit_skip("no vatom_stats in debugfs for %s\n",
				       vf_nodes[i]);
	}
	if (vt_scan_nodes("vgem", "card", paths, 1) == 1)
		snprintf(vf_vgem, sizeof(vf_vgem), "%s", paths[0]);
	skip = vf_setup_injection();
	if (skip)
		ksft_exit_skip("%s\n", skip);

	vt_kmsg_mark("vatom_fault: start\n");
	seq = vt_kmsg_last_seq();
	/* Everything opened from here on is per call. */
	vf_first_tmp_fd = dup(0);
	close(vf_first_tmp_fd);

	ksft_print_msg("fault injection: failslab, fail_page_alloc%s, fail-nth%s; %d vatom device(s)%s\n",
		       vf_usercopy ? ", fail_usercopy" : "",
		       vf_inject ? ", vatom's fail_hang, fail_job, fail_delay (-F)" : "",
		       vf_ndev, vf_vgem[0] ? ", vgem" : "");
	for (pass = 0; pass < VF_NPASSES; pass++)
		for (i = 0; i < VT_ARRAY_SIZE(vf_paths); i++)
			plan += !!(vf_paths[i].passes & passes & (1u << pass));
	ksft_set_plan(plan);
	for (pass = 0; pass < VF_NPASSES; pass++)
		if (passes & (1u << pass))
			vf_run_pass(pass, &total, &run, points);
	n = vt_kmsg_scan(seq, bad, sizeof(bad));
	if (n < 0)
		ksft_test_result_skip("kernel log clean: /dev/kmsg: %s\n",
				      strerror(-n));
	else
		ksft_test_result(n == 0, "kernel log clean%s%s\n",
				 n ? ": " : "", n ? bad : "");
	ksft_print_msg("summary: %u distinct fault points injected over %u paths\n",
		       total, run);
	for (pass = 0; pass < VF_NPASSES; pass++)
		for (i = 0; i < VT_ARRAY_SIZE(vf_paths); i++)
			if (points[pass * VT_ARRAY_SIZE(vf_paths) + i])
				ksft_print_msg("  %4u  %s%s\n",
					       points[pass * VT_ARRAY_SIZE(vf_paths) + i],
					       vf_paths[i].name, vf_pass_names[pass]);
	vf_restore();
	ksft_finished();
}
