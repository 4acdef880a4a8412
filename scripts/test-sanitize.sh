#!/usr/bin/env bash
# test-sanitize.sh - build plugin and dumper with ASan + UBSan (clang-N
# against LLVM N, in build/san-N) and run the whole lit suite and the unit
# tests on them.
#
# lit preloads the sanitizer runtime into every RUN line (the plugin's
# hosts clang, llc and ld.lld are not instrumented) and makes each report
# abort, which fails its test. Reports are also written to files
# (BBMAP_SANITIZER_LOG), so one in a RUN line whose failure is discarded
# still fails this script. Ends with lit's summary, then any reports; the
# exit status is non-zero if a test failed or anything was reported.
#
# Usage: scripts/test-sanitize.sh [lit options...]
# Environment: BBMAP_SANITIZE_MAJORS (default: 19 22), BBMAP_BUILD_DIR.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BBMAP_BUILD_DIR:-$root/build}
majors=${BBMAP_SANITIZE_MAJORS:-19 22}

"$root/scripts/bootstrap.sh"
suites=()
for n in $majors; do
  CC=clang-$n CXX=clang++-$n cmake -S "$root" -B "$build/san-$n" -G Ninja \
    -DLLVM_DIR="$(llvm-config-"$n" --cmakedir)" \
    -DBBMAP_SANITIZE=address,undefined >/dev/null
  ninja -C "$build/san-$n"
  suites+=("$build/san-$n/test")
  if [[ -f $build/san-$n/unittests/lit.site.cfg.py ]]; then
    suites+=("$build/san-$n/unittests")
  fi
done

logs=$build/sanitizer-logs
rm -rf "$logs"
mkdir -p "$logs"
status=0
BBMAP_SANITIZER_LOG=$logs/report /usr/lib/llvm-22/bin/lit -sv --time-tests \
  "$@" "${suites[@]}" || status=$?
if compgen -G "$logs/report.*" >/dev/null; then
  echo "test-sanitize.sh: sanitizer reports in $logs:"
  for f in "$logs"/report.*; do
    echo "== $f"
    head -20 "$f"
  done
  status=1
fi
exit $status
