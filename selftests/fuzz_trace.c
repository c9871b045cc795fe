// SPDX-License-Identifier: GPL-2.0
/*
 * vatom_fuzz's differential mode (-D shim; fuzz_trace.h): the trace one
 * half writes, and the run of both halves with the comparison.
 *
 * A line of the trace is what the device answered, never what the
 * program asked: the return (0 or -errno) and the bytes of the argument
 * the call changed, with descriptor numbers replaced by whether one came
 * back (the in-process device holds a memfd per surface, so numbers
 * differ). Pointers are what the program passed, so they are never in
 * a line, and the two halves may map their memory anywhere.
 *
 * Copyright (C) 2026 The vatom developers
 */
#define _GNU_SOURCE
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <xf86drm.h>
#include <drm/vatom_drm.h>

#include "kselftest.h"

#include "common.h"
#include "fuzz_trace.h"

FILE *vd_trace;

/* The largest argument traced in full (the raw ioctls' go up to 160). */
#define VD_MAX_ARG	256

__u64 vd_hash(const void *p, size_t n)
{
	const __u8 *b = p;
	__u64 h = 0xcbf29ce484222325ull;

	while (n--) {
		h ^= *b++;
		h *= 0x100000001b3ull;
	}
	return h;
}

void vd_printf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(vd_trace, fmt, ap);
	va_end(ap);
}

/* Read @n bytes at @p, which may point anywhere: the count read. */
static ssize_t vd_read(const void *p, void *buf, size_t n)
{
	struct iovec local = { .iov_base = buf, .iov_len = n };
	struct iovec remote = { .iov_base = (void *)p, .iov_len = n };

	return n ? process_vm_readv(getpid(), &local, 1, &remote, 1, 0) : 0;
}

/**
 * struct vd_own - a field whose value is the device's own choice
 * @req: the request
 * @offset: where the field is in its argument; @size its bytes
 * @name: what the trace says instead of its value
 *
 * Descriptor numbers (the in-process device holds a memfd per surface)
 * and fake mmap offsets (each device's own offset manager) differ between
 * two devices that behave the same: the trace records that one came back.
 */
struct vd_own {
	unsigned long req;
	size_t offset, size;
	const char *name;
};

static const struct vd_own vd_own[] = {
	{ DRM_IOCTL_PRIME_HANDLE_TO_FD, offsetof(struct drm_prime_handle, fd),
	  sizeof(int), "fd" },
	{ DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, offsetof(struct drm_syncobj_handle, fd),
	  sizeof(int), "fd" },
	{ DRM_IOCTL_VATOM_SURFACE_MMAP_OFFSET,
	  offsetof(struct drm_vatom_surface_mmap_offset, offset), sizeof(__u64),
	  "offset" },
};

/**
 * struct vd_param_diff - a parameter GET_PARAM answers differently on the
 * shim by design, whose value the trace leaves out
 * @param: the parameter
 * @name: what the trace says instead
 *
 * docs/shim.md, "Where it differs": the shim's charges are its own
 * allocations' sizes.
 */
struct vd_param_diff {
	__u32 param;
	const char *name;
};

static const struct vd_param_diff vd_param_diffs[] = {
	{ DRM_VATOM_PARAM_FILE_MEM_CHARGED, "charged" },
};

/* Whether @req is ioctl @like's number, whatever its size and direction. */
static bool vd_same_nr(unsigned long req, unsigned long like)
{
	return _IOC_TYPE(req) == _IOC_TYPE(like) && _IOC_NR(req) == _IOC_NR(like);
}

/* GET_PARAM's value, unless it differs by design. */
static void vd_mask_param(__u8 *after, size_t size)
{
	struct drm_vatom_get_param p = { 0 };
	size_t n = size < sizeof(p) ? size : sizeof(p), i;

	/* A raw ioctl's argument may end inside the value. */
	if (n <= offsetof(struct drm_vatom_get_param, value))
		return;
	memcpy(&p, after, n);
	vd_printf(" param %u[%u]", p.param, p.index);
	for (i = 0; i < VT_ARRAY_SIZE(vd_param_diffs); i++) {
		if (vd_param_diffs[i].param != p.param)
			continue;
		vd_printf(" %s", vd_param_diffs[i].name);
		p.value = 0;
		memcpy(after, &p, n);
	}
}

/* The device's own values in @after put back to @before's, named. */
static void vd_mask_own(unsigned long req, const __u8 *before, __u8 *after,
			size_t size)
{
	size_t i;

	if (vd_same_nr(req, DRM_IOCTL_VATOM_GET_PARAM))
		vd_mask_param(after, size);

	for (i = 0; i < VT_ARRAY_SIZE(vd_own); i++) {
		const struct vd_own *o = &vd_own[i];
		/* A raw ioctl's argument may end inside the field. */
		size_t n = o->offset >= size ? 0 :
			   o->offset + o->size > size ? size - o->offset : o->size;

		/* By number: a raw ioctl of any size or direction too */
		if (!vd_same_nr(req, o->req) || !n ||
		    !memcmp(before + o->offset, after + o->offset, n))
			continue;
		vd_printf(" %s", o->name);
		memcpy(after + o->offset, before + o->offset, n);
	}
}

int vd_ioctl(int fd, unsigned long req, void *arg, const char *what)
{
	__u8 before[VD_MAX_ARG], after[VD_MAX_ARG];
	size_t size = _IOC_SIZE(req), i, j;
	ssize_t nb, na;
	int ret, e;

	if (size > VD_MAX_ARG)
		size = VD_MAX_ARG;
	nb = vd_read(arg, before, size);
	ret = ioctl(fd, req, arg);
	e = errno;
	na = vd_read(arg, after, size);
	vd_printf("%s %#lx %d", what, req, ret < 0 ? -e : ret);
	if (nb != (ssize_t)size || na != (ssize_t)size) {
		vd_printf(" unreadable\n");
		errno = e;
		return ret;
	}
	vd_mask_own(req, before, after, size);
	/* The changed runs: @offset:bytes. */
	for (i = 0; i < size; i = j) {
		if (before[i] == after[i]) {
			j = i + 1;
			continue;
		}
		vd_printf(" @%zu:", i);
		for (j = i; j < size && before[j] != after[j]; j++)
			vd_printf("%02x", after[j]);
	}
	vd_printf("\n");
	errno = e;
	return ret;
}

/* ------------------------------------------------------------------------ */
/* Both halves                                                               */
/* ------------------------------------------------------------------------ */

/*
 * The in-process device: $VATOM_SHIM_LIB, else libvatom-shim.so in the
 * directory above this program's (build/shim/selftests/ and build/shim/).
 */
static const char *vd_shim_lib(const char *self, char *buf, size_t len)
{
	const char *env = getenv("VATOM_SHIM_LIB");
	char exe[PATH_MAX];

	if (env && *env)
		return access(env, R_OK) ? NULL : env;
	if (!realpath(self, exe))
		return NULL;
	snprintf(buf, len, "%s/../libvatom-shim.so", dirname(exe));
	return access(buf, R_OK) ? NULL : buf;
}

/*
 * Run one half: @self -T @trace -s @seed -t @secs -n @calls (the device's
 * half has a time budget, the shim's makes as many calls), its output to
 * @out. @lib preloaded, or nothing. Return: its exit status, or -1.
 */
static int vd_half(const char *self, const char *lib, int ndev,
		   const char *trace, const char *out, __u64 seed,
		   const char *secs, const char *calls)
{
	char s[24], nd[8];
	int status;
	pid_t pid;

	snprintf(s, sizeof(s), "%llu", (unsigned long long)seed);
	snprintf(nd, sizeof(nd), "%d", ndev);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		FILE *o = freopen(out, "w", stdout);

		if (!o || dup2(STDOUT_FILENO, STDERR_FILENO) < 0)
			_exit(127);
		if (lib) {
			setenv("LD_PRELOAD", lib, 1);
			setenv("VATOM_SHIM_DEVICES", nd, 1);
		} else {
			unsetenv("LD_PRELOAD");
		}
		execl(self, self, "-T", trace, "-s", s, "-t", secs, "-n", calls,
		      (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* A half's output, as TAP comments. */
static void vd_show(const char *who, const char *out)
{
	char line[512];
	FILE *f = fopen(out, "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		ksft_print_msg("%s: %s", who, line);
	fclose(f);
}

/* The calls a trace's half made: its "end N" line. */
static unsigned long long vd_calls(const char *trace)
{
	unsigned long long n = 0;
	char line[4096];
	FILE *f = fopen(trace, "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "end %llu", &n) == 1)
			break;
	fclose(f);
	return n;
}

/**
 * struct vd_tally - what a comparison went through
 * @lines: trace lines compared
 * @submits: SUBMITs, of which @executed returned 0
 * @kicks: queue KICKs that returned 0 (their jobs ran)
 * @surfaces: surface digests compared
 * @fences: fence statuses compared
 */
struct vd_tally {
	unsigned long long lines, submits, executed, kicks, surfaces, fences;
};

static void vd_count(struct vd_tally *t, const char *line)
{
	const char *p;
	char op[32];
	unsigned long req;
	int ret;

	t->lines++;
	if (!strncmp(line, "surf ", 5))
		t->surfaces++;
	else if (!strncmp(line, "sync", 4))
		for (p = line + 4; (p = strchr(p, ' ')); p++)
			t->fences++;
	if (sscanf(line, "%31s %lx %d", op, &req, &ret) != 3)
		return;
	if (req == DRM_IOCTL_VATOM_SUBMIT) {
		t->submits++;
		t->executed += !ret;
	} else if (req == DRM_IOCTL_VATOM_QUEUE_KICK && !ret) {
		t->kicks++;
	}
}

/* The lines printed before a difference */
#define VD_CONTEXT	12

/* Compare two traces: true if equal; the first difference printed. */
static bool vd_compare(const char *a, const char *b, struct vd_tally *t)
{
	static char prev[VD_CONTEXT][4096];
	char la[4096], lb[4096];
	FILE *fa = fopen(a, "r"), *fb = fopen(b, "r");
	bool same = fa && fb;
	unsigned long long n = 0;
	int i;

	while (same) {
		char *ra = fgets(la, sizeof(la), fa), *rb = fgets(lb, sizeof(lb), fb);

		if (!ra || !rb) {
			same = !ra && !rb;
			if (!same)
				ksft_print_msg("trace %s ends first, after line %llu\n",
					       ra ? "of the shim" : "of the device", n);
			break;
		}
		n++;
		if (strcmp(la, lb)) {
			ksft_print_msg("first difference, trace line %llu, after:\n", n);
			for (i = 0; i < VD_CONTEXT; i++)
				if (prev[i][0])
					ksft_print_msg("    %s", prev[i]);
			ksft_print_msg("device: %s", la);
			ksft_print_msg("shim:   %s", lb);
			same = false;
			break;
		}
		vd_count(t, la);
		memmove(prev[0], prev[1], sizeof(prev[0]) * (VD_CONTEXT - 1));
		snprintf(prev[VD_CONTEXT - 1], sizeof(prev[0]), "%s", la);
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

void vd_diff_main(const char *self, __u64 seed, double secs, int ndev)
{
	const char *tmp = getenv("TMPDIR");
	char dir[PATH_MAX], libbuf[PATH_MAX];
	char tr[2][PATH_MAX + 16], out[2][PATH_MAX + 16], val[32];
	struct vd_tally t = { 0 };
	unsigned long long n;
	const char *lib = vd_shim_lib(self, libbuf, sizeof(libbuf));
	int rc[2] = { -1, -1 }, i;
	bool same = false;

	ksft_set_plan(3);
	if (!lib)
		ksft_exit_fail_msg("no libvatom-shim.so beside this program: set VATOM_SHIM_LIB\n");
	snprintf(dir, sizeof(dir), "%s/vatom-diff.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		ksft_exit_fail_msg("mkdtemp: %s\n", strerror(errno));
	for (i = 0; i < 2; i++) {
		snprintf(tr[i], sizeof(tr[i]), "%s/%s.trace", dir, i ? "shim" : "device");
		snprintf(out[i], sizeof(out[i]), "%s/%s.out", dir, i ? "shim" : "device");
	}
	ksft_print_msg("differential: seed %llu, %.0f s on the device, then as many calls on %s\n",
		       (unsigned long long)seed, secs, lib);

	snprintf(val, sizeof(val), "%.3f", secs);
	rc[0] = vd_half(self, NULL, ndev, tr[0], out[0], seed, val, "-1");
	vd_show("device", out[0]);
	n = vd_calls(tr[0]);
	ksft_test_result(!rc[0] && n, "device half: %llu calls, exit %d\n", n, rc[0]);
	if (n) {
		snprintf(val, sizeof(val), "%llu", n);
		rc[1] = vd_half(self, lib, ndev, tr[1], out[1], seed, "1e9", val);
		vd_show("shim", out[1]);
	}
	ksft_test_result(!rc[1] && vd_calls(tr[1]) == n,
			 "shim half: %llu calls, exit %d\n", vd_calls(tr[1]), rc[1]);
	if (n)
		same = vd_compare(tr[0], tr[1], &t);
	ksft_test_result(same,
			 "traces equal: %llu lines, %llu calls, %llu submissions (%llu executed), "
			 "%llu kicks, %llu fence statuses, %llu surface digests\n",
			 t.lines, n, t.submits, t.executed, t.kicks, t.fences,
			 t.surfaces);
	if (same && !rc[0] && !rc[1]) {
		for (i = 0; i < 2; i++) {
			unlink(tr[i]);
			unlink(out[i]);
		}
		rmdir(dir);
	} else {
		ksft_print_msg("traces kept in %s\n", dir);
	}
	ksft_finished();
}
