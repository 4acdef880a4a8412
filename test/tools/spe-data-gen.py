#!/usr/bin/env python3
"""spe-data-gen.py - writes the perf.data file that Linux perf 6.1
`perf record -e arm_spe_0/branch_filter=1/u -- PROGRAM` writes on an arm64
server with the Statistical Profiling Extension (SPE), from the exact
execution of PROGRAM under qemu-aarch64, for machines without SPE.

Usage: spe-data-gen.py BINARY TRIPLES -o OUT [--interval N]
           [--min-interval N] [--jitter] [--no-branch-filter] [--cpus K]
           [--phases P] [--big-endian] [--end-packets] [--no-context]
           [--pbt-percent N] [--call-return] [--aux-watermark BYTES]
           [--pmu-type T] [--pid N] [--load-bias N] [--all-objects]
           [--seed S] [--expect FILE] [--brstack-text FILE]

TRIPLES is the output of test/tools/exact-trace/trace-plugin.c: the runs
`RUNSTART SOURCE TARGET COUNT` of a complete run of BINARY. The file,
record by record, and what perf 6.1 does with it are in docs/testing.md
("SPE perf.data"); in short:

- Sampling. Every executed instruction is one operation. Each CPU's
  counter reloads with the interval (PMSIRR_EL1.INTERVAL: -c N of perf
  record, --interval; without it the PMU's caps/min_interval,
  --min-interval, default 1024; the driver raises a smaller N to the
  minimum and clears bits [7:0]; --jitter, PMSIRR_EL1.RND, randomizes
  bits [7:0] of every reload), keeps its value while the process runs
  elsewhere, and samples the operation at which it reaches zero. The
  triples are aggregated, so the instruction instance at a sampled
  position is drawn at random, without replacement, among the instances
  not drawn yet (fixed seed, --seed): every executed instance has the same
  chance. With --systematic, the instance at position p is the p-th in a
  fixed order instead (runs by address, then instruction, then instance):
  every interval-th operation, as the counter takes them, in an order that
  is not the execution's (the trace keeps none), so a branch executed C
  times gets C / interval records within one, without the noise of random
  draws; ideal-samples.py takes IP samples the same way. With the branch filter (PMSFCR_EL1.B, the default) only branches
  are written: the taken branch that ends a run, and conditional branches
  (b.cond, bc.cond, cbz, cbnz, tbz, tbnz: decoded from the bytes of the
  object the trace ran) inside a run, not taken; --no-branch-filter
  writes the others too (OTHER, or LD/ST without a data address).
- Records. 64-byte records as a Neoverse N1 lays them out: PC (address
  index 0, EL0, NS=1), PAD, CONTEXT (CONTEXTIDR_EL2: the TID; not with
  --no-context), OP-TYPE, EVENTS (RETIRED, NOT-TAKEN, MISPRED), LAT ISSUE,
  LAT TOT, TGT (address index 1: a taken branch's target, a not-taken
  branch's next instruction), PBT (address index 4, FEAT_SPEv1p2: the
  target of the last taken branch, i.e. the start of the run; on
  --pbt-percent of the records, default 90, never in the run at the
  program's entry), PAD, and TS (the 25 MHz generic timer) or, with
  --end-packets (ts_enable=0), an END packet. --call-return adds the CR
  field of FEAT_SPE_CRR to the branch OP-TYPE. Mispredictions are
  pseudo-random: 5 % of conditional branches, 15 % of br/blr, 2 % of
  ret, 1 % of b/bl.
- Time. TIME_CONV converts the counter exactly (time_shift 21,
  time_mult 40 << 21: 40 ns a tick, time_zero 123456789); the program
  runs 100 instructions a tick; side-band records sit at half ticks.
- CPUs. The run is cut into --phases phases (default --cpus + 1) of equal
  instruction counts that alternate over --cpus CPUs (default 2): SWITCH
  out and AUX on the CPU left, ITRACE_START and SWITCH in on the CPU
  entered. Each CPU has its own AUX buffer (one AUXTRACE queue); an AUX
  record also closes a span at every --aux-watermark bytes (default 8192,
  a multiple of 4096), where perf wakes up and reads: a round is, per CPU,
  its ring-buffer records, then one AUXTRACE record of its new AUX data;
  then FINISHED_ROUND. perf reads once more at the end.

--expect FILE writes what `perf script -F pid,event,ip,addr --itrace=bi1i`
of perf 6.1 prints, one line `PID EVENT IP ADDR` (hexadecimal without 0x)
per synthesized sample: for each record in decoding order (time order;
with --end-packets queue by queue) a `branch-miss` sample (ADDR the
branch target) if it is mispredicted, then an `instructions` sample (ADDR
0). --brstack-text FILE writes what perf 6.14 and later print for
`perf script -F pid,brstack --itrace=bl` (arm_spe__prep_branch_stack: the
sampled branch, then the previous branch target as 0x0/PBT), the text
test/tools/fake-perf-spe serves to perf2bolt --spe.
"""
import argparse
import bisect
import os
import itertools
import random
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'exact-trace'))
sys.path.insert(0, HERE)
import elfinfo  # noqa: E402
from perfdata_writer import (  # noqa: E402
    COMM, EXIT, FINISHED_ROUND, MMAP2, MISC_COMM_EXEC, MISC_USER,
    FEAT_BUILD_ID, FEAT_CMDLINE, FEAT_EVENT_DESC, FEAT_HOSTNAME,
    F_COMM, F_COMM_EXEC, F_DISABLED, F_ENABLE_ON_EXEC, F_EXCLUDE_GUEST,
    F_EXCLUDE_HV, F_EXCLUDE_KERNEL, F_INHERIT, F_MMAP, F_MMAP2,
    F_SAMPLE_ID_ALL, F_TASK, S_CPU, S_IDENTIFIER, S_IP, S_TID, S_TIME,
    SW_DUMMY, TYPE_SOFTWARE, Writer, build_id, data_offset, event_desc,
    write_file)

# Record types perf-data-gen does not write (perf_event.h, perf's event.h).
AUX, ITRACE_START, SWITCH = 11, 12, 14
ID_INDEX, AUXTRACE_INFO, AUXTRACE = 69, 70, 71
THREAD_MAP, CPU_MAP, TIME_CONV, FINISHED_INIT = 73, 74, 79, 82
MISC_SWITCH_OUT, MISC_SWITCH_OUT_PREEMPT = 1 << 13, 1 << 14
S_DATA_SRC = 1 << 15
READ_FORMAT_ID, READ_FORMAT_LOST = 4, 16
F_CONTEXT_SWITCH, F_KSYMBOL, F_BPF_EVENT = 26, 29, 30
FEAT_OSRELEASE, FEAT_VERSION, FEAT_ARCH, FEAT_NRCPUS = 4, 5, 6, 7
FEAT_CPUDESC, FEAT_CPUID, FEAT_TOTAL_MEM, FEAT_PMU_MAPPINGS = 8, 9, 10, 16
FEAT_AUXTRACE, FEAT_SAMPLE_TIME = 18, 21
PERF_AUXTRACE_ARM_SPE = 4
CPU_MAP_RANGE_CPUS = 2
# The SPE PMU's config fields (drivers/perf/arm_spe_pmu.c format/).
CFG_TS_ENABLE, CFG_JITTER, CFG_BRANCH_FILTER = 1 << 0, 1 << 16, 1 << 32

# SPE packet headers (Arm ARM D10 "Statistical Profiling Extension", the
# encodings perf's arm-spe-pkt-decoder.c reads).
PKT_PAD, PKT_END, PKT_TS = 0x00, 0x01, 0x71
PKT_ADDR = 0xb0          # | index: 0 PC, 1 TGT, 2 VA, 3 PA, 4 PBT; 8 bytes
PKT_COUNTER = 0x98       # | index: 0 total, 1 issue, 2 translation; 2 bytes
PKT_EVENTS = 0x52        # 2-byte payload, as Neoverse cores write it
PKT_CONTEXT_EL2 = 0x65   # CONTEXTIDR_EL2 (a VHE host), 4 bytes
PKT_OP = 0x48            # | class: 0 other, 1 load/store, 2 branch
EV_RETIRED, EV_L1D_ACCESS, EV_TLB_ACCESS = 1 << 1, 1 << 2, 1 << 4
EV_NOT_TAKEN, EV_MISPRED = 1 << 6, 1 << 7
OP_COND, OP_IND = 1 << 0, 1 << 1
CR_BL, CR_RET, CR_NON_BL_RET = 1 << 3, 2 << 3, 3 << 3
NS_EL0 = 1 << 63
RECORD_SIZE = 64

# Time: a 25 MHz generic timer, 40 ns a tick, exactly.
TICK_NS = 40
TIME_SHIFT = 21
TIME_MULT = TICK_NS << TIME_SHIFT
TIME_ZERO = 123456789
TIME_MASK = (1 << 56) - 1
OPS_PER_TICK = 100
CYC_EXEC = 30000000000          # the counter at exec (20 minutes of uptime)
CYC_RUN = CYC_EXEC + 100        # the program's first instruction
GAP_TICKS = 2500                # 100 us between phases (a migration)
SPE_ID, DUMMY_ID = 42, 142      # first event ID of each event
MIDR = '0x00000000413fd0c1'     # Neoverse N1 r3p1
KINDS_BRANCH = ('cond', 'b', 'bl', 'br', 'blr', 'ret')
MISPREDICT = {'cond': 0.05, 'br': 0.15, 'blr': 0.15, 'ret': 0.02,
              'b': 0.01, 'bl': 0.01}


def classify(word):
    """The kind of the AArch64 instruction WORD: a branch kind of
    KINDS_BRANCH, 'eret', 'ld'/'st' (with SIMD&FP: 'ldv'/'stv') or
    'other'."""
    if (word & 0xff000000 == 0x54000000 or  # b.cond, bc.cond
            word & 0x7e000000 in (0x34000000, 0x36000000)):  # cb(n)z, tb(n)z
        return 'cond'
    if word & 0xfc000000 == 0x14000000:
        return 'b'
    if word & 0xfc000000 == 0x94000000:
        return 'bl'
    if word & 0xfe000000 == 0xd6000000 and (word >> 16) & 0x1f == 0x1f:
        opc = (word >> 21) & 0xf  # unconditional branch (register)
        kind = {0: 'br', 8: 'br', 1: 'blr', 9: 'blr', 2: 'ret', 4: 'eret'}
        if opc in kind:
            return kind[opc]
    if (word >> 25) & 0x5 == 0x4:  # loads and stores
        return ('ld' if word & (1 << 22) else 'st') + \
            ('v' if word & (1 << 26) else '')
    return 'other'


def op_payload(kind, call_return):
    """The OP-TYPE packet (class, payload) of an instruction of KIND; with
    CALL_RETURN the branch's CR field (FEAT_SPE_CRR) too."""
    if kind in KINDS_BRANCH:
        p = {'cond': OP_COND, 'b': 0, 'bl': 0, 'br': OP_IND, 'blr': OP_IND,
             'ret': OP_IND}[kind]
        if call_return:
            p |= {'bl': CR_BL, 'blr': CR_BL, 'ret': CR_RET}.get(
                kind, CR_NON_BL_RET)
        return 2, p
    if kind.startswith(('ld', 'st')):
        return 1, (1 if kind.startswith('st') else 0) | \
            (4 if kind.endswith('v') else 0)
    return 0, 0


def brstack_type(payload):
    """The branch type perf 6.14+ gives a branch record of OP-TYPE payload
    PAYLOAD (arm_spe__prep_branch_stack), as perf script names it."""
    cond = payload & OP_COND
    cr = payload & (3 << 3)
    if cr == CR_BL:
        return 'COND_CALL' if cond else 'CALL'
    if cr == CR_RET or payload & OP_IND:
        return 'COND_RET' if cond else 'RET'
    if cr == CR_NON_BL_RET:
        return 'COND' if cond else 'UNCOND'
    return 'COND' if cond else ''  # PERF_BR_UNKNOWN prints as nothing


class Code:
    """The instruction bytes of every object the trace ran code in: the
    binary at its load bias, the others where the trace's map lines put
    them."""

    def __init__(self, elf, bias, header, run_starts):
        self.ranges = []  # (lo, hi, elf, bias)
        self._add(elf, bias)
        seen = {os.path.realpath(elf.path)}
        for lo, hi, _off, path in header['maps']:
            i = bisect.bisect_left(run_starts, lo)
            if path in seen or i == len(run_starts) or run_starts[i] >= hi:
                continue
            seen.add(path)
            try:
                other = elfinfo.Elf(path)
                b = elfinfo.mapped_bias(other, header['maps'])
            except (OSError, ValueError):
                continue
            if b is not None:
                self._add(other, b)
        self.ranges.sort(key=lambda r: r[0])
        self._starts = [r[0] for r in self.ranges]
        self.unknown = 0

    def _add(self, elf, bias):
        for lo, hi in elf.exec_ranges:
            self.ranges.append((lo + bias, hi + bias, elf, bias))

    def kind(self, addr):
        i = bisect.bisect_right(self._starts, addr) - 1
        if i >= 0 and addr < self.ranges[i][1]:
            _, _, elf, bias = self.ranges[i]
            word = elf.read(addr - bias, 4)
            if len(word) == 4:
                return classify(struct.unpack('<I', word)[0])
        self.unknown += 1
        return None


class Fenwick:
    def __init__(self, weights):
        self.n = len(weights)
        self.t = [0] * (self.n + 1)
        for i, w in enumerate(weights):
            self.add(i, w)

    def add(self, i, d):
        i += 1
        while i <= self.n:
            self.t[i] += d
            i += i & -i

    def find(self, x):
        """The index whose cumulative range holds X (0 <= X < total)."""
        pos, step = 0, 1 << self.n.bit_length()
        while step:
            if pos + step <= self.n and self.t[pos + step] <= x:
                pos += step
                x -= self.t[pos]
            step >>= 1
        return pos


def draw(r_tree, rng, left_total, runs, weights, lengths, taken):
    """A random instance not drawn yet: its run and instruction."""
    r = r_tree.find(rng.randrange(left_total))
    n = runs[r][3]
    x = rng.randrange(weights[r])
    for i in range(lengths[r]):
        left = n - taken.get((r, i), 0)
        if x < left:
            break
        x -= left
    taken[(r, i)] = taken.get((r, i), 0) + 1
    weights[r] -= 1
    r_tree.add(r, -1)
    return r, i


def sanitised_interval(n, min_interval):
    """PMSIRR_EL1.INTERVAL as the kernel driver programs it for period N
    (arm_spe_event_sanitise_period: at least the PMU's minimum, at most
    the field's maximum, else bits [31:8] of N)."""
    if n < min_interval:
        return min_interval
    return min(n, 0xffffff00) & 0xffffff00


def sample_positions(phase_bounds, phase_cpu, cpus, interval, jitter, rng):
    """The operation indices SPE samples: each CPU's counter
    counts the operations of the phases that CPU runs and keeps its value
    between them (the driver saves PMSICR_EL1 at a stop)."""
    counter = [None] * cpus

    def reload():
        return (interval & ~0xff | rng.randrange(256)) if jitter \
            else interval

    out = []
    for j, (lo, hi) in enumerate(zip(phase_bounds, phase_bounds[1:])):
        c = phase_cpu[j]
        if counter[c] is None:
            counter[c] = reload()
        p = lo
        while p + counter[c] <= hi:
            p += counter[c]
            out.append(p - 1)  # the counter reaches 0 on this operation
            counter[c] = reload()
        counter[c] -= hi - p
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('binary')
    ap.add_argument('triples')
    ap.add_argument('-o', '--output', required=True)
    ap.add_argument('--interval', type=int)
    ap.add_argument('--min-interval', type=int, default=1024,
                    choices=(256, 512, 768, 1024, 1536, 2048, 3072, 4096))
    ap.add_argument('--jitter', action='store_true')
    ap.add_argument('--systematic', action='store_true')
    ap.add_argument('--no-branch-filter', action='store_true')
    ap.add_argument('--cpus', type=int, default=2)
    ap.add_argument('--phases', type=int)
    ap.add_argument('--big-endian', action='store_true')
    ap.add_argument('--end-packets', action='store_true')
    ap.add_argument('--no-context', action='store_true')
    ap.add_argument('--pbt-percent', type=int, default=90)
    ap.add_argument('--call-return', action='store_true')
    ap.add_argument('--aux-watermark', type=int, default=8192)
    ap.add_argument('--pmu-type', type=int, default=8)
    ap.add_argument('--pid', type=int, default=4242)
    ap.add_argument('--load-bias', type=lambda v: int(v, 0))
    ap.add_argument('--all-objects', action='store_true')
    ap.add_argument('--seed', type=int, default=22)
    ap.add_argument('--expect')
    ap.add_argument('--brstack-text')
    args = ap.parse_args()
    if args.cpus < 1 or args.aux_watermark % 4096 or args.aux_watermark <= 0:
        ap.error('--cpus must be positive, --aux-watermark a positive '
                 'multiple of the page size (4096)')
    phases = args.phases or args.cpus + 1
    rng = random.Random(args.seed)
    w = Writer(args.big_endian)
    pid = args.pid
    cpus = args.cpus

    elf = elfinfo.Elf(args.binary)
    header, triples = elfinfo.read_triples(args.triples)
    bias = elfinfo.trace_load_bias(elf, header, args.load_bias)
    runs = sorted(triples)
    code = Code(elf, bias, header, sorted({r[0] for r in runs}))

    # --- Which operations are sampled, and what each one is.
    lengths = [(s - a) // 4 + 1 for a, s, _, _ in runs]
    weights = [n * length for (_, _, _, n), length in zip(runs, lengths)]
    total = sum(weights)
    bounds = [total * j // phases for j in range(phases + 1)]
    phase_cpu = [j % cpus for j in range(phases)]
    interval = sanitised_interval(args.interval or args.min_interval,
                                  args.min_interval)
    positions = sample_positions(bounds, phase_cpu, cpus, interval,
                                 args.jitter, rng)
    tree = Fenwick(weights)
    taken = {}  # (run, offset) -> instances drawn
    entry = header.get('entry')
    records = []  # dicts, in time order
    left_total = total
    starts = list(itertools.accumulate(weights, initial=0))
    for p in positions:
        if args.systematic:
            r = bisect.bisect_right(starts, p) - 1
            a, s, t, n = runs[r]
            i = (p - starts[r]) // n
        else:
            r, i = draw(r_tree=tree, rng=rng, left_total=left_total,
                        runs=runs, weights=weights, lengths=lengths,
                        taken=taken)
            left_total -= 1
            a, s, t, n = runs[r]
        pc = a + 4 * i
        kind = code.kind(pc)
        last = pc == s
        if kind is None:  # no bytes: a run's end is some branch
            kind = 'b' if last and t else 'other'
        not_taken = False
        if kind == 'cond':
            not_taken = not (last and t and t != pc + 4)
        elif kind in KINDS_BRANCH and not (last and t):
            kind = 'other'  # cannot fall through: the trace disagrees
        is_branch = kind in KINDS_BRANCH
        target = pc + 4 if not_taken else t
        if not is_branch and not args.no_branch_filter:
            continue
        j = bisect.bisect_right(bounds, p) - 1
        rec = {'pc': pc, 'kind': kind, 'cpu': phase_cpu[j], 'phase': j,
               'tick': CYC_RUN + j * GAP_TICKS + p // OPS_PER_TICK,
               'branch': is_branch}
        cls, payload = op_payload(kind, args.call_return)
        rec['op'] = (cls, payload)
        issue = 1 + min(int(rng.expovariate(1 / 3.0)), 60)
        total_lat = issue + 1 + rng.randrange(3)
        events = EV_RETIRED
        if is_branch:
            rec['target'] = target
            rec['not_taken'] = not_taken
            rec['mispred'] = rng.random() < MISPREDICT[kind]
            if not_taken:
                events |= EV_NOT_TAKEN
            if rec['mispred']:
                events |= EV_MISPRED
                total_lat += 8 + rng.randrange(8)
        elif cls == 1:
            events |= EV_L1D_ACCESS | EV_TLB_ACCESS
        rec['events'] = events
        rec['lat'] = (issue, total_lat)
        rec['pbt'] = a if a != entry and \
            rng.randrange(100) < args.pbt_percent else None
        records.append(rec)

    def record_bytes(rec):
        def addr(index, value):
            return bytes([PKT_ADDR | index]) + struct.pack('<Q',
                                                          value | NS_EL0)
        b = addr(0, rec['pc']) + bytes([PKT_PAD] * 5)
        b += bytes([PKT_PAD] * 5) if args.no_context else \
            bytes([PKT_CONTEXT_EL2]) + struct.pack('<I', pid)
        cls, payload = rec['op']
        b += bytes([PKT_OP | cls, payload])
        b += bytes([PKT_EVENTS]) + struct.pack('<H', rec['events'])
        b += bytes([PKT_COUNTER | 1]) + struct.pack('<H', rec['lat'][0])
        b += bytes([PKT_COUNTER | 0]) + struct.pack('<H', rec['lat'][1])
        if rec['branch']:
            b += addr(1, rec['target'])
        if rec['pbt'] is not None:
            b += addr(4, rec['pbt'])
        if args.end_packets:
            return b + bytes([PKT_PAD] * (RECORD_SIZE - 1 - len(b))) + \
                bytes([PKT_END])
        b += bytes([PKT_PAD] * (RECORD_SIZE - 9 - len(b)))
        return b + bytes([PKT_TS]) + struct.pack('<Q', rec['tick'])

    # --- The timeline: side-band records per CPU ring buffer, AUX data.
    def ns(half_ticks):
        """The perf time of half tick HALF_TICKS (an odd number: between
        two counter values)."""
        return TIME_ZERO + TICK_NS * half_ticks // 2

    spe_ids = [SPE_ID + c for c in range(cpus)]
    dummy_ids = [DUMMY_ID + c for c in range(cpus)]
    ring = [[] for _ in range(cpus)]  # (time, bytes)
    wakeups = []  # perf times at which perf reads every buffer

    def side(cpu, time, rtype, misc, body, ident):
        ring[cpu].append((time, w.record(
            rtype, misc, body + w.trailer(pid, time, ident, cpu))))

    comm = os.path.basename(args.binary).encode()[:15] + b'\0'
    comm += b'\0' * (-len(comm) % 8)
    vaddr, memsz, offset, _, _ = next(s for s in elf.segments if s[4] & 1)
    mappings = [(bias + (vaddr & ~0xfff),
                 (vaddr + memsz - (vaddr & ~0xfff) + 0xfff) & ~0xfff,
                 offset & ~0xfff, os.path.abspath(args.binary))]
    if args.all_objects:
        starts = sorted(r[0] for r in runs)
        own = os.path.realpath(args.binary)
        for lo, hi, off, path in header['maps']:
            i = bisect.bisect_left(starts, lo)
            if path != own and i < len(starts) and starts[i] < hi:
                mappings.append((lo, hi - lo, off, path))
    first = phase_cpu[0]
    h = 2 * CYC_EXEC + 1
    side(first, ns(h), ITRACE_START, 0, w.pack('II', pid, pid),
         spe_ids[first])
    side(first, ns(h + 2), COMM, MISC_COMM_EXEC,
         w.pack('II', pid, pid) + comm, dummy_ids[first])
    for k, (at, size, pgoff, path) in enumerate(sorted(mappings)):
        fname = path.encode() + b'\0'
        fname += b'\0' * (-len(fname) % 8)
        side(first, ns(h + 4 + 2 * k), MMAP2, MISC_USER,
             w.pack('IIQQQIIQQII', pid, pid, at, size, pgoff, 0xfe, 0,
                    4242 + k, 0, 5, 2) + fname, dummy_ids[first])

    aux = [bytearray() for _ in range(cpus)]  # each CPU's AUX buffer
    span = [0] * cpus  # where each CPU's open AUX span starts
    closed = [[] for _ in range(cpus)]  # (time, end offset) of closed spans

    def close_span(c, time):
        if len(aux[c]) > span[c]:
            side(c, time, AUX, 0, w.pack('QQQ', span[c],
                                          len(aux[c]) - span[c], 0),
                 spe_ids[c])
            closed[c].append((time, len(aux[c])))
            span[c] = len(aux[c])

    by_phase = [[] for _ in range(phases)]
    for rec in records:
        by_phase[rec['phase']].append(rec)
    for j in range(phases):
        c = phase_cpu[j]
        start = CYC_RUN + j * GAP_TICKS + bounds[j] // OPS_PER_TICK
        if j:
            h = 2 * (start - GAP_TICKS // 2) + 1
            side(c, ns(h), ITRACE_START, 0, w.pack('II', pid, pid),
                 spe_ids[c])
            side(c, ns(h + 2), SWITCH, 0, b'', dummy_ids[c])
        for rec in by_phase[j]:
            aux[c] += record_bytes(rec)
            if len(aux[c]) % args.aux_watermark == 0:
                # The buffer reached the page after the wakeup index: a
                # buffer management event, the AUX record, perf wakes up.
                close_span(c, ns(2 * rec['tick'] + 1))
                wakeups.append(ns(2 * rec['tick'] + 1) + 1)
        end = CYC_RUN + j * GAP_TICKS + (bounds[j + 1] + OPS_PER_TICK - 1) \
            // OPS_PER_TICK
        if j + 1 < phases:
            side(c, ns(2 * end + 1), SWITCH,
                 MISC_SWITCH_OUT | MISC_SWITCH_OUT_PREEMPT, b'',
                 dummy_ids[c])
            close_span(c, ns(2 * end + 3))
        else:
            close_span(c, ns(2 * end + 1))
            side(c, ns(2 * end + 3), EXIT, 0,
                 w.pack('IIIIQ', pid, pid - 1, pid, pid - 1,
                        ns(2 * end + 3)), dummy_ids[c])
            wakeups.append(ns(2 * end + 5))

    # --- The data section, as perf record writes it.
    events = spe_events(w, args, spe_ids, dummy_ids)
    data = bytearray()
    at0 = data_offset(events)
    index = []  # file offsets of the AUXTRACE records
    data += w.record(TIME_CONV, 0, w.pack(
        'QQQQQBB6x', TIME_SHIFT, TIME_MULT, TIME_ZERO, CYC_EXEC - 25000000,
        TIME_MASK, 1, 1))
    data += w.record(ID_INDEX, 0, w.pack('Q', 2 * cpus) + b''.join(
        w.pack('QQQQ', ident, c, c, pid)
        for ids in (spe_ids, dummy_ids) for c, ident in enumerate(ids)))
    data += w.record(AUXTRACE_INFO, 0, w.pack('IIQQ', PERF_AUXTRACE_ARM_SPE,
                                              0, args.pmu_type, 0))
    data += w.record(THREAD_MAP, 0, w.pack('QQ', 1, pid) + b'\0' * 16)
    data += w.record(CPU_MAP, 0, w.pack('HBBHH', CPU_MAP_RANGE_CPUS, 0, 0,
                                        0, cpus - 1))
    zero_id = b'\0' * 32  # a synthesized record's sample_id_all fields
    data += w.record(COMM, 0, w.pack('II', pid, pid) +
                     b'perf-exec\0\0\0\0\0\0\0' + zero_id)
    data += w.record(FINISHED_INIT, 0, b'')
    read_at = [0] * cpus
    for wake in sorted(set(wakeups)):
        wrote = False
        for c in range(cpus):
            while ring[c] and ring[c][0][0] <= wake:
                data += ring[c].pop(0)[1]
                wrote = True
            end = max([e for t, e in closed[c] if t <= wake] or [0])
            if end > read_at[c]:
                chunk = bytes(aux[c][read_at[c]:end])
                ref = (wake // 1000000000) ^ (wake % 1000000000)
                index.append(at0 + len(data))
                data += w.record(AUXTRACE, 0, w.pack(
                    'QQQIIII', len(chunk), read_at[c], ref, c, pid, c, 0))
                data += chunk  # little-endian, as the hardware wrote it
                read_at[c] = end
                wrote = True
        if wrote:
            data += w.record(FINISHED_ROUND, 0, b'')
    assert not any(ring) and read_at == [len(a) for a in aux]

    # --- Features.
    cmdline = ['/usr/bin/perf', 'record', '-e', events[0][2]]
    if args.interval:
        cmdline += ['-c', str(args.interval)]
    cmdline += ['--', args.binary]
    objects = sorted({m[3] for m in mappings})
    feats = {
        FEAT_BUILD_ID: b''.join(w.build_id_record(0, build_id(p), p)
                                for p in objects if build_id(p)),
        FEAT_HOSTNAME: w.string('spe-data-gen'),
        FEAT_OSRELEASE: w.string('6.1.0-31-arm64'),
        FEAT_VERSION: w.string('6.1.187'),
        FEAT_ARCH: w.string('aarch64'),
        FEAT_NRCPUS: w.pack('II', cpus, cpus),
        FEAT_CPUDESC: w.string('Neoverse-N1'),
        FEAT_CPUID: w.string(MIDR),
        FEAT_TOTAL_MEM: w.pack('Q', 263856128),  # kB: 256 GB
        FEAT_CMDLINE: w.pack('I', len(cmdline)) + b''.join(
            w.string(s) for s in cmdline),
        FEAT_EVENT_DESC: event_desc(w, events),
        FEAT_PMU_MAPPINGS: w.pack('I', 4) + b''.join(
            w.pack('I', t) + w.string(n) for t, n in
            ((1, 'software'), (2, 'tracepoint'), (5, 'breakpoint'),
             (args.pmu_type, 'arm_spe_0'))),
        FEAT_AUXTRACE: w.pack('Q', len(index)) + b''.join(
            w.pack('QQ', off, 48) for off in index),
        # perf record takes every build ID of an AUX area file without
        # reading its samples, so it never sees the first and last sample.
        FEAT_SAMPLE_TIME: w.pack('QQ', 0, 0),
    }
    with open(args.output, 'wb') as out:
        write_file(out, w, events, bytes(data), feats)

    # The order in which perf decodes the records: by time; without
    # timestamps (END packets) every record has time 0 and perf decodes
    # one queue (CPU) after the other.
    if args.end_packets:
        records.sort(key=lambda rec: (rec['cpu'], rec['tick']))
    if args.expect:
        with open(args.expect, 'w') as f:
            for rec in records:
                if rec['branch'] and rec['mispred']:
                    f.write('%d branch-miss %x %x\n' % (pid, rec['pc'],
                                                        rec['target']))
                f.write('%d instructions %x 0\n' % (pid, rec['pc']))
    if args.brstack_text:
        with open(args.brstack_text, 'w') as f:
            for rec in records:
                if not rec['branch']:
                    continue
                ev = ('M' if rec['mispred'] else 'P') + \
                    ('N' if rec['not_taken'] else '')
                line = '%7d  0x%x/0x%x/%s/-/-/%d/%s/- ' % (
                    pid, rec['pc'], rec['target'], ev,
                    min(rec['lat'][1], 0xffff), brstack_type(rec['op'][1]))
                if rec['pbt'] is not None:
                    line += ' 0x0/0x%x/-/-/-/0//- ' % rec['pbt']
                f.write(line + '\n')
    if code.unknown:
        print('spe-data-gen: %d sampled instructions lie outside every '
              'object with code bytes' % code.unknown, file=sys.stderr)


def spe_events(w, args, spe_ids, dummy_ids):
    """The two events of `perf record -e arm_spe_0/.../u` in per-CPU mode
    (arch/arm64/util/arm-spe.c and evsel__config): the SPE event first,
    then the tracking dummy:u."""
    config = (0 if args.end_packets else CFG_TS_ENABLE) | \
        (CFG_JITTER if args.jitter else 0) | \
        (0 if args.no_branch_filter else CFG_BRANCH_FILTER)
    terms = [] if args.no_branch_filter else ['branch_filter=1']
    if args.jitter:
        terms.append('jitter=1')
    if args.end_packets:
        terms.append('ts_enable=0')
    name = 'arm_spe_0/%s/u' % ','.join(terms)
    common = (1 << F_DISABLED | 1 << F_INHERIT | 1 << F_EXCLUDE_KERNEL |
              1 << F_EXCLUDE_HV | 1 << F_ENABLE_ON_EXEC |
              1 << F_SAMPLE_ID_ALL | 1 << F_EXCLUDE_GUEST)
    read_format = READ_FORMAT_ID | READ_FORMAT_LOST
    # Without -c the SPE event has the PMU's caps/min_interval, the dummy
    # the 1 arm_spe_recording_options gives it; -c N gives both N.
    period = args.interval or args.min_interval
    spe = w.attr_raw(args.pmu_type, config, period,
                     S_IP | S_TID | S_TIME | S_CPU | S_IDENTIFIER |
                     S_DATA_SRC, read_format, common)
    tracking = common | 1 << F_MMAP | 1 << F_COMM | 1 << F_TASK | \
        1 << F_MMAP2 | 1 << F_COMM_EXEC | 1 << F_CONTEXT_SWITCH | \
        1 << F_KSYMBOL | 1 << F_BPF_EVENT
    dummy = w.attr_raw(TYPE_SOFTWARE, SW_DUMMY, args.interval or 1,
                       S_IP | S_TID | S_TIME | S_CPU | S_IDENTIFIER,
                       read_format, tracking)
    return [(spe, spe_ids, name), (dummy, dummy_ids, 'dummy:u')]


if __name__ == '__main__':
    main()
