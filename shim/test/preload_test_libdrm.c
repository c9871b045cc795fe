// SPDX-License-Identifier: MIT
/*
 * preload_test_libdrm.c: preload.c's host test, libdrm's discovery and
 * naming calls (drmGetDevices2(), drmGetDevice2(), the node names and
 * types, drmGetVersion(), drmOpenWithType()) on the devices the shim
 * presents, as a program using libdrm sees them.
 */

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <xf86drm.h>

#include "preload_test.h"

static int cmp_dev(const void *a, const void *b)
{
	const drmDevice *x = *(drmDevicePtr const *)a;
	const drmDevice *y = *(drmDevicePtr const *)b;

	if (x->bustype != DRM_BUS_PLATFORM || y->bustype != DRM_BUS_PLATFORM)
		return x->bustype - y->bustype;
	/* "vatom.N", by N */
	if (strlen(x->businfo.platform->fullname) !=
	    strlen(y->businfo.platform->fullname))
		return strlen(x->businfo.platform->fullname) <
		       strlen(y->businfo.platform->fullname) ? -1 : 1;
	return strcmp(x->businfo.platform->fullname,
		      y->businfo.platform->fullname);
}

void test_libdrm(void)
{
	drmDevicePtr devs[32], dev;
	char want[64], card[64], *name;
	drmVersionPtr ver;
	int n, i, fd, cfd;
	struct stat s;
	bool good = true;

	n = drmGetDevices2(0, NULL, 0);
	ok(n == (int)ndev, "drmGetDevices2(0, NULL, 0) = %d", n);
	n = drmGetDevices2(0, devs, 32);
	ok(n == (int)ndev, "drmGetDevices2(0, devs, 32) lists %d device(s)", n);
	if (n > 0)
		qsort(devs, n, sizeof(devs[0]), cmp_dev);
	for (i = 0; i < n; i++) {
		const drmDevice *d = devs[i];
		bool this = false;

		snprintf(want, sizeof(want), "/dev/dri/renderD%d", 128 + i);
		snprintf(card, sizeof(card), "/dev/dri/card%d", i);
		if (d->bustype == DRM_BUS_PLATFORM) {
			char full[32];

			snprintf(full, sizeof(full), "vatom.%d", i);
			this = d->available_nodes == (1 << DRM_NODE_PRIMARY |
						      1 << DRM_NODE_RENDER) &&
			       !strcmp(d->nodes[DRM_NODE_RENDER], want) &&
			       !strcmp(d->nodes[DRM_NODE_PRIMARY], card) &&
			       !strcmp(d->businfo.platform->fullname, full) &&
			       d->deviceinfo.platform->compatible &&
			       d->deviceinfo.platform->compatible[0] &&
			       !strcmp(d->deviceinfo.platform->compatible[0],
				       full) &&
			       !d->deviceinfo.platform->compatible[1];
			diag("device %d: bus platform, fullname %s, "
			     "compatible[0] %s, nodes %s %s", i,
			     d->businfo.platform->fullname,
			     d->deviceinfo.platform->compatible ?
			     d->deviceinfo.platform->compatible[0] : "-",
			     d->available_nodes & 1 << DRM_NODE_PRIMARY ?
			     d->nodes[DRM_NODE_PRIMARY] : "-",
			     d->available_nodes & 1 << DRM_NODE_RENDER ?
			     d->nodes[DRM_NODE_RENDER] : "-");
		}
		good &= this;
	}
	ok(n > 0 && good,
	   "each: DRM_BUS_PLATFORM, nodes cardN and renderD(128+N), "
	   "fullname and compatible vatom.N");
	if (n > 0)
		drmFreeDevices(devs, n);

	fd = open_render(0);
	name = drmGetDeviceNameFromFd2(fd);
	ok(name && !strcmp(name, "/dev/dri/renderD128"),
	   "drmGetDeviceNameFromFd2() = %s", name ? name : "NULL");
	free(name);
	ok(drmGetNodeTypeFromFd(fd) == DRM_NODE_RENDER,
	   "drmGetNodeTypeFromFd() = DRM_NODE_RENDER");
	dev = NULL;
	ok(!drmGetDevice2(fd, 0, &dev) && dev &&
	   dev->bustype == DRM_BUS_PLATFORM &&
	   !strcmp(dev->nodes[DRM_NODE_RENDER], "/dev/dri/renderD128") &&
	   !strcmp(dev->businfo.platform->fullname, "vatom.0"),
	   "drmGetDevice2(): vatom.0, /dev/dri/renderD128");
	if (dev)
		drmFreeDevice(&dev);
	name = drmGetPrimaryDeviceNameFromFd(fd);
	ok(name && !strcmp(name, "/dev/dri/card0"),
	   "drmGetPrimaryDeviceNameFromFd() = %s", name ? name : "NULL");
	free(name);
	ver = drmGetVersion(fd);
	ok(ver && !strcmp(ver->name, "vatom"), "drmGetVersion(): name %s",
	   ver ? ver->name : "NULL");
	if (ver)
		drmFreeVersion(ver);
	close(fd);

	cfd = open("/dev/dri/card0", O_RDWR);
	name = drmGetRenderDeviceNameFromFd(cfd);
	ok(name && !strcmp(name, "/dev/dri/renderD128"),
	   "drmGetRenderDeviceNameFromFd(card0) = %s", name ? name : "NULL");
	free(name);
	ok(drmGetNodeTypeFromFd(cfd) == DRM_NODE_PRIMARY,
	   "drmGetNodeTypeFromFd(card0) = DRM_NODE_PRIMARY");
	close(cfd);

	fd = drmOpenWithType("vatom", NULL, DRM_NODE_RENDER);
	ok(fd >= 0 && !fstat(fd, &s) && is_rdev(&s, 128),
	   "drmOpenWithType(\"vatom\", NULL, DRM_NODE_RENDER): renderD128");
	if (fd >= 0)
		close(fd);

	if (ndev > 1) {
		fd = open_render(ndev - 1);
		snprintf(want, sizeof(want), "/dev/dri/renderD%u",
			 128 + ndev - 1);
		name = drmGetDeviceNameFromFd2(fd);
		ok(name && !strcmp(name, want),
		   "drmGetDeviceNameFromFd2(last device) = %s",
		   name ? name : "NULL");
		free(name);
		dev = NULL;
		snprintf(want, sizeof(want), "vatom.%u", ndev - 1);
		ok(!drmGetDevice2(fd, 0, &dev) && dev &&
		   !strcmp(dev->businfo.platform->fullname, want),
		   "drmGetDevice2(last device): %s", want);
		if (dev)
			drmFreeDevice(&dev);
		close(fd);
	}
}
