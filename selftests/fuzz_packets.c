// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_packets.c: vatom_fuzz's packets of every family, and the mutations of a stream (fuzz.h).
 *
 * Copyright (C) 2026 The vatom developers
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/sync_file.h>
#include <xf86drm.h>

#include "kselftest.h"

#include "common.h"
#include "fuzz.h"
#include "fuzz_trace.h"

/* ------------------------------------------------------------------------ */
/* Packets                                                                   */
/* ------------------------------------------------------------------------ */

static const __u8 vz_dword_ops[] = {
	DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_OP_SUB, DRM_VATOM_VISA_OP_INC,
	DRM_VATOM_VISA_OP_DEC, DRM_VATOM_VISA_OP_MIN, DRM_VATOM_VISA_OP_MAX,
	DRM_VATOM_VISA_OP_XCHG, DRM_VATOM_VISA_OP_CMPXCHG, DRM_VATOM_VISA_OP_AND,
	DRM_VATOM_VISA_OP_OR, DRM_VATOM_VISA_OP_XOR, DRM_VATOM_VISA_OP_IMIN,
	DRM_VATOM_VISA_OP_IMAX, DRM_VATOM_VISA_OP_PREDEC, DRM_VATOM_VISA_OP_FMAX,
	DRM_VATOM_VISA_OP_FMIN, DRM_VATOM_VISA_OP_FCMPWR,
};

/* Operand values: offsets inside @size bytes, aligned to 4 mostly. */
static void vz_lanes(struct vz_worker *w, __u32 *addr, __u32 *src0, __u32 *src1,
		     __u32 n, __u64 size)
{
	__u32 i;

	for (i = 0; i < 2 * n; i++) {
		addr[i] = 4 * vz_below(&w->rng, size / 4 ? size / 4 : 1);
		if (vz_chance(&w->rng, 3))
			addr[i] = vz_next(&w->rng);
		src0[i] = vz_chance(&w->rng, 50) ? vz_below(&w->rng, 16) : vz_next(&w->rng);
		src1[i] = vz_next(&w->rng);
	}
}

/* One vISA packet of a random form: DWORD_ATOMIC, TYPED_ATOMIC or ADDC. */
static void vz_visa(struct vz_worker *w, struct vt_stream *s, __u64 size)
{
	__u32 addr[64], src0[64], src1[64], vc[32], rc[32], lod[32];
	struct vt_visa v;
	__u32 n, i;
	__u8 exec;

	memset(&v, 0, sizeof(v));
	/*
	 * A packet may name more lanes than were drawn (a TYPED_ATOMIC is
	 * SIMD8 whatever @exec): those read 0, not the stack.
	 */
	memset(addr, 0, sizeof(addr));
	memset(src0, 0, sizeof(src0));
	memset(src1, 0, sizeof(src1));
	exec = vz_below(&w->rng, 5);
	n = 1u << exec;
	vz_lanes(w, addr, src0, src1, n, size);
	switch (vz_below(&w->rng, 3)) {
	case 0:
		vt_dword(&v, vz_dword_ops[vz_below(&w->rng, sizeof(vz_dword_ops))],
			 vt_exec(exec, vz_chance(&w->rng, 20) ? DRM_VATOM_VISA_EXEC_NM : 0),
			 vz_below(&w->rng, 5), addr, src0,
			 vz_chance(&w->rng, 30) ? src1 : NULL, vz_chance(&w->rng, 70));
		v.surface = vz_chance(&w->rng, 20) ? 5 : vz_below(&w->rng, 3);
		if (vz_chance(&w->rng, 10))
			v.op |= DRM_VATOM_VISA_OP_16;
		vt_add_visa(s, &v);
		break;
	case 1:
		for (i = 0; i < 32; i++) {
			addr[i] %= 64;
			vc[i] = vz_below(&w->rng, 32);
			rc[i] = vz_below(&w->rng, 4);
			lod[i] = vz_below(&w->rng, 3);
		}
		v.opcode = DRM_VATOM_VISA_TYPED_ATOMIC;
		v.op = vz_dword_ops[vz_below(&w->rng, 13)];
		v.exec_size = vz_chance(&w->rng, 80) ? DRM_VATOM_VISA_EXEC_8 : exec;
		v.surface = VZ_TYPED_SLOT;
		v.type = vz_below(&w->rng, 3);
		v.emask = vz_next(&w->rng);
		v.addr = addr;
		v.src0 = src0;
		v.src1 = src1;
		v.operands = DRM_VATOM_VISA_OPND_ADDR | DRM_VATOM_VISA_OPND_SRC0 |
			     (vz_chance(&w->rng, 50) ? DRM_VATOM_VISA_OPND_V : 0) |
			     (vz_chance(&w->rng, 30) ? DRM_VATOM_VISA_OPND_R : 0) |
			     (vz_chance(&w->rng, 30) ? DRM_VATOM_VISA_OPND_LOD : 0) |
			     (vz_chance(&w->rng, 70) ? DRM_VATOM_VISA_OPND_DST : 0);
		vt_add_visa_coords(s, &v, vc, rc, lod);
		break;
	default:
		v.opcode = DRM_VATOM_VISA_ADDC;
		v.exec_size = vz_below(&w->rng, 6);
		v.type = DRM_VATOM_VISA_TYPE_UD;
		v.emask = vz_chance(&w->rng, 70) ? 0xffffffff : vz_next(&w->rng);
		v.src0 = src0;
		v.src1 = src1;
		v.operands = DRM_VATOM_VISA_OPND_DST |
			     (vz_chance(&w->rng, 30) ? DRM_VATOM_VISA_OPND_SRC0_IMM :
						       DRM_VATOM_VISA_OPND_SRC0) |
			     (vz_chance(&w->rng, 30) ? DRM_VATOM_VISA_OPND_SRC1_IMM :
						       DRM_VATOM_VISA_OPND_SRC1);
		vt_add_visa(s, &v);
		break;
	}
}

/* One PTX atom on slot 0..2, aligned and in bounds most of the time. */
static void vz_ptx(struct vz_worker *w, struct vt_stream *s, __u64 size)
{
	struct drm_vatom_ptx p;
	__u8 type = 1 + vz_below(&w->rng, DRM_VATOM_PTX_TYPE_F64);
	__u8 vec = vz_chance(&w->rng, 80) ? 0 : 2u << vz_below(&w->rng, 3);
	__u32 acc = vt_ptx_access_size(type, vec);
	__u64 addr = acc && size > acc ? acc * vz_below(&w->rng, size / acc) : 0;

	vt_ptx_init(&p, 1 + vz_below(&w->rng, DRM_VATOM_PTX_OP_MAX), type, vec,
		    vz_below(&w->rng, 4), addr);
	p.slot = vz_below(&w->rng, 3);
	p.sem = vz_chance(&w->rng, 20) ? vz_below(&w->rng, 4) : 0;
	p.scope = vz_chance(&w->rng, 20) ? vz_below(&w->rng, 4) : 0;
	p.b[0] = vz_next(&w->rng);
	p.b[1] = vz_next(&w->rng);
	if (p.op == DRM_VATOM_PTX_OP_CAS) {
		p.c[0] = vz_next(&w->rng);
		p.c[1] = vz_next(&w->rng);
	}
	if (vz_chance(&w->rng, 5)) {
		p.flags = DRM_VATOM_PTX_CACHE_HINT;
		p.cache_policy = vz_next(&w->rng);
	}
	vt_add_ptx(s, &p);
}

/*
 * One NoC atomic on the grid at VZ_GRID_SLOT (a w x h grid; most of its
 * tiles are Tensix): unicast or broadcast, posted or with a response.
 */
void vz_noc(struct vz_worker *w, struct vt_stream *s, __u32 profile,
		   __u32 gw, __u32 gh)
{
	static const __u8 at_ops[] = {
		DRM_VATOM_NOC_AT_INCR, DRM_VATOM_NOC_AT_SWAP_MASK, DRM_VATOM_NOC_AT_CAS,
		DRM_VATOM_NOC_AT_SWAP_IDX6, DRM_VATOM_NOC_AT_SWAP_IDX7,
		DRM_VATOM_NOC_AT_ACC, DRM_VATOM_NOC_AT_RISCV,
	};
	struct drm_vatom_noc p;
	__u32 tx = vz_below(&w->rng, gw), ty = vz_below(&w->rng, gh);
	__u32 op = at_ops[vz_below(&w->rng, sizeof(at_ops))];

	memset(&p, 0, sizeof(p));
	p.hdr.type = DRM_VATOM_PACKET_NOC;
	p.hdr.size = sizeof(p);
	p.slot = VZ_GRID_SLOT;
	p.noc = vz_below(&w->rng, 2);
	p.x = vz_below(&w->rng, gw);
	p.y = vz_below(&w->rng, gh);
	p.targ_addr_lo = 16 * vz_below(&w->rng, 32);
	if (profile == DRM_VATOM_NOC_PROFILE_WORMHOLE)
		p.targ_addr_mid = tx << 4 | ty << 10;
	else
		p.targ_addr_hi = tx | ty << 6;
	p.ctrl = DRM_VATOM_NOC_CTRL_REQ_ATOMIC;
	p.at_len_be = op << DRM_VATOM_NOC_AT_OPCODE_SHIFT |
		      (vz_next(&w->rng) & 0xfff);
	p.at_data = vz_next(&w->rng);
	if (vz_chance(&w->rng, 30)) {
		/* Broadcast to the whole grid (0, 0) .. (w-1, h-1). */
		p.ctrl |= DRM_VATOM_NOC_CTRL_BRCST_PACKET;
		if (vz_chance(&w->rng, 50))
			p.ctrl |= DRM_VATOM_NOC_CTRL_BRCST_SRC_INCLUDE;
		if (profile == DRM_VATOM_NOC_PROFILE_WORMHOLE)
			p.targ_addr_mid = (gw - 1) << 4 | (gh - 1) << 10;
		else
			p.targ_addr_hi = (gw - 1) | (gh - 1) << 6;
	} else if (vz_chance(&w->rng, 40)) {
		p.ctrl |= DRM_VATOM_NOC_CTRL_RESP_MARKED;
		p.ret_addr_lo = 512 + 16 * vz_below(&w->rng, 16);
		if (profile == DRM_VATOM_NOC_PROFILE_WORMHOLE)
			p.ret_addr_mid = p.x << 4 | p.y << 10;
		else
			p.ret_addr_hi = p.x | p.y << 6;
		p.packet_tag = vz_below(&w->rng, 16) << DRM_VATOM_NOC_TAG_TXN_ID_SHIFT;
	}
	vt_add_raw(s, &p, sizeof(p));
}

/*
 * One packet of a family drawn among the first @families (vISA, PTX,
 * NoC): vISA and PTX addresses within @bsize bytes, NoC on the @gw x @gh
 * grid of NoC profile @profile, now and then a tile past it when @jitter.
 */
void vz_packet(struct vz_worker *w, struct vt_stream *s, __u64 bsize,
	       __u32 families, __u32 profile, __u32 gw, __u32 gh, bool jitter)
{
	switch (vz_below(&w->rng, families)) {
	case 0:
		vz_visa(w, s, bsize);
		break;
	case 1:
		vz_ptx(w, s, bsize);
		break;
	default:
		vz_noc(w, s, profile, gw + (jitter && vz_chance(&w->rng, 5)),
		       gh + (jitter && vz_chance(&w->rng, 5)));
		break;
	}
}

/*
 * The stream's bytes at the end of the worker's stream buffer, as far as
 * they go (reading past them faults, the next page being PROT_NONE).
 * Return: where they start.
 */
__u8 *vz_stream_place(struct vz_worker *w, const struct vt_stream *s)
{
	__u32 len = s->size < VT_STREAM_MAX ? s->size : VT_STREAM_MAX;
	__u8 *p = w->stream + VZ_STREAM - vt_align8(len);

	memcpy(p, s->buf, len);
	return p;
}

/* Flip, overwrite or resize something in a built stream. */
void vz_mutate_stream(struct vz_worker *w, struct vt_stream *s)
{
	__u8 *b = (__u8 *)s->buf;
	struct drm_vatom_packet *h = (void *)b;

	if (!s->size)
		return;
	switch (vz_below(&w->rng, 8)) {
	case 0:
		b[vz_below(&w->rng, s->size)] ^= 1u << vz_below(&w->rng, 8);
		break;
	case 1:
		b[vz_below(&w->rng, s->size)] = vz_next(&w->rng);
		break;
	case 2:
		h->size = vz_chance(&w->rng, 50) ? h->size + 8 * (int)(vz_below(&w->rng, 5) - 2) :
			  (__u32)vz_next(&w->rng);
		break;
	case 3:
		h->type = vz_below(&w->rng, 6);
		break;
	case 4:
		((__u32 *)b)[vz_below(&w->rng, s->size / 4)] = vz_next(&w->rng);
		break;
	case 5:
		s->size -= 8 * vz_below(&w->rng, s->size / 8 + 1);
		break;
	case 6:
		s->size += 8 * (1 + vz_below(&w->rng, 4));
		break;
	default:
		s->size |= 1 + vz_below(&w->rng, 7);	/* not a multiple of 8 */
		break;
	}
}

