// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * vm_bench: T, the cost of enabled tracepoints, and P2, the latency of one
 * synchronous submission against the null ioctl.
 *
 * Part of vm_bench.c's one translation unit (its output, device and
 * summary helpers); not built alone.
 */

/* ---- T: the cost of enabled tracepoints ---- */

/* Enable or disable every vatom event; false when there is no tracefs. */
static bool vatom_tracing(bool on)
{
	static const char *const paths[] = {
		"/sys/kernel/tracing/events/vatom/enable",
		"/sys/kernel/debug/tracing/events/vatom/enable",
	};
	size_t i;
	int fd;

	/* The minimal guest mounts debugfs, not always tracefs. */
	if (access(paths[0], F_OK))
		mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL);
	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		fd = open(paths[i], O_WRONLY);
		if (fd < 0)
			continue;
		if (write(fd, on ? "1" : "0", 1) != 1) {
			close(fd);
			return false;
		}
		close(fd);
		return true;
	}
	return false;
}

/* The 1-packet PTX job of P2 and the other rows: atom.global.add.u32 of 1. */
static const struct drm_vatom_ptx p2_packet = {
	.hdr = { DRM_VATOM_PACKET_PTX, sizeof(p2_packet) },
	.op = DRM_VATOM_PTX_OP_ADD, .type = DRM_VATOM_PTX_TYPE_U32,
	.space = DRM_VATOM_PTX_SPACE_GLOBAL, .slot = SLOT, .b = { 1 },
};

static void trace_overhead(int fd)
{
	struct surface s = buffer_create(fd, BUF_BYTES);
	struct drm_vatom_ptx x = p2_packet;
	const int per = 200, blocks = 3 * reps;
	double off[MAX_REPS * 3], on[MAX_REPS * 3], r1[MAX_REPS * 3], t0;
	struct ratio_row row_off, row_on;
	struct summary so, sn, sr;
	u64 res[8];
	int b, i, k;

	if (!vatom_tracing(false)) {
		out("\n### Tracing overhead\n\nNo tracefs with vatom events: "
		    "not measured.\n");
		return;
	}
	out("\n### Tracing overhead\n\n"
	    "The vatom tracepoints (every event) enabled against disabled, "
	    "in the same boot: P1 as above (one 65536-packet submission: one "
	    "submit, job start and job end event), and a synchronous 1-packet "
	    "PTX submission (the same three events per call, %d calls a "
	    "block, %d blocks alternating).\n\n"
	    "| tracing | P1 device M lanes/s | P1 ratio (paired) | 1-packet "
	    "SUBMIT us |\n|---|---|---|---|\n", per, blocks);
	compare_run(fd, K_INT, 65536, true, &row_off);
	vatom_tracing(true);
	compare_run(fd, K_INT, 65536, true, &row_on);
	vatom_tracing(false);
	for (b = 0; b < blocks; b++) {
		for (k = 0; k < 2; k++) {
			vatom_tracing(k);
			t0 = vt_now_s();
			for (i = 0; i < per; i++)
				if (submit(fd, &x, sizeof(x), s.handle, res, 8))
					exit(1);
			(k ? on : off)[b] = (vt_now_s() - t0) / per;
		}
		vatom_tracing(false);
		r1[b] = on[b] / off[b];
	}
	so = summarize(off, blocks);
	sn = summarize(on, blocks);
	sr = summarize(r1, blocks);
	out("| off | %.2f (%.2f-%.2f) | %.2f | %.2f (%.2f-%.2f) |\n",
	    row_off.dev.med / 1e6, row_off.dev.min / 1e6,
	    row_off.dev.max / 1e6, row_off.ratio.med, so.med * 1e6,
	    so.min * 1e6, so.max * 1e6);
	out("| on | %.2f (%.2f-%.2f) | %.2f | %.2f (%.2f-%.2f) |\n",
	    row_on.dev.med / 1e6, row_on.dev.min / 1e6, row_on.dev.max / 1e6,
	    row_on.ratio.med, sn.med * 1e6, sn.min * 1e6, sn.max * 1e6);
	out("\nEnabled vs disabled: P1 throughput %.3f, 1-packet latency "
	    "%.3f (paired median, %.3f-%.3f).\n",
	    row_on.dev.med / row_off.dev.med, sr.med, sr.min, sr.max);
	printf("T p1 %.3f p2 %.3f\n", row_on.dev.med / row_off.dev.med,
	       sr.med);
	munmap(s.map, s.size);
}

/* ---- P2: latency ---- */

/* Seconds per call of @per null ioctls (GET_PARAM UAPI_VERSION), the unit. */
static double null_ioctl_s(int fd, int per)
{
	double t0 = vt_now_s();
	int i;

	for (i = 0; i < per; i++)
		get_param(fd, DRM_VATOM_PARAM_UAPI_VERSION);
	return (vt_now_s() - t0) / per;
}

/*
 * The per-job targets, as ratios to the null ioctl (judged in the counted
 * mode, where they are exact; printed as "TARGET KEY T" lines beside the
 * ratios, which bench/mkresults.sh judges with, so they are written here
 * only): a 1-packet PTX SUBMIT, a 1-packet vISA
 * SIMD16 SUBMIT, an empty SUBMIT; a kick-mode round trip, and at most
 * io_uring's NOP io_uring_enter() round trip plus Q1S_OVER_URING; a
 * polling round trip, and at most io_uring's SQPOLL NOP round trip; one
 * 1-packet job's execution.
 */
#define P2_TARGET	2.0
#define P2V_TARGET	2.8
#define P2E_TARGET	1.4
#define Q1S_TARGET	1.5
#define Q1S_OVER_URING	0.3
#define QP1S_TARGET	1.0
#define QX_TARGET	0.3

/* "<= T met" or "<= T **missed**" for ratio @v against target @t. */
static const char *verdict(double v, double t)
{
	static char buf[4][48];
	static int next;
	char *b = buf[next++ % 4];

	snprintf(b, sizeof(buf[0]), "<= %.1f%s", t,
		 v <= t ? " met" : " **missed**");
	return b;
}

/*
 * The bounds of what scripts/vm-profile.sh counts: its QEMU plugin
 * (bench/iprof.c) starts counting when the guest executes the first and
 * stops at the second, found by their addresses in this static binary.
 */
__attribute__((noinline)) void vm_bench_profile_start(void)
{
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void vm_bench_profile_stop(void)
{
	__asm__ volatile("" ::: "memory");
}

static void p2_latency(int fd)
{
	struct surface s = buffer_create(fd, BUF_BYTES);
	struct drm_vatom_ptx x = p2_packet;
	struct drm_vatom_submit empty = { 0 };
	struct surface rs = buffer_create(fd, BUF_BYTES);
	struct work w;
	const int per = 200, blocks = 3 * reps;
	double tg[MAX_REPS * 3], ts[MAX_REPS * 3], tv[MAX_REPS * 3];
	double te[MAX_REPS * 3], tx[MAX_REPS * 3];
	double tr[MAX_REPS * 3], t0;
	struct summary g, sp, sv, se, sx, r;
	u64 res[8];
	int b, i;

	/* one 16-lane vISA packet too, for comparison */
	work_build(&w, K_INT, 1);
	for (b = 0; b < blocks; b++) {
		tg[b] = null_ioctl_s(fd, per);

		t0 = vt_now_s();
		for (i = 0; i < per; i++)
			if (submit(fd, &x, sizeof(x), s.handle, res, 8))
				exit(1);
		ts[b] = (vt_now_s() - t0) / per;

		t0 = vt_now_s();
		for (i = 0; i < per; i++)
			if (submit(fd, w.stream, w.stream_size, s.handle, res,
				   64))
				exit(1);
		tv[b] = (vt_now_s() - t0) / per;
		tr[b] = ts[b] / tg[b];

		/* Where the time goes: the same call with less to do. */
		t0 = vt_now_s();
		for (i = 0; i < per; i++)
			if (xioctl(fd, DRM_IOCTL_VATOM_SUBMIT, &empty))
				exit(1);
		te[b] = (vt_now_s() - t0) / per;

		t0 = vt_now_s();
		for (i = 0; i < per; i++)
			if (submit_to(fd, &x, sizeof(x), s.handle, NULL, 8,
				      rs.handle, 0))
				exit(1);
		tx[b] = (vt_now_s() - t0) / per;
	}
	g = summarize(tg, blocks);
	sp = summarize(ts, blocks);
	sv = summarize(tv, blocks);
	se = summarize(te, blocks);
	sx = summarize(tx, blocks);
	r = summarize(tr, blocks);
	out("\n### P2: latency of one synchronous submission\n\n"
	    "%d blocks of %d calls each, alternating; per call, median "
	    "(min-max) over the blocks.\n\n"
	    "| call | %s per call | ratio to GET_PARAM | target |\n"
	    "|---|---|---|---|\n", blocks, per, cost_unit());
	out("| GET_PARAM UAPI_VERSION (null ioctl) | %s | 1 | |\n", cost(g));
	out("| SUBMIT, 1 PTX atom.global.add.u32 packet, 8 bytes of results "
	    "| %s | **%.2f** (paired %.2f, %.2f-%.2f) | %s |\n",
	    cost(sp), sp.med / g.med, r.med, r.min, r.max,
	    verdict(sp.med / g.med, P2_TARGET));
	out("| SUBMIT, 1 vISA DWORD_ATOMIC.ADD SIMD16 packet, 64 bytes of "
	    "results | %s | **%.2f** | %s |\n", cost(sv), sv.med / g.med,
	    verdict(sv.med / g.med, P2V_TARGET));
	out("| SUBMIT, the PTX packet, its 8 bytes of results to a result "
	    "surface | %s | %.2f | |\n", cost(sx), sx.med / g.med);
	out("| SUBMIT, empty: no packet, no binding, no results | %s | **%.2f** "
	    "| %s |\n", cost(se), se.med / g.med,
	    verdict(se.med / g.med, P2E_TARGET));
	printf("P2 %.3f\nTARGET P2 %.1f\n", sp.med / g.med, P2_TARGET);
	printf("P2V %.3f\nTARGET P2V %.1f\n", sv.med / g.med, P2V_TARGET);
	printf("P2E %.3f\nTARGET P2E %.1f\n", se.med / g.med, P2E_TARGET);
	/* Each row's median, in its unit: for bench/shim-counted.sh. */
	printf("COST null %.3f\nCOST p2 %.3f\nCOST p2v %.3f\nCOST p2x %.3f\n"
	       "COST empty %.3f\n", cost_value(g), cost_value(sp),
	       cost_value(sv), cost_value(sx), cost_value(se));
	work_free(&w);
	munmap(rs.map, rs.size);
	munmap(s.map, s.size);
}
