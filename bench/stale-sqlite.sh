#!/usr/bin/env bash
# stale-sqlite.sh - how much of a fresh profile's benefit survives a stale
# one: a profile of build A applied to a changed build B (issue #14, item 2).
#
# Workload: speedtest1 `--memdb --verify --size $SIZE` as in
# bench/layout-sqlite.sh, with SIZE 25 by default (half of layout-sqlite's
# 50, to keep the 20 cachegrind runs and 13 compilations of sqlite3.c
# under about 15 minutes on a 2-core machine).
#
# Builds (sqlite3.c + speedtest1.c, `-O2 -ffunction-sections -no-pie`,
# lld, the bbmap plugin with -bbmap-bb-hash, -Wl,--emit-relocs for BOLT):
#   A    clang-22, the unpatched source: the build that is profiled.
#   B    clang-22, the source with bench/stale-sqlite.patch (four hot
#        functions changed, results unchanged; see the patch's header).
#   B'   clang-19 (its plugin, -bbmap-version=4 for the hashes), the
#        unpatched source: the same code through the other major.
# All three must print the same speedtest1 output (per-test times removed),
# natively, under perf, qemu and cachegrind, and so must every optimized
# build below.
# Profile sources, each of A, B and B': `trace` (the exact qemu trace,
# test/tools/exact-trace, pre-aggregated T lines by trace-to-preagg.py
# --format=22; bbmap-profile --pa, perf2bolt-22 --pa) and `perf`
# (`perf record -e cpu-clock -F $PERF_FREQ`, $PERF_RUNS runs, default 3 at
# 20000 Hz: IP samples; bbmap-profile --perfdata, perf2bolt-22 --ba).
#
# For each pair (A->B, A->B') and source, two tables:
# 1. Recovered weight: the share of the target's exact block weight (from
#    its own trace) in blocks whose count from the profile is within 10% of
#    exact, and within 2x (test/tools/inference-quality.py; trace counts
#    compared as they are, perf counts, inferred with --infer-counts,
#    scaled by executed bytes first). Rows: the
#    target's own (fresh) profile; bbmap's stale matching (bbmap-profile
#    TARGET --profiled-binary=A ...); BOLT's (llvm-bolt-22 TARGET
#    --data=A.yaml --infer-stale-profile -w matched.yaml, read onto the
#    map's blocks with bbmap-profile --yaml). A row is n/a when the
#    bbmap-profile in use lacks the option.
# 2. Layout gain on the target: instructions and I1 misses (cachegrind,
#    the cache model of layout-sqlite.sh; deterministic, one run each) of
#    the target as built (its .text is a plain build's: the plugin changes
#    no code), bbmap's layout from the fresh profile, from A's stale
#    profile, clang-22's own matching of A's cluster profile with its `h`
#    lines (-basic-block-section-match-infer; A->B only; once as is, once
#    with -propeller-infer-threshold=0: by default clang drops the profile
#    of a function with fewer than 60% of its blocks matched), and BOLT
#    (ext-tsp, cdsort, split) with the fresh profile and with A's stale
#    YAML (--infer-stale-profile reads only YAML). The fresh profile is
#    YAML too for the trace; for IP samples it is fdata (--ba, as
#    layout-sqlite.sh), since perf2bolt-22 writes no block counts into the
#    YAML of IP samples (so BOLT's stale perf row has nothing to match). Each
#    stale gain is given as a share of the matching fresh gain: bbmap stale
#    and clang matching of bbmap fresh, BOLT stale of BOLT fresh.
#
# Exits non-zero if an output differs or a step fails.
#
# Usage: bench/stale-sqlite.sh   (env SIZE, PERF_RUNS, PERF_FREQ,
#                                 BBMAP_BUILD_DIR)
# Outputs go to bench/out/stale-sqlite/ (the report: bench/out/stale-sqlite.md).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

case "${1:-}" in -h|--help) usage; exit 0 ;; esac
[ $# -eq 0 ] || die "no arguments expected (see --help)"
for t in clang-22 clang-19 llvm-bolt-22 perf2bolt-22 llvm-objcopy-22 qemu-x86_64 \
  valgrind perf patch cc python3; do
  command -v "$t" >/dev/null || die "$t not found (run scripts/bootstrap.sh)"
done
SIZE=${SIZE:-25} PERF_RUNS=${PERF_RUNS:-3} PERF_FREQ=${PERF_FREQ:-20000}
for v in SIZE PERF_RUNS PERF_FREQ; do
  [[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "$v must be a positive integer"
done
bdir=${BBMAP_BUILD_DIR:-$ROOT/build}
for f in llvm-22/bbmap-profile llvm-22/bbmap-plugin.so llvm-19/bbmap-plugin.so; do
  [ -f "$bdir/$f" ] || die "no $bdir/$f (run: scripts/build.sh)"
done
fetch_sqlite
[ -f "$SQLITE/test/speedtest1.c" ] || die "no $SQLITE/test/speedtest1.c"
out=$OUT/stale-sqlite
rm -rf "$out"
mkdir -p "$out/bin" "$out/cg" "$out/log" "$out/src-b"
cd "$out"
cp "$bdir/llvm-22/bbmap-profile" bin/
cp "$bdir/llvm-22/bbmap-plugin.so" bin/plugin-22.so
cp "$bdir/llvm-19/bbmap-plugin.so" bin/plugin-19.so
PROFILE=$out/bin/bbmap-profile
# The options the stale rows need (n/a without them).
# (The help is read whole first: grep -q in a pipe could stop
# bbmap-profile early, and pipefail would then count the option missing.)
"$PROFILE" --help-hidden >bin/help.txt 2>&1 || true
has_opt() { grep -qE -- "--$1([= ]|$)" bin/help.txt; }
HAVE_STALE=0 HAVE_YAML=0
has_opt profiled-binary && HAVE_STALE=1
has_opt yaml && HAVE_YAML=1
start=$(date +%s)
{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'), load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "tree: $(git -C "$ROOT" log -1 --format='%h %s' | cut -c1-90)" \
    "($(git -C "$ROOT" diff --quiet HEAD -- lib include tools plugin && echo clean || echo 'with local changes'))"
  echo "bbmap-profile, plugins: $bdir/llvm-{22,19};" \
    "--profiled-binary: $([ $HAVE_STALE = 1 ] && echo yes || echo 'no (bbmap stale rows n/a)');" \
    "--yaml: $([ $HAVE_YAML = 1 ] && echo yes || echo 'no (BOLT recovered-weight rows n/a)')"
  echo "workload: speedtest1 --memdb --verify --size $SIZE; perf: $PERF_RUNS runs at $PERF_FREQ Hz"
} | tee meta.txt

WL=(--memdb --verify --size "$SIZE")
CFLAGS=(-O2 -ffunction-sections -no-pie -DSQLITE_THREADSAFE=0
  -DSQLITE_OMIT_LOAD_EXTENSION -I"$SQLITE" -fuse-ld=lld)
BOLT_OPTS=(-reorder-blocks=ext-tsp -reorder-functions=cdsort -split-functions
  -split-all-cold)
status=0

# The patched source.
cp "$SQLITE/sqlite3.c" "$SQLITE/sqlite3.h" src-b/
run patch patch -p1 -d src-b -i "$BENCH/stale-sqlite.patch"

# The three profiled builds. MAJOR[x] is the clang that built x (and reads
# its layouts), SRC[x] its source.
declare -A MAJOR=([A]=22 [B]=22 [B19]=19) SRC=([A]=$SQLITE [B]=$out/src-b [B19]=$SQLITE)
P22=$out/bin/plugin-22.so P19=$out/bin/plugin-19.so
build_speedtest clang-22 "${SRC[A]}" A -fpass-plugin="$P22" -mllvm -bbmap-bb-hash \
  -Wl,--emit-relocs
./A "${WL[@]}" | normalize >expected.out
grep -q '^Verification Hash: ' expected.out || die "A printed no verification hash"
build_speedtest clang-22 "${SRC[B]}" B -fpass-plugin="$P22" -mllvm -bbmap-bb-hash \
  -Wl,--emit-relocs
build_speedtest clang-19 "${SRC[B19]}" B19 -fplugin="$P19" -fpass-plugin="$P19" \
  -mllvm -bbmap-version=4 -mllvm -bbmap-bb-hash -Wl,--emit-relocs
for x in B B19; do
  ./$x "${WL[@]}" >"$x.out"
  check_out "$x" "$x.out"
done

# The profiles of each: perf samples, the exact trace, BOLT's fdata and
# YAML of both.
cc -O2 -shared -fPIC -o trace-plugin.so "$TOOLS/exact-trace/trace-plugin.c"
for x in A B B19; do
  step "perf record $x ($PERF_RUNS runs)"
  run "$x.perf-record" perf record -e cpu-clock -F "$PERF_FREQ" -o "$x.perf.data" -- \
    sh -c "for i in \$(seq $PERF_RUNS); do ./$x ${WL[*]} >$x.perf.\$i.out; done"
  for i in $(seq "$PERF_RUNS"); do check_out "$x under perf" "$x.perf.$i.out"; done
  step "trace $x (qemu)"
  env -u LD_PRELOAD qemu-x86_64 -plugin "./trace-plugin.so,out=$x.triples" \
    "./$x" "${WL[@]}" >"$x.qemu.out"
  check_out "$x under qemu" "$x.qemu.out"
  run "$x.preagg" python3 "$TOOLS/exact-trace/trace-to-preagg.py" "$x" \
    "$x.triples" --format=22 -o "$x.pa"
  rm -f "$x.triples"
  run "$x.trace.p2b" perf2bolt-22 "$x" --pa -p "$x.pa" -o "$x.trace.fdata"
  run "$x.perf.p2b" perf2bolt-22 "$x" -p "$x.perf.data" --ba -o "$x.perf.fdata"
  run "$x.trace.p2y" perf2bolt-22 "$x" --pa -p "$x.pa" --profile-format=yaml -o "$x.trace.yaml"
  run "$x.perf.p2y" perf2bolt-22 "$x" -p "$x.perf.data" --ba --profile-format=yaml \
    -o "$x.perf.yaml"
  run "$x.exact" "$PROFILE" "$x" --pa="$x.pa" --format=json -o "$x.exact.json"
done

# src_args X SOURCE: bbmap-profile's options reading X's profile of SOURCE.
src_args() {
  if [ "$2" = perf ]; then echo "--perfdata=$1.perf.data"; else echo "--pa=$1.pa"; fi
}
# counts_args SOURCE: the options that make counts of SOURCE's profile.
counts_args() { if [ "$1" = perf ]; then echo --infer-counts; fi; }
# quality T SOURCE JSON: the recovered weight of JSON against T's exact
# counts, or n/a when JSON is missing.
quality() {
  [ -f "$3" ] || { echo n/a n/a; return; }
  local scale=none
  [ "$2" = trace ] || scale=bytes
  python3 "$TOOLS/inference-quality.py" --scale=$scale --share-only \
    "$1.exact.json" "$3" 2>log/quality.last && return
  cat log/quality.last >>log/quality
  # BOLT's YAML of IP samples carries no block counts (see above).
  if grep -q 'counts are samples' log/quality.last; then echo none none; else echo error error; fi
}

declare -A Q IR I1 FRESH_BOLT=([trace]=yaml [perf]=fdata)
sources=(trace perf)
for s in "${sources[@]}"; do
  # A's own layout, with its h lines, for clang-22's matching on B.
  run "A.$s.clusters" "$PROFILE" A "$(src_args A "$s")" --format=clusters --layout-for=22 \
    -o "A.$s.clusters"
  run "A.$s.order" "$PROFILE" A "$(src_args A "$s")" --format=symbol-order -o "A.$s.order"
  for t in B B19; do
    m=${MAJOR[$t]}
    step "$t ($s): counts, layouts, BOLT"
    # 1. Counts on the target's blocks.
    # shellcheck disable=SC2046 # counts_args is one word or none
    run "$t.$s.fresh.json" "$PROFILE" "$t" "$(src_args "$t" "$s")" $(counts_args "$s") \
      --format=json -o "$t.$s.fresh.json"
    if [ $HAVE_STALE = 1 ]; then
      # shellcheck disable=SC2046
      run "$t.$s.stale.json" "$PROFILE" "$t" --profiled-binary=A "$(src_args A "$s")" \
        $(counts_args "$s") --format=json -o "$t.$s.stale.json"
    fi
    # BOLT: the fresh profile, and A's YAML with its stale matching (YAML
    # only; -w writes the matched profile). The fresh one in the same
    # format, YAML, except for IP samples, whose YAML has no block counts:
    # fdata (--ba), as layout-sqlite.sh.
    run "$t.$s.bolt-fresh" llvm-bolt-22 "$t" -o "$t-bolt-fresh-$s" --data="$t.$s.${FRESH_BOLT[$s]}" \
      "${BOLT_OPTS[@]}"
    run "$t.$s.bolt-stale" llvm-bolt-22 "$t" -o "$t-bolt-stale-$s" --data="A.$s.yaml" \
      --infer-stale-profile -w "$t.$s.matched.yaml" "${BOLT_OPTS[@]}"
    grep -E 'BOLT-INFO: .*(stale|inferred|matched)' "log/$t.$s.bolt-stale" | sed 's/^/  /' || true
    if [ $HAVE_YAML = 1 ]; then
      run "$t.$s.bolt.json" "$PROFILE" "$t" --yaml="$t.$s.matched.yaml" --format=json \
        -o "$t.$s.bolt.json"
    fi
    Q[$t.$s.fresh]=$(quality "$t" "$s" "$t.$s.fresh.json")
    Q[$t.$s.stale]=$(quality "$t" "$s" "$t.$s.stale.json")
    Q[$t.$s.bolt]=$(quality "$t" "$s" "$t.$s.bolt.json")
    # 2. Layouts built by the target's clang.
    for k in fresh stale; do
      if [ $k = fresh ]; then prof=("$t" "$(src_args "$t" "$s")")
      else
        [ $HAVE_STALE = 1 ] || continue
        prof=("$t" --profiled-binary=A "$(src_args A "$s")")
      fi
      run "$t.$s.$k.clusters" "$PROFILE" "${prof[@]}" --format=clusters --layout-for="$m" \
        -o "$t.$s.$k.clusters"
      run "$t.$s.$k.order" "$PROFILE" "${prof[@]}" --format=symbol-order -o "$t.$s.$k.order"
      build_speedtest "clang-$m" "${SRC[$t]}" "$t-bbmap-$k-$s" \
        -fbasic-block-sections=list="$out/$t.$s.$k.clusters" \
        -Wl,--symbol-ordering-file="$out/$t.$s.$k.order" -Wl,--no-warn-symbol-ordering
    done
    if [ "$t" = B ]; then
      # clang-22's matching keeps a function's profile when 60% of its
      # blocks match (-propeller-infer-threshold); also without that limit.
      build_speedtest clang-22 "${SRC[B]}" "B-clang-match-$s" \
        -fbasic-block-sections=list="$out/A.$s.clusters" \
        -mllvm -basic-block-section-match-infer \
        -Wl,--symbol-ordering-file="$out/A.$s.order" -Wl,--no-warn-symbol-ordering
      build_speedtest clang-22 "${SRC[B]}" "B-clang-match0-$s" \
        -fbasic-block-sections=list="$out/A.$s.clusters" \
        -mllvm -basic-block-section-match-infer -mllvm -propeller-infer-threshold=0 \
        -Wl,--symbol-ordering-file="$out/A.$s.order" -Wl,--no-warn-symbol-ordering
    fi
  done
done

# Cachegrind: every target build and its optimized builds.
for t in B B19; do
  for b in "$t" "$t"-{bbmap-fresh,bbmap-stale,clang-match,clang-match0,bolt-fresh,bolt-stale}-{trace,perf}; do
    [ -x "$b" ] || continue
    step "cachegrind $b"
    cachegrind "$b" "${WL[@]}"
    IR[$b]=$CG_IR I1[$b]=$CG_I1
  done
done

# The report.
# cell B METRIC: METRIC of build B relative to its target, or n/a.
cell() {
  local b=$1 t=${1%%-*}
  local -n m=$2
  [ -n "${m[$b]:-}" ] || { echo n/a; return; }
  awk -v a="${m[$b]}" -v p="${m[$t]}" 'BEGIN { printf "%.4fx", a / p }'
}
# kept B FRESH METRIC: B's gain over its target as a share of FRESH's.
kept() {
  local t=${1%%-*}
  local -n m=$3
  if [ -z "${m[$1]:-}" ] || [ -z "${m[$2]:-}" ]; then echo n/a; return; fi
  awk -v s="${m[$1]}" -v f="${m[$2]}" -v p="${m[$t]}" 'BEGIN {
    if (p == f) { print "n/a (no fresh gain)"; exit }
    printf "%.0f%%", 100 * (p - s) / (p - f) }'
}
name_of() { case $1 in B) echo "B (clang-22, patched)" ;; B19) echo "B' (clang-19, unpatched)" ;; esac; }
{
  for t in B B19; do
    for s in "${sources[@]}"; do
      echo
      echo "### A -> $(name_of $t), profile: $s"
      echo
      echo "| counts on $t's blocks | recovered weight: within 10% of exact | within 2x |"
      echo "|---|---:|---:|"
      for k in fresh stale bolt; do
        case $k in
          fresh) label="fresh ($t's own profile)" ;;
          stale) label="bbmap stale matching (A's profile)" ;;
          bolt) label="BOLT-22 stale matching (A's YAML)" ;;
        esac
        read -r w10 w2 <<<"${Q[$t.$s.$k]}"
        case $w10 in
          n/a|error) ;;
          none) w10="none (no block counts)" w2=none ;;
          *) w10=$w10% w2=$w2% ;;
        esac
        echo "| $label | $w10 | $w2 |"
      done
      echo
      echo "| build of $t | instructions | I1 misses | share of the fresh gain: instructions | I1 misses |"
      echo "|---|---:|---:|---:|---:|"
      echo "| as built (plain) | ${IR[$t]} | ${I1[$t]} | | |"
      for k in bbmap-fresh bbmap-stale clang-match clang-match0 bolt-fresh bolt-stale; do
        b=$t-$k-$s
        case $k in
          bbmap-fresh) label="bbmap layout, fresh profile" f= ;;
          bbmap-stale) label="bbmap layout, A's profile (bbmap matching)" f=$t-bbmap-fresh-$s ;;
          clang-match) label="clang-22 matching of A's clusters + h lines" f=$t-bbmap-fresh-$s ;;
          clang-match0) label="the same, -propeller-infer-threshold=0" f=$t-bbmap-fresh-$s ;;
          bolt-fresh) label="BOLT-22, fresh profile (${FRESH_BOLT[$s]})" f= ;;
          bolt-stale) label="BOLT-22, A's YAML (--infer-stale-profile)" f=$t-bolt-fresh-$s ;;
        esac
        if [ -z "$f" ]; then ki='' k1=''; else ki=$(kept "$b" "$f" IR) k1=$(kept "$b" "$f" I1); fi
        printf '| %s | %s | %s | %s | %s |\n' "$label" "$(cell "$b" IR)" "$(cell "$b" I1)" \
          "$ki" "$k1"
      done
    done
  done
  echo
  echo "Instructions and I1 misses relative to the target as built; the share of the fresh gain"
  echo "is (target - stale) / (target - fresh) for bbmap stale and clang matching (against bbmap"
  echo "fresh) and for BOLT stale (against BOLT fresh)."
  echo
  echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); run time $(($(date +%s) - start)) s"
} >report.body
cat meta.txt report.body >"$OUT/stale-sqlite.md"
cat report.body
if [ "$status" -eq 0 ]; then echo "stale-sqlite: PASS"; else echo "stale-sqlite: FAIL"; fi
exit $status
