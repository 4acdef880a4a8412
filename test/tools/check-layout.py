#!/usr/bin/env python3
"""check-layout.py - check that a rebuilt binary has the layout asked for.

Usage: check-layout.py CLUSTERS SYMBOL_ORDER MAP.json [--profiled PMAP.json]

CLUSTERS is the basic-block-sections profile bbmap-profile wrote,
SYMBOL_ORDER its symbol ordering file and MAP.json `bbmap-dump
--bb-addr-map --output-style=json` of the binary rebuilt with both. Each
function of CLUSTERS must have, as its first range, exactly the cluster's
blocks in the cluster's order, and its other blocks in other ranges; the
functions of SYMBOL_ORDER must lie in that order. Prints one line per
function and a summary; exits 1 on any difference. Each line also gives
the padding in the function's hot range: the bytes between one block's end
and the next block's start (alignment the compiler left between blocks the
layout put side by side), which the summary adds up.

--profiled PMAP.json (the same dump of the binary the profile was taken
on): blocks of the rebuilt binary whose ID that binary's function lacks are
blocks the compiler made after the layout was applied (AArch64's branch
relaxation gives each conditional branch into another section a block
holding an unconditional branch, since the distance between sections is
unknown); they are left out of the comparison and counted.
"""
import json
import sys


def clusters(path):
    """(names, first cluster) per `f` line: its name and aliases."""
    result, names = [], None
    for line in open(path):
        line = line.split('#')[0].strip()
        if line.startswith('f '):
            names = line.split()[1:]
        elif line.startswith('c') and names:
            result.append((names, [int(x) for x in line[1:].split()]))
            names = None
    return result


def functions(path):
    """Name -> the functions of that name (local ones may share one)."""
    maps = {}
    for obj in json.load(open(path)):
        for entry in obj['BBAddrMap']:
            f = entry['Function']
            maps.setdefault(f['Name'], []).append(f)
    return maps


def ranges_of(f, profiled):
    """f's block IDs per range; with --profiled, only IDs that binary's
    function of that name has, and the count of the others."""
    ranges = [[e['ID'] for e in r['BB Entries']] for r in f['BB Ranges']]
    if profiled is None or f['Name'] not in profiled:
        return ranges, 0
    known = {e['ID'] for g in profiled[f['Name']] for r in g['BB Ranges']
             for e in r['BB Entries']}
    added = sum(i not in known for r in ranges for i in r)
    return [[i for i in r if i in known] for r in ranges], added


def padding(entries):
    """Bytes between consecutive blocks of one range."""
    return sum(b['Offset'] - (a['Offset'] + a['Size'])
               for a, b in zip(entries, entries[1:]))


def main():
    args = sys.argv[1:]
    profiled = None
    if len(args) == 5 and args[3] == '--profiled':
        profiled = functions(args[4])
        args = args[:3]
    if len(args) != 3:
        sys.exit(__doc__)
    want = clusters(args[0])
    order = [l.strip() for l in open(args[1]) if l.strip()]
    maps = functions(args[2])
    bad = added = padded = 0
    used = set()
    for names, ids in want:
        name = names[0]
        # The functions of any of the names (an alias may name the function
        # in the map), each taken by one cluster at most: local functions of
        # one name have a cluster each, told apart by their blocks.
        candidates = [f for n in names for f in maps.get(n, [])
                      if id(f) not in used]
        if not candidates:
            print('%s: not in the rebuilt binary' % name)
            bad += 1
            continue
        ranged = [(g, ranges_of(g, profiled)) for g in candidates]
        f, (ranges, extra) = next((c for c in ranged if c[1][0][0] == ids),
                                  ranged[0])
        used.add(id(f))
        added += extra
        hot_ok = ranges[0] == ids
        cold_ok = all(i not in ids for r in ranges[1:] for i in r)
        pad = padding(f['BB Ranges'][0]['BB Entries'])
        padded += pad
        print('%s: hot cluster %s, %d other ranges %s, %d bytes of padding' %
              (name, 'as asked' if hot_ok else 'DIFFERS %s != %s' %
               (ranges[0], ids), len(ranges) - 1,
               'cold' if cold_ok else 'HOLD HOT BLOCKS', pad))
        bad += not (hot_ok and cold_ok)
    starts = [min(f['At'] for f in maps[n]) for n in order if n in maps]
    in_order = starts == sorted(starts)
    print('function order: %s (%d functions)' %
          ('as asked' if in_order else 'DIFFERS', len(starts)))
    bad += not in_order
    if profiled is not None:
        print('blocks the compiler added: %d' % added)
    print('layout: %s, %d bytes of padding in hot parts' %
          ('as asked' if bad == 0 else '%d differences' % bad, padded))
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
