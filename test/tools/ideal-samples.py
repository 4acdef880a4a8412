#!/usr/bin/env python3
"""ideal-samples.py - IP samples as a perfect sampler would take them, from
exact per-instruction counts: the deterministic stand-in for
`perf record -e cpu-clock` used to measure profile inference.

Usage: ideal-samples.py COUNTS --period N [-o OUT]

COUNTS is callgrind-counts.py output (`ADDRESS COUNT`, hex address). The
run's instruction executions are taken in address order and every N-th one
is a sample (systematic sampling: an instruction executed C times gets
floor((A + C) / N) - floor(A / N) samples, A being the executions before
it), so the samples are proportional to instructions executed, with the
rounding a real sampler's period gives. Writes BOLT pre-aggregated `S
ADDRESS COUNT` lines (`bbmap-profile --pa`).
"""
import argparse
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("counts")
    ap.add_argument("--period", type=int, required=True)
    ap.add_argument("-o", "--output", default="-")
    args = ap.parse_args()
    if args.period < 1:
        sys.exit("ideal-samples.py: --period must be at least 1")
    rows = []
    with open(args.counts) as f:
        for line in f:
            address, count = line.split()
            rows.append((int(address, 16), int(count)))
    out = sys.stdout if args.output == "-" else open(args.output, "w")
    before = 0
    for address, count in sorted(rows):
        samples = (before + count) // args.period - before // args.period
        before += count
        if samples:
            out.write(f"S {address:x} {samples}\n")


if __name__ == "__main__":
    main()
