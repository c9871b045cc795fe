// SPDX-License-Identifier: MIT
/*
 * vatom dump / vatom replay: reading a vatom devcoredump. The text is
 * the driver's (driver/vatom_coredump.c), documented with its version in
 * docs/robustness.md, "Reading a hang": "key: value" lines, blob lines
 * of " k=v" tokens ending with ascii85=. Anything else, a line cut short,
 * a blob that does not decode to what it says, a version this tool does
 * not know, is refused with the line and the reason: a dump is input
 * from outside, read whole before anything uses it.
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>

#include "coredump.h"

#define CD_CLASS	"/sys/class/devcoredump"
/* Largest dump read: coredump_max_kb's 64 MiB, as ascii85, and room. */
#define CD_MAX_TEXT	(96ull << 20)

/* Fail with "line N: ...", for cd_parse(). */
static int cd_fail(char *err, size_t len, unsigned int line, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(err, len, "line %u: ", line);

	va_start(ap, fmt);
	vsnprintf(err + n, len > (size_t)n ? len - n : 0, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* The number after " @tok=" (or "@tok=" first) in @v, into *@out. */
static bool cd_tok(const char *v, const char *tok, uint64_t *out)
{
	size_t k = strlen(tok);
	const char *p;
	char *end;

	for (p = v; (p = strstr(p, tok)); p += k) {
		if ((p == v || p[-1] == ' ') && p[k] == '=') {
			errno = 0;
			*out = strtoull(p + k + 1, &end, 0);
			return !errno && end != p + k + 1 &&
			       (*end == ' ' || *end == '\0' || *end == ',');
		}
	}
	return false;
}

/* The word after " @tok=" in @v, into @out (@len bytes). */
static bool cd_word(const char *v, const char *tok, char *out, size_t len)
{
	size_t k = strlen(tok), n;
	const char *p;

	for (p = v; (p = strstr(p, tok)); p += k) {
		if ((p == v || p[-1] == ' ') && p[k] == '=') {
			p += k + 1;
			n = strcspn(p, " ");
			if (!n || n >= len)
				return false;
			memcpy(out, p, n);
			out[n] = '\0';
			return true;
		}
	}
	return false;
}

/*
 * Decode @n characters of ascii85 at @s into @b->captured bytes. Return:
 * 0, or -EINVAL when they are not whole words of the alphabet ('!'..'u',
 * 'z' for a zero word) or not that many bytes.
 */
static int cd_ascii85(const char *s, size_t n, struct cd_blob *b)
{
	uint64_t words = (b->captured + 3) / 4, w, i = 0;
	uint32_t w32;
	int k;

	/* At least a character a word: the text bounds what is allocated. */
	if (words > n)
		return -EINVAL;
	b->data = calloc(1, words * 4 + 1);
	if (!b->data)
		return -ENOMEM;
	while (n) {
		if (i == words)
			return -EINVAL;
		if (*s == 'z') {
			w = 0;
			s++;
			n--;
		} else {
			if (n < 5)
				return -EINVAL;
			for (w = 0, k = 0; k < 5; k++, s++) {
				if (*s < '!' || *s > 'u')
					return -EINVAL;
				w = w * 85 + (uint64_t)(*s - '!');
			}
			if (w > UINT32_MAX)
				return -EINVAL;
			n -= 5;
		}
		w32 = (uint32_t)w;
		memcpy(b->data + 4 * i++, &w32, 4);
	}
	return i == words ? 0 : -EINVAL;
}

/* A blob line's value: sizes, slot, offset, then its bytes. */
static int cd_blob_parse(const char *v, struct cd_blob *b, bool slotted,
			 char *err, size_t len, unsigned int line)
{
	const char *a = strstr(v, " ascii85=");
	uint64_t slot;
	int ret;

	if (b->present)
		return cd_fail(err, len, line, "a second line of the same bytes");
	b->present = true;
	b->slot = -1;
	if (!cd_tok(v, "size", &b->size) || !cd_tok(v, "captured", &b->captured) ||
	    !a)
		return cd_fail(err, len, line, "expected size=, captured= and ascii85=");
	if (b->captured > b->size)
		return cd_fail(err, len, line, "captured %" PRIu64 " of %" PRIu64 " bytes",
			       b->captured, b->size);
	if (slotted && !strstr(v, " slot=none")) {
		if (!cd_tok(v, "slot", &slot) || slot >= CD_MAX_BINDINGS)
			return cd_fail(err, len, line, "expected slot=0..%d", CD_MAX_BINDINGS - 1);
		b->slot = (long)slot;
		cd_tok(v, "offset", &b->offset);
	}
	a += strlen(" ascii85=");
	ret = cd_ascii85(a, strlen(a), b);
	if (ret == -ENOMEM)
		return ret;
	if (ret)
		return cd_fail(err, len, line, "bad ascii85: not %" PRIu64 " bytes",
			       b->captured);
	return 0;
}

/* A binding line: the slot, its handle, and the surface's descriptor. */
static int cd_binding_parse(const char *v, struct cd_dump *d, char *err,
			    size_t len, unsigned int line)
{
	struct cd_binding *b;
	uint64_t n[8];
	const char *t;
	unsigned int i;

	if (d->nbindings == CD_MAX_BINDINGS)
		return cd_fail(err, len, line, "more than %d bindings", CD_MAX_BINDINGS);
	b = &d->bindings[d->nbindings++];
	if (!cd_tok(v, "slot", &n[0]) || n[0] >= CD_MAX_BINDINGS ||
	    !cd_tok(v, "handle", &n[1]) || n[1] > UINT32_MAX ||
	    !cd_word(v, "kind", b->kind, sizeof(b->kind)) ||
	    !cd_tok(v, "size", &b->size))
		return cd_fail(err, len, line, "expected slot=, handle=, kind= and size=");
	b->slot = (uint32_t)n[0];
	b->handle = (uint32_t)n[1];
	for (i = 0; i + 1 < d->nbindings; i++)
		if (d->bindings[i].slot == b->slot)
			return cd_fail(err, len, line, "slot %u bound twice", b->slot);
	if (!strcmp(b->kind, "typed")) {
		static const char *const f[] = { "dim", "format", "width", "height",
						 "depth", "array_size", "levels" };
		for (i = 0; i < 7; i++)
			if (!cd_tok(v, f[i], &n[i]) || n[i] > UINT32_MAX)
				return cd_fail(err, len, line, "a typed surface without %s=", f[i]);
		b->dim = n[0], b->format = n[1], b->width = n[2], b->height = n[3];
		b->depth = n[4], b->array_size = n[5], b->levels = n[6];
	} else if (!strcmp(b->kind, "tile_grid")) {
		if (!cd_tok(v, "profile", &n[0]) || !cd_tok(v, "width", &n[1]) ||
		    !cd_tok(v, "height", &n[2]) || n[1] > 64 || n[2] > 64 ||
		    !(t = strstr(v, " l1=")) ||
		    sscanf(t, " l1=%u,%u,%u,%u", &b->l1[0], &b->l1[1], &b->l1[2],
			   &b->l1[3]) != 4 || !(t = strstr(v, " types=")))
			return cd_fail(err, len, line, "a tile grid without profile=, width=, height=, l1= or types=");
		b->profile = n[0], b->width = n[1], b->height = n[2];
		b->ntypes = b->width * b->height;
		b->types = calloc(1, b->ntypes + 1);
		if (!b->types)
			return -ENOMEM;
		t += strlen(" types=");
		for (i = 0; i < b->ntypes; i++)
			if (sscanf(t + 2 * i, "%2hhx", &b->types[i]) != 1)
				return cd_fail(err, len, line, "types= is not %u hex bytes", b->ntypes);
	} else if (strcmp(b->kind, "buffer")) {
		return cd_fail(err, len, line, "unknown kind %s", b->kind);
	}
	return 0;
}

/* The binding of @slot, or NULL. */
static struct cd_binding *cd_slot(struct cd_dump *d, uint64_t slot)
{
	unsigned int i;

	for (i = 0; i < d->nbindings; i++)
		if (d->bindings[i].slot == slot)
			return &d->bindings[i];
	return NULL;
}

/* Copy a header string, refusing one that does not fit. */
static int cd_str(char *dst, size_t size, const char *v, char *err, size_t len,
		  unsigned int line)
{
	if (strlen(v) >= size)
		return cd_fail(err, len, line, "value too long");
	strcpy(dst, v);
	return 0;
}

/* A line "key: value" of the header. */
static int cd_header(const char *key, const char *v, struct cd_dump *d,
		     char *err, size_t len, unsigned int line)
{
	static const struct {
		const char *key;
		size_t off, size;
	} strs[] = {
#define S(f) { #f, offsetof(struct cd_dump, f), sizeof(((struct cd_dump *)0)->f) }
		S(kernel), S(module), S(time), S(device), S(comm), S(door),
		S(reason), S(fault),
#undef S
	};
	static const struct {
		const char *key;
		size_t off;
		bool is_signed;
	} nums[] = {
#define N(f, s) { #f, offsetof(struct cd_dump, f), s }
		N(uapi, true), N(client, true), N(pid, true), N(error, true),
		N(timeout_ms, true), N(job, true), N(packets, false),
		N(completed, false), N(stop_index, false), N(stop_offset, false),
#undef N
	};
	unsigned int i;
	char *end;

	for (i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		if (!strcmp(key, strs[i].key))
			return cd_str((char *)d + strs[i].off, strs[i].size, v,
				      err, len, line);
	for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		if (strcmp(key, nums[i].key))
			continue;
		errno = 0;
		if (nums[i].is_signed)
			*(long long *)((char *)d + nums[i].off) = strtoll(v, &end, 0);
		else
			*(uint64_t *)((char *)d + nums[i].off) = strtoull(v, &end, 0);
		if (errno || end == v || *end)
			return cd_fail(err, len, line, "%s: not a number", key);
		return 0;
	}
	return 0;	/* a key of a later version: ignored */
}

/* What every dump must say, and what must agree. */
static int cd_check(struct cd_dump *d, char *err, size_t len, unsigned int line)
{
	unsigned int i;

	if (!d->stream.present)
		return cd_fail(err, len, line, "no stream line");
	if (d->stop_index > d->packets || d->completed != d->stop_index ||
	    d->stop_offset > d->stream.size || d->stop_offset % 8)
		return cd_fail(err, len, line,
			       "progress past the stream: packet %" PRIu64 " of %" PRIu64 ", byte %" PRIu64 " of %" PRIu64,
			       d->stop_index, d->packets, d->stop_offset, d->stream.size);
	for (i = 0; i < d->nbindings; i++)
		if (d->bindings[i].surface.present &&
		    d->bindings[i].surface.size != d->bindings[i].size)
			return cd_fail(err, len, line, "slot %u: surface of %" PRIu64 " bytes, bound %" PRIu64,
				       d->bindings[i].slot, d->bindings[i].surface.size,
				       d->bindings[i].size);
	return 0;
}

/**
 * cd_parse() - parse a dump
 * @text: its text, NUL terminated
 * @d: out, zeroed first; cd_free() it, whatever the outcome
 * @err: out, on failure: "line N: reason"
 * @len: room at @err
 *
 * Return: 0, -EINVAL (not a dump this tool reads: @err says why) or
 * -ENOMEM.
 */
int cd_parse(const char *text, struct cd_dump *d, char *err, size_t len)
{
	const char *p = text, *nl;
	unsigned int line = 0, nbind = 0;
	bool ended = false, have_bindings = false;
	struct cd_binding *b;
	char key[32], *v = NULL;
	uint64_t slot;
	size_t n, k;
	int ret = 0;

	memset(d, 0, sizeof(*d));
	err[0] = '\0';
	if (strncmp(text, "vatom devcoredump\n", 18))
		return cd_fail(err, len, 1, "not a vatom devcoredump");
	for (; *p && !ret; p = nl ? nl + 1 : p + n) {
		nl = strchr(p, '\n');
		n = nl ? (size_t)(nl - p) : strlen(p);
		line++;
		if (line == 1)
			continue;
		if (!nl) {
			ret = cd_fail(err, len, line, "cut short (no end of line)");
			break;
		}
		if (ended) {
			ret = cd_fail(err, len, line, "text after the end line");
			break;
		}
		if (n == 3 && !strncmp(p, "end", 3)) {
			ended = true;
			continue;
		}
		k = strcspn(p, ":\n");
		if (k >= n || k >= sizeof(key) || p[k + 1] != ' ') {
			ret = cd_fail(err, len, line, "expected \"key: value\"");
			break;
		}
		memcpy(key, p, k);
		key[k] = '\0';
		free(v);
		v = strndup(p + k + 2, n - k - 2);
		if (!v) {
			ret = -ENOMEM;
			break;
		}
		if (line == 2) {
			if (strcmp(key, "version"))
				ret = cd_fail(err, len, line, "expected the version line");
			else if (strtoul(v, NULL, 10) != CD_VERSION)
				ret = cd_fail(err, len, line,
					      "version %s: this vatom reads version %d",
					      v, CD_VERSION);
			d->version = CD_VERSION;
		} else if (!strcmp(key, "counters")) {
			for (k = 0; k < CD_FAMILIES && d->counters[k].family[0]; k++)
				;
			if ((k == CD_FAMILIES ||
				     !cd_word(v, "family", d->counters[k].family,
					      sizeof(d->counters[k].family)) ||
				     !cd_tok(v, "packets", &d->counters[k].packets) ||
				     !cd_tok(v, "elements", &d->counters[k].elements)))
				ret = cd_fail(err, len, line, "expected family=, packets= and elements=");
		} else if (!strcmp(key, "stream")) {
			ret = cd_blob_parse(v, &d->stream, false, err, len, line);
		} else if (!strcmp(key, "results")) {
			ret = cd_blob_parse(v, &d->results, true, err, len, line);
		} else if (!strcmp(key, "bindings")) {
			nbind = strtoul(v, NULL, 10);
			have_bindings = true;
			if (nbind > CD_MAX_BINDINGS)
				ret = cd_fail(err, len, line, "%u bindings", nbind);
		} else if (!strcmp(key, "binding")) {
			ret = cd_binding_parse(v, d, err, len, line);
		} else if (!strcmp(key, "surface")) {
			if (!cd_tok(v, "slot", &slot) || !(b = cd_slot(d, slot)))
				ret = cd_fail(err, len, line, "a surface of no binding");
			else
				ret = cd_blob_parse(v, &b->surface, false, err, len, line);
		} else {
			ret = cd_header(key, v, d, err, len, line);
		}
	}
	free(v);
	if (ret)
		return ret;
	if (!ended)
		return cd_fail(err, len, line, "cut short (no end line)");
	if (!have_bindings || nbind != d->nbindings)
		return cd_fail(err, len, line, "bindings: %u, but %u binding lines",
			       nbind, d->nbindings);
	return cd_check(d, err, len, line);
}

/** cd_free() - free what cd_parse() allocated */
void cd_free(struct cd_dump *d)
{
	unsigned int i;

	free(d->stream.data);
	free(d->results.data);
	for (i = 0; i < d->nbindings; i++) {
		free(d->bindings[i].types);
		free(d->bindings[i].surface.data);
	}
}

/**
 * cd_read_file() - a file's whole text, NUL terminated ("-": stdin)
 * @path: the file
 * @len: out, its bytes
 *
 * Return: the text (malloc'ed), or NULL with errno set (EFBIG past
 * CD_MAX_TEXT, EINVAL for a NUL byte in it).
 */
char *cd_read_file(const char *path, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap), *nb;
	int fd = strcmp(path, "-") ? open(path, O_RDONLY) : 0;
	ssize_t r;

	if (fd < 0 || !buf) {
		free(buf);
		return NULL;
	}
	for (;;) {
		if (n + 1 == cap) {
			if (cap >= CD_MAX_TEXT) {
				errno = EFBIG;
				break;
			}
			nb = realloc(buf, cap * 2);
			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r == 0) {
				if (fd)
					close(fd);
				buf[n] = '\0';
				*len = n;
				if (strlen(buf) == n)
					return buf;
				errno = EINVAL;
				free(buf);
				return NULL;
			}
			break;
		}
		n += r;
	}
	r = errno;
	if (fd)
		close(fd);
	free(buf);
	errno = r;
	return NULL;
}

/* Whether devcd entry @name is a vatom device's dump. */
static bool cd_is_vatom(const char *name)
{
	char path[600], link[300];
	const char *base;
	ssize_t n;

	snprintf(path, sizeof(path), CD_CLASS "/%s/failing_device", name);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return false;
	link[n] = '\0';
	base = strrchr(link, '/');
	return base && !strncmp(base + 1, "vatom.", 6);
}

/**
 * cd_resolve() - the file a `vatom dump`/`replay` argument names
 * @arg: a path, "-", a number N (/sys/class/devcoredump/devcdN/data), or
 *	NULL: the first vatom dump there
 * @path: out
 * @len: room at @path
 *
 * Return: 0, or -ENOENT when no vatom dump is there.
 */
int cd_resolve(const char *arg, char *path, size_t len)
{
	struct dirent *e;
	char *end;
	DIR *dir;

	if (arg && (strtoul(arg, &end, 10), *arg && !*end)) {
		snprintf(path, len, CD_CLASS "/devcd%s/data", arg);
		return 0;
	}
	if (arg) {
		snprintf(path, len, "%s", arg);
		return 0;
	}
	dir = opendir(CD_CLASS);
	while (dir && (e = readdir(dir))) {
		if (!strncmp(e->d_name, "devcd", 5) && cd_is_vatom(e->d_name)) {
			snprintf(path, len, CD_CLASS "/%s/data", e->d_name);
			closedir(dir);
			return 0;
		}
	}
	if (dir)
		closedir(dir);
	return -ENOENT;
}
