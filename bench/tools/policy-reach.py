#!/usr/bin/env python3
"""policy-reach.py - how much of a run a layout rule can move at all
(issue #36, item 2: the re-check of the landing-pad and unprofiled-code
rules; docs/layout.md, "What the profile did not see").

Usage: policy-reach.py pads PROFILE.json TABLE
       policy-reach.py unlisted SIM.ic BINARY ORDER

pads: PROFILE.json is `bbmap-profile BINARY ... --format=json` and TABLE
`bbmap-dump --bb-addr-map --output-style=table BINARY`. Prints the block
executions of the profile, those in landing pads (flag E), the pads that
ran, and the functions where some pads ran and others did not: the only
functions the landing-pad rule (all of a function's pads in the cluster or
none) decides anything for.

unlisted: SIM.ic is bench/tools/icache-plugin.c's output for BINARY (a
laid-out build) on a measured run, ORDER the symbol ordering file it was
linked with. Prints the program's line fetches and I1 misses, and the
share in functions the order does not list: the code the profile never
saw, which the unprofiled-code rule places (after everything listed, in
the order of the link's inputs).
"""
import bisect
import collections
import json
import subprocess
import sys


def pads(profile, table):
    pad_ids = collections.defaultdict(set)
    with open(table) as f:
        for line in f:
            if line.startswith('#'):
                continue
            w = line.rstrip('\n').split('\t')
            if 'E' in w[6]:
                pad_ids[w[1]].add(int(w[3]))
    with open(profile) as f:
        functions = json.load(f)['Functions']
    total = in_pads = ran = decided = decided_runs = 0
    for fn in functions:
        counts = {b['ID']: b['Count'] for b in fn['Blocks'] if b['Count']}
        total += sum(counts.values())
        hot_pads = [i for i in counts if i in pad_ids[fn['Name']]]
        in_pads += sum(counts[i] for i in hot_pads)
        ran += len(hot_pads)
        if hot_pads and len(hot_pads) < len(pad_ids[fn['Name']]):
            decided += 1
            decided_runs += sum(counts[i] for i in hot_pads)
    print('block executions %d; in landing pads %d (%d pads ran); functions '
          'where some pads ran and some did not: %d, their pads ran %d times'
          % (total, in_pads, ran, decided, decided_runs))


def unlisted(sim, binary, order):
    with open(order) as f:
        listed = {line.strip() for line in f}
    symbols = []
    nm = subprocess.run(['nm', '-S', '--defined-only', binary], check=True,
                        capture_output=True, text=True).stdout
    for line in nm.splitlines():
        w = line.split()
        if len(w) == 4 and w[2] in 'tTW':
            symbols.append((int(w[0], 16), max(int(w[1], 16), 1), w[3]))
    symbols.sort()
    starts = [s[0] for s in symbols]
    fetches = misses = other_fetches = other_misses = 0
    with open(sim) as f:
        for line in f:
            if line.startswith('#'):
                continue
            _, addr, fe, mi = line.split()
            a = int(addr, 16)
            i = bisect.bisect_right(starts, a) - 1
            if i < 0 or a >= symbols[i][0] + symbols[i][1]:
                continue
            fetches += int(fe)
            misses += int(mi)
            if symbols[i][2] not in listed:
                other_fetches += int(fe)
                other_misses += int(mi)
    print('program fetches %d, I1 misses %d; in functions the order does not '
          'list: %d fetches (%.4f %%), %d misses (%.4f %%)'
          % (fetches, misses, other_fetches, 100.0 * other_fetches / fetches,
             other_misses, 100.0 * other_misses / max(misses, 1)))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == 'pads':
        pads(*sys.argv[2:])
    elif len(sys.argv) == 5 and sys.argv[1] == 'unlisted':
        unlisted(*sys.argv[2:])
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()
