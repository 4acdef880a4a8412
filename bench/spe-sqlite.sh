#!/usr/bin/env bash
# spe-sqlite.sh - ARM SPE branch samples against IP samples at the same
# sampling overhead, on sqlite3's speedtest1 cross-built for arm64 and run
# under qemu-aarch64 (issue #39, item 5).
#
# Builds plain and prof as bench/arm64-sqlite.sh does (clang-22
# --target=aarch64-linux-gnu -O2 -ffunction-sections -no-pie, lld; prof
# with the plugin's map and -Wl,--emit-relocs), traces prof's run of
# speedtest1 --memdb --verify --size $TRAIN_SIZE exactly (trace-plugin.c;
# the truth: bbmap-profile's block counts of that trace, checked against
# count-plugin.c by arm64-sqlite.sh), then for each SPE interval N of
# RATES (default 1024 4096 16384 65536 operations):
#   SPE  test/tools/spe-data-gen.py: the perf.data `perf record -e
#        arm_spe_0/branch_filter=1/u` writes at interval N with jitter
#        (every executed instruction one operation; branch records kept),
#        read natively: bbmap-profile --perfdata --infer-counts;
#   IP   ideal IP samples (ideal-samples.py) with as many samples as SPE
#        wrote records: the same sampling overhead (one record or sample
#        written, one interrupt's share, per sample), period = executed
#        instructions / SPE records; bbmap-profile --pa --infer-counts.
# Both kinds are taken two ways. Systematic: every N-th operation (SPE,
# --systematic) or every period-th instruction (IP), in a fixed order of
# the aggregated trace (it keeps no execution order), as the hardware's
# counter and a timer take them, without the noise of random draws.
# Random: the sampled instances drawn at random (the generator's default,
# ideal-samples.py --random), the noise a jittered interval in an
# unknown order may add.
# Quality (inference-quality.py against the exact counts): the share of
# blocks within 10 % of the truth, count-weighted and unweighted, and of
# edges (count-weighted); also SPE's records charged as perf2bolt --spe
# reads them ("SPE, no inference"). Layouts for each N of LAYOUT_RATES
# (default 1024 16384): clusters and symbol order of the SPE and the IP
# profiles (bbmap-spe-N, bbmap-ip-N; random: bbmap-sper-N, bbmap-ipr-N), of
# the exact trace (bbmap-exact), and BOLT-22
# (-reorder-blocks=ext-tsp -reorder-functions=cdsort -split-functions
# -split-all-cold) with the fdata perf2bolt-22 --spe makes of the same SPE
# file (perf 6.14's branch stack text, served by test/tools/fake-perf-spe:
# Debian's perf 6.1 cannot print it). Each build's run of --size $SIZE
# under bench/tools/icache-plugin.c (I1 32 KiB 8-way 64-byte lines):
# instructions, I1 misses as built and the mean over PLACEMENTS
# placements (arm64-sqlite.sh's shifts). Every build's output is checked.
#
# Usage: bench/spe-sqlite.sh   (env SIZE (default 5), TRAIN_SIZE (default
#   SIZE), RATES, LAYOUT_RATES, PLACEMENTS (default 2), BBMAP_BUILD_DIR)
# Outputs go to bench/out/spe-sqlite/ (the report: report.md).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

case "${1:-}" in -h|--help) usage; exit 0 ;; esac
[ $# -eq 0 ] || die "no arguments expected (see --help)"
for t in clang-22 llvm-bolt-22 perf2bolt-22 llvm-size-22 qemu-aarch64 cc \
  python3; do
  command -v "$t" >/dev/null || die "$t not found (run scripts/bootstrap.sh)"
done
SIZE=${SIZE:-5} PLACEMENTS=${PLACEMENTS:-2}
TRAIN_SIZE=${TRAIN_SIZE:-$SIZE}
RATES=${RATES:-1024 4096 16384 65536}
LAYOUT_RATES=${LAYOUT_RATES:-1024 16384}
for v in SIZE TRAIN_SIZE PLACEMENTS; do
  [[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "$v must be a positive integer"
done
for n in $RATES $LAYOUT_RATES; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || die "RATES and LAYOUT_RATES hold positive integers"
done
speedtest_bench_dir spe-sqlite
ET=$TOOLS/exact-trace
start=$(date +%s)
{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'), load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "tree: $(git -C "$ROOT" log -1 --format='%h %s' | cut -c1-90)"
  echo "workload: speedtest1 --memdb --verify --size $SIZE under qemu-aarch64, profiled on --size $TRAIN_SIZE; SPE intervals: $RATES; layouts: $LAYOUT_RATES; $PLACEMENTS placements"
} | tee meta.txt

WL=(--memdb --verify --size "$SIZE") TWL=(--memdb --verify --size "$TRAIN_SIZE")
arm64_speedtest
status=0

qemu_plugins
mkdir -p fakeperf
ln -sf "$TOOLS/fake-perf-spe" fakeperf/perf

cc22 plain
step "run plain"
"${QEMU[@]}" ./plain "${WL[@]}" | normalize >expected.out
grep -q '^Verification Hash: ' expected.out || die "plain printed no verification hash"
"${QEMU[@]}" ./plain "${TWL[@]}" | normalize >expected.train.out
cc22 prof -fpass-plugin="$PLUGIN" -Wl,--emit-relocs

step "trace prof"
"${QEMU[@]}" -plugin "bin/trace.so,out=prof.triples" ./prof "${TWL[@]}" >prof.out
check_out "prof traced" prof.out expected.train.out
run preagg python3 "$ET/trace-to-preagg.py" prof prof.triples --format=22 -o prof.pa
run json "$PROFILE" prof --pa=prof.pa --format=json -o exact.json
# Per-instruction counts of prof's code (count-plugin.c) for the ideal IP
# sampler, and the run's executed instructions in every object, which SPE
# samples over (arm64: 4 bytes an instruction).
"${QEMU[@]}" -plugin "bin/count.so,out=prof.raw-counts" ./prof "${TWL[@]}" >/dev/null
run counts python3 "$ET/qemu-counts.py" prof prof.raw-counts -o prof.counts
executed=$(python3 -c 'import sys
n = 0
for line in open(sys.argv[1]):
    if line.startswith("#"):
        continue
    start, source, _, count = line.split()
    n += int(count) * ((int(source, 16) - int(start, 16)) // 4 + 1)
print(n)' prof.triples)
echo "  executed instructions: $executed"

echo "| SPE interval | SPE records | IP period | blocks within 10 %, weighted: SPE | IP | SPE random | IP random | SPE, no inference | unweighted: SPE | IP | edges within 10 %, weighted: SPE | IP | SPE random | IP random |" >quality.md
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|" >>quality.md
# share FILE KEY: the count-weighted and the plain share within 10 % that
# inference-quality.py prints on its line KEY (blocks, edges), in percent.
share() {
  awk -v k="$2:" '$1 == k { w = $8; p = $5; sub(/%/, "", w); sub(/%/, "", p); print w, p }' "$1"
}
for n in $RATES; do
  step "SPE at 1/$n"
  run "spe-$n.gen" python3 "$TOOLS/spe-data-gen.py" prof prof.triples -o "spe-$n.data" \
    --interval="$n" --jitter --systematic --expect="spe-$n.expect" --brstack-text="spe-$n.data.brstack"
  run "sper-$n.gen" python3 "$TOOLS/spe-data-gen.py" prof prof.triples -o "sper-$n.data" \
    --interval="$n" --jitter --expect="sper-$n.expect" --brstack-text="sper-$n.data.brstack"
  records=$(grep -c ' instructions ' "spe-$n.expect")
  [ "$records" -gt 0 ] || die "no SPE record at interval $n"
  period=$(( (executed + records / 2) / records ))
  for k in spe sper; do
    run "$k-$n.json" "$PROFILE" prof --perfdata="$k-$n.data" --infer-counts --format=json -o "$k-$n.json"
  done
  run "spe-$n.branches" "$PROFILE" prof --perfdata="spe-$n.data" --format=json -o "spe-$n.branches.json"
  run "ip-$n.pa" python3 "$TOOLS/ideal-samples.py" prof.counts --period "$period" -o "ip-$n.pa"
  run "ipr-$n.pa" python3 "$TOOLS/ideal-samples.py" prof.counts --period "$period" --random -o "ipr-$n.pa"
  for k in ip ipr; do
    run "$k-$n.json" "$PROFILE" prof --pa="$k-$n.pa" --infer-counts --format=json -o "$k-$n.json"
  done
  for k in spe sper ip ipr; do
    python3 "$TOOLS/inference-quality.py" exact.json "$k-$n.json" >"$k-$n.quality" || true
  done
  python3 "$TOOLS/inference-quality.py" exact.json "spe-$n.branches.json" --scale=bytes \
    >"spe-$n.branches.quality" || true
  read -r sw su < <(share "spe-$n.quality" blocks)
  read -r iw iu < <(share "ip-$n.quality" blocks)
  read -r srw _ < <(share "sper-$n.quality" blocks)
  read -r irw _ < <(share "ipr-$n.quality" blocks)
  read -r bw _ < <(share "spe-$n.branches.quality" blocks)
  read -r se _ < <(share "spe-$n.quality" edges)
  read -r ie _ < <(share "ip-$n.quality" edges)
  read -r sre _ < <(share "sper-$n.quality" edges)
  read -r ire _ < <(share "ipr-$n.quality" edges)
  echo "| $n | $records | $period | $sw | $iw | $srw | $irw | $bw | $su | $iu | $se | $ie | $sre | $ire |" >>quality.md
done
cat quality.md

# layout NAME PROFILE-ARGS...: builds NAME with the layout of a profile.
layout() {
  local b=$1; shift
  run "$b.clusters" "$PROFILE" prof "$@" --format=clusters --layout-for=22 -o "$b.clusters"
  run "$b.order" "$PROFILE" prof "$@" --format=symbol-order -o "$b.order"
  cc22 "$b" -fbasic-block-sections=list="$out/$b.clusters" \
    -Wl,--symbol-ordering-file="$out/$b.order"
}
builds=(plain)
layout bbmap-exact --pa=prof.pa
builds+=(bbmap-exact)
for n in $LAYOUT_RATES; do
  [ -f "spe-$n.data" ] || die "LAYOUT_RATES names $n, which RATES lacks"
  layout "bbmap-spe-$n" --perfdata="spe-$n.data"
  layout "bbmap-ip-$n" --pa="ip-$n.pa"
  layout "bbmap-sper-$n" --perfdata="sper-$n.data"
  layout "bbmap-ipr-$n" --pa="ipr-$n.pa"
  step "BOLT-spe-$n"
  PATH=$out/fakeperf:$PATH run "bolt-$n.p2b" perf2bolt-22 --spe prof -p "spe-$n.data" -o "spe-$n.p2b.fdata"
  run "bolt-$n" llvm-bolt-22 prof -o "BOLT-spe-$n" --data="spe-$n.p2b.fdata" \
    -reorder-blocks=ext-tsp -reorder-functions=cdsort -split-functions -split-all-cold
  builds+=("bbmap-spe-$n" "bbmap-ip-$n" "bbmap-sper-$n" "bbmap-ipr-$n" "BOLT-spe-$n")
done

echo "| build | instructions | I1 misses as built | mean over placements | × bbmap-exact (mean) |" >icache.md
echo "|---|---:|---:|---:|---:|" >>icache.md
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
done
exact_mean=$(awk '{ s += $1 } END { print s / NR }' bbmap-exact.misses)
for b in "${builds[@]}"; do
  ins=$(awk '/^# instructions/ { print $3 }' "$b.0.ic")
  awk -v b="$b" -v ins="$ins" -v ex="$exact_mean" '
    { v[NR] = $1; s += $1 }
    END { printf "| %s | %.0f | %.0f | %.0f | %.3f |\n", b, ins, v[1], s / NR, s / NR / ex }' \
    "$b.misses" >>icache.md
done
step "done"
{
  cat meta.txt
  echo
  echo "executed instructions (every object, training run): $executed"
  echo
  echo "## Inferred counts against the exact counts"
  cat quality.md
  echo
  echo "## Simulated I1 (32 KiB, 8-way, 64-byte lines)"
  cat icache.md
} >report.md
cat icache.md
exit $status
