#!/usr/bin/env python3
"""perf-malformed.py - cuts and corrupts perf.data files and checks how
bbmap-dump --perf-data takes each variant.

Usage: perf-malformed.py --bbmap-dump PATH [--perf PERF] [--out DIR] FILE...
       perf-malformed.py --write-only --out DIR FILE...

Variants of each FILE (file or pipe mode, either byte order):
  truncations: inside the header, after it, inside the first records, at
    and just past record boundaries through the data, inside the features,
    one byte short;
  bad sizes: a record size of 0, 7 and 0xffff at the first, a middle and
    the last record; an attr_size of 0 and 8;
  bad offsets: the attrs, data and first feature section moved past the
    end of the file, a data size past it.

Each variant must either be printed (exit 0; with --perf, byte-identical to
what perf script prints for it, -F ip and -F brstack) or be rejected with
exit 1 and exactly one line on standard error that names an offset
(`offset 0x...`). Anything else (another exit status, a crash, several
lines, a message without an offset) is printed as a `BAD` line. With
--out, the variants are written there; with --write-only, only that
(fuzz/make-corpus.sh). Prints per file:
`NAME: N variants, R rejected with an offset, P printed`.
"""
import argparse
import os
import re
import struct
import subprocess
import sys
import tempfile

MAGIC = 0x32454c4946524550


def byte_order(data):
    m, = struct.unpack_from('<Q', data, 0)
    return '<' if m == MAGIC else '>'


def records(data, e, start, end):
    """Offsets of the records in [start, end)."""
    out = []
    at = start
    while at + 8 <= end:
        size, = struct.unpack_from(e + 'H', data, at + 6)
        if size < 8:
            break
        out.append(at)
        at += size
    return out


def variants(data):
    e = byte_order(data)
    size_field, = struct.unpack_from(e + 'Q', data, 8)
    pipe = size_field == 16
    if pipe:
        data_start, data_end = 16, len(data)
    else:
        data_start, data_size = struct.unpack_from(e + 'QQ', data, 40)
        data_end = data_start + data_size
    recs = records(data, e, data_start, data_end)
    cut = {8, 50, data_start, data_start + 4, len(data) - 1}
    if not pipe:
        cut |= {104, 120, data_end + 8, (data_end + len(data)) // 2}
    step = max(1, len(recs) // 12)
    for r in recs[::step]:
        cut |= {r, r + 3, r + 12}
    for n in sorted(c for c in cut if 0 < c < len(data)):
        yield 'cut-%d' % n, data[:n]
    for name, r in (('first', recs[0]), ('middle', recs[len(recs) // 2]),
                    ('last', recs[-1])) if recs else ():
        for bad in (0, 7, 0xffff):
            d = bytearray(data)
            struct.pack_into(e + 'H', d, r + 6, bad)
            yield 'size-%s-%d' % (name, bad), bytes(d)
    if pipe:
        return
    for bad in (0, 8):
        d = bytearray(data)
        struct.pack_into(e + 'Q', d, 16, bad)
        yield 'attr-size-%d' % bad, bytes(d)
    for name, field in (('attrs', 24), ('data', 40)):
        d = bytearray(data)
        struct.pack_into(e + 'Q', d, field, len(data) + 8)
        yield 'offset-%s' % name, bytes(d)
    d = bytearray(data)
    struct.pack_into(e + 'Q', d, 48, len(data))
    yield 'data-size', bytes(d)
    if data_end + 16 <= len(data):
        d = bytearray(data)
        struct.pack_into(e + 'Q', d, data_end, len(data) + 64)
        yield 'offset-feature', bytes(d)


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout, p.stderr.decode(errors='replace')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--bbmap-dump')
    ap.add_argument('--write-only', action='store_true')
    ap.add_argument('--perf')
    ap.add_argument('--out')
    ap.add_argument('files', nargs='+')
    args = ap.parse_args()
    if args.write_only != (args.bbmap_dump is None) or \
            (args.write_only and not args.out):
        ap.error('give --bbmap-dump, or --write-only with --out')
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for path in args.files:
            with open(path, 'rb') as f:
                data = f.read()
            base = os.path.basename(path)
            n = rejected = printed = 0
            for vname, vdata in variants(data):
                n += 1
                vpath = os.path.join(args.out or tmp, '%s.%s' % (base, vname))
                with open(vpath, 'wb') as f:
                    f.write(vdata)
                if args.write_only:
                    continue
                for fields in ('ip', 'brstack'):
                    flags = ['--brstack'] if fields == 'brstack' else []
                    rc, out, err = run([args.bbmap_dump, '--perf-data'] +
                                       flags + [vpath])
                    lines = err.splitlines()
                    if rc == 1 and len(lines) == 1 and \
                            re.search(r'offset 0x[0-9a-f]+: ', lines[0]):
                        rejected += fields == 'ip'
                        continue
                    if rc != 0:
                        print('BAD %s %s: exit %d: %s' %
                              (vname, fields, rc, err.strip()[:300]))
                        ok = False
                        continue
                    printed += fields == 'ip'
                    if not args.perf:
                        continue
                    prc, pout, _ = run(
                        [args.perf, 'script', '-F', 'pid,event,' + fields,
                         '--show-mmap-events', '--show-task-events', '-G',
                         '--no-itrace', '-i', vpath])
                    if pout != out:
                        print('BAD %s %s: printed, but not what perf script '
                              'prints (exit %d)' % (vname, fields, prc))
                        ok = False
                if not args.out:
                    os.unlink(vpath)
            if not args.write_only:
                print('%s: %d variants, %d rejected with an offset, %d '
                      'printed' % (base, n, rejected, printed))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
