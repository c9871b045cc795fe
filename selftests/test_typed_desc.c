// SPDX-License-Identifier: GPL-2.0
/*
 * TYPED_ATOMIC through the UAPI: every typed surface descriptor error of
 * SURFACE_CREATE with its errno, one table walked by typed_desc, and the
 * create arguments around it.
 *
 * Part of vatom_test.c's translation unit, after test_typed.c; not built
 * alone.
 *
 * Copyright (C) 2026 The vatom developers
 */

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
