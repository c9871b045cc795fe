// SPDX-License-Identifier: MIT
/*
 * vatom tool: the vISA demo. One buffer bound at T255, four DWORD_ATOMIC
 * instructions (ADD under a mask and a predicate, CMPXCHG, IMAX with mask
 * control M3, PREDEC with _NM), submitted as one batch. It prints what was
 * submitted and what came back, and checks both the returned values and
 * the memory against its own model of the instructions (written from the
 * DWORD_ATOMIC pseudo-code, independently of the library and the kernel).
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "vatom_tool.h"

#define NDW 32		/* dwords in the buffer */

/* One DWORD_ATOMIC instruction of the demo. */
struct demo_insn {
	enum vatom_visa_op op;
	struct vatom_visa_exec ex;
	uint32_t offs[16];	/* bytes */
	uint32_t src0[16];
	uint32_t src1[16];
	bool has_src0;
	bool has_src1;
};

static const uint32_t init_mem[NDW] = {
	/* ADD */
	1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007,
	1008, 1009, 1010, 1011, 1012, 1013, 1014, 1015,
	/* CMPXCHG */
	7, 8, 9, 10, 11, 12, 13, 14,
	/* IMAX: -10, 20, -30, 40 */
	0xfffffff6, 20, 0xffffffe2, 40,
	/* PREDEC */
	3, 1, 0, 0x80000000,
};

static const struct demo_insn insns[] = {
	{
		/* (P1) DWORD_ATOMIC.ADD (M1, 16): lanes in emask 0x0fff and P1 */
		.op = VATOM_VISA_ADD,
		.ex = { .size = 16, .mask_ctrl = VATOM_M1, .emask = 0x0fff,
			.predicated = true, .pred = 0x5555 },
		.offs = { 0, 4, 8, 12, 16, 20, 24, 28,
			  32, 36, 40, 44, 48, 52, 56, 60 },
		.src0 = { 10, 20, 30, 40, 50, 60, 70, 80,
			  90, 100, 110, 120, 130, 140, 150, 160 },
		.has_src0 = true,
	},
	{
		/* DWORD_ATOMIC.CMPXCHG (M1, 8): even lanes compare equal */
		.op = VATOM_VISA_CMPXCHG,
		.ex = { .size = 8, .mask_ctrl = VATOM_M1, .emask = 0xff },
		.offs = { 64, 68, 72, 76, 80, 84, 88, 92 },
		.src0 = { 0x100, 0x101, 0x102, 0x103, 0x104, 0x105, 0x106, 0x107 },
		.src1 = { 7, 0, 9, 0, 11, 0, 13, 0 },
		.has_src0 = true,
		.has_src1 = true,
	},
	{
		/* DWORD_ATOMIC.IMAX (M3, 4): emask channels 8..11 = 0b1011 */
		.op = VATOM_VISA_IMAX,
		.ex = { .size = 4, .mask_ctrl = VATOM_M3, .emask = 0x00000b00 },
		.offs = { 96, 100, 104, 108 },
		.src0 = { 0xfffffffb, 25, 100, 0xffffffff },	/* -5 25 100 -1 */
		.has_src0 = true,
	},
	{
		/* DWORD_ATOMIC.PREDEC (M1_NM, 4): the mask is ignored */
		.op = VATOM_VISA_PREDEC,
		.ex = { .size = 4, .mask_ctrl = VATOM_M1_NM, .emask = 0 },
		.offs = { 112, 116, 120, 124 },
	},
};

#define NINSN ARRAY_SIZE(insns)

/* ChEn[i] = (NoMask or emask bit (4 * M + i)) and predicate bit i. */
static bool model_chen(const struct vatom_visa_exec *ex, unsigned int i)
{
	unsigned int m = ex->mask_ctrl & 7;
	bool on = (ex->mask_ctrl & VATOM_NM) ||
		  ((ex->emask >> (4 * m + i)) & 1);

	return on && (!ex->predicated || ((ex->pred >> i) & 1));
}

/*
 * surface[offset] = op(surface[offset], src0, src1); dst = the old value
 * (PREDEC: the new one). Only the ops the demo uses.
 */
static uint32_t model_lane(enum vatom_visa_op op, uint32_t *word, uint32_t s0,
			   uint32_t s1)
{
	uint32_t old = *word, new = old;

	switch (op) {
	case VATOM_VISA_ADD:
		new = old + s0;
		break;
	case VATOM_VISA_CMPXCHG:
		new = old == s1 ? s0 : old;
		break;
	case VATOM_VISA_IMAX:
		new = (int32_t)old > (int32_t)s0 ? old : s0;
		break;
	case VATOM_VISA_PREDEC:
		*word = old - 1;
		return old - 1;
	default:
		break;
	}
	*word = new;
	return old;
}

/* Run the whole batch on @mem: packets in order, lanes ascending. */
static void model_run(uint32_t *mem, uint32_t want_dst[][16])
{
	unsigned int k, i;

	for (k = 0; k < NINSN; k++) {
		const struct demo_insn *in = &insns[k];

		for (i = 0; i < in->ex.size; i++) {
			want_dst[k][i] = 0;	/* disabled: the zeroed buffer */
			if (!model_chen(&in->ex, i))
				continue;
			want_dst[k][i] = model_lane(in->op, &mem[in->offs[i] / 4],
						    in->src0[i], in->src1[i]);
		}
	}
}

static void hex_or_dash(bool present, uint32_t v)
{
	if (present)
		printf("  0x%08" PRIx32, v);
	else
		printf("  %-10s", "-");
}

int demo_visa(const struct tool_opts *o, int argc, char **argv)
{
	uint32_t model_mem[NDW], want_dst[NINSN][16];
	struct vatom_device *dev = NULL;
	struct vatom_surface *buf = NULL;
	struct vatom_batch *b = NULL;
	unsigned int k, i, mismatches = 0, checked = 0;
	uint32_t *mem, idx, reason;
	int res[NINSN], ret;
	char text[4096];	/* vatom_disasm() writes every operand value */
	size_t size;

	(void)argc;
	(void)argv;
	if (tool_open_device(o, &dev))
		return 1;
	printf("== vatom demo visa: DWORD_ATOMIC on %s ==\n",
	       vatom_device_node(dev));

	ret = vatom_surface_create_buffer(dev, sizeof(init_mem), 0, &buf);
	if (!ret)
		ret = vatom_surface_map(buf, (void **)&mem);
	if (!ret)
		ret = vatom_batch_create(dev, 0, &b);
	if (!ret)
		ret = vatom_batch_bind(b, VATOM_T255, buf);
	if (ret) {
		fprintf(stderr, "demo visa: setup failed: %s\n", strerror(-ret));
		goto out;
	}
	memcpy(mem, init_mem, sizeof(init_mem));
	printf("buffer of %zu bytes bound at T255 (slot %d)\n",
	       sizeof(init_mem), VATOM_T255);

	for (k = 0; k < NINSN; k++) {
		const struct demo_insn *in = &insns[k];

		res[k] = vatom_prep_dword_atomic(b, &in->ex, in->op,
						 VATOM_VISA_DST, VATOM_T255,
						 in->offs,
						 in->has_src0 ? in->src0 : NULL,
						 in->has_src1 ? in->src1 : NULL);
		if (res[k] < 0) {
			fprintf(stderr, "demo visa: prep %u: %s\n", k,
				strerror(-res[k]));
			ret = res[k];
			goto out;
		}
	}
	vatom_batch_stream(b, &size);
	printf("submitting %d packets: %zu stream bytes, %" PRIu64
	       " result bytes\n", vatom_batch_packets(b), size,
	       vatom_batch_results_size(b));

	ret = vatom_batch_submit(b);
	if (ret) {
		vatom_batch_error(b, &idx, &reason);
		fprintf(stderr, "demo visa: submit failed: %s", strerror(-ret));
		if (reason)
			fprintf(stderr, " (packet %u: %s)", idx,
				vatom_strreason(reason));
		fprintf(stderr, "\n");
		goto out;
	}

	memcpy(model_mem, init_mem, sizeof(init_mem));
	model_run(model_mem, want_dst);

	for (k = 0; k < NINSN; k++) {
		const struct demo_insn *in = &insns[k];
		const void *pkt = vatom_batch_packet(b, res[k], &size);

		vatom_disasm(pkt, size, text, sizeof(text));
		printf("\n#%u %s\n", k, text);
		printf("  lane  ChEn  offset  src0        src1        dst         expected\n");
		for (i = 0; i < in->ex.size; i++) {
			uint32_t got = vatom_result_u32(b, res[k], i);
			bool bad = got != want_dst[k][i];

			printf("  %4u  %-4s  %6" PRIu32, i,
			       model_chen(&in->ex, i) ? "on" : "-", in->offs[i]);
			hex_or_dash(in->has_src0, in->src0[i]);
			hex_or_dash(in->has_src1, in->src1[i]);
			printf("  0x%08" PRIx32 "  0x%08" PRIx32 "%s\n", got,
			       want_dst[k][i], bad ? "  MISMATCH" : "");
			mismatches += bad;
			checked++;
		}
	}

	printf("\nmemory  before      after       expected\n");
	for (i = 0; i < NDW; i++) {
		bool bad = mem[i] != model_mem[i];

		printf("  [%2u]  0x%08" PRIx32 "  0x%08" PRIx32 "  0x%08" PRIx32
		       "%s\n", i, init_mem[i], mem[i], model_mem[i],
		       bad ? "  MISMATCH" : "");
		mismatches += bad;
		checked++;
	}
	printf("\ndemo visa: %s (%u values checked, %u mismatches)\n",
	       mismatches ? "FAILED" : "OK", checked, mismatches);
	ret = mismatches ? -1 : 0;
out:
	vatom_batch_destroy(b);
	vatom_surface_destroy(buf);
	vatom_device_close(dev);
	return ret ? 1 : 0;
}
