#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run a command in a QEMU guest booting Debian's own 6.1 kernel (or, with
# KERNEL=debug or debug-6.12, a debug kernel of scripts/debug-kernel.sh) with
# vatom.ko loaded. Never loads anything into the host kernel.
#
#   scripts/vm-run.sh [options] [--] CMD...
#
# CMD runs as root with /bin/sh in the repository (shared read-only over 9p at
# /vatom, and also reachable under the host's path). One argument is a shell
# command line ('selftests/vatom_test -v'); several arguments are one command
# and its arguments, quoted as given. Without CMD: an interactive shell.
#
# Options:
#   -t SECONDS    time limit for boot + CMD (default 300, debug kernel 900,
#                 VM_TIMEOUT); 0: none
#   -o DIR        share host DIR read-write at /out (results to keep)
#   -n            boot without vatom.ko (--no-module)
#   -d            print the guest's whole kernel log (--dmesg)
#   -k, -K        after the run, have kmemleak scan and fail on any leak
#                 (--kmemleak), or not (--no-kmemleak); the debug kernel
#                 only, where it is the default (VM_KMEMLEAK=1|0)
#   -h            this help
# Environment:
#   KERNEL=debug     boot the debug kernel (KASAN, lockdep, kmemleak, UBSAN:
#                    scripts/debug-kernel.sh builds it) with the module that
#                    `make module KERNEL=debug` built in build/debug-module/
#   KERNEL=debug-6.12  the same on 6.12 (build/debug-6.12-module/)
#   VATOM_KO         module to load (default: ./vatom.ko, built by make module;
#                    KERNEL=debug: build/debug-module/vatom.ko)
#   VATOM_MODPARAMS  its parameters ("a=1 b=2")
#   VM_SMP, VM_MEM   vCPUs and memory (2, 1G; debug kernel 1, 2G: with two
#                    vCPUs it hangs bringing up the second under TCG)
#   VM_CPU           QEMU's -cpu (default max,la57=off)
#   VM_ICOUNT=1      count instead of time: QEMU's -icount shift=0,sleep=off
#                    (the guest clock advances 1 ns per guest instruction,
#                    whatever the host does: per-call costs stable to the
#                    digit at any load); one vCPU unless VM_SMP says more
#                    (then the others come online from /init); any other
#                    value is -icount's options
#   VM_MODULES       more modules of the kernel image to load (names)
#   VM_APPEND        more kernel command line
#   VM_QEMU_ARGS     more QEMU arguments, split at spaces (e.g. a TCG
#                    plugin: bench/iprof.c's -plugin)
#   VM_FILES         more host programs or files to copy into the guest at
#                    their host paths, with the shared libraries they need
#                    (e.g. VM_FILES=/usr/bin/perf to profile in the guest)
#   VM_TREE          a directory copied into the guest's root as it is
#                    (e.g. files installed from packages: DIR/usr/lib/...
#                    lands at /usr/lib/...), with the host's shared
#                    libraries its programs need beyond those it holds
#   VM_CONSOLE=1     print the guest's kernel console at the end
#   VM_BOOT_STALL    seconds the guest kernel may print nothing before it
#                    reaches /init (default 120; 0: never)
#   VM_BOOT_LIMIT    seconds it may take to reach /init at all, however
#                    much it prints (default 300, debug kernel 600; 0:
#                    never)
#   VM_BOOT_TRIES    boots to try (default 3) when a boot fails before
#                    /init: a stall or the limit above, a kernel report
#                    (BUG, KASAN, Oops, panic) or a flooded console. All of
#                    these happen before vatom.ko is loaded: TCG guests
#                    sometimes stop early in boot (the debug kernel in
#                    "Running RCU-tasks wait API self tests").
#   VM_CONSOLE_MAX   MiB of kernel console kept before the run is stopped
#                    as flooded (default 64)
#   VM_GCOV=1        after the unload, copy gcov-kernel's counts (every
#                    .gcda under /sys/kernel/debug/gcov: a module built with
#                    GCOV_PROFILE, on a kernel with CONFIG_GCOV_KERNEL) to
#                    -o DIR's gcov/, at their paths under that directory
#
# Exit status: CMD's exit status; 1 if the kernel log shows a bug, warning,
# lockdep or RCU report, if kmemleak reports a leak, or if the module fails
# to unload; 124 on timeout; 1 if the guest died (kernel panic) or the VM
# could not be started.
#
# The guest's stdout/stderr stream to stdout. Lines the runner adds start
# with "# vm:" or "# vatom-vm:" (TAP comments).

set -euo pipefail

SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/env.sh
. "$SCRIPTS/env.sh"

usage()
{
	sed -n '/^#   scripts/,/^# with/s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
	exit "${1:-0}"
}

msg() { echo "# vm: $*"; }

debug=
[ "$KERNEL" != default ] && debug=1
timeout_s=${VM_TIMEOUT:-${debug:+900}}
timeout_s=${timeout_s:-300}
outdir=
load_module=1
show_dmesg=
kmemleak=${VM_KMEMLEAK:-${debug:+1}}
[ "$kmemleak" = 0 ] && kmemleak=
while [ $# -gt 0 ]; do
	case "$1" in
	-t) timeout_s=$2; shift 2 ;;
	-t*) timeout_s=${1#-t}; shift ;;
	-o) outdir=$2; shift 2 ;;
	-n|--no-module) load_module=; shift ;;
	-d|--dmesg) show_dmesg=1; shift ;;
	-k|--kmemleak) kmemleak=1; shift ;;
	-K|--no-kmemleak) kmemleak=; shift ;;
	-h|--help) usage 0 ;;
	--) shift; break ;;
	-*) echo "vm-run: unknown option $1" >&2; usage 2 >&2 ;;
	*) break ;;
	esac
done

interactive=
[ $# -eq 0 ] && interactive=1
if [ -n "$interactive" ] && [ -z "${VM_TIMEOUT:-}" ]; then
	timeout_s=0
fi

if [ -n "$kmemleak" ] && [ -z "$debug" ]; then
	msg "kmemleak needs a debug kernel (KERNEL=debug or debug-6.12)"
	exit 1
fi

vmlinuz=$KIMG/boot/vmlinuz-$KVER
moddir=$KIMG/lib/modules/$KVER
if [ -z "$KVER" ] || [ ! -f "$vmlinuz" ] || [ ! -f "$moddir/modules.dep" ]; then
	if [ -n "$debug" ]; then
		msg "no debug kernel in $KIMG: run KERNEL=$KERNEL scripts/debug-kernel.sh" \
		    "(make debug-kernel KERNEL=$KERNEL)"
	else
		msg "no kernel image in $KIMG: run scripts/deps.sh"
	fi
	exit 1
fi

ko=
module=
if [ -n "$load_module" ]; then
	ko=${VATOM_KO:-$MODULE_DIR/vatom.ko}
	if [ ! -f "$ko" ]; then
		msg "$ko not found: run 'make module${debug:+ KERNEL=$KERNEL}'" \
		    "(or set VATOM_KO, or -n)"
		exit 1
	fi
	vermagic=$(/sbin/modinfo -F vermagic "$ko")
	if [ "${vermagic%% *}" != "$KVER" ]; then
		msg "$ko is built for '${vermagic%% *}', the VM runs $KVER"
		exit 1
	fi
	module=$(/sbin/modinfo -F name "$ko" 2>/dev/null || true)
	[ -n "$module" ] || module=$(basename "$ko" .ko | tr - _)
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/vatom-vm.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/initramfs
mkdir -p "$root"/{bin,sbin,etc,modules,lib64,dev,proc,sys,tmp,vatom,out}

# --- userspace: busybox, plus the host's loader and shared libraries so that
# dynamically linked programs built in the repository run in the guest.
cp /bin/busybox "$root/bin/busybox"
cp "$SCRIPTS/vm-init.sh" "$root/init"
chmod 0755 "$root/init"

add_file()
{
	[ -e "$root$1" ] && return 0
	mkdir -p "$root$(dirname "$1")"
	cp -L "$1" "$root$1"
}

# $1 and the host libraries it needs (ldd), except the repository's own,
# which the guest finds over 9p through LD_LIBRARY_PATH.
add_elf_deps()
{
	local lib

	for lib in $(ldd "$1" 2>/dev/null | grep -o '/[^ ]*' || true); do
		case "$lib" in
		"$VATOM_ROOT"/*|"${tree:-/nonexistent}"/*) ;;
		*) [ -f "$lib" ] && add_file "$lib" ;;
		esac
	done
}

is_elf()
{
	[ "$(head -c 4 "$1" 2>/dev/null | od -An -c | tr -d ' ')" = '177ELF' ]
}

add_file /bin/bash
add_elf_deps /bin/bash
ldcache=$(/sbin/ldconfig -p)
for lib in libdrm.so.2 libm.so.6 libpthread.so.0 libdl.so.2 librt.so.1 \
	   libgcc_s.so.1; do
	path=$(awk -v l="$lib" '$1 == l && /x86-64/ { print $NF }' <<<"$ldcache" |
	       head -n 1)
	if [ -n "$path" ]; then
		add_file "$path"
		add_elf_deps "$path"
	fi
done
while IFS= read -r -d '' f; do
	is_elf "$f" && add_elf_deps "$f"
done < <(find "$VATOM_ROOT"/userlib "$VATOM_ROOT"/tools "$VATOM_ROOT"/selftests \
	      "$VATOM_ROOT"/bench -maxdepth 3 -type f \
	      \( -perm -u+x -o -name '*.so*' \) -print0 2>/dev/null)

for f in ${VM_FILES:-}; do
	add_file "$f"
	is_elf "$f" && add_elf_deps "$f"
done

# The tree's libraries resolve from the tree itself (ldd with its library
# directories first); the host's are added as for the repository's.
tree=
if [ -n "${VM_TREE:-}" ]; then
	tree=$(cd "$VM_TREE" && pwd)
	cp -a "$tree/." "$root/"
	treelibs=$(find "$tree" -name '*.so*' -printf '%h\n' | sort -u | paste -sd:)
	while IFS= read -r -d '' f; do
		is_elf "$f" &&
			LD_LIBRARY_PATH=$treelibs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
			add_elf_deps "$f"
	done < <(find "$tree" -type f -print0)
fi

# --- modules: the image's, in dependency order (modprobe reads the
# modules.dep deps.sh built), then the module under test.
modules="virtio_pci 9pnet_virtio 9p drm drm_shmem_helper vgem ${VM_MODULES:-}"
if [ -n "$ko" ]; then
	modules="$modules $(/sbin/modinfo -F depends "$ko" | tr , ' ')"
fi
: >"$root/modules/order"
for m in $modules; do
	/sbin/modprobe -d "$KIMG" -S "$KVER" --show-depends "$m" |
		awk '$1 == "insmod" { print $2 }'
done | awk '!seen[$0]++' | while read -r f; do
	cp "$f" "$root/modules/"
	basename "$f" >>"$root/modules/order"
done
[ -n "$ko" ] && cp "$ko" "$root/modules/$module.ko"

# --- the run's settings and command
# Under instruction counting, vCPUs past the first come online from /init
# (the boot below says why).
online_cpus=
[ -n "${VM_ICOUNT:-}" ] && [ "${VM_SMP:-1}" -gt 1 ] && online_cpus=1
shq() { printf "'%s'" "${1//\'/\'\\\'\'}"; }
{
	echo "MODULE=$(shq "$module")"
	echo "VATOM_MODPARAMS=$(shq "${VATOM_MODPARAMS:-}")"
	echo "HOST_ROOT=$(shq "$VATOM_ROOT")"
	echo "VM_OUT=$(shq "$outdir")"
	echo "INTERACTIVE=$interactive"
	echo "SHOW_DMESG=$show_dmesg"
	echo "KMEMLEAK=$kmemleak"
	echo "ONLINE_CPUS=$online_cpus"
	echo "GCOV=${VM_GCOV:-}"
} >"$root/etc/vatom-vm.conf"
if [ $# -eq 1 ]; then
	printf '%s\n' "$1" >"$root/etc/vatom-cmd.sh"
elif [ $# -gt 1 ]; then
	for a in "$@"; do printf '%s ' "$(shq "$a")"; done >"$root/etc/vatom-cmd.sh"
	echo >>"$root/etc/vatom-cmd.sh"
fi

(cd "$root" && find . | cpio -o -H newc --quiet) >"$work/initramfs.cpio"

# --- boot
console=$work/console.log
append="console=ttyS0 oops=panic panic=-1 mitigations=off"
mem=${VM_MEM:-1G}
smp=${VM_SMP:-2}
machine=
if [ -n "$debug" ]; then
	# Every KASAN report, not only the first; readable pointers in them.
	append="$append kasan_multi_shot no_hash_pointers"
	# KASAN's shadow (1/8) and quarantine, kmemleak's objects.
	mem=${VM_MEM:-2G}
	# Under TCG this kernel hangs bringing up a second vCPU (after
	# "Running RCU-tasks wait API self tests"): one vCPU.
	smp=${VM_SMP:-1}
	# The q35 machine, whose ACPI tables route PCI interrupts with a
	# fixed package. The default machine's _PRT is an AML loop that the
	# debug kernel's interpreter, under kmemleak, ran into ACPI's 30 s
	# loop timeout on every boot (boot 42 s, 12 s on q35).
	machine=q35
fi
# The same guest CPU on every host and every boot: -cpu max less LA57.
# With 5-level paging the debug kernel's boot could take a KASAN
# wild-memory-access in an interrupt during identify_cpu and report in a
# loop (a direct-map address of the 5-level layout); 4-level paging is
# what the kernels under test run on real machines anyway.
cpu=${VM_CPU:-max,la57=off}
# With more than one vCPU, tsc=reliable: no clocksource watchdog on the
# TSC. On a busy host a late HPET read made the guest mark its TSC
# unstable mid-run, a switch that patches the kernel's text (static keys)
# while other vCPUs run it, which TCG does not always survive: one 6.12
# guest reset itself, silently, right after "sched_clock: Marking
# unstable". QEMU's TCG TSC follows the host's clock on every vCPU. Not
# with one vCPU (the debug kernel's): nothing runs beside the patching,
# and there it made the early-boot stall in the RCU-tasks self tests
# frequent (2 boots of 3).
[ -n "${VM_ICOUNT:-}" ] && smp=${VM_SMP:-1}
[ "$smp" -gt 1 ] && append="$append tsc=reliable"
# Under instruction counting the 6.1 guest stalls bringing up its second
# vCPU at boot (any shift, sleep on or off, -cpu qemu64, without the TSC
# deadline timer); onlined from /init, after the boot, it comes up at once.
[ -n "$online_cpus" ] && append="$append maxcpus=1"
qemu=(qemu-system-x86_64
	-accel tcg -cpu "$cpu" -smp "$smp" -m "$mem" ${machine:+-machine "$machine"}
	-nodefaults -display none -monitor none -no-reboot
	-kernel "$vmlinuz" -initrd "$work/initramfs.cpio"
	-append "$append ${VM_APPEND:-}"
	-serial "file:$console"
	-chardev stdio,id=guest,signal=off -serial chardev:guest
	-device isa-debug-exit,iobase=0xf4,iosize=0x04
	-virtfs "local,path=$VATOM_ROOT,mount_tag=vatom,security_model=none,readonly=on")
# shellcheck disable=SC2206 # split at spaces, as documented
[ -n "${VM_QEMU_ARGS:-}" ] && qemu+=($VM_QEMU_ARGS)
if [ -n "${VM_ICOUNT:-}" ]; then
	[ "$VM_ICOUNT" = 1 ] && VM_ICOUNT=shift=0,sleep=off
	qemu+=(-icount "$VM_ICOUNT")
fi
if [ -n "$outdir" ]; then
	mkdir -p "$outdir"
	qemu+=(-virtfs "local,path=$(cd "$outdir" && pwd),mount_tag=out,security_model=none")
fi

out=$work/out.log
verdict=$work/verdict
t0=$(date +%s.%N)

# What a kernel prints when it has gone wrong: before /init that is the
# boot's problem (vatom.ko is not loaded yet), so such a boot is retried.
BOOT_REPORT='BUG: |KASAN: |UBSAN: |Kernel panic|Oops|general protection fault|kernel BUG'

# stop_qemu QPID VERDICT: record why, then stop QEMU (timeout forwards it).
stop_qemu()
{
	echo "$2" >"$verdict"
	kill "$1" 2>/dev/null
}

# watch QPID: follows the kernel console while QEMU (under timeout, QPID)
# runs, and stops it on the first of these, leaving the reason in $verdict:
#   boot: the kernel has not reached /init: silent for VM_BOOT_STALL s,
#         or VM_BOOT_LIMIT s since the start, or it printed a kernel report,
#         or its console grew past VM_CONSOLE_MAX MiB (the boot is retried)
#   run:  the console grew past VM_CONSOLE_MAX MiB after /init (a report
#         in a loop: the run fails, the disk is not filled)
# Silence alone is not enough: a kernel that reports in a loop is never
# silent, so progress is judged by reaching /init in time.
watch()
{
	local qpid=$1 size last=-1 since=$SECONDS start=$SECONDS booted='' line
	local stall=${VM_BOOT_STALL:-120} limit=${VM_BOOT_LIMIT:-${debug:+600}}
	local mib=${VM_CONSOLE_MAX:-64}

	limit=${limit:-300}
	while kill -0 "$qpid" 2>/dev/null; do
		sleep 1
		size=$(stat -c %s "$console" 2>/dev/null || echo 0)
		# A flooded console: before /init a failed boot (tried again),
		# after it the run's own doing.
		if [ "$size" -gt $((mib * 1048576)) ]; then
			if [ -n "$booted" ]; then
				stop_qemu "$qpid" "run: the kernel console passed $mib MiB"
			else
				stop_qemu "$qpid" "boot: the kernel console passed $mib MiB before /init"
			fi
			return
		fi
		if [ -n "$booted" ]; then
			continue
		fi
		if grep -aq 'Run /init' "$console"; then
			booted=1
			continue
		fi
		line=$(grep -aE -m 1 "$BOOT_REPORT" "$console" | tr -d '\r' || true)
		if [ -n "$line" ]; then
			stop_qemu "$qpid" "boot: a kernel report before /init: $line"
		elif [ "$limit" -gt 0 ] && [ $((SECONDS - start)) -ge "$limit" ]; then
			stop_qemu "$qpid" "boot: no /init after $limit s"
		elif [ "$size" != "$last" ]; then
			last=$size
			since=$SECONDS
			continue
		elif [ "$stall" -gt 0 ] && [ $((SECONDS - since)) -ge "$stall" ]; then
			stop_qemu "$qpid" "boot: no console output for $stall s before /init"
		else
			continue
		fi
		return
	done
}

# boot_once: one boot. Exit status: QEMU's (under timeout: 124 when the
# time limit stopped it), 125 when the boot failed before /init (see
# watch), 126 when the run was stopped for its console.
boot_once()
{
	local wpid qpid rc

	# Both files exist, empty, before QEMU and tail start: tail -f gives
	# up at once, silently, on a file that is not there yet, and would
	# print a previous boot's output from one that is (both seen on a
	# busy host: a run whose output never showed).
	: >"$console"
	: >"$out"
	rm -f "$verdict"
	if [ -n "$interactive" ]; then
		timeout --foreground -k 10 "$timeout_s" "${qemu[@]}" | tee "$out"
		return "${PIPESTATUS[0]}"
	fi
	timeout --foreground -k 10 "$timeout_s" "${qemu[@]}" </dev/null >>"$out" &
	qpid=$!
	watch "$qpid" &
	wpid=$!
	tail -n +1 -f --pid="$qpid" "$out"
	wait "$qpid"
	rc=$?
	kill "$wpid" 2>/dev/null
	wait "$wpid" 2>/dev/null
	case "$(cat "$verdict" 2>/dev/null)" in
	boot:*) return 125 ;;
	run:*) return 126 ;;
	esac
	return "$rc"
}

# The stream may stop mid-line (a guest that died): the runner's own lines
# start on a fresh one.
end_line()
{
	if [ -s "$out" ] && [ -n "$(tail -c 1 "$out")" ]; then
		echo
	fi
}

set +e
tries=${VM_BOOT_TRIES:-3}
boots=1
boot_once
rc=$?
while [ "$rc" -eq 125 ] && [ "$tries" -gt 1 ]; do
	tries=$((tries - 1))
	boots=$((boots + 1))
	end_line
	msg "the guest failed before /init ($(sed 's/^boot: //' "$verdict")): again, $tries left"
	tail -n 3 "$console" | tr -d '\r' | cut -c 1-200 | sed 's/^/# console: /'
	boot_once
	rc=$?
done
set -e
end_line
wall=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')

show_console()
{
	msg "guest kernel console (last ${1} lines):"
	tail -n "$1" "$console" | tr -d '\r' | sed 's/^/# console: /'
}

[ -n "${VM_CONSOLE:-}" ] && show_console 100000

if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
	show_console 60
	msg "TIMEOUT: no result after ${timeout_s} s (wall ${wall} s)"
	exit 124
fi

if [ "$rc" -eq 125 ] || [ "$rc" -eq 126 ]; then
	show_console 40 | cut -c 1-300
	msg "FAIL: $(cat "$verdict") (wall ${wall} s, $boots boot(s))"
	exit 1
fi

# The guest's last line, whole: it ends with run=, and the guest drains its
# channel before it powers off (vm-init.sh), so a cut line is a lost tail.
marker=$(grep -a '^# vatom-vm: status=' "$out" | tail -n 1 || true)
if [ -z "$marker" ]; then
	show_console 80
	if grep -aq 'Kernel panic' "$console"; then
		msg "FAIL: guest kernel panicked (wall ${wall} s)"
	else
		msg "FAIL: guest died without reporting (qemu exit $rc, wall ${wall} s)"
	fi
	exit 1
fi
if ! grep -aqE '^# vatom-vm: status=[0-9]+ cmd=-?[0-9]+ splat=[01] unload=[01] leak=[01] boot=[0-9.]+ run=[0-9.]+$' <<<"$marker"; then
	msg "FAIL: the guest's report line was cut: '$marker' (output lost)"
	exit 1
fi

status=$(sed 's/.*status=\([0-9]*\).*/\1/' <<<"$marker")
boot=$(sed 's/.* boot=\([0-9.]*\).*/\1/' <<<"$marker")
run=$(sed 's/.* run=\([0-9.]*\).*/\1/' <<<"$marker")
msg "status $status; wall ${wall} s (guest boot ${boot} s, command ${run} s)"
exit "$status"
