// SPDX-License-Identifier: MIT
/*
 * vatom --shim: run the command on the in-process device
 * (libvatom-shim.so, docs/shim.md) instead of the kernel's. The tool
 * executes itself again with the library preloaded; a statically linked
 * tool (the one built for the test guest) cannot be preloaded, so it
 * executes the dynamically linked build beside it
 * (build/shim/bin/vatom, `make -C tools shim`) instead.
 */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vatom_tool.h"

/* Set in the executed program's environment: it is the shim's run. */
#define SHIM_ENV	"VATOM_SHIM_ACTIVE"

/* @rel, relative to the directory of this program, if it exists. */
static bool shim_beside(char *out, size_t len, const char *rel)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return false;
	exe[n] = 0;
	if (snprintf(out, len, "%s/%s", dirname(exe), rel) >= (int)len)
		return false;
	return !access(out, R_OK);
}

/*
 * The library: $VATOM_SHIM_LIB; an installed one beside the program
 * (PREFIX/bin/vatom and PREFIX/lib/vatom/); the build tree's (tools/vatom
 * or build/shim/bin/vatom); where the package installs it.
 */
static bool shim_find_lib(char *out, size_t len)
{
	const char *env = getenv("VATOM_SHIM_LIB");

	if (env && *env) {
		snprintf(out, len, "%s", env);
		return !access(out, R_OK);
	}
	if (shim_beside(out, len, "../lib/vatom/libvatom-shim.so") ||
	    shim_beside(out, len, "../build/shim/libvatom-shim.so") ||
	    shim_beside(out, len, "../libvatom-shim.so"))
		return true;
	snprintf(out, len, "%s", VATOM_SHIM_LIB);
	return !access(out, R_OK);
}

/**
 * tool_shim_exec() - run this command again on the in-process device
 * @argv: the tool's arguments, --shim among them
 *
 * Return: only on failure, 2, having said why; or 0 when this already is
 * the run on the shim.
 */
int tool_shim_exec(char **argv)
{
	char lib[PATH_MAX], exe[PATH_MAX], *preload;
	const char *old = getenv("LD_PRELOAD");

	if (getenv(SHIM_ENV)) {
#ifndef VATOM_TOOL_STATIC
		/* The library exports its version: preloaded, or not at all. */
		if (!dlsym(RTLD_DEFAULT, "vatom_shim_version")) {
			fprintf(stderr, "vatom --shim: libvatom-shim.so did not load\n");
			return 2;
		}
#endif
		return 0;
	}
	if (!shim_find_lib(lib, sizeof(lib))) {
		fprintf(stderr, "vatom --shim: libvatom-shim.so not found (%s); %s\n",
			lib, "set VATOM_SHIM_LIB");
		return 2;
	}
#ifdef VATOM_TOOL_STATIC
	if (!shim_beside(exe, sizeof(exe), "../build/shim/bin/vatom")) {
		fprintf(stderr, "vatom --shim: %s; %s\n",
			"this vatom is statically linked and cannot load the shim",
			"build the one that can with 'make -C tools shim'");
		return 2;
	}
#else
	snprintf(exe, sizeof(exe), "/proc/self/exe");
#endif
	if (asprintf(&preload, "%s%s%s", lib, old && *old ? ":" : "",
		     old ? old : "") < 0)
		return 2;
	setenv("LD_PRELOAD", preload, 1);
	setenv(SHIM_ENV, "1", 1);
	execv(exe, argv);
	fprintf(stderr, "vatom --shim: %s: %s\n", exe, strerror(errno));
	return 2;
}
