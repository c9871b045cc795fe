// SPDX-License-Identifier: GPL-2.0
/*
 * Tenstorrent NoC atomics through the device: every rejected encoding of
 * a request, with its reason and index, on both register profiles; and
 * CLEAR_ALL racing submissions.
 *
 * Part of vatom_test.c's translation unit, after test_noc.c (its vn_*
 * helpers and the grid they lay out); not built alone.
 *
 * Copyright (C) 2026 The vatom developers
 */

/* ------------------------------------------------------------------------ */
/* Rejected requests                                                         */
/* ------------------------------------------------------------------------ */

enum vn_field {
	VN_F_SIZE, VN_F_FLAGS, VN_F_PAD0, VN_F_PAD1, VN_F_SLOT, VN_F_NOC,
	VN_F_X, VN_F_Y, VN_F_CTRL, VN_F_CTRL_OR, VN_F_AT, VN_F_TAG,
	VN_F_TARG_LO, VN_F_TARG_MID, VN_F_TARG_HI, VN_F_TARGET,
	VN_F_RET_LO, VN_F_RET_MID, VN_F_RET_HI, VN_F_RETURN, VN_F_BRCST,
};

/*
 * A change to the good request: marked unicast from (0,0) to (1,1) 0x40,
 * increment, response to (0,0) at 0x100, transaction 1.
 */
struct vn_bad {
	const char *what;
	__u32 profiles;
	enum vn_field field;
	__u32 value;	/* VN_F_TARGET/RETURN: x | y << 8; BRCST: sx sy ex ey bytes */
	__u32 reason;
};

#define VN_XY(x, y)		((x) | (y) << 8)
#define VN_RECT(sx, sy, ex, ey)	((sx) | (sy) << 8 | (ex) << 16 | (ey) << 24)

static const struct vn_bad vn_bads[] = {
	{ "size 72", VN_PALL, VN_F_SIZE, 72, DRM_VATOM_ERR_PACKET_SIZE },
	{ "flags", VN_PALL, VN_F_FLAGS, 1, DRM_VATOM_ERR_RESERVED },
	{ "pad[0]", VN_PALL, VN_F_PAD0, 1, DRM_VATOM_ERR_RESERVED },
	{ "pad[1]", VN_PALL, VN_F_PAD1, 0x80000000, DRM_VATOM_ERR_RESERVED },
	{ "unbound slot", VN_PALL, VN_F_SLOT, 9, DRM_VATOM_ERR_SLOT },
	{ "slot of a buffer", VN_PALL, VN_F_SLOT, VN_BUF_SLOT, DRM_VATOM_ERR_SURFACE_KIND },
	{ "noc 2", VN_PALL, VN_F_NOC, 2, DRM_VATOM_ERR_RESERVED },
	{ "noc 255", VN_PALL, VN_F_NOC, 255, DRM_VATOM_ERR_RESERVED },
	/* CTRL */
	{ "read request", VN_PALL, VN_F_CTRL, 0x10, DRM_VATOM_ERR_OP },
	{ "write request", VN_PALL, VN_F_CTRL, 0x12, DRM_VATOM_ERR_OP },
	{ "request type 3", VN_PALL, VN_F_CTRL, 0x13, DRM_VATOM_ERR_OP },
	{ "CTRL bit 2", VN_PALL, VN_F_CTRL_OR, 1u << 2, DRM_VATOM_ERR_RESERVED },
	{ "CTRL bit 3", VN_PALL, VN_F_CTRL_OR, 1u << 3, DRM_VATOM_ERR_RESERVED },
	{ "CTRL bit 9", VN_PALL, VN_F_CTRL_OR, 1u << 9, DRM_VATOM_ERR_RESERVED },
	{ "CTRL bit 12", VN_PALL, VN_F_CTRL_OR, 1u << 12, DRM_VATOM_ERR_RESERVED },
	{ "CTRL bit 18", VN_PALL, VN_F_CTRL_OR, 1u << 18, DRM_VATOM_ERR_RESERVED },
	{ "CTRL bit 26", VN_PALL, VN_F_CTRL_OR, 1u << 26, DRM_VATOM_ERR_RESERVED },
	{ "CTRL L1_ACC_AT_EN", VN_PALL, VN_F_CTRL_OR, 1u << 31, DRM_VATOM_ERR_RESERVED },
	/* AT_LEN_BE: reserved opcodes of both profiles */
	{ "opcode 0", VN_PALL, VN_F_AT, 0x0000, DRM_VATOM_ERR_OP },
	{ "opcode 2", VN_PALL, VN_F_AT, 0x207c, DRM_VATOM_ERR_OP },
	{ "opcode 5", VN_PALL, VN_F_AT, 0x5000, DRM_VATOM_ERR_OP },
	{ "opcode 8", VN_PALL, VN_F_AT, 0x8000, DRM_VATOM_ERR_OP },
	{ "opcode 0xb", VN_PALL, VN_F_AT, 0xb000, DRM_VATOM_ERR_OP },
	{ "opcode 0xc", VN_PALL, VN_F_AT, 0xc000, DRM_VATOM_ERR_OP },
	{ "opcode 0xd", VN_PALL, VN_F_AT, 0xd000, DRM_VATOM_ERR_OP },
	{ "opcode 0xe", VN_PALL, VN_F_AT, 0xe000, DRM_VATOM_ERR_OP },
	{ "opcode 0xf", VN_PALL, VN_F_AT, 0xffff, DRM_VATOM_ERR_OP },
	{ "opcode 6 with bit 2 clear", VN_PALL, VN_F_AT, 0x6002, DRM_VATOM_ERR_OP },
	/* Blackhole-only opcodes on Wormhole */
	{ "WH: opcode 9 (acc)", VN_PWH, VN_F_AT, 0x9004, DRM_VATOM_ERR_OP },
	{ "WH: opcode 0xa swap", VN_PWH, VN_F_AT, 0xa303, DRM_VATOM_ERR_OP },
	{ "WH: opcode 0xa zaamo", VN_PWH, VN_F_AT, 0xa800, DRM_VATOM_ERR_OP },
	/* Blackhole's reserved forms */
	{ "0xa, [11:8] = 0", VN_PBH, VN_F_AT, 0xa003, DRM_VATOM_ERR_OP },
	{ "0xa, [11:8] = 2", VN_PBH, VN_F_AT, 0xa203, DRM_VATOM_ERR_OP },
	{ "0xa, [11:8] = 7", VN_PBH, VN_F_AT, 0xa703, DRM_VATOM_ERR_OP },
	{ "acc Fmt 3", VN_PBH, VN_F_AT, 0x9003, DRM_VATOM_ERR_OP },
	{ "acc Fmt 5", VN_PBH, VN_F_AT, 0x9005, DRM_VATOM_ERR_OP },
	{ "acc Fmt 6", VN_PBH, VN_F_AT, 0x9006, DRM_VATOM_ERR_OP },
	{ "acc Fmt 11", VN_PBH, VN_F_AT, 0x900b, DRM_VATOM_ERR_OP },
	{ "acc Fmt 14", VN_PBH, VN_F_AT, 0x900e, DRM_VATOM_ERR_OP },
	/* PACKET_TAG */
	{ "tag bit 0", VN_PALL, VN_F_TAG, 1 << 10 | 1, DRM_VATOM_ERR_RESERVED },
	{ "tag bit 9", VN_PALL, VN_F_TAG, 1 << 9, DRM_VATOM_ERR_RESERVED },
	{ "tag bit 14", VN_PALL, VN_F_TAG, 1 << 14, DRM_VATOM_ERR_RESERVED },
	{ "tag bit 31", VN_PALL, VN_F_TAG, 1u << 31, DRM_VATOM_ERR_RESERVED },
	/* Coordinate registers */
	{ "WH: target address bit 32", VN_PWH, VN_F_TARG_MID, 1 << 4 | 1 << 10 | 1,
	  DRM_VATOM_ERR_TARGET },
	{ "WH: bit above Y (unicast)", VN_PWH, VN_F_TARG_MID, 1 << 4 | 1 << 10 | 1 << 16,
	  DRM_VATOM_ERR_RESERVED },
	{ "WH: TARG_ADDR_HI", VN_PWH, VN_F_TARG_HI, 1, DRM_VATOM_ERR_RESERVED },
	{ "WH: RET_ADDR_HI", VN_PWH, VN_F_RET_HI, 1, DRM_VATOM_ERR_RESERVED },
	{ "WH: return address bit 35", VN_PWH, VN_F_RET_MID, 8, DRM_VATOM_ERR_TARGET },
	{ "WH: return bit above Y", VN_PWH, VN_F_RET_MID, 1u << 16, DRM_VATOM_ERR_RESERVED },
	{ "BH: target address bit 32", VN_PBH, VN_F_TARG_MID, 1, DRM_VATOM_ERR_TARGET },
	{ "BH: target address bit 63", VN_PBH, VN_F_TARG_MID, 1u << 31, DRM_VATOM_ERR_TARGET },
	{ "BH: bit above Y (unicast)", VN_PBH, VN_F_TARG_HI, 1 | 1 << 6 | 1 << 12,
	  DRM_VATOM_ERR_RESERVED },
	{ "BH: return address bit 32", VN_PBH, VN_F_RET_MID, 1, DRM_VATOM_ERR_TARGET },
	{ "BH: return bit above Y", VN_PBH, VN_F_RET_HI, 1u << 12, DRM_VATOM_ERR_RESERVED },
	/* Initiator */
	{ "initiator x outside", VN_PALL, VN_F_X, 4, DRM_VATOM_ERR_TARGET },
	{ "initiator y outside", VN_PALL, VN_F_Y, 3, DRM_VATOM_ERR_TARGET },
	{ "initiator DRAM", VN_PALL, VN_F_X, 3, DRM_VATOM_ERR_TARGET },
	/* Targets */
	{ "target DRAM", VN_PALL, VN_F_TARGET, VN_XY(3, 0), DRM_VATOM_ERR_TARGET },
	{ "target PCIe", VN_PALL, VN_F_TARGET, VN_XY(3, 1), DRM_VATOM_ERR_TARGET },
	{ "target x outside", VN_PALL, VN_F_TARGET, VN_XY(4, 0), DRM_VATOM_ERR_TARGET },
	{ "target y outside", VN_PALL, VN_F_TARGET, VN_XY(0, 3), DRM_VATOM_ERR_TARGET },
	{ "target (63,63)", VN_PALL, VN_F_TARGET, VN_XY(63, 63), DRM_VATOM_ERR_TARGET },
	{ "target past L1", VN_PALL, VN_F_TARG_LO, VN_TENSIX_L1, DRM_VATOM_ERR_TARGET },
	{ "target past L1 (last byte)", VN_PALL, VN_F_TARG_LO, VN_TENSIX_L1 + 15,
	  DRM_VATOM_ERR_TARGET },
	{ "target MMIO 0xff000000", VN_PALL, VN_F_TARG_LO, 0xff000000, DRM_VATOM_ERR_TARGET },
	{ "target NIU_BASE", VN_PALL, VN_F_TARG_LO, 0xffb20000, DRM_VATOM_ERR_TARGET },
	{ "target Ethernet past its L1", VN_PALL, VN_F_TARGET, VN_XY(2, 0) | 1u << 31,
	  DRM_VATOM_ERR_TARGET },
	/* Broadcasts */
	{ "broadcast: no Tensix in the rectangle", VN_PALL, VN_F_BRCST,
	  VN_RECT(2, 0, 3, 0), DRM_VATOM_ERR_TARGET },
	{ "broadcast: only the initiator", VN_PALL, VN_F_BRCST,
	  VN_RECT(0, 0, 0, 0), DRM_VATOM_ERR_TARGET },
	{ "broadcast: EndX outside", VN_PALL, VN_F_BRCST, VN_RECT(0, 0, 4, 2),
	  DRM_VATOM_ERR_TARGET },
	{ "broadcast: StartY outside", VN_PALL, VN_F_BRCST, VN_RECT(0, 3, 3, 2),
	  DRM_VATOM_ERR_TARGET },
	{ "broadcast: bit above StartY", VN_PALL, VN_F_BRCST, 0xffffffff,
	  DRM_VATOM_ERR_RESERVED },
	/* Returns */
	{ "return to DRAM", VN_PALL, VN_F_RETURN, VN_XY(3, 0), DRM_VATOM_ERR_TARGET },
	{ "return to PCIe", VN_PALL, VN_F_RETURN, VN_XY(3, 1), DRM_VATOM_ERR_TARGET },
	{ "return outside the grid", VN_PALL, VN_F_RETURN, VN_XY(0, 3), DRM_VATOM_ERR_TARGET },
	{ "return misaligned by 2", VN_PALL, VN_F_RET_LO, 0x102, DRM_VATOM_ERR_ALIGN },
	{ "return misaligned by 1", VN_PALL, VN_F_RET_LO, 0x101, DRM_VATOM_ERR_ALIGN },
	{ "return past L1", VN_PALL, VN_F_RET_LO, VN_TENSIX_L1, DRM_VATOM_ERR_TARGET },
	{ "return MMIO", VN_PALL, VN_F_RET_LO, 0xffb20200, DRM_VATOM_ERR_TARGET },
};

static void vn_apply_bad(const struct vn_grid *g, struct drm_vatom_noc *p,
			 const struct vn_bad *b)
{
	__u32 v = b->value;

	switch (b->field) {
	case VN_F_SIZE:
		p->hdr.size = v;
		break;
	case VN_F_FLAGS:
		p->flags = v;
		break;
	case VN_F_PAD0:
		p->pad[0] = v;
		break;
	case VN_F_PAD1:
		p->pad[1] = v;
		break;
	case VN_F_SLOT:
		p->slot = v;
		break;
	case VN_F_NOC:
		p->noc = v;
		break;
	case VN_F_X:
		p->x = v;
		break;
	case VN_F_Y:
		p->y = v;
		break;
	case VN_F_CTRL:
		p->ctrl = v;
		break;
	case VN_F_CTRL_OR:
		p->ctrl |= v;
		break;
	case VN_F_AT:
		p->at_len_be = v;
		break;
	case VN_F_TAG:
		p->packet_tag = v;
		break;
	case VN_F_TARG_LO:
		p->targ_addr_lo = v;
		break;
	case VN_F_TARG_MID:
		p->targ_addr_mid = v;
		break;
	case VN_F_TARG_HI:
		p->targ_addr_hi = v;
		break;
	case VN_F_TARGET:
		*p = vn_req(g, 0, 0, v & 0xff, (v >> 8) & 0xff,
			    v >> 31 ? VN_ETH_L1 : 0x40, 0x107c, 1);
		vn_mark(g, p, 0, 0, 0x100, 1);
		break;
	case VN_F_RET_LO:
		p->ret_addr_lo = v;
		break;
	case VN_F_RET_MID:
		p->ret_addr_mid = v;
		break;
	case VN_F_RET_HI:
		p->ret_addr_hi = v;
		break;
	case VN_F_RETURN:
		vn_mark(g, p, v & 0xff, (v >> 8) & 0xff, 0x100, 1);
		break;
	case VN_F_BRCST:
		if (v == 0xffffffff) {
			vn_brcst(g, p, 0, 0, 3, 2);
			if (g->profile == VN_WH)
				p->targ_addr_mid |= 1u << 28;
			else
				p->targ_addr_hi |= 1u << 24;
		} else {
			vn_brcst(g, p, v & 0xff, (v >> 8) & 0xff,
				 (v >> 16) & 0xff, v >> 24);
		}
		break;
	}
}

/*
 * Each bad request as packet 1 after a good one: EINVAL, the index and the
 * reason, and not one byte of the surface changed (the good packet did not
 * run either). Then the good request alone runs.
 */
static void vn_rejects(struct __test_metadata *_metadata, __u32 profile)
{
	struct drm_vatom_noc good;
	struct vn_grid *g;
	__u8 *before;
	size_t i, ran = 0;
	int fd;

	VT_OPEN(fd);
	g = vn_grid_new(_metadata, fd, profile, 4, 3, vn_grid43, VN_TENSIX_L1,
			VN_ETH_L1);
	before = malloc(g->size);
	ASSERT_NE(NULL, before);
	for (i = 0; i < g->size; i++)
		g->map[i] = (__u8)(i * 7 + 3);
	memcpy(before, g->map, g->size);

	for (i = 0; i < VT_ARRAY_SIZE(vn_bads); i++) {
		const struct vn_bad *b = &vn_bads[i];
		struct drm_vatom_noc p[3];
		struct drm_vatom_submit out;
		__u32 n = 2;

		if (!(b->profiles & (1u << profile)))
			continue;
		p[0] = vn_req(g, 0, 0, 1, 1, 0x40, 0x107c, 1);
		vn_mark(g, &p[0], 0, 0, 0x100, 1);
		p[1] = p[0];
		vn_apply_bad(g, &p[1], b);
		if (b->field == VN_F_SIZE) {
			memset(&p[2], 0, sizeof(p[2]));
			n = 3;	/* 8 more bytes inside the stream: 136 of 192 */
		}
		errno = 0;
		EXPECT_EQ(-1, vn_submit(g, p, n, &out)) TH_LOG("%s", b->what);
		EXPECT_EQ(EINVAL, errno) TH_LOG("%s", b->what);
		EXPECT_EQ(1, out.error_index) TH_LOG("%s", b->what);
		EXPECT_EQ(b->reason, out.error_reason) TH_LOG("%s", b->what);
		EXPECT_EQ(-1, vt_mismatch32((__u32 *)g->map, (__u32 *)before,
					    g->size / 4)) TH_LOG("%s", b->what);
		ran++;
	}
	EXPECT_EQ(profile == VN_WH ? 57 + 9 : 57 + 13, ran);

	/* The good request, alone, does run (the rejects were not vacuous). */
	good = vn_req(g, 0, 0, 1, 1, 0x40, 0x107c, 1);
	vn_mark(g, &good, 0, 0, 0x100, 1);
	ASSERT_EQ(0, vn_submit(g, &good, 1, NULL));
	EXPECT_EQ(vt_rd32(before, g->l1_off[5] + 0x40) + 1, *vn_l1(g, 1, 1, 0x40));
	EXPECT_EQ(vt_rd32(before, g->l1_off[5] + 0x40), *vn_l1(g, 0, 0, 0x100));
	free(before);
	vn_grid_free(g);
	close(fd);
}

TEST(noc_rejects_wormhole)
{
	vn_rejects(_metadata, VN_WH);
}

TEST(noc_rejects_blackhole)
{
	vn_rejects(_metadata, VN_BH);
}

/* ------------------------------------------------------------------------ */
/* Clears racing submissions                                                 */
/* ------------------------------------------------------------------------ */

#define VN_RACE_SUBMITS	150
#define VN_RACE_BATCH	16

struct vn_race {
	struct vn_grid *g;
	volatile bool stop;
	int err;
	__u64 cmd_accepted;	/* read-and-cleared by the clearer */
	__u32 outstanding;	/* sum of read-and-cleared ID 4 values */
	__u32 clears;
};

/* Marked requests from (0,0) answered at (1,0): ID 4 only rises at (0,0). */
static void *vn_race_submitter(void *arg)
{
	struct vn_race *r = arg;
	struct drm_vatom_noc p[VN_RACE_BATCH];
	__u32 i;

	for (i = 0; i < VN_RACE_BATCH; i++) {
		p[i] = vn_req(r->g, 0, 0, 1, 1, 0x40, 0x107c, 1);
		vn_mark(r->g, &p[i], 1, 0, 0x80, 4);
	}
	for (i = 0; i < VN_RACE_SUBMITS && !r->err; i++)
		if (vn_submit(r->g, p, VN_RACE_BATCH, NULL))
			r->err = errno;
	return NULL;
}

static void *vn_race_clearer(void *arg)
{
	struct vn_race *r = arg;
	__u32 c[64];

	while (!r->stop && !r->err) {
		/* Alternate: every counter, then only ID 4 (and read). */
		if (vn_counters(r->g->fd, r->g->handle,
				DRM_VATOM_NOC_COUNTERS_READ |
				(r->clears & 1 ? DRM_VATOM_NOC_COUNTERS_CLEAR_OUTSTANDING :
						 DRM_VATOM_NOC_COUNTERS_CLEAR_ALL),
				0, 0, 0, r->clears & 1 ? 1u << 4 : 0, 64, c)) {
			r->err = errno;
			break;
		}
		if (!(r->clears & 1))
			r->cmd_accepted += c[VN_CMD_ACCEPTED];
		r->outstanding += c[VN_OUTSTANDING(4)];
		r->clears++;
	}
	return NULL;
}

/*
 * Read-and-clear while two threads submit: CMD_ACCEPTED's values taken by
 * CLEAR_ALL plus what is left equal the requests made, exactly; the 8-bit
 * ID counter's values taken plus what is left equal it modulo 256. A lost
 * update (a clear that is not one atomic exchange) breaks both.
 */
TEST(noc_counters_clear_races_submissions)
{
	pthread_t sub[2], clr;
	struct vn_race r;
	__u32 total = 2 * VN_RACE_SUBMITS * VN_RACE_BATCH;
	int fd, i;

	VT_OPEN(fd);
	memset(&r, 0, sizeof(r));
	r.g = vn_grid_new(_metadata, fd, VN_WH, 4, 3, vn_grid43, VN_TENSIX_L1,
			  VN_ETH_L1);
	ASSERT_EQ(0, pthread_create(&clr, NULL, vn_race_clearer, &r));
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, pthread_create(&sub[i], NULL, vn_race_submitter, &r));
	}
	for (i = 0; i < 2; i++)
		pthread_join(sub[i], NULL);
	r.stop = true;
	pthread_join(clr, NULL);
	ASSERT_EQ(0, r.err) TH_LOG("%s", strerror(r.err));
	TH_LOG("%u clears during %u requests", r.clears, total);
	EXPECT_EQ(total, *vn_l1(r.g, 1, 1, 0x40));
	EXPECT_EQ(total, r.cmd_accepted + vn_cnt(r.g, 0, 0, 0)[VN_CMD_ACCEPTED]);
	EXPECT_EQ(total & 0xff,
		  (r.outstanding + vn_cnt(r.g, 0, 0, 0)[VN_OUTSTANDING(4)]) & 0xff);
	/* The return tile's side was never cleared. */
	EXPECT_EQ(total, vn_cnt(r.g, 1, 0, 0)[VN_RESP_RECEIVED]);
	EXPECT_EQ((0u - total) & 0xff, vn_cnt(r.g, 1, 0, 0)[VN_OUTSTANDING(4)]);
	vn_grid_free(r.g);
	close(fd);
}
