// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for `vatom dump`: a dump is input from outside, so
 * cd_parse() and the printers run on arbitrary bytes under AddressSanitizer
 * and UndefinedBehaviorSanitizer. Seeds: the dumps in tools/test (recorded from
 * the device). Invariants: a parsed dump's blobs hold what they say they
 * captured, and printing it (text and JSON) reads nothing else.
 *
 *   make -C tools fuzz            FUZZ_RUNS runs from the seeds
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../coredump.h"
#include "../vatom_tool.h"

/* The printers are dump_cmd.c's own (static): compiled in. */
#include "../dump_cmd.c"

/* cmd_replay() is linked in with them; the fuzzer never opens a device. */
int tool_open_device(const struct tool_opts *o, struct vatom_device **dev)
{
	(void)o;
	(void)dev;
	return -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cd_dump *d = calloc(1, sizeof(*d));
	char *text = malloc(size + 1), err[256];
	unsigned int i;
	int ret;

	if (!d || !text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	ret = cd_parse(text, d, err, sizeof(err));
	if (!ret) {
		if (d->stream.captured > d->stream.size)
			abort();
		for (i = 0; i < d->nbindings; i++)
			if (d->bindings[i].surface.captured > d->bindings[i].surface.size)
				abort();
		print_text(d);
		print_json(d);
	} else if (ret == -EINVAL && !err[0]) {
		abort();	/* a refusal always says why */
	}
	cd_free(d);
	free(d);
	free(text);
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* The printers write to stdout: not the fuzzer's log. */
	if (!freopen("/dev/null", "w", stdout))
		abort();
	return 0;
}
