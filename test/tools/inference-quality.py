#!/usr/bin/env python3
"""inference-quality.py - how close inferred block and edge counts are to
exact ones for the same run.

Usage: inference-quality.py EXACT.json INFERRED.json [--min-share S]
           [--scale=auto|bytes|none] [--share-only]

EXACT.json is `bbmap-profile --format=json` of an exact profile (every
branch of the run), INFERRED.json the same binary's profile of IP samples
with --infer-counts (Kind "inferred"), or a profile carried from another
build (--profiled-binary). Inferred counts are relative, so one scale
factor for the whole run is applied first: the one that makes the run's
executed code bytes (sum of count x block size) equal, as knowing the total
work of the run would. Counts of executions (a carried exact profile of
the same workload) are compared as they are. Then, over the blocks of the functions
the exact profile has:

  blocks: N, within 10%: B% of blocks, W% weighted by exact count
  edges: N, within 10%: B% of edges, W% weighted by exact count
  hot blocks found: H% of the exact count is in blocks inferred non-zero

A block absent from one side counts 0 there; a block whose exact count is
0 is within 10% only if its inferred count is 0 too. With --min-share S
(0..1), exits 1 when the count-weighted block share is below S.

--scale=bytes or none overrides the choice of scale by the profile's kind
(auto: none for executions, bytes otherwise). --share-only prints just the
count-weighted shares of blocks within 10% and within 2x (two numbers, in
percent), for scripts.
"""
import argparse
import json
import sys

from profile_json import blocks, edges


def within(exact, inferred, factor):
    if factor:
        return exact / factor <= inferred <= exact * factor
    return abs(inferred - exact) <= 0.1 * exact


def function_scales(eb, ib):
    """Per function: exact bytes / inferred bytes."""
    totals = {}
    for side, blocks_ in ((0, eb), (1, ib)):
        for k, (c, s) in blocks_.items():
            totals.setdefault(k[0], [0, 0])[side] += c * s
    return {f: (e / i if i else 0) for f, (e, i) in totals.items()}


def shares(exact, inferred, scale, factor=None):
    """scale: a number, or a per-function dict."""
    keys = set(exact) | set(inferred)
    close = weight_close = weight = 0
    for k in keys:
        e = exact.get(k, 0)
        s = scale[k[0]] if isinstance(scale, dict) else scale
        i = inferred.get(k, 0) * s
        ok = within(e, i, factor)
        close += ok
        weight += e
        weight_close += e if ok else 0
    n = len(keys)
    return n, 100.0 * close / max(n, 1), 100.0 * weight_close / max(weight, 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("exact")
    ap.add_argument("inferred")
    ap.add_argument("--min-share", type=float)
    ap.add_argument("--scale", choices=("auto", "bytes", "none"),
                    default="auto")
    ap.add_argument("--share-only", action="store_true")
    args = ap.parse_args()
    exact_p = json.load(open(args.exact))
    inf_p = json.load(open(args.inferred))
    kind = inf_p["Profile"]["Kind"]
    if kind == "samples":
        sys.exit(f"inference-quality.py: {args.inferred}: counts are "
                 f"samples, neither inferred nor executions")
    eb = blocks(exact_p, ("Count", "Size"))
    ib = blocks(inf_p, ("Count", "Size"))
    functions = {k[0] for k in eb}
    ib = {k: v for k, v in ib.items() if k[0] in functions}
    exact_bytes = sum(c * s for c, s in eb.values())
    inferred_bytes = sum(c * s for c, s in ib.values())
    if not exact_bytes or not inferred_bytes:
        sys.exit("inference-quality.py: no executed block on one side")
    scale = 1 if kind == "executions" else exact_bytes / inferred_bytes
    if args.scale != "auto":
        scale = 1 if args.scale == "none" else exact_bytes / inferred_bytes
    ec = {k: v[0] for k, v in eb.items()}
    ic = {k: v[0] for k, v in ib.items()}
    n, b, w = shares(ec, ic, scale)
    if args.share_only:
        print(f"{w:.1f} {shares(ec, ic, scale, 2.0)[2]:.1f}")
        return 0
    print(f"blocks: {n}, within 10%: {b:.1f}% of blocks, {w:.1f}% weighted "
          f"by exact count")
    print(f"blocks within 2x: {shares(ec, ic, scale, 2.0)[2]:.1f}% weighted "
          f"by exact count")
    print(f"blocks within 10%, each function scaled alone: "
          f"{shares(ec, ic, function_scales(eb, ib))[2]:.1f}% weighted by "
          f"exact count")
    ee = edges(exact_p)
    ie = {k: v for k, v in edges(inf_p).items() if k[0] in functions}
    en, eb_, ew = shares(ee, ie, scale)
    print(f"edges: {en}, within 10%: {eb_:.1f}% of edges, {ew:.1f}% weighted "
          f"by exact count")
    hot = sum(c for k, c in ec.items() if ic.get(k, 0))
    print(f"hot blocks found: {100.0 * hot / max(sum(ec.values()), 1):.1f}% "
          f"of the exact count is in blocks inferred non-zero")
    if args.min_share is not None and w < 100.0 * args.min_share:
        print(f"FAIL: {w:.1f}% < {100.0 * args.min_share:.1f}%")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
