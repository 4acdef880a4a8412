#!/usr/bin/env bash
# layout-sqlite.sh - end-to-end layout benchmark on sqlite3: bbmap's layout
# (cluster profile + symbol order, applied by a stock clang-22 and lld)
# against llvm-bolt-22 on the same profile, in-tree PGO, and PGO plus
# bbmap's layout; ratios to the plain -O2 build (issue #10, item 3).
#
# Workload: speedtest1 (test/speedtest1.c of the same sqlite source tree)
# with `--memdb --verify --size $SIZE` (default 50). It is sqlite's own
# performance test: 32 test cases (inserts with and without indexes, range,
# LIKE and text selects, sorting, joins, updates, deletes, REPLACE, VACUUM,
# integrity_check, ANALYZE) through the VDBE, the B-tree and the pager, so
# the hot code is most of the executed instructions (sqlite3VdbeExec alone
# about 30 %) and large enough (a few hundred functions) for layout to
# matter. In-memory and seeded with speedtest1's own PRNG, it is
# deterministic: the same instruction count every run (to a few thousand
# in 7.6 G: the per-test timing) and a hash of every result (`--verify`),
# which with the per-test times removed is the output every build must
# reproduce. The SQL workload of bench/profile-sqlite.sh
# (bench/sqlite-workload.sql) runs 47 M instructions (about 15 ms), too
# short for wall times; speedtest1 at --size 50 runs 7.6 G (about 0.8 s
# natively, a qemu trace in about 10 s, a cachegrind run in about 40 s;
# the whole script in about 10 minutes).
#
# Builds (clang-22, lld, `-O2 -ffunction-sections -no-pie`, sqlite3.c and
# speedtest1.c, -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION):
#   plain        plain -O2 (the baseline).
#   prof         plain + -fpass-plugin=bbmap-plugin.so (the map, with the
#                compiler's own block IDs) + -Wl,--emit-relocs (for BOLT):
#                the binary that is profiled and that BOLT optimizes. Its
#                .text must equal plain's (checked).
#   bbmap        -fbasic-block-sections=list=C -Wl,--symbol-ordering-file=O
#                from `bbmap-profile prof PROFILE --format=clusters
#                --layout-for=22` and `--format=symbol-order`.
#   BOLT         llvm-bolt-22 prof with perf2bolt-22's fdata of PROFILE,
#                -reorder-blocks=ext-tsp -reorder-functions=cdsort
#                -split-functions -split-all-cold.
#   PGO          -fprofile-use of the profile of a -fprofile-generate build
#                (IR-level instrumentation, i.e. IRPGO; PGO_GEN=-fprofile-
#                instr-generate selects clang's front-end instrumentation)
#                on the same workload, merged by llvm-profdata-22. Its
#                plugin build (pgo-prof, .text checked equal) is profiled
#                the same way as prof.
#   PGO+bbmap    -fprofile-use plus the cluster profile and symbol order
#                from pgo-prof's profile.
# Profile sources, each with its own bbmap, BOLT and PGO+bbmap builds and
# its own table (plain and PGO are shared):
#   perf   `perf record -e cpu-clock -F $PERF_FREQ` (default 20000) of
#          $PERF_RUNS runs (default 5): IP samples (this machine has no
#          LBR); bbmap-profile --perfdata, perf2bolt-22 -p --ba (no-LBR).
#   trace  the exact trace of bench/profile-sqlite.sh: qemu-x86_64 with
#          test/tools/exact-trace/trace-plugin.so, trace-to-preagg.py
#          --format=22; bbmap-profile --pa, perf2bolt-22 --pa.
# bbmap-profile and the plugin are those of $BBMAP_BUILD_DIR/llvm-22
# (default build/llvm-22 of this tree), copied to the output first.
# Metrics per build: wall time (median of RUNS, default 5, interleaved
# runs after one warm-up round; the builds run round-robin, so drift hits
# all alike) and the CPU time (user+sys) of the same runs; instructions,
# I1 and LLi misses (cachegrind --cache-sim=yes, I1 32 KiB 8-way, D1
# 48 KiB 12-way, LL 2 MiB 16-way, 64-byte lines; deterministic); .text and
# total executable-section bytes (llvm-size-22, flags from llvm-readelf-22). Every run of every build (native, perf,
# qemu, cachegrind, instrumented) must print plain's output (times
# removed).
#
# Exits non-zero if any build's output differs or a step fails.
#
# Usage: bench/layout-sqlite.sh   (env RUNS, SIZE, PERF_RUNS, PERF_FREQ,
#                                  PGO_GEN, BBMAP_BUILD_DIR)
# Outputs go to bench/out/layout-sqlite/ (the report: report.md).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

case "${1:-}" in -h|--help) usage; exit 0 ;; esac
[ $# -eq 0 ] || die "no arguments expected (see --help)"
for t in clang-22 llvm-bolt-22 perf2bolt-22 llvm-profdata-22 llvm-size-22 \
  llvm-readelf-22 llvm-objcopy-22 qemu-x86_64 valgrind perf cc python3; do
  command -v "$t" >/dev/null || die "$t not found (run scripts/bootstrap.sh)"
done
RUNS=${RUNS:-5} SIZE=${SIZE:-50} PERF_RUNS=${PERF_RUNS:-5}
PERF_FREQ=${PERF_FREQ:-20000} PGO_GEN=${PGO_GEN:--fprofile-generate}
for v in RUNS SIZE PERF_RUNS PERF_FREQ; do
  [[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "$v must be a positive integer"
done
case $PGO_GEN in -fprofile-generate|-fprofile-instr-generate) ;;
  *) die "PGO_GEN must be -fprofile-generate or -fprofile-instr-generate" ;; esac
speedtest_bench_dir layout-sqlite cg
start=$(date +%s)
{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'), load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "tree: $(git -C "$ROOT" log -1 --format='%h %s' | cut -c1-90)" \
    "($(git -C "$ROOT" diff --quiet HEAD -- lib include tools plugin && echo clean || echo 'with local changes'))"
  echo "bbmap-profile, plugin: $build"
  echo "workload: speedtest1 --memdb --verify --size $SIZE; RUNS=$RUNS; perf: $PERF_RUNS runs at $PERF_FREQ Hz; PGO: $PGO_GEN"
} | tee meta.txt

WL=(--memdb --verify --size "$SIZE")
CFLAGS=(-O2 -ffunction-sections -no-pie -DSQLITE_THREADSAFE=0
  -DSQLITE_OMIT_LOAD_EXTENSION -I"$SQLITE" -fuse-ld=lld)
status=0

# cc22 NAME FLAGS...: builds speedtest1 as NAME with clang-22.

# The baseline and the profiled binaries.
cc22 plain
./plain "${WL[@]}" | normalize >expected.out
grep -q '^Verification Hash: ' expected.out || die "plain printed no verification hash"
cc22 prof -fpass-plugin="$PLUGIN" -Wl,--emit-relocs
same_text prof plain
cc22 pgo-gen "$PGO_GEN"
step "run pgo-gen (instrumented)"
rm -f pgo.profraw
LLVM_PROFILE_FILE=$out/pgo.profraw ./pgo-gen "${WL[@]}" >pgo-gen.out
check_out pgo-gen pgo-gen.out
run profdata llvm-profdata-22 merge -o pgo.profdata pgo.profraw
cc22 pgo -fprofile-use="$out/pgo.profdata"
cc22 pgo-prof -fprofile-use="$out/pgo.profdata" -fpass-plugin="$PLUGIN"
same_text pgo-prof pgo

# The two profiles of each profiled binary.
cc -O2 -shared -fPIC -o trace-plugin.so "$TOOLS/exact-trace/trace-plugin.c"
for b in prof pgo-prof; do
  step "perf record $b ($PERF_RUNS runs)"
  run "$b.perf-record" perf record -e cpu-clock -F "$PERF_FREQ" -o "$b.perf.data" -- \
    sh -c "for i in \$(seq $PERF_RUNS); do ./$b ${WL[*]} >$b.perf.\$i.out; done"
  for i in $(seq "$PERF_RUNS"); do check_out "$b under perf" "$b.perf.$i.out"; done
  echo "  $(perf script -i "$b.perf.data" -F ip 2>/dev/null | wc -l) samples"
  step "trace $b (qemu)"
  env -u LD_PRELOAD qemu-x86_64 -plugin "./trace-plugin.so,out=$b.triples" \
    "./$b" "${WL[@]}" >"$b.qemu.out"
  check_out "$b under qemu" "$b.qemu.out"
  run "$b.preagg" python3 "$TOOLS/exact-trace/trace-to-preagg.py" "$b" \
    "$b.triples" --format=22 -o "$b.pa"
  echo "  $(wc -l <"$b.pa") pre-aggregated records"
done

# The optimized builds, per profile source.
sources=(perf trace)
for s in "${sources[@]}"; do
  for b in prof pgo-prof; do
    if [ "$s" = perf ]; then src=(--perfdata="$b.perf.data"); else src=(--pa="$b.pa"); fi
    step "bbmap-profile $b ($s): clusters and symbol order"
    run "$b.$s.clusters" "$PROFILE" "$b" "${src[@]}" --format=clusters \
      --layout-for=22 -o "$b.$s.clusters"
    run "$b.$s.order" "$PROFILE" "$b" "${src[@]}" --format=symbol-order -o "$b.$s.order"
    echo "  $(grep -c '^f ' "$b.$s.clusters") functions in the cluster profile," \
      "$(wc -l <"$b.$s.order") symbols in the order"
  done
  cc22 "bbmap-$s" -fbasic-block-sections=list="$out/prof.$s.clusters" \
    -Wl,--symbol-ordering-file="$out/prof.$s.order"
  cc22 "pgo-bbmap-$s" -fprofile-use="$out/pgo.profdata" \
    -fbasic-block-sections=list="$out/pgo-prof.$s.clusters" \
    -Wl,--symbol-ordering-file="$out/pgo-prof.$s.order"
  step "perf2bolt-22 and llvm-bolt-22 ($s)"
  if [ "$s" = perf ]; then
    run "bolt-$s.p2b" perf2bolt-22 prof -p prof.perf.data --ba -o "prof.$s.fdata"
  else
    run "bolt-$s.p2b" perf2bolt-22 prof --pa -p prof.pa -o "prof.$s.fdata"
  fi
  run "bolt-$s.bolt" llvm-bolt-22 prof -o "bolt-$s" --data "prof.$s.fdata" \
    -reorder-blocks=ext-tsp -reorder-functions=cdsort -split-functions \
    -split-all-cold
  grep -E 'BOLT-INFO: (.* have non-empty execution profile|basic block reordering modified|splitting separates)' \
    "log/bolt-$s.bolt" | sed 's/^/  /' || true
done

builds=(plain bbmap-perf bolt-perf pgo pgo-bbmap-perf bbmap-trace bolt-trace pgo-bbmap-trace)

# Deterministic metrics: cachegrind and sizes.
declare -A IR I1 LLI TEXT EXEC WALL CPU SPREAD
for b in "${builds[@]}"; do
  step "cachegrind $b"
  cachegrind "$b" "${WL[@]}"
  IR[$b]=$CG_IR I1[$b]=$CG_I1 LLI[$b]=$CG_LLI
  TEXT[$b]=$(llvm-size-22 -A "$b" | awk '$1 == ".text" { print $2 }')
  exec_sections "$b" >"$b.exec-sections"
  EXEC[$b]=$(awk '{ s += $2 } END { print s }' "$b.exec-sections")
done

# Wall time: a warm-up round, then RUNS rounds; each round runs every build
# once, starting one build further on than the round before. The children's
# CPU time (user+sys, from the shell's `times`) is recorded alongside: on a
# machine shared with other jobs it is the steadier figure.
step "wall time: 1 + $RUNS rounds of ${#builds[@]} builds"
nb=${#builds[@]}
# cpu_s FILE: children's user+sys seconds from the output of `times`.
cpu_s() { awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/)
  printf "%.3f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$1"; }
for r in $(seq 0 "$RUNS"); do
  for k in $(seq 0 $((nb - 1))); do
    b=${builds[$(((k + r) % nb))]}
    times >times.0
    t0=$EPOCHREALTIME
    "./$b" "${WL[@]}" >"$b.run.out"
    t1=$EPOCHREALTIME
    times >times.1
    [ "$r" -eq 0 ] || echo "$t0 $t1 $(cpu_s times.0) $(cpu_s times.1)" >>"$b.wall"
    check_out "$b (run $r)" "$b.run.out"
  done
done
# median_of K FILE: the median of column K minus column K-1 of FILE's lines.
median_of() {
  awk -v k="$1" '{ print $k - $(k - 1) }' "$2" | median | awk '{ printf "%.3f", $1 }'
}
for b in "${builds[@]}"; do
  WALL[$b]=$(median_of 2 "$b.wall") CPU[$b]=$(median_of 4 "$b.wall")
  SPREAD[$b]=$(awk '{ print $4 - $3 }' "$b.wall" | sort -g |
    awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.3f-%.3f", lo, hi }')
done

# The report.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3fx", a / b }'; }
name() {
  case $1 in
    plain) echo "plain -O2" ;; pgo) echo "PGO" ;;
    bbmap-*) echo "bbmap layout" ;; bolt-*) echo "BOLT" ;; pgo-bbmap-*) echo "PGO + bbmap" ;;
  esac
}
row() { # row BUILD BASE: one row of ratios of BUILD to BASE
  printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$(name "$1")" \
    "$(ratio "${WALL[$1]}" "${WALL[$2]}")" "$(ratio "${CPU[$1]}" "${CPU[$2]}")" \
    "$(ratio "${IR[$1]}" "${IR[$2]}")" \
    "$(ratio "${I1[$1]}" "${I1[$2]}")" "$(ratio "${LLI[$1]}" "${LLI[$2]}")" \
    "$(ratio "${TEXT[$1]}" "${TEXT[$2]}")" "$(ratio "${EXEC[$1]}" "${EXEC[$2]}")"
}
{
  echo
  for s in "${sources[@]}"; do
    case $s in
      perf) echo "### Profile: perf record -e cpu-clock (IP samples), ratios to plain -O2" ;;
      trace) echo "### Profile: exact trace (qemu), ratios to plain -O2" ;;
    esac
    echo
    echo "| build | wall | CPU | instructions | I1 misses | LLi misses | .text | exec sections |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|"
    for b in plain "bbmap-$s" "bolt-$s" pgo "pgo-bbmap-$s"; do row "$b" plain; done
    printf '\nPGO + bbmap against PGO: wall %s, CPU %s, instructions %s, I1 misses %s, LLi misses %s\n\n' \
      "$(ratio "${WALL[pgo-bbmap-$s]}" "${WALL[pgo]}")" "$(ratio "${CPU[pgo-bbmap-$s]}" "${CPU[pgo]}")" \
      "$(ratio "${IR[pgo-bbmap-$s]}" "${IR[pgo]}")" \
      "$(ratio "${I1[pgo-bbmap-$s]}" "${I1[pgo]}")" "$(ratio "${LLI[pgo-bbmap-$s]}" "${LLI[pgo]}")"
  done
  echo "### Absolute values"
  echo
  echo "| build | profile | wall s | CPU s | CPU s min-max | instructions | I1 misses | LLi misses | .text bytes | exec bytes |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  for b in "${builds[@]}"; do
    p=${b##*-}; case $b in plain|pgo) p=- ;; esac
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$(name "$b")" "$p" "${WALL[$b]}" \
      "${CPU[$b]}" "${SPREAD[$b]}" "${IR[$b]}" "${I1[$b]}" "${LLI[$b]}" "${TEXT[$b]}" "${EXEC[$b]}"
  done
  echo
  echo "Wall and CPU: medians of $RUNS interleaved runs. Executable sections of the BOLTed binaries"
  echo "(BOLT keeps the input's code as .bolt.org.text; the functions it rewrote are in .text"
  echo "and .text.cold):"
  for b in bolt-perf bolt-trace; do
    echo "- $b: $(awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2 }' "$b.exec-sections")"
  done
  echo
  # A program that never sleeps waits for a core when its wall time exceeds
  # its CPU time: other jobs were running, and its wall times are noise.
  busy=$(for b in "${builds[@]}"; do echo "${WALL[$b]} ${CPU[$b]}"; done |
    awk '{ r = $1 / $2; if (r > m) m = r } END { printf "%.2f", m }')
  if awk -v r="$busy" 'BEGIN { exit !(r > 1.05) }'; then
    echo "NOTE: the machine was busy during the timed runs (median wall time up to ${busy}x"
    echo "the CPU time): the wall times include waiting for a core; compare CPU times."
    echo
  fi
  echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); run time $(($(date +%s) - start)) s"
} >report.body
cat meta.txt report.body >report.md
cat report.body
if [ "$status" -eq 0 ]; then echo "layout-sqlite: PASS"; else echo "layout-sqlite: FAIL"; fi
exit $status
