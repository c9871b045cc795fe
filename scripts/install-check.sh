#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install into a staging root and use it as a user would (test.sh's install
# stage):
#
#   scripts/install-check.sh DESTDIR
#
# `make install DESTDIR PREFIX=/usr`: the module for KVER under
# lib/modules/$KVER/updates with modules.dep naming it, libvatom (.so and its
# SONAME links, .a, headers, vatom.pc), the vatom tool, the man pages; then a
# program built against that tree with pkg-config alone (--static, the
# guest has no libdrm.so) into DESTDIR/pkgconfig-hello, which the VM stage
# runs; then `make uninstall` leaves no file behind but depmod's indexes.
# Prints TAP.

set -euo pipefail

SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/env.sh
. "$SCRIPTS/env.sh"
cd "$VATOM_ROOT"

DEST=$(realpath -m "$1")
VERSION=$(cat VERSION)
# shellcheck source=scripts/tap.sh
. "$SCRIPTS/tap.sh"

echo "TAP version 13"
echo "1..4"
rm -rf "$DEST"
make -s install DESTDIR="$DEST" PREFIX=/usr >"$DEST.log" 2>&1 || true

missing=
for f in "lib/modules/$KVER/updates/vatom.ko" \
	 usr/lib/libvatom.so "usr/lib/libvatom.so.$VERSION" usr/lib/libvatom.so.0 \
	 usr/lib/libvatom.a usr/include/vatom.h usr/include/vatom/vatom_drm.h \
	 usr/lib/pkgconfig/vatom.pc usr/bin/vatom usr/share/man/man1/vatom.1 \
	 usr/share/man/man3/libvatom.3 usr/lib/vatom/libvatom-shim.so; do
	[ -e "$DEST/$f" ] || missing="$missing $f"
done
[ -z "$missing" ] || echo "# missing:$missing (make install log: $DEST.log)"
tap "$([ -z "$missing" ]; echo $?)" "make install DESTDIR: module, library, headers, vatom.pc, tool, man pages, the shim"

ok=1
grep -q "updates/vatom.ko:" "$DEST/lib/modules/$KVER/modules.dep" 2>/dev/null &&
	[ "$(/sbin/modinfo -F version "$DEST/lib/modules/$KVER/updates/vatom.ko")" = "$VERSION" ] &&
	ok=0
tap $ok "depmod indexed updates/vatom.ko for $KVER; modinfo says version $VERSION"

# A program that knows the tree only through pkg-config.
cat >"$DEST.hello.c" <<'HELLO'
#include <stdio.h>
#include <string.h>
#include <vatom.h>

int main(void)
{
	struct vatom_device *dev;
	int ret;

	printf("TAP version 13\n1..1\n");
	ret = vatom_device_open(0, 0, &dev);
	if (ret) {
		printf("not ok 1 - vatom_device_open: %s\n", strerror(-ret));
		return 1;
	}
	printf("ok 1 - libvatom %s from the DESTDIR install, UAPI %u\n",
	       vatom_version_string(), vatom_device_uapi_version(dev));
	vatom_device_close(dev);
	return 0;
}
HELLO
export PKG_CONFIG_PATH=$DEST/usr/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=
ok=0
# shellcheck disable=SC2046 # pkg-config's words
cc -o "$DEST/pkgconfig-hello" "$DEST.hello.c" \
	$(pkg-config --cflags vatom) -static $(pkg-config --static --libs vatom) ||
	ok=1
tap $ok "a program built with pkg-config vatom --static against DESTDIR"

make -s uninstall DESTDIR="$DEST" PREFIX=/usr >>"$DEST.log" 2>&1 || true
left=$(find "$DEST" -type f ! -name 'modules.*' ! -name pkgconfig-hello | head -n 5)
[ -z "$left" ] || echo "# left: $left"
tap "$([ -z "$left" ]; echo $?)" "make uninstall removes every installed file"
tap_failed
