/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What NoC validation (noc.c) and execution (noc_exec.c) share: the
 * packet's size, the decoded request and its decoder, and the recipient
 * test both sides use, static inline so that a broadcast's scan of the
 * grid keeps it inlined.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_NOC_INTERNAL_H_
#define _VATOM_NOC_INTERNAL_H_

#include "vatom_engine.h"
#include "tile_grid.h"

#define NOC_PACKET_SIZE		64

/* Decoded request; noc_request() serves validate and execute. */
struct noc_req {
	const struct vatom_tile_grid *g;
	u32 opcode;
	u32 at;			/* NOC_AT_LEN_BE */
	u32 data;		/* NOC_AT_DATA */
	u32 targ;		/* NOC_TARG_ADDR_LO */
	u32 ix, iy;		/* initiator */
	u32 ex, ey;		/* unicast target, or broadcast End */
	u32 sx, sy;		/* broadcast Start */
	u32 rx, ry;		/* return tile */
	u32 ret;		/* NOC_RET_ADDR_LO */
	u32 id;			/* transaction id */
	u32 noc;
	bool marked;
	bool brcst;
	bool src_include;
};

u32 noc_request(const struct drm_vatom_noc *p, const struct vatom_bindings *b,
		struct noc_req *r, u8 **vaddr);

static inline bool noc_in_span(u32 v, u32 start, u32 end)
{
	if (start <= end)
		return v >= start && v <= end;
	return v <= end || v >= start;
}

/*
 * Whether tile (@x, @y) takes broadcast @r. Only broadcasts ask: a
 * unicast's one recipient is its end coordinates, which noc_request()
 * checked.
 */
static inline bool noc_is_recipient(const struct noc_req *r, u32 x, u32 y)
{
	const struct vatom_tile_grid *g = r->g;

	/* Only Tensix NIUs take broadcasts; the rest are opted out (§6). */
	if (g->type[vatom_tile_index(g, x, y)] != DRM_VATOM_TILE_TENSIX)
		return false;
	if (!noc_in_span(x, r->sx, r->ex) || !noc_in_span(y, r->sy, r->ey))
		return false;
	return r->src_include || x != r->ix || y != r->iy;
}

#endif /* _VATOM_NOC_INTERNAL_H_ */
