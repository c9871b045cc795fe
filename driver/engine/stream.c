// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The command stream walker: validates a whole stream packet by packet,
 * then executes it, giving each packet its region of the results.
 */
#include "vatom_engine.h"
#include "visa_internal.h"

/* Packets executed between two vatom_yield() calls. */
#define VATOM_YIELD_PACKETS	256

/*
 * Header of the packet at @pos, or NULL when the stream cannot hold it: at
 * least 8 bytes must be left, and the packet's size must be at least its
 * header, a multiple of 8 and within the stream. Nothing past @size is read.
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

/**
 * vatom_stream_validate() - check a whole command stream
 * @stream: the stream, 8-byte aligned; never read past @size
 * @size: bytes of the stream; 0 is a valid, empty stream
 * @b: the submission's bindings
 * @results_needed: out, bytes of results the stream produces (0 on error)
 * @err: out, the first bad packet and why ({0, DRM_VATOM_ERR_NONE} when
 *	valid)
 *
 * Each packet's family validator also checks that the header's size is the
 * exact size its contents imply.
 *
 * Return: 0, or vatom_errno() of the reason.
 */
int vatom_stream_validate(const void *stream, u32 size,
			  const struct vatom_bindings *b, u64 *results_needed,
			  struct vatom_stream_error *err)
{
	const u8 *s = stream;
	u64 total = 0;
	u32 pos = 0, index = 0, reason = DRM_VATOM_ERR_NONE;

	*results_needed = 0;
	err->index = 0;
	err->reason = DRM_VATOM_ERR_NONE;

	while (pos < size) {
		const struct drm_vatom_packet *hdr = stream_packet(s, size, pos);
		u64 bytes = 0;
		u32 n = 1;

		if (!hdr) {
			reason = DRM_VATOM_ERR_PACKET_SIZE;
			break;
		}
		switch (hdr->type) {
		case DRM_VATOM_PACKET_VISA:
			/* This packet and those of its shape that follow. */
			reason = vatom_visa_validate_run(s, size, &pos, b, &n,
							 &bytes);
			index += n;
			if (!reason && bytes > ~(u64)0 - total)
				reason = DRM_VATOM_ERR_RESULTS;
			if (reason)
				break;
			total += bytes;
			continue;
		case DRM_VATOM_PACKET_PTX:
			/* This packet and those of its head that follow. */
			reason = vatom_ptx_validate_run(s, size, &pos, b, &n,
							&bytes);
			index += n;
			if (!reason && bytes > ~(u64)0 - total)
				reason = DRM_VATOM_ERR_RESULTS;
			if (reason)
				break;
			total += bytes;
			continue;
		case DRM_VATOM_PACKET_NOC:
			reason = vatom_noc_validate((const void *)hdr, b, &bytes);
			break;
		default:
			reason = DRM_VATOM_ERR_PACKET_TYPE;
			break;
		}
		if (reason)
			break;
		/*
		 * Cannot overflow with today's packets (a u32 stream of
		 * packets returning a few hundred bytes each), but a sum that
		 * would wrap is a result destination no caller can provide.
		 */
		if (bytes > ~(u64)0 - total) {
			reason = DRM_VATOM_ERR_RESULTS;
			break;
		}
		total += bytes;
		pos += hdr->size;
		index++;
	}

	if (reason) {
		err->index = index;
		err->reason = reason;
		return vatom_errno(reason);
	}
	*results_needed = total;
	return 0;
}

/**
 * vatom_stream_execute() - execute a stream that vatom_stream_validate()
 * accepted with the same @b
 * @stream: the validated stream
 * @size: bytes of the stream
 * @b: the submission's bindings
 * @results: destination of at least results_needed bytes (may be NULL when 0)
 * @stats: accumulates packets and element operations per family
 *
 * Packets run in stream order; each gets @results plus the sum of the
 * result bytes of the packets before it. vatom_yield() is called every
 * %VATOM_YIELD_PACKETS packets. vISA and PTX packets go to their family's
 * run executor, which goes on with the packets of the same family that
 * follow, without a call per packet.
 */
void vatom_stream_execute(const void *stream, u32 size,
			  const struct vatom_bindings *b, u8 *results,
			  struct vatom_stats *stats)
{
	const u8 *s = stream;
	u64 packets[VATOM_FAMILY_COUNT] = { 0 };
	u64 elements[VATOM_FAMILY_COUNT] = { 0 };
	u64 off = 0;
	u32 pos = 0, budget = VATOM_YIELD_PACKETS, done;
	int f;

	while (pos < size) {
		const struct drm_vatom_packet *hdr = stream_packet(s, size, pos);

		if (!hdr)	/* not a validated stream */
			break;
		switch (hdr->type) {
		case DRM_VATOM_PACKET_VISA:
			done = vatom_visa_execute_run(s, size, &pos, budget, b,
						      results, &off,
						      &elements[VATOM_FAMILY_VISA]);
			packets[VATOM_FAMILY_VISA] += done;
			break;
		case DRM_VATOM_PACKET_PTX:
			done = vatom_ptx_execute_run(s, size, &pos, budget, b,
						     results, &off,
						     &elements[VATOM_FAMILY_PTX]);
			packets[VATOM_FAMILY_PTX] += done;
			break;
		case DRM_VATOM_PACKET_NOC:
			/* Responses go to L1: no results, @off stays. */
			done = vatom_noc_execute_run(s, size, &pos, budget, b,
						     &elements[VATOM_FAMILY_NOC]);
			packets[VATOM_FAMILY_NOC] += done;
			break;
		default:
			done = 0;
			break;
		}
		if (!done)	/* not a validated stream */
			break;
		budget -= done;
		if (!budget) {
			vatom_yield();
			budget = VATOM_YIELD_PACKETS;
		}
	}

	if (!stats)
		return;
	for (f = 0; f < VATOM_FAMILY_COUNT; f++) {
		stats->packets[f] += packets[f];
		stats->elements[f] += elements[f];
	}
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
