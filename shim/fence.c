// SPDX-License-Identifier: MIT
/*
 * fence.c: fences, in-process: dma-fence.c of Linux 6.1, for the syncobjs
 * (syncobj.c) and the jobs that signal them (job.c), and the sleeping the
 * shim does in place of the kernel's.
 *
 * A fence is pending, then signaled once, with an error status. Its
 * callbacks run in the signaling thread after its lock is dropped, so
 * that one may signal other fences. Timeline points (dma_fence_chain) and
 * merged fences (dma_fence_array) are fences of other kinds, each with
 * its struct shim_fence_ops where it is made (fence_chain.c,
 * fence_unwrap.c): as dma-fence.c, this file calls their hooks and knows
 * nothing else of them. A sleeping task is a condition variable on
 * CLOCK_MONOTONIC, which signals do not interrupt (the kernel's waits are
 * interruptible: -ERESTARTSYS).
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fence_internal.h"

/* ------------------------------------------------------------------ */
/* sleeping                                                             */
/* ------------------------------------------------------------------ */

static pthread_condattr_t mono_condattr;
static pthread_once_t mono_once = PTHREAD_ONCE_INIT;

static void mono_condattr_init(void)
{
	pthread_condattr_init(&mono_condattr);
	pthread_condattr_setclock(&mono_condattr, CLOCK_MONOTONIC);
}

static void cond_init_monotonic(pthread_cond_t *c)
{
	pthread_once(&mono_once, mono_condattr_init);
	pthread_cond_init(c, &mono_condattr);
}

/*
 * Returns non-zero at @deadline (absolute, CLOCK_MONOTONIC); signals never
 * end it (see the top).
 */
static int cond_wait_until(pthread_cond_t *c, pthread_mutex_t *m,
			   int64_t deadline)
{
	struct timespec ts;

	if (deadline == INT64_MAX)
		return pthread_cond_wait(c, m);
	if (deadline < 0)
		deadline = 0;
	ts.tv_sec = deadline / NSEC_PER_SEC;
	ts.tv_nsec = deadline % NSEC_PER_SEC;
	return pthread_cond_timedwait(c, m, &ts);
}

/* struct waiter: fence_internal.h */
void waiter_init(struct waiter *w)
{
	pthread_mutex_init(&w->lock, NULL);
	cond_init_monotonic(&w->cond);
	w->gen = 0;
}

void waiter_fini(struct waiter *w)
{
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->lock);
}

unsigned int waiter_gen(struct waiter *w)
{
	unsigned int gen;

	pthread_mutex_lock(&w->lock);
	gen = w->gen;
	pthread_mutex_unlock(&w->lock);
	return gen;
}

void waiter_wake(struct waiter *w)
{
	pthread_mutex_lock(&w->lock);
	w->gen++;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

void waiter_sleep(struct waiter *w, unsigned int gen, int64_t deadline)
{
	pthread_mutex_lock(&w->lock);
	while (w->gen == gen)
		if (cond_wait_until(&w->cond, &w->lock, deadline))
			break;
	pthread_mutex_unlock(&w->lock);
}

/* ------------------------------------------------------------------ */
/* fences: dma-fence.c                                                  */
/* ------------------------------------------------------------------ */

/* dma_fence_context_alloc(): 0 is the stub's, as in the kernel */
static uint64_t fence_context_counter = 1;

uint64_t fence_context_alloc(void)
{
	return __atomic_fetch_add(&fence_context_counter, 1, __ATOMIC_RELAXED);
}

static bool fence_signaled_flag(struct shim_fence *f)
{
	return __atomic_load_n(&f->signaled, __ATOMIC_ACQUIRE);
}

void fence_init(struct shim_fence *f, const struct shim_fence_ops *ops)
{
	memset(f, 0, sizeof(*f));
	f->refcount = 1;
	f->ops = ops;
	pthread_mutex_init(&f->lock, NULL);
	cond_init_monotonic(&f->cond);
	list_init(&f->cb_list);
}

/* dma_fence_get_stub(): a signaled fence that cannot fail to exist */
static struct shim_fence fence_stub;
static pthread_once_t fence_stub_once = PTHREAD_ONCE_INIT;

static void fence_stub_init(void)
{
	fence_init(&fence_stub, NULL);
	fence_stub.is_static = true;
	fence_stub.signaled = 1;
}

struct shim_fence *fence_get_stub(void)
{
	pthread_once(&fence_stub_once, fence_stub_init);
	return shim_fence_get(&fence_stub);
}

struct shim_fence *shim_fence_new(void)
{
	struct shim_fence *f = malloc(sizeof(*f));

	if (!f)
		return NULL;
	fence_init(f, NULL);
	f->context = fence_context_alloc();
	return f;
}

/* dma_fence_allocate_private_stub(): a new fence, signaled from the start */
struct shim_fence *fence_allocate_private_stub(void)
{
	struct shim_fence *f = shim_fence_new();

	if (f)
		f->signaled = 1;
	return f;
}

struct shim_fence *shim_fence_get(struct shim_fence *f)
{
	if (f)
		__atomic_fetch_add(&f->refcount, 1, __ATOMIC_RELAXED);
	return f;
}

void fence_destroy(struct shim_fence *f)
{
	struct list *n, *next;

	/* A fence freed pending: the callbacks' owners went away too. */
	for (n = f->cb_list.next; n != &f->cb_list; n = next) {
		struct shim_fence_cb *cb =
			container_of(n, struct shim_fence_cb, node);

		next = n->next;
		if (cb->heap)
			free(cb);
	}
	pthread_cond_destroy(&f->cond);
	pthread_mutex_destroy(&f->lock);
	free(f);
}

void shim_fence_put(struct shim_fence *f)
{
	/*
	 * A timeline's nodes hold their previous node: release the chain in
	 * a loop, not by recursion, as dma_fence_chain_release() does; the
	 * release hook hands that node back.
	 */
	while (f) {
		struct shim_fence *next = NULL;

		if (__atomic_sub_fetch(&f->refcount, 1, __ATOMIC_ACQ_REL))
			return;
		if (f->is_static) {	/* cannot happen: the stub keeps one */
			__atomic_fetch_add(&f->refcount, 1, __ATOMIC_RELAXED);
			return;
		}
		if (f->ops && f->ops->release)
			next = f->ops->release(f);
		fence_destroy(f);
		f = next;
	}
}

/* dma_fence_signal(), dma_fence_set_error() before it */
void fence_signal(struct shim_fence *f, int error)
{
	struct list cbs, *n, *next;

	pthread_mutex_lock(&f->lock);
	if (f->signaled) {
		pthread_mutex_unlock(&f->lock);
		return;
	}
	if (error < 0)
		f->error = error;
	list_init(&cbs);
	if (!list_empty(&f->cb_list)) {
		cbs.next = f->cb_list.next;
		cbs.prev = f->cb_list.prev;
		cbs.next->prev = &cbs;
		cbs.prev->next = &cbs;
		list_init(&f->cb_list);
	}
	for (n = cbs.next; n != &cbs; n = n->next)
		container_of(n, struct shim_fence_cb, node)->pending = false;
	__atomic_store_n(&f->signaled, 1, __ATOMIC_RELEASE);
	f->running = true;
	f->runner = pthread_self();
	pthread_cond_broadcast(&f->cond);
	pthread_mutex_unlock(&f->lock);

	/* A callback may drop the last reference the others had. */
	shim_fence_get(f);
	for (n = cbs.next; n != &cbs; n = next) {
		struct shim_fence_cb *cb =
			container_of(n, struct shim_fence_cb, node);

		next = n->next;	/* the callback may free or reuse its node */
		cb->func(f, cb);
	}

	pthread_mutex_lock(&f->lock);
	f->running = false;
	pthread_cond_broadcast(&f->cond);
	pthread_mutex_unlock(&f->lock);
	shim_fence_put(f);
}

void shim_fence_signal(struct shim_fence *f, int error)
{
	if (f->ops)	/* a kind with ops signals itself */
		return;
	fence_signal(f, error);
}

/*
 * __dma_fence_enable_signaling(): chains arm their callback lazily, on
 * the first wait or callback, as the kernel's do. Called unlocked; a
 * fence whose hook finds it complete is signaled here.
 */
static void fence_enable_signaling(struct shim_fence *f)
{
	bool enable;

	if (!f->ops || !f->ops->enable_signaling)
		return;
	pthread_mutex_lock(&f->lock);
	enable = !f->enabled && !f->signaled;
	f->enabled = true;
	pthread_mutex_unlock(&f->lock);
	if (enable && !f->ops->enable_signaling(f))
		fence_signal(f, 0);
}

/* dma_fence_add_callback() with the caller's node */
int fence_add_callback(struct shim_fence *f, struct shim_fence_cb *cb,
		       void (*func)(struct shim_fence *,
				    struct shim_fence_cb *))
{
	fence_enable_signaling(f);

	pthread_mutex_lock(&f->lock);
	if (f->signaled) {
		pthread_mutex_unlock(&f->lock);
		cb->pending = false;
		return -ENOENT;
	}
	cb->func = func;
	cb->pending = true;
	list_add_tail(&cb->node, &f->cb_list);
	pthread_mutex_unlock(&f->lock);
	return 0;
}

/*
 * dma_fence_remove_callback(): true when @cb was still pending (it will
 * not be called). False when it has been, or is being, called: then,
 * unless from inside a callback of @f, this waits for the callbacks to
 * return, so the caller may free @cb's container (the kernel runs the
 * callbacks under the fence's lock, which has the same effect).
 */
bool fence_remove_callback(struct shim_fence *f,
			   struct shim_fence_cb *cb)
{
	bool was_pending;

	pthread_mutex_lock(&f->lock);
	was_pending = cb->pending;
	if (was_pending) {
		list_del_init(&cb->node);
		cb->pending = false;
	} else {
		while (f->running && !pthread_equal(f->runner, pthread_self()))
			pthread_cond_wait(&f->cond, &f->lock);
	}
	pthread_mutex_unlock(&f->lock);
	return was_pending;
}

/*
 * dma_fence_is_signaled(). A chain's state is computed, not latched: the
 * kernel's would signal it here and so run callbacks, but this is called
 * with syncobj locks held. Its armed callback signals it soon anyway.
 */
bool fence_is_signaled(struct shim_fence *f)
{
	if (fence_signaled_flag(f))
		return true;
	if (f->ops && f->ops->signaled)
		return f->ops->signaled(f);
	return false;
}

int shim_fence_status(struct shim_fence *f)
{
	if (!fence_is_signaled(f))
		return 0;
	/* a chain computed signaled has error 0, as a latched one */
	return __atomic_load_n(&f->error, __ATOMIC_RELAXED) ?: 1;
}

int shim_fence_wait(struct shim_fence *f, int64_t abs_timeout_ns)
{
	int ret = 0;

	if (fence_is_signaled(f))
		return 0;
	fence_enable_signaling(f);
	pthread_mutex_lock(&f->lock);
	while (!f->signaled) {
		if (cond_wait_until(&f->cond, &f->lock, abs_timeout_ns)) {
			ret = f->signaled ? 0 : -ETIME;
			break;
		}
	}
	pthread_mutex_unlock(&f->lock);
	return ret;
}

struct user_cb {
	struct shim_fence_cb cb;	/* first: freed as a shim_fence_cb */
	void (*func)(struct shim_fence *f, void *data);
	void *data;
};

static void user_cb_func(struct shim_fence *f, struct shim_fence_cb *cb)
{
	struct user_cb *ucb = container_of(cb, struct user_cb, cb);

	ucb->func(f, ucb->data);
	free(ucb);
}

int shim_fence_add_callback(struct shim_fence *f,
			    void (*cb)(struct shim_fence *f, void *data),
			    void *data)
{
	struct user_cb *ucb = calloc(1, sizeof(*ucb));
	int ret;

	if (!ucb)
		return fence_is_signaled(f) ? -ENOENT : -ENOMEM;
	ucb->cb.heap = true;
	ucb->func = cb;
	ucb->data = data;
	ret = fence_add_callback(f, &ucb->cb, user_cb_func);
	if (ret)
		free(ucb);
	return ret;
}
