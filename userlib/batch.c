// SPDX-License-Identifier: MIT
/*
 * libvatom: the batch builder (command stream + binding table), raw
 * packets, synchronous submission and result access. Each family's
 * packets are encoded in batch_prep.c.
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
int vatom__pkt_append(struct vatom_batch *b, uint32_t type, size_t size,
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

/* ---- raw packets ----------------------------------------------------------- */

VATOM_API int vatom_prep_raw(struct vatom_batch *b, const void *pkt,
			     size_t size, uint32_t result_bytes)
{
	const struct drm_vatom_packet *hdr = pkt;
	void *p;
	int idx;

	if (!b || !pkt || size < sizeof(*hdr) || size % 8)
		return -EINVAL;
	idx = vatom__pkt_append(b, hdr->type, size, result_bytes, 0, &p);
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
