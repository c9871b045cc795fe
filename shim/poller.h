/* SPDX-License-Identifier: MIT */
/*
 * poller.h: a device's poller (poller.c says how it works), for the
 * queues' ioctls (queue_ioctl.c).
 */
#ifndef _VATOM_SHIM_POLLER_H_
#define _VATOM_SHIM_POLLER_H_

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "device.h"
#include "queue.h"

/**
 * struct shim_poller - a device's polling thread (vatom_poller)
 * @refs: the device's, the thread's and each queue's
 * @dev: its device
 * @thread: the thread
 * @lock: protects the fields below it but @polled and what the thread
 *	alone touches
 * @wake: the thread sleeps (or steps aside) on it
 * @seen_cond: a detach waits on it for @seen
 * @queues: its queues; @nqueues how many
 * @list: its list's generation, bumped when a queue comes or goes, and
 *	the one of the thread's copy
 * @attached: a queue came since the last copy
 * @wakeups: wakes so far (the thread sleeps while it stays the same)
 * @stop: the last queue went
 * @users: queues (shim_pollers_lock)
 * @cpu: the CPU it is pinned to, or -1
 * @orphan: in a fork()ed child, where the thread did not come along
 * @asleep: sleeping, NEED_WAKEUP published
 * @kicked: a KICK consumed jobs of its queues while it was awake
 * @idle_ns: the longest idle time of its queues
 * @polled: the thread's copy of @queues; @npolled how many; @next where
 *	the round robin goes on
 * @step_aside_ns: the last step aside
 */
struct shim_poller {
	atomic_uint refs;
	struct shim_device *dev;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake, seen_cond;
	struct shim_queue **queues;
	u32 nqueues;
	struct shim_queue_list_gen list;
	bool attached;
	u64 wakeups;
	atomic_bool stop;
	unsigned int users;
	int cpu;
	bool orphan;
	atomic_bool asleep, kicked;
	atomic_uint_fast64_t idle_ns;
	struct shim_queue **polled;
	u32 npolled, next;
	u64 step_aside_ns;
};

/* poller.c, for queue_ioctl.c */

/*
 * The poller of @dev for a queue being created (a new one, or the one
 * there is), pinned to @cpu unless -1, referenced in *@out: 0, -EBUSY
 * (max_poll_queues), -EINVAL (pinned elsewhere) or -ENOMEM.
 */
int shim_queue_poll_start(struct shim_device *dev, int cpu,
			  struct shim_poller **out);
/* Start polling a complete queue, for its idle time. */
void shim_queue_poll_attach(struct shim_queue *q, struct shim_poller *p);
/* Take it back, waiting until the thread has left it; the last stops it. */
void shim_queue_poll_stop(struct shim_queue *q, struct shim_poller *p);
/* A queue's reference, dropped as the queue is freed. */
void shim_poller_put_queue(struct shim_poller *p);
/* Wake it if it sleeps: whether it slept (it will consume). */
bool shim_poller_wake(struct shim_poller *p);
/* A KICK consumed jobs while it was awake: step aside. */
void shim_poller_kicked(struct shim_poller *p);
/* Whether its thread is gone (a fork()ed child). */
bool shim_poller_orphan(const struct shim_poller *p);
/* In a fork()ed child: the device's poller has no thread. */
void shim_pollers_after_fork(struct shim_device *dev);

#endif /* _VATOM_SHIM_POLLER_H_ */
