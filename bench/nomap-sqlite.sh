#!/usr/bin/env bash
# nomap-sqlite.sh - bbmap-profile as perf2bolt on sqlite3 built WITHOUT a
# basic-block address map: every perf2bolt-22 command line of the drop-in
# gives the fdata and YAML perf2bolt-22 gives.
#
# Builds the sqlite3 shell with `clang-22 -O2` (lld) twice, neither with
# -fbasic-block-address-map: fixed-address with --emit-relocs (BOLT's strict
# mode) and PIE without relocations. Per build, with the same inputs for
# both tools:
#   - pre-aggregated: the exact trace of the workload of profile-sqlite.sh
#     under qemu-x86_64 (test/tools/exact-trace), in both dialects
#     (`perf2bolt --pa -p X -o F -w Y`);
#   - perf.data with branch stacks, made from that trace by
#     test/tools/perf-data-gen.py (`-p X -o F -w Y`);
#   - perf.data of IP samples, a run of the workload under `perf record -e
#     cpu-clock` when perf can record here (`-p X --ba -o F -w Y`).
# The fdata are compared line for line, whole (`diff` of the sorted lines,
# start-up code and PLT entries included), the YAML with
# test/tools/yaml-compare.py (functions by name, blocks by bid), the
# summaries with test/tools/summary-diff.py (perf2bolt's lines about its
# own process left out).
# Prints one line per comparison and exits non-zero when any differs.
#
# Usage: bench/nomap-sqlite.sh      Outputs go to bench/out/nomap-sqlite/.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

case "${1:-}" in -h|--help) usage; exit 0 ;; esac
for t in clang-22 perf2bolt-22 qemu-x86_64 cc; do
  command -v "$t" >/dev/null || die "$t not found (run scripts/bootstrap.sh)"
done
[ -x "$ROOT/build/llvm-22/bbmap-profile" ] ||
  die "no build/llvm-22/bbmap-profile (run: scripts/build.sh 22)"
EXACT=$TOOLS/exact-trace
fetch_sqlite
out=$OUT/nomap-sqlite
rm -rf "$out"
mkdir -p "$out"
cd "$out"
# A copy, so that a rebuild during the run cannot mix versions; the link
# makes it perf2bolt.
cp "$ROOT/build/llvm-22/bbmap-profile" bbmap-profile
ln -s bbmap-profile perf2bolt
cp "$BENCH/sqlite-workload.sql" workload.sql
cc -O2 -shared -fPIC -o trace-plugin.so "$EXACT/trace-plugin.c"
start=$(date +%s)
status=0

# same LABEL: compares the fdata (and the YAML, when both exist) of
# perf2bolt-22 (LABEL.p2b*) and the drop-in (LABEL.bb*).
same() {
  local d
  d=$(diff <(sort "$1.p2b.fdata") <(sort "$1.bb.fdata") | grep -c '^[<>]' || true)
  if [ "$d" -eq 0 ]; then
    printf '%-34s fdata identical: %d lines\n' "$1" "$(wc -l <"$1.p2b.fdata")"
  else
    printf '%-34s fdata DIFFER: %d lines (diff <(sort %s) <(sort %s))\n' "$1" "$d" \
      "$out/$1.p2b.fdata" "$out/$1.bb.fdata"
    status=1
  fi
  if python3 "$TOOLS/summary-diff.py" "$1.p2b.log" "$1.p2b.err" "$1.bb.log" \
    "$1.bb.err" >"$1.summary.diff"; then
    printf '%-34s %s\n' "$1" "$(cat "$1.summary.diff")"
  else
    printf '%-34s summary DIFFERS (%s)\n' "$1" "$out/$1.summary.diff"
    status=1
  fi
  [ -f "$1.p2b.yaml" ] || return 0
  if python3 "$TOOLS/yaml-compare.py" "$1.p2b.yaml" "$1.bb.yaml" >"$1.yaml.diff"; then
    printf '%-34s YAML  %s\n' "$1" "$(cat "$1.yaml.diff")"
  else
    printf '%-34s YAML  DIFFER: %d lines (%s)\n' "$1" "$(wc -l <"$1.yaml.diff")" \
      "$out/$1.yaml.diff"
    status=1
  fi
}

# convert LABEL BIN ARGS...: both tools on the same command line.
convert() {
  local label=$1 bin=$2; shift 2
  perf2bolt-22 "$bin" "$@" -o "$label.p2b.fdata" -w "$label.p2b.yaml" \
    >"$label.p2b.log" 2>"$label.p2b.err" ||
    die "perf2bolt-22 failed: see $out/$label.p2b.err"
  ./perf2bolt "$bin" "$@" -o "$label.bb.fdata" -w "$label.bb.yaml" \
    >"$label.bb.log" 2>"$label.bb.err" ||
    { cat "$label.bb.err" >&2; status=1; return; }
  same "$label"
}

perf_ok=no
perf record -q -e cpu-clock -o probe.data -- true >/dev/null 2>&1 && perf_ok=yes

for kind in relocs pie; do
  bin=sqlite3-$kind
  case $kind in
    relocs) flags=(-no-pie -Wl,--emit-relocs) ;;
    pie) flags=(-fPIE -pie) ;;
  esac
  step "build $bin (no map)"
  clang-22 -O2 -fuse-ld=lld "${flags[@]}" -DSQLITE_THREADSAFE=0 \
    -DSQLITE_OMIT_LOAD_EXTENSION "$SQLITE/sqlite3.c" "$SQLITE/shell.c" -o "$bin" -lm
  if llvm-readelf-22 -S "$bin" | grep -q llvm_bb_addr_map; then
    die "$bin has a .llvm_bb_addr_map section"
  fi
  step "trace $bin under qemu"
  qemu-x86_64 -plugin "./trace-plugin.so,out=$bin.triples" "./$bin" -batch :memory: \
    <workload.sql >/dev/null
  for d in 22 19; do
    python3 "$EXACT/trace-to-preagg.py" "$bin" "$bin.triples" --format=$d -o "$bin.$d.pa"
    convert "$bin.pa$d" "$bin" --pa -p "$bin.$d.pa"
  done
  python3 "$TOOLS/perf-data-gen.py" "$bin" "$bin.triples" -o "$bin.lbr.data" --samples=20000
  convert "$bin.lbr" "$bin" -p "$bin.lbr.data"
  if [ $perf_ok = yes ]; then
    perf record -q -e cpu-clock -F 20000 -o "$bin.ip.data" "./$bin" -batch :memory: \
      <workload.sql >/dev/null 2>&1
    convert "$bin.ip" "$bin" -p "$bin.ip.data" --ba
  else
    echo "perf record does not work here: IP samples skipped"
  fi
done
step "done"
exit $status
