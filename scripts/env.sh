# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Paths every script and Makefile shares. Source it (`. scripts/env.sh`); it
# installs nothing (scripts/deps.sh does) and is cheap enough to source often.
#
#   VATOM_ROOT   the repository
#   KVER         target kernel: the newest installed 6.1 -amd64 headers
#                (never `uname -r`: the host runs another kernel)
#   KDIR         /usr/src/linux-headers-$KVER
#   VATOM_CACHE  .cache/ (git-ignored): downloads and extracted trees
#   KIMG         the linux-image package extracted: $KIMG/boot/vmlinuz-$KVER,
#                $KIMG/lib/modules/$KVER/
#   LINUX_SRC    the few files of linux-source-6.1 we use: kselftest harness,
#                checkpatch
#
# Any of them may be set beforehand to override it.

VATOM_ROOT=${VATOM_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}

# The newest 6.1 -amd64 headers tree, or empty when none is installed.
vatom_find_kver()
{
	local d

	d=$(ls -d /usr/src/linux-headers-6.1.*-amd64 2>/dev/null | sort -V | tail -n 1)
	echo "${d#/usr/src/linux-headers-}"
}

KVER=${KVER:-$(vatom_find_kver)}
KDIR=${KDIR:-/usr/src/linux-headers-$KVER}
VATOM_CACHE=${VATOM_CACHE:-$VATOM_ROOT/.cache}
KIMG=${KIMG:-$VATOM_CACHE/kernel/$KVER}
LINUX_SRC=${LINUX_SRC:-$VATOM_CACHE/linux-src}

export VATOM_ROOT KVER KDIR VATOM_CACHE KIMG LINUX_SRC
