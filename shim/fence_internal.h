/* SPDX-License-Identifier: MIT */
/*
 * fence_internal.h: the fences' insides, what the fence and syncobj files
 * share (fence.h and syncobj.h are their face to the rest of the shim):
 * struct shim_fence, its ops and callbacks, the lists and sleeping tasks
 * that stand in for the kernel's, and the dma-fence functions the
 * syncobjs call, by the kernel's names less "dma_" (fence_signal() is
 * dma_fence_signal()).
 *
 * fence.c has the fences and the sleeping, and reaches a kind only by
 * its ops; fence_chain.c has the timeline points (fence_chain.h),
 * fence_unwrap.c the merged fences, each with its ops. syncobj.c's
 * opening comment says how the kernel's locks and sleeps map onto these.
 */
#ifndef _VATOM_SHIM_FENCE_INTERNAL_H_
#define _VATOM_SHIM_FENCE_INTERNAL_H_

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fence.h"

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#define NSEC_PER_SEC 1000000000LL

/* the kernel's list_head, with the helpers used */
struct list {
	struct list *next, *prev;
};

static inline void list_init(struct list *l)
{
	l->next = l;
	l->prev = l;
}

static inline bool list_empty(const struct list *l)
{
	return l->next == l;
}

static inline void list_add_tail(struct list *n, struct list *head)
{
	n->prev = head->prev;
	n->next = head;
	head->prev->next = n;
	head->prev = n;
}

static inline void list_del_init(struct list *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	list_init(n);
}

/*
 * A sleeping task: wake_up_process() bumps @gen, the sleeper rechecks its
 * conditions whenever @gen moved (set_current_state() + schedule()).
 */
struct waiter {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned int gen;
};

void waiter_init(struct waiter *w);
void waiter_fini(struct waiter *w);
unsigned int waiter_gen(struct waiter *w);
void waiter_wake(struct waiter *w);
void waiter_sleep(struct waiter *w, unsigned int gen, int64_t deadline);

/*
 * struct dma_fence_ops, what the shim's kinds need of it: fence.c calls
 * these and knows no kind. A plain fence (shim_fence_new(), the stubs)
 * has none: NULL. A kind with ops signals itself, shim_fence_signal()
 * leaves it alone. Timeline points' are fence_chain.c's, merged fences'
 * fence_unwrap.c's; a hook left NULL is not called.
 */
struct shim_fence_ops {
	/*
	 * Arm the kind's own callbacks, once, on the first wait or
	 * callback; false: nothing left pending, fence.c signals @f.
	 */
	bool (*enable_signaling)(struct shim_fence *f);
	/* @f's state computed, for one not yet latched signaled */
	bool (*signaled)(struct shim_fence *f);
	/*
	 * Drop the kind's references as @f is freed; returns one more
	 * fence to put (a chain's previous node), so that shim_fence_put()
	 * releases a long timeline in a loop, not by recursion.
	 */
	struct shim_fence *(*release)(struct shim_fence *f);
};

/* struct dma_fence_cb */
struct shim_fence_cb {
	struct list node;
	void (*func)(struct shim_fence *f, struct shim_fence_cb *cb);
	bool pending;	/* on the fence's list, not yet called */
	bool heap;	/* shim_fence_add_callback()'s: freed with the fence */
};

struct shim_fence {
	int refcount;
	int signaled;		/* atomic; set once, under @lock */
	int error;
	const struct shim_fence_ops *ops;	/* NULL: a plain fence */
	bool is_static;		/* the stub: never freed */
	uint64_t context;
	uint64_t seqno;
	pthread_mutex_t lock;
	pthread_cond_t cond;	/* signaled, callbacks run */
	struct list cb_list;
	bool enabled;		/* DMA_FENCE_FLAG_ENABLE_SIGNAL_BIT */
	bool running;		/* the signaler is calling the callbacks */
	pthread_t runner;
	union {
		struct {
			struct shim_fence *prev;	/* @lock; collected */
			struct shim_fence *fence;
			uint64_t prev_seqno;
			struct shim_fence_cb cb;
		} chain;
		struct {
			unsigned int num;
			int num_pending;		/* atomic */
			int pending_error;		/* atomic */
			struct shim_fence **fences;
			struct array_cb *cbs;
		} array;
	};
};

/* fence.c */
uint64_t fence_context_alloc(void);
void fence_init(struct shim_fence *f, const struct shim_fence_ops *ops);
struct shim_fence *fence_get_stub(void);
struct shim_fence *fence_allocate_private_stub(void);
void fence_destroy(struct shim_fence *f);
void fence_signal(struct shim_fence *f, int error);
int fence_add_callback(struct shim_fence *f, struct shim_fence_cb *cb,
		       void (*func)(struct shim_fence *,
				    struct shim_fence_cb *));
bool fence_remove_callback(struct shim_fence *f, struct shim_fence_cb *cb);
bool fence_is_signaled(struct shim_fence *f);

/* fence_unwrap.c */
struct shim_fence *fence_unwrap_merge(struct shim_fence *head);

#endif /* _VATOM_SHIM_FENCE_INTERNAL_H_ */
