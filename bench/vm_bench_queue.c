// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * vm_bench: Q's plumbing: the benchmark's queues, their round trips call by
 * call, the profile rows (-l) and the asynchronous SUBMIT they are compared
 * with.
 *
 * Part of vm_bench.c's one translation unit (its output, device and
 * summary helpers); not built alone.
 */

/* ---- Q: user-mode queues (docs/queues.md) ---- */

/* Bytes of stream, and of results, each of the 64 ring entries gets. */
#define QB_AREA		4096

/* A queue of 64 entries with the same stream in every entry's area. */
struct qb {
	u32 id, entries, tail;
	struct drm_vatom_queue_job *ring;
	struct drm_vatom_queue_ctl *ctl;
	struct surface st, rs;
	u32 stream_size, res_size;
};

static void *map_handle(int fd, u32 handle, u64 size)
{
	struct surface s = { .handle = handle, .size = size };

	surface_map(fd, &s);
	return s.map;
}

/* Poller idle time: longer than any pause of the benchmark, so it never sleeps. */
#define QB_POLL_IDLE_US	200000

/* Polling queues whose poller runs anywhere: qb_init()'s @poll_cpu. */
#define QB_ANY_CPU	-1

/*
 * Write the descriptor of every entry of @q: its stream and results area,
 * or when @empty a job with neither (no stream to copy, check or run: what
 * the queue itself costs a job). Only while no job is in flight.
 */
static void qb_describe(struct qb *q, bool empty)
{
	u32 e;

	for (e = 0; e < q->entries; e++)
		q->ring[e] = empty ? (struct drm_vatom_queue_job){ 0 } :
			(struct drm_vatom_queue_job){
				.stream_slot = 2, .stream_offset = e * QB_AREA,
				.stream_size = q->stream_size, .results_slot = 3,
				.results_offset = e * QB_AREA,
				.results_size = q->res_size,
			};
}

/*
 * @poll: a polling queue (DRM_VATOM_QUEUE_CREATE_POLL), else kick mode;
 * @poll_cpu: the CPU its poller is pinned to, or QB_ANY_CPU.
 */
static void qb_init_on(int fd, struct qb *q, u32 target, const void *stream,
		       u32 size, u32 res_size, bool poll, int poll_cpu)
{
	struct drm_vatom_binding b[3] = {
		{ .slot = SLOT, .handle = target },
	};
	struct drm_vatom_queue_create qc = {
		.entries = 64,
		.flags = poll ? DRM_VATOM_QUEUE_CREATE_POLL : 0,
		.poll_idle_us = poll ? QB_POLL_IDLE_US : 0,
	};
	u32 e;
	int ret;

	q->entries = 64;
	q->tail = 0;
	q->stream_size = size;
	q->res_size = res_size;
	q->st = buffer_create(fd, 64 * QB_AREA);
	q->rs = buffer_create(fd, 64 * QB_AREA);
	b[1] = (struct drm_vatom_binding){ .slot = 2, .handle = q->st.handle };
	b[2] = (struct drm_vatom_binding){ .slot = 3, .handle = q->rs.handle };
	qc.bindings = (uintptr_t)b;
	qc.binding_count = 3;
	if (poll && poll_cpu != QB_ANY_CPU) {
		qc.flags |= DRM_VATOM_QUEUE_CREATE_POLL_CPU;
		qc.poll_cpu = (u32)poll_cpu;
	}
	ret = xioctl(fd, DRM_IOCTL_VATOM_QUEUE_CREATE, &qc);
	if (ret)
		die("QUEUE_CREATE", -ret);
	q->id = qc.queue_id;
	q->ring = map_handle(fd, qc.ring_handle, 4096);
	q->ctl = map_handle(fd, qc.ctl_handle, 4096);
	for (e = 0; e < q->entries; e++)
		memcpy(q->st.map + e * QB_AREA, stream, size);
	qb_describe(q, false);
}

static void qb_init(int fd, struct qb *q, u32 target, const void *stream,
		    u32 size, u32 res_size, bool poll)
{
	qb_init_on(fd, q, target, stream, size, res_size, poll, QB_ANY_CPU);
}

static void qb_fini(int fd, struct qb *q)
{
	struct drm_vatom_queue_destroy d = { .queue_id = q->id };

	xioctl(fd, DRM_IOCTL_VATOM_QUEUE_DESTROY, &d);
	munmap(q->ring, 4096);
	munmap(q->ctl, 4096);
	munmap(q->st.map, q->st.size);
	munmap(q->rs.map, q->rs.size);
}

/* A job failed, or the queue lost it: the benchmark measures nothing. */
static void qb_check(const struct qb *q)
{
	if ((u32)__atomic_load_n(&q->ctl->completed, __ATOMIC_ACQUIRE) != q->tail ||
	    q->ring[(q->tail - 1) & (q->entries - 1)].status) {
		fprintf(stderr, "vm_bench: queue job failed\n");
		exit(1);
	}
}

/* How a polling run waits until @q has completed job @seq. */
typedef void qb_wait_fn(int fd, const struct qb *q, u32 seq);

/*
 * Spin until @q has completed job @seq; yield now and then, in case the
 * scheduler put the poller on our CPU (it would run at the next tick).
 * @fd is unused: a qb_wait_fn, as mq_wait() is.
 */
static void qb_spin_wait(int fd, const struct qb *q, u32 seq)
{
	unsigned int spins = 0;

	while ((int)((u32)__atomic_load_n(&q->ctl->completed,
					   __ATOMIC_ACQUIRE) - seq) < 0) {
		__builtin_ia32_pause();
		if (++spins % 4096 == 0)
			sched_yield();
	}
}

/*
 * Polling mode: publish @n jobs, keeping at most the ring's entries in
 * flight, and @wait until they are complete. No system call unless the
 * poller asks for one (NEED_WAKEUP; the full barrier orders the tail
 * store before the flags load, as docs/queues.md says).
 */
static void qb_poll_run(int fd, struct qb *q, u32 n, qb_wait_fn *wait)
{
	struct drm_vatom_queue_kick k = { .queue_id = q->id };
	u32 end = q->tail + n;

	while (q->tail != end) {
		if (q->tail - (u32)__atomic_load_n(&q->ctl->completed,
						    __ATOMIC_ACQUIRE) >= q->entries) {
			wait(fd, q, q->tail - q->entries + 1);
			continue;
		}
		q->tail++;
		__atomic_store_n(&q->ctl->tail, q->tail, __ATOMIC_RELEASE);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		if (__atomic_load_n(&q->ctl->flags, __ATOMIC_RELAXED) &
		    DRM_VATOM_QUEUE_CTL_NEED_WAKEUP &&
		    xioctl(fd, DRM_IOCTL_VATOM_QUEUE_KICK, &k))
			exit(1);
	}
	wait(fd, q, end);
	qb_check(q);
}

/* Seconds per job of @per 1-job round trips of polling queue @q. */
static double qb_poll_rtt_s(int fd, struct qb *q, int per)
{
	double t0 = vt_now_s();
	int i;

	for (i = 0; i < per; i++)
		qb_poll_run(fd, q, 1, qb_spin_wait);
	return (vt_now_s() - t0) / per;
}

/* Publish @n jobs (the descriptors stay in place), kick, check they ran. */
static void qb_run(int fd, struct qb *q, u32 n)
{
	struct drm_vatom_queue_kick k = { .queue_id = q->id };
	u32 i;

	for (i = 0; i < n; i++) {
		q->tail++;
		__atomic_store_n(&q->ctl->tail, q->tail, __ATOMIC_RELEASE);
	}
	if (xioctl(fd, DRM_IOCTL_VATOM_QUEUE_KICK, &k))
		exit(1);
	qb_check(q);
}

/*
 * -l ROW:N, for scripts/vm-profile.sh: ROW's call N (at least 1) times
 * between the two marks above, after one call outside them (its
 * first-time costs).
 * ROW: null (GET_PARAM), p2 (the 1-packet PTX SUBMIT), p2v (the 1-packet
 * vISA SIMD16 SUBMIT), empty (the empty SUBMIT), as in p2_latency(); kick
 * (a kick-mode queue's 1-job round trip, P2's packet), as in queue_bench().
 */
static int loop_row(int fd, const char *arg)
{
	static const char *const rows[] = { "null", "p2", "p2v", "empty",
					    "kick" };
	struct surface s = buffer_create(fd, BUF_BYTES);
	struct drm_vatom_ptx x = p2_packet;
	struct drm_vatom_submit empty = { 0 };
	const char *colon = strchr(arg, ':');
	size_t len = colon ? (size_t)(colon - arg) : 0;
	long n = colon ? atol(colon + 1) : 0;
	unsigned int row;
	struct work w;
	struct qb q;
	u64 res[16];
	long i;

	for (row = 0; row < ARRAY_SIZE(rows); row++)
		if (len == strlen(rows[row]) && !strncmp(arg, rows[row], len))
			break;
	if (row == ARRAY_SIZE(rows) || n < 1)
		return -1;
	work_build(&w, K_INT, 1);
	if (row == 4)
		qb_init(fd, &q, s.handle, &x, sizeof(x), 8, false);
	for (i = -1; i < n; i++) {
		if (i == 0)
			vm_bench_profile_start();
		switch (row) {
		case 0:
			get_param(fd, DRM_VATOM_PARAM_UAPI_VERSION);
			break;
		case 1:
			submit(fd, &p2_packet, sizeof(p2_packet), s.handle,
			       res, 8);
			break;
		case 2:
			submit(fd, w.stream, w.stream_size, s.handle, res, 64);
			break;
		case 3:
			xioctl(fd, DRM_IOCTL_VATOM_SUBMIT, &empty);
			break;
		default:
			qb_run(fd, &q, 1);
		}
	}
	vm_bench_profile_stop();
	if (row == 4)
		qb_fini(fd, &q);
	return 0;
}

/* Calls per block of the Q round trips. */
#define QB_PER_MAX	200

/*
 * One call a single-call latency times: a null ioctl, a 1-job round trip,
 * a KICK with no job to consume (what a KICK costs before its job), a
 * polling round trip of a job with no stream (what the queue costs a job),
 * or io_uring's NOP, through io_uring_enter() or an SQPOLL ring.
 */
enum one_call { ONE_NULL, ONE_KICK, ONE_POLL, ONE_KICK_EMPTY, ONE_POLL_EMPTY,
		ONE_URING_ENTER, ONE_URING_SQPOLL };

/*
 * Median seconds of @per calls of @what (at most QB_PER_MAX), each timed
 * on its own (@q: the queue of a round trip): a latency that the block's
 * rare slow calls (an interrupt, the host stopping a vCPU thread) do not
 * move, as they move a block's mean.
 */
static double one_call_med_s(int fd, struct qb *q, enum one_call what, int per)
{
	double t[QB_PER_MAX], t0, t1;
	int i;

	if (what == ONE_POLL_EMPTY)
		qb_describe(q, true);
	t0 = vt_now_s();
	for (i = 0; i < per; i++) {
		switch (what) {
		case ONE_NULL:
			get_param(fd, DRM_VATOM_PARAM_UAPI_VERSION);
			break;
		case ONE_KICK:
			qb_run(fd, q, 1);
			break;
		case ONE_POLL:
		case ONE_POLL_EMPTY:
			qb_poll_run(fd, q, 1, qb_spin_wait);
			break;
		case ONE_KICK_EMPTY:
			qb_run(fd, q, 0);
			break;
		case ONE_URING_ENTER:
			uring_nop_enter();
			break;
		case ONE_URING_SQPOLL:
			uring_nop_sqpoll();
			break;
		}
		t1 = vt_now_s();
		t[i] = t1 - t0;
		t0 = t1;
	}
	if (what == ONE_POLL_EMPTY)
		qb_describe(q, false);
	return median_sort(t, per);
}

/*
 * Nanoseconds the device has spent executing @fd's jobs: the sum of its
 * fdinfo drm-engine-* keys, which the driver times around each batch it
 * consumes (vatom_queue_drain()), whichever thread consumes it.
 */
static u64 engine_ns(int fd)
{
	char path[64], line[256];
	unsigned long long v;
	u64 sum = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		die("fdinfo", errno);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "drm-engine-%*[a-z]: %llu ns", &v) == 1)
			sum += v;
	fclose(f);
	return sum;
}

/* Asynchronous SUBMIT of @stream, results to @rh; out-syncobj @syncobj or 0. */
static void submit_async(int fd, const void *stream, u32 size, u32 handle,
			 u32 rh, u64 res_size, u32 syncobj)
{
	struct drm_vatom_binding bind = { .slot = SLOT, .handle = handle };
	struct drm_vatom_sync out = { .handle = syncobj };
	struct drm_vatom_submit sub = {
		.stream = (uintptr_t)stream, .stream_size = size,
		.bindings = (uintptr_t)&bind, .binding_count = 1,
		.result_handle = rh, .results_size = res_size,
		.out_syncs = syncobj ? (uintptr_t)&out : 0,
		.out_sync_count = syncobj ? 1 : 0,
		.flags = DRM_VATOM_SUBMIT_ASYNC,
	};
	int ret = xioctl(fd, DRM_IOCTL_VATOM_SUBMIT, &sub);

	if (ret)
		die("SUBMIT async", -ret);
}

static u32 syncobj_create(int fd)
{
	struct drm_syncobj_create sc = { 0 };
	int ret = xioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &sc);

	if (ret)
		die("SYNCOBJ_CREATE", -ret);
	return sc.handle;
}

static void syncobj_wait(int fd, u32 h)
{
	struct drm_syncobj_wait w = {
		.handles = (uintptr_t)&h, .count_handles = 1,
		.timeout_nsec = INT64_MAX,
	};
	int ret = xioctl(fd, DRM_IOCTL_SYNCOBJ_WAIT, &w);

	if (ret)
		die("SYNCOBJ_WAIT", -ret);
}

/*
 * Seconds for @jobs asynchronous jobs of @w on @fd, results to @rh, with
 * an out-syncobj on every @per_fence-th job, waited for.
 */
static double async_jobs(int fd, const struct work *w, u32 handle, u32 rh,
			 u32 syncobj, u32 jobs, u32 per_fence)
{
	double t0 = vt_now_s();
	bool fence;
	u32 i;

	for (i = 0; i < jobs; i++) {
		fence = i % per_fence == per_fence - 1;
		submit_async(fd, w->stream, w->stream_size, handle, rh,
			     w->res_size, fence ? syncobj : 0);
		if (fence)
			syncobj_wait(fd, syncobj);
	}
	return vt_now_s() - t0;
}
