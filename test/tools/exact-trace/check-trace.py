#!/usr/bin/env python3
"""check-trace.py - checks trace-plugin run counts against callgrind's
per-instruction counts, block by block.

Usage: check-trace.py BINARY TRIPLES COUNTS [--load-bias N] [--llvm-config T]
                      [--preagg FILE]

BINARY carries a basic-block address map (decoded with `llvm-readobj
--bb-addr-map` of the LLVM that T, default llvm-config-22, names). TRIPLES
is trace-plugin output for a run of BINARY, COUNTS the callgrind-counts.py
output for a run of BINARY on the same input. The trace count of an address
is the number of executed runs [RunStart, BranchSource] containing it.

Checked: every block start of the map (trace count == callgrind count, 0 if
callgrind did not see the instruction), every call-site end the map records,
and every instruction callgrind counted in BINARY. Prints one summary line
per kind and the first mismatches; exits 1 on any mismatch, 2 on bad input.

With --preagg FILE (trace-to-preagg.py output, either format), the counts
are taken from FILE's fall-through ranges (T: [to, ft_end]; F and f:
[from, to]) instead of the triples: this checks that the profile covers
every execution of every instruction of BINARY exactly once.
"""
import argparse
import bisect
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import elfinfo  # noqa: E402


def map_points(readobj, binary):
    """(block starts, call-site ends) of BINARY's bb-addr-map, as sets of
    addresses."""
    text = subprocess.run([readobj, '--bb-addr-map', binary], check=True,
                          capture_output=True, text=True).stdout
    blocks, callsites = set(), set()
    base = block = None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith('Base Address:'):
            base = int(line.split(':')[1], 16)
        elif line.startswith('Offset:') and base is not None:
            block = base + int(line.split(':')[1], 16)
            blocks.add(block)
        elif line.startswith('Callsite End Offsets:') and block is not None:
            for off in re.findall(r'\d+', line.split(':', 1)[1]):
                callsites.add(block + int(off))
    return blocks, callsites


def trace_counts(triples, bias, points):
    """Count of each address of POINTS (sorted) in the runs of TRIPLES."""
    diff = [0] * (len(points) + 1)
    for run_start, source, _target, count in triples:
        lo = bisect.bisect_left(points, run_start - bias)
        hi = bisect.bisect_right(points, source - bias)
        if lo < hi:
            diff[lo] += count
            diff[hi] -= count
    out, acc = {}, 0
    for i, p in enumerate(points):
        acc += diff[i]
        out[p] = acc
    return out


def preagg_runs(path):
    """Fall-through ranges of a pre-aggregated profile as (start, end, None,
    count), in ELF addresses."""
    runs = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if w[0] == 'T':
                runs.append((int(w[2], 16), int(w[3], 16), None, int(w[4])))
            elif w[0] in ('F', 'f'):
                runs.append((int(w[1], 16), int(w[2], 16), None, int(w[3])))
            elif w[0] != 'B':
                raise ValueError('%s: unexpected line %r' % (path, line))
    return runs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('binary')
    ap.add_argument('triples')
    ap.add_argument('counts')
    ap.add_argument('--load-bias', type=lambda s: int(s, 0),
                    help='trace address minus ELF address (default: from the '
                         "trace's start_code for a PIE, else 0)")
    ap.add_argument('--llvm-config', default='llvm-config-22')
    ap.add_argument('--preagg', help='check this pre-aggregated profile')
    ap.add_argument('--show', type=int, default=10,
                    help='mismatches listed per kind')
    args = ap.parse_args()
    try:
        elf = elfinfo.Elf(args.binary)
        header, triples = elfinfo.read_triples(args.triples)
        bias = elfinfo.trace_load_bias(elf, header, args.load_bias)
        if args.preagg:
            triples, bias = preagg_runs(args.preagg), 0
        cg = {}
        with open(args.counts) as f:
            for line in f:
                a, n = line.split()
                cg[int(a, 16)] = int(n)
        blocks, callsites = map_points(
            elfinfo.llvm_tool('llvm-readobj', args.llvm_config), args.binary)
    except (OSError, ValueError, subprocess.CalledProcessError) as e:
        print('check-trace.py: %s' % e, file=sys.stderr)
        return 2
    if not blocks:
        print('check-trace.py: %s has no bb-addr-map blocks' % args.binary,
              file=sys.stderr)
        return 2
    points = sorted(blocks | callsites | set(cg))
    tc = trace_counts(triples, bias, points)
    failed = False
    for kind, addrs in (('blocks', blocks), ('call-site ends', callsites),
                        ('callgrind instructions', set(cg))):
        bad = [(a, tc[a], cg.get(a, 0)) for a in sorted(addrs)
               if tc[a] != cg.get(a, 0)]
        executed = sum(1 for a in addrs if cg.get(a, 0))
        print('%s: %d checked, %d executed, %d mismatches'
              % (kind, len(addrs), executed, len(bad)))
        for a, t, c in bad[:args.show]:
            fn = elf.function_of(a)
            where = '%s+0x%x' % (fn[2], a - fn[0]) if fn else '?'
            print('  %x (%s): trace %d, callgrind %d' % (a, where, t, c))
        failed = failed or bool(bad)
    print('%s: load bias 0x%x, %d records, %d runs' %
          (args.preagg or args.triples, bias, len(triples),
           sum(t[3] for t in triples)))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
