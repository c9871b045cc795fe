// SPDX-License-Identifier: MIT
/*
 * Polling mode of the in-process device's queues, as vatom.ko's
 * vatom_queue_poll.c and vatom_poller.c: one thread per device serves
 * every polling queue of the process round robin (io_uring's
 * IORING_SETUP_ATTACH_WQ), and consumes what the producers publish, so a
 * job costs no call at all.
 *
 * It polls while work keeps coming and for the longest idle time of its
 * queues after the last job, then publishes NEED_WAKEUP on every queue
 * and sleeps until a KICK or a new queue wakes it; the sleep cannot lose
 * a job (the flags stored, a full barrier, the tails read; the producer
 * stores its tail, a full barrier, reads the flags). While it is awake a
 * KICK drains its queue itself, as in kick mode, and the poller then
 * steps aside a while (KICK_TO_WAIT). The first queue to name a CPU pins
 * the thread there, for good.
 *
 * It polls from its own copy of its list of queues: a queue that comes
 * or goes bumps a generation, and the thread copies the list again
 * between two batches, which is what a detach waits for (a batch on the
 * queue being destroyed stops at its next checkpoint). The last queue to
 * go stops the thread.
 */

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device.h"
#include "poller.h"

/* Finds, starts and ends the devices' pollers. */
static pthread_mutex_t shim_pollers_lock = PTHREAD_MUTEX_INITIALIZER;

/* Empty polls between two readings of the clock, and two yields. */
#define SHIM_POLL_CLOCK_EVERY	64

/* A step aside: short at first, at most the UAPI's 4 ms. */
#define SHIM_POLL_ASIDE_MIN_NS	16000ull
#define SHIM_POLL_ASIDE_MAX_NS	4000000ull

static void shim_poller_put(struct shim_poller *p)
{
	if (atomic_fetch_sub(&p->refs, 1) != 1)
		return;
	pthread_cond_destroy(&p->wake);
	pthread_cond_destroy(&p->seen_cond);
	pthread_mutex_destroy(&p->lock);
	free(p->queues);
	free(p->polled);
	free(p);
}

/* Publish @flags in the control page of each of @p's queues (locked). */
static void shim_poller_flags_locked(struct shim_poller *p, u32 flags)
{
	u32 i;

	for (i = 0; i < p->nqueues; i++)
		__atomic_store_n(&shim_queue_ctl(p->queues[i])->flags, flags,
				 __ATOMIC_RELAXED);
}

/*
 * Copy the list if a queue came or went, and tell a detach waiting for
 * it. Return: true when a queue came (its idle time starts now).
 */
static bool shim_poller_refresh(struct shim_poller *p)
{
	bool attached;

	if (atomic_load(&p->list.gen) == p->list.seen)
		return false;
	pthread_mutex_lock(&p->lock);
	memcpy(p->polled, p->queues, p->nqueues * sizeof(*p->polled));
	p->npolled = p->nqueues;
	p->next = 0;
	p->list.seen = atomic_load(&p->list.gen);
	attached = p->attached;
	p->attached = false;
	pthread_cond_broadcast(&p->seen_cond);
	pthread_mutex_unlock(&p->lock);
	return attached;
}

/* The next queue with work, round robin, or NULL. */
static struct shim_queue *shim_poller_next(struct shim_poller *p)
{
	u32 i, n = p->npolled, at = p->next, tail;
	struct shim_queue *q;

	for (i = 0; i < n; i++) {
		q = p->polled[at];
		if (++at == n)
			at = 0;
		if (shim_queue_has_work(q, &tail)) {
			p->next = at;
			return q;
		}
	}
	return NULL;
}

/* Whether a wake came since @token, or a queue came or went, or a stop. */
static bool shim_poller_woken(struct shim_poller *p, u64 token)
{
	return p->wakeups != token || atomic_load(&p->list.gen) != p->list.seen ||
	       atomic_load(&p->stop);
}

/*
 * NEED_WAKEUP on every queue, and sleep unless one has work (a tail we
 * refuse is none: only a KICK, or the idle time, makes us look again).
 */
static void shim_poller_sleep(struct shim_poller *p)
{
	bool work = false;
	u32 i, tail;
	u64 token;

	pthread_mutex_lock(&p->lock);
	token = p->wakeups;
	atomic_store(&p->asleep, true);
	shim_poller_flags_locked(p, DRM_VATOM_QUEUE_CTL_NEED_WAKEUP);
	/* Paired with the producer's between its tail store and flags load. */
	atomic_thread_fence(memory_order_seq_cst);
	for (i = 0; i < p->nqueues; i++)
		work |= shim_queue_has_work(p->queues[i], &tail);
	while (!work && !shim_poller_woken(p, token))
		pthread_cond_wait(&p->wake, &p->lock);
	shim_poller_flags_locked(p, 0);
	atomic_store(&p->asleep, false);
	pthread_mutex_unlock(&p->lock);
}

/*
 * After a KICK did jobs of our queues while we were awake: step aside for
 * twice as long as last time, with KICK_TO_WAIT set (waiters kick at once)
 * and without NEED_WAKEUP; a wake ends it early.
 */
static void shim_poller_step_aside(struct shim_poller *p)
{
	struct timespec until;
	u64 token, end;

	atomic_store(&p->kicked, false);
	p->step_aside_ns = p->step_aside_ns * 2;
	if (p->step_aside_ns < SHIM_POLL_ASIDE_MIN_NS)
		p->step_aside_ns = SHIM_POLL_ASIDE_MIN_NS;
	if (p->step_aside_ns > SHIM_POLL_ASIDE_MAX_NS)
		p->step_aside_ns = SHIM_POLL_ASIDE_MAX_NS;
	clock_gettime(CLOCK_MONOTONIC, &until);
	end = until.tv_sec * 1000000000ull + until.tv_nsec + p->step_aside_ns;
	until.tv_sec = end / 1000000000ull;
	until.tv_nsec = end % 1000000000ull;

	pthread_mutex_lock(&p->lock);
	token = p->wakeups;
	shim_poller_flags_locked(p, DRM_VATOM_QUEUE_CTL_KICK_TO_WAIT);
	while (!shim_poller_woken(p, token) &&
	       pthread_cond_timedwait(&p->wake, &p->lock, &until) != ETIMEDOUT)
		;
	shim_poller_flags_locked(p, 0);
	pthread_mutex_unlock(&p->lock);
}

/* Idle for the idle time (wall time since the first empty poll)? */
static bool shim_poller_idle(struct shim_poller *p, u64 *idle_since,
			     u32 *empty)
{
	u64 now;

	if (++*empty % SHIM_POLL_CLOCK_EVERY) {
		__builtin_ia32_pause();
		return false;
	}
	/* Give way to a producer that may share our CPU. */
	sched_yield();
	now = shim_now_ns();
	if (!*idle_since)
		*idle_since = now;
	else if (now - *idle_since >= atomic_load(&p->idle_ns))
		return true;
	return false;
}

static void *shim_poller_main(void *arg)
{
	struct shim_poller *p = arg;
	u64 idle_since = 0;
	struct shim_queue *q;
	u32 empty = 0;
	bool kicked;

	while (!atomic_load(&p->stop)) {
		if (shim_poller_refresh(p)) {
			empty = 0;
			idle_since = 0;
		}
		kicked = atomic_load(&p->kicked);
		q = kicked ? NULL : shim_poller_next(p);
		if (q) {
			shim_queue_poll_drain(q, &p->list);
			p->step_aside_ns = 0;
			empty = 0;
			idle_since = 0;
		} else if (kicked) {
			shim_poller_step_aside(p);
			empty = 0;
			idle_since = 0;
		} else if (shim_poller_idle(p, &idle_since, &empty)) {
			shim_poller_sleep(p);
			idle_since = 0;
		}
	}
	shim_poller_put(p);	/* the thread's */
	return NULL;
}

/* Wake @p, wherever it waits (locked by the caller or not). */
static void shim_poller_wake_locked(struct shim_poller *p)
{
	p->wakeups++;
	pthread_cond_broadcast(&p->wake);
}

/* Pin @p to @cpu (-1: leave it): 0, or -EINVAL for another CPU. */
static int shim_poller_pin(struct shim_poller *p, int cpu)
{
	cpu_set_t set;

	if (cpu < 0 || p->cpu == cpu)
		return 0;
	if (p->cpu >= 0)
		return -EINVAL;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (pthread_setaffinity_np(p->thread, sizeof(set), &set))
		return -EINVAL;
	p->cpu = cpu;
	return 0;
}

static struct shim_poller *shim_poller_create(struct shim_device *dev)
{
	long i, ncpus = sysconf(_SC_NPROCESSORS_CONF);
	u32 max = VATOM_MAX_MAX_POLL_QUEUES;
	struct shim_poller *p;
	char name[16];
	cpu_set_t set;

	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->queues = calloc(max, sizeof(*p->queues));
	p->polled = calloc(max, sizeof(*p->polled));
	if (!p->queues || !p->polled) {
		free(p->queues);
		free(p->polled);
		free(p);
		return NULL;
	}
	atomic_init(&p->refs, 2);	/* the device's and the thread's */
	p->dev = dev;
	p->cpu = -1;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->wake, NULL);
	pthread_cond_init(&p->seen_cond, NULL);
	if (pthread_create(&p->thread, NULL, shim_poller_main, p)) {
		atomic_store(&p->refs, 1);
		shim_poller_put(p);
		return NULL;
	}
	/* The kernel's is vatom-poll/PID: 15 characters fit. */
	snprintf(name, sizeof(name), "vatom-poll/%d", (int)getpid());
	pthread_setname_np(p->thread, name);
	/*
	 * Not its creator's affinity, as a kernel thread is not: every CPU
	 * (the kernel keeps it within the cpuset), until a queue pins it.
	 */
	CPU_ZERO(&set);
	for (i = 0; i < ncpus && i < CPU_SETSIZE; i++)
		CPU_SET(i, &set);
	(void)pthread_setaffinity_np(p->thread, sizeof(set), &set);
	return p;
}

/*
 * The poller's last user is gone, and the device no longer points to it:
 * its thread ends, and the device's reference goes.
 */
static void shim_poller_end(struct shim_poller *p)
{
	pthread_mutex_lock(&p->lock);
	atomic_store(&p->stop, true);
	shim_poller_wake_locked(p);
	pthread_mutex_unlock(&p->lock);
	if (!p->orphan)
		pthread_join(p->thread, NULL);
	else
		shim_poller_put(p);	/* the thread that is not */
	shim_poller_put(p);	/* the device's */
}

int shim_queue_poll_start(struct shim_device *dev, int cpu,
			  struct shim_poller **out)
{
	struct shim_poller *p;
	bool created = false;
	int ret = 0;

	if (atomic_fetch_add(&dev->poll_queues, 1) >= shim_limits.max_poll_queues) {
		atomic_fetch_sub(&dev->poll_queues, 1);
		return -EBUSY;
	}
	pthread_mutex_lock(&shim_pollers_lock);
	p = dev->poller;
	if (!p) {
		p = shim_poller_create(dev);
		if (!p)
			ret = -ENOMEM;
		else
			dev->poller = p;
		created = p;
	}
	if (p && !ret)
		ret = shim_poller_pin(p, cpu);
	if (!ret) {
		p->users++;
		atomic_fetch_add(&p->refs, 1);	/* the queue's */
	} else if (created) {
		dev->poller = NULL;	/* a call that fails leaves no thread */
	}
	pthread_mutex_unlock(&shim_pollers_lock);
	if (ret) {
		if (created)
			shim_poller_end(p);
		atomic_fetch_sub(&dev->poll_queues, 1);
		return ret;
	}
	*out = p;
	return 0;
}

void shim_queue_poll_attach(struct shim_queue *q, struct shim_poller *p)
{
	u64 idle_ns = shim_queue_idle_ns(q);

	pthread_mutex_lock(&p->lock);
	p->queues[p->nqueues++] = q;
	atomic_fetch_add(&p->list.gen, 1);
	if (idle_ns > atomic_load(&p->idle_ns))
		atomic_store(&p->idle_ns, idle_ns);
	p->attached = true;
	shim_poller_wake_locked(p);
	pthread_mutex_unlock(&p->lock);
}

bool shim_poller_wake(struct shim_poller *p)
{
	if (!atomic_load(&p->asleep))
		return false;
	pthread_mutex_lock(&p->lock);
	shim_poller_wake_locked(p);
	pthread_mutex_unlock(&p->lock);
	return true;
}

void shim_poller_kicked(struct shim_poller *p)
{
	atomic_store(&p->kicked, true);
}

void shim_queue_poll_stop(struct shim_queue *q, struct shim_poller *p)
{
	struct shim_device *dev = p->dev;
	unsigned int gen;
	u64 idle = 0;
	bool last;
	u32 i;

	pthread_mutex_lock(&p->lock);
	for (i = 0; i < p->nqueues; i++) {
		if (p->queues[i] == q) {
			memmove(&p->queues[i], &p->queues[i + 1],
				(p->nqueues - i - 1) * sizeof(*p->queues));
			p->nqueues--;
			break;
		}
	}
	gen = atomic_fetch_add(&p->list.gen, 1) + 1;
	for (i = 0; i < p->nqueues; i++)
		if (shim_queue_idle_ns(p->queues[i]) > idle)
			idle = shim_queue_idle_ns(p->queues[i]);
	atomic_store(&p->idle_ns, idle);
	/* Asleep or stepping aside, it copies the list once woken. */
	shim_poller_wake_locked(p);
	while ((int)(p->list.seen - gen) < 0 && !p->orphan)
		pthread_cond_wait(&p->seen_cond, &p->lock);
	pthread_mutex_unlock(&p->lock);

	pthread_mutex_lock(&shim_pollers_lock);
	last = !--p->users;
	if (last && dev->poller == p)
		dev->poller = NULL;
	pthread_mutex_unlock(&shim_pollers_lock);
	if (last)
		shim_poller_end(p);
	atomic_fetch_sub(&dev->poll_queues, 1);
}

void shim_poller_put_queue(struct shim_poller *p)
{
	shim_poller_put(p);
}

bool shim_poller_orphan(const struct shim_poller *p)
{
	return p->orphan;
}

void shim_pollers_after_fork(struct shim_device *dev)
{
	struct shim_poller *p = dev->poller;

	/*
	 * The thread did not come along: the inherited queues' KICKs
	 * consume, nobody waits for it; the child's own queues get a poller
	 * of its own, as another process's would.
	 */
	pthread_mutex_init(&shim_pollers_lock, NULL);
	dev->poller = NULL;
	if (p) {
		pthread_mutex_init(&p->lock, NULL);
		pthread_cond_init(&p->wake, NULL);
		pthread_cond_init(&p->seen_cond, NULL);
		p->orphan = true;
		atomic_store(&p->asleep, false);
	}
}
