#!/usr/bin/env python3
"""random-records.py - a pre-aggregated profile (perf2bolt-22 dialect) of
distinct records drawn at random over a program's blocks.

Usage: random-records.py MAP.json N OUT.pa
MAP.json is `bbmap-dump --bb-addr-map --output-style=json` of the program.
Records are traces (T) and branches (B) whose ends are block starts, block
ends, or any byte of the mapped code, so that some fit and some do not:
jumps into blocks, runs across ranges or backwards, ends outside. The
random generator has a fixed seed: the same map gives the same profile.
"""
import json
import random
import sys

map_json, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
blocks = []
for f in json.load(open(map_json))[0]["BBAddrMap"]:
    for r in f["Function"]["BB Ranges"]:
        for b in r["BB Entries"]:
            start = r["Base Address"] + b["Offset"]
            blocks.append((start, start + b["Size"]))
rng = random.Random(1)
low, high = blocks[0][0], blocks[-1][1]


def address():
    start, end = rng.choice(blocks)
    return rng.choice([start, max(start, end - 1), rng.randrange(low, high)])


seen = set()
with open(out, "w") as pa:
    while len(seen) < n:
        kind = rng.choice("TTTB")
        src, dst = address(), address()
        if kind == "T":
            end = dst + rng.randrange(0, 64) if rng.random() < 0.9 else address()
            record = "T %x %x %x %d" % (src, dst, end, rng.randrange(1, 1000))
        else:
            record = "B %x %x %d 0" % (src, dst, rng.randrange(1, 1000))
        key = tuple(record.split()[:4])
        if key not in seen:
            seen.add(key)
            pa.write(record + "\n")
