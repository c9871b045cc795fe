// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * vatom: a virtual atomic accelerator.
 *
 * Each device is a DRM render node on a platform device of its own, which
 * this module registers and its platform driver binds: surfaces are shmem
 * GEM objects, work is a command stream of ISA packets executed by the
 * engine in driver/engine/. Unbinding the driver (sysfs) takes the device
 * away under its clients, as a hot-unplug does; binding brings it back.
 *
 * Copyright (C) 2026 The vatom developers
 */

#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/mod_devicetable.h>
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

VATOM_DEFINE_FOPS(vatom_fops, vatom_show_fdinfo, vatom_fdinfo_client_id);

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
	VATOM_DRIVER_DEBUGFS_INIT(vatom_debugfs_init)
	VATOM_DRIVER_SHOW_FDINFO(vatom_show_fdinfo)

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

/* At the DRM device's release: every file, so every job, is gone. */
static void vatom_destroy_wq(struct drm_device *drm, void *unused)
{
	destroy_workqueue(to_vatom_device(drm)->wq);
}

/*
 * Live job fences per device index: a fence can outlive its device (it is
 * unbound while other drivers hold the fence), never the module.
 */
static atomic64_t vatom_live_fences[VATOM_MAX_DEVICES];

/* &platform_driver.probe: a DRM device on the platform device. */
static int vatom_probe(struct platform_device *pdev)
{
	unsigned int id = platform_get_device_id(pdev)->driver_data;
	struct vatom_device *vdev;
	int ret;

	/* PRIME import/export needs a DMA mask even on a virtual device. */
	ret = dma_coerce_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (ret)
		return ret;

	/* Put when the driver unbinds; freed with the last file. */
	vdev = devm_drm_dev_alloc(&pdev->dev, &vatom_driver, struct vatom_device, drm);
	if (IS_ERR(vdev))
		return PTR_ERR(vdev);
	vdev->platform = pdev;
	vdev->live_fences = &vatom_live_fences[id];

	vdev->pcpu = alloc_percpu(struct vatom_stats_pcpu);
	if (!vdev->pcpu)
		return -ENOMEM;
	ret = drmm_add_action_or_reset(&vdev->drm, vatom_free_pcpu, NULL);
	if (ret)
		return ret;

	/* Fences are signalled from it: a rescuer keeps it going under memory pressure. */
	vdev->wq = alloc_workqueue("vatom%u", WQ_UNBOUND | WQ_MEM_RECLAIM, 0, id);
	if (!vdev->wq)
		return -ENOMEM;
	ret = drmm_add_action_or_reset(&vdev->drm, vatom_destroy_wq, NULL);
	if (ret)
		return ret;

	vatom_debugfs_register(&vdev->drm);
	platform_set_drvdata(pdev, vdev);
	return drm_dev_register(&vdev->drm, 0);
}

/*
 * &platform_driver.remove: the device goes away under its open files, as
 * hardware that is unplugged does. drm_dev_unplug() makes every later
 * ioctl and mmap fail with -ENODEV and waits for the jobs executing to
 * stop (vatom_exec_run()); their mappings are zapped, so the next access
 * faults, and fails (vatom_gem.c); jobs not yet executed complete with
 * -ENODEV, those waiting for in-syncobjs at once. The files, their
 * surfaces and the DRM device live on until the last is closed.
 */
static void vatom_remove(struct platform_device *pdev)
{
	struct vatom_device *vdev = platform_get_drvdata(pdev);
	struct drm_device *drm = &vdev->drm;
	struct drm_file *file;

	drm_dev_unplug(drm);
	unmap_mapping_range(drm->anon_inode->i_mapping, 0, 0, 1);
	/* A file on the list has not reached postclose: its context lives. */
	mutex_lock(&drm->filelist_mutex);
	list_for_each_entry(file, &drm->filelist, lhead)
		vatom_file_jobs_stop_waiting(file->driver_priv);
	mutex_unlock(&drm->filelist_mutex);
}

VATOM_PLATFORM_REMOVE_SHIM(vatom_remove)

/*
 * The devices are named "vatom.N" (not DRIVER_NAME with id N): the same
 * device name, but a MODALIAS of its own ("platform:vatom.N"), which
 * libdrm's drmGetDevices2() takes as a platform device's bus info. With
 * one name for all, libdrm folds every vatom device into one. The table
 * matches each name, with its index.
 */
#define VATOM_ID(n)	{ DRIVER_NAME "." #n, n }
static const struct platform_device_id vatom_ids[] = {
	VATOM_ID(0), VATOM_ID(1), VATOM_ID(2), VATOM_ID(3),
	VATOM_ID(4), VATOM_ID(5), VATOM_ID(6), VATOM_ID(7),
	VATOM_ID(8), VATOM_ID(9), VATOM_ID(10), VATOM_ID(11),
	VATOM_ID(12), VATOM_ID(13), VATOM_ID(14), VATOM_ID(15),
	{ }
};

static_assert(ARRAY_SIZE(vatom_ids) == VATOM_MAX_DEVICES + 1);

static struct platform_driver vatom_platform_driver = {
	.probe		= vatom_probe,
	VATOM_PLATFORM_REMOVE(vatom_remove),
	.id_table	= vatom_ids,
	.driver		= {
		.name	= DRIVER_NAME,
	},
};

static struct platform_device *vatom_pdevs[VATOM_MAX_DEVICES];

static void vatom_destroy_all(void)
{
	int i;

	for (i = VATOM_MAX_DEVICES - 1; i >= 0; i--) {
		if (vatom_pdevs[i])
			platform_device_unregister(vatom_pdevs[i]);
		vatom_pdevs[i] = NULL;
	}
	platform_driver_unregister(&vatom_platform_driver);
	vatom_fault_exit();
}

static int __init vatom_init(void)
{
	struct platform_device *pdev;
	char name[PLATFORM_NAME_SIZE];
	unsigned int i;
	int ret;

	if (num_devices < 1 || num_devices > VATOM_MAX_DEVICES) {
		pr_err("vatom: num_devices must be 1..%d\n", VATOM_MAX_DEVICES);
		return -EINVAL;
	}
	vatom_limits_init();
	vatom_fault_init();
	ret = platform_driver_register(&vatom_platform_driver);
	if (ret) {
		vatom_fault_exit();
		return ret;
	}

	/* Each binds as it is added: probed synchronously. */
	for (i = 0; i < num_devices; i++) {
		snprintf(name, sizeof(name), DRIVER_NAME ".%u", i);
		pdev = platform_device_register_simple(name, PLATFORM_DEVID_NONE,
						       NULL, 0);
		if (IS_ERR(pdev)) {
			ret = PTR_ERR(pdev);
			goto fail;
		}
		vatom_pdevs[i] = pdev;
		if (!platform_get_drvdata(pdev)) {
			pr_err("vatom: %s did not bind\n", name);
			ret = -ENODEV;
			goto fail;
		}
	}
	return 0;

fail:
	vatom_destroy_all();
	return ret;
}

static void __exit vatom_exit(void)
{
	vatom_destroy_all();
}

module_init(vatom_init);
module_exit(vatom_exit);

MODULE_AUTHOR("The vatom developers");
MODULE_DESCRIPTION(DRIVER_DESC);
MODULE_LICENSE("Dual MIT/GPL");
MODULE_VERSION(VATOM_VERSION);
VATOM_IMPORT_NS_DMA_BUF;
