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
# and "debug-6.12" are the debug kernels scripts/debug-kernel.sh builds
# (KASAN, lockdep, kmemleak, ...) from linux-source-6.1 and from
# linux-source-6.12 (bookworm-backports: scripts/kernels.sh source 6.12), in
# VATOM_DEBUG_KERNEL_DIR, outside the repository:
#
#   VATOM_DEBUG_KERNEL_DIR  /var/cache/vatom/debug-kernel-<version of its
#                linux-source>-<hash of its fragments: scripts/debug-
#                kernel.config, then scripts/debug-kernel-<series>.config>
#                (as non-root without write access there:
#                ~/.cache/vatom/...)
#   KVER         its release (6.1.N-vatom-debug, 6.12.N-vatom-debug), empty
#                until it is built
#   KDIR         $VATOM_DEBUG_KERNEL_DIR/linux, the built tree
#   KIMG         $VATOM_DEBUG_KERNEL_DIR: boot/vmlinuz-$KVER, lib/modules/$KVER/
#   MODULE_DIR   build/$KERNEL-module/ (build/debug-module/ for 6.1): a copy
#                of the module sources, so its objects never mix with
#                ./vatom.ko's; with VATOM_GCOV=1 (a module built for
#                gcov-kernel: debug-kernel.sh, coverage-driver.sh),
#                build/$KERNEL-gcov-module/
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

# The kernel series of debug kernel $1: "debug" is 6.1, "debug-6.12" 6.12.
vatom_debug_series()
{
	case "$1" in
	debug) echo 6.1 ;;
	*) echo "${1#debug-}" ;;
	esac
}

# The config fragments of the debug kernel of series $1, in merge order:
# the common one, then the series' own lines if it has any.
vatom_debug_fragments()
{
	local f=$VATOM_ROOT/scripts/debug-kernel

	echo "$f.config"
	[ ! -f "$f-$1.config" ] || echo "$f-$1.config"
}

# The version of series $1's linux-source: 6.1's is installed
# (scripts/deps.sh), 6.12's is extracted by scripts/kernels.sh source 6.12
# (the newest there); "none" before that.
vatom_debug_source_version()
{
	local ver d

	case "$1" in
	6.1)
		ver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null) ||
			ver=
		;;
	*)
		d=$(ls -d "${VATOM_KERNELS:-/var/cache/vatom/kernels}/source/linux-source-$1_"*/.complete \
			2>/dev/null | sort -V | tail -n 1)
		d=${d%/.complete}
		ver=${d##*/linux-source-"$1"_}
		;;
	esac
	echo "${ver:-none}"
}

# The directory of debug kernel $KERNEL: named after its linux-source
# version and its fragments, so changing either gives a new build.
vatom_debug_kernel_dir()
{
	local series ver hash base=/var/cache/vatom

	series=$(vatom_debug_series "$KERNEL")
	ver=$(vatom_debug_source_version "$series")
	# shellcheck disable=SC2046
	hash=$(cat $(vatom_debug_fragments "$series") | sha256sum | cut -c1-12)
	if { [ -d "$base" ] && [ ! -w "$base" ]; } ||
	   { [ ! -d "$base" ] && [ ! -w "$(dirname "$base")" ]; }; then
		base=${XDG_CACHE_HOME:-$HOME/.cache}/vatom
	fi
	echo "$base/debug-kernel-$ver-$hash"
}

KERNEL=${KERNEL:-default}
case "$KERNEL" in
default|debug|debug-6.12) ;;
*)
	echo "env.sh: KERNEL=$KERNEL: expected 'default', 'debug' or 'debug-6.12'" >&2
	return 1
	;;
esac
if [ "${VATOM_ENV_KERNEL:-$KERNEL}" != "$KERNEL" ]; then
	# The other debug kernel's directory is not this one's.
	case "$VATOM_ENV_KERNEL" in
	debug*) unset VATOM_DEBUG_KERNEL_DIR ;;
	esac
	unset KVER KDIR KIMG MODULE_DIR
fi
VATOM_ENV_KERNEL=$KERNEL

VATOM_CACHE=${VATOM_CACHE:-$VATOM_ROOT/.cache}
LINUX_SRC=${LINUX_SRC:-$VATOM_CACHE/linux-src}
if [ "$KERNEL" != default ]; then
	VATOM_DEBUG_KERNEL_DIR=${VATOM_DEBUG_KERNEL_DIR:-$(vatom_debug_kernel_dir)}
	if [ -z "${KVER:-}" ] && [ -f "$VATOM_DEBUG_KERNEL_DIR/.complete" ]; then
		KVER=$(cat "$VATOM_DEBUG_KERNEL_DIR/kernelrelease")
	fi
	KVER=${KVER:-}
	KDIR=${KDIR:-$VATOM_DEBUG_KERNEL_DIR/linux}
	KIMG=${KIMG:-$VATOM_DEBUG_KERNEL_DIR}
	MODULE_DIR=${MODULE_DIR:-$VATOM_ROOT/build/$KERNEL${VATOM_GCOV:+-gcov}-module}
	export VATOM_DEBUG_KERNEL_DIR
else
	KVER=${KVER:-$(vatom_find_kver)}
	KDIR=${KDIR:-/usr/src/linux-headers-$KVER}
	KIMG=${KIMG:-$VATOM_CACHE/kernel/$KVER}
	MODULE_DIR=${MODULE_DIR:-$VATOM_ROOT}
fi

export VATOM_ROOT KERNEL VATOM_ENV_KERNEL KVER KDIR VATOM_CACHE KIMG LINUX_SRC \
	MODULE_DIR
