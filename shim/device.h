/* SPDX-License-Identifier: MIT */
/*
 * The in-process device's state: devices, files, their accounts and
 * surfaces, as vatom.ko keeps them (driver/vatom_file.h, vatom_gem.h),
 * in userspace types. Shared by file.c, the surfaces' files (surface.c,
 * surface_ioctl.c, prime.c, noc.c) and submit.c.
 */
#ifndef _VATOM_SHIM_DEVICE_H_
#define _VATOM_SHIM_DEVICE_H_

#include <pthread.h>
#include <stdatomic.h>

#include "lock.h"
#include "shim.h"
#include "syncobj.h"
#include "tile_grid.h"
#include "typed.h"
#include "vatom_engine.h"
#include "vatom_rules.h"

/**
 * struct shim_limits - the policy limits, as vatom.ko's module
 * parameters: from $VATOM_SHIM_<NAME> (file_mem_cap, max_jobs,
 * max_submit_ops, job_timeout_ms, max_schedulers), clamped by the same
 * rules; the last two can be set at run time through their sysfs files,
 * as vatom.ko's (read and written with __atomic builtins)
 */
struct shim_limits {
	u64 file_mem_cap;
	u32 max_jobs;
	u64 max_submit_ops;
	u32 job_timeout_ms;
	u32 max_schedulers;
	u32 max_poll_queues;
};

extern struct shim_limits shim_limits;
void shim_limits_load(void);

/**
 * struct shim_device - one device the shim presents
 * @index: its number: nodes card<index> and renderD<128 + index>
 * @resets: files it reset (jobs that timed out), for innocence
 * @clients: files opened, for their client ids
 * @schedulers: its open files that have had an asynchronous job, against
 *	max_schedulers
 * @poll_queues: its polling queues, against max_poll_queues
 * @poller: the thread that polls them (poller.c), or NULL
 */
struct shim_device {
	unsigned int index;
	atomic_uint_fast64_t resets;
	atomic_uint_fast64_t clients;
	atomic_uint schedulers;
	atomic_uint poll_queues;
	struct shim_poller *poller;
};

/**
 * struct shim_account - what one file holds, against the file memory cap;
 * outlives the file while a surface it owns lives (vatom_account.c)
 * @refs: references
 * @bytes: bytes charged
 */
struct shim_account {
	atomic_uint refs;
	atomic_uint_fast64_t bytes;
};

int shim_account_charge(struct shim_account *acct, u64 bytes);
void shim_account_uncharge(struct shim_account *acct, u64 bytes);
void shim_account_put(struct shim_account *acct);

/**
 * struct shim_stream_buf - the shim's copy of a stream (vatom_stream_buf):
 * a SUBMIT's job's, kept with the file's spare job, or a queue's
 * @buf: its memory, or NULL
 * @size: bytes of @buf, charged to the file while it is held
 */
struct shim_stream_buf {
	void *buf;
	u32 size;
};

int shim_stream_buf_reserve(struct shim_stream_buf *sb,
			    struct shim_account *acct, u32 size);
void shim_stream_buf_free(struct shim_stream_buf *sb,
			  struct shim_account *acct);

/**
 * struct shim_surface - a GEM object: a memfd the engine and every
 * mapping share
 * @refs: references: handles, PRIME descriptors, jobs
 * @memfd: its memory
 * @view: what the engine sees (a mapping of @memfd of its own)
 * @mmap_size: @view.size rounded up to pages
 * @offset: its fake mmap offset
 * @charge: bytes charged for it: its pages and layouts
 * @owner: the account of the file that got its first handle, or NULL
 * @typed: typed surfaces' layout
 * @grid: tile grids' layout
 */
struct shim_surface {
	atomic_uint refs;
	int memfd;
	struct vatom_surface_view view;
	u64 mmap_size;
	u64 offset;
	u64 charge;
	struct shim_account *_Atomic owner;
	struct vatom_typed_layout *typed;
	struct vatom_tile_grid *grid;
};

void shim_surface_get(struct shim_surface *s);
void shim_surface_put(struct shim_surface *s);

struct shim_sched;
struct shim_queue;
struct shim_job;

/**
 * struct shim_file - one open device file (drm_file and vatom_file)
 * @refs: descriptors and ioctls in flight
 * @dev: its device
 * @render: opened through the render node
 * @acct: its account
 * @client_id: its number
 * @handles_lock: protects @handles and @nhandles
 * @handles: surface by GEM handle - 1, NULL where none
 * @nhandles: entries of @handles
 * @syncobjs: its syncobj handles
 * @lock: orders its submissions (vatom_file.lock)
 * @spare_job: a synchronous job's memory, kept for the file's next SUBMIT
 *	(job.c), or NULL
 * @sched: the worker of its asynchronous jobs, from the first on
 * @last_fence: the out-fence of its last asynchronous job, or NULL
 * @inflight: jobs in flight, against max_jobs
 * @submitted: jobs accepted; a job's number
 * @resets: resets it caused
 * @resets_acked: @resets when last acknowledged
 * @innocent_acked: innocent resets when last acknowledged
 * @device_resets_open: the device's resets when it was opened
 * @cancel: it is closing: its jobs stop
 * @queues_lock: protects @queues
 * @queues: its user-mode queues, by id - 1 (queue_ioctl.c)
 * @prev: the list of open files, for fork()
 * @next: the same
 */
struct shim_file {
	atomic_uint refs;
	struct shim_device *dev;
	bool render;
	struct shim_account *acct;
	u64 client_id;
	struct shim_mutex handles_lock;
	struct shim_surface **handles;
	u32 nhandles;
	struct shim_syncobjs *syncobjs;
	struct shim_mutex lock;
	struct shim_job *_Atomic spare_job;
	struct shim_sched *sched;
	struct shim_fence *last_fence;
	atomic_uint inflight;
	atomic_uint_fast64_t submitted;
	atomic_uint resets;
	atomic_uint resets_acked;
	u64 innocent_acked;
	u64 device_resets_open;
	atomic_bool cancel;
	pthread_mutex_t queues_lock;
	struct shim_queue *queues[VATOM_MAX_QUEUES];
	struct shim_file *prev, *next;
};

/**
 * struct shim_exec - the control block of one job's validation and
 * execution, whatever door it came through (vatom.ko's struct vatom_exec)
 * @ctl: the engine's; first, for the stop rule
 * @f: the file whose job it is
 * @cancel: the job stops when this becomes true (its queue destroyed),
 *	or NULL
 * @deadline: CLOCK_MONOTONIC ns by which it must be done, 0 before it runs
 */
struct shim_exec {
	struct vatom_exec_ctl ctl;
	struct shim_file *f;
	const atomic_bool *cancel;
	u64 deadline;
};

/* exec.c */
void shim_exec_init(struct shim_exec *x, struct shim_file *f,
		    const atomic_bool *cancel);
int shim_exec_validate(struct shim_exec *x, const void *stream, u32 size,
		       const struct vatom_bindings *b, u64 *needed,
		       struct vatom_stream_error *err);
int shim_exec_run(struct shim_exec *x, const void *stream, u32 size,
		  const struct vatom_bindings *b, u8 *results);
bool shim_file_guilty(struct shim_file *f);

/* surface.c */
void shim_offsets_lock(void);
void shim_offsets_unlock(void);
int shim_surface_alloc(u64 size, struct shim_surface **out);
int shim_gem_close(struct shim_file *f, void *arg);
struct shim_surface *shim_surface_lookup(struct shim_file *f, u32 handle);
int shim_handle_create(struct shim_file *f, struct shim_surface *s,
		       u32 *handle);
u32 shim_handle_of(struct shim_file *f, struct shim_surface *s);
int shim_bindings_read(struct shim_file *f, const void *ubind, u32 count,
		       struct shim_surface *surf[DRM_VATOM_MAX_SLOTS],
		       struct vatom_bindings *b, u8 *bound, u32 *nbound);
int shim_buffer_new(struct shim_file *f, u64 size, u32 *handle,
		    struct shim_surface **out);
void shim_handle_delete(struct shim_file *f, u32 handle);
void shim_file_close_handles(struct shim_file *f);

/* surface_ioctl.c */
int shim_surface_create(struct shim_file *f, void *arg);
int shim_surface_mmap_offset(struct shim_file *f, void *arg);
int shim_surface_info(struct shim_file *f, void *arg);

/* noc.c */
int shim_noc_counters(struct shim_file *f, void *arg);

/* prime.c */
int shim_prime_handle_to_fd(struct shim_file *f, void *arg);
int shim_prime_fd_to_handle(struct shim_file *f, void *arg);

/* queue_ioctl.c */
int shim_queue_create(struct shim_file *f, void *arg);
int shim_queue_destroy_ioctl(struct shim_file *f, void *arg);
int shim_queue_kick(struct shim_file *f, void *arg);
void shim_file_queues_release(struct shim_file *f);
void shim_file_queues_after_fork(struct shim_file *f);

/* submit.c */
int shim_submit(struct shim_file *f, void *arg);
int shim_reset_status(struct shim_file *f, void *arg);

/* sched.c */
void shim_file_stop_jobs(struct shim_file *f);

#endif /* _VATOM_SHIM_DEVICE_H_ */
