#!/usr/bin/env python3
"""run-each.py - run bbmap-dump on each of many inputs and report how it ended.

Usage: run-each.py [--expect-error] 'COMMAND' FILE...

Runs COMMAND FILE (COMMAND is split like a shell word list) for each FILE
and prints, per file, "== NAME: exit N" and its standard error with the
file's path shortened to NAME (its base name). The run fails (status 1,
"CRASH" in the report) if any exit status is other than 0 or 1: a signal,
a sanitizer abort or a shell-style crash status above 128. With
--expect-error it also fails for an exit status of 0 or for a standard
error without a "bbmap-dump: error: 'PATH': " line.
"""
import os
import shlex
import subprocess
import sys


def main():
    args = sys.argv[1:]
    expect_error = args[:1] == ['--expect-error']
    if expect_error:
        args = args[1:]
    command, files = shlex.split(args[0]), args[1:]
    failed = False
    for path in files:
        name = os.path.basename(path)
        p = subprocess.run(command + [path], stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True,
                           errors='replace')
        err = p.stderr.replace(path, name)
        print('== %s: exit %d' % (name, p.returncode))
        sys.stdout.write(err)
        if p.returncode not in (0, 1):
            print('CRASH: %s ended with status %d' % (name, p.returncode))
            failed = True
        elif expect_error and (p.returncode == 0 or
                               "bbmap-dump: error: '%s': " % name
                               not in err):
            print('NO ERROR: %s' % name)
            failed = True
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
