#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The demo on the in-process device (libvatom-shim.so, docs/shim.md): on
# any Linux machine, with no VM, no module and no root. Builds libvatom,
# the shim and the dynamically linked vatom, then runs
# `vatom --shim demo` (every family, self-checking) and `vatom --shim run`
# on the examples.
#
#   scripts/demo-shim.sh [DEMO]        (make demo-shim)
#
# Needs a C compiler, make, pkg-config and libdrm's headers: as root it
# installs what is missing (Debian's gcc, make, pkgconf, libdrm-dev);
# otherwise it says which to install.

set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

missing=()
command -v cc >/dev/null || missing+=(gcc)
command -v make >/dev/null || missing+=(make)
command -v pkg-config >/dev/null || missing+=(pkgconf)
pkg-config --exists libdrm 2>/dev/null || missing+=(libdrm-dev)
if [ ${#missing[@]} -gt 0 ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "demo-shim: missing ${missing[*]}: sudo apt-get install ${missing[*]}" >&2
		exit 1
	fi
	apt-get update -q
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
fi

jobs=$(nproc 2>/dev/null || echo 2)
make -s -j"$jobs" -C userlib libvatom.a libvatom.so
make -s -j"$jobs" -C shim
make -s -j"$jobs" -C tools shim

vatom=build/shim/bin/vatom
$vatom --shim info
$vatom --shim demo "$@"
for f in examples/*.vasm; do
	$vatom --shim run "$f" | tail -n 1
done
