/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* io_uring's NOP round trips, the peer of vm_bench's queue rows. */
#ifndef VM_URING_H
#define VM_URING_H

#include <stdbool.h>

/*
 * Set up the plain ring and, with @sqpoll, the SQPOLL one, whose kernel
 * thread spins from then on; exits on failure.
 */
void uring_init(bool sqpoll);
void uring_fini(void);
/* A NOP submitted and waited for with one io_uring_enter(). */
void uring_nop_enter(void);
/* A NOP through the SQPOLL ring: submitted and reaped without a call. */
void uring_nop_sqpoll(void);

#endif
