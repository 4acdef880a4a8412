#!/usr/bin/env python3
"""repeat-records.py - write a pre-aggregated profile N times over, and the
same profile with each record's count multiplied by N.

Usage: repeat-records.py IN.pa N BIG.pa SUMMED.pa [BAD_LINE]
BIG.pa is large enough to be read in parts on several cores; both must
give the same result. With BAD_LINE, that line of BIG.pa is replaced by a
malformed one.
"""
import sys

src, n, big, summed = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
bad = int(sys.argv[5]) if len(sys.argv) > 5 else 0
lines = [l.split() for l in open(src) if l.strip() and not l.startswith("E")]
with open(big, "w") as out:
    number = 0
    for _ in range(n):
        for f in lines:
            number += 1
            out.write("Q 1 2 3\n" if number == bad else " ".join(f) + "\n")
with open(summed, "w") as out:
    for f in lines:
        # The count is the last field but for B lines (count, mispredicts).
        c = -2 if f[0] == "B" else -1
        f = list(f)
        f[c] = str(int(f[c]) * n)
        if f[0] == "B":
            f[-1] = str(int(f[-1]) * n)
        out.write(" ".join(f) + "\n")
