// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Intel vISA execution: DWORD_ATOMIC's lane loops, instantiated once per
 * (Op, access width), and runs of consecutive packets of one shape, which
 * share the first packet's decoding; and the entries for a packet of any
 * opcode: vatom_visa_execute_run() and _one() for the stream walker,
 * vatom_visa_execute() for one packet. TYPED_ATOMIC's and ADDC's lanes are
 * visa_typed_addc.c's.
 *
 * Copyright (C) 2026 The vatom developers
 */
#include "vatom_engine.h"
#include "visa_internal.h"
#include "visa_rmw.h"

/* Src0/Src1 of an operation that takes none: 32 lanes of 8 bytes. */
static const u64 visa_zeros[32];

/**
 * struct visa_run - consecutive DWORD_ATOMIC packets of one shape
 * @stream: the stream
 * @size: its bytes
 * @at: offset of the packet to run next
 * @max: most packets to run
 * @done: packets run
 * @results: the stream's result destination, or NULL without Dst
 * @off: offset in @results of the next packet's region
 * @o_addr: offset in a packet of its Element_offset array
 * @o_src0: offset in a packet of its Src0 array; 0 for V0 (zeros)
 * @o_src1: offset in a packet of its Src1 array; 0 for V0 (zeros)
 * @n: lanes
 * @chen: ChEn, bit i for lane i
 * @op: the operation, Op bits 4..0
 *
 * Packets whose fixed part (struct drm_vatom_visa: header, opcode, Op,
 * Exec_size, surface, type, operands, masks, flags) is identical have the
 * same lanes, ChEn, operation and layout: the first one's decoding (the
 * fields from @o_addr on) serves them all, only the operand arrays move
 * with the packet.
 */
struct visa_run {
	const u8 *stream;
	u32 size;
	u32 at;
	u32 max;
	u32 done;
	u8 *results;
	u64 off;
	u32 o_addr;
	u32 o_src0;
	u32 o_src1;
	u32 n;
	u32 chen;
	u32 op;
};

/*
 * One DWORD_ATOMIC lane: the atomic (or 0 when out of bounds), the result.
 * The arrays come as arguments, not through the visa_pkt, so that the
 * result stores (which may alias anything) do not force them to be
 * reloaded for every lane.
 */
static __always_inline void visa_dword_lane(const u32 *addr, const void *src0,
					    const void *src1, u8 *base,
					    u64 lim, u8 *res, u32 op,
					    u32 width, u64 i)
{
	u32 off = addr[i];

	if (width == 64) {
		const u64 *s0 = src0;
		const u64 *s1 = src1;
		u64 old = 0;

		if (off < lim)
			old = visa_rmw64(op, (u64 *)(base + off), s0[i], s1[i]);
		memcpy(res + 8 * i, &old, 8);
	} else {
		const u32 *s0 = src0;
		const u32 *s1 = src1;
		u32 a = s0[i];
		u32 b = s1[i];
		u32 old = 0;

		if (off < lim) {
			if (width == 16)
				old = visa_rmw16(op, (u16 *)(base + off), a, b);
			else
				old = visa_rmw32(op, (u32 *)(base + off), a, b);
		}
		memcpy(res + 4 * i, &old, 4);
	}
}

/*
 * DWORD_ATOMIC lanes of one packet, instantiated once per (Op, access
 * width) so that each lane is the bare atomic plus a bounds check.
 * Out-of-bounds lanes return 0 and write nothing; disabled lanes are not
 * visited, so their result elements stay as they were. .16 results are
 * 4-byte elements, the 16-bit value zero-extended; 64-bit results are 8-byte
 * elements. All lanes enabled, the common case, is a plain counted loop.
 */
static __always_inline u64 visa_dword_lanes(const u32 *addr, const void *src0,
					    const void *src1, u32 n, u32 chen,
					    u8 *base, u64 size, u8 *res,
					    u32 op, u32 width)
{
	/* A lane at offset off is in bounds when off < lim. */
	u64 lim = size >= width / 8 ? size - width / 8 + 1 : 0;
	u32 m = chen;
	u64 count = 0, i;

	if (m == visa_lanes_all(n)) {
		/*
		 * SIMD16 with a constant count, unrolled (the kernel's -O2
		 * does not by itself): whole for 32-bit data, the common
		 * width, by 4 for the others, whose lanes are longer.
		 */
		if (n == 16 && width == 32) {
#pragma GCC unroll 16
			for (i = 0; i < 16; i++)
				visa_dword_lane(addr, src0, src1, base, lim,
						res, op, width, i);
			return 16;
		}
		if (n == 16) {
#pragma GCC unroll 4
			for (i = 0; i < 16; i++)
				visa_dword_lane(addr, src0, src1, base, lim,
						res, op, width, i);
			return 16;
		}
		for (i = 0; i < n; i++)
			visa_dword_lane(addr, src0, src1, base, lim, res, op,
					width, i);
		return n;
	}
	for (; m; m &= m - 1) {
		visa_dword_lane(addr, src0, src1, base, lim, res, op, width,
				__builtin_ctz(m));
		count++;
	}
	return count;
}

/* Is the packet at @r->at one more of the run's shape (@psize bytes)? */
static __always_inline bool visa_run_next(const struct visa_run *r,
					  u32 psize)
{
	return r->done < r->max &&
	       visa_shape_next(r->stream, r->size, r->at, psize);
}

/*
 * The lane loop of one (Op, width) over every packet of a run: the arrays
 * of each packet are at the offsets of @r's decoding of the first.
 */
static __always_inline u64 visa_dword_run(struct visa_run *r, u8 *base,
					  u64 size, u32 op, u32 width)
{
	const struct drm_vatom_visa *first =
		(const void *)(r->stream + r->at);
	u32 psize = first->hdr.size, o_s0 = r->o_src0, o_s1 = r->o_src1;
	/* vatom_visa_result_bytes(), of this width. */
	u64 rbytes = first->operands & DRM_VATOM_VISA_OPND_DST ?
		     visa_dword_result_bytes(r->n, width == 64) : 0;
	/* Written, never read: not zeroed at every call. */
	u64 scratch[32] __uninitialized;
	u64 count = 0;

	do {
		const u8 *p = r->stream + r->at;
		/* Without Dst the results go to a scratch array. */
		u8 *res = r->results ? r->results + r->off : (u8 *)scratch;

		count += visa_dword_lanes((const u32 *)(p + r->o_addr),
					  o_s0 ? (const void *)(p + o_s0) : visa_zeros,
					  o_s1 ? (const void *)(p + o_s1) : visa_zeros,
					  r->n, r->chen, base, size, res, op,
					  width);
		r->at += psize;
		r->off += rbytes;
		r->done++;
	} while (visa_run_next(r, psize));
	return count;
}

/* One instance of the run per Op of a width. */
static __always_inline u64 visa_dword_ops(struct visa_run *r, u8 *base,
					  u64 size, u32 width)
{
	switch (r->op) {
	case DRM_VATOM_VISA_OP_ADD:
		return visa_dword_run(r, base, size, DRM_VATOM_VISA_OP_ADD,
				      width);
	case DRM_VATOM_VISA_OP_SUB:
		return visa_dword_run(r, base, size, DRM_VATOM_VISA_OP_SUB,
				      width);
	case DRM_VATOM_VISA_OP_INC:
		return visa_dword_run(r, base, size, DRM_VATOM_VISA_OP_INC,
				      width);
	case DRM_VATOM_VISA_OP_DEC:
		return visa_dword_run(r, base, size, DRM_VATOM_VISA_OP_DEC,
				      width);
	case DRM_VATOM_VISA_OP_MIN:
		return visa_dword_run(r, base, size, DRM_VATOM_VISA_OP_MIN,
				      width);
	case DRM_VATOM_VISA_OP_MAX:
		return visa_dword_run(r, base, size, DRM_VATOM_VISA_OP_MAX,
				      width);
	case DRM_VATOM_VISA_OP_XCHG:
		return visa_dword_run(r, base, size, DRM_VATOM_VISA_OP_XCHG,
				      width);
	case DRM_VATOM_VISA_OP_CMPXCHG:
		return visa_dword_run(r, base, size, DRM_VATOM_VISA_OP_CMPXCHG,
				      width);
	case DRM_VATOM_VISA_OP_AND:
		return visa_dword_run(r, base, size, DRM_VATOM_VISA_OP_AND,
				      width);
	case DRM_VATOM_VISA_OP_OR:
		return visa_dword_run(r, base, size, DRM_VATOM_VISA_OP_OR,
				      width);
	case DRM_VATOM_VISA_OP_XOR:
		return visa_dword_run(r, base, size, DRM_VATOM_VISA_OP_XOR,
				      width);
	case DRM_VATOM_VISA_OP_IMIN:
		return visa_dword_run(r, base, size, DRM_VATOM_VISA_OP_IMIN,
				      width);
	case DRM_VATOM_VISA_OP_IMAX:
		return visa_dword_run(r, base, size, DRM_VATOM_VISA_OP_IMAX,
				      width);
	case DRM_VATOM_VISA_OP_PREDEC:
		return visa_dword_run(r, base, size, DRM_VATOM_VISA_OP_PREDEC,
				      width);
	case DRM_VATOM_VISA_OP_FMAX:
		return visa_dword_run(r, base, size, DRM_VATOM_VISA_OP_FMAX,
				      width);
	case DRM_VATOM_VISA_OP_FMIN:
		return visa_dword_run(r, base, size, DRM_VATOM_VISA_OP_FMIN,
				      width);
	case DRM_VATOM_VISA_OP_FCMPWR:
		return visa_dword_run(r, base, size, DRM_VATOM_VISA_OP_FCMPWR,
				      width);
	}
	return 0;
}

/*
 * The three instances start on a cache line (__aligned(64)), so that where
 * their lane loops fall does not depend on the code linked before them: 32
 * bytes further on, DWORD_ATOMIC.IMAX ran a quarter slower in
 * bench/engine_bench.c.
 */

/* DWORD_ATOMIC with UD/D/F data: the hot path. */
static __aligned(64) u64 visa_dword32(struct visa_run *r, u8 *base, u64 size)
{
	return visa_dword_ops(r, base, size, 32);
}

/* DWORD_ATOMIC.16: 4-byte unpacked elements, 2-byte accesses. */
static __aligned(64) u64 visa_dword16(struct visa_run *r, u8 *base, u64 size)
{
	return visa_dword_ops(r, base, size, 16);
}

/* DWORD_ATOMIC with UQ/Q data: 8-byte elements and accesses. */
static __aligned(64) u64 visa_dword64(struct visa_run *r, u8 *base, u64 size)
{
	return visa_dword_ops(r, base, size, 64);
}

/*
 * visa_dword(), inline in vatom_visa_execute_run() and
 * vatom_visa_execute_one(): a 1-packet job makes one call, to the lane
 * loops, not two.
 */
static __always_inline u64 visa_dword_inline(struct visa_run *r,
					     const struct vatom_bindings *b)
{
	const struct drm_vatom_visa *p = (const void *)(r->stream + r->at);
	const struct vatom_surface_view *s = b->slot[p->surface];
	const u8 *p0 = (const u8 *)p;
	/* visa_layout_as() writes every field: not zeroed first. */
	struct visa_pkt d __uninitialized;

	visa_layout_as(p, &d, true, DRM_VATOM_VISA_DWORD_ATOMIC);
	r->o_addr = (u32)((const u8 *)d.addr - p0);
	r->o_src0 = d.src0 ? (u32)((const u8 *)d.src0 - p0) : 0;
	r->o_src1 = d.src1 ? (u32)((const u8 *)d.src1 - p0) : 0;
	r->n = d.n;
	r->chen = d.chen;
	r->op = d.op;
	if (!(p->operands & DRM_VATOM_VISA_OPND_DST))
		r->results = NULL;
	if (d.is16)
		return visa_dword16(r, s->vaddr, s->size);
	if (d.is64)
		return visa_dword64(r, s->vaddr, s->size);
	return visa_dword32(r, s->vaddr, s->size);
}

/**
 * visa_dword() - a run of DWORD_ATOMIC packets from the one at @r->at
 * @r: the run: its stream, first packet, most packets and results
 * @b: the bindings the stream was validated with
 *
 * Decodes the shape of the packet at @r->at into @r, then runs it and the
 * packets of the same shape that follow it, up to @r->max; advances
 * @r->at, @r->off and @r->done past them.
 *
 * Out of line: vatom_visa_execute()'s one copy of the lane loops, beside
 * those inlined in the walker's entries.
 *
 * Return: the element operations performed (enabled lanes).
 */
static noinline u64 visa_dword(struct visa_run *r,
			       const struct vatom_bindings *b)
{
	return visa_dword_inline(r, b);
}

/**
 * vatom_visa_execute() - run one validated vISA packet
 * @p: the packet
 * @b: the bindings it was validated with
 * @results: its result region, or NULL when it returns nothing
 *
 * Return: the element operations performed (enabled lanes).
 */
u64 vatom_visa_execute(const struct drm_vatom_visa *p,
		       const struct vatom_bindings *b, u8 *results)
{
	struct visa_run r = {
		.stream = (const u8 *)p, .size = p->hdr.size, .max = 1,
		.results = results,
	};
	struct visa_pkt d;
	u8 *res;

	/* A run of one packet: the same code as in a stream. */
	if (p->opcode == DRM_VATOM_VISA_DWORD_ATOMIC)
		return visa_dword(&r, b);

	visa_layout(p, &d, true);
	res = (p->operands & DRM_VATOM_VISA_OPND_DST) ? results : NULL;
	/* V0 sources read as zeros, so that lanes need not test for them. */
	if (!d.src0)
		d.src0 = visa_zeros;
	if (!d.src1)
		d.src1 = visa_zeros;

	switch (p->opcode) {
	case DRM_VATOM_VISA_ADDC:
		return visa_addc(&d, res);
	case DRM_VATOM_VISA_TYPED_ATOMIC:
		return visa_typed(&d, b->slot[p->surface], res);
	}
	return 0;
}

/**
 * vatom_visa_execute_run() - execute consecutive vISA packets of a
 * validated stream
 * @stream: the stream
 * @size: its bytes
 * @pos: in: offset of a vISA packet; out: offset past the last one executed
 * @max: most packets to execute (>= 1)
 * @b: the bindings the stream was validated with
 * @results: the stream's result destination (NULL when it has none)
 * @off: in/out: offset in @results of the next packet's region
 * @elements: accumulates the element operations performed
 *
 * Executes the packet at *@pos and, for DWORD_ATOMIC, the packets of the
 * same shape that follow it (struct visa_run), up to @max, exactly as
 * vatom_visa_execute() one by one would, decoding the shape once.
 *
 * Return: the packets executed.
 */
u32 vatom_visa_execute_run(const u8 *stream, u32 size, u32 *pos, u32 max,
			   const struct vatom_bindings *b, u8 *results,
			   u64 *off, u64 *elements)
{
	const struct drm_vatom_visa *p = (const void *)(stream + *pos);
	struct visa_run r = {
		.stream = stream, .size = size, .at = *pos, .max = max,
		.results = results, .off = *off,
	};

	if (p->opcode != DRM_VATOM_VISA_DWORD_ATOMIC) {
		*elements += vatom_visa_execute(p, b, results ?
						results + *off : NULL);
		*off += vatom_visa_result_bytes(p);
		*pos += p->hdr.size;
		return 1;
	}
	*elements += visa_dword_inline(&r, b);
	*pos = r.at;
	/* Without Dst the offset did not move (result bytes 0). */
	*off = r.off;
	return r.done;
}

/**
 * vatom_visa_execute_one() - vatom_stream_execute_ctl() of a validated
 * stream that is one vISA packet
 * @stream: the packet: vatom_stream_is_one()
 * @size: its bytes
 * @b: the bindings it was validated with
 * @results: its result region
 * @stats: accumulates the packet and its elements, or NULL
 * @ctl: not asked: one packet has no checkpoint
 *
 * vatom_visa_execute() and the statistics in one call, which takes the
 * walker's arguments as they are, so that the walker ends in a jump to it.
 *
 * Return: 0: one packet runs whole.
 */
int vatom_visa_execute_one(const void *stream, u32 size,
			   const struct vatom_bindings *b, u8 *results,
			   struct vatom_stats *stats,
			   const struct vatom_exec_ctl *ctl)
{
	const struct drm_vatom_visa *p = stream;
	/* A run of one; visa_dword_inline() decodes the rest. */
	struct visa_run r __uninitialized;
	u64 n;

	if (p->opcode == DRM_VATOM_VISA_DWORD_ATOMIC) {
		r.stream = stream;
		r.size = size;
		r.at = 0;
		r.max = 1;
		r.done = 0;
		r.results = results;
		r.off = 0;
		n = visa_dword_inline(&r, b);
	} else {
		n = vatom_visa_execute(p, b, results);
	}
	return vatom_one_executed(stats, VATOM_FAMILY_VISA, n);
}
