// SPDX-License-Identifier: GPL-2.0
/*
 * PTX atom through the UAPI (seed 003, docs/semantics-ptx.md): every op x
 * type the ISA allows with edge values, the inc/dec formulas at their
 * corners, b16 in either half of a word, b128, the .v2/.v4/.v8 and packed
 * x2 forms, the add.f32 flush rule per space and .noftz, every space, sem
 * and scope value, the cache-hint rules, alignment, bounds, every other
 * rejection reason, and results into a result surface.
 *
 * Expected values are hand tables. Float bit patterns are derived by hand
 * and every float row is also checked against the host FPU before it runs
 * (f32/f64 SSE arithmetic, _Float16 for binary16 with an exact double sum
 * and one rounding, bfloat16 through float with a round-to-nearest-even
 * of the bit pattern), with the documented device choices applied on top:
 * flush to sign-preserving zero where the ISA says so, and the canonical
 * NaN (docs/semantics-float.md). A table typo therefore fails the test
 * before the device is asked.
 *
 * Uses vt_expect_reject() and vt_expect_ok() from vatom_test.c.
 *
 * Part of vatom_test.c's translation unit (see there); not built alone.
 *
 * Copyright (C) 2026 The vatom developers
 */

#define PTX_OP(o)	DRM_VATOM_PTX_OP_##o
#define PTX_TY(t)	DRM_VATOM_PTX_TYPE_##t
#define PTX_GENERIC	DRM_VATOM_PTX_SPACE_GENERIC
#define PTX_GLOBAL	DRM_VATOM_PTX_SPACE_GLOBAL
#define PTX_SH_CTA	DRM_VATOM_PTX_SPACE_SHARED_CTA
#define PTX_SH_CLU	DRM_VATOM_PTX_SPACE_SHARED_CLUSTER
#define PTX_NOFTZ	DRM_VATOM_PTX_NOFTZ
#define PTX_HINT	DRM_VATOM_PTX_CACHE_HINT

/* Four 16-bit values, element 0 in the low bits (memory order). */
#define H4(a, b, c, d)	((__u64)(a) | (__u64)(b) << 16 | (__u64)(c) << 32 | \
			 (__u64)(d) << 48)
/* Two 32-bit values, element 0 in the low bits. */
#define W2(a, b)	((__u64)(a) | (__u64)(b) << 32)

/**
 * struct vt_ptx_row - one atom and what it must do
 * @what: a name for the log
 * @op, @type, @vec, @space, @flags: the instruction
 * @off: byte offset of a inside the row's 32-byte slot
 * @old: memory at a before (access size bytes, little-endian)
 * @b, @c: the operands
 * @want: memory at a after; the returned value is always @old
 */
struct vt_ptx_row {
	const char *what;
	__u8 op, type, vec, space;
	__u32 flags;
	__u8 off;
	__u64 old[2], b[2], c[2], want[2];
};

/* A scalar row on .global: old, b, new. */
#define S(o, t, r, s_, n) \
	{ #o "." #t, PTX_OP(o), PTX_TY(t), 0, PTX_GLOBAL, 0, 0, \
	  { (r) }, { (s_) }, { 0 }, { (n) } }
/* A scalar cas row: old, b (compare), c (new value), result. */
#define CAS(t, r, s_, t_, n) \
	{ "cas." #t, PTX_OP(CAS), PTX_TY(t), 0, PTX_GLOBAL, 0, 0, \
	  { (r) }, { (s_) }, { (t_) }, { (n) } }

/* --- host references ------------------------------------------------------ */

static float vt_as_f32(__u32 u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static __u32 vt_f32_bits(float f)
{
	__u32 u;

	memcpy(&u, &f, 4);
	return u;
}

/* A subnormal becomes a zero of its sign. */
static __u32 vt_f32_flush(__u32 u)
{
	return (u & 0x7f800000) ? u : (u & 0x80000000);
}

static bool vt_f32_nan(__u32 u)
{
	return (u & 0x7fffffff) > 0x7f800000;
}

/*
 * f32 add on the host FPU (SSE, round to nearest even, no FTZ/DAZ); @ftz
 * flushes inputs and result to sign-preserving zero by hand; NaN results
 * become the canonical 0x7fffffff.
 */
static __u32 vt_host_f32_add(__u32 a, __u32 b, bool ftz)
{
	volatile float x, y;
	__u32 r;

	if (ftz) {
		a = vt_f32_flush(a);
		b = vt_f32_flush(b);
	}
	x = vt_as_f32(a);
	y = vt_as_f32(b);
	r = vt_f32_bits(x + y);
	if (vt_f32_nan(r))
		return 0x7fffffff;
	return ftz ? vt_f32_flush(r) : r;
}

static __u64 vt_host_f64_add(__u64 a, __u64 b)
{
	volatile double x, y;
	double d;
	__u64 r;

	memcpy((void *)&x, &a, 8);
	memcpy((void *)&y, &b, 8);
	d = x + y;
	memcpy(&r, &d, 8);
	if ((r & 0x7fffffffffffffffull) > 0x7ff0000000000000ull)
		return 0x7fffffffffffffffull;
	return r;
}

static double vt_f16_val(__u16 h)
{
	_Float16 f;

	memcpy(&f, &h, 2);
	return f;
}

static bool vt_f16_nan(__u16 h)
{
	return (h & 0x7fff) > 0x7c00;
}

/*
 * binary16 add: the double sum of two binary16 values is exact (their
 * exponents span 40 bits), so one conversion to _Float16 rounds once.
 */
static __u16 vt_host_f16_add(__u16 a, __u16 b)
{
	volatile double s = vt_f16_val(a) + vt_f16_val(b);
	_Float16 r = (_Float16)s;
	__u16 u;

	memcpy(&u, &r, 2);
	return vt_f16_nan(u) ? 0x7fff : u;
}

static double vt_bf16_val(__u16 h)
{
	return vt_as_f32((__u32)h << 16);
}

static bool vt_bf16_nan(__u16 h)
{
	return (h & 0x7fff) > 0x7f80;
}

/*
 * bfloat16 add: the double sum, converted to float (exact for every row
 * here, or an overflow that is an overflow for bf16 as well), then rounded
 * to bf16 to nearest even on the bit pattern. @ok is cleared when the
 * float step would round (the reference would then round twice).
 */
static __u16 vt_host_bf16_add(__u16 a, __u16 b, bool *ok)
{
	volatile double s = vt_bf16_val(a) + vt_bf16_val(b);
	float f = (float)s;
	__u32 u = vt_f32_bits(f);

	if (vt_f32_nan(u))
		return 0x7fff;
	if ((u & 0x7f800000) != 0x7f800000 && (double)f != s)
		*ok = false;
	return (u + 0x7fff + ((u >> 16) & 1)) >> 16;
}

/*
 * minimumNumber/maximumNumber on values as doubles, for rows without NaN
 * whose operands are not both zeros: the smaller/larger one's bits.
 * Returns -1 when the row is outside that (checked by hand only).
 */
static int vt_host_minmax(__u16 a, __u16 b, double x, double y, bool nan, bool max)
{
	if (nan || (x == 0 && y == 0))
		return -1;
	if (x == y)
		return a == b ? a : -1;
	return (x < y) != max ? a : b;
}

/* The half add of @bf ? bfloat16 : binary16 (@ok: see vt_host_bf16_add()). */
static __u16 vt_host_half_add(__u16 a, __u16 b, bool bf, bool *ok)
{
	return bf ? vt_host_bf16_add(a, b, ok) : vt_host_f16_add(a, b);
}

/* --- running rows ---------------------------------------------------------- */

#define VT_PTX_ROWS_PER_SUBMIT	64

/* The bits of the first 8 bytes that an access of @size bytes covers. */
static __u64 vt_ptx_mask(__u32 size)
{
	return size >= 8 ? ~0ull : (1ull << (8 * size)) - 1;
}

/*
 * Run @n rows, each at byte 32k + off of a 4096-byte buffer that is
 * otherwise 0xa5, as one stream per 64 rows; check every returned value
 * (the old one, zero padded to its 8 or 16 byte region) and the whole
 * buffer afterwards (only the accessed bytes change).
 */
static void vt_ptx_rows(struct __test_metadata *_metadata, int fd,
			const struct vt_ptx_row *rows, __u32 n)
{
	static __u8 want[4096];
	__u64 res[2 * VT_PTX_ROWS_PER_SUBMIT + 2];
	struct drm_vatom_binding bind = { .slot = 0 };
	__u32 base, i;
	__u8 *map;

	VT_BUFFER(fd, 4096, bind.handle, map);
	for (base = 0; base < n; base += VT_PTX_ROWS_PER_SUBMIT) {
		__u32 cnt = n - base < VT_PTX_ROWS_PER_SUBMIT ? n - base :
			    VT_PTX_ROWS_PER_SUBMIT;
		struct drm_vatom_ptx p;
		struct vt_stream s;
		__u32 roff = 0;
		long bad;

		memset(map, 0xa5, 4096);
		memset(want, 0xa5, 4096);
		vt_stream_init(&s);
		for (i = 0; i < cnt; i++) {
			const struct vt_ptx_row *r = &rows[base + i];
			__u32 size = vt_ptx_access_size(r->type, r->vec);
			__u64 addr = 32 * i + r->off;

			ASSERT_NE(0, size) TH_LOG("%s: bad row", r->what);
			memcpy(map + addr, r->old, size);
			memcpy(want + addr, r->want, size);
			vt_ptx_init(&p, r->op, r->type, r->vec, r->space, addr);
			p.flags = r->flags;
			memcpy(p.b, r->b, sizeof(p.b));
			memcpy(p.c, r->c, sizeof(p.c));
			vt_add_ptx(&s, &p);
		}
		memset(res, VT_POISON, sizeof(res));
		vt_expect_ok(_metadata, fd, &s, &bind, 1, res, sizeof(res));
		for (i = 0; i < cnt; i++) {
			const struct vt_ptx_row *r = &rows[base + i];
			__u32 size = vt_ptx_access_size(r->type, r->vec);
			__u32 region = vt_align8(size);
			const __u8 *got = (const __u8 *)res + roff;

			EXPECT_EQ(0, memcmp(got, r->old, size))
				TH_LOG("row %u %s: returned 0x%016llx %016llx, old 0x%016llx %016llx",
				       base + i, r->what,
				       (unsigned long long)vt_rd64(got, 0),
				       (unsigned long long)(size > 8 ? vt_rd64(got, 8) : 0),
				       (unsigned long long)r->old[0],
				       (unsigned long long)r->old[1]);
			EXPECT_EQ(-1, vt_find_ne8(got, size, region, 0))
				TH_LOG("row %u %s: result padding not zero", base + i,
				       r->what);
			EXPECT_EQ(0, memcmp(map + 32 * i + r->off, r->want, size))
				TH_LOG("row %u %s: memory 0x%016llx %016llx, want 0x%016llx %016llx",
				       base + i, r->what,
				       (unsigned long long)(vt_rd64(map, 32 * i + r->off) &
							    vt_ptx_mask(size)),
				       (unsigned long long)(size > 8 ?
					vt_rd64(map, 32 * i + r->off + 8) : 0),
				       (unsigned long long)r->want[0],
				       (unsigned long long)r->want[1]);
			roff += region;
		}
		EXPECT_EQ(-1, vt_find_ne32((const __u32 *)res, roff / 4,
					   VT_ARRAY_SIZE(res) * 2, VT_POISON32))
			TH_LOG("results written past the last region");
		bad = -1;
		for (i = 0; i < 4096 && bad < 0; i++)
			if (map[i] != want[i])
				bad = i;
		EXPECT_EQ(-1, bad) TH_LOG("byte %ld: 0x%02x, want 0x%02x (row %ld)",
					  bad, map[bad < 0 ? 0 : bad],
					  want[bad < 0 ? 0 : bad], base + bad / 32);
	}
	munmap(map, 4096);
	vt_gem_close(fd, bind.handle);
}

/* Give @r its instruction, the rest zero; the caller sets the values. */
static struct vt_ptx_row *vt_ptx_row(struct vt_ptx_row *r, const char *what,
				     __u8 op, __u8 type, __u8 vec, __u8 space,
				     __u32 flags)
{
	*r = (struct vt_ptx_row){ .what = what, .op = op, .type = type,
				  .vec = vec, .space = space, .flags = flags };
	return r;
}

/* --- GET_PARAM -------------------------------------------------------------- */

/*
 * PTX_OPS per type, from the ISA's op x type tables (scalar and vector
 * forms together): bit n for DRM_VATOM_PTX_OP_n.
 */
TEST(ptx_get_param)
{
	static const __u64 want[] = {
		[DRM_VATOM_PTX_TYPE_B16] = 1u << 4,			/* cas */
		[DRM_VATOM_PTX_TYPE_B32] = 0x3e,			/* and or xor cas exch */
		[DRM_VATOM_PTX_TYPE_B64] = 0x3e,
		[DRM_VATOM_PTX_TYPE_B128] = 0x30,			/* cas exch */
		[DRM_VATOM_PTX_TYPE_U32] = 0x7c0,			/* add inc dec min max */
		[DRM_VATOM_PTX_TYPE_U64] = 0x640,			/* add min max */
		[DRM_VATOM_PTX_TYPE_S32] = 0x640,
		[DRM_VATOM_PTX_TYPE_S64] = 0x600,			/* min max */
		[DRM_VATOM_PTX_TYPE_F16] = 0x640,
		[DRM_VATOM_PTX_TYPE_BF16] = 0x640,
		[DRM_VATOM_PTX_TYPE_F16X2] = 0x640,
		[DRM_VATOM_PTX_TYPE_BF16X2] = 0x640,
		[DRM_VATOM_PTX_TYPE_F32] = 0x40,			/* add */
		[DRM_VATOM_PTX_TYPE_F64] = 0x40,
	};
	__u64 v;
	__u32 t;
	int fd;

	VT_OPEN(fd);
	ASSERT_TRUE(vt_caps(fd) & DRM_VATOM_CAP_PTX_ATOM);
	for (t = DRM_VATOM_PTX_TYPE_B16; t <= DRM_VATOM_PTX_TYPE_F64; t++) {
		ASSERT_EQ(0, vt_get_param(fd, DRM_VATOM_PARAM_PTX_OPS, t, &v));
		EXPECT_EQ(want[t], v) TH_LOG("type %u", t);
	}
	close(fd);
}

/* --- integer and bit ops ----------------------------------------------------- */

static const struct vt_ptx_row vt_ptx_int_rows[] = {
	/* and / or / xor / exch on b32 and b64 */
	S(AND, B32, 0xffffffff, 0x0f0f0f0f, 0x0f0f0f0f),
	S(AND, B32, 0x12345678, 0xff00ff00, 0x12005600),
	S(AND, B32, 0x00000000, 0xffffffff, 0x00000000),
	S(OR, B32, 0x12345678, 0x0f0f0f0f, 0x1f3f5f7f),
	S(OR, B32, 0x80000000, 0x00000001, 0x80000001),
	S(XOR, B32, 0x12345678, 0xffffffff, 0xedcba987),
	S(XOR, B32, 0xdeadbeef, 0xdeadbeef, 0x00000000),
	S(EXCH, B32, 0xdeadbeef, 0x01234567, 0x01234567),
	S(EXCH, B32, 0x00000000, 0xffffffff, 0xffffffff),
	S(AND, B64, 0xffffffff00000000, 0x123456789abcdef0, 0x1234567800000000),
	S(OR, B64, 0x8000000000000000, 0x0000000000000001, 0x8000000000000001),
	S(OR, B64, 0x00000000ffffffff, 0xffffffff00000000, 0xffffffffffffffff),
	S(XOR, B64, 0xffffffffffffffff, 0x0123456789abcdef, 0xfedcba9876543210),
	S(EXCH, B64, 0x0123456789abcdef, 0xfedcba9876543210, 0xfedcba9876543210),
	/* cas: r == s ? t : r */
	CAS(B32, 0x00000005, 0x00000005, 0x00000007, 0x00000007),
	CAS(B32, 0x00000005, 0x00000006, 0x00000007, 0x00000005),
	CAS(B32, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000),
	CAS(B64, 0x1122334455667788, 0x1122334455667788, 0x8877665544332211,
	    0x8877665544332211),
	CAS(B64, 0x1122334455667788, 0x1122334455667789, 0x8877665544332211,
	    0x1122334455667788),
	/* Only the low half equal: fails. */
	CAS(B64, 0x1122334455667788, 0x0122334455667788, 0, 0x1122334455667788),
	CAS(B16, 0x1234, 0x1234, 0xabcd, 0xabcd),
	CAS(B16, 0x1234, 0x1235, 0xabcd, 0x1234),
	CAS(B16, 0xffff, 0xffff, 0x0000, 0x0000),
	/* b16 in the high half of a dword, the low half 0xa5a5 untouched */
	{ "cas.b16 high", PTX_OP(CAS), PTX_TY(B16), 0, PTX_GLOBAL, 0, 2,
	  { 0x8000 }, { 0x8000 }, { 0x7fff }, { 0x7fff } },
	{ "cas.b16 high fail", PTX_OP(CAS), PTX_TY(B16), 0, PTX_GLOBAL, 0, 2,
	  { 0x8000 }, { 0x0000 }, { 0x7fff }, { 0x8000 } },
	{ "cas.b16 at 6", PTX_OP(CAS), PTX_TY(B16), 0, PTX_GLOBAL, 0, 6,
	  { 0x0102 }, { 0x0102 }, { 0x0304 }, { 0x0304 } },
	/* integer add wraps in the type's width */
	S(ADD, U32, 0xffffffff, 0x00000001, 0x00000000),
	S(ADD, U32, 0x7fffffff, 0x00000001, 0x80000000),
	S(ADD, U32, 0x12345678, 0x9abcdef0, 0xacf13568),
	S(ADD, S32, 0x7fffffff, 0x00000001, 0x80000000),
	S(ADD, S32, 0xffffffff, 0xffffffff, 0xfffffffe),
	S(ADD, S32, 0x80000000, 0xffffffff, 0x7fffffff),
	S(ADD, U64, 0xffffffffffffffff, 0x0000000000000001, 0x0000000000000000),
	S(ADD, U64, 0x00000000ffffffff, 0x0000000000000001, 0x0000000100000000),
	S(ADD, U64, 0x7fffffffffffffff, 0x0000000000000001, 0x8000000000000000),
	/* inc(r, s) = (r >= s) ? 0 : r + 1 (unsigned) */
	S(INC, U32, 0x00000000, 0x00000000, 0x00000000),
	S(INC, U32, 0x00000000, 0x00000005, 0x00000001),
	S(INC, U32, 0x00000004, 0x00000005, 0x00000005),
	S(INC, U32, 0x00000005, 0x00000005, 0x00000000),
	S(INC, U32, 0x00000006, 0x00000005, 0x00000000),
	S(INC, U32, 0xffffffff, 0xffffffff, 0x00000000),
	S(INC, U32, 0xfffffffe, 0xffffffff, 0xffffffff),
	S(INC, U32, 0x80000000, 0xffffffff, 0x80000001),
	S(INC, U32, 0x7fffffff, 0x80000000, 0x80000000),
	/* dec(r, s) = (r == 0 || r > s) ? s : r - 1 (unsigned) */
	S(DEC, U32, 0x00000000, 0x00000005, 0x00000005),
	S(DEC, U32, 0x00000000, 0x00000000, 0x00000000),
	S(DEC, U32, 0x00000001, 0x00000005, 0x00000000),
	S(DEC, U32, 0x00000005, 0x00000005, 0x00000004),
	S(DEC, U32, 0x00000006, 0x00000005, 0x00000005),
	S(DEC, U32, 0xffffffff, 0xffffffff, 0xfffffffe),
	S(DEC, U32, 0xffffffff, 0x00000000, 0x00000000),
	S(DEC, U32, 0x80000000, 0x7fffffff, 0x7fffffff),
	S(DEC, U32, 0x00000001, 0x00000000, 0x00000000),
	/* min / max: u unsigned, s signed */
	S(MIN, U32, 0x80000000, 0x00000001, 0x00000001),
	S(MIN, U32, 0xffffffff, 0xfffffffe, 0xfffffffe),
	S(MIN, U32, 0x00000005, 0x00000005, 0x00000005),
	S(MAX, U32, 0x7fffffff, 0x80000000, 0x80000000),
	S(MAX, U32, 0x00000000, 0xffffffff, 0xffffffff),
	S(MIN, S32, 0x80000000, 0x00000001, 0x80000000),
	S(MIN, S32, 0xffffffff, 0x00000000, 0xffffffff),
	S(MIN, S32, 0x7fffffff, 0x80000000, 0x80000000),
	S(MAX, S32, 0x80000000, 0x00000001, 0x00000001),
	S(MAX, S32, 0xffffffff, 0xfffffffe, 0xffffffff),
	S(MAX, S32, 0x7fffffff, 0x80000000, 0x7fffffff),
	S(MIN, U64, 0x8000000000000000, 0x0000000000000001, 0x0000000000000001),
	S(MIN, U64, 0xffffffff00000000, 0x00000000ffffffff, 0x00000000ffffffff),
	S(MAX, U64, 0x8000000000000000, 0x7fffffffffffffff, 0x8000000000000000),
	S(MAX, U64, 0x0000000100000000, 0x00000000ffffffff, 0x0000000100000000),
	S(MIN, S64, 0x8000000000000000, 0x0000000000000001, 0x8000000000000000),
	S(MIN, S64, 0xffffffffffffffff, 0x0000000000000000, 0xffffffffffffffff),
	S(MIN, S64, 0x00000000ffffffff, 0xffffffff00000000, 0xffffffff00000000),
	S(MAX, S64, 0x8000000000000000, 0x0000000000000001, 0x0000000000000001),
	S(MAX, S64, 0x00000000ffffffff, 0xffffffff00000000, 0x00000000ffffffff),
	S(MAX, S64, 0x7fffffffffffffff, 0x8000000000000000, 0x7fffffffffffffff),
};

/* Every integer and bit op x type with edge values. */
TEST(ptx_int_ops)
{
	int fd;

	VT_OPEN(fd);
	vt_ptx_rows(_metadata, fd, vt_ptx_int_rows, VT_ARRAY_SIZE(vt_ptx_int_rows));
	close(fd);
}

/*
 * b128 cas and exch: the whole 16 bytes compare and swap at once
 * (lock cmpxchg16b); a mismatch in either half fails the cas.
 */
TEST(ptx_b128)
{
	static const struct vt_ptx_row rows[] = {
		{ "cas.b128", PTX_OP(CAS), PTX_TY(B128), 0, PTX_GLOBAL, 0, 0,
		  { 0x0011223344556677, 0x8899aabbccddeeff },
		  { 0x0011223344556677, 0x8899aabbccddeeff },
		  { 0x0000000000000001, 0x0000000000000002 },
		  { 0x0000000000000001, 0x0000000000000002 } },
		{ "cas.b128 high differs", PTX_OP(CAS), PTX_TY(B128), 0, PTX_GLOBAL, 0, 0,
		  { 0x0011223344556677, 0x8899aabbccddeeff },
		  { 0x0011223344556677, 0x8899aabbccddeefe },
		  { 1, 2 },
		  { 0x0011223344556677, 0x8899aabbccddeeff } },
		{ "cas.b128 low differs", PTX_OP(CAS), PTX_TY(B128), 0, PTX_GLOBAL, 0, 0,
		  { 0x0011223344556677, 0x8899aabbccddeeff },
		  { 0x1011223344556677, 0x8899aabbccddeeff },
		  { 1, 2 },
		  { 0x0011223344556677, 0x8899aabbccddeeff } },
		{ "cas.b128 zeros", PTX_OP(CAS), PTX_TY(B128), 0, PTX_SH_CTA, 0, 16,
		  { 0, 0 }, { 0, 0 }, { ~0ull, ~0ull }, { ~0ull, ~0ull } },
		{ "exch.b128", PTX_OP(EXCH), PTX_TY(B128), 0, PTX_GLOBAL, 0, 0,
		  { 0x0123456789abcdef, 0xfedcba9876543210 },
		  { 0x0000000000000003, 0x0000000000000004 }, { 0 },
		  { 0x0000000000000003, 0x0000000000000004 } },
		{ "exch.b128 generic", PTX_OP(EXCH), PTX_TY(B128), 0, PTX_GENERIC,
		  PTX_HINT, 16,
		  { ~0ull, 0 }, { 0, ~0ull }, { 0 }, { 0, ~0ull } },
	};
	int fd;

	VT_OPEN(fd);
	vt_ptx_rows(_metadata, fd, rows, VT_ARRAY_SIZE(rows));
	close(fd);
}

/* --- floating point scalars -------------------------------------------------- */

/*
 * add.f32: a, b and the sum with flush to zero (inputs and result, the sign
 * kept) and without. By hand:
 *  - 2^-127 + 2^-127 = 2^-126, the smallest normal; flushed: +0.
 *  - (2^-126 + 2^-149) - 2^-126 = 2^-149, a subnormal result; flushed +0.
 *  - the same negated: -2^-149; flushed -0.
 *  - the largest subnormal + the smallest normal = 0x00ffffff exactly.
 *  - -2^-149 + -2^-149 = -2^-148; flushed (-0) + (-0) = -0.
 *  - -2^-149 + +0; flushed (-0) + (+0) = +0.
 *  - 3 * 2^-149 - 2^-149 = 2^-148; flushed +0 + -0 = +0.
 *  - 1 + 2^-149 rounds to 1 either way; 1 + 2 = 3.
 *  - 1 + 2^-24: a tie, to even 1.0; (1 + 2^-23) + 2^-24 to even 1 + 2^-22.
 *  - max + max overflows to inf; inf + -inf is the canonical NaN.
 *  - 1 + -1 = +0; -0 + -0 = -0.
 */
static const struct {
	__u32 a, b, ftz, ieee;
} vt_f32_add_rows[] = {
	{ 0x00400000, 0x00400000, 0x00000000, 0x00800000 },
	{ 0x00800001, 0x80800000, 0x00000000, 0x00000001 },
	{ 0x80800001, 0x00800000, 0x80000000, 0x80000001 },
	{ 0x007fffff, 0x00800000, 0x00800000, 0x00ffffff },
	{ 0x80000001, 0x80000001, 0x80000000, 0x80000002 },
	{ 0x80000001, 0x00000000, 0x00000000, 0x80000001 },
	{ 0x00000003, 0x80000001, 0x00000000, 0x00000002 },
	{ 0x3f800000, 0x00000001, 0x3f800000, 0x3f800000 },
	{ 0x3f800000, 0x40000000, 0x40400000, 0x40400000 },
	{ 0x3f800000, 0x33800000, 0x3f800000, 0x3f800000 },
	{ 0x3f800001, 0x33800000, 0x3f800002, 0x3f800002 },
	{ 0x7f7fffff, 0x7f7fffff, 0x7f800000, 0x7f800000 },
	{ 0x7f800000, 0xff800000, 0x7fffffff, 0x7fffffff },
	{ 0x3f800000, 0xbf800000, 0x00000000, 0x00000000 },
	{ 0x80000000, 0x80000000, 0x80000000, 0x80000000 },
};

/*
 * The flush rule per space and .noftz (seed: "atom.add.f32 on global memory
 * flushes subnormal inputs and results to sign-preserving zero; on shared
 * memory supports subnormal inputs and results"; generic resolves to
 * .global here; .noftz never flushes).
 */
TEST(ptx_f32_flush)
{
	static const __u8 spaces[] = { PTX_GENERIC, PTX_GLOBAL, PTX_SH_CTA, PTX_SH_CLU };
	static const char * const names[] = {
		"add.f32 (generic)", "add.noftz.f32 (generic)",
		"add.global.f32", "add.global.noftz.f32",
		"add.shared::cta.f32", "add.shared::cta.noftz.f32",
		"add.shared::cluster.f32", "add.shared::cluster.noftz.f32",
	};
	struct vt_ptx_row rows[VT_ARRAY_SIZE(vt_f32_add_rows) * 8], *r;
	__u32 i, k, n = 0;
	int fd;

	VT_OPEN(fd);
	for (i = 0; i < VT_ARRAY_SIZE(vt_f32_add_rows); i++) {
		__u32 a = vt_f32_add_rows[i].a, b = vt_f32_add_rows[i].b;

		ASSERT_EQ(vt_host_f32_add(a, b, true), vt_f32_add_rows[i].ftz)
			TH_LOG("table row %u: 0x%08x + 0x%08x ftz", i, a, b);
		ASSERT_EQ(vt_host_f32_add(a, b, false), vt_f32_add_rows[i].ieee)
			TH_LOG("table row %u: 0x%08x + 0x%08x", i, a, b);
		for (k = 0; k < 8; k++) {
			bool noftz = k & 1;
			__u8 space = spaces[k / 2];
			bool ftz = !noftz && space <= PTX_GLOBAL;

			r = vt_ptx_row(&rows[n++], names[k], PTX_OP(ADD),
				       PTX_TY(F32), 0, space, noftz ? PTX_NOFTZ : 0);
			r->old[0] = a;
			r->b[0] = b;
			r->want[0] = ftz ? vt_f32_add_rows[i].ftz : vt_f32_add_rows[i].ieee;
		}
	}
	vt_ptx_rows(_metadata, fd, rows, n);
	close(fd);
}

/*
 * add.f64: IEEE, never flushed (the seed names no flush for f64). By hand:
 * 1 + 2^-53 ties to 1; (1 + 2^-52) + 2^-53 ties to 1 + 2^-51; subnormals
 * add exactly; max + max = inf; 1.5 + 2.25 = 3.75; inf - inf = NaN.
 */
static const struct {
	__u64 a, b, sum;
} vt_f64_add_rows[] = {
	{ 0x3ff0000000000000, 0x3ca0000000000000, 0x3ff0000000000000 },
	{ 0x3ff0000000000001, 0x3ca0000000000000, 0x3ff0000000000002 },
	{ 0x0000000000000001, 0x0000000000000001, 0x0000000000000002 },
	{ 0x0008000000000000, 0x0008000000000000, 0x0010000000000000 },
	{ 0x8000000000000001, 0x0000000000000000, 0x8000000000000001 },
	{ 0x7fefffffffffffff, 0x7fefffffffffffff, 0x7ff0000000000000 },
	{ 0x3ff8000000000000, 0x4002000000000000, 0x400e000000000000 },
	{ 0x7ff0000000000000, 0xfff0000000000000, 0x7fffffffffffffff },
	{ 0xbff0000000000000, 0x3ff0000000000000, 0x0000000000000000 },
};

/* binary16 or bfloat16: a + b = sum */
struct vt_half_add {
	__u16 a, b, sum;
};

/*
 * binary16 add (always .noftz: subnormals kept). By hand: 1 + 2 = 3;
 * 2^-24 + 2^-24 = 2^-23; the largest subnormal + 2^-24 = the smallest
 * normal; 65504 + 65504 = inf; 65504 + 16 (the overflow tie) = inf; 1 +
 * 2^-11 ties to 1; (1 + 2^-10) + 2^-11 ties to 1 + 2^-9; -2^-24 + 2^-24 =
 * +0; -1 + 1 = +0; NaN + 1 = the canonical NaN.
 */
static const struct vt_half_add vt_f16_add_rows[] = {
	{ 0x3c00, 0x4000, 0x4200 },
	{ 0x0001, 0x0001, 0x0002 },
	{ 0x03ff, 0x0001, 0x0400 },
	{ 0x7bff, 0x7bff, 0x7c00 },
	{ 0x7bff, 0x4c00, 0x7c00 },
	{ 0x3c00, 0x1000, 0x3c00 },
	{ 0x3c01, 0x1000, 0x3c02 },
	{ 0x8001, 0x0001, 0x0000 },
	{ 0xbc00, 0x3c00, 0x0000 },
	{ 0x7e00, 0x3c00, 0x7fff },
};

/*
 * bfloat16 add (always .noftz). By hand: 1 + 2 = 3 (0x4040); 2^-133 +
 * 2^-133 = 2^-132; the largest subnormal + 2^-133 = 2^-126 (0x0080); max
 * + max = inf; 1 + 2^-8 ties to 1; (1 + 2^-7) + 2^-8 ties to 1 + 2^-6;
 * -2^-133 + 2^-133 = +0; 2 + 2 = 4 (0x4080).
 */
static const struct vt_half_add vt_bf16_add_rows[] = {
	{ 0x3f80, 0x4000, 0x4040 },
	{ 0x0001, 0x0001, 0x0002 },
	{ 0x007f, 0x0001, 0x0080 },
	{ 0x7f7f, 0x7f7f, 0x7f80 },
	{ 0x3f80, 0x3b80, 0x3f80 },
	{ 0x3f81, 0x3b80, 0x3f82 },
	{ 0x8001, 0x0001, 0x0000 },
	{ 0x4000, 0x4000, 0x4080 },
	{ 0xbf80, 0x3f80, 0x0000 },
};

/*
 * Scalar add.f64, add.noftz.f16, add.noftz.bf16 in every space (no flush
 * anywhere), and add.noftz.f16x2 / .bf16x2 with each half on its own
 * (row i's sum in the low half, row i+1's in the high half).
 */
TEST(ptx_float_scalars)
{
	static const __u8 spaces[] = { PTX_GENERIC, PTX_GLOBAL, PTX_SH_CTA, PTX_SH_CLU };
	/* Each half table (h = 1: bfloat16) as scalars and as packed pairs. */
	static const struct {
		const char *what, *what2;
		__u8 type, type2;
		const struct vt_half_add *t;
		__u32 n;
	} halves[] = {
		{ "add.noftz.f16", "add.noftz.f16x2", PTX_TY(F16), PTX_TY(F16X2),
		  vt_f16_add_rows, VT_ARRAY_SIZE(vt_f16_add_rows) },
		{ "add.noftz.bf16", "add.noftz.bf16x2", PTX_TY(BF16), PTX_TY(BF16X2),
		  vt_bf16_add_rows, VT_ARRAY_SIZE(vt_bf16_add_rows) },
	};
	struct vt_ptx_row rows[128], *r;
	__u32 h, i, n = 0;
	bool ok = true;
	int fd;

	VT_OPEN(fd);
	for (i = 0; i < VT_ARRAY_SIZE(vt_f64_add_rows); i++) {
		ASSERT_EQ(vt_host_f64_add(vt_f64_add_rows[i].a, vt_f64_add_rows[i].b),
			  vt_f64_add_rows[i].sum) TH_LOG("f64 table row %u", i);
		r = vt_ptx_row(&rows[n++], "add.f64", PTX_OP(ADD), PTX_TY(F64), 0,
			       spaces[i % 4], 0);
		r->old[0] = vt_f64_add_rows[i].a;
		r->b[0] = vt_f64_add_rows[i].b;
		r->want[0] = vt_f64_add_rows[i].sum;
	}
	for (h = 0; h < VT_ARRAY_SIZE(halves); h++) {
		for (i = 0; i < halves[h].n; i++) {
			const struct vt_half_add *x = &halves[h].t[i];
			const struct vt_half_add *y = &halves[h].t[(i + 1) % halves[h].n];

			ASSERT_EQ(vt_host_half_add(x->a, x->b, h, &ok), x->sum)
				TH_LOG("%s table row %u", halves[h].what, i);
			ASSERT_TRUE(ok) TH_LOG("%s table row %u: no single-rounding reference",
					       halves[h].what, i);
			r = vt_ptx_row(&rows[n++], halves[h].what, PTX_OP(ADD),
				       halves[h].type, 0, spaces[i % 4], PTX_NOFTZ);
			r->off = 2 * (i & 1);
			r->old[0] = x->a;
			r->b[0] = x->b;
			r->want[0] = x->sum;

			r = vt_ptx_row(&rows[n++], halves[h].what2, PTX_OP(ADD),
				       halves[h].type2, 0, spaces[(i + 1 + h) % 4],
				       PTX_NOFTZ);
			r->old[0] = x->a | (__u32)y->a << 16;
			r->b[0] = x->b | (__u32)y->b << 16;
			r->want[0] = x->sum | (__u32)y->sum << 16;
		}
	}
	vt_ptx_rows(_metadata, fd, rows, n);
	close(fd);
}

/* --- vectors ------------------------------------------------------------------- */

/*
 * Eight 16-bit elements a, b and the results of add, min and max, by hand,
 * one row an element. minimumNumber/maximumNumber: -0 < +0, one NaN is
 * ignored, two NaNs give the canonical NaN, otherwise one operand's bits
 * (subnormals kept).
 */
struct vt_half_el {
	__u16 a, b, add, min, max;
};

static const struct vt_half_el vt_f16_vec[8] = {
	{ 0x3c00, 0x3c00, 0x4000, 0x3c00, 0x3c00 },	/* 1, 1 */
	{ 0x4000, 0x4000, 0x4400, 0x4000, 0x4000 },	/* 2, 2 */
	{ 0x0001, 0x0001, 0x0002, 0x0001, 0x0001 },	/* 2^-24, 2^-24 */
	{ 0x03ff, 0x0001, 0x0400, 0x0001, 0x03ff },	/* max subnormal, 2^-24 */
	{ 0x7bff, 0x4c00, 0x7c00, 0x4c00, 0x7bff },	/* 65504, 16: tie to inf */
	{ 0xbc00, 0x3c00, 0x0000, 0xbc00, 0x3c00 },	/* -1, 1: +0 */
	{ 0x3c01, 0x1000, 0x3c02, 0x1000, 0x3c01 },	/* 1 + 2^-10, 2^-11: tie */
	{ 0x8001, 0x0001, 0x0000, 0x8001, 0x0001 },	/* -2^-24, 2^-24: +0 */
};

static const struct vt_half_el vt_f16_vec_special[8] = {
	{ 0x8000, 0x0000, 0x0000, 0x8000, 0x0000 },	/* -0, +0 */
	{ 0x7e00, 0x3c00, 0x7fff, 0x3c00, 0x3c00 },	/* NaN, 1 */
	{ 0x0001, 0x8001, 0x0000, 0x8001, 0x0001 },	/* 2^-24, -2^-24 */
	{ 0xfc00, 0x7c00, 0x7fff, 0xfc00, 0x7c00 },	/* -inf, inf */
	{ 0x7bff, 0x7e00, 0x7fff, 0x7bff, 0x7bff },	/* 65504, NaN */
	{ 0xbc00, 0xc000, 0xc200, 0xc000, 0xbc00 },	/* -1, -2 */
	{ 0x7e00, 0x7e01, 0x7fff, 0x7fff, 0x7fff },	/* NaN, NaN */
	{ 0x7c01, 0x7e00, 0x7fff, 0x7fff, 0x7fff },	/* sNaN, NaN */
};

static const struct vt_half_el vt_bf16_vec[8] = {
	{ 0x3f80, 0x3f80, 0x4000, 0x3f80, 0x3f80 },	/* 1, 1 */
	{ 0x4000, 0x4000, 0x4080, 0x4000, 0x4000 },	/* 2, 2 */
	{ 0x0001, 0x0001, 0x0002, 0x0001, 0x0001 },	/* 2^-133, 2^-133 */
	{ 0x007f, 0x0001, 0x0080, 0x0001, 0x007f },	/* max subnormal, 2^-133 */
	{ 0x7f7f, 0x7f7f, 0x7f80, 0x7f7f, 0x7f7f },	/* max, max: inf */
	{ 0xbf80, 0x3f80, 0x0000, 0xbf80, 0x3f80 },	/* -1, 1: +0 */
	{ 0x3f81, 0x3b80, 0x3f82, 0x3b80, 0x3f81 },	/* 1 + 2^-7, 2^-8: tie */
	{ 0x8001, 0x0001, 0x0000, 0x8001, 0x0001 },	/* -2^-133, 2^-133: +0 */
};

static const struct vt_half_el vt_bf16_vec_special[8] = {
	{ 0x8000, 0x0000, 0x0000, 0x8000, 0x0000 },	/* -0, +0 */
	{ 0x7fc0, 0x3f80, 0x7fff, 0x3f80, 0x3f80 },	/* NaN, 1 */
	{ 0x0001, 0x8001, 0x0000, 0x8001, 0x0001 },	/* 2^-133, -2^-133 */
	{ 0xff80, 0x7f80, 0x7fff, 0xff80, 0x7f80 },	/* -inf, inf */
	{ 0x7f7f, 0x7fc0, 0x7fff, 0x7f7f, 0x7f7f },	/* max, NaN */
	{ 0xbf80, 0xc000, 0xc040, 0xc000, 0xbf80 },	/* -1, -2 */
	{ 0x7fc0, 0x7fc1, 0x7fff, 0x7fff, 0x7fff },	/* NaN, NaN */
	{ 0x7f81, 0x7fc0, 0x7fff, 0x7fff, 0x7fff },	/* sNaN, NaN */
};

/* Check eight elements against the host where the host can say. */
static void vt_half8_check(struct __test_metadata *_metadata,
			   const struct vt_half_el *t, bool bf)
{
	bool ok = true;
	__u32 i;

	for (i = 0; i < 8; i++) {
		__u16 a = t[i].a, b = t[i].b;
		double x = bf ? vt_bf16_val(a) : vt_f16_val(a);
		double y = bf ? vt_bf16_val(b) : vt_f16_val(b);
		bool nan = bf ? vt_bf16_nan(a) || vt_bf16_nan(b) :
				vt_f16_nan(a) || vt_f16_nan(b);
		int m;

		ASSERT_EQ(vt_host_half_add(a, b, bf, &ok), t[i].add)
			TH_LOG("%s add element %u", bf ? "bf16" : "f16", i);
		ASSERT_TRUE(ok);
		m = vt_host_minmax(a, b, x, y, nan, false);
		if (m >= 0) {
			ASSERT_EQ(m, t[i].min) TH_LOG("min element %u", i);
		}
		m = vt_host_minmax(a, b, x, y, nan, true);
		if (m >= 0) {
			ASSERT_EQ(m, t[i].max) TH_LOG("max element %u", i);
		}
	}
}

/* Append one vector row of @lanes 16-bit elements (packed or not). */
static void vt_half_row(struct vt_ptx_row *r, const char *what, __u8 op,
			__u8 type, __u8 vec, const struct vt_half_el *t,
			__u32 first)
{
	__u32 halves = vt_ptx_access_size(type, vec) / 2, i;

	vt_ptx_row(r, what, op, type, vec, first & 1 ? PTX_GENERIC : PTX_GLOBAL,
		   PTX_NOFTZ);
	for (i = 0; i < halves; i++) {
		const struct vt_half_el *e = &t[(first + i) % 8];
		__u16 res = op == PTX_OP(ADD) ? e->add :
			    op == PTX_OP(MIN) ? e->min : e->max;

		r->old[i / 4] |= (__u64)e->a << (16 * (i % 4));
		r->b[i / 4] |= (__u64)e->b << (16 * (i % 4));
		r->want[i / 4] |= (__u64)res << (16 * (i % 4));
	}
}

/*
 * .v2/.v4/.v8 f16 and bf16, .v2/.v4 f16x2 and bf16x2, with add, min and
 * max (all .noftz), on .global and generic: every element on its own, in
 * memory order, element 0 first.
 */
TEST(ptx_half_vectors)
{
	static const struct {
		__u8 type, vec;
		const char *name;
	} forms[] = {
		{ PTX_TY(F16), 2, ".v2.f16" }, { PTX_TY(F16), 4, ".v4.f16" },
		{ PTX_TY(F16), 8, ".v8.f16" }, { PTX_TY(F16X2), 2, ".v2.f16x2" },
		{ PTX_TY(F16X2), 4, ".v4.f16x2" },
		{ PTX_TY(BF16), 2, ".v2.bf16" }, { PTX_TY(BF16), 4, ".v4.bf16" },
		{ PTX_TY(BF16), 8, ".v8.bf16" }, { PTX_TY(BF16X2), 2, ".v2.bf16x2" },
		{ PTX_TY(BF16X2), 4, ".v4.bf16x2" },
	};
	static const __u8 ops[] = { PTX_OP(ADD), PTX_OP(MIN), PTX_OP(MAX) };
	/* [bf16][special] */
	static const struct vt_half_el *const sets[2][2] = {
		{ vt_f16_vec, vt_f16_vec_special },
		{ vt_bf16_vec, vt_bf16_vec_special },
	};
	struct vt_ptx_row rows[VT_ARRAY_SIZE(forms) * 3 * 2 * 2];
	__u32 f, o, k, n = 0;
	int fd;

	VT_OPEN(fd);
	for (k = 0; k < 4; k++)
		vt_half8_check(_metadata, sets[k / 2][k % 2], k / 2);
	for (f = 0; f < VT_ARRAY_SIZE(forms); f++) {
		bool bf = forms[f].type == PTX_TY(BF16) ||
			  forms[f].type == PTX_TY(BF16X2);

		for (o = 0; o < VT_ARRAY_SIZE(ops); o++) {
			for (k = 0; k < 2; k++) {
				const struct vt_half_el *t = sets[bf][k];

				/* From element 0, and from element 1, 3, 5 or 7. */
				vt_half_row(&rows[n++], forms[f].name, ops[o],
					    forms[f].type, forms[f].vec, t, 0);
				vt_half_row(&rows[n++], forms[f].name, ops[o],
					    forms[f].type, forms[f].vec, t,
					    1 + 2 * (o + k));
			}
		}
	}
	vt_ptx_rows(_metadata, fd, rows, n);
	close(fd);
}

/*
 * .v2/.v4 add.f32 (no .noftz in that syntax: global, so flushed), on
 * .global and generic, from the scalar f32 table's rows.
 */
TEST(ptx_f32_vectors)
{
	struct vt_ptx_row rows[2 * VT_ARRAY_SIZE(vt_f32_add_rows)];
	__u32 i, e, n = 0, nrows = VT_ARRAY_SIZE(vt_f32_add_rows);
	int fd;

	VT_OPEN(fd);
	for (i = 0; i < nrows; i++) {
		__u8 vec = i & 1 ? 4 : 2;
		struct vt_ptx_row *r;

		r = vt_ptx_row(&rows[n++], vec == 2 ? "add.v2.f32" : "add.v4.f32",
			       PTX_OP(ADD), PTX_TY(F32), vec,
			       i & 2 ? PTX_GENERIC : PTX_GLOBAL, 0);
		for (e = 0; e < vec; e++) {
			__u32 j = (i + e) % nrows;
			__u32 a = vt_f32_add_rows[j].a, b = vt_f32_add_rows[j].b;

			ASSERT_EQ(vt_host_f32_add(a, b, true), vt_f32_add_rows[j].ftz);
			r->old[e / 2] |= (__u64)a << (32 * (e % 2));
			r->b[e / 2] |= (__u64)b << (32 * (e % 2));
			r->want[e / 2] |= (__u64)vt_f32_add_rows[j].ftz << (32 * (e % 2));
		}
	}
	vt_ptx_rows(_metadata, fd, rows, n);
	close(fd);
}

/* --- qualifiers ---------------------------------------------------------------- */

/*
 * Every space x sem x scope (64 combinations) is accepted and works: one
 * add.u32 1 on a counter each, returning 0, 1, 2, ... in stream order; an
 * exch.b32 and a cas.b32 in each space.
 */
TEST(ptx_space_sem_scope)
{
	struct drm_vatom_binding bind = { .slot = 5 };
	__u64 res[64 + 8];
	struct drm_vatom_ptx p;
	struct vt_stream s;
	__u32 i, *map;
	int fd;

	VT_OPEN(fd);
	VT_BUFFER(fd, 4096, bind.handle, map);
	memset(map, 0, 4096);
	vt_stream_init(&s);
	for (i = 0; i < 64; i++) {
		vt_ptx_init(&p, PTX_OP(ADD), PTX_TY(U32), 0, i & 3, 64);
		p.sem = (i >> 2) & 3;
		p.scope = i >> 4;
		p.slot = 5;
		p.b[0] = 1;
		vt_add_ptx(&s, &p);
	}
	for (i = 0; i < 4; i++) {
		vt_ptx_init(&p, PTX_OP(EXCH), PTX_TY(B32), 0, i, 128 + 8 * i);
		p.sem = DRM_VATOM_PTX_SEM_ACQ_REL;
		p.scope = DRM_VATOM_PTX_SCOPE_SYS;
		p.slot = 5;
		p.b[0] = 0x100 + i;
		vt_add_ptx(&s, &p);
		vt_ptx_init(&p, PTX_OP(CAS), PTX_TY(B32), 0, i, 128 + 8 * i);
		p.sem = DRM_VATOM_PTX_SEM_ACQUIRE;
		p.scope = DRM_VATOM_PTX_SCOPE_CTA;
		p.slot = 5;
		p.b[0] = 0x100 + i;
		p.c[0] = 0x200 + i;
		vt_add_ptx(&s, &p);
	}
	memset(res, VT_POISON, sizeof(res));
	vt_expect_ok(_metadata, fd, &s, &bind, 1, res, sizeof(res));
	for (i = 0; i < 64; i++) {
		EXPECT_EQ(i, res[i]) TH_LOG("space %u sem %u scope %u", i & 3,
					    (i >> 2) & 3, i >> 4);
	}
	EXPECT_EQ(64, map[16]);
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(0, res[64 + 2 * i]);
		EXPECT_EQ(0x100 + i, res[64 + 2 * i + 1]);
		EXPECT_EQ(0x200 + i, map[32 + 2 * i]);
	}
	munmap(map, 4096);
	close(fd);
}

/*
 * .L2::cache_hint: accepted on .global and generic with any policy value
 * (it is a hint and changes nothing), on scalar, b128 exch and vector
 * forms.
 */
TEST(ptx_cache_hint)
{
	static const struct vt_ptx_row rows[] = {
		{ "add.L2::cache_hint.u32", PTX_OP(ADD), PTX_TY(U32), 0, PTX_GLOBAL,
		  PTX_HINT, 0, { 1 }, { 2 }, { 0 }, { 3 } },
		{ "exch.L2::cache_hint.b64", PTX_OP(EXCH), PTX_TY(B64), 0, PTX_GENERIC,
		  PTX_HINT, 0, { 1 }, { 2 }, { 0 }, { 2 } },
		{ "exch.L2::cache_hint.b128", PTX_OP(EXCH), PTX_TY(B128), 0, PTX_GLOBAL,
		  PTX_HINT, 0, { 1, 2 }, { 3, 4 }, { 0 }, { 3, 4 } },
		{ "add.noftz.L2::cache_hint.f16", PTX_OP(ADD), PTX_TY(F16), 0,
		  PTX_GENERIC, PTX_HINT | PTX_NOFTZ, 2, { 0x3c00 }, { 0x3c00 }, { 0 },
		  { 0x4000 } },
		{ "add.L2::cache_hint.v2.f32", PTX_OP(ADD), PTX_TY(F32), 2, PTX_GLOBAL,
		  PTX_HINT, 0, { W2(0x3f800000, 0x40000000) },
		  { W2(0x3f800000, 0x40000000) }, { 0 },
		  { W2(0x40000000, 0x40800000) } },
		{ "max.noftz.L2::cache_hint.v8.bf16", PTX_OP(MAX), PTX_TY(BF16), 8,
		  PTX_GLOBAL, PTX_HINT | PTX_NOFTZ, 0,
		  { H4(0x3f80, 0xbf80, 0, 0x8000), H4(1, 2, 3, 4) },
		  { H4(0x4000, 0xc000, 0x8000, 0), H4(4, 3, 2, 1) }, { 0 },
		  { H4(0x4000, 0xbf80, 0, 0), H4(4, 3, 3, 4) } },
		{ "min.L2::cache_hint.u32", PTX_OP(MIN), PTX_TY(U32), 0, PTX_GLOBAL, PTX_HINT, 0,
		  { 9 }, { 7 }, { 0 }, { 7 } },
	};
	struct drm_vatom_binding bind = { .slot = 0 };
	struct drm_vatom_ptx p;
	struct vt_stream s;
	__u64 res[2];
	__u32 *map;
	int fd;

	VT_OPEN(fd);
	vt_ptx_rows(_metadata, fd, rows, VT_ARRAY_SIZE(rows));
	/* The policy operand's value does not matter. */
	VT_BUFFER(fd, 4096, bind.handle, map);
	memset(map, 0, 4096);
	vt_stream_init(&s);
	vt_ptx_init(&p, PTX_OP(ADD), PTX_TY(U32), 0, PTX_GLOBAL, 8);
	p.flags = PTX_HINT;
	p.cache_policy = ~0ull;
	p.b[0] = 5;
	vt_add_ptx(&s, &p);
	p.cache_policy = 0;
	vt_add_ptx(&s, &p);
	memset(res, VT_POISON, sizeof(res));
	vt_expect_ok(_metadata, fd, &s, &bind, 1, res, sizeof(res));
	EXPECT_EQ(0, res[0]);
	EXPECT_EQ(5, res[1]);
	EXPECT_EQ(10, map[2]);
	munmap(map, 4096);
	close(fd);
}

/* --- rejections ------------------------------------------------------------------ */

/**
 * struct vt_ptx_pkt - one packet, field by field
 * @what: for the log
 * @op, @type, ... @c: the packet's fields (vt_ptx_pkt() builds it)
 * @size: when not 0, the header's size (the packet is zero-extended to it)
 * @reason: DRM_VATOM_ERR_* it is rejected for
 */
struct vt_ptx_pkt {
	const char *what;
	__u8 op, type, vec, space, sem, scope, slot, pad;
	__u32 flags, pad2;
	__u64 addr, cache_policy, b[2], c[2];
	__u32 size;
	__u32 reason;
};

static void vt_ptx_pkt(struct drm_vatom_ptx *p, const struct vt_ptx_pkt *r)
{
	vt_ptx_init(p, r->op, r->type, r->vec, r->space, r->addr);
	p->sem = r->sem;
	p->scope = r->scope;
	p->slot = r->slot;
	p->pad = r->pad;
	p->flags = r->flags;
	p->pad2 = r->pad2;
	p->cache_policy = r->cache_policy;
	memcpy(p->b, r->b, sizeof(p->b));
	memcpy(p->c, r->c, sizeof(p->c));
}

/* A rejected packet on .generic (space 0), slot 0: op, type and the rest. */
#define BADF(w, o, t, r, ...) \
	{ .what = w, .op = o, .type = t, .reason = DRM_VATOM_ERR_##r, __VA_ARGS__ }
/* The same with the op, type, vector length, space, flags and address. */
#define BAD(w, o, t, v, sp, fl, a, r) \
	BADF(w, PTX_OP(o), PTX_TY(t), r, .vec = v, .space = sp, .flags = fl, \
	     .addr = a)

static const struct vt_ptx_pkt vt_ptx_bad_rows[] = {
	/* reserved fields and flag bits */
	BADF("pad", PTX_OP(ADD), PTX_TY(U32), RESERVED, .pad = 1),
	BADF("pad2", PTX_OP(ADD), PTX_TY(U32), RESERVED, .pad2 = 1),
	BAD("flag bit 2", ADD, U32, 0, PTX_GLOBAL, 1u << 2, 0, RESERVED),
	BAD("flag bit 31", ADD, U32, 0, PTX_GLOBAL, 1u << 31, 0, RESERVED),
	BADF("policy without hint", PTX_OP(ADD), PTX_TY(U32), RESERVED, .cache_policy = 1),
	BADF("c for add", PTX_OP(ADD), PTX_TY(U32), RESERVED, .c[0] = 1),
	BADF("c[1] for exch.b128", PTX_OP(EXCH), PTX_TY(B128), RESERVED, .c[1] = 1),
	BADF("b past u32", PTX_OP(ADD), PTX_TY(U32), RESERVED, .b[0] = 0x100000000ull),
	BADF("b[1] for u64", PTX_OP(ADD), PTX_TY(U64), RESERVED, .b[1] = 1),
	BADF("b past b16", PTX_OP(CAS), PTX_TY(B16), RESERVED, .b[0] = 0x10000),
	BADF("c past b16", PTX_OP(CAS), PTX_TY(B16), RESERVED, .c[0] = 0x10000),
	BADF("b past .v2.f16", PTX_OP(ADD), PTX_TY(F16), RESERVED,
	     .vec = 2, .flags = PTX_NOFTZ, .b[0] = 0x100000000ull),
	BADF("b[1] for .v2.f32", PTX_OP(ADD), PTX_TY(F32), RESERVED, .vec = 2, .b[1] = 1),
	/* op and type codes */
	BADF("op 0", 0, PTX_TY(U32), OP),
	BADF("op 11", 11, PTX_TY(U32), OP),
	BADF("op 255", 255, PTX_TY(U32), OP),
	BADF("type 0", PTX_OP(ADD), 0, TYPE),
	BADF("type 15", PTX_OP(ADD), 15, TYPE),
	BADF("type 255", PTX_OP(ADD), 255, TYPE),
	/* op x type in no form */
	BAD("add.b32", ADD, B32, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("add.b64", ADD, B64, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("add.b16", ADD, B16, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("add.b128", ADD, B128, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("add.s64", ADD, S64, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("and.u32", AND, U32, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("or.s64", OR, S64, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("xor.f16", XOR, F16, 0, PTX_GLOBAL, PTX_NOFTZ, 0, TYPE),
	BAD("and.b16", AND, B16, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("and.b128", AND, B128, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("exch.b16", EXCH, B16, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("exch.f32", EXCH, F32, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("exch.u32", EXCH, U32, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("cas.u32", CAS, U32, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("cas.f16", CAS, F16, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("inc.s32", INC, S32, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("inc.u64", INC, U64, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("dec.u64", DEC, U64, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("dec.b32", DEC, B32, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("min.f32", MIN, F32, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("max.f64", MAX, F64, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("min.b32", MIN, B32, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("min.v2.f32", MIN, F32, 2, PTX_GLOBAL, 0, 0, TYPE),
	/* space, sem, scope past their ranges */
	BAD("space 4", ADD, U32, 0, 4, 0, 0, QUALIFIER),
	BAD("space 255", ADD, U32, 0, 255, 0, 0, QUALIFIER),
	BADF("sem 4", PTX_OP(ADD), PTX_TY(U32), QUALIFIER, .sem = 4),
	BADF("scope 4", PTX_OP(ADD), PTX_TY(U32), QUALIFIER, .scope = 4),
	BADF("scope 255", PTX_OP(ADD), PTX_TY(U32), QUALIFIER, .scope = 255),
	/* vector lengths and forms */
	BAD(".v1", ADD, F32, 1, PTX_GLOBAL, 0, 0, QUALIFIER),
	BAD(".v3", ADD, F32, 3, PTX_GLOBAL, 0, 0, QUALIFIER),
	BAD(".v6.f16", ADD, F16, 6, PTX_GLOBAL, PTX_NOFTZ, 0, QUALIFIER),
	BAD(".v16.f16", ADD, F16, 16, PTX_GLOBAL, PTX_NOFTZ, 0, QUALIFIER),
	BAD(".v8.f32", ADD, F32, 8, PTX_GLOBAL, 0, 0, QUALIFIER),
	BAD(".v8.f16x2", ADD, F16X2, 8, PTX_GLOBAL, PTX_NOFTZ, 0, QUALIFIER),
	BAD(".v8.bf16x2", MAX, BF16X2, 8, PTX_GLOBAL, PTX_NOFTZ, 0, QUALIFIER),
	BAD(".v2.u32", ADD, U32, 2, PTX_GLOBAL, 0, 0, QUALIFIER),
	BAD(".v2.b32", EXCH, B32, 2, PTX_GLOBAL, 0, 0, QUALIFIER),
	BAD(".v2.f64", ADD, F64, 2, PTX_GLOBAL, 0, 0, QUALIFIER),
	BAD(".v2.b16 cas", CAS, B16, 2, PTX_GLOBAL, 0, 0, QUALIFIER),
	BAD("scalar min.f16", MIN, F16, 0, PTX_GLOBAL, PTX_NOFTZ, 0, QUALIFIER),
	BAD("scalar max.bf16", MAX, BF16, 0, PTX_GLOBAL, PTX_NOFTZ, 0, QUALIFIER),
	BAD("scalar max.bf16x2", MAX, BF16X2, 0, PTX_GLOBAL, PTX_NOFTZ, 0, QUALIFIER),
	BAD("scalar min.f16x2", MIN, F16X2, 0, PTX_GLOBAL, PTX_NOFTZ, 0, QUALIFIER),
	BAD(".v2.f32 shared::cta", ADD, F32, 2, PTX_SH_CTA, 0, 0, QUALIFIER),
	BAD(".v4.f16 shared::cluster", ADD, F16, 4, PTX_SH_CLU, PTX_NOFTZ, 0, QUALIFIER),
	BAD(".v2.bf16x2 shared::cta", MIN, BF16X2, 2, PTX_SH_CTA, PTX_NOFTZ, 0,
	    QUALIFIER),
	/* .noftz: required on half types, allowed only on scalar f32 */
	BAD("add.f16", ADD, F16, 0, PTX_GLOBAL, 0, 0, QUALIFIER),
	BAD("add.bf16", ADD, BF16, 0, PTX_GLOBAL, 0, 0, QUALIFIER),
	BAD("add.f16x2", ADD, F16X2, 0, PTX_SH_CTA, 0, 0, QUALIFIER),
	BAD("add.bf16x2", ADD, BF16X2, 0, PTX_GLOBAL, 0, 0, QUALIFIER),
	BAD("max.v8.f16", MAX, F16, 8, PTX_GLOBAL, 0, 0, QUALIFIER),
	BAD("add.noftz.u32", ADD, U32, 0, PTX_GLOBAL, PTX_NOFTZ, 0, QUALIFIER),
	BAD("add.noftz.f64", ADD, F64, 0, PTX_GLOBAL, PTX_NOFTZ, 0, QUALIFIER),
	BAD("cas.noftz.b32", CAS, B32, 0, PTX_GLOBAL, PTX_NOFTZ, 0, QUALIFIER),
	BAD("min.noftz.s64", MIN, S64, 0, PTX_GLOBAL, PTX_NOFTZ, 0, QUALIFIER),
	BAD("add.noftz.v2.f32", ADD, F32, 2, PTX_GLOBAL, PTX_NOFTZ, 0, QUALIFIER),
	BAD("add.noftz.v4.f32", ADD, F32, 4, PTX_GENERIC, PTX_NOFTZ, 0, QUALIFIER),
	/* cache hint: .global (generic) only, never on cas */
	BAD("hint shared::cta", ADD, U32, 0, PTX_SH_CTA, PTX_HINT, 0, QUALIFIER),
	BAD("hint shared::cluster", EXCH, B128, 0, PTX_SH_CLU, PTX_HINT, 0, QUALIFIER),
	BAD("hint cas.b32", CAS, B32, 0, PTX_GLOBAL, PTX_HINT, 0, QUALIFIER),
	BAD("hint cas.b16", CAS, B16, 0, PTX_GENERIC, PTX_HINT, 0, QUALIFIER),
	BAD("hint cas.b128", CAS, B128, 0, PTX_GLOBAL, PTX_HINT, 0, QUALIFIER),
	/* slot and surface */
	BADF("slot unbound", PTX_OP(ADD), PTX_TY(U32), SLOT, .slot = 9),
	BADF("slot 255 unbound", PTX_OP(ADD), PTX_TY(U32), SLOT, .slot = 255),
	BADF("typed surface", PTX_OP(ADD), PTX_TY(U32), SURFACE_KIND, .slot = 2),
	/* natural alignment of the whole access */
	BAD("b16 at 1", CAS, B16, 0, PTX_GLOBAL, 0, 1, ALIGN),
	BAD("f16 at 3", ADD, F16, 0, PTX_GLOBAL, PTX_NOFTZ, 3, ALIGN),
	BAD("b32 at 2", EXCH, B32, 0, PTX_GLOBAL, 0, 2, ALIGN),
	BAD("f16x2 at 2", ADD, F16X2, 0, PTX_GLOBAL, PTX_NOFTZ, 2, ALIGN),
	BAD("u64 at 4", ADD, U64, 0, PTX_GLOBAL, 0, 4, ALIGN),
	BAD("f64 at 12", ADD, F64, 0, PTX_GLOBAL, 0, 12, ALIGN),
	BAD("b128 at 8", EXCH, B128, 0, PTX_GLOBAL, 0, 8, ALIGN),
	BAD("b128 at 4", CAS, B128, 0, PTX_GLOBAL, 0, 4, ALIGN),
	BAD(".v2.f16 at 2", ADD, F16, 2, PTX_GLOBAL, PTX_NOFTZ, 2, ALIGN),
	BAD(".v4.f16 at 4", ADD, F16, 4, PTX_GLOBAL, PTX_NOFTZ, 4, ALIGN),
	BAD(".v8.f16 at 8", MIN, F16, 8, PTX_GLOBAL, PTX_NOFTZ, 8, ALIGN),
	BAD(".v2.f32 at 4", ADD, F32, 2, PTX_GLOBAL, 0, 4, ALIGN),
	BAD(".v4.f32 at 8", ADD, F32, 4, PTX_GLOBAL, 0, 8, ALIGN),
	BAD(".v2.bf16x2 at 4", MAX, BF16X2, 2, PTX_GLOBAL, PTX_NOFTZ, 4, ALIGN),
	BAD(".v4.bf16x2 at 8", ADD, BF16X2, 4, PTX_GLOBAL, PTX_NOFTZ, 8, ALIGN),
	/* misaligned and out of bounds: the alignment is reported */
	BAD("b32 at 4098", EXCH, B32, 0, PTX_GLOBAL, 0, 4098, ALIGN),
	/* out of bounds (the surface is 4096 bytes) */
	BAD("b32 at 4096", EXCH, B32, 0, PTX_GLOBAL, 0, 4096, BOUNDS),
	BAD("b16 at 4096", CAS, B16, 0, PTX_GLOBAL, 0, 4096, BOUNDS),
	BAD("b128 at 4096", EXCH, B128, 0, PTX_GLOBAL, 0, 4096, BOUNDS),
	BAD(".v8.bf16 at 4096", ADD, BF16, 8, PTX_GLOBAL, PTX_NOFTZ, 4096, BOUNDS),
	BAD("u64 at 2^40", ADD, U64, 0, PTX_GLOBAL, 0, 1ull << 40, BOUNDS),
	BAD("b128 at 2^64 - 16", EXCH, B128, 0, PTX_GLOBAL, 0, ~0ull - 15, BOUNDS),
	BAD("u32 at 2^64 - 4", ADD, U32, 0, PTX_GLOBAL, 0, ~0ull - 3, BOUNDS),
	/* the order of the checks: the first failing one is reported */
	BADF("pad and op 0", 0, PTX_TY(U32), RESERVED, .pad = 1),
	BADF("op 0 and type 0", 0, 0, OP),
	BAD("add.b32 in space 4", ADD, B32, 0, 4, 0, 0, TYPE),
	BAD("space 4 and no .noftz", ADD, F16, 0, 4, 0, 0, QUALIFIER),
	BADF("space 4 and policy", PTX_OP(ADD), PTX_TY(U32), QUALIFIER,
	     .space = 4, .cache_policy = 1),
	BADF("c and unbound slot", PTX_OP(ADD), PTX_TY(U32), RESERVED, .slot = 9, .c[0] = 1),
	BADF("unbound and misaligned", PTX_OP(ADD), PTX_TY(U32), SLOT, .slot = 9, .addr = 2),
	BADF("typed and misaligned", PTX_OP(ADD), PTX_TY(U32), SURFACE_KIND, .slot = 2, .addr = 2),
	/* packet sizes */
	BADF("size 64", PTX_OP(ADD), PTX_TY(U32), PACKET_SIZE, .size = 64),
	BADF("size 80", PTX_OP(ADD), PTX_TY(U32), PACKET_SIZE, .size = 80),
	BADF("size 8", PTX_OP(ADD), PTX_TY(U32), PACKET_SIZE, .size = 8),
};

/*
 * Every rejection reason, each packet at index 1 after a valid add.u32 at
 * index 0 that must not run: -EINVAL, the reason, nothing written. Slot 0
 * is a 4096-byte buffer, slot 2 a typed surface.
 */
TEST(ptx_rejected)
{
	const struct drm_vatom_typed_desc td = {
		.dim = DRM_VATOM_TYPED_1D, .format = DRM_VATOM_FORMAT_R32,
		.width = 16, .height = 1, .depth = 1, .array_size = 1, .levels = 1,
	};
	struct drm_vatom_binding bind[2];
	struct drm_vatom_ptx p;
	struct vt_stream s;
	__u32 *map, *tmap, i, p0;
	int fd;

	VT_OPEN(fd);
	memset(bind, 0, sizeof(bind));
	VT_BUFFER(fd, 4096, bind[0].handle, map);
	memset(map, 0, 4096);
	bind[1].slot = 2;
	ASSERT_EQ(0, vt_typed_create(fd, &td, &bind[1].handle, NULL));
	tmap = vt_map(fd, bind[1].handle, 4096);
	ASSERT_NE(NULL, tmap);

	vt_stream_init(&s);
	vt_ptx_init(&p, PTX_OP(ADD), PTX_TY(U32), 0, PTX_GLOBAL, 0);
	p.b[0] = 1;
	vt_add_ptx(&s, &p);
	p0 = s.size;
	for (i = 0; i < VT_ARRAY_SIZE(vt_ptx_bad_rows); i++) {
		const struct vt_ptx_pkt *r = &vt_ptx_bad_rows[i];
		struct drm_vatom_ptx *q;

		s.size = p0;
		s.count = 1;
		vt_ptx_pkt(&p, r);
		q = vt_add_raw(&s, &p, sizeof(p));
		if (r->size) {
			q->hdr.size = r->size;
			/* A longer packet: zeros after it, inside the stream. */
			if (r->size > sizeof(p)) {
				memset((char *)s.buf + s.size, 0, r->size - sizeof(p));
				s.size += r->size - sizeof(p);
			}
		}
		vt_expect_reject(_metadata, fd, &s, bind, 2, EINVAL, 1, r->reason);
		EXPECT_EQ(0, map[0]) TH_LOG("%s: rejected but packet 0 ran", r->what);
		if (!_metadata->passed) {
			TH_LOG("failed at row %u: %s", i, r->what);
			break;
		}
	}
	EXPECT_EQ(-1, vt_find_ne32(map, 0, 1024, 0));
	EXPECT_EQ(-1, vt_find_ne32(tmap, 0, 16, 0));
	munmap(tmap, 4096);
	munmap(map, 4096);
	close(fd);
}

/*
 * Bounds at the end of a surface whose size is not a multiple of 4 (98
 * bytes): the last in-bounds b16 (96), u32 (92), b64 (80) and b128 (64)
 * work and touch nothing past byte 97; b16 at 98 and u32, b64, b128 and
 * .v8.f16 at 96 (all aligned) are ERR_BOUNDS.
 */
TEST(ptx_bounds_edge)
{
	/* The last b16, b32, b64 and b128 in bounds: cas, then exch. */
	static const struct vt_ptx_pkt fit[] = {
		{ .op = PTX_OP(CAS), .type = PTX_TY(B16), .space = PTX_GLOBAL,
		  .addr = 96, .b = { 0x1111 }, .c = { 0x2222 } },
		{ .op = PTX_OP(EXCH), .type = PTX_TY(B32), .space = PTX_GLOBAL,
		  .addr = 92, .b = { 0x33333333 } },
		{ .op = PTX_OP(EXCH), .type = PTX_TY(B64), .space = PTX_GLOBAL,
		  .addr = 80, .b = { 0x4444444444444444 } },
		{ .op = PTX_OP(EXCH), .type = PTX_TY(B128), .space = PTX_GLOBAL,
		  .addr = 64, .b = { 0x5555555555555555, 0x6666666666666666 } },
	};
	/* One element further each: out of bounds, nothing runs. */
	static const struct vt_ptx_pkt past[] = {
		BAD("b16 at 98", CAS, B16, 0, PTX_GLOBAL, 0, 98, BOUNDS),
		BAD("b32 at 96", EXCH, B32, 0, PTX_GLOBAL, 0, 96, BOUNDS),
		BAD("b64 at 96", EXCH, B64, 0, PTX_GLOBAL, 0, 96, BOUNDS),
		BAD("b128 at 96", EXCH, B128, 0, PTX_GLOBAL, 0, 96, BOUNDS),
		BAD(".v8.f16 at 96", ADD, F16, 8, PTX_GLOBAL, PTX_NOFTZ, 96, BOUNDS),
	};
	struct drm_vatom_binding bind = { .slot = 0 };
	struct drm_vatom_ptx p;
	struct vt_stream s;
	__u64 res[6];
	__u32 i;
	__u8 *map;
	int fd;

	VT_OPEN(fd);
	VT_BUFFER(fd, 98, bind.handle, map);
	memset(map, 0x11, 4096);

	vt_stream_init(&s);
	for (i = 0; i < VT_ARRAY_SIZE(fit); i++) {
		vt_ptx_pkt(&p, &fit[i]);
		vt_add_ptx(&s, &p);
	}
	memset(res, VT_POISON, sizeof(res));
	vt_expect_ok(_metadata, fd, &s, &bind, 1, res, sizeof(res));
	EXPECT_EQ(0x1111, res[0]);
	EXPECT_EQ(0x11111111, res[1]);
	EXPECT_EQ(0x1111111111111111, res[2]);
	EXPECT_EQ(0x1111111111111111, res[3]);
	EXPECT_EQ(0x1111111111111111, res[4]);
	EXPECT_EQ(0x2222, vt_rd32(map, 96) & 0xffff);
	EXPECT_EQ(0x33333333, vt_rd32(map, 92));
	EXPECT_EQ(0x4444444444444444, vt_rd64(map, 80));
	EXPECT_EQ(0x6666666666666666, vt_rd64(map, 72));
	EXPECT_EQ(-1, vt_find_ne8(map, 98, 4096, 0x11))
		TH_LOG("bytes past the surface changed");

	/* Each after an add.u32 that must not run either. */
	vt_stream_init(&s);
	vt_ptx_init(&p, PTX_OP(ADD), PTX_TY(U32), 0, PTX_GLOBAL, 0);
	p.b[0] = 1;
	vt_add_ptx(&s, &p);
	for (i = 0; i < VT_ARRAY_SIZE(past); i++) {
		vt_ptx_pkt(&p, &past[i]);
		vt_add_ptx(&s, &p);
		vt_expect_reject(_metadata, fd, &s, &bind, 1, EINVAL, 1,
				 past[i].reason);
		if (!_metadata->passed) {
			TH_LOG("failed at %s", past[i].what);
			break;
		}
		s.size -= sizeof(p);
	}
	EXPECT_EQ(0x2222, vt_rd32(map, 96) & 0xffff);
	EXPECT_EQ(0x11111111, vt_rd32(map, 0));
	munmap(map, 4096);
	close(fd);
}

/*
 * Results into a result surface at an offset: each packet's region (8 or
 * 16 bytes) in stream order, padding written as zero, nothing outside the
 * regions touched; the same stream into user memory gives the same bytes.
 */
TEST(ptx_result_surface)
{
	static const struct vt_ptx_pkt pkts[] = {
		{ .op = PTX_OP(CAS), .type = PTX_TY(B16), .space = PTX_GLOBAL,
		  .addr = 2, .b = { 0x1234 }, .c = { 0xbeef } },
		{ .op = PTX_OP(EXCH), .type = PTX_TY(B128), .space = PTX_SH_CLU,
		  .addr = 16, .b = { 1, 2 } },
		{ .op = PTX_OP(ADD), .type = PTX_TY(F16), .vec = 8, .space = PTX_GLOBAL,
		  .flags = PTX_NOFTZ, .addr = 32,
		  .b = { H4(0x3c00, 0x4000, 0xbc00, 0), H4(0, 0, 0, 0x3c00) } },
		{ .op = PTX_OP(INC), .type = PTX_TY(U32), .space = PTX_SH_CTA,
		  .addr = 64, .b = { 7 } },
	};
	struct drm_vatom_binding bind = { .slot = 0 };
	struct drm_vatom_submit args;
	struct drm_vatom_ptx p;
	struct vt_stream s;
	__u8 *map, *rmap;
	__u64 want[7];
	__u32 i, rh;
	int fd;

	VT_OPEN(fd);
	VT_BUFFER(fd, 4096, bind.handle, map);
	VT_BUFFER(fd, 4096, rh, rmap);
	memset(map, 0, 4096);
	memset(rmap, VT_POISON, 4096);
	/* 0: b16 0x1234 at 2; 16: b128; 32: 8 halves 1.0; 64: u32 7 */
	map[2] = 0x34;
	map[3] = 0x12;
	memset(map + 16, 0x77, 16);
	{
		static const __u16 one[8] = { 0x3c00, 0x3c00, 0x3c00, 0x3c00,
					      0x3c00, 0x3c00, 0x3c00, 0x3c00 };

		memcpy(map + 32, one, 16);
	}
	map[64] = 7;

	vt_stream_init(&s);
	for (i = 0; i < VT_ARRAY_SIZE(pkts); i++) {
		vt_ptx_pkt(&p, &pkts[i]);
		vt_add_ptx(&s, &p);
	}
	ASSERT_EQ(8 + 16 + 16 + 8, s.results);

	vt_submit_args(&args, &s, &bind, 1, NULL, 64);
	args.result_handle = rh;
	args.result_offset = 24;
	ASSERT_EQ(0, vt_submit(fd, &args)) TH_LOG("errno %d reason %u index %u",
						  errno, args.error_reason,
						  args.error_index);
	EXPECT_EQ(48, args.results_needed);
	want[0] = 0x1234;
	want[1] = 0x7777777777777777;
	want[2] = 0x7777777777777777;
	want[3] = H4(0x3c00, 0x3c00, 0x3c00, 0x3c00);
	want[4] = H4(0x3c00, 0x3c00, 0x3c00, 0x3c00);
	want[5] = 7;
	EXPECT_EQ(0, memcmp(rmap + 24, want, 48));
	EXPECT_EQ(-1, vt_find_ne8(rmap, 0, 24, VT_POISON));
	EXPECT_EQ(-1, vt_find_ne8(rmap, 72, 4096, VT_POISON));
	/* Memory: cas stored, exch stored, 1 + {1, 2, -1, 0, ..., 1}, inc wrapped. */
	EXPECT_EQ(0xbeef, vt_rd32(map, 0) >> 16);
	EXPECT_EQ(1, vt_rd64(map, 16));
	EXPECT_EQ(2, vt_rd64(map, 24));
	EXPECT_EQ(H4(0x4000, 0x4200, 0x0000, 0x3c00), vt_rd64(map, 32));
	EXPECT_EQ(H4(0x3c00, 0x3c00, 0x3c00, 0x4000), vt_rd64(map, 40));
	EXPECT_EQ(0, vt_rd32(map, 64));
	munmap(rmap, 4096);
	munmap(map, 4096);
	close(fd);
}
