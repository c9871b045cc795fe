// SPDX-License-Identifier: MIT
/*
 * preload_io.c: the calls on an open descriptor that the shim answers:
 * ioctl() and mmap(), mmap64() of a device file (shim_file_ioctl(),
 * shim_file_mmap()), ioctl() of a descriptor the shim made (a dma-buf's,
 * a sync_file's: their struct shim_fd_ops), and write() of a module
 * parameter's file. Any other descriptor's go to libc, through REAL(),
 * with no lock taken on the way.
 *
 * A file of preload.c's kind: it defines libc's symbols, and is left out
 * of a program that does not interpose libc.
 */
#undef _FORTIFY_SOURCE
#undef _FILE_OFFSET_BITS
#undef _TIME_BITS

#include <errno.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "preload_internal.h"

/*
 * The device file behind @fd, referenced, or NULL: found under fd_lock,
 * so that a close() of @fd in another thread meanwhile cannot free it
 * under the call (the kernel's fget()). *@other: @fd is ours but not a
 * device file's (-EBADF for an O_PATH one), or 0.
 */
static __always_inline struct shim_file *device_file_get(int fd, int *other)
{
	struct shim_file *file = NULL;
	struct vfd *v;

	*other = 0;
	if (likely(!vfd_get(fd)))
		return NULL;	/* never ours: no lock on other fds' calls */
	shim_mutex_lock(&fd_lock);
	v = vfd_get(fd);
	if (v && v->node->type == VN_CHR && v->file)
		file = shim_file_get(v->file);
	else if (v && v->node->type == VN_CHR)
		*other = -EBADF;	/* O_PATH */
	else if (v)
		*other = -ENOTTY;
	shim_mutex_unlock(&fd_lock);
	return file;
}

/*
 * ioctl() is variadic, and its one variadic argument arrives where a
 * third fixed one would (x86-64's System V ABI: %rdx, whatever %al says
 * of vector registers): the exported ioctl is a jump to shim_ioctl(),
 * with no va_list to spill six registers into on every call.
 */
int shim_ioctl(int fd, unsigned long request, void *arg) __attribute__((used));
__asm__(
	"	.text\n"
	"	.globl	ioctl\n"
	"	.type	ioctl, @function\n"
	"ioctl:\n"
	"	jmp	shim_ioctl\n"
	"	.size	ioctl, .-ioctl\n");

int shim_ioctl(int fd, unsigned long request, void *arg)
{
	struct shim_file *file;
	struct shim_obj *o;
	int ret;

	file = device_file_get(fd, &ret);
	if (file) {
		ret = shim_file_ioctl(file, request, arg);
		shim_file_put(file);
		return ret < 0 ? fail(-ret) : ret;
	}
	if (ret == -EBADF)
		return fail(EBADF);
	if (likely(!fd_get(fd)) || ret)
		return REAL(ioctl)(fd, request, arg);

	/*
	 * A descriptor the shim made: a sync_file's, a dma-buf's. Their
	 * ioctls are short and close no descriptor: under fd_lock, which
	 * keeps the object alive.
	 */
	shim_mutex_lock(&fd_lock);
	o = fd_get(fd);
	if (o && o->ops->ioctl) {
		ret = o->ops->ioctl(o->data, request, arg);
		shim_mutex_unlock(&fd_lock);
		return ret < 0 ? fail(-ret) : ret;
	}
	shim_mutex_unlock(&fd_lock);
	return REAL(ioctl)(fd, request, arg);
}

/*
 * write() of a module parameter's file sets it, as sysfs does: the whole
 * value in one call, its errno (EINVAL, ERANGE) from the parameter's set.
 */
SHIM_EXPORT ssize_t write(int fd, const void *buf, size_t n)
{
	struct vfd *v = vfd_get(fd);
	int ret;

	if (likely(!v) || !v->node->param)
		return REAL(write)(fd, buf, n);
	ret = shim_param_store(v->node->param, buf, n);
	return ret < 0 ? fail(-ret) : (ssize_t)n;
}

/* A device file's mapping, or NULL when @fd is not one. */
static void *device_mmap(void *addr, size_t len, int prot, int flags, int fd,
			 off_t off)
{
	struct shim_file *file;
	int other;
	void *p;

	if (likely(flags & MAP_ANONYMOUS))
		return NULL;
	file = device_file_get(fd, &other);
	if (!file) {
		if (other != -EBADF)
			return NULL;
		errno = EBADF;
		return MAP_FAILED;
	}
	p = shim_file_mmap(file, addr, len, prot, flags, off);
	shim_file_put(file);
	return p;
}

SHIM_EXPORT void *mmap(void *addr, size_t len, int prot, int flags, int fd,
		       off_t off)
{
	void *p = device_mmap(addr, len, prot, flags, fd, off);

	return p ? p : REAL(mmap)(addr, len, prot, flags, fd, off);
}

SHIM_EXPORT void *mmap64(void *addr, size_t len, int prot, int flags, int fd,
			 off64_t off)
{
	void *p = device_mmap(addr, len, prot, flags, fd, off);

	return p ? p : REAL(mmap64)(addr, len, prot, flags, fd, off);
}
