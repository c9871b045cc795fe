/* SPDX-License-Identifier: MIT */
/*
 * vatom run: what its two files share. run_file.c reads a test file
 * (declarations, ISA lines through libvatom's assembler, expectations);
 * run.c executes it on the device and reports (human, TAP or JSON).
 * docs/vatom-run.md describes the file format.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_RUN_H_
#define _VATOM_RUN_H_

#include <stdint.h>
#include <stdio.h>

#include "vatom_tool.h"

#define RUN_NAME	48
#define RUN_MAX_VALS	32
#define RUN_MAX_SURF	32

enum run_surf_kind { RUN_BUFFER, RUN_TYPED, RUN_GRID };

struct run_surf {
	char name[RUN_NAME];
	unsigned int line;			/* where it was declared */
	enum run_surf_kind kind;
	unsigned int slot;
	uint64_t size;				/* buffers */
	struct drm_vatom_typed_desc typed;
	struct drm_vatom_tile_grid_desc grid;
	uint8_t types[64 * 64];
	struct vatom_surface *s;		/* NULL with --validate-only */
};

/* Where an expectation or initialisation points. */
enum run_target_kind { RUN_T_RESULT, RUN_T_MEMORY, RUN_T_L1, RUN_T_COUNTER };

struct run_target {
	enum run_target_kind kind;
	char name[RUN_NAME];		/* result name */
	int packet;			/* RUN_T_RESULT: packet index */
	unsigned int elem;		/* RUN_T_RESULT: first element */
	int which;			/* ADDC: 0 dst, 1 carry; -1 whole */
	struct run_surf *surf;
	unsigned int x, y, noc;
	uint64_t offset;		/* memory offset, counter index */
	unsigned int width;		/* bytes per element */
};

struct run_expect {
	unsigned int line;
	char text[160];
	struct run_target t;
	unsigned int n;
	uint64_t want[RUN_MAX_VALS];
};

struct run_pkt {
	unsigned int line;
	unsigned int step;		/* its batch */
	int res;			/* its index in that batch */
	char names[8][RUN_NAME];
	unsigned int nnames;
};

/* One batch of the file: the lines up to a `submit` or the end. */
struct run_step {
	struct vatom_batch *b;		/* its packets (offline: no device) */
	unsigned int first_pkt;		/* file-wide index of its first packet */
	unsigned int npkts;
	struct run_expect *expects;
	unsigned int nexpects;
};

struct run_print {
	unsigned int line;
	unsigned int step;
	struct run_target t;
	unsigned int count;
	char text[160];
};

struct run_file {
	const char *path;
	struct vatom_device *dev;	/* NULL: assemble only */
	struct run_surf surf[RUN_MAX_SURF];
	unsigned int nsurf;
	unsigned int next_slot;
	struct run_step *steps;
	unsigned int nsteps;
	struct run_pkt *pkts;		/* packet index -> line, names */
	unsigned int npkts;
	struct run_print *prints;
	unsigned int nprints;
	/* Memory initialisations, applied before the first submission. */
	struct run_expect *inits;
	unsigned int ninits;
	unsigned int errors;		/* diagnostics printed */
	const char *text;		/* the line being read, for columns */
};

int run_file_read(struct run_file *f, FILE *in, struct vatom_asm *a);
void run_file_free(struct run_file *f);
int run_parse_values(const char *s, unsigned int width, uint64_t *v,
		     unsigned int max, unsigned int *n, const char **end);

#endif /* _VATOM_RUN_H_ */
