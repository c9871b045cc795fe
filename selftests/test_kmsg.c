// SPDX-License-Identifier: GPL-2.0
/*
 * Last test: the kernel logged no splat (BUG, WARNING, Oops, a call trace,
 * lockdep or RCU reports, ...) while the tests ran. A passing ioctl can
 * hide a kernel-side bug that only shows in the log.
 *
 * The harness runs TEST()s (its global fixture) first and then fixtures in
 * declaration order, so this is a fixture of its own, declared last: this
 * file must stay the last one vatom_test.c includes.
 *
 * Part of vatom_test.c's translation unit (see there); not built alone.
 *
 * Copyright (C) 2026 The vatom developers
 */

FIXTURE(zz_after_all) {
	int unused;
};

FIXTURE_SETUP(zz_after_all)
{
}

FIXTURE_TEARDOWN(zz_after_all)
{
}

TEST_F(zz_after_all, kernel_log_clean)
{
	char first[512];
	int n;

	if (!vt_render_path[0])
		SKIP(return, "no vatom device");
	VT_SKIP_ON_SHIM("no kernel of its own: the host's log is not its");
	if (vt_kmsg_start_seq < 0)
		SKIP(return, "cannot read /dev/kmsg (not root?)");
	n = vt_kmsg_scan(vt_kmsg_start_seq, first, sizeof(first));
	ASSERT_LE(0, n) TH_LOG("reading /dev/kmsg: %s", strerror(-n));
	EXPECT_EQ(0, n) TH_LOG("%d kernel log records look like a splat; the first: %s",
			       n, first);
}
