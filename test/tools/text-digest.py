#!/usr/bin/env python3
"""text-digest.py - print the code of an ELF file in comparable form.

For every SHF_EXECINSTR section: its name, size and SHA-256, then every
relocation that applies to it (offset, type, symbol, addend). Two objects
whose digests are equal have the same code bytes and the same relocations,
whatever labels or non-code sections differ. Relocations against local
labels and sections are shown as section+offset.

With --maps, the same for every basic-block address map section
(SHT_LLVM_BB_ADDR_MAP and the V0 type) instead, named by the code section
it links to, with its flags and all its bytes: two objects whose map
digests are equal have byte-equal maps, whatever the order of sections.
"""
import hashlib
import struct
import sys

SHF_EXECINSTR = 0x4
SHT_SYMTAB, SHT_RELA, SHT_REL = 2, 4, 9
SHT_LLVM_BB_ADDR_MAP_V0, SHT_LLVM_BB_ADDR_MAP = 0x6fff4c08, 0x6fff4c0a
EM_MIPS = 8


class Elf:
    def __init__(self, data):
        if data[:4] != b'\x7fELF':
            raise ValueError('not an ELF file')
        self.data = data
        self.is64 = data[4] == 2
        self.end = '<' if data[5] == 1 else '>'
        self.machine, = self.unpack('H', 0x12)
        if self.is64:
            shoff, = self.unpack('Q', 0x28)
            shentsize, shnum, shstrndx = self.unpack('HHH', 0x3a)
        else:
            shoff, = self.unpack('I', 0x20)
            shentsize, shnum, shstrndx = self.unpack('HHH', 0x2e)
        self.sections = [self.section(shoff + i * shentsize)
                         for i in range(shnum)]
        names = self.sections[shstrndx]
        for s in self.sections:
            s['name'] = self.cstr(names['offset'] + s['name_off'])

    def unpack(self, fmt, off):
        return struct.unpack_from(self.end + fmt, self.data, off)

    def cstr(self, off):
        return self.data[off:self.data.index(b'\0', off)].decode()

    def section(self, off):
        if self.is64:
            f = self.unpack('IIQQQQIIQQ', off)
        else:
            f = self.unpack('IIIIIIIIII', off)
        keys = ('name_off', 'type', 'flags', 'addr', 'offset', 'size',
                'link', 'info', 'align', 'entsize')
        return dict(zip(keys, f))

    def content(self, s):
        return self.data[s['offset']:s['offset'] + s['size']]

    def symbols(self, symtab):
        strtab = self.sections[symtab['link']]
        size = 24 if self.is64 else 16
        out = []
        for off in range(symtab['offset'], symtab['offset'] + symtab['size'],
                         size):
            if self.is64:
                name, info, _, shndx, value, _ = self.unpack('IBBHQQ', off)
            else:
                name, value, _, info, _, shndx = self.unpack('IIIBBH', off)
            local_def = info >> 4 == 0 and 0 < shndx < len(self.sections)
            if local_def and info & 0xf in (0, 3):  # STT_NOTYPE, STT_SECTION
                # A local label or section: name what it resolves to, since
                # which local label an assembler picks is not code.
                out.append('[section %s]+0x%x' %
                           (self.sections[shndx]['name'], value))
            else:
                out.append(self.cstr(strtab['offset'] + name))
        return out

    def relocations(self, rel):
        syms = self.symbols(self.sections[rel['link']])
        rela = rel['type'] == SHT_RELA
        fmt = ('QQq' if rela else 'QQ') if self.is64 else \
              ('IIi' if rela else 'II')
        step = struct.calcsize(self.end + fmt)
        for off in range(rel['offset'], rel['offset'] + rel['size'], step):
            f = self.unpack(fmt, off)
            sym, typ = (f[1] >> 32, f[1] & 0xffffffff) if self.is64 else \
                       (f[1] >> 8, f[1] & 0xff)
            if self.is64 and self.machine == EM_MIPS and self.end == '<':
                # MIPS64 stores r_sym first, then four type bytes.
                sym, typ = f[1] & 0xffffffff, f[1] >> 32
            yield f[0], typ, syms[sym] if sym < len(syms) else sym, \
                f[2] if rela else 0


def relocation_lines(elf, i):
    lines = []
    for r in elf.sections:
        if r['type'] in (SHT_RELA, SHT_REL) and r['info'] == i:
            for off, typ, sym, add in elf.relocations(r):
                lines.append('  reloc 0x%x type %d %s %+d' %
                             (off, typ, sym, add))
    return lines


def code_digest(elf):
    lines = []
    for i, s in enumerate(elf.sections):
        if not s['flags'] & SHF_EXECINSTR:
            continue
        lines.append('section %s size %d sha256 %s' % (
            s['name'], s['size'], hashlib.sha256(elf.content(s)).hexdigest()))
        lines += relocation_lines(elf, i)
    return lines


def map_digest(elf):
    """Map sections by the code section they link to (then in file order):
    the assembler orders sections by when they were first asked for."""
    maps = []
    for i, s in enumerate(elf.sections):
        if s['type'] not in (SHT_LLVM_BB_ADDR_MAP, SHT_LLVM_BB_ADDR_MAP_V0):
            continue
        text = elf.sections[s['link']]['name'] if s['link'] else '-'
        maps.append([text, 'map %s type 0x%x flags 0x%x linked to %s' % (
            s['name'], s['type'], s['flags'], text),
            '  bytes ' + elf.content(s).hex()] + relocation_lines(elf, i))
    maps.sort(key=lambda m: m[0])
    return [line for m in maps for line in m[1:]]


def digest(path, maps=False):
    with open(path, 'rb') as fh:
        elf = Elf(fh.read())
    return map_digest(elf) if maps else code_digest(elf)


def main():
    args = sys.argv[1:]
    maps = args[:1] == ['--maps']
    if maps:
        args = args[1:]
    if len(args) != 1:
        print('usage: text-digest.py [--maps] FILE', file=sys.stderr)
        return 2
    try:
        print('\n'.join(digest(args[0], maps)))
    except (OSError, ValueError, struct.error) as e:
        print('text-digest: error: %s: %s' % (args[0], e), file=sys.stderr)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main())
