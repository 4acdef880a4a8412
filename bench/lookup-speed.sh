#!/usr/bin/env bash
# lookup-speed.sh - throughput of `bbmap-dump --lookup-file` on the large
# input of bench/large-input.sh (over a million blocks).
#
# Writes COUNT addresses (default 10 million) with lookup-addresses.py (95%
# inside random blocks, 5% anywhere in the mapped span), then runs
# `bbmap-dump --lookup-file --lookup-stats` REPS times pinned to one core
# (taskset -c 0), output to a file in bench/out. Reports medians of: look-up
# rate without parsing or printing (bbmap-dump's own timer around the
# look-up loop), end-to-end rate (addresses / wall time of the whole
# command, parsing, decoding and printing included) and peak RSS.
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
[ -x /usr/bin/time ] || die "needs GNU time: apt-get install time"
dump=$ROOT/build/llvm-22/bbmap-dump
[ -x "$dump" ] || die "no build/llvm-22/bbmap-dump (run scripts/build.sh 22)"

"$BENCH/large-input.sh" "$OUT/large"
exe=$OUT/large/large.exe
addrs=$OUT/lookup/addresses-$count.txt
mkdir -p "$OUT/lookup"
if [ ! -f "$addrs" ] || [ "$addrs" -ot "$exe" ]; then
  "$dump" --bb-addr-map --output-style=json "$exe" |
    python3 "$BENCH/lookup-addresses.py" "$count" "$addrs"
fi


rates=() walls=() rss=()
for ((i = 1; i <= reps; i++)); do
  stats=$OUT/lookup/stats.txt
  /usr/bin/time -o "$OUT/lookup/time.txt" -f '%e %M' taskset -c 0 \
    "$dump" --lookup-file="$addrs" --lookup-stats "$exe" \
    >"$OUT/lookup/result.txt" 2>"$stats"
  rates+=("$(sed -n 's/.*in [0-9.]* s (\([0-9.]*\) M\/s).*/\1/p' "$stats")")
  read -r wall mem <"$OUT/lookup/time.txt"
  walls+=("$wall") rss+=("$mem")
  echo "run $i: $(tail -n 1 "$stats" | sed 's/^bbmap-dump: //'); wall $wall s, peak RSS $((mem / 1024)) MB"
done
lines=$(grep -vc '^#' "$OUT/lookup/result.txt")
[ "$lines" = "$count" ] || die "bbmap-dump printed $lines results for $count addresses"

head -n $((count / 100)) "$addrs" >"$OUT/lookup/sym-addresses.txt"
sym_wall=$( { /usr/bin/time -f '%e' taskset -c 0 llvm-symbolizer-22 --no-inlines \
  --obj="$exe" <"$OUT/lookup/sym-addresses.txt" >/dev/null; } 2>&1 | tail -n 1)

rate=$(printf '%s\n' "${rates[@]}" | median)
wall=$(printf '%s\n' "${walls[@]}" | median)
mem=$(printf '%s\n' "${rss[@]}" | median)
e2e=$(awk -v n="$count" -v w="$wall" 'BEGIN { printf "%.2f", n / w / 1e6 }')
sym=$(awk -v n=$((count / 100)) -v w="$sym_wall" 'BEGIN { printf "%.3f", n / w / 1e6 }')
blocks=$(sed -n 's/^blocks //p' "$OUT/large/large.counts")
echo
echo "$count look-ups on $blocks blocks, median of $reps runs, one core:"
echo "  look-up only:   $rate M/s"
echo "  end to end:     $e2e M/s ($wall s wall, peak RSS $((mem / 1024)) MB)"
echo "  llvm-symbolizer-22, address -> function, $((count / 100)) addresses: $sym M/s"
if [ $markdown = 1 ]; then
  echo
  echo "| addresses | blocks | look-up only | end to end | peak RSS | llvm-symbolizer-22 (functions only) |"
  echo "|---|---|---|---|---|---|"
  echo "| $count | $blocks | $rate M/s | $e2e M/s ($wall s) | $((mem / 1024)) MB | $sym M/s |"
fi
