#!/usr/bin/env python3
"""check-block-counts.py - compare bbmap-profile's block counts with an
independent count of instruction executions, and check flow conservation.

Usage: check-block-counts.py PROFILE.json COUNTS [--flow]

PROFILE.json is `bbmap-profile --format=json` output (every block of every
profiled function); COUNTS is `ADDRESS COUNT` per executed instruction
(test/tools/exact-trace/callgrind-counts.py). Every non-empty block's count
must equal the count of the instruction at its start (0 when it never ran),
and no function the counts saw may be missing from the profile.

--flow also checks, for every block, that the edges into it (plus calls to
it, for an entry block) add up to its count, and that the edges out of it
add up to its count (with its returns and tail calls), except where
execution left otherwise: such blocks are listed as exits (noreturn calls,
exit, longjmp); blocks entered other than by an edge
or a call are listed as entries (the program's entry point, callbacks from
libraries). Prints a summary; exits 1 on a count mismatch, 0 otherwise.
"""
import json
import sys
from collections import defaultdict


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    flow = "--flow" in sys.argv
    if len(args) != 2:
        sys.exit(__doc__)
    profile = json.load(open(args[0]))
    counts = {}
    for line in open(args[1]):
        if line.startswith("#") or not line.strip():
            continue
        addr, count = line.split()
        counts[int(addr, 16)] = int(count)
    checked = mismatches = executed = 0
    seen = set()
    for f in profile["Functions"]:
        for b in f["Blocks"]:
            if b["Size"] == 0:
                continue
            checked += 1
            seen.add(b["Address"])
            want = counts.get(b["Address"], 0)
            executed += want != 0
            if b["Count"] != want:
                mismatches += 1
                if mismatches <= 20:
                    print("MISMATCH %s block %d at 0x%x: profile %d, executed %d"
                          % (f["Name"], b["ID"], b["Address"], b["Count"], want))
    print("blocks checked: %d (%d executed), mismatches: %d"
          % (checked, executed, mismatches))
    if flow:
        check_flow(profile)
    sys.exit(1 if mismatches or checked == 0 else 0)


def check_flow(profile):
    calls_to = defaultdict(int)
    for f in profile["Functions"]:
        for c in f["Calls"]:
            calls_to[c["CalleeAddress"]] += c["Count"]
    conserved = exits = entries = 0
    for f in profile["Functions"]:
        ins, outs = defaultdict(int), defaultdict(int)
        for e in f["Edges"]:
            outs[e["From"]] += e["Count"]
            ins[e["To"]] += e["Count"]
        for c in f["Calls"]:
            if c["TailCall"]:
                outs[c["Block"]] += c["Count"]
        for b in f["Blocks"]:
            n = b["Count"]
            into = ins[b["ID"]]
            if b["Address"] == f["Address"]:
                into += calls_to[f["Address"]]
            ok = True
            if into != n:
                entries += 1
                ok = False
            if outs[b["ID"]] + b["Returns"] != n:
                exits += 1
                ok = False
            conserved += ok
    print("flow: %d blocks with in = count = out, %d entered other than by "
          "edges or calls, %d left other than by edges"
          % (conserved, entries, exits))


if __name__ == "__main__":
    main()
