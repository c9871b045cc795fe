/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz.h: what the files of vatom_fuzz share (vatom_fuzz.c says what it
 * does):
 *
 *   vatom_fuzz.c     the phases, the injected faults, main()
 *   fuzz_pool.c      the errno tables and the checked ioctl, pointers and
 *                    counts, the surfaces and syncobjs a worker knows, -T's
 *                    tracing of state (fuzz_trace.c is the trace itself)
 *   fuzz_packets.c   packets of every family, and stream mutations
 *   fuzz_ops.c       one random call: SURFACE_CREATE/INFO, SUBMIT, the
 *                    counters, parameters, GEM close, PRIME, syncobjs,
 *                    RESET_STATUS, raw ioctls (vz_ops[])
 *   fuzz_queue.c     user-mode queues
 *   fuzz_ledger.c    the known-good workload and its exact totals
 */
#ifndef _VATOM_FUZZ_H_
#define _VATOM_FUZZ_H_

#include <stdatomic.h>
#include <stdbool.h>

#include "common.h"
#include "common_kernel.h"
#include "common_packets.h"

#define VZ_MAX_HANDLES	24
#define VZ_MAX_SYNCS	12
#define VZ_MAX_THREADS	16
#define VZ_SCRATCH	(64 * 1024)
#define VZ_STREAM	(64 * 1024)
/* Random descriptors for eventfds stay below this; the ledger's is above. */
#define VZ_LEDGER_EFD_MIN	64
#define VZ_GRID_SLOT	7
#define VZ_TYPED_SLOT	3
#define VZ_LEDGER_LANES	8
#define VZ_NOBODY	65534
#define VZ_MAX_ERRNO	134
#define VZ_MAX_KEEP	(4u << 20)	/* larger surfaces are not kept */
#define VZ_MAX_QUEUES	4
#define VZ_QUEUE_SURF	(64 * 1024)	/* a worker's queue streams and results */
#define VZ_NCOUNTS	4		/* the live counts checked at the end */
/* -T: no job of a trace reaches it (vatom_rules.h's largest) */
#define VATOM_TRACE_TIMEOUT_MS	600000

/* ------------------------------------------------------------------------ */
/* PRNG: splitmix64, one per worker                                          */
/* ------------------------------------------------------------------------ */

static inline __u64 vz_next(__u64 *s)
{
	__u64 z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline __u32 vz_below(__u64 *s, __u32 n)
{
	return n ? vz_next(s) % n : 0;
}

/* True with probability @pct percent. */
static inline bool vz_chance(__u64 *s, __u32 pct)
{
	return vz_below(s, 100) < pct;
}

/* ------------------------------------------------------------------------ */
/* Shared state                                                              */
/* ------------------------------------------------------------------------ */

/**
 * struct vz_report - what every worker adds to, in shared memory
 * @calls: ioctls (and mmaps) made
 * @bad: errno violations
 * @errs: failures per errno
 * @stop: phase 2 workers stop when set
 * @claimed: @first is being or has been written (no lock: a process
 *	holding one may be killed)
 * @first: the first violation, described
 */
struct vz_report {
	atomic_ullong calls;
	atomic_uint bad;
	atomic_uint errs[VZ_MAX_ERRNO];
	atomic_int stop;
	atomic_int claimed;
	char first[512];
};

extern struct vz_report *vz_rep;
extern char vz_nodes[2][VT_PATH_MAX];
extern char vz_stats[2][VT_PATH_MAX * 2];
extern char vz_limits[2][VT_PATH_MAX * 2];
extern int vz_ndev;
extern bool vz_verbose;
extern bool vz_faults;		/* -F */

/* Memory the pointer mutations point into. */
extern void *vz_none;		/* PROT_NONE */
extern void *vz_ro;		/* read-only, random bytes */

/**
 * struct vz_surf - a surface the worker knows
 * @h: its handle on the worker's file
 * @kind: DRM_VATOM_SURFACE_*
 * @size: addressable bytes
 * @w: a tile grid's width; @gh its height; @profile its NoC profile
 */
struct vz_surf {
	__u32 h, kind;
	__u64 size;
	__u32 w, gh, profile;
};

/**
 * struct vz_queue - a queue a worker made
 * @fd: the file it was made on
 * @id: its id there
 * @entries: ring entries
 * @tail: the worker's producer position
 * @poll: a polling queue
 * @ring: the ring, mapped, or NULL
 * @ctl: the control page, mapped, or NULL
 */
struct vz_queue {
	int fd;
	__u32 id, entries, tail;
	bool poll;
	struct drm_vatom_queue_job *ring;
	struct drm_vatom_queue_ctl *ctl;
};

/**
 * struct vz_worker - one fuzzing thread
 * @rng: its PRNG state
 * @fd: its vatom file (shared with others in phase 2 when @shared)
 * @fd2: a file of the second device, or -1
 * @mt: phase 2: other threads may close its files
 * @id: thread index
 * @surf: known surfaces; @nsurf how many
 * @sync: known syncobjs; @nsync how many
 * @scratch: RW user memory for results, descriptors and tile types
 * @stream: the stream buffer, followed by a PROT_NONE page
 * @results: user results to use instead of @scratch (phase 2's victim)
 * @queue: known queues; @nqueue how many
 * @qsurf: the surface of queue jobs' streams and results, mapped at @qmap
 * @efd: an eventfd queues may signal; @pipefd a pipe (not an eventfd)
 * @op: the operation being made (for reports)
 * @iter: calls made
 */
struct vz_worker {
	__u64 rng;
	int fd, fd2;
	bool mt;
	int id;
	struct vz_surf surf[VZ_MAX_HANDLES];
	int nsurf;
	__u32 sync[VZ_MAX_SYNCS];
	int nsync;
	__u8 *scratch;
	__u8 *stream;
	void *results;
	struct vz_queue queue[VZ_MAX_QUEUES];
	int nqueue;
	__u32 qsurf;
	__u8 *qmap;
	int efd, pipefd[2];
	const char *op;
	unsigned long long iter;
};

/* fuzz_pool.c */
void vz_ack(int fd);
int vz_ioctl(struct vz_worker *w, int fd, unsigned long req, void *arg,
		    bool core);
bool vz_ptr_known(struct vz_worker *w, __u64 p, const void *valid);
__u64 vz_ptr(struct vz_worker *w, const void *valid, __u32 bad_pct);
const char *vz_ptr_name(struct vz_worker *w, __u64 p, char *buf, size_t len);
__u32 vz_count(struct vz_worker *w, __u32 usual);
__u32 vz_handle(struct vz_worker *w, __u32 kind_hint);
struct vz_surf *vz_find(struct vz_worker *w, __u32 kind);
void vz_forget(struct vz_worker *w, int i);
void vz_remember(struct vz_worker *w, __u32 h, __u32 kind, __u64 size);
void vz_grid_shape(struct vz_worker *w, __u32 h, __u32 gw, __u32 gh,
			  __u32 profile);
void vz_trace_clear(struct vz_worker *w);
void vz_trace_out(struct vz_worker *w);
void vz_trace_drain(struct vz_worker *w);
void vz_trace_state(struct vz_worker *w, bool surfaces);
void vz_seed_pool(struct vz_worker *w);
int vz_worker_init(struct vz_worker *w, int id, __u64 seed, int fd, int fd2);
/* After vz_queues_forget() (fuzz_queue.c): what the pool set up. */
void vz_worker_fini(struct vz_worker *w);

/* fuzz_packets.c */
void vz_noc(struct vz_worker *w, struct vt_stream *s, __u32 profile,
		   __u32 gw, __u32 gh);
void vz_packet(struct vz_worker *w, struct vt_stream *s, __u64 bsize,
	       __u32 families, __u32 profile, __u32 gw, __u32 gh, bool jitter);
__u8 *vz_stream_place(struct vz_worker *w, const struct vt_stream *s);
void vz_mutate_stream(struct vz_worker *w, struct vt_stream *s);

/* fuzz_ops.c */
void vz_op_submit(struct vz_worker *w);
void vz_op_random(struct vz_worker *w);

/* fuzz_queue.c */
void vz_queues_forget(struct vz_worker *w);
void vz_queue_jobs(struct vz_worker *w);
void vz_op_queue(struct vz_worker *w);

/* fuzz_ledger.c */
/* The ledger's polling queue: ring entries, and stream bytes per entry. */
#define VZ_LQ_ENTRIES	64
#define VZ_LQ_STRIDE	512

/**
 * struct vz_ledger - valid submissions and queue jobs with a known total
 * @fd: its own file (its jobs are ordered only among themselves)
 * @buf: a 4 KiB buffer, mapped at @map; @res a result surface
 * @out: a syncobj each asynchronous submission signals
 * @sum: what the lanes must hold
 * @subs: submissions made
 * @bad: a submission or job failed
 * @q: a polling queue adding to @buf (id 0: none), its ring @ring, page
 *	@ctl, streams in @qs (mapped at @qmap)
 * @qsync: a timeline syncobj the queue adds a point to per batch
 * @efd: an eventfd it signals per batch
 * @jobs: jobs published on it
 * @qk: what the job in each ring entry adds
 * @seen: queue jobs whose status was read
 * @async_k: what the asynchronous job in flight adds (0: none)
 * @failed: jobs that failed as injected faults allow (-F), adding nothing
 *
 * @sum counts each job when it is submitted or published, and takes it
 * back when it turns out to have failed.
 */
struct vz_ledger {
	int fd;
	__u32 buf, res, out;
	__u32 *map;
	__u32 sum[VZ_LEDGER_LANES];
	unsigned int subs, bad;
	char why[160];
	__u32 q, qs, qsync;
	struct drm_vatom_queue_job *ring;
	struct drm_vatom_queue_ctl *ctl;
	__u8 *qmap;
	int efd;
	__u32 jobs;
	__u32 qk[VZ_LQ_ENTRIES];
	__u32 seen, async_k;
	unsigned int failed;
};

double vz_now(void);
int vz_ledger_init(struct vz_ledger *l);
void vz_ledger_add(struct vz_ledger *l, __u64 *rng);
bool vz_ledger_check(struct vz_ledger *l);

#endif /* _VATOM_FUZZ_H_ */
