#!/usr/bin/env bash
# turnaround-cppcheck.sh - from a profile to an optimized binary, each route
# timed in the same run (issue #37, item 4), on cppcheck's testrunner as
# bench/large-cppcheck.sh builds it (Debian's flags, PIE, lld), with the
# perf IP samples and the exact trace of that bench:
#
#   turnaround   the per-block build (-fbasic-block-sections=all, the map,
#                lld --optimize-bb-jumps) is made once and profiled; then,
#                $reps times each: bbmap-profile --format=block-order
#                (--block-scope=functions and program) and lld relinking
#                its objects, against perf2bolt-22 + llvm-bolt-22 of the
#                plain build; every relink checked with --check-order.
#                Simulated I1 misses (as built and the mean over 8
#                placements, as the layout suite measures them) and the
#                workload's CPU time of each binary, beside the suite's
#                recompiled layouts (bench/large-cppcheck.sh suite, run it
#                first); and what the per-block build costs with no
#                profile against plain -O2: code, objects, link time, CPU
#                time, I1 misses
#   incremental  per-unit profiles (--unit-dir) and scripts/bbmap-unit-
#                launcher: a full build with the unit files of one perf
#                profile, then the files of a profile of another run of the
#                same workload, the incremental rebuild (objects
#                recompiled, wall and CPU time), a full rebuild from clean
#                with the same files (byte-identical, timed), and the units
#                each --unit-min-gain would recompile with their share of
#                the compile time. BBMAP_UNIT_ARGS gives bbmap-profile the
#                options of the timed run (e.g. --unit-min-gain=0.005).
#
# Usage: bench/turnaround-cppcheck.sh [--reps N] [turnaround] [incremental]
#   (default: both; --reps N: timed runs of each route, default 5)
# Output: bench/out/large-cppcheck/ta/report.md and incremental.md, and
# ta/unit-gains.md.
set -euo pipefail
args=() parts=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    --reps) args+=(--reps "${2:?--reps needs a number}"); shift ;;
    turnaround|incremental) parts+=("$1") ;;
    *) echo "turnaround-cppcheck.sh: unknown argument '$1' (see --help)" >&2; exit 1 ;;
  esac
  shift
done
[ ${#parts[@]} -gt 0 ] || parts=(turnaround incremental)
exec "$(dirname "$0")/large-cppcheck.sh" "${args[@]}" "${parts[@]}"
