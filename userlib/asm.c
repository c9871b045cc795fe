// SPDX-License-Identifier: MIT
/*
 * libvatom ISA text front end: the assembler context (symbols, the last
 * diagnostic) and vatom_asm_line(), which recognises the family of a line
 * by its first word and hands it to asm_visa.c, asm_ptx.c or asm_noc.c.
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"

VATOM_API int vatom_asm_create(unsigned int flags, struct vatom_asm **ap)
{
	struct vatom_asm *a;

	if (flags || !ap)
		return -EINVAL;
	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	a->noc_profile = DRM_VATOM_NOC_PROFILE_BLACKHOLE;
	*ap = a;
	return 0;
}

VATOM_API void vatom_asm_destroy(struct vatom_asm *a)
{
	if (!a)
		return;
	free(a->syms);
	free(a);
}

static bool valid_name(const char *name)
{
	const char *p = name;

	/* as the lexer reads them: PTX's identifiers ('%' first only) */
	if (!name || !*name || strlen(name) >= ASM_NAME_MAX ||
	    !(isalpha((unsigned char)*p) || *p == '_' || *p == '%' || *p == '$') ||
	    (!isalpha((unsigned char)*p) && !p[1]))
		return false;
	for (p++; *p; p++)
		if (!(isalnum((unsigned char)*p) || *p == '_' || *p == '$' ||
		      (*p == '-' && isalpha((unsigned char)p[1]))))
			return false;
	return true;
}

/* The symbol @name of @kind, created (zeroed) when new. */
static struct asm_sym *sym_get(struct vatom_asm *a, const char *name,
			       enum asm_sym_kind kind)
{
	struct asm_sym *s = (struct asm_sym *)asm_find(a, name, kind);

	if (s)
		return s;
	if (a->nsyms == a->cap) {
		unsigned int cap = a->cap ? a->cap * 2 : 16;

		s = realloc(a->syms, cap * sizeof(*s));
		if (!s)
			return NULL;
		a->syms = s;
		a->cap = cap;
	}
	s = &a->syms[a->nsyms++];
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->kind = kind;
	return s;
}

VATOM_API int vatom_asm_define_values(struct vatom_asm *a, const char *name,
				      const uint64_t *values, unsigned int count)
{
	struct asm_sym *s;

	if (!a || !valid_name(name) || !values || !count ||
	    count > VATOM_ASM_MAX_VALUES)
		return -EINVAL;
	s = sym_get(a, name, ASM_SYM_VALUES);
	if (!s)
		return -ENOMEM;
	memcpy(s->v, values, count * sizeof(*values));
	s->count = count;
	return 0;
}

VATOM_API int vatom_asm_define_address(struct vatom_asm *a, const char *name,
				       unsigned int slot, uint64_t offset)
{
	struct asm_sym *s;

	if (!a || !valid_name(name) || slot >= DRM_VATOM_MAX_SLOTS)
		return -EINVAL;
	s = sym_get(a, name, ASM_SYM_ADDRESS);
	if (!s)
		return -ENOMEM;
	s->slot = slot;
	s->offset = offset;
	return 0;
}

VATOM_API int vatom_asm_define_grid(struct vatom_asm *a, const char *name,
				    unsigned int slot, unsigned int profile)
{
	struct asm_sym *s;

	if (!a || !valid_name(name) || slot >= DRM_VATOM_MAX_SLOTS ||
	    profile > DRM_VATOM_NOC_PROFILE_BLACKHOLE)
		return -EINVAL;
	s = sym_get(a, name, ASM_SYM_GRID);
	if (!s)
		return -ENOMEM;
	s->slot = slot;
	s->profile = profile;
	return 0;
}

VATOM_API int vatom_asm_set_noc_profile(struct vatom_asm *a,
					unsigned int profile)
{
	if (!a || profile > DRM_VATOM_NOC_PROFILE_BLACKHOLE)
		return -EINVAL;
	a->noc_profile = profile;
	return 0;
}

static bool starts_with_word(const char *p, const char *w)
{
	size_t n = strlen(w);

	return !strncasecmp(p, w, n) &&
	       (p[n] == '.' || p[n] == ' ' || p[n] == '\t' || p[n] == '(' ||
		!p[n]);
}

static int assemble(struct vatom_asm *a, struct vatom_batch *b,
		    const char *line);

/* Drop the packets from index @n on (a line that failed after its prep). */
static void truncate_batch(struct vatom_batch *b, unsigned int n)
{
	if (n >= b->count)
		return;
	b->size = b->pkts[n].stream_off;
	b->results_size = b->pkts[n].res_off;
	b->count = n;
	b->results = NULL;
}

VATOM_API int vatom_asm_line(struct vatom_asm *a, struct vatom_batch *b,
			     const char *line)
{
	unsigned int before;
	int ret;

	if (!a || !b || !line)
		return -EINVAL;
	before = b->count;
	ret = assemble(a, b, line);
	if (ret < 0)
		truncate_batch(b, before);
	return ret;
}

static const struct {
	const char *name;
	int (*parse)(struct asm_cur *c, struct vatom_batch *b);
} mnemonics[] = {
	{ "DWORD_ATOMIC", vatom__asm_visa },
	{ "TYPED_ATOMIC", vatom__asm_visa },
	{ "ADDC", vatom__asm_visa },
	{ "atom", vatom__asm_ptx },
	{ "noc", vatom__asm_noc },
};

static int assemble(struct vatom_asm *a, struct vatom_batch *b,
		    const char *line)
{
	struct asm_cur c = { .a = a, .line = line, .p = line };
	unsigned int i;
	const char *p;

	a->err_col = 0;
	a->err_msg[0] = '\0';
	a->nres = 0;
	/* a comment that runs on would hide the rest of the line */
	p = asm_open_comment(line);
	if (p) {
		c.p = p;
		return asm_err(&c, "unterminated /* comment (it must end on its line: */)");
	}
	if (asm_eol(&c))
		return -ENODATA;
	p = c.p;
	/* A vISA predicate "(P1)" or a PTX guard "@p" comes first. */
	if (*p == '(') {
		p = strchr(p, ')');
		p = p ? p + 1 : c.p;
		while (*p == ' ' || *p == '\t')
			p++;
	} else if (*p == '@') {
		return vatom__asm_ptx(&c, b);
	}
	for (i = 0; i < ARRAY_SIZE(mnemonics); i++) {
		if (!starts_with_word(p, mnemonics[i].name))
			continue;
		/* case-sensitive, as the ISA documents and ptxas have them */
		if (strncmp(p, mnemonics[i].name, strlen(mnemonics[i].name))) {
			c.p = p;
			return asm_err(&c, "mnemonics are case-sensitive: write '%s'",
				       mnemonics[i].name);
		}
		return mnemonics[i].parse(&c, b);
	}
	return asm_expected(&c, "DWORD_ATOMIC, TYPED_ATOMIC, ADDC, atom or noc");
}

VATOM_API const char *vatom_asm_error(const struct vatom_asm *a,
				      unsigned int *col)
{
	if (!a || !a->err_msg[0])
		return NULL;
	if (col)
		*col = a->err_col;
	return a->err_msg;
}

VATOM_API const char *vatom_asm_result_name(const struct vatom_asm *a,
					    unsigned int i)
{
	if (!a || i >= a->nres)
		return NULL;
	return a->res[i];
}
