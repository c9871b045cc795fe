#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The VM runner's own test: that every byte a guest command prints reaches
# the host, in order, on a busy host, and that the runner reports it right.
#
#   scripts/vm-run-check.sh [RUNS] [LINES] [HOGS]
#
# With HOGS (default: the host's CPU count) busy loops running on the host,
# boots the guest RUNS times (default 3) with a command that prints LINES
# (default 3000) numbered lines, far more than the guest's serial buffer,
# then a last line with no newline, and exits with RUNS's number. Each boot
# is a TAP test: vm-run.sh's exit status is the command's, every numbered
# line arrived once and in order, the last one too, and the runner's
# report line is whole. Runs without vatom.ko (-n): it tests the runner.
#
# Both ways the runner used to lose output fail here: a follower that
# started before the output file existed printed nothing at all, and a
# guest that powered off before its serial port had sent everything cut
# its last lines.

set -uo pipefail

SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
runs=${1:-3}
lines=${2:-3000}
hogs=${3:-$(nproc)}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vm-run-check.XXXXXX")
hog_pids=()

cleanup()
{
	[ ${#hog_pids[@]} -gt 0 ] && kill "${hog_pids[@]}" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

for ((h = 0; h < hogs; h++)); do
	sh -c 'while :; do :; done' &
	hog_pids+=($!)
done

failed=0
echo "1..$runs"
echo "# $hogs busy loops on the host; $lines lines per run"
for ((r = 1; r <= runs; r++)); do
	log=$tmp/run-$r.log
	code=$((r % 4 + 1))
	cmd="i=0; while [ \$i -lt $lines ]; do"
	cmd="$cmd echo \"vm-run-check line \$i of $lines: 0123456789abcdef\";"
	cmd="$cmd i=\$((i + 1)); done; printf 'vm-run-check tail'; exit $code"
	"$SCRIPTS/vm-run.sh" -n -t 300 -- "$cmd" </dev/null >"$log" 2>&1
	rc=$?
	problems=()
	[ "$rc" -eq "$code" ] ||
		problems+=("vm-run.sh exited $rc, the command $code")
	got=$(grep -ac '^vm-run-check line [0-9]* of ' "$log")
	[ "$got" -eq "$lines" ] ||
		problems+=("$got of $lines lines arrived")
	order=$(awk '/^vm-run-check line [0-9]+ of / {
			if ($3 != want) {
				print "line " want " missing or out of order (got " $3 ")"
				exit
			}
			want++
		}' want=0 "$log")
	[ -z "$order" ] || problems+=("$order")
	grep -aq '^vm-run-check tail$' "$log" ||
		problems+=("the unterminated last line did not arrive on a line of its own")
	grep -aqE "^# vatom-vm: status=$code cmd=$code splat=0 unload=0 leak=0 boot=[0-9.]+ run=[0-9.]+\$" "$log" ||
		problems+=("no whole report line")
	grep -aqE "^# vm: status $code; wall [0-9.]+ s" "$log" ||
		problems+=("no runner summary line")
	if [ ${#problems[@]} -eq 0 ]; then
		echo "ok $r - run $r: $lines lines, the last line and the report arrived; exit $code"
	else
		failed=$((failed + 1))
		echo "not ok $r - run $r lost or mangled output"
		printf '# %s\n' "${problems[@]}"
		echo "# last lines of the runner's output:"
		tail -n 5 "$log" | cut -c 1-200 | sed 's/^/#   /'
	fi
	grep -a '^# vm: status' "$log" | sed 's/^/# /'
done
[ "$failed" -eq 0 ]
