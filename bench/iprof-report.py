#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Guest instructions per call, by function, from one scripts/vm-profile.sh
# run (bench/iprof.c's counts and the guest's /proc/kallsyms), or the
# difference between two runs:
#
#   bench/iprof-report.py DIR [BASE_DIR]
#
# DIR holds tb.txt, kallsyms and calls (the calls inside the marks). Each
# block is charged to the function whose symbol precedes it; user space is
# one row. With BASE_DIR: both columns and the change, largest first.

import bisect
import collections
import sys


def load(d):
    syms = []
    with open(d + '/kallsyms') as f:
        for line in f:
            p = line.split()
            if len(p) >= 3 and p[1] in 'tTwW':
                mod = ' ' + p[3] if len(p) > 3 else ''
                syms.append((int(p[0], 16), p[2] + mod))
    syms.sort()
    addrs = [a for a, _ in syms]
    with open(d + '/calls') as f:
        calls = int(f.read())
    per = collections.Counter()
    with open(d + '/tb.txt') as f:
        for line in f:
            if line.startswith('#'):
                continue
            va, insns, execs = line.split()
            va = int(va, 16)
            if va < 0xffff800000000000:
                name = '[user space]'
            else:
                i = bisect.bisect_right(addrs, va) - 1
                name = syms[i][1] if i >= 0 else '[unknown]'
            per[name] += int(insns) * int(execs)
    return {k: v / calls for k, v in per.items()}


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit('usage: iprof-report.py DIR [BASE_DIR]')
    run = load(sys.argv[1])
    if len(sys.argv) == 2:
        print(f'{sum(run.values()):9.1f}  total, guest instructions per call')
        for k, v in sorted(run.items(), key=lambda kv: -kv[1]):
            if v >= 0.5:
                print(f'{v:9.1f}  {k}')
        return
    base = load(sys.argv[2])
    print(f'{"base":>9} {"this":>9} {"change":>9}')
    print(f'{sum(base.values()):9.1f} {sum(run.values()):9.1f} '
          f'{sum(run.values()) - sum(base.values()):+9.1f}  total')
    keys = sorted(set(run) | set(base),
                  key=lambda k: -abs(run.get(k, 0) - base.get(k, 0)))
    for k in keys:
        d = run.get(k, 0) - base.get(k, 0)
        if abs(d) >= 0.5:
            print(f'{base.get(k, 0):9.1f} {run.get(k, 0):9.1f} {d:+9.1f}  {k}')


if __name__ == '__main__':
    main()
