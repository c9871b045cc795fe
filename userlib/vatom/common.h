/* SPDX-License-Identifier: MIT */
/*
 * libvatom: what every area header shares: the headers it builds on,
 * VATOM_API, the version macros and the opaque object types. Programs
 * include <vatom.h>, which includes every area (conventions there).
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_COMMON_H_
#define _VATOM_COMMON_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <vatom/version.h>	/* VATOM_VERSION_* (generated) */
#include <vatom/vatom_drm.h>	/* copy of uapi/drm/vatom_drm.h */

#ifndef VATOM_API
#define VATOM_API __attribute__((visibility("default")))
#endif

#if defined(__cplusplus)
extern "C" {
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

#if defined(__cplusplus)
}
#endif

#endif /* _VATOM_COMMON_H_ */
