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

#define VF_MAX_POINTS	2000	/* a call with more fault points fails */
#define VF_BUF_SIZE	4096
#define VF_WORDS	(VF_BUF_SIZE / 4)
#define VF_BIG_PACKETS	48	/* a stream over a page: kvmalloc */
#define VF_RES_OFFSET	64	/* results in the result surface */
#define VF_GRID_SLOT	7
#define VF_MAX_ERRNO	134
#define VF_SLACK	2	/* see vf_run_path() */
#define VF_VATOM	VT_FAULT_DIR

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

/* The job faults a pass injects (-F) besides the allocation failures. */
enum vf_pass {
	VF_PASS_PLAIN,	/* none */
	VF_PASS_JOBS,	/* at the job's own fault points, by fail-nth */
	VF_PASS_GUILTY,	/* before the call, an engine fault: file guilty */
	VF_PASS_HANG,	/* before the call, an asynchronous job that hangs */
	VF_NPASSES
};

/* The passes a path runs in (struct vf_path.passes). */
#define VF_P_PLAIN	(1u << VF_PASS_PLAIN)
#define VF_P_JOBS	(1u << VF_PASS_JOBS)
#define VF_P_GUILTY	(1u << VF_PASS_GUILTY)
#define VF_P_HANG	(1u << VF_PASS_HANG)

/* The kind of surface the call under test creates (SURFACE_CREATE, import). */
static __u32 vf_created_kind;
static int vf_nth_fd = -1;
static bool vf_usercopy;
static bool vf_cold_imports;
static bool vf_jobfaults;	/* /sys/kernel/debug/vatom: vf_vatom_knobs set */
static unsigned int vf_inject;	/* -F: the passes (VF_P_*) */
static enum vf_pass vf_pass;
static bool vf_make_it_fail;

static void vf_restore(void)
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
static const char *vf_setup_injection(void)
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
static long vf_fault_left(const char *name)
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
static void vf_arm(unsigned int n)
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
static bool vf_disarm(void)
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

static char vf_nodes[2][VT_PATH_MAX];
static char vf_stats[2][VT_PATH_MAX * 2];
static char vf_limits[2][VT_PATH_MAX * 2];
static int vf_ndev;
static char vf_vgem[VT_PATH_MAX];
static int vf_first_tmp_fd;

/* The live counts: three of vatom_stats, then vatom_limits' poll_queues. */
#define VF_NCOUNTS	4

struct vf_counts {
	long long v[2][VF_NCOUNTS];
};

static const char * const vf_count_names[VF_NCOUNTS] = {
	"surfaces", "jobs_in_flight", "fences", "poll_queues",
};

static void vf_counts(struct vf_counts *c)
{
	int d, i;

	memset(c, 0, sizeof(*c));
	for (d = 0; d < vf_ndev; d++)
		for (i = 0; i < VF_NCOUNTS; i++)
			c->v[d][i] = vt_debugfs_stat(i < 3 ? vf_stats[d] : vf_limits[d],
						     vf_count_names[i]);
}

static void vf_sleep_ms(unsigned int ms)
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
static bool vf_counts_settle(const struct vf_counts *want, char *why, size_t len)
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

/* ------------------------------------------------------------------------ */
/* The state one call works on                                               */
/* ------------------------------------------------------------------------ */

/* A packet of the stream under test: a DWORD_ATOMIC.ADD of 16 lanes, or PTX. */
struct vf_packet {
	bool ptx;
	__u32 word, k;	/* the first word and addend (lane i adds k + i) */
};

/**
 * struct vf_ctx - what a path's setup makes and its check looks at
 * @fd: a fresh file of device 0
 * @fd2: a file of device 1, or vgem's primary node, or -1
 * @buf: a buffer surface on @fd (slot 0), mapped at @map
 * @res: a result surface on @fd, mapped at @rmap, or 0
 * @grid: a tile grid on @fd, mapped at @gmap (@glen bytes), or 0
 * @handle: what the call created (surface, import, syncobj), or 0
 * @dmabuf: a dma-buf fd to import, or the one the call exported
 * @sync_file: a sync_file fd to import, or the one the call exported
 * @sin: in-syncobjs (binary, timeline); @sout: out-syncobjs (likewise)
 * @before: @map before the call; @expect: @map after a successful one
 * @results: user-memory results; @rexpect: what a successful call returns
 * @nres: result bytes
 * @submit: the SUBMIT arguments after the call
 * @stream: the stream
 * @counts: live counts after setup, before the call
 * @cnt_before: NIU counters before NOC_COUNTERS
 * @qc: QUEUE_CREATE's arguments; @qbind its bindings
 * @qs: a queue's stream surface, mapped at @qsmap
 * @qring: the queue's ring, mapped; @qctl its control page
 * @efd: an eventfd the queue signals, or -1
 * @pk: the stream's packets, for what a prefix of them does; @npk how many
 * @prior_buf: the surface of the job before the call (-F), @prior its
 *	out-syncobj (a hang's)
 * @jf: vatom_stats' job_timeouts and job_faults before the call
 * @fault: the call's job timed out or faulted: -ETIMEDOUT, -EIO; or 0
 */
struct vf_ctx {
	int fd, fd2;
	__u32 buf, res, grid, handle;
	__u32 *map, *rmap;
	__u8 *gmap;
	size_t glen;
	int dmabuf, sync_file;
	__u32 sin[2], sout[2];
	__u32 before[VF_WORDS], expect[VF_WORDS];
	__u32 results[VF_WORDS], rexpect[VF_WORDS];
	bool rskip[VF_WORDS];
	__u32 nres;
	struct drm_vatom_submit submit;
	struct drm_vatom_sync insync[2], outsync[2];
	struct drm_vatom_binding bind[2];
	struct vt_stream stream;
	struct vf_counts counts;
	__u32 cnt_before[64];
	struct drm_vatom_queue_create qc;
	struct drm_vatom_binding qbind[3];
	__u32 qs;
	__u8 *qsmap;
	struct drm_vatom_queue_job *qring;
	struct drm_vatom_queue_ctl *qctl;
	int efd;
	struct vf_packet pk[VF_BIG_PACKETS + 1];
	__u32 npk;
	__u32 prior_buf, prior;
	long long jf[2];
	int fault;
};

/* The outcome of one call as the check sees it. */
enum vf_state {
	VF_UNCHANGED,	/* nothing happened */
	VF_DONE,	/* exactly what a successful call does */
	VF_FAULTED,	/* its job timed out or faulted, as fail-nth injected */
	VF_REFUSED,	/* -EIO, nothing happened: the file is guilty (-F) */
	VF_BAD,		/* anything else: a defect */
};

/**
 * struct vf_path - one call put under fault injection
 * @name: what the TAP line says
 * @needs: 0, 'v' (vgem) or '2' (a second vatom device)
 * @setup: build fresh state in @c (not under injection); 0 or -errno
 * @call: the one ioctl under injection: 0 or -errno
 * @check: what the call did (@ret its return)
 * @points: fault points of the call (out)
 * @tolerated: injected faults after which it still succeeded (out)
 * @late_copies: how many of the last fault points are user copies made
 *	after the work is done (drm_ioctl()'s copy of the arguments back; the
 *	counters of NOC_COUNTERS): EFAULT there comes with the work done
 * @extra_errno: an errno the DRM core returns here for ENOMEM, or 0
 * @errs: how many times each errno was returned (out)
 * @results_fault: EFAULT with DRM_VATOM_ERR_RESULTS_FAULT (out)
 * @late: the N of calls that returned EFAULT with the work done (out)
 * @nlate: entries of @late (out)
 * @violations: calls that broke a rule (out)
 * @passes: VF_P_*: plain, and with -F the file guilty, behind a hang
 * @own_reset: the call is RESET_STATUS: its check reads the status
 * @job_faults: calls whose job timed out [0] or faulted [1] (out)
 * @refused: calls refused, -EIO, the file guilty (out)
 */
struct vf_path {
	const char *name;
	char needs;
	int (*setup)(struct vf_ctx *c);
	int (*call)(struct vf_ctx *c);
	enum vf_state (*check)(struct vf_ctx *c, int ret, char *why, size_t len);
	unsigned int late_copies;
	int extra_errno;
	unsigned int passes;
	bool own_reset;
	unsigned int points, tolerated, results_fault;
	unsigned int errs[VF_MAX_ERRNO];
	unsigned int late[4], nlate, violations;
	unsigned int job_faults[2], refused;
};

static const char *vf_errname(int e)
{
	switch (e) {
	case ENOMEM: return "ENOMEM";
	case EFAULT: return "EFAULT";
	case ENOSPC: return "ENOSPC";
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	case EMFILE: return "EMFILE";
	case ENFILE: return "ENFILE";
	case EINTR: return "EINTR";
	case EIO: return "EIO";
	case ECANCELED: return "ECANCELED";
	default: return strerrorname_np(e) ? strerrorname_np(e) : "?";
	}
}

static int vf_ioctl(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) ? -errno : 0;
}

/* Open device @d, or vgem's primary node for @d < 0. */
static int vf_open(int d)
{
	int fd = vt_open_path(d < 0 ? vf_vgem : vf_nodes[d]);

	return fd < 0 ? -errno : fd;
}

static int vf_buffer(int fd, __u32 *h, __u32 **map)
{
	if (vt_buffer_create(fd, VF_BUF_SIZE, h))
		return -errno;
	*map = vt_map(fd, *h, VF_BUF_SIZE);
	return *map ? 0 : -errno;
}

/* The buffer's pattern, and the stream's effect on a copy of it. */
static void vf_fill(struct vf_ctx *c)
{
	int i;

	for (i = 0; i < VF_WORDS; i++)
		c->map[i] = 0x1000 + 7 * i;
	memcpy(c->before, c->map, sizeof(c->before));
	memcpy(c->expect, c->map, sizeof(c->expect));
	memset(c->results, VT_POISON, sizeof(c->results));
	memset(c->rexpect, VT_POISON, sizeof(c->rexpect));
	memset(c->rskip, 0, sizeof(c->rskip));
	c->nres = 0;
	c->npk = 0;
}

/*
 * Append a DWORD_ATOMIC.ADD of 16 lanes at words @first .. @first + 15
 * (adding lane + @k) and update the model.
 */
static void vf_add_dword(struct vf_ctx *c, __u32 first, __u32 k)
{
	__u32 addr[16], src[16], i;
	struct vt_visa v;

	for (i = 0; i < 16; i++) {
		__u32 w = (first + i) % VF_WORDS;

		addr[i] = 4 * w;
		src[i] = i + k;
		c->rexpect[c->nres / 4 + i] = c->expect[w];
		c->expect[w] += src[i];
	}
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_16,
		 DRM_VATOM_VISA_TYPE_UD, addr, src, NULL, true);
	vt_add_visa(&c->stream, &v);
	c->nres += 64;
	c->pk[c->npk++] = (struct vf_packet){ .word = first, .k = k };
}

/* Append a PTX atom.global.add.u32 at word @w and update the model. */
static void vf_add_ptx(struct vf_ctx *c, __u32 w, __u32 val)
{
	struct drm_vatom_ptx p;

	vt_ptx_init(&p, DRM_VATOM_PTX_OP_ADD, DRM_VATOM_PTX_TYPE_U32, 0,
		    DRM_VATOM_PTX_SPACE_GLOBAL, 4 * w);
	p.b[0] = val;
	vt_add_ptx(&c->stream, &p);
	c->rexpect[c->nres / 4] = c->expect[w];
	c->rskip[c->nres / 4 + 1] = true;	/* padding */
	c->expect[w] += val;
	c->nres += 8;
	c->pk[c->npk++] = (struct vf_packet){ .ptx = true, .word = w, .k = val };
}

/*
 * What the first @m packets of the stream do: the buffer in @want, the
 * bytes of their results in @nres.
 */
static void vf_prefix(const struct vf_ctx *c, __u32 m, __u32 *want, __u32 *nres)
{
	__u32 p, i;

	memcpy(want, c->before, sizeof(c->before));
	*nres = 0;
	for (p = 0; p < m && p < c->npk; p++) {
		const struct vf_packet *pk = &c->pk[p];

		if (pk->ptx) {
			want[pk->word] += pk->k;
			*nres += 8;
			continue;
		}
		for (i = 0; i < 16; i++)
			want[(pk->word + i) % VF_WORDS] += i + pk->k;
		*nres += 64;
	}
}

/* A stream of @npk DWORD packets and one PTX packet on the buffer. */
static void vf_stream(struct vf_ctx *c, int npk)
{
	int p;

	vt_stream_init(&c->stream);
	for (p = 0; p < npk; p++)
		vf_add_dword(c, (p * 16 + 3 * p) % VF_WORDS, p + 1);
	vf_add_ptx(c, 300, 0x1234);
}

static void vf_submit_args(struct vf_ctx *c, __u32 buf, bool to_surface)
{
	c->bind[0].slot = 0;
	c->bind[0].handle = buf;
	vt_submit_args(&c->submit, &c->stream, c->bind, 1,
		       to_surface ? NULL : c->results, c->nres);
	if (to_surface) {
		c->submit.result_handle = c->res;
		c->submit.result_offset = VF_RES_OFFSET;
	}
}

/* In-syncobjs: a signalled binary one and a timeline with point 2 signalled. */
static int vf_syncobjs(struct vf_ctx *c)
{
	uint64_t two = 2;

	if (drmSyncobjCreate(c->fd, DRM_SYNCOBJ_CREATE_SIGNALED, &c->sin[0]) ||
	    drmSyncobjCreate(c->fd, 0, &c->sin[1]) ||
	    drmSyncobjTimelineSignal(c->fd, &c->sin[1], &two, 1) ||
	    drmSyncobjCreate(c->fd, 0, &c->sout[0]) ||
	    drmSyncobjCreate(c->fd, 0, &c->sout[1]))
		return -errno;
	memset(c->insync, 0, sizeof(c->insync));
	memset(c->outsync, 0, sizeof(c->outsync));
	c->insync[0].handle = c->sin[0];
	c->insync[1].handle = c->sin[1];
	c->insync[1].point = 2;
	c->outsync[0].handle = c->sout[0];
	c->outsync[1].handle = c->sout[1];
	c->outsync[1].point = 5;
	c->submit.in_syncs = vt_u64_ptr(c->insync);
	c->submit.in_sync_count = 2;
	c->submit.out_syncs = vt_u64_ptr(c->outsync);
	c->submit.out_sync_count = 2;
	return 0;
}

/* CLOCK_MONOTONIC @ms from now, in ns: a syncobj wait's deadline. */
static int64_t vf_deadline(unsigned int ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec + ms * 1000000ll;
}

/*
 * The out-syncobjs: 0 when neither has a fence (the binary one) or a point
 * (the timeline's last point 0), 1 when both are signalled with the job's
 * fence (after waiting up to 5 s), -1 otherwise.
 */
static int vf_outs_state(struct vf_ctx *c)
{
	uint64_t pt = 0, five = 5;
	__u32 h = c->sout[1];
	int bin, tl;

	bin = drmSyncobjWait(c->fd, &c->sout[0], 1, 0, 0, NULL);
	if (bin && errno == EINVAL) {
		if (drmSyncobjQuery(c->fd, &h, &pt, 1) || pt)
			return -1;
		return 0;
	}
	bin = drmSyncobjWait(c->fd, &c->sout[0], 1, vf_deadline(5000), 0, NULL);
	tl = drmSyncobjTimelineWait(c->fd, &h, &five, 1, vf_deadline(5000),
				    DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL, NULL);
	if (bin || tl || drmSyncobjQuery(c->fd, &h, &pt, 1) || pt != 5)
		return -1;
	return 1;
}

/* Whether the pass puts a job of the file before the call (-F). */
static bool vf_pass_prior(void)
{
	return vf_pass == VF_PASS_GUILTY || vf_pass == VF_PASS_HANG;
}

/*
 * Whether the call's job timed out or faulted, read off vatom_stats: then
 * fail-nth reached the job's own fault point (vatom_fault_pick(), when it
 * was accepted: fail_hang or fail_job; fail_delay changes nothing the
 * checks see). Not where a job before the call moves the counts.
 * Return: c->fault: 0, -ETIMEDOUT, -EIO, or -EPROTO for more than one.
 */
static int vf_job_fault(struct vf_ctx *c)
{
	long long t, f;

	c->fault = 0;
	if (!vf_jobfaults || vf_pass_prior())
		return 0;
	t = vt_debugfs_stat(vf_stats[0], "job_timeouts") - c->jf[0];
	f = vt_debugfs_stat(vf_stats[0], "job_faults") - c->jf[1];
	c->fault = t + f > 1 ? -EPROTO : t ? -ETIMEDOUT : f ? -EIO : 0;
	return c->fault;
}

/*
 * The call's job ended with c->fault: it ran none of its packets (a hang
 * that timed out) or the first half of them (an engine fault), each whole;
 * their results are in the result surface at @rsurf, none in user memory
 * (@rsurf NULL: a failed synchronous job copies none back).
 */
static enum vf_state vf_faulted(struct vf_ctx *c, const __u32 *rsurf, char *why,
				size_t len)
{
	__u32 want[VF_WORDS], nres, m = c->fault == -EIO ? c->npk / 2 : 0;
	long i;

	if (c->fault == -EPROTO) {
		snprintf(why, len, "more than one job timed out or faulted");
		return VF_BAD;
	}
	vf_prefix(c, m, want, &nres);
	if (memcmp(c->map, want, sizeof(want))) {
		snprintf(why, len, "job %s: the surface is not what its first %u of %u packets do",
			 c->fault == -EIO ? "faulted" : "timed out", m, c->npk);
		return VF_BAD;
	}
	if (!rsurf) {
		if (vt_find_ne8(c->results, 0, sizeof(c->results), VT_POISON) >= 0) {
			snprintf(why, len, "results copied out for a job that failed");
			return VF_BAD;
		}
		return VF_FAULTED;
	}
	for (i = 0; i < nres / 4; i++)
		if (!c->rskip[i] && rsurf[i] != c->rexpect[i]) {
			snprintf(why, len, "results of the packets that ran differ at word %ld: %#x, expected %#x",
				 i, rsurf[i], c->rexpect[i]);
			return VF_BAD;
		}
	if (vt_find_ne8(c->rmap, 0, VF_RES_OFFSET, VT_POISON) >= 0 ||
	    vt_find_ne8(rsurf, nres, VF_BUF_SIZE - VF_RES_OFFSET, VT_POISON) >= 0) {
		snprintf(why, len, "results past those of the %u packets that ran", m);
		return VF_BAD;
	}
	return VF_FAULTED;
}

/* ------------------------------------------------------------------------ */
/* SUBMIT                                                                    */
/* ------------------------------------------------------------------------ */

static int vf_setup_common(struct vf_ctx *c)
{
	int ret;

	c->fd = vf_open(0);
	if (c->fd < 0)
		return c->fd;
	ret = vf_buffer(c->fd, &c->buf, &c->map);
	if (ret)
		return ret;
	vf_fill(c);
	return 0;
}

static int vf_setup_sync_user(struct vf_ctx *c)
{
	int ret = vf_setup_common(c);

	if (ret)
		return ret;
	vf_stream(c, 1);
	vf_submit_args(c, c->buf, false);
	return 0;
}

static int vf_setup_sync_user_big(struct vf_ctx *c)
{
	int ret = vf_setup_common(c);

	if (ret)
		return ret;
	vf_stream(c, VF_BIG_PACKETS);
	vf_submit_args(c, c->buf, false);
	return 0;
}

static int vf_setup_surface(struct vf_ctx *c, bool async)
{
	int ret = vf_setup_common(c);

	if (ret)
		return ret;
	ret = vf_buffer(c->fd, &c->res, &c->rmap);
	if (ret)
		return ret;
	memset(c->rmap, VT_POISON, VF_BUF_SIZE);
	vf_stream(c, 4);
	vf_submit_args(c, c->buf, true);
	if (async)
		c->submit.flags = DRM_VATOM_SUBMIT_ASYNC;
	return vf_syncobjs(c);
}

static int vf_setup_sync_surface(struct vf_ctx *c)
{
	return vf_setup_surface(c, false);
}

static int vf_setup_async_surface(struct vf_ctx *c)
{
	return vf_setup_surface(c, true);
}

/* A buffer of another device (vgem for @d < 0), imported into device 0. */
static int vf_setup_import(struct vf_ctx *c, int d)
{
	struct drm_mode_create_dumb dumb = { .width = 1024, .height = 1, .bpp = 32 };
	__u32 h;
	int ret;

	vf_created_kind = DRM_VATOM_SURFACE_BUFFER;
	c->fd = vf_open(0);
	if (c->fd < 0)
		return c->fd;
	c->fd2 = vf_open(d);
	if (c->fd2 < 0)
		return c->fd2;
	if (d < 0) {
		if (ioctl(c->fd2, DRM_IOCTL_MODE_CREATE_DUMB, &dumb))
			return -errno;
		h = dumb.handle;
	} else {
		ret = vf_buffer(c->fd2, &h, &c->map);
		if (ret)
			return ret;
		munmap(c->map, VF_BUF_SIZE);
		c->map = NULL;
	}
	if (vt_prime_export(c->fd2, h, &c->dmabuf))
		return -errno;
	return 0;
}

/* Import done by setup, then a submission on the import. */
static int vf_setup_submit_import(struct vf_ctx *c, int d)
{
	int ret = vf_setup_import(c, d);

	if (ret)
		return ret;
	if (vt_prime_import(c->fd, c->dmabuf, &c->handle))
		return -errno;
	c->map = vt_map(c->fd, c->handle, VF_BUF_SIZE);
	if (!c->map)
		return -errno;
	vf_fill(c);
	vf_stream(c, 2);
	vf_submit_args(c, c->handle, false);
	if (vf_cold_imports)
		return 0;
	/*
	 * Map the import in the kernel first: when the exporter's vmap fails,
	 * 6.1's dma_buf_vmap() warns (WARN_ON_ONCE), a splat the VM runner
	 * counts, which is the dma-buf core's, not vatom's (-c keeps it).
	 */
	if (vt_submit(c->fd, &c->submit))
		return -errno;
	vf_fill(c);
	vf_stream(c, 2);
	vf_submit_args(c, c->handle, false);
	return 0;
}

static int vf_setup_submit_vgem(struct vf_ctx *c)
{
	return vf_setup_submit_import(c, -1);
}

static int vf_setup_submit_vatom2(struct vf_ctx *c)
{
	return vf_setup_submit_import(c, 1);
}

static int vf_call_submit(struct vf_ctx *c)
{
	return vf_ioctl(c->fd, DRM_IOCTL_VATOM_SUBMIT, &c->submit);
}

/* First result word that differs from the model, padding skipped; or -1. */
static long vf_mismatch(const struct vf_ctx *c, const __u32 *r)
{
	__u32 i;

	for (i = 0; i < c->nres / 4; i++)
		if (!c->rskip[i] && r[i] != c->rexpect[i])
			return i;
	return -1;
}

/* Compare the buffer with its state before and after the stream. */
static enum vf_state vf_buf_state(struct vf_ctx *c)
{
	if (!memcmp(c->map, c->before, sizeof(c->before)))
		return VF_UNCHANGED;
	if (!memcmp(c->map, c->expect, sizeof(c->expect)))
		return VF_DONE;
	return VF_BAD;
}

static enum vf_state vf_check_submit(struct vf_ctx *c, int ret, char *why,
				     size_t len)
{
	bool surf = c->submit.result_handle;
	enum vf_state st;
	int outs = 0;

	if (c->submit.out_sync_count) {
		/* An async job runs later: its out-syncobjs say when. */
		outs = vf_outs_state(c);
		if (outs < 0) {
			snprintf(why, len, "out-syncobjs neither untouched nor signalled");
			return VF_BAD;
		}
	}
	if (vf_job_fault(c)) {
		bool async = c->submit.flags & DRM_VATOM_SUBMIT_ASYNC;

		if (c->fault == -EPROTO)
			return vf_faulted(c, NULL, why, len);
		if (ret != (async ? 0 : c->fault) ||
		    (c->submit.out_sync_count &&
		     (outs != 1 || vt_fence_status(c->fd, c->sout[0]) != c->fault))) {
			snprintf(why, len, "the job %s, yet the call %s %s",
				 c->fault == -EIO ? "faulted" : "timed out",
				 async ? "or its fence" : "returned",
				 ret ? vf_errname(-ret) : "0");
			return VF_BAD;
		}
		return vf_faulted(c, surf ? c->rmap + VF_RES_OFFSET / 4 : NULL, why, len);
	}
	if (vf_pass == VF_PASS_HANG && outs == 1) {
		/* Accepted behind the hang: the reset cancels it, unexecuted. */
		int fs = vt_fence_status(c->fd, c->sout[0]);

		if (fs != -ECANCELED) {
			snprintf(why, len, "a job accepted behind a hang: fence status %d, not -ECANCELED",
				 fs);
			return VF_BAD;
		}
		if (vf_buf_state(c) != VF_UNCHANGED ||
		    vt_find_ne8(c->rmap, 0, VF_BUF_SIZE, VT_POISON) >= 0) {
			snprintf(why, len, "a job cancelled by the reset changed the surfaces");
			return VF_BAD;
		}
		return VF_DONE;
	}
	st = vf_buf_state(c);
	if (st == VF_BAD) {
		snprintf(why, len, "surface partly changed");
		return VF_BAD;
	}
	if (c->submit.out_sync_count && st != (outs == 1 ? VF_DONE : VF_UNCHANGED)) {
		snprintf(why, len, "surface %s but out-syncobjs %s",
			 st == VF_DONE ? "changed" : "unchanged",
			 outs ? "signalled" : "untouched");
		return VF_BAD;
	}
	if (st == VF_UNCHANGED) {
		if (surf ? vt_find_ne8(c->rmap, 0, VF_BUF_SIZE, VT_POISON) >= 0 :
			   vt_find_ne8(c->results, 0, sizeof(c->results), VT_POISON) >= 0) {
			snprintf(why, len, "results written by a call that did not execute");
			return VF_BAD;
		}
		return VF_UNCHANGED;
	}
	/* Executed: the results are exact, unless their copy failed. */
	if (!ret || c->submit.error_reason != DRM_VATOM_ERR_RESULTS_FAULT) {
		const __u32 *r = surf ? c->rmap + VF_RES_OFFSET / 4 : c->results;

		long i = vf_mismatch(c, r);

		if (i >= 0) {
			snprintf(why, len, "results differ at word %ld: %#x, expected %#x",
				 i, r[i], c->rexpect[i]);
			return VF_BAD;
		}
	}
	return VF_DONE;
}

/* ------------------------------------------------------------------------ */
/* SURFACE_CREATE, PRIME                                                     */
/* ------------------------------------------------------------------------ */

static struct drm_vatom_surface_create vf_create;
static struct drm_vatom_typed_desc vf_typed = {
	.dim = DRM_VATOM_TYPED_2D_ARRAY, .format = DRM_VATOM_FORMAT_R32,
	.width = 37, .height = 19, .depth = 1, .array_size = 3, .levels = 4,
};

static const __u8 vf_types[12] = {
	DRM_VATOM_TILE_TENSIX, DRM_VATOM_TILE_TENSIX, DRM_VATOM_TILE_ETHERNET,
	DRM_VATOM_TILE_DRAM, DRM_VATOM_TILE_TENSIX, DRM_VATOM_TILE_TENSIX,
	DRM_VATOM_TILE_TENSIX, DRM_VATOM_TILE_PCIE, DRM_VATOM_TILE_TENSIX,
	DRM_VATOM_TILE_ETHERNET, DRM_VATOM_TILE_TENSIX, DRM_VATOM_TILE_TENSIX,
};

static struct drm_vatom_tile_grid_desc vf_grid = {
	.profile = DRM_VATOM_NOC_PROFILE_BLACKHOLE, .width = 4, .height = 3,
	.l1_size = { 1024, 512, 0, 0 },
};

static __u64 vf_created_size;

static int vf_setup_create(struct vf_ctx *c, __u32 kind)
{
	c->fd = vf_open(0);
	if (c->fd < 0)
		return c->fd;
	memset(&vf_create, 0, sizeof(vf_create));
	vf_create.kind = kind;
	vf_created_kind = kind;
	if (kind == DRM_VATOM_SURFACE_BUFFER) {
		vf_create.size = 3 * VF_BUF_SIZE + 5;
		vf_created_size = vf_create.size;
	} else if (kind == DRM_VATOM_SURFACE_TYPED) {
		vf_create.desc = vt_u64_ptr(&vf_typed);
		vf_create.desc_size = sizeof(vf_typed);
	} else {
		vf_grid.tile_types = vt_u64_ptr(vf_types);
		vf_create.desc = vt_u64_ptr(&vf_grid);
		vf_create.desc_size = sizeof(vf_grid);
	}
	return 0;
}

static int vf_setup_buffer(struct vf_ctx *c)
{
	return vf_setup_create(c, DRM_VATOM_SURFACE_BUFFER);
}

static int vf_setup_typed(struct vf_ctx *c)
{
	return vf_setup_create(c, DRM_VATOM_SURFACE_TYPED);
}

static int vf_setup_grid(struct vf_ctx *c)
{
	return vf_setup_create(c, DRM_VATOM_SURFACE_TILE_GRID);
}

static int vf_call_create(struct vf_ctx *c)
{
	int ret;

	vf_create.handle = 0;
	if (vf_create.kind != DRM_VATOM_SURFACE_BUFFER)
		vf_create.size = 0;
	ret = vf_ioctl(c->fd, DRM_IOCTL_VATOM_SURFACE_CREATE, &vf_create);
	c->handle = vf_create.handle;
	return ret;
}

/* Live surfaces of device @d now, against the count after setup. */
static long long vf_new_surfaces(struct vf_ctx *c, int d)
{
	return vt_debugfs_stat(vf_stats[d], "surfaces") - c->counts.v[d][0];
}

/* A new surface exists iff the call says so; it is what was asked for. */
static enum vf_state vf_check_new_surface(struct vf_ctx *c, int ret, char *why,
					  size_t len, __u64 size)
{
	struct drm_vatom_surface_info info;
	long long n = vf_new_surfaces(c, 0);

	if (ret) {
		if (n == 0)
			return VF_UNCHANGED;
		if (n == 1)
			return VF_DONE;	/* the copy-out of the handle failed */
		snprintf(why, len, "%lld surfaces more after a failed call", n);
		return VF_BAD;
	}
	if (n != 1) {
		snprintf(why, len, "%lld surfaces more after a successful call", n);
		return VF_BAD;
	}
	memset(&info, 0, sizeof(info));
	if (vt_surface_info(c->fd, c->handle, &info) ||
	    info.kind != vf_created_kind || (size && info.size != size)) {
		snprintf(why, len, "the new surface is not what was asked for");
		return VF_BAD;
	}
	return VF_DONE;
}

static enum vf_state vf_check_create(struct vf_ctx *c, int ret, char *why,
				     size_t len)
{
	return vf_check_new_surface(c, ret, why, len,
				    ret ? 0 : (vf_create.kind ==
					       DRM_VATOM_SURFACE_BUFFER ?
					       vf_created_size : vf_create.size));
}

static int vf_setup_import_vgem(struct vf_ctx *c)
{
	return vf_setup_import(c, -1);
}

static int vf_setup_import_vatom2(struct vf_ctx *c)
{
	return vf_setup_import(c, 1);
}

static struct drm_prime_handle vf_prime;

static int vf_call_import(struct vf_ctx *c)
{
	int ret;

	memset(&vf_prime, 0, sizeof(vf_prime));
	vf_prime.fd = c->dmabuf;
	ret = vf_ioctl(c->fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &vf_prime);
	c->handle = vf_prime.handle;
	return ret;
}

static enum vf_state vf_check_import(struct vf_ctx *c, int ret, char *why,
				     size_t len)
{
	enum vf_state st = vf_check_new_surface(c, ret, why, len, 0);
	__u32 h, *map;

	if (st != VF_DONE || ret)
		return st;
	/* The import works: a mapping and a submission on it. */
	map = vt_map(c->fd, c->handle, VF_BUF_SIZE);
	if (!map) {
		snprintf(why, len, "cannot map the import: %s", strerror(errno));
		return VF_BAD;
	}
	c->map = map;
	vf_fill(c);
	vf_stream(c, 1);
	vf_submit_args(c, c->handle, false);
	if (vt_submit(c->fd, &c->submit) || vf_buf_state(c) != VF_DONE) {
		snprintf(why, len, "a submission on the import failed");
		return VF_BAD;
	}
	/* A second import of the same dma-buf gives the same handle. */
	if (vt_prime_import(c->fd, c->dmabuf, &h) || h != c->handle) {
		snprintf(why, len, "re-import gave another handle");
		return VF_BAD;
	}
	return VF_DONE;
}

static int vf_setup_export(struct vf_ctx *c)
{
	int ret = vf_setup_common(c);

	c->dmabuf = -1;
	return ret;
}

static int vf_call_export(struct vf_ctx *c)
{
	int ret;

	memset(&vf_prime, 0, sizeof(vf_prime));
	vf_prime.handle = c->buf;
	vf_prime.flags = DRM_CLOEXEC | DRM_RDWR;
	vf_prime.fd = -1;
	ret = vf_ioctl(c->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &vf_prime);
	if (!ret)
		c->dmabuf = vf_prime.fd;
	return ret;
}

static enum vf_state vf_check_export(struct vf_ctx *c, int ret, char *why,
				     size_t len)
{
	__u32 h;

	if (ret)
		return VF_UNCHANGED;	/* a leaked fd is closed by teardown */
	/* Exported: importing it back gives the same handle. */
	if (vt_prime_import(c->fd, c->dmabuf, &h) || h != c->buf) {
		snprintf(why, len, "the export does not import back");
		return VF_BAD;
	}
	return VF_DONE;
}

/* ------------------------------------------------------------------------ */
/* NOC_COUNTERS                                                              */
/* ------------------------------------------------------------------------ */

static struct drm_vatom_noc_counters vf_nc;
static __u32 vf_nc_out[64];

/* A grid whose tile (0, 0) sent increments to (1, 0): non-zero counters. */
static int vf_setup_counters(struct vf_ctx *c)
{
	struct drm_vatom_noc p[3];
	struct drm_vatom_binding b = { .slot = VF_GRID_SLOT };
	struct drm_vatom_submit s;
	__u32 *cnt;
	int ret, i;

	ret = vf_setup_grid(c);
	if (ret)
		return ret;
	if (vf_call_create(c))
		return -errno;
	c->grid = c->handle;
	c->handle = 0;
	c->glen = (vf_create.size + VT_PAGE_SIZE - 1) & ~(__u64)(VT_PAGE_SIZE - 1);
	c->gmap = vt_map(c->fd, c->grid, c->glen);
	if (!c->gmap)
		return -errno;
	memset(p, 0, sizeof(p));
	for (i = 0; i < 3; i++) {
		p[i].hdr.type = DRM_VATOM_PACKET_NOC;
		p[i].hdr.size = sizeof(p[i]);
		p[i].slot = VF_GRID_SLOT;
		p[i].targ_addr_lo = 0x40;
		p[i].targ_addr_hi = 1;	/* tile (1, 0) */
		p[i].ctrl = DRM_VATOM_NOC_CTRL_REQ_ATOMIC;
		p[i].at_len_be = DRM_VATOM_NOC_AT_INCR << DRM_VATOM_NOC_AT_OPCODE_SHIFT |
				 31 << DRM_VATOM_NOC_AT_INT_WIDTH_SHIFT;
		p[i].at_data = i + 1;
	}
	b.handle = c->grid;
	memset(&s, 0, sizeof(s));
	s.stream = vt_u64_ptr(p);
	s.stream_size = sizeof(p);
	s.bindings = vt_u64_ptr(&b);
	s.binding_count = 1;
	if (vt_submit(c->fd, &s))
		return -errno;
	/* Tile (0, 0), NoC 0: the first 256 bytes of the mapping. */
	cnt = (__u32 *)c->gmap;
	memcpy(c->cnt_before, cnt, sizeof(c->cnt_before));
	if (!cnt[DRM_VATOM_NOC_MST_POSTED_ATOMIC_SENT])
		return -EIO;
	memset(vf_nc_out, VT_POISON, sizeof(vf_nc_out));
	memset(&vf_nc, 0, sizeof(vf_nc));
	vf_nc.handle = c->grid;
	vf_nc.flags = DRM_VATOM_NOC_COUNTERS_READ | DRM_VATOM_NOC_COUNTERS_CLEAR_ALL;
	vf_nc.count = 64;
	vf_nc.counters = vt_u64_ptr(vf_nc_out);
	return 0;
}

static int vf_call_counters(struct vf_ctx *c)
{
	return vf_ioctl(c->fd, DRM_IOCTL_VATOM_NOC_COUNTERS, &vf_nc);
}

static enum vf_state vf_check_counters(struct vf_ctx *c, int ret, char *why,
				       size_t len)
{
	const __u32 *cnt = (const __u32 *)c->gmap;

	if (!memcmp(cnt, c->cnt_before, sizeof(c->cnt_before))) {
		if (vt_find_ne8(vf_nc_out, 0, sizeof(vf_nc_out), VT_POISON) >= 0) {
			snprintf(why, len, "counters copied out but not cleared");
			return VF_BAD;
		}
		return VF_UNCHANGED;
	}
	if (vt_find_ne32(cnt, 0, 64, 0) >= 0) {
		snprintf(why, len, "counters partly cleared");
		return VF_BAD;
	}
	if (!ret && vt_mismatch32(vf_nc_out, c->cnt_before, 64) >= 0) {
		snprintf(why, len, "counters read wrong");
		return VF_BAD;
	}
	return VF_DONE;
}

/* ------------------------------------------------------------------------ */
/* Syncobjs                                                                  */
/* ------------------------------------------------------------------------ */

static union {
	struct drm_syncobj_create create;
	struct drm_syncobj_handle handle;
	struct drm_syncobj_transfer transfer;
	struct drm_syncobj_timeline_array array;
} vf_so;
static uint64_t vf_so_point;

/* A syncobj holding the fence of a completed vatom job. */
static int vf_setup_job_fence(struct vf_ctx *c)
{
	int ret = vf_setup_common(c);

	if (ret)
		return ret;
	vf_stream(c, 1);
	vf_submit_args(c, c->buf, false);
	if (drmSyncobjCreate(c->fd, 0, &c->sout[0]))
		return -errno;
	memset(c->outsync, 0, sizeof(c->outsync));
	c->outsync[0].handle = c->sout[0];
	c->submit.out_syncs = vt_u64_ptr(c->outsync);
	c->submit.out_sync_count = 1;
	if (vt_submit(c->fd, &c->submit))
		return -errno;
	c->sync_file = -1;
	return 0;
}

/*
 * open() of the render node: the DRM core's file and vatom's context of it
 * (vatom_open()). The call's file is @fd2; @fd, a file of the same device
 * opened before (vf_setup_file()), is the one the reset-status check
 * looks at.
 */
static int vf_call_open(struct vf_ctx *c)
{
	c->fd2 = open(vf_nodes[0], O_RDWR | O_CLOEXEC);
	return c->fd2 < 0 ? -errno : 0;
}

/* The file opened works: it answers GET_PARAM and creates a surface. */
static enum vf_state vf_check_open(struct vf_ctx *c, int ret, char *why,
				   size_t len)
{
	struct drm_vatom_get_param gp = { .param = DRM_VATOM_PARAM_UAPI_VERSION };
	__u32 h;

	if (ret)
		return VF_UNCHANGED;
	ret = vf_ioctl(c->fd2, DRM_IOCTL_VATOM_GET_PARAM, &gp);
	if (ret || gp.value != DRM_VATOM_UAPI_VERSION) {
		snprintf(why, len, "GET_PARAM on the file opened: %d, version %llu",
			 ret, (unsigned long long)gp.value);
		return VF_BAD;
	}
	if (vt_buffer_create(c->fd2, VF_BUF_SIZE, &h)) {
		snprintf(why, len, "SURFACE_CREATE on the file opened: %s",
			 strerror(errno));
		return VF_BAD;
	}
	return VF_DONE;
}

/* A fresh file of device 0, and nothing else. */
static int vf_setup_file(struct vf_ctx *c)
{
	c->fd = vf_open(0);
	return c->fd < 0 ? c->fd : 0;
}

static int vf_call_so_create(struct vf_ctx *c)
{
	int ret;

	memset(&vf_so, 0, sizeof(vf_so));
	vf_so.create.flags = DRM_SYNCOBJ_CREATE_SIGNALED;
	ret = vf_ioctl(c->fd, DRM_IOCTL_SYNCOBJ_CREATE, &vf_so.create);
	c->handle = vf_so.create.handle;
	return ret;
}

static enum vf_state vf_check_so_create(struct vf_ctx *c, int ret, char *why,
					size_t len)
{
	if (ret)
		return VF_UNCHANGED;
	if (drmSyncobjWait(c->fd, &c->handle, 1, 0, 0, NULL)) {
		snprintf(why, len, "the new syncobj is not signalled");
		return VF_BAD;
	}
	return VF_DONE;
}

static int vf_call_so_export(struct vf_ctx *c)
{
	int ret;

	memset(&vf_so, 0, sizeof(vf_so));
	vf_so.handle.handle = c->sout[0];
	vf_so.handle.flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE;
	vf_so.handle.fd = -1;
	ret = vf_ioctl(c->fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &vf_so.handle);
	if (!ret)
		c->sync_file = vf_so.handle.fd;
	return ret;
}

static enum vf_state vf_check_so_export(struct vf_ctx *c, int ret, char *why,
					size_t len)
{
	__u32 h;

	if (ret)
		return VF_UNCHANGED;
	if (drmSyncobjCreate(c->fd, 0, &h) ||
	    drmSyncobjImportSyncFile(c->fd, h, c->sync_file) ||
	    drmSyncobjWait(c->fd, &h, 1, 0, 0, NULL)) {
		snprintf(why, len, "the exported sync_file does not import back");
		return VF_BAD;
	}
	return VF_DONE;
}

static int vf_setup_so_import(struct vf_ctx *c)
{
	int ret = vf_setup_job_fence(c);

	if (ret)
		return ret;
	if (drmSyncobjExportSyncFile(c->fd, c->sout[0], &c->sync_file) ||
	    drmSyncobjCreate(c->fd, 0, &c->sout[1]))
		return -errno;
	return 0;
}

static int vf_call_so_import(struct vf_ctx *c)
{
	memset(&vf_so, 0, sizeof(vf_so));
	vf_so.handle.handle = c->sout[1];
	vf_so.handle.flags = DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE;
	vf_so.handle.fd = c->sync_file;
	return vf_ioctl(c->fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &vf_so.handle);
}

/* Whether syncobj @h has a fence (the job's, signalled). */
static enum vf_state vf_so_fenced(struct vf_ctx *c, __u32 h, int ret, char *why,
				  size_t len)
{
	int r = drmSyncobjWait(c->fd, &h, 1, 0, 0, NULL);

	if (r && errno == EINVAL)
		return VF_UNCHANGED;
	if (r) {
		snprintf(why, len, "syncobj wait: %s", strerror(errno));
		return VF_BAD;
	}
	(void)ret;
	return VF_DONE;
}

static enum vf_state vf_check_so_import(struct vf_ctx *c, int ret, char *why,
					size_t len)
{
	return vf_so_fenced(c, c->sout[1], ret, why, len);
}

static int vf_setup_so_transfer(struct vf_ctx *c)
{
	int ret = vf_setup_job_fence(c);

	if (ret)
		return ret;
	return drmSyncobjCreate(c->fd, 0, &c->sout[1]) ? -errno : 0;
}

static int vf_call_so_transfer(struct vf_ctx *c)
{
	memset(&vf_so, 0, sizeof(vf_so));
	vf_so.transfer.src_handle = c->sout[0];
	vf_so.transfer.dst_handle = c->sout[1];
	vf_so.transfer.dst_point = 3;
	return vf_ioctl(c->fd, DRM_IOCTL_SYNCOBJ_TRANSFER, &vf_so.transfer);
}

static enum vf_state vf_check_so_transfer(struct vf_ctx *c, int ret, char *why,
					  size_t len)
{
	uint64_t pt = 0;
	__u32 h = c->sout[1];

	if (drmSyncobjQuery(c->fd, &h, &pt, 1)) {
		snprintf(why, len, "syncobj query: %s", strerror(errno));
		return VF_BAD;
	}
	if (pt == 0)
		return VF_UNCHANGED;
	if (pt != 3) {
		snprintf(why, len, "timeline at point %llu", (unsigned long long)pt);
		return VF_BAD;
	}
	(void)ret;
	return VF_DONE;
}

static int vf_setup_so_signal(struct vf_ctx *c)
{
	c->fd = vf_open(0);
	if (c->fd < 0)
		return c->fd;
	return drmSyncobjCreate(c->fd, 0, &c->sout[1]) ? -errno : 0;
}

static int vf_call_so_signal(struct vf_ctx *c)
{
	memset(&vf_so, 0, sizeof(vf_so));
	vf_so_point = 3;
	vf_so.array.handles = vt_u64_ptr(&c->sout[1]);
	vf_so.array.points = vt_u64_ptr(&vf_so_point);
	vf_so.array.count_handles = 1;
	return vf_ioctl(c->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, &vf_so.array);
}

/* ------------------------------------------------------------------------ */
/* Queues                                                                    */
/* ------------------------------------------------------------------------ */

#define VF_QUEUE_ENTRIES	4
#define VF_QUEUE_STREAMS	(16 * 1024)	/* the stream surface: a big stream fits */

/* Polling queues the device runs now, against the count after setup. */
static long long vf_new_pollers(struct vf_ctx *c)
{
	return vt_debugfs_stat(vf_limits[0], "poll_queues") - c->counts.v[0][3];
}

/*
 * A buffer, a result surface, a stream surface holding a stream of @npk
 * packets (and one PTX), a timeline syncobj and an eventfd; the queue's
 * creation arguments with @flags bind the three at slots 0, 1 and 2.
 */
static int vf_setup_queue_common(struct vf_ctx *c, int npk, __u32 flags)
{
	int ret = vf_setup_common(c);

	if (ret)
		return ret;
	ret = vf_buffer(c->fd, &c->res, &c->rmap);
	if (ret)
		return ret;
	memset(c->rmap, VT_POISON, VF_BUF_SIZE);
	if (vt_buffer_create(c->fd, VF_QUEUE_STREAMS, &c->qs))
		return -errno;
	c->qsmap = vt_map(c->fd, c->qs, VF_QUEUE_STREAMS);
	c->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (!c->qsmap || c->efd < 0 || drmSyncobjCreate(c->fd, 0, &c->sout[1]))
		return -errno;
	vf_stream(c, npk);
	memcpy(c->qsmap, c->stream.buf, c->stream.size);
	c->qbind[0] = (struct drm_vatom_binding){ .slot = 0, .handle = c->buf };
	c->qbind[1] = (struct drm_vatom_binding){ .slot = 1, .handle = c->qs };
	c->qbind[2] = (struct drm_vatom_binding){ .slot = 2, .handle = c->res };
	memset(&c->qc, 0, sizeof(c->qc));
	c->qc.entries = VF_QUEUE_ENTRIES;
	c->qc.flags = flags | DRM_VATOM_QUEUE_CREATE_EVENTFD;
	c->qc.bindings = vt_u64_ptr(c->qbind);
	c->qc.binding_count = 3;
	c->qc.poll_idle_us = flags & DRM_VATOM_QUEUE_CREATE_POLL ? 1000 : 0;
	c->qc.syncobj = c->sout[1];
	c->qc.eventfd = c->efd;
	return 0;
}

/* Map the ring and page of the queue @c->qc made; publish the stream as job 1. */
static int vf_queue_map_publish(struct vf_ctx *c)
{
	struct drm_vatom_queue_job *j;

	c->qring = vt_map(c->fd, c->qc.ring_handle, VT_PAGE_SIZE);
	c->qctl = vt_map(c->fd, c->qc.ctl_handle, VT_PAGE_SIZE);
	if (!c->qring || !c->qctl)
		return -errno;
	j = &c->qring[0];
	memset(j, 0, sizeof(*j));
	j->stream_slot = 1;
	j->stream_size = c->stream.size;
	j->results_slot = 2;
	j->results_offset = VF_RES_OFFSET;
	j->results_size = c->nres;
	__atomic_store_n(&c->qctl->tail, 1, __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return 0;
}

/* The last point of timeline @h, or -1. */
static long long vf_timeline_point(int fd, __u32 h)
{
	struct drm_syncobj_timeline_array a;
	__u64 pt = 0;

	memset(&a, 0, sizeof(a));
	a.handles = vt_u64_ptr(&h);
	a.points = vt_u64_ptr(&pt);
	a.count_handles = 1;
	return ioctl(fd, DRM_IOCTL_SYNCOBJ_QUERY, &a) ? -1 : (long long)pt;
}

/*
 * Job 1 complete (waiting up to 5 s) and signalled: the timeline at point
 * 1, the eventfd at 1. Return: 0, or -1 with @why filled.
 */
static int vf_queue_signalled(struct vf_ctx *c, char *why, size_t len)
{
	struct drm_syncobj_timeline_wait w;
	__u32 h = c->sout[1];
	__u64 one = 1, v = 0;
	long long pt;
	int i;

	for (i = 0; i < 500 && __atomic_load_n(&c->qctl->completed, __ATOMIC_ACQUIRE) < 1; i++)
		vf_sleep_ms(10);
	if (c->qctl->completed != 1) {
		snprintf(why, len, "queue: %llu jobs completed, not 1",
			 (unsigned long long)c->qctl->completed);
		return -1;
	}
	memset(&w, 0, sizeof(w));
	w.handles = vt_u64_ptr(&h);
	w.points = vt_u64_ptr(&one);
	w.count_handles = 1;
	w.timeout_nsec = vf_deadline(5000);
	w.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT;
	pt = ioctl(c->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w) ? -1 :
	     vf_timeline_point(c->fd, h);
	if (pt != 1) {
		snprintf(why, len, "queue: timeline at point %lld, not 1", pt);
		return -1;
	}
	for (i = 0; i < 500 && read(c->efd, &v, sizeof(v)) != sizeof(v); i++)
		vf_sleep_ms(10);
	if (v != 1) {
		snprintf(why, len, "queue: eventfd %llu, not 1", (unsigned long long)v);
		return -1;
	}
	return 0;
}

/* Job 1 executed exactly (VF_DONE) or changed nothing (VF_UNCHANGED). */
static enum vf_state vf_queue_job_state(struct vf_ctx *c, char *why, size_t len)
{
	enum vf_state st = vf_buf_state(c);
	bool ok = !c->qring[0].status, done = st == VF_DONE;
	long i;

	/* Executed exactly when its status says so. */
	if (st == VF_BAD || ok != done) {
		snprintf(why, len, "job status %d, surface %s", c->qring[0].status,
			 st == VF_BAD ? "partly changed" : st == VF_DONE ? "changed" :
			 "unchanged");
		return VF_BAD;
	}
	if (st == VF_UNCHANGED) {
		if (vt_find_ne8(c->rmap, 0, VF_BUF_SIZE, VT_POISON) >= 0) {
			snprintf(why, len, "results written by a job that failed");
			return VF_BAD;
		}
		return VF_UNCHANGED;
	}
	i = vf_mismatch(c, c->rmap + VF_RES_OFFSET / 4);
	if (i >= 0) {
		snprintf(why, len, "results differ at word %ld: %#x, expected %#x",
			 i, c->rmap[VF_RES_OFFSET / 4 + i], c->rexpect[i]);
		return VF_BAD;
	}
	return VF_DONE;
}

static int vf_setup_queue_create(struct vf_ctx *c)
{
	return vf_setup_queue_common(c, 1, DRM_VATOM_QUEUE_CREATE_POLL);
}

static int vf_call_queue_create(struct vf_ctx *c)
{
	c->qc.queue_id = 0;
	c->qc.ring_handle = 0;
	c->qc.ctl_handle = 0;
	return vf_ioctl(c->fd, DRM_IOCTL_VATOM_QUEUE_CREATE, &c->qc);
}

/*
 * Created or not: two surfaces (ring, page) and a poller more, or none.
 * Created: its poller runs a job to completion, exactly, and signals.
 */
static enum vf_state vf_check_queue_create(struct vf_ctx *c, int ret, char *why,
					   size_t len)
{
	char msg[160];
	long long n, p;

	if (ret && vf_counts_settle(&c->counts, msg, sizeof(msg)))
		return VF_UNCHANGED;
	n = vf_new_surfaces(c, 0);
	p = vf_new_pollers(c);
	if (n != 2 || p != 1) {
		snprintf(why, len, "%lld surfaces and %lld pollers more after %s call", n, p,
			 ret ? "a failed" : "a successful");
		return VF_BAD;
	}
	if (ret)
		return VF_DONE;	/* the copy-out of the ids failed */
	if (vf_queue_map_publish(c)) {
		snprintf(why, len, "cannot map the queue: %s", strerror(errno));
		return VF_BAD;
	}
	if (__atomic_load_n(&c->qctl->flags, __ATOMIC_RELAXED) &
	    DRM_VATOM_QUEUE_CTL_NEED_WAKEUP) {
		struct drm_vatom_queue_kick k = { .queue_id = c->qc.queue_id };

		if (vf_ioctl(c->fd, DRM_IOCTL_VATOM_QUEUE_KICK, &k)) {
			snprintf(why, len, "KICK of the new queue failed");
			return VF_BAD;
		}
	}
	if (vf_queue_signalled(c, why, len))
		return VF_BAD;
	if (vf_queue_job_state(c, why, len) != VF_DONE) {
		if (!why[0])
			snprintf(why, len, "the new queue's job failed: %d", c->qring[0].status);
		return VF_BAD;
	}
	return VF_DONE;
}

/* A kick-mode queue, its job (a stream over a page) published. */
static int vf_setup_queue_kick(struct vf_ctx *c)
{
	int ret = vf_setup_queue_common(c, VF_BIG_PACKETS, 0);

	if (ret)
		return ret;
	if (vf_ioctl(c->fd, DRM_IOCTL_VATOM_QUEUE_CREATE, &c->qc))
		return -errno;
	return vf_queue_map_publish(c);
}

/* KICK; a job that failed for want of memory says so in its status. */
static int vf_call_queue_kick(struct vf_ctx *c)
{
	struct drm_vatom_queue_kick k = { .queue_id = c->qc.queue_id };
	int ret = vf_ioctl(c->fd, DRM_IOCTL_VATOM_QUEUE_KICK, &k);

	if (ret || __atomic_load_n(&c->qctl->completed, __ATOMIC_ACQUIRE) != 1)
		return ret;
	return c->qring[0].status;
}

/*
 * Nothing consumed (the syncobj point could not be allocated): nothing
 * changed or signalled. Consumed: the job executed exactly, or failed
 * changing nothing, and either way the batch is signalled.
 */
static enum vf_state vf_check_queue_kick(struct vf_ctx *c, int ret, char *why,
					 size_t len)
{
	__u64 v;

	if (!__atomic_load_n(&c->qctl->completed, __ATOMIC_ACQUIRE)) {
		if (vf_timeline_point(c->fd, c->sout[1]) ||
		    read(c->efd, &v, sizeof(v)) >= 0 || vf_buf_state(c) != VF_UNCHANGED ||
		    vt_find_ne8(c->rmap, 0, VF_BUF_SIZE, VT_POISON) >= 0) {
			snprintf(why, len, "nothing consumed, yet a point, a signal or a write");
			return VF_BAD;
		}
		return VF_UNCHANGED;
	}
	if (vf_queue_signalled(c, why, len))
		return VF_BAD;
	if (vf_job_fault(c)) {
		if (c->fault == -EPROTO)
			return vf_faulted(c, NULL, why, len);
		if (c->qring[0].status != c->fault || ret != c->fault) {
			snprintf(why, len, "the job %s, yet its status is %d",
				 c->fault == -EIO ? "faulted" : "timed out",
				 c->qring[0].status);
			return VF_BAD;
		}
		return vf_faulted(c, c->rmap + VF_RES_OFFSET / 4, why, len);
	}
	return vf_queue_job_state(c, why, len);
}

/* ------------------------------------------------------------------------ */
/* RESET_STATUS (-F: on a guilty file)                                       */
/* ------------------------------------------------------------------------ */

static struct drm_vatom_reset_status vf_rs;

static int vf_reset_status(int fd, __u32 flags, struct drm_vatom_reset_status *st)
{
	memset(st, 0, sizeof(*st));
	st->flags = flags;
	return vf_ioctl(fd, DRM_IOCTL_VATOM_RESET_STATUS, st);
}

static int vf_call_reset_status(struct vf_ctx *c)
{
	return vf_reset_status(c->fd, DRM_VATOM_RESET_ACK, &vf_rs);
}

/*
 * Acknowledged (the file submits again) or not (still guilty); a call
 * that succeeded reported the reset it acknowledged.
 */
static enum vf_state vf_check_reset_status(struct vf_ctx *c, int ret, char *why,
					   size_t len)
{
	struct drm_vatom_reset_status st;

	if (vf_reset_status(c->fd, 0, &st)) {
		snprintf(why, len, "RESET_STATUS after: %s", strerror(errno));
		return VF_BAD;
	}
	if (st.guilty != 1) {
		snprintf(why, len, "guilty %llu after, not 1", (unsigned long long)st.guilty);
		return VF_BAD;
	}
	if (!ret && (vf_rs.status != DRM_VATOM_RESET_GUILTY || vf_rs.guilty != 1)) {
		snprintf(why, len, "it reported status %u, guilty %llu, not a guilty reset",
			 vf_rs.status, (unsigned long long)vf_rs.guilty);
		return VF_BAD;
	}
	if (st.status == DRM_VATOM_RESET_GUILTY)
		return VF_UNCHANGED;
	if (st.status != DRM_VATOM_RESET_NONE) {
		snprintf(why, len, "status %u after", st.status);
		return VF_BAD;
	}
	if (vt_submit(c->fd, &c->submit) || vf_buf_state(c) != VF_DONE) {
		snprintf(why, len, "acknowledged, yet a submission failed: %s",
			 strerror(errno));
		return VF_BAD;
	}
	return VF_DONE;
}

/* ------------------------------------------------------------------------ */
/* The job before the call (-F), the reset status after it                   */
/* ------------------------------------------------------------------------ */

/* The surface and out-syncobj of the job before the call (counted in setup). */
static int vf_prior_prepare(struct vf_ctx *c)
{
	if (vt_buffer_create(c->fd, VT_PAGE_SIZE, &c->prior_buf) ||
	    drmSyncobjCreate(c->fd, 0, &c->prior))
		return -errno;
	return 0;
}

/*
 * The pass's job before the call, on a surface of its own, one packet: an
 * engine fault (synchronous: -EIO; none of its one packet runs) leaves the
 * file guilty, or a hang (asynchronous) holds the file's queue until the
 * job timeout. Return: NULL, or what went wrong.
 */
static const char *vf_prior(struct vf_ctx *c)
{
	const char *attr = vf_pass == VF_PASS_HANG ? "fail_hang" : "fail_job";
	struct drm_vatom_binding b = { .slot = 0, .handle = c->prior_buf };
	struct drm_vatom_sync out = { .handle = c->prior };
	static char why[96];
	struct drm_vatom_submit a;
	__u32 addr = 0, one = 1;
	struct vt_stream s;
	struct vt_visa v;
	long left;
	int ret;

	vt_stream_init(&s);
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_1,
		 DRM_VATOM_VISA_TYPE_UD, &addr, &one, NULL, false);
	vt_add_visa(&s, &v);
	vt_submit_args(&a, &s, &b, 1, NULL, 0);
	if (vf_pass == VF_PASS_HANG) {
		a.flags = DRM_VATOM_SUBMIT_ASYNC;
		a.out_syncs = vt_u64_ptr(&out);
		a.out_sync_count = 1;
	}
	if (vt_fault_arm(attr, 1, true))
		return "cannot arm the fault";
	ret = vt_submit(c->fd, &a) ? -errno : 0;
	left = vf_fault_left(attr);
	vt_fault_arm(attr, 0, false);
	if (left) {
		snprintf(why, sizeof(why), "%s did not pick the job before the call", attr);
		return why;
	}
	if (ret != (vf_pass == VF_PASS_HANG ? 0 : -EIO)) {
		snprintf(why, sizeof(why), "the job before the call returned %s",
			 ret ? vf_errname(-ret) : "0");
		return why;
	}
	return NULL;
}

/*
 * The hang before the call timed out (waiting up to 5 s); its syncobj goes.
 * The live counts are then those before it, but for its fence, which the
 * file keeps (its last asynchronous job's out-fence holds the hardware
 * fence) until another asynchronous job replaces it, or the file closes.
 * Return: false with @why filled.
 */
static bool vf_prior_end(struct vf_ctx *c, char *why, size_t len)
{
	int st;

	if (vf_pass != VF_PASS_HANG)
		return true;
	if (drmSyncobjWait(c->fd, &c->prior, 1, vf_deadline(5000), 0, NULL)) {
		snprintf(why, len, "the hung job before the call: %s", strerror(errno));
		return false;
	}
	st = vt_fence_status(c->fd, c->prior);
	if (st != -ETIMEDOUT) {
		snprintf(why, len, "the hung job before the call ended %d, not -ETIMEDOUT", st);
		return false;
	}
	drmSyncobjDestroy(c->fd, c->prior);
	c->prior = 0;
	c->counts.v[0][2]++;	/* fences */
	return true;
}

/*
 * The file is guilty exactly once per job of its that timed out or
 * faulted: the one before the call (-F), and the call's if its check says
 * so. Then acknowledged.
 */
static bool vf_reset_check(const struct vf_path *p, struct vf_ctx *c,
			   enum vf_state st, char *why, size_t len)
{
	unsigned int want = vf_pass_prior() + (st == VF_FAULTED);
	struct drm_vatom_reset_status rs;

	if (!vf_jobfaults || p->own_reset)
		return true;
	if (vf_reset_status(c->fd, DRM_VATOM_RESET_ACK, &rs)) {
		snprintf(why, len, "RESET_STATUS: %s", strerror(errno));
		return false;
	}
	if (rs.guilty != want ||
	    rs.status != (want ? DRM_VATOM_RESET_GUILTY : DRM_VATOM_RESET_NONE)) {
		snprintf(why, len, "reset status %u, guilty %llu; expected guilty %u",
			 rs.status, (unsigned long long)rs.guilty, want);
		return false;
	}
	return true;
}

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
