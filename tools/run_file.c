// SPDX-License-Identifier: MIT
/*
 * vatom run: reading a test file. Declarations (buffer, typed, grid,
 * values, address), memory initialisations (init), ISA lines (handed to
 * libvatom's assembler, packets collected in an offline batch), expect
 * and print lines, and submit, which closes a batch. Every bad line is
 * reported, compiler-style (file:line:col: error: ...), before anything
 * runs. The format is in docs/vatom-run.md.
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"

static void __attribute__((format(printf, 4, 5)))
diag(struct run_file *f, unsigned int line, unsigned int col,
     const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%u:", f->path, line);
	if (col)
		fprintf(stderr, "%u:", col);
	fprintf(stderr, " error: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	/* the line and a caret under the column, as compilers show it */
	if (col && f->text)
		fprintf(stderr, "  %s\n  %*s^\n", f->text, (int)col - 1, "");
	f->errors++;
}

/* The 1-based column of @p in the line being read. */
static unsigned int col_of(const struct run_file *f, const char *p)
{
	return (unsigned int)(p - f->text) + 1;
}

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static const char *word(const char *p, char *buf, size_t len)
{
	size_t n = 0;

	p = skip_ws(p);
	while (*p && !isspace((unsigned char)*p) && *p != '=' && n + 1 < len)
		buf[n++] = *p++;
	buf[n] = '\0';
	return p;
}

/*
 * A literal in the element's format: integers (C's and PTX's forms: 0x,
 * 0b, 0-led octal, decimal, a U suffix) are bits, 1.5 a float.
 */
static int one_value(const char *s, unsigned int width, uint64_t *v,
		     const char **end)
{
	char *e;
	double d;
	float fl;
	uint32_t u;

	s = skip_ws(s);
	if (s[0] == '0' && (s[1] == 'f' || s[1] == 'd') &&
	    isxdigit((unsigned char)s[2])) {
		*v = strtoull(s + 2, &e, 16);
	} else {
		const char *q = s + (*s == '-');

		errno = 0;
		if (q[0] == '0' && (q[1] == 'b' || q[1] == 'B') &&
		    (q[2] == '0' || q[2] == '1')) {
			/* 0b binary, as the assembler reads it */
			*v = strtoull(q + 2, &e, 2);
			if (*s == '-')
				*v = (uint64_t)0 - *v;
		} else {
			*v = strtoull(s, &e, 0);
			if (*s == '-')
				*v = (uint64_t)strtoll(s, &e, 0);
		}
		/* PTX's unsigned suffix, as the assembler takes it */
		if (e != s && *e == 'U')
			e++;
		else if (*e == '.' || *e == 'e' || *e == 'E' || e == s) {
			d = strtod(s, &e);
			if (e == s)
				return -EINVAL;
			if (width == 8) {
				memcpy(v, &d, 8);
			} else if (width == 4) {
				fl = (float)d;
				memcpy(&u, &fl, 4);
				*v = u;
			} else {
				return -EINVAL;	/* 16-bit floats: write the bits */
			}
		}
	}
	*end = e;
	return 0;
}

/* "v" or "{v, v, ...}" */
int run_parse_values(const char *s, unsigned int width, uint64_t *v,
		     unsigned int max, unsigned int *n, const char **end)
{
	bool brace;

	s = skip_ws(s);
	brace = *s == '{';
	if (brace)
		s++;
	*n = 0;
	/* on failure too, @end says where: the caller's column */
	*end = s;
	do {
		*end = skip_ws(s);
		if (*n == max || one_value(s, width, &v[*n], &s))
			return -EINVAL;
		(*n)++;
		s = skip_ws(s);
		*end = s;
	} while (brace && *s == ',' && s++);
	if (brace) {
		if (*s != '}')
			return -EINVAL;
		s++;
	}
	*end = s;
	return 0;
}

static struct run_surf *find_surf(struct run_file *f, const char *name,
				  size_t len)
{
	unsigned int i;

	for (i = 0; i < f->nsurf; i++)
		if (strlen(f->surf[i].name) == len &&
		    !strncmp(f->surf[i].name, name, len))
			return &f->surf[i];
	return NULL;
}

static unsigned int width_of(const char *t)
{
	if (!strcmp(t, "u8") || !strcmp(t, "s8"))
		return 1;
	if (!strcmp(t, "u16") || !strcmp(t, "s16") || !strcmp(t, "f16") ||
	    !strcmp(t, "bf16"))
		return 2;
	if (!strcmp(t, "u32") || !strcmp(t, "s32") || !strcmp(t, "f32"))
		return 4;
	if (!strcmp(t, "u64") || !strcmp(t, "s64") || !strcmp(t, "f64"))
		return 8;
	return 0;
}

static const struct {
	const char *name;
	unsigned int index;
} counters[] = {
	{ "atomic_resp_received", DRM_VATOM_NOC_MST_ATOMIC_RESP_RECEIVED },
	{ "cmd_accepted", DRM_VATOM_NOC_MST_CMD_ACCEPTED },
	{ "nonposted_atomic_sent", DRM_VATOM_NOC_MST_NONPOSTED_ATOMIC_SENT },
	{ "posted_atomic_sent", DRM_VATOM_NOC_MST_POSTED_ATOMIC_SENT },
	{ "nonposted_atomic_started", DRM_VATOM_NOC_MST_NONPOSTED_ATOMIC_STARTED },
	{ "slv_atomic_resp_sent", DRM_VATOM_NOC_SLV_ATOMIC_RESP_SENT },
	{ "slv_req_accepted", DRM_VATOM_NOC_SLV_REQ_ACCEPTED },
	{ "slv_nonposted_atomic_received", DRM_VATOM_NOC_SLV_NONPOSTED_ATOMIC_RECEIVED },
	{ "slv_posted_atomic_received", DRM_VATOM_NOC_SLV_POSTED_ATOMIC_RECEIVED },
};

#define TYPES_LIST "u8, u16, u32, u64, s8, s16, s32, s64, f16, bf16, f32 or f64"

/* A decimal or 0x number at @p; NULL (and no value) if there is none. */
static const char *number(const char *p, uint64_t *v)
{
	char *end;

	if (!isdigit((unsigned char)*p))
		return NULL;
	errno = 0;
	*v = strtoull(p, &end, 0);
	if (errno || isalnum((unsigned char)*end) || *end == '_')
		return NULL;
	return end;
}

/*
 * A memory target: surf+off:type, grid(x,y)+off:type or
 * grid(x,y)[.noc1].counter; else a result name. Returns the rest, or
 * NULL after a diagnostic.
 */
static const char *target(struct run_file *f, unsigned int line,
			  const char *p, struct run_target *t)
{
	const char *s = skip_ws(p), *e = s, *q;
	char type[8], cname[48];
	unsigned int i;
	uint64_t v;

	memset(t, 0, sizeof(*t));
	while (isalnum((unsigned char)*e) || *e == '_' || *e == '%' || *e == '$')
		e++;
	if (e == s) {
		diag(f, line, col_of(f, s), "expected a result name, surf+offset:type, grid(x,y)+offset:type or grid(x,y).counter");
		return NULL;
	}
	t->surf = find_surf(f, s, (size_t)(e - s));
	if (!t->surf) {
		t->kind = RUN_T_RESULT;
		snprintf(t->name, sizeof(t->name), "%.*s", (int)(e - s), s);
		return e;
	}
	if (*e == '(') {
		if (t->surf->kind != RUN_GRID) {
			diag(f, line, col_of(f, e), "'%s' is not a tile grid: write %s+offset:type",
			     t->surf->name, t->surf->name);
			return NULL;
		}
		q = number(skip_ws(e + 1), &v);
		if (q && v < 64) {
			t->x = (unsigned int)v;
			q = skip_ws(q);
		}
		if (q && v < 64 && *q == ',' && (q = number(skip_ws(q + 1), &v)) &&
		    v < 64)
			t->y = (unsigned int)v;
		if (!q || v >= 64 || *(q = skip_ws(q)) != ')') {
			diag(f, line, col_of(f, e), "expected a tile (x,y), x and y 0 to 63");
			return NULL;
		}
		e = q + 1;
		if (*e == '.') {
			e++;
			if (!strncmp(e, "noc1.", 5)) {
				t->noc = 1;
				e += 5;
			}
			q = e;
			for (i = 0; isalnum((unsigned char)e[i]) || e[i] == '_' ||
			     e[i] == '[' || e[i] == ']'; i++)
				if (i + 1 < sizeof(cname))
					cname[i] = e[i];
			cname[i < sizeof(cname) ? i : sizeof(cname) - 1] = '\0';
			e += i;
			t->kind = RUN_T_COUNTER;
			t->width = 4;
			if (!strncmp(cname, "outstanding[", 12)) {
				const char *r = number(cname + 12, &v);

				/* one 8-bit counter per transaction ID, 0 to 15 */
				if (!r || v > 15 || strcmp(r, "]")) {
					diag(f, line, col_of(f, q), "expected outstanding[ID], ID 0 to 15");
					return NULL;
				}
				t->offset = DRM_VATOM_NOC_MST_REQS_OUTSTANDING_ID(v);
				return e;
			}
			for (i = 0; i < ARRAY_SIZE(counters); i++)
				if (!strcmp(cname, counters[i].name)) {
					t->offset = counters[i].index;
					return e;
				}
			diag(f, line, col_of(f, q), "unknown counter '%s' (e.g. atomic_resp_received, outstanding[2]; docs/vatom-run.md lists them)",
			     cname);
			return NULL;
		}
		t->kind = RUN_T_L1;
	} else if (t->surf->kind == RUN_GRID) {
		diag(f, line, col_of(f, e), "expected a tile after grid '%s': %s(x,y)+offset:type or %s(x,y).counter",
		     t->surf->name, t->surf->name, t->surf->name);
		return NULL;
	} else {
		t->kind = RUN_T_MEMORY;
	}
	t->offset = 0;
	if (*e == '+') {
		q = number(e + 1, &t->offset);
		if (!q) {
			diag(f, line, col_of(f, e + 1), "expected an offset after '+'");
			return NULL;
		}
		e = q;
	}
	if (*e != ':') {
		diag(f, line, col_of(f, e), "expected ':' and the element type (" TYPES_LIST "), e.g. %.*s:u32",
		     (int)(e - s), s);
		return NULL;
	}
	q = e + 1;
	for (i = 0; isalnum((unsigned char)q[i]) && i + 1 < sizeof(type); i++)
		type[i] = q[i];
	type[i] = '\0';
	t->width = width_of(type);
	if (!t->width || isalnum((unsigned char)q[i])) {
		diag(f, line, col_of(f, q), "unknown element type '%.*s' (expected " TYPES_LIST ")",
		     (int)strcspn(q, " \t="), q);
		return NULL;
	}
	return q + i;
}

/* The profiles' L1 sizes, as userlib/noc.c (spec/noc-atomics.md section 7). */
static uint32_t l1_size(const struct run_surf *s, uint8_t type)
{
	static const uint32_t l1[2][2] = {
		[DRM_VATOM_NOC_PROFILE_WORMHOLE] = { 1464 * 1024, 256 * 1024 },
		[DRM_VATOM_NOC_PROFILE_BLACKHOLE] = { 1536 * 1024, 512 * 1024 },
	};

	if (type != DRM_VATOM_TILE_TENSIX && type != DRM_VATOM_TILE_ETHERNET)
		return 0;
	return s->grid.l1_size[type] ? s->grid.l1_size[type] :
	       l1[s->grid.profile][type];
}

/*
 * @n elements at @t must lie in one buffer or one tile's L1: the tile
 * L1s lie back to back in the grid's mapping, so a range past one L1
 * would write the next tile (or past the mapping). Checked here, before
 * anything runs, so that the error has the file's line.
 */
static int check_range(struct run_file *f, unsigned int line,
		       unsigned int col, const struct run_target *t,
		       unsigned int n)
{
	static const char *const tname[] = { "Tensix", "Ethernet", "DRAM", "PCIe" };
	const struct run_surf *s = t->surf;
	uint64_t end = t->offset + (uint64_t)n * t->width, size;
	uint8_t type;

	if (t->kind == RUN_T_RESULT)
		return 0;
	if (t->kind == RUN_T_MEMORY) {
		if (s->kind != RUN_BUFFER) {
			diag(f, line, col, "'%s' is not a buffer: write %s(x,y)+offset:type for an L1, buffers take %s+offset:type",
			     s->name, s->name, s->name);
			return -EINVAL;
		}
		if (end > s->size) {
			diag(f, line, col, "%u x %u bytes at +0x%" PRIx64 " end at 0x%" PRIx64 ", past the end of '%s' (%" PRIu64 " bytes)",
			     n, t->width, t->offset, end, s->name, s->size);
			return -EINVAL;
		}
		return 0;
	}
	if (t->x >= s->grid.width || t->y >= s->grid.height) {
		diag(f, line, col, "tile (%u,%u) is outside grid '%s' (%u x %u tiles: x 0 to %u, y 0 to %u)",
		     t->x, t->y, s->name, s->grid.width, s->grid.height,
		     s->grid.width - 1, s->grid.height - 1);
		return -EINVAL;
	}
	if (t->kind == RUN_T_COUNTER)
		return 0;
	type = s->types[t->y * s->grid.width + t->x];
	size = l1_size(s, type);
	if (!size) {
		diag(f, line, col, "tile (%u,%u) of '%s' is a %s tile: it has no L1",
		     t->x, t->y, s->name, tname[type & 3]);
		return -EINVAL;
	}
	if (end > size) {
		diag(f, line, col, "%u x %u bytes at +0x%" PRIx64 " end at 0x%" PRIx64 ", past the end of tile (%u,%u)'s L1 (0x%" PRIx64 " bytes)",
		     n, t->width, t->offset, end, t->x, t->y, size);
		return -EINVAL;
	}
	return 0;
}

/*
 * How many values an expectation of result @t lists, as run.c reads
 * them back: every lane of a vISA packet (its Exec_size: disabled lanes
 * read 0), each vector element of a PTX d, or all of them under one
 * name; a b128 is {low, high}.
 */
static unsigned int result_count(const struct run_file *f,
				 const struct run_target *t, bool *visa)
{
	const struct run_pkt *pk = &f->pkts[t->packet];
	const struct drm_vatom_packet *hdr;
	const struct drm_vatom_ptx *x;

	hdr = vatom_batch_packet(f->steps[pk->step].b, pk->res, NULL);
	if (!hdr)
		return 0;
	*visa = hdr->type == DRM_VATOM_PACKET_VISA;
	if (*visa)
		return 1u << (((const struct drm_vatom_visa *)hdr)->exec_size &
			      DRM_VATOM_VISA_EXEC_SIZE_MASK);
	if (hdr->type != DRM_VATOM_PACKET_PTX)
		return 0;
	x = (const void *)hdr;
	if (x->type == DRM_VATOM_PTX_TYPE_B128)
		return 2;
	return pk->nnames > 1 || !x->vec ? 1 : x->vec;
}

/* The last packet that named this result, in the current step. */
static int bind_result(struct run_file *f, struct run_target *t)
{
	const struct run_step *st = &f->steps[f->nsteps - 1];
	unsigned int i, j;

	for (i = f->npkts; i-- > st->first_pkt;)
		for (j = 0; j < f->pkts[i].nnames; j++)
			if (!strcmp(f->pkts[i].names[j], t->name)) {
				t->packet = (int)i;
				t->elem = j;
				return 0;
			}
	return -ENOENT;
}

static int grow(void **p, unsigned int n, size_t size)
{
	void *q;

	if (n & (n - 1) && n > 8)
		return 0;
	q = realloc(*p, (n < 8 ? 8 : 2 * n) * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	return 0;
}

static struct run_step *new_step(struct run_file *f)
{
	struct run_step *st;

	if (grow((void **)&f->steps, f->nsteps, sizeof(*st)))
		return NULL;
	st = &f->steps[f->nsteps];
	memset(st, 0, sizeof(*st));
	st->first_pkt = f->npkts;
	if (vatom_batch_create(f->dev, 0, &st->b))
		return NULL;
	f->nsteps++;
	return st;
}

static int expect_line(struct run_file *f, unsigned int line, const char *p,
		       bool init)
{
	struct run_step *st = &f->steps[f->nsteps - 1];
	struct run_expect e = { .line = line };
	const char *rest;

	rest = target(f, line, p, &e.t);
	if (!rest)
		return -EINVAL;
	snprintf(e.text, sizeof(e.text), "%.*s", (int)strcspn(skip_ws(p), "\n"),
		 skip_ws(p));
	if (e.t.kind == RUN_T_RESULT) {
		if (init) {
			diag(f, line, col_of(f, skip_ws(p)), "init needs memory: surf+offset:type = values");
			return -EINVAL;
		}
		if (bind_result(f, &e.t)) {
			diag(f, line, col_of(f, skip_ws(p)), "no instruction above (since the last submit) has a result named '%s'",
			     e.t.name);
			return -EINVAL;
		}
	}
	rest = skip_ws(rest);
	if (*rest != '=') {
		diag(f, line, col_of(f, rest), "expected '='");
		return -EINVAL;
	}
	/* Result widths are known at run time: parse floats as f32 then. */
	if (run_parse_values(rest + 1, e.t.width ? e.t.width : 4, e.want,
			     RUN_MAX_VALS, &e.n, &rest) ||
	    (*skip_ws(rest) && *skip_ws(rest) != '#')) {
		diag(f, line, col_of(f, skip_ws(rest)), "expected a value or {v, v, ...} after '='");
		return -EINVAL;
	}
	if (check_range(f, line, col_of(f, skip_ws(p)), &e.t, e.n))
		return -EINVAL;
	if (e.t.kind == RUN_T_RESULT) {
		bool visa;
		unsigned int want = result_count(f, &e.t, &visa);

		if (want && e.n != want) {
			diag(f, line, col_of(f, skip_ws(p)), "'%s' has %u value%s, the expectation lists %u (%s)",
			     e.t.name, want, want == 1 ? "" : "s", e.n,
			     want == 1 ? "write one value" : visa ?
			     "{v, v, ...}: one per lane of the Exec_size; disabled lanes read 0" :
			     "{v, v, ...}: one per element");
			return -EINVAL;
		}
	}
	if (init) {
		if (grow((void **)&f->inits, f->ninits, sizeof(e)))
			return -ENOMEM;
		f->inits[f->ninits++] = e;
		return 0;
	}
	if (grow((void **)&st->expects, st->nexpects, sizeof(e)))
		return -ENOMEM;
	st->expects[st->nexpects++] = e;
	return 0;
}

static unsigned int take_slot(struct run_file *f, const char **p)
{
	const char *s = skip_ws(*p);
	char *end;
	unsigned long t;

	if (!strncmp(s, "at T", 4)) {
		t = strtoul(s + 4, &end, 10);
		*p = end;
		return t == 255 ? VATOM_T255 : (unsigned int)t;
	}
	if (f->next_slot == VATOM_T255)
		f->next_slot++;
	return f->next_slot++;
}

static const char *tile_types(struct run_surf *s, const char *p)
{
	unsigned int w = 0, x = 0, n = 0;

	for (p = skip_ws(p); *p && !isspace((unsigned char)*p); p++) {
		if (*p == '/') {
			if (w && x != w)
				return NULL;
			w = x;
			x = 0;
			continue;
		}
		if (n == sizeof(s->types))
			return NULL;
		switch (*p) {
		case 'T':
			s->types[n++] = DRM_VATOM_TILE_TENSIX;
			break;
		case 'E':
			s->types[n++] = DRM_VATOM_TILE_ETHERNET;
			break;
		case 'D':
			s->types[n++] = DRM_VATOM_TILE_DRAM;
			break;
		case 'P':
			s->types[n++] = DRM_VATOM_TILE_PCIE;
			break;
		default:
			return NULL;
		}
		x++;
	}
	if (!x || (w && x != w))
		return NULL;
	s->grid.width = x;
	s->grid.height = n / x;
	s->grid.tile_types = (uintptr_t)s->types;
	return p;
}

static int declare(struct run_file *f, struct vatom_asm *a, unsigned int line,
		   const char *kw, const char *p)
{
	struct run_surf *s, *dup;
	char name[RUN_NAME], arg[32];
	unsigned long w, h = 1, d = 1, v;
	const char *q, *after;
	char *end;

	if (f->nsurf == RUN_MAX_SURF) {
		diag(f, line, col_of(f, skip_ws(f->text)), "more than %d surfaces", RUN_MAX_SURF);
		return -E2BIG;
	}
	s = &f->surf[f->nsurf];
	memset(s, 0, sizeof(*s));
	q = skip_ws(p);
	p = word(p, name, sizeof(name));
	after = skip_ws(p);
	/* a second declaration would silently replace the first */
	dup = find_surf(f, name, strlen(name));
	if (*name && dup) {
		diag(f, line, col_of(f, q), "'%s' is already declared, at line %u",
		     name, dup->line);
		return -EINVAL;
	}
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->line = line;
	if (!strcmp(kw, "buffer")) {
		s->kind = RUN_BUFFER;
		s->size = strtoull(p, &end, 0);
		if (end == p || !s->size) {
			diag(f, line, col_of(f, after), "expected: buffer NAME SIZE [at T<slot>]");
			return -EINVAL;
		}
		p = end;
	} else if (!strcmp(kw, "typed")) {
		static const char *const dims[] = { "1d", "1d_array", "2d",
						    "2d_array", "3d" };

		s->kind = RUN_TYPED;
		p = word(p, arg, sizeof(arg));
		for (v = 0; v < ARRAY_SIZE(dims) && strcmp(arg, dims[v]); v++)
			;
		w = strtoul(p, &end, 0);
		if (v == ARRAY_SIZE(dims) || end == p) {
			diag(f, line, col_of(f, after), "expected: typed NAME 1d|1d_array|2d|2d_array|3d W[xH[xD]] [array N] [levels N] [at T<slot>]");
			return -EINVAL;
		}
		if (*end == 'x')
			h = strtoul(end + 1, &end, 0);
		if (*end == 'x')
			d = strtoul(end + 1, &end, 0);
		p = end;
		s->typed = (struct drm_vatom_typed_desc){
			.dim = (uint32_t)v, .width = (uint32_t)w,
			.height = (uint32_t)h, .depth = (uint32_t)d,
			.array_size = 1, .levels = 1,
		};
		for (;;) {
			p = skip_ws(p);
			if (!strncmp(p, "array ", 6))
				s->typed.array_size = (uint32_t)strtoul(p + 6, &end, 0);
			else if (!strncmp(p, "levels ", 7))
				s->typed.levels = (uint32_t)strtoul(p + 7, &end, 0);
			else
				break;
			p = end;
		}
	} else {
		s->kind = RUN_GRID;
		p = word(p, arg, sizeof(arg));
		if (!strcmp(arg, "wormhole"))
			s->grid.profile = DRM_VATOM_NOC_PROFILE_WORMHOLE;
		else if (!strcmp(arg, "blackhole"))
			s->grid.profile = DRM_VATOM_NOC_PROFILE_BLACKHOLE;
		else
			p = NULL;
		if (p)
			p = tile_types(s, p);
		if (!p) {
			diag(f, line, col_of(f, after), "expected: grid NAME wormhole|blackhole ROWS (tiles T, E, D, P; rows split by /, e.g. TTE/TDT) [l1 BYTES] [at T<slot>]");
			return -EINVAL;
		}
		p = skip_ws(p);
		if (!strncmp(p, "l1 ", 3)) {
			v = strtoul(p + 3, &end, 0);
			s->grid.l1_size[DRM_VATOM_TILE_TENSIX] = (uint32_t)v;
			s->grid.l1_size[DRM_VATOM_TILE_ETHERNET] = (uint32_t)v;
			p = end;
		}
	}
	s->slot = take_slot(f, &p);
	if (*skip_ws(p) && *skip_ws(p) != '#') {
		diag(f, line, col_of(f, skip_ws(p)), "unexpected '%s'", skip_ws(p));
		return -EINVAL;
	}
	f->nsurf++;
	if (s->kind == RUN_GRID)
		return vatom_asm_define_grid(a, s->name, s->slot, s->grid.profile);
	return vatom_asm_define_address(a, s->name, s->slot, 0);
}

static int symbol(struct run_file *f, struct vatom_asm *a, unsigned int line,
		  const char *kw, const char *p)
{
	uint64_t v[RUN_MAX_VALS];
	char name[RUN_NAME];
	struct run_surf *s;
	const char *e;
	unsigned int n;

	p = skip_ws(p);
	for (e = p; isalnum((unsigned char)*e) || *e == '_' || *e == '%' ||
	     *e == '$' || (*e == '-' && isalpha((unsigned char)e[1])); e++)
		;
	snprintf(name, sizeof(name), "%.*s", (int)(e - p), p);
	e = skip_ws(e);
	if (*e != '=' || !*name) {
		diag(f, line, col_of(f, e), "expected: %s NAME = ...", kw);
		return -EINVAL;
	}
	e = skip_ws(e + 1);
	if (!strcmp(kw, "address")) {
		const char *b = e;
		uint64_t off = 0;
		char *end;

		while (isalnum((unsigned char)*e) || *e == '_')
			e++;
		s = find_surf(f, b, (size_t)(e - b));
		if (!s) {
			diag(f, line, col_of(f, b), "expected: address NAME = SURFACE[+OFFSET], found '%.*s' (not a surface)",
			     (int)strcspn(b, " \t+"), b);
			return -EINVAL;
		}
		if (*e == '+')
			off = strtoull(e + 1, &end, 0), e = end;
		if (*skip_ws(e) && *skip_ws(e) != '#') {
			diag(f, line, col_of(f, skip_ws(e)), "unexpected '%s' after the address",
			     skip_ws(e));
			return -EINVAL;
		}
		return vatom_asm_define_address(a, name, s->slot, off);
	}
	if (run_parse_values(e, 4, v, RUN_MAX_VALS, &n, &e) ||
	    (*skip_ws(e) && *skip_ws(e) != '#')) {
		diag(f, line, col_of(f, skip_ws(e)), "expected: values NAME = v | {v, v, ...}");
		return -EINVAL;
	}
	if (vatom_asm_define_values(a, name, v, n)) {
		diag(f, line, col_of(f, p), "bad symbol name '%s' (a PTX identifier: a letter, or _, $ or %% and more, then letters, digits, _ or $)",
		     name);
		return -EINVAL;
	}
	return 0;
}

static int print_line(struct run_file *f, unsigned int line, const char *p)
{
	struct run_print pr = { .line = line, .step = f->nsteps - 1 };
	const char *rest = target(f, line, p, &pr.t);

	if (!rest)
		return -EINVAL;
	if (pr.t.kind == RUN_T_RESULT) {
		diag(f, line, col_of(f, skip_ws(p)), "expected: print surf+offset:type [COUNT] (or grid(x,y)+offset:type, grid(x,y).counter)");
		return -EINVAL;
	}
	snprintf(pr.text, sizeof(pr.text), "%.*s", (int)sizeof(pr.text) - 1,
		 skip_ws(p));
	pr.count = (unsigned int)strtoul(rest, NULL, 0);
	if (!pr.count)
		pr.count = 1;
	if (check_range(f, line, col_of(f, skip_ws(p)), &pr.t,
			pr.count < 256 ? pr.count : 256))
		return -EINVAL;
	if (grow((void **)&f->prints, f->nprints, sizeof(pr)))
		return -ENOMEM;
	f->prints[f->nprints++] = pr;
	return 0;
}

static int isa_line(struct run_file *f, struct vatom_asm *a,
		    unsigned int line, const char *text)
{
	struct run_step *st = &f->steps[f->nsteps - 1];
	struct run_pkt *pk;
	const char *msg, *name;
	unsigned int col = 0, i;
	int ret;

	ret = vatom_asm_line(a, st->b, text);
	if (ret == -ENODATA)
		return 0;
	if (ret < 0) {
		msg = vatom_asm_error(a, &col);
		diag(f, line, msg ? col : 0, "%s", msg ? msg : strerror(-ret));
		return ret;
	}
	if (grow((void **)&f->pkts, f->npkts, sizeof(*pk)))
		return -ENOMEM;
	pk = &f->pkts[f->npkts++];
	memset(pk, 0, sizeof(*pk));
	pk->line = line;
	pk->step = f->nsteps - 1;
	pk->res = ret;
	for (i = 0; i < 8 && (name = vatom_asm_result_name(a, i)); i++)
		snprintf(pk->names[pk->nnames++], RUN_NAME, "%s", name);
	st->npkts++;
	return 0;
}

/*
 * Blank out slash-star comments, which may span lines (as in PTX and C),
 * keeping the columns; @open is the line where one is still open, or 0.
 */
static void blank_comments(char *p, unsigned int line, unsigned int *open,
			   unsigned int *open_col)
{
	char *line_start = p, *e;

	while (*p) {
		if (*open) {
			e = strstr(p, "*/");
			memset(p, ' ', e ? (size_t)(e + 2 - p) : strlen(p));
			if (!e)
				return;
			*open = 0;
			p = e + 2;
		} else if (*p == '#' || (p[0] == '/' && p[1] == '/')) {
			return;
		} else if (p[0] == '/' && p[1] == '*') {
			*open = line;
			*open_col = (unsigned int)(p - line_start) + 1;
			p[0] = p[1] = ' ';
			p += 2;
		} else {
			p++;
		}
	}
}

int run_file_read(struct run_file *f, FILE *in, struct vatom_asm *a)
{
	char buf[4096], kw[16];
	unsigned int line = 0, open = 0, open_col = 0;
	const char *p, *rest;

	f->next_slot = 1;
	if (!new_step(f))
		return -ENOMEM;
	while (fgets(buf, sizeof(buf), in)) {
		line++;
		buf[strcspn(buf, "\r\n")] = '\0';
		blank_comments(buf, line, &open, &open_col);
		f->text = buf;
		p = skip_ws(buf);
		if (!*p || *p == '#' || (p[0] == '/' && p[1] == '/'))
			continue;
		rest = word(p, kw, sizeof(kw));
		if (!strcmp(kw, "buffer") || !strcmp(kw, "typed") ||
		    !strcmp(kw, "grid"))
			declare(f, a, line, kw, rest);
		else if (!strcmp(kw, "values") || !strcmp(kw, "address"))
			symbol(f, a, line, kw, rest);
		else if (!strcmp(kw, "init"))
			expect_line(f, line, rest, true);
		else if (!strcmp(kw, "expect"))
			expect_line(f, line, rest, false);
		else if (!strcmp(kw, "print"))
			print_line(f, line, rest);
		else if (!strcmp(kw, "submit")) {
			if (!new_step(f))
				return -ENOMEM;
		} else
			isa_line(f, a, line, buf);
	}
	f->text = NULL;
	if (open)
		diag(f, open, open_col, "unterminated /* comment");
	return f->errors ? -EINVAL : 0;
}

void run_file_free(struct run_file *f)
{
	unsigned int i;

	for (i = 0; i < f->nsteps; i++) {
		free(f->steps[i].expects);
		vatom_batch_destroy(f->steps[i].b);
	}
	for (i = 0; i < f->nsurf; i++)
		vatom_surface_destroy(f->surf[i].s);
	free(f->steps);
	free(f->pkts);
	free(f->prints);
	free(f->inits);
}
