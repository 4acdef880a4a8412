#!/usr/bin/env bash
# arm64-sqlite.sh - sqlite3's speedtest1 cross-built for arm64 through the
# whole loop, under qemu-aarch64 (issue #24, items 3 and 4).
#
# Workload: speedtest1 --memdb --verify --size $SIZE (default 50), as in
# bench/layout-sqlite.sh; the profile is of the run with --size $TRAIN_SIZE
# (default: $SIZE, the measured run itself), which the checks of item 3
# trace, count and BOLT. Builds (clang-22 --target=aarch64-linux-gnu, lld,
# -O2 -ffunction-sections -no-pie, -DSQLITE_THREADSAFE=0
# -DSQLITE_OMIT_LOAD_EXTENSION):
#   plain      the baseline;
#   prof       plain + the plugin's map + -Wl,--emit-relocs (.text checked
#              equal to plain's): the binary that is traced and that BOLT
#              optimizes;
#   bbmap      the cluster profile (--layout-for=22) and symbol order of
#              prof's exact trace;
#   bbmap-a1   the same with -falign-loops=1 (no loop-header padding);
#   BOLT       llvm-bolt-22 --enable-bat on prof with perf2bolt-22's fdata of
#              the same trace (ext-tsp, cdsort, hot/cold split).
# Checks, each printed: prof's exact trace (trace-plugin.c) charged by
# bbmap-profile equals count-plugin.c's count of every block; fdata and
# YAML equal perf2bolt-22's; ideal IP samples (every 7th instruction) give
# inferred counts (inference-quality.py); every build prints plain's output;
# BOLT's trace charged through BAT to prof's blocks equals prof's own
# profile. Gain: bench/tools/icache-plugin.c (I1 32 KiB 8-way 64-byte
# lines, the x86-64 benches' geometry) on each build's complete run:
# instructions, I1 misses as built, and the mean, minimum and maximum over
# PLACEMENTS (default 8) placements of the program's code relative to the
# libraries (shift= by k*4096/PLACEMENTS bytes, k = 0..PLACEMENTS-1); .text
# and executable bytes.
#
# Usage: bench/arm64-sqlite.sh   (env SIZE, TRAIN_SIZE, PLACEMENTS,
#   BBMAP_BUILD_DIR)
# Outputs go to bench/out/arm64-sqlite/ (the report: report.md).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

case "${1:-}" in -h|--help) usage; exit 0 ;; esac
[ $# -eq 0 ] || die "no arguments expected (see --help)"
for t in clang-22 llvm-bolt-22 perf2bolt-22 llvm-size-22 llvm-readelf-22 \
  llvm-objcopy-22 qemu-aarch64 cc python3; do
  command -v "$t" >/dev/null || die "$t not found (run scripts/bootstrap.sh)"
done
SIZE=${SIZE:-50} PLACEMENTS=${PLACEMENTS:-8}
TRAIN_SIZE=${TRAIN_SIZE:-$SIZE}
for v in SIZE TRAIN_SIZE PLACEMENTS; do
  [[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "$v must be a positive integer"
done
speedtest_bench_dir arm64-sqlite
ET=$TOOLS/exact-trace
start=$(date +%s)
{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'), load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "tree: $(git -C "$ROOT" log -1 --format='%h %s' | cut -c1-90)"
  echo "workload: speedtest1 --memdb --verify --size $SIZE under qemu-aarch64; $PLACEMENTS placements; profiled on --size $TRAIN_SIZE"
} | tee meta.txt

WL=(--memdb --verify --size "$SIZE") TWL=(--memdb --verify --size "$TRAIN_SIZE")
arm64_speedtest
status=0
# same_text is lib.sh's, with the arm64 binaries.

qemu_plugins

cc22 plain
step "run plain"
"${QEMU[@]}" ./plain "${WL[@]}" | normalize >expected.out
grep -q '^Verification Hash: ' expected.out || die "plain printed no verification hash"
"${QEMU[@]}" ./plain "${TWL[@]}" | normalize >expected.train.out
cc22 prof -fpass-plugin="$PLUGIN" -Wl,--emit-relocs
same_text prof plain

# Item 3: the exact trace and its checks.
step "trace prof (trace-plugin.c and count-plugin.c)"
"${QEMU[@]}" -plugin "bin/trace.so,out=prof.triples" ./prof "${TWL[@]}" >prof.out
check_out "prof traced" prof.out expected.train.out
"${QEMU[@]}" -plugin "bin/count.so,out=prof.raw-counts" ./prof "${TWL[@]}" >/dev/null
run counts python3 "$ET/qemu-counts.py" prof prof.raw-counts -o prof.counts
run preagg python3 "$ET/trace-to-preagg.py" prof prof.triples --format=22 -o prof.pa
run json "$PROFILE" prof --pa=prof.pa --format=json -o prof.json
step "exact counts"
python3 "$TOOLS/check-block-counts.py" prof.json prof.counts --flow | tee exact.txt ||
  status=1
step "fdata and YAML against perf2bolt-22"
run p2b perf2bolt-22 prof --pa -p prof.pa -o prof.p2b.fdata
run p2b-yaml perf2bolt-22 prof --pa -p prof.pa --profile-format=yaml -o prof.p2b.yaml
run fdata "$PROFILE" prof --pa=prof.pa --format=fdata -o prof.fdata
run yaml "$PROFILE" prof --pa=prof.pa --format=yaml -o prof.yaml
{ python3 "$TOOLS/fdata-diff.py" prof.p2b.fdata prof.fdata | tail -n 1 || status=1
  python3 "$TOOLS/yaml-compare.py" prof.p2b.yaml prof.yaml | tail -n 3 || status=1
  python3 "$TOOLS/yaml-compare.py" prof.p2b.yaml prof.yaml --stats || true
} | tee p2b.txt
step "IP samples: inferred counts"
run samples python3 "$TOOLS/ideal-samples.py" prof.counts --period 7 -o prof.ip
run infer "$PROFILE" prof --pa=prof.ip --infer-counts --format=json -o prof.inferred.json
python3 "$TOOLS/inference-quality.py" prof.json prof.inferred.json | tee inference.txt

# The layouts.
run clusters "$PROFILE" prof --pa=prof.pa --format=clusters --layout-for=22 -o prof.clusters
run order "$PROFILE" prof --pa=prof.pa --format=symbol-order -o prof.order
cc22 bbmap -fbasic-block-sections=list="$out/prof.clusters" \
  -Wl,--symbol-ordering-file="$out/prof.order"
cc22 bbmap-a1 -falign-loops=1 -fbasic-block-sections=list="$out/prof.clusters" \
  -Wl,--symbol-ordering-file="$out/prof.order"
step "build BOLT"
run bolt llvm-bolt-22 prof -o BOLT --enable-bat --data=prof.p2b.fdata \
  -reorder-blocks=ext-tsp -reorder-functions=cdsort -split-functions \
  -split-all-cold
step "BOLT's trace through BAT"
"${QEMU[@]}" -plugin "bin/trace.so,out=BOLT.triples" ./BOLT "${TWL[@]}" >BOLT.trace.out
check_out "BOLT traced" BOLT.trace.out expected.train.out
run bolt-preagg python3 "$ET/trace-to-preagg.py" BOLT BOLT.triples --format=22 -o BOLT.pa
run bolt-json "$PROFILE" BOLT --pa=BOLT.pa --input-binary=prof --format=json -o BOLT.json
python3 "$TOOLS/compare-block-profiles.py" prof.json BOLT.json --all | tee bat.txt ||
  status=1

# Item 4: the simulated instruction cache.
# exec_bytes BIN: the bytes of BIN's executable sections.
exec_bytes() {
  llvm-objdump-22 -h "$1" | python3 -c 'import sys
print(sum(int(w[2], 16) for w in map(str.split, sys.stdin)
          if len(w) > 4 and w[0].isdigit() and "TEXT" in w[4:]))'
}
builds=(plain bbmap bbmap-a1 BOLT)
echo "| build | instructions | I1 misses as built | mean | min | max | .text bytes | exec bytes |" >icache.md
echo "|---|---:|---:|---:|---:|---:|---:|---:|" >>icache.md
for b in "${builds[@]}"; do
  range=$(exec_range "$b")
  : >"$b.misses"
  for ((k = 0; k < PLACEMENTS; k++)); do
    delta=$((k * 4096 / PLACEMENTS))
    step "icache $b placement +$delta"
    "${QEMU[@]}" -plugin "bin/icache.so,out=$b.$k.ic,shift=$range+$delta" "./$b" "${WL[@]}" >"$b.$k.out"
    check_out "$b under icache-plugin" "$b.$k.out"
    awk '/^# misses/ { print $3 }' "$b.$k.ic" >>"$b.misses"
  done
  ins=$(awk '/^# instructions/ { print $3 }' "$b.0.ic")
  text=$(llvm-size-22 -A "$b" | awk '$1 == ".text" { print $2 }')
  awk -v b="$b" -v ins="$ins" -v text="$text" -v exec="$(exec_bytes "$b")" '
    { v[NR] = $1; s += $1; if (NR == 1 || $1 < mn) mn = $1; if ($1 > mx) mx = $1 }
    END { printf "| %s | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f |\n", b, ins, v[1], s / NR, mn, mx, text, exec }' \
    "$b.misses" >>icache.md
done
step "done"
{
  cat meta.txt
  echo
  echo "## Exact counts (prof's trace against count-plugin.c)"
  cat exact.txt
  echo
  echo "## fdata and YAML against perf2bolt-22"
  cat p2b.txt
  echo
  echo "## IP samples -> inferred counts"
  cat inference.txt
  echo
  echo "## BOLT's trace charged through BAT to prof"
  cat bat.txt
  echo
  echo "## Simulated I1 (32 KiB, 8-way, 64-byte lines)"
  cat icache.md
} >report.md
cat icache.md
exit $status
