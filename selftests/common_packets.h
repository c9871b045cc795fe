/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the vatom selftests: command streams and the packets
 * of each family, and a submission of one (common_packets.c).
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_SELFTEST_COMMON_PACKETS_H_
#define _VATOM_SELFTEST_COMMON_PACKETS_H_

#include "common.h"

/* ------------------------------------------------------------------------ */
/* Packets                                                                   */
/* ------------------------------------------------------------------------ */

#define VT_STREAM_MAX		8192

/**
 * struct vt_stream - a command stream being built
 * @buf: the packets, 8-byte aligned
 * @size: bytes used
 * @count: packets
 * @results: result bytes the packets need (what results_needed must say)
 */
struct vt_stream {
	__u64 buf[VT_STREAM_MAX / 8];
	__u32 size;
	__u32 count;
	__u64 results;
};

/**
 * struct vt_visa - what vt_add_visa() encodes
 *
 * The operand arrays are read for the lanes the exec size implies (1 << the
 * size code); @addr, @src0 and @src1 are only read when the matching
 * DRM_VATOM_VISA_OPND_* bit is in @operands. @src0/@src1 hold 4-byte
 * elements, or 8-byte ones for the UQ/Q types.
 */
struct vt_visa {
	__u8 opcode;
	__u8 op;
	__u8 exec_size;
	__u8 surface;
	__u8 type;
	__u32 operands;
	__u32 emask;
	__u32 pred;
	__u32 flags;
	const __u32 *addr;
	const void *src0;
	const void *src1;
};

static inline __u32 vt_lanes(__u8 exec_size)
{
	return 1u << (exec_size & DRM_VATOM_VISA_EXEC_SIZE_MASK);
}

static inline __u32 vt_align8(__u32 v)
{
	return (v + 7) & ~7u;
}

static inline __u8 vt_exec(__u8 size_code, __u8 mask_ctrl)
{
	return size_code | (mask_ctrl << DRM_VATOM_VISA_EXEC_MASK_SHIFT);
}

void vt_stream_init(struct vt_stream *s);
struct drm_vatom_visa *vt_add_visa(struct vt_stream *s, const struct vt_visa *v);
void *vt_add_raw(struct vt_stream *s, const void *pkt, __u32 size);
__u32 vt_visa_result_bytes(const struct vt_visa *v);

/*
 * A DWORD_ATOMIC on slot 0 with per-lane 32-bit data: the common case.
 * @src0/@src1 may be NULL (V0); @dst adds the Dst operand.
 */
void vt_dword(struct vt_visa *v, __u8 op, __u8 exec_size, __u8 type,
	      const __u32 *addr, const __u32 *src0, const __u32 *src1, bool dst);

/*
 * Fill @args for a stream with @nbind bindings, results to user memory at
 * @results (@results_size bytes); everything else zero.
 */
void vt_submit_args(struct drm_vatom_submit *args, const struct vt_stream *s,
		    const struct drm_vatom_binding *bind, __u32 nbind,
		    void *results, __u64 results_size);

/* Submit @s with @handle bound at slot 0 and results to user memory. */
int vt_run(int fd, const struct vt_stream *s, __u32 handle, void *results,
	   __u64 results_size, struct drm_vatom_submit *out);

/*
 * vt_add_visa() with the V, R and LOD arrays filled from @vc, @rc and @lod
 * (each read for the packet's lanes when its DRM_VATOM_VISA_OPND_* bit is
 * in @v->operands; NULL gives zeros).
 */
struct drm_vatom_visa *vt_add_visa_coords(struct vt_stream *s,
					  const struct vt_visa *v,
					  const __u32 *vc, const __u32 *rc,
					  const __u32 *lod);

/*
 * Bytes a PTX atom accesses (and returns before rounding): element size
 * (b16/f16/bf16 2; b32/u32/s32/f32/f16x2/bf16x2 4; b64/u64/s64/f64 8;
 * b128 16) times max(vec, 1), from the UAPI text; 0 for an unknown type.
 */
__u32 vt_ptx_access_size(__u8 type, __u8 vec);

/* A PTX packet: header, op, type, vec, space, slot 0, @addr; rest zero. */
void vt_ptx_init(struct drm_vatom_ptx *p, __u8 op, __u8 type, __u8 vec,
		 __u8 space, __u64 addr);

/*
 * Append a PTX packet; adds align8(access size) to the stream's results
 * (what a valid packet returns).
 */
struct drm_vatom_ptx *vt_add_ptx(struct vt_stream *s,
				 const struct drm_vatom_ptx *p);

/*
 * Fill @buf with @size bytes of valid packets (INC of word 0, 40 and 48
 * bytes long); return how many INCs they perform.
 */
__u32 vt_fill_incs(__u8 *buf, __u32 size);

#endif /* _VATOM_SELFTEST_COMMON_PACKETS_H_ */
