/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the vatom selftests: device discovery, one thin wrapper
 * per ioctl, typed surfaces and NoC grids (common.c). The streams and
 * packets are common_packets.h's, what the kernel shows common_kernel.h's.
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
/* Typed surfaces                                                           */
/* ------------------------------------------------------------------------ */

/* SURFACE_CREATE of a typed surface; @size gets the returned size. */
int vt_typed_create(int fd, const struct drm_vatom_typed_desc *desc,
		    __u32 *handle, __u64 *size);

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
