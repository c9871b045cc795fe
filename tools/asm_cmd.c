// SPDX-License-Identifier: MIT
/*
 * vatom asm / vatom disasm: ISA text to packet bytes and back, without a
 * device. asm reads the vatom run format (its declarations give the
 * symbols) and prints each packet as one line of hex bytes; disasm reads
 * such bytes (whitespace-separated, any line breaks) and prints each
 * packet with vatom_disasm(), text that asm reads back to the same bytes.
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"

static FILE *open_in(const char *cmd, int argc, char **argv, const char **path)
{
	FILE *in;

	if (argc != 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fprintf(argc == 2 ? stdout : stderr, "usage: vatom %s FILE|-\n", cmd);
		return NULL;
	}
	*path = argv[1];
	in = strcmp(argv[1], "-") ? fopen(argv[1], "r") : stdin;
	if (!in)
		fprintf(stderr, "vatom %s: %s: %s\n", cmd, argv[1], strerror(errno));
	return in;
}

int cmd_asm(const struct tool_opts *o, int argc, char **argv)
{
	struct run_file f = { 0 };
	struct vatom_asm *a = NULL;
	const char *path = NULL;
	const uint8_t *p;
	unsigned int i, j;
	size_t size;
	int status = 2;
	FILE *in;

	(void)o;
	in = open_in("asm", argc, argv, &path);
	if (!in)
		return argc == 2 ? 0 : 2;
	f.path = strcmp(path, "-") ? path : "<stdin>";
	if (!vatom_asm_create(0, &a) && !run_file_read(&f, in, a)) {
		for (i = 0; i < f.npkts; i++) {
			p = vatom_batch_packet(f.steps[f.pkts[i].step].b,
					       f.pkts[i].res, &size);
			for (j = 0; j < size; j++)
				printf("%02x%s", p[j], j + 1 < size ? " " : "\n");
		}
		status = 0;
	}
	run_file_free(&f);
	vatom_asm_destroy(a);
	if (in != stdin)
		fclose(in);
	return status;
}

int cmd_disasm(const struct tool_opts *o, int argc, char **argv)
{
	const struct drm_vatom_packet *hdr;
	size_t n = 0, cap = 4096, off;
	const char *path = NULL;
	uint8_t *buf = malloc(cap);
	char text[4096];
	unsigned int v;
	int status = 0, ch;
	FILE *in;

	(void)o;
	in = open_in("disasm", argc, argv, &path);
	if (!in || !buf) {
		free(buf);
		return in || argc == 2 ? 0 : 2;
	}
	while ((ch = fscanf(in, "%2x", &v)) == 1) {
		if (n == cap) {
			uint8_t *nb = realloc(buf, cap * 2);

			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
		buf[n++] = (uint8_t)v;
	}
	if (ch != EOF) {
		fprintf(stderr, "vatom disasm: %s: byte %zu: expected two hex digits\n",
			path, n);
		status = 2;
	}
	for (off = 0; off + sizeof(*hdr) <= n;) {
		hdr = (const void *)(buf + off);
		if (hdr->size < sizeof(*hdr) || hdr->size % 8 || hdr->size > n - off) {
			fprintf(stderr, "vatom disasm: %s: packet at byte %zu has size %u\n",
				path, off, hdr->size);
			status = 2;
			break;
		}
		vatom_disasm(hdr, hdr->size, text, sizeof(text));
		printf("%s\n", text);
		off += hdr->size;
	}
	free(buf);
	if (in != stdin)
		fclose(in);
	return status;
}
