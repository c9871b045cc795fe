// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Tenstorrent NoC atomic requests (Wormhole and Blackhole register
 * profiles): decoding of the initiator register image and validation.
 * Execution, the operation on each recipient's L1 and the NIU counter
 * life cycle, is noc_exec.c's.
 *
 * docs/semantics-noc.md is the reference for every choice made here; the
 * section numbers (§) are those of spec/noc-atomics.md.
 */
#include "noc_internal.h"

#define NOC_MMIO_BASE		0xff000000u	/* §7: L1 below, MMIO above */

/* Profiles in which each opcode exists: bit n for DRM_VATOM_NOC_PROFILE n. */
#define WH	0x1u	/* DRM_VATOM_NOC_PROFILE_WORMHOLE */
#define BH	0x2u	/* DRM_VATOM_NOC_PROFILE_BLACKHOLE */

static const u8 noc_opcode_profiles[16] = {
	[DRM_VATOM_NOC_AT_INCR] = WH | BH,
	[DRM_VATOM_NOC_AT_SWAP_MASK] = WH | BH,
	[DRM_VATOM_NOC_AT_CAS] = WH | BH,
	[DRM_VATOM_NOC_AT_SWAP_IDX6] = WH | BH,
	[DRM_VATOM_NOC_AT_SWAP_IDX7] = WH | BH,
	[DRM_VATOM_NOC_AT_ACC] = BH,
	[DRM_VATOM_NOC_AT_RISCV] = BH,
};

/* Documented parallel-add formats (§8.1): 0 1 2 4 7 8 9 10 12 13 15. */
#define NOC_ACC_FMTS	0xb797u

u64 vatom_noc_opcodes_mask(u32 profile)
{
	u64 mask = 0;
	u32 op;

	if (profile > DRM_VATOM_NOC_PROFILE_BLACKHOLE)
		return 0;
	for (op = 0; op < 16; op++)
		if (noc_opcode_profiles[op] & (1u << profile))
			mask |= 1ull << op;
	return mask;
}

/* Check NOC_AT_LEN_BE against the profile's table (§1.2, §1.4, §9). */
static u32 noc_check_at(u32 profile, u32 at)
{
	u32 op = (at & DRM_VATOM_NOC_AT_OPCODE_MASK) >> DRM_VATOM_NOC_AT_OPCODE_SHIFT;
	u32 sel;

	if (!(noc_opcode_profiles[op] & (1u << profile)))
		return DRM_VATOM_ERR_OP;
	switch (op) {
	case DRM_VATOM_NOC_AT_SWAP_IDX6:
		/* The layout fixes bit 2 to 1; a 0 there is no documented form. */
		if (!(at & DRM_VATOM_NOC_AT_SWAP6_ONE))
			return DRM_VATOM_ERR_OP;
		break;
	case DRM_VATOM_NOC_AT_ACC:
		if (!(NOC_ACC_FMTS & (1u << (at & DRM_VATOM_NOC_AT_ACC_FMT_MASK))))
			return DRM_VATOM_ERR_OP;
		break;
	case DRM_VATOM_NOC_AT_RISCV:
		sel = (at & DRM_VATOM_NOC_AT_RISCV_SEL_MASK) >>
		      DRM_VATOM_NOC_AT_RISCV_SEL_SHIFT;
		if (!(at & DRM_VATOM_NOC_AT_ZAAMO) &&
		    sel != DRM_VATOM_NOC_AT_RISCV_SWAP)
			return DRM_VATOM_ERR_OP;
		break;
	}
	return 0;
}

/* §6 span rule: Start <= End is Start..End, otherwise the torus wraps. */
static bool noc_tile_ok(const struct vatom_tile_grid *g, u32 x, u32 y)
{
	return x < g->width && y < g->height &&
	       vatom_tile_has_l1(g->type[vatom_tile_index(g, x, y)]);
}

/* Is [addr, addr + len) inside the L1 of tile (x, y)? */
static bool noc_in_l1(const struct vatom_tile_grid *g, u32 x, u32 y,
		      u32 addr, u32 len)
{
	u32 l1 = g->l1_size[vatom_tile_index(g, x, y)];

	return addr < NOC_MMIO_BASE && addr <= l1 && l1 - addr >= len;
}

/* Decode the coordinate registers of the profile. */
static u32 noc_decode_coords(const struct drm_vatom_noc *p, struct noc_req *r)
{
	const u32 cm = DRM_VATOM_NOC_COORD_MASK;
	u32 mid = p->targ_addr_mid, hi = p->targ_addr_hi;

	if (r->g->profile == DRM_VATOM_NOC_PROFILE_WORMHOLE) {
		/* TARG/RET_ADDR_HI do not exist on Wormhole: UAPI MBZ. */
		if (p->targ_addr_hi || p->ret_addr_hi)
			return DRM_VATOM_ERR_RESERVED;
		/* Address bits 35..32: no L1 lies above 4 GiB. */
		if (mid & DRM_VATOM_NOC_WH_MID_ADDR_MASK)
			return DRM_VATOM_ERR_TARGET;
		/* Bits past EndY (unicast) or StartY (broadcast) are reserved. */
		if (mid >> (r->brcst ? 28 : 16))
			return DRM_VATOM_ERR_RESERVED;
		r->ex = (mid >> DRM_VATOM_NOC_WH_MID_X_SHIFT) & cm;
		r->ey = (mid >> DRM_VATOM_NOC_WH_MID_Y_SHIFT) & cm;
		r->sx = (mid >> DRM_VATOM_NOC_WH_MID_START_X_SHIFT) & cm;
		r->sy = (mid >> DRM_VATOM_NOC_WH_MID_START_Y_SHIFT) & cm;
		if (r->marked) {
			u32 rmid = p->ret_addr_mid;

			if (rmid & DRM_VATOM_NOC_WH_MID_ADDR_MASK)
				return DRM_VATOM_ERR_TARGET;
			if (rmid >> 16)
				return DRM_VATOM_ERR_RESERVED;
			r->rx = (rmid >> DRM_VATOM_NOC_WH_MID_X_SHIFT) & cm;
			r->ry = (rmid >> DRM_VATOM_NOC_WH_MID_Y_SHIFT) & cm;
		}
	} else {
		/* TARG_ADDR_MID is address bits 63..32. */
		if (mid)
			return DRM_VATOM_ERR_TARGET;
		if (hi >> (r->brcst ? 24 : 12))
			return DRM_VATOM_ERR_RESERVED;
		r->ex = (hi >> DRM_VATOM_NOC_BH_HI_X_SHIFT) & cm;
		r->ey = (hi >> DRM_VATOM_NOC_BH_HI_Y_SHIFT) & cm;
		r->sx = (hi >> DRM_VATOM_NOC_BH_HI_START_X_SHIFT) & cm;
		r->sy = (hi >> DRM_VATOM_NOC_BH_HI_START_Y_SHIFT) & cm;
		if (r->marked) {
			if (p->ret_addr_mid)
				return DRM_VATOM_ERR_TARGET;
			if (p->ret_addr_hi >> 12)
				return DRM_VATOM_ERR_RESERVED;
			r->rx = (p->ret_addr_hi >> DRM_VATOM_NOC_BH_HI_X_SHIFT) & cm;
			r->ry = (p->ret_addr_hi >> DRM_VATOM_NOC_BH_HI_Y_SHIFT) & cm;
		}
	}
	return 0;
}

/* Decode and validate everything but the slot, against grid @g. */
static u32 noc_decode(const struct drm_vatom_noc *p,
		      const struct vatom_tile_grid *g, struct noc_req *r)
{
	u32 x, y, n, err;

	memset(r, 0, sizeof(*r));
	r->g = g;
	if (p->noc >= VATOM_NOC_NIUS)
		return DRM_VATOM_ERR_RESERVED;
	r->noc = p->noc;

	/* NOC_CTRL: atomic requests only; undocumented and broken bits MBZ. */
	if (p->ctrl & ~DRM_VATOM_NOC_CTRL_VALID)
		return DRM_VATOM_ERR_RESERVED;
	if ((p->ctrl & DRM_VATOM_NOC_CTRL_REQ_MASK) != DRM_VATOM_NOC_CTRL_REQ_ATOMIC)
		return DRM_VATOM_ERR_OP;
	r->marked = p->ctrl & DRM_VATOM_NOC_CTRL_RESP_MARKED;
	r->brcst = p->ctrl & DRM_VATOM_NOC_CTRL_BRCST_PACKET;
	r->src_include = p->ctrl & DRM_VATOM_NOC_CTRL_BRCST_SRC_INCLUDE;

	err = noc_check_at(g->profile, p->at_len_be);
	if (err)
		return err;
	r->at = p->at_len_be;
	r->opcode = (r->at & DRM_VATOM_NOC_AT_OPCODE_MASK) >>
		    DRM_VATOM_NOC_AT_OPCODE_SHIFT;
	r->data = p->at_data;

	if (p->packet_tag & ~DRM_VATOM_NOC_TAG_TXN_ID_MASK)
		return DRM_VATOM_ERR_RESERVED;
	r->id = (p->packet_tag & DRM_VATOM_NOC_TAG_TXN_ID_MASK) >>
		DRM_VATOM_NOC_TAG_TXN_ID_SHIFT;

	err = noc_decode_coords(p, r);
	if (err)
		return err;

	/* The initiator is a Tensix or Ethernet NIU of this grid. */
	r->ix = p->x;
	r->iy = p->y;
	if (!noc_tile_ok(g, r->ix, r->iy))
		return DRM_VATOM_ERR_TARGET;

	/* Targets: the whole 16-byte block lies in each recipient's L1. */
	r->targ = p->targ_addr_lo;
	if (r->brcst) {
		if (r->ex >= g->width || r->sx >= g->width ||
		    r->ey >= g->height || r->sy >= g->height)
			return DRM_VATOM_ERR_TARGET;
		n = 0;
		for (y = 0; y < g->height; y++) {
			for (x = 0; x < g->width; x++) {
				if (!noc_is_recipient(r, x, y))
					continue;
				if (!noc_in_l1(g, x, y, r->targ & ~0xfu, 16))
					return DRM_VATOM_ERR_TARGET;
				n++;
			}
		}
		if (!n)
			return DRM_VATOM_ERR_TARGET;
	} else {
		if (!noc_tile_ok(g, r->ex, r->ey) ||
		    !noc_in_l1(g, r->ex, r->ey, r->targ & ~0xfu, 16))
			return DRM_VATOM_ERR_TARGET;
		n = 1;
	}

	/* Responses land in a Tensix/Ethernet L1, 4-byte aligned (§5.2). */
	if (r->marked) {
		r->ret = p->ret_addr_lo;
		if (!noc_tile_ok(g, r->rx, r->ry))
			return DRM_VATOM_ERR_TARGET;
		if (r->ret & 3)
			return DRM_VATOM_ERR_ALIGN;
		if (!noc_in_l1(g, r->rx, r->ry, r->ret, 4))
			return DRM_VATOM_ERR_TARGET;
	}
	return 0;
}

/*
 * The request of @p, decoded into @r against the grid bound at its slot,
 * whose memory *@vaddr gets: validation's one check of everything but the
 * header, and execution's decoder (noc_exec.c), which finds the same.
 * Return: 0, or the DRM_VATOM_ERR_* reason.
 */
u32 noc_request(const struct drm_vatom_noc *p, const struct vatom_bindings *b,
		struct noc_req *r, u8 **vaddr)
{
	const struct vatom_surface_view *v = b->slot[p->slot];

	if (!v)
		return DRM_VATOM_ERR_SLOT;
	if (v->kind != DRM_VATOM_SURFACE_TILE_GRID || !v->grid)
		return DRM_VATOM_ERR_SURFACE_KIND;
	/* The kernel sized the surface from the layout; never trust blindly. */
	if (v->grid->size > v->size)
		return DRM_VATOM_ERR_BOUNDS;
	*vaddr = v->vaddr;
	return noc_decode(p, v->grid, r);
}

u32 vatom_noc_validate(const struct drm_vatom_noc *p,
		       const struct vatom_bindings *b, u64 *result_bytes)
{
	struct noc_req r;
	u8 *vaddr;

	if (result_bytes)
		*result_bytes = 0;	/* responses go to L1, not the results */
	if (p->hdr.size != NOC_PACKET_SIZE)
		return DRM_VATOM_ERR_PACKET_SIZE;
	if (p->flags || p->pad[0] || p->pad[1])
		return DRM_VATOM_ERR_RESERVED;
	return noc_request(p, b, &r, &vaddr);
}

/**
 * vatom_noc_ops() - the cost of a validated NoC packet
 * @p: the packet
 * @b: the bindings it was validated with
 *
 * Delivery of a broadcast scans the whole grid for its recipients, so a
 * broadcast costs every tile of the grid, whatever its rectangle.
 *
 * Return: 1 for a unicast, width * height of the grid for a broadcast.
 */
u32 vatom_noc_ops(const struct drm_vatom_noc *p, const struct vatom_bindings *b)
{
	const struct vatom_tile_grid *g = b->slot[p->slot]->grid;

	if (!(p->ctrl & DRM_VATOM_NOC_CTRL_BRCST_PACKET))
		return 1;
	return g->width * g->height;
}

/**
 * vatom_noc_validate_one() - vatom_stream_validate_ctl() of a stream that
 * is one NoC packet
 * @stream: the packet: vatom_stream_is_one()
 * @size: its bytes
 * @b: the submission's bindings
 * @ctl: the most element operations it may cost (NULL: no limit)
 * @results_needed: out, as vatom_stream_validate_ctl()
 * @ops: out, as vatom_stream_validate_ctl()
 * @err: out, as vatom_stream_validate_ctl()
 *
 * vatom_noc_validate() and the cost in one call, which takes the walker's
 * arguments as they are, so that the walker ends in a jump to it.
 *
 * Return: as vatom_stream_validate_ctl().
 */
int vatom_noc_validate_one(const void *stream, u32 size,
			   const struct vatom_bindings *b,
			   const struct vatom_exec_ctl *ctl,
			   u64 *results_needed, u64 *ops,
			   struct vatom_stream_error *err)
{
	u64 bytes;
	u32 reason = vatom_noc_validate(stream, b, &bytes);

	return vatom_one_validated(reason, bytes,
				   reason ? 0 : vatom_noc_ops(stream, b), ctl,
				   results_needed, ops, err);
}
