#!/usr/bin/env python3
"""summary-diff.py - compare perf2bolt's summary with bbmap-profile's
perf2bolt mode (docs/profile.md, "perf2bolt mode").

Usage: summary-diff.py P2B_STDOUT P2B_STDERR DROPIN_STDOUT DROPIN_STDERR

Standard output must be the same line for line once perf2bolt's lines about
its own process (LEFT_OUT) are dropped and the file named by `wrote ...
to F` is set aside; of standard error, the lines scripts grep (WARNINGS)
must be the same. Prints "same summary: N lines" or both versions of what
differs; exits 1 when something differs or nothing was compared.
"""
import re
import sys

# What perf2bolt says of its own process, which the drop-in mode leaves out.
LEFT_OUT = re.compile(
    r"^(BOLT-INFO: (Target architecture|BOLT version|first alloc address|"
    r"creating new program header table|enabling |pre-processing profile|"
    r"forcing -jump-tables=|binary build-id is|shared object or "
    r"position-independent executable detected|fixed indirect branch "
    r"detected)|"
    r"PERF2BOLT: (spawning perf job|waiting for perf|matched build-id|"
    r"parsing perf-script|input binary is associated with))")
WARNINGS = re.compile(
    r"^(BOLT-WARNING: (BOLT is estimated|the output profile is empty)|"
    r"PERF2BOLT-WARNING: )")
WROTE = re.compile(r"( memory objects to ).*$")


def read(path, keep):
    return [WROTE.sub(r"\1F", l) for l in open(path).read().splitlines()
            if keep(l)]


def compare(name, want, got):
    if want == got:
        return True
    print("%s differs:\n--- perf2bolt\n%s\n--- drop-in\n%s" %
          (name, "\n".join(want), "\n".join(got)))
    return False


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    want_out = read(sys.argv[1], lambda l: not LEFT_OUT.match(l))
    got_out = read(sys.argv[3], lambda l: True)
    want_err = read(sys.argv[2], WARNINGS.match)
    got_err = read(sys.argv[4], WARNINGS.match)
    same = compare("standard output", want_out, got_out)
    same = compare("standard error", want_err, got_err) and same
    if not same or not want_out:
        sys.exit(1)
    print("same summary: %d lines" % (len(want_out) + len(want_err)))


if __name__ == "__main__":
    main()
