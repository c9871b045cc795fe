/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * vatom: the kernel API differences between the kernels vatom builds on,
 * in one place, keyed on LINUX_VERSION_CODE. The driver calls the vatom_*
 * names below and has no version #if of its own.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_COMPAT_KERNEL_H_
#define _VATOM_COMPAT_KERNEL_H_

#include <linux/atomic.h>
#include <linux/dma-buf.h>
#include <linux/eventfd.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/version.h>

#include <drm/drm_debugfs.h>
#include <drm/drm_device.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_print.h>
#include <drm/gpu_scheduler.h>

/*
 * 6.2 made dma_buf_vmap() a call under the buffer's reservation lock and
 * added the _unlocked variants, which take it; before, dma_buf_vmap() took
 * the dma-buf's own mutex.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define vatom_dma_buf_vmap	dma_buf_vmap_unlocked
#define vatom_dma_buf_vunmap	dma_buf_vunmap_unlocked
#else
#define vatom_dma_buf_vmap	dma_buf_vmap
#define vatom_dma_buf_vunmap	dma_buf_vunmap
#endif

/*
 * Kernel mappings of shmem GEM objects. 6.5 moved the shmem helpers to the
 * object's reservation lock, taken uninterruptibly: a driver maps through
 * drm_gem_vmap_unlocked(), which takes it, and keeps the helper's own
 * &drm_gem_object_funcs.vmap. Before, drm_gem_shmem_vmap() took a mutex of
 * its own interruptibly, and vatom serialises every mapping of its objects
 * under the surface's lock instead (vatom_gem.c): its .vmap wraps the
 * helper's. VATOM_GEM_VMAP()/VATOM_GEM_VUNMAP() pick the .vmap/.vunmap.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
/* 6.16 named the lock-taking forms drm_gem_vmap() and drm_gem_vunmap(). */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 16, 0)
#define vatom_gem_vmap_unlocked		drm_gem_vmap
#define vatom_gem_vunmap_unlocked	drm_gem_vunmap
#else
#define vatom_gem_vmap_unlocked		drm_gem_vmap_unlocked
#define vatom_gem_vunmap_unlocked	drm_gem_vunmap_unlocked
#endif

static inline int vatom_shmem_vmap(struct drm_gem_shmem_object *shmem,
				   struct iosys_map *map)
{
	return vatom_gem_vmap_unlocked(&shmem->base, map);
}

static inline void vatom_shmem_vunmap(struct drm_gem_shmem_object *shmem,
				      struct iosys_map *map)
{
	vatom_gem_vunmap_unlocked(&shmem->base, map);
}

#define VATOM_GEM_VMAP(locked_vmap)	drm_gem_shmem_object_vmap
#define VATOM_GEM_VUNMAP(locked_vunmap)	drm_gem_shmem_object_vunmap
#else
#define vatom_shmem_vmap		drm_gem_shmem_vmap
#define vatom_shmem_vunmap		drm_gem_shmem_vunmap
#define VATOM_GEM_VMAP(locked_vmap)	(locked_vmap)
#define VATOM_GEM_VUNMAP(locked_vunmap)	(locked_vunmap)
#endif

/* &drm_file.pid: RCU-protected (it follows the file's user) from 6.7. */
static inline pid_t vatom_file_pid(struct drm_file *file)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)
	pid_t nr;

	rcu_read_lock();
	nr = pid_nr(rcu_dereference(file->pid));
	rcu_read_unlock();
	return nr;
#else
	return pid_nr(file->pid);
#endif
}

/* Symbol namespaces are named by a string literal from 6.13. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
#define VATOM_IMPORT_NS_DMA_BUF		MODULE_IMPORT_NS("DMA_BUF")
#else
#define VATOM_IMPORT_NS_DMA_BUF		MODULE_IMPORT_NS(DMA_BUF)
#endif

/* __assign_str() takes the source from the __string() field from 6.10. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define vatom_assign_str(dst, src)	__assign_str(dst)
#else
#define vatom_assign_str(dst, src)	__assign_str(dst, src)
#endif

/* &drm_driver.date: removed in 6.14; older kernels warn when it is missing. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 14, 0)
#define VATOM_DRIVER_DATE(d)	.date = (d),
#else
#define VATOM_DRIVER_DATE(d)
#endif

/*
 * DRM fdinfo: from 6.5 the core prints drm-driver and drm-client-id
 * (drm_show_fdinfo(), the fops' .show_fdinfo) and calls
 * &drm_driver.show_fdinfo for the rest; before, a driver had its own
 * &file_operations.show_fdinfo and numbered its clients itself.
 * VATOM_DEFINE_FOPS(fops, show, client_id) defines @fops around the
 * driver's @show and @client_id; VATOM_DRIVER_SHOW_FDINFO(show) goes in
 * the driver.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
#define VATOM_DEFINE_FOPS(fops, show, client_id)			\
	static const struct file_operations fops = {			\
		.owner		= THIS_MODULE,				\
		DRM_GEM_FOPS,						\
		.show_fdinfo	= drm_show_fdinfo,			\
	}
#define VATOM_DRIVER_SHOW_FDINFO(show)	.show_fdinfo = (show),

static inline u64 vatom_client_id(struct drm_file *file)
{
	return file->client_id;
}
#else
#define VATOM_DEFINE_FOPS(fops, show, client_id)			\
	static void fops##_show_fdinfo(struct seq_file *m, struct file *f) \
	{								\
		struct drm_file *file = f->private_data;		\
		struct drm_printer p = drm_seq_file_printer(m);		\
									\
		drm_printf(&p, "drm-driver:\t%s\n",			\
			   file->minor->dev->driver->name);		\
		drm_printf(&p, "drm-client-id:\t%llu\n", client_id(file)); \
		show(&p, file);						\
	}								\
	static const struct file_operations fops = {			\
		.owner		= THIS_MODULE,				\
		DRM_GEM_FOPS,						\
		.show_fdinfo	= fops##_show_fdinfo,			\
	}
#define VATOM_DRIVER_SHOW_FDINFO(show)

static inline u64 vatom_client_id(struct drm_file *file)
{
	static atomic64_t last_id = ATOMIC64_INIT(0);

	return atomic64_inc_return(&last_id);
}
#endif

/*
 * fdinfo's memory keys (drm-total-, -shared-, -resident-memory, sizes in
 * the largest unit that divides them): drm_show_memory_stats() from 6.5,
 * which asks &drm_gem_object_funcs.status (VATOM_GEM_STATUS()) which
 * objects are resident. Before, vatom_show_memory_stats() prints them as
 * the newest core does (the resident key only when some object is),
 * asking @status itself.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
#define VATOM_GEM_STATUS(fn)		.status = (fn),

static inline void
vatom_show_memory_stats(struct drm_printer *p, struct drm_file *file,
			enum drm_gem_object_status (*status)(struct drm_gem_object *))
{
	drm_show_memory_stats(p, file);
}
#else
enum drm_gem_object_status {
	DRM_GEM_OBJECT_RESIDENT = BIT(0),
};

#define VATOM_GEM_STATUS(fn)

static inline void vatom_print_size(struct drm_printer *p, const char *stat,
				    u64 sz)
{
	static const char *const units[] = { "", " KiB", " MiB" };
	unsigned int u;

	for (u = 0; u < ARRAY_SIZE(units) - 1; u++) {
		if (!sz || !IS_ALIGNED(sz, SZ_1K))
			break;
		sz >>= 10;
	}
	drm_printf(p, "drm-%s-memory:\t%llu%s\n", stat, sz, units[u]);
}

static inline void
vatom_show_memory_stats(struct drm_printer *p, struct drm_file *file,
			enum drm_gem_object_status (*status)(struct drm_gem_object *))
{
	u64 total = 0, shared = 0, resident = 0;
	struct drm_gem_object *obj;
	int id;

	spin_lock(&file->table_lock);
	idr_for_each_entry(&file->object_idr, obj, id) {
		total += obj->size;
		if (obj->handle_count > 1 || obj->dma_buf)
			shared += obj->size;
		if (status(obj) & DRM_GEM_OBJECT_RESIDENT)
			resident += obj->size;
	}
	spin_unlock(&file->table_lock);
	vatom_print_size(p, "total", total);
	vatom_print_size(p, "shared", shared);
	if (resident)
		vatom_print_size(p, "resident", resident);
}
#endif

/*
 * debugfs: from 6.3 a driver adds its device's files with
 * drm_debugfs_add_files() before registering it, and a show function finds
 * the device in its &drm_debugfs_entry; before, &drm_driver.debugfs_init
 * creates them in each minor's directory with drm_debugfs_create_files(),
 * and a show function finds the device in its &drm_info_node. The entries
 * of both lists have the same members. VATOM_DEBUGFS_INIT_SHIM(fn, list,
 * count) after the list, VATOM_DRIVER_DEBUGFS_INIT(fn) in the driver.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
#define vatom_debugfs_info		drm_debugfs_info
#define vatom_debugfs_add_files		drm_debugfs_add_files
#define VATOM_DEBUGFS_INIT_SHIM(fn, list, count)
#define VATOM_DRIVER_DEBUGFS_INIT(fn)

static inline struct drm_device *vatom_debugfs_dev(struct seq_file *m)
{
	return ((struct drm_debugfs_entry *)m->private)->dev;
}
#else
#define vatom_debugfs_info		drm_info_list
#define vatom_debugfs_add_files(dev, files, count)	do { } while (0)
#define VATOM_DEBUGFS_INIT_SHIM(fn, list, count)			\
	void fn(struct drm_minor *minor)				\
	{								\
		drm_debugfs_create_files(list, count,			\
					 minor->debugfs_root, minor);	\
	}
#define VATOM_DRIVER_DEBUGFS_INIT(fn)	.debugfs_init = (fn),

static inline struct drm_device *vatom_debugfs_dev(struct seq_file *m)
{
	return ((struct drm_info_node *)m->private)->minor->dev;
}
#endif

/* 6.8 dropped eventfd_signal()'s count, which every caller gave as 1. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
#define vatom_eventfd_signal(ctx)	eventfd_signal(ctx)
#else
#define vatom_eventfd_signal(ctx)	eventfd_signal(ctx, 1)
#endif

/*
 * The DRM GPU scheduler (vatom_sched.c).
 *
 * drm_sched_init(): Debian's 6.1 has the argument structure of 6.15
 * backported, without @submit_wq and @num_rqs (a kthread per scheduler,
 * one run queue per priority); 6.12 takes the arguments one by one; 6.15
 * made them a structure again, with both. @submit_wq NULL: the scheduler
 * allocates its own ordered workqueue.
 */
static inline int vatom_sched_init(struct drm_gpu_scheduler *sched,
				   const struct drm_sched_backend_ops *ops,
				   struct workqueue_struct *submit_wq,
				   u32 credit_limit, long timeout,
				   const char *name, struct device *dev)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
	const struct drm_sched_init_args args = {
		.ops = ops,
		.credit_limit = credit_limit,
		.timeout = timeout,
		.name = name,
		.dev = dev,
	};

	return drm_sched_init(sched, &args);
#elif LINUX_VERSION_CODE < KERNEL_VERSION(6, 15, 0)
	return drm_sched_init(sched, ops, submit_wq, DRM_SCHED_PRIORITY_COUNT,
			      credit_limit, 0, timeout, NULL, NULL, name, dev);
#else
	const struct drm_sched_init_args args = {
		.ops = ops,
		.submit_wq = submit_wq,
		.num_rqs = DRM_SCHED_PRIORITY_COUNT,
		.credit_limit = credit_limit,
		.timeout = timeout,
		.name = name,
		.dev = dev,
	};

	return drm_sched_init(sched, &args);
#endif
}

/*
 * drm_sched_job_init(): 6.7 added the job's credits (vatom's jobs cost
 * one each); 6.16 the client's id, for the scheduler's tracepoints.
 */
static inline int vatom_sched_job_init(struct drm_sched_job *job,
				       struct drm_sched_entity *entity,
				       void *owner, u64 client_id)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 7, 0)
	return drm_sched_job_init(job, entity, owner);
#elif LINUX_VERSION_CODE < KERNEL_VERSION(6, 16, 0)
	return drm_sched_job_init(job, entity, 1, owner);
#else
	return drm_sched_job_init(job, entity, 1, owner, client_id);
#endif
}

/*
 * Called from run_job. Before 6.8 each scheduler has a kthread, which makes
 * itself SCHED_FIFO; from 6.8 its work runs on a workqueue at normal
 * priority. vatom's run_job only hands a job over, and a real-time thread
 * per file then preempts the file's submitter and executor at every job
 * (on 2 vCPUs: half the asynchronous jobs/s): it is put back to normal,
 * as on later kernels.
 */
static inline void vatom_sched_thread_normal(void)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 8, 0)
	if (unlikely(current->policy != SCHED_NORMAL))
		sched_set_normal(current, 0);
#endif
}

/*
 * What &drm_sched_backend_ops.timedout_job returns for a job that is not
 * hung and keeps running: 6.17 named it DRM_GPU_SCHED_STAT_NO_HANG (the
 * core puts the job back on its pending list) and renamed NOMINAL.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0)
#define VATOM_SCHED_STAT_NOT_HUNG	DRM_GPU_SCHED_STAT_NO_HANG
#else
#define VATOM_SCHED_STAT_NOT_HUNG	DRM_GPU_SCHED_STAT_NOMINAL
#endif

/*
 * Before 6.8 each GPU scheduler runs a kernel thread of its own, which
 * no memory cgroup or process count is charged for: vatom charges its
 * stack and task to the file's memory cap (vatom_sched.c). From 6.8 a
 * scheduler's work runs on a workqueue, vatom's device one.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 8, 0)
#define VATOM_SCHED_THREAD_BYTES	(THREAD_SIZE + sizeof(struct task_struct))
#else
#define VATOM_SCHED_THREAD_BYTES	0
#endif

/*
 * &platform_driver.remove returns void from 6.11 on, an int before (that
 * nothing reads). VATOM_PLATFORM_REMOVE_SHIM(fn) after a void fn(), then
 * VATOM_PLATFORM_REMOVE(fn) in the driver.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 11, 0)
#define VATOM_PLATFORM_REMOVE_SHIM(fn)					\
	static int fn##_int(struct platform_device *pdev)		\
	{								\
		fn(pdev);						\
		return 0;						\
	}
#define VATOM_PLATFORM_REMOVE(fn)	.remove = fn##_int
#else
#define VATOM_PLATFORM_REMOVE_SHIM(fn)
#define VATOM_PLATFORM_REMOVE(fn)	.remove = fn
#endif

#endif /* _VATOM_COMPAT_KERNEL_H_ */
