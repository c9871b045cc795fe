// SPDX-License-Identifier: GPL-2.0
/*
 * Tenstorrent NoC atomics through the device: tile grid creation and its
 * errors, the surface layout seen through mmap, every NOC_AT_LEN_BE variant
 * on both register profiles, unicast and broadcast recipients, responses,
 * the NIU counter life cycle of shared/spec/noc-atomics.md section 5.3,
 * every rejected encoding, and the NOC_COUNTERS ioctl.
 *
 * Expected values are worked out by hand from the spec (the variant table
 * below, with the arithmetic in comments); the parallel-add float rows are
 * cross-checked against the host FPU with flush-to-zero applied by hand.
 * Register images are written from the spec's bit positions, not from the
 * UAPI's DRM_VATOM_NOC_* constants: WH TARG_ADDR_MID X [9:4] Y [15:10]
 * StartX [21:16] StartY [27:22]; BH TARG_ADDR_HI X [5:0] Y [11:6]
 * StartX [17:12] StartY [23:18]; CTRL atomic 1, RESP_MARKED bit 4, BRCST
 * bit 5, SRC_INCLUDE bit 17; PACKET_TAG id [13:10].
 *
 * Part of vatom_test.c's translation unit (see there); not built alone.
 *
 * Copyright (C) 2026 The vatom developers
 */

#define VN_SLOT		7	/* the grid's binding slot */
#define VN_BUF_SLOT	8	/* a buffer, for the wrong-kind checks */
#define VN_TENSIX_L1	512
#define VN_ETH_L1	256
#define VN_MAX_TILES	(64 * 64)
#define VN_MAX_PKTS	512

/*
 * The 4 x 3 grid of most tests (x across, y down):
 *	y=0: T T E D
 *	y=1: T T T P
 *	y=2: T E T T
 */
static const __u8 vn_grid43[12] = {
	VN_T, VN_T, VN_E, VN_D,
	VN_T, VN_T, VN_T, VN_P,
	VN_T, VN_E, VN_T, VN_T,
};

/**
 * struct vn_grid - a tile grid surface and the test's own idea of its layout
 * @fd: the file
 * @handle: its GEM handle on @fd
 * @buf: a 4 KiB buffer on @fd (bound at VN_BUF_SLOT by vn_submit())
 * @profile: DRM_VATOM_NOC_PROFILE_*
 * @w: width
 * @h: height
 * @size: the size SURFACE_CREATE returned
 * @map: the whole surface, mapped
 * @len: bytes of @map
 * @type: tile types
 * @l1_size: per tile, from the descriptor (0 for DRAM, PCIe)
 * @l1_off: per tile, computed here from docs/semantics-noc.md section 1
 */
struct vn_grid {
	int fd;
	__u32 handle;
	__u32 buf;
	__u32 profile;
	__u32 w, h;
	__u64 size;
	__u8 *map;
	size_t len;
	__u8 type[VN_MAX_TILES];
	__u32 l1_size[VN_MAX_TILES];
	__u64 l1_off[VN_MAX_TILES];
};

/* Create, map and lay out a grid with small L1s (0: the profile's size). */
static struct vn_grid *vn_grid_new(struct __test_metadata *_metadata, int fd,
				   __u32 profile, __u32 w, __u32 h,
				   const __u8 *types, __u32 l1t, __u32 l1e)
{
	struct drm_vatom_tile_grid_desc d = {
		.profile = profile, .width = w, .height = h,
		.l1_size = { l1t, l1e, 0, 0 },
		.tile_types = vt_u64_ptr(types),
	};
	struct vn_grid *g = calloc(1, sizeof(*g));
	__u64 off;
	__u32 t;

	ASSERT_NE(NULL, g);
	g->fd = fd;
	g->profile = profile;
	g->w = w;
	g->h = h;
	ASSERT_EQ(0, vn_create(fd, &d, &g->handle, &g->size));
	ASSERT_EQ(0, vt_buffer_create(fd, 4096, &g->buf));

	/* 512 bytes of counters per tile, then the L1s row-major, packed. */
	off = (__u64)w * h * 512;
	for (t = 0; t < w * h; t++) {
		g->type[t] = types[t];
		if (types[t] == VN_T)
			g->l1_size[t] = l1t;
		else if (types[t] == VN_E)
			g->l1_size[t] = l1e;
		g->l1_off[t] = off;
		off += g->l1_size[t];
	}
	ASSERT_EQ(off, g->size);
	g->len = vt_page_round(g->size);
	g->map = vt_map(fd, g->handle, g->len);
	ASSERT_NE(NULL, g->map);
	return g;
}

static void vn_grid_free(struct vn_grid *g)
{
	if (!g)
		return;
	if (g->map)
		munmap(g->map, g->len);
	vt_gem_close(g->fd, g->handle);
	vt_gem_close(g->fd, g->buf);
	free(g);
}

static __u32 *vn_l1(struct vn_grid *g, __u32 x, __u32 y, __u32 addr)
{
	return (__u32 *)(g->map + g->l1_off[y * g->w + x] + addr);
}

/* Tile (x, y)'s counter block on @noc, in the mapping. */
static __u32 *vn_cnt(struct vn_grid *g, __u32 x, __u32 y, __u32 noc)
{
	return (__u32 *)(g->map + ((y * g->w + x) * 2 + noc) * 256);
}

/* A posted unicast request from (ix, iy) to (tx, ty) at @targ. */
static struct drm_vatom_noc vn_req(const struct vn_grid *g, __u32 ix, __u32 iy,
				   __u32 tx, __u32 ty, __u32 targ, __u32 at,
				   __u32 data)
{
	struct drm_vatom_noc p;

	memset(&p, 0, sizeof(p));
	p.hdr.type = DRM_VATOM_PACKET_NOC;
	p.hdr.size = sizeof(p);
	p.slot = VN_SLOT;
	p.x = ix;
	p.y = iy;
	p.targ_addr_lo = targ;
	if (g->profile == VN_WH)
		p.targ_addr_mid = tx << 4 | ty << 10;
	else
		p.targ_addr_hi = tx | ty << 6;
	p.ctrl = VN_CTRL_AT;
	p.at_len_be = at;
	p.at_data = data;
	return p;
}

/* RESP_MARKED with the response to (rx, ry) at @ret, transaction @id. */
static void vn_mark(const struct vn_grid *g, struct drm_vatom_noc *p, __u32 rx,
		    __u32 ry, __u32 ret, __u32 id)
{
	p->ctrl |= VN_CTRL_MARKED;
	p->ret_addr_lo = ret;
	if (g->profile == VN_WH)
		p->ret_addr_mid = rx << 4 | ry << 10;
	else
		p->ret_addr_hi = rx | ry << 6;
	p->packet_tag = id << 10;
}

/* Broadcast to the rectangle Start (sx, sy) .. End (ex, ey). */
static void vn_brcst(const struct vn_grid *g, struct drm_vatom_noc *p, __u32 sx,
		     __u32 sy, __u32 ex, __u32 ey)
{
	p->ctrl |= VN_CTRL_BRCST;
	if (g->profile == VN_WH)
		p->targ_addr_mid = ex << 4 | ey << 10 | sx << 16 | sy << 22;
	else
		p->targ_addr_hi = ex | ey << 6 | sx << 12 | sy << 18;
}

/* Submit @n packets with the grid at VN_SLOT and a buffer at VN_BUF_SLOT. */
static int vn_submit(struct vn_grid *g, const struct drm_vatom_noc *pkts,
		     __u32 n, struct drm_vatom_submit *out)
{
	struct drm_vatom_binding bind[2] = {
		{ .slot = VN_SLOT, .handle = g->handle },
		{ .slot = VN_BUF_SLOT, .handle = g->buf },
	};
	struct drm_vatom_submit args;
	int ret;

	memset(&args, 0, sizeof(args));
	args.stream = vt_u64_ptr(pkts);
	args.stream_size = n * sizeof(*pkts);
	args.bindings = vt_u64_ptr(bind);
	args.binding_count = 2;
	ret = vt_submit(g->fd, &args);
	if (out)
		*out = args;
	return ret;
}

/* Zero every counter of every tile with CLEAR_ALL; check it in the map. */
static void vn_clear_all(struct __test_metadata *_metadata, struct vn_grid *g)
{
	__u32 x, y, n;

	for (y = 0; y < g->h; y++)
		for (x = 0; x < g->w; x++)
			for (n = 0; n < 2; n++) {
				ASSERT_EQ(0, vn_counters(g->fd, g->handle,
							 DRM_VATOM_NOC_COUNTERS_CLEAR_ALL,
							 x, y, n, 0, 0, NULL));
			}
	EXPECT_EQ(-1, vt_find_ne8(g->map, 0, (size_t)g->w * g->h * 512, 0));
}

/* One expected non-zero counter. */
struct vn_cnt_exp {
	__u32 x, y, noc, idx, val;
};

/*
 * Every counter of every tile on both NoCs equals its entry in @exp, or 0:
 * through the mapping and through NOC_COUNTERS READ.
 */
static void vn_expect_counters(struct __test_metadata *_metadata,
			       struct vn_grid *g, const struct vn_cnt_exp *exp,
			       __u32 n, const char *what)
{
	__u32 x, y, noc, i, k;

	for (y = 0; y < g->h; y++) {
		for (x = 0; x < g->w; x++) {
			for (noc = 0; noc < 2; noc++) {
				__u32 want[64] = { 0 }, got[64];

				for (k = 0; k < n; k++)
					if (exp[k].x == x && exp[k].y == y &&
					    exp[k].noc == noc)
						want[exp[k].idx] = exp[k].val;
				memset(got, VT_POISON, sizeof(got));
				ASSERT_EQ(0, vn_counters(g->fd, g->handle,
							 DRM_VATOM_NOC_COUNTERS_READ,
							 x, y, noc, 0, 64, got));
				for (i = 0; i < 64; i++) {
					EXPECT_EQ(want[i], got[i])
						TH_LOG("%s: tile (%u,%u) noc %u counter %u (ioctl)",
						       what, x, y, noc, i);
					EXPECT_EQ(want[i], vn_cnt(g, x, y, noc)[i])
						TH_LOG("%s: tile (%u,%u) noc %u counter %u (mmap)",
						       what, x, y, noc, i);
				}
			}
		}
	}
}

/* ------------------------------------------------------------------------ */
/* Tile grid creation                                                        */
/* ------------------------------------------------------------------------ */

TEST(noc_grid_create_profiles)
{
	static const __u8 whdoc[4] = { VN_T, VN_E, VN_D, VN_P };
	static __u8 dram64[64 * 64];
	/*
	 * The 4 x 3 grid: 12 tiles (6144 counter bytes), 8 Tensix and
	 * 2 Ethernet. Sizes by hand from the profiles' L1s (spec section 7).
	 */
	const struct {
		__u32 profile, w, h, l1t, l1e;
		const __u8 *types;
		__u64 size;
	} cases[] = {
		{ VN_WH, 4, 3, 0, 0, vn_grid43, 6144 + 8 * 1464 * 1024 + 2 * 256 * 1024 },
		{ VN_BH, 4, 3, 0, 0, vn_grid43, 6144 + 8 * 1536 * 1024 + 2 * 512 * 1024 },
		{ VN_WH, 4, 3, 4096, 1024, vn_grid43, 6144 + 8 * 4096 + 2 * 1024 },
		{ VN_BH, 4, 3, 16, 16, vn_grid43, 6144 + 8 * 16 + 2 * 16 },
		/* docs/semantics-noc.md's example: 1763328. */
		{ VN_WH, 2, 2, 0, 0, whdoc, 1763328 },
		/* The largest L1s of each profile are accepted. */
		{ VN_WH, 2, 2, 1464 * 1024, 256 * 1024, whdoc, 2048 + 1499136 + 262144 },
		{ VN_BH, 2, 2, 1536 * 1024, 512 * 1024, whdoc, 2048 + 1572864 + 524288 },
		/* 64 x 64 tiles without L1: only the counters, 2 MiB. */
		{ VN_BH, 64, 64, 0, 0, dram64, 64 * 64 * 512 },
		{ VN_WH, 1, 1, 16, 0, vn_grid43, 512 + 16 },
	};
	size_t i;
	int fd;

	memset(dram64, VN_D, sizeof(dram64));
	VT_OPEN(fd);
	for (i = 0; i < VT_ARRAY_SIZE(cases); i++) {
		struct drm_vatom_tile_grid_desc d = {
			.profile = cases[i].profile,
			.width = cases[i].w, .height = cases[i].h,
			.l1_size = { cases[i].l1t, cases[i].l1e, 0, 0 },
			.tile_types = vt_u64_ptr(cases[i].types),
		};
		struct drm_vatom_surface_info info;
		__u64 size;
		__u32 h;
		__u8 *m;

		ASSERT_EQ(0, vn_create(fd, &d, &h, &size)) TH_LOG("case %zu", i);
		EXPECT_EQ(cases[i].size, size) TH_LOG("case %zu", i);
		memset(&info, 0, sizeof(info));
		ASSERT_EQ(0, vt_surface_info(fd, h, &info));
		EXPECT_EQ(DRM_VATOM_SURFACE_TILE_GRID, info.kind);
		EXPECT_EQ(cases[i].size, info.size);
		EXPECT_EQ(vt_page_round(cases[i].size), info.mmap_size);
		/* Counters and L1s start zeroed (small grids: read them all). */
		if (size <= (4u << 20)) {
			m = vt_map(fd, h, info.mmap_size);
			ASSERT_NE(NULL, m);
			EXPECT_EQ(-1, vt_find_ne8(m, 0, size, 0)) TH_LOG("case %zu", i);
			munmap(m, info.mmap_size);
		}
		EXPECT_EQ(0, vt_gem_close(fd, h));
	}
	close(fd);
}

/* The exact limit: 16 x 16 Tensix tiles of L1 L have 256 * (512 + L) bytes. */
TEST(noc_grid_create_limit)
{
	static __u8 t256[256];
	struct drm_vatom_tile_grid_desc d = {
		.profile = VN_WH, .width = 16, .height = 16,
		.tile_types = vt_u64_ptr(t256),
	};
	__u64 max, size;
	__u32 h;
	int fd;

	VT_OPEN(fd);
	ASSERT_EQ(0, vt_get_param(fd, DRM_VATOM_PARAM_MAX_SURFACE_SIZE, 0, &max));
	memset(t256, VN_T, sizeof(t256));
	/* 256 MiB: 256 * (512 + 1048064) = 2^28 exactly. */
	d.l1_size[VN_T] = max / 256 - 512;
	ASSERT_EQ(0, max % 4096);
	ASSERT_GE(1464 * 1024, d.l1_size[VN_T]);
	ASSERT_EQ(0, vn_create(fd, &d, &h, &size));
	EXPECT_EQ(max, size);
	EXPECT_EQ(0, vt_gem_close(fd, h));
	/* 16 bytes more per L1: 4096 bytes over. */
	d.l1_size[VN_T] += 16;
	VT_EXPECT_ERRNO(E2BIG, vn_create(fd, &d, &h, &size));
	/* 64 x 64 Blackhole Tensix tiles: 6 GiB. */
	{
		static __u8 t4096[4096];
		struct drm_vatom_tile_grid_desc big = {
			.profile = VN_BH, .width = 64, .height = 64,
			.tile_types = vt_u64_ptr(t4096),
		};

		memset(t4096, VN_T, sizeof(t4096));
		VT_EXPECT_ERRNO(E2BIG, vn_create(fd, &big, &h, &size));
	}
	close(fd);
}

TEST(noc_grid_create_errors)
{
	static const __u8 types4[4] = { VN_T, VN_E, VN_D, VN_P };
	const struct drm_vatom_tile_grid_desc good = {
		.profile = VN_WH, .width = 2, .height = 2,
		.l1_size = { 4096, 1024, 0, 0 },
		.tile_types = vt_u64_ptr(types4),
	};
	const struct {
		const char *what;
		int field;	/* 0 profile 1 flags 2 width 3 height 4..7 l1_size */
		__u32 value;
	} bad[] = {
		{ "profile 2", 0, 2 },
		{ "profile ~0", 0, 0xffffffff },
		{ "flags bit 0", 1, 1 },
		{ "flags bit 31", 1, 0x80000000 },
		{ "width 0", 2, 0 },
		{ "width 65", 2, 65 },
		{ "width ~0", 2, 0xffffffff },
		{ "height 0", 3, 0 },
		{ "height 65", 3, 65 },
		{ "Tensix L1 not a multiple of 16", 4, 4100 },
		{ "Tensix L1 8", 4, 8 },
		{ "Tensix L1 above Wormhole's 1464 KiB", 4, 1464 * 1024 + 16 },
		{ "Tensix L1 of Blackhole on Wormhole", 4, 1536 * 1024 },
		{ "Ethernet L1 not a multiple of 16", 5, 1000 },
		{ "Ethernet L1 above 256 KiB", 5, 256 * 1024 + 16 },
		{ "DRAM L1", 6, 16 },
		{ "PCIe L1", 7, 16 },
		{ "PCIe L1 ~0", 7, 0xfffffff0 },
	};
	struct drm_vatom_tile_grid_desc d;
	struct drm_vatom_surface_create c;
	__u8 types[4];
	__u64 size;
	size_t i;
	__u32 h;
	int fd;

	VT_OPEN(fd);
	d = good;
	ASSERT_EQ(0, vn_create(fd, &d, &h, &size));
	EXPECT_EQ(0, vt_gem_close(fd, h));

	for (i = 0; i < VT_ARRAY_SIZE(bad); i++) {
		d = good;
		switch (bad[i].field) {
		case 0:
			d.profile = bad[i].value;
			break;
		case 1:
			d.flags = bad[i].value;
			break;
		case 2:
			d.width = bad[i].value;
			break;
		case 3:
			d.height = bad[i].value;
			break;
		default:
			d.l1_size[bad[i].field - 4] = bad[i].value;
			break;
		}
		errno = 0;
		EXPECT_EQ(-1, vn_create(fd, &d, &h, &size)) TH_LOG("%s", bad[i].what);
		EXPECT_EQ(EINVAL, errno) TH_LOG("%s", bad[i].what);
	}
	/* Blackhole's sizes on Blackhole are fine, one step more is not. */
	d = good;
	d.profile = VN_BH;
	d.l1_size[VN_T] = 1536 * 1024;
	d.l1_size[VN_E] = 512 * 1024;
	ASSERT_EQ(0, vn_create(fd, &d, &h, &size));
	EXPECT_EQ(0, vt_gem_close(fd, h));
	d.l1_size[VN_E] = 512 * 1024 + 16;
	VT_EXPECT_ERRNO(EINVAL, vn_create(fd, &d, &h, &size));

	/* Unknown tile types. */
	memcpy(types, types4, sizeof(types));
	d = good;
	d.tile_types = vt_u64_ptr(types);
	types[3] = DRM_VATOM_TILE_TYPES;
	VT_EXPECT_ERRNO(EINVAL, vn_create(fd, &d, &h, &size));
	types[3] = 0xff;
	VT_EXPECT_ERRNO(EINVAL, vn_create(fd, &d, &h, &size));

	/* Tile types that cannot be read. */
	d = good;
	d.tile_types = 0;
	VT_EXPECT_ERRNO(EFAULT, vn_create(fd, &d, &h, &size));
	d.tile_types = 1;
	VT_EXPECT_ERRNO(EFAULT, vn_create(fd, &d, &h, &size));
	{
		/* The last byte of the array lies on an unmapped page. */
		__u8 *pg = mmap(NULL, 2 * VT_PAGE_SIZE, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		ASSERT_NE(MAP_FAILED, pg);
		ASSERT_EQ(0, munmap(pg + VT_PAGE_SIZE, VT_PAGE_SIZE));
		memcpy(pg + VT_PAGE_SIZE - 3, types4, 3);
		d.tile_types = vt_u64_ptr(pg + VT_PAGE_SIZE - 3);
		VT_EXPECT_ERRNO(EFAULT, vn_create(fd, &d, &h, &size));
		/* The same three bytes describe a 3 x 1 grid that fits. */
		d.width = 3;
		d.height = 1;
		ASSERT_EQ(0, vn_create(fd, &d, &h, &size));
		EXPECT_EQ(3 * 512 + 4096 + 1024, size);
		EXPECT_EQ(0, vt_gem_close(fd, h));
		munmap(pg, VT_PAGE_SIZE);
	}

	/* The create ioctl's own fields for a tile grid. */
	d = good;
	memset(&c, 0, sizeof(c));
	c.kind = DRM_VATOM_SURFACE_TILE_GRID;
	c.desc = vt_u64_ptr(&d);
	c.desc_size = sizeof(d);
	c.size = 4096;		/* must be 0 for a descriptor kind */
	VT_EXPECT_ERRNO(EINVAL, vt_surface_create(fd, &c));
	c.size = 0;
	c.flags = 1;
	VT_EXPECT_ERRNO(EINVAL, vt_surface_create(fd, &c));
	c.flags = 0;
	c.desc = 0;
	VT_EXPECT_ERRNO(EINVAL, vt_surface_create(fd, &c));
	c.desc = vt_u64_ptr(&d);
	c.desc_size = 0;
	VT_EXPECT_ERRNO(EINVAL, vt_surface_create(fd, &c));
	c.desc = 8;
	c.desc_size = sizeof(d);
	VT_EXPECT_ERRNO(EFAULT, vt_surface_create(fd, &c));

	/* Trailing bytes past the known descriptor: zero is fine, else EINVAL. */
	{
		struct {
			struct drm_vatom_tile_grid_desc d;
			__u64 more[2];
		} ext;

		memset(&ext, 0, sizeof(ext));
		ext.d = good;
		c.desc = vt_u64_ptr(&ext);
		c.desc_size = sizeof(ext);
		ASSERT_EQ(0, vt_surface_create(fd, &c));
		EXPECT_EQ(2048 + 4096 + 1024, c.size);
		EXPECT_EQ(0, vt_gem_close(fd, c.handle));
		c.size = 0;	/* an output: must go back to 0 */
		ext.more[1] = 1ull << 63;
		VT_EXPECT_ERRNO(EINVAL, vt_surface_create(fd, &c));
		ext.more[1] = 0;
		ext.more[0] = 1;
		VT_EXPECT_ERRNO(EINVAL, vt_surface_create(fd, &c));
	}
	/*
	 * A shorter descriptor (older userspace) is zero extended: without
	 * tile_types the array cannot be read.
	 */
	c.desc = vt_u64_ptr(&d);
	c.desc_size = offsetof(struct drm_vatom_tile_grid_desc, tile_types);
	VT_EXPECT_ERRNO(EFAULT, vt_surface_create(fd, &c));
	close(fd);
}

/* ------------------------------------------------------------------------ */
/* The mapping                                                               */
/* ------------------------------------------------------------------------ */

/*
 * docs/semantics-noc.md section 1: the counters of tile t on NoC n at
 * (t * 2 + n) * 256, the L1s after them. A CPU store into an L1 is what
 * the device reads; the device's result and counters are what the CPU
 * reads, and the ioctl agrees.
 */
TEST(noc_grid_mmap_layout)
{
	struct vn_grid *g;
	struct drm_vatom_noc p;
	__u32 got[64];
	int fd;

	VT_OPEN(fd);
	g = vn_grid_new(_metadata, fd, VN_WH, 4, 3, vn_grid43, VN_TENSIX_L1,
			VN_ETH_L1);
	/* Tile (2,2) is tile 10: L1 at 6144 + 8 Tensix/Ethernet L1s before. */
	EXPECT_EQ(6144 + 6 * 512 + 2 * 256, g->l1_off[10]);

	/* Seed tile (2,2)'s word 0x30 through the CPU; CAS 5 -> 9 hits it. */
	*vn_l1(g, 2, 2, 0x30) = 5;
	p = vn_req(g, 1, 2, 2, 2, 0x30, 0x4254, 0);
	vn_mark(g, &p, 1, 2, 0x10, 6);
	ASSERT_EQ(0, vn_submit(g, &p, 1, NULL));
	EXPECT_EQ(9, *vn_l1(g, 2, 2, 0x30));
	EXPECT_EQ(5, *vn_l1(g, 1, 2, 0x10));

	/* Initiator (1,2) is tile 9, NoC 0: block at 9 * 512. */
	EXPECT_EQ(1, vt_rd32(g->map, 9 * 512 + 4 * VN_CMD_ACCEPTED));
	EXPECT_EQ(1, vt_rd32(g->map, 9 * 512 + 4 * VN_RESP_RECEIVED));
	/* Target (2,2) is tile 10, NoC 0. */
	EXPECT_EQ(1, vt_rd32(g->map, 10 * 512 + 4 * VN_SLV_NP_RECV));
	/* ... and the NoC 1 blocks (at + 256) stay zero. */
	EXPECT_EQ(0, vt_rd32(g->map, 9 * 512 + 256 + 4 * VN_CMD_ACCEPTED));
	EXPECT_EQ(0, vt_rd32(g->map, 10 * 512 + 256 + 4 * VN_SLV_NP_RECV));

	memset(got, VT_POISON, sizeof(got));
	ASSERT_EQ(0, vn_counters(fd, g->handle, DRM_VATOM_NOC_COUNTERS_READ, 1, 2,
				 0, 0, 64, got));
	EXPECT_EQ(-1, vt_mismatch32(got, (__u32 *)(g->map + 9 * 512), 64));

	/* A CPU write to a counter word is what the ioctl reads. */
	*vn_cnt(g, 3, 2, 1) = 0x12345678;
	ASSERT_EQ(0, vn_counters(fd, g->handle, DRM_VATOM_NOC_COUNTERS_READ, 3, 2,
				 1, 0, 1, got));
	EXPECT_EQ(0x12345678, got[0]);
	EXPECT_EQ(0x12345678, vt_rd32(g->map, (11 * 2 + 1) * 256));
	vn_grid_free(g);
	close(fd);
}

/* A tile grid is not a buffer: vISA and PTX packets reject it. */
TEST(noc_grid_rejects_visa_ptx)
{
	__u32 off = 0x40, one = 1, res[2];
	struct drm_vatom_submit out;
	struct drm_vatom_ptx ptx;
	struct vt_stream s;
	struct vt_visa v;
	struct vn_grid *g;
	int fd;

	VT_OPEN(fd);
	g = vn_grid_new(_metadata, fd, VN_BH, 4, 3, vn_grid43, VN_TENSIX_L1,
			VN_ETH_L1);
	memset(g->map, 0x5a, g->size);

	vt_stream_init(&s);
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_1,
		 DRM_VATOM_VISA_TYPE_UD, &off, &one, NULL, true);
	vt_add_visa(&s, &v);
	errno = 0;
	EXPECT_EQ(-1, vt_run(fd, &s, g->handle, res, sizeof(res), &out));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, out.error_index);
	EXPECT_EQ(DRM_VATOM_ERR_SURFACE_KIND, out.error_reason);

	vt_stream_init(&s);
	vt_ptx_init(&ptx, DRM_VATOM_PTX_OP_ADD, DRM_VATOM_PTX_TYPE_U32, 0,
		    DRM_VATOM_PTX_SPACE_GLOBAL, 0x40);
	ptx.b[0] = 1;
	vt_add_ptx(&s, &ptx);
	errno = 0;
	EXPECT_EQ(-1, vt_run(fd, &s, g->handle, res, sizeof(res), &out));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, out.error_index);
	EXPECT_EQ(DRM_VATOM_ERR_SURFACE_KIND, out.error_reason);

	EXPECT_EQ(-1, vt_find_ne8(g->map, 0, g->size, 0x5a));
	vn_grid_free(g);
	close(fd);
}

/* ------------------------------------------------------------------------ */
/* Every variant                                                             */
/* ------------------------------------------------------------------------ */

#define VN_PWH	1u	/* the case runs on Wormhole */
#define VN_PBH	2u	/* ... on Blackhole */
#define VN_PALL	3u

/*
 * One marked unicast from (0,0) to tile (1,1)'s block 0x40, response to
 * (0,0) at 0x100. @targ is T (0x40..0x4f).
 */
struct vn_case {
	const char *what;
	__u32 profiles;
	__u32 at;
	__u32 data;
	__u32 targ;
	__u32 in[4];
	__u32 out[4];
	__u32 result;
};

#define VN_BLK	{ 0x11111111, 0xffffffff, 0x33333333, 0x44444444 }

static const struct vn_case vn_cases[] = {
	/* Increment, opcode 1: at = 0x1000 | IntWidth << 2 | Ofs. */
	{ "incr IntWidth 31 wraps 32 bits", VN_PALL, 0x107c, 5, 0x40,
	  { 0xfffffffe, 2, 3, 4 }, { 0x00000003, 2, 3, 4 }, 0xfffffffe },
	{ "incr IntWidth 7 keeps bits 8..31", VN_PALL, 0x101d, 1, 0x44,
	  { 0, 0x123456ff, 0, 0 }, { 0, 0x12345600, 0, 0 }, 0x123456ff },
	{ "incr IntWidth 7 with D past 8 bits", VN_PALL, 0x101d, 0x1ff, 0x44,
	  { 0, 0x123456ff, 0, 0 }, { 0, 0x123456fe, 0, 0 }, 0x123456ff },
	{ "incr IntWidth 0: 1 + 1 in one bit", VN_PALL, 0x1002, 1, 0x48,
	  { 0, 0, 0xabcd0001, 0 }, { 0, 0, 0xabcd0000, 0 }, 0xabcd0001 },
	{ "incr IntWidth 0: 0 + 3 in one bit", VN_PALL, 0x1002, 3, 0x48,
	  { 0, 0, 0xabcd0000, 0 }, { 0, 0, 0xabcd0001, 0 }, 0xabcd0000 },
	{ "incr IntWidth 15", VN_PALL, 0x103c, 1, 0x40,
	  { 0x1234ffff, 0, 0, 0 }, { 0x12340000, 0, 0, 0 }, 0x1234ffff },
	{ "incr Ofs 3, T names word 0", VN_PALL, 0x107f, 0x10, 0x40,
	  VN_BLK, { 0x11111111, 0xffffffff, 0x33333333, 0x44444454 }, 0x11111111 },
	{ "incr misaligned T 0x47: Result W(0x44)", VN_PALL, 0x107c, 1, 0x47,
	  VN_BLK, { 0x11111112, 0xffffffff, 0x33333333, 0x44444444 }, 0xffffffff },
	/* CAS, opcode 4: at = 0x4000 | SetVal << 6 | CmpVal << 2 | Ofs. */
	{ "CAS 5 -> 9 hit", VN_PALL, 0x4254, 0, 0x40,
	  { 5, 2, 3, 4 }, { 9, 2, 3, 4 }, 5 },
	{ "CAS 5 -> 9 miss", VN_PALL, 0x4254, 0, 0x40,
	  { 6, 2, 3, 4 }, { 6, 2, 3, 4 }, 6 },
	{ "CAS compares all 32 bits", VN_PALL, 0x4254, 0, 0x40,
	  { 0x10000005, 2, 3, 4 }, { 0x10000005, 2, 3, 4 }, 0x10000005 },
	{ "CAS Ofs 2, T names word 3", VN_PALL, 0x43c2, 0, 0x4c,
	  { 1, 2, 0, 4 }, { 1, 2, 0xf, 4 }, 4 },
	{ "CAS 15 -> 0 on word 1", VN_PALL, 0x403d, 0, 0x44,
	  { 0, 15, 0, 0 }, { 0, 0, 0, 0 }, 15 },
	/* Swap mask, opcode 3: at = 0x3000 | Mask << 2; D halves BBBB:AAAA. */
	{ "swap mask 0x00", VN_PALL, 0x3000, 0xbbbbaaaa, 0x40,
	  VN_BLK, VN_BLK, 0x11111111 },
	{ "swap mask 0x01", VN_PALL, 0x3004, 0xbbbbaaaa, 0x40,
	  VN_BLK, { 0x1111aaaa, 0xffffffff, 0x33333333, 0x44444444 }, 0x11111111 },
	{ "swap mask 0x0c", VN_PALL, 0x3030, 0xbbbbaaaa, 0x40,
	  VN_BLK, { 0x11111111, 0xbbbbaaaa, 0x33333333, 0x44444444 }, 0x11111111 },
	{ "swap mask 0x14", VN_PALL, 0x3050, 0xbbbbaaaa, 0x40,
	  VN_BLK, { 0x11111111, 0xffffaaaa, 0x3333aaaa, 0x44444444 }, 0x11111111 },
	{ "swap mask 0x82", VN_PALL, 0x3208, 0xbbbbaaaa, 0x40,
	  VN_BLK, { 0xbbbb1111, 0xffffffff, 0x33333333, 0xbbbb4444 }, 0x11111111 },
	{ "swap mask 0xff", VN_PALL, 0x33fc, 0xbbbbaaaa, 0x40,
	  VN_BLK, { 0xbbbbaaaa, 0xbbbbaaaa, 0xbbbbaaaa, 0xbbbbaaaa }, 0x11111111 },
	{ "swap mask 0xc0, T names word 3", VN_PALL, 0x3300, 0xbbbbaaaa, 0x4c,
	  VN_BLK, { 0x11111111, 0xffffffff, 0x33333333, 0xbbbbaaaa }, 0x44444444 },
	/* Swap index: 6 (Ofs [1:0], bit 2 = 1), 7 (Ofs [3:2]), 10 (BH). */
	{ "swap index 6, Ofs 2", VN_PALL, 0x6006, 0xcafef00d, 0x40,
	  VN_BLK, { 0x11111111, 0xffffffff, 0xcafef00d, 0x44444444 }, 0x11111111 },
	{ "swap index 6, Ofs 0, T word 1", VN_PALL, 0x6004, 0xcafef00d, 0x44,
	  VN_BLK, { 0xcafef00d, 0xffffffff, 0x33333333, 0x44444444 }, 0xffffffff },
	{ "swap index 7, Ofs 2", VN_PALL, 0x7008, 0xcafef00d, 0x40,
	  VN_BLK, { 0x11111111, 0xffffffff, 0xcafef00d, 0x44444444 }, 0x11111111 },
	{ "swap index 7, Ofs 3, bits [1:0] ignored", VN_PALL, 0x700f, 0xcafef00d, 0x40,
	  VN_BLK, { 0x11111111, 0xffffffff, 0x33333333, 0xcafef00d }, 0x11111111 },
	{ "swap index 10, Ofs 3", VN_PBH, 0xa303, 0xcafef00d, 0x40,
	  VN_BLK, { 0x11111111, 0xffffffff, 0x33333333, 0xcafef00d }, 0x11111111 },
	{ "swap index 10, Ofs 1", VN_PBH, 0xa301, 0xcafef00d, 0x48,
	  VN_BLK, { 0x11111111, 0xcafef00d, 0x33333333, 0x44444444 }, 0x33333333 },
	/*
	 * Zaamo (BH): at = 0xa800 | Op << 8 | Ofs, Ofs 1, T word 0.
	 * W = -16, D = 51: add 35, xor 0xf0^0x33 = 0xc3, or 0xf3, and 0x30,
	 * min -16, max 51, minu 51, maxu 0xfffffff0.
	 */
	{ "amoadd", VN_PBH, 0xa801, 0x33, 0x40,
	  { 1, 0xfffffff0, 3, 4 }, { 1, 0x00000023, 3, 4 }, 1 },
	{ "amoxor", VN_PBH, 0xa901, 0x33, 0x40,
	  { 1, 0xfffffff0, 3, 4 }, { 1, 0xffffffc3, 3, 4 }, 1 },
	{ "amoor", VN_PBH, 0xaa01, 0x33, 0x40,
	  { 1, 0xfffffff0, 3, 4 }, { 1, 0xfffffff3, 3, 4 }, 1 },
	{ "amoand", VN_PBH, 0xab01, 0x33, 0x40,
	  { 1, 0xfffffff0, 3, 4 }, { 1, 0x00000030, 3, 4 }, 1 },
	{ "amomin", VN_PBH, 0xac01, 0x33, 0x40,
	  { 1, 0xfffffff0, 3, 4 }, { 1, 0xfffffff0, 3, 4 }, 1 },
	{ "amomax", VN_PBH, 0xad01, 0x33, 0x40,
	  { 1, 0xfffffff0, 3, 4 }, { 1, 0x00000033, 3, 4 }, 1 },
	{ "amominu", VN_PBH, 0xae01, 0x33, 0x40,
	  { 1, 0xfffffff0, 3, 4 }, { 1, 0x00000033, 3, 4 }, 1 },
	{ "amomaxu", VN_PBH, 0xaf01, 0x33, 0x40,
	  { 1, 0xfffffff0, 3, 4 }, { 1, 0xfffffff0, 3, 4 }, 1 },
	/* W = 5, D = 0x80000000 (INT_MIN). */
	{ "amoadd 2", VN_PBH, 0xa801, 0x80000000, 0x40,
	  { 1, 5, 3, 4 }, { 1, 0x80000005, 3, 4 }, 1 },
	{ "amoxor 2", VN_PBH, 0xa901, 0x80000000, 0x40,
	  { 1, 5, 3, 4 }, { 1, 0x80000005, 3, 4 }, 1 },
	{ "amoor 2", VN_PBH, 0xaa01, 0x80000000, 0x40,
	  { 1, 5, 3, 4 }, { 1, 0x80000005, 3, 4 }, 1 },
	{ "amoand 2", VN_PBH, 0xab01, 0x80000000, 0x40,
	  { 1, 5, 3, 4 }, { 1, 0, 3, 4 }, 1 },
	{ "amomin 2", VN_PBH, 0xac01, 0x80000000, 0x40,
	  { 1, 5, 3, 4 }, { 1, 0x80000000, 3, 4 }, 1 },
	{ "amomax 2", VN_PBH, 0xad01, 0x80000000, 0x40,
	  { 1, 5, 3, 4 }, { 1, 5, 3, 4 }, 1 },
	{ "amominu 2", VN_PBH, 0xae01, 0x80000000, 0x40,
	  { 1, 5, 3, 4 }, { 1, 5, 3, 4 }, 1 },
	{ "amomaxu 2", VN_PBH, 0xaf01, 0x80000000, 0x40,
	  { 1, 5, 3, 4 }, { 1, 0x80000000, 3, 4 }, 1 },
	{ "amoadd Ofs 3, T word 2", VN_PBH, 0xa803, 0xffffffff, 0x48,
	  { 1, 2, 3, 0 }, { 1, 2, 3, 0xffffffff }, 3 },
	/* Parallel add (BH), opcode 9: at = 0x9000 | Fmt; D tiled 4x. */
	{ "acc u32 (4)", VN_PBH, 0x9004, 1, 0x40,
	  { 1, 0xffffffff, 0x80000000, 0 }, { 2, 0, 0x80000001, 1 }, 1 },
	{ "acc u32 (12)", VN_PBH, 0x900c, 1, 0x44,
	  { 1, 0xffffffff, 0x80000000, 0 }, { 2, 0, 0x80000001, 1 }, 0xffffffff },
	{ "acc u32 (13)", VN_PBH, 0x900d, 1, 0x48,
	  { 1, 0xffffffff, 0x80000000, 0 }, { 2, 0, 0x80000001, 1 }, 0x80000000 },
	/*
	 * u8, D bytes 02 01 ff 80 (lane i pairs with byte i & 3).
	 * 0x7f01ff10: 10+02 12, ff+01 ff|00, 01+ff ff|00, 7f+80 ff.
	 * 0xffffffff: ff|01, ff|00, ff|fe, ff|7f (saturate | wrap).
	 * 0x01020304: 06, 04, ff|01, 81.
	 */
	{ "acc u8 saturating (7)", VN_PBH, 0x9007, 0x80ff0102, 0x40,
	  { 0x7f01ff10, 0, 0xffffffff, 0x01020304 },
	  { 0xffffff12, 0x80ff0102, 0xffffffff, 0x81ff0406 }, 0x7f01ff10 },
	{ "acc u8 wrapping (15)", VN_PBH, 0x900f, 0x80ff0102, 0x40,
	  { 0x7f01ff10, 0, 0xffffffff, 0x01020304 },
	  { 0xff000012, 0x80ff0102, 0x7ffe0001, 0x81010406 }, 0x7f01ff10 },
	/* fp32, D = 1.5: 1 + 1.5, -1.5 + 1.5 = +0, 2^100 + 1.5, sub + 1.5. */
	{ "acc fp32 (0)", VN_PBH, 0x9000, 0x3fc00000, 0x40,
	  { 0x3f800000, 0xbfc00000, 0x71800000, 0x00000001 },
	  { 0x40200000, 0x00000000, 0x71800000, 0x3fc00000 }, 0x3f800000 },
	{ "acc fp32 (8)", VN_PBH, 0x9008, 0x3fc00000, 0x44,
	  { 0x3f800000, 0xbfc00000, 0x71800000, 0x00000001 },
	  { 0x40200000, 0x00000000, 0x71800000, 0x3fc00000 }, 0xbfc00000 },
	/*
	 * fp32 ftz, D = -2^-126: 1 - 2^-126 = 1; 2^-126(1 + 2^-23) - 2^-126
	 * = 2^-149 -> +0; subnormal inputs are 0: 0 - 2^-126, -0 - 2^-126.
	 */
	{ "acc fp32 flush in and out", VN_PBH, 0x9000, 0x80800000, 0x40,
	  { 0x3f800000, 0x00800001, 0x00000001, 0x80000005 },
	  { 0x3f800000, 0x00000000, 0x80800000, 0x80800000 }, 0x3f800000 },
	/*
	 * D = 2^-126: -2^-126(1 + 2^-23) + 2^-126 = -2^-149 -> -0;
	 * -2^-126 + 2^-126 = +0; 2^-125; -FLT_MAX.
	 */
	{ "acc fp32 flush keeps the sign", VN_PBH, 0x9000, 0x00800000, 0x40,
	  { 0x80800001, 0x80800000, 0x00800000, 0xff7fffff },
	  { 0x80000000, 0x00000000, 0x01000000, 0xff7fffff }, 0x80800001 },
	/*
	 * fp16, D = lo 1.0, hi 2.0 (even halves + 1, odd + 2): 1+1 2, 1+2 3,
	 * sub 0+1, sub 0+2, -2^-14+1 -> 1, 2+2 4, 65504+1 -> 65504, -inf+2.
	 */
	{ "acc fp16 (1)", VN_PBH, 0x9001, 0x40003c00, 0x40,
	  { 0x3c003c00, 0x00010001, 0x40008400, 0xfc007bff },
	  { 0x42004000, 0x40003c00, 0x44003c00, 0xfc007bff }, 0x3c003c00 },
	{ "acc fp16 (9)", VN_PBH, 0x9009, 0x40003c00, 0x40,
	  { 0x3c003c00, 0x00010001, 0x40008400, 0xfc007bff },
	  { 0x42004000, 0x40003c00, 0x44003c00, 0xfc007bff }, 0x3c003c00 },
	/*
	 * D = lo -2^-14, hi +2^-14: 0x0401 - 2^-14 = 2^-24 -> +0,
	 * 0x8401 + 2^-14 = -2^-24 -> -0; zero halves take D.
	 */
	{ "acc fp16 flush keeps the sign", VN_PBH, 0x9001, 0x04008400, 0x40,
	  { 0x84010401, 0, 0, 0 },
	  { 0x80000000, 0x04008400, 0x04008400, 0x04008400 }, 0x84010401 },
	/*
	 * bf16, D = lo 1.0, hi 2.0: 2, 3; sub 0+1, 3+2 5; 1+1 2, -2+2 +0;
	 * 0+1, max + 2 = max.
	 */
	{ "acc bf16 (2)", VN_PBH, 0x9002, 0x40003f80, 0x40,
	  { 0x3f803f80, 0x40400001, 0xc0003f80, 0x7f7f0000 },
	  { 0x40404000, 0x40a03f80, 0x00004000, 0x7f7f3f80 }, 0x3f803f80 },
	{ "acc bf16 (10)", VN_PBH, 0x900a, 0x40003f80, 0x4c,
	  { 0x3f803f80, 0x40400001, 0xc0003f80, 0x7f7f0000 },
	  { 0x40404000, 0x40a03f80, 0x00004000, 0x7f7f3f80 }, 0x7f7f0000 },
	/* bf16 ties to even, D = 1.0: 1 + 2^-8 -> 1; (1 + 2^-7) + 1 -> 2. */
	{ "acc bf16 ties to even", VN_PBH, 0x9002, 0x3f803f80, 0x40,
	  { 0x3b803b80, 0x3f813f81, 0, 0 },
	  { 0x3f803f80, 0x40004000, 0x3f803f80, 0x3f803f80 }, 0x3b803b80 },
};

static __u32 vn_f32_ftz(__u32 b)
{
	return (b & 0x7f800000) ? b : (b & 0x80000000);
}

static __u16 vn_h_ftz(__u16 b, __u16 expmask)
{
	return (b & expmask) ? b : (b & 0x8000);
}

static float vn_f(__u32 b)
{
	float f;

	memcpy(&f, &b, 4);
	return f;
}

static __u32 vn_b(float f)
{
	__u32 b;

	memcpy(&b, &f, 4);
	return b;
}

/* Round a float (no NaN) to bf16, to nearest even. */
static __u16 vn_bf16_rne(float f)
{
	__u32 b = vn_b(f);

	return (__u16)((b + 0x7fff + ((b >> 16) & 1)) >> 16);
}

/*
 * The host FPU's answer for one parallel-add lane, inputs and output
 * flushed by hand; fp16 through _Float16, bf16 through float (exact enough:
 * float has more than 2 * 8 + 2 bits, so rounding twice is harmless).
 * Returns false when this compiler has no _Float16.
 */
static bool vn_host_acc(__u32 fmt, const __u32 in[4], __u32 d, __u32 out[4])
{
	volatile float x, y;
	__u32 i;

	for (i = 0; i < 4; i++)
		out[i] = in[i];
	switch (fmt & 7) {
	case 0:
		for (i = 0; i < 4; i++) {
			x = vn_f(vn_f32_ftz(in[i]));
			y = vn_f(vn_f32_ftz(d));
			out[i] = vn_f32_ftz(vn_b(x + y));
		}
		return true;
	case 1:
#ifdef __FLT16_MANT_DIG__
		for (i = 0; i < 8; i++) {
			__u16 a = vn_h_ftz(in[i / 2] >> (16 * (i & 1)), 0x7c00);
			__u16 b = vn_h_ftz(d >> (16 * (i & 1)), 0x7c00);
			volatile _Float16 ha, hb, hr;
			__u16 r;

			memcpy((void *)&ha, &a, 2);
			memcpy((void *)&hb, &b, 2);
			hr = ha + hb;
			memcpy(&r, (void *)&hr, 2);
			r = vn_h_ftz(r, 0x7c00);
			out[i / 2] = (out[i / 2] & ~(0xffffu << (16 * (i & 1)))) |
				     (__u32)r << (16 * (i & 1));
		}
		return true;
#else
		return false;
#endif
	case 2:
		for (i = 0; i < 8; i++) {
			__u16 a = vn_h_ftz(in[i / 2] >> (16 * (i & 1)), 0x7f80);
			__u16 b = vn_h_ftz(d >> (16 * (i & 1)), 0x7f80);
			__u16 r;

			x = vn_f((__u32)a << 16);
			y = vn_f((__u32)b << 16);
			r = vn_h_ftz(vn_bf16_rne(x + y), 0x7f80);
			out[i / 2] = (out[i / 2] & ~(0xffffu << (16 * (i & 1)))) |
				     (__u32)r << (16 * (i & 1));
		}
		return true;
	}
	return false;
}

/* The hand table's float rows agree with the host FPU. */
TEST(noc_acc_table_vs_host_fpu)
{
	size_t i, checked = 0;

	for (i = 0; i < VT_ARRAY_SIZE(vn_cases); i++) {
		const struct vn_case *c = &vn_cases[i];
		__u32 fmt = c->at & 0xf, host[4];

		if ((c->at >> 12) != 9 || (fmt != 0 && fmt != 8 && fmt != 1 &&
					   fmt != 9 && fmt != 2 && fmt != 10))
			continue;
		if (!vn_host_acc(fmt, c->in, c->data, host))
			continue;
		EXPECT_EQ(-1, vt_mismatch32(host, c->out, 4)) TH_LOG("%s", c->what);
		checked++;
	}
#ifdef __FLT16_MANT_DIG__
	EXPECT_EQ(10, checked);
#else
	EXPECT_EQ(7, checked);
#endif
}

static void vn_run_cases(struct __test_metadata *_metadata, __u32 profile)
{
	struct vn_grid *g;
	size_t i, ran = 0;
	int fd;

	VT_OPEN(fd);
	g = vn_grid_new(_metadata, fd, profile, 4, 3, vn_grid43, VN_TENSIX_L1,
			VN_ETH_L1);
	for (i = 0; i < VT_ARRAY_SIZE(vn_cases); i++) {
		const struct vn_case *c = &vn_cases[i];
		struct drm_vatom_noc p;
		__u32 k;

		if (!(c->profiles & (1u << profile)))
			continue;
		/* The neighbour blocks and the block itself. */
		for (k = 0; k < 4; k++) {
			*vn_l1(g, 1, 1, 0x30 + 4 * k) = 0xa5a5a5a5;
			*vn_l1(g, 1, 1, 0x40 + 4 * k) = c->in[k];
			*vn_l1(g, 1, 1, 0x50 + 4 * k) = 0x5a5a5a5a;
		}
		*vn_l1(g, 0, 0, 0x100) = 0xdddddddd;
		p = vn_req(g, 0, 0, 1, 1, c->targ, c->at, c->data);
		vn_mark(g, &p, 0, 0, 0x100, 1);
		ASSERT_EQ(0, vn_submit(g, &p, 1, NULL)) TH_LOG("%s: errno %d", c->what, errno);
		for (k = 0; k < 4; k++) {
			EXPECT_EQ(c->out[k], *vn_l1(g, 1, 1, 0x40 + 4 * k))
				TH_LOG("%s: word %u", c->what, k);
			EXPECT_EQ(0xa5a5a5a5, *vn_l1(g, 1, 1, 0x30 + 4 * k));
			EXPECT_EQ(0x5a5a5a5a, *vn_l1(g, 1, 1, 0x50 + 4 * k));
		}
		EXPECT_EQ(c->result, *vn_l1(g, 0, 0, 0x100)) TH_LOG("%s: Result", c->what);
		ran++;
	}
	/* 24 cases both profiles have, 34 Blackhole-only ones. */
	EXPECT_EQ(profile == VN_WH ? 24 : 58, ran);
	vn_grid_free(g);
	close(fd);
}

TEST(noc_variants_wormhole)
{
	vn_run_cases(_metadata, VN_WH);
}

TEST(noc_variants_blackhole)
{
	vn_run_cases(_metadata, VN_BH);
}

/* ------------------------------------------------------------------------ */
/* Recipients and responses                                                  */
/* ------------------------------------------------------------------------ */

/*
 * Unicast to an Ethernet tile's last block and from an Ethernet initiator;
 * RESP_MARKED writes the Result, a posted request never does (even with
 * return registers that would be invalid).
 */
static void vn_unicast(struct __test_metadata *_metadata, __u32 profile)
{
	struct drm_vatom_noc p[3];
	struct vn_grid *g;
	int fd;

	VT_OPEN(fd);
	g = vn_grid_new(_metadata, fd, profile, 4, 3, vn_grid43, VN_TENSIX_L1,
			VN_ETH_L1);
	*vn_l1(g, 2, 0, 0xfc) = 41;		/* Ethernet (2,0), L1 256 */
	*vn_l1(g, 3, 2, 0x1f0) = 7;		/* Tensix (3,2), last block */
	*vn_l1(g, 0, 2, 0x20) = 0xdddddddd;
	*vn_l1(g, 1, 2, 0x24) = 0xeeeeeeee;
	*vn_l1(g, 1, 2, 0x28) = 0xcccccccc;

	/* Tensix (0,2) increments Ethernet (2,0) word 0xfc by 1, marked. */
	p[0] = vn_req(g, 0, 2, 2, 0, 0xfc, 0x107f, 1);
	vn_mark(g, &p[0], 0, 2, 0x20, 0);
	/* Ethernet (1,2) swaps Tensix (3,2)'s 0x1f0 (swap index 6, Ofs 0). */
	p[1] = vn_req(g, 1, 2, 3, 2, 0x1f0, 0x6004, 99);
	vn_mark(g, &p[1], 1, 2, 0x24, 15);
	/* Posted; the return registers are ignored even if nonsense. */
	p[2] = vn_req(g, 1, 2, 3, 2, 0x1f0, 0x107c, 1);
	p[2].ret_addr_lo = 0x28;
	p[2].ret_addr_mid = profile == VN_WH ? (1 << 4 | 2 << 10) : 0;
	p[2].ret_addr_hi = profile == VN_WH ? 0 : (1 | 2 << 6);
	ASSERT_EQ(0, vn_submit(g, p, 3, NULL));
	EXPECT_EQ(42, *vn_l1(g, 2, 0, 0xfc));
	EXPECT_EQ(41, *vn_l1(g, 0, 2, 0x20));
	EXPECT_EQ(100, *vn_l1(g, 3, 2, 0x1f0));
	EXPECT_EQ(7, *vn_l1(g, 1, 2, 0x24));
	EXPECT_EQ(0xcccccccc, *vn_l1(g, 1, 2, 0x28));

	/* Posted with garbage return registers: still accepted, still ignored. */
	p[0] = vn_req(g, 0, 0, 1, 0, 0x10, 0x107c, 5);
	p[0].ret_addr_lo = 3;
	p[0].ret_addr_mid = 0xffffffff;
	p[0].ret_addr_hi = profile == VN_WH ? 0 : 0xffffffff;
	ASSERT_EQ(0, vn_submit(g, p, 1, NULL));
	EXPECT_EQ(5, *vn_l1(g, 1, 0, 0x10));
	vn_grid_free(g);
	close(fd);
}

TEST(noc_unicast_wormhole)
{
	vn_unicast(_metadata, VN_WH);
}

TEST(noc_unicast_blackhole)
{
	vn_unicast(_metadata, VN_BH);
}

/*
 * Broadcasts of a posted increment by 1 of word 0x40 (each tile's word
 * starts at 100 + its index). Recipients by hand from the 4 x 3 grid: only
 * Tensix tiles inside the X span x Y span, the initiator only with
 * SRC_INCLUDE.
 */
static void vn_broadcast(struct __test_metadata *_metadata, __u32 profile)
{
	const struct {
		const char *what;
		__u32 ix, iy, sx, sy, ex, ey;
		bool src;
		const char *recip;	/* 12 flags, row-major */
	} cases[] = {
		/*        T T E D  T T T P  T E T T */
		{ "whole grid", 0, 0, 0, 0, 3, 2, false, "010011101011" },
		{ "whole grid, SRC_INCLUDE", 0, 0, 0, 0, 3, 2, true, "110011101011" },
		{ "X wraps: x 3, 0; y 0..1", 1, 1, 3, 0, 0, 1, false, "100010000000" },
		{ "X wraps, initiator inside", 0, 1, 3, 0, 0, 1, false, "100000000000" },
		{ "X wraps, initiator inside, SRC_INCLUDE", 0, 1, 3, 0, 0, 1, true, "100010000000" },
		{ "Y wraps: y 2, 0; x 1..2", 0, 1, 1, 2, 2, 0, false, "010000000010" },
		{ "both wrap: x 3, 0, 1; y 2, 0", 2, 1, 3, 2, 1, 0, false, "110000001001" },
		{ "Start = End + 1: the whole torus", 3, 2, 1, 1, 0, 0, false, "110011101010" },
		{ "one tile", 0, 0, 2, 2, 2, 2, false, "000000000010" },
		{ "a row through Ethernet, DRAM", 1, 1, 0, 0, 3, 0, false, "110000000000" },
	};
	struct vn_grid *g;
	size_t i;
	int fd;

	VT_OPEN(fd);
	g = vn_grid_new(_metadata, fd, profile, 4, 3, vn_grid43, VN_TENSIX_L1,
			VN_ETH_L1);
	for (i = 0; i < VT_ARRAY_SIZE(cases); i++) {
		struct drm_vatom_noc p;
		__u32 t, n = 0, x, y;
		const char *recip = cases[i].recip;

		for (t = 0; t < 12; t++)
			if (g->l1_size[t])
				*vn_l1(g, t % 4, t / 4, 0x40) = 100 + t;
		p = vn_req(g, cases[i].ix, cases[i].iy, 0, 0, 0x40, 0x107c, 1);
		vn_brcst(g, &p, cases[i].sx, cases[i].sy, cases[i].ex, cases[i].ey);
		if (cases[i].src)
			p.ctrl |= VN_CTRL_SRC_INC;
		ASSERT_EQ(0, vn_submit(g, &p, 1, NULL)) TH_LOG("%s: errno %d",
							       cases[i].what, errno);
		for (t = 0; t < 12; t++) {
			x = t % 4;
			y = t / 4;
			if (!g->l1_size[t]) {
				EXPECT_EQ('0', recip[t]) TH_LOG("bad table %s", cases[i].what);
				continue;
			}
			EXPECT_EQ(100 + t + (recip[t] == '1'), *vn_l1(g, x, y, 0x40))
				TH_LOG("%s: tile (%u,%u)", cases[i].what, x, y);
			n += recip[t] == '1';
		}
		EXPECT_LT(0, n);
	}
	vn_grid_free(g);
	close(fd);
}

TEST(noc_broadcast_wormhole)
{
	vn_broadcast(_metadata, VN_WH);
}

TEST(noc_broadcast_blackhole)
{
	vn_broadcast(_metadata, VN_BH);
}

/* ------------------------------------------------------------------------ */
/* Counters                                                                  */
/* ------------------------------------------------------------------------ */

static void vn_counter_life(struct __test_metadata *_metadata, __u32 profile)
{
	struct drm_vatom_noc p;
	struct vn_grid *g;
	__u32 old[64];
	int fd;

	VT_OPEN(fd);
	g = vn_grid_new(_metadata, fd, profile, 4, 3, vn_grid43, VN_TENSIX_L1,
			VN_ETH_L1);

	/* Posted unicast (0,0) -> (1,1) on NoC 0. */
	{
		const struct vn_cnt_exp e[] = {
			{ 0, 0, 0, VN_CMD_ACCEPTED, 1 },
			{ 0, 0, 0, VN_POSTED_SENT, 1 },
			{ 1, 1, 0, VN_SLV_ACCEPTED, 1 },
			{ 1, 1, 0, VN_SLV_POSTED_RECV, 1 },
		};

		p = vn_req(g, 0, 0, 1, 1, 0x40, 0x107c, 1);
		p.packet_tag = 9 << 10;	/* no effect on a posted request */
		ASSERT_EQ(0, vn_submit(g, &p, 1, NULL));
		vn_expect_counters(_metadata, g, e, VT_ARRAY_SIZE(e), "posted");
	}
	vn_clear_all(_metadata, g);

	/* Marked unicast, id 3, NoC 1, response to the initiator. */
	{
		const struct vn_cnt_exp e[] = {
			{ 0, 0, 1, VN_CMD_ACCEPTED, 1 },
			{ 0, 0, 1, VN_NP_STARTED, 1 },
			{ 0, 0, 1, VN_NP_SENT, 1 },
			{ 0, 0, 1, VN_RESP_RECEIVED, 1 },
			{ 1, 1, 1, VN_SLV_ACCEPTED, 1 },
			{ 1, 1, 1, VN_SLV_NP_RECV, 1 },
			{ 1, 1, 1, VN_SLV_RESP_SENT, 1 },
		};

		p = vn_req(g, 0, 0, 1, 1, 0x40, 0x107c, 1);
		p.noc = 1;
		vn_mark(g, &p, 0, 0, 0x100, 3);
		ASSERT_EQ(0, vn_submit(g, &p, 1, NULL));
		vn_expect_counters(_metadata, g, e, VT_ARRAY_SIZE(e), "marked");
	}
	vn_clear_all(_metadata, g);

	/*
	 * Marked, id 5, to Ethernet (2,0), response to (1,0): the initiator's
	 * ID counter stays at 1, the return tile's goes to -1 = 0xff.
	 */
	{
		const struct vn_cnt_exp e[] = {
			{ 0, 0, 0, VN_CMD_ACCEPTED, 1 },
			{ 0, 0, 0, VN_NP_STARTED, 1 },
			{ 0, 0, 0, VN_NP_SENT, 1 },
			{ 0, 0, 0, VN_OUTSTANDING(5), 1 },
			{ 2, 0, 0, VN_SLV_ACCEPTED, 1 },
			{ 2, 0, 0, VN_SLV_NP_RECV, 1 },
			{ 2, 0, 0, VN_SLV_RESP_SENT, 1 },
			{ 1, 0, 0, VN_RESP_RECEIVED, 1 },
			{ 1, 0, 0, VN_OUTSTANDING(5), 0xff },
		};
		const struct vn_cnt_exp after[] = {
			{ 0, 0, 0, VN_CMD_ACCEPTED, 1 },
			{ 0, 0, 0, VN_NP_STARTED, 1 },
			{ 0, 0, 0, VN_NP_SENT, 1 },
			{ 2, 0, 0, VN_SLV_ACCEPTED, 1 },
			{ 2, 0, 0, VN_SLV_NP_RECV, 1 },
			{ 2, 0, 0, VN_SLV_RESP_SENT, 1 },
			{ 1, 0, 0, VN_RESP_RECEIVED, 1 },
		};

		p = vn_req(g, 0, 0, 2, 0, 0x40, 0x107c, 1);
		vn_mark(g, &p, 1, 0, 0x100, 5);
		ASSERT_EQ(0, vn_submit(g, &p, 1, NULL));
		vn_expect_counters(_metadata, g, e, VT_ARRAY_SIZE(e), "foreign return");
		/* The per-ID clear register: other bits clear other IDs only. */
		ASSERT_EQ(0, vn_counters(fd, g->handle,
					 DRM_VATOM_NOC_COUNTERS_CLEAR_OUTSTANDING,
					 0, 0, 0, 0xffdf, 0, NULL));
		vn_expect_counters(_metadata, g, e, VT_ARRAY_SIZE(e), "other ids cleared");
		ASSERT_EQ(0, vn_counters(fd, g->handle,
					 DRM_VATOM_NOC_COUNTERS_CLEAR_OUTSTANDING,
					 0, 0, 0, 1u << 5, 0, NULL));
		/* Read and clear at once: the values before the clear come back. */
		memset(old, VT_POISON, sizeof(old));
		ASSERT_EQ(0, vn_counters(fd, g->handle,
					 DRM_VATOM_NOC_COUNTERS_READ |
					 DRM_VATOM_NOC_COUNTERS_CLEAR_OUTSTANDING,
					 1, 0, 0, 1u << 5, 64, old));
		EXPECT_EQ(0xff, old[VN_OUTSTANDING(5)]);
		EXPECT_EQ(1, old[VN_RESP_RECEIVED]);
		vn_expect_counters(_metadata, g, after, VT_ARRAY_SIZE(after),
				   "after the clear");
	}
	vn_clear_all(_metadata, g);

	/*
	 * Marked broadcast, id 2, from (0,0) to the whole grid: 7 recipients
	 * (Tensix tiles but the initiator). ID 2 goes up 1, down 7: 1 - 7 =
	 * 0xfa. The last recipient (3,2) writes the return word last.
	 */
	{
		static const __u32 rx[7] = { 1, 0, 1, 2, 0, 2, 3 };
		static const __u32 ry[7] = { 0, 1, 1, 1, 2, 2, 2 };
		struct vn_cnt_exp all[4 + 3 * 7 + 1];
		struct vn_cnt_exp e[4 + 3 * 7] = {
			{ 0, 0, 0, VN_CMD_ACCEPTED, 1 },
			{ 0, 0, 0, VN_NP_STARTED, 1 },
			{ 0, 0, 0, VN_NP_SENT, 1 },
			{ 0, 0, 0, VN_RESP_RECEIVED, 7 },
		};
		__u32 i, t;

		for (i = 0; i < 7; i++) {
			struct vn_cnt_exp r = { rx[i], ry[i], 0, 0, 1 };

			r.idx = VN_SLV_ACCEPTED;
			e[4 + 3 * i] = r;
			r.idx = VN_SLV_NP_RECV;
			e[5 + 3 * i] = r;
			r.idx = VN_SLV_RESP_SENT;
			e[6 + 3 * i] = r;
		}
		for (t = 0; t < 12; t++)
			if (g->l1_size[t])
				*vn_l1(g, t % 4, t / 4, 0x40) = 200 + t;
		p = vn_req(g, 0, 0, 0, 0, 0x40, 0x107c, 1);
		vn_brcst(g, &p, 0, 0, 3, 2);
		vn_mark(g, &p, 0, 0, 0x100, 2);
		ASSERT_EQ(0, vn_submit(g, &p, 1, NULL));
		EXPECT_EQ(200 + 11, *vn_l1(g, 0, 0, 0x100));
		EXPECT_EQ(0xfa, vn_cnt(g, 0, 0, 0)[VN_OUTSTANDING(2)]);
		memcpy(all, e, sizeof(e));
		all[VT_ARRAY_SIZE(e)] =
			(struct vn_cnt_exp){ 0, 0, 0, VN_OUTSTANDING(2), 0xfa };
		vn_expect_counters(_metadata, g, all, VT_ARRAY_SIZE(all), "broadcast");
		/* A second one: 0xfa + 1 - 7 = 0xf4. */
		ASSERT_EQ(0, vn_submit(g, &p, 1, NULL));
		EXPECT_EQ(0xf4, vn_cnt(g, 0, 0, 0)[VN_OUTSTANDING(2)]);
		EXPECT_EQ(14, vn_cnt(g, 0, 0, 0)[VN_RESP_RECEIVED]);
		/* The clear ioctl sets it right; everything else stays. */
		ASSERT_EQ(0, vn_counters(fd, g->handle,
					 DRM_VATOM_NOC_COUNTERS_CLEAR_OUTSTANDING,
					 0, 0, 0, 1u << 2, 0, NULL));
		for (i = 0; i < VT_ARRAY_SIZE(e); i++)
			e[i].val *= 2;
		vn_expect_counters(_metadata, g, e, VT_ARRAY_SIZE(e), "cleared");
	}
	vn_grid_free(g);
	close(fd);
}

TEST(noc_counters_wormhole)
{
	vn_counter_life(_metadata, VN_WH);
}

TEST(noc_counters_blackhole)
{
	vn_counter_life(_metadata, VN_BH);
}

/*
 * REQS_OUTSTANDING_ID is 8 bits: 257 marked requests answered at another
 * tile leave 257 mod 256 = 1 at the initiator and -257 mod 256 = 0xff at
 * the return tile, while the 32-bit counters count all 257.
 */
TEST(noc_counters_8bit_wrap)
{
	struct drm_vatom_noc *p = calloc(VN_MAX_PKTS, sizeof(*p));
	struct vn_grid *g;
	__u32 i, c[64];
	int fd;

	ASSERT_NE(NULL, p);
	VT_OPEN(fd);
	g = vn_grid_new(_metadata, fd, VN_BH, 4, 3, vn_grid43, VN_TENSIX_L1,
			VN_ETH_L1);
	for (i = 0; i < 257; i++) {
		p[i] = vn_req(g, 1, 1, 2, 2, 0x40, 0x107c, 1);
		vn_mark(g, &p[i], 0, 2, 0x80, 15);
	}
	ASSERT_EQ(0, vn_submit(g, p, 257, NULL));
	EXPECT_EQ(257, *vn_l1(g, 2, 2, 0x40));
	EXPECT_EQ(256, *vn_l1(g, 0, 2, 0x80));
	ASSERT_EQ(0, vn_counters(fd, g->handle, DRM_VATOM_NOC_COUNTERS_READ, 1, 1, 0,
				 0, 64, c));
	EXPECT_EQ(1, c[VN_OUTSTANDING(15)]);
	EXPECT_EQ(257, c[VN_CMD_ACCEPTED]);
	EXPECT_EQ(257, c[VN_NP_SENT]);
	ASSERT_EQ(0, vn_counters(fd, g->handle, DRM_VATOM_NOC_COUNTERS_READ, 0, 2, 0,
				 0, 64, c));
	EXPECT_EQ(0xff, c[VN_OUTSTANDING(15)]);
	EXPECT_EQ(257, c[VN_RESP_RECEIVED]);
	/* 255 more: the initiator's wraps to 0, the return tile's to 0. */
	ASSERT_EQ(0, vn_submit(g, p, 255, NULL));
	EXPECT_EQ(0, vn_cnt(g, 1, 1, 0)[VN_OUTSTANDING(15)]);
	EXPECT_EQ(0, vn_cnt(g, 0, 2, 0)[VN_OUTSTANDING(15)]);
	EXPECT_EQ(512, vn_cnt(g, 0, 2, 0)[VN_RESP_RECEIVED]);
	vn_grid_free(g);
	close(fd);
	free(p);
}

TEST(noc_counters_ioctl_errors)
{
	static const __u8 types[4] = { VN_T, VN_T, VN_D, VN_E };
	const __u32 R = DRM_VATOM_NOC_COUNTERS_READ;
	const __u32 CO = DRM_VATOM_NOC_COUNTERS_CLEAR_OUTSTANDING;
	const __u32 CA = DRM_VATOM_NOC_COUNTERS_CLEAR_ALL;
	struct drm_vatom_typed_desc td = {
		.dim = DRM_VATOM_TYPED_1D, .format = DRM_VATOM_FORMAT_R32,
		.width = 16, .height = 1, .depth = 1, .array_size = 1,
		.levels = 1,
	};
	struct drm_vatom_noc_counters a;
	__u32 c[65], buf, typed_h;
	struct vn_grid *g;
	__u64 v, sz;
	int fd;

	VT_OPEN(fd);
	ASSERT_EQ(0, vt_get_param(fd, DRM_VATOM_PARAM_CAPS, 0, &v));
	EXPECT_TRUE(v & DRM_VATOM_CAP_NOC_COUNTERS);
	ASSERT_EQ(0, vt_get_param(fd, DRM_VATOM_PARAM_UAPI_VERSION, 0, &v));
	EXPECT_LE(2, v);
	g = vn_grid_new(_metadata, fd, VN_WH, 2, 2, types, 64, 32);
	ASSERT_EQ(0, vt_buffer_create(fd, 4096, &buf));
	ASSERT_EQ(0, vt_typed_create(fd, &td, &typed_h, &sz));
	/* Seed tile (1,1)'s NoC 1 block to see that nothing changes. */
	vn_cnt(g, 1, 1, 1)[VN_OUTSTANDING(0)] = 3;
	vn_cnt(g, 1, 1, 1)[VN_CMD_ACCEPTED] = 4;

	/* The good calls first: every tile, both NoCs, DRAM's block too. */
	ASSERT_EQ(0, vn_counters(fd, g->handle, R, 0, 1, 0, 0, 64, c));
	ASSERT_EQ(0, vn_counters(fd, g->handle, R, 1, 1, 1, 0, 1, c));
	EXPECT_EQ(0, c[0]);
	ASSERT_EQ(0, vn_counters(fd, g->handle, CO, 1, 1, 1, 0, 0, NULL));
	EXPECT_EQ(3, vn_cnt(g, 1, 1, 1)[VN_OUTSTANDING(0)]);	/* mask 0 */

	/* ENOENT */
	VT_EXPECT_ERRNO(ENOENT, vn_counters(fd, 0, R, 0, 0, 0, 0, 1, c));
	VT_EXPECT_ERRNO(ENOENT, vn_counters(fd, g->handle + 1000, R, 0, 0, 0, 0, 1, c));
	/* EINVAL: flags */
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, 0, 0, 0, 0, 0, 0, NULL));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, R | 8, 0, 0, 0, 0, 1, c));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, R | 0x80000000, 0, 0, 0, 0, 1, c));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, CO | CA, 0, 0, 0, 0, 0, NULL));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, R | CO | CA, 0, 0, 0, 0, 1, c));
	/* EINVAL: id_mask */
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, CO, 1, 1, 1, 0x10000, 0, NULL));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, CO, 1, 1, 1, 0x80000001, 0, NULL));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, R, 1, 1, 1, 1, 1, c));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, CA, 1, 1, 1, 1, 0, NULL));
	/* EINVAL: count and pointer */
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, R, 0, 0, 0, 0, 0, c));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, R, 0, 0, 0, 0, 65, c));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, R, 0, 0, 0, 0, 0xffffffff, c));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, CO, 1, 1, 1, 1, 1, NULL));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, CA, 1, 1, 1, 0, 0, c));
	/* EINVAL: tile, NoC */
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, R, 2, 0, 0, 0, 1, c));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, R, 0, 2, 0, 0, 1, c));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, R, 63, 63, 0, 0, 1, c));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, R, 0x100000000ull >> 1, 0, 0, 0, 1, c));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, R, 0, 0, 2, 0, 1, c));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, g->handle, CA, 1, 1, 0xffffffff, 0, 0, NULL));
	/* EINVAL: surfaces that are not tile grids */
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, buf, R, 0, 0, 0, 0, 1, c));
	VT_EXPECT_ERRNO(EINVAL, vn_counters(fd, typed_h, CA, 0, 0, 0, 0, 0, NULL));
	/* EINVAL: pad */
	memset(&a, 0, sizeof(a));
	a.handle = g->handle;
	a.flags = R;
	a.count = 1;
	a.counters = vt_u64_ptr(c);
	a.pad = 1;
	VT_EXPECT_ERRNO(EINVAL, ioctl(fd, DRM_IOCTL_VATOM_NOC_COUNTERS, &a));
	a.pad = 0;
	ASSERT_EQ(0, ioctl(fd, DRM_IOCTL_VATOM_NOC_COUNTERS, &a));

	/* EFAULT, and a failed read-and-clear clears nothing. */
	VT_EXPECT_ERRNO(EFAULT, vn_counters(fd, g->handle, R, 1, 1, 1, 0, 64, (void *)8));
	VT_EXPECT_ERRNO(EFAULT, vn_counters(fd, g->handle, R | CA, 1, 1, 1, 0, 64,
					    (void *)8));
	VT_EXPECT_ERRNO(EFAULT, vn_counters(fd, g->handle, R | CO, 1, 1, 1, 1, 64,
					    (void *)8));
	{
		void *ro = mmap(NULL, VT_PAGE_SIZE, PROT_READ,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		__u8 *pg = mmap(NULL, 2 * VT_PAGE_SIZE, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		ASSERT_NE(MAP_FAILED, ro);
		ASSERT_NE(MAP_FAILED, pg);
		VT_EXPECT_ERRNO(EFAULT, vn_counters(fd, g->handle, R | CA, 1, 1, 1,
						    0, 64, ro));
		/* 64 counters ending past a page into an unmapped one. */
		ASSERT_EQ(0, munmap(pg + VT_PAGE_SIZE, VT_PAGE_SIZE));
		VT_EXPECT_ERRNO(EFAULT, vn_counters(fd, g->handle, R | CA, 1, 1, 1, 0,
						    64, pg + VT_PAGE_SIZE - 8));
		/* Two counters fit before the hole. */
		ASSERT_EQ(0, vn_counters(fd, g->handle, R, 1, 1, 1, 0, 2,
					 pg + VT_PAGE_SIZE - 8));
		munmap(ro, VT_PAGE_SIZE);
		munmap(pg, VT_PAGE_SIZE);
	}
	EXPECT_EQ(3, vn_cnt(g, 1, 1, 1)[VN_OUTSTANDING(0)]);
	EXPECT_EQ(4, vn_cnt(g, 1, 1, 1)[VN_CMD_ACCEPTED]);

	/* READ writes exactly @count words. */
	memset(c, VT_POISON, sizeof(c));
	ASSERT_EQ(0, vn_counters(fd, g->handle, R, 1, 1, 1, 0, 5, c));
	EXPECT_EQ(0, c[0]);
	EXPECT_EQ(4, c[VN_CMD_ACCEPTED]);
	EXPECT_EQ(VT_POISON32, c[5]);
	/* READ | CLEAR_ALL: all 64 come back, then all are 0. */
	memset(c, VT_POISON, sizeof(c));
	ASSERT_EQ(0, vn_counters(fd, g->handle, R | CA, 1, 1, 1, 0, 64, c));
	EXPECT_EQ(3, c[VN_OUTSTANDING(0)]);
	EXPECT_EQ(4, c[VN_CMD_ACCEPTED]);
	EXPECT_EQ(VT_POISON32, c[64]);
	EXPECT_EQ(-1, vt_find_ne32(vn_cnt(g, 1, 1, 1), 0, 64, 0));

	/* A closed handle is unknown. */
	EXPECT_EQ(0, vt_gem_close(fd, typed_h));
	VT_EXPECT_ERRNO(ENOENT, vn_counters(fd, typed_h, R, 0, 0, 0, 0, 1, c));
	EXPECT_EQ(0, vt_gem_close(fd, buf));
	vn_grid_free(g);
	close(fd);
}

/* ------------------------------------------------------------------------ */
/* Rejected requests                                                         */
/* ------------------------------------------------------------------------ */

enum vn_field {
	VN_F_SIZE, VN_F_FLAGS, VN_F_PAD0, VN_F_PAD1, VN_F_SLOT, VN_F_NOC,
	VN_F_X, VN_F_Y, VN_F_CTRL, VN_F_CTRL_OR, VN_F_AT, VN_F_TAG,
	VN_F_TARG_LO, VN_F_TARG_MID, VN_F_TARG_HI, VN_F_TARGET,
	VN_F_RET_LO, VN_F_RET_MID, VN_F_RET_HI, VN_F_RETURN, VN_F_BRCST,
};

/*
 * A change to the good request: marked unicast from (0,0) to (1,1) 0x40,
 * increment, response to (0,0) at 0x100, transaction 1.
 */
struct vn_bad {
	const char *what;
	__u32 profiles;
	enum vn_field field;
	__u32 value;	/* VN_F_TARGET/RETURN: x | y << 8; BRCST: sx sy ex ey bytes */
	__u32 reason;
};

#define VN_XY(x, y)		((x) | (y) << 8)
#define VN_RECT(sx, sy, ex, ey)	((sx) | (sy) << 8 | (ex) << 16 | (ey) << 24)

static const struct vn_bad vn_bads[] = {
	{ "size 72", VN_PALL, VN_F_SIZE, 72, DRM_VATOM_ERR_PACKET_SIZE },
	{ "flags", VN_PALL, VN_F_FLAGS, 1, DRM_VATOM_ERR_RESERVED },
	{ "pad[0]", VN_PALL, VN_F_PAD0, 1, DRM_VATOM_ERR_RESERVED },
	{ "pad[1]", VN_PALL, VN_F_PAD1, 0x80000000, DRM_VATOM_ERR_RESERVED },
	{ "unbound slot", VN_PALL, VN_F_SLOT, 9, DRM_VATOM_ERR_SLOT },
	{ "slot of a buffer", VN_PALL, VN_F_SLOT, VN_BUF_SLOT, DRM_VATOM_ERR_SURFACE_KIND },
	{ "noc 2", VN_PALL, VN_F_NOC, 2, DRM_VATOM_ERR_RESERVED },
	{ "noc 255", VN_PALL, VN_F_NOC, 255, DRM_VATOM_ERR_RESERVED },
	/* CTRL */
	{ "read request", VN_PALL, VN_F_CTRL, 0x10, DRM_VATOM_ERR_OP },
	{ "write request", VN_PALL, VN_F_CTRL, 0x12, DRM_VATOM_ERR_OP },
	{ "request type 3", VN_PALL, VN_F_CTRL, 0x13, DRM_VATOM_ERR_OP },
	{ "CTRL bit 2", VN_PALL, VN_F_CTRL_OR, 1u << 2, DRM_VATOM_ERR_RESERVED },
	{ "CTRL bit 3", VN_PALL, VN_F_CTRL_OR, 1u << 3, DRM_VATOM_ERR_RESERVED },
	{ "CTRL bit 9", VN_PALL, VN_F_CTRL_OR, 1u << 9, DRM_VATOM_ERR_RESERVED },
	{ "CTRL bit 12", VN_PALL, VN_F_CTRL_OR, 1u << 12, DRM_VATOM_ERR_RESERVED },
	{ "CTRL bit 18", VN_PALL, VN_F_CTRL_OR, 1u << 18, DRM_VATOM_ERR_RESERVED },
	{ "CTRL bit 26", VN_PALL, VN_F_CTRL_OR, 1u << 26, DRM_VATOM_ERR_RESERVED },
	{ "CTRL L1_ACC_AT_EN", VN_PALL, VN_F_CTRL_OR, 1u << 31, DRM_VATOM_ERR_RESERVED },
	/* AT_LEN_BE: reserved opcodes of both profiles */
	{ "opcode 0", VN_PALL, VN_F_AT, 0x0000, DRM_VATOM_ERR_OP },
	{ "opcode 2", VN_PALL, VN_F_AT, 0x207c, DRM_VATOM_ERR_OP },
	{ "opcode 5", VN_PALL, VN_F_AT, 0x5000, DRM_VATOM_ERR_OP },
	{ "opcode 8", VN_PALL, VN_F_AT, 0x8000, DRM_VATOM_ERR_OP },
	{ "opcode 0xb", VN_PALL, VN_F_AT, 0xb000, DRM_VATOM_ERR_OP },
	{ "opcode 0xc", VN_PALL, VN_F_AT, 0xc000, DRM_VATOM_ERR_OP },
	{ "opcode 0xd", VN_PALL, VN_F_AT, 0xd000, DRM_VATOM_ERR_OP },
	{ "opcode 0xe", VN_PALL, VN_F_AT, 0xe000, DRM_VATOM_ERR_OP },
	{ "opcode 0xf", VN_PALL, VN_F_AT, 0xffff, DRM_VATOM_ERR_OP },
	{ "opcode 6 with bit 2 clear", VN_PALL, VN_F_AT, 0x6002, DRM_VATOM_ERR_OP },
	/* Blackhole-only opcodes on Wormhole */
	{ "WH: opcode 9 (acc)", VN_PWH, VN_F_AT, 0x9004, DRM_VATOM_ERR_OP },
	{ "WH: opcode 0xa swap", VN_PWH, VN_F_AT, 0xa303, DRM_VATOM_ERR_OP },
	{ "WH: opcode 0xa zaamo", VN_PWH, VN_F_AT, 0xa800, DRM_VATOM_ERR_OP },
	/* Blackhole's reserved forms */
	{ "0xa, [11:8] = 0", VN_PBH, VN_F_AT, 0xa003, DRM_VATOM_ERR_OP },
	{ "0xa, [11:8] = 2", VN_PBH, VN_F_AT, 0xa203, DRM_VATOM_ERR_OP },
	{ "0xa, [11:8] = 7", VN_PBH, VN_F_AT, 0xa703, DRM_VATOM_ERR_OP },
	{ "acc Fmt 3", VN_PBH, VN_F_AT, 0x9003, DRM_VATOM_ERR_OP },
	{ "acc Fmt 5", VN_PBH, VN_F_AT, 0x9005, DRM_VATOM_ERR_OP },
	{ "acc Fmt 6", VN_PBH, VN_F_AT, 0x9006, DRM_VATOM_ERR_OP },
	{ "acc Fmt 11", VN_PBH, VN_F_AT, 0x900b, DRM_VATOM_ERR_OP },
	{ "acc Fmt 14", VN_PBH, VN_F_AT, 0x900e, DRM_VATOM_ERR_OP },
	/* PACKET_TAG */
	{ "tag bit 0", VN_PALL, VN_F_TAG, 1 << 10 | 1, DRM_VATOM_ERR_RESERVED },
	{ "tag bit 9", VN_PALL, VN_F_TAG, 1 << 9, DRM_VATOM_ERR_RESERVED },
	{ "tag bit 14", VN_PALL, VN_F_TAG, 1 << 14, DRM_VATOM_ERR_RESERVED },
	{ "tag bit 31", VN_PALL, VN_F_TAG, 1u << 31, DRM_VATOM_ERR_RESERVED },
	/* Coordinate registers */
	{ "WH: target address bit 32", VN_PWH, VN_F_TARG_MID, 1 << 4 | 1 << 10 | 1,
	  DRM_VATOM_ERR_TARGET },
	{ "WH: bit above Y (unicast)", VN_PWH, VN_F_TARG_MID, 1 << 4 | 1 << 10 | 1 << 16,
	  DRM_VATOM_ERR_RESERVED },
	{ "WH: TARG_ADDR_HI", VN_PWH, VN_F_TARG_HI, 1, DRM_VATOM_ERR_RESERVED },
	{ "WH: RET_ADDR_HI", VN_PWH, VN_F_RET_HI, 1, DRM_VATOM_ERR_RESERVED },
	{ "WH: return address bit 35", VN_PWH, VN_F_RET_MID, 8, DRM_VATOM_ERR_TARGET },
	{ "WH: return bit above Y", VN_PWH, VN_F_RET_MID, 1u << 16, DRM_VATOM_ERR_RESERVED },
	{ "BH: target address bit 32", VN_PBH, VN_F_TARG_MID, 1, DRM_VATOM_ERR_TARGET },
	{ "BH: target address bit 63", VN_PBH, VN_F_TARG_MID, 1u << 31, DRM_VATOM_ERR_TARGET },
	{ "BH: bit above Y (unicast)", VN_PBH, VN_F_TARG_HI, 1 | 1 << 6 | 1 << 12,
	  DRM_VATOM_ERR_RESERVED },
	{ "BH: return address bit 32", VN_PBH, VN_F_RET_MID, 1, DRM_VATOM_ERR_TARGET },
	{ "BH: return bit above Y", VN_PBH, VN_F_RET_HI, 1u << 12, DRM_VATOM_ERR_RESERVED },
	/* Initiator */
	{ "initiator x outside", VN_PALL, VN_F_X, 4, DRM_VATOM_ERR_TARGET },
	{ "initiator y outside", VN_PALL, VN_F_Y, 3, DRM_VATOM_ERR_TARGET },
	{ "initiator DRAM", VN_PALL, VN_F_X, 3, DRM_VATOM_ERR_TARGET },
	/* Targets */
	{ "target DRAM", VN_PALL, VN_F_TARGET, VN_XY(3, 0), DRM_VATOM_ERR_TARGET },
	{ "target PCIe", VN_PALL, VN_F_TARGET, VN_XY(3, 1), DRM_VATOM_ERR_TARGET },
	{ "target x outside", VN_PALL, VN_F_TARGET, VN_XY(4, 0), DRM_VATOM_ERR_TARGET },
	{ "target y outside", VN_PALL, VN_F_TARGET, VN_XY(0, 3), DRM_VATOM_ERR_TARGET },
	{ "target (63,63)", VN_PALL, VN_F_TARGET, VN_XY(63, 63), DRM_VATOM_ERR_TARGET },
	{ "target past L1", VN_PALL, VN_F_TARG_LO, VN_TENSIX_L1, DRM_VATOM_ERR_TARGET },
	{ "target past L1 (last byte)", VN_PALL, VN_F_TARG_LO, VN_TENSIX_L1 + 15,
	  DRM_VATOM_ERR_TARGET },
	{ "target MMIO 0xff000000", VN_PALL, VN_F_TARG_LO, 0xff000000, DRM_VATOM_ERR_TARGET },
	{ "target NIU_BASE", VN_PALL, VN_F_TARG_LO, 0xffb20000, DRM_VATOM_ERR_TARGET },
	{ "target Ethernet past its L1", VN_PALL, VN_F_TARGET, VN_XY(2, 0) | 1u << 31,
	  DRM_VATOM_ERR_TARGET },
	/* Broadcasts */
	{ "broadcast: no Tensix in the rectangle", VN_PALL, VN_F_BRCST,
	  VN_RECT(2, 0, 3, 0), DRM_VATOM_ERR_TARGET },
	{ "broadcast: only the initiator", VN_PALL, VN_F_BRCST,
	  VN_RECT(0, 0, 0, 0), DRM_VATOM_ERR_TARGET },
	{ "broadcast: EndX outside", VN_PALL, VN_F_BRCST, VN_RECT(0, 0, 4, 2),
	  DRM_VATOM_ERR_TARGET },
	{ "broadcast: StartY outside", VN_PALL, VN_F_BRCST, VN_RECT(0, 3, 3, 2),
	  DRM_VATOM_ERR_TARGET },
	{ "broadcast: bit above StartY", VN_PALL, VN_F_BRCST, 0xffffffff,
	  DRM_VATOM_ERR_RESERVED },
	/* Returns */
	{ "return to DRAM", VN_PALL, VN_F_RETURN, VN_XY(3, 0), DRM_VATOM_ERR_TARGET },
	{ "return to PCIe", VN_PALL, VN_F_RETURN, VN_XY(3, 1), DRM_VATOM_ERR_TARGET },
	{ "return outside the grid", VN_PALL, VN_F_RETURN, VN_XY(0, 3), DRM_VATOM_ERR_TARGET },
	{ "return misaligned by 2", VN_PALL, VN_F_RET_LO, 0x102, DRM_VATOM_ERR_ALIGN },
	{ "return misaligned by 1", VN_PALL, VN_F_RET_LO, 0x101, DRM_VATOM_ERR_ALIGN },
	{ "return past L1", VN_PALL, VN_F_RET_LO, VN_TENSIX_L1, DRM_VATOM_ERR_TARGET },
	{ "return MMIO", VN_PALL, VN_F_RET_LO, 0xffb20200, DRM_VATOM_ERR_TARGET },
};

static void vn_apply_bad(const struct vn_grid *g, struct drm_vatom_noc *p,
			 const struct vn_bad *b)
{
	__u32 v = b->value;

	switch (b->field) {
	case VN_F_SIZE:
		p->hdr.size = v;
		break;
	case VN_F_FLAGS:
		p->flags = v;
		break;
	case VN_F_PAD0:
		p->pad[0] = v;
		break;
	case VN_F_PAD1:
		p->pad[1] = v;
		break;
	case VN_F_SLOT:
		p->slot = v;
		break;
	case VN_F_NOC:
		p->noc = v;
		break;
	case VN_F_X:
		p->x = v;
		break;
	case VN_F_Y:
		p->y = v;
		break;
	case VN_F_CTRL:
		p->ctrl = v;
		break;
	case VN_F_CTRL_OR:
		p->ctrl |= v;
		break;
	case VN_F_AT:
		p->at_len_be = v;
		break;
	case VN_F_TAG:
		p->packet_tag = v;
		break;
	case VN_F_TARG_LO:
		p->targ_addr_lo = v;
		break;
	case VN_F_TARG_MID:
		p->targ_addr_mid = v;
		break;
	case VN_F_TARG_HI:
		p->targ_addr_hi = v;
		break;
	case VN_F_TARGET:
		*p = vn_req(g, 0, 0, v & 0xff, (v >> 8) & 0xff,
			    v >> 31 ? VN_ETH_L1 : 0x40, 0x107c, 1);
		vn_mark(g, p, 0, 0, 0x100, 1);
		break;
	case VN_F_RET_LO:
		p->ret_addr_lo = v;
		break;
	case VN_F_RET_MID:
		p->ret_addr_mid = v;
		break;
	case VN_F_RET_HI:
		p->ret_addr_hi = v;
		break;
	case VN_F_RETURN:
		vn_mark(g, p, v & 0xff, (v >> 8) & 0xff, 0x100, 1);
		break;
	case VN_F_BRCST:
		if (v == 0xffffffff) {
			vn_brcst(g, p, 0, 0, 3, 2);
			if (g->profile == VN_WH)
				p->targ_addr_mid |= 1u << 28;
			else
				p->targ_addr_hi |= 1u << 24;
		} else {
			vn_brcst(g, p, v & 0xff, (v >> 8) & 0xff,
				 (v >> 16) & 0xff, v >> 24);
		}
		break;
	}
}

/*
 * Each bad request as packet 1 after a good one: EINVAL, the index and the
 * reason, and not one byte of the surface changed (the good packet did not
 * run either). Then the good request alone runs.
 */
static void vn_rejects(struct __test_metadata *_metadata, __u32 profile)
{
	struct drm_vatom_noc good;
	struct vn_grid *g;
	__u8 *before;
	size_t i, ran = 0;
	int fd;

	VT_OPEN(fd);
	g = vn_grid_new(_metadata, fd, profile, 4, 3, vn_grid43, VN_TENSIX_L1,
			VN_ETH_L1);
	before = malloc(g->size);
	ASSERT_NE(NULL, before);
	for (i = 0; i < g->size; i++)
		g->map[i] = (__u8)(i * 7 + 3);
	memcpy(before, g->map, g->size);

	for (i = 0; i < VT_ARRAY_SIZE(vn_bads); i++) {
		const struct vn_bad *b = &vn_bads[i];
		struct drm_vatom_noc p[3];
		struct drm_vatom_submit out;
		__u32 n = 2;

		if (!(b->profiles & (1u << profile)))
			continue;
		p[0] = vn_req(g, 0, 0, 1, 1, 0x40, 0x107c, 1);
		vn_mark(g, &p[0], 0, 0, 0x100, 1);
		p[1] = p[0];
		vn_apply_bad(g, &p[1], b);
		if (b->field == VN_F_SIZE) {
			memset(&p[2], 0, sizeof(p[2]));
			n = 3;	/* 8 more bytes inside the stream: 136 of 192 */
		}
		errno = 0;
		EXPECT_EQ(-1, vn_submit(g, p, n, &out)) TH_LOG("%s", b->what);
		EXPECT_EQ(EINVAL, errno) TH_LOG("%s", b->what);
		EXPECT_EQ(1, out.error_index) TH_LOG("%s", b->what);
		EXPECT_EQ(b->reason, out.error_reason) TH_LOG("%s", b->what);
		EXPECT_EQ(-1, vt_mismatch32((__u32 *)g->map, (__u32 *)before,
					    g->size / 4)) TH_LOG("%s", b->what);
		ran++;
	}
	EXPECT_EQ(profile == VN_WH ? 57 + 9 : 57 + 13, ran);

	/* The good request, alone, does run (the rejects were not vacuous). */
	good = vn_req(g, 0, 0, 1, 1, 0x40, 0x107c, 1);
	vn_mark(g, &good, 0, 0, 0x100, 1);
	ASSERT_EQ(0, vn_submit(g, &good, 1, NULL));
	EXPECT_EQ(vt_rd32(before, g->l1_off[5] + 0x40) + 1, *vn_l1(g, 1, 1, 0x40));
	EXPECT_EQ(vt_rd32(before, g->l1_off[5] + 0x40), *vn_l1(g, 0, 0, 0x100));
	free(before);
	vn_grid_free(g);
	close(fd);
}

TEST(noc_rejects_wormhole)
{
	vn_rejects(_metadata, VN_WH);
}

TEST(noc_rejects_blackhole)
{
	vn_rejects(_metadata, VN_BH);
}

/* ------------------------------------------------------------------------ */
/* Clears racing submissions                                                 */
/* ------------------------------------------------------------------------ */

#define VN_RACE_SUBMITS	150
#define VN_RACE_BATCH	16

struct vn_race {
	struct vn_grid *g;
	volatile bool stop;
	int err;
	__u64 cmd_accepted;	/* read-and-cleared by the clearer */
	__u32 outstanding;	/* sum of read-and-cleared ID 4 values */
	__u32 clears;
};

/* Marked requests from (0,0) answered at (1,0): ID 4 only rises at (0,0). */
static void *vn_race_submitter(void *arg)
{
	struct vn_race *r = arg;
	struct drm_vatom_noc p[VN_RACE_BATCH];
	__u32 i;

	for (i = 0; i < VN_RACE_BATCH; i++) {
		p[i] = vn_req(r->g, 0, 0, 1, 1, 0x40, 0x107c, 1);
		vn_mark(r->g, &p[i], 1, 0, 0x80, 4);
	}
	for (i = 0; i < VN_RACE_SUBMITS && !r->err; i++)
		if (vn_submit(r->g, p, VN_RACE_BATCH, NULL))
			r->err = errno;
	return NULL;
}

static void *vn_race_clearer(void *arg)
{
	struct vn_race *r = arg;
	__u32 c[64];

	while (!r->stop && !r->err) {
		/* Alternate: every counter, then only ID 4 (and read). */
		if (vn_counters(r->g->fd, r->g->handle,
				DRM_VATOM_NOC_COUNTERS_READ |
				(r->clears & 1 ? DRM_VATOM_NOC_COUNTERS_CLEAR_OUTSTANDING :
						 DRM_VATOM_NOC_COUNTERS_CLEAR_ALL),
				0, 0, 0, r->clears & 1 ? 1u << 4 : 0, 64, c)) {
			r->err = errno;
			break;
		}
		if (!(r->clears & 1))
			r->cmd_accepted += c[VN_CMD_ACCEPTED];
		r->outstanding += c[VN_OUTSTANDING(4)];
		r->clears++;
	}
	return NULL;
}

/*
 * Read-and-clear while two threads submit: CMD_ACCEPTED's values taken by
 * CLEAR_ALL plus what is left equal the requests made, exactly; the 8-bit
 * ID counter's values taken plus what is left equal it modulo 256. A lost
 * update (a clear that is not one atomic exchange) breaks both.
 */
TEST(noc_counters_clear_races_submissions)
{
	pthread_t sub[2], clr;
	struct vn_race r;
	__u32 total = 2 * VN_RACE_SUBMITS * VN_RACE_BATCH;
	int fd, i;

	VT_OPEN(fd);
	memset(&r, 0, sizeof(r));
	r.g = vn_grid_new(_metadata, fd, VN_WH, 4, 3, vn_grid43, VN_TENSIX_L1,
			  VN_ETH_L1);
	ASSERT_EQ(0, pthread_create(&clr, NULL, vn_race_clearer, &r));
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, pthread_create(&sub[i], NULL, vn_race_submitter, &r));
	}
	for (i = 0; i < 2; i++)
		pthread_join(sub[i], NULL);
	r.stop = true;
	pthread_join(clr, NULL);
	ASSERT_EQ(0, r.err) TH_LOG("%s", strerror(r.err));
	TH_LOG("%u clears during %u requests", r.clears, total);
	EXPECT_EQ(total, *vn_l1(r.g, 1, 1, 0x40));
	EXPECT_EQ(total, r.cmd_accepted + vn_cnt(r.g, 0, 0, 0)[VN_CMD_ACCEPTED]);
	EXPECT_EQ(total & 0xff,
		  (r.outstanding + vn_cnt(r.g, 0, 0, 0)[VN_OUTSTANDING(4)]) & 0xff);
	/* The return tile's side was never cleared. */
	EXPECT_EQ(total, vn_cnt(r.g, 1, 0, 0)[VN_RESP_RECEIVED]);
	EXPECT_EQ((0u - total) & 0xff, vn_cnt(r.g, 1, 0, 0)[VN_OUTSTANDING(4)]);
	vn_grid_free(r.g);
	close(fd);
}
