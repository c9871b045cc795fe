/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * vatom: memory accounts (vatom_account.c), one per file, shared with the
 * surfaces it owns.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_ACCOUNT_H_
#define _VATOM_ACCOUNT_H_

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/types.h>

/**
 * struct vatom_account - the bytes one file makes the kernel hold, against
 * its memory cap (vatom_file_mem_cap())
 * @ref: one for the file, one for each surface it owns: an owned surface
 *	stays charged after the file is closed, for as long as it lives
 * @bytes: bytes charged
 *
 * Charged: every surface the file owns (got the first handle to) for its
 * whole life, every surface it holds another handle to while it does,
 * its stream buffers (in use or kept), the jobs it has in flight and
 * their kernel copies of user results.
 */
struct vatom_account {
	struct kref ref;
	atomic64_t bytes;
};

struct vatom_account *vatom_account_create(void);
void vatom_account_get(struct vatom_account *acct);
void vatom_account_put(struct vatom_account *acct);
int vatom_account_charge(struct vatom_account *acct, u64 bytes);
void vatom_account_uncharge(struct vatom_account *acct, u64 bytes);

#endif /* _VATOM_ACCOUNT_H_ */
