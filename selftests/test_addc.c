// SPDX-License-Identifier: GPL-2.0
/*
 * vISA ADDC through the UAPI (seed 002): dst[i] = src0[i] + src1[i] mod 2^32
 * and carry[i] = the carry out, for every exec size 1..32, per-lane and
 * immediate sources, the carry corners, mask control, predication, lanes
 * that must stay untouched, where the results go, and every rejection that
 * is specific to ADDC with its exact reason.
 *
 * The sums and carries are worked out by hand; the test also checks each
 * table row against a 64-bit addition on the host, so a typo in the table
 * cannot pass as a device bug (or hide one).
 *
 * Uses vt_expect_reject() and vt_expect_ok() from vatom_test.c.
 *
 * Part of vatom_test.c's translation unit (see there); not built alone.
 *
 * Copyright (C) 2026 The vatom developers
 */

/**
 * struct vt_addc_row - one lane of ADDC
 * @src0: Src0
 * @src1: Src1
 * @dst: the 32-bit sum
 * @carry: 1 when the sum needs a 33rd bit
 */
struct vt_addc_row {
	__u32 src0, src1, dst, carry;
};

static const struct vt_addc_row vt_addc_rows[32] = {
	{ 0xffffffff, 0x00000001, 0x00000000, 1 },	/* max + 1 */
	{ 0x80000000, 0x80000000, 0x00000000, 1 },
	{ 0x00000000, 0x00000000, 0x00000000, 0 },
	{ 0xffffffff, 0xffffffff, 0xfffffffe, 1 },	/* max + max */
	{ 0x7fffffff, 0x00000001, 0x80000000, 0 },	/* no signed carry */
	{ 0xffffffff, 0x00000000, 0xffffffff, 0 },
	{ 0x00000001, 0xffffffff, 0x00000000, 1 },
	{ 0x12345678, 0x9abcdef0, 0xacf13568, 0 },
	{ 0xdeadbeef, 0x21524111, 0x00000000, 1 },	/* carry through every byte */
	{ 0x80000000, 0x7fffffff, 0xffffffff, 0 },
	{ 0x80000001, 0x7fffffff, 0x00000000, 1 },
	{ 0xfffffffe, 0x00000001, 0xffffffff, 0 },
	{ 0xfffffffe, 0x00000002, 0x00000000, 1 },
	{ 0x00000001, 0x00000001, 0x00000002, 0 },
	{ 0xc0000000, 0x40000000, 0x00000000, 1 },
	{ 0xc0000000, 0x3fffffff, 0xffffffff, 0 },
	{ 0x89abcdef, 0x89abcdef, 0x13579bde, 1 },
	{ 0x00010000, 0xffff0000, 0x00000000, 1 },
	{ 0x0000ffff, 0x00000001, 0x00010000, 0 },
	{ 0xaaaaaaaa, 0x55555555, 0xffffffff, 0 },
	{ 0xaaaaaaaa, 0x55555556, 0x00000000, 1 },
	{ 0xffffffff, 0x80000000, 0x7fffffff, 1 },
	{ 0x40000000, 0x40000000, 0x80000000, 0 },
	{ 0xf0000000, 0x10000000, 0x00000000, 1 },
	{ 0xf0000000, 0x0fffffff, 0xffffffff, 0 },
	{ 0x00000000, 0xffffffff, 0xffffffff, 0 },
	{ 0x80000000, 0x80000001, 0x00000001, 1 },
	{ 0x7fffffff, 0x7fffffff, 0xfffffffe, 0 },
	{ 0x00000005, 0x00000007, 0x0000000c, 0 },
	{ 0xfedcba98, 0x01234567, 0xffffffff, 0 },
	{ 0xfedcba98, 0x01234568, 0x00000000, 1 },
	{ 0x99999999, 0x99999999, 0x33333332, 1 },
};

/* The table agrees with a 64-bit addition on the host. */
static void vt_addc_check_row(struct __test_metadata *_metadata,
			      const struct vt_addc_row *r)
{
	__u64 sum = (__u64)r->src0 + r->src1;

	ASSERT_EQ((__u32)sum, r->dst) TH_LOG("table: 0x%08x + 0x%08x", r->src0,
					     r->src1);
	ASSERT_EQ((__u32)(sum >> 32), r->carry) TH_LOG("table: 0x%08x + 0x%08x",
						       r->src0, r->src1);
}

/* An ADDC packet: @exec_size, all lanes (M1, emask all ones), Dst. */
static void vt_addc(struct vt_visa *v, __u8 exec_size, const __u32 *src0,
		    const __u32 *src1, __u32 imm)
{
	memset(v, 0, sizeof(*v));
	v->opcode = DRM_VATOM_VISA_ADDC;
	v->exec_size = exec_size;
	v->type = DRM_VATOM_VISA_TYPE_UD;
	v->emask = 0xffffffff;
	v->src0 = src0;
	v->src1 = src1;
	v->operands = DRM_VATOM_VISA_OPND_DST | imm |
		      ((imm & DRM_VATOM_VISA_OPND_SRC0_IMM) ? 0 : DRM_VATOM_VISA_OPND_SRC0) |
		      ((imm & DRM_VATOM_VISA_OPND_SRC1_IMM) ? 0 : DRM_VATOM_VISA_OPND_SRC1);
}

/*
 * Check the results of an n-lane ADDC at @res: lane i of the dst region
 * (align8(4n) bytes) and of the carry region after it. @on: enabled lanes;
 * the others must keep the poison.
 */
static void vt_addc_check(struct __test_metadata *_metadata, const __u32 *res,
			  __u32 n, __u32 on, const __u32 *dst, const __u32 *carry,
			  bool last)
{
	__u32 c0 = vt_align8(4 * n) / 4, i;

	for (i = 0; i < n; i++) {
		bool en = (on >> i) & 1;

		EXPECT_EQ(en ? dst[i] : VT_POISON32, res[i])
			TH_LOG("n %u lane %u dst (%s)", n, i, en ? "on" : "off");
		EXPECT_EQ(en ? carry[i] : VT_POISON32, res[c0 + i])
			TH_LOG("n %u lane %u carry (%s)", n, i, en ? "on" : "off");
	}
	/* Nothing past the two regions (when no packet follows). */
	if (last) {
		EXPECT_EQ(-1, vt_find_ne32(res, 2 * c0, 2 * c0 + 8, VT_POISON32))
			TH_LOG("n %u: results written past the packet's regions", n);
	}
}

/* ADDC is always there (docs/semantics-visa.md §1). */
TEST(addc_cap)
{
	int fd;

	VT_OPEN(fd);
	EXPECT_TRUE(vt_caps(fd) & DRM_VATOM_CAP_VISA_ADDC);
	close(fd);
}

/*
 * Exec sizes 1, 2, 4, 8, 16, 32 with per-lane sources; at each size every
 * row of the table runs (in windows of n lanes), so every carry case runs
 * at every size. No surface is bound at all: ADDC uses none.
 */
TEST(addc_exec_sizes)
{
	__u32 s0[32], s1[32], dst[32], carry[32], res[80];
	__u8 code;
	int fd;

	VT_OPEN(fd);
	for (code = 0; code < 32; code++)
		vt_addc_check_row(_metadata, &vt_addc_rows[code]);
	for (code = DRM_VATOM_VISA_EXEC_1; code <= DRM_VATOM_VISA_EXEC_32; code++) {
		__u32 n = 1u << code, base, i;

		for (base = 0; base < 32; base += n) {
			struct vt_stream s;
			struct vt_visa v;

			for (i = 0; i < n; i++) {
				const struct vt_addc_row *r = &vt_addc_rows[base + i];

				s0[i] = r->src0;
				s1[i] = r->src1;
				dst[i] = r->dst;
				carry[i] = r->carry;
			}
			vt_stream_init(&s);
			vt_addc(&v, code, s0, s1, 0);
			vt_add_visa(&s, &v);
			ASSERT_EQ(2 * vt_align8(4 * n), s.results);
			memset(res, VT_POISON, sizeof(res));
			vt_expect_ok(_metadata, fd, &s, NULL, 0, res, sizeof(res));
			vt_addc_check(_metadata, res, n, n == 32 ? ~0u : (1u << n) - 1,
				      dst, carry, true);
		}
	}
	close(fd);
}

/*
 * An immediate source (operand class "immediate") is the same value in
 * every lane: Src1 = 1, Src0 = 0x80000000, and both (0xffffffff + 0xffffffff
 * in all 32 lanes). Sums by hand.
 */
TEST(addc_immediates)
{
	static const __u32 a[8] = { 0xffffffff, 0, 0x7fffffff, 0xfffffffe,
				    0x80000000, 1, 0xffffffff, 0x12345678 };
	static const __u32 a_plus_1[8] = { 0, 1, 0x80000000, 0xffffffff,
					   0x80000001, 2, 0, 0x12345679 };
	static const __u32 a_plus_1_c[8] = { 1, 0, 0, 0, 0, 0, 1, 0 };
	static const __u32 b[8] = { 0x80000000, 0x7fffffff, 0xffffffff, 0,
				    0x80000001, 1, 0x40000000, 0xc0000000 };
	static const __u32 h_plus_b[8] = { 0, 0xffffffff, 0x7fffffff, 0x80000000,
					   1, 0x80000001, 0xc0000000, 0x40000000 };
	static const __u32 h_plus_b_c[8] = { 1, 0, 1, 0, 1, 0, 0, 1 };
	const __u32 one = 1, half = 0x80000000, max = 0xffffffff;
	__u32 res[16 + 16 + 64 + 8], dst32[32], carry32[32], i;
	struct vt_stream s;
	struct vt_visa v;
	int fd;

	VT_OPEN(fd);
	for (i = 0; i < 8; i++) {
		EXPECT_EQ((__u32)((__u64)a[i] + 1), a_plus_1[i]);
		EXPECT_EQ((__u32)(((__u64)a[i] + 1) >> 32), a_plus_1_c[i]);
		EXPECT_EQ((__u32)((__u64)b[i] + half), h_plus_b[i]);
		EXPECT_EQ((__u32)(((__u64)b[i] + half) >> 32), h_plus_b_c[i]);
	}
	for (i = 0; i < 32; i++) {
		dst32[i] = 0xfffffffe;
		carry32[i] = 1;
	}
	vt_stream_init(&s);
	vt_addc(&v, DRM_VATOM_VISA_EXEC_8, a, &one, DRM_VATOM_VISA_OPND_SRC1_IMM);
	vt_add_visa(&s, &v);
	vt_addc(&v, DRM_VATOM_VISA_EXEC_8, &half, b, DRM_VATOM_VISA_OPND_SRC0_IMM);
	vt_add_visa(&s, &v);
	vt_addc(&v, DRM_VATOM_VISA_EXEC_32, &max, &max,
		DRM_VATOM_VISA_OPND_SRC0_IMM | DRM_VATOM_VISA_OPND_SRC1_IMM);
	vt_add_visa(&s, &v);
	ASSERT_EQ(64 + 64 + 256, s.results);
	memset(res, VT_POISON, sizeof(res));
	vt_expect_ok(_metadata, fd, &s, NULL, 0, res, s.results);
	vt_addc_check(_metadata, res, 8, 0xff, a_plus_1, a_plus_1_c, false);
	vt_addc_check(_metadata, res + 16, 8, 0xff, h_plus_b, h_plus_b_c, false);
	vt_addc_check(_metadata, res + 32, 32, ~0u, dst32, carry32, true);

	/* An immediate in a 1-lane packet: 4 bytes + 4 of zero padding. */
	vt_stream_init(&s);
	vt_addc(&v, DRM_VATOM_VISA_EXEC_1, &max, &one,
		DRM_VATOM_VISA_OPND_SRC0_IMM | DRM_VATOM_VISA_OPND_SRC1_IMM);
	vt_add_visa(&s, &v);
	ASSERT_EQ(32 + 8 + 8, s.size);
	memset(res, VT_POISON, sizeof(res));
	vt_expect_ok(_metadata, fd, &s, NULL, 0, res, 16);
	EXPECT_EQ(0, res[0]);
	EXPECT_EQ(1, res[2]);
	close(fd);
}

/*
 * ChEn[i] = (NM or emask bit (4M + i)) and (not predicated or pred bit i);
 * disabled lanes leave both their dst and carry elements untouched. Lane
 * i adds row i of the table. The windows are worked out by hand.
 */
TEST(addc_masks)
{
	static const struct {
		__u8 code, ctrl;
		__u32 emask, flags, pred;
		__u32 lanes;
	} cases[] = {
		/* 16 lanes, M1: bits 0..15 */
		{ DRM_VATOM_VISA_EXEC_16, 0, 0x0000a5f0, 0, 0, 0xa5f0 },
		/* 16 lanes, M5: bits 16..31 */
		{ DRM_VATOM_VISA_EXEC_16, 4, 0x8001ffff, 0, 0, 0x8001 },
		/* 16 lanes, M2: bits 4..19 of 0x000f00f0 = 0xf00f */
		{ DRM_VATOM_VISA_EXEC_16, 1, 0x000f00f0, 0, 0, 0xf00f },
		/* 32 lanes, M1 */
		{ DRM_VATOM_VISA_EXEC_32, 0, 0xa5a5a5a5, 0, 0, 0xa5a5a5a5 },
		/* 32 lanes, _NM, predicated */
		{ DRM_VATOM_VISA_EXEC_32, DRM_VATOM_VISA_EXEC_NM, 0,
		  DRM_VATOM_VISA_PREDICATED, 0x0f0f1234, 0x0f0f1234 },
		/* 32 lanes, M1, emask and predicate */
		{ DRM_VATOM_VISA_EXEC_32, 0, 0xffff0000,
		  DRM_VATOM_VISA_PREDICATED, 0x00ffff00, 0x00ff0000 },
		/* 4 lanes, M8: bits 28..31 */
		{ DRM_VATOM_VISA_EXEC_4, 7, 0x50000000, 0, 0, 0x5 },
		/* 8 lanes, M7 _NM: all, whatever the mask */
		{ DRM_VATOM_VISA_EXEC_8, DRM_VATOM_VISA_EXEC_NM | 6, 0, 0, 0, 0xff },
		/* 1 lane: off through the mask, then through the predicate */
		{ DRM_VATOM_VISA_EXEC_1, 0, 0xfffffffe, 0, 0, 0 },
		{ DRM_VATOM_VISA_EXEC_1, 0, 1, DRM_VATOM_VISA_PREDICATED, 0xfffffffe, 0 },
		{ DRM_VATOM_VISA_EXEC_1, 3, 0x1000, DRM_VATOM_VISA_PREDICATED, 1, 1 },
		/* no lane at all */
		{ DRM_VATOM_VISA_EXEC_8, 0, 0xffffff00, 0, 0, 0 },
	};
	__u32 s0[32], s1[32], dst[32], carry[32], res[80], i, k;
	struct vt_stream s;
	struct vt_visa v;
	int fd;

	VT_OPEN(fd);
	for (i = 0; i < 32; i++) {
		s0[i] = vt_addc_rows[i].src0;
		s1[i] = vt_addc_rows[i].src1;
		dst[i] = vt_addc_rows[i].dst;
		carry[i] = vt_addc_rows[i].carry;
	}
	for (k = 0; k < VT_ARRAY_SIZE(cases); k++) {
		vt_stream_init(&s);
		vt_addc(&v, vt_exec(cases[k].code, cases[k].ctrl), s0, s1, 0);
		v.emask = cases[k].emask;
		v.flags = cases[k].flags;
		v.pred = cases[k].pred;
		vt_add_visa(&s, &v);
		memset(res, VT_POISON, sizeof(res));
		vt_expect_ok(_metadata, fd, &s, NULL, 0, res, sizeof(res));
		vt_addc_check(_metadata, res, 1u << cases[k].code, cases[k].lanes,
			      dst, carry, true);
	}
	close(fd);
}

/*
 * ADDC among other packets: its two regions sit between the regions of
 * the packets around it, in stream order, and results can go to a result
 * surface (at an offset) as well as to user memory.
 */
TEST(addc_result_regions)
{
	const __u32 addr[2] = { 0, 4 }, add[2] = { 5, 6 };
	__u32 s0[4], s1[4], h, rh, i, res[2 + 4 + 4 + 2];
	__u32 *map, *rmap;
	struct drm_vatom_binding bind = { .slot = 0 };
	struct drm_vatom_submit args;
	struct vt_stream s;
	struct vt_visa v;
	int fd;

	VT_OPEN(fd);
	VT_BUFFER(fd, 4096, h, map);
	VT_BUFFER(fd, 4096, rh, rmap);
	bind.handle = h;
	for (i = 0; i < 4; i++) {
		s0[i] = vt_addc_rows[i].src0;
		s1[i] = vt_addc_rows[i].src1;
	}
	map[0] = 100;
	map[1] = 200;
	vt_stream_init(&s);
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_2,
		 DRM_VATOM_VISA_TYPE_UD, addr, add, NULL, true);
	vt_add_visa(&s, &v);
	vt_addc(&v, DRM_VATOM_VISA_EXEC_4, s0, s1, 0);
	vt_add_visa(&s, &v);
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_2,
		 DRM_VATOM_VISA_TYPE_UD, addr, add, NULL, true);
	vt_add_visa(&s, &v);
	ASSERT_EQ(8 + 32 + 8, s.results);

	memset(res, VT_POISON, sizeof(res));
	vt_expect_ok(_metadata, fd, &s, &bind, 1, res, sizeof(res));
	EXPECT_EQ(100, res[0]);
	EXPECT_EQ(200, res[1]);
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(vt_addc_rows[i].dst, res[2 + i]) TH_LOG("lane %u", i);
		EXPECT_EQ(vt_addc_rows[i].carry, res[6 + i]) TH_LOG("lane %u", i);
	}
	EXPECT_EQ(105, res[10]);
	EXPECT_EQ(206, res[11]);

	/* The same stream into the result surface at offset 16. */
	memset(rmap, VT_POISON, 4096);
	vt_submit_args(&args, &s, &bind, 1, NULL, 48);
	args.results = 0;
	args.result_handle = rh;
	args.result_offset = 16;
	ASSERT_EQ(0, vt_submit(fd, &args)) TH_LOG("errno %d reason %u", errno,
						  args.error_reason);
	EXPECT_EQ(48, args.results_needed);
	EXPECT_EQ(-1, vt_find_ne32(rmap, 0, 4, VT_POISON32));
	EXPECT_EQ(110, rmap[4]);
	EXPECT_EQ(212, rmap[5]);
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(vt_addc_rows[i].dst, rmap[6 + i]) TH_LOG("lane %u", i);
		EXPECT_EQ(vt_addc_rows[i].carry, rmap[10 + i]) TH_LOG("lane %u", i);
	}
	EXPECT_EQ(115, rmap[14]);
	EXPECT_EQ(218, rmap[15]);
	EXPECT_EQ(-1, vt_find_ne32(rmap, 16, 1024, VT_POISON32));
	EXPECT_EQ(120, map[0]);
	EXPECT_EQ(224, map[1]);
	munmap(rmap, 4096);
	munmap(map, 4096);
	close(fd);
}

/*
 * Every ADDC-specific rejection, each at packet 1 after a valid DWORD
 * packet 0 that must not run, with its reason (docs/semantics-visa.md §3's
 * order: size, opcode, reserved, Op, exec size, type, operands, exact
 * size, padding).
 */
TEST(addc_rejected)
{
	static const struct {
		const char *what;
		__u8 op, exec_size, surface, type, pad;
		__u32 operands, flags, pred;
		__u32 reason;
	} bad[] = {
		/* Op must be 0: ADDC has no Op byte. */
		{ "op 1", 1, 3, 0, 0, 0, 0, 0, 0, DRM_VATOM_ERR_OP },
		{ "op .16", 0x20, 3, 0, 0, 0, 0, 0, 0, DRM_VATOM_ERR_OP },
		{ "op 0xff", 0xff, 3, 0, 0, 0, 0, 0, 0, DRM_VATOM_ERR_OP },
		/* No surface operand: the byte is reserved. */
		{ "surface 1", 0, 3, 1, 0, 0, 0, 0, 0, DRM_VATOM_ERR_RESERVED },
		{ "surface 255", 0, 3, 255, 0, 0, 0, 0, 0, DRM_VATOM_ERR_RESERVED },
		{ "pad", 0, 3, 0, 0, 1, 0, 0, 0, DRM_VATOM_ERR_RESERVED },
		{ "flags", 0, 3, 0, 0, 0, 0, 2, 0, DRM_VATOM_ERR_RESERVED },
		{ "pred unflagged", 0, 3, 0, 0, 0, 0, 0, 1, DRM_VATOM_ERR_RESERVED },
		{ "operand bit 9", 0, 3, 0, 0, 0, 1u << 9, 0, 0, DRM_VATOM_ERR_RESERVED },
		/* Exec size: 1..32 only, bit 3 clear, window inside 32 bits. */
		{ "exec 64", 0, 6, 0, 0, 0, 0, 0, 0, DRM_VATOM_ERR_EXEC_SIZE },
		{ "exec 128", 0, 7, 0, 0, 0, 0, 0, 0, DRM_VATOM_ERR_EXEC_SIZE },
		{ "exec bit 3", 0, 0x0b, 0, 0, 0, 0, 0, 0, DRM_VATOM_ERR_EXEC_SIZE },
		{ "M2 x 32", 0, 0x15, 0, 0, 0, 0, 0, 0, DRM_VATOM_ERR_EXEC_SIZE },
		{ "M5 x 32", 0, 0x45, 0, 0, 0, 0, 0, 0, DRM_VATOM_ERR_EXEC_SIZE },
		{ "M8 x 8", 0, 0x73, 0, 0, 0, 0, 0, 0, DRM_VATOM_ERR_EXEC_SIZE },
		{ "M8_NM x 8", 0, 0xf3, 0, 0, 0, 0, 0, 0, DRM_VATOM_ERR_EXEC_SIZE },
		{ "M6 x 16", 0, 0x54, 0, 0, 0, 0, 0, 0, DRM_VATOM_ERR_EXEC_SIZE },
		/* "Supported Types: UD" */
		{ "type D", 0, 3, 0, DRM_VATOM_VISA_TYPE_D, 0, 0, 0, 0, DRM_VATOM_ERR_TYPE },
		{ "type F", 0, 3, 0, DRM_VATOM_VISA_TYPE_F, 0, 0, 0, 0, DRM_VATOM_ERR_TYPE },
		{ "type UQ", 0, 3, 0, DRM_VATOM_VISA_TYPE_UQ, 0, 0, 0, 0, DRM_VATOM_ERR_TYPE },
		{ "type Q", 0, 3, 0, DRM_VATOM_VISA_TYPE_Q, 0, 0, 0, 0, DRM_VATOM_ERR_TYPE },
		{ "type 5", 0, 3, 0, 5, 0, 0, 0, 0, DRM_VATOM_ERR_TYPE },
		/* Operands: no address operands, Src0/Src1 each exactly once, Dst. */
		{ "addr", 0, 3, 0, 0, 0, DRM_VATOM_VISA_OPND_ADDR, 0, 0, DRM_VATOM_ERR_OPERANDS },
		{ "V", 0, 3, 0, 0, 0, DRM_VATOM_VISA_OPND_V, 0, 0, DRM_VATOM_ERR_OPERANDS },
		{ "R", 0, 3, 0, 0, 0, DRM_VATOM_VISA_OPND_R, 0, 0, DRM_VATOM_ERR_OPERANDS },
		{ "LOD", 0, 3, 0, 0, 0, DRM_VATOM_VISA_OPND_LOD, 0, 0, DRM_VATOM_ERR_OPERANDS },
		/* Order: Op before type, exec size before type, type before operands. */
		{ "op and type", 1, 3, 0, DRM_VATOM_VISA_TYPE_D, 0, 0, 0, 0, DRM_VATOM_ERR_OP },
		{ "exec and type", 0, 6, 0, DRM_VATOM_VISA_TYPE_D, 0, 0, 0, 0,
		  DRM_VATOM_ERR_EXEC_SIZE },
		{ "type and addr", 0, 3, 0, DRM_VATOM_VISA_TYPE_D, 0,
		  DRM_VATOM_VISA_OPND_ADDR, 0, 0, DRM_VATOM_ERR_TYPE },
		{ "surface and op", 1, 3, 1, 0, 0, 0, 0, 0, DRM_VATOM_ERR_RESERVED },
	};
	static const struct {
		const char *what;
		__u32 operands;
	} opnds[] = {
		{ "src0 and src0 imm", DRM_VATOM_VISA_OPND_SRC0 | DRM_VATOM_VISA_OPND_SRC0_IMM |
				       DRM_VATOM_VISA_OPND_SRC1 | DRM_VATOM_VISA_OPND_DST },
		{ "no src0", DRM_VATOM_VISA_OPND_SRC1 | DRM_VATOM_VISA_OPND_DST },
		{ "src1 and src1 imm", DRM_VATOM_VISA_OPND_SRC0 | DRM_VATOM_VISA_OPND_SRC1 |
				       DRM_VATOM_VISA_OPND_SRC1_IMM | DRM_VATOM_VISA_OPND_DST },
		{ "no src1", DRM_VATOM_VISA_OPND_SRC0 | DRM_VATOM_VISA_OPND_DST },
		{ "no dst", DRM_VATOM_VISA_OPND_SRC0 | DRM_VATOM_VISA_OPND_SRC1 },
		{ "imm, no dst", DRM_VATOM_VISA_OPND_SRC0_IMM | DRM_VATOM_VISA_OPND_SRC1_IMM },
	};
	const __u32 addr[1] = { 0 }, one[1] = { 1 };
	__u32 src[128] = { 0 }, res[18], h, *map;
	struct drm_vatom_submit args;
	struct drm_vatom_binding bind = { .slot = 0 };
	struct drm_vatom_visa *p;
	struct vt_stream s;
	struct vt_visa v;
	__u32 p0;
	size_t i;
	int fd;

	VT_OPEN(fd);
	VT_BUFFER(fd, 4096, h, map);
	memset(map, 0, 4096);
	bind.handle = h;

	/* Packet 0: DWORD_ATOMIC ADD 1 to word 0. */
	vt_stream_init(&s);
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_1,
		 DRM_VATOM_VISA_TYPE_UD, addr, one, NULL, true);
	vt_add_visa(&s, &v);
	p0 = s.size;

	for (i = 0; i < VT_ARRAY_SIZE(bad); i++) {
		s.size = p0;
		s.count = 1;
		vt_addc(&v, bad[i].exec_size, src, src, 0);
		v.op = bad[i].op;
		v.surface = bad[i].surface;
		v.type = bad[i].type;
		v.operands |= bad[i].operands;
		v.flags = bad[i].flags;
		v.pred = bad[i].pred;
		p = vt_add_visa(&s, &v);
		p->pad[1] = bad[i].pad;
		vt_expect_reject(_metadata, fd, &s, &bind, 1, EINVAL, 1, bad[i].reason);
		EXPECT_EQ(0, map[0]) TH_LOG("%s: rejected but packet 0 ran", bad[i].what);
	}
	for (i = 0; i < VT_ARRAY_SIZE(opnds); i++) {
		s.size = p0;
		s.count = 1;
		vt_addc(&v, DRM_VATOM_VISA_EXEC_8, src, src, 0);
		v.operands = opnds[i].operands;
		vt_add_visa(&s, &v);
		vt_expect_reject(_metadata, fd, &s, &bind, 1, EINVAL, 1,
				 DRM_VATOM_ERR_OPERANDS);
		EXPECT_EQ(0, map[0]) TH_LOG("%s: rejected but packet 0 ran", opnds[i].what);
	}

	/* A packet 8 bytes longer than its operands: PACKET_SIZE. */
	s.size = p0;
	s.count = 1;
	vt_addc(&v, DRM_VATOM_VISA_EXEC_2, src, src, 0);
	p = vt_add_visa(&s, &v);
	p->hdr.size += 8;
	memset((char *)s.buf + s.size, 0, 8);
	s.size += 8;
	vt_expect_reject(_metadata, fd, &s, &bind, 1, EINVAL, 1,
			 DRM_VATOM_ERR_PACKET_SIZE);
	/* Immediates' sizes (8 + 8) with the per-lane bits (16 + 16): short. */
	s.size = p0;
	vt_addc(&v, DRM_VATOM_VISA_EXEC_4, src, src,
		DRM_VATOM_VISA_OPND_SRC0_IMM | DRM_VATOM_VISA_OPND_SRC1_IMM);
	p = vt_add_visa(&s, &v);
	p->operands = DRM_VATOM_VISA_OPND_SRC0 | DRM_VATOM_VISA_OPND_SRC1 |
		      DRM_VATOM_VISA_OPND_DST;
	vt_expect_reject(_metadata, fd, &s, &bind, 1, EINVAL, 1,
			 DRM_VATOM_ERR_PACKET_SIZE);

	/* Non-zero padding after an immediate, and after a 1-lane array. */
	s.size = p0;
	vt_addc(&v, DRM_VATOM_VISA_EXEC_8, one, src, DRM_VATOM_VISA_OPND_SRC0_IMM);
	p = vt_add_visa(&s, &v);
	((__u8 *)(p + 1))[4] = 1;
	vt_expect_reject(_metadata, fd, &s, &bind, 1, EINVAL, 1,
			 DRM_VATOM_ERR_RESERVED);
	s.size = p0;
	vt_addc(&v, DRM_VATOM_VISA_EXEC_1, src, one, 0);
	p = vt_add_visa(&s, &v);
	((__u8 *)(p + 1))[8 + 7] = 0x80;
	vt_expect_reject(_metadata, fd, &s, &bind, 1, EINVAL, 1,
			 DRM_VATOM_ERR_RESERVED);
	EXPECT_EQ(0, map[0]);

	/* Results: a destination one region short. */
	s.size = p0;
	vt_addc(&v, DRM_VATOM_VISA_EXEC_8, src, src, 0);
	vt_add_visa(&s, &v);
	memset(res, VT_POISON, sizeof(res));
	vt_submit_args(&args, &s, &bind, 1, res, 8 + 32);
	EXPECT_EQ(-1, vt_submit(fd, &args));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(DRM_VATOM_ERR_RESULTS, args.error_reason);
	EXPECT_EQ(8 + 64, args.results_needed);
	EXPECT_EQ(-1, vt_find_ne32(res, 0, VT_ARRAY_SIZE(res), VT_POISON32));
	EXPECT_EQ(0, map[0]);
	munmap(map, 4096);
	close(fd);
}
