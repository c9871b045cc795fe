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
 * What bounds it: a device runs at most max_poll_queues polling queues; a
 * poller polls empty rings for at most the idle time (vatom_poller.c, its
 * thread). The first queue of a process to name a CPU pins its poller
 * there, for good.
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
#include <linux/sched/mm.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>

#include "vatom_file.h"
#include "vatom_limits.h"
#include "vatom_poller.h"
#include "vatom_queue.h"
#include "vatom_queue_poll.h"

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
	/*
	 * Named before the thread is pinned: a thread that has not yet run
	 * undoes the pinning at its start (kthread_affine_node() on newer
	 * kernels), then reads @p->cpu and pins itself again. Set after,
	 * the thread could read -1 between the two and never be pinned.
	 */
	WRITE_ONCE(p->cpu, cpu);
	ret = set_cpus_allowed_ptr(p->task, cpumask_of(cpu));
	if (ret)
		WRITE_ONCE(p->cpu, -1);	/* its own try fails as this did */
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
	WRITE_ONCE(p->list.gen, p->list.gen + 1);
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
	gen = p->list.gen + 1;
	WRITE_ONCE(p->list.gen, gen);
	p->idle_ns = 0;
	list_for_each_entry(other, &p->queues, poll_node)
		p->idle_ns = max(p->idle_ns, other->idle_ns);
	mutex_unlock(&p->lock);
	/* Asleep or stepping aside, it copies the list once woken. */
	wake_up_process(p->task);
	wait_var_event(&p->list.seen, (int)(READ_ONCE(p->list.seen) - gen) >= 0);

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
