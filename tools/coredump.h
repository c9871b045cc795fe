/* SPDX-License-Identifier: MIT */
/*
 * vatom dump / vatom replay: a vatom devcoredump, parsed (coredump.c).
 * The format is docs/robustness.md's ("Reading a hang"), version 1.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_COREDUMP_H_
#define _VATOM_COREDUMP_H_

#include <stdbool.h>
#include <stdint.h>

/* The version of the format this tool reads. */
#define CD_VERSION	1
/* The engine's families, in the dump's order. */
#define CD_FAMILIES	3
/* The most bindings a job has (DRM_VATOM_MAX_SLOTS). */
#define CD_MAX_BINDINGS	256

/**
 * struct cd_blob - bytes the dump captured
 * @present: its line was in the dump
 * @size: bytes the job had
 * @captured: bytes the dump holds (the first @captured of @size)
 * @slot: the slot it is in (a surface, results in a surface), or -1
 * @offset: where in that slot's surface (results)
 * @data: the @captured bytes, malloc'ed
 */
struct cd_blob {
	bool present;
	uint64_t size, captured;
	long slot;
	uint64_t offset;
	uint8_t *data;
};

/**
 * struct cd_binding - one line of the binding table: what replay creates
 * @slot, @handle, @kind: as bound (@kind: "buffer", "typed", "tile_grid")
 * @size: the surface's bytes
 * @dim, @format, @width, @height, @depth, @array_size, @levels: a typed
 *	surface's descriptor
 * @profile, @l1: a tile grid's (@width, @height too); @ntypes tile types
 *	in @types
 * @surface: its bytes, as the job left them
 */
struct cd_binding {
	uint32_t slot, handle;
	char kind[16];
	uint64_t size;
	uint32_t dim, format, width, height, depth, array_size, levels;
	uint32_t profile, l1[4];
	uint32_t ntypes;
	uint8_t *types;
	struct cd_blob surface;
};

/**
 * struct cd_dump - a parsed dump: the header's fields as written, the
 * counts as numbers, the blobs decoded
 */
struct cd_dump {
	unsigned int version;
	char kernel[128], module[32], time[32], device[32], comm[32];
	char door[16], reason[16], fault[16];
	long long uapi, client, pid, error, timeout_ms, job;
	uint64_t packets, completed, stop_index, stop_offset;
	struct {
		char family[16];
		uint64_t packets, elements;
	} counters[CD_FAMILIES];
	struct cd_blob stream, results;
	unsigned int nbindings;
	struct cd_binding bindings[CD_MAX_BINDINGS];
};

int cd_parse(const char *text, struct cd_dump *d, char *err, size_t len);
void cd_free(struct cd_dump *d);
char *cd_read_file(const char *path, size_t *len);
int cd_resolve(const char *arg, char *path, size_t len);

#endif /* _VATOM_COREDUMP_H_ */
