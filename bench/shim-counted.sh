#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench/results-shim-counted.md from one counted boot (make -C bench
# shim-icount): vm_bench's section 2 on vatom.ko and then on
# libvatom-shim.so, both under QEMU's instruction counting, so that the
# shim's calls and the device's are numbers of the same guest
# instructions. The judged figure (issue 40): a 1-packet synchronous SUBMIT
# on the shim against a null ioctl on the device.
#
#   bench/shim-counted.sh DEV_STDOUT SHIM_STDOUT GUEST_KERNEL > results-shim-counted.md

set -eu
dev=$1
shim=$2
kernel=$3

cost() { awk -v k="$2" '$1 == "COST" && $2 == k { print $3; exit }' "$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a != "" && b > 0) printf "%.2f", a / b }'; }

null=$(cost "$dev" null)
row()
{
	printf '| %s | %.0f | %.0f | %s |\n' "$1" "$(cost "$dev" "$2")" \
		"$(cost "$shim" "$2")" "$(ratio "$(cost "$shim" "$2")" "$null")"
}
p2=$(cost "$shim" p2)
verdict=$(awk -v a="$p2" -v b="$null" 'BEGIN { print (a != "" && b != "" && a + 0 < b + 0) ? "met" : "**missed**" }')

cat <<HDR
## The in-process device against vatom.ko, counted

\`make -C bench shim-icount\`, $(date -u '+%Y-%m-%d %H:%M UTC'): one boot
of the test VM under QEMU's instruction counting (\`-icount
shift=0,sleep=off\`, 2 vCPUs, guest kernel $kernel), vm_bench's section 2
(P2) on vatom.ko, then the same calls in the same boot on
libvatom-shim.so, preloaded: guest instructions per call, the median over
the blocks, exact and the same from run to run. The shim's calls make no
system call; the device's are ioctls.

| call | vatom.ko | libvatom-shim.so | shim / the device's null ioctl |
|---|---|---|---|
HDR
row "GET_PARAM UAPI_VERSION (null ioctl)" null
row "SUBMIT, 1 PTX atom.global.add.u32 packet, 8 bytes of results" p2
row "SUBMIT, 1 vISA DWORD_ATOMIC.ADD SIMD16 packet, 64 bytes of results" p2v
row "SUBMIT, the PTX packet, its 8 bytes of results to a result surface" p2x
row "SUBMIT, empty: no packet, no binding, no results" empty
cat <<TAIL

Target: a 1-packet synchronous SUBMIT on the shim costs less than a null
ioctl on the device: $(printf '%.0f' "$p2") against $(printf '%.0f' "$null") instructions, **$(ratio "$p2" "$null")**: $verdict.
TAIL
