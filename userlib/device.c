// SPDX-License-Identifier: MIT
/*
 * libvatom: finding, opening and querying vatom devices.
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <xf86drm.h>

#include "internal.h"

#define VATOM_DRIVER_NAME "vatom"
#define VATOM_MAX_DEVICES 64	/* render minors 128..191 */

VATOM_API int vatom_version(void)
{
	return VATOM_VERSION_NUMBER;
}

VATOM_API const char *vatom_version_string(void)
{
	return VATOM_VERSION_STRING;
}

int vatom__ioctl(int fd, unsigned long request, void *arg)
{
	/* drmIoctl() restarts on EINTR/EAGAIN; we only translate errno. */
	if (drmIoctl(fd, request, arg))
		return -errno;
	return 0;
}

/* Is the DRM node at @fd driven by vatom? */
static bool fd_is_vatom(int fd)
{
	drmVersionPtr v = drmGetVersion(fd);
	bool ret;

	if (!v)
		return false;
	ret = v->name && !strcmp(v->name, VATOM_DRIVER_NAME);
	drmFreeVersion(v);
	return ret;
}

static bool node_is_vatom(const char *path)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);
	bool ret;

	if (fd < 0)
		return false;
	ret = fd_is_vatom(fd);
	close(fd);
	return ret;
}

struct node_list {
	int count;
	struct {
		unsigned int minor;
		char path[VATOM_NODE_MAX];
	} node[VATOM_MAX_DEVICES];
};

static void node_list_add(struct node_list *l, const char *path)
{
	struct stat st;
	int i;

	if (l->count == VATOM_MAX_DEVICES || strlen(path) >= VATOM_NODE_MAX)
		return;
	if (stat(path, &st) || !S_ISCHR(st.st_mode))
		return;
	for (i = 0; i < l->count; i++)
		if (l->node[i].minor == minor(st.st_rdev))
			return;
	if (!node_is_vatom(path))
		return;
	l->node[l->count].minor = minor(st.st_rdev);
	strcpy(l->node[l->count].path, path);
	l->count++;
}

static int by_minor(const void *a, const void *b)
{
	const unsigned int *ma = a, *mb = b;

	return *ma < *mb ? -1 : *ma > *mb;
}

/*
 * Every vatom render node, sorted by minor. libdrm's device list comes
 * first (it never assumes a node number), then /dev/dri is scanned too:
 * libdrm needs sysfs, which a minimal guest may lack, and it folds
 * several vatom devices (num_devices > 1) into one on modules older than
 * the one that gave each device a bus name of its own (vatom.N).
 * node_list_add() drops duplicates by minor.
 */
static int find_nodes(struct node_list *l)
{
	drmDevicePtr *devs;
	int n, i;

	l->count = 0;
	n = drmGetDevices2(0, NULL, 0);
	if (n > 0) {
		devs = calloc(n, sizeof(*devs));
		if (!devs)
			return -ENOMEM;
		n = drmGetDevices2(0, devs, n);
		for (i = 0; i < n; i++) {
			if (devs[i]->available_nodes & (1 << DRM_NODE_RENDER))
				node_list_add(l, devs[i]->nodes[DRM_NODE_RENDER]);
		}
		if (n > 0)
			drmFreeDevices(devs, n);
		free(devs);
	}
	{
		DIR *d = opendir("/dev/dri");
		struct dirent *de;
		char path[VATOM_NODE_MAX];

		while (d && (de = readdir(d))) {
			if (strncmp(de->d_name, "renderD", 7))
				continue;
			if (snprintf(path, sizeof(path), "/dev/dri/%s",
				     de->d_name) >= (int)sizeof(path))
				continue;
			node_list_add(l, path);
		}
		if (d)
			closedir(d);
	}
	qsort(l->node, l->count, sizeof(l->node[0]), by_minor);
	return l->count;
}

VATOM_API int vatom_device_count(void)
{
	struct node_list *l = malloc(sizeof(*l));
	int ret;

	if (!l)
		return -ENOMEM;
	ret = find_nodes(l);
	free(l);
	return ret;
}

VATOM_API int vatom_device_get_param(struct vatom_device *dev, uint32_t param,
				     uint32_t index, uint64_t *value)
{
	struct drm_vatom_get_param gp = { .param = param, .index = index };
	int ret;

	if (!dev || !value)
		return -EINVAL;
	ret = vatom__ioctl(dev->fd, DRM_IOCTL_VATOM_GET_PARAM, &gp);
	if (!ret)
		*value = gp.value;
	return ret;
}

/* A limit the kernel may not report yet: 0 means unknown. */
static uint64_t param_or_zero(struct vatom_device *dev, uint32_t param)
{
	uint64_t v;

	return vatom_device_get_param(dev, param, 0, &v) ? 0 : v;
}

VATOM_API int vatom_device_open_path(const char *path, unsigned int flags,
				     struct vatom_device **devp)
{
	struct vatom_device *dev;
	uint64_t v;
	int ret;

	if (!path || !devp || flags)
		return -EINVAL;
	if (strlen(path) >= VATOM_NODE_MAX)
		return -ENAMETOOLONG;
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return -ENOMEM;
	strcpy(dev->node, path);
	pthread_mutex_init(&dev->lock, NULL);
	dev->fd = open(path, O_RDWR | O_CLOEXEC);
	if (dev->fd < 0) {
		ret = -errno;
		goto err_free;
	}
	if (!fd_is_vatom(dev->fd)) {
		ret = -ENODEV;
		goto err_close;
	}
	ret = vatom_device_get_param(dev, DRM_VATOM_PARAM_UAPI_VERSION, 0, &v);
	if (ret)
		goto err_close;
	dev->uapi_version = (uint32_t)v;
	ret = vatom_device_get_param(dev, DRM_VATOM_PARAM_CAPS, 0, &dev->caps);
	if (ret)
		goto err_close;
	dev->max_stream_size = param_or_zero(dev, DRM_VATOM_PARAM_MAX_STREAM_SIZE);
	dev->max_slots = param_or_zero(dev, DRM_VATOM_PARAM_MAX_SLOTS);
	dev->max_results_size = param_or_zero(dev, DRM_VATOM_PARAM_MAX_RESULTS_SIZE);
	*devp = dev;
	return 0;

err_close:
	close(dev->fd);
err_free:
	pthread_mutex_destroy(&dev->lock);
	free(dev);
	return ret;
}

VATOM_API int vatom_device_open(unsigned int index, unsigned int flags,
				struct vatom_device **devp)
{
	struct node_list *l;
	int ret;

	if (!devp || flags)
		return -EINVAL;
	l = malloc(sizeof(*l));
	if (!l)
		return -ENOMEM;
	ret = find_nodes(l);
	if (ret >= 0)
		ret = index < (unsigned int)ret ?
		      vatom_device_open_path(l->node[index].path, 0, devp) :
		      -ENODEV;
	free(l);
	return ret;
}

VATOM_API void vatom_device_close(struct vatom_device *dev)
{
	if (!dev)
		return;
	close(dev->fd);
	pthread_mutex_destroy(&dev->lock);
	free(dev);
}

VATOM_API int vatom_device_fd(const struct vatom_device *dev)
{
	return dev->fd;
}

VATOM_API const char *vatom_device_node(const struct vatom_device *dev)
{
	return dev->node;
}

VATOM_API uint64_t vatom_device_caps(const struct vatom_device *dev)
{
	return dev->caps;
}

VATOM_API uint32_t vatom_device_uapi_version(const struct vatom_device *dev)
{
	return dev->uapi_version;
}

VATOM_API int vatom_device_reset_status(struct vatom_device *dev,
					unsigned int flags,
					struct vatom_reset_status *out)
{
	struct drm_vatom_reset_status rs = { .flags = flags };
	int ret;

	if (!dev || (flags & ~VATOM_RESET_ACK))
		return -EINVAL;
	if (!(dev->caps & DRM_VATOM_CAP_RESET_STATUS))
		return -EOPNOTSUPP;
	ret = vatom__ioctl(dev->fd, DRM_IOCTL_VATOM_RESET_STATUS, &rs);
	if (ret || !out)
		return ret;
	out->status = rs.status;
	out->guilty = rs.guilty;
	out->innocent = rs.innocent;
	return 0;
}
