#!/usr/bin/env python3
"""peak-rss.py - runs a command and fails if its peak resident memory
exceeds a limit.

Usage: peak-rss.py LIMIT_MB COMMAND [ARG...]

Runs COMMAND (its standard streams are this script's), then prints
`peak RSS under LIMIT_MB MB` and exits 0, or prints the peak it reached
and exits 1; a command that fails makes this script fail with its status.
RSS counts the pages of mapped files a process holds, so this checks that
a reader gives back the pages of a file it has read.
"""
import resource
import subprocess
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    limit_mb = int(sys.argv[1])
    status = subprocess.run(sys.argv[2:]).returncode
    if status:
        return status
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    if peak_mb > limit_mb:
        print('peak RSS %.0f MB, over %d MB' % (peak_mb, limit_mb))
        return 1
    print('peak RSS under %d MB' % limit_mb)
    return 0


if __name__ == '__main__':
    sys.exit(main())
