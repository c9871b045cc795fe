// SPDX-License-Identifier: GPL-2.0
/*
 * Atomicity under concurrency: many threads over two files submit to the
 * same words while another thread uses CPU atomics on them through mmap.
 * Every check is exact: final totals, the multiset of values an XCHG chain
 * returns, the values a CMPXCHG increment chain succeeded on.
 *
 * Part of vatom_test.c's translation unit (see there); not built alone.
 *
 * Copyright (C) 2026 The vatom developers
 */

#define VT_THREADS	8

FIXTURE(conc) {
	int fd[2];
	__u32 h[2];		/* the same surface on each file */
	__u32 *map;
};

FIXTURE_SETUP(conc)
{

	self->fd[1] = -1;
	self->fd[0] = vt_open();
	if (self->fd[0] == -ENODEV)
		SKIP(return, "no vatom device");
	ASSERT_LE(0, self->fd[0]);
	self->fd[1] = vt_open();
	ASSERT_LE(0, self->fd[1]);
	VT_BUFFER(self->fd[0], 4096, self->h[0], self->map);
	ASSERT_EQ(0, vt_prime_share(self->fd[0], self->h[0],
					    self->fd[1], &self->h[1]));
}

FIXTURE_TEARDOWN(conc)
{
	if (self->map)
		munmap(self->map, 4096);
	if (self->fd[1] >= 0)
		close(self->fd[1]);
	if (self->fd[0] >= 0)
		close(self->fd[0]);
}

/**
 * struct vt_worker - one thread's job and what it saw
 * @fd: the file it submits on
 * @h: the surface's handle on @fd
 * @map: the CPU mapping (CPU threads)
 * @id: thread number, 0 .. VT_THREADS - 1, or VT_THREADS for the CPU one
 * @iters: iterations
 * @ret: first failing ioctl's errno, else 0
 * @bad: lanes whose results broke an ordering rule
 * @seen: values returned (XCHG) or succeeded on (CMPXCHG)
 * @nseen: entries in @seen
 */
struct vt_worker {
	int fd;
	__u32 h;
	__u32 *map;
	__u32 id;
	__u32 iters;
	int ret;
	__u32 bad;
	__u32 *seen;
	__u32 nseen;
};

/* Word indices. */
#define W_A0	0	/* four additive words: ADD SUB INC DEC PREDEC + CPU adds */
#define W_OR	4
#define W_XOR	5
#define W_ADD16	6	/* 16 lanes of ADD 1 per packet */
#define W_XCHG	8
#define W_CAS	9

/*
 * Per submission of thread t (a = t + 1), in packet order:
 *   ADD exec 8 (words 0-3 twice, +a)	W0..W3 += 2a
 *   SUB exec 4 (1, 2, 3, 4)		W0 -= 1, W1 -= 2, W2 -= 3, W3 -= 4
 *   INC exec 2 (W0, W1)		+1
 *   DEC exec 2 (W2, W3)		-1
 *   PREDEC exec 1 (W3)			-1
 *   OR / XOR exec 1 with 1 << t	W_OR, W_XOR
 *   ADD exec 16, all lanes W_ADD16 +1	+16
 * Net: W0 += 2a, W1 += 2a - 1, W2 += 2a - 4, W3 += 2a - 6.
 */
static void *vt_mixed_worker(void *arg)
{
	struct vt_worker *w = arg;
	__u32 a = w->id + 1, bit = 1u << w->id;
	const __u32 a8[8] = { 0, 4, 8, 12, 0, 4, 8, 12 };
	const __u32 s8[8] = { a, a, a, a, a, a, a, a };
	const __u32 s4[4] = { 1, 2, 3, 4 };
	const __u32 a01[2] = { 0, 4 }, a23[2] = { 8, 12 }, a3[1] = { 12 };
	const __u32 aor[1] = { 4 * W_OR }, axor[1] = { 4 * W_XOR };
	__u32 a16[16], s16[16], res[16], i, it;
	struct vt_stream *s = malloc(sizeof(*s));
	struct vt_visa v;

	for (i = 0; i < 16; i++) {
		a16[i] = 4 * W_ADD16;
		s16[i] = 1;
	}
	vt_stream_init(s);
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_8,
		 DRM_VATOM_VISA_TYPE_UD, a8, s8, NULL, false);
	vt_add_visa(s, &v);
	vt_dword(&v, DRM_VATOM_VISA_OP_SUB, DRM_VATOM_VISA_EXEC_4,
		 DRM_VATOM_VISA_TYPE_UD, a8, s4, NULL, false);
	vt_add_visa(s, &v);
	vt_dword(&v, DRM_VATOM_VISA_OP_INC, DRM_VATOM_VISA_EXEC_2,
		 DRM_VATOM_VISA_TYPE_UD, a01, NULL, NULL, false);
	vt_add_visa(s, &v);
	vt_dword(&v, DRM_VATOM_VISA_OP_DEC, DRM_VATOM_VISA_EXEC_2,
		 DRM_VATOM_VISA_TYPE_UD, a23, NULL, NULL, false);
	vt_add_visa(s, &v);
	vt_dword(&v, DRM_VATOM_VISA_OP_PREDEC, DRM_VATOM_VISA_EXEC_1,
		 DRM_VATOM_VISA_TYPE_D, a3, NULL, NULL, false);
	vt_add_visa(s, &v);
	vt_dword(&v, DRM_VATOM_VISA_OP_OR, DRM_VATOM_VISA_EXEC_1,
		 DRM_VATOM_VISA_TYPE_UD, aor, &bit, NULL, false);
	vt_add_visa(s, &v);
	vt_dword(&v, DRM_VATOM_VISA_OP_XOR, DRM_VATOM_VISA_EXEC_1,
		 DRM_VATOM_VISA_TYPE_UD, axor, &bit, NULL, false);
	vt_add_visa(s, &v);
	vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_16,
		 DRM_VATOM_VISA_TYPE_UD, a16, s16, NULL, true);
	vt_add_visa(s, &v);

	for (it = 0; it < w->iters; it++) {
		if (vt_run(w->fd, s, w->h, res, sizeof(res), NULL)) {
			w->ret = errno;
			break;
		}
		/* Lanes run in ascending order, each one atomic RMW. */
		for (i = 1; i < 16; i++)
			if ((__s32)(res[i] - res[i - 1]) < 1)
				w->bad++;
	}
	free(s);
	return NULL;
}

static void *vt_cpu_mixed_worker(void *arg)
{
	struct vt_worker *w = arg;
	__u32 it, i;

	for (it = 0; it < w->iters; it++) {
		for (i = 0; i < 4; i++)
			__atomic_fetch_add(&w->map[W_A0 + i], 3, __ATOMIC_SEQ_CST);
		__atomic_fetch_or(&w->map[W_OR], 0x80000000u, __ATOMIC_SEQ_CST);
		__atomic_fetch_xor(&w->map[W_XOR], 0x80000000u, __ATOMIC_SEQ_CST);
	}
	return NULL;
}

static void vt_start(struct __test_metadata *_metadata, FIXTURE_DATA(conc) *self,
		     struct vt_worker *w, pthread_t *tid, __u32 iters,
		     __u32 cpu_iters, void *(*dev)(void *), void *(*cpu)(void *))
{
	__u32 t, cap = 4 * (iters > cpu_iters ? iters : cpu_iters);

	for (t = 0; t <= VT_THREADS; t++) {
		memset(&w[t], 0, sizeof(w[t]));
		w[t].fd = self->fd[t % 2];
		w[t].h = self->h[t % 2];
		w[t].map = self->map;
		w[t].id = t;
		w[t].iters = t < VT_THREADS ? iters : cpu_iters;
		w[t].seen = calloc(cap, sizeof(__u32));
		ASSERT_NE(NULL, w[t].seen);
	}
	for (t = 0; t <= VT_THREADS; t++) {
		ASSERT_EQ(0, pthread_create(&tid[t], NULL,
					    t < VT_THREADS ? dev : cpu, &w[t]));
	}
}

TEST_F_TIMEOUT(conc, mixed_ops_exact_totals, 300)
{
	const __u32 iters = 301, cpu_iters = 2001;
	struct vt_worker w[VT_THREADS + 1];
	pthread_t tid[VT_THREADS + 1];
	__u32 t, sum_2a = 0;

	if (self->fd[0] < 0)
		return;
	vt_start(_metadata, self, w, tid, iters, cpu_iters, vt_mixed_worker,
		 vt_cpu_mixed_worker);
	for (t = 0; t <= VT_THREADS; t++)
		pthread_join(tid[t], NULL);
	for (t = 0; t < VT_THREADS; t++) {
		EXPECT_EQ(0, w[t].ret) TH_LOG("thread %u: %s", t, strerror(w[t].ret));
		EXPECT_EQ(0, w[t].bad) TH_LOG("thread %u: lanes out of order", t);
		sum_2a += 2 * (t + 1);
		free(w[t].seen);
	}
	free(w[VT_THREADS].seen);
	/* Modulo 2^32, like the device. */
	EXPECT_EQ(iters * sum_2a + 3 * cpu_iters, self->map[W_A0 + 0]);
	EXPECT_EQ(iters * (sum_2a - 1 * VT_THREADS) + 3 * cpu_iters, self->map[W_A0 + 1]);
	EXPECT_EQ(iters * (sum_2a - 4 * VT_THREADS) + 3 * cpu_iters, self->map[W_A0 + 2]);
	EXPECT_EQ(iters * (sum_2a - 6 * VT_THREADS) + 3 * cpu_iters, self->map[W_A0 + 3]);
	EXPECT_EQ(0x800000ffu, self->map[W_OR]);
	/* Both counts are odd: every bit flipped an odd number of times. */
	EXPECT_EQ(0x800000ffu, self->map[W_XOR]);
	EXPECT_EQ(iters * VT_THREADS * 16, self->map[W_ADD16]);
}

/* XCHG chain: 4 lanes per packet, each with a unique token. */
static void *vt_xchg_worker(void *arg)
{
	struct vt_worker *w = arg;
	const __u32 addr[4] = { 4 * W_XCHG, 4 * W_XCHG, 4 * W_XCHG, 4 * W_XCHG };
	__u32 tok[4], res[4], it, i;
	struct vt_stream *s = malloc(sizeof(*s));
	struct drm_vatom_visa *p;
	struct vt_visa v;

	vt_stream_init(s);
	vt_dword(&v, DRM_VATOM_VISA_OP_XCHG, DRM_VATOM_VISA_EXEC_4,
		 DRM_VATOM_VISA_TYPE_UD, addr, tok, NULL, true);
	memset(tok, 0, sizeof(tok));
	p = vt_add_visa(s, &v);
	for (it = 0; it < w->iters; it++) {
		/* Src0 follows the fixed part and the 16-byte address array. */
		for (i = 0; i < 4; i++)
			tok[i] = ((w->id + 1) << 16) | (4 * it + i + 1);
		memcpy((__u8 *)p + sizeof(*p) + 16, tok, sizeof(tok));
		if (vt_run(w->fd, s, w->h, res, sizeof(res), NULL)) {
			w->ret = errno;
			break;
		}
		/*
		 * Lanes are separate atomics: another thread may come in
		 * between two of them, so only the multiset is exact.
		 */
		memcpy(&w->seen[w->nseen], res, sizeof(res));
		w->nseen += 4;
	}
	free(s);
	return NULL;
}

static void *vt_cpu_xchg_worker(void *arg)
{
	struct vt_worker *w = arg;
	__u32 it;

	for (it = 0; it < w->iters; it++)
		w->seen[w->nseen++] = __atomic_exchange_n(&w->map[W_XCHG],
							  ((w->id + 1) << 16) | (it + 1),
							  __ATOMIC_SEQ_CST);
	return NULL;
}

static int vt_cmp_u32(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return x < y ? -1 : x > y;
}

/*
 * Every token written is returned exactly once by somebody, or is the
 * final value; the initial 0 is returned exactly once.
 */
TEST_F_TIMEOUT(conc, xchg_chain_multiset, 300)
{
	const __u32 iters = 150, cpu_iters = 600;
	const __u32 total = VT_THREADS * iters * 4 + cpu_iters + 1;
	struct vt_worker w[VT_THREADS + 1];
	pthread_t tid[VT_THREADS + 1];
	__u32 *got, *want, t, n = 0, m = 0, k;

	if (self->fd[0] < 0)
		return;
	got = calloc(total, sizeof(*got));
	want = calloc(total, sizeof(*want));
	ASSERT_NE(NULL, got);
	ASSERT_NE(NULL, want);
	vt_start(_metadata, self, w, tid, iters, cpu_iters, vt_xchg_worker,
		 vt_cpu_xchg_worker);
	for (t = 0; t <= VT_THREADS; t++)
		pthread_join(tid[t], NULL);

	for (t = 0; t <= VT_THREADS; t++) {
		EXPECT_EQ(0, w[t].ret) TH_LOG("thread %u: %s", t, strerror(w[t].ret));
		memcpy(got + n, w[t].seen, w[t].nseen * sizeof(__u32));
		n += w[t].nseen;
		free(w[t].seen);
	}
	got[n++] = self->map[W_XCHG];
	ASSERT_EQ(total, n);

	want[m++] = 0;
	for (t = 0; t < VT_THREADS; t++)
		for (k = 0; k < iters * 4; k++)
			want[m++] = ((t + 1) << 16) | (k + 1);
	for (k = 0; k < cpu_iters; k++)
		want[m++] = ((VT_THREADS + 1) << 16) | (k + 1);
	ASSERT_EQ(total, m);

	qsort(got, n, sizeof(*got), vt_cmp_u32);
	qsort(want, m, sizeof(*want), vt_cmp_u32);
	EXPECT_EQ(-1, vt_mismatch32(want, got, total))
		TH_LOG("the returned values are not the written ones");
	free(got);
	free(want);
}

/*
 * CMPXCHG increment chain: each participant makes @iters increments that
 * succeed (old == expected); the values succeeded on are 0 .. N - 1, each
 * exactly once, and the word ends at N.
 */
static void *vt_cas_worker(void *arg)
{
	struct vt_worker *w = arg;
	const __u32 addr[1] = { 4 * W_CAS };
	__u32 e = 0, src0[1], src1[1], res[2];
	struct vt_stream *s = malloc(sizeof(*s));
	struct drm_vatom_visa *p;
	struct vt_visa v;
	__u8 *opnd;

	vt_stream_init(s);
	vt_dword(&v, DRM_VATOM_VISA_OP_CMPXCHG, DRM_VATOM_VISA_EXEC_1,
		 DRM_VATOM_VISA_TYPE_UD, addr, src0, src1, true);
	src0[0] = 0;
	src1[0] = 0;
	p = vt_add_visa(s, &v);
	opnd = (__u8 *)p + sizeof(*p);	/* addr at +0, Src0 at +8, Src1 at +16 */
	while (w->nseen < w->iters) {
		src0[0] = e + 1;
		src1[0] = e;
		memcpy(opnd + 8, src0, 4);
		memcpy(opnd + 16, src1, 4);
		if (vt_run(w->fd, s, w->h, res, sizeof(res), NULL)) {
			w->ret = errno;
			break;
		}
		if (res[0] == e)
			w->seen[w->nseen++] = e++;
		else
			e = res[0];
	}
	free(s);
	return NULL;
}

static void *vt_cpu_cas_worker(void *arg)
{
	struct vt_worker *w = arg;
	__u32 e = 0;

	while (w->nseen < w->iters) {
		__u32 expect = e;

		if (__atomic_compare_exchange_n(&w->map[W_CAS], &expect, e + 1, false,
						__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
			w->seen[w->nseen++] = e++;
		else
			e = expect;
	}
	return NULL;
}

TEST_F_TIMEOUT(conc, cmpxchg_chain_exact, 300)
{
	const __u32 iters = 60;
	const __u32 total = (VT_THREADS + 1) * iters;
	struct vt_worker w[VT_THREADS + 1];
	pthread_t tid[VT_THREADS + 1];
	__u32 *got, *want, t, n = 0, k;

	if (self->fd[0] < 0)
		return;
	got = calloc(total, sizeof(*got));
	want = calloc(total, sizeof(*want));
	ASSERT_NE(NULL, got);
	ASSERT_NE(NULL, want);
	vt_start(_metadata, self, w, tid, iters, iters, vt_cas_worker,
		 vt_cpu_cas_worker);
	for (t = 0; t <= VT_THREADS; t++)
		pthread_join(tid[t], NULL);
	for (t = 0; t <= VT_THREADS; t++) {
		EXPECT_EQ(0, w[t].ret) TH_LOG("thread %u: %s", t, strerror(w[t].ret));
		EXPECT_EQ(iters, w[t].nseen);
		memcpy(got + n, w[t].seen, w[t].nseen * sizeof(__u32));
		n += w[t].nseen;
		free(w[t].seen);
	}
	ASSERT_EQ(total, n);
	EXPECT_EQ(total, self->map[W_CAS]);
	qsort(got, n, sizeof(*got), vt_cmp_u32);
	for (k = 0; k < total; k++)
		want[k] = k;
	k = vt_mismatch32(want, got, total);
	EXPECT_EQ(-1, (int)k) TH_LOG("value %u succeeded twice or never", k);
	free(want);
	free(got);
}

static void vt_on_alarm(int sig)
{
	(void)sig;
}

/*
 * Signals arriving during submissions: a submission either ran completely
 * (0) or, interrupted before execution began, not at all (EINTR); never a
 * part of a stream. Long streams keep the ioctl busy while a 1 ms interval
 * timer fires without SA_RESTART.
 */
TEST_F_TIMEOUT(conc, signals_all_or_nothing, 300)
{
	const __u32 size = 1 << 20, rounds = 24;
	struct sigaction sa, old_sa;
	struct itimerval it, old_it;
	struct drm_vatom_submit args;
	struct drm_vatom_binding bind = { .slot = 0 };
	__u32 incs, r, ok = 0, eintr = 0;
	__u8 *stream;

	if (self->fd[0] < 0)
		return;
	stream = malloc(size);
	ASSERT_NE(NULL, stream);
	incs = vt_fill_incs(stream, size);
	bind.handle = self->h[0];
	self->map[0] = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = vt_on_alarm;	/* no SA_RESTART */
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, &old_sa));
	memset(&it, 0, sizeof(it));
	it.it_interval.tv_usec = 1000;
	it.it_value.tv_usec = 1000;
	ASSERT_EQ(0, setitimer(ITIMER_REAL, &it, &old_it));

	for (r = 0; r < rounds; r++) {
		memset(&args, 0, sizeof(args));
		args.stream = vt_u64_ptr(stream);
		args.stream_size = size;
		args.bindings = vt_u64_ptr(&bind);
		args.binding_count = 1;
		if (!vt_submit(self->fd[0], &args)) {
			ok++;
		} else {
			EXPECT_EQ(EINTR, errno);
			eintr++;
		}
	}

	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	sigaction(SIGALRM, &old_sa, NULL);
	TH_LOG("%u submissions ran, %u were interrupted", ok, eintr);
	EXPECT_LT(0, ok);
	EXPECT_EQ(ok * incs, self->map[0]);
	free(stream);
}
