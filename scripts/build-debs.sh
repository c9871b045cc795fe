#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build vatom's Debian packages (make deb; docs/packaging.md) and check
# them with lintian:
#
#   scripts/build-debs.sh [OUTDIR]
#   scripts/build-debs.sh --lintian [OUTDIR]   lintian alone, on a build
#
# The packages, .changes, .buildinfo and lintian's report land in OUTDIR
# (default build/deb/). dpkg-buildpackage writes next to the tree it builds,
# so the build runs in a copy of the sources in OUTDIR/src/: the files git
# tracks, and those it does not ignore, never a checkout's build products.
# As non-root the packages build through fakeroot; no step needs root
# (Rules-Requires-Root: no). Exit status 1 if the build fails or lintian
# reports an error or a warning (LINTIAN=0: no lintian; --lintian: lintian
# alone, on the packages OUTDIR holds).

set -euo pipefail

lintian_only=
[ "${1:-}" = --lintian ] && { lintian_only=1; shift; }
SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$SCRIPTS/.." && pwd)
OUT=$(realpath -m "${1:-$REPO/build/deb}")
VERSION=$(cat "$REPO/VERSION")
SRC=$OUT/src/vatom-$VERSION
JOBS=${JOBS:-2}

log() { echo "build-debs: $*" >&2; }

# run_lintian: every tag lintian shows by default (E, W; I is not
# enabled); any E: or W: fails. debian/*.lintian-overrides would give each
# override's reason.
run_lintian()
{
	local rc=0

	command -v lintian >/dev/null ||
		{ log "lintian missing: run scripts/deps.sh"; return 1; }
	lintian --fail-on error,warning "$OUT"/*.changes | tee "$OUT/lintian.txt" ||
		rc=$?
	if [ "$rc" -ne 0 ]; then
		log "lintian: errors or warnings (above; $OUT/lintian.txt)"
		return 1
	fi
	log "lintian: no errors, no warnings"
}

if [ -n "$lintian_only" ]; then
	run_lintian
	exit
fi

for t in dpkg-buildpackage dh dh_dkms fakeroot; do
	command -v "$t" >/dev/null ||
		{ log "$t missing: run scripts/deps.sh"; exit 1; }
done

rm -rf "$OUT"
mkdir -p "$SRC"
if git -C "$REPO" rev-parse --git-dir >/dev/null 2>&1; then
	# Deleted but not yet committed files are listed and absent: skip them.
	git -C "$REPO" ls-files -z --cached --others --exclude-standard |
		(cd "$REPO" && xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh) |
		(cd "$REPO" && cpio -p0dm --quiet "$SRC")
else
	tar -C "$REPO" --exclude=./build --exclude=./.cache -cf - . | tar -C "$SRC" -xf -
fi

log "dpkg-buildpackage in ${SRC#"$REPO"/}"
(cd "$SRC" && DEB_BUILD_OPTIONS="parallel=$JOBS ${DEB_BUILD_OPTIONS:-}" \
	dpkg-buildpackage -us -uc -b -rfakeroot)
mv "$OUT"/src/*.deb "$OUT"/src/*.changes "$OUT"/src/*.buildinfo "$OUT/"
ls -l "$OUT"/*.deb

[ "${LINTIAN:-1}" = 0 ] && exit 0
run_lintian
