// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * NVIDIA PTX atom: validation of struct drm_vatom_ptx against the PTX ISA's
 * op x type x vector tables, and the ops GET_PARAM reports. Execution with
 * CPU atomics is in ptx_exec.c; ptx_internal.h has what both share.
 *
 * docs/semantics-ptx.md is the reference for every choice made here.
 */
#include "vatom_engine.h"
#include "visa_internal.h"
#include "ptx_internal.h"

#define PTX_FLAGS		(DRM_VATOM_PTX_NOFTZ | DRM_VATOM_PTX_CACHE_HINT)

#define OP(o)	(1u << DRM_VATOM_PTX_OP_##o)
/* Allowed vector lengths: bit n for .vn. */
#define V2	0x004u
#define V4	0x010u
#define V8	0x100u

#define FORM(sz, sc, ve, vs, nf) \
	{ .scalar = (sc), .vector = (ve), .vecs = (vs), .esize = (sz), .noftz = (nf) }
#define NEVER		PTX_NOFTZ_NEVER
#define REQUIRED	PTX_NOFTZ_REQUIRED
#define ALLOWED		PTX_NOFTZ_ALLOWED

const struct ptx_form ptx_forms[PTX_TYPES] = {
	[DRM_VATOM_PTX_TYPE_B16] = FORM(2, OP(CAS), 0, 0, NEVER),
	[DRM_VATOM_PTX_TYPE_B32] = FORM(4, OP(AND) | OP(OR) | OP(XOR) | OP(CAS) | OP(EXCH),
					0, 0, NEVER),
	[DRM_VATOM_PTX_TYPE_B64] = FORM(8, OP(AND) | OP(OR) | OP(XOR) | OP(CAS) | OP(EXCH),
					0, 0, NEVER),
	[DRM_VATOM_PTX_TYPE_B128] = FORM(16, OP(CAS) | OP(EXCH), 0, 0, NEVER),
	[DRM_VATOM_PTX_TYPE_U32] = FORM(4, OP(ADD) | OP(INC) | OP(DEC) | OP(MIN) | OP(MAX),
					0, 0, NEVER),
	[DRM_VATOM_PTX_TYPE_U64] = FORM(8, OP(ADD) | OP(MIN) | OP(MAX), 0, 0, NEVER),
	[DRM_VATOM_PTX_TYPE_S32] = FORM(4, OP(ADD) | OP(MIN) | OP(MAX), 0, 0, NEVER),
	[DRM_VATOM_PTX_TYPE_S64] = FORM(8, OP(MIN) | OP(MAX), 0, 0, NEVER),
	[DRM_VATOM_PTX_TYPE_F16] = FORM(2, OP(ADD), OP(ADD) | OP(MIN) | OP(MAX),
					V2 | V4 | V8, REQUIRED),
	[DRM_VATOM_PTX_TYPE_BF16] = FORM(2, OP(ADD), OP(ADD) | OP(MIN) | OP(MAX),
					 V2 | V4 | V8, REQUIRED),
	[DRM_VATOM_PTX_TYPE_F16X2] = FORM(4, OP(ADD), OP(ADD) | OP(MIN) | OP(MAX),
					  V2 | V4, REQUIRED),
	[DRM_VATOM_PTX_TYPE_BF16X2] = FORM(4, OP(ADD), OP(ADD) | OP(MIN) | OP(MAX),
					   V2 | V4, REQUIRED),
	[DRM_VATOM_PTX_TYPE_F32] = FORM(4, OP(ADD), OP(ADD), V2 | V4, ALLOWED),
	[DRM_VATOM_PTX_TYPE_F64] = FORM(8, OP(ADD), 0, 0, NEVER),
};

u64 vatom_ptx_ops_mask(u32 type)
{
	if (type == 0 || type >= PTX_TYPES)
		return 0;
	return ptx_forms[type].scalar | ptx_forms[type].vector;
}

/*
 * The bits of a 128-bit operand past an access of @size bytes, which must
 * be zero: only whether any is set matters.
 */
static __always_inline u64 ptx_excess(const __u64 v[2], u32 size)
{
	if (size >= 16)
		return 0;
	if (size >= 8)
		return v[1];
	return v[1] | v[0] >> (8 * size);
}

/*
 * Everything that depends on the packet alone, in the order of
 * docs/semantics-ptx.md; @size: out, the access size of a valid packet.
 * Common forms go through as few branches as the order allows: the fields
 * that fail with one reason are ORed and tested once.
 */
static __always_inline u32 ptx_check(const struct drm_vatom_ptx *p, u32 *size)
{
	const struct ptx_form *f;
	u32 op, vec, opbit;

	/* Nothing past the header is read before the size is known. */
	if (unlikely(p->hdr.size != PTX_PACKET_SIZE))
		return DRM_VATOM_ERR_PACKET_SIZE;
	op = p->op;
	vec = p->vec;
	if (unlikely(p->pad | p->pad2 | (p->flags & ~PTX_FLAGS)))
		return DRM_VATOM_ERR_RESERVED;
	if (unlikely(op - DRM_VATOM_PTX_OP_AND >
		     DRM_VATOM_PTX_OP_MAX - DRM_VATOM_PTX_OP_AND))
		return DRM_VATOM_ERR_OP;
	if (unlikely(p->type - 1u >= PTX_TYPES - 1))
		return DRM_VATOM_ERR_TYPE;
	f = &ptx_forms[p->type];
	opbit = 1u << op;
	if (unlikely(!((f->scalar | f->vector) & opbit)))
		return DRM_VATOM_ERR_TYPE;

	/* space, sem and scope are 0..3 each. */
	if (unlikely((p->space | p->sem | p->scope) > 3))
		return DRM_VATOM_ERR_QUALIFIER;
	if (!vec) {
		if (unlikely(!(f->scalar & opbit)))
			return DRM_VATOM_ERR_QUALIFIER;
	} else {
		if (vec > 8 || !(f->vecs & (1u << vec)) ||
		    !(f->vector & opbit) || !ptx_global(p->space))
			return DRM_VATOM_ERR_QUALIFIER;
	}
	if (p->flags & DRM_VATOM_PTX_NOFTZ) {
		/* The vector .f32 syntax has no .noftz; the scalar one may. */
		if (f->noftz == PTX_NOFTZ_NEVER ||
		    (f->noftz == PTX_NOFTZ_ALLOWED && vec))
			return DRM_VATOM_ERR_QUALIFIER;
	} else if (unlikely(f->noftz == PTX_NOFTZ_REQUIRED)) {
		return DRM_VATOM_ERR_QUALIFIER;
	}
	if (p->flags & DRM_VATOM_PTX_CACHE_HINT) {
		/* Global only; the 4-operand (cas) syntax has no cache-policy. */
		if (!ptx_global(p->space) || op == DRM_VATOM_PTX_OP_CAS)
			return DRM_VATOM_ERR_QUALIFIER;
	} else if (unlikely(p->cache_policy)) {
		return DRM_VATOM_ERR_RESERVED;
	}

	*size = ptx_access_size(p);
	/* Operand c is cas's alone. */
	if (unlikely(ptx_excess(p->b, *size) |
		     (op == DRM_VATOM_PTX_OP_CAS ? ptx_excess(p->c, *size) :
		      p->c[0] | p->c[1])))
		return DRM_VATOM_ERR_RESERVED;
	return 0;
}

/*
 * Every check of a packet, its surface's last; @size: out, the access size
 * of a valid packet.
 */
static __always_inline u32 ptx_validate(const struct drm_vatom_ptx *p,
					const struct vatom_bindings *b,
					u32 *size)
{
	const struct vatom_surface_view *v;
	u32 err;

	err = ptx_check(p, size);
	if (err)
		return err;
	v = b->slot[p->slot];
	if (unlikely(!v))
		return DRM_VATOM_ERR_SLOT;
	if (unlikely(v->kind != DRM_VATOM_SURFACE_BUFFER))
		return DRM_VATOM_ERR_SURFACE_KIND;
	if (unlikely(p->addr & (*size - 1)))
		return DRM_VATOM_ERR_ALIGN;
	/* PTX defines no out-of-bounds behaviour: never execute one. */
	if (unlikely(p->addr > v->size || v->size - p->addr < *size))
		return DRM_VATOM_ERR_BOUNDS;
	return 0;
}

u32 vatom_ptx_validate(const struct drm_vatom_ptx *p,
		       const struct vatom_bindings *b, u64 *result_bytes)
{
	u32 size = 0, err = ptx_validate(p, b, &size);

	*result_bytes = err ? 0 : ptx_size_result_bytes(size);
	return err;
}

/**
 * vatom_ptx_validate_one() - vatom_stream_validate_ctl() of a stream that
 * is one PTX packet
 * @stream: the packet: vatom_stream_is_one()
 * @size: its bytes
 * @b: the submission's bindings
 * @ctl: the most element operations it may cost (NULL: no limit)
 * @results_needed: out, as vatom_stream_validate_ctl()
 * @ops: out, as vatom_stream_validate_ctl()
 * @err: out, as vatom_stream_validate_ctl()
 *
 * vatom_ptx_validate() and the cost in one call, which takes the walker's
 * arguments as they are, so that the walker ends in a jump to it.
 *
 * Return: as vatom_stream_validate_ctl().
 */
int vatom_ptx_validate_one(const void *stream, u32 size,
			   const struct vatom_bindings *b,
			   const struct vatom_exec_ctl *ctl,
			   u64 *results_needed, u64 *ops,
			   struct vatom_stream_error *err)
{
	const struct drm_vatom_ptx *p = stream;
	u32 access = 0, reason = ptx_validate(p, b, &access);

	/* Only a valid packet is known to hold more than its header. */
	return vatom_one_validated(reason, ptx_size_result_bytes(access),
				   reason ? 0 : vatom_ptx_ops(p), ctl,
				   results_needed, ops, err);
}

/*
 * The checks of ptx_check() and vatom_ptx_validate() that read past the head
 * of a packet, taken from an accepted packet with the same head: masks of
 * the operand bits that must be zero, and the address rules. Few fields,
 * so that a run's loop can keep them in registers.
 */
struct ptx_tail {
	u64 b0_mask;	/* b[0] past an access of less than 8 bytes */
	u64 c0_mask;	/* c[0]: the same for cas, every bit otherwise */
	u64 align;	/* access size - 1 */
	u64 last;	/* the largest addr in bounds */
	u32 zero;	/* PTX_ZERO_*: whole words that must be zero */
};

#define PTX_ZERO_CP	1u	/* cache_policy, without CACHE_HINT */
#define PTX_ZERO_B1	2u	/* b[1], access of less than 16 bytes */
#define PTX_ZERO_C1	4u	/* c[1], the same for cas; always otherwise */

static void ptx_tail_of(struct ptx_tail *t, const struct drm_vatom_ptx *p,
			const struct vatom_surface_view *v)
{
	u32 size = ptx_access_size(p);
	bool cas = p->op == DRM_VATOM_PTX_OP_CAS;

	/* As ptx_operand_fits(): bits past @size bytes. */
	t->b0_mask = size >= 8 ? 0 : ~0ull << (8 * size);
	t->c0_mask = cas ? t->b0_mask : ~0ull;
	t->zero = 0;
	if (!(p->flags & DRM_VATOM_PTX_CACHE_HINT))
		t->zero |= PTX_ZERO_CP;
	if (size < 16)
		t->zero |= PTX_ZERO_B1;
	if (!cas || size < 16)
		t->zero |= PTX_ZERO_C1;
	t->align = size - 1;
	/* @p is in bounds, so v->size >= size. */
	t->last = v->size - size;
}

/*
 * The tail checks of the packet at @q, in ptx_check()'s and then
 * vatom_ptx_validate()'s order: every ERR_RESERVED one, alignment, bounds.
 * Each 8-byte word is loaded once, and only when it can be rejected.
 */
static __always_inline u32 ptx_check_tail(const u8 *q,
					  const struct ptx_tail *t)
{
	const struct drm_vatom_ptx *p = (const void *)q;
	u64 bad = 0, addr;

	if (t->zero & PTX_ZERO_CP)
		bad |= p->cache_policy;
	if (t->b0_mask)
		bad |= p->b[0] & t->b0_mask;
	if (t->zero & PTX_ZERO_B1)
		bad |= p->b[1];
	if (t->c0_mask)
		bad |= p->c[0] & t->c0_mask;
	if (t->zero & PTX_ZERO_C1)
		bad |= p->c[1];
	if (bad)
		return DRM_VATOM_ERR_RESERVED;
	addr = p->addr;
	if (addr & t->align)
		return DRM_VATOM_ERR_ALIGN;
	if (addr > t->last)
		return DRM_VATOM_ERR_BOUNDS;
	return 0;
}

/**
 * vatom_ptx_validate_run() - validate the PTX packet at *@pos and the
 * packets with the same head that follow it
 * @stream: the stream
 * @size: its bytes
 * @pos: in: offset of a PTX packet whose header lies within the stream;
 *	out: offset past the last packet accepted
 * @max: most packets to accept (>= 1)
 * @b: the submission's bindings
 * @count: out, packets accepted (the failing one, if any, not included)
 * @result_bytes: out, result bytes of the packets accepted
 *
 * The first packet gets vatom_ptx_validate(); each following whole packet
 * whose first %PTX_HEAD bytes are identical to it only gets the checks that
 * depend on the rest (ptx_check_tail()), and has the same result bytes.
 * The reasons are those vatom_ptx_validate() would give packet by packet.
 *
 * Return: 0, or the DRM_VATOM_ERR_* reason of packet *@count of the run.
 */
u32 vatom_ptx_validate_run(const u8 *stream, u32 size, u32 *pos, u32 max,
			   const struct vatom_bindings *b, u32 *count,
			   u64 *result_bytes)
{
	const u8 *first = stream + *pos, *q = first, *last;
	struct ptx_head head;
	struct ptx_tail t;
	u32 n, reason;
	u64 rb;

	*count = 0;
	*result_bytes = 0;
	reason = vatom_ptx_validate((const void *)first, b, &rb);
	if (reason)
		return reason;
	ptx_tail_of(&t, (const void *)first,
		    b->slot[((const struct drm_vatom_ptx *)first)->slot]);
	ptx_head_of(&head, first);
	/*
	 * The first packet is 72 bytes within the stream, so @last, where
	 * the last whole packet would start, is not before it. A pointer and
	 * a limit rather than an offset and a count: fewer values for the
	 * loop to keep in registers.
	 */
	last = stream + size - PTX_PACKET_SIZE;
	if ((size - *pos) / PTX_PACKET_SIZE > max)
		last = first + (max - 1) * PTX_PACKET_SIZE;
	for (;;) {
		q += PTX_PACKET_SIZE;
		if (q > last || !ptx_same_head(q, &head))
			break;
		reason = ptx_check_tail(q, &t);
		if (reason)
			break;
	}
	n = ((u32)(q - stream) - *pos) / PTX_PACKET_SIZE;
	*pos = (u32)(q - stream);
	*count = n;
	*result_bytes = rb * n;
	return reason;
}
