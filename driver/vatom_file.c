// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The per-file (per-context) state: created at open, destroyed once the
 * file's queues and jobs are gone (vatom_drv.c orders the two). It owns
 * the file's memory account (vatom_account.c) and the stream buffers
 * charged to it, the kernel copies of streams: its jobs' (one kept with
 * the job the file keeps between submissions) and its queues'.
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
	vfile->pid = task_tgid_nr(current);
	get_task_comm(vfile->comm, current);
	mutex_init(&vfile->lock);
	spin_lock_init(&vfile->jobs_lock);
	INIT_LIST_HEAD(&vfile->jobs);
	xa_init_flags(&vfile->queues, XA_FLAGS_ALLOC1);
	vfile->context = dma_fence_context_alloc(1);
	vfile->device_resets_open = atomic64_read(&vfile->vdev->stats.resets);
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
	/* Surfaces the file owns and that are still alive keep the account. */
	vatom_account_put(vfile->acct);
	mutex_destroy(&vfile->lock);
	kfree(vfile);
}

/**
 * __vatom_stream_buf_reserve() - vatom_stream_buf_reserve() when @sb is
 * smaller than @size: the one place a kernel copy of a stream is
 * allocated and charged, for SUBMIT's jobs and for the queues alike
 * @sb: the buffer, replaced by a larger one (its contents are not kept)
 * @acct: the account it is charged to
 * @size: bytes needed, at most %VATOM_MAX_STREAM_SIZE
 *
 * Return: 0; -ENOSPC past the account's cap or -ENOMEM, @sb unchanged.
 */
int __vatom_stream_buf_reserve(struct vatom_stream_buf *sb,
			       struct vatom_account *acct, u32 size)
{
	void *buf;
	int ret;

	ret = vatom_account_charge(acct, size);
	if (ret)
		return ret;
	buf = kvmalloc(size, GFP_KERNEL_ACCOUNT);
	if (!buf) {
		vatom_account_uncharge(acct, size);
		return -ENOMEM;
	}
	vatom_stream_buf_free(sb, acct);
	sb->buf = buf;
	sb->size = size;
	return 0;
}

/**
 * vatom_stream_buf_free() - free a stream buffer and return its charge
 * @sb: the buffer, empty afterwards
 * @acct: the account it was charged to
 */
void vatom_stream_buf_free(struct vatom_stream_buf *sb,
			   struct vatom_account *acct)
{
	if (!sb->buf)
		return;
	kvfree(sb->buf);
	vatom_account_uncharge(acct, sb->size);
	sb->buf = NULL;
	sb->size = 0;
}
