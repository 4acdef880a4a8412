#!/usr/bin/env python3
"""traintest-report.py - the Markdown report of bench/layout-traintest.sh.

Run in the bench's output directory, which holds per build B and measured
run R: cg/B.R.a and cg/B.R.b (cachegrind output files of the two
geometries), sim/B.R.K (icache-plugin output at placement K) and B.R.wall
(CPU seconds of the children before and after each timed run).

Usage: traintest-report.py --splits "same long" --kinds "trace perf"
           --shifts 8 --split-runs "same=s5:s5 long=s5:s100"
"""
import argparse
import importlib.util
import os
import statistics
import sys

TOOLS = os.path.dirname(os.path.abspath(__file__))
NAMES = {"plain": "plain -O2", "before": "bbmap, before",
         "bbmap": "bbmap", "bolt": "BOLT"}


def cachegrind(path):
    """(instructions, I1 misses, LLi misses) of a cachegrind output file."""
    events = summary = None
    with open(path) as f:
        for line in f:
            if line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith("summary:"):
                summary = [int(x) for x in line.split()[1:]]
    if not events or not summary:
        sys.exit(f"traintest-report.py: {path}: no cachegrind summary")
    e = dict(zip(events, summary))
    return e["Ir"], e["I1mr"], e["ILmr"]


def simulated_misses(path):
    with open(path) as f:
        for line in f:
            if line.startswith("# misses "):
                return int(line.split()[2])
    sys.exit(f"traintest-report.py: {path}: no '# misses' line")


def cpu_seconds(path):
    with open(path) as f:
        return statistics.median(float(b) - float(a)
                                 for a, b in (l.split() for l in f))


class Result:
    def __init__(self, build, run, shifts):
        self.ir, self.i1, self.lli1m = cachegrind(f"cg/{build}.{run}.a")
        _, i1b, self.lli2m = cachegrind(f"cg/{build}.{run}.b")
        # The runs differ by the few instructions of speedtest1's timing.
        if abs(i1b - self.i1) > max(100, self.i1 // 10000):
            sys.exit(f"traintest-report.py: {build} on {run}: the two "
                     f"cachegrind runs disagree on I1 misses ({self.i1}, "
                     f"{i1b})")
        self.placed = [simulated_misses(f"sim/{build}.{run}.{k}")
                       for k in range(shifts)]
        self.cpu = cpu_seconds(f"{build}.{run}.wall")

    @property
    def mean(self):
        return statistics.mean(self.placed)


def ratio(a, b):
    return f"{a / b:.3f}x" if b else "-"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--splits", required=True)
    ap.add_argument("--kinds", required=True)
    ap.add_argument("--shifts", type=int, required=True)
    ap.add_argument("--split-runs", required=True)
    args = ap.parse_args()
    runs = dict(item.split("=") for item in args.split_runs.split())
    splits, kinds = args.splits.split(), args.kinds.split()
    results = {}

    def get(build, run):
        if (build, run) not in results:
            results[build, run] = Result(build, run, args.shifts)
        return results[build, run]

    print("### bbmap against BOLT on the same profile\n")
    print("I1 misses of bbmap's layout / BOLT's: the binaries as built "
          "(cachegrind), and the mean over "
          f"{args.shifts} placements of the same code (simulated). "
          "Below 1: bbmap leaves fewer.\n")
    print("| split (trained -> measured) | profile | before / BOLT, as built "
          "| bbmap / BOLT, as built | before / BOLT, placements "
          "| bbmap / BOLT, placements |")
    print("|---|---|---:|---:|---:|---:|")
    worst = None
    for s in splits:
        train, test = runs[s].split(":")
        for k in kinds:
            bb, bf, bo = (get(f"{t}-{train}-{k}", test)
                          for t in ("bbmap", "before", "bolt"))
            print(f"| {s} ({train} -> {test}) | {k} | {ratio(bf.i1, bo.i1)} "
                  f"| {ratio(bb.i1, bo.i1)} | {ratio(bf.mean, bo.mean)} "
                  f"| {ratio(bb.mean, bo.mean)} |")
            if worst is None or bb.i1 / bo.i1 > worst[0]:
                worst = (bb.i1 / bo.i1, s, train, test, k)
    for s in splits:
        train, test = runs[s].split(":")
        print(f"\n### Split {s}: trained on {train}, measured on {test}\n")
        print("| build | profile | I1 misses | x plain | I1 over placements: "
              "mean [min-max] | x plain | LLi (LL 1M) | LLi (LL 2M) "
              "| instructions | CPU s |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        plain = get("plain", test)
        rows = [("plain", "-", plain)]
        for k in kinds:
            rows += [(t, k, get(f"{t}-{train}-{k}", test))
                     for t in ("before", "bbmap", "bolt")]
        for tool, k, r in rows:
            print(f"| {NAMES[tool]} | {k} | {r.i1:,} | {ratio(r.i1, plain.i1)} "
                  f"| {r.mean:,.0f} [{min(r.placed):,}-{max(r.placed):,}] "
                  f"| {ratio(r.mean, plain.mean)} | {r.lli1m:,} | {r.lli2m:,} "
                  f"| {r.ir:,} | {r.cpu:.3f} |")
    if worst:
        _, s, train, test, k = worst
        spec = importlib.util.spec_from_file_location(
            "icache_attribute", os.path.join(TOOLS, "icache-attribute.py"))
        attribute = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(attribute)
        print(f"\n### Per function, split {s}, {k} profile (bbmap furthest "
              "behind BOLT as built)\n")
        print("Simulated I1 misses at placement 0 (the binaries as built), "
              "each function's parts added up:\n")
        sys.stdout.flush()
        attribute.main([f"--by=function", "--top=15"] +
                       [f"{NAMES[t]}=sim/{t}-{train}-{k}.{test}.0"
                        for t in ("before", "bbmap", "bolt")])


if __name__ == "__main__":
    main()
