#!/usr/bin/env python3
"""reserved-block-ids.py - a linked x86-64 program (a yaml2obj document)
whose map gives blocks the IDs llvm::DenseMap reserves as uint32_t keys,
and profiles of it.

Usage: reserved-block-ids.py ID1 ID2 OUT_DIR
Writes OUT_DIR/prog.yaml and OUT_DIR/{branches,samples}.pa. `f` has 64
blocks: block 0 (ID 0) tests its argument and jumps to block 63, blocks 1
to 61 (IDs ID1, ID2, 3, ..., 61) are a nop each and fall through, blocks 62
and 63 return; `main` calls `f`. The map has PGO analyses whose successor
lists name the blocks by ID. The blocks with IDs ID1 and ID2 come before 61
others, so that a hash table of a function's IDs grows after holding them.
branches.pa is the exact trace of 20 calls, 15 taking the jump;
samples.pa one IP sample per instruction run.
"""
import sys

NOPS = 61


def block_ids(id1, id2):
    return [0, id1, id2] + list(range(3, 64))


def program(id1, id2):
    ids = block_ids(id1, id2)
    # test %edi,%edi; je block 63 (at 0x401042: 0x3e after the je).
    code = '85ff743e' + '90' * NOPS + 'c3' + 'c3' + 'cc' * 13
    code += 'e8abffffff' + 'c3'  # main at 0x401050: call f; ret
    sizes = [4] + [1] * NOPS + [1, 1]
    entries, offsets = [], []
    for i, (ident, size) in enumerate(zip(ids, sizes)):
        # Block 0 falls through; 62 and 63 return.
        meta = 0x8 if i < 62 else 0x1
        entries.append('              - { ID: %d, AddressOffset: 0x0, '
                       'Size: 0x%x, Metadata: 0x%x }' % (ident, size, meta))
    succ = ['[ { ID: %d, BrProb: 0x20000000 }, { ID: %d, BrProb: 0x60000000 } ]'
            % (ids[1], ids[63])]
    succ += ['[ { ID: %d, BrProb: 0x80000000 } ]' % ids[i + 1]
             for i in range(1, 62)]
    succ += ['[]', '[]']
    freqs = [20] + [5] * 62 + [15]
    pgo = ['          - { BBFreq: %d, Successors: %s }' % (f, s)
           for f, s in zip(freqs, succ)]
    return '''--- !ELF
FileHeader: { Class: ELFCLASS64, Data: ELFDATA2LSB, Type: ET_EXEC, Machine: EM_X86_64, Entry: 0x401050 }
ProgramHeaders:
  - { Type: PT_LOAD, Flags: [ PF_X, PF_R ], FirstSec: .text, LastSec: .text, VAddr: 0x401000, Align: 0x1000, Offset: 0x1000 }
Sections:
  - { Name: .text, Type: SHT_PROGBITS, Flags: [SHF_ALLOC, SHF_EXECINSTR], Address: 0x401000, AddressAlign: 0x1000, Content: "%s" }
  - Name: .llvm_bb_addr_map
    Type: SHT_LLVM_BB_ADDR_MAP
    Link: .text
    Entries:
      - Version: 2
        Feature: 0x7
        BBRanges:
          - BaseAddress: 0x401000
            BBEntries:
%s
      - Version: 2
        Feature: 0x7
        BBRanges:
          - BaseAddress: 0x401050
            BBEntries:
              - { ID: 0, AddressOffset: 0x0, Size: 0x6, Metadata: 0x1 }
    PGOAnalyses:
      - FuncEntryCount: 20
        PGOBBEntries:
%s
      - FuncEntryCount: 20
        PGOBBEntries:
          - { BBFreq: 20, Successors: [] }
Symbols:
  - { Name: f, Type: STT_FUNC, Section: .text, Binding: STB_GLOBAL, Value: 0x401000, Size: 0x43 }
  - { Name: main, Type: STT_FUNC, Section: .text, Binding: STB_GLOBAL, Value: 0x401050, Size: 0x6 }
''' % (code, '\n'.join(entries), '\n'.join(pgo))


BRANCHES = '''T 401050 401000 401002 15
T 401050 401000 401041 5
T 401002 401042 401042 15
T 401041 401055 401055 5
T 401042 401055 401055 15
'''


def samples():
    lines = ['S 401000 20', 'S 401002 20', 'S 401042 15', 'S 401050 20']
    lines += ['S %x 5' % a for a in range(0x401004, 0x401042)]
    return '\n'.join(lines) + '\n'


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    id1, id2, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    for name, text in (('prog.yaml', program(id1, id2)),
                       ('branches.pa', BRANCHES), ('samples.pa', samples())):
        with open('%s/%s' % (out, name), 'w') as f:
            f.write(text)


if __name__ == '__main__':
    main()
