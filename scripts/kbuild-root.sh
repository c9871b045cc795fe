#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run a command inside a Debian root (scripts/kernels.sh's trixie root, whose
# gcc-14 the newest kernel's headers need), in the repository:
#
#   scripts/kbuild-root.sh ROOT CMD...
#
# The repository is bind-mounted at its own path in ROOT, with /dev and
# /proc, in a private mount namespace: the mounts vanish with the command,
# and the host's mount table never sees them. ROOT "/" runs CMD as it is.

set -euo pipefail

SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT_DIR=$1
shift
REPO=$(cd "$SCRIPTS/.." && pwd)

if [ "$ROOT_DIR" = / ]; then
	cd "$REPO"
	exec "$@"
fi

exec unshare --mount --propagation private -- /bin/bash -euc '
	root=$1 repo=$2 cwd=$3
	shift 3
	mount --bind /dev "$root/dev"
	mount -t proc proc "$root/proc"
	mkdir -p "$root$repo"
	mount --bind "$repo" "$root$repo"
	exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG=C.UTF-8 /bin/sh -c "cd \"\$0\" && exec \"\$@\"" \
		"$cwd" "$@"
' kbuild-root "$ROOT_DIR" "$REPO" "$PWD" "$@"
