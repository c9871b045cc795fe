// SPDX-License-Identifier: MIT
/*
 * vfs.c: the tree of fake files the shim presents, and the path walk
 * that finds them.
 *
 * A small read-only tree: /dev/dri and the sysfs entries the kernel makes
 * for vatom.ko's platform devices, laid out as a kernel with vatom.ko
 * loaded lays them out, links and all, so that libdrm's discovery sees
 * the shim's devices as it sees the module's. preload.c's and
 * preload_fs.c's entry points walk every absolute path they are given
 * with at_resolve() (vfs.h): a path of ours is answered from the tree
 * (vnode.c), one through a link of ours to elsewhere goes to libc
 * rewritten, anything else goes to libc as it is.
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
 * Only absolute paths (and paths relative to a descriptor of one of the
 * fake directories) reach the tree; a relative path against the working
 * directory goes to libc as it is.
 *
 * A file of its own, apart from preload.c: it defines no libc symbol and
 * uses no REAL() (real.h), so it links into a program
 * without preload.c too.
 */
#undef _FORTIFY_SOURCE
#undef _FILE_OFFSET_BITS
#undef _TIME_BITS

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vfs.h"

/* VATOM_SHIM_DEBUG=1: trace() a line for each call the tree answers */
int shim_debug;

/* ------------------------------------------------------------------ */
/* The tree                                                             */
/* ------------------------------------------------------------------ */

struct vnode vfs[VFS_MAX];
unsigned int vfs_nr;
struct timespec vfs_time;
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

/**
 * vfs_init() - build the tree, once
 *
 * For shim_num_devices() devices; every walk calls it first.
 */
void vfs_init(void)
{
	pthread_once(&vfs_once, vfs_build);
}

/* ------------------------------------------------------------------ */
/* The path walk                                                        */
/* ------------------------------------------------------------------ */

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

/**
 * at_resolve_slow() - at_resolve() past its quick tests
 * @dirfd: the call's directory descriptor, or AT_FDCWD
 * @path: the call's path, which may be ours: *@path becomes @r->real when
 *	libc is to answer with another path
 * @follow: follow a link in the last component
 * @r: where the path leads
 *
 * A relative @path is taken against @dirfd, which is one of the tree's
 * directories (at_resolve() checked); a path that walks out of the tree
 * from there goes to libc absolute.
 *
 * Return: VR_PASS, VR_REAL, VR_NODE or a negative errno, as vfs_resolve().
 */
__attribute__((noinline)) int at_resolve_slow(int dirfd, const char **path,
					      bool follow, struct vres *r)
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
