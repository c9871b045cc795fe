// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Benchmark of the device path, run inside the test VM against the loaded
 * vatom.ko (scripts/vm-run.sh -o DIR -- build/bench/vm_bench -o /out):
 * the same work through DRM_IOCTL_VATOM_SUBMIT and as a native loop of CPU
 * atomics on the same mmap'ed surface memory, in one run, as ratios.
 *
 *   P1  batch throughput: DWORD_ATOMIC.ADD UD, exec size 16, 1 Mi lanes in
 *       one submission, vs native lock xadd (old values stored), lanes/s
 *   P2  latency: one synchronous 1-packet submission vs a null ioctl
 *       (GET_PARAM)
 *   P3  soft-float f32 add through the device vs a hardware-float CAS loop
 *   Q   user-mode queues: a 1-job round trip (kick mode: tail, KICK,
 *       completed; polling mode: tail, completed) vs the null ioctl;
 *       small jobs/s of both modes vs sync and async SUBMIT
 *   A   asynchronous jobs/s: 1-packet jobs with a fence per job and per
 *       32; larger jobs from two files at once vs one
 *   M   many busy queues: aggregate jobs/s of 1, 2, 4, 8 producer
 *       threads, each with its own queue, kick mode vs polling mode
 *   P4  scaling: two submitting threads (own file, own surface, pinned to
 *       vCPU 0 and 1) vs one
 *   sweep: element operations/s against packets per submission, for
 *       vISA int add, PTX f32 add, PTX cas and NoC increment
 *   T   tracing: P1 and 1-packet submissions with the vatom tracepoints
 *       enabled vs disabled, alternating
 *
 * Every figure is the median of several repetitions with min-max; device
 * and native runs alternate. Before P1 and P3 are timed, one device run and
 * one native run from the same memory must leave the same memory and
 * return the same values.
 *
 * Writes DIR/vm.md (the VM section of bench/results.md) and DIR/sweep.dat
 * (the plot's data); prints the same tables on stdout.
 *
 * Raw ioctls, no libdrm calls: a static binary for the minimal guest.
 *
 * This file has the output, the device's helpers and main(); it includes
 * the rest, one translation unit: the workloads (vm_bench_work.c), T and
 * P2 (vm_bench_latency.c), Q (vm_bench_queue.c, vm_bench_queue_rows.c),
 * M, P4 and A (vm_bench_scaling.c) and the sweep (vm_bench_sweep.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <xmmintrin.h>

#include "drm/vatom_drm.h"
#include "vm_uring.h"
#include "vt_host.h"

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;

#define SLOT		1
#define BUF_BYTES	(64 * 1024)	/* surface: as the host engine bench */
#define LANES		16
#define MAX_REPS	64
#define MAX_SAMPLES	(3 * MAX_REPS)
#define SEQ		__ATOMIC_SEQ_CST
#define MXCSR_FTZ_DAZ	0x8040
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Median, minimum and maximum of a measurement's samples. */
struct summary {
	double med, min, max;
};

static int reps = 7;
static double min_time = 0.1;	/* seconds per sweep measurement */
static FILE *md;		/* DIR/vm.md */
/*
 * -c: the guest counts instructions (QEMU -icount shift=0: its clock
 * advances 1 ns per instruction), so a per-call cost is a number of
 * instructions, the same from run to run at any host load.
 */
static bool counted;
static u64 max_stream;

/* ---- output: every table goes to stdout and to vm.md ---- */

static void out(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (md) {
		va_start(ap, fmt);
		vfprintf(md, fmt, ap);
		va_end(ap);
	}
	fflush(stdout);
}

/* The unit of a per-call cost column: microseconds, or instructions. */
static const char *cost_unit(void)
{
	return counted ? "instructions" : "us";
}

/* A median of @s seconds per call in cost_unit()'s unit. */
static double cost_value(struct summary s)
{
	return s.med * (counted ? 1e9 : 1e6);
}

/*
 * A per-call cost of @s seconds as its column shows it: "median
 * (min-max)" for a summary. Four buffers in turn: a row uses at most two.
 */
static const char *cost(struct summary s)
{
	static char buf[4][64];
	static int next;
	char *b = buf[next++ % 4];

	if (counted)
		snprintf(b, sizeof(buf[0]), "%.0f (%.0f-%.0f)", s.med * 1e9,
			 s.min * 1e9, s.max * 1e9);
	else
		snprintf(b, sizeof(buf[0]), "%.2f (%.2f-%.2f)", s.med * 1e6,
			 s.min * 1e6, s.max * 1e6);
	return b;
}

static void die(const char *what, int err)
{
	fprintf(stderr, "vm_bench: %s: %s\n", what, strerror(err));
	exit(1);
}

static u64 rng_state = 0x9e3779b97f4a7c15ull;

static u64 rng(void)
{
	rng_state = vt_xorshift64(rng_state);
	return rng_state;
}

static void *xmalloc(size_t n)
{
	void *p = aligned_alloc(64, (n + 63) & ~(size_t)63);

	if (!p)
		die("malloc", ENOMEM);
	memset(p, 0, n);
	return p;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of @v's @n values, which it sorts. */
static double median_sort(double *v, int n)
{
	qsort(v, n, sizeof(double), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* @n is at most MAX_SAMPLES: P2 takes three blocks per repetition. */
static struct summary summarize(const double *v, int n)
{
	double t[MAX_SAMPLES];
	struct summary s;

	memcpy(t, v, sizeof(double) * n);
	s.med = median_sort(t, n);
	s.min = t[0];
	s.max = t[n - 1];
	return s;
}

/* ---- the device ---- */

static int xioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, req, arg);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret == -1 ? -errno : 0;
}

static int open_device(void)
{
	char path[64];
	int i, fd;

	for (i = 128; i < 192; i++) {
		struct drm_vatom_get_param gp = {
			.param = DRM_VATOM_PARAM_UAPI_VERSION,
		};

		snprintf(path, sizeof(path), "/dev/dri/renderD%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		/* vgem is loaded too: the vatom node answers GET_PARAM. */
		if (!xioctl(fd, DRM_IOCTL_VATOM_GET_PARAM, &gp))
			return fd;
		close(fd);
	}
	die("no vatom render node", ENODEV);
	return -1;
}

static u64 get_param(int fd, u32 param)
{
	struct drm_vatom_get_param gp = { .param = param };
	int ret = xioctl(fd, DRM_IOCTL_VATOM_GET_PARAM, &gp);

	if (ret)
		die("GET_PARAM", -ret);
	return gp.value;
}

/* Pin the calling thread to vCPU @cpu. */
static void pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* Let the calling thread run on every online vCPU again. */
static void unpin_cpu(void)
{
	long c, n = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;

	CPU_ZERO(&set);
	for (c = 0; c < n && c < CPU_SETSIZE; c++)
		CPU_SET(c, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

struct surface {
	u32 handle;
	u64 size;
	u8 *map;
};

static void surface_map(int fd, struct surface *s)
{
	struct drm_vatom_surface_mmap_offset mo = { .handle = s->handle };
	int ret = xioctl(fd, DRM_IOCTL_VATOM_SURFACE_MMAP_OFFSET, &mo);

	if (ret)
		die("SURFACE_MMAP_OFFSET", -ret);
	s->map = mmap(NULL, s->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		      mo.offset);
	if (s->map == MAP_FAILED)
		die("mmap", errno);
}

static struct surface buffer_create(int fd, u64 size)
{
	struct drm_vatom_surface_create sc = {
		.kind = DRM_VATOM_SURFACE_BUFFER, .size = size,
	};
	struct surface s;
	int ret = xioctl(fd, DRM_IOCTL_VATOM_SURFACE_CREATE, &sc);

	if (ret)
		die("SURFACE_CREATE buffer", -ret);
	s.handle = sc.handle;
	s.size = sc.size;
	surface_map(fd, &s);
	return s;
}

/* A 2 x 1 Blackhole grid of Tensix tiles with BUF_BYTES of L1 each. */
static struct surface grid_create(int fd, u8 **l1_target)
{
	static const u8 types[2] = { DRM_VATOM_TILE_TENSIX,
				     DRM_VATOM_TILE_TENSIX };
	struct drm_vatom_tile_grid_desc gd = {
		.profile = DRM_VATOM_NOC_PROFILE_BLACKHOLE,
		.width = 2, .height = 1,
		.tile_types = (uintptr_t)types,
	};
	struct drm_vatom_surface_create sc = {
		.kind = DRM_VATOM_SURFACE_TILE_GRID,
		.desc = (uintptr_t)&gd, .desc_size = sizeof(gd),
	};
	struct surface s;
	int ret;

	gd.l1_size[DRM_VATOM_TILE_TENSIX] = BUF_BYTES;
	ret = xioctl(fd, DRM_IOCTL_VATOM_SURFACE_CREATE, &sc);
	if (ret)
		die("SURFACE_CREATE tile grid", -ret);
	s.handle = sc.handle;
	s.size = sc.size;
	surface_map(fd, &s);
	/* docs/semantics-noc.md: counters (512 bytes a tile), then the L1s */
	*l1_target = s.map + 2 * 512 + BUF_BYTES;
	return s;
}

/*
 * One synchronous submission; results to user memory, or with @rhandle to
 * that result surface at offset @roff (no bounce copies).
 */
static int submit_to(int fd, const void *stream, u32 size, u32 handle,
		     void *results, u64 results_size, u32 rhandle, u64 roff)
{
	struct drm_vatom_binding bind = { .slot = SLOT, .handle = handle };
	struct drm_vatom_submit sub = {
		.stream = (uintptr_t)stream, .stream_size = size,
		.bindings = (uintptr_t)&bind, .binding_count = 1,
		.results = rhandle ? 0 : (uintptr_t)results,
		.results_size = results_size,
		.result_handle = rhandle, .result_offset = rhandle ? roff : 0,
	};
	int ret = xioctl(fd, DRM_IOCTL_VATOM_SUBMIT, &sub);

	if (ret)
		fprintf(stderr, "SUBMIT: %s (packet %u, reason %u)\n",
			strerror(-ret), sub.error_index, sub.error_reason);
	return ret;
}

static int submit(int fd, const void *stream, u32 size, u32 handle,
		  void *results, u64 results_size)
{
	return submit_to(fd, stream, size, handle, results, results_size, 0, 0);
}

/* The rows, one file per section, in the order they were written. */
#include "vm_bench_work.c"
#include "vm_bench_latency.c"
#include "vm_bench_queue.c"
#include "vm_bench_queue_rows.c"
#include "vm_bench_scaling.c"
#include "vm_bench_sweep.c"

int main(int argc, char **argv)
{
	const char *dir = NULL, *sections = "1234qamwt", *loop = NULL;
	char path[512], when[64], cmdline[512], clksrc[64];
	struct ratio_row row;
	struct utsname u;
	time_t now = time(NULL);
	int fd, opt;
	bool ok = true;

	while ((opt = getopt(argc, argv, "co:r:t:s:l:")) != -1) {
		switch (opt) {
		case 'c':
			counted = true;
			break;
		case 'o':
			dir = optarg;
			break;
		case 'r':
			reps = atoi(optarg);
			if (reps < 1 || reps > MAX_REPS)
				usage();
			break;
		case 't':
			min_time = atof(optarg);
			break;
		case 's':
			sections = optarg;
			break;
		case 'l':
			loop = optarg;
			break;
		default:
			usage();
		}
	}
	if (reps < 1 || reps > MAX_REPS || min_time <= 0)
		usage();
	if (dir) {
		snprintf(path, sizeof(path), "%s/vm.md", dir);
		md = fopen(path, "w");
		if (!md)
			die(path, errno);
	}

	fd = open_device();
	max_stream = get_param(fd, DRM_VATOM_PARAM_MAX_STREAM_SIZE);
	if (loop) {
		if (loop_row(fd, loop))
			usage();
		return 0;
	}
	read_line("/proc/cmdline", cmdline, sizeof(cmdline));
	read_line("/sys/devices/system/clocksource/clocksource0/"
		  "current_clocksource", clksrc, sizeof(clksrc));
	uname(&u);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", gmtime(&now));
	if (vatom_shim_version)
		out("## The in-process device (libvatom-shim.so), on the host\n\n"
		    "`make -C bench shim`: `build/shim/bench/vm_bench`, linked "
		    "dynamically, with libvatom-shim.so %s preloaded, on the host "
		    "(%ld CPUs, kernel %s, no VM), %s; %d repetitions, device and "
		    "native runs alternating; median (min-max). The device is the "
		    "shim: the engine vatom.ko runs, in the calling thread, no "
		    "system call a job. A null ioctl of the host's own kernel, "
		    "for scale: %.3f us.\n\n",
		    vatom_shim_version, sysconf(_SC_NPROCESSORS_ONLN), u.release,
		    when, reps, host_null_ioctl_us());
	else
	out("## Device path, inside the VM\n\n"
	    "`build/bench/vm_bench` in the test VM (QEMU TCG, %ld vCPUs, "
	    "guest kernel %s) against the loaded vatom.ko, %s; %d repetitions, "
	    "device and native runs alternating; median (min-max). "
	    "**TCG emulates the guest CPU: absolute numbers are not hardware "
	    "figures, only the ratios (both sides emulated alike) mean "
	    "something.** Native: the same element operations as a userspace "
	    "loop of CPU atomics in the same VM, on the same mmap'ed surface "
	    "memory, reading its addresses and operands from the same stream "
	    "bytes the device is given.\n\n"
	    "Guest kernel command line: `%s`; clocksource %s.\n",
	    sysconf(_SC_NPROCESSORS_ONLN), u.release, when, reps, cmdline,
	    clksrc);
	if (counted)
		out("\n**Counted mode** (`make bench-icount`): QEMU counts "
		    "guest instructions (`-icount shift=0,sleep=off`), the "
		    "guest clock advancing 1 ns per instruction whatever the "
		    "host does, so every cost below is a number of guest "
		    "instructions, the same from run to run; with two vCPUs, "
		    "the instructions of both (QEMU runs them in turn).\n");

	if (strchr(sections, '1')) {
		out("\n### P1: batch throughput\n\n"
		    "1 Mi lanes (65536 packets of 16 lanes) in one synchronous "
		    "submission, 64 KiB surface, lane offsets walking it word "
		    "by word; device time is the whole SUBMIT ioctl (stream "
		    "copy-in, validation, execution, results copy-out).\n\n"
		    "| device | native | device M lanes/s | native M lanes/s | "
		    "ratio (paired) | target | identical |\n"
		    "|---|---|---|---|---|---|---|\n");
		ok &= compare_run(fd, K_INT, 65536, true, &row);
		print_ratio_row("vISA DWORD_ATOMIC.ADD UD SIMD16, Dst to a "
				"result surface",
				"lock xadd, old values stored", &row, ">= 0.8",
				row.ratio.med >= 0.8);
		printf("P1 %.3f\n", row.ratio.med);
		ok &= compare_run(fd, K_INT, 65536, false, &row);
		print_ratio_row("vISA DWORD_ATOMIC.ADD UD SIMD16, Dst to user "
				"memory (bounce buffer)",
				"lock xadd, old values stored", &row, "", false);
		ok &= compare_run(fd, K_INT_NODST, 65536, false, &row);
		print_ratio_row(kind_name(K_INT_NODST), "lock add", &row, "",
				false);
	}
	if (strchr(sections, '2'))
		p2_latency(fd);
	if (strchr(sections, '3')) {
		out("\n### P3: soft-float f32 add\n\n"
		    "1 Mi f32 adds (operands and memory as in the host engine "
		    "bench) in submissions of at most %llu stream bytes, vs a "
		    "hardware-float CAS loop per element (MXCSR FTZ|DAZ for the "
		    "flushing forms). Under TCG the guest's SSE float add is "
		    "itself emulated in software, which makes the native side "
		    "slower than on hardware: the host engine bench is the "
		    "hardware figure.\n\n"
		    "| device | native | device M adds/s | native M adds/s | "
		    "ratio (paired) | target | identical |\n"
		    "|---|---|---|---|---|---|---|\n",
		    (unsigned long long)max_stream);
		ok &= compare_run(fd, K_F32_V4, 1 << 18, true, &row);
		print_ratio_row(kind_name(K_F32_V4), "float add + cmpxchg loop",
				&row, ">= 0.5", row.ratio.med >= 0.5);
		printf("P3 %.3f\n", row.ratio.med);
		ok &= compare_run(fd, K_F32, 1 << 20, true, &row);
		print_ratio_row(kind_name(K_F32), "float add + cmpxchg loop",
				&row, "", false);
		ok &= compare_run(fd, K_NOC_ACC, 1 << 18, false, &row);
		print_ratio_row(kind_name(K_NOC_ACC), "float add + cmpxchg loop",
				&row, "", false);
	}
	if (strchr(sections, '4'))
		p4_scaling();
	if (strchr(sections, 'q'))
		queue_bench(fd);
	if (strchr(sections, 'a'))
		async_bench(fd);
	if (strchr(sections, 'm'))
		mq_bench(fd);
	if (strchr(sections, 't'))
		trace_overhead(fd);
	if (strchr(sections, 'w')) {
		if (dir)
			snprintf(path, sizeof(path), "%s/sweep.dat", dir);
		sweep(fd, dir ? path : NULL);
	}
	if (!ok)
		out("\n**Device and native results differed** (see "
		    "\"identical\").\n");
	if (md)
		fclose(md);
	close(fd);
	return ok ? 0 : 1;
}
