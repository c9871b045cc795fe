// SPDX-License-Identifier: MIT
/*
 * preload_test_fs.c: preload.c's host test, the file system view the shim
 * presents (preload_fs.c, vfs.c, vnode.c): /dev/dri listed, stat()ed and
 * opened as the number of devices says, and nothing of the host's; the
 * sysfs links, directories and files libdrm reads, through readlink(),
 * realpath(), stat(), opendir(), fopen() and open().
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/xattr.h>

#include "preload_test.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* @names (@n, allocated; freed here) sorted and joined with spaces in @buf. */
static char *join_sorted(char *buf, char **names, unsigned int n)
{
	unsigned int i;

	qsort(names, n, sizeof(names[0]), cmp_str);
	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i)
			strcat(buf, " ");
		strcat(buf, names[i]);
		free(names[i]);
	}
	return buf;
}

/*
 * The names in directory @path, sorted and joined with spaces ("" when it
 * cannot be opened); @types_ok: whether the nodes are DT_CHR.
 */
static char *dir_list(const char *path, bool use64, bool *types_ok)
{
	static char buf[4096];
	char *names[256];
	unsigned int n = 0;
	DIR *d = opendir(path);
	const char *name;
	unsigned char type;

	buf[0] = '\0';
	if (types_ok)
		*types_ok = true;
	if (!d)
		return buf;
	for (;;) {
		if (use64) {
			struct dirent64 *e = readdir64(d);

			if (!e)
				break;
			name = e->d_name;
			type = e->d_type;
		} else {
			struct dirent *e = readdir(d);

			if (!e)
				break;
			name = e->d_name;
			type = e->d_type;
		}
		if (types_ok && (!strncmp(name, "card", 4) ||
				 !strncmp(name, "renderD", 7)) &&
		    type != DT_CHR && type != DT_LNK)
			*types_ok = false;
		if (n < 256)
			names[n++] = strdup(name);
	}
	closedir(d);
	return join_sorted(buf, names, n);
}

/* What /dev/dri should list, sorted as dir_list() sorts. */
static char *expected_dev_dri(const char *extra)
{
	static char buf[4096];
	char *names[64];
	unsigned int n = 0, i;

	if (extra)
		names[n++] = strdup(extra);
	names[n++] = strdup(".");
	names[n++] = strdup("..");
	for (i = 0; i < ndev; i++) {
		if (asprintf(&names[n++], "card%u", i) < 0 ||
		    asprintf(&names[n++], "renderD%u",
			     SHIM_RENDER_MINOR_BASE + i) < 0)
			abort();
	}
	return join_sorted(buf, names, n);
}

static char *file_contents(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "r");
	size_t n;

	buf[0] = '\0';
	if (!f)
		return buf;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

void test_dev_dri(void)
{
	char path[64], *want = expected_dev_dri(NULL);
	struct stat s;
	bool types;

	ok(!strcmp(dir_list("/dev/dri", false, &types), want),
	   "opendir(/dev/dri) lists exactly: %s", want);
	ok(types, "readdir(/dev/dri): the nodes are DT_CHR");
	ok(!strcmp(dir_list("/dev/dri", true, NULL), want),
	   "readdir64(/dev/dri) lists the same");
	ok(!stat("/dev/dri", &s) && S_ISDIR(s.st_mode),
	   "stat(/dev/dri): a directory");

	ok(!stat("/dev/dri/renderD128", &s) && is_rdev(&s, 128) &&
	   (s.st_mode & 0777) == 0666,
	   "stat(/dev/dri/renderD128): crw-rw-rw- 226:128");
	ok(!lstat("/dev/dri/card0", &s) && is_rdev(&s, 0),
	   "lstat(/dev/dri/card0): char device 226:0");
	if (ndev > 1)
		ok(!stat("/dev/dri/renderD129", &s) && is_rdev(&s, 129) &&
		   !stat("/dev/dri/card1", &s) && is_rdev(&s, 1),
		   "stat(/dev/dri/card1, renderD129): 226:1, 226:129");
	snprintf(path, sizeof(path), "/dev/dri/renderD%u", 128 + ndev);
	errno = 0;
	ok(stat(path, &s) == -1 && errno == ENOENT, "stat(%s): ENOENT", path);
	snprintf(path, sizeof(path), "/dev/dri/card%u", ndev);
	errno = 0;
	ok(open(path, O_RDWR) == -1 && errno == ENOENT, "open(%s): ENOENT",
	   path);
	errno = 0;
	ok(stat("/dev/dri/by-path", &s) == -1 && errno == ENOENT,
	   "stat(/dev/dri/by-path): ENOENT (nothing of the host's)");
	ok(!access("/dev/dri/renderD128", R_OK | W_OK),
	   "access(renderD128, R_OK | W_OK)");
	errno = 0;
	ok(lgetxattr("/dev/dri/renderD128", "security.selinux", path,
		     sizeof(path)) == -1 && errno == ENODATA &&
	   !listxattr("/dev/dri", path, sizeof(path)),
	   "no extended attributes (ls -l asks)");

	{
		struct statx sx;

		ok(!statx(AT_FDCWD, "/dev/dri/renderD128", 0, STATX_BASIC_STATS,
			  &sx) && S_ISCHR(sx.stx_mode) &&
		   sx.stx_rdev_major == 226 && sx.stx_rdev_minor == 128,
		   "statx(renderD128): 226:128");
		ok(!fstatat(AT_FDCWD, "/dev/char/226:128", &s, 0) &&
		   is_rdev(&s, 128),
		   "fstatat(/dev/char/226:128): follows to renderD128");
	}
}

void test_sysfs(void)
{
	char buf[256], *want;
	struct stat s, real;
	ssize_t n;
	char *p;
	int fd;

	n = readlink("/sys/dev/char/226:128/device/subsystem", buf,
		     sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	ok(!strcmp(buf, "../../../bus/platform"),
	   "readlink(/sys/dev/char/226:128/device/subsystem) = %s", buf);
	n = readlink("/sys/dev/char/226:128", buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	ok(!strcmp(buf, "../../devices/platform/vatom.0/drm/renderD128"),
	   "readlink(/sys/dev/char/226:128) = %s", buf);
	p = realpath("/sys/dev/char/226:128/device", NULL);
	ok(p && !strcmp(p, "/sys/devices/platform/vatom.0"),
	   "realpath(/sys/dev/char/226:128/device) = %s", p ? p : "NULL");
	free(p);
	p = realpath("/sys/class/drm/card0/device/drm/renderD128/../card0",
		     buf);
	ok(p && !strcmp(p, "/sys/devices/platform/vatom.0/drm/card0"),
	   "realpath through links and .. = %s", p ? p : "NULL");
	ok(!stat("/sys/dev/char/226:128/device/drm", &s) && S_ISDIR(s.st_mode),
	   "stat(/sys/dev/char/226:128/device/drm): a directory");
	ok(!lstat("/sys/dev/char/226:128", &s) && S_ISLNK(s.st_mode),
	   "lstat(/sys/dev/char/226:128): a link");
	errno = 0;
	ok(open("/sys/dev/char/226:128", O_RDONLY | O_NOFOLLOW) == -1 &&
	   errno == ELOOP, "open(O_NOFOLLOW) of a link: ELOOP");
	errno = 0;
	ok(stat("/sys/dev/char/226:127", &s) == -1 && errno == ENOENT,
	   "stat(/sys/dev/char/226:127): ENOENT");
	errno = 0;
	ok(stat("/dev/dri/renderD128/x", &s) == -1 && errno == ENOTDIR,
	   "stat(/dev/dri/renderD128/x): ENOTDIR");

	if (!stat("/sys/bus/platform", &real)) {
		ok(!stat("/sys/dev/char/226:128/device/subsystem", &s) &&
		   s.st_ino == real.st_ino && s.st_dev == real.st_dev,
		   "stat() through a link out of the tree: "
		   "the real /sys/bus/platform");
		p = realpath("/sys/devices/platform/vatom.0/subsystem", NULL);
		ok(p && !strcmp(p, "/sys/bus/platform"),
		   "realpath() of it = %s", p ? p : "NULL");
		free(p);
	}
	ok(!strcmp(dir_list("/sys/dev/char/226:128/device/drm", false, NULL),
		   ". .. card0 renderD128"),
	   "opendir(/sys/dev/char/226:128/device/drm): card0 renderD128");
	want = expected_dev_dri("version");
	ok(!strcmp(dir_list("/sys/class/drm", false, NULL), want),
	   "opendir(/sys/class/drm) lists exactly: %s", want);

	p = file_contents("/sys/dev/char/226:128/device/uevent");
	ok(!strcmp(p, "DRIVER=vatom\nMODALIAS=platform:vatom.0\n"),
	   "fopen(/sys/dev/char/226:128/device/uevent): DRIVER, MODALIAS");
	p = file_contents("/sys/dev/char/226:128/uevent");
	ok(!strcmp(p, "MAJOR=226\nMINOR=128\nDEVNAME=dri/renderD128\n"
		   "DEVTYPE=drm_minor\n"),
	   "fopen(/sys/dev/char/226:128/uevent): "
	   "MAJOR, MINOR, DEVNAME, DEVTYPE");
	p = file_contents("/sys/class/drm/card0/dev");
	ok(!strcmp(p, "226:0\n"), "fopen(/sys/class/drm/card0/dev): 226:0");
	if (ndev > 1) {
		p = file_contents("/sys/dev/char/226:129/device/uevent");
		ok(!strcmp(p, "DRIVER=vatom\nMODALIAS=platform:vatom.1\n"),
		   "the second device's uevent: vatom.1");
	}

	fd = open("/sys/dev/char/226:0/device/modalias", O_RDONLY);
	n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	buf[n > 0 ? n : 0] = '\0';
	ok(fd >= 0 && !strcmp(buf, "platform:vatom.0\n") && !fstat(fd, &s) &&
	   S_ISREG(s.st_mode),
	   "open()+read() of a sysfs file: its contents, a regular file");
	if (fd >= 0)
		close(fd);
	errno = 0;
	ok(open("/sys/dev/char/226:0/device/uevent", O_WRONLY) == -1 &&
	   errno == EACCES, "open(O_WRONLY) of a sysfs file: EACCES");
	ok(!fopen("/sys/class/drm/card0/nosuch", "r") && errno == ENOENT,
	   "fopen() of a missing sysfs file: ENOENT");
}
