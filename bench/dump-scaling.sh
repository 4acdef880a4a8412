#!/usr/bin/env bash
# dump-scaling.sh - how bbmap-dump's time and memory grow from a 1 M-block
# to a 10 M-block map (bench/large-input.sh, the second ten times larger),
# for the LLVM 19 and 22 builds, on every hardware thread and on one.
#
# For each input, build (build/llvm-19, build/llvm-22) and style (LLVM text
# and JSON), the outputs of the default thread count and of --threads=1 are
# first checked identical to the LLVM 22 build's (by SHA-256, the 10 M
# outputs are gigabytes); then each run is timed REPS times with stdout to
# /dev/null (median wall, CPU, peak RSS from wait4). Reported: the time per
# million blocks and its ratio between the two inputs (1.00 = linear), the
# peak RSS above the tool's start-up RSS (`--version`) against the size of
# the map section (streaming: the section is the largest thing read, and the
# decoded records are not kept), and llvm-readobj-22 on the same inputs
# (text) for reference. The script asserts nothing about speed.
#
# Usage: bench/dump-scaling.sh [--reps N] [--markdown]
#   --reps N     runs per measurement (default 3)
#   --markdown   also print the results as a markdown table
# Inputs go to bench/out/large/ and bench/out/large-10000000/ (the larger
# takes a few minutes to build once); outputs to bench/out/dump-scaling/.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

reps=3 markdown=0
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --reps) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--reps needs a positive integer"
            reps=$2; shift ;;
    --markdown) markdown=1 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
  shift
done
for n in 19 22; do
  [ -x "$ROOT/build/llvm-$n/bbmap-dump" ] || die "no build/llvm-$n/bbmap-dump (run: ninja -C build/llvm-$n)"
done
out=$OUT/dump-scaling
rm -rf "$out" && mkdir -p "$out"

"$BENCH/large-input.sh" "$OUT/large" 1000000
"$BENCH/large-input.sh" "$OUT/large-10000000" 10000000
declare -A input=([1M]=$OUT/large/large.exe [10M]=$OUT/large-10000000/large.exe)
declare -A counts=([1M]=$OUT/large/large.counts [10M]=$OUT/large-10000000/large.counts)

# measure NAME CMD...: REPS runs of CMD, stdout to /dev/null; prints the
# medians "WALL CPU RSS_KIB".
measure() {
  local name=$1; shift
  python3 -c '
import os, statistics, sys, time
reps, cmd = int(sys.argv[1]), sys.argv[2:]
walls, cpus, rss = [], [], []
for _ in range(reps):
    start = time.perf_counter()
    pid = os.posix_spawnp(cmd[0], cmd, os.environ, file_actions=[
        (os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0)])
    _, status, usage = os.wait4(pid, 0)
    walls.append(time.perf_counter() - start)
    if os.waitstatus_to_exitcode(status):
        sys.exit("failed: " + " ".join(cmd))
    cpus.append(usage.ru_utime + usage.ru_stime)
    rss.append(usage.ru_maxrss)
print("%.4f %.4f %d" % (statistics.median(walls), statistics.median(cpus),
                        statistics.median(rss)))' "$reps" "$@" | tee "$out/$name"
}

# map_bytes FILE: the size of FILE's .llvm_bb_addr_map section.
# section_bytes FILE NAME...: the total size of FILE's sections NAME...
section_bytes() {
  local file=$1 total=0 hex; shift
  for hex in $(llvm-readelf-22 -S --wide "$file" |
      awk -v names=" $* " 'index(names, " " $2 " ") { print $6 }'); do
    total=$((total + 16#$hex))
  done
  echo "$total"
}

runs=(22 22.t1 19 19.t1)
declare -A runcmd=([22]="$ROOT/build/llvm-22/bbmap-dump"
  [22.t1]="$ROOT/build/llvm-22/bbmap-dump --threads=1"
  [19]="$ROOT/build/llvm-19/bbmap-dump"
  [19.t1]="$ROOT/build/llvm-19/bbmap-dump --threads=1")
declare -A stylearg=([text]="--bb-addr-map" [json]="--bb-addr-map --output-style=json")

for size in 1M 10M; do
  for s in text json; do
    want=
    for r in "${runs[@]}"; do
      # shellcheck disable=SC2086 # the commands are word lists
      sum=$(${runcmd[$r]} ${stylearg[$s]} "${input[$size]}" | sha256sum | cut -c1-16)
      [ -n "$want" ] || want=$sum
      [ "$sum" = "$want" ] || die "$size $s: bbmap-dump $r differs from the LLVM 22 build's"
    done
    echo "$size $s: outputs of every build and thread count identical ($want)"
  done
done

rows=()
printf '%-4s %-5s %-26s %8s %8s %9s %10s %12s\n' size style run "wall s" "cpu s" "RSS MiB" "s/M blocks" "RSS-start MiB"
for r in "${runs[@]}"; do
  # shellcheck disable=SC2086
  read -r _ _ base < <(measure "start.$r" ${runcmd[$r]} --version)
  for s in text json; do
    declare -A per=()
    for size in 1M 10M; do
      blocks=$(sed -n 's/^blocks //p' "${counts[$size]}")
      # shellcheck disable=SC2086
      read -r w c k < <(measure "$size.$s.$r" ${runcmd[$r]} ${stylearg[$s]} "${input[$size]}")
      per[$size]=$(awk -v w="$w" -v b="$blocks" 'BEGIN { printf "%.4f", w / b * 1e6 }')
      grow=$(awk -v k="$k" -v b="$base" 'BEGIN { printf "%.1f", (k - b) / 1024 }')
      printf '%-4s %-5s %-26s %8s %8s %9s %10s %12s\n' "$size" "$s" "bbmap-dump-$r" "$w" "$c" \
        "$(awk -v k="$k" 'BEGIN { printf "%.1f", k / 1024 }')" "${per[$size]}" "$grow"
      rows+=("| $size | $s | bbmap-dump ${r/.t1/ --threads=1} (LLVM ${r%%.*}) | $w | $c | $(awk -v k="$k" 'BEGIN { printf "%.1f", k / 1024 }') | $grow | ${per[$size]} |")
    done
    echo "     $s bbmap-dump-$r: time per block 10M/1M = $(awk -v a="${per[10M]}" -v b="${per[1M]}" 'BEGIN { printf "%.2f", a / b }')"
  done
done
for size in 1M 10M; do
  read -r w c k < <(measure "$size.readobj" llvm-readobj-22 --bb-addr-map "${input[$size]}")
  blocks=$(sed -n 's/^blocks //p' "${counts[$size]}")
  rows+=("| $size | text | llvm-readobj-22 | $w | $c | $(awk -v k="$k" 'BEGIN { printf "%.1f", k / 1024 }') | - | $(awk -v w="$w" -v b="$blocks" 'BEGIN { printf "%.4f", w / b * 1e6 }') |")
  printf '%-4s %-5s %-26s %8s %8s %9s\n' "$size" text llvm-readobj-22 "$w" "$c" \
    "$(awk -v k="$k" 'BEGIN { printf "%.1f", k / 1024 }')"
done
mib() { awk -v b="$1" 'BEGIN { printf "%.1f MiB", b / 1048576 }'; }
for size in 1M 10M; do
  echo "$size: $(sed -n 's/^blocks //p' "${counts[$size]}") blocks, map section $(mib "$(section_bytes "${input[$size]}" .llvm_bb_addr_map)"), .symtab and .strtab $(mib "$(section_bytes "${input[$size]}" .symtab .strtab)"), file $(mib "$(stat -c %s "${input[$size]}")")"
done

if [ "$markdown" -eq 1 ]; then
  echo
  echo "Medians of $reps runs, stdout to /dev/null, $(nproc) hardware threads:"
  echo
  echo "| input | style | run | wall s | CPU s | peak RSS MiB | RSS above start-up MiB | wall s per M blocks |"
  echo "|---|---|---|---:|---:|---:|---:|---:|"
  printf '%s\n' "${rows[@]}"
fi
