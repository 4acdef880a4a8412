#!/usr/bin/env bash
# compile-time.sh - compile-time cost of bbmap-plugin.so versus the in-tree
# -fbasic-block-address-map flag versus no map, on the sqlite3 amalgamation.
#
# For each LLVM major, runs `clang-N -O2 -c sqlite3.c` in the three modes,
# interleaved, REPS times, and reports the median user+sys CPU seconds per
# mode (GNU time, Debian package `time`), each mode's ratio to no-map, and
# plugin/in-tree. The goal is a plugin/in-tree ratio of at most ~1.00; the
# script only reports, it asserts nothing about timing.
#
# Usage: bench/compile-time.sh [--reps N] [--markdown] [19|22 ...]
#   --reps N     repetitions per mode (default 5)
#   --markdown   also print all results as one markdown table at the end
#   majors       default: 19 22
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

reps=5 markdown=0 majors=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --reps) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--reps needs a positive integer"
            reps=$2; shift ;;
    --markdown) markdown=1 ;;
    *) majors+=("$1") ;;
  esac
  shift
done
[ ${#majors[@]} -gt 0 ] || majors=(19 22)
for n in "${majors[@]}"; do check_major "$n"; done
[ -x /usr/bin/time ] || die "needs GNU time: apt-get install time"
fetch_sqlite

modes=(no-map in-tree plugin)
md_rows=()

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

# time_major N: times the modes for clang-N, prints its table and adds its
# markdown row.
time_major() {
  local n=$1 out=$OUT/compile-time/llvm-$1 r mode
  local -A med flags=([no-map]="" [in-tree]="-fbasic-block-address-map"
                      [plugin]="-fpass-plugin=$ROOT/build/llvm-$1/bbmap-plugin.so")
  rm -rf "$out" && mkdir -p "$out"
  echo "llvm-$n: clang-$n -O2 -c sqlite3.c, $reps reps per mode, interleaved"
  for ((r = 1; r <= reps; r++)); do
    for mode in "${modes[@]}"; do
      # shellcheck disable=SC2086 # flags hold zero or one word
      /usr/bin/time -f '%U %S' -o "$out/time" \
        "clang-$n" -O2 ${flags[$mode]} -c "$SQLITE/sqlite3.c" -o "$out/$mode.o"
      awk '{ print $1 + $2 }' "$out/time" >>"$out/$mode.cpu"
    done
  done
  for mode in "${modes[@]}"; do med[$mode]=$(median <"$out/$mode.cpu"); done

  printf '  %-14s %14s %10s\n' mode "median CPU s" "vs no-map"
  for mode in "${modes[@]}"; do
    printf '  %-14s %14.2f %10s\n' "$mode" "${med[$mode]}" "$(ratio "${med[$mode]}" "${med[no-map]}")"
  done
  printf '  %-14s %14s %10s\n' plugin/in-tree "" "$(ratio "${med[plugin]}" "${med[in-tree]}")"
  md_rows+=("$(printf '| %s | %.2f | %.2f (%s) | %.2f (%s) | %s |' "$n" \
    "${med[no-map]}" "${med[in-tree]}" "$(ratio "${med[in-tree]}" "${med[no-map]}")" \
    "${med[plugin]}" "$(ratio "${med[plugin]}" "${med[no-map]}")" \
    "$(ratio "${med[plugin]}" "${med[in-tree]}")")")
}

for n in "${majors[@]}"; do time_major "$n"; done

if [ "$markdown" -eq 1 ]; then
  echo
  echo "Median user+sys CPU seconds of \`clang-N -O2 -c sqlite3.c\` over $reps runs (ratio vs no map):"
  echo
  echo "| LLVM | no map | in-tree flag | bbmap plugin | plugin / in-tree |"
  echo "|---:|---:|---:|---:|---:|"
  printf '%s\n' "${md_rows[@]}"
fi
