// SPDX-License-Identifier: MIT
/*
 * preload_test.c: preload.c's tests, on the host, without the rest of the
 * shim. This file is built twice (shim/test/preload_test.sh):
 *
 *  - with PRELOAD_TEST_STUB, into a test shim with preload.c: a stub of
 *    file.c's four functions (an ioctl that answers a ping and VERSION,
 *    an mmap of anonymous memory, counters of opens and releases), and
 *    preload_test_hooks(), through which the program reaches the shim's
 *    internal calls and the counters;
 *  - without, into the program, run with LD_PRELOAD=that shim. It prints
 *    TAP, one line per check, the plan last.
 *
 * The program's checks: the fake /dev/dri and sysfs (for the number of
 * devices $PRELOAD_TEST_DEVICES says to expect), open/fstat/ioctl/mmap of
 * a node reaching the stub, dup() and friends sharing one file with one
 * release, shim_fd_track(), shim_copy_in()/shim_copy_out() against
 * unmapped and read-only memory, the program's own SIGSEGV/SIGBUS
 * handlers (one installed before the shim, others after) getting their
 * faults, and libdrm's discovery and naming calls on the result.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>

#include <drm.h>

#include "shim.h"

/* The stub's counters, as the program reads them. */
struct stub_stats {
	int opens, puts;
	unsigned int last_minor;	/* of the last open */
	void *last_opened;
	void *last_file;		/* of the last ioctl */
	unsigned long last_req;
	void *last_arg;
	int mmaps;
	void *mmap_file;
	off_t mmap_off;
};

struct preload_test_hooks {
	unsigned int (*num_devices)(void);
	int (*fd_track)(int fd, const struct shim_fd_ops *ops, void *data);
	void *(*fd_lookup)(int fd, const struct shim_fd_ops *ops);
	int (*copy_in)(void *dst, const void *usrc, size_t n);
	int (*copy_out)(void *udst, const void *src, size_t n);
	int (*copy_out_probe)(void *udst, const void *src, size_t n);
	int (*copy_in_stream)(void *dst, const void *usrc, size_t n);
	int (*real_close)(int fd);
	int (*real_fcntl_dupfd)(int fd, int min, bool cloexec);
	void (*early_handler)(int sig, siginfo_t *si, void *uc);
	struct stub_stats *stats;
};

/* The stub's requests: a ping that copies in and out, and a failure. */
struct test_ping {
	uint32_t in, out;
};

#define TEST_IOCTL_PING	_IOWR('t', 1, struct test_ping)
#define TEST_IOCTL_FAIL	_IO('t', 2)
#define PING_XOR	0x5a5a5a5au

#ifdef PRELOAD_TEST_STUB
/* ------------------------------------------------------------------ */
/* The stub file.c, in the test shim                                    */
/* ------------------------------------------------------------------ */

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

struct shim_file {
	unsigned int minor;
	unsigned int refs;
};

static struct stub_stats stats;

int shim_file_open(unsigned int minor, struct shim_file **out)
{
	unsigned int n = shim_num_devices();
	struct shim_file *f;

	if (!(minor < n || (minor >= SHIM_RENDER_MINOR_BASE &&
			    minor < SHIM_RENDER_MINOR_BASE + n)))
		return -ENODEV;
	f = malloc(sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->minor = minor;
	f->refs = 1;
	__atomic_add_fetch(&stats.opens, 1, __ATOMIC_SEQ_CST);
	stats.last_minor = minor;
	stats.last_opened = f;
	*out = f;
	return 0;
}

/*
 * The stub counts opens and releases; the references of calls in flight
 * (preload.c takes one around each ioctl() and mmap()) are not counted.
 */
struct shim_file *shim_file_get(struct shim_file *f)
{
	__atomic_add_fetch(&f->refs, 1, __ATOMIC_SEQ_CST);
	return f;
}

void shim_file_put(struct shim_file *f)
{
	if (__atomic_sub_fetch(&f->refs, 1, __ATOMIC_SEQ_CST))
		return;
	__atomic_add_fetch(&stats.puts, 1, __ATOMIC_SEQ_CST);
	free(f);
}

/* The module parameters' files: one stub parameter, kept here. */
const struct shim_param shim_params[SHIM_NUM_PARAMS] = {
	{ "job_timeout_ms", true }, { "p1", false }, { "p2", false },
	{ "p3", false }, { "p4", false }, { "p5", false }, { "p6", false },
};
static unsigned int stub_param = 10000;

int shim_param_show(const char *name, char *buf, size_t len)
{
	return snprintf(buf, len, "%u\n", strcmp(name, "job_timeout_ms") ? 0 :
		       __atomic_load_n(&stub_param, __ATOMIC_SEQ_CST));
}

int shim_param_store(const char *name, const char *buf, size_t len)
{
	if (strcmp(name, "job_timeout_ms"))
		return -EPERM;
	if (!len || buf[0] < '0' || buf[0] > '9')
		return -EINVAL;
	__atomic_store_n(&stub_param, (unsigned int)atoi(buf), __ATOMIC_SEQ_CST);
	return 0;
}

/* A string of DRM_IOCTL_VERSION, as drm_copy_field() copies one. */
static int copy_field(uint64_t ubuf, __kernel_size_t *ulen, const char *s)
{
	size_t len = strlen(s), n = len < *ulen ? len : *ulen;

	*ulen = len;
	if (n && ubuf)
		return shim_copy_out((void *)(uintptr_t)ubuf, s, n);
	return 0;
}

int shim_file_ioctl(struct shim_file *f, unsigned long request, void *arg)
{
	struct drm_version v;
	struct test_ping p;
	int ret;

	stats.last_file = f;
	stats.last_req = request;
	stats.last_arg = arg;
	switch (request) {
	case TEST_IOCTL_PING:
		ret = shim_copy_in(&p, arg, sizeof(p));
		if (ret)
			return ret;
		p.out = p.in ^ PING_XOR;
		return shim_copy_out(arg, &p, sizeof(p));
	case TEST_IOCTL_FAIL:
		return -EINVAL;
	case DRM_IOCTL_VERSION:
		ret = shim_copy_in(&v, arg, sizeof(v));
		if (ret)
			return ret;
		v.version_major = 1;
		v.version_minor = 0;
		v.version_patchlevel = 0;
		ret = copy_field((uintptr_t)v.name, &v.name_len, "vatom");
		ret = ret ?: copy_field((uintptr_t)v.date, &v.date_len, "0");
		ret = ret ?: copy_field((uintptr_t)v.desc, &v.desc_len,
					"stub");
		return ret ?: shim_copy_out(arg, &v, sizeof(v));
	default:
		return -ENOTTY;
	}
}

void *shim_file_mmap(struct shim_file *f, void *addr, size_t len, int prot,
		     int flags, off_t offset)
{
	stats.mmaps++;
	stats.mmap_file = f;
	stats.mmap_off = offset;
	return shim_real_mmap(addr, len, prot,
			      (flags & MAP_FIXED) | MAP_PRIVATE | MAP_ANONYMOUS,
			      -1, 0);
}

/* The program's SIGSEGV handler from before the shim's constructor ran */
static void early_handler(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	(void)uc;
	_exit(41);
}

/*
 * Runs before preload.c's constructor (a lower priority runs first) and
 * installs with libc's own sigaction(), as a library loaded before the
 * shim would.
 */
__attribute__((constructor(101))) static void stub_early(void)
{
	int (*real_sigaction)(int, const struct sigaction *,
			      struct sigaction *);
	struct sigaction sa = {
		.sa_sigaction = early_handler,
		.sa_flags = SA_SIGINFO,
	};

	real_sigaction = (__typeof__(real_sigaction))dlsym(RTLD_NEXT,
							   "sigaction");
	sigemptyset(&sa.sa_mask);
	if (real_sigaction)
		real_sigaction(SIGSEGV, &sa, NULL);
}

static const struct preload_test_hooks hooks = {
	.num_devices = shim_num_devices,
	.fd_track = shim_fd_track,
	.fd_lookup = shim_fd_lookup,
	.copy_in = shim_copy_in,
	.copy_out = shim_copy_out,
	.copy_out_probe = shim_copy_out_probe,
	.copy_in_stream = shim_copy_in_stream,
	.real_close = shim_real_close,
	.real_fcntl_dupfd = shim_real_fcntl_dupfd,
	.early_handler = early_handler,
	.stats = &stats,
};

SHIM_EXPORT const struct preload_test_hooks *preload_test_hooks(void);

SHIM_EXPORT const struct preload_test_hooks *preload_test_hooks(void)
{
	return &hooks;
}

#else /* !PRELOAD_TEST_STUB */
/* ------------------------------------------------------------------ */
/* The program                                                          */
/* ------------------------------------------------------------------ */

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <sys/xattr.h>

#include <xf86drm.h>

static const struct preload_test_hooks *h;
static struct stub_stats *st;
static unsigned int ndev;
static const char *tag;
static int ntests, nfailed;

static bool ok(bool cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static bool ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - %s: ", cond ? "" : "not ", ++ntests, tag);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond)
		nfailed++;
	fflush(stdout);
	return cond;
}

static void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static bool is_rdev(const struct stat *s, unsigned int minor)
{
	return S_ISCHR(s->st_mode) && major(s->st_rdev) == SHIM_DRM_MAJOR &&
	       minor(s->st_rdev) == minor;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The names in directory @path, sorted and joined with spaces ("" when it
 * cannot be opened); @types_ok: whether the nodes are DT_CHR.
 */
static char *dir_list(const char *path, bool use64, bool *types_ok)
{
	static char buf[4096];
	char *names[256];
	unsigned int n = 0, i;
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
	qsort(names, n, sizeof(names[0]), cmp_str);
	for (i = 0; i < n; i++) {
		if (i)
			strcat(buf, " ");
		strcat(buf, names[i]);
		free(names[i]);
	}
	return buf;
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

static int open_render(unsigned int i)
{
	char path[64];

	snprintf(path, sizeof(path), "/dev/dri/renderD%u",
		 SHIM_RENDER_MINOR_BASE + i);
	return open(path, O_RDWR | O_CLOEXEC);
}

/* The stub file behind @fd, as its last ping saw it (NULL: no answer). */
static void *file_of(int fd)
{
	struct test_ping p = { .in = 7 };

	st->last_file = NULL;
	if (ioctl(fd, TEST_IOCTL_PING, &p) || p.out != (7 ^ PING_XOR))
		return NULL;
	return st->last_file;
}

static void test_dev_dri(void)
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

static void test_sysfs(void)
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

static void test_open_ioctl(void)
{
	int fd, opens = st->opens, puts = st->puts, ret;
	struct test_ping p = { .in = 0x1234 };
	struct stat s;
	void *f;
	DIR *d;

	fd = open_render(0);
	ok(fd >= 0 && st->opens == opens + 1 && st->last_minor == 128,
	   "open(/dev/dri/renderD128) opens the stub's file, minor 128");
	f = st->last_opened;
	ok((fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0,
	   "O_CLOEXEC: the descriptor is close-on-exec");
	ok(!fstat(fd, &s) && is_rdev(&s, 128), "fstat(): char device 226:128");
	ok(!fstatat(fd, "", &s, AT_EMPTY_PATH) && is_rdev(&s, 128),
	   "fstatat(fd, \"\", AT_EMPTY_PATH): 226:128");

	ret = ioctl(fd, TEST_IOCTL_PING, &p);
	ok(!ret && st->last_req == TEST_IOCTL_PING && st->last_arg == &p &&
	   p.out == (0x1234 ^ PING_XOR) && st->last_file == f,
	   "ioctl() reaches shim_file_ioctl() with the file, request and arg");
	errno = 0;
	ok(ioctl(fd, TEST_IOCTL_FAIL) == -1 && errno == EINVAL,
	   "a negative return is -1 and errno (EINVAL)");
	errno = 0;
	ok(ioctl(fd, DRM_IOCTL_GET_UNIQUE, &p) == -1 && errno == ENOTTY,
	   "an unknown request: ENOTTY");
	errno = 0;
	ok(ioctl(fd, TEST_IOCTL_PING, (void *)16) == -1 && errno == EFAULT,
	   "a bad argument pointer: EFAULT");
	close(fd);
	ok(st->puts == puts + 1, "close() releases the file");

	fd = open("/dev/dri/card0", O_RDWR);
	ok(fd >= 0 && st->last_minor == 0 && file_of(fd),
	   "open(/dev/dri/card0): minor 0, answers ioctl()");
	close(fd);

	d = opendir("/dev/dri");
	fd = d ? openat(dirfd(d), "renderD128", O_RDWR) : -1;
	ok(fd >= 0 && st->last_minor == 128 && !fstat(fd, &s) &&
	   is_rdev(&s, 128), "openat(dirfd(opendir(/dev/dri)), renderD128)");
	if (fd >= 0)
		close(fd);
	fd = d ? openat(dirfd(d), "../null", O_RDONLY) : -1;
	ok(fd >= 0 && !fstat(fd, &s) && major(s.st_rdev) == 1 &&
	   minor(s.st_rdev) == 3, "openat(that dirfd, ../null): the real one");
	if (fd >= 0)
		close(fd);
	if (d)
		closedir(d);
}

static void test_dup(void)
{
	int fd, d1, d2, d3, d4, d5, puts;
	void *f;

	fd = open_render(0);
	f = file_of(fd);
	puts = st->puts;
	d1 = dup(fd);
	d2 = dup2(fd, 200);
	d3 = fcntl(fd, F_DUPFD_CLOEXEC, 300);
	d4 = dup3(fd, 400, O_CLOEXEC);
	d5 = fcntl64(fd, F_DUPFD, 500);
	ok(f && d1 >= 0 && d2 == 200 && d3 >= 300 && d4 == 400 && d5 >= 500,
	   "dup(), dup2(), F_DUPFD_CLOEXEC, dup3(), fcntl64(F_DUPFD)");
	ok((fcntl(d3, F_GETFD) & FD_CLOEXEC) &&
	   (fcntl(d4, F_GETFD) & FD_CLOEXEC),
	   "F_DUPFD_CLOEXEC and dup3(O_CLOEXEC) copies are close-on-exec");
	ok(file_of(d1) == f && file_of(d2) == f && file_of(d3) == f &&
	   file_of(d4) == f && file_of(d5) == f, "all share the one file");
	close(fd);
	close(d1);
	close(d2);
	close(d3);
	ok(st->puts == puts, "no release while a copy is open");
	ok(file_of(d4) == f, "the last copies still work");
	close(d4);
	ok(st->puts == puts, "still none");
	close(d5);
	ok(st->puts == puts + 1, "the last close() releases it, once");
	errno = 0;
	ok(ioctl(d5, TEST_IOCTL_PING, NULL) == -1 && errno == EBADF &&
	   st->puts == puts + 1, "ioctl() on the closed descriptor: EBADF");

	{
		int a = open_render(0), b = open("/dev/dri/card0", O_RDWR);
		void *fa = file_of(a), *fb = file_of(b);

		puts = st->puts;
		ok(fa && fb && fa != fb, "two opens: two files");
		ok(dup2(a, b) == b && st->puts == puts + 1,
		   "dup2() onto a device descriptor releases its file");
		ok(file_of(b) == fa, "... and the target now has the source's");
		ok(dup2(a, a) == a && file_of(a) == fa && st->puts == puts + 1,
		   "dup2(fd, fd) changes nothing");
		close(a);
		ok(st->puts == puts + 1, "close() of one: no release");
		close(b);
		ok(st->puts == puts + 2, "close() of the other: released");
	}

	{
		int a = open_render(0), n = open("/dev/null", O_RDONLY);
		struct stat s;

		puts = st->puts;
		ok(a >= 0 && n >= 0 && dup2(n, a) == a &&
		   st->puts == puts + 1 && !fstat(a, &s) &&
		   major(s.st_rdev) == 1 && minor(s.st_rdev) == 3,
		   "dup2(/dev/null, device fd): released, now /dev/null");
		close(a);
		close(n);
	}

	{
		int fd2 = open_render(0);
		FILE *fp = fdopen(fd2, "r+");

		puts = st->puts;
		ok(fp && fclose(fp) == 0 && st->puts == puts + 1,
		   "fclose(fdopen(device fd)) releases the file");
		fp = fopen("/dev/dri/renderD128", "r+e");
		ok(fp && file_of(fileno(fp)) &&
		   (fcntl(fileno(fp), F_GETFD) & FD_CLOEXEC),
		   "fopen(/dev/dri/renderD128, r+e): a device file");
		ok(fp && !fclose(fp) && st->puts == puts + 2,
		   "fclose() of it releases the file");
	}
}

static int releases;
static void *released;

static void test_release(void *data)
{
	releases++;
	released = data;
}

static const struct shim_fd_ops test_ops = {
	.name = "test", .release = test_release,
};

static const struct shim_fd_ops other_ops = { .name = "other" };

static void test_track(void)
{
	static int obj, obj2;
	int m = memfd_create("preload-test", MFD_CLOEXEC), a, b, c;

	releases = 0;
	ok(m >= 0 && !h->fd_track(m, &test_ops, &obj),
	   "shim_fd_track() of a memfd");
	ok(h->fd_lookup(m, &test_ops) == &obj, "shim_fd_lookup() finds it");
	ok(!h->fd_lookup(m, &other_ops), "... not with other ops");
	ok(!h->fd_lookup(0, &test_ops) && !h->fd_lookup(-1, &test_ops) &&
	   !h->fd_lookup(1 << 30, &test_ops),
	   "... nor for untracked descriptors");
	a = dup2(m, 1500);
	b = fcntl(m, F_DUPFD, 2100);
	c = h->real_fcntl_dupfd(m, 2200, true);
	ok(a == 1500 && h->fd_lookup(a, &test_ops) == &obj && b >= 2100 &&
	   h->fd_lookup(b, &test_ops) == &obj,
	   "dup2() and F_DUPFD copies (past the first chunk) share it");
	ok(c >= 2200 && !h->fd_lookup(c, &test_ops),
	   "shim_real_fcntl_dupfd(): an untracked copy");
	h->real_close(c);
	close(m);
	close(a);
	ok(releases == 0, "no release while a copy is open");
	close(b);
	ok(releases == 1 && released == &obj && !h->fd_lookup(b, &test_ops),
	   "release on the last close(), once");

	m = memfd_create("preload-test", MFD_CLOEXEC);
	a = dup(m);
	releases = 0;
	ok(!h->fd_track(m, &test_ops, &obj2) &&
	   !h->fd_lookup(a, &test_ops), "tracking one number tracks only it");
	close(a);
	ok(!close_range(m, m, CLOSE_RANGE_CLOEXEC) && releases == 0 &&
	   h->fd_lookup(m, &test_ops) == &obj2,
	   "close_range(CLOSE_RANGE_CLOEXEC) closes nothing");
	ok(!close_range(m, m, 0) && releases == 1 && released == &obj2 &&
	   !h->fd_lookup(m, &test_ops), "close_range() releases");
}

static void test_mmap(void)
{
	int fd = open_render(0), mfd, mmaps = st->mmaps;
	void *f = file_of(fd);
	char *p;

	p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0x100000);
	ok(p != MAP_FAILED && st->mmaps == mmaps + 1 && st->mmap_file == f &&
	   st->mmap_off == 0x100000,
	   "mmap() of a device fd reaches shim_file_mmap() with the offset");
	if (p != MAP_FAILED) {
		p[0] = 1;
		p[8191] = 2;
		munmap(p, 8192);
	}
	p = mmap64(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0x200000);
	ok(p != MAP_FAILED && st->mmaps == mmaps + 2 &&
	   st->mmap_off == 0x200000, "mmap64() too");
	if (p != MAP_FAILED)
		munmap(p, 4096);
	close(fd);

	mfd = memfd_create("preload-test", MFD_CLOEXEC);
	p = MAP_FAILED;
	if (mfd >= 0 && write(mfd, "hello", 5) == 5)
		p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, mfd, 0);
	ok(p != MAP_FAILED && !memcmp(p, "hello", 5) &&
	   st->mmaps == mmaps + 2, "mmap() of another fd is libc's");
	if (p != MAP_FAILED)
		munmap(p, 4096);
	close(mfd);
}

static void test_passthrough(void)
{
	int pfd[2], n = 0, fd;
	struct stat s;
	char tmpl[] = "/tmp/preload-test-XXXXXX";
	DIR *d;

	ok(!pipe(pfd) && write(pfd[1], "abc", 3) == 3 &&
	   !ioctl(pfd[0], FIONREAD, &n) && n == 3,
	   "ioctl(FIONREAD) on a pipe is libc's");
	close(pfd[0]);
	close(pfd[1]);
	ok(!stat("/dev/null", &s) && S_ISCHR(s.st_mode) &&
	   major(s.st_rdev) == 1 && minor(s.st_rdev) == 3,
	   "stat(/dev/null) is libc's");
	fd = open("/dev/null", O_RDONLY);
	ok(fd >= 0 && !fstat(fd, &s) && major(s.st_rdev) == 1,
	   "open()+fstat() of /dev/null are libc's");
	close(fd);
	ok(mkdtemp(tmpl) && (d = opendir(tmpl)) && readdir(d) &&
	   !closedir(d) && !rmdir(tmpl), "opendir() of a real directory");
	errno = 0;
	ok(stat("/dev/nosuch-preload-test", &s) == -1 && errno == ENOENT,
	   "stat() of a missing /dev file is libc's ENOENT");
}

/* ------------------------------------------------------------------ */
/* Copies and faults                                                    */
/* ------------------------------------------------------------------ */

static char *bad_page;		/* mapped, then unmapped */
static char *ro_page;

static void test_copy(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *two, src[32], dst[32];
	sigset_t cur;
	int i, efault = 0;

	/*
	 * Far below where mmap() places mappings (top down from the
	 * stack): nothing else lands in the hole the munmap() leaves.
	 */
	two = mmap((void *)0x10000000, 2 * pg, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	ro_page = mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (two == MAP_FAILED || ro_page == MAP_FAILED)
		abort();
	munmap(two + pg, pg);
	bad_page = two + pg;
	for (i = 0; i < 32; i++)
		src[i] = i + 1;
	memcpy(bad_page - 16, src, 16);

	memset(dst, 0, sizeof(dst));
	ok(h->copy_in(dst, src, sizeof(src)) == 0 && !memcmp(dst, src, 32),
	   "shim_copy_in() from good memory copies the bytes");
	ok(h->copy_in(dst, bad_page, 16) == -EFAULT,
	   "shim_copy_in() from an unmapped page: -EFAULT");
	ok(h->copy_in(dst, bad_page - 16, 32) == -EFAULT,
	   "shim_copy_in() across into the unmapped page: -EFAULT");
	for (i = 0; i < 3; i++)
		efault += h->copy_in(dst, bad_page + 8 * i, 8) == -EFAULT;
	ok(efault == 3, "three faults in a row, each -EFAULT");
	ok(!pthread_sigmask(SIG_BLOCK, NULL, &cur) &&
	   !sigismember(&cur, SIGSEGV) && !sigismember(&cur, SIGBUS),
	   "SIGSEGV and SIGBUS stay unblocked after the faults");
	ok(h->copy_in(dst, NULL, 4) == -EFAULT &&
	   h->copy_in(dst, (void *)0x8000000000000000ull, 4) == -EFAULT,
	   "NULL and a non-canonical pointer: -EFAULT");
	ok(h->copy_in(dst, (void *)~0ull, 4) == -EFAULT,
	   "a range that wraps: -EFAULT");
	ok(h->copy_in(dst, bad_page, 0) == 0, "zero bytes: 0");
	ok(h->copy_out(ro_page, src, 8) == -EFAULT,
	   "shim_copy_out() to a read-only page: -EFAULT");
	ok(h->copy_out(bad_page - 16, src, 16) == 0 &&
	   !memcmp(bad_page - 16, src, 16),
	   "shim_copy_out() to good memory copies the bytes");
}

/*
 * Every form of the copy (8 to 15 bytes, 16 to 256, the rest; fault.c),
 * at sizes either side of each edge: exactly @n bytes land, none past
 * them; and ending in the unmapped page after 0 to 40 good bytes,
 * -EFAULT, with every good byte before the fault copied out (as the
 * kernel's copy_to_user() leaves them) and none after it.
 */
static void test_copy_sizes(void)
{
	static const size_t sizes[] = { 1, 7, 8, 9, 15, 16, 17, 31, 32, 33,
					100, 255, 256, 257, 300, 4000 };
	static unsigned char src[4100], dst[4100 + 16];
	int i, bad_in = 0, bad_out = 0, bad_fault = 0, faults = 0;
	size_t n, good, j;

	for (j = 0; j < sizeof(src); j++)
		src[j] = (unsigned char)(j * 7 + 3);
	for (i = 0; i < (int)(sizeof(sizes) / sizeof(sizes[0])); i++) {
		n = sizes[i];
		memset(dst, 0xee, sizeof(dst));
		if (h->copy_in(dst, src + 1, n) || memcmp(dst, src + 1, n) ||
		    dst[n] != 0xee)
			bad_in++;
		memset(dst, 0xee, sizeof(dst));
		if (h->copy_out(dst + 3, src, n) || memcmp(dst + 3, src, n) ||
		    dst[2] != 0xee || dst[n + 3] != 0xee)
			bad_out++;
		for (good = 0; good <= 40 && good < n; good += 5) {
			memset(bad_page - 64, 0xee, 64);
			faults++;
			if (h->copy_out(bad_page - good, src, n) != -EFAULT ||
			    h->copy_in(dst, bad_page - good, n) != -EFAULT ||
			    memcmp(bad_page - good, src, good) ||
			    (good < 64 && bad_page[-(long)good - 1] != (char)0xee))
				bad_fault++;
		}
	}
	ok(!bad_in, "shim_copy_in() of 1 to 4000 bytes copies exactly those");
	ok(!bad_out, "shim_copy_out() of 1 to 4000 bytes copies exactly those");
	ok(!bad_fault && faults == 93,
	   "a copy into the unmapped page: -EFAULT, the bytes before it copied (%d of %d wrong)",
	   bad_fault, faults);
}

/*
 * shim_copy_out_probe(): what a copy_out of the range would answer, with
 * the range's bytes as they were: every page writable, 0; a read-only
 * or unmapped page anywhere in it, first or last, -EFAULT.
 */
static void test_copy_out_probe(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *copy = malloc(4 * pg);
	long i;

	if (m == MAP_FAILED || !copy)
		abort();
	for (i = 0; i < 4 * pg; i++)
		m[i] = (char)(i * 13 + 1);
	memcpy(copy, m, 4 * pg);
	ok(h->copy_out_probe(m + 5, copy + 5, 4 * pg - 9) == 0 &&
	   h->copy_out_probe(m, copy, 4 * pg) == 0 &&
	   h->copy_out_probe(m + pg - 1, copy + pg - 1, 2) == 0 &&
	   h->copy_out_probe(NULL, copy, 0) == 0 && !memcmp(m, copy, 4 * pg),
	   "shim_copy_out_probe() of writable pages: 0, the bytes unchanged");
	mprotect(m + 3 * pg, pg, PROT_READ);
	ok(h->copy_out_probe(m + 5, copy + 5, 4 * pg - 9) == -EFAULT &&
	   h->copy_out_probe(m + 3 * pg - 1, copy + 3 * pg - 1, 2) == -EFAULT &&
	   h->copy_out_probe(m, copy, 3 * pg) == 0,
	   "shim_copy_out_probe(): a read-only last page, -EFAULT; the pages before, 0");
	mprotect(m + 3 * pg, pg, PROT_READ | PROT_WRITE);
	mprotect(m, pg, PROT_READ);
	ok(h->copy_out_probe(m + pg - 1, copy + pg - 1, 2 * pg) == -EFAULT &&
	   h->copy_out_probe(m + pg, copy + pg, 3 * pg) == 0,
	   "shim_copy_out_probe(): a read-only first page, -EFAULT");
	ok(h->copy_out_probe(bad_page - 16, copy, pg) == -EFAULT &&
	   h->copy_out_probe(NULL, copy, 1) == -EFAULT,
	   "shim_copy_out_probe() into an unmapped page, or NULL: -EFAULT");
	ok(!memcmp(m, copy, 4 * pg), "... and no byte changed");
	munmap(m, 4 * pg);
	free(copy);
}

/*
 * shim_copy_in_stream(): a long stream's copy, non-temporal from 4 MiB
 * to an aligned destination (fault.c), the others as shim_copy_in():
 * exactly @n bytes land, aligned or not, either side of 4 MiB; and a
 * source that runs into an unmapped page after a few MiB: -EFAULT, every
 * byte before the fault copied and none after it.
 */
static void test_copy_stream(void)
{
	static const size_t sizes[] = { 100, (4 << 20) - 8, 4 << 20,
					(4 << 20) + 1, (4 << 20) + 100,
					(5 << 20) + 72 };
	size_t max = (6 << 20), n, good, j;
	long pg = sysconf(_SC_PAGESIZE);
	unsigned char *src = malloc(max), *dst = malloc(max + 64), *m;
	int i, bad = 0, bad_fault = 0;

	if (!src || !dst)
		abort();
	for (j = 0; j < max; j++)
		src[j] = (unsigned char)(j * 11 + 5);
	for (i = 0; i < (int)(sizeof(sizes) / sizeof(sizes[0])); i++) {
		n = sizes[i];
		for (j = 0; j < 2; j++) {	/* dst 16-aligned (malloc), then not */
			memset(dst, 0xee, max + 64);
			if (h->copy_in_stream(dst + j, src + 3, n) ||
			    memcmp(dst + j, src + 3, n) || dst[n + j] != 0xee ||
			    (j && dst[0] != 0xee))
				bad++;
		}
	}
	ok(!bad, "shim_copy_in_stream() of 100 B to 5 MiB, aligned or not: those bytes (%d wrong)",
	   bad);

	/* 5 MiB mapped, the page after it not */
	m = mmap(NULL, (5 << 20) + pg, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		abort();
	munmap(m + (5 << 20), pg);
	memcpy(m, src, 5 << 20);
	for (good = (4 << 20) + 64; good <= (5 << 20); good += (1 << 19) - 8) {
		memset(dst, 0xee, max + 64);
		if (h->copy_in_stream(dst, m + (5 << 20) - good, good + 4096) !=
		    -EFAULT || memcmp(dst, m + (5 << 20) - good, good) ||
		    dst[good] != 0xee)
			bad_fault++;
	}
	ok(!bad_fault,
	   "shim_copy_in_stream() into an unmapped page: -EFAULT, the bytes before it copied (%d)",
	   bad_fault);
	ok(h->copy_in_stream(dst, NULL, 8 << 20) == -EFAULT &&
	   h->copy_in_stream(dst, (void *)~0ull, 8 << 20) == -EFAULT &&
	   h->copy_in_stream(dst, NULL, 0) == 0,
	   "shim_copy_in_stream() from NULL or a range that wraps: -EFAULT; of nothing: 0");
	munmap(m, 5 << 20);
	free(src);
	free(dst);
}

static int ran_child(void (*fn)(void), int *status)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		fn();
		_exit(0);
	}
	return waitpid(pid, status, 0) == pid ? 0 : -1;
}

static void handler42(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	_exit(sig == SIGSEGV && si->si_addr == bad_page ? 42 : 2);
}

static void handler43(int sig)
{
	_exit(sig == SIGBUS ? 43 : 3);
}

static void segv(void)
{
	*(volatile char *)bad_page = 1;
}

static void child_before(void)
{
	segv();		/* the early handler: _exit(41) */
}

static void child_after(void)
{
	struct sigaction sa = { .sa_sigaction = handler42,
				.sa_flags = SA_SIGINFO };
	char buf[8];

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, NULL))
		_exit(4);
	if (h->copy_in(buf, bad_page, 8) != -EFAULT)
		_exit(5);	/* the shim's handler is still first */
	segv();
}

static void child_default(void)
{
	signal(SIGSEGV, SIG_DFL);
	segv();
}

static void child_ignore(void)
{
	signal(SIGSEGV, SIG_IGN);
	segv();
}

static void child_sigbus(void)
{
	int fd = memfd_create("preload-test", 0);
	volatile char *p;

	signal(SIGBUS, handler43);
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		_exit(6);
	(void)p[0];	/* past the end of an empty file */
}

static volatile sig_atomic_t counted_sig, counted_code;

static void count_handler(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	counted_sig = sig;
	counted_code = si->si_code;
}

static void other_handler(int sig)
{
	(void)sig;
}

/* The kernel's own action for @sig: rt_sigaction, past every libc. */
static void *kernel_handler(int sig)
{
	struct {
		void *handler;
		unsigned long flags;
		void *restorer;
		unsigned long mask;
	} k;

	if (syscall(SYS_rt_sigaction, sig, NULL, &k, sizeof(k.mask)))
		return NULL;
	return k.handler;
}

static void test_signals(void)
{
	struct sigaction old, a = { .sa_sigaction = count_handler,
				    .sa_flags = SA_SIGINFO }, b, prev;
	void *shim_handler = kernel_handler(SIGSEGV);
	int status;

	ok(!sigaction(SIGSEGV, NULL, &old) &&
	   old.sa_sigaction == h->early_handler && (old.sa_flags & SA_SIGINFO),
	   "sigaction() reads the handler installed before the shim");
	ok(shim_handler && shim_handler != (void *)h->early_handler &&
	   shim_handler != (void *)SIG_DFL,
	   "the kernel has the shim's handler");
	ok(!ran_child(child_before, &status) && WIFEXITED(status) &&
	   WEXITSTATUS(status) == 41,
	   "a fault reaches the handler installed before the shim");
	ok(!ran_child(child_after, &status) && WIFEXITED(status) &&
	   WEXITSTATUS(status) == 42,
	   "one installed after gets its fault (si_addr right), "
	   "copies still -EFAULT");
	ok(!ran_child(child_default, &status) && WIFSIGNALED(status) &&
	   WTERMSIG(status) == SIGSEGV, "SIG_DFL: the fault kills by SIGSEGV");
	ok(!ran_child(child_ignore, &status) && WIFSIGNALED(status) &&
	   WTERMSIG(status) == SIGSEGV,
	   "SIG_IGN: a fault still kills by SIGSEGV, as the kernel does");
	ok(!ran_child(child_sigbus, &status) && WIFEXITED(status) &&
	   WEXITSTATUS(status) == 43, "signal(SIGBUS) handler gets its SIGBUS");

	sigemptyset(&a.sa_mask);
	ok(!sigaction(SIGSEGV, &a, &prev) &&
	   prev.sa_sigaction == h->early_handler,
	   "sigaction(SIGSEGV, new, old): old is the program's last");
	b.sa_handler = NULL;
	ok((void *)signal(SIGSEGV, other_handler) == (void *)count_handler &&
	   !sigaction(SIGSEGV, &a, &b) && b.sa_handler == other_handler,
	   "signal() and sigaction() see each other's handlers");
	ok(kernel_handler(SIGSEGV) == shim_handler,
	   "the kernel still has the shim's handler");
	counted_sig = 0;
	raise(SIGSEGV);
	ok(counted_sig == SIGSEGV && counted_code == SI_TKILL,
	   "raise(SIGSEGV) reaches the program's handler (%d, %d)",
	   counted_sig, counted_code);
	sigaction(SIGSEGV, &prev, NULL);
	ok(!sigaction(SIGSEGV, NULL, &old) &&
	   old.sa_sigaction == h->early_handler,
	   "the earlier handler, restored, reads back");
}

/* Each: opens, copies, pings, closes, faults; the number of failures. */
static void *thread_fn(void *arg)
{
	long fails = 0, i;
	char buf[16];

	(void)arg;
	for (i = 0; i < 300; i++) {
		struct test_ping p = { .in = i };
		int fd = open_render(i % ndev), d, e;

		d = dup(fd);
		e = fcntl(fd, F_DUPFD_CLOEXEC, 0);
		fails += fd < 0 || d < 0 || e < 0;
		close(fd);
		fails += ioctl(d, TEST_IOCTL_PING, &p) ||
			 p.out != (i ^ PING_XOR);
		fails += dup2(e, d) != d;
		close(e);
		fails += ioctl(d, TEST_IOCTL_PING, &p) != 0;
		close(d);
		fails += h->copy_in(buf, bad_page + (i % 8), 8) != -EFAULT;
		fails += h->copy_in(buf, &p, sizeof(p)) != 0;
	}
	return (void *)fails;
}

static void test_threads(void)
{
	pthread_t t[4];
	long fails = 0;
	void *ret;
	int i, n = 0;

	for (i = 0; i < 4; i++)
		n += !pthread_create(&t[i], NULL, thread_fn, NULL);
	for (i = 0; i < n; i++) {
		pthread_join(t[i], &ret);
		fails += (long)ret;
	}
	ok(n == 4 && !fails && st->opens == st->puts,
	   "4 threads open, dup, ioctl, close and fault at once: %ld failures",
	   fails);
}

/* ------------------------------------------------------------------ */
/* libdrm                                                               */
/* ------------------------------------------------------------------ */

static int cmp_dev(const void *a, const void *b)
{
	const drmDevice *x = *(drmDevicePtr const *)a;
	const drmDevice *y = *(drmDevicePtr const *)b;

	if (x->bustype != DRM_BUS_PLATFORM || y->bustype != DRM_BUS_PLATFORM)
		return x->bustype - y->bustype;
	/* "vatom.N", by N */
	if (strlen(x->businfo.platform->fullname) !=
	    strlen(y->businfo.platform->fullname))
		return strlen(x->businfo.platform->fullname) <
		       strlen(y->businfo.platform->fullname) ? -1 : 1;
	return strcmp(x->businfo.platform->fullname,
		      y->businfo.platform->fullname);
}

static void test_libdrm(void)
{
	drmDevicePtr devs[32], dev;
	char want[64], card[64], *name;
	drmVersionPtr ver;
	int n, i, fd, cfd;
	struct stat s;
	bool good = true;

	n = drmGetDevices2(0, NULL, 0);
	ok(n == (int)ndev, "drmGetDevices2(0, NULL, 0) = %d", n);
	n = drmGetDevices2(0, devs, 32);
	ok(n == (int)ndev, "drmGetDevices2(0, devs, 32) lists %d device(s)", n);
	if (n > 0)
		qsort(devs, n, sizeof(devs[0]), cmp_dev);
	for (i = 0; i < n; i++) {
		const drmDevice *d = devs[i];
		bool this = false;

		snprintf(want, sizeof(want), "/dev/dri/renderD%d", 128 + i);
		snprintf(card, sizeof(card), "/dev/dri/card%d", i);
		if (d->bustype == DRM_BUS_PLATFORM) {
			char full[32];

			snprintf(full, sizeof(full), "vatom.%d", i);
			this = d->available_nodes == (1 << DRM_NODE_PRIMARY |
						      1 << DRM_NODE_RENDER) &&
			       !strcmp(d->nodes[DRM_NODE_RENDER], want) &&
			       !strcmp(d->nodes[DRM_NODE_PRIMARY], card) &&
			       !strcmp(d->businfo.platform->fullname, full) &&
			       d->deviceinfo.platform->compatible &&
			       d->deviceinfo.platform->compatible[0] &&
			       !strcmp(d->deviceinfo.platform->compatible[0],
				       full) &&
			       !d->deviceinfo.platform->compatible[1];
			diag("device %d: bus platform, fullname %s, "
			     "compatible[0] %s, nodes %s %s", i,
			     d->businfo.platform->fullname,
			     d->deviceinfo.platform->compatible ?
			     d->deviceinfo.platform->compatible[0] : "-",
			     d->available_nodes & 1 << DRM_NODE_PRIMARY ?
			     d->nodes[DRM_NODE_PRIMARY] : "-",
			     d->available_nodes & 1 << DRM_NODE_RENDER ?
			     d->nodes[DRM_NODE_RENDER] : "-");
		}
		good &= this;
	}
	ok(n > 0 && good,
	   "each: DRM_BUS_PLATFORM, nodes cardN and renderD(128+N), "
	   "fullname and compatible vatom.N");
	if (n > 0)
		drmFreeDevices(devs, n);

	fd = open_render(0);
	name = drmGetDeviceNameFromFd2(fd);
	ok(name && !strcmp(name, "/dev/dri/renderD128"),
	   "drmGetDeviceNameFromFd2() = %s", name ? name : "NULL");
	free(name);
	ok(drmGetNodeTypeFromFd(fd) == DRM_NODE_RENDER,
	   "drmGetNodeTypeFromFd() = DRM_NODE_RENDER");
	dev = NULL;
	ok(!drmGetDevice2(fd, 0, &dev) && dev &&
	   dev->bustype == DRM_BUS_PLATFORM &&
	   !strcmp(dev->nodes[DRM_NODE_RENDER], "/dev/dri/renderD128") &&
	   !strcmp(dev->businfo.platform->fullname, "vatom.0"),
	   "drmGetDevice2(): vatom.0, /dev/dri/renderD128");
	if (dev)
		drmFreeDevice(&dev);
	name = drmGetPrimaryDeviceNameFromFd(fd);
	ok(name && !strcmp(name, "/dev/dri/card0"),
	   "drmGetPrimaryDeviceNameFromFd() = %s", name ? name : "NULL");
	free(name);
	ver = drmGetVersion(fd);
	ok(ver && !strcmp(ver->name, "vatom"), "drmGetVersion(): name %s",
	   ver ? ver->name : "NULL");
	if (ver)
		drmFreeVersion(ver);
	close(fd);

	cfd = open("/dev/dri/card0", O_RDWR);
	name = drmGetRenderDeviceNameFromFd(cfd);
	ok(name && !strcmp(name, "/dev/dri/renderD128"),
	   "drmGetRenderDeviceNameFromFd(card0) = %s", name ? name : "NULL");
	free(name);
	ok(drmGetNodeTypeFromFd(cfd) == DRM_NODE_PRIMARY,
	   "drmGetNodeTypeFromFd(card0) = DRM_NODE_PRIMARY");
	close(cfd);

	fd = drmOpenWithType("vatom", NULL, DRM_NODE_RENDER);
	ok(fd >= 0 && !fstat(fd, &s) && is_rdev(&s, 128),
	   "drmOpenWithType(\"vatom\", NULL, DRM_NODE_RENDER): renderD128");
	if (fd >= 0)
		close(fd);

	if (ndev > 1) {
		fd = open_render(ndev - 1);
		snprintf(want, sizeof(want), "/dev/dri/renderD%u",
			 128 + ndev - 1);
		name = drmGetDeviceNameFromFd2(fd);
		ok(name && !strcmp(name, want),
		   "drmGetDeviceNameFromFd2(last device) = %s",
		   name ? name : "NULL");
		free(name);
		dev = NULL;
		snprintf(want, sizeof(want), "vatom.%u", ndev - 1);
		ok(!drmGetDevice2(fd, 0, &dev) && dev &&
		   !strcmp(dev->businfo.platform->fullname, want),
		   "drmGetDevice2(last device): %s", want);
		if (dev)
			drmFreeDevice(&dev);
		close(fd);
	}
}

int main(void)
{
	const struct preload_test_hooks *(*get)(void);
	const char *e = getenv("PRELOAD_TEST_DEVICES");
	static char tagbuf[64];

	e = getenv("VATOM_SHIM_DEVICES");
	snprintf(tagbuf, sizeof(tagbuf), "VATOM_SHIM_DEVICES=%s",
		 e ? e : "(unset)");
	tag = tagbuf;
	e = getenv("PRELOAD_TEST_DEVICES");
	ndev = e ? atoi(e) : 1;

	get = (__typeof__(get))dlsym(RTLD_DEFAULT, "preload_test_hooks");
	if (!ok(get, "the test shim is preloaded")) {
		printf("1..%d\n", ntests);
		return 1;
	}
	h = get();
	st = h->stats;

	ok(h->num_devices() == ndev, "shim_num_devices() = %u, want %u",
	   h->num_devices(), ndev);
	test_dev_dri();
	test_sysfs();
	test_open_ioctl();
	test_dup();
	test_track();
	test_mmap();
	test_passthrough();
	test_copy();
	test_copy_sizes();
	test_copy_out_probe();
	test_copy_stream();
	test_signals();
	test_threads();
	test_libdrm();
	ok(st->opens == st->puts, "every file opened was released (%d, %d)",
	   st->opens, st->puts);

	printf("1..%d\n", ntests);
	return nfailed ? 1 : 0;
}

#endif /* !PRELOAD_TEST_STUB */
