/* SPDX-License-Identifier: MIT */
/*
 * libvatom internals, shared by the library's source files only.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_INTERNAL_H_
#define _VATOM_INTERNAL_H_

#include <pthread.h>

#include "vatom.h"

/*
 * Cross-file helpers are not static; the vatom__ prefix keeps them out of
 * the way of applications linking libvatom.a (the shared library hides
 * them with -fvisibility=hidden and its version script).
 */

#define VATOM_NODE_MAX 64

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct vatom_device {
	int fd;
	char node[VATOM_NODE_MAX];
	uint32_t uapi_version;
	uint64_t caps;
	uint64_t max_stream_size;	/* 0: unknown */
	uint64_t max_slots;		/* 0: unknown */
	uint64_t max_results_size;	/* 0: unknown */
	/* Surfaces by GEM handle, so that importing one twice shares it. */
	pthread_mutex_t lock;
	struct vatom_surface *surfaces;
};

struct vatom_surface {
	struct vatom_device *dev;
	struct vatom_surface *next;	/* dev->surfaces, under dev->lock */
	uint32_t handle;
	uint32_t kind;
	unsigned int refs;		/* under dev->lock */
	uint64_t size;
	uint64_t mmap_size;
	void *map;			/* cached mapping, or NULL */
	struct vatom__grid *grid;	/* tile grid layout (noc.c), or NULL */
};

/* Book-keeping of one packet of a batch. */
struct vatom_pkt {
	uint32_t stream_off;	/* offset of the packet in the stream */
	uint32_t size;		/* packet bytes */
	uint64_t res_off;	/* offset of its result region */
	uint32_t res_len;	/* data bytes of the (primary) result */
	uint32_t carry_off;	/* ADDC: carry region, relative to res_off */
};

struct vatom_batch {
	struct vatom_device *dev;
	uint8_t *stream;
	size_t size;
	size_t cap;
	struct vatom_pkt *pkts;
	unsigned int count;
	unsigned int pkts_cap;
	uint64_t results_size;		/* computed by the library */
	struct vatom_surface *slots[DRM_VATOM_MAX_SLOTS];
	struct drm_vatom_binding *bindings;	/* scratch for submit */
	uint8_t *resbuf;		/* library-managed results */
	size_t resbuf_cap;
	const uint8_t *results;		/* results of the last submission */
	int last_ret;
	uint32_t err_index;
	uint32_t err_reason;
};

/* Round up to the 8-byte granule of packets and result regions. */
static inline uint64_t vatom__align8(uint64_t v)
{
	return (v + 7) & ~(uint64_t)7;
}

int vatom__ioctl(int fd, unsigned long request, void *arg);
/* surface.c: a GEM handle's close and mapping, for objects that are not surfaces */
void vatom__gem_close(struct vatom_device *dev, uint32_t handle);
int vatom__gem_map(struct vatom_device *dev, uint32_t handle, size_t len,
		   void **ptr);
/* batch.c: append a packet (batch_prep.c encodes them); its index */
int vatom__pkt_append(struct vatom_batch *b, uint32_t type, size_t size,
		      uint32_t res_len, uint32_t carry_len, void **pkt);
int vatom__submit(struct vatom_batch *b, struct vatom_surface *rs,
		  uint64_t offset, const struct drm_vatom_sync *in,
		  unsigned int nin, const struct drm_vatom_sync *out,
		  unsigned int nout, uint32_t flags);

struct vatom_fence {
	struct vatom_device *dev;
	uint32_t syncobj;	/* a binary syncobj on dev->fd */
};

/*
 * The layout of docs/semantics-noc.md section 1: 512 bytes of NIU counters
 * per tile (two NoCs x 64 x 4 bytes), then the L1s row-major, packed.
 */
struct vatom__grid {
	uint32_t width;
	uint32_t height;
	struct {
		uint64_t off;		/* of the L1 in the surface */
		uint32_t size;		/* 0: DRAM, PCIe */
	} tile[];
};

/* grid.c: the layout of a tile grid created from @desc, kernel size @size. */
struct vatom__grid *vatom__grid_layout(const struct drm_vatom_tile_grid_desc *desc,
				       uint64_t size);

#endif /* _VATOM_INTERNAL_H_ */
