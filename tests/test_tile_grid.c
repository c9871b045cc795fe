// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Tile grid descriptor validation and surface layout. Every expected offset
 * is worked out by hand from the layout in docs/semantics-noc.md: 512 bytes
 * of counters per tile (2 NoCs x 64 x 4 bytes) at the start, then the L1s
 * packed in row-major order.
 */
#include "vt_test.h"
#include "vatom_engine.h"
#include "tile_grid.h"

#define T DRM_VATOM_TILE_TENSIX
#define E DRM_VATOM_TILE_ETHERNET
#define D DRM_VATOM_TILE_DRAM
#define P DRM_VATOM_TILE_PCIE

static struct vatom_tile_grid g;

static struct drm_vatom_tile_grid_desc desc(u32 profile, u32 w, u32 h)
{
	struct drm_vatom_tile_grid_desc d = {
		.profile = profile, .width = w, .height = h,
	};
	return d;
}

static void test_defaults(void)
{
	/* spec §7: WH 1464/256 KiB, BH 1536/512 KiB; DRAM/PCIe none. */
	VT_EXPECT_EQ(vatom_tile_grid_default_l1(0, T), 1499136);
	VT_EXPECT_EQ(vatom_tile_grid_default_l1(0, E), 262144);
	VT_EXPECT_EQ(vatom_tile_grid_default_l1(0, D), 0);
	VT_EXPECT_EQ(vatom_tile_grid_default_l1(0, P), 0);
	VT_EXPECT_EQ(vatom_tile_grid_default_l1(1, T), 1572864);
	VT_EXPECT_EQ(vatom_tile_grid_default_l1(1, E), 524288);
	VT_EXPECT_EQ(vatom_tile_grid_default_l1(1, D), 0);
	VT_EXPECT_EQ(vatom_tile_grid_default_l1(2, T), 0);
	VT_EXPECT_EQ(vatom_tile_grid_default_l1(1, 4), 0);
}

static void test_wormhole_2x2_defaults(void)
{
	const u8 types[4] = { T, E, D, P };
	struct drm_vatom_tile_grid_desc d = desc(0, 2, 2);

	VT_EXPECT_EQ(vatom_tile_grid_layout_init(&g, &d, types, 1ull << 40), 0);
	VT_EXPECT_EQ(g.profile, 0);
	VT_EXPECT_EQ(g.width, 2);
	VT_EXPECT_EQ(g.height, 2);
	VT_EXPECT_EQ(g.l1_base, 2048);		/* 4 tiles * 512 */
	VT_EXPECT_EQ(g.l1_offset[0], 2048);
	VT_EXPECT_EQ(g.l1_size[0], 1499136);
	VT_EXPECT_EQ(g.l1_offset[1], 1501184);	/* 2048 + 1499136 */
	VT_EXPECT_EQ(g.l1_size[1], 262144);
	VT_EXPECT_EQ(g.l1_offset[2], 1763328);	/* + 262144 */
	VT_EXPECT_EQ(g.l1_size[2], 0);
	VT_EXPECT_EQ(g.l1_offset[3], 1763328);
	VT_EXPECT_EQ(g.l1_size[3], 0);
	VT_EXPECT_EQ(g.size, 1763328);
	VT_EXPECT_EQ(g.type[0], T);
	VT_EXPECT_EQ(g.type[3], P);
	VT_EXPECT_EQ(g.l1_size_by_type[T], 1499136);
	VT_EXPECT_EQ(g.l1_size_by_type[E], 262144);
	VT_EXPECT_EQ(g.l1_size_by_type[D], 0);
}

static void test_blackhole_custom(void)
{
	const u8 types[3] = { E, T, E };
	struct drm_vatom_tile_grid_desc d = desc(1, 3, 1);

	d.l1_size[T] = 4096;
	d.l1_size[E] = 16;
	VT_EXPECT_EQ(vatom_tile_grid_layout_init(&g, &d, types, 5664), 0);
	VT_EXPECT_EQ(g.l1_base, 1536);
	VT_EXPECT_EQ(g.l1_offset[0], 1536);
	VT_EXPECT_EQ(g.l1_size[0], 16);
	VT_EXPECT_EQ(g.l1_offset[1], 1552);
	VT_EXPECT_EQ(g.l1_size[1], 4096);
	VT_EXPECT_EQ(g.l1_offset[2], 5648);
	VT_EXPECT_EQ(g.l1_size[2], 16);
	VT_EXPECT_EQ(g.size, 5664);
	/* One byte less than needed. */
	VT_EXPECT_EQ(vatom_tile_grid_layout_init(&g, &d, types, 5663), -E2BIG);
}

static void test_blackhole_default_sizes(void)
{
	const u8 types[2] = { T, E };
	struct drm_vatom_tile_grid_desc d = desc(1, 1, 2);

	VT_EXPECT_EQ(vatom_tile_grid_layout_init(&g, &d, types, 1ull << 40), 0);
	VT_EXPECT_EQ(g.l1_offset[0], 1024);
	VT_EXPECT_EQ(g.l1_size[0], 1572864);
	VT_EXPECT_EQ(g.l1_offset[1], 1573888);
	VT_EXPECT_EQ(g.l1_size[1], 524288);
	VT_EXPECT_EQ(g.size, 2098176);
	/* Largest sizes allowed: exactly the defaults. */
	d.l1_size[T] = 1572864;
	d.l1_size[E] = 524288;
	VT_EXPECT_EQ(vatom_tile_grid_layout_init(&g, &d, types, 1ull << 40), 0);
	VT_EXPECT_EQ(g.size, 2098176);
}

static void test_max_grid(void)
{
	static u8 types[4096];
	struct drm_vatom_tile_grid_desc d = desc(1, 64, 64);

	memset(types, T, sizeof(types));
	d.l1_size[T] = 16;
	VT_EXPECT_EQ(vatom_tile_grid_layout_init(&g, &d, types, 1ull << 40), 0);
	VT_EXPECT_EQ(g.l1_base, 2097152);		/* 4096 * 512 */
	VT_EXPECT_EQ(g.l1_offset[4095], 2097152 + 4095 * 16);
	VT_EXPECT_EQ(g.size, 2162688);			/* + 4096 * 16 */
	/* The biggest possible surface: 4096 default BH Tensix L1s. */
	d.l1_size[T] = 0;
	VT_EXPECT_EQ(vatom_tile_grid_layout_init(&g, &d, types, 1ull << 40), 0);
	VT_EXPECT_EQ(g.size, 2097152ull + 4096ull * 1572864);
	VT_EXPECT_EQ(vatom_tile_grid_layout_init(&g, &d, types, 1ull << 32), -E2BIG);
}

static void test_counter_offsets(void)
{
	const u8 types[6] = { T, T, T, T, T, T };
	struct drm_vatom_tile_grid_desc d = desc(0, 3, 2);

	d.l1_size[T] = 32;
	VT_EXPECT_EQ(vatom_tile_grid_layout_init(&g, &d, types, 1ull << 40), 0);
	VT_EXPECT_EQ(vatom_tile_counters_offset(&g, 0, 0, 0), 0);
	VT_EXPECT_EQ(vatom_tile_counters_offset(&g, 0, 0, 1), 256);
	VT_EXPECT_EQ(vatom_tile_counters_offset(&g, 1, 0, 0), 512);
	/* tile 4 = (1, 1), NoC 1: (4 * 2 + 1) * 256 */
	VT_EXPECT_EQ(vatom_tile_counters_offset(&g, 1, 1, 1), 2304);
	VT_EXPECT_EQ(vatom_tile_counters_offset(&g, 2, 1, 1), 2816);
	VT_EXPECT_EQ(g.l1_base, 3072);
	VT_EXPECT_EQ(g.l1_offset[5], 3072 + 5 * 32);
}

static void test_rejects(void)
{
	const u8 types[4] = { T, E, D, P };
	const u8 bad_types[4] = { T, E, 4, P };
	struct drm_vatom_tile_grid_desc d;

	d = desc(2, 2, 2);
	VT_EXPECT_EQ(vatom_tile_grid_layout_init(&g, &d, types, ~0ull), -EINVAL);
	d = desc(0, 2, 2);
	d.flags = 1;
	VT_EXPECT_EQ(vatom_tile_grid_layout_init(&g, &d, types, ~0ull), -EINVAL);
	d = desc(0, 0, 2);
	VT_EXPECT_EQ(vatom_tile_grid_layout_init(&g, &d, types, ~0ull), -EINVAL);
	d = desc(0, 2, 0);
	VT_EXPECT_EQ(vatom_tile_grid_layout_init(&g, &d, types, ~0ull), -EINVAL);
	d = desc(0, 65, 1);
	VT_EXPECT_EQ(vatom_tile_grid_layout_init(&g, &d, types, ~0ull), -EINVAL);
	d = desc(0, 1, 65);
	VT_EXPECT_EQ(vatom_tile_grid_layout_init(&g, &d, types, ~0ull), -EINVAL);
	d = desc(0, 2, 2);
	VT_EXPECT_EQ(vatom_tile_grid_layout_init(&g, &d, bad_types, ~0ull), -EINVAL);
	d = desc(0, 2, 2);
	d.l1_size[T] = 17;			/* not a multiple of 16 */
	VT_EXPECT_EQ(vatom_tile_grid_layout_init(&g, &d, types, ~0ull), -EINVAL);
	d = desc(0, 2, 2);
	d.l1_size[T] = 8;
	VT_EXPECT_EQ(vatom_tile_grid_layout_init(&g, &d, types, ~0ull), -EINVAL);
	d = desc(0, 2, 2);
	d.l1_size[T] = 1499136 + 16;		/* above WH Tensix */
	VT_EXPECT_EQ(vatom_tile_grid_layout_init(&g, &d, types, ~0ull), -EINVAL);
	d = desc(0, 2, 2);
	d.l1_size[E] = 262144 + 16;		/* above WH Ethernet */
	VT_EXPECT_EQ(vatom_tile_grid_layout_init(&g, &d, types, ~0ull), -EINVAL);
	d = desc(1, 2, 2);
	d.l1_size[E] = 524288 + 16;		/* above BH Ethernet */
	VT_EXPECT_EQ(vatom_tile_grid_layout_init(&g, &d, types, ~0ull), -EINVAL);
	d = desc(0, 2, 2);
	d.l1_size[D] = 16;
	VT_EXPECT_EQ(vatom_tile_grid_layout_init(&g, &d, types, ~0ull), -EINVAL);
	d = desc(0, 2, 2);
	d.l1_size[P] = 16;
	VT_EXPECT_EQ(vatom_tile_grid_layout_init(&g, &d, types, ~0ull), -EINVAL);
	/* A type unused by the grid still has its size checked. */
	d = desc(0, 1, 1);
	d.l1_size[E] = 20;
	VT_EXPECT_EQ(vatom_tile_grid_layout_init(&g, &d, types, ~0ull), -EINVAL);
	/* Largest dimensions pass. */
	d = desc(0, 64, 1);
	{
		static u8 row[64];

		VT_EXPECT_EQ(vatom_tile_grid_layout_init(&g, &d, row, ~0ull), 0);
	}
}

static void test_clear_outstanding(void)
{
	static u32 mem[2 * 2 * 64] __attribute__((aligned(16)));
	const u8 types[2] = { T, T };
	struct drm_vatom_tile_grid_desc d = desc(0, 2, 1);
	u32 i;

	d.l1_size[T] = 16;
	VT_EXPECT_EQ(vatom_tile_grid_layout_init(&g, &d, types, 1ull << 40), 0);
	/* Tile 1, NoC 1 is the block at word (1 * 2 + 1) * 64 = 192. */
	for (i = 0; i < 64; i++)
		mem[192 + i] = 0x100 + i;
	mem[128 + 16] = 7;		/* tile 1 NoC 0, ID 0 */
	vatom_tile_grid_clear_outstanding(&g, (u8 *)mem, 1, 0, 1, 0xffff8001);
	for (i = 0; i < 64; i++) {
		u32 want = (i == 16 || i == 31) ? 0 : 0x100 + i;

		VT_EXPECT_EQ_MSG(mem[192 + i], want, "counter %u", i);
	}
	VT_EXPECT_EQ(mem[128 + 16], 7);
	/* Out-of-range tiles and NoCs change nothing. */
	vatom_tile_grid_clear_outstanding(&g, (u8 *)mem, 2, 0, 0, 0xffff);
	vatom_tile_grid_clear_outstanding(&g, (u8 *)mem, 0, 1, 0, 0xffff);
	vatom_tile_grid_clear_outstanding(&g, (u8 *)mem, 1, 0, 2, 0xffff);
	VT_EXPECT_EQ(mem[128 + 16], 7);
	VT_EXPECT_EQ(mem[192 + 17], 0x111);
}

/* What a counter read returns and clears, as the NoC counter ioctl uses it. */
static void test_counters_take(void)
{
	static u32 mem[2 * 2 * 64] __attribute__((aligned(16)));
	const u8 types[2] = { T, T };
	struct drm_vatom_tile_grid_desc d = desc(0, 2, 1);
	u32 vals[DRM_VATOM_NOC_NIU_COUNTERS], i;

	d.l1_size[T] = 16;
	VT_EXPECT_EQ(vatom_tile_grid_layout_init(&g, &d, types, 1ull << 40), 0);
	/* Tile 1, NoC 0 is the block at word (1 * 2 + 0) * 64 = 128. */
	for (i = 0; i < 2 * 2 * 64; i++)
		mem[i] = 0x1000 + i;
	memset(vals, 0xee, sizeof(vals));
	/* Counters 0, 5 and 63 cleared; every value as it was before. */
	vatom_tile_grid_counters_take(&g, (u8 *)mem, 1, 0, 0,
				      1ull | 1ull << 5 | 1ull << 63, vals);
	for (i = 0; i < 64; i++) {
		u32 after = (i == 0 || i == 5 || i == 63) ? 0 : 0x1000 + 128 + i;

		VT_EXPECT_EQ_MSG(vals[i], 0x1000 + 128 + i, "value %u", i);
		VT_EXPECT_EQ_MSG(mem[128 + i], after, "counter %u", i);
	}
	/* The other blocks are untouched. */
	VT_EXPECT_EQ(mem[127], 0x1000 + 127);
	VT_EXPECT_EQ(mem[192], 0x1000 + 192);
	/* A second read sees the zeros and clears nothing. */
	vatom_tile_grid_counters_take(&g, (u8 *)mem, 1, 0, 0, 0, vals);
	VT_EXPECT_EQ(vals[0], 0);
	VT_EXPECT_EQ(vals[5], 0);
	VT_EXPECT_EQ(vals[6], 0x1000 + 128 + 6);
	VT_EXPECT_EQ(mem[128 + 6], 0x1000 + 128 + 6);
}

int main(void)
{
	vt_run(test_defaults, "profile default L1 sizes");
	vt_run(test_wormhole_2x2_defaults, "wormhole 2x2 layout with defaults");
	vt_run(test_blackhole_custom, "blackhole custom L1 sizes and max_size");
	vt_run(test_blackhole_default_sizes, "blackhole default sizes");
	vt_run(test_max_grid, "64x64 grid");
	vt_run(test_counter_offsets, "NIU counter block offsets");
	vt_run(test_rejects, "descriptor rejects");
	vt_run(test_clear_outstanding, "per-ID clear register");
	vt_run(test_counters_take, "counter reads, some cleared");
	return vt_done();
}
