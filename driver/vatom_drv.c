// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * vatom: a virtual atomic accelerator.
 *
 * Each device is a DRM render node backed by a bare platform device, in the
 * manner of vgem: surfaces are shmem GEM objects, work is a command stream
 * of ISA packets executed by the engine in driver/engine/.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/platform_device.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_managed.h>

#include "vatom_compat_kernel.h"
#include "vatom_device.h"
#include "vatom_fault.h"
#include "vatom_file.h"
#include "vatom_gem.h"
#include "vatom_ioctl.h"
#include "vatom_job.h"
#include "vatom_sched.h"
#include "vatom_limits.h"
#include "vatom_queue.h"

#define VATOM_MAX_DEVICES	16

static unsigned int num_devices = 1;
module_param(num_devices, uint, 0444);
MODULE_PARM_DESC(num_devices, "Number of vatom devices to create (1-16, default 1)");

static struct vatom_device *vatom_devices[VATOM_MAX_DEVICES];

static const struct drm_ioctl_desc vatom_ioctls[] = {
	DRM_IOCTL_DEF_DRV(VATOM_GET_PARAM, vatom_ioctl_get_param, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(VATOM_SURFACE_CREATE, vatom_ioctl_surface_create, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(VATOM_SURFACE_MMAP_OFFSET, vatom_ioctl_surface_mmap_offset,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(VATOM_SURFACE_INFO, vatom_ioctl_surface_info, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(VATOM_SUBMIT, vatom_ioctl_submit, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(VATOM_NOC_COUNTERS, vatom_ioctl_noc_counters, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(VATOM_QUEUE_CREATE, vatom_ioctl_queue_create, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(VATOM_QUEUE_DESTROY, vatom_ioctl_queue_destroy, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(VATOM_QUEUE_KICK, vatom_ioctl_queue_kick, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(VATOM_RESET_STATUS, vatom_ioctl_reset_status, DRM_RENDER_ALLOW),
};

VATOM_DEFINE_FOPS(vatom_fops);

/* &drm_driver.open: the file's context. */
static int vatom_open(struct drm_device *dev, struct drm_file *file)
{
	struct vatom_file *vfile = vatom_file_create(dev, file);

	if (IS_ERR(vfile))
		return PTR_ERR(vfile);
	file->driver_priv = vfile;
	return 0;
}

/*
 * &drm_driver.postclose: the file's handles and syncobjs are released and
 * no ioctl runs any more (no KICK either). Its queues go first, then its
 * jobs complete or are cancelled, then its context.
 */
static void vatom_postclose(struct drm_device *dev, struct drm_file *file)
{
	struct vatom_file *vfile = file->driver_priv;

	vatom_file_queues_release(vfile);
	vatom_file_jobs_release(vfile);
	vatom_file_destroy(vfile);
	file->driver_priv = NULL;
}

static const struct drm_driver vatom_driver = {
	.driver_features	= DRIVER_GEM | DRIVER_RENDER | DRIVER_SYNCOBJ |
				  DRIVER_SYNCOBJ_TIMELINE,
	.open			= vatom_open,
	.postclose		= vatom_postclose,
	.ioctls			= vatom_ioctls,
	.num_ioctls		= ARRAY_SIZE(vatom_ioctls),
	.fops			= &vatom_fops,
	.debugfs_init		= vatom_debugfs_init,
	VATOM_DRIVER_SHOW_FDINFO

	DRM_GEM_SHMEM_DRIVER_OPS,
	.gem_create_object	= vatom_gem_create_object,

	.name	= DRIVER_NAME,
	.desc	= DRIVER_DESC,
	VATOM_DRIVER_DATE(DRIVER_DATE)
	.major	= DRIVER_MAJOR,
	.minor	= DRIVER_MINOR,
	.patchlevel = DRIVER_PATCHLEVEL,
};

static void vatom_free_pcpu(struct drm_device *drm, void *unused)
{
	free_percpu(to_vatom_device(drm)->pcpu);
}

static struct vatom_device *vatom_device_create(int id)
{
	struct platform_device *pdev;
	struct vatom_device *vdev;
	char name[16];
	int ret;

	/*
	 * "vatom.N" as the name itself, not DRIVER_NAME with id N: the same
	 * device name, but a MODALIAS of its own ("platform:vatom.N"), which
	 * libdrm's drmGetDevices2() takes as a platform device's bus info.
	 * With one name for all, libdrm folds every vatom device into one.
	 */
	snprintf(name, sizeof(name), DRIVER_NAME ".%d", id);
	pdev = platform_device_register_simple(name, PLATFORM_DEVID_NONE, NULL, 0);
	if (IS_ERR(pdev))
		return ERR_CAST(pdev);

	/* A devres group lets us tear the devm-managed DRM device down by hand. */
	if (!devres_open_group(&pdev->dev, NULL, GFP_KERNEL)) {
		ret = -ENOMEM;
		goto out_unregister;
	}

	/* PRIME import/export needs a DMA mask even on a virtual device. */
	ret = dma_coerce_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (ret)
		goto out_devres;

	vdev = devm_drm_dev_alloc(&pdev->dev, &vatom_driver, struct vatom_device, drm);
	if (IS_ERR(vdev)) {
		ret = PTR_ERR(vdev);
		goto out_devres;
	}
	vdev->platform = pdev;

	vdev->pcpu = alloc_percpu(struct vatom_stats_pcpu);
	if (!vdev->pcpu) {
		ret = -ENOMEM;
		goto out_devres;
	}
	ret = drmm_add_action_or_reset(&vdev->drm, vatom_free_pcpu, NULL);
	if (ret)
		goto out_devres;

	/* Fences are signalled from it: a rescuer keeps it going under memory pressure. */
	vdev->wq = alloc_workqueue("vatom%d", WQ_UNBOUND | WQ_MEM_RECLAIM, 0, id);
	if (!vdev->wq) {
		ret = -ENOMEM;
		goto out_devres;
	}

	ret = drm_dev_register(&vdev->drm, 0);
	if (ret)
		goto out_wq;

	return vdev;

out_wq:
	destroy_workqueue(vdev->wq);
out_devres:
	devres_release_group(&pdev->dev, NULL);
out_unregister:
	platform_device_unregister(pdev);
	return ERR_PTR(ret);
}

static void vatom_device_destroy(struct vatom_device *vdev)
{
	struct platform_device *pdev = vdev->platform;

	drm_dev_unregister(&vdev->drm);
	/* No job is left: each holds a fence, and fences pin the module. */
	destroy_workqueue(vdev->wq);
	devres_release_group(&pdev->dev, NULL);
	platform_device_unregister(pdev);
}

static void vatom_destroy_all(void)
{
	int i;

	for (i = VATOM_MAX_DEVICES - 1; i >= 0; i--) {
		if (vatom_devices[i])
			vatom_device_destroy(vatom_devices[i]);
		vatom_devices[i] = NULL;
	}
}

static int __init vatom_init(void)
{
	struct vatom_device *vdev;
	unsigned int i;

	if (num_devices < 1 || num_devices > VATOM_MAX_DEVICES) {
		pr_err("vatom: num_devices must be 1..%d\n", VATOM_MAX_DEVICES);
		return -EINVAL;
	}
	vatom_limits_init();
	vatom_fault_init();

	for (i = 0; i < num_devices; i++) {
		vdev = vatom_device_create(i);
		if (IS_ERR(vdev)) {
			vatom_destroy_all();
			vatom_fault_exit();
			return PTR_ERR(vdev);
		}
		vatom_devices[i] = vdev;
	}
	return 0;
}

static void __exit vatom_exit(void)
{
	vatom_destroy_all();
	vatom_fault_exit();
}

module_init(vatom_init);
module_exit(vatom_exit);

MODULE_AUTHOR("The vatom developers");
MODULE_DESCRIPTION(DRIVER_DESC);
MODULE_LICENSE("Dual MIT/GPL");
MODULE_VERSION(VATOM_VERSION);
VATOM_IMPORT_NS_DMA_BUF;
