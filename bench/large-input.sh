#!/usr/bin/env bash
# large-input.sh - builds a large linked x86-64 executable whose
# .llvm_bb_addr_map holds at least MIN_BLOCKS basic blocks (default 1000000),
# the input of the dumper benchmarks.
#
# Compiles sqlite3.c and shell.c (bench/lib.sh fetch_sqlite) once with
# `clang-22 -O2 -fpass-plugin=build/llvm-22/bbmap-plugin.so`, so the map is
# the plugin's native LLVM 22 encoding (version 5, callsite end offsets),
# which llvm-readobj-22 decodes. Then makes renamed copies of sqlite3.o with
# every defined symbol made local (`llvm-objcopy-22 --wildcard
# --localize-symbol='*'`; undefined symbols stay global), adds as many as
# MIN_BLOCKS needs, and links them with the original sqlite3.o and shell.o
# through ld.lld-22 into OUTDIR/large.exe (a working sqlite3 shell). The
# function and block counts of large.exe's map (from llvm-readobj-22) are
# kept in OUTDIR/large.counts and printed.
#
# Idempotent: does nothing but print the counts when large.exe is newer than
# the plugin, the sources and this script and was built for the same
# MIN_BLOCKS.
#
# Usage: bench/large-input.sh OUTDIR [MIN_BLOCKS]
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

case "${1:-}" in -h|--help|'') usage; [ -n "${1:-}" ]; exit ;; esac
outdir=$1 min_blocks=${2:-1000000}
[[ $min_blocks =~ ^[1-9][0-9]*$ ]] || die "MIN_BLOCKS must be a positive integer"
check_major 22
fetch_sqlite
plugin=$ROOT/build/llvm-22/bbmap-plugin.so
mkdir -p "$outdir/obj"
exe=$outdir/large.exe counts=$outdir/large.counts

# map_counts FILE: "FUNCTIONS BLOCKS" of FILE's map, via llvm-readobj-22.
map_counts() {
  llvm-readobj-22 --bb-addr-map "$1" |
    awk '/^  Function \{$/ { f++ } /^ +ID: / { b++ } END { print f + 0, b + 0 }'
}

up_to_date() {
  [ -f "$exe" ] && [ -f "$counts" ] || return 1
  [ "$(sed -n 's/^min_blocks //p' "$counts")" = "$min_blocks" ] || return 1
  local dep
  for dep in "$plugin" "$SQLITE/sqlite3.c" "$SQLITE/shell.c" "$0"; do
    [ "$exe" -nt "$dep" ] || return 1
  done
}

build() {
  local src obj=$outdir/obj pids=() pid
  for src in sqlite3 shell; do
    clang-22 -O2 -fpass-plugin="$plugin" -c "$SQLITE/$src.c" -o "$obj/$src.o" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do
    wait "$pid" || die "compiling sqlite3 with the plugin failed"
  done

  local copy_blocks shell_blocks f b copies i objs=("$obj/sqlite3.o" "$obj/shell.o")
  read -r f copy_blocks < <(map_counts "$obj/sqlite3.o")
  read -r f shell_blocks < <(map_counts "$obj/shell.o")
  # sqlite3.o and shell.o themselves, plus enough local copies.
  copies=$(((min_blocks - copy_blocks - shell_blocks + copy_blocks - 1) / copy_blocks))
  [ "$copies" -ge 0 ] || copies=0
  rm -f "$obj"/copy-*.o
  for ((i = 1; i <= copies; i++)); do
    llvm-objcopy-22 --wildcard --localize-symbol='*' "$obj/sqlite3.o" "$obj/copy-$i.o"
    objs+=("$obj/copy-$i.o")
  done
  clang-22 --ld-path="$(command -v ld.lld-22)" "${objs[@]}" -o "$exe.tmp" \
    -lpthread -ldl -lm
  mv "$exe.tmp" "$exe"
  read -r f b < <(map_counts "$exe")
  [ "$b" -ge "$min_blocks" ] || die "large.exe has only $b blocks"
  printf 'min_blocks %s\nsqlite3_copies %s\nfunctions %s\nblocks %s\n' \
    "$min_blocks" "$((copies + 1))" "$f" "$b" >"$counts"
}

if up_to_date; then
  echo "large-input: $exe is up to date"
else
  echo "large-input: building $exe (at least $min_blocks blocks)"
  build
fi
awk -v exe="$exe" '{ v[$1] = $2 } END {
  printf "large-input: %s: %d functions, %d blocks, %d copies of sqlite3.o + shell.o\n",
    exe, v["functions"], v["blocks"], v["sqlite3_copies"] }' "$counts"
