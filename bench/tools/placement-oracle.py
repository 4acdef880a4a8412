#!/usr/bin/env python3
"""placement-oracle.py - how well can the lines' fetch counts alone rank
the placements of one build? (issue #36, item 3; docs/layout.md, "Placing
the hot code against the libraries")

Usage: placement-oracle.py SIM.ic LO-HI

SIM.ic is icache-plugin.c's output for one build with shifts=LO-HI:D1:...
(bench/layout-suite.sh's sim/KEY.ic): the measured misses of each
placement, and the fetches of every line (program and libraries) as built.
LO-HI (hex) is the program's code, which the placements move.

The placement model of bbmap-profile --format=placement weighs lines by how
often they are fetched. Here it gets the best such input there is, the
simulator's own count of every line's fetches in the very run it is judged
on, and ranks the measured placements with three models of an 8-way set:

  ways     the 8 most fetched lines of a set hit, the others always miss
           (bbmap-profile's model)
  che      Che's approximation of LRU under independent references: the
           set's characteristic time T solves sum(1 - exp(-r T)) = ways,
           a line of rate r misses with probability exp(-r T)
  top512   'ways' over the 512 most fetched lines only (the capacity of
           a 32 KiB cache of 64-byte lines)

It prints each model's Spearman rank correlation with the measured misses
(1: the model orders the placements as the simulator does) and the misses
of the placement it would pick against the best and the mean measured.
A line moved by a shift that is not a multiple of the line size is counted
in the line its first byte moves to.
"""
import collections
import math
import sys


def read_sim(path):
    """(geometry (size, ways, line), {shift: misses}, {line: fetches})."""
    placements, fetches, geometry = {}, collections.defaultdict(float), None
    with open(path) as f:
        for line in f:
            w = line.split()
            if line.startswith('# cache'):
                geometry = tuple(int(x) for x in w[2:5])
            elif line.startswith('# placement'):
                placements[int(w[2])] = int(w[3])
            elif not line.startswith('#'):
                fetches[int(w[0], 16)] += float(w[2])
    if not geometry or not placements:
        sys.exit('placement-oracle.py: %s has no cache or placement lines '
                 '(run icache-plugin.c with shifts=)' % path)
    return geometry, placements, fetches


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    r = [0] * len(values)
    for k, i in enumerate(order):
        r[i] = k
    return r


def spearman(a, b):
    n = len(a)
    d = sum((x - y) ** 2 for x, y in zip(ranks(a), ranks(b)))
    return 1 - 6 * d / (n * (n * n - 1))


def ways_misses(counts, ways, total):
    return sum(sorted(counts, reverse=True)[ways:])


def che_misses(counts, ways, total):
    if len(counts) <= ways:
        return 0.0
    rates = [c / total for c in counts]

    def held(t):
        return sum(1 - math.exp(-r * t) for r in rates)
    lo, hi = 0.0, 1.0
    while held(hi) < ways:
        hi *= 2
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if held(mid) < ways else (lo, mid)
    return sum(c * math.exp(-r * hi) for c, r in zip(counts, rates))


def modelled(lines, shift, program, geometry, model):
    size, ways, line = geometry
    sets = size // (ways * line)
    moved = [((a + (shift if program[0] <= a < program[1] else 0)) // line % sets, f)
             for a, f in lines.items()]
    if model == 'top512':
        moved = sorted(moved, key=lambda t: -t[1])[:size // line]
    by_set = collections.defaultdict(list)
    for s, f in moved:
        by_set[s].append(f)
    total = sum(f for _, f in moved)
    per_set = che_misses if model == 'che' else ways_misses
    return sum(per_set(v, ways, total) for v in by_set.values())


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    geometry, placements, lines = read_sim(sys.argv[1])
    lo, hi = (int(x, 16) for x in sys.argv[2].split('-'))
    shifts = sorted(placements)
    measured = [placements[s] for s in shifts]
    best, mean = min(measured), sum(measured) / len(measured)
    print('%s: %d placements, measured misses %d to %d (mean %.0f)'
          % (sys.argv[1], len(shifts), best, max(measured), mean))
    for model in ('ways', 'che', 'top512'):
        costs = [modelled(lines, s, (lo, hi), geometry, model) for s in shifts]
        pick = measured[costs.index(min(costs))]
        print('  %-7s rank correlation %+.2f; its pick %d (%.3f of the best, '
              '%.3f of the mean)' % (model, spearman(costs, measured), pick,
                                     pick / best, pick / mean))


if __name__ == '__main__':
    main()
