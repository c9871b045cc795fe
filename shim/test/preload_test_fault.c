// SPDX-License-Identifier: MIT
/*
 * preload_test_fault.c: preload.c's host test, the copies and the faults
 * (fault.c): shim_copy_in(), shim_copy_out(), shim_copy_out_probe() and
 * shim_copy_in_stream() against unmapped and read-only memory, at sizes
 * either side of each form's edges; the program's own SIGSEGV and SIGBUS
 * handlers, installed before the shim or after it, getting their faults,
 * and the shim's staying the kernel's; four threads opening, copying and
 * faulting at once.
 */

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "preload_test.h"

static char *bad_page;		/* mapped, then unmapped */
static char *ro_page;

void test_copy(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *two, src[32], dst[32];
	sigset_t cur;
	int i, efault = 0;

	/*
	 * Far below where mmap() places mappings (top down from the
	 * stack): nothing else lands in the hole the munmap() leaves.
	 */
	two = mmap((void *)0x10000000, 2 * pg, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	ro_page = mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (two == MAP_FAILED || ro_page == MAP_FAILED)
		abort();
	munmap(two + pg, pg);
	bad_page = two + pg;
	for (i = 0; i < 32; i++)
		src[i] = i + 1;
	memcpy(bad_page - 16, src, 16);

	memset(dst, 0, sizeof(dst));
	ok(h->copy_in(dst, src, sizeof(src)) == 0 && !memcmp(dst, src, 32),
	   "shim_copy_in() from good memory copies the bytes");
	ok(h->copy_in(dst, bad_page, 16) == -EFAULT,
	   "shim_copy_in() from an unmapped page: -EFAULT");
	ok(h->copy_in(dst, bad_page - 16, 32) == -EFAULT,
	   "shim_copy_in() across into the unmapped page: -EFAULT");
	for (i = 0; i < 3; i++)
		efault += h->copy_in(dst, bad_page + 8 * i, 8) == -EFAULT;
	ok(efault == 3, "three faults in a row, each -EFAULT");
	ok(!pthread_sigmask(SIG_BLOCK, NULL, &cur) &&
	   !sigismember(&cur, SIGSEGV) && !sigismember(&cur, SIGBUS),
	   "SIGSEGV and SIGBUS stay unblocked after the faults");
	ok(h->copy_in(dst, NULL, 4) == -EFAULT &&
	   h->copy_in(dst, (void *)0x8000000000000000ull, 4) == -EFAULT,
	   "NULL and a non-canonical pointer: -EFAULT");
	ok(h->copy_in(dst, (void *)~0ull, 4) == -EFAULT,
	   "a range that wraps: -EFAULT");
	ok(h->copy_in(dst, bad_page, 0) == 0, "zero bytes: 0");
	ok(h->copy_out(ro_page, src, 8) == -EFAULT,
	   "shim_copy_out() to a read-only page: -EFAULT");
	ok(h->copy_out(bad_page - 16, src, 16) == 0 &&
	   !memcmp(bad_page - 16, src, 16),
	   "shim_copy_out() to good memory copies the bytes");
}

/*
 * Every form of the copy (8 to 15 bytes, 16 to 256, the rest; fault.c),
 * at sizes either side of each edge: exactly @n bytes land, none past
 * them; and ending in the unmapped page after 0 to 40 good bytes,
 * -EFAULT, with every good byte before the fault copied out (as the
 * kernel's copy_to_user() leaves them) and none after it.
 */
void test_copy_sizes(void)
{
	static const size_t sizes[] = { 1, 7, 8, 9, 15, 16, 17, 31, 32, 33,
					100, 255, 256, 257, 300, 4000 };
	static unsigned char src[4100], dst[4100 + 16];
	int i, bad_in = 0, bad_out = 0, bad_fault = 0, faults = 0;
	size_t n, good, j;

	for (j = 0; j < sizeof(src); j++)
		src[j] = (unsigned char)(j * 7 + 3);
	for (i = 0; i < (int)(sizeof(sizes) / sizeof(sizes[0])); i++) {
		n = sizes[i];
		memset(dst, 0xee, sizeof(dst));
		if (h->copy_in(dst, src + 1, n) || memcmp(dst, src + 1, n) ||
		    dst[n] != 0xee)
			bad_in++;
		memset(dst, 0xee, sizeof(dst));
		if (h->copy_out(dst + 3, src, n) || memcmp(dst + 3, src, n) ||
		    dst[2] != 0xee || dst[n + 3] != 0xee)
			bad_out++;
		for (good = 0; good <= 40 && good < n; good += 5) {
			memset(bad_page - 64, 0xee, 64);
			faults++;
			if (h->copy_out(bad_page - good, src, n) != -EFAULT ||
			    h->copy_in(dst, bad_page - good, n) != -EFAULT ||
			    memcmp(bad_page - good, src, good) ||
			    (good < 64 && bad_page[-(long)good - 1] != (char)0xee))
				bad_fault++;
		}
	}
	ok(!bad_in, "shim_copy_in() of 1 to 4000 bytes copies exactly those");
	ok(!bad_out, "shim_copy_out() of 1 to 4000 bytes copies exactly those");
	ok(!bad_fault && faults == 93,
	   "a copy into the unmapped page: -EFAULT, the bytes before it copied (%d of %d wrong)",
	   bad_fault, faults);
}

/*
 * shim_copy_out_probe(): what a copy_out of the range would answer, with
 * the range's bytes as they were: every page writable, 0; a read-only
 * or unmapped page anywhere in it, first or last, -EFAULT.
 */
void test_copy_out_probe(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *copy = malloc(4 * pg);
	long i;

	if (m == MAP_FAILED || !copy)
		abort();
	for (i = 0; i < 4 * pg; i++)
		m[i] = (char)(i * 13 + 1);
	memcpy(copy, m, 4 * pg);
	ok(h->copy_out_probe(m + 5, copy + 5, 4 * pg - 9) == 0 &&
	   h->copy_out_probe(m, copy, 4 * pg) == 0 &&
	   h->copy_out_probe(m + pg - 1, copy + pg - 1, 2) == 0 &&
	   h->copy_out_probe(NULL, copy, 0) == 0 && !memcmp(m, copy, 4 * pg),
	   "shim_copy_out_probe() of writable pages: 0, the bytes unchanged");
	mprotect(m + 3 * pg, pg, PROT_READ);
	ok(h->copy_out_probe(m + 5, copy + 5, 4 * pg - 9) == -EFAULT &&
	   h->copy_out_probe(m + 3 * pg - 1, copy + 3 * pg - 1, 2) == -EFAULT &&
	   h->copy_out_probe(m, copy, 3 * pg) == 0,
	   "shim_copy_out_probe(): a read-only last page, -EFAULT; the pages before, 0");
	mprotect(m + 3 * pg, pg, PROT_READ | PROT_WRITE);
	mprotect(m, pg, PROT_READ);
	ok(h->copy_out_probe(m + pg - 1, copy + pg - 1, 2 * pg) == -EFAULT &&
	   h->copy_out_probe(m + pg, copy + pg, 3 * pg) == 0,
	   "shim_copy_out_probe(): a read-only first page, -EFAULT");
	ok(h->copy_out_probe(bad_page - 16, copy, pg) == -EFAULT &&
	   h->copy_out_probe(NULL, copy, 1) == -EFAULT,
	   "shim_copy_out_probe() into an unmapped page, or NULL: -EFAULT");
	ok(!memcmp(m, copy, 4 * pg), "... and no byte changed");
	munmap(m, 4 * pg);
	free(copy);
}

/*
 * shim_copy_in_stream(): a long stream's copy, non-temporal from 4 MiB
 * to an aligned destination (fault.c), the others as shim_copy_in():
 * exactly @n bytes land, aligned or not, either side of 4 MiB; and a
 * source that runs into an unmapped page after a few MiB: -EFAULT, every
 * byte before the fault copied and none after it.
 */
void test_copy_stream(void)
{
	static const size_t sizes[] = { 100, (4 << 20) - 8, 4 << 20,
					(4 << 20) + 1, (4 << 20) + 100,
					(5 << 20) + 72 };
	size_t max = (6 << 20), n, good, j;
	long pg = sysconf(_SC_PAGESIZE);
	unsigned char *src = malloc(max), *dst = malloc(max + 64), *m;
	int i, bad = 0, bad_fault = 0;

	if (!src || !dst)
		abort();
	for (j = 0; j < max; j++)
		src[j] = (unsigned char)(j * 11 + 5);
	for (i = 0; i < (int)(sizeof(sizes) / sizeof(sizes[0])); i++) {
		n = sizes[i];
		for (j = 0; j < 2; j++) {	/* dst 16-aligned (malloc), then not */
			memset(dst, 0xee, max + 64);
			if (h->copy_in_stream(dst + j, src + 3, n) ||
			    memcmp(dst + j, src + 3, n) || dst[n + j] != 0xee ||
			    (j && dst[0] != 0xee))
				bad++;
		}
	}
	ok(!bad, "shim_copy_in_stream() of 100 B to 5 MiB, aligned or not: those bytes (%d wrong)",
	   bad);

	/* 5 MiB mapped, the page after it not */
	m = mmap(NULL, (5 << 20) + pg, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		abort();
	munmap(m + (5 << 20), pg);
	memcpy(m, src, 5 << 20);
	for (good = (4 << 20) + 64; good <= (5 << 20); good += (1 << 19) - 8) {
		memset(dst, 0xee, max + 64);
		if (h->copy_in_stream(dst, m + (5 << 20) - good, good + 4096) !=
		    -EFAULT || memcmp(dst, m + (5 << 20) - good, good) ||
		    dst[good] != 0xee)
			bad_fault++;
	}
	ok(!bad_fault,
	   "shim_copy_in_stream() into an unmapped page: -EFAULT, the bytes before it copied (%d)",
	   bad_fault);
	ok(h->copy_in_stream(dst, NULL, 8 << 20) == -EFAULT &&
	   h->copy_in_stream(dst, (void *)~0ull, 8 << 20) == -EFAULT &&
	   h->copy_in_stream(dst, NULL, 0) == 0,
	   "shim_copy_in_stream() from NULL or a range that wraps: -EFAULT; of nothing: 0");
	munmap(m, 5 << 20);
	free(src);
	free(dst);
}

static int ran_child(void (*fn)(void), int *status)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		fn();
		_exit(0);
	}
	return waitpid(pid, status, 0) == pid ? 0 : -1;
}

static void handler42(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	_exit(sig == SIGSEGV && si->si_addr == bad_page ? 42 : 2);
}

static void handler43(int sig)
{
	_exit(sig == SIGBUS ? 43 : 3);
}

static void segv(void)
{
	*(volatile char *)bad_page = 1;
}

static void child_before(void)
{
	segv();		/* the early handler: _exit(41) */
}

static void child_after(void)
{
	struct sigaction sa = { .sa_sigaction = handler42,
				.sa_flags = SA_SIGINFO };
	char buf[8];

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, NULL))
		_exit(4);
	if (h->copy_in(buf, bad_page, 8) != -EFAULT)
		_exit(5);	/* the shim's handler is still first */
	segv();
}

static void child_default(void)
{
	signal(SIGSEGV, SIG_DFL);
	segv();
}

static void child_ignore(void)
{
	signal(SIGSEGV, SIG_IGN);
	segv();
}

static void child_sigbus(void)
{
	int fd = memfd_create("preload-test", 0);
	volatile char *p;

	signal(SIGBUS, handler43);
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		_exit(6);
	(void)p[0];	/* past the end of an empty file */
}

static volatile sig_atomic_t counted_sig, counted_code;

static void count_handler(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	counted_sig = sig;
	counted_code = si->si_code;
}

static void other_handler(int sig)
{
	(void)sig;
}

/* The kernel's own action for @sig: rt_sigaction, past every libc. */
static void *kernel_handler(int sig)
{
	struct {
		void *handler;
		unsigned long flags;
		void *restorer;
		unsigned long mask;
	} k;

	if (syscall(SYS_rt_sigaction, sig, NULL, &k, sizeof(k.mask)))
		return NULL;
	return k.handler;
}

void test_signals(void)
{
	struct sigaction old, a = { .sa_sigaction = count_handler,
				    .sa_flags = SA_SIGINFO }, b, prev;
	void *shim_handler = kernel_handler(SIGSEGV);
	int status;

	ok(!sigaction(SIGSEGV, NULL, &old) &&
	   old.sa_sigaction == h->early_handler && (old.sa_flags & SA_SIGINFO),
	   "sigaction() reads the handler installed before the shim");
	ok(shim_handler && shim_handler != (void *)h->early_handler &&
	   shim_handler != (void *)SIG_DFL,
	   "the kernel has the shim's handler");
	ok(!ran_child(child_before, &status) && WIFEXITED(status) &&
	   WEXITSTATUS(status) == 41,
	   "a fault reaches the handler installed before the shim");
	ok(!ran_child(child_after, &status) && WIFEXITED(status) &&
	   WEXITSTATUS(status) == 42,
	   "one installed after gets its fault (si_addr right), "
	   "copies still -EFAULT");
	ok(!ran_child(child_default, &status) && WIFSIGNALED(status) &&
	   WTERMSIG(status) == SIGSEGV, "SIG_DFL: the fault kills by SIGSEGV");
	ok(!ran_child(child_ignore, &status) && WIFSIGNALED(status) &&
	   WTERMSIG(status) == SIGSEGV,
	   "SIG_IGN: a fault still kills by SIGSEGV, as the kernel does");
	ok(!ran_child(child_sigbus, &status) && WIFEXITED(status) &&
	   WEXITSTATUS(status) == 43, "signal(SIGBUS) handler gets its SIGBUS");

	sigemptyset(&a.sa_mask);
	ok(!sigaction(SIGSEGV, &a, &prev) &&
	   prev.sa_sigaction == h->early_handler,
	   "sigaction(SIGSEGV, new, old): old is the program's last");
	b.sa_handler = NULL;
	ok((void *)signal(SIGSEGV, other_handler) == (void *)count_handler &&
	   !sigaction(SIGSEGV, &a, &b) && b.sa_handler == other_handler,
	   "signal() and sigaction() see each other's handlers");
	ok(kernel_handler(SIGSEGV) == shim_handler,
	   "the kernel still has the shim's handler");
	counted_sig = 0;
	raise(SIGSEGV);
	ok(counted_sig == SIGSEGV && counted_code == SI_TKILL,
	   "raise(SIGSEGV) reaches the program's handler (%d, %d)",
	   counted_sig, counted_code);
	sigaction(SIGSEGV, &prev, NULL);
	ok(!sigaction(SIGSEGV, NULL, &old) &&
	   old.sa_sigaction == h->early_handler,
	   "the earlier handler, restored, reads back");
}

/* Each: opens, copies, pings, closes, faults; the number of failures. */
static void *thread_fn(void *arg)
{
	long fails = 0, i;
	char buf[16];

	(void)arg;
	for (i = 0; i < 300; i++) {
		struct test_ping p = { .in = i };
		int fd = open_render(i % ndev), d, e;

		d = dup(fd);
		e = fcntl(fd, F_DUPFD_CLOEXEC, 0);
		fails += fd < 0 || d < 0 || e < 0;
		close(fd);
		fails += ioctl(d, TEST_IOCTL_PING, &p) ||
			 p.out != (i ^ PING_XOR);
		fails += dup2(e, d) != d;
		close(e);
		fails += ioctl(d, TEST_IOCTL_PING, &p) != 0;
		close(d);
		fails += h->copy_in(buf, bad_page + (i % 8), 8) != -EFAULT;
		fails += h->copy_in(buf, &p, sizeof(p)) != 0;
	}
	return (void *)fails;
}

void test_threads(void)
{
	pthread_t t[4];
	long fails = 0;
	void *ret;
	int i, n = 0;

	for (i = 0; i < 4; i++)
		n += !pthread_create(&t[i], NULL, thread_fn, NULL);
	for (i = 0; i < n; i++) {
		pthread_join(t[i], &ret);
		fails += (long)ret;
	}
	ok(n == 4 && !fails && st->opens == st->puts,
	   "4 threads open, dup, ioctl, close and fault at once: %ld failures",
	   fails);
}
