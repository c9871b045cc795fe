// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The command stream walker: validates a whole stream packet by packet,
 * then executes it, giving each packet its region of the results. Both
 * stop at checkpoints, a bounded amount of work apart, to reschedule and
 * to ask whether to go on (a killed submitter, a closed file).
 */
#include "vatom_engine.h"
#include "visa_internal.h"

/*
 * stream_packet(): header of the packet at @pos, or NULL when the stream
 * cannot hold it: at least 8 bytes must be left, and the packet's size must
 * be at least its header, a multiple of 8 and within the stream. Nothing
 * past @size is read.
 */
static const struct drm_vatom_packet *stream_packet(const u8 *stream, u32 size,
						    u32 pos)
{
	const struct drm_vatom_packet *hdr;

	if (size - pos < sizeof(*hdr))
		return NULL;
	hdr = (const struct drm_vatom_packet *)(stream + pos);
	if (hdr->size < sizeof(*hdr) || hdr->size % 8 || hdr->size > size - pos)
		return NULL;
	return hdr;
}

/*
 * The work between two checkpoints: VATOM_CHECK_PACKETS packets or
 * VATOM_CHECK_OPS element operations, whichever comes first. A run of
 * packets is cut where either budget runs out (but has at least one).
 */
struct stream_budget {
	u32 packets;
	u64 ops;
};

static void budget_reset(struct stream_budget *bud)
{
	bud->packets = VATOM_CHECK_PACKETS;
	bud->ops = VATOM_CHECK_OPS;
}

/* Most packets of cost @cost each the next run may take. */
static u32 budget_max(const struct stream_budget *bud, u32 cost)
{
	u64 n = bud->ops / cost;

	return n < 1 ? 1 : n < bud->packets ? (u32)n : bud->packets;
}

/*
 * Charge @n packets of cost @cost each; at a checkpoint, reschedule and ask
 * @ctl whether to stop. Return: true to stop.
 */
static bool budget_take(struct stream_budget *bud, u32 n, u32 cost,
			const struct vatom_exec_ctl *ctl)
{
	u64 ops = (u64)n * cost;

	bud->packets -= n < bud->packets ? n : bud->packets;
	bud->ops -= ops < bud->ops ? ops : bud->ops;
	if (bud->packets && bud->ops)
		return false;
	budget_reset(bud);
	vatom_yield();
	return ctl && ctl->stop && ctl->stop(ctl);
}

/* The cost of each packet of a run that starts with the packet at @hdr. */
static u32 stream_packet_ops(const struct drm_vatom_packet *hdr,
			     const struct vatom_bindings *b)
{
	switch (hdr->type) {
	case DRM_VATOM_PACKET_VISA:
		return vatom_visa_ops((const void *)hdr);
	case DRM_VATOM_PACKET_PTX:
		return vatom_ptx_ops((const void *)hdr);
	default:
		return vatom_noc_ops((const void *)hdr, b);
	}
}

/* The outputs of a validation before anything is found: none. */
static __always_inline void stream_valid_none(u64 *results_needed, u64 *ops,
					      struct vatom_stream_error *err)
{
	*results_needed = 0;
	*ops = 0;
	err->index = 0;
	err->reason = DRM_VATOM_ERR_NONE;
}

/*
 * vatom_stream_validate_ctl() of any other stream: packets in runs. Out of
 * line, so that a 1-packet job does not set up its frame.
 */
static noinline int stream_validate_runs(const u8 *s, u32 size,
					 const struct vatom_bindings *b,
					 const struct vatom_exec_ctl *ctl,
					 u64 *results_needed, u64 *ops,
					 struct vatom_stream_error *err)
{
	const u64 max_ops = ctl ? ctl->max_ops : ~(u64)0;
	struct stream_budget bud;
	u64 total = 0, cost_total = 0;
	u32 pos = 0, index = 0, reason = DRM_VATOM_ERR_NONE;

	stream_valid_none(results_needed, ops, err);
	budget_reset(&bud);

	while (pos < size) {
		const struct drm_vatom_packet *hdr = stream_packet(s, size, pos);
		u64 bytes = 0, fit;
		u32 n = 0, cost = 1;

		if (!hdr) {
			reason = DRM_VATOM_ERR_PACKET_SIZE;
			break;
		}
		/*
		 * Runs stop at a checkpoint: cut them to the packet budget
		 * (their cost is only read once a packet is known valid; a
		 * vISA or PTX packet costs 32 operations at most).
		 */
		switch (hdr->type) {
		case DRM_VATOM_PACKET_VISA:
			reason = vatom_visa_validate_run(s, size, &pos,
							 bud.packets, b, &n,
							 &bytes);
			break;
		case DRM_VATOM_PACKET_PTX:
			reason = vatom_ptx_validate_run(s, size, &pos,
							bud.packets, b, &n,
							&bytes);
			break;
		case DRM_VATOM_PACKET_NOC:
			reason = vatom_noc_validate((const void *)hdr, b, &bytes);
			if (!reason) {
				pos += hdr->size;
				n = 1;
			}
			break;
		default:
			reason = DRM_VATOM_ERR_PACKET_TYPE;
			break;
		}
		/* The @n packets accepted are valid: what do they cost? */
		if (n) {
			cost = stream_packet_ops(hdr, b);
			fit = (max_ops - cost_total) / cost;
			if (n > fit) {
				index += (u32)fit;
				reason = DRM_VATOM_ERR_OPS_LIMIT;
				break;
			}
			cost_total += (u64)n * cost;
		}
		index += n;
		/*
		 * Cannot overflow with today's packets (a u32 stream of
		 * packets returning a few hundred bytes each), but a sum that
		 * would wrap is a result destination no caller can provide.
		 */
		if (!reason && bytes > ~(u64)0 - total)
			reason = DRM_VATOM_ERR_RESULTS;
		if (reason)
			break;
		total += bytes;
		if (pos < size && budget_take(&bud, n, cost, ctl))
			return -EINTR;
	}

	if (reason) {
		err->index = index;
		err->reason = reason;
		return vatom_errno(reason);
	}
	*results_needed = total;
	*ops = cost_total;
	return 0;
}

/**
 * vatom_stream_validate_ctl() - check a whole command stream and its cost
 * @stream: the stream, 8-byte aligned; never read past @size
 * @size: bytes of the stream; 0 is a valid, empty stream
 * @b: the submission's bindings
 * @ctl: the most element operations the stream may cost, and when to stop
 *	(NULL: no limit, never stops)
 * @results_needed: out, bytes of results the stream produces (0 on error)
 * @ops: out, element operations the stream costs (vatom_visa_ops(),
 *	vatom_ptx_ops(), vatom_noc_ops() of each packet; 0 on error)
 * @err: out, the first bad packet and why ({0, DRM_VATOM_ERR_NONE} when
 *	valid or stopped)
 *
 * Each packet's family validator also checks that the header's size is the
 * exact size its contents imply. The first packet that takes the total
 * cost past @ctl->max_ops fails with %DRM_VATOM_ERR_OPS_LIMIT.
 *
 * Return: 0, vatom_errno() of the reason, or -EINTR when @ctl->stop()
 * said to stop.
 */
int vatom_stream_validate_ctl(const void *stream, u32 size,
			      const struct vatom_bindings *b,
			      const struct vatom_exec_ctl *ctl,
			      u64 *results_needed, u64 *ops,
			      struct vatom_stream_error *err)
{
	/*
	 * A stream of exactly one packet: what the runs below do for it,
	 * without their machinery (budgets, a run's shape, checks of the
	 * packets that follow), which is built for long streams and costs a
	 * 1-packet job more than its packet does. Each family validates the
	 * packet and its cost in one call that takes these arguments as they
	 * are: a jump.
	 */
	if (vatom_stream_is_one(stream, size)) {
		switch (((const struct drm_vatom_packet *)stream)->type) {
		case DRM_VATOM_PACKET_PTX:
			return vatom_ptx_validate_one(stream, size, b, ctl,
						      results_needed, ops, err);
		case DRM_VATOM_PACKET_VISA:
			return vatom_visa_validate_one(stream, size, b, ctl,
						       results_needed, ops,
						       err);
		case DRM_VATOM_PACKET_NOC:
			return vatom_noc_validate_one(stream, size, b, ctl,
						      results_needed, ops, err);
		}
	}
	if (!size) {
		stream_valid_none(results_needed, ops, err);
		return 0;
	}
	return stream_validate_runs(stream, size, b, ctl, results_needed, ops,
				    err);
}

/*
 * vatom_stream_execute_ctl() of any other stream: packets in runs. Out of
 * line, as stream_validate_runs().
 */
static noinline int stream_execute_runs(const u8 *s, u32 size,
					const struct vatom_bindings *b,
					u8 *results, struct vatom_stats *stats,
					const struct vatom_exec_ctl *ctl)
{
	u64 packets[VATOM_FAMILY_COUNT] = { 0 };
	u64 elements[VATOM_FAMILY_COUNT] = { 0 };
	struct stream_budget bud;
	u64 off = 0;
	u32 pos = 0, done, cost, max;
	int f, ret = 0;

	budget_reset(&bud);
	while (pos < size) {
		const struct drm_vatom_packet *hdr = stream_packet(s, size, pos);

		if (!hdr)	/* not a validated stream */
			break;
		cost = stream_packet_ops(hdr, b);
		max = budget_max(&bud, cost);
		switch (hdr->type) {
		case DRM_VATOM_PACKET_VISA:
			done = vatom_visa_execute_run(s, size, &pos, max, b,
						      results, &off,
						      &elements[VATOM_FAMILY_VISA]);
			packets[VATOM_FAMILY_VISA] += done;
			break;
		case DRM_VATOM_PACKET_PTX:
			done = vatom_ptx_execute_run(s, size, &pos, max, b,
						     results, &off,
						     &elements[VATOM_FAMILY_PTX]);
			packets[VATOM_FAMILY_PTX] += done;
			break;
		default:	/* DRM_VATOM_PACKET_NOC, as for the cost */
			/* Responses go to L1: no results, @off stays. */
			done = vatom_noc_execute_run(s, size, &pos, max, b,
						     &elements[VATOM_FAMILY_NOC]);
			packets[VATOM_FAMILY_NOC] += done;
			break;
		}
		if (!done)	/* not a validated stream */
			break;
		if (pos < size && budget_take(&bud, done, cost, ctl)) {
			ret = -ECANCELED;
			break;
		}
	}

	if (ret && ctl->stopped) {
		for (f = 0; f < VATOM_FAMILY_COUNT; f++) {
			ctl->stopped->packets[f] = packets[f];
			ctl->stopped->elements[f] = elements[f];
		}
	}
	if (!stats)
		return ret;
	for (f = 0; f < VATOM_FAMILY_COUNT; f++) {
		stats->packets[f] += packets[f];
		stats->elements[f] += elements[f];
	}
	return ret;
}

/**
 * vatom_stream_execute_ctl() - execute a stream that
 * vatom_stream_validate_ctl() accepted with the same @b, stopping early if
 * told to
 * @stream: the validated stream
 * @size: bytes of the stream
 * @b: the submission's bindings
 * @results: destination of at least results_needed bytes (may be NULL when 0)
 * @stats: accumulates packets and element operations per family
 * @ctl: asked at every checkpoint whether to stop (NULL: never)
 *
 * Packets run in stream order; each gets @results plus the sum of the
 * result bytes of the packets before it. Between two checkpoints run at
 * most %VATOM_CHECK_PACKETS packets or %VATOM_CHECK_OPS element operations
 * (costed as by validation); at each, vatom_yield() and then @ctl->stop().
 * vISA, PTX and NoC packets go to their family's run executor, which goes
 * on with the packets of the same shape that follow, without a call per
 * packet.
 *
 * Return: 0 when the whole stream ran; -ECANCELED when @ctl->stop() said to
 * stop: the packets before some packet ran, whole, the rest did not (@stats
 * says how many, and so does @ctl->stopped, alone).
 */
int vatom_stream_execute_ctl(const void *stream, u32 size,
			     const struct vatom_bindings *b, u8 *results,
			     struct vatom_stats *stats,
			     const struct vatom_exec_ctl *ctl)
{
	if (vatom_stream_is_one(stream, size)) {
		switch (((const struct drm_vatom_packet *)stream)->type) {
		case DRM_VATOM_PACKET_PTX:
			return vatom_ptx_execute_one(stream, size, b, results,
						     stats, ctl);
		case DRM_VATOM_PACKET_VISA:
			return vatom_visa_execute_one(stream, size, b, results,
						      stats, ctl);
		}
		/* DRM_VATOM_PACKET_NOC: validation admits no other. */
		return vatom_noc_execute_one(stream, size, b, results, stats,
					     ctl);
	}
	if (!size)
		return 0;
	return stream_execute_runs(stream, size, b, results, stats, ctl);
}

const char *vatom_reason_name(u32 reason)
{
	static const char *const names[] = {
		[DRM_VATOM_ERR_NONE] = "none",
		[DRM_VATOM_ERR_PACKET_TYPE] = "packet_type",
		[DRM_VATOM_ERR_PACKET_SIZE] = "packet_size",
		[DRM_VATOM_ERR_RESERVED] = "reserved",
		[DRM_VATOM_ERR_OPCODE] = "opcode",
		[DRM_VATOM_ERR_OP] = "op",
		[DRM_VATOM_ERR_EXEC_SIZE] = "exec_size",
		[DRM_VATOM_ERR_TYPE] = "type",
		[DRM_VATOM_ERR_OPERANDS] = "operands",
		[DRM_VATOM_ERR_SLOT] = "slot",
		[DRM_VATOM_ERR_SURFACE_KIND] = "surface_kind",
		[DRM_VATOM_ERR_ALIGN] = "align",
		[DRM_VATOM_ERR_BOUNDS] = "bounds",
		[DRM_VATOM_ERR_RESULTS] = "results",
		[DRM_VATOM_ERR_QUALIFIER] = "qualifier",
		[DRM_VATOM_ERR_TARGET] = "target",
		[DRM_VATOM_ERR_UNSUPPORTED] = "unsupported",
		[DRM_VATOM_ERR_OPS_LIMIT] = "ops_limit",
		[DRM_VATOM_ERR_RESULTS_FAULT] = "results_fault",
		[DRM_VATOM_ERR_DESCRIPTOR] = "descriptor",
	};

	if (reason < ARRAY_SIZE(names) && names[reason])
		return names[reason];
	return "unknown";
}

/**
 * vatom_family_name() - the name of an engine family
 * @f: VATOM_FAMILY_*
 *
 * Return: "visa", "ptx", "noc", or "unknown".
 */
const char *vatom_family_name(u32 f)
{
	static const char *const names[VATOM_FAMILY_COUNT] = {
		[VATOM_FAMILY_VISA] = "visa",
		[VATOM_FAMILY_PTX] = "ptx",
		[VATOM_FAMILY_NOC] = "noc",
	};

	return f < VATOM_FAMILY_COUNT ? names[f] : "unknown";
}

/* The family of a packet type, or VATOM_FAMILY_COUNT for none. */
static u32 stream_family(u32 type)
{
	switch (type) {
	case DRM_VATOM_PACKET_VISA:
		return VATOM_FAMILY_VISA;
	case DRM_VATOM_PACKET_PTX:
		return VATOM_FAMILY_PTX;
	case DRM_VATOM_PACKET_NOC:
		return VATOM_FAMILY_NOC;
	default:
		return VATOM_FAMILY_COUNT;
	}
}

/**
 * vatom_stream_census() - packets per family of a validated stream, and
 * the type of one of them, from the headers alone (for tracing and debug
 * messages, off the fast path)
 * @stream: the stream; never read past @size
 * @size: bytes of the stream
 * @packets: out, packets per family (may be NULL)
 * @index: the packet whose type to return
 * @offset: out, where packet @index starts (@size if it does not)
 *
 * Return: the DRM_VATOM_PACKET_* type of packet @index, or 0 when the
 * stream does not reach it (a header cut short, or past the end).
 */
u32 vatom_stream_census(const void *stream, u32 size,
			u32 packets[VATOM_FAMILY_COUNT], u32 index, u32 *offset)
{
	const u8 *s = stream;
	u32 pos = 0, i = 0, type = 0, f;

	*offset = size;
	if (packets)
		memset(packets, 0, VATOM_FAMILY_COUNT * sizeof(*packets));
	while (pos < size) {
		const struct drm_vatom_packet *hdr = stream_packet(s, size, pos);

		if (!hdr) {
			/* A cut header still has a type to report. */
			if (i == index && size - pos >= sizeof(hdr->type)) {
				memcpy(&type, s + pos, sizeof(type));
				*offset = pos;
			}
			break;
		}
		if (i == index) {
			type = hdr->type;
			*offset = pos;
		}
		f = stream_family(hdr->type);
		if (packets && f < VATOM_FAMILY_COUNT)
			packets[f]++;
		else if (!packets && i == index)
			break;
		pos += hdr->size;
		i++;
	}
	return type;
}

/**
 * vatom_engine_caps() - the DRM_VATOM_CAP_* bits of the engine's families
 *
 * A family's bit is set when its op masks (the same tables its validator
 * uses) report something implemented. Submission features (async, result
 * surfaces, syncobjs) are the driver's to add.
 *
 * Return: the capability bits.
 */
u64 vatom_engine_caps(void)
{
	u64 caps = 0, ptx = 0, noc = 0;
	u32 i;

	if (vatom_visa_ops_mask(DRM_VATOM_VISA_FORM_DWORD32) |
	    vatom_visa_ops_mask(DRM_VATOM_VISA_FORM_DWORD16) |
	    vatom_visa_ops_mask(DRM_VATOM_VISA_FORM_DWORD64))
		caps |= DRM_VATOM_CAP_VISA_DWORD_ATOMIC;
	if (vatom_visa_ops_mask(DRM_VATOM_VISA_FORM_TYPED32) |
	    vatom_visa_ops_mask(DRM_VATOM_VISA_FORM_TYPED16))
		caps |= DRM_VATOM_CAP_VISA_TYPED_ATOMIC;
	/* ADDC has a single operation and no op mask: always implemented. */
	caps |= DRM_VATOM_CAP_VISA_ADDC;

	for (i = DRM_VATOM_PTX_TYPE_B16; i <= DRM_VATOM_PTX_TYPE_F64; i++)
		ptx |= vatom_ptx_ops_mask(i);
	if (ptx)
		caps |= DRM_VATOM_CAP_PTX_ATOM;

	noc = vatom_noc_opcodes_mask(DRM_VATOM_NOC_PROFILE_WORMHOLE) |
	      vatom_noc_opcodes_mask(DRM_VATOM_NOC_PROFILE_BLACKHOLE);
	if (noc)
		caps |= DRM_VATOM_CAP_NOC_ATOMIC;
	return caps;
}

/**
 * vatom_stream_validate() - check a whole command stream, at any cost
 * @stream: the stream, 8-byte aligned; never read past @size
 * @size: bytes of the stream
 * @b: the submission's bindings
 * @results_needed: out, bytes of results the stream produces
 * @err: out, the failing packet and reason
 *
 * vatom_stream_validate_ctl() without a limit or a way to stop.
 *
 * Return: 0, -EINVAL or -EOPNOTSUPP (with @err filled in).
 */
int vatom_stream_validate(const void *stream, u32 size,
			  const struct vatom_bindings *b, u64 *results_needed,
			  struct vatom_stream_error *err)
{
	u64 ops;

	return vatom_stream_validate_ctl(stream, size, b, NULL, results_needed,
					 &ops, err);
}

/**
 * vatom_stream_execute() - execute a stream that vatom_stream_validate()
 * accepted with the same @b, to its end
 * @stream: the validated stream
 * @size: bytes of the stream
 * @b: the submission's bindings
 * @results: destination of at least results_needed bytes (may be NULL when 0)
 * @stats: accumulates the work done
 */
void vatom_stream_execute(const void *stream, u32 size,
			  const struct vatom_bindings *b, u8 *results,
			  struct vatom_stats *stats)
{
	vatom_stream_execute_ctl(stream, size, b, results, stats, NULL);
}
