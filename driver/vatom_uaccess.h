/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * vatom: the user copies of a submission's small arguments (its stream,
 * results, bindings and syncs), a word at a time: what every SUBMIT
 * copies is a few words, and copy_from_user()'s checks cost more than
 * the copy (docs/driver.md).
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_UACCESS_H_
#define _VATOM_UACCESS_H_

#include <linux/types.h>
#include <linux/uaccess.h>

/* What vatom_user_copy() does: read the user's bytes, write them. */
#define VATOM_COPY_IN	BIT(0)
#define VATOM_COPY_OUT	BIT(1)

/* Copies up to this size take vatom_user_copy()'s short path. */
#define VATOM_SMALL_COPY	256

/**
 * vatom_user_copy() - copy a small argument between user and kernel memory
 * @kbuf: a kernel buffer of the caller's, of at least @n bytes and 8-byte
 *	aligned
 * @ubuf: user memory
 * @n: bytes, a multiple of 8 (a stream's size is, and so is each
 *	packet's share of the results, which the UAPI lays out in 8-byte
 *	units, and every UAPI array entry)
 * @dir: %VATOM_COPY_IN, %VATOM_COPY_OUT or both
 *
 * %VATOM_COPY_IN reads the user's bytes into @kbuf, %VATOM_COPY_OUT
 * writes @kbuf's to the user; both read each word and write it back,
 * which proves the region writable and leaves it as it was. Up to
 * %VATOM_SMALL_COPY bytes, a word at a time in one user_access_begin()
 * section: copy_from_user()'s hardened-usercopy check of the kernel
 * buffer (five calls) cost more than copying a 1-packet stream, its
 * results or an array entry. Inline: each caller's @dir is a constant,
 * so its loop keeps only the copies it makes.
 *
 * Return: 0 or -EFAULT.
 */
static __always_inline int vatom_user_copy(void *kbuf, void __user *ubuf,
					   u64 n, unsigned int dir)
{
	u64 __user *uw = ubuf;
	u64 *kw = kbuf;
	u64 i;

	if (n > VATOM_SMALL_COPY) {
		if ((dir & VATOM_COPY_IN) && copy_from_user(kbuf, ubuf, n))
			return -EFAULT;
		if ((dir & VATOM_COPY_OUT) && copy_to_user(ubuf, kbuf, n))
			return -EFAULT;
		return 0;
	}
	if (!user_access_begin(ubuf, n))
		return -EFAULT;
	for (i = 0; i < n / 8; i++) {
		if (dir & VATOM_COPY_IN)
			unsafe_get_user(kw[i], &uw[i], fault);
		if (dir & VATOM_COPY_OUT)
			unsafe_put_user(kw[i], &uw[i], fault);
	}
	user_access_end();
	return 0;
fault:
	user_access_end();
	return -EFAULT;
}

#endif /* _VATOM_UACCESS_H_ */
