// SPDX-License-Identifier: GPL-2.0
/*
 * TYPED_ATOMIC through the UAPI: every integer op in the 32-bit and .16
 * forms (visa_rows.h's hand-computed rows, which hold for a texel as for
 * a dword), and the packet rules: the typed_reject FIXTURE_VARIANT table,
 * exec size and mask control, null Dst, and the surface kinds it takes.
 *
 * Part of vatom_test.c's translation unit, after test_typed.c (its
 * vt_typed() and vt_typed2d()); not built alone.
 *
 * Copyright (C) 2026 The vatom developers
 */

/* --- every integer op, 32-bit and .16 ---------------------------------- */

/*
 * Run @n rows of @op on vt_typed2d()'s surface: 8 rows per packet, row k
 * on texel (k % 8, k / 8). .16: the low half of the texel holds the row's
 * value, the high half 0xa5a5 must stay, the upper 16 bits of each source
 * are garbage that must play no part.
 */
static void vt_typed_table(struct __test_metadata *_metadata, int fd, __u8 op,
			   __u8 type, bool w16, const struct vt_row *rows, __u32 n)
{
	const bool has0 = op != DRM_VATOM_VISA_OP_INC && op != DRM_VATOM_VISA_OP_DEC &&
			  op != DRM_VATOM_VISA_OP_PREDEC;
	const bool has1 = op == DRM_VATOM_VISA_OP_CMPXCHG;
	struct vt_typed2d t;
	__u32 base, i;

	vt_typed2d(_metadata, fd, &t);
	for (base = 0; base < n; base += 8) {
		__u32 cnt = n - base < 8 ? n - base : 8;
		__u32 u[8], vv[8], s0[8], s1[8], res[8];
		struct vt_stream s;
		struct vt_visa v;

		memset(t.map, 0, VT_PAGE_SIZE);
		for (i = 0; i < 8; i++) {
			const struct vt_row *r = &rows[base + (i < cnt ? i : 0)];
			__u32 texel = base + i;

			u[i] = i;
			vv[i] = base / 8;
			s0[i] = (__u32)r->src0;
			s1[i] = (__u32)r->src1;
			if (i >= cnt)
				continue;
			if (w16) {
				t.map[texel] = 0xa5a50000 | (__u16)r->old;
				s0[i] = 0xbeef0000 | (__u16)r->src0;
				s1[i] = 0xdead0000 | (__u16)r->src1;
			} else {
				t.map[texel] = (__u32)r->old;
			}
		}
		vt_stream_init(&s);
		vt_typed(&v, op | (w16 ? DRM_VATOM_VISA_OP_16 : 0), type, 3,
			 DRM_VATOM_VISA_OPND_V | DRM_VATOM_VISA_OPND_DST, u,
			 has0 ? s0 : NULL, has1 ? s1 : NULL);
		v.emask = (1u << cnt) - 1;
		vt_add_visa_coords(&s, &v, vv, NULL, NULL);
		memset(res, VT_POISON, sizeof(res));
		vt_expect_ok(_metadata, fd, &s, &t.bind, 1, res, sizeof(res));
		for (i = 0; i < 8; i++) {
			const struct vt_row *r;
			__u32 mem = t.map[base + i];

			if (i >= cnt) {
				EXPECT_EQ(VT_POISON32, res[i]) TH_LOG("disabled lane %u", i);
				EXPECT_EQ(0, mem) TH_LOG("disabled lane %u wrote", i);
				continue;
			}
			r = &rows[base + i];
			EXPECT_EQ((__u32)r->ret, res[i])
				TH_LOG("op 0x%x%s row %u: old 0x%llx src0 0x%llx src1 0x%llx",
				       op, w16 ? ".16" : "", base + i,
				       (unsigned long long)r->old,
				       (unsigned long long)r->src0,
				       (unsigned long long)r->src1);
			EXPECT_EQ((w16 ? 0xa5a50000 : 0) | (__u32)r->mem, mem)
				TH_LOG("op 0x%x%s row %u", op, w16 ? ".16" : "",
				       base + i);
		}
	}
	munmap(t.map, VT_PAGE_SIZE);
	vt_gem_close(fd, t.h);
}

/* One variant per Op: its 32-bit and .16 tables, indexed by w16. */
FIXTURE(typed_op) {
	int fd;
};

FIXTURE_VARIANT(typed_op) {
	__u8 op;
	__u8 type;
	const struct vt_row *t[2];
	__u32 n[2];
};

#define VT_TYPED_VARIANT(name, o, ty)					\
	FIXTURE_VARIANT_ADD(typed_op, name) {				\
		.op = DRM_VATOM_VISA_OP_##o,				\
		.type = DRM_VATOM_VISA_TYPE_##ty,			\
		.t = { name##32, name##16 },				\
		.n = { VT_ARRAY_SIZE(name##32), VT_ARRAY_SIZE(name##16) }, \
	}

/* Seed 001: IMIN/IMAX take type D, all other operations UD. */
VT_TYPED_VARIANT(add, ADD, UD);
VT_TYPED_VARIANT(sub, SUB, UD);
VT_TYPED_VARIANT(inc, INC, UD);
VT_TYPED_VARIANT(dec, DEC, UD);
VT_TYPED_VARIANT(min, MIN, UD);
VT_TYPED_VARIANT(max, MAX, UD);
VT_TYPED_VARIANT(xchg, XCHG, UD);
VT_TYPED_VARIANT(cmpxchg, CMPXCHG, UD);
VT_TYPED_VARIANT(and, AND, UD);
VT_TYPED_VARIANT(or, OR, UD);
VT_TYPED_VARIANT(xor, XOR, UD);
VT_TYPED_VARIANT(imin, IMIN, D);
VT_TYPED_VARIANT(imax, IMAX, D);
VT_TYPED_VARIANT(predec, PREDEC, UD);

FIXTURE_SETUP(typed_op)
{
	self->fd = vt_open();
	if (self->fd == -ENODEV)
		SKIP(return, "no vatom device");
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(typed_op)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* The variant's 32-bit or .16 table, when VISA_OPS lists the op. */
static void vt_typed_form(struct __test_metadata *_metadata, int fd,
			  const FIXTURE_VARIANT(typed_op) *variant, bool w16)
{
	__u32 form = w16 ? DRM_VATOM_VISA_FORM_TYPED16 :
			   DRM_VATOM_VISA_FORM_TYPED32;

	if (fd < 0)
		return;
	if (!(vt_visa_ops(fd, form) & (1u << variant->op)))
		SKIP(return, "TYPED_ATOMIC%s op %u not implemented",
		     w16 ? ".16" : "", variant->op);
	vt_typed_table(_metadata, fd, variant->op, variant->type, w16,
		       variant->t[w16], variant->n[w16]);
}

TEST_F(typed_op, typed32)
{
	vt_typed_form(_metadata, self->fd, variant, false);
}

TEST_F(typed_op, typed16)
{
	vt_typed_form(_metadata, self->fd, variant, true);
}

/* --- packet rules --------------------------------------------------------- */

/* The op masks: the 14 integer ops, no float op, in both forms. */
TEST(typed_get_param)
{
	int fd;

	VT_OPEN(fd);
	if (!(vt_caps(fd) & DRM_VATOM_CAP_VISA_TYPED_ATOMIC))
		SKIP(close(fd); return, "TYPED_ATOMIC not implemented");
	EXPECT_EQ(0x3fff, vt_visa_ops(fd, DRM_VATOM_VISA_FORM_TYPED32));
	EXPECT_EQ(0x3fff, vt_visa_ops(fd, DRM_VATOM_VISA_FORM_TYPED16));
	close(fd);
}

/*
 * A packet on vt_typed2d()'s surface that only its encoding makes wrong:
 * one variant per encoding, each rejected with -EINVAL at packet 0 for
 * @reason, without touching the surface.
 */
FIXTURE(typed_reject) {
	int fd;
	struct vt_typed2d t;
};

/**
 * FIXTURE_VARIANT(typed_reject) - a TYPED_ATOMIC packet with V and Dst
 * @op: the Op byte
 * @type: the data type
 * @exec: the exec size byte
 * @operands: if not 0, the operand bits (Dst added) in place of those
 *	vt_typed() derives: Src0 unless INC/DEC/PREDEC, Src1 for CMPXCHG
 *	and FCMPWR
 * @reason: the DRM_VATOM_ERR_* expected
 */
FIXTURE_VARIANT(typed_reject) {
	__u8 op, type, exec;
	__u32 operands;
	__u32 reason;
};

#define VT_TYPED_REJECT(name, o, ty, ex, opnd, r)			\
	FIXTURE_VARIANT_ADD(typed_reject, name) {			\
		.op = (o), .type = (ty), .exec = (ex), .operands = (opnd), \
		.reason = DRM_VATOM_ERR_##r,				\
	}
#define VT_EXEC_ROW(name, ex)						\
	VT_TYPED_REJECT(name, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_TYPE_UD, \
			ex, 0, EXEC_SIZE)
#define VT_OP_ROW(name, o, ty)						\
	VT_TYPED_REJECT(name, o, DRM_VATOM_VISA_TYPE_##ty,		\
			DRM_VATOM_VISA_EXEC_8, 0, OP)
#define VT_TYPE_ROW(name, o, ty)					\
	VT_TYPED_REJECT(name, DRM_VATOM_VISA_OP_##o, ty,		\
			DRM_VATOM_VISA_EXEC_8, 0, TYPE)
#define VT_OPND_ROW(name, o, opnd)					\
	VT_TYPED_REJECT(name, DRM_VATOM_VISA_OP_##o, DRM_VATOM_VISA_TYPE_UD, \
			DRM_VATOM_VISA_EXEC_8, opnd, OPERANDS)

#define VT_O_16		DRM_VATOM_VISA_OP_16
#define VT_OPND_AV	(DRM_VATOM_VISA_OPND_ADDR | DRM_VATOM_VISA_OPND_V)

/*
 * TYPED_ATOMIC has exactly 8 lanes ("Performs 8 element ..."): every other
 * size code is ERR_EXEC_SIZE, as are bit 3 and a mask window past bit 31
 * (M8 = bits 28..35, with or without _NM).
 */
VT_EXEC_ROW(exec_1, DRM_VATOM_VISA_EXEC_1);
VT_EXEC_ROW(exec_2, DRM_VATOM_VISA_EXEC_2);
VT_EXEC_ROW(exec_4, DRM_VATOM_VISA_EXEC_4);
VT_EXEC_ROW(exec_16, DRM_VATOM_VISA_EXEC_16);
VT_EXEC_ROW(exec_32, DRM_VATOM_VISA_EXEC_32);
VT_EXEC_ROW(exec_code_6, 6);
VT_EXEC_ROW(exec_code_7, 7);
VT_EXEC_ROW(exec_8_bit3, DRM_VATOM_VISA_EXEC_8 | DRM_VATOM_VISA_EXEC_RESERVED);
VT_EXEC_ROW(exec_8_m8, 0x73);
VT_EXEC_ROW(exec_8_m8_nm, 0xf3);

/*
 * Float ops are "DWORD, SVM" only (seed 000); in TYPED_ATOMIC they are a
 * reserved operation (ERR_OP), with any type and in the .16 form, as are
 * the unassigned codes and Op bits 7..6. The .16 form with a 64-bit type
 * is ERR_OP too (bit 5 has no 64-bit meaning).
 */
VT_OP_ROW(op_fmax, DRM_VATOM_VISA_OP_FMAX, F);
VT_OP_ROW(op_fmin, DRM_VATOM_VISA_OP_FMIN, F);
VT_OP_ROW(op_fcmpwr, DRM_VATOM_VISA_OP_FCMPWR, F);
VT_OP_ROW(op_fmax16, DRM_VATOM_VISA_OP_FMAX | VT_O_16, F);
VT_OP_ROW(op_fmin16, DRM_VATOM_VISA_OP_FMIN | VT_O_16, F);
VT_OP_ROW(op_fcmpwr16, DRM_VATOM_VISA_OP_FCMPWR | VT_O_16, F);
VT_OP_ROW(op_fmax_ud, DRM_VATOM_VISA_OP_FMAX, UD);
VT_OP_ROW(op_0x0e, 0x0e, UD);
VT_OP_ROW(op_0x0f, 0x0f, UD);
VT_OP_ROW(op_0x13, 0x13, UD);
VT_OP_ROW(op_0x1f, 0x1f, UD);
VT_OP_ROW(op_bit6, 0x40, UD);
VT_OP_ROW(op_bit7, 0x80, UD);
VT_OP_ROW(op_add16_uq, DRM_VATOM_VISA_OP_ADD | VT_O_16, UQ);

/*
 * Types: Src/Dst "must have type D" for IMIN/IMAX, "UD" for the others
 * (PREDEC takes both); F, 64-bit and unknown types are ERR_TYPE.
 */
VT_TYPE_ROW(type_add_d, ADD, DRM_VATOM_VISA_TYPE_D);
VT_TYPE_ROW(type_add_f, ADD, DRM_VATOM_VISA_TYPE_F);
VT_TYPE_ROW(type_add_uq, ADD, DRM_VATOM_VISA_TYPE_UQ);
VT_TYPE_ROW(type_add_q, ADD, DRM_VATOM_VISA_TYPE_Q);
VT_TYPE_ROW(type_add_5, ADD, 5);
VT_TYPE_ROW(type_add_0xff, ADD, 0xff);
VT_TYPE_ROW(type_imin_ud, IMIN, DRM_VATOM_VISA_TYPE_UD);
VT_TYPE_ROW(type_imax_ud, IMAX, DRM_VATOM_VISA_TYPE_UD);
VT_TYPE_ROW(type_imax_q, IMAX, DRM_VATOM_VISA_TYPE_Q);
VT_TYPE_ROW(type_predec_uq, PREDEC, DRM_VATOM_VISA_TYPE_UQ);
VT_TYPE_ROW(type_predec_f, PREDEC, DRM_VATOM_VISA_TYPE_F);
VT_TYPE_ROW(type_xchg16_f, XCHG | VT_O_16, DRM_VATOM_VISA_TYPE_F);

/*
 * Operands that do not depend on the surface: U is required; Src0 is V0
 * for INC/DEC/PREDEC and required otherwise; Src1 only with CMPXCHG; the
 * ADDC immediate bits are not TYPED_ATOMIC operands.
 */
VT_OPND_ROW(opnd_add_no_u, ADD, DRM_VATOM_VISA_OPND_V | DRM_VATOM_VISA_OPND_SRC0);
VT_OPND_ROW(opnd_add_no_src0, ADD, VT_OPND_AV);
VT_OPND_ROW(opnd_inc_src0, INC, VT_OPND_AV | DRM_VATOM_VISA_OPND_SRC0);
VT_OPND_ROW(opnd_dec_src0, DEC, VT_OPND_AV | DRM_VATOM_VISA_OPND_SRC0);
VT_OPND_ROW(opnd_predec_src0, PREDEC, VT_OPND_AV | DRM_VATOM_VISA_OPND_SRC0);
VT_OPND_ROW(opnd_add_src1, ADD, VT_OPND_AV | DRM_VATOM_VISA_OPND_SRC0 |
	    DRM_VATOM_VISA_OPND_SRC1);
VT_OPND_ROW(opnd_cmpxchg_no_src1, CMPXCHG, VT_OPND_AV | DRM_VATOM_VISA_OPND_SRC0);
VT_OPND_ROW(opnd_cmpxchg_no_src0, CMPXCHG, VT_OPND_AV | DRM_VATOM_VISA_OPND_SRC1);
VT_OPND_ROW(opnd_add_src0_imm, ADD, VT_OPND_AV | DRM_VATOM_VISA_OPND_SRC0_IMM);
VT_OPND_ROW(opnd_cmpxchg_src1_imm, CMPXCHG, VT_OPND_AV | DRM_VATOM_VISA_OPND_SRC0 |
	    DRM_VATOM_VISA_OPND_SRC1_IMM);

#undef VT_OPND_AV
#undef VT_O_16
#undef VT_OPND_ROW
#undef VT_TYPE_ROW
#undef VT_OP_ROW
#undef VT_EXEC_ROW
#undef VT_TYPED_REJECT

FIXTURE_SETUP(typed_reject)
{
	self->t.map = NULL;
	self->fd = vt_open();
	if (self->fd == -ENODEV)
		SKIP(return, "no vatom device");
	ASSERT_LE(0, self->fd);
	vt_typed2d(_metadata, self->fd, &self->t);
}

FIXTURE_TEARDOWN(typed_reject)
{
	if (self->t.map)
		munmap(self->t.map, VT_PAGE_SIZE);
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(typed_reject, rejected)
{
	/* Size codes 6 and 7 read 64 and 128 lanes; 64-bit types 8 bytes. */
	static const __u64 zero[128];
	const __u8 op = variant->op & DRM_VATOM_VISA_OP_MASK;
	const bool has0 = op != DRM_VATOM_VISA_OP_INC && op != DRM_VATOM_VISA_OP_DEC &&
			  op != DRM_VATOM_VISA_OP_PREDEC;
	const bool has1 = op == DRM_VATOM_VISA_OP_CMPXCHG ||
			  op == DRM_VATOM_VISA_OP_FCMPWR;
	struct vt_stream s;
	struct vt_visa v;

	if (!self->t.map)
		return;
	vt_stream_init(&s);
	vt_typed(&v, variant->op, variant->type, 3,
		 DRM_VATOM_VISA_OPND_V | DRM_VATOM_VISA_OPND_DST,
		 (const __u32 *)zero, has0 ? zero : NULL, has1 ? zero : NULL);
	v.exec_size = variant->exec;
	if (variant->operands) {
		v.operands = variant->operands | DRM_VATOM_VISA_OPND_DST;
		v.src0 = zero;
		v.src1 = zero;
	}
	vt_add_visa_coords(&s, &v, NULL, NULL, NULL);
	vt_expect_reject(_metadata, self->fd, &s, &self->t.bind, 1, EINVAL, 0,
			 variant->reason);
	EXPECT_EQ(0x10000000, self->t.map[0]);
}

/*
 * Mask control and predicate: ChEn[i] = (NM or emask bit (4M + i)) and
 * (not predicated or pred bit i). emask 0xf0e1d2c3 gives the windows
 * M1 0xc3, M2 0x2c, M3 0xd2, M4 0x1d, M5 0xe1, M6 0x0e, M7 0xf0 (by hand).
 */
TEST(typed_mask_control)
{
	static const struct {
		__u8 ctrl;
		__u32 flags, pred;
		__u32 lanes;
		__u32 emask;	/* 0: 0xf0e1d2c3 */
	} cases[] = {
		{ 0, 0, 0, 0xc3 }, { 1, 0, 0, 0x2c }, { 2, 0, 0, 0xd2 },
		{ 3, 0, 0, 0x1d }, { 4, 0, 0, 0xe1 }, { 5, 0, 0, 0x0e },
		{ 6, 0, 0, 0xf0 },
		/* M7: lanes 0..7 are emask bits 24..31. */
		{ 6, 0, 0, 0x81, 0x81000000 },
		{ DRM_VATOM_VISA_EXEC_NM, 0, 0, 0xff },
		{ DRM_VATOM_VISA_EXEC_NM | 6, 0, 0, 0xff },
		{ 0, DRM_VATOM_VISA_PREDICATED, 0x55, 0x41 },
		{ DRM_VATOM_VISA_EXEC_NM, DRM_VATOM_VISA_PREDICATED, 0xffffffa5, 0xa5 },
		{ 2, DRM_VATOM_VISA_PREDICATED, 0x0f, 0x02 },
	};
	__u32 u[8], res[8], i, k;
	struct vt_typed2d t;
	struct vt_stream s;
	struct vt_visa v;
	int fd;

	VT_OPEN(fd);
	vt_typed2d(_metadata, fd, &t);
	for (i = 0; i < 8; i++)
		u[i] = i;
	for (k = 0; k < VT_ARRAY_SIZE(cases); k++) {
		vt_fill_offsets(t.map, VT_PAGE_SIZE);
		vt_stream_init(&s);
		vt_typed(&v, DRM_VATOM_VISA_OP_INC, DRM_VATOM_VISA_TYPE_UD, 3,
			 DRM_VATOM_VISA_OPND_V | DRM_VATOM_VISA_OPND_DST, u, NULL,
			 NULL);
		v.exec_size = vt_exec(DRM_VATOM_VISA_EXEC_8, cases[k].ctrl);
		v.emask = 0xf0e1d2c3;
		if (cases[k].emask)
			v.emask = cases[k].emask;
		v.flags = cases[k].flags;
		v.pred = cases[k].pred;
		vt_add_visa_coords(&s, &v, NULL, NULL, NULL);
		memset(res, VT_POISON, sizeof(res));
		vt_expect_ok(_metadata, fd, &s, &t.bind, 1, res, sizeof(res));
		for (i = 0; i < 8; i++) {
			bool on = (cases[k].lanes >> i) & 1;

			EXPECT_EQ(on ? 0x10000000 + 4 * i : VT_POISON32, res[i])
				TH_LOG("case %u lane %u", k, i);
			EXPECT_EQ(0x10000000 + 4 * i + on, t.map[i])
				TH_LOG("case %u lane %u", k, i);
		}
	}
	munmap(t.map, VT_PAGE_SIZE);
	close(fd);
}

/* Without Dst nothing is returned, and the texels still change. */
TEST(typed_null_dst)
{
	__u32 u[8] = { 0, 1, 2, 3, 4, 5, 6, 7 }, src[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
	__u32 res[2] = { VT_POISON32, VT_POISON32 }, i;
	struct vt_typed2d t;
	struct vt_stream s;
	struct vt_visa v;
	int fd;

	VT_OPEN(fd);
	vt_typed2d(_metadata, fd, &t);
	vt_stream_init(&s);
	vt_typed(&v, DRM_VATOM_VISA_OP_SUB, DRM_VATOM_VISA_TYPE_UD, 3,
		 DRM_VATOM_VISA_OPND_V, u, src, NULL);
	vt_add_visa_coords(&s, &v, NULL, NULL, NULL);
	ASSERT_EQ(0, s.results);
	vt_expect_ok(_metadata, fd, &s, &t.bind, 1, res, sizeof(res));
	EXPECT_EQ(VT_POISON32, res[0]);
	for (i = 0; i < 8; i++) {
		EXPECT_EQ(0x10000000 + 4 * i - 1, t.map[i]) TH_LOG("texel %u", i);
	}
	munmap(t.map, VT_PAGE_SIZE);
	close(fd);
}

/*
 * Surfaces: TYPED_ATOMIC on an unbound slot is ERR_SLOT, on a buffer
 * ERR_SURFACE_KIND; a typed surface bound to a DWORD_ATOMIC packet is
 * ERR_SURFACE_KIND too. Each at packet 1 after a valid packet 0 that must
 * not run.
 */
TEST(typed_surface_kind)
{
	__u32 u[8] = { 0 }, src[8] = { 1, 1, 1, 1, 1, 1, 1, 1 }, addr[1] = { 0 };
	struct drm_vatom_binding bind[2];
	struct vt_typed2d t;
	struct vt_stream s;
	struct vt_visa v;
	__u32 bh, *bmap;
	int fd;

	VT_OPEN(fd);
	vt_typed2d(_metadata, fd, &t);
	VT_BUFFER(fd, 4096, bh, bmap);
	memset(bmap, 0, 4096);
	bind[0] = t.bind;
	memset(&bind[1], 0, sizeof(bind[1]));
	bind[1].slot = 4;
	bind[1].handle = bh;

	/* Packet 0 (valid): TYPED ADD on slot 3. */
	vt_stream_init(&s);
	vt_typed(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_TYPE_UD, 3,
		 DRM_VATOM_VISA_OPND_V, u, src, NULL);
	vt_add_visa_coords(&s, &v, NULL, NULL, NULL);
	/* 1: TYPED on slot 9, unbound. */
	v.surface = 9;
	vt_add_visa_coords(&s, &v, NULL, NULL, NULL);
	vt_expect_reject(_metadata, fd, &s, bind, 2, EINVAL, 1, DRM_VATOM_ERR_SLOT);
	/* 1: TYPED on slot 4, a buffer. */
	vt_stream_init(&s);
	v.surface = 3;
	vt_add_visa_coords(&s, &v, NULL, NULL, NULL);
	v.surface = 4;
	vt_add_visa_coords(&s, &v, NULL, NULL, NULL);
	vt_expect_reject(_metadata, fd, &s, bind, 2, EINVAL, 1,
			 DRM_VATOM_ERR_SURFACE_KIND);
	/* 1: DWORD_ATOMIC on slot 3, the typed surface. */
	vt_stream_init(&s);
	v.surface = 3;
	vt_add_visa_coords(&s, &v, NULL, NULL, NULL);
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_1,
		 DRM_VATOM_VISA_TYPE_UD, addr, src, NULL, true);
	v.surface = 3;
	vt_add_visa(&s, &v);
	vt_expect_reject(_metadata, fd, &s, bind, 2, EINVAL, 1,
			 DRM_VATOM_ERR_SURFACE_KIND);
	/* The same DWORD_ATOMIC on the buffer is fine. */
	vt_stream_init(&s);
	v.surface = 4;
	vt_add_visa(&s, &v);
	{
		__u32 res[2] = { VT_POISON32, VT_POISON32 };

		vt_expect_ok(_metadata, fd, &s, bind, 2, res, sizeof(res));
		EXPECT_EQ(0, res[0]);
		EXPECT_EQ(1, bmap[0]);
	}
	EXPECT_EQ(0x10000000, t.map[0]);
	munmap(bmap, 4096);
	munmap(t.map, VT_PAGE_SIZE);
	close(fd);
}
