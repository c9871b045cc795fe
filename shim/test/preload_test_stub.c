// SPDX-License-Identifier: MIT
/*
 * preload_test_stub.c: the stub file.c of preload.c's host test, built
 * with preload.c and the rest of the libc side into the test shim
 * (shim/test/preload_test.sh): file.c's four functions (an ioctl that
 * answers a ping and VERSION, an mmap of anonymous memory, counters of
 * opens and releases), the module parameters' files, a SIGSEGV handler
 * installed before the shim's, and preload_test_hooks(), through which
 * the program (preload_test.c) reaches the shim's internal calls and the
 * counters.
 */

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "preload_test.h"

struct shim_file {
	unsigned int minor;
	unsigned int refs;
};

static struct stub_stats stats;

int shim_file_open(unsigned int minor, struct shim_file **out)
{
	unsigned int n = shim_num_devices();
	struct shim_file *f;

	if (!(minor < n || (minor >= SHIM_RENDER_MINOR_BASE &&
			    minor < SHIM_RENDER_MINOR_BASE + n)))
		return -ENODEV;
	f = malloc(sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->minor = minor;
	f->refs = 1;
	__atomic_add_fetch(&stats.opens, 1, __ATOMIC_SEQ_CST);
	stats.last_minor = minor;
	stats.last_opened = f;
	*out = f;
	return 0;
}

/*
 * The stub counts opens and releases; the references of calls in flight
 * (preload_io.c takes one around each ioctl() and mmap()) are not counted.
 */
struct shim_file *shim_file_get(struct shim_file *f)
{
	__atomic_add_fetch(&f->refs, 1, __ATOMIC_SEQ_CST);
	return f;
}

void shim_file_put(struct shim_file *f)
{
	if (__atomic_sub_fetch(&f->refs, 1, __ATOMIC_SEQ_CST))
		return;
	__atomic_add_fetch(&stats.puts, 1, __ATOMIC_SEQ_CST);
	free(f);
}

/* The module parameters' files: one stub parameter, kept here. */
const struct shim_param shim_params[SHIM_NUM_PARAMS] = {
	{ "job_timeout_ms", true }, { "p1", false }, { "p2", false },
	{ "p3", false }, { "p4", false }, { "p5", false }, { "p6", false },
};
static unsigned int stub_param = 10000;

int shim_param_show(const char *name, char *buf, size_t len)
{
	return snprintf(buf, len, "%u\n", strcmp(name, "job_timeout_ms") ? 0 :
		       __atomic_load_n(&stub_param, __ATOMIC_SEQ_CST));
}

int shim_param_store(const char *name, const char *buf, size_t len)
{
	if (strcmp(name, "job_timeout_ms"))
		return -EPERM;
	if (!len || buf[0] < '0' || buf[0] > '9')
		return -EINVAL;
	__atomic_store_n(&stub_param, (unsigned int)atoi(buf), __ATOMIC_SEQ_CST);
	return 0;
}

/* A string of DRM_IOCTL_VERSION, as drm_copy_field() copies one. */
static int copy_field(uint64_t ubuf, __kernel_size_t *ulen, const char *s)
{
	size_t len = strlen(s), n = len < *ulen ? len : *ulen;

	*ulen = len;
	if (n && ubuf)
		return shim_copy_out((void *)(uintptr_t)ubuf, s, n);
	return 0;
}

int shim_file_ioctl(struct shim_file *f, unsigned long request, void *arg)
{
	struct drm_version v;
	struct test_ping p;
	int ret;

	stats.last_file = f;
	stats.last_req = request;
	stats.last_arg = arg;
	switch (request) {
	case TEST_IOCTL_PING:
		ret = shim_copy_in(&p, arg, sizeof(p));
		if (ret)
			return ret;
		p.out = p.in ^ PING_XOR;
		return shim_copy_out(arg, &p, sizeof(p));
	case TEST_IOCTL_FAIL:
		return -EINVAL;
	case DRM_IOCTL_VERSION:
		ret = shim_copy_in(&v, arg, sizeof(v));
		if (ret)
			return ret;
		v.version_major = 1;
		v.version_minor = 0;
		v.version_patchlevel = 0;
		ret = copy_field((uintptr_t)v.name, &v.name_len, "vatom");
		ret = ret ?: copy_field((uintptr_t)v.date, &v.date_len, "0");
		ret = ret ?: copy_field((uintptr_t)v.desc, &v.desc_len,
					"stub");
		return ret ?: shim_copy_out(arg, &v, sizeof(v));
	default:
		return -ENOTTY;
	}
}

void *shim_file_mmap(struct shim_file *f, void *addr, size_t len, int prot,
		     int flags, off_t offset)
{
	stats.mmaps++;
	stats.mmap_file = f;
	stats.mmap_off = offset;
	return shim_real_mmap(addr, len, prot,
			      (flags & MAP_FIXED) | MAP_PRIVATE | MAP_ANONYMOUS,
			      -1, 0);
}

/* The program's SIGSEGV handler from before the shim's constructor ran */
static void early_handler(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	(void)uc;
	_exit(41);
}

/*
 * Runs before preload.c's constructor (a lower priority runs first) and
 * installs with libc's own sigaction(), as a library loaded before the
 * shim would.
 */
__attribute__((constructor(101))) static void stub_early(void)
{
	int (*real_sigaction)(int, const struct sigaction *,
			      struct sigaction *);
	struct sigaction sa = {
		.sa_sigaction = early_handler,
		.sa_flags = SA_SIGINFO,
	};

	real_sigaction = (__typeof__(real_sigaction))dlsym(RTLD_NEXT,
							   "sigaction");
	sigemptyset(&sa.sa_mask);
	if (real_sigaction)
		real_sigaction(SIGSEGV, &sa, NULL);
}

static const struct preload_test_hooks hooks = {
	.num_devices = shim_num_devices,
	.fd_track = shim_fd_track,
	.fd_lookup = shim_fd_lookup,
	.copy_in = shim_copy_in,
	.copy_out = shim_copy_out,
	.copy_out_probe = shim_copy_out_probe,
	.copy_in_stream = shim_copy_in_stream,
	.real_close = shim_real_close,
	.real_fcntl_dupfd = shim_real_fcntl_dupfd,
	.private_dup = shim_fd_private_dup,
	.private_close = shim_fd_private_close,
	.fd_is_open = shim_fd_is_open,
	.early_handler = early_handler,
	.stats = &stats,
};

SHIM_EXPORT const struct preload_test_hooks *preload_test_hooks(void);

SHIM_EXPORT const struct preload_test_hooks *preload_test_hooks(void)
{
	return &hooks;
}
