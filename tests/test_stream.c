// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The stream walker and the vISA validator: every DRM_VATOM_ERR_* reason
 * they can return, each triggered by exactly one fault in an otherwise
 * valid packet placed at a known index of a multi-packet stream; result
 * sizes and offsets; and proof that validation never reads past the
 * stream (streams end at a page followed by a PROT_NONE page), vISA
 * packets and runs of PTX packets alike, nor writes to it (the stream page
 * is read-only).
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vatom_engine.h"
#include "typed.h"
#include "vt_host.h"
#include "vt_test.h"
#include "vt_visa.h"

/* The packet table overrides the defaults of its row macros. */
#pragma GCC diagnostic ignored "-Woverride-init"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

#define E(x)	DRM_VATOM_ERR_##x

/* Slots. */
#define S_BUF		5
#define S_2D		9
#define S_1D		10
#define S_2DA		11
#define S_3D		12
#define S_1DA		13
#define S_GRID		14
#define S_NOLAYOUT	15
#define S_UNBOUND	7

/* Operand data: all zero (coordinates 0, sources 0), offsets 8-aligned. */
static const u64 Z[128];	/* enough for 128 lanes (exec code 7) */
static const u32 A[128] = {
	0, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120,
	128, 136, 144, 152, 160, 168, 176, 184, 192, 200, 208, 216, 224,
	232, 240, 248,
};
static const u32 MIS2[4] = { 0, 2, 8, 16 };	/* lane 1 at 2 */
static const u32 MIS1[4] = { 0, 8, 1, 16 };	/* lane 2 at 1 */
static const u32 MIS3[4] = { 0, 8, 16, 3 };	/* lane 3 at 3 */
static const u32 MIS4[4] = { 4, 8, 16, 24 };	/* lane 0 at 4 */
static const u32 MIS12[4] = { 0, 8, 16, 12 };	/* lane 3 at 12 */

static u32 rd32(const u8 *b, u32 off)
{
	u32 v;

	memcpy(&v, b + off, 4);
	return v;
}

static u64 rd64(const u8 *b, u32 off)
{
	u64 v;

	memcpy(&v, b + off, 8);
	return v;
}

/* What a packet of the tables leaves out: 8-aligned addresses, zeros. */
static const struct pk defaults = {
	.addr = A, .v = (const u32 *)Z, .r = (const u32 *)Z,
	.lod = (const u32 *)Z, .src0 = Z, .src1 = Z,
};

static u32 put(u8 *buf, u32 *pos, const struct pk *k)
{
	return vt_visa_put(buf, pos, k, &defaults);
}

/* ------------------------------------------------------------------------ */
/* Surfaces                                                                  */
/* ------------------------------------------------------------------------ */

static u8 mem[4096] __attribute__((aligned(16)));
static u8 res[4096] __attribute__((aligned(16)));
static struct vatom_typed_layout lays[5];
static struct vatom_surface_view views[16];
static struct vatom_bindings bind;

static void bind_typed(u32 slot, u32 i, u32 dim, u32 w, u32 h, u32 d, u32 a)
{
	struct drm_vatom_typed_desc t = {
		.dim = dim, .format = DRM_VATOM_FORMAT_R32, .width = w,
		.height = h, .depth = d, .array_size = a, .levels = 1,
	};

	if (vatom_typed_layout_init(&lays[i], &t, sizeof(mem)))
		abort();
	views[slot].vaddr = mem;
	views[slot].size = lays[i].size;
	views[slot].kind = DRM_VATOM_SURFACE_TYPED;
	views[slot].typed = &lays[i];
	bind.slot[slot] = &views[slot];
}

static void setup(void)
{
	memset(mem, 0, sizeof(mem));
	memset(res, 0xa5, sizeof(res));
	memset(&bind, 0, sizeof(bind));
	memset(views, 0, sizeof(views));
	views[S_BUF].vaddr = mem;
	views[S_BUF].size = 1024;
	views[S_BUF].kind = DRM_VATOM_SURFACE_BUFFER;
	bind.slot[S_BUF] = &views[S_BUF];
	bind_typed(S_2D, 0, DRM_VATOM_TYPED_2D, 4, 4, 1, 1);
	bind_typed(S_1D, 1, DRM_VATOM_TYPED_1D, 4, 1, 1, 1);
	bind_typed(S_2DA, 2, DRM_VATOM_TYPED_2D_ARRAY, 4, 4, 1, 2);
	bind_typed(S_3D, 3, DRM_VATOM_TYPED_3D, 4, 4, 2, 1);
	bind_typed(S_1DA, 4, DRM_VATOM_TYPED_1D_ARRAY, 4, 1, 1, 2);
	views[S_GRID].vaddr = mem;
	views[S_GRID].size = sizeof(mem);
	views[S_GRID].kind = DRM_VATOM_SURFACE_TILE_GRID;
	bind.slot[S_GRID] = &views[S_GRID];
	/* A typed view without its layout: not usable as a typed surface. */
	views[S_NOLAYOUT].vaddr = mem;
	views[S_NOLAYOUT].size = 64;
	views[S_NOLAYOUT].kind = DRM_VATOM_SURFACE_TYPED;
	bind.slot[S_NOLAYOUT] = &views[S_NOLAYOUT];
}

/* ------------------------------------------------------------------------ */
/* Fault table                                                               */
/* ------------------------------------------------------------------------ */

#define DW(o, t, ops, ...) \
	{ .opcode = DWORD, .op = (o), .exec = EXNM(2, 0), .surface = S_BUF, \
	  .type = (t), .operands = (ops), __VA_ARGS__ }
#define TD(slot, o, t, ops, ...) \
	{ .opcode = TYPED, .op = (o), .exec = EXNM(3, 0), .surface = (slot), \
	  .type = (t), .operands = (ops), __VA_ARGS__ }
#define AC(ops, ...) \
	{ .opcode = ADDC, .exec = EXNM(2, 0), .type = TY(UD), \
	  .operands = (ops), __VA_ARGS__ }

#define A_S0_D	(OPND(ADDR) | OPND(SRC0) | OPND(DST))
#define A_S01	(OPND(ADDR) | OPND(SRC0) | OPND(SRC1))
#define AC_OK	(OPND(SRC0) | OPND(SRC1) | OPND(DST))
#define T2	(OPND(ADDR) | OPND(V) | OPND(SRC0))

#define NOPATCH	{ -1, 0 }

struct fcase {
	const char *name;
	u32 reason;
	struct pk k;
	/* After building: set byte patch[0] of the packet to patch[1]. */
	int patch[2];
	/* hdr.size := SET(x) when non-zero, or += @delta. */
	u64 hdr_size;
	int delta;
	/* hdr.type := SET(x) when non-zero. */
	u64 hdr_type;
};

#define SET(x)	((u64)(x) | 1ull << 32)

static const struct fcase cases[] = {
	/* Valid packets (each fault below is one change to one of these). */
	{ "valid DWORD ADD", 0, DW(OP(ADD), TY(UD), A_S0_D), NOPATCH },
	{ "valid DWORD ADD.16", 0, DW(OP(ADD) | OP16, TY(UD), A_S0_D),
	  NOPATCH },
	{ "valid DWORD ADD UQ", 0, DW(OP(ADD), TY(UQ), A_S0_D), NOPATCH },
	{ "valid DWORD CMPXCHG exec 1", 0,
	  { .opcode = DWORD, .op = OP(CMPXCHG), .exec = EX(0, 0),
	    .surface = S_BUF, .type = TY(UD), .operands = A_S01, .emask = 1 },
	  NOPATCH },
	{ "valid DWORD PREDEC D", 0, DW(OP(PREDEC), TY(D), OPND(ADDR)),
	  NOPATCH },
	{ "valid DWORD PREDEC UD", 0, DW(OP(PREDEC), TY(UD), OPND(ADDR)),
	  NOPATCH },
	{ "valid DWORD PREDEC Q", 0, DW(OP(PREDEC), TY(Q), OPND(ADDR)),
	  NOPATCH },
	{ "valid DWORD FCMPWR.16", 0,
	  DW(OP(FCMPWR) | OP16, TY(F), A_S01 | OPND(DST)), NOPATCH },
	{ "valid DWORD 16 M5", 0,
	  DW(OP(ADD), TY(UD), A_S0_D, .exec = EX(4, 4)), NOPATCH },
	{ "valid DWORD 1 M8", 0,
	  DW(OP(ADD), TY(UD), A_S0_D, .exec = EX(0, 7)), NOPATCH },
	{ "valid TYPED 8 M7", 0,
	  TD(S_2D, OP(ADD), TY(UD), T2, .exec = EX(3, 6)), NOPATCH },
	{ "valid TYPED 1D", 0, TD(S_1D, OP(INC), TY(UD), OPND(ADDR)),
	  NOPATCH },
	{ "valid TYPED 1D_ARRAY", 0,
	  TD(S_1DA, OP(IMAX) | OP16, TY(D), T2 | OPND(LOD)), NOPATCH },
	{ "valid TYPED 2D_ARRAY", 0,
	  TD(S_2DA, OP(CMPXCHG), TY(UD), T2 | OPND(R) | OPND(SRC1)),
	  NOPATCH },
	{ "valid TYPED 3D", 0,
	  TD(S_3D, OP(XOR), TY(UD), T2 | OPND(R) | OPND(LOD) | OPND(DST)),
	  NOPATCH },
	{ "valid ADDC 32", 0, AC(AC_OK, .exec = EX(5, 0)), NOPATCH },
	{ "valid ADDC imm imm", 0,
	  AC(OPND(SRC0_IMM) | OPND(SRC1_IMM) | OPND(DST)), NOPATCH },
	{ "valid predicated", 0,
	  DW(OP(ADD), TY(UD), A_S0_D, .flags = PRED, .pred = ~0u), NOPATCH },
	{ "valid misaligned but disabled by mask", 0,
	  DW(OP(ADD), TY(UD), A_S0_D, .exec = EX(2, 0), .emask = 0xd,
	     .addr = MIS2), NOPATCH },
	{ "valid misaligned but predicated off", 0,
	  DW(OP(ADD), TY(UD), A_S0_D, .flags = PRED, .pred = 0xb,
	     .addr = MIS1), NOPATCH },
	{ ".16 at 2 is aligned", 0,
	  DW(OP(ADD) | OP16, TY(UD), A_S0_D, .addr = MIS2), NOPATCH },
	{ "UQ at 8 is aligned", 0, DW(OP(ADD), TY(UQ), A_S0_D), NOPATCH },

	/* Walker: header sizes. */
	{ "size 12", E(PACKET_SIZE), DW(OP(ADD), TY(UD), A_S0_D), NOPATCH,
	  SET(12) },
	{ "size 4", E(PACKET_SIZE), DW(OP(ADD), TY(UD), A_S0_D), NOPATCH,
	  SET(4) },
	{ "size 0", E(PACKET_SIZE), DW(OP(ADD), TY(UD), A_S0_D), NOPATCH,
	  SET(0) },
	{ "size past the stream", E(PACKET_SIZE),
	  DW(OP(ADD), TY(UD), A_S0_D), NOPATCH, SET(0x10000) },
	{ "size ~0", E(PACKET_SIZE), DW(OP(ADD), TY(UD), A_S0_D), NOPATCH,
	  SET(0xfffffff8) },
	/* vISA: exact size. */
	{ "size 8 (header only)", E(PACKET_SIZE),
	  DW(OP(ADD), TY(UD), A_S0_D), NOPATCH, SET(8) },
	{ "size 24 < fixed part", E(PACKET_SIZE),
	  DW(OP(ADD), TY(UD), A_S0_D), NOPATCH, SET(24) },
	{ "size exact + 8", E(PACKET_SIZE), DW(OP(ADD), TY(UD), A_S0_D),
	  NOPATCH, 0, 8 },
	{ "size exact - 8", E(PACKET_SIZE), DW(OP(ADD), TY(UD), A_S0_D),
	  NOPATCH, 0, -8 },
	{ "ADDC size exact - 8", E(PACKET_SIZE), AC(AC_OK), NOPATCH, 0, -8 },
	{ "TYPED size exact + 16", E(PACKET_SIZE),
	  TD(S_2D, OP(ADD), TY(UD), T2), NOPATCH, 0, 16 },

	/* Packet type. */
	{ "type 0", E(PACKET_TYPE), DW(OP(ADD), TY(UD), A_S0_D), NOPATCH, 0,
	  0, SET(0) },
	{ "type 4", E(PACKET_TYPE), DW(OP(ADD), TY(UD), A_S0_D), NOPATCH, 0,
	  0, SET(4) },
	{ "type ~0", E(PACKET_TYPE), DW(OP(ADD), TY(UD), A_S0_D), NOPATCH, 0,
	  0, SET(~0u) },
	/* The walker checks the size before it looks at the type. */
	{ "type 0 size 12", E(PACKET_SIZE), DW(OP(ADD), TY(UD), A_S0_D),
	  NOPATCH, SET(12), 0, SET(0) },
	{ "type 77 size 4", E(PACKET_SIZE), DW(OP(ADD), TY(UD), A_S0_D),
	  NOPATCH, SET(4), 0, SET(77) },

	/* Reserved fields and bits. */
	{ "pad[0]", E(RESERVED), DW(OP(ADD), TY(UD), A_S0_D), { 13, 1 } },
	{ "pad[1]", E(RESERVED), DW(OP(ADD), TY(UD), A_S0_D), { 14, 0x10 } },
	{ "pad[2]", E(RESERVED), DW(OP(ADD), TY(UD), A_S0_D), { 15, 0x80 } },
	{ "flags bit 1", E(RESERVED),
	  DW(OP(ADD), TY(UD), A_S0_D, .flags = 2), NOPATCH },
	{ "flags bit 31", E(RESERVED),
	  DW(OP(ADD), TY(UD), A_S0_D, .flags = PRED | 0x80000000u), NOPATCH },
	{ "operands bit 9", E(RESERVED), DW(OP(ADD), TY(UD), A_S0_D),
	  { 17, 0x02 } },
	{ "operands bit 31", E(RESERVED), DW(OP(ADD), TY(UD), A_S0_D),
	  { 19, 0x80 } },
	{ "pred without PREDICATED", E(RESERVED),
	  DW(OP(ADD), TY(UD), A_S0_D, .pred = 1), NOPATCH },
	{ "ADDC surface 1", E(RESERVED), AC(AC_OK, .surface = 1), NOPATCH },
	{ "ADDR padding (exec 1)", E(RESERVED),
	  DW(OP(ADD), TY(UD), A_S0_D, .exec = EXNM(0, 0)), { 36, 1 } },
	{ "Src0 padding (exec 1)", E(RESERVED),
	  DW(OP(ADD), TY(UD), A_S0_D, .exec = EXNM(0, 0)), { 47, 1 } },
	{ "Src1 padding (exec 1)", E(RESERVED),
	  DW(OP(CMPXCHG), TY(UD), A_S01, .exec = EXNM(0, 0)), { 52, 1 } },
	{ "ADDC Src0 immediate padding", E(RESERVED),
	  AC(OPND(SRC0_IMM) | OPND(SRC1) | OPND(DST)), { 39, 0xff } },
	{ "ADDC Src1 immediate padding", E(RESERVED),
	  AC(OPND(SRC0) | OPND(SRC1_IMM) | OPND(DST)), { 52, 1 } },

	/* Opcode. */
	{ "opcode 0", E(OPCODE), DW(OP(ADD), TY(UD), A_S0_D), { 8, 0 } },
	{ "opcode 0x7c", E(OPCODE), DW(OP(ADD), TY(UD), A_S0_D), { 8, 0x7c } },
	{ "opcode 0x74", E(OPCODE), DW(OP(ADD), TY(UD), A_S0_D), { 8, 0x74 } },
	{ "opcode 0x4a", E(OPCODE), DW(OP(ADD), TY(UD), A_S0_D), { 8, 0x4a } },
	{ "opcode 0xff", E(OPCODE), DW(OP(ADD), TY(UD), A_S0_D), { 8, 0xff } },

	/* Op. */
	{ "op bit 6", E(OP), DW(0x40 | OP(ADD), TY(UD), A_S0_D), NOPATCH },
	{ "op bit 7", E(OP), DW(0x80 | OP(ADD), TY(UD), A_S0_D), NOPATCH },
	{ "op 0x0e", E(OP), DW(0x0e, TY(UD), A_S0_D), NOPATCH },
	{ "op 0x0f", E(OP), DW(0x0f, TY(UD), A_S0_D), NOPATCH },
	{ "op 0x13", E(OP), DW(0x13, TY(UD), A_S0_D), NOPATCH },
	{ "op 0x1f", E(OP), DW(0x1f, TY(UD), A_S0_D), NOPATCH },
	{ "op 0x2e (.16 of a hole)", E(OP), DW(0x2e, TY(UD), A_S0_D),
	  NOPATCH },
	{ ".16 with UQ", E(OP), DW(OP(ADD) | OP16, TY(UQ), A_S0_D), NOPATCH },
	{ ".16 with Q", E(OP), DW(OP(IMIN) | OP16, TY(Q), A_S0_D), NOPATCH },
	{ "TYPED FMAX", E(OP), TD(S_2D, OP(FMAX), TY(F), T2), NOPATCH },
	{ "TYPED FMIN", E(OP), TD(S_2D, OP(FMIN), TY(F), T2), NOPATCH },
	{ "TYPED FCMPWR", E(OP),
	  TD(S_2D, OP(FCMPWR), TY(F), T2 | OPND(SRC1)), NOPATCH },
	{ "TYPED FMAX.16", E(OP), TD(S_2D, OP(FMAX) | OP16, TY(F), T2),
	  NOPATCH },
	{ "ADDC op 1", E(OP), AC(AC_OK), { 9, 1 } },
	{ "ADDC op 0x20", E(OP), AC(AC_OK), { 9, 0x20 } },

	/* Exec size and mask window. */
	{ "DWORD exec code 5", E(EXEC_SIZE),
	  DW(OP(ADD), TY(UD), A_S0_D, .exec = EXNM(5, 0)), NOPATCH },
	{ "DWORD exec code 6", E(EXEC_SIZE),
	  DW(OP(ADD), TY(UD), A_S0_D, .exec = EXNM(6, 0)), NOPATCH },
	{ "DWORD exec code 7", E(EXEC_SIZE),
	  DW(OP(ADD), TY(UD), A_S0_D, .exec = EXNM(7, 0)), NOPATCH },
	{ "TYPED exec code 0", E(EXEC_SIZE),
	  TD(S_2D, OP(ADD), TY(UD), T2, .exec = EXNM(0, 0)), NOPATCH },
	{ "TYPED exec code 2", E(EXEC_SIZE),
	  TD(S_2D, OP(ADD), TY(UD), T2, .exec = EXNM(2, 0)), NOPATCH },
	{ "TYPED exec code 4", E(EXEC_SIZE),
	  TD(S_2D, OP(ADD), TY(UD), T2, .exec = EXNM(4, 0)), NOPATCH },
	{ "TYPED exec code 5", E(EXEC_SIZE),
	  TD(S_2D, OP(ADD), TY(UD), T2, .exec = EXNM(5, 0)), NOPATCH },
	{ "ADDC exec code 6", E(EXEC_SIZE), AC(AC_OK, .exec = EXNM(6, 0)),
	  NOPATCH },
	{ "ADDC exec code 7", E(EXEC_SIZE), AC(AC_OK, .exec = EXNM(7, 0)),
	  NOPATCH },
	{ "DWORD 16 M6", E(EXEC_SIZE),
	  DW(OP(ADD), TY(UD), A_S0_D, .exec = EX(4, 5)), NOPATCH },
	{ "DWORD 16 M6_NM", E(EXEC_SIZE),
	  DW(OP(ADD), TY(UD), A_S0_D, .exec = EXNM(4, 5)), NOPATCH },
	{ "DWORD 8 M8", E(EXEC_SIZE),
	  DW(OP(ADD), TY(UD), A_S0_D, .exec = EX(3, 7)), NOPATCH },
	{ "TYPED 8 M8", E(EXEC_SIZE),
	  TD(S_2D, OP(ADD), TY(UD), T2, .exec = EX(3, 7)), NOPATCH },
	{ "ADDC 32 M2", E(EXEC_SIZE), AC(AC_OK, .exec = EX(5, 1)), NOPATCH },
	/* Bit 3 belongs to neither the size nor the mask control. */
	{ "DWORD exec bit 3", E(EXEC_SIZE),
	  DW(OP(ADD), TY(UD), A_S0_D, .exec = EX(4, 0) | 8), NOPATCH },
	{ "ADDC exec bit 3", E(EXEC_SIZE), AC(AC_OK, .exec = EX(0, 0) | 8),
	  NOPATCH },

	/* Types. */
	{ "ADD D", E(TYPE), DW(OP(ADD), TY(D), A_S0_D), NOPATCH },
	{ "ADD F", E(TYPE), DW(OP(ADD), TY(F), A_S0_D), NOPATCH },
	{ "ADD Q", E(TYPE), DW(OP(ADD), TY(Q), A_S0_D), NOPATCH },
	{ "XCHG D", E(TYPE), DW(OP(XCHG), TY(D), A_S0_D), NOPATCH },
	{ "IMIN UD", E(TYPE), DW(OP(IMIN), TY(UD), A_S0_D), NOPATCH },
	{ "IMAX UQ", E(TYPE), DW(OP(IMAX), TY(UQ), A_S0_D), NOPATCH },
	{ "IMIN F", E(TYPE), DW(OP(IMIN), TY(F), A_S0_D), NOPATCH },
	{ "FMAX UD", E(TYPE), DW(OP(FMAX), TY(UD), A_S0_D), NOPATCH },
	{ "FMIN D", E(TYPE), DW(OP(FMIN), TY(D), A_S0_D), NOPATCH },
	{ "FMAX UQ", E(TYPE), DW(OP(FMAX), TY(UQ), A_S0_D), NOPATCH },
	{ "PREDEC F", E(TYPE), DW(OP(PREDEC), TY(F), OPND(ADDR)), NOPATCH },
	{ "type 5", E(TYPE), DW(OP(ADD), 5, A_S0_D), NOPATCH },
	{ "type 0xff", E(TYPE), DW(OP(ADD), 0xff, A_S0_D), NOPATCH },
	{ "TYPED ADD UQ", E(TYPE), TD(S_2D, OP(ADD), TY(UQ), T2), NOPATCH },
	{ "TYPED PREDEC Q", E(TYPE),
	  TD(S_2D, OP(PREDEC), TY(Q), OPND(ADDR) | OPND(V)), NOPATCH },
	{ "TYPED ADD F", E(TYPE), TD(S_2D, OP(ADD), TY(F), T2), NOPATCH },
	{ "ADDC D", E(TYPE), AC(AC_OK, .type = TY(D)), NOPATCH },
	{ "ADDC F", E(TYPE), AC(AC_OK, .type = TY(F)), NOPATCH },
	{ "ADDC UQ", E(TYPE), AC(AC_OK, .type = TY(UQ)), NOPATCH },

	/* Operands. */
	{ "DWORD without ADDR", E(OPERANDS),
	  DW(OP(ADD), TY(UD), OPND(SRC0) | OPND(DST)), NOPATCH },
	{ "DWORD with V", E(OPERANDS),
	  DW(OP(ADD), TY(UD), A_S0_D | OPND(V)), NOPATCH },
	{ "DWORD with R", E(OPERANDS),
	  DW(OP(ADD), TY(UD), A_S0_D | OPND(R)), NOPATCH },
	{ "DWORD with LOD", E(OPERANDS),
	  DW(OP(ADD), TY(UD), A_S0_D | OPND(LOD)), NOPATCH },
	{ "INC with Src0", E(OPERANDS), DW(OP(INC), TY(UD), A_S0_D), NOPATCH },
	{ "DEC with Src0", E(OPERANDS), DW(OP(DEC), TY(UD), A_S0_D), NOPATCH },
	{ "PREDEC with Src0", E(OPERANDS), DW(OP(PREDEC), TY(D), A_S0_D),
	  NOPATCH },
	{ "ADD without Src0", E(OPERANDS),
	  DW(OP(ADD), TY(UD), OPND(ADDR) | OPND(DST)), NOPATCH },
	{ "ADD with Src1", E(OPERANDS),
	  DW(OP(ADD), TY(UD), A_S0_D | OPND(SRC1)), NOPATCH },
	{ "CMPXCHG without Src1", E(OPERANDS),
	  DW(OP(CMPXCHG), TY(UD), A_S0_D), NOPATCH },
	{ "CMPXCHG without Src0", E(OPERANDS),
	  DW(OP(CMPXCHG), TY(UD), OPND(ADDR) | OPND(SRC1)), NOPATCH },
	{ "FCMPWR without Src1", E(OPERANDS),
	  DW(OP(FCMPWR), TY(F), A_S0_D), NOPATCH },
	{ "FMAX with Src1", E(OPERANDS), DW(OP(FMAX), TY(F), A_S01), NOPATCH },
	{ "DWORD Src0 immediate", E(OPERANDS),
	  DW(OP(ADD), TY(UD), OPND(ADDR) | OPND(SRC0_IMM)), NOPATCH },
	{ "DWORD Src1 immediate", E(OPERANDS),
	  DW(OP(CMPXCHG), TY(UD), OPND(ADDR) | OPND(SRC0) | OPND(SRC1_IMM)),
	  NOPATCH },
	{ "TYPED without U", E(OPERANDS),
	  TD(S_2D, OP(ADD), TY(UD), OPND(V) | OPND(SRC0)), NOPATCH },
	{ "TYPED INC with Src0", E(OPERANDS), TD(S_2D, OP(INC), TY(UD), T2),
	  NOPATCH },
	{ "TYPED Src0 immediate", E(OPERANDS),
	  TD(S_2D, OP(ADD), TY(UD), OPND(ADDR) | OPND(V) | OPND(SRC0_IMM)),
	  NOPATCH },
	{ "TYPED 1D with V", E(OPERANDS),
	  TD(S_1D, OP(INC), TY(UD), OPND(ADDR) | OPND(V)), NOPATCH },
	{ "TYPED 1D with R", E(OPERANDS),
	  TD(S_1D, OP(INC), TY(UD), OPND(ADDR) | OPND(R)), NOPATCH },
	{ "TYPED 1D_ARRAY without V", E(OPERANDS),
	  TD(S_1DA, OP(INC), TY(UD), OPND(ADDR)), NOPATCH },
	{ "TYPED 1D_ARRAY with R", E(OPERANDS),
	  TD(S_1DA, OP(INC), TY(UD), OPND(ADDR) | OPND(V) | OPND(R)),
	  NOPATCH },
	{ "TYPED 2D without V", E(OPERANDS),
	  TD(S_2D, OP(INC), TY(UD), OPND(ADDR)), NOPATCH },
	{ "TYPED 2D with R", E(OPERANDS),
	  TD(S_2D, OP(ADD), TY(UD), T2 | OPND(R)), NOPATCH },
	{ "TYPED 2D_ARRAY without R", E(OPERANDS),
	  TD(S_2DA, OP(ADD), TY(UD), T2), NOPATCH },
	{ "TYPED 3D without R", E(OPERANDS),
	  TD(S_3D, OP(ADD), TY(UD), T2), NOPATCH },
	{ "TYPED 3D without V", E(OPERANDS),
	  TD(S_3D, OP(INC), TY(UD), OPND(ADDR) | OPND(R)), NOPATCH },
	{ "ADDC with ADDR", E(OPERANDS), AC(AC_OK | OPND(ADDR)), NOPATCH },
	{ "ADDC with V", E(OPERANDS), AC(AC_OK | OPND(V)), NOPATCH },
	{ "ADDC with LOD", E(OPERANDS), AC(AC_OK | OPND(LOD)), NOPATCH },
	{ "ADDC Src0 and Src0 immediate", E(OPERANDS),
	  AC(AC_OK | OPND(SRC0_IMM)), NOPATCH },
	{ "ADDC Src1 and Src1 immediate", E(OPERANDS),
	  AC(AC_OK | OPND(SRC1_IMM)), NOPATCH },
	{ "ADDC without Src0", E(OPERANDS),
	  AC(OPND(SRC1) | OPND(DST)), NOPATCH },
	{ "ADDC without Src1", E(OPERANDS),
	  AC(OPND(SRC0_IMM) | OPND(DST)), NOPATCH },
	{ "ADDC without Dst", E(OPERANDS),
	  AC(OPND(SRC0) | OPND(SRC1)), NOPATCH },

	/* Slots and surface kinds. */
	{ "DWORD slot 7 unbound", E(SLOT),
	  DW(OP(ADD), TY(UD), A_S0_D, .surface = S_UNBOUND), NOPATCH },
	{ "DWORD slot 255 unbound", E(SLOT),
	  DW(OP(ADD), TY(UD), A_S0_D, .surface = 255), NOPATCH },
	{ "TYPED slot 0 unbound", E(SLOT), TD(0, OP(ADD), TY(UD), T2),
	  NOPATCH },
	{ "DWORD on a typed surface", E(SURFACE_KIND),
	  DW(OP(ADD), TY(UD), A_S0_D, .surface = S_2D), NOPATCH },
	{ "DWORD on a tile grid", E(SURFACE_KIND),
	  DW(OP(ADD), TY(UD), A_S0_D, .surface = S_GRID), NOPATCH },
	{ "TYPED on a buffer", E(SURFACE_KIND), TD(S_BUF, OP(ADD), TY(UD), T2),
	  NOPATCH },
	{ "TYPED on a tile grid", E(SURFACE_KIND),
	  TD(S_GRID, OP(ADD), TY(UD), T2), NOPATCH },
	{ "TYPED without a layout", E(SURFACE_KIND),
	  TD(S_NOLAYOUT, OP(ADD), TY(UD), T2), NOPATCH },

	/* Alignment of enabled lanes. */
	{ "32-bit at 2", E(ALIGN),
	  DW(OP(ADD), TY(UD), A_S0_D, .addr = MIS2), NOPATCH },
	{ "32-bit at 1", E(ALIGN),
	  DW(OP(ADD), TY(UD), A_S0_D, .addr = MIS1), NOPATCH },
	{ "F at 3", E(ALIGN), DW(OP(FMAX), TY(F), A_S0_D, .addr = MIS3),
	  NOPATCH },
	{ ".16 at 1", E(ALIGN),
	  DW(OP(ADD) | OP16, TY(UD), A_S0_D, .addr = MIS1), NOPATCH },
	{ ".16 at 3", E(ALIGN),
	  DW(OP(INC) | OP16, TY(UD), OPND(ADDR), .addr = MIS3), NOPATCH },
	{ "UQ at 4", E(ALIGN),
	  DW(OP(ADD), TY(UQ), A_S0_D, .addr = MIS4), NOPATCH },
	{ "Q at 12", E(ALIGN),
	  DW(OP(IMAX), TY(Q), A_S0_D, .addr = MIS12), NOPATCH },
	{ "masked-on lane at 2", E(ALIGN),
	  DW(OP(ADD), TY(UD), A_S0_D, .exec = EX(2, 0), .emask = 0x2,
	     .addr = MIS2), NOPATCH },
};

#define NCASES (sizeof(cases) / sizeof(cases[0]))

/* Build case @c at *pos of @buf, with its patch, size and type changes. */
static void put_case(u8 *buf, u32 *pos, const struct fcase *c)
{
	struct drm_vatom_packet *hdr = (void *)(buf + *pos);
	u32 start = *pos, built = put(buf, pos, &c->k);

	if (c->patch[0] >= 0)
		buf[start + c->patch[0]] = (u8)c->patch[1];
	if (c->hdr_type)
		hdr->type = (u32)c->hdr_type;
	if (c->hdr_size)
		hdr->size = (u32)c->hdr_size;
	if (c->delta) {
		hdr->size = built + c->delta;
		if (c->delta > 0)
			memset(buf + start + built, 0, c->delta);
		*pos = start + hdr->size;
	}
}

/* The valid packets around each case. */
static const struct pk before0 = {
	.opcode = DWORD, .op = OP(ADD), .exec = EXNM(3, 0), .surface = S_BUF,
	.type = TY(UD), .operands = A_S0_D,
};
static const struct pk before1 = {
	.opcode = ADDC, .exec = EXNM(2, 0), .type = TY(UD),
	.operands = OPND(SRC0) | OPND(SRC1_IMM) | OPND(DST),
};
static const struct pk after = {
	.opcode = DWORD, .op = OP(INC), .exec = EX(0, 0), .surface = S_BUF,
	.type = TY(UD), .operands = OPND(ADDR), .emask = 1,
};

/*
 * A valid or misaligned case again, as the second packet of a run of its
 * shape: after its twin with every lane aligned (the same fixed part), it
 * gets the run's own checks of what its arrays hold (all lanes ORed, or
 * lane by lane under a partial mask), which must find what the case's
 * alone did: nothing, or its ALIGN at index 1.
 */
static void run_second(const struct fcase *c)
{
	static u64 stream[256];
	struct vatom_stream_error err = { 0x1234, 0x5678 };
	struct pk twin = c->k;
	u32 pos = 0;
	u64 need;
	int rc;

	if (c->reason && c->reason != E(ALIGN))
		return;
	twin.addr = NULL;	/* the defaults': every lane at a multiple of 8 */
	memset(stream, 0, sizeof(stream));
	put((u8 *)stream, &pos, &twin);
	put_case((u8 *)stream, &pos, c);
	rc = vatom_stream_validate(stream, pos, &bind, &need, &err);
	if (!c->reason) {
		VT_EXPECT_EQ_MSG(rc, 0, "%s, second of a run", c->name);
		return;
	}
	VT_EXPECT_EQ_MSG(rc, -EINVAL, "%s, second of a run", c->name);
	VT_EXPECT_EQ_MSG(err.reason, E(ALIGN), "%s, second of a run", c->name);
	VT_EXPECT_EQ_MSG(err.index, 1, "%s, second of a run", c->name);
}

static void test_reasons(void)
{
	static u64 stream[1024];
	u8 *s = (u8 *)stream;
	u32 i, seen = 0;

	setup();
	for (i = 0; i < NCASES; i++) {
		const struct fcase *c = &cases[i];
		struct vatom_stream_error err = { 0x1234, 0x5678 };
		u64 need = 0x1234;
		u32 pos = 0;
		int rc;

		memset(stream, 0, sizeof(stream));
		put(s, &pos, &before0);		/* 32 result bytes */
		put(s, &pos, &before1);		/* 32 result bytes */
		put_case(s, &pos, c);
		put(s, &pos, &after);
		rc = vatom_stream_validate(stream, pos, &bind, &need, &err);
		if (!c->reason) {
			VT_EXPECT_EQ_MSG(rc, 0, "%s", c->name);
			VT_EXPECT_EQ_MSG(err.reason, 0, "%s", c->name);
			VT_EXPECT_EQ_MSG(err.index, 0, "%s", c->name);
			continue;
		}
		seen |= 1u << c->reason;
		VT_EXPECT_EQ_MSG(rc, -EINVAL, "%s", c->name);
		VT_EXPECT_EQ_MSG(err.reason, c->reason, "%s", c->name);
		VT_EXPECT_EQ_MSG(err.index, 2, "%s", c->name);
		VT_EXPECT_EQ_MSG(need, 0, "%s", c->name);

		/* Alone, it is packet 0. */
		memset(stream, 0, sizeof(stream));
		pos = 0;
		put_case(s, &pos, c);
		if (pos > sizeof(stream))
			pos = sizeof(stream);
		rc = vatom_stream_validate(stream, pos, &bind, &need, &err);
		VT_EXPECT_EQ_MSG(err.reason, c->reason, "%s alone", c->name);
		VT_EXPECT_EQ_MSG(err.index, 0, "%s alone", c->name);
	}
	for (i = 0; i < NCASES; i++)
		run_second(&cases[i]);
	/* Every reason this validator can give was seen. */
	VT_EXPECT_EQ(seen, (1u << E(PACKET_TYPE)) | (1u << E(PACKET_SIZE)) |
		     (1u << E(RESERVED)) | (1u << E(OPCODE)) | (1u << E(OP)) |
		     (1u << E(EXEC_SIZE)) | (1u << E(TYPE)) |
		     (1u << E(OPERANDS)) | (1u << E(SLOT)) |
		     (1u << E(SURFACE_KIND)) | (1u << E(ALIGN)));
}

static const struct fcase *find_case(const char *name)
{
	u32 i;

	for (i = 0; i < NCASES; i++)
		if (!strcmp(cases[i].name, name))
			return &cases[i];
	abort();
}

/* The first of several faults is the one reported. */
static void test_first_fault(void)
{
	static u64 stream[256];
	struct vatom_stream_error err;
	u32 pos = 0;
	u64 need;

	setup();
	put((u8 *)stream, &pos, &before0);
	put_case((u8 *)stream, &pos, &cases[NCASES - 1]);	/* ALIGN */
	put((u8 *)stream, &pos, &before1);
	put_case((u8 *)stream, &pos, find_case("opcode 0x7c"));
	VT_EXPECT_EQ(vatom_stream_validate(stream, pos, &bind, &need, &err),
		     -EINVAL);
	VT_EXPECT_EQ(err.index, 1);
	VT_EXPECT_EQ(err.reason, E(ALIGN));
	/* Trailing bytes too few for a header: the next index. */
	pos = 0;
	put((u8 *)stream, &pos, &before0);
	put((u8 *)stream, &pos, &before1);
	put((u8 *)stream, &pos, &after);
	VT_EXPECT_EQ(vatom_stream_validate(stream, pos + 4, &bind, &need, &err),
		     -EINVAL);
	VT_EXPECT_EQ(err.index, 3);
	VT_EXPECT_EQ(err.reason, E(PACKET_SIZE));
	/* A stream size that cuts the last packet short. */
	VT_EXPECT_EQ(vatom_stream_validate(stream, pos - 8, &bind, &need, &err),
		     -EINVAL);
	VT_EXPECT_EQ(err.index, 2);
	VT_EXPECT_EQ(err.reason, E(PACKET_SIZE));
	/* No bindings at all: ADDC is fine, DWORD has no slot. */
	pos = 0;
	put((u8 *)stream, &pos, &before1);
	VT_EXPECT_EQ(vatom_stream_validate(stream, pos, NULL, &need, &err), 0);
	VT_EXPECT_EQ(need, 32);
	put((u8 *)stream, &pos, &before0);
	VT_EXPECT_EQ(vatom_stream_validate(stream, pos, NULL, &need, &err),
		     -EINVAL);
	VT_EXPECT_EQ(err.index, 1);
	VT_EXPECT_EQ(err.reason, E(SLOT));
}

/* Other families are dispatched to their own validators. */
static void test_dispatch(void)
{
	static u64 stream[16];
	struct drm_vatom_packet *hdr = (void *)stream;
	struct vatom_stream_error err;
	u64 need;

	setup();
	memset(stream, 0, sizeof(stream));
	hdr->type = DRM_VATOM_PACKET_PTX;
	hdr->size = 8;		/* a PTX packet is 72 bytes */
	VT_EXPECT_EQ(vatom_stream_validate(stream, 8, &bind, &need, &err),
		     -EINVAL);
	VT_EXPECT_EQ(err.reason, E(PACKET_SIZE));
	hdr->type = DRM_VATOM_PACKET_NOC;	/* a NoC packet is 64 bytes */
	VT_EXPECT_EQ(vatom_stream_validate(stream, 8, &bind, &need, &err),
		     -EINVAL);
	VT_EXPECT_EQ(err.reason, E(PACKET_SIZE));
}

/* ------------------------------------------------------------------------ */
/* Result sizes and offsets                                                  */
/* ------------------------------------------------------------------------ */

static void test_results(void)
{
	static u64 stream[1024];
	static const u32 one = 1;
	static const u64 two64[2] = { 0x100000000ull, 7 };
	static const u32 t_u[8] = { 0, 1, 2, 3, 0, 1, 2, 3 };
	static const u32 t_v[8] = { 0, 0, 0, 0, 1, 1, 1, 1 };
	static const u32 ones[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
	static const u32 addc0 = 0xffffffff, addc1 = 2;
	const struct pk p[] = {
		/* 8: one UD result, rounded up. */
		{ .opcode = DWORD, .op = OP(ADD), .exec = EXNM(0, 0),
		  .surface = S_BUF, .type = TY(UD), .operands = A_S0_D,
		  .addr = A + 1, .src0 = &one },
		/* 0: no Dst. */
		{ .opcode = DWORD, .op = OP(INC), .exec = EXNM(2, 0),
		  .surface = S_BUF, .type = TY(UD), .operands = OPND(ADDR),
		  .addr = A + 2 },
		/* 16: ADDC exec 1, dst and carry each rounded to 8. */
		{ .opcode = ADDC, .exec = EXNM(0, 0), .type = TY(UD),
		  .operands = OPND(SRC0) | OPND(SRC1) | OPND(DST),
		  .src0 = &addc0, .src1 = &addc1 },
		/* 16: two UQ results. */
		{ .opcode = DWORD, .op = OP(ADD), .exec = EXNM(1, 0),
		  .surface = S_BUF, .type = TY(UQ), .operands = A_S0_D,
		  .addr = A + 8, .src0 = two64 },
		/* 32: TYPED, 8 lanes. */
		{ .opcode = TYPED, .op = OP(ADD), .exec = EXNM(3, 0),
		  .surface = S_2D, .type = TY(UD),
		  .operands = T2 | OPND(DST), .addr = t_u, .v = t_v,
		  .src0 = ones },
		/* 8: .16 exec 2, 4-byte elements. */
		{ .opcode = DWORD, .op = OP(XCHG) | OP16, .exec = EXNM(1, 0),
		  .surface = S_BUF, .type = TY(UD), .operands = A_S0_D,
		  .addr = A + 12, .src0 = t_u + 2 },
		/* 128: exec 16 UQ. */
		{ .opcode = DWORD, .op = OP(OR), .exec = EXNM(4, 0),
		  .surface = S_BUF, .type = TY(UQ), .operands = A_S0_D,
		  .addr = A + 16 },
		/* 256: ADDC exec 32. */
		{ .opcode = ADDC, .exec = EX(5, 0), .type = TY(UD),
		  .operands = OPND(SRC0_IMM) | OPND(SRC1_IMM) | OPND(DST),
		  .emask = 1, .src0 = &addc0, .src1 = &addc1 },
	};
	struct vatom_stream_error err;
	struct vatom_stats st = { { 0 } };
	u32 pos = 0, i;
	u64 need;

	setup();
	for (i = 0; i < sizeof(p) / sizeof(p[0]); i++)
		put((u8 *)stream, &pos, &p[i]);
	VT_EXPECT_EQ(vatom_stream_validate(stream, pos, &bind, &need, &err), 0);
	VT_EXPECT_EQ(need, 8 + 0 + 16 + 16 + 32 + 8 + 128 + 256);
	/* A (typed) texel the typed packet touches, via the buffer too. */
	mem[8] = 41;
	vatom_stream_execute(stream, pos, &bind, res, &st);
	VT_EXPECT_EQ(st.packets[VATOM_FAMILY_VISA], 8);
	VT_EXPECT_EQ(st.elements[VATOM_FAMILY_VISA], 1 + 4 + 1 + 2 + 8 + 2 +
		     16 + 1);
	/* Packet 0 at 0: old value 41 of byte 8; the typed ADD ran later. */
	VT_EXPECT_EQ(rd32(res, 0), 41);
	VT_EXPECT_EQ(rd32(res, 4), 0xa5a5a5a5);
	/* Packet 2 at 8: 0xffffffff + 2 = 1 carry 1. */
	VT_EXPECT_EQ(rd32(res, 8), 1);
	VT_EXPECT_EQ(rd32(res, 16), 1);
	/* Packet 3 at 24: two zeros (old values). */
	VT_EXPECT_EQ(rd64(res, 24), 0);
	VT_EXPECT_EQ(rd64(res, 32), 0);
	/* Packet 4 at 40: texel (2, 0) is byte 8, which held 42 by then. */
	VT_EXPECT_EQ(rd32(res, 40 + 4 * 2), 42);
	/* Texel (0, 0) is byte 0, which packet 0 left alone. */
	VT_EXPECT_EQ(rd32(res, 40), 0);
	/* Packet 5 at 72, packet 6 at 80, packet 7 at 208 (dst), 336. */
	VT_EXPECT_EQ(rd32(res, 72), 0);
	VT_EXPECT_EQ(rd64(res, 80), 0);
	VT_EXPECT_EQ(rd32(res, 208), 1);
	VT_EXPECT_EQ(rd32(res, 212), 0xa5a5a5a5);
	VT_EXPECT_EQ(rd32(res, 208 + 128), 1);
	VT_EXPECT_EQ(rd32(res, 208 + 256), 0xa5a5a5a5);
}

/* Many packets: results in order, one region each. */
static void test_long_stream(void)
{
	static u64 stream[300 * 8];
	static u8 big[300 * 8];
	const struct pk inc = {
		.opcode = DWORD, .op = OP(INC), .exec = EXNM(0, 0),
		.surface = S_BUF, .type = TY(UD),
		.operands = OPND(ADDR) | OPND(DST),
	};
	struct vatom_stream_error err;
	struct vatom_stats st = { { 0 } };
	u32 pos = 0, i, bad = 0;
	u64 need;

	setup();
	for (i = 0; i < 300; i++)
		put((u8 *)stream, &pos, &inc);
	VT_EXPECT_EQ(pos, 300 * 40);
	VT_EXPECT_EQ(vatom_stream_validate(stream, pos, &bind, &need, &err), 0);
	VT_EXPECT_EQ(need, 300 * 8);
	vatom_stream_execute(stream, pos, &bind, big, &st);
	for (i = 0; i < 300; i++)
		bad += rd32(big, 8 * i) != i;
	VT_EXPECT_EQ(bad, 0);
	VT_EXPECT_EQ(rd32(mem, 0), 300);
	VT_EXPECT_EQ(st.packets[VATOM_FAMILY_VISA], 300);
	VT_EXPECT_EQ(st.elements[VATOM_FAMILY_VISA], 300);
	VT_EXPECT_EQ(st.packets[VATOM_FAMILY_PTX] + st.packets[VATOM_FAMILY_NOC],
		     0);
}

static void test_empty(void)
{
	struct vatom_stream_error err = { 9, 9 };
	struct vatom_stats st = { { 0 } };
	u64 need = 9;

	VT_EXPECT_EQ(vatom_stream_validate(NULL, 0, NULL, &need, &err), 0);
	VT_EXPECT_EQ(need, 0);
	VT_EXPECT_EQ(err.index, 0);
	VT_EXPECT_EQ(err.reason, 0);
	vatom_stream_execute(NULL, 0, NULL, NULL, &st);
	VT_EXPECT_EQ(st.packets[VATOM_FAMILY_VISA], 0);
}

/* ------------------------------------------------------------------------ */
/* What validation refuses, executed anyway                                  */
/* ------------------------------------------------------------------------ */

/* A NoC packet with nothing but its header and @slot. */
static void put_noc(u8 *buf, u32 *pos, u32 slot)
{
	struct drm_vatom_noc p;

	memset(&p, 0, sizeof(p));
	p.hdr.type = DRM_VATOM_PACKET_NOC;
	p.hdr.size = sizeof(p);
	p.slot = slot;
	memcpy(buf + *pos, &p, sizeof(p));
	*pos += sizeof(p);
}

/*
 * The driver executes only what it validated, but the executor stops
 * where validation would have refused rather than act on it: a packet
 * running past the stream, a NoC request whose slot or surface is wrong,
 * alone or as a run. Nothing executes: no surface or result byte
 * changes, no element operation is counted.
 */
static void test_unvalidated(void)
{
	static u64 stream[64];
	static u8 before[sizeof(mem)];
	static const struct {
		const char *name;
		u32 slot, packets, size;	/* size 0: the packets' */
	} cases[] = {
		{ "a header past the stream", S_GRID, 1, 32 },
		{ "NoC, slot unbound", S_UNBOUND, 1, 0 },
		{ "NoC run, a grid view without its layout", S_GRID, 2, 0 },
	};
	struct vatom_stats st;
	u32 i, k, pos;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		setup();
		views[S_GRID].grid = NULL;
		memcpy(before, mem, sizeof(mem));
		memset(stream, 0, sizeof(stream));
		pos = 0;
		for (k = 0; k < cases[i].packets; k++)
			put_noc((u8 *)stream, &pos, cases[i].slot);
		memset(&st, 0, sizeof(st));
		vatom_stream_execute(stream, cases[i].size ? cases[i].size : pos,
				     &bind, res, &st);
		VT_EXPECT_EQ_MSG(memcmp(before, mem, sizeof(mem)), 0, "%s",
				 cases[i].name);
		VT_EXPECT_EQ_MSG(res[0], 0xa5, "%s", cases[i].name);
		for (k = 0; k < VATOM_FAMILY_COUNT; k++)
			VT_EXPECT_EQ_MSG(st.elements[k], 0, "%s: family %u",
					 cases[i].name, k);
	}
}

/* ------------------------------------------------------------------------ */
/* Never past the end, never a write                                         */
/* ------------------------------------------------------------------------ */

/* add.v4.f32 at @addr of S_BUF: 1.0 to each element. */
static void put_ptx_v4(u8 *buf, u32 *pos, u64 addr)
{
	struct drm_vatom_ptx p;

	memset(&p, 0, sizeof(p));
	p.hdr.type = DRM_VATOM_PACKET_PTX;
	p.hdr.size = sizeof(p);
	p.op = DRM_VATOM_PTX_OP_ADD;
	p.type = DRM_VATOM_PTX_TYPE_F32;
	p.vec = 4;
	p.space = DRM_VATOM_PTX_SPACE_GLOBAL;
	p.slot = S_BUF;
	p.addr = addr;
	p.b[0] = 0x3f8000003f800000ull;
	p.b[1] = 0x3f8000003f800000ull;
	memcpy(buf + *pos, &p, sizeof(p));
	*pos += sizeof(p);
}

static u8 *page_lo, *page_end;
static long page;

/* Copy @len bytes to the end of the read-only page and validate there. */
static int at_end(const void *data, u32 len, struct vatom_stream_error *err,
		  u64 *need)
{
	mprotect(page_lo, page, PROT_READ | PROT_WRITE);
	memset(page_lo, 0xee, page);
	memcpy(page_end - len, data, len);
	mprotect(page_lo, page, PROT_READ);
	return vatom_stream_validate(page_end - len, len, &bind, need, err);
}

static void test_bounds(void)
{
	static u64 buf[512];
	u8 *s = (u8 *)buf;
	struct drm_vatom_packet *hdr = (void *)buf;
	struct vatom_stream_error err;
	struct vatom_stats st = { { 0 } };
	u32 pos, i;
	u64 need;

	page = sysconf(_SC_PAGESIZE);
	page_lo = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	VT_EXPECT(page_lo != MAP_FAILED);
	if (page_lo == MAP_FAILED)
		return;
	page_end = page_lo + page;
	VT_EXPECT_EQ(mprotect(page_end, page, PROT_NONE), 0);
	setup();

	VT_EXPECT_EQ(at_end(buf, 0, &err, &need), 0);

	/* 4 bytes: not even a header. */
	memset(buf, 0, sizeof(buf));
	VT_EXPECT_EQ(at_end(buf, 4, &err, &need), -EINVAL);
	VT_EXPECT_EQ(err.reason, E(PACKET_SIZE));

	/* Headers claiming more than is there. */
	hdr->type = DRM_VATOM_PACKET_VISA;
	for (i = 8; i <= 32; i += 8) {
		hdr->size = i + 8;
		VT_EXPECT_EQ(at_end(buf, i, &err, &need), -EINVAL);
		VT_EXPECT_EQ_MSG(err.reason, E(PACKET_SIZE), "len %u", i);
	}
	/* vISA packets shorter than the fixed part: size 8, 16, 24. */
	for (i = 8; i < 32; i += 8) {
		hdr->size = i;
		VT_EXPECT_EQ(at_end(buf, i, &err, &need), -EINVAL);
		VT_EXPECT_EQ_MSG(err.reason, E(PACKET_SIZE), "len %u", i);
	}
	/* PTX packets shorter than their 72 bytes, each a whole stream. */
	hdr->type = DRM_VATOM_PACKET_PTX;
	for (i = 8; i < 72; i += 8) {
		hdr->size = i;
		VT_EXPECT_EQ(at_end(buf, i, &err, &need), -EINVAL);
		VT_EXPECT_EQ_MSG(err.reason, E(PACKET_SIZE), "len %u", i);
	}
	hdr->type = 77;
	hdr->size = 8;
	VT_EXPECT_EQ(at_end(buf, 8, &err, &need), -EINVAL);
	VT_EXPECT_EQ(err.reason, E(PACKET_TYPE));

	/* A fixed part whose operands need more than the packet's 32 bytes. */
	pos = 0;
	put(s, &pos, &before0);
	hdr->size = 32;
	VT_EXPECT_EQ(at_end(buf, 32, &err, &need), -EINVAL);
	VT_EXPECT_EQ(err.reason, E(PACKET_SIZE));

	/* Every fault case, alone, ending at the guard page. */
	for (i = 0; i < NCASES; i++) {
		memset(buf, 0, sizeof(buf));
		pos = 0;
		put_case(s, &pos, &cases[i]);
		if (pos > sizeof(buf))	/* "size exact + 8" and the like */
			pos = sizeof(buf);
		at_end(buf, pos, &err, &need);
		VT_EXPECT_EQ_MSG(err.reason, cases[i].reason, "%s at the end",
				 cases[i].name);
	}

	/*
	 * A valid stream ending at the page end, whose last packet ends with
	 * padding that the validator reads; then executed from there.
	 */
	memset(buf, 0, sizeof(buf));
	pos = 0;
	put(s, &pos, &before0);
	put(s, &pos, &after);
	put(s, &pos, &before1);
	put(s, &pos, &(struct pk){ .opcode = ADDC, .exec = EXNM(0, 0),
				   .type = TY(UD),
				   .operands = OPND(SRC0) |
					       OPND(SRC1_IMM) | OPND(DST) });
	VT_EXPECT_EQ(at_end(buf, pos, &err, &need), 0);
	VT_EXPECT_EQ(need, 32 + 0 + 32 + 16);
	vatom_stream_execute(page_end - pos, pos, &bind, res, &st);
	VT_EXPECT_EQ(st.packets[VATOM_FAMILY_VISA], 4);
	VT_EXPECT_EQ(rd32(mem, 0), 1);	/* ADD 0 at 0, then INC at 0 */

	/* The same stream cut one packet short of its last 8 bytes. */
	VT_EXPECT_EQ(at_end(buf, pos - 8, &err, &need), -EINVAL);
	VT_EXPECT_EQ(err.index, 3);
	VT_EXPECT_EQ(err.reason, E(PACKET_SIZE));

	/*
	 * A run of same-head PTX packets (validated as one run) ending at the
	 * page end; then cut so that the last packet is partial: its header
	 * is there, the rest of its head or operands are not.
	 */
	memset(buf, 0, sizeof(buf));
	for (i = 0, pos = 0; i < 5; i++)
		put_ptx_v4(s, &pos, 16 * i);
	VT_EXPECT_EQ(at_end(buf, pos, &err, &need), 0);
	VT_EXPECT_EQ(need, 5 * 16);
	memset(&st, 0, sizeof(st));
	vatom_stream_execute(page_end - pos, pos, &bind, res, &st);
	VT_EXPECT_EQ(st.packets[VATOM_FAMILY_PTX], 5);
	VT_EXPECT_EQ(st.elements[VATOM_FAMILY_PTX], 20);
	for (i = 8; i < 72; i += 8) {
		VT_EXPECT_EQ_MSG(at_end(buf, pos - i, &err, &need), -EINVAL,
				 "cut %u", i);
		VT_EXPECT_EQ_MSG(err.index, 4, "cut %u", i);
		VT_EXPECT_EQ_MSG(err.reason, E(PACKET_SIZE), "cut %u", i);
	}
	/* The last packet out of bounds: the run's own check, at the end. */
	((struct drm_vatom_ptx *)(s + pos - 72))->addr = 1024;
	VT_EXPECT_EQ(at_end(buf, pos, &err, &need), -EINVAL);
	VT_EXPECT_EQ(err.index, 4);
	VT_EXPECT_EQ(err.reason, E(BOUNDS));

	munmap(page_lo, 2 * page);
}

int main(void)
{
	vt_run(test_reasons, "every reason, one fault each, at index 2; runs");
	vt_run(test_first_fault, "first fault wins; truncation; no bindings");
	vt_run(test_dispatch, "PTX and NoC packets go to their validators");
	vt_run(test_results, "result sizes and offsets per packet");
	vt_run(test_long_stream, "300 packets, one result region each");
	vt_run(test_empty, "an empty stream is valid");
	vt_run(test_unvalidated, "what validation refuses executes nothing");
	vt_run(test_bounds, "validation never reads past the stream");
	return vt_done();
}
