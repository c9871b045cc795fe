// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_ledger.c: vatom_fuzz's known-good workload (fuzz.h).
 *
 * Copyright (C) 2026 The vatom developers
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/sync_file.h>
#include <xf86drm.h>

#include "kselftest.h"

#include "common.h"
#include "fuzz.h"
#include "fuzz_trace.h"

/* ------------------------------------------------------------------------ */
/* The known-good workload                                                   */
/* ------------------------------------------------------------------------ */

double vz_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}



/*
 * The ledger's polling queue, made before the fuzzing takes the device's
 * pollers; without one (an older module) the ledger only submits.
 */
static void vz_ledger_queue(struct vz_ledger *l)
{
	struct drm_vatom_binding b[2] = { { .slot = 0 }, { .slot = 1 } };
	struct drm_vatom_queue_create a = {
		.entries = VZ_LQ_ENTRIES,
		.flags = DRM_VATOM_QUEUE_CREATE_POLL | DRM_VATOM_QUEUE_CREATE_EVENTFD,
		.bindings = vt_u64_ptr(b), .binding_count = 2,
	};

	/*
	 * Above every descriptor number the workers pick at random for a
	 * queue's eventfd (below 64, "whatever it is"): a random queue once
	 * signalled this one, 499 counts for 481 jobs.
	 */
	l->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (l->efd >= 0) {
		int high = fcntl(l->efd, F_DUPFD_CLOEXEC, VZ_LEDGER_EFD_MIN);

		close(l->efd);
		l->efd = high;
	}
	if (l->efd < 0 || drmSyncobjCreate(l->fd, 0, &l->qsync) ||
	    vt_buffer_create(l->fd, VZ_LQ_ENTRIES * VZ_LQ_STRIDE, &l->qs))
		return;
	l->qmap = vt_map(l->fd, l->qs, VZ_LQ_ENTRIES * VZ_LQ_STRIDE);
	b[0].handle = l->buf;
	b[1].handle = l->qs;
	a.syncobj = l->qsync;
	a.eventfd = l->efd;
	if (!l->qmap || ioctl(l->fd, DRM_IOCTL_VATOM_QUEUE_CREATE, &a))
		return;
	l->ring = vt_map(l->fd, a.ring_handle, VZ_LQ_ENTRIES * sizeof(*l->ring));
	l->ctl = vt_map(l->fd, a.ctl_handle, VT_PAGE_SIZE);
	if (l->ring && l->ctl)
		l->q = a.queue_id;
}

int vz_ledger_init(struct vz_ledger *l)
{
	memset(l, 0, sizeof(*l));
	l->efd = -1;
	l->fd = vt_open_path(vz_nodes[0]);
	if (l->fd < 0 || vt_buffer_create(l->fd, VT_PAGE_SIZE, &l->buf) ||
	    vt_buffer_create(l->fd, VT_PAGE_SIZE, &l->res) ||
	    drmSyncobjCreate(l->fd, DRM_SYNCOBJ_CREATE_SIGNALED, &l->out))
		return -errno;
	l->map = vt_map(l->fd, l->buf, VT_PAGE_SIZE);
	if (!l->map)
		return -errno;
	vz_ledger_queue(l);
	return 0;
}

/* Wait (5 s at most) until the queue completed @n jobs. */
static bool vz_ledger_drained(struct vz_ledger *l, __u32 n)
{
	double end = vz_now() + 5;

	while (__atomic_load_n(&l->ctl->completed, __ATOMIC_ACQUIRE) < n) {
		if (vz_now() > end) {
			if (!l->bad++)
				snprintf(l->why, sizeof(l->why), "ledger queue: %llu of %u done",
					 (unsigned long long)l->ctl->completed, n);
			return false;
		}
		sched_yield();
	}
	return true;
}

/*
 * A ledger job that would have added @k failed with @err: with -F, a job
 * that timed out, faulted, or was refused or cancelled by its file's reset
 * executed nothing (it is one packet): take @k back and acknowledge the
 * reset. Anything else is a defect.
 */
static void vz_ledger_failed(struct vz_ledger *l, int err, __u32 k, const char *what)
{
	int i;

	for (i = 0; i < VZ_LEDGER_LANES; i++)
		l->sum[i] -= k;
	if (vz_faults && (err == -EIO || err == -ETIMEDOUT || err == -ECANCELED)) {
		l->failed++;
		vz_ack(l->fd);
		return;
	}
	if (!l->bad++)
		snprintf(l->why, sizeof(l->why), "ledger %s: %s", what,
			 strerrorname_np(-err) ? strerrorname_np(-err) : "?");
}

/* Read the status of the queue's jobs completed since the last call. */
static void vz_ledger_seen(struct vz_ledger *l)
{
	__u64 done = __atomic_load_n(&l->ctl->completed, __ATOMIC_ACQUIRE);
	__s32 status;

	for (; l->seen < l->jobs && l->seen < done; l->seen++) {
		status = __atomic_load_n(&l->ring[l->seen % VZ_LQ_ENTRIES].status,
					 __ATOMIC_RELAXED);
		if (status)
			vz_ledger_failed(l, status, l->qk[l->seen % VZ_LQ_ENTRIES],
					 "queue job");
	}
}

/*
 * Wait for the last job with the ledger's out-syncobj; an asynchronous one
 * that failed added nothing. Return: false when the wait failed.
 */
static bool vz_ledger_wait(struct vz_ledger *l)
{
	int st;

	if (drmSyncobjWait(l->fd, &l->out, 1, INT64_MAX, 0, NULL)) {
		if (!l->bad++)
			snprintf(l->why, sizeof(l->why), "ledger wait: %s", strerror(errno));
		return false;
	}
	if (l->async_k) {
		st = vt_fence_status(l->fd, l->out);
		if (st < 0)
			vz_ledger_failed(l, st, l->async_k, "asynchronous job");
		else if (st != 1 && !l->bad++)
			snprintf(l->why, sizeof(l->why), "ledger fence status %d", st);
		l->async_k = 0;
	}
	return true;
}

/* One job through the polling queue adding @k to every lane. */
static void vz_ledger_queue_add(struct vz_ledger *l, __u32 k)
{
	__u32 addr[VZ_LEDGER_LANES], src[VZ_LEDGER_LANES], pos = l->jobs, i;
	struct drm_vatom_queue_job *j = &l->ring[pos % VZ_LQ_ENTRIES];
	struct drm_vatom_queue_kick kick = { .queue_id = l->q };
	struct vt_stream s;
	struct vt_visa v;

	/* The ring entry and its stream are free once the job there is done. */
	if (pos >= VZ_LQ_ENTRIES && !vz_ledger_drained(l, pos - VZ_LQ_ENTRIES + 1))
		return;
	vz_ledger_seen(l);
	for (i = 0; i < VZ_LEDGER_LANES; i++) {
		addr[i] = 4 * i;
		src[i] = k;
	}
	vt_stream_init(&s);
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_8,
		 DRM_VATOM_VISA_TYPE_UD, addr, src, NULL, false);
	vt_add_visa(&s, &v);
	memcpy(l->qmap + (pos % VZ_LQ_ENTRIES) * VZ_LQ_STRIDE, s.buf, s.size);
	memset(j, 0, sizeof(*j));
	j->stream_slot = 1;
	j->stream_offset = (pos % VZ_LQ_ENTRIES) * VZ_LQ_STRIDE;
	j->stream_size = s.size;
	l->qk[pos % VZ_LQ_ENTRIES] = k;
	for (i = 0; i < VZ_LEDGER_LANES; i++)
		l->sum[i] += k;
	l->jobs++;
	__atomic_store_n(&l->ctl->tail, l->jobs, __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	atomic_fetch_add(&vz_rep->calls, 1);
	if ((__atomic_load_n(&l->ctl->flags, __ATOMIC_RELAXED) &
	     DRM_VATOM_QUEUE_CTL_NEED_WAKEUP) &&
	    ioctl(l->fd, DRM_IOCTL_VATOM_QUEUE_KICK, &kick) && !l->bad++)
		snprintf(l->why, sizeof(l->why), "ledger KICK: %s", strerror(errno));
}

/*
 * Add k (1..1000) to every lane, synchronously or not; it must work (with
 * -F: or fail as vz_ledger_failed() allows). A synchronous job's results
 * are the lanes before it: with -F every job before it must have been
 * accounted, the asynchronous one waited for.
 */
void vz_ledger_add(struct vz_ledger *l, __u64 *rng)
{
	__u32 addr[VZ_LEDGER_LANES], src[VZ_LEDGER_LANES], res[VZ_LEDGER_LANES];
	struct drm_vatom_binding b = { .slot = 0, .handle = l->buf };
	struct drm_vatom_sync out = { .handle = l->out };
	struct drm_vatom_submit a;
	__u32 k = 1 + vz_below(rng, 1000), i, before;
	bool async = vz_chance(rng, 50);
	struct vt_stream s;
	struct vt_visa v;

	if (l->q && vz_chance(rng, 40)) {
		vz_ledger_queue_add(l, k);
		return;
	}
	/* Synchronous results hold the sum so far: the queue's jobs first. */
	if (l->q && !vz_ledger_drained(l, l->jobs))
		return;
	if (l->q)
		vz_ledger_seen(l);
	if (vz_faults && !vz_ledger_wait(l))
		return;
	for (i = 0; i < VZ_LEDGER_LANES; i++) {
		addr[i] = 4 * i;
		src[i] = k;
	}
	vt_stream_init(&s);
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_8,
		 DRM_VATOM_VISA_TYPE_UD, addr, src, NULL, true);
	vt_add_visa(&s, &v);
	vt_submit_args(&a, &s, &b, 1, res, sizeof(res));
	if (async || vz_chance(rng, 30)) {
		/* One asynchronous job in flight at most: never EBUSY. */
		if (!vz_ledger_wait(l))
			return;
		a.results = 0;
		a.result_handle = l->res;
		a.out_syncs = vt_u64_ptr(&out);
		a.out_sync_count = 1;
		if (async)
			a.flags = DRM_VATOM_SUBMIT_ASYNC;
	}
	before = l->sum[0];
	for (i = 0; i < VZ_LEDGER_LANES; i++)
		l->sum[i] += k;
	l->subs++;
	atomic_fetch_add(&vz_rep->calls, 1);
	if (vt_submit(l->fd, &a)) {
		int e = errno;

		if (vz_faults && (e == EIO || e == ETIMEDOUT)) {
			vz_ledger_failed(l, -e, k, "submission");
			return;
		}
		for (i = 0; i < VZ_LEDGER_LANES; i++)
			l->sum[i] -= k;
		if (!l->bad++)
			snprintf(l->why, sizeof(l->why), "ledger submission %u: %s (reason %u)",
				 l->subs, strerror(e), a.error_reason);
		return;
	}
	if (async)
		l->async_k = k;
	if (!async && !a.result_handle && res[0] != before && !l->bad++)
		snprintf(l->why, sizeof(l->why), "ledger submission %u returned %u, expected %u",
			 l->subs, res[0], before);
}

/*
 * Wait for the last job, then the lanes must hold exactly the sums; the
 * queue's timeline is at point "jobs published" and its eventfd was
 * signalled at least once and at most once per job.
 */
bool vz_ledger_check(struct vz_ledger *l)
{
	struct drm_syncobj_timeline_wait w;
	struct drm_syncobj_timeline_array a;
	__u64 point = l->jobs, v = 0;
	int i;

	if (!vz_ledger_wait(l))
		return false;
	if (l->q && l->jobs) {
		if (!vz_ledger_drained(l, l->jobs))
			return false;
		vz_ledger_seen(l);
		memset(&w, 0, sizeof(w));
		w.handles = vt_u64_ptr(&l->qsync);
		w.points = vt_u64_ptr(&point);
		w.count_handles = 1;
		w.timeout_nsec = INT64_MAX;
		w.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT;
		memset(&a, 0, sizeof(a));
		a.handles = w.handles;
		a.points = w.points;
		a.count_handles = 1;
		if (ioctl(l->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w) ||
		    ioctl(l->fd, DRM_IOCTL_SYNCOBJ_QUERY, &a) || point != l->jobs) {
			snprintf(l->why, sizeof(l->why), "ledger queue: point %llu, %u jobs",
				 (unsigned long long)point, l->jobs);
			return false;
		}
		if (read(l->efd, &v, sizeof(v)) != sizeof(v) || !v || v > l->jobs) {
			snprintf(l->why, sizeof(l->why), "ledger queue: eventfd %llu, %u jobs",
				 (unsigned long long)v, l->jobs);
			return false;
		}
	}
	for (i = 0; i < VZ_LEDGER_LANES; i++)
		if (l->map[i] != l->sum[i]) {
			snprintf(l->why, sizeof(l->why), "lane %d holds %u, expected %u (%u jobs failed)",
				 i, l->map[i], l->sum[i], l->failed);
			return false;
		}
	return !l->bad;
}

