// SPDX-License-Identifier: MIT
/*
 * libvatom test: TAP output ("ok N - name", plan at the end).
 *
 *   libvatom_test          host checks + device checks (run in the VM,
 *                          against the real vatom.ko)
 *   libvatom_test --host   host checks only: the builder's packet bytes
 *                          against hand-written layouts, result layout,
 *                          argument checking; no device needed
 *
 * Expected values are hand-derived from the ISA documents and the UAPI
 * (written out as literal tables below), never produced by the library or
 * the kernel under test.
 *
 * Copyright (C) 2026 The vatom developers
 */
#define _GNU_SOURCE	/* sched_getcpu() */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <linux/dma-buf.h>
#include <xf86drm.h>

#include <vatom.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Little-endian byte images, for the hand-written packet layouts. */
#define LE16(x) ((x) & 0xff), (((x) >> 8) & 0xff)
#define LE32(x) LE16((x) & 0xffff), LE16(((x) >> 16) & 0xffff)
#define LE64(x) LE32((uint32_t)((uint64_t)(x) & 0xffffffffu)), \
		LE32((uint32_t)((uint64_t)(x) >> 32))

static int fails;		/* failed expectations of the current test */
static const char *skip_reason;	/* set by a test that skips */

#define EXPECT(cond) do {						\
	if (!(cond)) {							\
		printf("#   %s:%d: expected %s\n", __FILE__, __LINE__,	\
		       #cond);						\
		fails++;						\
	}								\
} while (0)

#define EXPECT_EQ(a, b) do {						\
	uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);		\
	if (a_ != b_) {							\
		printf("#   %s:%d: %s == 0x%" PRIx64 ", expected %s == 0x%" \
		       PRIx64 "\n", __FILE__, __LINE__, #a, a_, #b, b_); \
		fails++;						\
	}								\
} while (0)

/* Fatal inside a test: the rest of it cannot run. */
#define REQUIRE(cond) do {						\
	if (!(cond)) {							\
		printf("#   %s:%d: required %s\n", __FILE__, __LINE__,	\
		       #cond);						\
		fails++;						\
		goto out;						\
	}								\
} while (0)

static void skip(const char *why)
{
	skip_reason = why;
}

/* Compare an encoded packet with its hand-written byte image. */
static void expect_bytes(const void *got, size_t got_len,
			 const uint8_t *want, size_t want_len)
{
	const uint8_t *g = got;
	size_t i;

	if (!got) {
		printf("#   no packet\n");
		fails++;
		return;
	}
	if (got_len != want_len) {
		printf("#   packet is %zu bytes, expected %zu\n", got_len,
		       want_len);
		fails++;
	}
	for (i = 0; i < got_len && i < want_len; i++) {
		if (g[i] != want[i]) {
			printf("#   byte %zu is 0x%02x, expected 0x%02x\n", i,
			       g[i], want[i]);
			fails++;
			return;
		}
	}
}

/*
 * The checks, one file per area, in the order of tests[] below: one
 * translation unit, so that they share the harness above.
 */
#include "libvatom_test_host.c"
#include "libvatom_test_host_batch.c"
#include "libvatom_test_device.c"
#include "libvatom_test_device_isa.c"
#include "libvatom_test_device_typed_noc.c"
#include "libvatom_test_async.c"
#include "libvatom_test_queue.c"

struct test {
	const char *name;
	void (*fn)(void);
	bool device;
};

static const struct test tests[] = {
	{ "host: version macros and vatom_version()", host_version, false },
	{ "host: DWORD_ATOMIC.ADD packet bytes", host_dword_atomic_bytes, false },
	{ "host: predicated DWORD_ATOMIC.CMPXCHG.16 (M2_NM) packet bytes",
	  host_dword_atomic16_bytes, false },
	{ "host: 64-bit DWORD_ATOMIC.IMAX (M3) packet bytes", host_dword_atomic64_bytes, false },
	{ "host: TYPED_ATOMIC packet bytes and data types", host_typed_atomic_bytes, false },
	{ "host: ADDC packet bytes (immediate, 32 lanes)", host_addc_bytes, false },
	{ "host: PTX atom packet bytes", host_ptx_bytes, false },
	{ "host: PTX access sizes", host_ptx_access_size, false },
	{ "host: NoC packet bytes", host_noc_bytes, false },
	{ "host: NOC_AT_LEN_BE builders", host_noc_at_len_be, false },
	{ "host: NoC target/return coordinates", host_noc_coordinates, false },
	{ "host: result layout of a mixed batch", host_result_layout, false },
	{ "host: prep argument checking", host_prep_errors, false },
	{ "host: accessors before submission", host_accessors_without_results, false },
	{ "host: stream growth and reset", host_growth_and_reset, false },
	{ "host: reason and op strings", host_strings, false },
	{ "host: job error texts, reset status names and arguments",
	  host_reset_strings, false },
	{ "device: discovery and parameters", dev_discovery, true },
	{ "device: buffer create, map, info", dev_surface_basics, true },
	{ "device: dma-buf export and import", dev_surface_sharing, true },
	{ "device: typed and tile-grid surfaces", dev_other_surface_kinds, true },
	{ "device: DWORD_ATOMIC batch (ADD/CMPXCHG/IMAX/PREDEC/XCHG/INC.16)",
	  dev_dword_atomic_batch, true },
	{ "device: results into a surface", dev_result_surface, true },
	{ "device: user-mode queue (submit, wait, status, results)", dev_queue, true },
	{ "device: polling queue with a timeline syncobj and an eventfd",
	  dev_queue_poll, true },
	{ "device: vatom_queue_wait() blocks on the queue's syncobj",
	  dev_queue_wait_syncobj, true },
	{ "device: rejected packets report index and reason", dev_error_reporting, true },
	{ "device: batch reuse and reset", dev_batch_reuse, true },
	{ "device: result-size disagreement is -EPROTO", dev_result_disagreement, true },
	{ "device: DWORD_ATOMIC on 64-bit data", dev_dword_atomic64, true },
	{ "device: ADDC dst and carry", dev_addc, true },
	{ "device: PTX atom", dev_ptx_atom, true },
	{ "device: TYPED_ATOMIC on a 2D surface", dev_typed_atomic, true },
	{ "device: ISA text lines (vISA, PTX, NoC) assembled and run", dev_asm_lines,
	  true },
	{ "device: NoC increment with response, posted CAS, counters", dev_noc, true },
	{ "host: NoC L1 and counter helpers without a surface", host_noc_helper_errors,
	  false },
	{ "device: NoC L1 helpers and NIU counters (NOC_COUNTERS)", dev_noc_helpers, true },
	{ "host: asynchronous API argument checking", host_fence_errors, false },
	{ "device: asynchronous DWORD_ATOMIC batch, results in a surface",
	  dev_async_batch, true },
	{ "device: fences across devices and vgem, deadlines, cancellation",
	  dev_async_fences, true },
	{ "device: reset status of a fresh file: none, ACK, unknown flags",
	  dev_reset_status, true },
};

int main(int argc, char **argv)
{
	bool host_only = argc > 1 && !strcmp(argv[1], "--host");
	unsigned int i, n = 0, failed = 0;
	int ret;

	if (argc > 1 && !host_only) {
		fprintf(stderr, "usage: %s [--host]\n", argv[0]);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
	printf("# libvatom %s, UAPI %d\n", vatom_version_string(),
	       DRM_VATOM_UAPI_VERSION);
	if (!host_only) {
		ret = vatom_device_open(0, 0, &dev);
		if (ret) {
			printf("Bail out! no vatom device: %s\n", strerror(-ret));
			return 1;
		}
		printf("# device %s, UAPI %u, caps 0x%" PRIx64 "\n",
		       vatom_device_node(dev), vatom_device_uapi_version(dev),
		       vatom_device_caps(dev));
	}
	for (i = 0; i < ARRAY_SIZE(tests); i++) {
		if (tests[i].device && host_only)
			continue;
		fails = 0;
		skip_reason = NULL;
		tests[i].fn();
		n++;
		if (skip_reason)
			printf("ok %u - %s # SKIP %s\n", n, tests[i].name,
			       skip_reason);
		else if (fails)
			printf("not ok %u - %s\n", n, tests[i].name);
		else
			printf("ok %u - %s\n", n, tests[i].name);
		failed += !skip_reason && fails;
	}
	printf("1..%u\n", n);
	vatom_device_close(dev);
	return failed ? 1 : 0;
}
