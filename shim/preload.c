// SPDX-License-Identifier: MIT
/*
 * preload.c: the libc side of libvatom-shim.so.
 *
 * Preloaded, the shim takes over the libc calls through which a program
 * (libdrm, Mesa's loader, the program itself) finds, opens and drives a
 * DRM device, and answers those that concern the vatom nodes it presents;
 * everything else goes straight to libc. The pieces:
 *
 *   preload.c      these entry points: open(), close(), dup(), fcntl();
 *                  the real libc calls (REAL()); the constructor
 *   preload_io.c   ioctl(), mmap() and write() of a descriptor of ours
 *   preload_signal.c
 *                  sigaction() and signal(), for SIGSEGV and SIGBUS
 *   preload_fs.c   the entry points that look at files by name: stat(),
 *                  access(), readlink(), realpath(), xattrs, fopen(),
 *                  the <dirent.h> calls
 *   vfs.c          the tree of fake files (/dev/dri, sysfs, the module
 *                  parameters) and the path walk
 *   vnode.c        what the tree's files answer, their descriptors and
 *                  directory streams
 *   fdtable.c      the descriptor table: every descriptor that stands
 *                  for a shim object, with dup() semantics and a release
 *                  on the last close()
 *   fault.c        copy_from_user() and copy_to_user(), by a SIGSEGV and
 *                  SIGBUS handler that stays first in line whatever
 *                  handlers the program installs
 *   devices.c      shim_num_devices(): $VATOM_SHIM_DEVICES
 *
 * Only the preload*.c files define libc's symbols or use REAL(): the
 * others link into a program that does not interpose libc (a static test
 * program with file.c and the engine). Their libc calls past the
 * shim's own entry points are shim_real_close(), shim_real_mmap(),
 * shim_real_fcntl_dupfd(), shim_real_fcntl() and shim_real_sigaction():
 * weak defaults there that call libc, overridden here by ones that call
 * libc's own, looked up with dlsym(RTLD_NEXT).
 *
 * The calls taken over: open(), open64(), openat(), openat64() and their
 * _FORTIFY_SOURCE forms; close(), close_range(), closefrom(); dup(),
 * dup2(), dup3(), fcntl(), fcntl64(); ioctl(), mmap(), mmap64(); write();
 * the stat() family, old (__xstat() and the like) and new, with statx();
 * access(), faccessat(), readlink(), readlinkat(), realpath(),
 * __realpath_chk(), canonicalize_file_name(); the xattr getters; fopen(),
 * fopen64(), fclose(); the <dirent.h> calls; sigaction(), signal() and
 * its variants, for SIGSEGV and SIGBUS. libdrm's own imports are among
 * them: fopen64, fstat64, ioctl, mmap64, open64, opendir, readdir64,
 * readlink, realpath/__realpath_chk, stat64, access, close.
 *
 * Only absolute paths (and paths relative to a descriptor of one of the
 * fake directories) reach the tree; a relative path against the working
 * directory goes to libc as it is. scandir() and anything else that opens
 * directories inside libc see the real file system. A descriptor closed
 * behind the shim's back (a raw syscall) leaves a stale entry, dropped
 * when libc hands out the number again through a call the shim sees.
 *
 * VATOM_SHIM_DEVICES: how many devices (1..16, default 1).
 * VATOM_SHIM_DEBUG=1: a line on stderr for each call the tree answers.
 */
#undef _FORTIFY_SOURCE
#undef _FILE_OFFSET_BITS
#undef _TIME_BITS

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "fault.h"
#include "preload_internal.h"

/* ------------------------------------------------------------------ */
/* The real libc calls                                                  */
/* ------------------------------------------------------------------ */

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

/* real_<fn>_p, for REAL() (preload_internal.h) */
#define REAL_DEFINE(fn)	__typeof__(fn) *real_##fn##_p;
#define REAL_LOOKUP(fn)							\
	__atomic_store_n(&real_##fn##_p,				\
			 (__typeof__(fn) *)dlsym(RTLD_NEXT, #fn),	\
			 __ATOMIC_RELAXED);

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"	/* sigset... */
SHIM_REAL_CALLS(REAL_DEFINE)

static void real_lookup_all(void)
{
	SHIM_REAL_CALLS(REAL_LOOKUP)
}
#pragma GCC diagnostic pop

/*
 * libc, uninterposed, for the rest of the shim: these override the weak
 * defaults of fdtable.c and fault.c, which call libc and so, in a
 * preloaded library, would call the shim's own entry points.
 */

/**
 * shim_real_close() - libc's own close()
 * @fd: a descriptor the shim holds for itself and never tracked
 *
 * Return: as close().
 */
int shim_real_close(int fd)
{
	return REAL(close)(fd);
}

/**
 * shim_real_mmap() - libc's own mmap()
 * @addr: as mmap()'s
 * @len: as mmap()'s
 * @prot: as mmap()'s
 * @flags: as mmap()'s
 * @fd: as mmap()'s
 * @off: as mmap()'s
 *
 * Return: as mmap().
 */
void *shim_real_mmap(void *addr, size_t len, int prot, int flags, int fd,
		     off_t off)
{
	return REAL(mmap)(addr, len, prot, flags, fd, off);
}

/**
 * shim_real_fcntl_dupfd() - libc's own fcntl(F_DUPFD or F_DUPFD_CLOEXEC)
 * @fd: the descriptor
 * @min: the lowest number the copy may take
 * @cloexec: F_DUPFD_CLOEXEC
 *
 * Return: as fcntl().
 */
int shim_real_fcntl_dupfd(int fd, int min, bool cloexec)
{
	return REAL(fcntl)(fd, cloexec ? F_DUPFD_CLOEXEC : F_DUPFD, min);
}

/**
 * shim_real_fcntl() - libc's own fcntl(), with an int argument
 * @fd: the descriptor
 * @cmd: the command
 * @arg: its argument
 *
 * Return: as fcntl().
 */
int shim_real_fcntl(int fd, int cmd, int arg)
{
	return REAL(fcntl)(fd, cmd, arg);
}

/**
 * shim_real_sigaction() - libc's own sigaction()
 * @sig: the signal
 * @act: the new action, or NULL
 * @old: the old one, or NULL
 *
 * Return: as sigaction().
 */
int shim_real_sigaction(int sig, const struct sigaction *act,
			struct sigaction *old)
{
	return REAL(sigaction)(sig, act, old);
}

/* ------------------------------------------------------------------ */
/* open()                                                               */
/* ------------------------------------------------------------------ */

static int open_node(const char *fn, const char *path,
		     const struct vnode *v, int flags)
{
	int fd;

	trace(fn, path, v->path);
	fd = vnode_open(v, flags);
	return fd < 0 ? fail(-fd) : fd;
}

/* A name of ours that is not there cannot be created either. */
static int open_fail(int err, int flags)
{
	return fail(err == -ENOENT && (flags & O_CREAT) ? EACCES : -err);
}

#define OPEN_MODE(flags)						\
	({								\
		mode_t m_ = 0;						\
		va_list ap_;						\
									\
		if (__OPEN_NEEDS_MODE(flags)) {				\
			va_start(ap_, flags);				\
			m_ = va_arg(ap_, mode_t);			\
			va_end(ap_);					\
		}							\
		m_;							\
	})

SHIM_EXPORT int open(const char *path, int flags, ...)
{
	mode_t mode = OPEN_MODE(flags);
	struct vres r;
	int k = at_resolve(AT_FDCWD, &path, !(flags & O_NOFOLLOW), &r);

	if (k == VR_NODE)
		return open_node("open", path, r.node, flags);
	if (k < 0)
		return open_fail(k, flags);
	return fd_fresh(REAL_CALL(r, REAL(open)(path, flags, mode)));
}

SHIM_EXPORT int open64(const char *path, int flags, ...)
{
	mode_t mode = OPEN_MODE(flags);
	struct vres r;
	int k = at_resolve(AT_FDCWD, &path, !(flags & O_NOFOLLOW), &r);

	if (k == VR_NODE)
		return open_node("open64", path, r.node, flags);
	if (k < 0)
		return open_fail(k, flags);
	return fd_fresh(REAL_CALL(r, REAL(open64)(path, flags, mode)));
}

SHIM_EXPORT int openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = OPEN_MODE(flags);
	struct vres r;
	int k = at_resolve(dirfd, &path, !(flags & O_NOFOLLOW), &r);

	if (k == VR_NODE)
		return open_node("openat", path, r.node, flags);
	if (k < 0)
		return open_fail(k, flags);
	return fd_fresh(REAL_CALL(r, REAL(openat)(dirfd, path, flags, mode)));
}

SHIM_EXPORT int openat64(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = OPEN_MODE(flags);
	struct vres r;
	int k = at_resolve(dirfd, &path, !(flags & O_NOFOLLOW), &r);

	if (k == VR_NODE)
		return open_node("openat64", path, r.node, flags);
	if (k < 0)
		return open_fail(k, flags);
	return fd_fresh(REAL_CALL(r, REAL(openat64)(dirfd, path, flags, mode)));
}

/* _FORTIFY_SOURCE's open()s, for calls without a mode */
SHIM_EXPORT int __open_2(const char *path, int flags)
{
	struct vres r;
	int k = at_resolve(AT_FDCWD, &path, !(flags & O_NOFOLLOW), &r);

	if (k == VR_NODE && !__OPEN_NEEDS_MODE(flags))
		return open_node("__open_2", path, r.node, flags);
	if (k < 0 && !__OPEN_NEEDS_MODE(flags))
		return open_fail(k, flags);
	return fd_fresh(REAL_CALL(r, REAL(__open_2)(path, flags)));
}

SHIM_EXPORT int __open64_2(const char *path, int flags)
{
	struct vres r;
	int k = at_resolve(AT_FDCWD, &path, !(flags & O_NOFOLLOW), &r);

	if (k == VR_NODE && !__OPEN_NEEDS_MODE(flags))
		return open_node("__open64_2", path, r.node, flags);
	if (k < 0 && !__OPEN_NEEDS_MODE(flags))
		return open_fail(k, flags);
	return fd_fresh(REAL_CALL(r, REAL(__open64_2)(path, flags)));
}

SHIM_EXPORT int __openat_2(int dirfd, const char *path, int flags)
{
	struct vres r;
	int k = at_resolve(dirfd, &path, !(flags & O_NOFOLLOW), &r);

	if (k == VR_NODE && !__OPEN_NEEDS_MODE(flags))
		return open_node("__openat_2", path, r.node, flags);
	if (k < 0 && !__OPEN_NEEDS_MODE(flags))
		return open_fail(k, flags);
	return fd_fresh(REAL_CALL(r, REAL(__openat_2)(dirfd, path, flags)));
}

SHIM_EXPORT int __openat64_2(int dirfd, const char *path, int flags)
{
	struct vres r;
	int k = at_resolve(dirfd, &path, !(flags & O_NOFOLLOW), &r);

	if (k == VR_NODE && !__OPEN_NEEDS_MODE(flags))
		return open_node("__openat64_2", path, r.node, flags);
	if (k < 0 && !__OPEN_NEEDS_MODE(flags))
		return open_fail(k, flags);
	return fd_fresh(REAL_CALL(r, REAL(__openat64_2)(dirfd, path, flags)));
}

/* ------------------------------------------------------------------ */
/* close(), dup() and fcntl()                                           */
/* ------------------------------------------------------------------ */

SHIM_EXPORT int close(int fd)
{
	return fd_close(fd);
}

SHIM_EXPORT int close_range(unsigned int first, unsigned int last,
			    int flags)
{
	struct shim_obj *list = NULL;
	int ret;

	/* CLOSE_RANGE_CLOEXEC only marks them; EINVAL closes nothing */
	if (first <= last && !(flags & ~(int)CLOSE_RANGE_UNSHARE))
		list = fd_clear_range(first, last);
	ret = REAL(close_range)(first, last, flags);
	obj_release(list);
	return ret;
}

SHIM_EXPORT void closefrom(int lowfd)
{
	struct shim_obj *list = fd_clear_range(lowfd < 0 ? 0 : lowfd, ~0u);

	REAL(closefrom)(lowfd);
	obj_release(list);
}

SHIM_EXPORT int dup(int oldfd)
{
	int fd = REAL(dup)(oldfd);

	return fd < 0 ? fd : fd_dup(oldfd, fd);
}

SHIM_EXPORT int dup2(int oldfd, int newfd)
{
	int fd = REAL(dup2)(oldfd, newfd);

	return fd < 0 ? fd : fd_dup(oldfd, fd);
}

SHIM_EXPORT int dup3(int oldfd, int newfd, int flags)
{
	int fd = REAL(dup3)(oldfd, newfd, flags);

	return fd < 0 ? fd : fd_dup(oldfd, fd);
}

static int shim_fcntl(__typeof__(fcntl) *real, int fd, int cmd, void *arg)
{
	int ret = real(fd, cmd, arg);

	if ((cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC) && ret >= 0)
		ret = fd_dup(fd, ret);
	return ret;
}

/*
 * fcntl()'s third argument is an int or a pointer, or absent: as glibc
 * does, take a pointer's worth and pass it on.
 */
SHIM_EXPORT int fcntl(int fd, int cmd, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	return shim_fcntl(REAL(fcntl), fd, cmd, arg);
}

SHIM_EXPORT int fcntl64(int fd, int cmd, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	return shim_fcntl(REAL(fcntl64), fd, cmd, arg);
}

/* ------------------------------------------------------------------ */
/* Start-up                                                             */
/* ------------------------------------------------------------------ */

/* A fork() child calls close() and the like: no lock may stay held. */
static void shim_atfork_prepare(void)
{
	vdir_fork_prepare();
	fd_fork_prepare();
	fault_fork_prepare();
}

static void shim_atfork_release(void)
{
	fault_fork_release();
	fd_fork_release();
	vdir_fork_release();
}

__attribute__((constructor)) static void shim_init(void)
{
	const char *s = getenv("VATOM_SHIM_DEBUG");

	shim_debug = s && *s && strcmp(s, "0");
	real_lookup_all();
	vfs_init();
	fault_init();
	pthread_atfork(shim_atfork_prepare, shim_atfork_release,
		       shim_atfork_release);
}
