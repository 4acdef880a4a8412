#!/usr/bin/env python3
"""lookup-oracle.py - expected `bbmap-dump --lookup-file` output, computed
independently from llvm-readobj's JSON dump of the same file.

Reads `llvm-readobj --elf-output-style=JSON --bb-addr-map` output, writes a
look-up file probing every block (start, start-1, last byte, end; each as
:from and :to) and the text bbmap-dump must print for it, using a plain scan
over the blocks and the rule of docs/dumper.md:
  - a block covers [start, end); zero-size blocks cover nothing;
  - ADDR:to names the first block starting at ADDR (ties: smaller end first,
    then map order), else falls back to the :from rule;
  - ADDR:from names the block covering ADDR.

Usage: lookup-oracle.py READOBJ.json FILE-NAME ADDRS-OUT EXPECTED-OUT
"""

import json
import sys


def blocks_of(dump):
    """Yields (start, end, order, function, range, id) for every block."""
    order = 0
    for file_obj in dump:
        for entry in file_obj['BBAddrMap']:
            fn = entry['Function']
            for r, rng in enumerate(fn['BB Ranges']):
                for b in rng['BB Entries']:
                    start = rng['Base Address'] + b['Offset']
                    yield (start, start + b['Size'], order, fn['Name'], r,
                           b['ID'])
                    order += 1


def resolve(blocks, addr, side):
    if side == 'to':
        starting = [b for b in blocks if b[0] == addr]
        if starting:
            return min(starting)
    covering = [b for b in blocks if b[0] <= addr < b[1]]
    assert len(covering) <= 1, 'overlapping blocks at %#x' % addr
    return covering[0] if covering else None


def main():
    dump_path, name, addrs_path, expected_path = sys.argv[1:]
    with open(dump_path) as f:
        blocks = sorted(blocks_of(json.load(f)))
    if len(blocks) < 10:
        sys.exit('lookup-oracle.py: only %d blocks in the dump' % len(blocks))
    probes = []
    for start, end, *_ in blocks:
        for addr in sorted({start, max(start, 1) - 1, max(start, end - 1), end}):
            probes += [(addr, 'from'), (addr, 'to')]
    zero = sum(1 for b in blocks if b[0] == b[1])
    multi = len({b[3] for b in blocks if b[4] > 0})
    print('probes: %d, blocks: %d, zero-size: %d, multi-range functions: %d'
          % (len(probes), len(blocks), zero, multi))
    with open(addrs_path, 'w') as out, open(expected_path, 'w') as exp:
        exp.write('# %s: address offset range id start end function\n' % name)
        for addr, side in probes:
            out.write('%#x:%s\n' % (addr, side))
            hit = resolve(blocks, addr, side)
            if hit is None:
                exp.write('%#x - - - - - -\n' % addr)
                continue
            start, end, _, fn, r, bid = hit
            exp.write('%#x %#x %d %d %#x %#x %s\n' %
                      (addr, addr - start, r, bid, start, end, fn))


if __name__ == '__main__':
    main()
