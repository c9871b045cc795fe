/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the vatom selftests: device discovery, one thin wrapper
 * per ioctl and a minimal vISA packet builder (common.c), the streams and
 * packets (common_packets.c), what the kernel shows (common_kernel.c).
 * Nothing here depends on libvatom: the tests check the kernel's UAPI
 * directly.
 *
 * A loop around one EXPECT_*() or ASSERT_*() has braces: the harness puts
 * the handler of its TH_LOG() (and an ASSERT's bail-out) after the macro's
 * statement, which without them runs once, after the loop ends.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_SELFTEST_COMMON_H_
#define _VATOM_SELFTEST_COMMON_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "drm/vatom_drm.h"

#define VT_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define VT_PAGE_SIZE		4096u
#define VT_MAX_NODES		16
#define VT_PATH_MAX		64

/* The byte every wrapper fills output fields with before an ioctl. */
#define VT_POISON		0xcc
#define VT_POISON32		0xccccccccu
#define VT_POISON64		0xccccccccccccccccull

/* ------------------------------------------------------------------------ */
/* Devices                                                                   */
/* ------------------------------------------------------------------------ */

/*
 * The render node the tests run against, found once by main() before the
 * harness forks the tests; empty when there is no vatom device.
 */
extern char vt_render_path[VT_PATH_MAX];
/* The kernel log sequence number when the run started, or -1. */
extern long long vt_kmsg_start_seq;

int vt_find_devices(const char *driver, char paths[][VT_PATH_MAX], int max);
int vt_scan_nodes(const char *driver, const char *prefix,
		  char paths[][VT_PATH_MAX], int max);
int vt_open_path(const char *path);
int vt_open(void);
int vt_driver_name(int fd, char *name, size_t len);

/*
 * vt_shim() - whether the program runs on the in-process device
 * (libvatom-shim.so preloaded, docs/shim.md) rather than vatom.ko. A test
 * of what only the kernel has skips there with VT_SKIP_ON_SHIM(what),
 * which says what; scripts/must-run.txt names each such test for the
 * shim stage, so no other test can skip there unnoticed.
 */
bool vt_shim(void);
#define VT_SKIP_ON_SHIM(what)						\
	do {								\
		if (vt_shim())						\
			SKIP(return, "in-process device: %s", what);	\
	} while (0)

/* ------------------------------------------------------------------------ */
/* Ioctl wrappers: return what ioctl() returns (0, or -1 with errno set).   */
/* ------------------------------------------------------------------------ */

int vt_get_param(int fd, __u32 param, __u32 index, __u64 *value);
int vt_surface_create(int fd, struct drm_vatom_surface_create *args);
int vt_buffer_create(int fd, __u64 size, __u32 *handle);
int vt_mmap_offset(int fd, __u32 handle, __u32 flags, __u64 *offset);
int vt_surface_info(int fd, __u32 handle, struct drm_vatom_surface_info *info);
int vt_gem_close(int fd, __u32 handle);
int vt_prime_export(int fd, __u32 handle, int *dmabuf);
int vt_prime_import(int fd, int dmabuf, __u32 *handle);
int vt_prime_share(int from, __u32 handle, int to, __u32 *out);
int vt_submit(int fd, struct drm_vatom_submit *args);

/* mmap() of a whole surface through its fake offset; NULL on failure. */
void *vt_map(int fd, __u32 handle, size_t len);

/* The CAPS parameter, VISA_OPS of @form; 0 when unreadable (the param tests catch that). */
__u64 vt_caps(int fd);
__u64 vt_visa_ops(int fd, __u32 form);

static inline size_t vt_page_round(__u64 size)
{
	return (size + VT_PAGE_SIZE - 1) & ~(__u64)(VT_PAGE_SIZE - 1);
}

/* ------------------------------------------------------------------------ */
/* Packets                                                                   */
/* ------------------------------------------------------------------------ */

#define VT_STREAM_MAX		8192

/**
 * struct vt_stream - a command stream being built
 * @buf: the packets, 8-byte aligned
 * @size: bytes used
 * @count: packets
 * @results: result bytes the packets need (what results_needed must say)
 */
struct vt_stream {
	__u64 buf[VT_STREAM_MAX / 8];
	__u32 size;
	__u32 count;
	__u64 results;
};

/**
 * struct vt_visa - what vt_add_visa() encodes
 *
 * The operand arrays are read for the lanes the exec size implies (1 << the
 * size code); @addr, @src0 and @src1 are only read when the matching
 * DRM_VATOM_VISA_OPND_* bit is in @operands. @src0/@src1 hold 4-byte
 * elements, or 8-byte ones for the UQ/Q types.
 */
struct vt_visa {
	__u8 opcode;
	__u8 op;
	__u8 exec_size;
	__u8 surface;
	__u8 type;
	__u32 operands;
	__u32 emask;
	__u32 pred;
	__u32 flags;
	const __u32 *addr;
	const void *src0;
	const void *src1;
};

static inline __u32 vt_lanes(__u8 exec_size)
{
	return 1u << (exec_size & DRM_VATOM_VISA_EXEC_SIZE_MASK);
}

static inline __u32 vt_align8(__u32 v)
{
	return (v + 7) & ~7u;
}

static inline __u8 vt_exec(__u8 size_code, __u8 mask_ctrl)
{
	return size_code | (mask_ctrl << DRM_VATOM_VISA_EXEC_MASK_SHIFT);
}

void vt_stream_init(struct vt_stream *s);
struct drm_vatom_visa *vt_add_visa(struct vt_stream *s, const struct vt_visa *v);
void *vt_add_raw(struct vt_stream *s, const void *pkt, __u32 size);
__u32 vt_visa_result_bytes(const struct vt_visa *v);

/*
 * A DWORD_ATOMIC on slot 0 with per-lane 32-bit data: the common case.
 * @src0/@src1 may be NULL (V0); @dst adds the Dst operand.
 */
void vt_dword(struct vt_visa *v, __u8 op, __u8 exec_size, __u8 type,
	      const __u32 *addr, const __u32 *src0, const __u32 *src1, bool dst);

/*
 * Fill @args for a stream with @nbind bindings, results to user memory at
 * @results (@results_size bytes); everything else zero.
 */
void vt_submit_args(struct drm_vatom_submit *args, const struct vt_stream *s,
		    const struct drm_vatom_binding *bind, __u32 nbind,
		    void *results, __u64 results_size);

/* Submit @s with @handle bound at slot 0 and results to user memory. */
int vt_run(int fd, const struct vt_stream *s, __u32 handle, void *results,
	   __u64 results_size, struct drm_vatom_submit *out);

/* ------------------------------------------------------------------------ */
/* Kernel log                                                                */
/* ------------------------------------------------------------------------ */

long long vt_kmsg_last_seq(void);
void vt_kmsg_mark(const char *text);
/* Call @fn for each record of /dev/kmsg: 0, or -errno. */
int vt_kmsg_walk(void (*fn)(long long seq, const char *text, void *arg),
		 void *arg);
int vt_kmsg_scan(long long after_seq, char *first_bad, size_t len);

/* ------------------------------------------------------------------------ */
/* Small things                                                              */
/* ------------------------------------------------------------------------ */

static inline __u32 vt_rd32(const void *p, size_t off)
{
	__u32 v;

	__builtin_memcpy(&v, (const char *)p + off, 4);
	return v;
}

static inline __u64 vt_rd64(const void *p, size_t off)
{
	__u64 v;

	__builtin_memcpy(&v, (const char *)p + off, 8);
	return v;
}

/* First index in [from, to) whose byte is not @val, or -1. */
static inline long vt_find_ne8(const void *p, size_t from, size_t to, __u8 val)
{
	size_t i;

	for (i = from; i < to; i++)
		if (((const __u8 *)p)[i] != val)
			return i;
	return -1;
}

/* First index in [from, to) whose dword is not @val, or -1. */
static inline long vt_find_ne32(const __u32 *p, size_t from, size_t to, __u32 val)
{
	size_t i;

	for (i = from; i < to; i++)
		if (p[i] != val)
			return i;
	return -1;
}

/* First index where two dword arrays differ, or -1. */
static inline long vt_mismatch32(const __u32 *a, const __u32 *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return i;
	return -1;
}

static inline __u64 vt_u64_ptr(const void *p)
{
	return (__u64)(uintptr_t)p;
}

/* ------------------------------------------------------------------------ */
/* TYPED_ATOMIC coordinates, typed surfaces, PTX packets                    */
/* ------------------------------------------------------------------------ */

/*
 * vt_add_visa() with the V, R and LOD arrays filled from @vc, @rc and @lod
 * (each read for the packet's lanes when its DRM_VATOM_VISA_OPND_* bit is
 * in @v->operands; NULL gives zeros).
 */
struct drm_vatom_visa *vt_add_visa_coords(struct vt_stream *s,
					  const struct vt_visa *v,
					  const __u32 *vc, const __u32 *rc,
					  const __u32 *lod);

/* SURFACE_CREATE of a typed surface; @size gets the returned size. */
int vt_typed_create(int fd, const struct drm_vatom_typed_desc *desc,
		    __u32 *handle, __u64 *size);

/*
 * Bytes a PTX atom accesses (and returns before rounding): element size
 * (b16/f16/bf16 2; b32/u32/s32/f32/f16x2/bf16x2 4; b64/u64/s64/f64 8;
 * b128 16) times max(vec, 1), from the UAPI text; 0 for an unknown type.
 */
__u32 vt_ptx_access_size(__u8 type, __u8 vec);

/* A PTX packet: header, op, type, vec, space, slot 0, @addr; rest zero. */
void vt_ptx_init(struct drm_vatom_ptx *p, __u8 op, __u8 type, __u8 vec,
		 __u8 space, __u64 addr);

/*
 * Append a PTX packet; adds align8(access size) to the stream's results
 * (what a valid packet returns).
 */
struct drm_vatom_ptx *vt_add_ptx(struct vt_stream *s,
				 const struct drm_vatom_ptx *p);

/* ------------------------------------------------------------------------ */
/* debugfs counters and fault injection (vatom_fault, vatom_fuzz)           */
/* ------------------------------------------------------------------------ */

/*
 * The vatom_stats file of the device behind render node @node:
 * /sys/kernel/debug/dri/<minor>/vatom_stats (render minor, else the
 * primary's). Return: true when it exists.
 */
bool vt_debugfs_stats_path(const char *node, char *path, size_t len);

/*
 * Another debugfs file of the same device, beside its vatom_stats
 * (vatom_limits, vatom_clients). Return: true when it exists.
 */
bool vt_debugfs_file_path(const char *node, const char *name, char *path,
			  size_t len);

static inline bool vt_debugfs_limits_path(const char *node, char *path,
					  size_t len)
{
	return vt_debugfs_file_path(node, "vatom_limits", path, len);
}

/* The value of the "@name value" line of @path, or -1 when absent. */
long long vt_debugfs_stat(const char *path, const char *name);

/*
 * The text after "@key:\t" in /proc/self/fdinfo/@fd, read into @line
 * (@len bytes), or NULL; vt_fdinfo(): the number it starts with, or -1.
 */
const char *vt_fdinfo_text(int fd, const char *key, char *line, size_t len);
long long vt_fdinfo(int fd, const char *key);

/* Files and fences (common.c). */
#define VT_FAULT_DIR	"/sys/kernel/debug/vatom"
#define VT_JOB_TIMEOUT_PARAM	"/sys/module/vatom/parameters/job_timeout_ms"
int vt_read_file(const char *path, char *buf, size_t len);
int vt_write_file(const char *path, const char *val);
int vt_job_timeout_set(unsigned int ms);
int vt_fault_arm(const char *name, unsigned int times, bool armed);
int vt_fault_quiet(const char *name, unsigned int times);
int vt_fence_status(int fd, __u32 h);

/*
 * Fill @buf with @size bytes of valid packets (INC of word 0, 40 and 48
 * bytes long); return how many INCs they perform.
 */
__u32 vt_fill_incs(__u8 *buf, __u32 size);

/* ------------------------------------------------------------------------ */
/* NoC grids                                                                 */
/* ------------------------------------------------------------------------ */

#define VN_WH		DRM_VATOM_NOC_PROFILE_WORMHOLE
#define VN_BH		DRM_VATOM_NOC_PROFILE_BLACKHOLE
#define VN_T		DRM_VATOM_TILE_TENSIX
#define VN_E		DRM_VATOM_TILE_ETHERNET
#define VN_D		DRM_VATOM_TILE_DRAM
#define VN_P		DRM_VATOM_TILE_PCIE

#define VN_CTRL_AT	0x1u
#define VN_CTRL_MARKED	0x10u
#define VN_CTRL_BRCST	0x20u
#define VN_CTRL_SRC_INC	0x20000u

/* Counter indices (spec section 5.3). */
#define VN_RESP_RECEIVED	0
#define VN_CMD_ACCEPTED		4
#define VN_NP_SENT		6
#define VN_POSTED_SENT		7
#define VN_NP_STARTED		15
#define VN_OUTSTANDING(i)	(16 + (i))
#define VN_SLV_RESP_SENT	48
#define VN_SLV_ACCEPTED		52
#define VN_SLV_NP_RECV		54
#define VN_SLV_POSTED_RECV	55

/* SURFACE_CREATE of the grid @d describes (@size may be NULL): what ioctl() returns. */
int vn_create(int fd, const struct drm_vatom_tile_grid_desc *d,
	      __u32 *handle, __u64 *size);
/* NOC_COUNTERS with these fields: what ioctl() returns. */
int vn_counters(int fd, __u32 handle, __u32 flags, __u32 x, __u32 y,
		__u32 noc, __u32 id_mask, __u32 count, void *out);

#endif /* _VATOM_SELFTEST_COMMON_H_ */
