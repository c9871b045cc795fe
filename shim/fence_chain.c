// SPDX-License-Identifier: MIT
/*
 * fence_chain.c: timeline points, in-process: dma-fence-chain.c of Linux
 * 6.1, for the timeline syncobjs (syncobj.c).
 *
 * A point is a chain node: a fence of its own that holds the point's
 * fence and the timeline's previous node, and signals once they all
 * have. Its callback is armed lazily, on the first wait or callback, as
 * 6.1's; walking a chain unlinks the nodes whose fences have signaled.
 * fence.c reaches a node's insides only through chain_ops.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "fence_internal.h"
#include "fence_chain.h"

static const struct shim_fence_ops chain_ops;

bool is_chain(struct shim_fence *f)
{
	return f && f->ops == &chain_ops;
}

/* dma_fence_chain_contained() */
struct shim_fence *chain_contained(struct shim_fence *f)
{
	return is_chain(f) ? f->chain.fence : f;
}

/* dma_fence_chain_get_prev() */
static struct shim_fence *chain_get_prev(struct shim_fence *chain)
{
	struct shim_fence *prev;

	pthread_mutex_lock(&chain->lock);
	prev = shim_fence_get(chain->chain.prev);
	pthread_mutex_unlock(&chain->lock);
	return prev;
}

/*
 * dma_fence_chain_walk(): the next node with an unsignaled fence,
 * unlinking (garbage collecting) the signaled ones on the way. Consumes
 * the reference to @fence, returns one to the result.
 */
struct shim_fence *chain_walk(struct shim_fence *fence)
{
	struct shim_fence *prev, *replacement;

	if (!is_chain(fence)) {
		shim_fence_put(fence);
		return NULL;
	}

	while ((prev = chain_get_prev(fence))) {
		if (is_chain(prev)) {
			if (!fence_is_signaled(prev->chain.fence))
				break;
			replacement = chain_get_prev(prev);
		} else {
			if (!fence_is_signaled(prev))
				break;
			replacement = NULL;
		}

		/* cmpxchg(&chain->prev, prev, replacement) */
		pthread_mutex_lock(&fence->lock);
		if (fence->chain.prev == prev) {
			fence->chain.prev = replacement;
			pthread_mutex_unlock(&fence->lock);
			shim_fence_put(prev);
		} else {
			pthread_mutex_unlock(&fence->lock);
			shim_fence_put(replacement);
		}
		shim_fence_put(prev);
	}

	shim_fence_put(fence);
	return prev;
}

/*
 * dma_fence_chain_find_seqno(): advance *@pfence to the node that signals
 * @seqno. -EINVAL when *@pfence is not a chain or the timeline has not
 * reached @seqno; *@pfence may become NULL: the point has signaled.
 */
int chain_find_seqno(struct shim_fence **pfence, uint64_t seqno)
{
	struct shim_fence *chain = *pfence;

	if (!seqno)
		return 0;

	if (!is_chain(chain) || chain->seqno < seqno)
		return -EINVAL;

	chain_for_each(*pfence, chain) {
		if ((*pfence)->context != chain->context ||
		    (*pfence)->chain.prev_seqno < seqno)
			break;
	}
	shim_fence_put(chain);
	return 0;
}

static bool chain_enable_signaling(struct shim_fence *head);

static void chain_cb(struct shim_fence *f, struct shim_fence_cb *cb)
{
	struct shim_fence *chain = container_of(cb, struct shim_fence,
						chain.cb);

	shim_fence_put(f);
	/* dma_fence_chain_irq_work(): try to rearm the callback */
	if (!chain_enable_signaling(chain))
		/* no more unsignaled fences left */
		fence_signal(chain, 0);
	shim_fence_put(chain);
}

/* dma_fence_chain_enable_signaling(): arm on the first pending fence */
static bool chain_enable_signaling(struct shim_fence *head)
{
	struct shim_fence *iter;

	shim_fence_get(head);
	chain_for_each(iter, head) {
		struct shim_fence *f = chain_contained(iter);

		shim_fence_get(f);
		if (!fence_add_callback(f, &head->chain.cb, chain_cb)) {
			shim_fence_put(iter);
			return true;
		}
		shim_fence_put(f);
	}
	shim_fence_put(head);
	return false;
}

/* dma_fence_chain_signaled() */
static bool chain_signaled(struct shim_fence *fence)
{
	struct shim_fence *iter;

	chain_for_each(iter, fence) {
		if (!fence_is_signaled(chain_contained(iter))) {
			shim_fence_put(iter);
			return false;
		}
	}
	return true;
}

/*
 * dma_fence_chain_release(): drops the node's fence; its previous node is
 * handed back for shim_fence_put()'s loop to drop.
 */
static struct shim_fence *chain_release(struct shim_fence *chain)
{
	shim_fence_put(chain->chain.fence);
	return chain->chain.prev;
}

/* dma_fence_chain_ops */
static const struct shim_fence_ops chain_ops = {
	.enable_signaling = chain_enable_signaling,
	.signaled = chain_signaled,
	.release = chain_release,
};

/* dma_fence_chain_init(): takes the references to @prev and @fence */
void chain_init(struct shim_fence *chain, struct shim_fence *prev,
		struct shim_fence *fence, uint64_t seqno)
{
	uint64_t context;

	chain->chain.prev = prev;
	chain->chain.fence = fence;
	chain->chain.prev_seqno = 0;

	/* Try to reuse the context of the previous chain node. */
	if (is_chain(prev) && seqno > prev->seqno) {
		context = prev->context;
		chain->chain.prev_seqno = prev->seqno;
	} else {
		context = fence_context_alloc();
		/* Make sure that we always have a valid sequence number. */
		if (is_chain(prev) && prev->seqno > seqno)
			seqno = prev->seqno;
	}
	chain->context = context;
	chain->seqno = seqno;
}

struct shim_chain *shim_chain_alloc(void)
{
	struct shim_chain *c = malloc(sizeof(*c));

	if (!c)
		return NULL;
	fence_init(&c->base, &chain_ops);
	return c;
}

void shim_chain_free(struct shim_chain *chain)
{
	if (chain)
		fence_destroy(&chain->base);
}
