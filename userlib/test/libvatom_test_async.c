// SPDX-License-Identifier: MIT
/*
 * libvatom test: asynchronous submission and fences: argument checks, an asynchronous
 * batch, fences across devices and vgem, deadlines, cancellation.
 *
 * Part of libvatom_test.c's one translation unit (its harness: EXPECT(),
 * REQUIRE(), the device); not built alone.
 *
 * Copyright (C) 2026 The vatom developers
 */

/* ------------------------------------------------------------------------ */
/* Asynchronous submission and fences                                        */
/* ------------------------------------------------------------------------ */

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/* Argument checking, no device needed. */
static void host_fence_errors(void)
{
	struct vatom_batch *b = NULL;
	struct vatom_fence *f = (struct vatom_fence *)8, *in[1] = { NULL };
	int fd;

	EXPECT_EQ(vatom_submit_async(NULL, NULL, 0, NULL, 0, &f), -EINVAL);
	REQUIRE(!vatom_batch_create(NULL, 0, &b));
	EXPECT_EQ(vatom_submit_async(b, NULL, 0, NULL, 1, NULL), -EINVAL);
	EXPECT_EQ(vatom_submit_async(b, NULL, 0, in, 1, NULL), -EINVAL);
	EXPECT_EQ(vatom_submit_async(b, NULL, 0, in, VATOM_MAX_IN_FENCES + 1, NULL),
		  -E2BIG);
	EXPECT_EQ(vatom_submit_async(b, NULL, 0, NULL, 0, &f), -ENODEV);
	EXPECT(f == (struct vatom_fence *)8);	/* untouched on failure */
	EXPECT_EQ(vatom_fence_wait(NULL, 0), -EINVAL);
	EXPECT_EQ(vatom_fence_status(NULL), -EINVAL);
	EXPECT_EQ(vatom_fence_export_sync_file(NULL, &fd), -EINVAL);
	EXPECT_EQ(vatom_fence_import_sync_file(NULL, 0, &f), -EINVAL);
	vatom_fence_destroy(NULL);
out:
	vatom_batch_destroy(b);
}

/*
 * The DWORD_ATOMIC batch, asynchronously: the same results and memory as
 * the synchronous run, read once the fence has signalled.
 */
static void dev_async_batch(void)
{
	struct vatom_surface *s = NULL, *rs = NULL;
	struct vatom_fence *f = NULL;
	struct vatom_batch *b = NULL;
	struct dword_batch r;
	uint32_t *mem;

	if (!(vatom_device_caps(dev) & DRM_VATOM_CAP_SUBMIT_ASYNC)) {
		skip("no DRM_VATOM_CAP_SUBMIT_ASYNC");
		return;
	}
	REQUIRE(!vatom_surface_create_buffer(dev, NDW * 4, 0, &s));
	REQUIRE(!vatom_surface_create_buffer(dev, 4096, 0, &rs));
	REQUIRE(!vatom_surface_map(s, (void **)&mem));
	memcpy(mem, init_mem, sizeof(init_mem));
	REQUIRE(!vatom_batch_create(dev, 0, &b));
	REQUIRE(!vatom_batch_bind(b, VATOM_T255, s));
	REQUIRE(!build_dword_batch(b, &r));
	/* Results never go to library memory asynchronously. */
	EXPECT_EQ(vatom_submit_async(b, NULL, 0, NULL, 0, &f), -EINVAL);
	EXPECT(!f);
	EXPECT_EQ(vatom_submit_async(b, rs, 8, NULL, 0, &f), 0);
	REQUIRE(f);
	EXPECT_EQ(vatom_fence_wait(f, now_ns() + 5000000000ll), 0);
	EXPECT_EQ(vatom_fence_status(f), 1);
	check_dword_results(b, &r);
	expect_memory(mem, want_mem);
	/* A rejected batch is reported at submission. */
	vatom_batch_reset(b);
	EXPECT(vatom_prep_raw(b, (const uint32_t[2]){ 0x7777, 8 }, 8, 0) >= 0);
	vatom_fence_destroy(f);
	f = NULL;
	EXPECT_EQ(vatom_submit_async(b, NULL, 0, NULL, 0, &f), -EINVAL);
	EXPECT(!f);
	EXPECT_EQ(vatom_batch_error(b, NULL, NULL), -EINVAL);
out:
	vatom_fence_destroy(f);
	vatom_batch_destroy(b);
	vatom_surface_destroy(rs);
	vatom_surface_destroy(s);
}

/* A vgem fence nobody has signalled yet, as a sync_file; see selftests. */
struct vgem_blocker {
	int vfd;
	uint32_t fence;
	int sync_file;
};

static int vgem_blocker(struct vgem_blocker *v)
{
	struct { uint32_t handle, flags, out_fence, pad; } at = { .flags = 1 };
	struct dma_buf_export_sync_file ex = { .flags = DMA_BUF_SYNC_WRITE };
	struct drm_mode_create_dumb dumb = { .width = 1024, .height = 1, .bpp = 32 };
	char path[32];
	drmVersionPtr ver;
	int i, dmabuf = -1;

	v->vfd = -1;
	for (i = 0; i < 16 && v->vfd < 0; i++) {
		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		v->vfd = open(path, O_RDWR | O_CLOEXEC);
		if (v->vfd < 0)
			continue;
		ver = drmGetVersion(v->vfd);
		if (!ver || strcmp(ver->name, "vgem")) {
			close(v->vfd);
			v->vfd = -1;
		}
		drmFreeVersion(ver);
	}
	if (v->vfd < 0)
		return -ENODEV;
	if (ioctl(v->vfd, DRM_IOCTL_MODE_CREATE_DUMB, &dumb))
		return -errno;
	at.handle = dumb.handle;
	if (ioctl(v->vfd, DRM_IOWR(DRM_COMMAND_BASE + 0x1, at), &at))
		return -errno;
	v->fence = at.out_fence;
	if (drmPrimeHandleToFD(v->vfd, dumb.handle, DRM_CLOEXEC, &dmabuf))
		return -errno;
	if (ioctl(dmabuf, DMA_BUF_IOCTL_EXPORT_SYNC_FILE, &ex)) {
		close(dmabuf);
		return -errno;
	}
	close(dmabuf);
	v->sync_file = ex.fd;
	return 0;
}

static void vgem_signal(struct vgem_blocker *v)
{
	struct { uint32_t fence, flags; } sig = { .fence = v->fence };

	EXPECT_EQ(ioctl(v->vfd, DRM_IOW(DRM_COMMAND_BASE + 0x2, sig), &sig), 0);
}

/* One ADD of @val to dword @word of @s, submitted asynchronously. */
static int async_add(struct vatom_batch *b, struct vatom_surface *s,
		     uint32_t word, uint32_t val, struct vatom_fence *in,
		     struct vatom_fence **out)
{
	struct vatom_visa_exec ex = VATOM_VISA_EXEC(1);
	uint32_t off = word * 4;

	vatom_batch_reset(b);
	if (vatom_batch_bind(b, 1, s) ||
	    vatom_prep_dword_atomic(b, &ex, VATOM_VISA_ADD, 0, 1, &off, &val,
				    NULL) < 0)
		return -EINVAL;
	return vatom_submit_async(b, NULL, 0, in ? &in : NULL, in ? 1 : 0, out);
}

/*
 * Fences across devices and drivers: a job waits for a vgem fence
 * (imported from a sync_file); a job on a second open device waits for the
 * first one's fence (exported and imported); deadlines expire with -ETIME;
 * the synchronous API sees the asynchronous jobs' effects; closing a device
 * cancels its waiting job, which other fences report as -ECANCELED.
 */
static void dev_async_fences(void)
{
	struct vatom_device *d2 = NULL;
	struct vatom_surface *s = NULL, *s2 = NULL;
	struct vatom_batch *b = NULL, *b2 = NULL;
	struct vatom_fence *blk = NULL, *f1 = NULL, *f1b = NULL, *f2 = NULL;
	struct vatom_fence *f3 = NULL, *f3b = NULL;
	struct vgem_blocker v = { .vfd = -1, .sync_file = -1 };
	uint32_t *mem;
	int64_t t0;
	int ret, sf = -1, sf3 = -1;

	if (!(vatom_device_caps(dev) & DRM_VATOM_CAP_SUBMIT_ASYNC)) {
		skip("no DRM_VATOM_CAP_SUBMIT_ASYNC");
		return;
	}
	ret = vgem_blocker(&v);
	if (ret == -ENODEV) {
		skip("no vgem device");
		return;
	}
	REQUIRE(!ret);
	REQUIRE(!vatom_device_open(0, 0, &d2));
	REQUIRE(!vatom_surface_create_buffer(dev, 4096, 0, &s));
	REQUIRE(!vatom_surface_map(s, (void **)&mem));
	REQUIRE(!vatom_surface_export(s, &sf));
	REQUIRE(!vatom_surface_import(d2, sf, &s2));
	close(sf);
	sf = -1;
	REQUIRE(!vatom_batch_create(dev, 0, &b));
	REQUIRE(!vatom_batch_create(d2, 0, &b2));

	/* dev: ADD 1 after the vgem fence; d2: ADD 2 after that job. */
	REQUIRE(!vatom_fence_import_sync_file(dev, v.sync_file, &blk));
	EXPECT_EQ(vatom_fence_status(blk), 0);
	EXPECT_EQ(async_add(b, s, 0, 1, blk, &f1), 0);
	REQUIRE(f1);
	EXPECT_EQ(async_add(b2, s2, 0, 2, f1, NULL), -EXDEV);
	REQUIRE(!vatom_fence_export_sync_file(f1, &sf));
	REQUIRE(!vatom_fence_import_sync_file(d2, sf, &f1b));
	EXPECT_EQ(async_add(b2, s2, 0, 2, f1b, &f2), 0);

	t0 = now_ns();
	EXPECT_EQ(vatom_fence_wait(f2, t0 + 100000000ll), -ETIME);
	/* The core rounds deadlines to jiffies: up to one tick (10 ms) early. */
	EXPECT(now_ns() - t0 >= 90000000ll);
	EXPECT_EQ(vatom_fence_wait(f1, 0), -ETIME);
	EXPECT_EQ(vatom_fence_status(f2), 0);
	EXPECT_EQ(mem[0], 0);

	vgem_signal(&v);
	EXPECT_EQ(vatom_fence_wait(f2, now_ns() + 5000000000ll), 0);
	EXPECT_EQ(vatom_fence_wait(f1, 0), 0);
	EXPECT_EQ(mem[0], 3);

	/* Cancellation: d2's job waits for a fence that never signals. */
	vatom_fence_destroy(blk);
	blk = NULL;
	close(v.sync_file);
	v.sync_file = -1;
	close(v.vfd);
	REQUIRE(!vgem_blocker(&v));
	REQUIRE(!vatom_fence_import_sync_file(d2, v.sync_file, &blk));
	EXPECT_EQ(async_add(b2, s2, 1, 5, blk, &f3), 0);
	REQUIRE(!vatom_fence_export_sync_file(f3, &sf3));
	REQUIRE(!vatom_fence_import_sync_file(dev, sf3, &f3b));
	vatom_fence_destroy(blk);
	blk = NULL;
	vatom_fence_destroy(f3);
	f3 = NULL;
	vatom_batch_destroy(b2);
	b2 = NULL;
	vatom_surface_destroy(s2);
	s2 = NULL;
	vatom_device_close(d2);
	d2 = NULL;
	EXPECT_EQ(vatom_fence_wait(f3b, now_ns() + 5000000000ll), -ECANCELED);
	EXPECT_EQ(vatom_fence_status(f3b), -ECANCELED);
	/* A job of dev that waits for it fails the same way, executing nothing. */
	vatom_fence_destroy(f1b);
	f1b = NULL;
	EXPECT_EQ(async_add(b, s, 1, 7, f3b, &f1b), 0);
	EXPECT_EQ(vatom_fence_wait(f1b, now_ns() + 5000000000ll), -ECANCELED);
	vgem_signal(&v);
	/* The synchronous API runs after the device's earlier jobs. */
	vatom_batch_reset(b);
	{
		struct vatom_visa_exec ex = VATOM_VISA_EXEC(1);
		uint32_t off = 4, val = 100;

		EXPECT(vatom_prep_dword_atomic(b, &ex, VATOM_VISA_ADD,
					       VATOM_VISA_DST, 1, &off, &val,
					       NULL) >= 0);
		EXPECT_EQ(vatom_batch_submit(b), 0);
		EXPECT_EQ(vatom_result_u32(b, 0, 0), 0);
	}
	EXPECT_EQ(mem[1], 100);
out:
	if (sf >= 0)
		close(sf);
	if (sf3 >= 0)
		close(sf3);
	if (v.sync_file >= 0)
		close(v.sync_file);
	if (v.vfd >= 0)
		close(v.vfd);
	vatom_fence_destroy(f3b);
	vatom_fence_destroy(f3);
	vatom_fence_destroy(f2);
	vatom_fence_destroy(f1b);
	vatom_fence_destroy(f1);
	vatom_fence_destroy(blk);
	vatom_batch_destroy(b2);
	vatom_batch_destroy(b);
	vatom_surface_destroy(s2);
	vatom_surface_destroy(s);
	vatom_device_close(d2);
}
