#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every test, on a fresh machine or a ready one (the README's test command;
# .ci/run and `make check` call it):
#
#   deps        scripts/deps.sh (apt packages, kernel image, kselftest files);
#               then the debug kernels' builds (scripts/debug-kernel.sh, once
#               per machine: 6.1's and 6.12's, two background jobs) start
#               at low priority while the stages below run
#   build:*     make module (W=1), userlib, tools, selftests, bench: a failure or
#               a compiler/modpost warning is a failed test
#   build:shim, shim:*, shim2:vatom_test
#               the in-process device (libvatom-shim.so, docs/shim.md) on
#               the host: its own tests, vatom_test (1 and 2 devices),
#               libvatom's test, the examples, the demo, the fuzzer
#   install     scripts/install-check.sh: make install into build/dest/,
#               a program built there with pkg-config (run in the vm stage),
#               make uninstall
#   dkms        scripts/dkms-check.sh: dkms build in private trees
#   checkpatch  scripts/checkpatch.sh, one test per file
#   sparse      make sparse (C=2): no sparse warning from driver/ or uapi/
#   runner      scripts/vm-run-check.sh: the VM runner loses no output on
#               a busy host (three boots with busy loops beside them)
#   vm:*        one VM boot (scripts/vm-run.sh) running selftests/vatom_test
#               and userlib/test/libvatom_test, each its own stage; the vm
#               stage itself checks the kernel log and the module unload
#   vm:*        also runs tools/vatom run --tap on each examples/*.vasm
#   vm2:*       the same with vatom.ko num_devices=2 (two render nodes), and
#               20 s of selftests/vatom_fuzz
#   build:module-6.12, -newest, sparse-*, dkms-*, vm-6.12:*, vm-newest:*
#               scripts/kernels.sh: Debian's 6.12 LTS (bookworm-backports)
#               and the newest kernel (trixie-backports, built in a trixie
#               root with gcc-14): W=1 and sparse clean, the vm2 boot on
#               each
#   deb         scripts/deb-check.sh: make deb (lintian clean), the packages
#               apt-installed in a fresh Debian 12 root with the 6.1
#               headers, DKMS's vatom.ko booted with the installed tests
#               run, then apt purge leaves nothing (docs/packaging.md)
#   userlib     make -C userlib check (host checks of libvatom)
#   host-tests  make -C tests check: engine tests plain, ASan+UBSan, fuzz
#   coverage    make -C tests coverage: the engine's lines and branches by
#               the host tests and the fuzz corpus, per file; fails under
#               99 % of lines or 95 % of branches
#   debug-kernel  waits for the debug kernel's build: built, every option of
#               scripts/debug-kernel.config set
#   build:module-debug  make module KERNEL=debug (W=1, build/debug-module/)
#   vm-debug:*  the vm2 boot on the debug kernel (KASAN, lockdep, UBSAN,
#               kmemleak, ...), plus selftests/vatom_fault (fail-nth) and a
#               minute of selftests/vatom_fuzz, then both again with faults
#               injected into jobs (hangs, engine faults, delays: -F jobs,
#               stages vatom_fault-jobs and vatom_fuzz-jobs): 20 s of the
#               fuzzer, with its own seed: any report, or a leak kmemleak
#               finds after the module's unload, fails the vm-debug stage
#   debug-kernel-6.12, build:module-debug-6.12, vm-debug-6.12:*
#               the same three on the 6.12 debug kernel (KERNEL=debug-6.12:
#               drm_sched's workqueues, where 6.1 has its kthread); its
#               boot runs the same programs as vm-debug's, beside vm-debug
#               (one vCPU each): each kernel's stages start when its build
#               is done. Its module is built with gcov
#               (build/debug-6.12-gcov-module/), and
#   coverage-driver  scripts/coverage-driver.sh --report: that boot's
#               counts, the driver's lines and branches per file; fails
#               under 95 % of lines or 85 % of branches (HTML in
#               build/coverage/driver/)
#
# With QUICK=1 or --quick (make check-quick): the 6.1 kernel only, no debug
# kernels or other kernels' stages.
#
# At the end: a table of each stage's seconds and the debug kernels' build
# times (also in build/test-logs/times.txt), then the counts.
#
# All TAP is counted by scripts/tap-summary.sh; the last line is exactly
# "N passed, N failed, N skipped" (a skip is not a pass; a test that
# scripts/must-run.txt says must run in a stage fails it by skipping).
# Exit status 1 if anything failed. Logs are kept in
# build/test-logs/. Environment: JOBS (make -j, default 2), VM_TIMEOUT
# (seconds for a VM run, default 1200), VM_DEBUG_TIMEOUT (for the debug
# kernel's, default 2400), FUZZ_RUNS (tests/Makefile), QUICK.

set -uo pipefail

SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$SCRIPTS/.." && pwd)
cd "$ROOT" || exit 1

JOBS=${JOBS:-2}
QUICK=${QUICK:-}
[ "${1:-}" = --quick ] && QUICK=1
LOG=$ROOT/build/test-logs
STAGES=$LOG/stages.tsv
TIMES=$LOG/times.tsv
rm -rf "$LOG"
mkdir -p "$LOG"
: >"$STAGES"
: >"$TIMES"
t_start=$(date +%s)

banner() { printf '\n# ==== %s ====\n' "$1"; }

# record NAME RC LOG [SECONDS]: one stage for tap-summary.sh, and its
# time for the table at the end.
record()
{
	printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$STAGES"
	[ -n "${4:-}" ] && printf '%s\t%s\n' "$1" "$4" >>"$TIMES"
	echo "# stage $1: exit $2${4:+, $4 s}"
}

# run_tap NAME CMD...: a stage whose command prints TAP itself.
run_tap()
{
	local name=$1 log=$LOG/$1.log t0 rc

	shift
	banner "$name: $*"
	t0=$(date +%s)
	"$@" </dev/null 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	record "$name" "$rc" "$log" $(($(date +%s) - t0))
	return "$rc"
}

# tap_line LOG OK DESCRIPTION [FINDINGS]: the one TAP line of a stage whose
# command prints no TAP, with its findings as diagnostics.
tap_line()
{
	local log=$1 ok=$2 desc=$3 findings=${4:-}

	{
		if [ "$ok" = ok ]; then
			echo "ok 1 - $desc"
		else
			echo "not ok 1 - $desc"
			[ -n "$findings" ] && sed 's/^/# /' <<<"$findings"
		fi
	} | tee -a "$log"
}

# run_check NAME DESCRIPTION PATTERN CMD...: passes if CMD exits 0 and
# prints no line matching PATTERN (grep -E; empty: no pattern).
run_check()
{
	local name=$1 desc=$2 pattern=$3 log=$LOG/$1.log t0 rc findings=

	shift 3
	banner "$name: $*"
	t0=$(date +%s)
	"$@" </dev/null 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	[ -n "$pattern" ] && findings=$(grep -E "$pattern" "$log")
	if [ "$rc" -eq 0 ] && [ -z "$findings" ]; then
		tap_line "$log" ok "$desc"
	else
		[ "$rc" -ne 0 ] && findings="exit status $rc${findings:+$'\n'}$findings"
		tap_line "$log" "not ok" "$desc" "$findings"
		[ "$rc" -eq 0 ] && rc=1
	fi
	record "$name" "$rc" "$log" $(($(date +%s) - t0))
	return "$rc"
}

# --- dependencies
run_check deps "dependencies installed (scripts/deps.sh)" "" scripts/deps.sh
# shellcheck source=scripts/env.sh
. "$SCRIPTS/env.sh"

# The debug kernels build in the background (nice 19, idle I/O: the stages
# keep the CPU they need) while the other stages run, each in a job of its
# own, together: they share what the stages leave, and are done at about
# the same time, so that their two one-vCPU boots, last, fill both cores.
# One after the other, the second kernel's build had only the core its
# predecessor's boot left it, and its own boot ran alone at the end. Built
# already: it returns at once. Each kernel's log is
# debug-kernel[-6.12]-build.log, its exit status beside it (.rc) when its
# build is over.
DEBUG_KERNELS=(debug debug-6.12)
declare -A debug_pid=()
if [ -z "$QUICK" ]; then
	banner "debug kernels: scripts/debug-kernel.sh build, in the background"
	for k in "${DEBUG_KERNELS[@]}"; do
		echo "# log: ${LOG#"$ROOT"/}/debug-kernel${k#debug}-build.log"
		{
			KERNEL=$k scripts/debug-kernel.sh build </dev/null \
				>"$LOG/debug-kernel${k#debug}-build.log" 2>&1
			echo $? >"$LOG/debug-kernel${k#debug}-build.rc"
		} &
		debug_pid[$k]=$!
	done
fi

# --- builds: compiler and modpost warnings are failures
WARN='(warning|error):|WARNING:|ERROR:'
module_ok=1
run_check build:module "make module (W=1), no warnings" "$WARN" \
	make -j"$JOBS" module || module_ok=
for t in userlib tools selftests; do
	run_check "build:$t" "make $t, no warnings" "$WARN" make -j"$JOBS" "$t"
done
# The benches run only by hand (make bench), so a change that breaks them
# would otherwise go unseen until someone measures.
run_check build:bench "make -C bench all (engine_bench, vm_bench), no warnings" \
	"$WARN" make -C bench all

# --- the in-process device: libvatom-shim.so (docs/shim.md), no VM and
# no module, so first: seconds. The guest's programs, linked dynamically
# (nothing can be preloaded into a static program), with the library
# preloaded: its own tests, vatom_test (one device, then two), the
# library's test, the examples and the demo through `vatom --shim`, and
# the fuzzer. scripts/must-run.txt says which tests may skip there, and
# why: the rest must run.
SHIM_LIB=$ROOT/build/shim/libvatom-shim.so
build_shim()
{
	make -j"$JOBS" -C shim && make -C tools shim && make -C selftests shim
}
on_shim()
{
	LD_PRELOAD=$SHIM_LIB LD_LIBRARY_PATH=$ROOT/userlib "$@"
}
shim_examples()
{
	local f rc=0

	for f in examples/*.vasm; do
		tools/vatom --shim run --tap "$f" || rc=1
	done
	return $rc
}
run_check build:shim "make -C shim; the dynamically linked vatom and selftests, no warnings" \
	"$WARN" build_shim
run_tap shim:unit make -s -C shim check
run_tap shim:vatom_test on_shim build/shim/selftests/vatom_test
run_tap shim2:vatom_test env VATOM_SHIM_DEVICES=2 LD_PRELOAD="$SHIM_LIB" \
	build/shim/selftests/vatom_test
run_tap shim:libvatom_test on_shim userlib/test/libvatom_test-dyn
run_tap shim:vatom_run shim_examples
run_check shim:demo "vatom --shim demo: every family's self-checking demo, OK" "" \
	tools/vatom --shim demo
run_tap shim:vatom_fuzz on_shim build/shim/selftests/vatom_fuzz -t 20 -s 1

# --- installing: make install into a staging root (the program it builds
# there with pkg-config runs in the vm stage), and DKMS for the default
# kernel (the other kernels' DKMS builds are with their stages)
run_tap install scripts/install-check.sh build/dest
run_check dkms "dkms build for $KVER (private DKMS trees)" "" \
	scripts/dkms-check.sh / "$KDIR" "$KVER"

# --- style and static checks
run_tap checkpatch scripts/checkpatch.sh

# Sparse reports on our files only; the kernel headers are not ours to fix.
run_check sparse "make sparse (C=2): no warnings in driver/ or uapi/" \
	"^($ROOT/|\./)?(driver|uapi)/[^:]*:[0-9]+:[0-9]+: (warning|error):" \
	make -j"$JOBS" sparse

# --- the VM
# [KERNEL=debug|debug-6.12] run_vm NAME MODPARAMS PROGRAM...: one boot with
# vatom.ko loaded with MODPARAMS, running each PROGRAM as a stage
# NAME:PROGRAM; the stage NAME checks the kernel log and the module unload
# (and, on a debug kernel, kmemleak's scan after it).
run_vm()
{
	local name=$1 params=$2 out=$LOG/$1 log=$LOG/$1.log t0 secs=0
	local p n rc marker wall desc ok=$module_ok timeout=${VM_TIMEOUT:-1200}

	shift 2
	desc="$name: booted, ran the tests, clean kernel log, module unloaded"
	if [ "${KERNEL:-default}" != default ]; then
		ok=$debug_module_ok
		timeout=${VM_DEBUG_TIMEOUT:-2400}
		desc="$desc, no leak"
	fi
	banner "$name: $*${params:+ (vatom.ko $params)}"
	[ "${KERNEL:-default}" != default ] &&
		echo "# a debug kernel (KERNEL=$KERNEL)"
	mkdir -p "$out"
	if [ -n "$ok" ]; then
		t0=$(date +%s)
		VATOM_MODPARAMS="$params" scripts/vm-run.sh \
			-t "$timeout" -o "$out" -- \
			sh scripts/vm-tests.sh "$@" </dev/null 2>&1 | tee "$log"
		secs=$(($(date +%s) - t0))
	else
		echo "# vm: not run, the module did not build" | tee "$log"
	fi
	for p in "$@"; do
		n=$(sh scripts/vm-tests.sh --name "$p")
		rc=$(cat "$out/$n.rc" 2>/dev/null || echo "1")
		record "$name:$n" "$rc" "$out/$n.log"
	done
	marker=$(grep -a '^# vatom-vm: status=' "$log" | tail -n 1)
	if [ -z "$marker" ]; then
		tap_line "$LOG/$name-check.log" "not ok" "$desc" \
			"$(sed -n 's/^# vm: //p' "$log" | tail -n 3)"
		record "$name" 1 "$LOG/$name-check.log" "$secs"
	elif [[ "$marker" == *" splat=0 unload=0 "* &&
		"$marker" != *" leak=1 "* ]]; then
		tap_line "$LOG/$name-check.log" ok "$desc"
		record "$name" 0 "$LOG/$name-check.log" "$secs"
	else
		tap_line "$LOG/$name-check.log" "not ok" "$desc" "$marker"
		record "$name" 1 "$LOG/$name-check.log" "$secs"
	fi
	wall=$(grep -a '^# vm: status' "$log" | sed -n 's/.*wall \([0-9.]*\) s.*/\1/p')
	echo "# $name run wall time: ${wall:-?} s (boot, tests and shutdown; stage $secs s)"
}

# The runner itself first: every line a guest prints reaches the host, on
# a busy host (the stages below read their results through it).
run_tap runner scripts/vm-run-check.sh 3

# Each entry is a program and its arguments (scripts/vm-tests.sh), from
# scripts/vm-progs.sh. vatom_load unloads the module and loads it again
# (parameters refused and clamped), then as it was: the programs after it
# run on a reloaded module.
# shellcheck source=scripts/vm-progs.sh
. "$SCRIPTS/vm-progs.sh"
vm_progs=("${VM_PROGS[@]}")
run_progs=()
for f in examples/*.vasm; do
	run_progs+=("tools/vatom run --tap $f")
done
# The differential: the fuzzer's deterministic phase on the device and on
# the in-process device (libvatom-shim.so), seeded, 30 s; every answer,
# fence and surface byte the same (selftests/fuzz_trace.c).
run_vm vm "" "${vm_progs[@]}" "${run_progs[@]}" build/dest/pkgconfig-hello \
	"build/shim/selftests/vatom_fuzz -t 30 -s 1 -D shim"
# Two devices: discovery lists both, and the multi-device tests run; and
# 20 s of the fuzzer, seeded (a failure names the seed to rerun). The job
# timeout is the tests' to shorten (test_reset.c), at run time.
vm2_params="num_devices=2"
run_vm vm2 "$vm2_params" "${vm_progs[@]}" "selftests/vatom_fuzz -t 20 -s 1"

# --- the Debian packages, installed as a user would in a fresh Debian 12
# root: DKMS's module and the installed programs in the VM, then removed
run_tap deb scripts/deb-check.sh

# --- host tests
run_check userlib "make -C userlib check (host checks)" "" \
	make -C userlib check
# Built in parallel first, then run one program at a time.
host_tests()
{
	make -j"$JOBS" -C tests all >/dev/null && make -C tests check
}
run_tap host-tests host_tests
# The engine's line and branch coverage by the same tests and the fuzz
# corpus (gcov, -O0): one table, and a failure below the bar.
run_check coverage \
	"make coverage: the engine's host coverage, >= 99 % of lines, >= 95 % of branches" \
	"" make -C tests coverage

# --- the other kernels people run: Debian's 6.12 LTS and the newest
# (scripts/kernels.sh): W=1 and sparse clean, and the vm2 boot on each.
# kernel_var LOG NAME: a variable scripts/kernels.sh printed into LOG.
kernel_var()
{
	sed -n "s/^$2=//p" "$1" | tail -n 1
}

if [ -z "$QUICK" ]; then
	for target in 6.12 newest; do
		klog=$LOG/build:module-$target.log
		if run_check "build:module-$target" \
			"scripts/kernels.sh module $target (W=1), no warnings" \
			"$WARN" scripts/kernels.sh module "$target"; then
			run_check "sparse-$target" \
				"sparse (C=2) on $target: no warnings in driver/ or uapi/" \
				"^($ROOT/)?build/kernels/[^/]*/(driver|uapi)/[^:]*:[0-9]+:[0-9]+: (warning|error):" \
				scripts/kernels.sh sparse "$target"
			run_check "dkms-$target" "dkms build for $target" "" \
				scripts/dkms-check.sh "$(kernel_var "$klog" KROOT)" \
				"$(kernel_var "$klog" KDIR)" "$(kernel_var "$klog" KVER)"
			KVER=$(kernel_var "$klog" KVER) KIMG=$(kernel_var "$klog" KIMG) \
			VATOM_KO=$(kernel_var "$klog" VATOM_KO) \
				run_vm "vm-$target" "$vm2_params" "${vm_progs[@]}"
		else
			module_ok='' run_vm "vm-$target" "$vm2_params" "${vm_progs[@]}"
		fi
	done
fi

# --- the debug kernels: the vm2 boot again, on KASAN, lockdep, UBSAN, ...
# finish_debug_build K: debug kernel K's background build: its log and exit
# status.
finish_debug_build()
{
	cat "$LOG/debug-kernel${1#debug}-build.log"
	return "$debug_rc"
}

# wait_debug_build K: wait for K's background build; its exit status in
# debug_rc.
wait_debug_build()
{
	local rc=$LOG/debug-kernel${1#debug}-build.rc

	while [ ! -f "$rc" ] && kill -0 "${debug_pid[$1]}" 2>/dev/null; do
		sleep 5
	done
	debug_rc=$(cat "$rc" 2>/dev/null || echo 1)
}

# debug_stages K: the stages of debug kernel K (debug: 6.1, debug-6.12):
# debug-kernel[-6.12], build:module-K and the vm-K boot.
debug_stages()
{
	local k=$1 v=${1#debug} t0

	banner "debug-kernel$v: waiting for the background build"
	t0=$(date +%s)
	wait_debug_build "$k"
	echo "# waited $(($(date +%s) - t0)) s for the debug kernel${v:+ ${v#-}}"
	debug_module_ok=
	# The 6.12 boot is also the driver's coverage run: its module is
	# built with gcov (a directory of its own), its counts copied out
	# after the unload and reported against the bar
	# (scripts/coverage-driver.sh).
	if [ "$k" = debug-6.12 ]; then
		# env.sh: the module in build/debug-6.12-gcov-module/
		export VATOM_GCOV=1 VM_GCOV=1
	fi
	if run_check "debug-kernel$v" \
		"debug kernel${v:+ ${v#-}} built (${v:+KERNEL=$k }scripts/debug-kernel.sh)" \
		"" finish_debug_build "$k"; then
		run_check "build:module-$k" \
			"make module KERNEL=$k (W=1), no warnings" "$WARN" \
			make -j"$JOBS" module KERNEL="$k" && debug_module_ok=1
	else
		tap_line "$LOG/build:module-$k.log" "not ok" \
			"make module KERNEL=$k: not run, no debug kernel"
		record "build:module-$k" 1 "$LOG/build:module-$k.log"
	fi
	KERNEL=$k run_vm "vm-$k" "$vm2_params" "${DEBUG_VM_PROGS[@]}"
	[ "$k" = debug-6.12 ] || return 0
	if [ -n "$debug_module_ok" ]; then
		run_check coverage-driver \
			"the driver's coverage in vm-debug-6.12, >= 95 % of lines, >= 85 % of branches" \
			"" scripts/coverage-driver.sh --report "$LOG/vm-$k"
	else
		tap_line "$LOG/coverage-driver.log" "not ok" \
			"the driver's coverage: not measured, no debug module"
		record coverage-driver 1 "$LOG/coverage-driver.log"
	fi
}

# The two debug kernels' stages run side by side, each as soon as its
# kernel is built: their boots have one vCPU each, so together they fill
# the two cores where one after the other each left one idle (on a ready
# machine the pair takes as long as vm-debug alone). Each one's output is
# kept and shown whole when both are done.
if [ -z "$QUICK" ]; then
	banner "debug kernels: ${DEBUG_KERNELS[*]}, side by side (each one's output follows when both are done)"
	debug_jobs=()
	for k in "${DEBUG_KERNELS[@]}"; do
		debug_stages "$k" >"$LOG/debug-stages${k#debug}.out" 2>&1 &
		debug_jobs+=($!)
	done
	wait "${debug_jobs[@]}"
	wait "${debug_pid[@]}"
	for k in "${DEBUG_KERNELS[@]}"; do
		cat "$LOG/debug-stages${k#debug}.out"
	done
fi

# time_table: seconds per stage (those with a time: the builds, checks and
# VM boots; the programs inside a boot share its time), then the debug
# kernels' builds, which run in the background beside the stages.
time_table()
{
	local name secs total=$(($(date +%s) - t_start)) dir build k what

	echo "# ---- time per stage (s) ----"
	while IFS=$'\t' read -r name secs; do
		printf '# %-24s %5d\n' "$name" "$secs"
	done <"$TIMES"
	if [ -z "$QUICK" ]; then
		for k in "${DEBUG_KERNELS[@]}"; do
			what=${k#debug}
			what="debug kernel${what:+ ${what#-}} build"
			dir=$(KERNEL=$k "$SCRIPTS/debug-kernel.sh" dir)
			build=$(sed -n 's/^build_seconds //p' "$dir/.complete" 2>/dev/null)
			if grep -q '^debug-kernel: built ' \
				"$LOG/debug-kernel${k#debug}-build.log" 2>/dev/null; then
				printf '# %-24s %5d (in the background, this run)\n' \
					"$what" "${build:-0}"
			elif [ -n "$build" ]; then
				printf '# %-24s %5s (built before this run, in %s s)\n' \
					"$what" - "$build"
			else
				printf '# %-24s %5s (not built)\n' "$what" -
			fi
		done
	fi
	printf '# %-24s %5d\n' total "$total"
}

echo
time_table | tee "$LOG/times.txt"
echo "# logs in ${LOG#"$ROOT"/}/"
"$SCRIPTS/tap-summary.sh" "$STAGES"
