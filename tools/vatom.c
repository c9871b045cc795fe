// SPDX-License-Identifier: MIT
/*
 * vatom: command-line tool for the vatom virtual atomic accelerator.
 *
 *   vatom [-d N | -D NODE] [-v] [-h|--help] [--version] COMMAND [ARGS...]
 *
 * Commands live in the table at the bottom; each is a function taking the
 * common options and its own argv.
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xf86drm.h>

#include "vatom_tool.h"

int tool_open_device(const struct tool_opts *o, struct vatom_device **dev)
{
	int ret;

	if (o->device_path)
		ret = vatom_device_open_path(o->device_path, 0, dev);
	else
		ret = vatom_device_open(o->device_index, 0, dev);
	if (ret) {
		if (o->device_path)
			fprintf(stderr, "vatom: cannot open %s: %s\n",
				o->device_path, strerror(-ret));
		else if (ret == -ENODEV) {
			int n = vatom_device_count();

			if (n <= 0)
				fprintf(stderr, "vatom: no vatom device (is vatom.ko loaded?)\n");
			else if (n == 1)
				fprintf(stderr, "vatom: no device %d: there is 1 vatom device (-d 0)\n",
					o->device_index);
			else
				fprintf(stderr, "vatom: no device %d: there are %d vatom devices (-d 0 .. -d %d)\n",
					o->device_index, n, n - 1);
		} else {
			fprintf(stderr, "vatom: cannot open vatom device %d: %s\n",
				o->device_index, strerror(-ret));
		}
	}
	return ret;
}

/* ---- info ------------------------------------------------------------- */

static const char *const cap_names[] = {
	"VISA_DWORD_ATOMIC", "VISA_TYPED_ATOMIC", "VISA_ADDC", "PTX_ATOM",
	"NOC_ATOMIC", "SUBMIT_ASYNC", "RESULT_SURFACE", "SYNCOBJ",
	"NOC_COUNTERS", "VALIDATE_ONLY", "QUEUE", "QUEUE_POLL", "QUEUE_SIGNAL",
	"RESET_STATUS", "QUEUE_POLL_CPU",
};

static const char *const visa_forms[] = {
	[DRM_VATOM_VISA_FORM_DWORD32] = "DWORD_ATOMIC",
	[DRM_VATOM_VISA_FORM_DWORD16] = "DWORD_ATOMIC.16",
	[DRM_VATOM_VISA_FORM_DWORD64] = "DWORD_ATOMIC (UQ/Q)",
	[DRM_VATOM_VISA_FORM_TYPED32] = "TYPED_ATOMIC",
	[DRM_VATOM_VISA_FORM_TYPED16] = "TYPED_ATOMIC.16",
};

static const char *const ptx_type_names[] = {
	NULL, "b16", "b32", "b64", "b128", "u32", "u64", "s32", "s64",
	"f16", "bf16", "f16x2", "bf16x2", "f32", "f64",
};

static const char *const ptx_op_names[] = {
	NULL, "and", "or", "xor", "cas", "exch", "add", "inc", "dec", "min",
	"max",
};

/* Every non-indexed GET_PARAM, by its UAPI name. */
static const struct {
	uint32_t param;
	const char *name;
	const char *unit;
} params[] = {
	{ DRM_VATOM_PARAM_UAPI_VERSION, "UAPI_VERSION", "" },
	{ DRM_VATOM_PARAM_CAPS, "CAPS", "" },
	{ DRM_VATOM_PARAM_MAX_SURFACE_SIZE, "MAX_SURFACE_SIZE", " bytes" },
	{ DRM_VATOM_PARAM_MAX_STREAM_SIZE, "MAX_STREAM_SIZE", " bytes" },
	{ DRM_VATOM_PARAM_MAX_SLOTS, "MAX_SLOTS", "" },
	{ DRM_VATOM_PARAM_MAX_RESULTS_SIZE, "MAX_RESULTS_SIZE", " bytes" },
	{ DRM_VATOM_PARAM_MAX_JOBS, "MAX_JOBS", " jobs" },
	{ DRM_VATOM_PARAM_FILE_MEM_CAP, "FILE_MEM_CAP", " bytes" },
	{ DRM_VATOM_PARAM_MAX_SYNCS, "MAX_SYNCS", "" },
	{ DRM_VATOM_PARAM_MAX_SUBMIT_OPS, "MAX_SUBMIT_OPS", " element ops" },
	{ DRM_VATOM_PARAM_FILE_MEM_CHARGED, "FILE_MEM_CHARGED", " bytes" },
	{ DRM_VATOM_PARAM_MAX_QUEUE_ENTRIES, "MAX_QUEUE_ENTRIES", " entries" },
	{ DRM_VATOM_PARAM_MAX_QUEUES, "MAX_QUEUES", " queues" },
	{ DRM_VATOM_PARAM_MAX_POLL_QUEUES, "MAX_POLL_QUEUES", " queues" },
	{ DRM_VATOM_PARAM_MAX_POLL_IDLE_US, "MAX_POLL_IDLE_US", " us" },
	{ DRM_VATOM_PARAM_JOB_TIMEOUT_MS, "JOB_TIMEOUT_MS", " ms" },
	{ DRM_VATOM_PARAM_MAX_SCHEDULERS, "MAX_SCHEDULERS", " files" },
};

static void print_param(struct vatom_device *dev, uint32_t param,
			const char *name, const char *unit)
{
	uint64_t v;

	if (vatom_device_get_param(dev, param, 0, &v))
		printf("  %-22s (not reported)\n", name);
	else
		printf("  %-22s %" PRIu64 "%s\n", name, v, unit);
}

/* info -j: one JSON object per device, every parameter, raw values. */
static void info_json(struct vatom_device *dev, bool first)
{
	drmVersionPtr ver = drmGetVersion(vatom_device_fd(dev));
	struct vatom_reset_status rs;
	unsigned int i, j;
	uint64_t v;

	printf("%s{\"node\":\"%s\",\"driver\":\"%s\",\"version\":\"%d.%d.%d\"",
	       first ? "" : ",", vatom_device_node(dev), ver ? ver->name : "",
	       ver ? ver->version_major : 0, ver ? ver->version_minor : 0,
	       ver ? ver->version_patchlevel : 0);
	drmFreeVersion(ver);
	printf(",\"params\":{");
	for (i = 0; i < ARRAY_SIZE(params); i++) {
		if (vatom_device_get_param(dev, params[i].param, 0, &v))
			continue;
		printf("%s\"%s\":%" PRIu64, i ? "," : "", params[i].name, v);
	}
	printf("},\"VISA_OPS\":[");
	for (i = 0; i <= DRM_VATOM_VISA_FORM_TYPED16; i++) {
		v = 0;
		vatom_device_get_param(dev, DRM_VATOM_PARAM_VISA_OPS, i, &v);
		printf("%s%" PRIu64, i ? "," : "", v);
	}
	printf("],\"PTX_OPS\":{");
	for (i = 1, j = 0; vatom_ptx_type_name(i); i++) {
		v = 0;
		vatom_device_get_param(dev, DRM_VATOM_PARAM_PTX_OPS, i, &v);
		printf("%s\"%s\":%" PRIu64, j++ ? "," : "", vatom_ptx_type_name(i), v);
	}
	printf("},\"NOC_OPCODES\":[");
	for (i = 0; i <= DRM_VATOM_NOC_PROFILE_BLACKHOLE; i++) {
		v = 0;
		vatom_device_get_param(dev, DRM_VATOM_PARAM_NOC_OPCODES, i, &v);
		printf("%s%" PRIu64, i ? "," : "", v);
	}
	printf("]");
	/* With CAP_RESET_STATUS: this file's status (see info_one()). */
	if (!vatom_device_reset_status(dev, 0, &rs))
		printf(",\"reset\":{\"status\":\"%s\",\"guilty\":%" PRIu64
		       ",\"innocent\":%" PRIu64 "}",
		       vatom_reset_status_name(rs.status) ?
		       vatom_reset_status_name(rs.status) : "?", rs.guilty, rs.innocent);
	printf("}");
}

static int info_one(struct vatom_device *dev);

/*
 * info [-a] [-j]: the device of -d/-D (all devices with -a or -j), with
 * every GET_PARAM value.
 */
static int cmd_info(const struct tool_opts *o, int argc, char **argv)
{
	bool all = false, json = false;
	struct tool_opts one = *o;
	struct vatom_device *dev;
	int n, i, ret = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-a") || !strcmp(argv[i], "--all"))
			all = true;
		else if (!strcmp(argv[i], "-j") || !strcmp(argv[i], "--json"))
			json = all = true;
		else {
			fprintf(stderr, "vatom info: unknown argument '%s'\n", argv[i]);
			return 2;
		}
	}
	n = vatom_device_count();
	if (json)
		printf("{\"library\":\"%s\",\"uapi\":%d,\"devices\":[",
		       vatom_version_string(), DRM_VATOM_UAPI_VERSION);
	else
		printf("libvatom %s (built against %s), UAPI %d\nvatom devices: %d\n",
		       vatom_version_string(), VATOM_VERSION_STRING,
		       DRM_VATOM_UAPI_VERSION, n < 0 ? 0 : n);
	if (!all || o->device_path) {
		if (tool_open_device(o, &dev))
			return 1;
		if (json)
			info_json(dev, true);
		else
			ret = info_one(dev);
		vatom_device_close(dev);
	} else {
		for (i = 0; i < n; i++) {
			one.device_index = i;
			if (tool_open_device(&one, &dev))
				return 1;
			if (json)
				info_json(dev, i == 0);
			else
				ret |= info_one(dev);
			vatom_device_close(dev);
		}
	}
	if (json)
		printf("]}\n");
	return ret;
}

/* vatom list: every device, its node and driver version. */
static int cmd_list(const struct tool_opts *o, int argc, char **argv)
{
	bool json = argc > 1 && (!strcmp(argv[1], "-j") || !strcmp(argv[1], "--json"));
	struct tool_opts one = *o;
	struct vatom_device *dev;
	drmVersionPtr ver;
	int n = vatom_device_count(), i;

	if (json)
		printf("[");
	for (i = 0; i < n; i++) {
		one.device_index = i;
		one.device_path = NULL;
		if (tool_open_device(&one, &dev))
			return 1;
		ver = drmGetVersion(vatom_device_fd(dev));
		if (json)
			printf("%s{\"index\":%d,\"node\":\"%s\",\"driver\":\"%s\",\"version\":\"%d.%d.%d\",\"uapi\":%u}",
			       i ? "," : "", i, vatom_device_node(dev),
			       ver ? ver->name : "", ver ? ver->version_major : 0,
			       ver ? ver->version_minor : 0,
			       ver ? ver->version_patchlevel : 0,
			       vatom_device_uapi_version(dev));
		else
			printf("%d  %s  %s %d.%d.%d  UAPI %u\n", i, vatom_device_node(dev),
			       ver ? ver->name : "?", ver ? ver->version_major : 0,
			       ver ? ver->version_minor : 0,
			       ver ? ver->version_patchlevel : 0,
			       vatom_device_uapi_version(dev));
		drmFreeVersion(ver);
		vatom_device_close(dev);
	}
	if (json)
		printf("]\n");
	else if (n <= 0)
		printf("no vatom device (is vatom.ko loaded?)\n");
	return 0;
}

static int info_one(struct vatom_device *dev)
{
	struct vatom_reset_status rs;
	drmVersionPtr ver;
	uint64_t caps, mask;
	unsigned int i, j;
	int ret;

	ver = drmGetVersion(vatom_device_fd(dev));
	printf("device %s", vatom_device_node(dev));
	if (ver)
		printf(": %s %d.%d.%d, %s", ver->name, ver->version_major,
		       ver->version_minor, ver->version_patchlevel,
		       ver->desc ? ver->desc : "");
	printf("\n");
	drmFreeVersion(ver);
	printf("  %-22s %u%s\n", "UAPI version", vatom_device_uapi_version(dev),
	       vatom_device_uapi_version(dev) < DRM_VATOM_UAPI_VERSION ?
	       " (older than this tool's)" : "");

	caps = vatom_device_caps(dev);
	printf("  %-22s 0x%" PRIx64 ":", "capabilities", caps);
	for (i = 0; i < 64; i++) {
		if (!(caps & (1ull << i)))
			continue;
		if (i < ARRAY_SIZE(cap_names))
			printf(" %s", cap_names[i]);
		else
			printf(" bit%u", i);
	}
	printf("\n");
	/*
	 * The reset status is per file, and this is the file info opened:
	 * guilty is 0, innocent counts other files' resets while info runs.
	 */
	if (caps & DRM_VATOM_CAP_RESET_STATUS) {
		ret = vatom_device_reset_status(dev, 0, &rs);
		if (ret)
			printf("  %-22s (cannot read it: %s)\n", "reset status",
			       vatom_strerror(ret));
		else
			printf("  %-22s %s: %" PRIu64 " guilty, %" PRIu64
			       " innocent (this file's, since it was opened)\n",
			       "reset status", vatom_reset_status_name(rs.status) ?
			       vatom_reset_status_name(rs.status) : "?",
			       rs.guilty, rs.innocent);
	}

	printf("parameters:\n");
	for (i = 2; i < ARRAY_SIZE(params); i++)
		print_param(dev, params[i].param, params[i].name, params[i].unit);

	printf("vISA operations:\n");
	for (i = 0; i < ARRAY_SIZE(visa_forms); i++) {
		printf("  %-22s", visa_forms[i]);
		if (vatom_device_get_param(dev, DRM_VATOM_PARAM_VISA_OPS, i, &mask)) {
			printf(" (not reported)\n");
			continue;
		}
		for (j = 0; j < 32; j++)
			if (mask & (1ull << j))
				printf(" %s", vatom_visa_op_name(j) ?
				       vatom_visa_op_name(j) : "?");
		printf("%s\n", mask ? "" : " none");
	}

	printf("PTX atom operations:\n");
	for (i = 1; i < ARRAY_SIZE(ptx_type_names); i++) {
		if (vatom_device_get_param(dev, DRM_VATOM_PARAM_PTX_OPS, i, &mask))
			mask = 0;
		if (!mask)
			continue;
		printf("  %-22s", ptx_type_names[i]);
		for (j = 0; j < 64; j++)
			if (mask & (1ull << j))
				printf(" %s", j < ARRAY_SIZE(ptx_op_names) &&
				       ptx_op_names[j] ? ptx_op_names[j] : "?");
		printf("\n");
	}

	printf("NoC atomic opcodes:\n");
	for (i = 0; i <= DRM_VATOM_NOC_PROFILE_BLACKHOLE; i++) {
		printf("  %-22s", i == DRM_VATOM_NOC_PROFILE_WORMHOLE ?
		       "Wormhole" : "Blackhole");
		if (vatom_device_get_param(dev, DRM_VATOM_PARAM_NOC_OPCODES, i, &mask)) {
			printf(" (not reported)\n");
			continue;
		}
		for (j = 0; j < 16; j++)
			if (mask & (1ull << j))
				printf(" 0x%x", j);
		printf("%s\n", mask ? "" : " none");
	}
	return 0;
}

/* ---- help and dispatch -------------------------------------------------- */

static int cmd_help(const struct tool_opts *o, int argc, char **argv);

static const struct tool_cmd commands[] = {
	{ "info", "device, UAPI version, capabilities, every parameter",
	  "[-a|--all] [-j|--json]", cmd_info },
	{ "list", "every vatom device: index, node, driver version",
	  "[-j|--json]", cmd_list },
	{ "run", "run an ISA test file (vISA, PTX, NoC) and check it",
	  "[-j|--json] [--tap] [--validate-only] FILE|-", cmd_run },
	{ "asm", "assemble a run file: one line of packet bytes (hex) per packet",
	  "FILE|-", cmd_asm },
	{ "disasm", "packet bytes (hex) back to ISA text", "FILE|-", cmd_disasm },
	{ "dump", "decode a devcoredump: header, stream, surfaces (-j: JSON)",
	  "[-j] [FILE|N]", cmd_dump },
	{ "replay", "run what a dumped job left undone, on the dumped surfaces",
	  "[-t MS] [-o DIR] FILE|N", cmd_replay },
	{ "demo", "submit a small batch, print it and verify the results",
	  "[NAME]", cmd_demo },
	{ "bench-async", "jobs/s of synchronous vs asynchronous submission",
	  "[-n JOBS] [-p PACKETS] [-w WINDOW] [-r REPEATS]", cmd_bench_async },
	{ "help", "this text, or a command's", "[COMMAND]", cmd_help },
};

static void usage(FILE *f)
{
	unsigned int i;

	fprintf(f, "usage: vatom [-d N | -D NODE] [-v] [--shim] COMMAND [ARGS...]\n\n"
		"  -d N          use the N-th vatom device (default 0)\n"
		"  -D NODE       use this DRM node (e.g. /dev/dri/renderD129)\n"
		"  -v            more output (run --validate-only: the packets)\n"
		"  --shim        on the in-process device (libvatom-shim.so), not the kernel's\n"
		"  -h, --help    this text; vatom COMMAND --help: the command's\n"
		"  --version     the tool's and the library's version\n\ncommands:\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-12s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nSee vatom(1).\n");
}

static const struct tool_cmd *find_cmd(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static int cmd_help(const struct tool_opts *o, int argc, char **argv)
{
	const struct tool_cmd *c;

	(void)o;
	if (argc < 2) {
		usage(stdout);
		return 0;
	}
	c = find_cmd(argv[1]);
	if (!c) {
		fprintf(stderr, "vatom: unknown command '%s'\n", argv[1]);
		return 2;
	}
	printf("usage: vatom %s%s%s\n  %s\n", c->name, c->usage ? " " : "",
	       c->usage ? c->usage : "", c->summary);
	if (c->run == cmd_demo)
		demo_list();
	return 0;
}

int main(int argc, char **argv)
{
	struct tool_opts o = { 0 };
	const struct tool_cmd *c;
	char *end;
	int opt;

	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "shim", no_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 },
	};

	while ((opt = getopt_long(argc, argv, "+d:D:vh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			o.device_index = (int)strtol(optarg, &end, 10);
			if (*end || o.device_index < 0) {
				fprintf(stderr, "vatom: bad device index '%s'\n", optarg);
				return 2;
			}
			break;
		case 'D':
			o.device_path = optarg;
			break;
		case 'v':
			o.verbose++;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'S':
			if (tool_shim_exec(argv))
				return 2;
			break;
		case 'V':
			printf("vatom %s (libvatom %s, UAPI %d)\n", VATOM_VERSION_STRING,
			       vatom_version_string(), DRM_VATOM_UAPI_VERSION);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}
	c = find_cmd(argv[optind]);
	if (!c) {
		fprintf(stderr, "vatom: unknown command '%s'\n\n", argv[optind]);
		usage(stderr);
		return 2;
	}
	/* COMMAND --help / -h: the command's usage, for every command. */
	if (argc - optind > 1 && (!strcmp(argv[optind + 1], "--help") ||
				  !strcmp(argv[optind + 1], "-h")) &&
	    c->run != cmd_run) {
		char *help[] = { "help", argv[optind], NULL };

		return cmd_help(&o, 2, help);
	}
	if (o.verbose)
		fprintf(stderr, "vatom: %s, libvatom %s\n", c->name,
			vatom_version_string());
	return c->run(&o, argc - optind, argv + optind);
}
