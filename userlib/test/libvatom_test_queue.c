// SPDX-License-Identifier: MIT
/*
 * libvatom test: user-mode queues (kick and polling, waits on their syncobj) and the
 * reset status of a fresh file.
 *
 * Part of libvatom_test.c's one translation unit (its harness: EXPECT(),
 * REQUIRE(), the device); not built alone.
 *
 * Copyright (C) 2026 The vatom developers
 */

/* ------------------------------------------------------------------------ */

/*
 * The DWORD_ATOMIC batch through a user-mode queue: the same results and
 * memory as a SUBMIT; then a full ring, a rejected job's status, and 100
 * small jobs with exact totals.
 */
static void dev_queue(void)
{
	const struct vatom_queue_params qp = {
		.entries = 8, .stream_bytes = 1024, .results_bytes = 256,
	};
	static const struct drm_vatom_packet bad = { .type = 99, .size = 8 };
	struct vatom_surface *s = NULL, *t = NULL;
	struct vatom_batch *b = NULL, *small = NULL;
	struct vatom_queue *q = NULL;
	struct dword_batch r;
	uint64_t seq, last = 0;
	uint32_t idx, reason, *mem, *tm, lane, addr[4], src[4];
	struct vatom_visa_exec ex = VATOM_VISA_EXEC(4);
	void *stream;
	int i;

	if (!(vatom_device_caps(dev) & DRM_VATOM_CAP_QUEUE)) {
		skip("no DRM_VATOM_CAP_QUEUE");
		return;
	}
	REQUIRE(!vatom_surface_create_buffer(dev, NDW * 4, 0, &s));
	REQUIRE(!vatom_surface_map(s, (void **)&mem));
	memcpy(mem, init_mem, sizeof(init_mem));
	REQUIRE(!vatom_surface_create_buffer(dev, 4096, 0, &t));
	REQUIRE(!vatom_surface_map(t, (void **)&tm));
	REQUIRE(!vatom_batch_create(dev, 0, &b));
	REQUIRE(!vatom_batch_bind(b, VATOM_T255, s));
	REQUIRE(!vatom_batch_bind(b, 7, t));
	REQUIRE(!vatom_queue_create(dev, &qp, b, &q));
	REQUIRE(!build_dword_batch(b, &r));
	REQUIRE(!vatom_queue_submit_batch(q, b, &seq));
	EXPECT_EQ(seq, 1);
	EXPECT_EQ(vatom_queue_job_status(q, seq, NULL, NULL), -EBUSY);
	EXPECT_EQ(vatom_queue_wait(q, seq, -1), 0);
	EXPECT_EQ(vatom_queue_completed(q), 1);
	EXPECT_EQ(vatom_queue_batch_results(q, seq, b), 0);
	EXPECT_EQ(vatom_batch_error(b, &idx, &reason), 0);
	check_dword_results(b, &r);
	expect_memory(mem, want_mem);

	/* A rejected job: its status, index and reason; nothing executes. */
	vatom_batch_reset(b);
	EXPECT(vatom_prep_raw(b, &bad, sizeof(bad), 0) >= 0);
	REQUIRE(!vatom_queue_submit_batch(q, b, &seq));
	EXPECT_EQ(vatom_queue_wait(q, seq, 1000000000), 0);
	EXPECT_EQ(vatom_queue_job_status(q, seq, &idx, &reason), -EINVAL);
	EXPECT_EQ(idx, 0);
	EXPECT_EQ(reason, DRM_VATOM_ERR_PACKET_TYPE);
	expect_memory(mem, want_mem);

	/* 100 jobs "lane k of word k += i + 1" on slot 7, through reserve/commit. */
	REQUIRE(!vatom_batch_create(dev, 0, &small));
	REQUIRE(!vatom_batch_bind(small, 7, t));
	for (i = 0; i < 100; i++) {
		vatom_batch_reset(small);
		for (lane = 0; lane < 4; lane++) {
			addr[lane] = 4 * lane;
			src[lane] = i + 1;
		}
		EXPECT(vatom_prep_dword_atomic(small, &ex, VATOM_VISA_ADD, VATOM_VISA_DST,
					       7, addr, src, NULL) >= 0);
		if (vatom_queue_submit_batch(q, small, &seq) == -EAGAIN) {
			/* The ring is full: every entry is committed, none complete. */
			EXPECT_EQ(vatom_queue_reserve(q, 8, &stream), -EAGAIN);
			EXPECT_EQ(vatom_queue_wait(q, last, -1), 0);
			REQUIRE(!vatom_queue_submit_batch(q, small, &seq));
		}
		last = seq;
		if (i % 10 == 9) {
			EXPECT_EQ(vatom_queue_wait(q, seq, -1), 0);
			/* The old values of this job: the sum of the i before. */
			EXPECT_EQ(vatom_queue_batch_results(q, seq, small), 0);
			EXPECT_EQ(vatom_result_u32(small, 0, 3), i * (i + 1) / 2);
		}
	}
	EXPECT_EQ(vatom_queue_wait(q, last, -1), 0);
	for (lane = 0; lane < 4; lane++)
		EXPECT_EQ(tm[lane], 100 * 101 / 2);
	EXPECT_EQ(vatom_queue_job_status(q, last - 8, NULL, NULL), -ENOENT);
	EXPECT_EQ(vatom_queue_reserve(q, 2048, &stream), -E2BIG);
out:
	vatom_queue_destroy(q);
	vatom_batch_destroy(small);
	vatom_batch_destroy(b);
	vatom_surface_destroy(t);
	vatom_surface_destroy(s);
}

/*
 * What the polling-queue tests start from: a 4 KiB buffer @t mapped at
 * @tm, bound at slot 7 of a new batch @b, and a timeline syncobj.
 * Return: 1, 0 when the device has no polling queues (skipped), -1 when
 * a step failed (counted).
 */
static int queue_poll_setup(struct vatom_surface **t, uint32_t **tm,
			    struct vatom_batch **b, uint32_t *timeline)
{
	if (!(vatom_device_caps(dev) & DRM_VATOM_CAP_QUEUE_POLL) ||
	    !(vatom_device_caps(dev) & DRM_VATOM_CAP_QUEUE_SIGNAL)) {
		skip("no DRM_VATOM_CAP_QUEUE_POLL and _SIGNAL");
		return 0;
	}
	REQUIRE(!vatom_surface_create_buffer(dev, 4096, 0, t));
	REQUIRE(!vatom_surface_map(*t, (void **)tm));
	REQUIRE(!vatom_batch_create(dev, 0, b));
	REQUIRE(!vatom_batch_bind(*b, 7, *t));
	REQUIRE(!drmSyncobjCreate(vatom_device_fd(dev), 0, timeline));
	return 1;
out:
	return -1;
}

/*
 * A polling queue with a timeline syncobj and an eventfd: 50 jobs
 * "lane k of word k += i + 1" complete without a KICK each, the totals are
 * 50 * 51 / 2, the timeline's last point is 50 and the eventfd counted
 * between 1 and 50 batches. Then what vatom_queue_create_ext() refuses.
 */
static void dev_queue_poll(void)
{
	const struct vatom_queue_params qp = {
		.entries = 16, .stream_bytes = 512, .results_bytes = 64,
	};
	struct vatom_queue_ext ext = {
		.flags = VATOM_QUEUE_POLL | VATOM_QUEUE_EVENTFD,
		.poll_idle_us = 100000,
	};
	static const struct {
		uint32_t flags, idle;
		int eventfd;
	} bad[] = {
		{ VATOM_QUEUE_POLL_CPU << 1, 0, 0 },	/* unknown flag */
		{ 0, 1000, 0 },				/* idle without POLL */
		{ VATOM_QUEUE_POLL, 0, 5 },		/* eventfd without its flag */
		{ VATOM_QUEUE_POLL_CPU, 0, 0 },		/* a CPU without POLL */
	};
	struct vatom_visa_exec ex = VATOM_VISA_EXEC(4);
	uint32_t *tm, lane, addr[4], src[4], timeline = 0;
	struct vatom_batch *b = NULL;
	struct vatom_surface *t = NULL;
	struct vatom_queue *q = NULL;
	uint64_t seq = 0, point = 0, batches = 0;
	size_t k;
	int i, efd = -1;

	if (queue_poll_setup(&t, &tm, &b, &timeline) <= 0)
		goto out;
	for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		struct vatom_queue_ext e = {
			.flags = bad[k].flags, .poll_idle_us = bad[k].idle,
			.eventfd = bad[k].eventfd,
		};

		EXPECT_EQ(vatom_queue_create_ext(dev, &qp, &e, b, &q), -EINVAL);
	}
	efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	REQUIRE(efd >= 0);
	ext.syncobj = timeline;
	ext.eventfd = efd;
	REQUIRE(!vatom_queue_create_ext(dev, &qp, &ext, b, &q));

	for (i = 0; i < 50; i++) {
		vatom_batch_reset(b);
		for (lane = 0; lane < 4; lane++) {
			addr[lane] = 4 * lane;
			src[lane] = i + 1;
		}
		EXPECT(vatom_prep_dword_atomic(b, &ex, VATOM_VISA_ADD, 0, 7, addr,
					       src, NULL) >= 0);
		if (vatom_queue_submit_batch(q, b, &seq) == -EAGAIN) {
			EXPECT_EQ(vatom_queue_wait(q, seq, -1), 0);
			REQUIRE(!vatom_queue_submit_batch(q, b, &seq));
		}
		EXPECT_EQ(vatom_queue_kick(q), 0);	/* a no-op while it polls */
	}
	EXPECT_EQ(seq, 50);
	EXPECT_EQ(vatom_queue_wait(q, seq, 5000000000LL), 0);
	for (lane = 0; lane < 4; lane++)
		EXPECT_EQ(tm[lane], 50 * 51 / 2);
	EXPECT_EQ(vatom_queue_job_status(q, seq, NULL, NULL), 0);
	/*
	 * The point follows the count (docs/queues.md): the poller adds it
	 * after the batch that completed job 50, which the wait above may
	 * have seen complete first. WAIT_FOR_SUBMIT waits for it to exist.
	 */
	point = seq;
	EXPECT_EQ(drmSyncobjTimelineWait(vatom_device_fd(dev), &timeline, &point,
					 1, INT64_MAX,
					 DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
					 NULL), 0);
	point = 0;
	EXPECT_EQ(drmSyncobjQuery(vatom_device_fd(dev), &timeline, &point, 1), 0);
	EXPECT_EQ(point, 50);
	EXPECT_EQ(read(efd, &batches, sizeof(batches)), (ssize_t)sizeof(batches));
	EXPECT(batches >= 1 && batches <= 50);
out:
	vatom_queue_destroy(q);
	if (timeline)
		drmSyncobjDestroy(vatom_device_fd(dev), timeline);
	if (efd >= 0)
		close(efd);
	vatom_batch_destroy(b);
	vatom_surface_destroy(t);
}

/*
 * vatom_queue_wait() on a queue with a timeline syncobj blocks in the
 * syncobj's wait: a poller that sleeps after 1 us is woken by the kick
 * of each wait, and each of 100 jobs "word 0 += i + 1" is complete when
 * the wait returns 0. Word 0 is then 100 * 101 / 2 = 5050 and the
 * timeline's last point 100. The polling thread is pinned to the CPU the
 * test runs on (VATOM_QUEUE_POLL_CPU): one the caller may run on.
 */
static void dev_queue_wait_syncobj(void)
{
	const struct vatom_queue_params qp = {
		.entries = 4, .stream_bytes = 256, .results_bytes = 16,
	};
	struct vatom_queue_ext ext = {
		.flags = VATOM_QUEUE_POLL | VATOM_QUEUE_POLL_CPU, .poll_idle_us = 1,
	};
	struct vatom_visa_exec ex = VATOM_VISA_EXEC(1);
	uint32_t *tm, addr[1] = { 0 }, src[1], timeline = 0;
	struct vatom_batch *b = NULL;
	struct vatom_surface *t = NULL;
	struct vatom_queue *q = NULL;
	uint64_t seq = 0, point = 0;
	int i;

	if (queue_poll_setup(&t, &tm, &b, &timeline) <= 0)
		goto out;
	ext.syncobj = timeline;
	REQUIRE(sched_getcpu() >= 0);
	ext.poll_cpu = (uint32_t)sched_getcpu();
	REQUIRE(!vatom_queue_create_ext(dev, &qp, &ext, b, &q));
	for (i = 0; i < 100; i++) {
		vatom_batch_reset(b);
		src[0] = (uint32_t)i + 1;
		EXPECT(vatom_prep_dword_atomic(b, &ex, VATOM_VISA_ADD, 0, 7, addr,
					       src, NULL) >= 0);
		REQUIRE(!vatom_queue_submit_batch(q, b, &seq));
		EXPECT_EQ(vatom_queue_wait(q, seq, 5000000000LL), 0);
		EXPECT(vatom_queue_completed(q) >= seq);
		EXPECT_EQ(vatom_queue_job_status(q, seq, NULL, NULL), 0);
	}
	EXPECT_EQ(seq, 100);
	EXPECT_EQ(tm[0], 5050);
	EXPECT_EQ(drmSyncobjQuery(vatom_device_fd(dev), &timeline, &point, 1), 0);
	EXPECT_EQ(point, 100);
out:
	vatom_queue_destroy(q);
	if (timeline)
		drmSyncobjDestroy(vatom_device_fd(dev), timeline);
	vatom_batch_destroy(b);
	vatom_surface_destroy(t);
}

/*
 * Reset status on a fresh device file: none, 0 guilty and 0 innocent,
 * before and after an acknowledgement; unknown flags are -EINVAL, from
 * the library and (raw) from the kernel, which also refuses a non-zero
 * pad; the file still submits. (Timeouts and faults themselves need the
 * kernel's fault injection: selftests.)
 */
static void dev_reset_status(void)
{
	static const struct {
		uint32_t flags;
		uint64_t pad;
		int want;
	} raw[] = {
		{ 0, 0, 0 },
		{ DRM_VATOM_RESET_ACK, 0, 0 },
		{ DRM_VATOM_RESET_ACK << 1, 0, -EINVAL },	/* unknown flag */
		{ 0x80000000u, 0, -EINVAL },
		{ 0, 1, -EINVAL },				/* pad MBZ */
		{ DRM_VATOM_RESET_ACK, 1ull << 63, -EINVAL },
	};
	static const struct {
		unsigned int flags;
		bool out;
		int want;
	} calls[] = {
		{ 0, true, 0 },
		{ VATOM_RESET_ACK, true, 0 },
		{ VATOM_RESET_ACK, false, 0 },		/* out is optional */
		{ 0, false, 0 },
		{ VATOM_RESET_ACK << 1, true, -EINVAL },
		{ VATOM_RESET_ACK | 0x100, true, -EINVAL },
		{ 0xffffffffu, true, -EINVAL },
	};
	const uint32_t offs[1] = { 0 }, one[1] = { 1 };
	struct vatom_visa_exec ex = VATOM_VISA_EXEC(1);
	struct vatom_device *d2 = NULL;
	struct vatom_surface *s = NULL;
	struct vatom_batch *b = NULL;
	struct vatom_reset_status rs;
	uint32_t *mem;
	unsigned int i;

	/* A file of its own: the shared one has run every test before. */
	REQUIRE(!vatom_device_open_path(vatom_device_node(dev), 0, &d2));
	if (!(vatom_device_caps(d2) & DRM_VATOM_CAP_RESET_STATUS)) {
		EXPECT_EQ(vatom_device_reset_status(d2, 0, &rs), -EOPNOTSUPP);
		skip("no DRM_VATOM_CAP_RESET_STATUS");
		goto out;
	}
	for (i = 0; i < ARRAY_SIZE(calls); i++) {
		int ret;

		rs = (struct vatom_reset_status){ 7, 8, 9 };
		ret = vatom_device_reset_status(d2, calls[i].flags,
						calls[i].out ? &rs : NULL);
		if (ret != calls[i].want) {
			printf("#   call %u: flags 0x%x: %d, expected %d\n", i,
			       calls[i].flags, ret, calls[i].want);
			fails++;
		}
		if (ret || !calls[i].out) {
			/* not written */
			EXPECT_EQ(rs.status, 7);
			EXPECT_EQ(rs.guilty, 8);
			EXPECT_EQ(rs.innocent, 9);
			continue;
		}
		EXPECT_EQ(rs.status, VATOM_RESET_NONE);
		EXPECT_EQ(rs.guilty, 0);
		EXPECT_EQ(rs.innocent, 0);
	}
	for (i = 0; i < ARRAY_SIZE(raw); i++) {
		struct drm_vatom_reset_status r = {
			.flags = raw[i].flags, .status = 77, .pad = raw[i].pad,
		};
		int ret = drmIoctl(vatom_device_fd(d2), DRM_IOCTL_VATOM_RESET_STATUS,
				   &r) ? -errno : 0;

		if (ret != raw[i].want) {
			printf("#   raw %u: flags 0x%x pad 0x%" PRIx64 ": %d, expected %d\n",
			       i, raw[i].flags, raw[i].pad, ret, raw[i].want);
			fails++;
		}
		if (!ret) {
			EXPECT_EQ(r.status, DRM_VATOM_RESET_NONE);
			EXPECT_EQ(r.guilty, 0);
			EXPECT_EQ(r.innocent, 0);
		}
	}
	/* Not guilty: the file submits, and acknowledging changed nothing. */
	REQUIRE(!vatom_surface_create_buffer(d2, 64, 0, &s));
	REQUIRE(!vatom_surface_map(s, (void **)&mem));
	REQUIRE(!vatom_batch_create(d2, 0, &b));
	REQUIRE(!vatom_batch_bind(b, VATOM_T255, s));
	EXPECT_EQ(vatom_prep_dword_atomic(b, &ex, VATOM_VISA_ADD, 0, VATOM_T255,
					  offs, one, NULL), 0);
	EXPECT_EQ(vatom_batch_submit(b), 0);
	EXPECT_EQ(mem[0], 1);
	EXPECT_EQ(vatom_device_reset_status(d2, 0, &rs), 0);
	EXPECT_EQ(rs.status, VATOM_RESET_NONE);
	EXPECT_EQ(rs.guilty, 0);
	EXPECT_EQ(rs.innocent, 0);
out:
	vatom_batch_destroy(b);
	vatom_surface_destroy(s);
	vatom_device_close(d2);
}
