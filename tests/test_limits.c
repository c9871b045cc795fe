// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The bounds of one submission's work (struct vatom_exec_ctl): the cost of
 * a stream in element operations and the packet at which it passes a
 * limit, and where validation and execution stop when told to. Costs and
 * stopping points are worked out by hand from the rules (a vISA packet
 * costs its lanes, a PTX packet its vector elements, a NoC broadcast every
 * tile of its grid; a checkpoint every 256 packets or 16384 operations).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vatom_engine.h"
#include "tile_grid.h"
#include "vt_test.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define S_BUF	1
#define S_GRID	2

/* A 16 x 8 grid of Tensix tiles: a whole-grid broadcast has 128 recipients. */
#define GRID_W	16
#define GRID_H	8

static u8 mem[4096] __attribute__((aligned(16)));
static u8 res[16384] __attribute__((aligned(16)));
static struct vatom_surface_view buf_view, grid_view;
static struct vatom_tile_grid grid;
static u8 *grid_mem;
static struct vatom_bindings bind;
static u64 stream[16384];

static void setup(void)
{
	struct drm_vatom_tile_grid_desc d = {
		.profile = DRM_VATOM_NOC_PROFILE_BLACKHOLE,
		.width = GRID_W, .height = GRID_H,
	};
	u8 types[GRID_W * GRID_H];

	memset(types, DRM_VATOM_TILE_TENSIX, sizeof(types));
	d.l1_size[DRM_VATOM_TILE_TENSIX] = 256;
	if (vatom_tile_grid_layout_init(&grid, &d, types, 1 << 20))
		abort();
	free(grid_mem);
	grid_mem = aligned_alloc(16, (grid.size + 15) & ~15ull);
	memset(grid_mem, 0, grid.size);
	memset(mem, 0, sizeof(mem));
	grid_view = (struct vatom_surface_view){
		.vaddr = grid_mem, .size = grid.size,
		.kind = DRM_VATOM_SURFACE_TILE_GRID, .grid = &grid,
	};
	buf_view = (struct vatom_surface_view){
		.vaddr = mem, .size = sizeof(mem),
		.kind = DRM_VATOM_SURFACE_BUFFER,
	};
	memset(&bind, 0, sizeof(bind));
	bind.slot[S_BUF] = &buf_view;
	bind.slot[S_GRID] = &grid_view;
}

/* DWORD_ATOMIC.INC of 2^@code lanes (NoMask), every lane at offset 0. */
static void put_inc(u32 *pos, u32 code)
{
	u32 n = 1u << code;
	struct drm_vatom_visa h = {
		.hdr = { .type = DRM_VATOM_PACKET_VISA },
		.opcode = DRM_VATOM_VISA_DWORD_ATOMIC,
		.op = DRM_VATOM_VISA_OP_INC,
		.exec_size = (u8)(code | (8 << 4)),
		.surface = S_BUF, .type = DRM_VATOM_VISA_TYPE_UD,
		.operands = DRM_VATOM_VISA_OPND_ADDR | DRM_VATOM_VISA_OPND_DST,
	};
	u8 *p = (u8 *)stream + *pos;
	u32 asize = (4 * n + 7) & ~7u;

	h.hdr.size = sizeof(h) + asize;
	memcpy(p, &h, sizeof(h));
	memset(p + sizeof(h), 0, asize);	/* every lane's offset: 0 */
	*pos += h.hdr.size;
}

/* add.v4.u32-shaped PTX packet: add.v4.f32 of 0.0 at offset 16. */
static void put_ptx_v4(u32 *pos)
{
	struct drm_vatom_ptx p = {
		.hdr = { .type = DRM_VATOM_PACKET_PTX, .size = sizeof(p) },
		.op = DRM_VATOM_PTX_OP_ADD, .type = DRM_VATOM_PTX_TYPE_F32,
		.vec = 4, .space = DRM_VATOM_PTX_SPACE_GLOBAL, .slot = S_BUF,
		.addr = 16,
	};

	memcpy((u8 *)stream + *pos, &p, sizeof(p));
	*pos += sizeof(p);
}

/* Increment word 0 of every tile's L1 by 1: a whole-grid broadcast. */
static void put_broadcast(u32 *pos)
{
	struct drm_vatom_noc p = {
		.hdr = { .type = DRM_VATOM_PACKET_NOC, .size = sizeof(p) },
		.slot = S_GRID,
		/* BH TARG_ADDR_HI: EndX [5:0], EndY [11:6], Start 0, 0. */
		.targ_addr_hi = (GRID_W - 1) | (GRID_H - 1) << 6,
		.ctrl = DRM_VATOM_NOC_CTRL_REQ_ATOMIC |
			DRM_VATOM_NOC_CTRL_BRCST_PACKET |
			DRM_VATOM_NOC_CTRL_BRCST_SRC_INCLUDE,
		/* INCR, IntWidth 31, Ofs 0 */
		.at_len_be = DRM_VATOM_NOC_AT_INCR << 12 | 31 << 2,
		.at_data = 1,
	};

	memcpy((u8 *)stream + *pos, &p, sizeof(p));
	*pos += sizeof(p);
}

static u32 tile_word0(u32 x, u32 y)
{
	u32 v;

	memcpy(&v, grid_mem + grid.l1_offset[y * GRID_W + x], 4);
	return v;
}

static u32 mem_word(u32 off)
{
	u32 v;

	memcpy(&v, mem + off, 4);
	return v;
}

/*
 * Ten SIMD4 increments (4 operations each), then five .v4 PTX adds (4
 * each), then two broadcasts (128 each): 40 + 20 + 256 = 316 in all.
 */
static u32 mixed_stream(void)
{
	u32 pos = 0, i;

	for (i = 0; i < 10; i++)
		put_inc(&pos, 2);
	for (i = 0; i < 5; i++)
		put_ptx_v4(&pos);
	put_broadcast(&pos);
	put_broadcast(&pos);
	return pos;
}

static const struct {
	u64 max_ops;
	int ret;
	u32 index;	/* of the first packet past the limit */
} limit_cases[] = {
	{ ~0ull, 0, 0 },
	{ 316, 0, 0 },
	{ 315, -E2BIG, 16 },	/* 60 + 128 = 188 fit, the second does not */
	{ 188, -E2BIG, 16 },
	{ 187, -E2BIG, 15 },	/* the first broadcast: 60 + 128 > 187 */
	{ 60, -E2BIG, 15 },
	{ 59, -E2BIG, 14 },	/* the last PTX packet: 56 + 4 > 59 */
	{ 40, -E2BIG, 10 },	/* the first PTX packet */
	{ 39, -E2BIG, 9 },	/* the last increment: 36 + 4 > 39 */
	{ 3, -E2BIG, 0 },
	{ 0, -E2BIG, 0 },
};

static void test_cost_limit(void)
{
	struct vatom_stream_error err;
	struct vatom_exec_ctl ctl = { 0 };
	u32 size, i;
	u64 need, ops;
	int ret;

	setup();
	size = mixed_stream();
	for (i = 0; i < ARRAY_SIZE(limit_cases); i++) {
		ctl.max_ops = limit_cases[i].max_ops;
		ret = vatom_stream_validate_ctl(stream, size, &bind, &ctl, &need,
						&ops, &err);
		VT_EXPECT_EQ_MSG(ret, limit_cases[i].ret, "max_ops %llu",
				 (unsigned long long)ctl.max_ops);
		if (ret) {
			VT_EXPECT_EQ(err.reason, DRM_VATOM_ERR_OPS_LIMIT);
			VT_EXPECT_EQ_MSG(err.index, limit_cases[i].index,
					 "max_ops %llu",
					 (unsigned long long)ctl.max_ops);
			VT_EXPECT_EQ(ops, 0);
			VT_EXPECT_EQ(need, 0);
		} else {
			VT_EXPECT_EQ(ops, 316);
			VT_EXPECT_EQ(need, 10 * 16 + 5 * 16);
		}
	}
	/* The empty stream costs nothing, whatever the limit. */
	ctl.max_ops = 0;
	VT_EXPECT_EQ(vatom_stream_validate_ctl(stream, 0, &bind, &ctl, &need,
					       &ops, &err), 0);
	VT_EXPECT_EQ(ops, 0);
	VT_EXPECT_EQ(vatom_errno(DRM_VATOM_ERR_OPS_LIMIT), -E2BIG);
}

/*
 * A stream of one packet takes a shorter path through the walker: the
 * same cost, limit, results and effect as in a longer stream (above).
 * Each packet alone, with a limit of its cost (accepted) and one less.
 */
static const struct {
	const char *name;
	void (*put)(u32 *pos);
	u32 family;
	u64 cost;	/* its element operations */
	u64 results;	/* bytes */
} one_cases[] = {
	{ "SIMD4 increment", NULL, VATOM_FAMILY_VISA, 4, 16 },
	{ "PTX add.v4.f32", put_ptx_v4, VATOM_FAMILY_PTX, 4, 16 },
	{ "broadcast", put_broadcast, VATOM_FAMILY_NOC, GRID_W * GRID_H, 0 },
};

static void test_one_packet(void)
{
	struct vatom_stream_error err;
	struct vatom_exec_ctl ctl = { 0 };
	struct vatom_stats st;
	u32 i, k, pos, bad;
	u64 need, ops;

	for (i = 0; i < ARRAY_SIZE(one_cases); i++) {
		setup();
		pos = 0;
		if (one_cases[i].put)
			one_cases[i].put(&pos);
		else
			put_inc(&pos, 2);
		ctl.max_ops = one_cases[i].cost - 1;
		VT_EXPECT_EQ_MSG(vatom_stream_validate_ctl(stream, pos, &bind, &ctl,
							   &need, &ops, &err),
				 -E2BIG, "%s", one_cases[i].name);
		VT_EXPECT_EQ(err.reason, DRM_VATOM_ERR_OPS_LIMIT);
		VT_EXPECT_EQ(err.index, 0);
		VT_EXPECT_EQ(ops, 0);
		VT_EXPECT_EQ(need, 0);

		ctl.max_ops = one_cases[i].cost;
		VT_EXPECT_EQ_MSG(vatom_stream_validate_ctl(stream, pos, &bind, &ctl,
							   &need, &ops, &err),
				 0, "%s", one_cases[i].name);
		VT_EXPECT_EQ(err.reason, DRM_VATOM_ERR_NONE);
		VT_EXPECT_EQ_MSG(ops, one_cases[i].cost, "%s", one_cases[i].name);
		VT_EXPECT_EQ_MSG(need, one_cases[i].results, "%s",
				 one_cases[i].name);

		memset(&st, 0, sizeof(st));
		memset(res, 0xa5, 16);
		VT_EXPECT_EQ(vatom_stream_execute_ctl(stream, pos, &bind, res,
						      &st, &ctl), 0);
		for (k = 0; k < VATOM_FAMILY_COUNT; k++) {
			VT_EXPECT_EQ_MSG(st.packets[k], k == one_cases[i].family,
					 "%s", one_cases[i].name);
			VT_EXPECT_EQ_MSG(st.elements[k], k == one_cases[i].family ?
					 one_cases[i].cost : 0, "%s",
					 one_cases[i].name);
		}
		switch (one_cases[i].family) {
		case VATOM_FAMILY_VISA:
			/* Four lanes increment word 0: old values 0, 1, 2, 3. */
			VT_EXPECT_EQ(mem_word(0), 4);
			for (k = 0, bad = 0; k < 4; k++)
				bad += ((u32 *)res)[k] != k;
			VT_EXPECT_EQ(bad, 0);
			break;
		case VATOM_FAMILY_PTX:
			/* Adds 0.0 to the zeros at 16: old values, all 0. */
			for (k = 0, bad = 0; k < 4; k++)
				bad += ((u32 *)res)[k] != 0 || mem_word(16 + 4 * k);
			VT_EXPECT_EQ(bad, 0);
			break;
		default:
			for (k = 0, bad = 0; k < GRID_W * GRID_H; k++)
				bad += tile_word0(k % GRID_W, k / GRID_W) != 1;
			VT_EXPECT_EQ(bad, 0);
			break;
		}
	}
}

/* A stop() that says stop at its @stop_at-th call (0: never). */
struct counting_ctl {
	struct vatom_exec_ctl ctl;
	u32 calls;
	u32 stop_at;
};

static bool counting_stop(const struct vatom_exec_ctl *ctl)
{
	struct counting_ctl *c = (struct counting_ctl *)ctl;

	return ++c->calls == c->stop_at;
}

static const struct {
	const char *name;
	bool broadcast;		/* else SIMD1 increments */
	u32 packets;
	u32 stop_at;
	u32 ran;		/* packets executed */
	u32 calls;		/* checkpoints reached */
} stop_cases[] = {
	/* 256 packets per checkpoint */
	{ "increments, never stopped", false, 1000, 0, 1000, 3 },
	{ "increments, stopped at the 1st", false, 1000, 1, 256, 1 },
	{ "increments, stopped at the 3rd", false, 1000, 3, 768, 3 },
	{ "increments, a checkpoint at the end is not one", false, 512, 2, 512, 1 },
	/* 16384 / 128 = 128 broadcasts per checkpoint */
	{ "broadcasts, never stopped", true, 300, 0, 300, 2 },
	{ "broadcasts, stopped at the 1st", true, 300, 1, 128, 1 },
	{ "broadcasts, stopped at the 2nd", true, 300, 2, 256, 2 },
};

/* What the stats of test_execute_stops() hold before its calls. */
#define STATS_BEFORE		5
#define STOPPED_SENTINEL	0xa5

static void test_execute_stops(void)
{
	struct vatom_stats st, stopped, sentinel;
	struct vatom_stream_error err;
	struct counting_ctl c;
	u32 i, k, pos, bad, fam;
	u64 elems;
	u64 need, ops;
	int ret;

	for (i = 0; i < ARRAY_SIZE(stop_cases); i++) {
		setup();
		pos = 0;
		for (k = 0; k < stop_cases[i].packets; k++) {
			if (stop_cases[i].broadcast)
				put_broadcast(&pos);
			else
				put_inc(&pos, 0);
		}
		VT_EXPECT_EQ(vatom_stream_validate(stream, pos, &bind, &need,
						   &err), 0);
		memset(&c, 0, sizeof(c));
		/*
		 * Stats accumulate over calls (a queue batch's): start from
		 * STATS_BEFORE. What a stopped call ran is its own, written
		 * only when it stops: anything else leaves the sentinel.
		 */
		for (k = 0; k < VATOM_FAMILY_COUNT; k++) {
			st.packets[k] = STATS_BEFORE;
			st.elements[k] = STATS_BEFORE;
		}
		memset(&stopped, STOPPED_SENTINEL, sizeof(stopped));
		c.ctl.stop = counting_stop;
		c.ctl.stopped = &stopped;
		c.stop_at = stop_cases[i].stop_at;
		ret = vatom_stream_execute_ctl(stream, pos, &bind, res, &st,
					       &c.ctl);
		VT_EXPECT_EQ_MSG(ret, stop_cases[i].ran == stop_cases[i].packets ?
				 0 : -ECANCELED, "%s", stop_cases[i].name);
		VT_EXPECT_EQ_MSG(c.calls, stop_cases[i].calls, "%s",
				 stop_cases[i].name);
		fam = stop_cases[i].broadcast ? VATOM_FAMILY_NOC : VATOM_FAMILY_VISA;
		elems = stop_cases[i].broadcast ? GRID_W * GRID_H : 1;
		VT_EXPECT_EQ_MSG(st.packets[fam], STATS_BEFORE + stop_cases[i].ran,
				 "%s", stop_cases[i].name);
		VT_EXPECT_EQ_MSG(st.elements[fam],
				 STATS_BEFORE + (u64)stop_cases[i].ran * elems,
				 "%s", stop_cases[i].name);
		if (ret) {
			for (k = 0; k < VATOM_FAMILY_COUNT; k++) {
				VT_EXPECT_EQ(stopped.packets[k],
					     k == fam ? stop_cases[i].ran : 0);
				VT_EXPECT_EQ(stopped.elements[k], k == fam ?
					     (u64)stop_cases[i].ran * elems : 0);
			}
		} else {
			memset(&sentinel, STOPPED_SENTINEL, sizeof(sentinel));
			VT_EXPECT_EQ_MSG(memcmp(&stopped, &sentinel,
						sizeof(stopped)), 0,
					 "%s: written though not stopped",
					 stop_cases[i].name);
		}
		if (stop_cases[i].broadcast) {
			bad = 0;
			for (k = 0; k < GRID_W * GRID_H; k++)
				bad += tile_word0(k % GRID_W, k / GRID_W) !=
				       stop_cases[i].ran;
			VT_EXPECT_EQ_MSG(bad, 0, "%s", stop_cases[i].name);
		} else {
			/* Whole packets only: the word counts them. */
			VT_EXPECT_EQ_MSG(mem_word(0), stop_cases[i].ran, "%s",
					 stop_cases[i].name);
		}
		/* No stats wanted: the same stop, the same effect again. */
		c.calls = 0;
		ret = vatom_stream_execute_ctl(stream, pos, &bind, res, NULL,
					       &c.ctl);
		VT_EXPECT_EQ_MSG(ret, stop_cases[i].ran == stop_cases[i].packets ?
				 0 : -ECANCELED, "%s, no stats", stop_cases[i].name);
		if (!stop_cases[i].broadcast)
			VT_EXPECT_EQ_MSG(mem_word(0), 2 * stop_cases[i].ran,
					 "%s, no stats", stop_cases[i].name);
		/* Validation costs the same and stops at the same place. */
		memset(&c, 0, sizeof(c));
		c.ctl.stop = counting_stop;
		c.ctl.max_ops = ~0ull;
		c.stop_at = stop_cases[i].stop_at;
		ret = vatom_stream_validate_ctl(stream, pos, &bind, &c.ctl,
						&need, &ops, &err);
		if (stop_cases[i].ran < stop_cases[i].packets) {
			VT_EXPECT_EQ_MSG(ret, -EINTR, "%s", stop_cases[i].name);
			VT_EXPECT_EQ(err.reason, DRM_VATOM_ERR_NONE);
		} else {
			VT_EXPECT_EQ(ret, 0);
			VT_EXPECT_EQ(ops, (u64)stop_cases[i].packets *
				     (stop_cases[i].broadcast ? GRID_W * GRID_H : 1));
		}
	}
}

int main(void)
{
	vt_run(test_cost_limit, "cost of a stream, and the packet past the limit");
	vt_run(test_execute_stops, "execution and validation stop at checkpoints");
	vt_run(test_one_packet, "a stream of one packet: cost, limit, results, effect");
	free(grid_mem);
	return vt_done();
}
