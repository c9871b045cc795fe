// SPDX-License-Identifier: MIT
/*
 * preload_test.c: preload.c's tests, on the host, without the rest of the
 * shim. Two builds (shim/test/preload_test.sh):
 *
 *  - preload_test_stub.c, into a test shim with preload.c: a stub of
 *    file.c's four functions (an ioctl that answers a ping and VERSION,
 *    an mmap of anonymous memory, counters of opens and releases), and
 *    preload_test_hooks(), through which the program reaches the shim's
 *    internal calls and the counters;
 *  - this file and the preload_test_*.c of the checks, into the program,
 *    run with LD_PRELOAD=that shim. It prints TAP, one line per check,
 *    the plan last.
 *
 * The program's checks: the fake /dev/dri and sysfs (for the number of
 * devices $PRELOAD_TEST_DEVICES says to expect; preload_test_fs.c),
 * open/fstat/ioctl/mmap of a node reaching the stub, dup() and friends
 * sharing one file with one release, shim_fd_track() (preload_test_fd.c),
 * shim_copy_in()/shim_copy_out() against unmapped and read-only memory,
 * the program's own SIGSEGV/SIGBUS handlers (one installed before the
 * shim, others after) getting their faults (preload_test_fault.c), and
 * libdrm's discovery and naming calls on the result
 * (preload_test_libdrm.c). Here: main(), which runs them in that order,
 * the TAP output and the helpers they share.
 */

#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "preload_test.h"

const struct preload_test_hooks *h;
struct stub_stats *st;
unsigned int ndev;
static const char *tag;
static int ntests, nfailed;

bool ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - %s: ", cond ? "" : "not ", ++ntests, tag);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond)
		nfailed++;
	fflush(stdout);
	return cond;
}

void diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

bool is_rdev(const struct stat *s, unsigned int minor)
{
	return S_ISCHR(s->st_mode) && major(s->st_rdev) == SHIM_DRM_MAJOR &&
	       minor(s->st_rdev) == minor;
}

int open_render(unsigned int i)
{
	char path[64];

	snprintf(path, sizeof(path), "/dev/dri/renderD%u",
		 SHIM_RENDER_MINOR_BASE + i);
	return open(path, O_RDWR | O_CLOEXEC);
}

int main(void)
{
	const struct preload_test_hooks *(*get)(void);
	const char *e = getenv("PRELOAD_TEST_DEVICES");
	static char tagbuf[64];

	e = getenv("VATOM_SHIM_DEVICES");
	snprintf(tagbuf, sizeof(tagbuf), "VATOM_SHIM_DEVICES=%s",
		 e ? e : "(unset)");
	tag = tagbuf;
	e = getenv("PRELOAD_TEST_DEVICES");
	ndev = e ? atoi(e) : 1;

	get = (__typeof__(get))dlsym(RTLD_DEFAULT, "preload_test_hooks");
	if (!ok(get, "the test shim is preloaded")) {
		printf("1..%d\n", ntests);
		return 1;
	}
	h = get();
	st = h->stats;

	ok(h->num_devices() == ndev, "shim_num_devices() = %u, want %u",
	   h->num_devices(), ndev);
	test_dev_dri();
	test_sysfs();
	test_open_ioctl();
	test_dup();
	test_track();
	test_mmap();
	test_private();
	test_passthrough();
	test_copy();
	test_copy_sizes();
	test_copy_out_probe();
	test_copy_stream();
	test_signals();
	test_threads();
	test_libdrm();
	ok(st->opens == st->puts, "every file opened was released (%d, %d)",
	   st->opens, st->puts);

	printf("1..%d\n", ntests);
	return nfailed ? 1 : 0;
}
