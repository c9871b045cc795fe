// SPDX-License-Identifier: MIT
/*
 * preload_fs.c: the libc calls through which a program looks at files
 * and directories by name, interposed for the tree of fake files: the
 * stat() family, old (__xstat() and the like) and new, with statx();
 * access(), faccessat(), readlink(), readlinkat(); the xattr getters;
 * realpath(), __realpath_chk(), canonicalize_file_name(); fopen(),
 * fopen64(), fclose(); the <dirent.h> calls.
 *
 * Each walks its path with at_resolve() (vfs.h): a node of ours is
 * answered by vnode.c, anything else by libc, through REAL()
 * (preload_internal.h), with the path rewritten where one of the tree's
 * links leads out of it. A file of preload.c's kind: it defines libc's
 * symbols, and is left out of a program that does not interpose libc.
 */
#undef _FORTIFY_SOURCE
#undef _FILE_OFFSET_BITS
#undef _TIME_BITS

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>

#include "preload_internal.h"

/* ------------------------------------------------------------------ */
/* The stat() family, access(), readlink(), realpath()                  */
/* ------------------------------------------------------------------ */

/*
 * The body of a path call: @node_expr answers for a node of ours (r.node),
 * @real_expr (with path, maybe rewritten) for the rest.
 */
#define PATH_CALL(dirfd, follow, node_expr, real_expr)			\
	do {								\
		struct vres r;						\
		int k = at_resolve(dirfd, &path, follow, &r);		\
									\
		if (k == VR_NODE) {					\
			trace(__func__, path, r.node->path);		\
			return node_expr;				\
		}							\
		if (k < 0)						\
			return fail(-k);				\
		return REAL_CALL(r, real_expr);				\
	} while (0)

SHIM_EXPORT int stat(const char *path, struct stat *st)
{
	PATH_CALL(AT_FDCWD, true, (vnode_stat(r.node, st), 0),
		  REAL(stat)(path, st));
}

SHIM_EXPORT int stat64(const char *path, struct stat64 *st)
{
	PATH_CALL(AT_FDCWD, true, (vnode_stat64(r.node, st), 0),
		  REAL(stat64)(path, st));
}

SHIM_EXPORT int lstat(const char *path, struct stat *st)
{
	PATH_CALL(AT_FDCWD, false, (vnode_stat(r.node, st), 0),
		  REAL(lstat)(path, st));
}

SHIM_EXPORT int lstat64(const char *path, struct stat64 *st)
{
	PATH_CALL(AT_FDCWD, false, (vnode_stat64(r.node, st), 0),
		  REAL(lstat64)(path, st));
}

SHIM_EXPORT int fstat(int fd, struct stat *st)
{
	struct vfd *v = vfd_get(fd);

	if (likely(!v))
		return REAL(fstat)(fd, st);
	vnode_stat(v->node, st);
	return 0;
}

SHIM_EXPORT int fstat64(int fd, struct stat64 *st)
{
	struct vfd *v = vfd_get(fd);

	if (likely(!v))
		return REAL(fstat64)(fd, st);
	vnode_stat64(v->node, st);
	return 0;
}

/* fstatat(fd, "", AT_EMPTY_PATH) is fstat(fd). */
#define EMPTY_PATH_VFD(dirfd, path, flags)				\
	((flags) & AT_EMPTY_PATH && path && !*path ? vfd_get(dirfd) : NULL)

SHIM_EXPORT int fstatat(int dirfd, const char *path, struct stat *st,
			int flags)
{
	struct vfd *v = EMPTY_PATH_VFD(dirfd, path, flags);

	if (v) {
		vnode_stat(v->node, st);
		return 0;
	}
	PATH_CALL(dirfd, !(flags & AT_SYMLINK_NOFOLLOW),
		  (vnode_stat(r.node, st), 0),
		  REAL(fstatat)(dirfd, path, st, flags));
}

SHIM_EXPORT int fstatat64(int dirfd, const char *path, struct stat64 *st,
			  int flags)
{
	struct vfd *v = EMPTY_PATH_VFD(dirfd, path, flags);

	if (v) {
		vnode_stat64(v->node, st);
		return 0;
	}
	PATH_CALL(dirfd, !(flags & AT_SYMLINK_NOFOLLOW),
		  (vnode_stat64(r.node, st), 0),
		  REAL(fstatat64)(dirfd, path, st, flags));
}

SHIM_EXPORT int statx(int dirfd, const char *path, int flags,
		      unsigned int mask, struct statx *sx)
{
	struct vfd *v = EMPTY_PATH_VFD(dirfd, path, flags);

	if (v) {
		vnode_statx(v->node, sx);
		return 0;
	}
	PATH_CALL(dirfd, !(flags & AT_SYMLINK_NOFOLLOW),
		  (vnode_statx(r.node, sx), 0),
		  REAL(statx)(dirfd, path, flags, mask, sx));
}

/*
 * The stat() calls of programs built against glibc before 2.33. @ver is
 * _STAT_VER; the structure is today's struct stat, on x86-64 and the other
 * 64-bit ports alike.
 */
SHIM_EXPORT int __xstat(int ver, const char *path, struct stat *st)
{
	PATH_CALL(AT_FDCWD, true, (vnode_stat(r.node, st), 0),
		  REAL(__xstat)(ver, path, st));
}

SHIM_EXPORT int __xstat64(int ver, const char *path, struct stat64 *st)
{
	PATH_CALL(AT_FDCWD, true, (vnode_stat64(r.node, st), 0),
		  REAL(__xstat64)(ver, path, st));
}

SHIM_EXPORT int __lxstat(int ver, const char *path, struct stat *st)
{
	PATH_CALL(AT_FDCWD, false, (vnode_stat(r.node, st), 0),
		  REAL(__lxstat)(ver, path, st));
}

SHIM_EXPORT int __lxstat64(int ver, const char *path, struct stat64 *st)
{
	PATH_CALL(AT_FDCWD, false, (vnode_stat64(r.node, st), 0),
		  REAL(__lxstat64)(ver, path, st));
}

SHIM_EXPORT int __fxstat(int ver, int fd, struct stat *st)
{
	struct vfd *v = vfd_get(fd);

	if (likely(!v))
		return REAL(__fxstat)(ver, fd, st);
	vnode_stat(v->node, st);
	return 0;
}

SHIM_EXPORT int __fxstat64(int ver, int fd, struct stat64 *st)
{
	struct vfd *v = vfd_get(fd);

	if (likely(!v))
		return REAL(__fxstat64)(ver, fd, st);
	vnode_stat64(v->node, st);
	return 0;
}

SHIM_EXPORT int __fxstatat(int ver, int dirfd, const char *path,
			   struct stat *st, int flags)
{
	struct vfd *v = EMPTY_PATH_VFD(dirfd, path, flags);

	if (v) {
		vnode_stat(v->node, st);
		return 0;
	}
	PATH_CALL(dirfd, !(flags & AT_SYMLINK_NOFOLLOW),
		  (vnode_stat(r.node, st), 0),
		  REAL(__fxstatat)(ver, dirfd, path, st, flags));
}

SHIM_EXPORT int __fxstatat64(int ver, int dirfd, const char *path,
			     struct stat64 *st, int flags)
{
	struct vfd *v = EMPTY_PATH_VFD(dirfd, path, flags);

	if (v) {
		vnode_stat64(v->node, st);
		return 0;
	}
	PATH_CALL(dirfd, !(flags & AT_SYMLINK_NOFOLLOW),
		  (vnode_stat64(r.node, st), 0),
		  REAL(__fxstatat64)(ver, dirfd, path, st, flags));
}

SHIM_EXPORT int access(const char *path, int mode)
{
	PATH_CALL(AT_FDCWD, true, vnode_access(r.node, mode, false),
		  REAL(access)(path, mode));
}

SHIM_EXPORT int faccessat(int dirfd, const char *path, int mode, int flags)
{
	PATH_CALL(dirfd, !(flags & AT_SYMLINK_NOFOLLOW),
		  vnode_access(r.node, mode, flags & AT_EACCESS),
		  REAL(faccessat)(dirfd, path, mode, flags));
}

SHIM_EXPORT ssize_t readlink(const char *path, char *buf, size_t size)
{
	PATH_CALL(AT_FDCWD, false, vnode_readlink(r.node, buf, size),
		  REAL(readlink)(path, buf, size));
}

SHIM_EXPORT ssize_t readlinkat(int dirfd, const char *path, char *buf,
			       size_t size)
{
	PATH_CALL(dirfd, false, vnode_readlink(r.node, buf, size),
		  REAL(readlinkat)(dirfd, path, buf, size));
}

/*
 * Extended attributes: the fake files have none (ls -l and libselinux
 * ask), as a devtmpfs or sysfs file without a label has none.
 */
SHIM_EXPORT ssize_t getxattr(const char *path, const char *name, void *value,
			     size_t size)
{
	PATH_CALL(AT_FDCWD, true, fail(ENODATA),
		  REAL(getxattr)(path, name, value, size));
}

SHIM_EXPORT ssize_t lgetxattr(const char *path, const char *name,
			      void *value, size_t size)
{
	PATH_CALL(AT_FDCWD, false, fail(ENODATA),
		  REAL(lgetxattr)(path, name, value, size));
}

SHIM_EXPORT ssize_t fgetxattr(int fd, const char *name, void *value,
			      size_t size)
{
	if (likely(!vfd_get(fd)))
		return REAL(fgetxattr)(fd, name, value, size);
	return fail(ENODATA);
}

SHIM_EXPORT ssize_t listxattr(const char *path, char *list, size_t size)
{
	PATH_CALL(AT_FDCWD, true, 0, REAL(listxattr)(path, list, size));
}

SHIM_EXPORT ssize_t llistxattr(const char *path, char *list, size_t size)
{
	PATH_CALL(AT_FDCWD, false, 0, REAL(llistxattr)(path, list, size));
}

SHIM_EXPORT ssize_t flistxattr(int fd, char *list, size_t size)
{
	if (likely(!vfd_get(fd)))
		return REAL(flistxattr)(fd, list, size);
	return 0;
}

static char *path_out(const char *p, char *resolved)
{
	if (resolved)
		return strcpy(resolved, p);
	return strdup(p);
}

#define PATH_CALL_PTR(node_expr, real_expr)				\
	do {								\
		struct vres r;						\
		int k = at_resolve(AT_FDCWD, &path, true, &r);		\
									\
		if (k == VR_NODE) {					\
			trace(__func__, path, r.node->path);		\
			return node_expr;				\
		}							\
		if (k < 0) {						\
			errno = -k;					\
			return NULL;					\
		}							\
		return REAL_CALL(r, real_expr);				\
	} while (0)

SHIM_EXPORT char *realpath(const char *path, char *resolved)
{
	PATH_CALL_PTR(path_out(r.node->path, resolved),
		      REAL(realpath)(path, resolved));
}

/* _FORTIFY_SOURCE's realpath(), which libdrm calls */
SHIM_EXPORT char *__realpath_chk(const char *path, char *resolved,
				 size_t resolved_len)
{
	if (resolved_len < PATH_MAX)
		__chk_fail();
	PATH_CALL_PTR(path_out(r.node->path, resolved),
		      REAL(__realpath_chk)(path, resolved, resolved_len));
}

SHIM_EXPORT char *canonicalize_file_name(const char *path)
{
	PATH_CALL_PTR(path_out(r.node->path, NULL),
		      REAL(canonicalize_file_name)(path));
}

/* ------------------------------------------------------------------ */
/* fopen()                                                              */
/* ------------------------------------------------------------------ */

/*
 * glibc's fopen() opens with its internal open(), out of our reach: ours
 * opens the node as open() does and hands the descriptor to fdopen().
 */
static FILE *fopen_node(const struct vnode *v, const char *mode)
{
	int flags, fd, err;
	const char *m;
	FILE *fp;

	switch (mode[0]) {
	case 'r':
		flags = O_RDONLY;
		break;
	case 'w':
		flags = O_WRONLY | O_CREAT | O_TRUNC;
		break;
	case 'a':
		flags = O_WRONLY | O_CREAT | O_APPEND;
		break;
	default:
		errno = EINVAL;
		return NULL;
	}
	for (m = mode + 1; *m; m++) {
		if (*m == '+')
			flags = (flags & ~O_ACCMODE) | O_RDWR;
		else if (*m == 'e')
			flags |= O_CLOEXEC;
		else if (*m == 'x')
			flags |= O_EXCL;
	}
	fd = vnode_open(v, flags);
	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	fp = fdopen(fd, mode);
	if (!fp) {
		err = errno;
		fd_close(fd);
		errno = err;
	}
	return fp;
}

SHIM_EXPORT FILE *fopen(const char *path, const char *mode)
{
	PATH_CALL_PTR(fopen_node(r.node, mode), REAL(fopen)(path, mode));
}

SHIM_EXPORT FILE *fopen64(const char *path, const char *mode)
{
	PATH_CALL_PTR(fopen_node(r.node, mode), REAL(fopen64)(path, mode));
}

/* fclose() closes with glibc's internal close(): forget the fd first. */
SHIM_EXPORT int fclose(FILE *fp)
{
	struct shim_obj *o = NULL;
	int fd, err = errno, ret;

	fd = fp ? fileno(fp) : -1;
	errno = err;
	if (fd >= 0 && fd_get(fd))
		o = fd_clear(fd);
	ret = REAL(fclose)(fp);
	obj_release(o);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Directories                                                          */
/* ------------------------------------------------------------------ */

SHIM_EXPORT DIR *opendir(const char *path)
{
	PATH_CALL_PTR(vdir_open(r.node, -1), REAL(opendir)(path));
}

SHIM_EXPORT DIR *fdopendir(int fd)
{
	struct vfd *v = vfd_get(fd);

	if (likely(!v))
		return REAL(fdopendir)(fd);
	return vdir_open(v->node, fd);
}

SHIM_EXPORT int closedir(DIR *d)
{
	struct vdir *v = vdir_find(d);

	if (likely(!v))
		return REAL(closedir)(d);
	return vdir_close(v);
}

SHIM_EXPORT struct dirent *readdir(DIR *d)
{
	struct vdir *v = vdir_find(d);
	struct vdirent e;

	if (likely(!v))
		return REAL(readdir)(d);
	if (!vdir_next(v, &e))
		return NULL;
	FILL_DIRENT(&v->ent, &e);
	return &v->ent;
}

SHIM_EXPORT struct dirent64 *readdir64(DIR *d)
{
	struct vdir *v = vdir_find(d);
	struct vdirent e;

	if (likely(!v))
		return REAL(readdir64)(d);
	if (!vdir_next(v, &e))
		return NULL;
	FILL_DIRENT(&v->ent64, &e);
	return &v->ent64;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
SHIM_EXPORT int readdir_r(DIR *d, struct dirent *ent, struct dirent **res)
{
	struct vdir *v = vdir_find(d);
	struct vdirent e;

	if (likely(!v))
		return REAL(readdir_r)(d, ent, res);
	*res = NULL;
	if (vdir_next(v, &e)) {
		FILL_DIRENT(ent, &e);
		*res = ent;
	}
	return 0;
}

SHIM_EXPORT int readdir64_r(DIR *d, struct dirent64 *ent,
			    struct dirent64 **res)
{
	struct vdir *v = vdir_find(d);
	struct vdirent e;

	if (likely(!v))
		return REAL(readdir64_r)(d, ent, res);
	*res = NULL;
	if (vdir_next(v, &e)) {
		FILL_DIRENT(ent, &e);
		*res = ent;
	}
	return 0;
}
#pragma GCC diagnostic pop

SHIM_EXPORT void rewinddir(DIR *d)
{
	struct vdir *v = vdir_find(d);

	if (likely(!v))
		REAL(rewinddir)(d);
	else
		v->loc = 0;
}

SHIM_EXPORT long telldir(DIR *d)
{
	struct vdir *v = vdir_find(d);

	return likely(!v) ? REAL(telldir)(d) : v->loc;
}

SHIM_EXPORT void seekdir(DIR *d, long loc)
{
	struct vdir *v = vdir_find(d);

	if (likely(!v))
		REAL(seekdir)(d, loc);
	else
		v->loc = loc;
}

SHIM_EXPORT int dirfd(DIR *d)
{
	struct vdir *v = vdir_find(d);

	return likely(!v) ? REAL(dirfd)(d) : v->fd;
}
