// SPDX-License-Identifier: GPL-2.0
/*
 * User-mode queues against their users: a hostile writer rewriting the
 * ring and control page, the queue's lifetime against its file, handles
 * and mappings, and kick-mode jobs with SUBMITs alongside, exact totals.
 *
 * Part of vatom_test.c's translation unit, after test_queue.c; not built
 * alone. The vq_* and va_* helpers are queue_common.c's. Expected values
 * are computed here from the operations issued, never read from the
 * device.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include "queue_common.h"

/* ------------------------------------------------------------------------ */
/* A hostile writer                                                          */
/* ------------------------------------------------------------------------ */

struct vq_hostile {
	struct qp_env *v;
	volatile bool stop;
	unsigned int seed;
	unsigned long writes;
};

static void *vq_hostile_thread(void *arg)
{
	struct vq_hostile *h = arg;
	struct qp_env *v = h->v;
	__u64 *words = v->streams;
	__u64 *ring = (__u64 *)v->q.ring;
	unsigned int r;

	while (!h->stop) {
		r = rand_r(&h->seed);
		switch (r % 4) {
		case 0:	/* any word of the ring */
			ring[r / 4 % (v->q.entries * 8)] = ((__u64)rand_r(&h->seed) << 32) |
							   rand_r(&h->seed);
			break;
		case 1:	/* a small value in a descriptor word */
			ring[r / 4 % (v->q.entries * 8)] = rand_r(&h->seed) % 1024;
			break;
		case 2:	/* any word of the streams */
			words[r / 4 % (v->q.entries * VQ_STREAM_STRIDE / 8)] =
				((__u64)rand_r(&h->seed) << 32) | rand_r(&h->seed);
			break;
		case 3:	/* the tail, within or past the ring */
			__atomic_store_n(&v->q.ctl->tail,
					 v->q.ctl->head + rand_r(&h->seed) % (v->q.entries + 2),
					 __ATOMIC_RELEASE);
			break;
		}
		h->writes++;
	}
	return NULL;
}

/*
 * A thread rewrites the ring, the streams and the tail at random while
 * the main thread keeps filling good jobs and kicking. Kicks return 0 or
 * -EINVAL (a tail too far), nothing
 * outside the queue's surfaces changes (a canary of the same file and a
 * surface of another file), no kernel splat (the kernel log test), and
 * the queue works normally afterwards.
 */
TEST(queue_hostile_writer)
{
	const unsigned int entries = 16;
	struct vq_hostile h = { .seed = 12345 };
	__u32 ch, oh, *canary, *other;
	unsigned int i, k, kicks = 0, bad_kicks = 0;
	struct qp_env v;
	struct vt_stream s;
	pthread_t t;
	__u64 done;
	int fd, fd2, ret;

	VT_OPEN(fd);
	VT_OPEN(fd2);
	ASSERT_EQ(0, vq_env_init(&v, fd, entries));
	VT_BUFFER(fd, 4096, ch, canary);
	VT_BUFFER(fd2, 4096, oh, other);
	for (i = 0; i < 1024; i++)
		canary[i] = other[i] = 0x5a5a0000 + i;
	h.v = &v;

	vt_stream_init(&s);
	vq_add16(&s, 1, true);
	ASSERT_EQ(0, pthread_create(&t, NULL, vq_hostile_thread, &h));
	for (i = 0; i < 3000; i++) {
		__u32 pos = v.q.ctl->head + i % entries;

		vq_job(&v.q.ring[pos & (entries - 1)], v.streams, pos & (entries - 1), &s);
		if (i % 8 == 7) {
			ret = vq_kick(fd, v.q.id);
			kicks++;
			if (ret) {
				ASSERT_EQ(EINVAL, errno);
				bad_kicks++;
			}
		}
	}
	h.stop = true;
	pthread_join(t, NULL);
	TH_LOG("%u kicks (%u with a tail too far), %lu hostile writes, %llu jobs",
	       kicks, bad_kicks, h.writes, (unsigned long long)vq_completed(&v.q));
	for (i = 0; i < 1024; i++) {
		ASSERT_EQ(0x5a5a0000 + i, canary[i]) TH_LOG("canary word %u", i);
		ASSERT_EQ(0x5a5a0000 + i, other[i]) TH_LOG("other file's word %u", i);
	}

	/* The queue still works: a clean job from the kernel's head on. */
	done = vq_completed(&v.q);
	v.q.tail = v.q.ctl->head;
	memset(v.target, 0, 4096);
	vt_stream_init(&s);
	vq_add16(&s, 3, false);
	vq_job(vq_next(&v.q), v.streams, v.q.tail & (entries - 1), &s);
	vq_publish(&v.q, 1);
	ASSERT_EQ(0, vq_kick(fd, v.q.id));
	EXPECT_EQ(done + 1, vq_completed(&v.q));
	EXPECT_EQ(0, v.q.ring[(v.q.tail - 1) & (entries - 1)].status);
	for (k = 0; k < 16; k++) {
		EXPECT_EQ(3 * (k + 1), v.target[k]);
	}
	close(fd2);
	close(fd);
}

/* ------------------------------------------------------------------------ */
/* Lifetimes                                                                 */
/* ------------------------------------------------------------------------ */

/*
 * Closing a file with published, unkicked jobs (and destroying a queue
 * with some) executes none of them and frees everything: the device's
 * live surface count returns to where it was.
 */
TEST(queue_close_nonempty)
{
	char path[256];
	struct qp_env v, w;
	struct vt_stream s;
	long long surfaces;
	unsigned int i;
	int fd, fd2;

	VT_OPEN(fd);
	VT_OPEN(fd2);
	if (!vt_debugfs_stats_path(vt_render_path, path, sizeof(path)))
		SKIP(close(fd); close(fd2); return, "no debugfs");
	surfaces = vt_debugfs_stat(path, "surfaces");
	ASSERT_EQ(0, vq_env_init(&v, fd, 16));
	ASSERT_EQ(0, vq_env_init(&w, fd2, 16));
	vt_stream_init(&s);
	vq_add16(&s, 1, true);
	for (i = 0; i < 16; i++) {
		vq_job(vq_next(&v.q), v.streams, i, &s);
		vq_publish(&v.q, 1);
		vq_job(vq_next(&w.q), w.streams, i, &s);
		vq_publish(&w.q, 1);
	}
	EXPECT_EQ(0, vq_destroy(fd2, w.q.id));
	EXPECT_EQ(0, w.target[0]);
	close(fd);
	close(fd2);
	/* Mappings keep surfaces alive: drop them too. */
	munmap(v.target, 4096);
	munmap(v.streams, vt_page_round(16 * VQ_STREAM_STRIDE));
	munmap(v.results, vt_page_round(16 * VQ_RES_STRIDE));
	munmap(v.q.ring, 4096);
	munmap(v.q.ctl, 4096);
	munmap(w.streams, vt_page_round(16 * VQ_STREAM_STRIDE));
	munmap(w.results, vt_page_round(16 * VQ_RES_STRIDE));
	munmap(w.q.ring, 4096);
	munmap(w.q.ctl, 4096);
	EXPECT_EQ(0, w.target[0]);
	munmap(w.target, 4096);
	EXPECT_EQ(surfaces, va_stat_settle(path, "surfaces", surfaces));
}

struct vq_kicker {
	int fd;
	__u32 id;
	int ret;
};

static void *vq_kick_thread(void *arg)
{
	struct vq_kicker *k = arg;

	k->ret = vq_kick(k->fd, k->id) ? -errno : 0;
	return NULL;
}

/*
 * DESTROY while another thread's KICK consumes a full ring of long jobs:
 * the kick stops after its current job and returns 0; the surfaces the
 * queue bound stay usable (and are freed with their handles).
 */
TEST(queue_destroy_during_kick)
{
	const unsigned int entries = 1024;
	struct vq_kicker kk;
	struct qp_env v;
	struct vt_stream s;
	unsigned int i, j;
	pthread_t t;
	__u64 done;
	int fd;

	VT_OPEN(fd);
	ASSERT_EQ(0, vq_env_init(&v, fd, entries));
	/* 32 packets of 16 lanes per job: 1024 jobs take a while under TCG. */
	vt_stream_init(&s);
	for (j = 0; j < 32; j++)
		vq_add16(&s, 1, false);
	for (i = 0; i < entries; i++) {
		struct drm_vatom_queue_job *jd = vq_next(&v.q);

		vq_job(jd, v.streams, 0, &s);
		vq_publish(&v.q, 1);
	}
	kk.fd = fd;
	kk.id = v.q.id;
	ASSERT_EQ(0, pthread_create(&t, NULL, vq_kick_thread, &kk));
	while (!vq_completed(&v.q))
		usleep(100);
	EXPECT_EQ(0, vq_destroy(fd, v.q.id));
	pthread_join(t, NULL);
	EXPECT_EQ(0, kk.ret);
	done = vq_completed(&v.q);
	TH_LOG("%llu of %u jobs ran", (unsigned long long)done, entries);
	EXPECT_LE(1, done);
	EXPECT_EQ(done * 32, v.target[0]);
	close(fd);
}

/* ------------------------------------------------------------------------ */
/* Concurrency with SUBMIT                                                   */
/* ------------------------------------------------------------------------ */

/*
 * One thread adds through a queue, another through SUBMIT (sync and
 * async alternately) on the same file and surface: the totals are exact.
 */
TEST(queue_with_submit)
{
	const unsigned int entries = 32, rounds = 40;
	struct vq_submitter x = { .iters = 600 };
	unsigned int i, r, k;
	struct qp_env v;
	struct vt_stream s;
	pthread_t t;
	int fd;

	VT_OPEN(fd);
	ASSERT_EQ(0, vq_env_init(&v, fd, entries));
	x.fd = fd;
	x.h = v.th;
	vt_stream_init(&s);
	vq_add16(&s, 1, false);
	for (i = 0; i < entries; i++)
		vq_job(&v.q.ring[i], v.streams, i, &s);

	ASSERT_EQ(0, pthread_create(&t, NULL, vq_submit_thread, &x));
	for (r = 0; r < rounds; r++) {
		/* The descriptors stay valid: only the tail moves. */
		vq_publish(&v.q, entries);
		ASSERT_EQ(0, vq_kick(fd, v.q.id));
	}
	pthread_join(t, NULL);
	ASSERT_EQ(0, x.err);
	ASSERT_EQ((__u64)rounds * entries, vq_completed(&v.q));
	for (i = 0; i < entries; i++) {
		EXPECT_EQ(0, v.q.ring[i].status);
	}
	/* Wait for the async jobs: a sync SUBMIT of nothing comes after them. */
	vt_stream_init(&s);
	{
		struct drm_vatom_binding b = { .slot = 0, .handle = v.th };
		struct drm_vatom_submit sub;

		vt_submit_args(&sub, &s, &b, 1, NULL, 0);
		ASSERT_EQ(0, vt_submit(fd, &sub));
	}
	for (k = 0; k < 16; k++) {
		EXPECT_EQ((rounds * entries + 1000 * x.iters) * (k + 1), v.target[k])
			TH_LOG("word %u", k);
	}
	close(fd);
}
