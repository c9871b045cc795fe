// SPDX-License-Identifier: GPL-2.0
/*
 * DRM_VATOM_SUBMIT_VALIDATE_ONLY (#included by vatom_test.c, after
 * test_observe.c): the same verdict a submission would get, and nothing
 * changed: not the surface, not the user result region, not a syncobj,
 * not the file's job count. One row per case.
 */

#include "queue_common.h"

struct vo_case {
	const char *name;
	bool bad_op;		/* packet 1 has a reserved Op */
	bool async;		/* ASYNC, results to a surface, an out-syncobj */
	bool ro_results;	/* user results on a read-only page */
	int err;		/* expected errno, 0 for success */
	__u32 index, reason;
};

static const struct vo_case vo_cases[] = {
	{ "valid, user results", false, false, false, 0, 0, DRM_VATOM_ERR_NONE },
	{ "valid, async, out-syncobj", false, true, false, 0, 0, DRM_VATOM_ERR_NONE },
	{ "reserved Op at packet 1", true, false, false, EINVAL, 1, DRM_VATOM_ERR_OP },
	{ "results not writable", false, false, true, EFAULT, 0, DRM_VATOM_ERR_NONE },
};

TEST(validate_only)
{
	const __u32 addr[2] = { 0, 4 }, val[2] = { 5, 7 };
	struct drm_vatom_binding bind;
	struct drm_vatom_submit sub;
	struct drm_vatom_sync out;
	__u32 h, hres, syncobj, *map, *rmap, *res;
	struct vt_stream s;
	struct vt_visa v;
	long long submitted;
	unsigned int i;
	int fd, ret;

	VT_OPEN(fd);
	if (!(vt_caps(fd) & DRM_VATOM_CAP_VALIDATE_ONLY))
		SKIP(close(fd); return, "no DRM_VATOM_CAP_VALIDATE_ONLY");
	VT_BUFFER(fd, 4096, h, map);
	VT_BUFFER(fd, 4096, hres, rmap);
	res = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, res);
	ASSERT_EQ(0, drmSyncobjCreate(fd, 0, &syncobj));
	map[0] = 100;
	map[1] = 200;

	for (i = 0; i < VT_ARRAY_SIZE(vo_cases); i++) {
		const struct vo_case *c = &vo_cases[i];

		vt_stream_init(&s);
		vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_2,
			 DRM_VATOM_VISA_TYPE_UD, addr, val, NULL, true);
		vt_add_visa(&s, &v);
		if (c->bad_op)
			vt_add_visa(&s, &v)->op = 0x1f;
		else
			vt_add_visa(&s, &v);
		memset(res, VT_POISON, 4096);
		mprotect(res, 4096, c->ro_results ? PROT_READ : PROT_READ | PROT_WRITE);
		memset(&bind, 0, sizeof(bind));
		bind.handle = h;
		vt_submit_args(&sub, &s, &bind, 1, c->async ? NULL : res,
			       c->async ? 0 : 4096);
		sub.flags = DRM_VATOM_SUBMIT_VALIDATE_ONLY;
		if (c->async) {
			sub.flags |= DRM_VATOM_SUBMIT_ASYNC;
			sub.result_handle = hres;
			sub.results_size = 4096;
			memset(&out, 0, sizeof(out));
			out.handle = syncobj;
			sub.out_syncs = vt_u64_ptr(&out);
			sub.out_sync_count = 1;
		}
		submitted = vt_fdinfo(fd, "vatom-jobs-submitted");
		ret = vt_submit(fd, &sub) ? errno : 0;
		EXPECT_EQ(c->err, ret) TH_LOG("%s", c->name);
		EXPECT_EQ(c->index, sub.error_index) TH_LOG("%s", c->name);
		EXPECT_EQ(c->reason, sub.error_reason) TH_LOG("%s", c->name);
		if (!c->err)	/* 2 packets x 2 lanes x 4 bytes */
			EXPECT_EQ(16, sub.results_needed) TH_LOG("%s", c->name);
		/* Nothing executed, nothing written, nothing signalled. */
		EXPECT_EQ(100, map[0]) TH_LOG("%s", c->name);
		EXPECT_EQ(200, map[1]) TH_LOG("%s", c->name);
		EXPECT_EQ(-1, vt_find_ne8(rmap, 0, 4096, 0)) TH_LOG("%s", c->name);
		EXPECT_EQ(-1, vt_find_ne8(res, 0, 4096, VT_POISON)) TH_LOG("%s", c->name);
		EXPECT_EQ(-2000, va_status(fd, syncobj)) TH_LOG("%s", c->name);
		EXPECT_EQ(submitted, vt_fdinfo(fd, "vatom-jobs-submitted"));
	}

	/* The same valid stream submitted for real runs once. */
	mprotect(res, 4096, PROT_READ | PROT_WRITE);
	vt_stream_init(&s);
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_2,
		 DRM_VATOM_VISA_TYPE_UD, addr, val, NULL, true);
	vt_add_visa(&s, &v);
	ASSERT_EQ(0, vt_run(fd, &s, h, res, 4096, NULL));
	EXPECT_EQ(100, res[0]);
	EXPECT_EQ(200, res[1]);
	EXPECT_EQ(105, map[0]);
	EXPECT_EQ(207, map[1]);

	munmap(res, 4096);
	munmap(rmap, 4096);
	munmap(map, 4096);
	close(fd);
}
