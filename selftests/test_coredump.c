// SPDX-License-Identifier: GPL-2.0
/*
 * Devcoredumps (docs/robustness.md, "Reading a hang"): a job that times
 * out or faults leaves /sys/class/devcoredump/devcdN, its failing_device
 * vatom.N, whatever door it came through. The tests check the dump's
 * fields against what they submitted themselves: the stream's bytes, the
 * binding table, and how many packets completed, which they also read
 * off the surface the job left.
 *
 * Timeouts, on every kernel: CD_SLOW broadcasts on the 64 x 64 grid, each
 * adding 1 to every tile's word 0, stopped by a 100 ms job timeout; the
 * grid's common count is the packets that completed. Faults, on the
 * debug kernels (injected): CD_PACKETS adds, packet i to word i, of which
 * the first half run. The class needs CONFIG_DEV_COREDUMP, the module
 * parameters root; a test without either skips.
 *
 * Expected values: the bytes the test built, the counts it reads back,
 * and the format's own text (VATOM_COREDUMP_VERSION 1).
 */

/* Broadcasts of a slow job: 4M element operations, seconds under TCG. */
#define CD_SLOW		1024
#define CD_PACKETS	4

/* How the job under test arrives. */
enum cd_door { CD_SYNC, CD_ASYNC, CD_KICK, CD_POLL };

static const char *const cd_door_names[] = { "sync", "async", "kick", "poll" };

/* A case: the door, and a fault injected (else a slow job timing out). */
struct cd_case {
	enum cd_door door;
	bool fault;
};

/* The fixture's state: one file, its job's surfaces, what it submitted. */
struct cd_fix {
	int fd;
	__u32 target;		/* the grid (slow jobs), or a buffer */
	__u8 *map;		/* its mapping */
	size_t map_len;
	struct qp_env env;	/* the queue (queue doors) */
	struct vt_stream s;	/* a fault's job */
	struct drm_vatom_noc *slow;	/* a slow job's broadcasts */
	unsigned int old_timeout;
	bool swapped, armed, skip;
};

/* The job's stream: its bytes and size. */
static const void *cd_stream(const struct cd_fix *f, const struct cd_case *c,
			     __u32 *size)
{
	if (c->fault) {
		*size = f->s.size;
		return f->s.buf;
	}
	*size = CD_SLOW * sizeof(*f->slow);
	return f->slow;
}

/*
 * Run the job through its door, in this thread; return its error (0 or
 * -errno) as the door reports it.
 */
static int cd_run(struct cd_fix *f, const struct cd_case *c)
{
	struct drm_vatom_sync out = { 0 };
	struct drm_vatom_binding bind = { .handle = f->target };
	struct drm_vatom_submit args;
	__u32 syncobj, size;
	const void *stream = cd_stream(f, c, &size);
	struct drm_vatom_queue_job *j;
	int ret, st;

	if (c->door == CD_KICK || c->door == CD_POLL) {
		j = vq_next(&f->env.q);
		memset(j, 0, sizeof(*j));
		memcpy(f->env.streams, stream, size);
		j->stream_slot = VQ_SLOT_STREAM;
		j->stream_size = size;
		j->status = QP_UNTOUCHED;
		qp_publish(&f->env.q, 1);
		if (c->door == CD_KICK)
			vq_kick(f->fd, f->env.q.id);
		if (!qp_wait_completed(&f->env.q, 1, 60000))
			return -EBUSY;
		return f->env.q.ring[0].status;
	}
	memset(&args, 0, sizeof(args));
	args.stream = vt_u64_ptr(stream);
	args.stream_size = size;
	args.bindings = vt_u64_ptr(&bind);
	args.binding_count = 1;
	if (c->door == CD_SYNC)
		return vt_submit(f->fd, &args) ? -errno : 0;
	if (drmSyncobjCreate(f->fd, 0, &syncobj))
		return -errno;
	out.handle = syncobj;
	args.out_syncs = vt_u64_ptr(&out);
	args.out_sync_count = 1;
	args.flags = DRM_VATOM_SUBMIT_ASYNC;
	ret = vt_submit(f->fd, &args) ? -errno : 0;
	if (!ret) {
		va_wait_ms(f->fd, syncobj, 0, 60000);
		st = va_status(f->fd, syncobj);
		ret = st == 1 ? 0 : st;
	}
	drmSyncobjDestroy(f->fd, syncobj);
	return ret;
}

/*
 * Set up case @c: the parameters (dumps on, room for the whole grid; the
 * timeout), the fault disarmed, the file, its surface and queue, no dump
 * left from before. A case this boot cannot run skips with f->skip true.
 */
static void cd_setup(struct __test_metadata *_metadata, struct cd_fix *f,
		     const struct cd_case *c)
{
	static const struct qp_mode poll = { .flags = QP_POLL, .idle_us = QP_IDLE_MAX };
	static const struct qp_mode kick;
	const __u32 one = 1;
	struct vt_visa v;
	__u32 addr, i;
	int ret;

	memset(f, 0, sizeof(*f));
	f->skip = true;
	f->fd = -1;
	if (access(CD_CLASS, F_OK))
		SKIP(return, "no devcoredump (CONFIG_DEV_COREDUMP)");
	ret = va_job_timeout_swap(c->fault ? 10000 : 100, &f->old_timeout);
	if (ret == -EACCES || ret == -EPERM)
		SKIP(return, "cannot set job_timeout_ms (not root)");
	ASSERT_EQ(0, ret);
	f->swapped = true;
	ASSERT_EQ(0, cd_param("coredump", 1));
	ASSERT_EQ(0, cd_param("coredump_max_kb", 4096));
	if (c->fault && vt_fault_quiet("fail_job", 0))
		SKIP(return, "no fault injection (CONFIG_FAULT_INJECTION_DEBUG_FS)");
	f->armed = c->fault;

	f->fd = vt_open();
	ASSERT_LE(0, f->fd);
	if (c->door == CD_POLL && !qp_supported(f->fd))
		SKIP(return, "no polling queues");
	if (c->fault) {
		f->map_len = VT_PAGE_SIZE;
		ASSERT_EQ(0, vt_buffer_create(f->fd, f->map_len, &f->target));
		vt_stream_init(&f->s);
		for (i = 0; i < CD_PACKETS; i++) {
			addr = 4 * i;
			vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_1,
				 DRM_VATOM_VISA_TYPE_UD, &addr, &one, NULL, false);
			v.surface = VQ_SLOT_TARGET;
			vt_add_visa(&f->s, &v);
		}
	} else {
		f->map_len = AB_GRID_SIZE;
		ASSERT_EQ(0, ab_grid_create(f->fd, &f->target, NULL));
		f->slow = ab_broadcasts(CD_SLOW);
		ASSERT_NE(NULL, f->slow);
	}
	f->map = vt_map(f->fd, f->target, f->map_len);
	ASSERT_NE(NULL, f->map);
	if (c->door == CD_KICK || c->door == CD_POLL)
		ASSERT_EQ(0, qp_env_init(&f->env, f->fd, 8, f->target,
					 c->door == CD_POLL ? &poll : &kick));
	ASSERT_TRUE(cd_clear());
	f->skip = false;
}

static void cd_teardown(struct cd_fix *f)
{
	if (f->armed)
		vt_fault_quiet("fail_job", 0);
	if (f->swapped)
		vt_job_timeout_set(f->old_timeout);
	cd_param("coredump", 1);
	cd_param("coredump_max_kb", 1024);
	if (f->map)
		munmap(f->map, f->map_len);
	free(f->slow);
	if (f->fd >= 0)
		close(f->fd);
}

/* Packets the job completed, read off its surface; -1 if inconsistent. */
static long cd_completed(const struct cd_fix *f, const struct cd_case *c,
			 const __u8 *map)
{
	__u32 w[CD_PACKETS];
	long n = 0;
	int i;

	if (!c->fault)
		return ab_common_count(map);
	memcpy(w, map, sizeof(w));
	for (i = 0; i < CD_PACKETS; i++) {
		if (w[i] > 1 || (i && w[i] > w[i - 1]))
			return -1;	/* not a prefix of whole packets */
		n += w[i];
	}
	return n;
}

FIXTURE(coredump) {
	struct cd_fix f;
};

FIXTURE_VARIANT(coredump) {
	struct cd_case c;
};

FIXTURE_VARIANT_ADD(coredump, timeout_sync) { { CD_SYNC, false } };
FIXTURE_VARIANT_ADD(coredump, timeout_async) { { CD_ASYNC, false } };
FIXTURE_VARIANT_ADD(coredump, timeout_kick) { { CD_KICK, false } };
FIXTURE_VARIANT_ADD(coredump, timeout_poll) { { CD_POLL, false } };
FIXTURE_VARIANT_ADD(coredump, fault_sync) { { CD_SYNC, true } };
FIXTURE_VARIANT_ADD(coredump, fault_async) { { CD_ASYNC, true } };
FIXTURE_VARIANT_ADD(coredump, fault_kick) { { CD_KICK, true } };
FIXTURE_VARIANT_ADD(coredump, fault_poll) { { CD_POLL, true } };

FIXTURE_SETUP(coredump)
{
	cd_setup(_metadata, &self->f, &variant->c);
}

FIXTURE_TEARDOWN(coredump)
{
	cd_teardown(&self->f);
}

/*
 * The job times out or faults: one dump, whose every field is what the
 * test submitted, and whose progress is what the surface shows.
 */
TEST_F_TIMEOUT(coredump, fields, 120)
{
	const struct cd_case *c = &variant->c;
	struct cd_fix *f = &self->f;
	bool queue = c->door == CD_KICK || c->door == CD_POLL;
	const char *fam = c->fault ? "visa" : "noc";
	__u32 size, psize, nbind = queue ? 3 : 1;
	long done, n, ops = c->fault ? 1 : AB_TILES;
	char val[512], want[128];
	const void *stream;
	__u8 *bytes;
	char *text;
	int err;

	if (f->skip)
		return;
	stream = cd_stream(f, c, &size);
	psize = size / (c->fault ? CD_PACKETS : CD_SLOW);
	if (c->fault)
		ASSERT_EQ(0, vt_fault_quiet("fail_job", 1));
	err = cd_run(f, c);
	if (!c->fault && !err)
		SKIP(return, "the slow job completed within 100 ms");
	ASSERT_EQ(c->fault ? -EIO : -ETIMEDOUT, err);
	done = cd_completed(f, c, f->map);
	ASSERT_LE(0, done);
	if (c->fault)
		ASSERT_EQ(CD_PACKETS / 2, done);

	text = cd_take(CD_WAIT_MS, false);
	ASSERT_NE(NULL, text) TH_LOG("no devcoredump of vatom within %d ms", CD_WAIT_MS);
	EXPECT_EQ(0, strncmp(text, "vatom devcoredump\n", 18));
	EXPECT_EQ(1, cd_num(text, "version"));
	ASSERT_NE(NULL, cd_line(text, "device", NULL, val, sizeof(val)));
	EXPECT_EQ(0, strncmp(val, "vatom.", 6));
	EXPECT_EQ(vt_fdinfo(f->fd, "drm-client-id"), cd_num(text, "client"));
	EXPECT_EQ(getpid(), cd_num(text, "pid"));
	ASSERT_NE(NULL, cd_line(text, "door", NULL, val, sizeof(val)));
	EXPECT_STREQ(cd_door_names[c->door], val);
	ASSERT_NE(NULL, cd_line(text, "reason", NULL, val, sizeof(val)));
	EXPECT_STREQ(c->fault ? "fault" : "timeout", val);
	EXPECT_EQ(err, cd_num(text, "error"));
	EXPECT_EQ(c->fault ? 10000 : 100, cd_num(text, "timeout_ms"));
	ASSERT_NE(NULL, cd_line(text, "fault", NULL, val, sizeof(val)));
	EXPECT_STREQ(c->fault ? "engine" : "none", val);
	/* A SUBMIT is its file's first; a queue's job has no number. */
	EXPECT_EQ(queue ? 0 : 1, cd_num(text, "job"));

	/* How far it got: what the surface shows. */
	EXPECT_EQ(size / psize, cd_num(text, "packets"));
	EXPECT_EQ(done, cd_num(text, "completed"));
	EXPECT_EQ(done, cd_num(text, "stop_index"));
	EXPECT_EQ(done * psize, cd_num(text, "stop_offset"));
	snprintf(want, sizeof(want), "family=%s ", fam);
	ASSERT_NE(NULL, cd_line(text, "counters", want, val, sizeof(val)));
	snprintf(want, sizeof(want), "family=%s packets=%ld elements=%ld",
		 fam, done, done * ops);
	EXPECT_STREQ(want, val);

	/* The stream, byte for byte. */
	n = cd_blob(text, "stream", NULL, &bytes);
	ASSERT_EQ((long)size, n);
	EXPECT_EQ(0, memcmp(bytes, stream, size));
	free(bytes);

	/* The binding table; the target surface as the job left it. */
	EXPECT_EQ(nbind, cd_num(text, "bindings"));
	ASSERT_NE(NULL, cd_line(text, "binding", "slot=0 ", val, sizeof(val)));
	snprintf(want, sizeof(want), "slot=0 handle=%u kind=%s size=%zu",
		 f->target, c->fault ? "buffer" : "tile_grid", f->map_len);
	EXPECT_EQ(0, strncmp(val, want, strlen(want))) TH_LOG("%s", val);
	if (!c->fault)
		EXPECT_NE(NULL, strstr(val, " profile=1 width=64 height=64 "));
	if (queue) {
		snprintf(want, sizeof(want), "slot=1 handle=%u kind=buffer size=%zu",
			 f->env.sh, f->env.slen);
		ASSERT_NE(NULL, cd_line(text, "binding", "slot=1 ", val, sizeof(val)));
		EXPECT_STREQ(want, val);
	}
	n = cd_blob(text, "surface", " slot=0 ", &bytes);
	ASSERT_EQ((long)f->map_len, n);
	EXPECT_EQ(done, cd_completed(f, c, bytes));
	free(bytes);
	EXPECT_EQ(NULL, cd_line(text, "results", NULL, NULL, 0));
	EXPECT_NE(NULL, strstr(text, "\nend\n"));
	free(text);

	/* One dump: the one read, and it goes once deleted. */
	EXPECT_TRUE(cd_gone(CD_WAIT_MS));
}

FIXTURE(coredump_replay) {
	struct cd_fix f;
};

FIXTURE_VARIANT(coredump_replay) {
	struct cd_case c;
};

FIXTURE_VARIANT_ADD(coredump_replay, timeout) { { CD_SYNC, false } };
FIXTURE_VARIANT_ADD(coredump_replay, fault) { { CD_SYNC, true } };

FIXTURE_SETUP(coredump_replay)
{
	cd_setup(_metadata, &self->f, &variant->c);
}

FIXTURE_TEARDOWN(coredump_replay)
{
	cd_teardown(&self->f);
}

/*
 * The round trip: a job's dump, replayed by `vatom replay` with a long
 * timeout, leaves the surface as the whole job leaves it run at once on a
 * fresh one: every packet run once (a slow job's every tile at CD_SLOW,
 * a faulted job's CD_PACKETS words at 1). The replay injects no fault.
 */
TEST_F_TIMEOUT(coredump_replay, round_trip, 300)
{
	const struct cd_case *c = &variant->c;
	long all = c->fault ? CD_PACKETS : CD_SLOW;
	char tool[600], dump[] = "/tmp/vatom-replay-XXXXXX", dir[64], out[128];
	struct drm_vatom_reset_status st = { .flags = DRM_VATOM_RESET_ACK };
	struct cd_fix *f = &self->f;
	__u8 *want, *got;
	size_t len;
	pid_t pid;
	char *text;
	int fd, status;

	if (f->skip)
		return;
	ASSERT_TRUE(cd_tool(tool, sizeof(tool)))
		TH_LOG("no vatom tool: build tools/, or install vatom-tools");
	if (c->fault)
		ASSERT_EQ(0, vt_fault_quiet("fail_job", 1));
	if (!cd_run(f, c))
		SKIP(return, "the slow job completed within 100 ms");
	ASSERT_GT(all, cd_completed(f, c, f->map));
	text = cd_take(CD_WAIT_MS, false);
	ASSERT_NE(NULL, text);
	fd = mkstemp(dump);
	ASSERT_LE(0, fd);
	len = strlen(text);
	ASSERT_EQ((ssize_t)len, write(fd, text, len));
	close(fd);
	free(text);

	/* The whole job at once, on a fresh surface of the same file. */
	ASSERT_EQ(0, ioctl(f->fd, DRM_IOCTL_VATOM_RESET_STATUS, &st));
	ASSERT_EQ(0, vt_job_timeout_set(60000));
	munmap(f->map, f->map_len);
	f->map = NULL;
	if (c->fault) {
		ASSERT_EQ(0, vt_buffer_create(f->fd, f->map_len, &f->target));
	} else {
		ASSERT_EQ(0, ab_grid_create(f->fd, &f->target, NULL));
	}
	ASSERT_EQ(0, cd_run(f, c));
	want = vt_map(f->fd, f->target, f->map_len);
	ASSERT_NE(NULL, want);
	EXPECT_EQ(all, cd_completed(f, c, want));

	snprintf(dir, sizeof(dir), "%s.d", dump);
	ASSERT_EQ(0, mkdir(dir, 0700));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		/* Its report would interleave with this program's TAP. */
		dup2(open("/dev/null", O_WRONLY), 1);
		execl(tool, tool, "replay", "-t", "60000", "-o", dir, dump, (char *)NULL);
		_exit(127);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	snprintf(out, sizeof(out), "%s/slot0.bin", dir);
	fd = open(out, O_RDONLY);
	ASSERT_LE(0, fd);
	got = malloc(f->map_len);
	ASSERT_NE(NULL, got);
	EXPECT_EQ((ssize_t)f->map_len, read(fd, got, f->map_len));
	close(fd);
	EXPECT_EQ(all, cd_completed(f, c, got));
	EXPECT_EQ(0, memcmp(want, got, f->map_len));
	free(got);
	munmap(want, f->map_len);
	unlink(out);
	rmdir(dir);
	unlink(dump);
}

/* A case of the dumps' switches: what is set, and what must come of it. */
FIXTURE(coredump_switch) {
	struct cd_fix f;
};

FIXTURE_VARIANT(coredump_switch) {
	struct cd_case c;
	bool off;		/* coredump=0: no dump */
	unsigned int max_kb;	/* coredump_max_kb */
	bool child;		/* the job's process has exited when it is read */
	bool keep;		/* left unread: the boot unloads the module after */
};

FIXTURE_VARIANT_ADD(coredump_switch, off) { { CD_SYNC, false }, true, 4096 };
FIXTURE_VARIANT_ADD(coredump_switch, cap) { { CD_SYNC, false }, false, 1 };
FIXTURE_VARIANT_ADD(coredump_switch, after_exit) {
	{ CD_SYNC, false }, false, 4096, true };
FIXTURE_VARIANT_ADD(coredump_switch, left_unread) {
	{ CD_SYNC, false }, false, 4096, false, true };

FIXTURE_SETUP(coredump_switch)
{
	cd_setup(_metadata, &self->f, &variant->c);
}

FIXTURE_TEARDOWN(coredump_switch)
{
	cd_teardown(&self->f);
}

/*
 * Off: a guilty reset, and no dump. Capped: the stream cut at the cap,
 * no surface bytes, the sizes whole. After exit: read once its process
 * is gone, with that process's pid. An innocent file never has a dump.
 */
TEST_F_TIMEOUT(coredump_switch, switches, 120)
{
	struct cd_fix *f = &self->f;
	__u32 size = CD_SLOW * sizeof(*f->slow);
	__u32 hb, *wb;
	int b, err, status;
	const char *line;
	pid_t pid = getpid();
	__u8 *bytes;
	char *text;
	long n;

	if (f->skip)
		return;
	b = vt_open();
	ASSERT_LE(0, b);
	VT_BUFFER(b, VT_PAGE_SIZE, hb, wb);
	ASSERT_EQ(0, cd_param("coredump", !variant->off));
	ASSERT_EQ(0, cd_param("coredump_max_kb", variant->max_kb));
	if (variant->child) {
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid)
			_exit(cd_run(f, &variant->c) == -ETIMEDOUT ? 0 : 1);
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		if (WEXITSTATUS(status))
			SKIP(return, "the slow job did not time out");
		close(f->fd);	/* the job's file is gone too */
		f->fd = -1;
	} else {
		err = cd_run(f, &variant->c);
		if (!err)
			SKIP(return, "the slow job completed within 100 ms");
		ASSERT_EQ(-ETIMEDOUT, err);
	}
	/* The innocent file works meanwhile; its jobs leave nothing. */
	ASSERT_EQ(0, va_add(b, hb, 0, 1, false, 0, 0));
	EXPECT_EQ(1, wb[0]);
	munmap(wb, VT_PAGE_SIZE);
	close(b);

	text = cd_take(variant->off ? 1000 : CD_WAIT_MS, variant->keep);
	if (variant->off) {
		EXPECT_EQ(NULL, text);
		free(text);
		return;
	}
	ASSERT_NE(NULL, text);
	EXPECT_EQ(pid, cd_num(text, "pid"));
	line = cd_line(text, "stream", NULL, NULL, 0);
	ASSERT_NE(NULL, line);
	EXPECT_EQ(size, cd_tok(line, "size"));
	n = cd_blob(text, "stream", NULL, &bytes);
	if (variant->max_kb * 1024 < size) {
		EXPECT_EQ(variant->max_kb * 1024, n);
		EXPECT_EQ(0, memcmp(bytes, f->slow, n));
		line = cd_line(text, "surface", " slot=0 ", NULL, 0);
		ASSERT_NE(NULL, line);
		EXPECT_EQ(AB_GRID_SIZE, cd_tok(line, "size"));
		EXPECT_EQ(0, cd_tok(line, "captured"));
	} else {
		EXPECT_EQ(size, n);
	}
	free(bytes);
	free(text);
	/* Deleted, it goes; the innocent file left none. Unread, it stays. */
	if (variant->keep) {
		EXPECT_EQ(1, cd_scan(NULL, 0, false));
	} else {
		EXPECT_TRUE(cd_gone(CD_WAIT_MS));
	}
}
