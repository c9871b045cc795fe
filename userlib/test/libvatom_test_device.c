// SPDX-License-Identifier: MIT
/*
 * libvatom test: discovery, parameters and surfaces of every kind on the device.
 *
 * Part of libvatom_test.c's one translation unit (its harness: EXPECT(),
 * REQUIRE(), the device); not built alone.
 *
 * Copyright (C) 2026 The vatom developers
 */

/* ------------------------------------------------------------------------ */
/* Device checks (in the VM, against vatom.ko)                               */
/* ------------------------------------------------------------------------ */

static struct vatom_device *dev;

static void dev_discovery(void)
{
	struct vatom_device *d2 = NULL;
	uint64_t v;
	int n, fdflags;

	n = vatom_device_count();
	EXPECT(n >= 1);
	EXPECT(!strncmp(vatom_device_node(dev), "/dev/dri/renderD", 16));
	fdflags = fcntl(vatom_device_fd(dev), F_GETFD);
	EXPECT(fdflags >= 0 && (fdflags & FD_CLOEXEC));
	EXPECT_EQ(fcntl(vatom_device_fd(dev), F_GETFL) & O_ACCMODE, O_RDWR);
	EXPECT(vatom_device_uapi_version(dev) >= 1);
	EXPECT(vatom_device_caps(dev) & DRM_VATOM_CAP_VISA_DWORD_ATOMIC);
	EXPECT_EQ(vatom_device_get_param(dev, DRM_VATOM_PARAM_UAPI_VERSION, 0, &v), 0);
	EXPECT_EQ(v, vatom_device_uapi_version(dev));
	EXPECT_EQ(vatom_device_get_param(dev, DRM_VATOM_PARAM_CAPS, 0, &v), 0);
	EXPECT_EQ(v, vatom_device_caps(dev));
	EXPECT_EQ(vatom_device_get_param(dev, 0xffff, 0, &v), -EINVAL);
	EXPECT_EQ(vatom_device_get_param(dev, DRM_VATOM_PARAM_CAPS, 1, &v), -EINVAL);
	EXPECT_EQ(vatom_device_open(n, 0, &d2), -ENODEV);
	EXPECT_EQ(vatom_device_open(0, 1, &d2), -EINVAL);
	EXPECT_EQ(vatom_device_open_path("/dev/null", 0, &d2), -ENODEV);
	EXPECT_EQ(vatom_device_open_path("/nonexistent", 0, &d2), -ENOENT);
	/* The same node opened by path is the same device. */
	EXPECT_EQ(vatom_device_open_path(vatom_device_node(dev), 0, &d2), 0);
	if (d2) {
		EXPECT_EQ(vatom_device_caps(d2), vatom_device_caps(dev));
		EXPECT(vatom_device_fd(d2) != vatom_device_fd(dev));
		vatom_device_close(d2);
	}
	vatom_device_close(NULL);
}

static void dev_surface_basics(void)
{
	struct vatom_surface *s = NULL, *t = NULL;
	struct vatom_surface_info info;
	uint8_t *p = NULL, *q = NULL;
	size_t i;

	REQUIRE(!vatom_surface_create_buffer(dev, 4096 + 100, 0, &s));
	EXPECT_EQ(vatom_surface_size(s), 4196);
	EXPECT(vatom_surface_handle(s) != 0);
	EXPECT_EQ(vatom_surface_info(s, &info), 0);
	EXPECT_EQ(info.kind, DRM_VATOM_SURFACE_BUFFER);
	EXPECT_EQ(info.handle, vatom_surface_handle(s));
	EXPECT_EQ(info.size, 4196);
	EXPECT_EQ(info.mmap_size, 8192);
	REQUIRE(!vatom_surface_map(s, (void **)&p));
	EXPECT_EQ(vatom_surface_map(s, (void **)&q), 0);
	EXPECT(p == q);				/* cached */
	for (i = 0; i < 4196; i++)
		if (p[i])
			break;
	EXPECT_EQ(i, 4196);			/* starts zeroed */
	memset(p, 0xa5, 8192);			/* the whole mapping is writable */
	EXPECT_EQ(p[8191], 0xa5);
	REQUIRE(!vatom_surface_create_buffer(dev, 1, 0, &t));
	EXPECT(vatom_surface_handle(t) != vatom_surface_handle(s));
	EXPECT_EQ(vatom_surface_info(t, &info), 0);
	EXPECT_EQ(info.size, 1);
	EXPECT(info.mmap_size >= 4096 && info.mmap_size % 4096 == 0);
	EXPECT_EQ(vatom_surface_create_buffer(dev, 0, 0, &t), -EINVAL);
	EXPECT_EQ(vatom_surface_create_buffer(dev, 8, 1, &t), -EINVAL);
	EXPECT_EQ(vatom_surface_create_buffer(dev, UINT64_MAX, 0, &t), -E2BIG);
out:
	vatom_surface_destroy(t);
	vatom_surface_destroy(s);
	vatom_surface_destroy(NULL);
}

static void dev_surface_sharing(void)
{
	struct vatom_device *d2 = NULL;
	struct vatom_surface *s = NULL, *same = NULL, *other = NULL;
	uint32_t *p, *q;
	int fd = -1;

	REQUIRE(!vatom_surface_create_buffer(dev, 256, 0, &s));
	REQUIRE(!vatom_surface_map(s, (void **)&p));
	p[3] = 0x12345678;
	REQUIRE(!vatom_surface_export(s, &fd));
	EXPECT(fd >= 0);
	EXPECT(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	EXPECT_EQ(fcntl(fd, F_GETFL) & O_ACCMODE, O_RDWR);
	/* Imported back into the same file: the same surface, one more ref. */
	REQUIRE(!vatom_surface_import(dev, fd, &same));
	EXPECT(same == s);
	vatom_surface_destroy(same);
	EXPECT_EQ(p[3], 0x12345678);		/* still mapped and alive */
	/* Into another file: another handle onto the same memory. */
	REQUIRE(!vatom_device_open_path(vatom_device_node(dev), 0, &d2));
	REQUIRE(!vatom_surface_import(d2, fd, &other));
	EXPECT_EQ(vatom_surface_size(other), 256);
	REQUIRE(!vatom_surface_map(other, (void **)&q));
	EXPECT_EQ(q[3], 0x12345678);
	q[4] = 0xfeedface;
	EXPECT_EQ(p[4], 0xfeedface);
	EXPECT_EQ(vatom_surface_import(dev, -1, &same), -EBADF);
	EXPECT(vatom_surface_import(dev, 0, &same) < 0);	/* not a dma-buf */
out:
	if (fd >= 0)
		close(fd);
	vatom_surface_destroy(other);
	vatom_surface_destroy(s);
	vatom_device_close(d2);
}

static void dev_other_surface_kinds(void)
{
	struct drm_vatom_typed_desc td = {
		.dim = DRM_VATOM_TYPED_2D, .format = DRM_VATOM_FORMAT_R32,
		.width = 4, .height = 4, .depth = 1, .array_size = 1,
		.levels = 1,
	};
	uint8_t types[4] = { DRM_VATOM_TILE_TENSIX, DRM_VATOM_TILE_TENSIX,
			     DRM_VATOM_TILE_TENSIX, DRM_VATOM_TILE_TENSIX };
	struct drm_vatom_tile_grid_desc gd = {
		.profile = DRM_VATOM_NOC_PROFILE_BLACKHOLE, .width = 2,
		.height = 2, .tile_types = (uintptr_t)types,
	};
	struct vatom_surface_info info;
	struct vatom_surface *s = NULL;
	int ret;

	/* Implemented later; until then the kernel says -EOPNOTSUPP. */
	ret = vatom_surface_create_typed(dev, &td, &s);
	EXPECT(ret == 0 || ret == -EOPNOTSUPP);
	if (!ret) {
		EXPECT_EQ(vatom_surface_info(s, &info), 0);
		EXPECT_EQ(info.kind, DRM_VATOM_SURFACE_TYPED);
		EXPECT(info.size >= 64);
		vatom_surface_destroy(s);
		s = NULL;
	}
	ret = vatom_surface_create_tile_grid(dev, &gd, &s);
	EXPECT(ret == 0 || ret == -EOPNOTSUPP);
	if (!ret) {
		EXPECT_EQ(vatom_surface_info(s, &info), 0);
		EXPECT_EQ(info.kind, DRM_VATOM_SURFACE_TILE_GRID);
		vatom_surface_destroy(s);
	}
	EXPECT_EQ(vatom_surface_create_typed(dev, NULL, &s), -EINVAL);
}
