/* SPDX-License-Identifier: MIT */
/*
 * vfs.h: the tree of fake files, for the libc entry points (the
 * preload*.c files): the tree and its path walk (vfs.c), and what its
 * files answer, their descriptors and directory streams (vnode.c).
 *
 * Neither file defines a libc symbol or uses REAL() (their libc calls
 * past the shim are real.c's shim_real_*(), shim.h): they
 * link into a program without preload.c as well.
 */
#ifndef _VATOM_SHIM_VFS_H_
#define _VATOM_SHIM_VFS_H_

#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "fdtable.h"
#include "shim.h"

/* ------------------------------------------------------------------ */
/* vfs.c: the tree                                                      */
/* ------------------------------------------------------------------ */

enum vtype { VN_DIR, VN_REG, VN_LNK, VN_CHR };

struct vnode {
	char path[80];
	unsigned int plen;
	enum vtype type;
	unsigned int perm;	/* permission bits */
	unsigned int minor;	/* VN_CHR */
	unsigned int len;	/* of data */
	char data[80];		/* a link's target, a file's contents */
	const char *param;	/* a module parameter's name (file.c's) */
};

#define VFS_MAX		(16 + SHIM_NUM_PARAMS + 32 * SHIM_MAX_DEVICES)

/* The tree, built once by vfs_init() and read-only after. */
extern struct vnode vfs[VFS_MAX];
extern unsigned int vfs_nr;
extern struct timespec vfs_time;	/* every node's times */

void vfs_init(void);

/* VATOM_SHIM_DEBUG=1 (preload.c's constructor reads it) */
extern int shim_debug;

/* VATOM_SHIM_DEBUG=1: "call(path) = the node it names", on stderr */
#define trace(fn, path, res)						\
	do {								\
		if (unlikely(shim_debug))				\
			fprintf(stderr, "libvatom-shim: %s(%s) = %s\n", \
				fn, path, res);				\
	} while (0)

/* The quick test every path takes: can it be ours at all? */
static inline bool vfs_maybe(const char *p)
{
	if (!p || *p != '/')
		return false;
	while (*p == '/')
		p++;
	return (!strncmp(p, "dev", 3) || !strncmp(p, "sys", 3)) &&
	       (p[3] == '/' || !p[3]);
}

enum { VR_PASS, VR_REAL, VR_NODE };

/* Where a path leads. */
struct vres {
	const struct vnode *node;	/* VR_NODE */
	char *real;	/* the path for libc, when not the caller's: free() */
};

int at_resolve_slow(int dirfd, const char **path, bool follow,
		    struct vres *r);

/* ------------------------------------------------------------------ */
/* vnode.c: the fake files' calls, descriptors and directory streams    */
/* ------------------------------------------------------------------ */

/* An open fake file: a memfd (with the contents, for a sysfs file). */
struct vfd {
	const struct vnode *node;
	struct shim_file *file;	/* device nodes, but not O_PATH */
};

extern const struct shim_fd_ops vfd_ops;

/* The fake file @fd stands for, or NULL. */
static inline struct vfd *vfd_get(int fd)
{
	struct shim_obj *o = fd_get(fd);

	return o && o->ops == &vfd_ops ? o->data : NULL;
}

/*
 * at_resolve() - vfs_resolve() for a call with a directory descriptor
 *
 * @path is absolute, or relative to a descriptor of one of our
 * directories; anything else is libc's. When libc is to answer with
 * another path than the caller's, *@path becomes @r->real, which
 * REAL_CALL() frees after the call.
 *
 * Return: as vfs_resolve() (vfs.c).
 */
static inline int at_resolve(int dirfd, const char **path, bool follow,
			     struct vres *r)
{
	const char *p = *path;

	r->real = NULL;
	if (unlikely(vfs_maybe(p)) ||
	    (p && *p && *p != '/' && dirfd != AT_FDCWD && vfd_get(dirfd)))
		return at_resolve_slow(dirfd, path, follow, r);
	return VR_PASS;
}

void vnode_stat(const struct vnode *v, struct stat *st);
void vnode_stat64(const struct vnode *v, struct stat64 *st);
void vnode_statx(const struct vnode *v, struct statx *sx);
int vnode_access(const struct vnode *v, int mode, bool effective);
ssize_t vnode_readlink(const struct vnode *v, char *buf, size_t size);
int vnode_open(const struct vnode *v, int flags);

/* A DIR * of ours: every call that takes a DIR * checks for one. */
struct vdir {
	struct vdir *next;
	const struct vnode *node;
	int fd;			/* dirfd() */
	long loc;		/* 0 ".", 1 "..", 2 + n: from vfs[n] on */
	struct dirent ent;
	struct dirent64 ent64;
};

/* One entry vdir_next() reads. */
struct vdirent {
	const char *name;
	ino_t ino;
	long off;
	unsigned char type;
};

struct vdir *vdir_find(DIR *d);
DIR *vdir_open(const struct vnode *n, int fd);
int vdir_close(struct vdir *v);
bool vdir_next(struct vdir *v, struct vdirent *e);
void vdir_fork_prepare(void);
void vdir_fork_release(void);

/* A struct dirent or dirent64 from a vdirent. */
#define FILL_DIRENT(d, e)						\
	do {								\
		(d)->d_ino = (e)->ino;					\
		(d)->d_off = (e)->off;					\
		(d)->d_reclen = sizeof(*(d));				\
		(d)->d_type = (e)->type;				\
		strcpy((d)->d_name, (e)->name);				\
	} while (0)

#endif /* _VATOM_SHIM_VFS_H_ */
