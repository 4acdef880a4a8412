#!/usr/bin/env bash
# selfcheck.sh - checks the exact-trace plugin against callgrind on the
# programs in programs/: builds trace-plugin.so, compiles each program with
# `clang-N -O2 -fbasic-block-address-map` as a fixed-address (-no-pie) and
# as a PIE executable, runs it under qemu-x86_64 with the plugin and under
# callgrind, and compares the counts with check-trace.py, then checks both
# pre-aggregated profiles of trace-to-preagg.py the same way. Exits non-zero
# if anything mismatches.
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

now() { date +%s.%N; }
status=0
for src in "$HERE"/programs/*.c; do
  for kind in no-pie pie; do
    bin=$WORK/$(basename "$src" .c).$kind
    "clang-$N" -O2 "-f${kind#no-}" "-$kind" -fbasic-block-address-map -w \
      -o "$bin" "$src" 2>/dev/null ||
      "clang-$N" -O2 "-$kind" -fbasic-block-address-map -w -o "$bin" "$src"
    t0=$(now)
    qemu-x86_64 -plugin "$WORK/trace-plugin.so,out=$bin.triples" "$bin" >"$bin.qemu.out"
    t1=$(now)
    python3 "$HERE/callgrind-counts.py" "$bin" -o "$bin.counts" -- "$bin" \
      >"$bin.cg.out" 2>"$bin.cg.err" || { cat "$bin.cg.err" >&2; status=1; continue; }
    t2=$(now)
    cmp -s "$bin.qemu.out" "$bin.cg.out" ||
      echo "$bin: program output differs between qemu and valgrind"
    printf '== %s (qemu+plugin %.2f s, callgrind %.2f s)\n' "$(basename "$bin")" \
      "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)"
    check() { python3 "$HERE/check-trace.py" --llvm-config "llvm-config-$N" \
      "$bin" "$bin.triples" "$bin.counts" "$@" || status=1; }
    check
    for f in 19 22; do
      python3 "$HERE/trace-to-preagg.py" "$bin" "$bin.triples" --format=$f -o "$bin.$f.pa"
      check --preagg "$bin.$f.pa"
    done
  done
done
exit $status
