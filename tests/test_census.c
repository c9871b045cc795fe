// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The engine's helpers for tracing and debug messages: the census of a
 * stream from its packet headers alone (packets per family, the type and
 * offset of one packet), and the names of families and error reasons.
 * Streams are headers only (the census reads nothing else), each case's
 * expected counts, types and offsets worked out by hand from the header
 * rules: 8 bytes at least, a size of at least 8, a multiple of 8 and
 * within the stream.
 */
#include <errno.h>
#include <string.h>

#include "vatom_engine.h"
#include "vt_test.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define V	DRM_VATOM_PACKET_VISA
#define P	DRM_VATOM_PACKET_PTX
#define N	DRM_VATOM_PACKET_NOC

/* One packet header of a case: its type and size fields. */
struct hdr {
	u32 type, size;
};

/*
 * A stream of @nhdr packets laid end to end (each header at the offset
 * the previous sizes give; what lies between is zeros), @size bytes of it
 * given to the census, asking about packet @index.
 */
static const struct census_case {
	const char *name;
	struct hdr hdrs[4];
	u32 nhdr, size, index;
	u32 want_packets[VATOM_FAMILY_COUNT];	/* visa, ptx, noc */
	u32 want_type, want_offset;
} census_cases[] = {
	{ "empty stream", { }, 0, 0, 0, { 0, 0, 0 }, 0, 0 },
	{ "one of each family, the second asked",
	  { { V, 96 }, { P, 72 }, { N, 64 } }, 3, 232, 1, { 1, 1, 1 }, P, 96 },
	{ "the first packet asked", { { N, 64 }, { N, 64 } }, 2, 128, 0,
	  { 0, 0, 2 }, N, 0 },
	{ "the last packet asked", { { V, 96 }, { V, 96 }, { P, 72 } }, 3, 264, 2,
	  { 2, 1, 0 }, P, 192 },
	{ "an index past the end: no type, offset = size",
	  { { P, 72 } }, 1, 72, 1, { 0, 1, 0 }, 0, 72 },
	{ "an unknown type is counted in no family, its type reported",
	  { { 0x77, 16 }, { P, 72 } }, 2, 88, 0, { 0, 1, 0 }, 0x77, 0 },
	{ "a size past the stream stops the census there",
	  { { P, 72 }, { V, 200 } }, 2, 144, 1, { 0, 1, 0 }, V, 72 },
	{ "a size not a multiple of 8 stops it",
	  { { V, 96 }, { P, 12 } }, 2, 112, 1, { 1, 0, 0 }, P, 96 },
	{ "a size under the header stops it",
	  { { N, 4 } }, 1, 64, 0, { 0, 0, 0 }, N, 0 },
	{ "a header cut after its type still reports the type",
	  { { V, 96 }, { P, 72 } }, 2, 100, 1, { 1, 0, 0 }, P, 96 },
	{ "a header cut inside its type reports none",
	  { { V, 96 }, { P, 72 } }, 2, 98, 1, { 1, 0, 0 }, 0, 98 },
	{ "packets after a stop are not counted",
	  { { N, 64 }, { N, 3 }, { N, 64 } }, 3, 200, 2, { 0, 0, 1 }, 0, 200 },
};

static u8 buf[512] __attribute__((aligned(8)));

/* Lay @c's headers out in buf; a header cut by the end keeps its bytes. */
static void census_build(const struct census_case *c)
{
	u32 pos = 0, i;

	memset(buf, 0, sizeof(buf));
	for (i = 0; i < c->nhdr; i++) {
		memcpy(buf + pos, &c->hdrs[i], sizeof(c->hdrs[i]));
		/* A bad size ends the walk: the next header goes after 8. */
		pos += c->hdrs[i].size >= 8 && c->hdrs[i].size % 8 == 0 ?
		       c->hdrs[i].size : 8;
	}
}

static void test_census_table(void)
{
	u32 packets[VATOM_FAMILY_COUNT], offset, type, f;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(census_cases); i++) {
		const struct census_case *c = &census_cases[i];

		census_build(c);
		type = vatom_stream_census(buf, c->size, packets, c->index,
					   &offset);
		VT_EXPECT_EQ_MSG(type, c->want_type, "%s", c->name);
		VT_EXPECT_EQ_MSG(offset, c->want_offset, "%s", c->name);
		for (f = 0; f < VATOM_FAMILY_COUNT; f++)
			VT_EXPECT_EQ_MSG(packets[f], c->want_packets[f],
					 "%s, family %u", c->name, f);
		/* Without counts: the same packet, the same answer. */
		offset = ~0u;
		type = vatom_stream_census(buf, c->size, NULL, c->index,
					   &offset);
		VT_EXPECT_EQ_MSG(type, c->want_type, "%s, no counts", c->name);
		VT_EXPECT_EQ_MSG(offset, c->want_offset, "%s, no counts",
				 c->name);
	}
}

static const struct {
	u32 value;
	const char *name;
} family_names[] = {
	{ VATOM_FAMILY_VISA, "visa" },
	{ VATOM_FAMILY_PTX, "ptx" },
	{ VATOM_FAMILY_NOC, "noc" },
	{ VATOM_FAMILY_COUNT, "unknown" },
	{ ~0u, "unknown" },
}, reason_names[] = {
	{ DRM_VATOM_ERR_NONE, "none" },
	{ DRM_VATOM_ERR_PACKET_TYPE, "packet_type" },
	{ DRM_VATOM_ERR_PACKET_SIZE, "packet_size" },
	{ DRM_VATOM_ERR_RESERVED, "reserved" },
	{ DRM_VATOM_ERR_OPCODE, "opcode" },
	{ DRM_VATOM_ERR_OP, "op" },
	{ DRM_VATOM_ERR_EXEC_SIZE, "exec_size" },
	{ DRM_VATOM_ERR_TYPE, "type" },
	{ DRM_VATOM_ERR_OPERANDS, "operands" },
	{ DRM_VATOM_ERR_SLOT, "slot" },
	{ DRM_VATOM_ERR_SURFACE_KIND, "surface_kind" },
	{ DRM_VATOM_ERR_ALIGN, "align" },
	{ DRM_VATOM_ERR_BOUNDS, "bounds" },
	{ DRM_VATOM_ERR_RESULTS, "results" },
	{ DRM_VATOM_ERR_QUALIFIER, "qualifier" },
	{ DRM_VATOM_ERR_TARGET, "target" },
	{ DRM_VATOM_ERR_UNSUPPORTED, "unsupported" },
	{ DRM_VATOM_ERR_OPS_LIMIT, "ops_limit" },
	{ DRM_VATOM_ERR_RESULTS_FAULT, "results_fault" },
	{ DRM_VATOM_ERR_DESCRIPTOR, "descriptor" },
	{ DRM_VATOM_ERR_DESCRIPTOR + 1, "unknown" },
	{ ~0u, "unknown" },
};

static void test_names(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(family_names); i++)
		VT_EXPECT_EQ_MSG(strcmp(vatom_family_name(family_names[i].value),
					family_names[i].name), 0, "family %u",
				 family_names[i].value);
	for (i = 0; i < ARRAY_SIZE(reason_names); i++)
		VT_EXPECT_EQ_MSG(strcmp(vatom_reason_name(reason_names[i].value),
					reason_names[i].name), 0, "reason %u",
				 reason_names[i].value);
}

/*
 * The errno a SUBMIT that failed validation returns, per reason: what the
 * UAPI header says beside each (-EOPNOTSUPP, -E2BIG), -EINVAL for the rest.
 */
static const struct {
	u32 reason;
	int err;
} reason_errnos[] = {
	{ DRM_VATOM_ERR_PACKET_TYPE, -EINVAL },
	{ DRM_VATOM_ERR_PACKET_SIZE, -EINVAL },
	{ DRM_VATOM_ERR_RESERVED, -EINVAL },
	{ DRM_VATOM_ERR_OPCODE, -EINVAL },
	{ DRM_VATOM_ERR_OP, -EINVAL },
	{ DRM_VATOM_ERR_EXEC_SIZE, -EINVAL },
	{ DRM_VATOM_ERR_TYPE, -EINVAL },
	{ DRM_VATOM_ERR_OPERANDS, -EINVAL },
	{ DRM_VATOM_ERR_SLOT, -EINVAL },
	{ DRM_VATOM_ERR_SURFACE_KIND, -EINVAL },
	{ DRM_VATOM_ERR_ALIGN, -EINVAL },
	{ DRM_VATOM_ERR_BOUNDS, -EINVAL },
	{ DRM_VATOM_ERR_RESULTS, -EINVAL },
	{ DRM_VATOM_ERR_QUALIFIER, -EINVAL },
	{ DRM_VATOM_ERR_TARGET, -EINVAL },
	{ DRM_VATOM_ERR_UNSUPPORTED, -EOPNOTSUPP },
	{ DRM_VATOM_ERR_OPS_LIMIT, -E2BIG },
};

static void test_errnos(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(reason_errnos); i++)
		VT_EXPECT_EQ_MSG(vatom_errno(reason_errnos[i].reason),
				 reason_errnos[i].err, "reason %u",
				 reason_errnos[i].reason);
}

int main(void)
{
	vt_run(test_census_table, "census: packets per family, a packet's type and offset");
	vt_run(test_names, "family and error reason names");
	vt_run(test_errnos, "the errno of each validation reason");
	return vt_done();
}
