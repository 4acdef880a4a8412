#!/usr/bin/env python3
"""make-malformed.py - regenerate test/dumper/Inputs/malformed, the
malformed-input corpus of test/dumper/malformed-corpus.test.

Builds real inputs with LLVM 22's llc, lld, llvm-objcopy and llvm-ar from
test/Inputs/calls.ll (a relocatable x86-64 object with RELA relocations, a
big-endian MIPS32 object with REL relocations, a shared object, a
zlib-compressed map, an archive), then writes one mutation per case into
the corpus directory: truncations, out-of-file offsets and sizes, flipped
version and feature bytes, a bumped count, bad links, broken relocation
sections, corrupt compression headers and archive headers. Every case must make
bbmap-dump fail with an error; the test checks the exact message.

Usage: make-malformed.py [OUT_DIR]   (default: test/dumper/Inputs/malformed)
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(
    os.path.abspath(__file__)), '..', '..'))
BIN = '/usr/lib/llvm-22/bin'
SHDR_FIELDS = ('name', 'type', 'flags', 'addr', 'offset', 'size', 'link',
               'info', 'addralign', 'entsize')


class Elf:
    """An ELF file's bytes with its section headers, patchable in place."""

    def __init__(self, data):
        self.data = bytearray(data)
        self.is64 = data[4] == 2
        self.e = '>' if data[5] == 2 else '<'
        if self.is64:
            self.shoff, = self.unpack('Q', 0x28)
            self.shentsize, self.shnum, self.shstrndx = \
                self.unpack('HHH', 0x3a)
            self.shdr = 'IIQQQQIIQQ'
        else:
            self.shoff, = self.unpack('I', 0x20)
            self.shentsize, self.shnum, self.shstrndx = \
                self.unpack('HHH', 0x2e)
            self.shdr = 'IIIIIIIIII'
        self.sections = [dict(zip(SHDR_FIELDS, self.unpack(
            self.shdr, self.shoff + i * self.shentsize)))
            for i in range(self.shnum)]
        strtab = self.sections[self.shstrndx]
        for s in self.sections:
            start = strtab['offset'] + s['name']
            s['name'] = bytes(self.data[start:self.data.index(0, start)]
                              ).decode()

    def unpack(self, fmt, off):
        return struct.unpack_from(self.e + fmt, self.data, off)

    def pack(self, fmt, off, *values):
        struct.pack_into(self.e + fmt, self.data, off, *values)

    def index(self, name):
        return [s['name'] for s in self.sections].index(name)

    def set_field(self, name, field, value):
        """Sets a section header field of the section called NAME."""
        k = SHDR_FIELDS.index(field)
        off = self.shoff + self.index(name) * self.shentsize + \
            struct.calcsize(self.e + self.shdr[:k])
        self.pack(self.shdr[k], off, value)

    def contents_offset(self, name):
        return self.sections[self.index(name)]['offset']


def build(work):
    calls = os.path.join(ROOT, 'test', 'Inputs', 'calls.ll')
    out = {}
    for name, triple in (('x86.o', 'x86_64'), ('mips.o', 'mips-linux-gnu')):
        out[name] = os.path.join(work, name)
        subprocess.check_call([BIN + '/llc', '-O2', '-mtriple=' + triple,
                               calls, '-basic-block-address-map',
                               '-filetype=obj', '-o', out[name]])
    out['x86.so'] = os.path.join(work, 'x86.so')
    subprocess.check_call([BIN + '/ld.lld', '-shared', out['x86.o'], '-o',
                           out['x86.so']])
    out['zlib.o'] = os.path.join(work, 'zlib.o')
    subprocess.check_call([BIN + '/llvm-objcopy',
                           '--compress-sections=.llvm_bb_addr_map=zlib',
                           out['x86.o'], out['zlib.o']])
    out['lib.a'] = os.path.join(work, 'lib.a')
    subprocess.check_call([BIN + '/llvm-ar', 'rcS', out['lib.a'],
                           out['x86.o']])
    return {k: open(v, 'rb').read() for k, v in out.items()}


def map_field_offset(elf, field):
    """Offset in the file of a field of the first record of the map."""
    base = elf.contents_offset('.llvm_bb_addr_map')
    version = elf.data[base]
    feature_size = 2 if version >= 5 else 1
    addr = 8 if elf.is64 else 4
    return base + {'version': 0, 'features': 1,
                   'num_blocks': 1 + feature_size + addr}[field]


def elf_cases(name, data):
    """Yields (case name, bytes) for the mutations of an ELF file."""
    def mutate(fn):
        elf = Elf(data)
        fn(elf)
        return bytes(elf.data)

    m = '.llvm_bb_addr_map'
    e = Elf(data)
    yield 'trunc-ehdr', data[:40]
    yield 'trunc-shdrs', data[:e.shoff + e.shentsize * 2 + 10]

    def shoff_past_eof(elf):
        elf.pack('Q' if elf.is64 else 'I', 0x28 if elf.is64 else 0x20,
                 len(data) + 0x100)
    yield 'shoff-past-eof', mutate(shoff_past_eof)
    yield 'map-offset-past-eof', mutate(
        lambda elf: elf.set_field(m, 'offset', len(data) + 0x10))
    yield 'map-size-past-eof', mutate(
        lambda elf: elf.set_field(m, 'size', 0x10000))
    yield 'map-cut', mutate(lambda elf: elf.set_field(
        m, 'size', elf.sections[elf.index(m)]['size'] - 3))

    def set_byte(field, value):
        def fn(elf):
            elf.data[map_field_offset(elf, field)] = value
        return fn
    yield 'version-9', mutate(set_byte('version', 9))
    # Bit 8 of the u16 feature field of version 5: no version defines it.
    if e.data[map_field_offset(e, 'version')] >= 5:
        hi = map_field_offset(e, 'features') + (1 if e.e == '<' else 0)
        yield 'feature-unknown', mutate(
            lambda elf: elf.data.__setitem__(hi, 0x01))
    yield 'block-count', mutate(set_byte('num_blocks', 0x7f))
    if not name.endswith('.o'):
        return
    yield 'map-link', mutate(lambda elf: elf.set_field(m, 'link', 0x999))
    rel = [s['name'] for s in e.sections
           if s['name'] in ('.rela' + m, '.rel' + m)][0]
    entsize = e.sections[e.index(rel)]['entsize']
    yield 'reloc-entsize', mutate(
        lambda elf: elf.set_field(rel, 'entsize', 7))
    yield 'reloc-size-past-eof', mutate(
        lambda elf: elf.set_field(rel, 'size', entsize * 0x10000))
    yield 'reloc-info', mutate(
        lambda elf: elf.set_field(rel, 'info', elf.index('.text')))

    def reloc_offset(elf):
        first = elf.contents_offset(rel)
        fmt = 'Q' if elf.is64 else 'I'
        r_offset, = elf.unpack(fmt, first)
        elf.pack(fmt, first, r_offset + 1)
    yield 'reloc-offset', mutate(reloc_offset)


def zlib_cases(data):
    """Mutations of the Elf64_Chdr (ch_type u32, ch_reserved u32, ch_size
    u64, ch_addralign u64) and the zlib stream after it."""
    m = '.llvm_bb_addr_map'
    chdr = Elf(data).contents_offset(m)

    def mutate(fn):
        elf = Elf(data)
        fn(elf)
        return bytes(elf.data)
    yield 'ch-type', mutate(lambda elf: elf.pack('I', chdr, 7))
    yield 'ch-size-huge', mutate(lambda elf: elf.pack('Q', chdr + 8, 1 << 44))
    yield 'ch-size-short', mutate(lambda elf: elf.pack('Q', chdr + 8, 4))
    yield 'ch-header-cut', mutate(lambda elf: elf.set_field(m, 'size', 20))
    yield 'ch-stream', mutate(
        lambda elf: elf.data.__setitem__(slice(chdr + 26, chdr + 30),
                                         b'\xff\xff\xff\xff'))


def archive_cases(data, member):
    """Mutations of an archive whose only member (no symbol table) is
    MEMBER: its 60-byte header follows the 8-byte magic."""
    hdr = 8
    size = int(data[hdr + 48:hdr + 58])
    assert data[hdr + 60:hdr + 60 + size] == member
    yield 'member-size', data[:hdr + 48] + \
        b'%-10d' % (size + 4096) + data[hdr + 58:]
    yield 'member-fmag', data[:hdr + 58] + b'XX' + data[hdr + 60:]
    yield 'truncated', data[:hdr + 60 + size // 2]
    cut = member[:40]
    yield 'member-elf-cut', data[:hdr + 48] + b'%-10d' % len(cut) + \
        data[hdr + 58:hdr + 60] + cut


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        ROOT, 'test', 'dumper', 'Inputs', 'malformed')
    work = tempfile.mkdtemp()
    try:
        inputs = build(work)
    finally:
        shutil.rmtree(work)
    cases = []
    for name in ('x86.o', 'mips.o', 'x86.so'):
        stem = name.replace('.', '-')
        cases += [('%s-%s' % (stem, c), d)
                  for c, d in elf_cases(name, inputs[name])]
    cases += [('zlib-o-' + c, d) for c, d in zlib_cases(inputs['zlib.o'])]
    cases += [('lib-a-' + c, d)
              for c, d in archive_cases(inputs['lib.a'], inputs['x86.o'])]
    for name, data in cases:
        with open(os.path.join(out, name), 'wb') as f:
            f.write(data)
    print('make-malformed.py: %d cases in %s' % (len(cases), out))


if __name__ == '__main__':
    main()
