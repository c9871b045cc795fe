#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Prepare one of the kernels vatom is built and tested against, doing
# nothing that is already done (a second run does no network work), and
# build the module for it:
#
#   scripts/kernels.sh [env] TARGET   prepare TARGET, print its variables
#   scripts/kernels.sh module TARGET  and build vatom.ko for it (W=1) in
#                                     build/kernels/$KVER/ (VATOM_KO=...)
#   scripts/kernels.sh sparse TARGET  the same build under sparse (C=2)
#   scripts/kernels.sh source 6.12    linux-source-6.12, the sources of the
#                                     6.12 debug kernel (scripts/debug-
#                                     kernel.sh): its tarball, extracted
#                                     from the package, not installed;
#                                     prints SRC_VERSION= and SRC_TARBALL=
#   scripts/kernels.sh mirror         print the machine's Debian mirror (the
#                                     URI of its bookworm entry)
#
# TARGET:
#   6.12      Debian's 6.12 LTS, from bookworm-backports
#   newest    the newest Debian kernel, from trixie-backports (its meta
#             package, so it follows new releases); built in a trixie root,
#             which has the gcc-14 it needs
#
# (6.1, the default, is scripts/deps.sh's.) The variables, which the build
# and the VM runner (scripts/vm-run.sh) take:
#
#   KVER        the kernel release (e.g. 6.12.95+deb12-amd64)
#   KDIR        its headers tree, as the build sees it
#   KIMG        the linux-image package extracted: boot/vmlinuz-$KVER and
#               lib/modules/$KVER with a modules.dep
#   KROOT       the root the build runs in ("/" for the host, else a
#               trixie root that scripts/kbuild-root.sh enters)
#
# Packages come from the machine's own Debian mirror (the URI of its
# bookworm entry in /etc/apt), through an apt configuration of the
# project's own under $VATOM_KERNELS (default /var/cache/vatom/kernels,
# outside any clone: built once per machine): the host's apt sources are
# left alone. 6.12's headers are extracted, not installed (installing them
# would install their kernel on the host), and built against on the host;
# the newest kernel's headers, which need trixie's toolchain, install in
# the root.

set -euo pipefail

SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
VATOM_KERNELS=${VATOM_KERNELS:-/var/cache/vatom/kernels}
APT_DIR=$VATOM_KERNELS/apt
TRIXIE_ROOT=$VATOM_KERNELS/trixie-root

log() { echo "kernels: $*" >&2; }
die() { log "$*"; exit 1; }

[ "$(id -u)" -eq 0 ] || die "needs root (apt-get, debootstrap, chroot)"

# The machine's Debian archive: the URI of the entry that has bookworm.
debian_mirror()
{
	local f uri

	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		uri=$(awk '/^URIs:/ { u = $2 }
			   /^Suites:/ && / bookworm( |$)/ { print u; exit }' "$f")
		[ -n "$uri" ] && { echo "$uri"; return 0; }
	done
	awk '$1 == "deb" && $3 == "bookworm" { print $2; exit }' \
		/etc/apt/sources.list 2>/dev/null | grep . ||
		die "no bookworm entry in the machine's apt sources"
}

# Two apt configurations of ours, each with its own lists: "bookworm"
# (bookworm and bookworm-backports, to download 6.12's headers and image)
# and "trixie" (trixie and trixie-backports, to find the newest kernel and
# download its image). One list holding both would resolve the host's
# dependencies against trixie.
APT_SUITE=bookworm

apt_opts()
{
	local d=$APT_DIR/$APT_SUITE

	printf '%s\n' -q \
		-o "Dir::Etc::SourceList=$d/sources.list" \
		-o "Dir::Etc::SourceParts=$d/sources.list.d" \
		-o "Dir::State::Lists=$d/lists" \
		-o "Dir::Cache::Archives=$APT_DIR/archives" \
		-o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache=" \
		-o "APT::Default-Release=$APT_SUITE"
}

our_apt_get() { local o; mapfile -t o < <(apt_opts); apt-get "${o[@]}" "$@"; }
our_apt_cache() { local o; mapfile -t o < <(apt_opts); apt-cache "${o[@]}" "$@"; }

# Our apt configurations, updated when new (or when their sources change).
# Under a lock: test.sh's background job fetches 6.12's sources (the debug
# kernel) while a stage may be fetching a kernel, and two apt-get updates of
# the same lists fail on apt's own lock.
apt_setup()
{
	local kr=/usr/share/keyrings/debian-archive-keyring.gpg uri s d list

	uri=$(debian_mirror)
	mkdir -p "$APT_DIR/archives/partial"
	exec 8>"$APT_DIR/setup.lock"
	flock 8
	for APT_SUITE in trixie bookworm; do
		d=$APT_DIR/$APT_SUITE
		mkdir -p "$d/lists/partial" "$d/sources.list.d"
		list=$(for s in "$APT_SUITE" "$APT_SUITE-backports"; do
			       echo "deb [signed-by=$kr] $uri $s main"
		       done)
		if [ "$list" != "$(cat "$d/sources.list" 2>/dev/null)" ] ||
		   ! ls "$d/lists/" | grep -q Packages; then
			echo "$list" >"$d/sources.list"
			log "apt-get update ($APT_SUITE and $APT_SUITE-backports)"
			our_apt_get update </dev/null >&2
		fi
	done
	exec 8>&-
}

# The version of package $1 in suite $2.
suite_version()
{
	our_apt_cache madison "$1" |
		awk -v s="$2/" '$0 ~ s { print $3; exit }'
}

# The linux-headers-<release> package a meta package version depends on.
meta_headers()
{
	our_apt_cache depends "linux-headers-amd64=$1" |
		awk '/Depends: linux-headers-[0-9]/ { print $2; exit }'
}

# Download package $1 (version $2) into our archive cache; print its path.
download()
{
	local deb dl

	deb=$(ls "$APT_DIR/archives/${1}_${2//:/%3a}_"*.deb 2>/dev/null |
		head -n 1 || true)
	if [ -z "$deb" ]; then
		dl=$(mktemp -d "$APT_DIR/dl.XXXXXX")
		chmod 0777 "$dl"	# apt downloads as _apt
		log "downloading $1=$2"
		(cd "$dl" && our_apt_get download "$1=$2" </dev/null >&2)
		mv "$dl"/*.deb "$APT_DIR/archives/"
		rmdir "$dl"
		deb=$(ls "$APT_DIR/archives/${1}_${2//:/%3a}_"*.deb | head -n 1)
	fi
	echo "$deb"
}

# Extract headers package $1 (version $2), with the -common and kbuild
# packages it depends on, into $3: a tree to build modules against that is
# not installed. Installing it would also install its kernel image on the
# host (the headers depend on it), with systemd, udev and an initramfs
# generated twice: minutes, for a kernel the host never boots. The build
# runs on the host (bookworm's gcc-12 and libraries, which backports are
# built for); the one absolute path in the tree, the arch Makefile's
# include of the common tree, is pointed into $3.
extract_headers()
{
	local hdr=$1 ver=$2 dest=$3 tmp pkg deb

	[ -f "$dest/.complete" ] && return 0
	rm -rf "$dest"
	mkdir -p "$(dirname "$dest")"
	tmp=$(mktemp -d "$dest.XXXXXX")
	for pkg in "$hdr" $(our_apt_cache depends "$hdr=$ver" |
		awk '/Depends: linux-(headers-.*-common|kbuild-)/ { print $2 }'); do
		deb=$(download "$pkg" "$ver")
		log "extracting $(basename "$deb")"
		dpkg-deb -x "$deb" "$tmp"
	done
	[ -f "$tmp/usr/src/$hdr/Makefile" ] || die "no Makefile in $hdr"
	sed -i "s|^include /usr/src/|include $dest/usr/src/|" \
		"$tmp/usr/src/$hdr/Makefile"
	touch "$tmp/.complete"
	mv "$tmp" "$dest"
}

# Extract linux-image-$1[-unsigned] (version $2) into $3, with a
# modules.dep.
extract_image()
{
	local kver=$1 ver=$2 kimg=$3 deb tmp pkg

	[ -f "$kimg/boot/vmlinuz-$kver" ] &&
		[ -f "$kimg/lib/modules/$kver/modules.dep" ] && return 0
	mkdir -p "$(dirname "$kimg")"
	tmp=$(mktemp -d "$kimg.XXXXXX")
	# bookworm: one linux-image-*-unsigned package; later suites split the
	# kernel (linux-binary-*), its modules (linux-modules-*) and their
	# lists (linux-base-*: modules.builtin, modules.order) out of a
	# plainly named linux-image-* that only depends on them.
	for pkg in "linux-image-$kver-unsigned" "linux-binary-$kver" \
		   "linux-base-$kver" "linux-modules-$kver"; do
		our_apt_cache show "$pkg=$ver" >/dev/null 2>&1 || continue
		deb=$(download "$pkg" "$ver")
		log "extracting $(basename "$deb")"
		dpkg-deb -x "$deb" "$tmp"
	done
	# Merged-/usr packages: the layout the runner and depmod -b expect.
	if [ -d "$tmp/usr/lib/modules/$kver" ] && [ ! -e "$tmp/lib/modules" ]; then
		mkdir -p "$tmp/lib" "$tmp/boot"
		mv "$tmp/usr/lib/modules" "$tmp/lib/modules"
		[ -f "$tmp/lib/modules/$kver/vmlinuz" ] &&
			mv "$tmp/lib/modules/$kver/vmlinuz" "$tmp/boot/vmlinuz-$kver"
	fi
	if [ ! -f "$tmp/boot/vmlinuz-$kver" ]; then
		rm -rf "$tmp"
		die "no vmlinuz in the packages of $kver"
	fi
	/sbin/depmod -b "$tmp" "$kver"
	rm -rf "$kimg"
	mv "$tmp" "$kimg"
}

# linux-source-6.12, bookworm-backports' version, extracted (not
# installed: the host's apt sources have no backports) into
# $VATOM_KERNELS/source/linux-source-6.12_<version>/: the tarball of the 6.12
# debug kernel's sources. scripts/env.sh finds the newest extracted one.
prepare_source_612()
{
	local ver dest deb tmp tarball=usr/src/linux-source-6.12.tar.xz

	APT_SUITE=bookworm
	ver=$(suite_version linux-source-6.12 bookworm-backports)
	[ -n "$ver" ] || die "no linux-source-6.12 in bookworm-backports"
	dest=$VATOM_KERNELS/source/linux-source-6.12_$ver
	if [ ! -f "$dest/.complete" ]; then
		deb=$(download linux-source-6.12 "$ver")
		rm -rf "$dest"
		mkdir -p "$(dirname "$dest")"
		tmp=$(mktemp -d "$dest.XXXXXX")
		log "extracting $(basename "$deb")"
		dpkg-deb -x "$deb" "$tmp"
		[ -f "$tmp/$tarball" ] || die "no $tarball in $(basename "$deb")"
		touch "$tmp/.complete"
		mv "$tmp" "$dest"
	fi
	echo "SRC_VERSION=$ver"
	echo "SRC_TARBALL=$dest/$tarball"
}

# A trixie root with gcc-14 and make, for the newest kernel's headers.
trixie_root()
{
	local uri

	if [ -f "$TRIXIE_ROOT/.vatom-ready" ]; then
		# A root made before sparse was on the list gets it now.
		[ -x "$TRIXIE_ROOT/usr/bin/sparse" ] ||
			in_root sh -c "apt-get -q update && apt-get -q install -y \
				--no-install-recommends sparse" </dev/null >&2
		return 0
	fi
	command -v debootstrap >/dev/null ||
		apt-get install -y -q --no-install-recommends debootstrap \
			</dev/null >&2
	uri=$(debian_mirror)
	log "debootstrap trixie (minbase) into $TRIXIE_ROOT"
	rm -rf "$TRIXIE_ROOT"
	debootstrap --variant=minbase \
		--include=gcc-14,make,libc6-dev,bc,bison,flex,libelf-dev,xz-utils,kmod,sparse \
		trixie "$TRIXIE_ROOT" "$uri" >&2
	# The root's own apt: trixie and trixie-backports, same mirror.
	printf 'deb %s trixie main\ndeb %s trixie-backports main\n' "$uri" "$uri" \
		>"$TRIXIE_ROOT/etc/apt/sources.list"
	touch "$TRIXIE_ROOT/.vatom-ready"
}

# Run a command in the trixie root, with /proc and /dev for apt and gcc.
in_root()
{
	"$SCRIPTS/kbuild-root.sh" "$TRIXIE_ROOT" "$@"
}

prepare_612()
{
	local meta hdr kver ver

	APT_SUITE=bookworm
	meta=$(suite_version linux-headers-amd64 bookworm-backports)
	[ -n "$meta" ] || die "no linux-headers-amd64 in bookworm-backports"
	hdr=$(meta_headers "$meta")
	kver=${hdr#linux-headers-}
	ver=$(our_apt_cache show "$hdr" | awk '/^Version:/ { print $2; exit }')
	extract_headers "$hdr" "$ver" "$VATOM_KERNELS/headers/$kver"
	extract_image "$kver" "$ver" "$VATOM_KERNELS/image/$kver"
	echo "KVER=$kver"
	echo "KDIR=$VATOM_KERNELS/headers/$kver/usr/src/$hdr"
	echo "KIMG=$VATOM_KERNELS/image/$kver"
	echo "KROOT=/"
}

prepare_newest()
{
	local meta hdr kver ver

	APT_SUITE=trixie
	meta=$(suite_version linux-headers-amd64 trixie-backports)
	[ -n "$meta" ] || die "no linux-headers-amd64 in trixie-backports"
	hdr=$(meta_headers "$meta")
	kver=${hdr#linux-headers-}
	ver=$(our_apt_cache show "$hdr" | awk '/^Version:/ { print $2; exit }')
	trixie_root
	if [ ! -d "$TRIXIE_ROOT/usr/src/linux-headers-$kver" ]; then
		log "installing $hdr=$ver in the trixie root"
		in_root sh -c "apt-get -q update && DEBIAN_FRONTEND=noninteractive \
			apt-get -q install -y --no-install-recommends \
			-t trixie-backports $hdr=$ver" </dev/null >&2
	fi
	extract_image "$kver" "$ver" "$VATOM_KERNELS/image/$kver"
	echo "KVER=$kver"
	echo "KDIR=/usr/src/linux-headers-$kver"
	echo "KIMG=$VATOM_KERNELS/image/$kver"
	echo "KROOT=$TRIXIE_ROOT"
}

# build_module KROOT KDIR KVER [C=2]: the module, built in a copy of the
# sources (the 6.1 build in the tree stays as it is); prints VATOM_KO=.
build_module()
{
	local root=$1 kdir=$2 kver=$3 out

	shift 3
	out=build/kernels/$kver
	cd "$SCRIPTS/.."
	mkdir -p "$out"
	rsync -a --delete --exclude='*.o' --exclude='.*.cmd' --exclude='*.ko' \
		--exclude='*.mod*' --exclude='*.a' --exclude='modules.order' \
		--exclude='Module.symvers' --include='/Kbuild' --include='/VERSION' \
		--include='/driver/***' --include='/uapi/***' --exclude='*' \
		./ "$out/"
	[ $# -gt 0 ] && find "$out" -name '*.o' -delete	# C=2 checks what it builds
	"$SCRIPTS/kbuild-root.sh" "$root" \
		make -C "$kdir" M="$PWD/$out" W=1 "$@" modules >&2
	echo "VATOM_KO=$PWD/$out/vatom.ko"
}

cmd=env
case "${1:-}" in
mirror) debian_mirror; exit 0 ;;
source)
	[ "${2:-}" = 6.12 ] || die "source: only 6.12 (6.1's is scripts/deps.sh's)"
	apt_setup
	prepare_source_612
	exit 0
	;;
env|module|sparse) cmd=$1; shift ;;
esac
case "${1:-}" in
6.12|newest)
	apt_setup
	vars=$(if [ "$1" = 6.12 ]; then prepare_612; else prepare_newest; fi)
	echo "$vars"
	eval "$vars"
	case $cmd in
	module)	build_module "$KROOT" "$KDIR" "$KVER" ;;
	sparse)	build_module "$KROOT" "$KDIR" "$KVER" C=2 ;;
	esac
	;;
*)	sed -n '/^#   scripts/,/^$/s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2
	exit 2
	;;
esac
