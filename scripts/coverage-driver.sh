#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The driver's line and branch coverage in the kernel (issue 39): vatom.ko
# built with GCOV_PROFILE for the 6.12 debug kernel (CONFIG_GCOV_KERNEL:
# scripts/debug-kernel-6.12.config), booted, driven by what the debug
# boots run (the selftests, the libvatom test, vatom_load, vatom_fault and
# vatom_fuzz with injected job faults), its counts copied out of
# /sys/kernel/debug/gcov/ through the shared /out, and reported by gcovr
# per file of driver/: a table on stdout, HTML in build/coverage/driver/.
#
#   scripts/coverage-driver.sh        (make coverage-driver)
#
# The module is built in build/debug-6.12-gcov-module/, apart from the
# tests' own (not instrumented); gcov paths are that directory's.

set -euo pipefail

SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$SCRIPTS")
export KERNEL=debug-6.12
# env.sh computes this kernel's tree and release: not the default kernel's,
# which make exports (make coverage-driver).
unset KDIR KVER
export MODULE_DIR=$ROOT/build/debug-6.12-gcov-module
# Two devices, as the debug boots have (scripts/test.sh's vm2_params).
export VATOM_MODPARAMS=num_devices=2
OUT=$ROOT/build/coverage/driver-run
HTML=$ROOT/build/coverage/driver

"$SCRIPTS/debug-kernel.sh" build >&2
find "$MODULE_DIR" -name '*.gcda' -delete 2>/dev/null || true
VATOM_GCOV=1 "$SCRIPTS/debug-kernel.sh" module >&2
make -C "$ROOT" -s userlib tools selftests >&2

rm -rf "$OUT"
mkdir -p "$OUT" "$HTML"
# In the guest: the programs, each one's output kept (vatom_load unloads
# and loads the module: its init's failures, its exit); then the module
# unloaded, so that its exit path counts too, and every .gcda under the
# module's build path copied out (gcov-kernel mirrors it, and keeps an
# unloaded module's counts: gcov_persist); then the module loaded again
# for the runner's own unload.
guest="selftests/vatom_test > /out/vatom_test.log 2>&1;
userlib/test/libvatom_test > /out/libvatom_test.log 2>&1;
selftests/vatom_load > /out/vatom_load.log 2>&1;
selftests/vatom_fault -F jobs > /out/vatom_fault.log 2>&1;
selftests/vatom_fuzz -F jobs -t 20 -s 1 > /out/vatom_fuzz.log 2>&1;
rmmod vatom || exit 1;
cd /sys/kernel/debug/gcov$MODULE_DIR &&
for f in \$(find . -name '*.gcda'); do
	mkdir -p /out/gcov/\$(dirname \$f) && cat \$f > /out/gcov/\$f;
done;
insmod /modules/vatom.ko $VATOM_MODPARAMS"
"$SCRIPTS/vm-run.sh" -t 2400 -o "$OUT" -- sh -c "$guest" >&2
n=$(find "$OUT/gcov" -name '*.gcda' 2>/dev/null | wc -l)
[ "$n" -gt 0 ] || { echo "coverage-driver: no .gcda came out of the guest" >&2; exit 1; }
(cd "$OUT/gcov" && find . -name '*.gcda' -exec cp --parents {} "$MODULE_DIR/" \;)

# The notes name the kernel's headers relative to its tree (the build's
# working directory): gcov finds them through these links.
eval "$(KERNEL=$KERNEL bash -c '. "$0/env.sh"; echo KDIR=$KDIR' "$SCRIPTS")"
ln -sfn "$KDIR/include" "$MODULE_DIR/include"
ln -sfn "$KDIR/arch" "$MODULE_DIR/arch"
cd "$MODULE_DIR"
gcovr -r . -f driver/ --json "$OUT/driver.json" \
	--html-details "$HTML/index.html" >/dev/null
echo "# HTML: $HTML/index.html"
echo "# the engine, in the kernel:"
"$SCRIPTS/coverage-table.py" "$OUT/driver.json" 0 0 -f 'driver/engine/' | tail -n 2 | head -n 1
echo "# driver/ without the engine:"
"$SCRIPTS/coverage-table.py" "$OUT/driver.json" 95 85 -e 'driver/engine/'
