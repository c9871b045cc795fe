// SPDX-License-Identifier: GPL-2.0
/*
 * What a reset does beyond the job that caused it: the guilty file's
 * later jobs cancelled, a file whose job depends on the guilty one's
 * fence left innocent, a hung job's process gone before the timeout; and
 * a stalled poller, which is no job's fault and resets nothing.
 *
 * Part of vatom_test.c's translation unit, after test_reset.c (its rs_*
 * helpers, fixture state and cases); not built alone. Expected values as
 * there: each job adds 1 to words 0..3, one packet each.
 *
 * Copyright (C) 2026 The vatom developers
 */

FIXTURE(reset_cancel) {
	struct rs_fix f;
};

FIXTURE_VARIANT(reset_cancel) {
	struct rs_case c;
};

/*
 * The cases in which a second job is in before the first fails: an
 * asynchronous hang (an engine fault fails before the second job is
 * submitted), and a KICKed batch, whose later jobs are in the ring.
 */
FIXTURE_VARIANT_ADD(reset_cancel, hang_async) { RS_HANG(RS_ASYNC) };
FIXTURE_VARIANT_ADD(reset_cancel, hang_kick) { RS_HANG(RS_KICK) };
FIXTURE_VARIANT_ADD(reset_cancel, fault_kick) { RS_FAULT(RS_KICK) };

FIXTURE_SETUP(reset_cancel)
{
	rs_setup(_metadata, &self->f, &variant->c);
}

FIXTURE_TEARDOWN(reset_cancel)
{
	rs_teardown(&self->f, &variant->c);
}

/*
 * A reset cancels the file's jobs queued behind the one that failed: an
 * asynchronous job submitted before the reset does not execute, its fence
 * signals -ECANCELED; a queue's jobs after it in the same batch complete
 * -EIO, not executed.
 */
TEST_F(reset_cancel, later_jobs_cancelled)
{
	const struct rs_case *c = &variant->c;
	struct rs_fix *f = &self->f;
	struct vt_stream s;
	__u32 first, second;
	int i;

	if (f->skip)
		return;
	ASSERT_EQ(0, vt_fault_quiet(c->fault, 1));
	if (c->door == RS_KICK) {
		rs_stream(&s);
		for (i = 0; i < 4; i++)
			vq_job(vq_next(&f->job.env.q), f->job.env.streams, i, &s);
		qp_publish(&f->job.env.q, 4);
		EXPECT_EQ(0, vq_kick(f->a, f->job.env.q.id));
		ASSERT_EQ(4, vq_completed(&f->job.env.q));
		EXPECT_EQ(c->error, f->job.env.q.ring[0].status);
		for (i = 1; i < 4; i++) {
			EXPECT_EQ(-EIO, f->job.env.q.ring[i].status) TH_LOG("job %d", i);
		}
		EXPECT_EQ(c->packets, rs_words(f->wa, 1));
		return;
	}
	ASSERT_EQ(0, drmSyncobjCreate(f->a, 0, &first));
	ASSERT_EQ(0, drmSyncobjCreate(f->a, 0, &second));
	ASSERT_EQ(0, va_add(f->a, f->ha, 0, 1, true, 0, first));
	ASSERT_EQ(0, va_add(f->a, f->ha, 12, 1, true, 0, second));
	ASSERT_EQ(0, va_wait_ms(f->a, second, 0, 10000));
	EXPECT_EQ(c->error, va_status(f->a, first));
	EXPECT_EQ(-ECANCELED, va_status(f->a, second));
	EXPECT_EQ(0, f->wa[12]);
	/* Submitted after the reset: refused, the syncobj untouched. */
	EXPECT_EQ(-EIO, va_add(f->a, f->ha, 12, 1, true, 0, second));
	EXPECT_EQ(0, f->wa[12]);
	drmSyncobjDestroy(f->a, first);
	drmSyncobjDestroy(f->a, second);
}

FIXTURE(reset_dependent) {
	struct rs_fix f;
};

FIXTURE_VARIANT(reset_dependent) {
	struct rs_case c;
};

/* Injected resets of asynchronous jobs, whose fences B can wait for. */
FIXTURE_VARIANT_ADD(reset_dependent, hang_async) { RS_HANG(RS_ASYNC) };
FIXTURE_VARIANT_ADD(reset_dependent, fault_async) { RS_FAULT(RS_ASYNC) };

FIXTURE_SETUP(reset_dependent)
{
	rs_setup(_metadata, &self->f, &variant->c);
}

FIXTURE_TEARDOWN(reset_dependent)
{
	rs_teardown(&self->f, &variant->c);
}

/*
 * B's job waits for A's, which times out or faults: B's job does not
 * execute, its fence gets A's error, and B is innocent (it is not B's
 * fault), A guilty.
 */
TEST_F(reset_dependent, dependent_file_innocent)
{
	const struct rs_case *c = &variant->c;
	struct rs_fix *f = &self->f;
	struct drm_vatom_reset_status st;
	__u32 a_out, b_in, b_out;
	int sf;

	if (f->skip)
		return;
	ASSERT_EQ(0, vt_fault_quiet(c->fault, 1));
	ASSERT_EQ(0, drmSyncobjCreate(f->a, 0, &a_out));
	ASSERT_EQ(0, drmSyncobjCreate(f->b, 0, &b_in));
	ASSERT_EQ(0, drmSyncobjCreate(f->b, 0, &b_out));
	ASSERT_EQ(0, va_add(f->a, f->ha, 0, 1, true, 0, a_out));
	sf = va_export(f->a, a_out);
	ASSERT_LE(0, sf);
	ASSERT_EQ(0, drmSyncobjImportSyncFile(f->b, b_in, sf));
	close(sf);
	ASSERT_EQ(0, va_add(f->b, f->hb, 0, 1, true, b_in, b_out));
	ASSERT_EQ(0, va_wait_ms(f->b, b_out, 0, 10000));
	EXPECT_EQ(c->error, va_status(f->a, a_out));
	EXPECT_EQ(c->error, va_status(f->b, b_out));
	EXPECT_EQ(0, f->wb[0]);	/* B's job did not execute */
	ASSERT_EQ(0, rs_reset_status(f->b, 0, &st));
	EXPECT_EQ(DRM_VATOM_RESET_INNOCENT, st.status);
	EXPECT_EQ(0, st.guilty);
	EXPECT_EQ(1, st.innocent);
	ASSERT_EQ(0, rs_reset_status(f->a, 0, &st));
	EXPECT_EQ(DRM_VATOM_RESET_GUILTY, st.status);
	EXPECT_EQ(1, st.guilty);
	drmSyncobjDestroy(f->a, a_out);
	drmSyncobjDestroy(f->b, b_in);
	drmSyncobjDestroy(f->b, b_out);
}

/*
 * A process whose job hangs goes away, killed or closing its file, long
 * before the job timeout: the hang stops like any job would.
 */
FIXTURE(hang_exit) {
	unsigned int old_timeout;
	bool skip;
};

FIXTURE_VARIANT(hang_exit) {
	bool async;
	bool kill;	/* SIGKILL, else close() */
};

FIXTURE_VARIANT_ADD(hang_exit, sync_kill) { false, true };
FIXTURE_VARIANT_ADD(hang_exit, async_kill) { true, true };
FIXTURE_VARIANT_ADD(hang_exit, async_close) { true, false };

FIXTURE_SETUP(hang_exit)
{
	int ret;

	self->skip = true;
	ret = va_job_timeout_swap(60000, &self->old_timeout);
	if (ret == -EACCES || ret == -EPERM)
		SKIP(return, "cannot set job_timeout_ms (not root)");
	ASSERT_EQ(0, ret);
	if (vt_fault_quiet("fail_hang", 0))
		SKIP(vt_job_timeout_set(self->old_timeout); return,
		     "no fault injection (CONFIG_FAULT_INJECTION_DEBUG_FS)");
	self->skip = false;
}

FIXTURE_TEARDOWN(hang_exit)
{
	if (self->skip)
		return;
	vt_fault_quiet("fail_hang", 0);
	vt_job_timeout_set(self->old_timeout);
}

TEST_F(hang_exit, gone_before_timeout)
{
	int pipefd[2], status, fd, sf = -1;
	long long t0, ms;
	pid_t pid;
	char c;

	if (self->skip)
		return;
	ASSERT_EQ(0, vt_fault_quiet("fail_hang", 1));
	if (!variant->kill) {
		__u32 h, syncobj;
		__u32 *w;

		VT_OPEN(fd);
		VT_BUFFER(fd, VT_PAGE_SIZE, h, w);
		ASSERT_EQ(0, drmSyncobjCreate(fd, 0, &syncobj));
		ASSERT_EQ(0, va_add(fd, h, 0, 1, true, 0, syncobj));
		sf = va_export(fd, syncobj);
		ASSERT_LE(0, sf);
		va_sleep_ms(100);
		EXPECT_EQ(0, va_sync_file_status(sf));	/* hanging */
		munmap(w, VT_PAGE_SIZE);
		t0 = rs_now_ms();
		close(fd);
		ms = rs_now_ms() - t0;
		TH_LOG("close() with a hung job: %lld ms", ms);
		EXPECT_GE(1000, ms);
		EXPECT_EQ(-ECANCELED, va_sync_file_status(sf));
		close(sf);
		return;
	}

	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		__u32 h, *w;

		fd = vt_open();
		if (fd < 0 || vt_buffer_create(fd, VT_PAGE_SIZE, &h))
			_exit(2);
		w = vt_map(fd, h, VT_PAGE_SIZE);
		if (!w || write(pipefd[1], "s", 1) != 1)
			_exit(3);
		va_add(fd, h, 0, 1, variant->async, 0, 0);
		pause();
		_exit(4);
	}
	close(pipefd[1]);
	ASSERT_EQ(1, read(pipefd[0], &c, 1));
	close(pipefd[0]);
	va_sleep_ms(200);	/* inside the hang */
	t0 = rs_now_ms();
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ms = rs_now_ms() - t0;
	TH_LOG("SIGKILL to reaped with a hung %s job: %lld ms",
	       variant->async ? "asynchronous" : "synchronous", ms);
	EXPECT_TRUE(WIFSIGNALED(status));
	EXPECT_GE(1000, ms);
}

/*
 * A stalled poller (fail_poll_stall, stall_ms 300) consumes late: the job
 * completes whole, at least the stall after it was published, and the
 * file is not reset.
 */
TEST(poll_stall)
{
	static const struct qp_mode poll = { .flags = QP_POLL, .idle_us = QP_IDLE_MAX };
	struct drm_vatom_reset_status st;
	struct qp_env env;
	struct vt_stream s;
	long long t0, ms;
	int fd;

	VT_OPEN(fd);
	if (!qp_supported(fd))
		SKIP(close(fd); return, "no polling queues");
	if (vt_fault_quiet("fail_poll_stall", 0))
		SKIP(close(fd); return,
		     "no fault injection (CONFIG_FAULT_INJECTION_DEBUG_FS)");
	ASSERT_EQ(0, qp_env_init(&env, fd, 8, 0, &poll));
	ASSERT_EQ(0, rs_fault_knob("fail_poll_stall", "stall_ms", 300));
	ASSERT_EQ(0, vt_fault_quiet("fail_poll_stall", 1));
	rs_stream(&s);
	vq_job(vq_next(&env.q), env.streams, 0, &s);
	t0 = rs_now_ms();
	qp_publish(&env.q, 1);
	EXPECT_TRUE(qp_wait_completed(&env.q, 1, 10000));
	ms = rs_now_ms() - t0;
	vt_fault_quiet("fail_poll_stall", 0);
	TH_LOG("a job behind a 300 ms poller stall: %lld ms", ms);
	EXPECT_LE(300, ms);
	EXPECT_EQ(0, env.q.ring[0].status);
	EXPECT_EQ(RS_PACKETS, rs_words(env.target, 1));
	ASSERT_EQ(0, rs_reset_status(fd, 0, &st));
	EXPECT_EQ(DRM_VATOM_RESET_NONE, st.status);
	qp_env_unmap(&env);
	close(fd);
}
