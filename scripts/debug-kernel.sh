#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The debug kernels: Debian's linux-source-6.1 (KERNEL=debug, the default)
# or linux-source-6.12 (KERNEL=debug-6.12) built with KASAN, lockdep,
# kmemleak, UBSAN, KFENCE, debug objects and fault injection, for running
# vatom.ko's tests in the VM (KERNEL=debug scripts/vm-run.sh ...). Two
# kernels because drm_sched runs its jobs from a kthread on 6.1 and from
# workqueues since 6.8: each path under the same checkers.
#
#   [KERNEL=debug-6.12] scripts/debug-kernel.sh [build]
#                                     build it unless already built
#   scripts/debug-kernel.sh module    build vatom.ko against it, W=1, in
#                                     build/$KERNEL-module/ (a copy of the
#                                     sources: ./vatom.ko is left alone)
#   scripts/debug-kernel.sh dir       print its directory
#   scripts/debug-kernel.sh status    exit 0 if it is built, 1 if not
#
# Config: `make allnoconfig` with scripts/debug-kernel.config as its
# KCONFIG_ALLCONFIG: every line of the fragment set as written, every other
# symbol off where it can be, so the kernel holds what the test VM and the
# checkers need and no more (a short build on a fresh machine). Every line
# of the fragment is then checked against the final .config (the build
# fails listing those that did not hold: a dependency missing, a symbol
# renamed). No debug info, no module signing or versioning. A series may
# have lines of its own, scripts/debug-kernel-<series>.config (both have):
# they replace or drop the fragment's lines for the same symbols, and are
# merged and checked with the rest (fragment() below).
#
# Sources: 6.1's tarball is linux-source-6.1's (scripts/deps.sh installs
# it); 6.12's, linux-source-6.12 from bookworm-backports, comes through
# scripts/kernels.sh source 6.12 (the machine's own mirror; root).
#
# Each is built once per machine, outside the repository, in
# VATOM_DEBUG_KERNEL_DIR (scripts/env.sh: /var/cache/vatom/debug-kernel-
# <linux-source version>-<hash of the fragments>), so changing either
# builds a new one. A finished build of the same sources with other
# fragments is taken over rather than started from scratch: its tree is
# renamed to the new directory, and kbuild compiles again only what the
# changed lines touch (take_over_tree() below):
#
#   linux/                the built tree: KDIR for `make -C linux M=...`
#   boot/vmlinuz-$KVER    its bzImage
#   lib/modules/$KVER/    its modules (modules.dep): the runner's layout,
#                         with gpu-sched.ko (gpu_sched() below)
#   kernelrelease         $KVER (6.1.N-vatom-debug, 6.12.N-vatom-debug)
#   debug-kernel.config   the fragment as merged (with the series' lines)
#   .complete             written last: a build without it is not done and
#                         is started again (from scratch, or a tree taken
#                         over)
#
# The build runs at low priority (nice 19, idle I/O class), with JOBS
# (default 2) parallel jobs, under a lock, so that concurrent callers wait
# for one build. test.sh builds both in the background, one after the
# other.

set -euo pipefail

SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
case "${KERNEL:-}" in
debug-6.12) ;;
*) KERNEL=debug ;;
esac
# A directory the caller chose; not one env.sh computed for the other
# debug kernel.
user_dir=${VATOM_DEBUG_KERNEL_DIR:-}
case "${VATOM_ENV_KERNEL:-}" in
debug*) [ "$VATOM_ENV_KERNEL" = "$KERNEL" ] || user_dir= ;;
esac
# shellcheck source=scripts/env.sh
. "$SCRIPTS/env.sh"

SERIES=$(vatom_debug_series "$KERNEL")
FRAGMENT=$SCRIPTS/debug-kernel.config
TARBALL=/usr/src/linux-source-$SERIES.tar.xz
JOBS=${JOBS:-2}
DIR=$VATOM_DEBUG_KERNEL_DIR

log() { echo "debug-kernel: $*" >&2; }
die() { log "$*"; exit 1; }

# Low priority: the build must not slow the tests that run beside it.
low() { nice -n 19 ionice -c 3 "$@"; }

built() { [ -f "$DIR/.complete" ]; }

# The fragment this series merges: scripts/debug-kernel.config less the
# lines of the symbols the series' own file names (a line of its own, or
# "# drop: CONFIG_FOO"), then that file. With no file of its own (6.1):
# scripts/debug-kernel.config as it is.
fragment()
{
	local own=${FRAGMENT%.config}-$SERIES.config syms

	if [ ! -f "$own" ]; then
		cat "$FRAGMENT"
		return 0
	fi
	syms=$(sed -nE -e 's/^# drop: (CONFIG_[A-Za-z0-9_]+).*/\1/p' \
		-e 's/^(CONFIG_[A-Za-z0-9_]+)=.*/\1/p' \
		-e 's/^# (CONFIG_[A-Za-z0-9_]+) is not set$/\1/p' "$own")
	awk -v syms="$syms" '
		BEGIN { n = split(syms, s, "\n"); for (i = 1; i <= n; i++) own[s[i]] = 1 }
		/^CONFIG_/ { sym = $0; sub(/=.*/, "", sym) }
		/^# CONFIG_.* is not set$/ { sym = $2 }
		!(sym in own) { print }
		{ sym = "" }' "$FRAGMENT"
	cat "$own"
}

# check_config CONFIG FRAGMENT: every line of FRAGMENT holds in CONFIG.
check_config()
{
	local config=$1 fragment=$2 line sym missing=()

	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*)
			grep -qxF -- "$line" "$config" || missing+=("$line")
			;;
		"# CONFIG_"*" is not set")
			sym=${line#\# }
			sym=${sym%% *}
			if grep -q "^$sym=" "$config"; then
				missing+=("$line")
			fi
			;;
		esac
	done <"$fragment"
	if [ ${#missing[@]} -ne 0 ]; then
		log "these lines of $(vatom_debug_fragments "$SERIES" |
			sed "s|^$VATOM_ROOT/||" | paste -sd+) do not hold in $config:"
		for line in "${missing[@]}"; do
			sym=${line#\# }
			sym=${sym%%[= ]*}
			log "  want: $line; got: $(grep -E "^(# )?${sym}[= ]" "$config" ||
						 echo 'absent (unknown symbol or unmet dependency)')"
		done
		return 1
	fi
}

# A finished build of the same sources with other fragments (a line of
# them changed) is taken over: renamed to $DIR, its image and modules
# dropped, so that kbuild compiles again only what the changed lines
# touch (minutes, where a whole build takes half an hour). Under that
# build's lock, which is kept (fd 8) so no run starts using it meanwhile.
# Return: 0 if taken over.
take_over_tree()
{
	local old

	for old in $(ls -dt "${DIR%-*}"-* 2>/dev/null); do
		case "$old" in
		*.lock|"$DIR") continue ;;
		esac
		[ -f "$old/.complete" ] && [ -d "$old/linux" ] || continue
		exec 8>"$old.lock"
		flock -n 8 || continue
		log "taking over $old's tree: only what the fragments' changes touch is compiled"
		mv "$old" "$DIR"
		rm -rf "$DIR/.complete" "$DIR/boot" "$DIR/lib" "$DIR/kernelrelease"
		mkdir -p "$DIR/boot"
		rm -f "$old.lock"
		return 0
	done
	return 1
}

do_build()
{
	local t0 t1 src kver

	if built; then
		exec 9>"$DIR.lock"
		flock 9
		gpu_sched
		return 0
	fi

	# deps.sh installs linux-source-6.1 and the kernel build dependencies;
	# kernels.sh fetches the other series' sources. When either has just
	# done so, the version names the dir.
	"$SCRIPTS/deps.sh" >/dev/null
	if [ "$SERIES" != 6.1 ]; then
		TARBALL=$("$SCRIPTS/kernels.sh" source "$SERIES" |
			sed -n 's/^SRC_TARBALL=//p')
	fi
	if [ -z "$user_dir" ]; then
		DIR=$(vatom_debug_kernel_dir)
	fi
	[ -f "$TARBALL" ] || die "$TARBALL missing after scripts/deps.sh"

	mkdir -p "$(dirname "$DIR")"
	exec 9>"$DIR.lock"
	if ! flock -n 9; then
		log "another build of $DIR is running: waiting for it"
		flock 9
	fi
	if built; then
		gpu_sched
		return 0
	fi

	t0=$(date +%s)
	log "building in $DIR (nice 19, -j$JOBS; 6.1: about 30 min on 2 cores)"
	rm -rf "$DIR"
	src=$DIR/linux
	if [ -n "$user_dir" ] || ! take_over_tree; then
		mkdir -p "$DIR/boot"
		mkdir "$src"
		log "extracting $TARBALL"
		low tar -xJf "$TARBALL" -C "$src" --strip-components=1
	fi

	log "configuring: allnoconfig with" \
	    "$(vatom_debug_fragments "$SERIES" | sed "s|^$VATOM_ROOT/||" | paste -sd+)"
	fragment >"$DIR/debug-kernel.config"
	low make -C "$src" -s KCONFIG_ALLCONFIG="$DIR/debug-kernel.config" allnoconfig
	check_config "$src/.config" "$DIR/debug-kernel.config"

	log "compiling (log: $DIR/build.log)"
	if ! low make -C "$src" -j"$JOBS" all >"$DIR/build.log" 2>&1; then
		tail -n 40 "$DIR/build.log" >&2
		die "build failed; log in $DIR/build.log"
	fi
	kver=$(make -C "$src" -s kernelrelease)
	low make -C "$src" -s INSTALL_MOD_PATH="$DIR" INSTALL_MOD_STRIP=1 \
		DEPMOD=/sbin/depmod modules_install >>"$DIR/build.log" 2>&1
	# The install links build/ and source/ to the tree: keep the image
	# directory self-contained for modprobe -d and copying.
	rm -f "$DIR/lib/modules/$kver/build" "$DIR/lib/modules/$kver/source"
	[ -f "$DIR/lib/modules/$kver/modules.dep" ] ||
		die "no modules.dep after modules_install"
	cp "$src/arch/x86/boot/bzImage" "$DIR/boot/vmlinuz-$kver"
	cp "$src/.config" "$DIR/boot/config-$kver"
	echo "$kver" >"$DIR/kernelrelease"
	gpu_sched
	t1=$(date +%s)
	printf 'kernelrelease %s\nbuild_seconds %s\nbuilt %s\n' \
		"$kver" $((t1 - t0)) "$(date -u +%FT%TZ)" >"$DIR/.complete"
	log "built $kver in $((t1 - t0)) s: $DIR"
}

# gpu-sched.ko, the DRM GPU scheduler vatom.ko depends on, built from the
# tree's own sources as an external module and installed with the image's
# modules. DRM_SCHED has no prompt: only a driver that selects it (amdgpu,
# or the ARM ones under COMPILE_TEST) could enable it in the config, and
# that is a far larger build. Done once, after the kernel (also for a
# kernel built before this step existed), under the build's lock.
gpu_sched()
{
	local src=$DIR/linux kver sched
	kver=$(cat "$DIR/kernelrelease")
	sched=$src/drivers/gpu/drm/scheduler
	[ -n "$(find "$DIR/lib/modules/$kver" -name gpu-sched.ko -print -quit)" ] &&
		return 0
	log "building gpu-sched.ko from $sched"
	{
		low make -C "$src" M="$sched" CONFIG_DRM_SCHED=m -j"$JOBS" modules &&
		low make -C "$src" M="$sched" CONFIG_DRM_SCHED=m \
			INSTALL_MOD_PATH="$DIR" INSTALL_MOD_STRIP=1 \
			DEPMOD=/sbin/depmod modules_install
	} >>"$DIR/build.log" 2>&1 || die "gpu-sched.ko: build failed; log in $DIR/build.log"
	rm -f "$DIR/lib/modules/$kver/build" "$DIR/lib/modules/$kver/source"
}

# The module against the debug tree, from a copy of its sources: kbuild's
# M= puts objects beside the sources, and ./vatom.ko (default kernel) must
# not be overwritten or mixed with objects of another kernel.
do_module()
{
	built || die "not built: run KERNEL=$KERNEL scripts/debug-kernel.sh" \
		"(make debug-kernel KERNEL=$KERNEL)"
	mkdir -p "$MODULE_DIR"
	# Objects stay (excluded files are not deleted): rebuilds are
	# incremental; a source removed from the repository goes away.
	rsync -a --delete --prune-empty-dirs \
		--include=/Kbuild --include=/VERSION --include='/driver/' --include='/uapi/' \
		--include='/driver/**/' --include='/uapi/**/' \
		--include='/driver/**.[ch]' --include='/uapi/**.h' \
		--exclude='*' "$VATOM_ROOT/" "$MODULE_DIR/"
	# gpu-sched.ko's symbols: it is an external module too (gpu_sched()).
	local symbols=$KDIR/drivers/gpu/drm/scheduler/Module.symvers
	[ -f "$symbols" ] || die "no $symbols: run KERNEL=$KERNEL scripts/debug-kernel.sh build"
	# VATOM_GCOV=1: every object instrumented for gcov-kernel (a
	# MODULE_DIR of its own: scripts/coverage-driver.sh).
	local gcov=()
	[ -n "${VATOM_GCOV:-}" ] && gcov=(GCOV_PROFILE=y)
	# Under make (make module KERNEL=...) the jobserver sets the jobs.
	if [[ "${MAKEFLAGS:-}" == *jobserver* ]]; then
		make -C "$KDIR" M="$MODULE_DIR" W=1 KBUILD_EXTRA_SYMBOLS="$symbols" \
			"${gcov[@]}" modules
	else
		make -C "$KDIR" M="$MODULE_DIR" W=1 KBUILD_EXTRA_SYMBOLS="$symbols" \
			"${gcov[@]}" -j"$JOBS" modules
	fi
}

case "${1:-build}" in
build) do_build ;;
module) do_module ;;
dir) echo "$DIR" ;;
status) built ;;
-h|--help) sed -n '/^#   \[KERNEL/,/^# Config/s/^# \{0,1\}//p' "$0" | sed '$d' ;;
*) die "unknown command '$1' (build, module, dir, status)" ;;
esac
