#!/usr/bin/env python3
"""lookup-addresses.py - writes COUNT look-up addresses for FILE's map.

Reads `bbmap-dump --output-style=json --bb-addr-map FILE` on stdin and writes
COUNT hexadecimal addresses, one per line, to OUT: 95% at a random byte of a
random non-empty block (uniform over blocks, as samples land on hot code of
every size), 5% uniform over the mapped span (mostly gaps and padding, so
misses are exercised too). Fixed seed: the same input gives the same file.

Usage: bbmap-dump ... | lookup-addresses.py COUNT OUT
"""

import json
import random
import sys


def main():
    count, out_path = int(sys.argv[1]), sys.argv[2]
    starts, sizes = [], []
    for file_obj in json.load(sys.stdin):
        for entry in file_obj['BBAddrMap']:
            for rng in entry['Function']['BB Ranges']:
                for b in rng['BB Entries']:
                    if b['Size']:
                        starts.append(rng['Base Address'] + b['Offset'])
                        sizes.append(b['Size'])
    if not starts:
        sys.exit('lookup-addresses.py: no non-empty blocks in the input')
    rnd = random.Random(1)
    low, high = min(starts), max(s + n for s, n in zip(starts, sizes))
    picks = rnd.choices(range(len(starts)), k=count)
    with open(out_path, 'w') as out:
        lines = []
        for i in picks:
            if rnd.random() < 0.05:
                addr = rnd.randrange(low, high)
            else:
                addr = starts[i] + rnd.randrange(sizes[i])
            lines.append('%#x\n' % addr)
            if len(lines) == 1 << 16:
                out.writelines(lines)
                lines.clear()
        out.writelines(lines)
    print('%d blocks, %d addresses written to %s' % (len(starts), count,
                                                    out_path))


if __name__ == '__main__':
    main()
