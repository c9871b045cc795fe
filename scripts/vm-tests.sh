#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs INSIDE the test VM (busybox sh), started by scripts/test.sh through
#   scripts/vm-run.sh -o OUTDIR -- sh scripts/vm-tests.sh PROGRAM...
#
# Runs each TAP-printing PROGRAM (a path in the repository) in turn, streams
# its output, and keeps it in /out/NAME.log with its exit status in
# /out/NAME.rc (NAME = the program's file name), so that the host counts each
# program as a test stage of its own. A program that was not built is a
# failure, not a skip. Exit status: 0 if every program exited 0.

rc=0
for prog in "$@"; do
	name=$(basename "$prog")
	echo "# ---- vm: $prog ----"
	if [ ! -x "$prog" ]; then
		echo "not ok 1 - $prog was not built" | tee "/out/$name.log"
		echo 1 >"/out/$name.rc"
		rc=1
		continue
	fi
	start=$(cut -d' ' -f1 /proc/uptime)
	{ "$prog" 2>&1; echo $? >"/out/$name.rc"; } | tee "/out/$name.log"
	end=$(cut -d' ' -f1 /proc/uptime)
	prc=$(cat "/out/$name.rc")
	echo "# vm: $prog exited $prc after $(awk "BEGIN { print $end - $start }") s"
	[ "$prc" -eq 0 ] || rc=1
done
exit $rc
