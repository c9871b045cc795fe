# SPDX-License-Identifier: GPL-2.0
#
# The programs of the test boots, as scripts/vm-tests.sh takes them (a
# path in the repository with its arguments in the same word), sourced by
# scripts/test.sh and scripts/coverage-driver.sh so that the driver's
# coverage is what the debug boots reach.
# shellcheck shell=bash

# shellcheck disable=SC2034 # used by the scripts that source this file
VM_PROGS=(selftests/vatom_test userlib/test/libvatom_test selftests/vatom_load)

# The debug kernels' boot: VM_PROGS, then every allocation failed in turn
# (fail-nth) and a minute of fuzzing; then both with faults injected into
# jobs (-F jobs: files reset, the job timeout short), which adds about 50 s.
# shellcheck disable=SC2034
DEBUG_VM_PROGS=("${VM_PROGS[@]}" selftests/vatom_fault
		"selftests/vatom_fuzz -t 60 -s 1"
		"selftests/vatom_fault -F jobs"
		"selftests/vatom_fuzz -t 20 -s 2 -F jobs")
