#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `dkms build` of the DKMS source tree (make dkms-source) against one
# kernel's headers, in private DKMS trees: nothing is added to the
# machine's DKMS and nothing is installed for the running kernel.
#
#   scripts/dkms-check.sh KROOT KDIR KVER
#
# KROOT is "/" or the root the kernel builds in (scripts/kernels.sh), which
# then needs dkms too. The build log is printed; exit status is dkms's.

set -euo pipefail

SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT_DIR=$1 KDIR=$2 KVER=$3
REPO=$(cd "$SCRIPTS/.." && pwd)
VERSION=$(cat "$REPO/VERSION")
WORK=$REPO/build/dkms/$KVER

rm -rf "$WORK"
mkdir -p "$WORK/tree"
make -s -C "$REPO" dkms-source DKMS_SRC="$WORK/src/vatom-$VERSION"
if [ "$ROOT_DIR" != / ] && [ ! -x "$ROOT_DIR/usr/sbin/dkms" ]; then
	"$SCRIPTS/kbuild-root.sh" "$ROOT_DIR" sh -c "apt-get -q update &&
		DEBIAN_FRONTEND=noninteractive apt-get -q install -y \
		--no-install-recommends dkms" </dev/null
fi
rc=0
"$SCRIPTS/kbuild-root.sh" "$ROOT_DIR" dkms build -m vatom -v "$VERSION" \
	-k "$KVER" --kernelsourcedir "$KDIR" --dkmstree "$WORK/tree" \
	--sourcetree "$WORK/src" </dev/null || rc=$?
cat "$WORK/tree/vatom/$VERSION/build/make.log" 2>/dev/null || true
ko=$(find "$WORK/tree/vatom/$VERSION/$KVER" -name 'vatom.ko*' 2>/dev/null | head -n 1)
if [ "$rc" -eq 0 ] && [ -z "$ko" ]; then
	echo "dkms-check: dkms build succeeded but left no vatom.ko" >&2
	rc=1
fi
[ -n "$ko" ] && echo "dkms-check: built $ko"
exit "$rc"
