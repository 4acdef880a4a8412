#!/usr/bin/env python3
"""table-oracle.py - expected `bbmap-dump --output-style=table` output,
computed independently from llvm-readobj's JSON dump of the same files.

Reads `llvm-readobj --elf-output-style=JSON --bb-addr-map FILE...` output
and writes the table docs/dumper.md describes: a '# ' header line, then per
block 'file, function, range_base, block_id, start, end, flags' separated by
tabs, addresses as lower-case 0x hex, start = base + offset, end = start +
size, flags as RTEFI letters or '-'. Also writes per-file statistics
(functions, blocks, multi-range functions, functions at a nonzero address)
so that a test can check what its inputs cover.

Usage: table-oracle.py READOBJ.json EXPECTED-OUT STATS-OUT
"""

import json
import sys

FLAGS = [('HasReturn', 'R'), ('HasTailCall', 'T'), ('IsEHPad', 'E'),
         ('CanFallThrough', 'F'), ('HasIndirectBranch', 'I')]


def merge_maps(pairs):
    """A file object has one "BBAddrMap" member per map section."""
    obj = {}
    for key, value in pairs:
        if key == 'BBAddrMap':
            obj.setdefault(key, []).extend(value)
        else:
            obj[key] = value
    return obj


def main():
    dump_path, expected_path, stats_path = sys.argv[1:]
    with open(dump_path) as f:
        dump = json.load(f, object_pairs_hook=merge_maps)
    with open(expected_path, 'w') as out, open(stats_path, 'w') as stats:
        out.write('# file\tfunction\trange_base\tblock_id\tstart\tend\tflags\n')
        for file_obj in dump:
            name = file_obj['FileSummary']['File']
            functions = blocks = multi = nonzero = 0
            for entry in file_obj.get('BBAddrMap', []):
                fn = entry['Function']
                functions += 1
                multi += len(fn['BB Ranges']) > 1
                nonzero += fn['At'] != 0
                for rng in fn['BB Ranges']:
                    base = rng['Base Address']
                    for b in rng['BB Entries']:
                        blocks += 1
                        start = base + b['Offset']
                        flags = ''.join(letter if b[key] else '-'
                                        for key, letter in FLAGS)
                        out.write('%s\t%s\t%#x\t%d\t%#x\t%#x\t%s\n' %
                                  (name, fn['Name'], base, b['ID'], start,
                                   start + b['Size'], flags))
            stats.write('%s: functions %d, blocks %d, multi-range %d, '
                        'nonzero address %d\n' %
                        (name, functions, blocks, multi, nonzero))


if __name__ == '__main__':
    main()
