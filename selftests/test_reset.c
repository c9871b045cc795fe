// SPDX-License-Identifier: GPL-2.0
/*
 * Job timeouts, resets and injected faults (UAPI "job timeouts and
 * resets", docs/robustness.md): a job that runs past the job timeout
 * stops with -ETIMEDOUT, one with an injected engine fault with -EIO after
 * the first half of its packets; either makes its file guilty until it
 * acknowledges, while another file, innocent, goes on. What a reset does
 * beyond its job follows in test_reset_effects.c.
 *
 * The timeout is shortened through the module parameter (root), and the
 * faults are injected through debugfs (CONFIG_FAULT_INJECTION_DEBUG_FS:
 * the debug kernel); the tests that need either skip without it. Slow
 * jobs (2^24 broadcasts) time out on every kernel; hangs, faults, delays
 * and poller stalls are injected.
 *
 * Expected values: each job adds 1 to words 0..3 of its surface, one
 * packet each, so what ran is read off the words; the errors and timings
 * are the UAPI's.
 */

/* Packets of the tests' jobs; an engine fault runs the first half. */
#define RS_PACKETS		4

static long long rs_now_ms(void)
{
	return va_now_ns() / VA_NS_PER_MS;
}

/* Set a fault's knob, as delay_ms: 0 or -errno. */
static int rs_fault_knob(const char *name, const char *knob, unsigned int val)
{
	char path[128], v[16];

	snprintf(path, sizeof(path), VT_FAULT_DIR "/%s/%s", name, knob);
	snprintf(v, sizeof(v), "%u", val);
	return vt_write_file(path, v);
}

static int rs_reset_status(int fd, __u32 flags, struct drm_vatom_reset_status *st)
{
	memset(st, 0, sizeof(*st));
	st->flags = flags;
	return ioctl(fd, DRM_IOCTL_VATOM_RESET_STATUS, st) ? -errno : 0;
}

/* The tests' job: RS_PACKETS packets, packet i adding 1 to word i. */
static void rs_stream(struct vt_stream *s)
{
	const __u32 one = 1;
	struct vt_visa v;
	__u32 addr, i;

	vt_stream_init(s);
	for (i = 0; i < RS_PACKETS; i++) {
		addr = 4 * i;
		vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_1,
			 DRM_VATOM_VISA_TYPE_UD, &addr, &one, NULL, false);
		v.surface = VQ_SLOT_TARGET;
		vt_add_visa(s, &v);
	}
}

/* How many of words 0..RS_PACKETS-1 hold @val: the packets that ran. */
static unsigned int rs_words(const __u32 *w, __u32 val)
{
	unsigned int i, n = 0;

	for (i = 0; i < RS_PACKETS; i++)
		n += w[i] == val;
	return n;
}

TEST(reset_status_args)
{
	struct drm_vatom_reset_status st;
	__u64 caps;
	int fd;

	VT_OPEN(fd);
	ASSERT_EQ(0, vt_get_param(fd, DRM_VATOM_PARAM_CAPS, 0, &caps));
	EXPECT_TRUE(caps & DRM_VATOM_CAP_RESET_STATUS);

	/* A new file: nothing to report, before or after acknowledging. */
	ASSERT_EQ(0, rs_reset_status(fd, 0, &st));
	EXPECT_EQ(DRM_VATOM_RESET_NONE, st.status);
	EXPECT_EQ(0, st.guilty);
	EXPECT_EQ(0, st.innocent);
	ASSERT_EQ(0, rs_reset_status(fd, DRM_VATOM_RESET_ACK, &st));
	EXPECT_EQ(DRM_VATOM_RESET_NONE, st.status);

	memset(&st, 0, sizeof(st));
	st.flags = 2;
	VT_EXPECT_ERRNO(EINVAL, ioctl(fd, DRM_IOCTL_VATOM_RESET_STATUS, &st));
	memset(&st, 0, sizeof(st));
	st.pad = 1;
	VT_EXPECT_ERRNO(EINVAL, ioctl(fd, DRM_IOCTL_VATOM_RESET_STATUS, &st));
	/* fdinfo's counts: the kernel's only (docs/shim.md). */
	if (!vt_shim()) {
		EXPECT_EQ(0, vt_fdinfo(fd, "vatom-resets-guilty"));
		EXPECT_EQ(0, vt_fdinfo(fd, "vatom-resets-innocent"));
	}
	close(fd);
}

/* How the job under test arrives. */
enum rs_door {
	RS_ASYNC,	/* SUBMIT_ASYNC, its out-syncobj's fence */
	RS_SYNC,	/* SUBMIT, its return */
	RS_KICK,	/* a kick-mode queue's descriptor */
	RS_POLL,	/* a polling queue's descriptor */
};

/*
 * Client A's job, in a thread of its own while client B works: its door,
 * where it runs, and what came of it.
 */
struct rs_job {
	int fd;
	enum rs_door door;
	bool slow;		/* 2^24 broadcasts on a grid, not RS_PACKETS adds */
	__u32 target;		/* the surface the job adds to (SUBMIT doors) */
	__u32 grid;		/* the grid (slow jobs) */
	struct qp_env env;	/* the queue (queue doors) */
	int error;		/* 0, or the job's -errno */
	long long ns;		/* submission to completion */
};

static void *rs_job_thread(void *arg)
{
	struct rs_job *j = arg;
	struct drm_vatom_noc *p = NULL;
	struct drm_vatom_binding bind;
	struct drm_vatom_sync out = { 0 };
	struct drm_vatom_submit args;
	struct vt_stream s;
	long long t0;
	__u32 syncobj = 0;
	int st;

	if (j->slow) {
		p = ab_broadcasts(4096);
		ab_submit_args(&args, &bind, j->grid, p, 4096);
	} else {
		rs_stream(&s);
		memset(&bind, 0, sizeof(bind));
		bind.handle = j->target;
		vt_submit_args(&args, &s, &bind, 1, NULL, 0);
	}
	t0 = va_now_ns();
	switch (j->door) {
	case RS_ASYNC:
		drmSyncobjCreate(j->fd, 0, &syncobj);
		out.handle = syncobj;
		args.out_syncs = vt_u64_ptr(&out);
		args.out_sync_count = 1;
		args.flags = DRM_VATOM_SUBMIT_ASYNC;
		j->error = vt_submit(j->fd, &args) ? -errno : 0;
		if (j->error)
			break;
		va_wait_ms(j->fd, syncobj, 0, 60000);
		st = va_status(j->fd, syncobj);
		j->error = st == 1 ? 0 : st;
		break;
	case RS_SYNC:
		j->error = vt_submit(j->fd, &args) ? -errno : 0;
		break;
	case RS_KICK:
	case RS_POLL:
		vq_job(vq_next(&j->env.q), j->env.streams, 0, &s);
		qp_publish(&j->env.q, 1);
		if (j->door == RS_KICK)
			vq_kick(j->fd, j->env.q.id);
		qp_wait_completed(&j->env.q, 1, 60000);
		j->error = j->env.q.ring[0].status;
		break;
	}
	j->ns = va_now_ns() - t0;
	if (syncobj)
		drmSyncobjDestroy(j->fd, syncobj);
	free(p);
	return NULL;
}

/*
 * A case: how A's job arrives (@door), the fault attribute armed for it
 * or NULL (a slow job); @error: what the job completes with; @packets:
 * how many ran; @timeout: the job timeout to set (ms); @min_ms, @max_ms:
 * when the job completes, after its submission; @guilty: its file is
 * reset.
 */
struct rs_case {
	enum rs_door door;
	const char *fault;
	int error;
	unsigned int packets;
	unsigned int timeout;
	long long min_ms, max_ms;
	bool guilty;
};

/*
 * Hangs: stopped at the timeout, nothing ran: from 10 % early to 50 %
 * late, well short of a second timeout period. Early: the timeouts count
 * jiffies, which lag real time while the host deschedules the VM's vCPU
 * (a 500 ms hang once stopped after 473 ms under TCG). Late: the stop is
 * seen at the job's next checkpoint and its completion must reach the
 * waiting thread, on a loaded host (553 ms in a debug boot beside other
 * VMs).
 */
#define RS_HANG(door)	{ door, "fail_hang", -ETIMEDOUT, 0, 500, 450, 750, true }
/* Engine faults: the first half of the packets ran, then -EIO. */
#define RS_FAULT(door)	{ door, "fail_job", -EIO, RS_PACKETS / 2, 10000, 0, 2000, true }
/* Delays (delay_ms 300) within the timeout: late, whole, no reset. */
#define RS_DELAY(door)	{ door, "fail_delay", 0, RS_PACKETS, 10000, 300, 2000, false }
/* A delay (delay_ms 1000) past the timeout is a timeout. */
#define RS_DELAY_PAST(door) \
	{ door, "fail_delay", -ETIMEDOUT, 0, 500, 450, 750, true }
/*
 * Slow jobs, on every kernel: a prefix ran (packets: not checked). The
 * timeout runs from execution, after a validation that takes seconds on
 * the debug kernel: the bound is a sanity check, the hangs measure.
 */
#define RS_SLOW(door)	{ door, NULL, -ETIMEDOUT, 0, 100, 100, 30000, true }

/* The fixtures' state: A submits the job, B works meanwhile. */
struct rs_fix {
	int a, b;		/* -1: not open */
	__u32 ha, hb;
	__u32 *wa, *wb;
	struct rs_job job;
	unsigned int old_timeout;
	bool swapped;		/* old_timeout to put back */
	bool armable;		/* the case's fault attribute exists */
	bool skip;		/* not set up: the test must not run */
};

/*
 * Set up case @c in @f: the job timeout, the fault attribute disarmed,
 * A's and B's files and surfaces, A's grid or queue. A case this kernel
 * cannot run is skipped with f->skip still true, and the test returns at
 * once: this harness runs a test whose setup skipped. rs_teardown() undoes
 * what was done, whether the setup finished or skipped part way.
 */
static void rs_setup(struct __test_metadata *_metadata, struct rs_fix *f,
		     const struct rs_case *c)
{
	static const struct qp_mode poll = { .flags = QP_POLL, .idle_us = QP_IDLE_MAX };
	static const struct qp_mode kick;
	int ret;

	f->skip = true;
	f->a = -1;
	f->b = -1;
	ret = va_job_timeout_swap(c->timeout, &f->old_timeout);
	if (ret == -EACCES || ret == -EPERM)
		SKIP(return, "cannot set job_timeout_ms (not root)");
	ASSERT_EQ(0, ret);
	f->swapped = true;
	if (c->fault && vt_fault_quiet(c->fault, 0))
		SKIP(return, "no fault injection (CONFIG_FAULT_INJECTION_DEBUG_FS)");
	f->armable = !!c->fault;

	f->a = vt_open();
	f->b = vt_open();
	ASSERT_LE(0, f->a);
	ASSERT_LE(0, f->b);
	if (c->door == RS_POLL && !qp_supported(f->a))
		SKIP(return, "no polling queues");
	VT_BUFFER(f->a, VT_PAGE_SIZE, f->ha, f->wa);
	VT_BUFFER(f->b, VT_PAGE_SIZE, f->hb, f->wb);

	f->job.fd = f->a;
	f->job.door = c->door;
	f->job.target = f->ha;
	f->job.slow = !c->fault;
	if (f->job.slow)
		ASSERT_EQ(0, ab_grid_create(f->a, &f->job.grid, NULL));
	/* The queue's target is A's surface: the words tell what ran. */
	if (c->door == RS_KICK)
		ASSERT_EQ(0, qp_env_init(&f->job.env, f->a, 8, f->ha, &kick));
	if (c->door == RS_POLL)
		ASSERT_EQ(0, qp_env_init(&f->job.env, f->a, 8, f->ha, &poll));
	if (c->fault && !strcmp(c->fault, "fail_delay"))
		ASSERT_EQ(0, rs_fault_knob("fail_delay", "delay_ms",
					   c->error ? 1000 : 300));
	f->skip = false;
}

static void rs_teardown(struct rs_fix *f, const struct rs_case *c)
{
	if (f->armable)
		vt_fault_quiet(c->fault, 0);
	if (f->swapped)
		vt_job_timeout_set(f->old_timeout);
	if (f->a >= 0)
		close(f->a);
	if (f->b >= 0)
		close(f->b);
}

/*
 * Three fixtures on the same cases, each with the cases its test runs
 * in, so that no test is generated for a case it would only skip.
 */
FIXTURE(reset) {
	struct rs_fix f;
};

FIXTURE_VARIANT(reset) {
	struct rs_case c;
};

/* Every case: the job's outcome, and both files' status after it. */
FIXTURE_VARIANT_ADD(reset, hang_async) { RS_HANG(RS_ASYNC) };
FIXTURE_VARIANT_ADD(reset, hang_sync) { RS_HANG(RS_SYNC) };
FIXTURE_VARIANT_ADD(reset, hang_kick) { RS_HANG(RS_KICK) };
FIXTURE_VARIANT_ADD(reset, hang_poll) { RS_HANG(RS_POLL) };
FIXTURE_VARIANT_ADD(reset, fault_async) { RS_FAULT(RS_ASYNC) };
FIXTURE_VARIANT_ADD(reset, fault_sync) { RS_FAULT(RS_SYNC) };
FIXTURE_VARIANT_ADD(reset, fault_kick) { RS_FAULT(RS_KICK) };
FIXTURE_VARIANT_ADD(reset, fault_poll) { RS_FAULT(RS_POLL) };
FIXTURE_VARIANT_ADD(reset, delay_async) { RS_DELAY(RS_ASYNC) };
FIXTURE_VARIANT_ADD(reset, delay_sync) { RS_DELAY(RS_SYNC) };
FIXTURE_VARIANT_ADD(reset, delay_kick) { RS_DELAY(RS_KICK) };
FIXTURE_VARIANT_ADD(reset, delay_past_timeout_sync) { RS_DELAY_PAST(RS_SYNC) };
FIXTURE_VARIANT_ADD(reset, slow_async) { RS_SLOW(RS_ASYNC) };
FIXTURE_VARIANT_ADD(reset, slow_sync) { RS_SLOW(RS_SYNC) };

FIXTURE_SETUP(reset)
{
	rs_setup(_metadata, &self->f, &variant->c);
}

FIXTURE_TEARDOWN(reset)
{
	rs_teardown(&self->f, &variant->c);
}

/*
 * A's job times out or faults while B submits: B's jobs complete, right
 * and soon; A ends as the case says and is guilty until it acknowledges
 * (its next submission -EIO, its fdinfo counting the reset), B innocent;
 * after A's acknowledgment both submit again.
 */
TEST_F(reset, one_guilty_one_innocent)
{
	const struct rs_case *c = &variant->c;
	struct rs_fix *f = &self->f;
	struct drm_vatom_reset_status st;
	long long t0, worst = 0, ms;
	pthread_t th;
	int i;

	if (f->skip)
		return;
	if (c->fault)
		ASSERT_EQ(0, vt_fault_quiet(c->fault, 1));
	ASSERT_EQ(0, pthread_create(&th, NULL, rs_job_thread, &f->job));
	va_sleep_ms(50);
	for (i = 0; i < 10; i++) {
		t0 = rs_now_ms();
		ASSERT_EQ(0, va_add(f->b, f->hb, 8, 1, false, 0, 0));
		ms = rs_now_ms() - t0;
		worst = ms > worst ? ms : worst;
	}
	ASSERT_EQ(0, pthread_join(th, NULL));
	TH_LOG("A's job: %d after %lld ms (timeout %u ms); B's 10 jobs meanwhile: worst %lld ms",
	       f->job.error, f->job.ns / VA_NS_PER_MS, c->timeout, worst);

	if (!c->fault && !f->job.error)
		SKIP(return, "the slow job completed within %u ms", c->timeout);
	EXPECT_EQ(c->error, f->job.error);
	/* In ns: whole milliseconds would lose up to one at each end. */
	EXPECT_LE(c->min_ms * VA_NS_PER_MS, f->job.ns);
	EXPECT_GE(c->max_ms * VA_NS_PER_MS, f->job.ns);
	if (c->fault) {
		EXPECT_EQ(c->packets, rs_words(f->wa, 1));
	} else {
		__u8 *grid = vt_map(f->a, f->job.grid, AB_GRID_SIZE);

		ASSERT_NE(NULL, grid);
		EXPECT_GT(4096, ab_common_count(grid));	/* a prefix */
		munmap(grid, AB_GRID_SIZE);
	}
	EXPECT_EQ(10, f->wb[8]);	/* B: every job, once */

	ASSERT_EQ(0, rs_reset_status(f->a, 0, &st));
	EXPECT_EQ(c->guilty ? DRM_VATOM_RESET_GUILTY : DRM_VATOM_RESET_NONE,
		  st.status);
	EXPECT_EQ(c->guilty, st.guilty);
	EXPECT_EQ(0, st.innocent);
	if (!vt_shim())		/* fdinfo: the kernel's only */
		EXPECT_EQ(c->guilty, vt_fdinfo(f->a, "vatom-resets-guilty"));
	ASSERT_EQ(0, rs_reset_status(f->b, 0, &st));
	EXPECT_EQ(c->guilty ? DRM_VATOM_RESET_INNOCENT : DRM_VATOM_RESET_NONE,
		  st.status);
	EXPECT_EQ(0, st.guilty);
	EXPECT_EQ(c->guilty, st.innocent);
	if (!vt_shim())
		EXPECT_EQ(c->guilty, vt_fdinfo(f->b, "vatom-resets-innocent"));

	/* Guilty: refused, nothing changed, until acknowledged. */
	if (c->guilty) {
		EXPECT_EQ(-EIO, va_add(f->a, f->ha, 12, 1, false, 0, 0));
		EXPECT_EQ(-EIO, va_add(f->a, f->ha, 12, 1, true, 0, 0));
		EXPECT_EQ(0, f->wa[12]);
	}
	ASSERT_EQ(0, rs_reset_status(f->a, DRM_VATOM_RESET_ACK, &st));
	ASSERT_EQ(0, rs_reset_status(f->a, 0, &st));
	EXPECT_EQ(DRM_VATOM_RESET_NONE, st.status);
	EXPECT_EQ(c->guilty, st.guilty);	/* the count stays */
	EXPECT_EQ(0, va_add(f->a, f->ha, 12, 1, false, 0, 0));
	EXPECT_EQ(1, f->wa[12]);
	ASSERT_EQ(0, rs_reset_status(f->b, DRM_VATOM_RESET_ACK, &st));
	ASSERT_EQ(0, rs_reset_status(f->b, 0, &st));
	EXPECT_EQ(DRM_VATOM_RESET_NONE, st.status);
	EXPECT_EQ(0, va_add(f->b, f->hb, 8, 1, false, 0, 0));
	EXPECT_EQ(11, f->wb[8]);
}
