#!/usr/bin/env bash
# demo.sh - the main job on a shipped example: build the plugin, compile
# examples/demo.c with stock clang 19 and 22 loading bbmap-plugin.so, dump the
# .llvm_bb_addr_map of each object with bbmap-dump, link and run the
# program, then profile it: a complete trace of one run (QEMU + the
# exact-trace plugin of test/tools) as a BOLT pre-aggregated profile, which
# bbmap-profile charges to the map's blocks and summarises, then lays it
# out (docs/layout.md): the rebuilt program's hot blocks in the cluster
# asked for, shown by bbmap-dump's table and checked by its --check-layout.
#
# Usage: scripts/demo.sh [N ...]     (default: 19 22)
# The demo's output goes to stdout; the build's output and one line per
# step ("demo: ...") go to stderr, so a first run on a fresh clone, which
# builds for minutes, shows its progress.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BBMAP_BUILD_DIR:-$root/build}
majors=${*:-19 22}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

step() { echo "demo: $*" >&2; }

step "building bbmap for LLVM ${majors// /, } (scripts/build.sh; minutes on a fresh clone)"
"$root/scripts/build.sh" $majors >&2
tracer=$root/test/tools/exact-trace
step "building the exact-trace QEMU plugin"
cc -O2 -shared -fPIC -o "$out/trace.so" "$tracer/trace-plugin.c"
for n in $majors; do
  step "LLVM $n: compile, dump, run, profile, lay out"
  plugin=$build/llvm-$n/bbmap-plugin.so
  echo "== clang-$n -O2 -fpass-plugin=$plugin -c examples/demo.c"
  "clang-$n" -O2 -fpass-plugin="$plugin" -c "$root/examples/demo.c" \
    -o "$out/demo-$n.o"
  "llvm-readelf-$n" -S "$out/demo-$n.o" | grep -E 'Name|llvm_bb_addr_map'
  echo "== bbmap-dump --bb-addr-map demo-$n.o"
  "$build/llvm-$n/bbmap-dump" --bb-addr-map "$out/demo-$n.o" | tail -n +7
  "clang-$n" -fuse-ld=lld "$out/demo-$n.o" -o "$out/demo-$n"
  echo "== ./demo-$n 12"
  "$out/demo-$n" 12
  echo "== bbmap-profile demo-$n --pa=demo-$n.pa --top=5"
  step "LLVM $n: tracing demo-$n under QEMU"
  qemu-x86_64 -plugin "$out/trace.so,out=$out/demo-$n.triples" \
    "$out/demo-$n" 12 >/dev/null
  python3 "$tracer/trace-to-preagg.py" "$out/demo-$n" "$out/demo-$n.triples" \
    --format=22 -o "$out/demo-$n.pa"
  "$build/llvm-$n/bbmap-profile" "$out/demo-$n" --pa="$out/demo-$n.pa" --top=5
  echo "== layout: bbmap-profile --format=clusters, rebuilt with clang-$n and lld"
  "$build/llvm-$n/bbmap-profile" "$out/demo-$n" --pa="$out/demo-$n.pa" \
    --format=clusters -o "$out/demo-$n.clusters" --symbol-order="$out/demo-$n.order"
  cat "$out/demo-$n.clusters"
  "clang-$n" -O2 -ffunction-sections -fuse-ld=lld -fbasic-block-address-map \
    -fbasic-block-sections=list="$out/demo-$n.clusters" -falign-loops=1 \
    -Wl,--symbol-ordering-file="$out/demo-$n.order" "$root/examples/demo.c" \
    -o "$out/demo-$n.relaid"
  "$out/demo-$n.relaid" 12
  "$build/llvm-$n/bbmap-dump" --bb-addr-map --output-style=table \
    "$out/demo-$n.relaid" | head -n 20
  echo "== bbmap-dump --check-layout: does the rebuilt program have the layout?"
  "$build/llvm-$n/bbmap-dump" --check-layout="$out/demo-$n.clusters" \
    --symbol-order="$out/demo-$n.order" "$out/demo-$n.relaid"
done
