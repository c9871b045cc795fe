// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Memory accounts: what one file makes the kernel hold, against the
 * per-file cap. An account outlives its file while a surface the file owns
 * is still alive (through a dma-buf or an mmap), so closing handles, or
 * the file, never makes memory the kernel still holds free of charge.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <linux/slab.h>

#include "vatom_account.h"
#include "vatom_limits.h"

/**
 * vatom_account_create() - a new, empty account, for a new file
 *
 * Return: the account, with one reference, or NULL.
 */
struct vatom_account *vatom_account_create(void)
{
	struct vatom_account *acct;

	acct = kzalloc(sizeof(*acct), GFP_KERNEL_ACCOUNT);
	if (acct)
		kref_init(&acct->ref);
	return acct;
}

/**
 * vatom_account_get() - take a reference to an account
 * @acct: the account
 */
void vatom_account_get(struct vatom_account *acct)
{
	kref_get(&acct->ref);
}

static void vatom_account_release(struct kref *ref)
{
	struct vatom_account *acct = container_of(ref, struct vatom_account, ref);

	/* Everything charged to it is gone: its charges must be too. */
	WARN_ON(atomic64_read(&acct->bytes));
	kfree(acct);
}

/**
 * vatom_account_put() - drop a reference to an account
 * @acct: the account
 */
void vatom_account_put(struct vatom_account *acct)
{
	kref_put(&acct->ref, vatom_account_release);
}

/**
 * vatom_account_charge() - charge @bytes to an account
 * @acct: the account
 * @bytes: bytes to charge
 *
 * Return: 0, or -ENOSPC when the cap would be exceeded (nothing charged).
 */
int vatom_account_charge(struct vatom_account *acct, u64 bytes)
{
	if ((u64)atomic64_add_return(bytes, &acct->bytes) > vatom_file_mem_cap()) {
		atomic64_sub(bytes, &acct->bytes);
		return -ENOSPC;
	}
	return 0;
}

/**
 * vatom_account_uncharge() - return bytes charged with
 * vatom_account_charge()
 * @acct: the account
 * @bytes: bytes to return
 */
void vatom_account_uncharge(struct vatom_account *acct, u64 bytes)
{
	atomic64_sub(bytes, &acct->bytes);
}
