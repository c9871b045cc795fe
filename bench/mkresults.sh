#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Assemble bench/results.md from one run: the host engine table
# (results-host.md, engine_bench), the VM sections (DIR/vm.md, and the
# "P1 x" / "KNEE n name" lines vm_bench prints) of DIR = the vm_bench output,
# and those of the counted mode (vm_bench -c, in ICOUNT_DIR), whose ratios
# judge the per-job targets.
#
#   bench/mkresults.sh HOST_MD VM_DIR ICOUNT_DIR > bench/results.md

set -eu
host_md=$1
vm=$2
icount=$3

val() { awk -v k="$1" '$1 == k { print $2; exit }' "$vm/stdout.txt"; }
cval() { awk -v k="$1" '$1 == k { print $2; exit }' "$icount/stdout.txt"; }
# A per-job target, as vm_bench (its one place) printed it beside the ratio.
tgt() { awk -v k="$1" '$1 == "TARGET" && $2 == k { print $3; exit }' "$icount/stdout.txt"; }
sum() { awk -v a="$1" -v b="$2" 'BEGIN { if (a != "") printf "%.2f", a + b }'; }
field() { awk -v k="$1" -v f="$2" '$1 == k { print $f; exit }' "$vm/stdout.txt"; }
verdict()
{
	awk -v v="$1" -v t="$2" -v op="$3" 'BEGIN {
		if (v == "" || t == "") { print "not measured"; exit }
		ok = (op == ">=") ? (v + 0 >= t) : (v + 0 <= t)
		print ok ? "met" : "**missed**" }'
}

cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
cat <<HDR
# vatom benchmarks: results of one \`make bench\` run

Generated $(date -u '+%Y-%m-%d %H:%M UTC') by \`make bench\` on $cpu,
$(nproc) CPUs, $(uname -s) $(uname -r). How to run, what is measured and
what was changed to get here: [README.md](README.md).

## Per-job targets, counted

Ratios to the null ioctl in the counted mode (\`make bench-icount\`: QEMU
counts guest instructions, so each is exact and the same from run to run):

| measure | ratio | target | |
|---|---|---|---|
| P2: 1-packet synchronous SUBMIT (PTX) | $(cval P2) | <= $(tgt P2) | $(verdict "$(cval P2)" "$(tgt P2)" "<=") |
| empty SUBMIT | $(cval P2E) | <= $(tgt P2E) | $(verdict "$(cval P2E)" "$(tgt P2E)" "<=") |
| vISA SIMD16 1-packet SUBMIT | $(cval P2V) | <= $(tgt P2V) | $(verdict "$(cval P2V)" "$(tgt P2V)" "<=") |
| Q1S: kick-mode round trip, median single call | $(cval Q1S) | <= $(tgt Q1S) | $(verdict "$(cval Q1S)" "$(tgt Q1S)" "<=") |
| Q1S against io_uring's NOP through one io_uring_enter() ($(cval U1S)) + $(tgt Q1S_OVER_URING) | $(cval Q1S) | <= $(sum "$(cval U1S)" "$(tgt Q1S_OVER_URING)") | $(verdict "$(cval Q1S)" "$(sum "$(cval U1S)" "$(tgt Q1S_OVER_URING)")" "<=") |
| QXK: one 1-packet job's execution | $(cval QXK) | <= $(tgt QXK) | $(verdict "$(cval QXK)" "$(tgt QXK)" "<=") |
| QP1S: polling round trip, two vCPUs (the poller on vCPU 1, the producer on 0) | $(cval QP1S) | <= $(tgt QP1S) | $(verdict "$(cval QP1S)" "$(tgt QP1S)" "<=") |
| QP1S against io_uring's SQPOLL NOP round trip (wall clock, below: $(val UP1S)) | $(val QP1S) | <= $(val UP1S) | $(verdict "$(val QP1S)" "$(val UP1S)" "<=") |

## Targets, timed

| measure | ratio | target | |
|---|---|---|---|
| P1 batch: DWORD_ATOMIC.ADD SIMD16, 1 Mi lanes, device vs native loop in the VM | $(val P1) | >= 0.8 | $(verdict "$(val P1)" 0.8 ">=") |
| P3 soft-float: PTX .v4.f32 add vs hardware-float CAS loop in the VM | $(val P3) | >= 0.5 | $(verdict "$(val P3)" 0.5 ">=") |
| P4 scaling: 2 submitting threads vs 1 in the VM (native control: $(val P4NATIVE)) | $(val P4) | >= 1.8 | $(verdict "$(val P4)" 1.8 ">=") |
| Q small jobs: 1-packet jobs/s, best queue mode vs async SUBMIT with a fence per 32 | $(field QT1 2) | >= 5 | $(verdict "$(field QT1 2)" 5 ">=") |
| Q small jobs: 16-packet jobs/s, best queue mode vs async SUBMIT with a fence per 32 | $(field QT16 2) | >= 5 | $(verdict "$(field QT16 2)" 5 ">=") |
| Q small jobs: 1-packet jobs/s, best queue mode vs sync SUBMIT | $(field QT1 3) | > 1 | $(verdict "$(field QT1 3)" 1.0001 ">=") |
| Q small jobs: 16-packet jobs/s, best queue mode vs sync SUBMIT | $(field QT16 3) | > 1 | $(verdict "$(field QT16 3)" 1.0001 ">=") |
| M many queues: aggregate jobs/s of 1 / 2 / 4 / 8 busy polling queues vs as many kick-mode queues | $(val M1) / $(val M2) / $(val M4) / $(val M8) | >= 1 each | $(verdict "$(val M1)" 1 ">=") / $(verdict "$(val M2)" 1 ">=") / $(verdict "$(val M4)" 1 ">=") / $(verdict "$(val M8)" 1 ">=") |

Host engine ratios (no VM, hardware figures) are in the table below; the
integer forms' target is >= 0.80, the soft-float f32 add's >= 0.50.

Batch-size knee (the smallest packets per submission reaching 90 % of the
throughput of large submissions, i.e. where the per-submission cost falls
under 10 %), from the sweep below:
$(awk '$1 == "KNEE" { n = $2; $1 = ""; $2 = ""; sub(/^  /, ""); printf "%s: **%s** packets; ", $0, n }' "$vm/stdout.txt" | sed 's/; $/./')

![throughput against batch size](results-batch.png)

## Host engine (\`engine_bench\`, no VM)

HDR
# results-host.md without its title
sed '1{/^# /d}' "$host_md"
echo
cat "$vm/vm.md"
echo
echo "## Counted mode (\`make bench-icount\`)"
echo
sed '1{/^## /d}' "$icount/vm.md"
