// SPDX-License-Identifier: MIT
/*
 * vatom bench-async: jobs per second of the same work submitted
 * synchronously (vatom_batch_submit(), one call per job) and asynchronously
 * (vatom_submit_async(), at most a window of jobs in flight).
 *
 * One job is a stream of P DWORD_ATOMIC.ADD packets of 16 lanes on one
 * buffer, no results. Every mode ends by checking the buffer: each of its
 * 16 words must have been incremented exactly P times per job. Modes:
 *
 *   sync        vatom_batch_submit() per job
 *   async       vatom_submit_async() per job, each with its own fence
 *               (a syncobj created and destroyed per job); waits on the
 *               oldest fence once W are in flight
 *   async-batch vatom_submit_async() per job, a fence on every W-th job
 *               only; jobs of a device complete in order, so waiting for
 *               that fence retires the W jobs before it
 *
 * To measure what one core sustains, boot the VM with one vCPU
 * (VM_SMP=1): the submitting thread and the kernel worker then share it.
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vatom_tool.h"

#define BENCH_WORDS	16
#define BENCH_MAX_WINDOW 1024

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

struct bench {
	struct vatom_device *dev;
	struct vatom_surface *s;
	struct vatom_batch *b;
	uint32_t *mem;
	unsigned int jobs;
	unsigned int packets;
	unsigned int window;
};

static int bench_sync(struct bench *x)
{
	unsigned int i;
	int ret;

	for (i = 0; i < x->jobs; i++) {
		ret = vatom_batch_submit(x->b);
		if (ret)
			return ret;
	}
	return 0;
}

/* Submit one job, waiting on @wait (the oldest fence) while -EBUSY. */
static int submit_async(struct bench *x, struct vatom_fence **out,
			struct vatom_fence *wait)
{
	int ret;

	for (;;) {
		ret = vatom_submit_async(x->b, NULL, 0, NULL, 0, out);
		if (ret != -EBUSY || !wait)
			return ret;
		ret = vatom_fence_wait(wait, INT64_MAX);
		if (ret)
			return ret;
	}
}

static int bench_async(struct bench *x)
{
	struct vatom_fence *ring[BENCH_MAX_WINDOW] = { NULL };
	unsigned int i, head = 0, n = 0;
	int ret = 0;

	for (i = 0; i < x->jobs && !ret; i++) {
		if (n == x->window) {
			ret = vatom_fence_wait(ring[head], INT64_MAX);
			vatom_fence_destroy(ring[head]);
			ring[head] = NULL;
			head = (head + 1) % x->window;
			n--;
			if (ret)
				break;
		}
		ret = submit_async(x, &ring[(head + n) % x->window],
				   n ? ring[head] : NULL);
		if (!ret)
			n++;
	}
	/* In order: the last fence retires every job. */
	if (!ret && n)
		ret = vatom_fence_wait(ring[(head + n - 1) % x->window], INT64_MAX);
	for (i = 0; i < x->window; i++)
		vatom_fence_destroy(ring[i]);
	return ret;
}

static int bench_async_batch(struct bench *x)
{
	struct vatom_fence *prev = NULL, *cur = NULL;
	unsigned int i;
	int ret = 0;

	for (i = 0; i < x->jobs && !ret; i++) {
		bool fenced = (i + 1) % x->window == 0 || i == x->jobs - 1;

		ret = submit_async(x, fenced ? &cur : NULL, prev);
		if (ret || !fenced)
			continue;
		/* Two windows in flight at most: retire the previous one. */
		if (prev) {
			ret = vatom_fence_wait(prev, INT64_MAX);
			vatom_fence_destroy(prev);
		}
		prev = cur;
		cur = NULL;
	}
	if (!ret && prev)
		ret = vatom_fence_wait(prev, INT64_MAX);
	vatom_fence_destroy(prev);
	return ret;
}

static const struct {
	const char *name;
	int (*run)(struct bench *x);
} modes[] = {
	{ "sync", bench_sync },
	{ "async", bench_async },
	{ "async-batch", bench_async_batch },
};

static int run_mode(struct bench *x, unsigned int m, double *jobs_per_s)
{
	uint64_t want = (uint64_t)x->jobs * x->packets;
	int64_t t0, t1;
	unsigned int k;
	int ret;

	memset(x->mem, 0, BENCH_WORDS * 4);
	t0 = now_ns();
	ret = modes[m].run(x);
	t1 = now_ns();
	if (ret) {
		fprintf(stderr, "vatom: bench-async %s: %s\n", modes[m].name,
			strerror(-ret));
		return ret;
	}
	for (k = 0; k < BENCH_WORDS; k++) {
		if (x->mem[k] != (uint32_t)(want * (k + 1))) {
			fprintf(stderr, "vatom: bench-async %s: word %u is %u, expected %u\n",
				modes[m].name, k, x->mem[k], (uint32_t)(want * (k + 1)));
			return -EIO;
		}
	}
	*jobs_per_s = x->jobs / ((t1 - t0) / 1e9);
	return 0;
}

int cmd_bench_async(const struct tool_opts *o, int argc, char **argv)
{
	struct vatom_visa_exec ex = VATOM_VISA_EXEC(16);
	struct bench x = { .jobs = 20000, .packets = 1, .window = 32 };
	uint32_t offs[BENCH_WORDS], src[BENCH_WORDS];
	unsigned int i, m, reps = 3;
	double best[ARRAY_SIZE(modes)] = { 0 }, v;
	int opt, ret;

	optind = 1;
	while ((opt = getopt(argc, argv, "n:p:w:r:")) != -1) {
		switch (opt) {
		case 'n':
			x.jobs = strtoul(optarg, NULL, 0);
			break;
		case 'p':
			x.packets = strtoul(optarg, NULL, 0);
			break;
		case 'w':
			x.window = strtoul(optarg, NULL, 0);
			break;
		case 'r':
			reps = strtoul(optarg, NULL, 0);
			break;
		default:
			return 2;
		}
	}
	if (!x.jobs || !x.packets || !x.window || x.window > BENCH_MAX_WINDOW ||
	    !reps) {
		fprintf(stderr, "vatom: bench-async: bad argument\n");
		return 2;
	}

	ret = tool_open_device(o, &x.dev);
	if (ret)
		return 1;
	ret = vatom_surface_create_buffer(x.dev, 4096, 0, &x.s);
	if (!ret)
		ret = vatom_surface_map(x.s, (void **)&x.mem);
	if (!ret)
		ret = vatom_batch_create(x.dev, 0, &x.b);
	if (!ret)
		ret = vatom_batch_bind(x.b, 0, x.s);
	for (i = 0; i < BENCH_WORDS; i++) {
		offs[i] = i * 4;
		src[i] = i + 1;
	}
	for (i = 0; !ret && i < x.packets; i++) {
		ret = vatom_prep_dword_atomic(x.b, &ex, VATOM_VISA_ADD, 0, 0,
					      offs, src, NULL);
		ret = ret < 0 ? ret : 0;
	}
	if (ret) {
		fprintf(stderr, "vatom: bench-async: setup: %s\n", strerror(-ret));
		goto out;
	}

	printf("bench-async: %u jobs of %u DWORD_ATOMIC.ADD x16, window %u, best of %u\n",
	       x.jobs, x.packets, x.window, reps);
	fflush(stdout);
	/* Interleave the modes, keep each one's best run. */
	for (i = 0; i < reps; i++) {
		for (m = 0; m < ARRAY_SIZE(modes); m++) {
			/* Progress on stderr: a run takes seconds in the VM. */
			fprintf(stderr, "\r  run %u/%u: %-12s", i + 1, reps,
				modes[m].name);
			ret = run_mode(&x, m, &v);
			if (ret)
				goto out;
			if (v > best[m])
				best[m] = v;
		}
	}
	fprintf(stderr, "\r%40s\r", "");
	for (m = 0; m < ARRAY_SIZE(modes); m++)
		printf("  %-12s %10.0f jobs/s  (%.2fx sync)\n", modes[m].name,
		       best[m], best[m] / best[0]);
out:
	vatom_batch_destroy(x.b);
	vatom_surface_destroy(x.s);
	vatom_device_close(x.dev);
	return ret ? 1 : 0;
}
