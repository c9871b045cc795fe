// SPDX-License-Identifier: MIT
/*
 * preload_signal.c: the program's signal handlers, for SIGSEGV and SIGBUS:
 * sigaction(), __sigaction(), signal(), bsd_signal(), sysv_signal(),
 * __sysv_signal() and sigset(), interposed so that fault.c's handler,
 * which catches the faults of shim_copy_in() and shim_copy_out(), stays
 * first in line: the program's actions for those two signals are kept by
 * fault_sigaction() (fault.h), behind it, and called for every other
 * fault. Any other signal's go to libc, through REAL().
 *
 * A file of preload.c's kind: it defines libc's symbols, and is left out
 * of a program that does not interpose libc.
 */
#undef _FORTIFY_SOURCE
#undef _FILE_OFFSET_BITS
#undef _TIME_BITS

#include <errno.h>
#include <pthread.h>
#include <signal.h>

#include "fault.h"
#include "preload_internal.h"

SHIM_EXPORT int sigaction(int sig, const struct sigaction *act,
			  struct sigaction *old)
{
	if (likely(fault_sig_slot(sig) < 0))
		return REAL(sigaction)(sig, act, old);
	return fault_sigaction(sig, act, old);
}

SHIM_EXPORT int __sigaction(int sig, const struct sigaction *act,
			    struct sigaction *old)
{
	if (likely(fault_sig_slot(sig) < 0))
		return REAL(__sigaction)(sig, act, old);
	return fault_sigaction(sig, act, old);
}

/* signal() and its variants, in terms of sigaction(), as glibc has them */
static sighandler_t shim_signal(int sig, sighandler_t handler, int flags,
				bool mask_self)
{
	struct sigaction act = { .sa_handler = handler, .sa_flags = flags };
	struct sigaction old;

	if (handler == SIG_ERR) {
		errno = EINVAL;
		return SIG_ERR;
	}
	sigemptyset(&act.sa_mask);
	if (mask_self)
		sigaddset(&act.sa_mask, sig);
	fault_sigaction(sig, &act, &old);
	return old.sa_handler;
}

SHIM_EXPORT sighandler_t signal(int sig, sighandler_t handler)
{
	if (likely(fault_sig_slot(sig) < 0))
		return REAL(signal)(sig, handler);
	return shim_signal(sig, handler, SA_RESTART, true);
}

SHIM_EXPORT sighandler_t bsd_signal(int sig, sighandler_t handler)
{
	if (likely(fault_sig_slot(sig) < 0))
		return REAL(bsd_signal)(sig, handler);
	return shim_signal(sig, handler, SA_RESTART, true);
}

SHIM_EXPORT sighandler_t sysv_signal(int sig, sighandler_t handler)
{
	if (likely(fault_sig_slot(sig) < 0))
		return REAL(sysv_signal)(sig, handler);
	return shim_signal(sig, handler, SA_RESETHAND | SA_NODEFER, false);
}

SHIM_EXPORT sighandler_t __sysv_signal(int sig, sighandler_t handler)
{
	if (likely(fault_sig_slot(sig) < 0))
		return REAL(__sysv_signal)(sig, handler);
	return shim_signal(sig, handler, SA_RESETHAND | SA_NODEFER, false);
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
SHIM_EXPORT sighandler_t sigset(int sig, sighandler_t disp)
{
	sighandler_t old;
	sigset_t set;

	if (likely(fault_sig_slot(sig) < 0) || disp == SIG_HOLD)
		return REAL(sigset)(sig, disp);
	old = shim_signal(sig, disp, 0, false);
	if (old != SIG_ERR) {
		sigemptyset(&set);
		sigaddset(&set, sig);
		pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	}
	return old;
}
#pragma GCC diagnostic pop
