// SPDX-License-Identifier: MIT
/*
 * libvatom ISA text front end: the lexer shared by the vISA, PTX and NoC
 * parsers. A cursor walks one line; every failure records the column and
 * says what was expected and what was found there, so that a caller can
 * print `file:line:col: error: expected X, found 'Y'`.
 *
 * Literals follow PTX's lexical rules (PTX ISA, "Integer Constants" and
 * "Floating-Point Constants"), which are C's: integers are 0x hex, 0b
 * binary, 0-led octal (020 is 16) or decimal, each with an optional U
 * suffix; a leading '-' is two's complement. Floats are PTX's exact
 * 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX bit patterns, or decimal (1.5, 1.,
 * -2e3, and inf, nan) encoded in the operand's float format, with no
 * suffix. An integer literal is always the raw bits, so a disassembly in
 * hex reads back unchanged. Comments are //, # and one-line slash-star
 * ones, which count as white space.
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"

int asm_err(struct asm_cur *c, const char *fmt, ...)
{
	va_list ap;

	c->a->err_col = (unsigned int)(c->p - c->line) + 1;
	va_start(ap, fmt);
	vsnprintf(c->a->err_msg, sizeof(c->a->err_msg), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* "expected X, found 'tok'" (or "found end of line"). */
int asm_expected(struct asm_cur *c, const char *what)
{
	const char *e;
	int n;

	asm_ws(c);
	if (asm_eol(c))
		return asm_err(c, "expected %s, found end of line", what);
	for (e = c->p; *e && !isspace((unsigned char)*e) && *e != ',' &&
	     *e != ';' && *e != ']' && *e != '}' && *e != ')'; e++)
		;
	n = e == c->p ? 1 : (int)(e - c->p);
	if (n > 24)
		n = 24;
	return asm_err(c, "expected %s, found '%.*s'", what, n, c->p);
}

void asm_ws(struct asm_cur *c)
{
	const char *e;

	for (;;) {
		while (*c->p == ' ' || *c->p == '\t' || *c->p == '\r' ||
		       *c->p == '\n')
			c->p++;
		/* vatom_asm_line() refused an unterminated one */
		if (c->p[0] != '/' || c->p[1] != '*' ||
		    !(e = strstr(c->p + 2, "*/")))
			return;
		c->p = e + 2;
	}
}

/* An unterminated slash-star comment, before a // or # one. */
const char *asm_open_comment(const char *p)
{
	const char *e;

	for (; *p && *p != '#' && !(p[0] == '/' && p[1] == '/'); p++) {
		if (p[0] != '/' || p[1] != '*')
			continue;
		e = strstr(p + 2, "*/");
		if (!e)
			return p;
		p = e + 1;
	}
	return NULL;
}

/* End of the line: nothing left but a // or # comment. */
bool asm_eol(struct asm_cur *c)
{
	asm_ws(c);
	return !*c->p || *c->p == '#' || (c->p[0] == '/' && c->p[1] == '/');
}

bool asm_lit(struct asm_cur *c, const char *s)
{
	size_t n = strlen(s);

	asm_ws(c);
	if (strncmp(c->p, s, n))
		return false;
	c->p += n;
	return true;
}

bool asm_ilit(struct asm_cur *c, const char *s)
{
	size_t n = strlen(s);

	asm_ws(c);
	if (strncasecmp(c->p, s, n))
		return false;
	c->p += n;
	return true;
}

bool asm_peek(struct asm_cur *c, char ch)
{
	asm_ws(c);
	return *c->p == ch;
}

static bool ident_start(char ch)
{
	return isalpha((unsigned char)ch) || ch == '_' || ch == '%' ||
	       ch == '$';
}

/* PTX's followsym: '%' only starts a name (%r1), as in ptxas. */
static bool ident_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_' || ch == '$';
}

/*
 * A name, PTX's identifier: [A-Za-z]{followsym}* or [_$%]{followsym}+.
 * Returns its length or -EINVAL.
 */
int asm_ident(struct asm_cur *c, char *buf, size_t len)
{
	const char *s;
	size_t n;

	asm_ws(c);
	if (!ident_start(*c->p) ||
	    (!isalpha((unsigned char)*c->p) && !ident_char(c->p[1])))
		return asm_expected(c, "a name");
	/* '-' joins words (PTX's cache-policy), never before a digit. */
	for (s = c->p++; ident_char(*c->p) ||
	     (*c->p == '-' && isalpha((unsigned char)c->p[1])); c->p++)
		;
	n = (size_t)(c->p - s);
	if (n >= len) {
		c->p = s;
		return asm_err(c, "name longer than %zu characters", len - 1);
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	return (int)n;
}

/* An opcode-like word: a name that may also hold '.' and "::". */
int asm_word(struct asm_cur *c, char *buf, size_t len)
{
	const char *s;
	size_t n;

	asm_ws(c);
	s = c->p;
	while (ident_char(*c->p) || *c->p == '.' || *c->p == ':')
		c->p++;
	n = (size_t)(c->p - s);
	if (!n || n >= len) {
		c->p = s;
		return asm_expected(c, "an instruction");
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	return (int)n;
}

/* Round-to-nearest-even narrowing of binary32 bits. */
uint16_t vatom__f32_to_f16(uint32_t f)
{
	uint32_t sign = (f >> 16) & 0x8000, mant = f & 0x7fffff;
	int exp = (int)((f >> 23) & 0xff) - 127 + 15;
	uint32_t r, rest, half;
	int shift;

	if (((f >> 23) & 0xff) == 0xff)		/* inf, NaN (quieted) */
		return (uint16_t)(sign | 0x7c00 | (mant ? 0x200 | (mant >> 13) : 0));
	if (exp >= 31)
		return (uint16_t)(sign | 0x7c00);
	if (exp <= 0) {				/* subnormal or zero */
		if (exp < -10)
			return (uint16_t)sign;
		mant |= 0x800000;
		shift = 14 - exp;
	} else {
		shift = 13;
	}
	r = mant >> shift;
	rest = mant & ((1u << shift) - 1);
	half = 1u << (shift - 1);
	if (rest > half || (rest == half && (r & 1)))
		r++;
	if (exp <= 0)
		return (uint16_t)(sign | r);
	return (uint16_t)(sign | (((uint32_t)exp << 10) + r));
}

uint16_t vatom__f32_to_bf16(uint32_t f)
{
	if ((f & 0x7fffffff) > 0x7f800000)	/* NaN: keep it a NaN */
		return (uint16_t)((f >> 16) | 0x40);
	f += 0x7fff + ((f >> 16) & 1);
	return (uint16_t)(f >> 16);
}

static uint64_t float_bits(double d, enum asm_fmt fmt)
{
	float f = (float)d;
	uint32_t u32;
	uint64_t u64;

	memcpy(&u32, &f, 4);
	switch (fmt) {
	case ASM_F16:
		return vatom__f32_to_f16(u32);
	case ASM_BF16:
		return vatom__f32_to_bf16(u32);
	case ASM_F64:
		memcpy(&u64, &d, 8);
		return u64;
	default:
		return u32;
	}
}

static int hex_digits(struct asm_cur *c, unsigned int max, uint64_t *v)
{
	const char *s = c->p;
	uint64_t x = 0;

	while (isxdigit((unsigned char)*c->p)) {
		if ((unsigned int)(c->p - s) >= max)
			return asm_err(c, "number too large");
		x = x << 4 | (uint64_t)(isdigit((unsigned char)*c->p) ?
					*c->p - '0' :
					(tolower((unsigned char)*c->p) - 'a' + 10));
		c->p++;
	}
	if (c->p == s)
		return asm_expected(c, "hexadecimal digits");
	*v = x;
	return 0;
}

/* inf, infinity or nan as a whole word: a symbol may be called "info". */
static bool inf_nan(const char *p)
{
	if (!strncasecmp(p, "infinity", 8))
		return !ident_char(p[8]);
	return (!strncasecmp(p, "inf", 3) || !strncasecmp(p, "nan", 3)) &&
	       !ident_char(p[3]);
}

/* One literal; see the file comment. */
int asm_number(struct asm_cur *c, enum asm_fmt fmt, uint64_t *v)
{
	const char *s;
	bool neg = false;
	char *end;
	uint64_t x = 0;
	double d;
	int ret;

	asm_ws(c);
	s = c->p;
	if (*c->p == '-' || *c->p == '+') {
		neg = *c->p == '-';
		c->p++;
	}
	if (c->p[0] == '0' && (c->p[1] == 'f' || c->p[1] == 'F' ||
			       c->p[1] == 'd' || c->p[1] == 'D') &&
	    isxdigit((unsigned char)c->p[2])) {
		bool dbl = c->p[1] == 'd' || c->p[1] == 'D';
		int n = 0;

		c->p += 2;
		while (ident_char(c->p[n]))
			n++;
		/* PTX: exactly 8 or 16 digits, a whole word */
		if (n != (dbl ? 16 : 8)) {
			c->p = s;
			return asm_err(c, "%s takes exactly %d hex digits (the %s bits)",
				       dbl ? "0d" : "0f", dbl ? 16 : 8,
				       dbl ? "f64" : "f32");
		}
		ret = hex_digits(c, dbl ? 16 : 8, &x);
		if (!ret && ident_char(*c->p))
			ret = asm_expected(c, "hexadecimal digits");
		if (ret)
			return ret;
		if (neg)
			x ^= dbl ? 1ull << 63 : 1ull << 31;
		*v = x;
		return 0;
	}
	if (c->p[0] == '0' && (c->p[1] == 'x' || c->p[1] == 'X')) {
		c->p += 2;
		ret = hex_digits(c, 16, &x);
	} else if (c->p[0] == '0' && (c->p[1] == 'b' || c->p[1] == 'B') &&
		   (c->p[2] == '0' || c->p[2] == '1')) {
		for (c->p += 2; *c->p == '0' || *c->p == '1'; c->p++)
			x = x << 1 | (uint64_t)(*c->p - '0');
		ret = 0;
	} else if (isdigit((unsigned char)*c->p) || inf_nan(c->p)) {
		/* An integer unless it has a point or an exponent. */
		errno = 0;
		x = strtoull(c->p, &end, 10);
		if (*end == '.' || *end == 'e' || *end == 'E' || end == c->p) {
			if (fmt == ASM_INT) {
				c->p = s;
				return asm_err(c, "a floating-point literal for an integer operand");
			}
			d = strtod(s, &end);
			c->p = end;
			if (ident_char(*c->p))
				return asm_err(c, "a floating-point literal takes no suffix (PTX: write 0f%08X for these f32 bits)",
					       (unsigned int)float_bits(d, ASM_F32));
			*v = float_bits(d, fmt);
			return 0;
		}
		if (c->p[0] == '0' && end - c->p > 1) {
			/* 0-led: octal, as in PTX and C */
			const char *digits = c->p;

			for (x = 0, c->p++; isdigit((unsigned char)*c->p); c->p++) {
				if (*c->p > '7')
					return asm_err(c, "digit '%c' in the octal literal '%.*s' (a leading 0 makes it octal)",
						       *c->p, (int)(end - digits), digits);
				if (x >> 61) {
					c->p = s;
					return asm_err(c, "number too large");
				}
				x = x << 3 | (uint64_t)(*c->p - '0');
			}
			errno = 0;
		}
		if (errno) {
			c->p = s;
			return asm_err(c, "number too large");
		}
		c->p = end;
		ret = 0;
	} else {
		c->p = s;
		return asm_expected(c, "a number");
	}
	if (ret)
		return ret;
	/* PTX's unsigned suffix: the bits are the same */
	if (*c->p == 'U' && !ident_char(c->p[1]))
		c->p++;
	else if (*c->p == 'u' && !ident_char(c->p[1]))
		return asm_err(c, "PTX's unsigned suffix is an upper-case U");
	if (ident_char(*c->p)) {
		c->p = s;
		return asm_expected(c, "a number");
	}
	*v = neg ? (uint64_t)0 - x : x;
	return 0;
}

const struct asm_sym *asm_find(const struct vatom_asm *a, const char *name,
			       enum asm_sym_kind kind)
{
	unsigned int i;

	for (i = 0; i < a->nsyms; i++)
		if (a->syms[i].kind == kind && !strcmp(a->syms[i].name, name))
			return &a->syms[i];
	return NULL;
}

static bool number_start(struct asm_cur *c)
{
	asm_ws(c);
	return isdigit((unsigned char)*c->p) || *c->p == '-' || *c->p == '+' ||
	       inf_nan(c->p);
}

/* One scalar: a literal or a one-element value symbol. */
int asm_value(struct asm_cur *c, const char *what, enum asm_fmt fmt,
	      uint64_t *v)
{
	const struct asm_sym *s;
	char name[ASM_NAME_MAX];
	const char *at;

	if (number_start(c))
		return asm_number(c, fmt, v);
	asm_ws(c);
	at = c->p;
	if (!ident_start(*c->p))
		return asm_expected(c, what);
	if (asm_ident(c, name, sizeof(name)) < 0)
		return -EINVAL;
	s = asm_find(c->a, name, ASM_SYM_VALUES);
	if (!s) {
		c->p = at;
		return asm_err(c, "'%s' has no value (define it first) for %s",
			       name, what);
	}
	if (s->count != 1) {
		c->p = at;
		return asm_err(c, "'%s' holds %u values, %s needs one", name,
			       s->count, what);
	}
	*v = s->v[0];
	return 0;
}

/*
 * A vector: {v, v, ...}, a value symbol, or a single literal (@literal
 * says which). @n receives the element count.
 */
int asm_values(struct asm_cur *c, const char *what, enum asm_fmt fmt,
	       uint64_t *v, unsigned int max, unsigned int *n, bool *literal)
{
	const struct asm_sym *s;
	char name[ASM_NAME_MAX];
	const char *at;
	unsigned int i = 0;
	int ret;

	*literal = false;
	if (asm_lit(c, "{")) {
		do {
			if (i == max)
				return asm_err(c, "more than %u values for %s",
					       max, what);
			ret = asm_value(c, "a value", fmt, &v[i++]);
			if (ret)
				return ret;
		} while (asm_lit(c, ","));
		if (!asm_lit(c, "}"))
			return asm_expected(c, "',' or '}'");
		*n = i;
		return 0;
	}
	if (number_start(c)) {
		*literal = true;
		*n = 1;
		return asm_number(c, fmt, v);
	}
	asm_ws(c);
	at = c->p;
	if (!ident_start(*c->p))
		return asm_expected(c, what);
	if (asm_ident(c, name, sizeof(name)) < 0)
		return -EINVAL;
	s = asm_find(c->a, name, ASM_SYM_VALUES);
	if (!s) {
		c->p = at;
		return asm_err(c, "'%s' has no values (define it first) for %s",
			       name, what);
	}
	if (s->count > max) {
		c->p = at;
		return asm_err(c, "'%s' holds %u values, %s takes at most %u",
			       name, s->count, what, max);
	}
	memcpy(v, s->v, s->count * sizeof(*v));
	*n = s->count;
	return 0;
}

/* Nothing but a comment may follow. */
int asm_end(struct asm_cur *c)
{
	if (!asm_eol(c))
		return asm_expected(c, "end of line");
	return 0;
}

void asm_result(struct vatom_asm *a, const char *name)
{
	if (a->nres < ASM_MAX_RESULTS)
		snprintf(a->res[a->nres++], ASM_NAME_MAX, "%s", name);
}
