// SPDX-License-Identifier: MIT
/*
 * The in-process device's execution core, what every job needs whatever
 * door it came through (a SUBMIT, a queue's KICK), as vatom.ko's
 * vatom_exec.h: the buffer a stream is copied into (vatom_file.c's
 * vatom_stream_buf), the control block and its one stop rule (the job
 * timeout, the file closing, the queue destroyed), running a validated
 * stream within the timeout, and the reset of the file whose job timed
 * out.
 */

#include <stdlib.h>
#include <sys/mman.h>

#include "device.h"

/*
 * A stream buffer's memory. One of 2 MiB or more (a long stream, gone
 * through three times: copied in, validated, executed) is an anonymous
 * mapping of whole, aligned huge pages, asked for by MADV_HUGEPAGE:
 * malloc() would give it 4 KiB pages of a mapping of its own under the
 * usual transparent_hugepage=madvise, 2560 TLB entries for P1's 10 MiB
 * where huge pages take 5 (P1's SUBMIT 2 to 3 % shorter). A shorter one
 * is malloc()'s. The charge is @size either way, as vatom.ko's for its
 * kvmalloc(): what the job asked for, not the rounding.
 */
#define SHIM_STREAM_HUGE	(2ul << 20)

static size_t shim_stream_mem_len(u32 size)
{
	return ((size_t)size + SHIM_STREAM_HUGE - 1) & ~(SHIM_STREAM_HUGE - 1);
}

static void *shim_stream_mem_alloc(u32 size)
{
	size_t len = shim_stream_mem_len(size), head;
	u8 *p;

	if (size < SHIM_STREAM_HUGE)
		return malloc(size);
	/* One huge page more than needed, to start on a huge page. */
	p = shim_real_mmap(NULL, len + SHIM_STREAM_HUGE, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	head = -(uintptr_t)p & (SHIM_STREAM_HUGE - 1);
	if (head)
		munmap(p, head);
	munmap(p + head + len, SHIM_STREAM_HUGE - head);
	p += head;
	/* Advice only: without huge pages the buffer works as well. */
	madvise(p, len, MADV_HUGEPAGE);
	return p;
}

static void shim_stream_mem_free(void *buf, u32 size)
{
	if (size < SHIM_STREAM_HUGE)
		free(buf);
	else
		munmap(buf, shim_stream_mem_len(size));
}

/**
 * shim_stream_buf_reserve() - make a stream buffer at least @size bytes
 * (vatom_stream_buf_reserve())
 * @sb: the buffer, kept as it is when large enough, else replaced by a
 *	larger one (its contents not kept)
 * @acct: the account it is charged to
 * @size: bytes needed, at most %VATOM_MAX_STREAM_SIZE
 *
 * The new buffer is charged before the old one is returned, as the
 * driver's: the two are held at once for a moment.
 *
 * Return: 0; -ENOSPC past the account's cap or -ENOMEM, @sb unchanged.
 */
int shim_stream_buf_reserve(struct shim_stream_buf *sb,
			    struct shim_account *acct, u32 size)
{
	void *buf;
	int ret;

	if (size <= sb->size)
		return 0;
	ret = shim_account_charge(acct, size);
	if (ret)
		return ret;
	buf = shim_stream_mem_alloc(size);
	if (!buf) {
		shim_account_uncharge(acct, size);
		return -ENOMEM;
	}
	shim_stream_buf_free(sb, acct);
	sb->buf = buf;
	sb->size = size;
	return 0;
}

/**
 * shim_stream_buf_free() - free a stream buffer and return its charge
 * @sb: the buffer, empty afterwards
 * @acct: the account it was charged to
 */
void shim_stream_buf_free(struct shim_stream_buf *sb,
			  struct shim_account *acct)
{
	if (!sb->buf)
		return;
	shim_stream_mem_free(sb->buf, sb->size);
	shim_account_uncharge(acct, sb->size);
	sb->buf = NULL;
	sb->size = 0;
}

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
