// SPDX-License-Identifier: GPL-2.0
/*
 * Observability (va_* helpers from queue_common.c): fdinfo's
 * usage keys after known work, debugfs's clients, and the debug message a
 * rejection logs with drm.debug's DRIVER category on; the tracepoints
 * follow in test_observe_trace.c. Expected values come from the work
 * done, not from the driver.
 */

#include "queue_common.h"

/* Is "@key:\t@text" a line of @fd's fdinfo? */
static bool ob_fdinfo_is(int fd, const char *key, const char *text)
{
	char line[256];
	const char *t = vt_fdinfo_text(fd, key, line, sizeof(line));

	return t && !strcmp(t, text);
}

/*
 * Bytes of a memory key of @fd's fdinfo, whose size is in the largest
 * unit that divides it ("12 KiB", "2 MiB", "0"); -1 when the key is
 * absent, as newer kernels leave out drm-resident-memory while no object
 * is resident; -2 for an unknown unit.
 */
static long long ob_fdinfo_bytes(int fd, const char *key)
{
	static const char *const units[] = { "", " KiB", " MiB", " GiB" };
	const char *t;
	char line[256], *end;
	long long v;
	size_t u;

	t = vt_fdinfo_text(fd, key, line, sizeof(line));
	if (!t)
		return -1;
	v = strtoll(t, &end, 10);
	for (u = 0; u < VT_ARRAY_SIZE(units); u++)
		if (!strcmp(end, units[u]))
			return v << (10 * u);
	return -2;
}

/* A vISA ADD with a reserved Op at packet 1 of @s: DRM_VATOM_ERR_OP. */
static void ob_bad_op_stream(struct vt_stream *s)
{
	const __u32 addr = 0, val = 1;
	struct drm_vatom_visa *p;
	struct vt_visa v;

	vt_stream_init(s);
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_1,
		 DRM_VATOM_VISA_TYPE_UD, &addr, &val, NULL, false);
	vt_add_visa(s, &v);
	p = vt_add_visa(s, &v);
	p->op = 0x1f;	/* reserved */
}

TEST(fdinfo_usage)
{
	const __u32 addr = 0, val = 1;
	long long busy, prev;
	long long resident;
	struct vt_stream s;
	__u32 h, h2, h3;
	int fd, fd2, i;

	VT_OPEN(fd);
	VT_SKIP_ON_SHIM("no fdinfo");
	EXPECT_TRUE(ob_fdinfo_is(fd, "drm-driver", "vatom"));
	EXPECT_LT(0, vt_fdinfo(fd, "drm-client-id"));
	EXPECT_EQ(0, vt_fdinfo(fd, "vatom-jobs-submitted"));

	ASSERT_EQ(0, vt_buffer_create(fd, 8192, &h));
	ASSERT_EQ(0, vt_buffer_create(fd, 4096, &h2));
	/* Handles, no pages yet: a zero, or no line at all. */
	EXPECT_TRUE(ob_fdinfo_is(fd, "drm-total-memory", "12 KiB"));
	resident = ob_fdinfo_bytes(fd, "drm-resident-memory");
	EXPECT_TRUE(resident == 0 || resident == -1) TH_LOG("%lld", resident);

	va_stream(&s, DRM_VATOM_VISA_OP_ADD, 1, &addr, &val, false);
	/*
	 * One element per job, too short for a coarse clock: each job still
	 * adds to the family's busy time (at least 1 ns), so the time after
	 * n jobs is at least n and grows with every job.
	 */
	busy = 0;
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, vt_run(fd, &s, h, NULL, 0, NULL));
		prev = busy;
		busy = vt_fdinfo(fd, "drm-engine-visa");
		EXPECT_LT(prev, busy);
		EXPECT_LE(i + 1, busy);
	}
	ob_bad_op_stream(&s);
	VT_EXPECT_ERRNO(EINVAL, vt_run(fd, &s, h, NULL, 0, NULL));

	EXPECT_EQ(3, vt_fdinfo(fd, "vatom-jobs-submitted"));
	EXPECT_EQ(3, vt_fdinfo(fd, "vatom-jobs-completed"));
	EXPECT_EQ(1, vt_fdinfo(fd, "vatom-jobs-rejected"));
	/* Bound once: its pages exist now; the other has none. */
	EXPECT_EQ(12 << 10, ob_fdinfo_bytes(fd, "drm-total-memory"));
	EXPECT_EQ(8 << 10, ob_fdinfo_bytes(fd, "drm-resident-memory"));
	EXPECT_TRUE(ob_fdinfo_is(fd, "drm-shared-memory", "0"));
	EXPECT_EQ(busy, vt_fdinfo(fd, "drm-engine-visa"));
	EXPECT_EQ(0, vt_fdinfo(fd, "drm-engine-ptx"));
	EXPECT_EQ(0, vt_fdinfo(fd, "drm-engine-noc"));
	/* 12 KiB of surfaces, at least; the kept stream buffer too. */
	EXPECT_LE(12, vt_fdinfo(fd, "vatom-memory-charged"));

	/* The same buffer in a second file: shared, in both. */
	VT_OPEN(fd2);
	ASSERT_EQ(0, vt_prime_share(fd, h2, fd2, &h3));
	EXPECT_EQ(4 << 10, ob_fdinfo_bytes(fd, "drm-shared-memory"));
	EXPECT_TRUE(ob_fdinfo_is(fd2, "drm-shared-memory", "4 KiB"));
	/* 2 MiB more: the largest unit that divides the total. */
	ASSERT_EQ(0, vt_buffer_create(fd2, 2 << 20, &h3));
	EXPECT_TRUE(ob_fdinfo_is(fd2, "drm-total-memory", "2052 KiB"));
	close(fd2);
	VT_OPEN(fd2);
	ASSERT_EQ(0, vt_buffer_create(fd2, 2 << 20, &h3));
	EXPECT_TRUE(ob_fdinfo_is(fd2, "drm-total-memory", "2 MiB"));
	close(fd2);
	close(fd);
}

/*
 * The row of @client in the vatom_clients file at @path: client, pid,
 * jobs in flight, KiB charged, handles, submitted, completed, rejected.
 * Return: true when found, with @row filled.
 */
static bool ob_client_row(const char *path, long long client,
			  long long row[8])
{
	char line[256];
	bool found = false;
	FILE *f = fopen(path, "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%lld %lld %lld %lld %lld %lld %lld %lld",
			       &row[0], &row[1], &row[2], &row[3], &row[4],
			       &row[5], &row[6], &row[7]) == 8 &&
			row[0] == client;
	fclose(f);
	return found;
}

/*
 * debugfs' vatom_clients: a row per open file of the device, with what
 * that file did (its fdinfo says the same: fdinfo_usage), gone with it.
 */
TEST(debugfs_clients)
{
	const __u32 addr = 0, val = 1;
	long long row[8], id, id2;
	char path[VT_PATH_MAX * 2];
	struct vt_stream s;
	__u32 h, h2;
	int fd, fd2, i;

	VT_OPEN(fd);
	if (!vt_debugfs_file_path(vt_render_path, "vatom_clients", path,
				  sizeof(path)))
		SKIP(close(fd); return, "no debugfs (not root?)");
	VT_OPEN(fd2);
	id = vt_fdinfo(fd, "drm-client-id");
	id2 = vt_fdinfo(fd2, "drm-client-id");
	ASSERT_LT(0, id);
	ASSERT_LT(0, id2);

	ASSERT_EQ(0, vt_buffer_create(fd, 8192, &h));
	ASSERT_EQ(0, vt_buffer_create(fd, 4096, &h2));
	ASSERT_EQ(0, vt_buffer_create(fd2, 4096, &h2));
	va_stream(&s, DRM_VATOM_VISA_OP_ADD, 1, &addr, &val, false);
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, vt_run(fd, &s, h, NULL, 0, NULL));
	}
	ob_bad_op_stream(&s);
	VT_EXPECT_ERRNO(EINVAL, vt_run(fd, &s, h, NULL, 0, NULL));

	ASSERT_TRUE(ob_client_row(path, id, row));
	EXPECT_EQ(getpid(), row[1]);
	EXPECT_EQ(0, row[2]);		/* nothing in flight */
	EXPECT_LE(12, row[3]);		/* 12 KiB of buffers, at least */
	EXPECT_EQ(2, row[4]);
	EXPECT_EQ(3, row[5]);
	EXPECT_EQ(3, row[6]);
	EXPECT_EQ(1, row[7]);

	ASSERT_TRUE(ob_client_row(path, id2, row));
	EXPECT_EQ(getpid(), row[1]);
	EXPECT_LE(4, row[3]);
	EXPECT_EQ(1, row[4]);
	EXPECT_EQ(0, row[5]);
	EXPECT_EQ(0, row[7]);

	close(fd2);
	EXPECT_FALSE(ob_client_row(path, id2, row));
	EXPECT_TRUE(ob_client_row(path, id, row));
	close(fd);
}

struct ob_kmsg_find {
	const char *text;
	bool found;
};

static void ob_kmsg_fn(long long seq, const char *text, void *arg)
{
	struct ob_kmsg_find *k = arg;

	if (strstr(text, k->text))
		k->found = true;
}

TEST(rejection_debug_message)
{
	static const char param[] = "/sys/module/drm/parameters/debug";
	struct ob_kmsg_find k;
	char old[32] = "", want[160];
	struct vt_stream s;
	long long client;
	ssize_t n;
	__u32 h;
	int fd, pfd;

	pfd = open(param, O_RDWR | O_CLOEXEC);
	if (pfd < 0)
		SKIP(return, "no %s", param);
	n = read(pfd, old, sizeof(old) - 1);
	ASSERT_LT(0, n);
	old[n] = '\0';
	VT_OPEN(fd);
	client = vt_fdinfo(fd, "drm-client-id");
	ASSERT_EQ(0, vt_buffer_create(fd, 4096, &h));
	ob_bad_op_stream(&s);

	/* Off by default: nothing logged. */
	snprintf(want, sizeof(want),
		 "client %lld: rejected (-22): packet 1, type 1, reason 5 (op): ",
		 client);
	VT_EXPECT_ERRNO(EINVAL, vt_run(fd, &s, h, NULL, 0, NULL));
	k = (struct ob_kmsg_find){ .text = want };
	vt_kmsg_walk(ob_kmsg_fn, &k);
	EXPECT_FALSE(k.found);

	/* DRM_UT_DRIVER (0x2) on: the rejection explains itself. */
	ASSERT_LT(0, pwrite(pfd, "0x2", 3, 0));
	VT_EXPECT_ERRNO(EINVAL, vt_run(fd, &s, h, NULL, 0, NULL));
	pwrite(pfd, old, strlen(old), 0);
	k = (struct ob_kmsg_find){ .text = want };
	vt_kmsg_walk(ob_kmsg_fn, &k);
	EXPECT_TRUE(k.found) TH_LOG("no \"%s\" in the kernel log", want);
	close(pfd);
	close(fd);
}
