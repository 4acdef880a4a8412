#!/usr/bin/env python3
"""every-entry-type.py - derive a pre-aggregated profile that uses every
BOLT 22 entry type from one in the 22 dialect of a real run (T lines).

Usage: every-entry-type.py TRACE.pa > EVERY.pa
Each `T from to end n` line also yields `B from to n m`, `F to end n`,
`f to end n`, `r to end n`, `R 0 to end n` (a return from outside) and
`S to n`; one `E` line names an event. The result is no longer one run's
profile, but every record is a real branch or run of the binary.
"""
import sys

print("E cycles")
for i, line in enumerate(open(sys.argv[1])):
    f = line.split()
    if not f or f[0] != "T" or ":" in line:
        continue
    src, dst, end, n = f[1:5]
    print(line.rstrip())
    print("B %s %s %s %d" % (src, dst, n, i % 3))
    print("F %s %s %s" % (dst, end, n))
    print("f %s %s %s" % (dst, end, n))
    print("r %s %s %s" % (dst, end, n))
    print("R 0 %s %s %s" % (dst, end, n))
    print("S %s %s" % (dst, n))
