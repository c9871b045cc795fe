/* SPDX-License-Identifier: MIT */
/*
 * libvatom: userspace library for the vatom virtual atomic accelerator.
 *
 * Copyright (C) 2026 The vatom developers
 *
 * Conventions (the same everywhere in this header):
 *  - Functions that can fail return 0 (or a non-negative count/index) on
 *    success and a negative errno on failure. errno is never part of the
 *    interface: its value after a call is unspecified.
 *  - Objects are opaque and created by the library; a NULL object pointer
 *    passed to a destroy/close function is a no-op.
 *  - The library *encodes* instructions: it checks only what it must to build
 *    the packet bytes (lane counts, NULL arrays, field widths). Whether an
 *    encoding is valid for the ISA (operand types, V0 rules, mask ranges...)
 *    is decided by the kernel at submit time, which names the failing packet
 *    and the reason (vatom_batch_error(), vatom_strreason()).
 *  - A device and its surfaces may be used from several threads; a batch
 *    must be used by one thread at a time.
 *
 * See docs/libvatom.md for a tour with one example per ISA family.
 */
#ifndef _VATOM_H_
#define _VATOM_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <vatom/version.h>	/* VATOM_VERSION_* (generated) */
#include <vatom/vatom_drm.h>	/* copy of uapi/drm/vatom_drm.h */

#if defined(__cplusplus)
extern "C" {
#endif

#ifndef VATOM_API
#define VATOM_API __attribute__((visibility("default")))
#endif

/*
 * VATOM_CHECK_VERSION() - compile-time check: true when the header is at
 * least version major.minor.patch.
 */
#define VATOM_VERSION_CODE(major, minor, patch) \
	(((major) << 16) | ((minor) << 8) | (patch))
#define VATOM_VERSION_NUMBER \
	VATOM_VERSION_CODE(VATOM_VERSION_MAJOR, VATOM_VERSION_MINOR, \
			   VATOM_VERSION_PATCH)
#define VATOM_CHECK_VERSION(major, minor, patch) \
	(VATOM_VERSION_NUMBER >= VATOM_VERSION_CODE(major, minor, patch))

struct vatom_device;
struct vatom_surface;
struct vatom_batch;
struct vatom_fence;

/**
 * vatom_version() - version of the library actually loaded
 *
 * Return: VATOM_VERSION_CODE(major, minor, patch) of the running library
 * (compare with %VATOM_VERSION_NUMBER, the version compiled against).
 */
VATOM_API int vatom_version(void);

/**
 * vatom_version_string() - version of the loaded library as "major.minor.patch"
 *
 * Return: a static string.
 */
VATOM_API const char *vatom_version_string(void);

/* ------------------------------------------------------------------------ */
/* Devices                                                                   */
/* ------------------------------------------------------------------------ */

/**
 * vatom_device_count() - count the vatom devices of this system
 *
 * Devices are found through libdrm (drmGetDevices2(): every render node
 * whose driver name, from drmGetVersion(), is "vatom"); where libdrm lists
 * none (e.g. sysfs is missing) the render nodes in /dev/dri are probed
 * directly. Devices are numbered by render-node minor, from 0.
 *
 * Return: the number of devices (0 when there are none), or -ENOMEM.
 */
VATOM_API int vatom_device_count(void);

/**
 * vatom_device_open() - open the @index-th vatom device
 * @index: 0 for the first device (see vatom_device_count())
 * @flags: must be 0
 * @devp: out, the new device
 *
 * Opens the render node with O_RDWR | O_CLOEXEC and reads the device's
 * UAPI version, capabilities and limits (GET_PARAM) once.
 *
 * Return: 0; -EINVAL for non-zero @flags or a NULL @devp; -ENODEV when
 * there is no @index-th device; -ENOMEM; or the errno of open().
 */
VATOM_API int vatom_device_open(unsigned int index, unsigned int flags,
				struct vatom_device **devp);

/**
 * vatom_device_open_path() - open a given DRM node that must be a vatom device
 * @path: e.g. "/dev/dri/renderD129"
 * @flags: must be 0
 * @devp: out, the new device
 *
 * Return: 0; -EINVAL for non-zero @flags or NULL arguments; -ENODEV when
 * the node's driver is not "vatom"; -ENOMEM; or the errno of open().
 */
VATOM_API int vatom_device_open_path(const char *path, unsigned int flags,
				     struct vatom_device **devp);

/**
 * vatom_device_close() - close a device
 * @dev: the device, or NULL
 *
 * Every surface and batch of @dev must have been destroyed before.
 */
VATOM_API void vatom_device_close(struct vatom_device *dev);

/**
 * vatom_device_fd() - the DRM file descriptor of a device
 * @dev: the device
 *
 * For use with libdrm (syncobjs, PRIME); the library keeps ownership.
 *
 * Return: the fd.
 */
VATOM_API int vatom_device_fd(const struct vatom_device *dev);

/**
 * vatom_device_node() - the path of the device's render node
 * @dev: the device
 *
 * Return: a string owned by @dev.
 */
VATOM_API const char *vatom_device_node(const struct vatom_device *dev);

/**
 * vatom_device_get_param() - query a device parameter (GET_PARAM)
 * @dev: the device
 * @param: a DRM_VATOM_PARAM_* value
 * @index: sub-index for indexed parameters (DRM_VATOM_PARAM_VISA_OPS...), else 0
 * @value: out, the value
 *
 * Return: 0; -EINVAL for an unknown @param or a bad @index; -EFAULT.
 */
VATOM_API int vatom_device_get_param(struct vatom_device *dev, uint32_t param,
				     uint32_t index, uint64_t *value);

/**
 * vatom_device_caps() - the device's DRM_VATOM_CAP_* bits (read at open)
 * @dev: the device
 *
 * Return: the capability mask.
 */
VATOM_API uint64_t vatom_device_caps(const struct vatom_device *dev);

/**
 * vatom_device_uapi_version() - the kernel's DRM_VATOM_UAPI_VERSION (read at open)
 * @dev: the device
 *
 * Return: the version (the library was built against %DRM_VATOM_UAPI_VERSION).
 */
VATOM_API uint32_t vatom_device_uapi_version(const struct vatom_device *dev);

/* ------------------------------------------------------------------------ */
/* Surfaces                                                                  */
/* ------------------------------------------------------------------------ */

/**
 * struct vatom_surface_info - what SURFACE_INFO reports about a surface
 * @kind: DRM_VATOM_SURFACE_*
 * @handle: GEM handle on the device's fd
 * @size: addressable bytes
 * @mmap_size: bytes of a mapping (page-rounded)
 */
struct vatom_surface_info {
	uint32_t kind;
	uint32_t handle;
	uint64_t size;
	uint64_t mmap_size;
};

/**
 * vatom_surface_create_buffer() - create a linear buffer surface
 * @dev: the device
 * @size: bytes, >= 1; the memory starts zeroed
 * @flags: must be 0
 * @sp: out, the new surface
 *
 * Return: 0; -EINVAL for size 0, non-zero @flags or NULL arguments; -E2BIG
 * past %DRM_VATOM_PARAM_MAX_SURFACE_SIZE; -ENOMEM.
 */
VATOM_API int vatom_surface_create_buffer(struct vatom_device *dev,
					  uint64_t size, unsigned int flags,
					  struct vatom_surface **sp);

/**
 * vatom_surface_create_typed() - create a typed surface for TYPED_ATOMIC
 * @dev: the device
 * @desc: the shape (dimensionality, format, extent, mip levels)
 * @sp: out, the new surface
 *
 * Return: 0; -EINVAL for a malformed @desc; -E2BIG; -EOPNOTSUPP when the
 * device has no typed surfaces; -ENOMEM.
 */
VATOM_API int vatom_surface_create_typed(struct vatom_device *dev,
					 const struct drm_vatom_typed_desc *desc,
					 struct vatom_surface **sp);

/**
 * vatom_surface_create_tile_grid() - create a NoC tile grid
 * @dev: the device
 * @desc: the grid (profile, extent, per-type L1 sizes, tile types)
 * @sp: out, the new surface
 *
 * Return: 0; -EINVAL for a malformed @desc; -E2BIG; -EOPNOTSUPP when the
 * device has no tile grids; -ENOMEM.
 */
VATOM_API int vatom_surface_create_tile_grid(struct vatom_device *dev,
					     const struct drm_vatom_tile_grid_desc *desc,
					     struct vatom_surface **sp);

/**
 * vatom_surface_map() - map a surface into this process (read/write, shared)
 * @s: the surface
 * @ptr: out, the address of byte 0
 *
 * The mapping is made once (SURFACE_MMAP_OFFSET + mmap on the device fd)
 * and cached until vatom_surface_destroy(); later calls return the same
 * address. CPU atomics on the mapping are atomic with respect to the
 * device's operations.
 *
 * Return: 0; -ENOENT if the handle is gone; -ENOMEM; or the errno of mmap().
 */
VATOM_API int vatom_surface_map(struct vatom_surface *s, void **ptr);

/**
 * vatom_surface_info() - ask the kernel to describe a surface (SURFACE_INFO)
 * @s: the surface
 * @info: out
 *
 * Return: 0; -ENOENT if the handle is gone.
 */
VATOM_API int vatom_surface_info(struct vatom_surface *s,
				 struct vatom_surface_info *info);

/**
 * vatom_surface_handle() - the surface's GEM handle (for binding tables, libdrm)
 * @s: the surface
 *
 * Return: the handle.
 */
VATOM_API uint32_t vatom_surface_handle(const struct vatom_surface *s);

/**
 * vatom_surface_size() - the surface's addressable size in bytes
 * @s: the surface
 *
 * Return: the size.
 */
VATOM_API uint64_t vatom_surface_size(const struct vatom_surface *s);

/**
 * vatom_surface_export() - export a surface as a dma-buf
 * @s: the surface
 * @fd: out, a new dma-buf fd (DRM_CLOEXEC | DRM_RDWR); the caller closes it
 *
 * Return: 0; -ENOENT; -EMFILE; -ENOMEM; or the errno of the PRIME ioctl.
 */
VATOM_API int vatom_surface_export(struct vatom_surface *s, int *fd);

/**
 * vatom_surface_import() - import a dma-buf (from any exporter) as a surface
 * @dev: the device
 * @fd: the dma-buf fd; it stays owned by the caller
 * @sp: out, the surface
 *
 * Importing a buffer that is already a surface of @dev (e.g. one that @dev
 * exported) returns that same surface object with one more reference: every
 * successful import is balanced by one vatom_surface_destroy().
 *
 * Return: 0; -EINVAL for NULL arguments; -EBADF; -ENOMEM; or the errno of
 * the PRIME ioctl.
 */
VATOM_API int vatom_surface_import(struct vatom_device *dev, int fd,
				   struct vatom_surface **sp);

/**
 * vatom_surface_destroy() - drop a reference to a surface
 * @s: the surface, or NULL
 *
 * The last reference unmaps the surface and closes its GEM handle. The
 * surface must not be bound in a batch that is submitted afterwards.
 */
VATOM_API void vatom_surface_destroy(struct vatom_surface *s);

/* ------------------------------------------------------------------------ */
/* Batches                                                                   */
/* ------------------------------------------------------------------------ */

/*
 * A batch is a command stream under construction plus its binding table
 * (slot -> surface). Each vatom_prep_*() appends one packet and returns its
 * index in the stream, which is also the *result handle* of that packet:
 * after a successful submission, vatom_result_*(batch, res, ...) read the
 * values the packet returned, wherever the UAPI's layout rules put them
 * (regions in packet order, each rounded up to 8 bytes).
 */

/**
 * vatom_batch_create() - create an empty batch
 * @dev: the device the batch will be submitted to; NULL builds streams
 *	offline (submission then fails with -ENODEV)
 * @capacity: initial stream capacity in bytes (0: 4096); it grows on demand
 * @bp: out, the new batch
 *
 * Return: 0; -EINVAL for a NULL @bp; -ENOMEM.
 */
VATOM_API int vatom_batch_create(struct vatom_device *dev, size_t capacity,
				 struct vatom_batch **bp);

/**
 * vatom_batch_destroy() - free a batch
 * @b: the batch, or NULL
 */
VATOM_API void vatom_batch_destroy(struct vatom_batch *b);

/**
 * vatom_batch_reserve() - make room for @bytes more stream bytes
 * @b: the batch
 * @bytes: bytes of packets about to be added
 *
 * Optional: the prep functions grow the stream themselves.
 *
 * Return: 0; -E2BIG past the device's %DRM_VATOM_PARAM_MAX_STREAM_SIZE;
 * -ENOMEM.
 */
VATOM_API int vatom_batch_reserve(struct vatom_batch *b, size_t bytes);

/**
 * vatom_batch_reset() - empty a batch for reuse
 * @b: the batch
 *
 * Drops every packet, result and error; keeps the bindings and the
 * allocated memory. A batch may also be submitted again unchanged.
 */
VATOM_API void vatom_batch_reset(struct vatom_batch *b);

/**
 * vatom_batch_bind() - bind a surface to a slot of the binding table
 * @b: the batch
 * @slot: 0 .. %DRM_VATOM_MAX_SLOTS - 1 (%VATOM_T0, %VATOM_T255 for vISA)
 * @s: the surface, or NULL to unbind the slot
 *
 * A surface may be bound to several slots. Binding is by reference: the
 * surface must stay alive while the batch is submitted.
 *
 * Return: 0; -EINVAL for a slot out of range; -EXDEV for a surface of
 * another device.
 */
VATOM_API int vatom_batch_bind(struct vatom_batch *b, unsigned int slot,
			       struct vatom_surface *s);

/**
 * vatom_batch_packets() - number of packets in the batch
 * @b: the batch
 *
 * Return: the count.
 */
VATOM_API int vatom_batch_packets(const struct vatom_batch *b);

/**
 * vatom_batch_stream() - the encoded command stream
 * @b: the batch
 * @size: out (optional), bytes of the stream
 *
 * Return: the packets as they will be submitted (valid until the batch
 * changes).
 */
VATOM_API const void *vatom_batch_stream(const struct vatom_batch *b,
					 size_t *size);

/**
 * vatom_batch_packet() - one encoded packet
 * @b: the batch
 * @res: the packet's index (result handle)
 * @size: out (optional), the packet's size in bytes
 *
 * Return: the packet (starting with struct drm_vatom_packet), or NULL
 * for an index out of range.
 */
VATOM_API const void *vatom_batch_packet(const struct vatom_batch *b, int res,
					 size_t *size);

/**
 * vatom_batch_results_size() - bytes of results the stream produces
 * @b: the batch
 *
 * Computed by the library from the UAPI rules; the kernel's own count
 * (results_needed) must agree, or the submission reports -EPROTO.
 *
 * Return: the size in bytes.
 */
VATOM_API uint64_t vatom_batch_results_size(const struct vatom_batch *b);

/**
 * vatom_batch_submit() - validate and execute the batch, synchronously
 * @b: the batch
 *
 * Results land in a buffer owned by the batch (zero-filled first, so a
 * disabled lane reads as 0) and are read with vatom_result_*() until the
 * batch changes or is submitted again.
 *
 * Return: 0; -ENODEV for an offline batch; -EINVAL for a rejected stream
 * (vatom_batch_error() names the packet and reason; nothing was executed);
 * -EOPNOTSUPP for a valid encoding the device does not implement (also
 * with a packet and reason); -ENOENT for a destroyed surface; -E2BIG past
 * the device's limits; -ENOMEM; -EPROTO when the kernel's result size
 * disagrees with the library's (results are then unavailable).
 */
VATOM_API int vatom_batch_submit(struct vatom_batch *b);

/**
 * vatom_batch_validate() - have the kernel check the batch, executing nothing
 * @b: the batch, its surfaces bound
 *
 * The submission vatom_batch_submit() would make, with
 * %DRM_VATOM_SUBMIT_VALIDATE_ONLY: every packet, the stream's cost, the
 * bindings and the result destination are checked as they would be, and
 * nothing executes or changes. vatom_batch_error() then names the first
 * failing packet and the reason, as after a rejected submission; there are
 * no results to read.
 *
 * Return: 0 when the batch would be accepted; the negative errno the
 * submission would return (-EINVAL with a packet and reason, -E2BIG past the
 * cost limit, ...); -EINVAL from a kernel without
 * %DRM_VATOM_CAP_VALIDATE_ONLY (it rejects the flag).
 */
VATOM_API int vatom_batch_validate(struct vatom_batch *b);

/**
 * vatom_batch_submit_to() - like vatom_batch_submit(), results into a surface
 * @b: the batch
 * @results: a buffer surface of the same device (needs
 *	%DRM_VATOM_CAP_RESULT_SURFACE)
 * @offset: byte offset of the first result in @results
 *
 * The results are read with vatom_result_*() through the surface's
 * mapping (so the surface must outlive those reads), or by anyone the
 * surface is shared with. The surface is not cleared first: disabled lanes
 * keep what the surface held. @offset must be a multiple of 8.
 *
 * Return: as vatom_batch_submit(); -EXDEV for a surface of another device.
 */
VATOM_API int vatom_batch_submit_to(struct vatom_batch *b,
				    struct vatom_surface *results,
				    uint64_t offset);

/**
 * vatom_batch_error() - outcome of the last submission
 * @b: the batch
 * @index: out (optional), index of the packet the kernel rejected
 * @reason: out (optional), DRM_VATOM_ERR_* (DRM_VATOM_ERR_NONE on success)
 *
 * Return: the last submission's return value (0 when none was made).
 */
VATOM_API int vatom_batch_error(const struct vatom_batch *b, uint32_t *index,
				uint32_t *reason);

/**
 * vatom_batch_results() - the raw result bytes of the last submission
 * @b: the batch
 * @size: out (optional), bytes of results
 *
 * Return: the results, or NULL when there are none available.
 */
VATOM_API const void *vatom_batch_results(const struct vatom_batch *b,
					  size_t *size);

/* ------------------------------------------------------------------------ */
/* Asynchronous submission and fences                                        */
/* ------------------------------------------------------------------------ */

/*
 * Every submission on a device (an open render node: one context) is a job;
 * jobs of one device execute in submission order, synchronous and
 * asynchronous alike, so vatom_batch_submit() after vatom_submit_async()
 * sees its effects. A job can also wait for fences: of jobs of this or
 * another vatom device, or of any driver, imported from a sync_file.
 * docs/async.md has the whole model.
 */

/* In-fences one vatom_submit_async() takes at most (the kernel's MAX_SYNCS). */
#define VATOM_MAX_IN_FENCES	64

/**
 * vatom_submit_async() - queue the batch for execution and return at once
 * @b: the batch
 * @results: a buffer surface of the same device receiving the results at
 *	@offset (a multiple of 8), or NULL when the batch returns none
 * @offset: byte offset of the results in @results
 * @in_fences: fences the job waits for (of the same device; import others
 *	with vatom_fence_import_sync_file()), or NULL
 * @in_count: entries at @in_fences, at most %VATOM_MAX_IN_FENCES
 * @out_fence: out (optional), a new fence that signals when the job has
 *	completed; destroy it with vatom_fence_destroy()
 *
 * The kernel copies and validates the whole stream before returning, so a
 * malformed batch is reported here (vatom_batch_error()) and the batch can
 * be changed, reset or submitted again while the job is in flight. The
 * vatom_result_*() accessors read the results through @results' mapping:
 * only once the fence has signalled. The bound surfaces are referenced by
 * the job: destroying them meanwhile is safe.
 *
 * A job whose in-fence fails does not execute, and its fence carries that
 * error; so does a job still waiting for an in-fence when the device is
 * closed (-ECANCELED).
 *
 * Return: 0; -EINVAL (also for results without @results, see
 * vatom_batch_submit()); -EXDEV for a surface or fence of another device;
 * -E2BIG; -EBUSY when the device already has %DRM_VATOM_PARAM_MAX_JOBS
 * jobs in flight (wait for one and retry); -ENOSPC past the per-file
 * memory cap; -ENOENT; -ENOMEM; -ENODEV for an offline batch.
 */
VATOM_API int vatom_submit_async(struct vatom_batch *b,
				 struct vatom_surface *results, uint64_t offset,
				 struct vatom_fence *const *in_fences,
				 unsigned int in_count,
				 struct vatom_fence **out_fence);

/**
 * vatom_fence_wait() - wait until a fence signals or a deadline passes
 * @f: the fence
 * @abs_timeout_ns: absolute CLOCK_MONOTONIC deadline in nanoseconds (0 or
 *	any past time: just poll; INT64_MAX: no deadline)
 *
 * The wait is restarted after a signal handler runs; the deadline stays.
 *
 * Return: 0 when the job completed; -ETIME when the deadline passed first;
 * the job's error when it did not execute (-ECANCELED, or the error of the
 * fence it waited for); -EINVAL for a NULL @f.
 */
VATOM_API int vatom_fence_wait(struct vatom_fence *f, int64_t abs_timeout_ns);

/**
 * vatom_fence_status() - look at a fence without waiting
 * @f: the fence
 *
 * Return: 1 signalled and successful; 0 still pending; the job's negative
 * error (e.g. -ECANCELED) when it signalled with one.
 */
VATOM_API int vatom_fence_status(struct vatom_fence *f);

/**
 * vatom_fence_export_sync_file() - the fence as a sync_file
 * @f: the fence
 * @fd: out, a new sync_file fd (the caller closes it)
 *
 * For other drivers and APIs (EGL/Vulkan sync fds, poll(), another vatom
 * device). SYNC_IOC_FILE_INFO on it reports the job's status.
 *
 * Return: 0; -EINVAL; -EMFILE; -ENOMEM.
 */
VATOM_API int vatom_fence_export_sync_file(struct vatom_fence *f, int *fd);

/**
 * vatom_fence_import_sync_file() - a fence of @dev from a sync_file
 * @dev: the device whose jobs will wait for it
 * @fd: a sync_file fd from any driver; it stays the caller's
 * @fp: out, the new fence (vatom_fence_destroy() it)
 *
 * Return: 0; -EINVAL for a bad @fd or NULL arguments; -ENOMEM.
 */
VATOM_API int vatom_fence_import_sync_file(struct vatom_device *dev, int fd,
					   struct vatom_fence **fp);

/**
 * vatom_fence_syncobj() - the binary DRM syncobj behind a fence
 * @f: the fence
 *
 * A handle on vatom_device_fd(), owned by @f, for libdrm (drmSyncobj*) or
 * raw submissions.
 *
 * Return: the handle.
 */
VATOM_API uint32_t vatom_fence_syncobj(const struct vatom_fence *f);

/**
 * vatom_fence_destroy() - release a fence
 * @f: the fence, or NULL
 *
 * The job itself is not affected: it completes whether or not anyone
 * holds its fence.
 */
VATOM_API void vatom_fence_destroy(struct vatom_fence *f);

/* ------------------------------------------------------------------------ */
/* Intel vISA: DWORD_ATOMIC, TYPED_ATOMIC, ADDC                             */
/* ------------------------------------------------------------------------ */

/* vISA surface indices of the two predefined surfaces (binding slots). */
enum {
	VATOM_T0 = 0,		/* T0: shared local memory */
	VATOM_T255 = 5,		/* T255: stateless */
};

/* The Op of DWORD_ATOMIC / TYPED_ATOMIC (bits 4..0 of the Op byte). */
enum vatom_visa_op {
	VATOM_VISA_ADD = DRM_VATOM_VISA_OP_ADD,
	VATOM_VISA_SUB = DRM_VATOM_VISA_OP_SUB,
	VATOM_VISA_INC = DRM_VATOM_VISA_OP_INC,
	VATOM_VISA_DEC = DRM_VATOM_VISA_OP_DEC,
	VATOM_VISA_MIN = DRM_VATOM_VISA_OP_MIN,
	VATOM_VISA_MAX = DRM_VATOM_VISA_OP_MAX,
	VATOM_VISA_XCHG = DRM_VATOM_VISA_OP_XCHG,
	VATOM_VISA_CMPXCHG = DRM_VATOM_VISA_OP_CMPXCHG,
	VATOM_VISA_AND = DRM_VATOM_VISA_OP_AND,
	VATOM_VISA_OR = DRM_VATOM_VISA_OP_OR,
	VATOM_VISA_XOR = DRM_VATOM_VISA_OP_XOR,
	VATOM_VISA_IMIN = DRM_VATOM_VISA_OP_IMIN,
	VATOM_VISA_IMAX = DRM_VATOM_VISA_OP_IMAX,
	VATOM_VISA_PREDEC = DRM_VATOM_VISA_OP_PREDEC,
	VATOM_VISA_FMAX = DRM_VATOM_VISA_OP_FMAX,
	VATOM_VISA_FMIN = DRM_VATOM_VISA_OP_FMIN,
	VATOM_VISA_FCMPWR = DRM_VATOM_VISA_OP_FCMPWR,
};

/*
 * Mask control (bits 7..4 of the Exec_size byte): M1..M8 select channel
 * offset 4 * (n - 1) into the execution mask; _NM ignores the mask.
 */
enum vatom_mask_ctrl {
	VATOM_M1 = 0, VATOM_M2, VATOM_M3, VATOM_M4,
	VATOM_M5, VATOM_M6, VATOM_M7, VATOM_M8,
	VATOM_NM = DRM_VATOM_VISA_EXEC_NM,
	VATOM_M1_NM = VATOM_NM | VATOM_M1, VATOM_M2_NM = VATOM_NM | VATOM_M2,
	VATOM_M3_NM = VATOM_NM | VATOM_M3, VATOM_M4_NM = VATOM_NM | VATOM_M4,
	VATOM_M5_NM = VATOM_NM | VATOM_M5, VATOM_M6_NM = VATOM_NM | VATOM_M6,
	VATOM_M7_NM = VATOM_NM | VATOM_M7, VATOM_M8_NM = VATOM_NM | VATOM_M8,
};

/**
 * struct vatom_visa_exec - execution controls of one vISA instruction
 * @size: Exec_size in lanes: 1, 2, 4, 8, 16 (32 for ADDC only)
 * @mask_ctrl: enum vatom_mask_ctrl
 * @emask: the 32-bit SIMD execution mask
 * @predicated: the instruction has a predicate, given by @pred
 * @pred: predicate lane mask (bit i enables lane i)
 *
 * Lane i runs when (@mask_ctrl has _NM or bit 4 * M + i of @emask is set)
 * and (not @predicated or bit i of @pred is set).
 */
struct vatom_visa_exec {
	unsigned int size;
	unsigned int mask_ctrl;
	uint32_t emask;
	bool predicated;
	uint32_t pred;
};

/* All lanes of an n-wide instruction, M1, no predicate. */
#define VATOM_VISA_EXEC(n) \
	((struct vatom_visa_exec){ .size = (n), .mask_ctrl = VATOM_M1, \
				   .emask = 0xffffffffu })

/* Flags of vatom_prep_dword_atomic*() and vatom_prep_typed_atomic(). */
#define VATOM_VISA_DST		(1u << 0)	/* return values (Dst is not V0) */
#define VATOM_VISA_16		(1u << 1)	/* the .16 form (Op bit 5) */
/*
 * Data type override, DRM_VATOM_VISA_TYPE_*. Without it the type follows
 * the ISA's notes: D for IMIN/IMAX, F for FMAX/FMIN/FCMPWR, UD otherwise
 * (Q, UQ for the 64-bit form).
 */
#define VATOM_VISA_TYPE(t)	((((unsigned int)(t)) + 1) << 8)

/*
 * The 16-bit types of the DWORD_ATOMIC op table, as flags: the .16 form
 * with the 32-bit type its Notes say the operands keep (since 0.3).
 */
#define VATOM_VISA_UW	(VATOM_VISA_16 | VATOM_VISA_TYPE(DRM_VATOM_VISA_TYPE_UD))
#define VATOM_VISA_W	(VATOM_VISA_16 | VATOM_VISA_TYPE(DRM_VATOM_VISA_TYPE_D))
#define VATOM_VISA_HF	(VATOM_VISA_16 | VATOM_VISA_TYPE(DRM_VATOM_VISA_TYPE_F))

/**
 * vatom_visa_exec_lanes() - execution controls for any lane count
 * @ex: out, the controls (no predicate)
 * @lanes: 1 .. 32 lanes that should run
 * @mask_ctrl: enum vatom_mask_ctrl (M1..M8, with or without _NM)
 *
 * The Exec_size is @lanes rounded up to a power of two; when that adds
 * lanes, the execution mask enables lanes 0 .. @lanes - 1 only (bits
 * 4 * M .. 4 * M + @lanes - 1), which is why a partial count cannot be
 * combined with _NM. A full count gives the all-ones mask of
 * VATOM_VISA_EXEC(). Whether the device accepts the mask window (4 * M +
 * size <= 32) is the kernel's decision.
 *
 * Return: 0; -EINVAL for a NULL @ex, 0 or more than 32 lanes, a mask
 * control above 15 or a partial lane count with _NM.
 */
VATOM_API int vatom_visa_exec_lanes(struct vatom_visa_exec *ex,
				    unsigned int lanes, unsigned int mask_ctrl);

/**
 * vatom_prep_dword_atomic() - append DWORD_ATOMIC (32-bit and .16 data)
 * @b: the batch
 * @ex: execution controls
 * @op: enum vatom_visa_op
 * @flags: VATOM_VISA_DST, VATOM_VISA_16, VATOM_VISA_TYPE()
 * @surface: binding slot (%VATOM_T0, %VATOM_T255 or any bound slot)
 * @offsets: Element_offset, in bytes, @ex->size entries
 * @src0: @ex->size entries, or NULL for V0 (.16: low 16 bits used)
 * @src1: @ex->size entries, or NULL for V0
 *
 * Text form: [(P)] DWORD_ATOMIC.<op>[.16] (<M>, <size>) <surface>
 * <offsets> <src0> <src1> <dst>. With VATOM_VISA_DST the packet returns
 * one 32-bit element per lane (the old value; PREDEC: the new one; 0 for
 * an out-of-bounds read): vatom_result_u32(b, res, lane).
 *
 * Return: the result handle (packet index, >= 0); -EINVAL for a lane
 * count that is not 1, 2, 4, 8 or 16, a mask control above 15, an op
 * above 31, a slot above 255, unknown flags or NULL @offsets; -E2BIG;
 * -ENOMEM.
 */
VATOM_API int vatom_prep_dword_atomic(struct vatom_batch *b,
				      const struct vatom_visa_exec *ex,
				      enum vatom_visa_op op, unsigned int flags,
				      unsigned int surface, const uint32_t *offsets,
				      const uint32_t *src0, const uint32_t *src1);

/**
 * vatom_prep_dword_atomic64() - append DWORD_ATOMIC on 64-bit data (UQ/Q)
 * @b: the batch
 * @ex: execution controls
 * @op: enum vatom_visa_op
 * @flags: VATOM_VISA_DST, VATOM_VISA_TYPE()
 * @surface: binding slot
 * @offsets: Element_offset, in bytes, @ex->size entries
 * @src0: @ex->size entries, or NULL for V0
 * @src1: @ex->size entries, or NULL for V0
 *
 * Results: one 64-bit element per lane, vatom_result_u64(b, res, lane).
 *
 * Return: as vatom_prep_dword_atomic() (VATOM_VISA_16 is -EINVAL).
 */
VATOM_API int vatom_prep_dword_atomic64(struct vatom_batch *b,
					const struct vatom_visa_exec *ex,
					enum vatom_visa_op op, unsigned int flags,
					unsigned int surface, const uint32_t *offsets,
					const uint64_t *src0, const uint64_t *src1);

/**
 * vatom_prep_typed_atomic() - append TYPED_ATOMIC
 * @b: the batch
 * @ex: execution controls
 * @op: enum vatom_visa_op
 * @flags: VATOM_VISA_DST, VATOM_VISA_16, VATOM_VISA_TYPE()
 * @surface: binding slot of a typed surface
 * @u: U (X) coordinates, @ex->size entries; required
 * @v: V (Y or array index), or NULL for V0
 * @r: R (Z or array index), or NULL for V0
 * @lod: LOD, or NULL for V0
 * @src0: @ex->size entries, or NULL for V0
 * @src1: @ex->size entries, or NULL for V0
 *
 * Results: one 32-bit element per lane, vatom_result_u32(b, res, lane).
 *
 * Return: as vatom_prep_dword_atomic() (NULL @u is -EINVAL).
 */
VATOM_API int vatom_prep_typed_atomic(struct vatom_batch *b,
				      const struct vatom_visa_exec *ex,
				      enum vatom_visa_op op, unsigned int flags,
				      unsigned int surface, const uint32_t *u,
				      const uint32_t *v, const uint32_t *r,
				      const uint32_t *lod, const uint32_t *src0,
				      const uint32_t *src1);

/* Flags of vatom_prep_addc(). */
#define VATOM_ADDC_SRC0_IMM	(1u << 0)	/* src0 points to one immediate */
#define VATOM_ADDC_SRC1_IMM	(1u << 1)	/* src1 points to one immediate */

/**
 * vatom_prep_addc() - append ADDC: dst = src0 + src1, carry = carry-out
 * @b: the batch
 * @ex: execution controls (size up to 32)
 * @flags: VATOM_ADDC_SRC0_IMM, VATOM_ADDC_SRC1_IMM
 * @src0: @ex->size UD values, or one with VATOM_ADDC_SRC0_IMM
 * @src1: @ex->size UD values, or one with VATOM_ADDC_SRC1_IMM
 *
 * Results: vatom_result_addc_dst(b, res, lane) and
 * vatom_result_addc_carry(b, res, lane).
 *
 * Return: the result handle; -EINVAL for a bad lane count or mask control,
 * unknown flags or a NULL source; -E2BIG; -ENOMEM.
 */
VATOM_API int vatom_prep_addc(struct vatom_batch *b,
			      const struct vatom_visa_exec *ex,
			      unsigned int flags, const uint32_t *src0,
			      const uint32_t *src1);

/* ------------------------------------------------------------------------ */
/* NVIDIA PTX atom                                                           */
/* ------------------------------------------------------------------------ */

/**
 * union vatom_ptx_value - a PTX operand of up to 128 bits
 *
 * Scalars, packed and vector values little-endian, element 0 first:
 * .u16[i] for f16/bf16 elements, .u32[i] for 32-bit ones, .u64[i] for
 * 64-bit ones, .u64[0..1] for b128.
 */
union vatom_ptx_value {
	/** @u16: 16-bit elements (f16, bf16, b16) */
	uint16_t u16[8];
	/** @u32: 32-bit elements (and packed x2 values) */
	uint32_t u32[4];
	/** @u64: 64-bit elements; b128 is u64[0] (low) and u64[1] */
	uint64_t u64[2];
};

/**
 * struct vatom_ptx_atom - one atom{.sem}{.scope}{.space}.op{.noftz}
 * {.L2::cache_hint}{.vec}.type d, [a], b{, c}{, cache-policy}
 * @op: DRM_VATOM_PTX_OP_*
 * @type: DRM_VATOM_PTX_TYPE_*
 * @vec: 0 (scalar), 2, 4 or 8
 * @space: DRM_VATOM_PTX_SPACE_* (0: generic, resolves to .global)
 * @sem: DRM_VATOM_PTX_SEM_* (0: .relaxed)
 * @scope: DRM_VATOM_PTX_SCOPE_* (0: .gpu)
 * @flags: DRM_VATOM_PTX_NOFTZ, DRM_VATOM_PTX_CACHE_HINT
 * @slot: binding slot of the surface holding a
 * @addr: byte offset of a in that surface
 * @cache_policy: the cache-policy operand (with DRM_VATOM_PTX_CACHE_HINT)
 * @b: operand b
 * @c: operand c (cas only)
 */
struct vatom_ptx_atom {
	uint8_t op;
	uint8_t type;
	uint8_t vec;
	uint8_t space;
	uint8_t sem;
	uint8_t scope;
	uint8_t slot;
	uint32_t flags;
	uint64_t addr;
	uint64_t cache_policy;
	union vatom_ptx_value b;
	union vatom_ptx_value c;
};

/**
 * vatom_ptx_access_size() - bytes accessed by an atom of @type and @vec
 * @type: DRM_VATOM_PTX_TYPE_*
 * @vec: 0, 2, 4 or 8
 *
 * Return: the size (2 .. 16); -EINVAL for an unknown type or vector
 * length, or an access wider than 128 bits.
 */
VATOM_API int vatom_ptx_access_size(unsigned int type, unsigned int vec);

/**
 * vatom_prep_ptx_atom() - append one PTX atom
 * @b: the batch
 * @a: the instruction
 *
 * Results: the old value(s) of a, vatom_ptx_access_size() bytes: read
 * them with vatom_result_u16/u32/u64(b, res, element) or
 * vatom_result_bytes().
 *
 * Return: the result handle; -EINVAL for a NULL @a or an access size the
 * library cannot compute; -E2BIG; -ENOMEM.
 */
VATOM_API int vatom_prep_ptx_atom(struct vatom_batch *b,
				  const struct vatom_ptx_atom *a);

/* ------------------------------------------------------------------------ */
/* Tenstorrent NoC atomics                                                   */
/* ------------------------------------------------------------------------ */

/**
 * struct vatom_noc_req - one NoC atomic request: the initiator's register
 * image, exactly as software writes it to the NIU
 * @slot: binding slot of the tile grid
 * @noc: NoC 0 or 1
 * @x: initiator tile X
 * @y: initiator tile Y
 * @targ_addr_lo: NOC_TARG_ADDR_LO
 * @targ_addr_mid: NOC_TARG_ADDR_MID
 * @targ_addr_hi: NOC_TARG_ADDR_HI (Blackhole; 0 on Wormhole)
 * @ret_addr_lo: NOC_RET_ADDR_LO
 * @ret_addr_mid: NOC_RET_ADDR_MID
 * @ret_addr_hi: NOC_RET_ADDR_HI (Blackhole; 0 on Wormhole)
 * @packet_tag: NOC_PACKET_TAG
 * @ctrl: NOC_CTRL
 * @at_len_be: NOC_AT_LEN_BE, e.g. from vatom_noc_at_cas()
 * @at_data: NOC_AT_DATA
 */
struct vatom_noc_req {
	uint8_t slot;
	uint8_t noc;
	uint8_t x;
	uint8_t y;
	uint32_t targ_addr_lo;
	uint32_t targ_addr_mid;
	uint32_t targ_addr_hi;
	uint32_t ret_addr_lo;
	uint32_t ret_addr_mid;
	uint32_t ret_addr_hi;
	uint32_t packet_tag;
	uint32_t ctrl;
	uint32_t at_len_be;
	uint32_t at_data;
};

/**
 * vatom_prep_noc() - append one NoC atomic request
 * @b: the batch
 * @req: the register image
 *
 * NoC requests return nothing in the result destination: responses land
 * in the return tile's L1 and NIU counters.
 *
 * Return: the packet index; -EINVAL for a NULL @req; -E2BIG; -ENOMEM.
 */
VATOM_API int vatom_prep_noc(struct vatom_batch *b,
			     const struct vatom_noc_req *req);

/*
 * NOC_AT_LEN_BE builders, one per documented variant. Each returns the
 * register value, or 0 when an argument does not fit its field: 0 is the
 * reserved opcode 0, which the kernel rejects, so a bad argument surfaces
 * as a rejected packet rather than as a silently truncated field.
 */

/**
 * vatom_noc_at_increment() - NOC_AT_LEN_BE of an atomic increment
 * @ofs: the word (0..3) of the 16 bytes at the target address
 * @int_width: 0..31: increment within the low @int_width + 1 bits
 *
 * Return: the register value (opcode 1), or 0 for an argument out of range.
 */
VATOM_API uint32_t vatom_noc_at_increment(unsigned int ofs,
					  unsigned int int_width);

/**
 * vatom_noc_at_cas() - NOC_AT_LEN_BE of an atomic compare and swap
 * @ofs: the word (0..3)
 * @cmp: the 4-bit value compared with the word
 * @set: the 4-bit value stored when they are equal
 *
 * Return: the register value (opcode 4), or 0 for an argument out of range.
 */
VATOM_API uint32_t vatom_noc_at_cas(unsigned int ofs, unsigned int cmp,
				    unsigned int set);

/**
 * vatom_noc_at_swap_mask() - NOC_AT_LEN_BE of a swap, mask variant
 * @mask: 8 bits: half word i of the 16 bytes receives half (i & 1) of
 *	NOC_AT_DATA when bit i is set
 *
 * Return: the register value (opcode 3), or 0 for a mask above 0xff.
 */
VATOM_API uint32_t vatom_noc_at_swap_mask(unsigned int mask);

/**
 * vatom_noc_at_swap_index6() - NOC_AT_LEN_BE of a swap, index variant (opcode 6)
 * @ofs: the word (0..3) that receives NOC_AT_DATA
 *
 * Return: the register value, or 0 for @ofs above 3.
 */
VATOM_API uint32_t vatom_noc_at_swap_index6(unsigned int ofs);

/**
 * vatom_noc_at_swap_index7() - NOC_AT_LEN_BE of a swap, index variant (opcode 7)
 * @ofs: the word (0..3), kept at bits [3:2] in this encoding
 *
 * Return: the register value, or 0 for @ofs above 3.
 */
VATOM_API uint32_t vatom_noc_at_swap_index7(unsigned int ofs);

/**
 * vatom_noc_at_swap_index10() - NOC_AT_LEN_BE of a swap, index variant (0xA)
 * @ofs: the word (0..3)
 *
 * Blackhole's opcode 0xA with [11:8] = 3.
 *
 * Return: the register value, or 0 for @ofs above 3.
 */
VATOM_API uint32_t vatom_noc_at_swap_index10(unsigned int ofs);

/* Zaamo operations (Blackhole), Op field of vatom_noc_at_zaamo(). */
enum vatom_noc_zaamo {
	VATOM_NOC_AMOADD = DRM_VATOM_NOC_ZAAMO_ADD,
	VATOM_NOC_AMOXOR = DRM_VATOM_NOC_ZAAMO_XOR,
	VATOM_NOC_AMOOR = DRM_VATOM_NOC_ZAAMO_OR,
	VATOM_NOC_AMOAND = DRM_VATOM_NOC_ZAAMO_AND,
	VATOM_NOC_AMOMIN = DRM_VATOM_NOC_ZAAMO_MIN,	/* signed */
	VATOM_NOC_AMOMAX = DRM_VATOM_NOC_ZAAMO_MAX,	/* signed */
	VATOM_NOC_AMOMINU = DRM_VATOM_NOC_ZAAMO_MINU,
	VATOM_NOC_AMOMAXU = DRM_VATOM_NOC_ZAAMO_MAXU,
};

/**
 * vatom_noc_at_zaamo() - NOC_AT_LEN_BE of a Zaamo operation (Blackhole)
 * @op: enum vatom_noc_zaamo
 * @ofs: the word (0..3) operated on with NOC_AT_DATA
 *
 * Return: the register value (opcode 0xA), or 0 for an argument out of range.
 */
VATOM_API uint32_t vatom_noc_at_zaamo(unsigned int op, unsigned int ofs);

/**
 * vatom_noc_at_acc() - NOC_AT_LEN_BE of a parallel addition (Blackhole)
 * @fmt: DRM_VATOM_NOC_ACC_* (0..15): how the 16 bytes and NOC_AT_DATA read
 *
 * Return: the register value (opcode 9), or 0 for @fmt above 15.
 */
VATOM_API uint32_t vatom_noc_at_acc(unsigned int fmt);

/**
 * vatom_prep_raw() - append a packet encoded by the caller
 * @b: the batch
 * @pkt: the packet, starting with struct drm_vatom_packet
 * @size: bytes at @pkt, a multiple of 8 (copied verbatim, header included)
 * @result_bytes: bytes of results the packet returns (its region is
 *	rounded up to 8); 0 for none
 *
 * An escape hatch for packet kinds or encodings the prep helpers do not
 * cover (new UAPI additions, deliberately malformed packets in tests).
 *
 * Return: the result handle; -EINVAL for a NULL @pkt or a @size that is
 * not a multiple of 8 or smaller than the header; -E2BIG; -ENOMEM.
 */
VATOM_API int vatom_prep_raw(struct vatom_batch *b, const void *pkt,
			     size_t size, uint32_t result_bytes);

/**
 * vatom_noc_target() - address a unicast request
 * @req: the register image to fill in
 * @profile: DRM_VATOM_NOC_PROFILE_WORMHOLE or _BLACKHOLE (register layout)
 * @x: target tile X (0..63)
 * @y: target tile Y (0..63)
 * @addr: the address in the target tile (Wormhole: 36 bits)
 *
 * Sets NOC_TARG_ADDR_LO/MID/HI: Wormhole packs the coordinates into MID
 * above address bits 35..32; Blackhole keeps MID for address bits 63..32
 * and puts the coordinates into HI.
 *
 * Return: 0; -EINVAL for a NULL @req, an unknown profile, a coordinate
 * above 63 or an address the profile cannot express.
 */
VATOM_API int vatom_noc_target(struct vatom_noc_req *req, unsigned int profile,
			       unsigned int x, unsigned int y, uint64_t addr);

/**
 * vatom_noc_broadcast() - address a broadcast to a rectangle of tiles
 * @req: the register image to fill in
 * @profile: DRM_VATOM_NOC_PROFILE_*
 * @x_start: StartX
 * @y_start: StartY
 * @x_end: EndX
 * @y_end: EndY (a start above its end wraps around the torus)
 * @addr: the address in each recipient
 *
 * Sets the target registers like vatom_noc_target() plus the start
 * coordinates, and DRM_VATOM_NOC_CTRL_BRCST_PACKET in @req->ctrl.
 *
 * Return: as vatom_noc_target().
 */
VATOM_API int vatom_noc_broadcast(struct vatom_noc_req *req,
				  unsigned int profile, unsigned int x_start,
				  unsigned int y_start, unsigned int x_end,
				  unsigned int y_end, uint64_t addr);

/**
 * vatom_noc_return() - where the response goes (NOC_RET_ADDR_LO/MID/HI)
 * @req: the register image to fill in
 * @profile: DRM_VATOM_NOC_PROFILE_*
 * @x: return tile X
 * @y: return tile Y
 * @addr: 4-byte aligned L1 address of the result word
 *
 * A response is only sent with DRM_VATOM_NOC_CTRL_RESP_MARKED in
 * @req->ctrl, which this does not set.
 *
 * Return: as vatom_noc_target().
 */
VATOM_API int vatom_noc_return(struct vatom_noc_req *req, unsigned int profile,
			       unsigned int x, unsigned int y, uint64_t addr);

/**
 * vatom_noc_response() - where the response goes, and ask for one
 * @req: the register image to fill in
 * @profile: DRM_VATOM_NOC_PROFILE_*
 * @x: return tile X
 * @y: return tile Y
 * @addr: 4-byte aligned L1 address of the result word
 *
 * vatom_noc_return() plus %DRM_VATOM_NOC_CTRL_RESP_MARKED in @req->ctrl
 * (since 0.3).
 *
 * Return: as vatom_noc_target().
 */
VATOM_API int vatom_noc_response(struct vatom_noc_req *req,
				 unsigned int profile, unsigned int x,
				 unsigned int y, uint64_t addr);

/**
 * vatom_noc_l1() - where byte @addr of a tile's L1 lies in the grid's mapping
 * @grid: a tile grid made by vatom_surface_create_tile_grid()
 * @x: a Tensix or Ethernet tile's X
 * @y: its Y
 * @addr: the L1 address, below the tile's L1 size
 * @ptr: out, the byte in this process's mapping of @grid (mapped first with
 *	vatom_surface_map()); the L1 continues to the tile's L1 size
 *
 * The library keeps the grid's layout (docs/semantics-noc.md) from the
 * descriptor. CPU atomics there are atomic with respect to NoC requests.
 *
 * Return: 0; -EINVAL for NULL arguments, a surface that is not a tile grid,
 * a tile outside the grid or without an L1 (DRAM, PCIe) or @addr past its
 * L1; -EPROTO when the library's layout disagrees with the kernel's size
 * (or the grid was imported); the errors of vatom_surface_map().
 */
VATOM_API int vatom_noc_l1(struct vatom_surface *grid, unsigned int x,
			   unsigned int y, uint32_t addr, void **ptr);

/**
 * vatom_noc_l1_read32() - atomically read the 32-bit L1 word at @addr
 * @grid: a tile grid made by vatom_surface_create_tile_grid()
 * @x: tile X
 * @y: tile Y
 * @addr: 4-byte aligned L1 address
 * @value: out, the little-endian word
 *
 * Return: as vatom_noc_l1(); -EINVAL also for a misaligned @addr or a
 * NULL @value.
 */
VATOM_API int vatom_noc_l1_read32(struct vatom_surface *grid, unsigned int x,
				  unsigned int y, uint32_t addr, uint32_t *value);

/**
 * vatom_noc_l1_write32() - atomically store @value at L1 address @addr
 * @grid: a tile grid made by vatom_surface_create_tile_grid()
 * @x: tile X
 * @y: tile Y
 * @addr: 4-byte aligned L1 address
 * @value: the word
 *
 * Return: as vatom_noc_l1_read32().
 */
VATOM_API int vatom_noc_l1_write32(struct vatom_surface *grid, unsigned int x,
				   unsigned int y, uint32_t addr, uint32_t value);

/**
 * vatom_noc_l1_read() - read @len bytes of a tile's L1, a word at a time
 * @grid: a tile grid made by vatom_surface_create_tile_grid()
 * @x: tile X
 * @y: tile Y
 * @addr: 4-byte aligned L1 address
 * @buf: out, @len bytes
 * @len: a multiple of 4 (16 for the block a parallel add works on)
 *
 * Each 32-bit word is read atomically; the block is not a snapshot
 * (since 0.3).
 *
 * Return: as vatom_noc_l1(); -EINVAL also for a misaligned @addr, a @len
 * that is 0 or not a multiple of 4, or a NULL @buf.
 */
VATOM_API int vatom_noc_l1_read(struct vatom_surface *grid, unsigned int x,
				unsigned int y, uint32_t addr, void *buf,
				size_t len);

/**
 * vatom_noc_l1_write() - store @len bytes into a tile's L1, a word at a time
 * @grid: a tile grid made by vatom_surface_create_tile_grid()
 * @x: tile X
 * @y: tile Y
 * @addr: 4-byte aligned L1 address
 * @buf: the bytes
 * @len: a multiple of 4
 *
 * Each 32-bit word is stored atomically (since 0.3).
 *
 * Return: as vatom_noc_l1_read().
 */
VATOM_API int vatom_noc_l1_write(struct vatom_surface *grid, unsigned int x,
				 unsigned int y, uint32_t addr, const void *buf,
				 size_t len);

/**
 * vatom_noc_counters_read() - read a tile's NIU counters (NOC_COUNTERS)
 * @grid: a tile grid surface
 * @x: tile X
 * @y: tile Y
 * @noc: NoC 0 or 1
 * @counters: out, counters 0 .. @count - 1, indexed by DRM_VATOM_NOC_MST_*
 *	and DRM_VATOM_NOC_SLV_*
 * @count: 1 .. %DRM_VATOM_NOC_NIU_COUNTERS
 *
 * Each counter is read atomically; the set is not a snapshot. The same
 * words are visible in the grid's mapping (docs/semantics-noc.md).
 *
 * Return: 0; -EINVAL for a NULL argument, a @count out of range, a surface
 * that is not a tile grid, a tile outside the grid or @noc > 1; -ENOENT
 * when the surface is gone; -EFAULT.
 */
VATOM_API int vatom_noc_counters_read(struct vatom_surface *grid,
				      unsigned int x, unsigned int y,
				      unsigned int noc, uint32_t *counters,
				      unsigned int count);

/* Flags of vatom_noc_counters_clear(). */
#define VATOM_NOC_CLEAR_ALL	(1u << 0)	/* every counter, @id_mask 0 */

/**
 * vatom_noc_counters_clear() - clear a tile's NIU counters (NOC_COUNTERS)
 * @grid: a tile grid surface
 * @x: tile X
 * @y: tile Y
 * @noc: NoC 0 or 1
 * @id_mask: bit i (0..15) zeroes REQS_OUTSTANDING_ID(i), as a write to the
 *	NIU's per-ID clear register (NIU_BASE + 0x50 / + 0x60) does
 * @flags: 0, or %VATOM_NOC_CLEAR_ALL to zero all the counters instead
 * @old: optional, receives all %DRM_VATOM_NOC_NIU_COUNTERS counters; the
 *	cleared ones as they were when cleared
 *
 * Each counter is cleared with one atomic exchange, so no update of a
 * concurrent submission is lost: it lands in @old or after the clear.
 *
 * Return: 0; -EINVAL for unknown @flags, @id_mask bits above 15, an
 * @id_mask with %VATOM_NOC_CLEAR_ALL, a surface that is not a tile grid, a
 * tile outside the grid or @noc > 1; -ENOENT; -EFAULT.
 */
VATOM_API int vatom_noc_counters_clear(struct vatom_surface *grid,
				       unsigned int x, unsigned int y,
				       unsigned int noc, uint32_t id_mask,
				       unsigned int flags, uint32_t *old);

/* ------------------------------------------------------------------------ */
/* Results                                                                   */
/* ------------------------------------------------------------------------ */

/*
 * The accessors read the results of the last successful submission of @b
 * for the packet @res, indexed in elements of the accessor's width: lane i
 * of a 32-bit vISA result is vatom_result_u32(b, res, i), lane i of a
 * 64-bit one vatom_result_u64(b, res, i), half i of a PTX f16 vector
 * vatom_result_u16(b, res, i). They return 0 when there are no results
 * (not submitted, failed, reset), for a packet that returns nothing and
 * for an element past the packet's results; vatom_result_size() and
 * vatom_result_bytes() tell these cases apart.
 */

/**
 * vatom_result_u16() - 16-bit element @i of a packet's results
 * @b: the batch
 * @res: the result handle
 * @i: element index, in 16-bit units (half i of a PTX f16 vector)
 *
 * Return: the element, or 0 when there is none (see above).
 */
VATOM_API uint16_t vatom_result_u16(const struct vatom_batch *b, int res,
				    unsigned int i);

/**
 * vatom_result_u32() - 32-bit element @i of a packet's results
 * @b: the batch
 * @res: the result handle
 * @i: element index, in 32-bit units (lane i of a 32-bit vISA result)
 *
 * Return: the element, or 0 when there is none.
 */
VATOM_API uint32_t vatom_result_u32(const struct vatom_batch *b, int res,
				    unsigned int i);

/**
 * vatom_result_u64() - 64-bit element @i of a packet's results
 * @b: the batch
 * @res: the result handle
 * @i: element index, in 64-bit units (lane i of a UQ/Q vISA result)
 *
 * Return: the element, or 0 when there is none.
 */
VATOM_API uint64_t vatom_result_u64(const struct vatom_batch *b, int res,
				    unsigned int i);

/**
 * vatom_result_addc_dst() - the sum ADDC computed in lane @lane
 * @b: the batch
 * @res: the result handle of an ADDC packet
 * @lane: the lane
 *
 * Return: dst[@lane], or 0 when there is none.
 */
VATOM_API uint32_t vatom_result_addc_dst(const struct vatom_batch *b, int res,
					 unsigned int lane);

/**
 * vatom_result_addc_carry() - the carry ADDC computed in lane @lane
 * @b: the batch
 * @res: the result handle of an ADDC packet
 * @lane: the lane
 *
 * Return: carry[@lane] (0 or 1), or 0 when there is none.
 */
VATOM_API uint32_t vatom_result_addc_carry(const struct vatom_batch *b, int res,
					   unsigned int lane);

/**
 * vatom_result_size() - bytes of values the packet returns
 * @b: the batch
 * @res: the result handle
 *
 * The data bytes (not the rounding to 8): lanes * 4 for 32-bit vISA
 * results and ADDC dst, lanes * 8 for 64-bit ones, the access size for
 * PTX, 0 for packets that return nothing.
 *
 * Return: the size; -EINVAL for a handle out of range.
 */
VATOM_API int vatom_result_size(const struct vatom_batch *b, int res);

/**
 * vatom_result_offset() - where the packet's region starts in the results
 * @b: the batch
 * @res: the result handle
 *
 * Not needed to read results; offered for tools that dump raw results
 * and for users of a shared result surface.
 *
 * Return: the byte offset (relative to the result destination); -EINVAL
 * for a handle out of range.
 */
VATOM_API int64_t vatom_result_offset(const struct vatom_batch *b, int res);

/**
 * vatom_result_bytes() - copy the packet's returned bytes
 * @b: the batch
 * @res: the result handle
 * @buf: destination
 * @len: room at @buf
 *
 * Return: bytes copied, min(@len, vatom_result_size()); -EINVAL for a
 * handle out of range; -ENODATA when no results are available or the
 * packet returns nothing.
 */
VATOM_API int vatom_result_bytes(const struct vatom_batch *b, int res,
				 void *buf, size_t len);

/* ------------------------------------------------------------------------ */
/* Strings                                                                   */
/* ------------------------------------------------------------------------ */

/**
 * vatom_strreason() - describe a DRM_VATOM_ERR_* reason
 * @reason: the reason
 *
 * Return: a static string ("unknown reason" for values this library does
 * not know).
 */
VATOM_API const char *vatom_strreason(uint32_t reason);

/**
 * vatom_visa_op_name() - the vISA text name of an Op ("ADD", "CMPXCHG")
 * @op: enum vatom_visa_op
 *
 * Return: a static string, or NULL for a reserved encoding.
 */
VATOM_API const char *vatom_visa_op_name(unsigned int op);

/**
 * vatom_visa_type_name() - the vISA name of a data type ("UD", "HF")
 * @type: DRM_VATOM_VISA_TYPE_*
 * @is16: the .16 form: the 16-bit name (UW, W, HF) of the same type
 *
 * Return: a static string, or NULL (no such type, or no 16-bit form).
 */
VATOM_API const char *vatom_visa_type_name(unsigned int type, bool is16);

/**
 * vatom_ptx_op_name() - the PTX name of an atom operation ("cas")
 * @op: DRM_VATOM_PTX_OP_*
 *
 * Return: a static string, or NULL for an unknown @op.
 */
VATOM_API const char *vatom_ptx_op_name(unsigned int op);

/**
 * vatom_ptx_type_name() - the PTX name of an atom type ("f16x2")
 * @type: DRM_VATOM_PTX_TYPE_*
 *
 * Return: a static string, or NULL for an unknown @type.
 */
VATOM_API const char *vatom_ptx_type_name(unsigned int type);

/* Qualifier kinds of vatom_ptx_qualifier_name(). */
enum vatom_ptx_qualifier {
	VATOM_PTX_SPACE,	/* DRM_VATOM_PTX_SPACE_* */
	VATOM_PTX_SEM,		/* DRM_VATOM_PTX_SEM_* */
	VATOM_PTX_SCOPE,	/* DRM_VATOM_PTX_SCOPE_* */
};

/**
 * vatom_ptx_qualifier_name() - the PTX name of a space, sem or scope
 * @kind: enum vatom_ptx_qualifier
 * @value: the DRM_VATOM_PTX_SPACE_*, _SEM_* or _SCOPE_* value
 *
 * The defaults (generic space, .relaxed, .gpu) are "": PTX writes nothing.
 *
 * Return: a static string without the dot ("shared::cluster"), or NULL.
 */
VATOM_API const char *vatom_ptx_qualifier_name(unsigned int kind,
					       unsigned int value);

/* The documented NoC atomic variants (vatom_noc_variant()). */
enum vatom_noc_variant {
	VATOM_NOC_VAR_INCREMENT,
	VATOM_NOC_VAR_CAS,
	VATOM_NOC_VAR_SWAP_MASK,
	VATOM_NOC_VAR_SWAP_INDEX6,
	VATOM_NOC_VAR_SWAP_INDEX7,
	VATOM_NOC_VAR_SWAP_INDEX10,
	VATOM_NOC_VAR_ACC,
	VATOM_NOC_VAR_AMOADD,	/* the Zaamo ops, in their Op order */
	VATOM_NOC_VAR_AMOXOR,
	VATOM_NOC_VAR_AMOOR,
	VATOM_NOC_VAR_AMOAND,
	VATOM_NOC_VAR_AMOMIN,
	VATOM_NOC_VAR_AMOMAX,
	VATOM_NOC_VAR_AMOMINU,
	VATOM_NOC_VAR_AMOMAXU,
	VATOM_NOC_VARIANTS
};

/**
 * vatom_noc_variant() - which documented variant a NOC_AT_LEN_BE encodes
 * @at_len_be: the register value
 *
 * Return: enum vatom_noc_variant; -EINVAL for a reserved opcode.
 */
VATOM_API int vatom_noc_variant(uint32_t at_len_be);

/**
 * vatom_noc_variant_name() - the text name of a NoC variant ("incr", "amoadd")
 * @variant: enum vatom_noc_variant
 *
 * These are the names of the symbolic NoC syntax (noc.<name>).
 *
 * Return: a static string, or NULL.
 */
VATOM_API const char *vatom_noc_variant_name(unsigned int variant);

/* ------------------------------------------------------------------------ */
/* ISA text (since 0.3)                                                      */
/* ------------------------------------------------------------------------ */

/*
 * An assembler turns one line of ISA text into one packet with the prep
 * helpers above, and vatom_disasm() turns a packet back into text that
 * assembles to the same bytes. The syntax of each family (docs/vatom-run.md
 * has all of it):
 *
 *   [(<P>)] DWORD_ATOMIC.ADD (M1, 16) T255 offs src V0 old [type=UD] [emask=..]
 *   [(<P>)] TYPED_ATOMIC.<op>[.16] (<n>) <surf> <u> <v> <r> <lod> <s0> <s1> <dst>
 *   [(<P>)] ADDC (<n>) <dst> <carry> <src0> <src1>
 *   [@p] atom.global.v8.f16.max.noftz {d0, ...}, [sym+0x10], {1.0, ...};
 *   noc.incr T3 (0,0) -> (1,0)+0x100 data=5 ret=(0,0)+0x200 txn=3
 *   noc T3 (0,0) NOC_TARG_ADDR_LO=0x100 ... NOC_AT_LEN_BE=0x107c NOC_AT_DATA=5
 *
 * Operand values come from literals ({0, 4, 8}, 1.5, 0f3f800000) or from
 * symbols the caller defines: values (operand vectors, predicates),
 * addresses (a slot and an offset: vISA surfaces, PTX [a]) and tile grids
 * (a slot and a register profile).
 */

struct vatom_asm;

/* Elements a value symbol holds at most. */
#define VATOM_ASM_MAX_VALUES	32

/**
 * vatom_asm_create() - create an assembler (an empty symbol table)
 * @flags: must be 0
 * @ap: out, the assembler
 *
 * Return: 0; -EINVAL; -ENOMEM.
 */
VATOM_API int vatom_asm_create(unsigned int flags, struct vatom_asm **ap);

/**
 * vatom_asm_destroy() - free an assembler
 * @a: the assembler, or NULL
 */
VATOM_API void vatom_asm_destroy(struct vatom_asm *a);

/**
 * vatom_asm_define_values() - define (or redefine) a value symbol
 * @a: the assembler
 * @name: a PTX identifier, [A-Za-z][A-Za-z0-9_$]* or [_$%][A-Za-z0-9_$]+
 *	('-' may join words), e.g. "offs", "%r0", "P1"
 * @values: the elements (one per lane, vector element, or one scalar)
 * @count: 1 .. %VATOM_ASM_MAX_VALUES
 *
 * Used for vISA operand vectors and predicates, PTX operands, predicates
 * (@p: non-zero is true) and cache policies.
 *
 * Return: 0; -EINVAL for a bad name or count; -ENOMEM.
 */
VATOM_API int vatom_asm_define_values(struct vatom_asm *a, const char *name,
				      const uint64_t *values, unsigned int count);

/**
 * vatom_asm_define_address() - define an address symbol: a slot and offset
 * @a: the assembler
 * @name: the symbol
 * @slot: binding slot of the surface
 * @offset: byte offset in it (0 for a vISA surface name)
 *
 * A vISA Surface operand or a PTX [name+off] address.
 *
 * Return: 0; -EINVAL; -ENOMEM.
 */
VATOM_API int vatom_asm_define_address(struct vatom_asm *a, const char *name,
				       unsigned int slot, uint64_t offset);

/**
 * vatom_asm_define_grid() - define a tile grid symbol for NoC lines
 * @a: the assembler
 * @name: the symbol
 * @slot: binding slot of the grid
 * @profile: DRM_VATOM_NOC_PROFILE_* (the register layout of its requests)
 *
 * Return: 0; -EINVAL; -ENOMEM.
 */
VATOM_API int vatom_asm_define_grid(struct vatom_asm *a, const char *name,
				    unsigned int slot, unsigned int profile);

/**
 * vatom_asm_set_noc_profile() - the profile of grids named T<slot>
 * @a: the assembler
 * @profile: DRM_VATOM_NOC_PROFILE_* (Blackhole by default)
 *
 * Return: 0; -EINVAL.
 */
VATOM_API int vatom_asm_set_noc_profile(struct vatom_asm *a,
					unsigned int profile);

/**
 * vatom_asm_line() - assemble one line into one packet of @b
 * @a: the assembler
 * @b: the batch receiving the packet
 * @line: one instruction (vISA, PTX or NoC, told apart by its first word),
 *	optionally followed by a // or # comment
 *
 * On failure the batch is unchanged and vatom_asm_error() says where and
 * why; vatom_asm_result_name() names the line's results (vISA Dst, ADDC
 * Dst then Carry, PTX d or each element of {d0, d1, ...}).
 *
 * Return: the packet's index (its result handle); -ENODATA for a line
 * that makes no packet (blank, a comment, a PTX atom whose @p guard is
 * false); -EINVAL for a syntax error; -E2BIG or -ENOMEM from the batch.
 */
VATOM_API int vatom_asm_line(struct vatom_asm *a, struct vatom_batch *b,
			     const char *line);

/**
 * vatom_asm_error() - why the last vatom_asm_line() failed
 * @a: the assembler
 * @col: out (optional), the 1-based column the message is about
 *
 * Return: the message ("expected ',' or '}', found 'x'"), or NULL when
 * the last line was accepted.
 */
VATOM_API const char *vatom_asm_error(const struct vatom_asm *a,
				      unsigned int *col);

/**
 * vatom_asm_result_name() - the @i-th result name of the last line
 * @a: the assembler
 * @i: from 0
 *
 * Return: the name, or NULL past the last one (or for Dst V0).
 */
VATOM_API const char *vatom_asm_result_name(const struct vatom_asm *a,
					    unsigned int i);

/**
 * vatom_disasm() - the text of one encoded packet
 * @pkt: the packet (e.g. from vatom_batch_packet())
 * @size: its bytes
 * @buf: destination, or NULL to measure
 * @len: room at @buf
 *
 * The syntax vatom_asm_line() reads, every value written out in hex, so
 * that assembling the text gives the same bytes (given the same symbols
 * for nothing: the text uses none). Malformed packets are described in a
 * comment.
 *
 * Return: the length of the whole text, as snprintf() counts it.
 */
VATOM_API int vatom_disasm(const void *pkt, size_t size, char *buf, size_t len);

/* ------------------------------------------------------------------------ */
/* User-mode queues                                                          */
/* ------------------------------------------------------------------------ */

/*
 * A queue submits jobs without a system call each (docs/queues.md): jobs
 * are written to a ring shared with the kernel and consumed by one
 * vatom_queue_kick() for any number of them. Each job is a command stream
 * (built with a batch, or written directly) whose packets name the slots
 * of the binding table the queue was created with. The producer side
 * (reserve, commit, submit, kick) is for one thread at a time.
 */

struct vatom_queue;

/**
 * struct vatom_queue_params - the shape of a queue
 * @entries: jobs the ring holds, a power of two up to
 *	DRM_VATOM_PARAM_MAX_QUEUE_ENTRIES
 * @stream_bytes: bytes of stream one job may have (a multiple of 8, >= 8)
 * @results_bytes: bytes of results one job may have (a multiple of 8; 0
 *	for jobs that return none)
 */
struct vatom_queue_params {
	uint32_t entries;
	uint32_t stream_bytes;
	uint32_t results_bytes;
};

/**
 * vatom_queue_create() - create a user-mode queue
 * @dev: the device
 * @p: its shape
 * @bindings: a batch whose bound surfaces become the queue's binding table
 *	(fixed for the queue's life; the queue references them), or NULL
 * @q: out, the queue
 *
 * The library adds a stream surface and a results surface (one area of
 * @p->stream_bytes and @p->results_bytes per ring entry) at the two
 * highest slots @bindings leaves free.
 *
 * Return: 0; -EINVAL for a bad @p or a batch of another device;
 * -EOPNOTSUPP when the device has no %DRM_VATOM_CAP_QUEUE; -ENOSPC when
 * @bindings leaves fewer than two slots free, or past the file's memory
 * cap; -EBUSY when the device file has its maximum of queues; -E2BIG;
 * -ENOMEM.
 */
VATOM_API int vatom_queue_create(struct vatom_device *dev,
				 const struct vatom_queue_params *p,
				 const struct vatom_batch *bindings,
				 struct vatom_queue **q);

/* struct vatom_queue_ext.flags: the UAPI's DRM_VATOM_QUEUE_CREATE_* bits */
#define VATOM_QUEUE_POLL	DRM_VATOM_QUEUE_CREATE_POLL
#define VATOM_QUEUE_EVENTFD	DRM_VATOM_QUEUE_CREATE_EVENTFD

/**
 * struct vatom_queue_ext - what a queue does beyond its shape
 * @flags: %VATOM_QUEUE_POLL: a kernel thread consumes the ring, so a job
 *	needs no system call (vatom_queue_kick() makes one only when it
 *	sleeps); %VATOM_QUEUE_EVENTFD: signal @eventfd
 * @poll_idle_us: with %VATOM_QUEUE_POLL, how long the thread polls an
 *	empty ring before it sleeps (0: the kernel's default, 1 ms; at most
 *	DRM_VATOM_PARAM_MAX_POLL_IDLE_US)
 * @syncobj: a DRM syncobj handle of the device's fd (libdrm's
 *	drmSyncobjCreate() on vatom_device_fd()), or 0: the queue adds
 *	point n, signalled, when its job n is complete (in batches: a wait
 *	for point n ends once job n is)
 * @eventfd: with %VATOM_QUEUE_EVENTFD, an eventfd(2) signalled once per
 *	batch of jobs completed
 *
 * Zero it, then set what you use: the kernel-doc of
 * struct drm_vatom_queue_create says the rest.
 */
struct vatom_queue_ext {
	uint32_t flags;
	uint32_t poll_idle_us;
	uint32_t syncobj;
	int eventfd;
};

/**
 * vatom_queue_create_ext() - create a user-mode queue with a polling
 *	thread, completion signals, or both
 * @dev: the device
 * @p: its shape
 * @ext: polling mode and signals, or NULL (then as vatom_queue_create())
 * @bindings: as vatom_queue_create()'s
 * @q: out, the queue
 *
 * Return: vatom_queue_create()'s errors; -EOPNOTSUPP also when @ext asks
 * for what the device lacks (%DRM_VATOM_CAP_QUEUE_POLL,
 * %DRM_VATOM_CAP_QUEUE_SIGNAL); -EINVAL for unknown @ext->flags, or a
 * @poll_idle_us or @eventfd its flag does not enable, or one the kernel
 * refuses; -EBUSY when the device runs DRM_VATOM_PARAM_MAX_POLL_QUEUES
 * polling queues; -EBADF, -ENOENT for a bad @eventfd or @syncobj.
 */
VATOM_API int vatom_queue_create_ext(struct vatom_device *dev,
				     const struct vatom_queue_params *p,
				     const struct vatom_queue_ext *ext,
				     const struct vatom_batch *bindings,
				     struct vatom_queue **q);

/**
 * vatom_queue_destroy() - destroy a queue and the surfaces it made
 * @q: the queue, or NULL
 *
 * Jobs committed and not yet consumed are dropped, never executed.
 */
VATOM_API void vatom_queue_destroy(struct vatom_queue *q);

/**
 * vatom_queue_reserve() - the stream area of the next job
 * @q: the queue
 * @stream_size: bytes the stream will have
 * @stream: out, where to write it (8-byte aligned)
 *
 * Return: 0; -E2BIG when @stream_size exceeds the queue's stream_bytes or
 * is not a multiple of 8; -EAGAIN when the ring is full (wait for the job
 * one ring back, vatom_queue_wait()).
 */
VATOM_API int vatom_queue_reserve(struct vatom_queue *q, uint32_t stream_size,
				  void **stream);

/**
 * vatom_queue_commit() - publish the job whose stream was reserved and written
 * @q: the queue
 * @stream_size: bytes of the stream
 * @results_size: bytes of results it returns (0: none); at most the
 *	queue's results_bytes
 *
 * Return: the job's sequence number (1 for the queue's first job).
 */
VATOM_API uint64_t vatom_queue_commit(struct vatom_queue *q, uint32_t stream_size,
				      uint64_t results_size);

/**
 * vatom_queue_submit_batch() - reserve, copy @b's stream and commit
 * @q: the queue
 * @b: a batch whose packets use the queue's slots
 * @seqno: out, the job's sequence number
 *
 * Return: 0; -E2BIG when the stream or its results exceed the queue's
 * areas; -EAGAIN when the ring is full.
 */
VATOM_API int vatom_queue_submit_batch(struct vatom_queue *q,
				       const struct vatom_batch *b,
				       uint64_t *seqno);

/**
 * vatom_queue_kick() - have the kernel consume the committed jobs
 * @q: the queue
 *
 * Only calls the KICK ioctl when the kernel asks for it
 * (%DRM_VATOM_QUEUE_CTL_NEED_WAKEUP, read after a full barrier); in kick
 * mode, it returns once every job committed before it has completed; in
 * polling mode, it wakes the sleeping poller, if it sleeps, and returns.
 *
 * Return: 0, or the ioctl's -errno.
 */
VATOM_API int vatom_queue_kick(struct vatom_queue *q);

/**
 * vatom_queue_completed() - jobs the queue has completed
 * @q: the queue
 *
 * Return: the sequence number of the last job complete (acquire: its
 * status and results are visible).
 */
VATOM_API uint64_t vatom_queue_completed(const struct vatom_queue *q);

/**
 * vatom_queue_wait() - wait until job @seqno is complete
 * @q: the queue
 * @seqno: a sequence number vatom_queue_commit() returned
 * @timeout_ns: relative timeout, or a negative value for none
 *
 * Polls the completed count a few times and kicks when the kernel needs
 * it. Then, when the queue was created with a syncobj, blocks on it (a
 * timeline wait for point @seqno, which the kernel adds once the job is
 * complete); otherwise sleeps in growing steps (up to 1 ms) while another
 * thread's kick or the poller consumes. The eventfd, if any, is left to
 * the caller.
 *
 * Return: 0; -EINVAL for a @seqno not committed; -ETIME on timeout; or
 * vatom_queue_kick()'s error.
 */
VATOM_API int vatom_queue_wait(struct vatom_queue *q, uint64_t seqno,
			       int64_t timeout_ns);

/**
 * vatom_queue_job_status() - outcome of a complete job
 * @q: the queue
 * @seqno: the job
 * @index: out (optional), the packet validation rejected
 * @reason: out (optional), DRM_VATOM_ERR_* (DRM_VATOM_ERR_DESCRIPTOR for
 *	a malformed descriptor)
 *
 * Return: the job's status (0, or the -errno SUBMIT would have returned);
 * -EBUSY when it is not complete; -ENOENT when its ring entry has been
 * reused (more than entries jobs committed since) or it was never
 * committed. The two can be told apart from a job status by the job:
 * they are returned only for jobs not complete or not in the ring.
 */
VATOM_API int vatom_queue_job_status(const struct vatom_queue *q, uint64_t seqno,
				     uint32_t *index, uint32_t *reason);

/**
 * vatom_queue_job_results() - the raw results of a complete job
 * @q: the queue
 * @seqno: the job
 *
 * Return: its results area (valid until the ring entry is reused), or
 * NULL when the job is not complete, reused, or the queue has no results.
 */
VATOM_API const void *vatom_queue_job_results(const struct vatom_queue *q,
					      uint64_t seqno);

/**
 * vatom_queue_batch_results() - read a job's results with @b's accessors
 * @q: the queue
 * @seqno: a complete job submitted from @b with vatom_queue_submit_batch()
 * @b: the batch, unchanged since
 *
 * Makes vatom_batch_error() and the vatom_result_*() accessors of @b
 * report job @seqno, until @b changes or the ring entry is reused.
 *
 * Return: as vatom_queue_job_status().
 */
VATOM_API int vatom_queue_batch_results(const struct vatom_queue *q, uint64_t seqno,
					struct vatom_batch *b);

#if defined(__cplusplus)
}
#endif

#endif /* _VATOM_H_ */
