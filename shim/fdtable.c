// SPDX-License-Identifier: MIT
/*
 * fdtable.c: the shim's descriptor table.
 *
 * Every descriptor that stands for a shim object (an open device file, a
 * fake sysfs file, a memfd file.c hands out: a dma-buf, a sync_file) is
 * in it, with dup() semantics: dup()s share the object, and the close()
 * of the last of them releases it. preload_fd.c's close(), dup() and
 * fcntl() keep the table in step with the process's descriptors; the rest
 * of the shim tracks and finds its objects with shim_fd_track(),
 * shim_fd_lookup() and shim_fd_get() (shim.h).
 *
 * Why a file of its own: the libc side (preload*.c) and the device's
 * files both use the table, and it uses neither: its libc calls past the
 * shim's entry points are real.c's shim_real_close(), shim_real_fcntl()
 * and shim_real_fcntl_dupfd().
 */
#undef _FORTIFY_SOURCE
#undef _FILE_OFFSET_BITS
#undef _TIME_BITS

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "fdtable.h"

struct shim_obj **fd_chunks[FD_LIMIT / FD_CHUNK];
struct shim_mutex fd_lock = SHIM_MUTEX_INIT;

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

/* What a private descriptor's ioctl() gets: what a closed number gets. */
static int fd_private_ioctl(void *data, unsigned long request, void *arg)
{
	(void)data;
	(void)request;
	(void)arg;
	return -EBADF;
}

static const struct shim_fd_ops fd_private_ops = {
	.name = "private",
	.ioctl = fd_private_ioctl,
};

struct shim_obj fd_private_obj = { .ops = &fd_private_ops, .ndesc = 1 };

/* One descriptor less; fd_lock held. Return: @o, if that was the last. */
static struct shim_obj *obj_unref_locked(struct shim_obj *o)
{
	return o && o != &fd_private_obj && !--o->ndesc ? o : NULL;
}

/**
 * obj_release() - release objects whose last descriptor is gone
 * @o: an object from fd_clear(), fd_clear_range(), or NULL
 *
 * Releases @o and every object after it on its list, with no lock held;
 * errno is kept.
 */
void obj_release(struct shim_obj *o)
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

/*
 * Make @fd stand for @o; fd_lock held. What it stood for was left by a
 * close() that bypassed us: that descriptor is gone, and *@stale is what
 * to obj_release() once the lock is dropped. Return: 0 or -ENOMEM.
 */
static int fd_install_locked(int fd, struct shim_obj *o,
			     struct shim_obj **stale)
{
	struct shim_obj **slot = fd_slot(fd, true);

	if (!slot)
		return -ENOMEM;
	*stale = obj_unref_locked(*slot);
	fd_slot_set(slot, o);
	return 0;
}

int shim_fd_track(int fd, const struct shim_fd_ops *ops, void *data)
{
	struct shim_obj *o, *stale = NULL;
	int ret;

	o = malloc(sizeof(*o));
	if (!o)
		return -ENOMEM;
	*o = (struct shim_obj){ .ops = ops, .data = data, .ndesc = 1 };
	shim_mutex_lock(&fd_lock);
	ret = fd_install_locked(fd, o, &stale);
	shim_mutex_unlock(&fd_lock);
	if (ret) {
		free(o);
		return ret;
	}
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

	shim_mutex_lock(&fd_lock);
	o = fd_get(fd);
	if (o && o->ops == ops)
		ret = get(o->data);
	shim_mutex_unlock(&fd_lock);
	return ret;
}

/**
 * fd_clear() - @fd is being closed: forget it
 * @fd: the descriptor
 *
 * Done before the real close(), so that no other thread can be given the
 * number while it is still in the table.
 *
 * Return: the object to obj_release() after the close, if @fd was its
 * last descriptor, or NULL.
 */
struct shim_obj *fd_clear(int fd)
{
	struct shim_obj **slot, *o = NULL;

	shim_mutex_lock(&fd_lock);
	slot = fd_slot(fd, false);
	if (slot && *slot) {
		o = obj_unref_locked(*slot);
		fd_slot_set(slot, NULL);
	}
	shim_mutex_unlock(&fd_lock);
	return o;
}

/**
 * fd_close_range() - close_range() and closefrom(), as the table sees them
 * @first: the first descriptor
 * @last: the last (~0u: all from @first on)
 * @flags: close_range()'s
 * @real: libc's call that closes [@first, @last] (closefrom() where @last
 *	is ~0u)
 *
 * Forgets the descriptors of the range and closes them, but for the
 * shim's own: the range is closed in the pieces between those, under
 * fd_lock, so that none is made meanwhile. A call that only marks
 * (CLOSE_RANGE_CLOEXEC: the shim's own are close-on-exec already) or
 * fails with EINVAL goes to libc whole.
 *
 * Return: @real's; after a piece failed, nothing more is closed.
 */
int fd_close_range(unsigned int first, unsigned int last, int flags,
		   int (*real)(unsigned int first, unsigned int last, int flags))
{
	struct shim_obj **chunk, *o, *list = NULL;
	unsigned int fd, from = first;
	int ret = 0;

	if (first > last || (flags & ~(int)CLOSE_RANGE_UNSHARE))
		return real(first, last, flags);
	shim_mutex_lock(&fd_lock);
	for (fd = first; fd <= last && fd < FD_LIMIT && !ret; fd++) {
		chunk = fd_chunks[fd >> FD_CHUNK_BITS];
		if (!chunk) {
			fd |= FD_CHUNK - 1;	/* the next chunk */
			continue;
		}
		o = chunk[fd & (FD_CHUNK - 1)];
		if (o == &fd_private_obj) {
			if (fd > from)
				ret = real(from, fd - 1, flags);
			flags &= ~(int)CLOSE_RANGE_UNSHARE;	/* done by then */
			from = fd + 1;
			continue;
		}
		if (!o)
			continue;
		fd_slot_set(&chunk[fd & (FD_CHUNK - 1)], NULL);
		if (obj_unref_locked(o)) {
			o->next = list;
			list = o;
		}
	}
	if (!ret && from <= last)
		ret = real(from, last, flags);
	shim_mutex_unlock(&fd_lock);
	obj_release(list);
	return ret;
}

/**
 * fd_dup() - @newfd has just been made a copy of @oldfd
 * @oldfd: the descriptor copied
 * @newfd: the copy (dup(), dup2(), dup3(), F_DUPFD)
 *
 * @newfd stands for what @oldfd stands for, and no longer for what it
 * stood for before (dup2() closed that).
 *
 * Return: @newfd, or -1 with errno set (and @newfd closed).
 */
int fd_dup(int oldfd, int newfd)
{
	struct shim_obj **slot, *o, *stale = NULL;

	if (oldfd == newfd || (!fd_get(oldfd) && !fd_get(newfd)))
		return newfd;
	shim_mutex_lock(&fd_lock);
	o = fd_get(oldfd);
	slot = fd_slot(newfd, o);
	if (!slot) {
		shim_mutex_unlock(&fd_lock);
		if (!o)
			return newfd;
		shim_real_close(newfd);
		return fail(ENOMEM);
	}
	if (*slot != o) {
		stale = obj_unref_locked(*slot);
		if (o)
			o->ndesc++;
		fd_slot_set(slot, o);
	}
	shim_mutex_unlock(&fd_lock);
	obj_release(stale);
	return newfd;
}

/**
 * fd_close() - close(), as the table sees it
 * @fd: any descriptor
 *
 * Forgets @fd, closes it with libc's close() and releases what it stood
 * for if it was the last descriptor of it. One of the shim's own is not
 * open, as far as the process can tell: EBADF.
 *
 * Return: close()'s.
 */
int fd_close(int fd)
{
	struct shim_obj *o = fd_get(fd);
	int ret;

	if (unlikely(o == &fd_private_obj))
		return fail(EBADF);
	o = o ? fd_clear(fd) : NULL;
	ret = shim_real_close(fd);

	obj_release(o);
	return ret;
}

/* ------------------------------------------------------------------ */
/* the shim's own descriptors (shim.h)                                  */
/* ------------------------------------------------------------------ */

/*
 * Where a private copy goes: from 512, or half the soft RLIMIT_NOFILE if
 * that is lower (F_DUPFD may not reach the limit); not at the top of a
 * large limit, which would grow the kernel's table to it.
 */
#define FD_PRIVATE_MIN	512

static int fd_private_min(void)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r) || r.rlim_cur / 2 >= FD_PRIVATE_MIN)
		return FD_PRIVATE_MIN;
	return r.rlim_cur / 2;
}

int shim_fd_private_dup(int fd)
{
	struct shim_obj *stale = NULL;
	int copy, ret;

	/* under fd_lock: fd_close_range() cannot close it before it is ours */
	shim_mutex_lock(&fd_lock);
	copy = shim_real_fcntl_dupfd(fd, fd_private_min(), true);
	if (copy < 0 && errno != EBADF)	/* none free from there: anywhere */
		copy = shim_real_fcntl_dupfd(fd, 0, true);
	ret = copy < 0 ? -errno : fd_install_locked(copy, &fd_private_obj, &stale);
	if (ret && copy >= 0)
		shim_real_close(copy);
	shim_mutex_unlock(&fd_lock);
	if (ret)
		return ret;
	obj_release(stale);
	return copy;
}

void shim_fd_private_close(int fd)
{
	struct shim_obj **slot;

	if (fd < 0)
		return;
	shim_mutex_lock(&fd_lock);
	slot = fd_slot(fd, false);
	if (slot && *slot == &fd_private_obj) {
		fd_slot_set(slot, NULL);
		shim_real_close(fd);
	}
	shim_mutex_unlock(&fd_lock);
}

bool shim_fd_is_open(int fd)
{
	return fd >= 0 && !fd_is_private(fd) &&
	       shim_real_fcntl(fd, F_GETFD, 0) >= 0;
}

/**
 * fd_fork_prepare() - take fd_lock for a fork()
 *
 * A fork() child calls close() and the like: fd_lock must not stay held
 * in it. preload.c's pthread_atfork() handlers call this and
 * fd_fork_release(); a program without preload.c that forks while other
 * threads use the table registers them itself.
 */
void fd_fork_prepare(void)
{
	shim_mutex_lock(&fd_lock);
}

/**
 * fd_fork_release() - release fd_lock after a fork(), in parent and child
 */
void fd_fork_release(void)
{
	shim_mutex_unlock(&fd_lock);
}
