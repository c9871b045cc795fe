// SPDX-License-Identifier: GPL-2.0
/*
 * vatom selftests: the UAPI of the vatom DRM render node, exercised through
 * the loaded module.
 *
 * kselftest_harness.h keeps its list of tests in static variables, so every
 * test must be in one translation unit: the per-area files below are
 * #included here. The harness runs the plain TEST()s first, in this order,
 * then each FIXTURE's tests in the order the fixtures are declared; the
 * kernel log check is a fixture of the last file, so it runs last.
 *
 * Each test_*.c uses only its own helpers, those defined here (they need
 * the harness), common.h's, queue_common.h's and coredump_common.h's
 * (compiled on their own: common.c, queue_common.c, coredump_common.c)
 * and visa_rows.h's tables: no file depends
 * on another being included first.
 *
 * Expected values come from hand-written tables derived from the ISA text
 * (shared/seeds/000, DWORD_ATOMIC) and the UAPI kernel-doc, never from the
 * device.
 *
 * Copyright (C) 2026 The vatom developers
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <xf86drm.h>

#include "kselftest_harness.h"

#include "common.h"
#include "common_kernel.h"
#include "common_packets.h"
#include "coredump_common.h"

/*
 * Open the device under test, or skip the test when there is none. main()
 * already exits with KSFT_SKIP in that case; this keeps a single test run
 * (or a device that went away) from failing for it.
 */
#define VT_OPEN(fd) do {						\
	(fd) = vt_open();						\
	if ((fd) == -ENODEV)						\
		SKIP(return, "no vatom device");			\
	ASSERT_LE(0, (fd)) TH_LOG("open %s: %s", vt_render_path,	\
				  strerror(-(fd)));			\
} while (0)

/* Expect a failed ioctl with errno @e: EXPECT_EQ(-1, ret); EXPECT_EQ(e, errno). */
#define VT_EXPECT_ERRNO(e, call) do {					\
	int __ret = (call);						\
	int __err = errno;						\
	EXPECT_EQ(-1, __ret);						\
	EXPECT_EQ((e), __err) TH_LOG("%s: errno %d (%s)", #call, __err,	\
				     strerror(__err));			\
} while (0)

/* A surface of @size bytes on @fd, mapped (page-rounded length). */
#define VT_BUFFER(fd, size, handle, map) do {				\
	ASSERT_EQ(0, vt_buffer_create((fd), (size), &(handle)));	\
	(map) = vt_map((fd), (handle), vt_page_round(size));		\
	ASSERT_NE(NULL, (map));						\
} while (0)

/* Result bytes a rejection test offers: more than any stream here needs. */
#define VT_REJECT_RES	1024

/*
 * Submit @s with @nbind bindings and expect failure with errno @err and,
 * for stream errors, @reason at packet @index; a rejected submission writes
 * no results (the buffer is poisoned first). The caller checks memory.
 */
static void vt_expect_reject(struct __test_metadata *_metadata, int fd,
			     const struct vt_stream *s,
			     const struct drm_vatom_binding *bind, __u32 nbind,
			     int err, __u32 index, __u32 reason)
{
	static __u32 res[VT_REJECT_RES / 4];
	struct drm_vatom_submit args;
	int ret, e;

	memset(res, VT_POISON, sizeof(res));
	vt_submit_args(&args, s, bind, nbind, res, sizeof(res));
	ret = vt_submit(fd, &args);
	e = errno;
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(err, e) TH_LOG("errno %d (%s), reason %u, index %u", e,
				 strerror(e), args.error_reason, args.error_index);
	EXPECT_EQ(reason, args.error_reason) TH_LOG("index %u", args.error_index);
	EXPECT_EQ(index, args.error_index);
	EXPECT_EQ(-1, vt_find_ne32(res, 0, VT_ARRAY_SIZE(res), VT_POISON32))
		TH_LOG("a rejected submission wrote the results");
}

/*
 * Submit @s and expect success with results_needed equal to what the
 * stream builder counted; results go to @res (@size bytes).
 */
static void vt_expect_ok(struct __test_metadata *_metadata, int fd,
			 const struct vt_stream *s,
			 const struct drm_vatom_binding *bind, __u32 nbind,
			 void *res, __u64 size)
{
	struct drm_vatom_submit args;

	vt_submit_args(&args, s, bind, nbind, res, size);
	ASSERT_EQ(0, vt_submit(fd, &args))
		TH_LOG("errno %d (%s), reason %u, index %u", errno,
		       strerror(errno), args.error_reason, args.error_index);
	EXPECT_EQ(DRM_VATOM_ERR_NONE, args.error_reason);
	EXPECT_EQ(s->results, args.results_needed);
}

#include "test_device.c"
#include "test_surface.c"
#include "test_visa.c"
#include "test_visa_edges.c"
#include "test_errors.c"
#include "test_errors_submit.c"
#include "test_concurrency.c"
#include "test_typed.c"
#include "test_typed_ops.c"
#include "test_typed_desc.c"
#include "test_addc.c"
#include "test_ptx.c"
#include "test_ptx_float.c"
#include "test_ptx_rules.c"
#include "test_noc.c"
#include "test_noc_variants.c"
#include "test_noc_counters.c"
#include "test_noc_rejects.c"
#include "test_mixed.c"
#include "test_async.c"
#include "test_async_deps.c"
#include "test_async_cancel.c"
#include "test_async_limits.c"
#include "test_abuse.c"
#include "test_observe.c"
#include "test_observe_trace.c"
#include "test_validate.c"
#include "test_queue.c"
#include "test_queue_life.c"
#include "test_queue_poll.c"
#include "test_queue_poll_run.c"
#include "test_queue_poll_life.c"
#include "test_queue_poll_hostile.c"
#include "test_queue_signal.c"
#include "test_queue_poll_shared.c"
#include "test_reset.c"
#include "test_reset_effects.c"
#include "test_coredump.c"
#include "test_unbind.c"
#include "test_kmsg.c"

int main(int argc, char **argv)
{
	char paths[VT_MAX_NODES][VT_PATH_MAX];
	char marker[128];
	int n;

	/*
	 * Find the device the way applications do; fall back to scanning
	 * /dev/dri so that a libdrm enumeration problem fails the discovery
	 * test instead of skipping everything.
	 */
	n = vt_find_devices("vatom", paths, VT_MAX_NODES);
	if (n <= 0)
		n = vt_scan_nodes("vatom", "renderD", paths, VT_MAX_NODES);
	if (n <= 0) {
		ksft_print_header();
		ksft_exit_skip("no vatom device (is vatom.ko loaded?)\n");
	}
	snprintf(vt_render_path, sizeof(vt_render_path), "%s", paths[0]);

	snprintf(marker, sizeof(marker), "vatom_test: start (pid %d, %s)\n",
		 getpid(), vt_render_path);
	vt_kmsg_mark(marker);
	vt_kmsg_start_seq = vt_kmsg_last_seq();

	return test_harness_run(argc, argv);
}
