#!/usr/bin/env python3
"""fdata-diff.py - compare two fdata files as sorted line sets, leaving out
the lines of functions no basic-block address map covers (start-up code,
PLT entries and BOLT's PLT pseudo function, which perf2bolt names and
bbmap-profile does not claim to match; docs/profile.md), under their plain,
`name/N` and BAT `name/file/N` names.

Usage: fdata-diff.py EXPECTED ACTUAL
Prints "identical: N lines" or each differing line and "differ"; exits 1
when they differ or when no line was compared.
"""
import re
import sys

OUTSIDE = re.compile(
    r"^[012] (_start|_init|_fini|__do_global_dtors_aux|deregister_tm_clones|"
    r"register_tm_clones|frame_dummy|__libc_csu_\w+|\S*@PLT|__BOLT_PSEUDO\S*)"
    r"(/[^ /]+)?(/\d+)? ")


def lines(path):
    return sorted(l for l in open(path).read().splitlines()
                  if not OUTSIDE.match(l))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    want, got = lines(sys.argv[1]), lines(sys.argv[2])
    if want == got and want:
        print("identical: %d lines" % len(want))
        return
    for l in sorted(set(want) - set(got)):
        print("- " + l)
    for l in sorted(set(got) - set(want)):
        print("+ " + l)
    print("differ")
    sys.exit(1)


if __name__ == "__main__":
    main()
