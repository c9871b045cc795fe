/* SPDX-License-Identifier: MIT */
/*
 * libvatom-shim.so: the vatom device in-process. Preloaded, it presents
 * vatom render nodes to an unmodified program (libdrm's discovery, open,
 * ioctl, mmap) and runs their jobs with the engine vatom.ko runs
 * (driver/engine/) and the argument checks it applies
 * (driver/engine/vatom_rules.h). Mesa's drm-shim, with the engine as the
 * simulator. This header is how the pieces meet:
 *
 *   preload.c, preload_fd.c, preload_io.c, preload_signal.c,
 *   preload_fs.c
 *               the libc entry points it takes over (preloaded only)
 *   vfs.c, vnode.c
 *               the fake /dev/dri and sysfs entries, and what they answer
 *   real.c      libc's own calls, past the shim's entry points
 *   fdtable.c   the file descriptor table, and the shim's own descriptors
 *   eventfd.c   eventfds handed in: the shim's reference, its signal
 *   fault.c     faults in the caller's memory caught: the user copies
 *   devices.c   how many devices
 *   limits.c    the policy limits, the module parameters, the accounts
 *   file.c      one open device file: its GEM handles, the ioctl switch
 *   surface.c, surface_ioctl.c, prime.c, noc.c
 *               surfaces (memfd-backed GEM objects): the objects, their
 *               handles and mmap; their ioctls; PRIME; NoC counters
 *   exec.c      the execution core every job goes through
 *   submit.c    SUBMIT (a job built from its arguments), RESET_STATUS
 *   job.c       a job's memory, execution and fences; synchronous jobs
 *   sched.c     asynchronous jobs: a file's worker thread
 *   queue.c, queue_ioctl.c
 *               user-mode queues: their consumption; their ioctls
 *   poller.c    their polling mode: the device's poller thread
 *   syncobj.c, syncobj_wait.c, syncobj_fd.c, syncobj_ioctl.c
 *               DRM syncobjs (binary and timeline): the objects and
 *               their handles, waits, descriptors, ioctls
 *   fence.c, fence_chain.c, fence_unwrap.c
 *               their fences: dma_fence, its chains and arrays
 *
 * Only the preload*.c files take libc calls over; the rest reach libc's
 * own through real.c, and link into a program without the preloading
 * too. Every function that can fail returns 0 or a negative
 * errno, as the kernel's do; the entry points turn that into -1 and
 * errno for the caller.
 */
#ifndef _VATOM_SHIM_H_
#define _VATOM_SHIM_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <sys/types.h>

#define SHIM_EXPORT __attribute__((visibility("default")))

/*
 * ktime_get_ns(): the time now, CLOCK_MONOTONIC, in ns (the vDSO's: no
 * system call). A caller comparing with a signed time (a syncobj wait's
 * timeout_nsec, which may be negative) casts it to int64_t, as ktime_t is.
 */
static inline uint64_t shim_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* The nodes the shim presents: /dev/dri/card<i> and renderD<128 + i>. */
#define SHIM_DRM_MAJOR		226
#define SHIM_RENDER_MINOR_BASE	128
#define SHIM_MAX_DEVICES	16

/* ------------------------------------------------------------------ */
/* fdtable.c, fault.c, devices.c: descriptors, copies, the real libc  */
/* ------------------------------------------------------------------ */

/**
 * shim_num_devices() - how many devices the shim presents
 *
 * Return: $VATOM_SHIM_DEVICES (1 to %SHIM_MAX_DEVICES), default 1.
 */
unsigned int shim_num_devices(void);

/**
 * struct shim_fd_ops - what an fd the shim tracks stands for
 * @name: for debugging
 * @release: called once the last descriptor of it (dup()s included) is
 *	closed, with the @data it was tracked with
 * @ioctl: the ioctls of what it stands for (a sync_file's, a dma-buf's),
 *	or NULL: 0 or a negative errno, -ENOTTY for one it does not know;
 *	@arg is the caller's
 */
struct shim_fd_ops {
	const char *name;
	void (*release)(void *data);
	int (*ioctl)(void *data, unsigned long request, void *arg);
};

/**
 * shim_fd_track() - make a real descriptor stand for a shim object
 * @fd: a descriptor the shim opened (a memfd, an eventfd)
 * @ops: what it is
 * @data: the object; its reference passes to the table
 *
 * dup(), dup2(), dup3() and fcntl(F_DUPFD*) of @fd share the object;
 * close() of the last such descriptor calls @ops->release(@data).
 *
 * Return: 0 or -ENOMEM.
 */
int shim_fd_track(int fd, const struct shim_fd_ops *ops, void *data);

/**
 * shim_fd_lookup() - the object a descriptor stands for
 * @fd: any descriptor
 * @ops: the kind looked for
 *
 * Return: its data, or NULL when @fd is not tracked with @ops. The
 * object stays valid while the caller holds @fd open.
 */
void *shim_fd_lookup(int fd, const struct shim_fd_ops *ops);

/**
 * shim_fd_get() - the object a descriptor stands for, referenced
 * @fd: any descriptor
 * @ops: the kind looked for
 * @get: takes a reference to the object and returns what the caller
 *	gets (the object, or something of it), under the table's lock, so
 *	that a close() of @fd in another thread cannot free it meanwhile
 *
 * Return: what @get returned, or NULL when @fd is not tracked with @ops.
 */
void *shim_fd_get(int fd, const struct shim_fd_ops *ops,
		  void *(*get)(void *data));

/*
 * The shim's own descriptors (a surface's memfd, its reference to an
 * eventfd): on the kernel the device holds files, never numbers of the
 * process's table, so the process must not reach them through one. They
 * are in the table as private: close(), dup*(), fcntl() and ioctl() of
 * one fail with EBADF as for a number not open, close_range() and
 * closefrom() pass over them, and a descriptor the process hands to an
 * ioctl is resolved with shim_fd_is_open(). They are made high (from
 * 512), above the numbers a process is given, so that its own open()s
 * get the numbers they would get on the kernel.
 */

/**
 * shim_fd_private_dup() - a private copy of a descriptor, for the shim
 * @fd: the descriptor copied (left as it is)
 *
 * Return: the copy (close-on-exec), or -errno.
 */
int shim_fd_private_dup(int fd);

/**
 * shim_fd_private_close() - close a copy shim_fd_private_dup() made
 * @fd: the copy, or -1
 *
 * A number that is no longer private (closed behind the table by a raw
 * system call, and since given to the process) is left alone.
 */
void shim_fd_private_close(int fd);

/**
 * shim_fd_is_open() - fdget(), for a descriptor the process hands in
 * @fd: any number
 *
 * Return: true if @fd is open in the process and not one of the shim's
 * own (a call resolving it fails with -EBADF otherwise, as fdget() does).
 */
bool shim_fd_is_open(int fd);

/*
 * eventfd_ctx_fdget() (shim_eventfd_get(): a private copy of @fd, or
 * -EBADF if it is not open, -EINVAL if it is not an eventfd) and
 * eventfd_signal(); the copy is released with shim_fd_private_close().
 */
int shim_eventfd_get(int fd);
void shim_eventfd_signal(int fd);

/**
 * shim_copy_in() - copy_from_user(), in-process
 * @dst: the shim's buffer
 * @usrc: the caller's memory, as an ioctl argument points to it
 * @n: bytes
 *
 * A fault reading @usrc (unmapped, protected) is caught, as the kernel's
 * exception tables catch it, with no system call on the way: fault.c
 * keeps a SIGSEGV/SIGBUS handler first in line (the program's own,
 * installed before or after, is called for every other fault).
 *
 * Return: 0, or -EFAULT with @dst partly written.
 */
int shim_copy_in(void *dst, const void *usrc, size_t n);
int shim_copy_in_stream(void *dst, const void *usrc, size_t n);

/* shim_copy_out() - copy_to_user(), in-process: 0 or -EFAULT */
int shim_copy_out(void *udst, const void *src, size_t n);
int shim_copy_out_probe(void *udst, const void *src, size_t n);

/* ------------------------------------------------------------------ */
/* real.c: libc's own calls, past the shim's entry points              */
/* ------------------------------------------------------------------ */

/*
 * For the shim's internal use: preloaded, a call of close() or write()
 * by name would come back to the shim's own. As libc's: -1 (MAP_FAILED)
 * with errno set on failure.
 */
struct sigaction;

/* close() of a descriptor the shim holds for itself and never tracked */
int shim_real_close(int fd);
void *shim_real_mmap(void *addr, size_t len, int prot, int flags, int fd,
		     off_t off);
/* fcntl(F_DUPFD or F_DUPFD_CLOEXEC): a copy that stands for nothing */
int shim_real_fcntl_dupfd(int fd, int min, bool cloexec);
/* fcntl() with an int argument (F_SETFL, say; not F_DUPFD: see above) */
int shim_real_fcntl(int fd, int cmd, int arg);
ssize_t shim_real_write(int fd, const void *buf, size_t len);
ssize_t shim_real_readlink(const char *path, char *buf, size_t len);
int shim_real_sigaction(int sig, const struct sigaction *act,
			struct sigaction *old);

/* ------------------------------------------------------------------ */
/* file.c: one open device file                                        */
/* ------------------------------------------------------------------ */

struct shim_file;

/**
 * shim_file_open() - open a device file, as open() of its node does
 * @minor: the node's minor (card: 0.., render: 128..)
 * @out: the file, with one reference
 *
 * Return: 0, -ENODEV (no such device) or -ENOMEM.
 */
int shim_file_open(unsigned int minor, struct shim_file **out);

/*
 * A reference for each descriptor, and one for each call in flight: take
 * it where the file is found for a call, so that a close() in another
 * thread meanwhile frees nothing under it.
 */
struct shim_file *shim_file_get(struct shim_file *f);
void shim_file_put(struct shim_file *f);

/**
 * shim_file_ioctl() - one ioctl() on the file
 * @f: the file
 * @request: the request, as the caller passed it
 * @arg: the caller's argument
 *
 * The argument is copied in and out by the request's size, as drm_ioctl()
 * does (a shorter struct is zero extended, a longer one's extra bytes
 * ignored).
 *
 * Return: 0 or a negative errno (-ENOTTY for an unknown request, -EFAULT
 * for an unreadable argument).
 */
int shim_file_ioctl(struct shim_file *f, unsigned long request, void *arg);

/**
 * shim_file_mmap() - mmap() of the file at a surface's fake offset
 *
 * Return: the mapping, or MAP_FAILED with errno set.
 */
void *shim_file_mmap(struct shim_file *f, void *addr, size_t len, int prot,
		     int flags, off_t offset);

/* ------------------------------------------------------------------ */
/* limits.c: the module's parameters, /sys/module/vatom/parameters/     */
/* ------------------------------------------------------------------ */

/**
 * struct shim_param - one of vatom.ko's module parameters
 * @name: its name
 * @writable: whether it can be set at run time (mode 0644)
 */
struct shim_param {
	const char *name;
	bool writable;
};

#define SHIM_NUM_PARAMS	7
extern const struct shim_param shim_params[SHIM_NUM_PARAMS];

/* The value as sysfs shows it ("%u\n"): its length. */
int shim_param_show(const char *name, char *buf, size_t len);

/*
 * Set a writable parameter from what was written, as param_set_uint()
 * and the driver's clamp do: 0, -EINVAL (not a number), -ERANGE (past 32
 * bits) or -EPERM (a read-only one).
 */
int shim_param_store(const char *name, const char *buf, size_t len);

#endif /* _VATOM_SHIM_H_ */
