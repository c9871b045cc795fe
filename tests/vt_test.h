/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Minimal TAP producer for the host engine tests.
 *
 *	static void test_add(void) { VT_EXPECT_EQ(f(1, 2), 3); }
 *	int main(void) { vt_run(test_add, "add"); return vt_done(); }
 *
 * Each vt_run() is one TAP test point ("ok N - name" / "not ok N - name");
 * vt_done() prints the plan and returns the exit status (0 = all passed).
 */
#ifndef _VT_TEST_H_
#define _VT_TEST_H_

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned int vt_count, vt_failed, vt_cur_fail;

#define VT_EXPECT(cond) do {						\
	if (!(cond) && vt_cur_fail++ < 10)				\
		printf("#   %s:%d: expected %s\n", __FILE__, __LINE__, #cond); \
} while (0)

#define VT_EXPECT_EQ(got, want) do {					\
	unsigned long long _g = (unsigned long long)(got);		\
	unsigned long long _w = (unsigned long long)(want);		\
	if (_g != _w && vt_cur_fail++ < 10)				\
		printf("#   %s:%d: %s = 0x%llx, expected 0x%llx\n",	\
		       __FILE__, __LINE__, #got, _g, _w);		\
} while (0)

/* Like VT_EXPECT_EQ, with a printf-style context line on failure. */
#define VT_EXPECT_EQ_MSG(got, want, fmt, ...) do {			\
	unsigned long long _g = (unsigned long long)(got);		\
	unsigned long long _w = (unsigned long long)(want);		\
	if (_g != _w && vt_cur_fail++ < 10)				\
		printf("#   %s:%d: %s = 0x%llx, expected 0x%llx (" fmt ")\n", \
		       __FILE__, __LINE__, #got, _g, _w, ##__VA_ARGS__); \
} while (0)

static inline void vt_run(void (*fn)(void), const char *name)
{
	vt_cur_fail = 0;
	fn();
	vt_count++;
	if (vt_cur_fail) {
		vt_failed++;
		printf("not ok %u - %s\n", vt_count, name);
	} else {
		printf("ok %u - %s\n", vt_count, name);
	}
	fflush(stdout);
}

static inline int vt_done(void)
{
	printf("1..%u\n", vt_count);
	return vt_failed ? 1 : 0;
}

#endif /* _VT_TEST_H_ */
