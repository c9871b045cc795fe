// SPDX-License-Identifier: MIT
/*
 * preload.c: the libc side of libvatom-shim.so.
 *
 * Preloaded, the shim takes over the libc calls through which a program
 * (libdrm, Mesa's loader, the program itself) finds, opens and drives a
 * DRM device, and answers those that concern the vatom nodes it presents;
 * everything else goes straight to libc. The pieces:
 *
 *   preload.c      the real libc calls (REAL()); the constructor
 *   preload_fd.c   the entry points that make and close descriptors:
 *                  open(), close(), dup(), fcntl()
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
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
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
