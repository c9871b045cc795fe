// SPDX-License-Identifier: MIT
/*
 * libvatom: the batch builder (command stream + binding table), packet
 * encoding for every ISA family, synchronous submission and result access.
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define DEFAULT_CAPACITY 4096

VATOM_API int vatom_batch_create(struct vatom_device *dev, size_t capacity,
				 struct vatom_batch **bp)
{
	struct vatom_batch *b;

	if (!bp)
		return -EINVAL;
	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->dev = dev;
	b->cap = vatom__align8(capacity ? capacity : DEFAULT_CAPACITY);
	b->stream = malloc(b->cap);
	if (!b->stream) {
		free(b);
		return -ENOMEM;
	}
	*bp = b;
	return 0;
}

VATOM_API void vatom_batch_destroy(struct vatom_batch *b)
{
	if (!b)
		return;
	free(b->stream);
	free(b->pkts);
	free(b->bindings);
	free(b->resbuf);
	free(b);
}

VATOM_API int vatom_batch_reserve(struct vatom_batch *b, size_t bytes)
{
	size_t need, cap;
	uint8_t *p;

	if (!b)
		return -EINVAL;
	if (bytes > UINT32_MAX - b->size)
		return -E2BIG;		/* stream_size is a __u32 */
	need = b->size + bytes;
	if (b->dev && b->dev->max_stream_size && need > b->dev->max_stream_size)
		return -E2BIG;
	if (need <= b->cap)
		return 0;
	cap = b->cap * 2 > need ? b->cap * 2 : vatom__align8(need);
	p = realloc(b->stream, cap);
	if (!p)
		return -ENOMEM;
	b->stream = p;
	b->cap = cap;
	return 0;
}

VATOM_API void vatom_batch_reset(struct vatom_batch *b)
{
	b->size = 0;
	b->count = 0;
	b->results_size = 0;
	b->results = NULL;
	b->last_ret = 0;
	b->err_index = 0;
	b->err_reason = DRM_VATOM_ERR_NONE;
}

VATOM_API int vatom_batch_bind(struct vatom_batch *b, unsigned int slot,
			       struct vatom_surface *s)
{
	if (!b || slot >= DRM_VATOM_MAX_SLOTS)
		return -EINVAL;
	if (s && s->dev != b->dev)
		return -EXDEV;
	b->slots[slot] = s;
	return 0;
}

VATOM_API int vatom_batch_packets(const struct vatom_batch *b)
{
	return b->count;
}

VATOM_API const void *vatom_batch_stream(const struct vatom_batch *b,
					 size_t *size)
{
	if (size)
		*size = b->size;
	return b->stream;
}

static const struct vatom_pkt *pkt_of(const struct vatom_batch *b, int res)
{
	if (!b || res < 0 || (unsigned int)res >= b->count)
		return NULL;
	return &b->pkts[res];
}

VATOM_API const void *vatom_batch_packet(const struct vatom_batch *b, int res,
					 size_t *size)
{
	const struct vatom_pkt *p = pkt_of(b, res);

	if (!p)
		return NULL;
	if (size)
		*size = p->size;
	return b->stream + p->stream_off;
}

VATOM_API uint64_t vatom_batch_results_size(const struct vatom_batch *b)
{
	return b->results_size;
}

/*
 * Append a zeroed packet of @size bytes (a multiple of 8) of @type that
 * returns @res_len bytes of primary results and @carry_len bytes of a
 * second array (ADDC); each array is its own 8-byte-rounded part of the
 * packet's result region, as the UAPI lays them out. Returns the packet
 * bytes through @pkt and its index.
 */
static int pkt_append(struct vatom_batch *b, uint32_t type, size_t size,
		      uint32_t res_len, uint32_t carry_len, void **pkt)
{
	struct drm_vatom_packet *hdr;
	struct vatom_pkt *m;
	int ret;

	if (size > UINT32_MAX || b->count >= INT32_MAX)
		return -E2BIG;
	ret = vatom_batch_reserve(b, size);
	if (ret)
		return ret;
	if (b->count == b->pkts_cap) {
		unsigned int cap = b->pkts_cap ? b->pkts_cap * 2 : 32;
		struct vatom_pkt *p = realloc(b->pkts, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		b->pkts = p;
		b->pkts_cap = cap;
	}
	m = &b->pkts[b->count];
	m->stream_off = (uint32_t)b->size;
	m->size = (uint32_t)size;
	m->res_off = b->results_size;
	m->res_len = res_len;
	m->carry_off = carry_len ? (uint32_t)vatom__align8(res_len) : 0;
	b->results_size += vatom__align8(res_len) + vatom__align8(carry_len);

	hdr = (struct drm_vatom_packet *)(b->stream + b->size);
	memset(hdr, 0, size);
	hdr->type = type;
	hdr->size = (uint32_t)size;
	b->size += size;
	b->results = NULL;	/* the batch changed: old results are stale */
	*pkt = hdr;
	return (int)b->count++;
}

/* ---- vISA ---------------------------------------------------------------- */

/* The Exec_size byte: log2(lanes) in bits 2..0, mask control in 7..4. */
static int exec_size_byte(const struct vatom_visa_exec *ex,
			  unsigned int max_lanes, uint8_t *out)
{
	uint8_t code;

	if (!ex || ex->size > max_lanes || ex->mask_ctrl > 0xf)
		return -EINVAL;
	switch (ex->size) {
	case 1:
		code = DRM_VATOM_VISA_EXEC_1;
		break;
	case 2:
		code = DRM_VATOM_VISA_EXEC_2;
		break;
	case 4:
		code = DRM_VATOM_VISA_EXEC_4;
		break;
	case 8:
		code = DRM_VATOM_VISA_EXEC_8;
		break;
	case 16:
		code = DRM_VATOM_VISA_EXEC_16;
		break;
	case 32:
		code = DRM_VATOM_VISA_EXEC_32;
		break;
	default:
		return -EINVAL;
	}
	*out = code | ex->mask_ctrl << DRM_VATOM_VISA_EXEC_MASK_SHIFT;
	return 0;
}

/* One operand array of a vISA packet (absent: V0). */
struct visa_opnd {
	uint32_t bit;		/* DRM_VATOM_VISA_OPND_* */
	const void *data;	/* NULL: V0 */
	size_t len;
};

struct visa_insn {
	uint8_t opcode;
	uint8_t op;
	uint8_t surface;
	uint8_t type;
	uint32_t flag_bits;	/* DST, _IMM bits of @operands */
	uint32_t res_len;	/* bytes returned (with DST) */
	uint32_t carry_len;	/* ADDC carry bytes */
};

/*
 * Encode a vISA packet: the fixed part, then each present operand array in
 * the order of its DRM_VATOM_VISA_OPND_* bit, each at an 8-byte boundary.
 */
static int visa_emit(struct vatom_batch *b, const struct vatom_visa_exec *ex,
		     uint8_t exec_size, const struct visa_insn *in,
		     const struct visa_opnd *o, unsigned int n)
{
	struct drm_vatom_visa *p;
	size_t size = sizeof(*p);
	uint8_t *cur;
	unsigned int i;
	int idx;

	for (i = 0; i < n; i++)
		if (o[i].data)
			size += vatom__align8(o[i].len);
	idx = pkt_append(b, DRM_VATOM_PACKET_VISA, size,
			 (in->flag_bits & DRM_VATOM_VISA_OPND_DST) ? in->res_len : 0,
			 in->carry_len, (void **)&p);
	if (idx < 0)
		return idx;
	p->opcode = in->opcode;
	p->op = in->op;
	p->exec_size = exec_size;
	p->surface = in->surface;
	p->type = in->type;
	p->operands = in->flag_bits;
	p->emask = ex->emask;
	if (ex->predicated) {
		p->flags = DRM_VATOM_VISA_PREDICATED;
		p->pred = ex->pred;
	}
	cur = (uint8_t *)(p + 1);
	for (i = 0; i < n; i++) {
		if (!o[i].data)
			continue;
		p->operands |= o[i].bit;
		memcpy(cur, o[i].data, o[i].len);
		cur += vatom__align8(o[i].len);
	}
	return idx;
}

#define VISA_TYPE_MASK	0xff00u
#define VISA_FLAGS	(VATOM_VISA_DST | VATOM_VISA_16 | VISA_TYPE_MASK)

/*
 * The data type: explicit, or what the ISA's notes require of the op
 * (IMIN/IMAX signed, FMAX/FMIN/FCMPWR float, everything else unsigned).
 */
static int visa_type(unsigned int op, unsigned int flags, bool wide)
{
	if (flags & VISA_TYPE_MASK)
		return ((flags & VISA_TYPE_MASK) >> 8) - 1;
	switch (op) {
	case VATOM_VISA_IMIN:
	case VATOM_VISA_IMAX:
		return wide ? DRM_VATOM_VISA_TYPE_Q : DRM_VATOM_VISA_TYPE_D;
	case VATOM_VISA_FMAX:
	case VATOM_VISA_FMIN:
	case VATOM_VISA_FCMPWR:
		return DRM_VATOM_VISA_TYPE_F;
	default:
		return wide ? DRM_VATOM_VISA_TYPE_UQ : DRM_VATOM_VISA_TYPE_UD;
	}
}

static int prep_memory_atomic(struct vatom_batch *b,
			      const struct vatom_visa_exec *ex, uint8_t opcode,
			      unsigned int op, unsigned int flags,
			      unsigned int surface, bool wide,
			      const struct visa_opnd *addr, unsigned int n_addr,
			      const void *src0, const void *src1)
{
	struct visa_opnd o[6];
	struct visa_insn in = { .opcode = opcode };
	size_t elem = wide ? 8 : 4;
	uint8_t exec_size;
	unsigned int i;

	if (!b || (flags & ~VISA_FLAGS) || op > DRM_VATOM_VISA_OP_MASK ||
	    surface >= DRM_VATOM_MAX_SLOTS || !addr[0].data ||
	    (wide && (flags & VATOM_VISA_16)) ||
	    exec_size_byte(ex, 16, &exec_size))
		return -EINVAL;
	in.op = op | ((flags & VATOM_VISA_16) ? DRM_VATOM_VISA_OP_16 : 0);
	in.surface = surface;
	in.type = visa_type(op, flags, wide);
	if (flags & VATOM_VISA_DST)
		in.flag_bits = DRM_VATOM_VISA_OPND_DST;
	in.res_len = ex->size * elem;
	for (i = 0; i < n_addr; i++)
		o[i] = addr[i];
	o[i++] = (struct visa_opnd){ DRM_VATOM_VISA_OPND_SRC0, src0, ex->size * elem };
	o[i++] = (struct visa_opnd){ DRM_VATOM_VISA_OPND_SRC1, src1, ex->size * elem };
	return visa_emit(b, ex, exec_size, &in, o, i);
}

VATOM_API int vatom_prep_dword_atomic(struct vatom_batch *b,
				      const struct vatom_visa_exec *ex,
				      enum vatom_visa_op op, unsigned int flags,
				      unsigned int surface, const uint32_t *offsets,
				      const uint32_t *src0, const uint32_t *src1)
{
	struct visa_opnd addr = { DRM_VATOM_VISA_OPND_ADDR, offsets,
				  ex ? ex->size * 4 : 0 };

	return prep_memory_atomic(b, ex, DRM_VATOM_VISA_DWORD_ATOMIC, op, flags,
				  surface, false, &addr, 1, src0, src1);
}

VATOM_API int vatom_prep_dword_atomic64(struct vatom_batch *b,
					const struct vatom_visa_exec *ex,
					enum vatom_visa_op op, unsigned int flags,
					unsigned int surface, const uint32_t *offsets,
					const uint64_t *src0, const uint64_t *src1)
{
	struct visa_opnd addr = { DRM_VATOM_VISA_OPND_ADDR, offsets,
				  ex ? ex->size * 4 : 0 };

	return prep_memory_atomic(b, ex, DRM_VATOM_VISA_DWORD_ATOMIC, op, flags,
				  surface, true, &addr, 1, src0, src1);
}

VATOM_API int vatom_prep_typed_atomic(struct vatom_batch *b,
				      const struct vatom_visa_exec *ex,
				      enum vatom_visa_op op, unsigned int flags,
				      unsigned int surface, const uint32_t *u,
				      const uint32_t *v, const uint32_t *r,
				      const uint32_t *lod, const uint32_t *src0,
				      const uint32_t *src1)
{
	size_t len = ex ? ex->size * 4 : 0;
	struct visa_opnd addr[4] = {
		{ DRM_VATOM_VISA_OPND_ADDR, u, len },
		{ DRM_VATOM_VISA_OPND_V, v, len },
		{ DRM_VATOM_VISA_OPND_R, r, len },
		{ DRM_VATOM_VISA_OPND_LOD, lod, len },
	};

	return prep_memory_atomic(b, ex, DRM_VATOM_VISA_TYPED_ATOMIC, op, flags,
				  surface, false, addr, 4, src0, src1);
}

VATOM_API int vatom_prep_addc(struct vatom_batch *b,
			      const struct vatom_visa_exec *ex,
			      unsigned int flags, const uint32_t *src0,
			      const uint32_t *src1)
{
	struct visa_insn in = {
		.opcode = DRM_VATOM_VISA_ADDC,
		.type = DRM_VATOM_VISA_TYPE_UD,
		.flag_bits = DRM_VATOM_VISA_OPND_DST,
	};
	struct visa_opnd o[2];
	uint8_t exec_size;

	if (!b || !src0 || !src1 ||
	    (flags & ~(VATOM_ADDC_SRC0_IMM | VATOM_ADDC_SRC1_IMM)) ||
	    exec_size_byte(ex, 32, &exec_size))
		return -EINVAL;
	/*
	 * An immediate is one element in the operand's place, flagged by the
	 * _IMM bit instead of the per-lane bit (exactly one of the two).
	 */
	o[0] = (flags & VATOM_ADDC_SRC0_IMM) ?
	       (struct visa_opnd){ DRM_VATOM_VISA_OPND_SRC0_IMM, src0, 4 } :
	       (struct visa_opnd){ DRM_VATOM_VISA_OPND_SRC0, src0, ex->size * 4 };
	o[1] = (flags & VATOM_ADDC_SRC1_IMM) ?
	       (struct visa_opnd){ DRM_VATOM_VISA_OPND_SRC1_IMM, src1, 4 } :
	       (struct visa_opnd){ DRM_VATOM_VISA_OPND_SRC1, src1, ex->size * 4 };
	in.res_len = ex->size * 4;
	in.carry_len = ex->size * 4;
	return visa_emit(b, ex, exec_size, &in, o, 2);
}

/* ---- PTX ----------------------------------------------------------------- */

VATOM_API int vatom_ptx_access_size(unsigned int type, unsigned int vec)
{
	int elem, size;

	switch (type) {
	case DRM_VATOM_PTX_TYPE_B16:
	case DRM_VATOM_PTX_TYPE_F16:
	case DRM_VATOM_PTX_TYPE_BF16:
		elem = 2;
		break;
	case DRM_VATOM_PTX_TYPE_B32:
	case DRM_VATOM_PTX_TYPE_U32:
	case DRM_VATOM_PTX_TYPE_S32:
	case DRM_VATOM_PTX_TYPE_F32:
	case DRM_VATOM_PTX_TYPE_F16X2:
	case DRM_VATOM_PTX_TYPE_BF16X2:
		elem = 4;
		break;
	case DRM_VATOM_PTX_TYPE_B64:
	case DRM_VATOM_PTX_TYPE_U64:
	case DRM_VATOM_PTX_TYPE_S64:
	case DRM_VATOM_PTX_TYPE_F64:
		elem = 8;
		break;
	case DRM_VATOM_PTX_TYPE_B128:
		elem = 16;
		break;
	default:
		return -EINVAL;
	}
	if (vec != 0 && vec != 2 && vec != 4 && vec != 8)
		return -EINVAL;
	size = vec ? elem * (int)vec : elem;
	return size > 16 ? -EINVAL : size;
}

VATOM_API int vatom_prep_ptx_atom(struct vatom_batch *b,
				  const struct vatom_ptx_atom *a)
{
	struct drm_vatom_ptx *p;
	int size, idx;

	if (!b || !a)
		return -EINVAL;
	size = vatom_ptx_access_size(a->type, a->vec);
	if (size < 0)
		return size;
	idx = pkt_append(b, DRM_VATOM_PACKET_PTX, sizeof(*p), size, 0,
			 (void **)&p);
	if (idx < 0)
		return idx;
	p->op = a->op;
	p->type = a->type;
	p->vec = a->vec;
	p->space = a->space;
	p->sem = a->sem;
	p->scope = a->scope;
	p->slot = a->slot;
	p->flags = a->flags;
	p->addr = a->addr;
	p->cache_policy = a->cache_policy;
	/* union vatom_ptx_value is the UAPI's little-endian layout on LE hosts. */
	memcpy(p->b, &a->b, sizeof(p->b));
	memcpy(p->c, &a->c, sizeof(p->c));
	return idx;
}

/* ---- NoC ----------------------------------------------------------------- */

VATOM_API int vatom_prep_noc(struct vatom_batch *b,
			     const struct vatom_noc_req *req)
{
	struct drm_vatom_noc *p;
	int idx;

	if (!b || !req)
		return -EINVAL;
	idx = pkt_append(b, DRM_VATOM_PACKET_NOC, sizeof(*p), 0, 0, (void **)&p);
	if (idx < 0)
		return idx;
	p->slot = req->slot;
	p->noc = req->noc;
	p->x = req->x;
	p->y = req->y;
	p->targ_addr_lo = req->targ_addr_lo;
	p->targ_addr_mid = req->targ_addr_mid;
	p->targ_addr_hi = req->targ_addr_hi;
	p->ret_addr_lo = req->ret_addr_lo;
	p->ret_addr_mid = req->ret_addr_mid;
	p->ret_addr_hi = req->ret_addr_hi;
	p->packet_tag = req->packet_tag;
	p->ctrl = req->ctrl;
	p->at_len_be = req->at_len_be;
	p->at_data = req->at_data;
	return idx;
}

/* ---- raw packets ----------------------------------------------------------- */

VATOM_API int vatom_prep_raw(struct vatom_batch *b, const void *pkt,
			     size_t size, uint32_t result_bytes)
{
	const struct drm_vatom_packet *hdr = pkt;
	void *p;
	int idx;

	if (!b || !pkt || size < sizeof(*hdr) || size % 8)
		return -EINVAL;
	idx = pkt_append(b, hdr->type, size, result_bytes, 0, &p);
	if (idx < 0)
		return idx;
	/* Verbatim, header included: the caller may want a lying size. */
	memcpy(p, pkt, size);
	return idx;
}

/* ---- submission -------------------------------------------------------------- */

static int resbuf_reserve(struct vatom_batch *b, uint64_t size)
{
	uint8_t *p;

	if (size > SIZE_MAX)
		return -ENOMEM;
	if (size <= b->resbuf_cap)
		return 0;
	p = realloc(b->resbuf, size);
	if (!p)
		return -ENOMEM;
	b->resbuf = p;
	b->resbuf_cap = size;
	return 0;
}

/*
 * The one submission path: synchronous (results to the batch's buffer or
 * to @rs) or, with DRM_VATOM_SUBMIT_ASYNC in @flags, asynchronous (results
 * to @rs only), waiting on @in and signalling @out (syncobjs of the
 * device's fd).
 */
int vatom__submit(struct vatom_batch *b, struct vatom_surface *rs,
		  uint64_t offset, const struct drm_vatom_sync *in,
		  unsigned int nin, const struct drm_vatom_sync *out,
		  unsigned int nout, uint32_t flags)
{
	struct drm_vatom_submit req;
	const uint8_t *results = NULL;
	unsigned int i, n = 0;
	void *map;
	int ret;

	if (!b)
		return -EINVAL;
	b->results = NULL;
	b->err_index = 0;
	b->err_reason = DRM_VATOM_ERR_NONE;
	if (!b->dev) {
		ret = -ENODEV;
		goto out;
	}
	if (rs && rs->dev != b->dev) {
		ret = -EXDEV;
		goto out;
	}
	/* Asynchronous results can only go to a surface. */
	if ((flags & DRM_VATOM_SUBMIT_ASYNC) && !rs && b->results_size) {
		ret = -EINVAL;
		goto out;
	}
	if (!b->bindings) {
		b->bindings = calloc(DRM_VATOM_MAX_SLOTS, sizeof(*b->bindings));
		if (!b->bindings) {
			ret = -ENOMEM;
			goto out;
		}
	}
	for (i = 0; i < DRM_VATOM_MAX_SLOTS; i++) {
		if (!b->slots[i])
			continue;
		b->bindings[n].slot = i;
		b->bindings[n].handle = b->slots[i]->handle;
		n++;
	}

	memset(&req, 0, sizeof(req));
	req.stream = (uintptr_t)b->stream;
	req.stream_size = (uint32_t)b->size;
	req.bindings = n ? (uintptr_t)b->bindings : 0;
	req.binding_count = n;
	req.flags = flags;
	req.in_syncs = nin ? (uintptr_t)in : 0;
	req.in_sync_count = nin;
	req.out_syncs = nout ? (uintptr_t)out : 0;
	req.out_sync_count = nout;
	if (rs) {
		/* Map first: the accessors read the results through it. */
		ret = vatom_surface_map(rs, &map);
		if (ret)
			goto out;
		if (offset > rs->size) {
			ret = -EINVAL;
			goto out;
		}
		req.result_handle = rs->handle;
		req.result_offset = offset;
		req.results_size = rs->size - offset;
		results = (const uint8_t *)map + offset;
	} else if (b->results_size) {
		ret = resbuf_reserve(b, b->results_size);
		if (ret)
			goto out;
		/* Disabled lanes leave their element alone: make it 0. */
		memset(b->resbuf, 0, b->results_size);
		req.results = (uintptr_t)b->resbuf;
		req.results_size = b->resbuf_cap;
		results = b->resbuf;
	}

	ret = vatom__ioctl(b->dev->fd, DRM_IOCTL_VATOM_SUBMIT, &req);
	if (ret == -EINVAL && !rs && !(flags & DRM_VATOM_SUBMIT_ASYNC) &&
	    req.error_reason == DRM_VATOM_ERR_RESULTS &&
	    req.results_needed > req.results_size) {
		/*
		 * The kernel wants more room than the library computed (a raw
		 * packet with a wrong result size): give it what it asks;
		 * the layout check below still reports the disagreement.
		 */
		ret = resbuf_reserve(b, req.results_needed);
		if (ret)
			goto out;
		memset(b->resbuf, 0, req.results_needed);
		req.results = (uintptr_t)b->resbuf;
		req.results_size = req.results_needed;
		results = b->resbuf;
		ret = vatom__ioctl(b->dev->fd, DRM_IOCTL_VATOM_SUBMIT, &req);
	}
	b->err_index = req.error_index;
	b->err_reason = req.error_reason;
	if (!ret && req.results_needed != b->results_size)
		ret = -EPROTO;
	if (!ret && !(flags & DRM_VATOM_SUBMIT_VALIDATE_ONLY))
		b->results = results;
out:
	b->last_ret = ret;
	return ret;
}

VATOM_API int vatom_batch_submit(struct vatom_batch *b)
{
	return vatom__submit(b, NULL, 0, NULL, 0, NULL, 0, 0);
}

VATOM_API int vatom_batch_validate(struct vatom_batch *b)
{
	return vatom__submit(b, NULL, 0, NULL, 0, NULL, 0,
			     DRM_VATOM_SUBMIT_VALIDATE_ONLY);
}

VATOM_API int vatom_batch_submit_to(struct vatom_batch *b,
				    struct vatom_surface *results,
				    uint64_t offset)
{
	if (!results)
		return -EINVAL;
	return vatom__submit(b, results, offset, NULL, 0, NULL, 0, 0);
}

VATOM_API int vatom_batch_error(const struct vatom_batch *b, uint32_t *index,
				uint32_t *reason)
{
	if (index)
		*index = b->err_index;
	if (reason)
		*reason = b->err_reason;
	return b->last_ret;
}

VATOM_API const void *vatom_batch_results(const struct vatom_batch *b,
					  size_t *size)
{
	if (size)
		*size = b->results ? b->results_size : 0;
	return b->results;
}

/* ---- results ------------------------------------------------------------------- */

/*
 * Address of element @i of width @w in the primary (or carry) array of
 * packet @res, or NULL when there is no such element.
 */
static const uint8_t *elem_at(const struct vatom_batch *b, int res,
			      unsigned int i, unsigned int w, bool carry)
{
	const struct vatom_pkt *p = pkt_of(b, res);
	uint64_t off;

	if (!p || !b->results || !p->res_len || (carry && !p->carry_off))
		return NULL;
	off = (uint64_t)i * w;
	if (off + w > p->res_len)
		return NULL;
	return b->results + p->res_off + (carry ? p->carry_off : 0) + off;
}

VATOM_API uint16_t vatom_result_u16(const struct vatom_batch *b, int res,
				    unsigned int i)
{
	const uint8_t *p = elem_at(b, res, i, 2, false);
	uint16_t v = 0;

	if (p)
		memcpy(&v, p, sizeof(v));
	return v;
}

VATOM_API uint32_t vatom_result_u32(const struct vatom_batch *b, int res,
				    unsigned int i)
{
	const uint8_t *p = elem_at(b, res, i, 4, false);
	uint32_t v = 0;

	if (p)
		memcpy(&v, p, sizeof(v));
	return v;
}

VATOM_API uint64_t vatom_result_u64(const struct vatom_batch *b, int res,
				    unsigned int i)
{
	const uint8_t *p = elem_at(b, res, i, 8, false);
	uint64_t v = 0;

	if (p)
		memcpy(&v, p, sizeof(v));
	return v;
}

VATOM_API uint32_t vatom_result_addc_dst(const struct vatom_batch *b, int res,
					 unsigned int lane)
{
	return vatom_result_u32(b, res, lane);
}

VATOM_API uint32_t vatom_result_addc_carry(const struct vatom_batch *b, int res,
					   unsigned int lane)
{
	const uint8_t *p = elem_at(b, res, lane, 4, true);
	uint32_t v = 0;

	if (p)
		memcpy(&v, p, sizeof(v));
	return v;
}

VATOM_API int vatom_result_size(const struct vatom_batch *b, int res)
{
	const struct vatom_pkt *p = pkt_of(b, res);

	return p ? (int)p->res_len : -EINVAL;
}

VATOM_API int64_t vatom_result_offset(const struct vatom_batch *b, int res)
{
	const struct vatom_pkt *p = pkt_of(b, res);

	return p ? (int64_t)p->res_off : -EINVAL;
}

VATOM_API int vatom_result_bytes(const struct vatom_batch *b, int res,
				 void *buf, size_t len)
{
	const struct vatom_pkt *p = pkt_of(b, res);

	if (!p || (!buf && len))
		return -EINVAL;
	if (!b->results || !p->res_len)
		return -ENODATA;
	if (len > p->res_len)
		len = p->res_len;
	memcpy(buf, b->results + p->res_off, len);
	return (int)len;
}
