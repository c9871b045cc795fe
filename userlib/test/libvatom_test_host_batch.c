// SPDX-License-Identifier: MIT
/*
 * libvatom test: NoC packets and their builders, the result layout of a mixed batch,
 * argument checking, accessors, growth and reset, and the strings.
 *
 * Part of libvatom_test.c's one translation unit (its harness: EXPECT(),
 * REQUIRE(), the device); not built alone.
 *
 * Copyright (C) 2026 The vatom developers
 */

static void host_noc_bytes(void)
{
	static const uint8_t want[] = {
		LE32(3), LE32(64),		/* hdr: NOC, 64 bytes */
		2, 1, 3, 4,			/* slot, noc, x, y */
		LE32(0x1004), LE32(0x00000a30), LE32(0),	/* targ lo/mid/hi */
		LE32(0x2000), LE32(0x00000a30), LE32(0),	/* ret lo/mid/hi */
		LE32(5u << 10),			/* packet tag: transaction 5 */
		LE32(0x11),			/* ctrl: atomic | RESP_MARKED */
		LE32(0x4255),			/* CAS ofs 1 cmp 5 set 9 */
		LE32(0xcafef00d),		/* at_data */
		LE32(0), LE32(0), LE32(0),	/* flags, pad */
	};
	struct vatom_noc_req req = {
		.slot = 2, .noc = 1, .x = 3, .y = 4,
		.targ_addr_lo = 0x1004, .targ_addr_mid = 0xa30,
		.ret_addr_lo = 0x2000, .ret_addr_mid = 0xa30,
		.packet_tag = 5u << 10, .ctrl = 0x11,
		.at_len_be = vatom_noc_at_cas(1, 5, 9),
		.at_data = 0xcafef00d,
	};
	struct vatom_batch *b;
	const void *pkt;
	size_t len;
	int res;

	REQUIRE(!vatom_batch_create(NULL, 0, &b));
	res = vatom_prep_noc(b, &req);
	EXPECT_EQ(res, 0);
	pkt = vatom_batch_packet(b, res, &len);
	expect_bytes(pkt, len, want, sizeof(want));
	EXPECT_EQ(vatom_result_size(b, res), 0);
	EXPECT_EQ(vatom_batch_results_size(b), 0);
	vatom_batch_destroy(b);
out:;
}

/* The ready-made encodings of shared/spec/noc-atomics.md section 1.3. */
static void host_noc_at_len_be(void)
{
	EXPECT_EQ(vatom_noc_at_increment(1, 31), 0x0000107D);
	EXPECT_EQ(vatom_noc_at_increment(0, 7), 0x0000101C);
	EXPECT_EQ(vatom_noc_at_cas(0, 5, 9), 0x00004254);
	EXPECT_EQ(vatom_noc_at_swap_mask(0x0c), 0x00003030);
	EXPECT_EQ(vatom_noc_at_swap_index6(2), 0x00006006);
	EXPECT_EQ(vatom_noc_at_swap_index7(2), 0x00007008);
	EXPECT_EQ(vatom_noc_at_swap_index10(3), 0x0000A303);
	EXPECT_EQ(vatom_noc_at_zaamo(VATOM_NOC_AMOMAXU, 0), 0x0000AF00);
	EXPECT_EQ(vatom_noc_at_acc(2), 0x00009002);
	/* More, from the field tables of section 1.2. */
	EXPECT_EQ(vatom_noc_at_zaamo(VATOM_NOC_AMOADD, 3), 0x0000A803);
	EXPECT_EQ(vatom_noc_at_cas(3, 15, 15), 0x000043FF);	/* [9:0] all set */
	EXPECT_EQ(vatom_noc_at_swap_mask(0xff), 0x000033FC);
	EXPECT_EQ(vatom_noc_at_acc(15), 0x0000900F);
	/* Out-of-field arguments give the reserved opcode 0. */
	EXPECT_EQ(vatom_noc_at_increment(4, 0), 0);
	EXPECT_EQ(vatom_noc_at_increment(0, 32), 0);
	EXPECT_EQ(vatom_noc_at_cas(0, 16, 0), 0);
	EXPECT_EQ(vatom_noc_at_cas(0, 0, 16), 0);
	EXPECT_EQ(vatom_noc_at_swap_mask(0x100), 0);
	EXPECT_EQ(vatom_noc_at_swap_index6(4), 0);
	EXPECT_EQ(vatom_noc_at_swap_index7(4), 0);
	EXPECT_EQ(vatom_noc_at_swap_index10(4), 0);
	EXPECT_EQ(vatom_noc_at_zaamo(8, 0), 0);
	EXPECT_EQ(vatom_noc_at_acc(16), 0);
}

/* Target/return coordinates, by hand from the UAPI's field positions. */
static void host_noc_coordinates(void)
{
	struct vatom_noc_req r = { 0 };

	/* Wormhole: MID = addr[35:32] | X << 4 | Y << 10 | SX << 16 | SY << 22 */
	EXPECT_EQ(vatom_noc_target(&r, DRM_VATOM_NOC_PROFILE_WORMHOLE, 3, 4, 0x1004), 0);
	EXPECT_EQ(r.targ_addr_lo, 0x1004);
	EXPECT_EQ(r.targ_addr_mid, 0x1030);
	EXPECT_EQ(r.targ_addr_hi, 0);
	EXPECT_EQ(vatom_noc_target(&r, DRM_VATOM_NOC_PROFILE_WORMHOLE, 1, 1,
				   0x900000010ull), 0);
	EXPECT_EQ(r.targ_addr_lo, 0x10);
	EXPECT_EQ(r.targ_addr_mid, 0x419);
	EXPECT_EQ(vatom_noc_target(&r, DRM_VATOM_NOC_PROFILE_WORMHOLE, 1, 1,
				   1ull << 36), -EINVAL);
	EXPECT_EQ(r.ctrl, 0);
	EXPECT_EQ(vatom_noc_broadcast(&r, DRM_VATOM_NOC_PROFILE_WORMHOLE,
				      1, 2, 6, 7, 0x40), 0);
	EXPECT_EQ(r.targ_addr_mid, 0x811c60);
	EXPECT_EQ(r.ctrl, DRM_VATOM_NOC_CTRL_BRCST_PACKET);
	EXPECT_EQ(vatom_noc_return(&r, DRM_VATOM_NOC_PROFILE_WORMHOLE, 63, 63, 0x200), 0);
	EXPECT_EQ(r.ret_addr_lo, 0x200);
	EXPECT_EQ(r.ret_addr_mid, 0xfff0);
	EXPECT_EQ(r.ret_addr_hi, 0);

	/* Blackhole: MID = addr[63:32], HI = X | Y << 6 | SX << 12 | SY << 18 */
	memset(&r, 0, sizeof(r));
	EXPECT_EQ(vatom_noc_target(&r, DRM_VATOM_NOC_PROFILE_BLACKHOLE, 5, 2,
				   0x12345), 0);
	EXPECT_EQ(r.targ_addr_lo, 0x12345);
	EXPECT_EQ(r.targ_addr_mid, 0);
	EXPECT_EQ(r.targ_addr_hi, 0x85);
	EXPECT_EQ(vatom_noc_target(&r, DRM_VATOM_NOC_PROFILE_BLACKHOLE, 0, 0,
				   0xabcdef0012345678ull), 0);
	EXPECT_EQ(r.targ_addr_lo, 0x12345678);
	EXPECT_EQ(r.targ_addr_mid, 0xabcdef00);
	EXPECT_EQ(vatom_noc_broadcast(&r, DRM_VATOM_NOC_PROFILE_BLACKHOLE,
				      1, 2, 6, 7, 0x200), 0);
	EXPECT_EQ(r.targ_addr_hi, 0x811c6);
	EXPECT_EQ(r.ctrl, DRM_VATOM_NOC_CTRL_BRCST_PACKET);
	EXPECT_EQ(vatom_noc_return(&r, DRM_VATOM_NOC_PROFILE_BLACKHOLE, 1, 3, 0x80), 0);
	EXPECT_EQ(r.ret_addr_lo, 0x80);
	EXPECT_EQ(r.ret_addr_mid, 0);
	EXPECT_EQ(r.ret_addr_hi, 0xc1);

	/* Out of range. */
	EXPECT_EQ(vatom_noc_target(&r, DRM_VATOM_NOC_PROFILE_BLACKHOLE, 64, 0, 0), -EINVAL);
	EXPECT_EQ(vatom_noc_return(&r, DRM_VATOM_NOC_PROFILE_BLACKHOLE, 0, 64, 0), -EINVAL);
	EXPECT_EQ(vatom_noc_broadcast(&r, DRM_VATOM_NOC_PROFILE_BLACKHOLE,
				      64, 0, 0, 0, 0), -EINVAL);
	EXPECT_EQ(vatom_noc_target(&r, 2, 0, 0, 0), -EINVAL);
	EXPECT_EQ(vatom_noc_target(NULL, DRM_VATOM_NOC_PROFILE_BLACKHOLE, 0, 0, 0), -EINVAL);
}

/*
 * Result regions follow each other in packet order, each rounded up to 8;
 * packets without results own none (UAPI "command stream" DOC).
 */
static void host_result_layout(void)
{
	static const struct { int64_t off; int size; } want[] = {
		{ 0, 4 },	/* DWORD_ATOMIC (1) dst: 4 -> 8 */
		{ 8, 0 },	/* DWORD_ATOMIC (4), Dst V0 */
		{ 8, 4 },	/* ADDC (1): dst 4 -> 8, carry 4 -> 8 */
		{ 24, 16 },	/* atom.cas.b128 */
		{ 40, 0 },	/* NoC */
		{ 40, 16 },	/* DWORD_ATOMIC (2), Q data */
		{ 56, 2 },	/* atom.exch.b16: 2 -> 8 */
		{ 64, 32 },	/* TYPED_ATOMIC (8) dst */
		{ 96, 24 },	/* raw packet claiming 24 result bytes */
	};
	const uint32_t z32[16] = { 0 };
	const uint64_t z64[2] = { 0 };
	struct vatom_visa_exec ex1 = VATOM_VISA_EXEC(1), ex2 = VATOM_VISA_EXEC(2),
			       ex4 = VATOM_VISA_EXEC(4), ex8 = VATOM_VISA_EXEC(8);
	struct vatom_ptx_atom cas128 = { .op = DRM_VATOM_PTX_OP_CAS,
					 .type = DRM_VATOM_PTX_TYPE_B128 };
	struct vatom_ptx_atom exch16 = { .op = DRM_VATOM_PTX_OP_EXCH,
					 .type = DRM_VATOM_PTX_TYPE_B16 };
	struct vatom_noc_req noc = { 0 };
	uint64_t raw[2] = { 0x0000001000000063ull, 0 };	/* type 99, 16 bytes */
	struct vatom_batch *b;
	unsigned int i;

	REQUIRE(!vatom_batch_create(NULL, 16, &b));
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex1, VATOM_VISA_ADD, VATOM_VISA_DST,
					  VATOM_T255, z32, z32, NULL), 0);
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex4, VATOM_VISA_ADD, 0, VATOM_T255,
					  z32, z32, NULL), 1);
	EXPECT_EQ(vatom_prep_addc(b, &ex1, 0, z32, z32), 2);
	EXPECT_EQ(vatom_prep_ptx_atom(b, &cas128), 3);
	EXPECT_EQ(vatom_prep_noc(b, &noc), 4);
	EXPECT_EQ(vatom_prep_dword_atomic64(b, &ex2, VATOM_VISA_ADD,
					    VATOM_VISA_DST, VATOM_T255, z32,
					    z64, NULL), 5);
	EXPECT_EQ(vatom_prep_ptx_atom(b, &exch16), 6);
	EXPECT_EQ(vatom_prep_typed_atomic(b, &ex8, VATOM_VISA_ADD, VATOM_VISA_DST,
					  1, z32, NULL, NULL, NULL, z32, NULL), 7);
	EXPECT_EQ(vatom_prep_raw(b, raw, sizeof(raw), 24), 8);
	for (i = 0; i < 9; i++) {
		if (vatom_result_offset(b, i) != want[i].off ||
		    vatom_result_size(b, i) != want[i].size) {
			printf("#   packet %u: offset %" PRId64 " size %d, expected %"
			       PRId64 " %d\n", i, vatom_result_offset(b, i),
			       vatom_result_size(b, i), want[i].off, want[i].size);
			fails++;
		}
	}
	EXPECT_EQ(vatom_batch_results_size(b), 120);
	EXPECT_EQ(vatom_batch_packets(b), 9);
	EXPECT_EQ(vatom_result_offset(b, 9), -EINVAL);
	EXPECT_EQ(vatom_result_size(b, -1), -EINVAL);
	vatom_batch_destroy(b);
out:;
}

/* The library refuses only what it cannot encode, and leaves no trace. */
static void host_prep_errors(void)
{
	const uint32_t z32[32] = { 0 };
	const uint64_t z64[16] = { 0 };
	struct vatom_visa_exec ex = VATOM_VISA_EXEC(4);
	struct vatom_ptx_atom a = { .type = DRM_VATOM_PTX_TYPE_B32 };
	struct vatom_batch *b;
	uint32_t idx = 1, reason = 1;
	unsigned int n;

	REQUIRE(!vatom_batch_create(NULL, 0, &b));
	for (n = 0; n <= 33; n++) {
		bool valid = n == 1 || n == 2 || n == 4 || n == 8 || n == 16;
		int ret;

		ex.size = n;
		ret = vatom_prep_dword_atomic(b, &ex, VATOM_VISA_ADD, 0, 1, z32,
					      NULL, NULL);
		if ((ret >= 0) != valid) {
			printf("#   DWORD_ATOMIC exec size %u: %d\n", n, ret);
			fails++;
		}
		ret = vatom_prep_addc(b, &ex, 0, z32, z32);
		if ((ret >= 0) != (valid || n == 32)) {
			printf("#   ADDC exec size %u: %d\n", n, ret);
			fails++;
		}
	}
	vatom_batch_reset(b);
	ex = VATOM_VISA_EXEC(4);
	EXPECT_EQ(vatom_prep_dword_atomic(NULL, &ex, 0, 0, 1, z32, NULL, NULL), -EINVAL);
	EXPECT_EQ(vatom_prep_dword_atomic(b, NULL, 0, 0, 1, z32, NULL, NULL), -EINVAL);
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex, 0, 0, 1, NULL, NULL, NULL), -EINVAL);
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex, 32, 0, 1, z32, NULL, NULL), -EINVAL);
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex, 0, 1u << 4, 1, z32, NULL, NULL), -EINVAL);
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex, 0, 0, 256, z32, NULL, NULL), -EINVAL);
	EXPECT_EQ(vatom_prep_dword_atomic64(b, &ex, 0, VATOM_VISA_16, 1, z32, z64, NULL), -EINVAL);
	EXPECT_EQ(vatom_prep_typed_atomic(b, &ex, 0, 0, 1, NULL, z32, NULL, NULL,
					  NULL, NULL), -EINVAL);
	EXPECT_EQ(vatom_prep_addc(b, &ex, 0, NULL, z32), -EINVAL);
	EXPECT_EQ(vatom_prep_addc(b, &ex, 1u << 2, z32, z32), -EINVAL);
	ex.mask_ctrl = 16;
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex, 0, 0, 1, z32, NULL, NULL), -EINVAL);
	/* Mask ranges are the kernel's business: M8 with 16 lanes encodes. */
	ex = VATOM_VISA_EXEC(16);
	ex.mask_ctrl = VATOM_M8;
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex, 0, 0, 1, z32, NULL, NULL), 0);
	vatom_batch_reset(b);
	EXPECT_EQ(vatom_prep_ptx_atom(b, NULL), -EINVAL);
	a.vec = 3;
	EXPECT_EQ(vatom_prep_ptx_atom(b, &a), -EINVAL);
	EXPECT_EQ(vatom_prep_noc(b, NULL), -EINVAL);
	EXPECT_EQ(vatom_prep_raw(b, z32, 12, 0), -EINVAL);
	EXPECT_EQ(vatom_prep_raw(b, z32, 0, 0), -EINVAL);
	EXPECT_EQ(vatom_batch_bind(b, DRM_VATOM_MAX_SLOTS, NULL), -EINVAL);
	EXPECT_EQ(vatom_batch_bind(b, DRM_VATOM_MAX_SLOTS - 1, NULL), 0);
	EXPECT_EQ(vatom_batch_packets(b), 0);
	EXPECT_EQ(vatom_batch_results_size(b), 0);
	/* An offline batch cannot be submitted. */
	EXPECT_EQ(vatom_batch_submit(b), -ENODEV);
	EXPECT_EQ(vatom_batch_error(b, &idx, &reason), -ENODEV);
	EXPECT_EQ(idx, 0);
	EXPECT_EQ(reason, DRM_VATOM_ERR_NONE);
	EXPECT_EQ(vatom_batch_create(NULL, 0, NULL), -EINVAL);
	vatom_batch_destroy(b);
	vatom_batch_destroy(NULL);
out:;
}

static void host_accessors_without_results(void)
{
	const uint32_t z32[4] = { 0 };
	struct vatom_visa_exec ex = VATOM_VISA_EXEC(4);
	struct vatom_batch *b;
	uint8_t buf[16];
	size_t len = 1;
	int res;

	REQUIRE(!vatom_batch_create(NULL, 0, &b));
	res = vatom_prep_addc(b, &ex, 0, z32, z32);
	REQUIRE(res == 0);
	EXPECT_EQ(vatom_result_u32(b, res, 0), 0);
	EXPECT_EQ(vatom_result_addc_carry(b, res, 0), 0);
	EXPECT_EQ(vatom_result_bytes(b, res, buf, sizeof(buf)), -ENODATA);
	EXPECT_EQ(vatom_result_bytes(b, res + 1, buf, sizeof(buf)), -EINVAL);
	EXPECT(!vatom_batch_results(b, &len));
	EXPECT_EQ(len, 0);
	vatom_batch_destroy(b);
out:;
}

/* Streams grow from a tiny capacity and reset keeps nothing but bindings. */
static void host_growth_and_reset(void)
{
	const uint32_t offs[16] = { 0 }, src[16] = { 0 };
	struct vatom_visa_exec ex = VATOM_VISA_EXEC(16);
	const struct drm_vatom_packet *hdr;
	struct vatom_batch *b;
	size_t len, total = 0;
	int i, res;

	REQUIRE(!vatom_batch_create(NULL, 8, &b));
	for (i = 0; i < 100; i++) {
		res = vatom_prep_dword_atomic(b, &ex, VATOM_VISA_XCHG,
					      VATOM_VISA_DST, VATOM_T255, offs,
					      src, NULL);
		if (res != i) {
			printf("#   packet %d got index %d\n", i, res);
			fails++;
			goto out_destroy;
		}
	}
	/* 32 + 64 + 64 bytes each, results 64 bytes each. */
	vatom_batch_stream(b, &len);
	EXPECT_EQ(len, 100 * 160);
	EXPECT_EQ(vatom_batch_results_size(b), 100 * 64);
	for (i = 0; i < 100; i++) {
		hdr = vatom_batch_packet(b, i, &len);
		if (!hdr || hdr->size != 160 || len != 160 ||
		    (const uint8_t *)hdr != (const uint8_t *)vatom_batch_stream(b, NULL) + total) {
			printf("#   packet %d misplaced\n", i);
			fails++;
			break;
		}
		total += len;
	}
	EXPECT_EQ(vatom_batch_reserve(b, 1 << 20), 0);
	EXPECT_EQ(vatom_batch_reserve(b, (size_t)UINT32_MAX), -E2BIG);
	vatom_batch_reset(b);
	EXPECT_EQ(vatom_batch_packets(b), 0);
	EXPECT_EQ(vatom_batch_results_size(b), 0);
	vatom_batch_stream(b, &len);
	EXPECT_EQ(len, 0);
	EXPECT(!vatom_batch_packet(b, 0, NULL));
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex, VATOM_VISA_XCHG, 0, VATOM_T255,
					  offs, src, NULL), 0);
out_destroy:
	vatom_batch_destroy(b);
out:;
}

static void host_strings(void)
{
	uint32_t r, q;

	for (r = DRM_VATOM_ERR_NONE; r <= DRM_VATOM_ERR_DESCRIPTOR; r++) {
		EXPECT(strcmp(vatom_strreason(r), "unknown reason"));
		for (q = 0; q < r; q++)
			EXPECT(strcmp(vatom_strreason(r), vatom_strreason(q)));
	}
	EXPECT(!strcmp(vatom_strreason(DRM_VATOM_ERR_DESCRIPTOR + 1),
		       "unknown reason"));
	EXPECT(!strcmp(vatom_strreason(0xffffffffu), "unknown reason"));
	EXPECT(!strcmp(vatom_strreason(DRM_VATOM_ERR_SLOT), "slot not bound"));
	EXPECT(!strcmp(vatom_visa_op_name(0x00), "ADD"));
	EXPECT(!strcmp(vatom_visa_op_name(0x07), "CMPXCHG"));
	EXPECT(!strcmp(vatom_visa_op_name(0x0c), "IMAX"));
	EXPECT(!strcmp(vatom_visa_op_name(0x0d), "PREDEC"));
	EXPECT(!strcmp(vatom_visa_op_name(0x12), "FCMPWR"));
	EXPECT(!vatom_visa_op_name(0x0e));
	EXPECT(!vatom_visa_op_name(0x0f));
	EXPECT(!vatom_visa_op_name(0x13));
	EXPECT(!vatom_visa_op_name(0x1f));
}

/*
 * Job errors and reset statuses: the texts and names, hand-written here;
 * the constants are the UAPI's values (DOC: job timeouts and resets);
 * argument checking without a device.
 */
static void host_reset_strings(void)
{
	static const struct { int err; const char *want; } texts[] = {
		{ -ETIMEDOUT, "job timed out: stopped by the job timeout; the context is guilty until it acknowledges the reset" },
		{ -EIO, "context lost: a job of this device (its open file) timed out or faulted; acknowledge with vatom_device_reset_status(..., VATOM_RESET_ACK)" },
		{ -ECANCELED, "job cancelled: it did not run, or not to its end (its context was reset or closed, its queue destroyed, or its submitter killed)" },
		{ -ETIME, "wait timed out: the deadline passed before the job completed (the job goes on)" },
		{ ETIMEDOUT, "job timed out: stopped by the job timeout; the context is guilty until it acknowledges the reset" },
	};
	static const struct { unsigned int status; const char *want; } names[] = {
		{ 0, "none" }, { 1, "guilty" }, { 2, "innocent" }, { 3, NULL },
		{ 0xffffffffu, NULL },
	};
	static const struct { unsigned int flags; int want; } bad[] = {
		{ 0, -EINVAL },			/* NULL device, with and without ACK */
		{ 1, -EINVAL },
		{ 2, -EINVAL },			/* unknown flag */
		{ 0xffffffffu, -EINVAL },
	};
	struct vatom_reset_status rs = { .status = 7, .guilty = 8, .innocent = 9 };
	unsigned int i;

	EXPECT_EQ(VATOM_RESET_ACK, 1);
	EXPECT_EQ(VATOM_RESET_NONE, 0);
	EXPECT_EQ(VATOM_RESET_GUILTY, 1);
	EXPECT_EQ(VATOM_RESET_INNOCENT, 2);
	EXPECT_EQ(DRM_VATOM_CAP_RESET_STATUS, 1ull << 13);
	EXPECT_EQ(DRM_VATOM_CAP_QUEUE_POLL_CPU, 1ull << 14);
	EXPECT_EQ(VATOM_QUEUE_POLL_CPU, 1u << 2);
	for (i = 0; i < ARRAY_SIZE(texts); i++) {
		if (strcmp(vatom_strerror(texts[i].err), texts[i].want)) {
			printf("#   vatom_strerror(%d) is \"%s\"\n", texts[i].err,
			       vatom_strerror(texts[i].err));
			fails++;
		}
	}
	/* Every other errno is strerror()'s. */
	EXPECT(!strcmp(vatom_strerror(-EINVAL), strerror(EINVAL)));
	EXPECT(!strcmp(vatom_strerror(-ENOMEM), strerror(ENOMEM)));
	EXPECT(!strcmp(vatom_strerror(0), strerror(0)));
	EXPECT(vatom_strerror(-2147483647 - 1) != NULL);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		const char *got = vatom_reset_status_name(names[i].status);

		if (names[i].want ? !got || strcmp(got, names[i].want) : got != NULL) {
			printf("#   vatom_reset_status_name(%u) is %s\n",
			       names[i].status, got ? got : "NULL");
			fails++;
		}
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		EXPECT_EQ(vatom_device_reset_status(NULL, bad[i].flags, &rs), bad[i].want);
	EXPECT_EQ(vatom_device_reset_status(NULL, 0, NULL), -EINVAL);
	/* untouched on failure */
	EXPECT_EQ(rs.status, 7);
	EXPECT_EQ(rs.guilty, 8);
	EXPECT_EQ(rs.innocent, 9);
}
