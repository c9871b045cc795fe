// SPDX-License-Identifier: GPL-2.0
/*
 * vatom_fault: The SURFACE_CREATE (buffers, typed surfaces, tile grids), PRIME import
 * and export, and NOC_COUNTERS paths: setups, calls and checks.
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
/* SURFACE_CREATE, PRIME                                                     */
/* ------------------------------------------------------------------------ */

static struct drm_vatom_surface_create vf_create;
static struct drm_vatom_typed_desc vf_typed = {
	.dim = DRM_VATOM_TYPED_2D_ARRAY, .format = DRM_VATOM_FORMAT_R32,
	.width = 37, .height = 19, .depth = 1, .array_size = 3, .levels = 4,
};

static const __u8 vf_types[12] = {
	DRM_VATOM_TILE_TENSIX, DRM_VATOM_TILE_TENSIX, DRM_VATOM_TILE_ETHERNET,
	DRM_VATOM_TILE_DRAM, DRM_VATOM_TILE_TENSIX, DRM_VATOM_TILE_TENSIX,
	DRM_VATOM_TILE_TENSIX, DRM_VATOM_TILE_PCIE, DRM_VATOM_TILE_TENSIX,
	DRM_VATOM_TILE_ETHERNET, DRM_VATOM_TILE_TENSIX, DRM_VATOM_TILE_TENSIX,
};

static struct drm_vatom_tile_grid_desc vf_grid = {
	.profile = DRM_VATOM_NOC_PROFILE_BLACKHOLE, .width = 4, .height = 3,
	.l1_size = { 1024, 512, 0, 0 },
};

static __u64 vf_created_size;

static int vf_setup_create(struct vf_ctx *c, __u32 kind)
{
	c->fd = vf_open(0);
	if (c->fd < 0)
		return c->fd;
	memset(&vf_create, 0, sizeof(vf_create));
	vf_create.kind = kind;
	vf_created_kind = kind;
	if (kind == DRM_VATOM_SURFACE_BUFFER) {
		vf_create.size = 3 * VF_BUF_SIZE + 5;
		vf_created_size = vf_create.size;
	} else if (kind == DRM_VATOM_SURFACE_TYPED) {
		vf_create.desc = vt_u64_ptr(&vf_typed);
		vf_create.desc_size = sizeof(vf_typed);
	} else {
		vf_grid.tile_types = vt_u64_ptr(vf_types);
		vf_create.desc = vt_u64_ptr(&vf_grid);
		vf_create.desc_size = sizeof(vf_grid);
	}
	return 0;
}

int vf_setup_buffer(struct vf_ctx *c)
{
	return vf_setup_create(c, DRM_VATOM_SURFACE_BUFFER);
}

int vf_setup_typed(struct vf_ctx *c)
{
	return vf_setup_create(c, DRM_VATOM_SURFACE_TYPED);
}

int vf_setup_grid(struct vf_ctx *c)
{
	return vf_setup_create(c, DRM_VATOM_SURFACE_TILE_GRID);
}

int vf_call_create(struct vf_ctx *c)
{
	int ret;

	vf_create.handle = 0;
	if (vf_create.kind != DRM_VATOM_SURFACE_BUFFER)
		vf_create.size = 0;
	ret = vf_ioctl(c->fd, DRM_IOCTL_VATOM_SURFACE_CREATE, &vf_create);
	c->handle = vf_create.handle;
	return ret;
}

/* Live surfaces of device @d now, against the count after setup. */
long long vf_new_surfaces(struct vf_ctx *c, int d)
{
	return vt_debugfs_stat(vf_stats[d], "surfaces") - c->counts.v[d][0];
}

/* A new surface exists iff the call says so; it is what was asked for. */
static enum vf_state vf_check_new_surface(struct vf_ctx *c, int ret, char *why,
					  size_t len, __u64 size)
{
	struct drm_vatom_surface_info info;
	long long n = vf_new_surfaces(c, 0);

	if (ret) {
		if (n == 0)
			return VF_UNCHANGED;
		if (n == 1)
			return VF_DONE;	/* the copy-out of the handle failed */
		snprintf(why, len, "%lld surfaces more after a failed call", n);
		return VF_BAD;
	}
	if (n != 1) {
		snprintf(why, len, "%lld surfaces more after a successful call", n);
		return VF_BAD;
	}
	memset(&info, 0, sizeof(info));
	if (vt_surface_info(c->fd, c->handle, &info) ||
	    info.kind != vf_created_kind || (size && info.size != size)) {
		snprintf(why, len, "the new surface is not what was asked for");
		return VF_BAD;
	}
	return VF_DONE;
}

enum vf_state vf_check_create(struct vf_ctx *c, int ret, char *why,
			      size_t len)
{
	return vf_check_new_surface(c, ret, why, len,
				    ret ? 0 : (vf_create.kind ==
					       DRM_VATOM_SURFACE_BUFFER ?
					       vf_created_size : vf_create.size));
}

int vf_setup_import_vgem(struct vf_ctx *c)
{
	return vf_setup_import(c, -1);
}

int vf_setup_import_vatom2(struct vf_ctx *c)
{
	return vf_setup_import(c, 1);
}

static struct drm_prime_handle vf_prime;

int vf_call_import(struct vf_ctx *c)
{
	int ret;

	memset(&vf_prime, 0, sizeof(vf_prime));
	vf_prime.fd = c->dmabuf;
	ret = vf_ioctl(c->fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &vf_prime);
	c->handle = vf_prime.handle;
	return ret;
}

enum vf_state vf_check_import(struct vf_ctx *c, int ret, char *why,
			      size_t len)
{
	enum vf_state st = vf_check_new_surface(c, ret, why, len, 0);
	__u32 h, *map;

	if (st != VF_DONE || ret)
		return st;
	/* The import works: a mapping and a submission on it. */
	map = vt_map(c->fd, c->handle, VF_BUF_SIZE);
	if (!map) {
		snprintf(why, len, "cannot map the import: %s", strerror(errno));
		return VF_BAD;
	}
	c->map = map;
	vf_fill(c);
	vf_stream(c, 1);
	vf_submit_args(c, c->handle, false);
	if (vt_submit(c->fd, &c->submit) || vf_buf_state(c) != VF_DONE) {
		snprintf(why, len, "a submission on the import failed");
		return VF_BAD;
	}
	/* A second import of the same dma-buf gives the same handle. */
	if (vt_prime_import(c->fd, c->dmabuf, &h) || h != c->handle) {
		snprintf(why, len, "re-import gave another handle");
		return VF_BAD;
	}
	return VF_DONE;
}

int vf_setup_export(struct vf_ctx *c)
{
	int ret = vf_setup_common(c);

	c->dmabuf = -1;
	return ret;
}

int vf_call_export(struct vf_ctx *c)
{
	int ret;

	memset(&vf_prime, 0, sizeof(vf_prime));
	vf_prime.handle = c->buf;
	vf_prime.flags = DRM_CLOEXEC | DRM_RDWR;
	vf_prime.fd = -1;
	ret = vf_ioctl(c->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &vf_prime);
	if (!ret)
		c->dmabuf = vf_prime.fd;
	return ret;
}

enum vf_state vf_check_export(struct vf_ctx *c, int ret, char *why,
			      size_t len)
{
	__u32 h;

	if (ret)
		return VF_UNCHANGED;	/* a leaked fd is closed by teardown */
	/* Exported: importing it back gives the same handle. */
	if (vt_prime_import(c->fd, c->dmabuf, &h) || h != c->buf) {
		snprintf(why, len, "the export does not import back");
		return VF_BAD;
	}
	return VF_DONE;
}

/* ------------------------------------------------------------------------ */
/* NOC_COUNTERS                                                              */
/* ------------------------------------------------------------------------ */

static struct drm_vatom_noc_counters vf_nc;
static __u32 vf_nc_out[64];

/* A grid whose tile (0, 0) sent increments to (1, 0): non-zero counters. */
int vf_setup_counters(struct vf_ctx *c)
{
	struct drm_vatom_noc p[3];
	struct drm_vatom_binding b = { .slot = VF_GRID_SLOT };
	struct drm_vatom_submit s;
	__u32 *cnt;
	int ret, i;

	ret = vf_setup_grid(c);
	if (ret)
		return ret;
	if (vf_call_create(c))
		return -errno;
	c->grid = c->handle;
	c->handle = 0;
	c->glen = (vf_create.size + VT_PAGE_SIZE - 1) & ~(__u64)(VT_PAGE_SIZE - 1);
	c->gmap = vt_map(c->fd, c->grid, c->glen);
	if (!c->gmap)
		return -errno;
	memset(p, 0, sizeof(p));
	for (i = 0; i < 3; i++) {
		p[i].hdr.type = DRM_VATOM_PACKET_NOC;
		p[i].hdr.size = sizeof(p[i]);
		p[i].slot = VF_GRID_SLOT;
		p[i].targ_addr_lo = 0x40;
		p[i].targ_addr_hi = 1;	/* tile (1, 0) */
		p[i].ctrl = DRM_VATOM_NOC_CTRL_REQ_ATOMIC;
		p[i].at_len_be = DRM_VATOM_NOC_AT_INCR << DRM_VATOM_NOC_AT_OPCODE_SHIFT |
				 31 << DRM_VATOM_NOC_AT_INT_WIDTH_SHIFT;
		p[i].at_data = i + 1;
	}
	b.handle = c->grid;
	memset(&s, 0, sizeof(s));
	s.stream = vt_u64_ptr(p);
	s.stream_size = sizeof(p);
	s.bindings = vt_u64_ptr(&b);
	s.binding_count = 1;
	if (vt_submit(c->fd, &s))
		return -errno;
	/* Tile (0, 0), NoC 0: the first 256 bytes of the mapping. */
	cnt = (__u32 *)c->gmap;
	memcpy(c->cnt_before, cnt, sizeof(c->cnt_before));
	if (!cnt[DRM_VATOM_NOC_MST_POSTED_ATOMIC_SENT])
		return -EIO;
	memset(vf_nc_out, VT_POISON, sizeof(vf_nc_out));
	memset(&vf_nc, 0, sizeof(vf_nc));
	vf_nc.handle = c->grid;
	vf_nc.flags = DRM_VATOM_NOC_COUNTERS_READ | DRM_VATOM_NOC_COUNTERS_CLEAR_ALL;
	vf_nc.count = 64;
	vf_nc.counters = vt_u64_ptr(vf_nc_out);
	return 0;
}

int vf_call_counters(struct vf_ctx *c)
{
	return vf_ioctl(c->fd, DRM_IOCTL_VATOM_NOC_COUNTERS, &vf_nc);
}

enum vf_state vf_check_counters(struct vf_ctx *c, int ret, char *why,
				size_t len)
{
	const __u32 *cnt = (const __u32 *)c->gmap;

	if (!memcmp(cnt, c->cnt_before, sizeof(c->cnt_before))) {
		if (vt_find_ne8(vf_nc_out, 0, sizeof(vf_nc_out), VT_POISON) >= 0) {
			snprintf(why, len, "counters copied out but not cleared");
			return VF_BAD;
		}
		return VF_UNCHANGED;
	}
	if (vt_find_ne32(cnt, 0, 64, 0) >= 0) {
		snprintf(why, len, "counters partly cleared");
		return VF_BAD;
	}
	if (!ret && vt_mismatch32(vf_nc_out, c->cnt_before, 64) >= 0) {
		snprintf(why, len, "counters read wrong");
		return VF_BAD;
	}
	return VF_DONE;
}
