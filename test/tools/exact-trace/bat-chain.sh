#!/usr/bin/env bash
# bat-chain.sh - a profile of a BOLTed binary, charged to the input binary's
# blocks through BAT, equals the input binary's own profile of the same run.
#
# Builds SOURCES with a basic-block address map and --emit-relocs (IN),
# traces a run of IN exactly (QEMU + trace-plugin), turns the trace into
# fdata with bbmap-profile and BOLTs IN with it (--enable-bat, ext-tsp
# block reordering, hot/cold splitting), so that blocks really move. Then
# traces the same run of the BOLTed binary, charges that trace to IN's
# blocks (bbmap-profile IN.bolt --input-binary=IN) and compares it with
# IN's own profile: every block, edge and call (compare-block-profiles.py
# --all). The program's output must be the same for both binaries.
#
# Usage: bat-chain.sh BBMAP_PROFILE TRACE_PLUGIN_SO OUTDIR [-i STDIN]
#          [-a ARG]... -- SOURCES-AND-CFLAGS...
# -i: the program's standard input; -a: one argument of the program.
# The compiler is $CC if set, else `clang` on PATH; BOLT is llvm-bolt-22.
# The emulator is $EXACT_QEMU if set (arm64: `qemu-aarch64 -L SYSROOT`, with
# --target=aarch64-linux-gnu -fuse-ld=lld among the CFLAGS), else
# qemu-x86_64.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
profile=$1 plugin=$2 out=$3
shift 3
stdin=/dev/null args=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  case $1 in
  -i) stdin=$2 ;;
  -a) args+=("$2") ;;
  *) echo "bat-chain.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift 2
done
[ "${1:-}" = -- ] && shift
mkdir -p "$out"
in=$out/in
"${CC:-clang}" -O2 -no-pie -fbasic-block-address-map -Wl,--emit-relocs -w \
  "$@" -o "$in"

# trace BIN NAME: the 22-dialect pre-aggregated profile of one run of BIN.
trace() {
  env -u LD_PRELOAD ${EXACT_QEMU:-qemu-x86_64} -plugin "$plugin,out=$out/$2.triples" "$1" \
    "${args[@]}" <"$stdin" >"$out/$2.out"
  python3 "$here/trace-to-preagg.py" "$1" "$out/$2.triples" --format=22 \
    -o "$out/$2.pa"
}

trace "$in" in
"$profile" "$in" --pa="$out/in.pa" --format=fdata -o "$out/in.fdata"
llvm-bolt-22 "$in" -o "$in.bolt" --enable-bat --data "$out/in.fdata" \
  -reorder-blocks=ext-tsp -split-functions >"$out/bolt.log" 2>&1 ||
  { cat "$out/bolt.log" >&2; exit 1; }
trace "$in.bolt" bolted
cmp "$out/in.out" "$out/bolted.out"
"$profile" "$in" --pa="$out/in.pa" --format=json -o "$out/in.json"
"$profile" "$in.bolt" --pa="$out/bolted.pa" --input-binary="$in" \
  --format=json -o "$out/bolted.json"
python3 "$here/../compare-block-profiles.py" "$out/in.json" \
  "$out/bolted.json" --all
