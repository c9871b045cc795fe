/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vatom selftests: reading vatom's devcoredumps (coredump_common.c).
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_SELFTEST_COREDUMP_COMMON_H_
#define _VATOM_SELFTEST_COREDUMP_COMMON_H_

#include <stdbool.h>
#include <stddef.h>

#include <linux/types.h>

#define CD_CLASS	"/sys/class/devcoredump"
#define CD_PARAM	"/sys/module/vatom/parameters/"
/* How long a dump may take to appear, or an old one to go. */
#define CD_WAIT_MS	5000

int cd_scan(char *name, size_t len, bool del);
bool cd_clear(void);
bool cd_gone(int ms);
char *cd_take(int ms, bool keep);
const char *cd_line(const char *text, const char *key,
		    const char *match, char *val, size_t len);
long long cd_num(const char *text, const char *key);
long long cd_tok(const char *line, const char *tok);
long cd_blob(const char *text, const char *key, const char *match,
	     __u8 **out);
int cd_param(const char *name, unsigned int val);
bool cd_tool(char *path, size_t len);

#endif /* _VATOM_SELFTEST_COREDUMP_COMMON_H_ */
