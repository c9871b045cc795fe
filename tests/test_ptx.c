// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * PTX atom: every op x type x vector/packed form, the seed's inc/dec
 * formulas at their corners, cas success and failure, b128, f32 flush rules
 * per space and .noftz, every validation reason, and atomicity under
 * threads. Expected values are worked out by hand from the PTX ISA text
 * (float bit patterns included); none comes from the engine, except in the
 * differential tests of runs through the stream walker, whose reference is
 * the packet-by-packet path that the hand-checked tests cover.
 */
#include <pthread.h>
#include <stdlib.h>
#include "vt_test.h"
#include "vatom_engine.h"

#define SLOT		3
#define MEM_SIZE	4096

static u8 mem[MEM_SIZE] __attribute__((aligned(16)));
static struct vatom_surface_view buf = {
	.vaddr = mem, .size = MEM_SIZE, .kind = DRM_VATOM_SURFACE_BUFFER,
};
static struct vatom_surface_view typed = {
	.vaddr = mem, .size = MEM_SIZE, .kind = DRM_VATOM_SURFACE_TYPED,
};
static struct vatom_bindings bind;

#define OP(o)	DRM_VATOM_PTX_OP_##o
#define TY(t)	DRM_VATOM_PTX_TYPE_##t
#define GENERIC	DRM_VATOM_PTX_SPACE_GENERIC
#define GLOBAL	DRM_VATOM_PTX_SPACE_GLOBAL
#define SH_CTA	DRM_VATOM_PTX_SPACE_SHARED_CTA
#define SH_CLU	DRM_VATOM_PTX_SPACE_SHARED_CLUSTER
#define NOFTZ	DRM_VATOM_PTX_NOFTZ
#define HINT	DRM_VATOM_PTX_CACHE_HINT

static struct drm_vatom_ptx pk(u32 op, u32 type, u32 vec, u32 space,
			       u64 addr, u32 flags)
{
	struct drm_vatom_ptx p;

	memset(&p, 0, sizeof(p));
	p.hdr.type = DRM_VATOM_PACKET_PTX;
	p.hdr.size = sizeof(p);
	p.op = op;
	p.type = type;
	p.vec = vec;
	p.space = space;
	p.slot = SLOT;
	p.flags = flags;
	p.addr = addr;
	return p;
}

static u32 check(const struct drm_vatom_ptx *p)
{
	u64 rb = 0xdead;

	return vatom_ptx_validate(p, &bind, &rb);
}

/* Validate (must pass with @want_bytes) and execute; results in @res. */
static void run(const struct drm_vatom_ptx *p, u64 res[2], u32 want_bytes,
		u32 want_elems)
{
	u64 rb = 0xdead;
	u8 out[24];

	memset(out, 0xa5, sizeof(out));
	VT_EXPECT_EQ(vatom_ptx_validate(p, &bind, &rb), 0);
	VT_EXPECT_EQ(rb, want_bytes);
	VT_EXPECT_EQ(vatom_ptx_execute(p, &bind, out), want_elems);
	memcpy(res, out, 16);
	/* Nothing past the region is written. */
	VT_EXPECT_EQ(out[want_bytes], 0xa5);
	if (want_bytes == 8)
		res[1] = 0xa5a5a5a5a5a5a5a5ull;
}

static u32 rd32(u64 a) { u32 v; memcpy(&v, mem + a, 4); return v; }
static u64 rd64(u64 a) { u64 v; memcpy(&v, mem + a, 8); return v; }
static u16 rd16(u64 a) { u16 v; memcpy(&v, mem + a, 2); return v; }
static void wr32(u64 a, u32 v) { memcpy(mem + a, &v, 4); }
static void wr64(u64 a, u64 v) { memcpy(mem + a, &v, 8); }
static void wr16(u64 a, u16 v) { memcpy(mem + a, &v, 2); }

/* Scalar op on a 32-bit location: returns the old value, checks new. */
static void one32(u32 op, u32 type, u32 space, u32 flags, u32 r, u32 s,
		  u32 want_new, const char *what)
{
	struct drm_vatom_ptx p = pk(op, type, 0, space, 0x40, flags);
	u64 res[2];

	wr32(0x40, r);
	p.b[0] = s;
	run(&p, res, 8, 1);
	VT_EXPECT_EQ_MSG(res[0], r, "%s old", what);
	VT_EXPECT_EQ_MSG(rd32(0x40), want_new, "%s r=0x%x s=0x%x", what, r, s);
}

static void one64(u32 op, u32 type, u64 r, u64 s, u64 want_new,
		  const char *what)
{
	struct drm_vatom_ptx p = pk(op, type, 0, GLOBAL, 0x48, 0);
	u64 res[2];

	wr64(0x48, r);
	p.b[0] = s;
	run(&p, res, 8, 1);
	VT_EXPECT_EQ_MSG(res[0], r, "%s old", what);
	VT_EXPECT_EQ_MSG(rd64(0x48), want_new, "%s", what);
}

/* A 16-bit scalar at @addr inside a word whose other half must survive. */
static void one16(u32 op, u32 type, u32 flags, u64 addr, u16 r, u16 s,
		  u16 want_new, const char *what)
{
	struct drm_vatom_ptx p = pk(op, type, 0, GLOBAL, addr, flags);
	u64 other = addr ^ 2;
	u64 res[2];

	wr16(addr, r);
	wr16(other, 0x5a5a);
	p.b[0] = s;
	run(&p, res, 8, 1);
	VT_EXPECT_EQ_MSG(res[0], r, "%s old", what);
	VT_EXPECT_EQ_MSG(rd16(addr), want_new, "%s", what);
	VT_EXPECT_EQ_MSG(rd16(other), 0x5a5a, "%s neighbour", what);
}

static void test_bitwise(void)
{
	one32(OP(AND), TY(B32), GLOBAL, 0, 0xf0f0f0f0, 0xff00ff00, 0xf000f000, "and.b32");
	one32(OP(OR), TY(B32), SH_CTA, 0, 0xf0f0f0f0, 0xff00ff00, 0xfff0fff0, "or.b32");
	one32(OP(XOR), TY(B32), SH_CLU, 0, 0xf0f0f0f0, 0xff00ff00, 0x0ff00ff0, "xor.b32");
	one32(OP(AND), TY(B32), GLOBAL, 0, 0x12345678, 0x12345678, 0x12345678, "and same");
	one64(OP(AND), TY(B64), 0x0123456789abcdefull, 0xffff0000ffff0000ull,
	      0x0123000089ab0000ull, "and.b64");
	one64(OP(OR), TY(B64), 0x0123456789abcdefull, 0xffff0000ffff0000ull,
	      0xffff4567ffffcdefull, "or.b64");
	one64(OP(XOR), TY(B64), 0x0123456789abcdefull, 0xffff0000ffff0000ull,
	      0xfedc45677654cdefull, "xor.b64");
}

static void test_exch(void)
{
	one32(OP(EXCH), TY(B32), GLOBAL, 0, 0xdeadbeef, 0x12345678, 0x12345678, "exch.b32");
	one32(OP(EXCH), TY(B32), SH_CTA, 0, 7, 7, 7, "exch same");
	one64(OP(EXCH), TY(B64), 0xdeadbeefcafef00dull, 1, 1, "exch.b64");
}

static void test_cas(void)
{
	struct drm_vatom_ptx p;
	u64 res[2];

	/* b32: cas(r, s, t) = r == s ? t : r */
	p = pk(OP(CAS), TY(B32), 0, GLOBAL, 0x40, 0);
	wr32(0x40, 5);
	p.b[0] = 5;
	p.c[0] = 9;
	run(&p, res, 8, 1);
	VT_EXPECT_EQ(res[0], 5);
	VT_EXPECT_EQ(rd32(0x40), 9);
	p.c[0] = 7;			/* compare 5 against 9: fails */
	run(&p, res, 8, 1);
	VT_EXPECT_EQ(res[0], 9);
	VT_EXPECT_EQ(rd32(0x40), 9);

	/* b64 */
	p = pk(OP(CAS), TY(B64), 0, SH_CLU, 0x48, 0);
	wr64(0x48, 0x100000000ull);
	p.b[0] = 0x100000000ull;
	p.c[0] = ~0ull;
	run(&p, res, 8, 1);
	VT_EXPECT_EQ(res[0], 0x100000000ull);
	VT_EXPECT_EQ(rd64(0x48), ~0ull);
	p.b[0] = 0xffffffffull;		/* low half matches only */
	p.c[0] = 0;
	run(&p, res, 8, 1);
	VT_EXPECT_EQ(res[0], ~0ull);
	VT_EXPECT_EQ(rd64(0x48), ~0ull);

	/* b16 in either half of a word; the other half is untouched. */
	wr32(0x100, 0xaaaa1234);
	p = pk(OP(CAS), TY(B16), 0, GLOBAL, 0x102, 0);
	p.b[0] = 0xaaaa;
	p.c[0] = 0x5555;
	run(&p, res, 8, 1);
	VT_EXPECT_EQ(res[0], 0xaaaa);	/* bytes 2..7 of the region are 0 */
	VT_EXPECT_EQ(rd32(0x100), 0x55551234);
	p = pk(OP(CAS), TY(B16), 0, SH_CTA, 0x100, 0);
	p.b[0] = 0x1234;
	p.c[0] = 0xbeef;
	run(&p, res, 8, 1);
	VT_EXPECT_EQ(res[0], 0x1234);
	VT_EXPECT_EQ(rd32(0x100), 0x5555beef);
	p.b[0] = 0x1111;		/* fails */
	p.c[0] = 0x2222;
	run(&p, res, 8, 1);
	VT_EXPECT_EQ(res[0], 0xbeef);
	VT_EXPECT_EQ(rd32(0x100), 0x5555beef);
	/* b16 compare is 16 bits: the neighbour half does not take part. */
	p = pk(OP(CAS), TY(B16), 0, GLOBAL, 0x102, 0);
	p.b[0] = 0x5555;
	p.c[0] = 0xffff;
	run(&p, res, 8, 1);
	VT_EXPECT_EQ(res[0], 0x5555);
	VT_EXPECT_EQ(rd32(0x100), 0xffffbeef);
}

/* 16-bit elements in the last 2 bytes of a 6-byte surface (ASan-checked). */
static void test_b16_at_end(void)
{
	u8 *small = malloc(6);
	struct vatom_surface_view v = {
		.vaddr = small, .size = 6, .kind = DRM_VATOM_SURFACE_BUFFER,
	};
	struct drm_vatom_ptx p;
	u8 out[16];
	u64 rb;

	bind.slot[6] = &v;
	memcpy(small, "\x11\x22\x33\x44\x00\x3c", 6);	/* f16 1.0 at 4 */
	p = pk(OP(ADD), TY(F16), 0, GLOBAL, 4, NOFTZ);
	p.slot = 6;
	p.b[0] = 0x3c00;
	VT_EXPECT_EQ(vatom_ptx_validate(&p, &bind, &rb), 0);
	VT_EXPECT_EQ(vatom_ptx_execute(&p, &bind, out), 1);
	VT_EXPECT_EQ(out[0] | out[1] << 8, 0x3c00);
	VT_EXPECT_EQ(small[4] | small[5] << 8, 0x4000);
	p = pk(OP(CAS), TY(B16), 0, GLOBAL, 4, 0);
	p.slot = 6;
	p.b[0] = 0x4000;
	p.c[0] = 0xabcd;
	VT_EXPECT_EQ(vatom_ptx_validate(&p, &bind, &rb), 0);
	VT_EXPECT_EQ(vatom_ptx_execute(&p, &bind, out), 1);
	VT_EXPECT_EQ(out[0] | out[1] << 8, 0x4000);
	VT_EXPECT_EQ(small[4] | small[5] << 8, 0xabcd);
	VT_EXPECT_EQ(small[0] | small[3] << 8, 0x4411);
	p.addr = 6;
	VT_EXPECT_EQ(vatom_ptx_validate(&p, &bind, &rb), DRM_VATOM_ERR_BOUNDS);
	bind.slot[6] = NULL;
	free(small);
}

static void test_b128(void)
{
	struct drm_vatom_ptx p;
	u64 res[2];

	wr64(0x200, 0x1111111111111111ull);
	wr64(0x208, 0x2222222222222222ull);
	p = pk(OP(CAS), TY(B128), 0, SH_CTA, 0x200, 0);
	p.b[0] = 0x1111111111111111ull;
	p.b[1] = 0x2222222222222222ull;
	p.c[0] = 0x3333333333333333ull;
	p.c[1] = 0x4444444444444444ull;
	run(&p, res, 16, 1);
	VT_EXPECT_EQ(res[0], 0x1111111111111111ull);
	VT_EXPECT_EQ(res[1], 0x2222222222222222ull);
	VT_EXPECT_EQ(rd64(0x200), 0x3333333333333333ull);
	VT_EXPECT_EQ(rd64(0x208), 0x4444444444444444ull);

	/* Low halves match, high halves do not: no store. */
	p.b[0] = 0x3333333333333333ull;
	p.b[1] = 0x2222222222222222ull;
	p.c[0] = 0;
	p.c[1] = 0;
	run(&p, res, 16, 1);
	VT_EXPECT_EQ(res[0], 0x3333333333333333ull);
	VT_EXPECT_EQ(res[1], 0x4444444444444444ull);
	VT_EXPECT_EQ(rd64(0x200), 0x3333333333333333ull);
	VT_EXPECT_EQ(rd64(0x208), 0x4444444444444444ull);

	p = pk(OP(EXCH), TY(B128), 0, GLOBAL, 0x200, HINT);
	p.cache_policy = 0x1234;
	p.b[0] = 0x5555555555555555ull;
	p.b[1] = 0x6666666666666666ull;
	run(&p, res, 16, 1);
	VT_EXPECT_EQ(res[0], 0x3333333333333333ull);
	VT_EXPECT_EQ(res[1], 0x4444444444444444ull);
	VT_EXPECT_EQ(rd64(0x200), 0x5555555555555555ull);
	VT_EXPECT_EQ(rd64(0x208), 0x6666666666666666ull);
}

static void test_int_add_min_max(void)
{
	one32(OP(ADD), TY(U32), GLOBAL, 0, 0xffffffff, 2, 1, "add.u32 wraps");
	one32(OP(ADD), TY(S32), SH_CTA, 0, 0x7fffffff, 1, 0x80000000, "add.s32 wraps");
	one32(OP(ADD), TY(S32), GENERIC, 0, 5, 0xfffffffd, 2, "add.s32 5 + -3");
	one64(OP(ADD), TY(U64), ~0ull, 1, 0, "add.u64 wraps");
	one64(OP(ADD), TY(U64), 0xffffffffull, 1, 0x100000000ull, "add.u64 carry");

	one32(OP(MIN), TY(U32), GLOBAL, 0, 0x80000000, 1, 1, "min.u32");
	one32(OP(MAX), TY(U32), GLOBAL, 0, 0x80000000, 1, 0x80000000, "max.u32");
	one32(OP(MIN), TY(S32), GLOBAL, 0, 0x80000000, 1, 0x80000000, "min.s32");
	one32(OP(MAX), TY(S32), GLOBAL, 0, 0x80000000, 1, 1, "max.s32");
	one32(OP(MIN), TY(S32), SH_CTA, 0, 0xffffffff, 0xfffffffe, 0xfffffffe, "min.s32 -1 -2");
	one32(OP(MAX), TY(S32), SH_CTA, 0, 0xffffffff, 0xfffffffe, 0xffffffff, "max.s32 -1 -2");
	one64(OP(MIN), TY(U64), 0x8000000000000000ull, 1, 1, "min.u64");
	one64(OP(MAX), TY(U64), 0x8000000000000000ull, 1, 0x8000000000000000ull, "max.u64");
	one64(OP(MIN), TY(S64), 0x8000000000000000ull, 1, 0x8000000000000000ull, "min.s64");
	one64(OP(MAX), TY(S64), 0x8000000000000000ull, 1, 1, "max.s64");
	one64(OP(MIN), TY(S64), 0x100000000ull, 0xffffffffull, 0xffffffffull, "min.s64 high word");
}

static void test_inc_dec(void)
{
	/* inc(r, s) = r >= s ? 0 : r + 1 */
	static const u32 inc[][3] = {
		{ 5, 5, 0 }, { 4, 5, 5 }, { 6, 5, 0 }, { 0, 0, 0 }, { 0, 1, 1 },
		{ 0xffffffff, 0xffffffff, 0 }, { 7, 0xffffffff, 8 },
		{ 0xfffffffe, 0xffffffff, 0xffffffff }, { 0x80000000, 3, 0 },
	};
	/* dec(r, s) = (r == 0 || r > s) ? s : r - 1 */
	static const u32 dec[][3] = {
		{ 0, 5, 5 }, { 6, 5, 5 }, { 5, 5, 4 }, { 1, 5, 0 }, { 3, 0, 0 },
		{ 0, 0, 0 }, { 0xffffffff, 0xffffffff, 0xfffffffe },
		{ 0x80000000, 0x7fffffff, 0x7fffffff }, { 0, 0xffffffff, 0xffffffff },
	};
	unsigned int i;

	for (i = 0; i < sizeof(inc) / sizeof(inc[0]); i++)
		one32(OP(INC), TY(U32), GLOBAL, 0, inc[i][0], inc[i][1], inc[i][2], "inc");
	for (i = 0; i < sizeof(dec) / sizeof(dec[0]); i++)
		one32(OP(DEC), TY(U32), SH_CLU, 0, dec[i][0], dec[i][1], dec[i][2], "dec");
}

static void test_f32_add_flush(void)
{
	static const struct {
		u32 space, flags, ftz;
	} forms[] = {
		{ GENERIC, 0, 1 }, { GLOBAL, 0, 1 }, { SH_CTA, 0, 0 },
		{ SH_CLU, 0, 0 }, { GLOBAL, NOFTZ, 0 }, { GENERIC, NOFTZ, 0 },
		{ SH_CTA, NOFTZ, 0 },
	};
	unsigned int i;

	one32(OP(ADD), TY(F32), GLOBAL, 0, 0x3f800000, 0x40000000, 0x40400000, "1 + 2 = 3");
	/* 1 + 2^-24 is a tie between 1 and 1 + 2^-23: even is 1. */
	one32(OP(ADD), TY(F32), GLOBAL, 0, 0x3f800000, 0x33800000, 0x3f800000, "tie to even");
	/* (1 + 2^-23) + 2^-24: tie, even is 1 + 2^-22. */
	one32(OP(ADD), TY(F32), GLOBAL, 0, 0x3f800001, 0x33800000, 0x3f800002, "tie up to even");
	one32(OP(ADD), TY(F32), SH_CTA, 0, 0x7f7fffff, 0x7f7fffff, 0x7f800000, "overflow");

	for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		u32 sp = forms[i].space, fl = forms[i].flags, z = forms[i].ftz;

		/* Subnormal inputs: 2^-149 + 2^-149. */
		one32(OP(ADD), TY(F32), sp, fl, 0x00000001, 0x00000001,
		      z ? 0x00000000 : 0x00000002, "subnormal inputs");
		/* Normal inputs, subnormal result 2^-149. */
		one32(OP(ADD), TY(F32), sp, fl, 0x00800001, 0x80800000,
		      z ? 0x00000000 : 0x00000001, "subnormal result");
		/* Negative subnormal result flushes to -0. */
		one32(OP(ADD), TY(F32), sp, fl, 0x80800001, 0x00800000,
		      z ? 0x80000000 : 0x80000001, "negative subnormal result");
		/* 2^-126 + -(2^-149): subnormal b flushed leaves 2^-126. */
		one32(OP(ADD), TY(F32), sp, fl, 0x00800000, 0x80000001,
		      z ? 0x00800000 : 0x007fffff, "subnormal operand b");
	}
}

static void test_f64_add(void)
{
	one64(OP(ADD), TY(F64), 0x3ff0000000000000ull, 0x3fe0000000000000ull,
	      0x3ff8000000000000ull, "1 + 0.5");
	/* f64 add is IEEE on every space: subnormals survive on .global. */
	one64(OP(ADD), TY(F64), 1, 1, 2, "subnormal f64");
	one64(OP(ADD), TY(F64), 0x3ff0000000000000ull, 0xbff0000000000000ull, 0,
	      "1 + -1 = +0");
}

static void test_f16_bf16_scalar(void)
{
	one16(OP(ADD), TY(F16), NOFTZ, 0x300, 0x3c00, 0x4000, 0x4200, "f16 1 + 2");
	one16(OP(ADD), TY(F16), NOFTZ, 0x302, 0x0001, 0x0001, 0x0002, "f16 subnormals kept");
	one16(OP(ADD), TY(F16), NOFTZ, 0x300, 0x3c00, 0x1000, 0x3c00, "f16 tie to even");
	one16(OP(ADD), TY(F16), NOFTZ, 0x302, 0x3c01, 0x1000, 0x3c02, "f16 tie up");
	one16(OP(ADD), TY(F16), NOFTZ, 0x300, 0x7bff, 0x7bff, 0x7c00, "f16 overflow");
	one16(OP(ADD), TY(BF16), NOFTZ, 0x302, 0x3f80, 0x4000, 0x4040, "bf16 1 + 2");
	one16(OP(ADD), TY(BF16), NOFTZ, 0x300, 0x0001, 0x0001, 0x0002, "bf16 subnormals kept");
	/* bf16 1 + 2^-8 is a tie between 1 and 1 + 2^-7: even is 1. */
	one16(OP(ADD), TY(BF16), NOFTZ, 0x302, 0x3f80, 0x3b80, 0x3f80, "bf16 tie to even");

	/* Packed: each half on its own. */
	one32(OP(ADD), TY(F16X2), GLOBAL, NOFTZ, 0x40003c00, 0x3c004000, 0x42004200, "f16x2");
	one32(OP(ADD), TY(F16X2), SH_CTA, NOFTZ, 0x00013c00, 0x00010000, 0x00023c00,
	      "f16x2 subnormal half");
	one32(OP(ADD), TY(BF16X2), GLOBAL, NOFTZ, 0x3f804000, 0x40003f80, 0x40404040, "bf16x2");
	/* Carry out of the low half must not reach the high half. */
	one32(OP(ADD), TY(F16X2), GLOBAL, NOFTZ, 0x3c007bff, 0x00007bff, 0x3c007c00,
	      "f16x2 low overflow");
}

/* One vector packet over @n elements of @esize bytes at 0x400. */
static void vec_case(u32 op, u32 type, u32 vec, u32 flags, u32 esize,
		     const u64 *init, const u64 *b, const u64 *want,
		     const char *what)
{
	struct drm_vatom_ptx p = pk(op, type, vec, GLOBAL, 0x400, flags);
	u32 size = esize * vec, i;
	u64 res[2], wantres[2] = { 0, 0 };

	for (i = 0; i < vec; i++) {
		u32 bit = i * esize * 8;
		u64 m = esize == 8 ? ~0ull : (1ull << (esize * 8)) - 1;

		memcpy(mem + 0x400 + i * esize, &init[i], esize);
		p.b[bit / 64] |= (b[i] & m) << (bit % 64);
		wantres[bit / 64] |= (init[i] & m) << (bit % 64);
	}
	wr64(0x400 + size, 0x7777777777777777ull);
	run(&p, res, size < 8 ? 8 : size, vec);
	VT_EXPECT_EQ_MSG(res[0], wantres[0], "%s result lo", what);
	if (size > 8)
		VT_EXPECT_EQ_MSG(res[1], wantres[1], "%s result hi", what);
	for (i = 0; i < vec; i++) {
		u64 got = 0;

		memcpy(&got, mem + 0x400 + i * esize, esize);
		VT_EXPECT_EQ_MSG(got, want[i], "%s element %u", what, i);
	}
	VT_EXPECT_EQ_MSG(rd64(0x400 + size), 0x7777777777777777ull, "%s past the end", what);
}

static void test_vectors(void)
{
	/* v8.f16 add: 1.0 + {1, 2, -1, 2^-24, -0, inf, 0.5, +0} */
	static const u64 one8[8] = { 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00,
				     0x3c00, 0x3c00, 0x3c00 };
	static const u64 add_b[8] = { 0x3c00, 0x4000, 0xbc00, 0x0001, 0x8000,
				      0x7c00, 0x3800, 0x0000 };
	static const u64 add_w[8] = { 0x4000, 0x4200, 0x0000, 0x3c00, 0x3c00,
				      0x7c00, 0x3e00, 0x3c00 };
	/* minimumNumber / maximumNumber, -0 < +0, NaN ignored. */
	static const u64 mm_a[8] = { 0x3c00, 0xbc00, 0x0000, 0x8000, 0x7e00,
				     0x4000, 0x0001, 0xfc00 };
	static const u64 mm_b[8] = { 0x4000, 0xc000, 0x8000, 0x0000, 0x3c00,
				     0x7e00, 0x0002, 0x7c00 };
	static const u64 min_w[8] = { 0x3c00, 0xc000, 0x8000, 0x8000, 0x3c00,
				      0x4000, 0x0001, 0xfc00 };
	static const u64 max_w[8] = { 0x4000, 0xbc00, 0x0000, 0x0000, 0x3c00,
				      0x4000, 0x0002, 0x7c00 };
	/* bf16: 1, -1, 2, -2 */
	static const u64 bf_a[4] = { 0x3f80, 0xbf80, 0x4000, 0x0001 };
	static const u64 bf_b[4] = { 0x4000, 0xc000, 0x3f80, 0x0001 };
	static const u64 bf_min[4] = { 0x3f80, 0xc000, 0x3f80, 0x0001 };
	static const u64 bf_max[4] = { 0x4000, 0xbf80, 0x4000, 0x0001 };
	static const u64 bf_add[4] = { 0x4040, 0xc040, 0x4040, 0x0002 };
	/* f16x2 / bf16x2 pairs */
	static const u64 x2_a[4] = { 0x40003c00, 0xbc003c00, 0x3f804000, 0x00000001 };
	static const u64 x2_b[4] = { 0x3c004000, 0x3c00bc00, 0x40003f80, 0x80000002 };
	static const u64 f16x2_min[4] = { 0x3c003c00, 0xbc00bc00, 0x3f803f80, 0x80000001 };
	static const u64 bf16x2_max[4] = { 0x40004000, 0x3c003c00, 0x40004000, 0x00000002 };
	static const u64 f16x2_add[2] = { 0x42004200, 0x00000000 };
	/* f32 vectors are .global: inputs and results flush */
	static const u64 f_a[4] = { 0x00800001, 0x3f800000, 0x00000001, 0x40000000 };
	static const u64 f_b[4] = { 0x80800000, 0x3f800000, 0x00000001, 0xc0000000 };
	static const u64 f_ftz[4] = { 0x00000000, 0x40000000, 0x00000000, 0x00000000 };
	static const u64 two_nan[2] = { 0x7e00, 0x7c01 };
	static const u64 two_nan_b[2] = { 0x7c01, 0x7e00 };
	static const u64 nan_w[2] = { 0x7fff, 0x7fff };

	vec_case(OP(ADD), TY(F16), 8, NOFTZ, 2, one8, add_b, add_w, "v8.f16 add");
	vec_case(OP(ADD), TY(F16), 4, NOFTZ, 2, one8, add_b, add_w, "v4.f16 add");
	vec_case(OP(ADD), TY(F16), 2, NOFTZ, 2, one8, add_b, add_w, "v2.f16 add");
	vec_case(OP(MIN), TY(F16), 8, NOFTZ, 2, mm_a, mm_b, min_w, "v8.f16 min");
	vec_case(OP(MAX), TY(F16), 8, NOFTZ, 2, mm_a, mm_b, max_w, "v8.f16 max");
	vec_case(OP(MAX), TY(F16), 2, NOFTZ, 2, two_nan, two_nan_b, nan_w, "two NaNs");
	vec_case(OP(MIN), TY(BF16), 4, NOFTZ, 2, bf_a, bf_b, bf_min, "v4.bf16 min");
	vec_case(OP(MAX), TY(BF16), 4, NOFTZ, 2, bf_a, bf_b, bf_max, "v4.bf16 max");
	vec_case(OP(ADD), TY(BF16), 4, NOFTZ, 2, bf_a, bf_b, bf_add, "v4.bf16 add");
	vec_case(OP(ADD), TY(BF16), 2, NOFTZ, 2, bf_a, bf_b, bf_add, "v2.bf16 add");
	vec_case(OP(MIN), TY(F16X2), 4, NOFTZ, 4, x2_a, x2_b, f16x2_min, "v4.f16x2 min");
	vec_case(OP(MAX), TY(BF16X2), 4, NOFTZ, 4, x2_a, x2_b, bf16x2_max, "v4.bf16x2 max");
	vec_case(OP(ADD), TY(F16X2), 2, NOFTZ, 4, x2_a, x2_b, f16x2_add, "v2.f16x2 add");
	vec_case(OP(ADD), TY(F32), 4, 0, 4, f_a, f_b, f_ftz, "v4.f32 add ftz");
	vec_case(OP(ADD), TY(F32), 2, 0, 4, f_a, f_b, f_ftz, "v2.f32 add ftz");

}

static void test_bf16x2_add_packed(void)
{
	static const u64 a[2] = { 0x3f803f80, 0x40004000 };
	static const u64 b[2] = { 0x3f80bf80, 0x3f804000 };
	static const u64 w[2] = { 0x40000000, 0x40404080 };

	vec_case(OP(ADD), TY(BF16X2), 2, NOFTZ, 4, a, b, w, "v2.bf16x2 add");
}

static void test_sem_scope_all(void)
{
	u32 sem, scope;

	wr32(0x80, 0);
	for (sem = 0; sem < 4; sem++) {
		for (scope = 0; scope < 4; scope++) {
			struct drm_vatom_ptx p = pk(OP(ADD), TY(U32), 0, GLOBAL, 0x80, 0);
			u64 res[2];

			p.sem = sem;
			p.scope = scope;
			p.b[0] = 1;
			run(&p, res, 8, 1);
		}
	}
	VT_EXPECT_EQ(rd32(0x80), 16);
}

static void test_ops_mask(void)
{
	/* bit n = DRM_VATOM_PTX_OP n; and=1 or=2 xor=3 cas=4 exch=5 add=6
	 * inc=7 dec=8 min=9 max=10 */
	VT_EXPECT_EQ(vatom_ptx_ops_mask(0), 0);
	VT_EXPECT_EQ(vatom_ptx_ops_mask(TY(B16)), 0x10);
	VT_EXPECT_EQ(vatom_ptx_ops_mask(TY(B32)), 0x3e);
	VT_EXPECT_EQ(vatom_ptx_ops_mask(TY(B64)), 0x3e);
	VT_EXPECT_EQ(vatom_ptx_ops_mask(TY(B128)), 0x30);
	VT_EXPECT_EQ(vatom_ptx_ops_mask(TY(U32)), 0x7c0);
	VT_EXPECT_EQ(vatom_ptx_ops_mask(TY(U64)), 0x640);
	VT_EXPECT_EQ(vatom_ptx_ops_mask(TY(S32)), 0x640);
	VT_EXPECT_EQ(vatom_ptx_ops_mask(TY(S64)), 0x600);
	VT_EXPECT_EQ(vatom_ptx_ops_mask(TY(F16)), 0x640);
	VT_EXPECT_EQ(vatom_ptx_ops_mask(TY(BF16)), 0x640);
	VT_EXPECT_EQ(vatom_ptx_ops_mask(TY(F16X2)), 0x640);
	VT_EXPECT_EQ(vatom_ptx_ops_mask(TY(BF16X2)), 0x640);
	VT_EXPECT_EQ(vatom_ptx_ops_mask(TY(F32)), 0x40);
	VT_EXPECT_EQ(vatom_ptx_ops_mask(TY(F64)), 0x40);
	VT_EXPECT_EQ(vatom_ptx_ops_mask(15), 0);
	VT_EXPECT_EQ(vatom_ptx_ops_mask(0xffffffff), 0);
}

/*
 * The full op x type x vec table by hand: for each op and type, which vec
 * values are legal (bit n = .vn, bit 0 = scalar) with .global and the
 * .noftz the form needs. Anything absent is ERR_TYPE when the op x type is
 * in no form, else ERR_QUALIFIER.
 */
static void test_form_table(void)
{
	static const struct {
		u8 op, type;
		u16 vecs;	/* bit 0 scalar, bit 2/4/8 vector */
		u8 noftz;	/* 1 required, 2 optional */
	} ok[] = {
		{ 1, 2, 1, 0 }, { 1, 3, 1, 0 }, { 2, 2, 1, 0 }, { 2, 3, 1, 0 }, { 3, 2, 1, 0 }, { 3, 3, 1, 0 },
		{ 4, 1, 1, 0 }, { 4, 2, 1, 0 }, { 4, 3, 1, 0 }, { 4, 4, 1, 0 },
		{ 5, 2, 1, 0 }, { 5, 3, 1, 0 }, { 5, 4, 1, 0 },
		{ 6, 5, 1, 0 }, { 6, 7, 1, 0 }, { 6, 6, 1, 0 }, { 6, 13, 0x15, 2 }, { 6, 14, 1, 0 },
		{ 6, 9, 0x115, 1 }, { 6, 10, 0x115, 1 }, { 6, 11, 0x15, 1 }, { 6, 12, 0x15, 1 },
		{ 7, 5, 1, 0 }, { 8, 5, 1, 0 },
		{ 9, 5, 1, 0 }, { 9, 7, 1, 0 }, { 9, 6, 1, 0 }, { 9, 8, 1, 0 },
		{ 10, 5, 1, 0 }, { 10, 7, 1, 0 }, { 10, 6, 1, 0 }, { 10, 8, 1, 0 },
		{ 9, 9, 0x114, 1 }, { 9, 10, 0x114, 1 }, { 9, 11, 0x14, 1 }, { 9, 12, 0x14, 1 },
		{ 10, 9, 0x114, 1 }, { 10, 10, 0x114, 1 }, { 10, 11, 0x14, 1 }, { 10, 12, 0x14, 1 },
	};
	static const u8 vecs[] = { 0, 2, 4, 8 };
	u32 op, type, v, i, checked = 0;

	for (op = 1; op <= 10; op++) {
		for (type = 1; type <= 14; type++) {
			int k = -1;

			for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
				if (ok[i].op == op && ok[i].type == type)
					k = i;
			for (v = 0; v < 4; v++) {
				u32 vec = vecs[v];
				u32 flags = 0, want;
				struct drm_vatom_ptx p;

				if (k >= 0 && ok[k].noftz == 1)
					flags = NOFTZ;
				p = pk(op, type, vec, GLOBAL, 0x600, flags);
				if (op == OP(CAS))
					p.c[0] = 0;
				if (k < 0)
					want = DRM_VATOM_ERR_TYPE;
				else if (ok[k].vecs & (1u << vec))
					want = 0;
				else
					want = DRM_VATOM_ERR_QUALIFIER;
				VT_EXPECT_EQ_MSG(check(&p), want, "op %u type %u vec %u",
						 op, type, vec);
				checked++;
			}
		}
	}
	VT_EXPECT_EQ(checked, 560);
}

#define REJ(mod, want) do {						\
		p = pk(OP(ADD), TY(U32), 0, GLOBAL, 0x40, 0);		\
		mod;							\
		rb = 0xdead;						\
		VT_EXPECT_EQ_MSG(vatom_ptx_validate(&p, &bind, &rb), want, "%s", #mod); \
		if (want)						\
			VT_EXPECT_EQ_MSG(rb, 0, "%s", #mod);		\
	} while (0)

static void test_reject_fields(void)
{
	struct drm_vatom_ptx p;
	u64 rb;

	REJ(p.hdr.size = 64, DRM_VATOM_ERR_PACKET_SIZE);
	REJ(p.hdr.size = 80, DRM_VATOM_ERR_PACKET_SIZE);
	REJ(p.pad = 1, DRM_VATOM_ERR_RESERVED);
	REJ(p.pad2 = 0x80000000, DRM_VATOM_ERR_RESERVED);
	REJ(p.flags = 4, DRM_VATOM_ERR_RESERVED);
	REJ(p.flags = 0x80000000, DRM_VATOM_ERR_RESERVED);
	REJ(p.op = 0, DRM_VATOM_ERR_OP);
	REJ(p.op = 11, DRM_VATOM_ERR_OP);
	REJ(p.op = 255, DRM_VATOM_ERR_OP);
	REJ(p.type = 0, DRM_VATOM_ERR_TYPE);
	REJ(p.type = 15, DRM_VATOM_ERR_TYPE);
	REJ(p.type = TY(B32), DRM_VATOM_ERR_TYPE);		/* add.b32 */
	REJ(p.type = TY(S64), DRM_VATOM_ERR_TYPE);		/* add.s64 */
	REJ((p.op = OP(MIN), p.type = TY(F32)), DRM_VATOM_ERR_TYPE);
	REJ((p.op = OP(MIN), p.type = TY(F64)), DRM_VATOM_ERR_TYPE);
	REJ((p.op = OP(INC), p.type = TY(S32)), DRM_VATOM_ERR_TYPE);
	REJ((p.op = OP(INC), p.type = TY(U64)), DRM_VATOM_ERR_TYPE);
	REJ((p.op = OP(AND), p.type = TY(U32)), DRM_VATOM_ERR_TYPE);
	REJ((p.op = OP(EXCH), p.type = TY(B16)), DRM_VATOM_ERR_TYPE);
	REJ((p.op = OP(CAS), p.type = TY(F16), p.flags = NOFTZ), DRM_VATOM_ERR_TYPE);
	REJ(p.space = 4, DRM_VATOM_ERR_QUALIFIER);
	REJ(p.sem = 4, DRM_VATOM_ERR_QUALIFIER);
	REJ(p.scope = 4, DRM_VATOM_ERR_QUALIFIER);
	REJ(p.vec = 1, DRM_VATOM_ERR_QUALIFIER);
	REJ(p.vec = 3, DRM_VATOM_ERR_QUALIFIER);
	REJ(p.vec = 16, DRM_VATOM_ERR_QUALIFIER);
	REJ(p.vec = 2, DRM_VATOM_ERR_QUALIFIER);		/* v2.u32 */
	/* Vector forms are .global / generic only. */
	REJ((p.type = TY(F32), p.vec = 2, p.space = SH_CTA), DRM_VATOM_ERR_QUALIFIER);
	REJ((p.type = TY(F16), p.vec = 8, p.flags = NOFTZ, p.space = SH_CLU),
	    DRM_VATOM_ERR_QUALIFIER);
	REJ((p.type = TY(F32), p.vec = 8), DRM_VATOM_ERR_QUALIFIER);
	REJ((p.type = TY(F16X2), p.vec = 8, p.flags = NOFTZ), DRM_VATOM_ERR_QUALIFIER);
	/* Scalar min/max.f16 is not in the syntax. */
	REJ((p.op = OP(MIN), p.type = TY(F16), p.flags = NOFTZ), DRM_VATOM_ERR_QUALIFIER);
	REJ((p.op = OP(MAX), p.type = TY(BF16X2), p.flags = NOFTZ), DRM_VATOM_ERR_QUALIFIER);
	/* .noftz: required on f16 forms, optional on add.f32, else forbidden. */
	REJ(p.type = TY(F16), DRM_VATOM_ERR_QUALIFIER);
	REJ((p.type = TY(BF16X2), p.vec = 2), DRM_VATOM_ERR_QUALIFIER);
	REJ(p.flags = NOFTZ, DRM_VATOM_ERR_QUALIFIER);
	REJ((p.type = TY(F64), p.addr = 0x48, p.flags = NOFTZ), DRM_VATOM_ERR_QUALIFIER);
	REJ((p.op = OP(CAS), p.type = TY(B32), p.flags = NOFTZ), DRM_VATOM_ERR_QUALIFIER);
	REJ((p.type = TY(F32), p.flags = NOFTZ), 0);
	REJ((p.type = TY(F32), p.flags = NOFTZ, p.vec = 2), DRM_VATOM_ERR_QUALIFIER);
	REJ((p.type = TY(F32), p.flags = NOFTZ, p.vec = 4, p.addr = 0x40),
	    DRM_VATOM_ERR_QUALIFIER);
	REJ((p.type = TY(F32), p.flags = NOFTZ, p.space = SH_CTA), 0);
	/* Cache hint: .global / generic, not with cas; policy MBZ without. */
	REJ((p.flags = HINT, p.space = SH_CTA), DRM_VATOM_ERR_QUALIFIER);
	REJ((p.flags = HINT, p.space = SH_CLU), DRM_VATOM_ERR_QUALIFIER);
	REJ((p.flags = HINT, p.op = OP(CAS), p.type = TY(B32)), DRM_VATOM_ERR_QUALIFIER);
	REJ((p.flags = HINT, p.cache_policy = ~0ull), 0);
	REJ((p.flags = HINT, p.space = GENERIC), 0);
	REJ(p.cache_policy = 1, DRM_VATOM_ERR_RESERVED);
}

static void test_reject_operands(void)
{
	struct drm_vatom_ptx p;
	u64 rb;

	/* Operands: c only for cas; bits past the access size MBZ. */
	REJ(p.c[0] = 1, DRM_VATOM_ERR_RESERVED);
	REJ(p.c[1] = 1, DRM_VATOM_ERR_RESERVED);
	REJ(p.b[0] = 0x100000000ull, DRM_VATOM_ERR_RESERVED);
	REJ(p.b[1] = 1, DRM_VATOM_ERR_RESERVED);
	REJ((p.type = TY(U64), p.addr = 0x48, p.b[0] = ~0ull), 0);
	REJ((p.type = TY(U64), p.addr = 0x48, p.b[1] = 1), DRM_VATOM_ERR_RESERVED);
	REJ((p.op = OP(CAS), p.type = TY(B16), p.b[0] = 0xffff, p.c[0] = 0x10000),
	    DRM_VATOM_ERR_RESERVED);
	REJ((p.op = OP(CAS), p.type = TY(B16), p.b[0] = 0x10000), DRM_VATOM_ERR_RESERVED);
	REJ((p.op = OP(CAS), p.type = TY(B32), p.c[1] = 1), DRM_VATOM_ERR_RESERVED);
	REJ((p.op = OP(CAS), p.type = TY(B128), p.addr = 0x40, p.b[1] = ~0ull,
	     p.c[1] = ~0ull), 0);
	REJ((p.type = TY(F16), p.flags = NOFTZ, p.vec = 2, p.b[0] = 0x100000000ull),
	    DRM_VATOM_ERR_RESERVED);
	REJ((p.type = TY(F16), p.flags = NOFTZ, p.vec = 4, p.b[0] = ~0ull), 0);
	REJ((p.type = TY(F16), p.flags = NOFTZ, p.vec = 4, p.b[1] = 1), DRM_VATOM_ERR_RESERVED);
	REJ((p.type = TY(F16), p.flags = NOFTZ, p.vec = 8, p.b[1] = ~0ull), 0);
	/* Slot and surface kind. */
	REJ(p.slot = 4, DRM_VATOM_ERR_SLOT);
	REJ(p.slot = 255, DRM_VATOM_ERR_SLOT);
	REJ(p.slot = 5, DRM_VATOM_ERR_SURFACE_KIND);
	/* Alignment to the access size. */
	REJ(p.addr = 0x42, DRM_VATOM_ERR_ALIGN);
	REJ(p.addr = 0x41, DRM_VATOM_ERR_ALIGN);
	REJ((p.type = TY(U64), p.addr = 0x44), DRM_VATOM_ERR_ALIGN);
	REJ((p.op = OP(EXCH), p.type = TY(B128), p.addr = 0x48), DRM_VATOM_ERR_ALIGN);
	REJ((p.type = TY(F32), p.vec = 4, p.addr = 0x48), DRM_VATOM_ERR_ALIGN);
	REJ((p.type = TY(F32), p.vec = 2, p.addr = 0x48), 0);
	REJ((p.type = TY(F16), p.flags = NOFTZ, p.vec = 2, p.addr = 0x42),
	    DRM_VATOM_ERR_ALIGN);
	REJ((p.type = TY(F16), p.flags = NOFTZ, p.addr = 0x42), 0);
	REJ((p.type = TY(F16), p.flags = NOFTZ, p.addr = 0x41), DRM_VATOM_ERR_ALIGN);
	REJ((p.type = TY(F16), p.flags = NOFTZ, p.vec = 8, p.addr = 0x48),
	    DRM_VATOM_ERR_ALIGN);
	/* Bounds: PTX has no out-of-bounds rule. */
	REJ(p.addr = MEM_SIZE - 4, 0);
	REJ(p.addr = MEM_SIZE, DRM_VATOM_ERR_BOUNDS);
	REJ((p.type = TY(U64), p.addr = MEM_SIZE - 8), 0);
	REJ((p.type = TY(U64), p.addr = MEM_SIZE), DRM_VATOM_ERR_BOUNDS);
	REJ((p.op = OP(CAS), p.type = TY(B128), p.addr = MEM_SIZE - 16), 0);
	REJ((p.op = OP(CAS), p.type = TY(B128), p.addr = MEM_SIZE), DRM_VATOM_ERR_BOUNDS);
	REJ((p.type = TY(F16), p.flags = NOFTZ, p.vec = 8, p.addr = MEM_SIZE - 16), 0);
	REJ((p.type = TY(F16), p.flags = NOFTZ, p.vec = 8, p.addr = MEM_SIZE - 8),
	    DRM_VATOM_ERR_ALIGN);
	REJ(p.addr = 0xfffffffffffffff0ull, DRM_VATOM_ERR_BOUNDS);
	REJ(p.addr = 0xfffffffffffffffcull, DRM_VATOM_ERR_BOUNDS);
}

static void test_result_bytes(void)
{
	static const struct {
		u8 op, type, vec, flags;
		u32 bytes;
	} t[] = {
		{ OP(CAS), TY(B16), 0, 0, 8 }, { OP(AND), TY(B32), 0, 0, 8 },
		{ OP(AND), TY(B64), 0, 0, 8 }, { OP(CAS), TY(B128), 0, 0, 16 },
		{ OP(ADD), TY(F16), 0, NOFTZ, 8 }, { OP(ADD), TY(F16), 2, NOFTZ, 8 },
		{ OP(ADD), TY(F16), 4, NOFTZ, 8 }, { OP(ADD), TY(F16), 8, NOFTZ, 16 },
		{ OP(ADD), TY(F16X2), 2, NOFTZ, 8 }, { OP(ADD), TY(F16X2), 4, NOFTZ, 16 },
		{ OP(ADD), TY(F32), 2, 0, 8 }, { OP(ADD), TY(F32), 4, 0, 16 },
		{ OP(ADD), TY(F64), 0, 0, 8 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct drm_vatom_ptx p = pk(t[i].op, t[i].type, t[i].vec, GLOBAL,
					    0x40, t[i].flags);
		u64 rb = 0;

		VT_EXPECT_EQ_MSG(vatom_ptx_validate(&p, &bind, &rb), 0, "row %u", i);
		VT_EXPECT_EQ_MSG(rb, t[i].bytes, "row %u", i);
	}
}

/*
 * A stream of one packet: validated and executed by the family in one call
 * each, which counts it when there are statistics and writes the same
 * without. add.u32 of 5 on 7, then on 12, by hand.
 */
static void test_one_packet_stream(void)
{
	struct drm_vatom_ptx p = pk(OP(ADD), TY(U32), 0, GLOBAL, 0x40, 0);
	struct vatom_stream_error err;
	struct vatom_stats st;
	u64 need = 0, out[2];

	p.b[0] = 5;
	wr32(0x40, 7);
	VT_EXPECT_EQ(vatom_stream_validate(&p, sizeof(p), &bind, &need, &err), 0);
	VT_EXPECT_EQ(need, 8);
	memset(out, 0xa5, sizeof(out));
	vatom_stream_execute(&p, sizeof(p), &bind, (u8 *)out, NULL);
	VT_EXPECT_EQ(rd32(0x40), 12);
	VT_EXPECT_EQ(out[0], 7);
	VT_EXPECT_EQ(out[1], 0xa5a5a5a5a5a5a5a5ull);
	memset(&st, 0, sizeof(st));
	vatom_stream_execute(&p, sizeof(p), &bind, (u8 *)out, &st);
	VT_EXPECT_EQ(rd32(0x40), 17);
	VT_EXPECT_EQ(out[0], 12);
	VT_EXPECT_EQ(st.packets[VATOM_FAMILY_PTX], 1);
	VT_EXPECT_EQ(st.elements[VATOM_FAMILY_PTX], 1);
	VT_EXPECT_EQ(st.packets[VATOM_FAMILY_VISA] + st.packets[VATOM_FAMILY_NOC],
		     0);
}

/* --- runs through the stream walker vs packet by packet ----------------- */

/*
 * vatom_stream_validate() validates runs of same-head PTX packets with only
 * their address and operand checks, and vatom_stream_execute() runs them in
 * one loop. Both must agree with the packet-by-packet entry points, which
 * the tests above check by hand, on every stream: the reference here walks
 * the stream itself and calls vatom_ptx_validate() / vatom_ptx_execute() on
 * each packet alone.
 */

#define SLOT_SMALL	7	/* a 101-byte buffer: bounds at odd places */
#define SMALL_SIZE	101
#define MAX_PKTS	700

static struct vatom_surface_view small = {
	.vaddr = mem, .size = SMALL_SIZE, .kind = DRM_VATOM_SURFACE_BUFFER,
};

static u64 rng_state;

static u64 rnd(void)
{
	/* xorshift64*: deterministic, so a failure can be replayed. */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

static u32 rndn(u32 n)
{
	return (u32)(rnd() % n);
}

/* Valid heads: every access size, cas and not, hint and not, two surfaces. */
static const struct {
	u8 op, type, vec, space, slot;
	u32 flags;
} forms[] = {
	{ OP(ADD), TY(U32), 0, GLOBAL, SLOT, 0 },
	{ OP(CAS), TY(B32), 0, GLOBAL, SLOT, 0 },
	{ OP(CAS), TY(B16), 0, GENERIC, SLOT, 0 },
	{ OP(CAS), TY(B64), 0, SH_CTA, SLOT, 0 },
	{ OP(CAS), TY(B128), 0, GLOBAL, SLOT, 0 },
	{ OP(EXCH), TY(B128), 0, GLOBAL, SLOT, HINT },
	{ OP(ADD), TY(F16), 0, GLOBAL, SLOT, NOFTZ },
	{ OP(ADD), TY(F32), 4, GLOBAL, SLOT, 0 },
	{ OP(ADD), TY(F32), 2, GENERIC, SLOT, 0 },
	{ OP(ADD), TY(F32), 4, GLOBAL, SLOT, HINT },
	{ OP(ADD), TY(F16), 8, GLOBAL, SLOT, NOFTZ },
	{ OP(MAX), TY(F16X2), 2, GLOBAL, SLOT, NOFTZ },
	{ OP(ADD), TY(U64), 0, GLOBAL, SLOT, HINT },
	{ OP(ADD), TY(F32), 0, SH_CLU, SLOT, NOFTZ },
	{ OP(MIN), TY(S64), 0, GLOBAL, SLOT, 0 },
	{ OP(ADD), TY(U32), 0, GLOBAL, SLOT_SMALL, 0 },
	{ OP(ADD), TY(F32), 4, GLOBAL, SLOT_SMALL, 0 },
	{ OP(XOR), TY(B64), 0, GENERIC, SLOT_SMALL, HINT },
	{ OP(CAS), TY(B16), 0, GLOBAL, SLOT_SMALL, 0 },
};

#define NFORMS	(sizeof(forms) / sizeof(forms[0]))

/* Access size of a form, from the PTX ISA's element sizes (§2). */
static u32 form_size(u32 f)
{
	static const u8 esize[15] = {
		[TY(B16)] = 2, [TY(B32)] = 4, [TY(B64)] = 8, [TY(B128)] = 16,
		[TY(U32)] = 4, [TY(U64)] = 8, [TY(S32)] = 4, [TY(S64)] = 8,
		[TY(F16)] = 2, [TY(BF16)] = 2, [TY(F16X2)] = 4,
		[TY(BF16X2)] = 4, [TY(F32)] = 4, [TY(F64)] = 8,
	};

	return esize[forms[f].type] * (forms[f].vec ? forms[f].vec : 1);
}

static u64 form_surface(u32 f)
{
	return forms[f].slot == SLOT_SMALL ? SMALL_SIZE : MEM_SIZE;
}

/* Operand bits of an access of @size bytes. */
static void fill_operand(u64 v[2], u32 size)
{
	v[0] = rnd();
	v[1] = rnd();
	if (size < 16)
		v[1] = 0;
	if (size < 8)
		v[0] &= (1ull << (8 * size)) - 1;
}

/* A valid packet of form @f at a random aligned, in-bounds address. */
static struct drm_vatom_ptx valid_pkt(u32 f)
{
	struct drm_vatom_ptx p = pk(forms[f].op, forms[f].type, forms[f].vec,
				    forms[f].space, 0, forms[f].flags);
	u32 size = form_size(f);
	u64 slots = form_surface(f) / size;

	p.slot = forms[f].slot;
	/* Often the first or last place, otherwise anywhere. */
	switch (rndn(4)) {
	case 0:
		p.addr = 0;
		break;
	case 1:
		p.addr = (slots - 1) * size;
		break;
	default:
		p.addr = rndn(slots) * size;
		break;
	}
	fill_operand(p.b, size);
	if (p.op == OP(CAS))
		fill_operand(p.c, size);
	if (p.flags & HINT)
		p.cache_policy = rnd();
	return p;
}

enum fault {
	F_MISALIGN, F_OOB, F_OOB_MISALIGN, F_HUGE_ADDR, F_CACHE_POLICY,
	F_B_BIT, F_C_BIT, F_C_LO, F_SEM, F_SLOT, F_PAD, F_FLAGS, F_OP,
	F_VEC, F_FORM, F_HDR_TYPE, F_HDR_SIZE, F_SPACE, F_COUNT,
};

/* One fault (which may be no fault at all, e.g. a b bit inside the access). */
static void fault(struct drm_vatom_ptx *p, u32 f, u32 kind)
{
	u32 size = form_size(f);
	u64 surf = form_surface(f);

	switch (kind) {
	case F_MISALIGN:
		p->addr |= size > 1 ? 1 + rndn(size - 1) : 0;
		break;
	case F_OOB:
		/* The first aligned address past the end, or further. */
		p->addr = (surf + size - 1) / size * size + size * rndn(3);
		break;
	case F_OOB_MISALIGN:
		p->addr = surf - size + 1 + rndn(size);
		break;
	case F_HUGE_ADDR:
		p->addr = ~0ull - rndn(64) * size - (size - 1) * rndn(2);
		break;
	case F_CACHE_POLICY:
		p->cache_policy |= 1ull << rndn(64);
		break;
	case F_B_BIT:
		p->b[rndn(2)] |= 1ull << rndn(64);
		break;
	case F_C_BIT:
		p->c[rndn(2)] |= 1ull << rndn(64);
		break;
	case F_C_LO:
		p->c[0] |= 1;
		break;
	case F_SEM:	/* valid, but another head */
		p->sem = (p->sem + 1 + rndn(3)) & 3;
		p->scope = rndn(4);
		break;
	case F_SLOT:	/* unbound, typed, or the other buffer */
		p->slot = (const u8[]){ 4, 5, SLOT, SLOT_SMALL, 255 }[rndn(5)];
		break;
	case F_PAD:
		if (rndn(2))
			p->pad = 1 + rndn(255);
		else
			p->pad2 = 1u << rndn(32);
		break;
	case F_FLAGS:
		p->flags ^= (const u32[]){ NOFTZ, HINT, 4, 0x80000000 }[rndn(4)];
		break;
	case F_OP:
		p->op = rndn(12);
		break;
	case F_VEC:
		p->vec = (const u8[]){ 0, 1, 2, 4, 8, 16 }[rndn(6)];
		break;
	case F_FORM:	/* a valid packet of another form, at the same place */
		*p = valid_pkt(rndn(NFORMS));
		break;
	case F_HDR_TYPE:
		p->hdr.type = 77;
		break;
	case F_HDR_SIZE:
		p->hdr.size = rndn(2) ? 64 : 80;
		break;
	case F_SPACE:
		p->space = rndn(5);
		break;
	}
}

/*
 * The reference: the stream walker's framing (header within the stream,
 * size a multiple of 8 and at least 8), then vatom_ptx_validate() on each
 * packet alone.
 */
static u32 ref_validate(const u8 *s, u32 len, u32 *index, u64 *need)
{
	u32 pos = 0, i = 0, r;
	u64 rb;

	*need = 0;
	*index = 0;
	while (pos < len) {
		struct drm_vatom_packet h;

		*index = i;
		if (len - pos < sizeof(h))
			return DRM_VATOM_ERR_PACKET_SIZE;
		memcpy(&h, s + pos, sizeof(h));
		if (h.size < 8 || h.size % 8 || h.size > len - pos)
			return DRM_VATOM_ERR_PACKET_SIZE;
		if (h.type != DRM_VATOM_PACKET_PTX)
			return DRM_VATOM_ERR_PACKET_TYPE;
		r = vatom_ptx_validate((const void *)(s + pos), &bind, &rb);
		if (r)
			return r;
		*need += rb;
		pos += h.size;
		i++;
	}
	*index = 0;
	return 0;
}

static u64 vstream[MAX_PKTS * 9 + 16];
static u32 vdiff_streams, vdiff_errors;

/* The engine's walker against the reference on the first @len bytes. */
static void vdiff(u32 len, const char *what, u32 a, u32 b)
{
	struct vatom_stream_error err = { 0xbad, 0xbad };
	u32 want, windex;
	u64 need = 0xbad, wneed;
	int ret;

	want = ref_validate((const u8 *)vstream, len, &windex, &wneed);
	ret = vatom_stream_validate(vstream, len, &bind, &need, &err);
	VT_EXPECT_EQ_MSG(err.reason, want, "%s %u %u reason", what, a, b);
	VT_EXPECT_EQ_MSG(err.index, windex, "%s %u %u index", what, a, b);
	VT_EXPECT_EQ_MSG(ret, want ? -EINVAL : 0, "%s %u %u ret", what, a, b);
	VT_EXPECT_EQ_MSG(need, want ? 0 : wneed, "%s %u %u need", what, a, b);
	vdiff_streams++;
	vdiff_errors += !!want;
}

static void put_pkt(u32 i, const struct drm_vatom_ptx *p)
{
	memcpy((u8 *)vstream + i * sizeof(*p), p, sizeof(*p));
}

/* Every form x run length x faulty packet x fault, then random streams. */
static void test_validate_runs_diff(void)
{
	static const u32 lens[] = { 1, 2, 3, 5, 8, 17 };
	struct drm_vatom_ptx p;
	u32 f, l, at, kind, i, n, t, tot;

	rng_state = 0x9e3779b97f4a7c15ull;
	vdiff_streams = 0;
	vdiff_errors = 0;
	for (f = 0; f < NFORMS; f++) {
		for (l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
			n = lens[l];
			for (i = 0; i < n; i++)
				put_pkt(i, &(struct drm_vatom_ptx){ 0 });
			for (i = 0; i < n; i++) {
				p = valid_pkt(f);
				put_pkt(i, &p);
			}
			vdiff(n * 72, "valid run", f, n);
			/* Cut short: a partial last packet. */
			vdiff(n * 72 - 8 * (1 + rndn(8)), "cut", f, n);
			for (at = 0; at < n; at++) {
				for (kind = 0; kind < F_COUNT; kind++) {
					struct drm_vatom_ptx q;

					memcpy(&q, (u8 *)vstream + at * 72, 72);
					p = q;
					fault(&p, f, kind);
					put_pkt(at, &p);
					vdiff(n * 72, "fault", f, at * 100 + kind);
					/* A second fault later: the first wins. */
					if (at + 1 < n) {
						struct drm_vatom_ptx r2;

						memcpy(&r2, (u8 *)vstream + (n - 1) * 72, 72);
						p = r2;
						fault(&p, f, rndn(F_COUNT));
						put_pkt(n - 1, &p);
						vdiff(n * 72, "two faults", f,
						      at * 100 + kind);
						put_pkt(n - 1, &r2);
					}
					put_pkt(at, &q);
				}
			}
		}
	}

	/* Random streams: runs of random forms, rare faults anywhere. */
	for (t = 0; t < 20000; t++) {
		n = 1 + rndn(t % 10 ? 40 : MAX_PKTS);
		tot = 0;
		while (tot < n) {
			u32 run = 1 + rndn(t % 3 ? 12 : 300);

			f = rndn(NFORMS);
			for (i = 0; i < run && tot < n; i++, tot++) {
				p = valid_pkt(f);
				if (!rndn(n < 40 ? 30 : 3 * n))
					fault(&p, f, rndn(F_COUNT));
				put_pkt(tot, &p);
			}
		}
		vdiff(n * 72 - (rndn(20) ? 0 : 8 * rndn(9)), "random", t, n);
	}
	/* The faults must have produced both outcomes, often. */
	VT_EXPECT(vdiff_errors > vdiff_streams / 4);
	VT_EXPECT(vdiff_streams - vdiff_errors > vdiff_streams / 10);
}

/*
 * A run of @n packets @tmpl at 0x100 + 16 * i, each returning @per bytes,
 * with one change to packet @at.
 */
#define RUN_AT(n, at, mod, want_reason) do {				\
	struct vatom_stream_error err = { 0xbad, 0xbad };		\
	u64 need = 0xbad;						\
	u32 i_;								\
									\
	for (i_ = 0; i_ < (n); i_++) {					\
		p = tmpl;						\
		p.addr = 0x100 + 16 * i_;				\
		if (i_ == (at))						\
			mod;						\
		put_pkt(i_, &p);					\
	}								\
	VT_EXPECT_EQ_MSG(vatom_stream_validate(vstream, (n) * 72, &bind, \
					       &need, &err),		\
			 (want_reason) ? -EINVAL : 0, "%s", #mod);	\
	VT_EXPECT_EQ_MSG(err.reason, want_reason, "%s", #mod);		\
	VT_EXPECT_EQ_MSG(err.index, (want_reason) ? (at) : 0, "%s", #mod); \
	VT_EXPECT_EQ_MSG(need, (want_reason) ? 0 : per * (n), "%s", #mod); \
} while (0)

/* The same through the walker, with reasons worked out by hand. */
static void test_validate_runs_hand(void)
{
	struct drm_vatom_ptx p, tmpl;
	u32 per = 16;

	tmpl = pk(OP(ADD), TY(F32), 4, GLOBAL, 0, 0);
	tmpl.b[0] = 0x3f8000003f800000ull;

	RUN_AT(6, 0, (void)0, 0);
	RUN_AT(6, 3, p.addr += 4, DRM_VATOM_ERR_ALIGN);
	RUN_AT(6, 5, p.addr = MEM_SIZE - 16, 0);
	RUN_AT(6, 5, p.addr = MEM_SIZE, DRM_VATOM_ERR_BOUNDS);
	RUN_AT(6, 1, p.addr = 0xfffffffffffffff0ull, DRM_VATOM_ERR_BOUNDS);
	RUN_AT(6, 2, p.cache_policy = 1, DRM_VATOM_ERR_RESERVED);
	/* 16-byte access: every bit of b is the operand's. */
	RUN_AT(6, 2, p.b[1] = ~0ull, 0);
	RUN_AT(6, 4, p.c[1] = 0x8000000000000000ull, DRM_VATOM_ERR_RESERVED);
	RUN_AT(6, 1, p.c[0] = 1, DRM_VATOM_ERR_RESERVED);
	/* Reserved before alignment before bounds, as packet by packet. */
	RUN_AT(6, 4, (p.addr = MEM_SIZE + 4, p.c[0] = 1), DRM_VATOM_ERR_RESERVED);
	RUN_AT(6, 4, p.addr = MEM_SIZE + 4, DRM_VATOM_ERR_ALIGN);
	/* Another head: a new run, fully validated. */
	RUN_AT(6, 2, p.sem = 1, 0);
	RUN_AT(6, 2, p.slot = 4, DRM_VATOM_ERR_SLOT);
	RUN_AT(6, 2, p.slot = 5, DRM_VATOM_ERR_SURFACE_KIND);
	RUN_AT(6, 2, p.flags = NOFTZ, DRM_VATOM_ERR_QUALIFIER);
	RUN_AT(6, 3, p.pad = 1, DRM_VATOM_ERR_RESERVED);
	RUN_AT(6, 3, p.hdr.size = 64, DRM_VATOM_ERR_PACKET_SIZE);
	RUN_AT(6, 3, p.hdr.type = 9, DRM_VATOM_ERR_PACKET_TYPE);
	/* A new run on the 101-byte surface: 80 fits, 96 does not. */
	RUN_AT(6, 3, (p.slot = SLOT_SMALL, p.addr = 80), 0);
	RUN_AT(6, 3, (p.slot = SLOT_SMALL, p.addr = 96), DRM_VATOM_ERR_BOUNDS);

	/* add.u32: b past 4 bytes; c never. */
	tmpl = pk(OP(ADD), TY(U32), 0, GLOBAL, 0, 0);
	tmpl.b[0] = 0xffffffff;
	per = 8;
	RUN_AT(7, 0, (void)0, 0);
	RUN_AT(7, 4, p.b[0] = 1ull << 32, DRM_VATOM_ERR_RESERVED);
	RUN_AT(7, 4, p.b[1] = 2, DRM_VATOM_ERR_RESERVED);
	RUN_AT(7, 6, p.c[0] = 1ull << 40, DRM_VATOM_ERR_RESERVED);
	RUN_AT(7, 6, p.addr += 2, DRM_VATOM_ERR_ALIGN);
	/* cas.b16: b and c past 2 bytes; a cache policy needs the hint. */
	tmpl = pk(OP(CAS), TY(B16), 0, GLOBAL, 0, 0);
	tmpl.b[0] = 0xffff;
	tmpl.c[0] = 0x8000;
	RUN_AT(5, 0, (void)0, 0);
	RUN_AT(5, 1, p.c[0] = 0x10000, DRM_VATOM_ERR_RESERVED);
	RUN_AT(5, 2, p.b[0] = 0x10000, DRM_VATOM_ERR_RESERVED);
	RUN_AT(5, 3, p.c[1] = 1, DRM_VATOM_ERR_RESERVED);
	RUN_AT(5, 3, p.cache_policy = 1ull << 63, DRM_VATOM_ERR_RESERVED);
	RUN_AT(5, 4, p.addr += 1, DRM_VATOM_ERR_ALIGN);
	RUN_AT(5, 4, p.addr = MEM_SIZE - 2, 0);
	RUN_AT(5, 4, p.addr = MEM_SIZE, DRM_VATOM_ERR_BOUNDS);
	/* b128 cas: every bit of b and c is the operand's. */
	tmpl = pk(OP(CAS), TY(B128), 0, GLOBAL, 0, 0);
	per = 16;
	RUN_AT(5, 2, (p.b[1] = ~0ull, p.c[1] = ~0ull), 0);
	RUN_AT(5, 2, p.addr += 8, DRM_VATOM_ERR_ALIGN);
	/* exch.b64 with a hint: any policy; c is reserved. */
	tmpl = pk(OP(EXCH), TY(B64), 0, GLOBAL, 0, HINT);
	per = 8;
	RUN_AT(5, 2, p.cache_policy = ~0ull, 0);
	RUN_AT(5, 2, p.c[0] = 1, DRM_VATOM_ERR_RESERVED);
	RUN_AT(5, 2, p.b[1] = 1, DRM_VATOM_ERR_RESERVED);
}

/* Interesting f32 bit patterns: zeros, subnormals, NaNs, infinities, ties. */
static const u32 fvals[] = {
	0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x3fc00000,
	0x00800000, 0x80800000, 0x00800001, 0x80800001, 0x00000001,
	0x80000001, 0x007fffff, 0x807fffff, 0x7f7fffff, 0xff7fffff,
	0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001,
	0x7fc12345, 0x33800000, 0x3f800001, 0x4b000000, 0x34000000,
};

static u32 rnd_f32(void)
{
	return rndn(4) ? fvals[rndn(sizeof(fvals) / sizeof(fvals[0]))] :
			 (u32)rnd();
}

static u64 rnd_f32x2(void)
{
	return rnd_f32() | (u64)rnd_f32() << 32;
}

static u8 mem_b[MEM_SIZE] __attribute__((aligned(16)));
static u8 res_a[MAX_PKTS * 16 + 64], res_b[MAX_PKTS * 16 + 64];

static u32 rd32res(u32 off)
{
	u32 v;

	memcpy(&v, res_a + off, 4);
	return v;
}

/*
 * Runs of add.v2/.v4.f32 with various heads (spaces, sem, a cache hint),
 * broken by other forms, on a 256-byte window so that packets overlap:
 * the stream's memory and results against vatom_ptx_execute() one packet
 * at a time on a copy of the memory.
 */
static void test_execute_runs_diff(void)
{
	static const struct {
		u8 op, type, vec, space;
		u32 flags;
	} ex[] = {
		{ OP(ADD), TY(F32), 4, GLOBAL, 0 },
		{ OP(ADD), TY(F32), 4, GENERIC, 0 },
		{ OP(ADD), TY(F32), 2, GLOBAL, 0 },
		{ OP(ADD), TY(F32), 2, GENERIC, HINT },
		{ OP(ADD), TY(F32), 4, GLOBAL, HINT },
		{ OP(ADD), TY(F32), 0, GLOBAL, 0 },
		{ OP(ADD), TY(F32), 0, GLOBAL, NOFTZ },
		{ OP(ADD), TY(F32), 0, SH_CTA, 0 },
		{ OP(ADD), TY(U32), 0, GLOBAL, 0 },
		{ OP(ADD), TY(F16), 4, GLOBAL, NOFTZ },
	};
	struct vatom_surface_view vb = buf;
	struct vatom_bindings bb = bind;
	struct vatom_stream_error err;
	struct vatom_stats st;
	u32 t, n, tot, i, pos, bad_mem = 0, bad_res = 0;
	u64 need, elems, rb, off;

	vb.vaddr = mem_b;
	bb.slot[SLOT] = &vb;
	rng_state = 0x5deece66dull;
	for (t = 0; t < 3000; t++) {
		n = 1 + rndn(t % 8 ? 64 : MAX_PKTS);
		tot = 0;
		while (tot < n) {
			u32 run = 1 + rndn(t % 2 ? 8 : 400), e = rndn(10);

			/* Mostly the vector forms. */
			if (e >= 5 && rndn(2))
				e = rndn(5);
			for (i = 0; i < run && tot < n; i++, tot++) {
				struct drm_vatom_ptx p;
				u32 size = (ex[e].type == TY(F16) ? 2 : 4) *
					   (ex[e].vec ? ex[e].vec : 1);

				p = pk(ex[e].op, ex[e].type, ex[e].vec,
				       ex[e].space, rndn(256 / size) * size,
				       ex[e].flags);
				if (ex[e].flags & HINT)
					p.cache_policy = rnd();
				if (e < 5 && t % 5 == 0)	/* another head */
					p.sem = rndn(4);
				p.b[0] = rnd_f32x2();
				if (size == 16)
					p.b[1] = rnd_f32x2();
				else if (size == 4)
					p.b[0] &= 0xffffffff;
				put_pkt(tot, &p);
			}
		}
		for (i = 0; i < 256; i += 4) {
			u32 v = rnd_f32();

			memcpy(mem + i, &v, 4);
		}
		memcpy(mem_b, mem, MEM_SIZE);
		memset(res_a, 0xa5, sizeof(res_a));
		memset(res_b, 0xa5, sizeof(res_b));

		VT_EXPECT_EQ(vatom_stream_validate(vstream, n * 72, &bind, &need,
						   &err), 0);
		memset(&st, 0, sizeof(st));
		vatom_stream_execute(vstream, n * 72, &bind, res_a, &st);

		/* The reference: one packet at a time, on mem_b. */
		off = 0;
		elems = 0;
		for (i = 0, pos = 0; i < n; i++, pos += 72) {
			const struct drm_vatom_ptx *p = (const void *)
							((u8 *)vstream + pos);

			VT_EXPECT_EQ(vatom_ptx_validate(p, &bb, &rb), 0);
			elems += vatom_ptx_execute(p, &bb, res_b + off);
			off += rb;
		}
		VT_EXPECT_EQ_MSG(need, off, "stream %u", t);
		VT_EXPECT_EQ_MSG(st.packets[VATOM_FAMILY_PTX], n, "stream %u", t);
		VT_EXPECT_EQ_MSG(st.elements[VATOM_FAMILY_PTX], elems,
				 "stream %u", t);
		bad_mem += !!memcmp(mem, mem_b, MEM_SIZE);
		/* Past the results too: nothing written there. */
		bad_res += !!memcmp(res_a, res_b, sizeof(res_a));
	}
	VT_EXPECT_EQ(bad_mem, 0);
	VT_EXPECT_EQ(bad_res, 0);
}

/*
 * Three .v4.f32 adds on the same 16 bytes, then a .v2 run: old values and
 * flushes worked out by hand (vectors are .global: they flush).
 */
static void test_execute_runs_hand(void)
{
	static const u32 init[4] = { 0x3f800000, 0x00000001, 0x80800000,
				     0x7fc00000 };
	static const u32 b[3][4] = {
		/* 1 + 1; sub + sub -> +0; -min + min -> +0; NaN + 1 */
		{ 0x3f800000, 0x00000001, 0x00800000, 0x3f800000 },
		/* 2 - 1; +0 + -0 -> +0; 0 + (2^-126 + 2^-149); NaN */
		{ 0xbf800000, 0x80000000, 0x00800001, 0x3f800000 },
		/* 1 + 2^-126 rounds to 1; 0 + 0; 2^-149 flushes to +0 */
		{ 0x00800000, 0x00000000, 0x80800000, 0x00000000 },
	};
	static const u32 want_res[3][4] = {
		{ 0x3f800000, 0x00000001, 0x80800000, 0x7fc00000 },
		{ 0x40000000, 0x00000000, 0x00000000, 0x7fffffff },
		{ 0x3f800000, 0x00000000, 0x00800001, 0x7fffffff },
	};
	static const u32 want_mem[4] = { 0x3f800000, 0x00000000, 0x00000000,
					 0x7fffffff };
	struct vatom_stream_error err;
	struct vatom_stats st;
	struct drm_vatom_ptx p;
	u64 need;
	u32 i, j;

	memset(&st, 0, sizeof(st));

	for (i = 0; i < 3; i++) {
		p = pk(OP(ADD), TY(F32), 4, GLOBAL, 0x200, 0);
		p.b[0] = b[i][0] | (u64)b[i][1] << 32;
		p.b[1] = b[i][2] | (u64)b[i][3] << 32;
		put_pkt(i, &p);
	}
	/* Then .v2 twice at 0x210, which holds -0 and 2^-149. */
	for (i = 3; i < 5; i++) {
		p = pk(OP(ADD), TY(F32), 2, GLOBAL, 0x210, 0);
		/* -0 + -(2^-149) -> -0; 2^-149 + (2^-126 - 2^-149) -> +0 */
		p.b[0] = 0x007fffff80000001ull;
		if (i == 4)	/* -0 + 1 = 1; +0 + -(2^-126 + 2^-149) */
			p.b[0] = 0x808000013f800000ull;
		put_pkt(i, &p);
	}
	memcpy(mem + 0x200, init, sizeof(init));
	wr32(0x210, 0x80000000);
	wr32(0x214, 0x00000001);
	memset(res_a, 0xa5, sizeof(res_a));
	VT_EXPECT_EQ(vatom_stream_validate(vstream, 5 * 72, &bind, &need, &err),
		     0);
	VT_EXPECT_EQ(need, 3 * 16 + 2 * 8);
	vatom_stream_execute(vstream, 5 * 72, &bind, res_a, &st);
	for (i = 0; i < 3; i++)
		for (j = 0; j < 4; j++)
			VT_EXPECT_EQ_MSG(rd32res(16 * i + 4 * j), want_res[i][j],
					 "packet %u element %u", i, j);
	for (j = 0; j < 4; j++)
		VT_EXPECT_EQ_MSG(rd32(0x200 + 4 * j), want_mem[j], "element %u",
				 j);
	VT_EXPECT_EQ(rd32res(48), 0x80000000);
	VT_EXPECT_EQ(rd32res(52), 0x00000001);
	VT_EXPECT_EQ(rd32res(56), 0x80000000);
	VT_EXPECT_EQ(rd32res(60), 0x00000000);
	VT_EXPECT_EQ(rd32res(64), 0xa5a5a5a5);
	VT_EXPECT_EQ(rd32(0x210), 0x3f800000);
	VT_EXPECT_EQ(rd32(0x214), 0x80800001);
	VT_EXPECT_EQ(st.packets[VATOM_FAMILY_PTX], 5);
	VT_EXPECT_EQ(st.elements[VATOM_FAMILY_PTX], 3 * 4 + 2 * 2);
}

/* --- atomicity under threads ------------------------------------------- */

#define THREADS	4
#define ITERS	200000

struct worker {
	struct drm_vatom_ptx p;
	u32 iters;
};

static pthread_barrier_t start;

static void *work(void *arg)
{
	struct worker *w = arg;
	u8 out[16];
	u32 i;

	pthread_barrier_wait(&start);
	for (i = 0; i < w->iters; i++)
		vatom_ptx_execute(&w->p, &bind, out);
	return NULL;
}

static void test_threads(void)
{
	struct worker w[THREADS];
	u32 i;

	/* fetch_add path, CAS-loop path (inc with s = ~0 is +1), b64 add. */
	wr32(0x800, 0);
	wr32(0x804, 0);
	wr64(0x808, 0);
	for (i = 0; i < THREADS; i++) {
		w[i].iters = ITERS;
		w[i].p = pk(i & 1 ? OP(INC) : OP(ADD), TY(U32), 0, GLOBAL,
			    i & 1 ? 0x804 : 0x800, 0);
		w[i].p.b[0] = i & 1 ? 0xffffffff : 1;
	}
	vt_run_threads(work, w, sizeof(w[0]), THREADS, &start);
	VT_EXPECT_EQ(rd32(0x800), 2 * ITERS);
	VT_EXPECT_EQ(rd32(0x804), 2 * ITERS);

	/*
	 * 16-bit elements share a 32-bit word: two threads add 1.0 to the low
	 * half and two to the high half, 500 times each; 1000.0 is 0x63d0.
	 */
	wr32(0x900, 0);
	for (i = 0; i < THREADS; i++) {
		w[i].iters = 500; /* 1000.0 is exact in f16 */
		w[i].p = pk(OP(ADD), TY(F16), 0, GLOBAL, 0x900 + 2 * (i & 1), NOFTZ);
		w[i].p.b[0] = 0x3c00;
	}
	vt_run_threads(work, w, sizeof(w[0]), THREADS, &start);
	VT_EXPECT_EQ(rd32(0x900), 0x63d063d0);

	/* b128 exch of distinct patterns never tears. */
	wr64(0xa00, 0);
	wr64(0xa08, 0);
	for (i = 0; i < THREADS; i++) {
		w[i].iters = ITERS / 4;
		w[i].p = pk(OP(EXCH), TY(B128), 0, GLOBAL, 0xa00, 0);
		w[i].p.b[0] = 0x0101010101010101ull * (i + 1);
		w[i].p.b[1] = 0x0101010101010101ull * (i + 1);
	}
	vt_run_threads(work, w, sizeof(w[0]), THREADS, &start);
	VT_EXPECT_EQ(rd64(0xa00), rd64(0xa08));
	VT_EXPECT(rd64(0xa00) != 0);
}

int main(void)
{
	bind.slot[SLOT] = &buf;
	bind.slot[5] = &typed;
	bind.slot[SLOT_SMALL] = &small;

	vt_run(test_bitwise, "and/or/xor .b32 .b64");
	vt_run(test_exch, "exch .b32 .b64");
	vt_run(test_cas, "cas .b16 .b32 .b64 success and failure");
	vt_run(test_b16_at_end, "16-bit elements at the end of a surface");
	vt_run(test_b128, "b128 cas and exch");
	vt_run(test_int_add_min_max, "integer add/min/max");
	vt_run(test_inc_dec, "inc/dec formula corners");
	vt_run(test_f32_add_flush, "add.f32 flush per space and .noftz");
	vt_run(test_f64_add, "add.f64");
	vt_run(test_f16_bf16_scalar, "add.noftz f16 bf16 f16x2 bf16x2");
	vt_run(test_vectors, "vector forms");
	vt_run(test_bf16x2_add_packed, "v2.bf16x2 add");
	vt_run(test_sem_scope_all, "every .sem x .scope");
	vt_run(test_ops_mask, "GET_PARAM ops mask per type");
	vt_run(test_form_table, "op x type x vec table");
	vt_run(test_reject_fields, "validation: fields, forms, qualifiers");
	vt_run(test_reject_operands, "validation: operands, slot, align, bounds");
	vt_run(test_result_bytes, "result region sizes");
	vt_run(test_one_packet_stream, "a 1-packet stream, with and without stats");
	vt_run(test_validate_runs_diff,
	       "stream validation of runs = packet by packet (differential)");
	vt_run(test_validate_runs_hand, "stream validation of runs: by hand");
	vt_run(test_execute_runs_diff,
	       "add.f32 runs = vatom_ptx_execute() one by one (differential)");
	vt_run(test_execute_runs_hand, "v4/v2.f32 runs: old values and flush by hand");
	vt_run(test_threads, "atomicity under threads");
	return vt_done();
}
