// SPDX-License-Identifier: MIT
/*
 * libvatom: NoC request helpers: NOC_AT_LEN_BE for each documented atomic
 * variant, and the target/return coordinates of a register image, for the
 * Wormhole and Blackhole layouts. Field positions are the UAPI's
 * DRM_VATOM_NOC_* constants (shared/spec/noc-atomics.md sections 1, 5, 6).
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static uint32_t at_op(uint32_t opcode)
{
	return opcode << DRM_VATOM_NOC_AT_OPCODE_SHIFT;
}

VATOM_API uint32_t vatom_noc_at_increment(unsigned int ofs,
					  unsigned int int_width)
{
	if (ofs > DRM_VATOM_NOC_AT_OFS_MASK || int_width > 31)
		return 0;
	return at_op(DRM_VATOM_NOC_AT_INCR) |
	       int_width << DRM_VATOM_NOC_AT_INT_WIDTH_SHIFT | ofs;
}

VATOM_API uint32_t vatom_noc_at_cas(unsigned int ofs, unsigned int cmp,
				    unsigned int set)
{
	if (ofs > DRM_VATOM_NOC_AT_OFS_MASK ||
	    cmp > DRM_VATOM_NOC_AT_CAS_VAL_MASK ||
	    set > DRM_VATOM_NOC_AT_CAS_VAL_MASK)
		return 0;
	return at_op(DRM_VATOM_NOC_AT_CAS) |
	       set << DRM_VATOM_NOC_AT_CAS_SET_SHIFT |
	       cmp << DRM_VATOM_NOC_AT_CAS_CMP_SHIFT | ofs;
}

VATOM_API uint32_t vatom_noc_at_swap_mask(unsigned int mask)
{
	if (mask > 0xff)
		return 0;
	return at_op(DRM_VATOM_NOC_AT_SWAP_MASK) |
	       mask << DRM_VATOM_NOC_AT_SWAP_MASK_SHIFT;
}

VATOM_API uint32_t vatom_noc_at_swap_index6(unsigned int ofs)
{
	if (ofs > DRM_VATOM_NOC_AT_OFS_MASK)
		return 0;
	return at_op(DRM_VATOM_NOC_AT_SWAP_IDX6) | DRM_VATOM_NOC_AT_SWAP6_ONE |
	       ofs;
}

VATOM_API uint32_t vatom_noc_at_swap_index7(unsigned int ofs)
{
	/* Opcode 7 keeps Ofs at [3:2], not [1:0]. */
	if (ofs > DRM_VATOM_NOC_AT_OFS_MASK)
		return 0;
	return at_op(DRM_VATOM_NOC_AT_SWAP_IDX7) |
	       ofs << DRM_VATOM_NOC_AT_OFS7_SHIFT;
}

VATOM_API uint32_t vatom_noc_at_swap_index10(unsigned int ofs)
{
	if (ofs > DRM_VATOM_NOC_AT_OFS_MASK)
		return 0;
	return at_op(DRM_VATOM_NOC_AT_RISCV) |
	       DRM_VATOM_NOC_AT_RISCV_SWAP << DRM_VATOM_NOC_AT_RISCV_SEL_SHIFT |
	       ofs;
}

VATOM_API uint32_t vatom_noc_at_zaamo(unsigned int op, unsigned int ofs)
{
	if (op > DRM_VATOM_NOC_ZAAMO_MAXU || ofs > DRM_VATOM_NOC_AT_OFS_MASK)
		return 0;
	return at_op(DRM_VATOM_NOC_AT_RISCV) | DRM_VATOM_NOC_AT_ZAAMO |
	       op << DRM_VATOM_NOC_AT_ZAAMO_OP_SHIFT | ofs;
}

VATOM_API uint32_t vatom_noc_at_acc(unsigned int fmt)
{
	if (fmt > DRM_VATOM_NOC_AT_ACC_FMT_MASK)
		return 0;
	return at_op(DRM_VATOM_NOC_AT_ACC) | fmt;
}

/*
 * Address and coordinates of one side (target or return) of a request.
 * Wormhole: LO = address [31:0]; MID = address [35:32], X (EndX), Y (EndY),
 * StartX, StartY. Blackhole: LO:MID = the 64-bit address, HI = X (EndX),
 * Y (EndY), StartX, StartY.
 */
static int noc_side(unsigned int profile, unsigned int sx, unsigned int sy,
		    unsigned int x, unsigned int y, uint64_t addr,
		    uint32_t *lo, uint32_t *mid, uint32_t *hi)
{
	if (x > DRM_VATOM_NOC_COORD_MASK || y > DRM_VATOM_NOC_COORD_MASK ||
	    sx > DRM_VATOM_NOC_COORD_MASK || sy > DRM_VATOM_NOC_COORD_MASK)
		return -EINVAL;
	switch (profile) {
	case DRM_VATOM_NOC_PROFILE_WORMHOLE:
		if (addr >> 36)
			return -EINVAL;
		*lo = (uint32_t)addr;
		*mid = (uint32_t)(addr >> 32) |
		       x << DRM_VATOM_NOC_WH_MID_X_SHIFT |
		       y << DRM_VATOM_NOC_WH_MID_Y_SHIFT |
		       sx << DRM_VATOM_NOC_WH_MID_START_X_SHIFT |
		       sy << DRM_VATOM_NOC_WH_MID_START_Y_SHIFT;
		*hi = 0;
		return 0;
	case DRM_VATOM_NOC_PROFILE_BLACKHOLE:
		*lo = (uint32_t)addr;
		*mid = (uint32_t)(addr >> 32);
		*hi = x << DRM_VATOM_NOC_BH_HI_X_SHIFT |
		      y << DRM_VATOM_NOC_BH_HI_Y_SHIFT |
		      sx << DRM_VATOM_NOC_BH_HI_START_X_SHIFT |
		      sy << DRM_VATOM_NOC_BH_HI_START_Y_SHIFT;
		return 0;
	}
	return -EINVAL;
}

VATOM_API int vatom_noc_target(struct vatom_noc_req *req, unsigned int profile,
			       unsigned int x, unsigned int y, uint64_t addr)
{
	if (!req)
		return -EINVAL;
	return noc_side(profile, 0, 0, x, y, addr, &req->targ_addr_lo,
			&req->targ_addr_mid, &req->targ_addr_hi);
}

VATOM_API int vatom_noc_broadcast(struct vatom_noc_req *req,
				  unsigned int profile, unsigned int x_start,
				  unsigned int y_start, unsigned int x_end,
				  unsigned int y_end, uint64_t addr)
{
	int ret;

	if (!req)
		return -EINVAL;
	ret = noc_side(profile, x_start, y_start, x_end, y_end, addr,
		       &req->targ_addr_lo, &req->targ_addr_mid,
		       &req->targ_addr_hi);
	if (!ret)
		req->ctrl |= DRM_VATOM_NOC_CTRL_BRCST_PACKET;
	return ret;
}

VATOM_API int vatom_noc_return(struct vatom_noc_req *req, unsigned int profile,
			       unsigned int x, unsigned int y, uint64_t addr)
{
	if (!req)
		return -EINVAL;
	return noc_side(profile, 0, 0, x, y, addr, &req->ret_addr_lo,
			&req->ret_addr_mid, &req->ret_addr_hi);
}

VATOM_API int vatom_noc_response(struct vatom_noc_req *req,
				 unsigned int profile, unsigned int x,
				 unsigned int y, uint64_t addr)
{
	int ret = vatom_noc_return(req, profile, x, y, addr);

	if (!ret)
		req->ctrl |= DRM_VATOM_NOC_CTRL_RESP_MARKED;
	return ret;
}

/* ------------------------------------------------------------------------ */
/* A tile grid's L1 words and NIU counters (its layout: grid.c)             */
/* ------------------------------------------------------------------------ */

/* The L1 word at @addr of tile (@x, @y): @len bytes must lie in the L1. */
static int grid_l1(struct vatom_surface *s, unsigned int x, unsigned int y,
		   uint32_t addr, uint32_t len, void **ptr)
{
	const struct vatom__grid *g;
	uint32_t t, l1;
	void *map;
	int ret;

	if (!s || !ptr || s->kind != DRM_VATOM_SURFACE_TILE_GRID)
		return -EINVAL;
	g = s->grid;
	if (!g)
		return -EPROTO;
	if (x >= g->width || y >= g->height)
		return -EINVAL;
	t = y * g->width + x;
	l1 = g->tile[t].size;
	if (addr > l1 || l1 - addr < len)
		return -EINVAL;
	ret = vatom_surface_map(s, &map);
	if (ret)
		return ret;
	*ptr = (uint8_t *)map + g->tile[t].off + addr;
	return 0;
}

VATOM_API int vatom_noc_l1(struct vatom_surface *grid, unsigned int x,
			   unsigned int y, uint32_t addr, void **ptr)
{
	return grid_l1(grid, x, y, addr, 1, ptr);
}

VATOM_API int vatom_noc_l1_read32(struct vatom_surface *grid, unsigned int x,
				  unsigned int y, uint32_t addr, uint32_t *value)
{
	void *p;
	int ret;

	if (!value || (addr & 3))
		return -EINVAL;
	ret = grid_l1(grid, x, y, addr, 4, &p);
	if (!ret)
		*value = __atomic_load_n((uint32_t *)p, __ATOMIC_SEQ_CST);
	return ret;
}

VATOM_API int vatom_noc_l1_write32(struct vatom_surface *grid, unsigned int x,
				   unsigned int y, uint32_t addr, uint32_t value)
{
	void *p;
	int ret;

	if (addr & 3)
		return -EINVAL;
	ret = grid_l1(grid, x, y, addr, 4, &p);
	if (!ret)
		__atomic_store_n((uint32_t *)p, value, __ATOMIC_SEQ_CST);
	return ret;
}

VATOM_API int vatom_noc_l1_read(struct vatom_surface *grid, unsigned int x,
				unsigned int y, uint32_t addr, void *buf,
				size_t len)
{
	uint32_t *p, w;
	size_t i;
	int ret;

	if (!buf || (addr & 3) || (len & 3) || !len || len > UINT32_MAX)
		return -EINVAL;
	ret = grid_l1(grid, x, y, addr, (uint32_t)len, (void **)&p);
	for (i = 0; !ret && i < len / 4; i++) {
		w = __atomic_load_n(&p[i], __ATOMIC_SEQ_CST);
		memcpy((uint8_t *)buf + 4 * i, &w, 4);
	}
	return ret;
}

VATOM_API int vatom_noc_l1_write(struct vatom_surface *grid, unsigned int x,
				 unsigned int y, uint32_t addr, const void *buf,
				 size_t len)
{
	uint32_t *p, w;
	size_t i;
	int ret;

	if (!buf || (addr & 3) || (len & 3) || !len || len > UINT32_MAX)
		return -EINVAL;
	ret = grid_l1(grid, x, y, addr, (uint32_t)len, (void **)&p);
	for (i = 0; !ret && i < len / 4; i++) {
		memcpy(&w, (const uint8_t *)buf + 4 * i, 4);
		__atomic_store_n(&p[i], w, __ATOMIC_SEQ_CST);
	}
	return ret;
}

static int noc_counters(struct vatom_surface *s, unsigned int x,
			unsigned int y, unsigned int noc, uint32_t flags,
			uint32_t id_mask, uint32_t *counters, unsigned int count)
{
	struct drm_vatom_noc_counters req = {
		.flags = flags,
		.x = x,
		.y = y,
		.noc = noc,
		.id_mask = id_mask,
		.count = counters ? count : 0,
		.counters = (uintptr_t)counters,
	};

	if (!s)
		return -EINVAL;
	req.handle = s->handle;
	return vatom__ioctl(s->dev->fd, DRM_IOCTL_VATOM_NOC_COUNTERS, &req);
}

VATOM_API int vatom_noc_counters_read(struct vatom_surface *grid,
				      unsigned int x, unsigned int y,
				      unsigned int noc, uint32_t *counters,
				      unsigned int count)
{
	if (!counters)
		return -EINVAL;
	return noc_counters(grid, x, y, noc, DRM_VATOM_NOC_COUNTERS_READ, 0,
			    counters, count);
}

VATOM_API int vatom_noc_counters_clear(struct vatom_surface *grid,
				       unsigned int x, unsigned int y,
				       unsigned int noc, uint32_t id_mask,
				       unsigned int flags, uint32_t *old)
{
	uint32_t f;

	if (flags & ~VATOM_NOC_CLEAR_ALL)
		return -EINVAL;
	f = flags & VATOM_NOC_CLEAR_ALL ? DRM_VATOM_NOC_COUNTERS_CLEAR_ALL :
	    DRM_VATOM_NOC_COUNTERS_CLEAR_OUTSTANDING;
	if (old)
		f |= DRM_VATOM_NOC_COUNTERS_READ;
	return noc_counters(grid, x, y, noc, f, id_mask, old,
			    DRM_VATOM_NOC_NIU_COUNTERS);
}
