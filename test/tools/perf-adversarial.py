#!/usr/bin/env python3
"""perf-adversarial.py - writes small perf.data files whose fields are
valid one by one but ask the reader for far more memory or time than their
size: each once made bbmap-dump or bbmap-profile take gigabytes or minutes
(test/perf/adversarial.test).

Usage: perf-adversarial.py --out DIR [--binary BINARY]

Writes into DIR:
  ids-overlap.data   2000 attrs whose ID sections are all the same 300 KB
                     (perf writes them apart);
  many-events.data   60000 attrs, each with its own ID, and 100000 samples
                     of the last one;
  zstd-queue.data    perf record -z data that unpacks to 1.5 GB of timed
                     samples (60 KB of RAW each) and no FINISHED_ROUND;
and, with --binary (a fixed-address ELF64 executable):
  zstd-stacks.data   perf record -z data that unpacks to 1.5 GB of untimed
                     samples with 2700-entry branch stacks within BINARY's
                     executable segment;
  mmaps.data         20000 mmaps in one process, then a sample;
  pidless.data       20000 processes with one mmap each, each followed by a
                     sample without TID (the PID-less view of every process).
All are little-endian file mode, event cpu-clock. The compressed ones need
libzstd (found through ctypes).
"""
import argparse
import ctypes
import ctypes.util
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                'exact-trace'))
import elfinfo  # noqa: E402

# Record types, sample_type bits and features (perf_event.h, perf's header.h).
MMAP, SAMPLE, COMPRESSED = 1, 9, 81
S_IP, S_TID, S_TIME, S_ID, S_RAW, S_BRANCH_STACK = 1, 2, 4, 64, 1024, 2048
F_SAMPLE_ID_ALL = 1 << 18
FEAT_COMPRESSED = 27
ATTR_SIZE = 128
PERF_TYPE_SOFTWARE = 1
MISC_USER = 2


def attr(sample_type, sample_id_all=True):
    a = bytearray(ATTR_SIZE)
    flags = F_SAMPLE_ID_ALL if sample_id_all else 0
    struct.pack_into('<IIQQQQQ', a, 0, PERF_TYPE_SOFTWARE, ATTR_SIZE, 0, 1,
                     sample_type, 0, flags)
    return bytes(a)


def record(rtype, body, misc=0):
    return struct.pack('<IHH', rtype, misc, 8 + len(body)) + body


def perf_file(attrs, data, features=None):
    """A file: header, attrs (with their ID sections given as (offset,
    size), or as a list of IDs written before the attrs), data, features."""
    features = features or {}
    header_size = 104
    ids_blob = bytearray()
    sections = []
    for _, ids in attrs:
        if isinstance(ids, tuple):
            sections.append(ids)
        else:
            sections.append((header_size + len(ids_blob), 8 * len(ids)))
            ids_blob += b''.join(struct.pack('<Q', i) for i in ids)
    attrs_at = header_size + len(ids_blob)
    attrs_blob = b''.join(a + struct.pack('<QQ', *s)
                          for (a, _), s in zip(attrs, sections))
    data_at = attrs_at + len(attrs_blob)
    bits = sorted(features)
    table, blobs = bytearray(), bytearray()
    blobs_at = data_at + len(data) + 16 * len(bits)
    bitmap = [0, 0, 0, 0]
    for b in bits:
        table += struct.pack('<QQ', blobs_at + len(blobs), len(features[b]))
        blobs += features[b]
        bitmap[b // 64] |= 1 << (b % 64)
    header = struct.pack('<8sQQQQQQQQ4Q', b'PERFILE2', header_size,
                         ATTR_SIZE + 16, attrs_at, len(attrs_blob), data_at,
                         len(data), 0, 0, *bitmap)
    return header + bytes(ids_blob) + attrs_blob + data + table + blobs


def ids_overlap():
    """Every attr's IDs are the same section: all of the file but the
    header."""
    n = 2000
    sample = record(SAMPLE, struct.pack('<QIIQQ', 0x1000, 1, 1, 1, 7))
    size = 104 + n * (ATTR_SIZE + 16) + len(sample)
    shared = (104, (size - 104) // 8 * 8)
    return perf_file([(attr(S_IP | S_TID | S_TIME | S_ID), shared)] * n,
                     sample)


def many_events():
    n, samples = 60000, 100000
    a = attr(S_IP | S_TID | S_TIME | S_ID)
    data = b''.join(record(SAMPLE, struct.pack('<QIIQQ', 0x1000, 1, 1, t, n))
                    for t in range(1, samples + 1))
    return perf_file([(a, [i + 1]) for i in range(n)], data)


def zstd_records(one, total):
    """PERF_RECORD_COMPRESSED records of one zstd stream holding ONE
    repeated up to TOTAL bytes."""
    lib = ctypes.CDLL(ctypes.util.find_library('zstd') or 'libzstd.so.1')

    class Buffer(ctypes.Structure):
        _fields_ = [('ptr', ctypes.c_void_p), ('size', ctypes.c_size_t),
                    ('pos', ctypes.c_size_t)]

    lib.ZSTD_createCCtx.restype = ctypes.c_void_p
    lib.ZSTD_compressStream2.restype = ctypes.c_size_t
    lib.ZSTD_compressStream2.argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                                         ctypes.c_void_p, ctypes.c_int]
    lib.ZSTD_isError.argtypes = [ctypes.c_size_t]
    lib.ZSTD_freeCCtx.argtypes = [ctypes.c_void_p]
    cctx = lib.ZSTD_createCCtx()
    src = ctypes.create_string_buffer(one, len(one))
    chunk = 60000
    dst = ctypes.create_string_buffer(chunk)
    out = bytearray()
    for i in range(total // len(one) + 1):
        last = i == total // len(one)
        inb = Buffer(ctypes.cast(src, ctypes.c_void_p), 0 if last else len(one),
                     0)
        while True:
            outb = Buffer(ctypes.cast(dst, ctypes.c_void_p), chunk, 0)
            left = lib.ZSTD_compressStream2(cctx, ctypes.byref(outb),
                                            ctypes.byref(inb), 2 if last else 0)
            if lib.ZSTD_isError(left):
                sys.exit('zstd failed')
            out += dst.raw[:outb.pos]
            if (last and left == 0) or (not last and inb.pos == inb.size):
                break
    lib.ZSTD_freeCCtx(cctx)
    return b''.join(record(COMPRESSED, out[i:i + chunk])
                    for i in range(0, len(out), chunk))


# HEADER_COMPRESSED: version, type (zstd), level, ratio, mmap_len.
COMPRESSED_FEATURE = {FEAT_COMPRESSED: struct.pack('<5I', 0, 1, 1, 0, 0)}


def zstd_queue():
    raw = bytes(60000)
    one = record(SAMPLE, struct.pack('<QIIQI', 0x1000, 1, 1, 5, len(raw)) +
                 raw + bytes(4))
    return perf_file([(attr(S_IP | S_TID | S_TIME | S_RAW), [7])],
                     zstd_records(one, 1536 << 20), COMPRESSED_FEATURE)


def zstd_stacks(binary):
    """Branches among the first bytes of BINARY's executable segment, at
    its own addresses (a fixed-address BINARY needs no mmap)."""
    n = 2700
    base = Mapper(binary).vaddr
    stack = b''.join(struct.pack('<QQQ', base + 16 * (i % 8), base + 0x100, 0)
                     for i in range(n))
    one = record(SAMPLE, struct.pack('<QIIQ', base, 1, 1, n) + stack)
    return perf_file([(attr(S_IP | S_TID | S_BRANCH_STACK), [7])],
                     zstd_records(one, 1536 << 20), COMPRESSED_FEATURE)


class Mapper:
    """Executable MMAP records of a binary's first executable segment, with
    a sample_id_all trailer of TIME alone."""

    def __init__(self, binary):
        elf = elfinfo.Elf(binary)
        self.vaddr, self.size, self.offset, _, _ = next(
            s for s in elf.segments if s[4] & 1)
        self.name = os.path.abspath(binary).encode() + b'\0'

    def record(self, pid, start, time):
        body = struct.pack('<IIQQQ', pid, pid, start, self.size,
                           self.offset) + self.name
        body += bytes(-len(body) % 8) + struct.pack('<Q', time)
        return record(MMAP, body, MISC_USER)


def mmaps(binary):
    """Process 1 maps the binary 20000 times, each a page higher; a sample
    at the segment's start of the first follows."""
    n, start = 20000, 0x10000000
    m = Mapper(binary)
    recs = [m.record(1, start + i * 0x1000, i + 1) for i in range(n)]
    recs.append(record(SAMPLE, struct.pack('<QIIQ', start, 1, 1, n + 1)))
    return perf_file([(attr(S_IP | S_TID | S_TIME), [7])], b''.join(recs))


def pidless(binary):
    """Processes 1000 to 20999 each map the binary; a sample without TID at
    the segment's start follows each mmap."""
    n, start = 20000, 0x10000000
    m = Mapper(binary)
    recs = []
    for i in range(n):
        recs.append(m.record(1000 + i, start, 2 * i + 1))
        recs.append(record(SAMPLE, struct.pack('<QQ', start, 2 * i + 2)))
    return perf_file([(attr(S_IP | S_TIME), [7])], b''.join(recs))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', required=True)
    ap.add_argument('--binary')
    args = ap.parse_args()
    files = {'ids-overlap': ids_overlap, 'many-events': many_events,
             'zstd-queue': zstd_queue}
    if args.binary:
        files['zstd-stacks'] = lambda: zstd_stacks(args.binary)
        files['mmaps'] = lambda: mmaps(args.binary)
        files['pidless'] = lambda: pidless(args.binary)
    os.makedirs(args.out, exist_ok=True)
    for name, make in files.items():
        with open(os.path.join(args.out, name + '.data'), 'wb') as f:
            f.write(make())
    return 0


if __name__ == '__main__':
    sys.exit(main())
