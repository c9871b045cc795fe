// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the vatom selftests. See common.h.
 *
 * Copyright (C) 2026 The vatom developers
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <linux/sync_file.h>
#include <xf86drm.h>

#include "common.h"

char vt_render_path[VT_PATH_MAX];
long long vt_kmsg_start_seq = -1;

/* ------------------------------------------------------------------------ */
/* Devices                                                                   */
/* ------------------------------------------------------------------------ */

/*
 * The shim's version, which it exports: a weak reference is resolved to
 * it when the library is preloaded, and is NULL otherwise (on vatom.ko,
 * or in a static program, which nothing can be preloaded into).
 */
extern const char vatom_shim_version[] __attribute__((weak));

bool vt_shim(void)
{
	return vatom_shim_version != NULL;
}

int vt_open_path(const char *path)
{
	return open(path, O_RDWR | O_CLOEXEC);
}

/**
 * vt_driver_name() - the DRM_IOCTL_VERSION name of an open DRM node
 * @fd: the node
 * @name: receives the NUL-terminated name
 * @len: bytes at @name
 *
 * Return: 0, or -1 with errno set.
 */
int vt_driver_name(int fd, char *name, size_t len)
{
	struct drm_version v;

	memset(&v, 0, sizeof(v));
	v.name = name;
	v.name_len = len - 1;
	if (ioctl(fd, DRM_IOCTL_VERSION, &v))
		return -1;
	name[v.name_len < len ? v.name_len : len - 1] = '\0';
	return 0;
}

static bool vt_node_is(const char *path, const char *driver)
{
	char name[64];
	bool match;
	int fd;

	fd = vt_open_path(path);
	if (fd < 0)
		return false;
	match = !vt_driver_name(fd, name, sizeof(name)) && !strcmp(name, driver);
	close(fd);
	return match;
}

/**
 * vt_find_devices() - render nodes of @driver, as libdrm enumerates them
 * @driver: DRM driver name ("vatom")
 * @paths: receives up to @max render node paths
 * @max: capacity of @paths
 *
 * This is how applications are meant to find the device: drmGetDevices2()
 * and the driver name, never a fixed renderD128.
 *
 * Return: the number of nodes found (possibly more than @max), or -errno.
 */
int vt_find_devices(const char *driver, char paths[][VT_PATH_MAX], int max)
{
	drmDevicePtr devs[64];
	int n, i, found = 0;

	n = drmGetDevices2(0, devs, VT_ARRAY_SIZE(devs));
	if (n < 0)
		return n;
	if (n > (int)VT_ARRAY_SIZE(devs))
		n = VT_ARRAY_SIZE(devs);
	for (i = 0; i < n; i++) {
		const char *node;

		if (!(devs[i]->available_nodes & (1 << DRM_NODE_RENDER)))
			continue;
		node = devs[i]->nodes[DRM_NODE_RENDER];
		if (!vt_node_is(node, driver))
			continue;
		if (found < max)
			snprintf(paths[found], VT_PATH_MAX, "%s", node);
		found++;
	}
	drmFreeDevices(devs, n);
	return found;
}

static int vt_cmp_path(const void *a, const void *b)
{
	return strcmp(a, b);
}

/**
 * vt_scan_nodes() - /dev/dri nodes named @prefix* whose driver is @driver
 * @driver: DRM driver name
 * @prefix: "renderD" or "card"
 * @paths: receives up to @max paths, sorted
 * @max: capacity of @paths
 *
 * A second, libdrm-independent way to find nodes: vgem's primary node (the
 * only one that allows dumb buffers) and the cross-check of
 * vt_find_devices().
 *
 * Return: the number of nodes found, at most @max.
 */
int vt_scan_nodes(const char *driver, const char *prefix,
		  char paths[][VT_PATH_MAX], int max)
{
	struct dirent *de;
	int found = 0;
	DIR *dir;

	dir = opendir("/dev/dri");
	if (!dir)
		return 0;
	while ((de = readdir(dir)) && found < max) {
		char path[VT_PATH_MAX];

		if (strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		snprintf(path, sizeof(path), "/dev/dri/%.40s", de->d_name);
		if (vt_node_is(path, driver))
			snprintf(paths[found++], VT_PATH_MAX, "%s", path);
	}
	closedir(dir);
	qsort(paths, found, VT_PATH_MAX, vt_cmp_path);
	return found;
}

/**
 * vt_open() - open the vatom render node under test
 *
 * Return: an fd, -ENODEV when there is no vatom device, or -errno.
 */
int vt_open(void)
{
	int fd;

	if (!vt_render_path[0])
		return -ENODEV;
	fd = vt_open_path(vt_render_path);
	return fd < 0 ? -errno : fd;
}

/* ------------------------------------------------------------------------ */
/* Ioctl wrappers                                                            */
/* ------------------------------------------------------------------------ */

int vt_get_param(int fd, __u32 param, __u32 index, __u64 *value)
{
	struct drm_vatom_get_param args;
	int ret;

	memset(&args, VT_POISON, sizeof(args));
	args.param = param;
	args.index = index;
	ret = ioctl(fd, DRM_IOCTL_VATOM_GET_PARAM, &args);
	*value = args.value;
	return ret;
}

__u64 vt_caps(int fd)
{
	__u64 v;

	return vt_get_param(fd, DRM_VATOM_PARAM_CAPS, 0, &v) ? 0 : v;
}

__u64 vt_visa_ops(int fd, __u32 form)
{
	__u64 v;

	return vt_get_param(fd, DRM_VATOM_PARAM_VISA_OPS, form, &v) ? 0 : v;
}

/* Creates whatever @args describes; @args->handle/size are outputs. */
int vt_surface_create(int fd, struct drm_vatom_surface_create *args)
{
	args->handle = VT_POISON32;
	return ioctl(fd, DRM_IOCTL_VATOM_SURFACE_CREATE, args);
}

int vt_buffer_create(int fd, __u64 size, __u32 *handle)
{
	struct drm_vatom_surface_create args;
	int ret;

	memset(&args, 0, sizeof(args));
	args.kind = DRM_VATOM_SURFACE_BUFFER;
	args.size = size;
	ret = vt_surface_create(fd, &args);
	*handle = args.handle;
	return ret;
}

int vt_mmap_offset(int fd, __u32 handle, __u32 flags, __u64 *offset)
{
	struct drm_vatom_surface_mmap_offset args;
	int ret;

	memset(&args, VT_POISON, sizeof(args));
	args.handle = handle;
	args.flags = flags;
	ret = ioctl(fd, DRM_IOCTL_VATOM_SURFACE_MMAP_OFFSET, &args);
	*offset = args.offset;
	return ret;
}

/* @info->handle, flags and pad are inputs; the rest is poisoned first. */
int vt_surface_info(int fd, __u32 handle, struct drm_vatom_surface_info *info)
{
	__u32 flags = info->flags, pad = info->pad;

	memset(info, VT_POISON, sizeof(*info));
	info->handle = handle;
	info->flags = flags;
	info->pad = pad;
	return ioctl(fd, DRM_IOCTL_VATOM_SURFACE_INFO, info);
}

int vt_gem_close(int fd, __u32 handle)
{
	struct drm_gem_close args;

	memset(&args, 0, sizeof(args));
	args.handle = handle;
	return ioctl(fd, DRM_IOCTL_GEM_CLOSE, &args);
}

int vt_prime_export(int fd, __u32 handle, int *dmabuf)
{
	struct drm_prime_handle args;
	int ret;

	memset(&args, 0, sizeof(args));
	args.handle = handle;
	args.flags = DRM_CLOEXEC | DRM_RDWR;
	args.fd = -1;
	ret = ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &args);
	*dmabuf = args.fd;
	return ret;
}

int vt_prime_import(int fd, int dmabuf, __u32 *handle)
{
	struct drm_prime_handle args;
	int ret;

	memset(&args, 0, sizeof(args));
	args.fd = dmabuf;
	args.handle = VT_POISON32;
	ret = ioctl(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &args);
	*handle = args.handle;
	return ret;
}

/*
 * Give file @to the surface @handle of file @from, through a dma-buf closed
 * again: 0, with its handle in @to in *@out, or -1 with errno set.
 */
int vt_prime_share(int from, __u32 handle, int to, __u32 *out)
{
	int dmabuf, ret, err;

	if (vt_prime_export(from, handle, &dmabuf))
		return -1;
	ret = vt_prime_import(to, dmabuf, out);
	err = errno;
	close(dmabuf);
	errno = err;
	return ret;
}

/* The outputs (error_index, error_reason, results_needed) are poisoned. */
int vt_submit(int fd, struct drm_vatom_submit *args)
{
	args->error_index = VT_POISON32;
	args->error_reason = VT_POISON32;
	args->results_needed = VT_POISON64;
	return ioctl(fd, DRM_IOCTL_VATOM_SUBMIT, args);
}

void *vt_map(int fd, __u32 handle, size_t len)
{
	__u64 offset;
	void *p;

	if (vt_mmap_offset(fd, handle, 0, &offset))
		return NULL;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, offset);
	return p == MAP_FAILED ? NULL : p;
}

/* ------------------------------------------------------------------------ */
/* Packets                                                                   */
/* ------------------------------------------------------------------------ */

void vt_stream_init(struct vt_stream *s)
{
	memset(s, 0, sizeof(*s));
}

static __u32 vt_elem_size(__u8 type)
{
	return type == DRM_VATOM_VISA_TYPE_UQ || type == DRM_VATOM_VISA_TYPE_Q ?
	       8 : 4;
}

/**
 * vt_visa_result_bytes() - result bytes a vISA packet owns
 * @v: the packet description
 *
 * From the UAPI text: with Dst, one element per lane of the data type's
 * width (4 bytes for the .16 forms), rounded up to 8; ADDC returns dst then
 * carry, each rounded up to 8; nothing without Dst.
 */
__u32 vt_visa_result_bytes(const struct vt_visa *v)
{
	__u32 n = vt_lanes(v->exec_size);

	if (!(v->operands & DRM_VATOM_VISA_OPND_DST))
		return 0;
	if (v->opcode == DRM_VATOM_VISA_ADDC)
		return 2 * vt_align8(4 * n);
	return vt_align8(n * vt_elem_size(v->type));
}

/* Append @bytes of @src (zeros when NULL), then zero padding to 8. */
static void vt_put(struct vt_stream *s, __u32 *pos, const void *src, __u32 bytes)
{
	char *buf = (char *)s->buf;

	if (src)
		memcpy(buf + *pos, src, bytes);
	else
		memset(buf + *pos, 0, bytes);
	memset(buf + *pos + bytes, 0, vt_align8(bytes) - bytes);
	*pos += vt_align8(bytes);
}

/**
 * vt_add_visa() - append one vISA packet
 * @s: the stream
 * @v: what to encode
 *
 * Lays the packet out as the UAPI says: struct drm_vatom_visa, then the
 * operand arrays present in @v->operands in bit order (ADDR, V, R, LOD,
 * SRC0, SRC1), each starting 8-byte aligned; Dst is not an array.
 *
 * Return: the packet inside the stream, for tests that corrupt one field.
 */
struct drm_vatom_visa *vt_add_visa(struct vt_stream *s, const struct vt_visa *v)
{
	struct drm_vatom_visa *p = (void *)((char *)s->buf + s->size);
	__u32 n = vt_lanes(v->exec_size);
	__u32 esz = vt_elem_size(v->type);
	__u32 pos = s->size + sizeof(*p);

	memset(p, 0, sizeof(*p));
	p->hdr.type = DRM_VATOM_PACKET_VISA;
	p->opcode = v->opcode;
	p->op = v->op;
	p->exec_size = v->exec_size;
	p->surface = v->surface;
	p->type = v->type;
	p->operands = v->operands;
	p->emask = v->emask;
	p->pred = v->pred;
	p->flags = v->flags;

	if (v->operands & DRM_VATOM_VISA_OPND_ADDR)
		vt_put(s, &pos, v->addr, 4 * n);
	if (v->operands & DRM_VATOM_VISA_OPND_V)
		vt_put(s, &pos, NULL, 4 * n);
	if (v->operands & DRM_VATOM_VISA_OPND_R)
		vt_put(s, &pos, NULL, 4 * n);
	if (v->operands & DRM_VATOM_VISA_OPND_LOD)
		vt_put(s, &pos, NULL, 4 * n);
	if (v->operands & DRM_VATOM_VISA_OPND_SRC0_IMM)
		vt_put(s, &pos, v->src0, esz);
	else if (v->operands & DRM_VATOM_VISA_OPND_SRC0)
		vt_put(s, &pos, v->src0, esz * n);
	if (v->operands & DRM_VATOM_VISA_OPND_SRC1_IMM)
		vt_put(s, &pos, v->src1, esz);
	else if (v->operands & DRM_VATOM_VISA_OPND_SRC1)
		vt_put(s, &pos, v->src1, esz * n);

	p->hdr.size = pos - s->size;
	s->size = pos;
	s->count++;
	s->results += vt_visa_result_bytes(v);
	return p;
}

/* Append a packet given as bytes (@size a multiple of 8). */
void *vt_add_raw(struct vt_stream *s, const void *pkt, __u32 size)
{
	void *p = (char *)s->buf + s->size;

	memcpy(p, pkt, size);
	s->size += size;
	s->count++;
	return p;
}

void vt_dword(struct vt_visa *v, __u8 op, __u8 exec_size, __u8 type,
	      const __u32 *addr, const __u32 *src0, const __u32 *src1, bool dst)
{
	memset(v, 0, sizeof(*v));
	v->opcode = DRM_VATOM_VISA_DWORD_ATOMIC;
	v->op = op;
	v->exec_size = exec_size;
	v->type = type;
	v->emask = 0xffffffff;
	v->addr = addr;
	v->src0 = src0;
	v->src1 = src1;
	v->operands = DRM_VATOM_VISA_OPND_ADDR;
	if (src0)
		v->operands |= DRM_VATOM_VISA_OPND_SRC0;
	if (src1)
		v->operands |= DRM_VATOM_VISA_OPND_SRC1;
	if (dst)
		v->operands |= DRM_VATOM_VISA_OPND_DST;
}

void vt_submit_args(struct drm_vatom_submit *args, const struct vt_stream *s,
		    const struct drm_vatom_binding *bind, __u32 nbind,
		    void *results, __u64 results_size)
{
	memset(args, 0, sizeof(*args));
	args->stream = vt_u64_ptr(s->buf);
	args->stream_size = s->size;
	args->bindings = nbind ? vt_u64_ptr(bind) : 0;
	args->binding_count = nbind;
	args->results = vt_u64_ptr(results);
	args->results_size = results_size;
}

int vt_run(int fd, const struct vt_stream *s, __u32 handle, void *results,
	   __u64 results_size, struct drm_vatom_submit *out)
{
	struct drm_vatom_binding bind = { .slot = 0, .handle = handle };
	struct drm_vatom_submit args;
	int ret;

	vt_submit_args(&args, s, &bind, 1, results, results_size);
	ret = vt_submit(fd, &args);
	if (out)
		*out = args;
	return ret;
}

/* ------------------------------------------------------------------------ */
/* Kernel log                                                                */
/* ------------------------------------------------------------------------ */

/*
 * Read every record of /dev/kmsg ("prio,seq,ts,flags;text\n" plus
 * continuation lines), calling @fn with the sequence number and text.
 */
int vt_kmsg_walk(void (*fn)(long long seq, const char *text, void *arg),
		 void *arg)
{
	char rec[8192];
	int fd;

	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t n = read(fd, rec, sizeof(rec) - 1);
		long long seq;
		char *text, *nl;

		if (n < 0 && errno == EPIPE)
			continue;	/* records overwritten while reading */
		if (n <= 0)
			break;
		rec[n] = '\0';
		text = strchr(rec, ';');
		if (!text || sscanf(rec, "%*u,%lld,", &seq) != 1)
			continue;
		text++;
		nl = strchr(text, '\n');
		if (nl)
			*nl = '\0';
		fn(seq, text, arg);
	}
	close(fd);
	return 0;
}

static void vt_kmsg_seq_fn(long long seq, const char *text, void *arg)
{
	(void)text;
	*(long long *)arg = seq;
}

/* Sequence number of the newest kernel log record, or -1. */
long long vt_kmsg_last_seq(void)
{
	long long seq = -1;

	if (vt_kmsg_walk(vt_kmsg_seq_fn, &seq))
		return -1;
	return seq;
}

/* Write a line into the kernel log (root only; ignored otherwise). */
void vt_kmsg_mark(const char *text)
{
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	if (write(fd, text, strlen(text)) < 0)
		(void)0;	/* the scan works without the marker */
	close(fd);
}

struct vt_kmsg_scan_state {
	long long after;
	int bad;
	char *first;
	size_t len;
};

/* What a kernel splat starts with. */
static const char * const vt_splat[] = {
	"BUG:", "WARNING:", "Oops", "Call Trace", "general protection fault",
	"kernel BUG", "UBSAN:", "KASAN:", "refcount_t:", "list_add corruption",
	"list_del corruption", "INFO: task", "possible recursive locking",
	"inconsistent lock state", "circular locking dependency",
	"rcu_sched detected stall", "rcu: INFO:", "Bad page", "stack-protector",
};

static void vt_kmsg_scan_fn(long long seq, const char *text, void *arg)
{
	struct vt_kmsg_scan_state *st = arg;
	size_t i;

	if (seq <= st->after)
		return;
	for (i = 0; i < VT_ARRAY_SIZE(vt_splat); i++) {
		if (!strstr(text, vt_splat[i]))
			continue;
		if (!st->bad++)
			snprintf(st->first, st->len, "%s", text);
		return;
	}
}

/**
 * vt_kmsg_scan() - count kernel splats logged after record @after_seq
 * @after_seq: the last record before the tests started
 * @first_bad: receives the first offending line
 * @len: bytes at @first_bad
 *
 * Return: the number of offending records, or -errno when /dev/kmsg cannot
 * be read.
 */
int vt_kmsg_scan(long long after_seq, char *first_bad, size_t len)
{
	struct vt_kmsg_scan_state st = {
		.after = after_seq, .first = first_bad, .len = len,
	};
	int ret;

	first_bad[0] = '\0';
	ret = vt_kmsg_walk(vt_kmsg_scan_fn, &st);
	return ret ? ret : st.bad;
}

/* ------------------------------------------------------------------------ */
/* TYPED_ATOMIC coordinates, typed surfaces, PTX packets                    */
/* ------------------------------------------------------------------------ */

/**
 * vt_add_visa_coords() - append a vISA packet with V, R and LOD values
 * @s: the stream
 * @v: what to encode (vt_add_visa() writes V, R and LOD as zeros)
 * @vc: V per lane, or NULL for zeros
 * @rc: R per lane, or NULL for zeros
 * @lod: LOD per lane, or NULL for zeros
 *
 * The arrays follow the ADDR array in bit order (V, R, LOD), each 8-byte
 * aligned, as the UAPI lays them out.
 *
 * Return: the packet inside the stream.
 */
struct drm_vatom_visa *vt_add_visa_coords(struct vt_stream *s,
					  const struct vt_visa *v,
					  const __u32 *vc, const __u32 *rc,
					  const __u32 *lod)
{
	struct drm_vatom_visa *p = vt_add_visa(s, v);
	__u32 n = vt_lanes(v->exec_size);
	char *pos = (char *)(p + 1);

	if (v->operands & DRM_VATOM_VISA_OPND_ADDR)
		pos += vt_align8(4 * n);
	if (v->operands & DRM_VATOM_VISA_OPND_V) {
		if (vc)
			memcpy(pos, vc, 4 * n);
		pos += vt_align8(4 * n);
	}
	if (v->operands & DRM_VATOM_VISA_OPND_R) {
		if (rc)
			memcpy(pos, rc, 4 * n);
		pos += vt_align8(4 * n);
	}
	if ((v->operands & DRM_VATOM_VISA_OPND_LOD) && lod)
		memcpy(pos, lod, 4 * n);
	return p;
}

/* SURFACE_CREATE of @kind from @desc; @size may be NULL. */
static int vt_desc_create(int fd, __u32 kind, const void *desc, __u32 desc_size,
			  __u32 *handle, __u64 *size)
{
	struct drm_vatom_surface_create args;
	int ret;

	memset(&args, 0, sizeof(args));
	args.kind = kind;
	args.desc = vt_u64_ptr(desc);
	args.desc_size = desc_size;
	ret = vt_surface_create(fd, &args);
	*handle = args.handle;
	if (size)
		*size = args.size;
	return ret;
}

int vt_typed_create(int fd, const struct drm_vatom_typed_desc *desc,
		    __u32 *handle, __u64 *size)
{
	return vt_desc_create(fd, DRM_VATOM_SURFACE_TYPED, desc, sizeof(*desc),
			      handle, size);
}

__u32 vt_ptx_access_size(__u8 type, __u8 vec)
{
	__u32 esize;

	switch (type) {
	case DRM_VATOM_PTX_TYPE_B16:
	case DRM_VATOM_PTX_TYPE_F16:
	case DRM_VATOM_PTX_TYPE_BF16:
		esize = 2;
		break;
	case DRM_VATOM_PTX_TYPE_B32:
	case DRM_VATOM_PTX_TYPE_U32:
	case DRM_VATOM_PTX_TYPE_S32:
	case DRM_VATOM_PTX_TYPE_F32:
	case DRM_VATOM_PTX_TYPE_F16X2:
	case DRM_VATOM_PTX_TYPE_BF16X2:
		esize = 4;
		break;
	case DRM_VATOM_PTX_TYPE_B64:
	case DRM_VATOM_PTX_TYPE_U64:
	case DRM_VATOM_PTX_TYPE_S64:
	case DRM_VATOM_PTX_TYPE_F64:
		esize = 8;
		break;
	case DRM_VATOM_PTX_TYPE_B128:
		esize = 16;
		break;
	default:
		return 0;
	}
	return esize * (vec ? vec : 1);
}

void vt_ptx_init(struct drm_vatom_ptx *p, __u8 op, __u8 type, __u8 vec,
		 __u8 space, __u64 addr)
{
	memset(p, 0, sizeof(*p));
	p->hdr.type = DRM_VATOM_PACKET_PTX;
	p->hdr.size = sizeof(*p);
	p->op = op;
	p->type = type;
	p->vec = vec;
	p->space = space;
	p->addr = addr;
}

struct drm_vatom_ptx *vt_add_ptx(struct vt_stream *s,
				 const struct drm_vatom_ptx *p)
{
	struct drm_vatom_ptx *q = vt_add_raw(s, p, sizeof(*p));

	s->results += vt_align8(vt_ptx_access_size(p->type, p->vec));
	return q;
}

/* ------------------------------------------------------------------------ */
/* debugfs counters                                                          */
/* ------------------------------------------------------------------------ */

/**
 * vt_debugfs_stats_path() - the vatom_stats file of a render node's device
 * @node: the render node, e.g. /dev/dri/renderD129
 * @path: receives the debugfs path
 * @len: bytes at @path
 *
 * DRM names the debugfs directory after the minor: the render node's, or on
 * kernels that only create one for the primary node, the card's.
 *
 * Return: true when the file exists and is readable.
 */
bool vt_debugfs_stats_path(const char *node, char *path, size_t len)
{
	char card[VT_PATH_MAX];
	struct dirent *de;
	struct stat st;
	bool found = false;
	DIR *dir;

	if (stat(node, &st))
		return false;
	snprintf(path, len, "/sys/kernel/debug/dri/%u/vatom_stats",
		 minor(st.st_rdev));
	if (!access(path, R_OK))
		return true;
	snprintf(card, sizeof(card), "/sys/dev/char/%u:%u/device/drm",
		 major(st.st_rdev), minor(st.st_rdev));
	dir = opendir(card);
	if (!dir)
		return false;
	while (!found && (de = readdir(dir))) {
		unsigned int n;

		if (sscanf(de->d_name, "card%u", &n) != 1)
			continue;
		snprintf(path, len, "/sys/kernel/debug/dri/%u/vatom_stats", n);
		found = !access(path, R_OK);
	}
	closedir(dir);
	return found;
}

/**
 * vt_debugfs_file_path() - another debugfs file of a render node's device
 * @node: the render node
 * @name: the file's name, e.g. vatom_limits
 * @path: receives the debugfs path
 * @len: bytes at @path
 *
 * Return: true when the file exists and is readable.
 */
bool vt_debugfs_file_path(const char *node, const char *name, char *path,
			  size_t len)
{
	char *slash;

	if (!vt_debugfs_stats_path(node, path, len))
		return false;
	slash = strrchr(path, '/');
	if (!slash || (size_t)(slash + 1 - path) + strlen(name) + 1 > len)
		return false;
	strcpy(slash + 1, name);
	return !access(path, R_OK);
}

long long vt_debugfs_stat(const char *path, const char *name)
{
	char line[128], key[64];
	long long val, ret = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %lld", key, &val) == 2 && !strcmp(key, name))
			ret = val;
	fclose(f);
	return ret;
}

const char *vt_fdinfo_text(int fd, const char *key, char *line, size_t len)
{
	const char *text = NULL;
	size_t n = strlen(key);
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	while (!text && fgets(line, len, f)) {
		if (!strncmp(line, key, n) && line[n] == ':' && line[n + 1] == '\t') {
			line[strcspn(line, "\n")] = '\0';
			text = line + n + 2;
		}
	}
	fclose(f);
	return text;
}

long long vt_fdinfo(int fd, const char *key)
{
	char line[256];
	const char *text = vt_fdinfo_text(fd, key, line, sizeof(line));

	return text ? strtoll(text, NULL, 0) : -1;
}

__u32 vt_fill_incs(__u8 *buf, __u32 size)
{
	const __u32 addr[1] = { 0 };
	__u32 units = size / 8, big = 0, pos = 0, n = 0;
	struct vt_stream *one = malloc(sizeof(*one));
	struct vt_visa v;

	/* 40a + 48b = size: 5a + 6b = units. */
	while ((units - 6 * big) % 5)
		big++;
	vt_stream_init(one);
	vt_dword(&v, DRM_VATOM_VISA_OP_INC, DRM_VATOM_VISA_EXEC_1,
		 DRM_VATOM_VISA_TYPE_UD, addr, NULL, NULL, false);
	vt_add_visa(one, &v);		/* 40 bytes */
	while (pos + 40 <= size - 48 * big) {
		memcpy(buf + pos, one->buf, 40);
		pos += 40;
		n++;
	}
	/* 48-byte INC: exec 4 (16 bytes of offsets), lanes 1..3 disabled. */
	vt_stream_init(one);
	{
		const __u32 addr4[4] = { 0, 0, 0, 0 };

		vt_dword(&v, DRM_VATOM_VISA_OP_INC, DRM_VATOM_VISA_EXEC_4,
			 DRM_VATOM_VISA_TYPE_UD, addr4, NULL, NULL, false);
		v.emask = 1;
		vt_add_visa(one, &v);
	}
	while (big--) {
		memcpy(buf + pos, one->buf, 48);
		pos += 48;
		n++;
	}
	free(one);
	return n;
}

/* ------------------------------------------------------------------------ */
/* NoC grids                                                                 */
/* ------------------------------------------------------------------------ */

int vn_create(int fd, const struct drm_vatom_tile_grid_desc *d,
	      __u32 *handle, __u64 *size)
{
	return vt_desc_create(fd, DRM_VATOM_SURFACE_TILE_GRID, d, sizeof(*d),
			      handle, size);
}

int vn_counters(int fd, __u32 handle, __u32 flags, __u32 x, __u32 y,
		__u32 noc, __u32 id_mask, __u32 count, void *out)
{
	struct drm_vatom_noc_counters a;

	memset(&a, 0, sizeof(a));
	a.handle = handle;
	a.flags = flags;
	a.x = x;
	a.y = y;
	a.noc = noc;
	a.id_mask = id_mask;
	a.count = count;
	a.counters = vt_u64_ptr(out);
	return ioctl(fd, DRM_IOCTL_VATOM_NOC_COUNTERS, &a);
}

/* ------------------------------------------------------------------------ */
/* Files and fences                                                          */
/* ------------------------------------------------------------------------ */

/* Read @path's first line (sysfs, debugfs) into @buf: 0 or -errno. */
int vt_read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/*
 * Write @val to @path, whole (a sysfs, debugfs or procfs file):
 * 0 or -errno. Async-signal-safe, for the fuzzer's exit handler.
 */
int vt_write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;
	ssize_t n = strlen(val);

	if (fd < 0)
		return -errno;
	if (write(fd, val, n) != n)
		ret = -errno;
	close(fd);
	return ret;
}

/* Set vatom's job timeout (ms), as root: 0 or -errno. */
int vt_job_timeout_set(unsigned int ms)
{
	char v[16];

	snprintf(v, sizeof(v), "%u", ms);
	return vt_write_file(VT_JOB_TIMEOUT_PARAM, v);
}

/*
 * Set vatom's fault attribute @name (fail_hang, ...) to fail its next
 * @times calls (0: no limit; fail-nth does not look at it), armed
 * (probability 100) or not: 0 or -errno. The other knobs (interval,
 * task-filter, ...) are the caller's.
 */
int vt_fault_arm(const char *name, unsigned int times, bool armed)
{
	char path[96], v[16];
	int ret;

	snprintf(path, sizeof(path), VT_FAULT_DIR "/%s/times", name);
	snprintf(v, sizeof(v), "%u", times);
	ret = vt_write_file(path, v);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), VT_FAULT_DIR "/%s/probability", name);
	return vt_write_file(path, armed ? "100" : "0");
}

/*
 * Arm fault attribute @name (fail_hang, fail_job, ...) to fail the next
 * @times calls, whatever the task, quietly; @times 0 disarms it.
 */
int vt_fault_quiet(const char *name, unsigned int times)
{
	static const char *const knobs[][2] = {
		{ "interval", "1" }, { "verbose", "0" }, { "space", "0" },
		{ "task-filter", "N" },
	};
	char path[128];
	unsigned int i;
	int ret;

	for (i = 0; i < VT_ARRAY_SIZE(knobs); i++) {
		snprintf(path, sizeof(path), VT_FAULT_DIR "/%s/%s", name, knobs[i][0]);
		ret = vt_write_file(path, knobs[i][1]);
		if (ret)
			return ret;
	}
	return vt_fault_arm(name, times, times);
}

/*
 * The status of syncobj @h's fence, through a sync_file: 1 signalled, 0
 * not yet, or its error; -EBADMSG when it has none (or no answer).
 */
int vt_fence_status(int fd, __u32 h)
{
	struct sync_file_info info;
	int sf, st = -EBADMSG;

	if (drmSyncobjExportSyncFile(fd, h, &sf))
		return st;
	memset(&info, 0, sizeof(info));
	if (!ioctl(sf, SYNC_IOC_FILE_INFO, &info))
		st = info.status;
	close(sf);
	return st;
}
