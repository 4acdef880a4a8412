#!/usr/bin/env bash
# compare-builds.sh - bbmap-profile of two builds of bbmap on cppcheck's
# testrunner, for "speed unchanged" checks of a change that should not move
# it (a refactoring, a new check): the same inputs, outputs checked
# byte-identical, then alternating timed runs.
#
# Inputs: the cached profiles and plugin build of bench/large-cppcheck.sh
# (bench/out/large-cppcheck: plugin.perf.data, 20 kHz IP samples, and
# plugin.pa, an exact trace); run that bench first. For each profile and
# output (clusters + symbol order; fdata) both builds run once and their
# outputs are compared with cmp; then RUNS (default 5) alternating runs of
# each, and the medians of wall and CPU (user+sys) time and peak RSS, with
# AFTER / BEFORE ratios. Both run on --threads=THREADS (default: all).
#
# Usage: bench/compare-builds.sh BEFORE_BUILD AFTER_BUILD
#   e.g. bench/compare-builds.sh /tmp/old/build/llvm-22 build/llvm-22
# Env: RUNS, THREADS. Exits non-zero if an output differs.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

case "${1:-}" in -h|--help|'') usage; exit 0 ;; esac
[ $# = 2 ] || die "give BEFORE_BUILD and AFTER_BUILD (build directories)"
before=$(cd "$1" && pwd)/bbmap-profile after=$(cd "$2" && pwd)/bbmap-profile
for b in "$before" "$after"; do [ -x "$b" ] || die "$b not found"; done
cd "$ROOT/bench/out/large-cppcheck" ||
  die "no bench/out/large-cppcheck: run bench/large-cppcheck.sh first"
bin=plugin/bin/testrunner
for f in "$bin" plugin.perf.data plugin.pa; do
  [ -f "$f" ] || die "$f missing: run bench/large-cppcheck.sh first"
done
RUNS=${RUNS:-5}
threads=()
[ -z "${THREADS:-}" ] || threads=(--threads="$THREADS")
out=compare-builds
mkdir -p "$out"

# tool_args CASE OUTPUT-PREFIX: the bbmap-profile arguments of a case.
tool_args() {
  local src=(--perfdata=plugin.perf.data)
  case $1 in trace-*) src=(--pa=plugin.pa) ;; esac
  case $1 in
    *-layout) echo "$bin ${src[*]} --format=clusters --layout-for=22" \
                "-o $2.clusters --symbol-order=$2.order ${threads[*]}" ;;
    *-fdata) echo "$bin ${src[*]} --format=fdata -o $2.fdata ${threads[*]}" ;;
  esac
}

cases=(perf-layout perf-fdata trace-layout trace-fdata)
# A previous run's times are no output of these builds.
for c in "${cases[@]}"; do rm -f "$out/$c".{before,after}.times; done
status=0
for c in "${cases[@]}"; do
  # shellcheck disable=SC2046
  "$before" $(tool_args "$c" "$out/$c.before") 2>/dev/null
  # shellcheck disable=SC2046
  "$after" $(tool_args "$c" "$out/$c.after") 2>/dev/null
  for f in "$out/$c.before".*; do
    if ! cmp -s "$f" "${f/.before./.after.}"; then
      echo "$c: ${f##*.} differs between the builds" >&2
      status=1
    fi
  done
done
[ $status = 0 ] || die "outputs differ: not timed"
echo "outputs identical: ${cases[*]}"

for ((r = 0; r < RUNS; r++)); do
  for c in "${cases[@]}"; do
    for w in before after; do
      b=$before
      [ $w = after ] && b=$after
      # shellcheck disable=SC2046
      /usr/bin/time -o "$out/time.txt" -f '%e %U %S %M' \
        "$b" $(tool_args "$c" "$out/$c.$w") >/dev/null 2>&1 || die "$w $c failed"
      awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$out/time.txt" \
        >>"$out/$c.$w.times"
    done
  done
done

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
printf '%-13s %9s %9s %7s %9s %9s %7s %8s %8s %7s\n' case wall-before \
  wall-after ratio cpu-before cpu-after ratio rss-MB-b rss-MB-a ratio
for c in "${cases[@]}"; do
  row=()
  for col in 1 2 3; do
    b=$(awk -v c=$col '{ print $c }' "$out/$c.before.times" | median)
    a=$(awk -v c=$col '{ print $c }' "$out/$c.after.times" | median)
    [ $col = 3 ] && b=$((b / 1024)) a=$((a / 1024))
    row+=("$b" "$a" "$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", a / b }')")
  done
  printf '%-13s %9s %9s %7s %9s %9s %7s %8s %8s %7s\n' "$c" "${row[@]}"
done
