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
 * Out-of-bounds lanes, null Dst, ordering and result regions are in
 * test_visa_edges.c. Part of vatom_test.c's translation unit (see there);
 * not built alone.
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

/*
 * One variant per Op: its tables and data types, indexed by enum vt_width
 * (the .16 form takes the 32-bit type).
 */
FIXTURE(dword_op) {
	int fd;
};

FIXTURE_VARIANT(dword_op) {
	__u8 op;
	__u8 type[3];
	const struct vt_row *t[3];
	__u32 n[3];
};

#define VT_OP_VARIANT(name, o, ty32, ty64)				\
	FIXTURE_VARIANT_ADD(dword_op, name) {				\
		.op = DRM_VATOM_VISA_OP_##o,				\
		.type = { DRM_VATOM_VISA_TYPE_##ty32,			\
			  DRM_VATOM_VISA_TYPE_##ty32,			\
			  DRM_VATOM_VISA_TYPE_##ty64 },			\
		.t = { name##16, name##32, name##64 },			\
		.n = { N(name##16), N(name##32), N(name##64) },		\
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

/*
 * The variant's table of width @w. The 32-bit form is the one every device
 * has (CAP_VISA_DWORD_ATOMIC); the .16 and 64-bit forms are optional, so
 * VISA_OPS decides whether they run.
 */
static void vt_dword_form(struct __test_metadata *_metadata, int fd,
			  const FIXTURE_VARIANT(dword_op) *variant,
			  enum vt_width w)
{
	static const __u32 form[3] = { DRM_VATOM_VISA_FORM_DWORD16, 0,
				       DRM_VATOM_VISA_FORM_DWORD64 };

	if (fd < 0)
		return;
	if (w != VT_W32 && !(vt_visa_ops(fd, form[w]) & (1u << variant->op)))
		SKIP(return, "DWORD_ATOMIC%s op %u not implemented",
		     w == VT_W16 ? ".16" : " 64-bit", variant->op);
	vt_run_table(_metadata, fd, variant->op, variant->type[w], w,
		     variant->t[w], variant->n[w]);
}

TEST_F(dword_op, dword32)
{
	vt_dword_form(_metadata, self->fd, variant, VT_W32);
}

TEST_F(dword_op, dword16)
{
	vt_dword_form(_metadata, self->fd, variant, VT_W16);
}

TEST_F(dword_op, dword64)
{
	vt_dword_form(_metadata, self->fd, variant, VT_W64);
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

/**
 * struct vt_lane_row - one packet of vt_add_lanes() and the lanes that run
 * @size: the exec size code
 * @ctl: the mask control, M - 1 or'ed with _NM (vt_exec())
 * @emask: the execution mask
 * @lanes: the lanes that run, by hand: ChEn[i] = (_NM or emask bit
 *	(4 * (M - 1) + i)) and, when predicated, predicate bit i
 * @flags: DRM_VATOM_VISA_PREDICATED (VT_PRED()) or 0
 * @pred: the predicate
 */
struct vt_lane_row {
	__u8 size, ctl;
	__u32 emask, lanes, flags, pred;
};

#define VT_NM			DRM_VATOM_VISA_EXEC_NM
#define VT_LANES(size, ctl, emask, lanes) \
	{ DRM_VATOM_VISA_EXEC_##size, ctl, emask, lanes }
#define VT_PRED(size, ctl, emask, pred, lanes) \
	{ DRM_VATOM_VISA_EXEC_##size, ctl, emask, lanes, \
	  DRM_VATOM_VISA_PREDICATED, pred }

/*
 * Mask window @m (M - 1) starts at emask bit 4 * @m: exec 4 with lanes 0
 * and 2 on and every bit outside the window set; exec 1 with the window's
 * first bit alone, then every bit but that one; _NM ignores the mask.
 */
#define VT_WINDOW(m)							\
	VT_LANES(4, m, ~(0xfu << 4 * (m)) | 0x5u << 4 * (m), 0x5),	\
	VT_LANES(1, m, 1u << 4 * (m), 0x1),				\
	VT_LANES(1, m, ~(1u << 4 * (m)), 0x0),				\
	VT_LANES(4, VT_NM | (m), 0, 0xf)

static const struct vt_lane_row vt_lane_rows[] = {
	/* Every lane of each exec size: through the mask, then _NM. */
	VT_LANES(1, 0, 0xffffffff, 0x1), VT_LANES(1, VT_NM, 0, 0x1),
	VT_LANES(2, 0, 0xffffffff, 0x3), VT_LANES(2, VT_NM, 0, 0x3),
	VT_LANES(4, 0, 0xffffffff, 0xf), VT_LANES(4, VT_NM, 0, 0xf),
	VT_LANES(8, 0, 0xffffffff, 0xff), VT_LANES(8, VT_NM, 0, 0xff),
	VT_LANES(16, 0, 0xffffffff, 0xffff), VT_LANES(16, VT_NM, 0, 0xffff),
	VT_WINDOW(0), VT_WINDOW(1), VT_WINDOW(2), VT_WINDOW(3),
	VT_WINDOW(4), VT_WINDOW(5), VT_WINDOW(6), VT_WINDOW(7),
	/* Exec 8 up to M7 (bits 24..31), exec 16 up to M5 (bits 16..31). */
	VT_LANES(8, 6, 0x81000000, 0x81),
	VT_LANES(16, 4, 0xa0010000 | 0xffff, 0xa001),
	VT_LANES(16, 0, 0xffff0ff0, 0x0ff0),
	/* The predicate ands with _NM or with the mask. */
	VT_PRED(4, VT_NM, 0, 0x5, 0x5),
	VT_PRED(4, 0, 0x3, 0x6, 0x2),
	/* Predicate bits past the exec size play no part. */
	VT_PRED(16, 0, 0xffffffff, 0xffff8001, 0x8001),
	/* The predicate is lane-relative, not shifted by the mask window. */
	VT_PRED(4, 2, 0x00000f00, 0x3, 0x3),
	VT_PRED(8, 0, 0xff, 0, 0x0),
};

#undef VT_WINDOW
#undef VT_PRED
#undef VT_LANES
#undef VT_NM

/* Exec sizes, mask control (M1..M8, _NM) and predication: vt_lane_rows. */
TEST(dword_lanes)
{
	size_t i;
	int fd;

	VT_OPEN(fd);
	for (i = 0; i < VT_ARRAY_SIZE(vt_lane_rows); i++) {
		const struct vt_lane_row *r = &vt_lane_rows[i];

		EXPECT_EQ(r->lanes, vt_add_lanes(_metadata, fd,
						 vt_exec(r->size, r->ctl),
						 r->emask, r->flags, r->pred))
			TH_LOG("row %zu: exec 0x%x emask 0x%08x pred 0x%x", i,
			       vt_exec(r->size, r->ctl), r->emask, r->pred);
	}
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
