#!/usr/bin/env python3
"""clone-dispatch.py - path cloning (issue #36, item 4) of the blocks that
end in an indirect branch: an interpreter's dispatch (sqlite3VdbeExec's
`switch (pOp->opcode)`) copied to the end of each of its hottest
predecessors, as a threaded interpreter does by hand.

Usage: clone-dispatch.py CLUSTERS TABLE [--min-fraction F] [--max-paths N]
                         -o OUT

CLUSTERS is bbmap-profile's basic-block-sections profile with `g` lines
(--format=clusters --layout-for=22); TABLE is `bbmap-dump --bb-addr-map
--output-style=table` of the profiled binary (block sizes and flags, `I`:
ends in an indirect branch). For every block D with an indirect branch
that ran, the path to clone is D's head H (D itself, or the small block
that is D's only predecessor and falls or jumps only to D and one other
block: the loop's top, `pOp++` and the interrupt check) and D; it is
cloned for each predecessor P of H that took the edge P -> H at least F
times as often as H ran (default 0.01), the N hottest (default 16):

    p P H D          (clang: H.k and D.k, reached only from P)

and the clones come right after P in P's cluster (P falls into them).
The `g` and `h` lines are left out: they list the blocks before cloning
(clang-22 builds the same code with and without them).
"""
import argparse
import collections
import sys


def read_table(path):
    """{(function, block ID): (size, flags)} of a bbmap-dump table."""
    blocks = {}
    with open(path) as f:
        for line in f:
            if line.startswith('#'):
                continue
            _, fn, _, bid, start, end, flags = line.rstrip('\n').split('\t')
            blocks[(fn, int(bid))] = (int(end, 16) - int(start, 16), flags)
    return blocks


def read_flow(g_line):
    """(counts, successors, predecessors) of a `g` line."""
    counts, succs = {}, collections.defaultdict(dict)
    preds = collections.defaultdict(dict)
    for item in g_line.split()[1:]:
        block, *edges = item.split(',')
        b, c = map(int, block.split(':'))
        counts[b] = c
        for e in edges:
            s, n = map(int, e.split(':'))
            succs[b][s] = n
            preds[s][b] = n
    return counts, succs, preds


def clone_paths(fn, flow, blocks, min_fraction, max_paths):
    """The paths [P, H, D] (or [P, D]) to clone in function fn."""
    counts, succs, preds = flow
    paths = []
    for d in sorted(counts):
        if 'I' not in blocks.get((fn, d), (0, ''))[1]:
            continue
        chain = [d]
        if len(preds[d]) == 1:
            (h, _), = preds[d].items()
            if h != d and blocks[(fn, h)][0] <= 32 and len(succs[h]) <= 2:
                chain = [h, d]
        head = chain[0]
        hot = sorted(((n, p) for p, n in preds[head].items()
                      if p not in chain and n >= min_fraction * counts[head]),
                     reverse=True)
        paths += [[p] + chain for _, p in hot[:max_paths]]
    return paths


def cloned_function(c_line, paths):
    """The `p` lines of paths and the `c` line with their clones."""
    clones = collections.Counter()
    after = collections.defaultdict(list)
    lines = []
    for path in paths:
        lines.append('p ' + ' '.join(map(str, path)))
        for b in path[1:]:
            clones[b] += 1
            after[path[0]].append('%d.%d' % (b, clones[b]))
    order = []
    for b in c_line.split()[1:]:
        order += [b] + after.get(int(b), [])
    return lines + ['c ' + ' '.join(order)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('clusters')
    ap.add_argument('table')
    ap.add_argument('--min-fraction', type=float, default=0.01)
    ap.add_argument('--max-paths', type=int, default=16)
    ap.add_argument('-o', '--output', required=True)
    args = ap.parse_args()
    blocks = read_table(args.table)
    with open(args.clusters) as f:
        lines = f.read().splitlines()
    flows, fn = {}, None
    for line in lines:
        if line.startswith('f '):
            fn = line.split()[1]
        elif line.startswith('g '):
            flows[fn] = read_flow(line)
    out, fn, total = [], None, 0
    for line in lines:
        if line.startswith('f '):
            fn = line.split()[1]
        elif line.startswith(('g ', 'h ')):
            continue
        elif line.startswith('c ') and fn in flows:
            paths = clone_paths(fn, flows[fn], blocks, args.min_fraction,
                                args.max_paths)
            if paths:
                total += len(paths)
                out += cloned_function(line, paths)
                continue
        out.append(line)
    with open(args.output, 'w') as f:
        f.write('\n'.join(out) + '\n')
    print('clone-dispatch: %d paths cloned' % total, file=sys.stderr)


if __name__ == '__main__':
    main()
