// SPDX-License-Identifier: MIT
/*
 * libvatom test: TYPED_ATOMIC on a 2D surface, and NoC requests, L1 helpers and NIU
 * counters on the device.
 *
 * Part of libvatom_test.c's one translation unit (its harness: EXPECT(),
 * REQUIRE(), the device); not built alone.
 *
 * Copyright (C) 2026 The vatom developers
 */

/*
 * TYPED_ATOMIC on a 4x4 2D surface: ADD then XCHG on the same texels, so
 * the second returns what the first added, whatever the texel layout; a
 * lane with U past the width is out of bounds (returns 0, writes nothing).
 */
static void dev_typed_atomic(void)
{
	struct drm_vatom_typed_desc td = {
		.dim = DRM_VATOM_TYPED_2D, .format = DRM_VATOM_FORMAT_R32,
		.width = 4, .height = 4, .depth = 1, .array_size = 1,
		.levels = 1,
	};
	const uint32_t u[8] = { 0, 1, 2, 3, 0, 1, 2, 4 };
	const uint32_t v[8] = { 0, 0, 0, 0, 1, 1, 1, 0 };
	const uint32_t add[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	const uint32_t xchg[8] = { 100, 101, 102, 103, 104, 105, 106, 107 };
	const uint32_t want_xchg[8] = { 1, 2, 3, 4, 5, 6, 7, 0 };
	struct vatom_visa_exec ex = VATOM_VISA_EXEC(8);
	struct vatom_surface *s = NULL;
	struct vatom_batch *b = NULL;
	uint32_t idx, reason;
	int r0, r1, i, ret;

	ret = vatom_surface_create_typed(dev, &td, &s);
	if (ret == -EOPNOTSUPP) {
		skip("typed surfaces not implemented by the device");
		return;
	}
	REQUIRE(!ret);
	REQUIRE(!vatom_batch_create(dev, 0, &b));
	REQUIRE(!vatom_batch_bind(b, 2, s));
	r0 = vatom_prep_typed_atomic(b, &ex, VATOM_VISA_ADD, VATOM_VISA_DST, 2,
				     u, v, NULL, NULL, add, NULL);
	r1 = vatom_prep_typed_atomic(b, &ex, VATOM_VISA_XCHG, VATOM_VISA_DST, 2,
				     u, v, NULL, NULL, xchg, NULL);
	REQUIRE(r0 == 0 && r1 == 1);
	EXPECT_EQ(vatom_batch_submit(b), 0);
	for (i = 0; i < 8; i++) {
		EXPECT_EQ(vatom_result_u32(b, r0, i), 0);
		EXPECT_EQ(vatom_result_u32(b, r1, i), want_xchg[i]);
	}
	/* A 2D surface needs V: V0 there is an operand error. */
	vatom_batch_reset(b);
	EXPECT_EQ(vatom_prep_typed_atomic(b, &ex, VATOM_VISA_INC, 0, 2, u, NULL,
					  NULL, NULL, NULL, NULL), 0);
	EXPECT_EQ(vatom_batch_submit(b), -EINVAL);
	vatom_batch_error(b, &idx, &reason);
	EXPECT_EQ(idx, 0);
	EXPECT_EQ(reason, DRM_VATOM_ERR_OPERANDS);
out:
	vatom_batch_destroy(b);
	vatom_surface_destroy(s);
}

/*
 * NoC on a 2x1 Blackhole grid of Tensix tiles with 4 KiB L1s. The surface
 * layout (tile_grid.h, docs/semantics-noc.md): NIU counter blocks first,
 * DRM_VATOM_NOC_NIU_COUNTERS words per tile and NoC, tile-major; then the
 * L1s in row-major order. So tile (0,0) NoC 0 counters at 0, tile (1,0)
 * NoC 0 at 512; L1 (0,0) at 1024, L1 (1,0) at 1024 + 4096.
 */
static void dev_noc(void)
{
	uint8_t types[2] = { DRM_VATOM_TILE_TENSIX, DRM_VATOM_TILE_TENSIX };
	struct drm_vatom_tile_grid_desc gd = {
		.profile = DRM_VATOM_NOC_PROFILE_BLACKHOLE, .width = 2,
		.height = 1, .tile_types = (uintptr_t)types,
		.l1_size = { [DRM_VATOM_TILE_TENSIX] = 4096 },
	};
	const int prof = DRM_VATOM_NOC_PROFILE_BLACKHOLE;
	struct vatom_noc_req inc = {
		.slot = 3, .x = 0, .y = 0,
		.packet_tag = 3u << DRM_VATOM_NOC_TAG_TXN_ID_SHIFT,
		.ctrl = DRM_VATOM_NOC_CTRL_REQ_ATOMIC |
			DRM_VATOM_NOC_CTRL_RESP_MARKED,
		.at_len_be = vatom_noc_at_increment(0, 31),
		.at_data = 5,
	};
	struct vatom_noc_req cas = {
		.slot = 3, .x = 0, .y = 0,
		.ctrl = DRM_VATOM_NOC_CTRL_REQ_ATOMIC,	/* posted */
		.at_len_be = vatom_noc_at_cas(1, 0, 9),
	};
	struct vatom_surface *s = NULL;
	struct vatom_batch *b = NULL;
	uint32_t *ctr00, *ctr10, *l1_00, *l1_10;
	uint8_t *base;
	int ret;

	ret = vatom_surface_create_tile_grid(dev, &gd, &s);
	if (ret == -EOPNOTSUPP) {
		skip("tile grids not implemented by the device");
		return;
	}
	REQUIRE(!ret);
	REQUIRE(!vatom_surface_map(s, (void **)&base));
	EXPECT_EQ(vatom_surface_size(s), 1024 + 2 * 4096);
	ctr00 = (uint32_t *)base;
	ctr10 = (uint32_t *)(base + 2 * DRM_VATOM_NOC_NIU_COUNTERS * 4);
	l1_00 = (uint32_t *)(base + 1024);
	l1_10 = (uint32_t *)(base + 1024 + 4096);
	l1_10[0x100 / 4] = 0x10;
	REQUIRE(!vatom_noc_target(&inc, prof, 1, 0, 0x100));
	REQUIRE(!vatom_noc_return(&inc, prof, 0, 0, 0x200));
	REQUIRE(!vatom_noc_target(&cas, prof, 1, 0, 0x104));
	REQUIRE(!vatom_batch_create(dev, 0, &b));
	REQUIRE(!vatom_batch_bind(b, 3, s));
	EXPECT_EQ(vatom_prep_noc(b, &inc), 0);
	EXPECT_EQ(vatom_prep_noc(b, &cas), 1);
	EXPECT_EQ(vatom_batch_results_size(b), 0);
	EXPECT_EQ(vatom_batch_submit(b), 0);
	EXPECT_EQ(l1_10[0x100 / 4], 0x15);	/* 0x10 + 5 */
	EXPECT_EQ(l1_00[0x200 / 4], 0x10);	/* the response: old value */
	EXPECT_EQ(l1_10[0x104 / 4], 9);		/* 0 == CmpVal: SetVal */
	/* Counters (spec section 5.3): one response, txn 3 back to 0. */
	EXPECT_EQ(ctr00[DRM_VATOM_NOC_MST_ATOMIC_RESP_RECEIVED], 1);
	EXPECT_EQ(ctr00[DRM_VATOM_NOC_MST_REQS_OUTSTANDING_ID(3)], 0);
	EXPECT_EQ(ctr00[DRM_VATOM_NOC_MST_NONPOSTED_ATOMIC_SENT], 1);
	EXPECT_EQ(ctr00[DRM_VATOM_NOC_MST_POSTED_ATOMIC_SENT], 1);
	EXPECT_EQ(ctr10[DRM_VATOM_NOC_SLV_REQ_ACCEPTED], 2);
	EXPECT_EQ(ctr10[DRM_VATOM_NOC_SLV_NONPOSTED_ATOMIC_RECEIVED], 1);
	EXPECT_EQ(ctr10[DRM_VATOM_NOC_SLV_POSTED_ATOMIC_RECEIVED], 1);
out:
	vatom_batch_destroy(b);
	vatom_surface_destroy(s);
}

/* The NoC L1 and counter helpers refuse what they cannot do, offline. */
static void host_noc_helper_errors(void)
{
	uint32_t v, c[DRM_VATOM_NOC_NIU_COUNTERS];
	void *p;

	EXPECT_EQ(vatom_noc_l1(NULL, 0, 0, 0, &p), -EINVAL);
	EXPECT_EQ(vatom_noc_l1_read32(NULL, 0, 0, 0, &v), -EINVAL);
	EXPECT_EQ(vatom_noc_l1_write32(NULL, 0, 0, 0, 1), -EINVAL);
	EXPECT_EQ(vatom_noc_counters_read(NULL, 0, 0, 0, c, 1), -EINVAL);
	EXPECT_EQ(vatom_noc_counters_clear(NULL, 0, 0, 0, 1, 0, NULL), -EINVAL);
	EXPECT_EQ(vatom_noc_counters_clear(NULL, 0, 0, 0, 0, 2, NULL), -EINVAL);
}

/*
 * The L1 and counter helpers on a 3 x 2 Blackhole grid, 4 KiB Tensix and
 * 1 KiB Ethernet L1s. Layout by hand (docs/semantics-noc.md): 6 tiles of
 * counters (3072 bytes), then L1s (0,0) T at 3072, (1,0) E at 7168,
 * (2,0) DRAM none, (0,1) T at 8192, (1,1) PCIe none, (2,1) T at 12288.
 */
static void dev_noc_helpers(void)
{
	uint8_t types[6] = {
		DRM_VATOM_TILE_TENSIX, DRM_VATOM_TILE_ETHERNET, DRM_VATOM_TILE_DRAM,
		DRM_VATOM_TILE_TENSIX, DRM_VATOM_TILE_PCIE, DRM_VATOM_TILE_TENSIX,
	};
	struct drm_vatom_tile_grid_desc gd = {
		.profile = DRM_VATOM_NOC_PROFILE_BLACKHOLE, .width = 3,
		.height = 2, .tile_types = (uintptr_t)types,
		.l1_size = { 4096, 1024, 0, 0 },
	};
	const int prof = DRM_VATOM_NOC_PROFILE_BLACKHOLE;
	struct vatom_noc_req inc = {
		.slot = 1, .x = 0, .y = 0,
		.packet_tag = 6u << DRM_VATOM_NOC_TAG_TXN_ID_SHIFT,
		.ctrl = DRM_VATOM_NOC_CTRL_REQ_ATOMIC |
			DRM_VATOM_NOC_CTRL_RESP_MARKED,
		.at_len_be = vatom_noc_at_increment(0, 31),
		.at_data = 5,
	};
	uint32_t c[DRM_VATOM_NOC_NIU_COUNTERS + 1], v;
	struct vatom_surface *s = NULL, *buf = NULL;
	struct vatom_batch *b = NULL;
	uint8_t *base;
	void *p;

	REQUIRE(!vatom_surface_create_tile_grid(dev, &gd, &s));
	EXPECT_EQ(vatom_surface_size(s), 16384);
	REQUIRE(!vatom_surface_map(s, (void **)&base));
	REQUIRE(!vatom_surface_create_buffer(dev, 4096, 0, &buf));

	/* Where each L1 byte is. */
	EXPECT_EQ(vatom_noc_l1(s, 0, 0, 0, &p), 0);
	EXPECT(p == base + 3072);
	EXPECT_EQ(vatom_noc_l1(s, 1, 0, 0x10, &p), 0);
	EXPECT(p == base + 7168 + 0x10);
	EXPECT_EQ(vatom_noc_l1(s, 1, 0, 1023, &p), 0);
	EXPECT(p == base + 7168 + 1023);
	EXPECT_EQ(vatom_noc_l1(s, 0, 1, 4095, &p), 0);
	EXPECT(p == base + 8192 + 4095);
	EXPECT_EQ(vatom_noc_l1(s, 2, 1, 0, &p), 0);
	EXPECT(p == base + 12288);
	/* What has no L1 or lies past it. */
	EXPECT_EQ(vatom_noc_l1(s, 2, 0, 0, &p), -EINVAL);	/* DRAM */
	EXPECT_EQ(vatom_noc_l1(s, 1, 1, 0, &p), -EINVAL);	/* PCIe */
	EXPECT_EQ(vatom_noc_l1(s, 3, 0, 0, &p), -EINVAL);
	EXPECT_EQ(vatom_noc_l1(s, 0, 2, 0, &p), -EINVAL);
	EXPECT_EQ(vatom_noc_l1(s, 1, 0, 1024, &p), -EINVAL);
	EXPECT_EQ(vatom_noc_l1(s, 0, 0, 4096, &p), -EINVAL);
	EXPECT_EQ(vatom_noc_l1(s, 0, 0, 0xffffffff, &p), -EINVAL);
	EXPECT_EQ(vatom_noc_l1(s, 0, 0, 0, NULL), -EINVAL);
	EXPECT_EQ(vatom_noc_l1(buf, 0, 0, 0, &p), -EINVAL);
	EXPECT_EQ(vatom_noc_l1_read32(s, 0, 0, 4092, &v), 0);
	EXPECT_EQ(vatom_noc_l1_read32(s, 0, 0, 4094, &v), -EINVAL);
	EXPECT_EQ(vatom_noc_l1_read32(s, 0, 0, 4096, &v), -EINVAL);
	EXPECT_EQ(vatom_noc_l1_read32(s, 1, 0, 1021, &v), -EINVAL);
	EXPECT_EQ(vatom_noc_l1_write32(s, 1, 0, 1022, 1), -EINVAL);
	EXPECT_EQ(vatom_noc_l1_read32(s, 0, 0, 0, NULL), -EINVAL);

	/* (0,0) increments (2,1) 0x40 by 5; the response goes to (1,0) 0x20. */
	EXPECT_EQ(vatom_noc_l1_write32(s, 2, 1, 0x40, 7), 0);
	EXPECT_EQ(*(uint32_t *)(base + 12288 + 0x40), 7);
	EXPECT_EQ(vatom_noc_l1_write32(s, 1, 0, 0x20, 0xdead), 0);
	REQUIRE(!vatom_noc_target(&inc, prof, 2, 1, 0x40));
	REQUIRE(!vatom_noc_return(&inc, prof, 1, 0, 0x20));
	REQUIRE(!vatom_batch_create(dev, 0, &b));
	REQUIRE(!vatom_batch_bind(b, 1, s));
	EXPECT_EQ(vatom_prep_noc(b, &inc), 0);
	EXPECT_EQ(vatom_batch_submit(b), 0);
	EXPECT_EQ(vatom_noc_l1_read32(s, 2, 1, 0x40, &v), 0);
	EXPECT_EQ(v, 12);
	EXPECT_EQ(vatom_noc_l1_read32(s, 1, 0, 0x20, &v), 0);
	EXPECT_EQ(v, 7);

	/* Counters (spec section 5.3), through the ioctl and the mapping. */
	memset(c, 0xcc, sizeof(c));
	EXPECT_EQ(vatom_noc_counters_read(s, 0, 0, 0, c, 23), 0);
	EXPECT_EQ(c[DRM_VATOM_NOC_MST_CMD_ACCEPTED], 1);
	EXPECT_EQ(c[DRM_VATOM_NOC_MST_NONPOSTED_ATOMIC_SENT], 1);
	EXPECT_EQ(c[DRM_VATOM_NOC_MST_ATOMIC_RESP_RECEIVED], 0);
	EXPECT_EQ(c[DRM_VATOM_NOC_MST_REQS_OUTSTANDING_ID(6)], 1);
	EXPECT_EQ(c[23], 0xcccccccc);
	EXPECT_EQ(vatom_noc_counters_read(s, 1, 0, 0, c, 64), 0);
	EXPECT_EQ(c[DRM_VATOM_NOC_MST_ATOMIC_RESP_RECEIVED], 1);
	EXPECT_EQ(c[DRM_VATOM_NOC_MST_REQS_OUTSTANDING_ID(6)], 0xff);
	EXPECT_EQ(((uint32_t *)base)[(1 * 2 + 0) * 64 + 16 + 6], 0xff);
	/* Clear ID 6 at both ends; the return side with the old values. */
	EXPECT_EQ(vatom_noc_counters_clear(s, 0, 0, 0, 1u << 6, 0, NULL), 0);
	EXPECT_EQ(((uint32_t *)base)[16 + 6], 0);
	memset(c, 0xcc, sizeof(c));
	EXPECT_EQ(vatom_noc_counters_clear(s, 1, 0, 0, 1u << 6, 0, c), 0);
	EXPECT_EQ(c[DRM_VATOM_NOC_MST_REQS_OUTSTANDING_ID(6)], 0xff);
	EXPECT_EQ(c[DRM_VATOM_NOC_MST_ATOMIC_RESP_RECEIVED], 1);
	EXPECT_EQ(c[64], 0xcccccccc);
	EXPECT_EQ(vatom_noc_counters_read(s, 1, 0, 0, c, 64), 0);
	EXPECT_EQ(c[DRM_VATOM_NOC_MST_REQS_OUTSTANDING_ID(6)], 0);
	EXPECT_EQ(c[DRM_VATOM_NOC_MST_ATOMIC_RESP_RECEIVED], 1);
	/* Everything of the target tile. */
	EXPECT_EQ(vatom_noc_counters_clear(s, 2, 1, 0, 0, VATOM_NOC_CLEAR_ALL, c), 0);
	EXPECT_EQ(c[DRM_VATOM_NOC_SLV_REQ_ACCEPTED], 1);
	EXPECT_EQ(c[DRM_VATOM_NOC_SLV_ATOMIC_RESP_SENT], 1);
	EXPECT_EQ(vatom_noc_counters_read(s, 2, 1, 0, c, 64), 0);
	EXPECT_EQ(c[DRM_VATOM_NOC_SLV_REQ_ACCEPTED], 0);
	EXPECT_EQ(c[DRM_VATOM_NOC_SLV_ATOMIC_RESP_SENT], 0);

	/* The kernel's errors come back as they are. */
	EXPECT_EQ(vatom_noc_counters_read(s, 0, 0, 0, c, 0), -EINVAL);
	EXPECT_EQ(vatom_noc_counters_read(s, 0, 0, 0, c, 65), -EINVAL);
	EXPECT_EQ(vatom_noc_counters_read(s, 0, 0, 2, c, 1), -EINVAL);
	EXPECT_EQ(vatom_noc_counters_read(s, 3, 0, 0, c, 1), -EINVAL);
	EXPECT_EQ(vatom_noc_counters_read(s, 0, 0, 0, NULL, 1), -EINVAL);
	EXPECT_EQ(vatom_noc_counters_read(buf, 0, 0, 0, c, 1), -EINVAL);
	EXPECT_EQ(vatom_noc_counters_clear(s, 0, 0, 0, 0x10000, 0, NULL), -EINVAL);
	EXPECT_EQ(vatom_noc_counters_clear(s, 0, 0, 0, 1, VATOM_NOC_CLEAR_ALL, NULL),
		  -EINVAL);
	EXPECT_EQ(vatom_noc_counters_clear(s, 0, 0, 0, 0, 2, NULL), -EINVAL);
	EXPECT_EQ(vatom_noc_counters_clear(s, 0, 0, 0, 0, 0, (uint32_t *)8), -EFAULT);
out:
	vatom_batch_destroy(b);
	vatom_surface_destroy(buf);
	vatom_surface_destroy(s);
}
