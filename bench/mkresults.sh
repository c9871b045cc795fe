#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Assemble bench/results.md from one run: the host engine table
# (results-host.md, engine_bench) and the VM sections (DIR/vm.md, and the
# "P1 x" / "KNEE n name" lines vm_bench prints) of DIR = the vm_bench output.
#
#   bench/mkresults.sh HOST_MD VM_DIR > bench/results.md

set -eu
host_md=$1
vm=$2

val() { awk -v k="$1" '$1 == k { print $2; exit }' "$vm/stdout.txt"; }
field() { awk -v k="$1" -v f="$2" '$1 == k { print $f; exit }' "$vm/stdout.txt"; }
verdict()
{
	awk -v v="$1" -v t="$2" -v op="$3" 'BEGIN {
		if (v == "") { print "not measured"; exit }
		ok = (op == ">=") ? (v + 0 >= t) : (v + 0 <= t)
		print ok ? "met" : "**missed**" }'
}

cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
cat <<HDR
# vatom benchmarks: results of one \`make bench\` run

Generated $(date -u '+%Y-%m-%d %H:%M UTC') by \`make bench\` on $cpu,
$(nproc) CPUs, $(uname -s) $(uname -r). How to run, what is measured and
what was changed to get here: [README.md](README.md).

## Targets

| measure | ratio | target | |
|---|---|---|---|
| P1 batch: DWORD_ATOMIC.ADD SIMD16, 1 Mi lanes, device vs native loop in the VM | $(val P1) | >= 0.8 | $(verdict "$(val P1)" 0.8 ">=") |
| P2 latency: 1-packet synchronous SUBMIT vs null ioctl in the VM | $(val P2) | <= 1.5 | $(verdict "$(val P2)" 1.5 "<=") |
| P3 soft-float: PTX .v4.f32 add vs hardware-float CAS loop in the VM | $(val P3) | >= 0.5 | $(verdict "$(val P3)" 0.5 ">=") |
| P4 scaling: 2 submitting threads vs 1 in the VM (native control: $(val P4NATIVE)) | $(val P4) | >= 1.8 | $(verdict "$(val P4)" 1.8 ">=") |
| Q kick mode: 1-job queue round trip (tail, KICK, completed) vs null ioctl | $(val Q1) | <= 1.5 | $(verdict "$(val Q1)" 1.5 "<=") |
| Q polling mode: 1-job queue round trip (tail, completed; no system call) vs null ioctl | $(val QP1) | <= 1.0 | $(verdict "$(val QP1)" 1.0 "<=") |
| Q polling mode, the poller pinned to its own vCPU (POLL_CPU), the producer to the other | $(val QP1P) | <= 1.0 | $(verdict "$(val QP1P)" 1.0 "<=") |
| Q kick mode, each call timed on its own: median round trip vs median null ioctl | $(val Q1S) | <= 1.5 | $(verdict "$(val Q1S)" 1.5 "<=") |
| Q polling mode, each call timed on its own: median round trip vs median null ioctl | $(val QP1S) | <= 1.0 | $(verdict "$(val QP1S)" 1.0 "<=") |
| Q a KICK with no job to consume, timed on its own, vs null ioctl: what kick mode costs before its job | $(val Q0S) | | |
| Q polling mode, a job with no stream, timed on its own, vs null ioctl: what the queue costs a job | $(val QP0S) | | |
| Q the 1-packet job's execution (fdinfo drm-engine, mean per job) vs null ioctl: kick mode / polling mode | $(val QXK) / $(val QXP) | | |
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
