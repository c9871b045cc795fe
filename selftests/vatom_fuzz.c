// SPDX-License-Identifier: GPL-2.0
/*
 * vatom_fuzz: a seeded ioctl fuzzer for the vatom render node.
 *
 *   vatom_fuzz [-t SECONDS] [-n CALLS] [-s SEED] [-j THREADS] [-F jobs] [-D shim] [-v]
 *
 * (-v prints every call of phase 1; calls over 0.5 s are printed anyway.
 * -F jobs injects faults into jobs: see below. -D shim is the
 * differential against the in-process device, libvatom-shim.so: phase 1
 * alone, on the device and on the shim, traced and compared, in
 * fuzz_trace.c; -T FILE is one half of it.)
 *
 * Two phases share the time budget (-t, default 20 s) half and half:
 *
 *  1. Deterministic: one thread, one PRNG seeded with -s (printed, so a
 *     failure reproduces with the same seed and -n), at most -n calls.
 *     Each call is a vatom ioctl (or a DRM core one vatom relies on: GEM
 *     close, PRIME, syncobjs, mmap) built valid and then mutated or not:
 *     packets of every family (vISA DWORD_ATOMIC, TYPED_ATOMIC, ADDC, PTX
 *     atom, NoC, broadcasts included) with flipped bits, wrong sizes,
 *     types, slots, handles, flags, syncobjs, result regions, asynchronous
 *     with user results, pointers to PROT_NONE or read-only memory and
 *     huge counts; user-mode queues in kick and polling mode, with
 *     syncobjs and eventfds (or pipes, closed descriptors) to signal,
 *     their descriptors, streams and tails mutated the same way; the
 *     reset status, acknowledged or not, with bad flags. Mixed
 *     in, a known-good workload: valid submissions (synchronous and
 *     asynchronous) and jobs of a polling queue that signals a timeline
 *     syncobj and an eventfd, which add known amounts to a ledger surface,
 *     whose totals (and the queue's last point) are checked exactly at the
 *     end.
 *  2. Concurrent: rounds of a forked process with -j threads (default 4)
 *     doing the same on shared files and handle pools, half of them as
 *     uid/gid 65534 (nobody) after opening, plus races: closing and
 *     reopening the shared file, unmapping user results while other
 *     threads submit with them, closing handles others use, forking
 *     children that queue jobs and are killed. The round process itself
 *     is SIGKILLed at a random moment or told to stop.
 *
 * Invariants: every ioctl fails, if it does, with an errno of the table in
 * docs/uapi.md (vatom ioctls) or one the DRM core documents (core ioctls);
 * EBADF and ENOTTY are allowed in phase 2 only, where another thread may
 * close or reuse the fd. At the end the debugfs live counts (surfaces,
 * jobs_in_flight, fences, poll_queues) of every device are back at their
 * baseline, the ledger holds exactly what the known-good workload added
 * and the kernel logged no splat. Prints TAP and the calls per second.
 *
 * A file whose job timed out or faulted is guilty, its submissions -EIO,
 * until it acknowledges (RESET_STATUS): a vatom ioctl that fails with EIO
 * acknowledges its file's reset, and so does every worker every 64 calls
 * (queue jobs fail silently), so that fuzzing goes on.
 *
 * -F jobs: faults are injected into jobs (debugfs /sys/kernel/debug/vatom,
 * CONFIG_FAULT_INJECTION_DEBUG_FS: the debug kernel; root). For the run,
 * every job of any task is picked with probability 1 % by fail_hang (it
 * hangs until the job timeout), 3 % by fail_job (half its packets, then
 * -EIO) and 3 % by fail_delay (delay_ms 20), and job_timeout_ms is 200;
 * each is set back at exit (also on a failure exit or SIGINT/SIGTERM/
 * SIGHUP). It skips where those files cannot be written. ("jobs" is the
 * only kind so far; the word also names the run's stage in the VM, which
 * scripts/vm-tests.sh names after the arguments that are not options.)
 * What must still
 * hold: no errno outside the table (EIO and ETIMEDOUT are in it anyway),
 * the live counts back at their baseline, no kernel splat, and the
 * ledger, exactly, counting what each of its jobs did: every one is a
 * single packet, so one that failed (timed out, faulted, refused or
 * cancelled by its file's reset: -ETIMEDOUT, -EIO, -ECANCELED, nothing
 * else) executed nothing and adds nothing. Which jobs the kernel picks is
 * random, so -s does not reproduce a run with -F. vatom_stats' counts of
 * job timeouts, job faults and resets during the run are printed.
 *
 * Copyright (C) 2026 The vatom developers
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/sync_file.h>
#include <xf86drm.h>

#include "kselftest.h"

#include "common.h"
#include "common_kernel.h"
#include "fuzz.h"
#include "fuzz_trace.h"

/* ------------------------------------------------------------------------ */
/* Phases                                                                    */
/* ------------------------------------------------------------------------ */

/* Phase 1: one thread, seeded; returns the calls made. */
static unsigned long long vz_phase1(__u64 seed, double secs, unsigned long long max,
				    struct vz_ledger *l)
{
	struct vz_worker w;
	double end = vz_now() + secs;
	unsigned long long i;
	int fd, fd2 = -1;

	fd = vt_open_path(vz_nodes[0]);
	if (vz_ndev > 1)
		fd2 = vt_open_path(vz_nodes[1]);
	if (fd < 0 || vz_worker_init(&w, 0, seed, fd, fd2))
		ksft_exit_fail_msg("phase 1 setup: %s\n", strerror(errno));
	vz_seed_pool(&w);
	for (i = 0; i < max; i++) {
		double t = vz_now();

		w.iter = i;
		if (l && !(i % 16))
			vz_ledger_add(l, &w.rng);
		if (!(i % 64)) {
			vz_ack(fd);	/* its queues' jobs fail silently */
			if (fd2 >= 0)
				vz_ack(fd2);
		}
		if (vd_trace)
			vz_trace_clear(&w);
		vz_op_random(&w);
		if (vd_trace)
			vz_trace_state(&w, !(i % 64));
		t = vz_now() - t;
		/* -v: every call; else the slow ones (a time budget's worth). */
		if (vz_verbose || t > 0.5)
			ksft_print_msg("call %llu: %s, %.3f s\n", i, w.op, t);
		if (!(i % 64) && vz_now() > end) {
			i++;
			break;
		}
	}
	if (vd_trace) {
		vz_trace_state(&w, true);
		vd_printf("end %llu\n", i);
	}
	vz_queues_forget(&w);
	vz_worker_fini(&w);
	close(fd);
	if (fd2 >= 0)
		close(fd2);
	return i;
}

/**
 * struct vz_round - what the threads of one phase-2 process share
 * @fd: the shared file (closed and reopened by the racing thread)
 * @victim: a page of user results another thread unmaps and maps again
 * @seed: the round's seed
 */
struct vz_round {
	_Atomic int fd;
	int fd2;
	void *victim;
	__u64 seed;
};

static struct vz_round vz_round;

/* Races: close/reopen the shared file, unmap the victim, fork and kill. */
static void vz_race(struct vz_worker *w)
{
	pid_t pid;
	int fd;

	switch (vz_below(&w->rng, 4)) {
	case 0:
		w->op = "close/reopen";
		fd = vt_open_path(vz_nodes[0]);
		if (fd >= 0)
			close(atomic_exchange(&vz_round.fd, fd));
		break;
	case 1:
		w->op = "munmap victim";
		munmap(vz_round.victim, VT_PAGE_SIZE);
		usleep(vz_below(&w->rng, 200));
		mmap(vz_round.victim, VT_PAGE_SIZE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
		break;
	default:
		w->op = "fork/kill";
		pid = fork();
		if (pid == 0) {
			/*
			 * Queue work on the inherited file, or on a file of
			 * its own (its queues die with it), then go.
			 */
			int i, own = vz_chance(&w->rng, 50) ? vt_open_path(vz_nodes[0]) : -1;

			w->fd = atomic_load(&vz_round.fd);
			if (own >= 0) {
				w->fd = own;
				w->nsurf = 0;
				w->nsync = 0;
				w->nqueue = 0;
				w->qmap = NULL;
				vz_seed_pool(w);
			}
			for (i = 0; i < 8; i++) {
				if (i % 2)
					vz_op_submit(w);
				else
					vz_queue_jobs(w);
			}
			_exit(0);
		}
		if (pid > 0) {
			usleep(vz_below(&w->rng, 3000));
			if (vz_chance(&w->rng, 50))
				kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
		}
		break;
	}
}

static void *vz_thread(void *arg)
{
	struct vz_worker *w = arg;
	bool shared = w->id & 2;
	int own = -1;

	if (!shared) {
		own = vt_open_path(vz_nodes[0]);
		w->fd = own;
	} else {
		w->fd = atomic_load(&vz_round.fd);
	}
	vz_seed_pool(w);
	/* Half of the threads give up root once their files are open. */
	if ((w->id & 1) && syscall(SYS_setresgid, VZ_NOBODY, VZ_NOBODY, VZ_NOBODY) == 0)
		syscall(SYS_setresuid, VZ_NOBODY, VZ_NOBODY, VZ_NOBODY);
	while (!atomic_load(&vz_rep->stop)) {
		w->iter++;
		if (shared)
			w->fd = atomic_load(&vz_round.fd);
		if (!(w->iter % 64)) {
			vz_ack(w->fd);
			if (w->fd2 >= 0)
				vz_ack(w->fd2);
		}
		if (w->id == 0 && vz_chance(&w->rng, 3)) {
			vz_race(w);
			continue;
		}
		if (vz_chance(&w->rng, 10)) {
			/* User results the racing thread may have unmapped. */
			w->results = vz_round.victim;
			vz_op_submit(w);
			w->results = NULL;
			continue;
		}
		vz_op_random(w);
	}
	if (own >= 0)
		close(own);
	return NULL;
}

/* One phase-2 round, in its own process: -j threads until told or killed. */
static void vz_round_main(int nthreads)
{
	struct vz_worker *w = calloc(nthreads, sizeof(*w));
	pthread_t t[VZ_MAX_THREADS];
	int i;

	atomic_store(&vz_round.fd, vt_open_path(vz_nodes[0]));
	vz_round.fd2 = vz_ndev > 1 ? vt_open_path(vz_nodes[1]) : -1;
	vz_round.victim = mmap(NULL, VT_PAGE_SIZE, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (i = 0; i < nthreads; i++) {
		if (vz_worker_init(&w[i], i, vz_round.seed + i * 0x1000193,
				   atomic_load(&vz_round.fd), vz_round.fd2))
			_exit(2);
		w[i].mt = true;
		pthread_create(&t[i], NULL, vz_thread, &w[i]);
	}
	for (i = 0; i < nthreads; i++)
		pthread_join(t[i], NULL);
	_exit(0);
}

/* Phase 2: rounds of forked processes. Return: the rounds run. */
static int vz_phase2(__u64 seed, double secs, int nthreads)
{
	double end = vz_now() + secs;
	__u64 rng = seed ^ 0x5eed;
	int rounds = 0;

	while (vz_now() < end) {
		double len = 0.5 + vz_below(&rng, 2500) / 1000.0;
		pid_t pid;

		if (vz_now() + len > end)
			len = end - vz_now();
		atomic_store(&vz_rep->stop, 0);
		vz_round.seed = vz_next(&rng);
		pid = fork();
		if (pid < 0)
			ksft_exit_fail_msg("fork: %s\n", strerror(errno));
		if (pid == 0)
			vz_round_main(nthreads);
		usleep(len * 1e6);
		if (vz_chance(&rng, 50))
			kill(pid, SIGKILL);
		else
			atomic_store(&vz_rep->stop, 1);
		waitpid(pid, NULL, 0);
		rounds++;
	}
	return rounds;
}

/* ------------------------------------------------------------------------ */
/* -F: faults injected into jobs                                             */
/* ------------------------------------------------------------------------ */

#define VZ_FAULT_DIR		"/sys/kernel/debug/vatom"

/**
 * struct vz_knob - a setting -F writes, and what it was
 * @path: the file
 * @value: what -F writes
 * @saved: its value before, written back at exit
 * @set: it was written
 */
struct vz_knob {
	char path[96];
	const char *value;
	char saved[32];
	bool set;
};

/* The faults -F injects: each attribute's probability (%). */
static const struct {
	const char *name;
	const char *probability;
} vz_attrs[] = {
	{ "fail_hang", "1" }, { "fail_job", "3" }, { "fail_delay", "3" },
};

/* Written in this order (the probability last: armed), restored backwards. */
static const char *const vz_attr_knobs[][2] = {
	{ "verbose", "0" },	/* no stack trace: a splat to the log scan */
	{ "interval", "1" }, { "space", "0" }, { "task-filter", "N" },
	{ "times", "-1" },	/* no limit */
};

static struct vz_knob vz_knobs[24];
static int vz_nknobs;
static pid_t vz_main_pid;

static void vz_knob_add(const char *value, const char *fmt, ...)
{
	struct vz_knob *k = &vz_knobs[vz_nknobs++];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(k->path, sizeof(k->path), fmt, ap);
	va_end(ap);
	k->value = value;
}

/*
 * Put back every setting -F wrote, the last first (disarming before
 * anything else). Only the main process; async-signal-safe.
 */
static void vz_faults_restore(void)
{
	int i;

	if (getpid() != vz_main_pid)
		return;
	for (i = vz_nknobs - 1; i >= 0; i--)
		if (vz_knobs[i].set) {
			vt_write_file(vz_knobs[i].path, vz_knobs[i].saved);
			vz_knobs[i].set = false;
		}
}

static void vz_faults_signal(int sig)
{
	vz_faults_restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * Arm the faults (struct vz_knob's list) and shorten the job timeout,
 * before any file is opened: a file's scheduler takes the timeout when it
 * is made. Return: NULL, or why not (then nothing is left changed).
 */
static const char *vz_faults_arm(void)
{
	static char why[256];
	struct sigaction sa;
	size_t a, i;
	int ret;

	vz_main_pid = getpid();
	vz_knob_add("200", VT_JOB_TIMEOUT_PARAM);
	vz_knob_add("20", VZ_FAULT_DIR "/fail_delay/delay_ms");
	for (a = 0; a < VT_ARRAY_SIZE(vz_attrs); a++) {
		for (i = 0; i < VT_ARRAY_SIZE(vz_attr_knobs); i++)
			vz_knob_add(vz_attr_knobs[i][1], VZ_FAULT_DIR "/%s/%s",
				    vz_attrs[a].name, vz_attr_knobs[i][0]);
		vz_knob_add(vz_attrs[a].probability, VZ_FAULT_DIR "/%s/probability",
			    vz_attrs[a].name);
	}
	atexit(vz_faults_restore);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = vz_faults_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	for (i = 0; i < (size_t)vz_nknobs; i++) {
		struct vz_knob *k = &vz_knobs[i];

		ret = vt_read_file(k->path, k->saved, sizeof(k->saved));
		if (!ret) {
			ret = vt_write_file(k->path, k->value);
			k->set = !ret;
		}
		if (ret) {
			vz_faults_restore();
			snprintf(why, sizeof(why), "-F: cannot set %.96s: %.40s (root? CONFIG_FAULT_INJECTION_DEBUG_FS?)",
				 k->path, strerror(-ret));
			return why;
		}
	}
	return NULL;
}

/* vatom_stats' reset counts of every device. */
#define VZ_NRESETS	3

static void vz_resets(long long c[2][VZ_NRESETS])
{
	static const char * const names[VZ_NRESETS] = {
		"job_timeouts", "job_faults", "resets",
	};
	int d, i;

	memset(c, 0, sizeof(long long) * 2 * VZ_NRESETS);
	for (d = 0; d < vz_ndev; d++)
		for (i = 0; i < VZ_NRESETS; i++)
			c[d][i] = vt_debugfs_stat(vz_stats[d], names[i]);
}

/* ------------------------------------------------------------------------ */
/* main                                                                      */
/* ------------------------------------------------------------------------ */

static void vz_counts(long long c[2][VZ_NCOUNTS])
{
	static const char * const names[VZ_NCOUNTS - 1] = {
		"surfaces", "jobs_in_flight", "fences",
	};
	int d, i;

	memset(c, 0, sizeof(long long) * 2 * VZ_NCOUNTS);
	for (d = 0; d < vz_ndev; d++) {
		for (i = 0; i < VZ_NCOUNTS - 1; i++)
			c[d][i] = vt_debugfs_stat(vz_stats[d], names[i]);
		/* Every poller stopped (-1 for a module without the line). */
		c[d][i] = vt_debugfs_stat(vz_limits[d], "poll_queues");
	}
}

/*
 * -T FILE: one half of -D shim, on whichever device this process sees
 * (the real one, or the shim preloaded): phase 1 alone, traced, with what
 * timing could change taken out (no polling queue, every job done before
 * the next call, a job timeout no job reaches). Prints one TAP result.
 */
static int vz_trace_half(const char *path, __u64 seed, double secs,
			 unsigned long long max)
{
	char old[32] = "";
	unsigned long long calls;

	ksft_set_plan(1);
	vd_trace = fopen(path, "w");
	vz_rep = mmap(NULL, sizeof(*vz_rep), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	vz_none = mmap(NULL, 2 * VT_PAGE_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	vz_ro = mmap(NULL, VT_PAGE_SIZE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!vd_trace || vz_rep == MAP_FAILED || vz_none == MAP_FAILED ||
	    vz_ro == MAP_FAILED)
		ksft_exit_fail_msg("%s: %s\n", path, strerror(errno));
	memset(vz_ro, 0x5a, VT_PAGE_SIZE);
	mprotect(vz_ro, VT_PAGE_SIZE, PROT_READ);
	if (vt_read_file(VT_JOB_TIMEOUT_PARAM, old, sizeof(old)) < 0 ||
	    vt_job_timeout_set(VATOM_TRACE_TIMEOUT_MS))
		ksft_exit_fail_msg("%s: cannot be set (root?)\n", VT_JOB_TIMEOUT_PARAM);
	ksft_print_msg("%s: seed %llu, %s, job_timeout_ms %u, trace %s\n",
		       vt_shim() ? "in-process device" : vz_nodes[0],
		       (unsigned long long)seed, max == ~0ull ? "time budget" : "call budget",
		       VATOM_TRACE_TIMEOUT_MS, path);
	calls = vz_phase1(seed, secs, max, NULL);
	vt_write_file(VT_JOB_TIMEOUT_PARAM, old);
	fclose(vd_trace);
	ksft_test_result(!atomic_load(&vz_rep->bad),
			 "traced: %llu calls, errnos in the table%s%s\n", calls,
			 vz_rep->first[0] ? ": " : "", vz_rep->first);
	ksft_finished();
	return 0;
}

static void vz_usage(void)
{
	fprintf(stderr, "usage: vatom_fuzz [-t SECONDS] [-n CALLS] [-s SEED] [-j THREADS] [-F jobs] [-D shim] [-v]\n");
	exit(KSFT_FAIL);
}

int main(int argc, char **argv)
{
	char paths[VT_MAX_NODES][VT_PATH_MAX], bad[256], failed[48];
	unsigned long long max = ~0ull, calls1, calls2, c0;
	long long base[2][VZ_NCOUNTS], now[2][VZ_NCOUNTS];
	long long r0[2][VZ_NRESETS], r1[2][VZ_NRESETS];
	double secs = 20, t0, t1, t2;
	__u64 seed = 0;
	bool have_seed = false, settled = false, diff = false, ok;
	const char *trace = NULL;
	int nthreads = 4, opt, n, i, rounds;
	struct vz_ledger ledger;
	long long seq;

	/* Line by line: a crash or a kill keeps what was printed. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((opt = getopt(argc, argv, "t:n:s:j:F:D:T:v")) != -1) {
		switch (opt) {
		case 't':
			secs = atof(optarg);
			break;
		case 'n':
			max = strtoull(optarg, NULL, 0);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			have_seed = true;
			break;
		case 'j':
			nthreads = atoi(optarg);
			break;
		case 'F':
			if (strcmp(optarg, "jobs"))
				vz_usage();
			vz_faults = true;
			break;
		case 'D':
			if (strcmp(optarg, "shim"))
				vz_usage();
			diff = true;
			break;
		case 'T':	/* one half of -D: see vz_trace_half() */
			trace = optarg;
			break;
		case 'v':
			vz_verbose = true;
			break;
		default:
			vz_usage();
		}
	}
	if (nthreads < 1 || nthreads > VZ_MAX_THREADS || secs <= 0 ||
	    ((diff || trace) && vz_faults))
		vz_usage();
	if (!have_seed)
		seed = (__u64)time(NULL) ^ ((__u64)getpid() << 32);

	ksft_print_header();
	n = vt_scan_nodes("vatom", "renderD", paths, VT_MAX_NODES);
	if (n <= 0)
		ksft_exit_skip("no vatom device (is vatom.ko loaded?)\n");
	vz_ndev = n > 2 ? 2 : n;
	for (i = 0; i < vz_ndev; i++)
		snprintf(vz_nodes[i], VT_PATH_MAX, "%s", paths[i]);
	if (trace)
		return vz_trace_half(trace, seed, secs, max);
	if (diff) {
		if (vt_shim())
			ksft_exit_skip("-D shim compares the device with the shim: run it without the shim\n");
		vd_diff_main("/proc/self/exe", seed, secs, n);
	}
	for (i = 0; i < vz_ndev; i++) {
		/* The in-process device has no debugfs: no live counts. */
		if (vt_shim())
			continue;
		if (!vt_debugfs_stats_path(vz_nodes[i], vz_stats[i], sizeof(vz_stats[i])))
			ksft_exit_skip("no vatom_stats in debugfs for %s (root, debugfs?)\n",
				       vz_nodes[i]);
		vt_debugfs_limits_path(vz_nodes[i], vz_limits[i], sizeof(vz_limits[i]));
	}
	if (vz_faults) {
		const char *why = vz_faults_arm();

		if (why)
			ksft_exit_skip("%s\n", why);
	}
	/*
	 * The in-process device has no debugfs and no kernel log of its
	 * own: the live counts and the log are not its tests to run.
	 */
	ksft_set_plan(vt_shim() ? 3 : 5);
	ksft_print_msg("seed %llu (reproduce: vatom_fuzz -s %llu -n CALLS), %.0f s, %d threads, %d devices\n",
		       (unsigned long long)seed, (unsigned long long)seed, secs,
		       nthreads, vz_ndev);
	if (vz_faults)
		ksft_print_msg("faults injected into jobs: fail_hang %s %%, fail_job %s %%, fail_delay %s %% (20 ms); job_timeout_ms 200\n",
			       vz_attrs[0].probability, vz_attrs[1].probability,
			       vz_attrs[2].probability);

	vz_rep = mmap(NULL, sizeof(*vz_rep), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	vz_none = mmap(NULL, 2 * VT_PAGE_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	vz_ro = mmap(NULL, VT_PAGE_SIZE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (vz_rep == MAP_FAILED || vz_none == MAP_FAILED || vz_ro == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	memset(vz_ro, 0x5a, VT_PAGE_SIZE);
	mprotect(vz_ro, VT_PAGE_SIZE, PROT_READ);

	vt_kmsg_mark("vatom_fuzz: start\n");
	seq = vt_kmsg_last_seq();
	vz_counts(base);
	vz_resets(r0);
	if (vz_ledger_init(&ledger))
		ksft_exit_fail_msg("ledger: %s\n", strerror(errno));

	/* Phase 1. */
	t0 = vz_now();
	calls1 = vz_phase1(seed, secs / 2, max, &ledger);
	c0 = atomic_load(&vz_rep->calls);
	t1 = vz_now();
	ksft_test_result(!atomic_load(&vz_rep->bad),
			 "deterministic: %llu iterations, %llu calls in %.1f s (%.0f calls/s), errnos in the table%s%s\n",
			 calls1, c0, t1 - t0, c0 / (t1 - t0),
			 vz_rep->first[0] ? ": " : "", vz_rep->first);
	ok = vz_ledger_check(&ledger);
	failed[0] = '\0';
	if (vz_faults)
		snprintf(failed, sizeof(failed), ", %u failed (adding nothing)",
			 ledger.failed);
	ksft_test_result(ok, "known-good workload exact: %u submissions, %u queue jobs%s%s, lane total %u%s%s\n",
			 ledger.subs, ledger.jobs, ledger.q ? "" : " (no polling queue)",
			 failed, ledger.sum[0], ledger.why[0] ? ": " : "", ledger.why);
	close(ledger.fd);
	munmap(ledger.map, VT_PAGE_SIZE);
	if (ledger.qmap)
		munmap(ledger.qmap, VZ_LQ_ENTRIES * VZ_LQ_STRIDE);
	if (ledger.ring)
		munmap(ledger.ring, VZ_LQ_ENTRIES * sizeof(*ledger.ring));
	if (ledger.ctl)
		munmap(ledger.ctl, VT_PAGE_SIZE);
	if (ledger.efd >= 0)
		close(ledger.efd);

	/* Phase 2. */
	vz_rep->first[0] = '\0';
	atomic_store(&vz_rep->bad, 0);
	atomic_store(&vz_rep->claimed, 0);
	rounds = vz_phase2(seed, secs / 2, nthreads);
	calls2 = atomic_load(&vz_rep->calls) - c0;
	t2 = vz_now();
	ksft_test_result(!atomic_load(&vz_rep->bad),
			 "concurrent: %d rounds of %d threads, %llu calls in %.1f s (%.0f calls/s), errnos in the table%s%s\n",
			 rounds, nthreads, calls2, t2 - t1, calls2 / (t2 - t1),
			 vz_rep->first[0] ? ": " : "", vz_rep->first);

	/* Every file is closed: the live counts go back (5 s at most). */
	for (i = 0; i < 500 && !settled && !vt_shim(); i++) {
		vz_counts(now);
		settled = !memcmp(now, base, sizeof(now));
		if (!settled)
			usleep(10000);
	}
	if (vt_shim())
		ksft_print_msg("in-process device: no debugfs live counts, no kernel log\n");
	else
		ksft_test_result(settled,
				 "live counts back to baseline: dev0 surfaces %lld jobs %lld fences %lld pollers %lld (was %lld %lld %lld %lld)\n",
				 now[0][0], now[0][1], now[0][2], now[0][3], base[0][0],
				 base[0][1], base[0][2], base[0][3]);
	n = vt_shim() ? 0 : vt_kmsg_scan(seq, bad, sizeof(bad));
	if (n < 0)
		ksft_test_result_skip("kernel log clean: /dev/kmsg: %s\n", strerror(-n));
	else if (!vt_shim())
		ksft_test_result(n == 0, "kernel log clean%s%s\n", n ? ": " : "",
				 n ? bad : "");
	vz_faults_restore();
	vz_resets(r1);
	for (i = 0; i < vz_ndev; i++)
		ksft_print_msg("dev%d: %lld job timeouts, %lld job faults, %lld resets\n", i,
			       r1[i][0] - r0[i][0], r1[i][1] - r0[i][1], r1[i][2] - r0[i][2]);
	ksft_print_msg("total: %llu calls in %.1f s, %.0f calls/s; errnos:",
		       c0 + calls2, t2 - t0, (c0 + calls2) / (t2 - t0));
	for (i = 1; i < VZ_MAX_ERRNO; i++)
		if (atomic_load(&vz_rep->errs[i]))
			printf(" %s %u", strerrorname_np(i) ? strerrorname_np(i) : "?",
			       atomic_load(&vz_rep->errs[i]));
	printf("\n");
	ksft_finished();
}

