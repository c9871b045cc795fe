// SPDX-License-Identifier: GPL-2.0
/*
 * vISA DWORD_ATOMIC semantics at the edges: out-of-bounds lanes (alone and
 * straddling the end), null Dst, lanes that hit the same address, the two
 * halves of .16, where results go, and the debugfs counters a submission
 * moves. Values are literal, worked out by hand from the ISA text.
 *
 * Part of vatom_test.c's translation unit, after test_visa.c (its table
 * runners); not built alone.
 *
 * Copyright (C) 2026 The vatom developers
 */

/* --- out of bounds ------------------------------------------------------ */

/*
 * "On read: zeros are returned. On write: data is dropped." A surface of
 * 100 bytes maps one page: lanes at or past byte 100 (even inside the
 * mapped page, even at offsets near 4 GiB that would wrap a 32-bit sum)
 * return 0 and change nothing; in-bounds lanes of the same packet work.
 */
TEST(dword_oob)
{
	const __u32 addr[8] = { 96, 100, 4092, 0xfffffffc, 0x80000000, 92,
				4096, 104 };
	const __u32 src[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	const __u32 cmp[8] = { 0 };
	struct drm_vatom_submit sub;
	struct vt_stream s;
	struct vt_visa v;
	__u32 res[24], i, h;
	__u8 *map;
	int fd;

	VT_OPEN(fd);
	VT_BUFFER(fd, 100, h, map);
	memset(map, 0xa5, 4096);
	map[96] = 9; map[97] = 0; map[98] = 0; map[99] = 0;

	vt_stream_init(&s);
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_8,
		 DRM_VATOM_VISA_TYPE_UD, addr, src, NULL, true);
	vt_add_visa(&s, &v);
	v.op = DRM_VATOM_VISA_OP_XCHG;
	vt_add_visa(&s, &v);
	/* Compare value 0, what an OOB read returns: the write is dropped. */
	v.op = DRM_VATOM_VISA_OP_CMPXCHG;
	v.src1 = cmp;
	v.operands |= DRM_VATOM_VISA_OPND_SRC1;
	vt_add_visa(&s, &v);

	memset(res, VT_POISON, sizeof(res));
	ASSERT_EQ(0, vt_run(fd, &s, h, res, sizeof(res), &sub))
		TH_LOG("errno %d reason %u", errno, sub.error_reason);
	EXPECT_EQ(96, sub.results_needed);

	for (i = 0; i < 8; i++) {
		__u32 add = 0, xchg = 0, cas = 0;

		if (i == 0) {
			add = 9;
			xchg = 10;
			cas = 1;
		} else if (i == 5) {
			add = 0xa5a5a5a5;
			xchg = 0xa5a5a5ab;
			cas = 6;
		}
		EXPECT_EQ(add, res[i]) TH_LOG("ADD lane %u", i);
		EXPECT_EQ(xchg, res[8 + i]) TH_LOG("XCHG lane %u", i);
		EXPECT_EQ(cas, res[16 + i]) TH_LOG("CMPXCHG lane %u", i);
	}
	EXPECT_EQ(1, vt_rd32(map, 96));
	EXPECT_EQ(6, vt_rd32(map, 92));
	EXPECT_EQ(-1, vt_find_ne8(map, 0, 92, 0xa5));
	EXPECT_EQ(-1, vt_find_ne8(map, 100, 4096, 0xa5))
		TH_LOG("bytes past the surface's size changed");
	munmap(map, 4096);
	close(fd);
}

/*
 * An element that starts inside the surface but ends past it is out of
 * bounds as a whole ("accesses past size are out of bounds"): size 102,
 * a dword at 100 is OOB while a .16 word at 100 is in bounds.
 */
TEST(dword_oob_straddle)
{
	const __u32 addr[2] = { 100, 96 }, src[2] = { 1, 1 };
	const __u32 addr16[2] = { 100, 102 }, src16[2] = { 0x0101, 0x0101 };
	struct drm_vatom_submit sub;
	struct vt_stream s;
	struct vt_visa v;
	__u32 res[2], h;
	__u8 *map;
	int fd;

	VT_OPEN(fd);
	VT_BUFFER(fd, 102, h, map);
	memset(map, 0x11, 4096);

	vt_stream_init(&s);
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_2,
		 DRM_VATOM_VISA_TYPE_UD, addr, src, NULL, true);
	vt_add_visa(&s, &v);
	memset(res, VT_POISON, sizeof(res));
	ASSERT_EQ(0, vt_run(fd, &s, h, res, sizeof(res), &sub));
	EXPECT_EQ(0, res[0]);
	EXPECT_EQ(0x11111111, res[1]);
	EXPECT_EQ(0x11111112, vt_rd32(map, 96));
	EXPECT_EQ(0x11111111, vt_rd32(map, 100));

	if (vt_visa_ops(fd, DRM_VATOM_VISA_FORM_DWORD16) & (1u << DRM_VATOM_VISA_OP_ADD)) {
		vt_stream_init(&s);
		vt_dword(&v, DRM_VATOM_VISA_OP_ADD | DRM_VATOM_VISA_OP_16,
			 DRM_VATOM_VISA_EXEC_2, DRM_VATOM_VISA_TYPE_UD, addr16,
			 src16, NULL, true);
		vt_add_visa(&s, &v);
		memset(res, VT_POISON, sizeof(res));
		ASSERT_EQ(0, vt_run(fd, &s, h, res, sizeof(res), &sub));
		EXPECT_EQ(0x1111, res[0]);
		EXPECT_EQ(0, res[1]);
		EXPECT_EQ(0x1212, vt_rd32(map, 100) & 0xffff);
		EXPECT_EQ(0x11, map[102]);
		EXPECT_EQ(0x11, map[103]);
	}

	if (vt_visa_ops(fd, DRM_VATOM_VISA_FORM_DWORD64) & (1u << DRM_VATOM_VISA_OP_ADD)) {
		const __u32 addr64[1] = { 96 };
		const __u64 src64[1] = { 1 };
		__u64 res64 = VT_POISON64;
		/* 96..103 crosses the end (102): nothing may change. */

		vt_stream_init(&s);
		vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_1,
			 DRM_VATOM_VISA_TYPE_UQ, addr64, NULL, NULL, true);
		v.src0 = src64;
		v.operands |= DRM_VATOM_VISA_OPND_SRC0;
		vt_add_visa(&s, &v);
		__u32 lo = vt_rd32(map, 96), hi = vt_rd32(map, 100);

		ASSERT_EQ(0, vt_run(fd, &s, h, &res64, 8, &sub));
		EXPECT_EQ(0, res64);
		EXPECT_EQ(lo, vt_rd32(map, 96));
		EXPECT_EQ(hi, vt_rd32(map, 100));
	}
	munmap(map, 4096);
	close(fd);
}

/* --- Dst, ordering, result regions -------------------------------------- */

/* "Dst is permitted to be V0, in which case no value will be returned." */
TEST(dword_null_dst)
{
	const __u32 addr[4] = { 0, 4, 8, 12 }, src[4] = { 1, 2, 3, 4 };
	struct drm_vatom_submit sub;
	struct vt_stream s;
	struct vt_visa v;
	__u32 res[4], h, *map;
	int fd;

	VT_OPEN(fd);
	VT_BUFFER(fd, 4096, h, map);
	map[0] = 10; map[1] = 20; map[2] = 30; map[3] = 40;
	vt_stream_init(&s);
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_4,
		 DRM_VATOM_VISA_TYPE_UD, addr, src, NULL, false);
	vt_add_visa(&s, &v);
	ASSERT_EQ(0, s.results);

	ASSERT_EQ(0, vt_run(fd, &s, h, NULL, 0, &sub));
	EXPECT_EQ(0, sub.results_needed);
	EXPECT_EQ(DRM_VATOM_ERR_NONE, sub.error_reason);
	EXPECT_EQ(11, map[0]);
	EXPECT_EQ(22, map[1]);
	EXPECT_EQ(33, map[2]);
	EXPECT_EQ(44, map[3]);

	/* A results buffer that is offered is left alone. */
	memset(res, VT_POISON, sizeof(res));
	ASSERT_EQ(0, vt_run(fd, &s, h, res, sizeof(res), &sub));
	EXPECT_EQ(0, sub.results_needed);
	EXPECT_EQ(VT_POISON32, res[0]);
	EXPECT_EQ(VT_POISON32, res[3]);
	EXPECT_EQ(12, map[0]);
	close(fd);
}

/**
 * struct vt_same_row - one packet whose lanes all address one dword
 * @what: what the row checks
 * @op: the Op
 * @size: the exec size code
 * @type: the data type
 * @emask: the execution mask; 0: every lane
 * @addr: the dword's byte offset
 * @old: its value before
 * @src0: Src0 per lane, or NULL for V0
 * @src1: Src1 per lane, or NULL for V0
 * @ret: what each lane returns, by hand; VT_POISON32 for a disabled lane
 * @mem: the dword after
 */
struct vt_same_row {
	const char *what;
	__u8 op, size, type;
	__u32 emask, addr, old;
	const __u32 *src0, *src1;
	__u32 ret[16];
	__u32 mem;
};

#define VT_P	VT_POISON32

static const struct vt_same_row vt_same_rows[] = {
	{ "ADD: each lane returns the running sum",
	  DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_8, DRM_VATOM_VISA_TYPE_UD,
	  0, 0, 0, (const __u32[]){ 1, 2, 4, 8, 16, 32, 64, 128 }, NULL,
	  { 0, 1, 3, 7, 15, 31, 63, 127 }, 255 },
	{ "XCHG: each lane gets the previous lane's value",
	  DRM_VATOM_VISA_OP_XCHG, DRM_VATOM_VISA_EXEC_4, DRM_VATOM_VISA_TYPE_UD,
	  0, 4, 5, (const __u32[]){ 10, 11, 12, 13 }, NULL,
	  { 5, 10, 11, 12 }, 13 },
	{ "CMPXCHG: the chain 0->1->2->3->4 succeeds lane by lane ascending",
	  DRM_VATOM_VISA_OP_CMPXCHG, DRM_VATOM_VISA_EXEC_4,
	  DRM_VATOM_VISA_TYPE_UD, 0, 4, 0, (const __u32[]){ 1, 2, 3, 4 },
	  (const __u32[]){ 0, 1, 2, 3 }, { 0, 1, 2, 3 }, 4 },
	{ "PREDEC: each lane returns its new value",
	  DRM_VATOM_VISA_OP_PREDEC, DRM_VATOM_VISA_EXEC_4, DRM_VATOM_VISA_TYPE_D,
	  0, 4, 10, NULL, NULL, { 9, 8, 7, 6 }, 6 },
	{ "INC: 16 lanes, 1, 6, 11 and 12 disabled",
	  DRM_VATOM_VISA_OP_INC, DRM_VATOM_VISA_EXEC_16, DRM_VATOM_VISA_TYPE_UD,
	  0xe7bd, 8, 0, NULL, NULL,
	  { 0, VT_P, 1, 2, 3, 4, VT_P, 5, 6, 7, 8, VT_P, VT_P, 9, 10, 11 }, 12 },
};

#undef VT_P

/*
 * Lanes that address the same dword are serialised in ascending lane order
 * (a device guarantee: the ISA allows any order, vatom fixes this one), so
 * each lane sees the previous lane's result: vt_same_rows. Packets run in
 * stream order.
 */
TEST(dword_same_address)
{
	const __u32 zero[1] = { 0 }, xv[1] = { 12 }, add[1] = { 8 };
	__u32 addr[16], res[16], h, *map, i, k;
	struct vt_stream s;
	struct vt_visa v;
	int fd;

	VT_OPEN(fd);
	VT_BUFFER(fd, 4096, h, map);
	for (k = 0; k < VT_ARRAY_SIZE(vt_same_rows); k++) {
		const struct vt_same_row *r = &vt_same_rows[k];

		for (i = 0; i < 16; i++)
			addr[i] = r->addr;
		map[r->addr / 4] = r->old;
		vt_stream_init(&s);
		vt_dword(&v, r->op, r->size, r->type, addr, r->src0, r->src1,
			 true);
		if (r->emask)
			v.emask = r->emask;
		vt_add_visa(&s, &v);
		memset(res, VT_POISON, sizeof(res));
		ASSERT_EQ(0, vt_run(fd, &s, h, res, sizeof(res), NULL))
			TH_LOG("%s: errno %d", r->what, errno);
		/* Braces: EXPECT_EQ() is two statements. */
		for (i = 0; i < vt_lanes(r->size); i++) {
			EXPECT_EQ(r->ret[i], res[i]) TH_LOG("%s: lane %u", r->what, i);
		}
		EXPECT_EQ(r->mem, map[r->addr / 4]) TH_LOG("%s", r->what);
	}

	/* Packets run in stream order: the second sees the first's write. */
	map[0] = 255;
	vt_stream_init(&s);
	vt_dword(&v, DRM_VATOM_VISA_OP_XCHG, DRM_VATOM_VISA_EXEC_1,
		 DRM_VATOM_VISA_TYPE_UD, zero, xv, NULL, true);
	vt_add_visa(&s, &v);
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_1,
		 DRM_VATOM_VISA_TYPE_UD, zero, add, NULL, true);
	vt_add_visa(&s, &v);
	memset(res, VT_POISON, sizeof(res));
	ASSERT_EQ(0, vt_run(fd, &s, h, res, sizeof(res), NULL));
	EXPECT_EQ(255, res[0]);
	EXPECT_EQ(12, res[2]);
	EXPECT_EQ(20, map[0]);
	close(fd);
}

/* Two .16 lanes on the two halves of one dword: no carry crosses over. */
TEST(dword16_halves)
{
	const __u32 addr[2] = { 0, 2 }, src[2] = { 0xffff, 0x0001 };
	struct vt_stream s;
	struct vt_visa v;
	__u32 res[2], h, *map;
	int fd;

	VT_OPEN(fd);
	if (!(vt_visa_ops(fd, DRM_VATOM_VISA_FORM_DWORD16) & (1u << DRM_VATOM_VISA_OP_ADD)))
		SKIP(close(fd); return, "DWORD_ATOMIC.16 ADD not implemented");
	VT_BUFFER(fd, 4096, h, map);
	map[0] = 0x00010001;
	vt_stream_init(&s);
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD | DRM_VATOM_VISA_OP_16,
		 DRM_VATOM_VISA_EXEC_2, DRM_VATOM_VISA_TYPE_UD, addr, src, NULL, true);
	vt_add_visa(&s, &v);
	memset(res, VT_POISON, sizeof(res));
	ASSERT_EQ(0, vt_run(fd, &s, h, res, sizeof(res), NULL));
	EXPECT_EQ(0x0001, res[0]);
	EXPECT_EQ(0x0001, res[1]);
	EXPECT_EQ(0x00020000, map[0]);
	close(fd);
}

/*
 * Result regions follow each other in packet order, each rounded up to 8
 * bytes; packets without Dst own none. Checked for user memory (with room
 * to spare, which must stay untouched) and for a result surface at an
 * offset.
 */
TEST(results_layout)
{
	const __u32 a4[4] = { 0, 4, 8, 12 }, s4[4] = { 1, 2, 3, 4 };
	const __u32 a1[1] = { 16 }, s1[1] = { 77 };
	const __u32 a2[2] = { 20, 24 }, s2[2] = { 5, 6 };
	struct drm_vatom_binding bind = { .slot = 0 };
	struct drm_vatom_submit sub;
	struct vt_stream s;
	struct vt_visa v;
	__u32 res[16], h, r, *map, *rmap, pass;
	int fd;

	VT_OPEN(fd);
	VT_BUFFER(fd, 4096, h, map);

	vt_stream_init(&s);
	/* P0: ADD exec 4, lane 2 disabled -> bytes 0..15 */
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_4,
		 DRM_VATOM_VISA_TYPE_UD, a4, s4, NULL, true);
	v.emask = 0xb;
	vt_add_visa(&s, &v);
	/* P1: INC, no Dst -> no region */
	vt_dword(&v, DRM_VATOM_VISA_OP_INC, DRM_VATOM_VISA_EXEC_4,
		 DRM_VATOM_VISA_TYPE_UD, a4, NULL, NULL, false);
	vt_add_visa(&s, &v);
	/* P2: XCHG exec 1 -> bytes 16..23 (value in 16..19) */
	vt_dword(&v, DRM_VATOM_VISA_OP_XCHG, DRM_VATOM_VISA_EXEC_1,
		 DRM_VATOM_VISA_TYPE_UD, a1, s1, NULL, true);
	vt_add_visa(&s, &v);
	/* P3: SUB exec 2 -> bytes 24..31 */
	vt_dword(&v, DRM_VATOM_VISA_OP_SUB, DRM_VATOM_VISA_EXEC_2,
		 DRM_VATOM_VISA_TYPE_UD, a2, s2, NULL, true);
	vt_add_visa(&s, &v);
	ASSERT_EQ(32, s.results);

	for (pass = 0; pass < 2; pass++) {
		__u32 *out;

		memset(map, 0, 4096);
		map[0] = 100; map[1] = 200; map[2] = 300; map[3] = 400;
		map[4] = 500; map[5] = 600; map[6] = 700;

		if (pass == 0) {
			memset(res, VT_POISON, sizeof(res));
			ASSERT_EQ(0, vt_run(fd, &s, h, res, sizeof(res), &sub));
			out = res;
		} else {
			if (!(vt_caps(fd) & DRM_VATOM_CAP_RESULT_SURFACE))
				SKIP(close(fd); return, "no result surfaces");
			VT_BUFFER(fd, 4096, r, rmap);
			memset(rmap, VT_POISON, 4096);
			bind.handle = h;
			vt_submit_args(&sub, &s, &bind, 1, NULL, 32);
			sub.result_handle = r;
			sub.result_offset = 64;
			ASSERT_EQ(0, vt_submit(fd, &sub))
				TH_LOG("errno %d reason %u", errno, sub.error_reason);
			EXPECT_EQ(-1, vt_find_ne32(rmap, 0, 16, VT_POISON32))
				TH_LOG("written before result_offset");
			EXPECT_EQ(-1, vt_find_ne32(rmap, 24, 1024, VT_POISON32))
				TH_LOG("written past the results");
			out = rmap + 16;
		}
		EXPECT_EQ(32, sub.results_needed);
		EXPECT_EQ(100, out[0]);
		EXPECT_EQ(200, out[1]);
		EXPECT_EQ(VT_POISON32, out[2]);	/* disabled lane */
		EXPECT_EQ(400, out[3]);
		EXPECT_EQ(500, out[4]);
		EXPECT_EQ(600, out[6]);
		EXPECT_EQ(700, out[7]);
		if (pass == 0) {
			EXPECT_EQ(-1, vt_find_ne32(res, 8, 16, VT_POISON32))
				TH_LOG("written past results_needed");
		}
		/* Memory: P0 then P1 (INC on all four), P2, P3. */
		EXPECT_EQ(102, map[0]);
		EXPECT_EQ(203, map[1]);
		EXPECT_EQ(301, map[2]);
		EXPECT_EQ(405, map[3]);
		EXPECT_EQ(77, map[4]);
		EXPECT_EQ(595, map[5]);
		EXPECT_EQ(694, map[6]);
	}
	close(fd);
}

/* --- debugfs counters ---------------------------------------------------- */

/* The debugfs counters count exactly what a submission did. */
TEST(debugfs_stats)
{
	const __u32 addr[4] = { 0, 4, 8, 0xfff0 }, src[4] = { 1, 1, 1, 1 };
	long long sub0, pk0, el0, err0, surf0;
	struct vt_stream s;
	struct vt_visa v;
	char path[128];
	__u32 h, h2, res[4];
	int fd;

	VT_OPEN(fd);
	if (!vt_debugfs_stats_path(vt_render_path, path, sizeof(path)))
		SKIP(close(fd); return, "no vatom_stats in debugfs");
	ASSERT_EQ(0, vt_buffer_create(fd, 4096, &h));

	sub0 = vt_debugfs_stat(path, "submissions");
	pk0 = vt_debugfs_stat(path, "packets_visa");
	el0 = vt_debugfs_stat(path, "elements_visa");
	err0 = vt_debugfs_stat(path, "errors");
	surf0 = vt_debugfs_stat(path, "surfaces");
	ASSERT_LE(0, sub0);

	/* Two packets, 3 + 1 enabled lanes (an OOB lane still counts). */
	vt_stream_init(&s);
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_4,
		 DRM_VATOM_VISA_TYPE_UD, addr, src, NULL, false);
	v.emask = 0xe;
	vt_add_visa(&s, &v);
	vt_dword(&v, DRM_VATOM_VISA_OP_INC, DRM_VATOM_VISA_EXEC_1,
		 DRM_VATOM_VISA_TYPE_UD, addr, NULL, NULL, false);
	vt_add_visa(&s, &v);
	ASSERT_EQ(0, vt_run(fd, &s, h, res, sizeof(res), NULL));
	EXPECT_EQ(sub0 + 1, vt_debugfs_stat(path, "submissions"));
	EXPECT_EQ(pk0 + 2, vt_debugfs_stat(path, "packets_visa"));
	EXPECT_EQ(el0 + 4, vt_debugfs_stat(path, "elements_visa"));
	EXPECT_EQ(err0, vt_debugfs_stat(path, "errors"));

	/* A rejected submission counts as an error and nothing else. */
	s.size = 4;
	VT_EXPECT_ERRNO(EINVAL, vt_run(fd, &s, h, res, sizeof(res), NULL));
	EXPECT_EQ(sub0 + 1, vt_debugfs_stat(path, "submissions"));
	EXPECT_EQ(pk0 + 2, vt_debugfs_stat(path, "packets_visa"));
	EXPECT_EQ(err0 + 1, vt_debugfs_stat(path, "errors"));

	/* Live surfaces. */
	ASSERT_EQ(0, vt_buffer_create(fd, 4096, &h2));
	EXPECT_EQ(surf0 + 1, vt_debugfs_stat(path, "surfaces"));
	EXPECT_EQ(0, vt_gem_close(fd, h2));
	EXPECT_EQ(surf0, vt_debugfs_stat(path, "surfaces"));
	close(fd);
}
