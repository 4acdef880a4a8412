"""elfinfo.py - the little of an ELF64 executable (x86-64 or arm64) the
exact-trace scripts need.

Reads a little-endian ELF64 file with `struct` only: its type, entry point,
PT_LOAD segments (to read code bytes at a virtual address and to know which
addresses are executable) and the STT_FUNC symbols of .symtab or .dynsym
(one without a size reaches the next one). Also locates LLVM tools through
`llvm-config-N --bindir`.
"""
import bisect
import os
import struct
import subprocess

PT_LOAD = 1
PF_X = 1
ET_DYN = 3
SHT_SYMTAB = 2
SHT_DYNSYM = 11
STT_FUNC = 2


class Elf:
    def __init__(self, path):
        self.path = path
        with open(path, 'rb') as f:
            self.data = f.read()
        d = self.data
        if d[:4] != b'\x7fELF' or d[4] != 2 or d[5] != 1:
            raise ValueError('%s: not a little-endian ELF64 file' % path)
        (self.type, _machine, _version, self.entry, phoff, shoff, _flags,
         _ehsize, phentsize, phnum, shentsize, shnum,
         _shstrndx) = struct.unpack_from('<HHIQQQIHHHHHH', d, 16)
        self.segments = []  # (vaddr, memsz, offset, filesz, flags)
        for i in range(phnum):
            (ptype, flags, offset, vaddr, _paddr, filesz, memsz,
             _align) = struct.unpack_from('<IIQQQQQQ', d, phoff + i * phentsize)
            if ptype == PT_LOAD:
                self.segments.append((vaddr, memsz, offset, filesz, flags))
        self.exec_ranges = sorted((v, v + m) for v, m, _, _, fl in
                                  self.segments if fl & PF_X)
        self._exec_starts = [r[0] for r in self.exec_ranges]
        self.functions = self._read_functions(shoff, shentsize, shnum)
        self._func_starts = [f[0] for f in self.functions]

    @property
    def is_pie(self):
        return self.type == ET_DYN

    def min_exec_vaddr(self):
        return self.exec_ranges[0][0] if self.exec_ranges else 0

    def in_exec(self, addr):
        """Whether ADDR (a file virtual address) lies in an executable
        PT_LOAD segment."""
        i = bisect.bisect_right(self._exec_starts, addr) - 1
        return i >= 0 and addr < self.exec_ranges[i][1]

    def exec_range_of(self, addr):
        i = bisect.bisect_right(self._exec_starts, addr) - 1
        if i >= 0 and addr < self.exec_ranges[i][1]:
            return i
        return None

    def read(self, addr, size):
        """Up to SIZE file bytes at virtual address ADDR (b'' if none)."""
        for vaddr, _memsz, offset, filesz, _flags in self.segments:
            if vaddr <= addr < vaddr + filesz:
                n = min(size, vaddr + filesz - addr)
                return self.data[offset + addr - vaddr:offset + addr - vaddr + n]
        return b''

    def function_of(self, addr):
        """(start, end, name) of the function symbol holding ADDR, or
        None."""
        i = bisect.bisect_right(self._func_starts, addr) - 1
        if i >= 0 and addr < self.functions[i][1]:
            return self.functions[i]
        return None

    def _read_functions(self, shoff, shentsize, shnum):
        d = self.data
        sections = []
        for i in range(shnum):
            (_name, stype, _flags, _addr, offset, size, link, _info, _align,
             entsize) = struct.unpack_from('<IIQQQQIIQQ', d, shoff + i * shentsize)
            sections.append((stype, offset, size, link, entsize))
        starts = {}  # value -> size (the largest of its symbols)
        for want in (SHT_SYMTAB, SHT_DYNSYM):
            for stype, offset, size, link, entsize in sections:
                if stype != want or not entsize:
                    continue
                str_off = sections[link][1]
                for j in range(size // entsize):
                    (name, info, _other, shndx, value,
                     ssize) = struct.unpack_from('<IBBHQQ', d, offset + j * entsize)
                    if info & 0xf != STT_FUNC or not shndx or not value:
                        continue
                    end = d.index(b'\0', str_off + name)
                    if ssize >= starts.get(value, (-1,))[0]:
                        starts[value] = (ssize, d[str_off + name:end].decode())
            if starts:
                break
        # A symbol without a size (such as _init) reaches the next symbol.
        values = sorted(starts)
        funcs = []
        for i, value in enumerate(values):
            size, name = starts[value]
            if not size:
                size = (values[i + 1] if i + 1 < len(values) else value + 1) - value
            funcs.append((value, value + size, name))
        return funcs


def is_rep_string(code):
    """Whether CODE starts with a rep/repe/repne-prefixed x86 string
    instruction (ins, outs, movs, cmps, stos, lods, scas)."""
    rep = False
    i = 0
    while i < len(code) and code[i] in (0xf2, 0xf3, 0x66, 0x67, 0xf0, 0x2e,
                                         0x36, 0x3e, 0x26, 0x64, 0x65):
        rep = rep or code[i] in (0xf2, 0xf3)
        i += 1
    if i < len(code) and code[i] & 0xf0 == 0x40:
        i += 1
    if not rep or i >= len(code):
        return False
    op = code[i]
    return 0x6c <= op <= 0x6f or 0xa4 <= op <= 0xa7 or 0xaa <= op <= 0xaf


def llvm_tool(name, llvm_config='llvm-config-22'):
    """Path of LLVM tool NAME in the bin directory LLVM_CONFIG reports."""
    bindir = subprocess.run([llvm_config, '--bindir'], check=True,
                            capture_output=True, text=True).stdout.strip()
    return os.path.join(bindir, name)


def read_triples(path):
    """(header dict, list of (run_start, source, target, count)) from a
    trace-plugin output file. The header's 'maps' are the '# map' lines,
    (lo, hi, offset, path) each. Raises ValueError on an '# error' line."""
    header, triples = {'maps': []}, []
    with open(path) as f:
        for line in f:
            if line.startswith('#'):
                words = line[1:].split()
                if words and words[0] == 'error:':
                    raise ValueError('%s: %s' % (path, line[1:].strip()))
                if len(words) == 2 and words[1].startswith('0x'):
                    header[words[0]] = int(words[1], 16)
                elif len(words) == 4 and words[0] == 'map':
                    lo, hi = (int(x, 16) for x in words[1].split('-'))
                    header['maps'].append((lo, hi, int(words[2], 16),
                                           words[3]))
                continue
            a, s, t, n = line.split()
            triples.append((int(a, 16), int(s, 16), int(t, 16), int(n)))
    return header, triples


def mapped_bias(elf, maps):
    """ELF's load bias from the trace's map lines of its file: the bias
    under which each PT_LOAD's first file byte lies in a mapping of the
    file at that byte's offset. None if the file was not mapped; an error
    if several biases fit (the file mapped twice)."""
    path = os.path.realpath(elf.path)
    own = [m for m in maps if m[3] == path]

    def maps_byte(address, offset):
        return any(lo <= address < hi and off + address - lo == offset
                   for lo, hi, off, _ in own)

    found = set()
    for vaddr, _memsz, offset, filesz, flags in elf.segments:
        if not flags & PF_X or not filesz:
            continue
        for lo, hi, off, _ in own:
            if off <= offset < off + hi - lo:
                bias = lo + offset - off - vaddr
                if all(maps_byte(bias + v, o) for v, _, o, fs, _ in
                       elf.segments if fs):
                    found.add(bias)
    if len(found) > 1:
        raise ValueError('%s is mapped at %d places in the trace; pass '
                         '--load-bias' % (elf.path, len(found)))
    return found.pop() if found else None


def trace_load_bias(elf, header, explicit=None):
    """The amount to subtract from trace addresses to get ELF virtual
    addresses: EXPLICIT if given, else where the trace's map lines place
    the file (a PIE or a shared library), else derived from the plugin's
    '# start_code' (QEMU's lowest executable segment address of the main
    executable) for a PIE, 0 for a fixed-address executable."""
    if explicit is not None:
        return explicit
    if not elf.is_pie:
        return 0
    bias = mapped_bias(elf, header.get('maps', []))
    if bias is not None:
        return bias
    if 'start_code' not in header:
        raise ValueError('PIE binary and no start_code in the trace; '
                         'pass --load-bias')
    return header['start_code'] - elf.min_exec_vaddr()
