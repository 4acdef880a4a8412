#!/usr/bin/env bash
# sqlite-map.sh - real-program acceptance check of bbmap-plugin.so on sqlite3.
#
# For each LLVM major, compiles sqlite3.c and shell.c with `clang-N -O2 -c`
# three ways: plain, in-tree -fbasic-block-address-map, and with the plugin
# (build/llvm-N/bbmap-plugin.so). Then checks that the plugin's map equals the
# in-tree map (test/tools/compare-maps.py), that the plugin leaves the code
# unchanged (test/tools/text-digest.py against the plain build), and that the
# sqlite3 shell linked from the plugin objects with lld runs a SQL script
# correctly. Exits non-zero if any check fails for any major.
#
# Usage: bench/sqlite-map.sh [19|22 ...]   (default: 19 22)
# Outputs go to bench/out/sqlite-map/llvm-N/.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

majors=()
for arg in "$@"; do
  case "$arg" in
    -h|--help) usage; exit 0 ;;
    *) majors+=("$arg") ;;
  esac
done
[ ${#majors[@]} -gt 0 ] || majors=(19 22)
for n in "${majors[@]}"; do check_major "$n"; done
fetch_sqlite

SQL="
CREATE TABLE dept(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE emp(id INTEGER PRIMARY KEY, dept INTEGER REFERENCES dept, pay INTEGER);
CREATE INDEX emp_dept ON emp(dept);
INSERT INTO dept(name) VALUES ('eng'), ('ops'), ('hr');
INSERT INTO emp(dept, pay) VALUES (1, 100), (1, 200), (2, 50), (2, 70), (2, 30);
SELECT d.name, count(e.id), total(e.pay), avg(e.pay)
  FROM dept d LEFT JOIN emp e ON e.dept = d.id GROUP BY d.id ORDER BY d.name;
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000)
  SELECT sum(x), max(x) FROM c;"
EXPECTED="eng|2|300.0|150.0
hr|0|0.0|
ops|3|150.0|50.0
500500|1000"

# diff_functions DIFF MAP: the functions of MAP that DIFF's hunks touch.
# compare-maps drops MAP's 'File:' line and gives 3 lines of context, so
# hunk line L is around MAP line L+4.
diff_functions() {
  sed -En 's/^@@ -([0-9]+).*/\1/p' "$1" | while read -r l; do
    awk -v l=$((l + 4)) '/^    Name: / { n = $2 } NR == l { print n; exit }' "$2"
  done | sort -u | tr '\n' ' '
}

# check_one N: compiles, compares, links and runs for clang-N, prints a
# summary line, and sets failed=1 if a check fails.
check_one() {
  local n=$1 out=$OUT/sqlite-map/llvm-$1 plugin=$ROOT/build/llvm-$1/bbmap-plugin.so
  local -A flags=([plain]="" [intree]="-fbasic-block-address-map"
                  [plugin]="-fpass-plugin=$plugin")
  local mode src pids=() cc_failed=0 funcs=0 blocks=0 map=yes text=yes run=yes f b
  rm -rf "$out" && mkdir -p "$out"
  for mode in plain intree plugin; do
    for src in sqlite3 shell; do
      # shellcheck disable=SC2086 # flags hold zero or one word
      "clang-$n" -O2 ${flags[$mode]} -c "$SQLITE/$src.c" -o "$out/$src.$mode.o" &
      pids+=($!)
    done
  done
  for pid in "${pids[@]}"; do wait "$pid" || cc_failed=1; done
  [ "$cc_failed" -eq 0 ] || die "llvm-$n: a compile failed"

  for src in sqlite3 shell; do
    for mode in intree plugin; do
      "llvm-readobj-$n" --bb-addr-map "$out/$src.$mode.o" >"$out/$src.$mode.map"
    done
    if python3 "$TOOLS/compare-maps.py" "$out/$src.intree.map" "$out/$src.plugin.map" \
        >"$out/$src.map-diff"; then
      read -r f b < <(sed -En 's/^map: identical \(([0-9]+) functions, ([0-9]+) blocks\)$/\1 \2/p' \
        "$out/$src.map-diff")
      funcs=$((funcs + f)) blocks=$((blocks + b))
    else
      map=no
      echo "llvm-$n: $src.o map differs in functions:" \
        "$(diff_functions "$out/$src.map-diff" "$out/$src.intree.map")" >&2
      echo "full diff: $out/$src.map-diff; first lines:" >&2
      head -n 40 "$out/$src.map-diff" >&2
    fi
    for mode in plain plugin; do
      python3 "$TOOLS/text-digest.py" "$out/$src.$mode.o" >"$out/$src.$mode.digest"
    done
    if ! diff -u "$out/$src.plain.digest" "$out/$src.plugin.digest" >"$out/$src.text-diff"; then
      text=no
      echo "llvm-$n: $src.o code differs (full diff: $out/$src.text-diff):" >&2
      head -n 40 "$out/$src.text-diff" >&2
    fi
  done

  "clang-$n" -fuse-ld=lld "$out/sqlite3.plugin.o" "$out/shell.plugin.o" \
    -o "$out/sqlite3" -lpthread -ldl -lm
  if ! "$out/sqlite3" -batch :memory: <<<"$SQL" >"$out/sql.out" 2>&1 ||
      [ "$(cat "$out/sql.out")" != "$EXPECTED" ]; then
    run=no
    echo "llvm-$n: sqlite3 output wrong:" >&2
    diff -u <(echo "$EXPECTED") "$out/sql.out" >&2 || true
  fi

  printf 'llvm-%s: functions %d  blocks %d  map identical %s  text identical %s  program output OK %s\n' \
    "$n" "$funcs" "$blocks" "$map" "$text" "$run"
  [ "$map$text$run" = yesyesyes ] || failed=1
}

failed=0
for n in "${majors[@]}"; do check_one "$n"; done
if [ "$failed" -eq 0 ]; then echo "sqlite-map: PASS"; else echo "sqlite-map: FAIL"; exit 1; fi
