#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs INSIDE the test VM (busybox sh), started by scripts/test.sh through
#   scripts/vm-run.sh -o OUTDIR -- sh scripts/vm-tests.sh PROGRAM...
#
# Runs each TAP-printing PROGRAM (a path in the repository, with its
# arguments in the same word: "selftests/vatom_fuzz -t 60 -s 1") in turn,
# streams its output, and keeps it in /out/NAME.log with its exit status in
# /out/NAME.rc, so that the host counts each program as a test stage of its
# own. NAME is the program's file name, then "-" and the file name, less
# its extension, of each argument that is neither an option nor a number
# ("tools/vatom run --tap examples/visa.vasm": vatom-run-visa);
# `sh scripts/vm-tests.sh --name PROGRAM` prints it (the host uses this).
# A program that was not built is a failure, not a skip. Exit status: 0 if
# every program exited 0.

# name_of "PROGRAM ARGS...": the stage name (see above).
name_of()
{
	# shellcheck disable=SC2086 # the words of one entry
	set -- $1
	n=$(basename "$1")
	shift
	for a in "$@"; do
		case "$a" in
		-* | [0-9]*) ;;
		*) a=$(basename "$a"); n="$n-${a%.*}" ;;
		esac
	done
	echo "$n"
}

if [ "${1:-}" = --name ]; then
	name_of "$2"
	exit 0
fi

rc=0
for entry in "$@"; do
	name=$(name_of "$entry")
	# shellcheck disable=SC2086 # the program and its arguments
	set -- $entry
	prog=$1
	echo "# ---- vm: $entry ----"
	if [ ! -x "$prog" ]; then
		echo "not ok 1 - $prog was not built" | tee "/out/$name.log"
		echo 1 >"/out/$name.rc"
		rc=1
		continue
	fi
	start=$(cut -d' ' -f1 /proc/uptime)
	{ "$@" 2>&1; echo $? >"/out/$name.rc"; } | tee "/out/$name.log"
	end=$(cut -d' ' -f1 /proc/uptime)
	prc=$(cat "/out/$name.rc")
	echo "# vm: $entry exited $prc after $(awk "BEGIN { print $end - $start }") s"
	[ "$prc" -eq 0 ] || rc=1
done
exit $rc
