// SPDX-License-Identifier: MIT
/*
 * vatom tool: the text form of encoded packets, decoded from the very bytes
 * that are submitted (so what is printed is what the device received).
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "vatom_tool.h"

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

const char *visa_surface_name(unsigned int slot, char *buf, size_t len)
{
	if (slot == VATOM_T255)
		snprintf(buf, len, "T255");
	else
		snprintf(buf, len, "T%u", slot);
	return buf;
}

/* The library's names (one table each, userlib/strerror.c), "?" for none. */
static const char *or_q(const char *name)
{
	return name ? name : "?";
}

static void visa_text(struct sbuf *sb, const struct drm_vatom_visa *p)
{
	unsigned int ctrl = p->exec_size >> DRM_VATOM_VISA_EXEC_MASK_SHIFT;
	unsigned int n = 1u << (p->exec_size & DRM_VATOM_VISA_EXEC_SIZE_MASK);
	uint32_t ops = p->operands;
	const char *name;
	char surf[16];

	if (p->flags & DRM_VATOM_VISA_PREDICATED)
		sb_printf(sb, "(P1) ");
	switch (p->opcode) {
	case DRM_VATOM_VISA_DWORD_ATOMIC:
	case DRM_VATOM_VISA_TYPED_ATOMIC:
		name = vatom_visa_op_name(p->op & DRM_VATOM_VISA_OP_MASK);
		sb_printf(sb, "%s.",
			  p->opcode == DRM_VATOM_VISA_DWORD_ATOMIC ?
			  "DWORD_ATOMIC" : "TYPED_ATOMIC");
		if (name)
			sb_printf(sb, "%s", name);
		else
			sb_printf(sb, "OP%u", p->op & DRM_VATOM_VISA_OP_MASK);
		if (p->op & DRM_VATOM_VISA_OP_16)
			sb_printf(sb, ".16");
		break;
	case DRM_VATOM_VISA_ADDC:
		sb_printf(sb, "ADDC");
		break;
	default:
		sb_printf(sb, "vISA opcode 0x%02x", p->opcode);
		return;
	}
	sb_printf(sb, " (M%u%s, %u)", (ctrl & 7) + 1,
		  (ctrl & DRM_VATOM_VISA_EXEC_NM) ? "_NM" : "", n);

	if (p->opcode == DRM_VATOM_VISA_ADDC) {
		/* [(P)] ADDC (<exec_size>) <dst> <carry> <src0> <src1> */
		sb_printf(sb, " dst carry %s %s",
			  (ops & DRM_VATOM_VISA_OPND_SRC0_IMM) ? "imm0" : "src0",
			  (ops & DRM_VATOM_VISA_OPND_SRC1_IMM) ? "imm1" : "src1");
	} else {
		sb_printf(sb, " %s", visa_surface_name(p->surface, surf,
						       sizeof(surf)));
		if (p->opcode == DRM_VATOM_VISA_DWORD_ATOMIC) {
			sb_printf(sb, " %s", (ops & DRM_VATOM_VISA_OPND_ADDR) ?
				  "offsets" : "V0");
		} else {
			sb_printf(sb, " %s %s %s %s",
				  (ops & DRM_VATOM_VISA_OPND_ADDR) ? "u" : "V0",
				  (ops & DRM_VATOM_VISA_OPND_V) ? "v" : "V0",
				  (ops & DRM_VATOM_VISA_OPND_R) ? "r" : "V0",
				  (ops & DRM_VATOM_VISA_OPND_LOD) ? "lod" : "V0");
		}
		sb_printf(sb, " %s %s %s",
			  (ops & DRM_VATOM_VISA_OPND_SRC0) ? "src0" : "V0",
			  (ops & DRM_VATOM_VISA_OPND_SRC1) ? "src1" : "V0",
			  (ops & DRM_VATOM_VISA_OPND_DST) ? "dst" : "V0");
	}
	sb_printf(sb, "    // %s", or_q(vatom_visa_type_name(p->type, false)));
	if (!(ctrl & DRM_VATOM_VISA_EXEC_NM))
		sb_printf(sb, ", emask 0x%08" PRIx32, p->emask);
	if (p->flags & DRM_VATOM_VISA_PREDICATED)
		sb_printf(sb, ", P1 = 0x%08" PRIx32, p->pred);
}

/* ".qualifier", or "" for PTX's default (which it does not write). */
static const char *ptx_qual(char *buf, size_t len, unsigned int kind,
			    unsigned int value)
{
	const char *name = vatom_ptx_qualifier_name(kind, value);

	if (!name)
		name = "?";
	snprintf(buf, len, "%s%s", *name ? "." : "", name);
	return buf;
}

/* A b or c operand: the scalar, or the vector's elements, in hex. */
static void ptx_value(struct sbuf *sb, const void *val, int size,
		      unsigned int vec)
{
	unsigned int i, esize = vec ? (unsigned int)size / vec : 0;
	uint8_t bytes[16];
	uint64_t v[2];

	memcpy(bytes, val, sizeof(bytes));
	memcpy(v, val, sizeof(v));
	if (!vec) {
		if (size == 16)
			sb_printf(sb, "0x%016" PRIx64 "%016" PRIx64, v[1], v[0]);
		else if (size == 8)
			sb_printf(sb, "0x%" PRIx64, v[0]);
		else
			sb_printf(sb, "0x%" PRIx64,
				  v[0] & (((uint64_t)1 << (8 * size)) - 1));
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

static void ptx_text(struct sbuf *sb, const struct drm_vatom_ptx *p)
{
	int size = vatom_ptx_access_size(p->type, p->vec);
	char sem[24], scope[24], space[24];

	/* atom{.sem}{.scope}{.space}.op{.noftz}{.level::cache_hint}{.vec}.type */
	sb_printf(sb, "atom%s%s%s.%s%s%s",
		  ptx_qual(sem, sizeof(sem), VATOM_PTX_SEM, p->sem),
		  ptx_qual(scope, sizeof(scope), VATOM_PTX_SCOPE, p->scope),
		  ptx_qual(space, sizeof(space), VATOM_PTX_SPACE, p->space),
		  or_q(vatom_ptx_op_name(p->op)),
		  (p->flags & DRM_VATOM_PTX_NOFTZ) ? ".noftz" : "",
		  (p->flags & DRM_VATOM_PTX_CACHE_HINT) ? ".L2::cache_hint" : "");
	if (p->vec)
		sb_printf(sb, ".v%u", p->vec);
	sb_printf(sb, ".%s d, [T%u+0x%" PRIx64 "], ",
		  or_q(vatom_ptx_type_name(p->type)),
		  p->slot, (uint64_t)p->addr);
	if (size < 0) {
		sb_printf(sb, "?");
		return;
	}
	ptx_value(sb, p->b, size, p->vec);
	if (p->op == DRM_VATOM_PTX_OP_CAS) {
		sb_printf(sb, ", ");
		ptx_value(sb, p->c, size, p->vec);
	}
	if (p->flags & DRM_VATOM_PTX_CACHE_HINT)
		sb_printf(sb, ", 0x%" PRIx64, (uint64_t)p->cache_policy);
	sb_printf(sb, ";");
}

static const char *const zaamo_ops[] = {
	"amoadd", "amoxor", "amoor", "amoand",
	"amomin", "amomax", "amominu", "amomaxu",
};

/* NOC_AT_LEN_BE decoded per variant (shared/spec/noc-atomics.md 1.2). */
static void noc_at_text(struct sbuf *sb, uint32_t at)
{
	switch ((at >> 12) & 0xf) {
	case 0x1:
		sb_printf(sb, "INCREMENT ofs=%u int_width=%u", at & 3,
			  (at >> 2) & 31);
		break;
	case 0x3:
		sb_printf(sb, "SWAP_MASK mask=0x%02x", (at >> 2) & 0xff);
		break;
	case 0x4:
		sb_printf(sb, "CAS ofs=%u cmp=%u set=%u", at & 3,
			  (at >> 2) & 15, (at >> 6) & 15);
		break;
	case 0x6:
		sb_printf(sb, "SWAP_INDEX6 ofs=%u", at & 3);
		break;
	case 0x7:
		sb_printf(sb, "SWAP_INDEX7 ofs=%u", (at >> 2) & 3);
		break;
	case 0x9:
		sb_printf(sb, "ACC fmt=%u", at & 15);
		break;
	case 0xa:
		if (at & (1u << 11))
			sb_printf(sb, "ZAAMO %s ofs=%u",
				  zaamo_ops[(at >> 8) & 7], at & 3);
		else
			sb_printf(sb, "SWAP_INDEX10 ofs=%u", at & 3);
		break;
	default:
		sb_printf(sb, "opcode 0x%x", (at >> 12) & 0xf);
		break;
	}
}

static void noc_text(struct sbuf *sb, const struct drm_vatom_noc *p)
{
	sb_printf(sb, "NOC%u tile (%u, %u) T%u: ", p->noc, p->x, p->y, p->slot);
	noc_at_text(sb, p->at_len_be);
	sb_printf(sb, " data=0x%08" PRIx32 " targ=%08" PRIx32 ":%08" PRIx32
		  ":%08" PRIx32 " ret=%08" PRIx32 ":%08" PRIx32 ":%08" PRIx32
		  " tag=0x%" PRIx32 " ctrl=0x%" PRIx32, p->at_data,
		  p->targ_addr_hi, p->targ_addr_mid, p->targ_addr_lo,
		  p->ret_addr_hi, p->ret_addr_mid, p->ret_addr_lo,
		  p->packet_tag, p->ctrl);
}

int disasm_packet(const void *pkt, size_t size, char *buf, size_t len)
{
	const struct drm_vatom_packet *hdr = pkt;
	struct sbuf sb = { buf, len, 0 };

	if (buf && len)
		buf[0] = '\0';
	if (size < sizeof(*hdr)) {
		sb_printf(&sb, "(truncated packet)");
		return sb.n;
	}
	switch (hdr->type) {
	case DRM_VATOM_PACKET_VISA:
		if (size >= sizeof(struct drm_vatom_visa))
			visa_text(&sb, pkt);
		else
			sb_printf(&sb, "(short vISA packet)");
		break;
	case DRM_VATOM_PACKET_PTX:
		if (size >= sizeof(struct drm_vatom_ptx))
			ptx_text(&sb, pkt);
		else
			sb_printf(&sb, "(short PTX packet)");
		break;
	case DRM_VATOM_PACKET_NOC:
		if (size >= sizeof(struct drm_vatom_noc))
			noc_text(&sb, pkt);
		else
			sb_printf(&sb, "(short NoC packet)");
		break;
	default:
		sb_printf(&sb, "packet type %" PRIu32 ", %" PRIu32 " bytes",
			  hdr->type, hdr->size);
		break;
	}
	return sb.n;
}
