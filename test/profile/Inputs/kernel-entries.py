#!/usr/bin/env python3
"""kernel-entries.py - adds to perf script branch stacks what an interrupt
adds to LBR under a user-only filter: in every Nth stack, an entry from
kernel code back to the instruction the interrupt struck, inserted between
the two newest entries. It lands at the newest entry's source, inside the
run between the two, and the run it splits still ran whole.

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
                fields = entries[0].split('/')
                fields[0], fields[1] = KERNEL, fields[0]
                entries.insert(1, '/'.join(fields))
                line = head + sep + '  '.join(entries) + ' \n'
            n += 1
        sys.stdout.write(line)


if __name__ == '__main__':
    main()
