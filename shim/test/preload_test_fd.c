// SPDX-License-Identifier: MIT
/*
 * preload_test_fd.c: preload.c's host test, the device descriptors
 * (preload_fd.c, preload_io.c, fdtable.c): open(), fstat() and ioctl() of
 * a node reaching the stub's file; dup() and its family sharing one file,
 * released once, on the last close; shim_fd_track() and close_range();
 * mmap() of a device descriptor; the shim's own descriptors, out of the
 * process's reach; and the calls on other descriptors and paths, which
 * are libc's.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "preload_test.h"

/* The stub file behind @fd, as its last ping saw it (NULL: no answer). */
static void *file_of(int fd)
{
	struct test_ping p = { .in = 7 };

	st->last_file = NULL;
	if (ioctl(fd, TEST_IOCTL_PING, &p) || p.out != (7 ^ PING_XOR))
		return NULL;
	return st->last_file;
}

void test_open_ioctl(void)
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

void test_dup(void)
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

void test_track(void)
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

void test_mmap(void)
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

/* @fd reads back @c at offset 0: it is open, whatever the table says. */
static bool reads(int fd, char c)
{
	char got = 0;

	return pread(fd, &got, 1, 0) == 1 && got == c;
}

/* @fd is not open to the process: fcntl() fails with EBADF. */
static bool closed_to_process(int fd)
{
	errno = 0;
	return fcntl(fd, F_GETFD) == -1 && errno == EBADF;
}

/* @ret is -1 with errno @err */
static bool fails(int ret, int err)
{
	return ret == -1 && errno == err;
}

void test_private(void)
{
	int m = memfd_create("preload-test", MFD_CLOEXEC), p, p2, low, n = 0;
	struct rlimit r;

	/* from 512, or half the soft limit if that is lower */
	low = getrlimit(RLIMIT_NOFILE, &r) || r.rlim_cur / 2 >= 512 ? 512 :
	      (int)(r.rlim_cur / 2);
	p = m >= 0 && pwrite(m, "x", 1, 0) == 1 ? h->private_dup(m) : -1;
	ok(p >= low && reads(p, 'x'),
	   "shim_fd_private_dup(): a copy of the file, from %d", low);
	ok(closed_to_process(p) && !h->fd_is_open(p) && h->fd_is_open(m) &&
	   !h->fd_is_open(-1), "not open to fcntl() nor to shim_fd_is_open()");
	errno = 0;
	ok(fails(close(p), EBADF) && reads(p, 'x'),
	   "close() of it: EBADF, and it stays open");
	errno = 0;
	ok(fails(dup(p), EBADF), "dup() of it: EBADF");
	errno = 0;
	ok(fails(dup2(p, 1600), EBADF) && closed_to_process(1600),
	   "dup2() of it: EBADF");
	errno = 0;
	ok(fails(dup2(m, p), EBUSY) && reads(p, 'x'),
	   "dup2() onto it: EBUSY, and it stays the shim's");
	errno = 0;
	ok(fails(dup3(m, p, O_CLOEXEC), EBUSY), "dup3() onto it: EBUSY");
	errno = 0;
	ok(fails(fcntl(p, F_DUPFD, 0), EBADF), "fcntl(F_DUPFD) of it: EBADF");
	errno = 0;
	ok(fails(ioctl(p, FIONREAD, &n), EBADF), "ioctl() of it: EBADF");

	ok(dup2(m, p - 1) == p - 1 && dup2(m, p + 1) == p + 1 &&
	   !close_range(p - 1, p + 1, 0) && closed_to_process(p - 1) &&
	   closed_to_process(p + 1) && reads(p, 'x'),
	   "close_range() around it closes the others, not it");
	ok(dup2(m, p + 1) == p + 1 && dup2(m, p + 7) == p + 7, "two more");
	closefrom(p);
	ok(closed_to_process(p + 1) && closed_to_process(p + 7) &&
	   reads(p, 'x'), "closefrom() from it closes the others, not it");
	h->private_close(p);
	errno = 0;
	ok(pread(p, &n, 1, 0) == -1 && errno == EBADF,
	   "shim_fd_private_close() closes it");

	/* closed behind the table, then the process's: left alone */
	p2 = h->private_dup(m);
	ok(p2 >= 0 && !h->real_close(p2) && fcntl(m, F_DUPFD, p2) == p2 &&
	   h->fd_is_open(p2),
	   "a private number closed behind the table, then the process's");
	h->private_close(p2);
	ok(reads(p2, 'x'), "... and shim_fd_private_close() leaves it open");
	close(p2);
	close(m);
}

void test_passthrough(void)
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
