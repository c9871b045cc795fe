// SPDX-License-Identifier: MIT
/*
 * The vatom tool's JSON output: a string, escaped, for every command
 * that prints JSON (run -j, dump -j).
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <stdio.h>

#include "vatom_tool.h"

/* @s as a JSON string on stdout: quotes, backslashes and controls escaped. */
void tool_json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}
