#!/usr/bin/env bash
# bat-sqlite.sh - BAT acceptance check and throughput on a BOLTed sqlite3.
#
# Builds the sqlite3 shell with clang-22 -O2 -fbasic-block-address-map
# -Wl,-q, writes a profile that marks every function's entry block hot (so
# BOLT splits every multi-block function), and optimizes it with
# llvm-bolt-22 --enable-bat --split-strategy=all (format B) and with
# llvm-bolt-16 --enable-bat (format A). Then, for each output:
#   - the BOLTed shell runs a SQL script correctly;
#   - bbmap-dump --bat --verify decodes and verifies the note;
#   - every table entry round-trips (test/tools/bat-check.py roundtrip), and
#     for format B the chained look-up into the input binary's map agrees
#     with llvm-readobj (bat-check.py chain);
#   - decode throughput (bbmap-dump --bat-stats, median of RUNS runs) and the
#     throughput of translating 1M random .text addresses (half as branch
#     sources), alone and chained.
# Anchor: llvm-bat-dump-16 on the format A file, same run: whole-process wall
# time of --dump-all (vs bbmap-dump --bat) and of translating 20000
# addresses (all it takes on one command line; vs --translate-file), plus
# both tools' start-up time, which dominates the dump comparison.
#
# Usage: bench/bat-sqlite.sh        (env RUNS=N, default 5)
# Outputs go to bench/out/bat-sqlite/.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

case "${1:-}" in -h|--help) usage; exit 0 ;; esac
check_major 22
for t in llvm-bolt-22 llvm-bolt-16 llvm-bat-dump-16; do
  command -v "$t" >/dev/null || die "$t not found (run scripts/bootstrap.sh)"
done
RUNS=${RUNS:-5}
DUMP=$ROOT/build/llvm-22/bbmap-dump
CHECK="python3 $TOOLS/bat-check.py"
[ -x "$DUMP" ] || die "no build/llvm-22/bbmap-dump (run: ninja -C build/llvm-22)"
fetch_sqlite
out=$OUT/bat-sqlite
mkdir -p "$out"
cd "$out"

SQL="CREATE TABLE t(x INTEGER PRIMARY KEY, y TEXT);
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000)
  INSERT INTO t SELECT x, printf('v%d', x) FROM c;
SELECT count(*), sum(x), max(y) FROM t WHERE x % 7 = 3;"
EXPECTED="143|71500|v997"

echo "building sqlite3 (clang-22 -O2 -fbasic-block-address-map -Wl,-q)"
clang-22 -O2 -no-pie -fbasic-block-address-map -fuse-ld=lld -Wl,-q \
  -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION \
  "$SQLITE/sqlite3.c" "$SQLITE/shell.c" -o sqlite3 -lm
# Entry-block samples for every function: the rest of each function is cold.
{ echo no_lbr; llvm-nm-22 --defined-only sqlite3 |
    awk '$2 ~ /^[tT]$/ && $3 !~ /[\/ ]/ { print "1 " $3 " 0 100" }' | sort -u; } >entry.fdata

split=(--data entry.fdata --reorder-blocks=ext-tsp --split-functions --split-all-cold)
llvm-bolt-22 sqlite3 -o b22 --enable-bat "${split[@]}" --split-strategy=all >b22.log 2>&1 ||
  die "llvm-bolt-22 failed; see $out/b22.log"
llvm-bolt-16 sqlite3 -o b16 --enable-bat "${split[@]}" >b16.log 2>&1 ||
  die "llvm-bolt-16 failed; see $out/b16.log"

# wall CMD...: seconds of one run.
wall() {
  local s e
  s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N)
  echo "$e - $s" | bc -l
}
# decode_mbs FILE: median decode throughput reported by --bat-stats.
decode_mbs() {
  for _ in $(seq "$RUNS"); do
    "$DUMP" --bat --bat-stats "$1" 2>&1 >/dev/null |
      sed -n 's/.*(\([0-9.]*\) MB\/s).*/\1/p'
  done | median
}
# translate_rate FILE ADDRS [ARGS...]: median M addresses/s of --bat-stats.
translate_rate() {
  local f=$1 a=$2; shift 2
  for _ in $(seq "$RUNS"); do
    "$DUMP" --translate-file="$a" --bat-stats "$@" "$f" 2>&1 >/dev/null |
      sed -n 's/.*translated.*(\([0-9.]*\) M\/s).*/\1/p'
  done | median
}

# random_addrs FILE N OUT: N random addresses in FILE's .text, half :from.
random_addrs() {
  read -r start size < <(llvm-readelf-22 -S --wide "$1" |
    awk '$2 == ".text" { print $4, $6 }')
  python3 - "$start" "$size" "$2" "$3" <<'EOF'
import random, sys
start, size, n = int(sys.argv[1], 16), int(sys.argv[2], 16), int(sys.argv[3])
rng = random.Random(1)
with open(sys.argv[4], 'w') as f:
    for i in range(n):
        f.write('0x%x%s\n' % (start + rng.randrange(size), ':from' * (i & 1)))
EOF
}

llvm-readobj-22 --elf-output-style=JSON --bb-addr-map sqlite3 >sqlite3.readobj.json
llvm-nm-22 -S --defined-only sqlite3 >sqlite3.nm
status=0
for b in b22 b16; do
  echo "== $b"
  got=$(echo "$SQL" | "./$b" :memory:)
  [ "$got" = "$EXPECTED" ] && echo "program output: correct" ||
    { echo "program output: WRONG ($got)"; status=1; }
  "$DUMP" --bat --verify "$b" | tail -n 1
  "$DUMP" --bat --output-style=json "$b" >"$b.json"
  $CHECK bolt-log "$b.log" "$b.json"
  llvm-nm-22 -S --defined-only "$b" >"$b.nm"
  $CHECK roundtrip "$b.json" "$b.nm" "$b.addrs" "$b.expected"
  "$DUMP" --translate-file="$b.addrs" "$b" >"$b.tr"
  cmp -s "$b.expected" "$b.tr" && echo "round trip: every entry" ||
    { echo "round trip: MISMATCH (diff $out/$b.expected $out/$b.tr)"; status=1; }
  if [ $b = b22 ]; then
    "$DUMP" --translate-file="$b.addrs" --input-binary=sqlite3 \
      --output-style=json "$b" >"$b.chain.json"
    $CHECK chain "$b.chain.json" sqlite3.readobj.json sqlite3.nm || status=1
  fi
  size=$(python3 -c "import json; print(json.load(open('$b.json'))[0]['DescriptorSize'])")
  echo "descriptor: $size bytes; decode: $(decode_mbs "$b") MB/s (median of $RUNS)"
  random_addrs "$b" 1000000 "$b.1m"
  echo "translate 1M addresses: $(translate_rate "$b" "$b.1m") M/s"
  [ $b = b22 ] && echo "translate 1M, chained to the input map:" \
    "$(translate_rate "$b" "$b.1m" --input-binary=sqlite3) M/s"
done

echo "== anchor: llvm-bat-dump-16 on b16 (whole process, median of $RUNS)"
# bbmap-dump links libLLVM.so, llvm-bat-dump-16 is static: process start-up
# alone differs, so print it too.
ours=$(for _ in $(seq "$RUNS"); do wall "$DUMP" --version; done | median)
theirs=$(for _ in $(seq "$RUNS"); do wall llvm-bat-dump-16 --version; done | median)
printf 'start-up (--version): bbmap-dump %.3f s, llvm-bat-dump-16 %.3f s\n' \
  "$ours" "$theirs"
ours=$(for _ in $(seq "$RUNS"); do wall "$DUMP" --bat b16; done | median)
theirs=$(for _ in $(seq "$RUNS"); do wall llvm-bat-dump-16 --dump-all b16; done | median)
printf 'dump: bbmap-dump %.3f s, llvm-bat-dump-16 %.3f s, ratio %.2f\n' \
  "$ours" "$theirs" "$(echo "$theirs / $ours" | bc -l)"
head -n 20000 b16.1m | sed 's/:from$//' >b16.20k
mapfile -t args < <(sed 's/^/--translate=/' b16.20k)
ours=$(for _ in $(seq "$RUNS"); do wall "$DUMP" --translate-file=b16.20k b16; done | median)
theirs=$(for _ in $(seq "$RUNS"); do wall llvm-bat-dump-16 "${args[@]}" b16; done | median)
printf 'translate 20000: bbmap-dump %.3f s, llvm-bat-dump-16 %.3f s, ratio %.2f\n' \
  "$ours" "$theirs" "$(echo "$theirs / $ours" | bc -l)"
exit $status
