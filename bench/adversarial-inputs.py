#!/usr/bin/env python3
"""adversarial-inputs.py - write adversarial inputs for bench/adversarial.sh.

Usage: adversarial-inputs.py CASE SIZE_BYTES OUT

Each CASE makes an ELF64 little-endian executable (or an archive of
objects) of about SIZE_BYTES whose bulk is one shape of hostile
.llvm_bb_addr_map data:
  records     one section of minimal records (version 2, no blocks)
  blocks      one function with as many 4-byte blocks as fit
  long-uleb   one block whose offset is a zero ULEB128 padded to the size
  sections    one small map section per ~80 bytes (extended numbering)
  huge-counts as many sections, each claiming 0xffffffff blocks it lacks
  members     an archive of tiny objects, one map section each
"""
import struct
import sys

SHT_PROGBITS, SHT_STRTAB, SHT_BB_ADDR_MAP = 1, 3, 0x6fff4c0a
SHN_XINDEX, SHN_LORESERVE = 0xffff, 0xff00


def record(addr, blocks=b'', count=0):
    return bytes([2, 0]) + struct.pack('<Q', addr) + uleb(count) + blocks


def uleb(v):
    out = bytearray()
    while True:
        b = v & 0x7f
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def elf(payloads, etype=2):
    """An ELF64 LE x86-64 file: .text, one map section per payload,
    .shstrtab; extended section numbering when needed."""
    names = bytearray(b'\0.text\0.shstrtab\0.llvm_bb_addr_map\0')
    text_name, shstr_name, map_name = 1, 7, 17
    body = bytearray(b'\xc3' * 16)
    offsets = []
    for p in payloads:
        offsets.append(64 + len(body))
        body += p
    shoff = (64 + len(body) + len(names) + 7) & ~7
    n = 3 + len(payloads)
    shstrndx = n - 1
    hdrs = [struct.pack('<IIQQQQIIQQ', 0, 0, 0, 0, 0,
                        n if n >= SHN_LORESERVE else 0, shstrndx
                        if shstrndx >= SHN_LORESERVE else 0, 0, 0, 0)]
    hdrs.append(struct.pack('<IIQQQQIIQQ', text_name, SHT_PROGBITS, 6,
                            0x1000, 64, 16, 0, 0, 16, 0))
    for off, p in zip(offsets, payloads):
        hdrs.append(struct.pack('<IIQQQQIIQQ', map_name, SHT_BB_ADDR_MAP, 0,
                                0, off, len(p), 1, 0, 1, 0))
    names_off = 64 + len(body)
    hdrs.append(struct.pack('<IIQQQQIIQQ', shstr_name, SHT_STRTAB, 0, 0,
                            names_off, len(names), 0, 0, 1, 0))
    ehdr = b'\x7fELF\x02\x01\x01' + b'\0' * 9 + struct.pack(
        '<HHIQQQIHHHHHH', etype, 62, 1, 0x1000, 0, shoff, 0, 64, 0, 0, 64,
        0 if n >= SHN_LORESERVE else n,
        SHN_XINDEX if shstrndx >= SHN_LORESERVE else shstrndx)
    data = ehdr + body + names
    data += b'\0' * (shoff - len(data))
    return data + b''.join(hdrs)


def archive(members):
    out = bytearray(b'!<arch>\n')
    for i, m in enumerate(members):
        name = ('m%d.o/' % i).encode()
        out += b'%-16s%-12d%-6d%-6d%-8s%-10d`\n' % (name, 0, 0, 0, b'644',
                                                    len(m))
        out += m
        if len(out) % 2:
            out += b'\n'
    return bytes(out)


def make(case, size):
    if case == 'records':
        n = size // 11
        return elf([b''.join(record(0x1000 + i) for i in range(n))])
    if case == 'blocks':
        n = size // 4
        blocks = bytes([0, 0, 1, 0]) * n  # ID 0, offset 0, size 1, no flags
        return elf([record(0x1000, blocks, n)])
    if case == 'long-uleb':
        pad = b'\x80' * size + b'\x00'
        return elf([record(0x1000, b'\x00' + pad + b'\x01\x00', 1)])
    if case == 'sections':
        return elf([record(0x1000, b'\x00\x00\x01\x00', 1)] * (size // 80))
    if case == 'huge-counts':
        return elf([record(0x1000, b'', 0xffffffff)] * (size // 80))
    if case == 'members':
        obj = elf([record(0x1000, b'\x00\x00\x01\x00', 1)], etype=2)
        return archive([obj] * (size // (len(obj) + 60)))
    sys.exit('unknown case ' + case)


def main():
    case, size, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    with open(out, 'wb') as f:
        f.write(make(case, size))


if __name__ == '__main__':
    main()
