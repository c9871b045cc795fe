/* SPDX-License-Identifier: MIT */
/*
 * preload_internal.h: what the files of libc entry points share,
 * preload.c (the start-up), preload_fd.c (open(),
 * close(), dup(), fcntl()), preload_io.c (ioctl(), mmap(), write()),
 * preload_signal.c (sigaction(), signal()) and preload_fs.c (the stat()
 * family, access(), readlink(), realpath(), the xattr getters, fopen(),
 * directories): the real libc calls (REAL(), real.h) and the glue
 * between a call and the tree (vfs.h).
 *
 * Only those files include it: they define libc's symbols, and are left
 * out of a program that does not interpose libc. The rest of the shim
 * reaches libc past the entry points through real.c's shim_real_*()
 * (shim.h).
 */
#ifndef _VATOM_SHIM_PRELOAD_INTERNAL_H_
#define _VATOM_SHIM_PRELOAD_INTERNAL_H_

#include <errno.h>
#include <stdlib.h>

#include "fdtable.h"
#include "real.h"
#include "shim.h"
#include "vfs.h"

extern void __chk_fail(void) __attribute__((__noreturn__));

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

#endif /* _VATOM_SHIM_PRELOAD_INTERNAL_H_ */
