// SPDX-License-Identifier: MIT
/*
 * preload_fd.c: the calls that make, copy and close descriptors:
 * open(), open64(), openat(), openat64() and their _FORTIFY_SOURCE forms,
 * which open a node of the tree (vnode_open()) where the path resolves to
 * one; close(), close_range(), closefrom(); dup(), dup2(), dup3() and
 * fcntl(), fcntl64() with F_DUPFD*. libc does the work; the descriptor
 * table (fdtable.c) follows it, so that a copy stands for what its
 * original stood for and the last close() releases it. The shim's own
 * descriptors (shim_fd_private_dup()) are out of the process's reach:
 * these calls fail on them as on a number not open, and pass over them.
 *
 * A file of preload.c's kind: it defines libc's symbols, and is left out
 * of a program that does not interpose libc.
 */
#undef _FORTIFY_SOURCE
#undef _FILE_OFFSET_BITS
#undef _TIME_BITS

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <unistd.h>

#include "preload_internal.h"

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
	return fd_close_range(first, last, flags, REAL(close_range));
}

/* closefrom()'s pieces: the last one, to the end, is closefrom() itself */
static int closefrom_piece(unsigned int first, unsigned int last, int flags)
{
	if (last != ~0u)
		return REAL(close_range)(first, last, flags);
	REAL(closefrom)(first);
	return 0;
}

SHIM_EXPORT void closefrom(int lowfd)
{
	fd_close_range(lowfd < 0 ? 0 : lowfd, ~0u, 0, closefrom_piece);
}

/*
 * The shim's own descriptors are not open, as far as the process can
 * tell: not to be copied (EBADF), nor replaced (EBUSY, dup2()'s answer
 * for a number another call is making).
 */
static int dup_refused(int oldfd, int newfd)
{
	if (unlikely(fd_is_private(oldfd)))
		return fail(EBADF);
	if (unlikely(newfd >= 0 && fd_is_private(newfd)))
		return fail(EBUSY);
	return 0;
}

SHIM_EXPORT int dup(int oldfd)
{
	int fd = dup_refused(oldfd, -1) ?: REAL(dup)(oldfd);

	return fd < 0 ? fd : fd_dup(oldfd, fd);
}

SHIM_EXPORT int dup2(int oldfd, int newfd)
{
	int fd = dup_refused(oldfd, newfd) ?: REAL(dup2)(oldfd, newfd);

	return fd < 0 ? fd : fd_dup(oldfd, fd);
}

SHIM_EXPORT int dup3(int oldfd, int newfd, int flags)
{
	int fd = dup_refused(oldfd, newfd) ?: REAL(dup3)(oldfd, newfd, flags);

	return fd < 0 ? fd : fd_dup(oldfd, fd);
}

static int shim_fcntl(__typeof__(fcntl) *real, int fd, int cmd, void *arg)
{
	int ret;

	if (unlikely(fd_is_private(fd)))
		return fail(EBADF);
	ret = real(fd, cmd, arg);

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
