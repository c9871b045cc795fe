// SPDX-License-Identifier: GPL-2.0
/*
 * TYPED_ATOMIC through the UAPI: typed surfaces of every dimensionality with
 * full mip chains, their sizes and texel byte offsets (worked out by hand
 * from the layout of docs/semantics-visa.md §9 and written here as
 * literals), every integer op in the 32-bit and .16 forms, out-of-bounds
 * lanes per coordinate and per LOD, the V0 rules per dimensionality (seed
 * 001's surface-type table), exec size and mask control, the ops and types
 * TYPED_ATOMIC does not take, and every typed descriptor error with its
 * errno.
 *
 * The op tables are visa_rows.h's (add32, add16, ...): seed 001 lists the
 * same Op codes with the same meaning as seed 000, so the hand-computed
 * rows hold for a texel as for a dword. Packets that only their encoding
 * makes wrong are the typed_reject FIXTURE_VARIANT table, one named case
 * per row; descriptors are one table, walked by typed_desc.
 *
 * Part of vatom_test.c's translation unit (see there); not built alone.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include "visa_rows.h"

#define VT_OPND_UVRL	(DRM_VATOM_VISA_OPND_ADDR | DRM_VATOM_VISA_OPND_V | \
			 DRM_VATOM_VISA_OPND_R | DRM_VATOM_VISA_OPND_LOD)

/*
 * A TYPED_ATOMIC packet description: vt_dword()'s, with 8 lanes, M1, all
 * enabled, on @slot, and @operands (V, R, LOD, Dst) added to its bits.
 */
static void vt_typed(struct vt_visa *v, __u8 op, __u8 type, __u8 slot,
		     __u32 operands, const __u32 *u, const void *src0,
		     const void *src1)
{
	vt_dword(v, op, DRM_VATOM_VISA_EXEC_8, type, u, src0, src1, false);
	v->opcode = DRM_VATOM_VISA_TYPED_ATOMIC;
	v->surface = slot;
	v->emask = 0xff;
	v->operands |= operands;
}

/* The dimensionalities, short for the tables below. */
#define VT_1D		DRM_VATOM_TYPED_1D
#define VT_1DA		DRM_VATOM_TYPED_1D_ARRAY
#define VT_2D		DRM_VATOM_TYPED_2D
#define VT_2DA		DRM_VATOM_TYPED_2D_ARRAY
#define VT_3D		DRM_VATOM_TYPED_3D

/* An R32 descriptor of @w x @h x @d texels, @a slices, @l levels. */
#define VT_DESC(dm, w, h, d, a, l) {					\
	.dim = (dm), .format = DRM_VATOM_FORMAT_R32, .width = (w),	\
	.height = (h), .depth = (d), .array_size = (a), .levels = (l),	\
}

/* Fill @len bytes with dword k = 0x10000000 | (4 * k): a texel's offset. */
static void vt_fill_offsets(__u32 *map, size_t len)
{
	size_t k;

	for (k = 0; k < len / 4; k++)
		map[k] = 0x10000000u | (__u32)(4 * k);
}

/* --- one surface of each dimensionality -------------------------------- */

/**
 * FIXTURE_VARIANT(typed_dim) - a typed surface and hand-computed facts
 * @desc: the descriptor (a full mip chain)
 * @size: its size in bytes, by hand from the layout
 * @level_offset: byte offset of each level, by hand
 * @want_v: V is required (all but 1D); else it must be V0
 * @want_r: R is required (2D_ARRAY, 3D); else it must be V0
 * @u, @v, @r, @lod, @off: eight texels and their byte offsets, by hand
 * @ou, @ov, @orc, @olod: eight lanes each out of bounds in one coordinate
 *	or the level, exactly at the limit (or far past it)
 */
FIXTURE(typed_dim) {
	int fd;
	__u32 h;
	__u64 size;
	__u32 *map;
	struct drm_vatom_binding bind;
};

FIXTURE_VARIANT(typed_dim) {
	struct drm_vatom_typed_desc desc;
	__u64 size;
	__u32 level_offset[5];
	bool want_v, want_r;
	__u32 u[8], v[8], r[8], lod[8], off[8];
	__u32 ou[8], ov[8], orc[8], olod[8];
};

/*
 * 1D, width 16, 5 levels (16, 8, 4, 2, 1 texels): 64 + 32 + 16 + 8 + 4 =
 * 124 bytes. Texel x of level l is at offset[l] + 4x.
 */
FIXTURE_VARIANT_ADD(typed_dim, d1) {
	.desc = VT_DESC(VT_1D, 16, 1, 1, 1, 5),
	.size = 124,
	.level_offset = { 0, 64, 96, 112, 120 },
	.u =   { 0, 15, 0,  7,   3,   1,   0, 5 },
	.lod = { 0,  0, 1,  1,   2,   3,   4, 0 },
	.off = { 0, 60, 64, 92, 108, 116, 120, 20 },
	.ou =   { 16, 8, 4, 2, 1, 0, 0, 0xffffffff },
	.olod = { 0,  1, 2, 3, 4, 5, 0xffffffff, 0 },
};

/*
 * 1D_ARRAY, width 8, 3 slices, 4 levels: 4 * w_l * 3 bytes per level = 96,
 * 48, 24, 12; 180 bytes. Texel (x, slice) is at offset[l] + 4(x + w_l s).
 */
FIXTURE_VARIANT_ADD(typed_dim, d1_array) {
	.desc = VT_DESC(VT_1DA, 8, 1, 1, 3, 4),
	.size = 180,
	.level_offset = { 0, 96, 144, 168 },
	.want_v = true,
	.u =   { 0,  7,  0,  7,   3,   1,   0,   2 },
	.v =   { 0,  0,  1,  2,   2,   1,   2,   1 },
	.lod = { 0,  0,  0,  0,   1,   2,   3,   1 },
	.off = { 0, 28, 32, 92, 140, 156, 176, 120 },
	.ou =   { 8, 4, 0, 0, 1, 0, 0,          2 },
	.ov =   { 0, 0, 3, 3, 0, 0, 0xffffffff, 0 },
	.olod = { 0, 1, 0, 3, 3, 4, 0,          2 },
};

/*
 * 2D, 8 x 4, 4 levels (8x4, 4x2, 2x1, 1x1): 128 + 32 + 8 + 4 = 172 bytes.
 * Texel (x, y) is at offset[l] + 4(x + w_l y).
 */
FIXTURE_VARIANT_ADD(typed_dim, d2) {
	.desc = VT_DESC(VT_2D, 8, 4, 1, 1, 4),
	.size = 172,
	.level_offset = { 0, 128, 160, 168 },
	.want_v = true,
	.u =   { 0,   7,  5,   3,   0,   1,   0,  2 },
	.v =   { 0,   3,  1,   1,   1,   0,   0,  2 },
	.lod = { 0,   0,  0,   1,   1,   2,   3,  0 },
	.off = { 0, 124, 52, 156, 144, 164, 168, 72 },
	/* (8, 0) would wrap to (0, 1); (0, 4) to level 1's first texel. */
	.ou =   { 8, 0, 4, 0, 2, 0, 1, 0 },
	.ov =   { 0, 4, 0, 2, 0, 1, 0, 0 },
	.olod = { 0, 0, 1, 1, 2, 2, 3, 4 },
};

/*
 * 2D_ARRAY, 4 x 4, 2 slices, 3 levels (4x4, 2x2, 1x1, two slices each):
 * 128 + 32 + 8 = 168 bytes. Texel (x, y, s) is at
 * offset[l] + 4(x + w_l (y + h_l s)).
 */
FIXTURE_VARIANT_ADD(typed_dim, d2_array) {
	.desc = VT_DESC(VT_2DA, 4, 4, 1, 2, 3),
	.size = 168,
	.level_offset = { 0, 128, 160 },
	.want_v = true,
	.want_r = true,
	.u =   { 0,   3,  1,  2,   1,   0,   0,   0 },
	.v =   { 0,   3,  2,  1,   1,   1,   0,   0 },
	.r =   { 0,   1,  0,  1,   1,   0,   1,   0 },
	.lod = { 0,   0,  0,  0,   1,   1,   2,   2 },
	.off = { 0, 124, 36, 88, 156, 136, 164, 160 },
	/* (0, 4, 0) would wrap to slice 1; (0, 0, 2) to level 1. */
	.ou =   { 4, 0, 0, 2, 0, 0, 1, 0 },
	.ov =   { 0, 4, 0, 0, 2, 0, 0, 0 },
	.orc =  { 0, 0, 2, 0, 0, 2, 0, 0 },
	.olod = { 0, 0, 0, 1, 1, 1, 2, 3 },
};

/*
 * 3D, 4 x 2 x 8, 4 levels (4x2x8, 2x1x4, 1x1x2, 1x1x1): 256 + 32 + 8 + 4 =
 * 300 bytes. Texel (x, y, z) is at offset[l] + 4(x + w_l (y + h_l z)).
 */
FIXTURE_VARIANT_ADD(typed_dim, d3) {
	.desc = VT_DESC(VT_3D, 4, 2, 8, 1, 4),
	.size = 300,
	.level_offset = { 0, 256, 288, 296 },
	.want_v = true,
	.want_r = true,
	.u =   { 0,   3,   3,   1,   0,   0,   0,  2 },
	.v =   { 0,   1,   1,   0,   0,   0,   0,  1 },
	.r =   { 0,   7,   5,   3,   1,   1,   0,  0 },
	.lod = { 0,   0,   0,   1,   1,   2,   3,  0 },
	.off = { 0, 252, 188, 284, 264, 292, 296, 24 },
	/* (0, 0, 8) would be level 1's first texel. */
	.ou =   { 4, 0, 0, 2, 0, 0, 0, 0 },
	.ov =   { 0, 2, 0, 0, 1, 0, 0, 0 },
	.orc =  { 0, 0, 8, 0, 0, 4, 2, 0 },
	.olod = { 0, 0, 0, 1, 1, 1, 2, 4 },
};

FIXTURE_SETUP(typed_dim)
{
	self->map = NULL;
	self->fd = vt_open();
	if (self->fd == -ENODEV)
		SKIP(return, "no vatom device");
	ASSERT_LE(0, self->fd);
	if (!(vt_caps(self->fd) & DRM_VATOM_CAP_VISA_TYPED_ATOMIC))
		SKIP(return, "TYPED_ATOMIC not implemented");
	ASSERT_EQ(0, vt_typed_create(self->fd, &variant->desc, &self->h,
				     &self->size))
		TH_LOG("create: %s", strerror(errno));
	self->map = vt_map(self->fd, self->h, VT_PAGE_SIZE);
	ASSERT_NE(NULL, self->map);
	self->bind.slot = 7;
	self->bind.handle = self->h;
	self->bind.flags = 0;
	self->bind.pad = 0;
}

FIXTURE_TEARDOWN(typed_dim)
{
	if (self->map)
		munmap(self->map, VT_PAGE_SIZE);
	if (self->fd >= 0)
		close(self->fd);
}

/* The operand bits a correct packet for this surface carries. */
static __u32 vt_dim_operands(const FIXTURE_VARIANT(typed_dim) *variant)
{
	return (variant->want_v ? DRM_VATOM_VISA_OPND_V : 0) |
	       (variant->want_r ? DRM_VATOM_VISA_OPND_R : 0);
}

/* The size SURFACE_CREATE returns and SURFACE_INFO reports is the layout's. */
TEST_F(typed_dim, size)
{
	struct drm_vatom_surface_info info;

	if (!self->map)
		return;
	EXPECT_EQ(variant->size, self->size);
	memset(&info, 0, sizeof(info));
	ASSERT_EQ(0, vt_surface_info(self->fd, self->h, &info));
	EXPECT_EQ(DRM_VATOM_SURFACE_TYPED, info.kind);
	EXPECT_EQ(variant->size, info.size);
	EXPECT_EQ(VT_PAGE_SIZE, info.mmap_size);
	/* A new surface reads as zeros. */
	EXPECT_EQ(-1, vt_find_ne32(self->map, 0, VT_PAGE_SIZE / 4, 0));
}

/*
 * ADD src to eight texels addressed by (U, V, R, LOD): the old value each
 * lane returns is the texel's offset (the fill pattern) and exactly the
 * dwords at the hand-computed offsets change.
 */
TEST_F(typed_dim, texel_offsets)
{
	__u32 src[8], res[8], want[VT_PAGE_SIZE / 4], i;
	struct vt_stream s;
	struct vt_visa v;

	if (!self->map)
		return;
	vt_fill_offsets(self->map, VT_PAGE_SIZE);
	vt_fill_offsets(want, VT_PAGE_SIZE);
	for (i = 0; i < 8; i++) {
		src[i] = 0x100 * (i + 1);
		want[variant->off[i] / 4] += src[i];
	}
	vt_stream_init(&s);
	vt_typed(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_TYPE_UD, 7,
		 vt_dim_operands(variant) | DRM_VATOM_VISA_OPND_LOD |
		 DRM_VATOM_VISA_OPND_DST, variant->u, src, NULL);
	vt_add_visa_coords(&s, &v, variant->v, variant->r, variant->lod);
	ASSERT_EQ(32, s.results);
	memset(res, VT_POISON, sizeof(res));
	vt_expect_ok(_metadata, self->fd, &s, &self->bind, 1, res, sizeof(res));
	for (i = 0; i < 8; i++) {
		EXPECT_EQ(0x10000000u | variant->off[i], res[i])
			TH_LOG("lane %u: (%u, %u, %u) lod %u", i, variant->u[i],
			       variant->v[i], variant->r[i], variant->lod[i]);
	}
	EXPECT_EQ(-1, vt_mismatch32(want, self->map, VT_PAGE_SIZE / 4))
		TH_LOG("dword %ld: 0x%08x, want 0x%08x",
		       vt_mismatch32(want, self->map, VT_PAGE_SIZE / 4),
		       self->map[vt_mismatch32(want, self->map, VT_PAGE_SIZE / 4)],
		       want[vt_mismatch32(want, self->map, VT_PAGE_SIZE / 4)]);
}

/* Texel (0, 0, 0) of every level is the level's first byte. */
TEST_F(typed_dim, level_starts)
{
	__u32 zero[8] = { 0 }, lod[8], res[8], i, n = variant->desc.levels;
	struct vt_stream s;
	struct vt_visa v;

	if (!self->map)
		return;
	vt_fill_offsets(self->map, VT_PAGE_SIZE);
	for (i = 0; i < 8; i++)
		lod[i] = i < n ? i : 0;
	vt_stream_init(&s);
	vt_typed(&v, DRM_VATOM_VISA_OP_INC, DRM_VATOM_VISA_TYPE_UD, 7,
		 vt_dim_operands(variant) | DRM_VATOM_VISA_OPND_LOD |
		 DRM_VATOM_VISA_OPND_DST, zero, NULL, NULL);
	v.emask = (1u << n) - 1;
	vt_add_visa_coords(&s, &v, zero, zero, lod);
	memset(res, VT_POISON, sizeof(res));
	vt_expect_ok(_metadata, self->fd, &s, &self->bind, 1, res, sizeof(res));
	for (i = 0; i < 8; i++) {
		if (i >= n) {
			EXPECT_EQ(VT_POISON32, res[i]) TH_LOG("disabled lane %u", i);
			continue;
		}
		EXPECT_EQ(0x10000000u | variant->level_offset[i], res[i])
			TH_LOG("level %u", i);
		EXPECT_EQ(0x10000001u | variant->level_offset[i],
			  self->map[variant->level_offset[i] / 4]);
	}
}

/* Without the LOD operand every lane addresses level 0. */
TEST_F(typed_dim, lod_absent)
{
	__u32 src[8], res[8], want[VT_PAGE_SIZE / 4], i;
	struct vt_stream s;
	struct vt_visa v;

	if (!self->map)
		return;
	vt_fill_offsets(self->map, VT_PAGE_SIZE);
	vt_fill_offsets(want, VT_PAGE_SIZE);
	vt_stream_init(&s);
	vt_typed(&v, DRM_VATOM_VISA_OP_XCHG, DRM_VATOM_VISA_TYPE_UD, 7,
		 vt_dim_operands(variant) | DRM_VATOM_VISA_OPND_DST,
		 variant->u, src, NULL);
	v.emask = 0;
	for (i = 0; i < 8; i++) {
		src[i] = 0xabc00000 | i;
		/* The level-0 texels of the table. */
		if (variant->lod[i] == 0) {
			v.emask |= 1u << i;
			want[variant->off[i] / 4] = src[i];
		}
	}
	vt_add_visa_coords(&s, &v, variant->v, variant->r, NULL);
	memset(res, VT_POISON, sizeof(res));
	vt_expect_ok(_metadata, self->fd, &s, &self->bind, 1, res, sizeof(res));
	for (i = 0; i < 8; i++) {
		EXPECT_EQ(variant->lod[i] ? VT_POISON32 : 0x10000000u | variant->off[i],
			  res[i]) TH_LOG("lane %u", i);
	}
	EXPECT_EQ(-1, vt_mismatch32(want, self->map, VT_PAGE_SIZE / 4));
}

/*
 * Out of bounds in one coordinate or in the level: reads return 0, writes
 * are dropped, for XCHG, ADD and CMPXCHG against 0 (what an OOB read
 * gives), 32-bit and .16; in-bounds lanes of the next packet still work.
 * Nothing wraps into a neighbouring row, slice or level.
 */
TEST_F(typed_dim, out_of_bounds)
{
	static const __u8 ops[] = { DRM_VATOM_VISA_OP_XCHG, DRM_VATOM_VISA_OP_ADD,
				    DRM_VATOM_VISA_OP_CMPXCHG,
				    DRM_VATOM_VISA_OP_XCHG | DRM_VATOM_VISA_OP_16,
				    DRM_VATOM_VISA_OP_DEC };
	__u32 src[8], zero[8] = { 0 }, res[48], want[VT_PAGE_SIZE / 4], i, k;
	struct vt_stream s;
	struct vt_visa v;

	if (!self->map)
		return;
	vt_fill_offsets(self->map, VT_PAGE_SIZE);
	vt_fill_offsets(want, VT_PAGE_SIZE);
	for (i = 0; i < 8; i++)
		src[i] = 0xdead0000 | i;
	vt_stream_init(&s);
	for (k = 0; k < VT_ARRAY_SIZE(ops); k++) {
		bool cas = ops[k] == DRM_VATOM_VISA_OP_CMPXCHG;
		bool dec = ops[k] == DRM_VATOM_VISA_OP_DEC;

		vt_typed(&v, ops[k], DRM_VATOM_VISA_TYPE_UD, 7,
			 vt_dim_operands(variant) | DRM_VATOM_VISA_OPND_LOD |
			 DRM_VATOM_VISA_OPND_DST, variant->ou, dec ? NULL : src,
			 cas ? zero : NULL);
		vt_add_visa_coords(&s, &v, variant->ov, variant->orc, variant->olod);
	}
	/* Then the in-bounds texels: XCHG. */
	vt_typed(&v, DRM_VATOM_VISA_OP_XCHG, DRM_VATOM_VISA_TYPE_UD, 7,
		 vt_dim_operands(variant) | DRM_VATOM_VISA_OPND_LOD |
		 DRM_VATOM_VISA_OPND_DST, variant->u, src, NULL);
	vt_add_visa_coords(&s, &v, variant->v, variant->r, variant->lod);
	for (i = 0; i < 8; i++)
		want[variant->off[i] / 4] = src[i];
	ASSERT_EQ(sizeof(res), s.results);

	memset(res, VT_POISON, sizeof(res));
	vt_expect_ok(_metadata, self->fd, &s, &self->bind, 1, res, sizeof(res));
	for (k = 0; k < VT_ARRAY_SIZE(ops); k++) {
		for (i = 0; i < 8; i++) {
			EXPECT_EQ(0, res[8 * k + i])
				TH_LOG("op 0x%x lane %u: (%u, %u, %u) lod %u", ops[k],
				       i, variant->ou[i], variant->ov[i],
				       variant->orc[i], variant->olod[i]);
		}
	}
	for (i = 0; i < 8; i++) {
		EXPECT_EQ(0x10000000u | variant->off[i], res[40 + i])
			TH_LOG("in-bounds lane %u", i);
	}
	EXPECT_EQ(-1, vt_mismatch32(want, self->map, VT_PAGE_SIZE / 4))
		TH_LOG("dword %ld changed",
		       vt_mismatch32(want, self->map, VT_PAGE_SIZE / 4));
}

/*
 * V and R must be present exactly as seed 001's table says for the
 * surface's type (N/A = must be V0): every other combination is
 * ERR_OPERANDS for that packet, and the whole submission does nothing.
 */
TEST_F(typed_dim, v0_rules)
{
	__u32 zero[8] = { 0 }, res[16], combo;
	struct vt_stream s;
	struct vt_visa v;

	if (!self->map)
		return;
	vt_fill_offsets(self->map, VT_PAGE_SIZE);
	for (combo = 0; combo < 4; combo++) {
		bool has_v = combo & 1, has_r = combo & 2;
		__u32 ops = (has_v ? DRM_VATOM_VISA_OPND_V : 0) |
			    (has_r ? DRM_VATOM_VISA_OPND_R : 0);

		vt_stream_init(&s);
		/* Packet 0: valid, INC texel 0 on lane 0. */
		vt_typed(&v, DRM_VATOM_VISA_OP_INC, DRM_VATOM_VISA_TYPE_UD, 7,
			 vt_dim_operands(variant), zero, NULL, NULL);
		v.emask = 1;
		vt_add_visa_coords(&s, &v, zero, zero, NULL);
		/* Packet 1: the combination under test, lane 0 only. */
		vt_typed(&v, DRM_VATOM_VISA_OP_INC, DRM_VATOM_VISA_TYPE_UD, 7,
			 ops | DRM_VATOM_VISA_OPND_DST, zero, NULL, NULL);
		v.emask = 1;
		vt_add_visa_coords(&s, &v, zero, zero, NULL);
		if (has_v == variant->want_v && has_r == variant->want_r) {
			memset(res, VT_POISON, sizeof(res));
			vt_expect_ok(_metadata, self->fd, &s, &self->bind, 1, res,
				     sizeof(res));
			EXPECT_EQ(0x10000001u, res[0]);
			EXPECT_EQ(0x10000002u, self->map[0]);
			self->map[0] = 0x10000000u;
		} else {
			vt_expect_reject(_metadata, self->fd, &s, &self->bind, 1,
					 EINVAL, 1, DRM_VATOM_ERR_OPERANDS);
			EXPECT_EQ(0x10000000u, self->map[0])
				TH_LOG("V %d R %d: rejected but ran", has_v, has_r);
		}
	}
}

/* A level past the full mip chain is a malformed descriptor. */
TEST_F(typed_dim, levels_past_chain)
{
	struct drm_vatom_typed_desc d = variant->desc;
	__u32 h;

	if (!self->map)
		return;
	d.levels++;
	VT_EXPECT_ERRNO(EINVAL, vt_typed_create(self->fd, &d, &h, NULL));
	d.levels = 1;
	ASSERT_EQ(0, vt_typed_create(self->fd, &d, &h, NULL));
	EXPECT_EQ(0, vt_gem_close(self->fd, h));
}

/*
 * A 2D 8 x 4 surface (one level, texel k at byte 4k) at slot 3, mapped, for
 * the op tables and the plain tests below; fills it with the offset
 * pattern.
 */
struct vt_typed2d {
	__u32 h;
	__u32 *map;
	struct drm_vatom_binding bind;
};

static void vt_typed2d(struct __test_metadata *_metadata, int fd,
		       struct vt_typed2d *t)
{
	const struct drm_vatom_typed_desc d = VT_DESC(VT_2D, 8, 4, 1, 1, 1);

	ASSERT_EQ(0, vt_typed_create(fd, &d, &t->h, NULL));
	t->map = vt_map(fd, t->h, VT_PAGE_SIZE);
	ASSERT_NE(NULL, t->map);
	vt_fill_offsets(t->map, VT_PAGE_SIZE);
	memset(&t->bind, 0, sizeof(t->bind));
	t->bind.slot = 3;
	t->bind.handle = t->h;
}

/* --- every integer op, 32-bit and .16 ---------------------------------- */

/*
 * Run @n rows of @op on vt_typed2d()'s surface: 8 rows per packet, row k
 * on texel (k % 8, k / 8). .16: the low half of the texel holds the row's
 * value, the high half 0xa5a5 must stay, the upper 16 bits of each source
 * are garbage that must play no part.
 */
static void vt_typed_table(struct __test_metadata *_metadata, int fd, __u8 op,
			   __u8 type, bool w16, const struct vt_row *rows, __u32 n)
{
	const bool has0 = op != DRM_VATOM_VISA_OP_INC && op != DRM_VATOM_VISA_OP_DEC &&
			  op != DRM_VATOM_VISA_OP_PREDEC;
	const bool has1 = op == DRM_VATOM_VISA_OP_CMPXCHG;
	struct vt_typed2d t;
	__u32 base, i;

	vt_typed2d(_metadata, fd, &t);
	for (base = 0; base < n; base += 8) {
		__u32 cnt = n - base < 8 ? n - base : 8;
		__u32 u[8], vv[8], s0[8], s1[8], res[8];
		struct vt_stream s;
		struct vt_visa v;

		memset(t.map, 0, VT_PAGE_SIZE);
		for (i = 0; i < 8; i++) {
			const struct vt_row *r = &rows[base + (i < cnt ? i : 0)];
			__u32 texel = base + i;

			u[i] = i;
			vv[i] = base / 8;
			s0[i] = (__u32)r->src0;
			s1[i] = (__u32)r->src1;
			if (i >= cnt)
				continue;
			if (w16) {
				t.map[texel] = 0xa5a50000 | (__u16)r->old;
				s0[i] = 0xbeef0000 | (__u16)r->src0;
				s1[i] = 0xdead0000 | (__u16)r->src1;
			} else {
				t.map[texel] = (__u32)r->old;
			}
		}
		vt_stream_init(&s);
		vt_typed(&v, op | (w16 ? DRM_VATOM_VISA_OP_16 : 0), type, 3,
			 DRM_VATOM_VISA_OPND_V | DRM_VATOM_VISA_OPND_DST, u,
			 has0 ? s0 : NULL, has1 ? s1 : NULL);
		v.emask = (1u << cnt) - 1;
		vt_add_visa_coords(&s, &v, vv, NULL, NULL);
		memset(res, VT_POISON, sizeof(res));
		vt_expect_ok(_metadata, fd, &s, &t.bind, 1, res, sizeof(res));
		for (i = 0; i < 8; i++) {
			const struct vt_row *r;
			__u32 mem = t.map[base + i];

			if (i >= cnt) {
				EXPECT_EQ(VT_POISON32, res[i]) TH_LOG("disabled lane %u", i);
				EXPECT_EQ(0, mem) TH_LOG("disabled lane %u wrote", i);
				continue;
			}
			r = &rows[base + i];
			EXPECT_EQ((__u32)r->ret, res[i])
				TH_LOG("op 0x%x%s row %u: old 0x%llx src0 0x%llx src1 0x%llx",
				       op, w16 ? ".16" : "", base + i,
				       (unsigned long long)r->old,
				       (unsigned long long)r->src0,
				       (unsigned long long)r->src1);
			EXPECT_EQ((w16 ? 0xa5a50000 : 0) | (__u32)r->mem, mem)
				TH_LOG("op 0x%x%s row %u", op, w16 ? ".16" : "",
				       base + i);
		}
	}
	munmap(t.map, VT_PAGE_SIZE);
	vt_gem_close(fd, t.h);
}

/* One variant per Op: its 32-bit and .16 tables, indexed by w16. */
FIXTURE(typed_op) {
	int fd;
};

FIXTURE_VARIANT(typed_op) {
	__u8 op;
	__u8 type;
	const struct vt_row *t[2];
	__u32 n[2];
};

#define VT_TYPED_VARIANT(name, o, ty)					\
	FIXTURE_VARIANT_ADD(typed_op, name) {				\
		.op = DRM_VATOM_VISA_OP_##o,				\
		.type = DRM_VATOM_VISA_TYPE_##ty,			\
		.t = { name##32, name##16 },				\
		.n = { VT_ARRAY_SIZE(name##32), VT_ARRAY_SIZE(name##16) }, \
	}

/* Seed 001: IMIN/IMAX take type D, all other operations UD. */
VT_TYPED_VARIANT(add, ADD, UD);
VT_TYPED_VARIANT(sub, SUB, UD);
VT_TYPED_VARIANT(inc, INC, UD);
VT_TYPED_VARIANT(dec, DEC, UD);
VT_TYPED_VARIANT(min, MIN, UD);
VT_TYPED_VARIANT(max, MAX, UD);
VT_TYPED_VARIANT(xchg, XCHG, UD);
VT_TYPED_VARIANT(cmpxchg, CMPXCHG, UD);
VT_TYPED_VARIANT(and, AND, UD);
VT_TYPED_VARIANT(or, OR, UD);
VT_TYPED_VARIANT(xor, XOR, UD);
VT_TYPED_VARIANT(imin, IMIN, D);
VT_TYPED_VARIANT(imax, IMAX, D);
VT_TYPED_VARIANT(predec, PREDEC, UD);

FIXTURE_SETUP(typed_op)
{
	self->fd = vt_open();
	if (self->fd == -ENODEV)
		SKIP(return, "no vatom device");
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(typed_op)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* The variant's 32-bit or .16 table, when VISA_OPS lists the op. */
static void vt_typed_form(struct __test_metadata *_metadata, int fd,
			  const FIXTURE_VARIANT(typed_op) *variant, bool w16)
{
	__u32 form = w16 ? DRM_VATOM_VISA_FORM_TYPED16 :
			   DRM_VATOM_VISA_FORM_TYPED32;

	if (fd < 0)
		return;
	if (!(vt_visa_ops(fd, form) & (1u << variant->op)))
		SKIP(return, "TYPED_ATOMIC%s op %u not implemented",
		     w16 ? ".16" : "", variant->op);
	vt_typed_table(_metadata, fd, variant->op, variant->type, w16,
		       variant->t[w16], variant->n[w16]);
}

TEST_F(typed_op, typed32)
{
	vt_typed_form(_metadata, self->fd, variant, false);
}

TEST_F(typed_op, typed16)
{
	vt_typed_form(_metadata, self->fd, variant, true);
}

/* --- packet rules --------------------------------------------------------- */

/* The op masks: the 14 integer ops, no float op, in both forms. */
TEST(typed_get_param)
{
	int fd;

	VT_OPEN(fd);
	if (!(vt_caps(fd) & DRM_VATOM_CAP_VISA_TYPED_ATOMIC))
		SKIP(close(fd); return, "TYPED_ATOMIC not implemented");
	EXPECT_EQ(0x3fff, vt_visa_ops(fd, DRM_VATOM_VISA_FORM_TYPED32));
	EXPECT_EQ(0x3fff, vt_visa_ops(fd, DRM_VATOM_VISA_FORM_TYPED16));
	close(fd);
}

/*
 * A packet on vt_typed2d()'s surface that only its encoding makes wrong:
 * one variant per encoding, each rejected with -EINVAL at packet 0 for
 * @reason, without touching the surface.
 */
FIXTURE(typed_reject) {
	int fd;
	struct vt_typed2d t;
};

/**
 * FIXTURE_VARIANT(typed_reject) - a TYPED_ATOMIC packet with V and Dst
 * @op: the Op byte
 * @type: the data type
 * @exec: the exec size byte
 * @operands: if not 0, the operand bits (Dst added) in place of those
 *	vt_typed() derives: Src0 unless INC/DEC/PREDEC, Src1 for CMPXCHG
 *	and FCMPWR
 * @reason: the DRM_VATOM_ERR_* expected
 */
FIXTURE_VARIANT(typed_reject) {
	__u8 op, type, exec;
	__u32 operands;
	__u32 reason;
};

#define VT_TYPED_REJECT(name, o, ty, ex, opnd, r)			\
	FIXTURE_VARIANT_ADD(typed_reject, name) {			\
		.op = (o), .type = (ty), .exec = (ex), .operands = (opnd), \
		.reason = DRM_VATOM_ERR_##r,				\
	}
#define VT_EXEC_ROW(name, ex)						\
	VT_TYPED_REJECT(name, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_TYPE_UD, \
			ex, 0, EXEC_SIZE)
#define VT_OP_ROW(name, o, ty)						\
	VT_TYPED_REJECT(name, o, DRM_VATOM_VISA_TYPE_##ty,		\
			DRM_VATOM_VISA_EXEC_8, 0, OP)
#define VT_TYPE_ROW(name, o, ty)					\
	VT_TYPED_REJECT(name, DRM_VATOM_VISA_OP_##o, ty,		\
			DRM_VATOM_VISA_EXEC_8, 0, TYPE)
#define VT_OPND_ROW(name, o, opnd)					\
	VT_TYPED_REJECT(name, DRM_VATOM_VISA_OP_##o, DRM_VATOM_VISA_TYPE_UD, \
			DRM_VATOM_VISA_EXEC_8, opnd, OPERANDS)

#define VT_O_16		DRM_VATOM_VISA_OP_16
#define VT_OPND_AV	(DRM_VATOM_VISA_OPND_ADDR | DRM_VATOM_VISA_OPND_V)

/*
 * TYPED_ATOMIC has exactly 8 lanes ("Performs 8 element ..."): every other
 * size code is ERR_EXEC_SIZE, as are bit 3 and a mask window past bit 31
 * (M8 = bits 28..35, with or without _NM).
 */
VT_EXEC_ROW(exec_1, DRM_VATOM_VISA_EXEC_1);
VT_EXEC_ROW(exec_2, DRM_VATOM_VISA_EXEC_2);
VT_EXEC_ROW(exec_4, DRM_VATOM_VISA_EXEC_4);
VT_EXEC_ROW(exec_16, DRM_VATOM_VISA_EXEC_16);
VT_EXEC_ROW(exec_32, DRM_VATOM_VISA_EXEC_32);
VT_EXEC_ROW(exec_code_6, 6);
VT_EXEC_ROW(exec_code_7, 7);
VT_EXEC_ROW(exec_8_bit3, DRM_VATOM_VISA_EXEC_8 | DRM_VATOM_VISA_EXEC_RESERVED);
VT_EXEC_ROW(exec_8_m8, 0x73);
VT_EXEC_ROW(exec_8_m8_nm, 0xf3);

/*
 * Float ops are "DWORD, SVM" only (seed 000); in TYPED_ATOMIC they are a
 * reserved operation (ERR_OP), with any type and in the .16 form, as are
 * the unassigned codes and Op bits 7..6. The .16 form with a 64-bit type
 * is ERR_OP too (bit 5 has no 64-bit meaning).
 */
VT_OP_ROW(op_fmax, DRM_VATOM_VISA_OP_FMAX, F);
VT_OP_ROW(op_fmin, DRM_VATOM_VISA_OP_FMIN, F);
VT_OP_ROW(op_fcmpwr, DRM_VATOM_VISA_OP_FCMPWR, F);
VT_OP_ROW(op_fmax16, DRM_VATOM_VISA_OP_FMAX | VT_O_16, F);
VT_OP_ROW(op_fmin16, DRM_VATOM_VISA_OP_FMIN | VT_O_16, F);
VT_OP_ROW(op_fcmpwr16, DRM_VATOM_VISA_OP_FCMPWR | VT_O_16, F);
VT_OP_ROW(op_fmax_ud, DRM_VATOM_VISA_OP_FMAX, UD);
VT_OP_ROW(op_0x0e, 0x0e, UD);
VT_OP_ROW(op_0x0f, 0x0f, UD);
VT_OP_ROW(op_0x13, 0x13, UD);
VT_OP_ROW(op_0x1f, 0x1f, UD);
VT_OP_ROW(op_bit6, 0x40, UD);
VT_OP_ROW(op_bit7, 0x80, UD);
VT_OP_ROW(op_add16_uq, DRM_VATOM_VISA_OP_ADD | VT_O_16, UQ);

/*
 * Types: Src/Dst "must have type D" for IMIN/IMAX, "UD" for the others
 * (PREDEC takes both); F, 64-bit and unknown types are ERR_TYPE.
 */
VT_TYPE_ROW(type_add_d, ADD, DRM_VATOM_VISA_TYPE_D);
VT_TYPE_ROW(type_add_f, ADD, DRM_VATOM_VISA_TYPE_F);
VT_TYPE_ROW(type_add_uq, ADD, DRM_VATOM_VISA_TYPE_UQ);
VT_TYPE_ROW(type_add_q, ADD, DRM_VATOM_VISA_TYPE_Q);
VT_TYPE_ROW(type_add_5, ADD, 5);
VT_TYPE_ROW(type_add_0xff, ADD, 0xff);
VT_TYPE_ROW(type_imin_ud, IMIN, DRM_VATOM_VISA_TYPE_UD);
VT_TYPE_ROW(type_imax_ud, IMAX, DRM_VATOM_VISA_TYPE_UD);
VT_TYPE_ROW(type_imax_q, IMAX, DRM_VATOM_VISA_TYPE_Q);
VT_TYPE_ROW(type_predec_uq, PREDEC, DRM_VATOM_VISA_TYPE_UQ);
VT_TYPE_ROW(type_predec_f, PREDEC, DRM_VATOM_VISA_TYPE_F);
VT_TYPE_ROW(type_xchg16_f, XCHG | VT_O_16, DRM_VATOM_VISA_TYPE_F);

/*
 * Operands that do not depend on the surface: U is required; Src0 is V0
 * for INC/DEC/PREDEC and required otherwise; Src1 only with CMPXCHG; the
 * ADDC immediate bits are not TYPED_ATOMIC operands.
 */
VT_OPND_ROW(opnd_add_no_u, ADD, DRM_VATOM_VISA_OPND_V | DRM_VATOM_VISA_OPND_SRC0);
VT_OPND_ROW(opnd_add_no_src0, ADD, VT_OPND_AV);
VT_OPND_ROW(opnd_inc_src0, INC, VT_OPND_AV | DRM_VATOM_VISA_OPND_SRC0);
VT_OPND_ROW(opnd_dec_src0, DEC, VT_OPND_AV | DRM_VATOM_VISA_OPND_SRC0);
VT_OPND_ROW(opnd_predec_src0, PREDEC, VT_OPND_AV | DRM_VATOM_VISA_OPND_SRC0);
VT_OPND_ROW(opnd_add_src1, ADD, VT_OPND_AV | DRM_VATOM_VISA_OPND_SRC0 |
	    DRM_VATOM_VISA_OPND_SRC1);
VT_OPND_ROW(opnd_cmpxchg_no_src1, CMPXCHG, VT_OPND_AV | DRM_VATOM_VISA_OPND_SRC0);
VT_OPND_ROW(opnd_cmpxchg_no_src0, CMPXCHG, VT_OPND_AV | DRM_VATOM_VISA_OPND_SRC1);
VT_OPND_ROW(opnd_add_src0_imm, ADD, VT_OPND_AV | DRM_VATOM_VISA_OPND_SRC0_IMM);
VT_OPND_ROW(opnd_cmpxchg_src1_imm, CMPXCHG, VT_OPND_AV | DRM_VATOM_VISA_OPND_SRC0 |
	    DRM_VATOM_VISA_OPND_SRC1_IMM);

#undef VT_OPND_AV
#undef VT_O_16
#undef VT_OPND_ROW
#undef VT_TYPE_ROW
#undef VT_OP_ROW
#undef VT_EXEC_ROW
#undef VT_TYPED_REJECT

FIXTURE_SETUP(typed_reject)
{
	self->t.map = NULL;
	self->fd = vt_open();
	if (self->fd == -ENODEV)
		SKIP(return, "no vatom device");
	ASSERT_LE(0, self->fd);
	vt_typed2d(_metadata, self->fd, &self->t);
}

FIXTURE_TEARDOWN(typed_reject)
{
	if (self->t.map)
		munmap(self->t.map, VT_PAGE_SIZE);
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(typed_reject, rejected)
{
	/* Size codes 6 and 7 read 64 and 128 lanes; 64-bit types 8 bytes. */
	static const __u64 zero[128];
	const __u8 op = variant->op & DRM_VATOM_VISA_OP_MASK;
	const bool has0 = op != DRM_VATOM_VISA_OP_INC && op != DRM_VATOM_VISA_OP_DEC &&
			  op != DRM_VATOM_VISA_OP_PREDEC;
	const bool has1 = op == DRM_VATOM_VISA_OP_CMPXCHG ||
			  op == DRM_VATOM_VISA_OP_FCMPWR;
	struct vt_stream s;
	struct vt_visa v;

	if (!self->t.map)
		return;
	vt_stream_init(&s);
	vt_typed(&v, variant->op, variant->type, 3,
		 DRM_VATOM_VISA_OPND_V | DRM_VATOM_VISA_OPND_DST,
		 (const __u32 *)zero, has0 ? zero : NULL, has1 ? zero : NULL);
	v.exec_size = variant->exec;
	if (variant->operands) {
		v.operands = variant->operands | DRM_VATOM_VISA_OPND_DST;
		v.src0 = zero;
		v.src1 = zero;
	}
	vt_add_visa_coords(&s, &v, NULL, NULL, NULL);
	vt_expect_reject(_metadata, self->fd, &s, &self->t.bind, 1, EINVAL, 0,
			 variant->reason);
	EXPECT_EQ(0x10000000, self->t.map[0]);
}

/*
 * Mask control and predicate: ChEn[i] = (NM or emask bit (4M + i)) and
 * (not predicated or pred bit i). emask 0xf0e1d2c3 gives the windows
 * M1 0xc3, M2 0x2c, M3 0xd2, M4 0x1d, M5 0xe1, M6 0x0e, M7 0xf0 (by hand).
 */
TEST(typed_mask_control)
{
	static const struct {
		__u8 ctrl;
		__u32 flags, pred;
		__u32 lanes;
		__u32 emask;	/* 0: 0xf0e1d2c3 */
	} cases[] = {
		{ 0, 0, 0, 0xc3 }, { 1, 0, 0, 0x2c }, { 2, 0, 0, 0xd2 },
		{ 3, 0, 0, 0x1d }, { 4, 0, 0, 0xe1 }, { 5, 0, 0, 0x0e },
		{ 6, 0, 0, 0xf0 },
		/* M7: lanes 0..7 are emask bits 24..31. */
		{ 6, 0, 0, 0x81, 0x81000000 },
		{ DRM_VATOM_VISA_EXEC_NM, 0, 0, 0xff },
		{ DRM_VATOM_VISA_EXEC_NM | 6, 0, 0, 0xff },
		{ 0, DRM_VATOM_VISA_PREDICATED, 0x55, 0x41 },
		{ DRM_VATOM_VISA_EXEC_NM, DRM_VATOM_VISA_PREDICATED, 0xffffffa5, 0xa5 },
		{ 2, DRM_VATOM_VISA_PREDICATED, 0x0f, 0x02 },
	};
	__u32 u[8], res[8], i, k;
	struct vt_typed2d t;
	struct vt_stream s;
	struct vt_visa v;
	int fd;

	VT_OPEN(fd);
	vt_typed2d(_metadata, fd, &t);
	for (i = 0; i < 8; i++)
		u[i] = i;
	for (k = 0; k < VT_ARRAY_SIZE(cases); k++) {
		vt_fill_offsets(t.map, VT_PAGE_SIZE);
		vt_stream_init(&s);
		vt_typed(&v, DRM_VATOM_VISA_OP_INC, DRM_VATOM_VISA_TYPE_UD, 3,
			 DRM_VATOM_VISA_OPND_V | DRM_VATOM_VISA_OPND_DST, u, NULL,
			 NULL);
		v.exec_size = vt_exec(DRM_VATOM_VISA_EXEC_8, cases[k].ctrl);
		v.emask = 0xf0e1d2c3;
		if (cases[k].emask)
			v.emask = cases[k].emask;
		v.flags = cases[k].flags;
		v.pred = cases[k].pred;
		vt_add_visa_coords(&s, &v, NULL, NULL, NULL);
		memset(res, VT_POISON, sizeof(res));
		vt_expect_ok(_metadata, fd, &s, &t.bind, 1, res, sizeof(res));
		for (i = 0; i < 8; i++) {
			bool on = (cases[k].lanes >> i) & 1;

			EXPECT_EQ(on ? 0x10000000 + 4 * i : VT_POISON32, res[i])
				TH_LOG("case %u lane %u", k, i);
			EXPECT_EQ(0x10000000 + 4 * i + on, t.map[i])
				TH_LOG("case %u lane %u", k, i);
		}
	}
	munmap(t.map, VT_PAGE_SIZE);
	close(fd);
}

/* Without Dst nothing is returned, and the texels still change. */
TEST(typed_null_dst)
{
	__u32 u[8] = { 0, 1, 2, 3, 4, 5, 6, 7 }, src[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
	__u32 res[2] = { VT_POISON32, VT_POISON32 }, i;
	struct vt_typed2d t;
	struct vt_stream s;
	struct vt_visa v;
	int fd;

	VT_OPEN(fd);
	vt_typed2d(_metadata, fd, &t);
	vt_stream_init(&s);
	vt_typed(&v, DRM_VATOM_VISA_OP_SUB, DRM_VATOM_VISA_TYPE_UD, 3,
		 DRM_VATOM_VISA_OPND_V, u, src, NULL);
	vt_add_visa_coords(&s, &v, NULL, NULL, NULL);
	ASSERT_EQ(0, s.results);
	vt_expect_ok(_metadata, fd, &s, &t.bind, 1, res, sizeof(res));
	EXPECT_EQ(VT_POISON32, res[0]);
	for (i = 0; i < 8; i++) {
		EXPECT_EQ(0x10000000 + 4 * i - 1, t.map[i]) TH_LOG("texel %u", i);
	}
	munmap(t.map, VT_PAGE_SIZE);
	close(fd);
}

/*
 * Surfaces: TYPED_ATOMIC on an unbound slot is ERR_SLOT, on a buffer
 * ERR_SURFACE_KIND; a typed surface bound to a DWORD_ATOMIC packet is
 * ERR_SURFACE_KIND too. Each at packet 1 after a valid packet 0 that must
 * not run.
 */
TEST(typed_surface_kind)
{
	__u32 u[8] = { 0 }, src[8] = { 1, 1, 1, 1, 1, 1, 1, 1 }, addr[1] = { 0 };
	struct drm_vatom_binding bind[2];
	struct vt_typed2d t;
	struct vt_stream s;
	struct vt_visa v;
	__u32 bh, *bmap;
	int fd;

	VT_OPEN(fd);
	vt_typed2d(_metadata, fd, &t);
	VT_BUFFER(fd, 4096, bh, bmap);
	memset(bmap, 0, 4096);
	bind[0] = t.bind;
	memset(&bind[1], 0, sizeof(bind[1]));
	bind[1].slot = 4;
	bind[1].handle = bh;

	/* Packet 0 (valid): TYPED ADD on slot 3. */
	vt_stream_init(&s);
	vt_typed(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_TYPE_UD, 3,
		 DRM_VATOM_VISA_OPND_V, u, src, NULL);
	vt_add_visa_coords(&s, &v, NULL, NULL, NULL);
	/* 1: TYPED on slot 9, unbound. */
	v.surface = 9;
	vt_add_visa_coords(&s, &v, NULL, NULL, NULL);
	vt_expect_reject(_metadata, fd, &s, bind, 2, EINVAL, 1, DRM_VATOM_ERR_SLOT);
	/* 1: TYPED on slot 4, a buffer. */
	vt_stream_init(&s);
	v.surface = 3;
	vt_add_visa_coords(&s, &v, NULL, NULL, NULL);
	v.surface = 4;
	vt_add_visa_coords(&s, &v, NULL, NULL, NULL);
	vt_expect_reject(_metadata, fd, &s, bind, 2, EINVAL, 1,
			 DRM_VATOM_ERR_SURFACE_KIND);
	/* 1: DWORD_ATOMIC on slot 3, the typed surface. */
	vt_stream_init(&s);
	v.surface = 3;
	vt_add_visa_coords(&s, &v, NULL, NULL, NULL);
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_1,
		 DRM_VATOM_VISA_TYPE_UD, addr, src, NULL, true);
	v.surface = 3;
	vt_add_visa(&s, &v);
	vt_expect_reject(_metadata, fd, &s, bind, 2, EINVAL, 1,
			 DRM_VATOM_ERR_SURFACE_KIND);
	/* The same DWORD_ATOMIC on the buffer is fine. */
	vt_stream_init(&s);
	v.surface = 4;
	vt_add_visa(&s, &v);
	{
		__u32 res[2] = { VT_POISON32, VT_POISON32 };

		vt_expect_ok(_metadata, fd, &s, bind, 2, res, sizeof(res));
		EXPECT_EQ(0, res[0]);
		EXPECT_EQ(1, bmap[0]);
	}
	EXPECT_EQ(0x10000000, t.map[0]);
	munmap(bmap, 4096);
	munmap(t.map, VT_PAGE_SIZE);
	close(fd);
}

/* --- typed surface descriptors --------------------------------------------- */

/*
 * Descriptors and what SURFACE_CREATE makes of them: the size, worked out
 * by hand from the layout of docs/semantics-visa.md §9, or the errno.
 */
struct vt_desc_row {
	__u32 dim, format, w, h, d, a, levels, flags;
	int err;
	__u64 size;
};

static const struct vt_desc_row vt_desc_rows[] = {
	/* dim, format, w, h, d, a, levels, flags, errno, size */
	/* A full chain of 16 levels, width 2^16: 4 * (2^17 - 2) bytes. */
	{ VT_1D, 0, 1u << 16, 1, 1, 1, 16, 0, 0, 524280 },
	/* 7x3, 3x1, 1x1: 84 + 12 + 4 bytes. */
	{ VT_2D, 0, 7, 3, 1, 1, 3, 0, 0, 100 },
	/* 1 x 1 x 16 with 5 levels: 16 + 8 + 4 + 2 + 1 texels. */
	{ VT_3D, 0, 1, 1, 16, 1, 5, 0, 0, 124 },
	{ VT_1D, 0, 1, 1, 1, 1, 1, 0, 0, 4 },
	/* 3x5, 1x2, 1x1 texels, 7 slices each: 7 * 4 * (15 + 2 + 1). */
	{ VT_2DA, 0, 3, 5, 1, 7, 3, 0, 0, 504 },
	/* Exactly the 256 MiB limit; one row more or a second level: -E2BIG. */
	{ VT_2D, 0, 8192, 8192, 1, 1, 1, 0, 0, 256ull << 20 },
	{ VT_2D, 0, 8192, 8193, 1, 1, 1, 0, E2BIG },
	{ VT_2D, 0, 8192, 8192, 1, 1, 2, 0, E2BIG },
	{ VT_2D, 0, 16384, 16384, 1, 1, 1, 0, E2BIG },
	/* Extents whose product overflows 64 bits. */
	{ VT_3D, 0, 0xffffffff, 0xffffffff, 0xffffffff, 1, 1, 0, E2BIG },
	{ VT_2DA, 0, 0xffffffff, 0xffffffff, 1, 0xffffffff, 1, 0, E2BIG },
	{ VT_1DA, 0, 1u << 20, 1, 1, 1u << 20, 1, 0, E2BIG },
	/* Unknown dim, format or flags: -EINVAL, as every malformed field. */
	{ 5, 0, 4, 1, 1, 1, 1, 0, EINVAL },
	{ 0xffffffff, 0, 4, 1, 1, 1, 1, 0, EINVAL },
	{ VT_2D, 1, 4, 4, 1, 1, 1, 0, EINVAL },
	{ VT_2D, 0xffffffff, 4, 4, 1, 1, 1, 0, EINVAL },
	{ VT_2D, 0, 4, 4, 1, 1, 1, 1, EINVAL },
	{ VT_2D, 0, 4, 4, 1, 1, 1, 0x80000000, EINVAL },
	/* Zero extents and levels. */
	{ VT_2D, 0, 0, 4, 1, 1, 1, 0, EINVAL },
	{ VT_2D, 0, 4, 0, 1, 1, 1, 0, EINVAL },
	{ VT_3D, 0, 4, 4, 0, 1, 1, 0, EINVAL },
	{ VT_2DA, 0, 4, 4, 1, 0, 1, 0, EINVAL },
	{ VT_2D, 0, 4, 4, 1, 1, 0, 0, EINVAL },
	{ VT_1D, 0, 4, 0, 1, 1, 1, 0, EINVAL },
	/* Height 1 for the 1D forms. */
	{ VT_1D, 0, 4, 2, 1, 1, 1, 0, EINVAL },
	{ VT_1DA, 0, 4, 2, 1, 2, 1, 0, EINVAL },
	/* Depth 1 unless 3D. */
	{ VT_1D, 0, 4, 1, 2, 1, 1, 0, EINVAL },
	{ VT_2D, 0, 4, 4, 2, 1, 1, 0, EINVAL },
	{ VT_2DA, 0, 4, 4, 2, 2, 1, 0, EINVAL },
	/* Array size 1 unless an array form. */
	{ VT_1D, 0, 4, 1, 1, 2, 1, 0, EINVAL },
	{ VT_2D, 0, 4, 4, 1, 2, 1, 0, EINVAL },
	{ VT_3D, 0, 4, 4, 4, 2, 1, 0, EINVAL },
	/* Levels past floor(log2(largest extent)) + 1, or past 16. */
	{ VT_1D, 0, 1, 1, 1, 1, 2, 0, EINVAL },
	{ VT_2D, 0, 7, 3, 1, 1, 4, 0, EINVAL },
	{ VT_3D, 0, 1, 1, 16, 1, 6, 0, EINVAL },
	{ VT_1DA, 0, 2, 1, 1, 64, 3, 0, EINVAL },
	{ VT_1D, 0, 1u << 17, 1, 1, 1, 17, 0, EINVAL },
	{ VT_1D, 0, 1u << 17, 1, 1, 1, 0xffffffff, 0, EINVAL },
};

TEST(typed_desc)
{
	size_t i;
	int fd;

	VT_OPEN(fd);
	if (!(vt_caps(fd) & DRM_VATOM_CAP_VISA_TYPED_ATOMIC))
		SKIP(close(fd); return, "TYPED_ATOMIC not implemented");
	for (i = 0; i < VT_ARRAY_SIZE(vt_desc_rows); i++) {
		const struct vt_desc_row *r = &vt_desc_rows[i];
		const struct drm_vatom_typed_desc d = {
			.dim = r->dim, .format = r->format, .width = r->w,
			.height = r->h, .depth = r->d, .array_size = r->a,
			.levels = r->levels, .flags = r->flags,
		};
		__u64 size = 0;
		int ret, err;
		__u32 h;

		errno = 0;
		ret = vt_typed_create(fd, &d, &h, &size);
		err = ret ? errno : 0;
		if (!ret)
			vt_gem_close(fd, h);
		/* Braces: EXPECT_EQ() is two statements. */
		if (r->err) {
			EXPECT_EQ(-1, ret) TH_LOG("row %zu", i);
			EXPECT_EQ(r->err, err) TH_LOG("row %zu: %s", i, strerror(err));
		} else {
			EXPECT_EQ(0, ret) TH_LOG("row %zu: %s", i, strerror(err));
			EXPECT_EQ(r->size, size) TH_LOG("row %zu", i);
		}
	}
	close(fd);
}

/*
 * SURFACE_CREATE's own fields for a typed surface: desc and desc_size are
 * required (a NULL desc or a zero desc_size is -EINVAL, an unreadable desc
 * -EFAULT), size must be 0 on input, flags 0. A shorter desc_size
 * zero-extends the descriptor (older userspace); bytes past the known
 * struct must be zero (-EINVAL otherwise).
 */
TEST(typed_desc_create_args)
{
	const struct drm_vatom_typed_desc good = VT_DESC(VT_2D, 4, 2, 1, 1, 2);
	struct drm_vatom_surface_create c;
	__u8 *pages, big[sizeof(good) + 16];
	int fd;

	VT_OPEN(fd);
	if (!(vt_caps(fd) & DRM_VATOM_CAP_VISA_TYPED_ATOMIC))
		SKIP(close(fd); return, "TYPED_ATOMIC not implemented");

#define VT_TYPED_ARGS(d, dsz) do {					\
		memset(&c, 0, sizeof(c));				\
		c.kind = DRM_VATOM_SURFACE_TYPED;			\
		c.desc = vt_u64_ptr(d);					\
		c.desc_size = (dsz);					\
	} while (0)

	/* The baseline: 4x2 + 2x1 texels = 40 bytes. */
	VT_TYPED_ARGS(&good, sizeof(good));
	ASSERT_EQ(0, vt_surface_create(fd, &c));
	EXPECT_EQ(40, c.size);
	EXPECT_EQ(0, vt_gem_close(fd, c.handle));

	VT_TYPED_ARGS(&good, 0);
	VT_EXPECT_ERRNO(EINVAL, vt_surface_create(fd, &c));
	VT_TYPED_ARGS(NULL, sizeof(good));
	VT_EXPECT_ERRNO(EINVAL, vt_surface_create(fd, &c));
	VT_TYPED_ARGS(&good, sizeof(good));
	c.size = 40;
	VT_EXPECT_ERRNO(EINVAL, vt_surface_create(fd, &c));
	VT_TYPED_ARGS(&good, sizeof(good));
	c.flags = 1;
	VT_EXPECT_ERRNO(EINVAL, vt_surface_create(fd, &c));

	/* Unreadable: a low address, and a PROT_NONE page. */
	VT_TYPED_ARGS((void *)16, sizeof(good));
	VT_EXPECT_ERRNO(EFAULT, vt_surface_create(fd, &c));
	pages = mmap(NULL, 2 * VT_PAGE_SIZE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, pages);
	ASSERT_EQ(0, mprotect(pages + VT_PAGE_SIZE, VT_PAGE_SIZE, PROT_NONE));
	VT_TYPED_ARGS(pages + VT_PAGE_SIZE, sizeof(good));
	VT_EXPECT_ERRNO(EFAULT, vt_surface_create(fd, &c));
	/* The descriptor's last bytes on the PROT_NONE page. */
	memcpy(pages + VT_PAGE_SIZE - 16, &good, 16);
	VT_TYPED_ARGS(pages + VT_PAGE_SIZE - 16, sizeof(good));
	VT_EXPECT_ERRNO(EFAULT, vt_surface_create(fd, &c));

	/* Zero-extended: without flags (28 bytes) it is the same surface. */
	VT_TYPED_ARGS(&good, offsetof(struct drm_vatom_typed_desc, flags));
	ASSERT_EQ(0, vt_surface_create(fd, &c));
	EXPECT_EQ(40, c.size);
	EXPECT_EQ(0, vt_gem_close(fd, c.handle));
	/* Without levels (24 bytes) levels reads as 0: malformed. */
	VT_TYPED_ARGS(&good, offsetof(struct drm_vatom_typed_desc, levels));
	VT_EXPECT_ERRNO(EINVAL, vt_surface_create(fd, &c));
	/* A 1-byte descriptor: width reads as 0. */
	VT_TYPED_ARGS(&good, 1);
	VT_EXPECT_ERRNO(EINVAL, vt_surface_create(fd, &c));

	/* Longer with zero bytes: accepted; a non-zero one: -EINVAL. */
	memset(big, 0, sizeof(big));
	memcpy(big, &good, sizeof(good));
	VT_TYPED_ARGS(big, sizeof(big));
	ASSERT_EQ(0, vt_surface_create(fd, &c));
	EXPECT_EQ(40, c.size);
	EXPECT_EQ(0, vt_gem_close(fd, c.handle));
	big[sizeof(big) - 1] = 1;
	VT_TYPED_ARGS(big, sizeof(big));
	VT_EXPECT_ERRNO(EINVAL, vt_surface_create(fd, &c));
	big[sizeof(big) - 1] = 0;
	big[sizeof(good)] = 0x80;
	VT_TYPED_ARGS(big, sizeof(big));
	VT_EXPECT_ERRNO(EINVAL, vt_surface_create(fd, &c));
	/* A whole page of descriptor, zeros past the struct. */
	memset(pages, 0, VT_PAGE_SIZE);
	memcpy(pages, &good, sizeof(good));
	VT_TYPED_ARGS(pages, VT_PAGE_SIZE);
	ASSERT_EQ(0, vt_surface_create(fd, &c));
	EXPECT_EQ(0, vt_gem_close(fd, c.handle));
	/* ... a longer one is refused unread (test_abuse.c) ... */
	VT_TYPED_ARGS(pages, VT_PAGE_SIZE + 8);
	VT_EXPECT_ERRNO(E2BIG, vt_surface_create(fd, &c));
	/* ... and one running into the PROT_NONE page faults. */
	memcpy(pages + VT_PAGE_SIZE - sizeof(good), &good, sizeof(good));
	VT_TYPED_ARGS(pages + VT_PAGE_SIZE - sizeof(good), sizeof(good) + 8);
	VT_EXPECT_ERRNO(EFAULT, vt_surface_create(fd, &c));
#undef VT_TYPED_ARGS
	munmap(pages, 2 * VT_PAGE_SIZE);
	close(fd);
}
