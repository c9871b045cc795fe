// SPDX-License-Identifier: GPL-2.0
/*
 * vatom selftests: reading vatom's devcoredumps (test_coredump.c), written
 * from the format's definition (docs/robustness.md, "Reading a hang"),
 * not from the tool that decodes them.
 *
 * Copyright (C) 2026 The vatom developers
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "coredump_common.h"
#include "async_common.h"

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

/*
 * The first vatom dump's directory name into @name; with @del, delete
 * every one instead (a write to data). Return: how many there were.
 */
int cd_scan(char *name, size_t len, bool del)
{
	char path[600];
	struct dirent *e;
	int n = 0;
	DIR *d;

	d = opendir(CD_CLASS);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "devcd", 5) || !cd_is_vatom(e->d_name))
			continue;
		if (!n++ && name)
			snprintf(name, len, "%s", e->d_name);
		if (del) {
			snprintf(path, sizeof(path), CD_CLASS "/%s/data", e->d_name);
			vt_write_file(path, "1");
		}
	}
	closedir(d);
	return n;
}

/*
 * Delete every vatom dump and wait for them to go: devcoredump keeps one
 * per device, and drops a new one while another is there.
 */
bool cd_clear(void)
{
	int i;

	for (i = 0; i < CD_WAIT_MS / 10; i++) {
		if (!cd_scan(NULL, 0, true))
			return true;
		va_sleep_ms(10);
	}
	return false;
}

/*
 * Whether every vatom dump is gone within @ms: the deletion of one read
 * is asynchronous (devcoredump's work), and one never deleted stays.
 */
bool cd_gone(int ms)
{
	int i;

	for (i = 0; i <= ms / 10; i++) {
		if (!cd_scan(NULL, 0, false))
			return true;
		va_sleep_ms(10);
	}
	return false;
}

/*
 * The vatom dump that appears within @ms, its text read whole (NUL
 * terminated, malloc'ed), deleted unless @keep; NULL if none came.
 */
char *cd_take(int ms, bool keep)
{
	char name[300], path[600];
	size_t len = 0, cap = 1 << 16;
	char *buf = NULL, *nb;
	ssize_t n;
	int i, fd;

	for (i = 0; i <= ms / 10; i++) {
		if (cd_scan(name, sizeof(name), false))
			break;
		va_sleep_ms(10);
	}
	if (i > ms / 10)
		return NULL;
	snprintf(path, sizeof(path), CD_CLASS "/%s/data", name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	buf = malloc(cap);
	while (buf) {
		if (len + 1 == cap) {
			nb = realloc(buf, cap *= 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
		}
		n = read(fd, buf + len, cap - 1 - len);
		if (n <= 0)
			break;
		len += n;
	}
	close(fd);
	if (buf)
		buf[len] = '\0';
	if (!keep)
		vt_write_file(path, "1");
	return buf;
}

/*
 * The line "@key: ..." of @text whose value contains @match (NULL: any),
 * its value copied into @val (at most @len bytes); NULL if there is none.
 */
const char *cd_line(const char *text, const char *key,
		    const char *match, char *val, size_t len)
{
	size_t k = strlen(key);
	const char *p, *end;
	size_t n;

	for (p = text; p && *p; p = end ? end + 1 : NULL) {
		end = strchr(p, '\n');
		n = end ? (size_t)(end - p) : strlen(p);
		if (n <= k + 1 || strncmp(p, key, k) || p[k] != ':' || p[k + 1] != ' ')
			continue;
		if (match && !memmem(p, n, match, strlen(match)))
			continue;
		n -= k + 2;
		if (val) {
			n = n < len - 1 ? n : len - 1;
			memcpy(val, p + k + 2, n);
			val[n] = '\0';
		}
		return p + k + 2;
	}
	return NULL;
}

/* The number after "@key: ", or -1 when the line is missing. */
long long cd_num(const char *text, const char *key)
{
	char v[64];

	return cd_line(text, key, NULL, v, sizeof(v)) ? strtoll(v, NULL, 0) : -1;
}

/* The number after "@tok=" in the line at @line, or -1. */
long long cd_tok(const char *line, const char *tok)
{
	const char *end = strchr(line, '\n'), *p;
	size_t k = strlen(tok);

	for (p = line; *p && (!end || p < end); p++) {
		if ((p == line || p[-1] == ' ') && !strncmp(p, tok, k) &&
		    p[k] == '=')
			return strtoll(p + k + 1, NULL, 0);
	}
	return -1;
}

/*
 * Decode the ascii85 of blob line "@key: ..." that contains @match: its
 * captured bytes, malloc'ed, into *@out; return their count, or -1 when
 * the line is missing or its text is not whole words of the alphabet.
 * Written from the format's definition (32-bit words in CPU order, five
 * characters from '!' each, most significant first; 'z' a zero word).
 */
long cd_blob(const char *text, const char *key, const char *match,
	     __u8 **out)
{
	const char *line = cd_line(text, key, match, NULL, 0), *s;
	long long captured;
	size_t o = 0;
	__u64 w;
	int i;

	*out = NULL;
	if (!line)
		return -1;
	captured = cd_tok(line, "captured");
	s = strstr(line, " ascii85=");
	if (captured < 0 || !s)
		return -1;
	s += strlen(" ascii85=");
	*out = calloc(1, captured + 4);
	if (!*out)
		return -1;
	while (*s && *s != '\n') {
		w = 0;
		if (*s == 'z') {
			s++;
		} else {
			for (i = 0; i < 5; i++, s++) {
				if (*s < '!' || *s > 'u')
					return -1;
				w = w * 85 + (*s - '!');
			}
			if (w > 0xffffffffull)
				return -1;
		}
		if (o >= (size_t)captured)
			return -1;
		memcpy(*out + o, &(__u32){ (__u32)w }, 4);
		o += 4;
	}
	return o >= (size_t)captured && o < (size_t)captured + 4 ? captured : -1;
}

/* Set vatom's parameter @name to @val: 0 or -errno. */
int cd_param(const char *name, unsigned int val)
{
	char path[128], v[16];

	snprintf(path, sizeof(path), CD_PARAM "%s", name);
	snprintf(v, sizeof(v), "%u", val);
	return vt_write_file(path, v);
}

/*
 * The vatom tool: ../tools/vatom from this program's directory (the
 * repository), else the first vatom on PATH (installed: vatom-tests
 * depends on vatom-tools). Return: whether one was found.
 */
bool cd_tool(char *path, size_t len)
{
	char self[512], *slash, *dirs, *dir, *save = NULL;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	const char *env = getenv("PATH");

	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			snprintf(path, len, "%s/../tools/vatom", self);
			if (!access(path, X_OK))
				return true;
		}
	}
	dirs = strdup(env ? env : "/usr/bin:/bin");
	for (dir = dirs ? strtok_r(dirs, ":", &save) : NULL; dir;
	     dir = strtok_r(NULL, ":", &save)) {
		snprintf(path, len, "%s/vatom", dir);
		if (!access(path, X_OK)) {
			free(dirs);
			return true;
		}
	}
	free(dirs);
	return false;
}

