// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The per-file (per-context) state: created at open, destroyed once the
 * file's queues and jobs are gone (vatom_drv.c orders the two). It owns
 * the file's memory account (vatom_account.c) and the one stream buffer
 * the file keeps between submissions.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <linux/dma-fence.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "vatom_compat_kernel.h"
#include "vatom_file.h"

/**
 * vatom_file_create() - the context of a file being opened
 * @dev: the device
 * @file: the new file
 *
 * Return: the context, or ERR_PTR(-ENOMEM).
 */
struct vatom_file *vatom_file_create(struct drm_device *dev,
				     struct drm_file *file)
{
	struct vatom_file *vfile;

	vfile = kzalloc(sizeof(*vfile), GFP_KERNEL_ACCOUNT);
	if (!vfile)
		return ERR_PTR(-ENOMEM);
	vfile->acct = vatom_account_create();
	if (!vfile->acct) {
		kfree(vfile);
		return ERR_PTR(-ENOMEM);
	}
	vfile->vdev = to_vatom_device(dev);
	vfile->client_id = vatom_client_id(file);
	mutex_init(&vfile->lock);
	spin_lock_init(&vfile->spare_lock);
	INIT_LIST_HEAD(&vfile->jobs);
	xa_init_flags(&vfile->queues, XA_FLAGS_ALLOC1);
	vfile->context = dma_fence_context_alloc(1);
	atomic_set(&vfile->live, 1);
	init_completion(&vfile->idle);
	return vfile;
}

/**
 * vatom_file_destroy() - free a file's context
 * @vfile: the context, whose queues and jobs are gone (vatom_file_jobs_release())
 */
void vatom_file_destroy(struct vatom_file *vfile)
{
	WARN_ON(!list_empty(&vfile->jobs));
	dma_fence_put(vfile->last_fence);
	kvfree(vfile->spare);
	vatom_account_uncharge(vfile->acct, vfile->spare_size);
	/* Surfaces the file owns and that are still alive keep the account. */
	vatom_account_put(vfile->acct);
	mutex_destroy(&vfile->lock);
	kfree(vfile);
}

/**
 * vatom_file_stream_get() - a buffer for the kernel copy of a stream
 * @vfile: the submitting file
 * @size: bytes needed, at most %VATOM_MAX_STREAM_SIZE
 * @alloc: out, bytes of the buffer
 *
 * Large streams come from vmalloc, whose fresh pages cost a fault and a
 * clear each under TCG and more than the atomics themselves on real CPUs:
 * the file's previous stream buffer is reused when it is large enough. The
 * buffer only ever holds this file's own streams and is overwritten up to
 * @size before it is read. A stream buffer is charged to the file for as
 * long as it exists, kept or in use.
 *
 * Return: the buffer (free with vatom_file_stream_put()), ERR_PTR(-ENOSPC)
 * past the file's memory cap or ERR_PTR(-ENOMEM).
 */
void *vatom_file_stream_get(struct vatom_file *vfile, u32 size, u32 *alloc)
{
	void *buf = NULL;
	int ret;

	spin_lock(&vfile->spare_lock);
	if (vfile->spare && vfile->spare_size >= size) {
		buf = vfile->spare;
		*alloc = vfile->spare_size;
		vfile->spare = NULL;
		vfile->spare_size = 0;
	}
	spin_unlock(&vfile->spare_lock);
	if (buf)
		return buf;

	ret = vatom_account_charge(vfile->acct, size);
	if (ret)
		return ERR_PTR(ret);
	buf = kvmalloc(size, GFP_KERNEL_ACCOUNT);
	if (!buf) {
		vatom_account_uncharge(vfile->acct, size);
		return ERR_PTR(-ENOMEM);
	}
	*alloc = size;
	return buf;
}

/**
 * vatom_file_stream_put() - give back a buffer of vatom_file_stream_get()
 * @vfile: the file
 * @buf: the buffer, or NULL
 * @alloc: its bytes
 *
 * The file keeps the larger of it and its spare (one buffer of at most
 * %VATOM_MAX_STREAM_SIZE) and the other is freed.
 */
void vatom_file_stream_put(struct vatom_file *vfile, void *buf, u32 alloc)
{
	void *drop = buf;
	u32 drop_size = alloc;

	if (!buf)
		return;
	spin_lock(&vfile->spare_lock);
	if (alloc > vfile->spare_size) {
		drop = vfile->spare;
		drop_size = vfile->spare_size;
		vfile->spare = buf;
		vfile->spare_size = alloc;
	}
	spin_unlock(&vfile->spare_lock);
	kvfree(drop);
	vatom_account_uncharge(vfile->acct, drop_size);
}
