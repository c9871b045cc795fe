// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * vISA DWORD_ATOMIC, TYPED_ATOMIC and ADDC execution through the stream
 * walker. Every expected value comes from tables written by hand from the
 * seed text (the DWORD_ATOMIC_OP table, the ADDC semantics, the
 * out-of-bound access property) and from docs/semantics-visa.md; none is
 * produced by the engine.
 */
#include <string.h>

#include "vatom_engine.h"
#include "typed.h"
#include "vt_host.h"
#include "vt_test.h"
#include "vt_visa.h"

#define SLOT_BUF	5	/* T255, stateless */
#define SLOT_TYPED	9
#define FILL		0xa5a5a5a5u

static u8 mem[2048] __attribute__((aligned(16)));
static u8 res[2048] __attribute__((aligned(16)));
static struct vatom_surface_view bufv, typv;
static struct vatom_typed_layout lay;
static struct vatom_bindings bind;
static struct vatom_stats stats;

static u32 rd32(const u8 *b, u32 off)
{
	u32 v;

	memcpy(&v, b + off, 4);
	return v;
}

static u64 rd64(const u8 *b, u32 off)
{
	u64 v;

	memcpy(&v, b + off, 8);
	return v;
}

static u16 rd16(const u8 *b, u32 off)
{
	u16 v;

	memcpy(&v, b + off, 2);
	return v;
}

static void wr32(u8 *b, u32 off, u32 v)
{
	memcpy(b + off, &v, 4);
}

static void wr64(u8 *b, u32 off, u64 v)
{
	memcpy(b + off, &v, 8);
}

static void wr16(u8 *b, u32 off, u16 v)
{
	memcpy(b + off, &v, 2);
}

/* Fresh memory, results filled with FILL, a buffer of @size bytes bound. */
static void setup(u64 size)
{
	memset(mem, 0, sizeof(mem));
	memset(res, 0xa5, sizeof(res));
	memset(&bind, 0, sizeof(bind));
	memset(&stats, 0, sizeof(stats));
	bufv.vaddr = mem;
	bufv.size = size;
	bufv.kind = DRM_VATOM_SURFACE_BUFFER;
	bind.slot[SLOT_BUF] = &bufv;
}

/* Bind a typed surface over mem; returns its size. */
static u64 setup_typed(u32 dim, u32 w, u32 h, u32 d, u32 a, u32 levels)
{
	struct drm_vatom_typed_desc t = {
		.dim = dim, .format = DRM_VATOM_FORMAT_R32, .width = w,
		.height = h, .depth = d, .array_size = a, .levels = levels,
	};
	int rc = vatom_typed_layout_init(&lay, &t, sizeof(mem));

	VT_EXPECT_EQ(rc, 0);
	typv.vaddr = mem;
	typv.size = lay.size;
	typv.kind = DRM_VATOM_SURFACE_TYPED;
	typv.typed = &lay;
	bind.slot[SLOT_TYPED] = &typv;
	return lay.size;
}

/*
 * Validate a one-packet stream (expecting success and @want_results bytes
 * of results), then execute it into res.
 */
static void run1(const struct pk *k, u64 want_results)
{
	static u64 stream[1024];
	struct vatom_stream_error err;
	u32 pos = 0;
	u64 need = ~0ull;
	int rc;

	vt_visa_put((u8 *)stream, &pos, k, NULL);
	rc = vatom_stream_validate(stream, pos, &bind, &need, &err);
	VT_EXPECT_EQ(rc, 0);
	VT_EXPECT_EQ(err.reason, DRM_VATOM_ERR_NONE);
	VT_EXPECT_EQ(need, want_results);
	if (rc)
		return;
	vatom_stream_execute(stream, pos, &bind, res, &stats);
	VT_EXPECT_EQ(stats.packets[VATOM_FAMILY_VISA], 1);
}

/* The first @n 32-bit words of res must be @want. */
static void expect_res32(const u32 *want, u32 n, const char *what)
{
	u32 i;

	for (i = 0; i < n; i++)
		VT_EXPECT_EQ_MSG(rd32(res, 4 * i), want[i], "%s word %u", what,
				 i);
}

/* Which sources an op takes (from the Src0/Src1 operand descriptions). */
static u32 srcs_of(u8 op)
{
	switch (op) {
	case OP(INC):
	case OP(DEC):
	case OP(PREDEC):
		return 0;
	case OP(CMPXCHG):
	case OP(FCMPWR):
		return OPND(SRC0) | OPND(SRC1);
	default:
		return OPND(SRC0);
	}
}

/* ------------------------------------------------------------------------ */
/* Hand tables: one lane, old value in memory, sources, new value, return.   */
/* ------------------------------------------------------------------------ */

struct row {
	u8 op, type;
	u64 old, s0, s1, new, ret;
};

/* Every op returns the old value except PREDEC, which returns the new. */
#define R(o, t, old, s0, s1, new) { OP(o), TY(t), old, s0, s1, new, old }
#define P(t, old, new) { OP(PREDEC), TY(t), old, 0, 0, new, new }

static const struct row rows32[] = {
	R(ADD, UD, 0, 0, 0, 0),
	R(ADD, UD, 1, 1, 0, 2),
	R(ADD, UD, 0xffffffff, 1, 0, 0),
	R(ADD, UD, 0x7fffffff, 1, 0, 0x80000000),
	R(ADD, UD, 0xffffffff, 0xffffffff, 0, 0xfffffffe),
	R(ADD, UD, 0x80000000, 0x80000000, 0, 0),
	R(SUB, UD, 0, 1, 0, 0xffffffff),
	R(SUB, UD, 5, 3, 0, 2),
	R(SUB, UD, 0x80000000, 1, 0, 0x7fffffff),
	R(SUB, UD, 0xffffffff, 0xffffffff, 0, 0),
	R(SUB, UD, 0, 0x80000000, 0, 0x80000000),
	R(INC, UD, 0, 0, 0, 1),
	R(INC, UD, 0x7fffffff, 0, 0, 0x80000000),
	R(INC, UD, 0xffffffff, 0, 0, 0),
	R(DEC, UD, 0, 0, 0, 0xffffffff),
	R(DEC, UD, 1, 0, 0, 0),
	R(DEC, UD, 0x80000000, 0, 0, 0x7fffffff),
	R(MIN, UD, 5, 3, 0, 3),
	R(MIN, UD, 3, 5, 0, 3),
	R(MIN, UD, 0x80000000, 0x7fffffff, 0, 0x7fffffff),
	R(MIN, UD, 0xffffffff, 0, 0, 0),
	R(MIN, UD, 0, 0xffffffff, 0, 0),
	R(MAX, UD, 0x7fffffff, 0x80000000, 0, 0x80000000),
	R(MAX, UD, 0, 0xffffffff, 0, 0xffffffff),
	R(MAX, UD, 5, 3, 0, 5),
	R(MAX, UD, 0xffffffff, 1, 0, 0xffffffff),
	R(XCHG, UD, 0x12345678, 0xdeadbeef, 0, 0xdeadbeef),
	R(XCHG, UD, 0xffffffff, 0, 0, 0),
	R(CMPXCHG, UD, 5, 9, 5, 9),
	R(CMPXCHG, UD, 5, 9, 6, 5),
	R(CMPXCHG, UD, 0xffffffff, 0, 0xffffffff, 0),
	R(CMPXCHG, UD, 0, 1, 0, 1),
	R(CMPXCHG, UD, 0x80000000, 1, 0x7fffffff, 0x80000000),
	R(AND, UD, 0xf0f0f0f0, 0xff00ff00, 0, 0xf000f000),
	R(AND, UD, 0xffffffff, 0, 0, 0),
	R(AND, UD, 0xffffffff, 0x80000001, 0, 0x80000001),
	R(OR, UD, 0xf0f0f0f0, 0x0f0f0f0f, 0, 0xffffffff),
	R(OR, UD, 0, 0x80000001, 0, 0x80000001),
	R(XOR, UD, 0xffffffff, 0x0f0f0f0f, 0, 0xf0f0f0f0),
	R(XOR, UD, 0xaaaaaaaa, 0xaaaaaaaa, 0, 0),
	R(XOR, UD, 0, 0x80000000, 0, 0x80000000),
	R(IMIN, D, 0x7fffffff, 0x80000000, 0, 0x80000000),
	R(IMIN, D, 0xffffffff, 1, 0, 0xffffffff),
	R(IMIN, D, 0, 0xffffffff, 0, 0xffffffff),
	R(IMIN, D, 5, 3, 0, 3),
	R(IMIN, D, 0x80000000, 0x7fffffff, 0, 0x80000000),
	R(IMAX, D, 0x7fffffff, 0x80000000, 0, 0x7fffffff),
	R(IMAX, D, 0xffffffff, 0, 0, 0),
	R(IMAX, D, 0x80000000, 0x80000001, 0, 0x80000001),
	R(IMAX, D, 3, 5, 0, 5),
	P(UD, 0, 0xffffffff),
	P(UD, 1, 0),
	P(UD, 0x80000000, 0x7fffffff),
	P(D, 0, 0xffffffff),
	P(D, 0x80000000, 0x7fffffff),
	P(D, 0x7fffffff, 0x7ffffffe),
};

/*
 * binary32 patterns: 1.0 3f800000, 2.0 40000000, -1.0 bf800000,
 * -2.0 c0000000, +0 0, -0 80000000, +inf 7f800000, -inf ff800000, max
 * finite 7f7fffff, qNaN 7fc00000, sNaN 7f800001, smallest subnormal 1.
 * min/max are IEEE 754-2019 minimumNumber/maximumNumber (-0 < +0, a NaN
 * operand is ignored, two NaNs give the canonical NaN 7fffffff); FCMPWR
 * compares with IEEE equality (-0 == +0, NaN equals nothing).
 */
static const struct row rowsf32[] = {
	R(FMAX, F, 0x3f800000, 0x40000000, 0, 0x40000000),
	R(FMAX, F, 0x40000000, 0x3f800000, 0, 0x40000000),
	R(FMAX, F, 0x80000000, 0x00000000, 0, 0x00000000),
	R(FMAX, F, 0x00000000, 0x80000000, 0, 0x00000000),
	R(FMAX, F, 0x7fc00000, 0x3f800000, 0, 0x3f800000),
	R(FMAX, F, 0x3f800000, 0x7fc00000, 0, 0x3f800000),
	R(FMAX, F, 0x7f800001, 0xbf800000, 0, 0xbf800000),
	R(FMAX, F, 0x7fc00000, 0xffc00001, 0, 0x7fffffff),
	R(FMAX, F, 0xff800000, 0xbf800000, 0, 0xbf800000),
	R(FMAX, F, 0x7f800000, 0x7f7fffff, 0, 0x7f800000),
	R(FMAX, F, 0xbf800000, 0xc0000000, 0, 0xbf800000),
	R(FMAX, F, 0x00000000, 0x00000001, 0, 0x00000001),
	R(FMAX, F, 0x80000001, 0x80000000, 0, 0x80000000),
	R(FMIN, F, 0x3f800000, 0x40000000, 0, 0x3f800000),
	R(FMIN, F, 0x80000000, 0x00000000, 0, 0x80000000),
	R(FMIN, F, 0x00000000, 0x80000000, 0, 0x80000000),
	R(FMIN, F, 0x7fc00000, 0x3f800000, 0, 0x3f800000),
	R(FMIN, F, 0x40000000, 0x7fc00000, 0, 0x40000000),
	R(FMIN, F, 0x7fc00000, 0x7fc00000, 0, 0x7fffffff),
	R(FMIN, F, 0xff800000, 0xbf800000, 0, 0xff800000),
	R(FMIN, F, 0xbf800000, 0xc0000000, 0, 0xc0000000),
	R(FMIN, F, 0x00000001, 0x00000000, 0, 0x00000000),
	R(FMIN, F, 0x7f800000, 0x7f7fffff, 0, 0x7f7fffff),
	R(FCMPWR, F, 0x3f800000, 0x3f800000, 0x40000000, 0x40000000),
	R(FCMPWR, F, 0x3f800000, 0x40000000, 0x40400000, 0x3f800000),
	R(FCMPWR, F, 0x00000000, 0x80000000, 0x3f800000, 0x3f800000),
	R(FCMPWR, F, 0x80000000, 0x00000000, 0x12345678, 0x12345678),
	R(FCMPWR, F, 0x7fc00000, 0x7fc00000, 0x3f800000, 0x7fc00000),
	R(FCMPWR, F, 0x7f800000, 0x7f800000, 0x00000000, 0x00000000),
	R(FCMPWR, F, 0xff800000, 0x7f800000, 0x00000000, 0xff800000),
	R(FCMPWR, F, 0x00000001, 0x00000001, 0x7fc00000, 0x7fc00000),
	R(FCMPWR, F, 0x00000001, 0x00000000, 0x3f800000, 0x00000001),
};

/* .16: the same operations on 16-bit values (W/UW, HF). */
static const struct row rows16[] = {
	R(ADD, UD, 0xffff, 1, 0, 0),
	R(ADD, UD, 0x7fff, 1, 0, 0x8000),
	R(ADD, UD, 1, 1, 0, 2),
	R(ADD, UD, 0xffff, 0xffff, 0, 0xfffe),
	R(SUB, UD, 0, 1, 0, 0xffff),
	R(SUB, UD, 0x8000, 1, 0, 0x7fff),
	R(SUB, UD, 7, 7, 0, 0),
	R(INC, UD, 0xffff, 0, 0, 0),
	R(INC, UD, 0x7fff, 0, 0, 0x8000),
	R(DEC, UD, 0, 0, 0, 0xffff),
	R(DEC, UD, 0x8000, 0, 0, 0x7fff),
	R(MIN, UD, 0x8000, 0x7fff, 0, 0x7fff),
	R(MIN, UD, 0xffff, 0, 0, 0),
	R(MIN, UD, 2, 0xffff, 0, 2),
	R(MAX, UD, 0x7fff, 0x8000, 0, 0x8000),
	R(MAX, UD, 0xffff, 1, 0, 0xffff),
	R(XCHG, UD, 0x1234, 0xbeef, 0, 0xbeef),
	R(CMPXCHG, UD, 5, 9, 5, 9),
	R(CMPXCHG, UD, 5, 9, 6, 5),
	R(CMPXCHG, UD, 0xffff, 0, 0xffff, 0),
	R(AND, UD, 0xf0f0, 0xff00, 0, 0xf000),
	R(OR, UD, 0xf0f0, 0x0f0f, 0, 0xffff),
	R(XOR, UD, 0xffff, 0x0f0f, 0, 0xf0f0),
	R(IMIN, D, 0x7fff, 0x8000, 0, 0x8000),
	R(IMIN, D, 0xffff, 1, 0, 0xffff),
	R(IMIN, D, 0, 0xffff, 0, 0xffff),
	R(IMAX, D, 0x7fff, 0x8000, 0, 0x7fff),
	R(IMAX, D, 0x8000, 0x8001, 0, 0x8001),
	R(IMAX, D, 0xffff, 0, 0, 0),
	P(UD, 0, 0xffff),
	P(D, 1, 0),
	P(D, 0x8000, 0x7fff),
};

/*
 * binary16 patterns: 1.0 3c00, 2.0 4000, 3.0 4200, -1.0 bc00, -0 8000,
 * +inf 7c00, -inf fc00, max finite 7bff, qNaN 7e00, canonical NaN 7fff.
 */
static const struct row rowsf16[] = {
	R(FMAX, F, 0x3c00, 0x4000, 0, 0x4000),
	R(FMAX, F, 0x8000, 0x0000, 0, 0x0000),
	R(FMAX, F, 0x0000, 0x8000, 0, 0x0000),
	R(FMAX, F, 0x7e00, 0x3c00, 0, 0x3c00),
	R(FMAX, F, 0x7e00, 0x7e00, 0, 0x7fff),
	R(FMAX, F, 0xfc00, 0xbc00, 0, 0xbc00),
	R(FMAX, F, 0x7c00, 0x7bff, 0, 0x7c00),
	R(FMIN, F, 0x3c00, 0x4000, 0, 0x3c00),
	R(FMIN, F, 0x0000, 0x8000, 0, 0x8000),
	R(FMIN, F, 0x7e00, 0x4000, 0, 0x4000),
	R(FMIN, F, 0x4000, 0x7e00, 0, 0x4000),
	R(FMIN, F, 0x7e00, 0xfe00, 0, 0x7fff),
	R(FMIN, F, 0xfc00, 0xbc00, 0, 0xfc00),
	R(FCMPWR, F, 0x3c00, 0x3c00, 0x4000, 0x4000),
	R(FCMPWR, F, 0x0000, 0x8000, 0x3c00, 0x3c00),
	R(FCMPWR, F, 0x7e00, 0x7e00, 0x3c00, 0x7e00),
	R(FCMPWR, F, 0x3c00, 0x4000, 0x4200, 0x3c00),
	R(FCMPWR, F, 0xfc00, 0xfc00, 0x0001, 0x0001),
};

static const struct row rows64[] = {
	R(ADD, UQ, 0xffffffffffffffff, 1, 0, 0),
	R(ADD, UQ, 0x00000000ffffffff, 1, 0, 0x0000000100000000),
	R(ADD, UQ, 0x7fffffffffffffff, 1, 0, 0x8000000000000000),
	R(ADD, UQ, 0x123456789abcdef0, 0x1111111111111111, 0,
	  0x23456789abcdf001),
	R(SUB, UQ, 0, 1, 0, 0xffffffffffffffff),
	R(SUB, UQ, 0x0000000100000000, 1, 0, 0x00000000ffffffff),
	R(SUB, UQ, 0x8000000000000000, 1, 0, 0x7fffffffffffffff),
	R(INC, UQ, 0x00000000ffffffff, 0, 0, 0x0000000100000000),
	R(INC, UQ, 0xffffffffffffffff, 0, 0, 0),
	R(DEC, UQ, 0, 0, 0, 0xffffffffffffffff),
	R(DEC, UQ, 0x0000000100000000, 0, 0, 0x00000000ffffffff),
	R(MIN, UQ, 0x8000000000000000, 0x7fffffffffffffff, 0,
	  0x7fffffffffffffff),
	R(MIN, UQ, 0x0000000100000000, 0x00000000ffffffff, 0,
	  0x00000000ffffffff),
	R(MAX, UQ, 0x0000000100000000, 0x00000000ffffffff, 0,
	  0x0000000100000000),
	R(MAX, UQ, 0x7fffffffffffffff, 0x8000000000000000, 0,
	  0x8000000000000000),
	R(XCHG, UQ, 1, 0xdeadbeefcafebabe, 0, 0xdeadbeefcafebabe),
	R(CMPXCHG, UQ, 0x0000000100000005, 9, 0x0000000100000005, 9),
	R(CMPXCHG, UQ, 0x0000000100000005, 9, 5, 0x0000000100000005),
	R(CMPXCHG, UQ, 0xffffffff00000000, 1, 0x00000000ffffffff,
	  0xffffffff00000000),
	R(AND, UQ, 0xff00ff00ff00ff00, 0x0ff00ff00ff00ff0, 0,
	  0x0f000f000f000f00),
	R(OR, UQ, 0xf000000000000000, 0x000000000000000f, 0,
	  0xf00000000000000f),
	R(XOR, UQ, 0xffffffffffffffff, 0x00000000ffffffff, 0,
	  0xffffffff00000000),
	R(IMIN, Q, 0x7fffffffffffffff, 0x8000000000000000, 0,
	  0x8000000000000000),
	R(IMIN, Q, 0xffffffffffffffff, 0, 0, 0xffffffffffffffff),
	R(IMIN, Q, 0x00000000ffffffff, 0xffffffff00000000, 0,
	  0xffffffff00000000),
	R(IMAX, Q, 0x7fffffffffffffff, 0x8000000000000000, 0,
	  0x7fffffffffffffff),
	R(IMAX, Q, 0xffffffff00000000, 0x00000000ffffffff, 0,
	  0x00000000ffffffff),
	R(IMAX, Q, 0x8000000000000000, 0x8000000000000001, 0,
	  0x8000000000000001),
	P(UQ, 0, 0xffffffffffffffff),
	P(UQ, 0x0000000100000000, 0x00000000ffffffff),
	P(Q, 0x8000000000000000, 0x7fffffffffffffff),
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* One-lane DWORD_ATOMIC (@op16: the .16 form) of row @t at *addr. */
static struct pk row_pk(const struct row *t, u8 op16, const u32 *addr,
			const void *s0, const void *s1)
{
	struct pk k = {
		.opcode = DWORD, .op = t->op | op16, .exec = EX(0, 0),
		.surface = SLOT_BUF, .type = t->type,
		.operands = OPND(ADDR) | OPND(DST) | srcs_of(t->op),
		.emask = 1, .addr = addr, .src0 = s0, .src1 = s1,
	};

	return k;
}

/* DWORD_ATOMIC, one lane at byte 8; the words beside it must not change. */
static void check_rows32(const struct row *t, u32 count)
{
	u32 i;

	for (i = 0; i < count; i++) {
		u32 addr = 8, s0 = t[i].s0, s1 = t[i].s1;
		struct pk k = row_pk(&t[i], 0, &addr, &s0, &s1);

		setup(64);
		wr32(mem, 4, 0x11111111);
		wr32(mem, 8, t[i].old);
		wr32(mem, 12, 0x22222222);
		run1(&k, 8);
		VT_EXPECT_EQ_MSG(rd32(mem, 8), t[i].new, "row %u", i);
		VT_EXPECT_EQ_MSG(rd32(res, 0), t[i].ret, "row %u", i);
		VT_EXPECT_EQ_MSG(rd32(res, 4), FILL, "row %u", i);
		VT_EXPECT_EQ_MSG(rd32(mem, 4), 0x11111111, "row %u", i);
		VT_EXPECT_EQ_MSG(rd32(mem, 12), 0x22222222, "row %u", i);
		VT_EXPECT_EQ_MSG(stats.elements[VATOM_FAMILY_VISA], 1,
				 "row %u", i);
	}
}

/*
 * DWORD_ATOMIC.16, at both halves of a dword; the other half keeps its
 * value, the sources' upper 16 bits are ignored and the return value is
 * zero-extended.
 */
static void check_rows16(const struct row *t, u32 count)
{
	u32 i, half;

	for (i = 0; i < count; i++) {
		for (half = 0; half < 2; half++) {
			u32 addr = 8 + 2 * half;
			u32 s0 = t[i].s0 | 0xdead0000;
			u32 s1 = t[i].s1 | 0xbeef0000;
			struct pk k = row_pk(&t[i], OP16, &addr, &s0, &s1);

			setup(64);
			wr32(mem, 4, 0x11111111);
			wr16(mem, 8 + 2 * !half, 0x5aa5);
			wr16(mem, addr, t[i].old);
			wr32(mem, 12, 0x22222222);
			run1(&k, 8);
			VT_EXPECT_EQ_MSG(rd16(mem, addr), t[i].new,
					 "row %u half %u", i, half);
			VT_EXPECT_EQ_MSG(rd16(mem, 8 + 2 * !half), 0x5aa5,
					 "row %u half %u", i, half);
			VT_EXPECT_EQ_MSG(rd32(res, 0), t[i].ret,
					 "row %u half %u", i, half);
			VT_EXPECT_EQ_MSG(rd32(mem, 4), 0x11111111, "row %u", i);
			VT_EXPECT_EQ_MSG(rd32(mem, 12), 0x22222222, "row %u", i);
		}
	}
}

static void test_dword32(void)
{
	check_rows32(rows32, COUNT(rows32));
}

static void test_dword32_float(void)
{
	check_rows32(rowsf32, COUNT(rowsf32));
}

static void test_dword16(void)
{
	check_rows16(rows16, COUNT(rows16));
}

static void test_dword16_float(void)
{
	check_rows16(rowsf16, COUNT(rowsf16));
}

/*
 * .16 on the last half-word of a surface whose size is not a multiple of
 * 4: the dword containing it reaches past the surface, which is an exact
 * heap allocation here, so the sanitizer build proves no byte past the size
 * is read or written. Sizes 6 and 7, half-word at 4.
 */
static void check_rows16_tail(const struct row *t, u32 count)
{
	u32 i, size;

	for (size = 6; size <= 7; size++) {
		u8 *tail = NULL;

		if (posix_memalign((void **)&tail, 16, size))
			abort();
		for (i = 0; i < count; i++) {
			u32 addr = 4;
			u32 s0 = t[i].s0 | 0xdead0000;
			u32 s1 = t[i].s1 | 0xbeef0000;
			struct pk k = row_pk(&t[i], OP16, &addr, &s0, &s1);

			setup(size);
			bufv.vaddr = tail;
			memset(tail, 0x5a, size);
			wr16(tail, 4, t[i].old);
			run1(&k, 8);
			VT_EXPECT_EQ_MSG(rd16(tail, 4), t[i].new, "size %u row %u",
					 size, i);
			VT_EXPECT_EQ_MSG(rd32(res, 0), t[i].ret, "size %u row %u",
					 size, i);
			VT_EXPECT_EQ_MSG(rd32(tail, 0), 0x5a5a5a5a,
					 "size %u row %u", size, i);
			if (size == 7)
				VT_EXPECT_EQ_MSG(tail[6], 0x5a, "row %u", i);
		}
		free(tail);
	}
}

static void test_dword16_tail(void)
{
	check_rows16_tail(rows16, COUNT(rows16));
	check_rows16_tail(rowsf16, COUNT(rowsf16));
}

static void test_dword64(void)
{
	u32 i;

	for (i = 0; i < COUNT(rows64); i++) {
		const struct row *t = &rows64[i];
		u32 addr = 16;
		u64 s0 = t->s0, s1 = t->s1;
		struct pk k = row_pk(t, 0, &addr, &s0, &s1);

		setup(64);
		wr64(mem, 8, 0x1111111111111111);
		wr64(mem, 16, t->old);
		wr64(mem, 24, 0x2222222222222222);
		run1(&k, 8);
		VT_EXPECT_EQ_MSG(rd64(mem, 16), t->new, "row %u", i);
		VT_EXPECT_EQ_MSG(rd64(res, 0), t->ret, "row %u", i);
		VT_EXPECT_EQ_MSG(rd64(mem, 8), 0x1111111111111111, "row %u", i);
		VT_EXPECT_EQ_MSG(rd64(mem, 24), 0x2222222222222222, "row %u", i);
	}
}

/*
 * TYPED_ATOMIC with the integer rows: lane 3 of 8 only, on texel (1, 2)
 * of a 4x4 2D surface (byte 4 * (1 + 4 * 2) = 36); the other lanes are
 * disabled and keep their result elements.
 */
static void check_typed_rows(const struct row *t, u32 count, bool is16)
{
	static const u32 u[8] = { 0, 0, 0, 1, 0, 0, 0, 0 };
	static const u32 v[8] = { 0, 0, 0, 2, 0, 0, 0, 0 };
	u32 i, j;

	for (i = 0; i < count; i++) {
		u32 s0[8], s1[8];
		struct pk k = {
			.opcode = TYPED, .op = t[i].op | (is16 ? OP16 : 0),
			.exec = EX(3, 0), .surface = SLOT_TYPED,
			.type = t[i].type,
			.operands = OPND(ADDR) | OPND(V) | OPND(DST) |
				    srcs_of(t[i].op),
			.emask = 1u << 3, .addr = u, .v = v, .src0 = s0,
			.src1 = s1,
		};

		for (j = 0; j < 8; j++) {
			s0[j] = t[i].s0 | (is16 ? 0xdead0000 : 0);
			s1[j] = t[i].s1 | (is16 ? 0xbeef0000 : 0);
		}
		setup(0);
		setup_typed(DRM_VATOM_TYPED_2D, 4, 4, 1, 1, 1);
		wr32(mem, 32, 0x11111111);
		if (is16)
			wr32(mem, 36, 0x5aa50000 | (u32)t[i].old);
		else
			wr32(mem, 36, t[i].old);
		wr32(mem, 40, 0x22222222);
		run1(&k, 32);
		if (is16) {
			VT_EXPECT_EQ_MSG(rd32(mem, 36), 0x5aa50000 | t[i].new,
					 "row %u", i);
		} else {
			VT_EXPECT_EQ_MSG(rd32(mem, 36), t[i].new, "row %u", i);
		}
		VT_EXPECT_EQ_MSG(rd32(res, 12), t[i].ret, "row %u", i);
		for (j = 0; j < 8; j++)
			if (j != 3)
				VT_EXPECT_EQ_MSG(rd32(res, 4 * j), FILL,
						 "row %u lane %u", i, j);
		VT_EXPECT_EQ_MSG(rd32(mem, 32), 0x11111111, "row %u", i);
		VT_EXPECT_EQ_MSG(rd32(mem, 40), 0x22222222, "row %u", i);
	}
}

static void test_typed_ops(void)
{
	check_typed_rows(rows32, COUNT(rows32), false);
	check_typed_rows(rows16, COUNT(rows16), true);
}

/* ------------------------------------------------------------------------ */
/* Exec sizes, masks, predicates                                             */
/* ------------------------------------------------------------------------ */

/*
 * DWORD ADD over n lanes: lane i adds i + 1 to the dword at byte
 * 4 * (n - 1 - i) + 64 (addresses descending, to catch lane/offset mixups),
 * which held 0x1000 + i. @want is the set of lanes expected to run.
 */
static void check_add_lanes(u8 exec, u32 emask, u32 pred, u32 flags,
			    u32 want, const char *what)
{
	u32 n = 1u << (exec & 7);
	u32 addr[32], s0[32], i, ran = 0;
	struct pk k = {
		.opcode = DWORD, .op = OP(ADD), .exec = exec,
		.surface = SLOT_BUF, .type = TY(UD),
		.operands = OPND(ADDR) | OPND(SRC0) | OPND(DST),
		.emask = emask, .pred = pred, .flags = flags,
		.addr = addr, .src0 = s0,
	};

	setup(512);
	for (i = 0; i < n; i++) {
		addr[i] = 4 * (n - 1 - i) + 64;
		s0[i] = i + 1;
		wr32(mem, addr[i], 0x1000 + i);
	}
	run1(&k, (u32)vt_align8(4 * n));
	for (i = 0; i < n; i++) {
		bool on = want & (1u << i);

		ran += on;
		VT_EXPECT_EQ_MSG(rd32(mem, addr[i]),
				 on ? 0x1000 + i + i + 1 : 0x1000 + i,
				 "%s lane %u", what, i);
		VT_EXPECT_EQ_MSG(rd32(res, 4 * i), on ? 0x1000 + i : FILL,
				 "%s lane %u", what, i);
	}
	/* Nothing past the packet's result region. */
	VT_EXPECT_EQ_MSG(rd32(res, (u32)vt_align8(4 * n)), FILL, "%s", what);
	VT_EXPECT_EQ_MSG(rd32(mem, 60), 0, "%s", what);
	VT_EXPECT_EQ_MSG(rd32(mem, 64 + 4 * n), 0, "%s", what);
	VT_EXPECT_EQ_MSG(stats.elements[VATOM_FAMILY_VISA], ran, "%s", what);
}

/* One check_add_lanes() call: @want is the set of lanes expected to run. */
struct lanes_case {
	const char *what;
	u8 exec;
	u32 emask, pred, flags, want;
};

static void check_lanes_cases(const struct lanes_case *c, u32 count)
{
	u32 i;

	for (i = 0; i < count; i++)
		check_add_lanes(c[i].exec, c[i].emask, c[i].pred, c[i].flags,
				c[i].want, c[i].what);
}

static void test_exec_sizes(void)
{
	static const struct lanes_case cases[] = {
		/* Sizes 1, 2, 4, 8, 16 with M1_NM: every lane. */
		{ "exec 1", EXNM(0, 0), 0, 0, 0, 0x1 },
		{ "exec 2", EXNM(1, 0), 0, 0, 0, 0x3 },
		{ "exec 4", EXNM(2, 0), 0, 0, 0, 0xf },
		{ "exec 8", EXNM(3, 0), 0, 0, 0, 0xff },
		{ "exec 16", EXNM(4, 0), 0, 0, 0, 0xffff },
		/* And with M1 and a full mask. */
		{ "exec 16 M1", EX(4, 0), ~0u, 0, 0, 0xffff },
		{ "exec 1 M1 mask 0", EX(0, 0), 0, 0, 0, 0 },
	};

	check_lanes_cases(cases, COUNT(cases));
}

static void test_masks(void)
{
	static const struct lanes_case cases[] = {
		/* Hand cases: M<k> reads emask from bit 4 * (k - 1). */
		{ "M1 4", EX(2, 0), 0x0000000a, 0, 0, 0xa },
		{ "M2 4", EX(2, 1), 0x000000a0, 0, 0, 0xa },
		{ "M2 4 low bits", EX(2, 1), 0x0000000f, 0, 0, 0x0 },
		{ "M3 8", EX(3, 2), 0x0000ff00, 0, 0, 0xff },
		{ "M3 8 ends", EX(3, 2), 0x00008100, 0, 0, 0x81 },
		{ "M4 4", EX(2, 3), 0x00005000, 0, 0, 0x5 },
		{ "M5 16", EX(4, 4), 0x80010000, 0, 0, 0x8001 },
		{ "M6 8 first", EX(3, 5), 0x00100000, 0, 0, 0x01 },
		{ "M6 8 last", EX(3, 5), 0x08000000, 0, 0, 0x80 },
		{ "M7 4", EX(2, 6), 0x0f000000, 0, 0, 0xf },
		{ "M7 4 lane 3", EX(2, 6), 0x08000000, 0, 0, 0x8 },
		{ "M8 4", EX(2, 7), 0x80000000, 0, 0, 0x8 },
		{ "M8 4 none", EX(2, 7), 0x0fffffff, 0, 0, 0x0 },
		{ "M8 1", EX(0, 7), 0x10000000, 0, 0, 0x1 },
		/* _NM ignores the mask entirely. */
		{ "M8_NM 4", EXNM(2, 7), 0, 0, 0, 0xf },
		{ "M5_NM 16", EXNM(4, 4), 0, 0, 0, 0xffff },
		{ "M4_NM 8", EXNM(3, 3), 0x12345678, 0, 0, 0xff },
	};

	check_lanes_cases(cases, COUNT(cases));
}

/* Every mask control with every size it allows, against a bit-test model. */
static void test_masks_all(void)
{
	static const u32 masks[] = { 0x5a3c96e1, 0xffffffff, 0, 0x80000001 };
	char what[64];
	u32 c, m, e;

	for (c = 0; c <= 4; c++) {
		u32 n = 1u << c;

		for (m = 0; m < 16; m++) {
			u32 offset = 4 * (m & 7);

			if (offset + n > 32)
				continue;
			for (e = 0; e < COUNT(masks); e++) {
				u32 want = 0, i;

				for (i = 0; i < n; i++)
					if ((m & 8) ||
					    ((masks[e] >> (offset + i)) & 1))
						want |= 1u << i;
				snprintf(what, sizeof(what),
					 "size %u ctrl %u mask %x", n, m,
					 masks[e]);
				check_add_lanes((u8)(c | (m << 4)), masks[e], 0,
						0, want, what);
			}
		}
	}
}

static void test_predicate(void)
{
	static const struct lanes_case cases[] = {
		{ "pred 8", EXNM(3, 0), 0, 0xa5, PRED, 0xa5 },
		/* Predicate bits at and above n are not lanes. */
		{ "pred high bits", EXNM(3, 0), 0, 0xffffff00, PRED, 0 },
		{ "pred 16 all", EXNM(4, 0), 0, 0xffff, PRED, 0xffff },
		{ "pred 0", EXNM(2, 0), 0, 0, PRED, 0 },
		/* Mask and predicate: lanes 0, 1 by M2's window, 1 by pred. */
		{ "M2 and pred", EX(2, 1), 0x30, 0x6, PRED, 0x2 },
		/* The predicate is not shifted by the mask control. */
		{ "M8 and pred", EX(2, 7), 0xf0000000, 0x1, PRED, 0x1 },
	};

	check_lanes_cases(cases, COUNT(cases));
}

/* ------------------------------------------------------------------------ */
/* Out of bounds, null Dst                                                   */
/* ------------------------------------------------------------------------ */

/*
 * Runs @k on a @size-byte surface at the start of mem, all of mem filled
 * with 0x77 first; @before gets that image, to show what was not written.
 */
static void run_filled(const struct pk *k, u64 size, u8 *before)
{
	setup(size);
	memset(mem, 0x77, sizeof(mem));
	memcpy(before, mem, sizeof(mem));
	run1(k, 32);
}

static void test_oob(void)
{
	/* A 64-byte surface inside a bigger allocation filled with 0x77. */
	static const u32 a32[8] = { 60, 64, 0xfffffffc, 0, 4, 1024, 56, 68 };
	static const u32 a16[8] = { 62, 64, 0xfffffffe, 0, 66, 2, 60, 60 };
	static const u32 a64[4] = { 56, 64, 0xfffffff8, 0 };
	/* Out of bounds lanes read 0; in bounds ones the old value. */
	static const u32 r32[8] = {
		0x77777777, 0, 0, 0x77777777, 0x77777777, 0, 0x77777777, 0,
	};
	static const u32 r16[8] = {
		0x7777, 0, 0, 0x7777, 0, 0x7777,
		0x7777, 0x7778,		/* 60 twice: the second sees +1 */
	};
	static const u32 zero[8];
	u32 s0[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
	u64 s64[4] = { 1, 1, 1, 1 };
	u8 before[sizeof(mem)];
	struct pk k = {
		.opcode = DWORD, .op = OP(ADD), .exec = EXNM(3, 0),
		.surface = SLOT_BUF, .type = TY(UD),
		.operands = OPND(ADDR) | OPND(SRC0) | OPND(DST),
		.addr = a32, .src0 = s0,
	};

	run_filled(&k, 64, before);
	/* In bounds: 60 (ends at 64), 0, 4, 56; the rest write nothing. */
	VT_EXPECT_EQ(rd32(mem, 60), 0x77777778);
	VT_EXPECT_EQ(rd32(mem, 0), 0x77777778);
	VT_EXPECT_EQ(rd32(mem, 4), 0x77777778);
	VT_EXPECT_EQ(rd32(mem, 56), 0x77777778);
	expect_res32(r32, 8, "32-bit");
	VT_EXPECT(!memcmp(mem + 64, before + 64, sizeof(mem) - 64));
	VT_EXPECT(!memcmp(mem + 8, before + 8, 48));
	VT_EXPECT_EQ(stats.elements[VATOM_FAMILY_VISA], 8);

	/* .16: 62 is the last in-bounds word, 2 and 60 hit the same dword. */
	k.op = OP(ADD) | OP16;
	k.addr = a16;
	run_filled(&k, 64, before);
	VT_EXPECT_EQ(rd32(mem, 60), 0x77787779);	/* +1 twice, +1 at 62 */
	VT_EXPECT_EQ(rd32(mem, 0), 0x77787778);
	expect_res32(r16, 8, ".16");
	VT_EXPECT(!memcmp(mem + 64, before + 64, sizeof(mem) - 64));
	VT_EXPECT(!memcmp(mem + 4, before + 4, 56));

	/* 64-bit: 56 is the last in-bounds qword. */
	k.op = OP(ADD);
	k.type = TY(UQ);
	k.exec = EXNM(2, 0);
	k.addr = a64;
	k.src0 = s64;
	run_filled(&k, 64, before);
	VT_EXPECT_EQ(rd64(mem, 56), 0x7777777777777778);
	VT_EXPECT_EQ(rd64(mem, 0), 0x7777777777777778);
	VT_EXPECT_EQ(rd64(res, 0), 0x7777777777777777);
	VT_EXPECT_EQ(rd64(res, 8), 0);
	VT_EXPECT_EQ(rd64(res, 16), 0);
	VT_EXPECT_EQ(rd64(res, 24), 0x7777777777777777);
	VT_EXPECT(!memcmp(mem + 64, before + 64, sizeof(mem) - 64));
	VT_EXPECT(!memcmp(mem + 8, before + 8, 48));

	/* An empty surface: every access is out of bounds. */
	k.type = TY(UD);
	k.exec = EXNM(3, 0);
	k.op = OP(XCHG);
	k.addr = a32;
	k.src0 = s0;
	run_filled(&k, 0, before);
	expect_res32(zero, 8, "empty surface");
	VT_EXPECT(!memcmp(mem, before, sizeof(mem)));
}

static void test_null_dst(void)
{
	u32 addr[4] = { 0, 4, 8, 12 }, s0[4] = { 1, 2, 3, 4 }, i;
	u64 s64[4] = { 5, 6, 7, 8 };
	struct pk k = {
		.opcode = DWORD, .op = OP(ADD), .exec = EXNM(2, 0),
		.surface = SLOT_BUF, .type = TY(UD),
		.operands = OPND(ADDR) | OPND(SRC0), .addr = addr, .src0 = s0,
	};

	setup(64);
	run1(&k, 0);
	for (i = 0; i < 4; i++)
		VT_EXPECT_EQ(rd32(mem, 4 * i), i + 1);
	VT_EXPECT_EQ(rd32(res, 0), FILL);

	k.op = OP(INC) | OP16;
	k.operands = OPND(ADDR);
	setup(64);
	run1(&k, 0);
	VT_EXPECT_EQ(rd32(mem, 0), 1);
	VT_EXPECT_EQ(rd32(mem, 12), 1);
	VT_EXPECT_EQ(rd32(res, 0), FILL);

	k.op = OP(ADD);
	k.type = TY(UQ);
	k.operands = OPND(ADDR) | OPND(SRC0);
	k.src0 = s64;
	addr[1] = 8;
	addr[2] = 16;
	addr[3] = 24;
	setup(64);
	run1(&k, 0);
	for (i = 0; i < 4; i++)
		VT_EXPECT_EQ(rd64(mem, 8 * i), i + 5);
	VT_EXPECT_EQ(rd32(res, 0), FILL);
}

/*
 * Four lanes of @op on the dword at 0, which held @old: the lanes run in
 * ascending order, so each returns what the lane before it left.
 */
struct same_addr_case {
	const char *what;
	u8 op;
	u32 s0[4], s1[4];
	u32 old, new, ret[4];
};

static void test_same_address(void)
{
	static const struct same_addr_case cases[] = {
		{ "ADD", OP(ADD), { 5, 7, 9, 11 }, { 0 },
		  100, 100 + 5 + 7 + 9 + 11, { 100, 105, 112, 121 } },
		/* A chain: 1 -> 2 -> 3, the last lane's compare fails. */
		{ "CMPXCHG chain", OP(CMPXCHG), { 2, 3, 9, 4 }, { 1, 2, 2, 3 },
		  1, 4, { 1, 2, 3, 3 } },
	};
	static const u32 addr[4] = { 0, 0, 0, 0 };
	u32 i;

	for (i = 0; i < COUNT(cases); i++) {
		const struct same_addr_case *c = &cases[i];
		struct pk k = {
			.opcode = DWORD, .op = c->op, .exec = EXNM(2, 0),
			.surface = SLOT_BUF, .type = TY(UD),
			.operands = OPND(ADDR) | OPND(DST) | srcs_of(c->op),
			.addr = addr, .src0 = c->s0, .src1 = c->s1,
		};

		setup(64);
		wr32(mem, 0, c->old);
		run1(&k, 16);
		VT_EXPECT_EQ_MSG(rd32(mem, 0), c->new, "%s", c->what);
		expect_res32(c->ret, 4, c->what);
	}
}

/* ------------------------------------------------------------------------ */
/* ADDC                                                                      */
/* ------------------------------------------------------------------------ */

/* src0, src1, sum, carry: written from "carry will be either 0 or 1". */
static const u32 addc_tab[][4] = {
	{ 1, 2, 3, 0 },
	{ 0xffffffff, 1, 0, 1 },
	{ 0x80000000, 0x80000000, 0, 1 },
	{ 0xffffffff, 0xffffffff, 0xfffffffe, 1 },
	{ 0, 0, 0, 0 },
	{ 0x7fffffff, 1, 0x80000000, 0 },
	{ 0xfffffffe, 1, 0xffffffff, 0 },
	{ 0x80000001, 0x7fffffff, 0, 1 },
};

static void test_addc(void)
{
	u32 s0[32], s1[32], i, c;
	struct pk k = {
		.opcode = ADDC, .exec = EX(5, 0), .type = TY(UD),
		.operands = OPND(SRC0) | OPND(SRC1) | OPND(DST),
		.emask = ~0u, .src0 = s0, .src1 = s1,
	};

	/* 32 lanes, cycling through the table. */
	for (i = 0; i < 32; i++) {
		s0[i] = addc_tab[i % 8][0];
		s1[i] = addc_tab[i % 8][1];
	}
	setup(64);
	run1(&k, 256);
	for (i = 0; i < 32; i++) {
		VT_EXPECT_EQ_MSG(rd32(res, 4 * i), addc_tab[i % 8][2],
				 "lane %u", i);
		VT_EXPECT_EQ_MSG(rd32(res, 128 + 4 * i), addc_tab[i % 8][3],
				 "lane %u", i);
	}
	VT_EXPECT_EQ(rd32(res, 256), FILL);
	VT_EXPECT_EQ(stats.elements[VATOM_FAMILY_VISA], 32);

	/* Every size: the carry region follows the dst region rounded to 8. */
	for (c = 0; c <= 5; c++) {
		u32 n = 1u << c, half = (u32)vt_align8(4 * n);
		char what[32];

		snprintf(what, sizeof(what), "exec %u", n);
		k.exec = EXNM(c, 0);
		setup(64);
		run1(&k, 2 * half);
		for (i = 0; i < n; i++) {
			VT_EXPECT_EQ_MSG(rd32(res, 4 * i), addc_tab[i % 8][2],
					 "%s lane %u", what, i);
			VT_EXPECT_EQ_MSG(rd32(res, half + 4 * i),
					 addc_tab[i % 8][3], "%s lane %u",
					 what, i);
		}
		if (n == 1) {	/* the padding of each region is not written */
			VT_EXPECT_EQ_MSG(rd32(res, 4), FILL, "%s", what);
			VT_EXPECT_EQ_MSG(rd32(res, 12), FILL, "%s", what);
		}
		VT_EXPECT_EQ_MSG(rd32(res, 2 * half), FILL, "%s", what);
	}
	/* ADDC touches no surface. */
	for (i = 0; i < sizeof(mem); i++)
		if (mem[i])
			break;
	VT_EXPECT_EQ(i, sizeof(mem));
}

/*
 * Four ADDC lanes: the sums in res words 0..3, the carries in 4..7; lanes
 * that do not run keep FILL in both.
 */
struct addc_case {
	const char *what;
	u8 exec;
	u32 emask, pred, flags, operands;
	const u32 *src0, *src1;
	u32 res[8];
	u32 lanes;
};

static const u32 addc_imm0 = 0xffffffff, addc_imm1 = 0x80000000;
static const u32 addc_src0[4] = { 0x80000000, 0x7fffffff, 1, 0 };
static const u32 addc_src1[4] = { 0, 1, 2, 0xffffffff };

static const struct addc_case addc_cases[] = {
	{ "0xffffffff + {0, 1, 2, 0xffffffff}", EXNM(2, 0), 0, 0, 0,
	  OPND(SRC0_IMM) | OPND(SRC1) | OPND(DST), &addc_imm0, addc_src1,
	  { 0xffffffff, 0, 1, 0xfffffffe, 0, 1, 1, 1 }, 4 },
	{ "{0x80000000, 0x7fffffff, 1, 0} + 0x80000000", EXNM(2, 0), 0, 0, 0,
	  OPND(SRC0) | OPND(SRC1_IMM) | OPND(DST), addc_src0, &addc_imm1,
	  { 0, 0xffffffff, 0x80000001, 0x80000000, 1, 0, 0, 0 }, 4 },
	/* 0xffffffff + 0x80000000 = 0x7fffffff carry 1 in every lane. */
	{ "both immediate", EXNM(2, 0), 0, 0, 0,
	  OPND(SRC0_IMM) | OPND(SRC1_IMM) | OPND(DST), &addc_imm0, &addc_imm1,
	  { 0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff, 1, 1, 1, 1 }, 4 },
	/* M2 window, mask 0x50: lanes 0 and 2. */
	{ "M2 mask 0x50", EX(2, 1), 0x50, 0, 0,
	  OPND(SRC0_IMM) | OPND(SRC1_IMM) | OPND(DST), &addc_imm0, &addc_imm1,
	  { 0x7fffffff, FILL, 0x7fffffff, FILL, 1, FILL, 1, FILL }, 2 },
	/* _NM ignores the mask; the predicate leaves lane 3 only. */
	{ "predicated lane 3", EXNM(2, 0), 0x50, 0x8, PRED,
	  OPND(SRC0_IMM) | OPND(SRC1_IMM) | OPND(DST), &addc_imm0, &addc_imm1,
	  { FILL, FILL, FILL, 0x7fffffff, FILL, FILL, FILL, 1 }, 1 },
};

static void test_addc_imm_masks(void)
{
	u32 i;

	for (i = 0; i < COUNT(addc_cases); i++) {
		const struct addc_case *c = &addc_cases[i];
		struct pk k = {
			.opcode = ADDC, .exec = c->exec, .type = TY(UD),
			.operands = c->operands, .emask = c->emask,
			.pred = c->pred, .flags = c->flags,
			.src0 = c->src0, .src1 = c->src1,
		};

		setup(64);
		run1(&k, 32);
		expect_res32(c->res, 8, c->what);
		VT_EXPECT_EQ_MSG(stats.elements[VATOM_FAMILY_VISA], c->lanes,
				 "%s", c->what);
	}
}

/* ------------------------------------------------------------------------ */
/* TYPED_ATOMIC addressing                                                   */
/* ------------------------------------------------------------------------ */

struct tlane {
	u32 u, v, r, lod;
	int off;	/* expected byte offset, -1 for out of bounds */
};

/*
 * ADD (lane i adds 0x100 * (i + 1)) on a surface whose dword j holds
 * 0x1000 + j. Expected: in-bounds lanes update the texel at the hand-
 * computed offset and return its old value, out-of-bounds lanes return 0,
 * and every other byte of mem, inside the surface or past it, is unchanged.
 */
static void check_typed(const char *what, u32 opnds, const struct tlane *l)
{
	u32 u[8], v[8], r[8], lod[8], s0[8], i;
	u32 exp[sizeof(mem) / 4];
	struct pk k = {
		.opcode = TYPED, .op = OP(ADD), .exec = EXNM(3, 0),
		.surface = SLOT_TYPED, .type = TY(UD),
		.operands = OPND(ADDR) | OPND(SRC0) | OPND(DST) | opnds,
		.addr = u, .v = v, .r = r, .lod = lod, .src0 = s0,
	};

	for (i = 0; i < sizeof(mem) / 4; i++) {
		wr32(mem, 4 * i, 0x1000 + i);
		exp[i] = 0x1000 + i;
	}
	for (i = 0; i < 8; i++) {
		u[i] = l[i].u;
		v[i] = l[i].v;
		r[i] = l[i].r;
		lod[i] = l[i].lod;
		s0[i] = 0x100 * (i + 1);
		if (l[i].off >= 0)
			exp[l[i].off / 4] += s0[i];
	}
	run1(&k, 32);
	for (i = 0; i < 8; i++)
		VT_EXPECT_EQ_MSG(rd32(res, 4 * i),
				 l[i].off >= 0 ? 0x1000 + l[i].off / 4 : 0,
				 "%s lane %u", what, i);
	for (i = 0; i < sizeof(mem) / 4; i++)
		VT_EXPECT_EQ_MSG(rd32(mem, 4 * i), exp[i], "%s dword %u",
				 what, i);
	VT_EXPECT_EQ_MSG(stats.elements[VATOM_FAMILY_VISA], 8, "%s", what);
}

static void test_typed_1d(void)
{
	/* 8 wide, 4 levels: 8 texels at 0, 4 at 32, 2 at 48, 1 at 56. */
	static const struct tlane l[8] = {
		{ 7, 0, 0, 0, 28 },
		{ 8, 0, 0, 0, -1 },	/* u = width */
		{ 3, 0, 0, 1, 32 + 12 },
		{ 4, 0, 0, 1, -1 },	/* u = width at level 1 */
		{ 1, 0, 0, 2, 48 + 4 },
		{ 0, 0, 0, 3, 56 },
		{ 1, 0, 0, 3, -1 },
		{ 0, 0, 0, 4, -1 },	/* lod = levels */
	};

	setup(0);
	VT_EXPECT_EQ(setup_typed(DRM_VATOM_TYPED_1D, 8, 1, 1, 1, 4), 60);
	check_typed("1D", OPND(LOD), l);
}

static void test_typed_1d_array(void)
{
	/* 4 wide, 3 slices, 2 levels: 12 texels at 0, 2x3 at 48. */
	static const struct tlane l[8] = {
		{ 3, 2, 0, 0, 4 * (3 + 4 * 2) },
		{ 4, 0, 0, 0, -1 },	/* u = width */
		{ 0, 3, 0, 0, -1 },	/* slice = array size */
		{ 1, 2, 0, 1, 48 + 4 * (1 + 2 * 2) },
		{ 2, 0, 0, 1, -1 },	/* u = width at level 1 */
		{ 0, 0, 0, 2, -1 },	/* lod = levels */
		{ 0, 1, 0, 0, 16 },
		{ 1, 1, 0, 1, 48 + 4 * (1 + 2) },
	};

	setup(0);
	VT_EXPECT_EQ(setup_typed(DRM_VATOM_TYPED_1D_ARRAY, 4, 1, 1, 3, 2), 72);
	check_typed("1D_ARRAY", OPND(V) | OPND(LOD), l);
}

static void test_typed_2d(void)
{
	/* 4x4, 3 levels: 16 texels at 0, 2x2 at 64, 1x1 at 80. */
	static const struct tlane l[8] = {
		{ 3, 3, 0, 0, 60 },
		{ 4, 0, 0, 0, -1 },	/* u = width */
		{ 0, 4, 0, 0, -1 },	/* v = height */
		{ 1, 1, 0, 1, 64 + 4 * (1 + 2) },
		{ 0, 2, 0, 1, -1 },	/* v = height at level 1 */
		{ 2, 0, 0, 1, -1 },	/* u = width at level 1 */
		{ 0, 0, 0, 2, 80 },
		{ 0, 0, 0, 3, -1 },	/* lod = levels */
	};
	/* The same surface without LOD: level 0 everywhere. */
	static const struct tlane l0[8] = {
		{ 1, 1, 0, 0, 20 },
		{ 3, 3, 0, 0, 60 },
		{ 0, 4, 0, 0, -1 },
		{ 4, 3, 0, 0, -1 },
		{ 0, 0, 0, 0, 0 },
		{ 2, 1, 0, 0, 24 },
		{ ~0u, 0, 0, 0, -1 },
		{ 0, ~0u, 0, 0, -1 },
	};

	setup(0);
	VT_EXPECT_EQ(setup_typed(DRM_VATOM_TYPED_2D, 4, 4, 1, 1, 3), 84);
	check_typed("2D", OPND(V) | OPND(LOD), l);
	setup(0);
	setup_typed(DRM_VATOM_TYPED_2D, 4, 4, 1, 1, 3);
	check_typed("2D no LOD", OPND(V), l0);
}

static void test_typed_2d_array(void)
{
	/* 2x2, 2 slices, 2 levels: 8 texels at 0, 1x1x2 at 32. */
	static const struct tlane l[8] = {
		{ 1, 1, 1, 0, 4 * (1 + 2 * (1 + 2 * 1)) },
		{ 2, 0, 0, 0, -1 },	/* u = width */
		{ 0, 2, 0, 0, -1 },	/* v = height */
		{ 0, 0, 2, 0, -1 },	/* slice = array size */
		{ 0, 0, 1, 1, 32 + 4 },
		{ 1, 0, 0, 1, -1 },	/* u = width at level 1 */
		{ 0, 0, 0, 2, -1 },	/* lod = levels */
		{ 0, 1, 0, 0, 8 },
	};

	setup(0);
	VT_EXPECT_EQ(setup_typed(DRM_VATOM_TYPED_2D_ARRAY, 2, 2, 1, 2, 2), 40);
	check_typed("2D_ARRAY", OPND(V) | OPND(R) | OPND(LOD), l);
}

static void test_typed_3d(void)
{
	/* 4x2x4, 3 levels: 32 texels at 0, 2x1x2 at 128, 1x1x1 at 144. */
	static const struct tlane l[8] = {
		{ 3, 1, 3, 0, 4 * (3 + 4 * (1 + 2 * 3)) },
		{ 0, 0, 4, 0, -1 },	/* z = depth */
		{ 0, 2, 0, 0, -1 },	/* y = height */
		{ 1, 0, 1, 1, 128 + 4 * (1 + 2 * (0 + 1 * 1)) },
		{ 0, 0, 2, 1, -1 },	/* z = depth at level 1 */
		{ 0, 1, 0, 1, -1 },	/* y = height at level 1 */
		{ 0, 0, 0, 2, 144 },
		{ 0, 0, 1, 2, -1 },	/* z = depth at level 2 */
	};

	setup(0);
	VT_EXPECT_EQ(setup_typed(DRM_VATOM_TYPED_3D, 4, 2, 4, 1, 3), 148);
	check_typed("3D", OPND(V) | OPND(R) | OPND(LOD), l);
}

/* TYPED masks, predicate and .16 on the low half of a texel. */
static void test_typed_masks(void)
{
	u32 u[8] = { 0, 1, 2, 3, 4, 5, 6, 7 }, s0[8], i;
	struct pk k = {
		.opcode = TYPED, .op = OP(INC), .exec = EX(3, 6),
		.surface = SLOT_TYPED, .type = TY(UD),
		.operands = OPND(ADDR) | OPND(DST), .emask = 0x81000000,
		.addr = u, .src0 = s0,
	};

	/* M7: window at bit 24, lanes 0 and 7. */
	setup(0);
	setup_typed(DRM_VATOM_TYPED_1D, 8, 1, 1, 1, 1);
	run1(&k, 32);
	for (i = 0; i < 8; i++) {
		bool on = i == 0 || i == 7;

		VT_EXPECT_EQ_MSG(rd32(mem, 4 * i), on, "lane %u", i);
		VT_EXPECT_EQ_MSG(rd32(res, 4 * i), on ? 0 : FILL, "lane %u", i);
	}

	/* Predicated _NM: lanes 1, 2. */
	k.exec = EXNM(3, 0);
	k.flags = PRED;
	k.pred = 0x6;
	setup(0);
	setup_typed(DRM_VATOM_TYPED_1D, 8, 1, 1, 1, 1);
	run1(&k, 32);
	for (i = 0; i < 8; i++)
		VT_EXPECT_EQ_MSG(rd32(mem, 4 * i), i == 1 || i == 2,
				 "lane %u", i);

	/* .16 ADD: low half only, carry does not reach the high half. */
	k.op = OP(ADD) | OP16;
	k.operands = OPND(ADDR) | OPND(SRC0) | OPND(DST);
	k.pred = 0x1;
	s0[0] = 0xffff0001;
	setup(0);
	setup_typed(DRM_VATOM_TYPED_1D, 8, 1, 1, 1, 1);
	wr32(mem, 0, 0x1234ffff);
	run1(&k, 32);
	VT_EXPECT_EQ(rd32(mem, 0), 0x12340000);
	VT_EXPECT_EQ(rd32(res, 0), 0xffff);
	VT_EXPECT_EQ(rd32(res, 4), FILL);

	/* Null Dst. */
	k.operands = OPND(ADDR) | OPND(SRC0);
	setup(0);
	setup_typed(DRM_VATOM_TYPED_1D, 8, 1, 1, 1, 1);
	run1(&k, 0);
	VT_EXPECT_EQ(rd32(mem, 0), 1);
	VT_EXPECT_EQ(rd32(res, 0), FILL);
}

/* ------------------------------------------------------------------------ */
/* Capabilities                                                              */
/* ------------------------------------------------------------------------ */

/*
 * A stream of one DWORD_ATOMIC packet: validated and executed by the
 * family in one call each, which writes the same without statistics; and
 * vatom_visa_execute(), the packet alone. ADD UD SIMD8 on lanes 0..7 of
 * memory 100 + i with Src0 10 * i + 1, three times, by hand.
 */
static void test_one_packet_stream(void)
{
	static u64 stream[64];
	u32 offs[8], s0[8], i, pos = 0;
	struct pk k = {
		.opcode = DWORD, .op = OP(ADD), .exec = EX(3, 0),
		.surface = SLOT_BUF, .type = TY(UD),
		.operands = OPND(ADDR) | OPND(SRC0) | OPND(DST), .emask = 0xff,
		.addr = offs, .src0 = s0,
	};
	struct vatom_stream_error err;
	u64 need = 0;

	setup(256);
	for (i = 0; i < 8; i++) {
		offs[i] = 4 * i;
		s0[i] = 10 * i + 1;
		wr32(mem, 4 * i, 100 + i);
	}
	vt_visa_put((u8 *)stream, &pos, &k, NULL);
	VT_EXPECT_EQ(vatom_stream_validate(stream, pos, &bind, &need, &err), 0);
	VT_EXPECT_EQ(need, 32);
	vatom_stream_execute(stream, pos, &bind, res, NULL);
	for (i = 0; i < 8; i++) {
		VT_EXPECT_EQ_MSG(rd32(mem, 4 * i), 101 + 11 * i, "lane %u", i);
		VT_EXPECT_EQ_MSG(rd32(res, 4 * i), 100 + i, "lane %u", i);
	}
	VT_EXPECT_EQ(rd32(res, 32), FILL);
	VT_EXPECT_EQ(vatom_visa_execute((const void *)stream, &bind, res), 8);
	for (i = 0; i < 8; i++) {
		VT_EXPECT_EQ_MSG(rd32(mem, 4 * i), 102 + 21 * i, "lane %u", i);
		VT_EXPECT_EQ_MSG(rd32(res, 4 * i), 101 + 11 * i, "lane %u", i);
	}
	vatom_stream_execute(stream, pos, &bind, res, &stats);
	for (i = 0; i < 8; i++) {
		VT_EXPECT_EQ_MSG(rd32(mem, 4 * i), 103 + 31 * i, "lane %u", i);
		VT_EXPECT_EQ_MSG(rd32(res, 4 * i), 102 + 21 * i, "lane %u", i);
	}
	VT_EXPECT_EQ(stats.packets[VATOM_FAMILY_VISA], 1);
	VT_EXPECT_EQ(stats.elements[VATOM_FAMILY_VISA], 8);
}

static void test_ops_mask(void)
{
	/* Ops 0x00..0x0d, plus 0x10..0x12 where floats exist. */
	VT_EXPECT_EQ(vatom_visa_ops_mask(DRM_VATOM_VISA_FORM_DWORD32),
		     0x73fff);
	VT_EXPECT_EQ(vatom_visa_ops_mask(DRM_VATOM_VISA_FORM_DWORD16),
		     0x73fff);
	VT_EXPECT_EQ(vatom_visa_ops_mask(DRM_VATOM_VISA_FORM_DWORD64),
		     0x03fff);
	VT_EXPECT_EQ(vatom_visa_ops_mask(DRM_VATOM_VISA_FORM_TYPED32),
		     0x03fff);
	VT_EXPECT_EQ(vatom_visa_ops_mask(DRM_VATOM_VISA_FORM_TYPED16),
		     0x03fff);
	VT_EXPECT_EQ(vatom_visa_ops_mask(5), 0);
	VT_EXPECT_EQ(vatom_visa_ops_mask(~0u), 0);
	VT_EXPECT_EQ(vatom_engine_caps() &
		     (DRM_VATOM_CAP_VISA_DWORD_ATOMIC |
		      DRM_VATOM_CAP_VISA_TYPED_ATOMIC |
		      DRM_VATOM_CAP_VISA_ADDC),
		     DRM_VATOM_CAP_VISA_DWORD_ATOMIC |
		     DRM_VATOM_CAP_VISA_TYPED_ATOMIC |
		     DRM_VATOM_CAP_VISA_ADDC);
	/* Submission features are the driver's, not the engine's. */
	VT_EXPECT_EQ(vatom_engine_caps() &
		     (DRM_VATOM_CAP_SUBMIT_ASYNC | DRM_VATOM_CAP_RESULT_SURFACE |
		      DRM_VATOM_CAP_SYNCOBJ), 0);
}

int main(void)
{
	vt_run(test_dword32, "DWORD_ATOMIC 32-bit ops x edge values");
	vt_run(test_dword32_float, "DWORD_ATOMIC FMAX/FMIN/FCMPWR f32");
	vt_run(test_dword16, "DWORD_ATOMIC.16 ops x edge values, both halves");
	vt_run(test_dword16_float, "DWORD_ATOMIC.16 FMAX/FMIN/FCMPWR f16");
	vt_run(test_dword16_tail, "DWORD_ATOMIC.16 at the end of an odd-sized surface");
	vt_run(test_dword64, "DWORD_ATOMIC UQ/Q ops x edge values");
	vt_run(test_typed_ops, "TYPED_ATOMIC and .16 ops x edge values");
	vt_run(test_exec_sizes, "DWORD_ATOMIC every exec size");
	vt_run(test_masks, "M1..M8 and _NM by hand");
	vt_run(test_masks_all, "every mask control x size vs bit model");
	vt_run(test_predicate, "predication");
	vt_run(test_oob, "out of bounds: read 0, write dropped");
	vt_run(test_null_dst, "null Dst returns nothing, still writes");
	vt_run(test_same_address, "lanes on one address run in order");
	vt_run(test_addc, "ADDC sums and carries, every exec size");
	vt_run(test_addc_imm_masks, "ADDC immediates, masks, predicate");
	vt_run(test_typed_1d, "TYPED 1D: per-coordinate and per-LOD bounds");
	vt_run(test_typed_1d_array, "TYPED 1D_ARRAY bounds");
	vt_run(test_typed_2d, "TYPED 2D bounds, LOD absent");
	vt_run(test_typed_2d_array, "TYPED 2D_ARRAY bounds");
	vt_run(test_typed_3d, "TYPED 3D bounds");
	vt_run(test_typed_masks, "TYPED masks, predicate, .16, null Dst");
	vt_run(test_ops_mask, "ops masks and caps");
	vt_run(test_one_packet_stream, "a 1-packet stream without stats; one packet");
	return vt_done();
}
