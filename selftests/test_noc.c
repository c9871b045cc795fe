// SPDX-License-Identifier: GPL-2.0
/*
 * Tenstorrent NoC atomics through the device: tile grid creation and its
 * errors, and the surface layout seen through mmap; the vn_* helpers the
 * other NoC files use: every NOC_AT_LEN_BE variant (test_noc_variants.c),
 * recipients, responses and counters (test_noc_counters.c), rejected
 * encodings (test_noc_rejects.c).
 *
 * Expected values are worked out by hand from the spec, with the
 * arithmetic in comments. Register images are written from the spec's bit positions, not from the
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
