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
 * Uses vt_expect_reject() and vt_expect_ok() from vatom_test.c. Floating
 * point is in test_ptx_float.c; qualifiers, rejections, bounds and result
 * surfaces in test_ptx_rules.c.
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
