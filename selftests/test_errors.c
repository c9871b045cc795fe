// SPDX-License-Identifier: GPL-2.0
/*
 * Every input-validation failure of SUBMIT, each hit alone with otherwise
 * valid input, with its exact errno and, for stream errors, the index of
 * the bad packet and the DRM_VATOM_ERR_* reason. Every rejected submission
 * is also checked to have changed no memory: the stream starts with a valid
 * packet that would have changed the surface, and the result buffer is
 * poisoned.
 *
 * Part of vatom_test.c's translation unit (see there); not built alone.
 *
 * Copyright (C) 2026 The vatom developers
 */

#define VT_ANY_REASON	0xffffffffu

FIXTURE(reject) {
	int fd;
	__u32 h;		/* bound at slot 0 */
	__u8 *map;
	__u64 caps;
	struct vt_stream s;	/* packet 0 is valid */
	__u32 p0;		/* bytes of packet 0 */
	struct drm_vatom_binding bind[2];
	__u32 nbind;
	__u32 res[64];
};

/* Packet 0: ADD 1..4 to words 0..3, returning the old values. */
static const __u32 vt_ok_addr[4] = { 0, 4, 8, 12 };
static const __u32 vt_ok_src[4] = { 1, 2, 3, 4 };

FIXTURE_SETUP(reject)
{
	struct vt_visa v;
	__u32 i;

	self->fd = vt_open();
	if (self->fd == -ENODEV)
		SKIP(return, "no vatom device");
	ASSERT_LE(0, self->fd);
	self->caps = vt_caps(self->fd);
	VT_BUFFER(self->fd, 4096, self->h, self->map);
	for (i = 0; i < 4096; i++)
		self->map[i] = (__u8)(i * 13 + 5);

	vt_stream_init(&self->s);
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_4,
		 DRM_VATOM_VISA_TYPE_UD, vt_ok_addr, vt_ok_src, NULL, true);
	vt_add_visa(&self->s, &v);
	self->p0 = self->s.size;

	memset(self->bind, 0, sizeof(self->bind));
	self->bind[0].slot = 0;
	self->bind[0].handle = self->h;
	self->nbind = 1;
}

FIXTURE_TEARDOWN(reject)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* A valid packet for slot 0 to start from: ADD exec 1 with Dst at byte 64. */
static void vt_good(struct vt_visa *v)
{
	static const __u32 addr[1] = { 64 }, src[1] = { 1 };

	vt_dword(v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_1,
		 DRM_VATOM_VISA_TYPE_UD, addr, src, NULL, true);
}

/*
 * Submit @args (built from the fixture when NULL) and expect failure with
 * @err and, unless VT_ANY_REASON, @reason for packet @index; then check
 * that the surface and the results are exactly as before.
 */
static void vt_reject(struct __test_metadata *_metadata,
		      FIXTURE_DATA(reject) *self, struct drm_vatom_submit *args,
		      int err, __u32 index, __u32 reason)
{
	struct drm_vatom_submit local;
	static __u8 before[4096];
	int ret, e;

	if (!args) {
		vt_submit_args(&local, &self->s, self->bind, self->nbind,
			       self->res, sizeof(self->res));
		args = &local;
	}
	memcpy(before, self->map, 4096);
	memset(self->res, VT_POISON, sizeof(self->res));

	ret = vt_submit(self->fd, args);
	e = errno;
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(err, e) TH_LOG("errno %d (%s), reason %u, index %u", e,
				 strerror(e), args->error_reason, args->error_index);
	if (reason != VT_ANY_REASON) {
		EXPECT_EQ(reason, args->error_reason);
		EXPECT_EQ(index, args->error_index);
	}
	EXPECT_EQ(0, memcmp(before, self->map, 4096))
		TH_LOG("a rejected submission changed the surface");
	EXPECT_EQ(-1, vt_find_ne32(self->res, 0, VT_ARRAY_SIZE(self->res), VT_POISON32))
		TH_LOG("a rejected submission wrote the results");
}

/* Cut the stream back to its valid packet 0. */
#define VT_RESET() do {							\
	self->s.size = self->p0;					\
	self->s.count = 1;						\
	self->s.results = 16;						\
} while (0)

#define VT_REJECT(err, index, reason) \
	vt_reject(_metadata, self, NULL, (err), (index), (reason))
#define VT_REJECT_ARGS(args, err) \
	vt_reject(_metadata, self, (args), (err), 0, VT_ANY_REASON)

/* The fixture's stream is accepted as it is (the baseline of every test). */
TEST_F(reject, baseline_accepted)
{
	struct drm_vatom_submit args;

	if (self->fd < 0)
		return;
	vt_submit_args(&args, &self->s, self->bind, 1, self->res, sizeof(self->res));
	memset(self->res, VT_POISON, sizeof(self->res));
	ASSERT_EQ(0, vt_submit(self->fd, &args));
	EXPECT_EQ(16, args.results_needed);
	EXPECT_EQ(DRM_VATOM_ERR_NONE, args.error_reason);
	EXPECT_EQ(0x2c1f1205, self->res[0]);	/* bytes 5, 18, 31, 44 */
	EXPECT_EQ(0x2c1f1206, vt_rd32(self->map, 0));
}

/* --- packet headers ----------------------------------------------------- */

TEST_F(reject, packet_type_unknown)
{
	const __u32 types[] = { 0, DRM_VATOM_PACKET_NOC + 1, 0x100, 0xffffffff };
	struct drm_vatom_visa *p;
	struct vt_visa v;
	size_t i;

	if (self->fd < 0)
		return;
	vt_good(&v);
	p = vt_add_visa(&self->s, &v);
	for (i = 0; i < VT_ARRAY_SIZE(types); i++) {
		p->hdr.type = types[i];
		VT_REJECT(EINVAL, 1, DRM_VATOM_ERR_PACKET_TYPE);
	}
}

/* A zero size would make a naive walker loop for ever. */
TEST_F(reject, packet_size_zero)
{
	struct drm_vatom_visa *p;
	struct vt_visa v;

	if (self->fd < 0)
		return;
	vt_good(&v);
	p = vt_add_visa(&self->s, &v);
	p->hdr.size = 0;
	VT_REJECT(EINVAL, 1, DRM_VATOM_ERR_PACKET_SIZE);
}

TEST_F(reject, packet_size_unaligned)
{
	struct drm_vatom_visa *p;
	struct vt_visa v;

	if (self->fd < 0)
		return;
	vt_good(&v);
	p = vt_add_visa(&self->s, &v);
	p->hdr.size -= 4;
	VT_REJECT(EINVAL, 1, DRM_VATOM_ERR_PACKET_SIZE);
}

TEST_F(reject, packet_size_past_stream)
{
	struct drm_vatom_visa *p;
	struct vt_visa v;

	if (self->fd < 0)
		return;
	vt_good(&v);
	p = vt_add_visa(&self->s, &v);
	p->hdr.size += 8;
	VT_REJECT(EINVAL, 1, DRM_VATOM_ERR_PACKET_SIZE);
	p->hdr.size = 0xfffffff8;
	VT_REJECT(EINVAL, 1, DRM_VATOM_ERR_PACKET_SIZE);
}

/* The stream ends inside packet 1 (on a multiple of 8). */
TEST_F(reject, packet_truncated)
{
	struct vt_visa v;

	if (self->fd < 0)
		return;
	vt_good(&v);
	vt_add_visa(&self->s, &v);
	self->s.size -= 8;
	VT_REJECT(EINVAL, 1, DRM_VATOM_ERR_PACKET_SIZE);
	/* Only the fixed part left, then only the 8-byte header. */
	self->s.size = self->p0 + sizeof(struct drm_vatom_visa);
	VT_REJECT(EINVAL, 1, DRM_VATOM_ERR_PACKET_SIZE);
	self->s.size = self->p0 + 8;
	VT_REJECT(EINVAL, 1, DRM_VATOM_ERR_PACKET_SIZE);
}

/* The size must be exactly what the operands need: not less, not more. */
TEST_F(reject, packet_size_wrong_for_operands)
{
	struct drm_vatom_visa *p;
	struct vt_visa v;

	if (self->fd < 0)
		return;
	vt_good(&v);
	p = vt_add_visa(&self->s, &v);
	/* 8 bytes of zeros appended and counted in the packet. */
	memset((char *)self->s.buf + self->s.size, 0, 8);
	self->s.size += 8;
	p->hdr.size += 8;
	VT_REJECT(EINVAL, 1, DRM_VATOM_ERR_PACKET_SIZE);

	/* Src0 left out of the size (the stream still ends at the packet). */
	p->hdr.size -= 16;
	self->s.size -= 16;
	VT_REJECT(EINVAL, 1, DRM_VATOM_ERR_PACKET_SIZE);

	/* Shorter than the fixed part. */
	p->hdr.size = 8;
	self->s.size = self->p0 + 8;
	VT_REJECT(EINVAL, 1, DRM_VATOM_ERR_PACKET_SIZE);
}

/* The index names the first bad packet wherever it is. */
TEST_F(reject, error_index)
{
	struct drm_vatom_visa *p;
	struct vt_visa v;
	__u32 i;

	if (self->fd < 0)
		return;
	vt_good(&v);
	for (i = 0; i < 5; i++)
		vt_add_visa(&self->s, &v);
	p = vt_add_visa(&self->s, &v);		/* packet 6 */
	p->op = 0x0e;
	vt_add_visa(&self->s, &v);
	p = vt_add_visa(&self->s, &v);		/* packet 8, also bad */
	p->opcode = 0;
	VT_REJECT(EINVAL, 6, DRM_VATOM_ERR_OP);

	/* The first packet of the stream. */
	vt_stream_init(&self->s);
	p = vt_add_visa(&self->s, &v);
	p->pad[1] = 1;
	vt_add_visa(&self->s, &v);
	VT_REJECT(EINVAL, 0, DRM_VATOM_ERR_RESERVED);
}

/* --- reserved fields ---------------------------------------------------- */

TEST_F(reject, visa_pad)
{
	struct drm_vatom_visa *p;
	struct vt_visa v;
	int i;

	if (self->fd < 0)
		return;
	vt_good(&v);
	p = vt_add_visa(&self->s, &v);
	for (i = 0; i < 3; i++) {
		memset(p->pad, 0, sizeof(p->pad));
		p->pad[i] = 0x80;
		VT_REJECT(EINVAL, 1, DRM_VATOM_ERR_RESERVED);
	}
}

TEST_F(reject, visa_flags)
{
	struct drm_vatom_visa *p;
	struct vt_visa v;

	if (self->fd < 0)
		return;
	vt_good(&v);
	p = vt_add_visa(&self->s, &v);
	p->flags = 1u << 1;
	VT_REJECT(EINVAL, 1, DRM_VATOM_ERR_RESERVED);
	p->flags = 1u << 31;
	VT_REJECT(EINVAL, 1, DRM_VATOM_ERR_RESERVED);
}

/* @pred is MBZ unless the packet is predicated. */
TEST_F(reject, visa_pred_without_flag)
{
	struct vt_visa v;

	if (self->fd < 0)
		return;
	vt_good(&v);
	v.pred = 1;
	vt_add_visa(&self->s, &v);
	VT_REJECT(EINVAL, 1, DRM_VATOM_ERR_RESERVED);
}

TEST_F(reject, visa_operands_unknown_bit)
{
	struct drm_vatom_visa *p;
	struct vt_visa v;

	if (self->fd < 0)
		return;
	vt_good(&v);
	p = vt_add_visa(&self->s, &v);
	p->operands |= 1u << 9;
	VT_REJECT(EINVAL, 1, DRM_VATOM_ERR_RESERVED);
	p->operands ^= (1u << 9) | (1u << 31);
	VT_REJECT(EINVAL, 1, DRM_VATOM_ERR_RESERVED);
}

/* Operand arrays are zero padded to 8 bytes; the padding is checked. */
TEST_F(reject, visa_operand_padding)
{
	struct drm_vatom_visa *p;
	struct vt_visa v;
	__u8 *pad;

	if (self->fd < 0)
		return;
	vt_good(&v);				/* exec 1: 4 bytes + 4 padding */
	p = vt_add_visa(&self->s, &v);
	pad = (__u8 *)p + sizeof(*p) + 4;	/* after Element_offset */
	pad[3] = 1;
	VT_REJECT(EINVAL, 1, DRM_VATOM_ERR_RESERVED);
	pad[3] = 0;
	pad[8 + 0] = 1;				/* after Src0 */
	VT_REJECT(EINVAL, 1, DRM_VATOM_ERR_RESERVED);
}

/* --- encodings ---------------------------------------------------------- */

TEST_F(reject, visa_opcode_unknown)
{
	const __u8 opcodes[] = { 0x00, 0x7c, 0x7e, 0x48, 0xff };
	struct drm_vatom_visa *p;
	struct vt_visa v;
	size_t i;

	if (self->fd < 0)
		return;
	vt_good(&v);
	p = vt_add_visa(&self->s, &v);
	for (i = 0; i < VT_ARRAY_SIZE(opcodes); i++) {
		p->opcode = opcodes[i];
		VT_REJECT(EINVAL, 1, DRM_VATOM_ERR_OPCODE);
	}
}

/* Op codes the DWORD_ATOMIC_OP table leaves out, and bits 7..6. */
TEST_F(reject, visa_op_reserved)
{
	const __u8 ops[] = { 0x0e, 0x0f, 0x13, 0x14, 0x1f, 0x0e | 0x20,
			     0x40, 0x80, 0xc0 };
	struct drm_vatom_visa *p;
	struct vt_visa v;
	size_t i;

	if (self->fd < 0)
		return;
	vt_good(&v);
	p = vt_add_visa(&self->s, &v);
	for (i = 0; i < VT_ARRAY_SIZE(ops); i++) {
		p->op = ops[i];
		VT_REJECT(EINVAL, 1, DRM_VATOM_ERR_OP);
	}
}

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

/* Size codes 5 (ADDC only), 6 and 7; bit 3 is not part of any field. */
TEST_F(reject, visa_exec_size_reserved)
{
	const __u8 sizes[] = { DRM_VATOM_VISA_EXEC_32, 6, 7 };
	static const __u32 zero[128];
	struct vt_visa v;
	size_t i;

	if (self->fd < 0)
		return;
	for (i = 0; i < VT_ARRAY_SIZE(sizes); i++) {
		VT_RESET();
		/* Operand arrays as long as the size code says. */
		vt_dword(&v, DRM_VATOM_VISA_OP_ADD, sizes[i],
			 DRM_VATOM_VISA_TYPE_UD, zero, zero, NULL, true);
		vt_add_visa(&self->s, &v);
		VT_REJECT(EINVAL, 1, DRM_VATOM_ERR_EXEC_SIZE);
	}
}

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

/* The mask window 4 * (M - 1) .. + exec size must fit in 32 channels. */
TEST_F(reject, visa_mask_window_past_32)
{
	static const struct { __u8 code, m; } bad[] = {
		{ DRM_VATOM_VISA_EXEC_8, 7 },		/* M8: 28 + 8 */
		{ DRM_VATOM_VISA_EXEC_16, 5 },		/* M6: 20 + 16 */
		{ DRM_VATOM_VISA_EXEC_16, 7 },
		{ DRM_VATOM_VISA_EXEC_8, 7 | DRM_VATOM_VISA_EXEC_NM },
	};
	__u32 addr[16] = { 0 }, src[16] = { 0 };
	struct vt_visa v;
	size_t i;

	if (self->fd < 0)
		return;
	for (i = 0; i < VT_ARRAY_SIZE(bad); i++) {
		VT_RESET();
		vt_dword(&v, DRM_VATOM_VISA_OP_ADD, vt_exec(bad[i].code, bad[i].m),
			 DRM_VATOM_VISA_TYPE_UD, addr, src, NULL, true);
		vt_add_visa(&self->s, &v);
		VT_REJECT(EINVAL, 1, DRM_VATOM_ERR_EXEC_SIZE);
	}
}

/* Notes: IMIN/IMAX take D, the other integer ops UD; no type past Q. */
TEST_F(reject, visa_type)
{
	static const struct { __u8 op, type; } bad[] = {
		{ DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_TYPE_D },
		{ DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_TYPE_F },
		{ DRM_VATOM_VISA_OP_XOR, DRM_VATOM_VISA_TYPE_D },
		{ DRM_VATOM_VISA_OP_MIN, DRM_VATOM_VISA_TYPE_D },
		{ DRM_VATOM_VISA_OP_IMIN, DRM_VATOM_VISA_TYPE_UD },
		{ DRM_VATOM_VISA_OP_IMAX, DRM_VATOM_VISA_TYPE_UD },
		{ DRM_VATOM_VISA_OP_IMAX, DRM_VATOM_VISA_TYPE_F },
		{ DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_TYPE_Q + 1 },
		{ DRM_VATOM_VISA_OP_ADD, 0xff },
	};
	struct drm_vatom_visa *p;
	struct vt_visa v;
	size_t i;

	if (self->fd < 0)
		return;
	vt_good(&v);
	p = vt_add_visa(&self->s, &v);
	for (i = 0; i < VT_ARRAY_SIZE(bad); i++) {
		p->op = bad[i].op;
		p->type = bad[i].type;
		VT_REJECT(EINVAL, 1, DRM_VATOM_ERR_TYPE);
	}
}

/*
 * Src0 must be V0 for INC/DEC (and PREDEC); Src1 must be V0 except for
 * CMPXCHG; the operands an op uses must be there.
 */
TEST_F(reject, visa_operands)
{
	static const struct { __u8 op, type; __u32 operands; } bad[] = {
		{ DRM_VATOM_VISA_OP_INC, DRM_VATOM_VISA_TYPE_UD,
		  DRM_VATOM_VISA_OPND_ADDR | DRM_VATOM_VISA_OPND_SRC0 },
		{ DRM_VATOM_VISA_OP_DEC, DRM_VATOM_VISA_TYPE_UD,
		  DRM_VATOM_VISA_OPND_ADDR | DRM_VATOM_VISA_OPND_SRC0 },
		{ DRM_VATOM_VISA_OP_PREDEC, DRM_VATOM_VISA_TYPE_D,
		  DRM_VATOM_VISA_OPND_ADDR | DRM_VATOM_VISA_OPND_SRC0 },
		{ DRM_VATOM_VISA_OP_INC, DRM_VATOM_VISA_TYPE_UD,
		  DRM_VATOM_VISA_OPND_ADDR | DRM_VATOM_VISA_OPND_SRC1 },
		{ DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_TYPE_UD,
		  DRM_VATOM_VISA_OPND_ADDR },
		{ DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_TYPE_UD,
		  DRM_VATOM_VISA_OPND_ADDR | DRM_VATOM_VISA_OPND_SRC0 |
		  DRM_VATOM_VISA_OPND_SRC1 },
		{ DRM_VATOM_VISA_OP_CMPXCHG, DRM_VATOM_VISA_TYPE_UD,
		  DRM_VATOM_VISA_OPND_ADDR | DRM_VATOM_VISA_OPND_SRC0 },
		{ DRM_VATOM_VISA_OP_CMPXCHG, DRM_VATOM_VISA_TYPE_UD,
		  DRM_VATOM_VISA_OPND_ADDR | DRM_VATOM_VISA_OPND_SRC1 },
		{ DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_TYPE_UD,
		  DRM_VATOM_VISA_OPND_SRC0 },			/* no Element_offset */
		{ DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_TYPE_UD,
		  DRM_VATOM_VISA_OPND_ADDR | DRM_VATOM_VISA_OPND_V |
		  DRM_VATOM_VISA_OPND_SRC0 },			/* TYPED's V */
		{ DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_TYPE_UD,
		  DRM_VATOM_VISA_OPND_ADDR | DRM_VATOM_VISA_OPND_LOD |
		  DRM_VATOM_VISA_OPND_SRC0 },
		{ DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_TYPE_UD,
		  DRM_VATOM_VISA_OPND_ADDR | DRM_VATOM_VISA_OPND_SRC0_IMM },
	};
	const __u32 addr[1] = { 0 }, src[1] = { 1 };
	struct vt_visa v;
	size_t i;

	if (self->fd < 0)
		return;
	for (i = 0; i < VT_ARRAY_SIZE(bad); i++) {
		VT_RESET();
		vt_dword(&v, bad[i].op, DRM_VATOM_VISA_EXEC_1, bad[i].type, addr,
			 src, src, true);
		v.operands = bad[i].operands | DRM_VATOM_VISA_OPND_DST;
		vt_add_visa(&self->s, &v);
		VT_REJECT(EINVAL, 1, DRM_VATOM_ERR_OPERANDS);
	}
}

TEST_F(reject, visa_slot_unbound)
{
	const __u8 slots[] = { 1, 5, 255 };
	struct drm_vatom_visa *p;
	struct vt_visa v;
	size_t i;

	if (self->fd < 0)
		return;
	vt_good(&v);
	p = vt_add_visa(&self->s, &v);
	for (i = 0; i < VT_ARRAY_SIZE(slots); i++) {
		p->surface = slots[i];
		VT_REJECT(EINVAL, 1, DRM_VATOM_ERR_SLOT);
	}
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

/* --- bindings ------------------------------------------------------------ */

TEST_F(reject, binding_unknown_handle)
{
	if (self->fd < 0)
		return;
	self->bind[0].handle = self->h + 1000;
	VT_REJECT(ENOENT, 0, VT_ANY_REASON);
	self->bind[0].handle = 0;
	VT_REJECT(ENOENT, 0, VT_ANY_REASON);
}

/* Binding an unknown handle fails even on a slot no packet uses. */
TEST_F(reject, binding_unknown_handle_unused_slot)
{
	if (self->fd < 0)
		return;
	self->bind[1].slot = 9;
	self->bind[1].handle = self->h + 1000;
	self->nbind = 2;
	VT_REJECT(ENOENT, 0, VT_ANY_REASON);
}

TEST_F(reject, binding_slot_out_of_range)
{
	if (self->fd < 0)
		return;
	self->bind[1].slot = DRM_VATOM_MAX_SLOTS;
	self->bind[1].handle = self->h;
	self->nbind = 2;
	VT_REJECT(EINVAL, 0, VT_ANY_REASON);
	self->bind[1].slot = 0xffffffff;
	VT_REJECT(EINVAL, 0, VT_ANY_REASON);
}

TEST_F(reject, binding_slot_twice)
{
	if (self->fd < 0)
		return;
	self->bind[1].slot = 0;
	self->bind[1].handle = self->h;
	self->nbind = 2;
	VT_REJECT(EINVAL, 0, VT_ANY_REASON);
}

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

TEST_F(reject, binding_flags_pad)
{
	if (self->fd < 0)
		return;
	self->bind[0].flags = 1;
	VT_REJECT(EINVAL, 0, VT_ANY_REASON);
	self->bind[0].flags = 0;
	self->bind[0].pad = 1;
	VT_REJECT(EINVAL, 0, VT_ANY_REASON);
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

/* Results go to user memory or to a surface, never both. */
TEST_F(reject, results_two_destinations)
{
	struct drm_vatom_submit args;

	if (self->fd < 0)
		return;
	vt_submit_args(&args, &self->s, self->bind, 1, self->res, sizeof(self->res));
	args.result_handle = self->h;
	VT_REJECT_ARGS(&args, EINVAL);
}

/* @result_offset means nothing without a result surface: MBZ. */
TEST_F(reject, results_offset_without_surface)
{
	struct drm_vatom_submit args;

	if (self->fd < 0)
		return;
	vt_submit_args(&args, &self->s, self->bind, 1, self->res, sizeof(self->res));
	args.result_offset = 8;
	VT_REJECT_ARGS(&args, EINVAL);
}

TEST_F(reject, results_too_small)
{
	struct drm_vatom_submit args;

	if (self->fd < 0)
		return;
	vt_submit_args(&args, &self->s, self->bind, 1, self->res, 8);
	vt_reject(_metadata, self, &args, EINVAL, 0, VT_ANY_REASON);
	EXPECT_EQ(DRM_VATOM_ERR_RESULTS, args.error_reason);
	vt_submit_args(&args, &self->s, self->bind, 1, self->res, 0);
	vt_reject(_metadata, self, &args, EINVAL, 0, VT_ANY_REASON);
	EXPECT_EQ(DRM_VATOM_ERR_RESULTS, args.error_reason);
	vt_submit_args(&args, &self->s, self->bind, 1, NULL, 0);
	vt_reject(_metadata, self, &args, EINVAL, 0, VT_ANY_REASON);
	EXPECT_EQ(DRM_VATOM_ERR_RESULTS, args.error_reason);
}

TEST_F(reject, results_surface_errors)
{
	struct drm_vatom_submit args;
	__u32 r;
	__u8 *rmap;

	if (self->fd < 0)
		return;
	VT_BUFFER(self->fd, 4096, r, rmap);
	memset(rmap, VT_POISON, 4096);

	/* Unknown result surface. */
	vt_submit_args(&args, &self->s, self->bind, 1, NULL, 16);
	args.result_handle = r + 1000;
	VT_REJECT_ARGS(&args, ENOENT);

	/* Region past the end of the surface. */
	args.result_handle = r;
	args.result_offset = 4096 - 8;
	VT_REJECT_ARGS(&args, EINVAL);
	args.result_offset = 4096;
	args.results_size = 16;
	VT_REJECT_ARGS(&args, EINVAL);

	/* result_offset + results_size wraps around. */
	args.result_offset = ~0ull - 7;
	args.results_size = 16;
	VT_REJECT_ARGS(&args, EINVAL);
	args.result_offset = 8;
	args.results_size = ~0ull;
	VT_REJECT_ARGS(&args, EINVAL);

	/* Region too small for the 16 bytes of packet 0. */
	args.result_offset = 0;
	args.results_size = 8;
	vt_reject(_metadata, self, &args, EINVAL, 0, VT_ANY_REASON);
	EXPECT_EQ(DRM_VATOM_ERR_RESULTS, args.error_reason);

	/* result_offset must be 8-byte aligned (docs/uapi.md). */
	args.result_offset = 4;
	args.results_size = 16;
	VT_REJECT_ARGS(&args, EINVAL);

	EXPECT_EQ(-1, vt_find_ne8(rmap, 0, 4096, VT_POISON))
		TH_LOG("a rejected submission wrote the result surface");
	munmap(rmap, 4096);
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
