// SPDX-License-Identifier: GPL-2.0
/*
 * vatom_fault: The user-mode queue paths (QUEUE_CREATE, kick and polling, and
 * KICK): setups, calls and checks.
 *
 * Part of vatom_fault (vatom_fault.c says what it checks); the types and
 * what the files share are in fault.h.
 *
 * Copyright (C) 2026 The vatom developers
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <linux/sync_file.h>
#include <xf86drm.h>

#include "kselftest.h"

#include "common.h"
#include "fault.h"

/* ------------------------------------------------------------------------ */
/* Queues                                                                    */
/* ------------------------------------------------------------------------ */

/* Polling queues the device runs now, against the count after setup. */
static long long vf_new_pollers(struct vf_ctx *c)
{
	return vt_debugfs_stat(vf_limits[0], "poll_queues") - c->counts.v[0][3];
}

/*
 * A buffer, a result surface, a stream surface holding a stream of @npk
 * packets (and one PTX), a timeline syncobj and an eventfd; the queue's
 * creation arguments with @flags bind the three at slots 0, 1 and 2.
 */
static int vf_setup_queue_common(struct vf_ctx *c, int npk, __u32 flags)
{
	int ret = vf_setup_common(c);

	if (ret)
		return ret;
	ret = vf_buffer(c->fd, &c->res, &c->rmap);
	if (ret)
		return ret;
	memset(c->rmap, VT_POISON, VF_BUF_SIZE);
	if (vt_buffer_create(c->fd, VF_QUEUE_STREAMS, &c->qs))
		return -errno;
	c->qsmap = vt_map(c->fd, c->qs, VF_QUEUE_STREAMS);
	c->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (!c->qsmap || c->efd < 0 || drmSyncobjCreate(c->fd, 0, &c->sout[1]))
		return -errno;
	vf_stream(c, npk);
	memcpy(c->qsmap, c->stream.buf, c->stream.size);
	c->qbind[0] = (struct drm_vatom_binding){ .slot = 0, .handle = c->buf };
	c->qbind[1] = (struct drm_vatom_binding){ .slot = 1, .handle = c->qs };
	c->qbind[2] = (struct drm_vatom_binding){ .slot = 2, .handle = c->res };
	memset(&c->qc, 0, sizeof(c->qc));
	c->qc.entries = VF_QUEUE_ENTRIES;
	c->qc.flags = flags | DRM_VATOM_QUEUE_CREATE_EVENTFD;
	c->qc.bindings = vt_u64_ptr(c->qbind);
	c->qc.binding_count = 3;
	c->qc.poll_idle_us = flags & DRM_VATOM_QUEUE_CREATE_POLL ? 1000 : 0;
	c->qc.syncobj = c->sout[1];
	c->qc.eventfd = c->efd;
	return 0;
}

/* Map the ring and page of the queue @c->qc made; publish the stream as job 1. */
static int vf_queue_map_publish(struct vf_ctx *c)
{
	struct drm_vatom_queue_job *j;

	c->qring = vt_map(c->fd, c->qc.ring_handle, VT_PAGE_SIZE);
	c->qctl = vt_map(c->fd, c->qc.ctl_handle, VT_PAGE_SIZE);
	if (!c->qring || !c->qctl)
		return -errno;
	j = &c->qring[0];
	memset(j, 0, sizeof(*j));
	j->stream_slot = 1;
	j->stream_size = c->stream.size;
	j->results_slot = 2;
	j->results_offset = VF_RES_OFFSET;
	j->results_size = c->nres;
	__atomic_store_n(&c->qctl->tail, 1, __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return 0;
}

/* The last point of timeline @h, or -1. */
static long long vf_timeline_point(int fd, __u32 h)
{
	struct drm_syncobj_timeline_array a;
	__u64 pt = 0;

	memset(&a, 0, sizeof(a));
	a.handles = vt_u64_ptr(&h);
	a.points = vt_u64_ptr(&pt);
	a.count_handles = 1;
	return ioctl(fd, DRM_IOCTL_SYNCOBJ_QUERY, &a) ? -1 : (long long)pt;
}

/*
 * Job 1 complete (waiting up to 5 s) and signalled: the timeline at point
 * 1, the eventfd at 1. Return: 0, or -1 with @why filled.
 */
static int vf_queue_signalled(struct vf_ctx *c, char *why, size_t len)
{
	struct drm_syncobj_timeline_wait w;
	__u32 h = c->sout[1];
	__u64 one = 1, v = 0;
	long long pt;
	int i;

	for (i = 0; i < 500 && __atomic_load_n(&c->qctl->completed, __ATOMIC_ACQUIRE) < 1; i++)
		vf_sleep_ms(10);
	if (c->qctl->completed != 1) {
		snprintf(why, len, "queue: %llu jobs completed, not 1",
			 (unsigned long long)c->qctl->completed);
		return -1;
	}
	memset(&w, 0, sizeof(w));
	w.handles = vt_u64_ptr(&h);
	w.points = vt_u64_ptr(&one);
	w.count_handles = 1;
	w.timeout_nsec = vf_deadline(5000);
	w.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT;
	pt = ioctl(c->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w) ? -1 :
	     vf_timeline_point(c->fd, h);
	if (pt != 1) {
		snprintf(why, len, "queue: timeline at point %lld, not 1", pt);
		return -1;
	}
	for (i = 0; i < 500 && read(c->efd, &v, sizeof(v)) != sizeof(v); i++)
		vf_sleep_ms(10);
	if (v != 1) {
		snprintf(why, len, "queue: eventfd %llu, not 1", (unsigned long long)v);
		return -1;
	}
	return 0;
}

/* Job 1 executed exactly (VF_DONE) or changed nothing (VF_UNCHANGED). */
static enum vf_state vf_queue_job_state(struct vf_ctx *c, char *why, size_t len)
{
	enum vf_state st = vf_buf_state(c);
	bool ok = !c->qring[0].status, done = st == VF_DONE;
	long i;

	/* Executed exactly when its status says so. */
	if (st == VF_BAD || ok != done) {
		snprintf(why, len, "job status %d, surface %s", c->qring[0].status,
			 st == VF_BAD ? "partly changed" : st == VF_DONE ? "changed" :
			 "unchanged");
		return VF_BAD;
	}
	if (st == VF_UNCHANGED) {
		if (vt_find_ne8(c->rmap, 0, VF_BUF_SIZE, VT_POISON) >= 0) {
			snprintf(why, len, "results written by a job that failed");
			return VF_BAD;
		}
		return VF_UNCHANGED;
	}
	i = vf_mismatch(c, c->rmap + VF_RES_OFFSET / 4);
	if (i >= 0) {
		snprintf(why, len, "results differ at word %ld: %#x, expected %#x",
			 i, c->rmap[VF_RES_OFFSET / 4 + i], c->rexpect[i]);
		return VF_BAD;
	}
	return VF_DONE;
}

int vf_setup_queue_create(struct vf_ctx *c)
{
	return vf_setup_queue_common(c, 1, DRM_VATOM_QUEUE_CREATE_POLL);
}

int vf_call_queue_create(struct vf_ctx *c)
{
	c->qc.queue_id = 0;
	c->qc.ring_handle = 0;
	c->qc.ctl_handle = 0;
	return vf_ioctl(c->fd, DRM_IOCTL_VATOM_QUEUE_CREATE, &c->qc);
}

/*
 * Created or not: two surfaces (ring, page) and a poller more, or none.
 * Created: its poller runs a job to completion, exactly, and signals.
 */
enum vf_state vf_check_queue_create(struct vf_ctx *c, int ret, char *why,
				    size_t len)
{
	char msg[160];
	long long n, p;

	if (ret && vf_counts_settle(&c->counts, msg, sizeof(msg)))
		return VF_UNCHANGED;
	n = vf_new_surfaces(c, 0);
	p = vf_new_pollers(c);
	if (n != 2 || p != 1) {
		snprintf(why, len, "%lld surfaces and %lld pollers more after %s call", n, p,
			 ret ? "a failed" : "a successful");
		return VF_BAD;
	}
	if (ret)
		return VF_DONE;	/* the copy-out of the ids failed */
	if (vf_queue_map_publish(c)) {
		snprintf(why, len, "cannot map the queue: %s", strerror(errno));
		return VF_BAD;
	}
	if (__atomic_load_n(&c->qctl->flags, __ATOMIC_RELAXED) &
	    DRM_VATOM_QUEUE_CTL_NEED_WAKEUP) {
		struct drm_vatom_queue_kick k = { .queue_id = c->qc.queue_id };

		if (vf_ioctl(c->fd, DRM_IOCTL_VATOM_QUEUE_KICK, &k)) {
			snprintf(why, len, "KICK of the new queue failed");
			return VF_BAD;
		}
	}
	if (vf_queue_signalled(c, why, len))
		return VF_BAD;
	if (vf_queue_job_state(c, why, len) != VF_DONE) {
		if (!why[0])
			snprintf(why, len, "the new queue's job failed: %d", c->qring[0].status);
		return VF_BAD;
	}
	return VF_DONE;
}

/* A kick-mode queue, its job (a stream over a page) published. */
int vf_setup_queue_kick(struct vf_ctx *c)
{
	int ret = vf_setup_queue_common(c, VF_BIG_PACKETS, 0);

	if (ret)
		return ret;
	if (vf_ioctl(c->fd, DRM_IOCTL_VATOM_QUEUE_CREATE, &c->qc))
		return -errno;
	return vf_queue_map_publish(c);
}

/* KICK; a job that failed for want of memory says so in its status. */
int vf_call_queue_kick(struct vf_ctx *c)
{
	struct drm_vatom_queue_kick k = { .queue_id = c->qc.queue_id };
	int ret = vf_ioctl(c->fd, DRM_IOCTL_VATOM_QUEUE_KICK, &k);

	if (ret || __atomic_load_n(&c->qctl->completed, __ATOMIC_ACQUIRE) != 1)
		return ret;
	return c->qring[0].status;
}

/*
 * Nothing consumed (the syncobj point could not be allocated): nothing
 * changed or signalled. Consumed: the job executed exactly, or failed
 * changing nothing, and either way the batch is signalled.
 */
enum vf_state vf_check_queue_kick(struct vf_ctx *c, int ret, char *why,
				  size_t len)
{
	__u64 v;

	if (!__atomic_load_n(&c->qctl->completed, __ATOMIC_ACQUIRE)) {
		if (vf_timeline_point(c->fd, c->sout[1]) ||
		    read(c->efd, &v, sizeof(v)) >= 0 || vf_buf_state(c) != VF_UNCHANGED ||
		    vt_find_ne8(c->rmap, 0, VF_BUF_SIZE, VT_POISON) >= 0) {
			snprintf(why, len, "nothing consumed, yet a point, a signal or a write");
			return VF_BAD;
		}
		return VF_UNCHANGED;
	}
	if (vf_queue_signalled(c, why, len))
		return VF_BAD;
	if (vf_job_fault(c)) {
		if (c->fault == -EPROTO)
			return vf_faulted(c, NULL, why, len);
		if (c->qring[0].status != c->fault || ret != c->fault) {
			snprintf(why, len, "the job %s, yet its status is %d",
				 c->fault == -EIO ? "faulted" : "timed out",
				 c->qring[0].status);
			return VF_BAD;
		}
		return vf_faulted(c, c->rmap + VF_RES_OFFSET / 4, why, len);
	}
	return vf_queue_job_state(c, why, len);
}
