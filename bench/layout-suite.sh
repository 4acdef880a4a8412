#!/usr/bin/env bash
# layout-suite.sh - every layout case in one run, one report (issue #36,
# item 1): for each case and profile kind, the builds plain, before, bbmap,
# bbmap-placed and BOLT measured on the same run, so that a change of the
# layout policy can be judged before it lands.
#
# Cases (every measured run's output, times removed, must equal plain's):
#   x86-SPLIT  sqlite3's speedtest1 on x86-64, built as
#              bench/layout-traintest.sh builds it (clang-22, lld, -O2
#              -ffunction-sections -no-pie, -DSQLITE_THREADSAFE=0
#              -DSQLITE_OMIT_LOAD_EXTENSION -DSQLITE_ENABLE_RTREE), trained
#              on one run and measured on another (speedtest1 --memdb
#              --verify and):
#                same    --testset main --size 5 -> the same run
#                long    --testset main --size 5 -> --size 100
#                long20  --testset main --size 5 -> --size 20 (--quick's
#                        shorter long split)
#                mix     --testset main --size 10 -> --testset
#                        main,cte,fp,orm,rtree --size 6
#                sum     main --size 5 + cte,fp --size 5 + orm,rtree
#                        --size 3, summed -> the mix run
#   arm64      speedtest1 cross-built for arm64 (bench/arm64-sqlite.sh's
#              flags, --target=aarch64-linux-gnu) under qemu-aarch64,
#              --size $ARM_SIZE trained and measured on the same run
#              (exact trace only).
#   cppcheck   testrunner of cppcheck 2.10 (bench/large-cppcheck.sh suite:
#              PIE, Debian's flags; trace of 4 fixtures, perf samples of the
#              measured 14); --full only, or --quick when all its builds are
#              cached (the suite says which).
#
# Profile kinds: trace (exact trace: qemu + trace-plugin.c,
# trace-to-preagg.py; bbmap-profile --pa, perf2bolt-22 --pa) and perf (perf
# record -e cpu-clock -F $PERF_FREQ of $PERF_RUNS runs of prof: IP samples;
# bbmap-profile --perfdata, perf2bolt-22 -p --ba; x86 only).
#
# Builds of each case and kind:
#   plain         plain -O2.
#   prof          plain + -fpass-plugin=bbmap-plugin.so + -Wl,--emit-relocs
#                 (.text checked equal to plain's): profiled and BOLTed.
#   before        the clusters (--layout-for=22) and symbol order of
#                 $BBMAP_BASELINE_BUILD_DIR's bbmap-profile (default: this
#                 tree's), rebuilt as docs/layout.md says:
#                 -fbasic-block-sections=list=, -falign-loops=1,
#                 -Wl,--symbol-ordering-file=.
#   bbmap         the same from $BBMAP_BUILD_DIR's bbmap-profile (default
#                 this tree's build/), plus the plugin (a map; no code
#                 change). Compiled to objects, then linked.
#   bbmap-placed  bbmap's objects linked again with bbmap-profile
#                 --format=placement's assembly (assembled, added to the
#                 link) and its symbol order, from the layout's profile
#                 and a perf.data of the whole process for the libraries'
#                 code (perf: the recorded one; trace: --pa with
#                 --process-perfdata, branch stacks made from the trace by
#                 test/tools/perf-data-gen.py --all-objects --start-anywhere,
#                 as a profiler samples the whole process).
#                 Skipped, with a note, while bbmap-profile has no
#                 --format=placement.
#   bbmap-cloned  with CLONE=1, sqlite3 cases: bbmap's clusters with path
#                 cloning (`p` lines) of the interpreter's dispatch,
#                 bench/tools/clone-dispatch.py (issue #36, item 4;
#                 docs/layout.md, "Path cloning"), bbmap's symbol order.
#   blocks        with RELINK=1: every block in its own section (x86:
#                 -fbasic-block-sections=all and -Wl,--optimize-bb-jumps;
#                 arm64: the list of bbmap-profile prof
#                 --format=block-sections) with -falign-loops=1 and the
#                 plugin's map: the build a relink-only layout starts
#                 from, measured as it is (no profile).
#   relink-functions, relink-program
#                 with RELINK=1, trace: blocks traced on the training
#                 run, bbmap-profile --format=block-order
#                 --block-scope=functions|program, and blocks' objects
#                 relinked with that order (checked: bbmap-dump
#                 --check-order). No recompile.
#   BOLT          llvm-bolt-22 on prof with perf2bolt-22's fdata of the same
#                 profile: -reorder-blocks=ext-tsp -reorder-functions=cdsort
#                 -split-functions -split-all-cold, and -split-eh on x86.
#
# Metrics of each build on the measured run:
#   - bench/tools/icache-plugin.c's I1 (32 KiB, 8-way, 64-byte lines; LRU)
#     under qemu: instructions, misses as built, and the mean, minimum and
#     maximum over $PLACEMENTS placements of the same code relative to the
#     libraries, all from one run (shifts=): the program's executable
#     segments moved by k * 528 mod 4096 bytes, k = 0..PLACEMENTS-1 (every
#     16-byte phase within a line, sets spread over the 4 KiB the set index
#     spans; k = 0 is the build as built). On arm64 too.
#   - --full, x86 cases: LLi misses of cachegrind (I1 32 KiB 8-way, LL 2 MiB
#     16-way, 64-byte lines) and CPU time (user+sys, the median of $RUNS
#     rounds after a warm-up round, builds interleaved).
# The report gives bbmap/BOLT and bbmap-placed/BOLT (as built and placement
# mean) in one table, and for bbmap-placed its misses as built over the
# best of the measured placements (the placement chosen should be within 5%
# of the best one measured); then a table per case.
#
# Usage: bench/layout-suite.sh [--quick | --full]
#   --quick  (default) x86 same and long20, both kinds; arm64 --size 5;
#            cppcheck only if cached. About 5 minutes on 2 cores from the
#            sources, seconds when nothing changed.
#   --full   x86 same, long, mix and sum, both kinds, with LLi and CPU
#            time; arm64 --size 50; cppcheck (four builds of 3 to 8
#            minutes each, 3 to 4 minutes per simulated run).
#   env: X86_SPLITS, KINDS, ARM_SIZE, CASES (of x86 arm64 cppcheck),
#   CLONE (0; 1 adds bbmap-cloned), RELINK (0; 1 adds blocks and the
#   relinks), PLACEMENTS (8), RUNS (3), PERF_RUNS (5), PERF_FREQ (20000), JOBS (2),
#   BBMAP_BUILD_DIR, BBMAP_BASELINE_BUILD_DIR, BBMAP_LAYOUT_ARGS (more
#   bbmap-profile options for bbmap's layout and placement, to try a policy:
#   "--cold-fraction=0 --function-order=none"; here and in cppcheck's). Builds, profiles and
#   measurements are reused while their inputs are unchanged (stamps; the
#   profiles while prof is), so a second run after a change of
#   bbmap-profile rebuilds and measures only what the change touched.
# Outputs go to bench/out/layout-suite/ (the report: report.md; the rows:
# rows.tsv).

# shellcheck disable=SC2317 # the functions run through par are reachable
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

mode=quick
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --quick) mode=quick ;;
    --full) mode=full ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
  shift
done
for t in clang-22 llvm-bolt-22 perf2bolt-22 llvm-objcopy-22 qemu-x86_64 \
  qemu-aarch64 perf cc python3 sha1sum; do
  command -v "$t" >/dev/null || die "$t not found (run scripts/bootstrap.sh)"
done
if [ "$mode" = quick ]; then
  X86_SPLITS=${X86_SPLITS:-same long20} ARM_SIZE=${ARM_SIZE:-5}
else
  X86_SPLITS=${X86_SPLITS:-same long mix sum} ARM_SIZE=${ARM_SIZE:-50}
  command -v valgrind >/dev/null || die "valgrind not found (run scripts/bootstrap.sh)"
fi
CASES=${CASES:-x86 arm64 cppcheck} KINDS=${KINDS:-trace perf}
PLACEMENTS=${PLACEMENTS:-8} RUNS=${RUNS:-3} PERF_RUNS=${PERF_RUNS:-5}
PERF_FREQ=${PERF_FREQ:-20000} JOBS=${JOBS:-2} CLONE=${CLONE:-0} RELINK=${RELINK:-0}
read -ra LAYOUT_ARGS <<<"${BBMAP_LAYOUT_ARGS:-}"
[[ $CLONE =~ ^[01]$ ]] || die "CLONE must be 0 or 1"
[[ $RELINK =~ ^[01]$ ]] || die "RELINK must be 0 or 1"
for v in PLACEMENTS RUNS PERF_RUNS PERF_FREQ JOBS ARM_SIZE; do
  [[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "$v must be a positive integer"
done
for k in $KINDS; do case $k in trace|perf) ;; *) die "unknown profile kind '$k'" ;; esac; done
build=${BBMAP_BUILD_DIR:-$ROOT/build}/llvm-22
baseline=${BBMAP_BASELINE_BUILD_DIR:-${BBMAP_BUILD_DIR:-$ROOT/build}}/llvm-22
for f in "$build/bbmap-profile" "$build/bbmap-dump" "$build/bbmap-plugin.so" "$baseline/bbmap-profile"; do
  [ -f "$f" ] || die "no $f (run: scripts/build.sh 22)"
done
SYSROOT=/usr/aarch64-linux-gnu
[[ " $CASES " != *" arm64 "* ]] || [ -f "$SYSROOT/lib/crt1.o" ] ||
  die "no arm64 sysroot in $SYSROOT (run scripts/bootstrap.sh)"

fetch_sqlite
out=$OUT/layout-suite
mkdir -p "$out/bin" "$out/log"
cd "$out"
rm -f notes.txt ./*.failed
: >rows.tsv
# Copies of the tools (kept while unchanged, so that stamps stay valid).
for f in bbmap-profile:bbmap-profile bbmap-plugin.so:bbmap-plugin.so; do
  cmp -s "$build/${f%%:*}" "bin/${f##*:}" || cp "$build/${f%%:*}" "bin/${f##*:}"
done
cmp -s "$baseline/bbmap-profile" bin/bbmap-profile-before ||
  cp "$baseline/bbmap-profile" bin/bbmap-profile-before
PROFILE=$out/bin/bbmap-profile BEFORE=$out/bin/bbmap-profile-before PLUGIN=$out/bin/bbmap-plugin.so
ET=$TOOLS/exact-trace
start=$(date +%s)
status=0 CASE=""
# (grep reads all of the help: with -q it could stop bbmap-profile with
# SIGPIPE, which pipefail reports as no match.)
if "$PROFILE" --help 2>&1 | grep placement >/dev/null; then
  PLACE=1
else
  PLACE=0
  echo "bbmap-placed: skipped, bbmap-profile has no --format=placement ($build)" | tee -a notes.txt
fi
# tree_of DIR: a build directory and the commit of the tree it is in.
tree_of() {
  echo "$1 ($(git -C "$1" log -1 --format=%h 2>/dev/null || echo 'not in a git tree'))"
}
{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'), load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "tree: $(git -C "$ROOT" log -1 --format='%h %s' | cut -c1-90)"
  echo "mode: $mode; cases: $CASES; x86 splits: $X86_SPLITS; kinds: $KINDS; arm64 --size $ARM_SIZE"
  echo "bbmap-profile (bbmap, bbmap-placed): $(tree_of "$build"); before: $(tree_of "$baseline")"
  echo "placements: $PLACEMENTS (k * 528 mod 4096 bytes); perf: $PERF_RUNS runs at $PERF_FREQ Hz; RUNS=$RUNS; CLONE=$CLONE; RELINK=$RELINK"
  echo "BBMAP_LAYOUT_ARGS: ${LAYOUT_ARGS[*]:-(none)}"
} | tee meta.txt

step "plugins"
run plugins.cc cc -O2 -shared -fPIC -o bin/trace.so "$ET/trace-plugin.c"
run plugins.cc cc -O2 -shared -fPIC -I"$ET" -o bin/icache.so "$BENCH/tools/icache-plugin.c"
DELTAS=$(for ((k = 0; k < PLACEMENTS; k++)); do echo $((k * 528 % 4096)); done | paste -sd:)

# --- Running jobs two at a time. par CMD...: runs CMD in the background
# once fewer than $JOBS jobs run; a failure leaves a .failed file.
# par_wait: waits for all and dies if one failed.
njob=0
par() {
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
  njob=$((njob + 1))
  ( "$@" ) >"log/job.$njob" 2>&1 || { echo "$*" >"job.$njob.failed"; } &
}
par_wait() {
  wait
  local f
  for f in job.*.failed; do
    [ -e "$f" ] || continue
    local n=${f#job.}; n=${n%.failed}
    tail -n 15 "log/job.$n" >&2
    die "failed: $(cat "$f") (log: $out/log/job.$n)"
  done
  cat log/job.* 2>/dev/null | grep -E '^(OUTPUT|CODE) DIFFERS' && status=1
  rm -f log/job.*
  njob=0
}

# stamp ARGS...: what a build made from ARGS depends on besides the
# sources: the arguments and the contents of the files they name.
stamp_of() {
  local a
  printf '%s\n' "$@" "$(clang-22 --version | head -n 1)"
  for a in "$@"; do [ ! -f "${a##*=}" ] || sha1sum <"${a##*=}"; done
}

# --- speedtest1 builds (in the case's directory; CFLAGS and CC_TARGET set
# by the case). compile NAME FLAGS...: sqlite3.c and speedtest1.c to
# NAME.obj/*.o, unless NAME.obj/stamp says they are up to date.
compile() {
  local name=$1; shift
  local s; s=$(stamp_of "${CFLAGS[@]}" "$@")
  if [ -f "$name.obj/stamp" ] && [ "$(cat "$name.obj/stamp")" = "$s" ]; then return; fi
  rm -rf "$name.obj" && mkdir -p "$name.obj"
  echo "compile $name"
  clang-22 "${CFLAGS[@]}" "$@" -c "$SQLITE/sqlite3.c" -o "$name.obj/sqlite3.o"
  clang-22 "${CFLAGS[@]}" "$@" -c "$SQLITE/test/speedtest1.c" -o "$name.obj/speedtest1.o"
  printf '%s\n' "$s" >"$name.obj/stamp"
}
# link NAME OBJS LDFLAGS...: links OBJS' objects (and LDFLAGS) to NAME.
link() {
  local name=$1 objs=$2; shift 2
  local s; s=$(stamp_of "${CFLAGS[@]}" "$objs.obj/stamp" "$@")
  if [ -x "$name" ] && [ -f "$name.stamp" ] && [ "$(cat "$name.stamp")" = "$s" ]; then return; fi
  clang-22 "${CFLAGS[@]}" "$objs.obj/sqlite3.o" "$objs.obj/speedtest1.o" "$@" -o "$name" -lm
  printf '%s\n' "$s" >"$name.stamp"
}
# layout_build NAME CLUSTERS ORDER [FLAGS...]: the documented recipe.
layout_build() {
  local name=$1 cl=$2 ord=$3; shift 3
  compile "$name" -fbasic-block-sections=list="$PWD/$cl" -falign-loops=1 "$@"
  link "$name" "$name" -Wl,--symbol-ordering-file="$PWD/$ord"
}
# layout_files TOOL PROFILE-OPTION TAG [OPTION...]: TAG.clusters and
# TAG.order of prof.
layout_files() {
  run "$3.layout" "$1" prof "$2" --format=clusters --layout-for=22 -o "$3.clusters" \
    --symbol-order="$3.order" "${@:4}"
}
# placed_build TAG PROFILE-OPTION PERFDATA [ICACHE]: placed-TAG from
# bbmap-TAG's objects, the layout's profile and the process's perf.data.
placed_build() {
  local tag=$1 src=$2 pd=$3 geo=()
  [ -z "${4:-}" ] || geo=(--icache="$4")
  "$PROFILE" prof "$src" --process-perfdata="$pd" --format=placement --placed-binary="bbmap-$tag" \
    -o "place-$tag.s" --symbol-order="place-$tag.order" "${geo[@]}" "${LAYOUT_ARGS[@]}"
  clang-22 "${CC_TARGET[@]}" -c "place-$tag.s" -o "place-$tag.o"
  link "placed-$tag" "bbmap-$tag" "$PWD/place-$tag.o" -Wl,--symbol-ordering-file="$PWD/place-$tag.order"
}
# cloned_build TAG: cloned-TAG, bbmap-TAG's layout with the interpreter's
# dispatch cloned (clone-dispatch.py; no plugin: clang's map of cloned
# blocks is not what this measures).
cloned_build() {
  python3 "$BENCH/tools/clone-dispatch.py" "bbmap-$1.clusters" prof.table -o "cloned-$1.clusters"
  layout_build "cloned-$1" "cloned-$1.clusters" "bbmap-$1.order"
}
# bolt_build TAG PROFILE-KIND PROFILE-FILE: bolt-TAG.
bolt_build() {
  local tag=$1 kind=$2 pf=$3 p2b
  local s; s=$(stamp_of prof "$pf" "${BOLT_OPTS[@]}" "$(sha1sum <prof)")
  if [ -x "bolt-$tag" ] && [ "$(cat "bolt-$tag.stamp" 2>/dev/null)" = "$s" ]; then return; fi
  if [ "$kind" = perf ]; then p2b=(-p "$pf" --ba); else p2b=(--pa -p "$pf"); fi
  perf2bolt-22 prof "${p2b[@]}" -o "bolt-$tag.fdata"
  llvm-bolt-22 prof -o "bolt-$tag" --data "bolt-$tag.fdata" "${BOLT_OPTS[@]}"
  printf '%s\n' "$s" >"bolt-$tag.stamp"
}


# simulate BIN RUN: BIN under qemu ($QEMU) with the I1 of every placement
# on RUN's arguments; the result in sim/KEY.ic, KEY from the binary, the
# arguments and the plugin, so an unchanged binary is not run again.
# Output checked against expected.RUN.out.
sim_key() {
  { sha1sum <"$1"; echo "${RUN_ARGS[$2]} $DELTAS ${QEMU[*]}"; sha1sum <"$out/bin/icache.so"; } |
    sha1sum | cut -c1-16
}
simulate() {
  local b=$1 r=$2 key
  key=$(sim_key "$b" "$r")
  [ -s "sim/$key.ic" ] && return
  # shellcheck disable=SC2086 # the run's arguments are words
  env -u LD_PRELOAD "${QEMU[@]}" -plugin \
    "$out/bin/icache.so,out=sim/$key.tmp,shifts=$(exec_range "$b"):$DELTAS" \
    "./$b" ${RUN_ARGS[$r]} >"sim/$b.$r.out"
  check_out "$b under qemu ($CASE)" "sim/$b.$r.out" "expected.$r.out"
  mv "sim/$key.tmp" "sim/$key.ic"
}
# cg_lli BIN RUN: cachegrind's LLi misses (cg/KEY.lli, cached the same way).
cg_lli() {
  local b=$1 r=$2 key
  key=$(sim_key "$b" "$r")
  [ -s "cg/$key.lli" ] && return
  # shellcheck disable=SC2086
  valgrind "${CG_OPTS[@]}" --cachegrind-out-file="cg/$key.cg" "./$b" ${RUN_ARGS[$r]} \
    >"cg/$b.$r.out" 2>"cg/$b.$r.log" || die "cachegrind failed on $b"
  check_out "$b under cachegrind ($CASE)" "cg/$b.$r.out" "expected.$r.out"
  awk '/^events:/ { for (i = 2; i <= NF; i++) e[$i] = i - 1 }
    /^summary:/ { print $(e["ILmr"] + 1) }' "cg/$key.cg" >"cg/$key.lli"
  rm -f "cg/$key.cg"
}
# cpu_rounds RUN BUILD...: a warm-up round and $RUNS rounds of every BUILD
# on RUN, each round starting one build further on; BUILD.RUN.cpu gets the
# median of the user+sys seconds (this run's: --full measures it every
# time).
cpu_rounds() {
  local r=$1; shift
  local builds=("$@") nb=$# round i b
  cpu_s() { awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/)
    printf "%.3f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$1"; }
  for b in "${builds[@]}"; do rm -f "$b.$r.times"; done
  for round in $(seq 0 "$RUNS"); do
    for i in $(seq 0 $((nb - 1))); do
      b=${builds[$(((i + round) % nb))]}
      times >times.0
      # shellcheck disable=SC2086
      ./"$b" ${RUN_ARGS[$r]} >"$b.$r.run.out"
      times >times.1
      [ "$round" -eq 0 ] || echo "$(cpu_s times.0) $(cpu_s times.1)" >>"$b.$r.times"
      check_out "$b (round $round, $CASE)" "$b.$r.run.out" "expected.$r.out"
    done
  done
  for b in "${builds[@]}"; do awk '{ print $2 - $1 }' "$b.$r.times" | median >"$b.$r.cpu"; done
}
# row CASE KIND LABEL BIN RUN: the TSV row of BIN measured on RUN.
row() {
  local key lli=- cpu=-
  key=$(sim_key "$4" "$5")
  if [ "$mode" = full ] && [ -s "cg/$key.lli" ]; then
    lli=$(cat "cg/$key.lli") cpu=$(cat "$4.$5.cpu")
  fi
  awk -v c="$1" -v k="$2" -v b="$3" -v lli="$lli" -v cpu="$cpu" '
    /^# instructions/ { ins = $3 } /^# misses/ { asb = $3 }
    /^# placement/ { n++; s += $4; if (n == 1 || $4 < mn) mn = $4; if ($4 > mx) mx = $4 }
    END { printf "%s\t%s\t%s\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%s\t%s\n", c, k, b, asb, s / n, mn, mx, ins, lli, cpu }' \
    "sim/$key.ic" >>"$out/rows.tsv"
}

# --- The speedtest1 cases. sqlite_case ARCH: the builds, profiles and
# measurements of ARCH (x86 or arm64) in $out/ARCH/, rows to rows.tsv.
sqlite_case() {
  local arch=$1 splits t k r tag s b
  mkdir -p "$out/$arch/log" "$out/$arch/sim" "$out/$arch/cg"
  cd "$out/$arch"
  declare -gA RUN_ARGS=() TRAIN_RUNS=() SPLIT_TRAIN=() SPLIT_TEST=()
  local wl="--memdb --verify"
  if [ "$arch" = x86 ]; then
    CFLAGS=(-O2 -ffunction-sections -no-pie -DSQLITE_THREADSAFE=0
      -DSQLITE_OMIT_LOAD_EXTENSION -DSQLITE_ENABLE_RTREE -I"$SQLITE" -fuse-ld=lld)
    CC_TARGET=() QEMU=(qemu-x86_64) ICACHE=""
    BOLT_OPTS=(-reorder-blocks=ext-tsp -reorder-functions=cdsort -split-functions
      -split-all-cold -split-eh)
    RUN_ARGS=([s5]="$wl --testset main --size 5" [s10]="$wl --testset main --size 10"
      [s20]="$wl --testset main --size 20" [s100]="$wl --testset main --size 100"
      [mix6]="$wl --testset main,cte,fp,orm,rtree --size 6"
      [sum1]="$wl --testset main --size 5" [sum2]="$wl --testset cte,fp --size 5"
      [sum3]="$wl --testset orm,rtree --size 3")
    TRAIN_RUNS=([s5]="s5" [s10]="s10" [sum]="sum1 sum2 sum3")
    SPLIT_TRAIN=([same]=s5 [long]=s5 [long20]=s5 [mix]=s10 [sum]=sum)
    SPLIT_TEST=([same]=s5 [long]=s100 [long20]=s20 [mix]=mix6 [sum]=mix6)
    splits=$X86_SPLITS kinds=$KINDS
  else
    CFLAGS=(--target=aarch64-linux-gnu -O2 -ffunction-sections -no-pie
      -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -I"$SQLITE" -fuse-ld=lld)
    CC_TARGET=(--target=aarch64-linux-gnu) QEMU=(qemu-aarch64 -L "$SYSROOT")
    ICACHE=32768,8,64
    BOLT_OPTS=(-reorder-blocks=ext-tsp -reorder-functions=cdsort -split-functions
      -split-all-cold)
    RUN_ARGS=([a]="$wl --size $ARM_SIZE") TRAIN_RUNS=([a]=a)
    SPLIT_TRAIN=([size$ARM_SIZE]=a) SPLIT_TEST=([size$ARM_SIZE]=a)
    splits=size$ARM_SIZE kinds=trace
    [[ " $KINDS " == *" trace "* ]] || { echo "arm64: no trace kind asked, skipped"; return; }
  fi
  for s in $splits; do [ -n "${SPLIT_TRAIN[$s]:-}" ] || die "unknown $arch split '$s'"; done
  local trains runs
  trains=$(for s in $splits; do echo "${SPLIT_TRAIN[$s]}"; done | sort -u | paste -sd' ')
  runs=$(for s in $splits; do echo "${SPLIT_TEST[$s]}"; for t in ${SPLIT_TRAIN[$s]}; do
    echo "${TRAIN_RUNS[$t]}" | tr ' ' '\n'; done; done | sort -u)

  step "$arch: plain and prof"
  par compile plain
  par compile prof -fpass-plugin="$PLUGIN"
  par_wait
  link plain plain
  link prof prof -Wl,--emit-relocs
  same_text prof plain
  local q=()
  [ "$arch" = x86 ] || q=("${QEMU[@]}")
  for r in $runs; do
    if [ ! -s "expected.$r.out" ] || [ "expected.$r.out" -ot plain ]; then
      # shellcheck disable=SC2086 # the run's arguments are words
      "${q[@]}" ./plain ${RUN_ARGS[$r]} | normalize >"expected.$r.out"
    fi
    grep -q '^Verification Hash: ' "expected.$r.out" || die "plain printed no hash for $r"
  done

  # The training profiles, kept while prof is unchanged.
  step "$arch: training profiles ($trains; $kinds)"
  for t in $trains; do
    if [[ " $kinds " == *" trace "* ]] && [ ! "train.$t.pa" -nt prof ]; then
      par trace_train "$t"
    fi
  done
  par_wait
  for t in $trains; do
    if [[ " $kinds " == *" perf "* ]] && [ ! "train.$t.perf.data" -nt prof ]; then
      perf_train "$t"
    fi
  done

  # The layouts and the builds.
  step "$arch: layouts, before, bbmap and BOLT builds"
  for t in $trains; do
    for k in $kinds; do
      tag=$t-$k
      if [ "$k" = perf ]; then src=--perfdata=train.$t.perf.data; else src=--pa=train.$t.pa; fi
      layout_files "$BEFORE" "$src" "before-$tag"
      layout_files "$PROFILE" "$src" "bbmap-$tag" "${LAYOUT_ARGS[@]}"
      par layout_build "before-$tag" "before-$tag.clusters" "before-$tag.order"
      par layout_build "bbmap-$tag" "bbmap-$tag.clusters" "bbmap-$tag.order" -fpass-plugin="$PLUGIN"
      if [ "$k" = perf ]; then par bolt_build "$tag" perf "train.$t.perf.data"
      else par bolt_build "$tag" trace "train.$t.pa"; fi
    done
  done
  par_wait
  if [ "$CLONE" = 1 ]; then
    step "$arch: bbmap-cloned builds"
    "$build/bbmap-dump" --bb-addr-map --output-style=table prof >prof.table
    for t in $trains; do
      for k in $kinds; do par cloned_build "$t-$k"; done
    done
    par_wait
  fi
  # shellcheck disable=SC2054 # -Wl, takes its argument after a comma
  local relinks=$RELINK sections=(-fbasic-block-sections=all) jumps=(-Wl,--optimize-bb-jumps)
  if [ "$relinks" = 1 ]; then
    step "$arch: the per-block build, its traces and the relinks"
    if [ "$arch" = arm64 ]; then
      # No `all` on AArch64: the list that gives every block a section, and
      # lld optimizes jumps between sections on x86-64 only.
      "$PROFILE" prof --format=block-sections -o blocks.sections
      sections=(-fbasic-block-sections=list="$PWD/blocks.sections") jumps=()
    fi
    # No empty block sections (docs/layout.md, "Relinking a layout").
    compile blocks "${sections[@]}" -falign-loops=1 -mllvm -trap-unreachable \
      -mllvm -no-trap-after-noreturn -fpass-plugin="$PLUGIN"
    link blocks blocks "${jumps[@]}"
    for t in $trains; do
      [ "blocks.train.$t.pa" -nt blocks ] || trace_train "$t" blocks
      for b in functions program; do
        "$PROFILE" blocks --pa="blocks.train.$t.pa" --format=block-order \
          --block-scope=$b -o "relink-$b-$t.order" 2>>log/relink.warnings
        link "relink-$b-$t" blocks "${jumps[@]}" \
          -Wl,--symbol-ordering-file="$PWD/relink-$b-$t.order"
        "$build/bbmap-dump" --check-order="relink-$b-$t.order" "relink-$b-$t" >/dev/null ||
          die "relink-$b-$t: lld did not place the blocks in order"
      done
    done
  fi
  if [ "$PLACE" = 1 ]; then
    step "$arch: bbmap-placed builds"
    for t in $trains; do
      for k in $kinds; do
        if [ "$k" = perf ]; then
          par placed_build "$t-$k" --perfdata="train.$t.perf.data" "train.$t.perf.data" "$ICACHE"
        else
          if [ ! "train.$t.trace.perf.data" -nt "train.$t.pa" ]; then
            run "$t.perf-data-gen" python3 "$TOOLS/perf-data-gen.py" prof "train.$t.triples" \
              -o "train.$t.trace.perf.data" --all-objects --start-anywhere --samples=200000
          fi
          par placed_build "$t-$k" --pa="train.$t.pa" "train.$t.trace.perf.data" "$ICACHE"
        fi
      done
    done
    par_wait
  fi

  # The measurements.
  local labels=(plain before bbmap) pairs=()
  [ "$PLACE" = 0 ] || labels+=(bbmap-placed)
  [ "$CLONE" = 0 ] || labels+=(bbmap-cloned)
  labels+=(BOLT)
  bin_of() { case $1 in plain) echo plain ;; bbmap-placed) echo "placed-$2" ;;
    bbmap-cloned) echo "cloned-$2" ;; blocks) echo blocks ;;
    relink-*) echo "$1-${2%-trace}" ;;
    BOLT) echo "bolt-$2" ;; *) echo "$1-$2" ;; esac; }
  # labels_of KIND: the builds measured for a profile kind.
  labels_of() {
    local l=("${labels[@]}")
    [ "$relinks" = 0 ] || l+=(blocks)
    [ "$relinks" = 0 ] || [ "$1" != trace ] || l+=(relink-functions relink-program)
    echo "${l[@]}"
  }
  for s in $splits; do
    r=${SPLIT_TEST[$s]} t=${SPLIT_TRAIN[$s]}
    for k in $kinds; do
      for b in $(labels_of "$k"); do pairs+=("$(bin_of "$b" "$t-$k") $r"); done
    done
  done
  mapfile -t pairs < <(printf '%s\n' "${pairs[@]}" | sort -u)
  step "$arch: I1 of ${#pairs[@]} build/run pairs, $PLACEMENTS placements each"
  for s in "${pairs[@]}"; do
    read -r b r <<<"$s"
    CASE=$arch par simulate "$b" "$r"
  done
  par_wait
  if [ "$mode" = full ] && [ "$arch" = x86 ]; then
    step "$arch: cachegrind of ${#pairs[@]} pairs"
    for s in "${pairs[@]}"; do read -r b r <<<"$s"; CASE=$arch par cg_lli "$b" "$r"; done
    par_wait
    for r in $(for s in $splits; do echo "${SPLIT_TEST[$s]}"; done | sort -u); do
      local bs=()
      for s in "${pairs[@]}"; do [ "${s#* }" != "$r" ] || bs+=("${s% *}"); done
      step "$arch: CPU time on $r: 1 + $RUNS rounds of ${#bs[@]} builds"
      CASE=$arch cpu_rounds "$r" "${bs[@]}"
    done
  fi
  for s in $splits; do
    r=${SPLIT_TEST[$s]} t=${SPLIT_TRAIN[$s]}
    for k in $kinds; do
      for b in $(labels_of "$k"); do row "$arch-$s" "$k" "$b" "$(bin_of "$b" "$t-$k")" "$r"; done
    done
  done
  cd "$out"
}

# trace_train T [BIN]: the exact trace of BIN (default prof) on training
# set T: train.T.pa and, for the placement, train.T.triples (for another
# BIN, BIN.train.T.pa and .triples).
trace_train() {
  local t=$1 b=${2:-prof} r p
  p=train.$t
  [ "$b" = prof ] || p=$b.train.$t
  : >"$p.triples.tmp" && : >"$p.pa.tmp"
  for r in ${TRAIN_RUNS[$t]}; do
    # shellcheck disable=SC2086
    env -u LD_PRELOAD "${QEMU[@]}" -plugin "$out/bin/trace.so,out=$b.$r.triples" \
      ./$b ${RUN_ARGS[$r]} >"$b.$r.qemu.out"
    check_out "$b traced" "$b.$r.qemu.out" "expected.$r.out"
    python3 "$ET/trace-to-preagg.py" "$b" "$b.$r.triples" --format=22 -o "$b.$r.pa"
    cat "$b.$r.pa" >>"$p.pa.tmp"
    cat "$b.$r.triples" >>"$p.triples.tmp"
    rm -f "$b.$r.triples"
  done
  mv "$p.triples.tmp" "$p.triples"
  mv "$p.pa.tmp" "$p.pa"
}
# perf_train T: perf record of $PERF_RUNS repetitions of training set T
# (x86; alone, beside no other job of this script).
perf_train() {
  local t=$1 r script=""
  for r in ${TRAIN_RUNS[$t]}; do script="$script ./prof ${RUN_ARGS[$r]} >$r.perf.out;"; done
  run "$t.perf-record" perf record -e cpu-clock -F "$PERF_FREQ" -o "train.$t.perf.data" -- \
    sh -c "for i in \$(seq $PERF_RUNS); do $script done"
  for r in ${TRAIN_RUNS[$t]}; do check_out "prof under perf" "$r.perf.out" "expected.$r.out"; done
}

for c in $CASES; do
  case $c in
    x86|arm64) sqlite_case "$c" ;;
    cppcheck)
      if [ "$mode" = quick ]; then cached=1; else cached=0; fi
      step "cppcheck: bench/large-cppcheck.sh suite (log: $out/log/cppcheck)"
      rc=0
      SUITE_CACHED_ONLY=$cached SUITE_FULL=$((1 - cached)) SUITE_PLACEMENTS=$PLACEMENTS \
        SUITE_KINDS=$KINDS BBMAP_BASELINE_BUILD_DIR=${baseline%/llvm-22} \
        "$BENCH/large-cppcheck.sh" --reps "$RUNS" suite >log/cppcheck 2>&1 || rc=$?
      if [ "$rc" -eq 3 ]; then
        echo "cppcheck: skipped, its builds are not cached (run --full once)" | tee -a notes.txt
      elif [ "$rc" -ne 0 ]; then
        tail -n 20 log/cppcheck >&2; echo "cppcheck: FAILED (log: $out/log/cppcheck)" | tee -a notes.txt
        status=1
      else
        grep -E '^(OUTPUT|CODE) DIFFERS|^bbmap-placed' log/cppcheck | tee -a notes.txt || true
        cat "$OUT/large-cppcheck/suite.tsv" >>rows.tsv
      fi ;;
    *) die "unknown case '$c'" ;;
  esac
done

step "report"
python3 "$BENCH/tools/suite-report.py" rows.tsv >report.body
{
  [ ! -s notes.txt ] || { echo; sed 's/^/note: /' notes.txt; }
  echo
  echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); run time $(($(date +%s) - start)) s"
} >>report.body
cat meta.txt report.body >report.md
cat report.body
if [ "$status" -eq 0 ]; then echo "layout-suite: PASS"; else echo "layout-suite: FAIL"; fi
exit $status
