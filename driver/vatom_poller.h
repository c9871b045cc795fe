/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * vatom: the poller of user-mode queues, one per process and device: its
 * state, shared by its thread (vatom_poller.c) and the queues it serves
 * (vatom_queue_poll.c).
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_POLLER_H_
#define _VATOM_POLLER_H_

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include "vatom_queue.h"

struct pid;
struct task_struct;
struct vatom_device;

/**
 * struct vatom_poller - the polling thread of one process on one device
 * @ref: held by the thread's life and by each queue that was given the
 *	poller, until the queue is freed (a late KICK may still wake it)
 * @node: in vatom_poller_list
 * @vdev: the device
 * @tgid: the process whose queues it serves, referenced
 * @task: the thread, referenced
 * @users: queues given the poller and not yet stopped; the last one stops
 *	the thread
 * @cpu: the CPU the thread is pinned to, or -1 (the first queue to name
 *	one pins it, for good)
 * @lock: protects @queues, @list.gen and @idle_ns (held while a queue comes or
 *	goes, and while the thread copies @queues or publishes flags; never
 *	while it polls or drains)
 * @queues: the queues it serves, by &vatom_queue.poll_node
 * @list: the generation of @queues, and the one @polled was last copied
 *	at (vatom_queue_drain() leaves a batch when they differ)
 * @idle_ns: the longest idle time of @queues
 * @asleep: the poller has published NEED_WAKEUP and sleeps, or is about to
 * @attached: a queue came since the poller last copied @queues: its idle
 *	time starts again when it copies them, so a new queue starts with
 *	it awake for a whole idle time (and no more: the UAPI's poll_idle_us
 *	after the last job)
 * @kicked: a KICK consumed jobs of one of @queues while the poller was
 *	awake: their producers do their own work, and the poller steps aside
 * @step_aside_ns: how long the poller last stepped aside (doubled next
 *	time while KICKs keep doing the work; 0 once it drains a batch itself)
 * @npolled: the thread's own: entries of @polled
 * @next: the thread's own: the entry of @polled it looks at first, round
 *	robin
 * @polled: the thread's own copy of @queues, which it polls without a lock;
 *	room for max_poll_queues, all a device has
 */
struct vatom_poller {
	struct kref ref;
	struct list_head node;
	struct vatom_device *vdev;
	struct pid *tgid;
	struct task_struct *task;
	unsigned int users; /* protected by vatom_poller_lock */
	int cpu; /* protected by vatom_poller_lock */
	struct mutex lock; /* see above */
	struct list_head queues;
	struct vatom_queue_list_gen list;
	u64 idle_ns;
	bool asleep;
	bool attached;
	bool kicked;
	u64 step_aside_ns;
	unsigned int npolled;
	unsigned int next;
	struct vatom_queue *polled[];
};

int vatom_poller_thread(void *data);

#endif /* _VATOM_POLLER_H_ */
