// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * vm_bench: M (many busy queues at once), P4 (scaling over submitting
 * threads) and A (asynchronous jobs).
 *
 * Part of vm_bench.c's one translation unit (its output, device and
 * summary helpers); not built alone.
 */

/* ---- M: many busy queues at once ---- */

/* Queue counts of the M table; seconds each measurement lasts. */
static const u32 mq_counts[] = { 1, 2, 4, 8 };
#define MQ_SECONDS	1.0
#define MQ_MAX		8

/**
 * struct mq_thr - one producer of the M table: its own file and queue
 * @bar: all producers start together
 * @stop: set by the main thread when the time is up
 * @poll: a polling queue, else kick mode (32 jobs per KICK)
 * @jobs: jobs completed; @t0, @t1: when it started and stopped
 */
struct mq_thr {
	pthread_barrier_t *bar;
	const int *stop;
	bool poll;
	u64 jobs;
	double t0, t1;
};

/*
 * Wait for job @seq of polling queue @q as libvatom's vatom_queue_wait()
 * does: 4 turns of sched_yield(), then KICK and sleep 1 us, doubling up
 * to 1 ms, with a KICK after each sleep (it only wakes a sleeping poller).
 */
static void mq_wait(int fd, const struct qb *q, u32 seq)
{
	struct drm_vatom_queue_kick k = { .queue_id = q->id };
	struct timespec ts = { 0, 1000 };
	int i;

	for (i = 0; i < 4; i++) {
		if (__atomic_load_n(&q->ctl->flags, __ATOMIC_RELAXED) &
		    DRM_VATOM_QUEUE_CTL_KICK_TO_WAIT)
			break;
		if ((int)((u32)__atomic_load_n(&q->ctl->completed,
					       __ATOMIC_ACQUIRE) - seq) >= 0)
			return;
		sched_yield();
	}
	do {
		if (xioctl(fd, DRM_IOCTL_VATOM_QUEUE_KICK, &k))
			exit(1);
		if ((int)((u32)__atomic_load_n(&q->ctl->completed,
					       __ATOMIC_ACQUIRE) - seq) >= 0)
			return;
		nanosleep(&ts, NULL);
		if (ts.tv_nsec < 1000000)
			ts.tv_nsec *= 2;
	} while (1);
}

static void *mq_main(void *arg)
{
	struct drm_vatom_ptx x = p2_packet;
	struct mq_thr *t = arg;
	int fd = open_device();
	struct surface s = buffer_create(fd, BUF_BYTES);
	struct qb q;

	qb_init(fd, &q, s.handle, &x, sizeof(x), 8, t->poll);
	pthread_barrier_wait(t->bar);
	t->jobs = 0;
	t->t0 = vt_now_s();
	while (!__atomic_load_n(t->stop, __ATOMIC_RELAXED)) {
		if (t->poll) {
			qb_poll_run(fd, &q, 256, mq_wait);
			t->jobs += 256;
		} else {
			qb_run(fd, &q, 32);
			t->jobs += 32;
		}
	}
	t->t1 = vt_now_s();
	qb_fini(fd, &q);
	munmap(s.map, s.size);
	close(fd);
	return NULL;
}

/* Aggregate jobs/s of @n producers, each with its own busy queue; 0: EBUSY. */
static double mq_run(u32 n, bool poll)
{
	pthread_t th[MQ_MAX];
	struct mq_thr t[MQ_MAX];
	pthread_barrier_t bar;
	double first = 1e300, last = 0;
	int stop = 0;
	u64 jobs = 0;
	u32 i;

	pthread_barrier_init(&bar, NULL, n + 1);
	for (i = 0; i < n; i++) {
		t[i] = (struct mq_thr){ .bar = &bar, .stop = &stop, .poll = poll };
		if (pthread_create(&th[i], NULL, mq_main, &t[i]))
			die("pthread_create", errno);
	}
	pthread_barrier_wait(&bar);
	usleep(MQ_SECONDS * 1e6);
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < n; i++) {
		pthread_join(th[i], NULL);
		jobs += t[i].jobs;
		if (t[i].t0 < first)
			first = t[i].t0;
		if (t[i].t1 > last)
			last = t[i].t1;
	}
	pthread_barrier_destroy(&bar);
	return jobs / (last - first);
}

/*
 * 1, 2, 4 and 8 producer threads, each with its own file and a busy queue
 * of 1-packet jobs, all kick mode or all polling: aggregate jobs/s.
 */
static void mq_bench(int fd)
{
	u64 max_poll = get_param(fd, DRM_VATOM_PARAM_MAX_POLL_QUEUES);
	double tk[MAX_REPS], tp[MAX_REPS];
	struct summary k, p;
	size_t c;
	int r;

	out("\n### M: many busy queues\n\n"
	    "N producer threads, each with its own file and queue of 64 "
	    "entries, publish 1-packet jobs (PTX atom.global.add.u32, 8 bytes "
	    "of results) for %.1f s: kick mode 32 per KICK, polling mode up "
	    "to 64 in flight, no system call unless NEED_WAKEUP, waiting "
	    "for completions as libvatom's vatom_queue_wait() does (4 "
	    "sched_yield(), then KICK and sleep 1 us, doubling). Aggregate "
	    "jobs/s (thousands) of all N, %d repetitions, kick and polling "
	    "alternating; median (min-max). %ld vCPUs; max_poll_queues %llu.\n\n"
	    "| busy queues | kick mode | polling mode | polling / kick (target >= 1) |\n"
	    "|---|---|---|---|\n", MQ_SECONDS, reps,
	    sysconf(_SC_NPROCESSORS_ONLN), (unsigned long long)max_poll);
	for (c = 0; c < ARRAY_SIZE(mq_counts); c++) {
		u32 n = mq_counts[c];

		if (n > max_poll) {
			out("| %u | | EBUSY past max_poll_queues | |\n", n);
			continue;
		}
		for (r = 0; r < reps; r++) {
			tk[r] = mq_run(n, false);
			tp[r] = mq_run(n, true);
		}
		k = summarize(tk, reps);
		p = summarize(tp, reps);
		out("| %u | %.1f (%.1f-%.1f) | %.1f (%.1f-%.1f) | **%.2f**%s |\n",
		    n, k.med / 1e3, k.min / 1e3, k.max / 1e3, p.med / 1e3,
		    p.min / 1e3, p.max / 1e3, p.med / k.med,
		    p.med >= k.med ? " met" : " **missed**");
		printf("M%u %.3f\n", n, p.med / k.med);
	}
}

/* ---- P4: scaling ---- */

/**
 * struct thr - one thread of P4 or of section A: its own file, pinned
 * @bar: the threads start together
 * @cpu: the vCPU it is pinned to
 * @submits: submissions (P4) or jobs (A) it makes
 * @t: seconds they took
 * @w: the work of each
 */
struct thr {
	pthread_barrier_t *bar;
	int cpu;
	u32 submits;
	double t;
	struct work *w;
};


static void *thr_main(void *arg)
{
	struct thr *t = arg;
	int fd = open_device();
	struct surface s = buffer_create(fd, BUF_BYTES);
	u32 *res = xmalloc(t->w->res_size);
	double t0;

	pin_cpu(t->cpu);
	init_memory(s.map, false);
	/* warm up: page in the stream, surface and results */
	if (submit(fd, t->w->stream, t->w->stream_size, s.handle, res,
		   t->w->res_size))
		exit(1);
	pthread_barrier_wait(t->bar);
	t0 = vt_now_s();
	for (u32 i = 0; i < t->submits; i++)
		if (submit(fd, t->w->stream, t->w->stream_size, s.handle, res,
			   t->w->res_size))
			exit(1);
	t->t = vt_now_s() - t0;
	munmap(s.map, s.size);
	free(res);
	close(fd);
	return NULL;
}

/* The same lanes natively: each thread on its own 64 KiB, pinned. */
static void *nat_thr_main(void *arg)
{
	struct thr *t = arg;
	u8 *mem = xmalloc(BUF_BYTES);
	u32 *res = xmalloc(4 * (size_t)t->w->elems);
	double t0;

	pin_cpu(t->cpu);
	init_memory(mem, false);
	native_int(mem, t->w, res, true);
	pthread_barrier_wait(t->bar);
	t0 = vt_now_s();
	for (u32 i = 0; i < t->submits; i++)
		native_int(mem, t->w, res, true);
	t->t = vt_now_s() - t0;
	free(mem);
	free(res);
	return NULL;
}

/*
 * Run @fn in @n threads (at most 2) on vCPUs 0..n-1, each making @submits
 * of @w; return the slowest one's seconds.
 */
static double threads_run(struct work *w, int n, u32 submits,
			  void *(*fn)(void *))
{
	pthread_barrier_t bar;
	pthread_t th[2];
	struct thr t[2];
	double tmax = 0;
	int i;

	pthread_barrier_init(&bar, NULL, n);
	for (i = 0; i < n; i++) {
		t[i] = (struct thr){ .bar = &bar, .cpu = i, .submits = submits,
				     .w = w };
		pthread_create(&th[i], NULL, fn, &t[i]);
	}
	for (i = 0; i < n; i++) {
		pthread_join(th[i], NULL);
		if (t[i].t > tmax)
			tmax = t[i].t;
	}
	pthread_barrier_destroy(&bar);
	return tmax;
}

/* lanes/s of @n threads on vCPUs 0..n-1, each with its own file. */
static double p4_run(struct work *w, int n, u32 submits, bool native)
{
	return (double)n * submits * w->elems /
	       threads_run(w, n, submits, native ? nat_thr_main : thr_main);
}

static void p4_scaling(void)
{
	struct work w;
	double t1[MAX_SAMPLES], t2[MAX_SAMPLES], tr[MAX_SAMPLES];
	double n1[MAX_SAMPLES], n2[MAX_SAMPLES], nr[MAX_SAMPLES];
	struct summary s1, s2, r, ns1, ns2, nsr;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	/*
	 * A round takes tens of ms and either vCPU's host thread may lose
	 * its core to a neighbour for as long: three rounds per repetition.
	 */
	const int rounds = 3 * reps;
	int i;

	out("\n### P4: two submitting threads vs one\n\n");
	if (cpus < 2) {
		out("Skipped: %ld online vCPU (VM_SMP=2 or more needed).\n",
		    cpus);
		return;
	}
	/* 4096 packets (65536 lanes) per submission, 16 submissions */
	work_build(&w, K_INT, 4096);
	for (i = 0; i < rounds; i++) {
		t1[i] = p4_run(&w, 1, 16, false);
		t2[i] = p4_run(&w, 2, 16, false);
		tr[i] = t2[i] / t1[i];
		n1[i] = p4_run(&w, 1, 16, true);
		n2[i] = p4_run(&w, 2, 16, true);
		nr[i] = n2[i] / n1[i];
	}
	s1 = summarize(t1, rounds);
	s2 = summarize(t2, rounds);
	r = summarize(tr, rounds);
	ns1 = summarize(n1, rounds);
	ns2 = summarize(n2, rounds);
	nsr = summarize(nr, rounds);
	out("Each thread: its own file (context) and 64 KiB surface, pinned "
	    "to vCPU 0 or 1, 16 synchronous submissions of 4096 vISA "
	    "DWORD_ATOMIC.ADD SIMD16 packets with Dst (65536 lanes each); "
	    "%ld vCPUs online. Throughput = all lanes / time of the slowest "
	    "thread. The native rows are the same lanes as a userspace loop "
	    "per thread on its own memory: what the VM and its host give two "
	    "threads at all. %d rounds (1 thread, 2 threads, the same "
	    "natively), median (min-max).\n\n"
	    "| threads | M lanes/s | scaling | target |\n|---|---|---|---|\n",
	    cpus, rounds);
	out("| 1, device | %.2f (%.2f-%.2f) | 1 | |\n", s1.med / 1e6,
	    s1.min / 1e6, s1.max / 1e6);
	out("| 2, device | %.2f (%.2f-%.2f) | **%.2f** (paired %.2f, "
	    "%.2f-%.2f) | >= 1.8%s |\n", s2.med / 1e6, s2.min / 1e6,
	    s2.max / 1e6, s2.med / s1.med, r.med, r.min, r.max,
	    s2.med / s1.med >= 1.8 ? " met" : " **missed**");
	out("| 1, native | %.2f (%.2f-%.2f) | 1 | |\n", ns1.med / 1e6,
	    ns1.min / 1e6, ns1.max / 1e6);
	out("| 2, native | %.2f (%.2f-%.2f) | %.2f (paired %.2f, %.2f-%.2f) "
	    "| |\n", ns2.med / 1e6, ns2.min / 1e6, ns2.max / 1e6,
	    ns2.med / ns1.med, nsr.med, nsr.min, nsr.max);
	if (ns2.med / ns1.med < 1.8)
		out("\nThe native control itself scaled %.2f: the host did not "
		    "give the VM two cores for this run (a neighbour on the "
		    "shared machine), so the device figure above says as "
		    "little about the driver; run `make -C bench vm "
		    "VM_BENCH_ARGS=\"-s 4\"` again.\n", ns2.med / ns1.med);
	printf("P4 %.3f\nP4NATIVE %.3f\n", s2.med / s1.med, ns2.med / ns1.med);
	work_free(&w);
}

/* ---- A: asynchronous jobs ---- */

#define ASYNC_PER_FENCE	32

/* A submitter of the A table (struct thr): a fence every ASYNC_PER_FENCE jobs. */
static void *async_thr_main(void *arg)
{
	struct thr *t = arg;
	int fd = open_device();
	struct surface s = buffer_create(fd, BUF_BYTES);
	struct surface rs = buffer_create(fd, t->w->res_size);
	u32 so = syncobj_create(fd);

	pin_cpu(t->cpu);
	init_memory(s.map, false);
	/* warm up: the file's scheduler, the stream buffer, the pages */
	async_jobs(fd, t->w, s.handle, rs.handle, so, ASYNC_PER_FENCE,
		   ASYNC_PER_FENCE);
	pthread_barrier_wait(t->bar);
	t->t = async_jobs(fd, t->w, s.handle, rs.handle, so, t->submits,
			  ASYNC_PER_FENCE);
	munmap(s.map, s.size);
	munmap(rs.map, rs.size);
	close(fd);
	return NULL;
}

/* Jobs/s of @n files on vCPUs 0..n-1, each submitting @jobs of @w. */
static double async_files(struct work *w, int n, u32 jobs)
{
	return n * jobs / threads_run(w, n, jobs, async_thr_main);
}

static void async_bench(int fd)
{
	const int blocks = 3 * reps;
	const u32 per = 16 * ASYNC_PER_FENCE;
	double t1[MAX_SAMPLES], t32[MAX_SAMPLES], f1[MAX_SAMPLES];
	double f2[MAX_SAMPLES], fr[MAX_SAMPLES];
	struct summary s1, s32, sf1, sf2, sfr;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct surface s, rs;
	struct work small, big;
	u32 so;
	int b;

	work_build(&small, K_INT, 1);
	/* 1024 packets (16384 lanes) per job: execution, not submission */
	work_build(&big, K_INT, 1024);
	s = buffer_create(fd, BUF_BYTES);
	rs = buffer_create(fd, small.res_size);
	so = syncobj_create(fd);
	init_memory(s.map, false);
	async_jobs(fd, &small, s.handle, rs.handle, so, per, 1);
	for (b = 0; b < blocks; b++) {
		t1[b] = per / async_jobs(fd, &small, s.handle, rs.handle, so,
					 per, 1);
		t32[b] = per / async_jobs(fd, &small, s.handle, rs.handle, so,
					  per, ASYNC_PER_FENCE);
		if (cpus < 2)
			continue;
		f1[b] = async_files(&big, 1, 4 * ASYNC_PER_FENCE);
		f2[b] = async_files(&big, 2, 4 * ASYNC_PER_FENCE);
		fr[b] = f2[b] / f1[b];
	}
	s1 = summarize(t1, blocks);
	s32 = summarize(t32, blocks);
	out("\n### A: asynchronous jobs\n\n"
	    "Jobs per second of asynchronous SUBMIT (results to a surface): "
	    "1-packet jobs (vISA DWORD_ATOMIC.ADD SIMD16 with Dst) on one "
	    "file, with an out-syncobj on every job or on every %dth, waited "
	    "for, %u jobs per block; then 1024-packet jobs (16384 lanes) "
	    "from one file, and from two files at once (a thread each, "
	    "pinned to vCPU 0 and 1), %d jobs per file, a fence every %d. "
	    "%d blocks, median (min-max).\n\n"
	    "| jobs | jobs/s (thousands) | scaling | target |\n"
	    "|---|---|---|---|\n", ASYNC_PER_FENCE, per,
	    4 * ASYNC_PER_FENCE, ASYNC_PER_FENCE, blocks);
	out("| 1 packet, a fence per job | %.2f (%.2f-%.2f) | | |\n",
	    s1.med / 1e3, s1.min / 1e3, s1.max / 1e3);
	out("| 1 packet, a fence per %d | %.2f (%.2f-%.2f) | | |\n",
	    ASYNC_PER_FENCE, s32.med / 1e3, s32.min / 1e3, s32.max / 1e3);
	printf("A1 %.0f\nA32 %.0f\n", s1.med, s32.med);
	if (cpus >= 2) {
		sf1 = summarize(f1, blocks);
		sf2 = summarize(f2, blocks);
		sfr = summarize(fr, blocks);
		out("| 1024 packets, one file | %.3f (%.3f-%.3f) | 1 | |\n",
		    sf1.med / 1e3, sf1.min / 1e3, sf1.max / 1e3);
		out("| 1024 packets, two files | %.3f (%.3f-%.3f) | **%.2f** "
		    "(paired %.2f, %.2f-%.2f) | >= 1.8%s |\n", sf2.med / 1e3,
		    sf2.min / 1e3, sf2.max / 1e3, sf2.med / sf1.med, sfr.med,
		    sfr.min, sfr.max,
		    sf2.med / sf1.med >= 1.8 ? " met" : " **missed**");
		printf("A2F %.3f\n", sf2.med / sf1.med);
	}
	munmap(s.map, s.size);
	munmap(rs.map, rs.size);
	work_free(&small);
	work_free(&big);
}
