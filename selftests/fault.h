/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fault.h: what vatom_fault's files share: the state one call works on, the
 * paths, the passes, and each file's functions and variables the others
 * use. vatom_fault.c says what the program checks.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_SELFTEST_FAULT_H_
#define _VATOM_SELFTEST_FAULT_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common.h"
#include "common_kernel.h"
#include "common_packets.h"

#define VF_MAX_POINTS	2000	/* a call with more fault points fails */
#define VF_BUF_SIZE	4096
#define VF_WORDS	(VF_BUF_SIZE / 4)
#define VF_BIG_PACKETS	48	/* a stream over a page: kvmalloc */
#define VF_RES_OFFSET	64	/* results in the result surface */
#define VF_GRID_SLOT	7
#define VF_MAX_ERRNO	134
#define VF_SLACK	2	/* see vf_run_path() */
#define VF_VATOM	VT_FAULT_DIR
#define VF_QUEUE_ENTRIES	4
#define VF_QUEUE_STREAMS	(16 * 1024)	/* a queue's streams: a big one fits */

/* The job faults a pass injects (-F) besides the allocation failures. */
enum vf_pass {
	VF_PASS_PLAIN,	/* none */
	VF_PASS_JOBS,	/* at the job's own fault points, by fail-nth */
	VF_PASS_GUILTY,	/* before the call, an engine fault: file guilty */
	VF_PASS_HANG,	/* before the call, an asynchronous job that hangs */
	VF_NPASSES
};

/* The passes a path runs in (struct vf_path.passes). */
#define VF_P_PLAIN	(1u << VF_PASS_PLAIN)
#define VF_P_JOBS	(1u << VF_PASS_JOBS)
#define VF_P_GUILTY	(1u << VF_PASS_GUILTY)
#define VF_P_HANG	(1u << VF_PASS_HANG)

/* The live counts: three of vatom_stats, then vatom_limits' poll_queues. */
#define VF_NCOUNTS	4

struct vf_counts {
	long long v[2][VF_NCOUNTS];
};

/* A packet of the stream under test: a DWORD_ATOMIC.ADD of 16 lanes, or PTX. */
struct vf_packet {
	bool ptx;
	__u32 word, k;	/* the first word and addend (lane i adds k + i) */
};

/**
 * struct vf_ctx - what a path's setup makes and its check looks at
 * @fd: a fresh file of device 0
 * @fd2: a file of device 1, or vgem's primary node, or -1
 * @buf: a buffer surface on @fd (slot 0), mapped at @map
 * @res: a result surface on @fd, mapped at @rmap, or 0
 * @grid: a tile grid on @fd, mapped at @gmap (@glen bytes), or 0
 * @handle: what the call created (surface, import, syncobj), or 0
 * @dmabuf: a dma-buf fd to import, or the one the call exported
 * @sync_file: a sync_file fd to import, or the one the call exported
 * @sin: in-syncobjs (binary, timeline); @sout: out-syncobjs (likewise)
 * @before: @map before the call; @expect: @map after a successful one
 * @results: user-memory results; @rexpect: what a successful call returns
 * @nres: result bytes
 * @submit: the SUBMIT arguments after the call
 * @stream: the stream
 * @counts: live counts after setup, before the call
 * @cnt_before: NIU counters before NOC_COUNTERS
 * @qc: QUEUE_CREATE's arguments; @qbind its bindings
 * @qs: a queue's stream surface, mapped at @qsmap
 * @qring: the queue's ring, mapped; @qctl its control page
 * @efd: an eventfd the queue signals, or -1
 * @pk: the stream's packets, for what a prefix of them does; @npk how many
 * @prior_buf: the surface of the job before the call (-F), @prior its
 *	out-syncobj (a hang's)
 * @jf: vatom_stats' job_timeouts and job_faults before the call
 * @fault: the call's job timed out or faulted: -ETIMEDOUT, -EIO; or 0
 */
struct vf_ctx {
	int fd, fd2;
	__u32 buf, res, grid, handle;
	__u32 *map, *rmap;
	__u8 *gmap;
	size_t glen;
	int dmabuf, sync_file;
	__u32 sin[2], sout[2];
	__u32 before[VF_WORDS], expect[VF_WORDS];
	__u32 results[VF_WORDS], rexpect[VF_WORDS];
	bool rskip[VF_WORDS];
	__u32 nres;
	struct drm_vatom_submit submit;
	struct drm_vatom_sync insync[2], outsync[2];
	struct drm_vatom_binding bind[2];
	struct vt_stream stream;
	struct vf_counts counts;
	__u32 cnt_before[64];
	struct drm_vatom_queue_create qc;
	struct drm_vatom_binding qbind[3];
	__u32 qs;
	__u8 *qsmap;
	struct drm_vatom_queue_job *qring;
	struct drm_vatom_queue_ctl *qctl;
	int efd;
	struct vf_packet pk[VF_BIG_PACKETS + 1];
	__u32 npk;
	__u32 prior_buf, prior;
	long long jf[2];
	int fault;
};

/* The outcome of one call as the check sees it. */
enum vf_state {
	VF_UNCHANGED,	/* nothing happened */
	VF_DONE,	/* exactly what a successful call does */
	VF_FAULTED,	/* its job timed out or faulted, as fail-nth injected */
	VF_REFUSED,	/* -EIO, nothing happened: the file is guilty (-F) */
	VF_BAD,		/* anything else: a defect */
};

/**
 * struct vf_path - one call put under fault injection
 * @name: what the TAP line says
 * @needs: 0, 'v' (vgem) or '2' (a second vatom device)
 * @setup: build fresh state in @c (not under injection); 0 or -errno
 * @call: the one ioctl under injection: 0 or -errno
 * @check: what the call did (@ret its return)
 * @points: fault points of the call (out)
 * @tolerated: injected faults after which it still succeeded (out)
 * @late_copies: how many of the last fault points are user copies made
 *	after the work is done (drm_ioctl()'s copy of the arguments back; the
 *	counters of NOC_COUNTERS): EFAULT there comes with the work done
 * @extra_errno: an errno the DRM core returns here for ENOMEM, or 0
 * @errs: how many times each errno was returned (out)
 * @results_fault: EFAULT with DRM_VATOM_ERR_RESULTS_FAULT (out)
 * @late: the N of calls that returned EFAULT with the work done (out)
 * @nlate: entries of @late (out)
 * @violations: calls that broke a rule (out)
 * @passes: VF_P_*: plain, and with -F the file guilty, behind a hang
 * @own_reset: the call is RESET_STATUS: its check reads the status
 * @job_faults: calls whose job timed out [0] or faulted [1] (out)
 * @refused: calls refused, -EIO, the file guilty (out)
 */
struct vf_path {
	const char *name;
	char needs;
	int (*setup)(struct vf_ctx *c);
	int (*call)(struct vf_ctx *c);
	enum vf_state (*check)(struct vf_ctx *c, int ret, char *why, size_t len);
	unsigned int late_copies;
	int extra_errno;
	unsigned int passes;
	bool own_reset;
	unsigned int points, tolerated, results_fault;
	unsigned int errs[VF_MAX_ERRNO];
	unsigned int late[4], nlate, violations;
	unsigned int job_faults[2], refused;
};

/* fault_control.c */
extern __u32 vf_created_kind;
extern bool vf_usercopy;
extern bool vf_cold_imports;
extern bool vf_jobfaults;
extern unsigned int vf_inject;
extern enum vf_pass vf_pass;
void vf_restore(void);
const char *vf_setup_injection(void);
long vf_fault_left(const char *name);
void vf_arm(unsigned int n);
bool vf_disarm(void);
extern char vf_nodes[2][VT_PATH_MAX];
extern char vf_stats[2][VT_PATH_MAX * 2];
extern char vf_limits[2][VT_PATH_MAX * 2];
extern int vf_ndev;
extern char vf_vgem[VT_PATH_MAX];
extern int vf_first_tmp_fd;
void vf_counts(struct vf_counts *c);
void vf_sleep_ms(unsigned int ms);
bool vf_counts_settle(const struct vf_counts *want, char *why, size_t len);

/* fault_state.c */
const char *vf_errname(int e);
int vf_ioctl(int fd, unsigned long req, void *arg);
int vf_reset_status(int fd, __u32 flags, struct drm_vatom_reset_status *st);
int vf_open(int d);
int vf_buffer(int fd, __u32 *h, __u32 **map);
void vf_fill(struct vf_ctx *c);
void vf_stream(struct vf_ctx *c, int npk);
void vf_submit_args(struct vf_ctx *c, __u32 buf, bool to_surface);
int vf_syncobjs(struct vf_ctx *c);
int64_t vf_deadline(unsigned int ms);
int vf_outs_state(struct vf_ctx *c);
bool vf_pass_prior(void);
int vf_job_fault(struct vf_ctx *c);
enum vf_state vf_faulted(struct vf_ctx *c, const __u32 *rsurf, char *why,
			 size_t len);
int vf_prior_prepare(struct vf_ctx *c);
const char *vf_prior(struct vf_ctx *c);
bool vf_prior_end(struct vf_ctx *c, char *why, size_t len);
bool vf_reset_check(const struct vf_path *p, struct vf_ctx *c,
		    enum vf_state st, char *why, size_t len);

/* fault_submit.c */
int vf_setup_common(struct vf_ctx *c);
int vf_setup_sync_user(struct vf_ctx *c);
int vf_setup_sync_user_big(struct vf_ctx *c);
int vf_setup_sync_surface(struct vf_ctx *c);
int vf_setup_async_surface(struct vf_ctx *c);
int vf_setup_import(struct vf_ctx *c, int d);
int vf_setup_submit_vgem(struct vf_ctx *c);
int vf_setup_submit_vatom2(struct vf_ctx *c);
int vf_call_submit(struct vf_ctx *c);
long vf_mismatch(const struct vf_ctx *c, const __u32 *r);
enum vf_state vf_buf_state(struct vf_ctx *c);
enum vf_state vf_check_submit(struct vf_ctx *c, int ret, char *why,
			      size_t len);
int vf_call_reset_status(struct vf_ctx *c);
enum vf_state vf_check_reset_status(struct vf_ctx *c, int ret, char *why,
				    size_t len);

/* fault_surface.c */
int vf_setup_buffer(struct vf_ctx *c);
int vf_setup_typed(struct vf_ctx *c);
int vf_setup_grid(struct vf_ctx *c);
int vf_call_create(struct vf_ctx *c);
long long vf_new_surfaces(struct vf_ctx *c, int d);
enum vf_state vf_check_create(struct vf_ctx *c, int ret, char *why,
			      size_t len);
int vf_setup_import_vgem(struct vf_ctx *c);
int vf_setup_import_vatom2(struct vf_ctx *c);
int vf_call_import(struct vf_ctx *c);
enum vf_state vf_check_import(struct vf_ctx *c, int ret, char *why,
			      size_t len);
int vf_setup_export(struct vf_ctx *c);
int vf_call_export(struct vf_ctx *c);
enum vf_state vf_check_export(struct vf_ctx *c, int ret, char *why,
			      size_t len);
int vf_setup_counters(struct vf_ctx *c);
int vf_call_counters(struct vf_ctx *c);
enum vf_state vf_check_counters(struct vf_ctx *c, int ret, char *why,
				size_t len);

/* fault_sync.c */
int vf_setup_job_fence(struct vf_ctx *c);
int vf_call_open(struct vf_ctx *c);
enum vf_state vf_check_open(struct vf_ctx *c, int ret, char *why,
			    size_t len);
int vf_setup_file(struct vf_ctx *c);
int vf_call_so_create(struct vf_ctx *c);
enum vf_state vf_check_so_create(struct vf_ctx *c, int ret, char *why,
				 size_t len);
int vf_call_so_export(struct vf_ctx *c);
enum vf_state vf_check_so_export(struct vf_ctx *c, int ret, char *why,
				 size_t len);
int vf_setup_so_import(struct vf_ctx *c);
int vf_call_so_import(struct vf_ctx *c);
enum vf_state vf_check_so_import(struct vf_ctx *c, int ret, char *why,
				 size_t len);
int vf_setup_so_transfer(struct vf_ctx *c);
int vf_call_so_transfer(struct vf_ctx *c);
enum vf_state vf_check_so_transfer(struct vf_ctx *c, int ret, char *why,
				   size_t len);
int vf_setup_so_signal(struct vf_ctx *c);
int vf_call_so_signal(struct vf_ctx *c);

/* fault_queue.c */
int vf_setup_queue_create(struct vf_ctx *c);
int vf_call_queue_create(struct vf_ctx *c);
enum vf_state vf_check_queue_create(struct vf_ctx *c, int ret, char *why,
				    size_t len);
int vf_setup_queue_kick(struct vf_ctx *c);
int vf_call_queue_kick(struct vf_ctx *c);
enum vf_state vf_check_queue_kick(struct vf_ctx *c, int ret, char *why,
				  size_t len);

#endif /* _VATOM_SELFTEST_FAULT_H_ */
