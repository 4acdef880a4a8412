#!/usr/bin/env python3
"""ideal-samples.py - IP samples as a perfect sampler would take them, from
exact per-instruction counts: the deterministic stand-in for
`perf record -e cpu-clock` used to measure profile inference.

Usage: ideal-samples.py COUNTS --period N [--random] [--seed S] [-o OUT]

COUNTS is callgrind-counts.py output (`ADDRESS COUNT`, hex address). The
run's instruction executions are taken in address order and every N-th one
is a sample (systematic sampling: an instruction executed C times gets
floor((A + C) / N) - floor(A / N) samples, A being the executions before
it), so the samples are proportional to instructions executed, with the
rounding a real sampler's period gives. With --random the samples are
as many, at positions drawn uniformly over the run's executions (fixed
seed): a sampler whose period varies at random (like SPE's jittered
interval), whose counts carry the sampling noise systematic sampling
hides. Writes BOLT pre-aggregated `S ADDRESS COUNT` lines (`bbmap-profile
--pa`).
"""
import argparse
import bisect
import random
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("counts")
    ap.add_argument("--period", type=int, required=True)
    ap.add_argument("--random", action="store_true")
    ap.add_argument("--seed", type=int, default=39)
    ap.add_argument("-o", "--output", default="-")
    args = ap.parse_args()
    if args.period < 1:
        sys.exit("ideal-samples.py: --period must be at least 1")
    rows = []
    with open(args.counts) as f:
        for line in f:
            address, count = line.split()
            rows.append((int(address, 16), int(count)))
    rows.sort()
    out = sys.stdout if args.output == "-" else open(args.output, "w")
    if args.random:
        samples = random_samples(rows, args.period, args.seed)
    else:
        samples = systematic_samples(rows, args.period)
    for address, n in samples:
        out.write(f"S {address:x} {n}\n")


def systematic_samples(rows, period):
    before = 0
    for address, count in rows:
        samples = (before + count) // period - before // period
        before += count
        if samples:
            yield address, samples


def random_samples(rows, period, seed):
    ends = []
    total = 0
    for _, count in rows:
        total += count
        ends.append(total)
    rng = random.Random(seed)
    hits = {}
    for _ in range(total // period):
        i = bisect.bisect_right(ends, rng.randrange(total))
        hits[i] = hits.get(i, 0) + 1
    return [(rows[i][0], n) for i, n in sorted(hits.items())]

if __name__ == "__main__":
    main()
