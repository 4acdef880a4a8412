#!/usr/bin/env python3
"""yaml-reserved-ids.py - BOLT YAML profiles whose ids are the two values
llvm::DenseMap reserves as uint32_t keys: 4294967295 (its empty key) and
4294967294 (its tombstone key).

Usage: yaml-reserved-ids.py cases OUT_DIR
         writes OUT_DIR/fid-KEY.yaml and OUT_DIR/bid-KEY.yaml for each KEY:
         `main` has fid KEY and a later function `dup` has it again (it is
         the one left out); or `main`'s block 0 has a successor bid KEY
         (nblocks 4294967295) that no count of its own marks as profiled.
       yaml-reserved-ids.py renumber IN.yaml PADDED.yaml RENUMBERED.yaml
         PADDED is IN with filler functions; RENUMBERED is PADDED with the
         fids of the two functions called from the most call sites made
         4294967295 and 4294967294, in their calls too. Prints the two.
A reserved id comes first and is followed by enough other ids (filler
functions, successors) that a hash table holding them grows: a table that
took the tombstone key as a key loses it then.
"""
import collections
import re
import sys

RESERVED = {'empty': 4294967295, 'tombstone': 4294967294}
FILLERS = 64

HEADER = '''---
header:
  profile-version: 1
  binary-name:     'a.out'
  binary-build-id: '<unknown>'
  profile-flags:   [ lbr ]
  profile-origin:  'perf data aggregator'
  profile-events:  ''
  dfs-order:       false
  hash-func:       xxh3
functions:
'''


def function(name, fid, nblocks=0, blocks=''):
    return ('  - name:            %s\n    fid:             %d\n'
            '    hash:            0x0\n    exec:            1\n'
            '    nblocks:         %d\n%s' % (name, fid, nblocks, blocks))


def fillers():
    return ''.join(function('filler%d' % i, 1000 + i) for i in range(FILLERS))


def fid_case(key):
    blocks = ('    blocks:\n'
              '      - { bid: 0, insns: 1, exec: 1 }\n')
    return (HEADER + function('main', key, 1, blocks) + fillers() +
            function('dup', key) + '...\n')


def bid_case(key):
    succ = ', '.join('{ bid: %d, cnt: 1 }' % b
                     for b in [key] + list(range(1, FILLERS + 1)))
    blocks = ['    blocks:\n',
              '      - bid:             0\n        insns:           1\n'
              '        exec:            %d\n        succ:            [ %s ]\n'
              % (FILLERS + 1, succ)]
    blocks += ['      - { bid: %d, insns: 1 }\n' % b
               for b in [key] + list(range(1, FILLERS + 1))]
    return (HEADER + function('main', 1, 4294967295, ''.join(blocks)) +
            '...\n')


def cases(out):
    for name, key in RESERVED.items():
        with open('%s/fid-%s.yaml' % (out, name), 'w') as f:
            f.write(fid_case(key))
        with open('%s/bid-%s.yaml' % (out, name), 'w') as f:
            f.write(bid_case(key))


CALL_FID = re.compile(r'(\{ off: 0x[0-9A-Fa-f]+, fid: )(\d+)')
FUNC_FID = re.compile(r'^(    fid:\s+)(\d+)$', re.M)
NAME = re.compile(r'^  - name:\s+(.*)$', re.M)


def renumber(src, padded_out, renumbered_out):
    text = open(src).read()
    end = text.rindex('...')
    padded = text[:end] + fillers() + text[end:]
    calls = collections.Counter(int(m.group(2))
                                for m in CALL_FID.finditer(padded))
    callees = [fid for fid, _ in calls.most_common(2)]
    if len(callees) != 2:
        raise SystemExit('renumber: fewer than two callees in ' + src)
    new = dict(zip(callees, RESERVED.values()))

    def swap(m):
        fid = int(m.group(2))
        return m.group(1) + str(new.get(fid, fid))

    renumbered = CALL_FID.sub(swap, FUNC_FID.sub(swap, padded))
    names = dict(zip((int(m.group(2)) for m in FUNC_FID.finditer(padded)),
                     (m.group(1).strip("'") for m in NAME.finditer(padded))))
    for path, data in ((padded_out, padded), (renumbered_out, renumbered)):
        with open(path, 'w') as f:
            f.write(data)
    for fid in callees:
        print('fid %d -> %d: %s, called from %d sites' %
              (fid, new[fid], names[fid], calls[fid]))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == 'cases':
        cases(sys.argv[2])
    elif len(sys.argv) == 5 and sys.argv[1] == 'renumber':
        renumber(*sys.argv[2:])
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()
