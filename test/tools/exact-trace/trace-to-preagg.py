#!/usr/bin/env python3
"""trace-to-preagg.py - turns trace-plugin triples into a BOLT pre-aggregated
profile (perf2bolt --pa) for one ELF binary.

Usage: trace-to-preagg.py BINARY TRIPLES --format=22|19 [-o OUT]
                          [--load-bias N]

Addresses are BINARY's own virtual addresses (trace address - load bias;
the bias is 0 for a fixed-address executable and, for a PIE, taken from the
trace's start_code unless --load-bias is given). "Inside" means inside an
executable PT_LOAD segment of BINARY; a location outside is written `X:0`
(build id X = unknown object; BOLT reads its offset 0 as "external").

Each trace run [RunStart, Source] was entered by a branch S' -> RunStart
(none for the program's first run). The triples give the runs and branches
but not which entering branch preceded which run, so runs starting at one
address are paired with the branches into that address in address order;
every pairing has the same per-branch and per-run totals, which is all BOLT
uses.

--format=22 (BOLT 22):
  T S' RunStart Source COUNT   run inside, entered from S' (X:0 if outside)
  f RunStart Source COUNT      run inside, the program's first run
  B S X:0 COUNT 0              branch from inside to outside
--format=19 (BOLT 15/16/19, also read by 22):
  B S T COUNT 0                every branch with at least one end inside
                               (the other end X:0)
  F RunStart Source COUNT      run inside, entered from the same function
  f RunStart Source COUNT      run inside, entered from elsewhere or first
                               (BOLT then treats a run starting after a
                               call as that call's continuation)
"Same function" uses BINARY's sized function symbols.

So every execution of every instruction inside the binary is covered by
exactly one range, and every taken branch with an end inside is recorded.
Runs that start inside and end outside (or the reverse) cannot happen for
straight-line code and are reported as an error.
"""
import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import elfinfo  # noqa: E402

EXTERNAL = 'X:0'


def pair_runs(branches_in, runs):
    """Pairs the entering branches [(source, count)] of one start address with
    its runs [(end, count)]. Yields (source or None, end, count); None for
    runs left over (the program's first run)."""
    bi = [list(b) for b in sorted(branches_in)]
    i = 0
    for end, n in sorted(runs):
        while n:
            if i == len(bi):
                yield None, end, n
                break
            take = min(n, bi[i][1])
            yield bi[i][0], end, take
            n -= take
            bi[i][1] -= take
            if not bi[i][1]:
                i += 1
    if i < len(bi) and any(c for _, c in bi[i:]):
        raise ValueError('more branches into a run start than runs from it')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('binary')
    ap.add_argument('triples')
    ap.add_argument('--format', choices=['19', '22'], required=True)
    ap.add_argument('-o', '--output', default='-')
    ap.add_argument('--load-bias', type=lambda s: int(s, 0))
    args = ap.parse_args()
    try:
        elf = elfinfo.Elf(args.binary)
        header, triples = elfinfo.read_triples(args.triples)
        bias = elfinfo.trace_load_bias(elf, header, args.load_bias)
    except (OSError, ValueError) as e:
        print('trace-to-preagg.py: %s' % e, file=sys.stderr)
        return 2

    runs = collections.defaultdict(collections.Counter)      # start -> end -> n
    into = collections.defaultdict(collections.Counter)      # target -> src -> n
    branches = collections.Counter()                         # (src, tgt) -> n
    for run_start, source, target, n in triples:
        runs[run_start - bias][source - bias] += n
        if target:
            into[target - bias][source - bias] += n
            branches[(source - bias, target - bias)] += n

    def loc(addr):
        return '%x' % addr if elf.in_exec(addr) else EXTERNAL

    lines = collections.Counter()
    bad = 0
    for start, ends in runs.items():
        inside = elf.exec_range_of(start)
        for end in ends:
            if elf.exec_range_of(end) != inside or end < start:
                bad += 1
        if inside is None:
            continue
        for src, end, n in pair_runs(into[start].items(), ends.items()):
            if args.format == '22':
                if src is None:
                    lines[('f', '%x' % start, '%x' % end)] += n
                else:
                    lines[('T', loc(src), '%x' % start, '%x' % end)] += n
            else:
                fn = elf.function_of(start)
                same = (src is not None and fn is not None and
                        fn[0] <= src < fn[1])
                lines[('F' if same else 'f', '%x' % start, '%x' % end)] += n
    for (src, tgt), n in branches.items():
        src_in, tgt_in = elf.in_exec(src), elf.in_exec(tgt)
        if args.format == '22':
            if src_in and not tgt_in:
                lines[('B', '%x' % src, EXTERNAL, '')] += n
        elif src_in or tgt_in:
            lines[('B', loc(src), loc(tgt), '')] += n
    if bad:
        print('trace-to-preagg.py: %d runs cross the binary\'s executable '
              'segments (wrong binary or load bias?)' % bad, file=sys.stderr)
        return 1

    order = {'B': 0, 'T': 1, 'F': 2, 'f': 3}

    def sort_key(key):
        return (order[key[0]],
                [-1 if f == EXTERNAL else int(f, 16) for f in key[1:] if f])

    out = sys.stdout if args.output == '-' else open(args.output, 'w')
    for key in sorted(lines, key=sort_key):
        if key[0] == 'B':
            out.write('B %s %s %d 0\n' % (key[1], key[2], lines[key]))
        else:
            out.write('%s %d\n' % (' '.join(key), lines[key]))
    if out is not sys.stdout:
        out.close()
    return 0


if __name__ == '__main__':
    sys.exit(main())
