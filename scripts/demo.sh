#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The main job on a fresh machine or a ready one (the README's demo command):
# install what is missing, build everything, boot the test VM with vatom.ko
# loaded and run `tools/vatom demo`, which submits a batch of atomics to the
# device and prints what it sent and what came back. Exit status: the demo's,
# or 1 if the build fails or the kernel log shows a problem (vm-run.sh).
#
#   scripts/demo.sh [DEMO-ARGS...]

set -euo pipefail

SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$SCRIPTS/.."

scripts/deps.sh
make -j"${JOBS:-2}"
exec scripts/vm-run.sh -t "${VM_TIMEOUT:-300}" -- tools/vatom demo "$@"
