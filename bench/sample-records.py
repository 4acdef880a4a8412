#!/usr/bin/env python3
"""sample-records.py - a large pre-aggregated profile drawn from a real one.

Usage: sample-records.py SRC.pa N OUT.pa
Writes N records drawn at random, with replacement and a fixed seed, from
SRC.pa's records (so every record is a real trace or branch of the binary
and every tool accepts it), each with a random count of 1 to 1000.
"""
import random
import sys

src, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
recs = []
for line in open(src):
    w = line.split()
    if w:  # the count is the last field, except for B (COUNT MISPREDS)
        recs.append(' '.join(w[:3]) + ' %d ' + w[4] + '\n' if w[0] == 'B'
                    else ' '.join(w[:-1]) + ' %d\n')
rng = random.Random(1)
with open(out, 'w') as f:
    for i in range(0, n, 65536):
        k = min(65536, n - i)
        f.write(''.join(r % c for r, c in zip(rng.choices(recs, k=k),
                                               rng.choices(range(1, 1001), k=k))))
