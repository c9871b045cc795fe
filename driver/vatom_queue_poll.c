// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Polling mode of user-mode queues (docs/queues.md): a kernel thread per
 * queue consumes the ring as userspace moves its tail, so a job costs no
 * system call (the io_uring SQPOLL pattern).
 *
 * The poller polls while work keeps coming and for about idle_ns after the
 * last job, then publishes NEED_WAKEUP and sleeps until a KICK wakes it. The
 * sleep cannot lose a job: the poller stores the flag, then (full barrier)
 * reads the tail; the producer stores the tail, then (full barrier) reads
 * the flag. One of the two sees the other's store.
 *
 * What bounds it: a device runs at most max_poll_queues pollers; a poller
 * polls an empty ring for at most the queue's idle time (one second at
 * most, wall time, however loaded its CPU), giving way to any other task
 * that wants its CPU meanwhile; calls cond_resched() on every turn, runs
 * at its creator's nice value in its creator's cgroups (so the CPU it
 * burns is the creator's), and charges what it allocates to the creator's
 * memory cgroup as well as to the file. It stops when its queue is
 * destroyed or its file closed, which wait for it: a job it is running
 * stops at its next checkpoint.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <linux/cgroup.h>
#include <linux/kthread.h>
#include <linux/memcontrol.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/stat.h>
#include <linux/sched/task.h>
#include <linux/sched/clock.h>

#include "vatom_job.h"
#include "vatom_queue.h"

static unsigned int max_poll_queues = 4;
module_param(max_poll_queues, uint, 0444);
MODULE_PARM_DESC(max_poll_queues,
		 "Polling queues (each a kernel thread) a device runs at once (default: 4)");

/* Largest drm_vatom_queue_create.poll_idle_us: one second. */
#define VATOM_MAX_POLL_IDLE_US	1000000

/**
 * vatom_max_poll_queues() - the max_poll_queues parameter
 *
 * Return: how many polling queues a device runs at once.
 */
unsigned int vatom_max_poll_queues(void)
{
	return max_poll_queues;
}

/**
 * vatom_max_poll_idle_us() - the largest idle time of a poller
 *
 * Return: microseconds.
 */
u32 vatom_max_poll_idle_us(void)
{
	return VATOM_MAX_POLL_IDLE_US;
}

/* &vatom_exec_ctl.stop of a poller's jobs: the queue is going away. */
static bool vatom_queue_poller_stopped(const struct vatom_exec_ctl *ctl)
{
	return kthread_should_stop();
}

/*
 * Publish NEED_WAKEUP and sleep, unless the ring has work (or a tail we
 * refuse, which only a KICK after a fix makes us look at again).
 */
static void vatom_queue_poll_sleep(struct vatom_queue *q)
{
	u32 tail;

	set_current_state(TASK_INTERRUPTIBLE);
	WRITE_ONCE(q->ctl->flags, DRM_VATOM_QUEUE_CTL_NEED_WAKEUP);
	/* Pairs with the producer's barrier between tail store and flags load. */
	smp_mb();
	tail = READ_ONCE(q->ctl->tail);
	if ((tail == q->head || !vatom_queue_tail_ok(q, tail)) &&
	    !kthread_should_stop())
		schedule();
	__set_current_state(TASK_RUNNING);
	WRITE_ONCE(q->ctl->flags, 0);
}

/* Empty polls between two readings of the clock: it is not cheap in a VM. */
#define VATOM_POLL_CLOCK_EVERY	64

/*
 * One empty poll of @q. Idle time is wall time since the first empty poll
 * after the last job (@idle_since, 0: not read yet), whatever the CPU's
 * load: a poller that only gives way to other tasks must still go to
 * sleep after the queue's idle time, or it would spin for ever on exactly
 * the machines that are short of CPU.
 *
 * When another task wants this CPU (maybe the producer, spinning on our
 * completions: polling would only make it wait for the next tick) the
 * poller gives way, as KVM's halt polling does, and reads the clock on
 * every turn: the schedule() costs more than the read. Otherwise it reads
 * the clock once per VATOM_POLL_CLOCK_EVERY empty polls.
 *
 * Return: true when the poller has been idle for the queue's idle time and
 * should sleep.
 */
static bool vatom_queue_poll_idle(struct vatom_queue *q, u64 *idle_since,
				  unsigned int *empty)
{
	bool busy = !single_task_running();
	u64 now;

	if (!busy && ++*empty % VATOM_POLL_CLOCK_EVERY)
		return false;
	now = local_clock();
	if (!*idle_since) {
		*idle_since = now;
	} else if ((s64)(now - *idle_since) >= (s64)q->idle_ns) {
		/* Signed: a clock read on another CPU may be a little behind. */
		return true;
	}
	if (busy)
		schedule();
	return false;
}

static int vatom_queue_poll_thread(void *data)
{
	struct vatom_queue *q = data;
	struct mem_cgroup *old_memcg = set_active_memcg(q->memcg);
	unsigned int empty = 0;
	u64 idle_since = 0;	/* 0: not read since the last job */

	while (!kthread_should_stop()) {
		/* Pairs with the producer's release of the tail. */
		u32 tail = smp_load_acquire(&q->ctl->tail);
		int ret = 0;

		if (tail != q->head && vatom_queue_tail_ok(q, tail)) {
			/* The only consumer: KICK just wakes us. */
			ret = vatom_queue_drain(q, tail);
			empty = 0;
			idle_since = 0;
		} else if (tail != q->head) {
			vatom_queue_poll_sleep(q);	/* a tail we refuse */
			idle_since = 0;
		} else if (vatom_queue_poll_idle(q, &idle_since, &empty)) {
			vatom_queue_poll_sleep(q);
			idle_since = 0;
		}
		/* Out of memory for the syncobj point: nothing consumed; back off. */
		if (ret == -ENOMEM)
			schedule_timeout_interruptible(1);
		cond_resched();
	}
	set_active_memcg(old_memcg);
	return 0;
}

/**
 * vatom_queue_poll_start() - give a queue being created its poller
 * @q: the queue, not yet visible to userspace
 * @idle_us: drm_vatom_queue_create.poll_idle_us, checked
 *
 * The thread is created stopped, in the caller's cgroups and at its nice
 * value; vatom_queue_poll_run() starts it once the queue is complete, and
 * vatom_queue_poll_stop() stops it (whether it ran or not).
 *
 * Return: 0; -EBUSY when the device runs max_poll_queues pollers; or the
 * error of creating the thread or moving it to the caller's cgroups.
 */
int vatom_queue_poll_start(struct vatom_queue *q, u32 idle_us)
{
	struct vatom_device *vdev = q->vfile->vdev;
	struct task_struct *t;
	int ret;

	if (atomic_inc_return(&vdev->poll_queues) > max_poll_queues) {
		atomic_dec(&vdev->poll_queues);
		return -EBUSY;
	}
	q->idle_ns = (u64)(idle_us ?: DRM_VATOM_QUEUE_POLL_IDLE_US_DEFAULT) *
		     NSEC_PER_USEC;
	q->stop = vatom_queue_poller_stopped;

	t = kthread_create(vatom_queue_poll_thread, q, "vatom-poll/%d",
			   task_pid_nr(current));
	if (IS_ERR(t)) {
		atomic_dec(&vdev->poll_queues);
		return PTR_ERR(t);
	}
	get_task_struct(t);
	q->poller = t;

	ret = cgroup_attach_task_all(current, t);
	if (ret) {
		vatom_queue_poll_stop(q);
		return ret;
	}
	set_user_nice(t, task_nice(current));
	q->memcg = get_mem_cgroup_from_mm(current->mm);
	return 0;
}

/**
 * vatom_queue_poll_run() - start a poller vatom_queue_poll_start() made
 * @q: the queue, complete
 */
void vatom_queue_poll_run(struct vatom_queue *q)
{
	wake_up_process(q->poller);
}

/**
 * vatom_queue_poll_stop() - stop a queue's poller and wait for it
 * @q: the queue, destroyed (or never made visible)
 *
 * A job the poller is running stops at its next checkpoint. The queue
 * keeps its reference to the thread, so a KICK still running may wake it.
 */
void vatom_queue_poll_stop(struct vatom_queue *q)
{
	if (!q->poller)
		return;
	kthread_stop(q->poller);
	atomic_dec(&q->vfile->vdev->poll_queues);
}
