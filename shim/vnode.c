// SPDX-License-Identifier: MIT
/*
 * vnode.c: what the fake files of the tree (vfs.c) answer.
 *
 * The calls of preload_fd.c and preload_fs.c that land on one of the tree's
 * nodes end here: stat() and statx(), access(), readlink(); open(), which
 * makes a memfd stand for the node in the descriptor table (fdtable.c),
 * with a sysfs file's contents in it and, for a device node, a device
 * file of file.c's behind it; and opendir() and readdir() of the fake
 * directories, whose DIR * is a struct vdir of ours.
 *
 * Like vfs.c, it defines no libc symbol and uses no REAL(): its libc
 * calls past the shim's entry points are real.c's shim_real_close() and
 * shim_real_fcntl(), so it links into a program without preload.c too.
 */
#undef _FORTIFY_SOURCE
#undef _FILE_OFFSET_BITS
#undef _TIME_BITS

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "vfs.h"

/* ------------------------------------------------------------------ */
/* stat(), access(), readlink()                                         */
/* ------------------------------------------------------------------ */

/* Fills in the fields stat() has, for struct stat and struct stat64. */
#define VNODE_STAT(v, st)						\
	do {								\
		memset((st), 0, sizeof(*(st)));				\
		(st)->st_dev = !strncmp((v)->path, "/dev/", 5) ?	\
			makedev(0, 5) : makedev(0, 21);			\
		(st)->st_ino = 1000 + ((v) - vfs);			\
		(st)->st_mode = vnode_mode(v);				\
		(st)->st_nlink = (v)->type == VN_DIR ? 2 : 1;		\
		(st)->st_rdev = (v)->type == VN_CHR ?			\
			makedev(SHIM_DRM_MAJOR, (v)->minor) : 0;	\
		(st)->st_size = (v)->type == VN_REG ? 4096 :		\
			(v)->type == VN_LNK ? (v)->len : 0;		\
		(st)->st_blksize = 4096;				\
		(st)->st_atim = vfs_time;				\
		(st)->st_mtim = vfs_time;				\
		(st)->st_ctim = vfs_time;				\
	} while (0)

static mode_t vnode_mode(const struct vnode *v)
{
	static const mode_t fmt[] = {
		[VN_DIR] = S_IFDIR, [VN_REG] = S_IFREG,
		[VN_LNK] = S_IFLNK, [VN_CHR] = S_IFCHR,
	};

	return fmt[v->type] | v->perm;
}

/**
 * vnode_stat() - stat() of a node
 * @v: the node
 * @st: its attributes, as a devtmpfs or sysfs file's: root's, the tree's
 *	times, a sysfs file's size 4096
 */
void vnode_stat(const struct vnode *v, struct stat *st)
{
	VNODE_STAT(v, st);
}

/**
 * vnode_stat64() - vnode_stat(), for struct stat64
 * @v: the node
 * @st: its attributes
 */
void vnode_stat64(const struct vnode *v, struct stat64 *st)
{
	VNODE_STAT(v, st);
}

/**
 * vnode_statx() - vnode_stat(), for statx(): the basic stats
 * @v: the node
 * @sx: its attributes
 */
void vnode_statx(const struct vnode *v, struct statx *sx)
{
	struct stat st;

	vnode_stat(v, &st);
	memset(sx, 0, sizeof(*sx));
	sx->stx_mask = STATX_BASIC_STATS;
	sx->stx_blksize = st.st_blksize;
	sx->stx_nlink = st.st_nlink;
	sx->stx_mode = st.st_mode;
	sx->stx_ino = st.st_ino;
	sx->stx_size = st.st_size;
	sx->stx_atime.tv_sec = st.st_atim.tv_sec;
	sx->stx_atime.tv_nsec = st.st_atim.tv_nsec;
	sx->stx_mtime = sx->stx_atime;
	sx->stx_ctime = sx->stx_atime;
	sx->stx_rdev_major = major(st.st_rdev);
	sx->stx_rdev_minor = minor(st.st_rdev);
	sx->stx_dev_major = major(st.st_dev);
	sx->stx_dev_minor = minor(st.st_dev);
}

/**
 * vnode_access() - access() of a node
 * @v: the node
 * @mode: F_OK, or R_OK, W_OK and X_OK
 * @effective: by the effective user (faccessat()'s AT_EACCESS)
 *
 * Everything is root's; the caller is root or "other".
 *
 * Return: 0, or -1 with errno EACCES.
 */
int vnode_access(const struct vnode *v, int mode, bool effective)
{
	uid_t uid = effective ? geteuid() : getuid();
	unsigned int perm = v->perm;

	if (mode == F_OK)
		return 0;
	if (!uid)
		return (mode & X_OK) && v->type != VN_DIR && !(perm & 0111) ?
			fail(EACCES) : 0;
	if (((mode & R_OK) && !(perm & S_IROTH)) ||
	    ((mode & W_OK) && !(perm & S_IWOTH)) ||
	    ((mode & X_OK) && !(perm & S_IXOTH)))
		return fail(EACCES);
	return 0;
}

/**
 * vnode_readlink() - readlink() of a node
 * @v: the node
 * @buf: the caller's buffer, not NUL terminated
 * @size: its size
 *
 * Return: the bytes of the target put in @buf, or -1 with errno EINVAL
 * for a node that is not a link.
 */
ssize_t vnode_readlink(const struct vnode *v, char *buf, size_t size)
{
	size_t n;

	if (v->type != VN_LNK)
		return fail(EINVAL);
	n = v->len < size ? v->len : size;
	memcpy(buf, v->data, n);
	return n;
}

/* ------------------------------------------------------------------ */
/* Descriptors of fake files                                            */
/* ------------------------------------------------------------------ */

static void vfd_release(void *data)
{
	struct vfd *v = data;

	if (v->file)
		shim_file_put(v->file);
	free(v);
}

const struct shim_fd_ops vfd_ops = {
	.name = "vatom-shim node",
	.release = vfd_release,
};

/**
 * vnode_open() - open() of a node
 * @v: the node
 * @flags: open()'s (O_PATH, O_CLOEXEC, O_NONBLOCK... as the kernel takes
 *	them; O_NOFOLLOW's link is the caller's walk's)
 *
 * A memfd stands for the node in the descriptor table (vfd_ops): with a
 * sysfs file's contents, or a module parameter's value; for a device
 * node, a file of file.c's (shim_file_open()) behind it, but for O_PATH.
 *
 * Return: the descriptor or a negative errno.
 */
int vnode_open(const struct vnode *v, int flags)
{
	bool wr = (flags & O_ACCMODE) != O_RDONLY;
	bool opath = flags & O_PATH;
	struct shim_file *file = NULL;
	struct vfd *vfd;
	int fd, ret;

	if ((flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
		return -EEXIST;
	if (v->type == VN_LNK && !opath)
		return -ELOOP;		/* O_NOFOLLOW */
	if ((flags & O_DIRECTORY) && v->type != VN_DIR)
		return -ENOTDIR;
	if (!opath) {
		if (v->type == VN_DIR && (wr || (flags & O_CREAT)))
			return -EISDIR;
		/*
		 * Writes to sysfs would be for the kernel: there is none,
		 * but for the module parameters file.c can set.
		 */
		if (v->type == VN_REG && (wr || (flags & O_TRUNC)) &&
		    !(v->param && (v->perm & 0200)))
			return -EACCES;
	}
	vfd = calloc(1, sizeof(*vfd));
	if (!vfd)
		return -ENOMEM;
	if (v->type == VN_CHR && !opath) {
		ret = shim_file_open(v->minor, &file);
		if (ret)
			goto free;
	}
	fd = memfd_create(v->type == VN_CHR ? "vatom-shim-drm" :
			  "vatom-shim-sysfs",
			  (flags & O_CLOEXEC) ? MFD_CLOEXEC : 0);
	if (fd < 0) {
		ret = -errno;
		goto put;
	}
	if (v->param) {
		char val[32];
		int n = shim_param_show(v->param, val, sizeof(val));

		if (pwrite(fd, val, n, 0) != n) {
			ret = -EIO;
			goto close;
		}
	} else if (v->type == VN_REG &&
		   pwrite(fd, v->data, v->len, 0) != v->len) {
		ret = -EIO;
		goto close;
	}
	if ((flags & O_NONBLOCK) && shim_real_fcntl(fd, F_SETFL, O_NONBLOCK)) {
		ret = -errno;
		goto close;
	}
	vfd->node = v;
	vfd->file = file;
	ret = shim_fd_track(fd, &vfd_ops, vfd);
	if (ret)
		goto close;
	return fd;

close:
	shim_real_close(fd);
put:
	if (file)
		shim_file_put(file);
free:
	free(vfd);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Directory streams                                                    */
/* ------------------------------------------------------------------ */

static struct vdir *vdir_list;
static unsigned int vdir_nr;
static pthread_mutex_t vdir_lock = PTHREAD_MUTEX_INITIALIZER;

/**
 * vdir_find() - the stream of ours @d is
 * @d: any DIR *
 *
 * Return: it, or NULL when @d is libc's (no lock while there is none of
 * ours).
 */
struct vdir *vdir_find(DIR *d)
{
	struct vdir *v;

	if (likely(!__atomic_load_n(&vdir_nr, __ATOMIC_ACQUIRE)))
		return NULL;
	pthread_mutex_lock(&vdir_lock);
	for (v = vdir_list; v && (DIR *)v != d; v = v->next)
		;
	pthread_mutex_unlock(&vdir_lock);
	return v;
}

/**
 * vdir_open() - opendir() or fdopendir() of a node
 * @n: the node
 * @fd: its descriptor, which the stream takes over (fdopendir()), or -1:
 *	open one
 *
 * Return: the stream, or NULL with errno set (ENOTDIR, ENOMEM).
 */
DIR *vdir_open(const struct vnode *n, int fd)
{
	struct vdir *v;

	if (n->type != VN_DIR) {
		errno = ENOTDIR;
		return NULL;
	}
	v = calloc(1, sizeof(*v));
	if (!v) {
		errno = ENOMEM;
		return NULL;
	}
	if (fd < 0) {
		fd = vnode_open(n, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0) {
			free(v);
			errno = -fd;
			return NULL;
		}
	}
	v->node = n;
	v->fd = fd;
	pthread_mutex_lock(&vdir_lock);
	v->next = vdir_list;
	vdir_list = v;
	__atomic_add_fetch(&vdir_nr, 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&vdir_lock);
	return (DIR *)v;
}

static bool vnode_is_child(const struct vnode *dir, const struct vnode *v)
{
	size_t n = dir->plen;

	return v->plen > n + 1 && !memcmp(v->path, dir->path, n) &&
	       v->path[n] == '/' &&
	       !memchr(v->path + n + 1, '/', v->plen - n - 1);
}

/**
 * vdir_next() - readdir() of a stream of ours
 * @v: the stream
 * @e: the next entry: ".", "..", then the node's children in the tree's
 *	order
 *
 * Return: false at the end.
 */
bool vdir_next(struct vdir *v, struct vdirent *e)
{
	static const unsigned char dt[] = {
		[VN_DIR] = DT_DIR, [VN_REG] = DT_REG,
		[VN_LNK] = DT_LNK, [VN_CHR] = DT_CHR,
	};
	unsigned int i;

	if (v->loc < 2) {
		e->name = v->loc ? ".." : ".";
		e->ino = v->loc ? 1 : 1000 + (v->node - vfs);
		e->type = DT_DIR;
		e->off = ++v->loc;
		return true;
	}
	for (i = v->loc - 2; i < vfs_nr; i++) {
		if (!vnode_is_child(v->node, &vfs[i]))
			continue;
		e->name = vfs[i].path + v->node->plen + 1;
		e->ino = 1000 + i;
		e->type = dt[vfs[i].type];
		v->loc = i + 3;
		e->off = v->loc;
		return true;
	}
	v->loc = 2 + vfs_nr;
	return false;
}

/**
 * vdir_close() - closedir() of a stream of ours
 * @v: the stream, from vdir_find()
 *
 * Closes its descriptor, as the table sees it (fd_close()), and frees it.
 *
 * Return: 0.
 */
int vdir_close(struct vdir *v)
{
	struct vdir **pp;

	pthread_mutex_lock(&vdir_lock);
	for (pp = &vdir_list; *pp != v; pp = &(*pp)->next)
		;
	*pp = v->next;
	__atomic_sub_fetch(&vdir_nr, 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&vdir_lock);
	fd_close(v->fd);
	free(v);
	return 0;
}

/**
 * vdir_fork_prepare() - take vdir_lock for a fork()
 *
 * With vdir_fork_release(), for preload.c's pthread_atfork() handlers: a
 * fork() child calls readdir() and the like, and no lock may stay held
 * in it.
 */
void vdir_fork_prepare(void)
{
	pthread_mutex_lock(&vdir_lock);
}

/**
 * vdir_fork_release() - release vdir_lock after a fork(), in parent and child
 */
void vdir_fork_release(void)
{
	pthread_mutex_unlock(&vdir_lock);
}
