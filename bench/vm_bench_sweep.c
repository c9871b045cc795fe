// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * vm_bench: the sweep: throughput against packets per submission.
 *
 * Part of vm_bench.c's one translation unit (its output, device and
 * summary helpers); not built alone.
 */

/* ---- sweep: throughput against packets per submission ---- */

static const u32 batches[] = { 1, 3, 10, 30, 100, 300, 1000, 3000, 10000,
			       30000, 100000 };
static const enum kind sweep_kinds[] = { K_INT, K_F32_V4, K_CAS,
					 K_NOC_INCR };

static void sweep(int fd, const char *dat_path)
{
	struct summary res[ARRAY_SIZE(sweep_kinds)][ARRAY_SIZE(batches)];
	u32 knee[ARRAY_SIZE(sweep_kinds)], half[ARRAY_SIZE(sweep_kinds)];
	double plateau[ARRAY_SIZE(sweep_kinds)];
	FILE *dat = dat_path ? fopen(dat_path, "w") : NULL;
	size_t ki, bi;
	int r;

	for (ki = 0; ki < ARRAY_SIZE(sweep_kinds); ki++) {
		enum kind k = sweep_kinds[ki];
		struct surface s;
		u8 *l1 = NULL;
		double top[5];
		int nt = 0;

		if (k == K_NOC_INCR)
			s = grid_create(fd, &l1);
		else
			s = buffer_create(fd, BUF_BYTES);
		for (bi = 0; bi < ARRAY_SIZE(batches); bi++) {
			struct work w;
			double v[MAX_REPS];
			u8 *results;

			work_build(&w, k, batches[bi]);
			if (w.stream_size > max_stream) {
				res[ki][bi] = (struct summary){ 0, 0, 0 };
				work_free(&w);
				continue;
			}
			results = xmalloc(w.res_size + 8);
			for (r = 0; r < reps; r++) {
				double t0 = vt_now_s(), t;
				u64 n = 0;

				do {
					if (submit(fd, w.stream, w.stream_size,
						   s.handle, results,
						   w.res_size))
						exit(1);
					n += w.elems;
					t = vt_now_s() - t0;
				} while (t < min_time);
				v[r] = n / t;
			}
			res[ki][bi] = summarize(v, reps);
			if (batches[bi] >= 1000 && nt < 5)
				top[nt++] = res[ki][bi].med;
			free(results);
			work_free(&w);
		}
		/*
		 * plateau: the median of the batches of 1000 packets and
		 * more; knee: the smallest batch at 90 % of it (per-submission
		 * overhead below 10 %), half: the smallest at 50 %.
		 */
		plateau[ki] = nt ? summarize(top, nt).med : 0;
		knee[ki] = 0;
		half[ki] = 0;
		/* the first batch size, from 1 up, to reach each level */
		for (bi = ARRAY_SIZE(batches); bi-- > 0;) {
			if (res[ki][bi].med >= 0.9 * plateau[ki])
				knee[ki] = batches[bi];
			if (res[ki][bi].med >= 0.5 * plateau[ki])
				half[ki] = batches[bi];
		}
		munmap(s.map, s.size);
	}

	out("\n### Throughput against batch size\n\n"
	    "Element operations per second (millions), synchronous "
	    "submissions of N packets each, back to back for at least "
	    "%.0f ms per measurement; median (min-max) of %d. Elements per "
	    "packet: int add 16, f32 add 4, cas 1, NoC increment 1.\n\n"
	    "| packets per submission |", min_time * 1e3, reps);
	for (ki = 0; ki < ARRAY_SIZE(sweep_kinds); ki++)
		out(" %s |", kind_name(sweep_kinds[ki]));
	out("\n|---|");
	for (ki = 0; ki < ARRAY_SIZE(sweep_kinds); ki++)
		out("---|");
	out("\n");
	for (bi = 0; bi < ARRAY_SIZE(batches); bi++) {
		out("| %u |", batches[bi]);
		for (ki = 0; ki < ARRAY_SIZE(sweep_kinds); ki++) {
			struct summary *x = &res[ki][bi];

			if (x->med == 0)
				out(" (stream over the limit) |");
			else
				out(" %.3f (%.3f-%.3f) |", x->med / 1e6,
				    x->min / 1e6, x->max / 1e6);
		}
		out("\n");
	}
	out("| plateau (median of N >= 1000) |");
	for (ki = 0; ki < ARRAY_SIZE(sweep_kinds); ki++)
		out(" %.3f |", plateau[ki] / 1e6);
	out("\n| N at 50 %% of the plateau |");
	for (ki = 0; ki < ARRAY_SIZE(sweep_kinds); ki++)
		out(" %u |", half[ki]);
	out("\n| **knee**: N at 90 %% of the plateau |");
	for (ki = 0; ki < ARRAY_SIZE(sweep_kinds); ki++)
		out(" **%u** |", knee[ki]);
	out("\n\nThe knee is where the per-submission cost has fallen "
	    "under 10 %% of a submission's time; past it, larger "
	    "submissions buy nothing.\n");

	if (dat) {
		fprintf(dat, "# packets");
		for (ki = 0; ki < ARRAY_SIZE(sweep_kinds); ki++)
			fprintf(dat, " | %s: med min max (M elements/s)",
				kind_name(sweep_kinds[ki]));
		fprintf(dat, "\n");
		for (bi = 0; bi < ARRAY_SIZE(batches); bi++) {
			fprintf(dat, "%u", batches[bi]);
			for (ki = 0; ki < ARRAY_SIZE(sweep_kinds); ki++)
				fprintf(dat, " %.6f %.6f %.6f",
					res[ki][bi].med / 1e6,
					res[ki][bi].min / 1e6,
					res[ki][bi].max / 1e6);
			fprintf(dat, "\n");
		}
		fclose(dat);
	}
	for (ki = 0; ki < ARRAY_SIZE(sweep_kinds); ki++)
		printf("KNEE %u %s\n", knee[ki], kind_name(sweep_kinds[ki]));
}

static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	snprintf(buf, len, "?");
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}

static void usage(void)
{
	fprintf(stderr, "usage: vm_bench [-c] [-o DIR] [-r reps (1-64)] "
		"[-t seconds] [-s sections] [-l row:n]\n"
		"  sections: any of 1234qamwt (default all)\n"
		"  -c: the guest counts instructions (make bench-icount): "
		"costs in instructions\n"
		"  -l: one row's call n times, nothing else (null, p2, p2v, "
		"empty, kick; scripts/vm-profile.sh)\n");
	exit(2);
}

/* The in-process device's version when it is preloaded (docs/shim.md). */
extern const char vatom_shim_version[] __attribute__((weak));

/* A null ioctl of the host's own kernel (an unknown one on /dev/null), in us. */
static double host_null_ioctl_us(void)
{
	struct timespec a, b;
	int fd = open("/dev/null", O_RDONLY), i, n = 200000;

	if (fd < 0)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++)
		if (!ioctl(fd, _IO('v', 0xff)))
			break;
	clock_gettime(CLOCK_MONOTONIC, &b);
	close(fd);
	return ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / n / 1e3;
}
