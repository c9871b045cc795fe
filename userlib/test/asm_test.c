// SPDX-License-Identifier: MIT
/*
 * Host tests of the ISA text front end (vatom_asm_line(), vatom_disasm())
 * and the 0.3 helpers, printed as TAP. No device is needed.
 *
 * Table-driven: each line of text is paired with the packet bytes written
 * out by hand from the UAPI struct layouts (uapi/drm/vatom_drm.h) and the
 * ISA documents' encodings, never produced by the library; each bad line
 * with the column and the message it must give. Then every good line goes
 * text -> packet -> disassembly -> packet, and must give the same bytes.
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <vatom.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define LE16(x) ((x) & 0xff), (((x) >> 8) & 0xff)
#define LE32(x) LE16((x) & 0xffff), LE16(((x) >> 16) & 0xffff)
#define LE64(x) LE32((uint32_t)((uint64_t)(x) & 0xffffffffu)), \
		LE32((uint32_t)((uint64_t)(x) >> 32))

static int tests, failed;

static void ok(bool pass, const char *fmt, const char *arg)
{
	tests++;
	if (!pass)
		failed++;
	printf("%sok %d - ", pass ? "" : "not ", tests);
	printf(fmt, arg);
	printf("\n");
}

/* The symbols every line may use. */
static struct vatom_asm *new_asm(void)
{
	static const uint64_t offs[4] = { 0, 4, 8, 12 }, p1[1] = { 0x5 },
		hb[1] = { 0x3c00 }, zero[1] = { 0 }, one[1] = { 1 },
		seven[1] = { 7 };
	struct vatom_asm *a;

	if (vatom_asm_create(0, &a))
		return NULL;
	vatom_asm_define_values(a, "offs", offs, 4);
	vatom_asm_define_values(a, "P1", p1, 1);
	vatom_asm_define_values(a, "hb", hb, 1);
	vatom_asm_define_values(a, "p", one, 1);
	vatom_asm_define_values(a, "q", zero, 1);
	vatom_asm_define_values(a, "info", seven, 1);
	vatom_asm_define_address(a, "buf", 3, 0);
	vatom_asm_define_address(a, "gbl", 3, 0x50);
	vatom_asm_define_grid(a, "bh", 4, DRM_VATOM_NOC_PROFILE_BLACKHOLE);
	vatom_asm_define_grid(a, "wh", 6, DRM_VATOM_NOC_PROFILE_WORMHOLE);
	return a;
}

struct good {
	const char *text;
	uint8_t bytes[160];
	size_t len;
};

/* The vISA fixed part: struct drm_vatom_visa (32 bytes). */
#define VISA(size, opcode, op, exec, surf, type, opnds, emask, pred, flags) \
	LE32(1), LE32(size), opcode, op, exec, surf, type, 0, 0, 0, \
	LE32(opnds), LE32(emask), LE32(pred), LE32(flags)

/* struct drm_vatom_ptx up to the operands (40 bytes). */
#define PTX(op, type, vec, space, sem, scope, slot, flags, addr, policy) \
	LE32(2), LE32(72), op, type, vec, space, sem, scope, slot, 0, \
	LE32(flags), LE32(0), LE64(addr), LE64(policy)

/*
 * atom.global.add.<type> at slot 3 (buf, gbl) + @addr with b = @b (72
 * bytes): add = 6, .global = 1; c, b[1] and the rest 0.
 */
#define PTX_ADD(type, addr, b) \
	{ PTX(6, type, 0, 1, 0, 0, 3, 0, addr, 0), \
	  LE64(b), LE64(0), LE64(0), LE64(0) }

/* struct drm_vatom_noc (64 bytes). */
#define NOC(slot, noc, x, y, tlo, tmid, thi, rlo, rmid, rhi, tag, ctrl, at, data) \
	LE32(3), LE32(64), slot, noc, x, y, LE32(tlo), LE32(tmid), LE32(thi), \
	LE32(rlo), LE32(rmid), LE32(rhi), LE32(tag), LE32(ctrl), LE32(at), \
	LE32(data), LE32(0), LE32(0), LE32(0)

static const struct good good[] = {
	/* ADDR | SRC0 | DST = 0x51; 4 lanes: Exec_size 0b010 */
	{ "DWORD_ATOMIC.ADD (M1, 4) T255 offs {1, 1, 1, 1} V0 old",
	  { VISA(64, 0x7d, 0x00, 0x02, 5, 0, 0x51, 0xffffffff, 0, 0),
	    LE32(0), LE32(4), LE32(8), LE32(12), LE32(1), LE32(1), LE32(1), LE32(1) },
	  64 },
	/* predicated by P1 = 5; Dst V0: no DST bit; one literal fills the lanes */
	{ "(P1) DWORD_ATOMIC.INC (2) T0 {0x10, 0x20} V0 V0 V0",
	  { VISA(40, 0x7d, 0x02, 0x01, 0, 0, 0x01, 0xffffffff, 5, 1),
	    LE32(0x10), LE32(0x20) }, 40 },
	/* 5 lanes under M2: Exec_size 8 (0b011) | M2 (1 << 4); emask bits 4..8 */
	{ "DWORD_ATOMIC.XCHG (M2, 5) T255 {0, 4, 8, 12, 16} 7 V0 r",
	  { VISA(96, 0x7d, 0x06, 0x13, 5, 0, 0x51, 0x1f0, 0, 0),
	    LE32(0), LE32(4), LE32(8), LE32(12), LE32(16), LE32(0), LE32(0), LE32(0),
	    LE32(7), LE32(7), LE32(7), LE32(7), LE32(7), LE32(7), LE32(7), LE32(7) },
	  96 },
	/* CMPXCHG.16 on UW (type UD, Op bit 5), _NM: 0x8 << 4 */
	{ "DWORD_ATOMIC.CMPXCHG (M1_NM, 1) T2 {6} {0x1111} {0x2222} d type=UW",
	  { VISA(56, 0x7d, 0x27, 0x80, 2, 0, 0x71, 0xffffffff, 0, 0),
	    LE32(6), LE32(0), LE32(0x1111), LE32(0), LE32(0x2222), LE32(0) }, 56 },
	/* FMAX defaults to F: 1.5f = 0x3fc00000 */
	{ "DWORD_ATOMIC.FMAX (1) buf {8} 1.5 V0 m",
	  { VISA(48, 0x7d, 0x10, 0x00, 3, 2, 0x51, 0xffffffff, 0, 0),
	    LE32(8), LE32(0), LE32(0x3fc00000), LE32(0) }, 48 },
	/* 64-bit IMAX (type Q = 4), M3: 0x2 << 4 | 0b001 */
	{ "DWORD_ATOMIC.IMAX (M3, 2) T0 {0, 8} {-5, 5} V0 o type=Q",
	  { VISA(56, 0x7d, 0x0c, 0x21, 0, 4, 0x51, 0xffffffff, 0, 0),
	    LE32(0), LE32(8), LE64(0xfffffffffffffffbull), LE64(5) }, 56 },
	/*
	 * TYPED_ATOMIC: U and V present, R and LOD V0 (ADDR | V | SRC0 | DST);
	 * 2 lanes in its only Exec_size, 8 (0b011), emask 0b11
	 */
	{ "TYPED_ATOMIC.ADD (2) T1 {1, 2} {3, 4} V0 V0 {9, 9} V0 t",
	  { VISA(128, 0x73, 0x00, 0x03, 1, 0, 0x53, 0x3, 0, 0),
	    LE32(1), LE32(2), LE32(0), LE32(0), LE32(0), LE32(0), LE32(0), LE32(0),
	    LE32(3), LE32(4), LE32(0), LE32(0), LE32(0), LE32(0), LE32(0), LE32(0),
	    LE32(9), LE32(9), LE32(0), LE32(0), LE32(0), LE32(0), LE32(0), LE32(0) },
	  128 },
	/* ADDC: Src1 immediate (SRC0 | DST | SRC1_IMM = 0x150) */
	{ "ADDC (2) s c {0xffffffff, 1} 1",
	  { VISA(48, 0x49, 0x00, 0x01, 0, 0, 0x150, 0xffffffff, 0, 0),
	    LE32(0xffffffff), LE32(1), LE32(1), LE32(0) }, 48 },
	/* the PTX document's examples; gbl = slot 3 + 0x50 */
	{ "atom.global.v8.f16.max.noftz  {%hd0, %hd1, %hd2, %hd3, %hd4, %hd5, %hd6, %hd7}, [gbl], {1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0};",
	  { PTX(10, 9, 8, 1, 0, 0, 3, 1, 0x50, 0),
	    LE16(0x3c00), LE16(0x4000), LE16(0x4200), LE16(0x4400),
	    LE16(0x4500), LE16(0x4600), LE16(0x4700), LE16(0x4800),
	    LE64(0), LE64(0) }, 72 },
	{ "atom.add.shared::cluster.noftz.f16   hd, [gbl+2], hb;",
	  { PTX(6, 9, 0, 3, 0, 0, 3, 1, 0x52, 0),
	    LE64(0x3c00), LE64(0), LE64(0), LE64(0) }, 72 },
	{ "@p  atom.global.cas.b32  d,[buf+0x40],5,9;",
	  { PTX(4, 2, 0, 1, 0, 0, 3, 0, 0x40, 0),
	    LE64(5), LE64(0), LE64(9), LE64(0) }, 72 },
	{ "atom.global.acquire.sys.inc.u32 ans, [T7+8], 0x10;",
	  { PTX(7, 5, 0, 1, 1, 3, 7, 0, 8, 0),
	    LE64(0x10), LE64(0), LE64(0), LE64(0) }, 72 },
	{ "atom.shared.b128.cas d, buf, 0x00000000000000020000000000000001, 3;",
	  { PTX(4, 4, 0, 2, 0, 0, 3, 0, 0, 0),
	    LE64(1), LE64(2), LE64(3), LE64(0) }, 72 },
	{ "atom.global.add.L2::cache_hint.s32  d, [buf], 1, 0x77;",
	  { PTX(6, 7, 0, 1, 0, 0, 3, 2, 0, 0x77),
	    LE64(1), LE64(0), LE64(0), LE64(0) }, 72 },
	/* f32 add: 0f3F800000 is 1.0 */
	{ "atom.global.v2.f32.add  {%f0, %f1}, [buf+8], {0f3F800000, -2.0};",
	  { PTX(6, 13, 2, 1, 0, 0, 3, 0, 8, 0),
	    LE32(0x3f800000), LE32(0xc0000000), LE64(0), LE64(0), LE64(0) }, 72 },
	/*
	 * PTX's literal forms (PTX ISA "Integer Constants", "Floating-Point
	 * Constants"), C's: a leading 0 is octal (020 = 16, 010 = 8), 0b
	 * binary, a U suffix on any integer form; slash-star comments are
	 * white space. add = 6, u32 = 5, f32 = 13, f64 = 14; buf = slot 3.
	 */
	{ "atom.global.add.u32 d, [buf+020], 010;", PTX_ADD(5, 16, 8), 72 },
	{ "atom.global.add.u32 d, [buf+0x10U], 5U;", PTX_ADD(5, 0x10, 5), 72 },
	{ "atom.global.add.u32 d, [buf+0b100], 0b11U;", PTX_ADD(5, 4, 3), 72 },
	{ "atom.global.add.u32 d, [buf+00], 017U;", PTX_ADD(5, 0, 15), 72 },
	{ "atom.global.add.u32 /* old */ d, /* a */ [buf+8], 1; /* after */",
	  PTX_ADD(5, 8, 1), 72 },
	/* 1. is 1.0 = 0x3f800000; -0F3F800000 flips the sign: 0xbf800000 */
	{ "atom.global.add.f32 d, [buf], 1.;", PTX_ADD(13, 0, 0x3f800000), 72 },
	{ "atom.global.add.f32 d, [buf], -0F3F800000;", PTX_ADD(13, 0, 0xbf800000), 72 },
	/* 2.5e-1 = 0.25 = 0x3fd0000000000000 in binary64 */
	{ "atom.global.add.f64 d, [buf], 2.5e-1;", PTX_ADD(14, 0, 0x3fd0000000000000), 72 },
	{ "atom.global.add.f64 d, [buf], 0d3FF0000000000000;",
	  PTX_ADD(14, 0, 0x3ff0000000000000), 72 },
	/* identifiers: %r1, _d, $x; inf as a whole word only (info is a name) */
	{ "atom.global.add.u32 %r1, [buf], 1;", PTX_ADD(5, 0, 1), 72 },
	{ "atom.global.add.u32 $x, [buf], info;", PTX_ADD(5, 0, 7), 72 },
	{ "atom.global.add.f32 _d, [buf], -inf;", PTX_ADD(13, 0, 0xff800000), 72 },
	/*
	 * PTX constant expressions (PTX ISA "Constant Expressions"): C's
	 * precedence, evaluated in 64 bits; a literal is .s64 unless U or
	 * above INT64_MAX (.u64). u64 = 6, s32 = 7. [gbl...] starts at 0x50.
	 */
	{ "atom.global.add.u32 d, [buf+1+3], 1+2*3;", PTX_ADD(5, 4, 7), 72 },	/* 4; 1 + 6 */
	{ "atom.global.add.u32 d, [buf+(1 << 4)], (1 << 4) | 3;",
	  PTX_ADD(5, 16, 0x13), 72 },	/* 16; 0x13 */
	/* the sign is the offset's: 0x50 - 0x10 + 4; (17 % 5) ^ 6 = 2 ^ 6 */
	{ "atom.global.add.u32 d, [gbl-0x10+4], 17 % 5 ^ 6;", PTX_ADD(5, 0x44, 4), 72 },
	/* ((0x10 << 2) >> 1) & 0xff */
	{ "atom.global.add.u32 d, [buf], 0x10 << 2 >> 1 & 0xff;", PTX_ADD(5, 0, 0x20), 72 },
	/* -(-7) * -2 = -14: 0xfffffff2 in 32 bits */
	{ "atom.global.add.s32 d, [buf], -(3 - 10) * -2;", PTX_ADD(7, 0, 0xfffffff2), 72 },
	/* ~0 is .s64 -1, shifted arithmetically; ~0U logically: 0xf */
	{ "atom.global.add.u64 d, [buf], ~0 >> 60;", PTX_ADD(6, 0, 0xffffffffffffffff), 72 },
	{ "atom.global.add.u64 d, [buf], ~0U >> 60;", PTX_ADD(6, 0, 0xf), 72 },
	/* .u64 wraps: 2^64 - 2; 2^63 + 2^63 = 0 (both above INT64_MAX) */
	{ "atom.global.add.u64 d, [buf], 0U - 2;", PTX_ADD(6, 0, 0xfffffffffffffffe), 72 },
	{ "atom.global.add.u64 d, [buf], 0x8000000000000000 + 0x8000000000000000;",
	  PTX_ADD(6, 0, 0), 72 },
	{ "atom.global.add.u64 d, [buf], 1U << 63;", PTX_ADD(6, 0, 0x8000000000000000), 72 },
	/* INT64_MIN itself is no overflow */
	{ "atom.global.add.u64 d, [buf], -9223372036854775807 - 1;",
	  PTX_ADD(6, 0, 0x8000000000000000), 72 },
	/* C's division: -7 / 2 = -3 (truncated), 7 % -4 = 3; .u64: 2^63 - 1 */
	{ "atom.global.add.u64 d, [buf], -7 / 2;", PTX_ADD(6, 0, 0xfffffffffffffffd), 72 },
	{ "atom.global.add.u64 d, [buf], 7 % -4;", PTX_ADD(6, 0, 3), 72 },
	{ "atom.global.add.u64 d, [buf], 0xfffffffffffffffe / 2;",
	  PTX_ADD(6, 0, 0x7fffffffffffffff), 72 },
	/* comments and parentheses inside; the cache policy 0x77 */
	{ "atom.global.add.u32 d, [buf], ( 1 /* one */ + ((2)) );", PTX_ADD(5, 0, 3), 72 },
	{ "atom.global.add.L2::cache_hint.s32  d, [buf], 1, 0x70 + 7;",
	  { PTX(6, 7, 0, 1, 0, 0, 3, 2, 0, 0x77),
	    LE64(1), LE64(0), LE64(0), LE64(0) }, 72 },
	/* a float without a leading digit: .5 = 0x3f000000, -.25 = 0xbe800000 */
	{ "atom.global.v2.f32.add  {%f0, %f1}, [buf+8], {.5, -.25};",
	  { PTX(6, 13, 2, 1, 0, 0, 3, 0, 8, 0),
	    LE32(0x3f000000), LE32(0xbe800000), LE64(0), LE64(0), LE64(0) }, 72 },
	{ "atom.global.add.f64 d, [buf], .5;",
	  PTX_ADD(14, 0, 0x3fe0000000000000), 72 },	/* 2^-1 in binary64 */
	{ "DWORD_ATOMIC.FMAX (1) buf {8} .5 V0 m",
	  { VISA(48, 0x7d, 0x10, 0x00, 3, 2, 0x51, 0xffffffff, 0, 0),
	    LE32(8), LE32(0), LE32(0x3f000000), LE32(0) }, 48 },
	/*
	 * one rule for scalars: a bare literal or a one-value symbol (P1 = 5)
	 * fills every lane; M2_NM: 0x9 << 4 | 0b010 = 0x92
	 */
	{ "DWORD_ATOMIC.ADD (M2_NM, 4) T0 P1 7 V0 V0",
	  { VISA(64, 0x7d, 0x00, 0x92, 0, 0, 0x11, 0xffffffff, 0, 0),
	    LE32(5), LE32(5), LE32(5), LE32(5), LE32(7), LE32(7), LE32(7), LE32(7) },
	  64 },
	/* the same rules on vISA and NoC lines: 010 lanes = 8 (0b011) */
	{ "DWORD_ATOMIC.INC (M1, 010) T0 0 V0 V0 V0",
	  { VISA(64, 0x7d, 0x02, 0x03, 0, 0, 0x01, 0xffffffff, 0, 0),
	    LE32(0), LE32(0), LE32(0), LE32(0), LE32(0), LE32(0), LE32(0), LE32(0) },
	  64 },
	/* 0400 = 0x100, data 010 = 8; REQ_ATOMIC only; AT_LEN_BE 0x107c */
	{ "noc.incr bh (0,0) -> (1,0)+0400 data=010",
	  { NOC(4, 0, 0, 0, 0x100, 0, 1, 0, 0, 0, 0, 0x1, 0x107c, 8) }, 64 },
	/* Blackhole increment: HI = X | Y << 6; ctrl REQ_ATOMIC | RESP_MARKED;
	 * AT_LEN_BE = 1 << 12 | 31 << 2 | ofs 0; txn 3 << 10 */
	{ "noc.incr bh (0,0) -> (1,0)+0x100 data=5 ret=(0,0)+0x200 txn=3",
	  { NOC(4, 0, 0, 0, 0x100, 0, 1, 0x200, 0, 0, 0xc00, 0x11, 0x107c, 5) }, 64 },
	/* Wormhole CAS on word 1 (0x44): MID = X << 4 | Y << 10 = 0x420;
	 * AT_LEN_BE = 4 << 12 | set 9 << 6 | cmp 3 << 2 | ofs 1 */
	{ "noc.cas wh (1,1) -> (2,1)+0x44 cmp=3 set=9",
	  { NOC(6, 0, 1, 1, 0x44, 0x420, 0, 0, 0, 0, 0, 0x1, 0x424d, 0) }, 64 },
	/* Blackhole broadcast (0,0)..(2,1): HI = 2 | 1 << 6 (ends), starts 0;
	 * ctrl | BRCST_PACKET (1 << 5); amomaxu = 0xa << 12 | 1 << 11 | 7 << 8 */
	{ "noc.amomaxu bh (0,0) -> (0,0)..(2,1)+0x80 data=9 noc=1",
	  { NOC(4, 1, 0, 0, 0x80, 0, 0x42, 0, 0, 0, 0, 0x21, 0xaf00, 9) }, 64 },
	/* parallel add, fmt u8_sat = 7 */
	{ "noc.acc bh (0,0) -> (1,0)+0x10 fmt=u8_sat data=0x01010101",
	  { NOC(4, 0, 0, 0, 0x10, 0, 1, 0, 0, 0, 0, 0x1, 0x9007, 0x01010101) }, 64 },
	/* the register image, verbatim */
	{ "noc T9 (2,3) NOC_TARG_ADDR_LO=0x100 NOC_TARG_ADDR_HI=0x41 NOC_CTRL=1 NOC_AT_LEN_BE=0x3028 NOC_AT_DATA=0xbeef",
	  { NOC(9, 0, 2, 3, 0x100, 0, 0x41, 0, 0, 0, 0, 1, 0x3028, 0xbeef) }, 64 },
};

/* 64 of '(' or ')' */
#define PAREN8(c)	c c c c c c c c
#define PAREN64		PAREN8(PAREN8("("))
#define UNPAREN64	PAREN8(PAREN8(")"))

struct bad {
	const char *text;
	unsigned int col;
	const char *msg;
};

static const struct bad bad[] = {
	{ "DWORD_ATOMIC (4) T255 offs V0 V0 V0", 13,
	  "expected .<Op> after DWORD_ATOMIC" },
	{ "DWORD_ATOMIC.ADDX (4) T255 offs V0 V0 V0", 14, "unknown operation 'ADDX'" },
	{ "DWORD_ATOMIC.ADD 4 T255 offs V0 V0 V0", 18,
	  "expected '(' and the execution size, e.g. (M1, 16), found '4'" },
	{ "DWORD_ATOMIC.ADD (17) T255 offs V0 V0 V0", 21,
	  "execution size 17: expected 1 to 16 lanes" },
	{ "DWORD_ATOMIC.ADD (M1_NM, 3) T255 offs V0 V0 V0", 26,
	  "3 lanes need the execution mask: not with _NM" },
	{ "DWORD_ATOMIC.ADD (4) T255 {0, 4} V0 V0 V0", 27,
	  "Element_offset has 2 values, the instruction has 4 lanes" },
	{ "DWORD_ATOMIC.ADD (4) T255 nosuch V0 V0 V0", 27,
	  "'nosuch' has no values (define it first) for Element_offset" },
	{ "DWORD_ATOMIC.ADD (4) T255 offs {1, 2, 3 V0 V0", 41,
	  "expected ',' or '}', found 'V0'" },
	{ "DWORD_ATOMIC.ADD (4) T255 offs V0 V0 V0 extra", 41,
	  "expected end of line, type= or emask=, found 'extra'" },
	{ "DWORD_ATOMIC.ADD (4) T255 offs 1.5 V0 V0", 32,
	  "a floating-point literal for an integer operand" },
	{ "DWORD_ATOMIC.ADD (4) nosurf offs V0 V0 V0", 22, "unknown surface 'nosurf'" },
	{ "ADDC (2) V0 c 1 1", 10, "ADDC's Dst cannot be V0" },
	{ "atom.global.add.s32 d, [a], 1;", 25, "unknown address 'a'" },
	{ "atom.global.v4.b16x2.min.noftz {a, b, c, d}, [gbl], {1, 2, 3, 4};", 16,
	  "type .b16x2 has no encoding in the vatom UAPI" },
	{ "atom.global.global.add.u32 d, [gbl], 1;", 13,
	  "two qualifiers for a state space ('.global')" },
	{ "atom.global.u32 d, [gbl], 1;", 1, "atom needs an operation" },
	{ "atom.global.add.u32 d [gbl], 1;", 23, "expected ',', found '[gbl'" },
	{ "atom.global.cas.b32 d, [gbl], 1;", 32, "expected ',' and operand c (cas)" },
	{ "atom.global.add.u32 d, [gbl], 1, 5;", 33,
	  "a cache-policy operand needs .L2::cache_hint" },
	{ "atom.global.v2.f16.add.noftz {a, b}, [gbl], {1.0};", 45,
	  "operand b: 1 values, the vector has 2" },
	{ "@r atom.global.add.u32 d, [gbl], 1;", 2, "predicate 'r' has no value" },
	{ "noc.frob bh (0,0) -> (1,0)+0", 5, "unknown NoC atomic 'frob'" },
	{ "noc.incr bh (0,0) (1,0)+0", 19, "expected '->' and the target tile" },
	{ "noc.incr bh (0,64) -> (1,0)+0", 13, "tile coordinates are 0 to 63" },
	{ "noc.cas bh (0,0) -> (1,0)+0 cmp=1", 34, "cas needs cmp= and set=" },
	{ "noc.incr bh (0,0) -> (1,0)+0 width=32", 36, "width is at most 0x1f" },
	{ "noc.incr wh (0,0) -> (1,0)+0x1000000000", 28,
	  "the target address does not fit the profile's registers" },
	{ "noc T3 (0,0) NOC_FOO=1", 14, "unknown register 'NOC_FOO'" },
	/* literals PTX does not have, or misspelt */
	{ "atom.global.add.u32 d, [buf], 09;", 32,
	  "digit '9' in the octal literal '09' (a leading 0 makes it octal)" },
	{ "atom.global.add.u32 d, [buf+018], 1;", 31,
	  "digit '8' in the octal literal '018'" },
	{ "atom.global.add.f32 d, [buf], 1.5f;", 34,
	  "a floating-point literal takes no suffix (PTX: write 0f3FC00000 for these f32 bits)" },
	{ "atom.global.add.u32 d, [buf], 5u;", 32,
	  "PTX's unsigned suffix is an upper-case U" },
	{ "atom.global.add.u32 d, [buf], 5UL;", 31, "expected a number, found '5UL'" },
	{ "atom.global.add.f32 d, [buf], 0f3F80;", 31,
	  "0f takes exactly 8 hex digits (the f32 bits)" },
	{ "atom.global.add.f64 d, [buf], 0d3FF0000000000000FF;", 31,
	  "0d takes exactly 16 hex digits (the f64 bits)" },
	{ "atom.global.add.u32 d, [buf], 1; /* open", 34,
	  "unterminated /* comment (it must end on its line: */)" },
	{ "atom.global.add.u32 %, [buf], 1;", 21,
	  "expected the destination d, found '%'" },
	{ "atom.global.add.f32 d, [buf], 0f3F80000G;", 40,
	  "expected hexadecimal digits, found 'G'" },
	{ "atom.global.add.u32 d, [buf], 0x;", 33, "expected hexadecimal digits" },
	/* issue 22: errors that name what is wrong */
	{ "DWORD_ATOMIC.ADD.16 (4) T255 offs 1 V0 V0 type=UQ", 43,
	  ".16 selects 16-bit data, type=UQ is 64-bit (drop .16, or use type=UW, W or HF)" },
	{ "DWORD_ATOMIC.ADD.16 (4) T255 offs 1 V0 V0 type=Q", 43,
	  ".16 selects 16-bit data, type=Q is 64-bit" },
	{ "DWORD_ATOMIC.ADD (M9, 4) T255 offs 1 V0 V0", 19,
	  "mask control 'M9': expected M1 to M8, or M1_NM to M8_NM" },
	{ "DWORD_ATOMIC.ADD (M0_NM, 4) T255 offs 1 V0 V0", 19,
	  "mask control 'M0_NM': expected M1 to M8" },
	{ "DWORD_ATOMIC.ADD (M1_XX, 4) T255 offs 1 V0 V0", 21,
	  "expected _NM or ',', found '_XX'" },
	{ "DWORD_ATOMIC.ADD (4) T255 offs {16} V0 V0", 32,
	  "Src0 has 1 value in braces, the instruction has 4 lanes (braces list one value per lane; a value without braces fills every lane)" },
	{ "dword_atomic.add (4) T255 offs 1 V0 V0", 1,
	  "mnemonics are case-sensitive: write 'DWORD_ATOMIC'" },
	{ "DWORD_ATOMIC.add (4) T255 offs 1 V0 V0", 14,
	  "mnemonics are case-sensitive, as in the vISA documents: write 'ADD'" },
	{ "Addc (2) s c 1 1", 1, "mnemonics are case-sensitive: write 'ADDC'" },
	{ "DWORD_ATOMIC.ADD (m1, 4) T255 offs 1 V0 V0", 19,
	  "mask control 'm1': expected M1 to M8" },
	{ "DWORD_ATOMIC.ADD (4) T255 offs 1 V0 V0 type=ud", 45,
	  "expected a type (UD, D, F, UQ, Q, UW, W, HF; upper case), found 'ud'" },
	{ "ATOM.global.add.u32 d, [gbl], 1;", 1,
	  "mnemonics are case-sensitive: write 'atom'" },
	{ "NOC.incr bh (0,0) -> (1,0)+0", 1,
	  "mnemonics are case-sensitive: write 'noc'" },
	{ "noc.INCR bh (0,0) -> (1,0)+0", 5,
	  "mnemonics are case-sensitive: write 'noc.incr'" },
	{ "atom.global.ADD.u32 d, [gbl], 1;", 13,
	  "qualifiers are case-sensitive, as in ptxas: write '.add'" },
	{ "atom.GLOBAL.add.u32 d, [gbl], 1;", 6,
	  "qualifiers are case-sensitive, as in ptxas: write '.global'" },
	{ "atom.global.add.U32 d, [gbl], 1;", 17,
	  "qualifiers are case-sensitive, as in ptxas: write '.u32'" },
	{ "noc T3 (0,0) noc_ctrl=1", 14,
	  "register names are case-sensitive: write 'NOC_CTRL'" },
	{ "noc.amoadd wh (0,0) -> (1,0)+0x10 data=1", 5,
	  "noc.amoadd is Blackhole only: a Wormhole grid takes incr, cas, swap, swap6 and swap7" },
	{ "noc.acc wh (0,0) -> (1,0)+0x10 fmt=fp32", 5,
	  "noc.acc is Blackhole only" },
	{ "noc.swap10 wh (0,0) -> (1,0)+0x10", 5, "noc.swap10 is Blackhole only" },
	{ "noc.acc bh (0,0) -> (1,0)+0x10 fmt=fp64", 36,
	  "unknown fmt 'fp64' (expected fp32, fp16, bf16, u32, u8_sat, u8 or a number 0 to 15)" },
	/* constant expressions: each error at its operator */
	{ "atom.global.add.u32 d, [buf], 1/0;", 32,
	  "'/' by zero in a constant expression" },
	{ "atom.global.add.u32 d, [buf], 5 % (2 - 2);", 33,
	  "'%' by zero in a constant expression" },
	{ "atom.global.add.u64 d, [buf], 0x7fffffffffffffff + 1;", 50,
	  "the constant expression overflows .s64 (a U suffix makes it .u64, which wraps)" },
	{ "atom.global.add.u64 d, [buf], 4611686018427387904 * 2;", 51,
	  "the constant expression overflows .s64 (a U suffix makes it .u64, which wraps)" },
	{ "atom.global.add.u64 d, [buf], 1 << 63;", 33,
	  "the constant expression overflows .s64 (a U suffix makes it .u64, which wraps)" },
	{ "atom.global.add.u64 d, [buf], -9223372036854775807 - 2;", 52,
	  "the constant expression overflows .s64 (a U suffix makes it .u64, which wraps)" },
	{ "atom.global.add.u64 d, [buf], -(-9223372036854775807 - 1);", 31,
	  "the constant expression overflows .s64 (a U suffix makes it .u64, which wraps)" },
	{ "atom.global.add.u64 d, [buf], (-9223372036854775807 - 1) / -1;", 58,
	  "the constant expression overflows .s64 (a U suffix makes it .u64, which wraps)" },
	{ "atom.global.add.u64 d, [buf], 1 << 64;", 33,
	  "shift count 64 (0 to 63)" },
	{ "atom.global.add.u64 d, [buf], 1 >> -1;", 33,
	  "shift count -1 (0 to 63)" },
	{ "atom.global.add.f32 d, [buf], 1.5 + 1;", 35,
	  "a constant expression takes integers only" },
	{ "atom.global.add.u32 d, [buf], 1 + .5;", 35,
	  "a constant expression takes integers only" },
	{ "atom.global.add.u32 d, [buf], (1 + 2;", 37,
	  "expected an operator or ')', found ';'" },
	{ "atom.global.add.u32 d, [buf+(4], 1;", 31,
	  "expected an operator or ')', found ']'" },
	{ "atom.global.add.u32 d, [buf+1.5], 1;", 28,
	  "a floating-point literal for an integer operand" },
	{ "atom.global.add.u32 d, [buf], .5;", 31,
	  "a floating-point literal for an integer operand" },
	{ "DWORD_ATOMIC.ADD (4) T255 offs .5 V0 V0", 32,
	  "a floating-point literal for an integer operand" },
	/* 65 parentheses: the 65th is one too deep */
	{ "atom.global.add.u32 d, [buf], " PAREN64 "(1)" UNPAREN64 ";", 95,
	  "constant expression nested more than 64 deep" },
	{ "frobnicate 1 2 3", 1,
	  "expected DWORD_ATOMIC, TYPED_ATOMIC, ADDC, atom or noc, found 'frobnicate'" },
};

static void test_good(void)
{
	struct vatom_asm *a = new_asm();
	struct vatom_batch *b, *b2;
	char text[2048];
	const void *pkt, *pkt2;
	size_t size, size2;
	unsigned int i, col;
	int res, res2;

	vatom_batch_create(NULL, 0, &b);
	vatom_batch_create(NULL, 0, &b2);
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		vatom_batch_reset(b);
		col = 0;
		res = vatom_asm_line(a, b, good[i].text);
		pkt = vatom_batch_packet(b, res, &size);
		if (res < 0)
			printf("#   %s (col %u)\n", vatom_asm_error(a, &col), col);
		ok(res == 0 && size == good[i].len &&
		   !memcmp(pkt, good[i].bytes, size), "bytes of '%s'",
		   good[i].text);
		if (res < 0)
			continue;
		/* text -> packet -> text -> packet: the same bytes */
		vatom_disasm(pkt, size, text, sizeof(text));
		vatom_batch_reset(b2);
		res2 = vatom_asm_line(a, b2, text);
		pkt2 = vatom_batch_packet(b2, res2, &size2);
		if (res2 < 0)
			printf("#   '%s': %s\n", text, vatom_asm_error(a, NULL));
		ok(res2 == 0 && size2 == size && !memcmp(pkt, pkt2, size),
		   "round trip of '%s'", text);
	}
	vatom_batch_destroy(b);
	vatom_batch_destroy(b2);
	vatom_asm_destroy(a);
}

static void test_bad(void)
{
	struct vatom_asm *a = new_asm();
	const char *msg;
	struct vatom_batch *b;
	unsigned int i, col;
	int res;

	vatom_batch_create(NULL, 0, &b);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		col = 0;
		res = vatom_asm_line(a, b, bad[i].text);
		msg = vatom_asm_error(a, &col);
		if (res != -EINVAL || !msg || col != bad[i].col ||
		    strncmp(msg, bad[i].msg, strlen(bad[i].msg)))
			printf("#   got %d, col %u: %s\n", res, col, msg ? msg : "(none)");
		ok(res == -EINVAL && msg && col == bad[i].col &&
		   !strncmp(msg, bad[i].msg, strlen(bad[i].msg)) &&
		   vatom_batch_packets(b) == 0, "error for '%s'", bad[i].text);
	}
	vatom_batch_destroy(b);
	vatom_asm_destroy(a);
}

static void test_no_packet(void)
{
	struct vatom_asm *a = new_asm();
	struct vatom_batch *b;

	vatom_batch_create(NULL, 0, &b);
	ok(vatom_asm_line(a, b, "   // a comment") == -ENODATA &&
	   vatom_asm_line(a, b, "") == -ENODATA &&
	   vatom_asm_line(a, b, "@q atom.global.add.u32 d, [gbl], 1;") == -ENODATA &&
	   vatom_asm_line(a, b, "@!p atom.global.add.u32 d, [gbl], 1;") == -ENODATA &&
	   vatom_batch_packets(b) == 0, "%s", "comments and false guards make no packet");
	ok(vatom_asm_line(a, b, "ADDC (1) s c 1 2") == 0 &&
	   !strcmp(vatom_asm_result_name(a, 0), "s") &&
	   !strcmp(vatom_asm_result_name(a, 1), "c") &&
	   !vatom_asm_result_name(a, 2), "%s", "ADDC result names");
	ok(vatom_asm_line(a, b, "atom.global.v2.f16.add.noftz {x, y}, [gbl], {1.0, 2.0};") == 1 &&
	   !strcmp(vatom_asm_result_name(a, 1), "y"), "%s", "PTX vector result names");
	vatom_batch_destroy(b);
	vatom_asm_destroy(a);
}

/* PTX's identifiers: [A-Za-z]{followsym}* or [_$%]{followsym}+ */
static const struct {
	const char *name;
	int ret;
} names[] = {
	{ "r1", 0 }, { "%r1", 0 }, { "_x", 0 }, { "$x1", 0 }, { "a_b$c", 0 },
	{ "evict-last", 0 }, { "%", -EINVAL }, { "_", -EINVAL },
	{ "$", -EINVAL }, { "a%b", -EINVAL }, { "1a", -EINVAL },
	{ "a-1", -EINVAL }, { "", -EINVAL },
};

static void test_names(void)
{
	struct vatom_asm *a = new_asm();
	static const uint64_t v[1] = { 1 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		ok(vatom_asm_define_values(a, names[i].name, v, 1) == names[i].ret,
		   "symbol name '%s'", names[i].name);
	vatom_asm_destroy(a);
}

static void test_helpers(void)
{
	struct vatom_visa_exec ex;

	/* lanes, M: emask = ((1 << lanes) - 1) << 4M, size rounded up */
	ok(!vatom_visa_exec_lanes(&ex, 5, VATOM_M1) && ex.size == 8 &&
	   ex.emask == 0x1f, "%s", "5 lanes under M1");
	ok(!vatom_visa_exec_lanes(&ex, 3, VATOM_M3) && ex.size == 4 &&
	   ex.emask == 0x700, "%s", "3 lanes under M3");
	ok(!vatom_visa_exec_lanes(&ex, 16, VATOM_M1_NM) && ex.size == 16 &&
	   ex.emask == 0xffffffff && ex.mask_ctrl == VATOM_M1_NM, "%s",
	   "16 lanes, _NM");
	ok(vatom_visa_exec_lanes(&ex, 3, VATOM_NM) == -EINVAL &&
	   vatom_visa_exec_lanes(&ex, 0, 0) == -EINVAL &&
	   vatom_visa_exec_lanes(&ex, 33, 0) == -EINVAL, "%s", "refusals");
	ok(!strcmp(vatom_visa_type_name(DRM_VATOM_VISA_TYPE_F, true), "HF") &&
	   !strcmp(vatom_visa_type_name(DRM_VATOM_VISA_TYPE_D, true), "W") &&
	   !strcmp(vatom_visa_type_name(DRM_VATOM_VISA_TYPE_UQ, false), "UQ") &&
	   !vatom_visa_type_name(DRM_VATOM_VISA_TYPE_UQ, true) &&
	   VATOM_VISA_HF == (VATOM_VISA_16 | VATOM_VISA_TYPE(DRM_VATOM_VISA_TYPE_F)),
	   "%s", "vISA type names");
	ok(!strcmp(vatom_ptx_op_name(DRM_VATOM_PTX_OP_EXCH), "exch") &&
	   !strcmp(vatom_ptx_type_name(DRM_VATOM_PTX_TYPE_BF16X2), "bf16x2") &&
	   !vatom_ptx_op_name(0) && !vatom_ptx_type_name(15) &&
	   !strcmp(vatom_ptx_qualifier_name(VATOM_PTX_SPACE,
					    DRM_VATOM_PTX_SPACE_SHARED_CLUSTER),
		   "shared::cluster") &&
	   !strcmp(vatom_ptx_qualifier_name(VATOM_PTX_SEM, 0), ""),
	   "%s", "PTX names");
	/* AT_LEN_BE values from noc-atomics.md section 1.2 */
	ok(vatom_noc_variant(0x107c) == VATOM_NOC_VAR_INCREMENT &&
	   vatom_noc_variant(0xaf00) == VATOM_NOC_VAR_AMOMAXU &&
	   vatom_noc_variant(0xa300) == VATOM_NOC_VAR_SWAP_INDEX10 &&
	   vatom_noc_variant(0x9000) == VATOM_NOC_VAR_ACC &&
	   vatom_noc_variant(0x0000) == -EINVAL &&
	   !strcmp(vatom_noc_variant_name(VATOM_NOC_VAR_SWAP_MASK), "swap"),
	   "%s", "NoC variants");
}

static void test_response(void)
{
	struct vatom_noc_req r = { 0 };

	ok(!vatom_noc_response(&r, DRM_VATOM_NOC_PROFILE_WORMHOLE, 2, 1, 0x200) &&
	   r.ret_addr_lo == 0x200 && r.ret_addr_mid == (2u << 4 | 1u << 10) &&
	   r.ctrl == DRM_VATOM_NOC_CTRL_RESP_MARKED, "%s",
	   "vatom_noc_response() sets RESP_MARKED");
	ok(vatom_noc_l1_read(NULL, 0, 0, 0, &r, 16) == -EINVAL &&
	   vatom_noc_l1_write(NULL, 0, 0, 2, &r, 16) == -EINVAL &&
	   vatom_noc_l1_read(NULL, 0, 0, 0, &r, 6) == -EINVAL, "%s",
	   "L1 block helpers refuse without a grid, misaligned, odd lengths");
}

int main(void)
{
	test_good();
	test_bad();
	test_no_packet();
	test_names();
	test_helpers();
	test_response();
	printf("1..%d\n", tests);
	printf("# %d passed, %d failed\n", tests - failed, failed);
	return failed ? 1 : 0;
}
