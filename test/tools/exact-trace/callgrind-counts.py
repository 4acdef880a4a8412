#!/usr/bin/env python3
"""callgrind-counts.py - per-instruction execution counts of one ELF object
from a callgrind run: the independent truth for the exact-trace checks.

Usage:
  callgrind-counts.py BINARY -o COUNTS -- PROGRAM [ARGS...]
      runs `valgrind --tool=callgrind --dump-instr=yes --collect-jumps=yes
      --compress-strings=no --compress-pos=no` on PROGRAM (stdin is passed
      through) and converts its output;
  callgrind-counts.py BINARY -o COUNTS --callgrind-out FILE
      converts an existing callgrind output written with those options.

Writes `ADDRESS COUNT` (hex without 0x, decimal) for every instruction of
BINARY that executed, ADDRESS being BINARY's own virtual address: callgrind
already writes each object's addresses minus its load bias (a PIE appears
at its link addresses), so --load-bias (default 0) is only for unusual
setups.

Counting rules:
  - An instruction's count is the sum of its self cost lines (event Ir). The
    cost line right after a `calls=` line is the call's inclusive cost and is
    skipped.
  - callgrind (VEX) runs a rep-prefixed string instruction as a loop that
    re-enters the instruction once per iteration: it checks the count
    register, exits if it is zero, else does one iteration and jumps back to
    itself. Its Ir is therefore executions + iterations, and the self-jumps
    (`jcnd=` lines from X to X) number the iterations. For rep string
    instructions (decoded from BINARY's bytes) the count written is Ir minus
    those self-jumps: one per execution, as the trace plugin counts. Without
    jump data (--collect-jumps=no) such counts cannot be corrected and the
    script fails.
"""
import argparse
import collections
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import elfinfo  # noqa: E402

VALGRIND_FLAGS = ['--tool=callgrind', '--dump-instr=yes', '--collect-jumps=yes',
                  '--skip-plt=no',
                  '--compress-strings=no', '--compress-pos=no']


def parse_callgrind(path, object_path):
    """Returns (Ir per address, self-jump count per address, jumps seen) for
    the instructions of the object whose name resolves to OBJECT_PATH."""
    want = os.path.realpath(object_path)
    base = os.path.basename(want)
    ir = collections.Counter()
    self_jumps = collections.Counter()
    npos = 1
    in_object = False
    skip_next_cost = False
    pending_jump = None  # (target, taken) waiting for its source position
    seen_jumps = False
    name_match = {}

    def matches(name):
        if name not in name_match:
            real = os.path.realpath(name) if os.path.isabs(name) else name
            name_match[name] = real == want or os.path.basename(name) == base
        return name_match[name]

    with open(path) as f:
        for line in f:
            c = line[:1]
            if c == '0' or c.isdigit() or c in '+-*':
                words = line.split()
                if pending_jump is not None:
                    target, taken = pending_jump
                    pending_jump = None
                    if in_object and int(words[0], 0) == target:
                        self_jumps[target] += taken
                    if len(words) <= npos:
                        continue
                if skip_next_cost:
                    skip_next_cost = False
                    continue
                if in_object and len(words) > npos:
                    ir[int(words[0], 0)] += int(words[npos])
                continue
            if line.startswith('ob='):
                in_object = matches(line[3:].strip())
            elif line.startswith('calls='):
                skip_next_cost = True
            elif line.startswith('jump=') or line.startswith('jcnd='):
                seen_jumps = True
                rest = line.split('=', 1)[1]
                words = rest.split()
                taken = int(words[0].split('/')[0])
                pending_jump = (int(words[1], 0), taken)
            elif line.startswith('positions:'):
                npos = len(line.split()) - 1
            elif line.startswith('events:'):
                if line.split()[1] != 'Ir':
                    raise SystemExit('callgrind-counts.py: first event is not Ir')
    return ir, self_jumps, seen_jumps


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('binary')
    ap.add_argument('-o', '--output', default='-')
    ap.add_argument('--callgrind-out', help='read this callgrind output')
    ap.add_argument('--keep', help='with a command: keep the callgrind output here')
    ap.add_argument('--load-bias', type=lambda s: int(s, 0),
                    help='subtract this from callgrind addresses')
    argv = sys.argv[1:]
    cmd = []
    if '--' in argv:
        cmd = argv[argv.index('--') + 1:]
        argv = argv[:argv.index('--')]
    args = ap.parse_args(argv)
    if bool(cmd) == bool(args.callgrind_out):
        ap.error('give either --callgrind-out FILE or -- PROGRAM ARGS')
    out_file = args.callgrind_out
    tmp = None
    if cmd:
        if args.keep:
            out_file = args.keep
        else:
            tmp = tempfile.NamedTemporaryFile(prefix='callgrind.', delete=False)
            out_file = tmp.name
            tmp.close()
        rc = subprocess.call(['valgrind', '-q', *VALGRIND_FLAGS,
                              '--callgrind-out-file=' + out_file, *cmd])
        if rc != 0:
            print('callgrind-counts.py: the program exited with status %d' % rc,
                  file=sys.stderr)
    try:
        ir, self_jumps, seen_jumps = parse_callgrind(out_file, args.binary)
    finally:
        if tmp:
            os.unlink(out_file)
    elf = elfinfo.Elf(args.binary)
    bias = args.load_bias or 0
    counts = {}
    reps = 0
    for addr, n in ir.items():
        vaddr = addr - bias
        if elfinfo.is_rep_string(elf.read(vaddr, 15)):
            if not seen_jumps:
                raise SystemExit('callgrind-counts.py: rep string instruction at '
                                 '%x but no jump data (use --collect-jumps=yes)'
                                 % vaddr)
            n -= self_jumps.get(addr, 0)
            reps += 1
        if n:
            counts[vaddr] = n
    out = sys.stdout if args.output == '-' else open(args.output, 'w')
    for vaddr in sorted(counts):
        out.write('%x %d\n' % (vaddr, counts[vaddr]))
    if out is not sys.stdout:
        out.close()
    print('callgrind-counts.py: %d instructions, %d executions, %d rep string '
          'instructions corrected, load bias 0x%x'
          % (len(counts), sum(counts.values()), reps, bias), file=sys.stderr)


if __name__ == '__main__':
    main()
