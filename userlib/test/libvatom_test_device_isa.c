// SPDX-License-Identifier: MIT
/*
 * libvatom test: vISA batches (DWORD_ATOMIC, 64-bit, ADDC), results into a surface,
 * error reporting, batch reuse, PTX atom and ISA text lines on the device.
 *
 * Part of libvatom_test.c's one translation unit (its harness: EXPECT(),
 * REQUIRE(), the device); not built alone.
 *
 * Copyright (C) 2026 The vatom developers
 */

/*
 * The DWORD_ATOMIC batch. A 40-dword buffer bound at T255; every
 * expected value below was worked out by hand from the DWORD_ATOMIC
 * semantics (seed 000) and the ChEn rule of the UAPI.
 */
#define NDW 40

static const uint32_t init_mem[NDW] = {
	/* 0..15: ADD */
	0, 100, 200, 300, 400, 500, 600, 700,
	800, 900, 1000, 1100, 1200, 1300, 1400, 1500,
	/* 16..23: CMPXCHG */
	5, 6, 7, 8, 9, 10, 11, 12,
	/* 24..27: IMAX (signed) */
	0xfffffffb, 3, 5, 0xffffffff,
	/* 28..31: PREDEC */
	1, 0, 10, 0x80000000,
	/* 32..34: ADD without Dst, two lanes on dword 32 */
	1000, 2000, 3000,
	/* 35: XCHG, with an out-of-bounds lane */
	77,
	/* 36: INC.16 on both halves */
	0x0002ffff,
	0, 0, 0,
};

static const uint32_t want_mem[NDW] = {
	/* ADD, odd lanes only (predicate 0xaaaa): old + (i + 1) */
	0, 102, 200, 304, 400, 506, 600, 708,
	800, 910, 1000, 1112, 1200, 1314, 1400, 1516,
	/* CMPXCHG: lanes whose src1 matches take src0 */
	50, 6, 70, 8, 90, 10, 110, 12,
	/* IMAX (M5): lanes 0 and 2 enabled; max(-5, -3) = -3, max(5, -1) = 5 */
	0xfffffffd, 3, 5, 0xffffffff,
	/* PREDEC */
	0, 0xffffffff, 9, 0x7fffffff,
	/* ADD 1 + 2 into dword 32, 3 into 33, 4 into 34 */
	1003, 2003, 3004,
	/* XCHG */
	0xdead,
	/* INC.16: 0xffff wraps to 0 without carrying into the high half */
	0x00030000,
	0, 0, 0,
};

static const uint32_t want_add_old[16] = {
	0, 100, 0, 300, 0, 500, 0, 700, 0, 900, 0, 1100, 0, 1300, 0, 1500,
};

static const uint32_t want_cmpxchg_old[8] = { 5, 6, 7, 8, 9, 10, 11, 12 };
static const uint32_t want_imax_old[4] = { 0xfffffffb, 0, 5, 0 };
static const uint32_t want_predec_new[4] = { 0, 0xffffffff, 9, 0x7fffffff };
static const uint32_t want_xchg_old[2] = { 77, 0 };
static const uint16_t want_inc16_old[2] = { 0xffff, 0x0002 };

struct dword_batch {
	int add, cmpxchg, imax, predec, add_nodst, xchg, inc16;
};

static int build_dword_batch(struct vatom_batch *b, struct dword_batch *r)
{
	uint32_t offs[16], src0[16], src1[8];
	struct vatom_visa_exec ex;
	int i;

	/* (P) DWORD_ATOMIC.ADD (M1, 16) T255 offs src0 V0 dst */
	for (i = 0; i < 16; i++) {
		offs[i] = i * 4;
		src0[i] = i + 1;
	}
	ex = (struct vatom_visa_exec){ .size = 16, .mask_ctrl = VATOM_M1,
				       .emask = 0xffff, .predicated = true,
				       .pred = 0xaaaa };
	r->add = vatom_prep_dword_atomic(b, &ex, VATOM_VISA_ADD, VATOM_VISA_DST,
					 VATOM_T255, offs, src0, NULL);
	/* DWORD_ATOMIC.CMPXCHG (M1, 8) T255 offs src0 src1 dst */
	for (i = 0; i < 8; i++) {
		offs[i] = (16 + i) * 4;
		src0[i] = 50 + 10 * i;
		src1[i] = (i % 2) ? 0 : 5 + i;
	}
	ex = VATOM_VISA_EXEC(8);
	r->cmpxchg = vatom_prep_dword_atomic(b, &ex, VATOM_VISA_CMPXCHG,
					     VATOM_VISA_DST, VATOM_T255, offs,
					     src0, src1);
	/* DWORD_ATOMIC.IMAX (M5, 4): channels 16..19 of emask, 0b0101 */
	for (i = 0; i < 4; i++)
		offs[i] = (24 + i) * 4;
	src0[0] = 0xfffffffd;
	src0[1] = 10;
	src0[2] = 0xffffffff;
	src0[3] = 0;
	ex = (struct vatom_visa_exec){ .size = 4, .mask_ctrl = VATOM_M5,
				       .emask = 0x00050000 };
	r->imax = vatom_prep_dword_atomic(b, &ex, VATOM_VISA_IMAX, VATOM_VISA_DST,
					  VATOM_T255, offs, src0, NULL);
	/* DWORD_ATOMIC.PREDEC (M1_NM, 4): the zero emask is ignored */
	for (i = 0; i < 4; i++)
		offs[i] = (28 + i) * 4;
	ex = (struct vatom_visa_exec){ .size = 4, .mask_ctrl = VATOM_M1_NM };
	r->predec = vatom_prep_dword_atomic(b, &ex, VATOM_VISA_PREDEC,
					    VATOM_VISA_DST, VATOM_T255, offs,
					    NULL, NULL);
	/* DWORD_ATOMIC.ADD (M1, 4) T255 offs src0 V0 V0 */
	offs[0] = 128;
	offs[1] = 128;
	offs[2] = 132;
	offs[3] = 136;
	for (i = 0; i < 4; i++)
		src0[i] = i + 1;
	ex = VATOM_VISA_EXEC(4);
	r->add_nodst = vatom_prep_dword_atomic(b, &ex, VATOM_VISA_ADD, 0,
					       VATOM_T255, offs, src0, NULL);
	/* DWORD_ATOMIC.XCHG (M1, 2), lane 1 far out of bounds */
	offs[0] = 140;
	offs[1] = 0x10000;
	src0[0] = 0xdead;
	src0[1] = 0xbeef;
	ex = VATOM_VISA_EXEC(2);
	r->xchg = vatom_prep_dword_atomic(b, &ex, VATOM_VISA_XCHG, VATOM_VISA_DST,
					  VATOM_T255, offs, src0, NULL);
	/* DWORD_ATOMIC.INC.16 (M1, 2) on the two halves of dword 36 */
	offs[0] = 144;
	offs[1] = 146;
	r->inc16 = vatom_prep_dword_atomic(b, &ex, VATOM_VISA_INC,
					   VATOM_VISA_DST | VATOM_VISA_16,
					   VATOM_T255, offs, NULL, NULL);
	return r->add < 0 ? r->add : r->cmpxchg < 0 ? r->cmpxchg :
	       r->imax < 0 ? r->imax : r->predec < 0 ? r->predec :
	       r->add_nodst < 0 ? r->add_nodst : r->xchg < 0 ? r->xchg :
	       r->inc16 < 0 ? r->inc16 : 0;
}

static void check_dword_results(struct vatom_batch *b,
				const struct dword_batch *r)
{
	uint32_t raw[16];
	unsigned int i;

	for (i = 0; i < 16; i++)
		EXPECT_EQ(vatom_result_u32(b, r->add, i), want_add_old[i]);
	for (i = 0; i < 8; i++)
		EXPECT_EQ(vatom_result_u32(b, r->cmpxchg, i), want_cmpxchg_old[i]);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(vatom_result_u32(b, r->imax, i), want_imax_old[i]);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(vatom_result_u32(b, r->predec, i), want_predec_new[i]);
	for (i = 0; i < 2; i++)
		EXPECT_EQ(vatom_result_u32(b, r->xchg, i), want_xchg_old[i]);
	for (i = 0; i < 2; i++)
		EXPECT_EQ(vatom_result_u32(b, r->inc16, i) & 0xffff,
			  want_inc16_old[i]);
	/* Past the packet's lanes, and packets without Dst, read 0. */
	EXPECT_EQ(vatom_result_u32(b, r->xchg, 2), 0);
	EXPECT_EQ(vatom_result_size(b, r->add_nodst), 0);
	EXPECT_EQ(vatom_result_bytes(b, r->add_nodst, raw, sizeof(raw)), -ENODATA);
	/* _bytes gives the same values as the element accessor. */
	EXPECT_EQ(vatom_result_bytes(b, r->imax, raw, sizeof(raw)), 16);
	EXPECT(!memcmp(raw, want_imax_old, 16));
	EXPECT_EQ(vatom_result_bytes(b, r->add, raw, 8), 8);
	EXPECT_EQ(raw[1], 100);
}

static void expect_memory(const uint32_t *mem, const uint32_t *want)
{
	int i;

	for (i = 0; i < NDW; i++) {
		if (mem[i] != want[i]) {
			printf("#   dword %d is 0x%x, expected 0x%x\n", i,
			       mem[i], want[i]);
			fails++;
		}
	}
}

static void dev_dword_atomic_batch(void)
{
	struct vatom_surface *s = NULL;
	struct vatom_batch *b = NULL;
	struct dword_batch r;
	uint32_t idx, reason;
	uint32_t *mem;
	size_t size;

	REQUIRE(!vatom_surface_create_buffer(dev, NDW * 4, 0, &s));
	REQUIRE(!vatom_surface_map(s, (void **)&mem));
	memcpy(mem, init_mem, sizeof(init_mem));
	REQUIRE(!vatom_batch_create(dev, 0, &b));
	REQUIRE(!vatom_batch_bind(b, VATOM_T255, s));
	REQUIRE(!build_dword_batch(b, &r));
	EXPECT_EQ(r.add, 0);
	EXPECT_EQ(r.inc16, 6);
	/* Regions by hand: 64 + 32 + 16 + 16 + 0 + 8 + 8. */
	EXPECT_EQ(vatom_batch_results_size(b), 144);
	EXPECT_EQ(vatom_result_offset(b, r.xchg), 128);
	EXPECT_EQ(vatom_batch_submit(b), 0);
	EXPECT_EQ(vatom_batch_error(b, &idx, &reason), 0);
	EXPECT_EQ(reason, DRM_VATOM_ERR_NONE);
	EXPECT(vatom_batch_results(b, &size));
	EXPECT_EQ(size, 144);
	check_dword_results(b, &r);
	expect_memory(mem, want_mem);
out:
	vatom_batch_destroy(b);
	vatom_surface_destroy(s);
}

/* The same batch with its results in a surface, at an offset. */
static void dev_result_surface(void)
{
	struct vatom_surface *s = NULL, *rs = NULL;
	struct vatom_batch *b = NULL;
	struct dword_batch r;
	uint32_t *mem, *res;

	if (!(vatom_device_caps(dev) & DRM_VATOM_CAP_RESULT_SURFACE)) {
		skip("no DRM_VATOM_CAP_RESULT_SURFACE");
		return;
	}
	REQUIRE(!vatom_surface_create_buffer(dev, NDW * 4, 0, &s));
	REQUIRE(!vatom_surface_create_buffer(dev, 4096, 0, &rs));
	REQUIRE(!vatom_surface_map(s, (void **)&mem));
	REQUIRE(!vatom_surface_map(rs, (void **)&res));
	memcpy(mem, init_mem, sizeof(init_mem));
	REQUIRE(!vatom_batch_create(dev, 0, &b));
	REQUIRE(!vatom_batch_bind(b, VATOM_T255, s));
	REQUIRE(!build_dword_batch(b, &r));
	EXPECT_EQ(vatom_batch_submit_to(b, rs, 256), 0);
	/* Disabled lanes keep what the surface held (zero here). */
	check_dword_results(b, &r);
	expect_memory(mem, want_mem);
	/* The raw layout: XCHG's region at 256 + 128. */
	EXPECT_EQ(res[(256 + 128) / 4], 77);
	EXPECT_EQ(res[(256 + 0) / 4 + 3], 300);
	EXPECT_EQ(res[0], 0);			/* before the offset: untouched */
out:
	vatom_batch_destroy(b);
	vatom_surface_destroy(rs);
	vatom_surface_destroy(s);
}

/* A rejected stream executes nothing and names the packet and reason. */
static void dev_error_reporting(void)
{
	const uint32_t offs[4] = { 0, 4, 8, 12 }, one[4] = { 1, 1, 1, 1 };
	const uint64_t bad_type[1] = { 0x0000000800007777ull };	/* type 0x7777 */
	struct vatom_visa_exec ex = VATOM_VISA_EXEC(4);
	struct vatom_surface *s = NULL;
	struct vatom_batch *b = NULL;
	uint32_t idx = 99, reason = 99, *mem;

	REQUIRE(!vatom_surface_create_buffer(dev, 64, 0, &s));
	REQUIRE(!vatom_surface_map(s, (void **)&mem));
	REQUIRE(!vatom_batch_create(dev, 0, &b));
	REQUIRE(!vatom_batch_bind(b, VATOM_T255, s));
	/* Packets 0 and 1 are fine; INC must have Src0 = V0. */
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex, VATOM_VISA_ADD, VATOM_VISA_DST,
					  VATOM_T255, offs, one, NULL), 0);
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex, VATOM_VISA_ADD, 0, VATOM_T255,
					  offs, one, NULL), 1);
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex, VATOM_VISA_INC, 0, VATOM_T255,
					  offs, one, NULL), 2);
	EXPECT_EQ(vatom_batch_submit(b), -EINVAL);
	EXPECT_EQ(vatom_batch_error(b, &idx, &reason), -EINVAL);
	EXPECT_EQ(idx, 2);
	EXPECT_EQ(reason, DRM_VATOM_ERR_OPERANDS);
	EXPECT_EQ(mem[0], 0);			/* nothing executed */
	EXPECT(!vatom_batch_results(b, NULL));
	EXPECT_EQ(vatom_result_u32(b, 0, 0), 0);
	if (fails)
		printf("#   reason %u: %s\n", reason, vatom_strreason(reason));

	/* An unbound slot. */
	vatom_batch_reset(b);
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex, VATOM_VISA_ADD, 0, 9, offs,
					  one, NULL), 0);
	EXPECT_EQ(vatom_batch_submit(b), -EINVAL);
	vatom_batch_error(b, &idx, &reason);
	EXPECT_EQ(idx, 0);
	EXPECT_EQ(reason, DRM_VATOM_ERR_SLOT);

	/* An unknown packet type after a good packet. */
	vatom_batch_reset(b);
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex, VATOM_VISA_ADD, 0, VATOM_T255,
					  offs, one, NULL), 0);
	EXPECT_EQ(vatom_prep_raw(b, bad_type, sizeof(bad_type), 0), 1);
	EXPECT_EQ(vatom_batch_submit(b), -EINVAL);
	vatom_batch_error(b, &idx, &reason);
	EXPECT_EQ(idx, 1);
	EXPECT_EQ(reason, DRM_VATOM_ERR_PACKET_TYPE);

	/* M6 + 16 lanes runs past the 32-bit mask. */
	vatom_batch_reset(b);
	ex = VATOM_VISA_EXEC(16);
	ex.mask_ctrl = VATOM_M6;
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex, VATOM_VISA_ADD, 0, VATOM_T255,
					  offs, one, NULL), 0);
	EXPECT_EQ(vatom_batch_submit(b), -EINVAL);
	vatom_batch_error(b, &idx, &reason);
	EXPECT_EQ(idx, 0);
	EXPECT_EQ(reason, DRM_VATOM_ERR_EXEC_SIZE);
	EXPECT_EQ(mem[0], 0);
	/* The batch recovers: a good submission clears the error. */
	vatom_batch_reset(b);
	ex = VATOM_VISA_EXEC(4);
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex, VATOM_VISA_ADD, VATOM_VISA_DST,
					  VATOM_T255, offs, one, NULL), 0);
	EXPECT_EQ(vatom_batch_submit(b), 0);
	EXPECT_EQ(vatom_batch_error(b, &idx, &reason), 0);
	EXPECT_EQ(reason, DRM_VATOM_ERR_NONE);
	EXPECT_EQ(mem[0], 1);
out:
	vatom_batch_destroy(b);
	vatom_surface_destroy(s);
}

/*
 * A raw packet that lies about its results: the kernel's results_needed
 * disagrees with the library's layout, which must be -EPROTO with no
 * results offered (they would be read at the wrong offsets).
 */
static void dev_result_disagreement(void)
{
	const uint32_t offs[2] = { 0, 4 }, one[2] = { 1, 1 };
	struct vatom_visa_exec ex = VATOM_VISA_EXEC(2);
	struct vatom_surface *s = NULL;
	struct vatom_batch *tmp = NULL, *b = NULL;
	const void *pkt;
	size_t len;
	uint32_t *mem;

	REQUIRE(!vatom_surface_create_buffer(dev, 8, 0, &s));
	REQUIRE(!vatom_surface_map(s, (void **)&mem));
	/* Encode a valid ADD with Dst (8 result bytes), then copy it raw. */
	REQUIRE(!vatom_batch_create(NULL, 0, &tmp));
	REQUIRE(!vatom_prep_dword_atomic(tmp, &ex, VATOM_VISA_ADD, VATOM_VISA_DST,
					 VATOM_T255, offs, one, NULL));
	pkt = vatom_batch_packet(tmp, 0, &len);
	REQUIRE(pkt);
	REQUIRE(!vatom_batch_create(dev, 0, &b));
	REQUIRE(!vatom_batch_bind(b, VATOM_T255, s));

	/* Claims none: the kernel asks for 8, gets them, then -EPROTO. */
	EXPECT_EQ(vatom_prep_raw(b, pkt, len, 0), 0);
	EXPECT_EQ(vatom_batch_submit(b), -EPROTO);
	EXPECT(!vatom_batch_results(b, NULL));
	EXPECT_EQ(mem[0], 1);		/* it did execute */

	/* Claims 24: more room than needed, still a disagreement. */
	vatom_batch_reset(b);
	EXPECT_EQ(vatom_prep_raw(b, pkt, len, 24), 0);
	EXPECT_EQ(vatom_batch_submit(b), -EPROTO);
	EXPECT_EQ(vatom_batch_error(b, NULL, NULL), -EPROTO);
	EXPECT_EQ(vatom_result_u32(b, 0, 0), 0);
	EXPECT_EQ(mem[0], 2);

	/* Claims the truth: fine. */
	vatom_batch_reset(b);
	EXPECT_EQ(vatom_prep_raw(b, pkt, len, 8), 0);
	EXPECT_EQ(vatom_batch_submit(b), 0);
	EXPECT_EQ(vatom_result_u32(b, 0, 0), 2);
	EXPECT_EQ(vatom_result_u32(b, 0, 1), 2);
out:
	vatom_batch_destroy(b);
	vatom_batch_destroy(tmp);
	vatom_surface_destroy(s);
}

/* Submitting a batch again re-runs it; reset keeps the bindings. */
static void dev_batch_reuse(void)
{
	const uint32_t offs[4] = { 0, 4, 8, 12 }, src[4] = { 1, 10, 100, 1000 };
	struct vatom_visa_exec ex = VATOM_VISA_EXEC(4);
	struct vatom_surface *s = NULL;
	struct vatom_batch *b = NULL;
	uint32_t *mem;
	int res, i;

	REQUIRE(!vatom_surface_create_buffer(dev, 16, 0, &s));
	REQUIRE(!vatom_surface_map(s, (void **)&mem));
	REQUIRE(!vatom_batch_create(dev, 0, &b));
	REQUIRE(!vatom_batch_bind(b, VATOM_T255, s));
	res = vatom_prep_dword_atomic(b, &ex, VATOM_VISA_ADD, VATOM_VISA_DST,
				      VATOM_T255, offs, src, NULL);
	REQUIRE(res == 0);
	for (i = 0; i < 3; i++)
		EXPECT_EQ(vatom_batch_submit(b), 0);
	/* Third run saw two adds already. */
	EXPECT_EQ(vatom_result_u32(b, res, 0), 2);
	EXPECT_EQ(vatom_result_u32(b, res, 3), 2000);
	EXPECT_EQ(mem[0], 3);
	EXPECT_EQ(mem[1], 30);
	EXPECT_EQ(mem[2], 300);
	EXPECT_EQ(mem[3], 3000);
	/* Reset, reuse with another op, same binding. */
	vatom_batch_reset(b);
	EXPECT(!vatom_batch_results(b, NULL));
	res = vatom_prep_dword_atomic(b, &ex, VATOM_VISA_XCHG, VATOM_VISA_DST,
				      VATOM_T255, offs, src, NULL);
	EXPECT_EQ(res, 0);
	EXPECT_EQ(vatom_batch_submit(b), 0);
	EXPECT_EQ(vatom_result_u32(b, res, 1), 30);
	EXPECT_EQ(mem[1], 10);
	/* Appending invalidates the old results until the next submission. */
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex, VATOM_VISA_XCHG, 0, VATOM_T255,
					  offs, src, NULL), 1);
	EXPECT_EQ(vatom_result_u32(b, res, 1), 0);
	/* Unbinding makes the slot an error again. */
	EXPECT_EQ(vatom_batch_bind(b, VATOM_T255, NULL), 0);
	EXPECT_EQ(vatom_batch_submit(b), -EINVAL);
	EXPECT_EQ(vatom_batch_error(b, NULL, NULL), -EINVAL);
out:
	vatom_batch_destroy(b);
	vatom_surface_destroy(s);
}

/* Only when the device says it implements them. */
static bool visa_op_supported(uint32_t form, unsigned int op)
{
	uint64_t mask;

	if (vatom_device_get_param(dev, DRM_VATOM_PARAM_VISA_OPS, form, &mask))
		return false;
	return mask & (1ull << op);
}

static void dev_dword_atomic64(void)
{
	const uint32_t offs[2] = { 0, 8 };
	const uint64_t src0[2] = { 0x00000001ffffffffull, 0xfffffffffffffffeull };
	struct vatom_visa_exec ex = VATOM_VISA_EXEC(2);
	struct vatom_surface *s = NULL;
	struct vatom_batch *b = NULL;
	uint64_t *mem;
	int res;

	if (!visa_op_supported(DRM_VATOM_VISA_FORM_DWORD64, VATOM_VISA_ADD)) {
		skip("DWORD_ATOMIC on UQ not implemented by the device");
		return;
	}
	REQUIRE(!vatom_surface_create_buffer(dev, 16, 0, &s));
	REQUIRE(!vatom_surface_map(s, (void **)&mem));
	mem[0] = 0x00000000ffffffffull;
	mem[1] = 5;
	REQUIRE(!vatom_batch_create(dev, 0, &b));
	REQUIRE(!vatom_batch_bind(b, VATOM_T255, s));
	res = vatom_prep_dword_atomic64(b, &ex, VATOM_VISA_ADD, VATOM_VISA_DST,
					VATOM_T255, offs, src0, NULL);
	REQUIRE(res == 0);
	EXPECT_EQ(vatom_batch_submit(b), 0);
	EXPECT_EQ(vatom_result_u64(b, res, 0), 0x00000000ffffffffull);
	EXPECT_EQ(vatom_result_u64(b, res, 1), 5);
	/* The carry crosses bit 31; the second lane wraps. */
	EXPECT_EQ(mem[0], 0x00000002fffffffeull);
	EXPECT_EQ(mem[1], 3);
out:
	vatom_batch_destroy(b);
	vatom_surface_destroy(s);
}

static void dev_addc(void)
{
	const uint32_t src0[4] = { 0xffffffff, 1, 0x80000000, 7 };
	const uint32_t src1[4] = { 1, 2, 0x80000000, 0xfffffff9 };
	const uint32_t imm = 0xfffffffe;
	/* By hand: sums mod 2^32 and carries out of bit 31. */
	const uint32_t want_dst[4] = { 0, 3, 0, 0 };
	const uint32_t want_carry[4] = { 1, 0, 1, 1 };
	const uint32_t want_dst_imm[4] = { 0xfffffffd, 0xffffffff, 0x7ffffffe, 5 };
	const uint32_t want_carry_imm[4] = { 1, 0, 1, 1 };
	struct vatom_visa_exec ex = VATOM_VISA_EXEC(4);
	struct vatom_batch *b = NULL;
	int r0, r1, i;

	if (!(vatom_device_caps(dev) & DRM_VATOM_CAP_VISA_ADDC)) {
		skip("ADDC not implemented by the device");
		return;
	}
	REQUIRE(!vatom_batch_create(dev, 0, &b));
	r0 = vatom_prep_addc(b, &ex, 0, src0, src1);
	r1 = vatom_prep_addc(b, &ex, VATOM_ADDC_SRC1_IMM, src0, &imm);
	REQUIRE(r0 == 0 && r1 == 1);
	EXPECT_EQ(vatom_batch_submit(b), 0);
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(vatom_result_addc_dst(b, r0, i), want_dst[i]);
		EXPECT_EQ(vatom_result_addc_carry(b, r0, i), want_carry[i]);
		EXPECT_EQ(vatom_result_addc_dst(b, r1, i), want_dst_imm[i]);
		EXPECT_EQ(vatom_result_addc_carry(b, r1, i), want_carry_imm[i]);
	}
out:
	vatom_batch_destroy(b);
}

static void dev_ptx_atom(void)
{
	struct vatom_ptx_atom add = {
		.op = DRM_VATOM_PTX_OP_ADD, .type = DRM_VATOM_PTX_TYPE_U32,
		.space = DRM_VATOM_PTX_SPACE_GLOBAL, .slot = 1, .addr = 8,
		.b.u32 = { 0xfffffff0 },
	};
	struct vatom_ptx_atom cas = {
		.op = DRM_VATOM_PTX_OP_CAS, .type = DRM_VATOM_PTX_TYPE_B64,
		.slot = 1, .addr = 16,
		.b.u64 = { 0x1122334455667788ull },
		.c.u64 = { 42 },
	};
	struct vatom_surface *s = NULL;
	struct vatom_batch *b = NULL;
	uint32_t *mem;
	int r0, r1;

	if (!(vatom_device_caps(dev) & DRM_VATOM_CAP_PTX_ATOM)) {
		skip("PTX atom not implemented by the device");
		return;
	}
	REQUIRE(!vatom_surface_create_buffer(dev, 64, 0, &s));
	REQUIRE(!vatom_surface_map(s, (void **)&mem));
	mem[2] = 0x20;
	mem[4] = 0x55667788;		/* b64 at 16, little-endian */
	mem[5] = 0x11223344;
	REQUIRE(!vatom_batch_create(dev, 0, &b));
	REQUIRE(!vatom_batch_bind(b, 1, s));
	r0 = vatom_prep_ptx_atom(b, &add);
	r1 = vatom_prep_ptx_atom(b, &cas);
	REQUIRE(r0 == 0 && r1 == 1);
	EXPECT_EQ(vatom_batch_submit(b), 0);
	EXPECT_EQ(vatom_result_u32(b, r0, 0), 0x20);
	EXPECT_EQ(mem[2], 0x10);		/* 0x20 + 0xfffffff0 mod 2^32 */
	EXPECT_EQ(vatom_result_u64(b, r1, 0), 0x1122334455667788ull);
	EXPECT_EQ(mem[4], 42);
	EXPECT_EQ(mem[5], 0);
out:
	vatom_batch_destroy(b);
	vatom_surface_destroy(s);
}

/*
 * The ISA text front end on the device: one line per family, assembled
 * with vatom_asm_line() and submitted; values worked out by hand (a 5-lane
 * ADD leaves lanes 5..7 alone; PTX cas swaps on equality; a Blackhole
 * increment of 10 by 5 with its response at (0,0)+0x200).
 */
static void dev_asm_lines(void)
{
	static const uint8_t types[2] = { DRM_VATOM_TILE_TENSIX,
					  DRM_VATOM_TILE_TENSIX };
	struct drm_vatom_tile_grid_desc desc = {
		.profile = DRM_VATOM_NOC_PROFILE_BLACKHOLE, .width = 2,
		.height = 1, .l1_size = { 4096 }, .tile_types = (uintptr_t)types,
	};
	static const uint32_t want_mem[8] = { 11, 21, 31, 41, 51, 0, 0, 0 };
	struct vatom_surface *s = NULL, *grid = NULL;
	struct vatom_batch *b = NULL;
	struct vatom_asm *a = NULL;
	uint32_t *mem, v;
	int r0, r1, r2, i;

	REQUIRE(!vatom_surface_create_buffer(dev, 64, 0, &s));
	REQUIRE(!vatom_surface_create_tile_grid(dev, &desc, &grid));
	REQUIRE(!vatom_surface_map(s, (void **)&mem));
	for (i = 0; i < 5; i++)
		mem[i] = 10 * (i + 1);
	mem[8] = 7;
	REQUIRE(!vatom_noc_l1_write32(grid, 1, 0, 0x100, 10));
	REQUIRE(!vatom_batch_create(dev, 0, &b));
	REQUIRE(!vatom_batch_bind(b, VATOM_T255, s));
	REQUIRE(!vatom_batch_bind(b, 3, grid));
	REQUIRE(!vatom_asm_create(0, &a));
	REQUIRE(!vatom_asm_define_grid(a, "g", 3, DRM_VATOM_NOC_PROFILE_BLACKHOLE));
	r0 = vatom_asm_line(a, b, "DWORD_ATOMIC.ADD (5) T255 {0, 4, 8, 12, 16} 1 V0 old");
	r1 = vatom_asm_line(a, b, "atom.global.cas.b32 d, [T5+32], 7, 99;");
	r2 = vatom_asm_line(a, b, "noc.incr g (0,0) -> (1,0)+0x100 data=5 ret=(0,0)+0x200");
	REQUIRE(r0 == 0 && r1 == 1 && r2 == 2);
	EXPECT_EQ(vatom_batch_submit(b), 0);
	for (i = 0; i < 8; i++) {
		EXPECT_EQ(mem[i], want_mem[i]);
		EXPECT_EQ(vatom_result_u32(b, r0, i), i < 5 ? 10 * (i + 1) : 0);
	}
	EXPECT_EQ(vatom_result_u32(b, r1, 0), 7);
	EXPECT_EQ(mem[8], 99);
	EXPECT(!vatom_noc_l1_read32(grid, 1, 0, 0x100, &v) && v == 15);
	EXPECT(!vatom_noc_l1_read32(grid, 0, 0, 0x200, &v) && v == 10);
out:
	vatom_asm_destroy(a);
	vatom_batch_destroy(b);
	vatom_surface_destroy(grid);
	vatom_surface_destroy(s);
}
