// SPDX-License-Identifier: MIT
/*
 * vatom: command-line tool for the vatom virtual atomic accelerator.
 *
 *   vatom [-d N | -D NODE] [-v] COMMAND [ARGS...]
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
		else
			fprintf(stderr, "vatom: cannot open vatom device %d: %s%s\n",
				o->device_index, strerror(-ret),
				ret == -ENODEV ?
				" (is vatom.ko loaded?)" :
				"");
	}
	return ret;
}

/* ---- info ------------------------------------------------------------- */

static const char *const cap_names[] = {
	"VISA_DWORD_ATOMIC", "VISA_TYPED_ATOMIC", "VISA_ADDC", "PTX_ATOM",
	"NOC_ATOMIC", "SUBMIT_ASYNC", "RESULT_SURFACE", "SYNCOBJ",
	"NOC_COUNTERS",
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

static void print_param(struct vatom_device *dev, uint32_t param,
			const char *name, const char *unit)
{
	uint64_t v;

	if (vatom_device_get_param(dev, param, 0, &v))
		printf("  %-22s (not reported)\n", name);
	else
		printf("  %-22s %" PRIu64 "%s\n", name, v, unit);
}

static int cmd_info(const struct tool_opts *o, int argc, char **argv)
{
	struct vatom_device *dev;
	drmVersionPtr ver;
	uint64_t caps, mask;
	unsigned int i, j;
	int n;

	(void)argc;
	(void)argv;
	n = vatom_device_count();
	printf("libvatom %s (built against %s), UAPI %d\n",
	       vatom_version_string(), VATOM_VERSION_STRING,
	       DRM_VATOM_UAPI_VERSION);
	printf("vatom devices: %d\n", n < 0 ? 0 : n);
	if (tool_open_device(o, &dev))
		return 1;

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

	printf("limits:\n");
	print_param(dev, DRM_VATOM_PARAM_MAX_SURFACE_SIZE, "max surface size", " bytes");
	print_param(dev, DRM_VATOM_PARAM_MAX_STREAM_SIZE, "max stream size", " bytes");
	print_param(dev, DRM_VATOM_PARAM_MAX_SLOTS, "binding slots", "");
	print_param(dev, DRM_VATOM_PARAM_MAX_RESULTS_SIZE, "max results size", " bytes");

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
	vatom_device_close(dev);
	return 0;
}

/* ---- help and dispatch -------------------------------------------------- */

static int cmd_help(const struct tool_opts *o, int argc, char **argv);

static const struct tool_cmd commands[] = {
	{ "info", "device, UAPI version, capabilities and limits", NULL, cmd_info },
	{ "demo", "submit a small batch, print it and verify the results",
	  "[NAME]", cmd_demo },
	{ "bench-async", "jobs/s of synchronous vs asynchronous submission",
	  "[-n JOBS] [-p PACKETS] [-w WINDOW] [-r REPEATS]", cmd_bench_async },
	{ "help", "this text, or a command's", "[COMMAND]", cmd_help },
};

static void usage(FILE *f)
{
	unsigned int i;

	fprintf(f, "usage: vatom [-d N | -D NODE] [-v] COMMAND [ARGS...]\n\n"
		"  -d N      use the N-th vatom device (default 0)\n"
		"  -D NODE   use this DRM node (e.g. /dev/dri/renderD129)\n"
		"  -v        more output\n\ncommands:\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
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

	while ((opt = getopt(argc, argv, "+d:D:vh")) != -1) {
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
	return c->run(&o, argc - optind, argv + optind);
}
