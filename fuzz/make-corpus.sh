#!/usr/bin/env bash
# make-corpus.sh - seed corpora for the fuzz targets, from the test suite's
# inputs.
#
# Usage: fuzz/make-corpus.sh OUT_DIR
# Writes OUT_DIR/fuzz-elf (whole files: objects from the in-tree clang/llc
# of LLVM 19 and 22 and, when a plugin is at hand, from the plugin for every
# encoding; 32/64-bit, both byte orders, REL/RELA/CREL, compressed sections,
# an archive, a linked executable; the yaml2obj documents of test/dumper;
# the crash reproducers of test/dumper/Inputs/fuzz-crashes)
# and OUT_DIR/fuzz-bb-addr-map (the map sections of those files, prefixed
# with fuzz-bb-addr-map's option byte) and OUT_DIR/fuzz-bat (BAT note
# descriptors written by BOLT 16 and 22) and OUT_DIR/fuzz-instrprof-raw
# (raw profiles of test/instrprof, byte-swapped and malformed copies) and
# OUT_DIR/fuzz-perf-data (test/perf's perf.data files and variants, and
# ARM SPE files) and OUT_DIR/fuzz-spe (their AUX data); the
# hand-written seeds of the text readers are copied from
# fuzz/seeds/<target>/, and fuzz-bolt-yaml's crash reproducers from
# test/profile/Inputs/fuzz-crashes.
# Environment: BBMAP_PLUGIN, an LLVM 22 build of bbmap-plugin.so (default:
# build/llvm-22/bbmap-plugin.so if present).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: make-corpus.sh OUT_DIR}
plugin=${BBMAP_PLUGIN:-$root/build/llvm-22/bbmap-plugin.so}
elf=$out/fuzz-elf
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$elf"

c_inputs="$root/test/Inputs/program.c $root/test/plugin/corpus/switch.c
          $root/test/plugin/corpus/loops.c"
ll_input=$root/test/Inputs/calls.ll
b19=/usr/lib/llvm-19/bin
b22=/usr/lib/llvm-22/bin

for src in $c_inputs; do
  n=$(basename "$src" .c)
  cc="-O2 -c $src -fbasic-block-address-map"
  "$b19/clang" $cc -o "$elf/$n.19.o"
  "$b22/clang" $cc -ffunction-sections -o "$elf/$n.22-fs.o"
done
# ELF32 LE with REL, ELF64 BE and ELF32 BE with REL relocations.
for t in i686 powerpc64 mips; do
  "$b22/llc" -O2 -mtriple=$t-linux-gnu "$ll_input" -filetype=obj \
    -basic-block-address-map -o "$elf/calls.$t.o"
done
prog=$root/test/Inputs/program.c
"$b22/clang" -O2 -c "$prog" -fbasic-block-address-map \
  -Wa,--crel,--allow-experimental-crel -o "$elf/program.crel.o"
"$b22/clang" -O2 "$prog" -fbasic-block-address-map -fuse-ld=lld \
  -fbasic-block-sections=all -o "$elf/program.exe"
"$b22/llvm-objcopy" --compress-sections=.llvm_bb_addr_map=zlib \
  "$elf/program.19.o" "$elf/program.zlib.o"
"$b22/llvm-objcopy" --compress-sections=.llvm_bb_addr_map=zstd \
  "$elf/program.exe" "$elf/program.zstd.exe"
"$b22/llvm-ar" rc "$elf/lib.a" "$elf/program.19.o" "$elf/calls.i686.o"

# llc's PGO analyses and block hashes (in-tree) and, with the plugin, every
# encoding it writes.
"$b22/llc" -O2 -mtriple=x86_64 "$ll_input" -filetype=obj \
  -basic-block-address-map -pgo-analysis-map=all -emit-bb-hash \
  -o "$elf/calls.pgo.o"
"$b22/llc" -O2 -mtriple=x86_64 "$ll_input" -filetype=obj \
  -basic-block-address-map -pgo-analysis-map=func-entry-count \
  -basic-block-address-map-skip-bb-entries -o "$elf/calls.skip.o"
if [[ -f $plugin ]]; then
  for v in v0-type 0 1 2 3 4 5; do
    "$b22/llc" -O2 -mtriple=x86_64 -load="$plugin" -bbmap-version=$v \
      "$ll_input" -filetype=obj -o "$elf/calls.plugin-$v.o"
  done
else
  echo "make-corpus.sh: no plugin at $plugin; in-tree maps only" >&2
fi

# Every yaml2obj document of the dumper tests (hand-written encodings,
# legacy type, malformed records).
for t in "$root"/test/dumper/*.test; do
  n=1
  while "$b22/yaml2obj" --docnum=$n "$t" -o "$work/doc" 2>/dev/null; do
    cp "$work/doc" "$elf/$(basename "$t" .test).$n"
    n=$((n + 1))
  done
done

# Every input a fuzz target crashed on, so that each run replays them.
cp "$root"/test/dumper/Inputs/fuzz-crashes/* "$elf"/

"$root/fuzz/extract-maps.py" "$out/fuzz-bb-addr-map" "$elf"/*

# BAT notes of test/bat's program BOLTed by BOLT 16 (fixed format) and 22
# (delta format), plain and split: the note's descriptor (after the 12-byte
# header and the padded name "BOLT"), prefixed with fuzz-bat's option byte
# (0: little-endian, format detected).
bat=$out/fuzz-bat
mkdir -p "$bat"
"$b22/clang" -O2 -no-pie -fuse-ld=lld -Wl,-q "$root/test/bat/Inputs/split.c" \
  -o "$work/split"
for v in 16 22; do
  command -v llvm-bolt-$v >/dev/null || continue
  for mode in plain split; do
    flags=()
    [[ $mode = split ]] && flags=(--data "$root/test/bat/Inputs/entry-blocks.fdata"
      --reorder-blocks=ext-tsp --split-functions --split-all-cold)
    llvm-bolt-$v "$work/split" -o "$work/split.bolt" --enable-bat \
      "${flags[@]}" >/dev/null 2>&1 || continue
    "$b22/llvm-objcopy" --dump-section .note.bolt_bat="$work/note" \
      "$work/split.bolt" "$work/discard"
    { printf '\0'; tail -c +21 "$work/note"; } >"$bat/bolt$v-$mode"
  done
done
cp "$root"/test/bat/Inputs/fuzz-crashes/* "$bat"/
# fuzz-lsda: the .gcc_except_table of test/profile's C++ program, for x86-64
# and AArch64, prefixed with fuzz-lsda's option byte (0x0f: little-endian,
# 8-byte addresses, the LSDA at the section's start).
lsda=$out/fuzz-lsda
mkdir -p "$lsda"
for target in x86_64-linux-gnu aarch64-linux-gnu; do
  "$b22/clang++" --target=$target -O2 -c "$root/test/profile/Inputs/cxx/cxx.cpp"     -o "$work/cxx.o" 2>/dev/null || continue
  "$b22/llvm-objcopy" --dump-section .gcc_except_table="$work/lsda"     "$work/cxx.o" "$work/discard" || continue
  { printf '\x0f'; cat "$work/lsda"; } >"$lsda/cxx-$target"
done
# fuzz-profile: every record kind over the functions of the program it
# charges (built by the fuzz tree next to OUT_DIR), IP samples alone, plus
# the reader seeds.
program=$out/../fuzz/profile-program
if [[ -f $program ]]; then
  mkdir -p "$out/fuzz-profile"
  nm "$program" | python3 -c '
import sys
for line in sys.stdin:
    f = line.split()
    if len(f) == 3 and f[1] in "tT":
        a = int(f[0], 16)
        print("T %x %x %x 3\nB %x %x 5 1\nF %x %x 7\nf %x %x 2" %
              (a + 4, a, a + 16, a + 8, a + 2, a, a + 12, a + 3, a + 40))
        print("r %x %x 1\nR %x %x %x 4\nS %x 9" %
              (a, a + 30, a + 1, a, a + 6, a + 5))
' >"$out/fuzz-profile/every-kind"
  # IP samples alone (profile inference): a few per function.
  nm "$program" | awk 'NF == 3 && ($2 == "t" || $2 == "T") {
    a = $1; for (i = 0; i < 3; i++) printf "S %s%d %d\n", substr(a, 1, length(a) - 1), i * 4, 7 + i
  }' >"$out/fuzz-profile/samples-only"
  cp "$root"/fuzz/seeds/fuzz-preagg/* "$out/fuzz-profile"/
fi
# fuzz-instrprof-raw: the raw profiles of test/instrprof (version 8 of
# clang-14 and 10 of clang-19 and 22: IR with value data, MC/DC bitmap
# bytes, temporal, single-byte, vtables, context-sensitive), their
# big-endian twins, the malformed copies test/tools/profraw.py makes of
# them, and a version 9 profile.
raw=$out/fuzz-instrprof-raw
mkdir -p "$raw"
for p in "$root"/test/instrprof/Inputs/*.profraw; do
  n=$(basename "$p" .profraw)
  cp "$p" "$raw/$n"
  python3 "$root/test/tools/profraw.py" swap "$p" "$raw/$n.be"
  python3 "$root/test/tools/profraw.py" malformed "$p" "$work/malformed-$n"
  for m in "$work/malformed-$n"/*; do cp "$m" "$raw/$n.$(basename "$m")"; done
done
python3 "$root/test/tools/profraw.py" v9 "$root/test/instrprof/Inputs/mcdc-22.profraw" \
  "$raw/mcdc-v9"
# fuzz-instrprof-indexed: indexed profiles of test/instrprof's raw inputs
# written by llvm-profdata 14 (version 7), 19 (12) and 22 (13), the
# committed indexed inputs (temporal traces, a memory profile), each laid
# out in every version from 1 to 13 and with vtable names, and the
# malformed cases of test/instrprof/indexed-malformed.test and the
# reproducers of its fuzz-crashes.
ip=$out/fuzz-instrprof-indexed
ipin=$root/test/instrprof/Inputs
mkdir -p "$ip"
for v in 14 19 22; do
  for r in "$ipin"/*.profraw; do
    n=$(basename "$r" .profraw)
    /usr/lib/llvm-$v/bin/llvm-profdata merge -o "$ip/$n.$v" "$r" \
      2>/dev/null || rm -f "$ip/$n.$v"
  done
done
cp "$ipin"/*.profdata "$ip"/
for f in "$ipin"/*.profdata; do
  n=$(basename "$f" .profdata)
  for v in 1 2 3 4 8 9 10 11 12 13; do
    python3 "$root/test/tools/profdata.py" version $v "$f" "$ip/$n.v$v"
  done
  python3 "$root/test/tools/profdata.py" malformed "$f" "$work/indexed-malformed-$n"
  for m in "$work/indexed-malformed-$n"/*; do
    cp "$m" "$ip/$n.$(basename "$m")"
  done
done
python3 "$root/test/tools/profdata.py" vtable-names zlib \
  "$ipin/calls-22.profdata" "$ip/vtable-names" _ZTV1A _ZTV1B
cp "$ipin"/fuzz-crashes/indexed-* "$ip"/
# fuzz-perf-data: the recorded and generated perf.data files of test/perf
# and their cut and corrupted variants.
perf=$out/fuzz-perf-data
mkdir -p "$perf"
cp "$root"/test/perf/Inputs/recorded/*.data "$root"/test/perf/Inputs/generated/*.data "$perf"/
# ARM SPE files of spe-scenario.py (per-CPU, per-thread, timeless, without
# the index, a pipe, big-endian, malformed data) for fuzz-perf-data, and
# their AUX data for fuzz-spe: each AUXTRACE record's data, prefixed with
# the option byte 0x10 (into a built file too) and 0x00.
spe=$out/fuzz-spe
mkdir -p "$spe"
n=0
for v in "" "--per-thread" "--timeless" "--no-index" "--pipe" "--big-endian" \
         "--extended --end-records" "--switch-events --no-context --cycles" \
         "--time-conv short" "--corrupt record" "--corrupt header"; do
  n=$((n + 1))
  python3 "$root/test/tools/spe-scenario.py" -o "$perf/spe-$n.data" \
    --seed $n --records 60 $v
done
python3 - "$perf" "$spe" <<'PY'
import glob, os, struct, sys
perf, spe = sys.argv[1:]
for path in sorted(glob.glob(os.path.join(perf, 'spe-*.data'))):
    d = open(path, 'rb').read()
    e = '<' if d[:8] == b'PERFILE2' else '>'
    size, = struct.unpack_from(e + 'Q', d, 8)
    at = 16 if size == 16 else struct.unpack_from(e + 'Q', d, 40)[0]
    end = len(d) if size == 16 else at + struct.unpack_from(e + 'Q', d, 48)[0]
    k = 0
    while at + 8 <= end:
        rtype, _, rsize = struct.unpack_from(e + 'IHH', d, at)
        if rsize < 8:
            break
        skip = 0
        if rtype == 71:
            skip, = struct.unpack_from(e + 'Q', d, at + 8)
            aux = d[at + rsize:at + rsize + skip]
            name = os.path.basename(path)[:-5]
            for opt in (0x00, 0x10):
                with open(os.path.join(spe, '%s-%d-%02x' % (name, k, opt)),
                          'wb') as f:
                    f.write(bytes([opt]) + aux)
            k += 1
        at += rsize + skip
PY
python3 "$root/test/tools/perf-malformed.py" --write-only --out "$perf" \
  "$root"/test/perf/Inputs/recorded/{plain,pipe-zstd,group-read}.data \
  "$root"/test/perf/Inputs/generated/*.data

# Hand-written seeds of the text-format readers: fuzz/seeds/<target>/.
for d in "$root"/fuzz/seeds/*/; do
  mkdir -p "$out/$(basename "$d")"
  cp "$d"* "$out/$(basename "$d")"/
done
# fuzz-bolt-yaml replays its crash reproducers (test/profile/fuzz-crashes.test).
cp "$root"/test/profile/Inputs/fuzz-crashes/bolt-yaml-* "$out/fuzz-bolt-yaml"/
echo "make-corpus.sh: $(ls "$elf" | wc -l) files in $elf," \
  "$(ls "$out/fuzz-bb-addr-map" | wc -l) in $out/fuzz-bb-addr-map," \
  "$(ls "$bat" | wc -l) in $bat"
