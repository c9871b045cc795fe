/* SPDX-License-Identifier: MIT */
/*
 * lock.h: the mutex of the locks every call takes on its way (the
 * descriptor table's, a file's handles and submissions, a queue's). A
 * futex word, as the kernel's mutex is one atomic when uncontended: an
 * uncontended lock and unlock are one atomic instruction each, where
 * glibc's pthread_mutex_t spends some fifty instructions on its kinds,
 * robustness and elision. Contended, a waiter sleeps in the kernel
 * (FUTEX_WAIT) until the holder wakes one (Drepper, "Futexes Are Tricky",
 * mutex 3). No condition variable waits on one: those keep
 * pthread_mutex_t.
 */
#ifndef _VATOM_SHIM_LOCK_H_
#define _VATOM_SHIM_LOCK_H_

#include <stdatomic.h>
#include <stdbool.h>

/**
 * struct shim_mutex - a mutex
 * @v: 0 free, 1 held, 2 held and maybe waited for
 */
struct shim_mutex {
	atomic_int v;
};

#define SHIM_MUTEX_INIT	{ 0 }

void shim_mutex_wait(struct shim_mutex *m);
void shim_mutex_wake(struct shim_mutex *m);

/* Free, as after a fork() in the child whatever it was in the parent. */
static inline void shim_mutex_init(struct shim_mutex *m)
{
	atomic_init(&m->v, 0);
}

/* 0 to 1, or what it was: @m's one atomic when it is free. */
static inline int shim_mutex_take(struct shim_mutex *m)
{
	int c = 0;

	atomic_compare_exchange_strong_explicit(&m->v, &c, 1,
						memory_order_acquire,
						memory_order_relaxed);
	return c;
}

static inline void shim_mutex_lock(struct shim_mutex *m)
{
	if (__builtin_expect(shim_mutex_take(m), 0))
		shim_mutex_wait(m);
}

/* Return: true when it took the lock, false when someone holds it. */
static inline bool shim_mutex_trylock(struct shim_mutex *m)
{
	return !shim_mutex_take(m);
}

static inline void shim_mutex_unlock(struct shim_mutex *m)
{
	int was = atomic_exchange_explicit(&m->v, 0, memory_order_release);

	if (__builtin_expect(was == 2, 0))
		shim_mutex_wake(m);
}

#endif /* _VATOM_SHIM_LOCK_H_ */
