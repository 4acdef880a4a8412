#!/usr/bin/env python3
"""compare-block-profiles.py - compare two bbmap-profile JSON profiles of
one binary block by block.

Usage: compare-block-profiles.py EXPECTED.json ACTUAL.json [--all]
                                 [--no-returns]

Both are `bbmap-profile --format=json` output charged to the same binary's
blocks, e.g. the input binary's own profile and a profile of its BOLTed
version translated with --input-binary. Compares every block (count and
returns, by address and ID; a block absent from one side counts 0 there),
and with --all also every CFG edge (by function address and block IDs)
and every call site (site, callee, tail call). --no-returns compares
block counts alone, not returns (a BOLT YAML profile counts every return,
a trace only those into the binary). Prints one line per kind:

  blocks compared: N (E executed), mismatches: M

and up to 10 differences of each. Exits 1 on a block mismatch (and, with
--all, an edge or call mismatch) or when no block was compared.
"""
import json
import sys

from profile_json import blocks, calls, edges


def compare(kind, expected, actual, zero):
    keys = sorted(set(expected) | set(actual), key=str)
    bad = executed = 0
    for k in keys:
        want, got = expected.get(k, zero), actual.get(k, zero)
        executed += want != zero
        if want != got:
            bad += 1
            if bad <= 10:
                print("MISMATCH %s %s: expected %s, got %s" % (kind, k, want, got))
    print("%s compared: %d (%d executed), mismatches: %d"
          % (kind, len(keys), executed, bad))
    return bad, len(keys)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 2:
        sys.exit(__doc__)
    expected, actual = (json.load(open(a)) for a in args)
    fields = ("Count",) if "--no-returns" in sys.argv else ("Count", "Returns")
    bad, n = compare("blocks", blocks(expected, fields),
                     blocks(actual, fields), (0,) * len(fields))
    if "--all" in sys.argv:
        bad += compare("edges", edges(expected), edges(actual), 0)[0]
        bad += compare("calls", calls(expected), calls(actual), 0)[0]
    sys.exit(1 if bad or n == 0 else 0)


if __name__ == "__main__":
    main()
