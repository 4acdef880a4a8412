# bench/lib.sh - helpers shared by the bench/ scripts (source it, do not run
# it): paths, usage text, LLVM major checks, the sqlite3 amalgamation
# (generated once from Debian's sqlite3 source package into bench/work/) and
# timing (median, timed, col).
# shellcheck shell=bash disable=SC2034 # the variables are the scripts' API

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
