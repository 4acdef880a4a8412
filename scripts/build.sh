#!/usr/bin/env bash
# build.sh - configure and build bbmap for each supported LLVM major, in
# build/llvm-N (bbmap-plugin.so and bbmap-dump at the top of each tree).
#
# Usage: scripts/build.sh [N ...]     (default: 19 22)
# Environment: BBMAP_BUILD_DIR (default: <repo>/build), BBMAP_CMAKE_ARGS.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BBMAP_BUILD_DIR:-$root/build}
majors=${*:-19 22}

"$root/scripts/bootstrap.sh"
for n in $majors; do
  cmake -S "$root" -B "$build/llvm-$n" -G Ninja \
    -DLLVM_DIR="$(llvm-config-"$n" --cmakedir)" ${BBMAP_CMAKE_ARGS:-} >/dev/null
  ninja -C "$build/llvm-$n"
done
