// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_ops.c: vatom_fuzz's calls, one at random: surfaces, SUBMIT, the rest (fuzz.h).
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

static const __u32 vz_tile_l1[2] = { 1024, 512 };

/* SURFACE_CREATE of every kind, valid or mutated. */
static void vz_op_create(struct vz_worker *w)
{
	struct drm_vatom_surface_create c;
	struct drm_vatom_typed_desc *td = (void *)w->scratch;
	struct drm_vatom_tile_grid_desc *gd = (void *)w->scratch;
	__u8 *types = w->scratch + 256;
	bool mutate = vz_chance(&w->rng, 40);
	__u32 i, n;

	w->op = "surface_create";
	memset(&c, 0, sizeof(c));
	c.kind = vz_below(&w->rng, 3);
	switch (c.kind) {
	case DRM_VATOM_SURFACE_BUFFER:
		c.size = 1 + vz_below(&w->rng, 3 * VT_PAGE_SIZE);
		if (vz_chance(&w->rng, 5))
			c.size = 256ull << 20;
		break;
	case DRM_VATOM_SURFACE_TYPED:
		memset(td, 0, sizeof(*td));
		td->dim = vz_below(&w->rng, 5);
		td->width = 1 + vz_below(&w->rng, 64);
		td->height = td->dim >= DRM_VATOM_TYPED_2D ? 1 + vz_below(&w->rng, 32) : 1;
		td->depth = td->dim == DRM_VATOM_TYPED_3D ? 1 + vz_below(&w->rng, 8) : 1;
		td->array_size = (td->dim == DRM_VATOM_TYPED_1D_ARRAY ||
				  td->dim == DRM_VATOM_TYPED_2D_ARRAY) ?
				 1 + vz_below(&w->rng, 4) : 1;
		td->levels = 1 + vz_below(&w->rng, 3);
		c.desc = vt_u64_ptr(td);
		c.desc_size = sizeof(*td);
		break;
	default:
		memset(gd, 0, sizeof(*gd));
		gd->profile = vz_below(&w->rng, 2);
		gd->width = 1 + vz_below(&w->rng, 8);
		gd->height = 1 + vz_below(&w->rng, 8);
		gd->l1_size[0] = vz_tile_l1[0];
		gd->l1_size[1] = vz_tile_l1[1];
		n = gd->width * gd->height;
		for (i = 0; i < n; i++)
			types[i] = vz_chance(&w->rng, 80) ? DRM_VATOM_TILE_TENSIX :
				   vz_below(&w->rng, DRM_VATOM_TILE_TYPES);
		gd->tile_types = vt_u64_ptr(types);
		c.desc = vt_u64_ptr(gd);
		c.desc_size = sizeof(*gd);
		break;
	}
	if (mutate) {
		switch (vz_below(&w->rng, 8)) {
		case 0:
			c.kind = vz_next(&w->rng);
			break;
		case 1:
			c.flags = 1u << vz_below(&w->rng, 32);
			break;
		case 2:
			c.size = vz_next(&w->rng) >> vz_below(&w->rng, 64);
			break;
		case 3:
			c.desc = vz_ptr(w, w->scratch, 100);
			break;
		case 4:
			c.desc_size = vz_count(w, vz_below(&w->rng, 4200));
			break;
		case 5:
			w->scratch[vz_below(&w->rng, 64)] ^= 1u << vz_below(&w->rng, 8);
			break;
		case 6:
			gd->tile_types = vz_ptr(w, types, 100);
			break;
		default:
			gd->width = vz_below(&w->rng, 80);
			gd->height = vz_below(&w->rng, 80);
			break;
		}
	}
	/*
	 * -T: a bit flipped in the tile types' pointer (case 5) points
	 * where the process's layout says: PROT_NONE memory instead.
	 */
	if (vd_trace && c.kind == DRM_VATOM_SURFACE_TILE_GRID &&
	    !vz_ptr_known(w, gd->tile_types, types))
		gd->tile_types = vt_u64_ptr(vz_none);
	if (vd_trace) {
		char d[32], t[32];

		vd_printf("args kind %u flags %#x size %llu desc %s size %u types %s\n",
			  c.kind, c.flags, (unsigned long long)c.size,
			  vz_ptr_name(w, c.desc, d, sizeof(d)), c.desc_size,
			  c.kind == DRM_VATOM_SURFACE_TILE_GRID ?
			  vz_ptr_name(w, gd->tile_types, t, sizeof(t)) : "-");
	}
	if (!vz_ioctl(w, w->fd, DRM_IOCTL_VATOM_SURFACE_CREATE, &c, false)) {
		vz_remember(w, c.handle, c.kind, c.size);
		if (c.kind == DRM_VATOM_SURFACE_TILE_GRID)
			vz_grid_shape(w, c.handle, gd->width, gd->height, gd->profile);
	}
}

/* SURFACE_INFO, MMAP_OFFSET and an mmap of the offset. */
static void vz_op_info(struct vz_worker *w)
{
	struct drm_vatom_surface_info info;
	struct drm_vatom_surface_mmap_offset mo;
	size_t len;
	void *p;

	w->op = "surface_info/mmap";
	memset(&info, 0, sizeof(info));
	info.handle = vz_handle(w, ~0u);
	if (vz_chance(&w->rng, 10))
		info.flags = vz_next(&w->rng);
	if (vz_chance(&w->rng, 10))
		info.pad = vz_next(&w->rng);
	vz_ioctl(w, w->fd, DRM_IOCTL_VATOM_SURFACE_INFO,
		 vz_chance(&w->rng, 3) ? (void *)vz_ro : &info, false);

	memset(&mo, 0, sizeof(mo));
	mo.handle = vz_handle(w, ~0u);
	if (vz_chance(&w->rng, 10))
		mo.flags = vz_next(&w->rng);
	if (vz_ioctl(w, w->fd, DRM_IOCTL_VATOM_SURFACE_MMAP_OFFSET, &mo, false))
		return;
	len = VT_PAGE_SIZE * (1 + vz_below(&w->rng, 8));
	p = mmap(NULL, len, vz_chance(&w->rng, 50) ? PROT_READ : PROT_READ | PROT_WRITE,
		 MAP_SHARED, w->fd, mo.offset + (vz_chance(&w->rng, 10) ? VT_PAGE_SIZE : 0));
	atomic_fetch_add(&vz_rep->calls, 1);
	if (p != MAP_FAILED)
		munmap(p, len);
}

/* ------------------------------------------------------------------------ */
/* SUBMIT                                                                    */
/* ------------------------------------------------------------------------ */

/*
 * -T, a well-formed submission: its stream drawn again, one or two
 * packets, until the device validates it (VALIDATE_ONLY, traced like any
 * call), 8 tries at most. The families' generators make invalid packets
 * as often as not; these jobs are there to execute.
 */
static void vz_submit_settle(struct vz_worker *w, struct vt_stream *s,
			     struct drm_vatom_submit *a, __u64 bsize,
			     const struct vz_surf *grid)
{
	struct drm_vatom_submit v;
	__u32 t, i, n;

	for (t = 0; t < 8; t++) {
		v = *a;
		v.flags |= DRM_VATOM_SUBMIT_VALIDATE_ONLY;
		if (!vz_ioctl(w, w->fd, DRM_IOCTL_VATOM_SUBMIT, &v, false))
			return;
		vt_stream_init(s);
		n = 1 + vz_below(&w->rng, 2);
		for (i = 0; i < n; i++)
			vz_packet(w, s, bsize, grid ? 3 : 2, grid ? grid->profile : 0,
				  grid ? grid->w : 1, grid ? grid->gh : 1, false);
		a->stream = vt_u64_ptr(vz_stream_place(w, s));
		a->stream_size = s->size;
		a->results_size = s->results;
	}
}

void vz_op_submit(struct vz_worker *w)
{
	struct vt_stream *s = (void *)(w->scratch + VZ_SCRATCH / 2);
	struct drm_vatom_binding bind[8];
	struct drm_vatom_sync syncs[2][4];
	struct drm_vatom_submit a;
	struct vz_surf *buf = vz_find(w, DRM_VATOM_SURFACE_BUFFER);
	struct vz_surf *typed = vz_find(w, DRM_VATOM_SURFACE_TYPED);
	struct vz_surf *grid = vz_find(w, DRM_VATOM_SURFACE_TILE_GRID);
	__u64 bsize = buf ? buf->size : 64;
	__u32 gw = grid ? grid->w : 1, gh = grid ? grid->gh : 1;
	__u32 profile = grid ? grid->profile : 0;
	__u32 nb = 0, npk, i, nmut;
	bool good;
	void *res = w->results ? w->results : w->scratch;
	__u8 *stream;

	w->op = "submit";
	vt_stream_init(s);
	npk = 1 + vz_below(&w->rng, 8);
	for (i = 0; i < npk && s->size < VT_STREAM_MAX - 1024; i++)
		vz_packet(w, s, bsize, 3, profile, gw, gh, true);
	/* Broadcast-heavy: many packets to the whole grid. */
	if (grid && vz_chance(&w->rng, 10))
		while (s->size < VT_STREAM_MAX - 64)
			vz_noc(w, s, profile, gw, gh);

	/*
	 * -T: half the submissions well formed (every buffer slot the
	 * buffer the addresses were drawn for, no mutation), so that jobs
	 * execute and the surfaces they change are compared, not only the
	 * errors.
	 */
	good = vd_trace && buf && vz_chance(&w->rng, 50);
	memset(bind, 0, sizeof(bind));
	for (i = 0; i < 3; i++) {
		bind[nb].slot = i;
		bind[nb++].handle = good ? buf->h : vz_handle(w, DRM_VATOM_SURFACE_BUFFER);
	}
	bind[nb].slot = 5;
	bind[nb++].handle = good ? buf->h : vz_handle(w, DRM_VATOM_SURFACE_BUFFER);
	bind[nb].slot = VZ_TYPED_SLOT;
	bind[nb++].handle = typed ? typed->h : vz_handle(w, ~0u);
	bind[nb].slot = VZ_GRID_SLOT;
	bind[nb++].handle = grid ? grid->h : vz_handle(w, ~0u);

	memset(&a, 0, sizeof(a));
	/* The stream at the end of its buffer: reading past it faults. */
	stream = vz_stream_place(w, s);
	a.stream = vt_u64_ptr(stream);
	a.stream_size = s->size;
	a.bindings = vt_u64_ptr(bind);
	a.binding_count = nb;
	if (vz_chance(&w->rng, 60)) {
		a.results = vt_u64_ptr(res);
		a.results_size = s->results + 8 * vz_below(&w->rng, 4);
	} else if (buf) {
		a.result_handle = buf->h;
		a.result_offset = 8 * vz_below(&w->rng, 8);
		a.results_size = s->results;
	}
	/* Zero, not the stack's: the mutations below may point at them. */
	memset(syncs, 0, sizeof(syncs));
	if (w->nsync && vz_chance(&w->rng, 30)) {
		a.in_sync_count = vz_below(&w->rng, 3);
		a.out_sync_count = vz_below(&w->rng, 3);
		for (i = 0; i < 4; i++) {
			syncs[0][i].handle = w->sync[vz_below(&w->rng, w->nsync)];
			syncs[1][i].handle = w->sync[vz_below(&w->rng, w->nsync)];
			if (vz_chance(&w->rng, 30))
				syncs[1][i].point = 1 + vz_below(&w->rng, 100);
		}
		a.in_syncs = vt_u64_ptr(syncs[0]);
		a.out_syncs = vt_u64_ptr(syncs[1]);
	}
	if (vz_chance(&w->rng, 30))
		a.flags = DRM_VATOM_SUBMIT_ASYNC;
	if (good && (a.flags & DRM_VATOM_SUBMIT_ASYNC)) {
		/* Asynchronous results go to a surface only. */
		a.results = 0;
		a.result_handle = buf->h;
		a.result_offset = 0;
		a.results_size = s->results;
	}

	if (good)
		vz_submit_settle(w, s, &a, bsize, grid);

	nmut = good || vz_chance(&w->rng, 30) ? 0 : 1 + vz_below(&w->rng, 3);
	for (i = 0; i < nmut; i++) {
		switch (vz_below(&w->rng, 14)) {
		case 0: case 1: case 2: case 3:
			vz_mutate_stream(w, s);
			/* Again at the end of the buffer, as far as it goes. */
			stream = vz_stream_place(w, s);
			a.stream = vt_u64_ptr(stream);
			a.stream_size = s->size;
			if (vz_chance(&w->rng, 30))
				a.stream_size = vz_count(w, s->size);
			break;
		case 4:
			bind[vz_below(&w->rng, nb)].slot = vz_chance(&w->rng, 50) ?
				vz_below(&w->rng, 300) : bind[0].slot;
			break;
		case 5:
			if (vz_chance(&w->rng, 50))
				bind[vz_below(&w->rng, nb)].flags = vz_next(&w->rng);
			else
				bind[vz_below(&w->rng, nb)].pad = vz_next(&w->rng);
			break;
		case 6:
			a.binding_count = vz_count(w, nb);
			break;
		case 7:
			a.bindings = vz_ptr(w, bind, 100);
			break;
		case 8:
			a.stream = vz_ptr(w, stream, 100);
			break;
		case 9:
			a.results = vz_ptr(w, res, 100);
			a.results_size = vz_chance(&w->rng, 50) ? vz_next(&w->rng) :
					 s->results;
			break;
		case 10:
			a.result_handle = vz_handle(w, ~0u);
			a.result_offset = vz_chance(&w->rng, 50) ? vz_next(&w->rng) :
					  vz_below(&w->rng, 64);
			break;
		case 11:
			a.flags = vz_next(&w->rng);
			break;
		case 12:
			a.in_sync_count = vz_count(w, 1);
			a.out_sync_count = vz_count(w, 1);
			a.in_syncs = vz_ptr(w, syncs[0], 30);
			a.out_syncs = vz_ptr(w, syncs[1], 30);
			syncs[0][0].handle = (__u32)vz_next(&w->rng);
			syncs[1][0].flags = vz_chance(&w->rng, 50);
			syncs[0][1].point = vz_next(&w->rng);
			break;
		default:
			a.error_index = vz_next(&w->rng);
			a.results_needed = vz_next(&w->rng);
			break;
		}
	}
	if (vd_trace) {
		vd_printf("args flags %#x stream %u bindings %u", a.flags, a.stream_size,
			  a.binding_count);
		for (i = 0; i < nb; i++)
			vd_printf(" %u:%u:%#x:%#x", bind[i].slot, bind[i].handle,
				  bind[i].flags, bind[i].pad);
		vd_printf(" results %llu handle %u offset %llu syncs %u %u\n",
			  (unsigned long long)a.results_size, a.result_handle,
			  (unsigned long long)a.result_offset, a.in_sync_count,
			  a.out_sync_count);
	}
	if (!vz_ioctl(w, w->fd, DRM_IOCTL_VATOM_SUBMIT,
		      !good && vz_chance(&w->rng, 2) ? (void *)vz_none : &a, false) &&
	    vd_trace)
		vz_trace_drain(w);
	vz_trace_out(w);
}

/* ------------------------------------------------------------------------ */
/* The rest                                                                  */
/* ------------------------------------------------------------------------ */

static void vz_op_counters(struct vz_worker *w)
{
	struct drm_vatom_noc_counters c;

	w->op = "noc_counters";
	memset(&c, 0, sizeof(c));
	c.handle = vz_handle(w, DRM_VATOM_SURFACE_TILE_GRID);
	c.flags = vz_chance(&w->rng, 80) ? 1u << vz_below(&w->rng, 3) :
		  vz_below(&w->rng, 16);
	c.x = vz_below(&w->rng, vz_chance(&w->rng, 90) ? 2 : 100);
	c.y = vz_below(&w->rng, vz_chance(&w->rng, 90) ? 2 : 100);
	c.noc = vz_below(&w->rng, vz_chance(&w->rng, 90) ? 2 : 9);
	if (c.flags & DRM_VATOM_NOC_COUNTERS_CLEAR_OUTSTANDING)
		c.id_mask = vz_chance(&w->rng, 90) ? vz_below(&w->rng, 0x10000) :
			    vz_next(&w->rng);
	if (c.flags & DRM_VATOM_NOC_COUNTERS_READ) {
		c.count = vz_chance(&w->rng, 90) ? 1 + vz_below(&w->rng, 64) :
			  vz_count(w, 64);
		c.counters = vz_ptr(w, w->scratch, 15);
	}
	if (vz_chance(&w->rng, 5))
		c.pad = 1;
	vz_ioctl(w, w->fd, DRM_IOCTL_VATOM_NOC_COUNTERS, &c, false);
	vz_trace_out(w);
}

static void vz_op_param(struct vz_worker *w)
{
	struct drm_vatom_get_param p;

	w->op = "get_param";
	memset(&p, 0, sizeof(p));
	p.param = vz_chance(&w->rng, 90) ? vz_below(&w->rng, 19) : vz_next(&w->rng);
	p.index = vz_chance(&w->rng, 70) ? 0 : vz_below(&w->rng, 8);
	vz_ioctl(w, w->fd, DRM_IOCTL_VATOM_GET_PARAM, &p, false);
}

static void vz_op_close(struct vz_worker *w)
{
	struct drm_gem_close c = { 0 };
	int i;

	w->op = "gem_close";
	if (w->nsurf && vz_chance(&w->rng, 70)) {
		i = vz_below(&w->rng, w->nsurf);
		c.handle = w->surf[i].h;
		vz_forget(w, i);
	} else {
		c.handle = vz_next(&w->rng);
		if (vz_chance(&w->rng, 20))
			c.pad = 1;
	}
	vz_ioctl(w, w->fd, DRM_IOCTL_GEM_CLOSE, &c, true);
}

/* PRIME export, import into this file or the other device's, and back. */
static void vz_op_prime(struct vz_worker *w)
{
	struct drm_prime_handle p = { 0 };
	int from = w->fd, to, dmabuf;
	__u32 h = vz_handle(w, DRM_VATOM_SURFACE_BUFFER);

	w->op = "prime";
	to = w->fd2 >= 0 && vz_chance(&w->rng, 50) ? w->fd2 : w->fd;
	p.handle = h;
	p.flags = vz_chance(&w->rng, 90) ? DRM_CLOEXEC | DRM_RDWR : vz_next(&w->rng);
	p.fd = -1;
	if (vz_ioctl(w, from, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p, true))
		return;
	dmabuf = p.fd;
	p.handle = 0;
	p.flags = 0;
	if (vz_chance(&w->rng, 5)) {
		p.fd = vz_below(&w->rng, 64);	/* any fd: not a dma-buf */
		/* -T: the same descriptor in both halves, a pipe */
		if (vd_trace)
			p.fd = w->pipefd[0];
	}
	if (!vz_ioctl(w, to, DRM_IOCTL_PRIME_FD_TO_HANDLE, &p, true)) {
		if (to == w->fd && p.handle != h)
			vz_remember(w, p.handle, DRM_VATOM_SURFACE_BUFFER, 0);
		if (to != w->fd) {
			struct drm_gem_close c = { .handle = p.handle };

			/* A submission on the other device's import first. */
			if (vz_chance(&w->rng, 50)) {
				struct vz_worker w2 = *w;

				w2.fd = to;
				w2.nsurf = 1;
				w2.surf[0].h = p.handle;
				w2.surf[0].kind = DRM_VATOM_SURFACE_BUFFER;
				w2.surf[0].size = VT_PAGE_SIZE;
				w2.nsync = 0;
				vz_op_submit(&w2);
				w->rng = w2.rng;
			}
			vz_ioctl(w, to, DRM_IOCTL_GEM_CLOSE, &c, true);
		}
	}
	close(dmabuf);
}

/* Syncobj create, destroy, wait, signal, export and import. */
static void vz_op_syncobj(struct vz_worker *w)
{
	__u32 h = w->nsync ? w->sync[vz_below(&w->rng, w->nsync)] :
		  (__u32)vz_next(&w->rng);
	union {
		struct drm_syncobj_create create;
		struct drm_syncobj_destroy destroy;
		struct drm_syncobj_wait wait;
		struct drm_syncobj_timeline_wait twait;
		struct drm_syncobj_handle fd;
		struct drm_syncobj_timeline_array array;
		struct drm_syncobj_transfer transfer;
	} u;
	__u64 points[2] = { 1 + vz_below(&w->rng, 50), 0 };
	__u32 hs[2] = { h, h };
	int i;

	w->op = "syncobj";
	memset(&u, 0, sizeof(u));
	switch (vz_below(&w->rng, 8)) {
	case 0:
		u.create.flags = vz_chance(&w->rng, 50) ? DRM_SYNCOBJ_CREATE_SIGNALED :
				 vz_below(&w->rng, 4);
		if (vz_ioctl(w, w->fd, DRM_IOCTL_SYNCOBJ_CREATE, &u.create, true))
			break;
		if (w->nsync == VZ_MAX_SYNCS) {
			i = vz_below(&w->rng, w->nsync);
			drmSyncobjDestroy(w->fd, w->sync[i]);
			w->sync[i] = w->sync[--w->nsync];
		}
		w->sync[w->nsync++] = u.create.handle;
		break;
	case 1:
		u.destroy.handle = h;
		for (i = 0; i < w->nsync; i++)
			if (w->sync[i] == h) {
				w->sync[i] = w->sync[--w->nsync];
				break;
			}
		vz_ioctl(w, w->fd, DRM_IOCTL_SYNCOBJ_DESTROY, &u.destroy, true);
		break;
	case 2:
		u.wait.handles = vz_ptr(w, hs, 10);
		/*
		 * Not huge: the DRM core's drm_syncobj_array_find() allocates
		 * count_handles entries without __GFP_NOWARN, so 2^21 and
		 * more warn in the page allocator (the core's, on any
		 * syncobj driver; seen with 6.1).
		 */
		u.wait.count_handles = vz_chance(&w->rng, 90) ? 1 + vz_below(&w->rng, 2) :
				       1u << vz_below(&w->rng, 11);
		u.wait.flags = vz_below(&w->rng, 8);
		u.wait.timeout_nsec = 0;
		vz_ioctl(w, w->fd, DRM_IOCTL_SYNCOBJ_WAIT, &u.wait, true);
		break;
	case 3:
		u.twait.handles = vz_ptr(w, hs, 10);
		u.twait.points = vz_ptr(w, points, 10);
		u.twait.count_handles = 1;
		u.twait.flags = vz_below(&w->rng, 8);
		vz_ioctl(w, w->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &u.twait, true);
		break;
	case 4:
		u.array.handles = vz_ptr(w, hs, 10);
		u.array.points = vz_ptr(w, points, 10);
		u.array.count_handles = 1;
		vz_ioctl(w, w->fd, vz_chance(&w->rng, 50) ?
			 DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL : DRM_IOCTL_SYNCOBJ_QUERY,
			 &u.array, true);
		break;
	case 5:
		u.fd.handle = h;
		u.fd.flags = vz_chance(&w->rng, 70) ?
			DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE : vz_below(&w->rng, 4);
		u.fd.fd = -1;
		if (vz_ioctl(w, w->fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &u.fd, true))
			break;
		u.fd.handle = w->nsync ? w->sync[vz_below(&w->rng, w->nsync)] : 0;
		u.fd.flags = u.fd.flags & DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE ?
			DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE : 0;
		i = u.fd.fd;
		if (!vz_ioctl(w, w->fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &u.fd, true) &&
		    !u.fd.flags) {
			/* A new handle for the same syncobj: keep it. */
			if (w->nsync < VZ_MAX_SYNCS)
				w->sync[w->nsync++] = u.fd.handle;
			else
				drmSyncobjDestroy(w->fd, u.fd.handle);
		}
		close(i);
		break;
	case 6:
		u.transfer.src_handle = h;
		u.transfer.dst_handle = w->nsync ? w->sync[vz_below(&w->rng, w->nsync)] : h;
		u.transfer.src_point = vz_chance(&w->rng, 50) ? 0 : points[0];
		u.transfer.dst_point = vz_chance(&w->rng, 50) ? 0 : points[0] + 1;
		/*
		 * WAIT_FOR_SUBMIT makes the core wait up to 5 s for a point
		 * nobody submits: rarely, or it takes the time budget.
		 */
		u.transfer.flags = vz_chance(&w->rng, 90) ? 0 :
				   (__u32)vz_next(&w->rng) &
				   ~DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT;
		if (!vz_below(&w->rng, 500))
			u.transfer.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT;
		/*
		 * Unknown flags only with a source nobody has: Debian's 6.12
		 * rejects them in drm_syncobj_find_fence() after taking the
		 * source's reference, which it then never drops (a DRM core
		 * leak, not vatom's; kmemleak shows the syncobj and its
		 * fences once the file is closed).
		 */
		if (u.transfer.flags & ~DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT)
			u.transfer.src_handle = 0;
		vz_ioctl(w, w->fd, DRM_IOCTL_SYNCOBJ_TRANSFER, &u.transfer, true);
		break;
	default:
		u.array.handles = vt_u64_ptr(hs);
		u.array.count_handles = 1;
		vz_ioctl(w, w->fd, vz_chance(&w->rng, 50) ? DRM_IOCTL_SYNCOBJ_RESET :
			 DRM_IOCTL_SYNCOBJ_SIGNAL, &u.array, true);
		break;
	}
}

/* RESET_STATUS: the file's reset status, acknowledged or not, mutated. */
static void vz_op_reset(struct vz_worker *w)
{
	struct drm_vatom_reset_status st;
	void *arg = &st;

	w->op = "reset_status";
	memset(&st, 0, sizeof(st));
	st.flags = vz_chance(&w->rng, 50) ? DRM_VATOM_RESET_ACK : 0;
	if (vz_chance(&w->rng, 10))
		st.flags = vz_next(&w->rng);
	if (vz_chance(&w->rng, 5))
		st.pad = vz_next(&w->rng);
	if (vz_chance(&w->rng, 3))
		arg = vz_chance(&w->rng, 50) ? vz_none : vz_ro;
	vz_ioctl(w, w->fd, DRM_IOCTL_VATOM_RESET_STATUS, arg, false);
}

/* A vatom ioctl number with a random size and direction, random bytes. */
static void vz_op_raw(struct vz_worker *w)
{
	__u32 nr = DRM_COMMAND_BASE + vz_below(&w->rng, DRM_VATOM_RESET_STATUS + 1);
	__u32 size = vz_below(&w->rng, 160);
	__u32 dir = vz_below(&w->rng, 4), i;
	__u64 *arg = (void *)w->scratch;

	w->op = "raw ioctl";
	for (i = 0; i < 20; i++)
		arg[i] = vz_chance(&w->rng, 50) ? vz_next(&w->rng) :
			 vz_below(&w->rng, 8);
	vz_ioctl(w, w->fd, _IOC(dir, DRM_IOCTL_BASE, nr, size), arg, false);
}

static void (*const vz_ops[])(struct vz_worker *w) = {
	vz_op_submit, vz_op_submit, vz_op_submit, vz_op_submit, vz_op_submit,
	vz_op_create, vz_op_create, vz_op_info, vz_op_counters, vz_op_param,
	vz_op_close, vz_op_prime, vz_op_syncobj, vz_op_syncobj, vz_op_raw,
	vz_op_queue, vz_op_queue, vz_op_queue, vz_op_reset,
};

/* One call of the table's, at random. */
void vz_op_random(struct vz_worker *w)
{
	vz_ops[vz_below(&w->rng, VT_ARRAY_SIZE(vz_ops))](w);
}
