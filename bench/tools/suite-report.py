#!/usr/bin/env python3
"""suite-report.py - the markdown report of bench/layout-suite.sh from its
rows (TSV, one per case, profile kind and build):

  CASE KIND BUILD AS_BUILT MEAN MIN MAX INSTRUCTIONS LLI CPU

AS_BUILT, MEAN, MIN and MAX are simulated I1 misses (as built, and over the
placements); LLI (cachegrind's LLi misses) and CPU (median seconds) are '-'
when not measured. BUILD is one of plain, before, bbmap, bbmap-placed,
bbmap-cloned (CLONE=1), blocks, relink-functions, relink-program
(RELINK=1), BOLT.

Usage: suite-report.py ROWS.tsv
"""
import sys

BUILDS = ('plain', 'before', 'bbmap', 'bbmap-placed', 'bbmap-cloned', 'blocks',
          'relink-functions', 'relink-program', 'BOLT')


def num(v):
    return None if v in ('-', '') else float(v)


def ratio(a, b):
    return '-' if a is None or b is None or b == 0 else '%.3f' % (a / b)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    rows = {}
    order = []
    with open(sys.argv[1]) as f:
        for line in f:
            w = line.rstrip('\n').split('\t')
            if len(w) != 10:
                sys.exit('suite-report.py: bad row: %r' % line)
            key = (w[0], w[1])
            if key not in rows:
                rows[key] = {}
                order.append(key)
            rows[key][w[2]] = {
                'as_built': num(w[3]), 'mean': num(w[4]), 'min': num(w[5]),
                'max': num(w[6]), 'ins': num(w[7]), 'lli': num(w[8]),
                'cpu': num(w[9])}
    has_cpu = any(b['cpu'] is not None for r in rows.values() for b in r.values())

    def get(r, build, m):
        return r.get(build, {}).get(m)

    print('## Summary (simulated I1 misses; ratios to BOLT, lower is better)')
    print()
    head = ['case', 'profile', 'before/BOLT as built', 'before/BOLT mean',
            'bbmap/BOLT as built', 'bbmap/BOLT mean',
            'placed/BOLT as built', 'placed/BOLT mean',
            'placed as built / best placement']
    if has_cpu:
        head += ['bbmap/BOLT CPU', 'placed/BOLT CPU']
    print('| ' + ' | '.join(head) + ' |')
    print('|---|---|' + '---:|' * (len(head) - 2))
    fails = []
    for key in order:
        r = rows[key]
        cells = list(key)
        cells.append(ratio(get(r, 'before', 'as_built'), get(r, 'BOLT', 'as_built')))
        cells.append(ratio(get(r, 'before', 'mean'), get(r, 'BOLT', 'mean')))
        cells.append(ratio(get(r, 'bbmap', 'as_built'), get(r, 'BOLT', 'as_built')))
        cells.append(ratio(get(r, 'bbmap', 'mean'), get(r, 'BOLT', 'mean')))
        cells.append(ratio(get(r, 'bbmap-placed', 'as_built'), get(r, 'BOLT', 'as_built')))
        cells.append(ratio(get(r, 'bbmap-placed', 'mean'), get(r, 'BOLT', 'mean')))
        best = ratio(get(r, 'bbmap-placed', 'as_built'), get(r, 'bbmap-placed', 'min'))
        if best != '-' and float(best) > 1.05:
            fails.append('%s %s' % key)
            best += ' (>1.05)'
        cells.append(best)
        if has_cpu:
            cells.append(ratio(get(r, 'bbmap', 'cpu'), get(r, 'BOLT', 'cpu')))
            cells.append(ratio(get(r, 'bbmap-placed', 'cpu'), get(r, 'BOLT', 'cpu')))
        print('| ' + ' | '.join(cells) + ' |')
    print()
    if not any('bbmap-placed' in r for r in rows.values()):
        print('(no bbmap-placed build was measured: its columns are "-")')
    elif fails:
        print('placement as built more than 5%% above the best measured one: %s'
              % ', '.join(fails))
    else:
        print('every bbmap-placed build as built is within 5% of its best measured placement')
    relinked = [k for k in order if 'relink-functions' in rows[k]]
    for k in relinked:
        r = rows[k]
        print()
        print('%s %s: blocks/plain %s as built, %s mean, %s instructions; '
              'relink-functions/bbmap %s, %s; relink-program/bbmap %s, %s '
              '(as built, mean)' % (k + (
                  ratio(get(r, 'blocks', 'as_built'), get(r, 'plain', 'as_built')),
                  ratio(get(r, 'blocks', 'mean'), get(r, 'plain', 'mean')),
                  ratio(get(r, 'blocks', 'ins'), get(r, 'plain', 'ins')),
                  ratio(get(r, 'relink-functions', 'as_built'), get(r, 'bbmap', 'as_built')),
                  ratio(get(r, 'relink-functions', 'mean'), get(r, 'bbmap', 'mean')),
                  ratio(get(r, 'relink-program', 'as_built'), get(r, 'bbmap', 'as_built')),
                  ratio(get(r, 'relink-program', 'mean'), get(r, 'bbmap', 'mean')))))
    cloned = [k for k in order if 'bbmap-cloned' in rows[k]]
    if cloned:
        print()
        print('bbmap-cloned/bbmap (I1 as built, mean; instructions): ' + '; '.join(
            '%s %s %s, %s; %s' % (k + (
                ratio(get(rows[k], 'bbmap-cloned', 'as_built'), get(rows[k], 'bbmap', 'as_built')),
                ratio(get(rows[k], 'bbmap-cloned', 'mean'), get(rows[k], 'bbmap', 'mean')),
                ratio(get(rows[k], 'bbmap-cloned', 'ins'), get(rows[k], 'bbmap', 'ins'))))
            for k in cloned))
    cases = []
    for c, _ in order:
        if c not in cases:
            cases.append(c)
    for c in cases:
        print()
        print('## %s' % c)
        for key in order:
            if key[0] != c:
                continue
            r = rows[key]
            print()
            print('%s profile (I1 misses: as built, and over placements; mean/BOLT '
                  'is the placement mean over BOLT\'s)' % key[1])
            print()
            print('| build | as built | mean | min | max | mean/BOLT | instructions'
                  ' | LLi misses | CPU s |')
            print('|---|---:|---:|---:|---:|---:|---:|---:|---:|')
            for b in BUILDS:
                if b not in r:
                    continue
                v = r[b]

                def n(x, fmt='%.0f'):
                    return '-' if x is None else fmt % x
                print('| %s | %s | %s | %s | %s | %s | %s | %s | %s |' % (
                    b, n(v['as_built']), n(v['mean']), n(v['min']), n(v['max']),
                    ratio(v['mean'], get(r, 'BOLT', 'mean')), n(v['ins']),
                    n(v['lli']), n(v['cpu'], '%.3f')))


if __name__ == '__main__':
    main()
