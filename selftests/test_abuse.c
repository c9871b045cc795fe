// SPDX-License-Identifier: GPL-2.0
/*
 * Defects found by abusing the driver as a hostile user would, one
 * regression test each (the va_* and ab_* helpers are queue_common.c's):
 *
 *  - a submission's cost is bounded, fan-out included (E2BIG past
 *    DRM_VATOM_PARAM_MAX_SUBMIT_OPS), and a killed submitter or a closed
 *    file stops the largest valid one within a second, having run a prefix
 *    of whole packets;
 *  - what a file makes the kernel hold stays charged for as long as it is
 *    held (DRM_VATOM_PARAM_FILE_MEM_CHARGED): surfaces kept alive by a
 *    dma-buf or an mmap after GEM_CLOSE, the kept stream buffer, grid and
 *    texel layouts;
 *  - a job that outlives the job timeout is left running and completes;
 *  - a synchronous submission whose results cannot be written fails
 *    having changed nothing;
 *  - SURFACE_CREATE reads a bounded descriptor;
 *  - mapping imported buffers (vgem, another vatom device) while signals
 *    hit the submitters: no WARN, no lockdep report (the kernel log check
 *    of the VM run and global.kernel_log see them).
 */

#include <sys/wait.h>

#include "queue_common.h"

static long long ab_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ll + ts.tv_nsec / 1000000;
}

/*
 * 2^24 operations take seconds under TCG, on a loaded host or the debug
 * kernel more than the default job timeout, which would reset the file
 * (-EIO for its next submission): not what the tests of the largest jobs
 * are about. Raise it to a minute, before the file's first asynchronous
 * job (its scheduler keeps the timeout it was created with).
 * Return: the timeout to put back with ab_timeout_restore(), or -1.
 */
static long long ab_timeout_raise(void)
{
	unsigned int old;

	return va_job_timeout_swap(60000, &old) ? -1 : old;
}

static void ab_timeout_restore(long long old)
{
	if (old > 0)
		vt_job_timeout_set(old);
}

/* The limit: 4096 whole-grid broadcasts pass, 4097 are E2BIG at #4096. */
TEST(submit_ops_limit)
{
	struct drm_vatom_binding bind;
	struct drm_vatom_submit args;
	struct drm_vatom_noc *p;
	long long old_timeout;
	__u64 max_ops, size;
	__u32 grid;
	__u8 *map;
	int fd;

	VT_OPEN(fd);
	ASSERT_EQ(0, vt_get_param(fd, DRM_VATOM_PARAM_MAX_SUBMIT_OPS, 0, &max_ops));
	if (max_ops != 1ull << 24)
		SKIP(close(fd); return, "max_submit_ops is not the default");
	ASSERT_EQ(0, ab_grid_create(fd, &grid, &size));
	ASSERT_EQ(AB_GRID_SIZE, size);
	map = vt_map(fd, grid, size);
	ASSERT_NE(NULL, map);
	p = ab_broadcasts(4097);
	ASSERT_NE(NULL, p);

	ab_submit_args(&args, &bind, grid, p, 4097);
	VT_EXPECT_ERRNO(E2BIG, vt_submit(fd, &args));
	EXPECT_EQ(4096, args.error_index);
	EXPECT_EQ(DRM_VATOM_ERR_OPS_LIMIT, args.error_reason);
	EXPECT_EQ(0, ab_common_count(map));	/* nothing ran */

	old_timeout = ab_timeout_raise();
	ab_submit_args(&args, &bind, grid, p, 4096);
	EXPECT_EQ(0, vt_submit(fd, &args));
	ab_timeout_restore(old_timeout);
	EXPECT_EQ(4096, ab_common_count(map));

	free(p);
	munmap(map, size);
	close(fd);
}

/*
 * SIGKILL a process inside the largest valid synchronous submission: it is
 * reaped within a second and what ran is a prefix of whole broadcasts.
 * The file is shared with the parent, which reads the grid afterwards.
 */
TEST(kill_sync_submit)
{
	struct drm_vatom_binding bind;
	struct drm_vatom_submit args;
	struct drm_vatom_noc *p;
	long long t0, reaped_ms;
	int fd, pipefd[2], status;
	__u64 size;
	__u32 grid;
	long count;
	__u8 *map;
	char c;
	pid_t pid;

	VT_OPEN(fd);
	VT_SKIP_ON_SHIM("a killed process's job stops where the kill finds it, not between packets");
	ASSERT_EQ(0, ab_grid_create(fd, &grid, &size));
	map = vt_map(fd, grid, size);
	ASSERT_NE(NULL, map);
	p = ab_broadcasts(4096);
	ASSERT_NE(NULL, p);
	ab_submit_args(&args, &bind, grid, p, 4096);
	ASSERT_EQ(0, pipe(pipefd));

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		close(pipefd[0]);
		if (write(pipefd[1], "s", 1) != 1)
			_exit(2);
		vt_submit(fd, &args);
		_exit(1);	/* it ran to the end: too fast to kill */
	}
	close(pipefd[1]);
	ASSERT_EQ(1, read(pipefd[0], &c, 1));
	close(pipefd[0]);
	usleep(300 * 1000);	/* well inside validation or execution */
	t0 = ab_now_ms();
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	reaped_ms = ab_now_ms() - t0;
	TH_LOG("SIGKILL to reaped: %lld ms", reaped_ms);
	EXPECT_TRUE(WIFSIGNALED(status));
	EXPECT_LE(reaped_ms, 1000);

	count = ab_common_count(map);
	TH_LOG("broadcasts executed before the kill: %ld of 4096", count);
	EXPECT_LE(0, count);
	EXPECT_GT(4096, count);

	free(p);
	munmap(map, size);
	close(fd);
}

/*
 * close() with three of the largest asynchronous jobs queued: the jobs get
 * half a second, then are cancelled; close() returns within a second and
 * the last job's fence carries -ECANCELED.
 */
TEST(close_cancels_async)
{
	struct drm_vatom_binding bind;
	struct drm_vatom_submit args;
	struct drm_vatom_sync out;
	struct drm_vatom_noc *p;
	long long t0, close_ms, old_timeout;
	int fd, sf = -1, i, st;
	__u32 grid, syncobj;
	__u64 size;

	VT_OPEN(fd);
	old_timeout = ab_timeout_raise();
	ASSERT_EQ(0, ab_grid_create(fd, &grid, &size));
	p = ab_broadcasts(4096);
	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, drmSyncobjCreate(fd, 0, &syncobj));
	for (i = 0; i < 3; i++) {
		ab_submit_args(&args, &bind, grid, p, 4096);
		args.flags = DRM_VATOM_SUBMIT_ASYNC;
		memset(&out, 0, sizeof(out));
		out.handle = syncobj;
		args.out_syncs = vt_u64_ptr(&out);
		args.out_sync_count = 1;
		ASSERT_EQ(0, vt_submit(fd, &args));
	}
	sf = va_export(fd, syncobj);
	ASSERT_LE(0, sf);

	t0 = ab_now_ms();
	close(fd);
	close_ms = ab_now_ms() - t0;
	ab_timeout_restore(old_timeout);
	TH_LOG("close() with 3 x 2^24-operation jobs queued: %lld ms", close_ms);
	EXPECT_LE(close_ms, 1000);

	/* The file is released: every job has completed, the last cancelled. */
	st = va_sync_file_status(sf);
	EXPECT_EQ(-ECANCELED, st);
	close(sf);
	free(p);
}

/* The same with the process killed while its jobs are queued. */
TEST(kill_with_async_queued)
{
	long long t0, reaped_ms, old_timeout = ab_timeout_raise();
	int pipefd[2], status;
	pid_t pid;
	char c;

	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct drm_vatom_binding bind;
		struct drm_vatom_submit args;
		struct drm_vatom_noc *p = ab_broadcasts(4096);
		__u32 grid;
		int fd = vt_open(), i;

		if (fd < 0 || !p || ab_grid_create(fd, &grid, NULL)) {
			TH_LOG("child: open %d, grid: %s", fd, strerror(errno));
			_exit(2);
		}
		for (i = 0; i < 3; i++) {
			ab_submit_args(&args, &bind, grid, p, 4096);
			args.flags = DRM_VATOM_SUBMIT_ASYNC;
			if (vt_submit(fd, &args)) {
				TH_LOG("child: job %d: %s", i, strerror(errno));
				_exit(3);
			}
		}
		if (write(pipefd[1], "s", 1) != 1)
			_exit(4);
		pause();
		_exit(5);
	}
	close(pipefd[1]);
	ASSERT_EQ(1, read(pipefd[0], &c, 1));
	close(pipefd[0]);
	t0 = ab_now_ms();
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	reaped_ms = ab_now_ms() - t0;
	ab_timeout_restore(old_timeout);
	TH_LOG("SIGKILL to reaped, 3 x 2^24-operation jobs queued: %lld ms",
	       reaped_ms);
	EXPECT_TRUE(WIFSIGNALED(status));
	EXPECT_LE(reaped_ms, 1000);
}

static __u64 ab_charged(int fd)
{
	__u64 v = ~0ull;

	vt_get_param(fd, DRM_VATOM_PARAM_FILE_MEM_CHARGED, 0, &v);
	return v;
}

/*
 * A surface whose pages exist (bound once, or mmapped and written) and that
 * something else keeps alive (a dma-buf, an mmap) stays charged after
 * GEM_CLOSE, until that goes too.
 */
FIXTURE(held_surface) {
	int fd;
};

FIXTURE_VARIANT(held_surface) {
	bool bind_first;	/* else written through an mmap */
	bool by_dmabuf;		/* else held by an mmap */
};

FIXTURE_VARIANT_ADD(held_surface, bound_exported) { true, true };
FIXTURE_VARIANT_ADD(held_surface, bound_mmapped) { true, false };
FIXTURE_VARIANT_ADD(held_surface, written_exported) { false, true };
FIXTURE_VARIANT_ADD(held_surface, written_mmapped) { false, false };

FIXTURE_SETUP(held_surface)
{
	VT_OPEN(self->fd);
}

FIXTURE_TEARDOWN(held_surface)
{
	close(self->fd);
}

TEST_F(held_surface, charged_while_held)
{
	const __u64 size = 1 << 20;
	const __u32 addr = 0, val = 3;
	__u64 base, held;
	int dmabuf = -1;
	struct vt_stream s;
	__u32 h, *map;

	if (!variant->by_dmabuf)
		VT_SKIP_ON_SHIM("a mapping holds no charge");
	base = ab_charged(self->fd);
	ASSERT_EQ(0, vt_buffer_create(self->fd, size, &h));
	EXPECT_EQ(base + size, ab_charged(self->fd));
	map = vt_map(self->fd, h, size);
	ASSERT_NE(NULL, map);
	if (variant->bind_first) {
		va_stream(&s, DRM_VATOM_VISA_OP_ADD, 1, &addr, &val, false);
		ASSERT_EQ(0, vt_run(self->fd, &s, h, NULL, 0, NULL));
		EXPECT_EQ(3, map[0]);
	} else {
		memset(map, 0x5a, size);
	}
	if (variant->by_dmabuf) {
		ASSERT_EQ(0, vt_prime_export(self->fd, h, &dmabuf));
		munmap(map, size);
	}
	/* What the file is charged for now, the surface included. */
	held = ab_charged(self->fd);
	EXPECT_LE(base + size, held);

	ASSERT_EQ(0, vt_gem_close(self->fd, h));
	EXPECT_EQ(held, ab_charged(self->fd));

	if (variant->by_dmabuf)
		close(dmabuf);
	else
		munmap(map, size);
	EXPECT_EQ(held - size, ab_charged(self->fd));
}

/* The file's kept stream buffer is charged while kept. */
TEST(stream_buffer_charged)
{
	/* 2^14 PTX packets of 72 bytes: a 1152 KiB stream. */
	const unsigned int n = 1 << 14;
	struct drm_vatom_binding bind = { .slot = 0 };
	struct drm_vatom_submit args;
	struct drm_vatom_ptx *p;
	__u64 base;
	unsigned int i;
	__u32 h, hres;
	int fd;

	VT_OPEN(fd);
	ASSERT_EQ(0, vt_buffer_create(fd, 4096, &h));
	ASSERT_EQ(0, vt_buffer_create(fd, n * 8, &hres));
	bind.handle = h;
	p = calloc(n, sizeof(*p));
	ASSERT_NE(NULL, p);
	for (i = 0; i < n; i++)
		vt_ptx_init(&p[i], DRM_VATOM_PTX_OP_ADD, DRM_VATOM_PTX_TYPE_U32,
			    0, DRM_VATOM_PTX_SPACE_GLOBAL, 0);
	base = ab_charged(fd);
	memset(&args, 0, sizeof(args));
	args.stream = vt_u64_ptr(p);
	args.stream_size = n * sizeof(*p);
	args.bindings = vt_u64_ptr(&bind);
	args.binding_count = 1;
	args.result_handle = hres;	/* 8 bytes a packet */
	args.results_size = n * 8;
	ASSERT_EQ(0, vt_submit(fd, &args)) TH_LOG("%s", strerror(errno));
	/* Done: the job's charge is back, the kept buffer's is not. */
	EXPECT_EQ(base + n * sizeof(*p), ab_charged(fd));
	free(p);
	close(fd);
}

/* A tile grid's and a typed surface's kernel layouts are charged too. */
TEST(layouts_charged)
{
	struct drm_vatom_typed_desc td = {
		.dim = DRM_VATOM_TYPED_2D, .format = DRM_VATOM_FORMAT_R32,
		.width = 4, .height = 4, .depth = 1, .array_size = 1, .levels = 1,
	};
	__u64 base, size, with_grid;
	__u32 grid, typed;
	int fd;

	VT_OPEN(fd);
	base = ab_charged(fd);
	ASSERT_EQ(0, ab_grid_create(fd, &grid, &size));
	with_grid = ab_charged(fd);
	TH_LOG("a %u-byte grid is charged %llu bytes", (unsigned int)size,
	       (unsigned long long)(with_grid - base));
	EXPECT_LT(base + vt_page_round(size), with_grid);
	ASSERT_EQ(0, vt_typed_create(fd, &td, &typed, &size));
	EXPECT_LT(with_grid + vt_page_round(size), ab_charged(fd));
	ASSERT_EQ(0, vt_gem_close(fd, typed));
	ASSERT_EQ(0, vt_gem_close(fd, grid));
	EXPECT_EQ(base, ab_charged(fd));
	close(fd);
}

/*
 * Results to a read-only page: EFAULT, and the surface is unchanged (the
 * submission did not execute). A retry to a writable page then applies
 * the atomic once.
 */
TEST(results_unwritable)
{
	const __u32 addr = 0, val = 5;
	struct drm_vatom_submit sub;
	struct vt_stream s;
	__u32 h, *map, *ro;
	int fd;

	VT_OPEN(fd);
	VT_BUFFER(fd, 4096, h, map);
	map[0] = 10;
	ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ro);
	va_stream(&s, DRM_VATOM_VISA_OP_ADD, 1, &addr, &val, true);
	VT_EXPECT_ERRNO(EFAULT, vt_run(fd, &s, h, ro, 8, &sub));
	EXPECT_EQ(DRM_VATOM_ERR_NONE, sub.error_reason);
	EXPECT_EQ(10, map[0]);
	EXPECT_EQ(0, ro[0]);

	munmap(ro, 4096);
	ro = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ro);
	EXPECT_EQ(0, vt_run(fd, &s, h, ro, 8, NULL));
	EXPECT_EQ(10, ro[0]);
	EXPECT_EQ(15, map[0]);
	munmap(ro, 4096);
	munmap(map, 4096);
	close(fd);
}

/* desc_size is bounded: 4096 bytes (zero past the struct) at most. */
TEST(desc_size_bounded)
{
	static __u8 big[8192];
	struct drm_vatom_typed_desc *td = (void *)big;
	struct drm_vatom_surface_create c = {
		.kind = DRM_VATOM_SURFACE_TYPED, .desc = vt_u64_ptr(big),
	};
	const struct {
		__u32 size;
		int err;	/* 0: created */
	} cases[] = {
		{ 4096, 0 }, { 4097, E2BIG }, { 8192, E2BIG },
		{ 0xffffffffu, E2BIG },
	};
	unsigned int i;
	int fd;

	VT_OPEN(fd);
	td->dim = DRM_VATOM_TYPED_1D;
	td->format = DRM_VATOM_FORMAT_R32;
	td->width = td->height = td->depth = td->array_size = td->levels = 1;
	for (i = 0; i < VT_ARRAY_SIZE(cases); i++) {
		c.desc_size = cases[i].size;
		c.size = 0;
		if (cases[i].err)
			VT_EXPECT_ERRNO(cases[i].err, vt_surface_create(fd, &c));
		else
			EXPECT_EQ(0, vt_surface_create(fd, &c));
	}
	close(fd);
}

/*
 * Map imported buffers for the first time while signals hit the
 * submitters: a vatom buffer of another device (bound at the same time on
 * its own device, the exporter's first mapping) and a vgem buffer. Each
 * submission succeeds or is interrupted; never a kernel warning.
 */
struct ab_vmap_race {
	int fd_a, fd_b;
	__u32 ha, hb;
	int ret_a, ret_b;
	pthread_barrier_t start;
	pthread_t victim;
	volatile int stop;
};

static void ab_nop(int sig)
{
}

/* The exporter's first mapping, on its own device, at the same time. */
static void *ab_bind_a(void *arg)
{
	struct ab_vmap_race *r = arg;

	pthread_barrier_wait(&r->start);
	r->ret_a = va_add(r->fd_a, r->ha, 0, 1, false, 0, 0);
	return NULL;
}

/* Signals at the importer's submitter until told to stop. */
static void *ab_signaller(void *arg)
{
	struct ab_vmap_race *r = arg;

	while (!r->stop) {
		pthread_kill(r->victim, SIGUSR1);
		usleep(10);
	}
	return NULL;
}

TEST(prime_vmap_under_signals)
{
	char paths[VT_MAX_NODES][VT_PATH_MAX];
	struct sigaction sa = { .sa_handler = ab_nop };
	struct ab_vmap_race r = { 0 };
	unsigned int i, ok = 0, intr = 0, rounds = 64;
	pthread_t t, sig;

	if (vt_scan_nodes("vatom", "renderD", paths, VT_MAX_NODES) < 2)
		SKIP(return, "one vatom device (load with num_devices=2)");
	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, NULL));	/* no SA_RESTART */
	r.fd_a = vt_open_path(paths[0]);
	r.fd_b = vt_open_path(paths[1]);
	ASSERT_LE(0, r.fd_a);
	ASSERT_LE(0, r.fd_b);
	r.victim = pthread_self();
	ASSERT_EQ(0, pthread_create(&sig, NULL, ab_signaller, &r));
	for (i = 0; i < rounds; i++) {
		ASSERT_EQ(0, vt_buffer_create(r.fd_a, 1 << 20, &r.ha));
		ASSERT_EQ(0, vt_prime_share(r.fd_a, r.ha, r.fd_b, &r.hb));
		ASSERT_EQ(0, pthread_barrier_init(&r.start, NULL, 2));
		ASSERT_EQ(0, pthread_create(&t, NULL, ab_bind_a, &r));
		pthread_barrier_wait(&r.start);
		do {	/* until it has mapped the import once */
			r.ret_b = va_add(r.fd_b, r.hb, 1, 1, false, 0, 0);
		} while (r.ret_b == -EINTR && !intr++);
		pthread_join(t, NULL);
		pthread_barrier_destroy(&r.start);
		EXPECT_EQ(0, r.ret_a);
		EXPECT_TRUE(r.ret_b == 0 || r.ret_b == -EINTR) TH_LOG("%d", r.ret_b);
		ok += !r.ret_b;
		vt_gem_close(r.fd_b, r.hb);
		vt_gem_close(r.fd_a, r.ha);
	}
	r.stop = 1;
	pthread_join(sig, NULL);
	TH_LOG("%u of %u imports mapped under signals, %u interrupted", ok,
	       rounds, intr);
	signal(SIGUSR1, SIG_DFL);
	close(r.fd_b);
	close(r.fd_a);
}
