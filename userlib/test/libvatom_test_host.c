// SPDX-License-Identifier: MIT
/*
 * libvatom test: the builder's vISA, TYPED_ATOMIC, ADDC and PTX packets against hand-written
 * byte images, and PTX access sizes.
 *
 * Part of libvatom_test.c's one translation unit (its harness: EXPECT(),
 * REQUIRE(), the device); not built alone.
 *
 * Copyright (C) 2026 The vatom developers
 */

/* ------------------------------------------------------------------------ */
/* Host checks: the builder                                                  */
/* ------------------------------------------------------------------------ */

static void host_version(void)
{
	char want[32];

	snprintf(want, sizeof(want), "%d.%d.%d", VATOM_VERSION_MAJOR,
		 VATOM_VERSION_MINOR, VATOM_VERSION_PATCH);
	EXPECT_EQ(vatom_version(), VATOM_VERSION_NUMBER);
	EXPECT(!strcmp(vatom_version_string(), want));
	EXPECT(!strcmp(VATOM_VERSION_STRING, want));
	EXPECT(VATOM_CHECK_VERSION(0, 1, 0));
	EXPECT(!VATOM_CHECK_VERSION(VATOM_VERSION_MAJOR + 1, 0, 0));
}

/* DWORD_ATOMIC.ADD (M1, 4) T255 offsets src0 V0 dst */
static void host_dword_atomic_bytes(void)
{
	static const uint8_t want[] = {
		LE32(1), LE32(64),		/* hdr: VISA, 64 bytes */
		0x7d, 0x00, 0x02, 0x05,		/* opcode, op ADD, (M1, 4), T255 */
		0x00, 0, 0, 0,			/* type UD, pad */
		LE32(0x51),			/* ADDR | SRC0 | DST */
		LE32(0x0f),			/* emask */
		LE32(0),			/* pred */
		LE32(0),			/* flags */
		LE32(0), LE32(4), LE32(8), LE32(12),	/* offsets */
		LE32(1), LE32(2), LE32(3), LE32(4),	/* src0 */
	};
	const uint32_t offs[] = { 0, 4, 8, 12 }, src0[] = { 1, 2, 3, 4 };
	struct vatom_visa_exec ex = { .size = 4, .mask_ctrl = VATOM_M1,
				      .emask = 0xf };
	struct vatom_batch *b;
	const void *pkt;
	size_t len;
	int res;

	REQUIRE(!vatom_batch_create(NULL, 0, &b));
	res = vatom_prep_dword_atomic(b, &ex, VATOM_VISA_ADD, VATOM_VISA_DST,
				      VATOM_T255, offs, src0, NULL);
	EXPECT_EQ(res, 0);
	pkt = vatom_batch_packet(b, res, &len);
	expect_bytes(pkt, len, want, sizeof(want));
	EXPECT_EQ(vatom_result_size(b, res), 16);
	EXPECT_EQ(vatom_batch_results_size(b), 16);
	EXPECT_EQ(vatom_batch_packets(b), 1);
	vatom_batch_stream(b, &len);
	EXPECT_EQ(len, sizeof(want));
	vatom_batch_destroy(b);
out:;
}

/* (P) DWORD_ATOMIC.CMPXCHG.16 (M2_NM, 2) T7 offsets src0 src1 V0 */
static void host_dword_atomic16_bytes(void)
{
	static const uint8_t want[] = {
		LE32(1), LE32(56),
		0x7d, 0x27, 0x91, 0x07,		/* CMPXCHG|.16, (M2_NM, 2), slot 7 */
		0x00, 0, 0, 0,			/* UD */
		LE32(0x31),			/* ADDR | SRC0 | SRC1 */
		LE32(0x12345678),		/* emask (ignored by _NM) */
		LE32(0x2),			/* pred */
		LE32(1),			/* PREDICATED */
		LE32(2), LE32(6),		/* offsets */
		LE32(0x1111), LE32(0x2222),	/* src0 */
		LE32(0x3333), LE32(0x4444),	/* src1 */
	};
	const uint32_t offs[] = { 2, 6 }, src0[] = { 0x1111, 0x2222 },
		       src1[] = { 0x3333, 0x4444 };
	struct vatom_visa_exec ex = { .size = 2, .mask_ctrl = VATOM_M2_NM,
				      .emask = 0x12345678, .predicated = true,
				      .pred = 0x2 };
	struct vatom_batch *b;
	const void *pkt;
	size_t len;
	int res;

	REQUIRE(!vatom_batch_create(NULL, 0, &b));
	res = vatom_prep_dword_atomic(b, &ex, VATOM_VISA_CMPXCHG, VATOM_VISA_16,
				      7, offs, src0, src1);
	EXPECT_EQ(res, 0);
	pkt = vatom_batch_packet(b, res, &len);
	expect_bytes(pkt, len, want, sizeof(want));
	EXPECT_EQ(vatom_result_size(b, res), 0);	/* Dst is V0 */
	EXPECT_EQ(vatom_batch_results_size(b), 0);
	vatom_batch_destroy(b);
out:;
}

/* DWORD_ATOMIC.IMAX (M3, 2) T0 offsets src0 V0 dst, Q data */
static void host_dword_atomic64_bytes(void)
{
	static const uint8_t want[] = {
		LE32(1), LE32(56),
		0x7d, 0x0c, 0x21, 0x00,		/* IMAX, (M3, 2), T0 */
		0x04, 0, 0, 0,			/* Q */
		LE32(0x51),
		LE32(0x300),
		LE32(0), LE32(0),
		LE32(8), LE32(16),		/* offsets */
		LE64(0xffffffff00000001ull), LE64(5),	/* src0 */
	};
	const uint32_t offs[] = { 8, 16 };
	const uint64_t src0[] = { 0xffffffff00000001ull, 5 };
	struct vatom_visa_exec ex = { .size = 2, .mask_ctrl = VATOM_M3,
				      .emask = 0x300 };
	struct vatom_batch *b;
	const void *pkt;
	size_t len;
	int res;

	REQUIRE(!vatom_batch_create(NULL, 0, &b));
	res = vatom_prep_dword_atomic64(b, &ex, VATOM_VISA_IMAX, VATOM_VISA_DST,
					VATOM_T0, offs, src0, NULL);
	EXPECT_EQ(res, 0);
	pkt = vatom_batch_packet(b, res, &len);
	expect_bytes(pkt, len, want, sizeof(want));
	EXPECT_EQ(vatom_result_size(b, res), 16);
	vatom_batch_destroy(b);
out:;
}

/* TYPED_ATOMIC.INC (M1, 2) T9 u V0 V0 lod V0 V0 dst, and a type override */
static void host_typed_atomic_bytes(void)
{
	static const uint8_t want[] = {
		LE32(1), LE32(48),
		0x73, 0x02, 0x01, 0x09,		/* INC, (M1, 2), slot 9 */
		0x00, 0, 0, 0,
		LE32(0x49),			/* ADDR | LOD | DST */
		LE32(0x3),
		LE32(0), LE32(0),
		LE32(3), LE32(4),		/* u */
		LE32(0), LE32(1),		/* lod */
	};
	const uint32_t u[] = { 3, 4 }, lod[] = { 0, 1 }, src0[] = { 1, 1 };
	struct vatom_visa_exec ex = { .size = 2, .emask = 0x3 };
	const struct drm_vatom_visa *p;
	struct vatom_batch *b;
	const void *pkt;
	size_t len;
	int res;

	REQUIRE(!vatom_batch_create(NULL, 0, &b));
	res = vatom_prep_typed_atomic(b, &ex, VATOM_VISA_INC, VATOM_VISA_DST, 9,
				      u, NULL, NULL, lod, NULL, NULL);
	EXPECT_EQ(res, 0);
	pkt = vatom_batch_packet(b, res, &len);
	expect_bytes(pkt, len, want, sizeof(want));
	EXPECT_EQ(vatom_result_size(b, res), 8);
	/* VATOM_VISA_TYPE() overrides the op's default type. */
	res = vatom_prep_typed_atomic(b, &ex, VATOM_VISA_PREDEC,
				      VATOM_VISA_TYPE(DRM_VATOM_VISA_TYPE_D), 9,
				      u, NULL, NULL, NULL, src0, NULL);
	EXPECT_EQ(res, 1);
	p = vatom_batch_packet(b, res, &len);
	REQUIRE(p);
	EXPECT_EQ(p->type, DRM_VATOM_VISA_TYPE_D);
	EXPECT_EQ(p->operands, 0x11);		/* ADDR | SRC0 */
	EXPECT_EQ(len, 48);
	/* Default types: IMIN D, FMAX F, CMPXCHG UD. */
	vatom_batch_reset(b);
	vatom_prep_typed_atomic(b, &ex, VATOM_VISA_IMIN, 0, 9, u, NULL, NULL,
				NULL, src0, NULL);
	vatom_prep_dword_atomic(b, &ex, VATOM_VISA_FMAX, 0, 9, u, src0, NULL);
	vatom_prep_dword_atomic(b, &ex, VATOM_VISA_CMPXCHG, 0, 9, u, src0, src0);
	p = vatom_batch_packet(b, 0, NULL);
	REQUIRE(p);
	EXPECT_EQ(p->type, DRM_VATOM_VISA_TYPE_D);
	p = vatom_batch_packet(b, 1, NULL);
	REQUIRE(p);
	EXPECT_EQ(p->type, DRM_VATOM_VISA_TYPE_F);
	p = vatom_batch_packet(b, 2, NULL);
	REQUIRE(p);
	EXPECT_EQ(p->type, DRM_VATOM_VISA_TYPE_UD);
	vatom_batch_destroy(b);
out:;
}

/* (P) ADDC (M1, 4) dst carry src0 imm, and ADDC (32) */
static void host_addc_bytes(void)
{
	static const uint8_t want[] = {
		LE32(1), LE32(56),
		0x49, 0x00, 0x02, 0x00,		/* ADDC, op 0, (M1, 4), surface 0 */
		0x00, 0, 0, 0,			/* UD */
		LE32(0x150),			/* SRC0 | DST | SRC1_IMM */
		LE32(0xf), LE32(0x5), LE32(1),	/* emask, pred, PREDICATED */
		LE32(0xffffffff), LE32(1), LE32(2), LE32(3),	/* src0 */
		LE32(1), LE32(0),		/* src1: one immediate, padded */
	};
	const uint32_t src0[] = { 0xffffffff, 1, 2, 3 }, one = 1;
	uint32_t big[32] = { 0 };
	struct vatom_visa_exec ex = { .size = 4, .emask = 0xf,
				      .predicated = true, .pred = 0x5 };
	struct vatom_batch *b;
	const void *pkt;
	size_t len;
	int res;

	REQUIRE(!vatom_batch_create(NULL, 0, &b));
	res = vatom_prep_addc(b, &ex, VATOM_ADDC_SRC1_IMM, src0, &one);
	EXPECT_EQ(res, 0);
	pkt = vatom_batch_packet(b, res, &len);
	expect_bytes(pkt, len, want, sizeof(want));
	/* dst[4] then carry[4]: 16 + 16 bytes. */
	EXPECT_EQ(vatom_result_size(b, res), 16);
	EXPECT_EQ(vatom_batch_results_size(b), 32);
	ex = VATOM_VISA_EXEC(32);
	res = vatom_prep_addc(b, &ex, 0, big, big);
	EXPECT_EQ(res, 1);
	vatom_batch_packet(b, res, &len);
	EXPECT_EQ(len, 32 + 128 + 128);
	EXPECT_EQ(*((const uint8_t *)vatom_batch_packet(b, res, NULL) + 10), 0x05);
	EXPECT_EQ(vatom_result_offset(b, res), 32);
	EXPECT_EQ(vatom_batch_results_size(b), 32 + 256);
	vatom_batch_destroy(b);
out:;
}

/* atom.acq_rel.sys.global.cas.b32 d, [slot 3 + 0x40], 5, 9 */
static void host_ptx_bytes(void)
{
	static const uint8_t want[] = {
		LE32(2), LE32(72),		/* hdr: PTX, 72 bytes */
		4, 2, 0, 1, 3, 3, 3, 0,		/* cas b32 global acq_rel sys, slot 3 */
		LE32(0), LE32(0),		/* flags, pad2 */
		LE64(0x40),			/* addr */
		LE64(0),			/* cache_policy */
		LE64(5), LE64(0),		/* b */
		LE64(9), LE64(0),		/* c */
	};
	struct vatom_ptx_atom a = {
		.op = DRM_VATOM_PTX_OP_CAS, .type = DRM_VATOM_PTX_TYPE_B32,
		.space = DRM_VATOM_PTX_SPACE_GLOBAL,
		.sem = DRM_VATOM_PTX_SEM_ACQ_REL,
		.scope = DRM_VATOM_PTX_SCOPE_SYS, .slot = 3, .addr = 0x40,
		.b.u32 = { 5 }, .c.u32 = { 9 },
	};
	static const uint8_t want_v8[] = {
		LE32(2), LE32(72),
		6, 9, 8, 1, 0, 0, 1, 0,		/* add f16 v8 global, slot 1 */
		LE32(3), LE32(0),		/* NOFTZ | CACHE_HINT */
		LE64(0x100),
		LE64(0xabcdef0123456789ull),
		LE16(0x3c00), LE16(0x4000), LE16(0x4200), LE16(0x4400),
		LE16(0x4500), LE16(0x4600), LE16(0x4700), LE16(0x4800),
		LE64(0), LE64(0),
	};
	struct vatom_ptx_atom v8 = {
		.op = DRM_VATOM_PTX_OP_ADD, .type = DRM_VATOM_PTX_TYPE_F16,
		.vec = 8, .space = DRM_VATOM_PTX_SPACE_GLOBAL, .slot = 1,
		.flags = DRM_VATOM_PTX_NOFTZ | DRM_VATOM_PTX_CACHE_HINT,
		.addr = 0x100, .cache_policy = 0xabcdef0123456789ull,
		/* 1.0, 2.0, 3.0 ... 8.0 in binary16 */
		.b.u16 = { 0x3c00, 0x4000, 0x4200, 0x4400,
			   0x4500, 0x4600, 0x4700, 0x4800 },
	};
	struct vatom_batch *b;
	const void *pkt;
	size_t len;
	int res;

	REQUIRE(!vatom_batch_create(NULL, 0, &b));
	res = vatom_prep_ptx_atom(b, &a);
	EXPECT_EQ(res, 0);
	pkt = vatom_batch_packet(b, res, &len);
	expect_bytes(pkt, len, want, sizeof(want));
	EXPECT_EQ(vatom_result_size(b, res), 4);
	res = vatom_prep_ptx_atom(b, &v8);
	EXPECT_EQ(res, 1);
	pkt = vatom_batch_packet(b, res, &len);
	expect_bytes(pkt, len, want_v8, sizeof(want_v8));
	EXPECT_EQ(vatom_result_size(b, res), 16);
	EXPECT_EQ(vatom_result_offset(b, res), 8);
	vatom_batch_destroy(b);
out:;
}

/* Access sizes: PTX ISA type widths times vector length. */
static void host_ptx_access_size(void)
{
	static const struct { unsigned int type, vec; int size; } t[] = {
		{ DRM_VATOM_PTX_TYPE_B16, 0, 2 },
		{ DRM_VATOM_PTX_TYPE_B32, 0, 4 },
		{ DRM_VATOM_PTX_TYPE_B64, 0, 8 },
		{ DRM_VATOM_PTX_TYPE_B128, 0, 16 },
		{ DRM_VATOM_PTX_TYPE_U32, 0, 4 },
		{ DRM_VATOM_PTX_TYPE_U64, 0, 8 },
		{ DRM_VATOM_PTX_TYPE_S32, 0, 4 },
		{ DRM_VATOM_PTX_TYPE_S64, 0, 8 },
		{ DRM_VATOM_PTX_TYPE_F16, 0, 2 },
		{ DRM_VATOM_PTX_TYPE_BF16, 0, 2 },
		{ DRM_VATOM_PTX_TYPE_F16X2, 0, 4 },
		{ DRM_VATOM_PTX_TYPE_BF16X2, 0, 4 },
		{ DRM_VATOM_PTX_TYPE_F32, 0, 4 },
		{ DRM_VATOM_PTX_TYPE_F64, 0, 8 },
		{ DRM_VATOM_PTX_TYPE_F16, 2, 4 },
		{ DRM_VATOM_PTX_TYPE_F16, 4, 8 },
		{ DRM_VATOM_PTX_TYPE_BF16, 8, 16 },
		{ DRM_VATOM_PTX_TYPE_F32, 2, 8 },
		{ DRM_VATOM_PTX_TYPE_F32, 4, 16 },
		{ DRM_VATOM_PTX_TYPE_F16X2, 4, 16 },
		{ DRM_VATOM_PTX_TYPE_F32, 8, -EINVAL },
		{ DRM_VATOM_PTX_TYPE_B128, 2, -EINVAL },
		{ DRM_VATOM_PTX_TYPE_F32, 3, -EINVAL },
		{ 0, 0, -EINVAL },
		{ 15, 0, -EINVAL },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		int got = vatom_ptx_access_size(t[i].type, t[i].vec);

		if (got != t[i].size) {
			printf("#   type %u vec %u: %d, expected %d\n",
			       t[i].type, t[i].vec, got, t[i].size);
			fails++;
		}
	}
}
