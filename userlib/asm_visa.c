// SPDX-License-Identifier: MIT
/*
 * libvatom ISA text front end: Intel vISA, in the documents' own syntax
 *
 *   [(<P>)] DWORD_ATOMIC.<Op>[.16] (<Exec_size>) <Surface> <Element_offset> <Src0> <Src1> <Dst>
 *   [(<P>)] TYPED_ATOMIC.<Op>[.16] (<Exec_size>) <Surface> <U> <V> <R> <LOD> <Src0> <Src1> <Dst>
 *   [(<P>)] ADDC (<Exec_size>) <Dst> <Carry> <Src0> <Src1>
 *
 * followed by optional attributes the text form has no place for:
 * type=UD|D|F|UQ|Q|UW|W|HF (the operands' declared type; UW/W/HF select
 * the .16 form) and emask=<32-bit execution mask>. Exec_size is
 * [M1..M8[_NM], ]<lanes>; a lane count that is not a power of two (5)
 * rounds the size up and leaves the extra lanes out of the execution mask
 * (vatom_visa_exec_lanes()); so does TYPED_ATOMIC below 8, its only size. <P> is a value symbol or a literal lane mask.
 * Operands are V0 (or null), a value symbol, {v, v, ...} with exactly one
 * value per lane, or one literal or one-value symbol (every lane; an
 * immediate for ADDC). Mnemonics and type names are case-sensitive, as
 * in the documents. Dst and
 * Carry are names: they label the results (vatom_asm_result_name()).
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"

struct visa_line {
	unsigned int opcode;
	unsigned int op;
	bool is16;
	int type;		/* DRM_VATOM_VISA_TYPE_*, -1: the op's default */
	struct vatom_visa_exec ex;
	unsigned int lanes;
	unsigned int slot;
	const char *type_at;	/* where type= is, for its errors */
	const char *op_at;	/* the Op, for .16 errors */
};

static const struct {
	const char *name;
	int type;
	bool is16;
} visa_types[] = {
	{ "UD", DRM_VATOM_VISA_TYPE_UD, false },
	{ "D", DRM_VATOM_VISA_TYPE_D, false },
	{ "F", DRM_VATOM_VISA_TYPE_F, false },
	{ "UQ", DRM_VATOM_VISA_TYPE_UQ, false },
	{ "Q", DRM_VATOM_VISA_TYPE_Q, false },
	{ "UW", DRM_VATOM_VISA_TYPE_UD, true },
	{ "W", DRM_VATOM_VISA_TYPE_D, true },
	{ "HF", DRM_VATOM_VISA_TYPE_F, true },
};

static enum asm_fmt value_fmt(const struct visa_line *l)
{
	int type = l->type;

	if (type < 0)
		type = (l->op == VATOM_VISA_FMAX || l->op == VATOM_VISA_FMIN ||
			l->op == VATOM_VISA_FCMPWR) ? DRM_VATOM_VISA_TYPE_F : 0;
	if (type != DRM_VATOM_VISA_TYPE_F)
		return ASM_INT;
	return l->is16 ? ASM_F16 : ASM_F32;
}

/* The trailing type=... and emask=... attributes (read before operands). */
static int attributes(struct asm_cur *c, struct visa_line *l, bool *emask_set)
{
	struct asm_cur at = *c;
	char name[8];
	unsigned int i;
	uint64_t v;

	*emask_set = false;
	while (*at.p) {
		const char *w = at.p;

		at.p++;
		if (w != at.line && w[-1] != ' ' && w[-1] != '\t')
			continue;
		if (!strncmp(w, "type=", 5)) {
			at.p = w + 5;
			if (asm_ident(&at, name, sizeof(name)) < 0)
				return asm_expected(&at, "a type (UD, D, F, UQ, Q, UW, W, HF)");
			for (i = 0; i < ARRAY_SIZE(visa_types); i++)
				if (!strcmp(name, visa_types[i].name))
					break;
			if (i == ARRAY_SIZE(visa_types)) {
				at.p = w + 5;
				return asm_expected(&at, "a type (UD, D, F, UQ, Q, UW, W, HF; upper case)");
			}
			/* there is no 16-bit form of a 64-bit type */
			if (l->is16 && (visa_types[i].type == DRM_VATOM_VISA_TYPE_UQ ||
					visa_types[i].type == DRM_VATOM_VISA_TYPE_Q)) {
				at.p = w;
				return asm_err(&at, ".16 selects 16-bit data, type=%s is 64-bit (drop .16, or use type=UW, W or HF)",
					       name);
			}
			l->type = visa_types[i].type;
			l->is16 |= visa_types[i].is16;
			l->type_at = w;
		} else if (!strncmp(w, "emask=", 6)) {
			at.p = w + 6;
			if (asm_number(&at, ASM_INT, &v))
				return -EINVAL;
			if (v > 0xffffffffu) {
				at.p = w + 6;
				return asm_err(&at, "emask is 32 bits");
			}
			l->ex.emask = (uint32_t)v;
			*emask_set = true;
		}
	}
	return 0;
}

/* (<P>) */
static int predicate(struct asm_cur *c, struct visa_line *l)
{
	uint64_t v;

	if (!asm_lit(c, "("))
		return 0;
	if (asm_value(c, "a predicate (a name with a value, or a lane mask)",
		      ASM_INT, &v))
		return -EINVAL;
	if (v > 0xffffffffu)
		return asm_err(c, "a predicate is a 32-bit lane mask");
	if (!asm_lit(c, ")"))
		return asm_expected(c, "')'");
	l->ex.predicated = true;
	l->ex.pred = (uint32_t)v;
	return 0;
}

static int opcode(struct asm_cur *c, struct visa_line *l)
{
	char w[48], *op, *dot;
	const char *start, *end;
	unsigned int i;

	asm_ws(c);
	start = c->p;
	if (asm_word(c, w, sizeof(w)) < 0)
		return -EINVAL;
	end = c->p;
	/* vatom_asm_line() refused a mnemonic in the wrong case */
	if (!strcmp(w, "ADDC")) {
		l->opcode = DRM_VATOM_VISA_ADDC;
		return 0;
	}
	op = strchr(w, '.');
	if (op)
		*op++ = '\0';
	if (!strcmp(w, "DWORD_ATOMIC"))
		l->opcode = DRM_VATOM_VISA_DWORD_ATOMIC;
	else if (!strcmp(w, "TYPED_ATOMIC"))
		l->opcode = DRM_VATOM_VISA_TYPED_ATOMIC;
	if (!op || !*op) {
		return asm_err(c, "expected .<Op> after %s (ADD, SUB, ..., FCMPWR)", w);
	}
	c->p = start + (op - w);	/* errors point at the op */
	l->op_at = c->p;
	dot = strchr(op, '.');
	if (dot) {
		*dot++ = '\0';
		if (strcmp(dot, "16"))
			return asm_err(c, "expected .16 or nothing after .%s, found '.%s'",
				       op, dot);
		l->is16 = true;
	}
	for (i = 0; i <= DRM_VATOM_VISA_OP_MASK; i++) {
		const char *n = vatom_visa_op_name(i);

		if (n && !strcmp(n, op)) {
			l->op = i;
			c->p = end;
			return 0;
		}
		if (n && !strcasecmp(n, op))
			return asm_err(c, "mnemonics are case-sensitive, as in the vISA documents: write '%s'",
				       n);
	}
	return asm_err(c, "unknown operation '%s' (expected ADD, SUB, INC, DEC, MIN, MAX, XCHG, CMPXCHG, AND, OR, XOR, IMIN, IMAX, PREDEC, FMAX, FMIN or FCMPWR)",
		       op);
}

/* (<Exec_size>): [M<n>[_NM],] <lanes> */
static int exec_size(struct asm_cur *c, struct visa_line *l, bool emask_set)
{
	unsigned int ctrl = 0, max = l->opcode == DRM_VATOM_VISA_ADDC ? 32 : 16;
	struct vatom_visa_exec pred = l->ex;
	uint32_t emask = l->ex.emask;
	const char *at;
	uint64_t n;
	int ret;

	if (!asm_lit(c, "("))
		return asm_expected(c, "'(' and the execution size, e.g. (M1, 16)");
	asm_ws(c);
	if ((c->p[0] == 'M' || c->p[0] == 'm') && isdigit((unsigned char)c->p[1])) {
		at = c->p;
		n = strtoul(c->p + 1, (char **)&c->p, 10);
		if (at[0] != 'M' || n < 1 || n > 8 ||
		    (*c->p != '_' && *c->p != ',' && *c->p != ' ' &&
		     *c->p != '\t')) {
			c->p = at;
			return asm_err(c, "mask control '%.*s': expected M1 to M8, or M1_NM to M8_NM",
				       (int)strcspn(at, ", \t)"), at);
		}
		ctrl = (unsigned int)n - 1;
		if (*c->p == '_' && !asm_lit(c, "_NM"))
			return asm_expected(c, "_NM or ','");
		if (c->p[-1] == 'M')
			ctrl |= VATOM_NM;
		if (!asm_lit(c, ","))
			return asm_expected(c, "',' and the lane count");
	}
	asm_ws(c);
	at = c->p;
	if (asm_number(c, ASM_INT, &n))
		return -EINVAL;
	if (!n || n > max)
		return asm_err(c, "execution size %llu: expected 1 to %u lanes",
			       (unsigned long long)n, max);
	if (!asm_lit(c, ")"))
		return asm_expected(c, "')'");
	l->lanes = (unsigned int)n;
	/* TYPED_ATOMIC has one Exec_size, 8: fewer lanes are masked off. */
	ret = vatom_visa_exec_lanes(&l->ex, l->opcode == DRM_VATOM_VISA_TYPED_ATOMIC &&
				    n < 8 ? 8 : l->lanes, ctrl);
	if (!ret && l->ex.size != l->lanes) {
		if (ctrl & VATOM_NM)
			ret = -EINVAL;
		l->ex.emask = (uint32_t)(((1ull << l->lanes) - 1) << (4 * (ctrl & 7)));
	}
	l->ex.predicated = pred.predicated;
	l->ex.pred = pred.pred;
	if (ret) {
		c->p = at;
		return asm_err(c, "%u lanes need the execution mask: not with _NM",
			       l->lanes);
	}
	if (emask_set)
		l->ex.emask &= emask;
	return 0;
}

static bool null_operand(struct asm_cur *c)
{
	struct asm_cur save = *c;
	char name[8];

	asm_ws(c);
	if ((!strncmp(c->p, "V0", 2) || !strncmp(c->p, "null", 4)) &&
	    asm_ident(c, name, sizeof(name)) > 0 &&
	    (!strcmp(name, "V0") || !strcmp(name, "null")))
		return true;
	*c = save;
	return false;
}

/*
 * An operand vector of l->ex.size elements into @v; false when V0. One
 * value fills every lane (and is reported through @imm).
 */
static int vector(struct asm_cur *c, struct visa_line *l, const char *what,
		  uint64_t *v, bool *present, bool *imm)
{
	unsigned int n, i;
	const char *at;
	bool literal;

	*present = false;
	if (imm)
		*imm = false;
	if (null_operand(c))
		return 0;
	asm_ws(c);
	at = c->p;
	if (asm_values(c, what, value_fmt(l), v, ASM_MAX_VALUES, &n, &literal))
		return -EINVAL;
	/*
	 * One rule: a scalar (a literal or a one-value symbol) fills every
	 * lane; {...} lists one value per lane, so {16} on 4 lanes is
	 * refused as {1, 2} is.
	 */
	if (n == 1 && (*at != '{' || l->lanes == 1)) {
		if (imm)
			*imm = literal;
		for (i = 1; i < l->ex.size; i++)
			v[i] = v[0];
	} else if (n == 1) {
		c->p = at;
		return asm_err(c, "%s has 1 value in braces, the instruction has %u lanes (braces list one value per lane; a value without braces fills every lane)",
			       what, l->lanes);
	} else if (n != l->lanes && n != l->ex.size) {
		c->p = at;
		return asm_err(c, "%s has %u values, the instruction has %u lanes",
			       what, n, l->lanes);
	} else {
		for (i = n; i < l->ex.size; i++)
			v[i] = 0;
	}
	*present = true;
	return 0;
}

static int dst_name(struct asm_cur *c, const char *what, bool *present)
{
	char name[ASM_NAME_MAX];

	*present = false;
	asm_ws(c);
	c->a->err_col = (unsigned int)(c->p - c->line) + 1;
	if (null_operand(c))
		return 0;
	if (asm_ident(c, name, sizeof(name)) < 0)
		return asm_expected(c, what);
	asm_result(c->a, name);
	*present = true;
	return 0;
}

static int surface(struct asm_cur *c, struct visa_line *l)
{
	const struct asm_sym *s;
	char name[ASM_NAME_MAX];
	const char *at;
	char *end;
	unsigned long t;

	asm_ws(c);
	at = c->p;
	if (asm_ident(c, name, sizeof(name)) < 0)
		return asm_expected(c, "a surface (T0, T255, T<slot> or a surface name)");
	if (name[0] == 'T' && name[1] >= '0' && name[1] <= '9') {
		t = strtoul(name + 1, &end, 10);
		if (!*end && t <= 255) {
			l->slot = t == 255 ? VATOM_T255 : (unsigned int)t;
			return 0;
		}
	}
	s = asm_find(c->a, name, ASM_SYM_ADDRESS);
	if (!s) {
		c->p = at;
		return asm_err(c, "unknown surface '%s' (expected T0, T255, T<slot> or a surface name)",
			       name);
	}
	l->slot = s->slot;
	return 0;
}

static void to_u32(const uint64_t *v, uint32_t *u, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		u[i] = (uint32_t)v[i];
}

static int encode_error(struct asm_cur *c, int ret)
{
	if (ret == -EINVAL)
		return asm_err(c, "the library cannot encode this instruction");
	return ret;
}

/* "ADDC's X cannot be V0", at the V0 (dst_name() noted the column). */
static int addc_v0(struct asm_cur *c, const char *what)
{
	unsigned int col = c->a->err_col;

	asm_err(c, "ADDC's %s cannot be V0", what);
	c->a->err_col = col;
	return -EINVAL;
}

static int addc(struct asm_cur *c, struct visa_line *l, struct vatom_batch *b)
{
	uint64_t v0[ASM_MAX_VALUES], v1[ASM_MAX_VALUES];
	uint32_t s0[ASM_MAX_VALUES], s1[ASM_MAX_VALUES];
	bool present, imm0, imm1;
	unsigned int flags = 0;

	if (dst_name(c, "the Dst name", &present))
		return -EINVAL;
	if (!present)
		return addc_v0(c, "Dst");
	if (dst_name(c, "the Carry name", &present))
		return -EINVAL;
	if (!present)
		return addc_v0(c, "Carry");
	if (vector(c, l, "Src0", v0, &present, &imm0))
		return -EINVAL;
	if (!present)
		return asm_err(c, "ADDC's Src0 cannot be V0");
	if (vector(c, l, "Src1", v1, &present, &imm1))
		return -EINVAL;
	if (!present)
		return asm_err(c, "ADDC's Src1 cannot be V0");
	flags |= imm0 ? VATOM_ADDC_SRC0_IMM : 0;
	flags |= imm1 ? VATOM_ADDC_SRC1_IMM : 0;
	to_u32(v0, s0, l->ex.size);
	to_u32(v1, s1, l->ex.size);
	return encode_error(c, vatom_prep_addc(b, &l->ex, flags, s0, s1));
}

/* What follows the operands: the attributes, read already. */
static int trailer(struct asm_cur *c, int idx)
{
	while (!asm_eol(c)) {
		if (!asm_lit(c, "type=") && !asm_lit(c, "emask="))
			return asm_expected(c, "end of line, type= or emask=");
		while (*c->p && *c->p != ' ' && *c->p != '\t')
			c->p++;
	}
	return idx;
}

VATOM_API int vatom_visa_exec_lanes(struct vatom_visa_exec *ex,
				    unsigned int lanes, unsigned int mask_ctrl)
{
	unsigned int size = 1;
	uint64_t bits;

	if (!ex || !lanes || lanes > 32 || mask_ctrl > 0xf)
		return -EINVAL;
	while (size < lanes)
		size <<= 1;
	if (size != lanes && (mask_ctrl & VATOM_NM))
		return -EINVAL;
	bits = ((1ull << lanes) - 1) << (4 * (mask_ctrl & 7));
	*ex = (struct vatom_visa_exec){
		.size = size,
		.mask_ctrl = mask_ctrl,
		.emask = size == lanes ? 0xffffffffu : (uint32_t)bits,
	};
	return 0;
}

int vatom__asm_visa(struct asm_cur *c, struct vatom_batch *b)
{
	uint64_t v[6][ASM_MAX_VALUES];
	uint32_t u[6][ASM_MAX_VALUES];
	struct visa_line l = { .type = -1 };
	const uint32_t *arg[6];
	unsigned int flags = 0, i, naddr;
	bool emask_set, present, dst;
	static const char *const typed_names[] = { "U", "V", "R", "LOD" };
	int type, idx;

	if (predicate(c, &l))
		return -EINVAL;
	if (opcode(c, &l))
		return -EINVAL;
	if (attributes(c, &l, &emask_set))
		return -EINVAL;
	if (exec_size(c, &l, emask_set))
		return -EINVAL;
	if (l.ex.predicated && !emask_set && l.lanes == l.ex.size)
		l.ex.emask = 0xffffffffu;
	if (l.opcode == DRM_VATOM_VISA_ADDC) {
		idx = addc(c, &l, b);
		if (idx < 0)
			return idx;
		return trailer(c, idx);
	}
	if (surface(c, &l))
		return -EINVAL;
	naddr = l.opcode == DRM_VATOM_VISA_DWORD_ATOMIC ? 1 : 4;
	for (i = 0; i < naddr + 2; i++) {
		const char *what = i >= naddr ? (i == naddr ? "Src0" : "Src1") :
				   naddr == 1 ? "Element_offset" : typed_names[i];

		if (vector(c, &l, what, v[i], &present, NULL))
			return -EINVAL;
		if (i == 0 && !present)
			return asm_err(c, "%s cannot be V0", what);
		arg[i] = NULL;
		if (present) {
			to_u32(v[i], u[i], l.ex.size);
			arg[i] = u[i];
		}
	}
	if (dst_name(c, "the Dst name or V0", &dst))
		return -EINVAL;
	flags |= dst ? VATOM_VISA_DST : 0;
	flags |= l.is16 ? VATOM_VISA_16 : 0;
	type = l.type;
	if (type >= 0)
		flags |= VATOM_VISA_TYPE(type);
	if (l.opcode == DRM_VATOM_VISA_TYPED_ATOMIC) {
		i = (unsigned int)vatom_prep_typed_atomic(b, &l.ex, l.op, flags,
			l.slot, arg[0], arg[1], arg[2], arg[3], arg[4], arg[5]);
	} else if (type == DRM_VATOM_VISA_TYPE_UQ || type == DRM_VATOM_VISA_TYPE_Q) {
		i = (unsigned int)vatom_prep_dword_atomic64(b, &l.ex, l.op, flags,
			l.slot, arg[0], arg[1] ? v[1] : NULL, arg[2] ? v[2] : NULL);
	} else {
		i = (unsigned int)vatom_prep_dword_atomic(b, &l.ex, l.op, flags,
			l.slot, arg[0], arg[1], arg[2]);
	}
	if ((int)i < 0)
		return encode_error(c, (int)i);
	return trailer(c, (int)i);
}
