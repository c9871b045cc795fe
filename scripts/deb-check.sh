#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install vatom's Debian packages the way a user would, use them, remove
# them (test.sh's deb stage; docs/packaging.md):
#
#   scripts/deb-check.sh [--no-build]
#
#  1. scripts/build-debs.sh: the packages in build/deb/, lintian-clean
#     (--no-build: those already there)
#  2. a fresh Debian 12 root: debootstrap (minbase) once per machine, kept
#     as a tarball in $VATOM_DEB_CACHE (default /var/cache/vatom/deb-root),
#     unpacked anew on each run; in it `apt-get install` of the packages
#     with linux-headers-$KVER, the 6.1 target of scripts/env.sh
#  3. DKMS built and installed vatom.ko for $KVER there; the packaged
#     shim runs the demo there (vatom --shim, on this host: no VM)
#  4. one VM boot (scripts/vm-run.sh) with THAT vatom.ko, running the
#     installed programs: /usr/lib/vatom/tests/vatom_test, .../libvatom_test
#     (against the installed libvatom.so.0), .../vatom_load (which unloads
#     and loads it again) and /usr/bin/vatom on an
#     example; the root's files reach the guest through VM_TREE, and the
#     guest's library path is the installed one, not the repository's
#  5. that boot's kernel log clean and the module unloaded
#  6. `apt-get purge`: DKMS's module and tree (/var/lib/dkms/vatom,
#     /usr/src/vatom-*) and every file of the packages' lists (dpkg -L,
#     taken before) are gone
#
# The root's apt takes the machine's own Debian sources (the files of
# /etc/apt that name bookworm), so the network is used: apt-get update,
# and downloads the first time (they are kept in $VATOM_DEB_CACHE/archives).
# Needs root (debootstrap, chroot). Prints TAP; logs in build/deb-check/.

set -euo pipefail

SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/env.sh
. "$SCRIPTS/env.sh"
cd "$VATOM_ROOT"

CACHE=${VATOM_DEB_CACHE:-/var/cache/vatom/deb-root}
BASE=$CACHE/bookworm-minbase.tar
WORK=$VATOM_ROOT/build/deb-check
ROOT_DIR=$WORK/root
DEBS=$VATOM_ROOT/build/deb
VERSION=$(cat VERSION)
PKGS=(vatom-dkms libvatom0 libvatom-dev vatom-tools vatom-tests)
TESTS=/usr/lib/vatom/tests
# Each entry a program of the installed packages, with its arguments
# (scripts/vm-tests.sh); the examples are the repository's, as input.
PROGS=("$TESTS/vatom_test" "$TESTS/libvatom_test" "$TESTS/vatom_load"
       "/usr/bin/vatom run --tap examples/visa.vasm")

build=1
[ "${1:-}" = --no-build ] && build=

# shellcheck source=scripts/tap.sh
. "$SCRIPTS/tap.sh"

# fail DESCRIPTION LOG: a failed step, the end of its log, and the end of
# the run (the steps after it count as failed: they never report).
fail()
{
	tap 1 "$1"
	tail -n 30 "$2" | sed 's/^/# /'
	echo "# log: ${2#"$VATOM_ROOT"/}"
	exit 1
}

in_root() { "$SCRIPTS/kbuild-root.sh" "$ROOT_DIR" "$@" </dev/null; }
root_apt() { in_root env DEBIAN_FRONTEND=noninteractive apt-get -q "$@"; }

# The base root: Debian 12 minbase, as debootstrap leaves it.
base_root()
{
	local tmp

	[ -f "$BASE" ] && return 0
	mkdir -p "$CACHE"
	tmp=$(mktemp -d "$CACHE/root.XXXXXX")
	debootstrap --variant=minbase bookworm "$tmp" \
		"$("$SCRIPTS/kernels.sh" mirror)"
	tar -C "$tmp" -cf "$BASE.tmp" .
	rm -rf "$tmp"
	mv "$BASE.tmp" "$BASE"
}

# The machine's apt sources for bookworm, its resolver, and the packages
# downloaded by earlier runs.
root_setup()
{
	local f

	rm -f "$ROOT_DIR/etc/apt/sources.list"
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		 /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] && grep -q 'bookworm' "$f" &&
			cp "$f" "$ROOT_DIR/etc/apt/sources.list.d/"
	done
	cp -L /etc/resolv.conf "$ROOT_DIR/etc/resolv.conf"
	# A root thrown away after the run: dpkg need not fsync each of the
	# headers' 20000 files.
	echo force-unsafe-io >"$ROOT_DIR/etc/dpkg/dpkg.cfg.d/vatom-unsafe-io"
	mkdir -p "$CACHE/archives"
	find "$CACHE/archives" -name '*.deb' -exec cp -t "$ROOT_DIR/var/cache/apt/archives/" {} +
}

echo "TAP version 13"
echo "1..$((6 + ${#PROGS[@]}))"
[ "$(id -u)" -eq 0 ] || { echo "Bail out! needs root (debootstrap, chroot)"; exit 1; }
[ -n "$KVER" ] || { echo "Bail out! no 6.1 headers: run scripts/deps.sh"; exit 1; }

# One run at a time: a second would remove the first's root under it.
mkdir -p "$VATOM_ROOT/build"
exec 9>"$VATOM_ROOT/build/deb-check.lock"
flock -n 9 || { echo "Bail out! another scripts/deb-check.sh is running"; exit 1; }
rm -rf "$WORK"
mkdir -p "$WORK/out"

# --- 1. the packages; lintian runs beside the installation (step 2),
# which needs only the packages
lint_pid=
if [ -n "$build" ]; then
	t0=$SECONDS
	LINTIAN=0 "$SCRIPTS/build-debs.sh" "$DEBS" >"$WORK/build.log" 2>&1 ||
		fail "make deb: packages built, lintian clean" "$WORK/build.log"
	echo "# packages built in $((SECONDS - t0)) s"
	"$SCRIPTS/build-debs.sh" --lintian "$DEBS" >"$WORK/lintian.log" 2>&1 &
	lint_pid=$!
fi
debs=()
for p in "${PKGS[@]}"; do
	f=$(ls "$DEBS/${p}_${VERSION}_"*.deb 2>/dev/null | head -n 1)
	[ -n "$f" ] || fail "the package $p is in ${DEBS#"$VATOM_ROOT"/}" /dev/null
	debs+=("$f")
done

# lintian_result: test 1, once lintian is done.
lintian_result()
{
	local desc="make deb: packages built, lintian clean"

	if [ -z "$lint_pid" ]; then
		tap 0 "$desc # SKIP --no-build"
		return
	fi
	wait "$lint_pid" || fail "$desc" "$WORK/lintian.log"
	lint_pid=
	tap 0 "$desc"
}

# --- 2. a fresh root; the packages installed as a user does, with the
# headers of the kernel DKMS builds for. (Each step's commands are chained:
# errexit does not act inside a function called before ||.)
install_step()
{
	base_root &&
	mkdir -p "$ROOT_DIR" &&
	tar -C "$ROOT_DIR" -xf "$BASE" &&
	root_setup &&
	root_apt update &&
	root_apt install -y --no-install-recommends "${debs[@]}" \
		"linux-headers-$KVER" &&
	# Kept for the next run: what apt downloaded.
	cp -n "$ROOT_DIR"/var/cache/apt/archives/*.deb "$CACHE/archives/"
}
desc="apt-get install ${PKGS[*]} linux-headers-$KVER in a fresh Debian 12 root"
t0=$SECONDS
install_step >"$WORK/install.log" 2>&1 || { lintian_result; fail "$desc" "$WORK/install.log"; }
lintian_result
tap 0 "$desc"
echo "# $((SECONDS - t0)) s (lintian beside it)"

# --- 3. DKMS's module
ko=$ROOT_DIR/lib/modules/$KVER/updates/dkms/vatom.ko
dkms_step()
{
	in_root dkms status vatom &&
	in_root dkms status vatom |
		grep -q "^vatom/$VERSION, $KVER, x86_64: installed" &&
	[ -f "$ko" ] &&
	[ "$(/sbin/modinfo -F version "$ko")" = "$VERSION" ] &&
	[ "$(/sbin/modinfo -F vermagic "$ko" | cut -d' ' -f1)" = "$KVER" ]
}
desc="DKMS built and installed vatom.ko $VERSION for $KVER"
dkms_step >"$WORK/dkms.log" 2>&1 || fail "$desc" "$WORK/dkms.log"
sed 's/^/# /' "$WORK/dkms.log"
tap 0 "$desc"
cp "$ko" "$WORK/vatom.ko"

# --- 3b. the installed shim, in the root on this host (no module, no
# VM): vatom --shim finds the packaged libvatom-shim.so beside it
desc="in the root: vatom --shim demo, on the packaged libvatom-shim.so"
in_root /usr/bin/vatom --shim demo >"$WORK/shim.log" 2>&1 &&
	[ "$(grep -c ': OK (' "$WORK/shim.log")" -eq 3 ] ||
	fail "$desc" "$WORK/shim.log"
grep '^demo' "$WORK/shim.log" | sed 's/^/# /'
tap 0 "$desc"

# The packages' file lists, before the removal; the test programs and the
# library they use, for the guest.
mkdir -p "$WORK/tree"
for p in "${PKGS[@]}"; do
	in_root dpkg -L "$p" >"$WORK/$p.list"
done
sort -u "$WORK/vatom-tests.list" "$WORK/libvatom0.list" "$WORK/vatom-tools.list" |
	while read -r f; do
		if [ -f "$ROOT_DIR$f" ] || [ -L "$ROOT_DIR$f" ]; then
			mkdir -p "$WORK/tree$(dirname "$f")"
			cp -a "$ROOT_DIR$f" "$WORK/tree$f"
		fi
	done

# --- 4, 5. the VM: the installed programs, against the installed library
log=$WORK/vm.log
t0=$SECONDS
VATOM_KO=$WORK/vatom.ko VM_TREE=$WORK/tree "$SCRIPTS/vm-run.sh" \
	-t "${VM_TIMEOUT:-1200}" -o "$WORK/out" -- \
	env LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu:/lib/x86_64-linux-gnu \
	sh scripts/vm-tests.sh "${PROGS[@]}" >"$log" 2>&1 || true
sed 's/^/    /' "$log"
for p in "${PROGS[@]}"; do
	name=$(sh scripts/vm-tests.sh --name "$p")
	rc=$(cat "$WORK/out/$name.rc" 2>/dev/null || echo 1)
	tap "$rc" "in the VM: $p (exit $rc)"
done
marker=$(grep -a '^# vatom-vm: status=' "$log" | tail -n 1 || true)
ok=1
[[ "$marker" == *" splat=0 unload=0 "* ]] && ok=0
tap "$ok" "the VM booted with DKMS's vatom.ko: clean kernel log, module unloaded"
[ -n "$marker" ] && echo "# ${marker#\# }"
echo "# $((SECONDS - t0)) s"

# --- 6. the removal: nothing of the packages, nor DKMS's, is left
# left_over: each path of the lists still there (a directory only when no
# package owns it any more), and DKMS's own.
left_over()
{
	local f

	sort -u "$WORK"/*.list | while read -r f; do
		case "$f" in
		''|/.|/) continue ;;	# dpkg -L's first line, the root
		esac
		if [ -L "$ROOT_DIR$f" ] || [ -f "$ROOT_DIR$f" ]; then
			echo "$f"
		elif [ -d "$ROOT_DIR$f" ] && ! in_root dpkg -S "$f" >/dev/null 2>&1; then
			echo "$f/"
		fi
	done
	for f in /var/lib/dkms/vatom /usr/src/vatom-"$VERSION" \
		 /lib/modules/"$KVER"/updates/dkms/vatom.ko; do
		[ -e "$ROOT_DIR$f" ] && echo "$f"
	done
	in_root dkms status vatom | sed 's/^/dkms status: /'
}
purge_step()
{
	local left

	root_apt purge -y "${PKGS[@]}" || return 1
	left=$(left_over)
	[ -z "$left" ] && return 0
	echo "left after the purge:"
	echo "$left"
	return 1
}
desc="apt-get purge: no module, no DKMS tree, no file of the packages left"
t0=$SECONDS
purge_step >"$WORK/purge.log" 2>&1 || fail "$desc" "$WORK/purge.log"
tap 0 "$desc"
echo "# $(cat "$WORK"/*.list | wc -l) paths checked, $((SECONDS - t0)) s"
rm -rf "$ROOT_DIR"
