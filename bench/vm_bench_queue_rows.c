// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * vm_bench: Q: user-mode queues against SUBMIT, throughput and round trips,
 * with io_uring beside them.
 *
 * Part of vm_bench.c's one translation unit (its output, device and
 * summary helpers); not built alone.
 */

/*
 * jobs/s of @pkts-packet jobs: queue (32 a kick), sync, async (fence/32),
 * polling queue (up to its 64 entries in flight).
 */
static void queue_throughput(int fd, struct surface *s, u32 pkts,
			     struct summary out4[4])
{
	struct drm_vatom_ptx x = p2_packet;
	struct drm_vatom_ptx stream[16];
	struct surface rs = buffer_create(fd, BUF_BYTES);
	const u32 per = 32 * 16, blocks = 3 * reps;
	double tq[MAX_REPS * 3], tsy[MAX_REPS * 3], tas[MAX_REPS * 3];
	double tp[MAX_REPS * 3], t0;
	struct work aw = {
		.stream = (u8 *)stream, .stream_size = pkts * sizeof(x),
		.res_size = pkts * 8,
	};
	u32 i, b, so = syncobj_create(fd);
	u64 res[16];
	struct qb q, qp;

	for (i = 0; i < pkts; i++)
		stream[i] = x;
	qb_init(fd, &q, s->handle, stream, pkts * sizeof(x), pkts * 8, false);
	qb_init(fd, &qp, s->handle, stream, pkts * sizeof(x), pkts * 8, true);
	for (b = 0; b < blocks; b++) {
		t0 = vt_now_s();
		for (i = 0; i < per; i += 32)
			qb_run(fd, &q, 32);
		tq[b] = per / (vt_now_s() - t0);

		t0 = vt_now_s();
		qb_poll_run(fd, &qp, per, qb_spin_wait);
		tp[b] = per / (vt_now_s() - t0);

		t0 = vt_now_s();
		for (i = 0; i < per; i++)
			if (submit(fd, stream, pkts * sizeof(x), s->handle, res,
				   pkts * 8))
				exit(1);
		tsy[b] = per / (vt_now_s() - t0);

		tas[b] = per / async_jobs(fd, &aw, s->handle, rs.handle, so,
					  per, 32);
	}
	out4[0] = summarize(tq, blocks);
	out4[1] = summarize(tsy, blocks);
	out4[2] = summarize(tas, blocks);
	out4[3] = summarize(tp, blocks);
	qb_fini(fd, &qp);
	qb_fini(fd, &q);
	munmap(rs.map, rs.size);
}

/*
 * A row of section Q's round-trip tables: @us, seconds per call, then
 * @ratio, its ratios to the null ioctl, which a target judges by their
 * median; after @headline, the ratio of the two medians, as "paired"
 * (when @headline is not negative). @target: <= it, or none when 0.
 */
static void q_row(const char *call, struct summary us, double headline,
		  struct summary ratio, double target)
{
	out("| %s | %s | ", call, cost(us));
	if (headline >= 0)
		out("**%.2f** (paired %.2f, %.2f-%.2f)", headline, ratio.med,
		    ratio.min, ratio.max);
	else
		out(target ? "**%.2f** (%.2f-%.2f)" : "%.2f (%.2f-%.2f)",
		    ratio.med, ratio.min, ratio.max);
	out(" | %s |\n", target ? verdict(ratio.med, target) : "");
}

static void queue_bench(int fd)
{
	struct surface s = buffer_create(fd, BUF_BYTES);
	struct drm_vatom_ptx x = p2_packet;
	const int per = QB_PER_MAX, blocks = 3 * reps;
	double tg[MAX_REPS * 3], tq[MAX_REPS * 3], tr[MAX_REPS * 3], t0;
	double tp[MAX_REPS * 3], trp[MAX_REPS * 3];
	double t1g[MAX_REPS * 3], t1q[MAX_REPS * 3], t1p[MAX_REPS * 3];
	double t1e[MAX_REPS * 3], r1q[MAX_REPS * 3], r1p[MAX_REPS * 3];
	double r1e[MAX_REPS * 3], t1pe[MAX_REPS * 3], r1pe[MAX_REPS * 3];
	double t1u[MAX_REPS * 3], r1u[MAX_REPS * 3];
	double t1up[MAX_REPS * 3], r1up[MAX_REPS * 3];
	double xq[MAX_REPS * 3], xp[MAX_REPS * 3];
	double rxq[MAX_REPS * 3], rxp[MAX_REPS * 3];
	double tgp[MAX_REPS * 3], tpp[MAX_REPS * 3], trpp[MAX_REPS * 3];
	static const u32 sizes[] = { 1, 16 };
	struct summary g, sq, r, sp, rp, thr[4], gp = { 0 }, spp = { 0 }, rpp = { 0 };
	struct summary g1, q1, p1, e1, rq1, rp1, re1, pe1, rpe1, sxq, sxp;
	struct summary srxq, srxp, u1, ru1, up1, rup1;
	u64 x0, x1, x2;
	char call[128];
	bool pinned;
	struct qb q, qp;
	int b, i;
	size_t k;

	qb_init(fd, &q, s.handle, &x, sizeof(x), 8, false);
	/*
	 * Counted, the poller on vCPU 1 and this thread on vCPU 0, always:
	 * QEMU runs the two vCPUs in turn, each until it PAUSEs, halts or
	 * takes an interrupt, so the count is the same from run to run only
	 * when the guest scheduler cannot move the two onto one vCPU.
	 */
	if (counted) {
		qb_init_on(fd, &qp, s.handle, &x, sizeof(x), 8, true, 1);
		pin_cpu(0);
	} else {
		qb_init(fd, &qp, s.handle, &x, sizeof(x), 8, true);
	}
	for (b = 0; b < blocks; b++) {
		tg[b] = null_ioctl_s(fd, per);
		t0 = vt_now_s();
		for (i = 0; i < per; i++)
			qb_run(fd, &q, 1);
		tq[b] = (vt_now_s() - t0) / per;
		tr[b] = tq[b] / tg[b];
		tp[b] = qb_poll_rtt_s(fd, &qp, per);
		trp[b] = tp[b] / tg[b];
		t1g[b] = one_call_med_s(fd, NULL, ONE_NULL, per);
		x0 = engine_ns(fd);
		t1q[b] = one_call_med_s(fd, &q, ONE_KICK, per);
		x1 = engine_ns(fd);
		t1p[b] = one_call_med_s(fd, &qp, ONE_POLL, per);
		x2 = engine_ns(fd);
		t1e[b] = one_call_med_s(fd, &q, ONE_KICK_EMPTY, per);
		t1pe[b] = one_call_med_s(fd, &qp, ONE_POLL_EMPTY, per);
		/*
		 * The rings only for their own rows: an SQPOLL thread
		 * spinning beside the other rows added 38 instructions to a
		 * counted null ioctl (1195 to 1233). Counted, no SQPOLL ring.
		 */
		uring_init(!counted);
		t1u[b] = one_call_med_s(fd, NULL, ONE_URING_ENTER, per);
		/*
		 * Not counted: the SQPOLL thread spins without PAUSE, so
		 * QEMU runs its vCPU until the next tick (4000000
		 * instructions at the guest's 250 Hz), whatever it costs.
		 */
		t1up[b] = counted ? 0 :
			  one_call_med_s(fd, NULL, ONE_URING_SQPOLL, per);
		uring_fini();
		r1u[b] = t1u[b] / t1g[b];
		r1up[b] = t1up[b] / t1g[b];
		xq[b] = (x1 - x0) * 1e-9 / per;
		xp[b] = (x2 - x1) * 1e-9 / per;
		r1q[b] = t1q[b] / t1g[b];
		r1p[b] = t1p[b] / t1g[b];
		r1e[b] = t1e[b] / t1g[b];
		r1pe[b] = t1pe[b] / t1g[b];
		rxq[b] = xq[b] / t1g[b];
		rxp[b] = xp[b] / t1g[b];
	}
	qb_fini(fd, &qp);
	if (counted)
		unpin_cpu();
	/*
	 * The polling round trip again, with the poller pinned to vCPU 1
	 * (DRM_VATOM_QUEUE_CREATE_POLL_CPU: the queue above is gone, and
	 * its poller with it) and this thread to vCPU 0: the two never share
	 * a CPU, the configuration polling mode is meant for.
	 */
	pinned = !counted && (get_param(fd, DRM_VATOM_PARAM_CAPS) &
			      DRM_VATOM_CAP_QUEUE_POLL_CPU) &&
		 sysconf(_SC_NPROCESSORS_ONLN) >= 2;
	if (pinned) {
		/* Pinned after: a CPU the caller may not run on is refused. */
		qb_init_on(fd, &qp, s.handle, &x, sizeof(x), 8, true, 1);
		pin_cpu(0);
		for (b = 0; b < blocks; b++) {
			tgp[b] = null_ioctl_s(fd, per);
			tpp[b] = qb_poll_rtt_s(fd, &qp, per);
			trpp[b] = tpp[b] / tgp[b];
		}
		qb_fini(fd, &qp);
		unpin_cpu();
		gp = summarize(tgp, blocks);
		spp = summarize(tpp, blocks);
		rpp = summarize(trpp, blocks);
	}
	qb_fini(fd, &q);
	g = summarize(tg, blocks);
	sq = summarize(tq, blocks);
	r = summarize(tr, blocks);
	sp = summarize(tp, blocks);
	rp = summarize(trp, blocks);
	g1 = summarize(t1g, blocks);
	q1 = summarize(t1q, blocks);
	p1 = summarize(t1p, blocks);
	rq1 = summarize(r1q, blocks);
	rp1 = summarize(r1p, blocks);
	e1 = summarize(t1e, blocks);
	re1 = summarize(r1e, blocks);
	pe1 = summarize(t1pe, blocks);
	rpe1 = summarize(r1pe, blocks);
	sxq = summarize(xq, blocks);
	sxp = summarize(xp, blocks);
	srxq = summarize(rxq, blocks);
	srxp = summarize(rxp, blocks);
	u1 = summarize(t1u, blocks);
	ru1 = summarize(r1u, blocks);
	up1 = summarize(t1up, blocks);
	rup1 = summarize(r1up, blocks);
	out("\n### Q: user-mode queues\n\n"
	    "Round trip of one 1-packet job (PTX atom.global.add.u32, 8 bytes "
	    "of results to the queue's results surface): kick mode writes the "
	    "tail, KICKs, reads the completed count and the status; polling "
	    "mode writes the tail and spins on the completed count while the "
	    "queue's kernel thread consumes (no system call). %d blocks of %d, "
	    "alternating with the null ioctl; median (min-max).\n\n"
	    "| call | %s per job | ratio to GET_PARAM | target |\n"
	    "|---|---|---|---|\n", blocks, per, cost_unit());
	out("| GET_PARAM UAPI_VERSION (null ioctl) | %s | 1 | |\n", cost(g));
	q_row("kick mode, 1 job per KICK", sq, sq.med / g.med, r, Q1S_TARGET);
	q_row("polling mode, 1 job, no system call", sp, sp.med / g.med, rp,
	      QP1S_TARGET);
	if (pinned) {
		snprintf(call, sizeof(call), "polling mode, the poller pinned "
			 "to vCPU 1 (POLL_CPU), this thread to vCPU 0 (its own "
			 "null ioctl %s %s)", cost(gp), cost_unit());
		q_row(call, spp, spp.med / gp.med, rpp, QP1S_TARGET);
	}
	out("\nThe same calls each timed on its own (one_call_med_s()): per "
	    "block, the median of %d single calls; median (min-max) of the "
	    "%d blocks: a block's rare slow calls do not move it as they move "
	    "the block's mean.\n\n"
	    "| call | %s, median single call | ratio to GET_PARAM's | target |\n"
	    "|---|---|---|---|\n", per, blocks, cost_unit());
	out("| GET_PARAM UAPI_VERSION (null ioctl) | %s | 1 | |\n", cost(g1));
	q_row("kick mode, 1 job per KICK", q1, -1, rq1, Q1S_TARGET);
	q_row("polling mode, 1 job, no system call", p1, -1, rp1, QP1S_TARGET);
	q_row("kick mode, a KICK with no job to consume", e1, -1, re1, 0);
	q_row("polling mode, a job with no stream (what the queue costs a "
	      "job)", pe1, -1, rpe1, 0);
	q_row("the 1-packet job's execution, kick mode (fdinfo drm-engine, "
	      "mean per job)", sxq, -1, srxq, QX_TARGET);
	q_row("the same, polling mode (the poller's)", sxp, -1, srxp, 0);
	q_row("io_uring: a NOP submitted and waited for with one "
	      "io_uring_enter()", u1, -1, ru1, 0);
	if (counted)
		out("| io_uring: a NOP round trip through an SQPOLL ring, no "
		    "system call | not counted: its thread spins without PAUSE, "
		    "so QEMU runs its vCPU to the next tick | | |\n");
	else
		q_row("io_uring: a NOP round trip through an SQPOLL ring, no "
		      "system call", up1, -1, rup1, 0);
	out("\nBeside io_uring: kick mode %.2f against its NOP round trip %.2f "
	    "+ %.1f (%s)", rq1.med, ru1.med, Q1S_OVER_URING,
	    rq1.med <= ru1.med + Q1S_OVER_URING ? "met" : "**missed**");
	if (!counted)
		out("; polling mode %.2f against its SQPOLL NOP %.2f (%s)",
		    rp1.med, rup1.med,
		    rp1.med <= rup1.med ? "met" : "**missed**");
	out(".\n");
	out("\nA polling round trip is what the queue costs a job plus the "
	    "job's execution, which no mode avoids; a null ioctl executes "
	    "nothing.\n");
	printf("Q1 %.3f\n", r.med);
	printf("QP1 %.3f\n", rp.med);
	if (pinned)
		printf("QP1P %.3f\n", rpp.med);
	printf("Q1S %.3f\nTARGET Q1S %.1f\n", rq1.med, Q1S_TARGET);
	printf("TARGET Q1S_OVER_URING %.1f\n", Q1S_OVER_URING);
	printf("QP1S %.3f\nTARGET QP1S %.1f\n", rp1.med, QP1S_TARGET);
	printf("Q0S %.3f\n", re1.med);
	printf("QP0S %.3f\n", rpe1.med);
	printf("QXK %.3f\nTARGET QXK %.1f\n", srxq.med, QX_TARGET);
	printf("QXP %.3f\n", srxp.med);
	printf("U1S %.3f\n", ru1.med);
	if (!counted)
		printf("UP1S %.3f\n", rup1.med);

	out("\nSmall jobs, jobs per second (thousands): the kick-mode queue "
	    "with 32 jobs per KICK; the polling queue with up to its 64 "
	    "entries in flight; synchronous SUBMIT (results to user memory); "
	    "asynchronous SUBMIT (results to a surface) with an out-syncobj "
	    "on every 32nd job, waited for. 512 jobs per block, %d blocks, "
	    "alternating. The targets are for the better queue mode.\n\n"
	    "| packets per job | kick queue | polling queue | sync SUBMIT | "
	    "async SUBMIT, fence/32 | queue / async (target >= 5) | "
	    "queue / sync (target > 1) |\n"
	    "|---|---|---|---|---|---|---|\n", blocks);
	for (k = 0; k < ARRAY_SIZE(sizes); k++) {
		double best;

		queue_throughput(fd, &s, sizes[k], thr);
		best = thr[0].med > thr[3].med ? thr[0].med : thr[3].med;
		out("| %u | %.1f (%.1f-%.1f) | %.1f (%.1f-%.1f) | %.1f "
		    "(%.1f-%.1f) | %.1f (%.1f-%.1f) | **%.2f**%s | **%.2f**%s |\n",
		    sizes[k], thr[0].med / 1e3, thr[0].min / 1e3,
		    thr[0].max / 1e3, thr[3].med / 1e3, thr[3].min / 1e3,
		    thr[3].max / 1e3, thr[1].med / 1e3, thr[1].min / 1e3,
		    thr[1].max / 1e3, thr[2].med / 1e3, thr[2].min / 1e3,
		    thr[2].max / 1e3, best / thr[2].med,
		    best / thr[2].med >= 5 ? " met" : " **missed**",
		    best / thr[1].med, best > thr[1].med ? " met" : " **missed**");
		printf("QT%u %.3f %.3f\n", sizes[k], best / thr[2].med,
		       best / thr[1].med);
	}
	munmap(s.map, s.size);
}
