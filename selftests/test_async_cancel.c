// SPDX-License-Identifier: GPL-2.0
/*
 * Asynchronous jobs that fail or are cancelled: a failed dependency
 * propagating its error, cancellation by close() and by SIGKILL (with jobs
 * waiting and jobs ready), the live counts back where they were after
 * each, and the module pinned while a job is in flight.
 *
 * Part of vatom_test.c's translation unit, after test_async.c (its
 * va_counts(), VA_EXPECT_COUNTS() and va_module_refcnt()); not built
 * alone. The va_* helpers are queue_common.c's.
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <sys/syscall.h>
#include <sys/wait.h>

#include "queue_common.h"

/* ------------------------------------------------------------------------ */
/* Failure propagation and cancellation                                      */
/* ------------------------------------------------------------------------ */

/*
 * Closing a file cancels its job that waits on an unsignalled in-syncobj:
 * the job's fence (kept as a sync_file) signals -ECANCELED and the job
 * never executes, even once the in-fence signals. The file's next job,
 * which waited only for the cancelled one, executes. Live counts return
 * to what they were.
 */
TEST(cancel_on_close)
{
	__u32 h, hx, blk, o1, o2, *m;
	struct va_counts base, now;
	struct va_blocker bl;
	char path[128];
	int fd, fx, sf1, sf2;

	VT_OPEN(fd);
	if (!vt_debugfs_stats_path(vt_render_path, path, sizeof(path)))
		SKIP(close(fd); return, "no vatom_stats in debugfs");
	va_counts(path, &base);
	VT_BUFFER(fd, 4096, h, m);
	VA_BLOCKER(&bl, fd);

	fx = vt_open();
	ASSERT_LE(0, fx);
	ASSERT_EQ(0, vt_prime_share(fd, h, fx, &hx));
	blk = va_blocker_syncobj(fx, &bl);
	o1 = va_syncobj(fx, false);
	o2 = va_syncobj(fx, false);
	ASSERT_EQ(0, va_add(fx, hx, 0, 1, true, blk, o1));	/* waits */
	ASSERT_EQ(0, va_add(fx, hx, 1, 16, true, 0, o2));	/* after it */
	sf1 = va_export(fx, o1);
	sf2 = va_export(fx, o2);
	ASSERT_LE(0, sf1);
	ASSERT_LE(0, sf2);
	va_counts(path, &now);
	EXPECT_EQ(base.jobs + 2, now.jobs);
	EXPECT_EQ(0, va_sync_file_status(sf1));
	EXPECT_EQ(0, va_sync_file_status(sf2));

	close(fx);
	/* The release waited for both jobs. */
	EXPECT_EQ(base.jobs, vt_debugfs_stat(path, "jobs_in_flight"));
	EXPECT_EQ(-ECANCELED, va_sync_file_status(sf1));
	EXPECT_EQ(1, va_sync_file_status(sf2));
	EXPECT_EQ(base.cancelled + 1, vt_debugfs_stat(path, "jobs_cancelled"));
	EXPECT_EQ(0, m[0]);
	EXPECT_EQ(16, m[1]);

	ASSERT_EQ(0, va_blocker_signal(&bl));
	va_sleep_ms(50);
	EXPECT_EQ(0, m[0]);	/* never executed */
	close(sf1);
	close(sf2);
	va_blocker_fini(&bl);
	munmap(m, 4096);
	close(fd);
	VA_EXPECT_COUNTS(path, &base);
}

/*
 * A failed dependency fails the job: with the fence of a cancelled job as
 * in-fence, an asynchronous job's fence carries -ECANCELED and a
 * synchronous submission returns ECANCELED; neither executes, and the
 * synchronous one leaves its out-syncobj untouched.
 */
TEST(failed_dependency)
{
	__u32 h, hx, blk, ox, in, out, out2, *m;
	struct va_blocker bl;
	int fd, fx, sf;

	VT_OPEN(fd);
	VT_BUFFER(fd, 4096, h, m);
	VA_BLOCKER(&bl, fd);
	fx = vt_open();
	ASSERT_LE(0, fx);
	ASSERT_EQ(0, vt_prime_share(fd, h, fx, &hx));
	blk = va_blocker_syncobj(fx, &bl);
	ox = va_syncobj(fx, false);
	ASSERT_EQ(0, va_add(fx, hx, 0, 1, true, blk, ox));
	sf = va_export(fx, ox);
	ASSERT_LE(0, sf);
	in = va_syncobj(fd, false);
	ASSERT_EQ(0, drmSyncobjImportSyncFile(fd, in, sf));
	close(sf);

	out = va_syncobj(fd, false);
	out2 = va_syncobj(fd, false);
	ASSERT_EQ(0, va_add(fd, h, 1, 1, true, in, out));	/* async, waits */
	close(fx);						/* cancels fx's job */
	ASSERT_EQ(0, va_wait_ms(fd, out, 0, 5000));
	EXPECT_EQ(-ECANCELED, va_status(fd, in));
	EXPECT_EQ(-ECANCELED, va_status(fd, out));

	EXPECT_EQ(-ECANCELED, va_add(fd, h, 2, 1, false, in, out2));
	EXPECT_EQ(-2000, va_status(fd, out2));	/* untouched */

	/* The file goes on: the next job runs. */
	ASSERT_EQ(0, va_add(fd, h, 3, 1, false, 0, out2));
	EXPECT_EQ(1, va_status(fd, out2));
	EXPECT_EQ(0, m[0]);
	EXPECT_EQ(0, m[1]);
	EXPECT_EQ(0, m[2]);
	EXPECT_EQ(1, m[3]);
	va_blocker_fini(&bl);
	close(fd);
}

/*
 * SIGKILL of a process whose job waits on an in-syncobj: its file's release
 * cancels the job (-ECANCELED in the out-syncobj the parent shares), the
 * job never executes, and every live count returns to its value before.
 */
TEST(cancel_on_sigkill)
{
	__u32 h, out, *m;
	struct va_counts base;
	struct va_blocker bl;
	char path[128], c;
	int fd, dmabuf, objfd, pfd[2], st;
	pid_t pid;

	VT_OPEN(fd);
	if (!vt_debugfs_stats_path(vt_render_path, path, sizeof(path)))
		SKIP(close(fd); return, "no vatom_stats in debugfs");
	va_counts(path, &base);
	VT_BUFFER(fd, 4096, h, m);
	VA_BLOCKER(&bl, fd);
	ASSERT_EQ(0, vt_prime_export(fd, h, &dmabuf));
	out = va_syncobj(fd, false);
	ASSERT_EQ(0, drmSyncobjHandleToFD(fd, out, &objfd));
	ASSERT_EQ(0, pipe(pfd));

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		/* The child: its own file, the shared surface and syncobj. */
		__u32 ch, cblk, cout;
		int cfd = vt_open();

		if (cfd < 0 || vt_prime_import(cfd, dmabuf, &ch) ||
		    drmSyncobjFDToHandle(cfd, objfd, &cout))
			_exit(2);
		cblk = va_blocker_syncobj(cfd, &bl);
		if (!cblk || va_add(cfd, ch, 0, 1, true, cblk, cout))
			_exit(3);
		if (write(pfd[1], "x", 1) != 1)
			_exit(4);
		for (;;)
			pause();
	}
	close(pfd[1]);
	ASSERT_EQ(1, read(pfd[0], &c, 1));
	EXPECT_EQ(base.jobs + 1, vt_debugfs_stat(path, "jobs_in_flight"));
	EXPECT_EQ(0, va_status(fd, out));	/* the child's job is pending */

	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	EXPECT_EQ(base.jobs, vt_debugfs_stat(path, "jobs_in_flight"));
	EXPECT_EQ(-ECANCELED, va_status(fd, out));
	EXPECT_EQ(base.cancelled + 1, vt_debugfs_stat(path, "jobs_cancelled"));

	ASSERT_EQ(0, va_blocker_signal(&bl));
	va_sleep_ms(50);
	EXPECT_EQ(0, m[0]);
	close(pfd[0]);
	close(objfd);
	close(dmabuf);
	va_blocker_fini(&bl);
	munmap(m, 4096);
	close(fd);
	VA_EXPECT_COUNTS(path, &base);
}

/*
 * A process killed right after queueing jobs that wait for nothing: those
 * jobs execute (only jobs waiting on an in-syncobj are cancelled), and the
 * release of its file waits for them. The total is exact.
 */
TEST(sigkill_with_ready_jobs)
{
	const unsigned int n = 40;
	struct va_counts base;
	char path[128], c;
	__u32 h, *m;
	int fd, dmabuf, pfd[2], st;
	pid_t pid;

	VT_OPEN(fd);
	if (!vt_debugfs_stats_path(vt_render_path, path, sizeof(path)))
		SKIP(close(fd); return, "no vatom_stats in debugfs");
	va_counts(path, &base);
	VT_BUFFER(fd, 4096, h, m);
	ASSERT_EQ(0, vt_prime_export(fd, h, &dmabuf));
	ASSERT_EQ(0, pipe(pfd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		__u32 ch;
		unsigned int i;
		int cfd = vt_open();

		if (cfd < 0 || vt_prime_import(cfd, dmabuf, &ch))
			_exit(2);
		for (i = 0; i < n; i++) {
			/* Sizeable jobs, so some are still queued at the kill. */
			const __u32 addr[16] = { 0, 0, 0, 0, 0, 0, 0, 0,
						 0, 0, 0, 0, 0, 0, 0, 0 };
			const __u32 one[16] = { 1, 1, 1, 1, 1, 1, 1, 1,
						1, 1, 1, 1, 1, 1, 1, 1 };
			struct vt_stream s;
			struct va_sub j;
			unsigned int k;

			vt_stream_init(&s);
			for (k = 0; k < 48; k++) {
				struct vt_visa v;

				vt_dword(&v, DRM_VATOM_VISA_OP_ADD,
					 DRM_VATOM_VISA_EXEC_16,
					 DRM_VATOM_VISA_TYPE_UD, addr, one,
					 NULL, false);
				vt_add_visa(&s, &v);
			}
			va_sub_init(&j, &s, ch, true, 0, 0);
			if (va_sub_submit(cfd, &j))
				_exit(3);
		}
		if (write(pfd[1], "x", 1) != 1)
			_exit(4);
		for (;;)
			pause();
	}
	close(pfd[1]);
	ASSERT_EQ(1, read(pfd[0], &c, 1));
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_EQ(base.jobs, vt_debugfs_stat(path, "jobs_in_flight"));
	EXPECT_EQ(base.cancelled, vt_debugfs_stat(path, "jobs_cancelled"));
	EXPECT_EQ(n * 48 * 16, m[0]);
	close(pfd[0]);
	close(dmabuf);
	munmap(m, 4096);
	close(fd);
	VA_EXPECT_COUNTS(path, &base);
}

/*
 * What keeps vatom.ko loaded: each open file (the DRM fops owner), and each
 * job fence still referenced anywhere (here a sync_file), even after its
 * file is closed. delete_module() is refused while a file is open.
 */
TEST(module_pinned)
{
	long long r0, r1;
	__u32 h, out, *m;
	int fd, sf;

	r0 = va_module_refcnt();
	if (r0 < 0)
		SKIP(return, "no /sys/module/vatom/refcnt");
	VT_OPEN(fd);
	EXPECT_EQ(r0 + 1, va_module_refcnt());
	errno = 0;
	EXPECT_EQ(-1, syscall(SYS_delete_module, "vatom", O_NONBLOCK));
	EXPECT_EQ(EWOULDBLOCK, errno);

	VT_BUFFER(fd, 4096, h, m);
	out = va_syncobj(fd, false);
	ASSERT_EQ(0, va_add(fd, h, 0, 1, false, 0, out));
	sf = va_export(fd, out);
	ASSERT_LE(0, sf);
	munmap(m, 4096);
	close(fd);
	/* Only the sync_file's fence is left. */
	r1 = va_module_refcnt();
	EXPECT_EQ(r0 + 1, r1);
	EXPECT_EQ(1, va_sync_file_status(sf));
	close(sf);
	EXPECT_EQ(r0, va_module_refcnt());
}
