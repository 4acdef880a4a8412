#!/usr/bin/env python3
"""perf-data-gen.py - writes a valid perf.data file with branch stacks (as
`perf record -b` writes on a machine with LBR) from an exact trace of a
program, for machines without branch-stack hardware.

Usage: perf-data-gen.py BINARY TRIPLES -o OUT [--pipe] [--hw-index]
           [--big-endian] [--depth N] [--samples N] [--size BYTES]
           [--unique N] [--pid N] [--load-bias N]

TRIPLES is the output of test/tools/exact-trace/trace-plugin.c: the runs
`RUNSTART SOURCE TARGET COUNT` of a complete run of BINARY. Each sample's
branch stack is a chain of branches that really followed each other: the
branch of a run (SOURCE -> TARGET) is followed by the branch of a run that
starts at TARGET, each run drawn in proportion to its executions (a fixed
seed: the same file every time), so that the samples spread over the trace
as a profiler's would; the newest branch comes first, as perf writes them.
Chains start in BINARY; branches outside it (in the C library, the dynamic
loader) stay in the stacks, as on real hardware.

The file has one event, `cycles:u` (PERF_TYPE_HARDWARE, sample_type
IP|TID|TIME|PERIOD|BRANCH_STACK, branch_sample_type ANY|USER, with
--hw-index also HW_INDEX), a COMM exec and an MMAP2 record of BINARY's
executable segment (at the trace's load address), the samples with
FINISHED_ROUND records between rounds of 256, and an EXIT; file mode has
the BUILD_ID, HOSTNAME, CMDLINE and EVENT_DESC features, a pipe (--pipe, as `perf
record -o -`) HEADER_ATTR, EVENT_UPDATE (the name) and HEADER_BUILD_ID
records. --big-endian writes the file a big-endian host writes (bit fields
allocated from the most significant bit). Every 7th entry is mispredicted, the others
predicted; cycles count 1 to 15.

--samples N writes N samples; --size BYTES writes samples until the file
holds that many bytes. With --unique N only N distinct stacks are made and
written over and over (timestamps still grow): large files in seconds.
"""
import argparse
import bisect
import os
import random
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                'exact-trace'))
import elfinfo  # noqa: E402

# Record types and bits (include/uapi/linux/perf_event.h, perf's header.h).
MMAP2, COMM, EXIT, SAMPLE = 10, 3, 4, 9
HEADER_ATTR, HEADER_BUILD_ID, FINISHED_ROUND, EVENT_UPDATE = 64, 67, 68, 78
MISC_USER, MISC_COMM_EXEC, MISC_BUILD_ID_SIZE = 2, 1 << 13, 1 << 15
S_IP, S_TID, S_TIME, S_PERIOD, S_BRANCH_STACK = 1, 2, 4, 256, 2048
B_USER, B_ANY, B_HW_INDEX = 1, 8, 1 << 17
# perf_event_attr flag bits, numbered as on a little-endian host.
F_DISABLED, F_INHERIT, F_EXCLUDE_KERNEL, F_EXCLUDE_HV = 0, 1, 5, 6
F_MMAP, F_COMM, F_FREQ, F_ENABLE_ON_EXEC, F_TASK = 8, 9, 10, 12, 13
F_SAMPLE_ID_ALL, F_EXCLUDE_GUEST, F_MMAP2, F_COMM_EXEC = 18, 20, 23, 24
FEAT_BUILD_ID, FEAT_HOSTNAME, FEAT_CMDLINE, FEAT_EVENT_DESC = 2, 3, 11, 12
ATTR_SIZE = 128
EVENT_ID = 42
NAME = 'cycles:u'
PERIOD = 100003
ROUND = 256


def build_id(path):
    """The GNU build ID of an ELF64 little-endian file, or b''."""
    with open(path, 'rb') as f:
        d = f.read()
    shoff, = struct.unpack_from('<Q', d, 0x28)
    shentsize, shnum = struct.unpack_from('<HH', d, 0x3a)
    for i in range(shnum):
        stype, = struct.unpack_from('<I', d, shoff + i * shentsize + 4)
        offset, size = struct.unpack_from('<QQ', d, shoff + i * shentsize + 24)
        if stype != 7:  # SHT_NOTE
            continue
        at = offset
        while at + 12 <= offset + size:
            namesz, descsz, ntype = struct.unpack_from('<III', d, at)
            name_at = at + 12
            desc_at = name_at + (namesz + 3) // 4 * 4
            if ntype == 3 and d[name_at:name_at + namesz] == b'GNU\0':
                return d[desc_at:desc_at + descsz]
            at = desc_at + (descsz + 3) // 4 * 4
    return b''


def reverse_bits64(v):
    return int('{:064b}'.format(v)[::-1], 2)


# perf_branch_entry's flag fields (position, size), little-endian numbering.
BRANCH_FIELDS = ((0, 1), (1, 1), (2, 1), (3, 1), (4, 16), (20, 4), (24, 2),
                 (26, 4), (30, 3), (33, 31))


def big_endian_fields(v, fields):
    """A bit field word as a big-endian compiler lays it out: fields from
    the most significant bit, each value in its usual bit order."""
    out = 0
    for pos, size in fields:
        out |= (v >> pos & ((1 << size) - 1)) << (64 - pos - size)
    return out


class Writer:
    def __init__(self, big):
        self.e = '>' if big else '<'
        self.big = big

    def pack(self, fmt, *args):
        return struct.pack(self.e + fmt, *args)

    def bitfield(self, v):
        """perf_event_attr's flags: one-bit fields (precise_ip is 0)."""
        return reverse_bits64(v) if self.big else v

    def branch_flags(self, v):
        return big_endian_fields(v, BRANCH_FIELDS) if self.big else v

    def record(self, rtype, misc, body):
        return self.pack('IHH', rtype, misc, 8 + len(body)) + body

    def trailer(self, pid, time):
        return self.pack('IIQ', pid, pid, time)

    def attr(self, hw_index):
        flags = 0
        for bit in (F_DISABLED, F_INHERIT, F_EXCLUDE_KERNEL, F_EXCLUDE_HV,
                    F_MMAP, F_COMM, F_ENABLE_ON_EXEC, F_TASK,
                    F_SAMPLE_ID_ALL, F_EXCLUDE_GUEST, F_MMAP2, F_COMM_EXEC):
            flags |= 1 << bit
        branch = B_USER | B_ANY | (B_HW_INDEX if hw_index else 0)
        a = self.pack('IIQQQQQIIQQQ', 0, ATTR_SIZE, 0, PERIOD,
                      S_IP | S_TID | S_TIME | S_PERIOD | S_BRANCH_STACK, 0,
                      self.bitfield(flags), 0, 0, 0, 0, branch)
        return a + b'\0' * (ATTR_SIZE - len(a))

    def string(self, s):
        """perf's header string: u32 length, NUL-padded to 64 bytes."""
        b = s.encode() + b'\0'
        b += b'\0' * (-len(b) % 64)
        return self.pack('I', len(b)) + b

    def build_id_record(self, rtype, bid, path):
        name = path.encode() + b'\0'
        name += b'\0' * (-len(name) % 64)
        body = self.pack('i', -1) + bid[:20].ljust(20, b'\0') + \
            bytes([min(len(bid), 20), 0, 0, 0]) + name
        return self.record(rtype, MISC_USER | MISC_BUILD_ID_SIZE, body)


def chains(triples, depth, count, inside):
    """COUNT branch stacks of DEPTH entries (oldest first), each a chain of
    runs that follow each other: a chain starts at a run drawn in
    proportion to its executions among the runs for which INSIDE(address)
    holds (the profiled binary's), and goes on with a run drawn in
    proportion to its executions among those that start at the branch's
    target. The draws are pseudo-random with a fixed seed, so a file is
    the same every time and a large one samples the trace as a profiler
    would."""
    rng = random.Random(22)
    by_start = {}
    for a, s, t, n in triples:
        if t:
            by_start.setdefault(a, []).append((s, t, n))

    def weighted(runs):
        total, cum = 0, []
        for run in sorted(runs):
            total += run[-1]
            cum.append(total)
        return sorted(runs), cum

    starts = [r for r in triples if r[2] and inside(r[0])] or \
        [r for r in triples if r[2]]
    starts, start_cum = weighted(starts)
    nexts = {a: weighted(runs) for a, runs in by_start.items()}

    def draw(runs, cum):
        return runs[bisect.bisect_right(cum, rng.randrange(cum[-1]))]

    for _ in range(count):
        a = draw(starts, start_cum)[0]
        stack = []
        while len(stack) < depth and a in nexts:
            s, t, _n = draw(*nexts[a])
            stack.append((s, t))
            a = t
        if stack:
            yield stack


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('binary')
    ap.add_argument('triples')
    ap.add_argument('-o', '--output', required=True)
    ap.add_argument('--pipe', action='store_true')
    ap.add_argument('--hw-index', action='store_true')
    ap.add_argument('--big-endian', action='store_true')
    ap.add_argument('--depth', type=int, default=16)
    ap.add_argument('--samples', type=int, default=1000)
    ap.add_argument('--size', type=int)
    ap.add_argument('--unique', type=int)
    ap.add_argument('--pid', type=int, default=4242)
    ap.add_argument('--load-bias', type=lambda v: int(v, 0))
    args = ap.parse_args()

    elf = elfinfo.Elf(args.binary)
    header, triples = elfinfo.read_triples(args.triples)
    bias = elfinfo.trace_load_bias(elf, header, args.load_bias)
    path = os.path.abspath(args.binary)
    bid = build_id(args.binary)
    w = Writer(args.big_endian)
    pid = args.pid
    time = 1000000000

    def tick():
        nonlocal time
        time += 1000
        return time

    # The executable segment, mapped as the kernel reports it.
    vaddr, memsz, offset, _, _ = next(s for s in elf.segments if s[4] & 1)
    start = bias + (vaddr & ~0xfff)
    length = (vaddr + memsz - (vaddr & ~0xfff) + 0xfff) & ~0xfff
    name = os.path.basename(args.binary).encode() + b'\0'
    name += b'\0' * (-len(name) % 8)
    fname = path.encode() + b'\0'
    fname += b'\0' * (-len(fname) % 8)
    side = [
        w.record(COMM, MISC_COMM_EXEC,
                 w.pack('II', pid, pid) + name + w.trailer(pid, tick())),
        w.record(MMAP2, MISC_USER,
                 w.pack('IIQQQIIQQII', pid, pid, start, length,
                        offset & ~0xfff, 0xfe, 0, 4242, 0, 5, 2) + fname +
                 w.trailer(pid, tick())),
    ]

    def sample(stack, t):
        entries = b''
        for i, (s, d) in enumerate(reversed(stack)):
            flags = (1 if i % 7 == 3 else 2) | ((i % 15) + 1) << 4
            entries += w.pack('QQQ', s, d, w.branch_flags(flags))
        body = w.pack('QIIQQQ', stack[-1][1], pid, pid, t, PERIOD, len(stack))
        if args.hw_index:
            body += w.pack('Q', len(stack) - 1)
        return w.record(SAMPLE, MISC_USER, body + entries)

    out = open(args.output, 'wb')
    attr = w.attr(args.hw_index)
    if args.pipe:
        out.write(w.pack('QQ', 0x32454c4946524550, 16))
        out.write(w.record(HEADER_ATTR, 0, attr + w.pack('Q', EVENT_ID)))
        nm = NAME.encode() + b'\0'
        nm += b'\0' * (-len(nm) % 8)
        out.write(w.record(EVENT_UPDATE, 0, w.pack('QQ', 2, EVENT_ID) + nm))
        data_start = out.tell()
    else:
        out.write(b'\0' * 104)
        attrs_at = out.tell()
        out.write(attr)
        ids_at_field = out.tell()
        out.write(b'\0' * 16)
        ids_at = out.tell()
        out.write(w.pack('Q', EVENT_ID))
        data_start = out.tell()
    for r in side:
        out.write(r)

    # A sample's TIME: after the header, IP and PID/TID.
    time_at = 24

    def samples():
        """The samples' bytes, each with its timestamp."""
        inside = lambda a: elf.in_exec(a - bias)
        if not args.unique:
            for stack in chains(triples, args.depth, args.samples, inside):
                yield sample(stack, tick())
            return
        made = [bytearray(sample(s, 0)) for s in
                chains(triples, args.depth, args.unique, inside)]
        i = 0
        while True:
            rec = made[i % len(made)]
            struct.pack_into(w.e + 'Q', rec, time_at, tick())
            yield rec
            i += 1

    written = 0
    finished = w.record(FINISHED_ROUND, 0, b'')
    for rec in samples():
        if args.size:
            if out.tell() >= args.size:
                break
        elif written == args.samples:
            break
        out.write(rec)
        written += 1
        if written % ROUND == 0:
            out.write(finished)
    out.write(w.record(EXIT, 0, w.pack('IIIIQ', pid, pid, pid, pid, tick()) +
                       w.trailer(pid, time)))
    out.write(w.record(FINISHED_ROUND, 0, b''))
    if args.pipe:
        out.write(w.build_id_record(HEADER_BUILD_ID, bid, path))
        out.close()
        return
    data_size = out.tell() - data_start
    # Features: their sections in bit order, then their contents.
    feats = {
        FEAT_BUILD_ID: w.build_id_record(0, bid, path),
        FEAT_HOSTNAME: w.string('perf-data-gen'),
        FEAT_CMDLINE: w.pack('I', 2) + w.string('perf') + w.string('record'),
        FEAT_EVENT_DESC: w.pack('II', 1, ATTR_SIZE) + attr + w.pack('I', 1) +
        w.string(NAME) + w.pack('Q', EVENT_ID),
    }
    table_at = out.tell()
    at = table_at + 16 * len(feats)
    table = b''
    for bit in sorted(feats):
        table += w.pack('QQ', at, len(feats[bit]))
        at += len(feats[bit])
    out.write(table)
    for bit in sorted(feats):
        out.write(feats[bit])
    bitmap = sum(1 << bit for bit in feats)
    out.seek(0)
    out.write(w.pack('QQQ', 0x32454c4946524550, 104, ATTR_SIZE + 16))
    out.write(w.pack('QQQQQQ', attrs_at, ATTR_SIZE + 16, data_start,
                     data_size, 0, 0))
    out.write(w.pack('QQQQ', bitmap, 0, 0, 0))
    out.seek(ids_at_field)
    out.write(w.pack('QQ', ids_at, 8))
    out.close()


if __name__ == '__main__':
    main()
