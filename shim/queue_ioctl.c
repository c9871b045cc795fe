// SPDX-License-Identifier: MIT
/*
 * User-mode queues of the in-process device, as vatom.ko's
 * vatom_queue_ioctl.c: QUEUE_CREATE, QUEUE_DESTROY and QUEUE_KICK. A ring
 * of descriptors and a control page in two buffers the caller maps, a
 * binding table fixed at creation, and a KICK that consumes the ring from
 * its head to the tail it reads (queue.c), in the calling thread, one
 * KICK of a queue at a time.
 *
 * In polling mode the device's poller (poller.c) consumes as the tail
 * moves; a KICK wakes it when it sleeps, and while it is awake consumes
 * as in kick mode.
 */

#include <errno.h>
#include <sched.h>
#include <stdlib.h>

#include "poller.h"
#include "queue.h"

static void shim_queue_put(struct shim_queue *q)
{
	u32 i;

	if (atomic_fetch_sub(&q->refs, 1) != 1)
		return;
	for (i = 0; i < DRM_VATOM_MAX_SLOTS; i++)
		if (q->surf[i])
			shim_surface_put(q->surf[i]);
	if (q->ring_surf)
		shim_surface_put(q->ring_surf);
	if (q->ctl_surf)
		shim_surface_put(q->ctl_surf);
	if (q->syncobj)
		shim_syncobj_put(q->syncobj);
	shim_chain_free(q->chain);
	shim_fd_private_close(q->eventfd);
	shim_account_uncharge(q->f->acct, sizeof(*q));
	shim_stream_buf_free(&q->sb, q->f->acct);
	if (q->poller)
		shim_poller_put_queue(q->poller);
	free(q);
}

/* The queue @id of @f, referenced, or NULL. */
static struct shim_queue *shim_queue_get(struct shim_file *f, u32 id)
{
	struct shim_queue *q = NULL;

	pthread_mutex_lock(&f->queues_lock);
	if (id && id <= VATOM_MAX_QUEUES) {
		q = f->queues[id - 1];
		if (q)
			atomic_fetch_add(&q->refs, 1);
	}
	pthread_mutex_unlock(&f->queues_lock);
	return q;
}

/*
 * Whether @cpu may run the poller: online, and one the caller may run on
 * (vatom_queue_poll_cpu_ok()).
 */
static bool shim_queue_cpu_ok(u32 cpu)
{
	cpu_set_t set;

	if (cpu >= CPU_SETSIZE || sched_getaffinity(0, sizeof(set), &set))
		return false;
	return CPU_ISSET(cpu, &set);
}

/* The queue's syncobj and eventfd (vatom_queue_get_signals()). */
static int shim_queue_get_signals(struct shim_queue *q,
				  const struct drm_vatom_queue_create *args)
{
	int fd;

	if (args->syncobj) {
		q->syncobj = shim_syncobj_find(q->f->syncobjs, args->syncobj);
		if (!q->syncobj)
			return -ENOENT;
	}
	if (args->flags & DRM_VATOM_QUEUE_CREATE_EVENTFD) {
		fd = shim_eventfd_get(args->eventfd);
		if (fd < 0)
			return fd;
		q->eventfd = fd;
	}
	return 0;
}

int shim_queue_create(struct shim_file *f, void *arg)
{
	struct drm_vatom_queue_create *args = arg;
	u32 ring_handle = 0, ctl_handle = 0, id;
	struct shim_queue *q;
	int ret;

	ret = vatom_rule_queue_create(args, shim_queue_cpu_ok);
	if (ret)
		return ret;

	ret = shim_account_charge(f->acct, sizeof(*q));
	if (ret)
		return ret;
	q = calloc(1, sizeof(*q));
	if (!q) {
		shim_account_uncharge(f->acct, sizeof(*q));
		return -ENOMEM;
	}
	atomic_init(&q->refs, 1);
	q->f = f;
	q->entries = args->entries;
	q->eventfd = -1;
	shim_mutex_init(&q->lock);

	ret = shim_bindings_read(f, (const void *)(uintptr_t)args->bindings,
				 args->binding_count, q->surf, &q->b, NULL, NULL);
	if (!ret)
		ret = shim_queue_get_signals(q, args);
	if (!ret)
		ret = shim_buffer_new(f, (u64)args->entries * sizeof(*q->ring),
				      &ring_handle, &q->ring_surf);
	if (ret)
		goto free;
	q->ring = (struct drm_vatom_queue_job *)q->ring_surf->view.vaddr;
	ret = shim_buffer_new(f, DRM_VATOM_QUEUE_CTL_SIZE, &ctl_handle,
			      &q->ctl_surf);
	if (ret)
		goto handles;
	q->ctl = (struct drm_vatom_queue_ctl *)q->ctl_surf->view.vaddr;
	if (args->flags & DRM_VATOM_QUEUE_CREATE_POLL) {
		/* Awake from the start; it sets NEED_WAKEUP when it sleeps. */
		ret = shim_queue_poll_start(f->dev,
					    args->flags & DRM_VATOM_QUEUE_CREATE_POLL_CPU ?
					    (int)args->poll_cpu : -1, &q->poller);
		if (ret)
			goto handles;
		q->idle_ns = (u64)(args->poll_idle_us ? args->poll_idle_us :
				   DRM_VATOM_QUEUE_POLL_IDLE_US_DEFAULT) * 1000;
	} else {
		/* Kick mode: every job needs a KICK. */
		__atomic_store_n(&q->ctl->flags, DRM_VATOM_QUEUE_CTL_NEED_WAKEUP,
				 __ATOMIC_RELAXED);
	}

	/* The lowest free id (xa_alloc() from 1), or -EBUSY. */
	pthread_mutex_lock(&f->queues_lock);
	for (id = 0; id < VATOM_MAX_QUEUES && f->queues[id]; id++)
		;
	if (id < VATOM_MAX_QUEUES) {
		if (q->poller)
			shim_queue_poll_attach(q, q->poller);
		f->queues[id] = q;
	}
	pthread_mutex_unlock(&f->queues_lock);
	if (id == VATOM_MAX_QUEUES) {
		ret = -EBUSY;
		goto poller;
	}
	args->queue_id = id + 1;
	args->ring_handle = ring_handle;
	args->ctl_handle = ctl_handle;
	return 0;

poller:
	if (q->poller)
		shim_queue_poll_stop(q, q->poller);
handles:
	if (ctl_handle)
		shim_handle_delete(f, ctl_handle);
	shim_handle_delete(f, ring_handle);
free:
	shim_queue_put(q);
	return ret;
}

/*
 * Destroyed: a KICK or the poller's batch under way stops after its job;
 * the poller lets go of it; the table's reference.
 */
static void shim_queue_destroy(struct shim_queue *q)
{
	atomic_store(&q->dead, true);
	if (q->poller)
		shim_queue_poll_stop(q, q->poller);
	shim_queue_put(q);
}

int shim_queue_destroy_ioctl(struct shim_file *f, void *arg)
{
	struct drm_vatom_queue_destroy *args = arg;
	struct shim_queue *q = NULL;

	if (args->pad)
		return -EINVAL;
	pthread_mutex_lock(&f->queues_lock);
	if (args->queue_id && args->queue_id <= VATOM_MAX_QUEUES) {
		q = f->queues[args->queue_id - 1];
		f->queues[args->queue_id - 1] = NULL;
	}
	pthread_mutex_unlock(&f->queues_lock);
	if (!q)
		return -ENOENT;
	shim_queue_destroy(q);
	return 0;
}

/* At the file's release: every queue it still has. */
void shim_file_queues_release(struct shim_file *f)
{
	u32 i;

	for (i = 0; i < VATOM_MAX_QUEUES; i++) {
		if (f->queues[i])
			shim_queue_destroy(f->queues[i]);
		f->queues[i] = NULL;
	}
}

int shim_queue_kick(struct shim_file *f, void *arg)
{
	struct drm_vatom_queue_kick *args = arg;
	struct shim_queue *q;
	u64 completed;
	int ret = 0;
	u32 tail;

	if (args->pad)
		return -EINVAL;
	q = shim_queue_get(f, args->queue_id);
	if (!q)
		return -ENOENT;
	/*
	 * Polling mode: wake a sleeping poller, which consumes; while it is
	 * awake (or has no thread: a fork()ed child's) consume as in kick
	 * mode, after the batch it may be running here.
	 */
	if (q->poller && !shim_poller_orphan(q->poller)) {
		tail = __atomic_load_n(&q->ctl->tail, __ATOMIC_ACQUIRE);
		if (!shim_queue_tail_ok(q, tail)) {
			ret = -EINVAL;
			goto put;
		}
		if (shim_poller_wake(q->poller))
			goto put;
	}
	shim_mutex_lock(&q->lock);
	tail = __atomic_load_n(&q->ctl->tail, __ATOMIC_ACQUIRE);
	completed = q->completed;
	ret = shim_queue_tail_ok(q, tail) ? shim_queue_drain(q, tail, NULL) : -EINVAL;
	if (q->poller && q->completed != completed)
		shim_poller_kicked(q->poller);
	shim_mutex_unlock(&q->lock);
put:
	shim_queue_put(q);
	return ret;
}

/* In a fork()ed child: a KICK or the poller may have held the lock. */
void shim_file_queues_after_fork(struct shim_file *f)
{
	u32 i;

	for (i = 0; i < VATOM_MAX_QUEUES; i++)
		if (f->queues[i])
			shim_mutex_init(&f->queues[i]->lock);
}
