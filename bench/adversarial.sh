#!/usr/bin/env bash
# adversarial.sh - bbmap-dump's decode time and memory on hostile inputs of
# growing size, against llvm-readobj on the same files.
#
# For each case of bench/adversarial-inputs.py (many tiny records, one
# function with millions of blocks, one huge over-long ULEB128, tens of
# thousands of sections, as many sections claiming 2^32-1 missing blocks,
# an archive of thousands of members) and each size, runs
# `bbmap-dump --bb-addr-map` and `llvm-readobj-N --bb-addr-map` (output to
# /dev/null) and reports CPU seconds (user+sys, GNU time), seconds per MB,
# peak RSS and the bbmap/readobj time ratio. Time per MB that stays flat as
# the size doubles means linear decoding; the last table gives, per case,
# the largest size's s/MB over the smallest's. Reports only; asserts
# nothing.
#
# Usage: bench/adversarial.sh [--sizes "1 2 4 8 16"] [19|22]
#   --sizes   input sizes in MB (default: 1 2 4 8 16)
#   major     the build/llvm-N/bbmap-dump and llvm-readobj-N used (default 22)
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

sizes="1 2 4 8 16" major=22
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --sizes) sizes=$2; shift ;;
    *) major=$1 ;;
  esac
  shift
done
check_major "$major"
dump=$ROOT/build/llvm-$major/bbmap-dump
readobj=/usr/lib/llvm-$major/bin/llvm-readobj
work=$WORK/adversarial
mkdir -p "$work"
cases="records blocks long-uleb sections huge-counts members"

# measure TOOL FILE: prints "cpu_seconds peak_rss_kb" of one run.
measure() {
  /usr/bin/time -f '%U %S %M' -o "$work/time" "$1" --bb-addr-map "$2" \
    >/dev/null 2>&1 || true
  # GNU time puts "Command exited with non-zero status" first on errors.
  tail -n 1 "$work/time" | awk '{ printf "%.2f %d\n", $1 + $2, $3 }'
}

printf '%-12s %6s %10s %8s %10s %10s %8s\n' case MB bbmap_s s/MB rss_MB \
  readobj_s ratio
declare -A first last
for c in $cases; do
  for mb in $sizes; do
    f=$work/$c.$mb
    "$BENCH/adversarial-inputs.py" "$c" $((mb * 1048576)) "$f"
    read -r t rss < <(measure "$dump" "$f")
    read -r rt _ < <(measure "$readobj" "$f")
    per=$(awk -v t="$t" -v mb="$mb" 'BEGIN { printf "%.3f", t / mb }')
    ratio=$(awk -v a="$t" -v b="$rt" 'BEGIN { printf (b > 0 ? "%.2f" : "-"), a / b }')
    printf '%-12s %6s %10s %8s %10d %10s %8s\n' "$c" "$mb" "$t" "$per" \
      $((rss / 1024)) "$rt" "$ratio"
    [ -n "${first[$c]:-}" ] || first[$c]=$per
    last[$c]=$per
    rm -f "$f"
  done
done
echo
echo "s/MB at the largest size over s/MB at the smallest (1.0 = linear):"
for c in $cases; do
  awk -v c="$c" -v a="${first[$c]}" -v b="${last[$c]}" \
    'BEGIN { printf "%-12s %s\n", c, (a > 0 ? sprintf("%.2f", b / a) : "n/a (below timer resolution)") }'
done
