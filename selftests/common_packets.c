// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the vatom selftests: command streams and the packets
 * of each family, and a submission of one. See common.h.
 *
 * Copyright (C) 2026 The vatom developers
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <linux/sync_file.h>
#include <xf86drm.h>

#include "common_packets.h"

/* ------------------------------------------------------------------------ */
/* Packets                                                                   */
/* ------------------------------------------------------------------------ */

void vt_stream_init(struct vt_stream *s)
{
	memset(s, 0, sizeof(*s));
}

static __u32 vt_elem_size(__u8 type)
{
	return type == DRM_VATOM_VISA_TYPE_UQ || type == DRM_VATOM_VISA_TYPE_Q ?
	       8 : 4;
}

/**
 * vt_visa_result_bytes() - result bytes a vISA packet owns
 * @v: the packet description
 *
 * From the UAPI text: with Dst, one element per lane of the data type's
 * width (4 bytes for the .16 forms), rounded up to 8; ADDC returns dst then
 * carry, each rounded up to 8; nothing without Dst.
 */
__u32 vt_visa_result_bytes(const struct vt_visa *v)
{
	__u32 n = vt_lanes(v->exec_size);

	if (!(v->operands & DRM_VATOM_VISA_OPND_DST))
		return 0;
	if (v->opcode == DRM_VATOM_VISA_ADDC)
		return 2 * vt_align8(4 * n);
	return vt_align8(n * vt_elem_size(v->type));
}

/* Append @bytes of @src (zeros when NULL), then zero padding to 8. */
static void vt_put(struct vt_stream *s, __u32 *pos, const void *src, __u32 bytes)
{
	char *buf = (char *)s->buf;

	if (src)
		memcpy(buf + *pos, src, bytes);
	else
		memset(buf + *pos, 0, bytes);
	memset(buf + *pos + bytes, 0, vt_align8(bytes) - bytes);
	*pos += vt_align8(bytes);
}

/**
 * vt_add_visa() - append one vISA packet
 * @s: the stream
 * @v: what to encode
 *
 * Lays the packet out as the UAPI says: struct drm_vatom_visa, then the
 * operand arrays present in @v->operands in bit order (ADDR, V, R, LOD,
 * SRC0, SRC1), each starting 8-byte aligned; Dst is not an array.
 *
 * Return: the packet inside the stream, for tests that corrupt one field.
 */
struct drm_vatom_visa *vt_add_visa(struct vt_stream *s, const struct vt_visa *v)
{
	struct drm_vatom_visa *p = (void *)((char *)s->buf + s->size);
	__u32 n = vt_lanes(v->exec_size);
	__u32 esz = vt_elem_size(v->type);
	__u32 pos = s->size + sizeof(*p);

	memset(p, 0, sizeof(*p));
	p->hdr.type = DRM_VATOM_PACKET_VISA;
	p->opcode = v->opcode;
	p->op = v->op;
	p->exec_size = v->exec_size;
	p->surface = v->surface;
	p->type = v->type;
	p->operands = v->operands;
	p->emask = v->emask;
	p->pred = v->pred;
	p->flags = v->flags;

	if (v->operands & DRM_VATOM_VISA_OPND_ADDR)
		vt_put(s, &pos, v->addr, 4 * n);
	if (v->operands & DRM_VATOM_VISA_OPND_V)
		vt_put(s, &pos, NULL, 4 * n);
	if (v->operands & DRM_VATOM_VISA_OPND_R)
		vt_put(s, &pos, NULL, 4 * n);
	if (v->operands & DRM_VATOM_VISA_OPND_LOD)
		vt_put(s, &pos, NULL, 4 * n);
	if (v->operands & DRM_VATOM_VISA_OPND_SRC0_IMM)
		vt_put(s, &pos, v->src0, esz);
	else if (v->operands & DRM_VATOM_VISA_OPND_SRC0)
		vt_put(s, &pos, v->src0, esz * n);
	if (v->operands & DRM_VATOM_VISA_OPND_SRC1_IMM)
		vt_put(s, &pos, v->src1, esz);
	else if (v->operands & DRM_VATOM_VISA_OPND_SRC1)
		vt_put(s, &pos, v->src1, esz * n);

	p->hdr.size = pos - s->size;
	s->size = pos;
	s->count++;
	s->results += vt_visa_result_bytes(v);
	return p;
}

/* Append a packet given as bytes (@size a multiple of 8). */
void *vt_add_raw(struct vt_stream *s, const void *pkt, __u32 size)
{
	void *p = (char *)s->buf + s->size;

	memcpy(p, pkt, size);
	s->size += size;
	s->count++;
	return p;
}

void vt_dword(struct vt_visa *v, __u8 op, __u8 exec_size, __u8 type,
	      const __u32 *addr, const __u32 *src0, const __u32 *src1, bool dst)
{
	memset(v, 0, sizeof(*v));
	v->opcode = DRM_VATOM_VISA_DWORD_ATOMIC;
	v->op = op;
	v->exec_size = exec_size;
	v->type = type;
	v->emask = 0xffffffff;
	v->addr = addr;
	v->src0 = src0;
	v->src1 = src1;
	v->operands = DRM_VATOM_VISA_OPND_ADDR;
	if (src0)
		v->operands |= DRM_VATOM_VISA_OPND_SRC0;
	if (src1)
		v->operands |= DRM_VATOM_VISA_OPND_SRC1;
	if (dst)
		v->operands |= DRM_VATOM_VISA_OPND_DST;
}

void vt_submit_args(struct drm_vatom_submit *args, const struct vt_stream *s,
		    const struct drm_vatom_binding *bind, __u32 nbind,
		    void *results, __u64 results_size)
{
	memset(args, 0, sizeof(*args));
	args->stream = vt_u64_ptr(s->buf);
	args->stream_size = s->size;
	args->bindings = nbind ? vt_u64_ptr(bind) : 0;
	args->binding_count = nbind;
	args->results = vt_u64_ptr(results);
	args->results_size = results_size;
}

int vt_run(int fd, const struct vt_stream *s, __u32 handle, void *results,
	   __u64 results_size, struct drm_vatom_submit *out)
{
	struct drm_vatom_binding bind = { .slot = 0, .handle = handle };
	struct drm_vatom_submit args;
	int ret;

	vt_submit_args(&args, s, &bind, 1, results, results_size);
	ret = vt_submit(fd, &args);
	if (out)
		*out = args;
	return ret;
}

/* ------------------------------------------------------------------------ */
/* TYPED_ATOMIC coordinates, PTX packets                                    */
/* ------------------------------------------------------------------------ */

/**
 * vt_add_visa_coords() - append a vISA packet with V, R and LOD values
 * @s: the stream
 * @v: what to encode (vt_add_visa() writes V, R and LOD as zeros)
 * @vc: V per lane, or NULL for zeros
 * @rc: R per lane, or NULL for zeros
 * @lod: LOD per lane, or NULL for zeros
 *
 * The arrays follow the ADDR array in bit order (V, R, LOD), each 8-byte
 * aligned, as the UAPI lays them out.
 *
 * Return: the packet inside the stream.
 */
struct drm_vatom_visa *vt_add_visa_coords(struct vt_stream *s,
					  const struct vt_visa *v,
					  const __u32 *vc, const __u32 *rc,
					  const __u32 *lod)
{
	struct drm_vatom_visa *p = vt_add_visa(s, v);
	__u32 n = vt_lanes(v->exec_size);
	char *pos = (char *)(p + 1);

	if (v->operands & DRM_VATOM_VISA_OPND_ADDR)
		pos += vt_align8(4 * n);
	if (v->operands & DRM_VATOM_VISA_OPND_V) {
		if (vc)
			memcpy(pos, vc, 4 * n);
		pos += vt_align8(4 * n);
	}
	if (v->operands & DRM_VATOM_VISA_OPND_R) {
		if (rc)
			memcpy(pos, rc, 4 * n);
		pos += vt_align8(4 * n);
	}
	if ((v->operands & DRM_VATOM_VISA_OPND_LOD) && lod)
		memcpy(pos, lod, 4 * n);
	return p;
}

__u32 vt_ptx_access_size(__u8 type, __u8 vec)
{
	__u32 esize;

	switch (type) {
	case DRM_VATOM_PTX_TYPE_B16:
	case DRM_VATOM_PTX_TYPE_F16:
	case DRM_VATOM_PTX_TYPE_BF16:
		esize = 2;
		break;
	case DRM_VATOM_PTX_TYPE_B32:
	case DRM_VATOM_PTX_TYPE_U32:
	case DRM_VATOM_PTX_TYPE_S32:
	case DRM_VATOM_PTX_TYPE_F32:
	case DRM_VATOM_PTX_TYPE_F16X2:
	case DRM_VATOM_PTX_TYPE_BF16X2:
		esize = 4;
		break;
	case DRM_VATOM_PTX_TYPE_B64:
	case DRM_VATOM_PTX_TYPE_U64:
	case DRM_VATOM_PTX_TYPE_S64:
	case DRM_VATOM_PTX_TYPE_F64:
		esize = 8;
		break;
	case DRM_VATOM_PTX_TYPE_B128:
		esize = 16;
		break;
	default:
		return 0;
	}
	return esize * (vec ? vec : 1);
}

void vt_ptx_init(struct drm_vatom_ptx *p, __u8 op, __u8 type, __u8 vec,
		 __u8 space, __u64 addr)
{
	memset(p, 0, sizeof(*p));
	p->hdr.type = DRM_VATOM_PACKET_PTX;
	p->hdr.size = sizeof(*p);
	p->op = op;
	p->type = type;
	p->vec = vec;
	p->space = space;
	p->addr = addr;
}

struct drm_vatom_ptx *vt_add_ptx(struct vt_stream *s,
				 const struct drm_vatom_ptx *p)
{
	struct drm_vatom_ptx *q = vt_add_raw(s, p, sizeof(*p));

	s->results += vt_align8(vt_ptx_access_size(p->type, p->vec));
	return q;
}

__u32 vt_fill_incs(__u8 *buf, __u32 size)
{
	const __u32 addr[1] = { 0 };
	__u32 units = size / 8, big = 0, pos = 0, n = 0;
	struct vt_stream *one = malloc(sizeof(*one));
	struct vt_visa v;

	/* 40a + 48b = size: 5a + 6b = units. */
	while ((units - 6 * big) % 5)
		big++;
	vt_stream_init(one);
	vt_dword(&v, DRM_VATOM_VISA_OP_INC, DRM_VATOM_VISA_EXEC_1,
		 DRM_VATOM_VISA_TYPE_UD, addr, NULL, NULL, false);
	vt_add_visa(one, &v);		/* 40 bytes */
	while (pos + 40 <= size - 48 * big) {
		memcpy(buf + pos, one->buf, 40);
		pos += 40;
		n++;
	}
	/* 48-byte INC: exec 4 (16 bytes of offsets), lanes 1..3 disabled. */
	vt_stream_init(one);
	{
		const __u32 addr4[4] = { 0, 0, 0, 0 };

		vt_dword(&v, DRM_VATOM_VISA_OP_INC, DRM_VATOM_VISA_EXEC_4,
			 DRM_VATOM_VISA_TYPE_UD, addr4, NULL, NULL, false);
		v.emask = 1;
		vt_add_visa(one, &v);
	}
	while (big--) {
		memcpy(buf + pos, one->buf, 48);
		pos += 48;
		n++;
	}
	free(one);
	return n;
}
