// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoints: each one's fields for a known rejection, an asynchronous
 * job, a cancelled one and a queue's batch, read from tracefs; their
 * counts through perf; and the triggers that turn events on from a
 * rejection.
 *
 * Part of vatom_test.c's translation unit, after test_observe.c (its
 * ob_bad_op_stream()); not built alone. Expected values
 * come from the work done, not from the driver.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <sys/mount.h>

#include "queue_common.h"

/* tracefs, mounting it if needed; NULL when the kernel has none. */
static const char *ob_tracefs(void)
{
	static const char *const dirs[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	char path[128];
	size_t i;

	for (i = 0; i < VT_ARRAY_SIZE(dirs); i++) {
		snprintf(path, sizeof(path), "%s/events/vatom", dirs[i]);
		if (!access(path, F_OK))
			return dirs[i];
	}
	if (!mount("tracefs", dirs[0], "tracefs", 0, NULL)) {
		snprintf(path, sizeof(path), "%s/events/vatom", dirs[0]);
		if (!access(path, F_OK))
			return dirs[0];
	}
	return NULL;
}

/*
 * Write @text to tracefs file @file of @dir, truncating it (not
 * vt_write_file()): opening "trace" with O_TRUNC is what clears it.
 */
static int ob_write(const char *dir, const char *file, const char *text)
{
	char path[160];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, text, strlen(text)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* The trace buffer, read whole into a static buffer. */
static const char *ob_trace(const char *dir)
{
	static char buf[1 << 16];
	char path[160];
	ssize_t n, len = 0;
	int fd;

	snprintf(path, sizeof(path), "%s/trace", dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return "";
	while (len < (ssize_t)sizeof(buf) - 1 &&
	       (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	buf[len] = '\0';
	close(fd);
	return buf;
}

/*
 * Enable the vatom events on an empty trace buffer, without recording
 * command names: that option hooks the scheduler's tracepoints, and
 * patching the scheduler's text while another vCPU runs it has oopsed a
 * TCG guest (int3 in ttwu_do_activate). Return: 0 or -errno.
 */
static int ob_trace_on(const char *dir, char *record_cmd)
{
	char path[160];
	ssize_t n;
	int fd, ret;

	snprintf(path, sizeof(path), "%s/options/record-cmd", dir);
	strcpy(record_cmd, "1");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, record_cmd, 1);
		close(fd);
		if (n != 1)
			strcpy(record_cmd, "1");
		record_cmd[1] = '\0';
		ob_write(dir, "options/record-cmd", "0");
	}
	ret = ob_write(dir, "events/vatom/enable", "1");
	return ret ? ret : ob_write(dir, "trace", "");
}

/* Disable the vatom events; restore record-cmd as ob_trace_on() found it. */
static int ob_trace_off(const char *dir, const char *record_cmd)
{
	int ret = ob_write(dir, "events/vatom/enable", "0");

	ob_write(dir, "options/record-cmd", record_cmd);
	return ret;
}

/* Does the trace hold an @event line with exactly these fields? */
static bool ob_traced(const char *trace, const char *event, const char *fields)
{
	char want[512];

	snprintf(want, sizeof(want), "%s: %s\n", event, fields);
	return strstr(trace, want) != NULL;
}

/*
 * Submit @s on buffer @h of @fd as an asynchronous job with an out-syncobj
 * and wait for it: the file's traced job with a fence.
 */
static void ob_async_waited(struct __test_metadata *_metadata, int fd,
			    const struct vt_stream *s, __u32 h)
{
	struct va_sub j;
	__u32 out;

	out = va_syncobj(fd, false);
	ASSERT_NE(0, out);
	va_sub_init(&j, s, h, true, 0, 0);
	va_sub_out(&j, out, 0);
	ASSERT_EQ(0, va_sub_submit(fd, &j));
	ASSERT_EQ(0, va_wait_ms(fd, out, 0, 10000));
}

TEST(tracepoints)
{
	char record_cmd[2];
	struct va_blocker bl;
	struct vt_stream s;
	char f[256];
	const char *dir, *tr;
	long long client, client2;
	__u32 h, h2, in;
	struct va_sub j;
	int fd, fd2;

	dir = ob_tracefs();
	if (!dir)
		SKIP(return, "no tracefs with vatom events");
	VT_OPEN(fd);
	client = vt_fdinfo(fd, "drm-client-id");
	ASSERT_LT(0, client);
	ASSERT_EQ(0, vt_buffer_create(fd, 4096, &h));
	ASSERT_EQ(0, ob_trace_on(dir, record_cmd));

	/* A rejection: packet 1, vISA, reason op (5). */
	ob_bad_op_stream(&s);
	VT_EXPECT_ERRNO(EINVAL, vt_run(fd, &s, h, NULL, 0, NULL));

	/* An asynchronous job, the file's first: job 1, seqno 1. */
	va_stream(&s, DRM_VATOM_VISA_OP_ADD, 4, (const __u32[]){ 0, 4, 8, 12 },
		  (const __u32[]){ 1, 1, 1, 1 }, false);
	ob_async_waited(_metadata, fd, &s, h);

	/* A job cancelled by the closing of its file, waiting on vgem. */
	VT_OPEN(fd2);
	client2 = vt_fdinfo(fd2, "drm-client-id");
	ASSERT_EQ(0, vt_buffer_create(fd2, 4096, &h2));
	VA_BLOCKER(&bl, fd);
	in = va_blocker_syncobj(fd2, &bl);
	ASSERT_NE(0, in);
	va_sub_init(&j, &s, h2, true, 0, 0);
	va_sub_in(&j, in, 0);
	ASSERT_EQ(0, va_sub_submit(fd2, &j));
	close(fd2);
	va_blocker_fini(&bl);

	ASSERT_EQ(0, ob_trace_off(dir, record_cmd));
	tr = ob_trace(dir);

	snprintf(f, sizeof(f), "client=%lld error=-22 packet=1 family=visa reason=5 (op)",
		 client);
	EXPECT_TRUE(ob_traced(tr, "vatom_reject", f)) TH_LOG("%s\n%s", f, tr);
	/* 4 lanes, one 56-byte packet, one out-syncobj. */
	snprintf(f, sizeof(f), "client=%lld job=1 context=", client);
	EXPECT_NE(NULL, strstr(tr, f)) TH_LOG("%s", tr);
	snprintf(f, sizeof(f), " visa=1 ptx=0 noc=0 bytes=%u ops=4 async in=0 out=1\n",
		 s.size);
	EXPECT_NE(NULL, strstr(tr, f)) TH_LOG("%s", tr);
	snprintf(f, sizeof(f), "client=%lld job=1 seqno=1 ops=4", client);
	EXPECT_TRUE(ob_traced(tr, "vatom_job_start", f)) TH_LOG("%s", tr);
	snprintf(f, sizeof(f), "vatom_job_end: client=%lld job=1 seqno=1 elements=4 ns=",
		 client);
	EXPECT_NE(NULL, strstr(tr, f)) TH_LOG("%s", tr);
	snprintf(f, sizeof(f), "vatom_fence_signal: client=%lld job=1 context=", client);
	EXPECT_NE(NULL, strstr(tr, f)) TH_LOG("%s", tr);
	EXPECT_NE(NULL, strstr(tr, " seqno=1 error=0\n"));
	/* The cancelled job never started: a cancel, no start. */
	snprintf(f, sizeof(f), "vatom_fence_cancel: client=%lld job=1 context=", client2);
	EXPECT_NE(NULL, strstr(tr, f)) TH_LOG("%s", tr);
	EXPECT_NE(NULL, strstr(tr, " seqno=1 error=-125\n"));
	snprintf(f, sizeof(f), "vatom_job_start: client=%lld ", client2);
	EXPECT_EQ(NULL, strstr(tr, f));

	close(fd);
}

/* A counting perf event per CPU, for one vatom tracepoint. */
#define OB_PERF_CPUS	64

/*
 * Open a counting perf event on tracepoint vatom:@event on every CPU that
 * has one (jobs run in the scheduler's threads, not in this one), into
 * @fds (-1 where a CPU has none). Return: 0 or -errno.
 */
static int ob_perf_open(const char *dir, const char *event, int *fds)
{
	struct perf_event_attr attr;
	char path[192], id[32];
	int cpu, n = 0, ret;

	snprintf(path, sizeof(path), "%s/events/vatom/%s/id", dir, event);
	ret = vt_read_file(path, id, sizeof(id));
	if (ret)
		return ret;
	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = strtoull(id, NULL, 10);
	for (cpu = 0; cpu < OB_PERF_CPUS; cpu++) {
		fds[cpu] = syscall(__NR_perf_event_open, &attr, -1, cpu, -1,
				   PERF_FLAG_FD_CLOEXEC);
		if (fds[cpu] >= 0)
			n++;
		else if (errno != ENODEV && errno != EINVAL)
			return -errno;	/* not "no such CPU" */
	}
	return n ? 0 : -ENODEV;
}

/* The sum of @fds' counts, closing them. */
static __u64 ob_perf_count(int *fds)
{
	__u64 sum = 0, v;
	int cpu;

	for (cpu = 0; cpu < OB_PERF_CPUS; cpu++) {
		if (fds[cpu] < 0)
			continue;
		if (read(fds[cpu], &v, sizeof(v)) == sizeof(v))
			sum += v;
		close(fds[cpu]);
	}
	return sum;
}

/*
 * perf counts vatom's events, which reach it through each event's perf
 * handler rather than tracefs's: three synchronous jobs, two SUBMITs
 * refused and one asynchronous job whose out-fence is waited for.
 */
TEST(tracepoints_perf)
{
	static const struct {
		const char *event;
		__u64 count;
	} want[] = {
		{ "vatom_submit", 4 },		/* every job accepted */
		{ "vatom_reject", 2 },
		{ "vatom_job_start", 4 },
		{ "vatom_job_end", 4 },
		{ "vatom_fence_signal", 1 },	/* the one job with a fence */
		{ "vatom_fence_cancel", 0 },
		{ "vatom_queue_batch", 0 },
	};
	static int fds[VT_ARRAY_SIZE(want)][OB_PERF_CPUS];
	struct vt_stream s, bad;
	const char *dir;
	__u32 h;
	size_t i;
	int fd;

	dir = ob_tracefs();
	if (!dir)
		SKIP(return, "no tracefs with vatom events");
	VT_OPEN(fd);
	ASSERT_EQ(0, vt_buffer_create(fd, 4096, &h));
	for (i = 0; i < VT_ARRAY_SIZE(want); i++) {
		const char *event = want[i].event;

		ASSERT_EQ(0, ob_perf_open(dir, event, fds[i]))
			TH_LOG("perf_event_open on vatom:%s", event);
	}

	va_stream(&s, DRM_VATOM_VISA_OP_ADD, 4, (const __u32[]){ 0, 4, 8, 12 },
		  (const __u32[]){ 1, 1, 1, 1 }, false);
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, vt_run(fd, &s, h, NULL, 0, NULL));
	}
	ob_bad_op_stream(&bad);
	for (i = 0; i < 2; i++) {
		VT_EXPECT_ERRNO(EINVAL, vt_run(fd, &bad, h, NULL, 0, NULL));
	}
	ob_async_waited(_metadata, fd, &s, h);

	for (i = 0; i < VT_ARRAY_SIZE(want); i++) {
		const char *event = want[i].event;

		EXPECT_EQ(want[i].count, ob_perf_count(fds[i]))
			TH_LOG("vatom:%s", event);
	}
	close(fd);
}

/* The events tracepoint_triggers leaves off until a rejection is traced. */
static const char *const ob_soft_events[] = {
	"vatom_submit", "vatom_job_start", "vatom_job_end",
};

/*
 * Add (@on) or remove an "enable_event" trigger on vatom_reject for each
 * of ob_soft_events: 0 or the first -errno.
 */
static int ob_soft_triggers(const char *dir, bool on)
{
	char path[160], trigger[96];
	size_t i;
	int ret, first = 0;

	snprintf(path, sizeof(path), "%s/events/vatom/vatom_reject/trigger", dir);
	for (i = 0; i < VT_ARRAY_SIZE(ob_soft_events); i++) {
		snprintf(trigger, sizeof(trigger), "%senable_event:vatom:%s",
			 on ? "" : "!", ob_soft_events[i]);
		ret = vt_write_file(path, trigger);
		if (ret && !first)
			first = ret;
	}
	return first;
}

/*
 * vatom's events obey tracefs's event triggers and soft-disabled events:
 * with vatom_submit, vatom_job_start and vatom_job_end off but an
 * "enable_event" trigger for each on vatom_reject, a first synchronous
 * job leaves no submit, start or end, a rejected SUBMIT turns the three
 * on, and the second job's are all there.
 */
TEST(tracepoint_triggers)
{
	char record_cmd[2], f[256], path[160];
	struct vt_stream s, bad;
	const char *dir, *tr;
	long long client;
	size_t i;
	__u32 h;
	int fd;

	dir = ob_tracefs();
	if (!dir)
		SKIP(return, "no tracefs with vatom events");
	snprintf(path, sizeof(path), "%s/events/vatom/vatom_reject/trigger", dir);
	if (access(path, W_OK))
		SKIP(return, "no event triggers (CONFIG_EVENT_TRIGGERS)");
	VT_OPEN(fd);
	client = vt_fdinfo(fd, "drm-client-id");
	ASSERT_LT(0, client);
	ASSERT_EQ(0, vt_buffer_create(fd, 4096, &h));
	va_stream(&s, DRM_VATOM_VISA_OP_ADD, 4, (const __u32[]){ 0, 4, 8, 12 },
		  (const __u32[]){ 1, 1, 1, 1 }, false);
	ob_bad_op_stream(&bad);

	ASSERT_EQ(0, ob_trace_on(dir, record_cmd));
	for (i = 0; i < VT_ARRAY_SIZE(ob_soft_events); i++) {
		snprintf(path, sizeof(path), "events/vatom/%s/enable",
			 ob_soft_events[i]);
		EXPECT_EQ(0, ob_write(dir, path, "0"));
	}
	EXPECT_EQ(0, ob_soft_triggers(dir, true));
	/* Until removed, each target stays soft-disabled or soft-enabled. */
	EXPECT_EQ(0, vt_run(fd, &s, h, NULL, 0, NULL));		/* job 1 */
	VT_EXPECT_ERRNO(EINVAL, vt_run(fd, &bad, h, NULL, 0, NULL));
	EXPECT_EQ(0, vt_run(fd, &s, h, NULL, 0, NULL));		/* job 2 */
	EXPECT_EQ(0, ob_soft_triggers(dir, false));
	ASSERT_EQ(0, ob_trace_off(dir, record_cmd));
	tr = ob_trace(dir);

	snprintf(f, sizeof(f), "client=%lld error=-22 packet=1 family=visa reason=5 (op)",
		 client);
	EXPECT_TRUE(ob_traced(tr, "vatom_reject", f)) TH_LOG("%s", tr);
	for (i = 0; i < VT_ARRAY_SIZE(ob_soft_events); i++) {
		snprintf(f, sizeof(f), "%s: client=%lld job=1 ", ob_soft_events[i],
			 client);
		EXPECT_EQ(NULL, strstr(tr, f)) TH_LOG("%s\n%s", f, tr);
		snprintf(f, sizeof(f), "%s: client=%lld job=2 ", ob_soft_events[i],
			 client);
		EXPECT_NE(NULL, strstr(tr, f)) TH_LOG("%s\n%s", f, tr);
	}
	close(fd);
}

/*
 * A kick-mode queue's batch of three jobs, the second with a malformed
 * descriptor: one vatom_queue_batch line, 2 x 4 lanes executed.
 */
TEST(tracepoint_queue_batch)
{
	char record_cmd[2];
	const __u32 spoil[3] = { 0, 1, 0 };	/* descriptor flags: MBZ */
	struct drm_vatom_binding bind[2];
	struct drm_vatom_queue_create qc = { .entries = 4 };
	struct drm_vatom_queue_kick kick = { 0 };
	struct drm_vatom_queue_job *ring;
	struct drm_vatom_queue_ctl *ctl;
	__u32 th, sh, *target, i;
	const char *dir, *tr;
	struct vt_stream s;
	long long client;
	char *streams;
	char f[256];
	int fd;

	dir = ob_tracefs();
	if (!dir)
		SKIP(return, "no tracefs with vatom events");
	VT_OPEN(fd);
	client = vt_fdinfo(fd, "drm-client-id");
	ASSERT_LT(0, client);
	ASSERT_EQ(0, vt_buffer_create(fd, 4096, &th));
	ASSERT_EQ(0, vt_buffer_create(fd, 4096, &sh));
	target = vt_map(fd, th, 4096);
	streams = vt_map(fd, sh, 4096);
	ASSERT_NE(NULL, target);
	ASSERT_NE(NULL, streams);
	bind[0] = (struct drm_vatom_binding){ .slot = 0, .handle = th };
	bind[1] = (struct drm_vatom_binding){ .slot = 1, .handle = sh };
	qc.bindings = vt_u64_ptr(bind);
	qc.binding_count = 2;
	ASSERT_EQ(0, ioctl(fd, DRM_IOCTL_VATOM_QUEUE_CREATE, &qc));
	ring = vt_map(fd, qc.ring_handle, VT_PAGE_SIZE);
	ctl = vt_map(fd, qc.ctl_handle, VT_PAGE_SIZE);
	ASSERT_NE(NULL, ring);
	ASSERT_NE(NULL, ctl);

	va_stream(&s, DRM_VATOM_VISA_OP_ADD, 4, (const __u32[]){ 0, 4, 8, 12 },
		  (const __u32[]){ 1, 1, 1, 1 }, false);
	memcpy(streams, s.buf, s.size);
	for (i = 0; i < 3; i++) {
		ring[i].stream_slot = 1;
		ring[i].stream_size = s.size;
		ring[i].flags = spoil[i];
	}
	__atomic_store_n(&ctl->tail, 3, __ATOMIC_RELEASE);

	ASSERT_EQ(0, ob_trace_on(dir, record_cmd));
	kick.queue_id = qc.queue_id;
	ASSERT_EQ(0, ioctl(fd, DRM_IOCTL_VATOM_QUEUE_KICK, &kick));
	ASSERT_EQ(0, ob_trace_off(dir, record_cmd));
	tr = ob_trace(dir);

	EXPECT_EQ(3, ctl->completed);
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(2, target[i]);
	}
	snprintf(f, sizeof(f),
		 "vatom_queue_batch: client=%lld queue=%u first=1 jobs=3 failed=1 elements=8 ns=",
		 client, qc.queue_id);
	EXPECT_NE(NULL, strstr(tr, f)) TH_LOG("%s", tr);
	EXPECT_NE(NULL, strstr(tr, " kick\n")) TH_LOG("%s", tr);
	close(fd);
}
