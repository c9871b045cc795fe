#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# One table of line and branch coverage per file, with the totals, from a
# gcovr JSON report, and the bar it must meet (issue 39):
#
#   scripts/coverage-table.py REPORT.json LINES BRANCHES [gcovr filter args]
#
# REPORT.json is gcovr's --json output; the extra arguments go to gcovr
# (e.g. -e 'driver/engine/' for the driver without the engine). Exit 1 if
# the total lines are under LINES % or the branches under BRANCHES %: the
# exact ratios are compared, not the rounded figures printed.

import json
import subprocess
import sys


def pct(covered, total):
    return 100.0 * covered / total if total else 100.0


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: coverage-table.py REPORT.json LINES BRANCHES [gcovr args]")
    report, bar_lines, bar_branches = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    out = subprocess.run(["gcovr", "-a", report, "--json-summary", "-"] + sys.argv[4:],
                         check=True, capture_output=True, text=True).stdout
    summary = json.loads(out)

    rows = [(f["filename"], f["line_covered"], f["line_total"],
             f["branch_covered"], f["branch_total"]) for f in summary["files"]]
    width = max([len(r[0]) for r in rows] + [5])
    print(f"# {'file':<{width}}  {'lines':>20}  {'branches':>20}")
    for name, lc, lt, bc, bt in rows:
        print(f"# {name:<{width}}  {pct(lc, lt):6.1f} % ({lc:5}/{lt:5})"
              f"  {pct(bc, bt):6.1f} % ({bc:5}/{bt:5})")
    lc, lt = summary["line_covered"], summary["line_total"]
    bc, bt = summary["branch_covered"], summary["branch_total"]
    print(f"# {'total':<{width}}  {pct(lc, lt):6.2f} % ({lc:5}/{lt:5})"
          f"  {pct(bc, bt):6.2f} % ({bc:5}/{bt:5})")

    low = []
    if pct(lc, lt) < bar_lines:
        low.append(f"lines {pct(lc, lt):.2f} % < {bar_lines:g} %")
    if pct(bc, bt) < bar_branches:
        low.append(f"branches {pct(bc, bt):.2f} % < {bar_branches:g} %")
    if low:
        print("# below the bar: " + ", ".join(low))
        return 1
    print(f"# at the bar: lines >= {bar_lines:g} %, branches >= {bar_branches:g} %")
    return 0


if __name__ == "__main__":
    sys.exit(main())
