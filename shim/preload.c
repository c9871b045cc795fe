// SPDX-License-Identifier: MIT
/*
 * preload.c: the libc side of libvatom-shim.so.
 *
 * Preloaded, the shim takes over the libc calls through which a program
 * (libdrm, Mesa's loader, the program itself) finds, opens and drives a
 * DRM device, and answers those that concern the vatom nodes it presents;
 * everything else goes straight to libc. The pieces:
 *
 *   preload.c      the constructor
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
 *   real.c         libc's own calls, past these entry points: REAL()
 *                  for the preload*.c files, shim_real_*() for the rest
 *
 * Only the preload*.c files define libc's symbols or use REAL(): the
 * others link into a program that does not interpose libc (the syncobjs'
 * host test, with stand-ins for what it leaves out).
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
	shim_real_init();
	vfs_init();
	fault_init();
	pthread_atfork(shim_atfork_prepare, shim_atfork_release,
		       shim_atfork_release);
}
