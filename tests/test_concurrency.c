// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Atomicity of the engine under concurrency: 8 threads execute command
 * streams through vatom_stream_execute() that all hammer the same few words
 * of one surface, with every integer operation of every family (vISA
 * DWORD_ATOMIC 32-bit, .16 and 64-bit; PTX atom; NoC increment, CAS, swap
 * and Zaamo), the PTX f32/f64 adds, and a CPU thread doing __atomic_*
 * beside the engine.
 *
 * What is checked, all from values the test computes itself:
 *
 * - The history check. Each element operation returns the old value (PREDEC
 *   the new one, from which the old follows). For a single memory word, a
 *   set of atomic read-modify-writes is linearizable only if the values it
 *   read and wrote chain up: the multiset {initial value} + {new value of
 *   every op} equals {old value of every op} + {final value}, where "new" is
 *   the operation applied to the returned old by the test's own model of the
 *   ISA text. A lost update (two ops reading the same old value) breaks the
 *   equality. A self-test below shows the check catching one.
 * - Exact final values: sums, counts, min/max computed by arithmetic over the
 *   operands the test generated (N threads x M ops of k and so on).
 * - Ownership: in the AND/OR/XOR tests each thread owns distinct bits of the
 *   shared words, so the old value of its own bits is known exactly at every
 *   step even though other threads modify the same words at the same time.
 * - CAS chains: threads increment a counter with compare-and-swap loops;
 *   every successful old value appears exactly once, they are exactly
 *   init .. final - 1, and the final value is init + the successes.
 * - XCHG/EXCH chains: every value written is read back exactly once (by a
 *   later exchange or as the final value).
 * - NoC: returned values come back through each op's own response word in
 *   the return tile's L1; the NIU counters equal the op counts (§5.3).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <string.h>

#include "vt_host.h"
#include "vt_test.h"
#include "vatom_engine.h"
#include "tile_grid.h"

#define NTHREADS	8
#define LANES		16
#define SLOT		3
#define SURF_BYTES	256
#define SEQ		__ATOMIC_SEQ_CST

/* Enough work per thread that threads overlap on a 2-core machine. */
#define VISA_PACKETS	512	/* x 16 lanes per thread */
#define PTX_PACKETS	4096
#define NOC_PACKETS	2048
#define CAS_SUCCESSES	1500	/* per thread, CAS increment chains */

#define NOC_L1		(64 * 1024)
#define NOC_TARG	0x100u	/* the 16-byte block hammered in tile (1, 1) */
#define NOC_RET_BASE	0x1000u	/* response words, per thread */

enum fam { F_VISA, F_PTX, F_NOC_BH, F_NOC_WH, F_CPU };

/* The operations, as the test models them (from the ISA texts). */
enum model {
	M_ADD, M_SUB, M_INC, M_DEC, M_PREDEC, M_AND, M_OR, M_XOR,
	M_UMIN, M_UMAX, M_SMIN, M_SMAX, M_XCHG, M_CAS, M_PINC, M_PDEC,
	M_FADD32, M_FADD64, M_NOC_INC,
};

static const char *const model_name[] = {
	"add", "sub", "inc", "dec", "predec", "and", "or", "xor", "min",
	"max", "imin", "imax", "xchg", "cas", "ptx-inc", "ptx-dec",
	"fadd32", "fadd64", "noc-inc",
};

struct u128 {
	u64 lo, hi;
};

/* ---- the model -------------------------------------------------------- */

static u64 wmask(u32 bits)
{
	return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

static s64 sext(u64 v, u32 bits)
{
	return bits >= 64 ? (s64)v : (s64)(v << (64 - bits)) >> (64 - bits);
}

/*
 * new = op(old, a, b), written from the ISA texts: vISA DWORD_ATOMIC_OP
 * table, PTX atom semantics (inc/dec with bound a), NoC §2.2 increment
 * (a = data, b = IntWidth), CAS as "old == b ? a : old" for all three.
 */
static struct u128 model(u32 m, u32 bits, struct u128 old, struct u128 a,
			 struct u128 b)
{
	u64 mk = wmask(bits), o = old.lo & mk, x = a.lo & mk, r = o;
	struct u128 n = { 0, 0 };

	switch (m) {
	case M_ADD:
		r = o + x;
		break;
	case M_SUB:
		r = o - x;
		break;
	case M_INC:
		r = o + 1;
		break;
	case M_DEC:
	case M_PREDEC:
		r = o - 1;
		break;
	case M_AND:
		r = o & x;
		break;
	case M_OR:
		r = o | x;
		break;
	case M_XOR:
		r = o ^ x;
		break;
	case M_UMIN:
		r = o < x ? o : x;
		break;
	case M_UMAX:
		r = o > x ? o : x;
		break;
	case M_SMIN:
		r = sext(o, bits) < sext(x, bits) ? o : x;
		break;
	case M_SMAX:
		r = sext(o, bits) > sext(x, bits) ? o : x;
		break;
	case M_XCHG:
		return a;
	case M_CAS:
		if (bits == 128)
			return (old.lo == b.lo && old.hi == b.hi) ? a : old;
		r = o == (b.lo & mk) ? x : o;
		break;
	case M_PINC:
		r = o >= x ? 0 : o + 1;
		break;
	case M_PDEC:
		r = (o == 0 || o > x) ? x : o - 1;
		break;
	case M_FADD32:
		r = vt_f32_bits(vt_bits_f32((u32)o) + vt_bits_f32((u32)x));
		break;
	case M_FADD64:
		r = vt_f64_bits(vt_bits_f64(o) + vt_bits_f64(x));
		break;
	case M_NOC_INC: {
		u32 im = (2u << (u32)b.lo) - 1u, ov = (u32)o;

		r = ((ov + (u32)x) & im) | (ov & ~im);
		break;
	}
	}
	n.lo = r & mk;
	return n;
}

/* Can the final value be folded from the operands in any order? */
static bool model_commutes(u32 m)
{
	return m != M_XCHG && m != M_CAS;
}

/* ---- the history check ------------------------------------------------ */

struct pair {
	struct u128 old, nw;
};

static int cmp128(const void *pa, const void *pb)
{
	const struct u128 *a = pa, *b = pb;

	if (a->hi != b->hi)
		return a->hi < b->hi ? -1 : 1;
	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return 0;
}

/*
 * {init} + {new_i} == {old_i} + {final} as multisets. Returns the number of
 * positions at which the sorted multisets differ (0 = consistent).
 */
static size_t chain_mismatch(struct u128 init, struct u128 fin,
			     const struct pair *p, size_t n)
{
	struct u128 *l = malloc((n + 1) * sizeof(*l));
	struct u128 *r = malloc((n + 1) * sizeof(*r));
	size_t bad = 0;

	if (!l || !r)
		abort();
	l[0] = init;
	r[0] = fin;
	for (size_t i = 0; i < n; i++) {
		l[i + 1] = p[i].nw;
		r[i + 1] = p[i].old;
	}
	qsort(l, n + 1, sizeof(*l), cmp128);
	qsort(r, n + 1, sizeof(*r), cmp128);
	for (size_t i = 0; i <= n; i++)
		bad += cmp128(&l[i], &r[i]) != 0;
	free(l);
	free(r);
	return bad;
}

/* ---- test cases ------------------------------------------------------- */

/**
 * struct tcase - one hammer test
 * @name: TAP name
 * @fam: enum fam
 * @m: enum model (for owner tests, the op of even packets)
 * @m2: owner tests: the op of odd packets
 * @bits: word width: 16, 32, 64, 128
 * @ptype: PTX type
 * @space: PTX space
 * @owner: AND/OR/XOR ownership pattern
 * @words: distinct words hammered
 * @init: initial value of each word (low 64 bits; the high half of a 128-bit
 *	word is ~init)
 * @param: PTX inc/dec bound, NoC IntWidth
 * @zaamo: NoC: use the Blackhole Zaamo form (else increment/CAS/swap)
 */
struct tcase {
	const char *name;
	u8 fam;
	u8 m, m2;
	u8 bits;
	u8 ptype, space;
	bool owner;
	u8 words;
	u64 init;
	u64 param;
	bool zaamo;
};

/* One element operation as submitted. */
struct rec {
	u8 m;
	u8 word;
	struct u128 a, b;
	u64 res_off;	/* in the job's results, or in the surface (NoC) */
};

struct job {
	const struct tcase *c;
	int t;
	struct vt_sbuf s;
	struct rec *r;
	size_t nr, cap;
	u64 rn;		/* result bytes of the stream */
	u8 *res;
	struct vatom_stats st;
	u32 ntile;	/* NoC: the initiator tile */
	/* stream and result offsets where each chunk starts */
	u32 *chunk_so;
	u64 *chunk_ro;
	u32 nchunks;
	/* CAS chains */
	u64 successes;
	u64 foreign;	/* ops that saw another thread's write first */
	struct u128 *succ;
	size_t nsucc;
};

struct env {
	u8 *surf;			/* SURF_BYTES, or the tile grid */
	u64 surf_size;
	struct vatom_surface_view view;
	struct vatom_bindings b;
	struct vatom_tile_grid *grid;
};

static struct rec *job_rec(struct job *j)
{
	if (j->nr == j->cap) {
		j->cap = j->cap ? 2 * j->cap : 1024;
		j->r = realloc(j->r, j->cap * sizeof(*j->r));
		if (!j->r)
			abort();
	}
	memset(&j->r[j->nr], 0, sizeof(j->r[0]));
	return &j->r[j->nr++];
}

/* An empty job of thread @t of case @c. */
static void job_init(struct job *j, const struct tcase *c, int t)
{
	memset(j, 0, sizeof(*j));
	j->c = c;
	j->t = t;
}

static u32 word_bytes(const struct tcase *c)
{
	return c->bits / 8;
}

/* Byte offset of word @w in the buffer surface. */
static u32 word_off(const struct tcase *c, u32 w)
{
	return w * word_bytes(c);
}

/* ---- packet emitters -------------------------------------------------- */

static u8 visa_op(u32 m)
{
	switch (m) {
	case M_ADD:
		return DRM_VATOM_VISA_OP_ADD;
	case M_SUB:
		return DRM_VATOM_VISA_OP_SUB;
	case M_INC:
		return DRM_VATOM_VISA_OP_INC;
	case M_DEC:
		return DRM_VATOM_VISA_OP_DEC;
	case M_PREDEC:
		return DRM_VATOM_VISA_OP_PREDEC;
	case M_AND:
		return DRM_VATOM_VISA_OP_AND;
	case M_OR:
		return DRM_VATOM_VISA_OP_OR;
	case M_XOR:
		return DRM_VATOM_VISA_OP_XOR;
	case M_UMIN:
		return DRM_VATOM_VISA_OP_MIN;
	case M_UMAX:
		return DRM_VATOM_VISA_OP_MAX;
	case M_SMIN:
		return DRM_VATOM_VISA_OP_IMIN;
	case M_SMAX:
		return DRM_VATOM_VISA_OP_IMAX;
	case M_XCHG:
		return DRM_VATOM_VISA_OP_XCHG;
	default:
		return DRM_VATOM_VISA_OP_CMPXCHG;
	}
}

/*
 * A DWORD_ATOMIC of LANES lanes (exec size 16, M1, all enabled) from the
 * LANES records just added to @j, with Dst.
 */
static void emit_visa(struct job *j, const struct tcase *c, struct rec *lane)
{
	u32 m = lane[0].m;
	bool sgn = m == M_SMIN || m == M_SMAX || m == M_PREDEC;
	bool is64 = c->bits == 64;
	bool s0 = m != M_INC && m != M_DEC && m != M_PREDEC;
	bool s1 = m == M_CAS;
	u32 ew = is64 ? 8 : 4;
	size_t arr = vt_align8((size_t)ew * LANES);
	size_t sz = sizeof(struct drm_vatom_visa) + vt_align8(4 * LANES) +
		    (s0 ? arr : 0) + (s1 ? arr : 0);
	struct drm_vatom_visa *v = vt_sb_put(&j->s, sz);
	u32 *offs = (u32 *)(v + 1);
	u8 *src0 = (u8 *)offs + vt_align8(4 * LANES);
	u8 *src1 = src0 + (s0 ? arr : 0);

	v->hdr.type = DRM_VATOM_PACKET_VISA;
	v->hdr.size = sz;
	v->opcode = DRM_VATOM_VISA_DWORD_ATOMIC;
	v->op = visa_op(m) | (c->bits == 16 ? DRM_VATOM_VISA_OP_16 : 0);
	v->exec_size = DRM_VATOM_VISA_EXEC_16;
	v->surface = SLOT;
	v->type = is64 ? (sgn ? DRM_VATOM_VISA_TYPE_Q : DRM_VATOM_VISA_TYPE_UQ) :
			 (sgn ? DRM_VATOM_VISA_TYPE_D : DRM_VATOM_VISA_TYPE_UD);
	v->operands = DRM_VATOM_VISA_OPND_ADDR | DRM_VATOM_VISA_OPND_DST |
		      (s0 ? DRM_VATOM_VISA_OPND_SRC0 : 0) |
		      (s1 ? DRM_VATOM_VISA_OPND_SRC1 : 0);
	v->emask = 0xffff;
	for (u32 i = 0; i < LANES; i++) {
		offs[i] = word_off(c, lane[i].word);
		if (is64) {
			if (s0)
				((u64 *)src0)[i] = lane[i].a.lo;
			if (s1)
				((u64 *)src1)[i] = lane[i].b.lo;
		} else {
			if (s0)
				((u32 *)src0)[i] = (u32)lane[i].a.lo;
			if (s1)
				((u32 *)src1)[i] = (u32)lane[i].b.lo;
		}
		lane[i].res_off = j->rn + (u64)i * ew;
	}
	j->rn += arr;
}

static u8 ptx_op(u32 m)
{
	switch (m) {
	case M_ADD:
	case M_FADD32:
	case M_FADD64:
		return DRM_VATOM_PTX_OP_ADD;
	case M_PINC:
		return DRM_VATOM_PTX_OP_INC;
	case M_PDEC:
		return DRM_VATOM_PTX_OP_DEC;
	case M_AND:
		return DRM_VATOM_PTX_OP_AND;
	case M_OR:
		return DRM_VATOM_PTX_OP_OR;
	case M_XOR:
		return DRM_VATOM_PTX_OP_XOR;
	case M_UMIN:
	case M_SMIN:
		return DRM_VATOM_PTX_OP_MIN;
	case M_UMAX:
	case M_SMAX:
		return DRM_VATOM_PTX_OP_MAX;
	case M_XCHG:
		return DRM_VATOM_PTX_OP_EXCH;
	default: return DRM_VATOM_PTX_OP_CAS;
	}
}

static void emit_ptx(struct job *j, const struct tcase *c, struct rec *r)
{
	struct drm_vatom_ptx *x = vt_sb_put(&j->s, sizeof(*x));

	x->hdr.type = DRM_VATOM_PACKET_PTX;
	x->hdr.size = sizeof(*x);
	x->op = ptx_op(r->m);
	x->type = c->ptype;
	x->space = c->space;
	x->slot = SLOT;
	x->addr = word_off(c, r->word);
	if (r->m == M_CAS) {	/* cas(r, s, t) = r == s ? t : r */
		x->b[0] = r->b.lo;
		x->b[1] = c->bits == 128 ? r->b.hi : 0;
		x->c[0] = r->a.lo;
		x->c[1] = c->bits == 128 ? r->a.hi : 0;
	} else {
		x->b[0] = r->a.lo;
		x->b[1] = c->bits == 128 ? r->a.hi : 0;
	}
	r->res_off = j->rn;
	j->rn += vt_align8(word_bytes(c));
}

/* Tile grid of the NoC tests: 2 x 2 Tensix tiles with NOC_L1 bytes each. */
static u32 tile_x(u32 t)
{
	return t % 2;
}

static u32 tile_y(u32 t)
{
	return (t / 2) % 2;
}

/* Zaamo Op of each model (§2.6). */
static const u8 zaamo_op[] = {
	[M_ADD] = DRM_VATOM_NOC_ZAAMO_ADD,
	[M_XOR] = DRM_VATOM_NOC_ZAAMO_XOR,
	[M_OR] = DRM_VATOM_NOC_ZAAMO_OR,
	[M_AND] = DRM_VATOM_NOC_ZAAMO_AND,
	[M_SMIN] = DRM_VATOM_NOC_ZAAMO_MIN,
	[M_SMAX] = DRM_VATOM_NOC_ZAAMO_MAX,
	[M_UMIN] = DRM_VATOM_NOC_ZAAMO_MINU,
	[M_UMAX] = DRM_VATOM_NOC_ZAAMO_MAXU,
};

static u32 noc_at(const struct tcase *c, const struct rec *r)
{
	u32 ofs = r->word;	/* Ofs = the word TARG_ADDR_LO points at */
	u32 zop;

	if (c->zaamo && r->m != M_XCHG) {
		zop = zaamo_op[r->m];
		return DRM_VATOM_NOC_AT_RISCV << DRM_VATOM_NOC_AT_OPCODE_SHIFT |
		       DRM_VATOM_NOC_AT_ZAAMO |
		       zop << DRM_VATOM_NOC_AT_ZAAMO_OP_SHIFT | ofs;
	}
	switch (r->m) {
	case M_ADD:	/* full 32-bit increment */
		return DRM_VATOM_NOC_AT_INCR << DRM_VATOM_NOC_AT_OPCODE_SHIFT |
		       31u << DRM_VATOM_NOC_AT_INT_WIDTH_SHIFT | ofs;
	case M_NOC_INC:
		return DRM_VATOM_NOC_AT_INCR << DRM_VATOM_NOC_AT_OPCODE_SHIFT |
		       (u32)r->b.lo << DRM_VATOM_NOC_AT_INT_WIDTH_SHIFT | ofs;
	case M_CAS:
		return DRM_VATOM_NOC_AT_CAS << DRM_VATOM_NOC_AT_OPCODE_SHIFT |
		       (u32)r->b.lo << DRM_VATOM_NOC_AT_CAS_CMP_SHIFT |
		       (u32)r->a.lo << DRM_VATOM_NOC_AT_CAS_SET_SHIFT | ofs;
	default:	/* M_XCHG: swap, index variant 6 (7 on odd words) */
		if (r->word & 1)
			return DRM_VATOM_NOC_AT_SWAP_IDX7 <<
				DRM_VATOM_NOC_AT_OPCODE_SHIFT |
			       ofs << DRM_VATOM_NOC_AT_OFS7_SHIFT;
		return DRM_VATOM_NOC_AT_SWAP_IDX6 << DRM_VATOM_NOC_AT_OPCODE_SHIFT |
		       DRM_VATOM_NOC_AT_SWAP6_ONE | ofs;
	}
}

static void emit_noc(struct job *j, const struct tcase *c,
		     const struct env *e, struct rec *r, u32 idx)
{
	struct drm_vatom_noc *p = vt_sb_put(&j->s, sizeof(*p));
	bool wh = c->fam == F_NOC_WH;
	u32 it = j->ntile, tt = 3;	/* target: tile (1, 1) */
	u32 ret = NOC_RET_BASE + (j->t / 4) * 0x4000 + 4 * idx;

	p->hdr.type = DRM_VATOM_PACKET_NOC;
	p->hdr.size = sizeof(*p);
	p->slot = SLOT;
	p->noc = 0;
	p->x = tile_x(it);
	p->y = tile_y(it);
	p->targ_addr_lo = NOC_TARG + 4 * r->word;
	p->ret_addr_lo = ret;
	if (wh) {
		p->targ_addr_mid = tile_x(tt) << DRM_VATOM_NOC_WH_MID_X_SHIFT |
				   tile_y(tt) << DRM_VATOM_NOC_WH_MID_Y_SHIFT;
		p->ret_addr_mid = tile_x(it) << DRM_VATOM_NOC_WH_MID_X_SHIFT |
				  tile_y(it) << DRM_VATOM_NOC_WH_MID_Y_SHIFT;
	} else {
		p->targ_addr_hi = tile_x(tt) << DRM_VATOM_NOC_BH_HI_X_SHIFT |
				  tile_y(tt) << DRM_VATOM_NOC_BH_HI_Y_SHIFT;
		p->ret_addr_hi = tile_x(it) << DRM_VATOM_NOC_BH_HI_X_SHIFT |
				 tile_y(it) << DRM_VATOM_NOC_BH_HI_Y_SHIFT;
	}
	p->packet_tag = (u32)(j->t % DRM_VATOM_NOC_TXN_IDS) <<
			DRM_VATOM_NOC_TAG_TXN_ID_SHIFT;
	p->ctrl = DRM_VATOM_NOC_CTRL_REQ_ATOMIC | DRM_VATOM_NOC_CTRL_RESP_MARKED;
	p->at_len_be = noc_at(c, r);
	p->at_data = (u32)r->a.lo;
	r->res_off = e->grid->l1_offset[it] + ret;
}

/*
 * Threads execute their streams in chunks of CHUNK packets with a yield in
 * between, so that on a machine with fewer cores than threads all eight
 * still interleave (a thread's whole stream would otherwise often finish
 * within one time slice).
 */
#define CHUNK	8

static void job_mark_chunk(struct job *j)
{
	j->chunk_so = realloc(j->chunk_so, (j->nchunks + 1) * sizeof(u32));
	j->chunk_ro = realloc(j->chunk_ro, (j->nchunks + 1) * sizeof(u64));
	if (!j->chunk_so || !j->chunk_ro)
		abort();
	j->chunk_so[j->nchunks] = j->s.len;
	j->chunk_ro[j->nchunks] = j->rn;
	j->nchunks++;
}

/*
 * The @n zeroed records of packet @p of @j, to fill and emit. A chunk is
 * CHUNK vISA packets (LANES records each) or 4 * CHUNK one-record packets.
 */
static struct rec *job_packet(struct job *j, u32 p, u32 n)
{
	size_t first = j->nr;

	if (p % (n == LANES ? CHUNK : 4 * CHUNK) == 0)
		job_mark_chunk(j);
	for (u32 i = 0; i < n; i++)
		job_rec(j);
	return &j->r[first];
}

/* ---- operand generation ----------------------------------------------- */

/* Owner tests: thread @t owns bits [t * k, t * k + k) of every word. */
static u32 owner_k(const struct tcase *c)
{
	return c->bits / NTHREADS;
}

/* Fill operands of element @e (in thread order) of thread @t. */
static void gen(const struct tcase *c, int t, u32 e, u32 pkt, u64 *rs,
		struct rec *r)
{
	u32 bits = c->bits;
	u64 mk = wmask(bits), top = 1ull << (bits < 64 ? bits - 1 : 63);
	u64 step = (u64)pkt * NTHREADS + t;	/* rises over time, per thread */
	u64 span = c->fam == F_VISA ? VISA_PACKETS : c->fam == F_PTX ?
		   PTX_PACKETS : NOC_PACKETS;
	u64 x = (*rs = vt_xorshift64(*rs));

	if (c->owner) {
		u32 k = owner_k(c), q = e % k;

		r->m = (pkt & 1) ? c->m2 : c->m;
		r->word = (e / k + t) % c->words;
		r->a.lo = 1ull << (t * k + q);
		if (r->m == M_AND)
			r->a.lo = ~r->a.lo & mk;
		return;
	}
	r->m = c->m;
	r->word = (e + t) % c->words;
	switch (c->m) {
	case M_ADD:
	case M_SUB:
		r->a.lo = (1 + x % 1000) & mk;
		if (c->ptype == DRM_VATOM_PTX_TYPE_S32 && (x & 0x10000))
			r->a.lo = (u32)-(s32)(1 + x % 1000);	/* negative s32 */
		break;
	case M_UMIN:	/* crosses the sign bit: unsigned != signed */
		r->a.lo = (top + span * 4 - step + x % 3) & mk;
		break;
	case M_UMAX:
		r->a.lo = (top - span * 4 + step - x % 3) & mk;
		break;
	case M_SMIN:	/* crosses zero */
		r->a.lo = ((u64)(s64)(span * 2) - step + x % 3) & mk;
		break;
	case M_SMAX:
		r->a.lo = ((u64)-(s64)(span * 2) + step - x % 3) & mk;
		break;
	case M_XCHG:
		r->a.lo = x & mk;
		r->a.hi = bits == 128 ? (*rs = vt_xorshift64(*rs)) : 0;
		if (c->fam == F_NOC_BH || c->fam == F_NOC_WH)
			r->a.lo &= 0xffffffffu;
		break;
	case M_CAS:	/* small domain: a mix of successes and failures */
		r->a.lo = x % 4;
		r->b.lo = (x >> 8) % 4;
		if (bits == 128) {
			r->a.hi = ~r->a.lo;
			r->b.hi = ~r->b.lo;
		}
		break;
	case M_PINC:
	case M_PDEC:
		r->a.lo = c->param;
		break;
	case M_FADD32:	/* multiples of 1/4: every partial sum is exact */
		r->a.lo = vt_f32_bits((float)(1 + x % 8) * 0.25f);
		break;
	case M_FADD64:
		r->a.lo = vt_f64_bits((double)(1 + x % 8) * 0.125);
		break;
	case M_NOC_INC:
		r->a.lo = 1 + x % 50;
		r->b.lo = c->param;
		break;
	default:	/* INC, DEC, PREDEC: no operand */
		break;
	}
}

static void build_job(struct job *j, const struct tcase *c, int t,
		      const struct env *e)
{
	u64 rs = 0x9e3779b97f4a7c15ull * (t + 1) + c->m;

	job_init(j, c, t);
	j->ntile = t % 4;
	if (c->fam == F_VISA) {
		for (u32 p = 0; p < VISA_PACKETS; p++) {
			struct rec *r = job_packet(j, p, LANES);

			for (u32 i = 0; i < LANES; i++)
				gen(c, t, p * LANES + i, p, &rs, &r[i]);
			emit_visa(j, c, r);
		}
	} else if (c->fam == F_PTX) {
		for (u32 p = 0; p < PTX_PACKETS; p++) {
			struct rec *r = job_packet(j, p, 1);

			gen(c, t, p, p, &rs, r);
			emit_ptx(j, c, r);
		}
	} else {
		for (u32 p = 0; p < NOC_PACKETS; p++) {
			struct rec *r = job_packet(j, p, 1);

			gen(c, t, p, p, &rs, r);
			emit_noc(j, c, e, r, p);
		}
	}
}

/* ---- running ---------------------------------------------------------- */

static pthread_barrier_t g_bar;
static int g_gate;
static const struct env *g_env;

/*
 * After the barrier, wait until every thread is running (yielding, so that
 * the others get a CPU), so that no thread finishes before the last starts.
 */
static void start_gate(int n)
{
	pthread_barrier_wait(&g_bar);
	__atomic_add_fetch(&g_gate, 1, SEQ);
	while (__atomic_load_n(&g_gate, SEQ) < n)
		sched_yield();
}

static void *thr_stream(void *arg)
{
	struct job *j = arg;

	start_gate(NTHREADS);
	if (!j->nchunks) {
		vatom_stream_execute(j->s.p, j->s.len, &g_env->b, j->res,
				     &j->st);
		return NULL;
	}
	for (u32 k = 0; k < j->nchunks; k++) {
		u32 end = k + 1 < j->nchunks ? j->chunk_so[k + 1] : j->s.len;

		vatom_stream_execute(j->s.p + j->chunk_so[k],
				     end - j->chunk_so[k], &g_env->b,
				     j->res + j->chunk_ro[k], &j->st);
		sched_yield();
	}
	return NULL;
}

/* Run @fn on the NTHREADS @jobs over @e, all let go at once (start_gate). */
static void run_jobs(void *(*fn)(void *), struct job *jobs,
		     const struct env *e)
{
	g_env = e;
	g_gate = 0;
	vt_run_threads(fn, jobs, sizeof(*jobs), NTHREADS, &g_bar);
}

static bool validate_job(struct job *j, const struct env *e)
{
	struct vatom_stream_error err;
	u64 need = ~0ull;
	int ret = vatom_stream_validate(j->s.p, j->s.len, &e->b, &need, &err);

	VT_EXPECT_EQ_MSG(ret, 0, "%s thread %d: packet %u reason %u",
			 j->c ? j->c->name : "job", j->t, err.index, err.reason);
	VT_EXPECT_EQ_MSG(need, j->rn, "%s: results_needed",
			 j->c ? j->c->name : "job");
	if (ret || need != j->rn)
		return false;
	j->res = malloc(j->rn ? j->rn : 1);
	if (!j->res)
		abort();
	memset(j->res, 0xa5, j->rn);
	return true;
}

static void free_job(struct job *j)
{
	free(j->s.p);
	free(j->r);
	free(j->res);
	free(j->succ);
	free(j->chunk_so);
	free(j->chunk_ro);
}

/* ---- environment ------------------------------------------------------ */

static void env_buffer(struct env *e)
{
	memset(e, 0, sizeof(*e));
	e->surf_size = SURF_BYTES;
	e->surf = aligned_alloc(64, SURF_BYTES);
	if (!e->surf)
		abort();
	memset(e->surf, 0, SURF_BYTES);
	e->view.vaddr = e->surf;
	e->view.size = SURF_BYTES;
	e->view.kind = DRM_VATOM_SURFACE_BUFFER;
	e->b.slot[SLOT] = &e->view;
}

static bool env_grid(struct env *e, u32 profile)
{
	struct drm_vatom_tile_grid_desc d = {
		.profile = profile, .width = 2, .height = 2,
		.l1_size = { [DRM_VATOM_TILE_TENSIX] = NOC_L1 },
	};
	u8 types[4] = { 0, 0, 0, 0 };	/* all Tensix */
	int ret;

	memset(e, 0, sizeof(*e));
	d.tile_types = (u64)(uintptr_t)types;
	e->grid = calloc(1, sizeof(*e->grid));
	if (!e->grid)
		abort();
	ret = vatom_tile_grid_layout_init(e->grid, &d, types, 1ull << 30);
	VT_EXPECT_EQ(ret, 0);
	if (ret)
		return false;
	e->surf_size = e->grid->size;
	e->surf = aligned_alloc(64, (e->surf_size + 63) & ~63ull);
	if (!e->surf)
		abort();
	memset(e->surf, 0, e->surf_size);
	e->view.vaddr = e->surf;
	e->view.size = e->surf_size;
	e->view.kind = DRM_VATOM_SURFACE_TILE_GRID;
	e->view.grid = e->grid;
	e->b.slot[SLOT] = &e->view;
	return true;
}

static void env_free(struct env *e)
{
	free(e->surf);
	free(e->grid);
}

/* Free the NTHREADS @jobs of a run and the environment they ran in. */
static void free_run(struct job *jobs, struct env *e)
{
	for (int t = 0; t < NTHREADS; t++)
		free_job(&jobs[t]);
	env_free(e);
}

/* Address of word @w of the case in the environment. */
static u8 *word_ptr(const struct tcase *c, const struct env *e, u32 w)
{
	if (c->fam == F_NOC_BH || c->fam == F_NOC_WH)
		return e->surf + e->grid->l1_offset[3] + NOC_TARG + 4 * w;
	return e->surf + word_off(c, w);
}

static struct u128 load_word(const struct tcase *c, const u8 *p)
{
	struct u128 v = { 0, 0 };

	memcpy(&v.lo, p, c->bits == 128 ? 8 : word_bytes(c));
	if (c->bits == 128)
		memcpy(&v.hi, p + 8, 8);
	return v;
}

static void store_word(const struct tcase *c, u8 *p, struct u128 v)
{
	memcpy(p, &v.lo, c->bits == 128 ? 8 : word_bytes(c));
	if (c->bits == 128)
		memcpy(p + 8, &v.hi, 8);
}

static struct u128 init_value(const struct tcase *c, u32 w)
{
	struct u128 v = { c->init & wmask(c->bits), 0 };

	if (c->bits == 128)
		v.hi = ~c->init;
	/* Owner tests: some bits of every owner start set. */
	if (c->owner)
		v.lo = (0x5a5a5a5a5a5a5a5aull >> w) & wmask(c->bits);
	return v;
}

/* Returned value of record @r (old value; PREDEC returns the new one). */
static struct u128 returned_old(const struct tcase *c, const struct job *j,
				const struct env *e, const struct rec *r)
{
	struct u128 v = { 0, 0 };
	const u8 *src = (c->fam == F_NOC_BH || c->fam == F_NOC_WH) ?
			e->surf + r->res_off : j->res + r->res_off;

	/* vISA .16 results are unpacked in a dword: use the low half. */
	memcpy(&v.lo, src, c->bits == 128 ? 8 : word_bytes(c));
	if (c->bits == 128)
		memcpy(&v.hi, src + 8, 8);
	if (r->m == M_PREDEC)
		v.lo = (v.lo + 1) & wmask(c->bits);
	return v;
}

static int g_overlapped, g_cases;

/*
 * Check every word of case @c after the threads ran: history chain, exact
 * final value, ownership. Returns false (with diagnostics) on a failure.
 */
static void check_case(const struct tcase *c, struct job *jobs, int n,
		       const struct env *e)
{
	u64 foreign = 0;

	for (u32 w = 0; w < c->words; w++) {
		struct u128 init = init_value(c, w), fin, fold = init;
		struct u128 fin_owner = init;
		struct pair *p;
		size_t np = 0, total = 0, bad;
		bool commutes = !c->owner;

		for (int t = 0; t < n; t++)
			total += jobs[t].nr;
		p = malloc((total + 1) * sizeof(*p));
		if (!p)
			abort();
		fin = load_word(c, word_ptr(c, e, w));

		for (int t = 0; t < n; t++) {
			struct job *j = &jobs[t];
			u64 kmask = 0, state = 0;
			struct u128 prev = { 0, 0 };
			bool have_prev = false;

			if (c->owner) {
				kmask = ((1ull << owner_k(c)) - 1) << (t * owner_k(c));
				state = init.lo & kmask;
			}
			for (size_t i = 0; i < j->nr; i++) {
				struct rec *r = &j->r[i];

				if (r->word != w)
					continue;
				p[np].old = returned_old(c, j, e, r);
				p[np].nw = model(r->m, c->bits, p[np].old,
						 r->a, r->b);
				/* Someone else wrote between two of our ops. */
				if (have_prev && cmp128(&prev, &p[np].old))
					foreign++;
				prev = p[np].nw;
				have_prev = true;
				if (c->owner) {
					/* Only this thread touches its bits. */
					VT_EXPECT_EQ_MSG(p[np].old.lo & kmask, state,
							 "%s word %u thread %d op %zu",
							 c->name, w, t, i);
					state = p[np].nw.lo & kmask;
				}
				if (!model_commutes(r->m))
					commutes = false;
				else
					fold = model(r->m, c->bits, fold, r->a,
						     r->b);
				np++;
			}
			if (c->owner)
				fin_owner.lo = (fin_owner.lo & ~kmask) | state;
		}
		bad = chain_mismatch(init, fin, p, np);
		VT_EXPECT_EQ_MSG(bad, 0, "%s word %u: %zu ops, history does not "
				 "chain (lost or invented updates)", c->name, w,
				 np);
		if (commutes) {
			VT_EXPECT_EQ_MSG(fin.lo, fold.lo,
					 "%s word %u final value vs the fold of "
					 "all %zu operands", c->name, w, np);
			VT_EXPECT_EQ(fin.hi, fold.hi);
		}
		if (c->owner)
			VT_EXPECT_EQ_MSG(fin.lo, fin_owner.lo,
					 "%s word %u final owned bits", c->name,
					 w);
		free(p);
	}
	g_cases++;
	g_overlapped += foreign > 0;

	/* Bytes next to the words are untouched (16-bit forms, buffer). */
	if (c->fam != F_NOC_BH && c->fam != F_NOC_WH) {
		for (u32 i = c->words * word_bytes(c); i < SURF_BYTES; i++)
			VT_EXPECT_EQ_MSG(e->surf[i], 0, "%s byte %u", c->name,
					 i);
	}
}

/* NIU counters after the NoC threads (§5.3, every request RESP_MARKED). */
static void check_noc_counters(const struct tcase *c, struct job *jobs, int n,
			       const struct env *e)
{
	u64 init_by_tile[4] = { 0 }, total = 0;
	u32 *tc;

	for (int t = 0; t < n; t++) {
		init_by_tile[jobs[t].ntile] += jobs[t].nr;
		total += jobs[t].nr;
	}
	for (u32 tile = 0; tile < 4; tile++) {
		u32 *ic = vatom_tile_counters(e->grid, e->surf, tile_x(tile),
					      tile_y(tile), 0);

		VT_EXPECT_EQ_MSG(ic[DRM_VATOM_NOC_MST_ATOMIC_RESP_RECEIVED],
				 (u32)init_by_tile[tile], "%s tile %u",
				 c->name, tile);
		VT_EXPECT_EQ_MSG(ic[DRM_VATOM_NOC_MST_CMD_ACCEPTED],
				 (u32)init_by_tile[tile], "%s tile %u",
				 c->name, tile);
		VT_EXPECT_EQ_MSG(ic[DRM_VATOM_NOC_MST_NONPOSTED_ATOMIC_SENT],
				 (u32)init_by_tile[tile], "%s tile %u",
				 c->name, tile);
		for (u32 id = 0; id < DRM_VATOM_NOC_TXN_IDS; id++)
			VT_EXPECT_EQ_MSG(ic[DRM_VATOM_NOC_MST_REQS_OUTSTANDING_ID(id)],
					 0, "%s tile %u id %u", c->name, tile,
					 id);
	}
	tc = vatom_tile_counters(e->grid, e->surf, 1, 1, 0);
	VT_EXPECT_EQ_MSG(tc[DRM_VATOM_NOC_SLV_REQ_ACCEPTED], (u32)total, "%s",
			 c->name);
	VT_EXPECT_EQ_MSG(tc[DRM_VATOM_NOC_SLV_NONPOSTED_ATOMIC_RECEIVED],
			 (u32)total, "%s", c->name);
	VT_EXPECT_EQ_MSG(tc[DRM_VATOM_NOC_SLV_ATOMIC_RESP_SENT], (u32)total,
			 "%s", c->name);
}

static const struct tcase *g_case;

static void run_case(void)
{
	const struct tcase *c = g_case;
	struct job jobs[NTHREADS];
	struct env e;
	bool ok = true, noc = c->fam == F_NOC_BH || c->fam == F_NOC_WH;

	if (noc) {
		if (!env_grid(&e, c->fam == F_NOC_WH ?
			      DRM_VATOM_NOC_PROFILE_WORMHOLE :
			      DRM_VATOM_NOC_PROFILE_BLACKHOLE))
			return;
	} else {
		env_buffer(&e);
	}
	for (u32 w = 0; w < c->words; w++)
		store_word(c, word_ptr(c, &e, w), init_value(c, w));
	for (int t = 0; t < NTHREADS; t++) {
		build_job(&jobs[t], c, t, &e);
		ok &= validate_job(&jobs[t], &e);
	}
	if (ok) {
		run_jobs(thr_stream, jobs, &e);
		check_case(c, jobs, NTHREADS, &e);
		if (noc)
			check_noc_counters(c, jobs, NTHREADS, &e);
	}
	free_run(jobs, &e);
}

#define V(nm, mm, b, w, i)	{ nm, F_VISA, mm, 0, b, .words = w, .init = i }
#define VO(nm, mm, m2_, b)	{ nm, F_VISA, mm, m2_, b, .owner = true, .words = 4 }
#define P(nm, mm, b, ty, w, i)	{ nm, F_PTX, mm, 0, b, ty, \
				  DRM_VATOM_PTX_SPACE_GLOBAL, .words = w, .init = i }
#define PO(nm, mm, m2_, b, ty)	{ nm, F_PTX, mm, m2_, b, ty, \
				  DRM_VATOM_PTX_SPACE_GLOBAL, .owner = true, .words = 4 }

static const struct tcase cases[] = {
	/* vISA DWORD_ATOMIC, 32-bit */
	V("visa add.ud", M_ADD, 32, 4, 0xfff00000),
	V("visa sub.ud", M_SUB, 32, 4, 0x00100000),
	V("visa inc.ud", M_INC, 32, 4, 0xfffff000),
	V("visa dec.ud", M_DEC, 32, 4, 0x1000),
	V("visa predec.d", M_PREDEC, 32, 4, 0x100),
	V("visa min.ud", M_UMIN, 32, 4, 0xffffffff),
	V("visa max.ud", M_UMAX, 32, 4, 0),
	V("visa imin.d", M_SMIN, 32, 4, 0x7fffffff),
	V("visa imax.d", M_SMAX, 32, 4, 0x80000000),
	V("visa xchg.ud", M_XCHG, 32, 4, 7),
	V("visa cmpxchg.ud", M_CAS, 32, 4, 0),
	VO("visa or+and.ud (owned bits)", M_OR, M_AND, 32),
	VO("visa xor.ud (owned bits)", M_XOR, M_XOR, 32),
	/* .16: four adjacent half-words, two per dword */
	V("visa add.16", M_ADD, 16, 4, 0xff00),
	V("visa sub.16", M_SUB, 16, 4, 0x0100),
	V("visa inc.16", M_INC, 16, 4, 0xf000),
	V("visa dec.16", M_DEC, 16, 4, 0x1000),
	V("visa predec.16", M_PREDEC, 16, 4, 0x100),
	V("visa min.16", M_UMIN, 16, 4, 0xffff),
	V("visa max.16", M_UMAX, 16, 4, 0),
	V("visa imin.16", M_SMIN, 16, 4, 0x7fff),
	V("visa imax.16", M_SMAX, 16, 4, 0x8000),
	V("visa xchg.16", M_XCHG, 16, 4, 7),
	V("visa cmpxchg.16", M_CAS, 16, 4, 0),
	VO("visa or+and.16 (owned bits)", M_OR, M_AND, 16),
	VO("visa xor.16 (owned bits)", M_XOR, M_XOR, 16),
	/* 64-bit (UQ/Q) */
	V("visa add.uq", M_ADD, 64, 4, 0xfffffffffff00000ull),
	V("visa sub.uq", M_SUB, 64, 4, 0x100000),
	V("visa inc.uq", M_INC, 64, 4, 0xfffffffffffff000ull),
	V("visa dec.uq", M_DEC, 64, 4, 0x100001000ull),
	V("visa predec.q", M_PREDEC, 64, 4, 0x100),
	V("visa min.uq", M_UMIN, 64, 4, ~0ull),
	V("visa max.uq", M_UMAX, 64, 4, 0),
	V("visa imin.q", M_SMIN, 64, 4, 0x7fffffffffffffffull),
	V("visa imax.q", M_SMAX, 64, 4, 0x8000000000000000ull),
	V("visa xchg.uq", M_XCHG, 64, 4, 7),
	V("visa cmpxchg.uq", M_CAS, 64, 4, 0),
	VO("visa or+and.uq (owned bits)", M_OR, M_AND, 64),
	VO("visa xor.uq (owned bits)", M_XOR, M_XOR, 64),
	/* PTX atom */
	P("ptx add.u32", M_ADD, 32, DRM_VATOM_PTX_TYPE_U32, 4, 0xffff0000),
	P("ptx add.s32", M_ADD, 32, DRM_VATOM_PTX_TYPE_S32, 4, 5),
	P("ptx add.u64", M_ADD, 64, DRM_VATOM_PTX_TYPE_U64, 4, ~0ull - 5000),
	{ "ptx inc.u32 (bound 999)", F_PTX, M_PINC, 0, 32, DRM_VATOM_PTX_TYPE_U32,
	  DRM_VATOM_PTX_SPACE_GLOBAL, .words = 4, .init = 0, .param = 999 },
	{ "ptx dec.u32 (bound 999)", F_PTX, M_PDEC, 0, 32, DRM_VATOM_PTX_TYPE_U32,
	  DRM_VATOM_PTX_SPACE_GLOBAL, .words = 4, .init = 0, .param = 999 },
	P("ptx min.u32", M_UMIN, 32, DRM_VATOM_PTX_TYPE_U32, 4, 0xffffffff),
	P("ptx max.u32", M_UMAX, 32, DRM_VATOM_PTX_TYPE_U32, 4, 0),
	P("ptx min.s32", M_SMIN, 32, DRM_VATOM_PTX_TYPE_S32, 4, 0x7fffffff),
	P("ptx max.s32", M_SMAX, 32, DRM_VATOM_PTX_TYPE_S32, 4, 0x80000000),
	P("ptx min.u64", M_UMIN, 64, DRM_VATOM_PTX_TYPE_U64, 4, ~0ull),
	P("ptx max.u64", M_UMAX, 64, DRM_VATOM_PTX_TYPE_U64, 4, 0),
	P("ptx min.s64", M_SMIN, 64, DRM_VATOM_PTX_TYPE_S64, 4,
	  0x7fffffffffffffffull),
	P("ptx max.s64", M_SMAX, 64, DRM_VATOM_PTX_TYPE_S64, 4,
	  0x8000000000000000ull),
	PO("ptx or+and.b32 (owned bits)", M_OR, M_AND, 32, DRM_VATOM_PTX_TYPE_B32),
	PO("ptx xor.b32 (owned bits)", M_XOR, M_XOR, 32, DRM_VATOM_PTX_TYPE_B32),
	PO("ptx or+and.b64 (owned bits)", M_OR, M_AND, 64, DRM_VATOM_PTX_TYPE_B64),
	PO("ptx xor.b64 (owned bits)", M_XOR, M_XOR, 64, DRM_VATOM_PTX_TYPE_B64),
	P("ptx cas.b16", M_CAS, 16, DRM_VATOM_PTX_TYPE_B16, 4, 0),
	P("ptx cas.b32", M_CAS, 32, DRM_VATOM_PTX_TYPE_B32, 4, 0),
	P("ptx cas.b64", M_CAS, 64, DRM_VATOM_PTX_TYPE_B64, 4, 0),
	P("ptx cas.b128", M_CAS, 128, DRM_VATOM_PTX_TYPE_B128, 2, 0),
	P("ptx exch.b32", M_XCHG, 32, DRM_VATOM_PTX_TYPE_B32, 4, 1),
	P("ptx exch.b64", M_XCHG, 64, DRM_VATOM_PTX_TYPE_B64, 4, 1),
	P("ptx exch.b128", M_XCHG, 128, DRM_VATOM_PTX_TYPE_B128, 2, 1),
	{ "ptx add.f32 .shared (no flush)", F_PTX, M_FADD32, 0, 32,
	  DRM_VATOM_PTX_TYPE_F32, DRM_VATOM_PTX_SPACE_SHARED_CTA, .words = 4,
	  .init = 0x3f800000 /* 1.0f */ },
	{ "ptx add.f64", F_PTX, M_FADD64, 0, 64, DRM_VATOM_PTX_TYPE_F64,
	  DRM_VATOM_PTX_SPACE_GLOBAL, .words = 4,
	  .init = 0xc000000000000000ull /* -2.0 */ },
	/* NoC, Blackhole and Wormhole profiles, responses to per-op words */
	{ "noc bh increment (IntWidth 31)", F_NOC_BH, M_ADD, 0, 32, .words = 4,
	  .init = 0xffff0000 },
	{ "noc wh increment (IntWidth 31)", F_NOC_WH, M_ADD, 0, 32, .words = 4,
	  .init = 0xffff0000 },
	{ "noc bh increment (IntWidth 7)", F_NOC_BH, M_NOC_INC, 0, 32,
	  .words = 4, .init = 0x12345600, .param = 7 },
	{ "noc wh cas (4-bit)", F_NOC_WH, M_CAS, 0, 32, .words = 4 },
	{ "noc bh swap index 6/7", F_NOC_BH, M_XCHG, 0, 32, .words = 4,
	  .init = 9 },
	{ "noc bh zaamo add", F_NOC_BH, M_ADD, 0, 32, .words = 4,
	  .init = 0xfff00000, .zaamo = true },
	{ "noc bh zaamo min (signed)", F_NOC_BH, M_SMIN, 0, 32, .words = 4,
	  .init = 0x7fffffff, .zaamo = true },
	{ "noc bh zaamo max (signed)", F_NOC_BH, M_SMAX, 0, 32, .words = 4,
	  .init = 0x80000000, .zaamo = true },
	{ "noc bh zaamo minu", F_NOC_BH, M_UMIN, 0, 32, .words = 4,
	  .init = 0xffffffff, .zaamo = true },
	{ "noc bh zaamo maxu", F_NOC_BH, M_UMAX, 0, 32, .words = 4,
	  .init = 0, .zaamo = true },
	{ "noc bh zaamo or+and (owned bits)", F_NOC_BH, M_OR, M_AND, 32,
	  .owner = true, .words = 4, .zaamo = true },
	{ "noc bh zaamo xor (owned bits)", F_NOC_BH, M_XOR, M_XOR, 32,
	  .owner = true, .words = 4, .zaamo = true },
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define NCASES		ARRAY_SIZE(cases)

/* ---- explicit totals -------------------------------------------------- */

/*
 * N threads x M packets x 16 lanes, every lane of thread t adding k = t + 1
 * to one of 4 words (lane i -> word i % 4): each word ends at
 * init + M * 4 * sum(t + 1) = init + M * 4 * 36.
 */
static void test_visa_add_totals(void)
{
	const struct tcase c = { "visa add totals", F_VISA, M_ADD, 0, 32,
				 .words = 4 };
	const u32 M = VISA_PACKETS;
	struct job jobs[NTHREADS];
	struct env e;
	bool ok = true;

	env_buffer(&e);
	for (int t = 0; t < NTHREADS; t++) {
		struct job *j = &jobs[t];

		job_init(j, &c, t);
		for (u32 p = 0; p < M; p++) {
			struct rec *r = job_packet(j, p, LANES);

			for (u32 i = 0; i < LANES; i++) {
				r[i].m = M_ADD;
				r[i].word = i % 4;
				r[i].a.lo = t + 1;
			}
			emit_visa(j, &c, r);
		}
		ok &= validate_job(j, &e);
	}
	if (ok) {
		run_jobs(thr_stream, jobs, &e);
		for (u32 w = 0; w < 4; w++)
			VT_EXPECT_EQ_MSG(((u32 *)e.surf)[w], M * 4 * 36,
					 "word %u", w);
		for (int t = 0; t < NTHREADS; t++)
			VT_EXPECT_EQ(jobs[t].st.elements[VATOM_FAMILY_VISA],
				     M * LANES);
		check_case(&c, jobs, NTHREADS, &e);
	}
	free_run(jobs, &e);
}

/*
 * PTX add.f32 on .shared (no flush) of 0.75 by N threads x M ops to one
 * word from 1.0: every partial sum is a multiple of 1/4 below 2^22, so all
 * are exact in f32 and the total is 1 + N * M * 0.75 in any order.
 */
static void test_ptx_fadd_totals(void)
{
	const struct tcase c = { "ptx add.f32 totals", F_PTX, M_FADD32, 0, 32,
				 DRM_VATOM_PTX_TYPE_F32,
				 DRM_VATOM_PTX_SPACE_SHARED_CTA, .words = 1,
				 .init = 0x3f800000 };
	const u32 M = PTX_PACKETS;
	struct job jobs[NTHREADS];
	struct env e;
	bool ok = true;
	float want = 1.0f + (float)(NTHREADS * M) * 0.75f;

	env_buffer(&e);
	store_word(&c, e.surf, init_value(&c, 0));
	for (int t = 0; t < NTHREADS; t++) {
		struct job *j = &jobs[t];

		job_init(j, &c, t);
		for (u32 p = 0; p < M; p++) {
			struct rec *r = job_packet(j, p, 1);

			r->m = M_FADD32;
			r->a.lo = vt_f32_bits(0.75f);
			emit_ptx(j, &c, r);
		}
		ok &= validate_job(j, &e);
	}
	if (ok) {
		run_jobs(thr_stream, jobs, &e);
		VT_EXPECT_EQ(((u32 *)e.surf)[0], vt_f32_bits(want));
		check_case(&c, jobs, NTHREADS, &e);
	}
	free_run(jobs, &e);
}

/* ---- CPU atomics beside the engine ------------------------------------ */

#define CPU_OPS	(VISA_PACKETS * LANES)

static void *thr_cpu(void *arg)
{
	struct job *j = arg;

	start_gate(NTHREADS);
	for (size_t i = 0; i < j->nr; i++) {
		struct rec *r = &j->r[i];
		u32 *p = (u32 *)(g_env->surf + 4 * r->word);

		((u32 *)j->res)[i] = __atomic_fetch_add(p, (u32)r->a.lo, SEQ);
		if (i % 64 == 0)
			sched_yield();	/* let engine threads interleave */
	}
	return NULL;
}

static void *thr_mixed(void *arg)
{
	struct job *j = arg;

	return j->t == NTHREADS - 1 ? thr_cpu(arg) : thr_stream(arg);
}

/*
 * Seven threads run vISA ADD through the engine while the eighth does
 * __atomic_fetch_add on the same words; both kinds of ops go into one
 * history per word.
 */
static void test_cpu_mixed(void)
{
	const struct tcase c = { "cpu + engine add", F_VISA, M_ADD, 0, 32,
				 .words = 4, .init = 0x80000000 };
	struct job jobs[NTHREADS];
	struct env e;
	bool ok = true;
	u64 sum[4] = { 0 };

	env_buffer(&e);
	for (u32 w = 0; w < 4; w++)
		store_word(&c, e.surf + 4 * w, init_value(&c, w));
	for (int t = 0; t < NTHREADS; t++) {
		struct job *j = &jobs[t];
		u64 rs = 77 + t;

		job_init(j, &c, t);
		if (t == NTHREADS - 1) {
			for (u32 i = 0; i < CPU_OPS; i++) {
				struct rec *r = job_rec(j);

				r->m = M_ADD;
				r->word = i % 4;
				r->a.lo = 1 + (rs = vt_xorshift64(rs)) % 100;
				r->res_off = 4 * i;
				sum[r->word] += r->a.lo;
			}
			j->res = malloc(4 * CPU_OPS);
			continue;
		}
		for (u32 p = 0; p < VISA_PACKETS; p++) {
			struct rec *r = job_packet(j, p, LANES);

			for (u32 i = 0; i < LANES; i++) {
				r[i].m = M_ADD;
				r[i].word = (i + t) % 4;
				r[i].a.lo = 1 + (rs = vt_xorshift64(rs)) % 100;
				sum[r[i].word] += r[i].a.lo;
			}
			emit_visa(j, &c, r);
		}
		ok &= validate_job(j, &e);
	}
	if (ok) {
		run_jobs(thr_mixed, jobs, &e);
		for (u32 w = 0; w < 4; w++)
			VT_EXPECT_EQ_MSG(((u32 *)e.surf)[w],
					 (u32)(0x80000000u + sum[w]), "word %u",
					 w);
		check_case(&c, jobs, NTHREADS, &e);
	}
	free_run(jobs, &e);
}

/* ---- CAS increment chains --------------------------------------------- */

/*
 * Each thread increments the counter at word 0 with compare-and-swap until
 * it has CAS_SUCCESSES successes: a vISA packet tries guess+i -> guess+i+1
 * on all 16 lanes (they run in order, so an undisturbed packet succeeds 16
 * times); a PTX packet tries one. A 128-bit counter is (v, ~v).
 */
static void cas_stream(struct job *j, const struct tcase *c, struct u128 g)
{
	j->s.len = 0;
	j->rn = 0;
	j->nr = 0;
	if (c->fam == F_VISA) {
		for (u32 i = 0; i < LANES; i++) {
			struct rec *r = job_rec(j);

			r->m = M_CAS;
			r->b.lo = (g.lo + i) & wmask(c->bits);
			r->a.lo = (g.lo + i + 1) & wmask(c->bits);
		}
		emit_visa(j, c, j->r);
	} else {
		struct rec *r = job_rec(j);

		r->m = M_CAS;
		r->b.lo = g.lo;
		r->a.lo = (g.lo + 1) & wmask(c->bits);
		if (c->bits == 128) {
			r->b.hi = ~r->b.lo;
			r->a.hi = ~r->a.lo;
		}
		emit_ptx(j, c, r);
	}
}

struct cas_hist {
	struct pair *p;
	size_t n, cap;
};

static void *thr_cas(void *arg)
{
	struct job *j = arg;
	const struct tcase *c = j->c;
	struct cas_hist *h = (struct cas_hist *)j->res;	/* see test_cas */
	struct u128 g = init_value(c, 0);
	u8 res[LANES * 8];

	start_gate(NTHREADS);
	while (j->successes < CAS_SUCCESSES) {
		cas_stream(j, c, g);
		vatom_stream_execute(j->s.p, j->s.len, &g_env->b, res, &j->st);
		for (size_t i = 0; i < j->nr; i++) {
			struct rec *r = &j->r[i];
			struct u128 old = { 0, 0 };

			memcpy(&old.lo, res + r->res_off,
			       c->bits == 128 ? 8 : word_bytes(c));
			if (c->bits == 128)
				memcpy(&old.hi, res + r->res_off + 8, 8);
			if (h->n == h->cap) {
				h->cap = h->cap ? 2 * h->cap : 4096;
				h->p = realloc(h->p, h->cap * sizeof(*h->p));
				if (!h->p)
					abort();
			}
			h->p[h->n].old = old;
			h->p[h->n].nw = model(M_CAS, c->bits, old, r->a, r->b);
			h->n++;
			if (old.lo == r->b.lo && old.hi == r->b.hi) {
				j->successes++;
				j->succ = realloc(j->succ, j->successes *
						  sizeof(*j->succ));
				if (!j->succ)
					abort();
				j->succ[j->successes - 1] = old;
				g = r->a;	/* what we wrote */
			} else {
				g = old;	/* what someone else wrote */
				j->foreign++;
			}
		}
		if (j->successes % 64 == 0)
			sched_yield();
	}
	return NULL;
}

static const struct tcase cas_cases[] = {
	{ "cas chain visa cmpxchg.ud", F_VISA, M_CAS, 0, 32, .words = 1,
	  .init = 0xfffff000 },
	{ "cas chain visa cmpxchg.16", F_VISA, M_CAS, 0, 16, .words = 1,
	  .init = 0x100 },
	{ "cas chain visa cmpxchg.uq", F_VISA, M_CAS, 0, 64, .words = 1,
	  .init = 0xfffffffffffff000ull },
	{ "cas chain ptx cas.b16", F_PTX, M_CAS, 0, 16, DRM_VATOM_PTX_TYPE_B16,
	  DRM_VATOM_PTX_SPACE_GLOBAL, .words = 1, .init = 0x10 },
	{ "cas chain ptx cas.b32", F_PTX, M_CAS, 0, 32, DRM_VATOM_PTX_TYPE_B32,
	  DRM_VATOM_PTX_SPACE_SHARED_CTA, .words = 1, .init = 0xfffff000 },
	{ "cas chain ptx cas.b64", F_PTX, M_CAS, 0, 64, DRM_VATOM_PTX_TYPE_B64,
	  DRM_VATOM_PTX_SPACE_GLOBAL, .words = 1, .init = 0xfffffffffffff000ull },
	{ "cas chain ptx cas.b128", F_PTX, M_CAS, 0, 128,
	  DRM_VATOM_PTX_TYPE_B128, DRM_VATOM_PTX_SPACE_GLOBAL, .words = 1,
	  .init = 0xfffffffffffff000ull },
};

static void test_cas(void)
{
	const struct tcase *c = g_case;
	struct job jobs[NTHREADS];
	struct cas_hist hist[NTHREADS];
	struct env e;
	struct u128 init = init_value(c, 0), fin;
	struct u128 *all;
	u64 total = 0, k = 0, mk = wmask(c->bits);
	struct pair *p;
	size_t np = 0;
	bool ok = true;

	env_buffer(&e);
	store_word(c, e.surf, init);
	memset(hist, 0, sizeof(hist));
	for (int t = 0; t < NTHREADS; t++) {
		struct job *j = &jobs[t];

		job_init(j, c, t);
		/* The stream's shape is the same every time: validate one. */
		cas_stream(j, c, init);
		ok &= validate_job(j, &e);
		free(j->res);
		j->res = (u8 *)&hist[t];
	}
	if (ok)
		run_jobs(thr_cas, jobs, &e);
	fin = load_word(c, e.surf);
	for (int t = 0; t < NTHREADS; t++)
		total += jobs[t].successes;
	all = malloc((total + 1) * sizeof(*all));
	p = NULL;
	for (int t = 0; t < NTHREADS; t++) {
		for (u64 i = 0; i < jobs[t].successes; i++)
			all[k++] = jobs[t].succ[i];
	}
	if (ok) {
		/*
		 * Successful olds: exactly init, init + 1, ..., final - 1
		 * (modulo the width: sort by distance from init).
		 */
		for (u64 i = 0; i < k; i++) {
			if (c->bits == 128)
				VT_EXPECT_EQ(all[i].hi, ~all[i].lo);
			all[i].lo = (all[i].lo - init.lo) & mk;
			all[i].hi = 0;
		}
		qsort(all, k, sizeof(*all), cmp128);
		for (u64 i = 0; i < k; i++) {
			VT_EXPECT_EQ_MSG(all[i].lo, i, "%s: success %llu is "
					 "not init + %llu", c->name,
					 (unsigned long long)i,
					 (unsigned long long)i);
			if (all[i].lo != i)
				break;
		}
		VT_EXPECT_EQ_MSG(fin.lo, (init.lo + total) & mk,
				 "%s: final = init + %llu successes",
				 c->name, (unsigned long long)total);
		if (c->bits == 128)
			VT_EXPECT_EQ(fin.hi, ~fin.lo);
		VT_EXPECT(total >= (u64)NTHREADS * CAS_SUCCESSES);
		/* And the whole history, failures included, chains up. */
		for (int t = 0; t < NTHREADS; t++) {
			p = realloc(p, sizeof(*p) * (np + hist[t].n + 1));
			memcpy(p + np, hist[t].p, sizeof(*p) * hist[t].n);
			np += hist[t].n;
		}
		VT_EXPECT_EQ_MSG(chain_mismatch(init, fin, p, np), 0,
				 "%s: %zu ops", c->name, np);
		g_cases++;
		for (int t = 0; t < NTHREADS; t++)
			if (jobs[t].foreign) {
				g_overlapped++;
				break;
			}
	}
	free(p);
	free(all);
	for (int t = 0; t < NTHREADS; t++) {
		free(hist[t].p);
		jobs[t].res = NULL;
		free_job(&jobs[t]);
	}
	env_free(&e);
}

/* ---- the checker catches a lost update -------------------------------- */

/*
 * Two ADDs of 1 and 2 from 10 done atomically: (10 -> 11), (11 -> 13),
 * final 13: consistent. Done without atomicity, both read 10: (10 -> 11),
 * (10 -> 12), final 12 (the first update lost): the check must object.
 * Likewise an owner-style lost bit and a final value off by one.
 */
static void test_checker_catches_lost_update(void)
{
	struct pair ok[2] = { { { 10, 0 }, { 11, 0 } }, { { 11, 0 }, { 13, 0 } } };
	struct pair lost[2] = { { { 10, 0 }, { 11, 0 } }, { { 10, 0 }, { 12, 0 } } };
	struct u128 init = { 10, 0 }, f13 = { 13, 0 }, f12 = { 12, 0 };
	struct u128 f14 = { 14, 0 };
	/* And the model matches the ISA tables on a few hand values. */
	static const struct {
		u8 m, bits;
		u64 old, a, b, want;
	} hand[] = {
		{ M_PINC, 32, 999, 999, 0, 0 },
		{ M_PDEC, 32, 0, 999, 0, 999 },
		{ M_SMIN, 16, 0x8000, 1, 0, 0x8000 },
		{ M_UMIN, 16, 0x8000, 1, 0, 1 },
		{ M_NOC_INC, 32, 0x123456ff, 2, 7, 0x12345601 },
		{ M_CAS, 32, 5, 9, 5, 9 },
	};

	VT_EXPECT_EQ(chain_mismatch(init, f13, ok, 2), 0);
	VT_EXPECT(chain_mismatch(init, f12, lost, 2) != 0);
	VT_EXPECT(chain_mismatch(init, f14, ok, 2) != 0);
	for (size_t i = 0; i < ARRAY_SIZE(hand); i++) {
		struct u128 old = { hand[i].old, 0 }, a = { hand[i].a, 0 };
		struct u128 b = { hand[i].b, 0 };

		VT_EXPECT_EQ_MSG(model(hand[i].m, hand[i].bits, old, a, b).lo,
				 hand[i].want, "%s.%u", model_name[hand[i].m],
				 hand[i].bits);
	}
}

int main(void)
{
	char name[128];

	vt_run(test_checker_catches_lost_update,
	       "history check catches a lost update");
	vt_run(test_visa_add_totals,
	       "visa add.ud: 8 threads x 512 packets x 16 lanes, exact totals");
	vt_run(test_ptx_fadd_totals,
	       "ptx add.f32 .shared: 8 threads x 4096 adds of 0.75, exact total");
	vt_run(test_cpu_mixed,
	       "visa add.ud from 7 threads + __atomic_fetch_add from 1");
	for (size_t i = 0; i < NCASES; i++) {
		g_case = &cases[i];
		snprintf(name, sizeof(name), "%s: %d threads, %s history",
			 cases[i].name, NTHREADS, model_name[cases[i].m]);
		vt_run(run_case, name);
	}
	for (size_t i = 0; i < ARRAY_SIZE(cas_cases); i++) {
		g_case = &cas_cases[i];
		snprintf(name, sizeof(name), "%s: %d threads x %d successes",
			 cas_cases[i].name, NTHREADS, CAS_SUCCESSES);
		vt_run(test_cas, name);
	}
	printf("# in %d of %d runs, threads saw each other's writes between "
	       "their own ops\n", g_overlapped, g_cases);
	return vt_done();
}
