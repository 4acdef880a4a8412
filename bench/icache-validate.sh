#!/usr/bin/env bash
# icache-validate.sh - the trace-driven instruction-cache simulator
# (bench/tools/icache-plugin.c under qemu-x86_64) against cachegrind on the
# same x86-64 binaries (issue #24, item 4): I1 misses and instructions of
# sqlite3's speedtest1 (--memdb --verify --size $SIZE, default 50) built
# plain, laid out by bbmap from its exact trace and BOLTed from the same
# trace, with cachegrind's I1 geometry (32 KiB, 8-way, 64-byte lines).
#
# Each run must print plain's output (times removed). The table gives both
# simulators' instructions and I1 misses and the plugin's difference from
# cachegrind. cachegrind counts a rep-prefixed string instruction once per
# iteration, the plugin once per execution, hence slightly more
# instructions; its iterations fetch the line just fetched, so I1 misses
# do not depend on that.
#
# Usage: bench/icache-validate.sh   (env SIZE, BBMAP_BUILD_DIR)
# Outputs go to bench/out/icache-validate/ (the table: report.md).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

case "${1:-}" in -h|--help) usage; exit 0 ;; esac
[ $# -eq 0 ] || die "no arguments expected (see --help)"
for t in clang-22 llvm-bolt-22 qemu-x86_64 valgrind cc python3; do
  command -v "$t" >/dev/null || die "$t not found (run scripts/bootstrap.sh)"
done
SIZE=${SIZE:-50}
[[ $SIZE =~ ^[1-9][0-9]*$ ]] || die "SIZE must be a positive integer"
speedtest_bench_dir icache-validate cg
ET=$TOOLS/exact-trace
start=$(date +%s)
{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'), load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "tree: $(git -C "$ROOT" log -1 --format='%h %s' | cut -c1-90)"
  echo "host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); $(qemu-x86_64 --version | head -n 1); $(valgrind --version)"
  echo "workload: speedtest1 --memdb --verify --size $SIZE"
} | tee meta.txt

WL=(--memdb --verify --size "$SIZE")
CFLAGS=(-O2 -ffunction-sections -no-pie -DSQLITE_THREADSAFE=0
  -DSQLITE_OMIT_LOAD_EXTENSION -I"$SQLITE" -fuse-ld=lld)
status=0

run plugins.cc cc -O2 -shared -fPIC -o bin/trace.so "$ET/trace-plugin.c"
run plugins.cc cc -O2 -shared -fPIC -I"$ET" -o bin/icache.so \
  "$BENCH/tools/icache-plugin.c"
cc22 plain
./plain "${WL[@]}" | normalize >expected.out
cc22 prof -fpass-plugin="$PLUGIN" -Wl,--emit-relocs
step "trace prof"
qemu-x86_64 -plugin "bin/trace.so,out=prof.triples" ./prof "${WL[@]}" >prof.out
check_out "prof traced" prof.out
run preagg python3 "$ET/trace-to-preagg.py" prof prof.triples --format=22 -o prof.pa
run clusters "$PROFILE" prof --pa=prof.pa --format=clusters --layout-for=22 -o prof.clusters
run order "$PROFILE" prof --pa=prof.pa --format=symbol-order -o prof.order
run fdata "$PROFILE" prof --pa=prof.pa --format=fdata -o prof.fdata
cc22 bbmap -fbasic-block-sections=list="$out/prof.clusters" \
  -Wl,--symbol-ordering-file="$out/prof.order"
step "build BOLT"
run bolt llvm-bolt-22 prof -o BOLT --data=prof.fdata -reorder-blocks=ext-tsp \
  -reorder-functions=cdsort -split-functions -split-all-cold

echo "| build | instructions: cachegrind | plugin | I1 misses: cachegrind | plugin | plugin / cachegrind |" >table.md
echo "|---|---:|---:|---:|---:|---:|" >>table.md
for b in plain bbmap BOLT; do
  step "cachegrind $b"
  cachegrind "$b" "${WL[@]}"
  step "icache-plugin $b"
  qemu-x86_64 -plugin "bin/icache.so,out=$b.ic" "./$b" "${WL[@]}" >"$b.ic.out"
  check_out "$b under icache-plugin" "$b.ic.out"
  read -r q_ins q_mis < <(awk '/^# instructions/ { i = $3 } /^# misses/ { m = $3 }
    END { print i, m }' "$b.ic")
  awk -v b="$b" -v ci="$CG_IR" -v qi="$q_ins" -v cm="$CG_I1" -v qm="$q_mis" 'BEGIN {
    printf "| %s | %.0f | %.0f | %.0f | %.0f | %+.2f %% |\n", b, ci, qi, cm, qm,
      100 * (qm - cm) / cm }' >>table.md
done
step "done"
{ cat meta.txt; echo; cat table.md; } >report.md
cat table.md
exit $status
