// SPDX-License-Identifier: GPL-2.0
/*
 * vISA DWORD_ATOMIC semantics: every Op against hand-written tables, exec
 * sizes, mask control, predication, out-of-bounds lanes, null Dst, lanes
 * that hit the same address, and where results go.
 *
 * The tables are written from the DWORD_ATOMIC_OP table of the ISA text
 * (shared/seeds/000): "new" is the value written to the surface, "ret" what
 * the lane returns in Dst (the old value; PREDEC returns the new one).
 * Values are literal, worked out by hand, never computed by the device.
 *
 * Part of vatom_test.c's translation unit (see there); not built alone.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include "visa_rows.h"

#define N(t)	(sizeof(t) / sizeof((t)[0]))

/* --- running a table ---------------------------------------------------- */

enum vt_width { VT_W16, VT_W32, VT_W64 };

/*
 * Run @n rows of op @op, up to 16 per packet (exec size 16, M1 with only
 * the lanes that have a row enabled), each row on its own surface word.
 * Checks every lane's result, the surface, that disabled lanes' result
 * elements keep their poison, and for .16 that the other half of each
 * dword and the upper source bits play no part.
 */
static void vt_run_table(struct __test_metadata *_metadata, int fd, __u8 op,
			 __u8 type, enum vt_width w, const struct vt_row *rows,
			 __u32 n)
{
	const __u32 esz = w == VT_W64 ? 8 : 4;
	__u32 base, i, h;
	__u8 *map;

	VT_BUFFER(fd, 4096, h, map);
	for (base = 0; base < n; base += 16) {
		__u32 cnt = n - base < 16 ? n - base : 16;
		__u64 s0[16], s1[16], res[16];
		__u32 s0_32[16], s1_32[16], addr[16];
		struct drm_vatom_submit sub;
		struct vt_stream s;
		struct vt_visa v;
		bool has0, has1;

		has0 = op != DRM_VATOM_VISA_OP_INC && op != DRM_VATOM_VISA_OP_DEC &&
		       op != DRM_VATOM_VISA_OP_PREDEC;
		has1 = op == DRM_VATOM_VISA_OP_CMPXCHG ||
		       op == DRM_VATOM_VISA_OP_FCMPWR;
		memset(map, 0, 4096);
		memset(addr, 0, sizeof(addr));
		memset(s0, 0, sizeof(s0));
		memset(s1, 0, sizeof(s1));
		memset(s0_32, 0, sizeof(s0_32));
		memset(s1_32, 0, sizeof(s1_32));

		for (i = 0; i < cnt; i++) {
			const struct vt_row *r = &rows[base + i];
			__u32 word = 16 * (base / 16) + i;

			switch (w) {
			case VT_W16: {
				/* Even lanes the low half, odd lanes the high. */
				__u32 half = i & 1;
				__u16 other = 0xa5a5, val = r->old;

				addr[i] = 4 * word + 2 * half;
				memcpy(map + 4 * word + 2 * half, &val, 2);
				memcpy(map + 4 * word + 2 * !half, &other, 2);
				/* Only the low 16 bits of a source are used. */
				s0_32[i] = 0xbeef0000 | (__u32)r->src0;
				s1_32[i] = 0xdead0000 | (__u32)r->src1;
				break;
			}
			case VT_W32:
				addr[i] = 4 * word;
				memcpy(map + addr[i], &r->old, 4);
				s0_32[i] = r->src0;
				s1_32[i] = r->src1;
				break;
			case VT_W64:
				addr[i] = 8 * word;
				memcpy(map + addr[i], &r->old, 8);
				s0[i] = r->src0;
				s1[i] = r->src1;
				break;
			}
		}

		vt_stream_init(&s);
		vt_dword(&v, op | (w == VT_W16 ? DRM_VATOM_VISA_OP_16 : 0),
			 DRM_VATOM_VISA_EXEC_16, type, addr,
			 has0 ? s0_32 : NULL, has1 ? s1_32 : NULL, true);
		if (w == VT_W64) {
			v.src0 = has0 ? (const void *)s0 : NULL;
			v.src1 = has1 ? (const void *)s1 : NULL;
		}
		v.emask = cnt == 16 ? 0xffff : (1u << cnt) - 1;
		/* Bits above the 16-lane window must play no part. */
		v.emask |= 0xffff0000;
		vt_add_visa(&s, &v);
		ASSERT_EQ(16 * esz, s.results);

		memset(res, VT_POISON, sizeof(res));
		ASSERT_EQ(0, vt_run(fd, &s, h, res, sizeof(res), &sub))
			TH_LOG("op 0x%x type %u: errno %d reason %u index %u",
			       op, type, errno, sub.error_reason, sub.error_index);
		EXPECT_EQ(DRM_VATOM_ERR_NONE, sub.error_reason);
		EXPECT_EQ(16 * esz, sub.results_needed);

		for (i = 0; i < 16; i++) {
			const struct vt_row *r = &rows[base + i];
			__u64 got = esz == 8 ? vt_rd64(res, 8 * i) : vt_rd32(res, 4 * i);
			__u64 mem;

			if (i >= cnt) {
				EXPECT_EQ(esz == 8 ? VT_POISON64 : VT_POISON32, got)
					TH_LOG("disabled lane %u was written", i);
				continue;
			}
			EXPECT_EQ(r->ret, got)
				TH_LOG("op 0x%x row %u: old 0x%llx src0 0x%llx src1 0x%llx",
				       op, base + i, (unsigned long long)r->old,
				       (unsigned long long)r->src0,
				       (unsigned long long)r->src1);
			switch (w) {
			case VT_W16: {
				__u16 m16, other;
				__u32 word = 16 * (base / 16) + i;

				memcpy(&m16, map + addr[i], 2);
				memcpy(&other, map + 4 * word + 2 * !(i & 1), 2);
				mem = m16;
				EXPECT_EQ(0xa5a5, other)
					TH_LOG("row %u: the other half changed", base + i);
				break;
			}
			case VT_W32:
				mem = vt_rd32(map, addr[i]);
				break;
			default:
				mem = vt_rd64(map, addr[i]);
				break;
			}
			EXPECT_EQ(r->mem, mem)
				TH_LOG("op 0x%x row %u: old 0x%llx src0 0x%llx src1 0x%llx",
				       op, base + i, (unsigned long long)r->old,
				       (unsigned long long)r->src0,
				       (unsigned long long)r->src1);
		}
	}
	munmap(map, 4096);
	vt_gem_close(fd, h);
}

/* One variant per Op: its 32-bit, .16 and 64-bit tables and data types. */
FIXTURE(dword_op) {
	int fd;
};

FIXTURE_VARIANT(dword_op) {
	__u8 op;
	__u8 type32;		/* also the .16 type */
	__u8 type64;
	const struct vt_row *t32, *t16, *t64;
	__u32 n32, n16, n64;
};

#define VT_OP_VARIANT(name, o, ty32, ty64)				\
	FIXTURE_VARIANT_ADD(dword_op, name) {				\
		.op = DRM_VATOM_VISA_OP_##o,				\
		.type32 = DRM_VATOM_VISA_TYPE_##ty32,			\
		.type64 = DRM_VATOM_VISA_TYPE_##ty64,			\
		.t32 = name##32, .n32 = N(name##32),			\
		.t16 = name##16, .n16 = N(name##16),			\
		.t64 = name##64, .n64 = N(name##64),			\
	}

/*
 * Types from the ISA text's Notes (IMIN/IMAX: D, others UD) and its op
 * table (PREDEC: W/D/Q, the signed column).
 */
VT_OP_VARIANT(add, ADD, UD, UQ);
VT_OP_VARIANT(sub, SUB, UD, UQ);
VT_OP_VARIANT(inc, INC, UD, UQ);
VT_OP_VARIANT(dec, DEC, UD, UQ);
VT_OP_VARIANT(min, MIN, UD, UQ);
VT_OP_VARIANT(max, MAX, UD, UQ);
VT_OP_VARIANT(xchg, XCHG, UD, UQ);
VT_OP_VARIANT(cmpxchg, CMPXCHG, UD, UQ);
VT_OP_VARIANT(and, AND, UD, UQ);
VT_OP_VARIANT(or, OR, UD, UQ);
VT_OP_VARIANT(xor, XOR, UD, UQ);
VT_OP_VARIANT(imin, IMIN, D, Q);
VT_OP_VARIANT(imax, IMAX, D, Q);
VT_OP_VARIANT(predec, PREDEC, D, Q);

FIXTURE_SETUP(dword_op)
{
	self->fd = vt_open();
	if (self->fd == -ENODEV)
		SKIP(return, "no vatom device");
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(dword_op)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* The DWORD_ATOMIC form every device has (CAP_VISA_DWORD_ATOMIC). */
TEST_F(dword_op, dword32)
{
	if (self->fd < 0)
		return;
	vt_run_table(_metadata, self->fd, variant->op, variant->type32, VT_W32,
		     variant->t32, variant->n32);
}

TEST_F(dword_op, dword16)
{
	if (self->fd < 0)
		return;
	if (!(vt_visa_ops(self->fd, DRM_VATOM_VISA_FORM_DWORD16) & (1u << variant->op)))
		SKIP(return, "DWORD_ATOMIC.16 op %u not implemented", variant->op);
	vt_run_table(_metadata, self->fd, variant->op, variant->type32, VT_W16,
		     variant->t16, variant->n16);
}

TEST_F(dword_op, dword64)
{
	if (self->fd < 0)
		return;
	if (!(vt_visa_ops(self->fd, DRM_VATOM_VISA_FORM_DWORD64) & (1u << variant->op)))
		SKIP(return, "64-bit DWORD_ATOMIC op %u not implemented", variant->op);
	vt_run_table(_metadata, self->fd, variant->op, variant->type64, VT_W64,
		     variant->t64, variant->n64);
}

/* --- exec size, mask control, predication ------------------------------ */

/*
 * Submit one ADD packet with lane i adding (i + 1) to word i and returning
 * the old value; the surface starts as word i = 0x100 * i. Returns the
 * enabled-lane mask the device honoured, read back from memory, after
 * checking that results match memory lane by lane.
 */
static __u32 vt_add_lanes(struct __test_metadata *_metadata, int fd,
			  __u8 exec_size, __u32 emask, __u32 flags, __u32 pred)
{
	__u32 addr[32], src[32], res[32];
	struct drm_vatom_submit sub;
	__u32 i, n = vt_lanes(exec_size), seen = 0;
	struct vt_stream s;
	struct vt_visa v;
	__u32 h, *map;

	VT_BUFFER(fd, 4096, h, map);
	for (i = 0; i < 32; i++) {
		addr[i] = 4 * i;
		src[i] = i + 1;
		map[i] = 0x100 * i;
	}
	vt_stream_init(&s);
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, exec_size, DRM_VATOM_VISA_TYPE_UD,
		 addr, src, NULL, true);
	v.emask = emask;
	v.flags = flags;
	v.pred = pred;
	vt_add_visa(&s, &v);
	memset(res, VT_POISON, sizeof(res));
	EXPECT_EQ(0, vt_run(fd, &s, h, res, sizeof(res), &sub))
		TH_LOG("exec 0x%x emask 0x%x: errno %d reason %u", exec_size,
		       emask, errno, sub.error_reason);
	EXPECT_EQ(vt_align8(4 * n), sub.results_needed);

	for (i = 0; i < 32; i++) {
		if (map[i] != 0x100 * i) {
			seen |= 1u << i;
			EXPECT_EQ(0x100 * i + i + 1, map[i]);
			EXPECT_EQ(0x100 * i, res[i]);
		} else if (i < n) {
			EXPECT_EQ(VT_POISON32, res[i]) TH_LOG("disabled lane %u", i);
		}
	}
	/* Nothing past the packet's region is written. */
	EXPECT_EQ(-1, vt_find_ne32(res, vt_align8(4 * n) / 4, 32, VT_POISON32))
		TH_LOG("results written past the packet's region");
	munmap(map, 4096);
	vt_gem_close(fd, h);
	return seen;
}

TEST(dword_exec_sizes)
{
	__u8 code;
	int fd;

	VT_OPEN(fd);
	for (code = DRM_VATOM_VISA_EXEC_1; code <= DRM_VATOM_VISA_EXEC_16; code++) {
		__u32 n = 1u << code;

		/* All lanes through the mask, then through _NM with emask 0. */
		EXPECT_EQ((1ull << n) - 1,
			  vt_add_lanes(_metadata, fd, vt_exec(code, 0), 0xffffffff, 0, 0));
		EXPECT_EQ((1ull << n) - 1,
			  vt_add_lanes(_metadata, fd,
				       vt_exec(code, DRM_VATOM_VISA_EXEC_NM), 0, 0, 0));
	}
	close(fd);
}

/*
 * M1..M8 select the window of the execution mask starting at bit 4 * (M -
 * 1): ChEn[i] = emask bit (4 * (M - 1) + i).
 */
TEST(dword_mask_control)
{
	__u32 m;
	int fd;

	VT_OPEN(fd);
	for (m = 0; m < 8; m++) {
		__u32 sh = 4 * m;

		/* Exec 4: lanes 0 and 2 on, every bit outside the window set. */
		EXPECT_EQ(0x5, vt_add_lanes(_metadata, fd,
					    vt_exec(DRM_VATOM_VISA_EXEC_4, m),
					    ~(0xfu << sh) | (0x5u << sh), 0, 0))
			TH_LOG("M%u exec 4", m + 1);
		/* Exec 1: the window's first bit alone. */
		EXPECT_EQ(0x1, vt_add_lanes(_metadata, fd,
					    vt_exec(DRM_VATOM_VISA_EXEC_1, m),
					    1u << sh, 0, 0));
		EXPECT_EQ(0x0, vt_add_lanes(_metadata, fd,
					    vt_exec(DRM_VATOM_VISA_EXEC_1, m),
					    ~(1u << sh), 0, 0));
		/* _NM ignores the mask whatever it holds. */
		EXPECT_EQ(0xf, vt_add_lanes(_metadata, fd,
					    vt_exec(DRM_VATOM_VISA_EXEC_4,
						    DRM_VATOM_VISA_EXEC_NM | m),
					    0, 0, 0));
	}
	/* Exec 8 up to M7 (bits 24..31), exec 16 up to M5 (bits 16..31). */
	EXPECT_EQ(0x81, vt_add_lanes(_metadata, fd, vt_exec(DRM_VATOM_VISA_EXEC_8, 6),
				     0x81000000, 0, 0));
	EXPECT_EQ(0xa001, vt_add_lanes(_metadata, fd,
				       vt_exec(DRM_VATOM_VISA_EXEC_16, 4),
				       0xa0010000 | 0xffff, 0, 0));
	EXPECT_EQ(0x0ff0, vt_add_lanes(_metadata, fd,
				       vt_exec(DRM_VATOM_VISA_EXEC_16, 0),
				       0xffff0ff0, 0, 0));
	close(fd);
}

/* ChEn[i] = (NoMask or emask bit) and predicate bit i. */
TEST(dword_predicate)
{
	int fd;

	VT_OPEN(fd);
	EXPECT_EQ(0x5, vt_add_lanes(_metadata, fd,
				    vt_exec(DRM_VATOM_VISA_EXEC_4, DRM_VATOM_VISA_EXEC_NM),
				    0, DRM_VATOM_VISA_PREDICATED, 0x5));
	EXPECT_EQ(0x2, vt_add_lanes(_metadata, fd, vt_exec(DRM_VATOM_VISA_EXEC_4, 0),
				    0x3, DRM_VATOM_VISA_PREDICATED, 0x6));
	/* Predicate bits past the exec size play no part. */
	EXPECT_EQ(0x8001, vt_add_lanes(_metadata, fd,
				       vt_exec(DRM_VATOM_VISA_EXEC_16, 0),
				       0xffffffff, DRM_VATOM_VISA_PREDICATED, 0xffff8001));
	/* The predicate is lane-relative, not shifted by the mask window. */
	EXPECT_EQ(0x3, vt_add_lanes(_metadata, fd, vt_exec(DRM_VATOM_VISA_EXEC_4, 2),
				    0x00000f00, DRM_VATOM_VISA_PREDICATED, 0x3));
	EXPECT_EQ(0x0, vt_add_lanes(_metadata, fd, vt_exec(DRM_VATOM_VISA_EXEC_8, 0),
				    0xff, DRM_VATOM_VISA_PREDICATED, 0));
	close(fd);
}

/* --- floating point (type F) -------------------------------------------- */

/* IEEE single bit patterns: 1.0, 2.0, 3.0, -1.0, -2.0, 0.5, +0, -0. */
#define F1	0x3f800000
#define F2	0x40000000
#define F3	0x40400000
#define FM1	0xbf800000
#define FM2	0xc0000000
#define FHALF	0x3f000000
#define FMAXF	0x7f7fffff
#define FMINF	0xff7fffff

static const struct vt_row fmax32[] = {
	{ F1, F2, 0, F1, F2 },
	{ F2, F1, 0, F2, F2 },
	{ FM1, FM2, 0, FM1, FM1 },
	{ FM2, F1, 0, FM2, F1 },
	{ FMAXF, FMINF, 0, FMAXF, FMAXF },
	{ FHALF, 0x3f000001, 0, FHALF, 0x3f000001 },	/* one ulp */
	/* docs/semantics-float.md: maximumNumber, -0 < +0, one NaN ignored */
	{ 0x80000000, 0x00000000, 0, 0x80000000, 0x00000000 },
	{ 0x00000000, 0x80000000, 0, 0x00000000, 0x00000000 },
	{ 0x7fc00000, F1, 0, 0x7fc00000, F1 },
	{ F1, 0x7fc00000, 0, F1, F1 },
	{ 0x7fc00001, 0x7fc00000, 0, 0x7fc00001, 0x7fffffff },	/* canonical */
	{ 0x00000001, 0x00000000, 0, 0x00000001, 0x00000001 },	/* subnormal kept */
};

static const struct vt_row fmin32[] = {
	{ F1, F2, 0, F1, F1 },
	{ F2, F1, 0, F2, F1 },
	{ FM1, FM2, 0, FM1, FM2 },
	{ FM2, F1, 0, FM2, FM2 },
	{ FMAXF, FMINF, 0, FMAXF, FMINF },
	{ 0x3f000001, FHALF, 0, 0x3f000001, FHALF },
	{ 0x00000000, 0x80000000, 0, 0x00000000, 0x80000000 },
	{ 0x80000000, 0x00000000, 0, 0x80000000, 0x80000000 },
	{ 0x7fc00000, FM2, 0, 0x7fc00000, FM2 },
	{ 0x80000001, 0x00000000, 0, 0x80000001, 0x80000001 },
};

/* new = (src0 == old) ? src1 : old, an IEEE comparison. */
static const struct vt_row fcmpwr32[] = {
	{ F1, F1, F3, F1, F3 },
	{ F1, F2, F3, F1, F1 },
	{ FM1, F1, F3, FM1, FM1 },		/* sign matters */
	{ 0x80000000, 0x00000000, F1, 0x80000000, F1 },	/* -0 == +0 */
	{ 0x7fc00000, 0x7fc00000, F1, 0x7fc00000, 0x7fc00000 },	/* NaN != NaN */
	{ 0x00000001, 0x00000001, F1, 0x00000001, F1 },	/* no flush */
	{ 0x00000001, 0x00000000, F1, 0x00000001, 0x00000001 },
};

/* The .16 forms on type F are half precision (HF): 1.0 = 0x3c00. */
static const struct vt_row fmax16[] = {
	{ 0x3c00, 0x4000, 0, 0x3c00, 0x4000 },
	{ 0xbc00, 0xc000, 0, 0xbc00, 0xbc00 },
	{ 0x8000, 0x0000, 0, 0x8000, 0x0000 },
	{ 0x7e00, 0x3c00, 0, 0x7e00, 0x3c00 },
	{ 0x7bff, 0xfbff, 0, 0x7bff, 0x7bff },
};

static const struct vt_row fmin16[] = {
	{ 0x3c00, 0x4000, 0, 0x3c00, 0x3c00 },
	{ 0x0000, 0x8000, 0, 0x0000, 0x8000 },
	{ 0x7e00, 0xc000, 0, 0x7e00, 0xc000 },
	{ 0x0001, 0x3c00, 0, 0x0001, 0x0001 },
};

static const struct vt_row fcmpwr16[] = {
	{ 0x3c00, 0x3c00, 0x4200, 0x3c00, 0x4200 },
	{ 0x3c00, 0x4000, 0x4200, 0x3c00, 0x3c00 },
	{ 0x8000, 0x0000, 0x3c00, 0x8000, 0x3c00 },
	{ 0x7e00, 0x7e00, 0x3c00, 0x7e00, 0x7e00 },
};

TEST(dword_float)
{
	static const struct {
		__u8 op;
		const struct vt_row *t32, *t16;
		__u32 n32, n16;
	} ops[] = {
		{ DRM_VATOM_VISA_OP_FMAX, fmax32, fmax16, N(fmax32), N(fmax16) },
		{ DRM_VATOM_VISA_OP_FMIN, fmin32, fmin16, N(fmin32), N(fmin16) },
		{ DRM_VATOM_VISA_OP_FCMPWR, fcmpwr32, fcmpwr16, N(fcmpwr32),
		  N(fcmpwr16) },
	};
	__u64 mask, mask16;
	size_t i;
	int fd;

	VT_OPEN(fd);
	mask = vt_visa_ops(fd, DRM_VATOM_VISA_FORM_DWORD32);
	mask16 = vt_visa_ops(fd, DRM_VATOM_VISA_FORM_DWORD16);
	if (!((mask | mask16) & 0x70000))
		SKIP(close(fd); return, "float DWORD_ATOMIC ops not implemented");
	for (i = 0; i < VT_ARRAY_SIZE(ops); i++) {
		if (mask & (1u << ops[i].op))
			vt_run_table(_metadata, fd, ops[i].op, DRM_VATOM_VISA_TYPE_F,
				     VT_W32, ops[i].t32, ops[i].n32);
		if (mask16 & (1u << ops[i].op))
			vt_run_table(_metadata, fd, ops[i].op, DRM_VATOM_VISA_TYPE_F,
				     VT_W16, ops[i].t16, ops[i].n16);
	}
	close(fd);
}

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

/*
 * Lanes that address the same dword are serialised in ascending lane order
 * (a device guarantee: the ISA allows any order, vatom fixes this one), so
 * each lane sees the previous lane's result.
 */
TEST(dword_same_address)
{
	const __u32 zero[16] = { 0 };
	const __u32 add[8] = { 1, 2, 4, 8, 16, 32, 64, 128 };
	const __u32 xv[4] = { 10, 11, 12, 13 };
	const __u32 cas_new[4] = { 1, 2, 3, 4 }, cas_cmp[4] = { 0, 1, 2, 3 };
	const __u32 ords[4] = { 4, 4, 4, 4 };
	struct vt_stream s;
	struct vt_visa v;
	__u32 res[16], h, *map;
	int fd;

	VT_OPEN(fd);
	VT_BUFFER(fd, 4096, h, map);

	vt_stream_init(&s);
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_8,
		 DRM_VATOM_VISA_TYPE_UD, zero, add, NULL, true);
	vt_add_visa(&s, &v);
	memset(res, VT_POISON, sizeof(res));
	ASSERT_EQ(0, vt_run(fd, &s, h, res, sizeof(res), NULL));
	EXPECT_EQ(0, res[0]);
	EXPECT_EQ(1, res[1]);
	EXPECT_EQ(3, res[2]);
	EXPECT_EQ(7, res[3]);
	EXPECT_EQ(15, res[4]);
	EXPECT_EQ(31, res[5]);
	EXPECT_EQ(63, res[6]);
	EXPECT_EQ(127, res[7]);
	EXPECT_EQ(255, map[0]);

	/* XCHG: each lane gets the previous lane's value. */
	map[1] = 5;
	vt_stream_init(&s);
	vt_dword(&v, DRM_VATOM_VISA_OP_XCHG, DRM_VATOM_VISA_EXEC_4,
		 DRM_VATOM_VISA_TYPE_UD, ords, xv, NULL, true);
	vt_add_visa(&s, &v);
	memset(res, VT_POISON, sizeof(res));
	ASSERT_EQ(0, vt_run(fd, &s, h, res, sizeof(res), NULL));
	EXPECT_EQ(5, res[0]);
	EXPECT_EQ(10, res[1]);
	EXPECT_EQ(11, res[2]);
	EXPECT_EQ(12, res[3]);
	EXPECT_EQ(13, map[1]);

	/* CMPXCHG chain 0->1->2->3->4 only succeeds lane by lane ascending. */
	map[1] = 0;
	vt_stream_init(&s);
	vt_dword(&v, DRM_VATOM_VISA_OP_CMPXCHG, DRM_VATOM_VISA_EXEC_4,
		 DRM_VATOM_VISA_TYPE_UD, ords, cas_new, cas_cmp, true);
	vt_add_visa(&s, &v);
	memset(res, VT_POISON, sizeof(res));
	ASSERT_EQ(0, vt_run(fd, &s, h, res, sizeof(res), NULL));
	EXPECT_EQ(0, res[0]);
	EXPECT_EQ(1, res[1]);
	EXPECT_EQ(2, res[2]);
	EXPECT_EQ(3, res[3]);
	EXPECT_EQ(4, map[1]);

	/* PREDEC returns each lane's new value: 9 8 7 6. */
	map[1] = 10;
	vt_stream_init(&s);
	vt_dword(&v, DRM_VATOM_VISA_OP_PREDEC, DRM_VATOM_VISA_EXEC_4,
		 DRM_VATOM_VISA_TYPE_D, ords, NULL, NULL, true);
	vt_add_visa(&s, &v);
	memset(res, VT_POISON, sizeof(res));
	ASSERT_EQ(0, vt_run(fd, &s, h, res, sizeof(res), NULL));
	EXPECT_EQ(9, res[0]);
	EXPECT_EQ(8, res[1]);
	EXPECT_EQ(7, res[2]);
	EXPECT_EQ(6, res[3]);
	EXPECT_EQ(6, map[1]);

	/* INC on 16 lanes at one address, 12 of them enabled. */
	map[2] = 0;
	{
		__u32 eight[16];
		int i;

		for (i = 0; i < 16; i++)
			eight[i] = 8;
		vt_stream_init(&s);
		vt_dword(&v, DRM_VATOM_VISA_OP_INC, DRM_VATOM_VISA_EXEC_16,
			 DRM_VATOM_VISA_TYPE_UD, eight, NULL, NULL, true);
		v.emask = 0xe7bd;	/* lanes 1, 6, 11, 12 disabled */
		vt_add_visa(&s, &v);
		memset(res, VT_POISON, sizeof(res));
		ASSERT_EQ(0, vt_run(fd, &s, h, res, sizeof(res), NULL));
		EXPECT_EQ(12, map[2]);
		EXPECT_EQ(0, res[0]);
		EXPECT_EQ(VT_POISON32, res[1]);
		EXPECT_EQ(1, res[2]);
		EXPECT_EQ(4, res[5]);
		EXPECT_EQ(VT_POISON32, res[6]);
		EXPECT_EQ(5, res[7]);
		EXPECT_EQ(8, res[10]);
		EXPECT_EQ(VT_POISON32, res[11]);
		EXPECT_EQ(VT_POISON32, res[12]);
		EXPECT_EQ(9, res[13]);
		EXPECT_EQ(11, res[15]);
	}

	/* Packets run in stream order: the second sees the first's write. */
	vt_stream_init(&s);
	vt_dword(&v, DRM_VATOM_VISA_OP_XCHG, DRM_VATOM_VISA_EXEC_1,
		 DRM_VATOM_VISA_TYPE_UD, zero, &xv[2], NULL, true);
	vt_add_visa(&s, &v);
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_1,
		 DRM_VATOM_VISA_TYPE_UD, zero, &add[3], NULL, true);
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
