#!/usr/bin/env python3
"""text-digest.py - print the code of an ELF file in comparable form.

For every SHF_EXECINSTR section: its name, size and SHA-256, then every
relocation that applies to it (offset, type, symbol, addend). Two objects
whose digests are equal have the same code bytes and the same relocations,
whatever labels or non-code sections differ. Relocations against local
labels and sections are shown as section+offset.
"""
import hashlib
import struct
import sys

SHF_EXECINSTR = 0x4
SHT_SYMTAB, SHT_RELA, SHT_REL = 2, 4, 9


class Elf:
    def __init__(self, data):
        if data[:4] != b'\x7fELF':
            raise ValueError('not an ELF file')
        self.data = data
        self.is64 = data[4] == 2
        self.end = '<' if data[5] == 1 else '>'
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
            yield f[0], typ, syms[sym] if sym < len(syms) else sym, \
                f[2] if rela else 0


def digest(path):
    with open(path, 'rb') as fh:
        elf = Elf(fh.read())
    lines = []
    for i, s in enumerate(elf.sections):
        if not s['flags'] & SHF_EXECINSTR:
            continue
        lines.append('section %s size %d sha256 %s' % (
            s['name'], s['size'], hashlib.sha256(elf.content(s)).hexdigest()))
        for r in elf.sections:
            if r['type'] in (SHT_RELA, SHT_REL) and r['info'] == i:
                for off, typ, sym, add in elf.relocations(r):
                    lines.append('  reloc 0x%x type %d %s %+d' %
                                 (off, typ, sym, add))
    return lines


def main():
    if len(sys.argv) != 2:
        print('usage: text-digest.py FILE', file=sys.stderr)
        return 2
    try:
        print('\n'.join(digest(sys.argv[1])))
    except (OSError, ValueError, struct.error) as e:
        print('text-digest: error: %s: %s' % (sys.argv[1], e), file=sys.stderr)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main())
