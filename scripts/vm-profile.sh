#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Where one call's guest instructions go, by function: the counted bench's
# guest (make bench-icount: QEMU -icount, the bench's kernel command line)
# runs one row of vm_bench N times between two marks, and a QEMU plugin
# (bench/iprof.c) counts each translation block executed between them.
# Exact and repeatable like the counted bench itself, so two builds compare
# to the instruction (docs/driver.md, "Where a job's instructions go").
#
#   scripts/vm-profile.sh [-o DIR] [-b BASE_DIR] ROW [N]
#
# ROW: null, p2, p2v, empty or kick (vm_bench -l); N calls (default 2000), after
# one outside the marks. Prints the table of bench/iprof-report.py; keeps
# the counts and the guest's kallsyms in DIR (default
# build/profile/ROW), which -b compares against an earlier run's. One
# vCPU; the guest boots without KASLR, so that symbols stay put.

set -euo pipefail

SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/env.sh
. "$SCRIPTS/env.sh"
cd "$VATOM_ROOT"

usage() { sed -n '10,17p' "$0" >&2; exit 2; }
out=''
base=''
while getopts o:b:h opt; do
	case $opt in
	o) out=$OPTARG ;;
	b) base=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -lt 1 ] || [ $# -gt 2 ]; then usage; fi
row=$1 calls=${2:-2000}
case $row in null|p2|p2v|empty|kick) ;; *) usage ;; esac
case $calls in ''|*[!0-9]*|0) usage ;; esac
out=${out:-build/profile/$row}

make -s -C bench "$PWD/build/bench/vm_bench" "$PWD/build/bench/iprof.so"
[ -f vatom.ko ] || { echo "no vatom.ko: make module" >&2; exit 1; }
addr() { nm build/bench/vm_bench | awk -v s="$1" '$3 == s { print $1 }'; }
start=$(addr vm_bench_profile_start)
stop=$(addr vm_bench_profile_stop)
if [ -z "$start" ] || [ -z "$stop" ]; then
	echo "no marks in vm_bench" >&2
	exit 1
fi

rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
# The bench's guest command line (bench/Makefile), without KASLR.
append=$(make -s -C bench print-vm-append)
VM_ICOUNT=1 VM_SMP=1 VM_APPEND="$append nokaslr" \
VM_QEMU_ARGS="-plugin $PWD/build/bench/iprof.so,arg=out=$out/tb.txt,arg=start=$start,arg=stop=$stop" \
	scripts/vm-run.sh -o "$out" -t 900 -- \
	sh -c "sleep 2 && build/bench/vm_bench -l $row:$calls && cat /proc/kallsyms >/out/kallsyms" \
	>"$out/vm.log" 2>&1 || { tail -n 20 "$out/vm.log" >&2; exit 1; }
grep -qx '# windows 1' "$out/tb.txt" || { echo "no profile window in $out/tb.txt" >&2; exit 1; }
echo "$calls" >"$out/calls"
bench/iprof-report.py "$out" ${base:+"$base"}
