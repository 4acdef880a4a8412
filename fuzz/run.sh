#!/usr/bin/env bash
# run.sh - build the libFuzzer targets and run each for a bounded time.
#
# Usage: fuzz/run.sh [SECONDS] [TARGET...]   (default: 60 s, every target)
# Builds build/fuzz (clang-19, LLVM 19, BBMAP_FUZZ=ON: ASan, UBSan and
# coverage instrumentation), makes the seed corpora once
# (fuzz/make-corpus.sh), then runs each target in one process for SECONDS
# with its dictionary, keeping what it finds in build/fuzz/corpus/TARGET.
# Prints one line per target (executions, coverage, corpus) and exits
# non-zero if any target crashed, leaked, ran out of memory or timed out;
# the reproducer is left in build/fuzz/artifacts/.
# Environment: BBMAP_FUZZ_BUILD (default: <repo>/build/fuzz).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BBMAP_FUZZ_BUILD:-$root/build/fuzz}
seconds=${1:-60}
shift || true

CC=clang-19 CXX=clang++-19 cmake -S "$root" -B "$build" -G Ninja \
  -DLLVM_DIR="$(llvm-config-19 --cmakedir)" -DBBMAP_FUZZ=ON >/dev/null
ninja -C "$build" -j2 fuzzers
targets=${*:-$(cat "$build/fuzz/targets.txt")}

[[ -d $build/seeds ]] || "$root/fuzz/make-corpus.sh" "$build/seeds"
mkdir -p "$build/artifacts" "$build/logs"

status=0
summary=()
for t in $targets; do
  corpus=$build/corpus/$t
  mkdir -p "$corpus" "$build/seeds/$t"
  dict=()
  [[ -f $root/fuzz/$t.dict ]] && dict=(-dict="$root/fuzz/$t.dict")
  log=$build/logs/$t.log
  echo "== $t: ${seconds}s"
  rc=0
  "$build/fuzz/$t" "$corpus" "$build/seeds/$t" "${dict[@]}" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$build/artifacts/$t-" \
    >"$log" 2>&1 || rc=$?
  # The last status line ("#N DONE cov: C ft: F corp: K/S ...") and stats.
  last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  corp=$(sed -n 's/.* corp: \([^ ]*\).*/\1/p' <<<"$last")
  result=ok
  if ((rc != 0)); then
    result="FAILED (exit $rc, see $log)"
    grep -E 'ERROR: |runtime error|Test unit written' "$log" | head -5 || true
    status=1
  fi
  summary+=("$(printf '%-20s %6ss  execs %-10s cov %-6s ft %-7s corpus %-12s %s' \
    "$t" "$seconds" "${execs:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$result")")
done
echo "== fuzz summary"
printf '%s\n' "${summary[@]}"
exit $status
