// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Host benchmark of the vatom execution engine.
 *
 * For each case, one command stream is built up front (N element operations)
 * and executed with vatom_stream_execute() on a host buffer; the same
 * operations, on the same addresses in the same order with the same
 * operands, are then done natively with compiler atomics (__atomic_*, or a
 * compare-exchange loop where x86 has no single instruction). Engine and
 * native runs alternate, R repetitions each, and the table gives the median
 * and min-max of element operations per second and the ratio of the medians.
 *
 * Before timing, each case runs once through both paths from the same
 * initial memory and the final memory and returned values are compared, so
 * a ratio is only printed for an engine that computed what the hardware
 * computed (the soft-float add included: single thread, same order, the
 * host FPU rounds to nearest even and does not flush subnormals, which is
 * PTX add.f32 on .shared).
 *
 * Usage: engine_bench [-n ops] [-r reps] [-o results.md] [-c substring]
 *	-c runs only the cases whose name contains the substring (profiling).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>

#include <xmmintrin.h>

#include "vatom_engine.h"
#include "tile_grid.h"
#include "vt_host.h"

#define SLOT		1		/* binding slot of the buffer */
#define BUF_BYTES	(64 * 1024)	/* surface: L2-resident, like the native loop */
#define LANES		16		/* vISA exec size 16 */
#define MAX_REPS	64
#define MXCSR_FTZ_DAZ	0x8040		/* flush-to-zero, denormals-are-zero */

/* Deterministic operands. */
static u64 rng_state = 0x9e3779b97f4a7c15ull;

static u64 rng(void)
{
	rng_state = vt_xorshift64(rng_state);
	return rng_state;
}

/* ---- the operations, as arrays the engine and native loops share ---- */

struct opdata {
	u32 n;		/* element operations */
	u32 w;		/* data width in bytes (2, 4 or 8) */
	u32 *offs;	/* byte offset of each operation */
	u8 *src0;	/* n elements of 4 (w <= 4) or 8 bytes */
	u8 *src1;
};

typedef void (*native_fn)(u8 *buf, const struct opdata *d, u8 *res);

struct bcase {
	const char *name;	/* engine form */
	const char *native;	/* what the native loop does */
	int family;		/* VATOM_FAMILY_VISA or _PTX */
	/* vISA */
	u8 op, type;
	/* PTX */
	u8 ptx_op, ptx_type, ptx_space;
	u8 vec;			/* PTX elements per packet (0: scalar) */
	/* NoC: Blackhole parallel add, 4 fp32 per packet (family _NOC) */
	bool ftz;		/* the engine flushes: native runs with FTZ|DAZ */
	u32 w;			/* bytes accessed per element */
	bool src1;
	bool is_float;
	bool rising;		/* operands rise: every op writes */
	native_fn native_fn;
	u32 res_stride;		/* bytes of result per element */
};

#define SEQ __ATOMIC_SEQ_CST

static inline u32 s0_32(const struct opdata *d, u32 i)
{
	return ((const u32 *)d->src0)[i];
}

static inline u32 s1_32(const struct opdata *d, u32 i)
{
	return ((const u32 *)d->src1)[i];
}

static void nat_add32(u8 *buf, const struct opdata *d, u8 *res)
{
	u32 *r = (u32 *)res;

	for (u32 i = 0; i < d->n; i++)
		r[i] = __atomic_fetch_add((u32 *)(buf + d->offs[i]),
					  s0_32(d, i), SEQ);
}

static void nat_xor32(u8 *buf, const struct opdata *d, u8 *res)
{
	u32 *r = (u32 *)res;

	for (u32 i = 0; i < d->n; i++)
		r[i] = __atomic_fetch_xor((u32 *)(buf + d->offs[i]),
					  s0_32(d, i), SEQ);
}

static void nat_imax32(u8 *buf, const struct opdata *d, u8 *res)
{
	u32 *r = (u32 *)res;

	for (u32 i = 0; i < d->n; i++) {
		s32 *p = (s32 *)(buf + d->offs[i]);
		s32 v = (s32)s0_32(d, i);
		s32 old = __atomic_load_n(p, __ATOMIC_RELAXED);

		while (old < v && !__atomic_compare_exchange_n(p, &old, v, false,
							       SEQ, SEQ))
			;
		r[i] = (u32)old;
	}
}

static void nat_cmpxchg32(u8 *buf, const struct opdata *d, u8 *res)
{
	u32 *r = (u32 *)res;

	for (u32 i = 0; i < d->n; i++) {
		/* vISA CMPXCHG: new = (old == src1) ? src0 : old */
		u32 old = s1_32(d, i);

		__atomic_compare_exchange_n((u32 *)(buf + d->offs[i]), &old,
					    s0_32(d, i), false, SEQ, SEQ);
		r[i] = old;
	}
}

static void nat_add64(u8 *buf, const struct opdata *d, u8 *res)
{
	u64 *r = (u64 *)res;
	const u64 *a = (const u64 *)d->src0;

	for (u32 i = 0; i < d->n; i++)
		r[i] = __atomic_fetch_add((u64 *)(buf + d->offs[i]), a[i], SEQ);
}

static void nat_add16(u8 *buf, const struct opdata *d, u8 *res)
{
	u32 *r = (u32 *)res;

	/* .16 results are unpacked: one dword per lane, low 16 bits */
	for (u32 i = 0; i < d->n; i++)
		r[i] = __atomic_fetch_add((u16 *)(buf + d->offs[i]),
					  (u16)s0_32(d, i), SEQ);
}

/* PTX: one 8-byte result region per packet. */
static void nat_ptx_add32(u8 *buf, const struct opdata *d, u8 *res)
{
	for (u32 i = 0; i < d->n; i++)
		*(u32 *)(res + 8 * (size_t)i) =
			__atomic_fetch_add((u32 *)(buf + d->offs[i]),
					   s0_32(d, i), SEQ);
}

static void nat_ptx_fadd32(u8 *buf, const struct opdata *d, u8 *res)
{
	for (u32 i = 0; i < d->n; i++) {
		u32 *p = (u32 *)(buf + d->offs[i]);
		u32 old = __atomic_load_n(p, __ATOMIC_RELAXED), nw;
		float f, b;

		memcpy(&b, &d->src0[4 * (size_t)i], 4);
		do {
			memcpy(&f, &old, 4);
			f += b;
			memcpy(&nw, &f, 4);
		} while (!__atomic_compare_exchange_n(p, &old, nw, false,
						      SEQ, SEQ));
		*(u32 *)(res + 8 * (size_t)i) = old;
	}
}

/* PTX vectors: 4 bytes of result per element, no padding. */
static void nat_ptx_fadd32_vec(u8 *buf, const struct opdata *d, u8 *res)
{
	for (u32 i = 0; i < d->n; i++) {
		u32 *p = (u32 *)(buf + d->offs[i]);
		u32 old = __atomic_load_n(p, __ATOMIC_RELAXED), nw;
		float f, b;

		memcpy(&b, &d->src0[4 * (size_t)i], 4);
		do {
			memcpy(&f, &old, 4);
			f += b;
			memcpy(&nw, &f, 4);
		} while (!__atomic_compare_exchange_n(p, &old, nw, false,
						      SEQ, SEQ));
		*(u32 *)(res + 4 * (size_t)i) = old;
	}
}

/* NoC posted parallel add: nothing is returned. */
static void nat_fadd32_noret(u8 *buf, const struct opdata *d, u8 *res)
{
	for (u32 i = 0; i < d->n; i++) {
		u32 *p = (u32 *)(buf + d->offs[i]);
		u32 old = __atomic_load_n(p, __ATOMIC_RELAXED), nw;
		float f, b;

		memcpy(&b, &d->src0[4 * (size_t)i], 4);
		do {
			memcpy(&f, &old, 4);
			f += b;
			memcpy(&nw, &f, 4);
		} while (!__atomic_compare_exchange_n(p, &old, nw, false,
						      SEQ, SEQ));
	}
}

static const struct bcase cases[] = {
	{ "vISA DWORD_ATOMIC.ADD UD (16)", "lock xadd (__atomic_fetch_add)",
	  VATOM_FAMILY_VISA, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_TYPE_UD,
	  .w = 4, .native_fn = nat_add32, .res_stride = 4 },
	{ "vISA DWORD_ATOMIC.XOR UD (16)", "lock cmpxchg loop (__atomic_fetch_xor)",
	  VATOM_FAMILY_VISA, DRM_VATOM_VISA_OP_XOR, DRM_VATOM_VISA_TYPE_UD,
	  .w = 4, .native_fn = nat_xor32, .res_stride = 4 },
	{ "vISA DWORD_ATOMIC.IMAX D (16)", "load + cmpxchg loop",
	  VATOM_FAMILY_VISA, DRM_VATOM_VISA_OP_IMAX, DRM_VATOM_VISA_TYPE_D,
	  .w = 4, .native_fn = nat_imax32, .res_stride = 4 },
	{ "vISA DWORD_ATOMIC.IMAX D, rising (16)", "load + cmpxchg loop",
	  VATOM_FAMILY_VISA, DRM_VATOM_VISA_OP_IMAX, DRM_VATOM_VISA_TYPE_D,
	  .w = 4, .rising = true, .native_fn = nat_imax32, .res_stride = 4 },
	{ "vISA DWORD_ATOMIC.CMPXCHG UD (16)", "lock cmpxchg",
	  VATOM_FAMILY_VISA, DRM_VATOM_VISA_OP_CMPXCHG, DRM_VATOM_VISA_TYPE_UD,
	  .w = 4, .src1 = true, .native_fn = nat_cmpxchg32, .res_stride = 4 },
	{ "vISA DWORD_ATOMIC.ADD UQ (16)", "lock xadd 64-bit",
	  VATOM_FAMILY_VISA, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_TYPE_UQ,
	  .w = 8, .native_fn = nat_add64, .res_stride = 8 },
	{ "vISA DWORD_ATOMIC.ADD.16 UD (16)", "lock xadd 16-bit",
	  VATOM_FAMILY_VISA, DRM_VATOM_VISA_OP_ADD | DRM_VATOM_VISA_OP_16,
	  DRM_VATOM_VISA_TYPE_UD, .w = 2, .native_fn = nat_add16,
	  .res_stride = 4 },
	{ "PTX atom.global.add.u32", "lock xadd",
	  VATOM_FAMILY_PTX, .ptx_op = DRM_VATOM_PTX_OP_ADD,
	  .ptx_type = DRM_VATOM_PTX_TYPE_U32,
	  .ptx_space = DRM_VATOM_PTX_SPACE_GLOBAL,
	  .w = 4, .native_fn = nat_ptx_add32, .res_stride = 8 },
	{ "PTX atom.shared.add.f32 (soft-float)", "float add + cmpxchg loop",
	  VATOM_FAMILY_PTX, .ptx_op = DRM_VATOM_PTX_OP_ADD,
	  .ptx_type = DRM_VATOM_PTX_TYPE_F32,
	  .ptx_space = DRM_VATOM_PTX_SPACE_SHARED_CTA,
	  .w = 4, .is_float = true, .native_fn = nat_ptx_fadd32,
	  .res_stride = 8 },
	{ "PTX atom.global.v4.f32.add (soft-float, ftz)",
	  "float add + cmpxchg loop per element, FTZ|DAZ",
	  VATOM_FAMILY_PTX, .ptx_op = DRM_VATOM_PTX_OP_ADD,
	  .ptx_type = DRM_VATOM_PTX_TYPE_F32,
	  .ptx_space = DRM_VATOM_PTX_SPACE_GLOBAL, .vec = 4, .ftz = true,
	  .w = 4, .is_float = true, .native_fn = nat_ptx_fadd32_vec,
	  .res_stride = 4 },
	{ "NoC Blackhole parallel add Fmt 0 (4 fp32, ftz)",
	  "float add + cmpxchg loop per element, FTZ|DAZ",
	  VATOM_FAMILY_NOC, .ftz = true, .w = 4, .is_float = true,
	  .native_fn = nat_fadd32_noret, .res_stride = 0 },
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define NCASES		ARRAY_SIZE(cases)

/* Operands: addresses walk the buffer word by word, as a kernel would. */
static void make_opdata(const struct bcase *c, u32 n, struct opdata *d)
{
	u32 ew = c->w == 8 ? 8 : 4;	/* operand element width */
	u32 words = BUF_BYTES / c->w;
	static const float fv[] = { 0.5f, 1.25f, -3.0f, 1e-3f, 7.75f,
				    -0.1f, 1024.0f, 3.0e-5f };

	d->n = n;
	d->w = c->w;
	d->offs = malloc(sizeof(u32) * (size_t)n);
	d->src0 = calloc(n, ew);
	d->src1 = calloc(n, ew);
	if (!d->offs || !d->src0 || !d->src1) {
		perror("malloc");
		exit(2);
	}
	for (u32 i = 0; i < n; i++) {
		u64 r = rng();

		d->offs[i] = (i % words) * c->w;
		if (c->is_float && c->family == VATOM_FAMILY_NOC && i % 4) {
			/* one D per packet, tiled onto its 4 fp32 lanes */
			memcpy(&d->src0[4 * (size_t)i],
			       &d->src0[4 * (size_t)(i - i % 4)], 4);
		} else if (c->is_float) {
			memcpy(&d->src0[4 * (size_t)i], &fv[r % 8], 4);
		} else if (c->rising) {
			/* above every earlier operand of the same word */
			((u32 *)d->src0)[i] = 4 + i;
		} else if (ew == 8) {
			((u64 *)d->src0)[i] = r >> 20;
			((u64 *)d->src1)[i] = r & 3;
		} else {
			/* CMPXCHG: compare with 0..3, so some succeed */
			((u32 *)d->src0)[i] = (u32)(r >> 20);
			((u32 *)d->src1)[i] = (u32)(r & 3);
		}
	}
}

static void init_buffer(const struct bcase *c, u8 *buf)
{
	u64 save = rng_state;

	rng_state = 0x1234567;
	if (c->is_float) {
		for (u32 i = 0; i < BUF_BYTES / 4; i++) {
			float f = (float)(i % 100) * 0.75f;

			memcpy(buf + 4 * i, &f, 4);
		}
	} else {
		for (u32 i = 0; i < BUF_BYTES / 8; i++) {
			u64 v = rng() & 0x0000000300000003ull;

			memcpy(buf + 8 * i, &v, 8);
		}
	}
	rng_state = save;
}

static void build_stream(const struct bcase *c, const struct opdata *d,
			 struct vt_sbuf *s)
{
	u32 ew = c->w == 8 ? 8 : 4;

	s->len = 0;
	if (c->family == VATOM_FAMILY_VISA) {
		size_t sz = sizeof(struct drm_vatom_visa) + vt_align8(4 * LANES) +
			    vt_align8((size_t)ew * LANES) * (c->src1 ? 2 : 1);

		for (u32 p = 0; p < d->n / LANES; p++) {
			struct drm_vatom_visa *v = vt_sb_put(s, sz);
			u8 *q = (u8 *)(v + 1);
			size_t first = (size_t)p * LANES;

			v->hdr.type = DRM_VATOM_PACKET_VISA;
			v->hdr.size = sz;
			v->opcode = DRM_VATOM_VISA_DWORD_ATOMIC;
			v->op = c->op;
			v->exec_size = DRM_VATOM_VISA_EXEC_16;	/* M1 */
			v->surface = SLOT;
			v->type = c->type;
			v->operands = DRM_VATOM_VISA_OPND_ADDR |
				      DRM_VATOM_VISA_OPND_SRC0 |
				      DRM_VATOM_VISA_OPND_DST;
			if (c->src1)
				v->operands |= DRM_VATOM_VISA_OPND_SRC1;
			v->emask = 0xffff;
			memcpy(q, &d->offs[first], 4 * LANES);
			q += vt_align8(4 * LANES);
			memcpy(q, d->src0 + first * ew, (size_t)ew * LANES);
			q += vt_align8((size_t)ew * LANES);
			if (c->src1)
				memcpy(q, d->src1 + first * ew,
				       (size_t)ew * LANES);
		}
	} else if (c->family == VATOM_FAMILY_PTX) {
		u32 per = c->vec ? c->vec : 1;

		for (u32 i = 0; i < d->n; i += per) {
			struct drm_vatom_ptx *x = vt_sb_put(s, sizeof(*x));

			x->hdr.type = DRM_VATOM_PACKET_PTX;
			x->hdr.size = sizeof(*x);
			x->op = c->ptx_op;
			x->type = c->ptx_type;
			x->vec = c->vec;
			x->space = c->ptx_space;
			x->slot = SLOT;
			x->addr = d->offs[i];
			/* elements follow each other in b as in memory */
			memcpy(x->b, &d->src0[4 * (size_t)i], 4 * per);
		}
	} else {
		/* posted unicast from tile (0, 0) to tile (1, 0) of a 2 x 1 grid */
		for (u32 i = 0; i < d->n; i += 4) {
			struct drm_vatom_noc *x = vt_sb_put(s, sizeof(*x));

			x->hdr.type = DRM_VATOM_PACKET_NOC;
			x->hdr.size = sizeof(*x);
			x->slot = SLOT;
			x->targ_addr_lo = d->offs[i];
			x->targ_addr_hi = 1;		/* x = 1, y = 0 */
			x->ctrl = DRM_VATOM_NOC_CTRL_REQ_ATOMIC;
			x->at_len_be = DRM_VATOM_NOC_AT_ACC <<
				       DRM_VATOM_NOC_AT_OPCODE_SHIFT |
				       DRM_VATOM_NOC_ACC_FP32;
			memcpy(&x->at_data, &d->src0[4 * (size_t)i], 4);
		}
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct summary {
	double med, min, max;
};

static struct summary summarize(const double *v, int n)
{
	double t[MAX_REPS];
	struct summary s;

	memcpy(t, v, sizeof(double) * n);
	qsort(t, n, sizeof(double), cmp_double);
	s.min = t[0];
	s.max = t[n - 1];
	s.med = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
	return s;
}

struct row {
	const struct bcase *c;
	bool ran;
	char why[160];
	struct summary eng, nat, ratio;	/* Mops/s, Mops/s, engine/native */
	double validate_ns;		/* validate time per element op */
	bool same;
};

/* A 2 x 1 Blackhole grid of Tensix tiles with BUF_BYTES of L1 each. */
static struct vatom_tile_grid grid;

static u8 *grid_surface(struct vatom_surface_view *view, u8 **l1)
{
	static const u8 types[2] = { DRM_VATOM_TILE_TENSIX,
				     DRM_VATOM_TILE_TENSIX };
	struct drm_vatom_tile_grid_desc gd = {
		.profile = DRM_VATOM_NOC_PROFILE_BLACKHOLE,
		.width = 2, .height = 1,
	};
	u8 *mem;

	gd.l1_size[DRM_VATOM_TILE_TENSIX] = BUF_BYTES;
	if (vatom_tile_grid_layout_init(&grid, &gd, types, 1 << 24)) {
		fprintf(stderr, "tile grid layout failed\n");
		exit(2);
	}
	mem = aligned_alloc(64, (grid.size + 63) & ~63ull);
	if (!mem) {
		perror("malloc");
		exit(2);
	}
	memset(mem, 0, grid.size);
	view->vaddr = mem;
	view->size = grid.size;
	view->kind = DRM_VATOM_SURFACE_TILE_GRID;
	view->grid = &grid;
	*l1 = mem + grid.l1_offset[vatom_tile_index(&grid, 1, 0)];
	return mem;
}

/* Element operations per statistics element (NoC: per recipient). */
static u32 per_stat(const struct bcase *c)
{
	return c->family == VATOM_FAMILY_NOC ? 4 : 1;
}

static void native_run(const struct bcase *c, u8 *buf,
		       const struct opdata *d, u8 *res)
{
	unsigned int csr = _mm_getcsr();

	if (c->ftz)
		_mm_setcsr(csr | MXCSR_FTZ_DAZ);
	c->native_fn(buf, d, res);
	if (c->ftz)
		_mm_setcsr(csr);
}

static void run_case(const struct bcase *c, u32 n, int reps, struct row *row)
{
	struct vatom_surface_view view = { .kind = DRM_VATOM_SURFACE_BUFFER,
					   .size = BUF_BYTES };
	struct vatom_bindings b = { { NULL } };
	struct vatom_stream_error err = { 0, 0 };
	struct vatom_stats st;
	struct opdata d;
	struct vt_sbuf s = { NULL, 0, 0 };
	u8 *init, *surf, *bufe, *bufn, *rese, *resn;
	double te[MAX_REPS], tn[MAX_REPS], tr[MAX_REPS], t0;
	u64 need = 0, want;
	int ret;

	memset(row, 0, sizeof(*row));
	row->c = c;
	make_opdata(c, n, &d);
	build_stream(c, &d, &s);

	init = aligned_alloc(64, BUF_BYTES);
	bufn = aligned_alloc(64, BUF_BYTES);
	/* The engine's data: the buffer surface, or the target tile's L1. */
	if (c->family == VATOM_FAMILY_NOC) {
		surf = grid_surface(&view, &bufe);
	} else {
		surf = aligned_alloc(64, BUF_BYTES);
		bufe = surf;
		view.vaddr = bufe;
	}
	want = (u64)n * c->res_stride;
	rese = calloc(1, want + 8);
	resn = calloc(1, want + 8);
	if (!init || !surf || !bufn || !rese || !resn) {
		perror("malloc");
		exit(2);
	}
	init_buffer(c, init);
	b.slot[SLOT] = &view;

	t0 = vt_now_s();
	ret = vatom_stream_validate(s.p, s.len, &b, &need, &err);
	row->validate_ns = (vt_now_s() - t0) * 1e9 / n;
	if (ret) {
		snprintf(row->why, sizeof(row->why),
			 "not run: validate returned %d (packet %u, reason %u)",
			 ret, err.index, err.reason);
		goto out;
	}
	if (need != want) {
		snprintf(row->why, sizeof(row->why),
			 "not run: results_needed %llu, expected %llu",
			 (unsigned long long)need, (unsigned long long)want);
		goto out;
	}

	/* Correctness first: same start, same final memory and results. */
	memcpy(bufe, init, BUF_BYTES);
	memcpy(bufn, init, BUF_BYTES);
	memset(&st, 0, sizeof(st));
	vatom_stream_execute(s.p, s.len, &b, rese, &st);
	native_run(c, bufn, &d, resn);
	row->same = !memcmp(bufe, bufn, BUF_BYTES);
	for (u64 i = 0; row->same && c->res_stride && i < n; i++)
		row->same = !memcmp(rese + i * c->res_stride,
				    resn + i * c->res_stride,
				    c->w == 2 ? 2 : c->w);
	if (!row->same) {
		snprintf(row->why, sizeof(row->why),
			 "engine and native results differ");
	} else if (st.elements[c->family] * per_stat(c) != n) {
		snprintf(row->why, sizeof(row->why),
			 "stats count %llu element ops, expected %u",
			 (unsigned long long)st.elements[c->family] *
			 per_stat(c), n);
		row->same = false;
	}

	/* Alternate engine and native runs so drift hits both alike. */
	for (int r = 0; r < reps; r++) {
		memcpy(bufe, init, BUF_BYTES);
		memset(&st, 0, sizeof(st));
		t0 = vt_now_s();
		vatom_stream_execute(s.p, s.len, &b, rese, &st);
		te[r] = n / (vt_now_s() - t0) / 1e6;

		memcpy(bufn, init, BUF_BYTES);
		t0 = vt_now_s();
		native_run(c, bufn, &d, resn);
		tn[r] = n / (vt_now_s() - t0) / 1e6;
		tr[r] = te[r] / tn[r];
	}
	row->eng = summarize(te, reps);
	row->nat = summarize(tn, reps);
	row->ratio = summarize(tr, reps);
	row->ran = true;
out:
	free(s.p);
	free(d.offs);
	free(d.src0);
	free(d.src1);
	free(init);
	free(surf);
	free(bufn);
	free(rese);
	free(resn);
}

/* The ratio each case should reach (the project's targets). */
static double target(const struct bcase *c)
{
	return c->is_float ? 0.5 : 0.8;
}

static void cpu_model(char *out, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];

	snprintf(out, len, "unknown CPU");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *c = strchr(line, ':');

		if (!strncmp(line, "model name", 10) && c) {
			snprintf(out, len, "%s", c + 2);
			out[strcspn(out, "\n")] = 0;
			break;
		}
	}
	fclose(f);
}

static void usage(void)
{
	fprintf(stderr, "usage: engine_bench [-n ops] [-r reps] [-o file.md] "
		"[-c case]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	u32 n = 1u << 22;
	int reps = 9, opt;
	const char *md = NULL, *only = NULL;
	struct row rows[NCASES];
	char cpu[160], when[64];
	struct utsname u;
	time_t t = time(NULL);
	FILE *f;
	int bad = 0;

	while ((opt = getopt(argc, argv, "n:r:o:c:")) != -1) {
		switch (opt) {
		case 'n':
			n = strtoul(optarg, NULL, 0);
			break;
		case 'r':
			reps = atoi(optarg);
			break;
		case 'o':
			md = optarg;
			break;
		case 'c':
			only = optarg;
			break;
		default:
			usage();
		}
	}
	n = n / LANES * LANES;
	if (n == 0 || reps < 1 || reps > MAX_REPS)
		usage();

	cpu_model(cpu, sizeof(cpu));
	uname(&u);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", gmtime(&t));
	printf("vatom engine benchmark: %u element ops per run (PTX: %u), "
	       "%d reps, median (min-max), Mops/s\n", n, n / 4, reps);
	printf("%s, %ld online CPUs, %s %s\n\n", cpu,
	       sysconf(_SC_NPROCESSORS_ONLN), u.sysname, u.release);
	printf("%-38s %-24s %-24s %-6s %-18s %-7s %s\n", "engine form",
	       "engine Mops/s", "native Mops/s", "ratio", "paired ratios",
	       "target", "validate ns/op");

	for (size_t i = 0; i < NCASES; i++) {
		struct row *r = &rows[i];
		char e[40], nv[40], ra[40];
		double ratio;

		if (only && !strstr(cases[i].name, only)) {
			memset(r, 0, sizeof(*r));
			snprintf(r->why, sizeof(r->why), "not run (-c)");
			continue;
		}
		/* A scalar PTX packet is 72 bytes per op: a quarter as many. */
		run_case(&cases[i], cases[i].family == VATOM_FAMILY_PTX &&
			 !cases[i].vec ? n / 4 / LANES * LANES : n, reps, r);
		if (!r->ran) {
			printf("%-38s %s\n", cases[i].name, r->why);
			bad = 1;
			continue;
		}
		snprintf(e, sizeof(e), "%.1f (%.1f-%.1f)", r->eng.med,
			 r->eng.min, r->eng.max);
		snprintf(nv, sizeof(nv), "%.1f (%.1f-%.1f)", r->nat.med,
			 r->nat.min, r->nat.max);
		snprintf(ra, sizeof(ra), "%.2f (%.2f-%.2f)", r->ratio.med,
			 r->ratio.min, r->ratio.max);
		ratio = r->eng.med / r->nat.med;
		printf("%-38s %-24s %-24s %-6.2f %-18s %-7s %.1f%s\n",
		       cases[i].name, e, nv, ratio, ra,
		       ratio >= target(&cases[i]) ? "met" : "MISSED",
		       r->validate_ns, r->same ? "" : "  RESULTS DIFFER");
		if (!r->same) {
			printf("    %s\n", r->why);
			bad = 1;
		}
		fflush(stdout);
	}

	printf("\nratio = median engine ops/s / median native ops/s; paired "
	       "ratios = median (min-max) of the ratio of each engine run to "
	       "the native run right after it.\n"
	       "Targets: integer ops >= 0.80, soft-float f32 add >= 0.50.\n");

	if (!md)
		return bad;
	f = fopen(md, "w");
	if (!f) {
		perror(md);
		return 2;
	}
	fprintf(f, "# vatom engine: host benchmark results\n\n"
		"Generated by `make -C bench run` (bench/engine_bench.c) on %s.\n\n"
		"- CPU: %s, %ld online CPUs (shared machine: expect noise)\n"
		"- Kernel: %s %s; build: gcc -O2, no -march\n"
		"- %u element operations per run (PTX: %u, one 72-byte packet "
		"each), %d repetitions, engine and "
		"native runs alternating; median (min-max)\n"
		"- ratio: median engine ops/s over median native ops/s; paired: "
		"median (min-max) of the per-repetition ratios (each engine run "
		"over the native run right after it)\n"
		"- Before timing, engine and native runs from the same memory "
		"are compared: final memory and returned values identical\n\n",
		when, cpu, sysconf(_SC_NPROCESSORS_ONLN), u.sysname, u.release,
		n, n / 4, reps);
	fprintf(f, "| engine form | native equivalent | engine Mops/s | "
		"native Mops/s | ratio | paired | target | validate ns/op | "
		"identical |\n|---|---|---|---|---|---|---|---|---|\n");
	for (size_t i = 0; i < NCASES; i++) {
		struct row *r = &rows[i];

		if (!r->ran) {
			fprintf(f, "| %s | %s | %s | | | | | | |\n", cases[i].name,
				cases[i].native, r->why);
			continue;
		}
		fprintf(f, "| %s | %s | %.1f (%.1f-%.1f) | %.1f (%.1f-%.1f) | "
			"**%.2f** | %.2f (%.2f-%.2f) | %.2f %s | %.1f | %s |\n",
			cases[i].name, cases[i].native, r->eng.med, r->eng.min,
			r->eng.max, r->nat.med, r->nat.min, r->nat.max,
			r->eng.med / r->nat.med, r->ratio.med, r->ratio.min,
			r->ratio.max, target(&cases[i]),
			r->eng.med / r->nat.med >= target(&cases[i]) ?
			"met" : "**missed**",
			r->validate_ns, r->same ? "yes" : "NO");
	}
	fprintf(f, "\nTargets: integer ops >= 0.80x native, soft-float f32 add "
		">= 0.50x native.\n");
	fclose(f);
	printf("wrote %s\n", md);
	return bad;
}
