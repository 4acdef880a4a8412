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
# Another target (arm64: CFLAGS with --target=aarch64-linux-gnu
# -fuse-ld=lld): EXACT_QEMU is the emulator command (`qemu-aarch64 -L
# SYSROOT`) and EXACT_COUNT_PLUGIN count-plugin.so, whose count of every
# instruction (qemu-counts.py) replaces callgrind's, which cannot run it.
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
qemu=${EXACT_QEMU:-qemu-x86_64}
env -u LD_PRELOAD $qemu -plugin "$plugin,out=$bin.triples" "$bin" >"$bin.out"
if [[ -n ${EXACT_COUNT_PLUGIN:-} ]]; then
  env -u LD_PRELOAD $qemu -plugin "$EXACT_COUNT_PLUGIN,out=$bin.raw-counts" \
    "$bin" >/dev/null
  python3 "$here/qemu-counts.py" "$bin" "$bin.raw-counts" -o "$bin.counts"
else
  env -u LD_PRELOAD python3 "$here/callgrind-counts.py" "$bin" -o "$bin.counts" -- "$bin" \
    >/dev/null 2>"$bin.callgrind.err"
fi
for dialect in 22 19; do
  python3 "$here/trace-to-preagg.py" "$bin" "$bin.triples" \
    --format=$dialect -o "$bin.$dialect.pa"
  "$profile" "$bin" --pa="$bin.$dialect.pa" --format=json -o "$bin.$dialect.json"
  echo "== $(basename "$bin") $* dialect $dialect"
  python3 "$here/../check-block-counts.py" "$bin.$dialect.json" "$bin.counts" \
    --flow
done
