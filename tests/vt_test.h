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
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/*
 * A fatal setup error: the TAP "Bail out!" line, then exit. What the test
 * would go on to check is void, and a plan line now would read as a pass.
 */
static inline void __attribute__((noreturn, format(printf, 1, 2)))
vt_bail(const char *fmt, ...)
{
	va_list ap;

	printf("Bail out! ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	exit(1);
}

/*
 * Run @fn(&args[i]) for each i < @n in its own thread, @args being an array
 * of @n elements of @size bytes, and join them all. @gate, if not NULL, is
 * set up as a barrier of @n for the threads to start on together. A thread
 * that cannot be created bails out: the others would wait at @gate for
 * ever, and fewer threads than asked would test less than the test says.
 */
static inline void vt_run_threads(void *(*fn)(void *), void *args,
				  size_t size, unsigned int n,
				  pthread_barrier_t *gate)
{
	pthread_t *th = calloc(n, sizeof(*th));
	unsigned int i;
	int ret;

	if (!th)
		vt_bail("vt_run_threads: out of memory for %u threads", n);
	if (gate) {
		ret = pthread_barrier_init(gate, NULL, n);
		if (ret)
			vt_bail("pthread_barrier_init(%u): %s", n,
				strerror(ret));
	}
	for (i = 0; i < n; i++) {
		ret = pthread_create(&th[i], NULL, fn,
				     (char *)args + i * size);
		if (ret)
			vt_bail("pthread_create, thread %u of %u: %s", i, n,
				strerror(ret));
	}
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	if (gate)
		pthread_barrier_destroy(gate);
	free(th);
}

#endif /* _VT_TEST_H_ */
