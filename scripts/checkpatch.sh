#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# checkpatch.pl --strict over the driver and the UAPI header, one TAP line per
# file (findings as TAP comments). Exit status 1 if any file has findings.
#
#   scripts/checkpatch.sh [FILE...]      (default: driver/**/*.[ch], uapi/drm/*.h)
#
# checkpatch.pl is Debian's linux-source-6.1 copy (scripts/deps.sh extracts
# it). It decides some rules by path (include/uapi/ may not use BIT(), must
# use C99-free __u32 types, ...), so each file is checked under the path it
# would have in the kernel tree: uapi/drm/ -> include/uapi/drm/, driver/ ->
# drivers/gpu/drm/vatom/. The few findings that are wrong only because this
# is an out-of-tree module are ignored; docs/testing.md lists each, and why.

set -euo pipefail

SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/env.sh
. "$SCRIPTS/env.sh"
# shellcheck source=scripts/tap.sh
. "$SCRIPTS/tap.sh"

CHECKPATCH=$LINUX_SRC/scripts/checkpatch.pl
if [ ! -x "$CHECKPATCH" ]; then
	echo "1..1"
	echo "not ok 1 - checkpatch: $CHECKPATCH missing (run scripts/deps.sh)"
	exit 1
fi

# LINUX_VERSION_CODE: an out-of-tree module builds against several kernels,
# so it needs version shims, which an in-tree driver never has.
IGNORE=LINUX_VERSION_CODE
# A tracepoint header is laid out as the tracing subsystem prescribes
# (TRACE_EVENT() arguments each on their own line, __print_symbolic() lists
# as macros), which checkpatch reports in every in-tree *_trace.h too.
TRACE_IGNORE=OPEN_ENDED_LINE,PARENTHESIS_ALIGNMENT,COMPLEX_MACRO
# vatom_compat.h defines for the host builds the attribute macros that the
# kernel's compiler_attributes.h has (__aligned), which checkpatch would have
# written as those macros.
COMPAT_IGNORE=PREFER_DEFINED_ATTRIBUTE_MACRO

cd "$VATOM_ROOT"
if [ $# -gt 0 ]; then
	files=("$@")
else
	mapfile -t files < <(find driver uapi/drm -name '*.[ch]' ! -name '*.mod.c' | sort)
fi

in_tree_path()
{
	case "$1" in
	uapi/*) echo "include/$1" ;;
	driver/*) echo "drivers/gpu/drm/vatom/${1#driver/}" ;;
	*) echo "$1" ;;
	esac
}

# "#if LINUX_VERSION_CODE < KERNEL_VERSION(...)" also reads to checkpatch as
# a constant on the left of a comparison; that idiom only, not the type.
drop_version_shims()
{
	local f=$1 line

	while IFS= read -r line; do
		if [[ "$line" =~ ^[^:]*:([0-9]+):\ [A-Z]+:CONSTANT_COMPARISON: ]] &&
		   sed -n "${BASH_REMATCH[1]}p" "$f" | grep -q LINUX_VERSION_CODE; then
			continue
		fi
		printf '%s\n' "$line"
	done
}

tree=$(mktemp -d "${TMPDIR:-/tmp}/vatom-checkpatch.XXXXXX")
trap 'rm -rf "$tree"' EXIT

echo "TAP version 13"
echo "1..${#files[@]}"
for f in "${files[@]}"; do
	p=$(in_tree_path "$f")
	mkdir -p "$tree/$(dirname "$p")"
	ln -sf "$VATOM_ROOT/$f" "$tree/$p"
	ignore=$IGNORE
	[[ "$f" == *_trace.h ]] && ignore="$IGNORE,$TRACE_IGNORE"
	[[ "$f" == */vatom_compat.h ]] && ignore="$IGNORE,$COMPAT_IGNORE"
	# checkpatch exits 1 on findings: what it prints decides.
	findings=$(cd "$tree" || exit
		   "$CHECKPATCH" --no-tree --strict --show-types --terse \
			--no-summary --ignore "$ignore" -f "$p" 2>&1 |
		   sed "s|^$p:|$f:|" | drop_version_shims "$VATOM_ROOT/$f"
		   exit 0)
	if [ -z "$findings" ]; then
		tap 0 "checkpatch $f"
	else
		tap 1 "checkpatch $f"
		sed 's/^/# /' <<<"$findings"
	fi
done
tap_failed
