#!/usr/bin/env bash
# turnaround-sqlite.sh - from a profile to an optimized binary, each route
# timed in the same run (issue #37, item 4), on sqlite3's speedtest1 (x86-64,
# the exact trace of `--size 5`), from the builds and profiles of
# bench/layout-suite.sh (run `RELINK=1 CASES=x86 bench/layout-suite.sh`
# first; this script builds nothing the suite has):
#
#   relink-functions  bbmap-profile --format=block-order of the per-block
#                     build, then lld relinks its objects
#   relink-program    the same with --block-scope=program
#   recompile         bbmap-profile --format=clusters (and the symbol
#                     order), then clang-22 compiles both units with the
#                     recipe and lld links
#   thinlto           the ThinLTO program's own trace (its blocks are LTO's):
#                     bbmap-profile --format=clusters, then lld relinks the
#                     bitcode with --lto-basic-block-sections
#   thinlto-new       the same with a cache directory per profile digest
#                     (docs/layout.md), empty: a new profile
#   thinlto-again     the same with the cache that profile filled
#   BOLT              perf2bolt-22 of the same trace (pre-aggregated), then
#                     llvm-bolt-22 with the suite's options
#
# Each route runs $REPS times (wall and user+sys CPU of the whole route,
# medians); its binary's code must equal, byte for byte, the suite's build
# of the same route (a ThinLTO binary must realize its layout, bbmap-dump
# --check-layout; the suite has no ThinLTO build to compare with), whose simulated I1 misses (as built and the mean over
# 8 placements) the table repeats from the suite's rows. A second table
# gives what the per-block build costs with no profile against plain -O2:
# code and object bytes, link time, and CPU time of --size 100. The sqlite3
# amalgamation is one compile unit, so a per-unit recompile would
# recompile it whole: it is not a route here.
#
# Usage: bench/turnaround-sqlite.sh [--reps N]   (default 3)
# Output: bench/out/turnaround-sqlite/report.md
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

REPS=3
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --reps) REPS=${2:?--reps needs a number}; shift ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
  shift
done
[[ $REPS =~ ^[1-9][0-9]*$ ]] || die "--reps must be a positive integer"
suite=$OUT/layout-suite
x86=$suite/x86
for f in blocks blocks.train.s5.pa prof train.s5.pa bbmap-s5-trace relink-functions-s5 \
  relink-program-s5 bolt-s5-trace; do
  [ -e "$x86/$f" ] || die "no $x86/$f (run: RELINK=1 CASES=x86 bench/layout-suite.sh)"
done
for t in clang-22 perf2bolt-22 llvm-bolt-22; do
  command -v "$t" >/dev/null || die "$t not found (run scripts/bootstrap.sh)"
done
fetch_sqlite
out=$OUT/turnaround-sqlite
rm -rf "$out" && mkdir -p "$out/log"
cd "$out"
start=$(date +%s)
PROFILE=$suite/bin/bbmap-profile PLUGIN=$suite/bin/bbmap-plugin.so
CFLAGS=(-O2 -ffunction-sections -no-pie -DSQLITE_THREADSAFE=0
  -DSQLITE_OMIT_LOAD_EXTENSION -DSQLITE_ENABLE_RTREE -I"$SQLITE" -fuse-ld=lld)
BOLT_OPTS=(-reorder-blocks=ext-tsp -reorder-functions=cdsort -split-functions
  -split-all-cold -split-eh)

# The routes, each one command from the profile to the binary ROUTE.bin.
route_relink() {
  "$PROFILE" "$x86/blocks" --pa="$x86/blocks.train.s5.pa" --format=block-order \
    --block-scope="$1" -o "relink-$1.order" 2>/dev/null
  clang-22 "${CFLAGS[@]}" "$x86"/blocks.obj/sqlite3.o "$x86"/blocks.obj/speedtest1.o \
    -Wl,--optimize-bb-jumps -Wl,--symbol-ordering-file="$PWD/relink-$1.order" \
    -o "relink-$1.bin" -lm
}
route_recompile() {
  "$PROFILE" "$x86/prof" --pa="$x86/train.s5.pa" --format=clusters --layout-for=22 \
    -o recompile.clusters --symbol-order=recompile.order
  mkdir -p recompile.obj
  local u
  for u in "$SQLITE/sqlite3.c" "$SQLITE/test/speedtest1.c"; do
    clang-22 "${CFLAGS[@]}" -fbasic-block-sections=list="$PWD/recompile.clusters" \
      -falign-loops=1 -fpass-plugin="$PLUGIN" -c "$u" \
      -o "recompile.obj/$(basename "$u" .c).o"
  done
  clang-22 "${CFLAGS[@]}" recompile.obj/sqlite3.o recompile.obj/speedtest1.o \
    -Wl,--symbol-ordering-file="$PWD/recompile.order" -o recompile.bin -lm
}
route_thinlto() {
  "$PROFILE" lto.prof --pa=lto.pa --format=clusters --layout-for=22 -o lto.clusters \
    --symbol-order=lto.order
  local cache=()
  # shellcheck disable=SC2054 # -Wl, takes its argument after a comma
  [ -z "${1:-}" ] || cache=(-Wl,--thinlto-cache-dir="$1/$(cat lto.clusters lto.order |
    sha256sum | cut -c1-16)")
  clang-22 "${CFLAGS[@]}" -flto=thin lto/sqlite3.o lto/speedtest1.o -Wl,--thinlto-jobs=2 \
    -Wl,--lto-basic-block-sections="$PWD/lto.clusters" -Wl,--lto-basic-block-address-map \
    -Wl,--symbol-ordering-file="$PWD/lto.order" "${cache[@]}" -o "thinlto${1:+-$1}.bin" -lm
}
route_bolt() {
  perf2bolt-22 "$x86/prof" --pa -p "$x86/train.s5.pa" -o bolt.fdata
  llvm-bolt-22 "$x86/prof" -o BOLT.bin --data bolt.fdata "${BOLT_OPTS[@]}"
}

# same_code A B: A's executable sections are B's, byte for byte (the
# files themselves may differ: BOLT's .note.bolt_info names its output).
same_code() {
  local s
  [ "$(exec_sections "$1")" = "$(exec_sections "$2")" ] || return 1
  for s in $(exec_sections "$1" | cut -d' ' -f1); do
    llvm-objcopy-22 -O binary --only-section="$s" "$1" a.section
    llvm-objcopy-22 -O binary --only-section="$s" "$2" b.section
    cmp -s a.section b.section || return 1
  done
  rm -f a.section b.section
}

# The routes' files must be the suite's (the same layout: the profiles are
# the same), and so must their binaries' code; checked on the first run of
# each route.
declare -A SUITE_BIN=([relink-functions]=relink-functions-s5
  [relink-program]=relink-program-s5 [recompile]=bbmap-s5-trace [BOLT]=bolt-s5-trace)
# cpu_of FILE: the user+sys seconds of the finished children in FILE, the
# output of `times` (run in this shell: a command substitution's subshell
# has children of its own).
cpu_of() {
  awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/)
    printf "%.3f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$1"
}
# time_route ROUTE: runs it (its output in log/ROUTE), appends "wall cpu"
# to ROUTE.times.
time_route() {
  local r=$1 t0 t1
  t0=$(date +%s.%N)
  times >times.0
  case $r in
    relink-*) route_relink "${r#relink-}" ;;
    recompile) route_recompile ;;
    thinlto) route_thinlto ;;
    thinlto-new) rm -rf new && route_thinlto new ;;
    thinlto-again) route_thinlto again ;;
    BOLT) route_bolt ;;
  esac >"log/$r" 2>&1 || { tail -n 20 "log/$r" >&2; die "$r failed (log: $out/log/$r)"; }
  times >times.1
  t1=$(date +%s.%N)
  echo "$t0 $t1 $(cpu_of times.0) $(cpu_of times.1)" |
    awk '{ printf "%.2f %.2f\n", $2 - $1, $4 - $3 }' >>"$r.times"
}

# ThinLTO: the bitcode once, the program linked with its map (lld's
# --lto-basic-block-address-map: block IDs of the LTO code generation) and
# traced; its routes relink with the layout, without a cache, with a cache
# directory per profile digest for a new profile (emptied before each run),
# and with that cache again for the same profile.
step "ThinLTO: bitcode, the program with its map, its trace"
mkdir -p lto
for u in "$SQLITE/sqlite3.c" "$SQLITE/test/speedtest1.c"; do
  run "lto.$(basename "$u" .c)" clang-22 "${CFLAGS[@]}" -flto=thin -c "$u" \
    -o "lto/$(basename "$u" .c).o"
done
run lto.link clang-22 "${CFLAGS[@]}" -flto=thin lto/sqlite3.o lto/speedtest1.o \
  -Wl,--thinlto-jobs=2 -Wl,--lto-basic-block-address-map -o lto.prof -lm
run lto.trace env -u LD_PRELOAD qemu-x86_64 -plugin "$suite/bin/trace.so,out=lto.triples" \
  ./lto.prof --memdb --verify --testset main --size 5
run lto.pa python3 "$TOOLS/exact-trace/trace-to-preagg.py" lto.prof lto.triples \
  --format=22 -o lto.pa
route_thinlto again >/dev/null 2>&1 || die "ThinLTO relink failed"

routes=(relink-functions relink-program recompile thinlto thinlto-new thinlto-again BOLT)
for r in "${routes[@]}"; do : >"$r.times"; done
for rep in $(seq "$REPS"); do
  for r in "${routes[@]}"; do
    step "$r, run $rep of $REPS"
    time_route "$r"
    [ "$rep" -gt 1 ] && continue
    if [[ $r == thinlto* ]]; then
      "$ROOT/build/llvm-22/bbmap-dump" --check-layout=lto.clusters --symbol-order=lto.order \
        "$r.bin" >"log/$r.check" || die "$r.bin does not realize its layout (log/$r.check)"
      continue
    fi
    same_code "$r.bin" "$x86/${SUITE_BIN[$r]}" ||
      die "the code of $r.bin differs from the suite's ${SUITE_BIN[$r]}"
  done
done
cmp -s relink-functions.order "$x86/relink-functions-s5.order" &&
  cmp -s relink-program.order "$x86/relink-program-s5.order" &&
  cmp -s recompile.clusters "$x86/bbmap-s5-trace.clusters" ||
  die "a route's layout differs from the suite's"

# I1 of each route's binary, from the suite's rows (x86-same, trace).
i1() { awk -F'\t' -v b="$1" '$1 == "x86-same" && $2 == "trace" && $3 == b { print $4, $5 }' \
  "$suite/rows.tsv"; }
declare -A ROW=([relink-functions]=relink-functions [relink-program]=relink-program
  [recompile]=bbmap [BOLT]=BOLT [thinlto]=- [thinlto-new]=- [thinlto-again]=-)
# What the per-block build costs with no profile, against plain -O2 (the
# suite's builds): code and object bytes, the link, and the CPU time of
# speedtest1 --size 100 (median of $REPS interleaved runs; outputs checked).
step "the per-block build against plain"
for b in plain blocks; do
  : >"link-$b.times" && : >"run-$b.times"
  jumps=()
  # shellcheck disable=SC2054 # -Wl, takes its argument after a comma
  [ "$b" = plain ] || jumps=(-Wl,--optimize-bb-jumps)
  for rep in $(seq "$REPS"); do
    timed "link-$b" clang-22 "${CFLAGS[@]}" "$x86/$b.obj/sqlite3.o" "$x86/$b.obj/speedtest1.o" \
      "${jumps[@]}" -o "$b.bin" -lm
  done
done
for rep in $(seq "$REPS"); do
  for b in plain blocks; do
    timed "run-$b" "./$b.bin" --memdb --verify --testset main --size 100
  done
done
./plain.bin --memdb --verify --testset main --size 100 | normalize >plain.out
./blocks.bin --memdb --verify --testset main --size 100 | normalize | cmp - plain.out ||
  die "the per-block build prints other results than plain"
text_of() { llvm-size-22 -A "$1" | awk '$1 == ".text" { print $2 }'; }
objects_of() { cat "$x86/$1.obj/sqlite3.o" "$x86/$1.obj/speedtest1.o" | wc -c; }

bolt_wall=$(col BOLT 1)
{
  echo "# From a profile to an optimized binary: sqlite3 speedtest1, x86-64"
  echo
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); reps: $REPS (medians); load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  echo "| route | wall s | CPU s | wall / BOLT's | I1 misses as built | mean over placements |"
  echo "|---|---:|---:|---:|---:|---:|"
  for r in "${routes[@]}"; do
    read -r asb mean <<<"$(i1 "${ROW[$r]}")"
    printf '| %s | %s | %s | %.2f | %s | %s |\n' "$r" "$(col "$r" 1)" "$(col "$r" 2)" \
      "$(echo "$(col "$r" 1) $bolt_wall" | awk '{ print $1 / $2 }')" "${asb:--}" "${mean:--}"
  done
  echo
  echo "The per-block build with no profile (-fbasic-block-sections=all -falign-loops=1 -mllvm -trap-unreachable -mllvm -no-trap-after-noreturn, the plugin's map; lld --optimize-bb-jumps) against plain -O2:"
  echo
  echo "| build | .text bytes | object bytes | link wall s | speedtest1 --size 100 CPU s |"
  echo "|---|---:|---:|---:|---:|"
  for b in plain blocks; do
    echo "| $b | $(text_of "$b.bin") | $(objects_of "$b") | $(col "link-$b" 1) | $(col "run-$b" 2) |"
  done
} >report.md
cat report.md
echo "turnaround-sqlite: PASS ($(($(date +%s) - start)) s)"
