// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Tenstorrent NoC atomic requests, execution: the operation on each
 * recipient's L1 block and the NIU counter life cycle of a request that
 * noc.c validated, one packet at a time or a run of packets that differ
 * only in target address and data.
 *
 * docs/semantics-noc.md is the reference for every choice made here; the
 * section numbers (§) are those of spec/noc-atomics.md.
 *
 * Copyright (C) 2026 The vatom developers
 */
#include "noc_internal.h"
#include "softfloat.h"

/* The 16-bit half-word @i of a block held as four little-endian words. */
static u16 noc_half(const u32 *w, u32 i)
{
	return (u16)(w[i / 2] >> (16 * (i & 1)));
}

static void noc_set_half(u32 *w, u32 i, u16 v)
{
	u32 sh = 16 * (i & 1);

	w[i / 2] = (w[i / 2] & ~(0xffffu << sh)) | ((u32)v << sh);
}

static u32 noc_zaamo(u32 op, u32 old, u32 d)
{
	switch (op) {
	case DRM_VATOM_NOC_ZAAMO_ADD:
		return old + d;
	case DRM_VATOM_NOC_ZAAMO_XOR:
		return old ^ d;
	case DRM_VATOM_NOC_ZAAMO_OR:
		return old | d;
	case DRM_VATOM_NOC_ZAAMO_AND:
		return old & d;
	case DRM_VATOM_NOC_ZAAMO_MIN:
		return (s32)old < (s32)d ? old : d;
	case DRM_VATOM_NOC_ZAAMO_MAX:
		return (s32)old > (s32)d ? old : d;
	case DRM_VATOM_NOC_ZAAMO_MINU:
		return old < d ? old : d;
	default: /* DRM_VATOM_NOC_ZAAMO_MAXU */
		return old > d ? old : d;
	}
}

/* §2.7, §8: parallel add of D tiled four times onto the 16-byte block. */
static void noc_acc(u32 *w, u32 fmt, u32 d)
{
	u32 i;

	switch (fmt) {
	case DRM_VATOM_NOC_ACC_FP32:
	case DRM_VATOM_NOC_ACC_FP32_B:
		for (i = 0; i < 4; i++)
			w[i] = vatom_f32_add_inline(w[i], d, true);
		break;
	case DRM_VATOM_NOC_ACC_FP16:
	case DRM_VATOM_NOC_ACC_FP16_B:
		for (i = 0; i < 8; i++)
			noc_set_half(w, i, vatom_f16_add(noc_half(w, i),
							 (u16)(d >> (16 * (i & 1))),
							 true));
		break;
	case DRM_VATOM_NOC_ACC_BF16:
	case DRM_VATOM_NOC_ACC_BF16_B:
		for (i = 0; i < 8; i++)
			noc_set_half(w, i, vatom_bf16_add(noc_half(w, i),
							  (u16)(d >> (16 * (i & 1))),
							  true));
		break;
	case DRM_VATOM_NOC_ACC_U32:
	case DRM_VATOM_NOC_ACC_U32_B:
	case DRM_VATOM_NOC_ACC_U32_C:
		for (i = 0; i < 4; i++)
			w[i] += d;
		break;
	default: /* DRM_VATOM_NOC_ACC_U8_SAT saturates, _U8 wraps */
		for (i = 0; i < 16; i++) {
			u32 sh = 8 * (i & 3);
			u32 s = ((w[i / 4] >> sh) & 0xff) + ((d >> sh) & 0xff);

			if (fmt == DRM_VATOM_NOC_ACC_U8_SAT && s > 0xff)
				s = 0xff;
			w[i / 4] = (w[i / 4] & ~(0xffu << sh)) | ((s & 0xff) << sh);
		}
		break;
	}
}

/* Apply the request to a copy of the block (the body of the atomic{}). */
static void noc_apply(const struct noc_req *r, u32 *w)
{
	u32 at = r->at, d = r->data;
	u32 ofs = at & DRM_VATOM_NOC_AT_OFS_MASK;
	u32 mask, i;

	switch (r->opcode) {
	case DRM_VATOM_NOC_AT_INCR:
		/* (2u << 31) - 1 wraps to 0xffffffff in u32, as §2.2 relies on. */
		mask = (2u << ((at & DRM_VATOM_NOC_AT_INT_WIDTH_MASK) >>
			       DRM_VATOM_NOC_AT_INT_WIDTH_SHIFT)) - 1u;
		w[ofs] = ((w[ofs] + d) & mask) | (w[ofs] & ~mask);
		break;
	case DRM_VATOM_NOC_AT_CAS:
		if (w[ofs] == ((at >> DRM_VATOM_NOC_AT_CAS_CMP_SHIFT) &
			       DRM_VATOM_NOC_AT_CAS_VAL_MASK))
			w[ofs] = (at >> DRM_VATOM_NOC_AT_CAS_SET_SHIFT) &
				 DRM_VATOM_NOC_AT_CAS_VAL_MASK;
		break;
	case DRM_VATOM_NOC_AT_SWAP_MASK:
		mask = (at & DRM_VATOM_NOC_AT_SWAP_MASK_MASK) >>
		       DRM_VATOM_NOC_AT_SWAP_MASK_SHIFT;
		for (i = 0; i < 8; i++)
			if (mask & (1u << i))
				noc_set_half(w, i, (u16)(d >> (16 * (i & 1))));
		break;
	case DRM_VATOM_NOC_AT_SWAP_IDX6:
		w[ofs] = d;
		break;
	case DRM_VATOM_NOC_AT_SWAP_IDX7:
		w[(at >> DRM_VATOM_NOC_AT_OFS7_SHIFT) & DRM_VATOM_NOC_AT_OFS_MASK] = d;
		break;
	case DRM_VATOM_NOC_AT_ACC:
		noc_acc(w, at & DRM_VATOM_NOC_AT_ACC_FMT_MASK, d);
		break;
	default: /* DRM_VATOM_NOC_AT_RISCV */
		if (at & DRM_VATOM_NOC_AT_ZAAMO)
			w[ofs] = noc_zaamo((at & DRM_VATOM_NOC_AT_ZAAMO_OP_MASK) >>
					   DRM_VATOM_NOC_AT_ZAAMO_OP_SHIFT,
					   w[ofs], d);
		else
			w[ofs] = d;
		break;
	}
}

/*
 * One atomic{} on the 16-byte block at @blk (16-byte aligned): the whole
 * block is the atomicity unit (one lock cmpxchg16b per attempt), so the
 * Result word and the modified word are read and written indivisibly even
 * when Ofs names another word. Returns Result = W(T & ~3) before the op.
 */
static u32 noc_atomic_block(u64 *blk, const struct noc_req *r)
{
	u64 old[2], new[2];
	u32 w[4];
	u32 tw = (r->targ >> 2) & 3;

	old[0] = vatom_load64(&blk[0]);
	old[1] = vatom_load64(&blk[1]);
	do {
		w[0] = (u32)old[0];
		w[1] = (u32)(old[0] >> 32);
		w[2] = (u32)old[1];
		w[3] = (u32)(old[1] >> 32);
		noc_apply(r, w);
		new[0] = w[0] | (u64)w[1] << 32;
		new[1] = w[2] | (u64)w[3] << 32;
		/* A torn first read fails here and reloads old atomically. */
	} while (!vatom_cmpxchg128(blk, old, new));
	return (u32)(old[tw / 2] >> (32 * (tw & 1)));
}

static void noc_count(u32 *cnt, u32 idx)
{
	vatom_fetch_add32(&cnt[idx], 1);
}

/* REQS_OUTSTANDING_ID(id) are 8-bit up/down counters (§5.3). */
static void noc_count_outstanding(u32 *cnt, u32 id, u32 delta)
{
	u32 *c = &cnt[DRM_VATOM_NOC_MST_REQS_OUTSTANDING_ID(id)];
	u32 old = vatom_load32(c), seen;

	for (;;) {
		seen = vatom_cmpxchg32(c, old, (old + delta) & 0xff);
		if (seen == old)
			return;
		old = seen;
	}
}

/*
 * Deliver the request to recipient (@x, @y): its slave counters, the
 * atomic on its L1 block, and for a marked request the response to the
 * return tile (@rcnt its counters).
 */
static void noc_deliver(const struct noc_req *r, u8 *vaddr, u32 x, u32 y,
			u32 *rcnt)
{
	const struct vatom_tile_grid *g = r->g;
	u32 *scnt = vatom_tile_counters(g, vaddr, x, y, r->noc);
	u64 *blk;
	u32 result;

	noc_count(scnt, DRM_VATOM_NOC_SLV_REQ_ACCEPTED);
	noc_count(scnt, r->marked ?
		  DRM_VATOM_NOC_SLV_NONPOSTED_ATOMIC_RECEIVED :
		  DRM_VATOM_NOC_SLV_POSTED_ATOMIC_RECEIVED);

	blk = (u64 *)(vaddr + g->l1_offset[vatom_tile_index(g, x, y)] +
		      (r->targ & ~0xfu));
	result = noc_atomic_block(blk, r);
	if (!r->marked)
		return;
	noc_count(scnt, DRM_VATOM_NOC_SLV_ATOMIC_RESP_SENT);

	/* The response: L1 write, barrier, then the counters. */
	vatom_store32((u32 *)(vaddr + g->l1_offset[vatom_tile_index(g, r->rx, r->ry)] +
			      r->ret), result);
	noc_count(rcnt, DRM_VATOM_NOC_MST_ATOMIC_RESP_RECEIVED);
	noc_count_outstanding(rcnt, r->id, (u32)-1);
}

/* Issue at the initiator, then delivery to each recipient (§5.3, §6). */
static u64 noc_execute_req(const struct noc_req *r, u8 *vaddr)
{
	const struct vatom_tile_grid *g = r->g;
	u32 *icnt, *rcnt = NULL;
	u32 x, y, done = 0;

	/* Issue, first-hop VC and departure at the initiator (§5.3). */
	icnt = vatom_tile_counters(g, vaddr, r->ix, r->iy, r->noc);
	if (r->marked)
		noc_count_outstanding(icnt, r->id, 1);
	noc_count(icnt, DRM_VATOM_NOC_MST_CMD_ACCEPTED);
	if (r->marked)
		noc_count(icnt, DRM_VATOM_NOC_MST_NONPOSTED_ATOMIC_STARTED);
	noc_count(icnt, r->marked ? DRM_VATOM_NOC_MST_NONPOSTED_ATOMIC_SENT :
				    DRM_VATOM_NOC_MST_POSTED_ATOMIC_SENT);
	if (r->marked)
		rcnt = vatom_tile_counters(g, vaddr, r->rx, r->ry, r->noc);

	/* A unicast's one recipient, checked by noc_request(): no grid scan. */
	if (!r->brcst) {
		noc_deliver(r, vaddr, r->ex, r->ey, rcnt);
		return 1;
	}
	/* Broadcast recipients in row-major order, as the responses land. */
	for (y = 0; y < g->height; y++) {
		for (x = 0; x < g->width; x++) {
			if (!noc_is_recipient(r, x, y))
				continue;
			noc_deliver(r, vaddr, x, y, rcnt);
			done++;
		}
	}
	return done;
}

u64 vatom_noc_execute(const struct drm_vatom_noc *p,
		      const struct vatom_bindings *b, u8 *results)
{
	struct noc_req r;
	u8 *vaddr;

	if (noc_request(p, b, &r, &vaddr))
		return 0;	/* not validated: never reached by the walker */
	return noc_execute_req(&r, vaddr);
}

/**
 * vatom_noc_execute_one() - vatom_stream_execute_ctl() of a validated
 * stream that is one NoC packet
 * @stream: the packet: vatom_stream_is_one()
 * @size: its bytes
 * @b: the bindings it was validated with
 * @results: its result region (NoC returns none)
 * @stats: accumulates the packet and its recipients, or NULL
 * @ctl: not asked: one packet has no checkpoint
 *
 * vatom_noc_execute() and the statistics in one call, which takes the
 * walker's arguments as they are, so that the walker ends in a jump to it.
 *
 * Return: 0: one packet runs whole.
 */
int vatom_noc_execute_one(const void *stream, u32 size,
			  const struct vatom_bindings *b, u8 *results,
			  struct vatom_stats *stats,
			  const struct vatom_exec_ctl *ctl)
{
	u64 n = vatom_noc_execute(stream, b, results);

	return vatom_one_executed(stats, VATOM_FAMILY_NOC, n);
}

/*
 * A packet as 8-byte words. Packets whose words agree outside the bytes of
 * noc_run_vary (TARG_ADDR_LO and AT_DATA) decode to the same request but
 * for those two registers, which noc_request() copies without deriving
 * anything else from them (the target's bounds were checked per packet by
 * validation).
 */
struct noc_words {
	u64 w[NOC_PACKET_SIZE / 8];
};

static const union {
	u8 b[NOC_PACKET_SIZE];
	struct noc_words words;
} noc_run_vary = { .b = {
	/* The four bytes of each 32-bit register. */
	[offsetof(struct drm_vatom_noc, targ_addr_lo) ...
	 offsetof(struct drm_vatom_noc, targ_addr_lo) + 3] = 0xff,
	[offsetof(struct drm_vatom_noc, at_data) ...
	 offsetof(struct drm_vatom_noc, at_data) + 3] = 0xff,
} };

static __always_inline void noc_words_of(struct noc_words *x, const u8 *q)
{
	memcpy(x, q, sizeof(*x));
}

static __always_inline bool noc_same_run(const u8 *q,
					 const struct noc_words *first)
{
	const struct noc_words *vary = &noc_run_vary.words;
	struct noc_words x;
	u64 d = 0;
	u32 i;

	noc_words_of(&x, q);
	for (i = 0; i < NOC_PACKET_SIZE / 8; i++)
		d |= (x.w[i] ^ first->w[i]) & ~vary->w[i];
	return !d;
}

/**
 * vatom_noc_execute_run() - execute consecutive NoC packets of a validated
 * stream
 * @stream: the stream
 * @size: its bytes
 * @pos: in: offset of a NoC packet; out: offset past the last one executed
 * @max: most packets to execute (>= 1)
 * @b: the bindings the stream was validated with
 * @elements: accumulates the element operations performed (recipients)
 *
 * Executes the packet at *@pos and those after it that differ from it in
 * TARG_ADDR_LO and AT_DATA at most, up to @max, exactly as
 * vatom_noc_execute() one by one would, decoding the request once.
 *
 * Return: the packets executed (0 only for a stream that was not
 * validated).
 */
u32 vatom_noc_execute_run(const u8 *stream, u32 size, u32 *pos, u32 max,
			  const struct vatom_bindings *b, u64 *elements)
{
	const struct drm_vatom_noc *p = (const void *)(stream + *pos);
	struct noc_words first;
	struct noc_req r;
	u32 at = *pos, done = 0;
	u8 *vaddr;

	if (noc_request(p, b, &r, &vaddr))
		return 0;	/* not validated: never reached by the walker */
	noc_words_of(&first, (const u8 *)p);
	for (;;) {
		*elements += noc_execute_req(&r, vaddr);
		at += NOC_PACKET_SIZE;
		if (++done == max || size - at < NOC_PACKET_SIZE)
			break;
		if (!noc_same_run(stream + at, &first))
			break;
		p = (const void *)(stream + at);
		r.targ = p->targ_addr_lo;
		r.data = p->at_data;
	}
	*pos = at;
	return done;
}
