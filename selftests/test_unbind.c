// SPDX-License-Identifier: GPL-2.0
/*
 * Device loss: the platform driver unbound from a device under its open
 * files, and bound again, modelled on IGT's core_hotunplug (unbind-rebind,
 * hotunbind-rebind, hotrebind, hotrebind-lateclose; its PCI remove and
 * rescan do not apply). An unbound device's files get -ENODEV from every
 * ioctl, its fences signal -ENODEV, its mappings raise SIGBUS; a rebound
 * device is a new render node that works, whenever the old files close.
 *
 * Needs root (sysfs bind/unbind). Runs before the kernel log check, and
 * leaves the device bound with vt_render_path naming its node.
 */

#define UB_DRIVER	"/sys/bus/platform/drivers/vatom"

/* The platform device behind vt_render_path ("vatom.N"), or "" */
static void ub_platform_name(char *name, size_t len)
{
	char link[300], target[256];
	const char *node = strrchr(vt_render_path, '/'), *base;
	ssize_t n;

	name[0] = '\0';
	if (!node)
		return;
	snprintf(link, sizeof(link), "/sys/class/drm/%s/device", node + 1);
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return;
	target[n] = '\0';
	base = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
	snprintf(name, len, "%.*s", (int)len - 1, base);
}

/* Write the device's name to the driver's bind or unbind: 0 or -errno. */
static int ub_write(const char *what, const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), UB_DRIVER "/%s", what);
	return vt_write_file(path, name);
}

/* Whether the driver is bound to the device (its driver link). */
static bool ub_bound(const char *name)
{
	char path[128];
	struct stat st;

	snprintf(path, sizeof(path), "/sys/devices/platform/%s/driver", name);
	return !lstat(path, &st);
}

/*
 * Point vt_render_path at the device's render node, as bound now (a
 * rebind while an old file is open gets a new minor). Return: 0 or -ENOENT.
 */
static int ub_find_node(const char *name)
{
	struct dirent *de;
	char path[128];
	DIR *dir;
	int ret = -ENOENT;

	_Static_assert(sizeof(vt_render_path) >= sizeof("/dev/dri/renderD") + 10,
		       "room for a render node's path");

	snprintf(path, sizeof(path), "/sys/devices/platform/%s/drm", name);
	dir = opendir(path);
	if (!dir)
		return -ENOENT;
	while ((de = readdir(dir))) {
		if (strncmp(de->d_name, "renderD", 7))
			continue;
		snprintf(vt_render_path, sizeof(vt_render_path), "/dev/dri/%.*s",
			 (int)(sizeof(vt_render_path) - sizeof("/dev/dri/")),
			 de->d_name);
		ret = 0;
		break;
	}
	closedir(dir);
	return ret;
}

/* A job on a fresh file of the device: 0 when it ran and added 1. */
static int ub_device_works(void)
{
	__u32 h, *w;
	int fd, ret;

	fd = vt_open();
	if (fd < 0)
		return fd;
	ret = vt_buffer_create(fd, VT_PAGE_SIZE, &h) ? -errno : 0;
	w = ret ? NULL : vt_map(fd, h, VT_PAGE_SIZE);
	if (!ret && !w)
		ret = -ENOMEM;
	if (!ret)
		ret = va_add(fd, h, 3, 1, false, 0, 0);
	if (!ret && w[3] != 1)
		ret = -EIO;
	if (w)
		munmap(w, VT_PAGE_SIZE);
	close(fd);
	return ret;
}

/* The status of sync_file @sf once it signals (or after 5 s). */
static int ub_fence_status(int sf)
{
	struct pollfd pfd = { .fd = sf, .events = POLLIN };

	poll(&pfd, 1, 5000);
	return va_sync_file_status(sf);
}

/* Touch @p in a child: its wait status. */
static int ub_touch_status(volatile __u32 *p)
{
	int status = 0;
	pid_t pid = fork();

	if (!pid) {
		(void)*p;
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

FIXTURE(unbind) {
	char name[32];
	int fd;			/* the client open across the unbind, or -1 */
	struct va_blocker blocker;
	bool skip;
};

/*
 * @client: a file is open across the unbind, with a mapping, a job
 * waiting on a fence that never signals and a polling queue;
 * @rebind_open: bind again before that file is closed.
 */
FIXTURE_VARIANT(unbind) {
	bool client;
	bool rebind_open;
	bool late_close;	/* the old file closes after the new device ran a job */
};

FIXTURE_VARIANT_ADD(unbind, unbind_rebind) { false, false, false };
FIXTURE_VARIANT_ADD(unbind, hotunbind_rebind) { true, false, false };
FIXTURE_VARIANT_ADD(unbind, hotrebind) { true, true, false };
FIXTURE_VARIANT_ADD(unbind, hotrebind_lateclose) { true, true, true };

FIXTURE_SETUP(unbind)
{
	self->skip = true;
	self->fd = -1;
	/*
	 * Each test runs in a child: an earlier one's rebind may have left
	 * vt_render_path naming a minor that is gone; the device stays.
	 */
	ub_platform_name(self->name, sizeof(self->name));
	if (!self->name[0] && !access("/sys/devices/platform/vatom.0/drm", F_OK))
		snprintf(self->name, sizeof(self->name), "vatom.0");
	if (!self->name[0] || ub_find_node(self->name))
		SKIP(return, "no vatom platform device behind %s", vt_render_path);
	if (access(UB_DRIVER "/unbind", W_OK))
		SKIP(return, "cannot unbind (not root?)");
	ASSERT_TRUE(ub_bound(self->name));
	self->skip = false;
}

FIXTURE_TEARDOWN(unbind)
{
	if (self->skip)
		return;
	if (self->fd >= 0)
		close(self->fd);
	if (self->blocker.vfd > 0)
		va_blocker_fini(&self->blocker);
	/* Whatever happened, leave the device bound and found. */
	if (!ub_bound(self->name))
		ub_write("bind", self->name);
	ub_find_node(self->name);
}

TEST_F(unbind, device_lost_and_back)
{
	static const struct qp_mode poll = { .flags = QP_POLL, .idle_us = QP_IDLE_MAX };
	int sf_blocked = -1, sf_slow = -1, status, st;
	bool have_queue = false;
	struct qp_env env;
	long long t0, ms, ran = -1;
	__u32 in, out, slow, grid, h, *w = NULL;
	__u8 *gmap = NULL;
	__u64 v, gsize;

	if (self->skip)
		return;	/* setup skipped: this harness runs the test anyway */
	if (variant->client) {
		struct drm_vatom_binding bind;
		struct drm_vatom_submit args;
		struct drm_vatom_sync sync = { 0 };
		struct drm_vatom_noc *p = ab_broadcasts(4096);

		self->fd = vt_open();
		ASSERT_LE(0, self->fd);
		VA_BLOCKER(&self->blocker, self->fd);
		VT_BUFFER(self->fd, VT_PAGE_SIZE, h, w);
		w[0] = 7;
		/*
		 * A long job first, then one that waits for a fence nobody
		 * signals (behind the long one, in the file's order), and a
		 * polling queue; the long job executes as we unbind.
		 */
		ASSERT_NE(NULL, p);
		ASSERT_EQ(0, ab_grid_create(self->fd, &grid, &gsize));
		gmap = vt_map(self->fd, grid, gsize);
		ASSERT_NE(NULL, gmap);
		ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &slow));
		ab_submit_args(&args, &bind, grid, p, 4096);
		args.flags = DRM_VATOM_SUBMIT_ASYNC;
		sync.handle = slow;
		args.out_syncs = vt_u64_ptr(&sync);
		args.out_sync_count = 1;
		ASSERT_EQ(0, vt_submit(self->fd, &args));
		sf_slow = va_export(self->fd, slow);
		ASSERT_LE(0, sf_slow);
		free(p);
		in = va_blocker_syncobj(self->fd, &self->blocker);
		ASSERT_NE(0, in);
		ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &out));
		ASSERT_EQ(0, va_add(self->fd, h, 1, 1, true, in, out));
		sf_blocked = va_export(self->fd, out);
		ASSERT_LE(0, sf_blocked);
		have_queue = qp_supported(self->fd);
		if (have_queue)
			ASSERT_EQ(0, qp_env_init(&env, self->fd, 8, 0, &poll));
		/* Unbind while it executes: its first broadcasts have run. */
		t0 = va_now_ns();
		while ((ran = ab_first_count(gmap)) <= 0 &&
		       va_now_ns() - t0 < 10000 * VA_NS_PER_MS)
			sched_yield();
		ASSERT_LT(0, ran) TH_LOG("the long job never started");
		ASSERT_GT(4096, ran) TH_LOG("the long job ended before the unbind");
	}

	t0 = va_now_ns();
	ASSERT_EQ(0, ub_write("unbind", self->name));
	ms = (va_now_ns() - t0) / VA_NS_PER_MS;
	TH_LOG("unbind %s: %lld ms", variant->client ? "under a client" : "idle", ms);
	EXPECT_GE(2000, ms);
	EXPECT_FALSE(ub_bound(self->name));
	EXPECT_EQ(-ENOENT, ub_find_node(self->name));

	if (variant->client) {
		/* Every ioctl, vatom's and the core's: -ENODEV. */
		EXPECT_EQ(-1, vt_get_param(self->fd, DRM_VATOM_PARAM_CAPS, 0, &v));
		EXPECT_EQ(ENODEV, errno);
		EXPECT_EQ(-ENODEV, va_add(self->fd, h, 2, 1, false, 0, 0));
		EXPECT_EQ(-1, drmSyncobjCreate(self->fd, 0, &in));
		/* Fences signal with an error: the waiting job's -ENODEV. */
		EXPECT_EQ(-ENODEV, ub_fence_status(sf_blocked));
		/* The job executing stops at its next checkpoint: -ENODEV. */
		st = ub_fence_status(sf_slow);
		EXPECT_EQ(-ENODEV, st) TH_LOG("long job, %lld of 4096 broadcasts run at the unbind",
					     ran);
		/* The mapping is revoked: an access raises SIGBUS. */
		status = ub_touch_status(w);
		EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS)
			TH_LOG("touch after unbind: status %#x", status);
		close(sf_blocked);
		close(sf_slow);
		/* Mappings hold the file: only the fd is left. */
		munmap(w, VT_PAGE_SIZE);
		munmap(gmap, gsize);
		if (have_queue)
			qp_env_unmap(&env);
		if (!variant->rebind_open) {
			close(self->fd);
			self->fd = -1;
		}
	}

	ASSERT_EQ(0, ub_write("bind", self->name));
	EXPECT_TRUE(ub_bound(self->name));
	ASSERT_EQ(0, ub_find_node(self->name));
	EXPECT_EQ(0, ub_device_works());
	if (self->fd >= 0) {
		/* The old file still belongs to the old device. */
		EXPECT_EQ(-ENODEV, va_add(self->fd, h, 2, 1, false, 0, 0));
		if (!variant->late_close) {
			close(self->fd);
			self->fd = -1;
		}
		EXPECT_EQ(0, ub_device_works());
		if (self->fd >= 0) {
			close(self->fd);
			self->fd = -1;
		}
	}
}

/*
 * Every door of a file, busy as its device goes: each returns, or
 * completes with, -ENODEV from then on, never -EINTR (no signal is sent)
 * and never 0 for work that did not run whole. One thread per door,
 * each looping until the device's loss reaches it.
 */
enum ub_door { UB_SYNC, UB_ASYNC, UB_KICK, UB_DOORS };

static const char *const ub_door_name[UB_DOORS] = {
	[UB_SYNC] = "synchronous SUBMIT",
	[UB_ASYNC] = "asynchronous SUBMIT's fence",
	[UB_KICK] = "KICK",
};

/*
 * A KICK's batch: UB_KICK_JOBS jobs of UB_KICK_PACKETS broadcasts (2^22
 * element operations) each, all the same stream in qp_env_init()'s 64 KiB
 * of streams: seconds of work under TCG.
 */
#define UB_KICK_JOBS		32
#define UB_KICK_PACKETS		1024

struct ub_door_thread {
	enum ub_door door;
	int fd;
	__u32 grid;
	struct qp_env *env;
	volatile bool *stop;
	int bad;		/* the first result other than 0 and -ENODEV */
	bool lost;		/* saw -ENODEV */
	unsigned int calls;
};

/* One call of the door: 0, or -errno (a fence's error for ASYNC). */
static int ub_door_call(struct ub_door_thread *t, const struct drm_vatom_noc *p)
{
	struct drm_vatom_binding bind;
	struct drm_vatom_submit args;
	struct drm_vatom_sync out = { 0 };
	__u32 syncobj;
	int sf, st;

	switch (t->door) {
	case UB_SYNC:
		ab_submit_args(&args, &bind, t->grid, p, 4096);
		return vt_submit(t->fd, &args) ? -errno : 0;
	case UB_ASYNC:
		if (drmSyncobjCreate(t->fd, 0, &syncobj))
			return -errno;
		ab_submit_args(&args, &bind, t->grid, p, 4096);
		args.flags = DRM_VATOM_SUBMIT_ASYNC;
		out.handle = syncobj;
		args.out_syncs = vt_u64_ptr(&out);
		args.out_sync_count = 1;
		if (vt_submit(t->fd, &args))
			return -errno;
		sf = va_export(t->fd, syncobj);
		if (sf < 0)
			return sf;
		drmSyncobjDestroy(t->fd, syncobj);
		st = ub_fence_status(sf);
		close(sf);
		return st == 1 ? 0 : st;
	default:
		/* The whole batch, published before: one KICK consumes it. */
		return vq_kick(t->fd, t->env->q.id) ? -errno : 0;
	}
}

static void *ub_door_thread(void *arg)
{
	struct ub_door_thread *t = arg;
	struct drm_vatom_noc *p = ab_broadcasts(4096);
	int ret;

	while (p && !*t->stop && !t->lost) {
		ret = ub_door_call(t, p);
		t->calls++;
		if (ret == -ENODEV)
			t->lost = true;
		else if (ret && !t->bad)
			t->bad = ret;
		if (t->door == UB_KICK)
			break;
	}
	free(p);
	return NULL;
}

TEST(unbind_every_door_enodev)
{
	static const struct qp_mode kick;
	struct ub_door_thread t[UB_DOORS];
	pthread_t tid[UB_DOORS];
	volatile bool stop = false;
	char name[32];
	struct qp_env env;
	__u32 grid;
	__u8 *gmap;
	__u64 gsize;
	long long t0;
	int fd, d;

	ub_platform_name(name, sizeof(name));
	if (!name[0] && !access("/sys/devices/platform/vatom.0/drm", F_OK))
		snprintf(name, sizeof(name), "vatom.0");
	if (!name[0] || ub_find_node(name))
		SKIP(return, "no vatom platform device behind %s", vt_render_path);
	if (access(UB_DRIVER "/unbind", W_OK))
		SKIP(return, "cannot unbind (not root?)");
	VT_OPEN(fd);
	ASSERT_EQ(0, ab_grid_create(fd, &grid, &gsize));
	gmap = vt_map(fd, grid, gsize);
	ASSERT_NE(NULL, gmap);
	/* A kick-mode queue whose jobs broadcast on the grid. */
	ASSERT_EQ(0, qp_env_init(&env, fd, UB_KICK_JOBS, grid, &kick));
	ASSERT_LE(UB_KICK_PACKETS * sizeof(struct drm_vatom_noc), env.slen);
	qp_broadcast_jobs(&env, 0, UB_KICK_JOBS, UB_KICK_PACKETS, 0);
	env.q.tail += UB_KICK_JOBS;
	__atomic_store_n(&env.q.ctl->tail, env.q.tail, __ATOMIC_RELEASE);

	for (d = 0; d < UB_DOORS; d++) {
		t[d] = (struct ub_door_thread){
			.door = d, .fd = fd, .grid = grid, .env = &env,
			.stop = &stop,
		};
		ASSERT_EQ(0, pthread_create(&tid[d], NULL, ub_door_thread, &t[d]));
	}
	/* Unbind once every door is at work: jobs have run on the grid. */
	t0 = va_now_ns();
	while (ab_first_count(gmap) < 64 && va_now_ns() - t0 < 10000 * VA_NS_PER_MS)
		va_sleep_ms(1);
	va_sleep_ms(50);
	ASSERT_EQ(0, ub_write("unbind", name));
	for (d = 0; d < UB_DOORS; d++) {
		pthread_join(tid[d], NULL);
		TH_LOG("%s: %u calls", ub_door_name[d], t[d].calls);
		EXPECT_EQ(0, t[d].bad) TH_LOG("%s: %d (%s)", ub_door_name[d],
					     t[d].bad, strerror(-t[d].bad));
		EXPECT_TRUE(t[d].lost) TH_LOG("%s: never saw -ENODEV",
					     ub_door_name[d]);
	}
	stop = true;
	/* Another KICK: the door itself is gone. */
	EXPECT_EQ(-1, vq_kick(fd, env.q.id));
	EXPECT_EQ(ENODEV, errno);
	munmap(gmap, gsize);
	qp_env_unmap(&env);
	close(fd);
	ASSERT_EQ(0, ub_write("bind", name));
	ASSERT_EQ(0, ub_find_node(name));
	EXPECT_EQ(0, ub_device_works());
}
