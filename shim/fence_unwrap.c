// SPDX-License-Identifier: MIT
/*
 * fence_unwrap.c: TRANSFER's merge, in-process: dma-fence-unwrap.c and
 * dma-fence-array.c of Linux 6.1.
 *
 * A TRANSFER to a timeline point unwraps the source's fence (the fences
 * inside its chain nodes and arrays) and merges the unsignaled ones into
 * one fence: an array of them, which signals once they all have, with
 * the first error. Its array_ops are this file's: fence.c knows no more
 * of it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "fence_internal.h"
#include "fence_chain.h"

struct array_cb {
	struct shim_fence_cb cb;
	struct shim_fence *array;
};

static const struct shim_fence_ops array_ops;

static bool is_array(struct shim_fence *f)
{
	return f->ops == &array_ops;
}

static void array_cb_func(struct shim_fence *f, struct shim_fence_cb *cb)
{
	struct shim_fence *array = container_of(cb, struct array_cb, cb)->array;
	int zero = 0;

	/* dma_fence_array_set_pending_error(): the first error wins */
	if (f->error)
		__atomic_compare_exchange_n(&array->array.pending_error, &zero,
					    f->error, false, __ATOMIC_RELAXED,
					    __ATOMIC_RELAXED);
	if (__atomic_sub_fetch(&array->array.num_pending, 1,
			       __ATOMIC_ACQ_REL) == 0)
		fence_signal(array,
			     __atomic_load_n(&array->array.pending_error,
					     __ATOMIC_RELAXED));
	shim_fence_put(array);
}

/* dma_fence_array_release() */
static struct shim_fence *array_release(struct shim_fence *array)
{
	unsigned int i;

	for (i = 0; i < array->array.num; i++)
		shim_fence_put(array->array.fences[i]);
	free(array->array.fences);
	free(array->array.cbs);
	return NULL;
}

/*
 * dma_fence_array_ops: armed when made (below), so no enable_signaling;
 * signaled only once latched.
 */
static const struct shim_fence_ops array_ops = {
	.release = array_release,
};

/*
 * dma_fence_array_create(num, fences, context, 1, false): signals once all
 * have, with the first error. Armed at once: 6.1's arms on the first wait
 * and, until then, reads unsignaled even to QUERY; here it never lags.
 * Takes the array of references. NULL when out of memory.
 */
static struct shim_fence *fence_array_create(unsigned int num,
					     struct shim_fence **fences)
{
	struct shim_fence *a = malloc(sizeof(*a));
	unsigned int i;

	if (a)
		fence_init(a, &array_ops);
	if (a)
		a->array.cbs = calloc(num, sizeof(*a->array.cbs));
	if (!a || !a->array.cbs) {
		free(a);
		return NULL;
	}
	a->context = fence_context_alloc();
	a->seqno = 1;
	a->array.num = num;
	a->array.fences = fences;
	/* one extra, dropped below: no element signals it while arming */
	a->array.num_pending = num + 1;
	for (i = 0; i < num; i++) {
		a->array.cbs[i].array = shim_fence_get(a);
		if (fence_add_callback(fences[i], &a->array.cbs[i].cb,
				       array_cb_func))
			array_cb_func(fences[i], &a->array.cbs[i].cb);
	}
	if (__atomic_sub_fetch(&a->array.num_pending, 1, __ATOMIC_ACQ_REL) == 0)
		fence_signal(a, __atomic_load_n(&a->array.pending_error,
						__ATOMIC_RELAXED));
	return a;
}

static int fence_vec_add(struct shim_fence ***v, unsigned int *n,
			 unsigned int *cap, struct shim_fence *f)
{
	unsigned int i;

	for (i = 0; i < *n; i++)	/* same fence twice: keep one */
		if ((*v)[i] == f)
			return 0;
	if (*n == *cap) {
		unsigned int ncap = *cap ? *cap * 2 : 8;
		struct shim_fence **nv = realloc(*v, ncap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		*v = nv;
		*cap = ncap;
	}
	(*v)[(*n)++] = shim_fence_get(f);
	return 0;
}

/*
 * dma_fence_unwrap_merge(@head): the unsignaled fences inside @head's
 * chain nodes and arrays, as one fence: a signaled stub when none is
 * left, the fence itself when one, else an array of them. The kernel
 * also keeps only the later of two fences of one context; the shim's
 * own fences each have a context, so that only removes duplicates.
 */
struct shim_fence *fence_unwrap_merge(struct shim_fence *head)
{
	struct shim_fence **v = NULL, *iter, *res;
	unsigned int n = 0, cap = 0, i;

	chain_for_each(iter, head) {
		struct shim_fence *c = chain_contained(iter);
		unsigned int num = is_array(c) ? c->array.num : 1;

		for (i = 0; i < num; i++) {
			struct shim_fence *f = is_array(c) ?
					       c->array.fences[i] : c;

			if (fence_is_signaled(f))
				continue;
			if (fence_vec_add(&v, &n, &cap, f)) {
				shim_fence_put(iter);
				goto nomem;
			}
		}
	}

	if (n == 0) {
		free(v);
		return fence_get_stub();
	}
	if (n == 1) {
		res = v[0];
		free(v);
		return res;
	}
	res = fence_array_create(n, v);
	if (res)
		return res;
nomem:
	for (i = 0; i < n; i++)
		shim_fence_put(v[i]);
	free(v);
	return NULL;
}
