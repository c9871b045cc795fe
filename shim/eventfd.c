// SPDX-License-Identifier: MIT
/*
 * eventfd.c: an eventfd handed to an ioctl (a queue's, a syncobj's
 * DRM_IOCTL_SYNCOBJ_EVENTFD): eventfd_ctx_fdget() and eventfd_signal().
 * What the kernel keeps is the eventfd's context; the shim keeps a
 * private copy of the descriptor (shim_fd_private_dup()), which the
 * process can neither see nor close, and writes to it.
 *
 * Why a file of its own: queue.c and the syncobj files both take
 * eventfds, and the syncobjs' host test links them without the rest.
 * Its reads and writes are libc's own (real.c): preloaded, readlink() and
 * write() by name would go through the shim's entry points first.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "shim.h"

int shim_eventfd_get(int fd)
{
	char path[64], target[64];
	ssize_t n;

	if (!shim_fd_is_open(fd))
		return -EBADF;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = shim_real_readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return -EBADF;
	target[n] = '\0';
	if (strcmp(target, "anon_inode:[eventfd]"))
		return -EINVAL;
	return shim_fd_private_dup(fd);
}

void shim_eventfd_signal(int fd)
{
	uint64_t one = 1;
	ssize_t r;

	/* a full counter (EAGAIN) saturates, as eventfd_signal() does */
	do {
		r = shim_real_write(fd, &one, sizeof(one));
	} while (r < 0 && errno == EINTR);
}
