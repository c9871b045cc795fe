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
 * The ops and packet rules are in test_typed_ops.c, the descriptors in
 * test_typed_desc.c. Part of vatom_test.c's translation unit (see there);
 * not built alone.
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
