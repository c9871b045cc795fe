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
 * 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX bit patterns, or decimal (1.5, 1., .5,
 * -2e3, and inf, nan) encoded in the operand's float format, with no
 * suffix. An integer literal is always the raw bits, so a disassembly in
 * hex reads back unchanged. In PTX operands an integer may be a constant
 * expression (asm_expr()). Comments are //, # and one-line slash-star
 * ones, which count as white space.
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
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
	} else if (isdigit((unsigned char)*c->p) || inf_nan(c->p) ||
		   (c->p[0] == '.' && isdigit((unsigned char)c->p[1]))) {
		/* An integer unless it has a point or an exponent (.5 has). */
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

/*
 * PTX constant expressions (PTX ISA "Constant Expressions"), integers
 * only: C's unary + - ~, * / %, binary + -, << >>, &, ^, | with C's
 * precedence, and parentheses. A literal is .s64, or .u64 with a U suffix
 * or above INT64_MAX; an operation with a .u64 operand is .u64, a shift
 * has its left operand's type. .u64 arithmetic wraps, as in C; .s64
 * overflow, a shift count outside 0..63 and a division by zero are errors
 * at the operator.
 */
struct cval {
	uint64_t v;
	bool u;		/* .u64 */
};

/* Parentheses and unary operators, nested: bounds the recursion. */
#define EXPR_DEPTH	64

/* Binary operators, lowest precedence first; "" ends a level. */
static const char *const expr_ops[][4] = {
	{ "|" }, { "^" }, { "&" }, { "<<", ">>" }, { "+", "-" },
	{ "*", "/", "%" },
};

#define EXPR_LEVELS	(sizeof(expr_ops) / sizeof(expr_ops[0]))

/* After an optional sign, a float literal: 0f/0d bits, 1.5, .5, 1e3, inf. */
static bool float_token(const char *p)
{
	if (*p == '-' || *p == '+')
		p++;
	if (p[0] == '0' && (p[1] == 'f' || p[1] == 'F' || p[1] == 'd' ||
			    p[1] == 'D') && isxdigit((unsigned char)p[2]))
		return true;
	if ((p[0] == '.' && isdigit((unsigned char)p[1])) || inf_nan(p))
		return true;
	if (!isdigit((unsigned char)*p) ||
	    (p[0] == '0' && strchr("xXbB", p[1]) && p[1]))
		return false;
	while (isdigit((unsigned char)*p))
		p++;
	return *p == '.' || *p == 'e' || *p == 'E';
}

static int expr_level(struct asm_cur *c, unsigned int lvl, struct cval *r,
		      int depth);

static int expr_primary(struct asm_cur *c, struct cval *r, int depth)
{
	uint64_t x;

	asm_ws(c);
	if (*c->p == '(') {
		if (depth >= EXPR_DEPTH)
			return asm_err(c, "constant expression nested more than %d deep",
				       EXPR_DEPTH);
		c->p++;
		if (expr_level(c, 0, r, depth + 1))
			return -EINVAL;
		if (!asm_lit(c, ")"))
			return asm_expected(c, "an operator or ')'");
		return 0;
	}
	if (float_token(c->p))
		return asm_err(c, "a constant expression takes integers only");
	if (!isdigit((unsigned char)*c->p))
		return asm_expected(c, "a number");
	if (asm_number(c, ASM_INT, &x))
		return -EINVAL;
	r->v = x;
	r->u = c->p[-1] == 'U' || x > INT64_MAX;
	return 0;
}

static int expr_overflow(struct asm_cur *c, const char *at)
{
	c->p = at;
	return asm_err(c, "the constant expression overflows .s64 (a U suffix makes it .u64, which wraps)");
}

static int expr_unary(struct asm_cur *c, struct cval *r, int depth)
{
	const char *at;
	char op;

	asm_ws(c);
	at = c->p;
	op = *c->p;
	if (op != '-' && op != '+' && op != '~')
		return expr_primary(c, r, depth);
	if (depth >= EXPR_DEPTH)
		return asm_err(c, "constant expression nested more than %d deep",
			       EXPR_DEPTH);
	c->p++;
	if (expr_unary(c, r, depth + 1))
		return -EINVAL;
	if (op == '~') {
		r->v = ~r->v;
	} else if (op == '-') {
		if (!r->u && r->v == (uint64_t)INT64_MIN)
			return expr_overflow(c, at);
		r->v = 0 - r->v;
	}
	return 0;
}

/* @l = @l @op @r, @op being at @at. */
static int expr_binop(struct asm_cur *c, const char *at, const char *op,
		      struct cval *l, const struct cval *r)
{
	int64_t a = (int64_t)l->v, b = (int64_t)r->v, s;
	bool u = l->u || r->u;
	uint64_t x;

	switch (op[0]) {
	case '+':
		if (!u && __builtin_add_overflow(a, b, &s))
			return expr_overflow(c, at);
		x = l->v + r->v;
		break;
	case '-':
		if (!u && __builtin_sub_overflow(a, b, &s))
			return expr_overflow(c, at);
		x = l->v - r->v;
		break;
	case '*':
		if (!u && __builtin_mul_overflow(a, b, &s))
			return expr_overflow(c, at);
		x = l->v * r->v;
		break;
	case '/':
	case '%':
		if (!r->v) {
			c->p = at;
			return asm_err(c, "'%s' by zero in a constant expression", op);
		}
		if (u)
			x = op[0] == '/' ? l->v / r->v : l->v % r->v;
		else if (a == INT64_MIN && b == -1)
			return expr_overflow(c, at);
		else
			x = (uint64_t)(op[0] == '/' ? a / b : a % b);
		break;
	case '<':
	case '>':
		if (r->v > 63) {
			c->p = at;
			if (r->u || b >= 0)
				return asm_err(c, "shift count %" PRIu64 " (0 to 63)", r->v);
			return asm_err(c, "shift count %" PRId64 " (0 to 63)", b);
		}
		u = l->u;
		if (op[0] == '>') {
			x = u ? l->v >> b : (uint64_t)(a >> b);
		} else {
			x = l->v << b;
			if (!u && (int64_t)x >> b != a)
				return expr_overflow(c, at);
		}
		break;
	case '&':
		x = l->v & r->v;
		break;
	case '^':
		x = l->v ^ r->v;
		break;
	default:
		x = l->v | r->v;
		break;
	}
	l->v = x;
	l->u = u;
	return 0;
}

/* The operator of level @lvl at @p, or NULL ('&&' and '||' are not '&', '|'). */
static const char *expr_op(unsigned int lvl, const char *p)
{
	unsigned int i;
	size_t n;

	for (i = 0; i < 4 && expr_ops[lvl][i]; i++) {
		n = strlen(expr_ops[lvl][i]);
		if (!strncmp(p, expr_ops[lvl][i], n) &&
		    (n == 2 || (p[1] != '&' && p[1] != '|') || p[1] != p[0]))
			return expr_ops[lvl][i];
	}
	return NULL;
}

static int expr_level(struct asm_cur *c, unsigned int lvl, struct cval *r,
		      int depth)
{
	struct cval rhs;
	const char *at, *op;

	if (lvl == EXPR_LEVELS)
		return expr_unary(c, r, depth);
	if (expr_level(c, lvl + 1, r, depth))
		return -EINVAL;
	for (;;) {
		asm_ws(c);
		at = c->p;
		op = expr_op(lvl, c->p);
		if (!op)
			return 0;
		c->p += strlen(op);
		if (expr_level(c, lvl + 1, &rhs, depth) ||
		    expr_binop(c, at, op, r, &rhs))
			return -EINVAL;
	}
}

/*
 * A PTX operand's number: a float literal on its own (encoded in @fmt, as
 * asm_number()), or an integer constant expression (see above).
 */
int asm_expr(struct asm_cur *c, enum asm_fmt fmt, uint64_t *v)
{
	struct cval r;

	asm_ws(c);
	if (float_token(c->p)) {
		if (asm_number(c, fmt, v))
			return -EINVAL;
		asm_ws(c);
		if (*c->p && strchr("+-*/%<>&|^", *c->p))
			return asm_err(c, "a constant expression takes integers only");
		return 0;
	}
	if (expr_level(c, 0, &r, 0))
		return -EINVAL;
	*v = r.v;
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
	       inf_nan(c->p) ||
	       (c->p[0] == '.' && isdigit((unsigned char)c->p[1])) ||
	       (c->expr && (*c->p == '(' || *c->p == '~'));
}

/* A literal, or in PTX operands a constant expression. */
static int number(struct asm_cur *c, enum asm_fmt fmt, uint64_t *v)
{
	return c->expr ? asm_expr(c, fmt, v) : asm_number(c, fmt, v);
}

/* One scalar: a literal or a one-element value symbol. */
int asm_value(struct asm_cur *c, const char *what, enum asm_fmt fmt,
	      uint64_t *v)
{
	const struct asm_sym *s;
	char name[ASM_NAME_MAX];
	const char *at;

	if (number_start(c))
		return number(c, fmt, v);
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
		return number(c, fmt, v);
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
