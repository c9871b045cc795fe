// SPDX-License-Identifier: MIT
/*
 * devices.c: how many devices the shim presents, from $VATOM_SHIM_DEVICES
 * (1 to SHIM_MAX_DEVICES, default 1; anything else is one device and a
 * line on stderr).
 *
 * file.c asks it which minors exist; vfs.c lays out the tree for that
 * many. A file of its own so that a program linked without preload.c and
 * the fake tree (a static test program with file.c and the engine,
 * fdtable.c and fault.c) has it too: it defines no libc symbol and needs
 * nothing but libc.
 */
#undef _FORTIFY_SOURCE
#undef _FILE_OFFSET_BITS
#undef _TIME_BITS

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "shim.h"

#define likely(x)	__builtin_expect(!!(x), 1)

unsigned int shim_num_devices(void)
{
	static unsigned int num;
	unsigned int n = __atomic_load_n(&num, __ATOMIC_RELAXED);
	int err = errno;
	const char *s;
	unsigned long v;
	char *end;

	if (likely(n))
		return n;
	s = getenv("VATOM_SHIM_DEVICES");
	n = 1;
	if (s) {
		errno = 0;
		v = strtoul(s, &end, 10);
		if (*s >= '0' && *s <= '9' && !*end && !errno &&
		    v >= 1 && v <= SHIM_MAX_DEVICES)
			n = v;
		else
			fprintf(stderr,
				"libvatom-shim: VATOM_SHIM_DEVICES=%s is not "
				"1..%d; one device\n", s, SHIM_MAX_DEVICES);
	}
	__atomic_store_n(&num, n, __ATOMIC_RELAXED);
	errno = err;
	return n;
}
