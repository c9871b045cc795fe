// SPDX-License-Identifier: MIT
/*
 * libvatom ISA text front end: Tenstorrent NoC atomic requests, as the
 * register image software writes to the initiator's NIU, or symbolically:
 *
 *   noc <grid> (<x>,<y>) [noc=1] NOC_TARG_ADDR_LO=<v> NOC_TARG_ADDR_MID=<v>
 *       NOC_TARG_ADDR_HI=<v> NOC_RET_ADDR_LO=<v> ... NOC_PACKET_TAG=<v>
 *       NOC_CTRL=<v> NOC_AT_LEN_BE=<v> NOC_AT_DATA=<v>
 *
 *   noc.<variant> <grid> (<x>,<y>) -> (<tx>,<ty>)+<addr> [<option>...]
 *   noc.<variant> <grid> (<x>,<y>) -> (<x0>,<y0>)..(<x1>,<y1>)+<addr> ...
 *
 * Variants: incr (width=0..31, 31 by default), cas (cmp= set=), swap
 * (mask=), swap6, swap7, swap10, amoadd, amoxor, amoor, amoand, amomin,
 * amomax, amominu, amomaxu and acc (fmt=fp32|fp16|bf16|u32|u8_sat|u8 or
 * 0..15). Options: data=<NOC_AT_DATA>, ofs=<word> (default: the target
 * address's word in its 16 bytes, as the document recommends),
 * ret=(<x>,<y>)+<addr> (a marked request: the response goes there),
 * txn=<0..15>, noc=<0|1>, ctrl=<more NOC_CTRL bits>. The grid is T<slot>
 * or a grid symbol (vatom_asm_define_grid()), which also gives the
 * register layout (Wormhole, Blackhole).
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"

static const char *const regs[] = {
	"NOC_TARG_ADDR_LO", "NOC_TARG_ADDR_MID", "NOC_TARG_ADDR_HI",
	"NOC_RET_ADDR_LO", "NOC_RET_ADDR_MID", "NOC_RET_ADDR_HI",
	"NOC_PACKET_TAG", "NOC_CTRL", "NOC_AT_LEN_BE", "NOC_AT_DATA",
};

static uint32_t *reg_of(struct vatom_noc_req *r, unsigned int i)
{
	uint32_t *const f[] = {
		&r->targ_addr_lo, &r->targ_addr_mid, &r->targ_addr_hi,
		&r->ret_addr_lo, &r->ret_addr_mid, &r->ret_addr_hi,
		&r->packet_tag, &r->ctrl, &r->at_len_be, &r->at_data,
	};

	return f[i];
}

static int grid(struct asm_cur *c, struct vatom_noc_req *r,
		unsigned int *profile)
{
	const struct asm_sym *s;
	char name[ASM_NAME_MAX];
	const char *at;
	char *end;
	unsigned long t;

	asm_ws(c);
	at = c->p;
	if (asm_ident(c, name, sizeof(name)) < 0)
		return asm_expected(c, "a tile grid (T<slot> or a grid name)");
	*profile = c->a->noc_profile;
	if (name[0] == 'T' && isdigit((unsigned char)name[1])) {
		t = strtoul(name + 1, &end, 10);
		if (!*end && t < DRM_VATOM_MAX_SLOTS) {
			r->slot = (uint8_t)t;
			return 0;
		}
	}
	s = asm_find(c->a, name, ASM_SYM_GRID);
	if (!s) {
		c->p = at;
		return asm_err(c, "unknown tile grid '%s'", name);
	}
	r->slot = (uint8_t)s->slot;
	*profile = s->profile;
	return 0;
}

/* (x,y) */
static int coords(struct asm_cur *c, unsigned int *x, unsigned int *y)
{
	uint64_t vx, vy;
	const char *at;

	asm_ws(c);
	at = c->p;
	if (!asm_lit(c, "("))
		return asm_expected(c, "'(' and tile coordinates (x,y)");
	if (asm_number(c, ASM_INT, &vx))
		return -EINVAL;
	if (!asm_lit(c, ","))
		return asm_expected(c, "','");
	if (asm_number(c, ASM_INT, &vy))
		return -EINVAL;
	if (!asm_lit(c, ")"))
		return asm_expected(c, "')'");
	if (vx > DRM_VATOM_NOC_COORD_MASK || vy > DRM_VATOM_NOC_COORD_MASK) {
		c->p = at;
		return asm_err(c, "tile coordinates are 0 to 63");
	}
	*x = (unsigned int)vx;
	*y = (unsigned int)vy;
	return 0;
}

static int u32_value(struct asm_cur *c, const char *what, uint64_t max,
		     uint32_t *out)
{
	const char *at;
	uint64_t v;

	asm_ws(c);
	at = c->p;
	if (asm_value(c, what, ASM_INT, &v))
		return -EINVAL;
	if (v > max) {
		c->p = at;
		return asm_err(c, "%s is at most 0x%llx", what,
			       (unsigned long long)max);
	}
	*out = (uint32_t)v;
	return 0;
}

static int register_image(struct asm_cur *c, struct vatom_noc_req *r)
{
	char name[ASM_NAME_MAX];
	const char *at;
	unsigned int i;
	uint32_t v;

	while (!asm_eol(c)) {
		at = c->p;
		if (asm_lit(c, "noc=")) {
			if (u32_value(c, "noc", 1, &v))
				return -EINVAL;
			r->noc = (uint8_t)v;
			continue;
		}
		if (asm_ident(c, name, sizeof(name)) < 0)
			return asm_expected(c, "a register (NOC_TARG_ADDR_LO=...)");
		for (i = 0; i < ARRAY_SIZE(regs); i++)
			if (!strcasecmp(name, regs[i]))
				break;
		/* the document's names, case-sensitive as mnemonics are */
		if (i < ARRAY_SIZE(regs) && strcmp(name, regs[i])) {
			c->p = at;
			return asm_err(c, "register names are case-sensitive: write '%s'",
				       regs[i]);
		}
		if (i == ARRAY_SIZE(regs)) {
			c->p = at;
			return asm_err(c, "unknown register '%s' (expected NOC_TARG_ADDR_LO/MID/HI, NOC_RET_ADDR_LO/MID/HI, NOC_PACKET_TAG, NOC_CTRL, NOC_AT_LEN_BE or NOC_AT_DATA)",
				       name);
		}
		if (!asm_lit(c, "="))
			return asm_expected(c, "'='");
		if (u32_value(c, regs[i], 0xffffffffu, reg_of(r, i)))
			return -EINVAL;
	}
	return 0;
}

static const struct {
	const char *name;
	unsigned int fmt;
} acc_fmts[] = {
	{ "fp32", DRM_VATOM_NOC_ACC_FP32 }, { "fp16", DRM_VATOM_NOC_ACC_FP16 },
	{ "bf16", DRM_VATOM_NOC_ACC_BF16 }, { "u32", DRM_VATOM_NOC_ACC_U32 },
	{ "u8_sat", DRM_VATOM_NOC_ACC_U8_SAT }, { "u8", DRM_VATOM_NOC_ACC_U8 },
};

struct noc_opts {
	int variant;		/* VATOM_NOC_* of vatom_noc_variant_name() */
	uint32_t data, ofs, width, cmp, set, mask, fmt, txn, ctrl;
	bool has_ofs, has_ret, has_cmp, has_set, has_mask, has_fmt;
	unsigned int rx, ry;
	uint64_t raddr;
};

static int option(struct asm_cur *c, struct noc_opts *o, struct vatom_noc_req *r)
{
	char name[16];
	const char *at;
	uint32_t v;
	unsigned int i;

	asm_ws(c);
	at = c->p;
	if (asm_ident(c, name, sizeof(name)) < 0 || !asm_lit(c, "=")) {
		c->p = at;
		return asm_expected(c, "an option (data=, ofs=, ret=, txn=, noc=, ctrl=, ...)");
	}
	if (!strcmp(name, "ret")) {
		if (coords(c, &o->rx, &o->ry))
			return -EINVAL;
		o->raddr = 0;
		if (asm_lit(c, "+") && asm_number(c, ASM_INT, &o->raddr))
			return -EINVAL;
		o->has_ret = true;
		return 0;
	}
	if (!strcmp(name, "fmt")) {
		asm_ws(c);
		for (i = 0; i < ARRAY_SIZE(acc_fmts); i++) {
			size_t n = strlen(acc_fmts[i].name);

			if (!strncmp(c->p, acc_fmts[i].name, n) &&
			    !isalnum((unsigned char)c->p[n]) && c->p[n] != '_') {
				c->p += n;
				o->fmt = acc_fmts[i].fmt;
				o->has_fmt = true;
				return 0;
			}
		}
		if (!isdigit((unsigned char)*c->p)) {
			at = c->p;
			while (isalnum((unsigned char)*c->p) || *c->p == '_')
				c->p++;
			i = (unsigned int)(c->p - at);
			c->p = at;
			return asm_err(c, "unknown fmt '%.*s' (expected fp32, fp16, bf16, u32, u8_sat, u8 or a number 0 to 15)",
				       (int)i, at);
		}
		if (u32_value(c, "fmt", 15, &o->fmt))
			return -EINVAL;
		o->has_fmt = true;
		return 0;
	}
	if (!strcmp(name, "data"))
		return u32_value(c, "data", 0xffffffffu, &o->data);
	if (!strcmp(name, "ctrl"))
		return u32_value(c, "ctrl", 0xffffffffu, &o->ctrl);
	if (!strcmp(name, "txn"))
		return u32_value(c, "txn", 15, &o->txn);
	if (!strcmp(name, "noc")) {
		if (u32_value(c, "noc", 1, &v))
			return -EINVAL;
		r->noc = (uint8_t)v;
		return 0;
	}
	if (!strcmp(name, "ofs")) {
		o->has_ofs = true;
		return u32_value(c, "ofs", 3, &o->ofs);
	}
	if (!strcmp(name, "width"))
		return u32_value(c, "width", 31, &o->width);
	if (!strcmp(name, "cmp")) {
		o->has_cmp = true;
		return u32_value(c, "cmp", 15, &o->cmp);
	}
	if (!strcmp(name, "set")) {
		o->has_set = true;
		return u32_value(c, "set", 15, &o->set);
	}
	if (!strcmp(name, "mask")) {
		o->has_mask = true;
		return u32_value(c, "mask", 0xff, &o->mask);
	}
	c->p = at;
	return asm_err(c, "unknown option '%s' (expected data=, ofs=, width=, cmp=, set=, mask=, fmt=, ret=, txn=, noc= or ctrl=)",
		       name);
}

static uint32_t at_len_be(const struct noc_opts *o)
{
	switch (o->variant) {
	case VATOM_NOC_VAR_INCREMENT:
		return vatom_noc_at_increment(o->ofs, o->width);
	case VATOM_NOC_VAR_CAS:
		return vatom_noc_at_cas(o->ofs, o->cmp, o->set);
	case VATOM_NOC_VAR_SWAP_MASK:
		return vatom_noc_at_swap_mask(o->mask);
	case VATOM_NOC_VAR_SWAP_INDEX6:
		return vatom_noc_at_swap_index6(o->ofs);
	case VATOM_NOC_VAR_SWAP_INDEX7:
		return vatom_noc_at_swap_index7(o->ofs);
	case VATOM_NOC_VAR_SWAP_INDEX10:
		return vatom_noc_at_swap_index10(o->ofs);
	case VATOM_NOC_VAR_ACC:
		return vatom_noc_at_acc(o->fmt);
	default:
		return vatom_noc_at_zaamo((unsigned int)(o->variant - VATOM_NOC_VAR_AMOADD),
					  o->ofs);
	}
}

static int symbolic(struct asm_cur *c, const char *variant,
		    struct vatom_noc_req *r)
{
	struct noc_opts o = { .width = 31, .variant = -1 };
	unsigned int profile, x, y, x1, y1, i;
	bool brcst = false;
	uint64_t addr = 0;
	const char *at;
	int ret;

	for (i = 0; i < VATOM_NOC_VARIANTS; i++)
		if (!strcmp(variant, vatom_noc_variant_name(i)))
			o.variant = (int)i;
	if (o.variant < 0)
		c->p -= strlen(variant);	/* errors point at the variant */
	for (i = 0; o.variant < 0 && i < VATOM_NOC_VARIANTS; i++)
		if (!strcasecmp(variant, vatom_noc_variant_name(i)))
			return asm_err(c, "mnemonics are case-sensitive: write 'noc.%s'",
				       vatom_noc_variant_name(i));
	if (o.variant < 0)
		return asm_err(c, "unknown NoC atomic '%s' (expected incr, cas, swap, swap6, swap7, swap10, acc or amoadd..amomaxu)",
			       variant);
	at = c->p;
	if (grid(c, r, &profile))
		return -EINVAL;
	/*
	 * Wormhole decodes opcodes 1, 3, 4, 6 and 7 only (noc-atomics.md
	 * 1.2, 1.4): say so here rather than leave it to the device.
	 */
	if (profile == DRM_VATOM_NOC_PROFILE_WORMHOLE &&
	    (o.variant == VATOM_NOC_VAR_SWAP_INDEX10 ||
	     o.variant >= VATOM_NOC_VAR_ACC)) {
		c->p = at - strlen(variant);
		return asm_err(c, "noc.%s is Blackhole only: a Wormhole grid takes incr, cas, swap, swap6 and swap7",
			       variant);
	}
	if (coords(c, &x, &y))
		return -EINVAL;
	r->x = (uint8_t)x;
	r->y = (uint8_t)y;
	if (!asm_lit(c, "->"))
		return asm_expected(c, "'->' and the target tile");
	if (coords(c, &x, &y))
		return -EINVAL;
	if (asm_lit(c, "..")) {
		brcst = true;
		if (coords(c, &x1, &y1))
			return -EINVAL;
	}
	if (!asm_lit(c, "+"))
		return asm_expected(c, "'+' and the L1 address");
	at = c->p;
	if (asm_number(c, ASM_INT, &addr))
		return -EINVAL;
	while (!asm_eol(c))
		if (option(c, &o, r))
			return -EINVAL;
	if (!o.has_ofs)
		o.ofs = (uint32_t)(addr >> 2) & 3;
	if (o.variant == VATOM_NOC_VAR_CAS && (!o.has_cmp || !o.has_set))
		return asm_err(c, "cas needs cmp= and set=");
	if (o.variant == VATOM_NOC_VAR_SWAP_MASK && !o.has_mask)
		return asm_err(c, "swap needs mask=");
	if (o.variant == VATOM_NOC_VAR_ACC && !o.has_fmt)
		return asm_err(c, "acc needs fmt=");
	r->at_len_be = at_len_be(&o);
	r->at_data = o.data;
	r->packet_tag = o.txn << DRM_VATOM_NOC_TAG_TXN_ID_SHIFT;
	r->ctrl = DRM_VATOM_NOC_CTRL_REQ_ATOMIC | o.ctrl;
	if (brcst)
		ret = vatom_noc_broadcast(r, profile, x, y, x1, y1, addr);
	else
		ret = vatom_noc_target(r, profile, x, y, addr);
	if (ret) {
		c->p = at;
		return asm_err(c, "the target address does not fit the profile's registers");
	}
	if (o.has_ret &&
	    vatom_noc_response(r, profile, o.rx, o.ry, o.raddr))
		return asm_err(c, "the return address does not fit the profile's registers");
	return 0;
}

int vatom__asm_noc(struct asm_cur *c, struct vatom_batch *b)
{
	struct vatom_noc_req r = { 0 };
	unsigned int profile, x, y;
	char w[32];
	int idx;

	if (asm_word(c, w, sizeof(w)) < 0)
		return -EINVAL;
	if (!strcmp(w, "noc")) {
		if (grid(c, &r, &profile) || coords(c, &x, &y))
			return -EINVAL;
		r.x = (uint8_t)x;
		r.y = (uint8_t)y;
		if (register_image(c, &r))
			return -EINVAL;
	} else if (!strncmp(w, "noc.", 4)) {
		if (symbolic(c, w + 4, &r))
			return -EINVAL;
	} else {
		return asm_expected(c, "noc or noc.<variant>");
	}
	idx = vatom_prep_noc(b, &r);
	if (idx == -EINVAL)
		return asm_err(c, "the library cannot encode this request");
	return idx;
}
