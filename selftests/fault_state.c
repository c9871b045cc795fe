// SPDX-License-Identifier: GPL-2.0
/*
 * vatom_fault: The state one call works on (struct vf_ctx): its files, surfaces,
 * streams and the model of what they do; the check of a faulted job; the
 * job a -F pass puts before the call, and the reset status after it.
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
/* The state one call works on                                               */
/* ------------------------------------------------------------------------ */





const char *vf_errname(int e)
{
	switch (e) {
	case ENOMEM: return "ENOMEM";
	case EFAULT: return "EFAULT";
	case ENOSPC: return "ENOSPC";
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	case EMFILE: return "EMFILE";
	case ENFILE: return "ENFILE";
	case EINTR: return "EINTR";
	case EIO: return "EIO";
	case ECANCELED: return "ECANCELED";
	default: return strerrorname_np(e) ? strerrorname_np(e) : "?";
	}
}

int vf_ioctl(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) ? -errno : 0;
}

/* RESET_STATUS with @flags into @st: 0 or -errno. */
int vf_reset_status(int fd, __u32 flags, struct drm_vatom_reset_status *st)
{
	memset(st, 0, sizeof(*st));
	st->flags = flags;
	return vf_ioctl(fd, DRM_IOCTL_VATOM_RESET_STATUS, st);
}

/* Open device @d, or vgem's primary node for @d < 0. */
int vf_open(int d)
{
	int fd = vt_open_path(d < 0 ? vf_vgem : vf_nodes[d]);

	return fd < 0 ? -errno : fd;
}

int vf_buffer(int fd, __u32 *h, __u32 **map)
{
	if (vt_buffer_create(fd, VF_BUF_SIZE, h))
		return -errno;
	*map = vt_map(fd, *h, VF_BUF_SIZE);
	return *map ? 0 : -errno;
}

/* The buffer's pattern, and the stream's effect on a copy of it. */
void vf_fill(struct vf_ctx *c)
{
	int i;

	for (i = 0; i < VF_WORDS; i++)
		c->map[i] = 0x1000 + 7 * i;
	memcpy(c->before, c->map, sizeof(c->before));
	memcpy(c->expect, c->map, sizeof(c->expect));
	memset(c->results, VT_POISON, sizeof(c->results));
	memset(c->rexpect, VT_POISON, sizeof(c->rexpect));
	memset(c->rskip, 0, sizeof(c->rskip));
	c->nres = 0;
	c->npk = 0;
}

/*
 * Append a DWORD_ATOMIC.ADD of 16 lanes at words @first .. @first + 15
 * (adding lane + @k) and update the model.
 */
static void vf_add_dword(struct vf_ctx *c, __u32 first, __u32 k)
{
	__u32 addr[16], src[16], i;
	struct vt_visa v;

	for (i = 0; i < 16; i++) {
		__u32 w = (first + i) % VF_WORDS;

		addr[i] = 4 * w;
		src[i] = i + k;
		c->rexpect[c->nres / 4 + i] = c->expect[w];
		c->expect[w] += src[i];
	}
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_16,
		 DRM_VATOM_VISA_TYPE_UD, addr, src, NULL, true);
	vt_add_visa(&c->stream, &v);
	c->nres += 64;
	c->pk[c->npk++] = (struct vf_packet){ .word = first, .k = k };
}

/* Append a PTX atom.global.add.u32 at word @w and update the model. */
static void vf_add_ptx(struct vf_ctx *c, __u32 w, __u32 val)
{
	struct drm_vatom_ptx p;

	vt_ptx_init(&p, DRM_VATOM_PTX_OP_ADD, DRM_VATOM_PTX_TYPE_U32, 0,
		    DRM_VATOM_PTX_SPACE_GLOBAL, 4 * w);
	p.b[0] = val;
	vt_add_ptx(&c->stream, &p);
	c->rexpect[c->nres / 4] = c->expect[w];
	c->rskip[c->nres / 4 + 1] = true;	/* padding */
	c->expect[w] += val;
	c->nres += 8;
	c->pk[c->npk++] = (struct vf_packet){ .ptx = true, .word = w, .k = val };
}

/*
 * What the first @m packets of the stream do: the buffer in @want, the
 * bytes of their results in @nres.
 */
static void vf_prefix(const struct vf_ctx *c, __u32 m, __u32 *want, __u32 *nres)
{
	__u32 p, i;

	memcpy(want, c->before, sizeof(c->before));
	*nres = 0;
	for (p = 0; p < m && p < c->npk; p++) {
		const struct vf_packet *pk = &c->pk[p];

		if (pk->ptx) {
			want[pk->word] += pk->k;
			*nres += 8;
			continue;
		}
		for (i = 0; i < 16; i++)
			want[(pk->word + i) % VF_WORDS] += i + pk->k;
		*nres += 64;
	}
}

/* A stream of @npk DWORD packets and one PTX packet on the buffer. */
void vf_stream(struct vf_ctx *c, int npk)
{
	int p;

	vt_stream_init(&c->stream);
	for (p = 0; p < npk; p++)
		vf_add_dword(c, (p * 16 + 3 * p) % VF_WORDS, p + 1);
	vf_add_ptx(c, 300, 0x1234);
}

void vf_submit_args(struct vf_ctx *c, __u32 buf, bool to_surface)
{
	c->bind[0].slot = 0;
	c->bind[0].handle = buf;
	vt_submit_args(&c->submit, &c->stream, c->bind, 1,
		       to_surface ? NULL : c->results, c->nres);
	if (to_surface) {
		c->submit.result_handle = c->res;
		c->submit.result_offset = VF_RES_OFFSET;
	}
}

/* In-syncobjs: a signalled binary one and a timeline with point 2 signalled. */
int vf_syncobjs(struct vf_ctx *c)
{
	uint64_t two = 2;

	if (drmSyncobjCreate(c->fd, DRM_SYNCOBJ_CREATE_SIGNALED, &c->sin[0]) ||
	    drmSyncobjCreate(c->fd, 0, &c->sin[1]) ||
	    drmSyncobjTimelineSignal(c->fd, &c->sin[1], &two, 1) ||
	    drmSyncobjCreate(c->fd, 0, &c->sout[0]) ||
	    drmSyncobjCreate(c->fd, 0, &c->sout[1]))
		return -errno;
	memset(c->insync, 0, sizeof(c->insync));
	memset(c->outsync, 0, sizeof(c->outsync));
	c->insync[0].handle = c->sin[0];
	c->insync[1].handle = c->sin[1];
	c->insync[1].point = 2;
	c->outsync[0].handle = c->sout[0];
	c->outsync[1].handle = c->sout[1];
	c->outsync[1].point = 5;
	c->submit.in_syncs = vt_u64_ptr(c->insync);
	c->submit.in_sync_count = 2;
	c->submit.out_syncs = vt_u64_ptr(c->outsync);
	c->submit.out_sync_count = 2;
	return 0;
}

/* CLOCK_MONOTONIC @ms from now, in ns: a syncobj wait's deadline. */
int64_t vf_deadline(unsigned int ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec + ms * 1000000ll;
}

/*
 * The out-syncobjs: 0 when neither has a fence (the binary one) or a point
 * (the timeline's last point 0), 1 when both are signalled with the job's
 * fence (after waiting up to 5 s), -1 otherwise.
 */
int vf_outs_state(struct vf_ctx *c)
{
	uint64_t pt = 0, five = 5;
	__u32 h = c->sout[1];
	int bin, tl;

	bin = drmSyncobjWait(c->fd, &c->sout[0], 1, 0, 0, NULL);
	if (bin && errno == EINVAL) {
		if (drmSyncobjQuery(c->fd, &h, &pt, 1) || pt)
			return -1;
		return 0;
	}
	bin = drmSyncobjWait(c->fd, &c->sout[0], 1, vf_deadline(5000), 0, NULL);
	tl = drmSyncobjTimelineWait(c->fd, &h, &five, 1, vf_deadline(5000),
				    DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL, NULL);
	if (bin || tl || drmSyncobjQuery(c->fd, &h, &pt, 1) || pt != 5)
		return -1;
	return 1;
}

/* Whether the pass puts a job of the file before the call (-F). */
bool vf_pass_prior(void)
{
	return vf_pass == VF_PASS_GUILTY || vf_pass == VF_PASS_HANG;
}

/*
 * Whether the call's job timed out or faulted, read off vatom_stats: then
 * fail-nth reached the job's own fault point (vatom_fault_pick(), when it
 * was accepted: fail_hang or fail_job; fail_delay changes nothing the
 * checks see). Not where a job before the call moves the counts.
 * Return: c->fault: 0, -ETIMEDOUT, -EIO, or -EPROTO for more than one.
 */
int vf_job_fault(struct vf_ctx *c)
{
	long long t, f;

	c->fault = 0;
	if (!vf_jobfaults || vf_pass_prior())
		return 0;
	t = vt_debugfs_stat(vf_stats[0], "job_timeouts") - c->jf[0];
	f = vt_debugfs_stat(vf_stats[0], "job_faults") - c->jf[1];
	c->fault = t + f > 1 ? -EPROTO : t ? -ETIMEDOUT : f ? -EIO : 0;
	return c->fault;
}

/*
 * The call's job ended with c->fault: it ran none of its packets (a hang
 * that timed out) or the first half of them (an engine fault), each whole;
 * their results are in the result surface at @rsurf, none in user memory
 * (@rsurf NULL: a failed synchronous job copies none back).
 */
enum vf_state vf_faulted(struct vf_ctx *c, const __u32 *rsurf, char *why,
			 size_t len)
{
	__u32 want[VF_WORDS], nres, m = c->fault == -EIO ? c->npk / 2 : 0;
	long i;

	if (c->fault == -EPROTO) {
		snprintf(why, len, "more than one job timed out or faulted");
		return VF_BAD;
	}
	vf_prefix(c, m, want, &nres);
	if (memcmp(c->map, want, sizeof(want))) {
		snprintf(why, len, "job %s: the surface is not what its first %u of %u packets do",
			 c->fault == -EIO ? "faulted" : "timed out", m, c->npk);
		return VF_BAD;
	}
	if (!rsurf) {
		if (vt_find_ne8(c->results, 0, sizeof(c->results), VT_POISON) >= 0) {
			snprintf(why, len, "results copied out for a job that failed");
			return VF_BAD;
		}
		return VF_FAULTED;
	}
	for (i = 0; i < nres / 4; i++)
		if (!c->rskip[i] && rsurf[i] != c->rexpect[i]) {
			snprintf(why, len, "results of the packets that ran differ at word %ld: %#x, expected %#x",
				 i, rsurf[i], c->rexpect[i]);
			return VF_BAD;
		}
	if (vt_find_ne8(c->rmap, 0, VF_RES_OFFSET, VT_POISON) >= 0 ||
	    vt_find_ne8(rsurf, nres, VF_BUF_SIZE - VF_RES_OFFSET, VT_POISON) >= 0) {
		snprintf(why, len, "results past those of the %u packets that ran", m);
		return VF_BAD;
	}
	return VF_FAULTED;
}

/* ------------------------------------------------------------------------ */
/* The job before the call (-F), the reset status after it                   */
/* ------------------------------------------------------------------------ */

/* The surface and out-syncobj of the job before the call (counted in setup). */
int vf_prior_prepare(struct vf_ctx *c)
{
	if (vt_buffer_create(c->fd, VT_PAGE_SIZE, &c->prior_buf) ||
	    drmSyncobjCreate(c->fd, 0, &c->prior))
		return -errno;
	return 0;
}

/*
 * The pass's job before the call, on a surface of its own, one packet: an
 * engine fault (synchronous: -EIO; none of its one packet runs) leaves the
 * file guilty, or a hang (asynchronous) holds the file's queue until the
 * job timeout. Return: NULL, or what went wrong.
 */
const char *vf_prior(struct vf_ctx *c)
{
	const char *attr = vf_pass == VF_PASS_HANG ? "fail_hang" : "fail_job";
	struct drm_vatom_binding b = { .slot = 0, .handle = c->prior_buf };
	struct drm_vatom_sync out = { .handle = c->prior };
	static char why[96];
	struct drm_vatom_submit a;
	__u32 addr = 0, one = 1;
	struct vt_stream s;
	struct vt_visa v;
	long left;
	int ret;

	vt_stream_init(&s);
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_1,
		 DRM_VATOM_VISA_TYPE_UD, &addr, &one, NULL, false);
	vt_add_visa(&s, &v);
	vt_submit_args(&a, &s, &b, 1, NULL, 0);
	if (vf_pass == VF_PASS_HANG) {
		a.flags = DRM_VATOM_SUBMIT_ASYNC;
		a.out_syncs = vt_u64_ptr(&out);
		a.out_sync_count = 1;
	}
	if (vt_fault_arm(attr, 1, true))
		return "cannot arm the fault";
	ret = vt_submit(c->fd, &a) ? -errno : 0;
	left = vf_fault_left(attr);
	vt_fault_arm(attr, 0, false);
	if (left) {
		snprintf(why, sizeof(why), "%s did not pick the job before the call", attr);
		return why;
	}
	if (ret != (vf_pass == VF_PASS_HANG ? 0 : -EIO)) {
		snprintf(why, sizeof(why), "the job before the call returned %s",
			 ret ? vf_errname(-ret) : "0");
		return why;
	}
	return NULL;
}

/*
 * The hang before the call timed out (waiting up to 5 s); its syncobj goes.
 * The live counts are then those before it, but for its fence, which the
 * file keeps (its last asynchronous job's out-fence holds the hardware
 * fence) until another asynchronous job replaces it, or the file closes.
 * Return: false with @why filled.
 */
bool vf_prior_end(struct vf_ctx *c, char *why, size_t len)
{
	int st;

	if (vf_pass != VF_PASS_HANG)
		return true;
	if (drmSyncobjWait(c->fd, &c->prior, 1, vf_deadline(5000), 0, NULL)) {
		snprintf(why, len, "the hung job before the call: %s", strerror(errno));
		return false;
	}
	st = vt_fence_status(c->fd, c->prior);
	if (st != -ETIMEDOUT) {
		snprintf(why, len, "the hung job before the call ended %d, not -ETIMEDOUT", st);
		return false;
	}
	drmSyncobjDestroy(c->fd, c->prior);
	c->prior = 0;
	c->counts.v[0][2]++;	/* fences */
	return true;
}

/*
 * The file is guilty exactly once per job of its that timed out or
 * faulted: the one before the call (-F), and the call's if its check says
 * so. Then acknowledged.
 */
bool vf_reset_check(const struct vf_path *p, struct vf_ctx *c,
		    enum vf_state st, char *why, size_t len)
{
	unsigned int want = vf_pass_prior() + (st == VF_FAULTED);
	struct drm_vatom_reset_status rs;

	if (!vf_jobfaults || p->own_reset)
		return true;
	if (vf_reset_status(c->fd, DRM_VATOM_RESET_ACK, &rs)) {
		snprintf(why, len, "RESET_STATUS: %s", strerror(errno));
		return false;
	}
	if (rs.guilty != want ||
	    rs.status != (want ? DRM_VATOM_RESET_GUILTY : DRM_VATOM_RESET_NONE)) {
		snprintf(why, len, "reset status %u, guilty %llu; expected guilty %u",
			 rs.status, (unsigned long long)rs.guilty, want);
		return false;
	}
	return true;
}
