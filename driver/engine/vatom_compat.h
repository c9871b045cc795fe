/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The only header through which the engine touches its environment: fixed
 * width types and CPU atomic primitives, from the kernel when built into
 * vatom.ko and from the compiler when built into host tests and benchmarks.
 *
 * Every primitive is a full barrier (sequentially consistent), so each
 * device operation is at least as strong as any ordering an ISA asks for.
 */
#ifndef _VATOM_COMPAT_H_
#define _VATOM_COMPAT_H_

#ifdef __KERNEL__

#include <linux/atomic.h>
#include <linux/build_bug.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/types.h>

static inline u32 vatom_fetch_add32(u32 *p, u32 v)
{
	return (u32)atomic_fetch_add((int)v, (atomic_t *)p);
}

static inline u64 vatom_fetch_add64(u64 *p, u64 v)
{
	return (u64)atomic64_fetch_add((s64)v, (atomic64_t *)p);
}

static inline u32 vatom_xchg32(u32 *p, u32 v)
{
	return xchg(p, v);
}

static inline u64 vatom_xchg64(u64 *p, u64 v)
{
	return xchg(p, v);
}

/* For a 16-bit word whose containing dword is not all addressable. */
static inline u16 vatom_cmpxchg16(u16 *p, u16 old, u16 new)
{
	return cmpxchg(p, old, new);
}

/* 16-bit lock xadd and xchg: x86 has both for 2-byte operands. */
static inline u16 vatom_fetch_add16(u16 *p, u16 v)
{
	return xadd(p, v);
}

static inline u16 vatom_xchg16(u16 *p, u16 v)
{
	return xchg(p, v);
}

static inline u16 vatom_load16(const u16 *p)
{
	return READ_ONCE(*p);
}

static inline u32 vatom_cmpxchg32(u32 *p, u32 old, u32 new)
{
	return cmpxchg(p, old, new);
}

static inline u64 vatom_cmpxchg64(u64 *p, u64 old, u64 new)
{
	return cmpxchg(p, old, new);
}

static inline u32 vatom_load32(const u32 *p)
{
	return READ_ONCE(*p);
}

static inline u64 vatom_load64(const u64 *p)
{
	return READ_ONCE(*p);
}

static inline void vatom_store32(u32 *p, u32 v)
{
	WRITE_ONCE(*p, v);
	/* A store that others must see before any later atomic (NoC responses). */
	smp_mb();
}

/* Called between packets of a long stream. */
static inline void vatom_yield(void)
{
	cond_resched();
}

#else /* host */

#include <linux/types.h>
#include <assert.h>		/* static_assert() */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <sys/cdefs.h>		/* __attribute_noinline__ */

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s8 s8;
typedef __s16 s16;
typedef __s32 s32;
typedef __s64 s64;

#ifndef EINVAL
#include <errno.h>
#endif

/* The kernel's kernel.h has it. */
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* The kernel's compiler.h has them. */
#ifndef likely
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#endif

/* The kernel's compiler_attributes.h has it. */
#ifndef noinline
#define noinline	__attribute_noinline__
#endif

/*
 * The coverage build (make coverage) counts each helper's lines and
 * branches once, not once per call site it is inlined into: nothing is
 * forced inline there.
 */
#ifdef VATOM_COVERAGE
#undef __always_inline
#define __always_inline inline
#endif

/* The kernel's compiler_attributes.h has it (and -ftrivial-auto-var-init). */
#ifndef __uninitialized
#if __has_attribute(__uninitialized__)
#define __uninitialized	__attribute__((__uninitialized__))
#else
#define __uninitialized
#endif
#endif

/* The kernel's compiler_attributes.h has it. */
#ifndef __aligned
#define __aligned(x)	__attribute__((__aligned__(x)))
#endif

#define VATOM_SEQ __ATOMIC_SEQ_CST

static inline u32 vatom_fetch_add32(u32 *p, u32 v)
{
	return __atomic_fetch_add(p, v, VATOM_SEQ);
}

static inline u64 vatom_fetch_add64(u64 *p, u64 v)
{
	return __atomic_fetch_add(p, v, VATOM_SEQ);
}

static inline u32 vatom_xchg32(u32 *p, u32 v)
{
	return __atomic_exchange_n(p, v, VATOM_SEQ);
}

static inline u64 vatom_xchg64(u64 *p, u64 v)
{
	return __atomic_exchange_n(p, v, VATOM_SEQ);
}

static inline u16 vatom_cmpxchg16(u16 *p, u16 old, u16 new)
{
	__atomic_compare_exchange_n(p, &old, new, false, VATOM_SEQ, VATOM_SEQ);
	return old;
}

static inline u16 vatom_fetch_add16(u16 *p, u16 v)
{
	return __atomic_fetch_add(p, v, VATOM_SEQ);
}

static inline u16 vatom_xchg16(u16 *p, u16 v)
{
	return __atomic_exchange_n(p, v, VATOM_SEQ);
}

static inline u16 vatom_load16(const u16 *p)
{
	return __atomic_load_n(p, VATOM_SEQ);
}

static inline u32 vatom_cmpxchg32(u32 *p, u32 old, u32 new)
{
	__atomic_compare_exchange_n(p, &old, new, false, VATOM_SEQ, VATOM_SEQ);
	return old;
}

static inline u64 vatom_cmpxchg64(u64 *p, u64 old, u64 new)
{
	__atomic_compare_exchange_n(p, &old, new, false, VATOM_SEQ, VATOM_SEQ);
	return old;
}

static inline u32 vatom_load32(const u32 *p)
{
	return __atomic_load_n(p, VATOM_SEQ);
}

static inline u64 vatom_load64(const u64 *p)
{
	return __atomic_load_n(p, VATOM_SEQ);
}

static inline void vatom_store32(u32 *p, u32 v)
{
	__atomic_store_n(p, v, VATOM_SEQ);
}

static inline void vatom_yield(void)
{
}

#endif /* __KERNEL__ */

/*
 * 128-bit compare-and-swap of a 16-byte aligned location: lock cmpxchg16b.
 * Returns true when *p equalled @old and now holds @new; otherwise @old is
 * updated, atomically, with the value found. Spelled out because 6.1 has no
 * cmpxchg128() and libatomic's 16-byte CAS may take a lock.
 */
#ifndef __x86_64__
#error "vatom's 128-bit atomics need x86-64 cmpxchg16b"
#endif
static inline bool vatom_cmpxchg128(u64 *p, u64 old[2], const u64 new[2])
{
	bool ok;

	asm volatile("lock cmpxchg16b %1"
		     : "=@ccz"(ok), "+m"(*(u64 (*)[2])p),
		       "+a"(old[0]), "+d"(old[1])
		     : "b"(new[0]), "c"(new[1])
		     : "memory");
	return ok;
}

#endif /* _VATOM_COMPAT_H_ */
