#!/usr/bin/env bash
# profile-sqlite.sh - bbmap-profile on a real program: exact block counts of
# a sqlite3 run, and speed against perf2bolt-22 on the same pre-aggregated
# profiles.
#
# Builds the sqlite3 shell with `clang-N -O2 -no-pie
# -fbasic-block-address-map -Wl,--emit-relocs` (lld) for LLVM 22, and for
# LLVM 19 too when build/llvm-19/bbmap-profile exists. Then, per major:
#   - exact counts: runs a deterministic SQL workload (5000 inserts, two
#     indexes, joins, a self-join, update, delete, recursive CTEs) under
#     qemu-x86_64 with test/tools/exact-trace/trace-plugin.so and under
#     callgrind (callgrind-counts.py); the program output must be the same
#     natively and under both simulators. The trace becomes pre-aggregated
#     profiles in both dialects (trace-to-preagg.py --format=22 and 19);
#     `bbmap-profile --format=json` of each is checked against callgrind's
#     per-instruction counts with test/tools/check-block-counts.py --flow.
#   - identical output (LLVM 22 only): `bbmap-profile --format=fdata`
#     against `perf2bolt-22 --pa` on both exact profiles and on the
#     generated 1M and 10M inputs, as sorted line sets over the functions a
#     map covers (lines of start-up code, PLT entries and BOLT's PLT pseudo
#     function, which perf2bolt names and bbmap-profile does not claim to
#     match, are left out).
# Speed (LLVM 22): inputs of 1M and 10M records drawn at random (fixed
# seed, with replacement) from the exact run's 22-dialect records (T, B, f
# lines, so every record is a real trace or branch of the binary and both
# tools accept all of them), each with a random count of 1 to 1000. Both
# tools run on the same file, alternating, RUNS times (default 3): median
# wall and CPU (user+sys) seconds and peak RSS of /usr/bin/time, records
# per second (records / wall time), the ratios perf2bolt / bbmap-profile and
# each tool's growth from 1M to 10M records (10.0 is linear). For context,
# the same runs also time `bbmap-profile --format=json` (same reading and
# charging, another writer).
#
# Exits non-zero if a block count mismatches or the fdata outputs differ
# (the speed table is still printed).
#
# Usage: bench/profile-sqlite.sh        (env RUNS=N, default 3)
# Outputs go to bench/out/profile-sqlite/.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

case "${1:-}" in -h|--help) usage; exit 0 ;; esac
command -v clang-22 >/dev/null || die "clang-22 not found (run scripts/bootstrap.sh)"
for t in perf2bolt-22 qemu-x86_64 valgrind cc; do
  command -v "$t" >/dev/null || die "$t not found (run scripts/bootstrap.sh)"
done
[ -x /usr/bin/time ] || die "needs GNU time: apt-get install time"
RUNS=${RUNS:-3}
PROFILE=$ROOT/build/llvm-22/bbmap-profile
[ -x "$PROFILE" ] || die "no build/llvm-22/bbmap-profile (run: ninja -C build/llvm-22)"
"$PROFILE" --help | grep -q -- '=fdata' ||
  die "build/llvm-22/bbmap-profile has no --format=fdata (rebuild it)"
majors=(22)
if [ -x "$ROOT/build/llvm-19/bbmap-profile" ] && command -v clang-19 >/dev/null; then
  majors+=(19)
else
  echo "no build/llvm-19/bbmap-profile: LLVM 19 exact check skipped"
fi
EXACT=$TOOLS/exact-trace
fetch_sqlite
out=$OUT/profile-sqlite
mkdir -p "$out/bin"
cd "$out"
# Work on copies, so that a rebuild during the run cannot mix versions.
for n in "${majors[@]}"; do
  cp "$ROOT/build/llvm-$n/bbmap-profile" "bin/bbmap-profile-$n"
done
PROFILE=$out/bin/bbmap-profile-22
echo "bbmap-profile: work tree at $(git -C "$ROOT" log -1 --format='%h %cd' --date=iso)" \
  "($(git -C "$ROOT" diff --quiet HEAD -- lib include tools && echo clean || echo 'with local changes'))"

SQL="CREATE TABLE dept(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE emp(id INTEGER PRIMARY KEY, dept INTEGER REFERENCES dept, pay INTEGER, name TEXT);
BEGIN;
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 50)
  INSERT INTO dept(id, name) SELECT x, printf('dept%02d', x) FROM c;
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 5000)
  INSERT INTO emp(dept, pay, name) SELECT (x * 7919) % 50 + 1, (x * 104729) % 1000, 'e' || x FROM c;
COMMIT;
CREATE INDEX emp_dept ON emp(dept);
CREATE INDEX emp_pay ON emp(pay, name);
SELECT d.name, count(e.id), sum(e.pay), max(e.name)
  FROM dept d JOIN emp e ON e.dept = d.id WHERE d.id % 10 = 3 GROUP BY d.id ORDER BY d.name;
SELECT count(*), sum(pay) FROM emp WHERE pay BETWEEN 100 AND 200;
UPDATE emp SET pay = pay + 1 WHERE dept IN (SELECT id FROM dept WHERE name LIKE '%7');
DELETE FROM emp WHERE id % 97 = 0;
SELECT e1.dept, count(*) FROM emp e1 JOIN emp e2 ON e1.pay = e2.pay AND e1.id < e2.id
  WHERE e1.dept < 4 GROUP BY e1.dept ORDER BY 1;
WITH RECURSIVE fib(n, a, b) AS (SELECT 1, 0, 1 UNION ALL SELECT n + 1, b, a + b FROM fib WHERE n < 80)
  SELECT n, a FROM fib WHERE n % 20 = 0;
SELECT group_concat(name, ',') FROM (SELECT name FROM emp ORDER BY pay DESC, name LIMIT 5);"
EXPECTED="dept03|100|50700|e958
dept13|100|51700|e998
dept23|100|47700|e988
dept33|100|48700|e978
dept43|100|49700|e968
505|75750
1|196
2|196
3|196
20|4181
40|63245986
60|956722026041
80|14472334024676221
e1631,e2631,e3631,e4631,e631"
echo "$SQL" >workload.sql
echo "$EXPECTED" >expected.out

status=0
cc -O2 -shared -fPIC -o trace-plugin.so "$EXACT/trace-plugin.c"

# mapped_names BIN: the names of BIN's functions with a bb-addr-map record.
mapped_names() {
  "llvm-readobj-22" --bb-addr-map "$1" | sed -n 's/^ *Name: //p' | sort -u
}
# fdata_lines FDATA NAMES: FDATA's branch lines whose source function (BOLT
# adds /N to local names) is in NAMES, sorted.
fdata_lines() {
  awk 'NR == FNR { m[$1] = 1; next }
       { n = $2; sub(/\/.*/, "", n) } n in m' "$2" "$1" | sort
}
# same_fdata LABEL P2B BBMAP NAMES: compares, prints one line, sets status.
same_fdata() {
  local d
  d=$(diff <(fdata_lines "$2" "$4") <(fdata_lines "$3" "$4") | grep -c '^[<>]' || true)
  if [ "$d" -eq 0 ]; then
    printf '%-28s identical: %d lines\n' "$1" "$(fdata_lines "$2" "$4" | wc -l)"
  else
    printf '%-28s DIFFER: %d lines of %d (< perf2bolt-22, > bbmap-profile):\n' \
      "$1" "$d" "$(fdata_lines "$2" "$4" | wc -l)"
    diff <(fdata_lines "$2" "$4") <(fdata_lines "$3" "$4") | grep '^[<>]' | head -n 10 || true
    status=1
  fi
}

# exact N: build with clang-N, trace, check bbmap-profile-N's counts.
exact() {
  local n=$1 bin=sqlite3-$1 prof=$out/bin/bbmap-profile-$1 d
  echo "== LLVM $n: exact counts"
  "clang-$n" -O2 -no-pie -fbasic-block-address-map -fuse-ld=lld -Wl,--emit-relocs \
    -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION \
    "$SQLITE/sqlite3.c" "$SQLITE/shell.c" -o "$bin" -lm
  "./$bin" -batch :memory: <workload.sql >"$bin.native.out"
  qemu-x86_64 -plugin "./trace-plugin.so,out=$bin.triples" "./$bin" -batch :memory: \
    <workload.sql >"$bin.qemu.out"
  python3 "$EXACT/callgrind-counts.py" "$bin" -o "$bin.counts" -- "./$bin" -batch :memory: \
    <workload.sql >"$bin.cg.out" 2>"$bin.cg.err" || { cat "$bin.cg.err" >&2; die "callgrind failed"; }
  local ok=yes
  for o in native qemu cg; do
    cmp -s expected.out "$bin.$o.out" ||
      { echo "program output ($o): WRONG (diff expected.out $out/$bin.$o.out)"; ok=no; status=1; }
  done
  [ $ok = no ] || echo "program output: correct natively, under qemu and under callgrind"
  for d in 22 19; do
    python3 "$EXACT/trace-to-preagg.py" "$bin" "$bin.triples" --format=$d -o "$bin.$d.pa"
    "$prof" "$bin" --pa="$bin.$d.pa" --format=json -o "$bin.$d.json"
    printf -- '-- bbmap-profile-%s, %d-dialect profile (%d records):\n' \
      "$n" "$d" "$(wc -l <"$bin.$d.pa")"
    python3 "$TOOLS/check-block-counts.py" "$bin.$d.json" "$bin.counts" --flow ||
      status=1
  done
}

for n in "${majors[@]}"; do exact "$n"; done

# gen_pa SRC N OUT: N records drawn from SRC's (fixed seed), random counts.
gen_pa() {
  python3 - "$@" <<'EOF'
import random, sys
src, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
recs = []
for line in open(src):
    w = line.split()
    if w:  # the count is the last field, except for B (COUNT MISPREDS)
        recs.append(' '.join(w[:3]) + ' %d ' + w[4] + '\n' if w[0] == 'B'
                    else ' '.join(w[:-1]) + ' %d\n')
rng = random.Random(1)
with open(out, 'w') as f:
    for i in range(0, n, 65536):
        k = min(65536, n - i)
        f.write(''.join(r % c for r, c in zip(rng.choices(recs, k=k),
                                               rng.choices(range(1, 1001), k=k))))
EOF
}

bin=sqlite3-22
sizes=(1000000 10000000)
for s in "${sizes[@]}"; do
  if [ ! -s "pa.$s" ] || [ "pa.$s" -ot "$bin.22.pa" ]; then gen_pa "$bin.22.pa" "$s" "pa.$s"; fi
done

echo "== bbmap-profile --format=fdata vs perf2bolt-22 --pa: same records"
mapped_names "$bin" >mapped.names
for p in "$bin.22.pa" "$bin.19.pa" "${sizes[@]/#/pa.}"; do
  perf2bolt-22 "$bin" --pa -p "$p" -o "$p.p2b.fdata" >"$p.p2b.log" 2>&1 ||
    die "perf2bolt-22 failed on $p; see $out/$p.p2b.log"
  "$PROFILE" "$bin" --pa="$p" --format=fdata -o "$p.bb.fdata"
  same_fdata "$p" "$p.p2b.fdata" "$p.bb.fdata" mapped.names
done

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# timed TAG CMD...: one run; appends "wall cpu rss_kb" to TAG.times.
timed() {
  local tag=$1; shift
  /usr/bin/time -o time.txt -f '%e %U %S %M' "$@" >/dev/null 2>&1 ||
    die "failed: $*"
  awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' time.txt >>"$tag.times"
}
# col TAG K: median of column K of TAG.times.
col() { awk -v k="$2" '{ print $k }' "$1.times" | median; }

echo "== speed: median of $RUNS alternating runs, same input file"
for s in "${sizes[@]}"; do
  rm -f "bb.$s.times" "p2b.$s.times" "json.$s.times"
  for _ in $(seq "$RUNS"); do
    timed "bb.$s" "$PROFILE" "$bin" --pa="pa.$s" --format=fdata -o "pa.$s.bb.fdata"
    timed "p2b.$s" perf2bolt-22 "$bin" --pa -p "pa.$s" -o "pa.$s.p2b.fdata"
    timed "json.$s" "$PROFILE" "$bin" --pa="pa.$s" --format=json -o "pa.$s.bb.json"
  done
done
printf '| records | tool | wall s | CPU s | peak RSS MB | M records/s | perf2bolt / this: wall | CPU | RSS |\n'
printf '|---:|---|---:|---:|---:|---:|---:|---:|---:|\n'
for s in "${sizes[@]}"; do
  pw=$(col "p2b.$s" 1) pc=$(col "p2b.$s" 2) pm=$(col "p2b.$s" 3)
  for t in bb p2b json; do
    w=$(col "$t.$s" 1) c=$(col "$t.$s" 2) m=$(col "$t.$s" 3)
    case $t in
      bb) name=bbmap-profile ;; p2b) name=perf2bolt-22 ;;
      json) name="bbmap-profile --format=json" ;;
    esac
    if [ $t = p2b ]; then ratios=" | | "
    else ratios=$(printf '%.2f | %.2f | %.2f' "$(echo "$pw / $w" | bc -l)" \
      "$(echo "$pc / $c" | bc -l)" "$(echo "$pm / $m" | bc -l)"); fi
    printf '| %d | %s | %.2f | %.2f | %.0f | %.2f | %s |\n' "$s" "$name" "$w" "$c" \
      "$(echo "$m / 1024" | bc -l)" "$(echo "$s / $w / 1000000" | bc -l)" "$ratios"
  done
done
for t in bb p2b json; do
  case $t in bb) name=bbmap-profile ;; p2b) name=perf2bolt-22 ;;
    json) name="bbmap-profile --format=json" ;; esac
  printf '%s growth 1M -> 10M: wall %.1fx, CPU %.1fx, peak RSS %.1fx\n' "$name" \
    "$(echo "$(col "$t.10000000" 1) / $(col "$t.1000000" 1)" | bc -l)" \
    "$(echo "$(col "$t.10000000" 2) / $(col "$t.1000000" 2)" | bc -l)" \
    "$(echo "$(col "$t.10000000" 3) / $(col "$t.1000000" 3)" | bc -l)"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$status" -eq 0 ]; then echo "profile-sqlite: PASS"; else echo "profile-sqlite: FAIL"; fi
exit $status
