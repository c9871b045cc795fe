// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Faults injected into jobs, so that runtimes can test their failure
 * handling on demand: the kernel's fault-injection framework, with its
 * knobs (probability, interval, times, space, verbose, task-filter) in
 * debugfs, as Documentation/fault-injection describes them:
 *
 *   /sys/kernel/debug/vatom/fail_hang        a job hangs until the timeout
 *   /sys/kernel/debug/vatom/fail_job         a job faults part way (-EIO)
 *   /sys/kernel/debug/vatom/fail_delay       a job starts delay_ms late
 *   /sys/kernel/debug/vatom/fail_poll_stall  a poller stalls for stall_ms
 *
 * A job's fault is chosen once, when it is accepted, in the thread that
 * submits it (SUBMIT, a KICK) or consumes it (the poller), so the task
 * filter selects the submitting process, but for queue jobs the poller
 * consumes: its thread is not the process's. docs/robustness.md says what
 * each fault does to the job, its fence and its file.
 *
 * The injection is built only with CONFIG_FAULT_INJECTION_DEBUG_FS
 * (vatom_fault.h); what a fault does (its prefix) and its name always are.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <linux/debugfs.h>
#include <linux/fault-inject.h>
#include <linux/jiffies.h>

#include "vatom_engine.h"
#include "vatom_fault.h"

#ifdef CONFIG_FAULT_INJECTION_DEBUG_FS

static DECLARE_FAULT_ATTR(vatom_fail_hang);
static DECLARE_FAULT_ATTR(vatom_fail_job);
static DECLARE_FAULT_ATTR(vatom_fail_delay);
static DECLARE_FAULT_ATTR(vatom_fail_poll_stall);
static u32 vatom_delay_ms = 100;
static u32 vatom_stall_ms = 100;
static struct dentry *vatom_fault_dir;

/**
 * vatom_fault_init() - create the fault attributes' debugfs directories
 *
 * Debugfs is optional: without it no fault is ever injected. Quiet by
 * default (verbose 0): a test that injects a fault expects it, and a
 * stack trace per fault would read as a kernel report.
 */
void vatom_fault_init(void)
{
	struct dentry *d;

	vatom_fail_hang.verbose = 0;
	vatom_fail_job.verbose = 0;
	vatom_fail_delay.verbose = 0;
	vatom_fail_poll_stall.verbose = 0;

	vatom_fault_dir = debugfs_create_dir("vatom", NULL);
	fault_create_debugfs_attr("fail_hang", vatom_fault_dir, &vatom_fail_hang);
	fault_create_debugfs_attr("fail_job", vatom_fault_dir, &vatom_fail_job);
	d = fault_create_debugfs_attr("fail_delay", vatom_fault_dir,
				      &vatom_fail_delay);
	if (!IS_ERR(d))
		debugfs_create_u32("delay_ms", 0600, d, &vatom_delay_ms);
	d = fault_create_debugfs_attr("fail_poll_stall", vatom_fault_dir,
				      &vatom_fail_poll_stall);
	if (!IS_ERR(d))
		debugfs_create_u32("stall_ms", 0600, d, &vatom_stall_ms);
}

/** vatom_fault_exit() - remove the fault attributes from debugfs */
void vatom_fault_exit(void)
{
	debugfs_remove_recursive(vatom_fault_dir);
}

/*
 * should_fail() for an attribute someone armed (probability above 0): a
 * task's fail-nth (/proc/<pid>/fail-nth), which counts every fault point
 * it passes, is for the allocations it fails in turn, not for these.
 */
static bool vatom_should_fail(struct fault_attr *attr)
{
	return READ_ONCE(attr->probability) && should_fail(attr, 1);
}

/**
 * vatom_fault_pick() - the fault to inject into the job being accepted
 *
 * Asks the armed attributes in turn, hang first, so one job gets one fault.
 *
 * Return: the fault, or %VATOM_FAULT_NONE.
 */
enum vatom_fault vatom_fault_pick(void)
{
	if (vatom_should_fail(&vatom_fail_hang))
		return VATOM_FAULT_HANG;
	if (vatom_should_fail(&vatom_fail_job))
		return VATOM_FAULT_ENGINE;
	if (vatom_should_fail(&vatom_fail_delay))
		return VATOM_FAULT_DELAY;
	return VATOM_FAULT_NONE;
}

/** vatom_fault_delay_ms() - how late a job with %VATOM_FAULT_DELAY starts */
unsigned int vatom_fault_delay_ms(void)
{
	return READ_ONCE(vatom_delay_ms);
}

/**
 * vatom_fault_poll_stall() - whether a poller about to consume stalls first
 *
 * Return: jiffies to stall for, or 0.
 */
unsigned long vatom_fault_poll_stall(void)
{
	if (!vatom_should_fail(&vatom_fail_poll_stall))
		return 0;
	return msecs_to_jiffies(READ_ONCE(vatom_stall_ms)) ?: 1;
}

#endif /* CONFIG_FAULT_INJECTION_DEBUG_FS */

/**
 * vatom_fault_name() - a fault's name, as a devcoredump writes it
 * @fault: the job's fault
 *
 * Return: "none", "hang", "engine" or "delay".
 */
const char *vatom_fault_name(enum vatom_fault fault)
{
	static const char *const names[] = {
		[VATOM_FAULT_NONE] = "none",
		[VATOM_FAULT_HANG] = "hang",
		[VATOM_FAULT_ENGINE] = "engine",
		[VATOM_FAULT_DELAY] = "delay",
	};

	return names[fault];
}

/**
 * vatom_fault_prefix() - what a job with %VATOM_FAULT_ENGINE executes
 * @stream: its validated stream
 * @size: bytes of @stream
 *
 * Return: the bytes of the stream's first half of packets, rounded down
 * (of 1 packet, none; of 5, the first 2).
 */
u32 vatom_fault_prefix(const void *stream, u32 size)
{
	u32 packets[VATOM_FAMILY_COUNT], offset, n = 0;
	int f;

	vatom_stream_census(stream, size, packets, 0, &offset);
	for (f = 0; f < VATOM_FAMILY_COUNT; f++)
		n += packets[f];
	vatom_stream_census(stream, size, NULL, n / 2, &offset);
	return offset;
}
