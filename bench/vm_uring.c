// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The peer beside vatom's queues in vm_bench: io_uring's cheapest
 * asynchronous request, a NOP, on the same guest kernel in the same boot.
 * A kick-mode queue job is set against a NOP submitted and waited for with
 * one io_uring_enter(); a polling-mode job against a NOP through an SQPOLL
 * ring, whose kernel thread picks it up without a system call. liburing
 * (Debian's liburing-dev, linked statically) drives both rings, as an
 * application would.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <liburing.h>

#include "vm_uring.h"

static struct io_uring enter_ring, sqpoll_ring;
static bool have_sqpoll;

static void uring_die(const char *what, int ret)
{
	fprintf(stderr, "vm_bench: io_uring %s: %s\n", what, strerror(-ret));
	exit(1);
}

void uring_init(bool sqpoll)
{
	struct io_uring_params p = { 0 };
	int ret;

	ret = io_uring_queue_init(8, &enter_ring, 0);
	if (ret)
		uring_die("setup", ret);
	have_sqpoll = sqpoll;
	if (!sqpoll)
		return;
	/*
	 * The SQPOLL thread idles a second before it sleeps: like the vatom
	 * pollers beside it (QB_POLL_IDLE_US), never between two requests.
	 */
	p.flags = IORING_SETUP_SQPOLL;
	p.sq_thread_idle = 1000;
	ret = io_uring_queue_init_params(8, &sqpoll_ring, &p);
	if (ret)
		uring_die("setup (SQPOLL)", ret);
}

void uring_fini(void)
{
	if (have_sqpoll)
		io_uring_queue_exit(&sqpoll_ring);
	io_uring_queue_exit(&enter_ring);
}

/* Queue a NOP on @ring; its completion must carry @tag. */
static void uring_queue_nop(struct io_uring *ring, unsigned long tag)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	if (!sqe)
		uring_die("get_sqe", -EBUSY);
	io_uring_prep_nop(sqe);
	io_uring_sqe_set_data64(sqe, tag);
}

static void uring_reap(struct io_uring *ring, struct io_uring_cqe *cqe,
		       unsigned long tag)
{
	if (cqe->res || io_uring_cqe_get_data64(cqe) != tag)
		uring_die("NOP completion", cqe->res ? cqe->res : -EPROTO);
	io_uring_cqe_seen(ring, cqe);
}

void uring_nop_enter(void)
{
	static unsigned long tag;
	struct io_uring_cqe *cqe;
	int ret;

	uring_queue_nop(&enter_ring, ++tag);
	/* One io_uring_enter(): submit, and wait for one completion. */
	ret = io_uring_submit_and_wait(&enter_ring, 1);
	if (ret != 1)
		uring_die("submit_and_wait", ret < 0 ? ret : -EPROTO);
	ret = io_uring_peek_cqe(&enter_ring, &cqe);
	if (ret)
		uring_die("peek_cqe", ret);
	uring_reap(&enter_ring, cqe, tag);
}

void uring_nop_sqpoll(void)
{
	static unsigned long tag;
	struct io_uring_cqe *cqe = NULL;
	int ret;

	uring_queue_nop(&sqpoll_ring, ++tag);
	/*
	 * No system call unless the thread sleeps (IORING_SQ_NEED_WAKEUP).
	 * It returns what the thread has not consumed yet: 1, or 0 if it
	 * already took the NOP.
	 */
	ret = io_uring_submit(&sqpoll_ring);
	if (ret < 0)
		uring_die("submit (SQPOLL)", ret);
	/* Spin on the completion ring, as vatom's polling rows spin. */
	while (io_uring_peek_cqe(&sqpoll_ring, &cqe) == -EAGAIN)
		__builtin_ia32_pause();
	uring_reap(&sqpoll_ring, cqe, tag);
}
