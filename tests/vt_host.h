/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Helpers the host tests (tests/) and the benchmarks (bench/) share, so
 * that each exists once: a monotonic clock, the xorshift64 generator,
 * 8-byte alignment of stream offsets, a growable stream buffer, and the
 * float bit casts. Header-only, standard C types, so that it builds with
 * the engine's compat types and without them.
 */
#ifndef _VT_HOST_H_
#define _VT_HOST_H_

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Seconds on CLOCK_MONOTONIC. */
static inline double vt_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 * Marsaglia's xorshift64 (13, 7, 17): the next state, which is also the
 * value. Deterministic, so a failure replays; never 0 from a non-zero seed.
 */
static inline uint64_t vt_xorshift64(uint64_t x)
{
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return x;
}

/* Packets and result regions are 8-byte granular. */
static inline size_t vt_align8(size_t v)
{
	return (v + 7) & ~(size_t)7;
}

/* A growable, zero-filled byte buffer for command streams. */
struct vt_sbuf {
	uint8_t *p;
	size_t len, cap;
};

/*
 * Append @n zeroed bytes and return them. The buffer doubles from 4 KiB and
 * is 64-byte aligned (aligned_alloc and a copy: realloc would lose the
 * alignment the stream API asks for); out of memory ends the program.
 */
static inline void *vt_sb_put(struct vt_sbuf *s, size_t n)
{
	void *q;

	if (s->len + n > s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 4096;

		while (cap < s->len + n)
			cap *= 2;
		q = aligned_alloc(64, cap);
		if (!q) {
			perror("aligned_alloc");
			exit(2);
		}
		if (s->len)
			memcpy(q, s->p, s->len);
		free(s->p);
		s->p = q;
		s->cap = cap;
	}
	q = s->p + s->len;
	memset(q, 0, n);
	s->len += n;
	return q;
}

/* Float bit casts (memcpy: no aliasing questions). */
static inline uint32_t vt_f32_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

static inline float vt_bits_f32(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static inline uint64_t vt_f64_bits(double d)
{
	uint64_t u;

	memcpy(&u, &d, 8);
	return u;
}

static inline double vt_bits_f64(uint64_t u)
{
	double d;

	memcpy(&d, &u, 8);
	return d;
}

#endif /* _VT_HOST_H_ */
