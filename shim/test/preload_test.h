/* SPDX-License-Identifier: MIT */
/*
 * preload_test.h: what preload.c's host test shares between its two builds
 * (preload_test.c says what they are): the stub's counters, the hooks
 * through which the program reaches the test shim's internal calls, and
 * the stub's requests; then, for the program's files, what main() sets up,
 * the TAP output, the helpers more than one group of checks uses and the
 * checks, in the order main() runs them.
 */
#ifndef _VATOM_SHIM_PRELOAD_TEST_H_
#define _VATOM_SHIM_PRELOAD_TEST_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>

#include <drm.h>

#include "shim.h"

/* The stub's counters, as the program reads them. */
struct stub_stats {
	int opens, puts;
	unsigned int last_minor;	/* of the last open */
	void *last_opened;
	void *last_file;		/* of the last ioctl */
	unsigned long last_req;
	void *last_arg;
	int mmaps;
	void *mmap_file;
	off_t mmap_off;
};

struct preload_test_hooks {
	unsigned int (*num_devices)(void);
	int (*fd_track)(int fd, const struct shim_fd_ops *ops, void *data);
	void *(*fd_lookup)(int fd, const struct shim_fd_ops *ops);
	int (*copy_in)(void *dst, const void *usrc, size_t n);
	int (*copy_out)(void *udst, const void *src, size_t n);
	int (*copy_out_probe)(void *udst, const void *src, size_t n);
	int (*copy_in_stream)(void *dst, const void *usrc, size_t n);
	int (*real_close)(int fd);
	int (*real_fcntl_dupfd)(int fd, int min, bool cloexec);
	int (*private_dup)(int fd);
	void (*private_close)(int fd);
	bool (*fd_is_open)(int fd);
	void (*early_handler)(int sig, siginfo_t *si, void *uc);
	struct stub_stats *stats;
};

/* The stub's requests: a ping that copies in and out, and a failure. */
struct test_ping {
	uint32_t in, out;
};

#define TEST_IOCTL_PING	_IOWR('t', 1, struct test_ping)
#define TEST_IOCTL_FAIL	_IO('t', 2)
#define PING_XOR	0x5a5a5a5au

/* --- the program's (preload_test.c) */

extern const struct preload_test_hooks *h;
extern struct stub_stats *st;
extern unsigned int ndev;

struct stat;

bool ok(bool cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
bool is_rdev(const struct stat *s, unsigned int minor);
int open_render(unsigned int i);

/* The fake /dev/dri and sysfs: preload_test_fs.c */
void test_dev_dri(void);
void test_sysfs(void);

/* Device descriptors: preload_test_fd.c */
void test_open_ioctl(void);
void test_dup(void);
void test_track(void);
void test_mmap(void);
void test_private(void);
void test_passthrough(void);

/* Copies and faults: preload_test_fault.c */
void test_copy(void);
void test_copy_sizes(void);
void test_copy_out_probe(void);
void test_copy_stream(void);
void test_signals(void);
void test_threads(void);

/* libdrm: preload_test_libdrm.c */
void test_libdrm(void);

#endif /* _VATOM_SHIM_PRELOAD_TEST_H_ */
