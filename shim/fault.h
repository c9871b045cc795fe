/* SPDX-License-Identifier: MIT */
/*
 * fault.h: the fault catching behind shim_copy_in() and shim_copy_out()
 * (fault.c), for preload.c, whose constructor installs the handler, and
 * preload_signal.c, whose sigaction() and signal() entry points, for
 * SIGSEGV and SIGBUS, keep the program's own actions here, behind the
 * shim's handler.
 *
 * fault.c defines no libc symbol and needs nothing of preload.c: the one
 * libc call it needs, sigaction(), is real.c's shim_real_sigaction().
 */
#ifndef _VATOM_SHIM_FAULT_H_
#define _VATOM_SHIM_FAULT_H_

#include <signal.h>

/* The signals the shim's handler takes: 0 (SIGSEGV), 1 (SIGBUS) or -1. */
static inline int fault_sig_slot(int sig)
{
	return sig == SIGSEGV ? 0 : sig == SIGBUS ? 1 : -1;
}

void fault_init(void);
int fault_sigaction(int sig, const struct sigaction *act,
		    struct sigaction *old);
void fault_fork_prepare(void);
void fault_fork_release(void);

#endif /* _VATOM_SHIM_FAULT_H_ */
