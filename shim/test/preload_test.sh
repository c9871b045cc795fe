#!/bin/sh
# SPDX-License-Identifier: MIT
#
# preload.c's host test: build the test shim (preload.c and the other
# files of the libc side, $srcs, with the stub file.c, preload_test_stub.c)
# and preload_test ($tests), then run preload_test under it for one
# device, two, sixteen and bad VATOM_SHIM_DEVICES values.
# TAP on stdout: each run's lines (its description says which run) and
# its own "1..N" plan. Exit status 1 if any run failed.
#
#   shim/test/preload_test.sh [BUILD-DIR]    (default build/shim-test)
#
# STRACE=1: also check, with strace, that no file system call of a run
# (one device) reaches the kernel for /dev/dri or the DRM sysfs entries:
# the shim answers them all. CC and CFLAGS as usual.

set -eu

cd "$(dirname "$0")/../.."
out=${1:-build/shim-test}
cc=${CC:-gcc}
cflags="-std=gnu11 -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE ${CFLAGS:-}"
drm_cflags=$(pkg-config --cflags libdrm)
drm_libs=$(pkg-config --libs libdrm)

# The libc side of the shim: everything but file.c and what it drives
srcs="preload preload_fd preload_io preload_signal preload_fs vfs vnode
fdtable fault devices lock real"
# The program: main() and the TAP output, then the groups of checks
tests="preload_test preload_test_fs preload_test_fd preload_test_fault
preload_test_libdrm"

mkdir -p "$out"
# shellcheck disable=SC2086 # the flags are words
{
	objs=
	for s in $srcs; do
		$cc $cflags -fPIC -fvisibility=hidden -Ishim -Iuapi \
			-c "shim/$s.c" -o "$out/$s.o"
		objs="$objs $out/$s.o"
	done
	$cc $cflags -fPIC -fvisibility=hidden -Ishim -Iuapi $drm_cflags \
		-c shim/test/preload_test_stub.c -o "$out/preload_test_stub.o"
	$cc -shared -Wl,-z,defs -o "$out/libvatom-shim-test.so" \
		$objs "$out/preload_test_stub.o"
	tsrcs=
	for t in $tests; do
		tsrcs="$tsrcs shim/test/$t.c"
	done
	$cc $cflags -Ishim -Iuapi $drm_cflags $tsrcs \
		-o "$out/preload_test" $drm_libs
}

shim=$(cd "$out" && pwd)/libvatom-shim-test.so
status=0

# run VATOM_SHIM_DEVICES|- EXPECTED: one run of the program
run()
{
	if [ "$1" = - ]; then
		env -u VATOM_SHIM_DEVICES PRELOAD_TEST_DEVICES="$2" \
			LD_PRELOAD="$shim" "$out/preload_test" || status=1
	else
		env VATOM_SHIM_DEVICES="$1" PRELOAD_TEST_DEVICES="$2" \
			LD_PRELOAD="$shim" "$out/preload_test" || status=1
	fi
}

run - 1
run 2 2
run 16 16
# not 1..16: one device (and a line on stderr)
run 0 1 2>/dev/null
run 17 1 2>/dev/null
run bogus 1 2>/dev/null

if [ "${STRACE:-0}" = 1 ]; then
	log="$out/strace.log"
	env -u VATOM_SHIM_DEVICES LD_PRELOAD="$shim" \
		strace -f -qq -e trace=%file -o "$log" "$out/preload_test" \
		>/dev/null
	if grep -E '"/(dev/dri|dev/char/226:|sys/dev/char/226:|sys/class/drm|sys/devices/platform/vatom)' \
		"$log"; then
		echo "not ok - strace: DRM paths reached the kernel"
		status=1
	else
		echo "ok - strace: no DRM path reached the kernel"
	fi
	echo "1..1"
fi
exit $status
