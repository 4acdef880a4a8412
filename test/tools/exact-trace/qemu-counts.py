#!/usr/bin/env python3
"""qemu-counts.py - per-instruction execution counts of one ELF executable
from count-plugin.c's output: the independent truth of the exact-trace
checks for programs valgrind cannot run (arm64 under qemu-aarch64).

Usage: qemu-counts.py BINARY RAW_COUNTS -o COUNTS [--load-bias N]

Writes `ADDRESS COUNT` (hex without 0x, decimal) for every instruction of
BINARY's executable segments that executed, ADDRESS being BINARY's own
virtual address (the guest address minus the load bias QEMU gave a PIE,
found from the '# start_code' line as for trace-plugin.c's output); the
format of callgrind-counts.py, which check-trace.py and
check-block-counts.py read.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import elfinfo  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('binary')
    ap.add_argument('raw')
    ap.add_argument('-o', '--output', required=True)
    ap.add_argument('--load-bias', type=lambda s: int(s, 0))
    args = ap.parse_args()
    elf = elfinfo.Elf(args.binary)
    header, counts = {}, []
    with open(args.raw) as f:
        for line in f:
            if line.startswith('#'):
                words = line[1:].split()
                if len(words) == 2 and words[1].startswith('0x'):
                    header[words[0]] = int(words[1], 16)
                continue
            addr, count = line.split()
            counts.append((int(addr, 16), int(count)))
    bias = elfinfo.trace_load_bias(elf, header, args.load_bias)
    with open(args.output, 'w') as out:
        for addr, count in counts:
            if elf.in_exec(addr - bias):
                out.write('%x %d\n' % (addr - bias, count))


if __name__ == '__main__':
    main()
