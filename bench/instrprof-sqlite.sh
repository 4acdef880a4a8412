#!/usr/bin/env bash
# instrprof-sqlite.sh - bbmap-dump --instr-profile against llvm-profdata-22
# show on the largest instrumentation profiles at hand: the sqlite3 shell
# built with clang-22 -O2 -fprofile-generate (IR instrumentation, value
# profiling on) running bench/sqlite-workload.sql.
#
# Inputs: one run's raw profile; RUNS_PROFILED (default 64) runs' raw
# profiles concatenated into one file (raw profiles may be, and both tools
# read every profile of such a file); and those runs merged by
# llvm-profdata-22 into an indexed profile. For each input, first the text
# of `bbmap-dump --instr-profile --instr-style=22` and of `llvm-profdata-22
# show --all-functions`, both with --counts --ic-targets --memop-sizes, must
# be identical (else the script fails); then both tools run alternately
# RUNS times (default 5), output to /dev/null: median wall and CPU seconds
# and peak RSS (GNU time), and the ratios llvm-profdata / bbmap-dump. The
# files are small (the one-run profile takes milliseconds, below GNU time's
# resolution), so each timed run is REPEAT (default 20) invocations in a
# row and the table gives seconds per invocation.
#
# Usage: bench/instrprof-sqlite.sh   (env RUNS, REPEAT, RUNS_PROFILED)
# Outputs go to bench/out/instrprof-sqlite/ (the table: table.md).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

case "${1:-}" in -h|--help) usage; exit 0 ;; esac
for t in clang-22 llvm-profdata-22; do
  command -v "$t" >/dev/null || die "$t not found (run scripts/bootstrap.sh)"
done
[ -x /usr/bin/time ] || die "needs GNU time (run scripts/bootstrap.sh)"
RUNS=${RUNS:-5} REPEAT=${REPEAT:-20} RUNS_PROFILED=${RUNS_PROFILED:-64}
DUMP=$ROOT/build/llvm-22/bbmap-dump
[ -x "$DUMP" ] || die "no build/llvm-22/bbmap-dump (run: ninja -C build/llvm-22)"
fetch_sqlite
out=$OUT/instrprof-sqlite
rm -rf "$out" && mkdir -p "$out/runs"
cd "$out"
cp "$DUMP" bbmap-dump
cp "$BENCH/sqlite-workload.sql" workload.sql

clang-22 -O2 -fprofile-generate -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION \
  "$SQLITE/sqlite3.c" "$SQLITE/shell.c" -o sqlite3-gen -lm
for i in $(seq "$RUNS_PROFILED"); do
  LLVM_PROFILE_FILE=runs/$i.profraw ./sqlite3-gen -batch :memory: <workload.sql >run.out
  cmp -s run.out "$BENCH/sqlite-workload.expected" || die "wrong output of the instrumented shell"
done
cp runs/1.profraw one.profraw
cat runs/*.profraw >concatenated.profraw
llvm-profdata-22 merge runs/*.profraw -o merged.profdata

show=(--counts --ic-targets --memop-sizes)
# "${repeat[@]}" CMD...: REPEAT runs of CMD in a row, as one process to time.
# shellcheck disable=SC2016 # the inner shell expands them
repeat=(sh -c 'n=$1; shift; for _ in $(seq "$n"); do "$@" >/dev/null || exit 1; done' sh "$REPEAT")
# per TAG K: column K's median per invocation.
per() { echo "$(col "$1" "$2") / $REPEAT" | bc -l; }
status=0
{
  echo "| input | size MB | tool | wall s | CPU s | peak RSS MB | llvm-profdata / bbmap-dump: wall | CPU | RSS |"
  echo "|---|---:|---|---:|---:|---:|---:|---:|---:|"
} >table.md
for f in one.profraw concatenated.profraw merged.profdata; do
  ./bbmap-dump --instr-profile --instr-style=22 "${show[@]}" "$f" >"$f.bbmap.txt"
  llvm-profdata-22 show --all-functions "${show[@]}" "$f" >"$f.profdata.txt"
  if cmp -s "$f.bbmap.txt" "$f.profdata.txt"; then
    echo "$f: identical text ($(wc -l <"$f.bbmap.txt") lines)"
  else
    echo "$f: TEXT DIFFERS (diff $out/$f.profdata.txt $out/$f.bbmap.txt)"
    status=1
    continue
  fi
  rm -f "$f".*.times
  for _ in $(seq "$RUNS"); do
    timed "$f.profdata" "${repeat[@]}" llvm-profdata-22 show --all-functions "${show[@]}" "$f"
    timed "$f.bbmap" "${repeat[@]}" ./bbmap-dump --instr-profile --instr-style=22 "${show[@]}" "$f"
  done
  size=$(awk -v b="$(stat -c %s "$f")" 'BEGIN { printf "%.1f", b / 1048576 }')
  for tool in profdata bbmap; do
    printf '| %s | %s | %s | %.3f | %.3f | %.0f |' "$f" "$size" \
      "$([ $tool = bbmap ] && echo bbmap-dump || echo llvm-profdata-22)" \
      "$(per "$f.$tool" 1)" "$(per "$f.$tool" 2)" "$(echo "$(col "$f.$tool" 3) / 1024" | bc -l)"
    if [ $tool = bbmap ]; then
      printf ' %.2f | %.2f | %.2f |\n' \
        "$(echo "$(col "$f.profdata" 1) / $(col "$f.bbmap" 1)" | bc -l)" \
        "$(echo "$(col "$f.profdata" 2) / $(col "$f.bbmap" 2)" | bc -l)" \
        "$(echo "$(col "$f.profdata" 3) / $(col "$f.bbmap" 3)" | bc -l)"
    else
      printf ' | | |\n'
    fi
  done >>table.md
done
echo
cat table.md
echo "(seconds per invocation: median of $RUNS alternating runs of $REPEAT invocations; load average $(cut -d' ' -f1-3 /proc/loadavg))"
exit $status
