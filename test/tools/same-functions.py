#!/usr/bin/env python3
"""same-functions.py - whether named functions have the same blocks, edges
and calls in two `bbmap-profile --format=json` profiles of one binary.

Usage: same-functions.py A.json B.json FUNCTION...

Prints `FUNCTION: identical` or `FUNCTION: differs` with the first
difference, for each FUNCTION; exits 1 if any differs.
"""
import json
import sys

from profile_json import blocks, calls, edges


def of(table, name):
    return {k: v for k, v in table.items() if k[0] == name}


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    a, b = (json.load(open(p)) for p in sys.argv[1:3])
    tables = [(kind, fn(a), fn(b)) for kind, fn in
              (("block", lambda p: blocks(p, ("Count",))), ("edge", edges),
               ("call", calls))]
    status = 0
    for name in sys.argv[3:]:
        diff = [f"{kind} {k[1:]}: {of(ta, name).get(k)} != {of(tb, name).get(k)}"
                for kind, ta, tb in tables
                for k in sorted(set(of(ta, name)) | set(of(tb, name)), key=str)
                if ta.get(k) != tb.get(k)]
        if not of(tables[0][1], name):
            diff = ["not in " + sys.argv[1]] + diff
        print(f"{name}: " + ("identical" if not diff else "differs: " + diff[0]))
        status |= bool(diff)
    return status


if __name__ == "__main__":
    sys.exit(main())
