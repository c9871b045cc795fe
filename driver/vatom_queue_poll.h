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

#endif /* _VATOM_QUEUE_POLL_H_ */
