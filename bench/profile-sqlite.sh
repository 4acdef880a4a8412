#!/usr/bin/env bash
# profile-sqlite.sh - bbmap-profile on a real program: exact block counts of
# a sqlite3 run, and speed against perf2bolt-22 on the same pre-aggregated
# profiles.
#
# Builds the sqlite3 shell with `clang-N -O2 -no-pie
# -fbasic-block-address-map -Wl,--emit-relocs` (lld) for LLVM 22, and for
# LLVM 19 too when build/llvm-19/bbmap-profile exists. Then, per major:
#   - exact counts: runs a deterministic SQL workload (bench/sqlite-workload.sql:
#     5000 inserts, two indexes, joins, a self-join, update, delete,
#     recursive CTEs; its output is bench/sqlite-workload.expected) under
#     qemu-x86_64 with test/tools/exact-trace/trace-plugin.so and under
#     callgrind (callgrind-counts.py); the program output must be the same
#     natively and under both simulators. The trace becomes pre-aggregated
#     profiles in both dialects (trace-to-preagg.py --format=22 and 19);
#     `bbmap-profile --format=json` of each is checked against callgrind's
#     per-instruction counts with test/tools/check-block-counts.py --flow.
#   - identical output (LLVM 22 only): `bbmap-profile --format=fdata`
#     against `perf2bolt-22 --pa` on both exact profiles and on the
#     generated 1M and 10M inputs, as sorted line sets over the functions a
#     map covers (lines of start-up code, PLT entries and BOLT's PLT pseudo
#     function, which perf2bolt names and bbmap-profile does not claim to
#     match, are left out).
# Speed (LLVM 22): inputs of 1M and 10M records drawn at random (fixed
# seed, with replacement) from the exact run's 22-dialect records (T, B, f
# lines, so every record is a real trace or branch of the binary and both
# tools accept all of them), each with a random count of 1 to 1000. Both
# tools run on the same file, alternating, RUNS times (default 3): median
# wall and CPU (user+sys) seconds and peak RSS of /usr/bin/time, records
# per second (records / wall time), the ratios perf2bolt / bbmap-profile and
# each tool's growth from 1M to 10M records (10.0 is linear). For context,
# the same runs also time `bbmap-profile --format=json` (same reading and
# charging, another writer).
# BOLTed sqlite3 (BAT): test/tools/exact-trace/bat-chain.sh BOLTs the shell
# with the exact profile (ext-tsp, hot/cold splitting), traces the same run
# of both binaries and checks that the BOLTed run charged to the input's
# blocks (--input-binary) equals the input's own profile; then fdata of the
# BOLTed run (and 1M and 10M records drawn from it) against perf2bolt-22,
# and the same speed table, with the --input-binary path for context.
# perf.data: ten runs of the workload under `perf record -e cpu-clock`;
# `--perfdata --format=fdata` against `perf2bolt-22 -p --ba`, same lines
# and speed.
#
# Exits non-zero if a block count mismatches or the fdata outputs differ
# (the speed table is still printed).
#
# Usage: bench/profile-sqlite.sh        (env RUNS=N, default 3)
# Outputs go to bench/out/profile-sqlite/.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

case "${1:-}" in -h|--help) usage; exit 0 ;; esac
command -v clang-22 >/dev/null || die "clang-22 not found (run scripts/bootstrap.sh)"
for t in perf2bolt-22 qemu-x86_64 valgrind cc; do
  command -v "$t" >/dev/null || die "$t not found (run scripts/bootstrap.sh)"
done
[ -x /usr/bin/time ] || die "needs GNU time: apt-get install time"
RUNS=${RUNS:-3}
PROFILE=$ROOT/build/llvm-22/bbmap-profile
[ -x "$PROFILE" ] || die "no build/llvm-22/bbmap-profile (run: ninja -C build/llvm-22)"
"$PROFILE" --help | grep -q -- '=fdata' ||
  die "build/llvm-22/bbmap-profile has no --format=fdata (rebuild it)"
majors=(22)
if [ -x "$ROOT/build/llvm-19/bbmap-profile" ] && command -v clang-19 >/dev/null; then
  majors+=(19)
else
  echo "no build/llvm-19/bbmap-profile: LLVM 19 exact check skipped"
fi
EXACT=$TOOLS/exact-trace
fetch_sqlite
out=$OUT/profile-sqlite
mkdir -p "$out/bin"
cd "$out"
# Work on copies, so that a rebuild during the run cannot mix versions.
for n in "${majors[@]}"; do
  cp "$ROOT/build/llvm-$n/bbmap-profile" "bin/bbmap-profile-$n"
done
PROFILE=$out/bin/bbmap-profile-22
echo "bbmap-profile: work tree at $(git -C "$ROOT" log -1 --format='%h %cd' --date=iso)" \
  "($(git -C "$ROOT" diff --quiet HEAD -- lib include tools && echo clean || echo 'with local changes'))"

cp "$BENCH/sqlite-workload.sql" workload.sql
cp "$BENCH/sqlite-workload.expected" expected.out

status=0
cc -O2 -shared -fPIC -o trace-plugin.so "$EXACT/trace-plugin.c"

# mapped_names BIN: the names of BIN's functions with a bb-addr-map record.
mapped_names() {
  "llvm-readobj-22" --bb-addr-map "$1" | sed -n 's/^ *Name: //p' | sort -u
}
# fdata_lines FDATA NAMES: FDATA's branch lines whose source function (BOLT
# adds /N to local names) is in NAMES, sorted.
fdata_lines() {
  awk 'NR == FNR { m[$1] = 1; next }
       { n = $2; sub(/\/.*/, "", n) } n in m' "$2" "$1" | sort
}
# same_fdata LABEL P2B BBMAP NAMES: compares, prints one line, sets status.
same_fdata() {
  local d
  d=$(diff <(fdata_lines "$2" "$4") <(fdata_lines "$3" "$4") | grep -c '^[<>]' || true)
  if [ "$d" -eq 0 ]; then
    printf '%-28s identical: %d lines\n' "$1" "$(fdata_lines "$2" "$4" | wc -l)"
  else
    printf '%-28s DIFFER: %d lines of %d (< perf2bolt-22, > bbmap-profile):\n' \
      "$1" "$d" "$(fdata_lines "$2" "$4" | wc -l)"
    diff <(fdata_lines "$2" "$4") <(fdata_lines "$3" "$4") | grep '^[<>]' | head -n 10 || true
    status=1
  fi
}

# exact N: build with clang-N, trace, check bbmap-profile-N's counts.
exact() {
  local n=$1 bin=sqlite3-$1 prof=$out/bin/bbmap-profile-$1 d
  echo "== LLVM $n: exact counts"
  "clang-$n" -O2 -no-pie -fbasic-block-address-map -fuse-ld=lld -Wl,--emit-relocs \
    -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION \
    "$SQLITE/sqlite3.c" "$SQLITE/shell.c" -o "$bin" -lm
  "./$bin" -batch :memory: <workload.sql >"$bin.native.out"
  qemu-x86_64 -plugin "./trace-plugin.so,out=$bin.triples" "./$bin" -batch :memory: \
    <workload.sql >"$bin.qemu.out"
  python3 "$EXACT/callgrind-counts.py" "$bin" -o "$bin.counts" -- "./$bin" -batch :memory: \
    <workload.sql >"$bin.cg.out" 2>"$bin.cg.err" || { cat "$bin.cg.err" >&2; die "callgrind failed"; }
  local ok=yes
  for o in native qemu cg; do
    cmp -s expected.out "$bin.$o.out" ||
      { echo "program output ($o): WRONG (diff expected.out $out/$bin.$o.out)"; ok=no; status=1; }
  done
  [ $ok = no ] || echo "program output: correct natively, under qemu and under callgrind"
  for d in 22 19; do
    python3 "$EXACT/trace-to-preagg.py" "$bin" "$bin.triples" --format=$d -o "$bin.$d.pa"
    "$prof" "$bin" --pa="$bin.$d.pa" --format=json -o "$bin.$d.json"
    printf -- '-- bbmap-profile-%s, %d-dialect profile (%d records):\n' \
      "$n" "$d" "$(wc -l <"$bin.$d.pa")"
    python3 "$TOOLS/check-block-counts.py" "$bin.$d.json" "$bin.counts" --flow ||
      status=1
  done
}

for n in "${majors[@]}"; do exact "$n"; done

bin=sqlite3-22
sizes=(1000000 10000000)
for s in "${sizes[@]}"; do
  if [ ! -s "pa.$s" ] || [ "pa.$s" -ot "$bin.22.pa" ]; then python3 "$BENCH/sample-records.py" "$bin.22.pa" "$s" "pa.$s"; fi
done

echo "== bbmap-profile --format=fdata vs perf2bolt-22 --pa: same records"
mapped_names "$bin" >mapped.names
for p in "$bin.22.pa" "$bin.19.pa" "${sizes[@]/#/pa.}"; do
  perf2bolt-22 "$bin" --pa -p "$p" -o "$p.p2b.fdata" >"$p.p2b.log" 2>&1 ||
    die "perf2bolt-22 failed on $p; see $out/$p.p2b.log"
  "$PROFILE" "$bin" --pa="$p" --format=fdata -o "$p.bb.fdata"
  same_fdata "$p" "$p.p2b.fdata" "$p.bb.fdata" mapped.names
done

# race TAG RECORDS NAME::CMD... : runs each command RUNS times, alternating,
# the first being perf2bolt; prints one table row per command with its ratios
# to the first.
race() {
  local tag=$1 n=$2 i; shift 2
  local names=() cmds=()
  for c in "$@"; do names+=("${c%%::*}"); cmds+=("${c#*::}"); done
  for i in "${!cmds[@]}"; do rm -f "$tag.$i.times"; done
  for _ in $(seq "$RUNS"); do
    for i in "${!cmds[@]}"; do eval "timed $tag.$i ${cmds[$i]}"; done
  done
  local pw pc pm w c m ratios
  pw=$(col "$tag.0" 1) pc=$(col "$tag.0" 2) pm=$(col "$tag.0" 3)
  for i in "${!cmds[@]}"; do
    w=$(col "$tag.$i" 1) c=$(col "$tag.$i" 2) m=$(col "$tag.$i" 3)
    ratios=" | | "
    [ "$i" -eq 0 ] || ratios=$(printf '%.2f | %.2f | %.2f' "$(echo "$pw / $w" | bc -l)" \
      "$(echo "$pc / $c" | bc -l)" "$(echo "$pm / $m" | bc -l)")
    printf '| %s | %s | %.2f | %.2f | %.0f | %.2f | %s |\n' "$tag" "${names[$i]}" \
      "$w" "$c" "$(echo "$m / 1024" | bc -l)" "$(echo "$n / $w / 1000000" | bc -l)" \
      "$ratios"
  done
}
table_head() {
  printf '| input | tool | wall s | CPU s | peak RSS MB | M records/s | perf2bolt / this: wall | CPU | RSS |\n'
  printf '|---|---|---:|---:|---:|---:|---:|---:|---:|\n'
}
# growth NAME TAG1 TAG2 I: command I's growth from input TAG1 to TAG2.
growth() {
  printf '%s growth %s -> %s: wall %.1fx, CPU %.1fx, peak RSS %.1fx\n' "$1" "$2" "$3" \
    "$(echo "$(col "$3.$4" 1) / $(col "$2.$4" 1)" | bc -l)" \
    "$(echo "$(col "$3.$4" 2) / $(col "$2.$4" 2)" | bc -l)" \
    "$(echo "$(col "$3.$4" 3) / $(col "$2.$4" 3)" | bc -l)"
}

echo "== speed: median of $RUNS alternating runs, same input file"
table_head
for s in "${sizes[@]}"; do
  race "pa.$s" "$s" "perf2bolt-22::perf2bolt-22 $bin --pa -p pa.$s -o pa.$s.p2b.fdata" \
    "bbmap-profile::$PROFILE $bin --pa=pa.$s --format=fdata -o pa.$s.bb.fdata" \
    "bbmap-profile --format=json::$PROFILE $bin --pa=pa.$s --format=json -o pa.$s.bb.json"
done
growth perf2bolt-22 pa.1000000 pa.10000000 0
growth bbmap-profile pa.1000000 pa.10000000 1

# A BOLTed sqlite3 with BAT: the same run traced on the input binary and on
# the BOLTed one; the BOLTed run charged to the input's blocks must equal
# the input's own profile (bat-chain.sh), and fdata of the BOLTed run's
# records must equal perf2bolt-22's (input function names, boltedcollection).
echo "== BOLTed sqlite3 (BAT): the BOLTed run charged to the input binary's blocks"
chain=$out/bat
CC=clang-22 "$EXACT/bat-chain.sh" "$PROFILE" "$out/trace-plugin.so" "$chain" \
  -i workload.sql -a -batch -a :memory: -- -fuse-ld=lld \
  -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION \
  "$SQLITE/sqlite3.c" "$SQLITE/shell.c" -lm || status=1
bolted=$chain/in.bolt
mapped_names "$chain/in" >bat.names
for s in "${sizes[@]}"; do
  if [ ! -s "bat.$s" ] || [ "bat.$s" -ot "$chain/bolted.pa" ]; then
    python3 "$BENCH/sample-records.py" "$chain/bolted.pa" "$s" "bat.$s"
  fi
done
echo "== BOLTed sqlite3: bbmap-profile --format=fdata vs perf2bolt-22 --pa"
for p in "$chain/bolted.pa" "${sizes[@]/#/bat.}"; do
  perf2bolt-22 "$bolted" --pa -p "$p" -o "$p.p2b.fdata" >"$p.p2b.log" 2>&1 ||
    die "perf2bolt-22 failed on $p; see $p.p2b.log"
  "$PROFILE" "$bolted" --pa="$p" --format=fdata -o "$p.bb.fdata"
  same_fdata "$(basename "$p")" "$p.p2b.fdata" "$p.bb.fdata" bat.names
done
table_head
for s in "${sizes[@]}"; do
  race "bat.$s" "$s" "perf2bolt-22::perf2bolt-22 $bolted --pa -p bat.$s -o bat.$s.p2b.fdata" \
    "bbmap-profile::$PROFILE $bolted --pa=bat.$s --format=fdata -o bat.$s.bb.fdata" \
    "bbmap-profile --input-binary::$PROFILE $bolted --pa=bat.$s --input-binary=$chain/in --format=json -o bat.$s.bb.json"
done

# perf.data of IP samples (this machine has no LBR: perf record falls back
# to cpu-clock) of several runs of the workload.
echo "== perf.data (IP samples): bbmap-profile --perfdata vs perf2bolt-22 -p --ba"
if perf record -q -e cpu-clock -F 20000 -o perf.data -- sh -c \
  "for i in 1 2 3 4 5 6 7 8 9 10; do ./$bin -batch :memory: <workload.sql >/dev/null; done" \
  >perf-record.log 2>&1; then
  samples=$(perf script -i perf.data -F ip 2>/dev/null | wc -l)
  perf2bolt-22 "$bin" -p perf.data --ba -o perf.p2b.fdata >perf.p2b.log 2>&1 ||
    die "perf2bolt-22 failed on perf.data; see $out/perf.p2b.log"
  "$PROFILE" "$bin" --perfdata=perf.data --format=fdata -o perf.bb.fdata
  same_fdata perf.data perf.p2b.fdata perf.bb.fdata mapped.names
  table_head
  race perf.data "$samples" "perf2bolt-22::perf2bolt-22 $bin -p perf.data --ba -o perf.p2b.fdata" \
    "bbmap-profile::$PROFILE $bin --perfdata=perf.data --format=fdata -o perf.bb.fdata"
  echo "($samples samples; both tools run perf script, which dominates)"
else
  echo "perf record does not work here (see $out/perf-record.log): skipped"
fi

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$status" -eq 0 ]; then echo "profile-sqlite: PASS"; else echo "profile-sqlite: FAIL"; fi
exit $status
