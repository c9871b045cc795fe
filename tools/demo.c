// SPDX-License-Identifier: MIT
/*
 * vatom tool: `vatom demo [NAME]`. Each ISA family has its own demo in
 * demo_<family>.c; add a new one to the table below.
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <stdio.h>
#include <string.h>

#include "vatom_tool.h"

static const struct tool_cmd demos[] = {
	{ "visa", "vISA DWORD_ATOMIC: ADD, CMPXCHG, IMAX, PREDEC with masks and a predicate",
	  NULL, demo_visa },
	{ "ptx", "PTX atom: integer, bit, b16/b128, f32 flush vs shared, f16/bf16 vectors, f64",
	  NULL, demo_ptx },
	{ "noc", "NoC atomics on Wormhole and Blackhole grids: registers, L1, responses, counters",
	  NULL, demo_noc },
};

void demo_list(void)
{
	unsigned int i;

	printf("demos (all of them without NAME):\n");
	for (i = 0; i < ARRAY_SIZE(demos); i++)
		printf("  %-8s %s\n", demos[i].name, demos[i].summary);
}

int cmd_demo(const struct tool_opts *o, int argc, char **argv)
{
	unsigned int i;
	int ret = 0;

	if (argc > 1) {
		for (i = 0; i < ARRAY_SIZE(demos); i++)
			if (!strcmp(demos[i].name, argv[1]))
				return demos[i].run(o, argc - 1, argv + 1);
		fprintf(stderr, "vatom: unknown demo '%s'\n", argv[1]);
		demo_list();
		return 2;
	}
	for (i = 0; i < ARRAY_SIZE(demos); i++) {
		char *args[] = { (char *)demos[i].name, NULL };

		if (demos[i].run(o, 1, args))
			ret = 1;
	}
	return ret;
}
