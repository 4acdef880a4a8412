#!/usr/bin/env bash
# perfdata-sqlite.sh - bbmap-profile's own perf.data reader on sqlite3,
# against perf2bolt-22 and against `perf script` alone, with the time to
# read the file from the page cache as the ceiling.
#
# Builds the sqlite3 shell as bench/profile-sqlite.sh does (clang-22 -O2
# -no-pie -fbasic-block-address-map -Wl,--emit-relocs, lld), runs the SQL
# workload (bench/sqlite-workload.sql, output checked) and makes two inputs:
#   lbr.data  branch stacks (32 entries), as `perf record -b` writes them
#             on LBR hardware: test/tools/perf-data-gen.py from the exact
#             trace of the run (qemu-x86_64 + trace-plugin.so), SIZE bytes
#             (default 1100000000; 100000 distinct stacks written over and
#             over with growing timestamps);
#   ip.data   IP samples: `perf record -e cpu-clock -F 20000` of 10 runs of
#             the workload (profile-sqlite.sh's perf.data).
# Before timing, on each input: bbmap-profile --format=fdata natively and
# through perf script (--perf-decoder=perf-script) are byte-identical and,
# over the functions a map covers, equal to perf2bolt-22's fdata (-p; --ba
# for IP samples); bbmap-dump --perf-data prints what perf script prints.
# Then RUNS (default 3) alternating runs of each command on the warm file:
#   perf2bolt-22  -p FILE [--ba] -o x.fdata
#   perf script   -F pid,event,brstack|ip --show-mmap-events
#                 --show-task-events -G --no-itrace -i FILE > /dev/null
#   bbmap-profile --perfdata=FILE --format=fdata (every core, and 1 thread)
#   bbmap-dump    --perf-data [--brstack] FILE > /dev/null (the text; every
#                 core, and 1 thread)
#   read          the file read into memory, 1 MiB per read() (the ceiling)
# Medians of wall, CPU (user+sys) and peak RSS (GNU time), MB/s of input,
# the ratios to bbmap-profile's wall, CPU and RSS. Then, for lbr.data,
# perf script's wall and CPU over bbmap-dump's, and where bbmap-dump's CPU
# time goes by phase (read, order, decode, format, write), from a
# cpu-clock profile of one run on every core (bench/tools/perf-phases.py).
#
# Usage: bench/perfdata-sqlite.sh        (env RUNS=N, SIZE=BYTES)
# Outputs go to bench/out/perfdata-sqlite/. Exits non-zero if an output
# check fails (the timings are still printed).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

case "${1:-}" in -h|--help) usage; exit 0 ;; esac
for t in clang-22 perf2bolt-22 qemu-x86_64 perf cc bc; do
  command -v "$t" >/dev/null || die "$t not found (run scripts/bootstrap.sh)"
done
[ -x /usr/bin/time ] || die "needs GNU time: apt-get install time"
RUNS=${RUNS:-3}
SIZE=${SIZE:-1100000000}
for t in bbmap-profile bbmap-dump; do
  [ -x "$ROOT/build/llvm-22/$t" ] || die "no build/llvm-22/$t (run: ninja -C build/llvm-22)"
done
fetch_sqlite
out=$OUT/perfdata-sqlite
mkdir -p "$out/bin"
cd "$out"
cp "$ROOT/build/llvm-22/bbmap-profile" "$ROOT/build/llvm-22/bbmap-dump" bin/
PROFILE=$out/bin/bbmap-profile
DUMP=$out/bin/bbmap-dump
echo "bbmap: work tree at $(git -C "$ROOT" log -1 --format='%h %cd' --date=iso)" \
  "($(git -C "$ROOT" diff --quiet HEAD -- lib include tools && echo clean || echo 'with local changes'))"
cp "$BENCH/sqlite-workload.sql" workload.sql
status=0

bin=sqlite3
clang-22 -O2 -no-pie -fbasic-block-address-map -fuse-ld=lld -Wl,--emit-relocs \
  -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION \
  "$SQLITE/sqlite3.c" "$SQLITE/shell.c" -o "$bin" -lm
"./$bin" -batch :memory: <workload.sql >native.out
cmp -s native.out "$BENCH/sqlite-workload.expected" || die "sqlite3 output differs"

if [ ! -f lbr.data ] || [ "$(stat -c %s lbr.data)" -lt "$SIZE" ] || [ lbr.data -ot "$bin" ]; then
  cc -O2 -shared -fPIC -o trace-plugin.so "$TOOLS/exact-trace/trace-plugin.c"
  env -u LD_PRELOAD qemu-x86_64 -plugin "./trace-plugin.so,out=$bin.triples" \
    "./$bin" -batch :memory: <workload.sql >qemu.out
  cmp -s qemu.out native.out || die "sqlite3 output under qemu differs"
  python3 "$TOOLS/perf-data-gen.py" "$bin" "$bin.triples" -o lbr.data \
    --depth=32 --unique=100000 --size="$SIZE"
fi
perf record -q -e cpu-clock -F 20000 -o ip.data -- sh -c \
  "for i in 1 2 3 4 5 6 7 8 9 10; do ./$bin -batch :memory: <workload.sql >/dev/null; done" \
  >perf-record.log 2>&1 || die "perf record failed; see $out/perf-record.log"

# mapped_names BIN: the names of BIN's functions with a bb-addr-map record.
"llvm-readobj-22" --bb-addr-map "$bin" | sed -n 's/^ *Name: //p' | sort -u >mapped.names
# fdata_lines FDATA: its lines whose source function is mapped, sorted.
fdata_lines() {
  awk 'NR == FNR { m[$1] = 1; next }
       { n = $2; sub(/\/.*/, "", n) } n in m' mapped.names "$1" | sort
}
check() {
  if "${@:2}"; then printf '%-52s ok\n' "$1"; else printf '%-52s DIFFER\n' "$1"; status=1; fi
}

read_ceiling() {
  python3 -c '
import os, sys, time
start = time.perf_counter()
fd = os.open(sys.argv[1], os.O_RDONLY)
buf = bytearray(1 << 20)
while os.readv(fd, [buf]):
    pass
os.close(fd)
print("%.4f" % (time.perf_counter() - start))' "$1"
}

for input in lbr ip; do
  f=$input.data
  if [ $input = lbr ]; then fields=brstack; ba=(); dump=(--brstack); else
    fields=ip; ba=(--ba); dump=(); fi
  mb=$(echo "$(stat -c %s $f) / 1000000" | bc -l)
  echo "== $f: $(printf '%.1f' "$mb") MB, $(perf script -F ip -i $f 2>/dev/null | wc -l) samples"
  "$PROFILE" "$bin" --perfdata=$f --format=fdata -o $input.bb.fdata
  "$PROFILE" "$bin" --perfdata=$f --perf-decoder=perf-script --format=fdata \
    -o $input.script.fdata
  perf2bolt-22 "$bin" -p $f "${ba[@]}" -o $input.p2b.fdata >$input.p2b.log 2>&1 ||
    die "perf2bolt-22 failed; see $out/$input.p2b.log"
  check "bbmap-profile native = through perf script" cmp -s $input.bb.fdata $input.script.fdata
  check "bbmap-profile = perf2bolt-22 ($(fdata_lines $input.p2b.fdata | wc -l) lines)" \
    cmp -s <(fdata_lines $input.p2b.fdata) <(fdata_lines $input.bb.fdata)
  check "bbmap-dump --perf-data = perf script" cmp -s \
    <("$DUMP" --perf-data "${dump[@]}" $f) \
    <(perf script -F pid,event,$fields --show-mmap-events --show-task-events -G \
      --no-itrace -i $f 2>/dev/null)
  cmds=(
    "perf2bolt-22::perf2bolt-22 $bin -p $f ${ba[*]} -o $input.p2b.fdata"
    "perf script::perf script -F pid,event,$fields --show-mmap-events --show-task-events -G --no-itrace -i $f"
    "bbmap-profile::$PROFILE $bin --perfdata=$f --format=fdata -o $input.bb.fdata"
    "bbmap-profile --threads=1::$PROFILE $bin --perfdata=$f --threads=1 --format=fdata -o $input.bb.fdata"
    "bbmap-dump --perf-data::$DUMP --perf-data ${dump[*]} $f"
    "bbmap-dump --perf-data --threads=1::$DUMP --perf-data ${dump[*]} --threads=1 $f")
  names=() tags=()
  for i in "${!cmds[@]}"; do names+=("${cmds[$i]%%::*}"); rm -f "$input.$i.times"; done
  rm -f "$input.read.times"
  cat $f >/dev/null
  for _ in $(seq "$RUNS"); do
    for i in "${!cmds[@]}"; do eval "timed $input.$i ${cmds[$i]#*::}"; done
    echo "$(read_ceiling $f) 0 0" >>"$input.read.times"
  done
  # at_least V: V, or 0.01 (GNU time's resolution) for the ratios.
  at_least() { if [ "$(echo "$1 < 0.01" | bc -l)" = 1 ]; then echo 0.01; else echo "$1"; fi; }
  bw=$(at_least "$(col "$input.2" 1)") bc_=$(at_least "$(col "$input.2" 2)")
  bm=$(col "$input.2" 3)
  printf '| tool | wall s | CPU s | peak RSS MB | MB/s | wall / bbmap-profile | CPU / bbmap | RSS / bbmap |\n'
  printf '|---|---:|---:|---:|---:|---:|---:|---:|\n'
  for i in "${!cmds[@]}"; do
    w=$(at_least "$(col "$input.$i" 1)") c=$(col "$input.$i" 2) m=$(col "$input.$i" 3)
    printf '| %s | %.2f | %.2f | %.0f | %.1f | %.2f | %.2f | %.2f |\n' "${names[$i]}" \
      "$w" "$c" "$(echo "$m / 1024" | bc -l)" "$(echo "$mb / $w" | bc -l)" \
      "$(echo "$w / $bw" | bc -l)" "$(echo "$c / $bc_" | bc -l)" "$(echo "$m / $bm" | bc -l)"
  done
  rw=$(col "$input.read" 1)
  printf '| read (ceiling) | %.3f | | | %.1f | %.2f | | |\n' "$rw" \
    "$(echo "$mb / $rw" | bc -l)" "$(echo "$rw / $bw" | bc -l)"
  # ip.data's times are at GNU time's resolution: no ratios, no profile.
  if [ $input = lbr ]; then
    for i in 4 5; do
      printf 'perf script / %s: wall %.2f, CPU %.2f\n' "${names[$i]}" \
        "$(echo "$(col "$input.1" 1) / $(col "$input.$i" 1)" | bc -l)" \
        "$(echo "$(col "$input.1" 2) / $(col "$input.$i" 2)" | bc -l)"
    done
    echo "bbmap-dump --perf-data ${dump[*]}: CPU seconds by phase (cpu-clock profile)"
    perf record -q -e cpu-clock -F 1999 -o phases.data -- \
      "$DUMP" --perf-data "${dump[@]}" $f >/dev/null 2>phases.log ||
      die "perf record failed; see $out/phases.log"
    python3 "$BENCH/tools/perf-phases.py" phases.data 1999
  fi
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$status" -eq 0 ]; then echo "perfdata-sqlite: PASS"; else echo "perfdata-sqlite: FAIL"; fi
exit $status
