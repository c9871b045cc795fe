// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The poller's thread (vatom_queue_poll.c starts and stops it): polls the
 * rings of its queues round robin and consumes what userspace publishes,
 * so a job costs no system call (the io_uring SQPOLL pattern).
 *
 * It polls while work keeps coming and for about the longest idle time
 * of its queues after the last job, then publishes NEED_WAKEUP on every
 * queue and sleeps until a KICK or a new queue wakes it. The sleep cannot
 * lose a job: the poller stores the flags, then (full barrier) reads the
 * tails; the producer stores its tail, then (full barrier) reads the
 * flags. One of the two sees the other's store.
 *
 * Idle time is wall time (one second at most, however loaded its CPU);
 * meanwhile the poller gives way to any other task that wants its CPU,
 * and calls cond_resched() on every turn. When KICKs do the work of its
 * queues while it is awake, it steps aside a while (KICK_TO_WAIT) rather
 * than compete with their producers for the CPUs.
 *
 * It polls and drains from its own copy of its list of queues, without a
 * lock: a queue that comes or goes bumps a generation, and the poller
 * copies the list again between two batches, which is what a detach
 * waits for.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/memcontrol.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/mm.h>
#include <linux/sched/stat.h>
#include <linux/wait_bit.h>

#include "vatom_fault.h"
#include "vatom_poller.h"
#include "vatom_queue.h"

/* Whether @q has a batch the poller may consume; @tail gets its tail. */
static bool vatom_queue_has_work(struct vatom_queue *q, u32 *tail)
{
	*tail = vatom_queue_tail(q);
	return *tail != READ_ONCE(q->head) && vatom_queue_tail_ok(q, *tail);
}

/*
 * Copy @p->queues to @p->polled if a queue came or went since the last
 * copy, and say so to a detach waiting for it. Only between two batches:
 * from here on, the thread does not touch a queue that went.
 * Return: true when a queue came: its idle time starts now.
 */
static bool vatom_poller_refresh(struct vatom_poller *p)
{
	struct vatom_queue *q;
	unsigned int n = 0;
	bool attached;

	if (READ_ONCE(p->list.gen) == p->list.seen)
		return false;
	mutex_lock(&p->lock);
	list_for_each_entry(q, &p->queues, poll_node)
		p->polled[n++] = q;
	p->npolled = n;
	p->next = 0;
	WRITE_ONCE(p->list.seen, p->list.gen);
	attached = p->attached;
	p->attached = false;
	mutex_unlock(&p->lock);
	/* The store before the waiter's check of the wait queue. */
	smp_mb();
	wake_up_var(&p->list.seen);
	return attached;
}

/*
 * The next queue with work, round robin, or NULL. Lockless: the thread
 * alone reads and writes @p->polled, and the queues in it stay until it
 * copies the list again.
 */
static struct vatom_queue *vatom_poller_next(struct vatom_poller *p)
{
	unsigned int i, n = p->npolled, at = p->next;
	struct vatom_queue *q;
	u32 tail;

	for (i = 0; i < n; i++) {
		q = p->polled[at];
		if (++at == n)
			at = 0;
		if (vatom_queue_has_work(q, &tail)) {
			p->next = at;
			return q;
		}
	}
	return NULL;
}

/*
 * Consume what @q has, unless a KICK is at it (it holds the lock: the
 * poller moves on rather than wait), charging the allocations to the
 * creator's memory cgroup. An injected stall (vatom_fault.c) holds the
 * poller first, with the queue's work waiting, as a preempted or wedged
 * poller would.
 */
static void vatom_poller_drain(struct vatom_queue *q)
{
	unsigned long stall = vatom_fault_poll_stall();
	struct mem_cgroup *old_memcg;
	int ret = 0;
	u32 tail;

	if (stall)
		schedule_timeout_interruptible(stall);
	old_memcg = set_active_memcg(q->memcg);

	if (mutex_trylock(&q->lock)) {
		if (vatom_queue_has_work(q, &tail))
			ret = vatom_queue_drain(q, tail, &q->poller->list);
		mutex_unlock(&q->lock);
	}
	set_active_memcg(old_memcg);
	/* Out of memory for the syncobj point: nothing consumed; back off. */
	if (ret == -ENOMEM)
		schedule_timeout_interruptible(1);
}

/*
 * Publish NEED_WAKEUP on every queue and sleep, unless one has work (a
 * tail we refuse is none: only a KICK after a fix, or the idle time,
 * makes us look at it again).
 */
static void vatom_poller_sleep(struct vatom_poller *p)
{
	struct vatom_queue *q;
	bool work = false;
	u32 tail;

	mutex_lock(&p->lock);
	WRITE_ONCE(p->asleep, true);
	list_for_each_entry(q, &p->queues, poll_node)
		WRITE_ONCE(q->ctl->flags, DRM_VATOM_QUEUE_CTL_NEED_WAKEUP);
	/*
	 * A full barrier, paired with the producer's between its tail store
	 * and flags load; from here a KICK or a new queue wakes us.
	 */
	set_current_state(TASK_INTERRUPTIBLE);
	list_for_each_entry(q, &p->queues, poll_node)
		work |= vatom_queue_has_work(q, &tail);
	/* A queue went, and its detach waits for our copy of the list. */
	work |= p->list.gen != p->list.seen;
	mutex_unlock(&p->lock);
	if (!work && !kthread_should_stop())
		schedule();
	__set_current_state(TASK_RUNNING);

	mutex_lock(&p->lock);
	list_for_each_entry(q, &p->queues, poll_node)
		WRITE_ONCE(q->ctl->flags, 0);
	WRITE_ONCE(p->asleep, false);
	mutex_unlock(&p->lock);
}

/* Empty polls between two readings of the clock: it is not cheap in a VM. */
#define VATOM_POLL_CLOCK_EVERY	64

/*
 * One empty poll of every queue. Idle time is wall time since the first
 * empty poll after the last job (@idle_since, 0: not read yet), whatever
 * the CPU's load: a poller that only gives way to other tasks must still
 * go to sleep after its idle time, or it would spin for ever on exactly
 * the machines that are short of CPU.
 *
 * When another task wants this CPU (maybe a producer, spinning on our
 * completions: polling would only make it wait for the next tick) the
 * poller gives way, as KVM's halt polling does, and reads the clock on
 * every turn: the schedule() costs more than the read. Otherwise it reads
 * the clock once per VATOM_POLL_CLOCK_EVERY empty polls.
 *
 * Return: true when the poller has been idle for its idle time and should
 * sleep.
 */
static bool vatom_poller_idle(struct vatom_poller *p, u64 *idle_since,
			      unsigned int *empty)
{
	bool busy = !single_task_running();
	u64 now;

	if (!busy && ++*empty % VATOM_POLL_CLOCK_EVERY)
		return false;
	now = local_clock();
	if (!*idle_since) {
		*idle_since = now;
	} else if ((s64)(now - *idle_since) >= (s64)READ_ONCE(p->idle_ns)) {
		/* Signed: a clock read on another CPU may be a little behind. */
		return true;
	}
	if (busy)
		schedule();
	return false;
}

/* Publish @flags in the control page of each of @p's queues. */
static void vatom_poller_flags(struct vatom_poller *p, u32 flags)
{
	struct vatom_queue *q;

	mutex_lock(&p->lock);
	list_for_each_entry(q, &p->queues, poll_node)
		WRITE_ONCE(q->ctl->flags, flags);
	mutex_unlock(&p->lock);
}

/*
 * Bounds of a poller's step aside: the first is short, so a producer that
 * kicked once loses little; the last bounds the wait of one that only
 * spins (the UAPI's "at most 4 ms").
 */
#define VATOM_POLL_ASIDE_MIN_NS	(16 * NSEC_PER_USEC)
#define VATOM_POLL_ASIDE_MAX_NS	(4 * NSEC_PER_MSEC)

/*
 * After a KICK did jobs of our queues while we were awake: their
 * producers wait by kicking and do the work on their own CPUs, so a
 * poller would only take a CPU from them and bounce the rings between
 * CPUs (issue 24: 0.69-0.91 of kick mode's jobs/s with the poller in the
 * way, about 1.0 aside). Step aside for twice as long as last time (from
 * VATOM_POLL_ASIDE_MIN_NS, up to VATOM_POLL_ASIDE_MAX_NS), with
 * KICK_TO_WAIT set so waiters kick at once rather than yield first, and
 * without NEED_WAKEUP: a producer that does not kick waits at most that.
 * KICKs meanwhile consume, as while we are awake. A wake (a queue coming
 * or going, a stop) ends it early; a whole one without a KICK doing work,
 * and the next starts short again.
 */
static void vatom_poller_step_aside(struct vatom_poller *p)
{
	ktime_t t;

	WRITE_ONCE(p->kicked, false);
	p->step_aside_ns = clamp(p->step_aside_ns * 2, VATOM_POLL_ASIDE_MIN_NS,
				 VATOM_POLL_ASIDE_MAX_NS);
	vatom_poller_flags(p, DRM_VATOM_QUEUE_CTL_KICK_TO_WAIT);
	t = ns_to_ktime(p->step_aside_ns);
	set_current_state(TASK_INTERRUPTIBLE);
	if (READ_ONCE(p->list.gen) == p->list.seen && !kthread_should_stop())
		schedule_hrtimeout(&t, HRTIMER_MODE_REL);
	__set_current_state(TASK_RUNNING);
	vatom_poller_flags(p, 0);
}

/**
 * vatom_poller_thread() - the poller's thread function
 * @data: the &struct vatom_poller, which the thread's reference keeps
 *
 * Return: 0, once stopped (kthread_stop()).
 */
int vatom_poller_thread(void *data)
{
	struct vatom_poller *p = data;
	unsigned int empty = 0;
	u64 idle_since = 0;	/* 0: not read since the last job */
	struct vatom_queue *q;
	bool kicked;
	int cpu;

	/*
	 * Pinned before its first run, which the kthread() of newer kernels
	 * undoes (kthread_affine_node()): pin it again. vatom_poller_pin()
	 * names the CPU before it pins the thread, so one of the two sees
	 * the other.
	 */
	cpu = READ_ONCE(p->cpu);
	if (cpu >= 0)
		set_cpus_allowed_ptr(current, cpumask_of(cpu));
	while (!kthread_should_stop()) {
		if (vatom_poller_refresh(p)) {
			empty = 0;	/* a new queue: a whole idle time */
			idle_since = 0;
		}
		kicked = READ_ONCE(p->kicked);
		q = kicked ? NULL : vatom_poller_next(p);
		if (q) {
			vatom_poller_drain(q);
			p->step_aside_ns = 0;
			empty = 0;
			idle_since = 0;
		} else if (kicked) {
			vatom_poller_step_aside(p);
			empty = 0;
			idle_since = 0;
		} else if (vatom_poller_idle(p, &idle_since, &empty)) {
			vatom_poller_sleep(p);
			idle_since = 0;
		} else {
			/*
			 * An empty turn: PAUSE, as any spin-wait should. An
			 * SMT sibling (the producer, maybe) gets the core's
			 * resources meanwhile, and under QEMU's TCG the
			 * vCPU gives way to the next one.
			 */
			cpu_relax();
		}
		cond_resched();
	}
	return 0;
}
