"""perfdata_writer.py - the pieces of a perf.data file that the generators
in test/tools share (perf-data-gen.py, spe-data-gen.py): record and
attribute constants, the byte order of a little- or big-endian host
(struct formats, perf_event_attr's and perf_branch_entry's bit fields),
records, header strings and build ID records (the format:
include/uapi/linux/perf_event.h and perf's
tools/perf/Documentation/perf.data-file-format.txt).
"""
import struct

# Record types and bits (include/uapi/linux/perf_event.h, perf's header.h).
MMAP2, COMM, EXIT, SAMPLE = 10, 3, 4, 9
HEADER_ATTR, HEADER_BUILD_ID, FINISHED_ROUND, EVENT_UPDATE = 64, 67, 68, 78
MISC_USER, MISC_COMM_EXEC, MISC_BUILD_ID_SIZE = 2, 1 << 13, 1 << 15
S_IP, S_TID, S_TIME, S_PERIOD, S_BRANCH_STACK = 1, 2, 4, 256, 2048
S_CPU, S_IDENTIFIER = 128, 1 << 16
# perf_event_attr types and configs.
TYPE_HARDWARE, TYPE_SOFTWARE, TYPE_CS_ETM = 0, 1, 10
HW_CPU_CYCLES, HW_INSTRUCTIONS, SW_DUMMY = 0, 1, 9
B_USER, B_ANY, B_HW_INDEX = 1, 8, 1 << 17
# perf_event_attr flag bits, numbered as on a little-endian host.
F_DISABLED, F_INHERIT, F_EXCLUDE_KERNEL, F_EXCLUDE_HV = 0, 1, 5, 6
F_MMAP, F_COMM, F_FREQ, F_ENABLE_ON_EXEC, F_TASK = 8, 9, 10, 12, 13
F_SAMPLE_ID_ALL, F_EXCLUDE_GUEST, F_MMAP2, F_COMM_EXEC = 18, 20, 23, 24
FEAT_BUILD_ID, FEAT_HOSTNAME, FEAT_CMDLINE, FEAT_EVENT_DESC = 2, 3, 11, 12
ATTR_SIZE = 128
# The default sample period of Writer.attr (perf-data-gen's cycles:u).
PERIOD = 100003


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

    def trailer(self, pid, time, ident=None, cpu=0):
        """The sample_id_all fields: TID, TIME, and with IDENTIFIER (the
        etm and spe styles) CPU and the ID."""
        t = self.pack('IIQ', pid, pid, time)
        if ident is not None:
            t += self.pack('IIQ', cpu, 0, ident)
        return t

    def attr_raw(self, etype, config, period, sample_type, read_format,
                 flags, config1=0, config2=0, branch_sample_type=0):
        """A perf_event_attr of ATTR_SIZE bytes with every field perf
        record sets for an event that does not sample registers, stacks
        or callchains; FLAGS are the bit-field bits (F_*), numbered as on
        a little-endian host."""
        a = self.pack('IIQQQQQIIQQQ', etype, ATTR_SIZE, config, period,
                      sample_type, read_format, self.bitfield(flags), 0, 0,
                      config1, config2, branch_sample_type)
        return a + b'\0' * (ATTR_SIZE - len(a))

    def attr(self, hw_index, etype=TYPE_HARDWARE, config=HW_CPU_CYCLES,
             period=PERIOD, sample_type=S_IP | S_TID | S_TIME | S_PERIOD |
             S_BRANCH_STACK, tracking=True, branch=B_USER | B_ANY):
        flags = 0
        for bit in (F_DISABLED, F_INHERIT, F_EXCLUDE_KERNEL, F_EXCLUDE_HV,
                    F_ENABLE_ON_EXEC, F_SAMPLE_ID_ALL, F_EXCLUDE_GUEST):
            flags |= 1 << bit
        if tracking:
            for bit in (F_MMAP, F_COMM, F_TASK, F_MMAP2, F_COMM_EXEC):
                flags |= 1 << bit
        if hw_index:
            branch |= B_HW_INDEX
        a = self.pack('IIQQQQQIIQQQ', etype, ATTR_SIZE, config, period,
                      sample_type, 0, self.bitfield(flags), 0, 0, 0, 0,
                      branch if sample_type & S_BRANCH_STACK else 0)
        return a + b'\0' * (ATTR_SIZE - len(a))

    def string(self, s):
        """perf's header string: u32 length, NUL-padded to 64 bytes."""
        b = s.encode() + b'\0'
        b += b'\0' * (-len(b) % 64)
        return self.pack('I', len(b)) + b

    def build_id_record(self, rtype, bid, path, padded=False):
        """A build ID record; PADDED: without its size, the ID zero-padded
        to 20 bytes, as perf before 5.11 wrote it."""
        name = path.encode() + b'\0'
        name += b'\0' * (-len(name) % 64)
        size = 0 if padded else min(len(bid), 20)
        body = self.pack('i', -1) + bid[:20].ljust(20, b'\0') + \
            bytes([size, 0, 0, 0]) + name
        misc = MISC_USER | (0 if padded else MISC_BUILD_ID_SIZE)
        return self.record(rtype, misc, body)


def write_file(out, w, events, data, feats):
    """Writes a file-mode perf.data to the binary stream OUT: the header,
    the attribute section (EVENTS: (attr bytes, [ids], name) each, their
    IDs after the attributes), the DATA bytes, then the feature sections
    (FEATS: {bit: bytes}) in bit order. Returns the file offset of DATA,
    so that a caller that needs offsets into it (an AUXTRACE index) can
    compute them beforehand with data_offset()."""
    start = data_offset(events)
    out.write(b'\0' * 104)
    attrs_at = out.tell()
    ids_at = attrs_at + len(events) * (ATTR_SIZE + 16)
    for attr, ids, _ in events:
        out.write(attr + w.pack('QQ', ids_at, 8 * len(ids)))
        ids_at += 8 * len(ids)
    for _, ids, _ in events:
        for ident in ids:
            out.write(w.pack('Q', ident))
    assert out.tell() == start
    out.write(data)
    table_at = out.tell()
    at = table_at + 16 * len(feats)
    table = b''
    for bit in sorted(feats):
        table += w.pack('QQ', at, len(feats[bit]))
        at += len(feats[bit])
    out.write(table)
    for bit in sorted(feats):
        out.write(feats[bit])
    bitmap = [0, 0, 0, 0]
    for bit in feats:
        bitmap[bit // 64] |= 1 << (bit % 64)
    out.seek(0)
    out.write(w.pack('QQQ', 0x32454c4946524550, 104, ATTR_SIZE + 16))
    out.write(w.pack('QQQQQQ', attrs_at, len(events) * (ATTR_SIZE + 16),
                     start, len(data), 0, 0))
    out.write(w.pack('QQQQ', *bitmap))
    return start


def data_offset(events):
    """The file offset at which write_file places the data section."""
    return 104 + sum(ATTR_SIZE + 16 + 8 * len(ids) for _, ids, _ in events)


def event_desc(w, events):
    """The EVENT_DESC feature of EVENTS ((attr, [ids], name) each)."""
    return w.pack('II', len(events), ATTR_SIZE) + b''.join(
        attr + w.pack('I', len(ids)) + w.string(name) +
        b''.join(w.pack('Q', i) for i in ids) for attr, ids, name in events)
