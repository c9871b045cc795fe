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
#   MODULE_DIR   where vatom.ko is built for this kernel (the repository)
#
# KERNEL selects the target kernel: unset or "default" is the above; "debug"
# is the debug kernel scripts/debug-kernel.sh builds from linux-source-6.1
# (KASAN, lockdep, kmemleak, ...) in VATOM_DEBUG_KERNEL_DIR, outside the
# repository:
#
#   VATOM_DEBUG_KERNEL_DIR  /var/cache/vatom/debug-kernel-<linux-source-6.1
#                version>-<hash of scripts/debug-kernel.config> (as non-root
#                without write access there: ~/.cache/vatom/...)
#   KVER         its release (6.1.N-vatom-debug), empty until it is built
#   KDIR         $VATOM_DEBUG_KERNEL_DIR/linux, the built tree
#   KIMG         $VATOM_DEBUG_KERNEL_DIR: boot/vmlinuz-$KVER, lib/modules/$KVER/
#   MODULE_DIR   build/debug-module/: a copy of the module sources, so its
#                objects never mix with ./vatom.ko's
#
# Any of them may be set beforehand to override it (values exported by an
# earlier sourcing for the other KERNEL are recomputed).

VATOM_ROOT=${VATOM_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}

# The newest 6.1 -amd64 headers tree, or empty when none is installed.
vatom_find_kver()
{
	local d

	d=$(ls -d /usr/src/linux-headers-6.1.*-amd64 2>/dev/null | sort -V | tail -n 1)
	echo "${d#/usr/src/linux-headers-}"
}

# The debug kernel's directory: named after the linux-source-6.1 version
# and the config fragment, so either changing gives a new build.
vatom_debug_kernel_dir()
{
	local ver hash base=/var/cache/vatom

	ver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null) ||
		ver=none
	[ -n "$ver" ] || ver=none
	hash=$(sha256sum <"$VATOM_ROOT/scripts/debug-kernel.config" | cut -c1-12)
	if { [ -d "$base" ] && [ ! -w "$base" ]; } ||
	   { [ ! -d "$base" ] && [ ! -w "$(dirname "$base")" ]; }; then
		base=${XDG_CACHE_HOME:-$HOME/.cache}/vatom
	fi
	echo "$base/debug-kernel-$ver-$hash"
}

KERNEL=${KERNEL:-default}
case "$KERNEL" in
default|debug) ;;
*)
	echo "env.sh: KERNEL=$KERNEL: expected 'default' or 'debug'" >&2
	return 1
	;;
esac
if [ "${VATOM_ENV_KERNEL:-$KERNEL}" != "$KERNEL" ]; then
	unset KVER KDIR KIMG MODULE_DIR
fi
VATOM_ENV_KERNEL=$KERNEL

VATOM_CACHE=${VATOM_CACHE:-$VATOM_ROOT/.cache}
LINUX_SRC=${LINUX_SRC:-$VATOM_CACHE/linux-src}
if [ "$KERNEL" = debug ]; then
	VATOM_DEBUG_KERNEL_DIR=${VATOM_DEBUG_KERNEL_DIR:-$(vatom_debug_kernel_dir)}
	if [ -z "${KVER:-}" ] && [ -f "$VATOM_DEBUG_KERNEL_DIR/.complete" ]; then
		KVER=$(cat "$VATOM_DEBUG_KERNEL_DIR/kernelrelease")
	fi
	KVER=${KVER:-}
	KDIR=${KDIR:-$VATOM_DEBUG_KERNEL_DIR/linux}
	KIMG=${KIMG:-$VATOM_DEBUG_KERNEL_DIR}
	MODULE_DIR=${MODULE_DIR:-$VATOM_ROOT/build/debug-module}
	export VATOM_DEBUG_KERNEL_DIR
else
	KVER=${KVER:-$(vatom_find_kver)}
	KDIR=${KDIR:-/usr/src/linux-headers-$KVER}
	KIMG=${KIMG:-$VATOM_CACHE/kernel/$KVER}
	MODULE_DIR=${MODULE_DIR:-$VATOM_ROOT}
fi

export VATOM_ROOT KERNEL VATOM_ENV_KERNEL KVER KDIR VATOM_CACHE KIMG LINUX_SRC \
	MODULE_DIR
