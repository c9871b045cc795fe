// SPDX-License-Identifier: MIT
/*
 * One open device file of the in-process device: what open() of a node
 * creates, and the ioctl switch, which copies each argument in and out
 * by its size as drm_ioctl() does and answers the DRM core's ioctls that
 * a render node has (VERSION, GET_CAP, GEM_CLOSE, PRIME, the syncobjs)
 * and every vatom one. The policy limits and the accounts are limits.c's.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <drm.h>

#include "device.h"
#include "poller.h"

/* The library's version; `vatom --shim` looks for it to know it loaded. */
SHIM_EXPORT const char vatom_shim_version[] = VATOM_VERSION_STRING;

static struct shim_device shim_devices[SHIM_MAX_DEVICES];
static pthread_once_t shim_files_once = PTHREAD_ONCE_INIT;

/*
 * The open files, for fork(): the child is a copy of one thread, so
 * every lock another thread held would stay held in it for ever. Around
 * fork() the short-held locks are taken (the kernel's file is shared
 * with the child; here the child gets a copy of the files, whose
 * surfaces' memory it shares), and in the child the file's submission
 * lock, which a synchronous job holds while it runs, is made anew and
 * the parent's worker of asynchronous jobs, which the child does not
 * have, is forgotten: docs/shim.md.
 */
static pthread_mutex_t shim_files_lock = PTHREAD_MUTEX_INITIALIZER;
static struct shim_file *shim_files;

static void shim_fork_prepare(void)
{
	struct shim_file *f;

	pthread_mutex_lock(&shim_files_lock);
	for (f = shim_files; f; f = f->next) {
		pthread_mutex_lock(&f->queues_lock);
		shim_mutex_lock(&f->handles_lock);
		shim_syncobjs_lock(f->syncobjs);
	}
	shim_offsets_lock();
}

static void shim_fork_parent(void)
{
	struct shim_file *f;

	shim_offsets_unlock();
	for (f = shim_files; f; f = f->next) {
		shim_syncobjs_unlock(f->syncobjs);
		shim_mutex_unlock(&f->handles_lock);
		pthread_mutex_unlock(&f->queues_lock);
	}
	pthread_mutex_unlock(&shim_files_lock);
}

static void shim_fork_child(void)
{
	struct shim_file *f;
	unsigned int i;

	shim_offsets_unlock();
	for (f = shim_files; f; f = f->next) {
		shim_syncobjs_unlock(f->syncobjs);
		shim_mutex_unlock(&f->handles_lock);
		pthread_mutex_unlock(&f->queues_lock);
		shim_mutex_init(&f->lock);
		if (f->sched)
			atomic_fetch_sub(&f->dev->schedulers, 1);
		f->sched = NULL;
		f->last_fence = NULL;	/* the parent's worker signals it */
		shim_file_queues_after_fork(f);
	}
	for (i = 0; i < SHIM_MAX_DEVICES; i++)
		shim_pollers_after_fork(&shim_devices[i]);
	pthread_mutex_unlock(&shim_files_lock);
}

/* What opening the first file sets up: the devices' numbers, fork(). */
static void shim_files_init(void)
{
	unsigned int i;

	for (i = 0; i < SHIM_MAX_DEVICES; i++)
		shim_devices[i].index = i;
	pthread_atfork(shim_fork_prepare, shim_fork_parent, shim_fork_child);
}

/* --- files */

int shim_file_open(unsigned int minor, struct shim_file **out)
{
	unsigned int index = minor >= SHIM_RENDER_MINOR_BASE ?
			     minor - SHIM_RENDER_MINOR_BASE : minor;
	struct shim_file *f;

	shim_limits_load();
	pthread_once(&shim_files_once, shim_files_init);
	if (index >= shim_num_devices())
		return -ENODEV;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->acct = calloc(1, sizeof(*f->acct));
	f->syncobjs = shim_syncobjs_new();
	if (!f->acct || !f->syncobjs) {
		if (f->syncobjs)
			shim_syncobjs_free(f->syncobjs);
		free(f->acct);
		free(f);
		return -ENOMEM;
	}
	atomic_init(&f->acct->refs, 1);
	atomic_init(&f->refs, 1);
	f->dev = &shim_devices[index];
	f->render = minor >= SHIM_RENDER_MINOR_BASE;
	f->client_id = atomic_fetch_add(&f->dev->clients, 1) + 1;
	f->device_resets_open = atomic_load(&f->dev->resets);
	shim_mutex_init(&f->handles_lock);
	shim_mutex_init(&f->lock);
	pthread_mutex_init(&f->queues_lock, NULL);
	pthread_mutex_lock(&shim_files_lock);
	f->next = shim_files;
	if (shim_files)
		shim_files->prev = f;
	shim_files = f;
	pthread_mutex_unlock(&shim_files_lock);
	*out = f;
	return 0;
}

struct shim_file *shim_file_get(struct shim_file *f)
{
	atomic_fetch_add(&f->refs, 1);
	return f;
}

/*
 * The last reference: as the DRM core's release, the file's jobs stop
 * (those not started are cancelled) and its handles and syncobjs go.
 */
void shim_file_put(struct shim_file *f)
{
	if (atomic_fetch_sub(&f->refs, 1) != 1)
		return;
	pthread_mutex_lock(&shim_files_lock);
	if (f->prev)
		f->prev->next = f->next;
	else
		shim_files = f->next;
	if (f->next)
		f->next->prev = f->prev;
	pthread_mutex_unlock(&shim_files_lock);
	/* As vatom.ko's postclose: its queues, its jobs, then the rest. */
	shim_file_queues_release(f);
	shim_file_stop_jobs(f);
	shim_file_close_handles(f);
	shim_syncobjs_free(f->syncobjs);
	pthread_mutex_destroy(&f->queues_lock);
	shim_account_put(f->acct);
	free(f);
}

/* --- the DRM core's ioctls a render node has */

/* drm_copy_field(): at most the caller's length, and the whole length back. */
static int shim_copy_field(char *ubuf, __kernel_size_t *len, const char *value)
{
	size_t n = strlen(value);
	size_t copy = n < *len ? n : *len;

	*len = n;
	return copy && ubuf ? shim_copy_out(ubuf, value, copy) : 0;
}

static int shim_version(struct shim_file *f, void *arg)
{
	struct drm_version *v = arg;
	int ret;

	v->version_major = VATOM_VERSION_MAJOR;
	v->version_minor = VATOM_VERSION_MINOR;
	v->version_patchlevel = VATOM_VERSION_PATCH;
	ret = shim_copy_field(v->name, &v->name_len, VATOM_NAME);
	if (!ret)
		ret = shim_copy_field(v->date, &v->date_len, VATOM_DATE);
	if (!ret)
		ret = shim_copy_field(v->desc, &v->desc_len, VATOM_DESC);
	return ret;
}

/* drm_getcap(): what a driver without modesetting answers. */
static int shim_get_cap(struct shim_file *f, void *arg)
{
	struct drm_get_cap *cap = arg;

	switch (cap->capability) {
	case DRM_CAP_TIMESTAMP_MONOTONIC:
	case DRM_CAP_SYNCOBJ:
	case DRM_CAP_SYNCOBJ_TIMELINE:
		cap->value = 1;
		return 0;
	case DRM_CAP_PRIME:
		cap->value = DRM_PRIME_CAP_IMPORT | DRM_PRIME_CAP_EXPORT;
		return 0;
	}
	return -EOPNOTSUPP;
}

static int shim_syncobj_call(struct shim_file *f, void *arg, unsigned long cmd)
{
	return shim_syncobj_ioctl(f->syncobjs, cmd, arg);
}

/* --- vatom's */

static int shim_get_param(struct shim_file *f, void *arg)
{
	struct drm_vatom_get_param *args = arg;
	int ret = vatom_param_fixed(args->param, args->index, &args->value);

	if (ret <= 0)
		return ret;
	switch (args->param) {
	case DRM_VATOM_PARAM_MAX_JOBS:
		args->value = shim_limits.max_jobs;
		break;
	case DRM_VATOM_PARAM_FILE_MEM_CAP:
		args->value = shim_limits.file_mem_cap;
		break;
	case DRM_VATOM_PARAM_MAX_SUBMIT_OPS:
		args->value = shim_limits.max_submit_ops;
		break;
	case DRM_VATOM_PARAM_FILE_MEM_CHARGED:
		args->value = atomic_load(&f->acct->bytes);
		break;
	case DRM_VATOM_PARAM_MAX_POLL_QUEUES:
		args->value = shim_limits.max_poll_queues;
		break;
	case DRM_VATOM_PARAM_JOB_TIMEOUT_MS:
		args->value = __atomic_load_n(&shim_limits.job_timeout_ms,
					      __ATOMIC_RELAXED);
		break;
	default:	/* DRM_VATOM_PARAM_MAX_SCHEDULERS: a thread per file */
		args->value = __atomic_load_n(&shim_limits.max_schedulers,
					      __ATOMIC_RELAXED);
		break;
	}
	return 0;
}

/**
 * struct shim_ioctl - one ioctl the file answers
 * @cmd: its request as the kernel defines it: the size copied, the
 *	direction
 * @func: the handler, with the argument copied in
 * @with_cmd: the syncobj family's handler, which takes @cmd too
 */
struct shim_ioctl {
	unsigned long cmd;
	int (*func)(struct shim_file *f, void *arg);
	int (*with_cmd)(struct shim_file *f, void *arg, unsigned long cmd);
};

#define SHIM_CORE(n, fn)	[_IOC_NR(DRM_IOCTL_##n)] = { DRM_IOCTL_##n, fn, NULL }
#define SHIM_SYNCOBJ(n)		[_IOC_NR(DRM_IOCTL_##n)] = { DRM_IOCTL_##n, NULL, shim_syncobj_call }
#define SHIM_DRV(n, fn)		[DRM_VATOM_##n] = { DRM_IOCTL_VATOM_##n, fn, NULL }

static const struct shim_ioctl shim_core_ioctls[] = {
	SHIM_CORE(VERSION, shim_version),
	SHIM_CORE(GET_CAP, shim_get_cap),
	SHIM_CORE(GEM_CLOSE, shim_gem_close),
	SHIM_CORE(PRIME_HANDLE_TO_FD, shim_prime_handle_to_fd),
	SHIM_CORE(PRIME_FD_TO_HANDLE, shim_prime_fd_to_handle),
	SHIM_SYNCOBJ(SYNCOBJ_CREATE),
	SHIM_SYNCOBJ(SYNCOBJ_DESTROY),
	SHIM_SYNCOBJ(SYNCOBJ_HANDLE_TO_FD),
	SHIM_SYNCOBJ(SYNCOBJ_FD_TO_HANDLE),
	SHIM_SYNCOBJ(SYNCOBJ_WAIT),
	SHIM_SYNCOBJ(SYNCOBJ_RESET),
	SHIM_SYNCOBJ(SYNCOBJ_SIGNAL),
	SHIM_SYNCOBJ(SYNCOBJ_TIMELINE_WAIT),
	SHIM_SYNCOBJ(SYNCOBJ_QUERY),
	SHIM_SYNCOBJ(SYNCOBJ_TRANSFER),
	SHIM_SYNCOBJ(SYNCOBJ_TIMELINE_SIGNAL),
#ifdef DRM_IOCTL_SYNCOBJ_EVENTFD
	SHIM_SYNCOBJ(SYNCOBJ_EVENTFD),
#endif
};

static const struct shim_ioctl shim_vatom_ioctls[] = {
	SHIM_DRV(GET_PARAM, shim_get_param),
	SHIM_DRV(SURFACE_CREATE, shim_surface_create),
	SHIM_DRV(SURFACE_MMAP_OFFSET, shim_surface_mmap_offset),
	SHIM_DRV(SURFACE_INFO, shim_surface_info),
	SHIM_DRV(SUBMIT, shim_submit),
	SHIM_DRV(NOC_COUNTERS, shim_noc_counters),
	SHIM_DRV(QUEUE_CREATE, shim_queue_create),
	SHIM_DRV(QUEUE_DESTROY, shim_queue_destroy_ioctl),
	SHIM_DRV(QUEUE_KICK, shim_queue_kick),
	SHIM_DRV(RESET_STATUS, shim_reset_status),
};

/* The handler of @cmd, as drm_ioctl() finds it by number, or NULL. */
static const struct shim_ioctl *shim_ioctl_find(unsigned long cmd)
{
	unsigned int nr = _IOC_NR(cmd);
	const struct shim_ioctl *io;

	if (nr >= DRM_COMMAND_BASE && nr < DRM_COMMAND_END) {
		nr -= DRM_COMMAND_BASE;
		if (nr >= ARRAY_SIZE(shim_vatom_ioctls))
			return NULL;
		io = &shim_vatom_ioctls[nr];
	} else {
		if (nr >= ARRAY_SIZE(shim_core_ioctls))
			return NULL;
		io = &shim_core_ioctls[nr];
	}
	return io->cmd ? io : NULL;
}

int shim_file_ioctl(struct shim_file *f, unsigned long cmd, void *arg)
{
	unsigned char stack[128] __aligned(8);
	size_t in_size, out_size, ksize;
	const struct shim_ioctl *io;
	unsigned char *kdata = stack;
	int ret;

	if (_IOC_TYPE(cmd) != DRM_IOCTL_BASE)
		return -ENOTTY;
	io = shim_ioctl_find(cmd);
	if (!io)
		return -EINVAL;		/* as drm_ioctl(): no such ioctl */

	/* drm_ioctl(): the caller's size, extended to ours with zeroes. */
	in_size = _IOC_SIZE(cmd);
	out_size = in_size;
	if (!(cmd & io->cmd & IOC_IN))
		in_size = 0;
	if (!(cmd & io->cmd & IOC_OUT))
		out_size = 0;
	ksize = _IOC_SIZE(io->cmd);
	if (in_size > ksize)
		ksize = in_size;
	if (out_size > ksize)
		ksize = out_size;
	if (ksize > sizeof(stack)) {
		kdata = malloc(ksize);
		if (!kdata)
			return -ENOMEM;
	}
	if (in_size && shim_copy_in(kdata, arg, in_size)) {
		ret = -EFAULT;
		goto out;
	}
	if (ksize > in_size)
		memset(kdata + in_size, 0, ksize - in_size);

	ret = io->func ? io->func(f, kdata) : io->with_cmd(f, kdata, io->cmd);
	if (out_size && shim_copy_out(arg, kdata, out_size))
		ret = -EFAULT;
out:
	if (kdata != stack)
		free(kdata);
	return ret;
}
