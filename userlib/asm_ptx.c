// SPDX-License-Identifier: MIT
/*
 * libvatom ISA text front end: NVIDIA PTX atom, in PTX syntax
 *
 *   [@[!]p] atom{.sem}{.scope}{.space}.op{.noftz}{.L2::cache_hint}{.vec}.type
 *           d, [a], b{, c}{, cache-policy};
 *
 * The qualifiers may come in any order (the PTX document's own examples
 * write atom.global.v8.f16.max.noftz and atom.add.shared::cluster.noftz.f16);
 * each is recognised by its name, and one of a kind is allowed. d is a
 * register name or {d0, d1, ...}: it labels the results. a is [sym],
 * [sym+off], [T<slot>+off] or a bare sym, sym being an address symbol
 * (vatom_asm_define_address()). b, c and the cache policy are literals,
 * value symbols or {e0, e1, ...} for vectors (and for the halves of a
 * packed f16x2/bf16x2 scalar). The packet has no predicate: @p (a value
 * symbol) that is false makes the line produce no packet (-ENODATA).
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"

enum qual_kind { Q_SEM, Q_SCOPE, Q_SPACE, Q_OP, Q_NOFTZ, Q_HINT, Q_VEC, Q_TYPE };

static const struct qual {
	const char *name;
	enum qual_kind kind;
	unsigned int value;
} quals[] = {
	{ "relaxed", Q_SEM, DRM_VATOM_PTX_SEM_RELAXED },
	{ "acquire", Q_SEM, DRM_VATOM_PTX_SEM_ACQUIRE },
	{ "release", Q_SEM, DRM_VATOM_PTX_SEM_RELEASE },
	{ "acq_rel", Q_SEM, DRM_VATOM_PTX_SEM_ACQ_REL },
	{ "cta", Q_SCOPE, DRM_VATOM_PTX_SCOPE_CTA },
	{ "cluster", Q_SCOPE, DRM_VATOM_PTX_SCOPE_CLUSTER },
	{ "gpu", Q_SCOPE, DRM_VATOM_PTX_SCOPE_GPU },
	{ "sys", Q_SCOPE, DRM_VATOM_PTX_SCOPE_SYS },
	{ "global", Q_SPACE, DRM_VATOM_PTX_SPACE_GLOBAL },
	{ "shared", Q_SPACE, DRM_VATOM_PTX_SPACE_SHARED_CTA },
	{ "shared::cta", Q_SPACE, DRM_VATOM_PTX_SPACE_SHARED_CTA },
	{ "shared::cluster", Q_SPACE, DRM_VATOM_PTX_SPACE_SHARED_CLUSTER },
	{ "noftz", Q_NOFTZ, DRM_VATOM_PTX_NOFTZ },
	{ "L2::cache_hint", Q_HINT, DRM_VATOM_PTX_CACHE_HINT },
	{ "v2", Q_VEC, 2 },
	{ "v4", Q_VEC, 4 },
	{ "v8", Q_VEC, 8 },
};

static const char *const kind_names[] = {
	"a .sem", "a .scope", "a state space", "an operation", ".noftz",
	".L2::cache_hint", "a vector length", "a type",
};

static int lookup(const char *q, struct qual *out)
{
	unsigned int i;
	const char *n;

	for (i = 0; i < ARRAY_SIZE(quals); i++)
		if (!strcmp(q, quals[i].name)) {
			*out = quals[i];
			return 0;
		}
	for (i = 1; i < 32; i++) {
		n = vatom_ptx_op_name(i);
		if (n && !strcmp(q, n)) {
			*out = (struct qual){ n, Q_OP, i };
			return 0;
		}
	}
	for (i = 1; i < 32; i++) {
		n = vatom_ptx_type_name(i);
		if (n && !strcmp(q, n)) {
			*out = (struct qual){ n, Q_TYPE, i };
			return 0;
		}
	}
	return -ENOENT;
}

/* atom.q.q.q...: fills @a; every qualifier at most once. */
static int qualifiers(struct asm_cur *c, struct vatom_ptx_atom *a)
{
	bool seen[Q_TYPE + 1] = { false };
	char w[128], *q, *next;
	const char *start;
	struct qual ql;

	asm_ws(c);
	start = c->p;
	if (asm_word(c, w, sizeof(w)) < 0)
		return -EINVAL;
	if (strncmp(w, "atom", 4) || (w[4] && w[4] != '.')) {
		c->p = start;
		return asm_expected(c, "atom");
	}
	for (q = w[4] ? w + 5 : NULL; q; q = next) {
		next = strchr(q, '.');
		if (next)
			*next++ = '\0';
		c->p = start + (q - w);
		if (lookup(q, &ql)) {
			char low[64];
			size_t i;

			if (!strcmp(q, "b16x2"))
				return asm_err(c, "type .b16x2 has no encoding in the vatom UAPI (expected .f16x2 or .bf16x2)");
			/* ptxas is case-sensitive: say so for .ADD, .GLOBAL */
			for (i = 0; q[i] && i + 1 < sizeof(low); i++)
				low[i] = (char)tolower((unsigned char)q[i]);
			low[i] = '\0';
			if (strcmp(low, q) && !lookup(low, &ql))
				return asm_err(c, "qualifiers are case-sensitive, as in ptxas: write '.%s'",
					       ql.name);
			return asm_err(c, "unknown qualifier '.%s' (expected .sem, .scope, .space, .op, .noftz, .L2::cache_hint, .v2/.v4/.v8 or .type)",
				       q);
		}
		if (seen[ql.kind])
			return asm_err(c, "two qualifiers for %s ('.%s')",
				       kind_names[ql.kind], q);
		seen[ql.kind] = true;
		switch (ql.kind) {
		case Q_SEM:
			a->sem = ql.value;
			break;
		case Q_SCOPE:
			a->scope = ql.value;
			break;
		case Q_SPACE:
			a->space = ql.value;
			break;
		case Q_OP:
			a->op = ql.value;
			break;
		case Q_NOFTZ:
		case Q_HINT:
			a->flags |= ql.value;
			break;
		case Q_VEC:
			a->vec = ql.value;
			break;
		case Q_TYPE:
			a->type = ql.value;
			break;
		}
	}
	c->p = start;
	if (!seen[Q_OP])
		return asm_err(c, "atom needs an operation (.and, .or, .xor, .cas, .exch, .add, .inc, .dec, .min or .max)");
	if (!seen[Q_TYPE])
		return asm_err(c, "atom needs a type (.b32, .u32, .f16, ...)");
	asm_word(c, w, sizeof(w));
	return 0;
}

/* d or {d0, d1, ...}: the result names. */
static int dest(struct asm_cur *c)
{
	char name[ASM_NAME_MAX];

	if (asm_lit(c, "{")) {
		do {
			if (asm_ident(c, name, sizeof(name)) < 0)
				return -EINVAL;
			asm_result(c->a, name);
		} while (asm_lit(c, ","));
		if (!asm_lit(c, "}"))
			return asm_expected(c, "',' or '}'");
		return 0;
	}
	if (asm_ident(c, name, sizeof(name)) < 0)
		return asm_expected(c, "the destination d");
	asm_result(c->a, name);
	return 0;
}

/* [sym], [sym+off], [T<n>+off] or a bare sym. */
static int address(struct asm_cur *c, struct vatom_ptx_atom *a)
{
	const struct asm_sym *s;
	char name[ASM_NAME_MAX];
	bool bracket = asm_lit(c, "[");
	const char *at;
	uint64_t off = 0;
	char *end;

	asm_ws(c);
	at = c->p;
	if (asm_ident(c, name, sizeof(name)) < 0)
		return asm_expected(c, "an address ([sym+offset])");
	if (name[0] == 'T' && isdigit((unsigned char)name[1]) &&
	    strtoul(name + 1, &end, 10) < DRM_VATOM_MAX_SLOTS && !*end) {
		a->slot = (uint8_t)strtoul(name + 1, NULL, 10);
		a->addr = 0;
	} else {
		s = asm_find(c->a, name, ASM_SYM_ADDRESS);
		if (!s) {
			c->p = at;
			return asm_err(c, "unknown address '%s' (define it, or write [T<slot>+offset])",
				       name);
		}
		a->slot = (uint8_t)s->slot;
		a->addr = s->offset;
	}
	/* The sign is the expression's own: [buf-2+1] is buf - 1. */
	if (asm_peek(c, '+') || asm_peek(c, '-')) {
		if (asm_expr(c, ASM_INT, &off))
			return -EINVAL;
		a->addr += off;
	}
	if (bracket && !asm_lit(c, "]"))
		return asm_expected(c, "']'");
	return 0;
}

static enum asm_fmt elem_fmt(unsigned int type)
{
	switch (type) {
	case DRM_VATOM_PTX_TYPE_F16:
	case DRM_VATOM_PTX_TYPE_F16X2:
		return ASM_F16;
	case DRM_VATOM_PTX_TYPE_BF16:
	case DRM_VATOM_PTX_TYPE_BF16X2:
		return ASM_BF16;
	case DRM_VATOM_PTX_TYPE_F32:
		return ASM_F32;
	case DRM_VATOM_PTX_TYPE_F64:
		return ASM_F64;
	}
	return ASM_INT;
}

/* A 128-bit hex literal, as the disassembler prints b128 values. */
static bool wide_hex(struct asm_cur *c, union vatom_ptx_value *v)
{
	const char *s, *e;
	size_t n, i;

	asm_ws(c);
	s = c->p;
	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return false;
	for (e = s + 2; isxdigit((unsigned char)*e); e++)
		;
	n = (size_t)(e - s - 2);
	if (n <= 16 || n > 32)
		return false;
	memset(v, 0, sizeof(*v));
	for (i = 0; i < n; i++) {
		char ch = s[2 + i];
		unsigned int d = isdigit((unsigned char)ch) ? (unsigned int)(ch - '0') :
				 (unsigned int)(tolower((unsigned char)ch) - 'a' + 10);
		unsigned int bit = (unsigned int)(4 * (n - 1 - i));

		v->u64[bit / 64] |= (uint64_t)d << (bit % 64);
	}
	c->p = e;
	return true;
}

/* Operand b or c: @size bytes of @vec elements (0: scalar). */
static int operand(struct asm_cur *c, const struct vatom_ptx_atom *a,
		   int size, const char *what, union vatom_ptx_value *out)
{
	unsigned int n, i, esize, vec = a->vec;
	uint64_t v[ASM_MAX_VALUES];
	enum asm_fmt fmt = elem_fmt(a->type);
	bool literal, packed;
	const char *at;

	memset(out, 0, sizeof(*out));
	if (size == 16 && !vec && wide_hex(c, out))
		return 0;
	packed = !vec && (a->type == DRM_VATOM_PTX_TYPE_F16X2 ||
			  a->type == DRM_VATOM_PTX_TYPE_BF16X2);
	asm_ws(c);
	at = c->p;
	/* A packed scalar as one raw word, or as {half0, half1}. */
	if (asm_values(c, what, (packed && !asm_peek(c, '{')) ? ASM_INT : fmt,
		       v, ASM_MAX_VALUES, &n, &literal))
		return -EINVAL;
	if (packed && n == 2)
		vec = 2;
	if (!vec) {
		if (n == 2 && size == 16) {
			out->u64[0] = v[0];
			out->u64[1] = v[1];
			return 0;
		}
		if (n != 1) {
			c->p = at;
			return asm_err(c, "%s: %u values for a scalar", what, n);
		}
		memcpy(out, &v[0], (size_t)size < 8 ? (size_t)size : 8);
		return 0;
	}
	if (n != vec) {
		c->p = at;
		return asm_err(c, "%s: %u values, the vector has %u", what, n, vec);
	}
	esize = (unsigned int)size / vec;
	for (i = 0; i < vec; i++)
		memcpy((uint8_t *)out + i * esize, &v[i], esize);
	return 0;
}

int vatom__asm_ptx(struct asm_cur *c, struct vatom_batch *b)
{
	struct vatom_ptx_atom a = { 0 };
	bool guarded = false, run = true, negate;
	char name[ASM_NAME_MAX];
	const struct asm_sym *s;
	const char *at;
	int size, idx;

	c->expr = true;
	if (asm_lit(c, "@")) {
		negate = asm_lit(c, "!");
		at = c->p;
		if (asm_ident(c, name, sizeof(name)) < 0)
			return asm_expected(c, "a predicate after '@'");
		s = asm_find(c->a, name, ASM_SYM_VALUES);
		if (!s) {
			c->p = at;
			return asm_err(c, "predicate '%s' has no value (define it first)",
				       name);
		}
		guarded = true;
		run = (s->v[0] != 0) != negate;
	}
	if (qualifiers(c, &a))
		return -EINVAL;
	size = vatom_ptx_access_size(a.type, a.vec);
	if (size < 0)
		return asm_err(c, ".v%u.%s is wider than 128 bits", a.vec,
			       vatom_ptx_type_name(a.type));
	if (dest(c))
		return -EINVAL;
	if (!asm_lit(c, ","))
		return asm_expected(c, "','");
	if (address(c, &a))
		return -EINVAL;
	if (!asm_lit(c, ","))
		return asm_expected(c, "',' and operand b");
	if (operand(c, &a, size, "operand b", &a.b))
		return -EINVAL;
	if (a.op == DRM_VATOM_PTX_OP_CAS) {
		if (!asm_lit(c, ","))
			return asm_expected(c, "',' and operand c (cas)");
		if (operand(c, &a, size, "operand c", &a.c))
			return -EINVAL;
	}
	if (asm_lit(c, ",")) {
		if (!(a.flags & DRM_VATOM_PTX_CACHE_HINT))
			return asm_err(c, "a cache-policy operand needs .L2::cache_hint");
		if (asm_value(c, "the cache policy", ASM_INT, &a.cache_policy))
			return -EINVAL;
	}
	asm_lit(c, ";");
	if (asm_end(c))
		return -EINVAL;
	if (guarded && !run)
		return -ENODATA;
	idx = vatom_prep_ptx_atom(b, &a);
	if (idx == -EINVAL)
		return asm_err(c, "the library cannot encode this atom");
	return idx;
}
