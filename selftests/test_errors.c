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
 * The encodings, bindings, results region and submit struct are in
 * test_errors_submit.c. Part of vatom_test.c's translation unit (see
 * there); not built alone.
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
