// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Devcoredumps: what a bring-up engineer needs after a hang. When a job
 * times out or faults and resets its file (vatom_exec_run()), whatever
 * door it came through, its state goes to the kernel's devcoredump
 * (/sys/class/devcoredump/devcdN, failing_device vatom.N): text, "key:
 * value" lines and ascii85 blobs as msm's GPU state is, in the format
 * docs/robustness.md ("Reading a hang") documents and versions. `vatom
 * dump` decodes it, `vatom replay` runs what the job left undone.
 *
 * The dump is written once, in the job's own context as soon as it
 * stopped (the surfaces as the job left them), into one vmalloc'ed
 * buffer that devcoredump owns from then on (dev_coredumpv()): it frees
 * it when the dump is deleted (a write to data), or after five minutes.
 * devcoredump keeps one dump per device: while one is unread, it drops
 * the next. No module reference is held, so an unread dump never blocks
 * unloading. What a dump captures of the job's bytes (stream, surfaces,
 * results, in that order) is bounded by coredump_max_kb, and it says
 * what it left out.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <linux/ascii85.h>
#include <linux/devcoredump.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>
#include <linux/utsname.h>
#include <linux/vmalloc.h>

#include <drm/drm_print.h>

#include "vatom_coredump.h"
#include "vatom_engine.h"
#include "vatom_file.h"
#include "vatom_gem.h"
#include "vatom_limits.h"

static bool coredump = true;
module_param(coredump, bool, 0644);
MODULE_PARM_DESC(coredump,
		 "Write a devcoredump when a job times out or faults (default: on; writable)");

static unsigned int coredump_max_kb = 1024;
module_param(coredump_max_kb, uint, 0644);
MODULE_PARM_DESC(coredump_max_kb,
		 "KiB of a job's stream, surfaces and results one devcoredump captures (0-65536, default 1024; writable)");

/* Room for every line but the blobs and the tile types (its bound). */
#define VATOM_DUMP_HEAD		2048
#define VATOM_DUMP_LINE		256
/* ascii85 words encoded at a time, one drm_puts() each. */
#define VATOM_DUMP_WORDS	64

static const char *const vatom_kind_names[] = {
	[DRM_VATOM_SURFACE_BUFFER] = "buffer",
	[DRM_VATOM_SURFACE_TYPED] = "typed",
	[DRM_VATOM_SURFACE_TILE_GRID] = "tile_grid",
};

/* Characters of @n bytes in ascii85 at most: five per 32-bit word. */
static u64 vatom_dump_ascii85_len(u64 n)
{
	return 5 * (u64)ascii85_encode_len(n);
}

/*
 * @len bytes at @data in ascii85, as 32-bit words in CPU order (the last
 * one padded with zeros), as msm's dumps are: "z" is a zero word.
 */
static void vatom_dump_ascii85(struct drm_printer *p, const u8 *data, u64 len)
{
	char chunk[VATOM_DUMP_WORDS * 5 + 1], out[ASCII85_BUFSZ];
	unsigned int n = 0, words = 0;
	const char *s;
	u64 i;
	u32 w;

	for (i = 0; i < len; i += 4) {
		w = 0;
		memcpy(&w, data + i, min_t(u64, 4, len - i));
		s = ascii85_encode(w, out);
		n += strscpy(chunk + n, s, sizeof(chunk) - n);
		if (++words == VATOM_DUMP_WORDS) {
			drm_puts(p, chunk);
			n = 0;
			words = 0;
		}
	}
	if (n)
		drm_puts(p, chunk);
}

/*
 * A blob line: "@key: size=S captured=C[ extra] ascii85=TEXT", with as
 * much of its @size bytes as *@budget leaves, which it spends.
 */
static void vatom_dump_blob(struct drm_printer *p, const char *key,
			    const char *extra, const void *data, u64 size,
			    u64 *budget)
{
	u64 n = min(size, *budget);

	*budget -= n;
	drm_printf(p, "%s: size=%llu captured=%llu%s ascii85=", key, size, n,
		   extra);
	vatom_dump_ascii85(p, data, n);
	drm_puts(p, "\n");
}

/* A binding line: the slot, its handle, and what replay creates again. */
static void vatom_dump_binding(struct drm_printer *p, u32 slot, u32 handle,
			       const struct vatom_surface_view *v)
{
	const struct vatom_typed_layout *l = v->typed;
	const struct vatom_tile_grid *g = v->grid;
	u32 i;

	drm_printf(p, "binding: slot=%u handle=%u kind=%s size=%llu", slot,
		   handle, v->kind < ARRAY_SIZE(vatom_kind_names) ?
		   vatom_kind_names[v->kind] : "unknown", v->size);
	if (v->kind == DRM_VATOM_SURFACE_TYPED && l) {
		drm_printf(p, " dim=%u format=%u width=%u height=%u depth=%u",
			   l->dim, DRM_VATOM_FORMAT_R32, l->width, l->height,
			   l->depth);
		drm_printf(p, " array_size=%u levels=%u", l->array_size,
			   l->levels);
	}
	if (v->kind == DRM_VATOM_SURFACE_TILE_GRID && g) {
		drm_printf(p, " profile=%u width=%u height=%u l1=%u,%u,%u,%u types=",
			   g->profile, g->width, g->height,
			   g->l1_size_by_type[0], g->l1_size_by_type[1],
			   g->l1_size_by_type[2], g->l1_size_by_type[3]);
		for (i = 0; i < g->width * g->height; i++)
			drm_printf(p, "%02x", g->type[i]);
	}
	drm_puts(p, "\n");
}

/* The slot whose surface holds @addr, or -1. */
static int vatom_dump_slot_of(const struct vatom_binding_table *t,
			      const u8 *addr, u64 *offset)
{
	const struct vatom_surface_view *v;
	unsigned int i;

	for (i = 0; i < t->nbound; i++) {
		v = t->bindings.slot[t->bound_slot[i]];
		if (addr >= v->vaddr && addr < v->vaddr + v->size) {
			*offset = addr - v->vaddr;
			return t->bound_slot[i];
		}
	}
	return -1;
}

/* The text's bound: every line, every blob at its captured size. */
static u64 vatom_dump_bound(const struct vatom_binding_table *t, u32 size,
			    u64 results_size, u64 budget)
{
	const struct vatom_surface_view *v;
	u64 bound = VATOM_DUMP_HEAD, n;
	unsigned int i;

	n = min_t(u64, size, budget);
	bound += VATOM_DUMP_LINE + vatom_dump_ascii85_len(n);
	budget -= n;
	for (i = 0; i < t->nbound; i++) {
		v = t->bindings.slot[t->bound_slot[i]];
		n = min(v->size, budget);
		bound += 2 * VATOM_DUMP_LINE + vatom_dump_ascii85_len(n);
		budget -= n;
		if (v->kind == DRM_VATOM_SURFACE_TILE_GRID && v->grid)
			bound += 2 * v->grid->width * v->grid->height;
	}
	n = min(results_size, budget);
	return bound + VATOM_DUMP_LINE + vatom_dump_ascii85_len(n);
}

/* Everything but the bytes: who, why, and how far the job got. */
static void vatom_dump_head(struct drm_printer *p,
			    const struct vatom_dump_job *job, int error,
			    const void *stream, u32 size)
{
	const struct vatom_stats *ran = job->ran;
	const struct vatom_file *vfile = job->vfile;
	bool own = job->in_submitter;
	u32 packets[VATOM_FAMILY_COUNT] = {}, total = 0, offset;
	char comm[TASK_COMM_LEN];
	struct timespec64 now;
	u64 done = 0;
	int f;

	for (f = 0; f < VATOM_FAMILY_COUNT; f++)
		done += ran->packets[f];
	vatom_stream_census(stream, size, packets, done, &offset);
	for (f = 0; f < VATOM_FAMILY_COUNT; f++)
		total += packets[f];

	/* The submitter's thread, where the job runs there; else the opener. */
	if (own)
		get_task_comm(comm, current);
	ktime_get_real_ts64(&now);
	drm_printf(p, "vatom devcoredump\nversion: %u\n", VATOM_COREDUMP_VERSION);
	drm_printf(p, "kernel: %s\nmodule: %s\nuapi: %u\n",
		   init_utsname()->release, VATOM_VERSION,
		   DRM_VATOM_UAPI_VERSION);
	drm_printf(p, "time: %lld.%09ld\ndevice: %s\n", (s64)now.tv_sec,
		   now.tv_nsec, dev_name(job->drm->dev));
	drm_printf(p, "client: %llu\npid: %d\ncomm: %s\n", vfile->client_id,
		   own ? task_tgid_nr(current) : vfile->pid,
		   own ? comm : vfile->comm);
	drm_printf(p, "door: %s\nreason: %s\nerror: %d\ntimeout_ms: %u\nfault: %s\n",
		   job->door, error == -ETIMEDOUT ? "timeout" : "fault", error,
		   vatom_job_timeout_ms(), job->fault);
	drm_printf(p, "job: %llu\npackets: %u\ncompleted: %llu\n", job->id, total,
		   done);
	drm_printf(p, "stop_index: %llu\nstop_offset: %u\n", done, offset);
	for (f = 0; f < VATOM_FAMILY_COUNT; f++)
		drm_printf(p, "counters: family=%s packets=%llu elements=%llu\n",
			   vatom_family_name(f),
			   ran->packets[f], ran->elements[f]);
}

/**
 * vatom_coredump() - write the devcoredump of a job that timed out or
 * faulted, as it stopped
 * @job: the job: who, how it came in, what it ran
 * @error: -ETIMEDOUT or -EIO
 * @stream: the kernel copy of its stream
 * @size: bytes of @stream
 * @b: its bindings, those of a &vatom_binding_table
 * @results: where its results went, or NULL
 *
 * What ran is &vatom_dump_job.ran: the packets completed, a prefix, and
 * the engine's counters for them.
 *
 * Nothing is written when dumps are off, or when memory is short (the
 * job's outcome does not depend on its dump).
 */
void vatom_coredump(const struct vatom_dump_job *job, int error,
		    const void *stream, u32 size,
		    const struct vatom_bindings *b, const u8 *results)
{
	const struct vatom_binding_table *t =
		container_of(b, struct vatom_binding_table, bindings);
	u64 budget = (u64)min(READ_ONCE(coredump_max_kb), 65536u) << 10;
	struct drm_print_iterator iter = {};
	const struct vatom_surface_view *v;
	struct drm_printer p;
	char extra[48] = "";
	unsigned int i;
	u64 bound, offset;
	void *buf;
	int slot;

	if (!READ_ONCE(coredump))
		return;
	bound = vatom_dump_bound(t, size, job->results_size, budget);
	buf = __vmalloc(bound, GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!buf)
		return;
	iter.data = buf;
	iter.remain = bound;
	p = drm_coredump_printer(&iter);

	vatom_dump_head(&p, job, error, stream, size);
	vatom_dump_blob(&p, "stream", "", stream, size, &budget);
	drm_printf(&p, "bindings: %u\n", t->nbound);
	for (i = 0; i < t->nbound; i++)
		vatom_dump_binding(&p, t->bound_slot[i], t->bound_handle[i],
				   t->bindings.slot[t->bound_slot[i]]);
	for (i = 0; i < t->nbound; i++) {
		v = t->bindings.slot[t->bound_slot[i]];
		snprintf(extra, sizeof(extra), " slot=%u", t->bound_slot[i]);
		vatom_dump_blob(&p, "surface", extra, v->vaddr, v->size, &budget);
	}
	if (results) {
		/* In a bound surface, or the submitter's own memory. */
		slot = vatom_dump_slot_of(t, results, &offset);
		if (slot >= 0)
			snprintf(extra, sizeof(extra), " slot=%d offset=%llu",
				 slot, offset);
		else
			strscpy(extra, " slot=none", sizeof(extra));
		vatom_dump_blob(&p, "results", extra, results, job->results_size,
				&budget);
	}
	drm_puts(&p, "end\n");
	dev_coredumpv(job->drm->dev, buf, bound - iter.remain, GFP_KERNEL);
}
