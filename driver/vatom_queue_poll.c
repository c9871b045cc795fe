// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Polling mode of user-mode queues (docs/queues.md): a kernel thread
 * consumes the rings as userspace moves their tails, so a job costs no
 * system call (the io_uring SQPOLL pattern).
 *
 * One poller serves every polling queue a process has on a device, round
 * robin, as io_uring's IORING_SETUP_ATTACH_WQ lets rings share an SQPOLL
 * thread: N polling queues cost one thread, not N spinning on few CPUs
 * (issue 24: 8 pollers and their producers on 2 vCPUs fell from 7000 to
 * 300-400 jobs/s). Per process, not per device, so the CPU it burns is
 * still its creator's: it runs in the creator's cgroups at its nice value,
 * and charges what it allocates for a queue to that queue's creator's
 * memory cgroup as well as to its file. A KICK wakes a sleeping poller;
 * while the poller is awake, a KICK drains its queue itself, as in kick
 * mode (vatom_queue.c), so when the poller falls behind, producers that
 * ask do their own work on their own CPUs; the poller then steps aside a
 * while (KICK_TO_WAIT) rather than compete with them for the CPUs.
 *
 * The poller polls while work keeps coming and for about the longest idle
 * time of its queues after the last job, then publishes NEED_WAKEUP on
 * every queue and sleeps until a KICK or a new queue wakes it. The sleep
 * cannot lose a job: the poller stores the flags, then (full barrier)
 * reads the tails; the producer stores its tail, then (full barrier)
 * reads the flags. One of the two sees the other's store.
 *
 * What bounds it: a device runs at most max_poll_queues polling queues; a
 * poller polls empty rings for at most the idle time (one second at most,
 * wall time, however loaded its CPU), giving way to any other task that
 * wants its CPU meanwhile, and calls cond_resched() on every turn.
 *
 * The poller polls and drains from its own copy of its list of queues,
 * without a lock: a queue that comes or goes bumps a generation, and the
 * poller copies the list again between two batches.
 *
 * Destroying a queue (or closing its file) detaches it, waiting for a
 * batch the poller is running on it, which stops at its next checkpoint;
 * the last queue to go stops the thread and waits for it.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <linux/cgroup.h>
#include <linux/kthread.h>
#include <linux/list.h>
#include <linux/memcontrol.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/mm.h>
#include <linux/sched/stat.h>
#include <linux/sched/task.h>
#include <linux/slab.h>

#include "vatom_fault.h"
#include "vatom_file.h"
#include "vatom_limits.h"
#include "vatom_queue.h"
#include "vatom_queue_poll.h"

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
 * @lock: protects @queues, @gen and @idle_ns (held while a queue comes or
 *	goes, and while the thread copies @queues or publishes flags; never
 *	while it polls or drains)
 * @queues: the queues it serves, by &vatom_queue.poll_node
 * @gen: bumped whenever @queues changes
 * @seen: the @gen that @polled was last copied at (written by the thread):
 *	a queue taken off @queues at generation g is no longer polled, nor
 *	drained, once @seen reaches g
 * @idle_ns: the longest idle time of @queues
 * @asleep: the poller has published NEED_WAKEUP and sleeps, or is about to
 * @attached: a queue came since the poller last went to sleep: it polls a
 *	whole idle time more first, so a new queue starts with it awake
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
	unsigned int gen;
	unsigned int seen;
	u64 idle_ns;
	bool asleep;
	bool attached;
	bool kicked;
	u64 step_aside_ns;
	unsigned int npolled;
	unsigned int next;
	struct vatom_queue *polled[];
};

/* Every device's pollers; the lock finds, starts and ends them. */
static LIST_HEAD(vatom_poller_list);
static DEFINE_MUTEX(vatom_poller_lock);

/**
 * vatom_pollers() - how many pollers a device runs
 * @vdev: the device
 *
 * Return: its polling threads, one per process with polling queues.
 */
unsigned int vatom_pollers(struct vatom_device *vdev)
{
	const struct vatom_poller *p;
	unsigned int n = 0;

	mutex_lock(&vatom_poller_lock);
	list_for_each_entry(p, &vatom_poller_list, node)
		n += p->vdev == vdev;
	mutex_unlock(&vatom_poller_lock);
	return n;
}

static void vatom_poller_free(struct kref *ref)
{
	struct vatom_poller *p = container_of(ref, struct vatom_poller, ref);

	put_task_struct(p->task);
	put_pid(p->tgid);
	mutex_destroy(&p->lock);
	kfree(p);
}

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
 */
static void vatom_poller_refresh(struct vatom_poller *p)
{
	struct vatom_queue *q;
	unsigned int n = 0;

	if (READ_ONCE(p->gen) == p->seen)
		return;
	mutex_lock(&p->lock);
	list_for_each_entry(q, &p->queues, poll_node)
		p->polled[n++] = q;
	p->npolled = n;
	p->next = 0;
	WRITE_ONCE(p->seen, p->gen);
	mutex_unlock(&p->lock);
	/* The store before the waiter's check of the wait queue. */
	smp_mb();
	wake_up_var(&p->seen);
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
			ret = vatom_queue_drain(q, tail, true);
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
	if (p->attached) {
		p->attached = false;
		mutex_unlock(&p->lock);
		return;
	}
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
	work |= p->gen != p->seen;
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
	if (READ_ONCE(p->gen) == p->seen && !kthread_should_stop())
		schedule_hrtimeout(&t, HRTIMER_MODE_REL);
	__set_current_state(TASK_RUNNING);
	vatom_poller_flags(p, 0);
}

static int vatom_poller_thread(void *data)
{
	struct vatom_poller *p = data;
	unsigned int empty = 0;
	u64 idle_since = 0;	/* 0: not read since the last job */
	struct vatom_queue *q;
	bool kicked;
	int cpu;

	/*
	 * Pinned by its creator before its first wake, which the kthread()
	 * of newer kernels undoes (kthread_affine_node()): pin it again.
	 */
	cpu = READ_ONCE(p->cpu);
	if (cpu >= 0)
		set_cpus_allowed_ptr(current, cpumask_of(cpu));
	while (!kthread_should_stop()) {
		vatom_poller_refresh(p);
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
		}
		cond_resched();
	}
	return 0;
}

/*
 * Pin @p's thread to @cpu (-1: leave it where it is), which the caller may
 * run on: the first CPU a queue names stays. Return: 0, -EINVAL for
 * another CPU than the one it is pinned to, or set_cpus_allowed_ptr()'s
 * error (a CPU outside the thread's cpuset, or gone offline).
 */
static int vatom_poller_pin(struct vatom_poller *p, int cpu)
{
	int ret;

	lockdep_assert_held(&vatom_poller_lock);
	if (cpu < 0 || p->cpu == cpu)
		return 0;
	if (p->cpu >= 0)
		return -EINVAL;
	ret = set_cpus_allowed_ptr(p->task, cpumask_of(cpu));
	if (!ret)
		WRITE_ONCE(p->cpu, cpu);	/* the thread reads it at its start */
	return ret;
}

/*
 * A new poller for the calling process on @vdev, running (with nothing to
 * poll yet) in the caller's cgroups at its nice value, on @cpu if that is
 * not -1, and listed.
 */
static struct vatom_poller *vatom_poller_create(struct vatom_device *vdev,
						int cpu)
{
	struct vatom_poller *p;
	struct task_struct *t;
	int ret;

	lockdep_assert_held(&vatom_poller_lock);
	p = kzalloc(struct_size(p, polled, vatom_max_poll_queues()),
		    GFP_KERNEL_ACCOUNT);
	if (!p)
		return ERR_PTR(-ENOMEM);
	t = kthread_create(vatom_poller_thread, p, "vatom-poll/%d",
			   task_tgid_nr(current));
	if (IS_ERR(t)) {
		kfree(p);
		return ERR_CAST(t);
	}
	ret = cgroup_attach_task_all(current, t);
	if (ret)
		goto stop;
	set_user_nice(t, task_nice(current));
	p->task = t;
	p->cpu = -1;
	ret = vatom_poller_pin(p, cpu);
	if (ret)
		goto stop;
	kref_init(&p->ref);	/* the thread's */
	p->vdev = vdev;
	p->tgid = get_pid(task_tgid(current));
	get_task_struct(t);
	mutex_init(&p->lock);
	INIT_LIST_HEAD(&p->queues);
	list_add(&p->node, &vatom_poller_list);
	wake_up_process(t);
	return p;

stop:
	kthread_stop(t);	/* never woken: it does not run */
	kfree(p);
	return ERR_PTR(ret);
}

/**
 * vatom_queue_poll_start() - give a queue being created a poller
 * @q: the queue, not yet visible to userspace
 * @idle_us: drm_vatom_queue_create.poll_idle_us, checked
 * @cpu: drm_vatom_queue_create.poll_cpu, a CPU the caller may run on; or
 *	-1 for none
 *
 * The poller of the calling process on the queue's device, or a new one.
 * vatom_queue_poll_attach() puts the queue in its hands once the queue is
 * complete, and vatom_queue_poll_stop() takes it back (attached or not).
 *
 * Return: 0; -EBUSY when the device has max_poll_queues polling queues;
 * -EINVAL when the process's poller is pinned to another CPU than @cpu;
 * or the error of creating the thread, moving it to the caller's cgroups
 * or pinning it.
 */
int vatom_queue_poll_start(struct vatom_queue *q, u32 idle_us, int cpu)
{
	struct vatom_device *vdev = q->vfile->vdev;
	struct vatom_poller *p;
	bool found = false;
	int ret;

	if (atomic_inc_return(&vdev->poll_queues) > vatom_max_poll_queues()) {
		atomic_dec(&vdev->poll_queues);
		return -EBUSY;
	}
	q->idle_ns = (u64)(idle_us ?: DRM_VATOM_QUEUE_POLL_IDLE_US_DEFAULT) *
		     NSEC_PER_USEC;

	mutex_lock(&vatom_poller_lock);
	list_for_each_entry(p, &vatom_poller_list, node) {
		if (p->vdev == vdev && p->tgid == task_tgid(current)) {
			found = true;
			break;
		}
	}
	if (!found) {
		p = vatom_poller_create(vdev, cpu);
	} else {
		ret = vatom_poller_pin(p, cpu);
		if (ret)
			p = ERR_PTR(ret);
	}
	if (!IS_ERR(p)) {
		p->users++;
		kref_get(&p->ref);	/* the queue's */
	}
	mutex_unlock(&vatom_poller_lock);
	if (IS_ERR(p)) {
		atomic_dec(&vdev->poll_queues);
		return PTR_ERR(p);
	}
	q->poller = p;
	q->memcg = get_mem_cgroup_from_mm(current->mm);
	return 0;
}

/**
 * vatom_queue_poll_attach() - start polling a queue
 * @q: the queue, complete, with a poller from vatom_queue_poll_start()
 */
void vatom_queue_poll_attach(struct vatom_queue *q)
{
	struct vatom_poller *p = q->poller;

	mutex_lock(&p->lock);
	list_add_tail(&q->poll_node, &p->queues);
	WRITE_ONCE(p->gen, p->gen + 1);
	p->idle_ns = max(p->idle_ns, q->idle_ns);
	p->attached = true;
	mutex_unlock(&p->lock);
	wake_up_process(p->task);
}

/**
 * vatom_queue_poll_wake() - wake a queue's poller, if it sleeps
 * @q: the queue, polling mode
 *
 * Return: true when the poller slept (it will consume the ring); false
 * when it is awake, maybe serving other queues or this one.
 */
bool vatom_queue_poll_wake(struct vatom_queue *q)
{
	struct vatom_poller *p = q->poller;

	if (!READ_ONCE(p->asleep))
		return false;
	wake_up_process(p->task);
	return true;
}

/**
 * vatom_queue_poll_kicked() - tell a queue's poller a KICK did its work
 * @q: the queue, polling mode, whose KICK consumed jobs
 *
 * The poller steps aside a while: the producers that kick do their jobs
 * on their own CPUs.
 */
void vatom_queue_poll_kicked(struct vatom_queue *q)
{
	WRITE_ONCE(q->poller->kicked, true);
}

/**
 * vatom_queue_poll_stop() - take a queue back from its poller
 * @q: the queue, destroyed (or never made visible)
 *
 * Waits until the poller has left it: a batch the poller is running on
 * it stops at its next checkpoint. The last queue of a poller stops its
 * thread and waits for it. The queue keeps its reference to the poller,
 * so a KICK still running may wake it.
 */
void vatom_queue_poll_stop(struct vatom_queue *q)
{
	struct vatom_poller *p = q->poller;
	struct vatom_queue *other;
	unsigned int gen;
	bool last;

	if (!p)
		return;
	mutex_lock(&p->lock);
	list_del_init(&q->poll_node);
	gen = p->gen + 1;
	WRITE_ONCE(p->gen, gen);
	p->idle_ns = 0;
	list_for_each_entry(other, &p->queues, poll_node)
		p->idle_ns = max(p->idle_ns, other->idle_ns);
	mutex_unlock(&p->lock);
	/* Asleep or stepping aside, it copies the list once woken. */
	wake_up_process(p->task);
	wait_var_event(&p->seen, (int)(READ_ONCE(p->seen) - gen) >= 0);

	mutex_lock(&vatom_poller_lock);
	last = !--p->users;
	if (last)
		list_del(&p->node);
	mutex_unlock(&vatom_poller_lock);
	if (last) {
		kthread_stop(p->task);
		kref_put(&p->ref, vatom_poller_free);	/* the thread's */
	}
	atomic_dec(&q->vfile->vdev->poll_queues);
}

/**
 * vatom_queue_poll_put() - drop a queue's reference to its poller
 * @q: the queue, being freed
 */
void vatom_queue_poll_put(struct vatom_queue *q)
{
	if (q->poller)
		kref_put(&q->poller->ref, vatom_poller_free);
}
