// SPDX-License-Identifier: GPL-2.0
/*
 * Tenstorrent NoC atomics through the device: every NOC_AT_LEN_BE variant
 * on both register profiles, from a table worked out by hand from the
 * spec (the arithmetic in comments), whose parallel-add float rows are
 * cross-checked against the host FPU with flush-to-zero applied by hand.
 *
 * Part of vatom_test.c's translation unit, after test_noc.c (its vn_*
 * helpers and the grid they lay out); not built alone.
 *
 * Copyright (C) 2026 The vatom developers
 */

/* ------------------------------------------------------------------------ */
/* Every variant                                                             */
/* ------------------------------------------------------------------------ */

#define VN_PWH	1u	/* the case runs on Wormhole */
#define VN_PBH	2u	/* ... on Blackhole */
#define VN_PALL	3u

/*
 * One marked unicast from (0,0) to tile (1,1)'s block 0x40, response to
 * (0,0) at 0x100. @targ is T (0x40..0x4f).
 */
struct vn_case {
	const char *what;
	__u32 profiles;
	__u32 at;
	__u32 data;
	__u32 targ;
	__u32 in[4];
	__u32 out[4];
	__u32 result;
};

#define VN_BLK	{ 0x11111111, 0xffffffff, 0x33333333, 0x44444444 }

static const struct vn_case vn_cases[] = {
	/* Increment, opcode 1: at = 0x1000 | IntWidth << 2 | Ofs. */
	{ "incr IntWidth 31 wraps 32 bits", VN_PALL, 0x107c, 5, 0x40,
	  { 0xfffffffe, 2, 3, 4 }, { 0x00000003, 2, 3, 4 }, 0xfffffffe },
	{ "incr IntWidth 7 keeps bits 8..31", VN_PALL, 0x101d, 1, 0x44,
	  { 0, 0x123456ff, 0, 0 }, { 0, 0x12345600, 0, 0 }, 0x123456ff },
	{ "incr IntWidth 7 with D past 8 bits", VN_PALL, 0x101d, 0x1ff, 0x44,
	  { 0, 0x123456ff, 0, 0 }, { 0, 0x123456fe, 0, 0 }, 0x123456ff },
	{ "incr IntWidth 0: 1 + 1 in one bit", VN_PALL, 0x1002, 1, 0x48,
	  { 0, 0, 0xabcd0001, 0 }, { 0, 0, 0xabcd0000, 0 }, 0xabcd0001 },
	{ "incr IntWidth 0: 0 + 3 in one bit", VN_PALL, 0x1002, 3, 0x48,
	  { 0, 0, 0xabcd0000, 0 }, { 0, 0, 0xabcd0001, 0 }, 0xabcd0000 },
	{ "incr IntWidth 15", VN_PALL, 0x103c, 1, 0x40,
	  { 0x1234ffff, 0, 0, 0 }, { 0x12340000, 0, 0, 0 }, 0x1234ffff },
	{ "incr Ofs 3, T names word 0", VN_PALL, 0x107f, 0x10, 0x40,
	  VN_BLK, { 0x11111111, 0xffffffff, 0x33333333, 0x44444454 }, 0x11111111 },
	{ "incr misaligned T 0x47: Result W(0x44)", VN_PALL, 0x107c, 1, 0x47,
	  VN_BLK, { 0x11111112, 0xffffffff, 0x33333333, 0x44444444 }, 0xffffffff },
	/* CAS, opcode 4: at = 0x4000 | SetVal << 6 | CmpVal << 2 | Ofs. */
	{ "CAS 5 -> 9 hit", VN_PALL, 0x4254, 0, 0x40,
	  { 5, 2, 3, 4 }, { 9, 2, 3, 4 }, 5 },
	{ "CAS 5 -> 9 miss", VN_PALL, 0x4254, 0, 0x40,
	  { 6, 2, 3, 4 }, { 6, 2, 3, 4 }, 6 },
	{ "CAS compares all 32 bits", VN_PALL, 0x4254, 0, 0x40,
	  { 0x10000005, 2, 3, 4 }, { 0x10000005, 2, 3, 4 }, 0x10000005 },
	{ "CAS Ofs 2, T names word 3", VN_PALL, 0x43c2, 0, 0x4c,
	  { 1, 2, 0, 4 }, { 1, 2, 0xf, 4 }, 4 },
	{ "CAS 15 -> 0 on word 1", VN_PALL, 0x403d, 0, 0x44,
	  { 0, 15, 0, 0 }, { 0, 0, 0, 0 }, 15 },
	/* Swap mask, opcode 3: at = 0x3000 | Mask << 2; D halves BBBB:AAAA. */
	{ "swap mask 0x00", VN_PALL, 0x3000, 0xbbbbaaaa, 0x40,
	  VN_BLK, VN_BLK, 0x11111111 },
	{ "swap mask 0x01", VN_PALL, 0x3004, 0xbbbbaaaa, 0x40,
	  VN_BLK, { 0x1111aaaa, 0xffffffff, 0x33333333, 0x44444444 }, 0x11111111 },
	{ "swap mask 0x0c", VN_PALL, 0x3030, 0xbbbbaaaa, 0x40,
	  VN_BLK, { 0x11111111, 0xbbbbaaaa, 0x33333333, 0x44444444 }, 0x11111111 },
	{ "swap mask 0x14", VN_PALL, 0x3050, 0xbbbbaaaa, 0x40,
	  VN_BLK, { 0x11111111, 0xffffaaaa, 0x3333aaaa, 0x44444444 }, 0x11111111 },
	{ "swap mask 0x82", VN_PALL, 0x3208, 0xbbbbaaaa, 0x40,
	  VN_BLK, { 0xbbbb1111, 0xffffffff, 0x33333333, 0xbbbb4444 }, 0x11111111 },
	{ "swap mask 0xff", VN_PALL, 0x33fc, 0xbbbbaaaa, 0x40,
	  VN_BLK, { 0xbbbbaaaa, 0xbbbbaaaa, 0xbbbbaaaa, 0xbbbbaaaa }, 0x11111111 },
	{ "swap mask 0xc0, T names word 3", VN_PALL, 0x3300, 0xbbbbaaaa, 0x4c,
	  VN_BLK, { 0x11111111, 0xffffffff, 0x33333333, 0xbbbbaaaa }, 0x44444444 },
	/* Swap index: 6 (Ofs [1:0], bit 2 = 1), 7 (Ofs [3:2]), 10 (BH). */
	{ "swap index 6, Ofs 2", VN_PALL, 0x6006, 0xcafef00d, 0x40,
	  VN_BLK, { 0x11111111, 0xffffffff, 0xcafef00d, 0x44444444 }, 0x11111111 },
	{ "swap index 6, Ofs 0, T word 1", VN_PALL, 0x6004, 0xcafef00d, 0x44,
	  VN_BLK, { 0xcafef00d, 0xffffffff, 0x33333333, 0x44444444 }, 0xffffffff },
	{ "swap index 7, Ofs 2", VN_PALL, 0x7008, 0xcafef00d, 0x40,
	  VN_BLK, { 0x11111111, 0xffffffff, 0xcafef00d, 0x44444444 }, 0x11111111 },
	{ "swap index 7, Ofs 3, bits [1:0] ignored", VN_PALL, 0x700f, 0xcafef00d, 0x40,
	  VN_BLK, { 0x11111111, 0xffffffff, 0x33333333, 0xcafef00d }, 0x11111111 },
	{ "swap index 10, Ofs 3", VN_PBH, 0xa303, 0xcafef00d, 0x40,
	  VN_BLK, { 0x11111111, 0xffffffff, 0x33333333, 0xcafef00d }, 0x11111111 },
	{ "swap index 10, Ofs 1", VN_PBH, 0xa301, 0xcafef00d, 0x48,
	  VN_BLK, { 0x11111111, 0xcafef00d, 0x33333333, 0x44444444 }, 0x33333333 },
	/*
	 * Zaamo (BH): at = 0xa800 | Op << 8 | Ofs, Ofs 1, T word 0.
	 * W = -16, D = 51: add 35, xor 0xf0^0x33 = 0xc3, or 0xf3, and 0x30,
	 * min -16, max 51, minu 51, maxu 0xfffffff0.
	 */
	{ "amoadd", VN_PBH, 0xa801, 0x33, 0x40,
	  { 1, 0xfffffff0, 3, 4 }, { 1, 0x00000023, 3, 4 }, 1 },
	{ "amoxor", VN_PBH, 0xa901, 0x33, 0x40,
	  { 1, 0xfffffff0, 3, 4 }, { 1, 0xffffffc3, 3, 4 }, 1 },
	{ "amoor", VN_PBH, 0xaa01, 0x33, 0x40,
	  { 1, 0xfffffff0, 3, 4 }, { 1, 0xfffffff3, 3, 4 }, 1 },
	{ "amoand", VN_PBH, 0xab01, 0x33, 0x40,
	  { 1, 0xfffffff0, 3, 4 }, { 1, 0x00000030, 3, 4 }, 1 },
	{ "amomin", VN_PBH, 0xac01, 0x33, 0x40,
	  { 1, 0xfffffff0, 3, 4 }, { 1, 0xfffffff0, 3, 4 }, 1 },
	{ "amomax", VN_PBH, 0xad01, 0x33, 0x40,
	  { 1, 0xfffffff0, 3, 4 }, { 1, 0x00000033, 3, 4 }, 1 },
	{ "amominu", VN_PBH, 0xae01, 0x33, 0x40,
	  { 1, 0xfffffff0, 3, 4 }, { 1, 0x00000033, 3, 4 }, 1 },
	{ "amomaxu", VN_PBH, 0xaf01, 0x33, 0x40,
	  { 1, 0xfffffff0, 3, 4 }, { 1, 0xfffffff0, 3, 4 }, 1 },
	/* W = 5, D = 0x80000000 (INT_MIN). */
	{ "amoadd 2", VN_PBH, 0xa801, 0x80000000, 0x40,
	  { 1, 5, 3, 4 }, { 1, 0x80000005, 3, 4 }, 1 },
	{ "amoxor 2", VN_PBH, 0xa901, 0x80000000, 0x40,
	  { 1, 5, 3, 4 }, { 1, 0x80000005, 3, 4 }, 1 },
	{ "amoor 2", VN_PBH, 0xaa01, 0x80000000, 0x40,
	  { 1, 5, 3, 4 }, { 1, 0x80000005, 3, 4 }, 1 },
	{ "amoand 2", VN_PBH, 0xab01, 0x80000000, 0x40,
	  { 1, 5, 3, 4 }, { 1, 0, 3, 4 }, 1 },
	{ "amomin 2", VN_PBH, 0xac01, 0x80000000, 0x40,
	  { 1, 5, 3, 4 }, { 1, 0x80000000, 3, 4 }, 1 },
	{ "amomax 2", VN_PBH, 0xad01, 0x80000000, 0x40,
	  { 1, 5, 3, 4 }, { 1, 5, 3, 4 }, 1 },
	{ "amominu 2", VN_PBH, 0xae01, 0x80000000, 0x40,
	  { 1, 5, 3, 4 }, { 1, 5, 3, 4 }, 1 },
	{ "amomaxu 2", VN_PBH, 0xaf01, 0x80000000, 0x40,
	  { 1, 5, 3, 4 }, { 1, 0x80000000, 3, 4 }, 1 },
	{ "amoadd Ofs 3, T word 2", VN_PBH, 0xa803, 0xffffffff, 0x48,
	  { 1, 2, 3, 0 }, { 1, 2, 3, 0xffffffff }, 3 },
	/* Parallel add (BH), opcode 9: at = 0x9000 | Fmt; D tiled 4x. */
	{ "acc u32 (4)", VN_PBH, 0x9004, 1, 0x40,
	  { 1, 0xffffffff, 0x80000000, 0 }, { 2, 0, 0x80000001, 1 }, 1 },
	{ "acc u32 (12)", VN_PBH, 0x900c, 1, 0x44,
	  { 1, 0xffffffff, 0x80000000, 0 }, { 2, 0, 0x80000001, 1 }, 0xffffffff },
	{ "acc u32 (13)", VN_PBH, 0x900d, 1, 0x48,
	  { 1, 0xffffffff, 0x80000000, 0 }, { 2, 0, 0x80000001, 1 }, 0x80000000 },
	/*
	 * u8, D bytes 02 01 ff 80 (lane i pairs with byte i & 3).
	 * 0x7f01ff10: 10+02 12, ff+01 ff|00, 01+ff ff|00, 7f+80 ff.
	 * 0xffffffff: ff|01, ff|00, ff|fe, ff|7f (saturate | wrap).
	 * 0x01020304: 06, 04, ff|01, 81.
	 */
	{ "acc u8 saturating (7)", VN_PBH, 0x9007, 0x80ff0102, 0x40,
	  { 0x7f01ff10, 0, 0xffffffff, 0x01020304 },
	  { 0xffffff12, 0x80ff0102, 0xffffffff, 0x81ff0406 }, 0x7f01ff10 },
	{ "acc u8 wrapping (15)", VN_PBH, 0x900f, 0x80ff0102, 0x40,
	  { 0x7f01ff10, 0, 0xffffffff, 0x01020304 },
	  { 0xff000012, 0x80ff0102, 0x7ffe0001, 0x81010406 }, 0x7f01ff10 },
	/* fp32, D = 1.5: 1 + 1.5, -1.5 + 1.5 = +0, 2^100 + 1.5, sub + 1.5. */
	{ "acc fp32 (0)", VN_PBH, 0x9000, 0x3fc00000, 0x40,
	  { 0x3f800000, 0xbfc00000, 0x71800000, 0x00000001 },
	  { 0x40200000, 0x00000000, 0x71800000, 0x3fc00000 }, 0x3f800000 },
	{ "acc fp32 (8)", VN_PBH, 0x9008, 0x3fc00000, 0x44,
	  { 0x3f800000, 0xbfc00000, 0x71800000, 0x00000001 },
	  { 0x40200000, 0x00000000, 0x71800000, 0x3fc00000 }, 0xbfc00000 },
	/*
	 * fp32 ftz, D = -2^-126: 1 - 2^-126 = 1; 2^-126(1 + 2^-23) - 2^-126
	 * = 2^-149 -> +0; subnormal inputs are 0: 0 - 2^-126, -0 - 2^-126.
	 */
	{ "acc fp32 flush in and out", VN_PBH, 0x9000, 0x80800000, 0x40,
	  { 0x3f800000, 0x00800001, 0x00000001, 0x80000005 },
	  { 0x3f800000, 0x00000000, 0x80800000, 0x80800000 }, 0x3f800000 },
	/*
	 * D = 2^-126: -2^-126(1 + 2^-23) + 2^-126 = -2^-149 -> -0;
	 * -2^-126 + 2^-126 = +0; 2^-125; -FLT_MAX.
	 */
	{ "acc fp32 flush keeps the sign", VN_PBH, 0x9000, 0x00800000, 0x40,
	  { 0x80800001, 0x80800000, 0x00800000, 0xff7fffff },
	  { 0x80000000, 0x00000000, 0x01000000, 0xff7fffff }, 0x80800001 },
	/*
	 * fp16, D = lo 1.0, hi 2.0 (even halves + 1, odd + 2): 1+1 2, 1+2 3,
	 * sub 0+1, sub 0+2, -2^-14+1 -> 1, 2+2 4, 65504+1 -> 65504, -inf+2.
	 */
	{ "acc fp16 (1)", VN_PBH, 0x9001, 0x40003c00, 0x40,
	  { 0x3c003c00, 0x00010001, 0x40008400, 0xfc007bff },
	  { 0x42004000, 0x40003c00, 0x44003c00, 0xfc007bff }, 0x3c003c00 },
	{ "acc fp16 (9)", VN_PBH, 0x9009, 0x40003c00, 0x40,
	  { 0x3c003c00, 0x00010001, 0x40008400, 0xfc007bff },
	  { 0x42004000, 0x40003c00, 0x44003c00, 0xfc007bff }, 0x3c003c00 },
	/*
	 * D = lo -2^-14, hi +2^-14: 0x0401 - 2^-14 = 2^-24 -> +0,
	 * 0x8401 + 2^-14 = -2^-24 -> -0; zero halves take D.
	 */
	{ "acc fp16 flush keeps the sign", VN_PBH, 0x9001, 0x04008400, 0x40,
	  { 0x84010401, 0, 0, 0 },
	  { 0x80000000, 0x04008400, 0x04008400, 0x04008400 }, 0x84010401 },
	/*
	 * bf16, D = lo 1.0, hi 2.0: 2, 3; sub 0+1, 3+2 5; 1+1 2, -2+2 +0;
	 * 0+1, max + 2 = max.
	 */
	{ "acc bf16 (2)", VN_PBH, 0x9002, 0x40003f80, 0x40,
	  { 0x3f803f80, 0x40400001, 0xc0003f80, 0x7f7f0000 },
	  { 0x40404000, 0x40a03f80, 0x00004000, 0x7f7f3f80 }, 0x3f803f80 },
	{ "acc bf16 (10)", VN_PBH, 0x900a, 0x40003f80, 0x4c,
	  { 0x3f803f80, 0x40400001, 0xc0003f80, 0x7f7f0000 },
	  { 0x40404000, 0x40a03f80, 0x00004000, 0x7f7f3f80 }, 0x7f7f0000 },
	/* bf16 ties to even, D = 1.0: 1 + 2^-8 -> 1; (1 + 2^-7) + 1 -> 2. */
	{ "acc bf16 ties to even", VN_PBH, 0x9002, 0x3f803f80, 0x40,
	  { 0x3b803b80, 0x3f813f81, 0, 0 },
	  { 0x3f803f80, 0x40004000, 0x3f803f80, 0x3f803f80 }, 0x3b803b80 },
};

static __u32 vn_f32_ftz(__u32 b)
{
	return (b & 0x7f800000) ? b : (b & 0x80000000);
}

static __u16 vn_h_ftz(__u16 b, __u16 expmask)
{
	return (b & expmask) ? b : (b & 0x8000);
}

static float vn_f(__u32 b)
{
	float f;

	memcpy(&f, &b, 4);
	return f;
}

static __u32 vn_b(float f)
{
	__u32 b;

	memcpy(&b, &f, 4);
	return b;
}

/* Round a float (no NaN) to bf16, to nearest even. */
static __u16 vn_bf16_rne(float f)
{
	__u32 b = vn_b(f);

	return (__u16)((b + 0x7fff + ((b >> 16) & 1)) >> 16);
}

/*
 * The host FPU's answer for one parallel-add lane, inputs and output
 * flushed by hand; fp16 through _Float16, bf16 through float (exact enough:
 * float has more than 2 * 8 + 2 bits, so rounding twice is harmless).
 * Returns false when this compiler has no _Float16.
 */
static bool vn_host_acc(__u32 fmt, const __u32 in[4], __u32 d, __u32 out[4])
{
	volatile float x, y;
	__u32 i;

	for (i = 0; i < 4; i++)
		out[i] = in[i];
	switch (fmt & 7) {
	case 0:
		for (i = 0; i < 4; i++) {
			x = vn_f(vn_f32_ftz(in[i]));
			y = vn_f(vn_f32_ftz(d));
			out[i] = vn_f32_ftz(vn_b(x + y));
		}
		return true;
	case 1:
#ifdef __FLT16_MANT_DIG__
		for (i = 0; i < 8; i++) {
			__u16 a = vn_h_ftz(in[i / 2] >> (16 * (i & 1)), 0x7c00);
			__u16 b = vn_h_ftz(d >> (16 * (i & 1)), 0x7c00);
			volatile _Float16 ha, hb, hr;
			__u16 r;

			memcpy((void *)&ha, &a, 2);
			memcpy((void *)&hb, &b, 2);
			hr = ha + hb;
			memcpy(&r, (void *)&hr, 2);
			r = vn_h_ftz(r, 0x7c00);
			out[i / 2] = (out[i / 2] & ~(0xffffu << (16 * (i & 1)))) |
				     (__u32)r << (16 * (i & 1));
		}
		return true;
#else
		return false;
#endif
	case 2:
		for (i = 0; i < 8; i++) {
			__u16 a = vn_h_ftz(in[i / 2] >> (16 * (i & 1)), 0x7f80);
			__u16 b = vn_h_ftz(d >> (16 * (i & 1)), 0x7f80);
			__u16 r;

			x = vn_f((__u32)a << 16);
			y = vn_f((__u32)b << 16);
			r = vn_h_ftz(vn_bf16_rne(x + y), 0x7f80);
			out[i / 2] = (out[i / 2] & ~(0xffffu << (16 * (i & 1)))) |
				     (__u32)r << (16 * (i & 1));
		}
		return true;
	}
	return false;
}

/* The hand table's float rows agree with the host FPU. */
TEST(noc_acc_table_vs_host_fpu)
{
	size_t i, checked = 0;

	for (i = 0; i < VT_ARRAY_SIZE(vn_cases); i++) {
		const struct vn_case *c = &vn_cases[i];
		__u32 fmt = c->at & 0xf, host[4];

		if ((c->at >> 12) != 9 || (fmt != 0 && fmt != 8 && fmt != 1 &&
					   fmt != 9 && fmt != 2 && fmt != 10))
			continue;
		if (!vn_host_acc(fmt, c->in, c->data, host))
			continue;
		EXPECT_EQ(-1, vt_mismatch32(host, c->out, 4)) TH_LOG("%s", c->what);
		checked++;
	}
#ifdef __FLT16_MANT_DIG__
	EXPECT_EQ(10, checked);
#else
	EXPECT_EQ(7, checked);
#endif
}

static void vn_run_cases(struct __test_metadata *_metadata, __u32 profile)
{
	struct vn_grid *g;
	size_t i, ran = 0;
	int fd;

	VT_OPEN(fd);
	g = vn_grid_new(_metadata, fd, profile, 4, 3, vn_grid43, VN_TENSIX_L1,
			VN_ETH_L1);
	for (i = 0; i < VT_ARRAY_SIZE(vn_cases); i++) {
		const struct vn_case *c = &vn_cases[i];
		struct drm_vatom_noc p;
		__u32 k;

		if (!(c->profiles & (1u << profile)))
			continue;
		/* The neighbour blocks and the block itself. */
		for (k = 0; k < 4; k++) {
			*vn_l1(g, 1, 1, 0x30 + 4 * k) = 0xa5a5a5a5;
			*vn_l1(g, 1, 1, 0x40 + 4 * k) = c->in[k];
			*vn_l1(g, 1, 1, 0x50 + 4 * k) = 0x5a5a5a5a;
		}
		*vn_l1(g, 0, 0, 0x100) = 0xdddddddd;
		p = vn_req(g, 0, 0, 1, 1, c->targ, c->at, c->data);
		vn_mark(g, &p, 0, 0, 0x100, 1);
		ASSERT_EQ(0, vn_submit(g, &p, 1, NULL)) TH_LOG("%s: errno %d", c->what, errno);
		for (k = 0; k < 4; k++) {
			EXPECT_EQ(c->out[k], *vn_l1(g, 1, 1, 0x40 + 4 * k))
				TH_LOG("%s: word %u", c->what, k);
			EXPECT_EQ(0xa5a5a5a5, *vn_l1(g, 1, 1, 0x30 + 4 * k));
			EXPECT_EQ(0x5a5a5a5a, *vn_l1(g, 1, 1, 0x50 + 4 * k));
		}
		EXPECT_EQ(c->result, *vn_l1(g, 0, 0, 0x100)) TH_LOG("%s: Result", c->what);
		ran++;
	}
	/* 24 cases both profiles have, 34 Blackhole-only ones. */
	EXPECT_EQ(profile == VN_WH ? 24 : 58, ran);
	vn_grid_free(g);
	close(fd);
}

TEST(noc_variants_wormhole)
{
	vn_run_cases(_metadata, VN_WH);
}

TEST(noc_variants_blackhole)
{
	vn_run_cases(_metadata, VN_BH);
}
