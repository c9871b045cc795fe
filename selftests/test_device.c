// SPDX-License-Identifier: GPL-2.0
/*
 * Device discovery, DRM_IOCTL_VERSION and GET_PARAM.
 *
 * Part of vatom_test.c's translation unit (see there); not built alone.
 *
 * Copyright (C) 2026 The vatom developers
 */

/*
 * drmGetDevices2() must list every vatom render node, and only those; the
 * node under test is one of them. /dev/dri is scanned independently of
 * libdrm for the cross-check.
 */
TEST(device_discovery)
{
	char lib[VT_MAX_NODES][VT_PATH_MAX], scan[VT_MAX_NODES][VT_PATH_MAX];
	int nlib, nscan, i, j;
	bool found = false;

	if (!vt_render_path[0])
		SKIP(return, "no vatom device");

	nscan = vt_scan_nodes("vatom", "renderD", scan, VT_MAX_NODES);
	ASSERT_LE(1, nscan);

	nlib = vt_find_devices("vatom", lib, VT_MAX_NODES);
	ASSERT_EQ(nscan, nlib) TH_LOG("drmGetDevices2 found %d vatom render nodes, /dev/dri has %d",
				      nlib, nscan);
	for (i = 0; i < nlib; i++) {
		bool listed = false;

		for (j = 0; j < nscan; j++)
			listed |= !strcmp(lib[i], scan[j]);
		EXPECT_TRUE(listed) TH_LOG("%s not in /dev/dri", lib[i]);
		found |= !strcmp(lib[i], vt_render_path);
	}
	EXPECT_TRUE(found);
}

/* The driver's name is how userspace recognises the device. */
TEST(device_version)
{
	char name[32], date[32], desc[128];
	struct drm_version v;
	drmVersionPtr lv;
	int fd;

	VT_OPEN(fd);

	memset(&v, 0, sizeof(v));
	memset(name, VT_POISON, sizeof(name));
	v.name = name;
	v.name_len = sizeof(name);
	v.date = date;
	v.date_len = sizeof(date);
	v.desc = desc;
	v.desc_len = sizeof(desc);
	ASSERT_EQ(0, ioctl(fd, DRM_IOCTL_VERSION, &v));
	EXPECT_EQ(5, v.name_len);
	EXPECT_EQ(0, memcmp(name, "vatom", 5));
	EXPECT_LT(0, v.desc_len);
	EXPECT_LE(0, v.version_major);
	EXPECT_LE(0, v.version_minor);

	lv = drmGetVersion(fd);
	ASSERT_NE(NULL, lv);
	EXPECT_STREQ("vatom", lv->name);
	drmFreeVersion(lv);

	/* A render node: no master, no authentication needed. */
	EXPECT_EQ(DRM_NODE_RENDER, drmGetNodeTypeFromFd(fd));
	close(fd);
}

/* Every defined parameter, with what the UAPI and docs/uapi.md promise. */
TEST(get_param_all)
{
	/* Ops the seed's DWORD_ATOMIC_OP table defines (Op codes). */
	const __u64 seed_int_ops = 0x3fff;		/* 0b00000 .. 0b01101 */
	const __u64 seed_ops = 0x3fff | 0x70000;	/* + FMAX FMIN FCMPWR */
	__u64 v, caps;
	__u32 i;
	int fd;

	VT_OPEN(fd);

	ASSERT_EQ(0, vt_get_param(fd, DRM_VATOM_PARAM_UAPI_VERSION, 0, &v));
	EXPECT_EQ(DRM_VATOM_UAPI_VERSION, v);

	ASSERT_EQ(0, vt_get_param(fd, DRM_VATOM_PARAM_CAPS, 0, &caps));
	EXPECT_TRUE(caps & DRM_VATOM_CAP_VISA_DWORD_ATOMIC);
	/* No bit beyond the defined capabilities. */
	EXPECT_EQ(0, caps & ~((DRM_VATOM_CAP_QUEUE_POLL_CPU << 1) - 1));

	ASSERT_EQ(0, vt_get_param(fd, DRM_VATOM_PARAM_MAX_SURFACE_SIZE, 0, &v));
	EXPECT_LE(VT_PAGE_SIZE, v);
	EXPECT_EQ(0, v % VT_PAGE_SIZE);

	ASSERT_EQ(0, vt_get_param(fd, DRM_VATOM_PARAM_MAX_STREAM_SIZE, 0, &v));
	EXPECT_LE(sizeof(struct drm_vatom_ptx), v);
	EXPECT_EQ(0, v % 8);

	ASSERT_EQ(0, vt_get_param(fd, DRM_VATOM_PARAM_MAX_SLOTS, 0, &v));
	EXPECT_EQ(DRM_VATOM_MAX_SLOTS, v);

	ASSERT_EQ(0, vt_get_param(fd, DRM_VATOM_PARAM_MAX_RESULTS_SIZE, 0, &v));
	EXPECT_LE(8, v);
	EXPECT_EQ(0, v % 8);

	/* vISA op masks: only Op codes the ISA defines, all integer ops. */
	ASSERT_EQ(0, vt_get_param(fd, DRM_VATOM_PARAM_VISA_OPS,
				  DRM_VATOM_VISA_FORM_DWORD32, &v));
	EXPECT_EQ(seed_int_ops, v & seed_int_ops);
	for (i = DRM_VATOM_VISA_FORM_DWORD32; i <= DRM_VATOM_VISA_FORM_TYPED16; i++) {
		ASSERT_EQ(0, vt_get_param(fd, DRM_VATOM_PARAM_VISA_OPS, i, &v));
		EXPECT_EQ(0, v & ~seed_ops) TH_LOG("form %u: 0x%llx", i,
						   (unsigned long long)v);
	}
	/* TYPED_ATOMIC has no float ops (Message Type column). */
	ASSERT_EQ(0, vt_get_param(fd, DRM_VATOM_PARAM_VISA_OPS,
				  DRM_VATOM_VISA_FORM_TYPED32, &v));
	EXPECT_EQ(0, v & 0x70000);
	if (caps & DRM_VATOM_CAP_VISA_TYPED_ATOMIC)
		EXPECT_NE(0, v);

	/* PTX: bits are DRM_VATOM_PTX_OP_* (1 .. 10). */
	for (i = DRM_VATOM_PTX_TYPE_B16; i <= DRM_VATOM_PTX_TYPE_F64; i++) {
		ASSERT_EQ(0, vt_get_param(fd, DRM_VATOM_PARAM_PTX_OPS, i, &v));
		EXPECT_EQ(0, v & ~0x7feull) TH_LOG("type %u: 0x%llx", i,
						   (unsigned long long)v);
		if (!(caps & DRM_VATOM_CAP_PTX_ATOM))
			EXPECT_EQ(0, v);
	}

	for (i = DRM_VATOM_NOC_PROFILE_WORMHOLE; i <= DRM_VATOM_NOC_PROFILE_BLACKHOLE; i++) {
		ASSERT_EQ(0, vt_get_param(fd, DRM_VATOM_PARAM_NOC_OPCODES, i, &v));
		if (!(caps & DRM_VATOM_CAP_NOC_ATOMIC))
			EXPECT_EQ(0, v);
	}
	close(fd);
}

TEST(get_param_unknown)
{
	const __u32 bad[] = { DRM_VATOM_PARAM_MAX_SCHEDULERS + 1, 64, 0x80000000,
			      0xffffffff };
	__u64 v;
	size_t i;
	int fd;

	VT_OPEN(fd);
	for (i = 0; i < VT_ARRAY_SIZE(bad); i++) {
		VT_EXPECT_ERRNO(EINVAL, vt_get_param(fd, bad[i], 0, &v));
	}
	close(fd);
}

/* Parameters without an index reject a non-zero one. */
TEST(get_param_bad_index)
{
	const __u32 plain[] = {
		DRM_VATOM_PARAM_UAPI_VERSION, DRM_VATOM_PARAM_CAPS,
		DRM_VATOM_PARAM_MAX_SURFACE_SIZE, DRM_VATOM_PARAM_MAX_STREAM_SIZE,
		DRM_VATOM_PARAM_MAX_SLOTS, DRM_VATOM_PARAM_MAX_RESULTS_SIZE,
		DRM_VATOM_PARAM_MAX_JOBS, DRM_VATOM_PARAM_FILE_MEM_CAP,
		DRM_VATOM_PARAM_MAX_SYNCS, DRM_VATOM_PARAM_MAX_SUBMIT_OPS,
		DRM_VATOM_PARAM_FILE_MEM_CHARGED, DRM_VATOM_PARAM_MAX_QUEUE_ENTRIES,
		DRM_VATOM_PARAM_MAX_QUEUES, DRM_VATOM_PARAM_JOB_TIMEOUT_MS,
		DRM_VATOM_PARAM_MAX_SCHEDULERS,
	};
	__u64 v;
	size_t i;
	int fd;

	VT_OPEN(fd);
	for (i = 0; i < VT_ARRAY_SIZE(plain); i++) {
		VT_EXPECT_ERRNO(EINVAL, vt_get_param(fd, plain[i], 1, &v));
		VT_EXPECT_ERRNO(EINVAL, vt_get_param(fd, plain[i], 0xffffffff, &v));
	}
	/* Indexed parameters reject indices past their enumerations. */
	VT_EXPECT_ERRNO(EINVAL, vt_get_param(fd, DRM_VATOM_PARAM_VISA_OPS,
					     DRM_VATOM_VISA_FORM_TYPED16 + 1, &v));
	VT_EXPECT_ERRNO(EINVAL, vt_get_param(fd, DRM_VATOM_PARAM_PTX_OPS, 0, &v));
	VT_EXPECT_ERRNO(EINVAL, vt_get_param(fd, DRM_VATOM_PARAM_PTX_OPS,
					     DRM_VATOM_PTX_TYPE_F64 + 1, &v));
	VT_EXPECT_ERRNO(EINVAL, vt_get_param(fd, DRM_VATOM_PARAM_NOC_OPCODES,
					     DRM_VATOM_NOC_PROFILE_BLACKHOLE + 1, &v));
	close(fd);
}

/*
 * With num_devices > 1, each device is its own render node with its own
 * handle namespace; a buffer of one imports into another through PRIME.
 */
TEST(multi_device)
{
	char paths[VT_MAX_NODES][VT_PATH_MAX];
	struct drm_vatom_surface_info info;
	struct drm_vatom_submit sub;
	const __u32 addr[1] = { 8 }, src[1] = { 5 };
	__u32 ha, hb, res[2], *map;
	struct vt_stream s;
	struct vt_visa v;
	int n, a, b, dmabuf;

	/* /dev/dri, not libdrm: device_discovery checks the enumeration. */
	n = vt_scan_nodes("vatom", "renderD", paths, VT_MAX_NODES);
	if (n < 2)
		SKIP(return, "one vatom device (load with num_devices=2)");
	EXPECT_NE(0, strcmp(paths[0], paths[1]));
	a = vt_open_path(paths[0]);
	b = vt_open_path(paths[1]);
	ASSERT_LE(0, a);
	ASSERT_LE(0, b);

	VT_BUFFER(a, 4096, ha, map);
	map[2] = 37;
	memset(&info, 0, sizeof(info));
	VT_EXPECT_ERRNO(ENOENT, vt_surface_info(b, ha, &info));

	ASSERT_EQ(0, vt_prime_export(a, ha, &dmabuf));
	ASSERT_EQ(0, vt_prime_import(b, dmabuf, &hb));
	memset(&info, 0, sizeof(info));
	ASSERT_EQ(0, vt_surface_info(b, hb, &info));
	EXPECT_EQ(DRM_VATOM_SURFACE_BUFFER, info.kind);
	EXPECT_EQ(4096, info.size);

	vt_stream_init(&s);
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_1,
		 DRM_VATOM_VISA_TYPE_UD, addr, src, NULL, true);
	vt_add_visa(&s, &v);
	memset(res, VT_POISON, sizeof(res));
	ASSERT_EQ(0, vt_run(b, &s, hb, res, sizeof(res), &sub));
	EXPECT_EQ(37, res[0]);
	EXPECT_EQ(42, map[2]);

	close(dmabuf);
	munmap(map, 4096);
	close(b);
	close(a);
}
