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
 * shim's sigaction() and signal() entry points (preload.c) read and write
 * them through fault_sigaction() instead of replacing the handler.
 *
 * Why a file of its own: it must link into a program without preload.c,
 * statically (see fdtable.c). So it defines no libc symbol (sigaction()
 * and signal() are preload.c's), and installs its handler with
 * shim_real_sigaction(): weak here, calling libc's sigaction() (the real
 * one in such a program), and overridden by preload.c's, which calls
 * libc's own past the shim's interposed sigaction(). Without preload.c
 * the handler is installed on the first copy (fault_init()); a program's
 * later sigaction() of SIGSEGV or SIGBUS then replaces it.
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
 * A copy in progress, on the copier's stack; the thread's innermost one
 * is copy_top. A copy that a signal handler makes in the middle of
 * another (an ioctl() from the handler) stacks on it. Initial-exec TLS:
 * the handler and the copy reach it with one instruction and no
 * allocation (the shim is preloaded, so its TLS is static).
 */
struct copy_frame {
	uintptr_t lo, hi;	/* the user range being copied */
	struct copy_frame *prev;
};

/*
 * The copy itself, as the kernel's copy_user_generic(): one rep movsb,
 * the only instruction of the shim a copy's fault may stop, and its
 * exception table entry: the handler moves a fault there on to
 * shim_copy_fixup, with %rcx the bytes not copied (a rep movsb stopped by
 * a fault has copied all before the faulting byte). No sigsetjmp() a
 * copy, no system call.
 *
 * Return: the bytes not copied, 0 when all were.
 */
size_t shim_copy_bytes(void *dst, const void *src, size_t n);
extern const char shim_copy_insn[], shim_copy_fixup[];
__asm__(
	"	.text\n"
	"	.p2align 4\n"
	"	.globl	shim_copy_bytes\n"
	"	.hidden	shim_copy_bytes\n"
	"	.globl	shim_copy_insn\n"
	"	.hidden	shim_copy_insn\n"
	"	.globl	shim_copy_fixup\n"
	"	.hidden	shim_copy_fixup\n"
	"	.type	shim_copy_bytes, @function\n"
	"shim_copy_bytes:\n"
	"	movq	%rdx, %rcx\n"
	"shim_copy_insn:\n"
	"	rep movsb\n"
	"shim_copy_fixup:\n"
	"	movq	%rcx, %rax\n"
	"	ret\n"
	"	.size	shim_copy_bytes, .-shim_copy_bytes\n");

static __thread struct copy_frame *volatile copy_top
	__attribute__((tls_model("initial-exec")));

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
static bool fault_ready;

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
 * First in line for SIGSEGV and SIGBUS. A fault the kernel raised at the
 * copy's rep movsb for the user range of this thread's copy (or a general
 * protection fault there, which has no address: a non-canonical pointer)
 * resumes at the fixup, which ends the copy with -EFAULT; everything else
 * is the program's.
 */
static void shim_fault(int sig, siginfo_t *si, void *uc)
{
	greg_t *ip = &((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
	struct copy_frame *f = copy_top;
	uintptr_t addr = (uintptr_t)si->si_addr;

	if (f && si->si_code > 0 && *ip == (greg_t)(uintptr_t)shim_copy_insn &&
	    (si->si_code == SI_KERNEL || (addr >= f->lo && addr < f->hi))) {
		*ip = (greg_t)(uintptr_t)shim_copy_fixup;
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
	__atomic_store_n(&fault_ready, true, __ATOMIC_RELEASE);
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
	if (unlikely(!__atomic_load_n(&fault_ready, __ATOMIC_ACQUIRE)))
		pthread_once(&fault_once, fault_install);
}

static int shim_copy(void *dst, const void *src, size_t n, const void *user)
{
	uintptr_t u = (uintptr_t)user;
	struct copy_frame f;
	size_t left;

	if (!n)
		return 0;
	if (!u || u + n < u)
		return -EFAULT;
	fault_init();
	f.lo = u;
	f.hi = u + n;
	f.prev = copy_top;
	copy_top = &f;
	__asm__ __volatile__("" ::: "memory");
	left = shim_copy_bytes(dst, src, n);
	__asm__ __volatile__("" ::: "memory");
	copy_top = f.prev;
	return left ? -EFAULT : 0;
}

int shim_copy_in(void *dst, const void *usrc, size_t n)
{
	return shim_copy(dst, usrc, n, usrc);
}

int shim_copy_out(void *udst, const void *src, size_t n)
{
	return shim_copy(udst, src, n, udst);
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

/**
 * shim_real_sigaction() - libc's sigaction(), past the shim's own
 * @sig: the signal
 * @act: the new action, or NULL
 * @old: the old one, or NULL
 *
 * This default calls libc's sigaction(), the real one in a program that
 * does not interpose libc; preload.c overrides it with libc's own.
 *
 * Return: 0, or -1 with errno set, as sigaction() does.
 */
__attribute__((weak)) int shim_real_sigaction(int sig,
					      const struct sigaction *act,
					      struct sigaction *old)
{
	return sigaction(sig, act, old);
}
