// SPDX-License-Identifier: MIT
/*
 * limits.c: the policy limits, as vatom.ko's module parameters
 * (vatom_limits.c, vatom_param.c): read once from $VATOM_SHIM_<NAME>,
 * clamped by vatom_rules.h's ranges, shown and set through the fake
 * /sys/module/vatom/parameters (vnode.c); and the files' accounts against
 * the memory cap (vatom_account.c).
 *
 * Why a file of its own: every part of the device reads a limit or
 * charges an account, and this file needs none of them.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"

struct shim_limits shim_limits;
static pthread_once_t shim_limits_once = PTHREAD_ONCE_INIT;

/* $name as a number, or @def when unset or not one. */
static u64 shim_env_u64(const char *name, u64 def)
{
	const char *s = getenv(name);
	char *end;
	unsigned long long v;

	if (!s || !*s)
		return def;
	errno = 0;
	v = strtoull(s, &end, 0);
	return errno || *end ? def : v;
}

/* The module parameters' defaults and clamps (vatom_limits.c). */
static void shim_limits_init(void)
{
	shim_limits.file_mem_cap = shim_env_u64("VATOM_SHIM_FILE_MEM_CAP",
						VATOM_DEFAULT_FILE_MEM_CAP);
	shim_limits.max_jobs =
		vatom_rule_clamp(shim_env_u64("VATOM_SHIM_MAX_JOBS",
					      VATOM_DEFAULT_MAX_JOBS),
				 VATOM_MIN_MAX_JOBS, VATOM_MAX_MAX_JOBS);
	shim_limits.max_submit_ops =
		vatom_rule_clamp(shim_env_u64("VATOM_SHIM_MAX_SUBMIT_OPS",
					      VATOM_DEFAULT_MAX_SUBMIT_OPS),
				 VATOM_MIN_MAX_SUBMIT_OPS, VATOM_MAX_MAX_SUBMIT_OPS);
	shim_limits.job_timeout_ms =
		vatom_rule_clamp(shim_env_u64("VATOM_SHIM_JOB_TIMEOUT_MS",
					      VATOM_DEFAULT_JOB_TIMEOUT_MS),
				 VATOM_MIN_JOB_TIMEOUT_MS, VATOM_MAX_JOB_TIMEOUT_MS);
	shim_limits.max_schedulers =
		vatom_rule_clamp(shim_env_u64("VATOM_SHIM_MAX_SCHEDULERS",
					      VATOM_DEFAULT_MAX_SCHEDULERS),
				 VATOM_MIN_MAX_SCHEDULERS, VATOM_MAX_MAX_SCHEDULERS);
	/* Bounded: each poller has room for all of a device's queues. */
	shim_limits.max_poll_queues =
		vatom_rule_clamp(shim_env_u64("VATOM_SHIM_MAX_POLL_QUEUES",
					      VATOM_DEFAULT_MAX_POLL_QUEUES),
				 0, VATOM_MAX_MAX_POLL_QUEUES);
}

/**
 * shim_limits_load() - read the limits, once, before the first use
 *
 * Called where a device file opens and where a parameter is read or set:
 * nothing reads &shim_limits before one of those.
 */
void shim_limits_load(void)
{
	pthread_once(&shim_limits_once, shim_limits_init);
}

/* --- the module's parameters, as /sys/module/vatom/parameters shows them */

const struct shim_param shim_params[SHIM_NUM_PARAMS] = {
	{ "file_mem_cap", false },
	{ "max_jobs", false },
	{ "max_submit_ops", false },
	{ "max_poll_queues", false },
	{ "max_schedulers", true },
	{ "job_timeout_ms", true },
	{ "num_devices", false },
};

int shim_param_show(const char *name, char *buf, size_t len)
{
	u64 v = 0;

	shim_limits_load();
	if (!strcmp(name, "file_mem_cap"))
		v = shim_limits.file_mem_cap;
	else if (!strcmp(name, "max_jobs"))
		v = shim_limits.max_jobs;
	else if (!strcmp(name, "max_submit_ops"))
		v = shim_limits.max_submit_ops;
	else if (!strcmp(name, "max_schedulers"))
		v = __atomic_load_n(&shim_limits.max_schedulers, __ATOMIC_RELAXED);
	else if (!strcmp(name, "job_timeout_ms"))
		v = __atomic_load_n(&shim_limits.job_timeout_ms, __ATOMIC_RELAXED);
	else if (!strcmp(name, "num_devices"))
		v = shim_num_devices();
	else if (!strcmp(name, "max_poll_queues"))
		v = shim_limits.max_poll_queues;
	return snprintf(buf, len, "%llu\n", (unsigned long long)v);
}

/* kstrtouint(@buf, 0): an optional '+', a number in C's bases, a newline. */
static int shim_kstrtouint(const char *buf, size_t len, u32 *out)
{
	char s[32], *end;
	unsigned long long v;

	if (len && buf[len - 1] == '\n')
		len--;
	if (!len || len >= sizeof(s) || buf[0] == '-' || buf[0] == ' ')
		return -EINVAL;
	memcpy(s, buf, len);
	s[len] = 0;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (*end || end == s)
		return -EINVAL;
	if (errno == ERANGE || v > UINT32_MAX)
		return -ERANGE;
	*out = v;
	return 0;
}

int shim_param_store(const char *name, const char *buf, size_t len)
{
	u32 v;
	int ret;

	shim_limits_load();
	if (strcmp(name, "job_timeout_ms") && strcmp(name, "max_schedulers"))
		return -EPERM;
	ret = shim_kstrtouint(buf, len, &v);
	if (ret)
		return ret;
	if (!strcmp(name, "job_timeout_ms"))
		__atomic_store_n(&shim_limits.job_timeout_ms,
				 (u32)vatom_rule_clamp(v, VATOM_MIN_JOB_TIMEOUT_MS,
						       VATOM_MAX_JOB_TIMEOUT_MS),
				 __ATOMIC_RELAXED);
	else
		__atomic_store_n(&shim_limits.max_schedulers,
				 (u32)vatom_rule_clamp(v, VATOM_MIN_MAX_SCHEDULERS,
						       VATOM_MAX_MAX_SCHEDULERS),
				 __ATOMIC_RELAXED);
	return 0;
}

/* --- accounts (vatom_account.c) */

int shim_account_charge(struct shim_account *acct, u64 bytes)
{
	if (atomic_fetch_add(&acct->bytes, bytes) + bytes > shim_limits.file_mem_cap) {
		atomic_fetch_sub(&acct->bytes, bytes);
		return -ENOSPC;
	}
	return 0;
}

void shim_account_uncharge(struct shim_account *acct, u64 bytes)
{
	atomic_fetch_sub(&acct->bytes, bytes);
}

void shim_account_put(struct shim_account *acct)
{
	if (atomic_fetch_sub(&acct->refs, 1) == 1)
		free(acct);
}
