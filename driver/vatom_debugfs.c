// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * debugfs: counters and views for tests and bring-up (no stable ABI).
 *
 *   /sys/kernel/debug/dri/<minor>/vatom_stats	device counters
 *   /sys/kernel/debug/dri/<minor>/vatom_clients	one line per open file
 *   /sys/kernel/debug/dri/<minor>/vatom_limits	the limits in force
 *
 * The files are the device's (vatom_debugfs_register()); on newer kernels
 * each minor's directory is a link to the device's.
 *
 * Live counts (surfaces, jobs_in_flight: jobs not yet freed, fences: job
 * fences still referenced anywhere) let tests check that nothing leaks.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <linux/debugfs.h>
#include <linux/idr.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>

#include <drm/drm_debugfs.h>
#include <drm/drm_file.h>

#include "vatom_compat_kernel.h"
#include "vatom_device.h"
#include "vatom_ioctl.h"
#include "vatom_job.h"
#include "vatom_limits.h"
#include "vatom_queue_poll.h"

/* The sums of the per-CPU counters. */
static void vatom_stats_sum(struct vatom_device *vdev, struct vatom_stats_pcpu *sum)
{
	const struct vatom_stats_pcpu *c;
	int cpu, f;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		c = per_cpu_ptr(vdev->pcpu, cpu);
		sum->submissions += READ_ONCE(c->submissions);
		sum->jobs += READ_ONCE(c->jobs);
		for (f = 0; f < VATOM_FAMILY_COUNT; f++) {
			sum->packets[f] += READ_ONCE(c->packets[f]);
			sum->elements[f] += READ_ONCE(c->elements[f]);
		}
	}
}

static int vatom_stats_show(struct seq_file *m, void *unused)
{
	struct vatom_device *vdev = to_vatom_device(vatom_debugfs_dev(m));
	struct vatom_stats_counters *st = &vdev->stats;
	struct vatom_stats_pcpu sum;
	int f;

	vatom_stats_sum(vdev, &sum);
	seq_printf(m, "submissions %llu\n", sum.submissions);
	seq_printf(m, "errors %lld\n", atomic64_read(&st->errors));
	seq_printf(m, "surfaces %lld\n", atomic64_read(&st->surfaces));
	seq_printf(m, "jobs_in_flight %lld\n", sum.jobs);
	seq_printf(m, "fences %lld\n", atomic64_read(vdev->live_fences));
	seq_printf(m, "jobs_cancelled %lld\n", atomic64_read(&st->cancelled));
	seq_printf(m, "job_timeouts %lld\n", atomic64_read(&st->job_timeouts));
	seq_printf(m, "job_faults %lld\n", atomic64_read(&st->job_faults));
	seq_printf(m, "resets %lld\n", atomic64_read(&st->resets));
	for (f = 0; f < VATOM_FAMILY_COUNT; f++) {
		seq_printf(m, "packets_%s %llu\n", vatom_family_name(f),
			   sum.packets[f]);
		seq_printf(m, "elements_%s %llu\n", vatom_family_name(f),
			   sum.elements[f]);
	}
	return 0;
}

/* Handles a file holds. */
static unsigned int vatom_file_handles(struct drm_file *file)
{
	struct drm_gem_object *obj;
	unsigned int n = 0;
	int id;

	spin_lock(&file->table_lock);
	idr_for_each_entry(&file->object_idr, obj, id)
		n++;
	spin_unlock(&file->table_lock);
	return n;
}

static int vatom_clients_show(struct seq_file *m, void *unused)
{
	struct drm_device *dev = vatom_debugfs_dev(m);
	struct vatom_file *vfile;
	struct drm_file *file;

	seq_printf(m, "%8s %8s %8s %12s %8s %10s %10s %10s\n", "client", "pid",
		   "jobs", "charged_kib", "handles", "submitted", "completed",
		   "rejected");
	mutex_lock(&dev->filelist_mutex);
	list_for_each_entry(file, &dev->filelist, lhead) {
		vfile = file->driver_priv;
		if (!vfile)
			continue;
		seq_printf(m, "%8llu %8d %8d %12llu %8u %10llu %10llu %10llu\n",
			   vfile->client_id, vatom_file_pid(file),
			   atomic_read(&vfile->inflight),
			   (u64)atomic64_read(&vfile->acct->bytes) >> 10,
			   vatom_file_handles(file),
			   (u64)atomic64_read(&vfile->submitted),
			   (u64)atomic64_read(&vfile->completed),
			   (u64)atomic64_read(&vfile->rejected));
	}
	mutex_unlock(&dev->filelist_mutex);
	return 0;
}

static int vatom_limits_show(struct seq_file *m, void *unused)
{
	struct vatom_device *vdev = to_vatom_device(vatom_debugfs_dev(m));

	seq_printf(m, "max_surface_size %llu\n", VATOM_MAX_SURFACE_SIZE);
	seq_printf(m, "max_stream_size %u\n", VATOM_MAX_STREAM_SIZE);
	seq_printf(m, "max_results_size %llu\n", VATOM_MAX_RESULTS_SIZE);
	seq_printf(m, "max_slots %u\n", DRM_VATOM_MAX_SLOTS);
	seq_printf(m, "max_syncs %u\n", VATOM_MAX_SYNCS);
	seq_printf(m, "max_jobs %u\n", vatom_max_jobs());
	seq_printf(m, "file_mem_cap %llu\n", vatom_file_mem_cap());
	seq_printf(m, "max_submit_ops %llu\n", vatom_max_submit_ops());
	seq_printf(m, "max_queues %u\n", VATOM_MAX_QUEUES);
	seq_printf(m, "max_queue_entries %u\n", DRM_VATOM_QUEUE_MAX_ENTRIES);
	seq_printf(m, "max_poll_queues %u\n", vatom_max_poll_queues());
	seq_printf(m, "max_schedulers %u\n", vatom_max_schedulers());
	seq_printf(m, "job_timeout_ms %u\n", vatom_job_timeout_ms());
	seq_printf(m, "poll_queues %d\n", atomic_read(&vdev->poll_queues));
	seq_printf(m, "pollers %u\n", vatom_pollers(vdev));
	seq_printf(m, "schedulers %d\n", atomic_read(&vdev->schedulers));
	return 0;
}

static const struct vatom_debugfs_info vatom_debugfs_list[] = {
	{ "vatom_stats", vatom_stats_show, 0 },
	{ "vatom_clients", vatom_clients_show, 0 },
	{ "vatom_limits", vatom_limits_show, 0 },
};

/**
 * vatom_debugfs_register() - add the device's debugfs files
 * @dev: the device, before drm_dev_register()
 */
void vatom_debugfs_register(struct drm_device *dev)
{
	vatom_debugfs_add_files(dev, vatom_debugfs_list,
				ARRAY_SIZE(vatom_debugfs_list));
}

VATOM_DEBUGFS_INIT_SHIM(vatom_debugfs_init, vatom_debugfs_list,
			ARRAY_SIZE(vatom_debugfs_list))
