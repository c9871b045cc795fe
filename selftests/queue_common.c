// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the queue tests: kick-mode queues (vq_*), polling
 * queues and their completion signals (qp_*). See queue_common.h.
 *
 * Copyright (C) 2026 The vatom developers
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/dma-buf.h>
#include <linux/sync_file.h>
#include <xf86drm.h>

#include "queue_common.h"

/* ------------------------------------------------------------------------ */
/* Queues                                                                   */
/* ------------------------------------------------------------------------ */

int vq_create_args(int fd, struct drm_vatom_queue_create *args)
{
	return ioctl(fd, DRM_IOCTL_VATOM_QUEUE_CREATE, args);
}

int vq_destroy(int fd, __u32 id)
{
	struct drm_vatom_queue_destroy d = { .queue_id = id };

	return ioctl(fd, DRM_IOCTL_VATOM_QUEUE_DESTROY, &d);
}

int vq_kick(int fd, __u32 id)
{
	struct drm_vatom_queue_kick k = { .queue_id = id };

	return ioctl(fd, DRM_IOCTL_VATOM_QUEUE_KICK, &k);
}

/* Create the queue @a describes and map its ring and page: 0 or -errno. */
int vq_create_mapped(int fd, struct drm_vatom_queue_create *a, struct vq *q)
{
	memset(q, 0, sizeof(*q));
	if (vq_create_args(fd, a))
		return -errno;
	q->fd = fd;
	q->id = a->queue_id;
	q->entries = a->entries;
	q->ring_handle = a->ring_handle;
	q->ctl_handle = a->ctl_handle;
	q->ring = vt_map(fd, a->ring_handle,
			 vt_page_round(a->entries * sizeof(*q->ring)));
	q->ctl = vt_map(fd, a->ctl_handle, VT_PAGE_SIZE);
	return q->ring && q->ctl ? 0 : -ENOMEM;
}

/* A kick-mode queue with @n bindings, mapped: 0 or -errno. */
int vq_create(int fd, __u32 entries, const struct drm_vatom_binding *b,
	      __u32 n, struct vq *q)
{
	struct drm_vatom_queue_create a = {
		.entries = entries, .bindings = vt_u64_ptr(b), .binding_count = n,
	};

	return vq_create_mapped(fd, &a, q);
}

/* Fill the descriptor at the tail; publish with vq_publish(). */
struct drm_vatom_queue_job *vq_next(struct vq *q)
{
	struct drm_vatom_queue_job *j = &q->ring[q->tail & (q->entries - 1)];

	memset(j, 0, sizeof(*j));
	return j;
}

void vq_publish(struct vq *q, __u32 n)
{
	q->tail += n;
	__atomic_store_n(&q->ctl->tail, q->tail, __ATOMIC_RELEASE);
}

__u64 vq_completed(const struct vq *q)
{
	return __atomic_load_n(&q->ctl->completed, __ATOMIC_ACQUIRE);
}

/* A 16-lane DWORD_ATOMIC.ADD on the target slot: lane k adds @inc * (k + 1). */
void vq_add16(struct vt_stream *s, __u32 inc, bool dst)
{
	__u32 addr[16], src[16];
	struct vt_visa v;
	unsigned int k;

	for (k = 0; k < 16; k++) {
		addr[k] = 4 * k;
		src[k] = inc * (k + 1);
	}
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_16,
		 DRM_VATOM_VISA_TYPE_UD, addr, src, NULL, dst);
	v.surface = VQ_SLOT_TARGET;
	vt_add_visa(s, &v);
}

/*
 * Queue job for ring entry @e: its stream copied to entry @e's stream area
 * of @streams and results, if any, to entry @e's area of the results.
 */
void vq_job(struct drm_vatom_queue_job *j, void *streams, __u32 e,
	    const struct vt_stream *s)
{
	memcpy((char *)streams + e * VQ_STREAM_STRIDE, s->buf, s->size);
	j->stream_slot = VQ_SLOT_STREAM;
	j->stream_offset = e * VQ_STREAM_STRIDE;
	j->stream_size = s->size;
	if (s->results) {
		j->results_slot = VQ_SLOT_RESULTS;
		j->results_offset = e * VQ_RES_STRIDE;
		j->results_size = VQ_RES_STRIDE;
	}
}

__u64 vq_charged(int fd)
{
	__u64 v = 0;

	vt_get_param(fd, DRM_VATOM_PARAM_FILE_MEM_CHARGED, 0, &v);
	return v;
}

void *vq_submit_thread(void *arg)
{
	struct vq_submitter *x = arg;
	struct drm_vatom_binding b = { .slot = VQ_SLOT_TARGET, .handle = x->h };
	struct drm_vatom_submit sub;
	struct vt_stream s;
	unsigned int i;
	int ret;

	vt_stream_init(&s);
	vq_add16(&s, 1000, false);
	for (i = 0; i < x->iters && !x->err; i++) {
		do {
			vt_submit_args(&sub, &s, &b, 1, NULL, 0);
			if (i & 1)
				sub.flags = DRM_VATOM_SUBMIT_ASYNC;
			ret = vt_submit(x->fd, &sub) ? -errno : 0;
			if (ret == -EBUSY)	/* the file's jobs are capped */
				usleep(1000);
		} while (ret == -EBUSY);
		x->err = ret;
	}
	return NULL;
}

/* ------------------------------------------------------------------------ */
/* Polling queues and completion signals                                    */
/* ------------------------------------------------------------------------ */

/* Bytes of the stream surface: room for a long job's stream at offset 0. */
#define QP_STREAMS_MIN		(64 * 1024)

/* QUEUE_CREATE with @m, then map the ring and page into @q: 0 or -errno. */
int qp_queue_create(int fd, __u32 entries, const struct drm_vatom_binding *b,
		    __u32 n, const struct qp_mode *m, struct vq *q)
{
	struct drm_vatom_queue_create a = {
		.entries = entries, .bindings = vt_u64_ptr(b), .binding_count = n,
		.flags = m->flags, .poll_idle_us = m->idle_us, .syncobj = m->syncobj,
		.eventfd = m->flags & DRM_VATOM_QUEUE_CREATE_EVENTFD ? m->efd : 0,
		.poll_cpu = m->flags & DRM_VATOM_QUEUE_CREATE_POLL_CPU ? m->cpu : 0,
	};

	return vq_create_mapped(fd, &a, q);
}

/*
 * Surfaces and a queue created with @m, with at least @smin bytes of
 * streams. @th: a target surface to bind (an import, say), or 0 for a new
 * one. Return: 0 or -errno.
 */
static int qp_env_create(struct qp_env *v, int fd, __u32 entries, __u32 th,
			 size_t smin, const struct qp_mode *m)
{
	memset(v, 0, sizeof(*v));
	v->fd = fd;
	v->th = th;
	v->slen = vt_page_round(entries * VQ_STREAM_STRIDE);
	if (v->slen < smin)
		v->slen = smin;
	v->rlen = vt_page_round(entries * VQ_RES_STRIDE);
	if ((!th && vt_buffer_create(fd, VT_PAGE_SIZE, &v->th)) ||
	    vt_buffer_create(fd, v->slen, &v->sh) ||
	    vt_buffer_create(fd, v->rlen, &v->rh))
		return -errno;
	v->target = vt_map(fd, v->th, VT_PAGE_SIZE);
	v->streams = vt_map(fd, v->sh, v->slen);
	v->results = vt_map(fd, v->rh, v->rlen);
	if (!v->target || !v->streams || !v->results)
		return -ENOMEM;
	v->bind[0] = (struct drm_vatom_binding){ .slot = VQ_SLOT_TARGET, .handle = v->th };
	v->bind[1] = (struct drm_vatom_binding){ .slot = VQ_SLOT_STREAM, .handle = v->sh };
	v->bind[2] = (struct drm_vatom_binding){ .slot = VQ_SLOT_RESULTS, .handle = v->rh };
	return qp_queue_create(fd, entries, v->bind, 3, m, &v->q);
}

/* A kick-mode queue whose stream surface ends with entry @entries - 1's area. */
int vq_env_init(struct qp_env *v, int fd, __u32 entries)
{
	static const struct qp_mode kick;

	return qp_env_create(v, fd, entries, 0, 0, &kick);
}

int qp_env_init(struct qp_env *v, int fd, __u32 entries, __u32 th,
		const struct qp_mode *m)
{
	return qp_env_create(v, fd, entries, th, QP_STREAMS_MIN, m);
}

/* Drop every mapping of @v: with its file closed, that releases the file. */
void qp_env_unmap(struct qp_env *v)
{
	munmap(v->target, VT_PAGE_SIZE);
	munmap(v->streams, v->slen);
	munmap(v->results, v->rlen);
	munmap(v->q.ring, vt_page_round(v->q.entries * sizeof(*v->q.ring)));
	munmap(v->q.ctl, VT_PAGE_SIZE);
}

__u32 qp_flags(const struct vq *q)
{
	return __atomic_load_n(&q->ctl->flags, __ATOMIC_ACQUIRE);
}

/*
 * The producer's doorbell protocol: store the tail @n positions on
 * (release), a full barrier, load the flags; KICK only when the consumer
 * asks for it. Return: 1 after a KICK, 0 without one, or -errno of the KICK.
 */
int qp_publish(struct vq *q, __u32 n)
{
	q->tail += n;
	__atomic_store_n(&q->ctl->tail, q->tail, __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (!(__atomic_load_n(&q->ctl->flags, __ATOMIC_RELAXED) &
	      DRM_VATOM_QUEUE_CTL_NEED_WAKEUP))
		return 0;
	return vq_kick(q->fd, q->id) ? -errno : 1;
}

/* Spin until @n jobs are complete or @ms pass. Return: whether they are. */
bool qp_wait_completed(const struct vq *q, __u64 n, int ms)
{
	long long end = va_now_ns() + ms * VA_NS_PER_MS;
	unsigned long i;

	for (i = 1; vq_completed(q) < n; i++) {
		if (i % 1024)
			continue;
		if (va_now_ns() > end)
			return vq_completed(q) >= n;
		/* Spin a while, then leave the CPU to the poller too. */
		if (i > 64 * 1024)
			sched_yield();
	}
	return true;
}

/* Wait up to @ms for (flags & @mask) == @want. Return: whether it came. */
bool qp_wait_flags(const struct vq *q, __u32 mask, __u32 want, int ms)
{
	long long end = va_now_ns() + ms * VA_NS_PER_MS;

	while ((qp_flags(q) & mask) != want) {
		if (va_now_ns() > end)
			return (qp_flags(q) & mask) == want;
		usleep(500);
	}
	return true;
}

/* Raw syncobj ioctls: a handle (0 on failure) and the last point (or -errno). */
__u32 qp_syncobj_create(int fd, __u32 flags)
{
	struct drm_syncobj_create c = { .flags = flags };

	return ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &c) ? 0 : c.handle;
}

int qp_syncobj_destroy(int fd, __u32 h)
{
	struct drm_syncobj_destroy d = { .handle = h };

	return ioctl(fd, DRM_IOCTL_SYNCOBJ_DESTROY, &d) ? -errno : 0;
}

long long qp_syncobj_query(int fd, __u32 h)
{
	struct drm_syncobj_timeline_array a;
	__u64 point = VT_POISON64;

	memset(&a, 0, sizeof(a));
	a.handles = vt_u64_ptr(&h);
	a.points = vt_u64_ptr(&point);
	a.count_handles = 1;
	if (ioctl(fd, DRM_IOCTL_SYNCOBJ_QUERY, &a))
		return -errno;
	return point;
}

/* TIMELINE_WAIT for @point with @flags, @ms from now (0: no wait): 0 or -errno. */
int qp_wait_point(int fd, __u32 h, __u64 point, __u32 flags, int ms)
{
	return va_wait_flags(fd, h, point, flags,
			     ms ? va_now_ns() + ms * VA_NS_PER_MS : 0);
}

/* The eventfd's count (0 when it has none: non-blocking), or -errno. */
long long qp_eventfd_take(int efd)
{
	__u64 v = 0;

	if (read(efd, &v, sizeof(v)) == sizeof(v))
		return v;
	return errno == EAGAIN ? 0 : -errno;
}

static char qp_stats_path[256];
char qp_limits_path[256];

void qp_live(struct qp_live *l)
{
	if (!qp_stats_path[0]) {
		vt_debugfs_stats_path(vt_render_path, qp_stats_path, sizeof(qp_stats_path));
		vt_debugfs_limits_path(vt_render_path, qp_limits_path,
				       sizeof(qp_limits_path));
	}
	l->surfaces = vt_debugfs_stat(qp_stats_path, "surfaces");
	l->poll_queues = vt_debugfs_stat(qp_limits_path, "poll_queues");
	l->pollers = vt_debugfs_stat(qp_limits_path, "pollers");
}

/* The live counts, waiting up to ~2 s for each readable one to be @base's. */
void qp_live_settle(const struct qp_live *base, struct qp_live *now)
{
	now->surfaces = base->surfaces < 0 ? -1 :
		va_stat_settle(qp_stats_path, "surfaces", base->surfaces);
	now->poll_queues = base->poll_queues < 0 ? -1 :
		va_stat_settle(qp_limits_path, "poll_queues", base->poll_queues);
	now->pollers = base->pollers < 0 ? -1 :
		va_stat_settle(qp_limits_path, "pollers", base->pollers);
}

bool qp_supported(int fd)
{
	return (vt_caps(fd) & QP_CAPS) == QP_CAPS;
}

/*
 * A fixture's file: -1 (and @skip set) without a vatom device or the
 * capabilities @caps; the harness of 6.1 runs the test after a skipping
 * setup, so each test checks @skip first.
 */
int qp_fixture_open_caps(bool *skip, __u64 caps)
{
	int fd = vt_open();

	*skip = fd == -ENODEV;
	if (fd >= 0 && (vt_caps(fd) & caps) != caps) {
		close(fd);
		*skip = true;
		fd = -1;
	}
	return fd;
}

/* qp_fixture_open_caps() of polling queues that signal (QP_CAPS). */
int qp_fixture_open(bool *skip)
{
	return qp_fixture_open_caps(skip, QP_CAPS);
}

__u64 qp_param(int fd, __u32 param)
{
	__u64 v = VT_POISON64;

	vt_get_param(fd, param, 0, &v);
	return v;
}

/* Ring entries @first.. of @v: jobs of @packets broadcasts at @offset of the streams. */
void qp_broadcast_jobs(struct qp_env *v, __u32 first, __u32 n, __u32 packets,
			      __u32 offset)
{
	struct drm_vatom_noc *p = ab_broadcasts(packets);
	__u32 i;

	memcpy((char *)v->streams + offset, p, packets * sizeof(*p));
	free(p);
	for (i = first; i < first + n; i++) {
		struct drm_vatom_queue_job *j = &v->q.ring[i & (v->q.entries - 1)];

		memset(j, 0, sizeof(*j));
		j->stream_slot = VQ_SLOT_STREAM;
		j->stream_offset = offset;
		j->stream_size = packets * sizeof(*p);
		j->status = QP_UNTOUCHED;
	}
}

/*
 * The poller's task id: the one task named vatom-poll/@pid (15 bytes
 * kept); -1 when there is none, -2 when there are several.
 */
/* Whether the task at /proc/@dir/@name is called @want: 1, 0, -1 not a task. */
static int qp_comm_is(const char *dir, const char *name, const char *want)
{
	char path[300], comm[64];
	int is = -1;
	FILE *f;

	if (name[0] < '0' || name[0] > '9')
		return -1;
	snprintf(path, sizeof(path), "%s/%s/comm", dir, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fgets(comm, sizeof(comm), f)) {
		comm[strcspn(comm, "\n")] = 0;
		is = !strcmp(comm, want);
	}
	fclose(f);
	return is;
}

/*
 * The one task in directory @dir (/proc, or a process's task/) called
 * @want: its id, -1 none, -2 more than one.
 */
static pid_t qp_task_named(const char *dir, const char *want)
{
	pid_t found = -1;
	struct dirent *e;
	DIR *d = opendir(dir);

	while (d && (e = readdir(d)))
		if (qp_comm_is(dir, e->d_name, want) == 1)
			found = found < 0 ? atoi(e->d_name) : -2;
	if (d)
		closedir(d);
	return found;
}

pid_t qp_poller_tid(pid_t pid)
{
	char want[16], dir[64];
	pid_t found;

	/* TASK_COMM_LEN is 16: the kernel keeps 15 bytes of the name. */
	snprintf(want, sizeof(want), "vatom-poll/%d", (int)pid);
	found = qp_task_named("/proc", want);
	if (found != -1)
		return found;
	/* The in-process device's poller is a thread of @pid's own. */
	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pid);
	return qp_task_named(dir, want);
}
