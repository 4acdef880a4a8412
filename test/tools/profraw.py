#!/usr/bin/env python3
"""profraw.py - rewrite raw instrumentation profiles for the lit tests.

Usage:
  profraw.py swap IN OUT        the same profile in the other byte order
  profraw.py malformed IN DIR   one broken copy of IN per case, in DIR
  profraw.py v9 IN OUT          a version 10 profile without vtables as the
                                version 9 profile LLVM 17 and 18 would write

IN is a little-endian raw profile of version 8, 9 or 10 with 64-bit
pointers, as the Debian clangs write on x86-64. `swap` byte-swaps every
field by its width (header words, binary ID lengths, data records,
counters, vtable records, value data), leaving byte strings (binary IDs,
bitmap bytes, names) as they are: the big-endian profile a big-endian
machine would have written. `malformed` writes the cases
test/instrprof/malformed.test checks: the file cut inside each header
field, section sizes past the end of the file, a counter pointer outside
the counters, too many counters, a broken zlib stream in the names, an
unknown version, bad value data. `v9` drops the header's NumVTables and
VNamesSize (both 0), sets ValueKindLast to 1 and lays each record out with
two value kinds (NumBitmapBytes moves from offset 60 to 56), as LLVM 17
and 18 define raw version 9.
"""
import os
import struct
import sys

HEADER = {
    8: ['Magic', 'Version', 'BinaryIdsSize', 'NumData',
        'PaddingBytesBeforeCounters', 'NumCounters',
        'PaddingBytesAfterCounters', 'NamesSize', 'CountersDelta',
        'NamesDelta', 'ValueKindLast'],
}
HEADER[9] = (HEADER[8][:7] + ['NumBitmapBytes', 'PaddingBytesAfterBitmapBytes',
                              'NamesSize', 'CountersDelta', 'BitmapDelta',
                              'NamesDelta', 'ValueKindLast'])
HEADER[10] = HEADER[9][:-1] + ['NumVTables', 'VNamesSize', 'ValueKindLast']


def pad8(n):
    return (8 - n % 8) % 8


class Profile:
    """The layout of a little-endian 64-bit raw profile: header fields and
    the (offset, width) of every multi-byte field after it."""

    def __init__(self, data):
        self.data = data
        self.version = struct.unpack_from('<Q', data, 8)[0] & 0xffffffff
        self.variant = struct.unpack_from('<Q', data, 8)[0] >> 32
        names = HEADER[self.version]
        self.fields = {}
        self.field_offset = {}
        for i, name in enumerate(names):
            self.fields[name] = struct.unpack_from('<Q', data, 8 * i)[0]
            self.field_offset[name] = 8 * i
        self.header_size = 8 * len(names)
        self.words = [(8 * i, 8) for i in range(len(names))]
        kinds = 3 if self.version >= 10 else 2
        bitmap = self.version >= 9
        # Record field (offset, width) pairs.
        rec = [(0, 8), (8, 8), (16, 8)]
        off = 24
        if bitmap:
            rec.append((off, 8))
            off += 8
        rec += [(off, 8), (off + 8, 8), (off + 16, 4)]
        self.num_counters_at = off + 16
        self.sites_at = off + 20
        rec += [(off + 20 + 2 * k, 2) for k in range(kinds)]
        end = off + 20 + 2 * kinds
        if bitmap:
            end = (end + 3) // 4 * 4
            rec.append((end, 4))
            end += 4
        self.record = rec
        self.record_size = (end + 7) // 8 * 8
        self.kinds = kinds
        f = self.fields
        pos = self.header_size
        self.binary_ids = pos
        bi = pos
        while bi < pos + f['BinaryIdsSize']:
            n = struct.unpack_from('<Q', data, bi)[0]
            self.words.append((bi, 8))
            bi += 8 + n + pad8(n)
        pos += f['BinaryIdsSize']
        self.data_begin = pos
        for r in range(f['NumData']):
            for o, w in rec:
                self.words.append((pos + r * self.record_size + o, w))
        pos += f['NumData'] * self.record_size + f['PaddingBytesBeforeCounters']
        self.counters = pos
        single_byte = self.variant & (1 << 28)
        csize = 1 if single_byte else 8
        if csize == 8:
            self.words += [(pos + 8 * i, 8) for i in range(f['NumCounters'])]
        pos += f['NumCounters'] * csize + f['PaddingBytesAfterCounters']
        if bitmap:
            pos += f['NumBitmapBytes'] + f['PaddingBytesAfterBitmapBytes']
        self.names = pos
        pos += f['NamesSize'] + pad8(f['NamesSize'])
        if self.version >= 10:
            for v in range(f['NumVTables']):
                self.words += [(pos + 24 * v, 8), (pos + 24 * v + 8, 8),
                               (pos + 24 * v + 16, 4)]
            size = 24 * f['NumVTables']
            pos += size + pad8(size) + f['VNamesSize'] + pad8(f['VNamesSize'])
        self.value_data = pos
        for r in range(f['NumData']):
            base = self.data_begin + r * self.record_size
            if not any(struct.unpack_from('<H', data, base + self.sites_at + 2 * k)[0]
                       for k in range(kinds)):
                continue
            total, nkinds = struct.unpack_from('<II', data, pos)
            self.words += [(pos, 4), (pos + 4, 4)]
            vr = pos + 8
            for _ in range(nkinds):
                nsites = struct.unpack_from('<I', data, vr + 4)[0]
                self.words += [(vr, 4), (vr + 4, 4)]
                nvalues = sum(data[vr + 8:vr + 8 + nsites])
                vr += 8 + nsites + pad8(8 + nsites)
                self.words += [(vr + 8 * i, 8) for i in range(2 * nvalues)]
                vr += 16 * nvalues
            pos += total
        self.end = pos


def swap(data):
    p = Profile(data)
    out = bytearray(data)
    fmt = {2: 'H', 4: 'I', 8: 'Q'}
    for off, width in p.words:
        v = struct.unpack_from('<' + fmt[width], data, off)[0]
        struct.pack_into('>' + fmt[width], out, off, v)
    return bytes(out)


def malformed(data, outdir):
    p = Profile(data)
    f = p.fields
    cases = {}
    # The file cut inside each header field.
    for name, off in p.field_offset.items():
        cases['cut-in-' + name] = data[:off + 3]
    cases['empty'] = b''
    cases['short-magic'] = data[:5]

    def with_field(name, value):
        out = bytearray(data)
        struct.pack_into('<Q', out, p.field_offset[name], value % (1 << 64))
        return bytes(out)

    cases['version-unknown'] = with_field(
        'Version', (p.variant << 32) | 99)
    cases['version-7'] = with_field('Version', (p.variant << 32) | 7)
    cases['data-past-end'] = with_field('NumData', f['NumData'] + 1000)
    cases['data-overflow'] = with_field('NumData', 1 << 62)
    cases['counters-past-end'] = with_field('NumCounters',
                                            f['NumCounters'] + 4096)
    cases['names-past-end'] = with_field('NamesSize', len(data))
    cases['padding-past-end'] = with_field('PaddingBytesBeforeCounters',
                                           (1 << 64) - 8)
    cases['binary-ids-unaligned'] = with_field('BinaryIdsSize',
                                               f['BinaryIdsSize'] + 4)
    cases['counters-delta'] = with_field('CountersDelta',
                                         f['CountersDelta'] + 0x10000)
    first = p.data_begin
    out = bytearray(data)
    struct.pack_into('<I', out, first + p.num_counters_at,
                     f['NumCounters'] + 1)
    cases['record-too-many-counters'] = bytes(out)
    out = bytearray(data)
    struct.pack_into('<I', out, first + p.num_counters_at, 0)
    cases['record-no-counters'] = bytes(out)
    out = bytearray(data)
    struct.pack_into('<Q', out, first + 16, 1 << 40)
    cases['record-counter-ptr'] = bytes(out)
    # The names: a compressed block with a broken stream, a block size
    # past the section, and an unterminated ULEB.
    out = bytearray(data)
    compressed = data[p.names + 1]
    if compressed:
        start = p.names + 2
        out[start + 2:start + 6] = b'\xff\xff\xff\xff'
        cases['names-bad-zlib'] = bytes(out)
        # A one-byte stream said to expand to 2,000,000 bytes; the rest of
        # the section is zero padding.
        out = bytearray(data)
        block = bytes([0x80, 0x89, 0x7a, 0x01, 0x78])
        out[p.names:p.names + f['NamesSize']] = (
            block + bytes(f['NamesSize'] - len(block)))
        cases['names-zlib-ratio'] = bytes(out)
    out = bytearray(data)
    out[p.names + 1] = 0
    out[p.names] = 0x7f
    cases['names-block-past-section'] = bytes(out)
    out = bytearray(data)
    for i in range(f['NamesSize']):
        out[p.names + i] = 0x80
    cases['names-uleb-unterminated'] = bytes(out)
    # Value data: cut, and a size past the end.
    if p.value_data < len(data):
        cases['value-data-cut'] = data[:p.value_data + 4]
        out = bytearray(data)
        struct.pack_into('<I', out, p.value_data, 0x10000)
        cases['value-data-size'] = bytes(out)
        out = bytearray(data)
        struct.pack_into('<I', out, p.value_data + 8, 7)
        cases['value-kind'] = bytes(out)
    cases['trailing-garbage'] = data + b'\x01' * 8
    os.makedirs(outdir, exist_ok=True)
    for name, content in cases.items():
        with open(os.path.join(outdir, name), 'wb') as out_file:
            out_file.write(content)


def to_v9(data):
    p = Profile(data)
    f = p.fields
    if p.version != 10 or f['NumVTables'] or f['VNamesSize']:
        sys.exit('profraw.py v9: needs a version 10 profile without vtables')
    out = bytearray()
    for name in HEADER[9]:
        value = f[name]
        if name == 'Version':
            value = (p.variant << 32) | 9
        elif name == 'ValueKindLast':
            value = 1
        out += struct.pack('<Q', value)
    out += data[p.header_size:p.data_begin]
    for r in range(f['NumData']):
        rec = data[p.data_begin + 64 * r:p.data_begin + 64 * (r + 1)]
        if struct.unpack_from('<H', rec, 56)[0]:
            sys.exit('profraw.py v9: a record has vtable sites')
        out += rec[:56] + rec[60:64] + bytes(4)
    out += data[p.data_begin + 64 * f['NumData']:]
    return bytes(out)


def main():
    cmd, src, dst = sys.argv[1:4]
    with open(src, 'rb') as f:
        data = f.read()
    if cmd == 'swap':
        with open(dst, 'wb') as f:
            f.write(swap(data))
    elif cmd == 'malformed':
        malformed(data, dst)
    elif cmd == 'v9':
        with open(dst, 'wb') as f:
            f.write(to_v9(data))
    else:
        sys.exit('profraw.py: unknown command ' + cmd)


if __name__ == '__main__':
    main()
