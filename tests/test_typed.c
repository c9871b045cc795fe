// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Typed surface layout (typed.c): descriptor checks, level offsets and
 * sizes, texel addressing. Every expected number is worked out by hand from
 * the layout rule in docs/semantics-visa.md: levels consecutive from 0,
 * level l has max(1, e >> l) texels in X (and Y for 2D/3D, Z for 3D), array
 * size constant, 4 bytes per texel, texel (x, y, zs) at
 * level_offset[l] + 4 * (x + w_l * (y + h_l * zs)).
 */
#include <errno.h>
#include <string.h>

#include "vatom_engine.h"
#include "typed.h"
#include "vt_test.h"

#define BIG (~0ull)

static struct drm_vatom_typed_desc desc(u32 dim, u32 w, u32 h, u32 d, u32 a,
					u32 levels)
{
	struct drm_vatom_typed_desc t = {
		.dim = dim, .format = DRM_VATOM_FORMAT_R32, .width = w,
		.height = h, .depth = d, .array_size = a, .levels = levels,
	};
	return t;
}

struct layout_case {
	const char *what;
	struct drm_vatom_typed_desc d;
	u32 nlev;
	u64 off[6];
	u64 size;
};

static void test_layouts(void)
{
	static const struct layout_case cases[] = {
		/* 16, 8, 4, 2, 1 texels: 64, 32, 16, 8, 4 bytes. */
		{ "1D 16 x5", { DRM_VATOM_TYPED_1D, 0, 16, 1, 1, 1, 5, 0 },
		  5, { 0, 64, 96, 112, 120 }, 124 },
		/* 17, 8, 4, 2, 1 texels (17 >> 1 = 8). */
		{ "1D 17 x5", { DRM_VATOM_TYPED_1D, 0, 17, 1, 1, 1, 5, 0 },
		  5, { 0, 68, 100, 116, 124 }, 128 },
		{ "1D 1 x1", { DRM_VATOM_TYPED_1D, 0, 1, 1, 1, 1, 1, 0 },
		  1, { 0 }, 4 },
		/* 8x3 slices, 4x3, 2x3, 1x3: 96, 48, 24, 12 bytes. */
		{ "1D_ARRAY 8[3] x4",
		  { DRM_VATOM_TYPED_1D_ARRAY, 0, 8, 1, 1, 3, 4, 0 },
		  4, { 0, 96, 144, 168 }, 180 },
		/* 5x3 = 15, 2x1 = 2, 1x1 = 1 texels. */
		{ "2D 5x3 x3", { DRM_VATOM_TYPED_2D, 0, 5, 3, 1, 1, 3, 0 },
		  3, { 0, 60, 68 }, 72 },
		/* Y is the larger extent: 1x8, 1x4, 1x2, 1x1. */
		{ "2D 1x8 x4", { DRM_VATOM_TYPED_2D, 0, 1, 8, 1, 1, 4, 0 },
		  4, { 0, 32, 48, 56 }, 60 },
		/* 4x2x3 = 24, 2x1x3 = 6, 1x1x3 = 3 texels. */
		{ "2D_ARRAY 4x2[3] x3",
		  { DRM_VATOM_TYPED_2D_ARRAY, 0, 4, 2, 1, 3, 3, 0 },
		  3, { 0, 96, 120 }, 132 },
		/* 4x4x2 = 32, 2x2x1 = 4, 1x1x1 = 1 texels. */
		{ "3D 4x4x2 x3", { DRM_VATOM_TYPED_3D, 0, 4, 4, 2, 1, 3, 0 },
		  3, { 0, 128, 144 }, 148 },
		/* Z is the larger extent: 2x2x8 = 32, 1x1x4, 1x1x2, 1x1x1. */
		{ "3D 2x2x8 x4", { DRM_VATOM_TYPED_3D, 0, 2, 2, 8, 1, 4, 0 },
		  4, { 0, 128, 144, 152 }, 156 },
	};
	u32 i, j;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct layout_case *c = &cases[i];
		struct vatom_typed_layout l;
		int rc = vatom_typed_layout_init(&l, &c->d, BIG);

		VT_EXPECT_EQ_MSG(rc, 0, "%s", c->what);
		VT_EXPECT_EQ_MSG(l.size, c->size, "%s", c->what);
		VT_EXPECT_EQ_MSG(l.levels, c->nlev, "%s", c->what);
		VT_EXPECT_EQ_MSG(l.dim, c->d.dim, "%s", c->what);
		VT_EXPECT_EQ_MSG(l.width, c->d.width, "%s", c->what);
		VT_EXPECT_EQ_MSG(l.height, c->d.height, "%s", c->what);
		VT_EXPECT_EQ_MSG(l.depth, c->d.depth, "%s", c->what);
		VT_EXPECT_EQ_MSG(l.array_size, c->d.array_size, "%s", c->what);
		for (j = 0; j < c->nlev; j++)
			VT_EXPECT_EQ_MSG(l.level_offset[j], c->off[j],
					 "%s level %u", c->what, j);
		/* The size is an exact limit. */
		VT_EXPECT_EQ_MSG(vatom_typed_layout_init(&l, &c->d, c->size), 0,
				 "%s", c->what);
		VT_EXPECT_EQ_MSG(vatom_typed_layout_init(&l, &c->d,
							 c->size - 1),
				 -E2BIG, "%s", c->what);
	}
}

static void test_level_limits(void)
{
	struct vatom_typed_layout l;
	struct drm_vatom_typed_desc d;

	/* floor(log2(16)) + 1 = 5 levels at most. */
	d = desc(DRM_VATOM_TYPED_1D, 16, 1, 1, 1, 6);
	VT_EXPECT_EQ(vatom_typed_layout_init(&l, &d, BIG), -EINVAL);
	/* 31: floor(log2) = 4, so 5 levels fit, 6 do not. */
	d = desc(DRM_VATOM_TYPED_1D, 31, 1, 1, 1, 5);
	VT_EXPECT_EQ(vatom_typed_layout_init(&l, &d, BIG), 0);
	d.levels = 6;
	VT_EXPECT_EQ(vatom_typed_layout_init(&l, &d, BIG), -EINVAL);
	/* The largest extent counts, whichever axis it is. */
	d = desc(DRM_VATOM_TYPED_2D, 2, 32, 1, 1, 6);
	VT_EXPECT_EQ(vatom_typed_layout_init(&l, &d, BIG), 0);
	d.levels = 7;
	VT_EXPECT_EQ(vatom_typed_layout_init(&l, &d, BIG), -EINVAL);
	d = desc(DRM_VATOM_TYPED_3D, 1, 1, 4, 1, 3);
	VT_EXPECT_EQ(vatom_typed_layout_init(&l, &d, BIG), 0);
	d.levels = 4;
	VT_EXPECT_EQ(vatom_typed_layout_init(&l, &d, BIG), -EINVAL);
	/* The array size is not an extent. */
	d = desc(DRM_VATOM_TYPED_1D_ARRAY, 1, 1, 1, 64, 2);
	VT_EXPECT_EQ(vatom_typed_layout_init(&l, &d, BIG), -EINVAL);
	/* 2^15 allows 16 levels: the cap; 2^16 would allow 17. */
	d = desc(DRM_VATOM_TYPED_1D, 1u << 15, 1, 1, 1, 16);
	VT_EXPECT_EQ(vatom_typed_layout_init(&l, &d, BIG), 0);
	/* 2^15 + 2^14 + ... + 1 = 2^16 - 1 texels. */
	VT_EXPECT_EQ(l.size, 4ull * 65535);
	VT_EXPECT_EQ(l.level_offset[15], 4ull * 65534);
	d = desc(DRM_VATOM_TYPED_1D, 1u << 16, 1, 1, 1, 17);
	VT_EXPECT_EQ(vatom_typed_layout_init(&l, &d, BIG), -EINVAL);
	d.levels = 0;
	VT_EXPECT_EQ(vatom_typed_layout_init(&l, &d, BIG), -EINVAL);
}

static void test_bad_desc(void)
{
	static const struct {
		const char *what;
		struct drm_vatom_typed_desc d;
	} bad[] = {
		{ "dim 5", { 5, 0, 4, 1, 1, 1, 1, 0 } },
		{ "dim ~0", { ~0u, 0, 4, 1, 1, 1, 1, 0 } },
		{ "format 1", { DRM_VATOM_TYPED_1D, 1, 4, 1, 1, 1, 1, 0 } },
		{ "flags 1", { DRM_VATOM_TYPED_1D, 0, 4, 1, 1, 1, 1, 1 } },
		{ "flags hi", { DRM_VATOM_TYPED_2D, 0, 4, 4, 1, 1, 1,
				1u << 31 } },
		{ "width 0", { DRM_VATOM_TYPED_2D, 0, 0, 4, 1, 1, 1, 0 } },
		{ "height 0", { DRM_VATOM_TYPED_2D, 0, 4, 0, 1, 1, 1, 0 } },
		{ "depth 0", { DRM_VATOM_TYPED_3D, 0, 4, 4, 0, 1, 1, 0 } },
		{ "array 0", { DRM_VATOM_TYPED_2D_ARRAY, 0, 4, 4, 1, 0, 1, 0 } },
		{ "1D height 2", { DRM_VATOM_TYPED_1D, 0, 4, 2, 1, 1, 1, 0 } },
		{ "1D_ARRAY height 2",
		  { DRM_VATOM_TYPED_1D_ARRAY, 0, 4, 2, 1, 2, 1, 0 } },
		{ "1D depth 2", { DRM_VATOM_TYPED_1D, 0, 4, 1, 2, 1, 1, 0 } },
		{ "2D depth 2", { DRM_VATOM_TYPED_2D, 0, 4, 4, 2, 1, 1, 0 } },
		{ "2D_ARRAY depth 2",
		  { DRM_VATOM_TYPED_2D_ARRAY, 0, 4, 4, 2, 2, 1, 0 } },
		{ "1D array 2", { DRM_VATOM_TYPED_1D, 0, 4, 1, 1, 2, 1, 0 } },
		{ "2D array 2", { DRM_VATOM_TYPED_2D, 0, 4, 4, 1, 2, 1, 0 } },
		{ "3D array 2", { DRM_VATOM_TYPED_3D, 0, 4, 4, 4, 2, 1, 0 } },
		{ "levels 0", { DRM_VATOM_TYPED_2D, 0, 4, 4, 1, 1, 0, 0 } },
	};
	u32 i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct vatom_typed_layout l;

		memset(&l, 0x5a, sizeof(l));
		VT_EXPECT_EQ_MSG(vatom_typed_layout_init(&l, &bad[i].d, BIG),
				 -EINVAL, "%s", bad[i].what);
		/* A failed init leaves no half-made layout behind. */
		VT_EXPECT_EQ_MSG(l.size | l.levels | l.width, 0, "%s",
				 bad[i].what);
	}
}

static void test_too_big(void)
{
	struct vatom_typed_layout l;
	struct drm_vatom_typed_desc d;

	/* 4 * (2^32 - 1)^3 does not fit in 64 bits. */
	d = desc(DRM_VATOM_TYPED_3D, ~0u, ~0u, ~0u, 1, 1);
	VT_EXPECT_EQ(vatom_typed_layout_init(&l, &d, BIG), -E2BIG);
	VT_EXPECT_EQ(l.size, 0);
	/* 4 * 2^16 * 2^16 * (2^32 - 1) > 2^64. */
	d = desc(DRM_VATOM_TYPED_2D_ARRAY, 1u << 16, 1u << 16, 1, ~0u, 1);
	VT_EXPECT_EQ(vatom_typed_layout_init(&l, &d, BIG), -E2BIG);
	/* 4 * 2^31 * 2^31 = 2^64: overflows by exactly one. */
	d = desc(DRM_VATOM_TYPED_2D, 1u << 31, 1u << 31, 1, 1, 1);
	VT_EXPECT_EQ(vatom_typed_layout_init(&l, &d, BIG), -E2BIG);
	/* 4 * 2^30 * 2^31 = 2^63 fits ... */
	d = desc(DRM_VATOM_TYPED_2D, 1u << 30, 1u << 31, 1, 1, 1);
	VT_EXPECT_EQ(vatom_typed_layout_init(&l, &d, BIG), 0);
	VT_EXPECT_EQ(l.size, 1ull << 63);
	/* ... but level 1 adds 2^61 more; 2^63 + 2^61 still fits ... */
	d.levels = 2;
	VT_EXPECT_EQ(vatom_typed_layout_init(&l, &d, BIG), 0);
	VT_EXPECT_EQ(l.size, (1ull << 63) + (1ull << 61));
	VT_EXPECT_EQ(l.level_offset[1], 1ull << 63);
	/* ... and with a 2^63 limit it is too big. */
	VT_EXPECT_EQ(vatom_typed_layout_init(&l, &d, 1ull << 63), -E2BIG);
	/* A small surface against a small limit. */
	d = desc(DRM_VATOM_TYPED_1D, 1024, 1, 1, 1, 1);
	VT_EXPECT_EQ(vatom_typed_layout_init(&l, &d, 4095), -E2BIG);
	VT_EXPECT_EQ(vatom_typed_layout_init(&l, &d, 4096), 0);
}

struct texel_case {
	u32 u, v, r, lod;
	int ok;
	u64 off;
};

static void check_texels(const char *what, const struct drm_vatom_typed_desc *d,
			 const struct texel_case *c, u32 count)
{
	struct vatom_typed_layout l;
	u32 i;

	VT_EXPECT_EQ_MSG(vatom_typed_layout_init(&l, d, BIG), 0, "%s", what);
	for (i = 0; i < count; i++) {
		u64 off = 0xdead;
		bool ok = vatom_typed_texel(&l, c[i].u, c[i].v, c[i].r,
					    c[i].lod, &off);

		VT_EXPECT_EQ_MSG(ok, c[i].ok, "%s case %u", what, i);
		if (ok && c[i].ok)
			VT_EXPECT_EQ_MSG(off, c[i].off, "%s case %u", what, i);
	}
}

static void test_texels(void)
{
	struct drm_vatom_typed_desc d;
	/* 2D 5x3, 3 levels: level 1 is 2x1 at 60, level 2 is 1x1 at 68. */
	static const struct texel_case c2d[] = {
		{ 0, 0, 0, 0, 1, 0 },
		{ 4, 2, 0, 0, 1, 4 * (4 + 5 * 2) },
		{ 5, 0, 0, 0, 0, 0 },		/* u = width */
		{ 0, 3, 0, 0, 0, 0 },		/* v = height */
		{ 1, 0, 0, 1, 1, 60 + 4 },
		{ 2, 0, 0, 1, 0, 0 },		/* u = width at level 1 */
		{ 0, 1, 0, 1, 0, 0 },		/* v = height at level 1 */
		{ 0, 0, 0, 2, 1, 68 },
		{ 0, 0, 0, 3, 0, 0 },		/* lod = levels */
		{ 0, 0, 0, ~0u, 0, 0 },
		{ ~0u, 0, 0, 0, 0, 0 },
		{ 0, 0, 7, 0, 1, 0 },		/* R is not used by 2D */
	};
	/* 1D_ARRAY 8 wide, 3 slices, 4 levels (offsets 0, 96, 144, 168). */
	static const struct texel_case c1da[] = {
		{ 7, 2, 0, 0, 1, 4 * (7 + 8 * 2) },
		{ 3, 2, 0, 1, 1, 96 + 4 * (3 + 4 * 2) },
		{ 0, 3, 0, 0, 0, 0 },		/* slice = array size */
		{ 0, 1, 0, 3, 1, 168 + 4 * 1 },
		{ 1, 0, 0, 3, 0, 0 },
	};
	/* 2D_ARRAY 4x2, 3 slices, 3 levels (offsets 0, 96, 120). */
	static const struct texel_case c2da[] = {
		{ 3, 1, 2, 0, 1, 4 * (3 + 4 * (1 + 2 * 2)) },
		{ 1, 0, 2, 1, 1, 96 + 4 * (1 + 2 * (0 + 1 * 2)) },
		{ 0, 0, 3, 0, 0, 0 },		/* slice = array size */
		{ 0, 0, 2, 2, 1, 120 + 4 * 2 },	/* slices do not shrink */
		{ 0, 1, 0, 1, 0, 0 },
	};
	/* 3D 4x4x2, 3 levels (offsets 0, 128, 144). */
	static const struct texel_case c3d[] = {
		{ 3, 3, 1, 0, 1, 4 * (3 + 4 * (3 + 4 * 1)) },
		{ 0, 0, 2, 0, 0, 0 },		/* z = depth */
		{ 1, 1, 0, 1, 1, 128 + 4 * (1 + 2 * 1) },
		{ 0, 0, 1, 1, 0, 0 },		/* depth at level 1 is 1 */
		{ 0, 0, 0, 2, 1, 144 },
	};
	/* 1D 16, 5 levels: V and R are ignored. */
	static const struct texel_case c1d[] = {
		{ 15, 0, 0, 0, 1, 60 },
		{ 16, 0, 0, 0, 0, 0 },
		{ 0, 0, 0, 4, 1, 120 },
		{ 1, 0, 0, 4, 0, 0 },
		{ 3, 9, 9, 1, 1, 64 + 12 },
	};

	d = desc(DRM_VATOM_TYPED_2D, 5, 3, 1, 1, 3);
	check_texels("2D", &d, c2d, sizeof(c2d) / sizeof(c2d[0]));
	d = desc(DRM_VATOM_TYPED_1D_ARRAY, 8, 1, 1, 3, 4);
	check_texels("1D_ARRAY", &d, c1da, sizeof(c1da) / sizeof(c1da[0]));
	d = desc(DRM_VATOM_TYPED_2D_ARRAY, 4, 2, 1, 3, 3);
	check_texels("2D_ARRAY", &d, c2da, sizeof(c2da) / sizeof(c2da[0]));
	d = desc(DRM_VATOM_TYPED_3D, 4, 4, 2, 1, 3);
	check_texels("3D", &d, c3d, sizeof(c3d) / sizeof(c3d[0]));
	d = desc(DRM_VATOM_TYPED_1D, 16, 1, 1, 1, 5);
	check_texels("1D", &d, c1d, sizeof(c1d) / sizeof(c1d[0]));
}

int main(void)
{
	vt_run(test_layouts, "typed: level offsets and sizes by hand");
	vt_run(test_level_limits, "typed: level count limits");
	vt_run(test_bad_desc, "typed: malformed descriptors give -EINVAL");
	vt_run(test_too_big, "typed: sizes beyond the limit or u64 give -E2BIG");
	vt_run(test_texels, "typed: texel offsets and per-coordinate bounds");
	return vt_done();
}
