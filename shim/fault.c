// SPDX-License-Identifier: MIT
/*
 * fault.c: copy_from_user() and copy_to_user(), in-process.
 *
 * An ioctl()'s argument points into the caller's memory, which may be
 * unmapped or protected: the kernel's copies catch the fault by their
 * exception tables and return -EFAULT. shim_copy_in() and shim_copy_out()
 * do the same with a SIGSEGV/SIGBUS handler that stays first in line: a
 * fault inside the user range of this thread's copy ends the copy; every
 * other fault goes on to the program's own action, as the kernel would
 * have delivered it. The program's actions are kept here (prog_sig): the
 * shim's sigaction() and signal() entry points (preload_signal.c) read
 * and write them through fault_sigaction() instead of replacing the
 * handler.
 *
 * Why a file of its own: it defines no libc symbol (sigaction() and
 * signal() are preload_signal.c's), and installs its handler with
 * real.c's shim_real_sigaction(), past the shim's interposed sigaction().
 * In a program that links the shim without preload.c, the handler is
 * installed on the first copy (fault_init()); a program's later
 * sigaction() of SIGSEGV or SIGBUS then replaces it.
 */
#undef _FORTIFY_SOURCE
#undef _FILE_OFFSET_BITS
#undef _TIME_BITS

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <ucontext.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "fault.h"
#include "shim.h"

#define unlikely(x)	__builtin_expect(!!(x), 0)

/*
 * The copy itself, as the kernel's copy_user_generic(), in two forms:
 * 8- and 16-byte moves for 8 to SHIM_COPY_FAST bytes (the argument
 * structs, bindings and short streams of most calls: rep movsb costs a
 * count per byte where it is emulated, and starts slowly on hardware),
 * and rep movsb for the rest (long streams, where it is the fastest there
 * is). The moves are two from the start and two from the end up to 32
 * and 64 bytes (the two pairs may overlap), and runs of 64 bytes with the
 * last 64 from the end past that, as glibc's memcpy() does; all loads of
 * a step come before its stores.
 *
 * What a fault needs is in registers: the moves leave the arguments as
 * they came (%rdi, %rsi, %rdx: destination, source, count), and %r11 is
 * the user side's start (the user range is [%r11, %r11 + %rdx)). The
 * shim's SIGSEGV handler sends a fault of the user range in the moves
 * (shim_copy_fast up to shim_copy_fast_end) to shim_copy_slow, which
 * copies again from the start byte by byte; a fault of rep movsb (the
 * bytes before the faulting one copied, as the kernel's copy leaves them)
 * to shim_copy_fixup, where %rcx holds the bytes not copied. No state a
 * copy, no sigsetjmp(), no system call; a copy a signal handler makes in
 * the middle of another has registers of its own.
 *
 * Before the handler is in place (a program without preload.c, whose
 * constructor installs it), the first copy installs it: shim_copy_first().
 *
 * shim_copy_user_nt() is a third form, for a long stream copied into the
 * shim's buffer (shim_copy_in_stream()): from SHIM_COPY_NT bytes on, to a
 * 16-byte aligned destination, 16-byte loads and non-temporal stores
 * (movntdq, then sfence), 64 bytes a step, the last 64 bytes as the runs
 * above. The stores go to memory past the cache, with no read of the
 * line they fill: a copy that would not stay in the cache anyway (the
 * validator and the engine read it back later, from the start) costs a
 * pass over memory less. Below SHIM_COPY_NT, or misaligned, it is
 * shim_copy_user(). It is in the moves' range: a fault restarts the copy
 * with rep movsb, which stores the same bytes again up to the fault.
 *
 * Return: 0, or -EFAULT when some bytes were not copied.
 */
#define SHIM_COPY_FAST	256
#define SHIM_COPY_NT	(4 << 20)
int shim_copy_user(void *dst, const void *src, size_t n, uintptr_t user);
int shim_copy_user_nt(void *dst, const void *src, size_t n, uintptr_t user);
/* Referenced by the asm below only: used, so that LTO keeps them. */
int shim_copy_first(void *dst, const void *src, size_t n, uintptr_t user)
	__attribute__((used));
/* The handler is in place (fault_install()): read by the copy's first test. */
bool shim_fault_ready __attribute__((used, visibility("hidden")));
extern const char shim_copy_fast[], shim_copy_fast_end[], shim_copy_slow[],
	shim_copy_insn[], shim_copy_fixup[];
#define STR_(x)	#x
#define STR(x)	STR_(x)
__asm__(
	"	.text\n"
	"	.p2align 4\n"
	"	.globl	shim_copy_user\n"
	"	.hidden	shim_copy_user\n"
	"	.type	shim_copy_user, @function\n"
	"shim_copy_user:\n"
	"	cmpb	$0, shim_fault_ready(%rip)\n"
	"	je	shim_copy_first\n"
	"	movq	%rcx, %r11\n"
	"	leaq	-8(%rdx), %rax\n"
	"	cmpq	$" STR(SHIM_COPY_FAST) " - 8, %rax\n"
	"	ja	shim_copy_slow\n"	/* n < 8 wraps: above too */
	"	.globl	shim_copy_fast\n"
	"	.hidden	shim_copy_fast\n"
	"shim_copy_fast:\n"
	"	cmpq	$16, %rdx\n"
	"	jb	8f\n"
	"	cmpq	$32, %rdx\n"
	"	ja	1f\n"
	"	movdqu	(%rsi), %xmm0\n"
	"	movdqu	-16(%rsi,%rdx), %xmm1\n"
	"	movdqu	%xmm0, (%rdi)\n"
	"	movdqu	%xmm1, -16(%rdi,%rdx)\n"
	"	xorl	%eax, %eax\n"
	"	ret\n"
	"1:	cmpq	$64, %rdx\n"
	"	ja	2f\n"
	"	movdqu	(%rsi), %xmm0\n"
	"	movdqu	16(%rsi), %xmm1\n"
	"	movdqu	-32(%rsi,%rdx), %xmm2\n"
	"	movdqu	-16(%rsi,%rdx), %xmm3\n"
	"	movdqu	%xmm0, (%rdi)\n"
	"	movdqu	%xmm1, 16(%rdi)\n"
	"	movdqu	%xmm2, -32(%rdi,%rdx)\n"
	"	movdqu	%xmm3, -16(%rdi,%rdx)\n"
	"	xorl	%eax, %eax\n"
	"	ret\n"
	"2:	xorl	%eax, %eax\n"		/* offset of the next run */
	"	leaq	-64(%rdx), %rcx\n"	/* the last 64 start here */
	"3:	movdqu	(%rsi,%rax), %xmm0\n"
	"	movdqu	16(%rsi,%rax), %xmm1\n"
	"	movdqu	32(%rsi,%rax), %xmm2\n"
	"	movdqu	48(%rsi,%rax), %xmm3\n"
	"	movdqu	%xmm0, (%rdi,%rax)\n"
	"	movdqu	%xmm1, 16(%rdi,%rax)\n"
	"	movdqu	%xmm2, 32(%rdi,%rax)\n"
	"	movdqu	%xmm3, 48(%rdi,%rax)\n"
	"	addq	$64, %rax\n"
	"	cmpq	%rcx, %rax\n"
	"	jb	3b\n"
	"4:	movdqu	(%rsi,%rcx), %xmm0\n"	/* the last 64 */
	"	movdqu	16(%rsi,%rcx), %xmm1\n"
	"	movdqu	32(%rsi,%rcx), %xmm2\n"
	"	movdqu	48(%rsi,%rcx), %xmm3\n"
	"	movdqu	%xmm0, (%rdi,%rcx)\n"
	"	movdqu	%xmm1, 16(%rdi,%rcx)\n"
	"	movdqu	%xmm2, 32(%rdi,%rcx)\n"
	"	movdqu	%xmm3, 48(%rdi,%rcx)\n"
	"	xorl	%eax, %eax\n"
	"	ret\n"
	"6:	xorl	%eax, %eax\n"		/* offset of the next step */
	"	leaq	-64(%rdx), %rcx\n"	/* the last 64 start here */
	"7:	movdqu	(%rsi,%rax), %xmm0\n"
	"	movdqu	16(%rsi,%rax), %xmm1\n"
	"	movdqu	32(%rsi,%rax), %xmm2\n"
	"	movdqu	48(%rsi,%rax), %xmm3\n"
	"	movntdq	%xmm0, (%rdi,%rax)\n"
	"	movntdq	%xmm1, 16(%rdi,%rax)\n"
	"	movntdq	%xmm2, 32(%rdi,%rax)\n"
	"	movntdq	%xmm3, 48(%rdi,%rax)\n"
	"	addq	$64, %rax\n"
	"	cmpq	%rcx, %rax\n"
	"	jbe	7b\n"
	"	sfence\n"
	"	jmp	4b\n"
	"8:	movq	(%rsi), %rax\n"
	"	movq	-8(%rsi,%rdx), %rcx\n"
	"	movq	%rax, (%rdi)\n"
	"	movq	%rcx, -8(%rdi,%rdx)\n"
	"	.globl	shim_copy_fast_end\n"
	"	.hidden	shim_copy_fast_end\n"
	"shim_copy_fast_end:\n"
	"	xorl	%eax, %eax\n"
	"	ret\n"
	"	.globl	shim_copy_slow\n"
	"	.hidden	shim_copy_slow\n"
	"shim_copy_slow:\n"
	"	movq	%rdx, %rcx\n"
	"	.globl	shim_copy_insn\n"
	"	.hidden	shim_copy_insn\n"
	"shim_copy_insn:\n"
	"	rep movsb\n"
	"	.globl	shim_copy_fixup\n"
	"	.hidden	shim_copy_fixup\n"
	"shim_copy_fixup:\n"
	"	xorl	%eax, %eax\n"
	"	testq	%rcx, %rcx\n"
	"	jz	9f\n"
	"	movl	$-" STR(EFAULT) ", %eax\n"
	"9:	ret\n"
	"	.size	shim_copy_user, .-shim_copy_user\n"
	"	.p2align 4\n"
	"	.globl	shim_copy_user_nt\n"
	"	.hidden	shim_copy_user_nt\n"
	"	.type	shim_copy_user_nt, @function\n"
	"shim_copy_user_nt:\n"
	"	cmpq	$" STR(SHIM_COPY_NT) ", %rdx\n"
	"	jb	shim_copy_user\n"
	"	testb	$15, %dil\n"
	"	jnz	shim_copy_user\n"
	"	cmpb	$0, shim_fault_ready(%rip)\n"
	"	je	shim_copy_first\n"
	"	movq	%rcx, %r11\n"
	"	jmp	6b\n"
	"	.size	shim_copy_user_nt, .-shim_copy_user_nt\n");

/*
 * The program's own SIGSEGV and SIGBUS actions, as it set them (or as
 * they were before the shim installed its handler): what its sigaction()
 * calls read and write, and what the handler calls for every fault that
 * is not a copy's. Two copies each, flipped on a change, so the handler
 * never reads one half written.
 */
static struct {
	struct sigaction act[2];
	int cur;
} prog_sig[2];
static pthread_mutex_t sig_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t fault_once = PTHREAD_ONCE_INIT;

static void prog_sig_get(int i, struct sigaction *act)
{
	*act = prog_sig[i].act[__atomic_load_n(&prog_sig[i].cur,
					       __ATOMIC_ACQUIRE)];
}

static void prog_sig_set(int i, const struct sigaction *act)
{
	int c = !prog_sig[i].cur;

	prog_sig[i].act[c] = *act;
	__atomic_store_n(&prog_sig[i].cur, c, __ATOMIC_RELEASE);
}

/* The program's action for @sig, as the kernel would have taken it. */
static void fault_chain(int sig, siginfo_t *si, void *uc)
{
	struct sigaction a, dfl = { .sa_handler = SIG_DFL };
	int i = fault_sig_slot(sig);
	sigset_t mask, old;

	prog_sig_get(i, &a);
	if (!(a.sa_flags & SA_SIGINFO) && a.sa_handler == SIG_IGN) {
		/* a fault the kernel raised cannot be ignored: it kills */
		if (si->si_code <= 0)
			return;
		a.sa_handler = SIG_DFL;
	}
	if (!(a.sa_flags & SA_SIGINFO) && a.sa_handler == SIG_DFL) {
		/*
		 * The default action, by the kernel: a fault happens again
		 * when we return and kills with the right siginfo and core;
		 * a signal someone sent is sent again.
		 */
		shim_real_sigaction(sig, &dfl, NULL);
		if (si->si_code <= 0)
			raise(sig);
		return;
	}

	/* As the kernel calls a handler: its mask, its flags */
	mask = a.sa_mask;
	if (!(a.sa_flags & SA_NODEFER))
		sigaddset(&mask, sig);
	pthread_sigmask(SIG_BLOCK, &mask, &old);
	if (a.sa_flags & SA_RESETHAND)
		prog_sig_set(i, &dfl);
	if (a.sa_flags & SA_SIGINFO)
		a.sa_sigaction(sig, si, uc);
	else
		a.sa_handler(sig);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/*
 * First in line for SIGSEGV and SIGBUS. A fault the kernel raised in
 * shim_copy_user() for its user range (or a general protection fault
 * there, which has no address: a non-canonical pointer) resumes where
 * the copy ends it: at shim_copy_slow from a move, at shim_copy_fixup
 * from rep movsb. Everything else is the program's.
 */
static void shim_fault(int sig, siginfo_t *si, void *uc)
{
	greg_t *r = ((ucontext_t *)uc)->uc_mcontext.gregs;
	uintptr_t ip = (uintptr_t)r[REG_RIP];
	uintptr_t addr = (uintptr_t)si->si_addr;
	uintptr_t lo = (uintptr_t)r[REG_R11], n = (uintptr_t)r[REG_RDX];
	bool fast = ip >= (uintptr_t)shim_copy_fast &&
		    ip < (uintptr_t)shim_copy_fast_end;

	if ((fast || ip == (uintptr_t)shim_copy_insn) && si->si_code > 0 &&
	    (si->si_code == SI_KERNEL || (addr >= lo && addr - lo < n))) {
		r[REG_RIP] = (greg_t)(uintptr_t)(fast ? shim_copy_slow :
						 shim_copy_fixup);
		return;
	}
	fault_chain(sig, si, uc);
}

/*
 * SA_NODEFER and an empty sa_mask: the handler blocks nothing itself, and
 * fault_chain() gives the program's handler the mask the program asked
 * for. SA_ONSTACK: a program that runs its fault handler on an alternate
 * stack (stack overflows) still gets there.
 */
static void fault_install(void)
{
	struct sigaction sa = {
		.sa_sigaction = shim_fault,
		.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK,
	}, old;
	int i;

	sigemptyset(&sa.sa_mask);
	for (i = 0; i < 2; i++) {
		if (shim_real_sigaction(i ? SIGBUS : SIGSEGV, &sa, &old))
			continue;
		prog_sig[i].act[0] = old;
	}
	__atomic_store_n(&shim_fault_ready, true, __ATOMIC_RELEASE);
}

/**
 * fault_init() - install the SIGSEGV/SIGBUS handler, once
 *
 * The actions in place before it become the program's. preload.c's
 * constructor calls it; so does the first copy, and the first
 * fault_sigaction(), whichever comes first.
 */
void fault_init(void)
{
	if (unlikely(!__atomic_load_n(&shim_fault_ready, __ATOMIC_ACQUIRE)))
		pthread_once(&fault_once, fault_install);
}

/* shim_copy_user() before the handler is in place: it installs it. */
int shim_copy_first(void *dst, const void *src, size_t n, uintptr_t user)
{
	fault_init();
	return shim_copy_user(dst, src, n, user);
}

/*
 * A zero-byte copy reads nothing, whatever it points to. @nt: a long
 * stream's copy in, shim_copy_user_nt() (a constant: inline, one call).
 */
static __always_inline int shim_copy(void *dst, const void *src, size_t n,
				     const void *user, bool nt)
{
	uintptr_t u = (uintptr_t)user;

	if (unlikely(!u || u + n < u))
		return n ? -EFAULT : 0;
	return nt ? shim_copy_user_nt(dst, src, n, u) :
		    shim_copy_user(dst, src, n, u);
}

int shim_copy_in(void *dst, const void *usrc, size_t n)
{
	return shim_copy(dst, usrc, n, usrc, false);
}

int shim_copy_out(void *udst, const void *src, size_t n)
{
	return shim_copy(udst, src, n, udst, false);
}

/**
 * shim_copy_in_stream() - shim_copy_in() of a job's stream
 * @dst: the shim's buffer for it
 * @usrc: the caller's stream
 * @n: bytes
 *
 * The same copy, with non-temporal stores for a long stream (from
 * SHIM_COPY_NT bytes, to a 16-byte aligned @dst: shim_copy_user_nt()),
 * which is read back only once all of it is copied.
 *
 * Return: 0, or -EFAULT with @dst partly written.
 */
int shim_copy_in_stream(void *dst, const void *usrc, size_t n)
{
	return shim_copy(dst, usrc, n, usrc, true);
}

/**
 * shim_copy_out_probe() - what shim_copy_out() of @n bytes to @udst would
 * find, from one byte of each page
 * @udst: the caller's memory
 * @src: the bytes @udst holds, just copied in from it
 * @n: bytes
 *
 * A page takes a write of each of its bytes or of none (its protection,
 * its mapping), so one byte written back in each 4 KiB page @udst touches
 * answers as a copy of all @n would, writing back what the copy would have
 * written, and a 4096th of it: a job's results checked before it runs.
 * Up to a page, the copy of all @n is as cheap (the moves, not a 1-byte
 * rep movsb a page): so it is.
 *
 * Return: 0, or -EFAULT where shim_copy_out() would fail.
 */
int shim_copy_out_probe(void *udst, const void *src, size_t n)
{
	uintptr_t u = (uintptr_t)udst;
	size_t off = 0;

	if (n <= 4096)
		return shim_copy_out(udst, src, n);
	while (off < n) {
		if (shim_copy_out((char *)udst + off, (const char *)src + off, 1))
			return -EFAULT;
		off += 4096 - ((u + off) & 4095);
	}
	return 0;
}

/**
 * fault_sigaction() - sigaction() of SIGSEGV or SIGBUS, for the program
 * @sig: SIGSEGV or SIGBUS (fault_sig_slot() >= 0)
 * @act: the program's new action, or NULL
 * @old: where its previous one goes, or NULL
 *
 * The program's action is kept behind the shim's handler, which calls it
 * for every fault that is not a copy's; the handler stays installed.
 * @act and @old may be one.
 *
 * Return: 0.
 */
int fault_sigaction(int sig, const struct sigaction *act,
		    struct sigaction *old)
{
	int i = fault_sig_slot(sig);
	struct sigaction a;

	if (act)
		a = *act;	/* @act and @old may be one */
	fault_init();
	pthread_mutex_lock(&sig_lock);
	if (old)
		prog_sig_get(i, old);
	if (act)
		prog_sig_set(i, &a);
	pthread_mutex_unlock(&sig_lock);
	return 0;
}

/**
 * fault_fork_prepare() - take sig_lock for a fork()
 *
 * With fault_fork_release(), for preload.c's pthread_atfork() handlers: a
 * fork() child calls sigaction(), and no lock may stay held in it.
 */
void fault_fork_prepare(void)
{
	pthread_mutex_lock(&sig_lock);
}

/**
 * fault_fork_release() - release sig_lock after a fork(), in parent and child
 */
void fault_fork_release(void)
{
	pthread_mutex_unlock(&sig_lock);
}
