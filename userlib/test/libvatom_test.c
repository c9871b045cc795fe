// SPDX-License-Identifier: MIT
/*
 * libvatom test: TAP output ("ok N - name", plan at the end).
 *
 *   libvatom_test          host checks + device checks (run in the VM,
 *                          against the real vatom.ko)
 *   libvatom_test --host   host checks only: the builder's packet bytes
 *                          against hand-written layouts, result layout,
 *                          argument checking; no device needed
 *
 * Expected values are hand-derived from the ISA documents and the UAPI
 * (written out as literal tables below), never produced by the library or
 * the kernel under test.
 *
 * Copyright (C) 2026 The vatom developers
 */
#define _GNU_SOURCE	/* sched_getcpu() */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <linux/dma-buf.h>
#include <xf86drm.h>

#include <vatom.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Little-endian byte images, for the hand-written packet layouts. */
#define LE16(x) ((x) & 0xff), (((x) >> 8) & 0xff)
#define LE32(x) LE16((x) & 0xffff), LE16(((x) >> 16) & 0xffff)
#define LE64(x) LE32((uint32_t)((uint64_t)(x) & 0xffffffffu)), \
		LE32((uint32_t)((uint64_t)(x) >> 32))

static int fails;		/* failed expectations of the current test */
static const char *skip_reason;	/* set by a test that skips */

#define EXPECT(cond) do {						\
	if (!(cond)) {							\
		printf("#   %s:%d: expected %s\n", __FILE__, __LINE__,	\
		       #cond);						\
		fails++;						\
	}								\
} while (0)

#define EXPECT_EQ(a, b) do {						\
	uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);		\
	if (a_ != b_) {							\
		printf("#   %s:%d: %s == 0x%" PRIx64 ", expected %s == 0x%" \
		       PRIx64 "\n", __FILE__, __LINE__, #a, a_, #b, b_); \
		fails++;						\
	}								\
} while (0)

/* Fatal inside a test: the rest of it cannot run. */
#define REQUIRE(cond) do {						\
	if (!(cond)) {							\
		printf("#   %s:%d: required %s\n", __FILE__, __LINE__,	\
		       #cond);						\
		fails++;						\
		goto out;						\
	}								\
} while (0)

static void skip(const char *why)
{
	skip_reason = why;
}

/* Compare an encoded packet with its hand-written byte image. */
static void expect_bytes(const void *got, size_t got_len,
			 const uint8_t *want, size_t want_len)
{
	const uint8_t *g = got;
	size_t i;

	if (!got) {
		printf("#   no packet\n");
		fails++;
		return;
	}
	if (got_len != want_len) {
		printf("#   packet is %zu bytes, expected %zu\n", got_len,
		       want_len);
		fails++;
	}
	for (i = 0; i < got_len && i < want_len; i++) {
		if (g[i] != want[i]) {
			printf("#   byte %zu is 0x%02x, expected 0x%02x\n", i,
			       g[i], want[i]);
			fails++;
			return;
		}
	}
}

/* ------------------------------------------------------------------------ */
/* Host checks: the builder                                                  */
/* ------------------------------------------------------------------------ */

static void host_version(void)
{
	char want[32];

	snprintf(want, sizeof(want), "%d.%d.%d", VATOM_VERSION_MAJOR,
		 VATOM_VERSION_MINOR, VATOM_VERSION_PATCH);
	EXPECT_EQ(vatom_version(), VATOM_VERSION_NUMBER);
	EXPECT(!strcmp(vatom_version_string(), want));
	EXPECT(!strcmp(VATOM_VERSION_STRING, want));
	EXPECT(VATOM_CHECK_VERSION(0, 1, 0));
	EXPECT(!VATOM_CHECK_VERSION(VATOM_VERSION_MAJOR + 1, 0, 0));
}

/* DWORD_ATOMIC.ADD (M1, 4) T255 offsets src0 V0 dst */
static void host_dword_atomic_bytes(void)
{
	static const uint8_t want[] = {
		LE32(1), LE32(64),		/* hdr: VISA, 64 bytes */
		0x7d, 0x00, 0x02, 0x05,		/* opcode, op ADD, (M1, 4), T255 */
		0x00, 0, 0, 0,			/* type UD, pad */
		LE32(0x51),			/* ADDR | SRC0 | DST */
		LE32(0x0f),			/* emask */
		LE32(0),			/* pred */
		LE32(0),			/* flags */
		LE32(0), LE32(4), LE32(8), LE32(12),	/* offsets */
		LE32(1), LE32(2), LE32(3), LE32(4),	/* src0 */
	};
	const uint32_t offs[] = { 0, 4, 8, 12 }, src0[] = { 1, 2, 3, 4 };
	struct vatom_visa_exec ex = { .size = 4, .mask_ctrl = VATOM_M1,
				      .emask = 0xf };
	struct vatom_batch *b;
	const void *pkt;
	size_t len;
	int res;

	REQUIRE(!vatom_batch_create(NULL, 0, &b));
	res = vatom_prep_dword_atomic(b, &ex, VATOM_VISA_ADD, VATOM_VISA_DST,
				      VATOM_T255, offs, src0, NULL);
	EXPECT_EQ(res, 0);
	pkt = vatom_batch_packet(b, res, &len);
	expect_bytes(pkt, len, want, sizeof(want));
	EXPECT_EQ(vatom_result_size(b, res), 16);
	EXPECT_EQ(vatom_batch_results_size(b), 16);
	EXPECT_EQ(vatom_batch_packets(b), 1);
	vatom_batch_stream(b, &len);
	EXPECT_EQ(len, sizeof(want));
	vatom_batch_destroy(b);
out:;
}

/* (P) DWORD_ATOMIC.CMPXCHG.16 (M2_NM, 2) T7 offsets src0 src1 V0 */
static void host_dword_atomic16_bytes(void)
{
	static const uint8_t want[] = {
		LE32(1), LE32(56),
		0x7d, 0x27, 0x91, 0x07,		/* CMPXCHG|.16, (M2_NM, 2), slot 7 */
		0x00, 0, 0, 0,			/* UD */
		LE32(0x31),			/* ADDR | SRC0 | SRC1 */
		LE32(0x12345678),		/* emask (ignored by _NM) */
		LE32(0x2),			/* pred */
		LE32(1),			/* PREDICATED */
		LE32(2), LE32(6),		/* offsets */
		LE32(0x1111), LE32(0x2222),	/* src0 */
		LE32(0x3333), LE32(0x4444),	/* src1 */
	};
	const uint32_t offs[] = { 2, 6 }, src0[] = { 0x1111, 0x2222 },
		       src1[] = { 0x3333, 0x4444 };
	struct vatom_visa_exec ex = { .size = 2, .mask_ctrl = VATOM_M2_NM,
				      .emask = 0x12345678, .predicated = true,
				      .pred = 0x2 };
	struct vatom_batch *b;
	const void *pkt;
	size_t len;
	int res;

	REQUIRE(!vatom_batch_create(NULL, 0, &b));
	res = vatom_prep_dword_atomic(b, &ex, VATOM_VISA_CMPXCHG, VATOM_VISA_16,
				      7, offs, src0, src1);
	EXPECT_EQ(res, 0);
	pkt = vatom_batch_packet(b, res, &len);
	expect_bytes(pkt, len, want, sizeof(want));
	EXPECT_EQ(vatom_result_size(b, res), 0);	/* Dst is V0 */
	EXPECT_EQ(vatom_batch_results_size(b), 0);
	vatom_batch_destroy(b);
out:;
}

/* DWORD_ATOMIC.IMAX (M3, 2) T0 offsets src0 V0 dst, Q data */
static void host_dword_atomic64_bytes(void)
{
	static const uint8_t want[] = {
		LE32(1), LE32(56),
		0x7d, 0x0c, 0x21, 0x00,		/* IMAX, (M3, 2), T0 */
		0x04, 0, 0, 0,			/* Q */
		LE32(0x51),
		LE32(0x300),
		LE32(0), LE32(0),
		LE32(8), LE32(16),		/* offsets */
		LE64(0xffffffff00000001ull), LE64(5),	/* src0 */
	};
	const uint32_t offs[] = { 8, 16 };
	const uint64_t src0[] = { 0xffffffff00000001ull, 5 };
	struct vatom_visa_exec ex = { .size = 2, .mask_ctrl = VATOM_M3,
				      .emask = 0x300 };
	struct vatom_batch *b;
	const void *pkt;
	size_t len;
	int res;

	REQUIRE(!vatom_batch_create(NULL, 0, &b));
	res = vatom_prep_dword_atomic64(b, &ex, VATOM_VISA_IMAX, VATOM_VISA_DST,
					VATOM_T0, offs, src0, NULL);
	EXPECT_EQ(res, 0);
	pkt = vatom_batch_packet(b, res, &len);
	expect_bytes(pkt, len, want, sizeof(want));
	EXPECT_EQ(vatom_result_size(b, res), 16);
	vatom_batch_destroy(b);
out:;
}

/* TYPED_ATOMIC.INC (M1, 2) T9 u V0 V0 lod V0 V0 dst, and a type override */
static void host_typed_atomic_bytes(void)
{
	static const uint8_t want[] = {
		LE32(1), LE32(48),
		0x73, 0x02, 0x01, 0x09,		/* INC, (M1, 2), slot 9 */
		0x00, 0, 0, 0,
		LE32(0x49),			/* ADDR | LOD | DST */
		LE32(0x3),
		LE32(0), LE32(0),
		LE32(3), LE32(4),		/* u */
		LE32(0), LE32(1),		/* lod */
	};
	const uint32_t u[] = { 3, 4 }, lod[] = { 0, 1 }, src0[] = { 1, 1 };
	struct vatom_visa_exec ex = { .size = 2, .emask = 0x3 };
	const struct drm_vatom_visa *p;
	struct vatom_batch *b;
	const void *pkt;
	size_t len;
	int res;

	REQUIRE(!vatom_batch_create(NULL, 0, &b));
	res = vatom_prep_typed_atomic(b, &ex, VATOM_VISA_INC, VATOM_VISA_DST, 9,
				      u, NULL, NULL, lod, NULL, NULL);
	EXPECT_EQ(res, 0);
	pkt = vatom_batch_packet(b, res, &len);
	expect_bytes(pkt, len, want, sizeof(want));
	EXPECT_EQ(vatom_result_size(b, res), 8);
	/* VATOM_VISA_TYPE() overrides the op's default type. */
	res = vatom_prep_typed_atomic(b, &ex, VATOM_VISA_PREDEC,
				      VATOM_VISA_TYPE(DRM_VATOM_VISA_TYPE_D), 9,
				      u, NULL, NULL, NULL, src0, NULL);
	EXPECT_EQ(res, 1);
	p = vatom_batch_packet(b, res, &len);
	REQUIRE(p);
	EXPECT_EQ(p->type, DRM_VATOM_VISA_TYPE_D);
	EXPECT_EQ(p->operands, 0x11);		/* ADDR | SRC0 */
	EXPECT_EQ(len, 48);
	/* Default types: IMIN D, FMAX F, CMPXCHG UD. */
	vatom_batch_reset(b);
	vatom_prep_typed_atomic(b, &ex, VATOM_VISA_IMIN, 0, 9, u, NULL, NULL,
				NULL, src0, NULL);
	vatom_prep_dword_atomic(b, &ex, VATOM_VISA_FMAX, 0, 9, u, src0, NULL);
	vatom_prep_dword_atomic(b, &ex, VATOM_VISA_CMPXCHG, 0, 9, u, src0, src0);
	p = vatom_batch_packet(b, 0, NULL);
	REQUIRE(p);
	EXPECT_EQ(p->type, DRM_VATOM_VISA_TYPE_D);
	p = vatom_batch_packet(b, 1, NULL);
	REQUIRE(p);
	EXPECT_EQ(p->type, DRM_VATOM_VISA_TYPE_F);
	p = vatom_batch_packet(b, 2, NULL);
	REQUIRE(p);
	EXPECT_EQ(p->type, DRM_VATOM_VISA_TYPE_UD);
	vatom_batch_destroy(b);
out:;
}

/* (P) ADDC (M1, 4) dst carry src0 imm, and ADDC (32) */
static void host_addc_bytes(void)
{
	static const uint8_t want[] = {
		LE32(1), LE32(56),
		0x49, 0x00, 0x02, 0x00,		/* ADDC, op 0, (M1, 4), surface 0 */
		0x00, 0, 0, 0,			/* UD */
		LE32(0x150),			/* SRC0 | DST | SRC1_IMM */
		LE32(0xf), LE32(0x5), LE32(1),	/* emask, pred, PREDICATED */
		LE32(0xffffffff), LE32(1), LE32(2), LE32(3),	/* src0 */
		LE32(1), LE32(0),		/* src1: one immediate, padded */
	};
	const uint32_t src0[] = { 0xffffffff, 1, 2, 3 }, one = 1;
	uint32_t big[32] = { 0 };
	struct vatom_visa_exec ex = { .size = 4, .emask = 0xf,
				      .predicated = true, .pred = 0x5 };
	struct vatom_batch *b;
	const void *pkt;
	size_t len;
	int res;

	REQUIRE(!vatom_batch_create(NULL, 0, &b));
	res = vatom_prep_addc(b, &ex, VATOM_ADDC_SRC1_IMM, src0, &one);
	EXPECT_EQ(res, 0);
	pkt = vatom_batch_packet(b, res, &len);
	expect_bytes(pkt, len, want, sizeof(want));
	/* dst[4] then carry[4]: 16 + 16 bytes. */
	EXPECT_EQ(vatom_result_size(b, res), 16);
	EXPECT_EQ(vatom_batch_results_size(b), 32);
	ex = VATOM_VISA_EXEC(32);
	res = vatom_prep_addc(b, &ex, 0, big, big);
	EXPECT_EQ(res, 1);
	vatom_batch_packet(b, res, &len);
	EXPECT_EQ(len, 32 + 128 + 128);
	EXPECT_EQ(*((const uint8_t *)vatom_batch_packet(b, res, NULL) + 10), 0x05);
	EXPECT_EQ(vatom_result_offset(b, res), 32);
	EXPECT_EQ(vatom_batch_results_size(b), 32 + 256);
	vatom_batch_destroy(b);
out:;
}

/* atom.acq_rel.sys.global.cas.b32 d, [slot 3 + 0x40], 5, 9 */
static void host_ptx_bytes(void)
{
	static const uint8_t want[] = {
		LE32(2), LE32(72),		/* hdr: PTX, 72 bytes */
		4, 2, 0, 1, 3, 3, 3, 0,		/* cas b32 global acq_rel sys, slot 3 */
		LE32(0), LE32(0),		/* flags, pad2 */
		LE64(0x40),			/* addr */
		LE64(0),			/* cache_policy */
		LE64(5), LE64(0),		/* b */
		LE64(9), LE64(0),		/* c */
	};
	struct vatom_ptx_atom a = {
		.op = DRM_VATOM_PTX_OP_CAS, .type = DRM_VATOM_PTX_TYPE_B32,
		.space = DRM_VATOM_PTX_SPACE_GLOBAL,
		.sem = DRM_VATOM_PTX_SEM_ACQ_REL,
		.scope = DRM_VATOM_PTX_SCOPE_SYS, .slot = 3, .addr = 0x40,
		.b.u32 = { 5 }, .c.u32 = { 9 },
	};
	static const uint8_t want_v8[] = {
		LE32(2), LE32(72),
		6, 9, 8, 1, 0, 0, 1, 0,		/* add f16 v8 global, slot 1 */
		LE32(3), LE32(0),		/* NOFTZ | CACHE_HINT */
		LE64(0x100),
		LE64(0xabcdef0123456789ull),
		LE16(0x3c00), LE16(0x4000), LE16(0x4200), LE16(0x4400),
		LE16(0x4500), LE16(0x4600), LE16(0x4700), LE16(0x4800),
		LE64(0), LE64(0),
	};
	struct vatom_ptx_atom v8 = {
		.op = DRM_VATOM_PTX_OP_ADD, .type = DRM_VATOM_PTX_TYPE_F16,
		.vec = 8, .space = DRM_VATOM_PTX_SPACE_GLOBAL, .slot = 1,
		.flags = DRM_VATOM_PTX_NOFTZ | DRM_VATOM_PTX_CACHE_HINT,
		.addr = 0x100, .cache_policy = 0xabcdef0123456789ull,
		/* 1.0, 2.0, 3.0 ... 8.0 in binary16 */
		.b.u16 = { 0x3c00, 0x4000, 0x4200, 0x4400,
			   0x4500, 0x4600, 0x4700, 0x4800 },
	};
	struct vatom_batch *b;
	const void *pkt;
	size_t len;
	int res;

	REQUIRE(!vatom_batch_create(NULL, 0, &b));
	res = vatom_prep_ptx_atom(b, &a);
	EXPECT_EQ(res, 0);
	pkt = vatom_batch_packet(b, res, &len);
	expect_bytes(pkt, len, want, sizeof(want));
	EXPECT_EQ(vatom_result_size(b, res), 4);
	res = vatom_prep_ptx_atom(b, &v8);
	EXPECT_EQ(res, 1);
	pkt = vatom_batch_packet(b, res, &len);
	expect_bytes(pkt, len, want_v8, sizeof(want_v8));
	EXPECT_EQ(vatom_result_size(b, res), 16);
	EXPECT_EQ(vatom_result_offset(b, res), 8);
	vatom_batch_destroy(b);
out:;
}

/* Access sizes: PTX ISA type widths times vector length. */
static void host_ptx_access_size(void)
{
	static const struct { unsigned int type, vec; int size; } t[] = {
		{ DRM_VATOM_PTX_TYPE_B16, 0, 2 },
		{ DRM_VATOM_PTX_TYPE_B32, 0, 4 },
		{ DRM_VATOM_PTX_TYPE_B64, 0, 8 },
		{ DRM_VATOM_PTX_TYPE_B128, 0, 16 },
		{ DRM_VATOM_PTX_TYPE_U32, 0, 4 },
		{ DRM_VATOM_PTX_TYPE_U64, 0, 8 },
		{ DRM_VATOM_PTX_TYPE_S32, 0, 4 },
		{ DRM_VATOM_PTX_TYPE_S64, 0, 8 },
		{ DRM_VATOM_PTX_TYPE_F16, 0, 2 },
		{ DRM_VATOM_PTX_TYPE_BF16, 0, 2 },
		{ DRM_VATOM_PTX_TYPE_F16X2, 0, 4 },
		{ DRM_VATOM_PTX_TYPE_BF16X2, 0, 4 },
		{ DRM_VATOM_PTX_TYPE_F32, 0, 4 },
		{ DRM_VATOM_PTX_TYPE_F64, 0, 8 },
		{ DRM_VATOM_PTX_TYPE_F16, 2, 4 },
		{ DRM_VATOM_PTX_TYPE_F16, 4, 8 },
		{ DRM_VATOM_PTX_TYPE_BF16, 8, 16 },
		{ DRM_VATOM_PTX_TYPE_F32, 2, 8 },
		{ DRM_VATOM_PTX_TYPE_F32, 4, 16 },
		{ DRM_VATOM_PTX_TYPE_F16X2, 4, 16 },
		{ DRM_VATOM_PTX_TYPE_F32, 8, -EINVAL },
		{ DRM_VATOM_PTX_TYPE_B128, 2, -EINVAL },
		{ DRM_VATOM_PTX_TYPE_F32, 3, -EINVAL },
		{ 0, 0, -EINVAL },
		{ 15, 0, -EINVAL },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		int got = vatom_ptx_access_size(t[i].type, t[i].vec);

		if (got != t[i].size) {
			printf("#   type %u vec %u: %d, expected %d\n",
			       t[i].type, t[i].vec, got, t[i].size);
			fails++;
		}
	}
}

static void host_noc_bytes(void)
{
	static const uint8_t want[] = {
		LE32(3), LE32(64),		/* hdr: NOC, 64 bytes */
		2, 1, 3, 4,			/* slot, noc, x, y */
		LE32(0x1004), LE32(0x00000a30), LE32(0),	/* targ lo/mid/hi */
		LE32(0x2000), LE32(0x00000a30), LE32(0),	/* ret lo/mid/hi */
		LE32(5u << 10),			/* packet tag: transaction 5 */
		LE32(0x11),			/* ctrl: atomic | RESP_MARKED */
		LE32(0x4255),			/* CAS ofs 1 cmp 5 set 9 */
		LE32(0xcafef00d),		/* at_data */
		LE32(0), LE32(0), LE32(0),	/* flags, pad */
	};
	struct vatom_noc_req req = {
		.slot = 2, .noc = 1, .x = 3, .y = 4,
		.targ_addr_lo = 0x1004, .targ_addr_mid = 0xa30,
		.ret_addr_lo = 0x2000, .ret_addr_mid = 0xa30,
		.packet_tag = 5u << 10, .ctrl = 0x11,
		.at_len_be = vatom_noc_at_cas(1, 5, 9),
		.at_data = 0xcafef00d,
	};
	struct vatom_batch *b;
	const void *pkt;
	size_t len;
	int res;

	REQUIRE(!vatom_batch_create(NULL, 0, &b));
	res = vatom_prep_noc(b, &req);
	EXPECT_EQ(res, 0);
	pkt = vatom_batch_packet(b, res, &len);
	expect_bytes(pkt, len, want, sizeof(want));
	EXPECT_EQ(vatom_result_size(b, res), 0);
	EXPECT_EQ(vatom_batch_results_size(b), 0);
	vatom_batch_destroy(b);
out:;
}

/* The ready-made encodings of shared/spec/noc-atomics.md section 1.3. */
static void host_noc_at_len_be(void)
{
	EXPECT_EQ(vatom_noc_at_increment(1, 31), 0x0000107D);
	EXPECT_EQ(vatom_noc_at_increment(0, 7), 0x0000101C);
	EXPECT_EQ(vatom_noc_at_cas(0, 5, 9), 0x00004254);
	EXPECT_EQ(vatom_noc_at_swap_mask(0x0c), 0x00003030);
	EXPECT_EQ(vatom_noc_at_swap_index6(2), 0x00006006);
	EXPECT_EQ(vatom_noc_at_swap_index7(2), 0x00007008);
	EXPECT_EQ(vatom_noc_at_swap_index10(3), 0x0000A303);
	EXPECT_EQ(vatom_noc_at_zaamo(VATOM_NOC_AMOMAXU, 0), 0x0000AF00);
	EXPECT_EQ(vatom_noc_at_acc(2), 0x00009002);
	/* More, from the field tables of section 1.2. */
	EXPECT_EQ(vatom_noc_at_zaamo(VATOM_NOC_AMOADD, 3), 0x0000A803);
	EXPECT_EQ(vatom_noc_at_cas(3, 15, 15), 0x000043FF);	/* [9:0] all set */
	EXPECT_EQ(vatom_noc_at_swap_mask(0xff), 0x000033FC);
	EXPECT_EQ(vatom_noc_at_acc(15), 0x0000900F);
	/* Out-of-field arguments give the reserved opcode 0. */
	EXPECT_EQ(vatom_noc_at_increment(4, 0), 0);
	EXPECT_EQ(vatom_noc_at_increment(0, 32), 0);
	EXPECT_EQ(vatom_noc_at_cas(0, 16, 0), 0);
	EXPECT_EQ(vatom_noc_at_cas(0, 0, 16), 0);
	EXPECT_EQ(vatom_noc_at_swap_mask(0x100), 0);
	EXPECT_EQ(vatom_noc_at_swap_index6(4), 0);
	EXPECT_EQ(vatom_noc_at_swap_index7(4), 0);
	EXPECT_EQ(vatom_noc_at_swap_index10(4), 0);
	EXPECT_EQ(vatom_noc_at_zaamo(8, 0), 0);
	EXPECT_EQ(vatom_noc_at_acc(16), 0);
}

/* Target/return coordinates, by hand from the UAPI's field positions. */
static void host_noc_coordinates(void)
{
	struct vatom_noc_req r = { 0 };

	/* Wormhole: MID = addr[35:32] | X << 4 | Y << 10 | SX << 16 | SY << 22 */
	EXPECT_EQ(vatom_noc_target(&r, DRM_VATOM_NOC_PROFILE_WORMHOLE, 3, 4, 0x1004), 0);
	EXPECT_EQ(r.targ_addr_lo, 0x1004);
	EXPECT_EQ(r.targ_addr_mid, 0x1030);
	EXPECT_EQ(r.targ_addr_hi, 0);
	EXPECT_EQ(vatom_noc_target(&r, DRM_VATOM_NOC_PROFILE_WORMHOLE, 1, 1,
				   0x900000010ull), 0);
	EXPECT_EQ(r.targ_addr_lo, 0x10);
	EXPECT_EQ(r.targ_addr_mid, 0x419);
	EXPECT_EQ(vatom_noc_target(&r, DRM_VATOM_NOC_PROFILE_WORMHOLE, 1, 1,
				   1ull << 36), -EINVAL);
	EXPECT_EQ(r.ctrl, 0);
	EXPECT_EQ(vatom_noc_broadcast(&r, DRM_VATOM_NOC_PROFILE_WORMHOLE,
				      1, 2, 6, 7, 0x40), 0);
	EXPECT_EQ(r.targ_addr_mid, 0x811c60);
	EXPECT_EQ(r.ctrl, DRM_VATOM_NOC_CTRL_BRCST_PACKET);
	EXPECT_EQ(vatom_noc_return(&r, DRM_VATOM_NOC_PROFILE_WORMHOLE, 63, 63, 0x200), 0);
	EXPECT_EQ(r.ret_addr_lo, 0x200);
	EXPECT_EQ(r.ret_addr_mid, 0xfff0);
	EXPECT_EQ(r.ret_addr_hi, 0);

	/* Blackhole: MID = addr[63:32], HI = X | Y << 6 | SX << 12 | SY << 18 */
	memset(&r, 0, sizeof(r));
	EXPECT_EQ(vatom_noc_target(&r, DRM_VATOM_NOC_PROFILE_BLACKHOLE, 5, 2,
				   0x12345), 0);
	EXPECT_EQ(r.targ_addr_lo, 0x12345);
	EXPECT_EQ(r.targ_addr_mid, 0);
	EXPECT_EQ(r.targ_addr_hi, 0x85);
	EXPECT_EQ(vatom_noc_target(&r, DRM_VATOM_NOC_PROFILE_BLACKHOLE, 0, 0,
				   0xabcdef0012345678ull), 0);
	EXPECT_EQ(r.targ_addr_lo, 0x12345678);
	EXPECT_EQ(r.targ_addr_mid, 0xabcdef00);
	EXPECT_EQ(vatom_noc_broadcast(&r, DRM_VATOM_NOC_PROFILE_BLACKHOLE,
				      1, 2, 6, 7, 0x200), 0);
	EXPECT_EQ(r.targ_addr_hi, 0x811c6);
	EXPECT_EQ(r.ctrl, DRM_VATOM_NOC_CTRL_BRCST_PACKET);
	EXPECT_EQ(vatom_noc_return(&r, DRM_VATOM_NOC_PROFILE_BLACKHOLE, 1, 3, 0x80), 0);
	EXPECT_EQ(r.ret_addr_lo, 0x80);
	EXPECT_EQ(r.ret_addr_mid, 0);
	EXPECT_EQ(r.ret_addr_hi, 0xc1);

	/* Out of range. */
	EXPECT_EQ(vatom_noc_target(&r, DRM_VATOM_NOC_PROFILE_BLACKHOLE, 64, 0, 0), -EINVAL);
	EXPECT_EQ(vatom_noc_return(&r, DRM_VATOM_NOC_PROFILE_BLACKHOLE, 0, 64, 0), -EINVAL);
	EXPECT_EQ(vatom_noc_broadcast(&r, DRM_VATOM_NOC_PROFILE_BLACKHOLE,
				      64, 0, 0, 0, 0), -EINVAL);
	EXPECT_EQ(vatom_noc_target(&r, 2, 0, 0, 0), -EINVAL);
	EXPECT_EQ(vatom_noc_target(NULL, DRM_VATOM_NOC_PROFILE_BLACKHOLE, 0, 0, 0), -EINVAL);
}

/*
 * Result regions follow each other in packet order, each rounded up to 8;
 * packets without results own none (UAPI "command stream" DOC).
 */
static void host_result_layout(void)
{
	static const struct { int64_t off; int size; } want[] = {
		{ 0, 4 },	/* DWORD_ATOMIC (1) dst: 4 -> 8 */
		{ 8, 0 },	/* DWORD_ATOMIC (4), Dst V0 */
		{ 8, 4 },	/* ADDC (1): dst 4 -> 8, carry 4 -> 8 */
		{ 24, 16 },	/* atom.cas.b128 */
		{ 40, 0 },	/* NoC */
		{ 40, 16 },	/* DWORD_ATOMIC (2), Q data */
		{ 56, 2 },	/* atom.exch.b16: 2 -> 8 */
		{ 64, 32 },	/* TYPED_ATOMIC (8) dst */
		{ 96, 24 },	/* raw packet claiming 24 result bytes */
	};
	const uint32_t z32[16] = { 0 };
	const uint64_t z64[2] = { 0 };
	struct vatom_visa_exec ex1 = VATOM_VISA_EXEC(1), ex2 = VATOM_VISA_EXEC(2),
			       ex4 = VATOM_VISA_EXEC(4), ex8 = VATOM_VISA_EXEC(8);
	struct vatom_ptx_atom cas128 = { .op = DRM_VATOM_PTX_OP_CAS,
					 .type = DRM_VATOM_PTX_TYPE_B128 };
	struct vatom_ptx_atom exch16 = { .op = DRM_VATOM_PTX_OP_EXCH,
					 .type = DRM_VATOM_PTX_TYPE_B16 };
	struct vatom_noc_req noc = { 0 };
	uint64_t raw[2] = { 0x0000001000000063ull, 0 };	/* type 99, 16 bytes */
	struct vatom_batch *b;
	unsigned int i;

	REQUIRE(!vatom_batch_create(NULL, 16, &b));
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex1, VATOM_VISA_ADD, VATOM_VISA_DST,
					  VATOM_T255, z32, z32, NULL), 0);
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex4, VATOM_VISA_ADD, 0, VATOM_T255,
					  z32, z32, NULL), 1);
	EXPECT_EQ(vatom_prep_addc(b, &ex1, 0, z32, z32), 2);
	EXPECT_EQ(vatom_prep_ptx_atom(b, &cas128), 3);
	EXPECT_EQ(vatom_prep_noc(b, &noc), 4);
	EXPECT_EQ(vatom_prep_dword_atomic64(b, &ex2, VATOM_VISA_ADD,
					    VATOM_VISA_DST, VATOM_T255, z32,
					    z64, NULL), 5);
	EXPECT_EQ(vatom_prep_ptx_atom(b, &exch16), 6);
	EXPECT_EQ(vatom_prep_typed_atomic(b, &ex8, VATOM_VISA_ADD, VATOM_VISA_DST,
					  1, z32, NULL, NULL, NULL, z32, NULL), 7);
	EXPECT_EQ(vatom_prep_raw(b, raw, sizeof(raw), 24), 8);
	for (i = 0; i < 9; i++) {
		if (vatom_result_offset(b, i) != want[i].off ||
		    vatom_result_size(b, i) != want[i].size) {
			printf("#   packet %u: offset %" PRId64 " size %d, expected %"
			       PRId64 " %d\n", i, vatom_result_offset(b, i),
			       vatom_result_size(b, i), want[i].off, want[i].size);
			fails++;
		}
	}
	EXPECT_EQ(vatom_batch_results_size(b), 120);
	EXPECT_EQ(vatom_batch_packets(b), 9);
	EXPECT_EQ(vatom_result_offset(b, 9), -EINVAL);
	EXPECT_EQ(vatom_result_size(b, -1), -EINVAL);
	vatom_batch_destroy(b);
out:;
}

/* The library refuses only what it cannot encode, and leaves no trace. */
static void host_prep_errors(void)
{
	const uint32_t z32[32] = { 0 };
	const uint64_t z64[16] = { 0 };
	struct vatom_visa_exec ex = VATOM_VISA_EXEC(4);
	struct vatom_ptx_atom a = { .type = DRM_VATOM_PTX_TYPE_B32 };
	struct vatom_batch *b;
	uint32_t idx = 1, reason = 1;
	unsigned int n;

	REQUIRE(!vatom_batch_create(NULL, 0, &b));
	for (n = 0; n <= 33; n++) {
		bool valid = n == 1 || n == 2 || n == 4 || n == 8 || n == 16;
		int ret;

		ex.size = n;
		ret = vatom_prep_dword_atomic(b, &ex, VATOM_VISA_ADD, 0, 1, z32,
					      NULL, NULL);
		if ((ret >= 0) != valid) {
			printf("#   DWORD_ATOMIC exec size %u: %d\n", n, ret);
			fails++;
		}
		ret = vatom_prep_addc(b, &ex, 0, z32, z32);
		if ((ret >= 0) != (valid || n == 32)) {
			printf("#   ADDC exec size %u: %d\n", n, ret);
			fails++;
		}
	}
	vatom_batch_reset(b);
	ex = VATOM_VISA_EXEC(4);
	EXPECT_EQ(vatom_prep_dword_atomic(NULL, &ex, 0, 0, 1, z32, NULL, NULL), -EINVAL);
	EXPECT_EQ(vatom_prep_dword_atomic(b, NULL, 0, 0, 1, z32, NULL, NULL), -EINVAL);
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex, 0, 0, 1, NULL, NULL, NULL), -EINVAL);
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex, 32, 0, 1, z32, NULL, NULL), -EINVAL);
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex, 0, 1u << 4, 1, z32, NULL, NULL), -EINVAL);
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex, 0, 0, 256, z32, NULL, NULL), -EINVAL);
	EXPECT_EQ(vatom_prep_dword_atomic64(b, &ex, 0, VATOM_VISA_16, 1, z32, z64, NULL), -EINVAL);
	EXPECT_EQ(vatom_prep_typed_atomic(b, &ex, 0, 0, 1, NULL, z32, NULL, NULL,
					  NULL, NULL), -EINVAL);
	EXPECT_EQ(vatom_prep_addc(b, &ex, 0, NULL, z32), -EINVAL);
	EXPECT_EQ(vatom_prep_addc(b, &ex, 1u << 2, z32, z32), -EINVAL);
	ex.mask_ctrl = 16;
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex, 0, 0, 1, z32, NULL, NULL), -EINVAL);
	/* Mask ranges are the kernel's business: M8 with 16 lanes encodes. */
	ex = VATOM_VISA_EXEC(16);
	ex.mask_ctrl = VATOM_M8;
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex, 0, 0, 1, z32, NULL, NULL), 0);
	vatom_batch_reset(b);
	EXPECT_EQ(vatom_prep_ptx_atom(b, NULL), -EINVAL);
	a.vec = 3;
	EXPECT_EQ(vatom_prep_ptx_atom(b, &a), -EINVAL);
	EXPECT_EQ(vatom_prep_noc(b, NULL), -EINVAL);
	EXPECT_EQ(vatom_prep_raw(b, z32, 12, 0), -EINVAL);
	EXPECT_EQ(vatom_prep_raw(b, z32, 0, 0), -EINVAL);
	EXPECT_EQ(vatom_batch_bind(b, DRM_VATOM_MAX_SLOTS, NULL), -EINVAL);
	EXPECT_EQ(vatom_batch_bind(b, DRM_VATOM_MAX_SLOTS - 1, NULL), 0);
	EXPECT_EQ(vatom_batch_packets(b), 0);
	EXPECT_EQ(vatom_batch_results_size(b), 0);
	/* An offline batch cannot be submitted. */
	EXPECT_EQ(vatom_batch_submit(b), -ENODEV);
	EXPECT_EQ(vatom_batch_error(b, &idx, &reason), -ENODEV);
	EXPECT_EQ(idx, 0);
	EXPECT_EQ(reason, DRM_VATOM_ERR_NONE);
	EXPECT_EQ(vatom_batch_create(NULL, 0, NULL), -EINVAL);
	vatom_batch_destroy(b);
	vatom_batch_destroy(NULL);
out:;
}

static void host_accessors_without_results(void)
{
	const uint32_t z32[4] = { 0 };
	struct vatom_visa_exec ex = VATOM_VISA_EXEC(4);
	struct vatom_batch *b;
	uint8_t buf[16];
	size_t len = 1;
	int res;

	REQUIRE(!vatom_batch_create(NULL, 0, &b));
	res = vatom_prep_addc(b, &ex, 0, z32, z32);
	REQUIRE(res == 0);
	EXPECT_EQ(vatom_result_u32(b, res, 0), 0);
	EXPECT_EQ(vatom_result_addc_carry(b, res, 0), 0);
	EXPECT_EQ(vatom_result_bytes(b, res, buf, sizeof(buf)), -ENODATA);
	EXPECT_EQ(vatom_result_bytes(b, res + 1, buf, sizeof(buf)), -EINVAL);
	EXPECT(!vatom_batch_results(b, &len));
	EXPECT_EQ(len, 0);
	vatom_batch_destroy(b);
out:;
}

/* Streams grow from a tiny capacity and reset keeps nothing but bindings. */
static void host_growth_and_reset(void)
{
	const uint32_t offs[16] = { 0 }, src[16] = { 0 };
	struct vatom_visa_exec ex = VATOM_VISA_EXEC(16);
	const struct drm_vatom_packet *hdr;
	struct vatom_batch *b;
	size_t len, total = 0;
	int i, res;

	REQUIRE(!vatom_batch_create(NULL, 8, &b));
	for (i = 0; i < 100; i++) {
		res = vatom_prep_dword_atomic(b, &ex, VATOM_VISA_XCHG,
					      VATOM_VISA_DST, VATOM_T255, offs,
					      src, NULL);
		if (res != i) {
			printf("#   packet %d got index %d\n", i, res);
			fails++;
			goto out_destroy;
		}
	}
	/* 32 + 64 + 64 bytes each, results 64 bytes each. */
	vatom_batch_stream(b, &len);
	EXPECT_EQ(len, 100 * 160);
	EXPECT_EQ(vatom_batch_results_size(b), 100 * 64);
	for (i = 0; i < 100; i++) {
		hdr = vatom_batch_packet(b, i, &len);
		if (!hdr || hdr->size != 160 || len != 160 ||
		    (const uint8_t *)hdr != (const uint8_t *)vatom_batch_stream(b, NULL) + total) {
			printf("#   packet %d misplaced\n", i);
			fails++;
			break;
		}
		total += len;
	}
	EXPECT_EQ(vatom_batch_reserve(b, 1 << 20), 0);
	EXPECT_EQ(vatom_batch_reserve(b, (size_t)UINT32_MAX), -E2BIG);
	vatom_batch_reset(b);
	EXPECT_EQ(vatom_batch_packets(b), 0);
	EXPECT_EQ(vatom_batch_results_size(b), 0);
	vatom_batch_stream(b, &len);
	EXPECT_EQ(len, 0);
	EXPECT(!vatom_batch_packet(b, 0, NULL));
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex, VATOM_VISA_XCHG, 0, VATOM_T255,
					  offs, src, NULL), 0);
out_destroy:
	vatom_batch_destroy(b);
out:;
}

static void host_strings(void)
{
	uint32_t r, q;

	for (r = DRM_VATOM_ERR_NONE; r <= DRM_VATOM_ERR_DESCRIPTOR; r++) {
		EXPECT(strcmp(vatom_strreason(r), "unknown reason"));
		for (q = 0; q < r; q++)
			EXPECT(strcmp(vatom_strreason(r), vatom_strreason(q)));
	}
	EXPECT(!strcmp(vatom_strreason(DRM_VATOM_ERR_DESCRIPTOR + 1),
		       "unknown reason"));
	EXPECT(!strcmp(vatom_strreason(0xffffffffu), "unknown reason"));
	EXPECT(!strcmp(vatom_strreason(DRM_VATOM_ERR_SLOT), "slot not bound"));
	EXPECT(!strcmp(vatom_visa_op_name(0x00), "ADD"));
	EXPECT(!strcmp(vatom_visa_op_name(0x07), "CMPXCHG"));
	EXPECT(!strcmp(vatom_visa_op_name(0x0c), "IMAX"));
	EXPECT(!strcmp(vatom_visa_op_name(0x0d), "PREDEC"));
	EXPECT(!strcmp(vatom_visa_op_name(0x12), "FCMPWR"));
	EXPECT(!vatom_visa_op_name(0x0e));
	EXPECT(!vatom_visa_op_name(0x0f));
	EXPECT(!vatom_visa_op_name(0x13));
	EXPECT(!vatom_visa_op_name(0x1f));
}

/*
 * Job errors and reset statuses: the texts and names, hand-written here;
 * the constants are the UAPI's values (DOC: job timeouts and resets);
 * argument checking without a device.
 */
static void host_reset_strings(void)
{
	static const struct { int err; const char *want; } texts[] = {
		{ -ETIMEDOUT, "job timed out: stopped by the job timeout; the context is guilty until it acknowledges the reset" },
		{ -EIO, "context lost: a job of this device (its open file) timed out or faulted; acknowledge with vatom_device_reset_status(..., VATOM_RESET_ACK)" },
		{ -ECANCELED, "job cancelled: it did not run, or not to its end (its context was reset or closed, its queue destroyed, or its submitter killed)" },
		{ -ETIME, "wait timed out: the deadline passed before the job completed (the job goes on)" },
		{ ETIMEDOUT, "job timed out: stopped by the job timeout; the context is guilty until it acknowledges the reset" },
	};
	static const struct { unsigned int status; const char *want; } names[] = {
		{ 0, "none" }, { 1, "guilty" }, { 2, "innocent" }, { 3, NULL },
		{ 0xffffffffu, NULL },
	};
	static const struct { unsigned int flags; int want; } bad[] = {
		{ 0, -EINVAL },			/* NULL device, with and without ACK */
		{ 1, -EINVAL },
		{ 2, -EINVAL },			/* unknown flag */
		{ 0xffffffffu, -EINVAL },
	};
	struct vatom_reset_status rs = { .status = 7, .guilty = 8, .innocent = 9 };
	unsigned int i;

	EXPECT_EQ(VATOM_RESET_ACK, 1);
	EXPECT_EQ(VATOM_RESET_NONE, 0);
	EXPECT_EQ(VATOM_RESET_GUILTY, 1);
	EXPECT_EQ(VATOM_RESET_INNOCENT, 2);
	EXPECT_EQ(DRM_VATOM_CAP_RESET_STATUS, 1ull << 13);
	EXPECT_EQ(DRM_VATOM_CAP_QUEUE_POLL_CPU, 1ull << 14);
	EXPECT_EQ(VATOM_QUEUE_POLL_CPU, 1u << 2);
	for (i = 0; i < ARRAY_SIZE(texts); i++) {
		if (strcmp(vatom_strerror(texts[i].err), texts[i].want)) {
			printf("#   vatom_strerror(%d) is \"%s\"\n", texts[i].err,
			       vatom_strerror(texts[i].err));
			fails++;
		}
	}
	/* Every other errno is strerror()'s. */
	EXPECT(!strcmp(vatom_strerror(-EINVAL), strerror(EINVAL)));
	EXPECT(!strcmp(vatom_strerror(-ENOMEM), strerror(ENOMEM)));
	EXPECT(!strcmp(vatom_strerror(0), strerror(0)));
	EXPECT(vatom_strerror(-2147483647 - 1) != NULL);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		const char *got = vatom_reset_status_name(names[i].status);

		if (names[i].want ? !got || strcmp(got, names[i].want) : got != NULL) {
			printf("#   vatom_reset_status_name(%u) is %s\n",
			       names[i].status, got ? got : "NULL");
			fails++;
		}
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		EXPECT_EQ(vatom_device_reset_status(NULL, bad[i].flags, &rs), bad[i].want);
	EXPECT_EQ(vatom_device_reset_status(NULL, 0, NULL), -EINVAL);
	/* untouched on failure */
	EXPECT_EQ(rs.status, 7);
	EXPECT_EQ(rs.guilty, 8);
	EXPECT_EQ(rs.innocent, 9);
}

/* ------------------------------------------------------------------------ */
/* Device checks (in the VM, against vatom.ko)                               */
/* ------------------------------------------------------------------------ */

static struct vatom_device *dev;

static void dev_discovery(void)
{
	struct vatom_device *d2 = NULL;
	uint64_t v;
	int n, fdflags;

	n = vatom_device_count();
	EXPECT(n >= 1);
	EXPECT(!strncmp(vatom_device_node(dev), "/dev/dri/renderD", 16));
	fdflags = fcntl(vatom_device_fd(dev), F_GETFD);
	EXPECT(fdflags >= 0 && (fdflags & FD_CLOEXEC));
	EXPECT_EQ(fcntl(vatom_device_fd(dev), F_GETFL) & O_ACCMODE, O_RDWR);
	EXPECT(vatom_device_uapi_version(dev) >= 1);
	EXPECT(vatom_device_caps(dev) & DRM_VATOM_CAP_VISA_DWORD_ATOMIC);
	EXPECT_EQ(vatom_device_get_param(dev, DRM_VATOM_PARAM_UAPI_VERSION, 0, &v), 0);
	EXPECT_EQ(v, vatom_device_uapi_version(dev));
	EXPECT_EQ(vatom_device_get_param(dev, DRM_VATOM_PARAM_CAPS, 0, &v), 0);
	EXPECT_EQ(v, vatom_device_caps(dev));
	EXPECT_EQ(vatom_device_get_param(dev, 0xffff, 0, &v), -EINVAL);
	EXPECT_EQ(vatom_device_get_param(dev, DRM_VATOM_PARAM_CAPS, 1, &v), -EINVAL);
	EXPECT_EQ(vatom_device_open(n, 0, &d2), -ENODEV);
	EXPECT_EQ(vatom_device_open(0, 1, &d2), -EINVAL);
	EXPECT_EQ(vatom_device_open_path("/dev/null", 0, &d2), -ENODEV);
	EXPECT_EQ(vatom_device_open_path("/nonexistent", 0, &d2), -ENOENT);
	/* The same node opened by path is the same device. */
	EXPECT_EQ(vatom_device_open_path(vatom_device_node(dev), 0, &d2), 0);
	if (d2) {
		EXPECT_EQ(vatom_device_caps(d2), vatom_device_caps(dev));
		EXPECT(vatom_device_fd(d2) != vatom_device_fd(dev));
		vatom_device_close(d2);
	}
	vatom_device_close(NULL);
}

static void dev_surface_basics(void)
{
	struct vatom_surface *s = NULL, *t = NULL;
	struct vatom_surface_info info;
	uint8_t *p = NULL, *q = NULL;
	size_t i;

	REQUIRE(!vatom_surface_create_buffer(dev, 4096 + 100, 0, &s));
	EXPECT_EQ(vatom_surface_size(s), 4196);
	EXPECT(vatom_surface_handle(s) != 0);
	EXPECT_EQ(vatom_surface_info(s, &info), 0);
	EXPECT_EQ(info.kind, DRM_VATOM_SURFACE_BUFFER);
	EXPECT_EQ(info.handle, vatom_surface_handle(s));
	EXPECT_EQ(info.size, 4196);
	EXPECT_EQ(info.mmap_size, 8192);
	REQUIRE(!vatom_surface_map(s, (void **)&p));
	EXPECT_EQ(vatom_surface_map(s, (void **)&q), 0);
	EXPECT(p == q);				/* cached */
	for (i = 0; i < 4196; i++)
		if (p[i])
			break;
	EXPECT_EQ(i, 4196);			/* starts zeroed */
	memset(p, 0xa5, 8192);			/* the whole mapping is writable */
	EXPECT_EQ(p[8191], 0xa5);
	REQUIRE(!vatom_surface_create_buffer(dev, 1, 0, &t));
	EXPECT(vatom_surface_handle(t) != vatom_surface_handle(s));
	EXPECT_EQ(vatom_surface_info(t, &info), 0);
	EXPECT_EQ(info.size, 1);
	EXPECT(info.mmap_size >= 4096 && info.mmap_size % 4096 == 0);
	EXPECT_EQ(vatom_surface_create_buffer(dev, 0, 0, &t), -EINVAL);
	EXPECT_EQ(vatom_surface_create_buffer(dev, 8, 1, &t), -EINVAL);
	EXPECT_EQ(vatom_surface_create_buffer(dev, UINT64_MAX, 0, &t), -E2BIG);
out:
	vatom_surface_destroy(t);
	vatom_surface_destroy(s);
	vatom_surface_destroy(NULL);
}

static void dev_surface_sharing(void)
{
	struct vatom_device *d2 = NULL;
	struct vatom_surface *s = NULL, *same = NULL, *other = NULL;
	uint32_t *p, *q;
	int fd = -1;

	REQUIRE(!vatom_surface_create_buffer(dev, 256, 0, &s));
	REQUIRE(!vatom_surface_map(s, (void **)&p));
	p[3] = 0x12345678;
	REQUIRE(!vatom_surface_export(s, &fd));
	EXPECT(fd >= 0);
	EXPECT(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	EXPECT_EQ(fcntl(fd, F_GETFL) & O_ACCMODE, O_RDWR);
	/* Imported back into the same file: the same surface, one more ref. */
	REQUIRE(!vatom_surface_import(dev, fd, &same));
	EXPECT(same == s);
	vatom_surface_destroy(same);
	EXPECT_EQ(p[3], 0x12345678);		/* still mapped and alive */
	/* Into another file: another handle onto the same memory. */
	REQUIRE(!vatom_device_open_path(vatom_device_node(dev), 0, &d2));
	REQUIRE(!vatom_surface_import(d2, fd, &other));
	EXPECT_EQ(vatom_surface_size(other), 256);
	REQUIRE(!vatom_surface_map(other, (void **)&q));
	EXPECT_EQ(q[3], 0x12345678);
	q[4] = 0xfeedface;
	EXPECT_EQ(p[4], 0xfeedface);
	EXPECT_EQ(vatom_surface_import(dev, -1, &same), -EBADF);
	EXPECT(vatom_surface_import(dev, 0, &same) < 0);	/* not a dma-buf */
out:
	if (fd >= 0)
		close(fd);
	vatom_surface_destroy(other);
	vatom_surface_destroy(s);
	vatom_device_close(d2);
}

static void dev_other_surface_kinds(void)
{
	struct drm_vatom_typed_desc td = {
		.dim = DRM_VATOM_TYPED_2D, .format = DRM_VATOM_FORMAT_R32,
		.width = 4, .height = 4, .depth = 1, .array_size = 1,
		.levels = 1,
	};
	uint8_t types[4] = { DRM_VATOM_TILE_TENSIX, DRM_VATOM_TILE_TENSIX,
			     DRM_VATOM_TILE_TENSIX, DRM_VATOM_TILE_TENSIX };
	struct drm_vatom_tile_grid_desc gd = {
		.profile = DRM_VATOM_NOC_PROFILE_BLACKHOLE, .width = 2,
		.height = 2, .tile_types = (uintptr_t)types,
	};
	struct vatom_surface_info info;
	struct vatom_surface *s = NULL;
	int ret;

	/* Implemented later; until then the kernel says -EOPNOTSUPP. */
	ret = vatom_surface_create_typed(dev, &td, &s);
	EXPECT(ret == 0 || ret == -EOPNOTSUPP);
	if (!ret) {
		EXPECT_EQ(vatom_surface_info(s, &info), 0);
		EXPECT_EQ(info.kind, DRM_VATOM_SURFACE_TYPED);
		EXPECT(info.size >= 64);
		vatom_surface_destroy(s);
		s = NULL;
	}
	ret = vatom_surface_create_tile_grid(dev, &gd, &s);
	EXPECT(ret == 0 || ret == -EOPNOTSUPP);
	if (!ret) {
		EXPECT_EQ(vatom_surface_info(s, &info), 0);
		EXPECT_EQ(info.kind, DRM_VATOM_SURFACE_TILE_GRID);
		vatom_surface_destroy(s);
	}
	EXPECT_EQ(vatom_surface_create_typed(dev, NULL, &s), -EINVAL);
}

/*
 * The DWORD_ATOMIC batch. A 40-dword buffer bound at T255; every
 * expected value below was worked out by hand from the DWORD_ATOMIC
 * semantics (seed 000) and the ChEn rule of the UAPI.
 */
#define NDW 40

static const uint32_t init_mem[NDW] = {
	/* 0..15: ADD */
	0, 100, 200, 300, 400, 500, 600, 700,
	800, 900, 1000, 1100, 1200, 1300, 1400, 1500,
	/* 16..23: CMPXCHG */
	5, 6, 7, 8, 9, 10, 11, 12,
	/* 24..27: IMAX (signed) */
	0xfffffffb, 3, 5, 0xffffffff,
	/* 28..31: PREDEC */
	1, 0, 10, 0x80000000,
	/* 32..34: ADD without Dst, two lanes on dword 32 */
	1000, 2000, 3000,
	/* 35: XCHG, with an out-of-bounds lane */
	77,
	/* 36: INC.16 on both halves */
	0x0002ffff,
	0, 0, 0,
};

static const uint32_t want_mem[NDW] = {
	/* ADD, odd lanes only (predicate 0xaaaa): old + (i + 1) */
	0, 102, 200, 304, 400, 506, 600, 708,
	800, 910, 1000, 1112, 1200, 1314, 1400, 1516,
	/* CMPXCHG: lanes whose src1 matches take src0 */
	50, 6, 70, 8, 90, 10, 110, 12,
	/* IMAX (M5): lanes 0 and 2 enabled; max(-5, -3) = -3, max(5, -1) = 5 */
	0xfffffffd, 3, 5, 0xffffffff,
	/* PREDEC */
	0, 0xffffffff, 9, 0x7fffffff,
	/* ADD 1 + 2 into dword 32, 3 into 33, 4 into 34 */
	1003, 2003, 3004,
	/* XCHG */
	0xdead,
	/* INC.16: 0xffff wraps to 0 without carrying into the high half */
	0x00030000,
	0, 0, 0,
};

static const uint32_t want_add_old[16] = {
	0, 100, 0, 300, 0, 500, 0, 700, 0, 900, 0, 1100, 0, 1300, 0, 1500,
};

static const uint32_t want_cmpxchg_old[8] = { 5, 6, 7, 8, 9, 10, 11, 12 };
static const uint32_t want_imax_old[4] = { 0xfffffffb, 0, 5, 0 };
static const uint32_t want_predec_new[4] = { 0, 0xffffffff, 9, 0x7fffffff };
static const uint32_t want_xchg_old[2] = { 77, 0 };
static const uint16_t want_inc16_old[2] = { 0xffff, 0x0002 };

struct dword_batch {
	int add, cmpxchg, imax, predec, add_nodst, xchg, inc16;
};

static int build_dword_batch(struct vatom_batch *b, struct dword_batch *r)
{
	uint32_t offs[16], src0[16], src1[8];
	struct vatom_visa_exec ex;
	int i;

	/* (P) DWORD_ATOMIC.ADD (M1, 16) T255 offs src0 V0 dst */
	for (i = 0; i < 16; i++) {
		offs[i] = i * 4;
		src0[i] = i + 1;
	}
	ex = (struct vatom_visa_exec){ .size = 16, .mask_ctrl = VATOM_M1,
				       .emask = 0xffff, .predicated = true,
				       .pred = 0xaaaa };
	r->add = vatom_prep_dword_atomic(b, &ex, VATOM_VISA_ADD, VATOM_VISA_DST,
					 VATOM_T255, offs, src0, NULL);
	/* DWORD_ATOMIC.CMPXCHG (M1, 8) T255 offs src0 src1 dst */
	for (i = 0; i < 8; i++) {
		offs[i] = (16 + i) * 4;
		src0[i] = 50 + 10 * i;
		src1[i] = (i % 2) ? 0 : 5 + i;
	}
	ex = VATOM_VISA_EXEC(8);
	r->cmpxchg = vatom_prep_dword_atomic(b, &ex, VATOM_VISA_CMPXCHG,
					     VATOM_VISA_DST, VATOM_T255, offs,
					     src0, src1);
	/* DWORD_ATOMIC.IMAX (M5, 4): channels 16..19 of emask, 0b0101 */
	for (i = 0; i < 4; i++)
		offs[i] = (24 + i) * 4;
	src0[0] = 0xfffffffd;
	src0[1] = 10;
	src0[2] = 0xffffffff;
	src0[3] = 0;
	ex = (struct vatom_visa_exec){ .size = 4, .mask_ctrl = VATOM_M5,
				       .emask = 0x00050000 };
	r->imax = vatom_prep_dword_atomic(b, &ex, VATOM_VISA_IMAX, VATOM_VISA_DST,
					  VATOM_T255, offs, src0, NULL);
	/* DWORD_ATOMIC.PREDEC (M1_NM, 4): the zero emask is ignored */
	for (i = 0; i < 4; i++)
		offs[i] = (28 + i) * 4;
	ex = (struct vatom_visa_exec){ .size = 4, .mask_ctrl = VATOM_M1_NM };
	r->predec = vatom_prep_dword_atomic(b, &ex, VATOM_VISA_PREDEC,
					    VATOM_VISA_DST, VATOM_T255, offs,
					    NULL, NULL);
	/* DWORD_ATOMIC.ADD (M1, 4) T255 offs src0 V0 V0 */
	offs[0] = 128;
	offs[1] = 128;
	offs[2] = 132;
	offs[3] = 136;
	for (i = 0; i < 4; i++)
		src0[i] = i + 1;
	ex = VATOM_VISA_EXEC(4);
	r->add_nodst = vatom_prep_dword_atomic(b, &ex, VATOM_VISA_ADD, 0,
					       VATOM_T255, offs, src0, NULL);
	/* DWORD_ATOMIC.XCHG (M1, 2), lane 1 far out of bounds */
	offs[0] = 140;
	offs[1] = 0x10000;
	src0[0] = 0xdead;
	src0[1] = 0xbeef;
	ex = VATOM_VISA_EXEC(2);
	r->xchg = vatom_prep_dword_atomic(b, &ex, VATOM_VISA_XCHG, VATOM_VISA_DST,
					  VATOM_T255, offs, src0, NULL);
	/* DWORD_ATOMIC.INC.16 (M1, 2) on the two halves of dword 36 */
	offs[0] = 144;
	offs[1] = 146;
	r->inc16 = vatom_prep_dword_atomic(b, &ex, VATOM_VISA_INC,
					   VATOM_VISA_DST | VATOM_VISA_16,
					   VATOM_T255, offs, NULL, NULL);
	return r->add < 0 ? r->add : r->cmpxchg < 0 ? r->cmpxchg :
	       r->imax < 0 ? r->imax : r->predec < 0 ? r->predec :
	       r->add_nodst < 0 ? r->add_nodst : r->xchg < 0 ? r->xchg :
	       r->inc16 < 0 ? r->inc16 : 0;
}

static void check_dword_results(struct vatom_batch *b,
				const struct dword_batch *r)
{
	uint32_t raw[16];
	unsigned int i;

	for (i = 0; i < 16; i++)
		EXPECT_EQ(vatom_result_u32(b, r->add, i), want_add_old[i]);
	for (i = 0; i < 8; i++)
		EXPECT_EQ(vatom_result_u32(b, r->cmpxchg, i), want_cmpxchg_old[i]);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(vatom_result_u32(b, r->imax, i), want_imax_old[i]);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(vatom_result_u32(b, r->predec, i), want_predec_new[i]);
	for (i = 0; i < 2; i++)
		EXPECT_EQ(vatom_result_u32(b, r->xchg, i), want_xchg_old[i]);
	for (i = 0; i < 2; i++)
		EXPECT_EQ(vatom_result_u32(b, r->inc16, i) & 0xffff,
			  want_inc16_old[i]);
	/* Past the packet's lanes, and packets without Dst, read 0. */
	EXPECT_EQ(vatom_result_u32(b, r->xchg, 2), 0);
	EXPECT_EQ(vatom_result_size(b, r->add_nodst), 0);
	EXPECT_EQ(vatom_result_bytes(b, r->add_nodst, raw, sizeof(raw)), -ENODATA);
	/* _bytes gives the same values as the element accessor. */
	EXPECT_EQ(vatom_result_bytes(b, r->imax, raw, sizeof(raw)), 16);
	EXPECT(!memcmp(raw, want_imax_old, 16));
	EXPECT_EQ(vatom_result_bytes(b, r->add, raw, 8), 8);
	EXPECT_EQ(raw[1], 100);
}

static void expect_memory(const uint32_t *mem, const uint32_t *want)
{
	int i;

	for (i = 0; i < NDW; i++) {
		if (mem[i] != want[i]) {
			printf("#   dword %d is 0x%x, expected 0x%x\n", i,
			       mem[i], want[i]);
			fails++;
		}
	}
}

static void dev_dword_atomic_batch(void)
{
	struct vatom_surface *s = NULL;
	struct vatom_batch *b = NULL;
	struct dword_batch r;
	uint32_t idx, reason;
	uint32_t *mem;
	size_t size;

	REQUIRE(!vatom_surface_create_buffer(dev, NDW * 4, 0, &s));
	REQUIRE(!vatom_surface_map(s, (void **)&mem));
	memcpy(mem, init_mem, sizeof(init_mem));
	REQUIRE(!vatom_batch_create(dev, 0, &b));
	REQUIRE(!vatom_batch_bind(b, VATOM_T255, s));
	REQUIRE(!build_dword_batch(b, &r));
	EXPECT_EQ(r.add, 0);
	EXPECT_EQ(r.inc16, 6);
	/* Regions by hand: 64 + 32 + 16 + 16 + 0 + 8 + 8. */
	EXPECT_EQ(vatom_batch_results_size(b), 144);
	EXPECT_EQ(vatom_result_offset(b, r.xchg), 128);
	EXPECT_EQ(vatom_batch_submit(b), 0);
	EXPECT_EQ(vatom_batch_error(b, &idx, &reason), 0);
	EXPECT_EQ(reason, DRM_VATOM_ERR_NONE);
	EXPECT(vatom_batch_results(b, &size));
	EXPECT_EQ(size, 144);
	check_dword_results(b, &r);
	expect_memory(mem, want_mem);
out:
	vatom_batch_destroy(b);
	vatom_surface_destroy(s);
}

/* The same batch with its results in a surface, at an offset. */
static void dev_result_surface(void)
{
	struct vatom_surface *s = NULL, *rs = NULL;
	struct vatom_batch *b = NULL;
	struct dword_batch r;
	uint32_t *mem, *res;

	if (!(vatom_device_caps(dev) & DRM_VATOM_CAP_RESULT_SURFACE)) {
		skip("no DRM_VATOM_CAP_RESULT_SURFACE");
		return;
	}
	REQUIRE(!vatom_surface_create_buffer(dev, NDW * 4, 0, &s));
	REQUIRE(!vatom_surface_create_buffer(dev, 4096, 0, &rs));
	REQUIRE(!vatom_surface_map(s, (void **)&mem));
	REQUIRE(!vatom_surface_map(rs, (void **)&res));
	memcpy(mem, init_mem, sizeof(init_mem));
	REQUIRE(!vatom_batch_create(dev, 0, &b));
	REQUIRE(!vatom_batch_bind(b, VATOM_T255, s));
	REQUIRE(!build_dword_batch(b, &r));
	EXPECT_EQ(vatom_batch_submit_to(b, rs, 256), 0);
	/* Disabled lanes keep what the surface held (zero here). */
	check_dword_results(b, &r);
	expect_memory(mem, want_mem);
	/* The raw layout: XCHG's region at 256 + 128. */
	EXPECT_EQ(res[(256 + 128) / 4], 77);
	EXPECT_EQ(res[(256 + 0) / 4 + 3], 300);
	EXPECT_EQ(res[0], 0);			/* before the offset: untouched */
out:
	vatom_batch_destroy(b);
	vatom_surface_destroy(rs);
	vatom_surface_destroy(s);
}

/* A rejected stream executes nothing and names the packet and reason. */
static void dev_error_reporting(void)
{
	const uint32_t offs[4] = { 0, 4, 8, 12 }, one[4] = { 1, 1, 1, 1 };
	const uint64_t bad_type[1] = { 0x0000000800007777ull };	/* type 0x7777 */
	struct vatom_visa_exec ex = VATOM_VISA_EXEC(4);
	struct vatom_surface *s = NULL;
	struct vatom_batch *b = NULL;
	uint32_t idx = 99, reason = 99, *mem;

	REQUIRE(!vatom_surface_create_buffer(dev, 64, 0, &s));
	REQUIRE(!vatom_surface_map(s, (void **)&mem));
	REQUIRE(!vatom_batch_create(dev, 0, &b));
	REQUIRE(!vatom_batch_bind(b, VATOM_T255, s));
	/* Packets 0 and 1 are fine; INC must have Src0 = V0. */
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex, VATOM_VISA_ADD, VATOM_VISA_DST,
					  VATOM_T255, offs, one, NULL), 0);
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex, VATOM_VISA_ADD, 0, VATOM_T255,
					  offs, one, NULL), 1);
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex, VATOM_VISA_INC, 0, VATOM_T255,
					  offs, one, NULL), 2);
	EXPECT_EQ(vatom_batch_submit(b), -EINVAL);
	EXPECT_EQ(vatom_batch_error(b, &idx, &reason), -EINVAL);
	EXPECT_EQ(idx, 2);
	EXPECT_EQ(reason, DRM_VATOM_ERR_OPERANDS);
	EXPECT_EQ(mem[0], 0);			/* nothing executed */
	EXPECT(!vatom_batch_results(b, NULL));
	EXPECT_EQ(vatom_result_u32(b, 0, 0), 0);
	if (fails)
		printf("#   reason %u: %s\n", reason, vatom_strreason(reason));

	/* An unbound slot. */
	vatom_batch_reset(b);
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex, VATOM_VISA_ADD, 0, 9, offs,
					  one, NULL), 0);
	EXPECT_EQ(vatom_batch_submit(b), -EINVAL);
	vatom_batch_error(b, &idx, &reason);
	EXPECT_EQ(idx, 0);
	EXPECT_EQ(reason, DRM_VATOM_ERR_SLOT);

	/* An unknown packet type after a good packet. */
	vatom_batch_reset(b);
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex, VATOM_VISA_ADD, 0, VATOM_T255,
					  offs, one, NULL), 0);
	EXPECT_EQ(vatom_prep_raw(b, bad_type, sizeof(bad_type), 0), 1);
	EXPECT_EQ(vatom_batch_submit(b), -EINVAL);
	vatom_batch_error(b, &idx, &reason);
	EXPECT_EQ(idx, 1);
	EXPECT_EQ(reason, DRM_VATOM_ERR_PACKET_TYPE);

	/* M6 + 16 lanes runs past the 32-bit mask. */
	vatom_batch_reset(b);
	ex = VATOM_VISA_EXEC(16);
	ex.mask_ctrl = VATOM_M6;
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex, VATOM_VISA_ADD, 0, VATOM_T255,
					  offs, one, NULL), 0);
	EXPECT_EQ(vatom_batch_submit(b), -EINVAL);
	vatom_batch_error(b, &idx, &reason);
	EXPECT_EQ(idx, 0);
	EXPECT_EQ(reason, DRM_VATOM_ERR_EXEC_SIZE);
	EXPECT_EQ(mem[0], 0);
	/* The batch recovers: a good submission clears the error. */
	vatom_batch_reset(b);
	ex = VATOM_VISA_EXEC(4);
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex, VATOM_VISA_ADD, VATOM_VISA_DST,
					  VATOM_T255, offs, one, NULL), 0);
	EXPECT_EQ(vatom_batch_submit(b), 0);
	EXPECT_EQ(vatom_batch_error(b, &idx, &reason), 0);
	EXPECT_EQ(reason, DRM_VATOM_ERR_NONE);
	EXPECT_EQ(mem[0], 1);
out:
	vatom_batch_destroy(b);
	vatom_surface_destroy(s);
}

/*
 * A raw packet that lies about its results: the kernel's results_needed
 * disagrees with the library's layout, which must be -EPROTO with no
 * results offered (they would be read at the wrong offsets).
 */
static void dev_result_disagreement(void)
{
	const uint32_t offs[2] = { 0, 4 }, one[2] = { 1, 1 };
	struct vatom_visa_exec ex = VATOM_VISA_EXEC(2);
	struct vatom_surface *s = NULL;
	struct vatom_batch *tmp = NULL, *b = NULL;
	const void *pkt;
	size_t len;
	uint32_t *mem;

	REQUIRE(!vatom_surface_create_buffer(dev, 8, 0, &s));
	REQUIRE(!vatom_surface_map(s, (void **)&mem));
	/* Encode a valid ADD with Dst (8 result bytes), then copy it raw. */
	REQUIRE(!vatom_batch_create(NULL, 0, &tmp));
	REQUIRE(!vatom_prep_dword_atomic(tmp, &ex, VATOM_VISA_ADD, VATOM_VISA_DST,
					 VATOM_T255, offs, one, NULL));
	pkt = vatom_batch_packet(tmp, 0, &len);
	REQUIRE(pkt);
	REQUIRE(!vatom_batch_create(dev, 0, &b));
	REQUIRE(!vatom_batch_bind(b, VATOM_T255, s));

	/* Claims none: the kernel asks for 8, gets them, then -EPROTO. */
	EXPECT_EQ(vatom_prep_raw(b, pkt, len, 0), 0);
	EXPECT_EQ(vatom_batch_submit(b), -EPROTO);
	EXPECT(!vatom_batch_results(b, NULL));
	EXPECT_EQ(mem[0], 1);		/* it did execute */

	/* Claims 24: more room than needed, still a disagreement. */
	vatom_batch_reset(b);
	EXPECT_EQ(vatom_prep_raw(b, pkt, len, 24), 0);
	EXPECT_EQ(vatom_batch_submit(b), -EPROTO);
	EXPECT_EQ(vatom_batch_error(b, NULL, NULL), -EPROTO);
	EXPECT_EQ(vatom_result_u32(b, 0, 0), 0);
	EXPECT_EQ(mem[0], 2);

	/* Claims the truth: fine. */
	vatom_batch_reset(b);
	EXPECT_EQ(vatom_prep_raw(b, pkt, len, 8), 0);
	EXPECT_EQ(vatom_batch_submit(b), 0);
	EXPECT_EQ(vatom_result_u32(b, 0, 0), 2);
	EXPECT_EQ(vatom_result_u32(b, 0, 1), 2);
out:
	vatom_batch_destroy(b);
	vatom_batch_destroy(tmp);
	vatom_surface_destroy(s);
}

/* Submitting a batch again re-runs it; reset keeps the bindings. */
static void dev_batch_reuse(void)
{
	const uint32_t offs[4] = { 0, 4, 8, 12 }, src[4] = { 1, 10, 100, 1000 };
	struct vatom_visa_exec ex = VATOM_VISA_EXEC(4);
	struct vatom_surface *s = NULL;
	struct vatom_batch *b = NULL;
	uint32_t *mem;
	int res, i;

	REQUIRE(!vatom_surface_create_buffer(dev, 16, 0, &s));
	REQUIRE(!vatom_surface_map(s, (void **)&mem));
	REQUIRE(!vatom_batch_create(dev, 0, &b));
	REQUIRE(!vatom_batch_bind(b, VATOM_T255, s));
	res = vatom_prep_dword_atomic(b, &ex, VATOM_VISA_ADD, VATOM_VISA_DST,
				      VATOM_T255, offs, src, NULL);
	REQUIRE(res == 0);
	for (i = 0; i < 3; i++)
		EXPECT_EQ(vatom_batch_submit(b), 0);
	/* Third run saw two adds already. */
	EXPECT_EQ(vatom_result_u32(b, res, 0), 2);
	EXPECT_EQ(vatom_result_u32(b, res, 3), 2000);
	EXPECT_EQ(mem[0], 3);
	EXPECT_EQ(mem[1], 30);
	EXPECT_EQ(mem[2], 300);
	EXPECT_EQ(mem[3], 3000);
	/* Reset, reuse with another op, same binding. */
	vatom_batch_reset(b);
	EXPECT(!vatom_batch_results(b, NULL));
	res = vatom_prep_dword_atomic(b, &ex, VATOM_VISA_XCHG, VATOM_VISA_DST,
				      VATOM_T255, offs, src, NULL);
	EXPECT_EQ(res, 0);
	EXPECT_EQ(vatom_batch_submit(b), 0);
	EXPECT_EQ(vatom_result_u32(b, res, 1), 30);
	EXPECT_EQ(mem[1], 10);
	/* Appending invalidates the old results until the next submission. */
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex, VATOM_VISA_XCHG, 0, VATOM_T255,
					  offs, src, NULL), 1);
	EXPECT_EQ(vatom_result_u32(b, res, 1), 0);
	/* Unbinding makes the slot an error again. */
	EXPECT_EQ(vatom_batch_bind(b, VATOM_T255, NULL), 0);
	EXPECT_EQ(vatom_batch_submit(b), -EINVAL);
	EXPECT_EQ(vatom_batch_error(b, NULL, NULL), -EINVAL);
out:
	vatom_batch_destroy(b);
	vatom_surface_destroy(s);
}

/* Only when the device says it implements them. */
static bool visa_op_supported(uint32_t form, unsigned int op)
{
	uint64_t mask;

	if (vatom_device_get_param(dev, DRM_VATOM_PARAM_VISA_OPS, form, &mask))
		return false;
	return mask & (1ull << op);
}

static void dev_dword_atomic64(void)
{
	const uint32_t offs[2] = { 0, 8 };
	const uint64_t src0[2] = { 0x00000001ffffffffull, 0xfffffffffffffffeull };
	struct vatom_visa_exec ex = VATOM_VISA_EXEC(2);
	struct vatom_surface *s = NULL;
	struct vatom_batch *b = NULL;
	uint64_t *mem;
	int res;

	if (!visa_op_supported(DRM_VATOM_VISA_FORM_DWORD64, VATOM_VISA_ADD)) {
		skip("DWORD_ATOMIC on UQ not implemented by the device");
		return;
	}
	REQUIRE(!vatom_surface_create_buffer(dev, 16, 0, &s));
	REQUIRE(!vatom_surface_map(s, (void **)&mem));
	mem[0] = 0x00000000ffffffffull;
	mem[1] = 5;
	REQUIRE(!vatom_batch_create(dev, 0, &b));
	REQUIRE(!vatom_batch_bind(b, VATOM_T255, s));
	res = vatom_prep_dword_atomic64(b, &ex, VATOM_VISA_ADD, VATOM_VISA_DST,
					VATOM_T255, offs, src0, NULL);
	REQUIRE(res == 0);
	EXPECT_EQ(vatom_batch_submit(b), 0);
	EXPECT_EQ(vatom_result_u64(b, res, 0), 0x00000000ffffffffull);
	EXPECT_EQ(vatom_result_u64(b, res, 1), 5);
	/* The carry crosses bit 31; the second lane wraps. */
	EXPECT_EQ(mem[0], 0x00000002fffffffeull);
	EXPECT_EQ(mem[1], 3);
out:
	vatom_batch_destroy(b);
	vatom_surface_destroy(s);
}

static void dev_addc(void)
{
	const uint32_t src0[4] = { 0xffffffff, 1, 0x80000000, 7 };
	const uint32_t src1[4] = { 1, 2, 0x80000000, 0xfffffff9 };
	const uint32_t imm = 0xfffffffe;
	/* By hand: sums mod 2^32 and carries out of bit 31. */
	const uint32_t want_dst[4] = { 0, 3, 0, 0 };
	const uint32_t want_carry[4] = { 1, 0, 1, 1 };
	const uint32_t want_dst_imm[4] = { 0xfffffffd, 0xffffffff, 0x7ffffffe, 5 };
	const uint32_t want_carry_imm[4] = { 1, 0, 1, 1 };
	struct vatom_visa_exec ex = VATOM_VISA_EXEC(4);
	struct vatom_batch *b = NULL;
	int r0, r1, i;

	if (!(vatom_device_caps(dev) & DRM_VATOM_CAP_VISA_ADDC)) {
		skip("ADDC not implemented by the device");
		return;
	}
	REQUIRE(!vatom_batch_create(dev, 0, &b));
	r0 = vatom_prep_addc(b, &ex, 0, src0, src1);
	r1 = vatom_prep_addc(b, &ex, VATOM_ADDC_SRC1_IMM, src0, &imm);
	REQUIRE(r0 == 0 && r1 == 1);
	EXPECT_EQ(vatom_batch_submit(b), 0);
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(vatom_result_addc_dst(b, r0, i), want_dst[i]);
		EXPECT_EQ(vatom_result_addc_carry(b, r0, i), want_carry[i]);
		EXPECT_EQ(vatom_result_addc_dst(b, r1, i), want_dst_imm[i]);
		EXPECT_EQ(vatom_result_addc_carry(b, r1, i), want_carry_imm[i]);
	}
out:
	vatom_batch_destroy(b);
}

static void dev_ptx_atom(void)
{
	struct vatom_ptx_atom add = {
		.op = DRM_VATOM_PTX_OP_ADD, .type = DRM_VATOM_PTX_TYPE_U32,
		.space = DRM_VATOM_PTX_SPACE_GLOBAL, .slot = 1, .addr = 8,
		.b.u32 = { 0xfffffff0 },
	};
	struct vatom_ptx_atom cas = {
		.op = DRM_VATOM_PTX_OP_CAS, .type = DRM_VATOM_PTX_TYPE_B64,
		.slot = 1, .addr = 16,
		.b.u64 = { 0x1122334455667788ull },
		.c.u64 = { 42 },
	};
	struct vatom_surface *s = NULL;
	struct vatom_batch *b = NULL;
	uint32_t *mem;
	int r0, r1;

	if (!(vatom_device_caps(dev) & DRM_VATOM_CAP_PTX_ATOM)) {
		skip("PTX atom not implemented by the device");
		return;
	}
	REQUIRE(!vatom_surface_create_buffer(dev, 64, 0, &s));
	REQUIRE(!vatom_surface_map(s, (void **)&mem));
	mem[2] = 0x20;
	mem[4] = 0x55667788;		/* b64 at 16, little-endian */
	mem[5] = 0x11223344;
	REQUIRE(!vatom_batch_create(dev, 0, &b));
	REQUIRE(!vatom_batch_bind(b, 1, s));
	r0 = vatom_prep_ptx_atom(b, &add);
	r1 = vatom_prep_ptx_atom(b, &cas);
	REQUIRE(r0 == 0 && r1 == 1);
	EXPECT_EQ(vatom_batch_submit(b), 0);
	EXPECT_EQ(vatom_result_u32(b, r0, 0), 0x20);
	EXPECT_EQ(mem[2], 0x10);		/* 0x20 + 0xfffffff0 mod 2^32 */
	EXPECT_EQ(vatom_result_u64(b, r1, 0), 0x1122334455667788ull);
	EXPECT_EQ(mem[4], 42);
	EXPECT_EQ(mem[5], 0);
out:
	vatom_batch_destroy(b);
	vatom_surface_destroy(s);
}

/*
 * The ISA text front end on the device: one line per family, assembled
 * with vatom_asm_line() and submitted; values worked out by hand (a 5-lane
 * ADD leaves lanes 5..7 alone; PTX cas swaps on equality; a Blackhole
 * increment of 10 by 5 with its response at (0,0)+0x200).
 */
static void dev_asm_lines(void)
{
	static const uint8_t types[2] = { DRM_VATOM_TILE_TENSIX,
					  DRM_VATOM_TILE_TENSIX };
	struct drm_vatom_tile_grid_desc desc = {
		.profile = DRM_VATOM_NOC_PROFILE_BLACKHOLE, .width = 2,
		.height = 1, .l1_size = { 4096 }, .tile_types = (uintptr_t)types,
	};
	static const uint32_t want_mem[8] = { 11, 21, 31, 41, 51, 0, 0, 0 };
	struct vatom_surface *s = NULL, *grid = NULL;
	struct vatom_batch *b = NULL;
	struct vatom_asm *a = NULL;
	uint32_t *mem, v;
	int r0, r1, r2, i;

	REQUIRE(!vatom_surface_create_buffer(dev, 64, 0, &s));
	REQUIRE(!vatom_surface_create_tile_grid(dev, &desc, &grid));
	REQUIRE(!vatom_surface_map(s, (void **)&mem));
	for (i = 0; i < 5; i++)
		mem[i] = 10 * (i + 1);
	mem[8] = 7;
	REQUIRE(!vatom_noc_l1_write32(grid, 1, 0, 0x100, 10));
	REQUIRE(!vatom_batch_create(dev, 0, &b));
	REQUIRE(!vatom_batch_bind(b, VATOM_T255, s));
	REQUIRE(!vatom_batch_bind(b, 3, grid));
	REQUIRE(!vatom_asm_create(0, &a));
	REQUIRE(!vatom_asm_define_grid(a, "g", 3, DRM_VATOM_NOC_PROFILE_BLACKHOLE));
	r0 = vatom_asm_line(a, b, "DWORD_ATOMIC.ADD (5) T255 {0, 4, 8, 12, 16} 1 V0 old");
	r1 = vatom_asm_line(a, b, "atom.global.cas.b32 d, [T5+32], 7, 99;");
	r2 = vatom_asm_line(a, b, "noc.incr g (0,0) -> (1,0)+0x100 data=5 ret=(0,0)+0x200");
	REQUIRE(r0 == 0 && r1 == 1 && r2 == 2);
	EXPECT_EQ(vatom_batch_submit(b), 0);
	for (i = 0; i < 8; i++) {
		EXPECT_EQ(mem[i], want_mem[i]);
		EXPECT_EQ(vatom_result_u32(b, r0, i), i < 5 ? 10 * (i + 1) : 0);
	}
	EXPECT_EQ(vatom_result_u32(b, r1, 0), 7);
	EXPECT_EQ(mem[8], 99);
	EXPECT(!vatom_noc_l1_read32(grid, 1, 0, 0x100, &v) && v == 15);
	EXPECT(!vatom_noc_l1_read32(grid, 0, 0, 0x200, &v) && v == 10);
out:
	vatom_asm_destroy(a);
	vatom_batch_destroy(b);
	vatom_surface_destroy(grid);
	vatom_surface_destroy(s);
}

/*
 * TYPED_ATOMIC on a 4x4 2D surface: ADD then XCHG on the same texels, so
 * the second returns what the first added, whatever the texel layout; a
 * lane with U past the width is out of bounds (returns 0, writes nothing).
 */
static void dev_typed_atomic(void)
{
	struct drm_vatom_typed_desc td = {
		.dim = DRM_VATOM_TYPED_2D, .format = DRM_VATOM_FORMAT_R32,
		.width = 4, .height = 4, .depth = 1, .array_size = 1,
		.levels = 1,
	};
	const uint32_t u[8] = { 0, 1, 2, 3, 0, 1, 2, 4 };
	const uint32_t v[8] = { 0, 0, 0, 0, 1, 1, 1, 0 };
	const uint32_t add[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	const uint32_t xchg[8] = { 100, 101, 102, 103, 104, 105, 106, 107 };
	const uint32_t want_xchg[8] = { 1, 2, 3, 4, 5, 6, 7, 0 };
	struct vatom_visa_exec ex = VATOM_VISA_EXEC(8);
	struct vatom_surface *s = NULL;
	struct vatom_batch *b = NULL;
	uint32_t idx, reason;
	int r0, r1, i, ret;

	ret = vatom_surface_create_typed(dev, &td, &s);
	if (ret == -EOPNOTSUPP) {
		skip("typed surfaces not implemented by the device");
		return;
	}
	REQUIRE(!ret);
	REQUIRE(!vatom_batch_create(dev, 0, &b));
	REQUIRE(!vatom_batch_bind(b, 2, s));
	r0 = vatom_prep_typed_atomic(b, &ex, VATOM_VISA_ADD, VATOM_VISA_DST, 2,
				     u, v, NULL, NULL, add, NULL);
	r1 = vatom_prep_typed_atomic(b, &ex, VATOM_VISA_XCHG, VATOM_VISA_DST, 2,
				     u, v, NULL, NULL, xchg, NULL);
	REQUIRE(r0 == 0 && r1 == 1);
	EXPECT_EQ(vatom_batch_submit(b), 0);
	for (i = 0; i < 8; i++) {
		EXPECT_EQ(vatom_result_u32(b, r0, i), 0);
		EXPECT_EQ(vatom_result_u32(b, r1, i), want_xchg[i]);
	}
	/* A 2D surface needs V: V0 there is an operand error. */
	vatom_batch_reset(b);
	EXPECT_EQ(vatom_prep_typed_atomic(b, &ex, VATOM_VISA_INC, 0, 2, u, NULL,
					  NULL, NULL, NULL, NULL), 0);
	EXPECT_EQ(vatom_batch_submit(b), -EINVAL);
	vatom_batch_error(b, &idx, &reason);
	EXPECT_EQ(idx, 0);
	EXPECT_EQ(reason, DRM_VATOM_ERR_OPERANDS);
out:
	vatom_batch_destroy(b);
	vatom_surface_destroy(s);
}

/*
 * NoC on a 2x1 Blackhole grid of Tensix tiles with 4 KiB L1s. The surface
 * layout (tile_grid.h, docs/semantics-noc.md): NIU counter blocks first,
 * DRM_VATOM_NOC_NIU_COUNTERS words per tile and NoC, tile-major; then the
 * L1s in row-major order. So tile (0,0) NoC 0 counters at 0, tile (1,0)
 * NoC 0 at 512; L1 (0,0) at 1024, L1 (1,0) at 1024 + 4096.
 */
static void dev_noc(void)
{
	uint8_t types[2] = { DRM_VATOM_TILE_TENSIX, DRM_VATOM_TILE_TENSIX };
	struct drm_vatom_tile_grid_desc gd = {
		.profile = DRM_VATOM_NOC_PROFILE_BLACKHOLE, .width = 2,
		.height = 1, .tile_types = (uintptr_t)types,
		.l1_size = { [DRM_VATOM_TILE_TENSIX] = 4096 },
	};
	const int prof = DRM_VATOM_NOC_PROFILE_BLACKHOLE;
	struct vatom_noc_req inc = {
		.slot = 3, .x = 0, .y = 0,
		.packet_tag = 3u << DRM_VATOM_NOC_TAG_TXN_ID_SHIFT,
		.ctrl = DRM_VATOM_NOC_CTRL_REQ_ATOMIC |
			DRM_VATOM_NOC_CTRL_RESP_MARKED,
		.at_len_be = vatom_noc_at_increment(0, 31),
		.at_data = 5,
	};
	struct vatom_noc_req cas = {
		.slot = 3, .x = 0, .y = 0,
		.ctrl = DRM_VATOM_NOC_CTRL_REQ_ATOMIC,	/* posted */
		.at_len_be = vatom_noc_at_cas(1, 0, 9),
	};
	struct vatom_surface *s = NULL;
	struct vatom_batch *b = NULL;
	uint32_t *ctr00, *ctr10, *l1_00, *l1_10;
	uint8_t *base;
	int ret;

	ret = vatom_surface_create_tile_grid(dev, &gd, &s);
	if (ret == -EOPNOTSUPP) {
		skip("tile grids not implemented by the device");
		return;
	}
	REQUIRE(!ret);
	REQUIRE(!vatom_surface_map(s, (void **)&base));
	EXPECT_EQ(vatom_surface_size(s), 1024 + 2 * 4096);
	ctr00 = (uint32_t *)base;
	ctr10 = (uint32_t *)(base + 2 * DRM_VATOM_NOC_NIU_COUNTERS * 4);
	l1_00 = (uint32_t *)(base + 1024);
	l1_10 = (uint32_t *)(base + 1024 + 4096);
	l1_10[0x100 / 4] = 0x10;
	REQUIRE(!vatom_noc_target(&inc, prof, 1, 0, 0x100));
	REQUIRE(!vatom_noc_return(&inc, prof, 0, 0, 0x200));
	REQUIRE(!vatom_noc_target(&cas, prof, 1, 0, 0x104));
	REQUIRE(!vatom_batch_create(dev, 0, &b));
	REQUIRE(!vatom_batch_bind(b, 3, s));
	EXPECT_EQ(vatom_prep_noc(b, &inc), 0);
	EXPECT_EQ(vatom_prep_noc(b, &cas), 1);
	EXPECT_EQ(vatom_batch_results_size(b), 0);
	EXPECT_EQ(vatom_batch_submit(b), 0);
	EXPECT_EQ(l1_10[0x100 / 4], 0x15);	/* 0x10 + 5 */
	EXPECT_EQ(l1_00[0x200 / 4], 0x10);	/* the response: old value */
	EXPECT_EQ(l1_10[0x104 / 4], 9);		/* 0 == CmpVal: SetVal */
	/* Counters (spec section 5.3): one response, txn 3 back to 0. */
	EXPECT_EQ(ctr00[DRM_VATOM_NOC_MST_ATOMIC_RESP_RECEIVED], 1);
	EXPECT_EQ(ctr00[DRM_VATOM_NOC_MST_REQS_OUTSTANDING_ID(3)], 0);
	EXPECT_EQ(ctr00[DRM_VATOM_NOC_MST_NONPOSTED_ATOMIC_SENT], 1);
	EXPECT_EQ(ctr00[DRM_VATOM_NOC_MST_POSTED_ATOMIC_SENT], 1);
	EXPECT_EQ(ctr10[DRM_VATOM_NOC_SLV_REQ_ACCEPTED], 2);
	EXPECT_EQ(ctr10[DRM_VATOM_NOC_SLV_NONPOSTED_ATOMIC_RECEIVED], 1);
	EXPECT_EQ(ctr10[DRM_VATOM_NOC_SLV_POSTED_ATOMIC_RECEIVED], 1);
out:
	vatom_batch_destroy(b);
	vatom_surface_destroy(s);
}

/* The NoC L1 and counter helpers refuse what they cannot do, offline. */
static void host_noc_helper_errors(void)
{
	uint32_t v, c[DRM_VATOM_NOC_NIU_COUNTERS];
	void *p;

	EXPECT_EQ(vatom_noc_l1(NULL, 0, 0, 0, &p), -EINVAL);
	EXPECT_EQ(vatom_noc_l1_read32(NULL, 0, 0, 0, &v), -EINVAL);
	EXPECT_EQ(vatom_noc_l1_write32(NULL, 0, 0, 0, 1), -EINVAL);
	EXPECT_EQ(vatom_noc_counters_read(NULL, 0, 0, 0, c, 1), -EINVAL);
	EXPECT_EQ(vatom_noc_counters_clear(NULL, 0, 0, 0, 1, 0, NULL), -EINVAL);
	EXPECT_EQ(vatom_noc_counters_clear(NULL, 0, 0, 0, 0, 2, NULL), -EINVAL);
}

/*
 * The L1 and counter helpers on a 3 x 2 Blackhole grid, 4 KiB Tensix and
 * 1 KiB Ethernet L1s. Layout by hand (docs/semantics-noc.md): 6 tiles of
 * counters (3072 bytes), then L1s (0,0) T at 3072, (1,0) E at 7168,
 * (2,0) DRAM none, (0,1) T at 8192, (1,1) PCIe none, (2,1) T at 12288.
 */
static void dev_noc_helpers(void)
{
	uint8_t types[6] = {
		DRM_VATOM_TILE_TENSIX, DRM_VATOM_TILE_ETHERNET, DRM_VATOM_TILE_DRAM,
		DRM_VATOM_TILE_TENSIX, DRM_VATOM_TILE_PCIE, DRM_VATOM_TILE_TENSIX,
	};
	struct drm_vatom_tile_grid_desc gd = {
		.profile = DRM_VATOM_NOC_PROFILE_BLACKHOLE, .width = 3,
		.height = 2, .tile_types = (uintptr_t)types,
		.l1_size = { 4096, 1024, 0, 0 },
	};
	const int prof = DRM_VATOM_NOC_PROFILE_BLACKHOLE;
	struct vatom_noc_req inc = {
		.slot = 1, .x = 0, .y = 0,
		.packet_tag = 6u << DRM_VATOM_NOC_TAG_TXN_ID_SHIFT,
		.ctrl = DRM_VATOM_NOC_CTRL_REQ_ATOMIC |
			DRM_VATOM_NOC_CTRL_RESP_MARKED,
		.at_len_be = vatom_noc_at_increment(0, 31),
		.at_data = 5,
	};
	uint32_t c[DRM_VATOM_NOC_NIU_COUNTERS + 1], v;
	struct vatom_surface *s = NULL, *buf = NULL;
	struct vatom_batch *b = NULL;
	uint8_t *base;
	void *p;

	REQUIRE(!vatom_surface_create_tile_grid(dev, &gd, &s));
	EXPECT_EQ(vatom_surface_size(s), 16384);
	REQUIRE(!vatom_surface_map(s, (void **)&base));
	REQUIRE(!vatom_surface_create_buffer(dev, 4096, 0, &buf));

	/* Where each L1 byte is. */
	EXPECT_EQ(vatom_noc_l1(s, 0, 0, 0, &p), 0);
	EXPECT(p == base + 3072);
	EXPECT_EQ(vatom_noc_l1(s, 1, 0, 0x10, &p), 0);
	EXPECT(p == base + 7168 + 0x10);
	EXPECT_EQ(vatom_noc_l1(s, 1, 0, 1023, &p), 0);
	EXPECT(p == base + 7168 + 1023);
	EXPECT_EQ(vatom_noc_l1(s, 0, 1, 4095, &p), 0);
	EXPECT(p == base + 8192 + 4095);
	EXPECT_EQ(vatom_noc_l1(s, 2, 1, 0, &p), 0);
	EXPECT(p == base + 12288);
	/* What has no L1 or lies past it. */
	EXPECT_EQ(vatom_noc_l1(s, 2, 0, 0, &p), -EINVAL);	/* DRAM */
	EXPECT_EQ(vatom_noc_l1(s, 1, 1, 0, &p), -EINVAL);	/* PCIe */
	EXPECT_EQ(vatom_noc_l1(s, 3, 0, 0, &p), -EINVAL);
	EXPECT_EQ(vatom_noc_l1(s, 0, 2, 0, &p), -EINVAL);
	EXPECT_EQ(vatom_noc_l1(s, 1, 0, 1024, &p), -EINVAL);
	EXPECT_EQ(vatom_noc_l1(s, 0, 0, 4096, &p), -EINVAL);
	EXPECT_EQ(vatom_noc_l1(s, 0, 0, 0xffffffff, &p), -EINVAL);
	EXPECT_EQ(vatom_noc_l1(s, 0, 0, 0, NULL), -EINVAL);
	EXPECT_EQ(vatom_noc_l1(buf, 0, 0, 0, &p), -EINVAL);
	EXPECT_EQ(vatom_noc_l1_read32(s, 0, 0, 4092, &v), 0);
	EXPECT_EQ(vatom_noc_l1_read32(s, 0, 0, 4094, &v), -EINVAL);
	EXPECT_EQ(vatom_noc_l1_read32(s, 0, 0, 4096, &v), -EINVAL);
	EXPECT_EQ(vatom_noc_l1_read32(s, 1, 0, 1021, &v), -EINVAL);
	EXPECT_EQ(vatom_noc_l1_write32(s, 1, 0, 1022, 1), -EINVAL);
	EXPECT_EQ(vatom_noc_l1_read32(s, 0, 0, 0, NULL), -EINVAL);

	/* (0,0) increments (2,1) 0x40 by 5; the response goes to (1,0) 0x20. */
	EXPECT_EQ(vatom_noc_l1_write32(s, 2, 1, 0x40, 7), 0);
	EXPECT_EQ(*(uint32_t *)(base + 12288 + 0x40), 7);
	EXPECT_EQ(vatom_noc_l1_write32(s, 1, 0, 0x20, 0xdead), 0);
	REQUIRE(!vatom_noc_target(&inc, prof, 2, 1, 0x40));
	REQUIRE(!vatom_noc_return(&inc, prof, 1, 0, 0x20));
	REQUIRE(!vatom_batch_create(dev, 0, &b));
	REQUIRE(!vatom_batch_bind(b, 1, s));
	EXPECT_EQ(vatom_prep_noc(b, &inc), 0);
	EXPECT_EQ(vatom_batch_submit(b), 0);
	EXPECT_EQ(vatom_noc_l1_read32(s, 2, 1, 0x40, &v), 0);
	EXPECT_EQ(v, 12);
	EXPECT_EQ(vatom_noc_l1_read32(s, 1, 0, 0x20, &v), 0);
	EXPECT_EQ(v, 7);

	/* Counters (spec section 5.3), through the ioctl and the mapping. */
	memset(c, 0xcc, sizeof(c));
	EXPECT_EQ(vatom_noc_counters_read(s, 0, 0, 0, c, 23), 0);
	EXPECT_EQ(c[DRM_VATOM_NOC_MST_CMD_ACCEPTED], 1);
	EXPECT_EQ(c[DRM_VATOM_NOC_MST_NONPOSTED_ATOMIC_SENT], 1);
	EXPECT_EQ(c[DRM_VATOM_NOC_MST_ATOMIC_RESP_RECEIVED], 0);
	EXPECT_EQ(c[DRM_VATOM_NOC_MST_REQS_OUTSTANDING_ID(6)], 1);
	EXPECT_EQ(c[23], 0xcccccccc);
	EXPECT_EQ(vatom_noc_counters_read(s, 1, 0, 0, c, 64), 0);
	EXPECT_EQ(c[DRM_VATOM_NOC_MST_ATOMIC_RESP_RECEIVED], 1);
	EXPECT_EQ(c[DRM_VATOM_NOC_MST_REQS_OUTSTANDING_ID(6)], 0xff);
	EXPECT_EQ(((uint32_t *)base)[(1 * 2 + 0) * 64 + 16 + 6], 0xff);
	/* Clear ID 6 at both ends; the return side with the old values. */
	EXPECT_EQ(vatom_noc_counters_clear(s, 0, 0, 0, 1u << 6, 0, NULL), 0);
	EXPECT_EQ(((uint32_t *)base)[16 + 6], 0);
	memset(c, 0xcc, sizeof(c));
	EXPECT_EQ(vatom_noc_counters_clear(s, 1, 0, 0, 1u << 6, 0, c), 0);
	EXPECT_EQ(c[DRM_VATOM_NOC_MST_REQS_OUTSTANDING_ID(6)], 0xff);
	EXPECT_EQ(c[DRM_VATOM_NOC_MST_ATOMIC_RESP_RECEIVED], 1);
	EXPECT_EQ(c[64], 0xcccccccc);
	EXPECT_EQ(vatom_noc_counters_read(s, 1, 0, 0, c, 64), 0);
	EXPECT_EQ(c[DRM_VATOM_NOC_MST_REQS_OUTSTANDING_ID(6)], 0);
	EXPECT_EQ(c[DRM_VATOM_NOC_MST_ATOMIC_RESP_RECEIVED], 1);
	/* Everything of the target tile. */
	EXPECT_EQ(vatom_noc_counters_clear(s, 2, 1, 0, 0, VATOM_NOC_CLEAR_ALL, c), 0);
	EXPECT_EQ(c[DRM_VATOM_NOC_SLV_REQ_ACCEPTED], 1);
	EXPECT_EQ(c[DRM_VATOM_NOC_SLV_ATOMIC_RESP_SENT], 1);
	EXPECT_EQ(vatom_noc_counters_read(s, 2, 1, 0, c, 64), 0);
	EXPECT_EQ(c[DRM_VATOM_NOC_SLV_REQ_ACCEPTED], 0);
	EXPECT_EQ(c[DRM_VATOM_NOC_SLV_ATOMIC_RESP_SENT], 0);

	/* The kernel's errors come back as they are. */
	EXPECT_EQ(vatom_noc_counters_read(s, 0, 0, 0, c, 0), -EINVAL);
	EXPECT_EQ(vatom_noc_counters_read(s, 0, 0, 0, c, 65), -EINVAL);
	EXPECT_EQ(vatom_noc_counters_read(s, 0, 0, 2, c, 1), -EINVAL);
	EXPECT_EQ(vatom_noc_counters_read(s, 3, 0, 0, c, 1), -EINVAL);
	EXPECT_EQ(vatom_noc_counters_read(s, 0, 0, 0, NULL, 1), -EINVAL);
	EXPECT_EQ(vatom_noc_counters_read(buf, 0, 0, 0, c, 1), -EINVAL);
	EXPECT_EQ(vatom_noc_counters_clear(s, 0, 0, 0, 0x10000, 0, NULL), -EINVAL);
	EXPECT_EQ(vatom_noc_counters_clear(s, 0, 0, 0, 1, VATOM_NOC_CLEAR_ALL, NULL),
		  -EINVAL);
	EXPECT_EQ(vatom_noc_counters_clear(s, 0, 0, 0, 0, 2, NULL), -EINVAL);
	EXPECT_EQ(vatom_noc_counters_clear(s, 0, 0, 0, 0, 0, (uint32_t *)8), -EFAULT);
out:
	vatom_batch_destroy(b);
	vatom_surface_destroy(buf);
	vatom_surface_destroy(s);
}

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

/* ------------------------------------------------------------------------ */

/*
 * The DWORD_ATOMIC batch through a user-mode queue: the same results and
 * memory as a SUBMIT; then a full ring, a rejected job's status, and 100
 * small jobs with exact totals.
 */
static void dev_queue(void)
{
	const struct vatom_queue_params qp = {
		.entries = 8, .stream_bytes = 1024, .results_bytes = 256,
	};
	static const struct drm_vatom_packet bad = { .type = 99, .size = 8 };
	struct vatom_surface *s = NULL, *t = NULL;
	struct vatom_batch *b = NULL, *small = NULL;
	struct vatom_queue *q = NULL;
	struct dword_batch r;
	uint64_t seq, last = 0;
	uint32_t idx, reason, *mem, *tm, lane, addr[4], src[4];
	struct vatom_visa_exec ex = VATOM_VISA_EXEC(4);
	void *stream;
	int i;

	if (!(vatom_device_caps(dev) & DRM_VATOM_CAP_QUEUE)) {
		skip("no DRM_VATOM_CAP_QUEUE");
		return;
	}
	REQUIRE(!vatom_surface_create_buffer(dev, NDW * 4, 0, &s));
	REQUIRE(!vatom_surface_map(s, (void **)&mem));
	memcpy(mem, init_mem, sizeof(init_mem));
	REQUIRE(!vatom_surface_create_buffer(dev, 4096, 0, &t));
	REQUIRE(!vatom_surface_map(t, (void **)&tm));
	REQUIRE(!vatom_batch_create(dev, 0, &b));
	REQUIRE(!vatom_batch_bind(b, VATOM_T255, s));
	REQUIRE(!vatom_batch_bind(b, 7, t));
	REQUIRE(!vatom_queue_create(dev, &qp, b, &q));
	REQUIRE(!build_dword_batch(b, &r));
	REQUIRE(!vatom_queue_submit_batch(q, b, &seq));
	EXPECT_EQ(seq, 1);
	EXPECT_EQ(vatom_queue_job_status(q, seq, NULL, NULL), -EBUSY);
	EXPECT_EQ(vatom_queue_wait(q, seq, -1), 0);
	EXPECT_EQ(vatom_queue_completed(q), 1);
	EXPECT_EQ(vatom_queue_batch_results(q, seq, b), 0);
	EXPECT_EQ(vatom_batch_error(b, &idx, &reason), 0);
	check_dword_results(b, &r);
	expect_memory(mem, want_mem);

	/* A rejected job: its status, index and reason; nothing executes. */
	vatom_batch_reset(b);
	EXPECT(vatom_prep_raw(b, &bad, sizeof(bad), 0) >= 0);
	REQUIRE(!vatom_queue_submit_batch(q, b, &seq));
	EXPECT_EQ(vatom_queue_wait(q, seq, 1000000000), 0);
	EXPECT_EQ(vatom_queue_job_status(q, seq, &idx, &reason), -EINVAL);
	EXPECT_EQ(idx, 0);
	EXPECT_EQ(reason, DRM_VATOM_ERR_PACKET_TYPE);
	expect_memory(mem, want_mem);

	/* 100 jobs "lane k of word k += i + 1" on slot 7, through reserve/commit. */
	REQUIRE(!vatom_batch_create(dev, 0, &small));
	REQUIRE(!vatom_batch_bind(small, 7, t));
	for (i = 0; i < 100; i++) {
		vatom_batch_reset(small);
		for (lane = 0; lane < 4; lane++) {
			addr[lane] = 4 * lane;
			src[lane] = i + 1;
		}
		EXPECT(vatom_prep_dword_atomic(small, &ex, VATOM_VISA_ADD, VATOM_VISA_DST,
					       7, addr, src, NULL) >= 0);
		if (vatom_queue_submit_batch(q, small, &seq) == -EAGAIN) {
			/* The ring is full: every entry is committed, none complete. */
			EXPECT_EQ(vatom_queue_reserve(q, 8, &stream), -EAGAIN);
			EXPECT_EQ(vatom_queue_wait(q, last, -1), 0);
			REQUIRE(!vatom_queue_submit_batch(q, small, &seq));
		}
		last = seq;
		if (i % 10 == 9) {
			EXPECT_EQ(vatom_queue_wait(q, seq, -1), 0);
			/* The old values of this job: the sum of the i before. */
			EXPECT_EQ(vatom_queue_batch_results(q, seq, small), 0);
			EXPECT_EQ(vatom_result_u32(small, 0, 3), i * (i + 1) / 2);
		}
	}
	EXPECT_EQ(vatom_queue_wait(q, last, -1), 0);
	for (lane = 0; lane < 4; lane++)
		EXPECT_EQ(tm[lane], 100 * 101 / 2);
	EXPECT_EQ(vatom_queue_job_status(q, last - 8, NULL, NULL), -ENOENT);
	EXPECT_EQ(vatom_queue_reserve(q, 2048, &stream), -E2BIG);
out:
	vatom_queue_destroy(q);
	vatom_batch_destroy(small);
	vatom_batch_destroy(b);
	vatom_surface_destroy(t);
	vatom_surface_destroy(s);
}

/*
 * What the polling-queue tests start from: a 4 KiB buffer @t mapped at
 * @tm, bound at slot 7 of a new batch @b, and a timeline syncobj.
 * Return: 1, 0 when the device has no polling queues (skipped), -1 when
 * a step failed (counted).
 */
static int queue_poll_setup(struct vatom_surface **t, uint32_t **tm,
			    struct vatom_batch **b, uint32_t *timeline)
{
	if (!(vatom_device_caps(dev) & DRM_VATOM_CAP_QUEUE_POLL) ||
	    !(vatom_device_caps(dev) & DRM_VATOM_CAP_QUEUE_SIGNAL)) {
		skip("no DRM_VATOM_CAP_QUEUE_POLL and _SIGNAL");
		return 0;
	}
	REQUIRE(!vatom_surface_create_buffer(dev, 4096, 0, t));
	REQUIRE(!vatom_surface_map(*t, (void **)tm));
	REQUIRE(!vatom_batch_create(dev, 0, b));
	REQUIRE(!vatom_batch_bind(*b, 7, *t));
	REQUIRE(!drmSyncobjCreate(vatom_device_fd(dev), 0, timeline));
	return 1;
out:
	return -1;
}

/*
 * A polling queue with a timeline syncobj and an eventfd: 50 jobs
 * "lane k of word k += i + 1" complete without a KICK each, the totals are
 * 50 * 51 / 2, the timeline's last point is 50 and the eventfd counted
 * between 1 and 50 batches. Then what vatom_queue_create_ext() refuses.
 */
static void dev_queue_poll(void)
{
	const struct vatom_queue_params qp = {
		.entries = 16, .stream_bytes = 512, .results_bytes = 64,
	};
	struct vatom_queue_ext ext = {
		.flags = VATOM_QUEUE_POLL | VATOM_QUEUE_EVENTFD,
		.poll_idle_us = 100000,
	};
	static const struct {
		uint32_t flags, idle;
		int eventfd;
	} bad[] = {
		{ VATOM_QUEUE_POLL_CPU << 1, 0, 0 },	/* unknown flag */
		{ 0, 1000, 0 },				/* idle without POLL */
		{ VATOM_QUEUE_POLL, 0, 5 },		/* eventfd without its flag */
		{ VATOM_QUEUE_POLL_CPU, 0, 0 },		/* a CPU without POLL */
	};
	struct vatom_visa_exec ex = VATOM_VISA_EXEC(4);
	uint32_t *tm, lane, addr[4], src[4], timeline = 0;
	struct vatom_batch *b = NULL;
	struct vatom_surface *t = NULL;
	struct vatom_queue *q = NULL;
	uint64_t seq = 0, point = 0, batches = 0;
	size_t k;
	int i, efd = -1;

	if (queue_poll_setup(&t, &tm, &b, &timeline) <= 0)
		goto out;
	for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		struct vatom_queue_ext e = {
			.flags = bad[k].flags, .poll_idle_us = bad[k].idle,
			.eventfd = bad[k].eventfd,
		};

		EXPECT_EQ(vatom_queue_create_ext(dev, &qp, &e, b, &q), -EINVAL);
	}
	efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	REQUIRE(efd >= 0);
	ext.syncobj = timeline;
	ext.eventfd = efd;
	REQUIRE(!vatom_queue_create_ext(dev, &qp, &ext, b, &q));

	for (i = 0; i < 50; i++) {
		vatom_batch_reset(b);
		for (lane = 0; lane < 4; lane++) {
			addr[lane] = 4 * lane;
			src[lane] = i + 1;
		}
		EXPECT(vatom_prep_dword_atomic(b, &ex, VATOM_VISA_ADD, 0, 7, addr,
					       src, NULL) >= 0);
		if (vatom_queue_submit_batch(q, b, &seq) == -EAGAIN) {
			EXPECT_EQ(vatom_queue_wait(q, seq, -1), 0);
			REQUIRE(!vatom_queue_submit_batch(q, b, &seq));
		}
		EXPECT_EQ(vatom_queue_kick(q), 0);	/* a no-op while it polls */
	}
	EXPECT_EQ(seq, 50);
	EXPECT_EQ(vatom_queue_wait(q, seq, 5000000000LL), 0);
	for (lane = 0; lane < 4; lane++)
		EXPECT_EQ(tm[lane], 50 * 51 / 2);
	EXPECT_EQ(vatom_queue_job_status(q, seq, NULL, NULL), 0);
	/*
	 * The point follows the count (docs/queues.md): the poller adds it
	 * after the batch that completed job 50, which the wait above may
	 * have seen complete first. WAIT_FOR_SUBMIT waits for it to exist.
	 */
	point = seq;
	EXPECT_EQ(drmSyncobjTimelineWait(vatom_device_fd(dev), &timeline, &point,
					 1, INT64_MAX,
					 DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
					 NULL), 0);
	point = 0;
	EXPECT_EQ(drmSyncobjQuery(vatom_device_fd(dev), &timeline, &point, 1), 0);
	EXPECT_EQ(point, 50);
	EXPECT_EQ(read(efd, &batches, sizeof(batches)), (ssize_t)sizeof(batches));
	EXPECT(batches >= 1 && batches <= 50);
out:
	vatom_queue_destroy(q);
	if (timeline)
		drmSyncobjDestroy(vatom_device_fd(dev), timeline);
	if (efd >= 0)
		close(efd);
	vatom_batch_destroy(b);
	vatom_surface_destroy(t);
}

/*
 * vatom_queue_wait() on a queue with a timeline syncobj blocks in the
 * syncobj's wait: a poller that sleeps after 1 us is woken by the kick
 * of each wait, and each of 100 jobs "word 0 += i + 1" is complete when
 * the wait returns 0. Word 0 is then 100 * 101 / 2 = 5050 and the
 * timeline's last point 100. The polling thread is pinned to the CPU the
 * test runs on (VATOM_QUEUE_POLL_CPU): one the caller may run on.
 */
static void dev_queue_wait_syncobj(void)
{
	const struct vatom_queue_params qp = {
		.entries = 4, .stream_bytes = 256, .results_bytes = 16,
	};
	struct vatom_queue_ext ext = {
		.flags = VATOM_QUEUE_POLL | VATOM_QUEUE_POLL_CPU, .poll_idle_us = 1,
	};
	struct vatom_visa_exec ex = VATOM_VISA_EXEC(1);
	uint32_t *tm, addr[1] = { 0 }, src[1], timeline = 0;
	struct vatom_batch *b = NULL;
	struct vatom_surface *t = NULL;
	struct vatom_queue *q = NULL;
	uint64_t seq = 0, point = 0;
	int i;

	if (queue_poll_setup(&t, &tm, &b, &timeline) <= 0)
		goto out;
	ext.syncobj = timeline;
	REQUIRE(sched_getcpu() >= 0);
	ext.poll_cpu = (uint32_t)sched_getcpu();
	REQUIRE(!vatom_queue_create_ext(dev, &qp, &ext, b, &q));
	for (i = 0; i < 100; i++) {
		vatom_batch_reset(b);
		src[0] = (uint32_t)i + 1;
		EXPECT(vatom_prep_dword_atomic(b, &ex, VATOM_VISA_ADD, 0, 7, addr,
					       src, NULL) >= 0);
		REQUIRE(!vatom_queue_submit_batch(q, b, &seq));
		EXPECT_EQ(vatom_queue_wait(q, seq, 5000000000LL), 0);
		EXPECT(vatom_queue_completed(q) >= seq);
		EXPECT_EQ(vatom_queue_job_status(q, seq, NULL, NULL), 0);
	}
	EXPECT_EQ(seq, 100);
	EXPECT_EQ(tm[0], 5050);
	EXPECT_EQ(drmSyncobjQuery(vatom_device_fd(dev), &timeline, &point, 1), 0);
	EXPECT_EQ(point, 100);
out:
	vatom_queue_destroy(q);
	if (timeline)
		drmSyncobjDestroy(vatom_device_fd(dev), timeline);
	vatom_batch_destroy(b);
	vatom_surface_destroy(t);
}

/*
 * Reset status on a fresh device file: none, 0 guilty and 0 innocent,
 * before and after an acknowledgement; unknown flags are -EINVAL, from
 * the library and (raw) from the kernel, which also refuses a non-zero
 * pad; the file still submits. (Timeouts and faults themselves need the
 * kernel's fault injection: selftests.)
 */
static void dev_reset_status(void)
{
	static const struct {
		uint32_t flags;
		uint64_t pad;
		int want;
	} raw[] = {
		{ 0, 0, 0 },
		{ DRM_VATOM_RESET_ACK, 0, 0 },
		{ DRM_VATOM_RESET_ACK << 1, 0, -EINVAL },	/* unknown flag */
		{ 0x80000000u, 0, -EINVAL },
		{ 0, 1, -EINVAL },				/* pad MBZ */
		{ DRM_VATOM_RESET_ACK, 1ull << 63, -EINVAL },
	};
	static const struct {
		unsigned int flags;
		bool out;
		int want;
	} calls[] = {
		{ 0, true, 0 },
		{ VATOM_RESET_ACK, true, 0 },
		{ VATOM_RESET_ACK, false, 0 },		/* out is optional */
		{ 0, false, 0 },
		{ VATOM_RESET_ACK << 1, true, -EINVAL },
		{ VATOM_RESET_ACK | 0x100, true, -EINVAL },
		{ 0xffffffffu, true, -EINVAL },
	};
	const uint32_t offs[1] = { 0 }, one[1] = { 1 };
	struct vatom_visa_exec ex = VATOM_VISA_EXEC(1);
	struct vatom_device *d2 = NULL;
	struct vatom_surface *s = NULL;
	struct vatom_batch *b = NULL;
	struct vatom_reset_status rs;
	uint32_t *mem;
	unsigned int i;

	/* A file of its own: the shared one has run every test before. */
	REQUIRE(!vatom_device_open_path(vatom_device_node(dev), 0, &d2));
	if (!(vatom_device_caps(d2) & DRM_VATOM_CAP_RESET_STATUS)) {
		EXPECT_EQ(vatom_device_reset_status(d2, 0, &rs), -EOPNOTSUPP);
		skip("no DRM_VATOM_CAP_RESET_STATUS");
		goto out;
	}
	for (i = 0; i < ARRAY_SIZE(calls); i++) {
		int ret;

		rs = (struct vatom_reset_status){ 7, 8, 9 };
		ret = vatom_device_reset_status(d2, calls[i].flags,
						calls[i].out ? &rs : NULL);
		if (ret != calls[i].want) {
			printf("#   call %u: flags 0x%x: %d, expected %d\n", i,
			       calls[i].flags, ret, calls[i].want);
			fails++;
		}
		if (ret || !calls[i].out) {
			/* not written */
			EXPECT_EQ(rs.status, 7);
			EXPECT_EQ(rs.guilty, 8);
			EXPECT_EQ(rs.innocent, 9);
			continue;
		}
		EXPECT_EQ(rs.status, VATOM_RESET_NONE);
		EXPECT_EQ(rs.guilty, 0);
		EXPECT_EQ(rs.innocent, 0);
	}
	for (i = 0; i < ARRAY_SIZE(raw); i++) {
		struct drm_vatom_reset_status r = {
			.flags = raw[i].flags, .status = 77, .pad = raw[i].pad,
		};
		int ret = drmIoctl(vatom_device_fd(d2), DRM_IOCTL_VATOM_RESET_STATUS,
				   &r) ? -errno : 0;

		if (ret != raw[i].want) {
			printf("#   raw %u: flags 0x%x pad 0x%" PRIx64 ": %d, expected %d\n",
			       i, raw[i].flags, raw[i].pad, ret, raw[i].want);
			fails++;
		}
		if (!ret) {
			EXPECT_EQ(r.status, DRM_VATOM_RESET_NONE);
			EXPECT_EQ(r.guilty, 0);
			EXPECT_EQ(r.innocent, 0);
		}
	}
	/* Not guilty: the file submits, and acknowledging changed nothing. */
	REQUIRE(!vatom_surface_create_buffer(d2, 64, 0, &s));
	REQUIRE(!vatom_surface_map(s, (void **)&mem));
	REQUIRE(!vatom_batch_create(d2, 0, &b));
	REQUIRE(!vatom_batch_bind(b, VATOM_T255, s));
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex, VATOM_VISA_ADD, 0, VATOM_T255,
					  offs, one, NULL), 0);
	EXPECT_EQ(vatom_batch_submit(b), 0);
	EXPECT_EQ(mem[0], 1);
	EXPECT_EQ(vatom_device_reset_status(d2, 0, &rs), 0);
	EXPECT_EQ(rs.status, VATOM_RESET_NONE);
	EXPECT_EQ(rs.guilty, 0);
	EXPECT_EQ(rs.innocent, 0);
out:
	vatom_batch_destroy(b);
	vatom_surface_destroy(s);
	vatom_device_close(d2);
}

struct test {
	const char *name;
	void (*fn)(void);
	bool device;
};

static const struct test tests[] = {
	{ "host: version macros and vatom_version()", host_version, false },
	{ "host: DWORD_ATOMIC.ADD packet bytes", host_dword_atomic_bytes, false },
	{ "host: predicated DWORD_ATOMIC.CMPXCHG.16 (M2_NM) packet bytes",
	  host_dword_atomic16_bytes, false },
	{ "host: 64-bit DWORD_ATOMIC.IMAX (M3) packet bytes", host_dword_atomic64_bytes, false },
	{ "host: TYPED_ATOMIC packet bytes and data types", host_typed_atomic_bytes, false },
	{ "host: ADDC packet bytes (immediate, 32 lanes)", host_addc_bytes, false },
	{ "host: PTX atom packet bytes", host_ptx_bytes, false },
	{ "host: PTX access sizes", host_ptx_access_size, false },
	{ "host: NoC packet bytes", host_noc_bytes, false },
	{ "host: NOC_AT_LEN_BE builders", host_noc_at_len_be, false },
	{ "host: NoC target/return coordinates", host_noc_coordinates, false },
	{ "host: result layout of a mixed batch", host_result_layout, false },
	{ "host: prep argument checking", host_prep_errors, false },
	{ "host: accessors before submission", host_accessors_without_results, false },
	{ "host: stream growth and reset", host_growth_and_reset, false },
	{ "host: reason and op strings", host_strings, false },
	{ "host: job error texts, reset status names and arguments",
	  host_reset_strings, false },
	{ "device: discovery and parameters", dev_discovery, true },
	{ "device: buffer create, map, info", dev_surface_basics, true },
	{ "device: dma-buf export and import", dev_surface_sharing, true },
	{ "device: typed and tile-grid surfaces", dev_other_surface_kinds, true },
	{ "device: DWORD_ATOMIC batch (ADD/CMPXCHG/IMAX/PREDEC/XCHG/INC.16)",
	  dev_dword_atomic_batch, true },
	{ "device: results into a surface", dev_result_surface, true },
	{ "device: user-mode queue (submit, wait, status, results)", dev_queue, true },
	{ "device: polling queue with a timeline syncobj and an eventfd",
	  dev_queue_poll, true },
	{ "device: vatom_queue_wait() blocks on the queue's syncobj",
	  dev_queue_wait_syncobj, true },
	{ "device: rejected packets report index and reason", dev_error_reporting, true },
	{ "device: batch reuse and reset", dev_batch_reuse, true },
	{ "device: result-size disagreement is -EPROTO", dev_result_disagreement, true },
	{ "device: DWORD_ATOMIC on 64-bit data", dev_dword_atomic64, true },
	{ "device: ADDC dst and carry", dev_addc, true },
	{ "device: PTX atom", dev_ptx_atom, true },
	{ "device: TYPED_ATOMIC on a 2D surface", dev_typed_atomic, true },
	{ "device: ISA text lines (vISA, PTX, NoC) assembled and run", dev_asm_lines,
	  true },
	{ "device: NoC increment with response, posted CAS, counters", dev_noc, true },
	{ "host: NoC L1 and counter helpers without a surface", host_noc_helper_errors,
	  false },
	{ "device: NoC L1 helpers and NIU counters (NOC_COUNTERS)", dev_noc_helpers, true },
	{ "host: asynchronous API argument checking", host_fence_errors, false },
	{ "device: asynchronous DWORD_ATOMIC batch, results in a surface",
	  dev_async_batch, true },
	{ "device: fences across devices and vgem, deadlines, cancellation",
	  dev_async_fences, true },
	{ "device: reset status of a fresh file: none, ACK, unknown flags",
	  dev_reset_status, true },
};

int main(int argc, char **argv)
{
	bool host_only = argc > 1 && !strcmp(argv[1], "--host");
	unsigned int i, n = 0, failed = 0;
	int ret;

	if (argc > 1 && !host_only) {
		fprintf(stderr, "usage: %s [--host]\n", argv[0]);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
	printf("# libvatom %s, UAPI %d\n", vatom_version_string(),
	       DRM_VATOM_UAPI_VERSION);
	if (!host_only) {
		ret = vatom_device_open(0, 0, &dev);
		if (ret) {
			printf("Bail out! no vatom device: %s\n", strerror(-ret));
			return 1;
		}
		printf("# device %s, UAPI %u, caps 0x%" PRIx64 "\n",
		       vatom_device_node(dev), vatom_device_uapi_version(dev),
		       vatom_device_caps(dev));
	}
	for (i = 0; i < ARRAY_SIZE(tests); i++) {
		if (tests[i].device && host_only)
			continue;
		fails = 0;
		skip_reason = NULL;
		tests[i].fn();
		n++;
		if (skip_reason)
			printf("ok %u - %s # SKIP %s\n", n, tests[i].name,
			       skip_reason);
		else if (fails)
			printf("not ok %u - %s\n", n, tests[i].name);
		else
			printf("ok %u - %s\n", n, tests[i].name);
		failed += !skip_reason && fails;
	}
	printf("1..%u\n", n);
	vatom_device_close(dev);
	return failed ? 1 : 0;
}
