#!/usr/bin/env python3
"""perf-data-gen.py - writes a valid perf.data file with branch stacks (as
`perf record -b` writes on a machine with LBR) from an exact trace of a
program, for machines without branch-stack hardware.

Usage: perf-data-gen.py BINARY TRIPLES -o OUT [--style lbr|brbe|etm]
           [--pipe] [--hw-index] [--big-endian] [--depth N] [--samples N]
           [--size BYTES] [--unique N] [--pid N] [--load-bias N]
           [--all-objects] [--start-anywhere] [--padded-build-id]
           [--repeat-newest N] [--other-processes N]

TRIPLES is the output of test/tools/exact-trace/trace-plugin.c: the runs
`RUNSTART SOURCE TARGET COUNT` of a complete run of BINARY. Each sample's
branch stack is a chain of branches that really followed each other: the
branch of a run (SOURCE -> TARGET) is followed by the branch of a run that
starts at TARGET, each run drawn in proportion to its executions (a fixed
seed: the same file every time), so that the samples spread over the trace
as a profiler's would; the newest branch comes first, as perf writes them.
Chains start in BINARY; branches outside it (in the C library, the dynamic
loader) stay in the stacks, as on real hardware. With --start-anywhere they
start at any run of the trace, in whatever object, as a profiler's samples
fall wherever the process is (the libraries' code is then sampled as much
as the program's). BINARY may be the traced
program or a shared library it loaded (its load address from the trace's
map lines, see elfinfo.trace_load_bias).

The file has one event, `cycles:u` (PERF_TYPE_HARDWARE, sample_type
IP|TID|TIME|PERIOD|BRANCH_STACK, branch_sample_type ANY|USER, with
--hw-index also HW_INDEX), a COMM exec and an MMAP2 record of BINARY's
executable segment (at the trace's load address), the samples with
FINISHED_ROUND records between rounds of 256, and an EXIT (with
--all-objects, MMAP2 records of every other object the trace ran code in
too, from its map lines: the program, its libraries, the dynamic loader,
as a process's file has them; with --other-processes, the same COMM and
MMAP2 records for N more processes, PIDs 1 to N, that have no samples); file mode has
the BUILD_ID, HOSTNAME, CMDLINE and EVENT_DESC features, a pipe (--pipe, as `perf
record -o -`) HEADER_ATTR, EVENT_UPDATE (the name) and HEADER_BUILD_ID
records. --big-endian writes the file a big-endian host writes (bit fields
allocated from the most significant bit). Every 7th entry is mispredicted, the others
predicted; cycles count 1 to 15.

--style picks whose file it is (default lbr, the above):
  brbe  arm64's Branch Record Buffer Extension (`perf record -j any,u` on
        Linux 6.17+): `cycles:u` with HW_INDEX always set and hw_idx -1
        (BRBE has no index), every entry's branch type (PERF_BR_*, decoded
        from the AArch64 instruction at its source when the source lies in
        BINARY, PERF_BR_UNKNOWN elsewhere) and privilege (user).
  etm   CoreSight ETM trace after `perf inject --itrace=il64`: three
        events, `cs_etm//u` (the AUX event, no samples), `dummy:u` (the
        sideband: COMM, MMAP2, EXIT) and the synthesized `instructions:u`
        (period 64, BRANCH_STACK with HW_INDEX, hw_idx -1), each sample and
        trailer with CPU and IDENTIFIER; entries predicted, no cycles, no
        type (cs-etm.c's last-branch records). File mode only.

--padded-build-id writes the build ID records as perf before 5.11 did: no
size, the ID zero-padded to 20 bytes (an 8- or 16-byte ID then reads as 20).

--repeat-newest N repeats the newest entry of every Nth stack (one entry
more than --depth), as LBR sometimes does: the run between the two copies
is code that did not run.

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
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perfdata_writer import *  # noqa: E402,F401,F403

# perf_branch_entry type (PERF_BR_*) and priv (PERF_BR_PRIV_USER) values.
BR_UNKNOWN, BR_COND, BR_UNCOND, BR_IND, BR_CALL, BR_IND_CALL, BR_RET = \
    0, 1, 2, 3, 4, 5, 6
BR_PRIV_USER = 1
EVENT_ID = 42
NAME = 'cycles:u'
ETM_PERIOD = 64
ROUND = 256


def aarch64_branch_type(word):
    """PERF_BR_* of the AArch64 instruction WORD, as BRBE classifies it."""
    if word & 0xfc000000 == 0x94000000:  # bl
        return BR_CALL
    if word & 0xfffffc1f == 0xd63f0000:  # blr
        return BR_IND_CALL
    if word & 0xfffffc1f == 0xd65f0000:  # ret
        return BR_RET
    if word & 0xfffffc1f == 0xd61f0000:  # br
        return BR_IND
    if word & 0xfc000000 == 0x14000000:  # b
        return BR_UNCOND
    if (word & 0xff000010 == 0x54000000 or  # b.cond
            word & 0x7e000000 in (0x34000000, 0x36000000)):  # cb(n)z, tb(n)z
        return BR_COND
    return BR_UNKNOWN


def chains(triples, depth, count, inside, anywhere=False):
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

    starts = [r for r in triples if r[2] and inside(r[0]) and not anywhere] \
        or [r for r in triples if r[2]]
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
    ap.add_argument('--style', choices=('lbr', 'brbe', 'etm'), default='lbr')
    ap.add_argument('--pipe', action='store_true')
    ap.add_argument('--hw-index', action='store_true')
    ap.add_argument('--big-endian', action='store_true')
    ap.add_argument('--depth', type=int, default=16)
    ap.add_argument('--samples', type=int, default=1000)
    ap.add_argument('--size', type=int)
    ap.add_argument('--unique', type=int)
    ap.add_argument('--pid', type=int, default=4242)
    ap.add_argument('--load-bias', type=lambda v: int(v, 0))
    ap.add_argument('--all-objects', action='store_true')
    ap.add_argument('--start-anywhere', action='store_true')
    ap.add_argument('--padded-build-id', action='store_true')
    ap.add_argument('--repeat-newest', type=int, metavar='N')
    ap.add_argument('--other-processes', type=int, default=0, metavar='N')
    args = ap.parse_args()
    etm = args.style == 'etm'
    if etm and args.pipe:
        ap.error('--style etm writes file mode only')
    hw_index = args.hw_index or args.style != 'lbr'

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
    # The events (attr, ID, name); the last one has the samples, the one
    # with `tracking` the side records.
    if etm:
        events = [
            (w.attr(False, TYPE_CS_ETM, 0, 1, S_IP | S_TID | S_TIME | S_CPU |
                    S_PERIOD | S_IDENTIFIER, tracking=False),
             EVENT_ID, 'cs_etm//u'),
            (w.attr(False, TYPE_SOFTWARE, SW_DUMMY, 1, S_IP | S_TID | S_TIME |
                    S_CPU | S_IDENTIFIER), EVENT_ID + 1, 'dummy:u'),
            (w.attr(True, TYPE_HARDWARE, HW_INSTRUCTIONS, ETM_PERIOD,
                    S_IP | S_TID | S_TIME | S_CPU | S_PERIOD | S_IDENTIFIER |
                    S_BRANCH_STACK, tracking=False, branch=0),
             EVENT_ID + 1000000000, 'instructions:u'),
        ]
        side_id, sample_id, period = EVENT_ID + 1, EVENT_ID + 1000000000, \
            ETM_PERIOD
    else:
        events = [(w.attr(hw_index), EVENT_ID, NAME)]
        side_id, sample_id, period = None, None, PERIOD
    # (start, length, page offset, path) of each executable mapping.
    mappings = [(start, length, offset & ~0xfff, path)]
    if args.all_objects:
        runs = sorted(t[0] for t in triples)
        own = os.path.realpath(args.binary)
        for lo, hi, off, file in header['maps']:
            i = bisect.bisect_left(runs, lo)
            if file != own and i < len(runs) and runs[i] < hi:
                mappings.append((lo, hi - lo, off, file))

    def process(p):
        """The COMM exec and MMAP2 records of process p."""
        records = [w.record(COMM, MISC_COMM_EXEC,
                            w.pack('II', p, p) + name +
                            w.trailer(p, tick(), side_id))]
        for at, size, pgoff, file in sorted(mappings):
            fname = file.encode() + b'\0'
            fname += b'\0' * (-len(fname) % 8)
            records.append(w.record(MMAP2, MISC_USER,
                                    w.pack('IIQQQIIQQII', p, p, at, size,
                                           pgoff, 0xfe, 0, 4242, 0, 5, 2) +
                                    fname + w.trailer(p, tick(), side_id)))
        return records

    side = process(pid)
    for other in range(1, args.other_processes + 1):
        side += process(other) if other != pid else []

    def branch_type(source):
        code = elf.read(source - bias, 4) if elf.in_exec(source - bias) else b''
        if len(code) < 4:
            return BR_UNKNOWN
        return aarch64_branch_type(struct.unpack('<I', code)[0])

    def entry_flags(i, source):
        if etm:
            return 2  # predicted; cs-etm.c knows no misprediction or cycles
        flags = (1 if i % 7 == 3 else 2) | ((i % 15) + 1) << 4
        if args.style == 'brbe':
            flags |= branch_type(source) << 20 | BR_PRIV_USER << 30
        return flags

    def sample(stack, t):
        entries = b''
        for i, (s, d) in enumerate(reversed(stack)):
            entries += w.pack('QQQ', s, d, w.branch_flags(entry_flags(i, s)))
        body = w.pack('Q', sample_id) if etm else b''
        body += w.pack('QIIQ', stack[-1][1], pid, pid, t)
        if etm:
            body += w.pack('II', 0, 0)
        body += w.pack('QQ', period, len(stack))
        if args.hw_index:
            body += w.pack('Q', len(stack) - 1)
        elif hw_index:
            body += w.pack('Q', 0xffffffffffffffff)
        return w.record(SAMPLE, MISC_USER, body + entries)

    out = open(args.output, 'wb')
    if args.pipe:
        attr, _, _ = events[0]
        out.write(w.pack('QQ', 0x32454c4946524550, 16))
        out.write(w.record(HEADER_ATTR, 0, attr + w.pack('Q', EVENT_ID)))
        nm = NAME.encode() + b'\0'
        nm += b'\0' * (-len(nm) % 8)
        out.write(w.record(EVENT_UPDATE, 0, w.pack('QQ', 2, EVENT_ID) + nm))
        data_start = out.tell()
    else:
        out.write(b'\0' * 104)
        attrs_at = out.tell()
        ids_at = attrs_at + len(events) * (ATTR_SIZE + 16)
        for k, (attr, _, _) in enumerate(events):
            out.write(attr + w.pack('QQ', ids_at + 8 * k, 8))
        for _, ident, _ in events:
            out.write(w.pack('Q', ident))
        data_start = out.tell()
    for r in side:
        out.write(r)

    # A sample's TIME: after the header, (IDENTIFIER,) IP and PID/TID.
    time_at = 32 if etm else 24

    def samples():
        """The samples' bytes, each with its timestamp."""
        inside = lambda a: elf.in_exec(a - bias)
        if not args.unique:
            for n, stack in enumerate(
                    chains(triples, args.depth, args.samples, inside,
                           args.start_anywhere)):
                if args.repeat_newest and n % args.repeat_newest == 0:
                    stack = stack + stack[-1:]
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
                       w.trailer(pid, time, side_id)))
    out.write(w.record(FINISHED_ROUND, 0, b''))
    if args.pipe:
        out.write(w.build_id_record(HEADER_BUILD_ID, bid, path,
                                     args.padded_build_id))
        out.close()
        return
    data_size = out.tell() - data_start
    # Features: their sections in bit order, then their contents.
    feats = {
        FEAT_BUILD_ID: w.build_id_record(0, bid, path, args.padded_build_id),
        FEAT_HOSTNAME: w.string('perf-data-gen'),
        FEAT_CMDLINE: w.pack('I', 2) + w.string('perf') + w.string('record'),
        FEAT_EVENT_DESC: w.pack('II', len(events), ATTR_SIZE) + b''.join(
            attr + w.pack('I', 1) + w.string(nm) + w.pack('Q', ident)
            for attr, ident, nm in events),
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
    out.write(w.pack('QQQQQQ', attrs_at, len(events) * (ATTR_SIZE + 16),
                     data_start, data_size, 0, 0))
    out.write(w.pack('QQQQ', bitmap, 0, 0, 0))
    out.close()


if __name__ == '__main__':
    main()
