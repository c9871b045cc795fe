// SPDX-License-Identifier: MIT
/*
 * vatom tool: the PTX demo. One 160-byte buffer bound at slot 3 and a
 * batch of PTX atom instructions covering each family of the ISA's forms:
 * integer add/inc/dec/min/max, the bit-size cas/exch including b16 and
 * b128, add.f32 with and without the flush to zero (.global vs
 * .shared::cta), packed f16x2, the .v8.f16, .v4.bf16x2 and .v4.f32
 * vectors, f64, and a cache hint. It prints each instruction in PTX text
 * form (the tool's disassembler), the value it returned and the memory
 * after it, and checks both against its own model of the instructions,
 * written from the PTX ISA text (seed 003) and the device's documented
 * float rules (docs/semantics-float.md) with the host's floating point,
 * independently of the library and the kernel.
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "vatom_tool.h"

#define SLOT	3
#define MEMSZ	160

#define OP(o)	DRM_VATOM_PTX_OP_##o
#define TY(t)	DRM_VATOM_PTX_TYPE_##t

/* One instruction of the demo and the memory at its address before. */
struct demo_ptx {
	struct vatom_ptx_atom a;
	union vatom_ptx_value old;
};

#define H(a, b, c, d)	((uint64_t)(a) | (uint64_t)(b) << 16 | \
			 (uint64_t)(c) << 32 | (uint64_t)(d) << 48)
#define W(a, b)		((uint64_t)(a) | (uint64_t)(b) << 32)

static const struct demo_ptx insns[] = {
	/* add.u32: 40 + 2 */
	{ { .op = OP(ADD), .type = TY(U32), .space = DRM_VATOM_PTX_SPACE_GLOBAL,
	    .addr = 0x00, .b.u32 = { 2 } }, { .u32 = { 40 } } },
	/* inc.u32 with the limit reached: back to 0 */
	{ { .op = OP(INC), .type = TY(U32), .sem = DRM_VATOM_PTX_SEM_ACQUIRE,
	    .scope = DRM_VATOM_PTX_SCOPE_SYS, .space = DRM_VATOM_PTX_SPACE_GLOBAL,
	    .addr = 0x04, .b.u32 = { 3 } }, { .u32 = { 3 } } },
	/* dec.u32 from 0: wraps to the limit */
	{ { .op = OP(DEC), .type = TY(U32), .addr = 0x08, .b.u32 = { 10 } },
	  { .u32 = { 0 } } },
	/* cas.b32 that succeeds */
	{ { .op = OP(CAS), .type = TY(B32), .space = DRM_VATOM_PTX_SPACE_GLOBAL,
	    .addr = 0x0c, .b.u32 = { 7 }, .c.u32 = { 0x100 } }, { .u32 = { 7 } } },
	/* max.s32: -10 vs -5 */
	{ { .op = OP(MAX), .type = TY(S32), .space = DRM_VATOM_PTX_SPACE_SHARED_CTA,
	    .addr = 0x10, .b.u32 = { 0xfffffffb } }, { .u32 = { 0xfffffff6 } } },
	/* cas.b16 on the high half of a dword */
	{ { .op = OP(CAS), .type = TY(B16), .space = DRM_VATOM_PTX_SPACE_GLOBAL,
	    .addr = 0x16, .b.u16 = { 0x1234 }, .c.u16 = { 0xbeef } },
	  { .u16 = { 0x1234 } } },
	/* exch.b64 */
	{ { .op = OP(EXCH), .type = TY(B64), .sem = DRM_VATOM_PTX_SEM_ACQ_REL,
	    .addr = 0x18, .b.u64 = { 0x0123456789abcdefull } },
	  { .u64 = { 0xfedcba9876543210ull } } },
	/* cas.b128 that fails on the high half: nothing stored */
	{ { .op = OP(CAS), .type = TY(B128), .space = DRM_VATOM_PTX_SPACE_GLOBAL,
	    .addr = 0x20, .b.u64 = { 0x1111111111111111ull, 0x2222222222222223ull },
	    .c.u64 = { 5, 6 } },
	  { .u64 = { 0x1111111111111111ull, 0x2222222222222222ull } } },
	/* add.f32 on .global: the subnormal operands flush: 0 + 0 */
	{ { .op = OP(ADD), .type = TY(F32), .space = DRM_VATOM_PTX_SPACE_GLOBAL,
	    .addr = 0x30, .b.u32 = { 0x00400000 } }, { .u32 = { 0x00400000 } } },
	/* the same on .shared::cta: 2^-127 + 2^-127 = 2^-126 */
	{ { .op = OP(ADD), .type = TY(F32), .space = DRM_VATOM_PTX_SPACE_SHARED_CTA,
	    .addr = 0x34, .b.u32 = { 0x00400000 } }, { .u32 = { 0x00400000 } } },
	/* add.noftz.f16x2: {1.0, 2.0} + {0.5, 2^-24} */
	{ { .op = OP(ADD), .type = TY(F16X2), .flags = DRM_VATOM_PTX_NOFTZ,
	    .addr = 0x38, .b.u16 = { 0x3800, 0x0001 } },
	  { .u16 = { 0x3c00, 0x4000 } } },
	/* min.u64 */
	{ { .op = OP(MIN), .type = TY(U64), .space = DRM_VATOM_PTX_SPACE_GLOBAL,
	    .addr = 0x40, .b.u64 = { 0x8000000000000000ull } },
	  { .u64 = { 0xffffffff00000000ull } } },
	/* add.noftz.v8.f16: eight additions, one of them overflowing */
	{ { .op = OP(ADD), .type = TY(F16), .vec = 8, .flags = DRM_VATOM_PTX_NOFTZ,
	    .space = DRM_VATOM_PTX_SPACE_GLOBAL, .addr = 0x50,
	    .b.u64 = { H(0x3c00, 0x3c00, 0x0001, 0x4c00),
		       H(0x3c00, 0xbc00, 0x1000, 0x0000) } },
	  { .u64 = { H(0x3c00, 0x4000, 0x03ff, 0x7bff),
		     H(0xc000, 0x3c00, 0x3c01, 0x8000) } } },
	/* max.noftz.v4.bf16x2 */
	{ { .op = OP(MAX), .type = TY(BF16X2), .vec = 4, .flags = DRM_VATOM_PTX_NOFTZ,
	    .addr = 0x60,
	    .b.u64 = { H(0x4000, 0xc000, 0x0000, 0x3f80),
		       H(0x0001, 0x8001, 0x7f7f, 0x4040) } },
	  { .u64 = { H(0x3f80, 0xbf80, 0x8000, 0x4000),
		     H(0x8001, 0x0001, 0x3f80, 0x4080) } } },
	/* add.v4.f32 on .global (flushed): 1+2, 0.5-0.25, sub+sub, max+max */
	{ { .op = OP(ADD), .type = TY(F32), .vec = 4,
	    .space = DRM_VATOM_PTX_SPACE_GLOBAL, .addr = 0x70,
	    .b.u64 = { W(0x40000000, 0xbe800000), W(0x00000001, 0x7f7fffff) } },
	  { .u64 = { W(0x3f800000, 0x3f000000), W(0x00000001, 0x7f7fffff) } } },
	/* add.f64: (1 + 2^-52) + 2^-53 ties to even, 1 + 2^-51 */
	{ { .op = OP(ADD), .type = TY(F64), .space = DRM_VATOM_PTX_SPACE_SHARED_CLUSTER,
	    .addr = 0x80, .b.u64 = { 0x3ca0000000000000ull } },
	  { .u64 = { 0x3ff0000000000001ull } } },
	/* add.L2::cache_hint.s32 with a policy operand */
	{ { .op = OP(ADD), .type = TY(S32), .space = DRM_VATOM_PTX_SPACE_GLOBAL,
	    .flags = DRM_VATOM_PTX_CACHE_HINT, .cache_policy = 0x1234,
	    .addr = 0x88, .b.u32 = { 0xffffffff } }, { .u32 = { 0x80000000 } } },
	/* xor.b32 */
	{ { .op = OP(XOR), .type = TY(B32), .addr = 0x8c, .b.u32 = { 0x0f0f0f0f } },
	  { .u32 = { 0x12345678 } } },
};

#define NINSN ARRAY_SIZE(insns)

/* --- the model --------------------------------------------------------------- */

static unsigned int elem_size(unsigned int type)
{
	switch (type) {
	case TY(B16): case TY(F16): case TY(BF16):
		return 2;
	case TY(B64): case TY(U64): case TY(S64): case TY(F64):
		return 8;
	case TY(B128):
		return 16;
	default:
		return 4;
	}
}

static float f32_of(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static uint32_t bits_of_f32(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/* A subnormal becomes a zero of its sign; NaN results are canonical. */
static uint32_t flush32(uint32_t u)
{
	return (u & 0x7f800000) ? u : (u & 0x80000000);
}

static uint32_t model_f32_add(uint32_t a, uint32_t b, bool ftz)
{
	uint32_t r;

	if (ftz) {
		a = flush32(a);
		b = flush32(b);
	}
	r = bits_of_f32(f32_of(a) + f32_of(b));
	if ((r & 0x7fffffff) > 0x7f800000)
		return 0x7fffffff;
	return ftz ? flush32(r) : r;
}

static uint64_t model_f64_add(uint64_t a, uint64_t b)
{
	double x, y, s;
	uint64_t r;

	memcpy(&x, &a, 8);
	memcpy(&y, &b, 8);
	s = x + y;
	memcpy(&r, &s, 8);
	if ((r & 0x7fffffffffffffffull) > 0x7ff0000000000000ull)
		return 0x7fffffffffffffffull;
	return r;
}

static double half_value(uint16_t h, bool bf)
{
	_Float16 f;

	if (bf)
		return f32_of((uint32_t)h << 16);
	memcpy(&f, &h, 2);
	return f;
}

static bool half_nan(uint16_t h, bool bf)
{
	return (h & 0x7fff) > (bf ? 0x7f80 : 0x7c00);
}

/*
 * binary16: the double sum of two halves is exact, so one conversion
 * rounds once. bfloat16: the sum through float (exact for the demo's
 * values), rounded to nearest even on the bit pattern.
 */
static uint16_t model_half_add(uint16_t a, uint16_t b, bool bf)
{
	double s = half_value(a, bf) + half_value(b, bf);
	uint32_t u;
	_Float16 h;
	uint16_t r;

	if (half_nan(a, bf) || half_nan(b, bf) || s != s)
		return 0x7fff;
	if (bf) {
		u = bits_of_f32((float)s);
		return (u + 0x7fff + ((u >> 16) & 1)) >> 16;
	}
	h = (_Float16)s;
	memcpy(&r, &h, 2);
	return r;
}

/* minimumNumber / maximumNumber: -0 < +0, a single NaN is ignored. */
static uint16_t model_half_minmax(uint16_t a, uint16_t b, bool bf, bool max)
{
	double x = half_value(a, bf), y = half_value(b, bf);

	if (half_nan(a, bf) && half_nan(b, bf))
		return 0x7fff;
	if (half_nan(a, bf))
		return b;
	if (half_nan(b, bf))
		return a;
	if (x == y) {
		/* Equal values differ only for -0 and +0 (sign bit). */
		bool a_neg = a & 0x8000;

		return (a_neg == max) ? b : a;
	}
	return (x < y) != max ? a : b;
}

static uint16_t model_half(unsigned int op, uint16_t r, uint16_t s, bool bf)
{
	if (op == OP(ADD))
		return model_half_add(r, s, bf);
	return model_half_minmax(r, s, bf, op == OP(MAX));
}

/* The new value of one element (not b128): the seed's semantics. */
static uint64_t model_elem(const struct vatom_ptx_atom *a, uint64_t r,
			   uint64_t s, uint64_t t)
{
	bool bf = a->type == TY(BF16) || a->type == TY(BF16X2);
	bool min = a->op == OP(MIN);

	switch (a->op) {
	case OP(AND):
		return r & s;
	case OP(OR):
		return r | s;
	case OP(XOR):
		return r ^ s;
	case OP(CAS):
		return r == s ? t : r;
	case OP(EXCH):
		return s;
	case OP(INC):
		return (uint32_t)r >= (uint32_t)s ? 0 : (uint32_t)(r + 1);
	case OP(DEC):
		return ((uint32_t)r == 0 || (uint32_t)r > (uint32_t)s) ?
		       s : (uint32_t)(r - 1);
	}
	switch (a->type) {
	case TY(U32):
		if (a->op == OP(ADD))
			return (uint32_t)(r + s);
		return ((uint32_t)r < (uint32_t)s) == min ? r : s;
	case TY(S32):
		if (a->op == OP(ADD))
			return (uint32_t)(r + s);
		return ((int32_t)r < (int32_t)s) == min ? r : s;
	case TY(U64):
		if (a->op == OP(ADD))
			return r + s;
		return (r < s) == min ? r : s;
	case TY(S64):
		return ((int64_t)r < (int64_t)s) == min ? r : s;
	case TY(F32):
		/* Flushed on .global and generic unless .noftz. */
		return model_f32_add(r, s, a->space <= DRM_VATOM_PTX_SPACE_GLOBAL &&
					   !(a->flags & DRM_VATOM_PTX_NOFTZ));
	case TY(F64):
		return model_f64_add(r, s);
	case TY(F16):
	case TY(BF16):
		return model_half(a->op, r, s, bf);
	default:	/* f16x2, bf16x2: each half on its own */
		return model_half(a->op, r, s, bf) |
		       (uint32_t)model_half(a->op, r >> 16, s >> 16, bf) << 16;
	}
}

static uint64_t get_elem(const uint8_t *p, unsigned int esize)
{
	uint64_t v = 0;

	memcpy(&v, p, esize);
	return v;
}

/* Run one instruction on @mem; @ret receives the returned bytes. */
static void model_run(const struct vatom_ptx_atom *a, uint8_t *mem, uint8_t *ret)
{
	unsigned int esize = elem_size(a->type), n = a->vec ? a->vec : 1, i;
	uint8_t *p = mem + a->addr;

	if (esize == 16) {
		memcpy(ret, p, 16);
		if (a->op == OP(EXCH) || !memcmp(p, a->b.u64, 16))
			memcpy(p, a->op == OP(EXCH) ? a->b.u64 : a->c.u64, 16);
		return;
	}
	for (i = 0; i < n; i++, p += esize) {
		const uint8_t *bs = (const uint8_t *)a->b.u64 + i * esize;
		const uint8_t *cs = (const uint8_t *)a->c.u64 + i * esize;
		uint64_t r = get_elem(p, esize), v;

		memcpy(ret + i * esize, p, esize);
		v = model_elem(a, r, get_elem(bs, esize), get_elem(cs, esize));
		memcpy(p, &v, esize);
	}
}

/* --- printing ------------------------------------------------------------------ */

/* Bytes as the instruction's elements: "0x.." or "{0x.., 0x..}". */
static void print_elems(const struct vatom_ptx_atom *a, const uint8_t *bytes)
{
	unsigned int esize = elem_size(a->type), n = a->vec ? a->vec : 1, i;

	if (esize == 16) {
		printf("0x%016" PRIx64 "%016" PRIx64, get_elem(bytes + 8, 8),
		       get_elem(bytes, 8));
		return;
	}
	printf("%s", n > 1 ? "{" : "");
	for (i = 0; i < n; i++)
		printf("%s0x%0*" PRIx64, i ? ", " : "", 2 * esize,
		       get_elem(bytes + i * esize, esize));
	printf("%s", n > 1 ? "}" : "");
}

/* The same bytes as numbers, for the float types. */
static void print_values(const struct vatom_ptx_atom *a, const uint8_t *bytes)
{
	unsigned int esize = elem_size(a->type), n = a->vec ? a->vec : 1, i;
	bool bf = a->type == TY(BF16) || a->type == TY(BF16X2);
	double d;

	switch (a->type) {
	case TY(F16): case TY(BF16): case TY(F16X2): case TY(BF16X2):
		n = n * esize / 2;
		printf("  // ");
		for (i = 0; i < n; i++)
			printf("%s%g", i ? " " : "",
			       half_value(get_elem(bytes + 2 * i, 2), bf));
		break;
	case TY(F32):
		printf("  // ");
		for (i = 0; i < n; i++)
			printf("%s%g", i ? " " : "",
			       f32_of(get_elem(bytes + 4 * i, 4)));
		break;
	case TY(F64):
		memcpy(&d, bytes, 8);
		printf("  // %.17g", d);
		break;
	}
}

static void print_row(const char *what, const struct vatom_ptx_atom *a,
		      const uint8_t *got, const uint8_t *want, bool bad)
{
	printf("  %-8s ", what);
	print_elems(a, got);
	if (bad) {
		printf("  MISMATCH, expected ");
		print_elems(a, want);
	}
	print_values(a, got);
	printf("\n");
}

int demo_ptx(const struct tool_opts *o, int argc, char **argv)
{
	uint8_t init[MEMSZ], model[MEMSZ], want_ret[NINSN][16];
	unsigned int k, i, mismatches = 0, checked = 0;
	struct vatom_device *dev = NULL;
	struct vatom_surface *buf = NULL;
	struct vatom_batch *b = NULL;
	int res[NINSN], ret;
	uint32_t idx, reason;
	char text[4096];	/* vatom_disasm() writes every operand value */
	uint8_t *mem;
	size_t size;

	(void)argc;
	(void)argv;
	if (tool_open_device(o, &dev))
		return 1;
	printf("== vatom demo ptx: PTX atom on %s ==\n", vatom_device_node(dev));

	memset(init, 0, sizeof(init));
	for (k = 0; k < NINSN; k++) {
		int sz = vatom_ptx_access_size(insns[k].a.type, insns[k].a.vec);

		if (sz < 0 || insns[k].a.addr + sz > MEMSZ) {
			fprintf(stderr, "demo ptx: bad instruction %u\n", k);
			ret = -1;
			goto out;
		}
		memcpy(init + insns[k].a.addr, insns[k].old.u64, sz);
	}

	ret = vatom_surface_create_buffer(dev, MEMSZ, 0, &buf);
	if (!ret)
		ret = vatom_surface_map(buf, (void **)&mem);
	if (!ret)
		ret = vatom_batch_create(dev, 0, &b);
	if (!ret)
		ret = vatom_batch_bind(b, SLOT, buf);
	if (ret) {
		fprintf(stderr, "demo ptx: setup failed: %s\n", strerror(-ret));
		goto out;
	}
	memcpy(mem, init, sizeof(init));
	printf("buffer of %d bytes bound at slot %d (T%d)\n", MEMSZ, SLOT, SLOT);

	for (k = 0; k < NINSN; k++) {
		struct vatom_ptx_atom a = insns[k].a;

		a.slot = SLOT;
		res[k] = vatom_prep_ptx_atom(b, &a);
		if (res[k] < 0) {
			fprintf(stderr, "demo ptx: prep %u: %s\n", k,
				strerror(-res[k]));
			ret = res[k];
			goto out;
		}
	}
	vatom_batch_stream(b, &size);
	printf("submitting %d packets: %zu stream bytes, %" PRIu64
	       " result bytes\n", vatom_batch_packets(b), size,
	       vatom_batch_results_size(b));

	ret = vatom_batch_submit(b);
	if (ret) {
		vatom_batch_error(b, &idx, &reason);
		fprintf(stderr, "demo ptx: submit failed: %s", strerror(-ret));
		if (reason)
			fprintf(stderr, " (packet %u: %s)", idx,
				vatom_strreason(reason));
		fprintf(stderr, "\n");
		goto out;
	}

	/* The model runs the batch: packets in order. */
	memcpy(model, init, sizeof(init));
	for (k = 0; k < NINSN; k++)
		model_run(&insns[k].a, model, want_ret[k]);

	for (k = 0; k < NINSN; k++) {
		const struct vatom_ptx_atom *a = &insns[k].a;
		int sz = vatom_ptx_access_size(a->type, a->vec);
		const void *pkt = vatom_batch_packet(b, res[k], &size);
		uint8_t got[16];
		bool bad;

		vatom_disasm(pkt, size, text, sizeof(text));
		printf("\n#%u %s\n", k, text);
		print_row("before", a, init + a->addr, init + a->addr, false);

		memset(got, 0, sizeof(got));
		bad = vatom_result_bytes(b, res[k], got, sizeof(got)) != sz ||
		      memcmp(got, want_ret[k], sz);
		print_row("d =", a, got, want_ret[k], bad);
		mismatches += bad;

		bad = memcmp(mem + a->addr, model + a->addr, sz);
		print_row("after", a, mem + a->addr, model + a->addr, bad);
		mismatches += bad;
		checked += 2;
	}

	printf("\nmemory  before                            after\n");
	for (i = 0; i < MEMSZ; i += 16) {
		bool bad = memcmp(mem + i, model + i, 16);
		unsigned int j;

		printf("  0x%02x  ", i);
		for (j = 0; j < 16; j++)
			printf("%02x", init[i + j]);
		printf("  ");
		for (j = 0; j < 16; j++)
			printf("%02x", mem[i + j]);
		printf("%s\n", bad ? "  MISMATCH" : "");
		mismatches += bad;
		checked++;
	}
	printf("\ndemo ptx: %s (%u values checked, %u mismatches)\n",
	       mismatches ? "FAILED" : "OK", checked, mismatches);
	ret = mismatches ? -1 : 0;
out:
	vatom_batch_destroy(b);
	vatom_surface_destroy(buf);
	vatom_device_close(dev);
	return ret ? 1 : 0;
}
