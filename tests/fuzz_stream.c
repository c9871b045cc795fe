// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target for the command stream: vatom_stream_validate() on
 * arbitrary bytes, then vatom_stream_execute() on whatever it accepts.
 *
 * The input is the stream itself, copied into a buffer of exactly its size
 * (AddressSanitizer then catches any read past it). The bindings hold small
 * surfaces of every kind, each allocated at exactly its size (several sizes
 * are not multiples of 4 or 16): buffers at slots 0 to 4 and 255, typed
 * surfaces (2D with mips, 1D array, 3D) at 5, 6 and 7, Blackhole and
 * Wormhole tile grids (with DRAM and PCIe tiles) at 8 and 9.
 *
 * Invariants checked on every input:
 * - validate never crashes or reads past the stream; it returns 0 or
 *   vatom_errno() of a DRM_VATOM_ERR_* reason; it is deterministic; it
 *   changes no surface memory;
 * - an accepted stream needs a multiple of 8 result bytes, and executing it
 *   writes only within a results buffer of exactly that size (malloc'd, so
 *   ASan sees an overrun) and within the surfaces;
 * - execute does not write to the stream or to the surface metadata, and
 *   its statistics count no more elements than the packets can hold.
 *
 * To reach the decoders' deep paths quickly, a custom mutator mixes in
 * valid packets of every family (generated at start-up and kept only if the
 * engine's validator accepts them) and mutates packet fields in place while
 * keeping headers consistent; the rest is libFuzzer's own mutation.
 *
 *   build/tests/fuzz/fuzz_stream -runs=1000000 -seed=1   (make -C tests fuzz)
 *   VATOM_FUZZ_WRITE_SEEDS=tests/fuzz_corpus build/tests/fuzz/fuzz_stream
 *	writes the seed packets as files and exits (tests/fuzz_corpus/ holds
 *	them; longer runs: bench/README.md).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "vatom_engine.h"
#include "tile_grid.h"
#include "typed.h"
#include "vt_host.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

#define FUZZ_MAX_LEN	4096

#define CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "fuzz_stream: invariant failed: %s (%s:%d)\n", \
			#cond, __FILE__, __LINE__);			\
		abort();						\
	}								\
} while (0)

/* ---- surfaces --------------------------------------------------------- */

struct fsurf {
	u32 slot;
	struct vatom_surface_view view;
	u8 *mem;		/* exactly view.size bytes */
	u8 *init;		/* the contents every run starts from */
};

#define NSURF	11

static struct fsurf surfs[NSURF];
static u32 nsurf;
static struct vatom_bindings bind;
static struct vatom_typed_layout typed_2d, typed_1da, typed_3d;
static struct vatom_tile_grid *grid_bh, *grid_wh;
static struct vatom_tile_grid *grid_bh_copy, *grid_wh_copy;

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		abort();
	return p;
}

static void add_surface(u32 slot, u32 kind, u64 size,
			const struct vatom_typed_layout *typed,
			struct vatom_tile_grid *grid)
{
	struct fsurf *s = &surfs[nsurf++];
	void *mem;

	if (posix_memalign(&mem, 16, size))
		abort();
	s->slot = slot;
	s->mem = mem;
	s->init = xmalloc(size);
	/* A pattern, so min/max/cas see non-zero values. */
	for (u64 i = 0; i < size; i++)
		s->init[i] = (u8)(i * 37 + slot);
	s->view.vaddr = s->mem;
	s->view.size = size;
	s->view.kind = kind;
	s->view.typed = typed;
	s->view.grid = grid;
	bind.slot[slot] = &s->view;
}

static struct vatom_tile_grid *make_grid(u32 profile, u32 w, u32 h,
					 const u8 *types)
{
	struct drm_vatom_tile_grid_desc d = {
		.profile = profile, .width = w, .height = h,
		.l1_size = { [DRM_VATOM_TILE_TENSIX] = 256,
			     [DRM_VATOM_TILE_ETHERNET] = 128 },
		.tile_types = (u64)(uintptr_t)types,
	};
	struct vatom_tile_grid *g = xmalloc(sizeof(*g));

	CHECK(vatom_tile_grid_layout_init(g, &d, types, 1u << 20) == 0);
	return g;
}

static void make_typed(struct vatom_typed_layout *l, u32 dim, u32 w, u32 h,
		       u32 depth, u32 arr, u32 levels)
{
	struct drm_vatom_typed_desc d = {
		.dim = dim, .format = DRM_VATOM_FORMAT_R32, .width = w,
		.height = h, .depth = depth, .array_size = arr,
		.levels = levels,
	};

	CHECK(vatom_typed_layout_init(l, &d, 1u << 20) == 0);
}

static void setup_surfaces(void)
{
	static const u8 bh_types[6] = {
		DRM_VATOM_TILE_TENSIX, DRM_VATOM_TILE_TENSIX,
		DRM_VATOM_TILE_ETHERNET, DRM_VATOM_TILE_DRAM,
		DRM_VATOM_TILE_TENSIX, DRM_VATOM_TILE_PCIE,
	};
	static const u8 wh_types[4] = {
		DRM_VATOM_TILE_TENSIX, DRM_VATOM_TILE_ETHERNET,
		DRM_VATOM_TILE_TENSIX, DRM_VATOM_TILE_TENSIX,
	};

	add_surface(0, DRM_VATOM_SURFACE_BUFFER, 64, NULL, NULL);
	add_surface(1, DRM_VATOM_SURFACE_BUFFER, 13, NULL, NULL);
	add_surface(2, DRM_VATOM_SURFACE_BUFFER, 100, NULL, NULL);
	add_surface(3, DRM_VATOM_SURFACE_BUFFER, 4096, NULL, NULL);
	add_surface(4, DRM_VATOM_SURFACE_BUFFER, 14, NULL, NULL);
	add_surface(255, DRM_VATOM_SURFACE_BUFFER, 24, NULL, NULL);

	make_typed(&typed_2d, DRM_VATOM_TYPED_2D, 5, 3, 1, 1, 3);
	make_typed(&typed_1da, DRM_VATOM_TYPED_1D_ARRAY, 7, 1, 1, 3, 2);
	make_typed(&typed_3d, DRM_VATOM_TYPED_3D, 4, 2, 3, 1, 2);
	add_surface(5, DRM_VATOM_SURFACE_TYPED, typed_2d.size, &typed_2d, NULL);
	add_surface(6, DRM_VATOM_SURFACE_TYPED, typed_1da.size, &typed_1da,
		    NULL);
	add_surface(7, DRM_VATOM_SURFACE_TYPED, typed_3d.size, &typed_3d, NULL);

	/* 3 x 2: Tensix, Tensix, Ethernet / DRAM, Tensix, PCIe */
	grid_bh = make_grid(DRM_VATOM_NOC_PROFILE_BLACKHOLE, 3, 2, bh_types);
	grid_wh = make_grid(DRM_VATOM_NOC_PROFILE_WORMHOLE, 2, 2, wh_types);
	add_surface(8, DRM_VATOM_SURFACE_TILE_GRID, grid_bh->size, NULL,
		    grid_bh);
	add_surface(9, DRM_VATOM_SURFACE_TILE_GRID, grid_wh->size, NULL,
		    grid_wh);
	grid_bh_copy = xmalloc(sizeof(*grid_bh));
	grid_wh_copy = xmalloc(sizeof(*grid_wh));
	memcpy(grid_bh_copy, grid_bh, sizeof(*grid_bh));
	memcpy(grid_wh_copy, grid_wh, sizeof(*grid_wh));
}

static void reset_surfaces(void)
{
	for (u32 i = 0; i < nsurf; i++)
		memcpy(surfs[i].mem, surfs[i].init, surfs[i].view.size);
}

static bool surfaces_unchanged(void)
{
	for (u32 i = 0; i < nsurf; i++)
		if (memcmp(surfs[i].mem, surfs[i].init, surfs[i].view.size))
			return false;
	return true;
}

/* ---- seed packets ----------------------------------------------------- */

struct seed {
	u8 *p;
	u32 len;
};

static struct seed *seeds;
static u32 nseeds, capseeds;
static u64 gen_rng = 0x243f6a8885a308d3ull;

static u64 rnd(void)
{
	gen_rng = vt_xorshift64(gen_rng);
	return gen_rng;
}

static bool accepted(const void *p, u32 len)
{
	struct vatom_stream_error err;
	u64 need;

	return vatom_stream_validate(p, len, &bind, &need, &err) == 0;
}

/* Keep @p as a seed when the engine accepts it (or when @keep_bad). */
static void add_seed(const void *p, u32 len, bool keep_bad)
{
	if (!keep_bad && !accepted(p, len))
		return;
	if (nseeds == capseeds) {
		capseeds = capseeds ? 2 * capseeds : 256;
		seeds = realloc(seeds, capseeds * sizeof(*seeds));
		if (!seeds)
			abort();
	}
	seeds[nseeds].p = xmalloc(len);
	memcpy(seeds[nseeds].p, p, len);
	seeds[nseeds].len = len;
	nseeds++;
}

/* A byte offset that is mostly in bounds of @size and aligned to @align. */
static u32 pick_offset(u32 size, u32 align)
{
	u32 r = rnd() % 16;

	if (r == 0)
		return (u32)rnd();			/* far out of bounds */
	if (r == 1)
		return size & ~(align - 1);		/* just past the end */
	if (r == 2 && size >= align)
		return (size - align) & ~(align - 1);	/* the last element */
	return (u32)(rnd() % (size + align)) & ~(align - 1);
}

static u64 pick_value(void)
{
	switch (rnd() % 6) {
	case 0:
		return 0;
	case 1:
		return ~0ull;
	case 2:
		return 1;
	case 3:
		return 0x8000000000000000ull >> (rnd() % 64);
	default:
		return rnd();
	}
}

/* One vISA packet; returns its size. */
static u32 build_visa(u8 *buf, u8 opcode, u8 op, u8 exec, u8 slot, u8 type,
		      u32 ops, u32 surf_size)
{
	struct drm_vatom_visa *v = (struct drm_vatom_visa *)buf;
	u32 n = 1u << (exec & DRM_VATOM_VISA_EXEC_SIZE_MASK);
	u32 esz = (type == DRM_VATOM_VISA_TYPE_UQ ||
		   type == DRM_VATOM_VISA_TYPE_Q) ? 8 : 4;
	u32 align = (op & DRM_VATOM_VISA_OP_16) ? 2 : esz;
	u32 pos = sizeof(*v);

	memset(buf, 0, FUZZ_MAX_LEN);
	v->hdr.type = DRM_VATOM_PACKET_VISA;
	v->opcode = opcode;
	v->op = op;
	v->exec_size = exec;
	v->surface = slot;
	v->type = type;
	v->operands = ops;
	v->emask = rnd() % 4 ? ~0u : (u32)rnd();
	if (rnd() % 4 == 0) {
		v->flags = DRM_VATOM_VISA_PREDICATED;
		v->pred = (u32)rnd();
	}
	for (u32 bit = 0; bit < 6; bit++) {
		u32 mask = 1u << bit, cnt = n, w = 4;

		if (bit == 4 && (ops & DRM_VATOM_VISA_OPND_SRC0_IMM)) {
			mask = DRM_VATOM_VISA_OPND_SRC0_IMM;
			cnt = 1;
		}
		if (bit == 5 && (ops & DRM_VATOM_VISA_OPND_SRC1_IMM)) {
			mask = DRM_VATOM_VISA_OPND_SRC1_IMM;
			cnt = 1;
		}
		if (!(ops & mask))
			continue;
		if (bit >= 4)
			w = esz;
		for (u32 i = 0; i < cnt; i++) {
			u64 val;

			if (bit == 0 && opcode == DRM_VATOM_VISA_DWORD_ATOMIC)
				val = pick_offset(surf_size, align);
			else if (bit <= 3)	/* U V R LOD: mostly small */
				val = rnd() % 8 ? rnd() % 8 : (u32)rnd();
			else
				val = pick_value();
			memcpy(buf + pos + i * w, &val, w);
		}
		pos += vatom_align8(cnt * w);
	}
	v->hdr.size = pos;
	return pos;
}

static void seeds_visa(void)
{
	static const u8 slots[] = { 0, 1, 2, 3, 4, 255 };
	static const u8 types[] = {
		DRM_VATOM_VISA_TYPE_UD, DRM_VATOM_VISA_TYPE_D,
		DRM_VATOM_VISA_TYPE_F, DRM_VATOM_VISA_TYPE_UQ,
		DRM_VATOM_VISA_TYPE_Q,
	};
	u8 buf[FUZZ_MAX_LEN];

	/* DWORD_ATOMIC: every op x .16 x type x operand set. */
	for (u32 op = 0; op < 0x20; op++) {
		for (u32 f16 = 0; f16 < 2; f16++) {
			for (u32 ti = 0; ti < sizeof(types); ti++) {
				for (u32 s = 0; s < 4; s++) {
					u32 ops = DRM_VATOM_VISA_OPND_ADDR;
					u8 slot = slots[rnd() % sizeof(slots)];
					u8 exec = rnd() % 5 |
						  (rnd() % 16) << 4;

					if (s & 1)
						ops |= DRM_VATOM_VISA_OPND_SRC0;
					if (s & 2)
						ops |= DRM_VATOM_VISA_OPND_SRC1;
					if (rnd() % 4)
						ops |= DRM_VATOM_VISA_OPND_DST;
					build_visa(buf, DRM_VATOM_VISA_DWORD_ATOMIC,
						   op | f16 * DRM_VATOM_VISA_OP_16,
						   exec, slot, types[ti], ops,
						   bind.slot[slot]->size);
					add_seed(buf, ((struct drm_vatom_packet *)buf)->size,
						 false);
				}
			}
		}
	}
	/* TYPED_ATOMIC on the three typed surfaces (V/R as the dim needs). */
	for (u32 op = 0; op < 0x20; op++) {
		for (u32 slot = 5; slot <= 7; slot++) {
			for (u32 s = 0; s < 4; s++) {
				u32 ops = DRM_VATOM_VISA_OPND_ADDR |
					  DRM_VATOM_VISA_OPND_V |
					  DRM_VATOM_VISA_OPND_LOD |
					  DRM_VATOM_VISA_OPND_DST;
				u8 ty = op == DRM_VATOM_VISA_OP_IMIN ||
					op == DRM_VATOM_VISA_OP_IMAX ?
					DRM_VATOM_VISA_TYPE_D :
					DRM_VATOM_VISA_TYPE_UD;

				if (slot != 5)
					ops |= DRM_VATOM_VISA_OPND_R;
				if (slot == 6)
					ops &= ~DRM_VATOM_VISA_OPND_R;
				if (s & 1)
					ops |= DRM_VATOM_VISA_OPND_SRC0;
				if (s & 2)
					ops |= DRM_VATOM_VISA_OPND_SRC1;
				build_visa(buf, DRM_VATOM_VISA_TYPED_ATOMIC,
					   op | (rnd() % 3 == 0 ?
						 DRM_VATOM_VISA_OP_16 : 0),
					   DRM_VATOM_VISA_EXEC_8 |
					   (rnd() % 16) << 4, slot, ty, ops, 0);
				add_seed(buf, ((struct drm_vatom_packet *)buf)->size,
					 false);
			}
		}
	}
	/* ADDC: arrays or immediates, every exec size. */
	for (u32 e = 0; e <= DRM_VATOM_VISA_EXEC_32; e++) {
		for (u32 s = 0; s < 4; s++) {
			u32 ops = DRM_VATOM_VISA_OPND_DST |
				  (s & 1 ? DRM_VATOM_VISA_OPND_SRC0_IMM :
				   DRM_VATOM_VISA_OPND_SRC0) |
				  (s & 2 ? DRM_VATOM_VISA_OPND_SRC1_IMM :
				   DRM_VATOM_VISA_OPND_SRC1);

			build_visa(buf, DRM_VATOM_VISA_ADDC, 0,
				   e | (rnd() % 16) << 4, 0,
				   DRM_VATOM_VISA_TYPE_UD, ops, 0);
			add_seed(buf, ((struct drm_vatom_packet *)buf)->size,
				 false);
		}
	}
}

static void seeds_ptx(void)
{
	static const u8 vecs[] = { 0, 2, 4, 8 };
	static const u8 slots[] = { 0, 1, 2, 3, 4, 255 };
	struct drm_vatom_ptx x;

	for (u32 op = 1; op <= DRM_VATOM_PTX_OP_MAX; op++) {
		for (u32 type = 1; type <= DRM_VATOM_PTX_TYPE_F64; type++) {
			for (u32 vi = 0; vi < sizeof(vecs); vi++) {
				for (u32 k = 0; k < 6; k++) {
					u8 slot = slots[rnd() % sizeof(slots)];
					u32 sz = bind.slot[slot]->size;

					memset(&x, 0, sizeof(x));
					x.hdr.type = DRM_VATOM_PACKET_PTX;
					x.hdr.size = sizeof(x);
					x.op = op;
					x.type = type;
					x.vec = vecs[vi];
					x.space = k % 4;
					x.sem = rnd() % 4;
					x.scope = rnd() % 4;
					x.slot = slot;
					if (k & 1)
						x.flags |= DRM_VATOM_PTX_NOFTZ;
					if (k == 4) {
						x.flags |= DRM_VATOM_PTX_CACHE_HINT;
						x.cache_policy = rnd();
					}
					x.addr = pick_offset(sz, 16) +
						 (rnd() % 4 == 0 ? 4 * (rnd() % 4) : 0);
					x.b[0] = pick_value();
					x.b[1] = pick_value();
					x.c[0] = pick_value();
					x.c[1] = pick_value();
					if (!accepted(&x, sizeof(x))) {
						/* narrow operands to the access size */
						x.b[1] = 0;
						x.c[1] = 0;
						x.b[0] &= 0xffff;
						x.c[0] = op == DRM_VATOM_PTX_OP_CAS ?
							 x.c[0] & 0xffff : 0;
					}
					add_seed(&x, sizeof(x), false);
				}
			}
		}
	}
}

/* A NoC request from tile (ix, iy) to (tx, ty) of the grid at @slot. */
static void seeds_noc_one(u8 slot, const struct vatom_tile_grid *g, u32 at,
			  u32 ctrl)
{
	struct drm_vatom_noc p;
	bool wh = g->profile == DRM_VATOM_NOC_PROFILE_WORMHOLE;
	u32 ix = rnd() % g->width, iy = rnd() % g->height;
	u32 tx = rnd() % g->width, ty = rnd() % g->height;
	u32 sx = rnd() % g->width, sy = rnd() % g->height;
	bool brcst = ctrl & DRM_VATOM_NOC_CTRL_BRCST_PACKET;

	memset(&p, 0, sizeof(p));
	p.hdr.type = DRM_VATOM_PACKET_NOC;
	p.hdr.size = sizeof(p);
	p.slot = slot;
	p.noc = rnd() % 2;
	p.x = ix;
	p.y = iy;
	p.targ_addr_lo = (u32)(rnd() % 128) & ~3u;
	p.ret_addr_lo = (u32)(rnd() % 128) & ~3u;
	if (wh) {
		p.targ_addr_mid = tx << DRM_VATOM_NOC_WH_MID_X_SHIFT |
				  ty << DRM_VATOM_NOC_WH_MID_Y_SHIFT;
		if (brcst)
			p.targ_addr_mid |= sx << DRM_VATOM_NOC_WH_MID_START_X_SHIFT |
					   sy << DRM_VATOM_NOC_WH_MID_START_Y_SHIFT;
		p.ret_addr_mid = ix << DRM_VATOM_NOC_WH_MID_X_SHIFT |
				 iy << DRM_VATOM_NOC_WH_MID_Y_SHIFT;
	} else {
		p.targ_addr_hi = tx << DRM_VATOM_NOC_BH_HI_X_SHIFT |
				 ty << DRM_VATOM_NOC_BH_HI_Y_SHIFT;
		if (brcst)
			p.targ_addr_hi |= sx << DRM_VATOM_NOC_BH_HI_START_X_SHIFT |
					  sy << DRM_VATOM_NOC_BH_HI_START_Y_SHIFT;
		p.ret_addr_hi = ix << DRM_VATOM_NOC_BH_HI_X_SHIFT |
				iy << DRM_VATOM_NOC_BH_HI_Y_SHIFT;
	}
	p.packet_tag = (u32)(rnd() % 16) << DRM_VATOM_NOC_TAG_TXN_ID_SHIFT;
	p.ctrl = ctrl;
	p.at_len_be = at;
	p.at_data = (u32)pick_value();
	add_seed(&p, sizeof(p), false);
}

static void seeds_noc(void)
{
	static const u32 ctrls[] = {
		DRM_VATOM_NOC_CTRL_REQ_ATOMIC,
		DRM_VATOM_NOC_CTRL_REQ_ATOMIC | DRM_VATOM_NOC_CTRL_RESP_MARKED,
		DRM_VATOM_NOC_CTRL_REQ_ATOMIC | DRM_VATOM_NOC_CTRL_BRCST_PACKET,
		DRM_VATOM_NOC_CTRL_REQ_ATOMIC | DRM_VATOM_NOC_CTRL_BRCST_PACKET |
		DRM_VATOM_NOC_CTRL_RESP_MARKED |
		DRM_VATOM_NOC_CTRL_BRCST_SRC_INCLUDE,
	};

	for (u32 opc = 0; opc < 16; opc++) {
		for (u32 k = 0; k < 24; k++) {
			u32 at = opc << DRM_VATOM_NOC_AT_OPCODE_SHIFT |
				 (u32)(rnd() & 0xfff);
			u32 ctrl = ctrls[k % 4];

			if (opc == DRM_VATOM_NOC_AT_SWAP_IDX6)
				at |= DRM_VATOM_NOC_AT_SWAP6_ONE;
			if (opc == DRM_VATOM_NOC_AT_ACC)
				at = (at & ~0xfu) | (u32)(rnd() % 16);
			seeds_noc_one(8, grid_bh, at, ctrl);
			seeds_noc_one(9, grid_wh, at, ctrl);
		}
	}
}

/* A few streams of several packets, and a few rejected ones. */
static void seeds_multi(void)
{
	u8 buf[FUZZ_MAX_LEN];
	u32 base = nseeds;

	for (u32 k = 0; k < 64 && base; k++) {
		u32 len = 0, cnt = 2 + rnd() % 4;

		for (u32 i = 0; i < cnt; i++) {
			const struct seed *s = &seeds[rnd() % base];

			if (len + s->len > sizeof(buf))
				break;
			memcpy(buf + len, s->p, s->len);
			len += s->len;
		}
		add_seed(buf, len, false);
		/* ...and one with a bad header in the middle. */
		if (len > 8 && k % 8 == 0) {
			buf[len / 2 & ~7u] ^= 0x5a;
			add_seed(buf, len, true);
		}
	}
}

static void make_seeds(void)
{
	seeds_visa();
	seeds_ptx();
	seeds_noc();
	seeds_multi();
}

/* VATOM_FUZZ_WRITE_SEEDS=dir: write a seed subset as files and exit. */
static void write_seeds(const char *dir)
{
	char path[4096];
	u32 written = 0;

	mkdir(dir, 0755);
	for (u32 i = 0; i < nseeds; i++) {
		FILE *f;

		/* every 4th seed keeps the committed corpus small */
		if (i % 4)
			continue;
		snprintf(path, sizeof(path), "%s/seed-%04u", dir, i);
		f = fopen(path, "wb");
		if (!f) {
			perror(path);
			exit(1);
		}
		fwrite(seeds[i].p, 1, seeds[i].len, f);
		fclose(f);
		written++;
	}
	printf("wrote %u of %u seeds to %s\n", written, nseeds, dir);
	exit(0);
}

/* ---- libFuzzer entry points ------------------------------------------- */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("VATOM_FUZZ_WRITE_SEEDS");

	setup_surfaces();
	reset_surfaces();
	make_seeds();
	if (dir)
		write_seeds(dir);
	fprintf(stderr, "fuzz_stream: %u seed streams accepted by the engine\n",
		nseeds);
	return 0;
}

/* Offsets of the packets of @data (as far as the headers chain up). */
static u32 packet_offsets(const u8 *data, size_t size, u32 *offs, u32 max)
{
	u32 n = 0;
	size_t pos = 0;

	while (pos + 8 <= size && n < max) {
		u32 len;

		memcpy(&len, data + pos + 4, 4);
		if (len < 8 || len % 8 || len > size - pos)
			break;
		offs[n++] = pos;
		pos += len;
	}
	return n;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed)
{
	u64 r = seed * 0x9e3779b97f4a7c15ull + 1;
	u32 offs[64], n;
	const struct seed *s;

	r ^= r >> 29;
	if (!nseeds)
		return LLVMFuzzerMutate(data, size, max_size);
	switch (r % 10) {
	case 0:		/* a seed stream */
		s = &seeds[(r >> 8) % nseeds];
		if (s->len > max_size)
			break;
		memcpy(data, s->p, s->len);
		return s->len;
	case 1:		/* append a seed stream */
		s = &seeds[(r >> 8) % nseeds];
		if (size % 8 || size + s->len > max_size)
			break;
		memcpy(data + size, s->p, s->len);
		return size + s->len;
	case 2:
	case 3:
	case 4: {	/* mutate the body of one packet, keep its header */
		u32 i, len, body;

		n = packet_offsets(data, size, offs, 64);
		if (!n)
			break;
		i = offs[(r >> 8) % n];
		memcpy(&len, data + i + 4, 4);
		body = len - 8;
		if (!body)
			break;
		/* Flip or set a few bytes of the fixed part and operands. */
		for (u32 k = 0; k < 1 + (r >> 20) % 3; k++) {
			u64 x = rnd() ^ r;
			u32 at = 8 + x % body;

			switch ((x >> 32) % 4) {
			case 0:
				data[i + at] ^= 1u << ((x >> 40) % 8);
				break;
			case 1:
				data[i + at] = (u8)(x >> 48);
				break;
			case 2:
				data[i + at] = 0;
				break;
			default:
				data[i + at] += 1;
				break;
			}
		}
		return size;
	}
	case 5:		/* drop a packet */
		n = packet_offsets(data, size, offs, 64);
		if (n > 1) {
			u32 i = (r >> 8) % n, len;

			memcpy(&len, data + offs[i] + 4, 4);
			memmove(data + offs[i], data + offs[i] + len,
				size - offs[i] - len);
			return size - len;
		}
		break;
	default:
		break;
	}
	return LLVMFuzzerMutate(data, size, max_size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vatom_stream_error err, err2;
	struct vatom_stats st;
	u64 need = 0xdeadbeef, need2 = 0;
	u8 *stream, *results;
	int ret, ret2;

	if (size > 1u << 20)
		return 0;
	/* Exactly sized (never read past) and 8-aligned (malloc: 16). */
	stream = xmalloc(size);
	memcpy(stream, data, size);
	reset_surfaces();

	ret = vatom_stream_validate(stream, size, &bind, &need, &err);
	CHECK(surfaces_unchanged());
	CHECK(!memcmp(stream, data, size));
	if (ret) {
		CHECK(err.reason >= DRM_VATOM_ERR_PACKET_TYPE &&
		      err.reason <= DRM_VATOM_ERR_UNSUPPORTED);
		CHECK(ret == vatom_errno(err.reason));
		/* Packets are >= 8 bytes, so the index is below size / 8 + 1. */
		CHECK(err.index <= size / 8);
	} else {
		CHECK(err.reason == DRM_VATOM_ERR_NONE);
		CHECK(need % 8 == 0);
		/* No packet returns more than 64 times its own size. */
		CHECK(need <= 64 * (u64)size);
	}
	/* Deterministic. */
	ret2 = vatom_stream_validate(stream, size, &bind, &need2, &err2);
	CHECK(ret2 == ret);
	if (ret) {
		CHECK(err2.index == err.index && err2.reason == err.reason);
		free(stream);
		return 0;
	}
	CHECK(need2 == need);

	/* Execute into exactly results_needed bytes (NULL when none). */
	results = need ? xmalloc(need) : NULL;
	if (results)
		memset(results, 0xa5, need);
	memset(&st, 0, sizeof(st));
	vatom_stream_execute(stream, size, &bind, results, &st);
	CHECK(!memcmp(stream, data, size));
	CHECK(!memcmp(grid_bh, grid_bh_copy, sizeof(*grid_bh)));
	CHECK(!memcmp(grid_wh, grid_wh_copy, sizeof(*grid_wh)));
	CHECK(st.packets[VATOM_FAMILY_VISA] + st.packets[VATOM_FAMILY_PTX] +
	      st.packets[VATOM_FAMILY_NOC] <= size / 8);
	CHECK(st.elements[VATOM_FAMILY_VISA] <= 32 * st.packets[VATOM_FAMILY_VISA]);
	CHECK(st.elements[VATOM_FAMILY_PTX] <= 8 * st.packets[VATOM_FAMILY_PTX]);
	CHECK(st.elements[VATOM_FAMILY_NOC] <=
	      VATOM_TILE_GRID_MAX_TILES * st.packets[VATOM_FAMILY_NOC]);
	free(results);
	free(stream);
	return 0;
}
