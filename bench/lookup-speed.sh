#!/usr/bin/env bash
# lookup-speed.sh - throughput of `bbmap-dump --lookup-file` on the large
# input of bench/large-input.sh (over a million blocks).
#
# Writes COUNT addresses (default 10 million) with lookup-addresses.py (95%
# inside random blocks, 5% anywhere in the mapped span). First runs
# bbmap-dump once per thread count (the default: every hardware thread, and
# --threads=1) into files and checks with cmp that the outputs are
# identical (and identical to the baseline build's, if given). Then runs
# each REPS times with `--lookup-stats`, output to a file in bench/out, and
# reports medians of: end-to-end rate (addresses / wall time of the whole
# command: parsing, decoding, indexing, look-ups and printing), the look-up
# loop's rate per thread (bbmap-dump's own timer around the loop, no
# parsing or printing), parse time, output rate (bytes / wall second) and
# peak RSS; and, in the same run, the ceiling: the time to write the same
# number of bytes from memory to the same file, 64 KiB per write().
#
# The same is done for the JSON output on the first COUNT/10 addresses.
# BBMAP_DUMP_BASELINE=PATH adds rows for another bbmap-dump build in the
# same run, e.g. one from before the hand-written parser and JSON writer
# (a2594d2: lines split and trimmed with StringRef, JSON through
# llvm::json::OStream, one thread).
#
# There is no stock tool that maps an address to a basic block; as a point
# of reference the same run times llvm-symbolizer-22 (address -> function
# name, --no-inlines, no debug info) on the first 1% of the addresses.
#
# Usage: bench/lookup-speed.sh [--reps N] [--count N] [--markdown]
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

reps=3 count=10000000 markdown=0
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --reps) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--reps needs a positive integer"
            reps=$2; shift ;;
    --count) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--count needs a positive integer"
             count=$2; shift ;;
    --markdown) markdown=1 ;;
    *) die "unknown argument '$1'" ;;
  esac
  shift
done
dump=$ROOT/build/llvm-22/bbmap-dump
[ -x "$dump" ] || die "no build/llvm-22/bbmap-dump (run scripts/build.sh 22)"

"$BENCH/large-input.sh" "$OUT/large"
exe=$OUT/large/large.exe
out=$OUT/lookup
addrs=$out/addresses-$count.txt
mkdir -p "$out"
if [ ! -f "$addrs" ] || [ "$addrs" -ot "$exe" ]; then
  "$dump" --bb-addr-map --output-style=json "$exe" |
    python3 "$BENCH/lookup-addresses.py" "$count" "$addrs"
fi
json_count=$((count / 10))
json_addrs=$out/addresses-json-$json_count.txt
head -n "$json_count" "$addrs" >"$json_addrs"

runs=(bbmap bbmap1)
declare -A label=([bbmap]="bbmap-dump" [bbmap1]="bbmap-dump --threads=1")
declare -A cmd=([bbmap]="$dump" [bbmap1]="$dump --threads=1")
if [ -n "${BBMAP_DUMP_BASELINE:-}" ]; then
  [ -x "$BBMAP_DUMP_BASELINE" ] || die "BBMAP_DUMP_BASELINE: no $BBMAP_DUMP_BASELINE"
  runs+=(baseline)
  label[baseline]="baseline bbmap-dump"
  cmd[baseline]=$BBMAP_DUMP_BASELINE
fi
declare -A style=([text]="" [json]="--output-style=json")
declare -A input=([text]=$addrs [json]=$json_addrs)
declare -A n=([text]=$count [json]=$json_count)

# check STYLE: every run's output identical; sets bytes[STYLE].
declare -A bytes
check() {
  local s=$1 r first=
  for r in "${runs[@]}"; do
    # shellcheck disable=SC2086 # the commands are word lists
    ${cmd[$r]} ${style[$s]} --lookup-file="${input[$s]}" "$exe" >"$out/$r.$s.out"
    if [ -z "$first" ]; then first=$r; continue; fi
    cmp "$out/$first.$s.out" "$out/$r.$s.out" ||
      die "$s: ${label[$r]}'s output differs from ${label[$first]}'s (see $out)"
  done
  bytes[$s]=$(wc -c <"$out/$first.$s.out")
  lines=$(grep -vc '^#' "$out/$first.$s.out" || true)
  [ "$s" != text ] || [ "$lines" = "$count" ] ||
    die "bbmap-dump printed $lines results for $count addresses"
  echo "$s: outputs of ${runs[*]} identical (${bytes[$s]} bytes)"
  rm -f "$out"/*."$s".out
}

# run_timed NAME STYLE CMD...: one run; appends "wall rss loop_rate parse"
# to $out/NAME.
run_timed() {
  local name=$1 s=$2; shift 2
  python3 -c '
import os, re, sys, time
sink, stats = sys.argv[1], sys.argv[2]
start = time.perf_counter()
pid = os.posix_spawnp(sys.argv[3], sys.argv[3:], os.environ, file_actions=[
    (os.POSIX_SPAWN_OPEN, 1, sink, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644),
    (os.POSIX_SPAWN_OPEN, 2, stats, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)])
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - start
if os.waitstatus_to_exitcode(status):
    sys.exit("failed: " + " ".join(sys.argv[3:]))
text = open(stats).read()
rate = re.search(r"\(([0-9.]+) M/s", text)
parse = re.search(r"parsed [0-9]+ addresses in ([0-9.]+) s", text)
print("%.4f %d %s %s" % (wall, usage.ru_maxrss, rate.group(1) if rate else "-",
                         parse.group(1) if parse else "-"))' \
    "$out/result" "$out/stats" "$@" >>"$out/$name"
}

# ceiling NAME BYTES: writing BYTES from memory to the result file.
ceiling() { write_ceiling "$out/result" "$2" >>"$out/$1"; }

for s in text json; do check "$s"; done
rm -f "$out"/*.times
for ((i = 1; i <= reps; i++)); do
  for s in text json; do
    for r in "${runs[@]}"; do
      # shellcheck disable=SC2086
      run_timed "$r.$s.times" "$s" ${cmd[$r]} ${style[$s]} \
        --lookup-file="${input[$s]}" --lookup-stats "$exe"
    done
    ceiling "ceiling.$s.times" "${bytes[$s]}"
  done
done

head -n $((count / 100)) "$addrs" >"$out/sym-addresses.txt"
sym_wall=$( { /usr/bin/time -f '%e' llvm-symbolizer-22 --no-inlines \
  --obj="$exe" <"$out/sym-addresses.txt" >/dev/null; } 2>&1 | tail -n 1)
sym=$(awk -v n=$((count / 100)) -v w="$sym_wall" 'BEGIN { printf "%.3f", n / w / 1e6 }')

# column NAME K: the median of column K of $out/NAME.
column() { awk -v k="$2" '$k != "-" { print $k }' "$out/$1" | median; }
blocks=$(sed -n 's/^blocks //p' "$OUT/large/large.counts")
echo
echo "look-ups on $blocks blocks, medians of $reps runs, output to a file, $(nproc) hardware threads:"
printf '%-5s %-9s %-22s %8s %10s %10s %8s %8s %9s\n' style addresses run "wall s" "M addr/s" "loop M/s" "parse s" "GB/s" "RSS MiB"
rows=()
for s in text json; do
  for r in "${runs[@]}"; do
    w=$(column "$r.$s.times" 1)
    loop=$(column "$r.$s.times" 3 2>/dev/null || echo -)
    parse=$(column "$r.$s.times" 4 2>/dev/null || echo -)
    rss=$(awk -v k="$(column "$r.$s.times" 2)" 'BEGIN { printf "%.0f", k / 1024 }')
    e2e=$(awk -v n="${n[$s]}" -v w="$w" 'BEGIN { printf "%.2f", n / w / 1e6 }')
    gbs=$(awk -v b="${bytes[$s]}" -v w="$w" 'BEGIN { printf "%.2f", b / w / 1e9 }')
    printf '%-5s %-9s %-22s %8s %10s %10s %8s %8s %9s\n' "$s" "${n[$s]}" "${label[$r]}" "$w" "$e2e" "$loop" "$parse" "$gbs" "$rss"
    rows+=("| $s | ${n[$s]} | ${label[$r]} | $w | $e2e | $loop | $parse | $gbs | $rss |")
  done
  cw=$(column "ceiling.$s.times" 1)
  cg=$(awk -v b="${bytes[$s]}" -v w="$cw" 'BEGIN { printf "%.2f", b / w / 1e9 }')
  printf '%-5s %-9s %-22s %8s %10s %10s %8s %8s\n' "$s" "${n[$s]}" "ceiling (${bytes[$s]} B)" "$cw" - - - "$cg"
  rows+=("| $s | ${n[$s]} | ceiling: ${bytes[$s]} bytes from memory to the file | $cw | - | - | - | $cg | - |")
done
echo "llvm-symbolizer-22, address -> function, $((count / 100)) addresses: $sym M/s"
if [ $markdown = 1 ]; then
  echo
  echo "| style | addresses | run | wall s | M addresses/s (end to end) | look-up loop M/s per thread | parse s | output GB/s | peak RSS MiB |"
  echo "|---|---:|---|---:|---:|---:|---:|---:|---:|"
  printf '%s\n' "${rows[@]}"
  echo
  echo "llvm-symbolizer-22 (function names only, $((count / 100)) addresses): $sym M/s"
fi
