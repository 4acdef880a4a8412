#!/usr/bin/env bash
# test.sh - build bbmap for LLVM 19 and 22 and run the whole lit suite and
# the unit tests (unittests/) for both in one lit invocation; ends with
# lit's summary and its exit status.
#
# Usage: scripts/test.sh [lit options...]   e.g. scripts/test.sh --filter pgo
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BBMAP_BUILD_DIR:-$root/build}

"$root/scripts/build.sh" 19 22
suites=()
for n in 19 22; do
  suites+=("$build/llvm-$n/test")
  # The unit tests, unless configured with -DBBMAP_BUILD_UNITTESTS=OFF.
  if [[ -f $build/llvm-$n/unittests/lit.site.cfg.py ]]; then
    suites+=("$build/llvm-$n/unittests")
  fi
done
exec "$(llvm-config-22 --bindir)/lit" -sv --time-tests "$@" "${suites[@]}"
