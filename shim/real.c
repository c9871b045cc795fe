// SPDX-License-Identifier: MIT
/*
 * real.c: libc's own calls, past the shim's entry points: the pointers
 * behind REAL() and the shim_real_*() of real.h, looked up by name with
 * dlsym(RTLD_NEXT), the next object after the shim, libc.
 */
#undef _FORTIFY_SOURCE
#undef _FILE_OFFSET_BITS
#undef _TIME_BITS

#include <dlfcn.h>

#include "real.h"

/**
 * shim_dlsym() - libc's @name, past the shim's own
 * @name: the call
 *
 * Return: its address; aborts when libc has none.
 */
void *shim_dlsym(const char *name)
{
	void *p = dlsym(RTLD_NEXT, name);

	if (!p) {
		fprintf(stderr, "libvatom-shim: libc has no %s\n", name);
		abort();
	}
	return p;
}

/* real_<fn>_p, for REAL() */
#define REAL_DEFINE(fn)	__typeof__(fn) *real_##fn##_p;
#define REAL_LOOKUP(fn)							\
	__atomic_store_n(&real_##fn##_p,				\
			 (__typeof__(fn) *)dlsym(RTLD_NEXT, #fn),	\
			 __ATOMIC_RELAXED);

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"	/* sigset... */
SHIM_REAL_CALLS(REAL_DEFINE)

/**
 * shim_real_init() - look every call up now, before any is needed
 *
 * Called by the library's constructor; one that libc lacks stays NULL,
 * and aborts on first use (shim_dlsym()).
 */
void shim_real_init(void)
{
	SHIM_REAL_CALLS(REAL_LOOKUP)
}
#pragma GCC diagnostic pop

/* The shim's own calls past its entry points: shim.h */

int shim_real_close(int fd)
{
	return REAL(close)(fd);
}

void *shim_real_mmap(void *addr, size_t len, int prot, int flags, int fd,
		     off_t off)
{
	return REAL(mmap)(addr, len, prot, flags, fd, off);
}

int shim_real_fcntl_dupfd(int fd, int min, bool cloexec)
{
	return REAL(fcntl)(fd, cloexec ? F_DUPFD_CLOEXEC : F_DUPFD, min);
}

int shim_real_fcntl(int fd, int cmd, int arg)
{
	return REAL(fcntl)(fd, cmd, arg);
}

ssize_t shim_real_write(int fd, const void *buf, size_t len)
{
	return REAL(write)(fd, buf, len);
}

ssize_t shim_real_readlink(const char *path, char *buf, size_t len)
{
	return REAL(readlink)(path, buf, len);
}

int shim_real_sigaction(int sig, const struct sigaction *act,
			struct sigaction *old)
{
	return REAL(sigaction)(sig, act, old);
}
