#!/usr/bin/env python3
# extract-maps.py - seed inputs for fuzz-bb-addr-map from ELF files.
#
# For every .llvm_bb_addr_map section (versioned or legacy type, not
# compressed) of each ELF file given, writes one file to OUT_DIR: the option
# byte fuzz-bb-addr-map.cpp reads (bit 0 big endian, bit 1 ELF32, bit 2
# legacy type) followed by the section's bytes. Identical seeds are written
# once. Usage: extract-maps.py OUT_DIR FILE...
import hashlib
import os
import struct
import sys

SHT_BB_ADDR_MAP = 0x6fff4c0a
SHT_BB_ADDR_MAP_V0 = 0x6fff4c08
SHF_COMPRESSED = 0x800


def map_sections(data):
    """Yields (option byte, payload) for each map section of an ELF file."""
    if data[:4] != b'\x7fELF':
        return
    is64 = data[4] == 2
    big = data[5] == 2
    e = '>' if big else '<'
    if is64:
        shoff, = struct.unpack_from(e + 'Q', data, 0x28)
        shentsize, shnum = struct.unpack_from(e + 'HH', data, 0x3a)
        shdr = e + 'IIQQQQ'
    else:
        shoff, = struct.unpack_from(e + 'I', data, 0x20)
        shentsize, shnum = struct.unpack_from(e + 'HH', data, 0x2e)
        shdr = e + 'IIIIII'
    for i in range(shnum):
        _, typ, flags, _, off, size = struct.unpack_from(
            shdr, data, shoff + i * shentsize)
        if typ not in (SHT_BB_ADDR_MAP, SHT_BB_ADDR_MAP_V0):
            continue
        if flags & SHF_COMPRESSED:
            continue
        opt = (1 if big else 0) | (0 if is64 else 2) | \
            (4 if typ == SHT_BB_ADDR_MAP_V0 else 0)
        yield opt, data[off:off + size]


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for path in sys.argv[2:]:
        with open(path, 'rb') as f:
            data = f.read()
        for opt, payload in map_sections(data):
            seed = bytes([opt]) + payload
            name = hashlib.sha1(seed).hexdigest()
            with open(os.path.join(out, name), 'wb') as f:
                f.write(seed)


if __name__ == '__main__':
    main()
