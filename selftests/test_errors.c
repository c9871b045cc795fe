// SPDX-License-Identifier: GPL-2.0
/*
 * Every input-validation failure of SUBMIT, each hit alone with otherwise
 * valid input, with its exact errno and, for stream errors, the index of
 * the bad packet and the DRM_VATOM_ERR_* reason. Every rejected submission
 * is also checked to have changed no memory: the stream starts with a valid
 * packet that would have changed the surface, and the result buffer is
 * poisoned.
 *
 * Failures that differ only in data are FIXTURE_VARIANT tables, one per
 * family (a field of packet 1, packet 1's encoding, a binding, the results
 * region), each row a named test case; the tests of the reject fixture are
 * the ones that take more than one step.
 *
 * Part of vatom_test.c's translation unit (see there); not built alone.
 *
 * Copyright (C) 2026 The vatom developers
 */

#define VT_ANY_REASON	0xffffffffu

/* Bytes of the fixture's user-memory result buffer. */
#define VT_RES_BYTES	256

FIXTURE(reject) {
	int fd;
	__u32 h;		/* bound at slot 0 */
	__u8 *map;
	__u64 caps;
	struct vt_stream s;	/* packet 0 is valid */
	__u32 p0;		/* bytes of packet 0 */
	struct drm_vatom_binding bind[2];
	__u32 nbind;
	__u32 res[VT_RES_BYTES / 4];
};

/* Packet 0: ADD 1..4 to words 0..3, returning the old values. */
static const __u32 vt_ok_addr[4] = { 0, 4, 8, 12 };
static const __u32 vt_ok_src[4] = { 1, 2, 3, 4 };

/* Shared with the table fixtures below, which embed reject's data. */
static void vt_reject_setup(struct __test_metadata *_metadata,
			    FIXTURE_DATA(reject) *self)
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

static void vt_reject_teardown(FIXTURE_DATA(reject) *self)
{
	if (self->fd >= 0)
		close(self->fd);
}

FIXTURE_SETUP(reject)
{
	vt_reject_setup(_metadata, self);
}

FIXTURE_TEARDOWN(reject)
{
	vt_reject_teardown(self);
}

/*
 * A fixture for one table of rows: reject's data (as self->r), setup and
 * teardown, and room for FIXTURE_VARIANT(name). The rows cannot be variants
 * of reject itself, since a variant re-runs every TEST_F of its fixture.
 * The test body still checks self->r.fd: the 6.1 harness runs it after a
 * SKIP() in the setup.
 */
#define VT_REJECT_TABLE(name)						\
	FIXTURE(name) {							\
		FIXTURE_DATA(reject) r;					\
	};								\
	FIXTURE_SETUP(name)						\
	{								\
		vt_reject_setup(_metadata, &self->r);			\
	}								\
	FIXTURE_TEARDOWN(name)						\
	{								\
		vt_reject_teardown(&self->r);				\
	}

/* A valid packet for slot 0 to start from: ADD exec 1 with Dst at byte 64. */
static void vt_good(struct vt_visa *v)
{
	static const __u32 addr[1] = { 64 }, src[1] = { 1 };

	vt_dword(v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_1,
		 DRM_VATOM_VISA_TYPE_UD, addr, src, NULL, true);
}

/*
 * vt_good()'s packet as encoded, counted by hand: the 32 bytes of struct
 * drm_vatom_visa, then Element_offset and Src0, 4 bytes each, each padded
 * to 8; Dst is returned, not sent.
 */
#define VT_GOOD_SIZE		48
#define VT_GOOD_OPERANDS	(DRM_VATOM_VISA_OPND_ADDR |		\
				 DRM_VATOM_VISA_OPND_SRC0 |		\
				 DRM_VATOM_VISA_OPND_DST)

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

/* --- one field of packet 1 (table) ---------------------------------------- */

/* A field of struct drm_vatom_visa and the value a row writes there. */
struct vt_field {
	__u8 off;
	__u8 size;		/* 1 or 4; 0: no field */
	__u32 value;
};

#define VT_FIELD(f, v)							\
	{ offsetof(struct drm_vatom_visa, f),				\
	  sizeof(((struct drm_vatom_visa *)0)->f), (v) }

static void vt_set_field(struct drm_vatom_visa *p, const struct vt_field *f)
{
	__u8 *at = (__u8 *)p + f->off;
	__u8 byte = f->value;

	if (f->size == 1)
		*at = byte;
	else if (f->size == 4)
		memcpy(at, &f->value, 4);
}

/*
 * reject_field: packet 1 is vt_good()'s with one field (two for a type
 * that does not suit the op) overwritten; it must fail with -EINVAL at
 * index 1 for @reason.
 */
VT_REJECT_TABLE(reject_field);

FIXTURE_VARIANT(reject_field) {
	struct vt_field set[2];
	__u32 reason;
};

/* Row @name sets field @f of packet 1 to @v (and @f2 to @v2); reason @r. */
#define VT_FIELD_ROW(name, f, v, r)					\
	FIXTURE_VARIANT_ADD(reject_field, name) {			\
		.set = { VT_FIELD(f, v) }, .reason = (r),		\
	}
#define VT_FIELD_ROW2(name, f, v, f2, v2, r)				\
	FIXTURE_VARIANT_ADD(reject_field, name) {			\
		.set = { VT_FIELD(f, v), VT_FIELD(f2, v2) },		\
		.reason = (r),						\
	}

/* hdr.type: no DRM_VATOM_PACKET_*. */
VT_FIELD_ROW(type_0, hdr.type, 0, DRM_VATOM_ERR_PACKET_TYPE);
VT_FIELD_ROW(type_after_noc, hdr.type, DRM_VATOM_PACKET_NOC + 1,
	     DRM_VATOM_ERR_PACKET_TYPE);
VT_FIELD_ROW(type_0x100, hdr.type, 0x100, DRM_VATOM_ERR_PACKET_TYPE);
VT_FIELD_ROW(type_all_ones, hdr.type, 0xffffffff, DRM_VATOM_ERR_PACKET_TYPE);

/*
 * hdr.size: zero (a naive walker would loop for ever), not a multiple of 8,
 * past the end of the stream (which ends with packet 1).
 */
VT_FIELD_ROW(size_0, hdr.size, 0, DRM_VATOM_ERR_PACKET_SIZE);
VT_FIELD_ROW(size_unaligned, hdr.size, VT_GOOD_SIZE - 4,
	     DRM_VATOM_ERR_PACKET_SIZE);
VT_FIELD_ROW(size_past_stream, hdr.size, VT_GOOD_SIZE + 8,
	     DRM_VATOM_ERR_PACKET_SIZE);
VT_FIELD_ROW(size_0xfffffff8, hdr.size, 0xfffffff8, DRM_VATOM_ERR_PACKET_SIZE);

/* MBZ: @pad, unknown @flags, @pred without PREDICATED, unknown operands. */
VT_FIELD_ROW(pad_0, pad[0], 0x80, DRM_VATOM_ERR_RESERVED);
VT_FIELD_ROW(pad_1, pad[1], 0x80, DRM_VATOM_ERR_RESERVED);
VT_FIELD_ROW(pad_2, pad[2], 0x80, DRM_VATOM_ERR_RESERVED);
VT_FIELD_ROW(flags_bit1, flags, 1u << 1, DRM_VATOM_ERR_RESERVED);
VT_FIELD_ROW(flags_bit31, flags, 1u << 31, DRM_VATOM_ERR_RESERVED);
VT_FIELD_ROW(pred_without_flag, pred, 1, DRM_VATOM_ERR_RESERVED);
VT_FIELD_ROW(operands_bit9, operands, VT_GOOD_OPERANDS | 1u << 9,
	     DRM_VATOM_ERR_RESERVED);
VT_FIELD_ROW(operands_bit31, operands, VT_GOOD_OPERANDS | 1u << 31,
	     DRM_VATOM_ERR_RESERVED);

/* @opcode: no vISA instruction. */
VT_FIELD_ROW(opcode_0x00, opcode, 0x00, DRM_VATOM_ERR_OPCODE);
VT_FIELD_ROW(opcode_0x7c, opcode, 0x7c, DRM_VATOM_ERR_OPCODE);
VT_FIELD_ROW(opcode_0x7e, opcode, 0x7e, DRM_VATOM_ERR_OPCODE);
VT_FIELD_ROW(opcode_0x48, opcode, 0x48, DRM_VATOM_ERR_OPCODE);
VT_FIELD_ROW(opcode_0xff, opcode, 0xff, DRM_VATOM_ERR_OPCODE);

/* @op: codes the DWORD_ATOMIC_OP table leaves out, and bits 7..6. */
VT_FIELD_ROW(op_0x0e, op, 0x0e, DRM_VATOM_ERR_OP);
VT_FIELD_ROW(op_0x0f, op, 0x0f, DRM_VATOM_ERR_OP);
VT_FIELD_ROW(op_0x13, op, 0x13, DRM_VATOM_ERR_OP);
VT_FIELD_ROW(op_0x14, op, 0x14, DRM_VATOM_ERR_OP);
VT_FIELD_ROW(op_0x1f, op, 0x1f, DRM_VATOM_ERR_OP);
VT_FIELD_ROW(op_0x0e_16, op, 0x0e | DRM_VATOM_VISA_OP_16, DRM_VATOM_ERR_OP);
VT_FIELD_ROW(op_bit6, op, 0x40, DRM_VATOM_ERR_OP);
VT_FIELD_ROW(op_bit7, op, 0x80, DRM_VATOM_ERR_OP);
VT_FIELD_ROW(op_bits7_6, op, 0xc0, DRM_VATOM_ERR_OP);

/* @type: IMIN/IMAX take D, the other integer ops UD; no type past Q. */
VT_FIELD_ROW2(type_add_d, op, DRM_VATOM_VISA_OP_ADD,
	      type, DRM_VATOM_VISA_TYPE_D, DRM_VATOM_ERR_TYPE);
VT_FIELD_ROW2(type_add_f, op, DRM_VATOM_VISA_OP_ADD,
	      type, DRM_VATOM_VISA_TYPE_F, DRM_VATOM_ERR_TYPE);
VT_FIELD_ROW2(type_xor_d, op, DRM_VATOM_VISA_OP_XOR,
	      type, DRM_VATOM_VISA_TYPE_D, DRM_VATOM_ERR_TYPE);
VT_FIELD_ROW2(type_min_d, op, DRM_VATOM_VISA_OP_MIN,
	      type, DRM_VATOM_VISA_TYPE_D, DRM_VATOM_ERR_TYPE);
VT_FIELD_ROW2(type_imin_ud, op, DRM_VATOM_VISA_OP_IMIN,
	      type, DRM_VATOM_VISA_TYPE_UD, DRM_VATOM_ERR_TYPE);
VT_FIELD_ROW2(type_imax_ud, op, DRM_VATOM_VISA_OP_IMAX,
	      type, DRM_VATOM_VISA_TYPE_UD, DRM_VATOM_ERR_TYPE);
VT_FIELD_ROW2(type_imax_f, op, DRM_VATOM_VISA_OP_IMAX,
	      type, DRM_VATOM_VISA_TYPE_F, DRM_VATOM_ERR_TYPE);
VT_FIELD_ROW2(type_add_past_q, op, DRM_VATOM_VISA_OP_ADD,
	      type, DRM_VATOM_VISA_TYPE_Q + 1, DRM_VATOM_ERR_TYPE);
VT_FIELD_ROW2(type_add_0xff, op, DRM_VATOM_VISA_OP_ADD,
	      type, 0xff, DRM_VATOM_ERR_TYPE);

/* @surface: a slot no binding names. */
VT_FIELD_ROW(slot_1_unbound, surface, 1, DRM_VATOM_ERR_SLOT);
VT_FIELD_ROW(slot_5_unbound, surface, 5, DRM_VATOM_ERR_SLOT);
VT_FIELD_ROW(slot_255_unbound, surface, 255, DRM_VATOM_ERR_SLOT);

TEST_F(reject_field, rejected)
{
	struct drm_vatom_visa *p;
	struct vt_visa v;
	size_t i;

	if (self->r.fd < 0)
		return;
	vt_good(&v);
	p = vt_add_visa(&self->r.s, &v);
	/* The rows' sizes and operand bits were counted from this packet. */
	ASSERT_EQ(VT_GOOD_SIZE, p->hdr.size);
	ASSERT_EQ(VT_GOOD_OPERANDS, p->operands);
	for (i = 0; i < VT_ARRAY_SIZE(variant->set); i++)
		vt_set_field(p, &variant->set[i]);
	vt_reject(_metadata, &self->r, NULL, EINVAL, 1, variant->reason);
}

/* --- packet headers ----------------------------------------------------- */

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

/* --- packet 1's encoding (table) ------------------------------------------ */

/*
 * reject_encoding: packet 1 built anew by vt_dword() from @op, @exec and
 * @type, with operand arrays as long as @exec says (all zero), and with
 * @operands (and Dst) instead of vt_dword()'s bits when not 0; it must fail
 * with -EINVAL at index 1 for @reason.
 */
VT_REJECT_TABLE(reject_encoding);

/* Left out, @op, @exec and @type are 0: ADD, exec 1 and UD (UAPI). */
FIXTURE_VARIANT(reject_encoding) {
	__u8 op, exec, type;
	__u32 operands;
	__u32 reason;
};

/* Exec_size bits 7..4, the mask control: M - 1, or'ed with _NM. */
#define VT_MASK(m)	((m) << DRM_VATOM_VISA_EXEC_MASK_SHIFT)

/* Size codes 5 (ADDC only), 6 and 7. */
FIXTURE_VARIANT_ADD(reject_encoding, exec_32_not_addc) {
	.exec = DRM_VATOM_VISA_EXEC_32, .reason = DRM_VATOM_ERR_EXEC_SIZE,
};

FIXTURE_VARIANT_ADD(reject_encoding, exec_code_6) {
	.exec = 6, .reason = DRM_VATOM_ERR_EXEC_SIZE,
};

FIXTURE_VARIANT_ADD(reject_encoding, exec_code_7) {
	.exec = 7, .reason = DRM_VATOM_ERR_EXEC_SIZE,
};

/* The mask window 4 * (M - 1) .. + exec size must fit in 32 channels. */
FIXTURE_VARIANT_ADD(reject_encoding, mask_m8_exec8) {	/* 28 + 8 */
	.exec = DRM_VATOM_VISA_EXEC_8 | VT_MASK(7),
	.reason = DRM_VATOM_ERR_EXEC_SIZE,
};

FIXTURE_VARIANT_ADD(reject_encoding, mask_m6_exec16) {	/* 20 + 16 */
	.exec = DRM_VATOM_VISA_EXEC_16 | VT_MASK(5),
	.reason = DRM_VATOM_ERR_EXEC_SIZE,
};

FIXTURE_VARIANT_ADD(reject_encoding, mask_m8_exec16) {	/* 28 + 16 */
	.exec = DRM_VATOM_VISA_EXEC_16 | VT_MASK(7),
	.reason = DRM_VATOM_ERR_EXEC_SIZE,
};

FIXTURE_VARIANT_ADD(reject_encoding, mask_m8_nm_exec8) {	/* _NM too */
	.exec = DRM_VATOM_VISA_EXEC_8 | VT_MASK(7 | DRM_VATOM_VISA_EXEC_NM),
	.reason = DRM_VATOM_ERR_EXEC_SIZE,
};

/*
 * Operand bits: Src0 must be V0 for INC/DEC (and PREDEC); Src1 must be V0
 * except for CMPXCHG; the operands an op uses must be there; TYPED_ATOMIC's
 * and ADDC's operands are not DWORD_ATOMIC's.
 */
FIXTURE_VARIANT_ADD(reject_encoding, inc_with_src0) {
	.op = DRM_VATOM_VISA_OP_INC,
	.operands = DRM_VATOM_VISA_OPND_ADDR | DRM_VATOM_VISA_OPND_SRC0,
	.reason = DRM_VATOM_ERR_OPERANDS,
};

FIXTURE_VARIANT_ADD(reject_encoding, dec_with_src0) {
	.op = DRM_VATOM_VISA_OP_DEC,
	.operands = DRM_VATOM_VISA_OPND_ADDR | DRM_VATOM_VISA_OPND_SRC0,
	.reason = DRM_VATOM_ERR_OPERANDS,
};

FIXTURE_VARIANT_ADD(reject_encoding, predec_with_src0) {
	.op = DRM_VATOM_VISA_OP_PREDEC, .type = DRM_VATOM_VISA_TYPE_D,
	.operands = DRM_VATOM_VISA_OPND_ADDR | DRM_VATOM_VISA_OPND_SRC0,
	.reason = DRM_VATOM_ERR_OPERANDS,
};

FIXTURE_VARIANT_ADD(reject_encoding, inc_with_src1) {
	.op = DRM_VATOM_VISA_OP_INC,
	.operands = DRM_VATOM_VISA_OPND_ADDR | DRM_VATOM_VISA_OPND_SRC1,
	.reason = DRM_VATOM_ERR_OPERANDS,
};

FIXTURE_VARIANT_ADD(reject_encoding, add_without_src0) {
	.operands = DRM_VATOM_VISA_OPND_ADDR, .reason = DRM_VATOM_ERR_OPERANDS,
};

FIXTURE_VARIANT_ADD(reject_encoding, add_with_src1) {
	.operands = DRM_VATOM_VISA_OPND_ADDR | DRM_VATOM_VISA_OPND_SRC0 |
		    DRM_VATOM_VISA_OPND_SRC1,
	.reason = DRM_VATOM_ERR_OPERANDS,
};

FIXTURE_VARIANT_ADD(reject_encoding, cmpxchg_without_src1) {
	.op = DRM_VATOM_VISA_OP_CMPXCHG,
	.operands = DRM_VATOM_VISA_OPND_ADDR | DRM_VATOM_VISA_OPND_SRC0,
	.reason = DRM_VATOM_ERR_OPERANDS,
};

FIXTURE_VARIANT_ADD(reject_encoding, cmpxchg_without_src0) {
	.op = DRM_VATOM_VISA_OP_CMPXCHG,
	.operands = DRM_VATOM_VISA_OPND_ADDR | DRM_VATOM_VISA_OPND_SRC1,
	.reason = DRM_VATOM_ERR_OPERANDS,
};

FIXTURE_VARIANT_ADD(reject_encoding, add_without_addr) {
	.operands = DRM_VATOM_VISA_OPND_SRC0, .reason = DRM_VATOM_ERR_OPERANDS,
};

FIXTURE_VARIANT_ADD(reject_encoding, add_with_typed_v) {
	.operands = DRM_VATOM_VISA_OPND_ADDR | DRM_VATOM_VISA_OPND_V |
		    DRM_VATOM_VISA_OPND_SRC0,
	.reason = DRM_VATOM_ERR_OPERANDS,
};

FIXTURE_VARIANT_ADD(reject_encoding, add_with_typed_lod) {
	.operands = DRM_VATOM_VISA_OPND_ADDR | DRM_VATOM_VISA_OPND_LOD |
		    DRM_VATOM_VISA_OPND_SRC0,
	.reason = DRM_VATOM_ERR_OPERANDS,
};

FIXTURE_VARIANT_ADD(reject_encoding, add_with_addc_src0_imm) {
	.operands = DRM_VATOM_VISA_OPND_ADDR | DRM_VATOM_VISA_OPND_SRC0_IMM,
	.reason = DRM_VATOM_ERR_OPERANDS,
};

TEST_F(reject_encoding, rejected)
{
	static const __u32 zero[128];	/* lanes of size code 7 */
	const __u32 *src1 = variant->operands ? zero : NULL;
	struct vt_visa v;

	if (self->r.fd < 0)
		return;
	vt_dword(&v, variant->op, variant->exec, variant->type, zero, zero,
		 src1, true);
	if (variant->operands)
		v.operands = variant->operands | DRM_VATOM_VISA_OPND_DST;
	vt_add_visa(&self->r.s, &v);
	vt_reject(_metadata, &self->r, NULL, EINVAL, 1, variant->reason);
}

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
