// SPDX-License-Identifier: MIT
/*
 * syncobj_test.c: the shim's syncobjs (shim/syncobj*.c, shim/fence*.c)
 * against what Linux 6.1's drm_syncobj.c and dma_fence_chain do, as TAP.
 *
 * Every expected value comes from the kernel's code and documentation,
 * noted where it is not obvious, not from running the shim. Linked with
 * those files, eventfd.c and real.c alone: the fdtable.c and fault.c
 * functions they need are stood in for below (an fd table without dup(),
 * copies that fault only on NULL).
 *
 *   gcc -std=gnu11 -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE -Ishim \
 *       -Iuapi $(pkg-config --cflags libdrm) shim/test/<this file> \
 *       shim/syncobj*.c shim/fence*.c shim/eventfd.c shim/real.c -o <test> \
 *       -pthread && \
 *       <test>
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>

#include <drm.h>

#include "shim.h"
#include "syncobj.h"

/* ------------------------------------------------------------------ */
/* stand-ins for fdtable.c and fault.c                                  */
/* ------------------------------------------------------------------ */

#define MAX_TRACKED 256

static struct {
	int fd;
	const struct shim_fd_ops *ops;
	void *data;
} tracked[MAX_TRACKED];
static pthread_mutex_t tracked_lock = PTHREAD_MUTEX_INITIALIZER;

int shim_fd_track(int fd, const struct shim_fd_ops *ops, void *data)
{
	int i, ret = -ENOMEM;

	pthread_mutex_lock(&tracked_lock);
	for (i = 0; i < MAX_TRACKED; i++) {
		if (!tracked[i].ops) {
			tracked[i].fd = fd;
			tracked[i].ops = ops;
			tracked[i].data = data;
			ret = 0;
			break;
		}
	}
	pthread_mutex_unlock(&tracked_lock);
	return ret;
}

void *shim_fd_lookup(int fd, const struct shim_fd_ops *ops)
{
	void *data = NULL;
	int i;

	pthread_mutex_lock(&tracked_lock);
	for (i = 0; i < MAX_TRACKED; i++)
		if (tracked[i].ops == ops && tracked[i].fd == fd)
			data = tracked[i].data;
	pthread_mutex_unlock(&tracked_lock);
	return data;
}

void *shim_fd_get(int fd, const struct shim_fd_ops *ops, void *(*get)(void *))
{
	void *data = NULL;
	int i;

	pthread_mutex_lock(&tracked_lock);
	for (i = 0; i < MAX_TRACKED; i++)
		if (tracked[i].ops == ops && tracked[i].fd == fd)
			data = get(tracked[i].data);
	pthread_mutex_unlock(&tracked_lock);
	return data;
}

int shim_copy_in(void *dst, const void *usrc, size_t n)
{
	if (!n)
		return 0;
	if (!usrc)
		return -EFAULT;
	memcpy(dst, usrc, n);
	return 0;
}

int shim_copy_out(void *udst, const void *src, size_t n)
{
	if (!n)
		return 0;
	if (!udst)
		return -EFAULT;
	memcpy(udst, src, n);
	return 0;
}

/* the shim's own descriptors: copies, with nothing to hide them from */
int shim_fd_private_dup(int fd)
{
	int copy = fcntl(fd, F_DUPFD_CLOEXEC, 0);

	return copy < 0 ? -errno : copy;
}

void shim_fd_private_close(int fd)
{
	if (fd >= 0)
		close(fd);
}

bool shim_fd_is_open(int fd)
{
	return fd >= 0 && fcntl(fd, F_GETFD) >= 0;
}

/* close() as preload_fd.c does it: the last close releases the object */
static void test_close(int fd)
{
	const struct shim_fd_ops *ops = NULL;
	void *data = NULL;
	int i;

	pthread_mutex_lock(&tracked_lock);
	for (i = 0; i < MAX_TRACKED; i++) {
		if (tracked[i].ops && tracked[i].fd == fd) {
			ops = tracked[i].ops;
			data = tracked[i].data;
			tracked[i].ops = NULL;
			break;
		}
	}
	pthread_mutex_unlock(&tracked_lock);
	close(fd);
	if (ops)
		ops->release(data);
}

/* ------------------------------------------------------------------ */
/* TAP                                                                  */
/* ------------------------------------------------------------------ */

static int test_count, fail_count;

static void __attribute__((format(printf, 2, 3)))
ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	test_count++;
	if (!cond)
		fail_count++;
	printf("%sok %d - ", cond ? "" : "not ", test_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

#define is(got, want, desc) do {					\
	long long _g = (long long)(got), _w = (long long)(want);	\
	ok(_g == _w, "%s", desc);					\
	if (_g != _w)							\
		printf("#   got %lld, want %lld\n", _g, _w);		\
} while (0)

/* ------------------------------------------------------------------ */
/* helpers                                                              */
/* ------------------------------------------------------------------ */

#define MS 1000000LL

static int64_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * MS };

	nanosleep(&ts, NULL);
}

static uint32_t create(struct shim_syncobjs *t, uint32_t flags)
{
	struct drm_syncobj_create c = { .flags = flags };
	int ret = shim_syncobj_ioctl(t, DRM_IOCTL_SYNCOBJ_CREATE, &c);

	if (ret) {
		printf("Bail out! DRM_IOCTL_SYNCOBJ_CREATE: %d\n", ret);
		exit(1);
	}
	return c.handle;
}

static int destroy(struct shim_syncobjs *t, uint32_t handle, uint32_t pad)
{
	struct drm_syncobj_destroy d = { .handle = handle, .pad = pad };

	return shim_syncobj_ioctl(t, DRM_IOCTL_SYNCOBJ_DESTROY, &d);
}

static int wait_n(struct shim_syncobjs *t, uint32_t *handles, uint32_t count,
		  uint32_t flags, int64_t timeout, uint32_t *first)
{
	struct drm_syncobj_wait w = {
		.handles = (uintptr_t)handles,
		.timeout_nsec = timeout,
		.count_handles = count,
		.flags = flags,
		.first_signaled = 1234,
	};
	int ret = shim_syncobj_ioctl(t, DRM_IOCTL_SYNCOBJ_WAIT, &w);

	if (first)
		*first = w.first_signaled;
	return ret;
}

static int wait1(struct shim_syncobjs *t, uint32_t h, uint32_t flags,
		 int64_t timeout)
{
	return wait_n(t, &h, 1, flags, timeout, NULL);
}

static int twait_n(struct shim_syncobjs *t, uint32_t *handles,
		   uint64_t *points, uint32_t count, uint32_t flags,
		   int64_t timeout, uint32_t *first)
{
	struct drm_syncobj_timeline_wait w = {
		.handles = (uintptr_t)handles,
		.points = (uintptr_t)points,
		.timeout_nsec = timeout,
		.count_handles = count,
		.flags = flags,
		.first_signaled = 1234,
	};
	int ret = shim_syncobj_ioctl(t, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w);

	if (first)
		*first = w.first_signaled;
	return ret;
}

static int twait1(struct shim_syncobjs *t, uint32_t h, uint64_t point,
		  uint32_t flags, int64_t timeout)
{
	return twait_n(t, &h, &point, 1, flags, timeout, NULL);
}

static int array_op(struct shim_syncobjs *t, unsigned long req,
		    uint32_t *handles, uint32_t count, uint32_t pad)
{
	struct drm_syncobj_array a = {
		.handles = (uintptr_t)handles,
		.count_handles = count,
		.pad = pad,
	};

	return shim_syncobj_ioctl(t, req, &a);
}

static int tarray_op(struct shim_syncobjs *t, unsigned long req,
		     uint32_t *handles, uint64_t *points, uint32_t count,
		     uint32_t flags)
{
	struct drm_syncobj_timeline_array a = {
		.handles = (uintptr_t)handles,
		.points = (uintptr_t)points,
		.count_handles = count,
		.flags = flags,
	};

	return shim_syncobj_ioctl(t, req, &a);
}

/* QUERY of one handle; UINT64_MAX when the ioctl fails */
static uint64_t query(struct shim_syncobjs *t, uint32_t h, uint32_t flags)
{
	uint64_t point = 0xdead;

	if (tarray_op(t, DRM_IOCTL_SYNCOBJ_QUERY, &h, &point, 1, flags))
		return UINT64_MAX;
	return point;
}

static int tsignal(struct shim_syncobjs *t, uint32_t h, uint64_t point)
{
	return tarray_op(t, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, &h, &point, 1, 0);
}

static int transfer(struct shim_syncobjs *t, uint32_t src, uint64_t src_point,
		    uint32_t dst, uint64_t dst_point, uint32_t flags,
		    uint32_t pad)
{
	struct drm_syncobj_transfer x = {
		.src_handle = src,
		.dst_handle = dst,
		.src_point = src_point,
		.dst_point = dst_point,
		.flags = flags,
		.pad = pad,
	};

	return shim_syncobj_ioctl(t, DRM_IOCTL_SYNCOBJ_TRANSFER, &x);
}

static int handle_to_fd(struct shim_syncobjs *t, uint32_t h, uint32_t flags,
			uint32_t pad, int *fd)
{
	struct drm_syncobj_handle a = {
		.handle = h, .flags = flags, .fd = -1, .pad = pad,
	};
	int ret = shim_syncobj_ioctl(t, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &a);

	*fd = a.fd;
	return ret;
}

static int fd_to_handle(struct shim_syncobjs *t, int fd, uint32_t flags,
			uint32_t pad, uint32_t *h)
{
	struct drm_syncobj_handle a = {
		.handle = *h, .flags = flags, .fd = fd, .pad = pad,
	};
	int ret = shim_syncobj_ioctl(t, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &a);

	*h = a.handle;
	return ret;
}

static void replace(struct shim_syncobjs *t, uint32_t h, struct shim_fence *f)
{
	struct shim_syncobj *s = shim_syncobj_find(t, h);

	shim_syncobj_replace_fence(s, f);
	shim_syncobj_put(s);
}

static void add_point(struct shim_syncobjs *t, uint32_t h,
		      struct shim_fence *f, uint64_t point)
{
	struct shim_syncobj *s = shim_syncobj_find(t, h);

	shim_syncobj_add_point(s, shim_chain_alloc(), f, point);
	shim_syncobj_put(s);
}

static struct shim_fence *find(struct shim_syncobjs *t, uint32_t h,
			       uint64_t point)
{
	struct shim_fence *f = NULL;

	shim_syncobj_find_fence(t, h, point, 0, &f);
	return f;
}

static int fence_status_at(struct shim_syncobjs *t, uint32_t h, uint64_t pt)
{
	struct shim_fence *f = find(t, h, pt);
	int st = f ? shim_fence_status(f) : -1000;

	shim_fence_put(f);
	return st;
}

static bool readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

/* a thread doing some steps later: replace, add a point, signal */
enum step_kind { STEP_REPLACE, STEP_ADD_POINT, STEP_SIGNAL };

struct step {
	int delay_ms;
	enum step_kind kind;
	uint32_t handle;
	struct shim_fence *fence;
	uint64_t point;
};

struct later {
	pthread_t thread;
	struct shim_syncobjs *t;
	struct step steps[4];
	int n;
};

static void *later_fn(void *arg)
{
	struct later *l = arg;
	int i;

	for (i = 0; i < l->n; i++) {
		struct step *s = &l->steps[i];

		sleep_ms(s->delay_ms);
		switch (s->kind) {
		case STEP_REPLACE:
			replace(l->t, s->handle, s->fence);
			break;
		case STEP_ADD_POINT:
			add_point(l->t, s->handle, s->fence, s->point);
			break;
		case STEP_SIGNAL:
			shim_fence_signal(s->fence, 0);
			break;
		}
	}
	return NULL;
}

static void later_start(struct later *l)
{
	pthread_create(&l->thread, NULL, later_fn, l);
}

static void later_join(struct later *l)
{
	pthread_join(l->thread, NULL);
}

/* ------------------------------------------------------------------ */
/* the tests                                                            */
/* ------------------------------------------------------------------ */

static void test_create_destroy(void)
{
	struct shim_syncobjs *t = shim_syncobjs_new();
	struct drm_syncobj_create c = { .flags = 1u << 1 };
	struct shim_fence *f = (void *)1;
	uint32_t h = 77;

	is(create(t, 0), 1, "first handle of a file is 1 (idr from 1)");
	is(create(t, 0), 2, "second handle is 2");
	is(shim_syncobj_ioctl(t, DRM_IOCTL_SYNCOBJ_CREATE, &c), -EINVAL,
	   "CREATE with an unknown flag: -EINVAL");
	is(destroy(t, 1, 1), -EINVAL, "DESTROY with pad set: -EINVAL");
	is(destroy(t, 99, 0), -EINVAL,
	   "DESTROY of an unknown handle: -EINVAL (not -ENOENT)");
	is(destroy(t, 1, 0), 0, "DESTROY");
	is(destroy(t, 1, 0), -EINVAL, "DESTROY twice: -EINVAL");
	is(create(t, 0), 1, "a new syncobj gets the lowest free handle");
	is(array_op(t, DRM_IOCTL_SYNCOBJ_RESET, &h, 1, 0), -ENOENT,
	   "RESET of an unknown handle: -ENOENT");
	is(array_op(t, DRM_IOCTL_SYNCOBJ_SIGNAL, &h, 1, 0), -ENOENT,
	   "SIGNAL of an unknown handle: -ENOENT");
	is(wait1(t, 77, 0, 0), -ENOENT, "WAIT on an unknown handle: -ENOENT");
	is(query(t, 77, 0), UINT64_MAX, "QUERY of an unknown handle fails");
	is(shim_syncobj_find_fence(t, 77, 0, 0, &f), -ENOENT,
	   "find_fence of an unknown handle: -ENOENT");
	ok(!f, "find_fence leaves NULL on error");
	ok(!shim_syncobj_find(t, 77) && !shim_syncobj_find(t, 0),
	   "shim_syncobj_find of unknown handles and 0: NULL");
	is(shim_syncobj_ioctl(t, DRM_IOCTL_VERSION, &c), -ENOTTY,
	   "a non-syncobj request: -ENOTTY");
	shim_syncobjs_free(t);
}

static void count_cb(struct shim_fence *f, void *data)
{
	(void)f;
	(*(int *)data)++;
}

static void test_fence_api(void)
{
	struct shim_fence *f = shim_fence_new();
	int calls = 0;

	is(shim_fence_status(f), 0, "a new fence is pending");
	is(shim_fence_wait(f, now() - MS), -ETIME,
	   "shim_fence_wait with a past deadline: -ETIME");
	is(shim_fence_add_callback(f, count_cb, &calls), 0, "add a callback");
	shim_fence_signal(f, -EIO);
	is(calls, 1, "the callback ran once, at the signal");
	is(shim_fence_status(f), -EIO, "status is the signaled error");
	shim_fence_signal(f, 0);
	is(shim_fence_status(f), -EIO, "only the first signal counts");
	is(calls, 1, "the callback did not run again");
	is(shim_fence_add_callback(f, count_cb, &calls), -ENOENT,
	   "add_callback on a signaled fence: -ENOENT");
	is(calls, 1, "... and it is not called");
	is(shim_fence_wait(f, now()), 0, "shim_fence_wait when signaled: 0");
	shim_fence_put(f);

	f = shim_fence_new();
	shim_fence_signal(f, 0);
	is(shim_fence_status(f), 1, "signaled without error: status 1");
	shim_fence_put(f);
}

static void test_binary_waits(void)
{
	struct shim_syncobjs *t = shim_syncobjs_new();
	uint32_t sig = create(t, DRM_SYNCOBJ_CREATE_SIGNALED);
	uint32_t empty = create(t, 0);
	uint32_t pend = create(t, 0);
	struct shim_fence *fp = shim_fence_new(), *fa, *f;
	uint32_t first, hs[2], big[4] = { sig, sig, sig, sig };
	struct later l;
	int64_t t0;

	first = 0;
	is(wait_n(t, &sig, 1, 0, 0, &first), 0,
	   "CREATE_SIGNALED: WAIT with timeout 0 (poll) returns 0");
	is(first, 0, "... first_signaled 0");
	t0 = now();
	is(wait1(t, sig, 0, now() + 10000 * MS), 0,
	   "WAIT on a signaled syncobj with a far deadline: 0");
	ok(now() - t0 < 1000 * MS, "... at once");

	is(wait1(t, empty, 0, 0), -EINVAL,
	   "WAIT without WAIT_FOR_SUBMIT on a syncobj with no fence: -EINVAL");
	is(wait1(t, empty, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT, now() - MS),
	   -ETIME, "WAIT_FOR_SUBMIT on no fence with a past timeout: -ETIME");

	replace(t, pend, fp);
	first = 0;
	is(wait_n(t, &pend, 1, 0, now() - 1000 * MS, &first), -ETIME,
	   "WAIT on an unsignaled fence, timeout in the past: -ETIME");
	is(first, 1234, "... first_signaled not written on error");
	t0 = now();
	is(wait1(t, pend, 0, now() + 30 * MS), -ETIME,
	   "WAIT on an unsignaled fence, 30 ms deadline: -ETIME");
	ok(now() - t0 >= 30 * MS, "... after the deadline");

	/* WAIT_FOR_SUBMIT: a fence appears after 20 ms, signals after 40 */
	fa = shim_fence_new();
	memset(&l, 0, sizeof(l));
	l.t = t;
	l.steps[0] = (struct step){ 20, STEP_REPLACE, empty, fa, 0 };
	l.steps[1] = (struct step){ 20, STEP_SIGNAL, 0, fa, 0 };
	l.n = 2;
	t0 = now();
	later_start(&l);
	is(wait1(t, empty, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
		 now() + 5000 * MS), 0,
	   "WAIT_FOR_SUBMIT: another thread adds the fence, signals it: 0");
	ok(now() - t0 >= 40 * MS && now() - t0 < 2000 * MS,
	   "... once it was signaled, woken (not at the deadline)");
	later_join(&l);
	is(shim_fence_status(fa), 1, "... its fence is signaled");

	/* any vs all */
	hs[0] = sig;
	hs[1] = create(t, DRM_SYNCOBJ_CREATE_SIGNALED);
	first = 0;
	is(wait_n(t, hs, 2, 0, 0, &first), 0,
	   "WAIT any of two signaled: 0");
	is(first, 0, "... first_signaled 0, the first of them");
	hs[0] = pend;
	hs[1] = sig;
	first = 0;
	is(wait_n(t, hs, 2, 0, 0, &first), 0,
	   "WAIT any of {pending, signaled}: 0");
	is(first, 1, "... first_signaled 1");
	first = 0;
	is(wait_n(t, hs, 2, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL, 0, &first), -ETIME,
	   "WAIT_ALL of {pending, signaled}, poll: -ETIME");
	is(first, 1234, "... first_signaled untouched");

	memset(&l, 0, sizeof(l));
	l.t = t;
	l.steps[0] = (struct step){ 20, STEP_SIGNAL, 0, fp, 0 };
	l.n = 1;
	later_start(&l);
	is(wait_n(t, hs, 2, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL, now() + 5000 * MS,
		  &first), 0,
	   "WAIT_ALL returns once the pending one signals");
	/* the kernel sets it at its first look only: index 1 was signaled */
	is(first, 1, "... first_signaled: the one signaled at the first look");
	later_join(&l);

	{
		uint32_t c = create(t, 0), d = create(t, 0);
		struct shim_fence *fc = shim_fence_new();
		struct shim_fence *fd = shim_fence_new();

		replace(t, c, fc);
		replace(t, d, fd);
		hs[0] = c;
		hs[1] = d;
		memset(&l, 0, sizeof(l));
		l.t = t;
		l.steps[0] = (struct step){ 20, STEP_SIGNAL, 0, fd, 0 };
		l.n = 1;
		later_start(&l);
		is(wait_n(t, hs, 2, 0, now() + 5000 * MS, &first), 0,
		   "WAIT any of two pending, the second signals: 0");
		is(first, 1, "... first_signaled 1");
		later_join(&l);

		replace(t, d, NULL);
		shim_fence_put(fd);
		fd = shim_fence_new();
		replace(t, d, fd);
		memset(&l, 0, sizeof(l));
		l.t = t;
		l.steps[0] = (struct step){ 20, STEP_SIGNAL, 0, fd, 0 };
		l.steps[1] = (struct step){ 0, STEP_SIGNAL, 0, fc, 0 };
		l.n = 2;
		later_start(&l);
		is(wait_n(t, hs, 2, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL,
			  now() + 5000 * MS, &first), 0,
		   "WAIT_ALL of two pending, both signal later: 0");
		/* none signaled at the first look: the kernel's ~0 stays */
		is(first, 0xffffffffu, "... first_signaled is ~0");
		later_join(&l);
		shim_fence_put(fc);
		shim_fence_put(fd);
	}

	is(wait1(t, sig, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE, 0), -EINVAL,
	   "WAIT with WAIT_AVAILABLE (timeline waits only): -EINVAL");
	is(wait1(t, sig, 1u << 3, 0), -EINVAL, "WAIT, unknown flag: -EINVAL");
	is(wait_n(t, &sig, 0, 0, 0, NULL), -EINVAL, "WAIT, count 0: -EINVAL");
	is(wait_n(t, NULL, 1, 0, 0, NULL), -EFAULT,
	   "WAIT, unreadable handles: -EFAULT");
	/* kmalloc_array(count, 4) over KMALLOC_MAX_SIZE (4 MiB) fails */
	is(wait_n(t, big, 0x200000, 0, 0, NULL), -ENOMEM,
	   "WAIT, 2M handles: -ENOMEM as the kernel's kmalloc");

	/* find_fence */
	is(shim_syncobj_find_fence(t, create(t, 0), 0, 0, &f), -EINVAL,
	   "find_fence on no fence: -EINVAL");
	is(shim_syncobj_find_fence(t, pend, 1, 0, &f), -EINVAL,
	   "find_fence, point 1 on a binary syncobj: -EINVAL");
	f = find(t, pend, 0);
	ok(f == fp, "find_fence, point 0: the syncobj's fence");
	shim_fence_put(f);
	{
		uint32_t h = create(t, 0);
		struct shim_fence *fb = shim_fence_new();

		memset(&l, 0, sizeof(l));
		l.t = t;
		l.steps[0] = (struct step){ 20, STEP_REPLACE, h, fb, 0 };
		l.n = 1;
		later_start(&l);
		f = NULL;
		is(shim_syncobj_find_fence(t, h, 0,
					   DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
					   &f), 0,
		   "find_fence WAIT_FOR_SUBMIT: waits for the fence");
		ok(f == fb, "... and returns it");
		later_join(&l);
		shim_fence_put(f);
		shim_fence_signal(fb, 0);
		shim_fence_put(fb);
	}

	shim_fence_put(fp);
	shim_fence_put(fa);
	shim_syncobjs_free(t);
}

static void test_timeline(void)
{
	struct shim_syncobjs *t = shim_syncobjs_new();
	uint32_t tl = create(t, 0), bin = create(t, DRM_SYNCOBJ_CREATE_SIGNALED);
	struct shim_fence *f1 = shim_fence_new(), *f2 = shim_fence_new();
	struct shim_fence *f3 = shim_fence_new(), *f5 = shim_fence_new();
	struct shim_fence *f6 = shim_fence_new();
	struct later l;
	int64_t t0;

	add_point(t, tl, f1, 1);
	add_point(t, tl, f2, 2);
	add_point(t, tl, f3, 3);
	is(query(t, tl, 0), 0, "points 1..3 pending: QUERY 0");
	is(query(t, tl, DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED), 3,
	   "QUERY LAST_SUBMITTED: 3");

	shim_fence_signal(f2, 0);
	is(query(t, tl, 0), 0, "point 2's fence signaled before 1's: QUERY 0");
	is(twait1(t, tl, 2, 0, 0), -ETIME, "... point 2 not signaled yet");
	is(fence_status_at(t, tl, 2), 0, "... its fence's status is 0");

	shim_fence_signal(f1, 0);
	is(query(t, tl, 0), 2, "point 1 signaled too: QUERY 2");
	is(twait1(t, tl, 2, 0, 0), 0, "... point 2 signaled");
	is(twait1(t, tl, 1, 0, 0), 0, "... point 1 signaled");
	is(twait1(t, tl, 3, 0, 0), -ETIME, "... point 3 not");
	is(twait1(t, tl, 4, 0, 0), -EINVAL,
	   "TIMELINE_WAIT past the last point: -EINVAL");
	/* 6.1.63's fix: WAIT_AVAILABLE waits for the point like FOR_SUBMIT */
	is(twait1(t, tl, 4, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE, 0), -ETIME,
	   "... with WAIT_AVAILABLE, poll: -ETIME");
	is(twait1(t, tl, 3, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE, 0), 0,
	   "WAIT_AVAILABLE on a submitted, unsignaled point: 0");

	shim_fence_signal(f3, 0);
	is(query(t, tl, 0), 3, "all signaled: QUERY 3");
	is(twait_n(t, &tl, NULL, 1, 0, 0, NULL), 0,
	   "TIMELINE_WAIT with no points array waits for point 0: 0");
	is(wait1(t, tl, 0, 0), 0, "binary WAIT on the timeline: 0");

	memset(&l, 0, sizeof(l));
	l.t = t;
	l.steps[0] = (struct step){ 20, STEP_ADD_POINT, tl, f5, 5 };
	l.steps[1] = (struct step){ 20, STEP_SIGNAL, 0, f5, 0 };
	l.n = 2;
	t0 = now();
	later_start(&l);
	is(twait1(t, tl, 5, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
		  now() + 5000 * MS), 0,
	   "WAIT_FOR_SUBMIT on point 5: another thread adds and signals it");
	ok(now() - t0 >= 40 * MS && now() - t0 < 2000 * MS,
	   "... returned after the signal, woken (not at the deadline)");
	later_join(&l);

	memset(&l, 0, sizeof(l));
	l.t = t;
	l.steps[0] = (struct step){ 20, STEP_ADD_POINT, tl, f6, 6 };
	l.n = 1;
	t0 = now();
	later_start(&l);
	is(twait1(t, tl, 6, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE,
		  now() + 5000 * MS), 0,
	   "WAIT_AVAILABLE on point 6: returns when it is added");
	ok(now() - t0 < 2000 * MS, "... woken, not at the deadline (6.1.80)");
	later_join(&l);
	is(shim_fence_status(f6), 0, "... its fence still pending");
	shim_fence_signal(f6, 0);
	is(query(t, tl, 0), 6, "QUERY 6");

	is(twait1(t, bin, 1, 0, 0), -EINVAL,
	   "TIMELINE_WAIT point 1 on a binary syncobj: -EINVAL");
	is(twait1(t, tl, 1, 1u << 3, 0), -EINVAL,
	   "TIMELINE_WAIT, unknown flag: -EINVAL");
	is(twait_n(t, &tl, NULL, 0, 0, 0, NULL), -EINVAL,
	   "TIMELINE_WAIT, count 0: -EINVAL");

	shim_fence_put(f1);
	shim_fence_put(f2);
	shim_fence_put(f3);
	shim_fence_put(f5);
	shim_fence_put(f6);
	shim_syncobjs_free(t);
}

static void test_errors(void)
{
	struct shim_syncobjs *t = shim_syncobjs_new();
	uint32_t tl = create(t, 0), bin = create(t, 0);
	struct shim_fence *g1 = shim_fence_new(), *g2 = shim_fence_new();
	struct shim_fence *e = shim_fence_new(), *c, *f;
	int calls = 0;

	add_point(t, tl, g1, 1);
	c = find(t, tl, 1);
	ok(c && c != g1, "point 1's fence is its chain node");
	is(shim_fence_status(c), 0, "... pending");
	/* a callback arms the node: it signals itself, from g1's signal */
	is(shim_fence_add_callback(c, count_cb, &calls), 0,
	   "... a callback on it");
	shim_fence_signal(g1, -EIO);
	is(shim_fence_status(g1), -EIO, "the point's fence fails with -EIO");
	is(calls, 1, "... the node's callback ran");
	/* dma_fence_chain never copies the contained fence's error (6.1) */
	is(shim_fence_status(c), 1, "... the chain node signaled, error 0");
	is(shim_fence_wait(c, now()), 0, "... shim_fence_wait on it: 0");
	is(twait1(t, tl, 1, 0, 0), 0, "... TIMELINE_WAIT on it: 0");
	is(query(t, tl, 0), 1, "... QUERY 1");
	add_point(t, tl, g2, 2);
	f = find(t, tl, 1);
	/* find_seqno() collected point 1: a stub stands for it */
	ok(f && f != c && f != g1, "point 1 once point 2 is added: a stub");
	is(shim_fence_status(f), 1, "... signaled");
	shim_fence_put(f);
	shim_fence_put(c);

	replace(t, bin, e);
	shim_fence_signal(e, -EIO);
	f = find(t, bin, 0);
	ok(f == e, "binary syncobj: find_fence gives the fence itself");
	is(shim_fence_status(f), -EIO, "... with its -EIO");
	is(wait1(t, bin, 0, 0), 0, "... WAIT on it: 0 (errors do not fail)");
	shim_fence_put(f);

	shim_fence_signal(g2, 0);
	shim_fence_put(g1);
	shim_fence_put(g2);
	shim_fence_put(e);
	shim_syncobjs_free(t);
}

static void test_unordered(void)
{
	struct shim_syncobjs *t = shim_syncobjs_new();
	uint32_t tl = create(t, 0);
	struct shim_fence *u5 = shim_fence_new(), *u3 = shim_fence_new();

	add_point(t, tl, u5, 5);
	add_point(t, tl, u3, 3);	/* not above 5: new context, seqno 5 */
	is(query(t, tl, DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED), 5,
	   "point 3 added after 5: LAST_SUBMITTED is 5 (max)");
	is(query(t, tl, 0), 0, "... QUERY 0");
	shim_fence_signal(u5, 0);
	is(query(t, tl, 0), 0, "point 5's fence signaled: still QUERY 0");
	/* find_seqno(5) stops at the head: its prev_seqno is 0 */
	is(twait1(t, tl, 5, 0, 0), -ETIME,
	   "... point 5 is the new node: waits for the late point 3 too");
	is(twait1(t, tl, 4, 0, 0), -ETIME, "... point 4 likewise");
	shim_fence_signal(u3, 0);
	is(query(t, tl, 0), 5, "both signaled: QUERY 5");
	is(twait1(t, tl, 5, 0, 0), 0, "... point 5 signaled");
	shim_fence_put(u5);
	shim_fence_put(u3);
	shim_syncobjs_free(t);
}

static void test_timeline_signal_query(void)
{
	struct shim_syncobjs *t = shim_syncobjs_new();
	uint32_t tl = create(t, 0), z = create(t, 0), empty = create(t, 0);
	uint32_t bin = create(t, DRM_SYNCOBJ_CREATE_SIGNALED), hs[2];
	uint64_t pts[2], pt = 1;

	is(tsignal(t, tl, 2), 0, "TIMELINE_SIGNAL point 2");
	is(query(t, tl, 0), 2, "... QUERY 2");
	is(query(t, tl, DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED), 2,
	   "... LAST_SUBMITTED 2");
	is(tsignal(t, tl, 1), 0, "TIMELINE_SIGNAL point 1, below the last");
	is(query(t, tl, 0), 2, "... QUERY still 2 (seqno max(2, 1))");
	is(twait1(t, tl, 2, 0, 0), 0, "... point 2 signaled");
	is(tarray_op(t, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, &z, NULL, 1, 0), 0,
	   "TIMELINE_SIGNAL with no points array on an empty syncobj");
	is(query(t, z, DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED), 0,
	   "... a point 0 node: LAST_SUBMITTED 0");
	is(wait1(t, z, 0, 0), 0, "... WAIT on it: 0");
	is(tarray_op(t, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, &tl, &pt, 1, 1),
	   -EINVAL, "TIMELINE_SIGNAL with flags: -EINVAL");
	is(tarray_op(t, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, &tl, &pt, 0, 0),
	   -EINVAL, "TIMELINE_SIGNAL, count 0: -EINVAL");
	is(tsignal(t, 99, 1), -ENOENT, "TIMELINE_SIGNAL, unknown: -ENOENT");

	hs[0] = tl;
	hs[1] = bin;
	pts[0] = 77;
	pts[1] = 77;
	is(tarray_op(t, DRM_IOCTL_SYNCOBJ_QUERY, hs, pts, 2, 0), 0,
	   "QUERY of {timeline, binary}");
	ok(pts[0] == 2 && pts[1] == 0, "... gives {2, 0}");
	is(query(t, empty, 0), 0, "QUERY of a syncobj with no fence: 0");
	is(query(t, tl, 1u << 1), UINT64_MAX, "QUERY, unknown flag fails");
	is(tarray_op(t, DRM_IOCTL_SYNCOBJ_QUERY, &tl, pts, 1, 1u << 1), -EINVAL,
	   "... with -EINVAL");
	is(tarray_op(t, DRM_IOCTL_SYNCOBJ_QUERY, &tl, pts, 0, 0), -EINVAL,
	   "QUERY, count 0: -EINVAL");
	is(tarray_op(t, DRM_IOCTL_SYNCOBJ_QUERY, &tl, NULL, 1, 0), -EFAULT,
	   "QUERY, unwritable points: -EFAULT");
	shim_syncobjs_free(t);
}

static void test_transfer(void)
{
	struct shim_syncobjs *t = shim_syncobjs_new();
	uint32_t sig = create(t, DRM_SYNCOBJ_CREATE_SIGNALED);
	uint32_t bu = create(t, 0), t5 = create(t, 0), d = create(t, 0);
	uint32_t t6 = create(t, 0), d2 = create(t, 0), t7 = create(t, 0);
	uint32_t t8 = create(t, 0), t9 = create(t, 0), t10 = create(t, 0);
	struct shim_fence *fb = shim_fence_new(), *h1 = shim_fence_new();
	struct shim_fence *m1 = shim_fence_new(), *m2 = shim_fence_new();
	struct shim_fence *w = shim_fence_new();
	struct later l;

	is(transfer(t, sig, 0, t5, 1, 0, 1), -EINVAL,
	   "TRANSFER with pad set: -EINVAL");
	is(transfer(t, sig, 0, t5, 1, 0, 0), 0,
	   "TRANSFER signaled binary -> timeline point 1");
	is(query(t, t5, 0), 1, "... QUERY 1");
	replace(t, bu, fb);
	is(transfer(t, bu, 0, t5, 2, 0, 0), 0,
	   "TRANSFER pending binary -> timeline point 2");
	is(query(t, t5, 0), 1, "... QUERY still 1");
	shim_fence_signal(fb, 0);
	is(query(t, t5, 0), 2, "... its fence signals: QUERY 2");

	is(transfer(t, t5, 2, d, 0, 0, 0), 0, "TRANSFER timeline point 2 -> binary");
	is(wait1(t, d, 0, 0), 0, "... WAIT on the binary: 0");

	add_point(t, t6, h1, 1);
	is(transfer(t, t6, 1, d2, 0, 0, 0), 0,
	   "TRANSFER pending timeline point -> binary");
	is(wait1(t, d2, 0, 0), -ETIME, "... WAIT on the binary: -ETIME");
	shim_fence_signal(h1, 0);
	is(wait1(t, d2, 0, 0), 0, "... the point signals: WAIT 0");

	is(transfer(t, t6, 9, d2, 0, 0, 0), -EINVAL,
	   "TRANSFER from a point not submitted: -EINVAL");
	is(transfer(t, t6, 1, 99, 0, 0, 0), -ENOENT,
	   "TRANSFER to an unknown handle: -ENOENT");
	is(transfer(t, 99, 0, t5, 3, 0, 0), -ENOENT,
	   "TRANSFER from an unknown handle: -ENOENT");
	/* 6.1 does not check TRANSFER's flags: only WAIT_FOR_SUBMIT counts */
	is(transfer(t, sig, 0, d, 0, 1u << 5, 0), 0,
	   "TRANSFER with an unknown flag: accepted (6.1)");

	/* flattening: the merge of points 1 and 2 of t7 as one point */
	add_point(t, t7, m1, 1);
	add_point(t, t7, m2, 2);
	is(transfer(t, t7, 2, t8, 1, 0, 0), 0,
	   "TRANSFER timeline point 2 (of 2 pending) -> timeline point 1");
	is(query(t, t8, 0), 0, "... QUERY 0");
	shim_fence_signal(m2, 0);
	is(query(t, t8, 0), 0, "... one of the two signals: QUERY 0");
	shim_fence_signal(m1, -EIO);
	is(query(t, t8, 0), 1, "... the other too: QUERY 1");
	is(transfer(t, t7, 2, t9, 4, 0, 0), 0,
	   "TRANSFER of a signaled point -> timeline point 4");
	is(query(t, t9, 0), 4, "... QUERY 4 (a signaled stub)");

	memset(&l, 0, sizeof(l));
	l.t = t;
	l.steps[0] = (struct step){ 20, STEP_ADD_POINT, t10, w, 3 };
	l.steps[1] = (struct step){ 0, STEP_SIGNAL, 0, w, 0 };
	l.n = 2;
	later_start(&l);
	is(transfer(t, t10, 3, d, 0, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT, 0),
	   0, "TRANSFER WAIT_FOR_SUBMIT waits for the source point");
	later_join(&l);
	is(wait1(t, d, 0, 0), 0, "... and transfers it");

	shim_fence_put(fb);
	shim_fence_put(h1);
	shim_fence_put(m1);
	shim_fence_put(m2);
	shim_fence_put(w);
	shim_syncobjs_free(t);
}

static void test_reset_signal(void)
{
	struct shim_syncobjs *t = shim_syncobjs_new();
	uint32_t r = create(t, DRM_SYNCOBJ_CREATE_SIGNALED), p = create(t, 0);
	struct shim_fence *fp = shim_fence_new();

	is(array_op(t, DRM_IOCTL_SYNCOBJ_RESET, &r, 1, 0), 0, "RESET");
	is(wait1(t, r, 0, 0), -EINVAL, "... WAIT after RESET: -EINVAL");
	is(array_op(t, DRM_IOCTL_SYNCOBJ_RESET, &r, 1, 1), -EINVAL,
	   "RESET with pad set: -EINVAL");
	is(array_op(t, DRM_IOCTL_SYNCOBJ_RESET, &r, 0, 0), -EINVAL,
	   "RESET, count 0: -EINVAL");
	is(array_op(t, DRM_IOCTL_SYNCOBJ_RESET, NULL, 1, 0), -EFAULT,
	   "RESET, unreadable handles: -EFAULT");
	is(array_op(t, DRM_IOCTL_SYNCOBJ_SIGNAL, &r, 1, 0), 0, "SIGNAL");
	is(wait1(t, r, 0, 0), 0, "... WAIT after SIGNAL: 0");
	replace(t, p, fp);
	is(array_op(t, DRM_IOCTL_SYNCOBJ_SIGNAL, &p, 1, 0), 0,
	   "SIGNAL a syncobj whose fence is pending");
	is(wait1(t, p, 0, 0), 0, "... replaced by a signaled one: WAIT 0");
	is(shim_fence_status(fp), 0, "... the old fence still pending");
	is(array_op(t, DRM_IOCTL_SYNCOBJ_SIGNAL, &r, 1, 1), -EINVAL,
	   "SIGNAL with pad set: -EINVAL");
	is(array_op(t, DRM_IOCTL_SYNCOBJ_SIGNAL, &r, 0, 0), -EINVAL,
	   "SIGNAL, count 0: -EINVAL");
	shim_fence_signal(fp, 0);
	shim_fence_put(fp);
	shim_syncobjs_free(t);
}

static void test_fds(void)
{
	struct shim_syncobjs *t1 = shim_syncobjs_new();
	struct shim_syncobjs *t2 = shim_syncobjs_new();
	uint32_t x = create(t1, 0), h2 = 0, h3 = 0, y;
	struct shim_fence *fx = shim_fence_new(), *f;
	struct shim_syncobj *a, *b;
	int fd, sfd, pfd[2];

	replace(t1, x, fx);
	is(handle_to_fd(t1, x, 0, 0, &fd), 0, "HANDLE_TO_FD");
	ok(fd >= 0 && (fcntl(fd, F_GETFD) & FD_CLOEXEC),
	   "... a close-on-exec fd (always O_CLOEXEC)");
	is(fd_to_handle(t2, fd, 0, 0, &h2), 0, "FD_TO_HANDLE into another file");
	is(h2, 1, "... its first handle");
	is(fd_to_handle(t2, fd, 0, 0, &h3), 0, "FD_TO_HANDLE again");
	is(h3, 2, "... a new handle each time");
	a = shim_syncobj_find(t1, x);
	b = shim_syncobj_find(t2, h2);
	ok(a && a == b, "both files hold the same syncobj");
	shim_syncobj_put(a);
	shim_syncobj_put(b);
	f = find(t2, h2, 0);
	ok(f == fx, "... with its fence");
	shim_fence_put(f);
	test_close(fd);
	is(destroy(t1, x, 0), 0, "close the fd, destroy the first handle");
	is(array_op(t2, DRM_IOCTL_SYNCOBJ_SIGNAL, &h2, 1, 0), 0,
	   "... the import lives on: SIGNAL");
	is(wait1(t2, h3, 0, 0), 0, "... seen through the other handle");

	is(handle_to_fd(t1, 99, 0, 0, &fd), -EINVAL,
	   "HANDLE_TO_FD of an unknown handle: -EINVAL");
	is(handle_to_fd(t1, 99, 2, 0, &fd), -EINVAL,
	   "HANDLE_TO_FD, unknown flag: -EINVAL");
	is(handle_to_fd(t2, h2, 0, 1, &fd), -EINVAL,
	   "HANDLE_TO_FD with pad set: -EINVAL");
	if (pipe(pfd)) {
		pfd[0] = -1;
		pfd[1] = -1;
	}
	is(fd_to_handle(t1, pfd[0], 0, 0, &y), -EINVAL,
	   "FD_TO_HANDLE of a pipe: -EINVAL");
	is(fd_to_handle(t1, -1, 0, 0, &y), -EINVAL,
	   "FD_TO_HANDLE of -1: -EINVAL");
	is(fd_to_handle(t1, pfd[0], 2, 0, &y), -EINVAL,
	   "FD_TO_HANDLE, unknown flag: -EINVAL");
	is(fd_to_handle(t1, pfd[0], 0, 1, &y), -EINVAL,
	   "FD_TO_HANDLE with pad set: -EINVAL");

	/* sync_files */
	{
		uint32_t s = create(t1, 0), empty = create(t1, 0);
		uint32_t sig = create(t1, DRM_SYNCOBJ_CREATE_SIGNALED);
		uint32_t tl = create(t1, 0), y2 = create(t2, 0);
		struct shim_fence *fs = shim_fence_new();
		struct shim_fence *p1 = shim_fence_new();
		struct shim_fence *fq = shim_fence_new();
		const uint32_t EXP = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE;
		const uint32_t IMP = DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE;
		int sfd2, sfd3;

		replace(t1, s, fs);
		is(handle_to_fd(t1, s, EXP, 0, &sfd), 0, "EXPORT_SYNC_FILE");
		ok(sfd >= 0 && (fcntl(sfd, F_GETFD) & FD_CLOEXEC),
		   "... a close-on-exec fd");
		ok(!readable(sfd), "... not readable while the fence is pending");
		y = y2;
		is(fd_to_handle(t2, sfd, IMP, 0, &y), 0,
		   "IMPORT_SYNC_FILE into another file's syncobj");
		f = find(t2, y2, 0);
		ok(f == fs, "... it gets the exported fence");
		shim_fence_put(f);
		shim_fence_signal(fs, 0);
		ok(readable(sfd), "... readable (poll) once it signals");
		is(handle_to_fd(t1, empty, EXP, 0, &sfd2), -EINVAL,
		   "EXPORT_SYNC_FILE of no fence: -EINVAL");
		is(handle_to_fd(t1, 99, EXP, 0, &sfd2), -ENOENT,
		   "EXPORT_SYNC_FILE of an unknown handle: -ENOENT");
		is(handle_to_fd(t1, sig, EXP, 0, &sfd2), 0,
		   "EXPORT_SYNC_FILE of a signaled syncobj");
		ok(readable(sfd2), "... readable at once");
		test_close(sfd2);
		y = y2;
		is(fd_to_handle(t2, pfd[0], IMP, 0, &y), -EINVAL,
		   "IMPORT_SYNC_FILE of a pipe: -EINVAL");
		y = 99;
		is(fd_to_handle(t2, sfd, IMP, 0, &y), -ENOENT,
		   "IMPORT_SYNC_FILE into an unknown handle: -ENOENT");
		y = 0;
		is(fd_to_handle(t2, sfd, 0, 0, &y), -EINVAL,
		   "FD_TO_HANDLE (no flag) of a sync_file: -EINVAL");

		add_point(t1, tl, p1, 1);
		is(handle_to_fd(t1, tl, EXP, 0, &sfd3), 0,
		   "EXPORT_SYNC_FILE of a timeline (its last point)");
		ok(!readable(sfd3), "... not readable while the point pends");
		shim_fence_signal(p1, 0);
		ok(readable(sfd3), "... readable once it signals");

		replace(t1, s, fq);
		is(handle_to_fd(t1, s, EXP, 0, &sfd2), 0,
		   "export a pending fence, close the fd before it signals");
		test_close(sfd2);
		shim_fence_signal(fq, 0);
		ok(true, "... the signal after the close is harmless");

		test_close(sfd);
		test_close(sfd3);
		shim_fence_put(fs);
		shim_fence_put(p1);
		shim_fence_put(fq);
	}
	close(pfd[0]);
	close(pfd[1]);
	shim_fence_put(fx);
	shim_syncobjs_free(t1);
	shim_syncobjs_free(t2);
}

/* callbacks may call back in: no lock of the shim's syncobjs is held */
struct reenter {
	struct shim_syncobjs *t;
	uint32_t handle;
	struct shim_fence *next;
	int ran;
};

static void reenter_cb(struct shim_fence *f, void *data)
{
	struct reenter *r = data;

	(void)f;
	/* a point on the same timeline the signaled point belongs to */
	add_point(r->t, r->handle, r->next, 2);
	shim_fence_signal(r->next, 0);
	r->ran++;
}

static void test_reentry(void)
{
	struct shim_syncobjs *t = shim_syncobjs_new();
	uint32_t tl = create(t, 0);
	struct shim_fence *p1 = shim_fence_new(), *c;
	struct reenter r = { t, tl, shim_fence_new(), 0 };

	add_point(t, tl, p1, 1);
	c = find(t, tl, 1);
	is(shim_fence_add_callback(c, reenter_cb, &r), 0,
	   "a callback on a timeline point");
	shim_fence_signal(p1, 0);
	is(r.ran, 1, "... it ran, adding and signaling point 2 from inside");
	is(query(t, tl, 0), 2, "... QUERY 2");
	shim_fence_put(c);
	shim_fence_put(p1);
	shim_fence_put(r.next);
	shim_syncobjs_free(t);
}

#ifdef DRM_IOCTL_SYNCOBJ_EVENTFD
static int evfd(struct shim_syncobjs *t, uint32_t h, uint64_t point,
		uint32_t flags, int fd, uint32_t pad)
{
	struct drm_syncobj_eventfd a = {
		.handle = h, .flags = flags, .point = point, .fd = fd,
		.pad = pad,
	};

	return shim_syncobj_ioctl(t, DRM_IOCTL_SYNCOBJ_EVENTFD, &a);
}

static void test_eventfd(void)
{
	struct shim_syncobjs *t = shim_syncobjs_new();
	uint32_t tl = create(t, 0), sig = create(t, DRM_SYNCOBJ_CREATE_SIGNALED);
	struct shim_fence *p7 = shim_fence_new(), *p8 = shim_fence_new();
	int e1 = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	int e2 = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	int e3 = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	int pfd[2];

	if (pipe(pfd)) {
		pfd[0] = -1;
		pfd[1] = -1;
	}
	is(evfd(t, tl, 7, 1u << 0, e1, 0), -EINVAL,
	   "EVENTFD with WAIT_ALL: -EINVAL");
	is(evfd(t, tl, 7, 0, e1, 1), -EINVAL, "EVENTFD with pad set: -EINVAL");
	is(evfd(t, 99, 7, 0, e1, 0), -ENOENT, "EVENTFD, unknown handle: -ENOENT");
	is(evfd(t, tl, 7, 0, pfd[0], 0), -EINVAL,
	   "EVENTFD of a pipe: -EINVAL");
	is(evfd(t, tl, 7, 0, 1000, 0), -EBADF, "EVENTFD of no fd: -EBADF");
	is(evfd(t, tl, 7, 0, e1, 0), 0, "EVENTFD on point 7, not yet there");
	is(evfd(t, tl, 8, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE, e2, 0), 0,
	   "EVENTFD WAIT_AVAILABLE on point 8");
	add_point(t, tl, p7, 7);
	ok(!readable(e1), "point 7 added, pending: not readable");
	shim_fence_signal(p7, 0);
	ok(readable(e1), "point 7 signaled: readable");
	ok(!readable(e2), "... the WAIT_AVAILABLE one on 8: not yet");
	add_point(t, tl, p8, 8);
	ok(readable(e2), "point 8 added: readable (WAIT_AVAILABLE)");
	is(evfd(t, sig, 0, 0, e3, 0), 0, "EVENTFD on a signaled syncobj");
	ok(readable(e3), "... readable at once");
	shim_fence_signal(p8, 0);
	close(e1);
	close(e2);
	close(e3);
	close(pfd[0]);
	close(pfd[1]);
	shim_fence_put(p7);
	shim_fence_put(p8);
	shim_syncobjs_free(t);
}
#endif

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_create_destroy();
	test_fence_api();
	test_binary_waits();
	test_timeline();
	test_errors();
	test_unordered();
	test_timeline_signal_query();
	test_transfer();
	test_reset_signal();
	test_fds();
	test_reentry();
#ifdef DRM_IOCTL_SYNCOBJ_EVENTFD
	test_eventfd();
#else
	printf("# DRM_IOCTL_SYNCOBJ_EVENTFD: not in this drm.h, not built\n");
#endif
	printf("1..%d\n", test_count);
	return fail_count ? 1 : 0;
}
