// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_queue.c: vatom_fuzz's user-mode queues (fuzz.h).
 *
 * Copyright (C) 2026 The vatom developers
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
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
/* Queues                                                                    */
/* ------------------------------------------------------------------------ */

/* A queue's binding table is SUBMIT's, plus the jobs' streams and results. */
#define VZ_QUEUE_SLOT		6
#define VZ_QUEUE_AREA		8192	/* stream (and results) bytes per job area */
#define VZ_QUEUE_AREAS		4

static __u64 vz_page_round(__u64 size)
{
	return (size + VT_PAGE_SIZE - 1) & ~(__u64)(VT_PAGE_SIZE - 1);
}

/* Forget queue @i, unmapping its ring and page. */
static void vz_queue_forget(struct vz_worker *w, int i)
{
	struct vz_queue *q = &w->queue[i];

	if (q->ring)
		munmap(q->ring, vz_page_round((__u64)q->entries * sizeof(*q->ring)));
	if (q->ctl)
		munmap(q->ctl, VT_PAGE_SIZE);
	w->queue[i] = w->queue[--w->nqueue];
}

/* Forget every queue the worker knows, before vz_worker_fini(). */
void vz_queues_forget(struct vz_worker *w)
{
	while (w->nqueue)
		vz_queue_forget(w, 0);
}

static void vz_queue_destroy(struct vz_worker *w, int i)
{
	struct drm_vatom_queue_destroy d = { 0 };
	int fd = w->fd;

	w->op = "queue_destroy";
	if (i >= 0) {
		d.queue_id = w->queue[i].id;
		fd = w->queue[i].fd;
		vz_queue_forget(w, i);
	} else {
		d.queue_id = vz_chance(&w->rng, 50) ? vz_below(&w->rng, 70) : vz_next(&w->rng);
	}
	if (vz_chance(&w->rng, 3))
		d.pad = 1;
	vz_ioctl(w, fd, DRM_IOCTL_VATOM_QUEUE_DESTROY, &d, false);
}

/*
 * QUEUE_CREATE, valid or mutated: kick or polling mode, idle times, a
 * syncobj, an eventfd (or a pipe, a closed or any descriptor). The ring
 * and page join the handle pool (other calls bind and close them; the
 * queue keeps its own references).
 */
static void vz_queue_create(struct vz_worker *w)
{
	struct vz_surf *typed = vz_find(w, DRM_VATOM_SURFACE_TYPED);
	struct vz_surf *grid = vz_find(w, DRM_VATOM_SURFACE_TILE_GRID);
	struct drm_vatom_binding bind[8];
	struct drm_vatom_queue_create a;
	struct vz_queue *q;
	__u32 nb = 0, i;

	if (w->nqueue == VZ_MAX_QUEUES)
		vz_queue_destroy(w, vz_below(&w->rng, w->nqueue));
	w->op = "queue_create";
	memset(bind, 0, sizeof(bind));
	for (i = 0; i < 3; i++) {
		bind[nb].slot = i;
		bind[nb++].handle = vz_handle(w, DRM_VATOM_SURFACE_BUFFER);
	}
	bind[nb].slot = VZ_TYPED_SLOT;
	bind[nb++].handle = typed ? typed->h : vz_handle(w, ~0u);
	bind[nb].slot = VZ_GRID_SLOT;
	bind[nb++].handle = grid ? grid->h : vz_handle(w, ~0u);
	bind[nb].slot = VZ_QUEUE_SLOT;
	bind[nb++].handle = vz_chance(&w->rng, 95) ? w->qsurf : vz_handle(w, ~0u);

	memset(&a, 0, sizeof(a));
	a.entries = vz_chance(&w->rng, 90) ? 1u << vz_below(&w->rng, 7) : vz_count(w, 8);
	a.bindings = vz_ptr(w, bind, 5);
	a.binding_count = vz_chance(&w->rng, 90) ? nb : vz_count(w, nb);
	switch (vz_below(&w->rng, 8)) {
	case 0:
	case 1:
		break;
	case 2:
	case 3:
	case 4:
		a.flags = DRM_VATOM_QUEUE_CREATE_POLL;
		break;
	case 5:
		a.flags = DRM_VATOM_QUEUE_CREATE_EVENTFD;
		break;
	case 6:
		a.flags = DRM_VATOM_QUEUE_CREATE_POLL | DRM_VATOM_QUEUE_CREATE_EVENTFD;
		break;
	default:
		a.flags = vz_next(&w->rng);
		break;
	}
	/* Pollers that spin a second are rare: they take the CPU. */
	if (a.flags & DRM_VATOM_QUEUE_CREATE_POLL)
		a.poll_idle_us = vz_chance(&w->rng, 80) ? vz_below(&w->rng, 2000) :
				 vz_chance(&w->rng, 20) ? 1000000 : vz_next(&w->rng);
	else if (vz_chance(&w->rng, 3))
		a.poll_idle_us = vz_next(&w->rng);
	if (w->nsync && vz_chance(&w->rng, 50))
		a.syncobj = w->sync[vz_below(&w->rng, w->nsync)];
	else if (vz_chance(&w->rng, 10))
		a.syncobj = vz_next(&w->rng);
	if (a.flags & DRM_VATOM_QUEUE_CREATE_EVENTFD) {
		switch (vz_below(&w->rng, 10)) {
		case 0:
			a.eventfd = w->pipefd[0];
			break;
		case 1:
			a.eventfd = -1;
			break;
		case 2:
			a.eventfd = vz_below(&w->rng, VZ_LEDGER_EFD_MIN); /* whatever it is */
			/* -T: the same descriptor in both halves, a pipe */
			if (vd_trace)
				a.eventfd = w->pipefd[1];
			break;
		default:
			a.eventfd = w->efd;
			break;
		}
	} else if (vz_chance(&w->rng, 3)) {
		a.eventfd = w->efd;
	}
	/*
	 * The poller's CPU: mostly one that exists (the first queue of the
	 * process to name one pins its poller; another CPU is then -EINVAL),
	 * sometimes any value, with the flag or without.
	 */
	if ((a.flags & DRM_VATOM_QUEUE_CREATE_POLL) && vz_chance(&w->rng, 20))
		a.flags |= DRM_VATOM_QUEUE_CREATE_POLL_CPU;
	if (a.flags & DRM_VATOM_QUEUE_CREATE_POLL_CPU)
		a.poll_cpu = vz_chance(&w->rng, 90) ?
			     vz_below(&w->rng, (__u32)sysconf(_SC_NPROCESSORS_ONLN)) :
			     vz_next(&w->rng);
	else if (vz_chance(&w->rng, 3))
		a.poll_cpu = vz_next(&w->rng);
	/*
	 * -T: no polling queue. A poller consumes when it likes, so what
	 * the next call sees of its jobs is timing, not the device.
	 */
	if (vd_trace)
		a.flags &= ~(DRM_VATOM_QUEUE_CREATE_POLL | DRM_VATOM_QUEUE_CREATE_POLL_CPU);
	if (vz_ioctl(w, w->fd, DRM_IOCTL_VATOM_QUEUE_CREATE,
		     vz_chance(&w->rng, 2) ? (void *)vz_none : &a, false))
		return;
	q = &w->queue[w->nqueue++];
	q->fd = w->fd;
	q->id = a.queue_id;
	q->entries = a.entries;
	q->tail = 0;
	q->poll = a.flags & DRM_VATOM_QUEUE_CREATE_POLL;
	q->ring = vt_map(w->fd, a.ring_handle,
			 vz_page_round((__u64)a.entries * sizeof(*q->ring)));
	q->ctl = vt_map(w->fd, a.ctl_handle, VT_PAGE_SIZE);
	vz_remember(w, a.ring_handle, DRM_VATOM_SURFACE_BUFFER,
		    (__u64)a.entries * sizeof(*q->ring));
	vz_remember(w, a.ctl_handle, DRM_VATOM_SURFACE_BUFFER, VT_PAGE_SIZE);
}

/* KICK queue @q, or an id nobody has (@q NULL). */
static void vz_queue_kick(struct vz_worker *w, const struct vz_queue *q)
{
	struct drm_vatom_queue_kick k = { 0 };

	w->op = "queue_kick";
	k.queue_id = q ? q->id : vz_chance(&w->rng, 50) ? vz_below(&w->rng, 70) :
				  (__u32)vz_next(&w->rng);
	if (vz_chance(&w->rng, 3))
		k.pad = 1;
	vz_ioctl(w, q ? q->fd : w->fd, DRM_IOCTL_VATOM_QUEUE_KICK, &k, false);
}

/* A job's descriptor, its fields mutated now and then. */
static void vz_queue_job(struct vz_worker *w, struct drm_vatom_queue_job *j,
			 const struct vt_stream *s)
{
	__u32 area = vz_below(&w->rng, VZ_QUEUE_AREAS);

	memcpy(w->qmap + area * VZ_QUEUE_AREA, s->buf,
	       s->size < VZ_QUEUE_AREA ? s->size : VZ_QUEUE_AREA);
	memset(j, 0, sizeof(*j));
	j->stream_slot = VZ_QUEUE_SLOT;
	j->stream_offset = area * VZ_QUEUE_AREA;
	j->stream_size = s->size;
	j->user_data = vz_next(&w->rng);
	if (s->results) {
		j->results_slot = VZ_QUEUE_SLOT;
		j->results_offset = (VZ_QUEUE_AREAS + area) * VZ_QUEUE_AREA;
		j->results_size = s->results < VZ_QUEUE_AREA ? s->results : VZ_QUEUE_AREA;
	}
	if (!vz_chance(&w->rng, 20))
		return;
	switch (vz_below(&w->rng, 8)) {
	case 0:
		j->stream_slot = vz_below(&w->rng, 300);
		break;
	case 1:
		j->stream_offset = vz_chance(&w->rng, 50) ? vz_next(&w->rng) :
				   j->stream_offset + 4;
		break;
	case 2:
		j->stream_size = vz_count(w, j->stream_size);
		break;
	case 3:
		j->results_offset = vz_next(&w->rng) >> vz_below(&w->rng, 64);
		break;
	case 4:
		j->results_size = vz_chance(&w->rng, 50) ? 0 : vz_next(&w->rng);
		break;
	case 5:
		j->flags = 1u << vz_below(&w->rng, 32);
		break;
	case 6:
		j->pad = vz_next(&w->rng);
		break;
	default:
		j->results_slot = vz_below(&w->rng, 10);
		break;
	}
}

/*
 * Publish jobs on a queue: packets of every family, mutated or not, in
 * the worker's queue surface; the tail moved on, too far or anywhere;
 * then KICK as the protocol asks (kick mode: always; polling: when
 * NEED_WAKEUP is set), or anyway.
 */
void vz_queue_jobs(struct vz_worker *w)
{
	struct vt_stream *s = (void *)(w->scratch + VZ_SCRATCH / 2);
	struct vz_surf *buf = vz_find(w, DRM_VATOM_SURFACE_BUFFER);
	struct vz_surf *grid = vz_find(w, DRM_VATOM_SURFACE_TILE_GRID);
	__u64 bsize = buf ? buf->size : 64;
	__u32 gw = grid ? grid->w : 1, gh = grid ? grid->gh : 1;
	__u32 profile = grid ? grid->profile : 0;
	__u32 n, i, p, npk, tail;
	struct vz_queue *q;

	if (!w->nqueue) {
		vz_queue_create(w);
		return;
	}
	q = &w->queue[vz_below(&w->rng, w->nqueue)];
	w->op = "queue_jobs";
	if (!q->ring || !q->ctl || !w->qmap) {
		vz_queue_kick(w, q);
		return;
	}
	n = 1 + vz_below(&w->rng, q->entries < 8 ? q->entries : 8);
	for (i = 0; i < n; i++) {
		vt_stream_init(s);
		npk = 1 + vz_below(&w->rng, 4);
		for (p = 0; p < npk; p++)
			vz_packet(w, s, bsize, 3, profile, gw, gh, false);
		if (vz_chance(&w->rng, 20))
			vz_mutate_stream(w, s);
		vz_queue_job(w, &q->ring[(q->tail + i) & (q->entries - 1)], s);
	}
	switch (vz_below(&w->rng, 10)) {
	case 0:		/* too far: KICK says -EINVAL, a poller sleeps */
		tail = q->tail + q->entries + 1 + vz_below(&w->rng, 100);
		break;
	case 1:
		tail = vz_next(&w->rng);
		break;
	case 2:		/* back to what the kernel consumed */
		q->tail = __atomic_load_n(&q->ctl->completed, __ATOMIC_ACQUIRE);
		tail = q->tail;
		break;
	default:
		q->tail += n;
		tail = q->tail;
		break;
	}
	__atomic_store_n(&q->ctl->tail, tail, __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (!q->poll || vz_chance(&w->rng, 10) ||
	    (__atomic_load_n(&q->ctl->flags, __ATOMIC_RELAXED) &
	     DRM_VATOM_QUEUE_CTL_NEED_WAKEUP))
		vz_queue_kick(w, q);
}

/* Queue calls: create, jobs, KICK, DESTROY; and the eventfd read. */
void vz_op_queue(struct vz_worker *w)
{
	__u64 v;

	switch (vz_below(&w->rng, 10)) {
	case 0:
	case 1:
		vz_queue_create(w);
		break;
	case 2:
		vz_queue_kick(w, w->nqueue && vz_chance(&w->rng, 80) ?
			      &w->queue[vz_below(&w->rng, w->nqueue)] : NULL);
		break;
	case 3:
		vz_queue_destroy(w, w->nqueue && vz_chance(&w->rng, 85) ?
				 (int)vz_below(&w->rng, w->nqueue) : -1);
		break;
	case 4:
		w->op = "eventfd read";
		if (read(w->efd, &v, sizeof(v)) < 0)
			v = 0;	/* EAGAIN: nothing signalled since */
		break;
	default:
		vz_queue_jobs(w);
		break;
	}
}

