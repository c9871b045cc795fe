#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install and prepare everything the build and the tests need, doing nothing
# that is already done (a ready machine runs no apt at all):
#
#   1. Debian packages (apt-get, as root or through sudo) when missing;
#   2. the target kernel image, linux-image-$KVER-unsigned, downloaded and
#      extracted into .cache/kernel/$KVER/ with a modules.dep built by the
#      host's depmod (the package ships none);
#   3. the kselftest harness and checkpatch from linux-source-6.1, extracted
#      into .cache/linux-src/ (the whole tarball is the debug kernel's
#      source: scripts/debug-kernel.sh, which also needs the compilers'
#      friends installed here: flex, bison, libelf-dev, ...).
#
# Prints the resulting variables (KVER=... lines). Other scripts run it, then
# source scripts/env.sh for the same variables.

set -euo pipefail

SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

PACKAGES=(
	build-essential		# gcc-12 (the kernel's compiler), make, libc6-dev
	linux-headers-amd64	# pulls the newest 6.1.0-N-amd64 headers
	linux-source-6.1	# kselftest harness, checkpatch.pl
	kmod			# depmod/modprobe for the extracted image
	qemu-system-x86		# the test VM
	busybox-static		# the VM's userspace
	cpio			# the VM's initramfs
	libdrm-dev		# libvatom, tool, selftests (static libdrm.a too)
	sparse			# make sparse (C=2)
	clang			# libFuzzer targets in tests/
	libclang-rt-dev		# libFuzzer runtime (clang only recommends it)
	gnuplot-nox		# benchmark plots
	liburing-dev		# the io_uring rows of the bench (static liburing.a)
	gcovr			# make coverage: the engine's coverage by the host tests
	perl			# checkpatch.pl
	xz-utils		# unpacking linux-source-6.1.tar.xz
	flex bison bc		# building the debug kernel (debug-kernel.sh)
	libelf-dev libssl-dev	# objtool, the kernel's host tools
	pahole			# BTF of modules for kernels whose headers ship vmlinux
				# (6.12's linux-kbuild depends on it; extracted, not installed)
	rsync			# copies of the sources for other kernels' builds
	debootstrap		# the trixie root the newest kernel builds in
	dkms			# test.sh's dkms build stages (private trees)
	man-db			# make -C userlib check-man (man -l)
	debhelper dh-dkms	# make deb (scripts/build-debs.sh)
	fakeroot lintian	# the same: a build as non-root, its check
)

log() { echo "deps: $*" >&2; }

SUDO=
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO="sudo -n"
	fi
fi

apt_updated=
apt_update()
{
	[ -n "$apt_updated" ] && return 0
	log "apt-get update"
	$SUDO apt-get update -q </dev/null
	apt_updated=1
}

install_packages()
{
	local p missing=()

	for p in "${PACKAGES[@]}"; do
		if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		     grep -q 'install ok installed'; then
			missing+=("$p")
		fi
	done
	[ ${#missing[@]} -eq 0 ] && return 0

	if [ "$(id -u)" -ne 0 ] && [ -z "$SUDO" ]; then
		log "missing packages ${missing[*]} and not root (no sudo)"
		exit 1
	fi
	apt_update
	log "installing ${missing[*]}"
	$SUDO env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -q --no-install-recommends "${missing[@]}" \
		</dev/null
}

# Download linux-image-$KVER-unsigned (same version as the headers) and
# extract it: the VM boots Debian's own kernel with the module built here.
fetch_kernel()
{
	local pkg="linux-image-$KVER-unsigned" ver dl deb tmp

	if [ -f "$KIMG/boot/vmlinuz-$KVER" ] &&
	   [ -f "$KIMG/lib/modules/$KVER/modules.dep" ]; then
		return 0
	fi
	ver=$(dpkg-query -W -f='${Version}' "linux-headers-$KVER")
	mkdir -p "$VATOM_CACHE"
	deb=$(ls "$VATOM_CACHE/${pkg}_${ver}"_*.deb 2>/dev/null | head -n 1 || true)
	if [ -z "$deb" ]; then
		# apt drops privileges to _apt for downloads: give it a
		# directory it may write (as root it falls back, with a warning).
		dl=$(mktemp -d "$VATOM_CACHE/dl.XXXXXX")
		chmod 0777 "$dl"
		log "downloading $pkg=$ver"
		if ! (cd "$dl" && apt-get download -q "$pkg=$ver" </dev/null); then
			apt_update
			(cd "$dl" && apt-get download -q "$pkg=$ver" </dev/null)
		fi
		mv "$dl"/*.deb "$VATOM_CACHE/"
		rmdir "$dl"
		deb=$(ls "$VATOM_CACHE/${pkg}_${ver}"_*.deb | head -n 1)
	fi

	log "extracting $(basename "$deb")"
	# Extract beside, then rename: a concurrent run never sees half a tree.
	mkdir -p "$(dirname "$KIMG")"
	tmp=$(mktemp -d "$KIMG.XXXXXX")
	dpkg-deb -x "$deb" "$tmp"
	/sbin/depmod -b "$tmp" "$KVER"
	rm -rf "$KIMG"
	mv "$tmp" "$KIMG"
}

# Only the handful of linux-source files we use (the full tree is 1.3 GB).
LINUX_SRC_FILES=(
	tools/testing/selftests/kselftest_harness.h
	tools/testing/selftests/kselftest.h
	tools/testing/selftests/lib.mk
	tools/testing/selftests/kselftest
	scripts/checkpatch.pl
	scripts/spelling.txt
	scripts/const_structs.checkpatch
)

fetch_linux_src()
{
	local f tarball=/usr/src/linux-source-6.1.tar.xz tmp need='' args=()

	for f in "${LINUX_SRC_FILES[@]}"; do
		[ -e "$LINUX_SRC/$f" ] || need=1
		args+=("linux-source-6.1/$f")
	done
	[ -z "$need" ] && return 0

	log "extracting kselftest harness and checkpatch from $tarball"
	tmp=$(mktemp -d "$LINUX_SRC.XXXXXX")
	chmod 0755 "$tmp"
	tar -xJf "$tarball" -C "$tmp" --strip-components=1 "${args[@]}"
	rm -rf "$LINUX_SRC"
	mv "$tmp" "$LINUX_SRC"
}

install_packages

# The default kernel's variables, whatever KERNEL the caller runs with.
KERNEL=default
# shellcheck source=scripts/env.sh
. "$SCRIPTS/env.sh"
if [ -z "$KVER" ] || [ ! -d "$KDIR" ]; then
	log "no /usr/src/linux-headers-6.1.*-amd64 after installing linux-headers-amd64"
	exit 1
fi

fetch_kernel
fetch_linux_src

cat <<EOF
KVER=$KVER
KDIR=$KDIR
KIMG=$KIMG
LINUX_SRC=$LINUX_SRC
EOF
