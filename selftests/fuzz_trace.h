/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_trace.h: vatom_fuzz's differential mode (-D shim). The fuzzer's
 * deterministic phase runs twice with one seed, once on the real device
 * and once on the in-process device (libvatom-shim.so preloaded, in a
 * child of its own); each run writes a trace of what the device answered
 * (every call's return and errno, the bytes the call wrote back into its
 * argument, the fences' statuses, the user results, every surface byte),
 * and the two traces must be the same line for line. The trace holds no
 * pointer and no descriptor number, which differ between two processes.
 */
#ifndef _VATOM_FUZZ_TRACE_H_
#define _VATOM_FUZZ_TRACE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <linux/types.h>

/* The trace being written (-T FILE), or NULL: no differential run. */
extern FILE *vd_trace;

/**
 * vd_ioctl() - ioctl(), traced
 * @fd: the descriptor
 * @req: the request
 * @arg: its argument (any pointer: one that cannot be read is traced so)
 * @what: the operation, for the trace
 *
 * Return: what ioctl() returns, with errno as it left it.
 */
int vd_ioctl(int fd, unsigned long req, void *arg, const char *what);

/* One line of the trace: printf() style. */
void vd_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* FNV-1a of @n bytes, for the trace's digests. */
__u64 vd_hash(const void *p, size_t n);

/**
 * vd_diff_main() - the differential run: both halves, then the comparison
 * @self: this program (/proc/self/exe will do)
 * @seed: the seed both halves run with
 * @secs: the device half's time budget; the shim half makes as many calls
 * @ndev: the devices the real half sees (the shim presents as many)
 *
 * Prints the plan and three TAP results (the device half, the shim half,
 * the traces equal), then exits as ksft_finished() does. The traces
 * are kept, in $TMPDIR (/tmp), when they differ.
 */
void vd_diff_main(const char *self, __u64 seed, double secs, int ndev);

#endif /* _VATOM_FUZZ_TRACE_H_ */
