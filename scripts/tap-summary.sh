#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Count the TAP of every test stage and print the verdict.
#
#   scripts/tap-summary.sh STAGES
#
# STAGES has one line per stage: NAME<TAB>EXIT-STATUS<TAB>LOG-FILE. In each log,
# top-level "ok" lines count as passed, "ok ... # SKIP" as skipped (not
# passed), "not ok" and "Bail out!" lines as failed; "#" lines and indented
# (nested) TAP are diagnostics. A stage also fails:
#   - once per planned test (sum of its "1..N" plans) that never reported,
#     i.e. a program that crashed part way;
#   - once if it printed no TAP at all;
#   - once if it exited non-zero without reporting any failure;
#   - once per test that must run in it (scripts/must-run.txt) and skipped
#     (a failure instead of a skip) or is not in its output at all: a run
#     cannot be green by skipping what it exists to run. Each prints a
#     "not ok" line naming the stage and the test.
# A test's name is the harness's "fixture.variant.test" (from its "#  RUN"
# line: the harness's SKIP lines carry only the reason), else the
# description of its result line.
#
# The last line is exactly "N passed, N failed, N skipped". Exit status 1
# if anything failed; skips alone do not fail.

set -euo pipefail

[ $# -eq 1 ] || { echo "usage: $0 STAGES" >&2; exit 2; }

MUST_RUN=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/must-run.txt

# must_run STAGE: the rows of scripts/must-run.txt whose stage glob
# matches STAGE, as "GLOB<TAB>TEST" (a rule is the rows of one GLOB).
must_run()
{
	local stage test why

	# shellcheck disable=SC2034 # why: the table's third column, for people
	while read -r stage test why; do
		[[ -n "$stage" && "$stage" != "#"* ]] || continue
		# shellcheck disable=SC2053 # the table's stage is a glob
		if [[ "$1" == $stage ]]; then
			printf '%s\t%s\n' "$stage" "$test"
		fi
	done <"$MUST_RUN"
}

summary=$(while IFS=$'\t' read -r name rc log; do
	[ -n "$name" ] || continue
	[ -f "$log" ] || log=/dev/null
	tr -d '\r' <"$log" | awk -v name="$name" -v rc="$rc" \
		-v must="$(must_run "$name")" '
	# glob_re(GLOB): an anchored regular expression for a shell glob
	# (*, ? and literal characters).
	function glob_re(g,    i, c, re) {
		re = "^"
		for (i = 1; i <= length(g); i++) {
			c = substr(g, i, 1)
			if (c == "*")
				re = re ".*"
			else if (c == "?")
				re = re "."
			else if (c ~ /[A-Za-z0-9_ -]/)
				re = re c
			else if (c == "^" || c == "\\")
				re = re "\\" c
			else
				re = re "[" c "]"
		}
		return re "$"
	}
	# excused(R, NAME): whether a "!" row of rule R matches test NAME.
	function excused(r, name,    i) {
		for (i = 1; i <= nneg[r]; i++)
			if (name ~ glob_re(neg[r, i]))
				return 1
		return 0
	}
	# result(SKIPPED, TEXT): a test result; TEXT is the line past "ok".
	function result(skipped, text,    desc, reason) {
		sub(/^[ \t]+[0-9]+/, "", text)
		sub(/^[ \t]*(-[ \t]+)?/, "", text)
		desc = text
		reason = ""
		if (skipped && match(text, /(^|[ \t])#[ \t]*[Ss][Kk][Ii][Pp]/)) {
			desc = substr(text, 1, RSTART - 1)
			reason = substr(text, RSTART + RLENGTH)
			sub(/^[ \t]+/, "", reason)
		}
		sub(/[ \t]+$/, "", desc)
		ntests++
		tname[ntests] = run != "" ? run : desc
		tskip[ntests] = skipped
		treason[ntests] = reason
		run = ""
	}
	# The rules: pos[r, i] the globs of rule r (a stage glob of the table)
	# that must run, neg[r, i] those its "!" rows excuse.
	BEGIN {
		n = split(must, rows, "\n")
		for (i = 1; i <= n; i++) {
			if (split(rows[i], f, "\t") != 2)
				continue
			if (!(f[1] in rule)) {
				rule[f[1]] = ++nrules
				npos[nrules] = nneg[nrules] = 0
			}
			r = rule[f[1]]
			if (f[2] ~ /^!/)
				neg[r, ++nneg[r]] = substr(f[2], 2)
			else
				pos[r, ++npos[r]] = f[2]
		}
	}
	/^#[ \t]+RUN[ \t]/ { run = $3; next }
	/^ok([ \t]|$)/ {
		if (tolower($0) ~ /#[ \t]*skip/) {
			skip++
			result(1, substr($0, 3))
		} else {
			pass++
			result(0, substr($0, 3))
		}
		next
	}
	/^not ok([ \t]|$)/ { fail++; result(0, substr($0, 7)); next }
	/^Bail out!/ { fail++; bail++; next }
	/^1\.\.[0-9]+/ {
		n = substr($0, 4) + 0
		plan += n
		# "1..0 # SKIP why": a whole program skipped counts as one skip.
		if (n == 0 && tolower($0) ~ /#[ \t]*skip/) {
			skip++
			plan++
			whole = $0
			sub(/^[^#]*#[ \t]*[Ss][Kk][Ii][Pp][ \t]*/, "", whole)
		}
		next
	}
	END {
		why = ""
		tests = pass + fail + skip - bail
		if (plan > tests) {
			fail += plan - tests
			why = why sprintf("; %d planned tests never reported", plan - tests)
		}
		notap = pass + fail + skip == 0
		if (notap) {
			fail++
			why = why "; no TAP output"
		}
		# The tests that must run here (each rule on its own): each that
		# skipped fails instead, and so does a glob no test matches (but
		# for a stage that failed for printing no TAP at all).
		mskip = 0
		mgone = 0
		for (r = 1; r <= nrules; r++) {
			for (i = 1; i <= npos[r]; i++) {
				re = glob_re(pos[r, i])
				seen = 0
				for (t = 1; t <= ntests; t++) {
					if (tname[t] !~ re)
						continue
					seen++
					if (!tskip[t] || excused(r, tname[t]))
						continue
					tskip[t] = 0	# once, whichever rules want it
					skip--
					fail++
					mskip++
					printf "M\tnot ok - %s: %s skipped, but must run here (%s)\n",
					       name, tname[t], treason[t]
				}
				if (seen || notap || (pos[r, i] in gone))
					continue
				gone[pos[r, i]] = 1	# once, whichever rules want it
				fail++
				mgone++
				if (whole == "") {
					printf "M\tnot ok - %s: %s must run here, and is not in its output\n",
					       name, pos[r, i]
					continue
				}
				# The program skipped as a whole: that skip is the failure.
				printf "M\tnot ok - %s: %s must run here, but the program skipped (%s)\n",
				       name, pos[r, i], whole
				if (!wholefailed)
					skip--
				wholefailed = 1
			}
		}
		if (mskip)
			why = why sprintf("; must run, skipped: %d", mskip)
		if (mgone)
			why = why sprintf("; must run, absent: %d", mgone)
		if (rc != 0 && fail == 0) {
			fail++
			why = why sprintf("; exited %d", rc)
		}
		printf "S\t%s\t%d\t%d\t%d\t%s\n", name, pass, fail, skip, substr(why, 3)
	}'
done <"$1")

if grep -q '^M' <<<"$summary"; then
	echo "# ---- must run (${MUST_RUN#"$PWD"/}) ----"
	sed -n 's/^M\t//p' <<<"$summary"
fi
echo "# ---- summary ----"
total_pass=0
total_fail=0
total_skip=0
while IFS=$'\t' read -r kind name pass fail skip why; do
	[ "$kind" = S ] || continue
	line=$(printf '# %-22s %4d passed, %3d failed' "$name" "$pass" "$fail")
	[ "$skip" -gt 0 ] && line="$line, $skip skipped"
	[ -n "$why" ] && line="$line ($why)"
	echo "$line"
	total_pass=$((total_pass + pass))
	total_fail=$((total_fail + fail))
	total_skip=$((total_skip + skip))
done <<<"$summary"
echo "$total_pass passed, $total_fail failed, $total_skip skipped"
[ "$total_fail" -eq 0 ]
