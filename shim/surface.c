// SPDX-License-Identifier: MIT
/*
 * Surfaces of the in-process device: GEM objects whose memory is a memfd,
 * mapped once for the engine and again by every mmap() of the device
 * file or of an exported descriptor, so that device atomics and CPU
 * atomics through a mapping meet in the same pages, as on vatom.ko's
 * shmem objects; mmap() of the device file finds its surface by the fake
 * offset each surface is given. Handles and charges follow vatom_gem.c
 * and the DRM core: the lowest free handle, the first handle's file owns
 * (and is charged for) the surface while it lives, any other file while
 * it holds its handle. The ioctls on surfaces are surface_ioctl.c's
 * (SURFACE_CREATE, _MMAP_OFFSET, _INFO) and noc.c's (NOC_COUNTERS);
 * PRIME, a descriptor that names a surface, is prime.c's.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm.h>

#include "device.h"

#define SHIM_PAGE_SIZE	4096ull
/* Where the DRM core's fake mmap offsets start (DRM_FILE_PAGE_OFFSET_START). */
#define SHIM_MMAP_OFFSET_START	0x100000000ull

/*
 * The fake mmap offsets in use, each a surface's: the DRM core's offset
 * manager, one per process (it is per device; one range for all does as
 * well, each file checks its own handles).
 */
static pthread_mutex_t shim_offsets_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct shim_surface **shim_offsets;
static size_t shim_noffsets, shim_offsets_cap;
static u64 shim_next_offset = SHIM_MMAP_OFFSET_START;

/* Around fork(): the child must not inherit the lock held (file.c). */
void shim_offsets_lock(void)
{
	pthread_mutex_lock(&shim_offsets_mutex);
}

void shim_offsets_unlock(void)
{
	pthread_mutex_unlock(&shim_offsets_mutex);
}

static int shim_offset_add(struct shim_surface *s)
{
	struct shim_surface **n;
	int ret = 0;

	pthread_mutex_lock(&shim_offsets_mutex);
	if (shim_noffsets == shim_offsets_cap) {
		size_t cap = shim_offsets_cap ? 2 * shim_offsets_cap : 64;

		n = realloc(shim_offsets, cap * sizeof(*n));
		if (!n) {
			ret = -ENOMEM;
			goto out;
		}
		shim_offsets = n;
		shim_offsets_cap = cap;
	}
	s->offset = shim_next_offset;
	shim_next_offset += s->mmap_size;
	shim_offsets[shim_noffsets++] = s;
out:
	pthread_mutex_unlock(&shim_offsets_mutex);
	return ret;
}

static void shim_offset_remove(struct shim_surface *s)
{
	size_t i;

	pthread_mutex_lock(&shim_offsets_mutex);
	for (i = 0; i < shim_noffsets; i++) {
		if (shim_offsets[i] == s) {
			shim_offsets[i] = shim_offsets[--shim_noffsets];
			break;
		}
	}
	pthread_mutex_unlock(&shim_offsets_mutex);
}

void shim_surface_get(struct shim_surface *s)
{
	atomic_fetch_add(&s->refs, 1);
}

void shim_surface_put(struct shim_surface *s)
{
	struct shim_account *owner;

	if (atomic_fetch_sub(&s->refs, 1) != 1)
		return;
	if (s->offset)
		shim_offset_remove(s);
	owner = atomic_load(&s->owner);
	if (owner) {
		shim_account_uncharge(owner, s->charge);
		shim_account_put(owner);
	}
	if (s->view.vaddr)
		munmap(s->view.vaddr, s->mmap_size);
	shim_fd_private_close(s->memfd);
	free(s->typed);
	free(s->grid);
	free(s);
}

/* A surface of @size addressable bytes, in a memfd of whole pages. */
int shim_surface_alloc(u64 size, struct shim_surface **out)
{
	struct shim_surface *s = calloc(1, sizeof(*s));
	void *p;
	int fd;

	if (!s)
		return -ENOMEM;
	atomic_init(&s->refs, 1);
	s->mmap_size = (size + SHIM_PAGE_SIZE - 1) & ~(SHIM_PAGE_SIZE - 1);
	s->charge = s->mmap_size;
	s->view.kind = DRM_VATOM_SURFACE_BUFFER;
	s->view.size = size;
	/* the process's numbers are not the device's: a private copy */
	fd = memfd_create("vatom-shim-surface", MFD_CLOEXEC);
	s->memfd = fd < 0 ? -1 : shim_fd_private_dup(fd);
	if (fd >= 0)
		shim_real_close(fd);
	if (s->memfd < 0 || ftruncate(s->memfd, s->mmap_size))
		goto nomem;
	p = shim_real_mmap(NULL, s->mmap_size, PROT_READ | PROT_WRITE,
			   MAP_SHARED, s->memfd, 0);
	if (p == MAP_FAILED)
		goto nomem;
	s->view.vaddr = p;
	if (shim_offset_add(s))
		goto nomem;
	*out = s;
	return 0;
nomem:
	shim_surface_put(s);
	return -ENOMEM;
}

/* --- handles */

/*
 * Give @f a handle to @s, the lowest free one (idr_alloc() from 1), with
 * the charge vatom_gem_handle_open() makes; the handle takes a reference.
 */
int shim_handle_create(struct shim_file *f, struct shim_surface *s,
		       u32 *handle)
{
	struct shim_account *owner = NULL;
	struct shim_surface **n;
	u32 i;
	int ret;

	if (atomic_load(&s->owner) != f->acct) {
		ret = shim_account_charge(f->acct, s->charge);
		if (ret)
			return ret;
		if (atomic_compare_exchange_strong(&s->owner, &owner, f->acct))
			atomic_fetch_add(&f->acct->refs, 1);
	}

	shim_mutex_lock(&f->handles_lock);
	for (i = 0; i < f->nhandles && f->handles[i]; i++)
		;
	if (i == f->nhandles) {
		u32 cap = f->nhandles ? 2 * f->nhandles : 16;

		n = realloc(f->handles, cap * sizeof(*n));
		if (!n) {
			shim_mutex_unlock(&f->handles_lock);
			if (atomic_load(&s->owner) != f->acct)
				shim_account_uncharge(f->acct, s->charge);
			return -ENOMEM;
		}
		memset(n + f->nhandles, 0, (cap - f->nhandles) * sizeof(*n));
		f->handles = n;
		f->nhandles = cap;
	}
	shim_surface_get(s);
	f->handles[i] = s;
	shim_mutex_unlock(&f->handles_lock);
	*handle = i + 1;
	return 0;
}

/* The handle @f has to @s, or 0. Under f->handles_lock. */
u32 shim_handle_of(struct shim_file *f, struct shim_surface *s)
{
	u32 i;

	for (i = 0; i < f->nhandles; i++)
		if (f->handles[i] == s)
			return i + 1;
	return 0;
}

/* Drop a handle's charge (vatom_gem_handle_close()) and its reference. */
static void shim_handle_release(struct shim_file *f, struct shim_surface *s)
{
	if (atomic_load(&s->owner) != f->acct)
		shim_account_uncharge(f->acct, s->charge);
	shim_surface_put(s);
}

/**
 * shim_surface_lookup() - the surface of a handle of @f
 * @f: the file
 * @handle: the handle
 *
 * Return: the surface, referenced, or NULL for an unknown handle.
 */
struct shim_surface *shim_surface_lookup(struct shim_file *f, u32 handle)
{
	struct shim_surface *s = NULL;

	shim_mutex_lock(&f->handles_lock);
	if (handle && handle <= f->nhandles) {
		s = f->handles[handle - 1];
		if (s)
			shim_surface_get(s);
	}
	shim_mutex_unlock(&f->handles_lock);
	return s;
}

/* At the file's release: every handle it still has. */
void shim_file_close_handles(struct shim_file *f)
{
	u32 i;

	for (i = 0; i < f->nhandles; i++)
		if (f->handles[i])
			shim_handle_release(f, f->handles[i]);
	free(f->handles);
	f->handles = NULL;
	f->nhandles = 0;
}

int shim_gem_close(struct shim_file *f, void *arg)
{
	struct drm_gem_close *args = arg;
	struct shim_surface *s = NULL;

	if (args->pad)
		return -EINVAL;
	shim_mutex_lock(&f->handles_lock);
	if (args->handle && args->handle <= f->nhandles) {
		s = f->handles[args->handle - 1];
		f->handles[args->handle - 1] = NULL;
	}
	shim_mutex_unlock(&f->handles_lock);
	if (!s)
		return -EINVAL;		/* drm_gem_handle_delete() */
	shim_handle_release(f, s);
	return 0;
}

/**
 * shim_bindings_read() - vatom_binding_table_read(): each entry checked,
 * each handle looked up
 * @f: the file whose handles the table names
 * @ubind: the caller's struct drm_vatom_binding[@count]
 * @count: entries, at most %DRM_VATOM_MAX_SLOTS (the caller checks)
 * @surf: out, the surfaces by slot, referenced; on failure what was bound
 *	so far, for the caller to put
 * @b: out, their views
 * @bound: out, or NULL: the slots bound, in order, from *@nbound on (a
 *	job clears what it bound by it, not all the slots)
 * @nbound: in and out, the entries of @bound
 *
 * Return: 0, -EFAULT, -EINVAL (flags, padding, a slot out of range or
 * twice) or -ENOENT (an unknown handle).
 */
int shim_bindings_read(struct shim_file *f, const void *ubind, u32 count,
		       struct shim_surface *surf[DRM_VATOM_MAX_SLOTS],
		       struct vatom_bindings *b, u8 *bound, u32 *nbound)
{
	const struct drm_vatom_binding *u = ubind;
	struct drm_vatom_binding bind;
	struct shim_surface *s;
	u32 i;
	int ret;

	for (i = 0; i < count; i++) {
		if (shim_copy_in(&bind, &u[i], sizeof(bind)))
			return -EFAULT;
		ret = vatom_rule_binding(&bind, b);
		if (ret)
			return ret;
		s = shim_surface_lookup(f, bind.handle);
		if (!s)
			return -ENOENT;
		surf[bind.slot] = s;
		b->slot[bind.slot] = &s->view;
		if (bound)
			bound[(*nbound)++] = bind.slot;
	}
	return 0;
}

/**
 * shim_buffer_new() - vatom_buffer_new(): a zeroed buffer and a handle
 * to it in @f (charged to it)
 * @f: the file
 * @size: bytes
 * @handle: out, the handle
 * @out: out, the surface, with a reference of the caller's own
 *
 * Return: 0, -ENOSPC or -ENOMEM.
 */
int shim_buffer_new(struct shim_file *f, u64 size, u32 *handle,
		    struct shim_surface **out)
{
	struct shim_surface *s;
	int ret;

	ret = shim_surface_alloc(size, &s);
	if (ret)
		return ret;
	ret = shim_handle_create(f, s, handle);
	if (ret) {
		shim_surface_put(s);
		return ret;
	}
	*out = s;
	return 0;
}

/* drm_gem_handle_delete(): @handle of @f is gone. */
void shim_handle_delete(struct shim_file *f, u32 handle)
{
	struct drm_gem_close args = { .handle = handle };

	shim_gem_close(f, &args);
}

/* --- mmap() */

/*
 * mmap() of the file: drm_gem_mmap()'s rules. The range must lie in one
 * surface (-EINVAL), the file must have a handle to it (-EACCES), and the
 * mapping must be shared (the shmem helpers refuse copy-on-write ones).
 */
void *shim_file_mmap(struct shim_file *f, void *addr, size_t len, int prot,
		     int flags, off_t offset)
{
	struct shim_surface *s = NULL;
	u64 off = (u64)offset;
	size_t i;
	int err = 0;

	pthread_mutex_lock(&shim_offsets_mutex);
	for (i = 0; i < shim_noffsets; i++) {
		struct shim_surface *c = shim_offsets[i];

		if (off >= c->offset && off - c->offset < c->mmap_size &&
		    len <= c->mmap_size - (off - c->offset)) {
			/* Not one on its way out (kref_get_unless_zero()). */
			unsigned int refs = atomic_load(&c->refs);

			while (refs && !atomic_compare_exchange_weak(&c->refs, &refs,
								     refs + 1))
				;
			if (refs)
				s = c;
			break;
		}
	}
	pthread_mutex_unlock(&shim_offsets_mutex);
	if (!s) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	shim_mutex_lock(&f->handles_lock);
	if (!shim_handle_of(f, s))
		err = EACCES;
	shim_mutex_unlock(&f->handles_lock);
	if (!err && (flags & MAP_TYPE) != MAP_SHARED)
		err = EINVAL;
	if (err) {
		shim_surface_put(s);
		errno = err;
		return MAP_FAILED;
	}
	addr = shim_real_mmap(addr, len, prot, flags, s->memfd, off - s->offset);
	shim_surface_put(s);	/* the mapping keeps the memfd's pages */
	return addr;
}
