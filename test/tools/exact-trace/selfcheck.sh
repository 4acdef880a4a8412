#!/usr/bin/env bash
# selfcheck.sh - checks the exact-trace plugin against callgrind on the
# programs in programs/: builds trace-plugin.so, compiles each program with
# `clang-N -O2 -no-pie -fbasic-block-address-map`, runs it under
# qemu-x86_64 with the plugin and under callgrind, and compares the counts
# with check-trace.py. Exits non-zero if any program mismatches.
#
# Usage: selfcheck.sh [WORKDIR]   (default: a new temporary directory)
# Environment: CC (default cc) builds the plugin; BBMAP_LLVM_MAJOR (default
# 22) picks clang-N and llvm-config-N.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
WORK=${1:-$(mktemp -d)}
N=${BBMAP_LLVM_MAJOR:-22}
mkdir -p "$WORK"
"${CC:-cc}" -O2 -shared -fPIC -o "$WORK/trace-plugin.so" "$HERE/trace-plugin.c"

status=0
for src in "$HERE"/programs/*.c; do
  name=$(basename "$src" .c)
  bin=$WORK/$name
  "clang-$N" -O2 -no-pie -fbasic-block-address-map -w -o "$bin" "$src"
  t0=$(date +%s.%N)
  qemu-x86_64 -plugin "$WORK/trace-plugin.so,out=$bin.triples" "$bin" >"$bin.qemu.out"
  t1=$(date +%s.%N)
  python3 "$HERE/callgrind-counts.py" "$bin" -o "$bin.counts" -- "$bin" \
    >"$bin.cg.out" 2>"$bin.cg.err" || { cat "$bin.cg.err" >&2; status=1; continue; }
  t2=$(date +%s.%N)
  cmp -s "$bin.qemu.out" "$bin.cg.out" || echo "$name: program output differs between qemu and valgrind"
  echo "== $name (qemu+plugin $(echo "$t1 - $t0" | bc) s, callgrind $(echo "$t2 - $t1" | bc) s)"
  python3 "$HERE/check-trace.py" --llvm-config "llvm-config-$N" "$bin" "$bin.triples" "$bin.counts" ||
    status=1
done
exit $status
