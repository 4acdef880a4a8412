#!/usr/bin/env python3
"""profdata.py - rewrite indexed instrumentation profiles for the lit tests.

Usage:
  profdata.py version N IN OUT   IN laid out again as indexed version N
  profdata.py malformed IN DIR   one broken copy of IN per case, in DIR
  profdata.py vtable-names plain|zlib IN OUT NAME...
                                 IN with NAME... as its vtable names

IN is an indexed profile (.profdata) of version 7 or later, as
llvm-profdata 14, 19 and 22 write it. `version` parses its header,
summaries, hash table, binary IDs, vtable names and temporal traces and
writes them again in the layout of version N (1 to 13), keeping the
entries' order (the same bucket count): what version N cannot hold is
dropped, as LLVM's history defines it (the counter count before version 2,
value data before 3 and all records of a name but the first in version 1,
the summaries before 4, the memory profile always, since its tables hold
absolute offsets; binary IDs before 9, temporal traces before 10, bitmap
bytes before 11, vtable names before 12). `malformed` writes the cases
test/instrprof/indexed-malformed.test checks: the file cut inside each
header field, an unknown version and hash type, section and hash table
offsets out of bounds, bucket offsets outside the payload or into an
entry or shared by two buckets, entries in the wrong bucket, keys and records past the payload,
counts past their record, bad value data, and the sections of later
versions (binary IDs, vtable names, temporal traces, memory profile) past
the end of the file, a memory profile with no room before the next
section. `vtable-names` replaces the vtable names section
(version 12+, the last section of a profile without temporal traces:
llvm-profdata 19 and 22 write it empty) by one block of the names, plain
or zlib-compressed, as InstrProfWriter would write them.
"""
import os
import struct
import sys
import zlib

FIELDS = [('Magic', 1), ('Version', 1), ('Unused', 1), ('HashType', 1),
          ('HashOffset', 1), ('MemProfOffset', 8), ('BinaryIdOffset', 9),
          ('TemporalProfTracesOffset', 10), ('VTableNamesOffset', 12)]
CS_FLAG = 1 << 57
MEMPROF_FLAG = 1 << 62
TEMPORAL_FLAG = 1 << 63


def u64(data, off):
    return struct.unpack_from('<Q', data, off)[0]


def pad8(n):
    return (8 - n % 8) % 8


class Profile:
    """An indexed profile taken apart: header fields and their offsets,
    summaries, hash table entries (name, hash, records, offsets), the
    sections of later versions as byte strings."""

    def __init__(self, data):
        self.data = data
        self.word = u64(data, 8)
        self.version = self.word & 0xffffffff
        self.fields, self.field_offset = {}, {}
        off = 0
        for name, since in FIELDS:
            if since > self.version:
                break
            self.fields[name] = u64(data, off)
            self.field_offset[name] = off
            off += 8
        self.header_size = off
        self.summaries = []
        if self.version >= 4:
            for _ in range(2 if self.word & CS_FLAG else 1):
                size = 16 + 8 * u64(data, off) + 24 * u64(data, off + 8)
                self.summaries.append((off, data[off:off + size]))
                off += size
        self.payload = off
        hash_off = self.fields['HashOffset']
        self.num_buckets, num_entries = u64(data, hash_off), \
            u64(data, hash_off + 8)
        self.buckets = hash_off + 16
        self.bucket_starts, self.entries = [], []
        pos = off
        while len(self.entries) < num_entries:
            self.bucket_starts.append(pos)
            count = struct.unpack_from('<H', data, pos)[0]
            pos += 2
            for _ in range(count):
                h, klen, dlen = struct.unpack_from('<QQQ', data, pos)
                entry = {'offset': pos, 'hash': h, 'data': pos + 24 + klen,
                         'name': data[pos + 24:pos + 24 + klen]}
                pos += 24 + klen
                entry['records'] = self.records(data[pos:pos + dlen], pos)
                pos += dlen
                self.entries.append(entry)
        self.payload_end = pos
        self.sections = {}
        flags = self.word
        if self.version >= 9:
            self.sections['binary IDs'] = self.section(
                'BinaryIdOffset', 8 + u64(data, self.fields['BinaryIdOffset']))
        if self.version >= 12:
            at = self.fields['VTableNamesOffset']
            size = u64(data, at)
            self.sections['vtable names'] = self.section(
                'VTableNamesOffset', 8 + size + pad8(size))
        if self.version >= 10 and flags & TEMPORAL_FLAG:
            at = self.fields['TemporalProfTracesOffset']
            end = at + 16
            for _ in range(u64(data, at)):
                end += 16 + 8 * u64(data, end + 8)
            self.sections['temporal'] = self.section(
                'TemporalProfTracesOffset', end - at)

    def section(self, field, size):
        at = self.fields[field]
        return at, self.data[at:at + size]

    def records(self, blob, base):
        """The records of one entry: hash, counters, bitmap bytes, value
        data (as stored) and where each part is."""
        recs, pos = [], 0
        while pos < len(blob):
            rec = {'offset': base + pos, 'hash': u64(blob, pos)}
            pos += 8
            if self.version >= 2:
                n = u64(blob, pos)
                rec['count_at'] = base + pos
                pos += 8
            else:
                n = (len(blob) - pos) // 8
            rec['counts'] = [u64(blob, pos + 8 * i) for i in range(n)]
            pos += 8 * n
            rec['bitmap'] = []
            if self.version >= 11:
                n = u64(blob, pos)
                pos += 8
                rec['bitmap'] = [u64(blob, pos + 8 * i) for i in range(n)]
                pos += 8 * n
            rec['values'] = struct.pack('<II', 8, 0)
            if self.version >= 3:
                size = struct.unpack_from('<I', blob, pos)[0]
                rec['values_at'] = base + pos
                rec['values'] = blob[pos:pos + size]
                pos += size
            recs.append(rec)
        return recs


def encode_records(records, version):
    out = b''
    for rec in records[:1] if version == 1 else records:
        out += struct.pack('<Q', rec['hash'])
        if version >= 2:
            out += struct.pack('<Q', len(rec['counts']))
        out += struct.pack('<%dQ' % len(rec['counts']), *rec['counts'])
        if version >= 11:
            out += struct.pack('<Q', len(rec['bitmap']))
            out += struct.pack('<%dQ' % len(rec['bitmap']), *rec['bitmap'])
        if version >= 3:
            out += rec['values']
    return out


def relayout(p, version):
    """p written again as indexed version `version`."""
    word = (p.word & ~0xffffffff & ~MEMPROF_FLAG) | version
    if version < 10:
        word &= ~TEMPORAL_FLAG
    names = [name for name, since in FIELDS if since <= version]
    out = bytearray(8 * len(names))
    if version >= 4:
        for _, blob in p.summaries:
            out += blob
    # The entries, bucket by bucket, in the bucket count of the input.
    mask = p.num_buckets - 1
    by_bucket = {}
    for e in p.entries:
        by_bucket.setdefault(e['hash'] & mask, []).append(e)
    slots = [0] * p.num_buckets
    for b in sorted(by_bucket):
        slots[b] = len(out)
        out += struct.pack('<H', len(by_bucket[b]))
        for e in by_bucket[b]:
            data = encode_records(e['records'], version)
            out += struct.pack('<QQQ', e['hash'], len(e['name']), len(data))
            out += e['name'] + data
    out += bytes(pad8(len(out)))
    fields = {'Magic': p.fields['Magic'], 'Version': word,
              'Unused': 0, 'HashType': p.fields['HashType'],
              'HashOffset': len(out)}
    out += struct.pack('<QQ', p.num_buckets, len(p.entries))
    out += struct.pack('<%dQ' % len(slots), *slots)
    fields['MemProfOffset'] = 0
    if version >= 9:
        fields['BinaryIdOffset'] = len(out)
        out += p.sections.get('binary IDs', (0, bytes(8)))[1]
    if version >= 12:
        fields['VTableNamesOffset'] = len(out)
        out += p.sections.get('vtable names', (0, bytes(8)))[1]
    fields['TemporalProfTracesOffset'] = 0
    if version >= 10 and word & TEMPORAL_FLAG:
        fields['TemporalProfTracesOffset'] = len(out)
        out += p.sections['temporal'][1]
    for i, name in enumerate(names):
        struct.pack_into('<Q', out, 8 * i, fields[name])
    return bytes(out)


def malformed(p):
    """(name, bytes) of each broken copy of p."""
    data = p.data
    size = len(data)

    def put(off, value, fmt='<Q'):
        b = bytearray(data)
        struct.pack_into(fmt, b, off, value)
        return bytes(b)

    def field(name, value):
        return put(p.field_offset[name], value)

    cases = [('empty', b'')]
    for name, off in p.field_offset.items():
        cases.append(('cut-in-' + name, data[:off + 3]))
    cases += [
        ('version-14', field('Version', (p.word & ~0xffffffff) | 14)),
        ('version-0', field('Version', p.word & ~0xffffffff)),
        ('hash-type-1', field('HashType', 1)),
        ('hash-offset-past-end', field('HashOffset', size + 8)),
        ('hash-offset-in-summary', field('HashOffset', 8)),
        ('buckets-cut', data[:p.buckets + 4]),
        ('buckets-not-power-of-two', put(p.buckets - 16, 3)),
        ('buckets-past-end', put(p.buckets - 16, 1 << 40)),
        ('entries-too-many', put(p.buckets - 8, 1 << 40)),
        ('summary-too-large', put(p.summaries[0][0], 1 << 40)),
        ('bucket-empty', put(p.bucket_starts[0], 0, '<H')),
    ]
    slots = [u64(data, p.buckets + 8 * i) for i in range(p.num_buckets)]
    used = [i for i, s in enumerate(slots) if s]
    first = used[0]
    cases += [
        ('bucket-offset-past-payload', put(p.buckets + 8 * first, size)),
        ('bucket-offset-into-entry',
         put(p.buckets + 8 * first, slots[first] + 2)),
    ]
    if len(used) > 1:
        cases.append(('bucket-shared',
                      put(p.buckets + 8 * used[1], slots[first])))
    empty = [i for i, s in enumerate(slots) if not s]
    if empty:
        moved = bytearray(put(p.buckets + 8 * empty[0], slots[first]))
        struct.pack_into('<Q', moved, p.buckets + 8 * first, 0)
        cases.append(('bucket-wrong-slot', bytes(moved)))
    e = p.entries[0]
    rec = e['records'][0]
    cases += [
        ('entry-hash', put(e['offset'], e['hash'] ^ 1)),
        ('key-past-payload', put(e['offset'] + 8, 1 << 32)),
        ('records-past-payload', put(e['offset'] + 16, 1 << 32)),
        ('records-unaligned', put(e['offset'] + 16,
                                  u64(data, e['offset'] + 16) + 4)),
        ('records-none', put(e['offset'] + 16, 0)),
        ('counts-past-record', put(rec['count_at'], 1 << 20)),
        ('value-data-past-record', put(rec['values_at'], 1 << 20, '<I')),
        ('value-data-size-unaligned', put(rec['values_at'], 12, '<I')),
        ('value-kinds-too-many', put(rec['values_at'] + 4, 9, '<I')),
    ]
    with_values = [r for x in p.entries for r in x['records']
                   if len(r['values']) > 8]
    if with_values:
        at = with_values[0]['values_at']
        cases += [('value-kind-unknown', put(at + 8, 7, '<I')),
                  ('value-sites-past-data', put(at + 12, 1 << 16, '<I'))]
    if p.version >= 9:
        cases += [('binary-ids-past-end', field('BinaryIdOffset', size)),
                  ('binary-ids-before-payload', field('BinaryIdOffset', 0)),
                  ('binary-ids-size-past-end',
                   put(p.fields['BinaryIdOffset'], 1 << 20)),
                  ('binary-ids-size-unaligned',
                   put(p.fields['BinaryIdOffset'], 12))]
        if u64(data, p.fields['BinaryIdOffset']):
            cases.append(('binary-id-length-past-section',
                          put(p.fields['BinaryIdOffset'] + 8, 1 << 20)))
    if p.version >= 12:
        cases += [('vtable-names-past-end',
                   field('VTableNamesOffset', size - 4)),
                  ('vtable-names-size-past-end',
                   put(p.fields['VTableNamesOffset'], 1 << 20))]
    if 'temporal' in p.sections:
        at = p.fields['TemporalProfTracesOffset']
        cases += [('traces-past-end',
                   field('TemporalProfTracesOffset', size - 8)),
                  ('traces-too-many', put(at, 1 << 40)),
                  ('trace-functions-past-end', put(at + 24, 1 << 40))]
    if p.version >= 8 and p.word & MEMPROF_FLAG:
        at = p.fields['MemProfOffset']
        cases += [('memprof-past-end', field('MemProfOffset', size)),
                  ('memprof-version-9', put(at, 9)),
                  ('memprof-table-outside', put(at + 8, size + 64)),
                  ('memprof-cut-by-binary-ids',
                   field('BinaryIdOffset', at + 4))]
    return cases


def uleb(n):
    out = b''
    while True:
        byte, n = n & 0x7f, n >> 7
        out += bytes([byte | (0x80 if n else 0)])
        if not n:
            return out


def with_vtable_names(p, compress, names):
    """p with `names` as its vtable names section."""
    at = p.fields['VTableNamesOffset']
    if at + len(p.sections['vtable names'][1]) != len(p.data):
        sys.exit('profdata.py: the vtable names are not the last section')
    text = b'\x01'.join(n.encode() for n in names)
    if compress:
        packed = zlib.compress(text)
        block = uleb(len(text)) + uleb(len(packed)) + packed
    else:
        block = uleb(len(text)) + uleb(0) + text
    return (p.data[:at] + struct.pack('<Q', len(block)) + block +
            bytes(pad8(len(block))))


def main():
    if len(sys.argv) >= 6 and sys.argv[1] == 'vtable-names':
        with open(sys.argv[3], 'rb') as f:
            p = Profile(f.read())
        with open(sys.argv[4], 'wb') as f:
            f.write(with_vtable_names(p, sys.argv[2] == 'zlib', sys.argv[5:]))
        return
    if sys.argv[1:2] == ['version'] and len(sys.argv) == 5:
        with open(sys.argv[3], 'rb') as f:
            p = Profile(f.read())
        with open(sys.argv[4], 'wb') as f:
            f.write(relayout(p, int(sys.argv[2])))
        return
    if sys.argv[1:2] != ['malformed'] or len(sys.argv) != 4:
        sys.exit(__doc__)
    with open(sys.argv[2], 'rb') as f:
        p = Profile(f.read())
    os.makedirs(sys.argv[3], exist_ok=True)
    for name, data in malformed(p):
        with open(os.path.join(sys.argv[3], name), 'wb') as f:
            f.write(data)


if __name__ == '__main__':
    main()
