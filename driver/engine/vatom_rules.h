/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The rules of the UAPI that need no kernel: the device's fixed limits,
 * the policy limits' defaults and ranges, and the checks of an ioctl's
 * arguments that come before anything is looked up or allocated, each
 * with the errno it answers. Pure C over the UAPI and the engine's types,
 * as the engine is, so that vatom.ko's ioctls and the in-process device
 * (shim/) apply one set of rules and cannot drift apart.
 */
#ifndef _VATOM_RULES_H_
#define _VATOM_RULES_H_

#include "tile_grid.h"
#include "vatom_engine.h"

/* The device's identity, as DRM_IOCTL_VERSION reports it. */
#define VATOM_NAME	"vatom"
#define VATOM_DESC	"Virtual atomic accelerator"
#define VATOM_DATE	"20261123"

/* Device limits, reported through GET_PARAM. */
#define VATOM_MAX_SURFACE_SIZE	(256ull << 20)
#define VATOM_MAX_STREAM_SIZE	(16u << 20)
#define VATOM_MAX_RESULTS_SIZE	(64ull << 20)
#define VATOM_MAX_QUEUES	64	/* user-mode queues per file */
#define VATOM_MAX_SYNCS		64	/* in- and out-syncobjs of a SUBMIT, each */
/* Largest descriptor SURFACE_CREATE reads (bytes past ours must be zero). */
#define VATOM_MAX_DESC_SIZE	4096
/* Largest drm_vatom_queue_create.poll_idle_us: one second. */
#define VATOM_MAX_POLL_IDLE_US	1000000

/*
 * The policy limits (module parameters of vatom.ko): each default, and
 * the range a value set is clamped to.
 */
#define VATOM_DEFAULT_FILE_MEM_CAP	(1024ull << 20)	/* 1 GiB */
#define VATOM_DEFAULT_MAX_JOBS		64
#define VATOM_MIN_MAX_JOBS		1
#define VATOM_MAX_MAX_JOBS		65536
#define VATOM_DEFAULT_MAX_SUBMIT_OPS	(16ull << 20)	/* 2^24 */
#define VATOM_MIN_MAX_SUBMIT_OPS	VATOM_CHECK_OPS
#define VATOM_MAX_MAX_SUBMIT_OPS	(4096ull << 20)	/* 2^32 */
#define VATOM_DEFAULT_MAX_POLL_QUEUES	4
#define VATOM_MAX_MAX_POLL_QUEUES	1024
#define VATOM_DEFAULT_MAX_SCHEDULERS	256
#define VATOM_MIN_MAX_SCHEDULERS	1
#define VATOM_MAX_MAX_SCHEDULERS	4096
#define VATOM_DEFAULT_JOB_TIMEOUT_MS	10000
#define VATOM_MIN_JOB_TIMEOUT_MS	100
#define VATOM_MAX_JOB_TIMEOUT_MS	600000

/* What DRM_VATOM_PARAM_CAPS reports beside the engine's own bits. */
#define VATOM_DEVICE_CAPS						\
	(DRM_VATOM_CAP_RESULT_SURFACE | DRM_VATOM_CAP_NOC_COUNTERS |	\
	 DRM_VATOM_CAP_SUBMIT_ASYNC | DRM_VATOM_CAP_SYNCOBJ |		\
	 DRM_VATOM_CAP_VALIDATE_ONLY | DRM_VATOM_CAP_QUEUE |		\
	 DRM_VATOM_CAP_QUEUE_POLL | DRM_VATOM_CAP_QUEUE_SIGNAL |	\
	 DRM_VATOM_CAP_RESET_STATUS | DRM_VATOM_CAP_QUEUE_POLL_CPU)

/* @v within [@lo, @hi]: the policy limits' clamp, for either build. */
static inline u64 vatom_rule_clamp(u64 v, u64 lo, u64 hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/**
 * vatom_param_fixed() - a GET_PARAM parameter whose value is the same on
 * every device and in every file
 * @param: DRM_VATOM_PARAM_*
 * @index: its index
 * @value: out, the value
 *
 * Return: 0 with @value set; 1 for a parameter this does not answer (the
 * policy limits and the file's charge), whose @index is then known to be
 * 0; -EINVAL for an unknown parameter or a bad index.
 */
static inline int vatom_param_fixed(u32 param, u32 index, u64 *value)
{
	switch (param) {
	case DRM_VATOM_PARAM_VISA_OPS:
		if (index > DRM_VATOM_VISA_FORM_TYPED16)
			return -EINVAL;
		*value = vatom_visa_ops_mask(index);
		return 0;
	case DRM_VATOM_PARAM_PTX_OPS:
		if (index < DRM_VATOM_PTX_TYPE_B16 || index > DRM_VATOM_PTX_TYPE_F64)
			return -EINVAL;
		*value = vatom_ptx_ops_mask(index);
		return 0;
	case DRM_VATOM_PARAM_NOC_OPCODES:
		if (index > DRM_VATOM_NOC_PROFILE_BLACKHOLE)
			return -EINVAL;
		*value = vatom_noc_opcodes_mask(index);
		return 0;
	}

	/* The remaining parameters take no index. */
	if (index)
		return -EINVAL;

	switch (param) {
	case DRM_VATOM_PARAM_UAPI_VERSION:
		*value = DRM_VATOM_UAPI_VERSION;
		return 0;
	case DRM_VATOM_PARAM_CAPS:
		*value = vatom_engine_caps() | VATOM_DEVICE_CAPS;
		return 0;
	case DRM_VATOM_PARAM_MAX_SURFACE_SIZE:
		*value = VATOM_MAX_SURFACE_SIZE;
		return 0;
	case DRM_VATOM_PARAM_MAX_STREAM_SIZE:
		*value = VATOM_MAX_STREAM_SIZE;
		return 0;
	case DRM_VATOM_PARAM_MAX_SLOTS:
		*value = DRM_VATOM_MAX_SLOTS;
		return 0;
	case DRM_VATOM_PARAM_MAX_RESULTS_SIZE:
		*value = VATOM_MAX_RESULTS_SIZE;
		return 0;
	case DRM_VATOM_PARAM_MAX_SYNCS:
		*value = VATOM_MAX_SYNCS;
		return 0;
	case DRM_VATOM_PARAM_MAX_QUEUE_ENTRIES:
		*value = DRM_VATOM_QUEUE_MAX_ENTRIES;
		return 0;
	case DRM_VATOM_PARAM_MAX_QUEUES:
		*value = VATOM_MAX_QUEUES;
		return 0;
	case DRM_VATOM_PARAM_MAX_POLL_IDLE_US:
		*value = VATOM_MAX_POLL_IDLE_US;
		return 0;
	case DRM_VATOM_PARAM_MAX_JOBS:
	case DRM_VATOM_PARAM_FILE_MEM_CAP:
	case DRM_VATOM_PARAM_MAX_SUBMIT_OPS:
	case DRM_VATOM_PARAM_FILE_MEM_CHARGED:
	case DRM_VATOM_PARAM_MAX_POLL_QUEUES:
	case DRM_VATOM_PARAM_JOB_TIMEOUT_MS:
	case DRM_VATOM_PARAM_MAX_SCHEDULERS:
		return 1;
	}
	return -EINVAL;
}

/* --- surfaces */

/**
 * vatom_rule_surface_create() - SURFACE_CREATE's arguments, before its
 * descriptor is read
 * @args: the arguments
 *
 * Return: 0; -EINVAL for flags, an unknown kind, a buffer with a
 * descriptor or no size, another kind without a descriptor or with a
 * size; -E2BIG for a buffer past %VATOM_MAX_SURFACE_SIZE or a descriptor
 * past %VATOM_MAX_DESC_SIZE.
 */
static inline int vatom_rule_surface_create(const struct drm_vatom_surface_create *args)
{
	if (args->flags)
		return -EINVAL;
	switch (args->kind) {
	case DRM_VATOM_SURFACE_BUFFER:
		if (args->desc || args->desc_size || !args->size)
			return -EINVAL;
		return args->size > VATOM_MAX_SURFACE_SIZE ? -E2BIG : 0;
	case DRM_VATOM_SURFACE_TYPED:
	case DRM_VATOM_SURFACE_TILE_GRID:
		if (!args->desc || !args->desc_size || args->size)
			return -EINVAL;
		return args->desc_size > VATOM_MAX_DESC_SIZE ? -E2BIG : 0;
	}
	return -EINVAL;
}

/**
 * vatom_rule_tile_grid_dims() - a tile grid's size, checked before its
 * tile types are read (their count is width * height)
 * @desc: the descriptor
 *
 * Return: 0 or -EINVAL; the layout (vatom_tile_grid_layout_init())
 * checks the rest.
 */
static inline int vatom_rule_tile_grid_dims(const struct drm_vatom_tile_grid_desc *desc)
{
	if (!desc->width || !desc->height ||
	    desc->width > VATOM_TILE_GRID_MAX_DIM ||
	    desc->height > VATOM_TILE_GRID_MAX_DIM)
		return -EINVAL;
	return 0;
}

/* SURFACE_INFO's arguments: 0 or -EINVAL. */
static inline int vatom_rule_surface_info(const struct drm_vatom_surface_info *args)
{
	return args->flags || args->pad ? -EINVAL : 0;
}

/**
 * vatom_rule_binding() - one entry of a binding table
 * @bind: the entry
 * @b: the slots the table's earlier entries bound
 *
 * Return: 0 or -EINVAL (flags, padding, a slot out of range or twice).
 */
static inline int vatom_rule_binding(const struct drm_vatom_binding *bind,
				     const struct vatom_bindings *b)
{
	if (bind->flags || bind->pad || bind->slot >= DRM_VATOM_MAX_SLOTS)
		return -EINVAL;
	return b->slot[bind->slot] ? -EINVAL : 0;	/* the same slot twice */
}

/* The surface bound at @slot of @b (any number), or NULL. */
static inline const struct vatom_surface_view *
vatom_rule_slot(const struct vatom_bindings *b, u32 slot)
{
	return slot < DRM_VATOM_MAX_SLOTS ? b->slot[slot] : NULL;
}

/* --- jobs, whatever door they come through */

/**
 * vatom_rule_stream_size() - the size of a stream a job names
 * @size: bytes
 *
 * Return: 0; -EINVAL when not a multiple of 8; -E2BIG past
 * %VATOM_MAX_STREAM_SIZE.
 */
static inline int vatom_rule_stream_size(u64 size)
{
	if (size % 8)
		return -EINVAL;
	if (size > VATOM_MAX_STREAM_SIZE)
		return -E2BIG;
	return 0;
}

/**
 * vatom_rule_region() - whether a job's stream or results region lies in
 * its surface
 * @view: the surface, or NULL (none bound)
 * @offset: byte offset, a multiple of 8 (64-bit results stay naturally
 *	aligned)
 * @size: bytes
 *
 * Return: true when @size bytes at @offset lie in @view.
 */
static inline bool vatom_rule_region(const struct vatom_surface_view *view,
				     u64 offset, u64 size)
{
	u64 end;

	return view && !(offset & 7) && !__builtin_add_overflow(offset, size, &end) &&
	       end <= view->size;
}

/**
 * vatom_rule_results_fit() - whether a job's results fit where they go
 * @needed: bytes of results its validated stream produces
 * @size: bytes available
 * @err: out, on failure: %DRM_VATOM_ERR_RESULTS at packet 0
 *
 * Return: 0 or -EINVAL.
 */
static inline int vatom_rule_results_fit(u64 needed, u64 size,
					 struct vatom_stream_error *err)
{
	if (needed <= size)
		return 0;
	err->index = 0;
	err->reason = DRM_VATOM_ERR_RESULTS;
	return -EINVAL;
}

/**
 * vatom_rule_submit() - SUBMIT's arguments, before anything is looked up
 * @args: the arguments
 *
 * Return: 0; -EINVAL for unknown flags, two result destinations, an
 * offset without a result surface, user results for an asynchronous job,
 * a pointer without a count, a bad stream size; -E2BIG past a count's or
 * the stream's limit.
 */
static inline int vatom_rule_submit(const struct drm_vatom_submit *args)
{
	int ret;

	if (args->flags & ~DRM_VATOM_SUBMIT_FLAGS)
		return -EINVAL;
	if (args->result_handle && args->results)
		return -EINVAL;		/* one destination only */
	if (!args->result_handle && args->result_offset)
		return -EINVAL;
	/* An asynchronous job outlives the call: no user memory for results. */
	if ((args->flags & DRM_VATOM_SUBMIT_ASYNC) && args->results)
		return -EINVAL;
	if (!args->binding_count && args->bindings)
		return -EINVAL;
	if (!args->in_sync_count && args->in_syncs)
		return -EINVAL;
	if (!args->out_sync_count && args->out_syncs)
		return -EINVAL;
	ret = vatom_rule_stream_size(args->stream_size);
	if (ret)
		return ret;
	if (args->binding_count > DRM_VATOM_MAX_SLOTS ||
	    args->in_sync_count > VATOM_MAX_SYNCS ||
	    args->out_sync_count > VATOM_MAX_SYNCS)
		return -E2BIG;
	return 0;
}

/**
 * vatom_rule_sync() - one entry of a SUBMIT's in- or out-syncobjs
 * @sync: the entry
 *
 * Return: 0 or -EINVAL (flags).
 */
static inline int vatom_rule_sync(const struct drm_vatom_sync *sync)
{
	return sync->flags ? -EINVAL : 0;
}

/* --- user-mode queues */

/**
 * vatom_rule_queue_create() - QUEUE_CREATE's arguments, before anything is
 * looked up
 * @args: the arguments
 * @cpu_ok: whether @args->poll_cpu may run the caller's poller, for
 *	%DRM_VATOM_QUEUE_CREATE_POLL_CPU (the kernel's or the process's
 *	affinity decides)
 *
 * Return: 0; -EINVAL for unknown flags, a poll CPU or idle time without
 * polling (or out of range), an eventfd without its flag, entries not a
 * power of two, bindings without a count; -E2BIG past the entries' or
 * the slots' limit.
 */
static inline int vatom_rule_queue_create(const struct drm_vatom_queue_create *args,
					  bool (*cpu_ok)(u32 cpu))
{
	if (args->flags & ~DRM_VATOM_QUEUE_CREATE_FLAGS)
		return -EINVAL;
	if (args->flags & DRM_VATOM_QUEUE_CREATE_POLL_CPU) {
		if (!(args->flags & DRM_VATOM_QUEUE_CREATE_POLL) ||
		    !cpu_ok(args->poll_cpu))
			return -EINVAL;
	} else if (args->poll_cpu) {
		return -EINVAL;
	}
	if (args->poll_idle_us && (!(args->flags & DRM_VATOM_QUEUE_CREATE_POLL) ||
				   args->poll_idle_us > VATOM_MAX_POLL_IDLE_US))
		return -EINVAL;
	if (args->eventfd && !(args->flags & DRM_VATOM_QUEUE_CREATE_EVENTFD))
		return -EINVAL;
	if (!args->entries || (args->entries & (args->entries - 1)))
		return -EINVAL;
	if (!args->binding_count && args->bindings)
		return -EINVAL;
	if (args->entries > DRM_VATOM_QUEUE_MAX_ENTRIES ||
	    args->binding_count > DRM_VATOM_MAX_SLOTS)
		return -E2BIG;
	return 0;
}

/**
 * vatom_rule_queue_job() - a queue descriptor's own fields, before its
 * stream is read
 * @d: the descriptor (the device's copy: the ring is the user's)
 * @b: the queue's bindings
 *
 * Return: 0; else the errno the job completes with, with reason
 * %DRM_VATOM_ERR_DESCRIPTOR: -EINVAL for flags, padding, a region outside
 * its surface or results named without a size; -E2BIG for a stream past
 * %VATOM_MAX_STREAM_SIZE.
 */
static inline int vatom_rule_queue_job(const struct drm_vatom_queue_job *d,
				       const struct vatom_bindings *b)
{
	int ret;

	if (d->flags || d->pad)
		return -EINVAL;
	ret = vatom_rule_stream_size(d->stream_size);
	if (ret)
		return ret;
	if (d->stream_size &&
	    !vatom_rule_region(vatom_rule_slot(b, d->stream_slot),
			       d->stream_offset, d->stream_size))
		return -EINVAL;
	if (d->results_size)
		return vatom_rule_region(vatom_rule_slot(b, d->results_slot),
					 d->results_offset, d->results_size) ?
		       0 : -EINVAL;
	return d->results_slot || d->results_offset ? -EINVAL : 0;
}

/* --- NIU counters and resets */

/**
 * vatom_rule_noc_counters() - NOC_COUNTERS' arguments, before the surface
 * is looked up
 * @args: the arguments
 *
 * Return: 0 or -EINVAL: no flags or unknown ones, both clears, padding,
 * an NIU out of range, an id mask without its clear or past the
 * transaction ids, a count without a read (or none, or too many with one).
 */
static inline int vatom_rule_noc_counters(const struct drm_vatom_noc_counters *args)
{
	const u32 clears = DRM_VATOM_NOC_COUNTERS_CLEAR_OUTSTANDING |
			   DRM_VATOM_NOC_COUNTERS_CLEAR_ALL;
	bool read = args->flags & DRM_VATOM_NOC_COUNTERS_READ;

	if (!args->flags || (args->flags & ~DRM_VATOM_NOC_COUNTERS_FLAGS))
		return -EINVAL;
	if ((args->flags & clears) == clears)
		return -EINVAL;
	if (args->pad || args->noc >= VATOM_NOC_NIUS)
		return -EINVAL;
	if (args->flags & DRM_VATOM_NOC_COUNTERS_CLEAR_OUTSTANDING) {
		if (args->id_mask >> DRM_VATOM_NOC_TXN_IDS)
			return -EINVAL;
	} else if (args->id_mask) {
		return -EINVAL;
	}
	if (read) {
		if (!args->count || args->count > DRM_VATOM_NOC_NIU_COUNTERS)
			return -EINVAL;
	} else if (args->count || args->counters) {
		return -EINVAL;
	}
	return 0;
}

/*
 * NOC_COUNTERS' surface, once found: a tile grid (@g its layout, NULL for
 * any other kind) with the tile (x, y). 0 or -EINVAL.
 */
static inline int vatom_rule_noc_tile(const struct vatom_surface_view *view,
				      const struct vatom_tile_grid *g,
				      const struct drm_vatom_noc_counters *args)
{
	if (view->kind != DRM_VATOM_SURFACE_TILE_GRID || !g ||
	    args->x >= g->width || args->y >= g->height)
		return -EINVAL;
	return 0;
}

/* The counter bits NOC_COUNTERS clears: all, the IDs of @id_mask, or none. */
static inline u64 vatom_rule_noc_clear(const struct drm_vatom_noc_counters *args)
{
	if (args->flags & DRM_VATOM_NOC_COUNTERS_CLEAR_ALL)
		return ~0ull;
	if (args->flags & DRM_VATOM_NOC_COUNTERS_CLEAR_OUTSTANDING)
		return (u64)args->id_mask << DRM_VATOM_NOC_MST_REQS_OUTSTANDING_ID(0);
	return 0;
}

/* RESET_STATUS' arguments: 0 or -EINVAL (unknown flags, padding). */
static inline int vatom_rule_reset_status(const struct drm_vatom_reset_status *args)
{
	return args->flags & ~DRM_VATOM_RESET_ACK || args->pad ? -EINVAL : 0;
}

/*
 * A file's innocent resets: the device's since it was opened less its
 * own, never fewer than none (the two counts are read apart).
 */
static inline u64 vatom_rule_innocent(u64 device, u64 guilty)
{
	return device > guilty ? device - guilty : 0;
}

/**
 * vatom_rule_reset_report() - RESET_STATUS's answer from a file's counts
 * @args: the call's arguments, checked: status, guilty and innocent are
 *	filled in
 * @guilty: resets the file caused; @guilty_acked: those acknowledged
 * @device: resets of the device since the file was opened, read apart
 *	from @guilty
 * @innocent_acked: the innocent resets acknowledged
 *
 * Guilty comes first: a file that caused a reset is told so until it
 * acknowledges, whatever else happened.
 *
 * Return: the innocent count, which the caller stores (with @guilty) as
 * acknowledged when @args asks (%DRM_VATOM_RESET_ACK).
 */
static inline u64 vatom_rule_reset_report(struct drm_vatom_reset_status *args,
					  u32 guilty, u32 guilty_acked,
					  u64 device, u64 innocent_acked)
{
	u64 innocent = vatom_rule_innocent(device, guilty);

	if (guilty != guilty_acked)
		args->status = DRM_VATOM_RESET_GUILTY;
	else if (innocent != innocent_acked)
		args->status = DRM_VATOM_RESET_INNOCENT;
	else
		args->status = DRM_VATOM_RESET_NONE;
	args->guilty = guilty;
	args->innocent = innocent;
	return innocent;
}

#endif /* _VATOM_RULES_H_ */
