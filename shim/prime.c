// SPDX-License-Identifier: MIT
/*
 * prime.c: PRIME of the in-process device, as drm_prime.c makes and takes
 * a dma-buf: PRIME_HANDLE_TO_FD exports a surface as a descriptor that
 * names it (a copy of its memfd, so that mmap() of it maps the surface's
 * pages), PRIME_FD_TO_HANDLE imports one, giving back the handle the file
 * has to that surface if it has one (surface.c's handles).
 *
 * The descriptor is tracked by fdtable.c (shim_fd_track()): a dup() of
 * it names the surface too, and its last close() drops the reference it
 * holds. Its ioctls are a dma-buf's: DMA_BUF_IOCTL_SYNC alone.
 */

#include <errno.h>
#include <fcntl.h>

#include <drm.h>
#include <linux/dma-buf.h>

#include "device.h"

static void *shim_prime_get(void *data)
{
	shim_surface_get(data);
	return data;
}

static void shim_prime_release(void *data)
{
	shim_surface_put(data);
}

/*
 * A dma-buf's ioctls: DMA_BUF_IOCTL_SYNC checks its flags, as
 * dma_buf_ioctl() does, and has nothing to do (the pages are coherent).
 */
static int shim_prime_ioctl(void *data, unsigned long request, void *arg)
{
	struct dma_buf_sync sync;

	if (request != DMA_BUF_IOCTL_SYNC)
		return -ENOTTY;
	if (shim_copy_in(&sync, arg, sizeof(sync)))
		return -EFAULT;
	if (sync.flags & ~DMA_BUF_SYNC_VALID_FLAGS_MASK ||
	    !(sync.flags & DMA_BUF_SYNC_RW))
		return -EINVAL;
	return 0;
}

static const struct shim_fd_ops shim_prime_ops = {
	.name = "vatom-shim dma-buf",
	.release = shim_prime_release,
	.ioctl = shim_prime_ioctl,
};

int shim_prime_handle_to_fd(struct shim_file *f, void *arg)
{
	struct drm_prime_handle *args = arg;
	struct shim_surface *s;
	int fd, ret;

	if (args->flags & ~(DRM_CLOEXEC | DRM_RDWR))
		return -EINVAL;
	s = shim_surface_lookup(f, args->handle);
	if (!s)
		return -ENOENT;
	fd = shim_real_fcntl_dupfd(s->memfd, 0, args->flags & DRM_CLOEXEC);
	if (fd < 0) {
		shim_surface_put(s);
		return -errno;
	}
	ret = shim_fd_track(fd, &shim_prime_ops, s);	/* takes the reference */
	if (ret) {
		shim_real_close(fd);
		shim_surface_put(s);
		return ret;
	}
	args->fd = fd;
	return 0;
}

int shim_prime_fd_to_handle(struct shim_file *f, void *arg)
{
	struct drm_prime_handle *args = arg;
	struct shim_surface *s;
	u32 handle;
	int ret;

	s = shim_fd_get(args->fd, &shim_prime_ops, shim_prime_get);
	if (!s)
		return shim_fd_is_open(args->fd) ? -EINVAL : -EBADF;
	shim_mutex_lock(&f->handles_lock);
	handle = shim_handle_of(f, s);
	shim_mutex_unlock(&f->handles_lock);
	if (handle) {
		args->handle = handle;
		shim_surface_put(s);
		return 0;
	}
	ret = shim_handle_create(f, s, &args->handle);
	shim_surface_put(s);
	return ret;
}
