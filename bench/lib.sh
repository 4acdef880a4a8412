# bench/lib.sh - helpers shared by the bench/ scripts (source it, do not run
# it): paths, usage text, LLVM major checks, the sqlite3 amalgamation
# (generated once from Debian's sqlite3 source package into bench/work/) and
# timing (median, timed, col, write_ceiling).
# shellcheck shell=bash disable=SC2034,SC2154 # the variables are the scripts' API; out, start and CFLAGS are theirs

BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$BENCH")
WORK=$BENCH/work
OUT=$BENCH/out
TOOLS=$ROOT/test/tools
export LC_ALL=C
# The plugin reads BBMAP_OPTIONS; the benches measure its defaults.
unset BBMAP_OPTIONS

die() { echo "$(basename "$0"): $*" >&2; exit 1; }

# Prints the calling script's header comment (line 2 up to the first
# non-comment line) without the leading '# '.
usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; }

# check_major N: N is a supported major whose tools and plugin build exist.
check_major() {
  case "$1" in 19|22) ;; *) die "unsupported LLVM major '$1' (use 19 or 22)" ;; esac
  command -v "clang-$1" >/dev/null || die "clang-$1 not found (run scripts/bootstrap.sh)"
  [ -f "$ROOT/build/llvm-$1/bbmap-plugin.so" ] ||
    die "no build/llvm-$1/bbmap-plugin.so (run: ninja -C build/llvm-$1)"
}

# fetch_sqlite: sets SQLITE to a directory holding sqlite3.c, sqlite3.h and
# shell.c. Debian's source package ships the canonical tree, not the
# amalgamation, so the first call runs `apt-get source` and then
# `./configure && make sqlite3.c shell.c` (needs tclsh); later calls reuse it.
fetch_sqlite() {
  mkdir -p "$WORK"
  SQLITE=$(find "$WORK" -maxdepth 1 -type d -name 'sqlite3-*' | sort | tail -n 1)
  if [ -n "$SQLITE" ] && [ -f "$SQLITE/sqlite3.c" ] && [ -f "$SQLITE/shell.c" ]; then
    return
  fi
  local log=$WORK/fetch.log
  echo "preparing the sqlite3 amalgamation in $WORK (log: $log)"
  : >"$log"
  if [ -z "$SQLITE" ]; then
    ("$ROOT/scripts/bootstrap.sh" --with-sources && cd "$WORK" &&
      apt-get source -q sqlite3) >>"$log" 2>&1 || die "apt-get source sqlite3 failed; see $log"
    SQLITE=$(find "$WORK" -maxdepth 1 -type d -name 'sqlite3-*' | sort | tail -n 1)
    [ -n "$SQLITE" ] || die "apt-get source sqlite3 unpacked no sqlite3-* directory"
  fi
  (cd "$SQLITE" && ./configure && make sqlite3.c shell.c) >>"$log" 2>&1 ||
    die "generating sqlite3.c/shell.c failed; see $log"
}

# speedtest_bench_dir NAME [SUBDIR...]: a bench on speedtest1 starts in a
# fresh $OUT/NAME (with bin/, log/ and each SUBDIR), entered, with the
# sqlite3 sources fetched (SQLITE) and copies of this tree's LLVM 22
# bbmap-profile and plugin in bin/, so that a rebuild during the run cannot
# mix versions. Sets out, build (the tree's LLVM 22 build), PROFILE, PLUGIN.
speedtest_bench_dir() {
  local f d
  build=${BBMAP_BUILD_DIR:-$ROOT/build}/llvm-22
  for f in bbmap-profile bbmap-plugin.so; do
    [ -f "$build/$f" ] || die "no $build/$f (run: scripts/build.sh 22)"
  done
  fetch_sqlite
  [ -f "$SQLITE/test/speedtest1.c" ] || die "no $SQLITE/test/speedtest1.c"
  out=$OUT/$1
  shift
  rm -rf "$out"
  mkdir -p "$out/bin" "$out/log"
  for d in "$@"; do mkdir -p "$out/$d"; done
  cd "$out"
  cp "$build/bbmap-profile" "$build/bbmap-plugin.so" bin/
  PROFILE=$out/bin/bbmap-profile PLUGIN=$out/bin/bbmap-plugin.so
}

# median: the median of the numbers on stdin, one per line (the mean of the
# two middle ones for an even count).
median() {
  sort -g | awk '{ v[NR] = $1 } END { print (v[int((NR + 1) / 2)] + v[int(NR / 2) + 1]) / 2 }'
}

# timed TAG CMD...: runs CMD once (its output dropped) under GNU time and
# appends "wall-seconds cpu-seconds peak-RSS-KiB" to TAG.times; dies if CMD
# fails.
timed() {
  local tag=$1; shift
  /usr/bin/time -o time.txt -f '%e %U %S %M' "$@" >/dev/null 2>&1 ||
    die "failed: $*"
  awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' time.txt >>"$tag.times"
}

# col TAG K: the median of column K of TAG.times.
col() { awk -v k="$2" '{ print $k }' "$1.times" | median; }

# write_ceiling SINK BYTES: prints the seconds one process takes to write
# BYTES from a buffer in memory to SINK, 64 KiB per write(), opening and
# truncating it included: what no tool writing as much can beat.
write_ceiling() {
  python3 -c '
import os, sys, time
sink, total = sys.argv[1], int(sys.argv[2])
buf = memoryview(bytearray(b"x" * 65536))
start = time.perf_counter()
fd = os.open(sink, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
left = total
while left:
    left -= os.write(fd, buf[:min(left, len(buf))])
os.close(fd)
print("%.5f" % (time.perf_counter() - start))' "$1" "$2"
}

# --- Helpers of the speedtest1 benches (layout-sqlite.sh, stale-sqlite.sh).
# They run in the caller's output directory $out (the current directory),
# use its $start (`date +%s` at the start) and set its status=1 when an
# output differs; expected.out holds the baseline's normalized output.

# The cachegrind configuration: I1 32 KiB 8-way, D1 48 KiB 12-way, LL 2 MiB
# 16-way, 64-byte lines.
CG_OPTS=(--tool=cachegrind --cache-sim=yes "--I1=32768,8,64" "--D1=49152,12,64"
  "--LL=2097152,16,64")

# step TEXT: a progress line with the elapsed time.
step() { printf '[%4ds] %s\n' $(($(date +%s) - start)) "$*"; }
# run LOG CMD...: runs CMD with its output in log/LOG; dies showing its end.
run() {
  local log=log/$1; shift
  "$@" >"$log" 2>&1 || { tail -n 20 "$log" >&2; die "failed: $* (log: $out/$log)"; }
}
# build_speedtest CC SRC NAME FLAGS...: builds speedtest1 (SRC/sqlite3.c and
# $SQLITE/test/speedtest1.c) with compiler CC, the array CFLAGS and FLAGS
# as NAME; the compiler's output goes to log/NAME.cc.
build_speedtest() {
  local cc=$1 src=$2 name=$3; shift 3
  step "build $name"
  run "$name.cc" "$cc" "${CFLAGS[@]}" "$@" "$src/sqlite3.c" \
    "$SQLITE/test/speedtest1.c" -o "$name" -lm
  local w
  w=$(grep -c 'warning:' "log/$name.cc" || true)
  [ "$w" -eq 0 ] || echo "  $w warnings (log/$name.cc)"
}
# normalize: speedtest1's output without the per-test times.
normalize() { sed -E 's/ +[0-9]+\.[0-9]{3}s$//'; }
# check_out WHAT FILE [EXPECTED]: FILE (a run's output) must be EXPECTED
# (default expected.out), times removed.
check_out() {
  local want=${3:-expected.out}
  if ! normalize <"$2" | cmp -s - "$want"; then
    echo "OUTPUT DIFFERS: $1 (diff <(sed -E 's/ +[0-9]+\.[0-9]{3}s\$//' $out/$2) $out/$want)"
    status=1
  fi
}
# exec_sections FILE: "NAME BYTES" for each executable section of FILE.
exec_sections() {
  llvm-size-22 -A "$1" | awk 'NR == FNR { x[$1] = 1; next } ($1 in x) { print $1, $2 }' \
    <(llvm-readelf-22 -S -W "$1" | sed -E 's/^ *\[ *[0-9]+\] *//' | awk '$7 ~ /X/ { print $1 }') -
}
# same_text A B: A's .text is B's, byte for byte (the map changes no code).
same_text() {
  llvm-objcopy-22 -O binary --only-section=.text "$1" "$1.text.bin"
  llvm-objcopy-22 -O binary --only-section=.text "$2" "$2.text.bin"
  if cmp -s "$1.text.bin" "$2.text.bin"; then
    echo "  .text of $1 = .text of $2 ($(wc -c <"$1.text.bin") bytes)"
  else
    echo "CODE DIFFERS: .text of $1 and $2"; status=1
  fi
  rm -f "$1.text.bin" "$2.text.bin"
}
# cc22 NAME FLAGS...: speedtest1 built by clang-22 with the caller's CFLAGS.
cc22() { build_speedtest clang-22 "$SQLITE" "$@"; }
# exec_range BIN: the hex range [LO, HI) of BIN's executable segments.
exec_range() {
  python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import elfinfo
r = elfinfo.Elf(sys.argv[2]).exec_ranges
print("%x-%x" % (min(a for a, _ in r), max(b for _, b in r)))' "$TOOLS/exact-trace" "$1"
}
# arm64_speedtest: Debian's arm64 cross sysroot (SYSROOT, checked), QEMU to
# run its programs and the CFLAGS of speedtest1 for it (clang-22 -O2
# -ffunction-sections -no-pie, lld), as arm64-sqlite.sh builds it.
arm64_speedtest() {
  SYSROOT=/usr/aarch64-linux-gnu
  [ -f "$SYSROOT/lib/crt1.o" ] || die "no arm64 sysroot in $SYSROOT (run scripts/bootstrap.sh)"
  QEMU=(qemu-aarch64 -L "$SYSROOT")
  CFLAGS=(--target=aarch64-linux-gnu -O2 -ffunction-sections -no-pie
    -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -I"$SQLITE" -fuse-ld=lld)
}
# qemu_plugins: the exact-trace plugins (bin/trace.so, bin/count.so) and
# the I-cache simulator (bin/icache.so), built for qemu-user.
qemu_plugins() {
  local et=$TOOLS/exact-trace
  step "plugins"
  run plugins.cc cc -O2 -shared -fPIC -o bin/trace.so "$et/trace-plugin.c"
  run plugins.cc cc -O2 -shared -fPIC -o bin/count.so "$et/count-plugin.c"
  run plugins.cc cc -O2 -shared -fPIC -I"$et" -o bin/icache.so \
    "$BENCH/tools/icache-plugin.c"
}
# cachegrind NAME ARGS...: runs ./NAME ARGS under cachegrind (files
# cg/NAME.*; output checked) and sets CG_IR, CG_I1 and CG_LLI to its
# instructions, I1 misses and LLi misses.
cachegrind() {
  local b=$1; shift
  valgrind "${CG_OPTS[@]}" --cachegrind-out-file="cg/$b.cg" "./$b" "$@" \
    >"cg/$b.out" 2>"cg/$b.log" || { tail "cg/$b.log" >&2; die "cachegrind failed on $b"; }
  check_out "$b under cachegrind" "cg/$b.out"
  read -r CG_IR CG_I1 CG_LLI < <(awk '/^events:/ { for (i = 2; i <= NF; i++) e[$i] = i - 1 }
    /^summary:/ { print $(e["Ir"] + 1), $(e["I1mr"] + 1), $(e["ILmr"] + 1) }' "cg/$b.cg")
}
