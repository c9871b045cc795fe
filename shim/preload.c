// SPDX-License-Identifier: MIT
/*
 * preload.c: the libc side of libvatom-shim.so.
 *
 * Preloaded, the shim takes over the libc calls through which a program
 * (libdrm, Mesa's loader, the program itself) finds, opens and drives a
 * DRM device, and answers those that concern the vatom nodes it presents;
 * everything else goes straight to libc. Three things live here:
 *
 *  - a small read-only tree of fake files: /dev/dri and the sysfs entries
 *    the kernel makes for vatom.ko's platform devices, laid out as a
 *    kernel with vatom.ko loaded lays them out, links and all, so that
 *    libdrm's discovery sees the shim's devices as it sees the module's;
 *  - the descriptor table: every descriptor that stands for a shim object
 *    (an open device file, a fake sysfs file, a memfd file.c hands out),
 *    with dup() semantics and a release on the last close();
 *  - copy_from_user() and copy_to_user(): copies that survive a bad user
 *    pointer, by way of a SIGSEGV/SIGBUS handler that stays first in line
 *    whatever handlers the program installs.
 *
 * The tree, for device i of shim_num_devices() (card minor i, render minor
 * r = 128 + i; "->" is a symbolic link, as readlink() reads it):
 *
 *   /dev/dri/                          only the shim's nodes: the host's
 *   /dev/dri/card<i>, renderD<r>       real ones are hidden; crw-rw-rw-
 *   /dev/char/226:<i> -> ../dri/card<i>        (and 226:<r>, as udev does)
 *   /sys/dev/char/226:<i> -> ../../devices/platform/vatom.<i>/drm/card<i>
 *   /sys/dev/char/226:<r> -> ../../devices/platform/vatom.<i>/drm/renderD<r>
 *   /sys/class/drm/                    version, and card<i> and
 *                                      renderD<r>: links as /sys/dev/char's
 *   /sys/bus/platform/devices/vatom.<i> -> ../../../devices/platform/vatom.<i>
 *   /sys/bus/platform/drivers/vatom/vatom.<i>
 *                           -> ../../../../devices/platform/vatom.<i>
 *   /sys/devices/platform/vatom.<i>/
 *       uevent       "DRIVER=vatom\nMODALIAS=platform:vatom.<i>\n"
 *       modalias     "platform:vatom.<i>\n"
 *       driver_override "(null)\n"
 *       subsystem -> ../../../bus/platform
 *       driver -> ../../../bus/platform/drivers/vatom
 *       drm/card<i>/, drm/renderD<r>/
 *           uevent   "MAJOR=226\nMINOR=<m>\nDEVNAME=dri/<name>\n"
 *                    "DEVTYPE=drm_minor\n"
 *           dev      "226:<m>\n"
 *           device -> ../../../vatom.<i>
 *           subsystem -> ../../../../../class/drm
 *
 * vatom.ko registers plain platform devices named "vatom.<i>" (no device
 * tree node, no ACPI companion), so the kernel's uevent for them carries
 * DRIVER= and MODALIAS= only, and no OF_* keys; the minors' uevents are
 * drm_sysfs's (devnode "dri/<name>", type "drm_minor").
 *
 * What libdrm 2.4.114 (Debian 12) reads of it, for a platform device
 * (its xf86drm.c; the list is what VATOM_SHIM_DEBUG=1 shows the library
 * asking under shim/test/preload_test, and STRACE=1 preload_test.sh
 * checks that nothing of it reaches the kernel):
 *
 *   /dev/dri                           opendir()/readdir(): drmGetDevices2(),
 *                                      drmGetDevice2() walk it
 *   /dev/dri/<node>                    stat(): process_device() (S_ISCHR,
 *                                      st_rdev), drm_device_has_rdev(),
 *                                      drmOpenDevice(); open()
 *   /sys/dev/char/226:<m>/device/drm   stat(): drmNodeIsDRM(), behind
 *                                      drmGetNodeTypeFromFd(), drmGetDevice2(),
 *                                      drmGetDeviceNameFromFd2() and every
 *                                      node process_device() looks at;
 *                                      opendir(): drmGetMinorNameForFD()
 *                                      (drmGetPrimaryDeviceNameFromFd(),
 *                                      drmGetRenderDeviceNameFromFd())
 *   /sys/dev/char/226:<m>/device/subsystem
 *                                      readlink(): drmParseSubsystemType();
 *                                      its last component, "platform",
 *                                      makes the bus DRM_BUS_PLATFORM
 *   /sys/dev/char/226:<m>/device/uevent
 *                                      fopen(): drmParseOFBusInfo() wants
 *                                      OF_FULLNAME and takes MODALIAS's
 *                                      "vatom.<i>" (after its last ':') for
 *                                      businfo.platform->fullname without it;
 *                                      drmParseOFDeviceInfo() likewise for
 *                                      OF_COMPATIBLE_N/OF_COMPATIBLE_0: one
 *                                      compatible[], "vatom.<i>". A name per
 *                                      device keeps drmFoldDuplicatedDevices()
 *                                      from folding them into one.
 *   /sys/dev/char/226:<m>/uevent       fopen(): drmGetDeviceNameFromFd2()
 *                                      (DEVNAME)
 *
 * The calls taken over: open(), open64(), openat(), openat64() and their
 * _FORTIFY_SOURCE forms; close(), close_range(), closefrom(); dup(),
 * dup2(), dup3(), fcntl(), fcntl64(); ioctl(), mmap(), mmap64(); the
 * stat() family, old (__xstat() and the like) and new, with statx();
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

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>

#include "shim.h"

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

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
extern void __chk_fail(void) __attribute__((__noreturn__));

/* ------------------------------------------------------------------ */
/* The real libc calls                                                  */
/* ------------------------------------------------------------------ */

static void *shim_dlsym(const char *name)
{
	void *p = dlsym(RTLD_NEXT, name);

	if (!p) {
		fprintf(stderr, "libvatom-shim: libc has no %s\n", name);
		abort();
	}
	return p;
}

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

/*
 * real_<fn>: looked up by the constructor, so that no dlsym() runs later
 * (in a signal handler, say); and again on first use for a call that
 * comes before it (another preloaded library's constructor). Two threads
 * looking up at once store the same pointer. A call libc lacks aborts
 * when it is used, not before.
 */
#define REAL_DEFINE(fn)							\
	static __typeof__(fn) *real_##fn##_p;				\
	static inline __attribute__((unused)) __typeof__(fn) *real_##fn(void) \
	{								\
		__typeof__(fn) *p;					\
									\
		p = __atomic_load_n(&real_##fn##_p, __ATOMIC_RELAXED);	\
		if (unlikely(!p)) {					\
			p = (__typeof__(fn) *)shim_dlsym(#fn);		\
			__atomic_store_n(&real_##fn##_p, p,		\
					 __ATOMIC_RELAXED);		\
		}							\
		return p;						\
	}
#define REAL_LOOKUP(fn)							\
	__atomic_store_n(&real_##fn##_p,				\
			 (__typeof__(fn) *)dlsym(RTLD_NEXT, #fn),	\
			 __ATOMIC_RELAXED);
#define REAL(fn)	(real_##fn())

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"	/* sigset... */
SHIM_REAL_CALLS(REAL_DEFINE)

static void real_lookup_all(void)
{
	SHIM_REAL_CALLS(REAL_LOOKUP)
}
#pragma GCC diagnostic pop

static int fail(int err)
{
	errno = err;
	return -1;
}

static int shim_debug;

/* VATOM_SHIM_DEBUG=1: "call(path) = the node it names", on stderr */
#define trace(fn, path, res)						\
	do {								\
		if (unlikely(shim_debug))				\
			fprintf(stderr, "libvatom-shim: %s(%s) = %s\n", \
				fn, path, res);				\
	} while (0)

/* ------------------------------------------------------------------ */
/* The devices                                                          */
/* ------------------------------------------------------------------ */

unsigned int shim_num_devices(void)
{
	static unsigned int num;
	unsigned int n = __atomic_load_n(&num, __ATOMIC_RELAXED);
	int err = errno;
	const char *s;
	unsigned long v;
	char *end;

	if (likely(n))
		return n;
	s = getenv("VATOM_SHIM_DEVICES");
	n = 1;
	if (s) {
		errno = 0;
		v = strtoul(s, &end, 10);
		if (*s >= '0' && *s <= '9' && !*end && !errno &&
		    v >= 1 && v <= SHIM_MAX_DEVICES)
			n = v;
		else
			fprintf(stderr,
				"libvatom-shim: VATOM_SHIM_DEVICES=%s is not "
				"1..%d; one device\n", s, SHIM_MAX_DEVICES);
	}
	__atomic_store_n(&num, n, __ATOMIC_RELAXED);
	errno = err;
	return n;
}

/* ------------------------------------------------------------------ */
/* The tree of fake files                                               */
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

static struct vnode vfs[VFS_MAX];
static unsigned int vfs_nr;
static struct timespec vfs_time;
static pthread_once_t vfs_once = PTHREAD_ONCE_INIT;

static struct vnode *vfs_add(enum vtype type, unsigned int perm,
			     const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void vnode_set(struct vnode *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static struct vnode *vfs_add(enum vtype type, unsigned int perm,
			     const char *fmt, ...)
{
	struct vnode *v;
	va_list ap;
	int n;

	if (vfs_nr == VFS_MAX)
		abort();
	v = &vfs[vfs_nr++];
	va_start(ap, fmt);
	n = vsnprintf(v->path, sizeof(v->path), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(v->path))
		abort();
	v->plen = n;
	v->type = type;
	v->perm = perm;
	return v;
}

static void vnode_set(struct vnode *v, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(v->data, sizeof(v->data), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(v->data))
		abort();
	v->len = n;
}

#define PLAT	"/sys/devices/platform/vatom.%u"

/* One DRM minor of device @i: its node, its sysfs directory, its links. */
static void vfs_add_minor(unsigned int i, const char *kind, unsigned int m)
{
	struct vnode *v;

	v = vfs_add(VN_CHR, 0666, "/dev/dri/%s%u", kind, m);
	v->minor = m;
	v = vfs_add(VN_LNK, 0777, "/dev/char/%d:%u", SHIM_DRM_MAJOR, m);
	vnode_set(v, "../dri/%s%u", kind, m);
	v = vfs_add(VN_LNK, 0777, "/sys/dev/char/%d:%u", SHIM_DRM_MAJOR, m);
	vnode_set(v, "../../devices/platform/vatom.%u/drm/%s%u", i, kind, m);
	v = vfs_add(VN_LNK, 0777, "/sys/class/drm/%s%u", kind, m);
	vnode_set(v, "../../devices/platform/vatom.%u/drm/%s%u", i, kind, m);

	vfs_add(VN_DIR, 0755, PLAT "/drm/%s%u", i, kind, m);
	v = vfs_add(VN_REG, 0644, PLAT "/drm/%s%u/uevent", i, kind, m);
	vnode_set(v, "MAJOR=%d\nMINOR=%u\nDEVNAME=dri/%s%u\n"
		  "DEVTYPE=drm_minor\n", SHIM_DRM_MAJOR, m, kind, m);
	v = vfs_add(VN_REG, 0444, PLAT "/drm/%s%u/dev", i, kind, m);
	vnode_set(v, "%d:%u\n", SHIM_DRM_MAJOR, m);
	v = vfs_add(VN_LNK, 0777, PLAT "/drm/%s%u/device", i, kind, m);
	vnode_set(v, "../../../vatom.%u", i);
	v = vfs_add(VN_LNK, 0777, PLAT "/drm/%s%u/subsystem", i, kind, m);
	vnode_set(v, "../../../../../class/drm");
}

static void vfs_build(void)
{
	unsigned int i, n = shim_num_devices();
	struct vnode *v;

	clock_gettime(CLOCK_REALTIME, &vfs_time);
	vfs_add(VN_DIR, 0755, "/dev/dri");
	vfs_add(VN_DIR, 0755, "/sys/class/drm");
	v = vfs_add(VN_REG, 0444, "/sys/class/drm/version");
	vnode_set(v, "drm 1.1.0 20060810\n");
	vfs_add(VN_DIR, 0755, "/sys/bus/platform/drivers/vatom");
	/* The module's parameters: their values are file.c's, read at open. */
	vfs_add(VN_DIR, 0755, "/sys/module/vatom");
	vfs_add(VN_DIR, 0755, "/sys/module/vatom/parameters");
	for (i = 0; i < SHIM_NUM_PARAMS; i++) {
		v = vfs_add(VN_REG, shim_params[i].writable ? 0644 : 0444,
			    "/sys/module/vatom/parameters/%s", shim_params[i].name);
		v->param = shim_params[i].name;
	}

	for (i = 0; i < n; i++) {
		vfs_add(VN_DIR, 0755, PLAT, i);
		v = vfs_add(VN_REG, 0644, PLAT "/uevent", i);
		vnode_set(v, "DRIVER=vatom\nMODALIAS=platform:vatom.%u\n", i);
		v = vfs_add(VN_REG, 0444, PLAT "/modalias", i);
		vnode_set(v, "platform:vatom.%u\n", i);
		v = vfs_add(VN_REG, 0644, PLAT "/driver_override", i);
		vnode_set(v, "(null)\n");
		v = vfs_add(VN_LNK, 0777, PLAT "/subsystem", i);
		vnode_set(v, "../../../bus/platform");
		v = vfs_add(VN_LNK, 0777, PLAT "/driver", i);
		vnode_set(v, "../../../bus/platform/drivers/vatom");
		vfs_add(VN_DIR, 0755, PLAT "/drm", i);
		v = vfs_add(VN_LNK, 0777,
			    "/sys/bus/platform/devices/vatom.%u", i);
		vnode_set(v, "../../../devices/platform/vatom.%u", i);
		v = vfs_add(VN_LNK, 0777,
			    "/sys/bus/platform/drivers/vatom/vatom.%u", i);
		vnode_set(v, "../../../../devices/platform/vatom.%u", i);

		vfs_add_minor(i, "card", i);
		vfs_add_minor(i, "renderD", SHIM_RENDER_MINOR_BASE + i);
	}
}

static void vfs_init(void)
{
	pthread_once(&vfs_once, vfs_build);
}

static bool is_under(const char *p, size_t len, const char *root)
{
	size_t n = strlen(root);

	return len >= n && !memcmp(p, root, n) && (len == n || p[n] == '/');
}

static bool is_prefixed(const char *p, size_t len, const char *pfx)
{
	size_t n = strlen(pfx);

	return len > n && !memcmp(p, pfx, n);
}

/* A vatom.<digits> component at @p, ending at @end or a '/'. */
static bool is_vatom_dev(const char *p, const char *end)
{
	if (end - p < 7 || memcmp(p, "vatom.", 6))
		return false;
	for (p += 6; p < end && *p != '/'; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

/*
 * Is the canonical path @p ours: answered from the tree, whether or not
 * it is in it? These are the names the shim's devices take, and the
 * host's own DRM nodes take: theirs must not show through.
 */
static bool vfs_owned(const char *p, size_t len)
{
	_Static_assert(SHIM_DRM_MAJOR == 226, "the names below say 226");
	static const char plat[] = "/sys/devices/platform/";
	static const char bus[] = "/sys/bus/platform/devices/";

	if (is_under(p, len, "/dev/dri") ||
	    is_under(p, len, "/sys/class/drm") ||
	    is_under(p, len, "/sys/bus/platform/drivers/vatom") ||
	    is_under(p, len, "/sys/module/vatom") ||
	    is_prefixed(p, len, "/dev/char/226:") ||
	    is_prefixed(p, len, "/sys/dev/char/226:"))
		return true;
	if (is_prefixed(p, len, plat))
		return is_vatom_dev(p + sizeof(plat) - 1, p + len);
	if (is_prefixed(p, len, bus))
		return is_vatom_dev(p + sizeof(bus) - 1, p + len);
	return false;
}

static const struct vnode *vfs_lookup(const char *p, size_t len)
{
	unsigned int i;

	for (i = 0; i < vfs_nr; i++)
		if (vfs[i].plen == len && !memcmp(vfs[i].path, p, len))
			return &vfs[i];
	return NULL;
}

/* The quick test every path takes: can it be ours at all? */
static bool vfs_maybe(const char *p)
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

/*
 * vfs_resolve() - walk @in as the kernel's path walk would
 * @follow: follow a link in the last component
 *
 * Return: VR_PASS (not ours: libc answers, with @in), VR_REAL (through one
 * of the tree's links to a real path: libc answers, with @r->real), VR_NODE
 * (@r->node) or a negative errno (-ENOENT for a name of ours that does not
 * exist).
 */
static int vfs_resolve(const char *in, bool follow, struct vres *r)
{
	char todo[PATH_MAX], cur[PATH_MAX], *s;
	size_t clen = 0, n, tlen, rlen;
	const struct vnode *v;
	bool ours = false, last, slash;
	unsigned int links = 0;
	const char *c;
	char *t, *sl;

	if (likely(!vfs_maybe(in)))
		return VR_PASS;
	n = strlen(in);
	if (n >= sizeof(todo))
		return VR_PASS;
	vfs_init();
	memcpy(todo, in, n + 1);
	s = todo;
	cur[0] = '\0';

	for (;;) {
		while (*s == '/')
			s++;
		if (!*s)
			break;
		c = s;
		n = strcspn(s, "/");
		s += n;
		for (t = s; *t == '/'; t++)
			;
		last = !*t;
		slash = last && t != s;	/* "name/": a directory */

		if (n == 1 && c[0] == '.')
			continue;
		if (n == 2 && c[0] == '.' && c[1] == '.') {
			sl = strrchr(cur, '/');
			if (sl) {
				*sl = '\0';
				clen = sl - cur;
			}
			continue;
		}
		if (clen + 1 + n >= sizeof(cur))
			return -ENAMETOOLONG;
		cur[clen++] = '/';
		memcpy(cur + clen, c, n);
		clen += n;
		cur[clen] = '\0';

		if (!vfs_owned(cur, clen))
			continue;
		ours = true;
		v = vfs_lookup(cur, clen);
		if (!v)
			return -ENOENT;
		if (v->type == VN_LNK && (!last || follow || slash)) {
			if (++links > 40)
				return -ELOOP;
			/* todo becomes the target followed by what is left */
			tlen = v->len;
			rlen = strlen(s);
			if (tlen + rlen >= sizeof(todo))
				return -ENAMETOOLONG;
			memmove(todo + tlen, s, rlen + 1);
			memcpy(todo, v->data, tlen);
			s = todo;
			if (todo[0] == '/') {
				clen = 0;
			} else {
				sl = strrchr(cur, '/');
				clen = sl - cur;
			}
			cur[clen] = '\0';
			continue;
		}
		if (v->type != VN_DIR && (!last || slash))
			return -ENOTDIR;
	}
	if (!ours)
		return VR_PASS;
	if (!clen) {
		strcpy(cur, "/");
		clen = 1;
	}
	if (!vfs_owned(cur, clen)) {
		r->real = strdup(cur);
		return r->real ? VR_REAL : -ENOMEM;
	}
	r->node = vfs_lookup(cur, clen);
	return r->node ? VR_NODE : -ENOENT;
}

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

static void vnode_stat(const struct vnode *v, struct stat *st)
{
	VNODE_STAT(v, st);
}

static void vnode_stat64(const struct vnode *v, struct stat64 *st)
{
	VNODE_STAT(v, st);
}

static void vnode_statx(const struct vnode *v, struct statx *sx)
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

/* access(): everything is root's; the caller is root or "other". */
static int vnode_access(const struct vnode *v, int mode, bool effective)
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

static ssize_t vnode_readlink(const struct vnode *v, char *buf, size_t size)
{
	size_t n;

	if (v->type != VN_LNK)
		return fail(EINVAL);
	n = v->len < size ? v->len : size;
	memcpy(buf, v->data, n);
	return n;
}

/* ------------------------------------------------------------------ */
/* The descriptor table                                                 */
/* ------------------------------------------------------------------ */

/* What one or more descriptors (dup()s of one another) stand for. */
struct shim_obj {
	const struct shim_fd_ops *ops;
	void *data;
	unsigned int ndesc;		/* descriptors; under fd_lock */
	struct shim_obj *next;		/* on a list of objects to release */
};

/*
 * Indexed by descriptor, in chunks allocated on first use and kept: the
 * lookup every ioctl(), mmap() and fstat() makes is two loads, no lock.
 * Entries change under fd_lock. A descriptor past FD_LIMIT (fs.nr_open's
 * default) is never tracked.
 */
#define FD_CHUNK_BITS	10
#define FD_CHUNK	(1u << FD_CHUNK_BITS)
#define FD_LIMIT	(1u << 20)

static struct shim_obj **fd_chunks[FD_LIMIT / FD_CHUNK];
static pthread_mutex_t fd_lock = PTHREAD_MUTEX_INITIALIZER;

static struct shim_obj *fd_get(int fd)
{
	struct shim_obj **chunk;

	if ((unsigned int)fd >= FD_LIMIT)
		return NULL;
	chunk = __atomic_load_n(&fd_chunks[fd >> FD_CHUNK_BITS],
				__ATOMIC_ACQUIRE);
	if (!chunk)
		return NULL;
	return __atomic_load_n(&chunk[fd & (FD_CHUNK - 1)], __ATOMIC_ACQUIRE);
}

/* The slot of @fd, its chunk allocated if @alloc; fd_lock held. */
static struct shim_obj **fd_slot(int fd, bool alloc)
{
	struct shim_obj ***cp, **chunk;

	if ((unsigned int)fd >= FD_LIMIT)
		return NULL;
	cp = &fd_chunks[fd >> FD_CHUNK_BITS];
	chunk = *cp;
	if (!chunk && alloc) {
		chunk = calloc(FD_CHUNK, sizeof(*chunk));
		if (!chunk)
			return NULL;
		__atomic_store_n(cp, chunk, __ATOMIC_RELEASE);
	}
	return chunk ? &chunk[fd & (FD_CHUNK - 1)] : NULL;
}

static void fd_slot_set(struct shim_obj **slot, struct shim_obj *o)
{
	__atomic_store_n(slot, o, __ATOMIC_RELEASE);
}

/* One descriptor less; fd_lock held. Return: @o, if that was the last. */
static struct shim_obj *obj_unref_locked(struct shim_obj *o)
{
	return o && !--o->ndesc ? o : NULL;
}

/* Releases @o and every object after it on its list; errno kept. */
static void obj_release(struct shim_obj *o)
{
	struct shim_obj *next;
	int err = errno;

	for (; o; o = next) {
		next = o->next;
		if (o->ops->release)
			o->ops->release(o->data);
		free(o);
	}
	errno = err;
}

int shim_fd_track(int fd, const struct shim_fd_ops *ops, void *data)
{
	struct shim_obj *o, **slot, *stale;

	o = malloc(sizeof(*o));
	if (!o)
		return -ENOMEM;
	*o = (struct shim_obj){ .ops = ops, .data = data, .ndesc = 1 };
	pthread_mutex_lock(&fd_lock);
	slot = fd_slot(fd, true);
	if (!slot) {
		pthread_mutex_unlock(&fd_lock);
		free(o);
		return -ENOMEM;
	}
	/* Left by a close() that bypassed us: that descriptor is gone. */
	stale = obj_unref_locked(*slot);
	fd_slot_set(slot, o);
	pthread_mutex_unlock(&fd_lock);
	obj_release(stale);
	return 0;
}

void *shim_fd_lookup(int fd, const struct shim_fd_ops *ops)
{
	struct shim_obj *o = fd_get(fd);

	return o && o->ops == ops ? o->data : NULL;
}

void *shim_fd_get(int fd, const struct shim_fd_ops *ops,
		  void *(*get)(void *data))
{
	struct shim_obj *o;
	void *ret = NULL;

	pthread_mutex_lock(&fd_lock);
	o = fd_get(fd);
	if (o && o->ops == ops)
		ret = get(o->data);
	pthread_mutex_unlock(&fd_lock);
	return ret;
}

/*
 * @fd is being closed: forget it. Done before the real close(), so that
 * no other thread can be given the number while it is still in the table.
 * Return: the object to release after the close, if @fd was its last.
 */
static struct shim_obj *fd_clear(int fd)
{
	struct shim_obj **slot, *o = NULL;

	pthread_mutex_lock(&fd_lock);
	slot = fd_slot(fd, false);
	if (slot && *slot) {
		o = obj_unref_locked(*slot);
		fd_slot_set(slot, NULL);
	}
	pthread_mutex_unlock(&fd_lock);
	return o;
}

/* fd_clear() for [@first, @last]: a list of the objects to release. */
static struct shim_obj *fd_clear_range(unsigned int first, unsigned int last)
{
	struct shim_obj **chunk, *o, *list = NULL;
	unsigned int fd;

	if (first >= FD_LIMIT)
		return NULL;
	if (last >= FD_LIMIT)
		last = FD_LIMIT - 1;
	pthread_mutex_lock(&fd_lock);
	for (fd = first; fd <= last; fd++) {
		chunk = fd_chunks[fd >> FD_CHUNK_BITS];
		if (!chunk) {
			fd |= FD_CHUNK - 1;	/* the next chunk */
			continue;
		}
		o = chunk[fd & (FD_CHUNK - 1)];
		if (!o)
			continue;
		fd_slot_set(&chunk[fd & (FD_CHUNK - 1)], NULL);
		if (obj_unref_locked(o)) {
			o->next = list;
			list = o;
		}
	}
	pthread_mutex_unlock(&fd_lock);
	return list;
}

/*
 * @newfd has just been made a copy of @oldfd (dup(), dup2(), dup3(),
 * F_DUPFD): it stands for what @oldfd stands for, and no longer for what
 * it stood for before (dup2() closed that).
 * Return: @newfd, or -1 with errno set (and @newfd closed).
 */
static int fd_dup(int oldfd, int newfd)
{
	struct shim_obj **slot, *o, *stale = NULL;

	if (oldfd == newfd || (!fd_get(oldfd) && !fd_get(newfd)))
		return newfd;
	pthread_mutex_lock(&fd_lock);
	o = fd_get(oldfd);
	slot = fd_slot(newfd, o);
	if (!slot) {
		pthread_mutex_unlock(&fd_lock);
		if (!o)
			return newfd;
		REAL(close)(newfd);
		return fail(ENOMEM);
	}
	if (*slot != o) {
		stale = obj_unref_locked(*slot);
		if (o)
			o->ndesc++;
		fd_slot_set(slot, o);
	}
	pthread_mutex_unlock(&fd_lock);
	obj_release(stale);
	return newfd;
}

/* A new descriptor from libc: whatever the table had for it is stale. */
static int fd_fresh(int fd)
{
	if (fd >= 0 && unlikely(fd_get(fd)))
		obj_release(fd_clear(fd));
	return fd;
}

static int shim_close(int fd)
{
	struct shim_obj *o = fd_get(fd) ? fd_clear(fd) : NULL;
	int ret = REAL(close)(fd);

	obj_release(o);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Descriptors of fake files                                            */
/* ------------------------------------------------------------------ */

/* An open fake file: a memfd (with the contents, for a sysfs file). */
struct vfd {
	const struct vnode *node;
	struct shim_file *file;	/* device nodes, but not O_PATH */
};

static void vfd_release(void *data)
{
	struct vfd *v = data;

	if (v->file)
		shim_file_put(v->file);
	free(v);
}

static const struct shim_fd_ops vfd_ops = {
	.name = "vatom-shim node",
	.release = vfd_release,
};

static struct vfd *vfd_get(int fd)
{
	struct shim_obj *o = fd_get(fd);

	return o && o->ops == &vfd_ops ? o->data : NULL;
}

/* open() of @v. Return: the descriptor or a negative errno. */
static int vnode_open(const struct vnode *v, int flags)
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
	if ((flags & O_NONBLOCK) && REAL(fcntl)(fd, F_SETFL, O_NONBLOCK)) {
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
	REAL(close)(fd);
put:
	if (file)
		shim_file_put(file);
free:
	free(vfd);
	return ret;
}

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

/* at_resolve() past its quick tests: the path may be ours. */
static __attribute__((noinline)) int at_resolve_slow(int dirfd,
						     const char **path,
						     bool follow,
						     struct vres *r)
{
	const char *p = *path;
	char abs[PATH_MAX];
	struct vfd *v;
	int k;

	if (*p != '/') {
		v = vfd_get(dirfd);
		if (v->node->type != VN_DIR)
			return -ENOTDIR;
		if ((size_t)snprintf(abs, sizeof(abs), "%s/%s", v->node->path,
				     p) >= sizeof(abs))
			return -ENAMETOOLONG;
		p = abs;
	}
	k = vfs_resolve(p, follow, r);
	if (k == VR_PASS && p == abs) {
		/* out of our directory: libc must not see it as relative */
		r->real = strdup(abs);
		if (!r->real)
			return -ENOMEM;
	}
	if (r->real) {
		trace("resolve", *path, r->real);
		*path = r->real;
	}
	return k;
}

/*
 * at_resolve() - vfs_resolve() for a call with a directory descriptor
 *
 * @path is absolute, or relative to a descriptor of one of our
 * directories; anything else is libc's. When libc is to answer with
 * another path than the caller's, *@path becomes @r->real, which
 * REAL_CALL() frees after the call.
 */
static int at_resolve(int dirfd, const char **path, bool follow,
		      struct vres *r)
{
	const char *p = *path;

	r->real = NULL;
	if (unlikely(vfs_maybe(p)) ||
	    (p && *p && *p != '/' && dirfd != AT_FDCWD && vfd_get(dirfd)))
		return at_resolve_slow(dirfd, path, follow, r);
	return VR_PASS;
}

/* @expr, libc's call, then @r's path for it freed (errno kept) */
#define REAL_CALL(r, expr)						\
	({								\
		__typeof__(expr) ret_ = (expr);				\
									\
		if (unlikely((r).real)) {				\
			int err_ = errno;				\
									\
			free((r).real);					\
			errno = err_;					\
		}							\
		ret_;							\
	})

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
	return shim_close(fd);
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
/* ioctl() and mmap()                                                   */
/* ------------------------------------------------------------------ */

/*
 * The device file behind @fd, referenced, or NULL: found under fd_lock,
 * so that a close() of @fd in another thread meanwhile cannot free it
 * under the call (the kernel's fget()). *@other: @fd is ours but not a
 * device file's (-EBADF for an O_PATH one), or 0.
 */
static struct shim_file *device_file_get(int fd, int *other)
{
	struct shim_file *file = NULL;
	struct vfd *v;

	*other = 0;
	if (likely(!vfd_get(fd)))
		return NULL;	/* never ours: no lock on other fds' calls */
	pthread_mutex_lock(&fd_lock);
	v = vfd_get(fd);
	if (v && v->node->type == VN_CHR && v->file)
		file = shim_file_get(v->file);
	else if (v && v->node->type == VN_CHR)
		*other = -EBADF;	/* O_PATH */
	else if (v)
		*other = -ENOTTY;
	pthread_mutex_unlock(&fd_lock);
	return file;
}

SHIM_EXPORT int ioctl(int fd, unsigned long request, ...)
{
	struct shim_file *file;
	struct shim_obj *o;
	va_list ap;
	void *arg;
	int ret;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);

	file = device_file_get(fd, &ret);
	if (file) {
		ret = shim_file_ioctl(file, request, arg);
		shim_file_put(file);
		return ret < 0 ? fail(-ret) : ret;
	}
	if (ret == -EBADF)
		return fail(EBADF);
	if (likely(!fd_get(fd)) || ret)
		return REAL(ioctl)(fd, request, arg);

	/*
	 * A descriptor the shim made: a sync_file's, a dma-buf's. Their
	 * ioctls are short and close no descriptor: under fd_lock, which
	 * keeps the object alive.
	 */
	pthread_mutex_lock(&fd_lock);
	o = fd_get(fd);
	if (o && o->ops->ioctl) {
		ret = o->ops->ioctl(o->data, request, arg);
		pthread_mutex_unlock(&fd_lock);
		return ret < 0 ? fail(-ret) : ret;
	}
	pthread_mutex_unlock(&fd_lock);
	return REAL(ioctl)(fd, request, arg);
}

/*
 * write() of a module parameter's file sets it, as sysfs does: the whole
 * value in one call, its errno (EINVAL, ERANGE) from the parameter's set.
 */
SHIM_EXPORT ssize_t write(int fd, const void *buf, size_t n)
{
	struct vfd *v = vfd_get(fd);
	int ret;

	if (likely(!v) || !v->node->param)
		return REAL(write)(fd, buf, n);
	ret = shim_param_store(v->node->param, buf, n);
	return ret < 0 ? fail(-ret) : (ssize_t)n;
}

/* A device file's mapping, or NULL when @fd is not one. */
static void *device_mmap(void *addr, size_t len, int prot, int flags, int fd,
			 off_t off)
{
	struct shim_file *file;
	int other;
	void *p;

	if (likely(flags & MAP_ANONYMOUS))
		return NULL;
	file = device_file_get(fd, &other);
	if (!file) {
		if (other != -EBADF)
			return NULL;
		errno = EBADF;
		return MAP_FAILED;
	}
	p = shim_file_mmap(file, addr, len, prot, flags, off);
	shim_file_put(file);
	return p;
}

SHIM_EXPORT void *mmap(void *addr, size_t len, int prot, int flags, int fd,
		       off_t off)
{
	void *p = device_mmap(addr, len, prot, flags, fd, off);

	return p ? p : REAL(mmap)(addr, len, prot, flags, fd, off);
}

SHIM_EXPORT void *mmap64(void *addr, size_t len, int prot, int flags, int fd,
			 off64_t off)
{
	void *p = device_mmap(addr, len, prot, flags, fd, off);

	return p ? p : REAL(mmap64)(addr, len, prot, flags, fd, off);
}

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
		shim_close(fd);
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

/* A DIR * of ours: every call that takes a DIR * checks for one. */
struct vdir {
	struct vdir *next;
	const struct vnode *node;
	int fd;			/* dirfd() */
	long loc;		/* 0 ".", 1 "..", 2 + n: from vfs[n] on */
	struct dirent ent;
	struct dirent64 ent64;
};

static struct vdir *vdir_list;
static unsigned int vdir_nr;
static pthread_mutex_t vdir_lock = PTHREAD_MUTEX_INITIALIZER;

static struct vdir *vdir_find(DIR *d)
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

/* opendir() of @n, with its descriptor @fd (or -1: open one). */
static DIR *vdir_open(const struct vnode *n, int fd)
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

struct vdirent {
	const char *name;
	ino_t ino;
	long off;
	unsigned char type;
};

static bool vdir_next(struct vdir *v, struct vdirent *e)
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

#define FILL_DIRENT(d, e)						\
	do {								\
		(d)->d_ino = (e)->ino;					\
		(d)->d_off = (e)->off;					\
		(d)->d_reclen = sizeof(*(d));				\
		(d)->d_type = (e)->type;				\
		strcpy((d)->d_name, (e)->name);				\
	} while (0)

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
	struct vdir *v = vdir_find(d), **pp;

	if (likely(!v))
		return REAL(closedir)(d);
	pthread_mutex_lock(&vdir_lock);
	for (pp = &vdir_list; *pp != v; pp = &(*pp)->next)
		;
	*pp = v->next;
	__atomic_sub_fetch(&vdir_nr, 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&vdir_lock);
	shim_close(v->fd);
	free(v);
	return 0;
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

/* ------------------------------------------------------------------ */
/* Faults: copy_from_user(), copy_to_user()                             */
/* ------------------------------------------------------------------ */

/*
 * A copy in progress, on the copier's stack; the thread's innermost one
 * is copy_top. A copy that a signal handler makes in the middle of
 * another (an ioctl() from the handler) stacks on it. Initial-exec TLS:
 * the handler and the copy reach it with one instruction and no
 * allocation (the shim is preloaded, so its TLS is static).
 */
struct copy_frame {
	sigjmp_buf env;
	uintptr_t lo, hi;	/* the user range being copied */
	struct copy_frame *prev;
};

static __thread struct copy_frame *volatile copy_top
	__attribute__((tls_model("initial-exec")));

/*
 * The program's own SIGSEGV and SIGBUS actions, as it set them (or as
 * they were before the shim installed its handler): what its sigaction()
 * calls read and write, and what the handler calls for every fault that
 * is not a copy's. Two copies each, flipped on a change, so the handler
 * never reads one half written.
 */
static struct {
	struct sigaction act[2];
	int cur;
} prog_sig[2];
static pthread_mutex_t sig_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t fault_once = PTHREAD_ONCE_INIT;
static bool fault_ready;

static int sig_slot(int sig)
{
	return sig == SIGSEGV ? 0 : sig == SIGBUS ? 1 : -1;
}

static void prog_sig_get(int i, struct sigaction *act)
{
	*act = prog_sig[i].act[__atomic_load_n(&prog_sig[i].cur,
					       __ATOMIC_ACQUIRE)];
}

static void prog_sig_set(int i, const struct sigaction *act)
{
	int c = !prog_sig[i].cur;

	prog_sig[i].act[c] = *act;
	__atomic_store_n(&prog_sig[i].cur, c, __ATOMIC_RELEASE);
}

/* The program's action for @sig, as the kernel would have taken it. */
static void fault_chain(int sig, siginfo_t *si, void *uc)
{
	struct sigaction a, dfl = { .sa_handler = SIG_DFL };
	int i = sig_slot(sig);
	sigset_t mask, old;

	prog_sig_get(i, &a);
	if (!(a.sa_flags & SA_SIGINFO) && a.sa_handler == SIG_IGN) {
		/* a fault the kernel raised cannot be ignored: it kills */
		if (si->si_code <= 0)
			return;
		a.sa_handler = SIG_DFL;
	}
	if (!(a.sa_flags & SA_SIGINFO) && a.sa_handler == SIG_DFL) {
		/*
		 * The default action, by the kernel: a fault happens again
		 * when we return and kills with the right siginfo and core;
		 * a signal someone sent is sent again.
		 */
		REAL(sigaction)(sig, &dfl, NULL);
		if (si->si_code <= 0)
			raise(sig);
		return;
	}

	/* As the kernel calls a handler: its mask, its flags */
	mask = a.sa_mask;
	if (!(a.sa_flags & SA_NODEFER))
		sigaddset(&mask, sig);
	pthread_sigmask(SIG_BLOCK, &mask, &old);
	if (a.sa_flags & SA_RESETHAND)
		prog_sig_set(i, &dfl);
	if (a.sa_flags & SA_SIGINFO)
		a.sa_sigaction(sig, si, uc);
	else
		a.sa_handler(sig);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/*
 * First in line for SIGSEGV and SIGBUS. A fault the kernel raised for the
 * user range of this thread's copy (or a general protection fault, which
 * has no address: a non-canonical pointer) ends the copy with -EFAULT;
 * everything else is the program's.
 */
static void shim_fault(int sig, siginfo_t *si, void *uc)
{
	struct copy_frame *f = copy_top;
	uintptr_t addr = (uintptr_t)si->si_addr;

	if (f && si->si_code > 0 &&
	    (si->si_code == SI_KERNEL || (addr >= f->lo && addr < f->hi))) {
		copy_top = f->prev;
		siglongjmp(f->env, 1);
	}
	fault_chain(sig, si, uc);
}

/*
 * SA_NODEFER and an empty sa_mask: siglongjmp() out of the handler with
 * sigsetjmp(env, 0) restores no mask, so the handler must block nothing.
 * SA_ONSTACK: a program that runs its fault handler on an alternate stack
 * (stack overflows) still gets there.
 */
static void fault_install(void)
{
	struct sigaction sa = {
		.sa_sigaction = shim_fault,
		.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK,
	}, old;
	int i;

	sigemptyset(&sa.sa_mask);
	for (i = 0; i < 2; i++) {
		if (REAL(sigaction)(i ? SIGBUS : SIGSEGV, &sa, &old))
			continue;
		prog_sig[i].act[0] = old;
	}
	__atomic_store_n(&fault_ready, true, __ATOMIC_RELEASE);
}

static void fault_init(void)
{
	if (unlikely(!__atomic_load_n(&fault_ready, __ATOMIC_ACQUIRE)))
		pthread_once(&fault_once, fault_install);
}

static int shim_copy(void *dst, const void *src, size_t n, const void *user)
{
	uintptr_t u = (uintptr_t)user;
	struct copy_frame f;

	if (!n)
		return 0;
	if (!u || u + n < u)
		return -EFAULT;	/* memcpy() must not see NULL */
	fault_init();
	f.lo = u;
	f.hi = u + n;
	f.prev = copy_top;
	if (sigsetjmp(f.env, 0))
		return -EFAULT;		/* the handler popped the frame */
	copy_top = &f;
	__asm__ __volatile__("" ::: "memory");
	memcpy(dst, src, n);
	__asm__ __volatile__("" ::: "memory");
	copy_top = f.prev;
	return 0;
}

int shim_copy_in(void *dst, const void *usrc, size_t n)
{
	return shim_copy(dst, usrc, n, usrc);
}

int shim_copy_out(void *udst, const void *src, size_t n)
{
	return shim_copy(udst, src, n, udst);
}

/* ------------------------------------------------------------------ */
/* The program's signal handlers                                        */
/* ------------------------------------------------------------------ */

/* sigaction() for SIGSEGV and SIGBUS: the program's, kept behind ours. */
static int shim_sigaction(int sig, const struct sigaction *act,
			  struct sigaction *old)
{
	int i = sig_slot(sig);
	struct sigaction a;

	if (act)
		a = *act;	/* @act and @old may be one */
	fault_init();
	pthread_mutex_lock(&sig_lock);
	if (old)
		prog_sig_get(i, old);
	if (act)
		prog_sig_set(i, &a);
	pthread_mutex_unlock(&sig_lock);
	return 0;
}

SHIM_EXPORT int sigaction(int sig, const struct sigaction *act,
			  struct sigaction *old)
{
	if (likely(sig_slot(sig) < 0))
		return REAL(sigaction)(sig, act, old);
	return shim_sigaction(sig, act, old);
}

SHIM_EXPORT int __sigaction(int sig, const struct sigaction *act,
			    struct sigaction *old)
{
	if (likely(sig_slot(sig) < 0))
		return REAL(__sigaction)(sig, act, old);
	return shim_sigaction(sig, act, old);
}

/* signal() and its variants, in terms of sigaction(), as glibc has them */
static sighandler_t shim_signal(int sig, sighandler_t handler, int flags,
				bool mask_self)
{
	struct sigaction act = { .sa_handler = handler, .sa_flags = flags };
	struct sigaction old;

	if (handler == SIG_ERR) {
		errno = EINVAL;
		return SIG_ERR;
	}
	sigemptyset(&act.sa_mask);
	if (mask_self)
		sigaddset(&act.sa_mask, sig);
	shim_sigaction(sig, &act, &old);
	return old.sa_handler;
}

SHIM_EXPORT sighandler_t signal(int sig, sighandler_t handler)
{
	if (likely(sig_slot(sig) < 0))
		return REAL(signal)(sig, handler);
	return shim_signal(sig, handler, SA_RESTART, true);
}

SHIM_EXPORT sighandler_t bsd_signal(int sig, sighandler_t handler)
{
	if (likely(sig_slot(sig) < 0))
		return REAL(bsd_signal)(sig, handler);
	return shim_signal(sig, handler, SA_RESTART, true);
}

SHIM_EXPORT sighandler_t sysv_signal(int sig, sighandler_t handler)
{
	if (likely(sig_slot(sig) < 0))
		return REAL(sysv_signal)(sig, handler);
	return shim_signal(sig, handler, SA_RESETHAND | SA_NODEFER, false);
}

SHIM_EXPORT sighandler_t __sysv_signal(int sig, sighandler_t handler)
{
	if (likely(sig_slot(sig) < 0))
		return REAL(__sysv_signal)(sig, handler);
	return shim_signal(sig, handler, SA_RESETHAND | SA_NODEFER, false);
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
SHIM_EXPORT sighandler_t sigset(int sig, sighandler_t disp)
{
	sighandler_t old;
	sigset_t set;

	if (likely(sig_slot(sig) < 0) || disp == SIG_HOLD)
		return REAL(sigset)(sig, disp);
	old = shim_signal(sig, disp, 0, false);
	if (old != SIG_ERR) {
		sigemptyset(&set);
		sigaddset(&set, sig);
		pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	}
	return old;
}
#pragma GCC diagnostic pop

/* ------------------------------------------------------------------ */
/* libc, uninterposed, for the rest of the shim                         */
/* ------------------------------------------------------------------ */

/**
 * shim_real_close() - libc's close(), past the descriptor table
 * @fd: a descriptor the shim holds for itself and never tracked
 *
 * Return: 0, or -1 with errno set, as close() does.
 */
int shim_real_close(int fd)
{
	return REAL(close)(fd);
}

/**
 * shim_real_mmap() - libc's mmap(), past the device files
 *
 * Return: the mapping, or MAP_FAILED with errno set, as mmap() does.
 */
void *shim_real_mmap(void *addr, size_t len, int prot, int flags, int fd,
		     off_t off)
{
	return REAL(mmap)(addr, len, prot, flags, fd, off);
}

/**
 * shim_real_fcntl_dupfd() - fcntl(F_DUPFD or F_DUPFD_CLOEXEC), untracked
 * @fd: the descriptor
 * @min: the lowest number the copy may take
 * @cloexec: F_DUPFD_CLOEXEC
 *
 * The copy stands for nothing in the table, whatever @fd stands for.
 *
 * Return: the new descriptor, or -1 with errno set, as fcntl() does.
 */
int shim_real_fcntl_dupfd(int fd, int min, bool cloexec)
{
	return REAL(fcntl)(fd, cloexec ? F_DUPFD_CLOEXEC : F_DUPFD, min);
}

/* ------------------------------------------------------------------ */
/* Start-up                                                             */
/* ------------------------------------------------------------------ */

/* A fork() child calls close() and the like: no lock may stay held. */
static void shim_atfork_prepare(void)
{
	pthread_mutex_lock(&vdir_lock);
	pthread_mutex_lock(&fd_lock);
	pthread_mutex_lock(&sig_lock);
}

static void shim_atfork_release(void)
{
	pthread_mutex_unlock(&sig_lock);
	pthread_mutex_unlock(&fd_lock);
	pthread_mutex_unlock(&vdir_lock);
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
