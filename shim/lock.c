// SPDX-License-Identifier: MIT
/*
 * lock.c: the slow paths of lock.h's mutex, the two that enter the
 * kernel. A process-private futex: fork()'s child has its own copy.
 */
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lock.h"

/**
 * shim_mutex_wait() - take @m, which was held: sleep until it is free
 * @m: the mutex
 *
 * It is marked waited for (2) before each sleep, so its unlock wakes one
 * sleeper; the one woken takes it as waited for, since others may sleep
 * still.
 */
void shim_mutex_wait(struct shim_mutex *m)
{
	while (atomic_exchange_explicit(&m->v, 2, memory_order_acquire))
		syscall(SYS_futex, &m->v, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
}

/**
 * shim_mutex_wake() - wake one sleeper of @m, just unlocked
 * @m: the mutex
 */
void shim_mutex_wake(struct shim_mutex *m)
{
	syscall(SYS_futex, &m->v, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}
