// SPDX-License-Identifier: GPL-2.0
/*
 * Every ISA family at once on shared words, with exact totals. vISA and PTX
 * packets address buffers and NoC requests address tile grids, so the
 * words are shared in two groups, both with CPU atomics through mmap:
 *  - a buffer, on two files (PRIME), where vISA DWORD_ATOMIC ADD, PTX
 *    atom.add.u32 and CPU fetch-adds hit the same two 32-bit words;
 *  - a Blackhole tile grid, on two files, where NoC increments, Zaamo
 *    adds (with responses), parallel adds, a broadcast increment and CPU
 *    fetch-adds hit the same L1 words.
 * All the threads run at the same time. Each operation is one atomic
 * read-modify-write, so the totals are exact sums; the NIU counters must
 * count every request too.
 *
 * Part of vatom_test.c's translation unit (see there); not built alone.
 * The VN_* constants and vn_create()/vn_counters() are common.h's.
 *
 * Copyright (C) 2026 The vatom developers
 */

#define VM_ITERS	150	/* submissions per submitting thread */
#define VM_PKTS		16	/* packets per submission */
#define VM_CPU_ITERS	20000	/* CPU adds per word per CPU thread */

/* Buffer words. */
#define VM_W0		0x100
#define VM_W1		0x104

/* The grid: 2 x 2 Tensix, L1 256; the shared block is (1,0) 0x40. */
#define VM_GRID_SLOT	0
#define VM_BLK		0x40

enum vm_kind {
	VM_VISA,	/* lanes 0-7 W0 += 1, lanes 8-15 W1 += 3 */
	VM_PTX,		/* W0 += 5, W1 += 0xffffffff, alternating */
	VM_CPU_BUF,	/* W0 += 7, W1 -= 2 */
	VM_NOC_INCR,	/* (0,0) -> (1,0) 0x40 += 1, posted */
	VM_NOC_AMOADD,	/* (1,1) -> (1,0) 0x40 += 3, response to (1,1) 0x80 */
	VM_NOC_ACC,	/* (0,1) -> (1,0) 0x40..0x4f += 0x10 each, posted */
	VM_NOC_BRCST,	/* (0,1) -> every tile 0x44 += 1, SRC_INCLUDE */
	VM_CPU_GRID,	/* (1,0) 0x40 += 100, 0x48 += 1000, (0,0) 0x44 += 1 */
	VM_KINDS,
};

struct vm_worker {
	enum vm_kind kind;
	int fd;
	__u32 h;		/* buffer or grid handle on @fd */
	void *map;		/* CPU workers: the mapping */
	const __u64 *l1_off;	/* grid L1 offsets by tile */
	int err;		/* errno of the first failed submit */
	__u32 reason;
};

FIXTURE(mixed) {
	int fd[2];
	__u32 buf[2];		/* the buffer on each file */
	__u32 grid[2];		/* the grid on each file */
	__u32 *bmap;
	__u8 *gmap;
	size_t glen;
	__u64 l1_off[4];
};

FIXTURE_SETUP(mixed)
{
	static const __u8 types[4] = { VN_T, VN_T, VN_T, VN_T };
	struct drm_vatom_tile_grid_desc d = {
		.profile = VN_BH, .width = 2, .height = 2,
		.l1_size = { 256, 0, 0, 0 },
		.tile_types = vt_u64_ptr(types),
	};
	__u64 size;
	int i;

	self->fd[1] = -1;
	self->fd[0] = vt_open();
	if (self->fd[0] == -ENODEV)
		SKIP(return, "no vatom device");
	ASSERT_LE(0, self->fd[0]);
	self->fd[1] = vt_open();
	ASSERT_LE(0, self->fd[1]);

	VT_BUFFER(self->fd[0], 4096, self->buf[0], self->bmap);
	ASSERT_EQ(0, vt_prime_share(self->fd[0], self->buf[0],
					    self->fd[1], &self->buf[1]));

	ASSERT_EQ(0, vn_create(self->fd[0], &d, &self->grid[0], &size));
	ASSERT_EQ(4 * 512 + 4 * 256, size);
	for (i = 0; i < 4; i++)
		self->l1_off[i] = 4 * 512 + i * 256;
	self->glen = vt_page_round(size);
	self->gmap = vt_map(self->fd[0], self->grid[0], self->glen);
	ASSERT_NE(NULL, self->gmap);
	/* The same grid on the other file: still a tile grid there. */
	ASSERT_EQ(0, vt_prime_share(self->fd[0], self->grid[0],
					    self->fd[1], &self->grid[1]));
}

FIXTURE_TEARDOWN(mixed)
{
	if (self->bmap)
		munmap(self->bmap, 4096);
	if (self->gmap)
		munmap(self->gmap, self->glen);
	if (self->fd[1] >= 0)
		close(self->fd[1]);
	if (self->fd[0] >= 0)
		close(self->fd[0]);
}

static __u32 *vm_l1(__u8 *gmap, const __u64 *l1_off, __u32 x, __u32 y,
		    __u32 addr)
{
	return (__u32 *)(gmap + l1_off[y * 2 + x] + addr);
}

/* A Blackhole register image on the 2 x 2 grid (spec bit positions). */
static struct drm_vatom_noc vm_noc(__u32 ix, __u32 iy, __u32 tx, __u32 ty,
				   __u32 targ, __u32 at, __u32 data)
{
	struct drm_vatom_noc p;

	memset(&p, 0, sizeof(p));
	p.hdr.type = DRM_VATOM_PACKET_NOC;
	p.hdr.size = sizeof(p);
	p.slot = VM_GRID_SLOT;
	p.x = ix;
	p.y = iy;
	p.targ_addr_lo = targ;
	p.targ_addr_hi = tx | ty << 6;
	p.ctrl = VN_CTRL_AT;
	p.at_len_be = at;
	p.at_data = data;
	return p;
}

static void vm_stream(struct vm_worker *w, struct vt_stream *s)
{
	__u32 offs[16], src[16], i;
	struct drm_vatom_noc p;
	struct drm_vatom_ptx x;
	struct vt_visa v;

	vt_stream_init(s);
	for (i = 0; i < 16; i++) {
		offs[i] = i < 8 ? VM_W0 : VM_W1;
		src[i] = i < 8 ? 1 : 3;
	}
	for (i = 0; i < VM_PKTS; i++) {
		switch (w->kind) {
		case VM_VISA:
			vt_dword(&v, DRM_VATOM_VISA_OP_ADD, DRM_VATOM_VISA_EXEC_16,
				 DRM_VATOM_VISA_TYPE_UD, offs, src, NULL, false);
			vt_add_visa(s, &v);
			break;
		case VM_PTX:
			vt_ptx_init(&x, DRM_VATOM_PTX_OP_ADD, DRM_VATOM_PTX_TYPE_U32,
				    0, DRM_VATOM_PTX_SPACE_GLOBAL,
				    i & 1 ? VM_W1 : VM_W0);
			x.b[0] = i & 1 ? 0xffffffff : 5;
			vt_add_ptx(s, &x);
			break;
		case VM_NOC_INCR:
			p = vm_noc(0, 0, 1, 0, VM_BLK, 0x107c, 1);
			vt_add_raw(s, &p, sizeof(p));
			break;
		case VM_NOC_AMOADD:
			/* amoadd, Ofs 0; response to (1,1) 0x80, id 7. */
			p = vm_noc(1, 1, 1, 0, VM_BLK, 0xa800, 3);
			p.ctrl |= VN_CTRL_MARKED;
			p.ret_addr_lo = 0x80;
			p.ret_addr_hi = 1 | 1 << 6;
			p.packet_tag = 7 << 10;
			vt_add_raw(s, &p, sizeof(p));
			break;
		case VM_NOC_ACC:
			p = vm_noc(0, 1, 1, 0, VM_BLK + 8, 0x9004, 0x10);
			vt_add_raw(s, &p, sizeof(p));
			break;
		case VM_NOC_BRCST:
			/* Increment Ofs 1: word 0x44 of the block. */
			p = vm_noc(0, 1, 0, 0, VM_BLK + 4, 0x107d, 1);
			p.ctrl |= VN_CTRL_BRCST | VN_CTRL_SRC_INC;
			p.targ_addr_hi = 1 | 1 << 6;	/* (0,0) .. (1,1) */
			vt_add_raw(s, &p, sizeof(p));
			break;
		default:
			break;
		}
	}
}

static void *vm_work(void *arg)
{
	struct vm_worker *w = arg;
	struct drm_vatom_submit out;
	struct vt_stream *s;
	__u64 res[VM_PKTS];
	__u32 i;

	if (w->kind == VM_CPU_BUF) {
		__u32 *m = w->map;

		for (i = 0; i < VM_CPU_ITERS; i++) {
			__atomic_fetch_add(&m[VM_W0 / 4], 7, __ATOMIC_SEQ_CST);
			__atomic_fetch_sub(&m[VM_W1 / 4], 2, __ATOMIC_SEQ_CST);
		}
		return NULL;
	}
	if (w->kind == VM_CPU_GRID) {
		for (i = 0; i < VM_CPU_ITERS; i++) {
			__atomic_fetch_add(vm_l1(w->map, w->l1_off, 1, 0, VM_BLK),
					   100, __ATOMIC_SEQ_CST);
			__atomic_fetch_add(vm_l1(w->map, w->l1_off, 1, 0, VM_BLK + 8),
					   1000, __ATOMIC_SEQ_CST);
			__atomic_fetch_add(vm_l1(w->map, w->l1_off, 0, 0, VM_BLK + 4),
					   1, __ATOMIC_SEQ_CST);
		}
		return NULL;
	}

	s = malloc(sizeof(*s));
	if (!s) {
		w->err = ENOMEM;
		return NULL;
	}
	vm_stream(w, s);
	for (i = 0; i < VM_ITERS; i++) {
		if (vt_run(w->fd, s, w->h, res, sizeof(res), &out)) {
			w->err = errno;
			w->reason = out.error_reason;
			break;
		}
	}
	free(s);
	return NULL;
}

TEST_F_TIMEOUT(mixed, all_families_exact_totals, 300)
{
	/* Two threads of each submitting kind, one per file; one per CPU kind. */
	static const enum vm_kind plan[] = {
		VM_VISA, VM_VISA, VM_PTX, VM_PTX, VM_CPU_BUF,
		VM_NOC_INCR, VM_NOC_INCR, VM_NOC_AMOADD, VM_NOC_AMOADD,
		VM_NOC_ACC, VM_NOC_ACC, VM_NOC_BRCST, VM_NOC_BRCST, VM_CPU_GRID,
	};
	const __u32 n = VM_ITERS * VM_PKTS;	/* packets per submitting thread */
	struct vm_worker w[VT_ARRAY_SIZE(plan)];
	pthread_t th[VT_ARRAY_SIZE(plan)];
	__u32 c[64], want;
	size_t i;
	int f = 0;

	for (i = 0; i < VT_ARRAY_SIZE(plan); i++) {
		bool grid = plan[i] >= VM_NOC_INCR;

		memset(&w[i], 0, sizeof(w[i]));
		w[i].kind = plan[i];
		w[i].fd = self->fd[f];
		w[i].h = grid ? self->grid[f] : self->buf[f];
		w[i].map = grid ? (void *)self->gmap : (void *)self->bmap;
		w[i].l1_off = self->l1_off;
		f ^= 1;
	}
	for (i = 0; i < VT_ARRAY_SIZE(plan); i++) {
		ASSERT_EQ(0, pthread_create(&th[i], NULL, vm_work, &w[i]));
	}
	for (i = 0; i < VT_ARRAY_SIZE(plan); i++)
		pthread_join(th[i], NULL);
	for (i = 0; i < VT_ARRAY_SIZE(plan); i++) {
		ASSERT_EQ(0, w[i].err) TH_LOG("worker %zu (kind %d): %s, reason %u",
					      i, plan[i], strerror(w[i].err),
					      w[i].reason);
	}

	/* Buffer: 2 vISA threads x n packets x 8 lanes, 2 PTX x n/2, 1 CPU. */
	want = 2 * n * 8 * 1 + 2 * (n / 2) * 5 + VM_CPU_ITERS * 7;
	EXPECT_EQ(want, self->bmap[VM_W0 / 4]);
	want = 2 * n * 8 * 3 + 2 * (n / 2) * 0xffffffffu - VM_CPU_ITERS * 2;
	EXPECT_EQ(want, self->bmap[VM_W1 / 4]);
	EXPECT_EQ(-1, vt_find_ne32(self->bmap, 0, VM_W0 / 4, 0));
	EXPECT_EQ(-1, vt_find_ne32(self->bmap, VM_W1 / 4 + 1, 1024, 0));

	/* Grid block (1,0) 0x40: incr 1, amoadd 3, acc 0x10, CPU 100. */
	want = 2 * n * 1 + 2 * n * 3 + 2 * n * 0x10 + VM_CPU_ITERS * 100;
	EXPECT_EQ(want, *vm_l1(self->gmap, self->l1_off, 1, 0, VM_BLK));
	/* 0x44: acc and the broadcast; 0x48: acc and CPU 1000; 0x4c: acc. */
	EXPECT_EQ(2 * n * 0x10 + 2 * n, *vm_l1(self->gmap, self->l1_off, 1, 0, VM_BLK + 4));
	EXPECT_EQ(2 * n * 0x10 + VM_CPU_ITERS * 1000,
		  *vm_l1(self->gmap, self->l1_off, 1, 0, VM_BLK + 8));
	EXPECT_EQ(2 * n * 0x10, *vm_l1(self->gmap, self->l1_off, 1, 0, VM_BLK + 12));
	/* The broadcast's other recipients (SRC_INCLUDE: (0,1) too). */
	EXPECT_EQ(2 * n + VM_CPU_ITERS, *vm_l1(self->gmap, self->l1_off, 0, 0, VM_BLK + 4));
	EXPECT_EQ(2 * n, *vm_l1(self->gmap, self->l1_off, 0, 1, VM_BLK + 4));
	EXPECT_EQ(2 * n, *vm_l1(self->gmap, self->l1_off, 1, 1, VM_BLK + 4));

	/* NIU counters, NoC 0. */
	ASSERT_EQ(0, vn_counters(self->fd[0], self->grid[0], DRM_VATOM_NOC_COUNTERS_READ,
				 1, 0, 0, 0, 64, c));
	/* Arrivals at (1,0): incr, amoadd, acc and the broadcast. */
	EXPECT_EQ(4 * 2 * n, c[VN_SLV_ACCEPTED]);
	EXPECT_EQ(2 * n * 3, c[VN_SLV_POSTED_RECV]);
	EXPECT_EQ(2 * n, c[VN_SLV_NP_RECV]);
	EXPECT_EQ(2 * n, c[VN_SLV_RESP_SENT]);
	ASSERT_EQ(0, vn_counters(self->fd[1], self->grid[1], DRM_VATOM_NOC_COUNTERS_READ,
				 1, 1, 0, 0, 64, c));
	EXPECT_EQ(2 * n, c[VN_CMD_ACCEPTED]);
	EXPECT_EQ(2 * n, c[VN_NP_SENT]);
	EXPECT_EQ(2 * n, c[VN_RESP_RECEIVED]);
	EXPECT_EQ(0, c[VN_OUTSTANDING(7)]);
	EXPECT_EQ(2 * n, c[VN_SLV_POSTED_RECV]);	/* the broadcast */
	ASSERT_EQ(0, vn_counters(self->fd[0], self->grid[0], DRM_VATOM_NOC_COUNTERS_READ,
				 0, 1, 0, 0, 64, c));
	EXPECT_EQ(2 * n + 2 * n, c[VN_CMD_ACCEPTED]);	/* acc + broadcast */
	EXPECT_EQ(2 * n + 2 * n, c[VN_POSTED_SENT]);
	EXPECT_EQ(2 * n, c[VN_SLV_POSTED_RECV]);	/* its own broadcast */
}
