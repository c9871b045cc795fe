/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * vatom: user-mode queues, shared by the ioctls (vatom_queue_ioctl.c),
 * the consumer (vatom_queue.c) and the poller (vatom_queue_poll.c,
 * vatom_poller.c).
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_QUEUE_H_
#define _VATOM_QUEUE_H_

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include <asm/barrier.h>

#include "vatom_device.h"
#include "vatom_exec.h"
#include "vatom_file.h"
#include "vatom_gem.h"

struct dma_fence_chain;
struct drm_syncobj;
struct eventfd_ctx;
struct mem_cgroup;
struct vatom_file;
struct vatom_poller;

/**
 * struct vatom_queue - one user-mode queue
 * @ref: the file's xarray holds one, each running KICK one
 * @vfile: the file, which outlives the queue
 * @id: the queue's id in the file (for tracepoints)
 * @lock: one consumer at a time, a KICK or the poller; protects @head,
 *	@completed, @exec, @stream and @chain
 * @dead: destroyed: a running KICK stops after its current job
 * @entries: descriptors in the ring, a power of two
 * @head: the next ring position to consume (the kernel's own copy)
 * @completed: jobs completed since creation
 * @ring_surf: the ring, referenced
 * @ctl_surf: the control page, referenced
 * @ring: kernel mapping of the ring
 * @ctl: kernel mapping of the control page
 * @exec: the control block of the batch being consumed, set up again for
 *	each: on the queue, not the consumer's stack, which the kernel
 *	would clear on every KICK (CONFIG_INIT_STACK_ALL_ZERO)
 * @stream: kernel copy of the current job's stream, charged to the file
 * @syncobj: gets a point per batch consumed, or NULL
 * @chain: the chain node of the next point, allocated before a batch
 * @eventfd: signalled once per batch consumed, or NULL
 * @poller: polling mode: the poller of the creating process, referenced;
 *	else NULL
 * @poll_node: polling mode: in the poller's list while it serves the queue
 * @memcg: polling mode: the creator's memory cgroup, which the poller's
 *	allocations for the queue are charged to
 * @idle_ns: polling mode: how long the poller polls after the last job
 * @table: the surfaces bound at creation, by slot
 */
struct vatom_queue {
	struct kref ref;
	struct vatom_file *vfile;
	u32 id;
	struct mutex lock; /* one consumer; see above */
	bool dead;
	u32 entries;
	u32 head;
	u64 completed;
	struct vatom_exec exec;
	struct vatom_surface *ring_surf;
	struct vatom_surface *ctl_surf;
	struct drm_vatom_queue_job *ring;
	struct drm_vatom_queue_ctl *ctl;
	struct vatom_stream_buf stream;
	struct drm_syncobj *syncobj;
	struct dma_fence_chain *chain;
	struct eventfd_ctx *eventfd;
	struct vatom_poller *poller;
	struct list_head poll_node;
	struct mem_cgroup *memcg;
	u64 idle_ns;
	struct vatom_binding_table table;
};

/**
 * vatom_queue_tail() - the tail userspace last published
 * @q: the queue
 *
 * Read with acquire, which pairs with userspace's release of the tail
 * after its descriptors: the consumer then sees them.
 *
 * Return: the tail, to check with vatom_queue_tail_ok().
 */
static inline u32 vatom_queue_tail(const struct vatom_queue *q)
{
	/* Pairs with userspace's release of the tail after its descriptors. */
	return smp_load_acquire(&q->ctl->tail);
}

/**
 * vatom_queue_tail_ok() - whether a tail userspace published can be consumed
 * @q: the queue
 * @tail: the tail
 *
 * Return: true when @tail is at most the ring's entries ahead of the head.
 */
static inline bool vatom_queue_tail_ok(const struct vatom_queue *q, u32 tail)
{
	return tail - READ_ONCE(q->head) <= q->entries;
}

/**
 * struct vatom_queue_list_gen - the generation of a poller's list of
 * queues, which vatom_queue_drain() reads between two jobs of a batch
 * @gen: bumped whenever a queue comes or goes (under the poller's lock)
 * @seen: the @gen the poller last copied its list at (written by the
 *	poller's thread): a queue taken off the list at generation g is no
 *	longer polled, nor drained, once @seen reaches g
 */
struct vatom_queue_list_gen {
	unsigned int gen;
	unsigned int seen;
};

/* vatom_queue.c */
int vatom_queue_drain(struct vatom_queue *q, u32 tail,
		      const struct vatom_queue_list_gen *list);

#endif /* _VATOM_QUEUE_H_ */
