// SPDX-License-Identifier: GPL-2.0
/*
 * vatom_fault: The SUBMIT paths (synchronous and asynchronous, user-memory and
 * surface results, imports) and RESET_STATUS (-F: on a guilty file): their
 * setups, the call under injection and its check.
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
/* SUBMIT                                                                    */
/* ------------------------------------------------------------------------ */

int vf_setup_common(struct vf_ctx *c)
{
	int ret;

	c->fd = vf_open(0);
	if (c->fd < 0)
		return c->fd;
	ret = vf_buffer(c->fd, &c->buf, &c->map);
	if (ret)
		return ret;
	vf_fill(c);
	return 0;
}

int vf_setup_sync_user(struct vf_ctx *c)
{
	int ret = vf_setup_common(c);

	if (ret)
		return ret;
	vf_stream(c, 1);
	vf_submit_args(c, c->buf, false);
	return 0;
}

int vf_setup_sync_user_big(struct vf_ctx *c)
{
	int ret = vf_setup_common(c);

	if (ret)
		return ret;
	vf_stream(c, VF_BIG_PACKETS);
	vf_submit_args(c, c->buf, false);
	return 0;
}

static int vf_setup_surface(struct vf_ctx *c, bool async)
{
	int ret = vf_setup_common(c);

	if (ret)
		return ret;
	ret = vf_buffer(c->fd, &c->res, &c->rmap);
	if (ret)
		return ret;
	memset(c->rmap, VT_POISON, VF_BUF_SIZE);
	vf_stream(c, 4);
	vf_submit_args(c, c->buf, true);
	if (async)
		c->submit.flags = DRM_VATOM_SUBMIT_ASYNC;
	return vf_syncobjs(c);
}

int vf_setup_sync_surface(struct vf_ctx *c)
{
	return vf_setup_surface(c, false);
}

int vf_setup_async_surface(struct vf_ctx *c)
{
	return vf_setup_surface(c, true);
}

/* A buffer of another device (vgem for @d < 0), imported into device 0. */
int vf_setup_import(struct vf_ctx *c, int d)
{
	struct drm_mode_create_dumb dumb = { .width = 1024, .height = 1, .bpp = 32 };
	__u32 h;
	int ret;

	vf_created_kind = DRM_VATOM_SURFACE_BUFFER;
	c->fd = vf_open(0);
	if (c->fd < 0)
		return c->fd;
	c->fd2 = vf_open(d);
	if (c->fd2 < 0)
		return c->fd2;
	if (d < 0) {
		if (ioctl(c->fd2, DRM_IOCTL_MODE_CREATE_DUMB, &dumb))
			return -errno;
		h = dumb.handle;
	} else {
		ret = vf_buffer(c->fd2, &h, &c->map);
		if (ret)
			return ret;
		munmap(c->map, VF_BUF_SIZE);
		c->map = NULL;
	}
	if (vt_prime_export(c->fd2, h, &c->dmabuf))
		return -errno;
	return 0;
}

/* Import done by setup, then a submission on the import. */
static int vf_setup_submit_import(struct vf_ctx *c, int d)
{
	int ret = vf_setup_import(c, d);

	if (ret)
		return ret;
	if (vt_prime_import(c->fd, c->dmabuf, &c->handle))
		return -errno;
	c->map = vt_map(c->fd, c->handle, VF_BUF_SIZE);
	if (!c->map)
		return -errno;
	vf_fill(c);
	vf_stream(c, 2);
	vf_submit_args(c, c->handle, false);
	if (vf_cold_imports)
		return 0;
	/*
	 * Map the import in the kernel first: when the exporter's vmap fails,
	 * 6.1's dma_buf_vmap() warns (WARN_ON_ONCE), a splat the VM runner
	 * counts, which is the dma-buf core's, not vatom's (-c keeps it).
	 */
	if (vt_submit(c->fd, &c->submit))
		return -errno;
	vf_fill(c);
	vf_stream(c, 2);
	vf_submit_args(c, c->handle, false);
	return 0;
}

int vf_setup_submit_vgem(struct vf_ctx *c)
{
	return vf_setup_submit_import(c, -1);
}

int vf_setup_submit_vatom2(struct vf_ctx *c)
{
	return vf_setup_submit_import(c, 1);
}

int vf_call_submit(struct vf_ctx *c)
{
	return vf_ioctl(c->fd, DRM_IOCTL_VATOM_SUBMIT, &c->submit);
}

/* First result word that differs from the model, padding skipped; or -1. */
long vf_mismatch(const struct vf_ctx *c, const __u32 *r)
{
	__u32 i;

	for (i = 0; i < c->nres / 4; i++)
		if (!c->rskip[i] && r[i] != c->rexpect[i])
			return i;
	return -1;
}

/* Compare the buffer with its state before and after the stream. */
enum vf_state vf_buf_state(struct vf_ctx *c)
{
	if (!memcmp(c->map, c->before, sizeof(c->before)))
		return VF_UNCHANGED;
	if (!memcmp(c->map, c->expect, sizeof(c->expect)))
		return VF_DONE;
	return VF_BAD;
}

enum vf_state vf_check_submit(struct vf_ctx *c, int ret, char *why,
			      size_t len)
{
	bool surf = c->submit.result_handle;
	enum vf_state st;
	int outs = 0;

	if (c->submit.out_sync_count) {
		/* An async job runs later: its out-syncobjs say when. */
		outs = vf_outs_state(c);
		if (outs < 0) {
			snprintf(why, len, "out-syncobjs neither untouched nor signalled");
			return VF_BAD;
		}
	}
	if (vf_job_fault(c)) {
		bool async = c->submit.flags & DRM_VATOM_SUBMIT_ASYNC;

		if (c->fault == -EPROTO)
			return vf_faulted(c, NULL, why, len);
		if (ret != (async ? 0 : c->fault) ||
		    (c->submit.out_sync_count &&
		     (outs != 1 || vt_fence_status(c->fd, c->sout[0]) != c->fault))) {
			snprintf(why, len, "the job %s, yet the call %s %s",
				 c->fault == -EIO ? "faulted" : "timed out",
				 async ? "or its fence" : "returned",
				 ret ? vf_errname(-ret) : "0");
			return VF_BAD;
		}
		return vf_faulted(c, surf ? c->rmap + VF_RES_OFFSET / 4 : NULL, why, len);
	}
	if (vf_pass == VF_PASS_HANG && outs == 1) {
		/* Accepted behind the hang: the reset cancels it, unexecuted. */
		int fs = vt_fence_status(c->fd, c->sout[0]);

		if (fs != -ECANCELED) {
			snprintf(why, len, "a job accepted behind a hang: fence status %d, not -ECANCELED",
				 fs);
			return VF_BAD;
		}
		if (vf_buf_state(c) != VF_UNCHANGED ||
		    vt_find_ne8(c->rmap, 0, VF_BUF_SIZE, VT_POISON) >= 0) {
			snprintf(why, len, "a job cancelled by the reset changed the surfaces");
			return VF_BAD;
		}
		return VF_DONE;
	}
	st = vf_buf_state(c);
	if (st == VF_BAD) {
		snprintf(why, len, "surface partly changed");
		return VF_BAD;
	}
	if (c->submit.out_sync_count && st != (outs == 1 ? VF_DONE : VF_UNCHANGED)) {
		snprintf(why, len, "surface %s but out-syncobjs %s",
			 st == VF_DONE ? "changed" : "unchanged",
			 outs ? "signalled" : "untouched");
		return VF_BAD;
	}
	if (st == VF_UNCHANGED) {
		if (surf ? vt_find_ne8(c->rmap, 0, VF_BUF_SIZE, VT_POISON) >= 0 :
			   vt_find_ne8(c->results, 0, sizeof(c->results), VT_POISON) >= 0) {
			snprintf(why, len, "results written by a call that did not execute");
			return VF_BAD;
		}
		return VF_UNCHANGED;
	}
	/* Executed: the results are exact, unless their copy failed. */
	if (!ret || c->submit.error_reason != DRM_VATOM_ERR_RESULTS_FAULT) {
		const __u32 *r = surf ? c->rmap + VF_RES_OFFSET / 4 : c->results;

		long i = vf_mismatch(c, r);

		if (i >= 0) {
			snprintf(why, len, "results differ at word %ld: %#x, expected %#x",
				 i, r[i], c->rexpect[i]);
			return VF_BAD;
		}
	}
	return VF_DONE;
}

/* ------------------------------------------------------------------------ */
/* RESET_STATUS (-F: on a guilty file)                                       */
/* ------------------------------------------------------------------------ */

static struct drm_vatom_reset_status vf_rs;

int vf_call_reset_status(struct vf_ctx *c)
{
	return vf_reset_status(c->fd, DRM_VATOM_RESET_ACK, &vf_rs);
}

/*
 * Acknowledged (the file submits again) or not (still guilty); a call
 * that succeeded reported the reset it acknowledged.
 */
enum vf_state vf_check_reset_status(struct vf_ctx *c, int ret, char *why,
				    size_t len)
{
	struct drm_vatom_reset_status st;

	if (vf_reset_status(c->fd, 0, &st)) {
		snprintf(why, len, "RESET_STATUS after: %s", strerror(errno));
		return VF_BAD;
	}
	if (st.guilty != 1) {
		snprintf(why, len, "guilty %llu after, not 1", (unsigned long long)st.guilty);
		return VF_BAD;
	}
	if (!ret && (vf_rs.status != DRM_VATOM_RESET_GUILTY || vf_rs.guilty != 1)) {
		snprintf(why, len, "it reported status %u, guilty %llu, not a guilty reset",
			 vf_rs.status, (unsigned long long)vf_rs.guilty);
		return VF_BAD;
	}
	if (st.status == DRM_VATOM_RESET_GUILTY)
		return VF_UNCHANGED;
	if (st.status != DRM_VATOM_RESET_NONE) {
		snprintf(why, len, "status %u after", st.status);
		return VF_BAD;
	}
	if (vt_submit(c->fd, &c->submit) || vf_buf_state(c) != VF_DONE) {
		snprintf(why, len, "acknowledged, yet a submission failed: %s",
			 strerror(errno));
		return VF_BAD;
	}
	return VF_DONE;
}
