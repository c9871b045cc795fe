#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the test VM (busybox sh), put into the initramfs by vm-run.sh.
#
# Two serial ports: the kernel console is ttyS0 (the host keeps it in a log
# file), our channel is ttyS1 (the host's stdout), so a printk can never land
# in the middle of a test's TAP line. The host passes its settings in
# /etc/vatom-vm.conf and the command in /etc/vatom-cmd.sh.
#
# Steps: mount the pseudo filesystems, insmod the image's modules in the order
# the host computed, mount the repository (9p, read-only), insmod the module
# under test, run the command as root in the repository, unload the module,
# scan the kernel log for splats, with KMEMLEAK=1 (debug kernel) have
# kmemleak scan for leaks, and report one line to the host:
#
#   # vatom-vm: status=S cmd=C splat=0|1 unload=0|1 leak=0|1 boot=SECONDS
#     run=SECONDS
#
# then leave through isa-debug-exit. PID 1 must never exit (the kernel would
# panic), so every path ends in vm_exit.

PATH=/bin:/sbin:/usr/bin:/usr/sbin
export PATH

/bin/busybox mkdir -p /bin /sbin /usr/bin /usr/sbin /proc /sys /dev /tmp \
	/run /vatom /out
/bin/busybox --install -s

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
# /tmp stays the initramfs's own (RAM already): a tmpfs over it would hide
# what VM_FILES put there.
mount -t tmpfs tmpfs /run
mount -t debugfs debugfs /sys/kernel/debug

# Our channel: raw, so the host gets the bytes as written (no \r\n).
exec </dev/null >/dev/ttyS1 2>&1
stty -F /dev/ttyS1 raw -echo 2>/dev/null

. /etc/vatom-vm.conf

uptime_s()
{
	cut -d' ' -f1 /proc/uptime
}

# The serial driver sends from a buffer, on interrupts: what was written
# just before the power-off may not have left the guest yet (seen on a
# busy host: the report line cut, a run's last lines lost). A tty's last
# close waits until everything written has been sent (closing_wait), so
# stop whatever else still holds ttyS1, then close ours; then wait for the
# port's transmit count to stop moving, for a holder that could not be
# stopped.
drain_channel()
{
	kill -KILL -1 2>/dev/null
	usleep 100000
	exec >/dev/null 2>&1
	last=-1
	n=0
	while [ $n -lt 100 ]; do
		tx=$(sed -n 's/^1: .* tx:\([0-9]*\).*/\1/p' /proc/tty/driver/serial)
		[ "$tx" = "$last" ] && break
		last=$tx
		n=$((n + 1))
		usleep 50000
	done
}

# Report and power off. The host reads the line; the debug-exit port only
# makes QEMU quit at once (it exits with (value << 1) | 1, i.e. 1 here).
vm_exit()
{
	# Start a fresh line: the command's output may not end with one.
	echo
	echo "# vatom-vm: status=$1 cmd=${cmd_rc:--1} splat=${splat:-0}" \
	     "unload=${unload_fail:-0} leak=${leak:-0} boot=${boot_s:-0}" \
	     "run=${run_s:-0}"
	drain_channel
	sync
	printf '\000' | dd of=/dev/port bs=1 seek=244 count=1 2>/dev/null
	poweroff -f
	sleep 1000
}

die()
{
	echo "# vatom-vm: $*"
	dmesg | tail -n 40 | sed 's/^/# dmesg: /'
	vm_exit 1
}

# Booted with maxcpus=1 (vm-run.sh: instruction counting): the other
# vCPUs now, before anything is loaded or run.
if [ -n "$ONLINE_CPUS" ]; then
	for c in /sys/devices/system/cpu/cpu[1-9]*/online; do
		[ -e "$c" ] || continue
		echo 1 >"$c" || die "could not online ${c%/online}"
	done
fi

for m in $(cat /modules/order); do
	insmod "/modules/$m" || die "insmod $m failed"
done

mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose,msize=512000 \
	vatom /vatom || die "cannot mount the repository (9p)"
if [ -n "$VM_OUT" ]; then
	mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 out /out ||
		die "cannot mount the output directory (9p)"
fi
# The host's path too, so absolute paths built into binaries (rpath) work.
if [ -n "$HOST_ROOT" ] && [ ! -e "$HOST_ROOT" ]; then
	mkdir -p "$(dirname "$HOST_ROOT")"
	ln -s /vatom "$HOST_ROOT"
fi

# Anything the kernel calls a bug, a warning, a lockdep or RCU report.
SPLAT='BUG:|WARNING:|Oops|general protection fault|Call Trace|kernel BUG'
SPLAT="$SPLAT|possible circular locking|possible recursive locking"
SPLAT="$SPLAT|inconsistent lock state|lockdep|suspicious RCU usage"
SPLAT="$SPLAT|rcu_.*stall|RCU stall|soft lockup|hard LOCKUP|blocked for more than"
SPLAT="$SPLAT|INFO: task .* blocked|workqueue lockup|ODEBUG:"
SPLAT="$SPLAT|UBSAN:|KASAN:|KFENCE:|refcount_t:|list_add corruption"
SPLAT="$SPLAT|list_del corruption|slab-out-of-bounds|use-after-free"
SPLAT="$SPLAT|unreferenced object|suspected memory leak"

# kmemleak: leaks found so far are the boot's, not the module's: scan once
# and mark them reported ("clear"), so only new ones show at the end.
KMEMLEAK_FILE=/sys/kernel/debug/kmemleak
if [ -n "$KMEMLEAK" ]; then
	[ -w "$KMEMLEAK_FILE" ] ||
		die "kmemleak asked for, but $KMEMLEAK_FILE is missing"
	# A write fails once kmemleak has turned itself off (out of pool).
	{ echo scan >"$KMEMLEAK_FILE" && echo clear >"$KMEMLEAK_FILE"; } ||
		die "kmemleak is off (see the boot log): no leak check possible"
fi

# Splats from here on count; the boot's own log is kept apart (what it
# reports is shown, not counted: it is the kernel's, before our module).
dmesg -c >/tmp/dmesg.boot
# (Not the debug kernel's notices that its checkers are on.)
if grep -E "$SPLAT" /tmp/dmesg.boot | grep -vE ' is enabled\.$' \
	>/tmp/splats.boot; then
	echo "# vatom-vm: the boot's kernel log (not counted) reports:"
	sed 's/^/# boot dmesg: /' /tmp/splats.boot
fi

if [ -n "$MODULE" ]; then
	# shellcheck disable=SC2086 # VATOM_MODPARAMS is a list of words
	insmod "/modules/$MODULE.ko" $VATOM_MODPARAMS ||
		die "insmod $MODULE.ko $VATOM_MODPARAMS failed"
fi

export LD_LIBRARY_PATH=/vatom/userlib:/lib/x86_64-linux-gnu
export HOME=/tmp TERM=dumb VATOM_VM=1
boot_s=$(uptime_s)
cd /vatom || die "no /vatom"

t0=$(uptime_s)
if [ -n "$INTERACTIVE" ]; then
	stty -F /dev/ttyS1 sane 2>/dev/null
	# A session of its own whose controlling terminal is ttyS1 (job
	# control, ^C); cttyhack would pick the kernel console instead.
	setsid -c sh </dev/ttyS1 >/dev/ttyS1 2>&1
	cmd_rc=$?
	# The session leader's exit hung the terminal up: open it again.
	exec </dev/null >/dev/ttyS1 2>&1
else
	sh /etc/vatom-cmd.sh
	cmd_rc=$?
fi
t1=$(uptime_s)
run_s=$(awk "BEGIN { printf \"%.2f\", $t1 - $t0 }")
cd /

unload_fail=0
if [ -n "$MODULE" ] && ! rmmod "$MODULE"; then
	echo "# vatom-vm: rmmod $MODULE failed"
	unload_fail=1
fi

# gcov-kernel keeps an unloaded module's counts (gcov_persist): copied after
# the unload, its exit path counts too.
if [ -n "$GCOV" ]; then
	if [ -z "$VM_OUT" ] || [ ! -d /sys/kernel/debug/gcov ]; then
		echo "# vatom-vm: VM_GCOV needs -o DIR and CONFIG_GCOV_KERNEL"
		cmd_rc=1
	else
		(cd /sys/kernel/debug/gcov &&
		 find . -name '*.gcda' | while read -r f; do
			mkdir -p "/out/gcov/${f%/*}" && cat "$f" >"/out/gcov/$f"
		 done)
	fi
fi

# kmemleak: an object is reported once unreferenced for 5 s; scan, wait,
# scan again, then any report is a leak of the run (after the unload).
leak=0
if [ -n "$KMEMLEAK" ]; then
	t0=$(uptime_s)
	if ! { echo scan >"$KMEMLEAK_FILE" && sleep 5 &&
	       echo scan >"$KMEMLEAK_FILE"; }; then
		echo "kmemleak scan failed: kmemleak turned itself off?" \
			>/tmp/kmemleak
		dmesg | grep kmemleak >>/tmp/kmemleak
	else
		cat "$KMEMLEAK_FILE" >/tmp/kmemleak
	fi
	t1=$(uptime_s)
	echo "# vatom-vm: kmemleak scans took" \
	     "$(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }") s"
	if [ -s /tmp/kmemleak ]; then
		leak=1
		echo "# vatom-vm: kmemleak reports leaks:"
		sed 's/^/# kmemleak: /' /tmp/kmemleak
	fi
fi

splat=0
if dmesg | grep -E "$SPLAT" >/tmp/splats; then
	splat=1
	echo "# vatom-vm: kernel log reports problems:"
	sed 's/^/# dmesg: /' /tmp/splats
	echo "# vatom-vm: full kernel log since the module load:"
	dmesg | sed 's/^/# dmesg: /'
fi
if [ -n "$SHOW_DMESG" ]; then
	dmesg | sed 's/^/# dmesg: /'
fi

# The command's own status wins; a clean command with a splat, a leak or a
# failed unload still fails the run.
status=$cmd_rc
if [ "$status" -eq 0 ] && [ $((splat + unload_fail + leak)) -ne 0 ]; then
	status=1
fi
vm_exit "$status"
