#!/usr/bin/env bash
# test.sh - build bbmap for LLVM 19 and 22 and run the whole lit suite for
# both in one lit invocation; ends with lit's summary and its exit status.
#
# Usage: scripts/test.sh [lit options...]   e.g. scripts/test.sh --filter pgo
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BBMAP_BUILD_DIR:-$root/build}

"$root/scripts/build.sh" 19 22
exec "$(llvm-config-22 --bindir)/lit" -sv --time-tests "$@" \
  "$build/llvm-19/test" "$build/llvm-22/test"
