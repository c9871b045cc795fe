// SPDX-License-Identifier: MIT
/*
 * The in-process device's execution core, what every job needs whatever
 * door it came through (a SUBMIT, a queue's KICK), as vatom.ko's
 * vatom_exec.h: the control block and its one stop rule (the job
 * timeout, the file closing, the queue destroyed), running a validated
 * stream within the timeout, and the reset of the file whose job timed
 * out.
 */

#include "device.h"

/* The stop rule (vatom_exec_stop()): the job timeout, a close, a cancel. */
static bool shim_exec_stop(const struct vatom_exec_ctl *ctl)
{
	const struct shim_exec *x = (const struct shim_exec *)ctl;

	return atomic_load(&x->f->cancel) ||
	       (x->cancel && atomic_load(x->cancel)) ||
	       (x->deadline && shim_now_ns() >= x->deadline);
}

/**
 * shim_exec_init() - a job's control block
 * @x: the block
 * @f: the file whose job it is
 * @cancel: the job stops when this becomes true (its queue destroyed), or
 *	NULL
 */
void shim_exec_init(struct shim_exec *x, struct shim_file *f,
		    const atomic_bool *cancel)
{
	x->ctl.max_ops = shim_limits.max_submit_ops;
	x->ctl.stop = shim_exec_stop;
	x->ctl.stopped = NULL;
	x->f = f;
	x->cancel = cancel;
	x->deadline = 0;
}

/**
 * shim_exec_validate() - validate a job's stream as its execution stops
 * @x: the job's control block
 * @stream: the shim's copy of the stream
 * @size: its bytes
 * @b: the bindings
 * @needed: out, the bytes of results it writes
 * @err: out, on failure: the packet and the reason
 *
 * Return: as vatom_stream_validate_ctl().
 */
int shim_exec_validate(struct shim_exec *x, const void *stream, u32 size,
		       const struct vatom_bindings *b, u64 *needed,
		       struct vatom_stream_error *err)
{
	u64 ops;

	return vatom_stream_validate_ctl(stream, size, b, &x->ctl, needed, &ops,
					 err);
}

/* vatom_file_reset(): the job timed out; the file is guilty. */
static void shim_file_reset(struct shim_file *f)
{
	atomic_fetch_add(&f->resets, 1);
	atomic_fetch_add(&f->dev->resets, 1);
}

/**
 * shim_exec_run() - execute a validated stream within the job timeout
 * @x: the job's control block: the timeout, as it is set now, from now
 * @stream: the stream, validated with @b
 * @size: its bytes
 * @b: the bindings
 * @results: where results go, or NULL
 *
 * A stream of one packet reaches no checkpoint (vatom_stream_is_one()):
 * nothing can stop it, so it runs with no deadline and no clock read.
 *
 * Return: 0; -ETIMEDOUT (a prefix ran; the file is reset, guilty until it
 * acknowledges) or -ECANCELED (its file closes, or its queue is
 * destroyed: a prefix ran), as vatom_exec_run().
 */
int shim_exec_run(struct shim_exec *x, const void *stream, u32 size,
		  const struct vatom_bindings *b, u8 *results)
{
	int ret = 0;

	if (!size)
		return 0;
	if (vatom_stream_is_one(stream, size)) {
		vatom_stream_execute_ctl(stream, size, b, results, NULL, &x->ctl);
		return 0;	/* no checkpoint: no clock to read */
	}
	x->deadline = shim_now_ns() +
		      __atomic_load_n(&shim_limits.job_timeout_ms, __ATOMIC_RELAXED) *
		      1000000ull;
	if (vatom_stream_execute_ctl(stream, size, b, results, NULL, &x->ctl))
		ret = x->deadline && shim_now_ns() >= x->deadline ? -ETIMEDOUT :
		      -ECANCELED;
	x->deadline = 0;
	if (ret == -ETIMEDOUT)
		shim_file_reset(x->f);
	return ret;
}

/**
 * shim_file_guilty() - whether the file has a reset to acknowledge
 * @f: the file
 *
 * Return: true while its jobs are refused (-EIO).
 */
bool shim_file_guilty(struct shim_file *f)
{
	return atomic_load(&f->resets) != atomic_load(&f->resets_acked);
}
