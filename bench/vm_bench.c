// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Benchmark of the device path, run inside the test VM against the loaded
 * vatom.ko (scripts/vm-run.sh -o DIR -- build/bench/vm_bench -o /out):
 * the same work through DRM_IOCTL_VATOM_SUBMIT and as a native loop of CPU
 * atomics on the same mmap'ed surface memory, in one run, as ratios.
 *
 *   P1  batch throughput: DWORD_ATOMIC.ADD UD, exec size 16, 1 Mi lanes in
 *       one submission, vs native lock xadd (old values stored), lanes/s
 *   P2  latency: one synchronous 1-packet submission vs a null ioctl
 *       (GET_PARAM)
 *   P3  soft-float f32 add through the device vs a hardware-float CAS loop
 *   Q   user-mode queues: a 1-job round trip (kick mode: tail, KICK,
 *       completed; polling mode: tail, completed) vs the null ioctl;
 *       small jobs/s of both modes vs sync and async SUBMIT
 *   A   asynchronous jobs/s: 1-packet jobs with a fence per job and per
 *       32; larger jobs from two files at once vs one
 *   M   many busy queues: aggregate jobs/s of 1, 2, 4, 8 producer
 *       threads, each with its own queue, kick mode vs polling mode
 *   P4  scaling: two submitting threads (own file, own surface, pinned to
 *       vCPU 0 and 1) vs one
 *   sweep: element operations/s against packets per submission, for
 *       vISA int add, PTX f32 add, PTX cas and NoC increment
 *   T   tracing: P1 and 1-packet submissions with the vatom tracepoints
 *       enabled vs disabled, alternating
 *
 * Every figure is the median of several repetitions with min-max; device
 * and native runs alternate. Before P1 and P3 are timed, one device run and
 * one native run from the same memory must leave the same memory and
 * return the same values.
 *
 * Writes DIR/vm.md (the VM section of bench/results.md) and DIR/sweep.dat
 * (the plot's data); prints the same tables on stdout.
 *
 * Raw ioctls, no libdrm calls: a static binary for the minimal guest.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <xmmintrin.h>

#include "drm/vatom_drm.h"
#include "vm_uring.h"
#include "vt_host.h"

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;

#define SLOT		1
#define BUF_BYTES	(64 * 1024)	/* surface: as the host engine bench */
#define LANES		16
#define MAX_REPS	64
#define MAX_SAMPLES	(3 * MAX_REPS)
#define SEQ		__ATOMIC_SEQ_CST
#define MXCSR_FTZ_DAZ	0x8040
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Median, minimum and maximum of a measurement's samples. */
struct summary {
	double med, min, max;
};

static int reps = 7;
static double min_time = 0.1;	/* seconds per sweep measurement */
static FILE *md;		/* DIR/vm.md */
/*
 * -c: the guest counts instructions (QEMU -icount shift=0: its clock
 * advances 1 ns per instruction), so a per-call cost is a number of
 * instructions, the same from run to run at any host load.
 */
static bool counted;
static u64 max_stream;

/* ---- output: every table goes to stdout and to vm.md ---- */

static void out(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (md) {
		va_start(ap, fmt);
		vfprintf(md, fmt, ap);
		va_end(ap);
	}
	fflush(stdout);
}

/* The unit of a per-call cost column: microseconds, or instructions. */
static const char *cost_unit(void)
{
	return counted ? "instructions" : "us";
}

/* A median of @s seconds per call in cost_unit()'s unit. */
static double cost_value(struct summary s)
{
	return s.med * (counted ? 1e9 : 1e6);
}

/*
 * A per-call cost of @s seconds as its column shows it: "median
 * (min-max)" for a summary. Four buffers in turn: a row uses at most two.
 */
static const char *cost(struct summary s)
{
	static char buf[4][64];
	static int next;
	char *b = buf[next++ % 4];

	if (counted)
		snprintf(b, sizeof(buf[0]), "%.0f (%.0f-%.0f)", s.med * 1e9,
			 s.min * 1e9, s.max * 1e9);
	else
		snprintf(b, sizeof(buf[0]), "%.2f (%.2f-%.2f)", s.med * 1e6,
			 s.min * 1e6, s.max * 1e6);
	return b;
}

static void die(const char *what, int err)
{
	fprintf(stderr, "vm_bench: %s: %s\n", what, strerror(err));
	exit(1);
}

static u64 rng_state = 0x9e3779b97f4a7c15ull;

static u64 rng(void)
{
	rng_state = vt_xorshift64(rng_state);
	return rng_state;
}

static void *xmalloc(size_t n)
{
	void *p = aligned_alloc(64, (n + 63) & ~(size_t)63);

	if (!p)
		die("malloc", ENOMEM);
	memset(p, 0, n);
	return p;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of @v's @n values, which it sorts. */
static double median_sort(double *v, int n)
{
	qsort(v, n, sizeof(double), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* @n is at most MAX_SAMPLES: P2 takes three blocks per repetition. */
static struct summary summarize(const double *v, int n)
{
	double t[MAX_SAMPLES];
	struct summary s;

	memcpy(t, v, sizeof(double) * n);
	s.med = median_sort(t, n);
	s.min = t[0];
	s.max = t[n - 1];
	return s;
}

/* ---- the device ---- */

static int xioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, req, arg);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret == -1 ? -errno : 0;
}

static int open_device(void)
{
	char path[64];
	int i, fd;

	for (i = 128; i < 192; i++) {
		struct drm_vatom_get_param gp = {
			.param = DRM_VATOM_PARAM_UAPI_VERSION,
		};

		snprintf(path, sizeof(path), "/dev/dri/renderD%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		/* vgem is loaded too: the vatom node answers GET_PARAM. */
		if (!xioctl(fd, DRM_IOCTL_VATOM_GET_PARAM, &gp))
			return fd;
		close(fd);
	}
	die("no vatom render node", ENODEV);
	return -1;
}

static u64 get_param(int fd, u32 param)
{
	struct drm_vatom_get_param gp = { .param = param };
	int ret = xioctl(fd, DRM_IOCTL_VATOM_GET_PARAM, &gp);

	if (ret)
		die("GET_PARAM", -ret);
	return gp.value;
}

/* Pin the calling thread to vCPU @cpu. */
static void pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* Let the calling thread run on every online vCPU again. */
static void unpin_cpu(void)
{
	long c, n = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;

	CPU_ZERO(&set);
	for (c = 0; c < n && c < CPU_SETSIZE; c++)
		CPU_SET(c, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

struct surface {
	u32 handle;
	u64 size;
	u8 *map;
};

static void surface_map(int fd, struct surface *s)
{
	struct drm_vatom_surface_mmap_offset mo = { .handle = s->handle };
	int ret = xioctl(fd, DRM_IOCTL_VATOM_SURFACE_MMAP_OFFSET, &mo);

	if (ret)
		die("SURFACE_MMAP_OFFSET", -ret);
	s->map = mmap(NULL, s->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		      mo.offset);
	if (s->map == MAP_FAILED)
		die("mmap", errno);
}

static struct surface buffer_create(int fd, u64 size)
{
	struct drm_vatom_surface_create sc = {
		.kind = DRM_VATOM_SURFACE_BUFFER, .size = size,
	};
	struct surface s;
	int ret = xioctl(fd, DRM_IOCTL_VATOM_SURFACE_CREATE, &sc);

	if (ret)
		die("SURFACE_CREATE buffer", -ret);
	s.handle = sc.handle;
	s.size = sc.size;
	surface_map(fd, &s);
	return s;
}

/* A 2 x 1 Blackhole grid of Tensix tiles with BUF_BYTES of L1 each. */
static struct surface grid_create(int fd, u8 **l1_target)
{
	static const u8 types[2] = { DRM_VATOM_TILE_TENSIX,
				     DRM_VATOM_TILE_TENSIX };
	struct drm_vatom_tile_grid_desc gd = {
		.profile = DRM_VATOM_NOC_PROFILE_BLACKHOLE,
		.width = 2, .height = 1,
		.tile_types = (uintptr_t)types,
	};
	struct drm_vatom_surface_create sc = {
		.kind = DRM_VATOM_SURFACE_TILE_GRID,
		.desc = (uintptr_t)&gd, .desc_size = sizeof(gd),
	};
	struct surface s;
	int ret;

	gd.l1_size[DRM_VATOM_TILE_TENSIX] = BUF_BYTES;
	ret = xioctl(fd, DRM_IOCTL_VATOM_SURFACE_CREATE, &sc);
	if (ret)
		die("SURFACE_CREATE tile grid", -ret);
	s.handle = sc.handle;
	s.size = sc.size;
	surface_map(fd, &s);
	/* docs/semantics-noc.md: counters (512 bytes a tile), then the L1s */
	*l1_target = s.map + 2 * 512 + BUF_BYTES;
	return s;
}

/*
 * One synchronous submission; results to user memory, or with @rhandle to
 * that result surface at offset @roff (no bounce copies).
 */
static int submit_to(int fd, const void *stream, u32 size, u32 handle,
		     void *results, u64 results_size, u32 rhandle, u64 roff)
{
	struct drm_vatom_binding bind = { .slot = SLOT, .handle = handle };
	struct drm_vatom_submit sub = {
		.stream = (uintptr_t)stream, .stream_size = size,
		.bindings = (uintptr_t)&bind, .binding_count = 1,
		.results = rhandle ? 0 : (uintptr_t)results,
		.results_size = results_size,
		.result_handle = rhandle, .result_offset = rhandle ? roff : 0,
	};
	int ret = xioctl(fd, DRM_IOCTL_VATOM_SUBMIT, &sub);

	if (ret)
		fprintf(stderr, "SUBMIT: %s (packet %u, reason %u)\n",
			strerror(-ret), sub.error_index, sub.error_reason);
	return ret;
}

static int submit(int fd, const void *stream, u32 size, u32 handle,
		  void *results, u64 results_size)
{
	return submit_to(fd, stream, size, handle, results, results_size, 0, 0);
}

/* ---- workloads: streams and the equivalent native loops ---- */

enum kind { K_INT, K_INT_NODST, K_F32_V4, K_F32, K_CAS, K_NOC_INCR, K_NOC_ACC };

struct work {
	enum kind kind;
	u32 elems;		/* element operations */
	u32 per_packet;		/* elements per packet */
	u32 *offs;		/* byte offset of each element */
	u32 *src0, *src1;	/* operands */
	u8 *stream;
	u32 stream_size;	/* bytes of one packet * packets */
	u32 pkt_size;
	u64 res_size;		/* results of the whole stream */
};

static const char *kind_name(enum kind k)
{
	switch (k) {
	case K_INT: return "vISA DWORD_ATOMIC.ADD UD SIMD16, Dst";
	case K_INT_NODST: return "vISA DWORD_ATOMIC.ADD UD SIMD16, no Dst";
	case K_F32_V4: return "PTX atom.global.v4.f32.add (ftz)";
	case K_F32: return "PTX atom.shared.add.f32";
	case K_CAS: return "PTX atom.global.cas.b32";
	case K_NOC_INCR: return "NoC increment (posted unicast)";
	case K_NOC_ACC: return "NoC parallel add Fmt 0 (4 fp32, ftz)";
	}
	return "?";
}

static u32 packet_size(enum kind k)
{
	switch (k) {
	case K_INT:
	case K_INT_NODST:
		return sizeof(struct drm_vatom_visa) + 4 * LANES + 4 * LANES;
	case K_F32_V4:
	case K_F32:
	case K_CAS:
		return sizeof(struct drm_vatom_ptx);
	default:
		return sizeof(struct drm_vatom_noc);
	}
}

static u32 elems_per_packet(enum kind k)
{
	switch (k) {
	case K_INT:
	case K_INT_NODST:
		return LANES;
	case K_F32_V4:
	case K_NOC_ACC:
		return 4;
	default:
		return 1;
	}
}

static bool kind_float(enum kind k)
{
	return k == K_F32_V4 || k == K_F32 || k == K_NOC_ACC;
}

/* @packets packets of @k; offsets walk the 64 KiB word by word. */
static void work_build(struct work *w, enum kind k, u32 packets)
{
	static const float fv[] = { 0.5f, 1.25f, -3.0f, 1e-3f, 7.75f,
				    -0.1f, 1024.0f, 3.0e-5f };
	u32 per = elems_per_packet(k), n = packets * per, i, p;

	memset(w, 0, sizeof(*w));
	w->kind = k;
	w->elems = n;
	w->per_packet = per;
	w->pkt_size = packet_size(k);
	w->offs = xmalloc(4 * (size_t)n);
	w->src0 = xmalloc(4 * (size_t)n);
	w->src1 = xmalloc(4 * (size_t)n);
	for (i = 0; i < n; i++) {
		u64 r = rng();

		w->offs[i] = (i % (BUF_BYTES / 4)) * 4;
		if (k == K_NOC_ACC && i % 4) {
			w->src0[i] = w->src0[i - i % 4];	/* one D a packet */
		} else if (kind_float(k)) {
			memcpy(&w->src0[i], &fv[r % 8], 4);
		} else {
			w->src0[i] = (u32)(r >> 20);
			w->src1[i] = (u32)(r & 3);	/* cas: compare 0..3 */
		}
	}
	w->stream_size = packets * w->pkt_size;
	w->stream = xmalloc(w->stream_size);
	for (p = 0; p < packets; p++) {
		u8 *q = w->stream + (size_t)p * w->pkt_size;
		u32 e = p * per;

		switch (k) {
		case K_INT:
		case K_INT_NODST: {
			struct drm_vatom_visa *v = (void *)q;

			v->hdr.type = DRM_VATOM_PACKET_VISA;
			v->hdr.size = w->pkt_size;
			v->opcode = DRM_VATOM_VISA_DWORD_ATOMIC;
			v->op = DRM_VATOM_VISA_OP_ADD;
			v->exec_size = DRM_VATOM_VISA_EXEC_16;
			v->surface = SLOT;
			v->type = DRM_VATOM_VISA_TYPE_UD;
			v->operands = DRM_VATOM_VISA_OPND_ADDR |
				      DRM_VATOM_VISA_OPND_SRC0 |
				      (k == K_INT ? DRM_VATOM_VISA_OPND_DST : 0);
			v->emask = 0xffff;
			memcpy(v + 1, &w->offs[e], 4 * LANES);
			memcpy((u8 *)(v + 1) + 4 * LANES, &w->src0[e],
			       4 * LANES);
			break;
		}
		case K_F32_V4:
		case K_F32:
		case K_CAS: {
			struct drm_vatom_ptx *x = (void *)q;

			x->hdr.type = DRM_VATOM_PACKET_PTX;
			x->hdr.size = w->pkt_size;
			x->slot = SLOT;
			x->addr = w->offs[e];
			if (k == K_CAS) {
				x->op = DRM_VATOM_PTX_OP_CAS;
				x->type = DRM_VATOM_PTX_TYPE_B32;
				x->space = DRM_VATOM_PTX_SPACE_GLOBAL;
				x->b[0] = w->src1[e];	/* compare */
				x->c[0] = w->src0[e];	/* new */
			} else {
				x->op = DRM_VATOM_PTX_OP_ADD;
				x->type = DRM_VATOM_PTX_TYPE_F32;
				x->vec = k == K_F32_V4 ? 4 : 0;
				x->space = k == K_F32_V4 ?
					   DRM_VATOM_PTX_SPACE_GLOBAL :
					   DRM_VATOM_PTX_SPACE_SHARED_CTA;
				memcpy(x->b, &w->src0[e], 4 * per);
			}
			break;
		}
		default: {
			struct drm_vatom_noc *x = (void *)q;

			x->hdr.type = DRM_VATOM_PACKET_NOC;
			x->hdr.size = w->pkt_size;
			x->slot = SLOT;
			/* from tile (0, 0) to tile (1, 0) */
			x->targ_addr_lo = w->offs[e] & ~15u;
			x->targ_addr_hi = 1;
			x->ctrl = DRM_VATOM_NOC_CTRL_REQ_ATOMIC;
			if (k == K_NOC_ACC) {
				x->at_len_be = DRM_VATOM_NOC_AT_ACC <<
					       DRM_VATOM_NOC_AT_OPCODE_SHIFT |
					       DRM_VATOM_NOC_ACC_FP32;
			} else {
				/* IntWidth 31 (a plain 32-bit add), Ofs 0 */
				x->at_len_be = DRM_VATOM_NOC_AT_INCR <<
					       DRM_VATOM_NOC_AT_OPCODE_SHIFT |
					       31 << DRM_VATOM_NOC_AT_INT_WIDTH_SHIFT;
			}
			x->at_data = w->src0[e];
			break;
		}
		}
	}
	switch (k) {
	case K_INT:
		w->res_size = 4 * (u64)n;
		break;
	case K_F32_V4:
		w->res_size = 16 * (u64)packets;
		break;
	case K_F32:
	case K_CAS:
		w->res_size = 8 * (u64)packets;
		break;
	default:
		w->res_size = 0;
	}
}

static void work_free(struct work *w)
{
	free(w->offs);
	free(w->src0);
	free(w->src1);
	free(w->stream);
}

/*
 * Native loops: the same element operations on the same surface memory,
 * with their addresses and operands read from the very stream the device
 * is given (packet by packet, as the device reads them) and their old
 * values stored where the device stores them, so that both sides touch the
 * same bytes.
 */
static void native_int(u8 *mem, const struct work *w, u32 *res, bool dst)
{
	const u8 *p = w->stream, *end = w->stream + w->stream_size;

	for (; p < end; p += w->pkt_size, res += LANES) {
		const u32 *addr = (const u32 *)(p + sizeof(struct drm_vatom_visa));
		const u32 *src0 = addr + LANES;

		for (u32 i = 0; i < LANES; i++) {
			u32 old = __atomic_fetch_add((u32 *)(mem + addr[i]),
						     src0[i], SEQ);

			if (dst)
				res[i] = old;
		}
	}
}

/* Hardware-float CAS loop on one element. */
static inline u32 native_fadd1(u32 *p, u32 bits)
{
	u32 old = __atomic_load_n(p, __ATOMIC_RELAXED), nw;
	float f, b;

	memcpy(&b, &bits, 4);
	do {
		memcpy(&f, &old, 4);
		f += b;
		memcpy(&nw, &f, 4);
	} while (!__atomic_compare_exchange_n(p, &old, nw, false, SEQ, SEQ));
	return old;
}

/* PTX add.f32, scalar (8-byte result regions) or .v4 (16-byte ones). */
static void native_ptx_fadd(u8 *mem, const struct work *w, u32 *res)
{
	const u8 *p = w->stream, *end = w->stream + w->stream_size;

	for (; p < end; p += w->pkt_size) {
		const struct drm_vatom_ptx *x = (const void *)p;
		u32 *a = (u32 *)(mem + x->addr);

		res[0] = native_fadd1(&a[0], (u32)x->b[0]);
		if (!x->vec) {
			res += 2;
			continue;
		}
		res[1] = native_fadd1(&a[1], (u32)(x->b[0] >> 32));
		res[2] = native_fadd1(&a[2], (u32)x->b[1]);
		res[3] = native_fadd1(&a[3], (u32)(x->b[1] >> 32));
		res += 4;
	}
}

/* NoC parallel add: D onto the 4 fp32 of the target block, no result. */
static void native_noc_fadd(u8 *mem, const struct work *w)
{
	const u8 *p = w->stream, *end = w->stream + w->stream_size;

	for (; p < end; p += w->pkt_size) {
		const struct drm_vatom_noc *x = (const void *)p;
		u32 *a = (u32 *)(mem + x->targ_addr_lo);

		for (u32 i = 0; i < 4; i++)
			native_fadd1(&a[i], x->at_data);
	}
}

static void native_run(u8 *mem, const struct work *w, u32 *res)
{
	unsigned int csr = _mm_getcsr();

	switch (w->kind) {
	case K_INT:
	case K_INT_NODST:
		native_int(mem, w, res, w->kind == K_INT);
		break;
	case K_F32:
		native_ptx_fadd(mem, w, res);
		break;
	case K_F32_V4:
	case K_NOC_ACC:
		/* both flush subnormals: the hardware does too */
		_mm_setcsr(csr | MXCSR_FTZ_DAZ);
		if (w->kind == K_F32_V4)
			native_ptx_fadd(mem, w, res);
		else
			native_noc_fadd(mem, w);
		_mm_setcsr(csr);
		break;
	default:
		break;
	}
}

static void init_memory(u8 *mem, bool is_float)
{
	u64 save = rng_state;

	rng_state = 0x1234567;
	for (u32 i = 0; i < BUF_BYTES / 4; i++) {
		u32 v = (u32)(rng() & 3);

		if (is_float) {
			float f = (float)(i % 100) * 0.75f;

			memcpy(&v, &f, 4);
		}
		memcpy(mem + 4 * i, &v, 4);
	}
	rng_state = save;
}

/*
 * Device vs native on the same mapped memory, @reps times alternating;
 * element operations per second. Returns false if a check failed.
 */
struct ratio_row {
	struct summary dev, nat, ratio;
	bool same;
};

/* Submit all of @w in chunks of at most max_stream bytes. */
static void submit_all(int fd, const struct work *w, u32 packets, u32 handle,
		       u8 *res, const struct surface *rs)
{
	u32 chunk = (u32)(max_stream / w->pkt_size) * w->pkt_size, done;

	for (done = 0; done < w->stream_size; done += chunk) {
		u32 len = w->stream_size - done < chunk ?
			  w->stream_size - done : chunk;
		u64 roff = w->res_size ? (u64)done / w->pkt_size *
			   (w->res_size / packets) : 0;

		if (submit_to(fd, w->stream + done, len, handle,
			      w->res_size ? res + roff : NULL,
			      w->res_size ? w->res_size - roff : 0,
			      rs ? rs->handle : 0, roff))
			exit(1);
	}
}

static bool compare_run(int fd, enum kind k, u32 packets, bool rsurf,
			struct ratio_row *row)
{
	struct work w;
	struct surface s, rs;
	u8 *mem, *init = xmalloc(BUF_BYTES);
	u32 *res_dev, *res_nat;
	double td[MAX_REPS], tn[MAX_REPS], tr[MAX_REPS], t0;
	u32 i;

	work_build(&w, k, packets);
	if (k == K_NOC_ACC)
		s = grid_create(fd, &mem);
	else
		s = buffer_create(fd, BUF_BYTES), mem = s.map;
	if (rsurf) {
		/* results straight into a mapped surface */
		rs = buffer_create(fd, w.res_size);
		res_dev = (u32 *)rs.map;
	} else {
		res_dev = xmalloc(w.res_size + 8);
	}
	res_nat = xmalloc(w.res_size + 8);
	init_memory(init, kind_float(k));

	/* Same memory, same results (native into a zeroed copy here). */
	memcpy(mem, init, BUF_BYTES);
	memset(res_dev, 0, w.res_size);
	submit_all(fd, &w, packets, s.handle, (u8 *)res_dev,
		   rsurf ? &rs : NULL);
	{
		u8 *copy = xmalloc(BUF_BYTES);

		memcpy(copy, mem, BUF_BYTES);
		memcpy(mem, init, BUF_BYTES);
		native_run(mem, &w, res_nat);
		row->same = !memcmp(copy, mem, BUF_BYTES) &&
			    !memcmp(res_dev, res_nat, w.res_size);
		free(copy);
	}

	for (i = 0; i < (u32)reps; i++) {
		memcpy(mem, init, BUF_BYTES);
		t0 = vt_now_s();
		submit_all(fd, &w, packets, s.handle, (u8 *)res_dev,
			   rsurf ? &rs : NULL);
		td[i] = w.elems / (vt_now_s() - t0);

		memcpy(mem, init, BUF_BYTES);
		t0 = vt_now_s();
		native_run(mem, &w, res_dev);
		tn[i] = w.elems / (vt_now_s() - t0);
		tr[i] = td[i] / tn[i];
	}
	row->dev = summarize(td, reps);
	row->nat = summarize(tn, reps);
	row->ratio = summarize(tr, reps);
	munmap(s.map, s.size);
	if (rsurf)
		munmap(rs.map, rs.size);
	else
		free(res_dev);
	free(init);
	free(res_nat);
	work_free(&w);
	return row->same;
}

static void print_ratio_row(const char *what, const char *native,
			    const struct ratio_row *r, const char *target,
			    bool met)
{
	out("| %s | %s | %.2f (%.2f-%.2f) | %.2f (%.2f-%.2f) | **%.2f** "
	    "(%.2f-%.2f) | %s%s | %s |\n", what, native, r->dev.med / 1e6,
	    r->dev.min / 1e6, r->dev.max / 1e6, r->nat.med / 1e6,
	    r->nat.min / 1e6, r->nat.max / 1e6, r->ratio.med, r->ratio.min,
	    r->ratio.max, target, *target ? (met ? " met" : " **missed**") : "",
	    r->same ? "yes" : "**NO**");
}

/* ---- T: the cost of enabled tracepoints ---- */

/* Enable or disable every vatom event; false when there is no tracefs. */
static bool vatom_tracing(bool on)
{
	static const char *const paths[] = {
		"/sys/kernel/tracing/events/vatom/enable",
		"/sys/kernel/debug/tracing/events/vatom/enable",
	};
	size_t i;
	int fd;

	/* The minimal guest mounts debugfs, not always tracefs. */
	if (access(paths[0], F_OK))
		mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL);
	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		fd = open(paths[i], O_WRONLY);
		if (fd < 0)
			continue;
		if (write(fd, on ? "1" : "0", 1) != 1) {
			close(fd);
			return false;
		}
		close(fd);
		return true;
	}
	return false;
}

/* The 1-packet PTX job of P2 and the other rows: atom.global.add.u32 of 1. */
static const struct drm_vatom_ptx p2_packet = {
	.hdr = { DRM_VATOM_PACKET_PTX, sizeof(p2_packet) },
	.op = DRM_VATOM_PTX_OP_ADD, .type = DRM_VATOM_PTX_TYPE_U32,
	.space = DRM_VATOM_PTX_SPACE_GLOBAL, .slot = SLOT, .b = { 1 },
};

static void trace_overhead(int fd)
{
	struct surface s = buffer_create(fd, BUF_BYTES);
	struct drm_vatom_ptx x = p2_packet;
	const int per = 200, blocks = 3 * reps;
	double off[MAX_REPS * 3], on[MAX_REPS * 3], r1[MAX_REPS * 3], t0;
	struct ratio_row row_off, row_on;
	struct summary so, sn, sr;
	u64 res[8];
	int b, i, k;

	if (!vatom_tracing(false)) {
		out("\n### Tracing overhead\n\nNo tracefs with vatom events: "
		    "not measured.\n");
		return;
	}
	out("\n### Tracing overhead\n\n"
	    "The vatom tracepoints (every event) enabled against disabled, "
	    "in the same boot: P1 as above (one 65536-packet submission: one "
	    "submit, job start and job end event), and a synchronous 1-packet "
	    "PTX submission (the same three events per call, %d calls a "
	    "block, %d blocks alternating).\n\n"
	    "| tracing | P1 device M lanes/s | P1 ratio (paired) | 1-packet "
	    "SUBMIT us |\n|---|---|---|---|\n", per, blocks);
	compare_run(fd, K_INT, 65536, true, &row_off);
	vatom_tracing(true);
	compare_run(fd, K_INT, 65536, true, &row_on);
	vatom_tracing(false);
	for (b = 0; b < blocks; b++) {
		for (k = 0; k < 2; k++) {
			vatom_tracing(k);
			t0 = vt_now_s();
			for (i = 0; i < per; i++)
				if (submit(fd, &x, sizeof(x), s.handle, res, 8))
					exit(1);
			(k ? on : off)[b] = (vt_now_s() - t0) / per;
		}
		vatom_tracing(false);
		r1[b] = on[b] / off[b];
	}
	so = summarize(off, blocks);
	sn = summarize(on, blocks);
	sr = summarize(r1, blocks);
	out("| off | %.2f (%.2f-%.2f) | %.2f | %.2f (%.2f-%.2f) |\n",
	    row_off.dev.med / 1e6, row_off.dev.min / 1e6,
	    row_off.dev.max / 1e6, row_off.ratio.med, so.med * 1e6,
	    so.min * 1e6, so.max * 1e6);
	out("| on | %.2f (%.2f-%.2f) | %.2f | %.2f (%.2f-%.2f) |\n",
	    row_on.dev.med / 1e6, row_on.dev.min / 1e6, row_on.dev.max / 1e6,
	    row_on.ratio.med, sn.med * 1e6, sn.min * 1e6, sn.max * 1e6);
	out("\nEnabled vs disabled: P1 throughput %.3f, 1-packet latency "
	    "%.3f (paired median, %.3f-%.3f).\n",
	    row_on.dev.med / row_off.dev.med, sr.med, sr.min, sr.max);
	printf("T p1 %.3f p2 %.3f\n", row_on.dev.med / row_off.dev.med,
	       sr.med);
	munmap(s.map, s.size);
}

/* ---- P2: latency ---- */

/* Seconds per call of @per null ioctls (GET_PARAM UAPI_VERSION), the unit. */
static double null_ioctl_s(int fd, int per)
{
	double t0 = vt_now_s();
	int i;

	for (i = 0; i < per; i++)
		get_param(fd, DRM_VATOM_PARAM_UAPI_VERSION);
	return (vt_now_s() - t0) / per;
}

/*
 * The per-job targets, as ratios to the null ioctl (judged in the counted
 * mode, where they are exact; printed as "TARGET KEY T" lines beside the
 * ratios, which bench/mkresults.sh judges with, so they are written here
 * only): a 1-packet PTX SUBMIT, a 1-packet vISA
 * SIMD16 SUBMIT, an empty SUBMIT; a kick-mode round trip, and at most
 * io_uring's NOP io_uring_enter() round trip plus Q1S_OVER_URING; a
 * polling round trip, and at most io_uring's SQPOLL NOP round trip; one
 * 1-packet job's execution.
 */
#define P2_TARGET	2.0
#define P2V_TARGET	2.8
#define P2E_TARGET	1.4
#define Q1S_TARGET	1.5
#define Q1S_OVER_URING	0.3
#define QP1S_TARGET	1.0
#define QX_TARGET	0.3

/* "<= T met" or "<= T **missed**" for ratio @v against target @t. */
static const char *verdict(double v, double t)
{
	static char buf[4][48];
	static int next;
	char *b = buf[next++ % 4];

	snprintf(b, sizeof(buf[0]), "<= %.1f%s", t,
		 v <= t ? " met" : " **missed**");
	return b;
}

/*
 * The bounds of what scripts/vm-profile.sh counts: its QEMU plugin
 * (bench/iprof.c) starts counting when the guest executes the first and
 * stops at the second, found by their addresses in this static binary.
 */
__attribute__((noinline)) void vm_bench_profile_start(void)
{
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void vm_bench_profile_stop(void)
{
	__asm__ volatile("" ::: "memory");
}

static void p2_latency(int fd)
{
	struct surface s = buffer_create(fd, BUF_BYTES);
	struct drm_vatom_ptx x = p2_packet;
	struct drm_vatom_submit empty = { 0 };
	struct surface rs = buffer_create(fd, BUF_BYTES);
	struct work w;
	const int per = 200, blocks = 3 * reps;
	double tg[MAX_REPS * 3], ts[MAX_REPS * 3], tv[MAX_REPS * 3];
	double te[MAX_REPS * 3], tx[MAX_REPS * 3];
	double tr[MAX_REPS * 3], t0;
	struct summary g, sp, sv, se, sx, r;
	u64 res[8];
	int b, i;

	/* one 16-lane vISA packet too, for comparison */
	work_build(&w, K_INT, 1);
	for (b = 0; b < blocks; b++) {
		tg[b] = null_ioctl_s(fd, per);

		t0 = vt_now_s();
		for (i = 0; i < per; i++)
			if (submit(fd, &x, sizeof(x), s.handle, res, 8))
				exit(1);
		ts[b] = (vt_now_s() - t0) / per;

		t0 = vt_now_s();
		for (i = 0; i < per; i++)
			if (submit(fd, w.stream, w.stream_size, s.handle, res,
				   64))
				exit(1);
		tv[b] = (vt_now_s() - t0) / per;
		tr[b] = ts[b] / tg[b];

		/* Where the time goes: the same call with less to do. */
		t0 = vt_now_s();
		for (i = 0; i < per; i++)
			if (xioctl(fd, DRM_IOCTL_VATOM_SUBMIT, &empty))
				exit(1);
		te[b] = (vt_now_s() - t0) / per;

		t0 = vt_now_s();
		for (i = 0; i < per; i++)
			if (submit_to(fd, &x, sizeof(x), s.handle, NULL, 8,
				      rs.handle, 0))
				exit(1);
		tx[b] = (vt_now_s() - t0) / per;
	}
	g = summarize(tg, blocks);
	sp = summarize(ts, blocks);
	sv = summarize(tv, blocks);
	se = summarize(te, blocks);
	sx = summarize(tx, blocks);
	r = summarize(tr, blocks);
	out("\n### P2: latency of one synchronous submission\n\n"
	    "%d blocks of %d calls each, alternating; per call, median "
	    "(min-max) over the blocks.\n\n"
	    "| call | %s per call | ratio to GET_PARAM | target |\n"
	    "|---|---|---|---|\n", blocks, per, cost_unit());
	out("| GET_PARAM UAPI_VERSION (null ioctl) | %s | 1 | |\n", cost(g));
	out("| SUBMIT, 1 PTX atom.global.add.u32 packet, 8 bytes of results "
	    "| %s | **%.2f** (paired %.2f, %.2f-%.2f) | %s |\n",
	    cost(sp), sp.med / g.med, r.med, r.min, r.max,
	    verdict(sp.med / g.med, P2_TARGET));
	out("| SUBMIT, 1 vISA DWORD_ATOMIC.ADD SIMD16 packet, 64 bytes of "
	    "results | %s | **%.2f** | %s |\n", cost(sv), sv.med / g.med,
	    verdict(sv.med / g.med, P2V_TARGET));
	out("| SUBMIT, the PTX packet, its 8 bytes of results to a result "
	    "surface | %s | %.2f | |\n", cost(sx), sx.med / g.med);
	out("| SUBMIT, empty: no packet, no binding, no results | %s | **%.2f** "
	    "| %s |\n", cost(se), se.med / g.med,
	    verdict(se.med / g.med, P2E_TARGET));
	printf("P2 %.3f\nTARGET P2 %.1f\n", sp.med / g.med, P2_TARGET);
	printf("P2V %.3f\nTARGET P2V %.1f\n", sv.med / g.med, P2V_TARGET);
	printf("P2E %.3f\nTARGET P2E %.1f\n", se.med / g.med, P2E_TARGET);
	/* Each row's median, in its unit: for bench/shim-counted.sh. */
	printf("COST null %.3f\nCOST p2 %.3f\nCOST p2v %.3f\nCOST p2x %.3f\n"
	       "COST empty %.3f\n", cost_value(g), cost_value(sp),
	       cost_value(sv), cost_value(sx), cost_value(se));
	work_free(&w);
	munmap(rs.map, rs.size);
	munmap(s.map, s.size);
}

/* ---- Q: user-mode queues (docs/queues.md) ---- */

/* Bytes of stream, and of results, each of the 64 ring entries gets. */
#define QB_AREA		4096

/* A queue of 64 entries with the same stream in every entry's area. */
struct qb {
	u32 id, entries, tail;
	struct drm_vatom_queue_job *ring;
	struct drm_vatom_queue_ctl *ctl;
	struct surface st, rs;
	u32 stream_size, res_size;
};

static void *map_handle(int fd, u32 handle, u64 size)
{
	struct surface s = { .handle = handle, .size = size };

	surface_map(fd, &s);
	return s.map;
}

/* Poller idle time: longer than any pause of the benchmark, so it never sleeps. */
#define QB_POLL_IDLE_US	200000

/* Polling queues whose poller runs anywhere: qb_init()'s @poll_cpu. */
#define QB_ANY_CPU	-1

/*
 * Write the descriptor of every entry of @q: its stream and results area,
 * or when @empty a job with neither (no stream to copy, check or run: what
 * the queue itself costs a job). Only while no job is in flight.
 */
static void qb_describe(struct qb *q, bool empty)
{
	u32 e;

	for (e = 0; e < q->entries; e++)
		q->ring[e] = empty ? (struct drm_vatom_queue_job){ 0 } :
			(struct drm_vatom_queue_job){
				.stream_slot = 2, .stream_offset = e * QB_AREA,
				.stream_size = q->stream_size, .results_slot = 3,
				.results_offset = e * QB_AREA,
				.results_size = q->res_size,
			};
}

/*
 * @poll: a polling queue (DRM_VATOM_QUEUE_CREATE_POLL), else kick mode;
 * @poll_cpu: the CPU its poller is pinned to, or QB_ANY_CPU.
 */
static void qb_init_on(int fd, struct qb *q, u32 target, const void *stream,
		       u32 size, u32 res_size, bool poll, int poll_cpu)
{
	struct drm_vatom_binding b[3] = {
		{ .slot = SLOT, .handle = target },
	};
	struct drm_vatom_queue_create qc = {
		.entries = 64,
		.flags = poll ? DRM_VATOM_QUEUE_CREATE_POLL : 0,
		.poll_idle_us = poll ? QB_POLL_IDLE_US : 0,
	};
	u32 e;
	int ret;

	q->entries = 64;
	q->tail = 0;
	q->stream_size = size;
	q->res_size = res_size;
	q->st = buffer_create(fd, 64 * QB_AREA);
	q->rs = buffer_create(fd, 64 * QB_AREA);
	b[1] = (struct drm_vatom_binding){ .slot = 2, .handle = q->st.handle };
	b[2] = (struct drm_vatom_binding){ .slot = 3, .handle = q->rs.handle };
	qc.bindings = (uintptr_t)b;
	qc.binding_count = 3;
	if (poll && poll_cpu != QB_ANY_CPU) {
		qc.flags |= DRM_VATOM_QUEUE_CREATE_POLL_CPU;
		qc.poll_cpu = (u32)poll_cpu;
	}
	ret = xioctl(fd, DRM_IOCTL_VATOM_QUEUE_CREATE, &qc);
	if (ret)
		die("QUEUE_CREATE", -ret);
	q->id = qc.queue_id;
	q->ring = map_handle(fd, qc.ring_handle, 4096);
	q->ctl = map_handle(fd, qc.ctl_handle, 4096);
	for (e = 0; e < q->entries; e++)
		memcpy(q->st.map + e * QB_AREA, stream, size);
	qb_describe(q, false);
}

static void qb_init(int fd, struct qb *q, u32 target, const void *stream,
		    u32 size, u32 res_size, bool poll)
{
	qb_init_on(fd, q, target, stream, size, res_size, poll, QB_ANY_CPU);
}

static void qb_fini(int fd, struct qb *q)
{
	struct drm_vatom_queue_destroy d = { .queue_id = q->id };

	xioctl(fd, DRM_IOCTL_VATOM_QUEUE_DESTROY, &d);
	munmap(q->ring, 4096);
	munmap(q->ctl, 4096);
	munmap(q->st.map, q->st.size);
	munmap(q->rs.map, q->rs.size);
}

/* A job failed, or the queue lost it: the benchmark measures nothing. */
static void qb_check(const struct qb *q)
{
	if ((u32)__atomic_load_n(&q->ctl->completed, __ATOMIC_ACQUIRE) != q->tail ||
	    q->ring[(q->tail - 1) & (q->entries - 1)].status) {
		fprintf(stderr, "vm_bench: queue job failed\n");
		exit(1);
	}
}

/* How a polling run waits until @q has completed job @seq. */
typedef void qb_wait_fn(int fd, const struct qb *q, u32 seq);

/*
 * Spin until @q has completed job @seq; yield now and then, in case the
 * scheduler put the poller on our CPU (it would run at the next tick).
 * @fd is unused: a qb_wait_fn, as mq_wait() is.
 */
static void qb_spin_wait(int fd, const struct qb *q, u32 seq)
{
	unsigned int spins = 0;

	while ((int)((u32)__atomic_load_n(&q->ctl->completed,
					   __ATOMIC_ACQUIRE) - seq) < 0) {
		__builtin_ia32_pause();
		if (++spins % 4096 == 0)
			sched_yield();
	}
}

/*
 * Polling mode: publish @n jobs, keeping at most the ring's entries in
 * flight, and @wait until they are complete. No system call unless the
 * poller asks for one (NEED_WAKEUP; the full barrier orders the tail
 * store before the flags load, as docs/queues.md says).
 */
static void qb_poll_run(int fd, struct qb *q, u32 n, qb_wait_fn *wait)
{
	struct drm_vatom_queue_kick k = { .queue_id = q->id };
	u32 end = q->tail + n;

	while (q->tail != end) {
		if (q->tail - (u32)__atomic_load_n(&q->ctl->completed,
						    __ATOMIC_ACQUIRE) >= q->entries) {
			wait(fd, q, q->tail - q->entries + 1);
			continue;
		}
		q->tail++;
		__atomic_store_n(&q->ctl->tail, q->tail, __ATOMIC_RELEASE);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		if (__atomic_load_n(&q->ctl->flags, __ATOMIC_RELAXED) &
		    DRM_VATOM_QUEUE_CTL_NEED_WAKEUP &&
		    xioctl(fd, DRM_IOCTL_VATOM_QUEUE_KICK, &k))
			exit(1);
	}
	wait(fd, q, end);
	qb_check(q);
}

/* Seconds per job of @per 1-job round trips of polling queue @q. */
static double qb_poll_rtt_s(int fd, struct qb *q, int per)
{
	double t0 = vt_now_s();
	int i;

	for (i = 0; i < per; i++)
		qb_poll_run(fd, q, 1, qb_spin_wait);
	return (vt_now_s() - t0) / per;
}

/* Publish @n jobs (the descriptors stay in place), kick, check they ran. */
static void qb_run(int fd, struct qb *q, u32 n)
{
	struct drm_vatom_queue_kick k = { .queue_id = q->id };
	u32 i;

	for (i = 0; i < n; i++) {
		q->tail++;
		__atomic_store_n(&q->ctl->tail, q->tail, __ATOMIC_RELEASE);
	}
	if (xioctl(fd, DRM_IOCTL_VATOM_QUEUE_KICK, &k))
		exit(1);
	qb_check(q);
}

/*
 * -l ROW:N, for scripts/vm-profile.sh: ROW's call N (at least 1) times
 * between the two marks above, after one call outside them (its
 * first-time costs).
 * ROW: null (GET_PARAM), p2 (the 1-packet PTX SUBMIT), p2v (the 1-packet
 * vISA SIMD16 SUBMIT), empty (the empty SUBMIT), as in p2_latency(); kick
 * (a kick-mode queue's 1-job round trip, P2's packet), as in queue_bench().
 */
static int loop_row(int fd, const char *arg)
{
	static const char *const rows[] = { "null", "p2", "p2v", "empty",
					    "kick" };
	struct surface s = buffer_create(fd, BUF_BYTES);
	struct drm_vatom_ptx x = p2_packet;
	struct drm_vatom_submit empty = { 0 };
	const char *colon = strchr(arg, ':');
	size_t len = colon ? (size_t)(colon - arg) : 0;
	long n = colon ? atol(colon + 1) : 0;
	unsigned int row;
	struct work w;
	struct qb q;
	u64 res[16];
	long i;

	for (row = 0; row < ARRAY_SIZE(rows); row++)
		if (len == strlen(rows[row]) && !strncmp(arg, rows[row], len))
			break;
	if (row == ARRAY_SIZE(rows) || n < 1)
		return -1;
	work_build(&w, K_INT, 1);
	if (row == 4)
		qb_init(fd, &q, s.handle, &x, sizeof(x), 8, false);
	for (i = -1; i < n; i++) {
		if (i == 0)
			vm_bench_profile_start();
		switch (row) {
		case 0:
			get_param(fd, DRM_VATOM_PARAM_UAPI_VERSION);
			break;
		case 1:
			submit(fd, &p2_packet, sizeof(p2_packet), s.handle,
			       res, 8);
			break;
		case 2:
			submit(fd, w.stream, w.stream_size, s.handle, res, 64);
			break;
		case 3:
			xioctl(fd, DRM_IOCTL_VATOM_SUBMIT, &empty);
			break;
		default:
			qb_run(fd, &q, 1);
		}
	}
	vm_bench_profile_stop();
	if (row == 4)
		qb_fini(fd, &q);
	return 0;
}

/* Calls per block of the Q round trips. */
#define QB_PER_MAX	200

/*
 * One call a single-call latency times: a null ioctl, a 1-job round trip,
 * a KICK with no job to consume (what a KICK costs before its job), a
 * polling round trip of a job with no stream (what the queue costs a job),
 * or io_uring's NOP, through io_uring_enter() or an SQPOLL ring.
 */
enum one_call { ONE_NULL, ONE_KICK, ONE_POLL, ONE_KICK_EMPTY, ONE_POLL_EMPTY,
		ONE_URING_ENTER, ONE_URING_SQPOLL };

/*
 * Median seconds of @per calls of @what (at most QB_PER_MAX), each timed
 * on its own (@q: the queue of a round trip): a latency that the block's
 * rare slow calls (an interrupt, the host stopping a vCPU thread) do not
 * move, as they move a block's mean.
 */
static double one_call_med_s(int fd, struct qb *q, enum one_call what, int per)
{
	double t[QB_PER_MAX], t0, t1;
	int i;

	if (what == ONE_POLL_EMPTY)
		qb_describe(q, true);
	t0 = vt_now_s();
	for (i = 0; i < per; i++) {
		switch (what) {
		case ONE_NULL:
			get_param(fd, DRM_VATOM_PARAM_UAPI_VERSION);
			break;
		case ONE_KICK:
			qb_run(fd, q, 1);
			break;
		case ONE_POLL:
		case ONE_POLL_EMPTY:
			qb_poll_run(fd, q, 1, qb_spin_wait);
			break;
		case ONE_KICK_EMPTY:
			qb_run(fd, q, 0);
			break;
		case ONE_URING_ENTER:
			uring_nop_enter();
			break;
		case ONE_URING_SQPOLL:
			uring_nop_sqpoll();
			break;
		}
		t1 = vt_now_s();
		t[i] = t1 - t0;
		t0 = t1;
	}
	if (what == ONE_POLL_EMPTY)
		qb_describe(q, false);
	return median_sort(t, per);
}

/*
 * Nanoseconds the device has spent executing @fd's jobs: the sum of its
 * fdinfo drm-engine-* keys, which the driver times around each batch it
 * consumes (vatom_queue_drain()), whichever thread consumes it.
 */
static u64 engine_ns(int fd)
{
	char path[64], line[256];
	unsigned long long v;
	u64 sum = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		die("fdinfo", errno);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "drm-engine-%*[a-z]: %llu ns", &v) == 1)
			sum += v;
	fclose(f);
	return sum;
}

/* Asynchronous SUBMIT of @stream, results to @rh; out-syncobj @syncobj or 0. */
static void submit_async(int fd, const void *stream, u32 size, u32 handle,
			 u32 rh, u64 res_size, u32 syncobj)
{
	struct drm_vatom_binding bind = { .slot = SLOT, .handle = handle };
	struct drm_vatom_sync out = { .handle = syncobj };
	struct drm_vatom_submit sub = {
		.stream = (uintptr_t)stream, .stream_size = size,
		.bindings = (uintptr_t)&bind, .binding_count = 1,
		.result_handle = rh, .results_size = res_size,
		.out_syncs = syncobj ? (uintptr_t)&out : 0,
		.out_sync_count = syncobj ? 1 : 0,
		.flags = DRM_VATOM_SUBMIT_ASYNC,
	};
	int ret = xioctl(fd, DRM_IOCTL_VATOM_SUBMIT, &sub);

	if (ret)
		die("SUBMIT async", -ret);
}

static u32 syncobj_create(int fd)
{
	struct drm_syncobj_create sc = { 0 };
	int ret = xioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &sc);

	if (ret)
		die("SYNCOBJ_CREATE", -ret);
	return sc.handle;
}

static void syncobj_wait(int fd, u32 h)
{
	struct drm_syncobj_wait w = {
		.handles = (uintptr_t)&h, .count_handles = 1,
		.timeout_nsec = INT64_MAX,
	};
	int ret = xioctl(fd, DRM_IOCTL_SYNCOBJ_WAIT, &w);

	if (ret)
		die("SYNCOBJ_WAIT", -ret);
}

/*
 * Seconds for @jobs asynchronous jobs of @w on @fd, results to @rh, with
 * an out-syncobj on every @per_fence-th job, waited for.
 */
static double async_jobs(int fd, const struct work *w, u32 handle, u32 rh,
			 u32 syncobj, u32 jobs, u32 per_fence)
{
	double t0 = vt_now_s();
	bool fence;
	u32 i;

	for (i = 0; i < jobs; i++) {
		fence = i % per_fence == per_fence - 1;
		submit_async(fd, w->stream, w->stream_size, handle, rh,
			     w->res_size, fence ? syncobj : 0);
		if (fence)
			syncobj_wait(fd, syncobj);
	}
	return vt_now_s() - t0;
}

/*
 * jobs/s of @pkts-packet jobs: queue (32 a kick), sync, async (fence/32),
 * polling queue (up to its 64 entries in flight).
 */
static void queue_throughput(int fd, struct surface *s, u32 pkts,
			     struct summary out4[4])
{
	struct drm_vatom_ptx x = p2_packet;
	struct drm_vatom_ptx stream[16];
	struct surface rs = buffer_create(fd, BUF_BYTES);
	const u32 per = 32 * 16, blocks = 3 * reps;
	double tq[MAX_REPS * 3], tsy[MAX_REPS * 3], tas[MAX_REPS * 3];
	double tp[MAX_REPS * 3], t0;
	struct work aw = {
		.stream = (u8 *)stream, .stream_size = pkts * sizeof(x),
		.res_size = pkts * 8,
	};
	u32 i, b, so = syncobj_create(fd);
	u64 res[16];
	struct qb q, qp;

	for (i = 0; i < pkts; i++)
		stream[i] = x;
	qb_init(fd, &q, s->handle, stream, pkts * sizeof(x), pkts * 8, false);
	qb_init(fd, &qp, s->handle, stream, pkts * sizeof(x), pkts * 8, true);
	for (b = 0; b < blocks; b++) {
		t0 = vt_now_s();
		for (i = 0; i < per; i += 32)
			qb_run(fd, &q, 32);
		tq[b] = per / (vt_now_s() - t0);

		t0 = vt_now_s();
		qb_poll_run(fd, &qp, per, qb_spin_wait);
		tp[b] = per / (vt_now_s() - t0);

		t0 = vt_now_s();
		for (i = 0; i < per; i++)
			if (submit(fd, stream, pkts * sizeof(x), s->handle, res,
				   pkts * 8))
				exit(1);
		tsy[b] = per / (vt_now_s() - t0);

		tas[b] = per / async_jobs(fd, &aw, s->handle, rs.handle, so,
					  per, 32);
	}
	out4[0] = summarize(tq, blocks);
	out4[1] = summarize(tsy, blocks);
	out4[2] = summarize(tas, blocks);
	out4[3] = summarize(tp, blocks);
	qb_fini(fd, &qp);
	qb_fini(fd, &q);
	munmap(rs.map, rs.size);
}

/*
 * A row of section Q's round-trip tables: @us, seconds per call, then
 * @ratio, its ratios to the null ioctl, which a target judges by their
 * median; after @headline, the ratio of the two medians, as "paired"
 * (when @headline is not negative). @target: <= it, or none when 0.
 */
static void q_row(const char *call, struct summary us, double headline,
		  struct summary ratio, double target)
{
	out("| %s | %s | ", call, cost(us));
	if (headline >= 0)
		out("**%.2f** (paired %.2f, %.2f-%.2f)", headline, ratio.med,
		    ratio.min, ratio.max);
	else
		out(target ? "**%.2f** (%.2f-%.2f)" : "%.2f (%.2f-%.2f)",
		    ratio.med, ratio.min, ratio.max);
	out(" | %s |\n", target ? verdict(ratio.med, target) : "");
}

static void queue_bench(int fd)
{
	struct surface s = buffer_create(fd, BUF_BYTES);
	struct drm_vatom_ptx x = p2_packet;
	const int per = QB_PER_MAX, blocks = 3 * reps;
	double tg[MAX_REPS * 3], tq[MAX_REPS * 3], tr[MAX_REPS * 3], t0;
	double tp[MAX_REPS * 3], trp[MAX_REPS * 3];
	double t1g[MAX_REPS * 3], t1q[MAX_REPS * 3], t1p[MAX_REPS * 3];
	double t1e[MAX_REPS * 3], r1q[MAX_REPS * 3], r1p[MAX_REPS * 3];
	double r1e[MAX_REPS * 3], t1pe[MAX_REPS * 3], r1pe[MAX_REPS * 3];
	double t1u[MAX_REPS * 3], r1u[MAX_REPS * 3];
	double t1up[MAX_REPS * 3], r1up[MAX_REPS * 3];
	double xq[MAX_REPS * 3], xp[MAX_REPS * 3];
	double rxq[MAX_REPS * 3], rxp[MAX_REPS * 3];
	double tgp[MAX_REPS * 3], tpp[MAX_REPS * 3], trpp[MAX_REPS * 3];
	static const u32 sizes[] = { 1, 16 };
	struct summary g, sq, r, sp, rp, thr[4], gp = { 0 }, spp = { 0 }, rpp = { 0 };
	struct summary g1, q1, p1, e1, rq1, rp1, re1, pe1, rpe1, sxq, sxp;
	struct summary srxq, srxp, u1, ru1, up1, rup1;
	u64 x0, x1, x2;
	char call[128];
	bool pinned;
	struct qb q, qp;
	int b, i;
	size_t k;

	qb_init(fd, &q, s.handle, &x, sizeof(x), 8, false);
	/*
	 * Counted, the poller on vCPU 1 and this thread on vCPU 0, always:
	 * QEMU runs the two vCPUs in turn, each until it PAUSEs, halts or
	 * takes an interrupt, so the count is the same from run to run only
	 * when the guest scheduler cannot move the two onto one vCPU.
	 */
	if (counted) {
		qb_init_on(fd, &qp, s.handle, &x, sizeof(x), 8, true, 1);
		pin_cpu(0);
	} else {
		qb_init(fd, &qp, s.handle, &x, sizeof(x), 8, true);
	}
	for (b = 0; b < blocks; b++) {
		tg[b] = null_ioctl_s(fd, per);
		t0 = vt_now_s();
		for (i = 0; i < per; i++)
			qb_run(fd, &q, 1);
		tq[b] = (vt_now_s() - t0) / per;
		tr[b] = tq[b] / tg[b];
		tp[b] = qb_poll_rtt_s(fd, &qp, per);
		trp[b] = tp[b] / tg[b];
		t1g[b] = one_call_med_s(fd, NULL, ONE_NULL, per);
		x0 = engine_ns(fd);
		t1q[b] = one_call_med_s(fd, &q, ONE_KICK, per);
		x1 = engine_ns(fd);
		t1p[b] = one_call_med_s(fd, &qp, ONE_POLL, per);
		x2 = engine_ns(fd);
		t1e[b] = one_call_med_s(fd, &q, ONE_KICK_EMPTY, per);
		t1pe[b] = one_call_med_s(fd, &qp, ONE_POLL_EMPTY, per);
		/*
		 * The rings only for their own rows: an SQPOLL thread
		 * spinning beside the other rows added 38 instructions to a
		 * counted null ioctl (1195 to 1233). Counted, no SQPOLL ring.
		 */
		uring_init(!counted);
		t1u[b] = one_call_med_s(fd, NULL, ONE_URING_ENTER, per);
		/*
		 * Not counted: the SQPOLL thread spins without PAUSE, so
		 * QEMU runs its vCPU until the next tick (4000000
		 * instructions at the guest's 250 Hz), whatever it costs.
		 */
		t1up[b] = counted ? 0 :
			  one_call_med_s(fd, NULL, ONE_URING_SQPOLL, per);
		uring_fini();
		r1u[b] = t1u[b] / t1g[b];
		r1up[b] = t1up[b] / t1g[b];
		xq[b] = (x1 - x0) * 1e-9 / per;
		xp[b] = (x2 - x1) * 1e-9 / per;
		r1q[b] = t1q[b] / t1g[b];
		r1p[b] = t1p[b] / t1g[b];
		r1e[b] = t1e[b] / t1g[b];
		r1pe[b] = t1pe[b] / t1g[b];
		rxq[b] = xq[b] / t1g[b];
		rxp[b] = xp[b] / t1g[b];
	}
	qb_fini(fd, &qp);
	if (counted)
		unpin_cpu();
	/*
	 * The polling round trip again, with the poller pinned to vCPU 1
	 * (DRM_VATOM_QUEUE_CREATE_POLL_CPU: the queue above is gone, and
	 * its poller with it) and this thread to vCPU 0: the two never share
	 * a CPU, the configuration polling mode is meant for.
	 */
	pinned = !counted && (get_param(fd, DRM_VATOM_PARAM_CAPS) &
			      DRM_VATOM_CAP_QUEUE_POLL_CPU) &&
		 sysconf(_SC_NPROCESSORS_ONLN) >= 2;
	if (pinned) {
		/* Pinned after: a CPU the caller may not run on is refused. */
		qb_init_on(fd, &qp, s.handle, &x, sizeof(x), 8, true, 1);
		pin_cpu(0);
		for (b = 0; b < blocks; b++) {
			tgp[b] = null_ioctl_s(fd, per);
			tpp[b] = qb_poll_rtt_s(fd, &qp, per);
			trpp[b] = tpp[b] / tgp[b];
		}
		qb_fini(fd, &qp);
		unpin_cpu();
		gp = summarize(tgp, blocks);
		spp = summarize(tpp, blocks);
		rpp = summarize(trpp, blocks);
	}
	qb_fini(fd, &q);
	g = summarize(tg, blocks);
	sq = summarize(tq, blocks);
	r = summarize(tr, blocks);
	sp = summarize(tp, blocks);
	rp = summarize(trp, blocks);
	g1 = summarize(t1g, blocks);
	q1 = summarize(t1q, blocks);
	p1 = summarize(t1p, blocks);
	rq1 = summarize(r1q, blocks);
	rp1 = summarize(r1p, blocks);
	e1 = summarize(t1e, blocks);
	re1 = summarize(r1e, blocks);
	pe1 = summarize(t1pe, blocks);
	rpe1 = summarize(r1pe, blocks);
	sxq = summarize(xq, blocks);
	sxp = summarize(xp, blocks);
	srxq = summarize(rxq, blocks);
	srxp = summarize(rxp, blocks);
	u1 = summarize(t1u, blocks);
	ru1 = summarize(r1u, blocks);
	up1 = summarize(t1up, blocks);
	rup1 = summarize(r1up, blocks);
	out("\n### Q: user-mode queues\n\n"
	    "Round trip of one 1-packet job (PTX atom.global.add.u32, 8 bytes "
	    "of results to the queue's results surface): kick mode writes the "
	    "tail, KICKs, reads the completed count and the status; polling "
	    "mode writes the tail and spins on the completed count while the "
	    "queue's kernel thread consumes (no system call). %d blocks of %d, "
	    "alternating with the null ioctl; median (min-max).\n\n"
	    "| call | %s per job | ratio to GET_PARAM | target |\n"
	    "|---|---|---|---|\n", blocks, per, cost_unit());
	out("| GET_PARAM UAPI_VERSION (null ioctl) | %s | 1 | |\n", cost(g));
	q_row("kick mode, 1 job per KICK", sq, sq.med / g.med, r, Q1S_TARGET);
	q_row("polling mode, 1 job, no system call", sp, sp.med / g.med, rp,
	      QP1S_TARGET);
	if (pinned) {
		snprintf(call, sizeof(call), "polling mode, the poller pinned "
			 "to vCPU 1 (POLL_CPU), this thread to vCPU 0 (its own "
			 "null ioctl %s %s)", cost(gp), cost_unit());
		q_row(call, spp, spp.med / gp.med, rpp, QP1S_TARGET);
	}
	out("\nThe same calls each timed on its own (one_call_med_s()): per "
	    "block, the median of %d single calls; median (min-max) of the "
	    "%d blocks: a block's rare slow calls do not move it as they move "
	    "the block's mean.\n\n"
	    "| call | %s, median single call | ratio to GET_PARAM's | target |\n"
	    "|---|---|---|---|\n", per, blocks, cost_unit());
	out("| GET_PARAM UAPI_VERSION (null ioctl) | %s | 1 | |\n", cost(g1));
	q_row("kick mode, 1 job per KICK", q1, -1, rq1, Q1S_TARGET);
	q_row("polling mode, 1 job, no system call", p1, -1, rp1, QP1S_TARGET);
	q_row("kick mode, a KICK with no job to consume", e1, -1, re1, 0);
	q_row("polling mode, a job with no stream (what the queue costs a "
	      "job)", pe1, -1, rpe1, 0);
	q_row("the 1-packet job's execution, kick mode (fdinfo drm-engine, "
	      "mean per job)", sxq, -1, srxq, QX_TARGET);
	q_row("the same, polling mode (the poller's)", sxp, -1, srxp, 0);
	q_row("io_uring: a NOP submitted and waited for with one "
	      "io_uring_enter()", u1, -1, ru1, 0);
	if (counted)
		out("| io_uring: a NOP round trip through an SQPOLL ring, no "
		    "system call | not counted: its thread spins without PAUSE, "
		    "so QEMU runs its vCPU to the next tick | | |\n");
	else
		q_row("io_uring: a NOP round trip through an SQPOLL ring, no "
		      "system call", up1, -1, rup1, 0);
	out("\nBeside io_uring: kick mode %.2f against its NOP round trip %.2f "
	    "+ %.1f (%s)", rq1.med, ru1.med, Q1S_OVER_URING,
	    rq1.med <= ru1.med + Q1S_OVER_URING ? "met" : "**missed**");
	if (!counted)
		out("; polling mode %.2f against its SQPOLL NOP %.2f (%s)",
		    rp1.med, rup1.med,
		    rp1.med <= rup1.med ? "met" : "**missed**");
	out(".\n");
	out("\nA polling round trip is what the queue costs a job plus the "
	    "job's execution, which no mode avoids; a null ioctl executes "
	    "nothing.\n");
	printf("Q1 %.3f\n", r.med);
	printf("QP1 %.3f\n", rp.med);
	if (pinned)
		printf("QP1P %.3f\n", rpp.med);
	printf("Q1S %.3f\nTARGET Q1S %.1f\n", rq1.med, Q1S_TARGET);
	printf("TARGET Q1S_OVER_URING %.1f\n", Q1S_OVER_URING);
	printf("QP1S %.3f\nTARGET QP1S %.1f\n", rp1.med, QP1S_TARGET);
	printf("Q0S %.3f\n", re1.med);
	printf("QP0S %.3f\n", rpe1.med);
	printf("QXK %.3f\nTARGET QXK %.1f\n", srxq.med, QX_TARGET);
	printf("QXP %.3f\n", srxp.med);
	printf("U1S %.3f\n", ru1.med);
	if (!counted)
		printf("UP1S %.3f\n", rup1.med);

	out("\nSmall jobs, jobs per second (thousands): the kick-mode queue "
	    "with 32 jobs per KICK; the polling queue with up to its 64 "
	    "entries in flight; synchronous SUBMIT (results to user memory); "
	    "asynchronous SUBMIT (results to a surface) with an out-syncobj "
	    "on every 32nd job, waited for. 512 jobs per block, %d blocks, "
	    "alternating. The targets are for the better queue mode.\n\n"
	    "| packets per job | kick queue | polling queue | sync SUBMIT | "
	    "async SUBMIT, fence/32 | queue / async (target >= 5) | "
	    "queue / sync (target > 1) |\n"
	    "|---|---|---|---|---|---|---|\n", blocks);
	for (k = 0; k < ARRAY_SIZE(sizes); k++) {
		double best;

		queue_throughput(fd, &s, sizes[k], thr);
		best = thr[0].med > thr[3].med ? thr[0].med : thr[3].med;
		out("| %u | %.1f (%.1f-%.1f) | %.1f (%.1f-%.1f) | %.1f "
		    "(%.1f-%.1f) | %.1f (%.1f-%.1f) | **%.2f**%s | **%.2f**%s |\n",
		    sizes[k], thr[0].med / 1e3, thr[0].min / 1e3,
		    thr[0].max / 1e3, thr[3].med / 1e3, thr[3].min / 1e3,
		    thr[3].max / 1e3, thr[1].med / 1e3, thr[1].min / 1e3,
		    thr[1].max / 1e3, thr[2].med / 1e3, thr[2].min / 1e3,
		    thr[2].max / 1e3, best / thr[2].med,
		    best / thr[2].med >= 5 ? " met" : " **missed**",
		    best / thr[1].med, best > thr[1].med ? " met" : " **missed**");
		printf("QT%u %.3f %.3f\n", sizes[k], best / thr[2].med,
		       best / thr[1].med);
	}
	munmap(s.map, s.size);
}

/* ---- M: many busy queues at once ---- */

/* Queue counts of the M table; seconds each measurement lasts. */
static const u32 mq_counts[] = { 1, 2, 4, 8 };
#define MQ_SECONDS	1.0
#define MQ_MAX		8

/**
 * struct mq_thr - one producer of the M table: its own file and queue
 * @bar: all producers start together
 * @stop: set by the main thread when the time is up
 * @poll: a polling queue, else kick mode (32 jobs per KICK)
 * @jobs: jobs completed; @t0, @t1: when it started and stopped
 */
struct mq_thr {
	pthread_barrier_t *bar;
	const int *stop;
	bool poll;
	u64 jobs;
	double t0, t1;
};

/*
 * Wait for job @seq of polling queue @q as libvatom's vatom_queue_wait()
 * does: 4 turns of sched_yield(), then KICK and sleep 1 us, doubling up
 * to 1 ms, with a KICK after each sleep (it only wakes a sleeping poller).
 */
static void mq_wait(int fd, const struct qb *q, u32 seq)
{
	struct drm_vatom_queue_kick k = { .queue_id = q->id };
	struct timespec ts = { 0, 1000 };
	int i;

	for (i = 0; i < 4; i++) {
		if (__atomic_load_n(&q->ctl->flags, __ATOMIC_RELAXED) &
		    DRM_VATOM_QUEUE_CTL_KICK_TO_WAIT)
			break;
		if ((int)((u32)__atomic_load_n(&q->ctl->completed,
					       __ATOMIC_ACQUIRE) - seq) >= 0)
			return;
		sched_yield();
	}
	do {
		if (xioctl(fd, DRM_IOCTL_VATOM_QUEUE_KICK, &k))
			exit(1);
		if ((int)((u32)__atomic_load_n(&q->ctl->completed,
					       __ATOMIC_ACQUIRE) - seq) >= 0)
			return;
		nanosleep(&ts, NULL);
		if (ts.tv_nsec < 1000000)
			ts.tv_nsec *= 2;
	} while (1);
}

static void *mq_main(void *arg)
{
	struct drm_vatom_ptx x = p2_packet;
	struct mq_thr *t = arg;
	int fd = open_device();
	struct surface s = buffer_create(fd, BUF_BYTES);
	struct qb q;

	qb_init(fd, &q, s.handle, &x, sizeof(x), 8, t->poll);
	pthread_barrier_wait(t->bar);
	t->jobs = 0;
	t->t0 = vt_now_s();
	while (!__atomic_load_n(t->stop, __ATOMIC_RELAXED)) {
		if (t->poll) {
			qb_poll_run(fd, &q, 256, mq_wait);
			t->jobs += 256;
		} else {
			qb_run(fd, &q, 32);
			t->jobs += 32;
		}
	}
	t->t1 = vt_now_s();
	qb_fini(fd, &q);
	munmap(s.map, s.size);
	close(fd);
	return NULL;
}

/* Aggregate jobs/s of @n producers, each with its own busy queue; 0: EBUSY. */
static double mq_run(u32 n, bool poll)
{
	pthread_t th[MQ_MAX];
	struct mq_thr t[MQ_MAX];
	pthread_barrier_t bar;
	double first = 1e300, last = 0;
	int stop = 0;
	u64 jobs = 0;
	u32 i;

	pthread_barrier_init(&bar, NULL, n + 1);
	for (i = 0; i < n; i++) {
		t[i] = (struct mq_thr){ .bar = &bar, .stop = &stop, .poll = poll };
		if (pthread_create(&th[i], NULL, mq_main, &t[i]))
			die("pthread_create", errno);
	}
	pthread_barrier_wait(&bar);
	usleep(MQ_SECONDS * 1e6);
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < n; i++) {
		pthread_join(th[i], NULL);
		jobs += t[i].jobs;
		if (t[i].t0 < first)
			first = t[i].t0;
		if (t[i].t1 > last)
			last = t[i].t1;
	}
	pthread_barrier_destroy(&bar);
	return jobs / (last - first);
}

/*
 * 1, 2, 4 and 8 producer threads, each with its own file and a busy queue
 * of 1-packet jobs, all kick mode or all polling: aggregate jobs/s.
 */
static void mq_bench(int fd)
{
	u64 max_poll = get_param(fd, DRM_VATOM_PARAM_MAX_POLL_QUEUES);
	double tk[MAX_REPS], tp[MAX_REPS];
	struct summary k, p;
	size_t c;
	int r;

	out("\n### M: many busy queues\n\n"
	    "N producer threads, each with its own file and queue of 64 "
	    "entries, publish 1-packet jobs (PTX atom.global.add.u32, 8 bytes "
	    "of results) for %.1f s: kick mode 32 per KICK, polling mode up "
	    "to 64 in flight, no system call unless NEED_WAKEUP, waiting "
	    "for completions as libvatom's vatom_queue_wait() does (4 "
	    "sched_yield(), then KICK and sleep 1 us, doubling). Aggregate "
	    "jobs/s (thousands) of all N, %d repetitions, kick and polling "
	    "alternating; median (min-max). %ld vCPUs; max_poll_queues %llu.\n\n"
	    "| busy queues | kick mode | polling mode | polling / kick (target >= 1) |\n"
	    "|---|---|---|---|\n", MQ_SECONDS, reps,
	    sysconf(_SC_NPROCESSORS_ONLN), (unsigned long long)max_poll);
	for (c = 0; c < ARRAY_SIZE(mq_counts); c++) {
		u32 n = mq_counts[c];

		if (n > max_poll) {
			out("| %u | | EBUSY past max_poll_queues | |\n", n);
			continue;
		}
		for (r = 0; r < reps; r++) {
			tk[r] = mq_run(n, false);
			tp[r] = mq_run(n, true);
		}
		k = summarize(tk, reps);
		p = summarize(tp, reps);
		out("| %u | %.1f (%.1f-%.1f) | %.1f (%.1f-%.1f) | **%.2f**%s |\n",
		    n, k.med / 1e3, k.min / 1e3, k.max / 1e3, p.med / 1e3,
		    p.min / 1e3, p.max / 1e3, p.med / k.med,
		    p.med >= k.med ? " met" : " **missed**");
		printf("M%u %.3f\n", n, p.med / k.med);
	}
}

/* ---- P4: scaling ---- */

/**
 * struct thr - one thread of P4 or of section A: its own file, pinned
 * @bar: the threads start together
 * @cpu: the vCPU it is pinned to
 * @submits: submissions (P4) or jobs (A) it makes
 * @t: seconds they took
 * @w: the work of each
 */
struct thr {
	pthread_barrier_t *bar;
	int cpu;
	u32 submits;
	double t;
	struct work *w;
};


static void *thr_main(void *arg)
{
	struct thr *t = arg;
	int fd = open_device();
	struct surface s = buffer_create(fd, BUF_BYTES);
	u32 *res = xmalloc(t->w->res_size);
	double t0;

	pin_cpu(t->cpu);
	init_memory(s.map, false);
	/* warm up: page in the stream, surface and results */
	if (submit(fd, t->w->stream, t->w->stream_size, s.handle, res,
		   t->w->res_size))
		exit(1);
	pthread_barrier_wait(t->bar);
	t0 = vt_now_s();
	for (u32 i = 0; i < t->submits; i++)
		if (submit(fd, t->w->stream, t->w->stream_size, s.handle, res,
			   t->w->res_size))
			exit(1);
	t->t = vt_now_s() - t0;
	munmap(s.map, s.size);
	free(res);
	close(fd);
	return NULL;
}

/* The same lanes natively: each thread on its own 64 KiB, pinned. */
static void *nat_thr_main(void *arg)
{
	struct thr *t = arg;
	u8 *mem = xmalloc(BUF_BYTES);
	u32 *res = xmalloc(4 * (size_t)t->w->elems);
	double t0;

	pin_cpu(t->cpu);
	init_memory(mem, false);
	native_int(mem, t->w, res, true);
	pthread_barrier_wait(t->bar);
	t0 = vt_now_s();
	for (u32 i = 0; i < t->submits; i++)
		native_int(mem, t->w, res, true);
	t->t = vt_now_s() - t0;
	free(mem);
	free(res);
	return NULL;
}

/*
 * Run @fn in @n threads (at most 2) on vCPUs 0..n-1, each making @submits
 * of @w; return the slowest one's seconds.
 */
static double threads_run(struct work *w, int n, u32 submits,
			  void *(*fn)(void *))
{
	pthread_barrier_t bar;
	pthread_t th[2];
	struct thr t[2];
	double tmax = 0;
	int i;

	pthread_barrier_init(&bar, NULL, n);
	for (i = 0; i < n; i++) {
		t[i] = (struct thr){ .bar = &bar, .cpu = i, .submits = submits,
				     .w = w };
		pthread_create(&th[i], NULL, fn, &t[i]);
	}
	for (i = 0; i < n; i++) {
		pthread_join(th[i], NULL);
		if (t[i].t > tmax)
			tmax = t[i].t;
	}
	pthread_barrier_destroy(&bar);
	return tmax;
}

/* lanes/s of @n threads on vCPUs 0..n-1, each with its own file. */
static double p4_run(struct work *w, int n, u32 submits, bool native)
{
	return (double)n * submits * w->elems /
	       threads_run(w, n, submits, native ? nat_thr_main : thr_main);
}

static void p4_scaling(void)
{
	struct work w;
	double t1[MAX_SAMPLES], t2[MAX_SAMPLES], tr[MAX_SAMPLES];
	double n1[MAX_SAMPLES], n2[MAX_SAMPLES], nr[MAX_SAMPLES];
	struct summary s1, s2, r, ns1, ns2, nsr;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	/*
	 * A round takes tens of ms and either vCPU's host thread may lose
	 * its core to a neighbour for as long: three rounds per repetition.
	 */
	const int rounds = 3 * reps;
	int i;

	out("\n### P4: two submitting threads vs one\n\n");
	if (cpus < 2) {
		out("Skipped: %ld online vCPU (VM_SMP=2 or more needed).\n",
		    cpus);
		return;
	}
	/* 4096 packets (65536 lanes) per submission, 16 submissions */
	work_build(&w, K_INT, 4096);
	for (i = 0; i < rounds; i++) {
		t1[i] = p4_run(&w, 1, 16, false);
		t2[i] = p4_run(&w, 2, 16, false);
		tr[i] = t2[i] / t1[i];
		n1[i] = p4_run(&w, 1, 16, true);
		n2[i] = p4_run(&w, 2, 16, true);
		nr[i] = n2[i] / n1[i];
	}
	s1 = summarize(t1, rounds);
	s2 = summarize(t2, rounds);
	r = summarize(tr, rounds);
	ns1 = summarize(n1, rounds);
	ns2 = summarize(n2, rounds);
	nsr = summarize(nr, rounds);
	out("Each thread: its own file (context) and 64 KiB surface, pinned "
	    "to vCPU 0 or 1, 16 synchronous submissions of 4096 vISA "
	    "DWORD_ATOMIC.ADD SIMD16 packets with Dst (65536 lanes each); "
	    "%ld vCPUs online. Throughput = all lanes / time of the slowest "
	    "thread. The native rows are the same lanes as a userspace loop "
	    "per thread on its own memory: what the VM and its host give two "
	    "threads at all. %d rounds (1 thread, 2 threads, the same "
	    "natively), median (min-max).\n\n"
	    "| threads | M lanes/s | scaling | target |\n|---|---|---|---|\n",
	    cpus, rounds);
	out("| 1, device | %.2f (%.2f-%.2f) | 1 | |\n", s1.med / 1e6,
	    s1.min / 1e6, s1.max / 1e6);
	out("| 2, device | %.2f (%.2f-%.2f) | **%.2f** (paired %.2f, "
	    "%.2f-%.2f) | >= 1.8%s |\n", s2.med / 1e6, s2.min / 1e6,
	    s2.max / 1e6, s2.med / s1.med, r.med, r.min, r.max,
	    s2.med / s1.med >= 1.8 ? " met" : " **missed**");
	out("| 1, native | %.2f (%.2f-%.2f) | 1 | |\n", ns1.med / 1e6,
	    ns1.min / 1e6, ns1.max / 1e6);
	out("| 2, native | %.2f (%.2f-%.2f) | %.2f (paired %.2f, %.2f-%.2f) "
	    "| |\n", ns2.med / 1e6, ns2.min / 1e6, ns2.max / 1e6,
	    ns2.med / ns1.med, nsr.med, nsr.min, nsr.max);
	if (ns2.med / ns1.med < 1.8)
		out("\nThe native control itself scaled %.2f: the host did not "
		    "give the VM two cores for this run (a neighbour on the "
		    "shared machine), so the device figure above says as "
		    "little about the driver; run `make -C bench vm "
		    "VM_BENCH_ARGS=\"-s 4\"` again.\n", ns2.med / ns1.med);
	printf("P4 %.3f\nP4NATIVE %.3f\n", s2.med / s1.med, ns2.med / ns1.med);
	work_free(&w);
}

/* ---- A: asynchronous jobs ---- */

#define ASYNC_PER_FENCE	32

/* A submitter of the A table (struct thr): a fence every ASYNC_PER_FENCE jobs. */
static void *async_thr_main(void *arg)
{
	struct thr *t = arg;
	int fd = open_device();
	struct surface s = buffer_create(fd, BUF_BYTES);
	struct surface rs = buffer_create(fd, t->w->res_size);
	u32 so = syncobj_create(fd);

	pin_cpu(t->cpu);
	init_memory(s.map, false);
	/* warm up: the file's scheduler, the stream buffer, the pages */
	async_jobs(fd, t->w, s.handle, rs.handle, so, ASYNC_PER_FENCE,
		   ASYNC_PER_FENCE);
	pthread_barrier_wait(t->bar);
	t->t = async_jobs(fd, t->w, s.handle, rs.handle, so, t->submits,
			  ASYNC_PER_FENCE);
	munmap(s.map, s.size);
	munmap(rs.map, rs.size);
	close(fd);
	return NULL;
}

/* Jobs/s of @n files on vCPUs 0..n-1, each submitting @jobs of @w. */
static double async_files(struct work *w, int n, u32 jobs)
{
	return n * jobs / threads_run(w, n, jobs, async_thr_main);
}

static void async_bench(int fd)
{
	const int blocks = 3 * reps;
	const u32 per = 16 * ASYNC_PER_FENCE;
	double t1[MAX_SAMPLES], t32[MAX_SAMPLES], f1[MAX_SAMPLES];
	double f2[MAX_SAMPLES], fr[MAX_SAMPLES];
	struct summary s1, s32, sf1, sf2, sfr;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct surface s, rs;
	struct work small, big;
	u32 so;
	int b;

	work_build(&small, K_INT, 1);
	/* 1024 packets (16384 lanes) per job: execution, not submission */
	work_build(&big, K_INT, 1024);
	s = buffer_create(fd, BUF_BYTES);
	rs = buffer_create(fd, small.res_size);
	so = syncobj_create(fd);
	init_memory(s.map, false);
	async_jobs(fd, &small, s.handle, rs.handle, so, per, 1);
	for (b = 0; b < blocks; b++) {
		t1[b] = per / async_jobs(fd, &small, s.handle, rs.handle, so,
					 per, 1);
		t32[b] = per / async_jobs(fd, &small, s.handle, rs.handle, so,
					  per, ASYNC_PER_FENCE);
		if (cpus < 2)
			continue;
		f1[b] = async_files(&big, 1, 4 * ASYNC_PER_FENCE);
		f2[b] = async_files(&big, 2, 4 * ASYNC_PER_FENCE);
		fr[b] = f2[b] / f1[b];
	}
	s1 = summarize(t1, blocks);
	s32 = summarize(t32, blocks);
	out("\n### A: asynchronous jobs\n\n"
	    "Jobs per second of asynchronous SUBMIT (results to a surface): "
	    "1-packet jobs (vISA DWORD_ATOMIC.ADD SIMD16 with Dst) on one "
	    "file, with an out-syncobj on every job or on every %dth, waited "
	    "for, %u jobs per block; then 1024-packet jobs (16384 lanes) "
	    "from one file, and from two files at once (a thread each, "
	    "pinned to vCPU 0 and 1), %d jobs per file, a fence every %d. "
	    "%d blocks, median (min-max).\n\n"
	    "| jobs | jobs/s (thousands) | scaling | target |\n"
	    "|---|---|---|---|\n", ASYNC_PER_FENCE, per,
	    4 * ASYNC_PER_FENCE, ASYNC_PER_FENCE, blocks);
	out("| 1 packet, a fence per job | %.2f (%.2f-%.2f) | | |\n",
	    s1.med / 1e3, s1.min / 1e3, s1.max / 1e3);
	out("| 1 packet, a fence per %d | %.2f (%.2f-%.2f) | | |\n",
	    ASYNC_PER_FENCE, s32.med / 1e3, s32.min / 1e3, s32.max / 1e3);
	printf("A1 %.0f\nA32 %.0f\n", s1.med, s32.med);
	if (cpus >= 2) {
		sf1 = summarize(f1, blocks);
		sf2 = summarize(f2, blocks);
		sfr = summarize(fr, blocks);
		out("| 1024 packets, one file | %.3f (%.3f-%.3f) | 1 | |\n",
		    sf1.med / 1e3, sf1.min / 1e3, sf1.max / 1e3);
		out("| 1024 packets, two files | %.3f (%.3f-%.3f) | **%.2f** "
		    "(paired %.2f, %.2f-%.2f) | >= 1.8%s |\n", sf2.med / 1e3,
		    sf2.min / 1e3, sf2.max / 1e3, sf2.med / sf1.med, sfr.med,
		    sfr.min, sfr.max,
		    sf2.med / sf1.med >= 1.8 ? " met" : " **missed**");
		printf("A2F %.3f\n", sf2.med / sf1.med);
	}
	munmap(s.map, s.size);
	munmap(rs.map, rs.size);
	work_free(&small);
	work_free(&big);
}

/* ---- sweep: throughput against packets per submission ---- */

static const u32 batches[] = { 1, 3, 10, 30, 100, 300, 1000, 3000, 10000,
			       30000, 100000 };
static const enum kind sweep_kinds[] = { K_INT, K_F32_V4, K_CAS,
					 K_NOC_INCR };

static void sweep(int fd, const char *dat_path)
{
	struct summary res[ARRAY_SIZE(sweep_kinds)][ARRAY_SIZE(batches)];
	u32 knee[ARRAY_SIZE(sweep_kinds)], half[ARRAY_SIZE(sweep_kinds)];
	double plateau[ARRAY_SIZE(sweep_kinds)];
	FILE *dat = dat_path ? fopen(dat_path, "w") : NULL;
	size_t ki, bi;
	int r;

	for (ki = 0; ki < ARRAY_SIZE(sweep_kinds); ki++) {
		enum kind k = sweep_kinds[ki];
		struct surface s;
		u8 *l1 = NULL;
		double top[5];
		int nt = 0;

		if (k == K_NOC_INCR)
			s = grid_create(fd, &l1);
		else
			s = buffer_create(fd, BUF_BYTES);
		for (bi = 0; bi < ARRAY_SIZE(batches); bi++) {
			struct work w;
			double v[MAX_REPS];
			u8 *results;

			work_build(&w, k, batches[bi]);
			if (w.stream_size > max_stream) {
				res[ki][bi] = (struct summary){ 0, 0, 0 };
				work_free(&w);
				continue;
			}
			results = xmalloc(w.res_size + 8);
			for (r = 0; r < reps; r++) {
				double t0 = vt_now_s(), t;
				u64 n = 0;

				do {
					if (submit(fd, w.stream, w.stream_size,
						   s.handle, results,
						   w.res_size))
						exit(1);
					n += w.elems;
					t = vt_now_s() - t0;
				} while (t < min_time);
				v[r] = n / t;
			}
			res[ki][bi] = summarize(v, reps);
			if (batches[bi] >= 1000 && nt < 5)
				top[nt++] = res[ki][bi].med;
			free(results);
			work_free(&w);
		}
		/*
		 * plateau: the median of the batches of 1000 packets and
		 * more; knee: the smallest batch at 90 % of it (per-submission
		 * overhead below 10 %), half: the smallest at 50 %.
		 */
		plateau[ki] = nt ? summarize(top, nt).med : 0;
		knee[ki] = 0;
		half[ki] = 0;
		/* the first batch size, from 1 up, to reach each level */
		for (bi = ARRAY_SIZE(batches); bi-- > 0;) {
			if (res[ki][bi].med >= 0.9 * plateau[ki])
				knee[ki] = batches[bi];
			if (res[ki][bi].med >= 0.5 * plateau[ki])
				half[ki] = batches[bi];
		}
		munmap(s.map, s.size);
	}

	out("\n### Throughput against batch size\n\n"
	    "Element operations per second (millions), synchronous "
	    "submissions of N packets each, back to back for at least "
	    "%.0f ms per measurement; median (min-max) of %d. Elements per "
	    "packet: int add 16, f32 add 4, cas 1, NoC increment 1.\n\n"
	    "| packets per submission |", min_time * 1e3, reps);
	for (ki = 0; ki < ARRAY_SIZE(sweep_kinds); ki++)
		out(" %s |", kind_name(sweep_kinds[ki]));
	out("\n|---|");
	for (ki = 0; ki < ARRAY_SIZE(sweep_kinds); ki++)
		out("---|");
	out("\n");
	for (bi = 0; bi < ARRAY_SIZE(batches); bi++) {
		out("| %u |", batches[bi]);
		for (ki = 0; ki < ARRAY_SIZE(sweep_kinds); ki++) {
			struct summary *x = &res[ki][bi];

			if (x->med == 0)
				out(" (stream over the limit) |");
			else
				out(" %.3f (%.3f-%.3f) |", x->med / 1e6,
				    x->min / 1e6, x->max / 1e6);
		}
		out("\n");
	}
	out("| plateau (median of N >= 1000) |");
	for (ki = 0; ki < ARRAY_SIZE(sweep_kinds); ki++)
		out(" %.3f |", plateau[ki] / 1e6);
	out("\n| N at 50 %% of the plateau |");
	for (ki = 0; ki < ARRAY_SIZE(sweep_kinds); ki++)
		out(" %u |", half[ki]);
	out("\n| **knee**: N at 90 %% of the plateau |");
	for (ki = 0; ki < ARRAY_SIZE(sweep_kinds); ki++)
		out(" **%u** |", knee[ki]);
	out("\n\nThe knee is where the per-submission cost has fallen "
	    "under 10 %% of a submission's time; past it, larger "
	    "submissions buy nothing.\n");

	if (dat) {
		fprintf(dat, "# packets");
		for (ki = 0; ki < ARRAY_SIZE(sweep_kinds); ki++)
			fprintf(dat, " | %s: med min max (M elements/s)",
				kind_name(sweep_kinds[ki]));
		fprintf(dat, "\n");
		for (bi = 0; bi < ARRAY_SIZE(batches); bi++) {
			fprintf(dat, "%u", batches[bi]);
			for (ki = 0; ki < ARRAY_SIZE(sweep_kinds); ki++)
				fprintf(dat, " %.6f %.6f %.6f",
					res[ki][bi].med / 1e6,
					res[ki][bi].min / 1e6,
					res[ki][bi].max / 1e6);
			fprintf(dat, "\n");
		}
		fclose(dat);
	}
	for (ki = 0; ki < ARRAY_SIZE(sweep_kinds); ki++)
		printf("KNEE %u %s\n", knee[ki], kind_name(sweep_kinds[ki]));
}

static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	snprintf(buf, len, "?");
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}

static void usage(void)
{
	fprintf(stderr, "usage: vm_bench [-c] [-o DIR] [-r reps (1-64)] "
		"[-t seconds] [-s sections] [-l row:n]\n"
		"  sections: any of 1234qamwt (default all)\n"
		"  -c: the guest counts instructions (make bench-icount): "
		"costs in instructions\n"
		"  -l: one row's call n times, nothing else (null, p2, p2v, "
		"empty, kick; scripts/vm-profile.sh)\n");
	exit(2);
}

/* The in-process device's version when it is preloaded (docs/shim.md). */
extern const char vatom_shim_version[] __attribute__((weak));

/* A null ioctl of the host's own kernel (an unknown one on /dev/null), in us. */
static double host_null_ioctl_us(void)
{
	struct timespec a, b;
	int fd = open("/dev/null", O_RDONLY), i, n = 200000;

	if (fd < 0)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++)
		if (!ioctl(fd, _IO('v', 0xff)))
			break;
	clock_gettime(CLOCK_MONOTONIC, &b);
	close(fd);
	return ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / n / 1e3;
}

int main(int argc, char **argv)
{
	const char *dir = NULL, *sections = "1234qamwt", *loop = NULL;
	char path[512], when[64], cmdline[512], clksrc[64];
	struct ratio_row row;
	struct utsname u;
	time_t now = time(NULL);
	int fd, opt;
	bool ok = true;

	while ((opt = getopt(argc, argv, "co:r:t:s:l:")) != -1) {
		switch (opt) {
		case 'c':
			counted = true;
			break;
		case 'o':
			dir = optarg;
			break;
		case 'r':
			reps = atoi(optarg);
			if (reps < 1 || reps > MAX_REPS)
				usage();
			break;
		case 't':
			min_time = atof(optarg);
			break;
		case 's':
			sections = optarg;
			break;
		case 'l':
			loop = optarg;
			break;
		default:
			usage();
		}
	}
	if (reps < 1 || reps > MAX_REPS || min_time <= 0)
		usage();
	if (dir) {
		snprintf(path, sizeof(path), "%s/vm.md", dir);
		md = fopen(path, "w");
		if (!md)
			die(path, errno);
	}

	fd = open_device();
	max_stream = get_param(fd, DRM_VATOM_PARAM_MAX_STREAM_SIZE);
	if (loop) {
		if (loop_row(fd, loop))
			usage();
		return 0;
	}
	read_line("/proc/cmdline", cmdline, sizeof(cmdline));
	read_line("/sys/devices/system/clocksource/clocksource0/"
		  "current_clocksource", clksrc, sizeof(clksrc));
	uname(&u);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", gmtime(&now));
	if (vatom_shim_version)
		out("## The in-process device (libvatom-shim.so), on the host\n\n"
		    "`make -C bench shim`: `build/shim/bench/vm_bench`, linked "
		    "dynamically, with libvatom-shim.so %s preloaded, on the host "
		    "(%ld CPUs, kernel %s, no VM), %s; %d repetitions, device and "
		    "native runs alternating; median (min-max). The device is the "
		    "shim: the engine vatom.ko runs, in the calling thread, no "
		    "system call a job. A null ioctl of the host's own kernel, "
		    "for scale: %.3f us.\n\n",
		    vatom_shim_version, sysconf(_SC_NPROCESSORS_ONLN), u.release,
		    when, reps, host_null_ioctl_us());
	else
	out("## Device path, inside the VM\n\n"
	    "`build/bench/vm_bench` in the test VM (QEMU TCG, %ld vCPUs, "
	    "guest kernel %s) against the loaded vatom.ko, %s; %d repetitions, "
	    "device and native runs alternating; median (min-max). "
	    "**TCG emulates the guest CPU: absolute numbers are not hardware "
	    "figures, only the ratios (both sides emulated alike) mean "
	    "something.** Native: the same element operations as a userspace "
	    "loop of CPU atomics in the same VM, on the same mmap'ed surface "
	    "memory, reading its addresses and operands from the same stream "
	    "bytes the device is given.\n\n"
	    "Guest kernel command line: `%s`; clocksource %s.\n",
	    sysconf(_SC_NPROCESSORS_ONLN), u.release, when, reps, cmdline,
	    clksrc);
	if (counted)
		out("\n**Counted mode** (`make bench-icount`): QEMU counts "
		    "guest instructions (`-icount shift=0,sleep=off`), the "
		    "guest clock advancing 1 ns per instruction whatever the "
		    "host does, so every cost below is a number of guest "
		    "instructions, the same from run to run; with two vCPUs, "
		    "the instructions of both (QEMU runs them in turn).\n");

	if (strchr(sections, '1')) {
		out("\n### P1: batch throughput\n\n"
		    "1 Mi lanes (65536 packets of 16 lanes) in one synchronous "
		    "submission, 64 KiB surface, lane offsets walking it word "
		    "by word; device time is the whole SUBMIT ioctl (stream "
		    "copy-in, validation, execution, results copy-out).\n\n"
		    "| device | native | device M lanes/s | native M lanes/s | "
		    "ratio (paired) | target | identical |\n"
		    "|---|---|---|---|---|---|---|\n");
		ok &= compare_run(fd, K_INT, 65536, true, &row);
		print_ratio_row("vISA DWORD_ATOMIC.ADD UD SIMD16, Dst to a "
				"result surface",
				"lock xadd, old values stored", &row, ">= 0.8",
				row.ratio.med >= 0.8);
		printf("P1 %.3f\n", row.ratio.med);
		ok &= compare_run(fd, K_INT, 65536, false, &row);
		print_ratio_row("vISA DWORD_ATOMIC.ADD UD SIMD16, Dst to user "
				"memory (bounce buffer)",
				"lock xadd, old values stored", &row, "", false);
		ok &= compare_run(fd, K_INT_NODST, 65536, false, &row);
		print_ratio_row(kind_name(K_INT_NODST), "lock add", &row, "",
				false);
	}
	if (strchr(sections, '2'))
		p2_latency(fd);
	if (strchr(sections, '3')) {
		out("\n### P3: soft-float f32 add\n\n"
		    "1 Mi f32 adds (operands and memory as in the host engine "
		    "bench) in submissions of at most %llu stream bytes, vs a "
		    "hardware-float CAS loop per element (MXCSR FTZ|DAZ for the "
		    "flushing forms). Under TCG the guest's SSE float add is "
		    "itself emulated in software, which makes the native side "
		    "slower than on hardware: the host engine bench is the "
		    "hardware figure.\n\n"
		    "| device | native | device M adds/s | native M adds/s | "
		    "ratio (paired) | target | identical |\n"
		    "|---|---|---|---|---|---|---|\n",
		    (unsigned long long)max_stream);
		ok &= compare_run(fd, K_F32_V4, 1 << 18, true, &row);
		print_ratio_row(kind_name(K_F32_V4), "float add + cmpxchg loop",
				&row, ">= 0.5", row.ratio.med >= 0.5);
		printf("P3 %.3f\n", row.ratio.med);
		ok &= compare_run(fd, K_F32, 1 << 20, true, &row);
		print_ratio_row(kind_name(K_F32), "float add + cmpxchg loop",
				&row, "", false);
		ok &= compare_run(fd, K_NOC_ACC, 1 << 18, false, &row);
		print_ratio_row(kind_name(K_NOC_ACC), "float add + cmpxchg loop",
				&row, "", false);
	}
	if (strchr(sections, '4'))
		p4_scaling();
	if (strchr(sections, 'q'))
		queue_bench(fd);
	if (strchr(sections, 'a'))
		async_bench(fd);
	if (strchr(sections, 'm'))
		mq_bench(fd);
	if (strchr(sections, 't'))
		trace_overhead(fd);
	if (strchr(sections, 'w')) {
		if (dir)
			snprintf(path, sizeof(path), "%s/sweep.dat", dir);
		sweep(fd, dir ? path : NULL);
	}
	if (!ok)
		out("\n**Device and native results differed** (see "
		    "\"identical\").\n");
	if (md)
		fclose(md);
	close(fd);
	return ok ? 0 : 1;
}
