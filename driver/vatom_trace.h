/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * vatom tracepoints (events/vatom/ in tracefs): a submission accepted or
 * rejected, a job's execution starting and ending, a job fence signalled
 * or cancelled, a batch of a user-mode queue consumed. Every event names
 * the client (the file's id, as fdinfo's drm-client-id shows it); the
 * job events name the job (the file's submission number), so one job's
 * life can be followed from SUBMIT to its fence. A disabled tracepoint
 * costs a static branch.
 *
 * Copyright (C) 2026 The vatom developers
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM vatom

#if !defined(_VATOM_TRACE_H_) || defined(TRACE_HEADER_MULTI_READ)
#define _VATOM_TRACE_H_

#include <linux/tracepoint.h>

#include "vatom_compat_kernel.h"
#include "vatom_engine.h"

/* Packet types, and 0 for a rejection that names no packet. */
#define vatom_trace_families						\
	{ 0,				"-" },				\
	{ DRM_VATOM_PACKET_VISA,	"visa" },			\
	{ DRM_VATOM_PACKET_PTX,		"ptx" },			\
	{ DRM_VATOM_PACKET_NOC,		"noc" }

TRACE_EVENT(vatom_submit,
	TP_PROTO(u64 client, u64 job, u64 context, const u32 *packets,
		 u32 stream_size, u64 ops, bool async, u32 in_syncs,
		 u32 out_syncs),
	TP_ARGS(client, job, context, packets, stream_size, ops, async,
		in_syncs, out_syncs),
	TP_STRUCT__entry(
		__field(u64, client)
		__field(u64, job)
		__field(u64, context)
		__field(u32, visa)
		__field(u32, ptx)
		__field(u32, noc)
		__field(u32, stream_size)
		__field(u64, ops)
		__field(bool, async)
		__field(u32, in_syncs)
		__field(u32, out_syncs)
	),
	TP_fast_assign(
		__entry->client = client;
		__entry->job = job;
		__entry->context = context;
		__entry->visa = packets[VATOM_FAMILY_VISA];
		__entry->ptx = packets[VATOM_FAMILY_PTX];
		__entry->noc = packets[VATOM_FAMILY_NOC];
		__entry->stream_size = stream_size;
		__entry->ops = ops;
		__entry->async = async;
		__entry->in_syncs = in_syncs;
		__entry->out_syncs = out_syncs;
	),
	TP_printk("client=%llu job=%llu context=%llu visa=%u ptx=%u noc=%u bytes=%u ops=%llu %s in=%u out=%u",
		  __entry->client, __entry->job, __entry->context,
		  __entry->visa, __entry->ptx, __entry->noc,
		  __entry->stream_size, __entry->ops,
		  __entry->async ? "async" : "sync", __entry->in_syncs,
		  __entry->out_syncs)
);

TRACE_EVENT(vatom_reject,
	TP_PROTO(u64 client, int error, u32 index, u32 family, u32 reason),
	TP_ARGS(client, error, index, family, reason),
	TP_STRUCT__entry(
		__field(u64, client)
		__field(int, error)
		__field(u32, index)
		__field(u32, family)
		__field(u32, reason)
		__string(reason_name, vatom_reason_name(reason))
	),
	TP_fast_assign(
		__entry->client = client;
		__entry->error = error;
		__entry->index = index;
		__entry->family = family;
		__entry->reason = reason;
		vatom_assign_str(reason_name, vatom_reason_name(reason));
	),
	TP_printk("client=%llu error=%d packet=%u family=%s reason=%u (%s)",
		  __entry->client, __entry->error, __entry->index,
		  __print_symbolic(__entry->family, vatom_trace_families),
		  __entry->reason, __get_str(reason_name))
);

TRACE_EVENT(vatom_job_start,
	TP_PROTO(u64 client, u64 job, u64 seqno, u64 ops),
	TP_ARGS(client, job, seqno, ops),
	TP_STRUCT__entry(
		__field(u64, client)
		__field(u64, job)
		__field(u64, seqno)
		__field(u64, ops)
	),
	TP_fast_assign(
		__entry->client = client;
		__entry->job = job;
		__entry->seqno = seqno;
		__entry->ops = ops;
	),
	TP_printk("client=%llu job=%llu seqno=%llu ops=%llu",
		  __entry->client, __entry->job, __entry->seqno, __entry->ops)
);

TRACE_EVENT(vatom_job_end,
	TP_PROTO(u64 client, u64 job, u64 seqno, u64 elements, u64 ns,
		 int error),
	TP_ARGS(client, job, seqno, elements, ns, error),
	TP_STRUCT__entry(
		__field(u64, client)
		__field(u64, job)
		__field(u64, seqno)
		__field(u64, elements)
		__field(u64, ns)
		__field(int, error)
	),
	TP_fast_assign(
		__entry->client = client;
		__entry->job = job;
		__entry->seqno = seqno;
		__entry->elements = elements;
		__entry->ns = ns;
		__entry->error = error;
	),
	TP_printk("client=%llu job=%llu seqno=%llu elements=%llu ns=%llu error=%d",
		  __entry->client, __entry->job, __entry->seqno,
		  __entry->elements, __entry->ns, __entry->error)
);

DECLARE_EVENT_CLASS(vatom_fence,
	TP_PROTO(u64 client, u64 job, u64 context, u64 seqno, int error),
	TP_ARGS(client, job, context, seqno, error),
	TP_STRUCT__entry(
		__field(u64, client)
		__field(u64, job)
		__field(u64, context)
		__field(u64, seqno)
		__field(int, error)
	),
	TP_fast_assign(
		__entry->client = client;
		__entry->job = job;
		__entry->context = context;
		__entry->seqno = seqno;
		__entry->error = error;
	),
	TP_printk("client=%llu job=%llu context=%llu seqno=%llu error=%d",
		  __entry->client, __entry->job, __entry->context,
		  __entry->seqno, __entry->error)
);

/* A job's fence signals: it executed (error 0) or failed a dependency. */
DEFINE_EVENT(vatom_fence, vatom_fence_signal,
	TP_PROTO(u64 client, u64 job, u64 context, u64 seqno, int error),
	TP_ARGS(client, job, context, seqno, error)
);

/* A job's fence signals -ECANCELED: its file closed or its submitter died. */
DEFINE_EVENT(vatom_fence, vatom_fence_cancel,
	TP_PROTO(u64 client, u64 job, u64 context, u64 seqno, int error),
	TP_ARGS(client, job, context, seqno, error)
);

/*
 * A user-mode queue consumed a batch: jobs first .. first + jobs - 1 of
 * the queue (its completed count), of which @failed were rejected, in
 * @ns, by the kicking thread or the poller.
 */
TRACE_EVENT(vatom_queue_batch,
	TP_PROTO(u64 client, u32 queue, u64 first, u64 jobs, u64 failed,
		 u64 elements, u64 ns, bool poll),
	TP_ARGS(client, queue, first, jobs, failed, elements, ns, poll),
	TP_STRUCT__entry(
		__field(u64, client)
		__field(u32, queue)
		__field(u64, first)
		__field(u64, jobs)
		__field(u64, failed)
		__field(u64, elements)
		__field(u64, ns)
		__field(bool, poll)
	),
	TP_fast_assign(
		__entry->client = client;
		__entry->queue = queue;
		__entry->first = first;
		__entry->jobs = jobs;
		__entry->failed = failed;
		__entry->elements = elements;
		__entry->ns = ns;
		__entry->poll = poll;
	),
	TP_printk("client=%llu queue=%u first=%llu jobs=%llu failed=%llu elements=%llu ns=%llu %s",
		  __entry->client, __entry->queue, __entry->first,
		  __entry->jobs, __entry->failed, __entry->elements,
		  __entry->ns, __entry->poll ? "poll" : "kick")
);

#endif /* _VATOM_TRACE_H_ */

/* This part must be outside the include guard. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE vatom_trace
#include <trace/define_trace.h>
