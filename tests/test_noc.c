// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Tenstorrent NoC atomics on the Wormhole and Blackhole profiles: every
 * NOC_AT_LEN_BE variant (encodings from the spec's ready-made table §1.3
 * and hand-built from the §1.2 layouts), IntWidth corners, Ofs naming
 * another word than T, swap masks, every parallel-add Fmt, unicast and
 * broadcast (torus wrap, SRC_INCLUDE), the §5.3 counter life cycle and
 * every rejected encoding and target. Expected values are worked out by
 * hand; none comes from the engine.
 *
 * Register images are written here from the spec's bit positions (not the
 * UAPI constants): WH TARG_ADDR_MID X [9:4] Y [15:10] StartX [21:16]
 * StartY [27:22]; BH TARG_ADDR_HI X [5:0] Y [11:6] StartX [17:12]
 * StartY [23:18]; CTRL atomic = 1, RESP_MARKED bit 4, BRCST bit 5,
 * SRC_INCLUDE bit 17; PACKET_TAG id [13:10].
 */
#include <pthread.h>
#include <stdlib.h>
#include "vt_host.h"
#include "vt_test.h"
#include "vatom_engine.h"
#include "tile_grid.h"

#define WH	0
#define BH	1
#define T	DRM_VATOM_TILE_TENSIX
#define E	DRM_VATOM_TILE_ETHERNET
#define D	DRM_VATOM_TILE_DRAM
#define P	DRM_VATOM_TILE_PCIE

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define SLOT		1
#define TENSIX_L1	256
#define ETH_L1		64

#define CTRL_AT		0x1u
#define CTRL_MARKED	0x10u
#define CTRL_BRCST	0x20u
#define CTRL_SRC_INC	0x20000u

/* Counter indices (§5.3). */
#define RESP_RECEIVED	0
#define CMD_ACCEPTED	4
#define NP_SENT		6
#define POSTED_SENT	7
#define NP_STARTED	15
#define OUTSTANDING(i)	(16 + (i))
#define SLV_RESP_SENT	48
#define SLV_ACCEPTED	52
#define SLV_NP_RECV	54
#define SLV_POSTED_RECV	55

/*
 * The 4 x 3 grid used by most tests (x across, y down):
 *	y=0: T T E D
 *	y=1: T T T P
 *	y=2: T E T T
 */
static const u8 grid43[12] = { T, T, E, D, T, T, T, P, T, E, T, T };

static struct vatom_tile_grid g;
static u8 *mem;
static struct vatom_surface_view view;
static struct vatom_surface_view bufview;
static struct vatom_bindings bind;
static u32 prof;

static void setup(u32 profile)
{
	struct drm_vatom_tile_grid_desc d = {
		.profile = profile, .width = 4, .height = 3,
	};

	d.l1_size[T] = TENSIX_L1;
	d.l1_size[E] = ETH_L1;
	prof = profile;
	if (vatom_tile_grid_layout_init(&g, &d, grid43, 1 << 20))
		abort();
	free(mem);
	mem = aligned_alloc(16, (g.size + 15) & ~15ull);
	memset(mem, 0, g.size);
	view.vaddr = mem;
	view.size = g.size;
	view.kind = DRM_VATOM_SURFACE_TILE_GRID;
	view.grid = &g;
	bufview = view;
	bufview.kind = DRM_VATOM_SURFACE_BUFFER;
	bufview.grid = NULL;
	bind.slot[SLOT] = &view;
	bind.slot[2] = &bufview;
}

static u32 *l1(u32 x, u32 y, u32 off)
{
	return (u32 *)(mem + g.l1_offset[y * g.width + x] + off);
}

static u32 cnt(u32 x, u32 y, u32 noc, u32 idx)
{
	return vatom_tile_counters(&g, mem, x, y, noc)[idx];
}

/* A posted unicast from (ix, iy) to (tx, ty) at T with AT_LEN_BE/AT_DATA. */
static struct drm_vatom_noc req(u32 ix, u32 iy, u32 tx, u32 ty, u32 targ,
				u32 at, u32 data)
{
	struct drm_vatom_noc p;

	memset(&p, 0, sizeof(p));
	p.hdr.type = DRM_VATOM_PACKET_NOC;
	p.hdr.size = sizeof(p);
	p.slot = SLOT;
	p.x = ix;
	p.y = iy;
	p.targ_addr_lo = targ;
	if (prof == WH)
		p.targ_addr_mid = tx << 4 | ty << 10;
	else
		p.targ_addr_hi = tx | ty << 6;
	p.ctrl = CTRL_AT;
	p.at_len_be = at;
	p.at_data = data;
	return p;
}

static void mark(struct drm_vatom_noc *p, u32 rx, u32 ry, u32 ret, u32 id)
{
	p->ctrl |= CTRL_MARKED;
	p->ret_addr_lo = ret;
	if (prof == WH)
		p->ret_addr_mid = rx << 4 | ry << 10;
	else
		p->ret_addr_hi = rx | ry << 6;
	p->packet_tag = id << 10;
}

static void brcst(struct drm_vatom_noc *p, u32 sx, u32 sy, u32 ex, u32 ey)
{
	p->ctrl |= CTRL_BRCST;
	if (prof == WH)
		p->targ_addr_mid = ex << 4 | ey << 10 | sx << 16 | sy << 22;
	else
		p->targ_addr_hi = ex | ey << 6 | sx << 12 | sy << 18;
}

static u32 check(const struct drm_vatom_noc *p)
{
	u64 rb = 0xdead;
	u32 r = vatom_noc_validate(p, &bind, &rb);

	VT_EXPECT_EQ(rb, 0);
	return r;
}

/* Validate (must pass) and execute; returns the recipient count. */
static u64 exec(const struct drm_vatom_noc *p)
{
	VT_EXPECT_EQ(check(p), 0);
	return vatom_noc_execute(p, &bind, NULL);
}

static void set_block(u32 x, u32 y, u32 off, u32 w0, u32 w1, u32 w2, u32 w3)
{
	u32 *w = l1(x, y, off);

	w[0] = w0;
	w[1] = w1;
	w[2] = w2;
	w[3] = w3;
}

static void expect_block(u32 x, u32 y, u32 off, u32 w0, u32 w1, u32 w2,
			 u32 w3, const char *what)
{
	u32 *w = l1(x, y, off);

	VT_EXPECT_EQ_MSG(w[0], w0, "%s word 0", what);
	VT_EXPECT_EQ_MSG(w[1], w1, "%s word 1", what);
	VT_EXPECT_EQ_MSG(w[2], w2, "%s word 2", what);
	VT_EXPECT_EQ_MSG(w[3], w3, "%s word 3", what);
}

/*
 * One marked unicast from (0, 0) to tile (1, 1) on block 0x20, response
 * to (0, 0) at 0x80: checks the block afterwards and the Result.
 */
static void one(u32 at, u32 data, u32 targ, const u32 in[4], const u32 out[4],
		u32 result, const char *what)
{
	struct drm_vatom_noc p = req(0, 0, 1, 1, targ, at, data);

	mark(&p, 0, 0, 0x80, 0);
	set_block(1, 1, 0x20, in[0], in[1], in[2], in[3]);
	*l1(0, 0, 0x80) = 0xdddddddd;
	VT_EXPECT_EQ_MSG(exec(&p), 1, "%s", what);
	expect_block(1, 1, 0x20, out[0], out[1], out[2], out[3], what);
	VT_EXPECT_EQ_MSG(*l1(0, 0, 0x80), result, "%s Result", what);
}

static void test_opcode_masks(void)
{
	/* WH: 1 3 4 6 7; BH adds 9 and 0xa. */
	VT_EXPECT_EQ(vatom_noc_opcodes_mask(WH), 0xda);
	VT_EXPECT_EQ(vatom_noc_opcodes_mask(BH), 0x6da);
	VT_EXPECT_EQ(vatom_noc_opcodes_mask(2), 0);
}

static void test_uapi_constants(void)
{
	/* The shared constants agree with the spec's numbers. */
	VT_EXPECT_EQ(DRM_VATOM_NOC_CTRL_RESP_MARKED, CTRL_MARKED);
	VT_EXPECT_EQ(DRM_VATOM_NOC_CTRL_BRCST_PACKET, CTRL_BRCST);
	VT_EXPECT_EQ(DRM_VATOM_NOC_CTRL_BRCST_SRC_INCLUDE, CTRL_SRC_INC);
	VT_EXPECT_EQ(DRM_VATOM_NOC_CTRL_L1_ACC_AT_EN, 0x80000000u);
	VT_EXPECT_EQ(DRM_VATOM_NOC_TAG_TXN_ID_MASK, 0x3c00);
	VT_EXPECT_EQ(DRM_VATOM_NOC_MST_REQS_OUTSTANDING_ID(15), 31);
	VT_EXPECT_EQ(DRM_VATOM_NOC_SLV_POSTED_ATOMIC_RECEIVED, SLV_POSTED_RECV);
	VT_EXPECT_EQ(DRM_VATOM_NOC_MST_NONPOSTED_ATOMIC_STARTED, NP_STARTED);
	VT_EXPECT_EQ(DRM_VATOM_NOC_AT_OPCODE_MASK, 0xf000);
	VT_EXPECT_EQ(DRM_VATOM_NOC_WH_MID_START_Y_SHIFT, 22);
	VT_EXPECT_EQ(DRM_VATOM_NOC_BH_HI_START_Y_SHIFT, 18);
}

/*
 * One marked unicast (see one()): AT_LEN_BE and AT_DATA of the request,
 * the block address T, the block before and after, and the Result.
 */
struct at_case {
	const char *what;
	u32 at, data, targ, result;
	u32 in[4], out[4];
};

#define BLK_IN	{ 0x11111111, 0xffffffff, 0x33333333, 0x44444444 }

/*
 * Which profiles a table of cases runs on (bit n: profile n); opcodes 9 and
 * 0xa are Blackhole's only.
 */
#define ON_WH	0x1u
#define ON_BH	0x2u

static void check_at_cases(const struct at_case *c, u32 count, u32 profiles)
{
	u32 pr, i;

	for (pr = WH; pr <= BH; pr++) {
		if (!(profiles & (1u << pr)))
			continue;
		setup(pr);
		for (i = 0; i < count; i++)
			one(c[i].at, c[i].data, c[i].targ, c[i].in, c[i].out,
			    c[i].result, c[i].what);
	}
}

static const struct at_case inc_cases[] = {
	/* §1.3: full 32-bit increment of word 1, Ofs 1: 0x107d. */
	{ "inc full word 1", 0x107d, 2, 0x24, 0xffffffff,
	  BLK_IN,
	  { 0x11111111, 0x00000001, 0x33333333, 0x44444444 } },
	/* §1.3: low 8 bits, word 0: 0x101c. Carry out is dropped. */
	{ "inc IntWidth 7", 0x101c, 1, 0x20, 0x123456ff,
	  { 0x123456ff, 0, 0, 0 },
	  { 0x12345600, 0, 0, 0 } },
	/* D bits above the field do not carry in either. */
	{ "inc IntWidth 7 D>8b", 0x101c, 0x101, 0x20, 0x123456ff,
	  { 0x123456ff, 0, 0, 0 },
	  { 0x12345600, 0, 0, 0 } },
	/* IntWidth 0: mask 1. */
	{ "inc IntWidth 0", 0x1000, 3, 0x20, 0xfffffffe,
	  { 0xfffffffe, 0, 0, 0 },
	  { 0xffffffff, 0, 0, 0 } },
	/* IntWidth 15: 0x103c. */
	{ "inc IntWidth 15", 0x103c, 1, 0x20, 0xabcdffff,
	  { 0xabcdffff, 0, 0, 0 },
	  { 0xabcd0000, 0, 0, 0 } },
	/* IntWidth 30: mask 0x7fffffff, bit 31 kept: 0x1078. */
	{ "inc IntWidth 30", 0x1078, 1, 0x20, 0x7fffffff,
	  { 0x7fffffff, 0xffffffff, 0, 0 },
	  { 0x00000000, 0xffffffff, 0, 0 } },
	{ "inc IntWidth 30 top", 0x1078, 1, 0x20, 0xffffffff,
	  { 0xffffffff, 0, 0, 0 },
	  { 0x80000000, 0, 0, 0 } },
	/* IntWidth 31, Ofs 0: 0x107c, plain wrap. */
	{ "inc IntWidth 31", 0x107c, 3, 0x20, 0xfffffffe,
	  { 0xfffffffe, 0, 0, 0 },
	  { 0x00000001, 0, 0, 0 } },
	/* Ofs 2 while T names word 0: Result is word 0's value. */
	{ "inc Ofs != T", 0x107e, 1, 0x20, 0x11111111,
	  BLK_IN,
	  { 0x11111111, 0xffffffff, 0x33333334, 0x44444444 } },
	/* T not 4-byte aligned: Result is W(T & ~3) = word 1. */
	{ "inc T misaligned", 0x107f, 1, 0x26, 0xffffffff,
	  BLK_IN,
	  { 0x11111111, 0xffffffff, 0x33333333, 0x44444445 } },
	/* Bits outside the fields are ignored. */
	{ "inc with junk bits", 0xffff0f80 | 0x107d, 2, 0x24, 0xffffffff,
	  BLK_IN,
	  { 0x11111111, 0x00000001, 0x33333333, 0x44444444 } },
};

static void test_increment(void)
{
	check_at_cases(inc_cases, ARRAY_SIZE(inc_cases), ON_WH | ON_BH);
}

static const struct at_case cas_cases[] = {
	/* §1.3: compare 5, set 9, word 0: 0x4254. */
	{ "cas hit", 0x4254, 0xdeadbeef, 0x20, 5,
	  { 5, 7, 7, 7 },
	  { 9, 7, 7, 7 } },
	/* CmpVal is compared with the whole word. */
	{ "cas miss", 0x4254, 0, 0x20, 0x15,
	  { 0x15, 7, 7, 7 },
	  { 0x15, 7, 7, 7 } },
	/* Ofs 3, compare 0 set 15: 0x43c3; T names word 1. */
	{ "cas Ofs 3", 0x43c3, 0, 0x24, 2,
	  { 1, 2, 3, 0 },
	  { 1, 2, 3, 15 } },
	/* Bits 10, 11 and 16..31 ignored. */
	{ "cas junk bits", 0xffff4e54, 0, 0x20, 5,
	  { 5, 7, 7, 7 },
	  { 9, 7, 7, 7 } },
};

static void test_cas(void)
{
	check_at_cases(cas_cases, ARRAY_SIZE(cas_cases), ON_WH | ON_BH);
}

/* Mask bit i selects half-word i of the block (i = 0: word 0 low). */
static const struct at_case swap_mask_cases[] = {
	/* §1.3: Mask 0x0c = half-words 2, 3 = word 1: 0x3030. */
	{ "mask 0x0c", 0x3030, 0xbbbbaaaa, 0x24, 0xffffffff,
	  BLK_IN,
	  { 0x11111111, 0xbbbbaaaa, 0x33333333, 0x44444444 } },
	/* Bits [1:0] are unused. */
	{ "mask 0x0c junk", 0x3033, 0xbbbbaaaa, 0x24, 0xffffffff,
	  BLK_IN,
	  { 0x11111111, 0xbbbbaaaa, 0x33333333, 0x44444444 } },
	{ "mask 0xff", 0x33fc, 0xbbbbaaaa, 0x2c, 0x44444444,
	  BLK_IN,
	  { 0xbbbbaaaa, 0xbbbbaaaa, 0xbbbbaaaa, 0xbbbbaaaa } },
	{ "mask 0x01", 0x3004, 0xbbbbaaaa, 0x20, 0x11111111,
	  BLK_IN,
	  { 0x1111aaaa, 0xffffffff, 0x33333333, 0x44444444 } },
	/* Mask 0x82: half 1 (word 0 high) and half 7 (word 3 high). */
	{ "mask 0x82", 0x3208, 0xbbbbaaaa, 0x28, 0x33333333,
	  BLK_IN,
	  { 0xbbbb1111, 0xffffffff, 0x33333333, 0xbbbb4444 } },
	/* Mask 0x14: half 2 (word 1 low), half 4 (word 2 low). */
	{ "mask 0x14", 0x3050, 0xbbbbaaaa, 0x20, 0x11111111,
	  BLK_IN,
	  { 0x11111111, 0xffffaaaa, 0x3333aaaa, 0x44444444 } },
	{ "mask 0", 0x3000, 0xbbbbaaaa, 0x20, 0x11111111,
	  BLK_IN,
	  BLK_IN },
};

static void test_swap_mask(void)
{
	check_at_cases(swap_mask_cases, ARRAY_SIZE(swap_mask_cases),
		       ON_WH | ON_BH);
}

static const struct at_case swap_index_cases[] = {
	/* §1.3: opcode 6, word 2: 0x6006. */
	{ "swap6 word 2", 0x6006, 0xcafef00d, 0x28, 0x33333333,
	  BLK_IN,
	  { 0x11111111, 0xffffffff, 0xcafef00d, 0x44444444 } },
	{ "swap6 T word 0", 0x6006, 0xcafef00d, 0x20, 0x11111111,
	  BLK_IN,
	  { 0x11111111, 0xffffffff, 0xcafef00d, 0x44444444 } },
	/* §1.3: opcode 7, word 2: 0x7008; bits [1:0] unused. */
	{ "swap7 word 2", 0x7008, 0xcafef00d, 0x28, 0x33333333,
	  BLK_IN,
	  { 0x11111111, 0xffffffff, 0xcafef00d, 0x44444444 } },
	{ "swap7 junk [1:0]", 0x700b, 0xcafef00d, 0x24, 0xffffffff,
	  BLK_IN,
	  { 0x11111111, 0xffffffff, 0xcafef00d, 0x44444444 } },
	{ "swap7 Ofs 0", 0x7003, 0xcafef00d, 0x2c, 0x44444444,
	  BLK_IN,
	  { 0xcafef00d, 0xffffffff, 0x33333333, 0x44444444 } },
};

static const struct at_case swap10_cases[] = {
	/* §1.3: opcode 0xa, [11:8] = 3, word 3: 0xa303. */
	{ "swap10 word 3", 0xa303, 0xcafef00d, 0x2c, 0x44444444,
	  BLK_IN,
	  { 0x11111111, 0xffffffff, 0x33333333, 0xcafef00d } },
	{ "swap10 word 0", 0xa300, 0xcafef00d, 0x2c, 0x44444444,
	  BLK_IN,
	  { 0xcafef00d, 0xffffffff, 0x33333333, 0x44444444 } },
};

static void test_swap_index(void)
{
	check_at_cases(swap_index_cases, ARRAY_SIZE(swap_index_cases),
		       ON_WH | ON_BH);
	check_at_cases(swap10_cases, ARRAY_SIZE(swap10_cases), ON_BH);
}

static void test_zaamo(void)
{
	/* old = -16, D = 16: add xor or and min max minu maxu */
	static const u32 want[8] = {
		0x00000000, 0xffffffe0, 0xfffffff0, 0x00000010,
		0xfffffff0, 0x00000010, 0x00000010, 0xfffffff0,
	};
	/* old = 3, D = 5 */
	static const u32 want2[8] = { 8, 6, 7, 1, 3, 5, 3, 5 };
	u32 op;

	setup(BH);
	for (op = 0; op < 8; op++) {
		const u32 in[4] = { 0, 0xfffffff0, 3, 0 };
		u32 out[4] = { 0, 0xfffffff0, 3, 0 };

		out[1] = want[op];
		one(0xa800 | op << 8 | 1, 0x10, 0x24, in, out, 0xfffffff0, "zaamo");
		out[1] = 0xfffffff0;
		out[2] = want2[op];
		/* Ofs 2 while T names word 1. */
		one(0xa800 | op << 8 | 2, 5, 0x24, in, out, 0xfffffff0, "zaamo Ofs != T");
	}
	/* §1.3: amomaxu word 0 = 0xaf00. */
	{
		const u32 in[4] = { 7, 0, 0, 0 };
		const u32 out[4] = { 9, 0, 0, 0 };

		one(0xaf00, 9, 0x20, in, out, 7, "amomaxu 0xaf00");
	}
}

static const struct at_case acc_cases[] = {
	/* u32 wrapping: Fmt 4, 12, 13. */
	{ "acc u32 4", 0x9004, 1, 0x20, 1,
	  { 1, 0xffffffff, 0x80000000, 0 },
	  { 2, 0, 0x80000001, 1 } },
	{ "acc u32 12", 0x900c, 1, 0x24, 0xffffffff,
	  { 1, 0xffffffff, 0x80000000, 0 },
	  { 2, 0, 0x80000001, 1 } },
	{ "acc u32 13", 0x900d, 1, 0x28, 0x80000000,
	  { 1, 0xffffffff, 0x80000000, 0 },
	  { 2, 0, 0x80000001, 1 } },
	/* u8: bytes 10 ff 01 7f + D bytes 02 01 ff 80 (lane i: D byte i & 3). */
	{ "acc u8 saturating", 0x9007, 0x80ff0102, 0x20, 0x7f01ff10,
	  { 0x7f01ff10, 0x7f01ff10, 0x00000000, 0xffffffff },
	  { 0xffffff12, 0xffffff12, 0x80ff0102, 0xffffffff } },
	/* ff+02 = 101, ff+01 = 100, ff+ff = 1fe, ff+80 = 17f */
	{ "acc u8 wrapping", 0x900f, 0x80ff0102, 0x20, 0x7f01ff10,
	  { 0x7f01ff10, 0x7f01ff10, 0x00000000, 0xffffffff },
	  { 0xff000012, 0xff000012, 0x80ff0102, 0x7ffe0001 } },
	/* fp32, flushed inputs and output: D = -2^-126. */
	{ "acc fp32", 0x9000, 0x80800000, 0x20, 0x3f800000,
	  { 0x3f800000, 0x00800001, 0x00000001, 0x80000005 },
	  { 0x3f800000, 0x00000000, 0x80800000, 0x80800000 } },
	{ "acc fp32 8", 0x9008, 0x80800000, 0x24, 0x00800001,
	  { 0x3f800000, 0x00800001, 0x00000001, 0x80000005 },
	  { 0x3f800000, 0x00000000, 0x80800000, 0x80800000 } },
	/*
	 * fp32, subnormal D is flushed: x + 0. -0 + +0 = +0 when rounding
	 * to nearest.
	 */
	{ "acc fp32 D subnormal", 0x9000, 0x00000003, 0x20, 0x3f800000,
	  { 0x3f800000, 0x00000001, 0x80000001, 0x40000000 },
	  { 0x3f800000, 0x00000000, 0x00000000, 0x40000000 } },
	/*
	 * fp16: D = lo 1.0, hi 2.0; even halves get 1.0, odd 2.0. Halves
	 * 1, 1, 2^-24, 2^-24, -2^-14, 2, 65504, -inf become 2, 3, 1, 2, 1,
	 * 4, 65504, -inf.
	 */
	{ "acc fp16", 0x9001, 0x40003c00, 0x20, 0x3c003c00,
	  { 0x3c003c00, 0x00010001, 0x40008400, 0xfc007bff },
	  { 0x42004000, 0x40003c00, 0x44003c00, 0xfc007bff } },
	{ "acc fp16 9", 0x9009, 0x40003c00, 0x20, 0x3c003c00,
	  { 0x3c003c00, 0x00010001, 0x40008400, 0xfc007bff },
	  { 0x42004000, 0x40003c00, 0x44003c00, 0xfc007bff } },
	/*
	 * fp16 subnormal output flushes: (2^-14 + 2^-24) - 2^-14 = 2^-24.
	 * D = lo -2^-14, hi +2^-14. Word 0: lo 0x0401 + 0x8400 = 2^-24
	 * -> +0; hi 0x8401 + 0x0400 = -2^-24 -> -0. Zero words: D.
	 */
	{ "acc fp16 ftz out", 0x9001, 0x04008400, 0x20, 0x84010401,
	  { 0x84010401, 0, 0, 0 },
	  { 0x80000000, 0x04008400, 0x04008400, 0x04008400 } },
	/*
	 * bf16 (§1.3 0x9002): D = lo 1.0, hi 2.0. Halves 1, 1, 2^-133
	 * (subnormal), 3, 0, 0, 0, 0 become 2, 3, 1, 5, 1, 2, 1, 2.
	 */
	{ "acc bf16", 0x9002, 0x40003f80, 0x20, 0x3f803f80,
	  { 0x3f803f80, 0x40400001, 0, 0 },
	  { 0x40404000, 0x40a03f80, 0x40003f80, 0x40003f80 } },
	{ "acc bf16 10", 0x900a, 0x40003f80, 0x20, 0x3f803f80,
	  { 0x3f803f80, 0x40400001, 0, 0 },
	  { 0x40404000, 0x40a03f80, 0x40003f80, 0x40003f80 } },
};

static void test_acc(void)
{
	check_at_cases(acc_cases, ARRAY_SIZE(acc_cases), ON_BH);
}

/* Validates a unicast with each AT_LEN_BE of @at under the current profile. */
static void expect_opcodes(const u32 *at, u32 count, u32 want,
			   const char *what)
{
	struct drm_vatom_noc p;
	u32 i;

	for (i = 0; i < count; i++) {
		p = req(0, 0, 1, 1, 0x20, at[i], 0);
		VT_EXPECT_EQ_MSG(check(&p), want, "%s 0x%x", what, at[i]);
	}
}

static void test_reserved_opcodes(void)
{
	static const u32 both[] = {
		0x0000, 0x2000, 0x5000, 0x8000, 0xb000, 0xc000, 0xd000, 0xe000,
		0xf000, 0x6002, 0x6000, 0x6003,
	};
	static const u32 wh_only[] = { 0x9000, 0x9004, 0xa303, 0xaf00, 0x907d, 0xc07d };
	static const u32 bh_bad[] = {
		0xa000, 0xa100, 0xa200, 0xa400, 0xa700, 0xa003,
		0x9003, 0x9005, 0x9006, 0x900b, 0x900e,
	};
	static const u32 bh_ok[] = {
		0x9000, 0x9001, 0x9002, 0x9004, 0x9007, 0x9008, 0x9009, 0x900a,
		0x900c, 0x900d, 0x900f, 0xa300, 0xa800, 0xaf03, 0xfff0a303,
	};

	setup(WH);
	expect_opcodes(both, ARRAY_SIZE(both), DRM_VATOM_ERR_OP, "WH");
	expect_opcodes(wh_only, ARRAY_SIZE(wh_only), DRM_VATOM_ERR_OP, "WH");
	setup(BH);
	expect_opcodes(both, ARRAY_SIZE(both), DRM_VATOM_ERR_OP, "BH");
	expect_opcodes(bh_bad, ARRAY_SIZE(bh_bad), DRM_VATOM_ERR_OP, "BH");
	expect_opcodes(bh_ok, ARRAY_SIZE(bh_ok), 0, "BH");
}

#define REJ(mod, want) do {						\
		p = req(0, 0, 1, 1, 0x20, 0x107c, 1);			\
		mod;							\
		VT_EXPECT_EQ_MSG(check(&p), want, "%s prof %u", #mod, pr); \
	} while (0)

static void test_packet_rejects(void)
{
	struct drm_vatom_noc p;
	u32 pr;

	for (pr = 0; pr < 2; pr++) {
		setup(pr);
		REJ((void)0, 0);
		REJ(p.hdr.size = 56, DRM_VATOM_ERR_PACKET_SIZE);
		REJ(p.hdr.size = 72, DRM_VATOM_ERR_PACKET_SIZE);
		REJ(p.flags = 1, DRM_VATOM_ERR_RESERVED);
		REJ(p.pad[0] = 1, DRM_VATOM_ERR_RESERVED);
		REJ(p.pad[1] = 0x80000000, DRM_VATOM_ERR_RESERVED);
		REJ(p.slot = 3, DRM_VATOM_ERR_SLOT);
		REJ(p.slot = 2, DRM_VATOM_ERR_SURFACE_KIND);
		/* A view smaller than its layout (never made by the kernel). */
		REJ(view.size = g.size - 1, DRM_VATOM_ERR_BOUNDS);
		view.size = g.size;
		REJ(p.noc = 1, 0);
		REJ(p.noc = 2, DRM_VATOM_ERR_RESERVED);
		REJ(p.noc = 255, DRM_VATOM_ERR_RESERVED);
		/* NOC_CTRL */
		REJ(p.ctrl = 0, DRM_VATOM_ERR_OP);		/* read */
		REJ(p.ctrl = 2, DRM_VATOM_ERR_OP);		/* write */
		REJ(p.ctrl = 3, DRM_VATOM_ERR_OP);		/* reserved */
		REJ(p.ctrl |= 1u << 2, DRM_VATOM_ERR_RESERVED);
		REJ(p.ctrl |= 1u << 3, DRM_VATOM_ERR_RESERVED);
		REJ(p.ctrl |= 1u << 9, DRM_VATOM_ERR_RESERVED);
		REJ(p.ctrl |= 1u << 12, DRM_VATOM_ERR_RESERVED);
		REJ(p.ctrl |= 1u << 18, DRM_VATOM_ERR_RESERVED);
		REJ(p.ctrl |= 1u << 26, DRM_VATOM_ERR_RESERVED);
		REJ(p.ctrl |= 1u << 31, DRM_VATOM_ERR_RESERVED);	/* L1_ACC_AT_EN */
		/* VC, path reserve, static VC, BRCST_XY, priority: accepted. */
		REJ(p.ctrl |= 0x7801e1c0, 0);
		REJ(p.ctrl |= CTRL_SRC_INC, 0);			/* unicast: no effect */
		/* PACKET_TAG: only the id */
		REJ(p.packet_tag = 15 << 10, 0);
		REJ(p.packet_tag = 1 << 9, DRM_VATOM_ERR_RESERVED);
		REJ(p.packet_tag = 1 << 14, DRM_VATOM_ERR_RESERVED);
		REJ(p.packet_tag = 1, DRM_VATOM_ERR_RESERVED);
		/* Initiator: a Tensix or Ethernet tile of the grid. */
		REJ(p.x = 2, 0);				/* Ethernet */
		REJ(p.x = 3, DRM_VATOM_ERR_TARGET);		/* DRAM */
		REJ((p.x = 3, p.y = 1), DRM_VATOM_ERR_TARGET);	/* PCIe */
		REJ(p.x = 4, DRM_VATOM_ERR_TARGET);
		REJ(p.y = 3, DRM_VATOM_ERR_TARGET);
		REJ(p.x = 255, DRM_VATOM_ERR_TARGET);
	}
}

static void test_target_rejects(void)
{
	struct drm_vatom_noc p;
	u32 pr;

	for (pr = 0; pr < 2; pr++) {
		setup(pr);
		/* Unicast target tiles. */
		REJ(p = req(0, 0, 2, 0, 0x20, 0x107c, 1), 0);	/* Ethernet */
		REJ(p = req(0, 0, 0, 0, 0x20, 0x107c, 1), 0);	/* itself */
		REJ(p = req(0, 0, 3, 0, 0x20, 0x107c, 1), DRM_VATOM_ERR_TARGET);
		REJ(p = req(0, 0, 3, 1, 0x20, 0x107c, 1), DRM_VATOM_ERR_TARGET);
		REJ(p = req(0, 0, 4, 0, 0x20, 0x107c, 1), DRM_VATOM_ERR_TARGET);
		REJ(p = req(0, 0, 0, 3, 0x20, 0x107c, 1), DRM_VATOM_ERR_TARGET);
		REJ(p = req(0, 0, 63, 63, 0x20, 0x107c, 1), DRM_VATOM_ERR_TARGET);
		/* The 16-byte block of T inside the L1. */
		REJ(p.targ_addr_lo = TENSIX_L1 - 16, 0);
		REJ(p.targ_addr_lo = TENSIX_L1 - 1, 0);		/* block L1 - 16 */
		REJ(p.targ_addr_lo = TENSIX_L1, DRM_VATOM_ERR_TARGET);
		REJ(p.targ_addr_lo = 0xff000000, DRM_VATOM_ERR_TARGET);
		REJ(p.targ_addr_lo = 0xfffffff0, DRM_VATOM_ERR_TARGET);
		REJ(p = req(0, 0, 2, 0, ETH_L1 - 16, 0x107c, 1), 0);
		REJ(p = req(0, 0, 2, 0, ETH_L1, 0x107c, 1), DRM_VATOM_ERR_TARGET);
		/* Responses: Tensix/Ethernet L1, 4-byte aligned. */
		REJ(mark(&p, 0, 0, 0x80, 3), 0);
		REJ(mark(&p, 2, 0, ETH_L1 - 4, 3), 0);
		REJ(mark(&p, 2, 0, ETH_L1, 3), DRM_VATOM_ERR_TARGET);
		REJ(mark(&p, 3, 0, 0x80, 3), DRM_VATOM_ERR_TARGET);
		REJ(mark(&p, 3, 1, 0x80, 3), DRM_VATOM_ERR_TARGET);
		REJ(mark(&p, 4, 0, 0x80, 3), DRM_VATOM_ERR_TARGET);
		REJ(mark(&p, 0, 3, 0x80, 3), DRM_VATOM_ERR_TARGET);
		REJ(mark(&p, 0, 0, 0x82, 3), DRM_VATOM_ERR_ALIGN);
		REJ(mark(&p, 0, 0, 0x81, 3), DRM_VATOM_ERR_ALIGN);
		REJ(mark(&p, 0, 0, TENSIX_L1 - 4, 3), 0);
		REJ(mark(&p, 0, 0, TENSIX_L1, 3), DRM_VATOM_ERR_TARGET);
		REJ(mark(&p, 0, 0, 0xff000000, 3), DRM_VATOM_ERR_TARGET);
		REJ(mark(&p, 0, 0, 0xfffffffc, 3), DRM_VATOM_ERR_TARGET);
		/* Posted: the return registers are not looked at. */
		REJ((p.ret_addr_lo = 0x3, p.ret_addr_mid = ~0u), 0);
	}
}

static void test_coordinate_rejects(void)
{
	struct drm_vatom_noc p;
	u32 pr;

	/* Wormhole coordinate registers. */
	setup(WH);
	pr = WH;
	REJ(p.targ_addr_mid |= 1, DRM_VATOM_ERR_TARGET);	/* address bit 32 */
	REJ(p.targ_addr_mid |= 8, DRM_VATOM_ERR_TARGET);	/* address bit 35 */
	REJ(p.targ_addr_mid |= 1 << 16, DRM_VATOM_ERR_RESERVED);
	REJ(p.targ_addr_mid |= 1u << 31, DRM_VATOM_ERR_RESERVED);
	REJ(p.targ_addr_hi = 1, DRM_VATOM_ERR_RESERVED);
	REJ(p.ret_addr_hi = 1, DRM_VATOM_ERR_RESERVED);
	REJ((mark(&p, 0, 0, 0x80, 0), p.ret_addr_mid |= 4), DRM_VATOM_ERR_TARGET);
	REJ((mark(&p, 0, 0, 0x80, 0), p.ret_addr_mid |= 1 << 16), DRM_VATOM_ERR_RESERVED);
	REJ((brcst(&p, 0, 0, 1, 1), p.targ_addr_mid |= 1 << 28), DRM_VATOM_ERR_RESERVED);
	REJ((brcst(&p, 0, 0, 1, 1), p.targ_addr_mid |= 2), DRM_VATOM_ERR_TARGET);

	/* Blackhole coordinate registers. */
	setup(BH);
	pr = BH;
	REJ(p.targ_addr_mid = 1, DRM_VATOM_ERR_TARGET);	/* address bit 32 */
	REJ(p.targ_addr_mid = 0x80000000, DRM_VATOM_ERR_TARGET);
	REJ(p.targ_addr_hi |= 1 << 12, DRM_VATOM_ERR_RESERVED);
	REJ(p.targ_addr_hi |= 1u << 31, DRM_VATOM_ERR_RESERVED);
	REJ((mark(&p, 0, 0, 0x80, 0), p.ret_addr_mid = 1), DRM_VATOM_ERR_TARGET);
	REJ((mark(&p, 0, 0, 0x80, 0), p.ret_addr_hi |= 1 << 12), DRM_VATOM_ERR_RESERVED);
	REJ((brcst(&p, 0, 0, 1, 1), p.targ_addr_hi |= 1 << 24), DRM_VATOM_ERR_RESERVED);
	REJ((brcst(&p, 0, 0, 1, 1), p.targ_addr_mid = 4), DRM_VATOM_ERR_TARGET);
}

/*
 * A broadcast increment from (0, 0) to the rectangle Start (sx, sy) ..
 * End (ex, ey) on block targ, with extra NOC_CTRL bits: validation result.
 */
struct bcast_target_case {
	const char *what;
	u32 targ, sx, sy, ex, ey, ctrl, want;
};

static const struct bcast_target_case bcast_target_cases[] = {
	{ "only Ethernet (2,0) and DRAM (3,0): no recipient",
	  0x20, 2, 0, 3, 0, 0, DRM_VATOM_ERR_TARGET },
	{ "only the initiator, without SRC_INCLUDE: none",
	  0x20, 0, 0, 0, 0, 0, DRM_VATOM_ERR_TARGET },
	{ "only the initiator, with SRC_INCLUDE",
	  0x20, 0, 0, 0, 0, CTRL_SRC_INC, 0 },
	{ "End x outside the grid", 0x20, 0, 0, 4, 1, 0, DRM_VATOM_ERR_TARGET },
	{ "End y outside the grid", 0x20, 0, 0, 1, 3, 0, DRM_VATOM_ERR_TARGET },
	{ "Start x outside the grid",
	  0x20, 5, 0, 1, 1, 0, DRM_VATOM_ERR_TARGET },
	{ "Start y outside the grid",
	  0x20, 0, 7, 1, 1, 0, DRM_VATOM_ERR_TARGET },
	{ "block past the Tensix L1",
	  TENSIX_L1, 0, 0, 1, 1, 0, DRM_VATOM_ERR_TARGET },
	/* Ethernet tiles are not recipients, so only the Tensix L1 counts. */
	{ "block past the Ethernet L1 but inside the Tensix one",
	  ETH_L1, 0, 0, 3, 2, 0, 0 },
};

static void test_broadcast_targets(void)
{
	const struct bcast_target_case *c;
	struct drm_vatom_noc p;
	u32 pr, i;

	for (pr = WH; pr <= BH; pr++) {
		setup(pr);
		for (i = 0; i < ARRAY_SIZE(bcast_target_cases); i++) {
			c = &bcast_target_cases[i];
			p = req(0, 0, 0, 0, c->targ, 0x107c, 1);
			brcst(&p, c->sx, c->sy, c->ex, c->ey);
			p.ctrl |= c->ctrl;
			VT_EXPECT_EQ_MSG(check(&p), c->want, "%s prof %u",
					 c->what, pr);
		}
	}
}

/* Increments word 0 of block 0x40 of every recipient; returns a bitmap. */
static u32 bcast_hits(u32 ix, u32 iy, u32 sx, u32 sy, u32 ex, u32 ey,
		      u32 extra_ctrl, u32 want_n)
{
	struct drm_vatom_noc p = req(ix, iy, 0, 0, 0x40, 0x107c, 1);
	u32 x, y, map = 0;

	memset(mem, 0, g.size);
	brcst(&p, sx, sy, ex, ey);
	p.ctrl |= extra_ctrl;
	VT_EXPECT_EQ(exec(&p), want_n);
	for (y = 0; y < 3; y++)
		for (x = 0; x < 4; x++)
			if (g.type[y * 4 + x] == T && *l1(x, y, 0x40))
				map |= 1u << (y * 4 + x);
	return map;
}

#define BIT(x, y)	(1u << ((y) * 4 + (x)))

/*
 * A broadcast from initiator (ix, iy) to Start (sx, sy) .. End (ex, ey):
 * how many recipients and which Tensix tiles (BIT(x, y)) were written.
 */
struct bcast_case {
	const char *what;
	u32 ix, iy, sx, sy, ex, ey, ctrl, n, map;
};

static const struct bcast_case bcast_cases[] = {
	{ "(1,0)..(2,1): (2,0) is Ethernet",
	  0, 0, 1, 0, 2, 1, 0, 3, BIT(1, 0) | BIT(1, 1) | BIT(2, 1) },
	{ "initiator (1,1) inside: excluded",
	  1, 1, 1, 0, 2, 1, 0, 2, BIT(1, 0) | BIT(2, 1) },
	{ "initiator (1,1) inside: included by SRC_INCLUDE",
	  1, 1, 1, 0, 2, 1, CTRL_SRC_INC, 3,
	  BIT(1, 0) | BIT(1, 1) | BIT(2, 1) },
	{ "Ethernet initiator (2,0) inside with SRC_INCLUDE: not a recipient",
	  2, 0, 1, 0, 2, 1, CTRL_SRC_INC, 3,
	  BIT(1, 0) | BIT(1, 1) | BIT(2, 1) },
	{ "torus wrap both axes: x in {3, 0}, y in {2, 0}",
	  1, 1, 3, 2, 0, 0, 0, 3, BIT(0, 0) | BIT(0, 2) | BIT(3, 2) },
	{ "X wraps only: x in {2, 3, 0}, y = 1; (3,1) is PCIe",
	  1, 1, 2, 1, 0, 1, 0, 2, BIT(0, 1) | BIT(2, 1) },
	{ "Y wraps only: x = 0..1, y in {2, 0}",
	  1, 1, 0, 2, 1, 0, 0, 3, BIT(0, 0) | BIT(1, 0) | BIT(0, 2) },
	{ "whole grid: every Tensix except the initiator",
	  0, 0, 0, 0, 3, 2, 0, 7,
	  BIT(1, 0) | BIT(0, 1) | BIT(1, 1) | BIT(2, 1) |
	  BIT(0, 2) | BIT(2, 2) | BIT(3, 2) },
	{ "Start one past End on both axes wraps to the whole grid",
	  0, 0, 1, 1, 0, 0, CTRL_SRC_INC, 8,
	  BIT(0, 0) | BIT(1, 0) | BIT(0, 1) | BIT(1, 1) |
	  BIT(2, 1) | BIT(0, 2) | BIT(2, 2) | BIT(3, 2) },
};

static void test_broadcast(void)
{
	const struct bcast_case *c;
	u32 pr, i;

	for (pr = WH; pr <= BH; pr++) {
		setup(pr);
		for (i = 0; i < ARRAY_SIZE(bcast_cases); i++) {
			c = &bcast_cases[i];
			VT_EXPECT_EQ_MSG(bcast_hits(c->ix, c->iy, c->sx, c->sy,
						    c->ex, c->ey, c->ctrl,
						    c->n),
					 c->map, "%s prof %u", c->what, pr);
		}
	}
}

/* The value counter idx of tile (x, y) must have. */
struct cnt_want {
	u32 x, y, idx, want;
};

static void expect_counters(u32 noc, const struct cnt_want *w, u32 count,
			    const char *what)
{
	u32 i;

	for (i = 0; i < count; i++)
		VT_EXPECT_EQ_MSG(cnt(w[i].x, w[i].y, noc, w[i].idx), w[i].want,
				 "%s: (%u,%u) NoC %u counter %u", what,
				 w[i].x, w[i].y, noc, w[i].idx);
}

static void test_counters_unicast(void)
{
	/* Posted: no response, no outstanding count. */
	static const struct cnt_want posted[] = {
		{ 0, 0, CMD_ACCEPTED, 1 },
		{ 0, 0, POSTED_SENT, 1 },
		{ 0, 0, NP_SENT, 0 },
		{ 0, 0, NP_STARTED, 0 },
		{ 0, 0, RESP_RECEIVED, 0 },
		{ 0, 0, OUTSTANDING(7), 0 },
		{ 1, 1, SLV_ACCEPTED, 1 },
		{ 1, 1, SLV_POSTED_RECV, 1 },
		{ 1, 1, SLV_NP_RECV, 0 },
		{ 1, 1, SLV_RESP_SENT, 0 },
	};
	/* Marked to itself: the outstanding count goes +1 then -1. */
	static const struct cnt_want marked[] = {
		{ 0, 0, CMD_ACCEPTED, 1 },
		{ 0, 0, NP_STARTED, 1 },
		{ 0, 0, NP_SENT, 1 },
		{ 0, 0, POSTED_SENT, 0 },
		{ 0, 0, RESP_RECEIVED, 1 },
		{ 0, 0, OUTSTANDING(7), 0 },
		{ 1, 1, SLV_ACCEPTED, 1 },
		{ 1, 1, SLV_NP_RECV, 1 },
		{ 1, 1, SLV_POSTED_RECV, 0 },
		{ 1, 1, SLV_RESP_SENT, 1 },
	};
	/* Response to (2,0): up on the initiator, down on the return tile. */
	static const struct cnt_want other_ret[] = {
		{ 0, 0, OUTSTANDING(3), 0x00 },
		{ 0, 0, RESP_RECEIVED, 0 },
		{ 0, 0, NP_SENT, 1 },
		{ 2, 0, OUTSTANDING(3), 0xff },
		{ 2, 0, RESP_RECEIVED, 1 },
		{ 2, 0, CMD_ACCEPTED, 0 },
	};
	struct drm_vatom_noc p;
	u32 pr, i;

	for (pr = 0; pr < 2; pr++) {
		/* Posted, with a tag and a return address it must not use. */
		setup(pr);
		p = req(0, 0, 1, 1, 0x20, 0x107c, 5);
		p.packet_tag = 7 << 10;
		p.ret_addr_lo = 0x80;
		VT_EXPECT_EQ(exec(&p), 1);
		VT_EXPECT_EQ(*l1(1, 1, 0x20), 5);
		VT_EXPECT_EQ(*l1(0, 0, 0x80), 0);
		expect_counters(0, posted, ARRAY_SIZE(posted), "posted");
		/* Nothing else anywhere: 4 counters changed in all. */
		{
			u32 sum = 0, *c = (u32 *)mem;

			for (i = 0; i < g.l1_base / 4; i++)
				sum += c[i];
			VT_EXPECT_EQ(sum, 4);
		}

		/* Marked to itself on NoC 1: +1 then -1. */
		setup(pr);
		p = req(0, 0, 1, 1, 0x24, 0x107d, 5);
		*l1(1, 1, 0x24) = 100;
		mark(&p, 0, 0, 0x80, 7);
		p.noc = 1;
		VT_EXPECT_EQ(exec(&p), 1);
		VT_EXPECT_EQ(*l1(1, 1, 0x24), 105);
		VT_EXPECT_EQ(*l1(0, 0, 0x80), 100);
		expect_counters(1, marked, ARRAY_SIZE(marked), "marked NoC 1");
		/* NoC 0 blocks untouched. */
		for (i = 0; i < 64; i++) {
			VT_EXPECT_EQ(cnt(0, 0, 0, i), 0);
			VT_EXPECT_EQ(cnt(1, 1, 0, i), 0);
		}

		/*
		 * Response to another tile (Ethernet (2,0)): the initiator's
		 * ID counter goes up and stays up (8-bit: 0xff + 1 = 0); the
		 * return tile's goes down from 0 to 0xff.
		 */
		setup(pr);
		vatom_tile_counters(&g, mem, 0, 0, 0)[OUTSTANDING(3)] = 0xff;
		p = req(0, 0, 1, 1, 0x20, 0x4000 | 1 << 6, 0);
		mark(&p, 2, 0, ETH_L1 - 4, 3);
		*l1(1, 1, 0x20) = 0;
		VT_EXPECT_EQ(exec(&p), 1);
		VT_EXPECT_EQ(*l1(1, 1, 0x20), 1);		/* cas 0 -> 1 */
		VT_EXPECT_EQ(*l1(2, 0, ETH_L1 - 4), 0);
		expect_counters(0, other_ret, ARRAY_SIZE(other_ret),
				"return to (2,0)");
		/* Second one: the return tile's goes to 0xfe, initiator's 1. */
		VT_EXPECT_EQ(exec(&p), 1);
		VT_EXPECT_EQ(*l1(2, 0, ETH_L1 - 4), 1);	/* cas miss: old 1 */
		VT_EXPECT_EQ(cnt(0, 0, 0, OUTSTANDING(3)), 0x01);
		VT_EXPECT_EQ(cnt(2, 0, 0, OUTSTANDING(3)), 0xfe);
		VT_EXPECT_EQ(cnt(2, 0, 0, RESP_RECEIVED), 2);
		vatom_tile_grid_clear_outstanding(&g, mem, 2, 0, 0, 1u << 3);
		VT_EXPECT_EQ(cnt(2, 0, 0, OUTSTANDING(3)), 0);

		/* Ethernet initiator and target. */
		setup(pr);
		p = req(2, 0, 2, 0, 0x10, 0x6005, 0x77);
		mark(&p, 2, 0, 0x0, 15);
		*l1(2, 0, 0x10) = 0x55;
		*l1(2, 0, 0x14) = 0x66;
		VT_EXPECT_EQ(exec(&p), 1);
		VT_EXPECT_EQ(*l1(2, 0, 0x14), 0x77);
		VT_EXPECT_EQ(*l1(2, 0, 0x10), 0x55);
		VT_EXPECT_EQ(*l1(2, 0, 0x0), 0x55);		/* Result W(0x10) */
		VT_EXPECT_EQ(cnt(2, 0, 0, OUTSTANDING(15)), 0);
		VT_EXPECT_EQ(cnt(2, 0, 0, SLV_RESP_SENT), 1);
		VT_EXPECT_EQ(cnt(2, 0, 0, RESP_RECEIVED), 1);
	}
}

static void test_counters_broadcast(void)
{
	/* Marked, (0,0) to (1,0) (1,1) (2,1); (2,0) is Ethernet. */
	static const struct cnt_want marked[] = {
		/* +1 at issue, -3 on responses: 1 - 3 = 0xfe. */
		{ 0, 0, OUTSTANDING(5), 0xfe },
		{ 0, 0, RESP_RECEIVED, 3 },
		{ 0, 0, CMD_ACCEPTED, 1 },
		{ 0, 0, NP_STARTED, 1 },
		{ 0, 0, NP_SENT, 1 },
		{ 0, 0, SLV_ACCEPTED, 0 },
		{ 1, 0, SLV_ACCEPTED, 1 },
		{ 1, 0, SLV_NP_RECV, 1 },
		{ 1, 0, SLV_RESP_SENT, 1 },
		{ 2, 1, SLV_RESP_SENT, 1 },
		{ 2, 0, SLV_ACCEPTED, 0 },
	};
	/* Posted, (1,1) to the whole grid with itself. */
	static const struct cnt_want posted[] = {
		{ 1, 1, POSTED_SENT, 1 },
		{ 1, 1, SLV_POSTED_RECV, 1 },
		{ 3, 2, SLV_POSTED_RECV, 1 },
		{ 3, 2, SLV_RESP_SENT, 0 },
		{ 1, 1, RESP_RECEIVED, 0 },
	};
	struct drm_vatom_noc p;
	u32 pr;

	for (pr = 0; pr < 2; pr++) {
		setup(pr);
		/* Recipients (1,0) (1,1) (2,1), row-major; distinct olds. */
		*l1(1, 0, 0x40) = 10;
		*l1(1, 1, 0x40) = 20;
		*l1(2, 1, 0x40) = 30;
		p = req(0, 0, 0, 0, 0x40, 0x107c, 1);
		brcst(&p, 1, 0, 2, 1);
		mark(&p, 0, 0, 0x80, 5);
		VT_EXPECT_EQ(exec(&p), 3);
		VT_EXPECT_EQ(*l1(1, 0, 0x40), 11);
		VT_EXPECT_EQ(*l1(1, 1, 0x40), 21);
		VT_EXPECT_EQ(*l1(2, 1, 0x40), 31);
		/* Each response overwrote the word: the last, (2,1), wins. */
		VT_EXPECT_EQ(*l1(0, 0, 0x80), 30);
		expect_counters(0, marked, ARRAY_SIZE(marked), "marked");
		/* Again: 0xfe + 1 - 3 = 0xfc. */
		VT_EXPECT_EQ(exec(&p), 3);
		VT_EXPECT_EQ(cnt(0, 0, 0, OUTSTANDING(5)), 0xfc);
		VT_EXPECT_EQ(cnt(0, 0, 0, RESP_RECEIVED), 6);
		VT_EXPECT_EQ(*l1(0, 0, 0x80), 31);
		/* The clear register. */
		vatom_tile_grid_clear_outstanding(&g, mem, 0, 0, 0, 1u << 5);
		VT_EXPECT_EQ(cnt(0, 0, 0, OUTSTANDING(5)), 0);

		/* Posted broadcast to the whole grid with the initiator. */
		setup(pr);
		p = req(1, 1, 0, 0, 0x40, 0x107c, 1);
		brcst(&p, 0, 0, 3, 2);
		p.ctrl |= CTRL_SRC_INC;
		VT_EXPECT_EQ(exec(&p), 8);
		expect_counters(0, posted, ARRAY_SIZE(posted), "posted");
	}
}

/* --- atomicity under threads ------------------------------------------- */

#define THREADS	4
#define ITERS	50000

static struct drm_vatom_noc tp[THREADS];
static pthread_barrier_t start;

/* Thread i executes its tp[i] packet ITERS times. */
static void *work(void *arg)
{
	const struct drm_vatom_noc *p = arg;
	u32 i;

	pthread_barrier_wait(&start);
	for (i = 0; i < ITERS; i++)
		vatom_noc_execute(p, &bind, NULL);
	return NULL;
}

static void test_threads(void)
{
	u32 i;

	setup(BH);
	/*
	 * Same block: thread 0 increments word 0, 1 increments word 1 with T
	 * on word 0, 2 does u32 parallel add of 1 (all four words), 3 does
	 * Zaamo add on word 3. All marked with responses to (0,0).
	 */
	tp[0] = req(0, 0, 1, 1, 0x20, 0x107c, 1);
	tp[1] = req(0, 1, 1, 1, 0x20, 0x107d, 1);
	tp[2] = req(1, 0, 1, 1, 0x20, 0x9004, 1);
	tp[3] = req(2, 1, 1, 1, 0x2c, 0xa803, 1);
	for (i = 0; i < THREADS; i++)
		mark(&tp[i], 0, 0, 0x80 + 4 * i, 2);
	vt_run_threads(work, tp, sizeof(tp[0]), THREADS, &start);
	expect_block(1, 1, 0x20, 2 * ITERS, 2 * ITERS, ITERS, 2 * ITERS, "threads");
	VT_EXPECT_EQ(cnt(0, 0, 0, RESP_RECEIVED), THREADS * ITERS);
	VT_EXPECT_EQ(cnt(1, 1, 0, SLV_ACCEPTED), THREADS * ITERS);
	VT_EXPECT_EQ(cnt(1, 1, 0, SLV_RESP_SENT), THREADS * ITERS);
	/* Each issuer +ITERS, the return tile -4*ITERS, all mod 256. */
	VT_EXPECT_EQ(cnt(0, 0, 0, OUTSTANDING(2)), (ITERS - THREADS * ITERS) & 0xff);
	VT_EXPECT_EQ(cnt(0, 1, 0, OUTSTANDING(2)), ITERS & 0xff);
	VT_EXPECT_EQ(cnt(0, 0, 0, CMD_ACCEPTED), ITERS);

	/* Posted, all on one word from four initiators: no lost update. */
	setup(WH);
	for (i = 0; i < THREADS; i++)
		tp[i] = req(i & 1, i >> 1, 2, 2, 0x30, 0x107c, 3);
	vt_run_threads(work, tp, sizeof(tp[0]), THREADS, &start);
	VT_EXPECT_EQ(*l1(2, 2, 0x30), 3 * THREADS * ITERS);
	VT_EXPECT_EQ(cnt(2, 2, 0, SLV_POSTED_RECV), THREADS * ITERS);
}

/*
 * Runs: vatom_stream_execute() decodes a request once for the packets after
 * it that differ only in TARG_ADDR_LO and AT_DATA. A stream of such runs,
 * broken at random by packets of another head (opcode, initiator, target
 * tile, marked, broadcast, NIU), must leave the grid (L1 and every counter)
 * exactly as executing its packets one by one with vatom_noc_execute(),
 * a path that decodes each packet alone.
 */
#define RUN_PACKETS	3000

static u64 run_rng = 0x9e3779b97f4a7c15ull;

static u32 run_rand(u32 n)
{
	run_rng = vt_xorshift64(run_rng);
	return (u32)(run_rng >> 32) % n;
}

/* A random valid request head (BH grid43); TARG and DATA set per packet. */
static struct drm_vatom_noc run_head(void)
{
	static const u8 tensix[8][2] = {
		{ 0, 0 }, { 1, 0 }, { 0, 1 }, { 1, 1 },
		{ 2, 1 }, { 0, 2 }, { 2, 2 }, { 3, 2 },
	};
	static const u32 ats[5] = { 0x107c, 0x107d, 0x101c, 0x9004, 0x9000 };
	const u8 *i = tensix[run_rand(8)], *t = tensix[run_rand(8)];
	struct drm_vatom_noc p = req(i[0], i[1], t[0], t[1], 0,
				     ats[run_rand(5)], 0);

	p.noc = run_rand(2);
	switch (run_rand(4)) {
	case 0:
		mark(&p, run_rand(2), 1, 4 * run_rand(TENSIX_L1 / 4),
		     run_rand(16));
		break;
	case 1:
		brcst(&p, 0, 0, 1 + run_rand(3), 1 + run_rand(2));
		break;
	}
	return p;
}

static void test_runs(void)
{
	struct drm_vatom_noc *st = calloc(RUN_PACKETS, sizeof(*st));
	struct vatom_stream_error err;
	struct vatom_stats stats = {};
	u64 rb = 1, recipients = 0;
	u32 i, heads = 0, size = RUN_PACKETS * sizeof(*st);
	u8 *before, *after;
	struct drm_vatom_noc h;

	setup(BH);
	before = malloc(g.size);
	after = malloc(g.size);
	if (!st || !before || !after)
		abort();
	for (i = 0; i < g.size; i++)
		mem[i] = (u8)run_rand(256);
	h = run_head();
	for (i = 0; i < RUN_PACKETS; i++) {
		if (run_rand(5) == 0) {
			h = run_head();
			heads++;
		}
		st[i] = h;
		st[i].targ_addr_lo = 4 * run_rand(TENSIX_L1 / 4);
		st[i].at_data = (u32)run_rng;
	}
	memcpy(before, mem, g.size);

	VT_EXPECT_EQ(vatom_stream_validate(st, size, &bind, &rb, &err), 0);
	VT_EXPECT_EQ(err.reason, DRM_VATOM_ERR_NONE);
	VT_EXPECT_EQ(rb, 0);
	vatom_stream_execute(st, size, &bind, NULL, &stats);
	memcpy(after, mem, g.size);

	memcpy(mem, before, g.size);
	for (i = 0; i < RUN_PACKETS; i++)
		recipients += vatom_noc_execute(&st[i], &bind, NULL);
	VT_EXPECT_EQ(memcmp(after, mem, g.size), 0);
	VT_EXPECT_EQ(stats.packets[VATOM_FAMILY_NOC], RUN_PACKETS);
	VT_EXPECT_EQ(stats.elements[VATOM_FAMILY_NOC], recipients);
	/* The stream had runs, and was not one run. */
	VT_EXPECT(heads > 100 && heads < RUN_PACKETS / 2);
	free(st);
	free(before);
	free(after);
}

/*
 * A stream of one packet: validated and executed by the family in one call
 * each, which counts it when there are statistics and does the same
 * without. The first increment case, twice.
 */
static void test_one_packet_stream(void)
{
	const struct at_case *c = &inc_cases[0];
	struct drm_vatom_noc p = req(0, 0, 1, 1, c->targ, c->at, c->data);
	struct vatom_stream_error err;
	struct vatom_stats st = {};
	u64 need = 1;
	int pass;

	setup(BH);
	mark(&p, 0, 0, 0x80, 0);
	VT_EXPECT_EQ(vatom_stream_validate(&p, sizeof(p), &bind, &need, &err), 0);
	VT_EXPECT_EQ(need, 0);
	for (pass = 0; pass < 2; pass++) {
		set_block(1, 1, 0x20, c->in[0], c->in[1], c->in[2], c->in[3]);
		*l1(0, 0, 0x80) = 0xdddddddd;
		vatom_stream_execute(&p, sizeof(p), &bind, NULL,
				     pass ? &st : NULL);
		expect_block(1, 1, 0x20, c->out[0], c->out[1], c->out[2],
			     c->out[3], c->what);
		VT_EXPECT_EQ(*l1(0, 0, 0x80), c->result);
	}
	VT_EXPECT_EQ(st.packets[VATOM_FAMILY_NOC], 1);
	VT_EXPECT_EQ(st.elements[VATOM_FAMILY_NOC], 1);
}

int main(void)
{
	vt_run(test_opcode_masks, "GET_PARAM opcode masks");
	vt_run(test_uapi_constants, "UAPI field constants match the spec");
	vt_run(test_increment, "increment, IntWidth corners, Ofs != T");
	vt_run(test_cas, "compare and swap");
	vt_run(test_swap_mask, "swap, mask variant");
	vt_run(test_swap_index, "swap, index variants 6, 7, 10");
	vt_run(test_zaamo, "Zaamo ops");
	vt_run(test_acc, "parallel add, every Fmt");
	vt_run(test_reserved_opcodes, "reserved encodings per profile");
	vt_run(test_packet_rejects, "packet, ctrl, tag, initiator rejects");
	vt_run(test_target_rejects, "unicast target and return rejects");
	vt_run(test_coordinate_rejects, "coordinate register rejects");
	vt_run(test_broadcast_targets, "broadcast target rejects");
	vt_run(test_broadcast, "broadcast recipients, torus wrap, SRC_INCLUDE");
	vt_run(test_counters_unicast, "counters: posted, marked, other return tile");
	vt_run(test_counters_broadcast, "counters: broadcast 1 - N");
	vt_run(test_threads, "atomicity under threads");
	vt_run(test_runs, "runs of one head execute as packet by packet");
	vt_run(test_one_packet_stream, "a 1-packet stream, with and without stats");
	free(mem);
	return vt_done();
}
