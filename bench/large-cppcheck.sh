#!/usr/bin/env bash
# large-cppcheck.sh - the whole loop on a large C++ program, as Debian builds
# it: cppcheck 2.10 from Debian's source package, built by its own CMake
# build (Release, which cppcheck sets to -O2; the match compiler and the
# rule engine on, as debian/rules has them; dpkg-buildflags' hardening
# flags; clang-22's default PIE; lld), checked and measured in three parts:
#
#   map    the plugin's map of every object and of the linked cppcheck and
#          testrunner equals the in-tree -fbasic-block-address-map map,
#          also after --gc-sections --icf=all; --verify clean; the plugin
#          changes no code; compile time of both builds
#   loop   profile -> clusters + symbol order -> rebuild for the PIE, for
#          libcppcheck-core.so (cppcheck's own BUILD_CORE_DLL), and for a
#          ThinLTO build; each rebuilt program gives the same output and its
#          map shows the clusters
#   bench  plain -O2, bbmap from perf IP samples, bbmap from an exact trace
#          of a shorter workload, BOLT on both profiles, PGO, PGO + bbmap:
#          wall and CPU time, instructions, I1 and LL instruction misses,
#          hot pages, sizes
#   speed  each toolchain's time and memory from profile to optimized
#          binary: bbmap-profile's layout (clusters and symbol order, one
#          run) and its fdata (perf2bolt's own output, checked equal)
#          against perf2bolt-22, beside the rebuild and llvm-bolt-22 (the
#          profiles and builds of the bench part); from perf samples also
#          the layout with LLVM's profi solving the inference
#   suite  bench/layout-suite.sh's cppcheck case: plain (the plugin
#          build, the same code), before ($BBMAP_BASELINE_BUILD_DIR's
#          layout), bbmap (with the plugin's map), bbmap-placed (bbmap
#          relinked with bbmap-profile --format=placement's assembly and
#          order; skipped while bbmap-profile has none) and BOLT, for the
#          trace and perf profiles: simulated I1 misses as built and over
#          $SUITE_PLACEMENTS placements (icache-plugin.c shifts=),
#          instructions, and with SUITE_FULL=1 LLi misses and CPU time;
#          rows in suite.tsv (see bench/tools/suite-report.py). With
#          SUITE_CACHED_ONLY=1 it builds and profiles nothing and exits
#          with status 3 when a build or profile is not up to date. Env
#          SUITE_KINDS (trace perf).
#   turnaround, incremental
#          bench/turnaround-cppcheck.sh (see its header): relink-only
#          against BOLT and the suite's recompile, the per-block build's
#          cost; per-unit recompiles with bbmap-unit-launcher
#
# Usage: bench/large-cppcheck.sh [--reps N] [map] [loop] [bench] [speed]
#          [suite] [turnaround] [incremental]
#   --reps N  timed runs per program in bench, speed and suite (default 5,
#             interleaved)
#   parts     default: map loop bench speed, in that order
# Builds go to bench/out/large-cppcheck/<name>/ and are reused while their
# flags and compiler plugin are unchanged (a build takes 5 to 8 minutes on
# two cores). Set BBMAP_BUILD_DIR to use another tree's build/ for the
# plugin and bbmap-profile, and BBMAP_LAYOUT_ARGS to give bbmap-profile's
# layout and placement more options (a policy to try).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

reps=5 parts=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --reps) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--reps needs a positive integer"
            reps=$2; shift ;;
    map|loop|bench|speed|suite|turnaround|incremental) parts+=("$1") ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
  shift
done
[ ${#parts[@]} -gt 0 ] || parts=(map loop bench speed)
command -v clang-22 >/dev/null || die "clang-22 not found (run scripts/bootstrap.sh)"

# fetch_cppcheck: sets CPPCHECK to Debian's cppcheck source tree
# (apt-get source, once, into bench/work/).
fetch_cppcheck() {
  mkdir -p "$WORK"
  CPPCHECK=$(find "$WORK" -maxdepth 1 -type d -name 'cppcheck-*' | sort | tail -n 1)
  [ -z "$CPPCHECK" ] || return 0
  local log=$WORK/fetch-cppcheck.log
  echo "fetching cppcheck's Debian source into $WORK (log: $log)"
  ("$ROOT/scripts/bootstrap.sh" --with-sources && cd "$WORK" &&
    apt-get source -q cppcheck) >"$log" 2>&1 || die "apt-get source cppcheck failed; see $log"
  CPPCHECK=$(find "$WORK" -maxdepth 1 -type d -name 'cppcheck-*' | sort | tail -n 1)
  [ -n "$CPPCHECK" ] || die "apt-get source cppcheck unpacked no cppcheck-* directory"
}

build=${BBMAP_BUILD_DIR:-$ROOT/build}/llvm-22
out=$OUT/large-cppcheck
mkdir -p "$out/bin" "$out/log"
cd "$out"
for f in bbmap-profile bbmap-dump bbmap-plugin.so; do
  [ -f "$build/$f" ] || die "no $build/$f (run: scripts/build.sh 22)"
  cmp -s "$build/$f" "bin/$f" || cp "$build/$f" bin/
done
PROFILE=$out/bin/bbmap-profile DUMP=$out/bin/bbmap-dump PLUGIN=$out/bin/bbmap-plugin.so
read -ra LAYOUT_ARGS <<<"${BBMAP_LAYOUT_ARGS:-}"
fetch_cppcheck
start=$(date +%s)

# Debian's flags for C++ (dpkg-buildflags: hardening, _FORTIFY_SOURCE),
# without -g (debug information changes no code and doubles the build time)
# and without the file-prefix map of a package build.
read -r -a DEB_CXXFLAGS <<<"$(dpkg-buildflags --get CXXFLAGS | tr ' ' '\n' |
  grep -v -e '^-g$' -e '^-ffile-prefix-map=' | tr '\n' ' ')"
read -r -a DEB_CPPFLAGS <<<"$(dpkg-buildflags --get CPPFLAGS)"
read -r -a DEB_LDFLAGS <<<"$(dpkg-buildflags --get LDFLAGS)"
# Every build: function sections (so that lld can order and collect
# functions) and the relocations BOLT needs (-q, which changes no code).
BASE_CXXFLAGS=("${DEB_CXXFLAGS[@]}" "${DEB_CPPFLAGS[@]}" -ffunction-sections)
# shellcheck disable=SC2054 # -Wl, options are one word each
BASE_LDFLAGS=(-fuse-ld=lld "${DEB_LDFLAGS[@]}" -Wl,-z,now -Wl,-q)

# build_stamp ARGS...: what a build's outputs depend on besides the sources:
# its arguments, the contents of the files they name (profiles) and the
# plugin.
build_stamp() {
  local arg
  printf '%s\n' "$@" "$(sha1sum <"$PLUGIN")" "$CPPCHECK"
  for arg in "$@"; do
    [ ! -f "${arg##*=}" ] || sha1sum "${arg##*=}"
  done
}

# cppcheck_build NAME TARGETS CMAKE_OPTIONS -- CXXFLAGS... [-- LDFLAGS...]:
# configures and builds cppcheck's TARGETS (space-separated) in NAME/ with
# clang-22 and its CMake; the flags come after the base ones. Reuses NAME/
# when its stamp (flags, options and the plugin) is unchanged; the build's
# wall and CPU seconds and peak RSS go to NAME/build.time.
cppcheck_build() {
  local name=$1 targets=$2 opts=() cxx=() ld=()
  shift 2
  while [ $# -gt 0 ] && [ "$1" != -- ]; do opts+=("$1"); shift; done
  shift
  while [ $# -gt 0 ] && [ "$1" != -- ]; do cxx+=("$1"); shift; done
  [ $# -eq 0 ] || { shift; ld=("$@"); }
  local stamp
  stamp=$(build_stamp "$targets" "${opts[@]}" -- "${cxx[@]}" -- "${ld[@]}")
  if [ -f "$name/stamp" ] && [ "$(cat "$name/stamp")" = "$stamp" ]; then
    step "build $name: up to date"
    return
  fi
  if [ "${SUITE_CACHED_ONLY:-0}" = 1 ]; then
    echo "build $name: not cached (SUITE_CACHED_ONLY=1)"; exit 3
  fi
  step "build $name ($targets)"
  rm -rf "$name" && mkdir -p "$name"
  run "$name.configure" cmake -G Ninja -S "$CPPCHECK" -B "$name" \
    -DCMAKE_BUILD_TYPE=Release -DUSE_MATCHCOMPILER=ON -DHAVE_RULES=ON \
    -DBUILD_TESTS=ON -DBUILD_GUI=OFF \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DCMAKE_CXX_FLAGS="${BASE_CXXFLAGS[*]} ${cxx[*]}" \
    -DCMAKE_EXE_LINKER_FLAGS="${BASE_LDFLAGS[*]} ${ld[*]}" \
    -DCMAKE_SHARED_LINKER_FLAGS="${BASE_LDFLAGS[*]} ${ld[*]}" "${opts[@]}"
  # shellcheck disable=SC2086 # TARGETS is a list
  run "$name.build" /usr/bin/time -f '%e %U %S %M' -o "$name/build.time" \
    ninja -C "$name" -j2 $targets
  printf '%s\n' "$stamp" >"$name/stamp"
  local w u s m
  read -r w u s m <"$name/build.time"
  echo "  ${w} s wall, $(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }') s CPU, peak RSS $((m / 1024)) MB"
}

# relink NAME TARGET OUT LDFLAGS...: links TARGET of build NAME again, as
# its build did, with LDFLAGS added, to NAME/OUT.
relink() {
  local name=$1 target=$2 dest=$3; shift 3
  local cmd
  cmd=$(ninja -C "$name" -t commands "$target" | tail -n 1)
  [[ $cmd == *" -o $target "* ]] || die "no link command for $target in $name"
  cmd=${cmd/ -o $target / $* -o $dest }
  local log=log/$name.${dest//\//_}.link
  (cd "$name" && eval "$cmd") >"$log" 2>&1 || die "relinking $name/$dest failed (log: $out/$log)"
}

# same_maps A B WHAT: the llvm-readobj-22 maps of A and B are identical
# (compare-maps.py; its verdict is printed); sets status=1 if not.
same_maps() {
  llvm-readobj-22 --bb-addr-map "$1" >"$1.map"
  llvm-readobj-22 --bb-addr-map "$2" >"$2.map"
  local verdict
  if verdict=$(python3 "$TOOLS/compare-maps.py" "$1.map" "$2.map" | tail -n 1); then
    echo "  $3: $verdict"
  else
    echo "MAP DIFFERS: $3 (diff $1.map $2.map)"; status=1
  fi
}

# verify_clean FILE: bbmap-dump --verify FILE reports no error and no warning.
verify_clean() {
  local summary
  summary=$("$DUMP" --verify "$1" 2>&1 | tail -n 1)
  echo "  --verify $1: ${summary#summary: }"
  [[ $summary == *" 0 errors, 0 warnings,"* ]] || { echo "VERIFY FAILED: $1"; status=1; }
}

# map_part: the plugin's map of the whole build against the in-tree one.
map_part() {
  cppcheck_build plugin "cppcheck testrunner" -- "-fpass-plugin=$PLUGIN"
  cppcheck_build intree "cppcheck testrunner" -- -fbasic-block-address-map
  step "compare every object's map and code"
  local o objs=0 mapdiff=0 codediff=0 funcs=0 blocks=0 f b
  while read -r o; do
    objs=$((objs + 1))
    llvm-readobj-22 --bb-addr-map "intree/$o" >obj.intree.map
    llvm-readobj-22 --bb-addr-map "plugin/$o" >obj.plugin.map
    if python3 "$TOOLS/compare-maps.py" obj.intree.map obj.plugin.map >obj.diff; then
      read -r f b < <(sed -En 's/^map: identical \(([0-9]+) functions, ([0-9]+) blocks\)$/\1 \2/p' obj.diff) ||
        die "compare-maps.py gave no verdict for $o"
      funcs=$((funcs + f)) blocks=$((blocks + b))
    else
      mapdiff=$((mapdiff + 1)); echo "MAP DIFFERS: $o"; head -n 20 obj.diff
    fi
    cmp -s <(python3 "$TOOLS/text-digest.py" "intree/$o") \
      <(python3 "$TOOLS/text-digest.py" "plugin/$o") ||
      { codediff=$((codediff + 1)); echo "CODE DIFFERS: $o"; }
  done < <(cd intree && find . -name '*.o' | sort)
  rm -f obj.intree.map obj.plugin.map obj.diff
  echo "  $objs objects: $funcs functions, $blocks blocks; maps differ in $mapdiff," \
    "code differs in $codediff"
  [ "$mapdiff$codediff" = 00 ] || status=1
  step "compare the linked programs' maps, also after --gc-sections --icf=all"
  local name t
  for t in cppcheck testrunner; do
    for name in intree plugin; do
      relink "$name" "bin/$t" "bin/$t.gc-icf" -Wl,--gc-sections -Wl,--icf=all
    done
    same_maps "intree/bin/$t" "plugin/bin/$t" "$t"
    same_maps "intree/bin/$t.gc-icf" "plugin/bin/$t.gc-icf" "$t --gc-sections --icf=all"
    same_text "intree/bin/$t" "plugin/bin/$t"
    verify_clean "plugin/bin/$t"
    verify_clean "plugin/bin/$t.gc-icf"
  done
  size_line plugin/bin/cppcheck
  size_line plugin/bin/testrunner
  step "compile time of the whole build (cppcheck and testrunner, ninja -j2)"
  local w u s m
  for name in intree plugin; do
    read -r w u s m <"$name/build.time"
    printf '  %-7s %8.1f s wall %8.1f s CPU %6d MB peak RSS\n' "$name" "$w" \
      "$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')" $((m / 1024))
  done
}

# size_line FILE: FILE's .text and file bytes.
size_line() {
  echo "  $1: .text $(llvm-size-22 -A "$1" | awk '$1 == ".text" { print $2 }') bytes," \
    "file $(stat -c %s "$1") bytes"
}

# The program of the loop and the bench: testrunner, cppcheck's test
# program (Debian's build runs it as its check), with 7.4 MB of code the
# largest executable of the build (cppcheck itself has 3.7 MB): the whole
# analysis core plus 69 test fixtures. The measured workload is 14 of the
# fixtures that analyse code (about 2 s); the exact trace is taken of a
# shorter, different run, 4 of them (about 0.4 s), so that the trace's
# layouts are measured on a run they were not trained on.
PROG=testrunner
WL=(-q)
WL_MEASURED=(TestValueFlow TestStl TestOther TestCondition TestTokenizer TestUninitVar
  TestUnusedVar TestBufferOverrun TestClass TestNullPointer TestAutoVariables
  TestSymbolDatabase TestSimplifyTemplate TestFunctions)
WL_TRAIN=(TestUninitVar TestNullPointer TestBufferOverrun TestAutoVariables)
PERF_RUNS=5 PERF_FREQ=20000
BOLT_OPTS=(-reorder-blocks=ext-tsp -reorder-functions=cdsort -split-functions
  -split-all-cold)

# workload BIN OUT [FIXTURES...]: runs BIN on the workload (FIXTURES, default
# the measured ones) in the cppcheck tree, its output to OUT.
workload() {
  local bin=$1 dest=$2; shift 2
  [ $# -gt 0 ] || set -- "${WL_MEASURED[@]}"
  (cd "$CPPCHECK" && "$bin" "${WL[@]}" "$@") >"$dest" 2>&1
}
# check_run WHAT FILE: FILE is the measured workload's expected output.
check_run() {
  cmp -s "$2" expected.out || { echo "OUTPUT DIFFERS: $1 (diff $out/$2 $out/expected.out)"; status=1; }
}

# profile_sources BUILD: perf IP samples of BUILD's cppcheck on the measured
# workload (BUILD.perf.data) and the exact trace of the training workload
# (BUILD.pa, pre-aggregated, PIE addresses made the binary's own).
profile_sources() {
  local b=$1 bin=$out/$1/bin/$PROG i
  # Profiles newer than the binary are reused (perf's samples differ from
  # run to run, and a new profile would mean new layout builds); the trace's
  # triples are kept for perf-data-gen.py (the suite part).
  if [ "$b.perf.data" -nt "$bin" ] && [ "$b.pa" -nt "$bin" ] && [ -s "$b.triples" ]; then
    step "profiles of $b: up to date"
    return
  fi
  if [ "${SUITE_CACHED_ONLY:-0}" = 1 ]; then
    echo "profiles of $b: not cached (SUITE_CACHED_ONLY=1)"; exit 3
  fi
  step "perf record $b ($PERF_RUNS runs of the measured workload)"
  run "$b.perf-record" perf record -e cpu-clock -F "$PERF_FREQ" -o "$b.perf.data" -- \
    bash -c "for i in \$(seq $PERF_RUNS); do cd '$CPPCHECK' && '$bin' ${WL[*]} ${WL_MEASURED[*]} >'$out/$b.perf.'\$i.out 2>&1; done"
  for i in $(seq "$PERF_RUNS"); do check_run "$b under perf" "$b.perf.$i.out"; done
  step "trace $b (qemu, the training workload)"
  (cd "$CPPCHECK" && env -u LD_PRELOAD qemu-x86_64 -plugin "$out/trace-plugin.so,out=$out/$b.triples" \
    "$bin" "${WL[@]}" "${WL_TRAIN[@]}") >"$b.qemu.out" 2>&1
  workload "$bin" "$b.train.out" "${WL_TRAIN[@]}"
  cmp -s "$b.qemu.out" "$b.train.out" || { echo "OUTPUT DIFFERS: $b under qemu"; status=1; }
  run "$b.preagg" python3 "$TOOLS/exact-trace/trace-to-preagg.py" "$bin" \
    "$b.triples" --format=22 -o "$b.pa"
}

# source_args BUILD SRC: bbmap-profile's option for BUILD's profile SRC
# (perf or trace).
source_args() {
  if [ "$2" = perf ]; then echo "--perfdata=$1.perf.data"; else echo "--pa=$1.pa"; fi
}

# layout_files BUILD SRC: clusters and symbol order from BUILD's profile SRC,
# one bbmap-profile run.
layout_files() {
  local b=$1 s=$2
  step "bbmap-profile $b ($s): clusters and symbol order"
  run "$b.$s.bbmap-profile" "$PROFILE" "$b/bin/$PROG" "$(source_args "$b" "$s")" \
    --format=clusters --layout-for=22 -o "$b.$s.clusters" --symbol-order="$b.$s.order" \
    "${LAYOUT_ARGS[@]}"
  echo "  $(grep -c '^f ' "$b.$s.clusters") functions in the cluster profile," \
    "$(wc -l <"$b.$s.order") symbols in the order"
}

# p2b_args SRC: sets P2B to the perf2bolt-22 command line that writes the
# fdata of plugin's profile SRC to bolt-SRC.fdata.
p2b_args() {
  if [ "$1" = perf ]; then
    P2B=(perf2bolt-22 "plugin/bin/$PROG" -p plugin.perf.data --ba -o "bolt-$1.fdata")
  else
    P2B=(perf2bolt-22 "plugin/bin/$PROG" --pa -p plugin.pa -o "bolt-$1.fdata")
  fi
}

# bolt SRC: BOLT's binary from plugin/bin/$PROG and its SRC profile,
# llvm-bolt-22 timed.
bolt() {
  local s=$1
  step "perf2bolt-22 and llvm-bolt-22 ($s)"
  rm -f "bolt-$s.bolt.times"
  p2b_args "$s"
  run "bolt-$s.p2b" "${P2B[@]}"
  # testrunner reads cppcheck's library files from cfg/ beside it.
  mkdir -p "bolt-$s/bin" && cp -r plugin/bin/cfg "bolt-$s/bin/"
  timed "bolt-$s.bolt" llvm-bolt-22 "plugin/bin/$PROG" -o "bolt-$s/bin/$PROG" \
    --data "bolt-$s.fdata" "${BOLT_OPTS[@]}"
}

# bench_part: the optimized builds and their measurements.
bench_part() {
  cppcheck_build plugin "cppcheck testrunner" -- "-fpass-plugin=$PLUGIN"
  workload "$out/plugin/bin/$PROG" expected.out
  grep -q '^Tests failed: 0$' expected.out || die "the workload failed (expected.out)"
  cc -O2 -shared -fPIC -o trace-plugin.so "$TOOLS/exact-trace/trace-plugin.c"
  profile_sources plugin
  cppcheck_build pgo-gen "$PROG" -- -fprofile-generate -- -fprofile-generate
  step "run pgo-gen (instrumented) on the measured workload"
  rm -rf pgo.profraw.d && mkdir pgo.profraw.d
  LLVM_PROFILE_FILE=$out/pgo.profraw.d/%p.profraw workload "$out/pgo-gen/bin/$PROG" pgo-gen.out
  check_run pgo-gen pgo-gen.out
  run profdata llvm-profdata-22 merge -o pgo.profdata pgo.profraw.d/*.profraw
  cppcheck_build pgo "$PROG" -- "-fprofile-use=$out/pgo.profdata" -Wno-backend-plugin \
    "-fpass-plugin=$PLUGIN"
  profile_sources pgo
  # A layout build compiles in a directory of its own, and the match
  # compiler's generated sources are compiled by their path there: the
  # debug-prefix map gives them the compile-unit names of the profiled
  # build, which the cluster profile's `m` lines name.
  local s
  for s in perf trace; do
    layout_files plugin "$s"
    cppcheck_build "bbmap-$s" "$PROG" -- "-fbasic-block-sections=list=$out/plugin.$s.clusters" \
      -falign-loops=1 -fbasic-block-address-map "-fdebug-prefix-map=$out/bbmap-$s=$out/plugin" -- \
      "-Wl,--symbol-ordering-file=$out/plugin.$s.order"
    layout_check "bbmap-$s" "plugin.$s.clusters" "plugin.$s.order" "bbmap-$s/bin/$PROG"
    bolt "$s"
  done
  layout_files pgo trace
  cppcheck_build pgo-bbmap-trace "$PROG" -- "-fprofile-use=$out/pgo.profdata" -Wno-backend-plugin \
    "-fbasic-block-sections=list=$out/pgo.trace.clusters" -falign-loops=1 -fbasic-block-address-map \
    "-fdebug-prefix-map=$out/pgo-bbmap-trace=$out/pgo" -- \
    "-Wl,--symbol-ordering-file=$out/pgo.trace.order"
  layout_check pgo-bbmap-trace pgo.trace.clusters pgo.trace.order "pgo-bbmap-trace/bin/$PROG"
  measure plugin bbmap-perf bolt-perf bbmap-trace bolt-trace pgo pgo-bbmap-trace
}

# cg_run BUILD: BUILD's cppcheck on the measured workload under cachegrind
# (cg/BUILD.*, output checked), and under qemu with the I-cache plugin for
# the code pages it touches (in the background: pages/BUILD.*).
cg_run() {
  local b=$1 bin=$out/$1/bin/$PROG
  (cd "$CPPCHECK" && env -u LD_PRELOAD qemu-x86_64 \
    -plugin "$out/icache-plugin.so,out=$out/pages/$b.icache" \
    "$bin" "${WL[@]}" "${WL_MEASURED[@]}" >"$out/pages/$b.out" 2>&1) &
  (cd "$CPPCHECK" && valgrind "${CG_OPTS[@]}" --log-file="$out/cg/$b.log" \
    --cachegrind-out-file="$out/cg/$b.cg" "$bin" "${WL[@]}" "${WL_MEASURED[@]}") \
    >"cg/$b.out" 2>&1 || { tail "cg/$b.log" >&2; die "cachegrind failed on $b"; }
  check_run "$b under cachegrind" "cg/$b.out"
  read -r "IR[$b]" "I1[$b]" "LLI[$b]" < <(awk '/^events:/ { for (i = 2; i <= NF; i++) e[$i] = i - 1 }
    /^summary:/ { print $(e["Ir"] + 1), $(e["I1mr"] + 1), $(e["ILmr"] + 1) }' "cg/$b.cg")
  wait $! || die "qemu failed on $b"
  check_run "$b under qemu" "pages/$b.out"
  read -r _ "PAGES[$b]" _ "HOT99[$b]" _ "HOT90[$b]" _ < <(python3 "$BENCH/tools/code-pages.py" \
    "pages/$b.icache" "/$b/bin/$PROG")
  TEXT[$b]=$(llvm-size-22 -A "$bin" | awk '$1 == ".text" { print $2 }')
  EXEC[$b]=$(exec_sections "$bin" | awk '{ s += $2 } END { print s }')
}

# cpu_s FILE: the children's user+sys seconds in FILE, the output of `times`.
cpu_s() {
  awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/)
    printf "%.3f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$1"
}

# time_runs BUILD...: a warm-up round, then $reps rounds, each running every
# BUILD on the measured workload once, starting one build further on than
# the round before; WALL and CPU get the medians (CPU: the children's
# user+sys from `times`, the steadier figure on a shared machine).
time_runs() {
  local builds=("$@") nb=$# r k b t0 t1
  step "wall and CPU time: 1 + $reps rounds of $nb builds"
  for b in "${builds[@]}"; do rm -f "$b.wall"; done
  for r in $(seq 0 "$reps"); do
    for k in $(seq 0 $((nb - 1))); do
      b=${builds[$(((k + r) % nb))]}
      times >times.0; t0=$EPOCHREALTIME
      workload "$out/$b/bin/$PROG" "$b.run.out"
      t1=$EPOCHREALTIME; times >times.1
      [ "$r" -eq 0 ] || echo "$t0 $t1 $(cpu_s times.0) $(cpu_s times.1)" >>"$b.wall"
      check_run "$b (round $r)" "$b.run.out"
    done
  done
  for b in "${builds[@]}"; do
    WALL[$b]=$(awk '{ print $2 - $1 }' "$b.wall" | median)
    CPU[$b]=$(awk '{ print $4 - $3 }' "$b.wall" | median)
  done
}

# measure BUILD...: cachegrind, code pages, sizes and times of each BUILD,
# and the report (report.md).
measure() {
  declare -gA IR I1 LLI PAGES HOT99 HOT90 TEXT EXEC WALL CPU
  mkdir -p cg pages
  cc -O2 -shared -fPIC -I "$TOOLS/exact-trace" -o icache-plugin.so "$BENCH/tools/icache-plugin.c"
  local b
  for b in "$@"; do step "cachegrind and qemu $b"; cg_run "$b"; done
  time_runs "$@"
  report "$@" | tee report.md
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3fx", a / b }'; }

# report BUILD...: the markdown tables of the bench part.
report() {
  local b base=plugin
  echo "### $PROG ${WL[*]} ${WL_MEASURED[*]} (ratios to plain -O2)"
  echo
  echo "| build | wall | CPU | instructions | I1 misses | LLi misses | code pages | .text | exec bytes |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  for b in "$@"; do
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$b" \
      "$(ratio "${WALL[$b]}" "${WALL[$base]}")" "$(ratio "${CPU[$b]}" "${CPU[$base]}")" \
      "$(ratio "${IR[$b]}" "${IR[$base]}")" "$(ratio "${I1[$b]}" "${I1[$base]}")" \
      "$(ratio "${LLI[$b]}" "${LLI[$base]}")" "$(ratio "${PAGES[$b]}" "${PAGES[$base]}")" \
      "$(ratio "${TEXT[$b]}" "${TEXT[$base]}")" "$(ratio "${EXEC[$b]}" "${EXEC[$base]}")"
  done
  echo
  echo "| build | wall s | CPU s | instructions | I1 misses | LLi misses | pages touched | pages 99% / 90% | .text bytes | exec bytes |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for b in "$@"; do
    printf '| %s | %.3f | %.3f | %s | %s | %s | %s | %s / %s | %s | %s |\n' "$b" "${WALL[$b]}" \
      "${CPU[$b]}" "${IR[$b]}" "${I1[$b]}" "${LLI[$b]}" "${PAGES[$b]}" "${HOT99[$b]}" \
      "${HOT90[$b]}" "${TEXT[$b]}" "${EXEC[$b]}"
  done
  echo
  echo "PGO + bbmap (trace) against PGO: CPU $(ratio "${CPU[pgo-bbmap-trace]}" "${CPU[pgo]}")," \
    "I1 misses $(ratio "${I1[pgo-bbmap-trace]}" "${I1[pgo]}")"
  echo
  echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
}

# link_shared NAME LDFLAGS...: cppcheck's build has no shared library on
# Linux (its BUILD_CORE_DLL is for MSVC), so this links the objects of
# build NAME (compiled -fPIC) as a library user would: the analysis core,
# simplecpp and tinyxml2 into NAME/lib/libcppcheck-core.so, and the test
# fixtures and command-line code into NAME/bin/$PROG-shared, which loads it.
link_shared() {
  local name=$1; shift
  mkdir -p "$name/lib"
  # shellcheck disable=SC2046 # object lists
  run "$name.link-so" clang++-22 -shared "${BASE_LDFLAGS[@]}" "$@" \
    -o "$name/lib/libcppcheck-core.so" \
    $(find "$name/lib/CMakeFiles" "$name/externals" -name '*.o' | sort) -lpcre
  # shellcheck disable=SC2046
  run "$name.link-exe" clang++-22 "${BASE_LDFLAGS[@]}" -o "$name/bin/$PROG-shared" \
    $(find "$name/cli/CMakeFiles/cli_objs.dir" "$name/test/CMakeFiles" -name '*.o' | sort) \
    -L"$name/lib" -lcppcheck-core -Wl,-rpath,"$out/$name/lib"
}

# layout_check WHAT CLUSTERS ORDER BINARY: BINARY has the layout asked for
# (bbmap-dump --check-layout on its map); prints the summary line.
layout_check() {
  if "$DUMP" --check-layout="$2" --symbol-order="$3" "$4" >"$4.layout"; then
    echo "  $1: $(tail -n 1 "$4.layout")"
  else
    echo "LAYOUT NOT AS ASKED: $1 ($out/$4.layout)"; grep -v 'as asked' "$4.layout" | head -n 5
    status=1
  fi
}

# perf_profile BIN TAG: perf IP samples of BIN on the measured workload
# (TAG.perf.data), output checked.
perf_profile() {
  step "perf record $2"
  run "$2.perf-record" perf record -e cpu-clock -F "$PERF_FREQ" -o "$2.perf.data" -- \
    bash -c "cd '$CPPCHECK' && '$out/$1' ${WL[*]} ${WL_MEASURED[*]} >'$out/$2.perf.out' 2>&1"
  check_run "$2 under perf" "$2.perf.out"
}

# loop_part: the layout loop for a shared library and for ThinLTO (the PIE
# executable's loop is the bench part's bbmap builds).
loop_part() {
  cppcheck_build plugin "cppcheck testrunner" -- "-fpass-plugin=$PLUGIN"
  [ -s expected.out ] || workload "$out/plugin/bin/$PROG" expected.out
  cppcheck_build thin "$PROG" -- -flto=thin -- -flto=thin -Wl,--thinlto-jobs=2 \
    "-Wl,--load-pass-plugin=$PLUGIN"
  local t=thin/bin/$PROG
  workload "$out/$t" thin.out
  check_run "ThinLTO $PROG" thin.out
  verify_clean "$t"
  step "ThinLTO: the in-tree map of the same link (code generation only)"
  relink thin "bin/$PROG" "bin/$PROG.intree" -Wl,--lto-basic-block-address-map
  same_maps "$t.intree" "$t" "ThinLTO $PROG"
  same_text "$t.intree" "$t"
  perf_profile "$t" thin
  run thin.clusters "$PROFILE" "$t" --perfdata=thin.perf.data \
    --format=clusters --layout-for=22 -o thin.clusters --symbol-order=thin.order
  step "ThinLTO: relink with the layout (code generation only)"
  relink thin "bin/$PROG" "bin/$PROG.bbmap" "-Wl,--lto-basic-block-sections=$out/thin.clusters" \
    -Wl,-mllvm,-align-loops=1 -Wl,--lto-basic-block-address-map "-Wl,--symbol-ordering-file=$out/thin.order"
  workload "$out/$t.bbmap" thin-bbmap.out
  check_run "ThinLTO $PROG with the layout" thin-bbmap.out
  layout_check "ThinLTO $PROG" thin.clusters thin.order "$t.bbmap"

  cppcheck_build shared "$PROG" -DCMAKE_POSITION_INDEPENDENT_CODE=ON -- "-fpass-plugin=$PLUGIN"
  step "shared library: libcppcheck-core.so"
  link_shared shared
  workload "$out/shared/bin/$PROG-shared" shared.out
  check_run "$PROG-shared" shared.out
  perf_profile "shared/bin/$PROG-shared" shared
  local lib=shared/lib/libcppcheck-core.so
  run shared.clusters "$PROFILE" "$lib" --perfdata=shared.perf.data --format=clusters \
    --layout-for=22 -o shared.clusters --symbol-order=shared.order
  echo "  $(grep -c '^f ' shared.clusters) functions of the library in the cluster profile"
  cppcheck_build shared-bbmap "$PROG" -DCMAKE_POSITION_INDEPENDENT_CODE=ON -- \
    "-fbasic-block-sections=list=$out/shared.clusters" -falign-loops=1 \
    -fbasic-block-address-map "-fdebug-prefix-map=$out/shared-bbmap=$out/shared"
  link_shared shared-bbmap "-Wl,--symbol-ordering-file=$out/shared.order"
  workload "$out/shared-bbmap/bin/$PROG-shared" shared-bbmap.out
  check_run "$PROG-shared with the layout" shared-bbmap.out
  layout_check "libcppcheck-core.so" shared.clusters shared.order \
    shared-bbmap/lib/libcppcheck-core.so
}

# speed_part: from the plugin build's profiles (the bench part's) to what
# each optimizer reads, $reps interleaved rounds after a warm-up round
# (medians; memory: the largest): bbmap-profile's layout (clusters and
# symbol order, one run), bbmap-profile --format=fdata (what perf2bolt
# writes, checked equal first; perf2bolt's no_lbr lines come in no fixed
# order, so lines are compared sorted) and perf2bolt-22, and from perf
# samples the layout with --inference-solver=profi (LLVM's solver of the
# same network, which may pick another of equally cheap flows); then the
# layout run once more with --time-phases on one thread and on all
# (speed.SRC.phases.N for N threads); then the report (speed.md) beside the
# rebuild with the layout and llvm-bolt-22's rewrite (the bench part's
# times).
speed_part() {
  local s r k tag t
  for s in perf trace; do
    if [ ! -f "bbmap-$s/build.time" ] || [ ! -s "bolt-$s.bolt.times" ]; then
      die "no bench part results for $s (run the bench part first)"
    fi
    step "$s: bbmap-profile --format=fdata against perf2bolt-22's fdata"
    p2b_args "$s"
    run "speed.$s.p2b" "${P2B[@]}"
    run "speed.$s.fdata" "$PROFILE" "plugin/bin/$PROG" "$(source_args plugin "$s")" \
      --format=fdata -o "speed.$s.fdata"
    if cmp -s <(sort "bolt-$s.fdata") <(sort "speed.$s.fdata"); then
      echo "  the same $(wc -l <"bolt-$s.fdata") lines"
    else
      echo "FDATA DIFFERS: $s"; status=1
    fi
    local tools=(layout fdata p2b)
    [ "$s" = trace ] || tools+=(profi)
    step "$s: 1 + $reps rounds of ${tools[*]}"
    for tag in "${tools[@]}"; do rm -f "speed.$s.$tag.times"; done
    for r in $(seq 0 "$reps"); do
      for k in $(seq 0 $((${#tools[@]} - 1))); do
        tag=${tools[$(((k + r) % ${#tools[@]}))]}
        case $tag in
          layout) timed "speed.$s.$tag" "$PROFILE" "plugin/bin/$PROG" "$(source_args plugin "$s")" \
                    --format=clusters --layout-for=22 -o speed.clusters --symbol-order=speed.order ;;
          fdata) timed "speed.$s.$tag" "$PROFILE" "plugin/bin/$PROG" "$(source_args plugin "$s")" \
                   --format=fdata -o "speed.$s.fdata" ;;
          p2b) timed "speed.$s.$tag" "${P2B[@]}" ;;
          profi) timed "speed.$s.$tag" "$PROFILE" "plugin/bin/$PROG" "$(source_args plugin "$s")" \
                   --format=clusters --layout-for=22 --inference-solver=profi \
                   -o speed.profi.clusters --symbol-order=speed.profi.order ;;
        esac
        [ "$r" -gt 0 ] || sed -i '$d' "speed.$s.$tag.times"
      done
    done
    if ! cmp -s speed.clusters "plugin.$s.clusters" || ! cmp -s speed.order "plugin.$s.order"; then
      echo "LAYOUT DIFFERS: $s (from the bench part's)"; status=1
    fi
    for t in 1 "$(nproc)"; do
      "$PROFILE" "plugin/bin/$PROG" "$(source_args plugin "$s")" --format=clusters \
        --layout-for=22 -o speed.clusters --symbol-order=speed.order --threads="$t" \
        --time-phases 2>"speed.$s.phases.$t"
    done
  done
  speed_report | tee speed.md
}

# speed_report: the table of the speed part.
speed_report() {
  local s w u sy m
  med() { col "speed.$1.$2" "$3"; }
  peak() { awk '$3 > m { m = $3 } END { printf "%d", m / 1024 }' "speed.$1.$2.times"; }
  echo "### From profile to optimized binary (wall s / CPU s / peak RSS MB; medians of $reps)"
  echo
  echo "| profile | bbmap-profile layout (clusters + order) | bbmap-profile fdata | perf2bolt-22 | layout / perf2bolt | fdata / perf2bolt | rebuild with the layout | llvm-bolt-22 |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|"
  for s in perf trace; do
    read -r w u sy m <"bbmap-$s/build.time"
    printf '| %s | %s / %s / %s | %s / %s / %s | %s / %s / %s | %s time, %s memory | %s time, %s memory | %s / %s / %s | %s / %s / %s |\n' "$s" \
      "$(med "$s" layout 1)" "$(med "$s" layout 2)" "$(peak "$s" layout)" \
      "$(med "$s" fdata 1)" "$(med "$s" fdata 2)" "$(peak "$s" fdata)" \
      "$(med "$s" p2b 1)" "$(med "$s" p2b 2)" "$(peak "$s" p2b)" \
      "$(ratio "$(med "$s" layout 1)" "$(med "$s" p2b 1)")" "$(ratio "$(peak "$s" layout)" "$(peak "$s" p2b)")" \
      "$(ratio "$(med "$s" fdata 1)" "$(med "$s" p2b 1)")" "$(ratio "$(peak "$s" fdata)" "$(peak "$s" p2b)")" \
      "$w" "$(awk -v u="$u" -v s="$sy" 'BEGIN { printf "%.1f", u + s }')" $((m / 1024)) \
      "$(col "bolt-$s.bolt" 1)" "$(col "bolt-$s.bolt" 2)" \
      "$(awk '$3 > m { m = $3 } END { printf "%d", m / 1024 }' "bolt-$s.bolt.times")"
  done
  echo
  printf 'The perf layout with LLVM'"'"'s profi solving the inference (--inference-solver=profi): %s / %s / %s, %s of perf2bolt-22'"'"'s time, bbmap'"'"'s solver %s of its time\n' \
    "$(med perf profi 1)" "$(med perf profi 2)" "$(peak perf profi)" \
    "$(ratio "$(med perf profi 1)" "$(med perf p2b 1)")" \
    "$(ratio "$(med perf layout 1)" "$(med perf profi 1)")"
  for s in perf trace; do
    for t in 1 "$(nproc)"; do
      echo
      echo "bbmap-profile layout, $s profile, --threads=$t, --time-phases:"
      echo
      grep -E '^ +([0-9]|---User)' "speed.$s.phases.$t" | sed 's/^/    /'
    done
  done
  echo
  echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
}

# suite_part: bench/layout-suite.sh's cppcheck case (see the header).
suite_part() {
  local kinds=${SUITE_KINDS:-trace perf} s k tag
  local baseline=${BBMAP_BASELINE_BUILD_DIR:-${BBMAP_BUILD_DIR:-$ROOT/build}}/llvm-22
  [ -f "$baseline/bbmap-profile" ] || die "no $baseline/bbmap-profile"
  cmp -s "$baseline/bbmap-profile" bin/bbmap-profile-before ||
    cp "$baseline/bbmap-profile" bin/bbmap-profile-before
  local place=0
  if "$PROFILE" --help 2>&1 | grep placement >/dev/null; then place=1; else
    echo "bbmap-placed: skipped, bbmap-profile has no --format=placement"
  fi
  cppcheck_build plugin "cppcheck testrunner" -- "-fpass-plugin=$PLUGIN"
  if [ ! expected.out -nt "plugin/bin/$PROG" ]; then
    workload "$out/plugin/bin/$PROG" expected.out
  fi
  grep -q '^Tests failed: 0$' expected.out || die "the workload failed (expected.out)"
  cc -O2 -shared -fPIC -o trace-plugin.so "$TOOLS/exact-trace/trace-plugin.c"
  cc -O2 -shared -fPIC -I "$TOOLS/exact-trace" -o icache-plugin.so "$BENCH/tools/icache-plugin.c"
  profile_sources plugin
  # The layouts first (cheap), so that a build not cached is known before
  # any is made.
  for s in $kinds; do
    run "suite-before.$s.bbmap-profile" bin/bbmap-profile-before "plugin/bin/$PROG" \
      "$(source_args plugin "$s")" --format=clusters --layout-for=22 \
      -o "suite-before.$s.clusters" --symbol-order="suite-before.$s.order"
    layout_files plugin "$s"
  done
  declare -gA SUITE_BIN=([plain]=plugin/bin/$PROG)
  for s in $kinds; do
    suite_layout_build "suite-before-$s" "suite-before.$s"
    suite_layout_build "suite-bbmap-$s" "plugin.$s" "-fpass-plugin=$PLUGIN"
    SUITE_BIN[before-$s]=suite-before-$s/bin/$PROG SUITE_BIN[bbmap-$s]=suite-bbmap-$s/bin/$PROG
    if [ "bolt-$s/bin/$PROG" -nt "plugin/bin/$PROG" ] &&
      [ "bolt-$s/bin/$PROG" -nt "$(source_args plugin "$s" | sed 's/^[^=]*=//')" ]; then
      step "BOLT ($s): up to date"
    else
      [ "${SUITE_CACHED_ONLY:-0}" = 0 ] || { echo "BOLT ($s): not cached"; exit 3; }
      bolt "$s"
    fi
    SUITE_BIN[BOLT-$s]=bolt-$s/bin/$PROG
    if [ "$place" = 1 ]; then
      local pd=plugin.perf.data
      if [ "$s" = trace ]; then
        pd=plugin.trace.perf.data
        [ "$pd" -nt plugin.triples ] || run suite.perf-data-gen python3 "$TOOLS/perf-data-gen.py" \
          "plugin/bin/$PROG" plugin.triples -o "$pd" --all-objects --start-anywhere \
          --samples=200000
      fi
      step "bbmap-placed ($s): placement and relink"
      run "suite-place.$s" "$PROFILE" "plugin/bin/$PROG" "$(source_args plugin "$s")" \
        --process-perfdata="$pd" --format=placement \
        --placed-binary="suite-bbmap-$s/bin/$PROG" -o "suite-place.$s.s" \
        --symbol-order="suite-place.$s.order" "${LAYOUT_ARGS[@]}"
      run "suite-place.$s.as" clang-22 -c "suite-place.$s.s" -o "$out/suite-place.$s.o"
      relink "suite-bbmap-$s" "bin/$PROG" "bin/$PROG.placed" "$out/suite-place.$s.o" \
        "-Wl,--symbol-ordering-file=$out/suite-place.$s.order"
      SUITE_BIN[bbmap-placed-$s]=suite-bbmap-$s/bin/$PROG.placed
    fi
  done
  # The measurements, two at a time (each its own qemu run).
  local jobs=() sims=() b
  for b in "${!SUITE_BIN[@]}"; do jobs+=("$b") sims+=("$b=${SUITE_BIN[$b]}"); done
  simulate_all "${sims[@]}"
  if [ "${SUITE_FULL:-0}" = 1 ]; then
    mkdir -p cg
    step "cachegrind of ${#jobs[@]} builds (two at a time)"
    for b in "${jobs[@]}"; do
      while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n || true; done
      rm -f "cg/suite-$b.cg"
      (cd "$CPPCHECK" && valgrind "${CG_OPTS[@]}" --log-file="$out/cg/suite-$b.log" \
        --cachegrind-out-file="$out/cg/suite-$b.cg" "$out/${SUITE_BIN[$b]}" "${WL[@]}" \
        "${WL_MEASURED[@]}") >"cg/suite-$b.out" 2>&1 &
    done
    wait
    for b in "${jobs[@]}"; do
      grep -q '^summary:' "cg/suite-$b.cg" || die "cachegrind failed on $b (cg/suite-$b.log)"
      check_run "$b under cachegrind" "cg/suite-$b.out"
    done
    time_binaries suite-time "${sims[@]}"
  fi
  : >suite.tsv
  for s in $kinds; do
    for b in plain before bbmap bbmap-placed BOLT; do
      tag=$b-$s
      [ "$b" != plain ] || tag=plain
      [ -n "${SUITE_BIN[$tag]:-}" ] || continue
      local lli=- cpu=-
      if [ "${SUITE_FULL:-0}" = 1 ]; then
        lli=$(awk '/^events:/ { for (i = 2; i <= NF; i++) e[$i] = i - 1 }
          /^summary:/ { print $(e["ILmr"] + 1) }' "cg/suite-$tag.cg")
        cpu=${CPU[suite-time/$tag]}
      fi
      awk -v k="$s" -v b="$b" -v lli="$lli" -v cpu="$cpu" '
        /^# instructions/ { ins = $3 } /^# misses/ { asb = $3 }
        /^# placement/ { n++; t += $4; if (n == 1 || $4 < mn) mn = $4; if ($4 > mx) mx = $4 }
        END { printf "cppcheck\t%s\t%s\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%s\t%s\n", k, b, asb, t / n, mn, mx, ins, lli, cpu }' \
        "suite/$tag.ic" >>suite.tsv
    done
  done
  cat suite.tsv
}

# suite_layout_build NAME LAYOUT [CXXFLAGS...]: testrunner rebuilt with
# LAYOUT.clusters and LAYOUT.order as docs/layout.md says.
suite_layout_build() {
  local name=$1 l=$2; shift 2
  cppcheck_build "$name" "$PROG" -- "-fbasic-block-sections=list=$out/$l.clusters" \
    -falign-loops=1 "-fdebug-prefix-map=$out/$name=$out/plugin" "$@" -- \
    "-Wl,--symbol-ordering-file=$out/$l.order"
  [ -d "$name/bin/cfg" ] || cp -r plugin/bin/cfg "$name/bin/"
}

# suite_simulate TAG BIN DELTAS: BIN on the measured workload under qemu
# with icache-plugin.c and its code moved by each of DELTAS (suite/TAG.ic,
# output suite/TAG.out). QEMU 7.2's user mode loads a PIE at 0x4000000000
# (checked in the output's map lines). The result is kept under a key of
# the binary, the deltas and the plugin (suite/KEY.ic): an unchanged build
# is not run again.
suite_simulate() {
  local tag=$1 bin=$out/$2 deltas=$3 range base=4000000000 key
  key=$({ sha1sum <"$bin"; echo "$deltas"; sha1sum <icache-plugin.so; } | sha1sum | cut -c1-16)
  if [ -s "suite/$key.ic" ] && [ -s "suite/$key.out" ]; then
    cp "suite/$key.ic" "suite/$tag.ic" && cp "suite/$key.out" "suite/$tag.out"
    return
  fi
  rm -f "suite/$tag.ic"
  range=$(python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import elfinfo
e = elfinfo.Elf(sys.argv[2]); b = int(sys.argv[3], 16) if e.is_pie else 0
print("%x-%x" % (b + min(a for a, _ in e.exec_ranges), b + max(z for _, z in e.exec_ranges)))' \
    "$TOOLS/exact-trace" "$bin" "$base")
  (cd "$CPPCHECK" && env -u LD_PRELOAD qemu-x86_64 \
    -plugin "$out/icache-plugin.so,out=$out/suite/$tag.ic.tmp,shifts=$range:$deltas" \
    "$bin" "${WL[@]}" "${WL_MEASURED[@]}") >"suite/$tag.out" 2>&1 || return 1
  grep -q "^# map $base-[0-9a-f]* 00000000 " "suite/$tag.ic.tmp" || {
    echo "$tag: not loaded at 0x$base" >"suite/$tag.log"; return 1; }
  mv "suite/$tag.ic.tmp" "suite/$key.ic"
  cp "suite/$tag.out" "suite/$key.out" && cp "suite/$key.ic" "suite/$tag.ic"
}

# The turnaround and incremental parts (bench/turnaround-cppcheck.sh,
# issue #37): from a profile to an optimized testrunner, each route timed
# in this run.

# route TAG CMD...: runs CMD (functions of this script that die on failure)
# in a subshell and appends its wall and CPU seconds (user+sys of every
# process it ran) to ta/TAG.route.
route() {
  local tag=$1 t0 t1; shift
  times >times.0; t0=$EPOCHREALTIME
  ("$@") || die "route $tag failed"
  t1=$EPOCHREALTIME; times >times.1
  echo "$t0 $t1 $(cpu_s times.0) $(cpu_s times.1)" |
    awk '{ printf "%.3f %.3f\n", $2 - $1, $4 - $3 }' >>"ta/$tag.route"
}
# route_col TAG K: the median of column K (1 wall, 2 CPU) of TAG's routes.
route_col() { awk -v k="$2" '{ print $k }' "ta/$1.route" | median; }

# relink_route SCOPE SRC: the block order from the per-block build's SRC
# profile (--block-scope=SCOPE), then lld links the build's objects again.
relink_route() {
  run "ta.relink-$1-$2" "$PROFILE" "blocks/bin/$PROG" "$(source_args blocks "$2")" \
    --format=block-order --block-scope="$1" -o "ta/relink-$1-$2.order" "${LAYOUT_ARGS[@]}"
  relink blocks "bin/$PROG" "bin/$PROG.relink-$1-$2" \
    "-Wl,--symbol-ordering-file=$out/ta/relink-$1-$2.order"
}
# bolt_route SRC: perf2bolt-22 and llvm-bolt-22, as the suite's BOLT build.
bolt_route() {
  p2b_args "$1"
  P2B[${#P2B[@]}-1]=ta/bolt-$1.fdata
  run "ta.bolt-$1.p2b" "${P2B[@]}"
  run "ta.bolt-$1" llvm-bolt-22 "plugin/bin/$PROG" -o "ta/bolt-$1/bin/$PROG" \
    --data "ta/bolt-$1.fdata" "${BOLT_OPTS[@]}"
}

# objects_bytes DIR: the bytes of DIR's objects that the plugin build has
# too (the same units).
objects_bytes() {
  (cd "$1" && find . -name '*.o' | while read -r o; do
    [ -f "$out/plugin/$o" ] && stat -c %s "$o"; done) | awk '{ s += $1 } END { print s }'
}

# simulate_all TAG=BINARY...: suite_simulate of each, $SUITE_PLACEMENTS
# placements (two at a time); the measured workload's output checked.
simulate_all() {
  local deltas k j
  deltas=$(for ((k = 0; k < ${SUITE_PLACEMENTS:-8}; k++)); do echo $((k * 528 % 4096)); done |
    paste -sd:)
  mkdir -p suite
  step "simulated I1 of $# builds, ${SUITE_PLACEMENTS:-8} placements each (two at a time)"
  for j in "$@"; do
    while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n || true; done
    suite_simulate "${j%%=*}" "${j#*=}" "$deltas" &
  done
  wait
  for j in "$@"; do
    [ -s "suite/${j%%=*}.ic" ] || die "no simulation of ${j%%=*} (see $out/suite/${j%%=*}.out)"
    check_run "${j%%=*} under qemu" "suite/${j%%=*}.out"
  done
}
# time_binaries DIR TAG=BINARY...: time_runs of each BINARY (WALL and CPU
# keyed DIR/TAG): it takes build directories, so DIR/TAG/bin links to the
# binary and to cppcheck's cfg/.
time_binaries() {
  local dir=$1 j dirs=()
  shift
  for j in "$@"; do
    mkdir -p "$dir/${j%%=*}/bin"
    ln -sfn "$out/${j#*=}" "$dir/${j%%=*}/bin/$PROG"
    ln -sfn "$out/plugin/bin/cfg" "$dir/${j%%=*}/bin/cfg"
    dirs+=("$dir/${j%%=*}")
  done
  declare -gA WALL CPU
  time_runs "${dirs[@]}"
}
# i1 TAG: "as-built mean" simulated I1 misses of TAG (suite/TAG.ic).
i1() {
  awk '/^# misses/ { asb = $3 } /^# placement/ { n++; t += $4 }
    END { printf "%.0f %.0f\n", asb, t / n }' "suite/$1.ic"
}

# turnaround_part: relink-only against recompile and BOLT, and what the
# per-block build costs with no profile (see bench/turnaround-cppcheck.sh).
turnaround_part() {
  local s scope r
  cppcheck_build plugin "cppcheck testrunner" -- "-fpass-plugin=$PLUGIN"
  [ expected.out -nt "plugin/bin/$PROG" ] || workload "$out/plugin/bin/$PROG" expected.out
  grep -q '^Tests failed: 0$' expected.out || die "the workload failed (expected.out)"
  cc -O2 -shared -fPIC -o trace-plugin.so "$TOOLS/exact-trace/trace-plugin.c"
  cc -O2 -shared -fPIC -I "$TOOLS/exact-trace" -o icache-plugin.so "$BENCH/tools/icache-plugin.c"
  profile_sources plugin
  # Once, before any profile: every block in its own section, with the map.
  cppcheck_build blocks "$PROG" -- -fbasic-block-sections=all -falign-loops=1 \
    -mllvm -trap-unreachable -mllvm -no-trap-after-noreturn "-fpass-plugin=$PLUGIN" -- \
    -Wl,--optimize-bb-jumps
  [ -d blocks/bin/cfg ] || cp -r plugin/bin/cfg blocks/bin/
  profile_sources blocks
  rm -rf ta/*.route ta/bolt-trace ta/bolt-perf && mkdir -p ta/bolt-trace/bin ta/bolt-perf/bin
  cp -r plugin/bin/cfg ta/bolt-trace/bin/ && cp -r plugin/bin/cfg ta/bolt-perf/bin/
  step "the routes, $reps times each"
  for r in $(seq "$reps"); do
    for s in trace perf; do
      for scope in functions program; do
        route "relink-$scope-$s" relink_route "$scope" "$s"
      done
      route "bolt-$s" bolt_route "$s"
    done
    route link-plain relink plugin "bin/$PROG" "bin/$PROG.relinked"
    route link-blocks relink blocks "bin/$PROG" "bin/$PROG.relinked"
  done
  if grep -q 'sections are empty' "log/ta.relink-functions-perf"; then
    echo "EMPTY SECTIONS: blocks/bin/$PROG (log/ta.relink-functions-perf)"; status=1
  fi
  for s in trace perf; do
    for scope in functions program; do
      if "$DUMP" --check-order="ta/relink-$scope-$s.order" "blocks/bin/$PROG.relink-$scope-$s" \
        >"ta/relink-$scope-$s.check"; then
        echo "  relink-$scope-$s: $(tail -n 1 "ta/relink-$scope-$s.check")"
      else
        echo "ORDER NOT AS ASKED: relink-$scope-$s ($out/ta/relink-$scope-$s.check)"; status=1
      fi
    done
    cmp -s "ta/bolt-$s/bin/$PROG" "bolt-$s/bin/$PROG" ||
      echo "  note: ta/bolt-$s differs from the suite's bolt-$s"
  done
  local sims=("plain=plugin/bin/$PROG" "blocks=blocks/bin/$PROG") b
  for s in trace perf; do
    for scope in functions program; do
      sims+=("relink-$scope-$s=blocks/bin/$PROG.relink-$scope-$s")
    done
    sims+=("recompiled-$s=suite-bbmap-$s/bin/$PROG" "bolt-$s=ta/bolt-$s/bin/$PROG")
  done
  for b in "${sims[@]}"; do
    [ -f "${b#*=}" ] || die "no $out/${b#*=} (run: bench/large-cppcheck.sh suite)"
  done
  simulate_all "${sims[@]}"
  time_binaries ta-time "${sims[@]}"
  turnaround_report | tee ta/report.md
}

# turnaround_report: the tables of the turnaround part (markdown).
turnaround_report() {
  local s scope tag t n
  echo "### From a profile to an optimized $PROG (medians of $reps; I1: simulated, 32 KiB 8-way, as built / mean over ${SUITE_PLACEMENTS:-8} placements)"
  echo
  echo "| route | profile | wall s | CPU s | I1 as built | I1 mean | mean / recompiled | mean / BOLT | workload CPU s |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
  for s in trace perf; do
    local rec bolt
    read -r _ rec < <(i1 "recompiled-$s")
    read -r _ bolt < <(i1 "bolt-$s")
    for tag in relink-functions relink-program bolt recompiled; do
      local asb mean wall cpu
      read -r asb mean < <(i1 "$tag-$s")
      if [ "$tag" = recompiled ]; then
        read -r wall t n _ <"suite-bbmap-$s/build.time"
        cpu=$(awk -v a="$t" -v b="$n" 'BEGIN { print a + b }')
        wall="$wall *" cpu="$cpu *"
      else
        wall=$(route_col "$tag-$s" 1) cpu=$(route_col "$tag-$s" 2)
      fi
      printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$tag" "$s" "$wall" "$cpu" \
        "$asb" "$mean" "$(ratio "$mean" "$rec")" "$(ratio "$mean" "$bolt")" \
        "${CPU[ta-time/$tag-$s]}"
    done
  done
  echo
  echo "\\* the suite's build (bench/large-cppcheck.sh suite), timed when it was built: ninja -j2, the layout's units compiled again."
  echo
  echo "### The per-block build with no profile, against plain -O2 (the plugin build)"
  echo
  local pa pm ba bm
  read -r pa pm < <(i1 plain)
  read -r ba bm < <(i1 blocks)
  local pt bt po bo
  pt=$(llvm-size-22 -A "plugin/bin/$PROG" | awk '$1 == ".text" { print $2 }')
  bt=$(llvm-size-22 -A "blocks/bin/$PROG" | awk '$1 == ".text" { print $2 }')
  po=$(objects_bytes plugin) bo=$(objects_bytes blocks)
  echo "| | plain | per-block | ratio |"
  echo "|---|---:|---:|---:|"
  printf '| %s | %s | %s | %s |\n' ".text bytes" "$pt" "$bt" "$(ratio "$bt" "$pt")" \
    "objects bytes" "$po" "$bo" "$(ratio "$bo" "$po")" \
    "link wall s" "$(route_col link-plain 1)" "$(route_col link-blocks 1)" \
    "$(ratio "$(route_col link-blocks 1)" "$(route_col link-plain 1)")" \
    "link CPU s" "$(route_col link-plain 2)" "$(route_col link-blocks 2)" \
    "$(ratio "$(route_col link-blocks 2)" "$(route_col link-plain 2)")" \
    "workload CPU s" "${CPU[ta-time/plain]}" "${CPU[ta-time/blocks]}" \
    "$(ratio "${CPU[ta-time/blocks]}" "${CPU[ta-time/plain]}")" \
    "I1 misses as built" "$pa" "$ba" "$(ratio "$ba" "$pa")" \
    "I1 misses, mean" "$pm" "$bm" "$(ratio "$bm" "$pm")"
}

# incremental_part: per-unit cluster profiles and bbmap-unit-launcher (see
# bench/turnaround-cppcheck.sh).
incremental_part() {
  cppcheck_build plugin "cppcheck testrunner" -- "-fpass-plugin=$PLUGIN"
  [ expected.out -nt "plugin/bin/$PROG" ] || workload "$out/plugin/bin/$PROG" expected.out
  cc -O2 -shared -fPIC -o trace-plugin.so "$TOOLS/exact-trace/trace-plugin.c"
  cc -O2 -shared -fPIC -I "$TOOLS/exact-trace" -o icache-plugin.so "$BENCH/tools/icache-plugin.c"
  profile_sources plugin
  local bin=$out/plugin/bin/$PROG i
  if [ ! plugin.perf2.data -nt "$bin" ]; then
    step "perf record plugin again (the profile of another run)"
    run plugin.perf2-record perf record -e cpu-clock -F "$PERF_FREQ" -o plugin.perf2.data -- \
      bash -c "for i in \$(seq $PERF_RUNS); do cd '$CPPCHECK' && '$bin' ${WL[*]} ${WL_MEASURED[*]} >'$out/plugin.perf2.'\$i.out 2>&1; done"
    for i in $(seq "$PERF_RUNS"); do check_run "plugin under perf" "plugin.perf2.$i.out"; done
  fi
  read -ra UNIT_ARGS <<<"${BBMAP_UNIT_ARGS:-}"
  rm -rf units units.d && mkdir -p ta
  step "unit profiles of the first run (plugin.perf2.data)"
  run units.a.profile "$PROFILE" "plugin/bin/$PROG" --perfdata=plugin.perf2.data \
    --format=clusters --layout-for=22 -o units.a.clusters --symbol-order=units.order \
    --unit-dir=units.d "${LAYOUT_ARGS[@]}" "${UNIT_ARGS[@]}"
  # The generated sources compile in units/, and have their profiled
  # build's unit names through the prefix map, which the launcher applies.
  cppcheck_build units "$PROG" \
    "-DCMAKE_CXX_COMPILER_LAUNCHER=$ROOT/scripts/bbmap-unit-launcher;--unit-dir=$out/units.d" -- \
    -falign-loops=1 "-fpass-plugin=$PLUGIN" "-fdebug-prefix-map=$out/units=$out/plugin" -- \
    "-Wl,--symbol-ordering-file=$out/units.order"
  [ -d units/bin/cfg ] || cp -r plugin/bin/cfg units/bin/
  layout_check units.a units.a.clusters units.order "units/bin/$PROG"
  unit_gain_estimates | tee ta/unit-gains.md
  step "unit profiles of the second run (plugin.perf.data)"
  run units.b.profile "$PROFILE" "plugin/bin/$PROG" --perfdata=plugin.perf.data \
    --format=clusters --layout-for=22 -o units.b.clusters --symbol-order=units.order \
    --unit-dir=units.d "${LAYOUT_ARGS[@]}" "${UNIT_ARGS[@]}"
  grep 'unit profiles' log/units.b.profile | sed 's/^/  /' | cut -c1-200
  # CMake's link does not depend on the symbol order file: relink.
  rm -f "units/bin/$PROG"
  local recompiled
  recompiled=$(ninja -C units -n "$PROG" | grep -c 'Building CXX object' || true)
  step "incremental rebuild: $recompiled objects"
  run units.incremental /usr/bin/time -f '%e %U %S %M' -o ta/units.incremental.time \
    ninja -C units -j2 "$PROG"
  cp "units/bin/$PROG" ta/units.incremental
  layout_check units.b units.b.clusters units.order "units/bin/$PROG"
  step "full rebuild with the same unit profiles"
  ninja -C units -t clean >/dev/null
  run units.full /usr/bin/time -f '%e %U %S %M' -o ta/units.full.time ninja -C units -j2 "$PROG"
  if cmp -s ta/units.incremental "units/bin/$PROG"; then
    echo "  the incremental binary = the full rebuild's, byte for byte"
  else
    echo "BINARIES DIFFER: ta/units.incremental and units/bin/$PROG"; status=1
  fi
  simulate_all "units-b=units/bin/$PROG" "recompiled-perf=suite-bbmap-perf/bin/$PROG"
  incremental_report "$recompiled" | tee ta/incremental.md
}

# unit_gain_estimates: for several --unit-min-gain values, the units the
# second run's profile changes after the first's, and their share of the
# compile time of the full build with the first (units/.ninja_log, objects
# matched to units by file name): what an incremental rebuild would cost.
unit_gain_estimates() {
  local g
  echo "| --unit-min-gain | units changed | their share of the compile time |"
  echo "|---:|---:|---:|"
  for g in none 0 0.0005 0.001 0.002 0.005 0.01; do
    rm -rf units.try && cp -r units.d units.try && touch -d 2001-01-01 units.try/*
    local args=()
    [ "$g" = none ] || args=("--unit-min-gain=$g")
    run "units.try.$g" "$PROFILE" "plugin/bin/$PROG" --perfdata=plugin.perf.data \
      --format=clusters --layout-for=22 -o units.try.clusters --unit-dir=units.try \
      "${LAYOUT_ARGS[@]}" "${args[@]}"
    find units.try -newermt 2002-01-01 -type f | sed 's|.*%||; s|\.clusters$||' >units.try.changed
    awk -F '\t' -v g="$g" 'NR == FNR { changed[$1] = 1; n++; next }
      /^#/ || $4 !~ /\.o$/ { next }
      { d = $2 - $1; total += d; f = $4; sub(/.*\//, "", f); sub(/\.o$/, "", f)
        if (f in changed) part += d }
      END { printf "| %s | %d | %.1f%% |\n", g, n, 100 * part / total }' \
      units.try.changed units/.ninja_log
  done
  rm -rf units.try units.try.clusters units.try.changed
}

# incremental_report OBJECTS: the table of the incremental part.
incremental_report() {
  local iw iu is fw fu fs ua fa ub fb
  read -r iw iu is _ <ta/units.incremental.time
  read -r fw fu fs _ <ta/units.full.time
  read -r ua _ < <(i1 units-b)
  read -r _ ub < <(i1 units-b)
  read -r fa fb < <(i1 recompiled-perf)
  echo "### Incremental recompile after the profile of another run (options: ${BBMAP_UNIT_ARGS:-none})"
  echo
  echo "$(grep -o '[0-9]* unit profiles, [0-9]* changed' log/units.b.profile); $1 objects recompiled"
  echo
  echo "| rebuild | wall s | CPU s |"
  echo "|---|---:|---:|"
  echo "| incremental | $iw | $(awk -v a="$iu" -v b="$is" 'BEGIN { print a + b }') |"
  echo "| full | $fw | $(awk -v a="$fu" -v b="$fs" 'BEGIN { print a + b }') |"
  echo "| incremental / full | $(ratio "$iw" "$fw") | $(ratio "$(awk -v a="$iu" -v b="$is" 'BEGIN { print a + b }')" "$(awk -v a="$fu" -v b="$fs" 'BEGIN { print a + b }')") |"
  echo
  echo "I1 misses (as built / mean): incremental $ua / $ub; the suite's full recompile of the same profile $fa / $fb ($(ratio "$ub" "$fb") on the mean)"
}

status=0
for part in "${parts[@]}"; do
  case "$part" in
    map) map_part ;;
    loop) loop_part ;;
    bench) bench_part ;;
    speed) speed_part ;;
    suite) suite_part ;;
    turnaround) turnaround_part ;;
    incremental) incremental_part ;;
  esac
done
[ "$status" -eq 0 ] || { echo "large-cppcheck: FAIL"; exit 1; }
echo "large-cppcheck: PASS"
