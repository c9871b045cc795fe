/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The vatom execution engine: packet decoding, validation and the element
 * operations of every supported ISA. Pure C on top of vatom_compat.h, built
 * into vatom.ko and into the host tests and benchmarks.
 */
#ifndef _VATOM_ENGINE_H_
#define _VATOM_ENGINE_H_

#include "vatom_compat.h"
#include "drm/vatom_drm.h"

/* Engine families, for statistics. */
enum vatom_family {
	VATOM_FAMILY_VISA,
	VATOM_FAMILY_PTX,
	VATOM_FAMILY_NOC,
	VATOM_FAMILY_COUNT,
};

struct vatom_typed_layout;
struct vatom_tile_grid;

/**
 * struct vatom_surface_view - a surface as the engine sees it
 * @vaddr: kernel (or host) mapping of the whole surface, 16-byte aligned
 * @size: addressable bytes at @vaddr
 * @kind: DRM_VATOM_SURFACE_*
 * @typed: texel layout, for DRM_VATOM_SURFACE_TYPED
 * @grid: tile grid, for DRM_VATOM_SURFACE_TILE_GRID
 */
struct vatom_surface_view {
	u8 *vaddr;
	u64 size;
	u32 kind;
	const struct vatom_typed_layout *typed;
	struct vatom_tile_grid *grid;
};

/**
 * struct vatom_bindings - slot table of one submission
 * @slot: the surface bound at each slot, or NULL
 */
struct vatom_bindings {
	const struct vatom_surface_view *slot[DRM_VATOM_MAX_SLOTS];
};

/**
 * struct vatom_stream_error - why validation failed
 * @index: index of the first bad packet
 * @reason: DRM_VATOM_ERR_*
 */
struct vatom_stream_error {
	u32 index;
	u32 reason;
};

/**
 * struct vatom_stats - work done by one execution
 * @packets: packets executed per family
 * @elements: element operations performed per family (enabled lanes,
 *	vector elements, NoC recipients)
 */
struct vatom_stats {
	u64 packets[VATOM_FAMILY_COUNT];
	u64 elements[VATOM_FAMILY_COUNT];
};

/*
 * Work between two checkpoints of a validation or an execution: packets,
 * and element operations as vatom_visa_ops(), vatom_ptx_ops() and
 * vatom_noc_ops() cost them. Under TCG, 16384 operations take about 2 ms.
 */
#define VATOM_CHECK_PACKETS	256
#define VATOM_CHECK_OPS		16384

/**
 * struct vatom_exec_ctl - the bounds of one submission's work
 * @max_ops: validation fails (%DRM_VATOM_ERR_OPS_LIMIT) for a stream that
 *	costs more element operations
 * @stop: called at each checkpoint, after vatom_yield(); returning true
 *	stops the validation (-EINTR) or the execution (-ECANCELED) there.
 *	NULL: never stop.
 * @stopped: where an execution that @stop stopped writes what it ran
 *	(packets and element operations per family: that call's own, not
 *	what its stats accumulated before), or NULL. Written only when it
 *	stops: a devcoredump's counters cost the jobs that run whole nothing.
 */
struct vatom_exec_ctl {
	u64 max_ops;
	bool (*stop)(const struct vatom_exec_ctl *ctl);
	struct vatom_stats *stopped;
};

/**
 * vatom_stream_is_one() - whether a stream is exactly one packet
 * @stream: the stream, 8-byte aligned
 * @size: its bytes
 *
 * Such a stream is validated and executed by its family's code for one
 * packet, at no checkpoint: no stop rule is ever asked of it, so its
 * job needs no deadline.
 *
 * Return: true when its first header's size is @size, a whole packet.
 */
static inline bool vatom_stream_is_one(const void *stream, u32 size)
{
	const struct drm_vatom_packet *hdr = stream;

	return size >= sizeof(*hdr) && !(size % 8) && hdr->size == size;
}

int vatom_stream_validate_ctl(const void *stream, u32 size,
			      const struct vatom_bindings *b,
			      const struct vatom_exec_ctl *ctl,
			      u64 *results_needed, u64 *ops,
			      struct vatom_stream_error *err);
int vatom_stream_execute_ctl(const void *stream, u32 size,
			     const struct vatom_bindings *b, u8 *results,
			     struct vatom_stats *stats,
			     const struct vatom_exec_ctl *ctl);

u32 vatom_stream_census(const void *stream, u32 size,
			u32 packets[VATOM_FAMILY_COUNT], u32 index, u32 *offset);

int vatom_stream_validate(const void *stream, u32 size,
			  const struct vatom_bindings *b, u64 *results_needed,
			  struct vatom_stream_error *err);
void vatom_stream_execute(const void *stream, u32 size,
			  const struct vatom_bindings *b, u8 *results,
			  struct vatom_stats *stats);

/**
 * vatom_reason_name() - the short name of a DRM_VATOM_ERR_* reason
 * @reason: the reason
 *
 * Return: its name ("none", "packet_type", ... as the constant's suffix in
 * lower case), or "unknown".
 */
const char *vatom_reason_name(u32 reason);
const char *vatom_family_name(u32 f);

/**
 * vatom_errno() - errno for a DRM_VATOM_ERR_* reason
 * @reason: the reason
 *
 * Return: -EOPNOTSUPP for %DRM_VATOM_ERR_UNSUPPORTED, -E2BIG for
 * %DRM_VATOM_ERR_OPS_LIMIT, else -EINVAL.
 */
static inline int vatom_errno(u32 reason)
{
	if (reason == DRM_VATOM_ERR_UNSUPPORTED)
		return -EOPNOTSUPP;
	return reason == DRM_VATOM_ERR_OPS_LIMIT ? -E2BIG : -EINVAL;
}

/* Round up to the 8-byte granule of packets and result regions. */
static inline u64 vatom_align8(u64 v)
{
	return (v + 7) & ~(u64)7;
}

/*
 * Per-family entry points, called by the stream walker with a packet whose
 * header has been checked to lie within the stream (hdr.size >= 8, multiple
 * of 8). validate returns a DRM_VATOM_ERR_* reason (0 when valid) and the
 * packet's result bytes; execute runs a validated packet and returns the
 * number of element operations it performed.
 */
u32 vatom_visa_validate(const struct drm_vatom_visa *p,
			const struct vatom_bindings *b, u64 *result_bytes);
u64 vatom_visa_execute(const struct drm_vatom_visa *p,
		       const struct vatom_bindings *b, u8 *results);
u32 vatom_ptx_validate(const struct drm_vatom_ptx *p,
		       const struct vatom_bindings *b, u64 *result_bytes);
u32 vatom_ptx_validate_run(const u8 *stream, u32 size, u32 *pos, u32 max,
			   const struct vatom_bindings *b, u32 *count,
			   u64 *result_bytes);
u64 vatom_ptx_execute(const struct drm_vatom_ptx *p,
		      const struct vatom_bindings *b, u8 *results);
u32 vatom_noc_validate(const struct drm_vatom_noc *p,
		       const struct vatom_bindings *b, u64 *result_bytes);
u64 vatom_noc_execute(const struct drm_vatom_noc *p,
		      const struct vatom_bindings *b, u8 *results);
u32 vatom_noc_execute_run(const u8 *stream, u32 size, u32 *pos, u32 max,
			  const struct vatom_bindings *b, u64 *elements);

/*
 * A stream of one packet (vatom_stream_is_one()) goes to its family's
 * vatom_*_validate_one() and vatom_*_execute_one(), which take the
 * arguments of vatom_stream_validate_ctl() and vatom_stream_execute_ctl()
 * as they are and do what those do for it: the walker ends in a jump.
 */
int vatom_noc_validate_one(const void *stream, u32 size,
			   const struct vatom_bindings *b,
			   const struct vatom_exec_ctl *ctl,
			   u64 *results_needed, u64 *ops,
			   struct vatom_stream_error *err);
int vatom_visa_validate_one(const void *stream, u32 size,
			    const struct vatom_bindings *b,
			    const struct vatom_exec_ctl *ctl,
			    u64 *results_needed, u64 *ops,
			    struct vatom_stream_error *err);
int vatom_ptx_validate_one(const void *stream, u32 size,
			   const struct vatom_bindings *b,
			   const struct vatom_exec_ctl *ctl,
			   u64 *results_needed, u64 *ops,
			   struct vatom_stream_error *err);
int vatom_noc_execute_one(const void *stream, u32 size,
			  const struct vatom_bindings *b, u8 *results,
			  struct vatom_stats *stats,
			  const struct vatom_exec_ctl *ctl);
int vatom_visa_execute_one(const void *stream, u32 size,
			   const struct vatom_bindings *b, u8 *results,
			   struct vatom_stats *stats,
			   const struct vatom_exec_ctl *ctl);
int vatom_ptx_execute_one(const void *stream, u32 size,
			  const struct vatom_bindings *b, u8 *results,
			  struct vatom_stats *stats,
			  const struct vatom_exec_ctl *ctl);

/**
 * vatom_one_validated() - the outcome of the validation of a stream of one
 * packet
 * @reason: the packet's DRM_VATOM_ERR_* reason, 0 when valid
 * @bytes: its result bytes, when valid
 * @cost: its element operations, when valid
 * @ctl: the most element operations the stream may cost (NULL: no limit)
 * @results_needed: out, @bytes, or 0 when the stream is not valid
 * @ops: out, @cost, or 0 when the stream is not valid
 * @err: out, {0, the reason}
 *
 * What vatom_stream_validate_ctl() writes for the stream, the family's
 * validator of one packet having given its outcome: a valid packet that
 * costs more than @ctl->max_ops is %DRM_VATOM_ERR_OPS_LIMIT.
 *
 * Return: 0 or vatom_errno() of the reason.
 */
static __always_inline int vatom_one_validated(u32 reason, u64 bytes,
					       u32 cost,
					       const struct vatom_exec_ctl *ctl,
					       u64 *results_needed, u64 *ops,
					       struct vatom_stream_error *err)
{
	if (!reason && ctl && unlikely(cost > ctl->max_ops))
		reason = DRM_VATOM_ERR_OPS_LIMIT;
	err->index = 0;
	err->reason = reason;
	if (unlikely(reason)) {
		*results_needed = 0;
		*ops = 0;
		return vatom_errno(reason);
	}
	*results_needed = bytes;
	*ops = cost;
	return 0;
}

/**
 * vatom_one_executed() - count a stream of one packet that ran
 * @stats: accumulates what ran, or NULL
 * @family: the packet's family (VATOM_FAMILY_*)
 * @elements: the element operations it performed
 *
 * What vatom_stream_execute_ctl() counts for the stream, the family's
 * executor of one packet having run it.
 *
 * Return: 0: one packet runs whole.
 */
static __always_inline int vatom_one_executed(struct vatom_stats *stats,
					      u32 family, u64 elements)
{
	if (stats) {
		stats->packets[family]++;
		stats->elements[family] += elements;
	}
	return 0;
}

/*
 * What a validated packet costs against a submission's limit on element
 * operations (struct vatom_exec_ctl). Every validation asks, so the two
 * that only read the packet are inline; NoC's reads the tile grid.
 */

/**
 * vatom_visa_ops() - the cost of a validated vISA packet
 * @p: the packet
 *
 * Return: its lanes (the execution size), enabled or not.
 */
static inline u32 vatom_visa_ops(const struct drm_vatom_visa *p)
{
	return 1u << (p->exec_size & DRM_VATOM_VISA_EXEC_SIZE_MASK);
}

/**
 * vatom_ptx_ops() - the cost of a validated PTX packet
 * @p: the packet
 *
 * Return: its vector elements, 1 for a scalar.
 */
static inline u32 vatom_ptx_ops(const struct drm_vatom_ptx *p)
{
	return p->vec ? p->vec : 1;
}

u32 vatom_noc_ops(const struct drm_vatom_noc *p, const struct vatom_bindings *b);

/* Capability reporting for GET_PARAM, derived from the same tables. */
u64 vatom_engine_caps(void);
u64 vatom_visa_ops_mask(u32 form);
u64 vatom_ptx_ops_mask(u32 type);
u64 vatom_noc_opcodes_mask(u32 profile);

#endif /* _VATOM_ENGINE_H_ */
