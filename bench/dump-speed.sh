#!/usr/bin/env bash
# dump-speed.sh - bbmap-dump versus llvm-readobj-22 on a map of over a
# million basic blocks (bench/large-input.sh), same file, same run, and
# against the ceiling: writing the same bytes from memory to the same sink.
#
# For each output style both tools print byte for byte alike (LLVM text:
# `--bb-addr-map`; JSON: llvm-readobj's `--elf-output-style=JSON`, bbmap-dump's
# `--output-style=json`), first runs each tool once into a file and checks
# with cmp that the outputs are identical, bbmap-dump's with the default
# thread count and with --threads=1 (the script fails if not). Then it runs
# llvm-readobj-22, bbmap-dump (default: every hardware thread) and
# `bbmap-dump --threads=1` alternately REPS times with stdout to the sink,
# and reports per run the median wall and CPU (user + system) seconds and
# the median peak RSS (from wait4's rusage), the output rate in bytes per
# wall second, the ratios readobj/bbmap for time (speed-up) and
# bbmap/readobj for memory, and the ceiling: the median time, in the same
# run, for one process to write the same number of bytes from a buffer in
# memory to the same sink, 64 KiB per write() as bbmap-dump writes (no
# formatter can beat it; it includes opening and truncating the sink, as
# the tools' runs do, but no process start-up).
# `--output-style=table` has no llvm-readobj counterpart; its times are
# reported alone. The script asserts nothing about speed.
#
# Usage: bench/dump-speed.sh [--reps N] [--markdown] [--min-blocks N]
#                            [--sink null|file]
#   --reps N        runs per tool and style (default 7)
#   --markdown      also print the results as a markdown table
#   --min-blocks N  size of the input (default 1000000)
#   --sink S        null: /dev/null (default); file: a file under
#                   bench/out/dump-speed/ (the page cache)
# Needs build/llvm-22 (bbmap-dump and the plugin); BBMAP_DUMP=PATH times
# another bbmap-dump binary (e.g. an older build: styles or options it lacks
# are skipped). BBMAP_DUMP_BASELINE=PATH adds a row per style for that
# binary with the default thread count, in the same run (e.g. a build from
# before a fast path, to show what the plain LLVM facility costs). Outputs go to bench/out/dump-speed/, the input to
# bench/out/large/ (bench/out/large-N/ for another --min-blocks).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

reps=7 markdown=0 min_blocks=1000000 sink_kind=null
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --reps) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--reps needs a positive integer"
            reps=$2; shift ;;
    --min-blocks) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--min-blocks needs a positive integer"
                  min_blocks=$2; shift ;;
    --sink) [[ ${2:-} =~ ^(null|file)$ ]] || die "--sink needs null or file"
            sink_kind=$2; shift ;;
    --markdown) markdown=1 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
  shift
done
dump=${BBMAP_DUMP:-$ROOT/build/llvm-22/bbmap-dump}
[ -x "$dump" ] || die "no $dump (run: ninja -C build/llvm-22)"
command -v llvm-readobj-22 >/dev/null || die "llvm-readobj-22 not found"

large=$OUT/large
[ "$min_blocks" = 1000000 ] || large=$OUT/large-$min_blocks
"$BENCH/large-input.sh" "$large" "$min_blocks"
input=$large/large.exe
out=$OUT/dump-speed
rm -rf "$out" && mkdir -p "$out"
sink=/dev/null
[ "$sink_kind" = null ] || sink=$out/sink

# The commands of each style and tool; a style without a readobj command has
# no llvm-readobj counterpart.
styles=(text json table)
"$dump" --help | grep -q '=table' || styles=(text json)
threads_flag=--threads=1
"$dump" --help | grep -q -- '--threads' || threads_flag=
declare -A cmd=(
  [readobj.text]="llvm-readobj-22 --bb-addr-map"
  [readobj.json]="llvm-readobj-22 --elf-output-style=JSON --bb-addr-map"
  [bbmap.text]="$dump --bb-addr-map"
  [bbmap.json]="$dump --output-style=json --bb-addr-map"
  [bbmap.table]="$dump --output-style=table --bb-addr-map")
tools=(readobj bbmap)
if [ -n "$threads_flag" ]; then
  tools+=(bbmap1)
  for s in "${styles[@]}"; do cmd[bbmap1.$s]="${cmd[bbmap.$s]} $threads_flag"; done
fi
declare -A label=([readobj]=llvm-readobj-22 [bbmap]="bbmap-dump"
  [bbmap1]="bbmap-dump --threads=1")
if [ -n "${BBMAP_DUMP_BASELINE:-}" ]; then
  base=$BBMAP_DUMP_BASELINE
  [ -x "$base" ] || die "BBMAP_DUMP_BASELINE: no $base"
  tools+=(baseline)
  label[baseline]="baseline bbmap-dump"
  cmd[baseline.text]="$base --bb-addr-map"
  cmd[baseline.json]="$base --output-style=json --bb-addr-map"
  ! "$base" --help | grep -q '=table' ||
    cmd[baseline.table]="$base --output-style=table --bb-addr-map"
fi

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
seconds() { awk -v s="$1" 'BEGIN { printf "%.3f", s }'; }
rate() { awk -v b="$1" -v s="$2" 'BEGIN { printf "%.2f", b / s / 1e9 }'; }

# run_timed NAME CMD...: one run of CMD on the input, stdout to the sink;
# appends wall, CPU and peak RSS (KiB) to $out/NAME.{wall,cpu,rss}.
run_timed() {
  local name=$1 wall cpu rss; shift
  python3 -c '
import os, sys, time
sink = sys.argv[1]
start = time.perf_counter()
pid = os.posix_spawnp(sys.argv[2], sys.argv[2:], os.environ, file_actions=[
    (os.POSIX_SPAWN_OPEN, 1, sink, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)])
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - start
if os.waitstatus_to_exitcode(status):
    sys.exit("failed: " + " ".join(sys.argv[2:]))
print("%.4f %.4f %d" % (wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss))' \
    "$sink" "$@" "$input" >"$out/time"
  read -r wall cpu rss <"$out/time"
  echo "$wall" >>"$out/$name.wall"
  echo "$cpu" >>"$out/$name.cpu"
  echo "$rss" >>"$out/$name.rss"
}

# ceiling NAME BYTES: the time to write BYTES from memory to the sink, 64 KiB
# per write(), appended to $out/NAME.wall.
ceiling() { write_ceiling "$sink" "$2" >>"$out/$1.wall"; }

# check_identical STYLE: runs every tool once into files and compares them.
declare -A bytes
check_identical() {
  local s=$1 t first=
  for t in "${tools[@]}"; do
    [ -n "${cmd[$t.$s]:-}" ] || continue
    # shellcheck disable=SC2086 # the commands are word lists
    ${cmd[$t.$s]} "$input" >"$out/$t.$s"
    if [ -z "$first" ]; then
      first=$t
    else
      cmp "$out/$first.$s" "$out/$t.$s" ||
        die "$s: ${label[$t]}'s output differs from ${label[$first]}'s (see $out)"
    fi
  done
  bytes[$s]=$(wc -c <"$out/$first.$s")
  echo "$s: outputs of ${tools[*]} identical (${bytes[$s]} bytes)"
}

for s in "${styles[@]}"; do check_identical "$s"; done
rm -f "$out"/readobj.* "$out"/bbmap.* "$out"/bbmap1.*

echo "timing: $reps runs per tool and style, alternating, stdout to $sink"
# Start-up alone: `--version` of each binary (no input).
declare -A startcmd=([readobj]="llvm-readobj-22 --version" [bbmap]="$dump --version")
[ -z "${BBMAP_DUMP_BASELINE:-}" ] || startcmd[baseline]="$BBMAP_DUMP_BASELINE --version"
for ((r = 1; r <= reps; r++)); do
  for t in "${!startcmd[@]}"; do
    # shellcheck disable=SC2086
    input=/dev/null run_timed "start.$t" ${startcmd[$t]}
  done
done
for ((r = 1; r <= reps; r++)); do
  for s in "${styles[@]}"; do
    for t in "${tools[@]}"; do
      # shellcheck disable=SC2086
      [ -z "${cmd[$t.$s]:-}" ] || run_timed "$t.$s" ${cmd[$t.$s]}
    done
    ceiling "ceiling.$s" "${bytes[$s]}"
  done
done

# stats NAME: "WALL CPU RSS_MIB" medians.
stats() {
  printf '%s %s %s\n' "$(seconds "$(median <"$out/$1.wall")")" \
    "$(seconds "$(median <"$out/$1.cpu")")" \
    "$(awk -v k="$(median <"$out/$1.rss")" 'BEGIN { printf "%.1f", k / 1024 }')"
}

blocks=$(sed -n 's/^blocks //p' "$large/large.counts")
funcs=$(sed -n 's/^functions //p' "$large/large.counts")
echo
echo "input: $input ($funcs functions, $blocks blocks); sink: $sink; $(nproc) hardware threads"
printf '%-6s %-24s %8s %8s %9s %8s %9s %9s\n' style run "wall s" "cpu s" "RSS MiB" "GB/s" speed-up memory
md_rows=()
for s in "${styles[@]}"; do
  rw= rm_=
  if [ -n "${cmd[readobj.$s]:-}" ]; then read -r rw _ rm_ < <(stats "readobj.$s"); fi
  for t in "${tools[@]}"; do
    [ -n "${cmd[$t.$s]:-}" ] || continue
    read -r w c m < <(stats "$t.$s")
    up=- mem=-
    if [ -n "$rw" ] && [ "$t" != readobj ]; then up=$(ratio "$rw" "$w")x mem=$(ratio "$m" "$rm_"); fi
    printf '%-6s %-24s %8s %8s %9s %8s %9s %9s\n' "$s" "${label[$t]}" "$w" "$c" "$m" \
      "$(rate "${bytes[$s]}" "$w")" "$up" "$mem"
    md_rows+=("| $s | ${label[$t]} | $w | $c | $m | $(rate "${bytes[$s]}" "$w") | $up | $mem |")
  done
  cw=$(median <"$out/ceiling.$s.wall")
  printf '%-6s %-24s %8s %8s %9s %8s\n' "$s" "ceiling (write from memory)" \
    "$(awk -v s="$cw" 'BEGIN { printf "%.4f", s }')" - - "$(rate "${bytes[$s]}" "$cw")"
  md_rows+=("| $s | ceiling: ${bytes[$s]} bytes from memory to the sink | $(awk -v s="$cw" 'BEGIN { printf "%.4f", s }') | - | - | $(rate "${bytes[$s]}" "$cw") | - | - |")
done

echo
for t in readobj bbmap baseline; do
  [ -n "${startcmd[$t]:-}" ] || continue
  read -r w c m < <(stats "start.$t")
  echo "start-up (--version) of ${label[$t]}: $w s wall, $m MiB peak RSS"
  md_rows+=("| start-up | ${label[$t]} --version | $w | $c | $m | - | - | - |")
done

if [ "$markdown" -eq 1 ]; then
  echo
  echo "Medians of $reps alternating runs on $funcs functions / $blocks blocks, stdout to $sink, $(nproc) hardware threads:"
  echo
  echo "| output | run | wall s | CPU s | peak RSS MiB | GB/s (wall) | speed-up (wall) | memory / readobj |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|"
  printf '%s\n' "${md_rows[@]}"
fi
