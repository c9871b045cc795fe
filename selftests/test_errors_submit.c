// SPDX-License-Identifier: GPL-2.0
/*
 * Every input-validation failure of SUBMIT, continued: the encodings the
 * vISA rules refuse, bindings (a FIXTURE_VARIANT table and the cases of
 * more than one step), the results region (a table) and the submit struct
 * itself, each with its exact errno and, for stream errors, index and
 * reason; and no memory changed.
 *
 * Part of vatom_test.c's translation unit, after test_errors.c (its reject
 * fixture and helpers); not built alone.
 *
 * Copyright (C) 2026 The vatom developers
 */

/* --- encodings ---------------------------------------------------------- */

/*
 * Every Op code of DWORD_ATOMIC: the ones the ISA defines run exactly when
 * GET_PARAM says they are implemented (else -EOPNOTSUPP), the others are
 * reserved encodings.
 */
TEST_F(reject, visa_ops_match_get_param)
{
	const __u32 defined = 0x3fff | 0x70000;
	__u64 mask;
	__u32 op;

	if (self->fd < 0)
		return;
	mask = vt_visa_ops(self->fd, DRM_VATOM_VISA_FORM_DWORD32);
	for (op = 0; op < 32; op++) {
		const __u32 one[1] = { 16 }, val[1] = { 0x3f800000 };
		struct drm_vatom_submit args;
		struct vt_stream s;
		struct vt_visa v;
		__u8 type = DRM_VATOM_VISA_TYPE_UD;
		bool s0 = true, s1 = false;
		int ret;

		if (op == DRM_VATOM_VISA_OP_IMIN || op == DRM_VATOM_VISA_OP_IMAX ||
		    op == DRM_VATOM_VISA_OP_PREDEC)
			type = DRM_VATOM_VISA_TYPE_D;
		if (op >= DRM_VATOM_VISA_OP_FMAX)
			type = DRM_VATOM_VISA_TYPE_F;
		if (op == DRM_VATOM_VISA_OP_INC || op == DRM_VATOM_VISA_OP_DEC ||
		    op == DRM_VATOM_VISA_OP_PREDEC)
			s0 = false;
		if (op == DRM_VATOM_VISA_OP_CMPXCHG || op == DRM_VATOM_VISA_OP_FCMPWR)
			s1 = true;

		vt_stream_init(&s);
		vt_dword(&v, op, DRM_VATOM_VISA_EXEC_1, type, one,
			 s0 ? val : NULL, s1 ? val : NULL, true);
		vt_add_visa(&s, &v);
		vt_submit_args(&args, &s, self->bind, 1, self->res, sizeof(self->res));
		ret = vt_submit(self->fd, &args);
		if (!(defined & (1u << op))) {
			EXPECT_EQ(0, mask & (1u << op)) TH_LOG("op 0x%x", op);
			EXPECT_EQ(-1, ret) TH_LOG("op 0x%x accepted", op);
			EXPECT_EQ(EINVAL, errno);
			EXPECT_EQ(DRM_VATOM_ERR_OP, args.error_reason);
		} else if (mask & (1u << op)) {
			EXPECT_EQ(0, ret) TH_LOG("op 0x%x: errno %d reason %u", op,
						 errno, args.error_reason);
		} else {
			EXPECT_EQ(-1, ret) TH_LOG("op 0x%x not reported but accepted", op);
			EXPECT_EQ(EOPNOTSUPP, errno);
			EXPECT_EQ(DRM_VATOM_ERR_UNSUPPORTED, args.error_reason);
		}
	}
}

/* Bit 3 of Exec_size is not part of any field. */
TEST_F(reject, visa_exec_size_bit3)
{
	struct drm_vatom_submit args;
	struct drm_vatom_visa *p;
	struct vt_visa v;

	if (self->fd < 0)
		return;
	vt_good(&v);
	p = vt_add_visa(&self->s, &v);
	p->exec_size |= 0x08;
	vt_submit_args(&args, &self->s, self->bind, 1, self->res, sizeof(self->res));
	VT_REJECT_ARGS(&args, EINVAL);
	EXPECT_EQ(1, args.error_index);
	EXPECT_TRUE(args.error_reason == DRM_VATOM_ERR_EXEC_SIZE ||
		    args.error_reason == DRM_VATOM_ERR_RESERVED)
		TH_LOG("reason %u", args.error_reason);
}

/* Any slot works once bound, T255 (5) and 255 included. */
TEST_F(reject, visa_slots_bound)
{
	const __u8 slots[] = { 5, 255, 17 };
	struct drm_vatom_binding bind[3];
	struct drm_vatom_submit args;
	struct vt_stream s;
	struct vt_visa v;
	size_t i;

	if (self->fd < 0)
		return;
	vt_stream_init(&s);
	for (i = 0; i < 3; i++) {
		bind[i].slot = slots[i];
		bind[i].handle = self->h;
		bind[i].flags = 0;
		bind[i].pad = 0;
		vt_good(&v);
		v.surface = slots[i];
		vt_add_visa(&s, &v);
	}
	*(__u32 *)(self->map + 64) = 7;
	vt_submit_args(&args, &s, bind, 3, self->res, sizeof(self->res));
	ASSERT_EQ(0, vt_submit(self->fd, &args));
	EXPECT_EQ(7, self->res[0]);
	EXPECT_EQ(8, self->res[2]);
	EXPECT_EQ(9, self->res[4]);
	EXPECT_EQ(10, vt_rd32(self->map, 64));
}

/* Enabled lanes need naturally aligned offsets, in bounds or not. */
TEST_F(reject, visa_misaligned)
{
	const __u32 offs[] = { 2, 1, 3, 4097, 0xfffffffe };
	struct vt_visa v;
	__u32 addr[4], src[4] = { 1, 1, 1, 1 };
	size_t i;

	if (self->fd < 0)
		return;
	for (i = 0; i < VT_ARRAY_SIZE(offs); i++) {
		VT_RESET();
		addr[0] = 0;
		addr[1] = 4;
		addr[2] = offs[i];
		addr[3] = 8;
		vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_4,
			 DRM_VATOM_VISA_TYPE_UD, addr, src, NULL, true);
		vt_add_visa(&self->s, &v);
		VT_REJECT(EINVAL, 1, DRM_VATOM_ERR_ALIGN);
	}
}

/* A disabled lane's offset is never used: misaligned is fine there. */
TEST_F(reject, visa_misaligned_disabled_lane)
{
	const __u32 addr[4] = { 0, 2, 0xffffffff, 8 }, src[4] = { 1, 1, 1, 1 };
	struct drm_vatom_submit args;
	struct vt_stream s;
	struct vt_visa v;

	if (self->fd < 0)
		return;
	vt_stream_init(&s);
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_4,
		 DRM_VATOM_VISA_TYPE_UD, addr, src, NULL, true);
	v.emask = 0x9;
	vt_add_visa(&s, &v);
	vt_submit_args(&args, &s, self->bind, 1, self->res, sizeof(self->res));
	EXPECT_EQ(0, vt_submit(self->fd, &args))
		TH_LOG("errno %d reason %u", errno, args.error_reason);
	/* Predicated off works the same. */
	v.emask = 0xffffffff;
	v.flags = DRM_VATOM_VISA_PREDICATED;
	v.pred = 0x9;
	vt_stream_init(&s);
	vt_add_visa(&s, &v);
	vt_submit_args(&args, &s, self->bind, 1, self->res, sizeof(self->res));
	EXPECT_EQ(0, vt_submit(self->fd, &args))
		TH_LOG("errno %d reason %u", errno, args.error_reason);
}

TEST_F(reject, visa_misaligned_16_64)
{
	const __u32 addr[1] = { 1 }, addr64[1] = { 4 }, src[2] = { 1, 0 };
	struct vt_visa v;
	bool tested = false;

	if (self->fd < 0)
		return;
	if (vt_visa_ops(self->fd, DRM_VATOM_VISA_FORM_DWORD16) & 1) {
		vt_dword(&v, DRM_VATOM_VISA_OP_ADD | DRM_VATOM_VISA_OP_16,
			 DRM_VATOM_VISA_EXEC_1, DRM_VATOM_VISA_TYPE_UD, addr, src,
			 NULL, true);
		vt_add_visa(&self->s, &v);
		VT_REJECT(EINVAL, 1, DRM_VATOM_ERR_ALIGN);
		tested = true;
	}
	if (vt_visa_ops(self->fd, DRM_VATOM_VISA_FORM_DWORD64) & 1) {
		VT_RESET();
		vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_1,
			 DRM_VATOM_VISA_TYPE_UQ, addr64, NULL, NULL, true);
		v.src0 = src;
		v.operands |= DRM_VATOM_VISA_OPND_SRC0;
		vt_add_visa(&self->s, &v);
		VT_REJECT(EINVAL, 1, DRM_VATOM_ERR_ALIGN);
		tested = true;
	}
	if (!tested)
		SKIP(return, "no .16 or 64-bit DWORD_ATOMIC");
}

/* TYPED_ATOMIC needs a typed surface: a buffer is the wrong kind. */
TEST_F(reject, typed_atomic_on_buffer)
{
	__u32 addr[8] = { 0 }, src[8] = { 0 };
	struct vt_visa v;

	if (self->fd < 0)
		return;
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_8,
		 DRM_VATOM_VISA_TYPE_UD, addr, src, NULL, true);
	v.opcode = DRM_VATOM_VISA_TYPED_ATOMIC;
	vt_add_visa(&self->s, &v);
	if (self->caps & DRM_VATOM_CAP_VISA_TYPED_ATOMIC)
		VT_REJECT(EINVAL, 1, DRM_VATOM_ERR_SURFACE_KIND);
	else
		VT_REJECT(EOPNOTSUPP, 1, DRM_VATOM_ERR_UNSUPPORTED);
}

/* --- bindings (table) ----------------------------------------------------- */

/* The handle a row binds. */
enum vt_bind_handle {
	VT_BIND_SURFACE,	/* the fixture's surface */
	VT_BIND_UNKNOWN,	/* a handle this file never had */
	VT_BIND_ZERO,		/* no GEM handle is 0 */
};

/*
 * reject_binding: binding @which (0, the one packet 0 uses, or 1, added)
 * set to @slot, @handle, @flags and @pad; the submission must fail with
 * @err (no DRM_VATOM_ERR_* reason: bindings are not packets).
 */
VT_REJECT_TABLE(reject_binding);

FIXTURE_VARIANT(reject_binding) {
	__u32 which, slot;
	enum vt_bind_handle handle;
	__u32 flags, pad;
	int err;
};

FIXTURE_VARIANT_ADD(reject_binding, unknown_handle) {
	.which = 0, .slot = 0, .handle = VT_BIND_UNKNOWN, .err = ENOENT,
};

FIXTURE_VARIANT_ADD(reject_binding, handle_0) {
	.which = 0, .slot = 0, .handle = VT_BIND_ZERO, .err = ENOENT,
};

/* Even on a slot no packet uses. */
FIXTURE_VARIANT_ADD(reject_binding, unknown_handle_unused_slot) {
	.which = 1, .slot = 9, .handle = VT_BIND_UNKNOWN, .err = ENOENT,
};

FIXTURE_VARIANT_ADD(reject_binding, slot_max_slots) {
	.which = 1, .slot = DRM_VATOM_MAX_SLOTS, .err = EINVAL,
};

FIXTURE_VARIANT_ADD(reject_binding, slot_all_ones) {
	.which = 1, .slot = 0xffffffff, .err = EINVAL,
};

FIXTURE_VARIANT_ADD(reject_binding, slot_twice) {
	.which = 1, .slot = 0, .err = EINVAL,
};

/* MBZ. */
FIXTURE_VARIANT_ADD(reject_binding, flags) {
	.which = 0, .slot = 0, .flags = 1, .err = EINVAL,
};

FIXTURE_VARIANT_ADD(reject_binding, pad) {
	.which = 0, .slot = 0, .pad = 1, .err = EINVAL,
};

TEST_F(reject_binding, rejected)
{
	struct drm_vatom_binding *b = &self->r.bind[variant->which];

	if (self->r.fd < 0)
		return;
	b->slot = variant->slot;
	switch (variant->handle) {
	case VT_BIND_SURFACE:
		b->handle = self->r.h;
		break;
	case VT_BIND_UNKNOWN:
		b->handle = self->r.h + 1000;
		break;
	case VT_BIND_ZERO:
		b->handle = 0;
		break;
	}
	b->flags = variant->flags;
	b->pad = variant->pad;
	self->r.nbind = variant->which + 1;
	vt_reject(_metadata, &self->r, NULL, variant->err, 0, VT_ANY_REASON);
}

/* --- bindings ------------------------------------------------------------ */

/* One surface on two slots is allowed (botching-up-ioctls #23: decided). */
TEST_F(reject, binding_handle_twice)
{
	struct drm_vatom_submit args;
	struct drm_vatom_visa *p;
	struct vt_visa v;

	if (self->fd < 0)
		return;
	self->bind[1].slot = 1;
	self->bind[1].handle = self->h;
	vt_good(&v);
	p = vt_add_visa(&self->s, &v);
	p->surface = 1;
	*(__u32 *)(self->map + 64) = 40;
	vt_submit_args(&args, &self->s, self->bind, 2, self->res, sizeof(self->res));
	ASSERT_EQ(0, vt_submit(self->fd, &args));
	EXPECT_EQ(40, self->res[4]);
	EXPECT_EQ(41, vt_rd32(self->map, 64));
}

TEST_F(reject, binding_count_too_big)
{
	static struct drm_vatom_binding many[DRM_VATOM_MAX_SLOTS + 1];
	struct drm_vatom_submit args;
	__u32 i;

	if (self->fd < 0)
		return;
	for (i = 0; i <= DRM_VATOM_MAX_SLOTS; i++) {
		many[i].slot = i % DRM_VATOM_MAX_SLOTS;
		many[i].handle = self->h;
	}
	vt_submit_args(&args, &self->s, many, DRM_VATOM_MAX_SLOTS + 1,
		       self->res, sizeof(self->res));
	VT_REJECT_ARGS(&args, E2BIG);
	/* All 256 slots bound at once is fine. */
	vt_submit_args(&args, &self->s, many, DRM_VATOM_MAX_SLOTS,
		       self->res, sizeof(self->res));
	EXPECT_EQ(0, vt_submit(self->fd, &args));
}

TEST_F(reject, bindings_bad_pointer)
{
	struct drm_vatom_submit args;
	void *ro;

	if (self->fd < 0)
		return;
	vt_submit_args(&args, &self->s, self->bind, 1, self->res, sizeof(self->res));
	args.bindings = 0;
	VT_REJECT_ARGS(&args, EFAULT);
	args.bindings = 0x10;
	VT_REJECT_ARGS(&args, EFAULT);
	/* An unmapped page. */
	ro = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ro);
	args.bindings = vt_u64_ptr(ro);
	VT_REJECT_ARGS(&args, EFAULT);
	munmap(ro, 4096);
}

/* --- the results region (table) ------------------------------------------- */

/* Where a row sends the results. */
enum vt_res_dest {
	VT_RES_USER,		/* the fixture's res[] */
	VT_RES_NULL,		/* a NULL pointer, no surface */
	VT_RES_USER_AND_BOUND,	/* res[] and the bound surface: two places */
	VT_RES_SURFACE,		/* a 4096-byte result surface */
	VT_RES_UNKNOWN,		/* a result handle this file never had */
};

/*
 * reject_results: the fixture's submission with its results sent to @dest,
 * @offset and @size; it must fail with @err and, unless 0 (NONE), say
 * @reason. Neither memory nor the result surface may change.
 */
VT_REJECT_TABLE(reject_results);

FIXTURE_VARIANT(reject_results) {
	enum vt_res_dest dest;
	__u64 offset, size;
	int err;
	__u32 reason;
};

/* Results go to user memory or to a surface, never both. */
FIXTURE_VARIANT_ADD(reject_results, two_destinations) {
	.dest = VT_RES_USER_AND_BOUND, .size = VT_RES_BYTES, .err = EINVAL,
};

/* @result_offset means nothing without a result surface: MBZ. */
FIXTURE_VARIANT_ADD(reject_results, offset_without_surface) {
	.dest = VT_RES_USER, .offset = 8, .size = VT_RES_BYTES, .err = EINVAL,
};

/* Packet 0 returns 16 bytes. */
FIXTURE_VARIANT_ADD(reject_results, user_8_bytes) {
	.dest = VT_RES_USER, .size = 8,
	.err = EINVAL, .reason = DRM_VATOM_ERR_RESULTS,
};

FIXTURE_VARIANT_ADD(reject_results, user_0_bytes) {
	.dest = VT_RES_USER, .size = 0,
	.err = EINVAL, .reason = DRM_VATOM_ERR_RESULTS,
};

FIXTURE_VARIANT_ADD(reject_results, none) {
	.dest = VT_RES_NULL, .size = 0,
	.err = EINVAL, .reason = DRM_VATOM_ERR_RESULTS,
};

FIXTURE_VARIANT_ADD(reject_results, surface_unknown) {
	.dest = VT_RES_UNKNOWN, .size = 16, .err = ENOENT,
};

/* Regions past the end of the surface. */
FIXTURE_VARIANT_ADD(reject_results, surface_past_end) {
	.dest = VT_RES_SURFACE, .offset = 4096 - 8, .size = 16, .err = EINVAL,
};

FIXTURE_VARIANT_ADD(reject_results, surface_at_end) {
	.dest = VT_RES_SURFACE, .offset = 4096, .size = 16, .err = EINVAL,
};

/* result_offset + results_size wraps around. */
FIXTURE_VARIANT_ADD(reject_results, surface_offset_wraps) {
	.dest = VT_RES_SURFACE, .offset = ~0ull - 7, .size = 16, .err = EINVAL,
};

FIXTURE_VARIANT_ADD(reject_results, surface_size_wraps) {
	.dest = VT_RES_SURFACE, .offset = 8, .size = ~0ull, .err = EINVAL,
};

FIXTURE_VARIANT_ADD(reject_results, surface_8_bytes) {
	.dest = VT_RES_SURFACE, .offset = 0, .size = 8,
	.err = EINVAL, .reason = DRM_VATOM_ERR_RESULTS,
};

/* result_offset must be 8-byte aligned (docs/uapi.md). */
FIXTURE_VARIANT_ADD(reject_results, surface_offset_unaligned) {
	.dest = VT_RES_SURFACE, .offset = 4, .size = 16, .err = EINVAL,
};

TEST_F(reject_results, rejected)
{
	bool user = variant->dest == VT_RES_USER ||
		    variant->dest == VT_RES_USER_AND_BOUND;
	struct drm_vatom_submit args;
	__u8 *rmap;
	__u32 r;

	if (self->r.fd < 0)
		return;
	VT_BUFFER(self->r.fd, 4096, r, rmap);
	memset(rmap, VT_POISON, 4096);

	vt_submit_args(&args, &self->r.s, self->r.bind, 1,
		       user ? self->r.res : NULL, variant->size);
	if (variant->dest == VT_RES_USER_AND_BOUND)
		args.result_handle = self->r.h;
	else if (variant->dest == VT_RES_SURFACE)
		args.result_handle = r;
	else if (variant->dest == VT_RES_UNKNOWN)
		args.result_handle = r + 1000;
	args.result_offset = variant->offset;
	/* The reason alone: a results error is not one packet's. */
	vt_reject(_metadata, &self->r, &args, variant->err, 0, VT_ANY_REASON);
	if (variant->reason != DRM_VATOM_ERR_NONE)
		EXPECT_EQ(variant->reason, args.error_reason);

	EXPECT_EQ(-1, vt_find_ne8(rmap, 0, 4096, VT_POISON))
		TH_LOG("a rejected submission wrote the result surface");
	munmap(rmap, 4096);
}

/* --- the submit struct ---------------------------------------------------- */

TEST_F(reject, submit_unknown_flags)
{
	struct drm_vatom_submit args;

	if (self->fd < 0)
		return;
	vt_submit_args(&args, &self->s, self->bind, 1, self->res, sizeof(self->res));
	args.flags = DRM_VATOM_SUBMIT_FLAGS + 1;	/* the first unknown bit */
	VT_REJECT_ARGS(&args, EINVAL);
	args.flags = 1u << 31;
	VT_REJECT_ARGS(&args, EINVAL);
}

TEST_F(reject, results_bad_pointer)
{
	struct drm_vatom_submit args;
	void *ro;

	if (self->fd < 0)
		return;
	vt_submit_args(&args, &self->s, self->bind, 1, NULL, 16);
	EXPECT_EQ(-1, vt_submit(self->fd, &args));
	EXPECT_EQ(EFAULT, errno);

	ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ro);
	vt_submit_args(&args, &self->s, self->bind, 1, ro, 16);
	EXPECT_EQ(-1, vt_submit(self->fd, &args));
	EXPECT_EQ(EFAULT, errno);
	munmap(ro, 4096);
}

TEST_F(reject, stream_bad_pointer)
{
	struct drm_vatom_submit args;
	void *none;

	if (self->fd < 0)
		return;
	vt_submit_args(&args, &self->s, self->bind, 1, self->res, sizeof(self->res));
	args.stream = 0;
	VT_REJECT_ARGS(&args, EFAULT);
	args.stream = 0x1000;
	VT_REJECT_ARGS(&args, EFAULT);
	none = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, none);
	/* The stream's second half lies in a page that is gone. */
	munmap((char *)none + 4096, 4096);
	memcpy((char *)none + 4096 - 24, self->s.buf, 24);
	args.stream = vt_u64_ptr((char *)none + 4096 - 24);
	VT_REJECT_ARGS(&args, EFAULT);
	munmap(none, 4096);
}

TEST_F(reject, stream_size_unaligned)
{
	struct drm_vatom_submit args;

	if (self->fd < 0)
		return;
	vt_submit_args(&args, &self->s, self->bind, 1, self->res, sizeof(self->res));
	args.stream_size -= 4;
	VT_REJECT_ARGS(&args, EINVAL);
	args.stream_size = 4;
	VT_REJECT_ARGS(&args, EINVAL);
}

/* A stream of exactly MAX_STREAM_SIZE runs; one more packet is -E2BIG. */
TEST_F_TIMEOUT(reject, stream_size_limit, 120)
{
	struct drm_vatom_submit args;
	__u64 max;
	__u8 *big;
	__u32 n;

	if (self->fd < 0)
		return;
	ASSERT_EQ(0, vt_get_param(self->fd, DRM_VATOM_PARAM_MAX_STREAM_SIZE, 0, &max));
	big = malloc(max + 8);
	ASSERT_NE(NULL, big);
	vt_fill_incs(big, max + 8);

	memset(&args, 0, sizeof(args));
	args.stream = vt_u64_ptr(big);
	args.stream_size = max + 8;
	args.bindings = vt_u64_ptr(self->bind);
	args.binding_count = 1;
	VT_REJECT_ARGS(&args, E2BIG);
	args.stream_size = 0xfffffff8;
	VT_REJECT_ARGS(&args, E2BIG);

	/* Whole packets up to exactly max. */
	n = vt_fill_incs(big, max);
	*(__u32 *)self->map = 0;
	args.stream_size = max;
	ASSERT_EQ(0, vt_submit(self->fd, &args)) TH_LOG("errno %d reason %u index %u",
							errno, args.error_reason,
							args.error_index);
	EXPECT_EQ(n, *(__u32 *)self->map);
	EXPECT_EQ(0, args.results_needed);
	free(big);
}
