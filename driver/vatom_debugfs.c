// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * debugfs: counters for tests and bring-up (no stable ABI).
 *
 *   /sys/kernel/debug/dri/<minor>/vatom_stats
 *
 * Live counts (surfaces, jobs_in_flight: jobs not yet freed, fences: job
 * fences still referenced anywhere) let tests check that nothing leaks.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <linux/debugfs.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>

#include <drm/drm_debugfs.h>
#include <drm/drm_file.h>

#include "vatom_drv.h"

static const char * const vatom_family_names[VATOM_FAMILY_COUNT] = {
	[VATOM_FAMILY_VISA] = "visa",
	[VATOM_FAMILY_PTX] = "ptx",
	[VATOM_FAMILY_NOC] = "noc",
};

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
	struct drm_info_node *node = m->private;
	struct vatom_device *vdev = to_vatom_device(node->minor->dev);
	struct vatom_stats_counters *st = &vdev->stats;
	struct vatom_stats_pcpu sum;
	int f;

	vatom_stats_sum(vdev, &sum);
	seq_printf(m, "submissions %llu\n", sum.submissions);
	seq_printf(m, "errors %lld\n", atomic64_read(&st->errors));
	seq_printf(m, "surfaces %lld\n", atomic64_read(&st->surfaces));
	seq_printf(m, "jobs_in_flight %lld\n", sum.jobs);
	seq_printf(m, "fences %lld\n", atomic64_read(&st->fences));
	seq_printf(m, "jobs_cancelled %lld\n", atomic64_read(&st->cancelled));
	for (f = 0; f < VATOM_FAMILY_COUNT; f++) {
		seq_printf(m, "packets_%s %llu\n", vatom_family_names[f],
			   sum.packets[f]);
		seq_printf(m, "elements_%s %llu\n", vatom_family_names[f],
			   sum.elements[f]);
	}
	return 0;
}

static const struct drm_info_list vatom_debugfs_list[] = {
	{ "vatom_stats", vatom_stats_show, 0 },
};

void vatom_debugfs_init(struct drm_minor *minor)
{
	drm_debugfs_create_files(vatom_debugfs_list, ARRAY_SIZE(vatom_debugfs_list),
				 minor->debugfs_root, minor);
}
