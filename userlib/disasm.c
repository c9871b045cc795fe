// SPDX-License-Identifier: MIT
/*
 * libvatom: the text form of an encoded packet, in the syntax the ISA
 * text front end reads (asm_visa.c, asm_ptx.c, asm_noc.c), with every
 * operand value written out, so that assembling the text again gives the
 * same bytes. vISA operand vectors and the exec/predicate masks, PTX
 * values in hex (the raw bits), NoC requests as their register image with
 * the NOC_AT_LEN_BE fields decoded in a comment.
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* Append to a bounded buffer; keeps counting past the end like snprintf. */
struct sbuf {
	char *buf;
	size_t len;
	int n;
};

static void __attribute__((format(printf, 2, 3)))
sb_printf(struct sbuf *sb, const char *fmt, ...)
{
	size_t used = (size_t)sb->n < sb->len ? (size_t)sb->n : sb->len;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(sb->buf ? sb->buf + used : NULL,
		      sb->buf ? sb->len - used : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		sb->n += n;
}

/* One operand array of @n elements of @w bytes at *@cur; advances it. */
static bool visa_array(struct sbuf *sb, const uint8_t **cur,
		       const uint8_t *end, unsigned int n, unsigned int w)
{
	unsigned int i;
	uint64_t v;

	if ((size_t)(end - *cur) < (size_t)n * w)
		return false;
	sb_printf(sb, " {");
	for (i = 0; i < n; i++) {
		v = 0;
		memcpy(&v, *cur + (size_t)i * w, w);
		sb_printf(sb, "%s0x%" PRIx64, i ? ", " : "", v);
	}
	sb_printf(sb, "}");
	*cur += ((size_t)n * w + 7) & ~(size_t)7;
	return true;
}

static void visa_text(struct sbuf *sb, const struct drm_vatom_visa *p,
		      size_t size)
{
	unsigned int ctrl = p->exec_size >> DRM_VATOM_VISA_EXEC_MASK_SHIFT;
	unsigned int n = 1u << (p->exec_size & DRM_VATOM_VISA_EXEC_SIZE_MASK);
	const uint8_t *cur = (const uint8_t *)(p + 1);
	const uint8_t *end = (const uint8_t *)p + size;
	unsigned int w = p->type == DRM_VATOM_VISA_TYPE_UQ ||
			 p->type == DRM_VATOM_VISA_TYPE_Q ? 8 : 4;
	static const uint32_t addr_bits[] = {
		DRM_VATOM_VISA_OPND_ADDR, DRM_VATOM_VISA_OPND_V,
		DRM_VATOM_VISA_OPND_R, DRM_VATOM_VISA_OPND_LOD,
	};
	uint32_t ops = p->operands;
	const char *name;
	unsigned int i;
	uint32_t imm;

	if (p->flags & DRM_VATOM_VISA_PREDICATED)
		sb_printf(sb, "(0x%" PRIx32 ") ", p->pred);
	if (p->opcode == DRM_VATOM_VISA_ADDC) {
		sb_printf(sb, "ADDC");
	} else if (p->opcode == DRM_VATOM_VISA_DWORD_ATOMIC ||
		   p->opcode == DRM_VATOM_VISA_TYPED_ATOMIC) {
		name = vatom_visa_op_name(p->op & DRM_VATOM_VISA_OP_MASK);
		sb_printf(sb, "%s.%s%s", p->opcode == DRM_VATOM_VISA_DWORD_ATOMIC ?
			  "DWORD_ATOMIC" : "TYPED_ATOMIC", name ? name : "?",
			  (p->op & DRM_VATOM_VISA_OP_16) ? ".16" : "");
	} else {
		sb_printf(sb, "// vISA opcode 0x%02x", p->opcode);
		return;
	}
	sb_printf(sb, " (M%u%s, %u)", (ctrl & 7) + 1,
		  (ctrl & DRM_VATOM_VISA_EXEC_NM) ? "_NM" : "", n);
	if (p->opcode == DRM_VATOM_VISA_ADDC) {
		sb_printf(sb, " dst carry");
		for (i = 0; i < 2; i++) {
			uint32_t lanes = i ? DRM_VATOM_VISA_OPND_SRC1 :
					 DRM_VATOM_VISA_OPND_SRC0;

			if (ops & lanes) {
				if (!visa_array(sb, &cur, end, n, 4))
					goto short_packet;
			} else if (end - cur >= 4) {
				memcpy(&imm, cur, 4);
				sb_printf(sb, " 0x%" PRIx32, imm);
				cur += 8;
			} else {
				goto short_packet;
			}
		}
	} else {
		sb_printf(sb, " %s", p->surface == VATOM_T255 ? "T255" : "");
		if (p->surface != VATOM_T255)
			sb_printf(sb, "T%u", p->surface);
		for (i = 0; i < 4; i++) {
			if (i && p->opcode == DRM_VATOM_VISA_DWORD_ATOMIC)
				break;
			if (!(ops & addr_bits[i]))
				sb_printf(sb, " V0");
			else if (!visa_array(sb, &cur, end, n, 4))
				goto short_packet;
		}
		for (i = 0; i < 2; i++) {
			if (!(ops & (i ? DRM_VATOM_VISA_OPND_SRC1 :
				     DRM_VATOM_VISA_OPND_SRC0)))
				sb_printf(sb, " V0");
			else if (!visa_array(sb, &cur, end, n, w))
				goto short_packet;
		}
		sb_printf(sb, " %s", (ops & DRM_VATOM_VISA_OPND_DST) ? "dst" : "V0");
		name = vatom_visa_type_name(p->type, false);
		sb_printf(sb, " type=%s", name ? name : "?");
	}
	if (p->emask != 0xffffffffu)
		sb_printf(sb, " emask=0x%08" PRIx32, p->emask);
	return;
short_packet:
	sb_printf(sb, " // (operands past the packet's end)");
}

static void ptx_value(struct sbuf *sb, const uint64_t *val, int size,
		      unsigned int vec)
{
	unsigned int i, esize = vec ? (unsigned int)size / vec : 0;
	const uint8_t *bytes = (const uint8_t *)val;

	if (!vec) {
		if (size == 16)
			sb_printf(sb, "0x%016" PRIx64 "%016" PRIx64, val[1], val[0]);
		else if (size == 8)
			sb_printf(sb, "0x%" PRIx64, val[0]);
		else
			sb_printf(sb, "0x%" PRIx64,
				  val[0] & (((uint64_t)1 << (8 * size)) - 1));
		return;
	}
	sb_printf(sb, "{");
	for (i = 0; i < vec; i++) {
		uint64_t e = 0;

		memcpy(&e, bytes + i * esize, esize);
		sb_printf(sb, "%s0x%" PRIx64, i ? ", " : "", e);
	}
	sb_printf(sb, "}");
}

static void qual(struct sbuf *sb, unsigned int kind, unsigned int v)
{
	const char *n = vatom_ptx_qualifier_name(kind, v);

	if (!n)
		sb_printf(sb, ".?");
	else if (*n)
		sb_printf(sb, ".%s", n);
}

static void ptx_text(struct sbuf *sb, const struct drm_vatom_ptx *p)
{
	int size = vatom_ptx_access_size(p->type, p->vec);
	const char *op = vatom_ptx_op_name(p->op);
	const char *type = vatom_ptx_type_name(p->type);
	unsigned int i;

	sb_printf(sb, "atom");
	qual(sb, VATOM_PTX_SEM, p->sem);
	qual(sb, VATOM_PTX_SCOPE, p->scope);
	qual(sb, VATOM_PTX_SPACE, p->space);
	sb_printf(sb, ".%s%s%s", op ? op : "?",
		  (p->flags & DRM_VATOM_PTX_NOFTZ) ? ".noftz" : "",
		  (p->flags & DRM_VATOM_PTX_CACHE_HINT) ? ".L2::cache_hint" : "");
	if (p->vec)
		sb_printf(sb, ".v%u", p->vec);
	sb_printf(sb, ".%s ", type ? type : "?");
	if (p->vec) {
		sb_printf(sb, "{");
		for (i = 0; i < p->vec; i++)
			sb_printf(sb, "%sd%u", i ? ", " : "", i);
		sb_printf(sb, "}");
	} else {
		sb_printf(sb, "d");
	}
	sb_printf(sb, ", [T%u+0x%" PRIx64 "], ", p->slot, (uint64_t)p->addr);
	if (size < 0) {
		sb_printf(sb, "?;");
		return;
	}
	ptx_value(sb, (const uint64_t *)p->b, size, p->vec);
	if (p->op == DRM_VATOM_PTX_OP_CAS) {
		sb_printf(sb, ", ");
		ptx_value(sb, (const uint64_t *)p->c, size, p->vec);
	}
	if (p->flags & DRM_VATOM_PTX_CACHE_HINT)
		sb_printf(sb, ", 0x%" PRIx64, (uint64_t)p->cache_policy);
	sb_printf(sb, ";");
}

static void noc_text(struct sbuf *sb, const struct drm_vatom_noc *p)
{
	uint32_t at = p->at_len_be;
	int v = vatom_noc_variant(at);

	sb_printf(sb, "noc T%u (%u,%u) noc=%u NOC_TARG_ADDR_LO=0x%" PRIx32
		  " NOC_TARG_ADDR_MID=0x%" PRIx32 " NOC_TARG_ADDR_HI=0x%" PRIx32
		  " NOC_RET_ADDR_LO=0x%" PRIx32 " NOC_RET_ADDR_MID=0x%" PRIx32
		  " NOC_RET_ADDR_HI=0x%" PRIx32 " NOC_PACKET_TAG=0x%" PRIx32
		  " NOC_CTRL=0x%" PRIx32 " NOC_AT_LEN_BE=0x%" PRIx32
		  " NOC_AT_DATA=0x%" PRIx32, p->slot, p->x, p->y, p->noc,
		  p->targ_addr_lo, p->targ_addr_mid, p->targ_addr_hi,
		  p->ret_addr_lo, p->ret_addr_mid, p->ret_addr_hi,
		  p->packet_tag, p->ctrl, at, p->at_data);
	sb_printf(sb, "  // %s", v < 0 ? "reserved opcode" :
		  vatom_noc_variant_name((unsigned int)v));
	switch (v) {
	case VATOM_NOC_VAR_INCREMENT:
		sb_printf(sb, " ofs=%u width=%u", at & 3, (at >> 2) & 31);
		break;
	case VATOM_NOC_VAR_CAS:
		sb_printf(sb, " ofs=%u cmp=%u set=%u", at & 3, (at >> 2) & 15,
			  (at >> 6) & 15);
		break;
	case VATOM_NOC_VAR_SWAP_MASK:
		sb_printf(sb, " mask=0x%02x", (at >> 2) & 0xff);
		break;
	case VATOM_NOC_VAR_SWAP_INDEX7:
		sb_printf(sb, " ofs=%u", (at >> 2) & 3);
		break;
	case VATOM_NOC_VAR_ACC:
		sb_printf(sb, " fmt=%u", at & 15);
		break;
	case -1:
		break;
	default:
		sb_printf(sb, " ofs=%u", at & 3);
		break;
	}
	if (p->ctrl & DRM_VATOM_NOC_CTRL_RESP_MARKED)
		sb_printf(sb, ", marked");
	if (p->ctrl & DRM_VATOM_NOC_CTRL_BRCST_PACKET)
		sb_printf(sb, ", broadcast");
}

VATOM_API int vatom_disasm(const void *pkt, size_t size, char *buf,
			   size_t len)
{
	const struct drm_vatom_packet *hdr = pkt;
	struct sbuf sb = { buf, len, 0 };

	if (buf && len)
		buf[0] = '\0';
	if (!pkt || size < sizeof(*hdr)) {
		sb_printf(&sb, "// truncated packet");
		return sb.n;
	}
	if (hdr->size < size)
		size = hdr->size;
	switch (hdr->type) {
	case DRM_VATOM_PACKET_VISA:
		if (size >= sizeof(struct drm_vatom_visa))
			visa_text(&sb, pkt, size);
		else
			sb_printf(&sb, "// short vISA packet");
		break;
	case DRM_VATOM_PACKET_PTX:
		if (size >= sizeof(struct drm_vatom_ptx))
			ptx_text(&sb, pkt);
		else
			sb_printf(&sb, "// short PTX packet");
		break;
	case DRM_VATOM_PACKET_NOC:
		if (size >= sizeof(struct drm_vatom_noc))
			noc_text(&sb, pkt);
		else
			sb_printf(&sb, "// short NoC packet");
		break;
	default:
		sb_printf(&sb, "// packet type %" PRIu32 ", %" PRIu32 " bytes",
			  hdr->type, hdr->size);
		break;
	}
	return sb.n;
}
