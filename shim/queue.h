/* SPDX-License-Identifier: MIT */
/*
 * queue.h: a user-mode queue (struct shim_queue) and its consumption
 * (queue.c), for its ioctls (queue_ioctl.c) and the poller (poller.c).
 */
#ifndef _VATOM_SHIM_QUEUE_H_
#define _VATOM_SHIM_QUEUE_H_

#include <stdatomic.h>
#include <stdbool.h>

#include "device.h"

struct shim_poller;

/**
 * struct shim_queue - one user-mode queue (vatom_queue)
 * @refs: the file's table's, and each KICK's
 * @f: its file
 * @entries: descriptors in the ring, a power of two
 * @lock: one KICK at a time; protects @head, @completed, @chain
 * @dead: destroyed: a KICK stops after its current job
 * @ring_surf: the ring's buffer, referenced
 * @ctl_surf: the control page's, referenced
 * @ring: the ring, in the shim's mapping
 * @ctl: the control page
 * @head: the next position to consume
 * @completed: jobs completed since creation
 * @surf: the bound surfaces, by slot, referenced
 * @b: their views
 * @syncobj: the timeline it adds a point to per batch, or NULL
 * @chain: the next point's node, allocated before the batch
 * @eventfd: a descriptor of the eventfd it signals per batch, or -1
 * @sb: the copy of the stream of the job it consumes, charged to the file
 * @poller: polling mode: its poller, referenced; NULL in kick mode
 * @idle_ns: polling mode: its idle time
 */
struct shim_queue {
	atomic_uint refs;
	struct shim_file *f;
	u32 entries;
	struct shim_mutex lock;
	atomic_bool dead;
	struct shim_surface *ring_surf, *ctl_surf;
	struct drm_vatom_queue_job *ring;
	struct drm_vatom_queue_ctl *ctl;
	u32 head;
	u64 completed;
	struct shim_surface *surf[DRM_VATOM_MAX_SLOTS];
	struct vatom_bindings b;
	struct shim_syncobj *syncobj;
	struct shim_chain *chain;
	int eventfd;
	struct shim_stream_buf sb;
	struct shim_poller *poller;
	u64 idle_ns;
};

/**
 * struct shim_queue_list_gen - a poller's list of queues, as a batch
 * sees it (vatom_queue_list_gen)
 * @gen: bumped when a queue comes or goes
 * @seen: the @gen of the poller thread's copy of the list
 */
struct shim_queue_list_gen {
	atomic_uint gen;
	unsigned int seen;
};

bool shim_queue_tail_ok(struct shim_queue *q, u32 tail);
int shim_queue_drain(struct shim_queue *q, u32 tail,
		     struct shim_queue_list_gen *list);

/* for poller.c */

struct drm_vatom_queue_ctl *shim_queue_ctl(struct shim_queue *q);
u64 shim_queue_idle_ns(struct shim_queue *q);
/* Whether @q has a batch the poller may consume; @tail gets its tail. */
bool shim_queue_has_work(struct shim_queue *q, u32 *tail);
/* The poller's drain of @q, unless a KICK is at it. */
void shim_queue_poll_drain(struct shim_queue *q,
			   struct shim_queue_list_gen *list);

#endif /* _VATOM_SHIM_QUEUE_H_ */
