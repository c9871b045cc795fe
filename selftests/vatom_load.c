// SPDX-License-Identifier: GPL-2.0
/*
 * vatom_load: loading and unloading vatom.ko, as an administrator does.
 *
 * Each test unloads the module, loads it with one set of parameters
 * (finit_module(2), so the exact errno is seen) and checks the outcome:
 *
 *  - refused, -EINVAL, with nothing left loaded: num_devices outside
 *    1..16 (vatom_init()), or a value a parameter cannot parse;
 *  - clamped, as each parameter's description (modinfo) says: the
 *    writable ones read back clamped from sysfs, the read-only ones
 *    through GET_PARAM (the driver clamps those once, at load);
 *  - num_devices=16 makes sixteen devices that libdrm enumerates.
 *
 * The last test loads the module back with the parameters it had at the
 * start (read from /sys/module/vatom/parameters/) and runs a job on it,
 * so that programs run after this one find the device as they would
 * have. Nothing may hold the module meanwhile: run this program alone.
 *
 * Needs root and the module's file: the first argument, else the VM
 * runner's /modules/vatom.ko (scripts/vm-init.sh), else the one DKMS
 * installed for the running kernel; it skips without one, or without a
 * loaded vatom.ko to begin with.
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
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "common.h"
#include "common_kernel.h"
#include "common_packets.h"

#define VL_SYSFS	"/sys/module/vatom"
#define VL_PARAMS	VL_SYSFS "/parameters"
/* The runner's copy of the module under test (scripts/vm-init.sh)... */
#define VL_RUNNER_KO	"/modules/vatom.ko"
/* ... or the one the vatom-dkms package built, for the running kernel. */
#define VL_DKMS_KO	"/lib/modules/%s/updates/dkms/vatom.ko"
/* vatom_drv.c's VATOM_MAX_DEVICES, as num_devices' description says. */
#define VL_MAX_DEVICES	16

static const char *vl_ko;
/* The parameters the module had at the start, "name=value ...". */
static char vl_orig[1024];

/* finit_module() of vl_ko with @params: 0 or -errno. */
static int vl_load(const char *params)
{
	int fd = open(vl_ko, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	ret = syscall(__NR_finit_module, fd, params, 0) ? -errno : 0;
	close(fd);
	return ret;
}

static bool vl_loaded(void)
{
	return access(VL_SYSFS "/initstate", F_OK) == 0;
}

/*
 * Unload, if loaded: 0 or -errno. A job's fence released a moment after
 * the program that waited for it exited still holds the module: retry
 * for up to 5 s.
 */
static int vl_unload(void)
{
	int i;

	for (i = 0; vl_loaded() && i < 500; i++) {
		if (!syscall(__NR_delete_module, "vatom", O_NONBLOCK))
			return 0;
		if (errno != EWOULDBLOCK && errno != EAGAIN)
			return -errno;
		usleep(10000);
	}
	return vl_loaded() ? -EBUSY : 0;
}

/* Every parameter's value, as sysfs shows it, into vl_orig. */
static int vl_read_params(void)
{
	char path[300], val[64];
	struct dirent *d;
	size_t n = 0;
	DIR *dir;

	dir = opendir(VL_PARAMS);
	if (!dir)
		return -errno;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), VL_PARAMS "/%s", d->d_name);
		if (vt_read_file(path, val, sizeof(val)))
			continue;
		/* Booleans read back as Y or N, which they also take. */
		n += snprintf(vl_orig + n, sizeof(vl_orig) - n, "%s%s=%s",
			      n ? " " : "", d->d_name, val);
		if (n >= sizeof(vl_orig)) {
			closedir(dir);
			return -E2BIG;
		}
	}
	closedir(dir);
	return 0;
}

/* The first vatom render node, for vt_open(): how many devices there are. */
static int vl_find(void)
{
	char paths[VT_MAX_NODES][VT_PATH_MAX];
	int n = vt_find_devices("vatom", paths, VT_MAX_NODES);

	vt_render_path[0] = '\0';
	if (n > 0)
		snprintf(vt_render_path, sizeof(vt_render_path), "%s", paths[0]);
	return n;
}

/*
 * First (global tests run before the fixtures), on the module as loaded: a
 * writable parameter refuses at run time what it cannot parse, with
 * kstrtouint()'s errno, and keeps its value: not a number (EINVAL), past
 * 32 bits (ERANGE).
 */
TEST(runtime_refused)
{
	static const struct {
		const char *name, *value;
		int err;
	} cases[] = {
		{ "job_timeout_ms",	"ten",		EINVAL },
		{ "job_timeout_ms",	"4294967296",	ERANGE },
		{ "max_schedulers",	"-1",		EINVAL },
		{ "max_schedulers",	"4294967296",	ERANGE },
	};
	char path[300], before[64], after[64];
	size_t i;

	if (geteuid())
		SKIP(return, "not root");
	for (i = 0; i < VT_ARRAY_SIZE(cases); i++) {
		snprintf(path, sizeof(path), VL_PARAMS "/%s", cases[i].name);
		ASSERT_EQ(0, vt_read_file(path, before, sizeof(before)));
		EXPECT_EQ(-cases[i].err, vt_write_file(path, cases[i].value))
			TH_LOG("%s=%s", cases[i].name, cases[i].value);
		ASSERT_EQ(0, vt_read_file(path, after, sizeof(after)));
		EXPECT_STREQ(before, after) TH_LOG("%s", cases[i].name);
	}
}

/* A parameter's expected value, through sysfs or GET_PARAM. */
struct vl_want {
	const char *name;	/* in /sys/module/vatom/parameters/, or NULL */
	const char *sysfs;	/* what it reads back */
	__u32 param;		/* DRM_VATOM_PARAM_* when name is NULL */
	__u64 value;
};

#define VL_WANTS	4

FIXTURE(load) {
	int unused;
};

FIXTURE_VARIANT(load) {
	const char *params;
	int err;		/* what finit_module() returns */
	int devices;		/* on success: how many libdrm finds */
	struct vl_want want[VL_WANTS];
};

/* Refused at load: -EINVAL, nothing loaded. */
FIXTURE_VARIANT_ADD(load, no_devices) {
	.params = "num_devices=0", .err = -EINVAL,
};

FIXTURE_VARIANT_ADD(load, too_many_devices) {
	.params = "num_devices=17", .err = -EINVAL,
};

FIXTURE_VARIANT_ADD(load, devices_not_a_number) {
	.params = "num_devices=two", .err = -EINVAL,
};

FIXTURE_VARIANT_ADD(load, max_jobs_not_a_number) {
	.params = "max_jobs=many", .err = -EINVAL,
};

FIXTURE_VARIANT_ADD(load, job_timeout_not_a_number) {
	.params = "job_timeout_ms=soon", .err = -EINVAL,
};

FIXTURE_VARIANT_ADD(load, max_schedulers_negative) {
	.params = "max_schedulers=-1", .err = -EINVAL,
};

/* The most devices there may be. */
FIXTURE_VARIANT_ADD(load, sixteen_devices) {
	.params = "num_devices=16", .devices = VL_MAX_DEVICES,
};

/* Clamped to the bottoms of the documented ranges... */
FIXTURE_VARIANT_ADD(load, clamped_low) {
	.params = "job_timeout_ms=1 max_schedulers=0 max_jobs=0 max_submit_ops=1",
	.devices = 1,
	.want = {
		{ .name = "job_timeout_ms", .sysfs = "100" },
		{ .name = "max_schedulers", .sysfs = "1" },
		{ .param = DRM_VATOM_PARAM_MAX_JOBS, .value = 1 },
		{ .param = DRM_VATOM_PARAM_MAX_SUBMIT_OPS, .value = 16384 },
	},
};

/* ... and to their tops. */
FIXTURE_VARIANT_ADD(load, clamped_high) {
	.params = "job_timeout_ms=4000000000 max_schedulers=100000 "
		  "max_jobs=1000000 max_submit_ops=99999999999 "
		  "max_poll_queues=5000",
	.devices = 1,
	.want = {
		{ .name = "job_timeout_ms", .sysfs = "600000" },
		{ .name = "max_schedulers", .sysfs = "4096" },
		{ .param = DRM_VATOM_PARAM_MAX_JOBS, .value = 65536 },
		{ .param = DRM_VATOM_PARAM_MAX_POLL_QUEUES, .value = 1024 },
	},
};

/* Why this program cannot load the module here, or NULL. */
static const char *vl_cannot_load(void)
{
	if (!vl_ko)
		return "no vatom.ko to load (pass its path)";
	if (geteuid())
		return "not root";
	return NULL;
}

FIXTURE_SETUP(load)
{
	const char *why = vl_cannot_load();

	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, vl_unload());
}

FIXTURE_TEARDOWN(load)
{
}

TEST_F(load, outcome)
{
	const struct vl_want *w;
	char path[300], val[64];
	__u64 value;
	int i, fd;

	ASSERT_EQ(variant->err, vl_load(variant->params))
		TH_LOG("insmod vatom.ko %s", variant->params);
	if (variant->err) {
		EXPECT_FALSE(vl_loaded());
		return;
	}
	EXPECT_EQ(variant->devices, vl_find());
	fd = vt_open();
	ASSERT_LE(0, fd);
	for (i = 0; i < VL_WANTS; i++) {
		w = &variant->want[i];
		if (w->name) {
			snprintf(path, sizeof(path), VL_PARAMS "/%s", w->name);
			ASSERT_EQ(0, vt_read_file(path, val, sizeof(val)));
			EXPECT_STREQ(w->sysfs, val) TH_LOG("%s", w->name);
		} else if (w->param) {
			ASSERT_EQ(0, vt_get_param(fd, w->param, 0, &value));
			EXPECT_EQ(w->value, value) TH_LOG("param %u", w->param);
		}
	}
	close(fd);
}

/*
 * Last (the harness runs fixtures in the order they are defined, the
 * global one first): the module as it was, and a job that runs on it.
 */
FIXTURE(reload) {
	int unused;
};

FIXTURE_SETUP(reload)
{
	const char *why = vl_cannot_load();

	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, vl_unload());
}

FIXTURE_TEARDOWN(reload)
{
}

TEST_F(reload, as_before)
{
	const __u32 addr = 0, one = 1;
	struct drm_vatom_submit args;
	char again[sizeof(vl_orig)];
	struct vt_stream s;
	struct vt_visa v;
	__u32 h, result[2];	/* a packet's results are 8-byte aligned */
	__u32 *map;
	int fd;

	ASSERT_EQ(0, vl_load(vl_orig)) TH_LOG("insmod vatom.ko %s", vl_orig);
	memcpy(again, vl_orig, sizeof(again));
	ASSERT_EQ(0, vl_read_params());
	EXPECT_STREQ(again, vl_orig);
	ASSERT_LT(0, vl_find());

	fd = vt_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vt_buffer_create(fd, 4096, &h));
	map = vt_map(fd, h, 4096);
	ASSERT_NE(NULL, map);
	map[0] = 41;
	vt_stream_init(&s);
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_1,
		 DRM_VATOM_VISA_TYPE_UD, &addr, &one, NULL, true);
	ASSERT_NE(NULL, vt_add_visa(&s, &v));
	ASSERT_EQ(0, vt_run(fd, &s, h, result, sizeof(result), &args))
		TH_LOG("errno %d, reason %u", errno, args.error_reason);
	EXPECT_EQ(41, result[0]);
	EXPECT_EQ(42, map[0]);
	munmap(map, 4096);
	close(fd);
}

int main(int argc, char **argv)
{
	static char dkms[300];
	struct utsname u;

	if (argc > 1 && argv[1][0] != '-') {
		vl_ko = argv[1];
		argv[1] = argv[0];
		argc--;
		argv++;
	} else if (!access(VL_RUNNER_KO, R_OK)) {
		vl_ko = VL_RUNNER_KO;
	} else if (!uname(&u)) {
		snprintf(dkms, sizeof(dkms), VL_DKMS_KO, u.release);
		if (!access(dkms, R_OK))
			vl_ko = dkms;
	}
	if (!vl_loaded() || vl_read_params()) {
		ksft_print_header();
		ksft_exit_skip("vatom.ko is not loaded\n");
	}
	return test_harness_run(argc, argv);
}
