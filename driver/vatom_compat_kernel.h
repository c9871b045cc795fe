/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * vatom: the kernel API differences between the kernels vatom builds on,
 * in one place, keyed on LINUX_VERSION_CODE. The driver calls the vatom_*
 * names below and has no version #if of its own.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_COMPAT_KERNEL_H_
#define _VATOM_COMPAT_KERNEL_H_

#include <linux/dma-buf.h>
#include <linux/version.h>

/*
 * 6.2 made dma_buf_vmap() a call under the buffer's reservation lock and
 * added the _unlocked variants, which take it; before, dma_buf_vmap() took
 * the dma-buf's own mutex.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define vatom_dma_buf_vmap	dma_buf_vmap_unlocked
#define vatom_dma_buf_vunmap	dma_buf_vunmap_unlocked
#else
#define vatom_dma_buf_vmap	dma_buf_vmap
#define vatom_dma_buf_vunmap	dma_buf_vunmap
#endif

#endif /* _VATOM_COMPAT_KERNEL_H_ */
