#!/usr/bin/env python3
"""kernel-entries.py - turns perf script branch stacks into stacks that an
interrupt cut, as LBR records them with a user-only filter: in every Nth
stack the second newest entry becomes a return from kernel code that lands
at the newest entry's source (an instruction inside its block, where the
interrupt hit), so its run has no length.

Usage: kernel-entries.py SCRIPT N > OUT
"""
import sys

KERNEL = '0xffffffff81000000'


def main():
    path, every = sys.argv[1], int(sys.argv[2])
    n = 0
    for line in open(path):
        head, sep, stack = line.partition(':  ')
        entries = stack.split()
        if sep and len(entries) > 1:
            if n % every == 0:
                newest_source = entries[0].split('/')[0]
                fields = entries[1].split('/')
                fields[0], fields[1] = KERNEL, newest_source
                entries[1] = '/'.join(fields)
                line = head + sep + '  '.join(entries) + ' \n'
            n += 1
        sys.stdout.write(line)


if __name__ == '__main__':
    main()
