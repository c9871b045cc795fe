// SPDX-License-Identifier: GPL-2.0
/*
 * Surfaces: create, info, mmap offset, mapping, GEM_CLOSE, PRIME sharing
 * between files and with vgem, and the coherence of CPU and device atomics.
 *
 * Part of vatom_test.c's translation unit (see there); not built alone.
 *
 * Copyright (C) 2026 The vatom developers
 */

/* ADD @add to the 32-bit words at @offs (exec size 1 per packet, Dst on). */
static int vt_add_words(int fd, __u32 handle, const __u32 *offs,
			const __u32 *add, __u32 n, __u32 *old)
{
	struct vt_stream s;
	struct vt_visa v;
	__u32 i;

	vt_stream_init(&s);
	for (i = 0; i < n; i++) {
		vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_1,
			 DRM_VATOM_VISA_TYPE_UD, &offs[i], &add[i], NULL, true);
		vt_add_visa(&s, &v);
	}
	/* One 8-byte region per packet; the old value is its first word. */
	{
		__u32 res[2 * 64];
		int ret;

		memset(res, VT_POISON, sizeof(res));
		ret = vt_run(fd, &s, handle, res, 8 * n, NULL);
		for (i = 0; i < n; i++)
			old[i] = res[2 * i];
		return ret;
	}
}

TEST(surface_create_info)
{
	const __u64 sizes[] = { 1, 4, 100, 4095, 4096, 4097, 3 * 4096 + 8,
				1 << 20 };
	__u32 handles[VT_ARRAY_SIZE(sizes)];
	size_t i, j;
	int fd;

	VT_OPEN(fd);
	for (i = 0; i < VT_ARRAY_SIZE(sizes); i++) {
		struct drm_vatom_surface_create c;
		struct drm_vatom_surface_info info;

		memset(&c, 0, sizeof(c));
		c.kind = DRM_VATOM_SURFACE_BUFFER;
		c.size = sizes[i];
		ASSERT_EQ(0, vt_surface_create(fd, &c));
		EXPECT_EQ(sizes[i], c.size);
		EXPECT_NE(0, c.handle);
		EXPECT_NE(VT_POISON32, c.handle);
		handles[i] = c.handle;
		for (j = 0; j < i; j++) {
			EXPECT_NE(handles[j], handles[i]);
		}

		memset(&info, 0, sizeof(info));
		ASSERT_EQ(0, vt_surface_info(fd, c.handle, &info));
		EXPECT_EQ(c.handle, info.handle);
		EXPECT_EQ(0, info.flags);
		EXPECT_EQ(DRM_VATOM_SURFACE_BUFFER, info.kind);
		EXPECT_EQ(0, info.pad);
		EXPECT_EQ(sizes[i], info.size);
		EXPECT_EQ(vt_page_round(sizes[i]), info.mmap_size);
	}
	for (i = 0; i < VT_ARRAY_SIZE(sizes); i++) {
		EXPECT_EQ(0, vt_gem_close(fd, handles[i]));
	}
	close(fd);
}

/* The largest surface the device reports can be created (memory is lazy). */
TEST(surface_create_max_size)
{
	struct drm_vatom_surface_info info;
	__u64 max;
	__u32 h;
	int fd;

	VT_OPEN(fd);
	ASSERT_EQ(0, vt_get_param(fd, DRM_VATOM_PARAM_MAX_SURFACE_SIZE, 0, &max));
	ASSERT_EQ(0, vt_buffer_create(fd, max, &h));
	memset(&info, 0, sizeof(info));
	ASSERT_EQ(0, vt_surface_info(fd, h, &info));
	EXPECT_EQ(max, info.size);
	EXPECT_EQ(0, vt_gem_close(fd, h));
	close(fd);
}

TEST(surface_create_bad_kind)
{
	const __u32 kinds[] = { DRM_VATOM_SURFACE_TILE_GRID + 1, 0x100, 0xffffffff };
	struct drm_vatom_surface_create c;
	size_t i;
	int fd;

	VT_OPEN(fd);
	for (i = 0; i < VT_ARRAY_SIZE(kinds); i++) {
		memset(&c, 0, sizeof(c));
		c.kind = kinds[i];
		c.size = 4096;
		VT_EXPECT_ERRNO(EINVAL, vt_surface_create(fd, &c));
	}
	close(fd);
}

TEST(surface_create_bad_flags)
{
	const __u32 flags[] = { 1, 0x80000000 };
	struct drm_vatom_surface_create c;
	size_t i;
	int fd;

	VT_OPEN(fd);
	for (i = 0; i < VT_ARRAY_SIZE(flags); i++) {
		memset(&c, 0, sizeof(c));
		c.kind = DRM_VATOM_SURFACE_BUFFER;
		c.flags = flags[i];
		c.size = 4096;
		VT_EXPECT_ERRNO(EINVAL, vt_surface_create(fd, &c));
	}
	close(fd);
}

TEST(surface_create_size_zero)
{
	__u32 h;
	int fd;

	VT_OPEN(fd);
	VT_EXPECT_ERRNO(EINVAL, vt_buffer_create(fd, 0, &h));
	close(fd);
}

TEST(surface_create_oversize)
{
	__u64 max;
	__u32 h;
	int fd;

	VT_OPEN(fd);
	ASSERT_EQ(0, vt_get_param(fd, DRM_VATOM_PARAM_MAX_SURFACE_SIZE, 0, &max));
	VT_EXPECT_ERRNO(E2BIG, vt_buffer_create(fd, max + 1, &h));
	VT_EXPECT_ERRNO(E2BIG, vt_buffer_create(fd, 1ull << 63, &h));
	/* Page rounding must not wrap around. */
	VT_EXPECT_ERRNO(E2BIG, vt_buffer_create(fd, ~0ull, &h));
	close(fd);
}

/* A buffer takes no descriptor: desc and desc_size must be 0. */
TEST(surface_create_buffer_with_desc)
{
	struct drm_vatom_typed_desc desc = { 0 };
	struct drm_vatom_surface_create c;
	int fd;

	VT_OPEN(fd);
	memset(&c, 0, sizeof(c));
	c.kind = DRM_VATOM_SURFACE_BUFFER;
	c.size = 4096;
	c.desc = vt_u64_ptr(&desc);
	VT_EXPECT_ERRNO(EINVAL, vt_surface_create(fd, &c));

	memset(&c, 0, sizeof(c));
	c.kind = DRM_VATOM_SURFACE_BUFFER;
	c.size = 4096;
	c.desc_size = sizeof(desc);
	VT_EXPECT_ERRNO(EINVAL, vt_surface_create(fd, &c));
	close(fd);
}

/*
 * Typed surfaces and tile grids: created when the device implements them
 * (their capability bit says so), else -EOPNOTSUPP for a valid descriptor.
 */
TEST(surface_create_typed)
{
	struct drm_vatom_typed_desc desc = {
		.dim = DRM_VATOM_TYPED_2D, .format = DRM_VATOM_FORMAT_R32,
		.width = 8, .height = 4, .depth = 1, .array_size = 1,
		.levels = 1,
	};
	struct drm_vatom_surface_create c;
	struct drm_vatom_surface_info info;
	int fd, ret;

	VT_OPEN(fd);
	memset(&c, 0, sizeof(c));
	c.kind = DRM_VATOM_SURFACE_TYPED;
	c.desc = vt_u64_ptr(&desc);
	c.desc_size = sizeof(desc);
	ret = vt_surface_create(fd, &c);
	if (ret) {
		EXPECT_EQ(EOPNOTSUPP, errno);
		EXPECT_FALSE(vt_caps(fd) & DRM_VATOM_CAP_VISA_TYPED_ATOMIC);
		close(fd);
		return;
	}
	/* 8 x 4 R32 texels at least. */
	EXPECT_LE(8 * 4 * 4, c.size);
	memset(&info, 0, sizeof(info));
	ASSERT_EQ(0, vt_surface_info(fd, c.handle, &info));
	EXPECT_EQ(DRM_VATOM_SURFACE_TYPED, info.kind);
	EXPECT_EQ(c.size, info.size);
	EXPECT_EQ(0, vt_gem_close(fd, c.handle));
	close(fd);
}

TEST(surface_create_tile_grid)
{
	__u8 types[2 * 2] = { DRM_VATOM_TILE_TENSIX, DRM_VATOM_TILE_TENSIX,
			      DRM_VATOM_TILE_TENSIX, DRM_VATOM_TILE_TENSIX };
	struct drm_vatom_tile_grid_desc desc = {
		.profile = DRM_VATOM_NOC_PROFILE_WORMHOLE,
		.width = 2, .height = 2,
		.l1_size = { 4096, 0, 0, 0 },
		.tile_types = vt_u64_ptr(types),
	};
	struct drm_vatom_surface_create c;
	struct drm_vatom_surface_info info;
	int fd, ret;

	VT_OPEN(fd);
	memset(&c, 0, sizeof(c));
	c.kind = DRM_VATOM_SURFACE_TILE_GRID;
	c.desc = vt_u64_ptr(&desc);
	c.desc_size = sizeof(desc);
	ret = vt_surface_create(fd, &c);
	if (ret) {
		EXPECT_EQ(EOPNOTSUPP, errno);
		EXPECT_FALSE(vt_caps(fd) & DRM_VATOM_CAP_NOC_ATOMIC);
		close(fd);
		return;
	}
	/* Four 4 KiB L1s at least. */
	EXPECT_LE(4 * 4096, c.size);
	memset(&info, 0, sizeof(info));
	ASSERT_EQ(0, vt_surface_info(fd, c.handle, &info));
	EXPECT_EQ(DRM_VATOM_SURFACE_TILE_GRID, info.kind);
	EXPECT_EQ(0, vt_gem_close(fd, c.handle));
	close(fd);
}

TEST(surface_info_errors)
{
	struct drm_vatom_surface_info info;
	__u32 h;
	int fd;

	VT_OPEN(fd);
	ASSERT_EQ(0, vt_buffer_create(fd, 4096, &h));

	memset(&info, 0, sizeof(info));
	VT_EXPECT_ERRNO(ENOENT, vt_surface_info(fd, 0, &info));
	memset(&info, 0, sizeof(info));
	VT_EXPECT_ERRNO(ENOENT, vt_surface_info(fd, h + 1000, &info));

	memset(&info, 0, sizeof(info));
	info.flags = 1;
	VT_EXPECT_ERRNO(EINVAL, vt_surface_info(fd, h, &info));

	/* @pad is MBZ: the UAPI rejects non-zero padding everywhere. */
	memset(&info, 0, sizeof(info));
	info.pad = 1;
	VT_EXPECT_ERRNO(EINVAL, vt_surface_info(fd, h, &info));
	close(fd);
}

TEST(surface_mmap_offset_errors)
{
	__u64 off;
	__u32 h;
	int fd;

	VT_OPEN(fd);
	ASSERT_EQ(0, vt_buffer_create(fd, 4096, &h));
	VT_EXPECT_ERRNO(ENOENT, vt_mmap_offset(fd, 0, 0, &off));
	VT_EXPECT_ERRNO(ENOENT, vt_mmap_offset(fd, h + 1000, 0, &off));
	VT_EXPECT_ERRNO(EINVAL, vt_mmap_offset(fd, h, 1, &off));
	VT_EXPECT_ERRNO(EINVAL, vt_mmap_offset(fd, h, 0x80000000, &off));
	close(fd);
}

/*
 * A new surface reads as zeros, the fake offset is stable and page
 * aligned, and bytes written through one mapping are seen through another.
 */
TEST(surface_mmap)
{
	const size_t size = 3 * 4096;
	__u64 off1, off2;
	__u8 *a, *b;
	size_t i;
	__u32 h;
	int fd;

	VT_OPEN(fd);
	ASSERT_EQ(0, vt_buffer_create(fd, size, &h));
	ASSERT_EQ(0, vt_mmap_offset(fd, h, 0, &off1));
	ASSERT_EQ(0, vt_mmap_offset(fd, h, 0, &off2));
	EXPECT_EQ(off1, off2);
	EXPECT_NE(0, off1);
	EXPECT_EQ(0, off1 % VT_PAGE_SIZE);

	a = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off1);
	ASSERT_NE(MAP_FAILED, a);
	b = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off1);
	ASSERT_NE(MAP_FAILED, b);
	EXPECT_EQ(-1, vt_find_ne8(a, 0, size, 0)) TH_LOG("a new surface is not zeroed");
	for (i = 0; i < size; i++)
		a[i] = (__u8)(i * 7 + 1);
	for (i = 0; i < size; i++)
		if (b[i] != (__u8)(i * 7 + 1))
			break;
	EXPECT_EQ(size, i) TH_LOG("byte %zu differs between two mappings", i);

	/* More than the object is not mappable. */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, size + 4096, PROT_READ, MAP_SHARED, fd, off1));

	munmap(a, size);
	munmap(b, size);
	close(fd);
}

/*
 * GEM_CLOSE drops the handle (a second close is the DRM core's -EINVAL) but
 * a mapping keeps the memory alive, and other handles are unaffected.
 */
TEST(surface_gem_close)
{
	struct drm_vatom_surface_info info;
	__u32 h, h2;
	__u32 *map;
	__u64 off;
	int fd;

	VT_OPEN(fd);
	VT_BUFFER(fd, 4096, h, map);
	ASSERT_EQ(0, vt_buffer_create(fd, 4096, &h2));
	map[0] = 0x1234;
	ASSERT_EQ(0, vt_gem_close(fd, h));
	VT_EXPECT_ERRNO(EINVAL, vt_gem_close(fd, h));
	memset(&info, 0, sizeof(info));
	VT_EXPECT_ERRNO(ENOENT, vt_surface_info(fd, h, &info));
	VT_EXPECT_ERRNO(ENOENT, vt_mmap_offset(fd, h, 0, &off));

	EXPECT_EQ(0x1234, map[0]);
	map[1] = 0x5678;
	EXPECT_EQ(0x5678, map[1]);

	memset(&info, 0, sizeof(info));
	EXPECT_EQ(0, vt_surface_info(fd, h2, &info));
	munmap(map, 4096);
	close(fd);
}

/* Handles are private to the file that created them. */
TEST(surface_handles_per_file)
{
	struct drm_vatom_surface_info info;
	int fd, fd2;
	__u32 h;

	VT_OPEN(fd);
	VT_OPEN(fd2);
	ASSERT_EQ(0, vt_buffer_create(fd, 4096, &h));
	memset(&info, 0, sizeof(info));
	VT_EXPECT_ERRNO(ENOENT, vt_surface_info(fd2, h, &info));
	close(fd2);
	close(fd);
}

/*
 * Device atomics land in the memory the process maps, and CPU writes
 * through the mapping are what the device reads.
 */
TEST(mmap_coherence)
{
	const __u32 offs[] = { 0, 4, 4092, 8, 4 };
	const __u32 add[] = { 1, 0x10, 0x100, 0xffffffff, 0x22 };
	__u32 old[VT_ARRAY_SIZE(offs)];
	__u32 *map, h;
	int fd;

	VT_OPEN(fd);
	VT_BUFFER(fd, 8192, h, map);

	map[0] = 0xaaaa0000;
	map[1] = 0x7fffffff;
	map[1023] = 5;
	map[2] = 0;
	ASSERT_EQ(0, vt_add_words(fd, h, offs, add, 5, old));
	EXPECT_EQ(0xaaaa0000, old[0]);
	EXPECT_EQ(0x7fffffff, old[1]);
	EXPECT_EQ(5, old[2]);
	EXPECT_EQ(0, old[3]);
	EXPECT_EQ(0x8000000f, old[4]);	/* the second packet saw the first */
	EXPECT_EQ(0xaaaa0001, map[0]);
	EXPECT_EQ(0x80000031, map[1]);
	EXPECT_EQ(0x105, map[1023]);
	EXPECT_EQ(0xffffffff, map[2]);
	EXPECT_EQ(0, map[3]);
	EXPECT_EQ(0, map[1024]);	/* the second page is untouched */

	/* The CPU changes a word between two submissions. */
	map[0] = 41;
	ASSERT_EQ(0, vt_add_words(fd, h, offs, add, 1, old));
	EXPECT_EQ(41, old[0]);
	EXPECT_EQ(42, map[0]);
	__atomic_fetch_add(&map[0], 8, __ATOMIC_SEQ_CST);
	ASSERT_EQ(0, vt_add_words(fd, h, offs, add, 1, old));
	EXPECT_EQ(50, old[0]);
	EXPECT_EQ(51, __atomic_load_n(&map[0], __ATOMIC_SEQ_CST));
	munmap(map, 8192);
	close(fd);
}

/*
 * PRIME: a surface exported as a dma-buf and imported on a second file of
 * the same device is the same memory; importing on the exporting file
 * gives back the original handle.
 */
TEST(prime_second_file)
{
	const __u32 offs[] = { 16 }, add[] = { 3 };
	struct drm_vatom_surface_info info;
	__u32 h, h2, hsame, old;
	__u32 *map;
	int fd, fd2, dmabuf;

	VT_OPEN(fd);
	VT_OPEN(fd2);
	VT_BUFFER(fd, 4096, h, map);
	map[4] = 100;

	ASSERT_EQ(0, vt_prime_export(fd, h, &dmabuf));
	ASSERT_LE(0, dmabuf);
	ASSERT_EQ(0, vt_prime_import(fd, dmabuf, &hsame));
	EXPECT_EQ(h, hsame);

	ASSERT_EQ(0, vt_prime_import(fd2, dmabuf, &h2));
	memset(&info, 0, sizeof(info));
	ASSERT_EQ(0, vt_surface_info(fd2, h2, &info));
	EXPECT_EQ(DRM_VATOM_SURFACE_BUFFER, info.kind);
	EXPECT_EQ(4096, info.size);

	/* The second file's submission changes what the first file maps. */
	ASSERT_EQ(0, vt_add_words(fd2, h2, offs, add, 1, &old));
	EXPECT_EQ(100, old);
	EXPECT_EQ(103, map[4]);
	ASSERT_EQ(0, vt_add_words(fd, h, offs, add, 1, &old));
	EXPECT_EQ(103, old);

	/* The import outlives the exporter's handle and file. */
	close(dmabuf);
	EXPECT_EQ(0, vt_gem_close(fd, h));
	munmap(map, 4096);
	close(fd);
	ASSERT_EQ(0, vt_add_words(fd2, h2, offs, add, 1, &old));
	EXPECT_EQ(106, old);
	close(fd2);
}

/*
 * A vgem dumb buffer (created on vgem's primary node, the only one that
 * allows dumb buffers) imported as a vatom buffer: device atomics work on
 * it and vgem's mapping sees their effects.
 */
TEST(prime_import_vgem)
{
	const __u32 offs[] = { 0, 4, 4092 }, add[] = { 1, 0xffffffff, 7 };
	char vgem[1][VT_PATH_MAX];
	struct drm_mode_create_dumb dumb;
	struct drm_mode_map_dumb mapd;
	struct drm_vatom_surface_info info;
	__u32 h, old[3];
	__u32 *vmap, *amap;
	int fd, vfd, dmabuf;

	VT_OPEN(fd);
	if (vt_scan_nodes("vgem", "card", vgem, 1) < 1)
		SKIP(close(fd); return, "no vgem device (modprobe vgem)");
	vfd = vt_open_path(vgem[0]);
	ASSERT_LE(0, vfd);

	memset(&dumb, 0, sizeof(dumb));
	dumb.width = 1024;
	dumb.height = 1;
	dumb.bpp = 32;
	ASSERT_EQ(0, ioctl(vfd, DRM_IOCTL_MODE_CREATE_DUMB, &dumb));
	ASSERT_LE(4096, dumb.size);
	memset(&mapd, 0, sizeof(mapd));
	mapd.handle = dumb.handle;
	ASSERT_EQ(0, ioctl(vfd, DRM_IOCTL_MODE_MAP_DUMB, &mapd));
	vmap = mmap(NULL, dumb.size, PROT_READ | PROT_WRITE, MAP_SHARED, vfd,
		    mapd.offset);
	ASSERT_NE(MAP_FAILED, vmap);
	vmap[0] = 10;
	vmap[1] = 0;
	vmap[1023] = 0x80000000;
	__sync_synchronize();	/* vgem maps write-combined */

	ASSERT_EQ(0, vt_prime_export(vfd, dumb.handle, &dmabuf));
	ASSERT_EQ(0, vt_prime_import(fd, dmabuf, &h));
	memset(&info, 0, sizeof(info));
	ASSERT_EQ(0, vt_surface_info(fd, h, &info));
	EXPECT_EQ(DRM_VATOM_SURFACE_BUFFER, info.kind);
	EXPECT_EQ(dumb.size, info.size);

	ASSERT_EQ(0, vt_add_words(fd, h, offs, add, 3, old));
	EXPECT_EQ(10, old[0]);
	EXPECT_EQ(0, old[1]);
	EXPECT_EQ(0x80000000, old[2]);
	EXPECT_EQ(11, vmap[0]);
	EXPECT_EQ(0xffffffff, vmap[1]);
	EXPECT_EQ(0x80000007, vmap[1023]);
	EXPECT_EQ(0, vmap[2]);

	/* The import is mappable through vatom too: the same pages. */
	amap = vt_map(fd, h, dumb.size);
	EXPECT_NE(NULL, amap);
	if (amap) {
		EXPECT_EQ(11, amap[0]);
		amap[2] = 0x55;
		__sync_synchronize();
		EXPECT_EQ(0x55, vmap[2]);
		munmap(amap, dumb.size);
	}

	munmap(vmap, dumb.size);
	close(dmabuf);
	close(vfd);
	close(fd);
}
