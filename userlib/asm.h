/* SPDX-License-Identifier: MIT */
/*
 * libvatom internals of the ISA text front end: the assembler context
 * (symbols, the last diagnostic, the result names of the last line) and
 * the cursor the three per-family parsers share (asm_lex.c). Each parser
 * turns one line into one call of an existing vatom_prep_*() builder, so
 * the text and the C API cannot encode an instruction differently.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_ASM_H_
#define _VATOM_ASM_H_

#include <stdarg.h>

#include "internal.h"

#define ASM_NAME_MAX	48	/* symbol and register names, NUL included */
#define ASM_MAX_VALUES	32	/* elements of one value symbol or literal */
#define ASM_MAX_RESULTS	8	/* result names of one line */

/* Symbol kinds: one namespace per kind, so `@p ... [p]` can mean both. */
enum asm_sym_kind {
	ASM_SYM_VALUES,		/* operand values (vectors, scalars, masks) */
	ASM_SYM_ADDRESS,	/* slot + byte offset (surfaces, PTX a) */
	ASM_SYM_GRID,		/* tile grid: slot + NoC profile */
};

struct asm_sym {
	char name[ASM_NAME_MAX];
	enum asm_sym_kind kind;
	unsigned int slot;
	unsigned int profile;
	uint64_t offset;
	unsigned int count;
	uint64_t v[ASM_MAX_VALUES];
};

struct vatom_asm {
	struct asm_sym *syms;
	unsigned int nsyms;
	unsigned int cap;
	unsigned int noc_profile;	/* for T<n> grids without a symbol */
	/* Diagnostic of the last failed line. */
	unsigned int err_col;
	char err_msg[256];
	/* Result names of the last line (vISA Dst, ADDC dst/carry, PTX d). */
	unsigned int nres;
	char res[ASM_MAX_RESULTS][ASM_NAME_MAX];
};

/*
 * A position in the line being parsed. @expr: numbers are PTX constant
 * expressions (PTX operands only: vISA separates operands by spaces, so
 * "5 -3" there is two of them).
 */
struct asm_cur {
	struct vatom_asm *a;
	const char *line;
	const char *p;
	bool expr;
};

/* Float formats of a literal: how a decimal like 1.5 is encoded. */
enum asm_fmt {
	ASM_INT,		/* decimal floats are refused */
	ASM_F16,
	ASM_BF16,
	ASM_F32,
	ASM_F64,
};

int asm_err(struct asm_cur *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int asm_expected(struct asm_cur *c, const char *what);
void asm_ws(struct asm_cur *c);
const char *asm_open_comment(const char *p);
bool asm_eol(struct asm_cur *c);
bool asm_lit(struct asm_cur *c, const char *s);
bool asm_ilit(struct asm_cur *c, const char *s);
bool asm_peek(struct asm_cur *c, char ch);
int asm_ident(struct asm_cur *c, char *buf, size_t len);
int asm_word(struct asm_cur *c, char *buf, size_t len);
int asm_number(struct asm_cur *c, enum asm_fmt fmt, uint64_t *v);
int asm_expr(struct asm_cur *c, enum asm_fmt fmt, uint64_t *v);
int asm_value(struct asm_cur *c, const char *what, enum asm_fmt fmt,
	      uint64_t *v);
int asm_values(struct asm_cur *c, const char *what, enum asm_fmt fmt,
	       uint64_t *v, unsigned int max, unsigned int *n, bool *literal);
int asm_end(struct asm_cur *c);
const struct asm_sym *asm_find(const struct vatom_asm *a, const char *name,
			       enum asm_sym_kind kind);
void asm_result(struct vatom_asm *a, const char *name);

uint16_t vatom__f32_to_f16(uint32_t f);
uint16_t vatom__f32_to_bf16(uint32_t f);

/* The parsers: each returns the packet index, -ENODATA or -errno. */
int vatom__asm_visa(struct asm_cur *c, struct vatom_batch *b);
int vatom__asm_ptx(struct asm_cur *c, struct vatom_batch *b);
int vatom__asm_noc(struct asm_cur *c, struct vatom_batch *b);

#endif /* _VATOM_ASM_H_ */
