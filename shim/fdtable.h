/* SPDX-License-Identifier: MIT */
/*
 * fdtable.h: the descriptor table's insides (fdtable.c), for the files
 * that interpose libc (the preload*.c files) and the fake files'
 * descriptors (vnode.c). The rest of the shim sees the table through
 * shim.h's shim_fd_track(), shim_fd_lookup() and shim_fd_get() only.
 *
 * fdtable.c defines no libc symbol: its libc calls past the shim's own
 * entry points are real.c's shim_real_*() (shim.h).
 */
#ifndef _VATOM_SHIM_FDTABLE_H_
#define _VATOM_SHIM_FDTABLE_H_

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>

#include "lock.h"
#include "shim.h"

#ifndef likely
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#endif

/* A libc-style failure: -1, with errno @err. */
static inline int fail(int err)
{
	errno = err;
	return -1;
}

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

extern struct shim_obj **fd_chunks[FD_LIMIT / FD_CHUNK];
extern struct shim_mutex fd_lock;

/*
 * What @fd stands for, or NULL: no lock, so only while the caller keeps
 * @fd open, or under fd_lock.
 */
static inline struct shim_obj *fd_get(int fd)
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

/* What every one of the shim's own descriptors stands for: never released */
extern struct shim_obj fd_private_obj;

/* @fd is one of the shim's own (shim_fd_private_dup()) */
static inline bool fd_is_private(int fd)
{
	return fd_get(fd) == &fd_private_obj;
}

void obj_release(struct shim_obj *o);
struct shim_obj *fd_clear(int fd);
int fd_close_range(unsigned int first, unsigned int last, int flags,
		   int (*real)(unsigned int first, unsigned int last, int flags));
int fd_dup(int oldfd, int newfd);
int fd_close(int fd);

/* A new descriptor from libc: whatever the table had for it is stale. */
static inline int fd_fresh(int fd)
{
	if (fd >= 0 && unlikely(fd_get(fd)))
		obj_release(fd_clear(fd));
	return fd;
}

void fd_fork_prepare(void);
void fd_fork_release(void);

#endif /* _VATOM_SHIM_FDTABLE_H_ */
