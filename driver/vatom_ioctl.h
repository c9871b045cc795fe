/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * vatom: the entry points &drm_driver names (vatom_drv.c), each defined in
 * the file of its concern.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_IOCTL_H_
#define _VATOM_IOCTL_H_

struct drm_device;
struct drm_file;
struct drm_minor;
struct drm_printer;
struct vatom_file;

/* vatom_surface_ioctl.c */
int vatom_ioctl_surface_create(struct drm_device *dev, void *data,
			       struct drm_file *file);
int vatom_ioctl_surface_mmap_offset(struct drm_device *dev, void *data,
				    struct drm_file *file);
int vatom_ioctl_surface_info(struct drm_device *dev, void *data,
			     struct drm_file *file);

/* vatom_param.c */
int vatom_ioctl_get_param(struct drm_device *dev, void *data,
			  struct drm_file *file);

/* vatom_submit.c */
int vatom_ioctl_submit(struct drm_device *dev, void *data,
		       struct drm_file *file);

/* vatom_noc.c */
int vatom_ioctl_noc_counters(struct drm_device *dev, void *data,
			     struct drm_file *file);

/* vatom_queue_ioctl.c */
int vatom_ioctl_queue_create(struct drm_device *dev, void *data,
			     struct drm_file *file);
int vatom_ioctl_queue_destroy(struct drm_device *dev, void *data,
			      struct drm_file *file);
int vatom_ioctl_queue_kick(struct drm_device *dev, void *data,
			   struct drm_file *file);
void vatom_file_queues_release(struct vatom_file *vfile);

/* vatom_reset.c */
int vatom_ioctl_reset_status(struct drm_device *dev, void *data,
			     struct drm_file *file);

/* vatom_fdinfo.c */
void vatom_show_fdinfo(struct drm_printer *p, struct drm_file *file);
u64 vatom_fdinfo_client_id(struct drm_file *file);

/* vatom_debugfs.c */
void vatom_debugfs_register(struct drm_device *dev);
void vatom_debugfs_init(struct drm_minor *minor);	/* before 6.3 */

#endif /* _VATOM_IOCTL_H_ */
