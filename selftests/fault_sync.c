// SPDX-License-Identifier: GPL-2.0
/*
 * vatom_fault: The syncobj paths (an open file, CREATE, HANDLE_TO_FD, FD_TO_HANDLE,
 * TRANSFER, SIGNAL on a job's fence): setups, calls and checks.
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
/* Syncobjs                                                                  */
/* ------------------------------------------------------------------------ */

static union {
	struct drm_syncobj_create create;
	struct drm_syncobj_handle handle;
	struct drm_syncobj_transfer transfer;
	struct drm_syncobj_timeline_array array;
} vf_so;
static uint64_t vf_so_point;

/* A syncobj holding the fence of a completed vatom job. */
int vf_setup_job_fence(struct vf_ctx *c)
{
	int ret = vf_setup_common(c);

	if (ret)
		return ret;
	vf_stream(c, 1);
	vf_submit_args(c, c->buf, false);
	if (drmSyncobjCreate(c->fd, 0, &c->sout[0]))
		return -errno;
	memset(c->outsync, 0, sizeof(c->outsync));
	c->outsync[0].handle = c->sout[0];
	c->submit.out_syncs = vt_u64_ptr(c->outsync);
	c->submit.out_sync_count = 1;
	if (vt_submit(c->fd, &c->submit))
		return -errno;
	c->sync_file = -1;
	return 0;
}

/*
 * open() of the render node: the DRM core's file and vatom's context of it
 * (vatom_open()). The call's file is @fd2; @fd, a file of the same device
 * opened before (vf_setup_file()), is the one the reset-status check
 * looks at.
 */
int vf_call_open(struct vf_ctx *c)
{
	c->fd2 = open(vf_nodes[0], O_RDWR | O_CLOEXEC);
	return c->fd2 < 0 ? -errno : 0;
}

/* The file opened works: it answers GET_PARAM and creates a surface. */
enum vf_state vf_check_open(struct vf_ctx *c, int ret, char *why,
			    size_t len)
{
	struct drm_vatom_get_param gp = { .param = DRM_VATOM_PARAM_UAPI_VERSION };
	__u32 h;

	if (ret)
		return VF_UNCHANGED;
	ret = vf_ioctl(c->fd2, DRM_IOCTL_VATOM_GET_PARAM, &gp);
	if (ret || gp.value != DRM_VATOM_UAPI_VERSION) {
		snprintf(why, len, "GET_PARAM on the file opened: %d, version %llu",
			 ret, (unsigned long long)gp.value);
		return VF_BAD;
	}
	if (vt_buffer_create(c->fd2, VF_BUF_SIZE, &h)) {
		snprintf(why, len, "SURFACE_CREATE on the file opened: %s",
			 strerror(errno));
		return VF_BAD;
	}
	return VF_DONE;
}

/* A fresh file of device 0, and nothing else. */
int vf_setup_file(struct vf_ctx *c)
{
	c->fd = vf_open(0);
	return c->fd < 0 ? c->fd : 0;
}

int vf_call_so_create(struct vf_ctx *c)
{
	int ret;

	memset(&vf_so, 0, sizeof(vf_so));
	vf_so.create.flags = DRM_SYNCOBJ_CREATE_SIGNALED;
	ret = vf_ioctl(c->fd, DRM_IOCTL_SYNCOBJ_CREATE, &vf_so.create);
	c->handle = vf_so.create.handle;
	return ret;
}

enum vf_state vf_check_so_create(struct vf_ctx *c, int ret, char *why,
				 size_t len)
{
	if (ret)
		return VF_UNCHANGED;
	if (drmSyncobjWait(c->fd, &c->handle, 1, 0, 0, NULL)) {
		snprintf(why, len, "the new syncobj is not signalled");
		return VF_BAD;
	}
	return VF_DONE;
}

int vf_call_so_export(struct vf_ctx *c)
{
	int ret;

	memset(&vf_so, 0, sizeof(vf_so));
	vf_so.handle.handle = c->sout[0];
	vf_so.handle.flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE;
	vf_so.handle.fd = -1;
	ret = vf_ioctl(c->fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &vf_so.handle);
	if (!ret)
		c->sync_file = vf_so.handle.fd;
	return ret;
}

enum vf_state vf_check_so_export(struct vf_ctx *c, int ret, char *why,
				 size_t len)
{
	__u32 h;

	if (ret)
		return VF_UNCHANGED;
	if (drmSyncobjCreate(c->fd, 0, &h) ||
	    drmSyncobjImportSyncFile(c->fd, h, c->sync_file) ||
	    drmSyncobjWait(c->fd, &h, 1, 0, 0, NULL)) {
		snprintf(why, len, "the exported sync_file does not import back");
		return VF_BAD;
	}
	return VF_DONE;
}

int vf_setup_so_import(struct vf_ctx *c)
{
	int ret = vf_setup_job_fence(c);

	if (ret)
		return ret;
	if (drmSyncobjExportSyncFile(c->fd, c->sout[0], &c->sync_file) ||
	    drmSyncobjCreate(c->fd, 0, &c->sout[1]))
		return -errno;
	return 0;
}

int vf_call_so_import(struct vf_ctx *c)
{
	memset(&vf_so, 0, sizeof(vf_so));
	vf_so.handle.handle = c->sout[1];
	vf_so.handle.flags = DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE;
	vf_so.handle.fd = c->sync_file;
	return vf_ioctl(c->fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &vf_so.handle);
}

/* Whether syncobj @h has a fence (the job's, signalled). */
static enum vf_state vf_so_fenced(struct vf_ctx *c, __u32 h, int ret, char *why,
				  size_t len)
{
	int r = drmSyncobjWait(c->fd, &h, 1, 0, 0, NULL);

	if (r && errno == EINVAL)
		return VF_UNCHANGED;
	if (r) {
		snprintf(why, len, "syncobj wait: %s", strerror(errno));
		return VF_BAD;
	}
	(void)ret;
	return VF_DONE;
}

enum vf_state vf_check_so_import(struct vf_ctx *c, int ret, char *why,
				 size_t len)
{
	return vf_so_fenced(c, c->sout[1], ret, why, len);
}

int vf_setup_so_transfer(struct vf_ctx *c)
{
	int ret = vf_setup_job_fence(c);

	if (ret)
		return ret;
	return drmSyncobjCreate(c->fd, 0, &c->sout[1]) ? -errno : 0;
}

int vf_call_so_transfer(struct vf_ctx *c)
{
	memset(&vf_so, 0, sizeof(vf_so));
	vf_so.transfer.src_handle = c->sout[0];
	vf_so.transfer.dst_handle = c->sout[1];
	vf_so.transfer.dst_point = 3;
	return vf_ioctl(c->fd, DRM_IOCTL_SYNCOBJ_TRANSFER, &vf_so.transfer);
}

enum vf_state vf_check_so_transfer(struct vf_ctx *c, int ret, char *why,
				   size_t len)
{
	uint64_t pt = 0;
	__u32 h = c->sout[1];

	if (drmSyncobjQuery(c->fd, &h, &pt, 1)) {
		snprintf(why, len, "syncobj query: %s", strerror(errno));
		return VF_BAD;
	}
	if (pt == 0)
		return VF_UNCHANGED;
	if (pt != 3) {
		snprintf(why, len, "timeline at point %llu", (unsigned long long)pt);
		return VF_BAD;
	}
	(void)ret;
	return VF_DONE;
}

int vf_setup_so_signal(struct vf_ctx *c)
{
	c->fd = vf_open(0);
	if (c->fd < 0)
		return c->fd;
	return drmSyncobjCreate(c->fd, 0, &c->sout[1]) ? -errno : 0;
}

int vf_call_so_signal(struct vf_ctx *c)
{
	memset(&vf_so, 0, sizeof(vf_so));
	vf_so_point = 3;
	vf_so.array.handles = vt_u64_ptr(&c->sout[1]);
	vf_so.array.points = vt_u64_ptr(&vf_so_point);
	vf_so.array.count_handles = 1;
	return vf_ioctl(c->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, &vf_so.array);
}
