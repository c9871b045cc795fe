// SPDX-License-Identifier: GPL-2.0
/*
 * PTX atom through the UAPI, floating point: the add.f32 flush rule per
 * space and .noftz, the f16/bf16/f32/f64 scalars, and the .v2/.v4/.v8 and
 * packed x2 vector forms. Every row is checked against the host FPU
 * before it runs (test_ptx.c's host references).
 *
 * Part of vatom_test.c's translation unit, after test_ptx.c (its PTX_*
 * shorthands, host references and running rows); not built alone.
 *
 * Copyright (C) 2026 The vatom developers
 */

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
