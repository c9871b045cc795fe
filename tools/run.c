// SPDX-License-Identifier: MIT
/*
 * vatom run FILE|-: execute an ISA test file on the device and check it.
 *
 * The file is read whole first (run_file.c); any bad line stops it with
 * every diagnostic printed (exit 2). Then the surfaces are created and
 * initialised, each batch (the lines up to a `submit`) is submitted, and
 * every packet is printed with its results, every expectation checked
 * and every print line shown: human text by default, --tap or --json.
 * A packet the device rejects is reported at its line; a job (a batch)
 * that times out or faults, at its first line; the run stops at either.
 * Exit status: 0 all expectations held, 1 one failed, the device refused
 * or a job failed, 2 the file or the command line is wrong.
 * --validate-only stops after assembling (no device needed: the library
 * encodes, only the kernel validates fully); --validate has the device
 * check every batch (DRM_VATOM_SUBMIT_VALIDATE_ONLY) and runs nothing.
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"

enum { OUT_TEXT, OUT_TAP, OUT_JSON };

struct run_ctx {
	struct run_file f;
	int out;
	unsigned int passed, failed, tap_n;
	bool json_first;
	bool device_validate;	/* --validate: the kernel checks, nothing runs */
	uint64_t guilty_before;	/* resets this file caused before the run */
	const char *stopped;	/* what stopped the run, for the summary */
};

/* The values behind a result target; false when there are none. */
static bool result_values(struct run_ctx *r, const struct run_target *t,
			  uint64_t *v, unsigned int *n, unsigned int *width)
{
	const struct run_pkt *pk = &r->f.pkts[t->packet];
	struct vatom_batch *b = r->f.steps[pk->step].b;
	const struct drm_vatom_packet *hdr;
	unsigned int i, lanes;
	int res = pk->res, size;

	hdr = vatom_batch_packet(b, res, NULL);
	size = vatom_result_size(b, res);
	if (!hdr || size <= 0 || !vatom_batch_results(b, NULL))
		return false;
	if (hdr->type == DRM_VATOM_PACKET_VISA) {
		const struct drm_vatom_visa *p = (const void *)hdr;

		lanes = 1u << (p->exec_size & DRM_VATOM_VISA_EXEC_SIZE_MASK);
		if (p->opcode == DRM_VATOM_VISA_ADDC) {
			for (i = 0; i < lanes; i++)
				v[i] = t->elem ? vatom_result_addc_carry(b, res, i) :
				       vatom_result_addc_dst(b, res, i);
			*width = 4;
		} else {
			*width = (unsigned int)size / lanes;
			for (i = 0; i < lanes; i++)
				v[i] = *width == 8 ? vatom_result_u64(b, res, i) :
				       vatom_result_u32(b, res, i);
		}
		*n = lanes;
		return true;
	}
	/* PTX: d names each element of a vector, or the whole value. */
	{
		const struct drm_vatom_ptx *p = (const void *)hdr;
		unsigned int vec = p->vec ? p->vec : 1;
		uint8_t bytes[16];

		vatom_result_bytes(b, res, bytes, sizeof(bytes));
		*width = (unsigned int)size / vec;
		if (*width == 16) {	/* b128: {low, high} */
			memcpy(v, bytes, 16);
			*n = 2;
			*width = 8;
			return true;
		}
		*n = 0;
		for (i = 0; i < vec; i++) {
			if (pk->nnames > 1 && i != t->elem)
				continue;
			v[*n] = 0;
			memcpy(&v[(*n)++], bytes + i * *width, *width);
		}
		return true;
	}
}

/*
 * @count elements at an L1 target: its first and last byte must lie in
 * the same tile's L1 (the parser checked; this keeps a stale layout from
 * reaching the next tile or past the mapping).
 */
static void *l1_range(const struct run_target *t, unsigned int count)
{
	uint32_t len = count * t->width;
	void *first, *last;

	if (!t->surf->s || !len ||
	    vatom_noc_l1(t->surf->s, t->x, t->y, (uint32_t)t->offset, &first) ||
	    t->offset + len - 1 > UINT32_MAX ||
	    vatom_noc_l1(t->surf->s, t->x, t->y,
			 (uint32_t)(t->offset + len - 1), &last) ||
	    (uint8_t *)last - (uint8_t *)first != (ptrdiff_t)len - 1)
		return NULL;
	return first;
}

static bool memory_values(const struct run_target *t, unsigned int count,
			  uint64_t *v)
{
	uint8_t *base;
	unsigned int i;
	void *p;

	switch (t->kind) {
	case RUN_T_MEMORY:
		if (!t->surf->s || vatom_surface_map(t->surf->s, &p) ||
		    t->offset + (uint64_t)count * t->width > t->surf->size)
			return false;
		base = (uint8_t *)p + t->offset;
		break;
	case RUN_T_L1:
		base = l1_range(t, count);
		if (!base)
			return false;
		break;
	case RUN_T_COUNTER: {
		uint32_t c[DRM_VATOM_NOC_NIU_COUNTERS];

		if (vatom_noc_counters_read(t->surf->s, t->x, t->y, t->noc, c,
					    DRM_VATOM_NOC_NIU_COUNTERS))
			return false;
		v[0] = c[t->offset];
		return true;
	}
	default:
		return false;
	}
	for (i = 0; i < count; i++) {
		v[i] = 0;
		memcpy(&v[i], base + (size_t)i * t->width, t->width);
	}
	return true;
}

static void print_vals(FILE *o, const uint64_t *v, unsigned int n)
{
	unsigned int i;

	if (n != 1)
		fprintf(o, "{");
	for (i = 0; i < n; i++)
		fprintf(o, "%s0x%" PRIx64, i ? ", " : "", v[i]);
	if (n != 1)
		fprintf(o, "}");
}

static void json_vals(const uint64_t *v, unsigned int n)
{
	unsigned int i;

	printf("[");
	for (i = 0; i < n; i++)
		printf("%s%" PRIu64, i ? "," : "", v[i]);
	printf("]");
}

static void check(struct run_ctx *r, const struct run_expect *e)
{
	uint64_t got[RUN_MAX_VALS];
	unsigned int n = e->n, width = e->t.width, i;
	bool have, pass;

	if (e->t.kind == RUN_T_RESULT)
		have = result_values(r, &e->t, got, &n, &width);
	else
		have = memory_values(&e->t, e->n, got);
	pass = have && n == e->n;
	for (i = 0; pass && i < n; i++)
		pass = got[i] == e->want[i];
	if (pass)
		r->passed++;
	else
		r->failed++;
	r->tap_n++;
	if (r->out == OUT_TAP) {
		printf("%sok %u - %s:%u: %s\n", pass ? "" : "not ", r->tap_n,
		       r->f.path, e->line, e->text);
		if (!pass && have) {
			printf("#   got ");
			print_vals(stdout, got, n);
			printf("\n");
		}
	} else if (r->out == OUT_JSON) {
		printf("%s{\"kind\":\"expect\",\"line\":%u,\"expect\":",
		       r->json_first ? "" : ",", e->line);
		r->json_first = false;
		tool_json_str(e->text);
		printf(",\"ok\":%s,\"want\":", pass ? "true" : "false");
		json_vals(e->want, e->n);
		printf(",\"got\":");
		json_vals(got, have ? n : 0);
		printf("}");
	} else {
		printf("%s %s:%u: %s", pass ? "ok  " : "FAIL", r->f.path,
		       e->line, e->text);
		if (!pass) {
			printf("   (got ");
			if (have)
				print_vals(stdout, got, n);
			else
				printf("nothing");
			printf(")");
		}
		printf("\n");
	}
}

static void show_packet(struct run_ctx *r, unsigned int idx, bool ran)
{
	const struct run_pkt *pk = &r->f.pkts[idx];
	struct vatom_batch *b = r->f.steps[pk->step].b;
	uint64_t v[RUN_MAX_VALS];
	unsigned int n, width, j;
	char text[4096];
	size_t size;
	const void *p = vatom_batch_packet(b, pk->res, &size);

	vatom_disasm(p, size, text, sizeof(text));
	if (r->out == OUT_JSON) {
		printf("%s{\"kind\":\"packet\",\"packet\":%u,\"line\":%u,\"text\":",
		       r->json_first ? "" : ",", idx, pk->line);
		r->json_first = false;
		tool_json_str(text);
		printf(",\"results\":{");
		for (j = 0; ran && j < pk->nnames; j++) {
			struct run_target t = { .packet = (int)idx, .elem = j };

			if (!result_values(r, &t, v, &n, &width))
				continue;
			printf("%s", j ? "," : "");
			tool_json_str(pk->names[j]);
			printf(":");
			json_vals(v, n);
		}
		printf("}}");
		return;
	}
	if (r->out == OUT_TAP) {
		printf("# #%u %s:%u: %s\n", idx, r->f.path, pk->line, text);
		return;
	}
	printf("#%u %s:%u: %s\n", idx, r->f.path, pk->line, text);
	for (j = 0; ran && j < pk->nnames; j++) {
		struct run_target t = { .packet = (int)idx, .elem = j };

		if (!result_values(r, &t, v, &n, &width))
			continue;
		printf("    %s = ", pk->names[j]);
		print_vals(stdout, v, n);
		printf("\n");
	}
}

/* A print line: text, a TAP comment (no test), or a JSON item. */
static void show_print(struct run_ctx *r, const struct run_print *pr)
{
	unsigned int n = pr->count < 256 ? pr->count : 256;
	uint64_t v[256];
	bool have;

	have = memory_values(&pr->t, n, v);
	if (r->out == OUT_JSON) {
		printf("%s{\"kind\":\"print\",\"line\":%u,\"print\":",
		       r->json_first ? "" : ",", pr->line);
		r->json_first = false;
		tool_json_str(pr->text);
		printf(",\"values\":");
		json_vals(v, have ? n : 0);
		printf("}");
		return;
	}
	printf("%s%s:%u: %s = ", r->out == OUT_TAP ? "# " : "", r->f.path,
	       pr->line, pr->text);
	if (have)
		print_vals(stdout, v, n);
	else
		printf("(cannot read it)");
	printf("\n");
}

static int create_surfaces(struct run_ctx *r, struct vatom_device *dev)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < r->f.nsurf && !ret; i++) {
		struct run_surf *s = &r->f.surf[i];

		if (s->kind == RUN_BUFFER)
			ret = vatom_surface_create_buffer(dev, s->size, 0, &s->s);
		else if (s->kind == RUN_TYPED)
			ret = vatom_surface_create_typed(dev, &s->typed, &s->s);
		else
			ret = vatom_surface_create_tile_grid(dev, &s->grid, &s->s);
		if (ret)
			fprintf(stderr, "vatom run: cannot create surface '%s': %s\n",
				s->name, strerror(-ret));
		else if (s->kind != RUN_TYPED)
			s->size = vatom_surface_size(s->s);
	}
	for (i = 0; i < r->f.ninits && !ret; i++) {
		const struct run_expect *e = &r->f.inits[i];
		uint8_t *base = NULL;
		unsigned int j;
		void *p;

		if (e->t.kind == RUN_T_MEMORY && !vatom_surface_map(e->t.surf->s, &p) &&
		    e->t.offset + (uint64_t)e->n * e->t.width <= e->t.surf->size)
			base = (uint8_t *)p + e->t.offset;
		else if (e->t.kind == RUN_T_L1)
			base = l1_range(&e->t, e->n);
		if (!base) {
			fprintf(stderr, "%s:%u: error: cannot initialise %s\n",
				r->f.path, e->line, e->text);
			return -EINVAL;
		}
		for (j = 0; j < e->n; j++)
			memcpy(base + (size_t)j * e->t.width, &e->want[j], e->t.width);
	}
	return ret;
}

/*
 * A batch failed with no packet to blame. -ETIMEDOUT and -EIO are a job
 * that the job timeout stopped or that faulted (the UAPI's "job timeouts
 * and resets"): a prefix of its packets ran, each whole, and the file is
 * guilty, so nothing after it would run. They are reported at the job's
 * first line, with what the device says: the job timeout (GET_PARAM) and
 * whether this job reset the file (its guilty count went up).
 */
static void report_job_failure(struct run_ctx *r, const struct run_step *st,
			       int err)
{
	unsigned int first = r->f.pkts[st->first_pkt].line;
	unsigned int last = r->f.pkts[st->first_pkt + st->npkts - 1].line;
	struct vatom_reset_status rs;
	bool guilty, caused;
	char lines[48];
	uint64_t ms;

	guilty = !vatom_device_reset_status(r->f.dev, 0, &rs) &&
		 rs.status == VATOM_RESET_GUILTY;
	caused = guilty && rs.guilty > r->guilty_before;
	if (first == last)
		snprintf(lines, sizeof(lines), "line %u", first);
	else
		snprintf(lines, sizeof(lines), "lines %u-%u", first, last);

	if (err == -ETIMEDOUT) {
		fprintf(stderr, "%s:%u: error: job timed out", r->f.path, first);
		if (!vatom_device_get_param(r->f.dev, DRM_VATOM_PARAM_JOB_TIMEOUT_MS,
					    0, &ms))
			fprintf(stderr, " after %" PRIu64 " ms", ms);
		fprintf(stderr, "%s: only a prefix of its packets (%s) ran\n",
			caused ? " (context reset, guilty)" : "", lines);
		r->stopped = "a job that timed out";
	} else if (err == -EIO && caused) {
		fprintf(stderr, "%s:%u: error: job faulted with -EIO (context reset, guilty): only a prefix of its packets (%s) ran\n",
			r->f.path, first, lines);
		r->stopped = "a job that faulted";
	} else if (err == -EIO && guilty) {
		fprintf(stderr, "%s:%u: error: job refused with -EIO (context lost: this file is guilty of an earlier reset): none of its packets (%s) ran\n",
			r->f.path, first, lines);
		r->stopped = "a job refused after a reset";
	} else {
		fprintf(stderr, "%s: error: submission failed: %s\n", r->f.path,
			vatom_strerror(err));
		r->stopped = "a failed submission";
	}
}

static int run_steps(struct run_ctx *r)
{
	uint32_t index, reason;
	unsigned int i, j, k;
	int ret = 0;

	for (i = 0; i < r->f.nsteps && !ret; i++) {
		const struct run_step *st = &r->f.steps[i];

		for (j = 0; j < r->f.nsurf; j++)
			vatom_batch_bind(st->b, r->f.surf[j].slot, r->f.surf[j].s);
		if (st->npkts) {
			ret = r->device_validate ? vatom_batch_validate(st->b) :
						   vatom_batch_submit(st->b);
			if (ret) {
				vatom_batch_error(st->b, &index, &reason);
				if (reason != DRM_VATOM_ERR_NONE && index < st->npkts)
					fprintf(stderr, "%s:%u: error: the device rejected this packet: %s (%s)\n",
						r->f.path,
						r->f.pkts[st->first_pkt + index].line,
						vatom_strreason(reason), strerror(-ret));
				else
					report_job_failure(r, st, ret);
				break;
			}
		}
		if (r->device_validate)
			continue;	/* nothing ran: nothing to show or check */
		for (j = 0; j < st->npkts; j++)
			show_packet(r, st->first_pkt + j, true);
		for (j = 0; j < st->nexpects; j++)
			check(r, &st->expects[j]);
		for (k = 0; k < r->f.nprints; k++)
			if (r->f.prints[k].step == i)
				show_print(r, &r->f.prints[k]);
	}
	return ret;
}

static void usage(FILE *o)
{
	fprintf(o, "usage: vatom run [-j|--json] [--tap] [--validate | --validate-only] FILE|-\n"
		"  Assemble an ISA test file (vISA, PTX, NoC lines, surfaces,\n"
		"  init/expect/print lines; see vatom(1) and docs/vatom-run.md),\n"
		"  run it on the device and check every expect line.\n"
		"  -j, --json        one JSON object: packets, results, expectations\n"
		"  --tap             TAP: one test per expect line\n"
		"  --validate        the device checks every batch, nothing runs\n"
		"  --validate-only   assemble and stop (no device needed)\n"
		"  exit status: 0 all expectations held, 1 one failed, the\n"
		"  device refused a packet or a job timed out or faulted (the\n"
		"  run stops at it), 2 a bad file or command line\n");
}

int cmd_run(const struct tool_opts *o, int argc, char **argv)
{
	struct run_ctx r = { .json_first = true, .stopped = "a rejected batch" };
	struct vatom_reset_status rs;
	bool validate = false;
	struct vatom_device *dev = NULL;
	const char *path = NULL;
	struct vatom_asm *a = NULL;
	FILE *in;
	int i, ret, status = 2;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-j") || !strcmp(argv[i], "--json"))
			r.out = OUT_JSON;
		else if (!strcmp(argv[i], "--tap"))
			r.out = OUT_TAP;
		else if (!strcmp(argv[i], "--validate-only"))
			validate = true;
		else if (!strcmp(argv[i], "--validate"))
			r.device_validate = true;
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else if (!path && (argv[i][0] != '-' || !argv[i][1]))
			path = argv[i];
		else {
			fprintf(stderr, "vatom run: unknown argument '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		}
	}
	if (!path) {
		usage(stderr);
		return 2;
	}
	in = strcmp(path, "-") ? fopen(path, "r") : stdin;
	if (!in) {
		fprintf(stderr, "vatom run: %s: %s\n", path, strerror(errno));
		return 2;
	}
	r.f.path = strcmp(path, "-") ? path : "<stdin>";
	if (!validate && tool_open_device(o, &dev))
		goto out;
	r.f.dev = dev;
	if (vatom_asm_create(0, &a)) {
		fprintf(stderr, "vatom run: out of memory\n");
		goto out;
	}
	ret = run_file_read(&r.f, in, a);
	if (ret) {
		if (r.f.errors)
			fprintf(stderr, "%s: %u error%s, nothing was run\n", r.f.path,
				r.f.errors, r.f.errors == 1 ? "" : "s");
		goto out;
	}
	if (validate) {
		for (i = 0; i < (int)r.f.npkts; i++)
			if (o->verbose)
				show_packet(&r, (unsigned int)i, false);
		printf("%s: %u packets in %u batches assembled (the kernel validates at submission)\n",
		       r.f.path, r.f.npkts, r.f.nsteps);
		status = 0;
		goto out;
	}
	if (create_surfaces(&r, dev)) {
		status = 1;
		goto out;
	}
	/*
	 * Resets this file caused so far (0: it is new): a job that makes
	 * the count rise is the one that reset it (report_job_failure()).
	 */
	if (!vatom_device_reset_status(dev, 0, &rs))
		r.guilty_before = rs.guilty;
	if (r.out == OUT_JSON) {
		printf("{\"file\":");
		tool_json_str(r.f.path);
		printf(",\"items\":[");
	}
	ret = run_steps(&r);
	status = ret || r.failed ? 1 : 0;
	if (r.device_validate) {
		if (!ret)
			printf("%s: %u packets in %u batches: the device accepts them all (nothing was run)\n",
			       r.f.path, r.f.npkts, r.f.nsteps);
		goto out;
	}
	if (r.out == OUT_TAP)
		printf("1..%u\n", r.tap_n);
	else if (r.out == OUT_JSON)
		printf("],\"passed\":%u,\"failed\":%u,\"status\":%d}\n",
		       r.passed, r.failed, status);
	else
		printf("%s: %u expectations, %u passed, %u failed%s%s%s\n", r.f.path,
		       r.passed + r.failed, r.passed, r.failed,
		       ret ? " (the run stopped at " : "", ret ? r.stopped : "",
		       ret ? ")" : "");
out:
	run_file_free(&r.f);
	vatom_asm_destroy(a);
	vatom_device_close(dev);
	if (in && in != stdin)
		fclose(in);
	return status;
}
