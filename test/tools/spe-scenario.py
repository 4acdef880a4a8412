#!/usr/bin/env python3
"""spe-scenario.py - writes small ARM SPE perf.data files (as `perf record
-e arm_spe_0//` writes them on an arm64 machine) from a seeded random
scenario, for machines without SPE: the differential tests of
bbmap-dump's SPE decoding against perf 6.1 (test/perf/spe-*.test) and its
unit tests' inputs.

Usage: spe-scenario.py -o OUT [--seed N] [--cpus N] [--big-endian]
           [--pipe] [--no-index] [--timeless] [--per-thread]
           [--no-context] [--switch-events] [--cycles]
           [--time-conv new|short|old|late] [--time-shift N] [--records N]
           [--long-name] [--extended] [--end-records]
           [--corrupt header|packet|record|opclass] [--per-thread-context]

The scenario: a few processes with a few threads each, run in slices on
N CPUs (default 2); every slice samples SPE records of its thread
(branches, mispredicted or not taken or neither, loads and stores, other
operations; with a CONTEXT packet naming the thread unless --no-context)
with timestamps of the generic timer, some equal across CPUs and equal to
the time of a sideband record. The sideband (the `dummy:u` event): COMM,
MMAP2, FORK and EXIT records, some on threads whose CONTEXT packets came
first, ITRACE_START and AUX records, with --switch-events
SWITCH_CPU_WIDE records; with --cycles a `cycles:u` event with samples.
perf record's order: per round, each CPU's ring buffer (sideband in time
order) then its AUX data (one AUXTRACE record, data after it padded to 8
bytes), then FINISHED_ROUND.

File mode has the features perf script needs (HOSTNAME, CPUID, CMDLINE,
EVENT_DESC, the AUXTRACE index unless --no-index); a pipe (--pipe)
HEADER_ATTR and EVENT_UPDATE records. --timeless leaves TIME out of every
event (perf then decodes the AUX data at the end); --per-thread records
one queue per thread (cpu -1; implies --no-context, since perf 6.1 fails
on CONTEXT packets there). --time-conv: new (56-byte TIME_CONV), short
(cap_user_time_short with a 40-bit counter mask, timestamps with bits
above it), old (the 32-byte record of perf < 5.11), late (TIME_CONV after
AUXTRACE_INFO, which perf does not take: it converts with time_mult 0 and
divides by zero). --extended
writes some address packets with the extended header, some previous
branch target (index 4) packets, packets of an address index perf 6.1
ignores and ALIGNMENT packets; --end-records ends some records with END
instead of a timestamp, with PAD packets between records. --time-shift
sets TIME_CONV's time_shift (time_mult is 10 << it, cut to 32 bits as
perf cuts it). For the decoders' errors: --corrupt makes the first AUX
data malformed (header: an unknown packet header; packet: an address
packet cut by the data's end; record: a record cut by it; opclass: an
operation type of the reserved class); --per-thread-context keeps the
CONTEXT packets of a per-thread recording (perf 6.1 fails on them).
"""
import argparse
import os
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import perfdata_writer  # noqa: E402
from perfdata_writer import (  # noqa: E402
    ATTR_SIZE, data_offset, event_desc, write_file)

# Record types.
MMAP2, COMM, EXIT, FORK, SAMPLE, AUX, ITRACE_START = 10, 3, 4, 7, 9, 11, 12
SWITCH_CPU_WIDE = 15
HEADER_ATTR, FINISHED_ROUND, AUXTRACE_INFO, AUXTRACE = 64, 68, 70, 71
TIME_CONV, HEADER_FEATURE = 79, 80
MISC_USER, MISC_COMM_EXEC, MISC_SWITCH_OUT = 2, 1 << 13, 1 << 13
# sample_type bits.
S_IP, S_TID, S_TIME, S_ADDR, S_CPU, S_PERIOD = 1, 2, 4, 8, 128, 256
S_DATA_SRC, S_IDENTIFIER, S_PHYS_ADDR = 1 << 15, 1 << 16, 1 << 19
# Attr flag bits (little-endian numbering).
F_DISABLED, F_INHERIT, F_EXCLUDE_KERNEL, F_EXCLUDE_HV = 0, 1, 5, 6
F_MMAP, F_COMM, F_TASK, F_SAMPLE_ID_ALL, F_MMAP2, F_COMM_EXEC = \
    8, 9, 13, 18, 23, 24
F_CONTEXT_SWITCH = 26
FEAT_HOSTNAME, FEAT_CMDLINE, FEAT_EVENT_DESC = 3, 11, 12
FEAT_CPUID, FEAT_AUXTRACE = 9, 18
SPE_PMU_TYPE = 8
AUXTRACE_ARM_SPE = 4
SPE_ID, DUMMY_ID, CYCLES_ID = 100, 200, 300


M64 = (1 << 64) - 1


def tsc_to_perf_time(cyc, tc):
    """perf's tsc_to_perf_time, in 64-bit arithmetic."""
    if tc['short']:
        cyc = (tc['cycles'] + ((cyc - tc['cycles']) & tc['mask'])) & M64
    shift = tc['shift'] & 0xffff & 63  # perf's u16, x86's shifts
    quot = cyc >> shift
    rem = cyc & ((1 << shift) - 1)
    return (tc['zero'] + quot * tc['mult'] +
            (((rem * tc['mult']) & M64) >> shift)) & M64


class Writer(perfdata_writer.Writer):
    def record(self, rtype, misc, body):
        assert len(body) % 8 == 0, rtype
        return super().record(rtype, misc, body)

    def attr(self, etype, config, period, sample_type, flags):
        """An attr with the F_* bits FLAGS set."""
        return self.attr_raw(etype, config, period, sample_type, 0,
                             sum(1 << b for b in flags))


def le64(v):
    return struct.pack('<Q', v & M64)


def spe_address(index, value, extended=False):
    """An address packet; EXTENDED: the two-byte header."""
    if extended or index > 7:
        return bytes([0x20 | (index >> 3), 0xb0 | (index & 7)]) + le64(value)
    return bytes([0xb0 | index]) + le64(value)


def spe_record(rng, r, opts):
    """The packets of one SPE record R (a dict), in the order Neoverse
    cores write them."""
    ext = opts.extended and rng.random() < 0.3
    b = spe_address(0, r['pc'] | r['el'] << 61 | 1 << 63, ext)
    if r.get('ctx') is not None:
        b += bytes([0x65]) + struct.pack('<I', r['ctx'] & 0xffffffff)
    kind = r['kind']
    if kind == 'branch':
        b += bytes([0x4a, r['sub']])
    elif kind in ('load', 'store'):
        b += bytes([0x49, 0x1 if kind == 'store' else 0x0])
    else:
        b += bytes([0x48, 0x0])
    b += bytes([0x52]) + struct.pack('<H', r['events'])
    b += bytes([0x98]) + struct.pack('<H', r['lat'])
    b += bytes([0x99]) + struct.pack('<H', r['lat'] // 2)
    if kind == 'branch':
        b += spe_address(1, r['target'] | r['el'] << 61 | 1 << 63, ext)
        if opts.extended and rng.random() < 0.3:
            b += spe_address(4, r['pc'] - 64 | 1 << 63, True)
    if kind in ('load', 'store'):
        b += spe_address(2, r['va'] | rng.choice((0, 0x5a)) << 56, ext)
        b += spe_address(3, (r['va'] & 0xffffffff) | 0x80 << 56, ext)
        b += bytes([0x43, rng.randrange(16)])
    if opts.extended and rng.random() < 0.1:
        b += spe_address(9, 0x1234, True)  # an index perf 6.1 ignores
    if r['end']:
        return b + bytes([0x01])
    return b + bytes([0x71]) + le64(r['ts'] | opts.ts_high)


def corrupt(data, how):
    """DATA (a queue's first AUX data) made malformed: an unknown header
    first, an address packet or a record cut by the end, an operation
    type of the reserved class first."""
    if how == 'header':
        return bytes([0x05]) + data
    if how == 'packet':
        return data + bytes([0xb0, 0x01, 0x02])
    if how == 'record':
        return data + bytes([0xb0]) + le64(0x400000)
    return bytes([0x4b, 0x00]) + data


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('-o', '--output', required=True)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--cpus', type=int, default=2)
    ap.add_argument('--big-endian', action='store_true')
    ap.add_argument('--pipe', action='store_true')
    ap.add_argument('--no-index', action='store_true')
    ap.add_argument('--timeless', action='store_true')
    ap.add_argument('--per-thread', action='store_true')
    ap.add_argument('--no-context', action='store_true')
    ap.add_argument('--switch-events', action='store_true')
    ap.add_argument('--cycles', action='store_true')
    ap.add_argument('--time-conv', default='new',
                    choices=('new', 'short', 'old', 'late'))
    ap.add_argument('--records', type=int, default=200)
    ap.add_argument('--long-name', action='store_true')
    ap.add_argument('--extended', action='store_true')
    ap.add_argument('--end-records', action='store_true')
    ap.add_argument('--time-shift', type=int, default=24)
    ap.add_argument('--corrupt', choices=('header', 'packet', 'record',
                                          'opclass'))
    ap.add_argument('--per-thread-context', action='store_true')
    opts = ap.parse_args()
    if opts.per_thread and not opts.per_thread_context:
        opts.no_context = True
    rng = random.Random(opts.seed)
    w = Writer(opts.big_endian)
    ncpu = 1 if opts.per_thread else opts.cpus

    # Time conversion: a 100 MHz counter (10 ns a cycle).
    tc = {'shift': opts.time_shift,
          'mult': 10 << (opts.time_shift & 0xffff & 63),
          'zero': 1000000000 - 10 * 5000000, 'cycles': 0, 'mask': 0,
          'short': False}
    tc['mult'] &= 0xffffffff
    opts.ts_high = 0
    if opts.time_conv == 'short':
        # The counter's bits above the mask do not count: the timestamps
        # have some, the times none.
        tc.update(short=True, mask=(1 << 40) - 1, cycles=5000000)
        opts.ts_high = 1 << 45
    timed = not opts.timeless

    # Processes: pid -> tids; the first thread is the leader.
    procs = {}
    next_pid = 1000 + 100 * rng.randrange(5)
    for _ in range(rng.randint(2, 4)):
        procs[next_pid] = [next_pid + k for k in range(rng.randint(1, 3))]
        next_pid += 10
    # A thread whose records come before any sideband names it.
    hidden = next_pid
    procs[hidden] = [hidden, hidden + 1]
    pids = sorted(procs)

    # Events on a cycle timeline: (cycle, cpu, kind, data).
    cyc = 5000000 + rng.randrange(1000)
    side = []   # sideband records: (cycle, cpu, bytes-maker)
    spe = {}    # queue -> list of SPE records
    queue_of = {}
    if opts.per_thread:
        threads = [t for p in pids for t in procs[p]]
        for i, t in enumerate(threads):
            queue_of[t] = i

    def pid_of(tid):
        return next(p for p in pids if tid in procs[p])

    # The sideband of the processes: COMM exec and MMAP2 before their
    # samples, FORK for the other threads; the hidden process's COMM comes
    # after some of its records.
    announced = set()

    def announce(p, c, cpu):
        side.append((c, cpu, ('comm', p, p)))
        side.append((c + rng.choice((0, 1)), cpu, ('mmap2', p, p)))
        for t in procs[p][1:]:
            side.append((c + 2, cpu, ('fork', p, t)))
        announced.add(p)

    for p in pids:
        if p != hidden:
            announce(p, cyc, rng.randrange(ncpu))
            cyc += rng.randrange(50)
    # ITRACE_START per CPU.
    for cpu in range(ncpu):
        side.append((cyc, cpu, ('itrace_start', pids[0], pids[0])))
    n = 0
    slices = []
    running = {}
    while n < opts.records:
        cpu = rng.randrange(ncpu)
        p = rng.choice(pids)
        t = rng.choice(procs[p])
        if opts.switch_events and running.get(cpu) != t:
            side.append((cyc, cpu, ('switch', t, 0)))
        running[cpu] = t
        if p == hidden and p not in announced and n > opts.records // 2:
            announce(p, cyc + 1, cpu)
        q = queue_of[t] if opts.per_thread else cpu
        for _ in range(rng.randint(1, 8)):
            if n >= opts.records:
                break
            kind = rng.choice(('branch', 'branch', 'load', 'store', 'other'))
            base = 0x400000 if p % 20 == 0 else 0xaaaad0000000
            pc = base + 0x1000 + 4 * rng.randrange(0x400)
            events = 0x2  # retired
            r = {'pc': pc, 'el': 0, 'kind': kind, 'lat': rng.randrange(1, 300),
                 'ctx': None if opts.no_context else t,
                 'end': opts.end_records and rng.random() < 0.1}
            if kind == 'branch':
                r['sub'] = rng.choice((0, 1, 2, 3))
                r['target'] = base + 0x1000 + 4 * rng.randrange(0x400)
                x = rng.random()
                if x < 0.3:
                    events |= 1 << 7
                elif x < 0.5:
                    events |= 1 << 6
            elif kind in ('load', 'store'):
                r['va'] = 0xffff00001000 + 8 * rng.randrange(1 << 20)
                events |= 1 << 2 | (1 << 3 if rng.random() < 0.2 else 0)
            if rng.random() < 0.05:
                r['el'] = 2
                r['pc'] = 0xffff800008000000 + 4 * rng.randrange(0x1000)
                r['pc'] &= (1 << 56) - 1
            r['events'] = events
            # Ties: the same timestamp as the previous record, or as a
            # sideband record.
            if rng.random() < 0.7:
                cyc += rng.randrange(1, 40)
            r['ts'] = cyc
            if rng.random() < 0.05:
                r['ts'] = cyc - rng.randrange(1, 30)  # out of order
            if rng.random() < 0.1:
                side.append((cyc, rng.randrange(ncpu),
                             ('mmap2', p, t)))
            spe.setdefault(q, []).append((cyc, cpu, r))
            n += 1
    if opts.cycles:
        for k in range(opts.records // 10):
            p = rng.choice(pids)
            side.append((5000000 + rng.randrange(cyc - 5000000), rng.randrange(
                ncpu), ('sample', p, rng.choice(procs[p]))))
    end = cyc + 10
    for p in pids:
        for t in procs[p]:
            side.append((end, rng.randrange(ncpu), ('exit', p, t)))
            end += 1

    # Encode.
    def time_of(c):
        return tsc_to_perf_time(c, tc)

    def trailer(pid, tid, c, cpu, ident):
        t = w.pack('II', pid & 0xffffffff, tid & 0xffffffff)
        if timed:
            t += w.pack('Q', time_of(c))
        return t + w.pack('IIQ', cpu, 0, ident)

    def name_bytes(s):
        b = s.encode() + b'\0'
        return b + b'\0' * (-len(b) % 8)

    def encode_side(c, cpu, what):
        kind, p, t = what
        if kind == 'comm':
            return w.record(COMM, MISC_COMM_EXEC, w.pack('II', p, t) +
                            name_bytes('prog%d' % p) +
                            trailer(p, t, c, cpu, DUMMY_ID + cpu))
        if kind == 'mmap2':
            start = 0x400000 if p % 20 == 0 else 0xaaaad0000000
            return w.record(MMAP2, MISC_USER, w.pack(
                'IIQQQIIQQII', p, t, start, 0x10000, 0, 0xfe, 1, 77 + p, 0,
                5, 2) + name_bytes('/usr/bin/prog%d' % p) +
                trailer(p, t, c, cpu, DUMMY_ID + cpu))
        if kind in ('fork', 'exit'):
            rt = FORK if kind == 'fork' else EXIT
            ppid, ptid = (p, p)
            return w.record(rt, 0, w.pack('IIIIQ', p, ppid, t, ptid,
                                          time_of(c) if timed else 0) +
                            trailer(p, t, c, cpu, DUMMY_ID + cpu))
        if kind == 'itrace_start':
            return w.record(ITRACE_START, 0, w.pack('II', p, t) +
                            trailer(p, t, c, cpu, SPE_ID + cpu))
        if kind == 'switch':
            q = pid_of(p)
            return w.record(SWITCH_CPU_WIDE, MISC_SWITCH_OUT,
                            w.pack('II', q, p) +
                            trailer(-1, -1, c, cpu, DUMMY_ID + cpu))
        if kind == 'sample':
            body = w.pack('QQII', CYCLES_ID + cpu, 0x401000 + 4 *
                          rng.randrange(64), p, t)
            if timed:
                body += w.pack('Q', time_of(c))
            body += w.pack('IIQ', cpu, 0, 100003)
            return w.record(SAMPLE, MISC_USER, body)
        raise ValueError(kind)

    # Rounds: cut the timeline in pieces of about 200 cycles.
    side.sort(key=lambda s: s[0])
    all_cycles = [s[0] for s in side] + [r[0] for q in spe.values()
                                         for r in q]
    lo, hi = min(all_cycles), max(all_cycles)
    step = 200
    rounds = []
    start = lo
    while start <= hi:
        rounds.append((start, start + step))
        start += step
    aux_offset = {}
    body = []
    queues = sorted(spe)
    for (a, b) in rounds:
        for cpu in range(ncpu):
            for c, scpu, what in side:
                if scpu == cpu and a <= c < b:
                    body.append(('rec', encode_side(c, cpu, what)))
            qs = [q for q in queues if (q == cpu if not opts.per_thread
                                         else cpu == 0)]
            for q in qs:
                recs = [r for r in spe[q] if a <= r[0] < b]
                if not recs:
                    continue
                data = b''
                for _, _, r in recs:
                    if opts.end_records and rng.random() < 0.2:
                        data += b'\0' * rng.randrange(1, 4)
                    if opts.extended and rng.random() < 0.1:
                        # An ALIGNMENT packet (perf aligns to where the
                        # byte is in its mapping of the file).
                        data += bytes([0x20 | rng.randrange(4), 0x00])
                        data += b'\0' * 16
                    data += spe_record(rng, r, opts)
                data += b'\0' * (-len(data) % 8)
                if opts.corrupt and not aux_offset:
                    data = corrupt(data, opts.corrupt)
                off = aux_offset.get(q, 0)
                aux_offset[q] = off + len(data)
                if opts.per_thread:
                    tid = next(t for t, i in queue_of.items() if i == q)
                    qcpu = -1
                else:
                    tid, qcpu = -1, q
                hdr = w.pack('QQQIIII', len(data), off, rng.randrange(1 << 32),
                             q, tid & 0xffffffff, qcpu & 0xffffffff, 0)
                body.append(('aux', w.record(AUXTRACE, 0, hdr), data))
                body.append(('rec', w.record(AUX, 0, w.pack(
                    'QQQ', off, len(data), 0) + trailer(
                        -1, -1, recs[-1][0], max(qcpu, 0),
                        SPE_ID + max(qcpu, 0)))))
        body.append(('rec', w.record(FINISHED_ROUND, 0, b'')))

    # Events: the SPE event, dummy:u, cycles:u.
    stype = S_IP | S_TID | S_CPU | S_IDENTIFIER | (S_TIME if timed else 0)
    spe_name = ('arm_spe_0/ts_enable=1,pa_enable=1,load_filter=1,'
                'store_filter=1,branch_filter=1/' if opts.long_name
                else 'arm_spe_0//')
    events = [
        (w.attr(SPE_PMU_TYPE, 0x700000001 if opts.long_name else 1, 1,
                stype | S_DATA_SRC | S_PHYS_ADDR,
                (F_DISABLED, F_INHERIT, F_SAMPLE_ID_ALL)),
         [SPE_ID + c for c in range(ncpu)], spe_name),
        (w.attr(1, 9, 1, stype, (F_DISABLED, F_INHERIT, F_EXCLUDE_KERNEL,
                                 F_EXCLUDE_HV, F_MMAP, F_COMM, F_TASK,
                                 F_SAMPLE_ID_ALL, F_MMAP2, F_COMM_EXEC) +
                ((F_CONTEXT_SWITCH,) if opts.switch_events else ())),
         [DUMMY_ID + c for c in range(ncpu)], 'dummy:u'),
    ]
    if opts.cycles:
        events.append((w.attr(0, 0, 100003, stype | S_PERIOD,
                              (F_DISABLED, F_INHERIT, F_EXCLUDE_KERNEL,
                               F_SAMPLE_ID_ALL)),
                       [CYCLES_ID + c for c in range(ncpu)], 'cycles:u'))

    if opts.time_conv == 'old':
        time_conv = w.record(TIME_CONV, 0, w.pack(
            'QQQ', tc['shift'], tc['mult'], tc['zero']))
    else:
        time_conv = w.record(TIME_CONV, 0, w.pack(
            'QQQQQBB6x', tc['shift'], tc['mult'], tc['zero'], tc['cycles'],
            tc['mask'], 1, 1 if tc['short'] else 0))
    info = w.record(AUXTRACE_INFO, 0, w.pack('IIQQ', AUXTRACE_ARM_SPE, 0,
                                             SPE_PMU_TYPE,
                                             0 if opts.per_thread else 1))
    head = [time_conv, info] if opts.time_conv != 'late' else [info,
                                                               time_conv]

    out = open(opts.output, 'wb')
    if opts.pipe:
        out.write(w.pack('QQ', 0x32454c4946524550, 16))
        for attr, ids, _ in events:
            out.write(w.record(HEADER_ATTR, 0, attr + b''.join(
                w.pack('Q', i) for i in ids)))
        for attr, ids, nm in events:
            nb = name_bytes(nm)
            out.write(w.record(78, 0, w.pack('QQ', 2, ids[0]) + nb))
        out.write(b''.join(head + [b''.join(item[1:]) for item in body]))
        out.close()
        return
    start = data_offset(events)
    data = b''.join(head)
    index = []
    for item in body:
        if item[0] == 'aux':
            index.append((start + len(data), len(item[1])))
        data += b''.join(item[1:])
    feats = {
        FEAT_HOSTNAME: w.string('spe-scenario'),
        FEAT_CPUID: w.string('0x00000000410fd0c0'),
        FEAT_CMDLINE: w.pack('I', 2) + w.string('perf') + w.string('record'),
        FEAT_EVENT_DESC: event_desc(w, events),
    }
    if not opts.no_index:
        feats[FEAT_AUXTRACE] = w.pack('Q', len(index)) + b''.join(
            w.pack('QQ', o, s) for o, s in index)
    write_file(out, w, events, data, feats)
    out.close()

if __name__ == '__main__':
    main()
