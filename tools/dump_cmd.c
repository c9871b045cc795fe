// SPDX-License-Identifier: MIT
/*
 * vatom dump [-j] [FILE|N]: a devcoredump decoded: the header, the job's
 * stream disassembled (vatom_disasm(), the syntax `vatom run` reads) with
 * the packet it stopped at marked, the binding table and the surfaces as
 * hex. -j gives the same as JSON.
 *
 * vatom replay [-t MS] [-o DIR] FILE|N: the surfaces made again from the
 * dump, bound at the same slots, and the packets the job had not
 * completed submitted on them (an injected fault is not replayed); then
 * the outcome, and the surfaces as hex (or, with -o, as files).
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <xf86drm.h>

#include "coredump.h"
#include "vatom_tool.h"

/* Read and parse the dump @arg names; print why not. Return: 0 or 2. */
static int load(const char *cmd, const char *arg, struct cd_dump *d)
{
	char path[600], err[256];
	size_t len;
	char *text;
	int ret;

	if (cd_resolve(arg, path, sizeof(path))) {
		fprintf(stderr, "vatom %s: no vatom devcoredump in /sys/class/devcoredump\n", cmd);
		return 2;
	}
	text = cd_read_file(path, &len);
	if (!text) {
		fprintf(stderr, "vatom %s: %s: %s\n", cmd, path,
			errno == EINVAL ? "a NUL byte: not a text dump" : strerror(errno));
		return 2;
	}
	ret = cd_parse(text, d, err, sizeof(err));
	free(text);
	if (ret) {
		fprintf(stderr, "vatom %s: %s: %s\n", cmd, path,
			ret == -ENOMEM ? strerror(ENOMEM) : err);
		return 2;
	}
	return 0;
}

/* Walk the stream's packets: index, offset, size; false at a bad header. */
static bool packet_at(const struct cd_blob *s, uint64_t off, uint32_t *size)
{
	const struct drm_vatom_packet *h = (const void *)(s->data + off);

	if (off + sizeof(*h) > s->captured)
		return false;
	*size = h->size;
	return h->size >= sizeof(*h) && !(h->size % 8) && h->size <= s->captured - off;
}

/* Lines of 16 bytes, a run of equal lines folded into "*", as hexdump -C. */
static void hex(const char *indent, const uint8_t *p, uint64_t n)
{
	uint64_t i, j;
	bool star = false;

	for (i = 0; i < n; i += 16) {
		if (i && i + 16 <= n && !memcmp(p + i, p + i - 16, 16)) {
			if (!star)
				printf("%s*\n", indent);
			star = true;
			continue;
		}
		star = false;
		printf("%s%08" PRIx64 " ", indent, i);
		for (j = i; j < i + 16; j++)
			printf(j < n ? "%s%02x" : "%s  ", j == i + 8 ? "  " : " ",
			       j < n ? p[j] : 0);
		printf("  |");
		for (j = i; j < i + 16 && j < n; j++)
			putchar(p[j] >= 0x20 && p[j] < 0x7f ? p[j] : '.');
		printf("|\n");
	}
	if (n)
		printf("%s%08" PRIx64 "\n", indent, n);
}

static void json_hex(const struct cd_blob *b)
{
	uint64_t i;

	printf("{\"size\": %" PRIu64 ", \"captured\": %" PRIu64 ", \"hex\": \"",
	       b->size, b->captured);
	for (i = 0; i < b->captured; i++)
		printf("%02x", b->data[i]);
	printf("\"}");
}

/* "2026-11-28 09:30:12.123456789 UTC" from the dump's seconds.nanoseconds. */
static void utc(const char *t, char *out, size_t len)
{
	char *dot;
	time_t s = strtoll(t, &dot, 10);
	struct tm tm;

	if (!gmtime_r(&s, &tm) || *dot != '.') {
		snprintf(out, len, "%s", t);
		return;
	}
	strftime(out, len, "%Y-%m-%d %H:%M:%S", &tm);
	snprintf(out + strlen(out), len - strlen(out), "%s UTC", dot);
}

static void print_text(const struct cd_dump *d)
{
	const struct cd_blob *s = &d->stream;
	char when[64], text[4096];
	uint64_t off, i;
	uint32_t size;
	unsigned int b, f;

	utc(d->time, when, sizeof(when));
	printf("vatom devcoredump, version %u\n", d->version);
	printf("kernel:   %s\nmodule:   %s (UAPI %lld)\ntime:     %s\ndevice:   %s\n",
	       d->kernel, d->module, d->uapi, when, d->device);
	printf("client:   %lld (pid %lld, %s)\n", d->client, d->pid, d->comm);
	printf("door:     %s\nreason:   %s (error %lld, %s), injected fault: %s; job timeout %lld ms\n",
	       d->door, d->reason, d->error, strerror((int)-d->error), d->fault,
	       d->timeout_ms);
	printf("job:      %lld\n", d->job);
	printf("progress: %" PRIu64 " of %" PRIu64 " packets completed; stopped at packet %" PRIu64 ", byte %" PRIu64 "\n",
	       d->completed, d->packets, d->stop_index, d->stop_offset);
	for (f = 0; f < CD_FAMILIES && d->counters[f].family[0]; f++)
		printf("counters: %-4s %" PRIu64 " packets, %" PRIu64 " elements\n",
		       d->counters[f].family, d->counters[f].packets,
		       d->counters[f].elements);

	printf("\nstream: %" PRIu64 " bytes", s->size);
	if (s->captured < s->size)
		printf(", %" PRIu64 " captured", s->captured);
	printf(" (=> the packet it stopped at)\n");
	for (off = 0, i = 0; off < s->captured; off += size, i++) {
		if (!packet_at(s, off, &size)) {
			printf("    byte %" PRIu64 ": no whole packet here\n", off);
			break;
		}
		vatom_disasm(s->data + off, size, text, sizeof(text));
		printf("%s [%" PRIu64 "] +%-6" PRIu64 " %s\n",
		       off == d->stop_offset ? "=>" : "  ", i, off, text);
	}
	if (d->stop_offset == s->size)
		printf("=> (the end: every packet completed)\n");

	for (b = 0; b < d->nbindings; b++) {
		const struct cd_binding *x = &d->bindings[b];

		printf("\nslot %u: handle %u, %s, %" PRIu64 " bytes", x->slot,
		       x->handle, x->kind, x->size);
		if (!strcmp(x->kind, "typed"))
			printf(", dim %u format %u %ux%ux%u, %u slices, %u levels",
			       x->dim, x->format, x->width, x->height, x->depth,
			       x->array_size, x->levels);
		if (!strcmp(x->kind, "tile_grid"))
			printf(", profile %u %ux%u tiles, L1 %u/%u/%u/%u",
			       x->profile, x->width, x->height, x->l1[0], x->l1[1],
			       x->l1[2], x->l1[3]);
		if (x->surface.captured < x->size)
			printf(" (%" PRIu64 " captured: coredump_max_kb)",
			       x->surface.captured);
		printf("\n");
		hex("  ", x->surface.data, x->surface.captured);
	}
	if (d->results.present) {
		printf("\nresults: %" PRIu64 " bytes", d->results.size);
		if (d->results.slot >= 0)
			printf(", in slot %ld at %" PRIu64, d->results.slot,
			       d->results.offset);
		printf("\n");
		hex("  ", d->results.data, d->results.captured);
	}
}

static void print_json(const struct cd_dump *d)
{
	const struct cd_blob *s = &d->stream;
	static const char *const strs[] = { "kernel", "module", "time", "device",
					    "comm", "door", "reason", "fault" };
	const char *vals[] = { d->kernel, d->module, d->time, d->device, d->comm,
			       d->door, d->reason, d->fault };
	char text[4096];
	uint64_t off, i;
	uint32_t size;
	unsigned int b, f;

	printf("{\"version\": %u", d->version);
	for (f = 0; f < ARRAY_SIZE(strs); f++) {
		printf(", \"%s\": ", strs[f]);
		tool_json_str(vals[f]);
	}
	printf(", \"uapi\": %lld, \"client\": %lld, \"pid\": %lld, \"error\": %lld, \"timeout_ms\": %lld, \"job\": %lld",
	       d->uapi, d->client, d->pid, d->error, d->timeout_ms, d->job);
	printf(", \"packets\": %" PRIu64 ", \"completed\": %" PRIu64 ", \"stop_index\": %" PRIu64 ", \"stop_offset\": %" PRIu64,
	       d->packets, d->completed, d->stop_index, d->stop_offset);
	printf(",\n \"counters\": [");
	for (f = 0; f < CD_FAMILIES && d->counters[f].family[0]; f++)
		printf("%s{\"family\": \"%s\", \"packets\": %" PRIu64 ", \"elements\": %" PRIu64 "}",
		       f ? ", " : "", d->counters[f].family,
		       d->counters[f].packets, d->counters[f].elements);
	printf("],\n \"stream\": {\"size\": %" PRIu64 ", \"captured\": %" PRIu64 ", \"packets\": [",
	       s->size, s->captured);
	for (off = 0, i = 0; off < s->captured && packet_at(s, off, &size);
	     off += size, i++) {
		vatom_disasm(s->data + off, size, text, sizeof(text));
		printf("%s\n  {\"index\": %" PRIu64 ", \"offset\": %" PRIu64 ", \"completed\": %s, \"text\": ",
		       i ? "," : "", i, off, i < d->completed ? "true" : "false");
		tool_json_str(text);
		printf("}");
	}
	printf("]},\n \"bindings\": [");
	for (b = 0; b < d->nbindings; b++) {
		const struct cd_binding *x = &d->bindings[b];

		printf("%s\n  {\"slot\": %u, \"handle\": %u, \"kind\": \"%s\", \"size\": %" PRIu64,
		       b ? "," : "", x->slot, x->handle, x->kind, x->size);
		if (!strcmp(x->kind, "typed"))
			printf(", \"dim\": %u, \"format\": %u, \"width\": %u, \"height\": %u, \"depth\": %u, \"array_size\": %u, \"levels\": %u",
			       x->dim, x->format, x->width, x->height, x->depth,
			       x->array_size, x->levels);
		if (!strcmp(x->kind, "tile_grid"))
			printf(", \"profile\": %u, \"width\": %u, \"height\": %u, \"l1\": [%u, %u, %u, %u]",
			       x->profile, x->width, x->height, x->l1[0], x->l1[1],
			       x->l1[2], x->l1[3]);
		printf(", \"surface\": ");
		json_hex(&x->surface);
		printf("}");
	}
	printf("],\n \"results\": ");
	if (d->results.present)
		json_hex(&d->results);
	else
		printf("null");
	printf("}\n");
}

int cmd_dump(const struct tool_opts *o, int argc, char **argv)
{
	struct cd_dump *d;
	bool json = false;
	int opt, ret;

	(void)o;
	optind = 1;
	while ((opt = getopt(argc, argv, "jh")) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		default:
			fprintf(opt == 'h' ? stdout : stderr, "usage: vatom dump [-j] [FILE|N]\n");
			return opt == 'h' ? 0 : 2;
		}
	}
	if (argc - optind > 1) {
		fprintf(stderr, "usage: vatom dump [-j] [FILE|N]\n");
		return 2;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return 2;
	ret = load("dump", optind < argc ? argv[optind] : NULL, d);
	if (!ret) {
		if (json)
			print_json(d);
		else
			print_text(d);
	}
	cd_free(d);
	free(d);
	return ret;
}

/* Make the binding @x again, with its bytes. Return: 0 or -errno. */
static int remake(struct vatom_device *dev, const struct cd_binding *x,
		  struct vatom_surface **sp)
{
	struct drm_vatom_tile_grid_desc g = { 0 };
	struct drm_vatom_typed_desc t = { 0 };
	void *map;
	int ret;

	if (!strcmp(x->kind, "typed")) {
		t = (struct drm_vatom_typed_desc){ .dim = x->dim, .format = x->format,
			.width = x->width, .height = x->height, .depth = x->depth,
			.array_size = x->array_size, .levels = x->levels };
		ret = vatom_surface_create_typed(dev, &t, sp);
	} else if (!strcmp(x->kind, "tile_grid")) {
		g.profile = x->profile;
		g.width = x->width;
		g.height = x->height;
		memcpy(g.l1_size, x->l1, sizeof(g.l1_size));
		g.tile_types = (uintptr_t)x->types;
		ret = vatom_surface_create_tile_grid(dev, &g, sp);
	} else {
		ret = vatom_surface_create_buffer(dev, x->size, 0, sp);
	}
	if (ret)
		return ret;
	if (vatom_surface_size(*sp) != x->size)
		return -EINVAL;
	ret = vatom_surface_map(*sp, &map);
	if (ret)
		return ret;
	memcpy(map, x->surface.data, x->size);
	return 0;
}

/* Set the job timeout, returning the old one in @old: 0 or -errno. */
static int set_timeout(unsigned int ms, unsigned int *old)
{
	static const char *path = "/sys/module/vatom/parameters/job_timeout_ms";
	char buf[32];
	FILE *f = fopen(path, "r");

	if (!f || !fgets(buf, sizeof(buf), f)) {
		if (f)
			fclose(f);
		return -errno;
	}
	fclose(f);
	*old = strtoul(buf, NULL, 10);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fprintf(f, "%u\n", ms);
	return fclose(f) ? -errno : 0;
}

int cmd_replay(const struct tool_opts *o, int argc, char **argv)
{
	static const char *usage = "usage: vatom replay [-t MS] [-o DIR] FILE|N\n";
	struct vatom_surface *surf[CD_MAX_BINDINGS] = { 0 };
	struct drm_vatom_binding bind[CD_MAX_BINDINGS];
	struct drm_vatom_submit args = { 0 };
	unsigned int timeout = 0, old = 0, b;
	const char *outdir = NULL;
	struct vatom_device *dev = NULL;
	uint8_t *results = NULL;
	uint64_t max;
	struct cd_dump *d;
	char path[600];
	void *map;
	int opt, ret, status = 2;
	FILE *f;

	optind = 1;
	while ((opt = getopt(argc, argv, "t:o:h")) != -1) {
		switch (opt) {
		case 't':
			timeout = strtoul(optarg, NULL, 0);
			break;
		case 'o':
			outdir = optarg;
			break;
		default:
			fputs(usage, opt == 'h' ? stdout : stderr);
			return opt == 'h' ? 0 : 2;
		}
	}
	if (argc - optind != 1) {
		fputs(usage, stderr);
		return 2;
	}
	d = calloc(1, sizeof(*d));
	if (!d || load("replay", argv[optind], d))
		goto out;
	/* Only what was captured whole can be made again. */
	if (d->stream.captured < d->stream.size) {
		fprintf(stderr, "vatom replay: the stream was cut at %" PRIu64 " of %" PRIu64 " bytes (coredump_max_kb): cannot replay\n",
			d->stream.captured, d->stream.size);
		goto out;
	}
	for (b = 0; b < d->nbindings; b++) {
		if (d->bindings[b].surface.captured < d->bindings[b].size) {
			fprintf(stderr, "vatom replay: slot %u: %" PRIu64 " of %" PRIu64 " bytes captured (coredump_max_kb): cannot replay\n",
				d->bindings[b].slot, d->bindings[b].surface.captured,
				d->bindings[b].size);
			goto out;
		}
	}
	if (tool_open_device(o, &dev))
		goto out;
	for (b = 0; b < d->nbindings; b++) {
		ret = remake(dev, &d->bindings[b], &surf[b]);
		if (ret) {
			fprintf(stderr, "vatom replay: slot %u (%s): %s\n",
				d->bindings[b].slot, d->bindings[b].kind, strerror(-ret));
			goto out;
		}
		bind[b] = (struct drm_vatom_binding){ .slot = d->bindings[b].slot,
			.handle = vatom_surface_handle(surf[b]) };
	}
	if (d->results.present) {
		/* No more than the device lets a job write. */
		if (vatom_device_get_param(dev, DRM_VATOM_PARAM_MAX_RESULTS_SIZE, 0,
					   &max) || d->results.size > max) {
			fprintf(stderr, "vatom replay: results of %" PRIu64 " bytes: more than a job writes\n",
				d->results.size);
			goto out;
		}
		results = calloc(1, d->results.size + 8);
		if (!results)
			goto out;
		args.results = (uintptr_t)results;
		args.results_size = d->results.size;
	}
	args.stream = (uintptr_t)(d->stream.data + d->stop_offset);
	args.stream_size = d->stream.size - d->stop_offset;
	args.bindings = (uintptr_t)bind;
	args.binding_count = d->nbindings;
	if (timeout) {
		ret = set_timeout(timeout, &old);
		if (ret) {
			fprintf(stderr, "vatom replay: -t: job_timeout_ms: %s\n", strerror(-ret));
			goto out;
		}
	}
	ret = drmIoctl(vatom_device_fd(dev), DRM_IOCTL_VATOM_SUBMIT, &args) ? -errno : 0;
	if (timeout)
		set_timeout(old, &timeout);
	printf("replay: packets %" PRIu64 "..%" PRIu64 " (from byte %" PRIu64 "): %s\n",
	       d->stop_index, d->packets, d->stop_offset,
	       ret ? strerror(-ret) : "completed");
	if (ret == -EINVAL || ret == -EOPNOTSUPP)
		printf("replay: packet %u: %s\n", args.error_index,
		       vatom_strreason(args.error_reason));
	status = ret ? 1 : 0;
	for (b = 0; b < d->nbindings; b++) {
		if (vatom_surface_map(surf[b], &map))
			continue;
		if (outdir) {
			snprintf(path, sizeof(path), "%s/slot%u.bin", outdir,
				 d->bindings[b].slot);
			f = fopen(path, "w");
			if (!f || fwrite(map, 1, d->bindings[b].size, f) != d->bindings[b].size) {
				fprintf(stderr, "vatom replay: %s: %s\n", path, strerror(errno));
				status = 2;
			}
			if (f)
				fclose(f);
			continue;
		}
		printf("\nslot %u: handle %u, %s, %" PRIu64 " bytes\n", d->bindings[b].slot,
		       vatom_surface_handle(surf[b]), d->bindings[b].kind,
		       d->bindings[b].size);
		hex("  ", map, d->bindings[b].size);
	}
	if (results && !ret && !outdir) {
		printf("\nresults of the replayed packets:\n");
		hex("  ", results, d->results.size);
	}
out:
	for (b = 0; b < CD_MAX_BINDINGS; b++)
		vatom_surface_destroy(surf[b]);
	vatom_device_close(dev);
	free(results);
	if (d)
		cd_free(d);
	free(d);
	return status;
}
