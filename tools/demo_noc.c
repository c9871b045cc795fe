// SPDX-License-Identifier: MIT
/*
 * vatom tool: the Tenstorrent NoC demo. On a 3 x 2 tile grid of each
 * register profile (Wormhole, then Blackhole), one batch of NoC atomic
 * requests: increments, a compare-and-swap on an Ethernet tile, a posted
 * swap-mask, and on Blackhole a Zaamo maxu and a parallel fp32 add; then a
 * marked broadcast increment. It prints the NIU initiator register image of
 * each request, the L1 words before and after, the response words and the
 * NIU counters, and checks the whole surface (every L1 byte and every
 * counter) against its own model of the requests, written from
 * shared/spec/noc-atomics.md independently of the library and the kernel.
 * Last, the per-ID clear (NOC_COUNTERS) fixes the broadcast's 1 - N.
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vatom_tool.h"

#define GRID_W		3
#define GRID_H		2
#define TILES		(GRID_W * GRID_H)
#define L1_TENSIX	4096
#define L1_ETH		1024
#define SLOT		2
#define NREQ_MAX	8

/*
 * The grid (x across, y down):
 *	y=0: Tensix  Tensix  Ethernet
 *	y=1: Tensix  DRAM    Tensix
 */
static const uint8_t grid_types[TILES] = {
	DRM_VATOM_TILE_TENSIX, DRM_VATOM_TILE_TENSIX, DRM_VATOM_TILE_ETHERNET,
	DRM_VATOM_TILE_TENSIX, DRM_VATOM_TILE_DRAM, DRM_VATOM_TILE_TENSIX,
};

/* One request of the demo, as the model sees it. */
struct demo_req {
	const char *text;
	bool bh_only;
	unsigned int ix, iy;		/* initiator */
	unsigned int tx, ty;		/* target, or broadcast End */
	unsigned int sx, sy;		/* broadcast Start */
	bool brcst;
	uint32_t targ;
	bool marked;
	unsigned int rx, ry;
	uint32_t ret;
	unsigned int id;
	uint32_t at;			/* from the library's builders */
	uint32_t data;
};

/* L1 words seeded before the batch: tile, address, value. */
static const struct {
	unsigned int x, y;
	uint32_t addr, value;
} seeds[] = {
	{ 1, 0, 0x100, 0xfffffffe },	/* increment wraps */
	{ 2, 0, 0x040, 7 },		/* CAS 7 -> 9 hits */
	{ 1, 0, 0x110, 0x11111111 },	/* swap mask block */
	{ 1, 0, 0x114, 0x22222222 },
	{ 1, 0, 0x118, 0x33333333 },
	{ 0, 1, 0x080, 0x00000005 },	/* amomaxu */
	{ 1, 0, 0x120, 0x3f800000 },	/* fp32 lanes: 1.0, -1.5, 2^-149, 2^100 */
	{ 1, 0, 0x124, 0xbfc00000 },
	{ 1, 0, 0x128, 0x00000001 },
	{ 1, 0, 0x12c, 0x71800000 },
	{ 1, 0, 0x304, 0x000000ff },	/* broadcast: 8-bit increments */
	{ 0, 1, 0x304, 0x12345678 },
	{ 2, 1, 0x304, 0x000001ff },
	{ 0, 0, 0x200, 0xdddddddd },	/* response words */
	{ 0, 0, 0x204, 0xdddddddd },
	{ 0, 0, 0x208, 0xdddddddd },
	{ 0, 0, 0x20c, 0xdddddddd },
	{ 2, 1, 0x010, 0xdddddddd },
	{ 0, 0, 0x210, 0xdddddddd },	/* a posted request never writes it */
};

/* ---- the model ---------------------------------------------------------- */

struct model {
	uint8_t *mem;		/* the whole surface */
	uint64_t l1_off[TILES];
	uint32_t l1_size[TILES];
};

static void model_layout(struct model *m)
{
	uint64_t off = TILES * 512;	/* 2 NoCs x 64 counters x 4 bytes */
	unsigned int t;

	for (t = 0; t < TILES; t++) {
		m->l1_off[t] = off;
		m->l1_size[t] = grid_types[t] == DRM_VATOM_TILE_TENSIX ? L1_TENSIX :
				grid_types[t] == DRM_VATOM_TILE_ETHERNET ? L1_ETH : 0;
		off += m->l1_size[t];
	}
}

static uint32_t *model_word(struct model *m, unsigned int x, unsigned int y,
			    uint32_t addr)
{
	return (uint32_t *)(m->mem + m->l1_off[y * GRID_W + x] + addr);
}

static uint32_t *model_cnt(struct model *m, unsigned int x, unsigned int y)
{
	return (uint32_t *)(m->mem + (y * GRID_W + x) * 512);	/* NoC 0 */
}

static float f32(uint32_t b)
{
	float f;

	memcpy(&f, &b, 4);
	return f;
}

static uint32_t b32(float f)
{
	uint32_t b;

	memcpy(&b, &f, 4);
	return b;
}

static uint32_t ftz(uint32_t b)
{
	return (b & 0x7f800000) ? b : (b & 0x80000000);
}

/*
 * The operation on the 16-byte block of T, as spec section 2 describes it;
 * returns Result, the word at T & ~3 before the operation.
 */
static uint32_t model_op(uint32_t *blk, uint32_t targ, uint32_t at, uint32_t d)
{
	uint32_t result = blk[(targ >> 2) & 3], ofs = at & 3, mask, i;

	switch (at >> 12) {
	case 1:	/* increment within IntWidth + 1 bits */
		mask = (uint32_t)((2ull << ((at >> 2) & 31)) - 1);
		blk[ofs] = ((blk[ofs] + d) & mask) | (blk[ofs] & ~mask);
		break;
	case 3:	/* swap the half-words selected by Mask */
		for (i = 0; i < 8; i++) {
			uint16_t *h = (uint16_t *)blk;

			if ((at >> (2 + i)) & 1)
				h[i] = i & 1 ? d >> 16 : d & 0xffff;
		}
		break;
	case 4:	/* compare with CmpVal, store SetVal */
		if (blk[ofs] == ((at >> 2) & 15))
			blk[ofs] = (at >> 6) & 15;
		break;
	case 9:	/* parallel fp32 add, inputs and output flushed */
		for (i = 0; i < 4; i++)
			blk[i] = ftz(b32(f32(ftz(blk[i])) + f32(ftz(d))));
		break;
	case 0xa:	/* Zaamo maxu (the only one the demo sends) */
		blk[ofs] = blk[ofs] > d ? blk[ofs] : d;
		break;
	}
	return result;
}

static bool in_span(unsigned int v, unsigned int s, unsigned int e)
{
	return s <= e ? v >= s && v <= e : v <= e || v >= s;
}

/* Spec sections 5.3 and 6: recipients row-major, counters on NoC 0. */
static void model_request(struct model *m, const struct demo_req *r)
{
	uint32_t *ic = model_cnt(m, r->ix, r->iy);
	unsigned int x, y;

	if (r->marked)
		ic[16 + r->id] = (ic[16 + r->id] + 1) & 0xff;
	ic[DRM_VATOM_NOC_MST_CMD_ACCEPTED]++;
	if (r->marked)
		ic[DRM_VATOM_NOC_MST_NONPOSTED_ATOMIC_STARTED]++;
	ic[r->marked ? DRM_VATOM_NOC_MST_NONPOSTED_ATOMIC_SENT :
		       DRM_VATOM_NOC_MST_POSTED_ATOMIC_SENT]++;
	for (y = 0; y < GRID_H; y++) {
		for (x = 0; x < GRID_W; x++) {
			uint32_t *sc = model_cnt(m, x, y), res;
			bool hit;

			if (r->brcst)
				hit = grid_types[y * GRID_W + x] == DRM_VATOM_TILE_TENSIX &&
				      in_span(x, r->sx, r->tx) && in_span(y, r->sy, r->ty) &&
				      (x != r->ix || y != r->iy);
			else
				hit = x == r->tx && y == r->ty;
			if (!hit)
				continue;
			sc[DRM_VATOM_NOC_SLV_REQ_ACCEPTED]++;
			sc[r->marked ? DRM_VATOM_NOC_SLV_NONPOSTED_ATOMIC_RECEIVED :
				       DRM_VATOM_NOC_SLV_POSTED_ATOMIC_RECEIVED]++;
			res = model_op(model_word(m, x, y, r->targ & ~0xfu), r->targ,
				       r->at, r->data);
			if (!r->marked)
				continue;
			sc[DRM_VATOM_NOC_SLV_ATOMIC_RESP_SENT]++;
			*model_word(m, r->rx, r->ry, r->ret) = res;
			model_cnt(m, r->rx, r->ry)[DRM_VATOM_NOC_MST_ATOMIC_RESP_RECEIVED]++;
			model_cnt(m, r->rx, r->ry)[16 + r->id] =
				(model_cnt(m, r->rx, r->ry)[16 + r->id] - 1) & 0xff;
		}
	}
}

/* ---- the demo ------------------------------------------------------------ */

static void build_reqs(struct demo_req *q, unsigned int *n)
{
	const struct demo_req all[] = {
		{ "(0,0) -> (1,0) 0x100: increment, IntWidth 31, +5 (wraps)",
		  false, 0, 0, 1, 0, 0, 0, false, 0x100, true, 0, 0, 0x200, 3,
		  vatom_noc_at_increment(0, 31), 5 },
		{ "(0,0) -> Ethernet (2,0) 0x40: CAS 7 -> 9",
		  false, 0, 0, 2, 0, 0, 0, false, 0x40, true, 0, 0, 0x204, 3,
		  vatom_noc_at_cas(0, 7, 9), 0 },
		{ "(0,0) -> (1,0) 0x110: posted swap mask 0x0c (word 1)",
		  false, 0, 0, 1, 0, 0, 0, false, 0x110, false, 0, 0, 0x210, 0,
		  vatom_noc_at_swap_mask(0x0c), 0xbbbbaaaa },
		{ "(2,1) -> (0,1) 0x80: amomaxu 0x80000000",
		  true, 2, 1, 0, 1, 0, 0, false, 0x80, true, 2, 1, 0x10, 1,
		  vatom_noc_at_zaamo(VATOM_NOC_AMOMAXU, 0), 0x80000000 },
		{ "(0,0) -> (1,0) 0x120: parallel fp32 add of 1.5 (ftz)",
		  true, 0, 0, 1, 0, 0, 0, false, 0x120, true, 0, 0, 0x208, 3,
		  vatom_noc_at_acc(DRM_VATOM_NOC_ACC_FP32), 0x3fc00000 },
		{ "(0,0) -> Tensix of (0,0)..(2,1) 0x304: increment, IntWidth 7, +1",
		  false, 0, 0, 2, 1, 0, 0, true, 0x304, true, 0, 0, 0x20c, 2,
		  vatom_noc_at_increment(1, 7), 1 },
	};
	unsigned int i;

	*n = 0;
	for (i = 0; i < ARRAY_SIZE(all); i++)
		q[(*n)++] = all[i];
}

static int encode(unsigned int profile, const struct demo_req *r,
		  struct vatom_noc_req *o)
{
	int ret;

	memset(o, 0, sizeof(*o));
	o->slot = SLOT;
	o->x = r->ix;
	o->y = r->iy;
	o->ctrl = DRM_VATOM_NOC_CTRL_REQ_ATOMIC;
	o->at_len_be = r->at;
	o->at_data = r->data;
	if (r->brcst)
		ret = vatom_noc_broadcast(o, profile, r->sx, r->sy, r->tx, r->ty,
					  r->targ);
	else
		ret = vatom_noc_target(o, profile, r->tx, r->ty, r->targ);
	if (!ret && r->marked) {
		o->ctrl |= DRM_VATOM_NOC_CTRL_RESP_MARKED;
		o->packet_tag = r->id << DRM_VATOM_NOC_TAG_TXN_ID_SHIFT;
		ret = vatom_noc_return(o, profile, r->rx, r->ry, r->ret);
	}
	return ret;
}

/* The initiator registers, at their NIU offsets (spec section 5.1). */
static void print_regs(unsigned int profile, const struct vatom_noc_req *o)
{
	bool bh = profile == DRM_VATOM_NOC_PROFILE_BLACKHOLE;

	printf("    NOC_TARG_ADDR_LO  +0x00 0x%08" PRIx32 "   NOC_TARG_ADDR_MID +0x04 0x%08"
	       PRIx32 "\n", o->targ_addr_lo, o->targ_addr_mid);
	if (bh)
		printf("    NOC_TARG_ADDR_HI  +0x08 0x%08" PRIx32 "\n", o->targ_addr_hi);
	printf("    NOC_RET_ADDR_LO   +0x0c 0x%08" PRIx32 "   NOC_RET_ADDR_MID  +0x10 0x%08"
	       PRIx32 "\n", o->ret_addr_lo, o->ret_addr_mid);
	if (bh)
		printf("    NOC_RET_ADDR_HI   +0x14 0x%08" PRIx32 "\n", o->ret_addr_hi);
	printf("    NOC_PACKET_TAG    +0x18 0x%08" PRIx32 "   NOC_CTRL          +0x1c 0x%08"
	       PRIx32 "\n", o->packet_tag, o->ctrl);
	printf("    NOC_AT_LEN_BE     +0x20 0x%08" PRIx32 "   NOC_AT_DATA       +0x%02x 0x%08"
	       PRIx32 "\n", o->at_len_be, bh ? 0x28 : 0x24, o->at_data);
}

static const char *const cnt_names[64] = {
	[DRM_VATOM_NOC_MST_ATOMIC_RESP_RECEIVED] = "ATOMIC_RESP_RECEIVED",
	[DRM_VATOM_NOC_MST_CMD_ACCEPTED] = "CMD_ACCEPTED",
	[DRM_VATOM_NOC_MST_NONPOSTED_ATOMIC_SENT] = "NONPOSTED_ATOMIC_SENT",
	[DRM_VATOM_NOC_MST_POSTED_ATOMIC_SENT] = "POSTED_ATOMIC_SENT",
	[DRM_VATOM_NOC_MST_NONPOSTED_ATOMIC_STARTED] = "NONPOSTED_ATOMIC_STARTED",
	[DRM_VATOM_NOC_SLV_ATOMIC_RESP_SENT] = "SLV_ATOMIC_RESP_SENT",
	[DRM_VATOM_NOC_SLV_REQ_ACCEPTED] = "SLV_REQ_ACCEPTED",
	[DRM_VATOM_NOC_SLV_NONPOSTED_ATOMIC_RECEIVED] = "SLV_NONPOSTED_ATOMIC_RECEIVED",
	[DRM_VATOM_NOC_SLV_POSTED_ATOMIC_RECEIVED] = "SLV_POSTED_ATOMIC_RECEIVED",
};

static int demo_profile(struct vatom_device *dev, unsigned int profile,
			unsigned int *checked, unsigned int *mismatches)
{
	const bool bh = profile == DRM_VATOM_NOC_PROFILE_BLACKHOLE;
	struct drm_vatom_tile_grid_desc gd = {
		.profile = profile, .width = GRID_W, .height = GRID_H,
		.l1_size = { L1_TENSIX, L1_ETH, 0, 0 },
		.tile_types = (uintptr_t)grid_types,
	};
	struct demo_req reqs[NREQ_MAX];
	struct vatom_noc_req enc[NREQ_MAX];
	struct vatom_surface *grid = NULL;
	struct vatom_batch *b = NULL;
	struct model m = { 0 };
	uint32_t idx, reason, c[64], old[64];
	unsigned int n, i, k, t, x, y;
	uint8_t *mem = NULL;
	uint64_t size;
	int ret;

	printf("\n== %s: %u x %u grid (T T E / T D T), Tensix L1 %u, Ethernet L1 %u ==\n",
	       bh ? "Blackhole" : "Wormhole", GRID_W, GRID_H, L1_TENSIX, L1_ETH);
	ret = vatom_surface_create_tile_grid(dev, &gd, &grid);
	if (!ret)
		ret = vatom_surface_map(grid, (void **)&mem);
	if (!ret)
		ret = vatom_batch_create(dev, 0, &b);
	if (!ret)
		ret = vatom_batch_bind(b, SLOT, grid);
	if (ret) {
		fprintf(stderr, "demo noc: setup failed: %s\n", strerror(-ret));
		goto out;
	}
	size = vatom_surface_size(grid);
	model_layout(&m);
	if (size != m.l1_off[TILES - 1] + m.l1_size[TILES - 1]) {
		fprintf(stderr, "demo noc: surface is %" PRIu64 " bytes, model says %" PRIu64
			"\n", size, m.l1_off[TILES - 1] + m.l1_size[TILES - 1]);
		ret = -1;
		goto out;
	}
	for (i = 0; i < ARRAY_SIZE(seeds); i++) {
		ret = vatom_noc_l1_write32(grid, seeds[i].x, seeds[i].y,
					   seeds[i].addr, seeds[i].value);
		if (ret) {
			fprintf(stderr, "demo noc: seeding L1: %s\n", strerror(-ret));
			goto out;
		}
	}
	m.mem = malloc(size);
	if (!m.mem) {
		ret = -1;
		goto out;
	}
	memcpy(m.mem, mem, size);

	build_reqs(reqs, &n);
	for (i = 0, k = 0; i < n; i++) {
		if (reqs[i].bh_only && !bh)
			continue;
		reqs[k] = reqs[i];
		ret = encode(profile, &reqs[k], &enc[k]);
		if (!ret)
			ret = vatom_prep_noc(b, &enc[k]);
		if (ret < 0) {
			fprintf(stderr, "demo noc: request %u: %s\n", i, strerror(-ret));
			goto out;
		}
		printf("\n#%u %s%s\n", k, reqs[k].text,
		       reqs[k].marked ? ", response" : "");
		print_regs(profile, &enc[k]);
		model_request(&m, &reqs[k]);
		k++;
	}
	n = k;
	ret = vatom_batch_submit(b);
	if (ret) {
		vatom_batch_error(b, &idx, &reason);
		fprintf(stderr, "demo noc: submit failed: %s", strerror(-ret));
		if (reason)
			fprintf(stderr, " (packet %u: %s)", idx, vatom_strreason(reason));
		fprintf(stderr, "\n");
		goto out;
	}
	printf("\nsubmitted %u requests\n", n);

	printf("\nL1 word            before      after       expected\n");
	for (i = 0; i < ARRAY_SIZE(seeds); i++) {
		uint32_t got, want = *model_word(&m, seeds[i].x, seeds[i].y, seeds[i].addr);
		bool bad;

		vatom_noc_l1_read32(grid, seeds[i].x, seeds[i].y, seeds[i].addr, &got);
		bad = got != want;
		printf("  (%u,%u) 0x%03" PRIx32 "%s  0x%08" PRIx32 "  0x%08" PRIx32
		       "  0x%08" PRIx32 "%s\n", seeds[i].x, seeds[i].y, seeds[i].addr,
		       i >= ARRAY_SIZE(seeds) - 6 ? " resp" : "     ", seeds[i].value,
		       got, want, bad ? "  MISMATCH" : "");
	}

	printf("\nNIU counters, NoC 0 (non-zero)    after       expected\n");
	for (t = 0; t < TILES; t++) {
		x = t % GRID_W;
		y = t / GRID_W;
		ret = vatom_noc_counters_read(grid, x, y, 0, c, 64);
		if (ret) {
			fprintf(stderr, "demo noc: counters: %s\n", strerror(-ret));
			goto out;
		}
		for (i = 0; i < 64; i++) {
			uint32_t want = model_cnt(&m, x, y)[i];
			char name[40];

			if (!c[i] && !want)
				continue;
			if (i >= 16 && i < 32)
				snprintf(name, sizeof(name), "REQS_OUTSTANDING_ID(%u)", i - 16);
			else
				snprintf(name, sizeof(name), "%s",
					 cnt_names[i] ? cnt_names[i] : "?");
			printf("  (%u,%u) %-29s %10" PRIu32 "  %10" PRIu32 "%s\n", x, y,
			       name, c[i], want, c[i] != want ? "  MISMATCH" : "");
		}
	}

	/* Everything else: every byte of the surface, counters included. */
	for (i = 0; i < size; i++) {
		(*checked)++;
		if (mem[i] != m.mem[i]) {
			if (*mismatches < 8)
				printf("  byte %u: 0x%02x, expected 0x%02x  MISMATCH\n",
				       i, mem[i], m.mem[i]);
			(*mismatches)++;
		}
	}

	/* The broadcast left 1 - 3 = 0xfe on ID 2: the per-ID clear. */
	ret = vatom_noc_counters_clear(grid, 0, 0, 0, 1u << 2, 0, old);
	if (!ret)
		ret = vatom_noc_counters_read(grid, 0, 0, 0, c, 64);
	if (ret) {
		fprintf(stderr, "demo noc: clear: %s\n", strerror(-ret));
		goto out;
	}
	printf("\nclear ID 2 at (0,0) (NIU_BASE + 0x%x): REQS_OUTSTANDING_ID(2) 0x%02" PRIx32
	       " -> 0x%02" PRIx32 " (expected 0xfe -> 0x00)\n", bh ? 0x60 : 0x50,
	       old[18], c[18]);
	*checked += 2;
	*mismatches += (old[18] != 0xfe) + (c[18] != 0);
	ret = 0;
out:
	free(m.mem);
	vatom_batch_destroy(b);
	vatom_surface_destroy(grid);
	return ret;
}

int demo_noc(const struct tool_opts *o, int argc, char **argv)
{
	unsigned int checked = 0, mismatches = 0;
	struct vatom_device *dev = NULL;
	int ret;

	(void)argc;
	(void)argv;
	if (tool_open_device(o, &dev))
		return 1;
	printf("== vatom demo noc: NoC atomics on %s ==\n", vatom_device_node(dev));
	ret = demo_profile(dev, DRM_VATOM_NOC_PROFILE_WORMHOLE, &checked, &mismatches);
	if (!ret)
		ret = demo_profile(dev, DRM_VATOM_NOC_PROFILE_BLACKHOLE, &checked,
				   &mismatches);
	vatom_device_close(dev);
	if (ret)
		return 1;
	printf("\ndemo noc: %s (%u values checked, %u mismatches)\n",
	       mismatches ? "FAILED" : "OK", checked, mismatches);
	return mismatches ? 1 : 0;
}
