# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# TAP output for the shell checks (sourced): tap STATUS DESCRIPTION prints
# the next test's "ok N - ..." line (status 0) or "not ok N - ...", and
# counts the failures; tap_failed is the script's exit status at the end.

tap_n=0
tap_failures=0

# tap STATUS DESCRIPTION
tap()
{
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_failures=$((tap_failures + 1))
	fi
}

# tap_failed: 0 when no test failed, else 1.
tap_failed()
{
	[ "$tap_failures" -eq 0 ]
}
