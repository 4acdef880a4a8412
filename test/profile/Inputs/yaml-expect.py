#!/usr/bin/env python3
"""yaml-expect.py - FileCheck lines for `bbmap-dump --bolt-yaml`'s totals of
a YAML profile as BOLT writes it, counted from its lines (independently of
bbmap's reader): functions (`fid:` at function indentation), functions
with blocks, listed blocks and the sum of the function `exec` counts.

Usage: yaml-expect.py PROFILE.yaml > PROFILE.expect
"""
import re
import sys


def main():
    text = open(sys.argv[1]).read()
    functions = len(re.findall(r'^    fid: ', text, re.M))
    with_blocks = len(re.findall(r'^    blocks:$', text, re.M))
    blocks = len(re.findall(r'^      - bid: ', text, re.M))
    execs = sum(int(x) for x in re.findall(r'^    exec: +(\d+)$', text, re.M))
    print('CHECK: Functions: %d' % functions)
    print('CHECK-NEXT: Functions with blocks: %d' % with_blocks)
    print('CHECK-NEXT: Blocks: %d' % blocks)
    print('CHECK: Total function exec count: %d' % execs)
    print('CHECK-NEXT: Functions left out: 0')
    print('CHECK-COUNT-%d: {{^ *[0-9]+ +0x[0-9A-F]+ .*$}}' % functions)
    print('CHECK-NOT: {{.}}')


if __name__ == '__main__':
    main()
