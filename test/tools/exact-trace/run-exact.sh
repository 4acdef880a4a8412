#!/usr/bin/env bash
# run-exact.sh - one program end to end against an independent truth: build
# it with a basic-block address map, record a complete trace of a run
# (QEMU + trace-plugin), write the trace as BOLT pre-aggregated profiles in
# both dialects (22: T lines; 19: B/F/f lines), charge each with
# bbmap-profile and compare every block count with callgrind's count of the
# block's first instruction (check-block-counts.py, with flow conservation).
#
# Usage: run-exact.sh BBMAP_PROFILE TRACE_PLUGIN_SO SRC OUTDIR [CFLAGS...]
# The compiler is `clang` (`clang++` for .cpp) on PATH (lit puts the
# build's major first).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
profile=$1 plugin=$2 src=$3 out=$4
shift 4
name=$(basename "$src")
bin=$out/${name%.*}
compiler=clang
[[ $src == *.cpp ]] && compiler=clang++
mkdir -p "$out"
$compiler -O2 -fbasic-block-address-map -w "$@" -o "$bin" "$src"
# The simulators and the traced program never need a sanitizer runtime
# (the sanitizer suite preloads one into every process).
env -u LD_PRELOAD qemu-x86_64 -plugin "$plugin,out=$bin.triples" "$bin" >"$bin.out"
env -u LD_PRELOAD python3 "$here/callgrind-counts.py" "$bin" -o "$bin.counts" -- "$bin" \
  >/dev/null 2>"$bin.callgrind.err"
for dialect in 22 19; do
  python3 "$here/trace-to-preagg.py" "$bin" "$bin.triples" \
    --format=$dialect -o "$bin.$dialect.pa"
  "$profile" "$bin" --pa="$bin.$dialect.pa" --format=json -o "$bin.$dialect.json"
  echo "== $(basename "$bin") $* dialect $dialect"
  python3 "$here/../check-block-counts.py" "$bin.$dialect.json" "$bin.counts" \
    --flow
done
