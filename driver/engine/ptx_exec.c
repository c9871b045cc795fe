// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * NVIDIA PTX atom execution with CPU atomics: every op x type the table in
 * ptx.c allows, element by element, the common scalar and add.f32 forms
 * straight from the packet, and runs of packets with one head, dispatched
 * and resolved to their surface once.
 *
 * docs/semantics-ptx.md is the reference for every choice made here.
 *
 * Copyright (C) 2026 The vatom developers
 */
#include "vatom_engine.h"
#include "softfloat.h"
#include "visa_internal.h"
#include "ptx_internal.h"

/* Element @i of @esize bytes of a little-endian 128-bit operand. */
static u64 ptx_elem(const __u64 v[2], u32 esize, u32 i)
{
	u32 bit = i * esize * 8;
	u64 x = v[bit / 64] >> (bit % 64);

	return esize == 8 ? x : x & ((1ull << (esize * 8)) - 1);
}

static u16 ptx_half_op(u32 op, bool bf, u16 r, u16 s)
{
	switch (op) {
	case DRM_VATOM_PTX_OP_ADD:
		/* f16/bf16 forms always carry .noftz: never flush. */
		return bf ? vatom_bf16_add(r, s, false) : vatom_f16_add(r, s, false);
	case DRM_VATOM_PTX_OP_MIN:
		return bf ? vatom_bf16_min(r, s) : vatom_f16_min(r, s);
	default: /* MAX */
		return bf ? vatom_bf16_max(r, s) : vatom_f16_max(r, s);
	}
}

/*
 * The new value of an element, for the op x type pairs the CPU has no
 * instruction for and whose elements the CAS loops below compute: and, or,
 * xor, inc, dec, integer min and max, and add, min and max of the half
 * types and of f64. cas and exch of every size, the integer adds and every
 * add.f32 are done by their own instruction or loop (ptx_atomic16/32/64(),
 * ptx_f32_add(), ptx_execute()) and never come here. Values are
 * zero-extended bit patterns.
 */
static u64 ptx_op(const struct drm_vatom_ptx *p, u64 r, u64 s)
{
	u32 type = p->type;

	switch (p->op) {
	case DRM_VATOM_PTX_OP_AND:
		return r & s;
	case DRM_VATOM_PTX_OP_OR:
		return r | s;
	case DRM_VATOM_PTX_OP_XOR:
		return r ^ s;
	case DRM_VATOM_PTX_OP_INC:
		return (u32)r >= (u32)s ? 0 : (u32)(r + 1);
	case DRM_VATOM_PTX_OP_DEC:
		return ((u32)r == 0 || (u32)r > (u32)s) ? s : (u32)(r - 1);
	}

	switch (type) {
	case DRM_VATOM_PTX_TYPE_U32:
	case DRM_VATOM_PTX_TYPE_S32:
	case DRM_VATOM_PTX_TYPE_U64:
	case DRM_VATOM_PTX_TYPE_S64:
		/* min or max: the integer adds are native */
		if (type == DRM_VATOM_PTX_TYPE_S32)
			r = ((s32)r < (s32)s) == (p->op == DRM_VATOM_PTX_OP_MIN) ? r : s;
		else if (type == DRM_VATOM_PTX_TYPE_S64)
			r = ((s64)r < (s64)s) == (p->op == DRM_VATOM_PTX_OP_MIN) ? r : s;
		else
			r = (r < s) == (p->op == DRM_VATOM_PTX_OP_MIN) ? r : s;
		return ptx_forms[type].esize == 4 ? (u32)r : r;
	case DRM_VATOM_PTX_TYPE_F64:
		return vatom_f64_add(r, s);
	case DRM_VATOM_PTX_TYPE_F16:
	case DRM_VATOM_PTX_TYPE_BF16:
		return ptx_half_op(p->op, type == DRM_VATOM_PTX_TYPE_BF16,
				   (u16)r, (u16)s);
	default: /* F16X2, BF16X2: each half on its own */
		return ptx_half_op(p->op, type == DRM_VATOM_PTX_TYPE_BF16X2,
				   (u16)r, (u16)s) |
		       (u32)ptx_half_op(p->op, type == DRM_VATOM_PTX_TYPE_BF16X2,
					(u16)(r >> 16), (u16)(s >> 16)) << 16;
	}
}

/*
 * A 16-bit element: a 16-bit lock cmpxchg (loop), which touches only the
 * element's own bytes, so an element in the last 2 bytes of a surface never
 * reaches past it. When the new value equals the old one nothing is stored:
 * the atomic read is then the linearization point, and a failed cas writes
 * nothing.
 */
static u16 ptx_atomic16(const struct drm_vatom_ptx *p, u8 *mem, u16 s, u16 t)
{
	u16 *h = (u16 *)mem;
	u16 old, new, seen;

	if (p->op == DRM_VATOM_PTX_OP_CAS)
		return vatom_cmpxchg16(h, s, t);
	/* An atomic read: stores 0 over 0 at most, i.e. changes nothing. */
	old = vatom_cmpxchg16(h, 0, 0);
	for (;;) {
		new = (u16)ptx_op(p, old, s);
		if (new == old)
			return old;
		seen = vatom_cmpxchg16(h, old, new);
		if (seen == old)
			return old;
		old = seen;
	}
}

/* add.f32 of one element: a CAS loop around the soft-float add. */
static __always_inline u32 ptx_f32_add(u32 *w, u32 s, bool ftz)
{
	u32 old = vatom_load32(w), new, seen;

	for (;;) {
		new = vatom_f32_add_inline(old, s, ftz);
		if (new == old)
			return old;
		seen = vatom_cmpxchg32(w, old, new);
		if (seen == old)
			return old;
		old = seen;
	}
}

/*
 * A 32-bit element that ptx_execute() and ptx_execute_other() leave to a CAS
 * loop: their native forms (add of u32 and s32, exch and cas of b32) are
 * scalars, and every add.f32 is theirs.
 */
static u32 ptx_atomic32(const struct drm_vatom_ptx *p, u8 *mem, u32 s)
{
	u32 *w = (u32 *)mem;
	u32 old = vatom_load32(w), new, seen;

	for (;;) {
		new = (u32)ptx_op(p, old, s);
		if (new == old)
			return old;
		seen = vatom_cmpxchg32(w, old, new);
		if (seen == old)
			return old;
		old = seen;
	}
}

/* A 64-bit element; add.u64, a scalar, is ptx_execute()'s. */
static u64 ptx_atomic64(const struct drm_vatom_ptx *p, u8 *mem, u64 s, u64 t)
{
	u64 *w = (u64 *)mem;
	u64 old, new, seen;

	switch (p->op) {
	case DRM_VATOM_PTX_OP_CAS:
		return vatom_cmpxchg64(w, s, t);
	case DRM_VATOM_PTX_OP_EXCH:
		return vatom_xchg64(w, s);
	}
	old = vatom_load64(w);
	for (;;) {
		new = ptx_op(p, old, s);
		if (new == old)
			return old;
		seen = vatom_cmpxchg64(w, old, new);
		if (seen == old)
			return old;
		old = seen;
	}
}

/* b128 cas and exch with lock cmpxchg16b; @old receives the old value. */
static void ptx_atomic128(const struct drm_vatom_ptx *p, u8 *mem, u64 old[2])
{
	u64 *w = (u64 *)mem;
	u64 new[2];

	if (p->op == DRM_VATOM_PTX_OP_CAS) {
		/* One attempt: success or not, old ends up holding *a. */
		old[0] = p->b[0];
		old[1] = p->b[1];
		new[0] = p->c[0];
		new[1] = p->c[1];
		vatom_cmpxchg128(w, old, new);
		return;
	}
	new[0] = p->b[0];
	new[1] = p->b[1];
	old[0] = vatom_load64(&w[0]);
	old[1] = vatom_load64(&w[1]);
	while (!vatom_cmpxchg128(w, old, new))
		;
}

/*
 * Every form ptx_execute() does not do inline: elements in ascending order,
 * each its own atomic op.
 */
static u64 ptx_execute_any(const struct drm_vatom_ptx *p, u8 *mem,
			   u8 *results)
{
	u32 esize = ptx_forms[p->type].esize;
	u32 n = p->vec ? p->vec : 1;
	u64 out[2] = { 0, 0 };
	u32 i, bit;
	u64 old;

	if (esize == 16) {
		ptx_atomic128(p, mem, out);
	} else {
		for (i = 0; i < n; i++, mem += esize) {
			u64 s = ptx_elem(p->b, esize, i);
			u64 t = ptx_elem(p->c, esize, i);

			if (esize == 2)
				old = ptx_atomic16(p, mem, (u16)s, (u16)t);
			else if (esize == 4)
				old = ptx_atomic32(p, mem, (u32)s);
			else
				old = ptx_atomic64(p, mem, s, t);
			bit = i * esize * 8;
			out[bit / 64] |= old << (bit % 64);
		}
	}
	/*
	 * The region's padding up to 8 bytes is written as zero. Fixed-size
	 * stores: a variable length would be a call to memcpy() per packet.
	 */
	memcpy(results, &out[0], 8);
	if (esize * n > 8)
		memcpy(results + 8, &out[1], 8);
	return n;
}

/*
 * The @n elements (1, 2 or 4) of one add.f32 packet at @w, in ascending
 * order, each its own CAS loop; results as whole 8-byte words (no 4-byte
 * stores read back as 8), element 0 first (a scalar's zero-extended).
 */
static __always_inline void ptx_f32_elems(const struct drm_vatom_ptx *p,
					  u32 *w, u8 *results, u32 n, bool ftz)
{
	u64 out;

	out = ptx_f32_add(&w[0], (u32)p->b[0], ftz);
	if (n >= 2)
		out |= (u64)ptx_f32_add(&w[1], (u32)(p->b[0] >> 32), ftz) << 32;
	memcpy(results, &out, 8);
	if (n == 4) {
		out = ptx_f32_add(&w[2], (u32)p->b[1], ftz);
		out |= (u64)ptx_f32_add(&w[3], (u32)(p->b[1] >> 32), ftz) << 32;
		memcpy(results + 8, &out, 8);
	}
}

/*
 * Every form but ptx_execute()'s inline integer scalars: add.f32 and
 * add.v2/.v4.f32 straight from the packet, elements as ptx_f32_elems()
 * does them (vectors are .global and have no .noftz: they flush), the
 * others through ptx_execute_any(). Out of line, so that the integer
 * scalars need no frame for the soft-float add.
 */
static noinline u64 ptx_execute_other(const struct drm_vatom_ptx *p, u8 *mem,
				      u8 *results)
{
	u32 n = p->vec ? p->vec : 1;

	if (p->op != DRM_VATOM_PTX_OP_ADD || p->type != DRM_VATOM_PTX_TYPE_F32)
		return ptx_execute_any(p, mem, results);
	ptx_f32_elems(p, (u32 *)mem, results, n, ptx_f32_ftz(p));
	return n;
}

#define PTX_KEY(op, type) \
	((DRM_VATOM_PTX_OP_##op << 4) | DRM_VATOM_PTX_TYPE_##type)

/*
 * One packet: the integer scalar forms that workloads repeat most are done
 * here, straight from the packet (one dispatch on op and type, the atomic,
 * one 8-byte result store), the same operations ptx_execute_any() would
 * do; everything else goes to ptx_execute_other().
 */
static __always_inline u64 ptx_execute(const struct drm_vatom_ptx *p,
				       const struct vatom_bindings *b,
				       u8 *results)
{
	const struct vatom_surface_view *v = b->slot[p->slot];
	u8 *mem = v->vaddr + p->addr;
	u32 s = (u32)p->b[0];
	u64 old;

	switch (p->vec ? 0 : (p->op << 4) | p->type) {
	case PTX_KEY(ADD, U32):
	case PTX_KEY(ADD, S32):
		old = vatom_fetch_add32((u32 *)mem, s);
		break;
	case PTX_KEY(ADD, U64):
		old = vatom_fetch_add64((u64 *)mem, p->b[0]);
		break;
	case PTX_KEY(EXCH, B32):
		old = vatom_xchg32((u32 *)mem, s);
		break;
	case PTX_KEY(CAS, B32):
		old = vatom_cmpxchg32((u32 *)mem, s, (u32)p->c[0]);
		break;
	default:
		return ptx_execute_other(p, mem, results);
	}
	/* A scalar of at most 8 bytes: one region of 8, zero-extended. */
	memcpy(results, &old, 8);
	return 1;
}

u64 vatom_ptx_execute(const struct drm_vatom_ptx *p,
		      const struct vatom_bindings *b, u8 *results)
{
	return ptx_execute(p, b, results);
}

/**
 * vatom_ptx_execute_one() - vatom_stream_execute_ctl() of a validated
 * stream that is one PTX packet
 * @stream: the packet: vatom_stream_is_one()
 * @size: its bytes
 * @b: the bindings it was validated with
 * @results: its result region
 * @stats: accumulates the packet and its elements, or NULL
 * @ctl: not asked: one packet has no checkpoint
 *
 * vatom_ptx_execute() and the statistics in one call, which takes the
 * walker's arguments as they are, so that the walker ends in a jump to it.
 *
 * Return: 0: one packet runs whole.
 */
int vatom_ptx_execute_one(const void *stream, u32 size,
			  const struct vatom_bindings *b, u8 *results,
			  struct vatom_stats *stats,
			  const struct vatom_exec_ctl *ctl)
{
	u64 n = ptx_execute(stream, b, results);

	return vatom_one_executed(stats, VATOM_FAMILY_PTX, n);
}

/*
 * A run of scalar packets with one head and one of the integer forms
 * ptx_execute() does inline (@key, a constant): the same operations, with
 * the dispatch and the surface lookup done once for the run.
 */
static __always_inline u32 ptx_run_scalar(const u8 *stream, u32 size, u32 at,
					  u32 max, u8 *base, u8 *results,
					  u64 *roff, u32 key)
{
	struct ptx_head head;
	u64 ro = *roff, old;
	u32 done = 0;

	ptx_head_of(&head, stream + at);
	do {
		const struct drm_vatom_ptx *p = (const void *)(stream + at);
		u8 *mem = base + p->addr;
		u32 s = (u32)p->b[0];

		switch (key) {
		case PTX_KEY(ADD, U32):
			old = vatom_fetch_add32((u32 *)mem, s);
			break;
		case PTX_KEY(ADD, U64):
			old = vatom_fetch_add64((u64 *)mem, p->b[0]);
			break;
		case PTX_KEY(EXCH, B32):
			old = vatom_xchg32((u32 *)mem, s);
			break;
		default: /* PTX_KEY(CAS, B32) */
			old = vatom_cmpxchg32((u32 *)mem, s, (u32)p->c[0]);
			break;
		}
		memcpy(results + ro, &old, 8);
		ro += 8;
		at += PTX_PACKET_SIZE;
		done++;
	} while (done < max && size - at >= PTX_PACKET_SIZE &&
		 ptx_same_head(stream + at, &head));
	*roff = ro;
	return done;
}

/*
 * A run of add.f32 packets of @n elements (1, 2 or 4; a constant) with one
 * head: what ptx_execute() and ptx_execute_other() do per packet, with the
 * surface and the flush rule resolved once for the run. Elements in
 * ascending order, each its own CAS loop; results as whole 8-byte words,
 * element 0 first (a scalar's zero-extended).
 *
 * Every element's add is vatom_f32_add_inline() (a call only off its fast
 * path), so what the loop keeps live is kept short, close to what the
 * callee-saved registers hold: a packet pointer and its limit, the results
 * pointer, the element pointer, @ftz and one result word. The operands are
 * read from the packet when needed, and each packet's head is compared
 * with the one before it (the same head, by induction) rather than kept in
 * registers.
 */
static __always_inline u32 ptx_run_f32(const u8 *stream, u32 size, u32 at,
				       u32 max, u8 *base, u8 *results, u32 n,
				       bool ftz)
{
	const u8 *q = stream + at, *last;

	/* The start of the last packet the run may execute: @max, or the end. */
	last = stream + size - PTX_PACKET_SIZE;
	if ((u32)(last - q) / PTX_PACKET_SIZE >= max)
		last = q + (max - 1) * PTX_PACKET_SIZE;
	for (;;) {
		const struct drm_vatom_ptx *p = (const void *)q;
		u32 *w = (u32 *)(base + p->addr);
		struct ptx_head head;

		ptx_f32_elems(p, w, results, n, ftz);
		results += n == 4 ? 16 : 8;
		q += PTX_PACKET_SIZE;
		if (q > last)
			break;
		ptx_head_of(&head, (const u8 *)p);
		if (!ptx_same_head(q, &head))
			break;
	}
	return (u32)(q - stream - at) / PTX_PACKET_SIZE;
}

/*
 * Each element count its own loop, out of line: the stream walker's state
 * stays out of the loop's registers.
 */
static noinline u32 ptx_run_f32_x1(const u8 *stream, u32 size, u32 at,
				   u32 max, u8 *base, u8 *results, bool ftz)
{
	return ptx_run_f32(stream, size, at, max, base, results, 1, ftz);
}

static noinline u32 ptx_run_f32_x2(const u8 *stream, u32 size, u32 at,
				   u32 max, u8 *base, u8 *results, bool ftz)
{
	return ptx_run_f32(stream, size, at, max, base, results, 2, ftz);
}

static noinline u32 ptx_run_f32_x4(const u8 *stream, u32 size, u32 at,
				   u32 max, u8 *base, u8 *results, bool ftz)
{
	return ptx_run_f32(stream, size, at, max, base, results, 4, ftz);
}

/**
 * vatom_ptx_execute_run() - execute consecutive PTX packets of a validated
 * stream
 * @stream: the stream
 * @size: its bytes
 * @pos: in: offset of a PTX packet; out: offset past the last one executed
 * @max: most packets to execute (>= 1)
 * @b: the bindings the stream was validated with
 * @results: the stream's result destination
 * @off: in/out: offset in @results of the next packet's region
 * @elements: accumulates the element operations performed
 *
 * Runs packets from *@pos for as long as they are PTX packets, up to @max,
 * exactly as vatom_ptx_execute() one by one would, without a call and a
 * type dispatch per packet in the stream walker; consecutive packets with
 * the same head (PTX_HEAD) of one of ptx_execute()'s inline integer forms,
 * or of add.f32 (scalar, .v2, .v4), are one loop, dispatched and resolved
 * to their surface once.
 *
 * Return: the packets executed.
 */
u32 vatom_ptx_execute_run(const u8 *stream, u32 size, u32 *pos, u32 max,
			  const struct vatom_bindings *b, u8 *results,
			  u64 *off, u64 *elements)
{
	u32 at = *pos, done = 0, k;
	u64 roff = *off, n = 0;

	while (done < max && size - at >= PTX_PACKET_SIZE) {
		const struct drm_vatom_ptx *p = (const void *)(stream + at);
		u32 vec = p->vec;
		u8 *base;

		if (p->hdr.type != DRM_VATOM_PACKET_PTX ||
		    p->hdr.size != PTX_PACKET_SIZE)
			break;
		base = b->slot[p->slot]->vaddr;
		if (p->op == DRM_VATOM_PTX_OP_ADD &&
		    p->type == DRM_VATOM_PTX_TYPE_F32) {
			/* Validated: scalar, .v2 or .v4. */
			bool ftz = ptx_f32_ftz(p);
			u8 *res = results + roff;

			if (vec == 4)
				k = ptx_run_f32_x4(stream, size, at, max - done,
						   base, res, ftz);
			else if (vec == 2)
				k = ptx_run_f32_x2(stream, size, at, max - done,
						   base, res, ftz);
			else
				k = ptx_run_f32_x1(stream, size, at, max - done,
						   base, res, ftz);
			n += (u64)k * (vec ? vec : 1);
			roff += (u64)k * (vec == 4 ? 16 : 8);
			at += k * PTX_PACKET_SIZE;
			done += k;
			continue;
		}
		switch (vec ? 0 : (p->op << 4) | p->type) {
		case PTX_KEY(ADD, U32):
		case PTX_KEY(ADD, S32):
			k = ptx_run_scalar(stream, size, at, max - done, base,
					   results, &roff, PTX_KEY(ADD, U32));
			break;
		case PTX_KEY(ADD, U64):
			k = ptx_run_scalar(stream, size, at, max - done, base,
					   results, &roff, PTX_KEY(ADD, U64));
			break;
		case PTX_KEY(EXCH, B32):
			k = ptx_run_scalar(stream, size, at, max - done, base,
					   results, &roff, PTX_KEY(EXCH, B32));
			break;
		case PTX_KEY(CAS, B32):
			k = ptx_run_scalar(stream, size, at, max - done, base,
					   results, &roff, PTX_KEY(CAS, B32));
			break;
		default:
			n += ptx_execute(p, b, results + roff);
			roff += ptx_result_bytes(p);
			at += PTX_PACKET_SIZE;
			done++;
			continue;
		}
		/* A scalar run: one element per packet. */
		n += k;
		at += k * PTX_PACKET_SIZE;
		done += k;
	}
	*pos = at;
	*off = roff;
	*elements += n;
	return done;
}
