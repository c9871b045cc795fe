#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The driver's line and branch coverage in the kernel (issue 39): vatom.ko
# built with GCOV_PROFILE for the 6.12 debug kernel (CONFIG_GCOV_KERNEL:
# scripts/debug-kernel-6.12.config), booted with the debug boots' programs
# (scripts/vm-progs.sh: the selftests, the libvatom test, vatom_load,
# vatom_fault and vatom_fuzz, with and without injected job faults), its
# counts copied out of /sys/kernel/debug/gcov/ after the unload (vm-run.sh
# VM_GCOV=1), and reported by gcovr per file of driver/: a table on
# stdout, HTML in build/coverage/driver/index.html.
#
#   scripts/coverage-driver.sh                the build, the boot, the report
#                                             (make coverage-driver)
#   scripts/coverage-driver.sh --report RUN   the report of a boot already
#                                             run with -o RUN (test.sh's
#                                             vm-debug-6.12: that boot is this
#                                             one, so every full run has it)
#
# Exit status 1 below the bar: driver/ without the engine (which the host
# tests cover, make coverage) >= 95 % of lines and >= 85 % of branches.
# The driver's part counts driver/engine/vatom_rules.h, the UAPI's
# argument checks: beside the engine for the shim's sake, but run by the
# driver's ioctls only (the host's engine tests never call them).
#
# The module is built in build/debug-6.12-gcov-module/, apart from the one
# of `make module KERNEL=debug-6.12`; gcov's paths are that directory's.

set -euo pipefail

SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$SCRIPTS")
export KERNEL=debug-6.12 VATOM_GCOV=1
# env.sh computes this kernel's tree and the gcov module's directory (one
# rule for the scripts this one runs, and for test.sh's boot): not the
# default kernel's, which make exports (make coverage-driver).
unset KDIR KVER MODULE_DIR
eval "$(bash -c '. "$0/env.sh" && echo "KDIR=$KDIR MODULE_DIR=$MODULE_DIR"' "$SCRIPTS")"
HTML=$ROOT/build/coverage/driver
BAR_LINES=95
BAR_BRANCHES=85

if [ "${1:-}" = --report ]; then
	[ $# -eq 2 ] || { echo "usage: $0 [--report RUN_DIR]" >&2; exit 2; }
	OUT=$(realpath "$2")
else
	# shellcheck source=scripts/vm-progs.sh
	. "$SCRIPTS/vm-progs.sh"
	OUT=$ROOT/build/coverage/driver-run
	"$SCRIPTS/debug-kernel.sh" build >&2
	"$SCRIPTS/debug-kernel.sh" module >&2
	make -C "$ROOT" -s userlib tools selftests >&2
	rm -rf "$OUT"
	mkdir -p "$OUT"
	# Two devices, as the debug boots have (scripts/test.sh's vm2_params).
	VATOM_MODPARAMS=num_devices=2 VM_GCOV=1 "$SCRIPTS/vm-run.sh" \
		-t 2400 -o "$OUT" -- sh scripts/vm-tests.sh "${DEBUG_VM_PROGS[@]}" >&2
fi

# gcov-kernel names each count file by the object's path at build time.
counts=$OUT/gcov$MODULE_DIR
n=$(find "$counts" -name '*.gcda' 2>/dev/null | wc -l)
[ "$n" -gt 0 ] || { echo "coverage-driver: no .gcda of $MODULE_DIR came out of the guest ($OUT/gcov)" >&2; exit 1; }
# The counts of this run only, beside the notes the build left.
find "$MODULE_DIR" -name '*.gcda' -delete
(cd "$counts" && find . -name '*.gcda' -exec cp --parents {} "$MODULE_DIR/" \;)

# The notes name the kernel's headers relative to its tree (the build's
# working directory): gcov finds them through these links.
ln -sfn "$KDIR/include" "$MODULE_DIR/include"
ln -sfn "$KDIR/arch" "$MODULE_DIR/arch"
mkdir -p "$HTML"
cd "$MODULE_DIR"
gcovr -r . -f driver/ --json "$OUT/driver.json" \
	--html-details "$HTML/index.html" >/dev/null
echo "# HTML: ${HTML#"$ROOT"/}/index.html"
echo "# the engine, in the kernel:"
"$SCRIPTS/coverage-table.py" "$OUT/driver.json" 0 0 -f 'driver/engine/' \
	-e 'driver/engine/vatom_rules\.h$' | tail -n 2 | head -n 1
echo "# driver/ without the engine, with its rules (bar: $BAR_LINES % of lines, $BAR_BRANCHES % of branches):"
"$SCRIPTS/coverage-table.py" "$OUT/driver.json" "$BAR_LINES" "$BAR_BRANCHES" \
	-e 'driver/engine/(?!vatom_rules\.h$)'
