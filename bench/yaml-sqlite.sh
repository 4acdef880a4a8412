#!/usr/bin/env bash
# yaml-sqlite.sh - bbmap-profile's BOLT YAML against perf2bolt's on sqlite3.
#
# Builds the sqlite3 shell (Debian's amalgamation, fetch_sqlite) with
# clang-N -O2 -fbasic-block-address-map, lld, for N = 22 and, when
# build/llvm-19/bbmap-profile exists, 19: non-PIE with --emit-relocs
# (perf2bolt's strict relocation mode) and PIE without relocations. Runs
# bench/sqlite-workload.sql under qemu-x86_64 with
# test/tools/exact-trace/trace-plugin.so, writes the trace as a
# pre-aggregated profile in the dialect of that perf2bolt (22: T/B/f, 19:
# B/F/f), and compares `bbmap-profile-N --format=yaml` with
# `perf2bolt-N --profile-format=yaml` on the same input with
# test/tools/yaml-compare.py (functions by name, blocks by bid; hashes,
# nblocks, insns, counts, calls, fids and header; binary-name left out),
# as the lit YAML tests do, then prints --stats (shares of matching
# function and block hashes). The many switch-dispatch loops of sqlite3
# (jump tables whose base BOLT does not find in the jump's block:
# docs/profile.md, "YAML and perf2bolt") are what this adds to
# test/profile/yaml-write*.test.
#
# Exits non-zero if a YAML file differs.
#
# Usage: bench/yaml-sqlite.sh
# Outputs go to bench/out/yaml-sqlite/.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

case "${1:-}" in -h|--help) usage; exit 0 ;; esac
for t in clang-22 perf2bolt-22 qemu-x86_64 cc; do
  command -v "$t" >/dev/null || die "$t not found (run scripts/bootstrap.sh)"
done
majors=(22)
if [ -x "$ROOT/build/llvm-19/bbmap-profile" ] && command -v clang-19 >/dev/null &&
  [ -x /usr/lib/llvm-19/bin/perf2bolt ]; then
  majors+=(19)
else
  echo "no build/llvm-19/bbmap-profile, clang-19 or LLVM 19's perf2bolt: LLVM 19 skipped"
fi
for n in "${majors[@]}"; do
  [ -x "$ROOT/build/llvm-$n/bbmap-profile" ] ||
    die "no build/llvm-$n/bbmap-profile (run: ninja -C build/llvm-$n)"
done
EXACT=$TOOLS/exact-trace
fetch_sqlite
out=$OUT/yaml-sqlite
mkdir -p "$out/bin" "$out/log"
cd "$out"
for n in "${majors[@]}"; do
  cp "$ROOT/build/llvm-$n/bbmap-profile" "bin/bbmap-profile-$n"
done
echo "bbmap-profile: work tree at $(git -C "$ROOT" log -1 --format='%h %cd' --date=iso)" \
  "($(git -C "$ROOT" diff --quiet HEAD -- lib include tools && echo clean || echo 'with local changes'))"
cp "$BENCH/sqlite-workload.sql" workload.sql
cc -O2 -shared -fPIC -o trace-plugin.so "$EXACT/trace-plugin.c"
status=0

# perf2bolt N: the perf2bolt of LLVM N (up to 19 it must run under the
# name perf2bolt: Debian's perf2bolt-19 runs as llvm-bolt).
perf2bolt_of() {
  if [ "$1" = 22 ]; then echo perf2bolt-22; else echo "/usr/lib/llvm-$1/bin/perf2bolt"; fi
}

# compare N KIND FLAGS...: build, trace, write both YAML files, compare.
compare() {
  local n=$1 kind=$2 bin=sqlite3-$1-$2 pa yb yp
  shift 2
  echo "== LLVM $n, $kind ($*)"
  "clang-$n" -O2 -fbasic-block-address-map -fuse-ld=lld "$@" \
    -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION \
    "$SQLITE/sqlite3.c" "$SQLITE/shell.c" -o "$bin" -lm
  qemu-x86_64 -plugin "./trace-plugin.so,out=$bin.triples" "./$bin" -batch :memory: \
    <workload.sql >"$bin.out"
  cmp -s "$bin.out" "$BENCH/sqlite-workload.expected" ||
    { echo "program output under qemu: WRONG (diff $out/$bin.out $BENCH/sqlite-workload.expected)"; status=1; }
  pa=$bin.pa yb=$bin.bb.yaml yp=$bin.p2b.yaml
  python3 "$EXACT/trace-to-preagg.py" "$bin" "$bin.triples" --format="$n" -o "$pa"
  "$(perf2bolt_of "$n")" "$bin" --pa -p "$pa" --profile-format=yaml -o "$yp" \
    >"log/$bin.p2b" 2>&1 || die "perf2bolt-$n failed; see $out/log/$bin.p2b"
  "bin/bbmap-profile-$n" "$bin" --pa="$pa" --format=yaml --fdata-dialect="$n" -o "$yb"
  if python3 "$TOOLS/yaml-compare.py" "$yp" "$yb" >"log/$bin.diff"; then
    cat "log/$bin.diff"
  else
    echo "DIFFER: $(wc -l <"log/$bin.diff") lines (log/$bin.diff):"
    head -n 10 "log/$bin.diff"
    status=1
  fi
  python3 "$TOOLS/yaml-compare.py" --stats "$yp" "$yb" | sed 's/^/  /'
}

for n in "${majors[@]}"; do
  compare "$n" relocs -no-pie -Wl,--emit-relocs
  compare "$n" pie -fPIE -pie
done

if [ "$status" -eq 0 ]; then echo "yaml-sqlite: PASS"; else echo "yaml-sqlite: FAIL"; fi
exit $status
