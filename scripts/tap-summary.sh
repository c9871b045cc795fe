#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Count the TAP of every test stage and print the verdict.
#
#   scripts/tap-summary.sh STAGES
#
# STAGES has one line per stage: NAME<TAB>EXIT-STATUS<TAB>LOG-FILE. In each log,
# top-level "ok" lines count as passed ("ok ... # SKIP" as passed and
# skipped), "not ok" and "Bail out!" lines as failed; "#" lines and indented
# (nested) TAP are diagnostics. A stage also fails:
#   - once per planned test (sum of its "1..N" plans) that never reported,
#     i.e. a program that crashed part way;
#   - once if it printed no TAP at all;
#   - once if it exited non-zero without reporting any failure.
# The last line is exactly "N passed, N failed"; the skip count comes on the
# line before. Exit status 1 if anything failed.

set -euo pipefail

[ $# -eq 1 ] || { echo "usage: $0 STAGES" >&2; exit 2; }

summary=$(while IFS=$'\t' read -r name rc log; do
	[ -n "$name" ] || continue
	[ -f "$log" ] || log=/dev/null
	tr -d '\r' <"$log" | awk -v name="$name" -v rc="$rc" '
	/^ok([ \t]|$)/ {
		pass++
		if (tolower($0) ~ /#[ \t]*skip/)
			skip++
		next
	}
	/^not ok([ \t]|$)/ { fail++; next }
	/^Bail out!/ { fail++; bail++; next }
	/^1\.\.[0-9]+/ {
		n = substr($0, 4) + 0
		plan += n
		# "1..0 # SKIP why": a whole program skipped counts as one skip.
		if (n == 0 && tolower($0) ~ /#[ \t]*skip/) {
			pass++
			skip++
			plan++
		}
		next
	}
	END {
		why = ""
		tests = pass + fail - bail
		if (plan > tests) {
			fail += plan - tests
			why = why sprintf("; %d planned tests never reported", plan - tests)
		}
		if (pass + fail == 0) {
			fail++
			why = why "; no TAP output"
		}
		if (rc != 0 && fail == 0) {
			fail++
			why = why sprintf("; exited %d", rc)
		}
		printf "%s\t%d\t%d\t%d\t%s\n", name, pass, fail, skip, substr(why, 3)
	}'
done <"$1")

echo "# ---- summary ----"
total_pass=0
total_fail=0
total_skip=0
while IFS=$'\t' read -r name pass fail skip why; do
	[ -n "$name" ] || continue
	line=$(printf '# %-22s %4d passed, %3d failed' "$name" "$pass" "$fail")
	[ "$skip" -gt 0 ] && line="$line, $skip skipped"
	[ -n "$why" ] && line="$line ($why)"
	echo "$line"
	total_pass=$((total_pass + pass))
	total_fail=$((total_fail + fail))
	total_skip=$((total_skip + skip))
done <<<"$summary"
echo "# $total_skip skipped (counted as passed)"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
