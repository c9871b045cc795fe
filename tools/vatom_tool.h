/* SPDX-License-Identifier: MIT */
/*
 * The vatom command-line tool: what its source files share.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_TOOL_H_
#define _VATOM_TOOL_H_

#include <stddef.h>

#include <vatom.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Options common to every command. */
struct tool_opts {
	int device_index;	/* -d N */
	const char *device_path;	/* -D PATH */
	int verbose;		/* -v */
};

/**
 * struct tool_cmd - one command (or one demo): `vatom NAME ARGS...`
 * @name: what the user types
 * @summary: one line for `vatom help`
 * @usage: the arguments, or NULL
 * @run: the command; argv[0] is @name; returns the exit status
 */
struct tool_cmd {
	const char *name;
	const char *summary;
	const char *usage;
	int (*run)(const struct tool_opts *o, int argc, char **argv);
};

/* json.c: @s as a JSON string on stdout. */
void tool_json_str(const char *s);

/* vatom --shim: this command again, on libvatom-shim.so (shim_exec.c) */
int tool_shim_exec(char **argv);

/* Open the device the options name; prints why on failure. */
int tool_open_device(const struct tool_opts *o, struct vatom_device **dev);

/*
 * Demos, one per ISA family, each in its own file (demo_<family>.c) and
 * listed in demo.c's table.
 */
int demo_visa(const struct tool_opts *o, int argc, char **argv);
int demo_ptx(const struct tool_opts *o, int argc, char **argv);
int demo_noc(const struct tool_opts *o, int argc, char **argv);
int cmd_demo(const struct tool_opts *o, int argc, char **argv);

/* run.c: vatom run FILE|- (an ISA test file on the device). */
int cmd_run(const struct tool_opts *o, int argc, char **argv);

/* asm_cmd.c: vatom asm / vatom disasm (text to packet bytes and back). */
int cmd_asm(const struct tool_opts *o, int argc, char **argv);
int cmd_disasm(const struct tool_opts *o, int argc, char **argv);

/* dump_cmd.c: vatom dump / vatom replay (a devcoredump decoded, re-run). */
int cmd_dump(const struct tool_opts *o, int argc, char **argv);
int cmd_replay(const struct tool_opts *o, int argc, char **argv);

/* bench_async.c: sync vs async submission throughput. */
int cmd_bench_async(const struct tool_opts *o, int argc, char **argv);
void demo_list(void);

#endif /* _VATOM_TOOL_H_ */
