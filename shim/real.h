/* SPDX-License-Identifier: MIT */
/*
 * real.h: libc's own calls, past the shim's entry points (real.c).
 *
 * Preloaded, the shim defines close(), mmap(), write(), readlink() and the
 * rest of SHIM_REAL_CALLS(): a call by those names from inside the shim
 * would come back to the shim. Every file that needs libc's own reaches
 * it here: the entry points (preload*.c) through REAL(), the rest of the
 * shim (the descriptor table, the fault catching, the eventfds, the
 * surfaces' memory) through shim.h's shim_real_*(), which real.c defines
 * with REAL(). One pointer per call, looked up with dlsym(RTLD_NEXT):
 * nothing here calls libc by those names.
 */
#ifndef _VATOM_SHIM_REAL_H_
#define _VATOM_SHIM_REAL_H_

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/xattr.h>

#include "shim.h"

/* libc entry points that glibc 2.36's headers no longer (or never) declare */
SHIM_EXPORT int __open_2(const char *path, int flags);
SHIM_EXPORT int __open64_2(const char *path, int flags);
SHIM_EXPORT int __openat_2(int dirfd, const char *path, int flags);
SHIM_EXPORT int __openat64_2(int dirfd, const char *path, int flags);
SHIM_EXPORT int __xstat(int ver, const char *path, struct stat *st);
SHIM_EXPORT int __xstat64(int ver, const char *path, struct stat64 *st);
SHIM_EXPORT int __lxstat(int ver, const char *path, struct stat *st);
SHIM_EXPORT int __lxstat64(int ver, const char *path, struct stat64 *st);
SHIM_EXPORT int __fxstat(int ver, int fd, struct stat *st);
SHIM_EXPORT int __fxstat64(int ver, int fd, struct stat64 *st);
SHIM_EXPORT int __fxstatat(int ver, int dirfd, const char *path,
			   struct stat *st, int flags);
SHIM_EXPORT int __fxstatat64(int ver, int dirfd, const char *path,
			     struct stat64 *st, int flags);
SHIM_EXPORT char *__realpath_chk(const char *path, char *resolved,
				 size_t resolved_len);
SHIM_EXPORT int __sigaction(int sig, const struct sigaction *act,
			    struct sigaction *old);
SHIM_EXPORT sighandler_t bsd_signal(int sig, sighandler_t handler);

/* Every libc call the shim takes over, for REAL(). */
#define SHIM_REAL_CALLS(X)						\
	X(open) X(open64) X(openat) X(openat64)				\
	X(__open_2) X(__open64_2) X(__openat_2) X(__openat64_2)		\
	X(close) X(close_range) X(closefrom)				\
	X(dup) X(dup2) X(dup3) X(fcntl) X(fcntl64)			\
	X(ioctl) X(mmap) X(mmap64) X(write)				\
	X(stat) X(stat64) X(lstat) X(lstat64) X(fstat) X(fstat64)	\
	X(fstatat) X(fstatat64) X(statx)				\
	X(__xstat) X(__xstat64) X(__lxstat) X(__lxstat64)		\
	X(__fxstat) X(__fxstat64) X(__fxstatat) X(__fxstatat64)		\
	X(access) X(faccessat) X(readlink) X(readlinkat)		\
	X(getxattr) X(lgetxattr) X(fgetxattr)				\
	X(listxattr) X(llistxattr) X(flistxattr)			\
	X(realpath) X(__realpath_chk) X(canonicalize_file_name)		\
	X(fopen) X(fopen64) X(fclose)					\
	X(opendir) X(fdopendir) X(closedir) X(readdir) X(readdir64)	\
	X(readdir_r) X(readdir64_r) X(rewinddir) X(telldir) X(seekdir)	\
	X(dirfd)							\
	X(sigaction) X(__sigaction) X(signal) X(bsd_signal)		\
	X(sysv_signal) X(__sysv_signal) X(sigset)

void *shim_dlsym(const char *name);
void shim_real_init(void);

/*
 * real_<fn>: looked up by the constructor (preload.c's, through
 * shim_real_init()), so that no dlsym() runs later (in a signal handler,
 * say); and again on first use for a call that comes before it (another
 * preloaded library's constructor) or in a program that links the shim's
 * files without preload.c (the syncobjs' host test). Two threads looking
 * up at once store the same pointer. A call libc lacks aborts when it is
 * used, not before.
 */
#define REAL_DECLARE(fn)						\
	extern __typeof__(fn) *real_##fn##_p;				\
	static inline __attribute__((unused)) __typeof__(fn) *real_##fn(void) \
	{								\
		__typeof__(fn) *p;					\
									\
		p = __atomic_load_n(&real_##fn##_p, __ATOMIC_RELAXED);	\
		if (__builtin_expect(!p, 0)) {				\
			p = (__typeof__(fn) *)shim_dlsym(#fn);		\
			__atomic_store_n(&real_##fn##_p, p,		\
					 __ATOMIC_RELAXED);		\
		}							\
		return p;						\
	}
#define REAL(fn)	(real_##fn())

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"	/* sigset... */
SHIM_REAL_CALLS(REAL_DECLARE)
#pragma GCC diagnostic pop

#endif /* _VATOM_SHIM_REAL_H_ */
