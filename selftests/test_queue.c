// SPDX-License-Identifier: GPL-2.0
/*
 * User-mode queues: QUEUE_CREATE/DESTROY/KICK and their errors, the ring
 * and control page protocol, per-job status. test_queue_life.c follows
 * with a hostile writer, lifetimes and concurrency with SUBMIT. The vq_*
 * and va_* helpers are queue_common.c's.
 *
 * Expected values are computed here from the operations issued (sums of
 * the increments), never read from the device.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include "queue_common.h"

/* ------------------------------------------------------------------------ */
/* Discovery and argument errors                                             */
/* ------------------------------------------------------------------------ */

TEST(queue_params)
{
	__u64 v;
	int fd;

	VT_OPEN(fd);
	EXPECT_TRUE(vt_caps(fd) & DRM_VATOM_CAP_QUEUE);
	ASSERT_EQ(0, vt_get_param(fd, DRM_VATOM_PARAM_MAX_QUEUE_ENTRIES, 0, &v));
	EXPECT_EQ(DRM_VATOM_QUEUE_MAX_ENTRIES, v);
	ASSERT_EQ(0, vt_get_param(fd, DRM_VATOM_PARAM_MAX_QUEUES, 0, &v));
	EXPECT_EQ(64, v);
	close(fd);
}

/* Which binding table a create-error case passes. */
enum vq_bind_case {
	VQ_BIND_NONE,		/* no table */
	VQ_BIND_GOOD,		/* one valid binding */
	VQ_BIND_PTR_NO_COUNT,	/* a pointer, count 0 */
	VQ_BIND_BAD_PTR,	/* an unmapped pointer */
	VQ_BIND_SLOT_256,
	VQ_BIND_TWICE,		/* slot 3 bound twice */
	VQ_BIND_FLAGS,
	VQ_BIND_PAD,
	VQ_BIND_UNKNOWN,	/* an unknown handle */
	VQ_BIND_TOO_MANY,	/* count 257 */
};

/* The lowest flag of struct drm_vatom_queue_create that is not defined. */
#define VQ_FLAG_UNKNOWN		(DRM_VATOM_QUEUE_CREATE_POLL_CPU << 1)
_Static_assert(!(VQ_FLAG_UNKNOWN & DRM_VATOM_QUEUE_CREATE_FLAGS), "a defined flag");

static const struct vq_create_case {
	const char *name;
	__u32 entries;
	__u32 flags;
	enum vq_bind_case bind;
	int err;
} vq_create_cases[] = {
	{ "flags",		8, VQ_FLAG_UNKNOWN, VQ_BIND_GOOD,		EINVAL },
	{ "flags_high",		8, 1u << 31,	VQ_BIND_GOOD,		EINVAL },
	{ "entries_0",		0, 0,		VQ_BIND_GOOD,		EINVAL },
	{ "entries_3",		3, 0,		VQ_BIND_GOOD,		EINVAL },
	{ "entries_4095",	4095, 0,	VQ_BIND_GOOD,		EINVAL },
	{ "entries_8192",	8192, 0,	VQ_BIND_GOOD,		E2BIG },
	{ "entries_2^31",	1u << 31, 0,	VQ_BIND_GOOD,		E2BIG },
	{ "bindings_257",	8, 0,		VQ_BIND_TOO_MANY,	E2BIG },
	{ "ptr_no_count",	8, 0,		VQ_BIND_PTR_NO_COUNT,	EINVAL },
	{ "bad_ptr",		8, 0,		VQ_BIND_BAD_PTR,	EFAULT },
	{ "slot_256",		8, 0,		VQ_BIND_SLOT_256,	EINVAL },
	{ "slot_twice",		8, 0,		VQ_BIND_TWICE,		EINVAL },
	{ "binding_flags",	8, 0,		VQ_BIND_FLAGS,		EINVAL },
	{ "binding_pad",	8, 0,		VQ_BIND_PAD,		EINVAL },
	{ "unknown_handle",	8, 0,		VQ_BIND_UNKNOWN,	ENOENT },
};

/* Every bad QUEUE_CREATE fails with its errno and leaves nothing charged. */
TEST(queue_create_errors)
{
	struct drm_vatom_binding b[DRM_VATOM_MAX_SLOTS + 1];
	struct drm_vatom_queue_create a;
	__u64 before;
	__u32 h;
	size_t i;
	int fd;

	VT_OPEN(fd);
	ASSERT_EQ(0, vt_buffer_create(fd, 4096, &h));
	before = vq_charged(fd);
	for (i = 0; i < VT_ARRAY_SIZE(vq_create_cases); i++) {
		const struct vq_create_case *c = &vq_create_cases[i];

		memset(b, 0, sizeof(b));
		memset(&a, 0, sizeof(a));
		a.entries = c->entries;
		a.flags = c->flags;
		a.bindings = vt_u64_ptr(b);
		a.binding_count = 1;
		b[0].slot = 3;
		b[0].handle = h;
		switch (c->bind) {
		case VQ_BIND_NONE:
			a.bindings = 0;
			a.binding_count = 0;
			break;
		case VQ_BIND_GOOD:
			break;
		case VQ_BIND_PTR_NO_COUNT:
			a.binding_count = 0;
			break;
		case VQ_BIND_BAD_PTR:
			a.bindings = 8;
			break;
		case VQ_BIND_SLOT_256:
			b[0].slot = DRM_VATOM_MAX_SLOTS;
			break;
		case VQ_BIND_TWICE:
			b[1] = b[0];
			a.binding_count = 2;
			break;
		case VQ_BIND_FLAGS:
			b[0].flags = 1;
			break;
		case VQ_BIND_PAD:
			b[0].pad = 1;
			break;
		case VQ_BIND_UNKNOWN:
			b[0].handle = h + 1000;
			break;
		case VQ_BIND_TOO_MANY:
			a.binding_count = DRM_VATOM_MAX_SLOTS + 1;
			break;
		}
		VT_EXPECT_ERRNO(c->err, vq_create_args(fd, &a));
		if (errno != c->err)
			TH_LOG("case %s", c->name);
	}
	EXPECT_EQ(before, vq_charged(fd));

	/* The largest ring and no binding table at all are fine. */
	memset(&a, 0, sizeof(a));
	a.entries = DRM_VATOM_QUEUE_MAX_ENTRIES;
	ASSERT_EQ(0, vq_create_args(fd, &a));
	EXPECT_NE(0, a.queue_id);
	EXPECT_EQ(0, vq_destroy(fd, a.queue_id));
	close(fd);
}

TEST(queue_destroy_kick_errors)
{
	struct drm_vatom_queue_destroy d = { 0 };
	struct drm_vatom_queue_kick k = { 0 };
	struct vq q;
	int fd, fd2;

	VT_OPEN(fd);
	VT_OPEN(fd2);
	ASSERT_EQ(0, vq_create(fd, 4, NULL, 0, &q));
	VT_EXPECT_ERRNO(ENOENT, vq_destroy(fd, 0));
	VT_EXPECT_ERRNO(ENOENT, vq_destroy(fd, q.id + 1));
	VT_EXPECT_ERRNO(ENOENT, vq_kick(fd, 0));
	VT_EXPECT_ERRNO(ENOENT, vq_kick(fd, q.id + 1));
	/* Queue ids are per file. */
	VT_EXPECT_ERRNO(ENOENT, vq_kick(fd2, q.id));
	VT_EXPECT_ERRNO(ENOENT, vq_destroy(fd2, q.id));
	d.queue_id = q.id;
	d.pad = 1;
	VT_EXPECT_ERRNO(EINVAL, ioctl(fd, DRM_IOCTL_VATOM_QUEUE_DESTROY, &d));
	k.queue_id = q.id;
	k.pad = 1;
	VT_EXPECT_ERRNO(EINVAL, ioctl(fd, DRM_IOCTL_VATOM_QUEUE_KICK, &k));
	/* An empty ring: nothing to do. */
	EXPECT_EQ(0, vq_kick(fd, q.id));
	EXPECT_EQ(0, vq_completed(&q));
	EXPECT_EQ(DRM_VATOM_QUEUE_CTL_NEED_WAKEUP, q.ctl->flags);
	EXPECT_EQ(0, vq_destroy(fd, q.id));
	VT_EXPECT_ERRNO(ENOENT, vq_destroy(fd, q.id));
	VT_EXPECT_ERRNO(ENOENT, vq_kick(fd, q.id));
	close(fd2);
	close(fd);
}

/* DRM_VATOM_PARAM_MAX_QUEUES queues per file; -EBUSY past it. */
TEST(queue_limit)
{
	__u32 ids[64], extra;
	struct vq q;
	unsigned int i;
	int fd;

	VT_OPEN(fd);
	for (i = 0; i < 64; i++) {
		ASSERT_EQ(0, vq_create(fd, 1, NULL, 0, &q));
		ids[i] = q.id;
	}
	EXPECT_EQ(-EBUSY, vq_create(fd, 1, NULL, 0, &q));
	EXPECT_EQ(0, vq_destroy(fd, ids[10]));
	ASSERT_EQ(0, vq_create(fd, 1, NULL, 0, &q));
	extra = q.id;
	EXPECT_EQ(ids[10], extra);
	/* Closing the file destroys the 64 (checked by the kernel log test). */
	close(fd);
}

/* Creating, then destroying and closing every handle, leaves nothing charged. */
TEST(queue_accounting)
{
	__u64 before, during;
	struct vq q;
	int fd;

	VT_OPEN(fd);
	before = vq_charged(fd);
	ASSERT_EQ(0, vq_create(fd, 64, NULL, 0, &q));
	during = vq_charged(fd);
	/* The ring (64 * 64 bytes) and the page, at least. */
	EXPECT_LE(before + 4096 + 4096, during);
	EXPECT_EQ(0, vq_destroy(fd, q.id));
	munmap(q.ring, 4096);
	munmap(q.ctl, 4096);
	EXPECT_EQ(0, vt_gem_close(fd, q.ring_handle));
	EXPECT_EQ(0, vt_gem_close(fd, q.ctl_handle));
	EXPECT_EQ(before, vq_charged(fd));
	close(fd);
}

/*
 * The ring and the page are ordinary buffers of the file (docs/queues.md):
 * SURFACE_INFO says so, with the size they were made with (64 bytes a
 * descriptor; the page 4096), not their page-rounded mappings'.
 */
TEST(queue_surfaces)
{
	static const struct {
		__u32 entries;
		__u64 ring_size, ring_mmap;
	} rows[] = {
		{ 1, 64, 4096 },
		{ 8, 512, 4096 },
		{ 64, 4096, 4096 },
		{ 128, 8192, 8192 },
	};
	struct drm_vatom_surface_info info;
	unsigned int i;
	struct vq q;
	int fd;

	VT_OPEN(fd);
	for (i = 0; i < VT_ARRAY_SIZE(rows); i++) {
		ASSERT_EQ(0, vq_create(fd, rows[i].entries, NULL, 0, &q));
		/* vt_surface_info() passes the caller's flags and padding on */
		memset(&info, 0, sizeof(info));
		ASSERT_EQ(0, vt_surface_info(fd, q.ring_handle, &info));
		EXPECT_EQ(DRM_VATOM_SURFACE_BUFFER, info.kind);
		EXPECT_EQ(rows[i].ring_size, info.size)
			TH_LOG("%u entries", rows[i].entries);
		EXPECT_EQ(rows[i].ring_mmap, info.mmap_size);
		memset(&info, 0, sizeof(info));
		ASSERT_EQ(0, vt_surface_info(fd, q.ctl_handle, &info));
		EXPECT_EQ(DRM_VATOM_SURFACE_BUFFER, info.kind);
		EXPECT_EQ(4096, info.size);
		EXPECT_EQ(4096, info.mmap_size);
		EXPECT_EQ(0, vq_destroy(fd, q.id));
		munmap(q.ring, rows[i].ring_mmap);
		munmap(q.ctl, 4096);
		EXPECT_EQ(0, vt_gem_close(fd, q.ring_handle));
		EXPECT_EQ(0, vt_gem_close(fd, q.ctl_handle));
	}
	close(fd);
}

/* ------------------------------------------------------------------------ */
/* Jobs                                                                      */
/* ------------------------------------------------------------------------ */

/*
 * 1000 jobs through a 64-entry ring, kicked in batches of 1 to 64: every
 * job's status is 0, its results are the old values (exact prefix sums),
 * the totals are exact and the page says so.
 */
TEST(queue_run_jobs)
{
	const unsigned int n = 1000, entries = 64;
	__u64 sum = 0, done = 0;
	struct qp_env v;
	struct vt_stream s;
	unsigned int i, k, batch, first;
	int fd;

	VT_OPEN(fd);
	ASSERT_EQ(0, vq_env_init(&v, fd, entries));
	for (first = 0; first < n; first += batch) {
		batch = 1 + first % entries;
		if (first + batch > n)
			batch = n - first;
		for (i = first; i < first + batch; i++) {
			vt_stream_init(&s);
			vq_add16(&s, i % 7 + 1, true);
			vq_job(vq_next(&v.q), v.streams, i % entries, &s);
			vq_publish(&v.q, 1);
		}
		ASSERT_EQ(0, vq_kick(fd, v.q.id));
		done += batch;
		ASSERT_EQ(done, vq_completed(&v.q));
		EXPECT_EQ(v.q.tail, v.q.ctl->head);
		for (i = first; i < first + batch; i++) {
			const struct drm_vatom_queue_job *j = &v.q.ring[i % entries];
			const __u32 *res = (const __u32 *)((char *)v.results +
						(i % entries) * VQ_RES_STRIDE);

			ASSERT_EQ(0, j->status) TH_LOG("job %u", i);
			EXPECT_EQ(DRM_VATOM_ERR_NONE, j->error_reason);
			for (k = 0; k < 16; k++) {
				ASSERT_EQ((__u32)(sum * (k + 1)), res[k])
					TH_LOG("job %u lane %u", i, k);
			}
			sum += i % 7 + 1;
		}
	}
	for (k = 0; k < 16; k++) {
		EXPECT_EQ((__u32)(sum * (k + 1)), v.target[k]) TH_LOG("word %u", k);
	}
	EXPECT_EQ(DRM_VATOM_QUEUE_CTL_NEED_WAKEUP, v.q.ctl->flags);
	EXPECT_EQ(0, vq_destroy(fd, v.q.id));
	close(fd);
}

/* How a per-job-status case spoils its job (VQ_SPOIL_NONE: a good job). */
enum vq_spoil {
	VQ_SPOIL_NONE,
	VQ_SPOIL_FLAGS,
	VQ_SPOIL_PAD,
	VQ_SPOIL_SIZE_ODD,	/* stream_size not a multiple of 8 */
	VQ_SPOIL_STREAM_SLOT,	/* an unbound slot */
	VQ_SPOIL_STREAM_SLOT_HIGH,
	VQ_SPOIL_STREAM_OOB,	/* past the stream surface */
	VQ_SPOIL_STREAM_WRAP,	/* offset + size wraps */
	VQ_SPOIL_STREAM_ALIGN,
	VQ_SPOIL_STREAM_HUGE,	/* over MAX_STREAM_SIZE */
	VQ_SPOIL_RES_OOB,
	VQ_SPOIL_RES_SMALL,	/* results_size < what the stream returns */
	VQ_SPOIL_RES_SLOT_NO_SIZE,
	VQ_SPOIL_BAD_PACKET,	/* the second packet has an unknown type */
	VQ_SPOIL_EMPTY,		/* an empty stream: fine, does nothing */
};

static const struct vq_status_case {
	const char *name;
	enum vq_spoil spoil;
	int status;
	__u32 index, reason;
} vq_status_cases[] = {
	{ "good",		VQ_SPOIL_NONE,		0, 0, DRM_VATOM_ERR_NONE },
	{ "flags",		VQ_SPOIL_FLAGS,		-EINVAL, 0, DRM_VATOM_ERR_DESCRIPTOR },
	{ "pad",		VQ_SPOIL_PAD,		-EINVAL, 0, DRM_VATOM_ERR_DESCRIPTOR },
	{ "size_odd",		VQ_SPOIL_SIZE_ODD,	-EINVAL, 0, DRM_VATOM_ERR_DESCRIPTOR },
	{ "stream_slot",	VQ_SPOIL_STREAM_SLOT,	-EINVAL, 0, DRM_VATOM_ERR_DESCRIPTOR },
	{ "stream_slot_high",	VQ_SPOIL_STREAM_SLOT_HIGH, -EINVAL, 0, DRM_VATOM_ERR_DESCRIPTOR },
	{ "stream_oob",		VQ_SPOIL_STREAM_OOB,	-EINVAL, 0, DRM_VATOM_ERR_DESCRIPTOR },
	{ "stream_wrap",	VQ_SPOIL_STREAM_WRAP,	-EINVAL, 0, DRM_VATOM_ERR_DESCRIPTOR },
	{ "stream_align",	VQ_SPOIL_STREAM_ALIGN,	-EINVAL, 0, DRM_VATOM_ERR_DESCRIPTOR },
	{ "stream_huge",	VQ_SPOIL_STREAM_HUGE,	-E2BIG, 0, DRM_VATOM_ERR_DESCRIPTOR },
	{ "results_oob",	VQ_SPOIL_RES_OOB,	-EINVAL, 0, DRM_VATOM_ERR_DESCRIPTOR },
	{ "results_small",	VQ_SPOIL_RES_SMALL,	-EINVAL, 0, DRM_VATOM_ERR_RESULTS },
	{ "results_slot_no_size", VQ_SPOIL_RES_SLOT_NO_SIZE, -EINVAL, 0, DRM_VATOM_ERR_DESCRIPTOR },
	{ "bad_packet",		VQ_SPOIL_BAD_PACKET,	-EINVAL, 1, DRM_VATOM_ERR_PACKET_TYPE },
	{ "empty",		VQ_SPOIL_EMPTY,		0, 0, DRM_VATOM_ERR_NONE },
	{ "good_after",		VQ_SPOIL_NONE,		0, 0, DRM_VATOM_ERR_NONE },
};

/*
 * One kick of a ring mixing good and bad jobs: each bad one gets its
 * status, index and reason and changes nothing; the others all execute.
 */
TEST(queue_job_status)
{
	const unsigned int n = VT_ARRAY_SIZE(vq_status_cases), entries = 32;
	const struct drm_vatom_packet bad = { .type = 99, .size = 8 };
	unsigned int i, k, good = 0;
	struct qp_env v;
	struct vt_stream s;
	int fd;

	VT_OPEN(fd);
	ASSERT_EQ(0, vq_env_init(&v, fd, entries));
	for (i = 0; i < n; i++) {
		struct drm_vatom_queue_job *j = vq_next(&v.q);

		vt_stream_init(&s);
		vq_add16(&s, 1, true);
		if (vq_status_cases[i].spoil == VQ_SPOIL_BAD_PACKET)
			vt_add_raw(&s, &bad, sizeof(bad));
		vq_job(j, v.streams, i, &s);
		switch (vq_status_cases[i].spoil) {
		case VQ_SPOIL_NONE:
		case VQ_SPOIL_BAD_PACKET:
			break;
		case VQ_SPOIL_FLAGS:
			j->flags = 1;
			break;
		case VQ_SPOIL_PAD:
			j->pad = 1;
			break;
		case VQ_SPOIL_SIZE_ODD:
			j->stream_size -= 4;
			break;
		case VQ_SPOIL_STREAM_SLOT:
			j->stream_slot = 7;
			break;
		case VQ_SPOIL_STREAM_SLOT_HIGH:
			j->stream_slot = 0x10000;
			break;
		case VQ_SPOIL_STREAM_OOB:
			j->stream_offset = entries * VQ_STREAM_STRIDE - 8;
			break;
		case VQ_SPOIL_STREAM_WRAP:
			j->stream_offset = ~7ull;
			break;
		case VQ_SPOIL_STREAM_ALIGN:
			j->stream_offset += 4;
			break;
		case VQ_SPOIL_STREAM_HUGE:
			j->stream_size = 32u << 20;
			break;
		case VQ_SPOIL_RES_OOB:
			j->results_offset = entries * VQ_RES_STRIDE;
			break;
		case VQ_SPOIL_RES_SMALL:
			j->results_size = 8;
			break;
		case VQ_SPOIL_RES_SLOT_NO_SIZE:
			j->results_size = 0;
			break;
		case VQ_SPOIL_EMPTY:
			j->stream_size = 0;
			j->results_size = 0;
			j->results_slot = 0;
			j->results_offset = 0;
			break;
		}
		j->user_data = 0x1234500000ull + i;
		vq_publish(&v.q, 1);
	}
	ASSERT_EQ(0, vq_kick(fd, v.q.id));
	ASSERT_EQ(n, vq_completed(&v.q));
	for (i = 0; i < n; i++) {
		const struct vq_status_case *c = &vq_status_cases[i];
		const struct drm_vatom_queue_job *j = &v.q.ring[i];

		EXPECT_EQ(c->status, j->status) TH_LOG("case %s", c->name);
		EXPECT_EQ(c->index, j->error_index) TH_LOG("case %s", c->name);
		EXPECT_EQ(c->reason, j->error_reason) TH_LOG("case %s", c->name);
		EXPECT_EQ(0x1234500000ull + i, j->user_data);
		if (!c->status && c->spoil != VQ_SPOIL_EMPTY)
			good++;
	}
	for (k = 0; k < 16; k++) {
		EXPECT_EQ(good * (k + 1), v.target[k]) TH_LOG("word %u", k);
	}
	close(fd);
}

/* A tail more than the ring's entries ahead: -EINVAL, nothing consumed. */
TEST(queue_tail_too_far)
{
	struct qp_env v;
	struct vt_stream s;
	unsigned int i;
	int fd;

	VT_OPEN(fd);
	ASSERT_EQ(0, vq_env_init(&v, fd, 8));
	vt_stream_init(&s);
	vq_add16(&s, 1, false);
	for (i = 0; i < 8; i++)
		vq_job(vq_next(&v.q), v.streams, i, &s), vq_publish(&v.q, 1);
	__atomic_store_n(&v.q.ctl->tail, 9, __ATOMIC_RELEASE);
	VT_EXPECT_ERRNO(EINVAL, vq_kick(fd, v.q.id));
	__atomic_store_n(&v.q.ctl->tail, 0xffffffffu, __ATOMIC_RELEASE);
	VT_EXPECT_ERRNO(EINVAL, vq_kick(fd, v.q.id));
	EXPECT_EQ(0, vq_completed(&v.q));
	EXPECT_EQ(0, v.target[0]);
	/* Exactly a full ring is fine; head and tail wrap past 2^32 alike. */
	__atomic_store_n(&v.q.ctl->tail, 8, __ATOMIC_RELEASE);
	EXPECT_EQ(0, vq_kick(fd, v.q.id));
	EXPECT_EQ(8, vq_completed(&v.q));
	EXPECT_EQ(8, v.target[0]);
	/* A head the page shows differently is ignored: the kernel keeps its own. */
	v.q.ctl->head = 0;
	v.q.ctl->completed = 0;
	EXPECT_EQ(0, vq_kick(fd, v.q.id));
	EXPECT_EQ(8, v.target[0]);
	close(fd);
}
