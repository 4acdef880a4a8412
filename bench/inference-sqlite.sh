#!/usr/bin/env bash
# inference-sqlite.sh - how close block and edge counts inferred from IP
# samples (bbmap-profile --infer-counts) come to the exact counts of the
# same sqlite3 workload.
#
# Builds the sqlite3 shell twice with clang-22 -O2: with the in-tree map
# (the inference takes the CFG from the decoded code) and with the map's
# PGO analysis as well (-mllvm -pgo-analysis-map=br-prob: the CFG from the
# map's successor lists). For each: the exact profile of one run of
# bench/sqlite-workload.sql (QEMU trace, test/tools/exact-trace), then
#   - ideal IP samples of that run (test/tools/ideal-samples.py on
#     callgrind's per-instruction counts: every N-th instruction executed,
#     N = 1270 and 10000), and
#   - real IP samples: `perf record -e cpu-clock -c 20000` over RUNS runs
#     (default 20) of the workload (this machine has no LBR),
# each inferred with --infer-counts by each solver (bbmap's primal-dual
# minimum-cost flow, the default, and LLVM's profi,
# --inference-solver=profi: the same samples, the same network) and
# compared with test/tools/inference-quality.py (the share of executions
# in blocks inferred within 10% of exact, and more). The numbers are in
# docs/profile.md ("IP samples: inferred counts").
#
# Usage: bench/inference-sqlite.sh        (env RUNS=N, default 20)
# Outputs go to bench/out/inference-sqlite/.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

case "${1:-}" in -h|--help) usage; exit 0 ;; esac
for t in clang-22 qemu-x86_64 valgrind perf cc; do
  command -v "$t" >/dev/null || die "$t not found (run scripts/bootstrap.sh)"
done
RUNS=${RUNS:-20}
PROFILE=$ROOT/build/llvm-22/bbmap-profile
[ -x "$PROFILE" ] || die "no build/llvm-22/bbmap-profile (run: ninja -C build/llvm-22)"
EXACT=$TOOLS/exact-trace
fetch_sqlite
out=$OUT/inference-sqlite
mkdir -p "$out"
cd "$out"
cp "$PROFILE" bbmap-profile
cp "$BENCH/sqlite-workload.sql" workload.sql
cc -O2 -shared -fPIC -o trace-plugin.so "$EXACT/trace-plugin.c"
status=0

# infer BIN SAMPLES NAME: infers SAMPLES (--pa or --perfdata) by each
# solver into BIN.NAME.SOLVER.json and prints how close each comes.
infer() {
  local bin=$1 samples=$2 name=$3 solver
  for solver in primal-dual profi; do
    ./bbmap-profile "$bin" "$samples" --infer-counts --inference-solver=$solver \
      --format=json -o "$bin.$name.$solver.json"
    echo "   $solver:"
    python3 "$TOOLS/inference-quality.py" "$bin.exact.json" "$bin.$name.$solver.json" || status=1
  done
}

# measure NAME CFLAGS...: build, exact profile, ideal and real samples.
measure() {
  local bin=$1
  shift
  echo "== $bin $*"
  clang-22 -O2 -no-pie -fbasic-block-address-map "$@" -fuse-ld=lld \
    -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION \
    "$SQLITE/sqlite3.c" "$SQLITE/shell.c" -o "$bin" -lm
  qemu-x86_64 -plugin "./trace-plugin.so,out=$bin.triples" "./$bin" -batch :memory: \
    <workload.sql >"$bin.qemu.out"
  cmp -s "$BENCH/sqlite-workload.expected" "$bin.qemu.out" || die "$bin: wrong output under qemu"
  python3 "$EXACT/trace-to-preagg.py" "$bin" "$bin.triples" --format=22 -o "$bin.pa"
  ./bbmap-profile "$bin" --pa="$bin.pa" --format=json -o "$bin.exact.json"
  python3 "$EXACT/callgrind-counts.py" "$bin" -o "$bin.counts" -- "./$bin" -batch :memory: \
    <workload.sql >/dev/null 2>"$bin.cg.err" || { cat "$bin.cg.err" >&2; die "callgrind failed"; }
  for period in 1270 10000; do
    python3 "$TOOLS/ideal-samples.py" "$bin.counts" --period $period -o "$bin.ideal$period.pa"
    echo "-- ideal samples, 1 per $period instructions ($(wc -l <"$bin.ideal$period.pa") addresses):"
    infer "$bin" --pa="$bin.ideal$period.pa" "ideal$period"
  done
  perf record -q -e cpu-clock -c 20000 -o "$bin.perf.data" -- sh -c \
    "for i in \$(seq $RUNS); do ./$bin -batch :memory: <workload.sql >/dev/null; done" \
    >"$bin.perf.log" 2>&1 || die "perf record failed; see $out/$bin.perf.log"
  ./bbmap-profile "$bin" --perfdata="$bin.perf.data" --infer-counts >"$bin.perf.txt"
  echo "-- perf record -e cpu-clock -c 20000, $RUNS runs: $(head -n 2 "$bin.perf.txt" | tail -n 1)"
  echo "   $("$PROFILE" "$bin" --perfdata="$bin.perf.data" | head -n 1)"
  infer "$bin" --perfdata="$bin.perf.data" perf
}

measure sqlite3-code
measure sqlite3-map -mllvm -pgo-analysis-map=br-prob
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $status
