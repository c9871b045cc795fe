/* SPDX-License-Identifier: MIT */
/*
 * fence_chain.h: timeline points, dma-fence-chain.h for the shim: what
 * fence_chain.c gives the syncobj files and fence_unwrap.c (the rest of
 * the shim allocates a node through fence.h). fence_internal.h, the
 * fences' core, names nothing of a chain, as dma-fence.h names no
 * dma_fence_chain: fence.c reaches a node only through its ops.
 */
#ifndef _VATOM_SHIM_FENCE_CHAIN_H_
#define _VATOM_SHIM_FENCE_CHAIN_H_

#include <stdbool.h>
#include <stdint.h>

#include "fence_internal.h"

/* struct dma_fence_chain: the node's fields are @base's chain member */
struct shim_chain {
	struct shim_fence base;
};

bool is_chain(struct shim_fence *f);
struct shim_fence *chain_contained(struct shim_fence *f);
struct shim_fence *chain_walk(struct shim_fence *fence);
int chain_find_seqno(struct shim_fence **pfence, uint64_t seqno);
void chain_init(struct shim_fence *chain, struct shim_fence *prev,
		struct shim_fence *fence, uint64_t seqno);

/* dma_fence_chain_for_each() */
#define chain_for_each(iter, head) \
	for (iter = shim_fence_get(head); iter; iter = chain_walk(iter))

#endif /* _VATOM_SHIM_FENCE_CHAIN_H_ */
