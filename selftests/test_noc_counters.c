// SPDX-License-Identifier: GPL-2.0
/*
 * Tenstorrent NoC atomics through the device: unicast and broadcast
 * recipients and responses, the NIU counter life cycle of
 * shared/spec/noc-atomics.md section 5.3, and the NOC_COUNTERS ioctl and
 * its errors.
 *
 * Part of vatom_test.c's translation unit, after test_noc.c (its vn_*
 * helpers and the grid they lay out); not built alone.
 *
 * Copyright (C) 2026 The vatom developers
 */

/* ------------------------------------------------------------------------ */
/* Recipients and responses                                                  */
/* ------------------------------------------------------------------------ */

/*
 * Unicast to an Ethernet tile's last block and from an Ethernet initiator;
 * RESP_MARKED writes the Result, a posted request never does (even with
 * return registers that would be invalid).
 */
static void vn_unicast(struct __test_metadata *_metadata, __u32 profile)
{
	struct drm_vatom_noc p[3];
	struct vn_grid *g;
	int fd;

	VT_OPEN(fd);
	g = vn_grid_new(_metadata, fd, profile, 4, 3, vn_grid43, VN_TENSIX_L1,
			VN_ETH_L1);
	*vn_l1(g, 2, 0, 0xfc) = 41;		/* Ethernet (2,0), L1 256 */
	*vn_l1(g, 3, 2, 0x1f0) = 7;		/* Tensix (3,2), last block */
	*vn_l1(g, 0, 2, 0x20) = 0xdddddddd;
	*vn_l1(g, 1, 2, 0x24) = 0xeeeeeeee;
	*vn_l1(g, 1, 2, 0x28) = 0xcccccccc;

	/* Tensix (0,2) increments Ethernet (2,0) word 0xfc by 1, marked. */
	p[0] = vn_req(g, 0, 2, 2, 0, 0xfc, 0x107f, 1);
	vn_mark(g, &p[0], 0, 2, 0x20, 0);
	/* Ethernet (1,2) swaps Tensix (3,2)'s 0x1f0 (swap index 6, Ofs 0). */
	p[1] = vn_req(g, 1, 2, 3, 2, 0x1f0, 0x6004, 99);
	vn_mark(g, &p[1], 1, 2, 0x24, 15);
	/* Posted; the return registers are ignored even if nonsense. */
	p[2] = vn_req(g, 1, 2, 3, 2, 0x1f0, 0x107c, 1);
	p[2].ret_addr_lo = 0x28;
	p[2].ret_addr_mid = profile == VN_WH ? (1 << 4 | 2 << 10) : 0;
	p[2].ret_addr_hi = profile == VN_WH ? 0 : (1 | 2 << 6);
	ASSERT_EQ(0, vn_submit(g, p, 3, NULL));
	EXPECT_EQ(42, *vn_l1(g, 2, 0, 0xfc));
	EXPECT_EQ(41, *vn_l1(g, 0, 2, 0x20));
	EXPECT_EQ(100, *vn_l1(g, 3, 2, 0x1f0));
	EXPECT_EQ(7, *vn_l1(g, 1, 2, 0x24));
	EXPECT_EQ(0xcccccccc, *vn_l1(g, 1, 2, 0x28));

	/* Posted with garbage return registers: still accepted, still ignored. */
	p[0] = vn_req(g, 0, 0, 1, 0, 0x10, 0x107c, 5);
	p[0].ret_addr_lo = 3;
	p[0].ret_addr_mid = 0xffffffff;
	p[0].ret_addr_hi = profile == VN_WH ? 0 : 0xffffffff;
	ASSERT_EQ(0, vn_submit(g, p, 1, NULL));
	EXPECT_EQ(5, *vn_l1(g, 1, 0, 0x10));
	vn_grid_free(g);
	close(fd);
}

TEST(noc_unicast_wormhole)
{
	vn_unicast(_metadata, VN_WH);
}

TEST(noc_unicast_blackhole)
{
	vn_unicast(_metadata, VN_BH);
}

/*
 * Broadcasts of a posted increment by 1 of word 0x40 (each tile's word
 * starts at 100 + its index). Recipients by hand from the 4 x 3 grid: only
 * Tensix tiles inside the X span x Y span, the initiator only with
 * SRC_INCLUDE.
 */
static void vn_broadcast(struct __test_metadata *_metadata, __u32 profile)
{
	const struct {
		const char *what;
		__u32 ix, iy, sx, sy, ex, ey;
		bool src;
		const char *recip;	/* 12 flags, row-major */
	} cases[] = {
		/*        T T E D  T T T P  T E T T */
		{ "whole grid", 0, 0, 0, 0, 3, 2, false, "010011101011" },
		{ "whole grid, SRC_INCLUDE", 0, 0, 0, 0, 3, 2, true, "110011101011" },
		{ "X wraps: x 3, 0; y 0..1", 1, 1, 3, 0, 0, 1, false, "100010000000" },
		{ "X wraps, initiator inside", 0, 1, 3, 0, 0, 1, false, "100000000000" },
		{ "X wraps, initiator inside, SRC_INCLUDE", 0, 1, 3, 0, 0, 1, true, "100010000000" },
		{ "Y wraps: y 2, 0; x 1..2", 0, 1, 1, 2, 2, 0, false, "010000000010" },
		{ "both wrap: x 3, 0, 1; y 2, 0", 2, 1, 3, 2, 1, 0, false, "110000001001" },
		{ "Start = End + 1: the whole torus", 3, 2, 1, 1, 0, 0, false, "110011101010" },
		{ "one tile", 0, 0, 2, 2, 2, 2, false, "000000000010" },
		{ "a row through Ethernet, DRAM", 1, 1, 0, 0, 3, 0, false, "110000000000" },
	};
	struct vn_grid *g;
	size_t i;
	int fd;

	VT_OPEN(fd);
	g = vn_grid_new(_metadata, fd, profile, 4, 3, vn_grid43, VN_TENSIX_L1,
			VN_ETH_L1);
	for (i = 0; i < VT_ARRAY_SIZE(cases); i++) {
		struct drm_vatom_noc p;
		__u32 t, n = 0, x, y;
		const char *recip = cases[i].recip;

		for (t = 0; t < 12; t++)
			if (g->l1_size[t])
				*vn_l1(g, t % 4, t / 4, 0x40) = 100 + t;
		p = vn_req(g, cases[i].ix, cases[i].iy, 0, 0, 0x40, 0x107c, 1);
		vn_brcst(g, &p, cases[i].sx, cases[i].sy, cases[i].ex, cases[i].ey);
		if (cases[i].src)
			p.ctrl |= VN_CTRL_SRC_INC;
		ASSERT_EQ(0, vn_submit(g, &p, 1, NULL)) TH_LOG("%s: errno %d",
							       cases[i].what, errno);
		for (t = 0; t < 12; t++) {
			x = t % 4;
			y = t / 4;
			if (!g->l1_size[t]) {
				EXPECT_EQ('0', recip[t]) TH_LOG("bad table %s", cases[i].what);
				continue;
			}
			EXPECT_EQ(100 + t + (recip[t] == '1'), *vn_l1(g, x, y, 0x40))
				TH_LOG("%s: tile (%u,%u)", cases[i].what, x, y);
			n += recip[t] == '1';
		}
		EXPECT_LT(0, n);
	}
	vn_grid_free(g);
	close(fd);
}

TEST(noc_broadcast_wormhole)
{
	vn_broadcast(_metadata, VN_WH);
}

TEST(noc_broadcast_blackhole)
{
	vn_broadcast(_metadata, VN_BH);
}

/* ------------------------------------------------------------------------ */
/* Counters                                                                  */
/* ------------------------------------------------------------------------ */

static void vn_counter_life(struct __test_metadata *_metadata, __u32 profile)
{
	struct drm_vatom_noc p;
	struct vn_grid *g;
	__u32 old[64];
	int fd;

	VT_OPEN(fd);
	g = vn_grid_new(_metadata, fd, profile, 4, 3, vn_grid43, VN_TENSIX_L1,
			VN_ETH_L1);

	/* Posted unicast (0,0) -> (1,1) on NoC 0. */
	{
		const struct vn_cnt_exp e[] = {
			{ 0, 0, 0, VN_CMD_ACCEPTED, 1 },
			{ 0, 0, 0, VN_POSTED_SENT, 1 },
			{ 1, 1, 0, VN_SLV_ACCEPTED, 1 },
			{ 1, 1, 0, VN_SLV_POSTED_RECV, 1 },
		};

		p = vn_req(g, 0, 0, 1, 1, 0x40, 0x107c, 1);
		p.packet_tag = 9 << 10;	/* no effect on a posted request */
		ASSERT_EQ(0, vn_submit(g, &p, 1, NULL));
		vn_expect_counters(_metadata, g, e, VT_ARRAY_SIZE(e), "posted");
	}
	vn_clear_all(_metadata, g);

	/* Marked unicast, id 3, NoC 1, response to the initiator. */
	{
		const struct vn_cnt_exp e[] = {
			{ 0, 0, 1, VN_CMD_ACCEPTED, 1 },
			{ 0, 0, 1, VN_NP_STARTED, 1 },
			{ 0, 0, 1, VN_NP_SENT, 1 },
			{ 0, 0, 1, VN_RESP_RECEIVED, 1 },
			{ 1, 1, 1, VN_SLV_ACCEPTED, 1 },
			{ 1, 1, 1, VN_SLV_NP_RECV, 1 },
			{ 1, 1, 1, VN_SLV_RESP_SENT, 1 },
		};

		p = vn_req(g, 0, 0, 1, 1, 0x40, 0x107c, 1);
		p.noc = 1;
		vn_mark(g, &p, 0, 0, 0x100, 3);
		ASSERT_EQ(0, vn_submit(g, &p, 1, NULL));
		vn_expect_counters(_metadata, g, e, VT_ARRAY_SIZE(e), "marked");
	}
	vn_clear_all(_metadata, g);

	/*
	 * Marked, id 5, to Ethernet (2,0), response to (1,0): the initiator's
	 * ID counter stays at 1, the return tile's goes to -1 = 0xff.
	 */
	{
		const struct vn_cnt_exp e[] = {
			{ 0, 0, 0, VN_CMD_ACCEPTED, 1 },
			{ 0, 0, 0, VN_NP_STARTED, 1 },
			{ 0, 0, 0, VN_NP_SENT, 1 },
			{ 0, 0, 0, VN_OUTSTANDING(5), 1 },
			{ 2, 0, 0, VN_SLV_ACCEPTED, 1 },
			{ 2, 0, 0, VN_SLV_NP_RECV, 1 },
			{ 2, 0, 0, VN_SLV_RESP_SENT, 1 },
			{ 1, 0, 0, VN_RESP_RECEIVED, 1 },
			{ 1, 0, 0, VN_OUTSTANDING(5), 0xff },
		};
		const struct vn_cnt_exp after[] = {
			{ 0, 0, 0, VN_CMD_ACCEPTED, 1 },
			{ 0, 0, 0, VN_NP_STARTED, 1 },
			{ 0, 0, 0, VN_NP_SENT, 1 },
			{ 2, 0, 0, VN_SLV_ACCEPTED, 1 },
			{ 2, 0, 0, VN_SLV_NP_RECV, 1 },
			{ 2, 0, 0, VN_SLV_RESP_SENT, 1 },
			{ 1, 0, 0, VN_RESP_RECEIVED, 1 },
		};

		p = vn_req(g, 0, 0, 2, 0, 0x40, 0x107c, 1);
		vn_mark(g, &p, 1, 0, 0x100, 5);
		ASSERT_EQ(0, vn_submit(g, &p, 1, NULL));
		vn_expect_counters(_metadata, g, e, VT_ARRAY_SIZE(e), "foreign return");
		/* The per-ID clear register: other bits clear other IDs only. */
		ASSERT_EQ(0, vn_counters(fd, g->handle,
					 DRM_VATOM_NOC_COUNTERS_CLEAR_OUTSTANDING,
					 0, 0, 0, 0xffdf, 0, NULL));
		vn_expect_counters(_metadata, g, e, VT_ARRAY_SIZE(e), "other ids cleared");
		ASSERT_EQ(0, vn_counters(fd, g->handle,
					 DRM_VATOM_NOC_COUNTERS_CLEAR_OUTSTANDING,
					 0, 0, 0, 1u << 5, 0, NULL));
		/* Read and clear at once: the values before the clear come back. */
		memset(old, VT_POISON, sizeof(old));
		ASSERT_EQ(0, vn_counters(fd, g->handle,
					 DRM_VATOM_NOC_COUNTERS_READ |
					 DRM_VATOM_NOC_COUNTERS_CLEAR_OUTSTANDING,
					 1, 0, 0, 1u << 5, 64, old));
		EXPECT_EQ(0xff, old[VN_OUTSTANDING(5)]);
		EXPECT_EQ(1, old[VN_RESP_RECEIVED]);
		vn_expect_counters(_metadata, g, after, VT_ARRAY_SIZE(after),
				   "after the clear");
	}
	vn_clear_all(_metadata, g);

	/*
	 * Marked broadcast, id 2, from (0,0) to the whole grid: 7 recipients
	 * (Tensix tiles but the initiator). ID 2 goes up 1, down 7: 1 - 7 =
	 * 0xfa. The last recipient (3,2) writes the return word last.
	 */
	{
		static const __u32 rx[7] = { 1, 0, 1, 2, 0, 2, 3 };
		static const __u32 ry[7] = { 0, 1, 1, 1, 2, 2, 2 };
		struct vn_cnt_exp all[4 + 3 * 7 + 1];
		struct vn_cnt_exp e[4 + 3 * 7] = {
			{ 0, 0, 0, VN_CMD_ACCEPTED, 1 },
			{ 0, 0, 0, VN_NP_STARTED, 1 },
			{ 0, 0, 0, VN_NP_SENT, 1 },
			{ 0, 0, 0, VN_RESP_RECEIVED, 7 },
		};
		__u32 i, t;

		for (i = 0; i < 7; i++) {
			struct vn_cnt_exp r = { rx[i], ry[i], 0, 0, 1 };

			r.idx = VN_SLV_ACCEPTED;
			e[4 + 3 * i] = r;
			r.idx = VN_SLV_NP_RECV;
			e[5 + 3 * i] = r;
			r.idx = VN_SLV_RESP_SENT;
			e[6 + 3 * i] = r;
		}
		for (t = 0; t < 12; t++)
			if (g->l1_size[t])
				*vn_l1(g, t % 4, t / 4, 0x40) = 200 + t;
		p = vn_req(g, 0, 0, 0, 0, 0x40, 0x107c, 1);
		vn_brcst(g, &p, 0, 0, 3, 2);
		vn_mark(g, &p, 0, 0, 0x100, 2);
		ASSERT_EQ(0, vn_submit(g, &p, 1, NULL));
		EXPECT_EQ(200 + 11, *vn_l1(g, 0, 0, 0x100));
		EXPECT_EQ(0xfa, vn_cnt(g, 0, 0, 0)[VN_OUTSTANDING(2)]);
		memcpy(all, e, sizeof(e));
		all[VT_ARRAY_SIZE(e)] =
			(struct vn_cnt_exp){ 0, 0, 0, VN_OUTSTANDING(2), 0xfa };
		vn_expect_counters(_metadata, g, all, VT_ARRAY_SIZE(all), "broadcast");
		/* A second one: 0xfa + 1 - 7 = 0xf4. */
		ASSERT_EQ(0, vn_submit(g, &p, 1, NULL));
		EXPECT_EQ(0xf4, vn_cnt(g, 0, 0, 0)[VN_OUTSTANDING(2)]);
		EXPECT_EQ(14, vn_cnt(g, 0, 0, 0)[VN_RESP_RECEIVED]);
		/* The clear ioctl sets it right; everything else stays. */
		ASSERT_EQ(0, vn_counters(fd, g->handle,
					 DRM_VATOM_NOC_COUNTERS_CLEAR_OUTSTANDING,
					 0, 0, 0, 1u << 2, 0, NULL));
		for (i = 0; i < VT_ARRAY_SIZE(e); i++)
			e[i].val *= 2;
		vn_expect_counters(_metadata, g, e, VT_ARRAY_SIZE(e), "cleared");
	}
	vn_grid_free(g);
	close(fd);
}

TEST(noc_counters_wormhole)
{
	vn_counter_life(_metadata, VN_WH);
}

TEST(noc_counters_blackhole)
{
	vn_counter_life(_metadata, VN_BH);
}

/*
 * REQS_OUTSTANDING_ID is 8 bits: 257 marked requests answered at another
 * tile leave 257 mod 256 = 1 at the initiator and -257 mod 256 = 0xff at
 * the return tile, while the 32-bit counters count all 257.
 */
TEST(noc_counters_8bit_wrap)
{
	struct drm_vatom_noc *p = calloc(VN_MAX_PKTS, sizeof(*p));
	struct vn_grid *g;
	__u32 i, c[64];
	int fd;

	ASSERT_NE(NULL, p);
	VT_OPEN(fd);
	g = vn_grid_new(_metadata, fd, VN_BH, 4, 3, vn_grid43, VN_TENSIX_L1,
			VN_ETH_L1);
	for (i = 0; i < 257; i++) {
		p[i] = vn_req(g, 1, 1, 2, 2, 0x40, 0x107c, 1);
		vn_mark(g, &p[i], 0, 2, 0x80, 15);
	}
	ASSERT_EQ(0, vn_submit(g, p, 257, NULL));
	EXPECT_EQ(257, *vn_l1(g, 2, 2, 0x40));
	EXPECT_EQ(256, *vn_l1(g, 0, 2, 0x80));
	ASSERT_EQ(0, vn_counters(fd, g->handle, DRM_VATOM_NOC_COUNTERS_READ, 1, 1, 0,
				 0, 64, c));
	EXPECT_EQ(1, c[VN_OUTSTANDING(15)]);
	EXPECT_EQ(257, c[VN_CMD_ACCEPTED]);
	EXPECT_EQ(257, c[VN_NP_SENT]);
	ASSERT_EQ(0, vn_counters(fd, g->handle, DRM_VATOM_NOC_COUNTERS_READ, 0, 2, 0,
				 0, 64, c));
	EXPECT_EQ(0xff, c[VN_OUTSTANDING(15)]);
	EXPECT_EQ(257, c[VN_RESP_RECEIVED]);
	/* 255 more: the initiator's wraps to 0, the return tile's to 0. */
	ASSERT_EQ(0, vn_submit(g, p, 255, NULL));
	EXPECT_EQ(0, vn_cnt(g, 1, 1, 0)[VN_OUTSTANDING(15)]);
	EXPECT_EQ(0, vn_cnt(g, 0, 2, 0)[VN_OUTSTANDING(15)]);
	EXPECT_EQ(512, vn_cnt(g, 0, 2, 0)[VN_RESP_RECEIVED]);
	vn_grid_free(g);
	close(fd);
	free(p);
}

TEST(noc_counters_ioctl_errors)
{
	static const __u8 types[4] = { VN_T, VN_T, VN_D, VN_E };
	const __u32 R = DRM_VATOM_NOC_COUNTERS_READ;
	const __u32 CO = DRM_VATOM_NOC_COUNTERS_CLEAR_OUTSTANDING;
	const __u32 CA = DRM_VATOM_NOC_COUNTERS_CLEAR_ALL;
	struct drm_vatom_typed_desc td = {
		.dim = DRM_VATOM_TYPED_1D, .format = DRM_VATOM_FORMAT_R32,
		.width = 16, .height = 1, .depth = 1, .array_size = 1,
		.levels = 1,
	};
	struct drm_vatom_noc_counters a;
	__u32 c[65], buf, typed_h;
	struct vn_grid *g;
	__u64 v, sz;
	int fd;

	VT_OPEN(fd);
	ASSERT_EQ(0, vt_get_param(fd, DRM_VATOM_PARAM_CAPS, 0, &v));
	EXPECT_TRUE(v & DRM_VATOM_CAP_NOC_COUNTERS);
	ASSERT_EQ(0, vt_get_param(fd, DRM_VATOM_PARAM_UAPI_VERSION, 0, &v));
	EXPECT_LE(2, v);
	g = vn_grid_new(_metadata, fd, VN_WH, 2, 2, types, 64, 32);
	ASSERT_EQ(0, vt_buffer_create(fd, 4096, &buf));
	ASSERT_EQ(0, vt_typed_create(fd, &td, &typed_h, &sz));
	/* Seed tile (1,1)'s NoC 1 block to see that nothing changes. */
	vn_cnt(g, 1, 1, 1)[VN_OUTSTANDING(0)] = 3;
	vn_cnt(g, 1, 1, 1)[VN_CMD_ACCEPTED] = 4;

	/* The good calls first: every tile, both NoCs, DRAM's block too. */
	ASSERT_EQ(0, vn_counters(fd, g->handle, R, 0, 1, 0, 0, 64, c));
	ASSERT_EQ(0, vn_counters(fd, g->handle, R, 1, 1, 1, 0, 1, c));
	EXPECT_EQ(0, c[0]);
	ASSERT_EQ(0, vn_counters(fd, g->handle, CO, 1, 1, 1, 0, 0, NULL));
	EXPECT_EQ(3, vn_cnt(g, 1, 1, 1)[VN_OUTSTANDING(0)]);	/* mask 0 */

	/* ENOENT */
	VT_EXPECT_ERRNO(ENOENT, vn_counters(fd, 0, R, 0, 0, 0, 0, 1, c));
	VT_EXPECT_ERRNO(ENOENT, vn_counters(fd, g->handle + 1000, R, 0, 0, 0, 0, 1, c));
	/* EINVAL: flags */
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, 0, 0, 0, 0, 0, 0, NULL));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, R | 8, 0, 0, 0, 0, 1, c));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, R | 0x80000000, 0, 0, 0, 0, 1, c));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, CO | CA, 0, 0, 0, 0, 0, NULL));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, R | CO | CA, 0, 0, 0, 0, 1, c));
	/* EINVAL: id_mask */
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, CO, 1, 1, 1, 0x10000, 0, NULL));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, CO, 1, 1, 1, 0x80000001, 0, NULL));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, R, 1, 1, 1, 1, 1, c));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, CA, 1, 1, 1, 1, 0, NULL));
	/* EINVAL: count and pointer */
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, R, 0, 0, 0, 0, 0, c));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, R, 0, 0, 0, 0, 65, c));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, R, 0, 0, 0, 0, 0xffffffff, c));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, CO, 1, 1, 1, 1, 1, NULL));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, CA, 1, 1, 1, 0, 0, c));
	/* EINVAL: tile, NoC */
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, R, 2, 0, 0, 0, 1, c));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, R, 0, 2, 0, 0, 1, c));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, R, 63, 63, 0, 0, 1, c));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, R, 0x100000000ull >> 1, 0, 0, 0, 1, c));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, R, 0, 0, 2, 0, 1, c));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, CA, 1, 1, 0xffffffff, 0, 0, NULL));
	/* EINVAL: surfaces that are not tile grids */
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, buf, R, 0, 0, 0, 0, 1, c));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, typed_h, CA, 0, 0, 0, 0, 0, NULL));
	/* EINVAL: pad */
	memset(&a, 0, sizeof(a));
	a.handle = g->handle;
	a.flags = R;
	a.count = 1;
	a.counters = vt_u64_ptr(c);
	a.pad = 1;
	VT_EXPECT_ERRNO(EINVAL, ioctl(fd, DRM_IOCTL_VATOM_NOC_COUNTERS, &a));
	a.pad = 0;
	ASSERT_EQ(0, ioctl(fd, DRM_IOCTL_VATOM_NOC_COUNTERS, &a));

	/* EFAULT, and a failed read-and-clear clears nothing. */
	VT_EXPECT_ERRNO(EFAULT, vn_counters(fd, g->handle, R, 1, 1, 1, 0, 64, (void *)8));
	VT_EXPECT_ERRNO(EFAULT, vn_counters(fd, g->handle, R | CA, 1, 1, 1, 0, 64,
					    (void *)8));
	VT_EXPECT_ERRNO(EFAULT, vn_counters(fd, g->handle, R | CO, 1, 1, 1, 1, 64,
					    (void *)8));
	{
		void *ro = mmap(NULL, VT_PAGE_SIZE, PROT_READ,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		__u8 *pg = mmap(NULL, 2 * VT_PAGE_SIZE, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		ASSERT_NE(MAP_FAILED, ro);
		ASSERT_NE(MAP_FAILED, pg);
		VT_EXPECT_ERRNO(EFAULT, vn_counters(fd, g->handle, R | CA, 1, 1, 1,
						    0, 64, ro));
		/* 64 counters ending past a page into an unmapped one. */
		ASSERT_EQ(0, munmap(pg + VT_PAGE_SIZE, VT_PAGE_SIZE));
		VT_EXPECT_ERRNO(EFAULT, vn_counters(fd, g->handle, R | CA, 1, 1, 1, 0,
						    64, pg + VT_PAGE_SIZE - 8));
		/* Two counters fit before the hole. */
		ASSERT_EQ(0, vn_counters(fd, g->handle, R, 1, 1, 1, 0, 2,
					 pg + VT_PAGE_SIZE - 8));
		munmap(ro, VT_PAGE_SIZE);
		munmap(pg, VT_PAGE_SIZE);
	}
	EXPECT_EQ(3, vn_cnt(g, 1, 1, 1)[VN_OUTSTANDING(0)]);
	EXPECT_EQ(4, vn_cnt(g, 1, 1, 1)[VN_CMD_ACCEPTED]);

	/* READ writes exactly @count words. */
	memset(c, VT_POISON, sizeof(c));
	ASSERT_EQ(0, vn_counters(fd, g->handle, R, 1, 1, 1, 0, 5, c));
	EXPECT_EQ(0, c[0]);
	EXPECT_EQ(4, c[VN_CMD_ACCEPTED]);
	EXPECT_EQ(VT_POISON32, c[5]);
	/* READ | CLEAR_ALL: all 64 come back, then all are 0. */
	memset(c, VT_POISON, sizeof(c));
	ASSERT_EQ(0, vn_counters(fd, g->handle, R | CA, 1, 1, 1, 0, 64, c));
	EXPECT_EQ(3, c[VN_OUTSTANDING(0)]);
	EXPECT_EQ(4, c[VN_CMD_ACCEPTED]);
	EXPECT_EQ(VT_POISON32, c[64]);
	EXPECT_EQ(-1, vt_find_ne32(vn_cnt(g, 1, 1, 1), 0, 64, 0));

	/* A closed handle is unknown. */
	EXPECT_EQ(0, vt_gem_close(fd, typed_h));
	VT_EXPECT_ERRNO(ENOENT, vn_counters(fd, typed_h, R, 0, 0, 0, 0, 1, c));
	EXPECT_EQ(0, vt_gem_close(fd, buf));
	vn_grid_free(g);
	close(fd);
}
