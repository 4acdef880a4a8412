#!/usr/bin/env python3
"""code-pages.py - the pages of a program's code that a run touched, from
the output of bench/tools/icache-plugin.so: the iTLB-relevant figure of a
layout (hot code packed on fewer pages needs fewer TLB entries).

Usage: code-pages.py ICACHE_OUTPUT PROGRAM [--page BYTES]

Counts the cache lines of the guest mappings whose path ends with PROGRAM
(the executable or shared object measured), grouped into pages of BYTES
(default 4096). Prints one line:

  pages N hot99 H hot90 T fetches F

N pages were fetched from at all; H (T) is the fewest pages that hold 99 %
(90 %) of the program's line fetches.
"""
import argparse
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("icache")
    ap.add_argument("program")
    ap.add_argument("--page", type=int, default=4096)
    args = ap.parse_args()
    ranges, fetches = [], {}
    with open(args.icache) as f:
        for line in f:
            if line.startswith("# map "):
                lo_hi, _, path = line[6:].split(maxsplit=2)
                if path.strip().endswith(args.program):
                    lo, hi = (int(x, 16) for x in lo_hi.split("-"))
                    ranges.append((lo, hi))
            elif not line.startswith("#"):
                _, addr, count, _ = line.split()
                addr = int(addr, 16)
                fetches[addr] = fetches.get(addr, 0) + int(count)
    if not ranges:
        sys.exit(f"code-pages.py: no mapping of {args.program} in {args.icache}")
    pages = {}
    for addr, count in fetches.items():
        if any(lo <= addr < hi for lo, hi in ranges):
            page = addr // args.page
            pages[page] = pages.get(page, 0) + count
    total = sum(pages.values())
    hot = sorted(pages.values(), reverse=True)

    def fewest(share):
        run = 0
        for n, count in enumerate(hot, 1):
            run += count
            if run >= share * total:
                return n
        return len(hot)

    print(f"pages {len(pages)} hot99 {fewest(0.99)} hot90 {fewest(0.90)} fetches {total}")


if __name__ == "__main__":
    main()
