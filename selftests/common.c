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
/* Typed surfaces and NoC grids                                             */
/* ------------------------------------------------------------------------ */

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
