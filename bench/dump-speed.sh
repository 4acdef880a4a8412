#!/usr/bin/env bash
# dump-speed.sh - bbmap-dump versus llvm-readobj-22 on a map of over a
# million basic blocks (bench/large-input.sh), same file, same run.
#
# For each output style both tools print byte for byte alike (LLVM text:
# `--bb-addr-map`; JSON: llvm-readobj's `--elf-output-style=JSON`, bbmap-dump's
# `--output-style=json`), first runs each tool once into a file and checks
# with cmp that the outputs are identical (the script fails if not), then
# runs the two tools alternately REPS times with stdout to /dev/null (both
# write the same bytes; /dev/null keeps the file system out of the timing),
# and reports per tool the median wall and user seconds and the median peak
# RSS (from wait4's rusage, microsecond resolution), with the ratios
# readobj/bbmap for time (speed-up) and bbmap/readobj for memory. `--output-style=table` has no llvm-readobj
# counterpart; its times are reported alone. The script asserts nothing
# about speed.
#
# Usage: bench/dump-speed.sh [--reps N] [--markdown] [--min-blocks N]
#   --reps N        runs per tool and style (default 7)
#   --markdown      also print the results as a markdown table
#   --min-blocks N  size of the input (default 1000000)
# Needs build/llvm-22 (bbmap-dump and the plugin); BBMAP_DUMP=PATH times
# another bbmap-dump binary (e.g. an older build; without the table style,
# that style is skipped). Outputs go to bench/out/dump-speed/, the input
# to bench/out/large/.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

reps=7 markdown=0 min_blocks=1000000
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --reps) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--reps needs a positive integer"
            reps=$2; shift ;;
    --min-blocks) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--min-blocks needs a positive integer"
                  min_blocks=$2; shift ;;
    --markdown) markdown=1 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
  shift
done
dump=${BBMAP_DUMP:-$ROOT/build/llvm-22/bbmap-dump}
[ -x "$dump" ] || die "no $dump (run: ninja -C build/llvm-22)"
command -v llvm-readobj-22 >/dev/null || die "llvm-readobj-22 not found"

"$BENCH/large-input.sh" "$OUT/large" "$min_blocks"
input=$OUT/large/large.exe
out=$OUT/dump-speed
rm -rf "$out" && mkdir -p "$out"

# The commands of each style; a style without a readobj command has no
# llvm-readobj counterpart.
styles=(text json table)
# An older bbmap-dump without the table style is timed on the other two.
"$dump" --help | grep -q '=table' || styles=(text json)
declare -A readobj=(
  [text]="llvm-readobj-22 --bb-addr-map"
  [json]="llvm-readobj-22 --elf-output-style=JSON --bb-addr-map")
declare -A bbmap=(
  [text]="$dump --bb-addr-map"
  [json]="$dump --output-style=json --bb-addr-map"
  [table]="$dump --output-style=table --bb-addr-map")

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
seconds() { awk -v s="$1" 'BEGIN { printf "%.3f", s }'; }

# run_timed NAME CMD...: one run of CMD on the input, stdout to /dev/null;
# appends wall, user and peak RSS (KiB) to $out/NAME.{wall,user,rss}.
run_timed() {
  local name=$1 wall user rss; shift
  python3 -c '
import os, sys, time
start = time.perf_counter()
pid = os.posix_spawnp(sys.argv[1], sys.argv[1:], os.environ, file_actions=[
    (os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0)])
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - start
if os.waitstatus_to_exitcode(status):
    sys.exit("failed: " + " ".join(sys.argv[1:]))
print("%.4f %.4f %d" % (wall, usage.ru_utime, usage.ru_maxrss))' \
    "$@" "$input" >"$out/time"
  read -r wall user rss <"$out/time"
  echo "$wall" >>"$out/$name.wall"
  echo "$user" >>"$out/$name.user"
  echo "$rss" >>"$out/$name.rss"
}

# check_identical STYLE: runs both tools once into files and compares them.
check_identical() {
  local s=$1
  # shellcheck disable=SC2086 # the commands are word lists
  ${readobj[$s]} "$input" >"$out/readobj.$s"
  # shellcheck disable=SC2086
  ${bbmap[$s]} "$input" >"$out/bbmap.$s"
  cmp "$out/readobj.$s" "$out/bbmap.$s" ||
    die "$s: bbmap-dump's output differs from llvm-readobj-22's (see $out)"
  echo "$s: outputs identical ($(wc -c <"$out/bbmap.$s") bytes)"
}

for s in "${styles[@]}"; do
  if [ -n "${readobj[$s]:-}" ]; then
    check_identical "$s"
  else
    # shellcheck disable=SC2086
    ${bbmap[$s]} "$input" >"$out/bbmap.$s"
    echo "$s: bbmap-dump only ($(wc -c <"$out/bbmap.$s") bytes)"
  fi
done
rm -f "$out"/readobj.* "$out"/bbmap.*

echo "timing: $reps runs per tool and style, alternating, stdout to /dev/null"
for ((r = 1; r <= reps; r++)); do
  for s in "${styles[@]}"; do
    # shellcheck disable=SC2086
    [ -z "${readobj[$s]:-}" ] || run_timed "readobj.$s" ${readobj[$s]}
    # shellcheck disable=SC2086
    run_timed "bbmap.$s" ${bbmap[$s]}
  done
done

# stats NAME: "WALL USER RSS_MIB" medians.
stats() {
  printf '%s %s %s\n' "$(seconds "$(median <"$out/$1.wall")")" \
    "$(seconds "$(median <"$out/$1.user")")" \
    "$(awk -v k="$(median <"$out/$1.rss")" 'BEGIN { printf "%.1f", k / 1024 }')"
}

blocks=$(sed -n 's/^blocks //p' "$OUT/large/large.counts")
funcs=$(sed -n 's/^functions //p' "$OUT/large/large.counts")
echo
echo "input: $input ($funcs functions, $blocks blocks)"
printf '%-6s %-16s %8s %8s %10s\n' style tool "wall s" "user s" "RSS MiB"
md_rows=()
for s in "${styles[@]}"; do
  read -r bw bu bm < <(stats "bbmap.$s")
  if [ -z "${readobj[$s]:-}" ]; then
    printf '%-6s %-16s %8s %8s %10s\n' "$s" bbmap-dump "$bw" "$bu" "$bm"
    md_rows+=("| $s | - | $bw / $bu / $bm | - | - | - |")
    continue
  fi
  read -r rw ru rm_ < <(stats "readobj.$s")
  printf '%-6s %-16s %8s %8s %10s\n' "$s" llvm-readobj-22 "$rw" "$ru" "$rm_"
  printf '%-6s %-16s %8s %8s %10s\n' "$s" bbmap-dump "$bw" "$bu" "$bm"
  printf '%-6s %-16s %7sx %7sx %10s\n' "$s" "speed-up/memory" \
    "$(ratio "$rw" "$bw")" "$(ratio "$ru" "$bu")" "$(ratio "$bm" "$rm_")"
  md_rows+=("| $s | $rw / $ru / $rm_ | $bw / $bu / $bm | $(ratio "$rw" "$bw")x | $(ratio "$ru" "$bu")x | $(ratio "$bm" "$rm_") |")
done

if [ "$markdown" -eq 1 ]; then
  echo
  echo "Medians of $reps alternating runs on $funcs functions / $blocks blocks (wall s / user s / peak RSS MiB):"
  echo
  echo "| output | llvm-readobj-22 | bbmap-dump | speed-up (wall) | speed-up (user) | memory bbmap/readobj |"
  echo "|---|---:|---:|---:|---:|---:|"
  printf '%s\n' "${md_rows[@]}"
fi
