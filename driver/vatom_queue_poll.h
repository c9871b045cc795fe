/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * vatom: a polling queue's poller, one per process and device: found or
 * started, given queues and stopped (vatom_queue_poll.c).
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_QUEUE_POLL_H_
#define _VATOM_QUEUE_POLL_H_

#include <linux/types.h>

#include "vatom_poller.h"
#include "vatom_queue.h"

struct vatom_device;

unsigned int vatom_pollers(struct vatom_device *vdev);
int vatom_queue_poll_start(struct vatom_queue *q, u32 idle_us, int cpu);
void vatom_queue_poll_attach(struct vatom_queue *q);
bool vatom_queue_poll_wake(struct vatom_queue *q);
void vatom_queue_poll_kicked(struct vatom_queue *q);
void vatom_queue_poll_stop(struct vatom_queue *q);
void vatom_queue_poll_put(struct vatom_queue *q);

/**
 * vatom_queue_poll_detaching() - whether the poller is to leave the batch
 * it drains on @q between two jobs: a queue came or went, and a detach
 * waits for the poller to copy its list again (vatom_queue_poll_stop()),
 * which bounds that wait by one job (the job timeout), not a batch
 * @q: the queue the poller drains, polling mode
 *
 * Return: true when the list changed since the poller last copied it.
 */
static inline bool vatom_queue_poll_detaching(const struct vatom_queue *q)
{
	const struct vatom_poller *p = q->poller;

	/* @seen is the poller's own, and this is the poller. */
	return READ_ONCE(p->gen) != p->seen;
}

#endif /* _VATOM_QUEUE_POLL_H_ */
