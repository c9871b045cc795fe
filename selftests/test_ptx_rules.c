// SPDX-License-Identifier: GPL-2.0
/*
 * PTX atom through the UAPI: every space, sem and scope value, the
 * cache-hint rules, every rejection reason, alignment and bounds at their
 * edges, and results into a result surface.
 *
 * Part of vatom_test.c's translation unit, after test_ptx.c (its PTX_*
 * shorthands and running rows); not built alone.
 *
 * Copyright (C) 2026 The vatom developers
 */

/* --- qualifiers ---------------------------------------------------------------- */

/*
 * Every space x sem x scope (64 combinations) is accepted and works: one
 * add.u32 1 on a counter each, returning 0, 1, 2, ... in stream order; an
 * exch.b32 and a cas.b32 in each space.
 */
TEST(ptx_space_sem_scope)
{
	struct drm_vatom_binding bind = { .slot = 5 };
	__u64 res[64 + 8];
	struct drm_vatom_ptx p;
	struct vt_stream s;
	__u32 i, *map;
	int fd;

	VT_OPEN(fd);
	VT_BUFFER(fd, 4096, bind.handle, map);
	memset(map, 0, 4096);
	vt_stream_init(&s);
	for (i = 0; i < 64; i++) {
		vt_ptx_init(&p, PTX_OP(ADD), PTX_TY(U32), 0, i & 3, 64);
		p.sem = (i >> 2) & 3;
		p.scope = i >> 4;
		p.slot = 5;
		p.b[0] = 1;
		vt_add_ptx(&s, &p);
	}
	for (i = 0; i < 4; i++) {
		vt_ptx_init(&p, PTX_OP(EXCH), PTX_TY(B32), 0, i, 128 + 8 * i);
		p.sem = DRM_VATOM_PTX_SEM_ACQ_REL;
		p.scope = DRM_VATOM_PTX_SCOPE_SYS;
		p.slot = 5;
		p.b[0] = 0x100 + i;
		vt_add_ptx(&s, &p);
		vt_ptx_init(&p, PTX_OP(CAS), PTX_TY(B32), 0, i, 128 + 8 * i);
		p.sem = DRM_VATOM_PTX_SEM_ACQUIRE;
		p.scope = DRM_VATOM_PTX_SCOPE_CTA;
		p.slot = 5;
		p.b[0] = 0x100 + i;
		p.c[0] = 0x200 + i;
		vt_add_ptx(&s, &p);
	}
	memset(res, VT_POISON, sizeof(res));
	vt_expect_ok(_metadata, fd, &s, &bind, 1, res, sizeof(res));
	for (i = 0; i < 64; i++) {
		EXPECT_EQ(i, res[i]) TH_LOG("space %u sem %u scope %u", i & 3,
					    (i >> 2) & 3, i >> 4);
	}
	EXPECT_EQ(64, map[16]);
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(0, res[64 + 2 * i]);
		EXPECT_EQ(0x100 + i, res[64 + 2 * i + 1]);
		EXPECT_EQ(0x200 + i, map[32 + 2 * i]);
	}
	munmap(map, 4096);
	close(fd);
}

/*
 * .L2::cache_hint: accepted on .global and generic with any policy value
 * (it is a hint and changes nothing), on scalar, b128 exch and vector
 * forms.
 */
TEST(ptx_cache_hint)
{
	static const struct vt_ptx_row rows[] = {
		{ "add.L2::cache_hint.u32", PTX_OP(ADD), PTX_TY(U32), 0, PTX_GLOBAL,
		  PTX_HINT, 0, { 1 }, { 2 }, { 0 }, { 3 } },
		{ "exch.L2::cache_hint.b64", PTX_OP(EXCH), PTX_TY(B64), 0, PTX_GENERIC,
		  PTX_HINT, 0, { 1 }, { 2 }, { 0 }, { 2 } },
		{ "exch.L2::cache_hint.b128", PTX_OP(EXCH), PTX_TY(B128), 0, PTX_GLOBAL,
		  PTX_HINT, 0, { 1, 2 }, { 3, 4 }, { 0 }, { 3, 4 } },
		{ "add.noftz.L2::cache_hint.f16", PTX_OP(ADD), PTX_TY(F16), 0,
		  PTX_GENERIC, PTX_HINT | PTX_NOFTZ, 2, { 0x3c00 }, { 0x3c00 }, { 0 },
		  { 0x4000 } },
		{ "add.L2::cache_hint.v2.f32", PTX_OP(ADD), PTX_TY(F32), 2, PTX_GLOBAL,
		  PTX_HINT, 0, { W2(0x3f800000, 0x40000000) },
		  { W2(0x3f800000, 0x40000000) }, { 0 },
		  { W2(0x40000000, 0x40800000) } },
		{ "max.noftz.L2::cache_hint.v8.bf16", PTX_OP(MAX), PTX_TY(BF16), 8,
		  PTX_GLOBAL, PTX_HINT | PTX_NOFTZ, 0,
		  { H4(0x3f80, 0xbf80, 0, 0x8000), H4(1, 2, 3, 4) },
		  { H4(0x4000, 0xc000, 0x8000, 0), H4(4, 3, 2, 1) }, { 0 },
		  { H4(0x4000, 0xbf80, 0, 0), H4(4, 3, 3, 4) } },
		{ "min.L2::cache_hint.u32", PTX_OP(MIN), PTX_TY(U32), 0, PTX_GLOBAL, PTX_HINT, 0,
		  { 9 }, { 7 }, { 0 }, { 7 } },
	};
	struct drm_vatom_binding bind = { .slot = 0 };
	struct drm_vatom_ptx p;
	struct vt_stream s;
	__u64 res[2];
	__u32 *map;
	int fd;

	VT_OPEN(fd);
	vt_ptx_rows(_metadata, fd, rows, VT_ARRAY_SIZE(rows));
	/* The policy operand's value does not matter. */
	VT_BUFFER(fd, 4096, bind.handle, map);
	memset(map, 0, 4096);
	vt_stream_init(&s);
	vt_ptx_init(&p, PTX_OP(ADD), PTX_TY(U32), 0, PTX_GLOBAL, 8);
	p.flags = PTX_HINT;
	p.cache_policy = ~0ull;
	p.b[0] = 5;
	vt_add_ptx(&s, &p);
	p.cache_policy = 0;
	vt_add_ptx(&s, &p);
	memset(res, VT_POISON, sizeof(res));
	vt_expect_ok(_metadata, fd, &s, &bind, 1, res, sizeof(res));
	EXPECT_EQ(0, res[0]);
	EXPECT_EQ(5, res[1]);
	EXPECT_EQ(10, map[2]);
	munmap(map, 4096);
	close(fd);
}

/* --- rejections ------------------------------------------------------------------ */

/**
 * struct vt_ptx_pkt - one packet, field by field
 * @what: for the log
 * @op, @type, ... @c: the packet's fields (vt_ptx_pkt() builds it)
 * @size: when not 0, the header's size (the packet is zero-extended to it)
 * @reason: DRM_VATOM_ERR_* it is rejected for
 */
struct vt_ptx_pkt {
	const char *what;
	__u8 op, type, vec, space, sem, scope, slot, pad;
	__u32 flags, pad2;
	__u64 addr, cache_policy, b[2], c[2];
	__u32 size;
	__u32 reason;
};

static void vt_ptx_pkt(struct drm_vatom_ptx *p, const struct vt_ptx_pkt *r)
{
	vt_ptx_init(p, r->op, r->type, r->vec, r->space, r->addr);
	p->sem = r->sem;
	p->scope = r->scope;
	p->slot = r->slot;
	p->pad = r->pad;
	p->flags = r->flags;
	p->pad2 = r->pad2;
	p->cache_policy = r->cache_policy;
	memcpy(p->b, r->b, sizeof(p->b));
	memcpy(p->c, r->c, sizeof(p->c));
}

/* A rejected packet on .generic (space 0), slot 0: op, type and the rest. */
#define BADF(w, o, t, r, ...) \
	{ .what = w, .op = o, .type = t, .reason = DRM_VATOM_ERR_##r, __VA_ARGS__ }
/* The same with the op, type, vector length, space, flags and address. */
#define BAD(w, o, t, v, sp, fl, a, r) \
	BADF(w, PTX_OP(o), PTX_TY(t), r, .vec = v, .space = sp, .flags = fl, \
	     .addr = a)

static const struct vt_ptx_pkt vt_ptx_bad_rows[] = {
	/* reserved fields and flag bits */
	BADF("pad", PTX_OP(ADD), PTX_TY(U32), RESERVED, .pad = 1),
	BADF("pad2", PTX_OP(ADD), PTX_TY(U32), RESERVED, .pad2 = 1),
	BAD("flag bit 2", ADD, U32, 0, PTX_GLOBAL, 1u << 2, 0, RESERVED),
	BAD("flag bit 31", ADD, U32, 0, PTX_GLOBAL, 1u << 31, 0, RESERVED),
	BADF("policy without hint", PTX_OP(ADD), PTX_TY(U32), RESERVED, .cache_policy = 1),
	BADF("c for add", PTX_OP(ADD), PTX_TY(U32), RESERVED, .c[0] = 1),
	BADF("c[1] for exch.b128", PTX_OP(EXCH), PTX_TY(B128), RESERVED, .c[1] = 1),
	BADF("b past u32", PTX_OP(ADD), PTX_TY(U32), RESERVED, .b[0] = 0x100000000ull),
	BADF("b[1] for u64", PTX_OP(ADD), PTX_TY(U64), RESERVED, .b[1] = 1),
	BADF("b past b16", PTX_OP(CAS), PTX_TY(B16), RESERVED, .b[0] = 0x10000),
	BADF("c past b16", PTX_OP(CAS), PTX_TY(B16), RESERVED, .c[0] = 0x10000),
	BADF("b past .v2.f16", PTX_OP(ADD), PTX_TY(F16), RESERVED,
	     .vec = 2, .flags = PTX_NOFTZ, .b[0] = 0x100000000ull),
	BADF("b[1] for .v2.f32", PTX_OP(ADD), PTX_TY(F32), RESERVED, .vec = 2, .b[1] = 1),
	/* op and type codes */
	BADF("op 0", 0, PTX_TY(U32), OP),
	BADF("op 11", 11, PTX_TY(U32), OP),
	BADF("op 255", 255, PTX_TY(U32), OP),
	BADF("type 0", PTX_OP(ADD), 0, TYPE),
	BADF("type 15", PTX_OP(ADD), 15, TYPE),
	BADF("type 255", PTX_OP(ADD), 255, TYPE),
	/* op x type in no form */
	BAD("add.b32", ADD, B32, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("add.b64", ADD, B64, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("add.b16", ADD, B16, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("add.b128", ADD, B128, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("add.s64", ADD, S64, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("and.u32", AND, U32, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("or.s64", OR, S64, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("xor.f16", XOR, F16, 0, PTX_GLOBAL, PTX_NOFTZ, 0, TYPE),
	BAD("and.b16", AND, B16, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("and.b128", AND, B128, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("exch.b16", EXCH, B16, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("exch.f32", EXCH, F32, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("exch.u32", EXCH, U32, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("cas.u32", CAS, U32, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("cas.f16", CAS, F16, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("inc.s32", INC, S32, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("inc.u64", INC, U64, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("dec.u64", DEC, U64, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("dec.b32", DEC, B32, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("min.f32", MIN, F32, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("max.f64", MAX, F64, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("min.b32", MIN, B32, 0, PTX_GLOBAL, 0, 0, TYPE),
	BAD("min.v2.f32", MIN, F32, 2, PTX_GLOBAL, 0, 0, TYPE),
	/* space, sem, scope past their ranges */
	BAD("space 4", ADD, U32, 0, 4, 0, 0, QUALIFIER),
	BAD("space 255", ADD, U32, 0, 255, 0, 0, QUALIFIER),
	BADF("sem 4", PTX_OP(ADD), PTX_TY(U32), QUALIFIER, .sem = 4),
	BADF("scope 4", PTX_OP(ADD), PTX_TY(U32), QUALIFIER, .scope = 4),
	BADF("scope 255", PTX_OP(ADD), PTX_TY(U32), QUALIFIER, .scope = 255),
	/* vector lengths and forms */
	BAD(".v1", ADD, F32, 1, PTX_GLOBAL, 0, 0, QUALIFIER),
	BAD(".v3", ADD, F32, 3, PTX_GLOBAL, 0, 0, QUALIFIER),
	BAD(".v6.f16", ADD, F16, 6, PTX_GLOBAL, PTX_NOFTZ, 0, QUALIFIER),
	BAD(".v16.f16", ADD, F16, 16, PTX_GLOBAL, PTX_NOFTZ, 0, QUALIFIER),
	BAD(".v8.f32", ADD, F32, 8, PTX_GLOBAL, 0, 0, QUALIFIER),
	BAD(".v8.f16x2", ADD, F16X2, 8, PTX_GLOBAL, PTX_NOFTZ, 0, QUALIFIER),
	BAD(".v8.bf16x2", MAX, BF16X2, 8, PTX_GLOBAL, PTX_NOFTZ, 0, QUALIFIER),
	BAD(".v2.u32", ADD, U32, 2, PTX_GLOBAL, 0, 0, QUALIFIER),
	BAD(".v2.b32", EXCH, B32, 2, PTX_GLOBAL, 0, 0, QUALIFIER),
	BAD(".v2.f64", ADD, F64, 2, PTX_GLOBAL, 0, 0, QUALIFIER),
	BAD(".v2.b16 cas", CAS, B16, 2, PTX_GLOBAL, 0, 0, QUALIFIER),
	BAD("scalar min.f16", MIN, F16, 0, PTX_GLOBAL, PTX_NOFTZ, 0, QUALIFIER),
	BAD("scalar max.bf16", MAX, BF16, 0, PTX_GLOBAL, PTX_NOFTZ, 0, QUALIFIER),
	BAD("scalar max.bf16x2", MAX, BF16X2, 0, PTX_GLOBAL, PTX_NOFTZ, 0, QUALIFIER),
	BAD("scalar min.f16x2", MIN, F16X2, 0, PTX_GLOBAL, PTX_NOFTZ, 0, QUALIFIER),
	BAD(".v2.f32 shared::cta", ADD, F32, 2, PTX_SH_CTA, 0, 0, QUALIFIER),
	BAD(".v4.f16 shared::cluster", ADD, F16, 4, PTX_SH_CLU, PTX_NOFTZ, 0, QUALIFIER),
	BAD(".v2.bf16x2 shared::cta", MIN, BF16X2, 2, PTX_SH_CTA, PTX_NOFTZ, 0,
	    QUALIFIER),
	/* .noftz: required on half types, allowed only on scalar f32 */
	BAD("add.f16", ADD, F16, 0, PTX_GLOBAL, 0, 0, QUALIFIER),
	BAD("add.bf16", ADD, BF16, 0, PTX_GLOBAL, 0, 0, QUALIFIER),
	BAD("add.f16x2", ADD, F16X2, 0, PTX_SH_CTA, 0, 0, QUALIFIER),
	BAD("add.bf16x2", ADD, BF16X2, 0, PTX_GLOBAL, 0, 0, QUALIFIER),
	BAD("max.v8.f16", MAX, F16, 8, PTX_GLOBAL, 0, 0, QUALIFIER),
	BAD("add.noftz.u32", ADD, U32, 0, PTX_GLOBAL, PTX_NOFTZ, 0, QUALIFIER),
	BAD("add.noftz.f64", ADD, F64, 0, PTX_GLOBAL, PTX_NOFTZ, 0, QUALIFIER),
	BAD("cas.noftz.b32", CAS, B32, 0, PTX_GLOBAL, PTX_NOFTZ, 0, QUALIFIER),
	BAD("min.noftz.s64", MIN, S64, 0, PTX_GLOBAL, PTX_NOFTZ, 0, QUALIFIER),
	BAD("add.noftz.v2.f32", ADD, F32, 2, PTX_GLOBAL, PTX_NOFTZ, 0, QUALIFIER),
	BAD("add.noftz.v4.f32", ADD, F32, 4, PTX_GENERIC, PTX_NOFTZ, 0, QUALIFIER),
	/* cache hint: .global (generic) only, never on cas */
	BAD("hint shared::cta", ADD, U32, 0, PTX_SH_CTA, PTX_HINT, 0, QUALIFIER),
	BAD("hint shared::cluster", EXCH, B128, 0, PTX_SH_CLU, PTX_HINT, 0, QUALIFIER),
	BAD("hint cas.b32", CAS, B32, 0, PTX_GLOBAL, PTX_HINT, 0, QUALIFIER),
	BAD("hint cas.b16", CAS, B16, 0, PTX_GENERIC, PTX_HINT, 0, QUALIFIER),
	BAD("hint cas.b128", CAS, B128, 0, PTX_GLOBAL, PTX_HINT, 0, QUALIFIER),
	/* slot and surface */
	BADF("slot unbound", PTX_OP(ADD), PTX_TY(U32), SLOT, .slot = 9),
	BADF("slot 255 unbound", PTX_OP(ADD), PTX_TY(U32), SLOT, .slot = 255),
	BADF("typed surface", PTX_OP(ADD), PTX_TY(U32), SURFACE_KIND, .slot = 2),
	/* natural alignment of the whole access */
	BAD("b16 at 1", CAS, B16, 0, PTX_GLOBAL, 0, 1, ALIGN),
	BAD("f16 at 3", ADD, F16, 0, PTX_GLOBAL, PTX_NOFTZ, 3, ALIGN),
	BAD("b32 at 2", EXCH, B32, 0, PTX_GLOBAL, 0, 2, ALIGN),
	BAD("f16x2 at 2", ADD, F16X2, 0, PTX_GLOBAL, PTX_NOFTZ, 2, ALIGN),
	BAD("u64 at 4", ADD, U64, 0, PTX_GLOBAL, 0, 4, ALIGN),
	BAD("f64 at 12", ADD, F64, 0, PTX_GLOBAL, 0, 12, ALIGN),
	BAD("b128 at 8", EXCH, B128, 0, PTX_GLOBAL, 0, 8, ALIGN),
	BAD("b128 at 4", CAS, B128, 0, PTX_GLOBAL, 0, 4, ALIGN),
	BAD(".v2.f16 at 2", ADD, F16, 2, PTX_GLOBAL, PTX_NOFTZ, 2, ALIGN),
	BAD(".v4.f16 at 4", ADD, F16, 4, PTX_GLOBAL, PTX_NOFTZ, 4, ALIGN),
	BAD(".v8.f16 at 8", MIN, F16, 8, PTX_GLOBAL, PTX_NOFTZ, 8, ALIGN),
	BAD(".v2.f32 at 4", ADD, F32, 2, PTX_GLOBAL, 0, 4, ALIGN),
	BAD(".v4.f32 at 8", ADD, F32, 4, PTX_GLOBAL, 0, 8, ALIGN),
	BAD(".v2.bf16x2 at 4", MAX, BF16X2, 2, PTX_GLOBAL, PTX_NOFTZ, 4, ALIGN),
	BAD(".v4.bf16x2 at 8", ADD, BF16X2, 4, PTX_GLOBAL, PTX_NOFTZ, 8, ALIGN),
	/* misaligned and out of bounds: the alignment is reported */
	BAD("b32 at 4098", EXCH, B32, 0, PTX_GLOBAL, 0, 4098, ALIGN),
	/* out of bounds (the surface is 4096 bytes) */
	BAD("b32 at 4096", EXCH, B32, 0, PTX_GLOBAL, 0, 4096, BOUNDS),
	BAD("b16 at 4096", CAS, B16, 0, PTX_GLOBAL, 0, 4096, BOUNDS),
	BAD("b128 at 4096", EXCH, B128, 0, PTX_GLOBAL, 0, 4096, BOUNDS),
	BAD(".v8.bf16 at 4096", ADD, BF16, 8, PTX_GLOBAL, PTX_NOFTZ, 4096, BOUNDS),
	BAD("u64 at 2^40", ADD, U64, 0, PTX_GLOBAL, 0, 1ull << 40, BOUNDS),
	BAD("b128 at 2^64 - 16", EXCH, B128, 0, PTX_GLOBAL, 0, ~0ull - 15, BOUNDS),
	BAD("u32 at 2^64 - 4", ADD, U32, 0, PTX_GLOBAL, 0, ~0ull - 3, BOUNDS),
	/* the order of the checks: the first failing one is reported */
	BADF("pad and op 0", 0, PTX_TY(U32), RESERVED, .pad = 1),
	BADF("op 0 and type 0", 0, 0, OP),
	BAD("add.b32 in space 4", ADD, B32, 0, 4, 0, 0, TYPE),
	BAD("space 4 and no .noftz", ADD, F16, 0, 4, 0, 0, QUALIFIER),
	BADF("space 4 and policy", PTX_OP(ADD), PTX_TY(U32), QUALIFIER,
	     .space = 4, .cache_policy = 1),
	BADF("c and unbound slot", PTX_OP(ADD), PTX_TY(U32), RESERVED, .slot = 9, .c[0] = 1),
	BADF("unbound and misaligned", PTX_OP(ADD), PTX_TY(U32), SLOT, .slot = 9, .addr = 2),
	BADF("typed and misaligned", PTX_OP(ADD), PTX_TY(U32), SURFACE_KIND, .slot = 2, .addr = 2),
	/* packet sizes */
	BADF("size 64", PTX_OP(ADD), PTX_TY(U32), PACKET_SIZE, .size = 64),
	BADF("size 80", PTX_OP(ADD), PTX_TY(U32), PACKET_SIZE, .size = 80),
	BADF("size 8", PTX_OP(ADD), PTX_TY(U32), PACKET_SIZE, .size = 8),
};

/*
 * Every rejection reason, each packet at index 1 after a valid add.u32 at
 * index 0 that must not run: -EINVAL, the reason, nothing written. Slot 0
 * is a 4096-byte buffer, slot 2 a typed surface.
 */
TEST(ptx_rejected)
{
	const struct drm_vatom_typed_desc td = {
		.dim = DRM_VATOM_TYPED_1D, .format = DRM_VATOM_FORMAT_R32,
		.width = 16, .height = 1, .depth = 1, .array_size = 1, .levels = 1,
	};
	struct drm_vatom_binding bind[2];
	struct drm_vatom_ptx p;
	struct vt_stream s;
	__u32 *map, *tmap, i, p0;
	int fd;

	VT_OPEN(fd);
	memset(bind, 0, sizeof(bind));
	VT_BUFFER(fd, 4096, bind[0].handle, map);
	memset(map, 0, 4096);
	bind[1].slot = 2;
	ASSERT_EQ(0, vt_typed_create(fd, &td, &bind[1].handle, NULL));
	tmap = vt_map(fd, bind[1].handle, 4096);
	ASSERT_NE(NULL, tmap);

	vt_stream_init(&s);
	vt_ptx_init(&p, PTX_OP(ADD), PTX_TY(U32), 0, PTX_GLOBAL, 0);
	p.b[0] = 1;
	vt_add_ptx(&s, &p);
	p0 = s.size;
	for (i = 0; i < VT_ARRAY_SIZE(vt_ptx_bad_rows); i++) {
		const struct vt_ptx_pkt *r = &vt_ptx_bad_rows[i];
		struct drm_vatom_ptx *q;

		s.size = p0;
		s.count = 1;
		vt_ptx_pkt(&p, r);
		q = vt_add_raw(&s, &p, sizeof(p));
		if (r->size) {
			q->hdr.size = r->size;
			/* A longer packet: zeros after it, inside the stream. */
			if (r->size > sizeof(p)) {
				memset((char *)s.buf + s.size, 0, r->size - sizeof(p));
				s.size += r->size - sizeof(p);
			}
		}
		vt_expect_reject(_metadata, fd, &s, bind, 2, EINVAL, 1, r->reason);
		EXPECT_EQ(0, map[0]) TH_LOG("%s: rejected but packet 0 ran", r->what);
		if (!_metadata->passed) {
			TH_LOG("failed at row %u: %s", i, r->what);
			break;
		}
	}
	EXPECT_EQ(-1, vt_find_ne32(map, 0, 1024, 0));
	EXPECT_EQ(-1, vt_find_ne32(tmap, 0, 16, 0));
	munmap(tmap, 4096);
	munmap(map, 4096);
	close(fd);
}

/*
 * Bounds at the end of a surface whose size is not a multiple of 4 (98
 * bytes): the last in-bounds b16 (96), u32 (92), b64 (80) and b128 (64)
 * work and touch nothing past byte 97; b16 at 98 and u32, b64, b128 and
 * .v8.f16 at 96 (all aligned) are ERR_BOUNDS.
 */
TEST(ptx_bounds_edge)
{
	/* The last b16, b32, b64 and b128 in bounds: cas, then exch. */
	static const struct vt_ptx_pkt fit[] = {
		{ .op = PTX_OP(CAS), .type = PTX_TY(B16), .space = PTX_GLOBAL,
		  .addr = 96, .b = { 0x1111 }, .c = { 0x2222 } },
		{ .op = PTX_OP(EXCH), .type = PTX_TY(B32), .space = PTX_GLOBAL,
		  .addr = 92, .b = { 0x33333333 } },
		{ .op = PTX_OP(EXCH), .type = PTX_TY(B64), .space = PTX_GLOBAL,
		  .addr = 80, .b = { 0x4444444444444444 } },
		{ .op = PTX_OP(EXCH), .type = PTX_TY(B128), .space = PTX_GLOBAL,
		  .addr = 64, .b = { 0x5555555555555555, 0x6666666666666666 } },
	};
	/* One element further each: out of bounds, nothing runs. */
	static const struct vt_ptx_pkt past[] = {
		BAD("b16 at 98", CAS, B16, 0, PTX_GLOBAL, 0, 98, BOUNDS),
		BAD("b32 at 96", EXCH, B32, 0, PTX_GLOBAL, 0, 96, BOUNDS),
		BAD("b64 at 96", EXCH, B64, 0, PTX_GLOBAL, 0, 96, BOUNDS),
		BAD("b128 at 96", EXCH, B128, 0, PTX_GLOBAL, 0, 96, BOUNDS),
		BAD(".v8.f16 at 96", ADD, F16, 8, PTX_GLOBAL, PTX_NOFTZ, 96, BOUNDS),
	};
	struct drm_vatom_binding bind = { .slot = 0 };
	struct drm_vatom_ptx p;
	struct vt_stream s;
	__u64 res[6];
	__u32 i;
	__u8 *map;
	int fd;

	VT_OPEN(fd);
	VT_BUFFER(fd, 98, bind.handle, map);
	memset(map, 0x11, 4096);

	vt_stream_init(&s);
	for (i = 0; i < VT_ARRAY_SIZE(fit); i++) {
		vt_ptx_pkt(&p, &fit[i]);
		vt_add_ptx(&s, &p);
	}
	memset(res, VT_POISON, sizeof(res));
	vt_expect_ok(_metadata, fd, &s, &bind, 1, res, sizeof(res));
	EXPECT_EQ(0x1111, res[0]);
	EXPECT_EQ(0x11111111, res[1]);
	EXPECT_EQ(0x1111111111111111, res[2]);
	EXPECT_EQ(0x1111111111111111, res[3]);
	EXPECT_EQ(0x1111111111111111, res[4]);
	EXPECT_EQ(0x2222, vt_rd32(map, 96) & 0xffff);
	EXPECT_EQ(0x33333333, vt_rd32(map, 92));
	EXPECT_EQ(0x4444444444444444, vt_rd64(map, 80));
	EXPECT_EQ(0x6666666666666666, vt_rd64(map, 72));
	EXPECT_EQ(-1, vt_find_ne8(map, 98, 4096, 0x11))
		TH_LOG("bytes past the surface changed");

	/* Each after an add.u32 that must not run either. */
	vt_stream_init(&s);
	vt_ptx_init(&p, PTX_OP(ADD), PTX_TY(U32), 0, PTX_GLOBAL, 0);
	p.b[0] = 1;
	vt_add_ptx(&s, &p);
	for (i = 0; i < VT_ARRAY_SIZE(past); i++) {
		vt_ptx_pkt(&p, &past[i]);
		vt_add_ptx(&s, &p);
		vt_expect_reject(_metadata, fd, &s, &bind, 1, EINVAL, 1,
				 past[i].reason);
		if (!_metadata->passed) {
			TH_LOG("failed at %s", past[i].what);
			break;
		}
		s.size -= sizeof(p);
	}
	EXPECT_EQ(0x2222, vt_rd32(map, 96) & 0xffff);
	EXPECT_EQ(0x11111111, vt_rd32(map, 0));
	munmap(map, 4096);
	close(fd);
}

/*
 * Results into a result surface at an offset: each packet's region (8 or
 * 16 bytes) in stream order, padding written as zero, nothing outside the
 * regions touched; the same stream into user memory gives the same bytes.
 */
TEST(ptx_result_surface)
{
	static const struct vt_ptx_pkt pkts[] = {
		{ .op = PTX_OP(CAS), .type = PTX_TY(B16), .space = PTX_GLOBAL,
		  .addr = 2, .b = { 0x1234 }, .c = { 0xbeef } },
		{ .op = PTX_OP(EXCH), .type = PTX_TY(B128), .space = PTX_SH_CLU,
		  .addr = 16, .b = { 1, 2 } },
		{ .op = PTX_OP(ADD), .type = PTX_TY(F16), .vec = 8, .space = PTX_GLOBAL,
		  .flags = PTX_NOFTZ, .addr = 32,
		  .b = { H4(0x3c00, 0x4000, 0xbc00, 0), H4(0, 0, 0, 0x3c00) } },
		{ .op = PTX_OP(INC), .type = PTX_TY(U32), .space = PTX_SH_CTA,
		  .addr = 64, .b = { 7 } },
	};
	struct drm_vatom_binding bind = { .slot = 0 };
	struct drm_vatom_submit args;
	struct drm_vatom_ptx p;
	struct vt_stream s;
	__u8 *map, *rmap;
	__u64 want[7];
	__u32 i, rh;
	int fd;

	VT_OPEN(fd);
	VT_BUFFER(fd, 4096, bind.handle, map);
	VT_BUFFER(fd, 4096, rh, rmap);
	memset(map, 0, 4096);
	memset(rmap, VT_POISON, 4096);
	/* 0: b16 0x1234 at 2; 16: b128; 32: 8 halves 1.0; 64: u32 7 */
	map[2] = 0x34;
	map[3] = 0x12;
	memset(map + 16, 0x77, 16);
	{
		static const __u16 one[8] = { 0x3c00, 0x3c00, 0x3c00, 0x3c00,
					      0x3c00, 0x3c00, 0x3c00, 0x3c00 };

		memcpy(map + 32, one, 16);
	}
	map[64] = 7;

	vt_stream_init(&s);
	for (i = 0; i < VT_ARRAY_SIZE(pkts); i++) {
		vt_ptx_pkt(&p, &pkts[i]);
		vt_add_ptx(&s, &p);
	}
	ASSERT_EQ(8 + 16 + 16 + 8, s.results);

	vt_submit_args(&args, &s, &bind, 1, NULL, 64);
	args.result_handle = rh;
	args.result_offset = 24;
	ASSERT_EQ(0, vt_submit(fd, &args)) TH_LOG("errno %d reason %u index %u",
						  errno, args.error_reason,
						  args.error_index);
	EXPECT_EQ(48, args.results_needed);
	want[0] = 0x1234;
	want[1] = 0x7777777777777777;
	want[2] = 0x7777777777777777;
	want[3] = H4(0x3c00, 0x3c00, 0x3c00, 0x3c00);
	want[4] = H4(0x3c00, 0x3c00, 0x3c00, 0x3c00);
	want[5] = 7;
	EXPECT_EQ(0, memcmp(rmap + 24, want, 48));
	EXPECT_EQ(-1, vt_find_ne8(rmap, 0, 24, VT_POISON));
	EXPECT_EQ(-1, vt_find_ne8(rmap, 72, 4096, VT_POISON));
	/* Memory: cas stored, exch stored, 1 + {1, 2, -1, 0, ..., 1}, inc wrapped. */
	EXPECT_EQ(0xbeef, vt_rd32(map, 0) >> 16);
	EXPECT_EQ(1, vt_rd64(map, 16));
	EXPECT_EQ(2, vt_rd64(map, 24));
	EXPECT_EQ(H4(0x4000, 0x4200, 0x0000, 0x3c00), vt_rd64(map, 32));
	EXPECT_EQ(H4(0x3c00, 0x3c00, 0x3c00, 0x4000), vt_rd64(map, 40));
	EXPECT_EQ(0, vt_rd32(map, 64));
	munmap(rmap, 4096);
	munmap(map, 4096);
	close(fd);
}
