#!/usr/bin/env python3
"""bat-check.py - independent checks of `bbmap-dump --bat` results.

Subcommands:
  bolt-log LOG DUMP.json
      Compares the BAT statistics BOLT printed while writing the note (maps,
      cold-to-hot entries, section size) with bbmap-dump's JSON dump, then
      prints a summary line for FileCheck.
  roundtrip DUMP.json NM.txt ADDRS-OUT EXPECTED-OUT
      From the JSON dump and `llvm-nm -S --defined-only` output, writes a
      translation request file probing every table entry (its output
      address and the next byte, plain and :from) and the text bbmap-dump
      --translate-file must print, computed here by BOLT's translate() rule
      over the entries as BOLT keeps them (ascending output offset; BOLT
      15/16 keep the first entry at an offset, 19/22 translate to the last).
  preagg DUMP.json NM.txt PREAGG-OUT ADDRS-OUT
      Writes a perf2bolt pre-aggregated profile with one branch per entry
      pair of every fragment (source: an entry's address, target: another
      entry's), each with a distinct power-of-two count, and the matching
      translation requests (source as :from).
  compare FDATA TRANSLATED.json
      Checks every branch line of perf2bolt's fdata against bbmap-dump's
      translations of the branches whose counts add up to its count.
  chain TRANSLATED.json READOBJ.json INPUT-NM.txt
      Checks the chained look-up (--input-binary) of every translation: the
      input address is the input symbol plus the input offset, and the block
      is the one llvm-readobj's dump of the input's map places there (the
      block covering the address; for a non-branch-source, the first block
      starting there).
"""

import json
import re
import sys


def load_dump(path):
    with open(path) as f:
        files = json.load(f)
    assert len(files) == 1, 'one file expected'
    return files[0]


def function_symbols(nm_path):
    """address -> (size, first name), from `llvm-nm -S --defined-only`."""
    syms = {}
    with open(nm_path) as f:
        for line in f:
            parts = line.split()
            if len(parts) != 4 or parts[2] not in 'tTwW':
                continue
            addr, size = int(parts[0], 16), int(parts[1], 16)
            syms.setdefault(addr, (size, parts[3]))
    return syms


def bolt_tables(dump):
    """Fragments as BOLT keeps them: address -> (function, entries)."""
    fixed = dump['Format'] == 'BOLT 15/16'
    tables = {}
    for fn in dump['Functions']:
        if fn['Address'] in tables:
            continue
        entries = sorted(fn['Entries'], key=lambda e: e['OutputOffset'])
        by_offset = {}
        for e in entries:
            if fixed:
                by_offset.setdefault(e['OutputOffset'], e)
            else:
                by_offset[e['OutputOffset']] = e
        tables[fn['Address']] = (fn, [by_offset[o] for o in sorted(by_offset)])
    return tables


def parents(dump):
    links = {}
    for link in dump['ColdLinks']:
        links.setdefault(link['ColdAddress'], link['HotAddress'])
    return links


def bolt_log(log_path, dump_path):
    dump = load_dump(dump_path)
    with open(log_path) as f:
        log = f.read()
    maps = int(re.search(r'Wrote (\d+) BAT maps', log).group(1))
    tables = bolt_tables(dump)
    if maps != len(tables):
        sys.exit('BOLT wrote %d maps, bbmap-dump decoded %d' % (maps, len(tables)))
    cold = re.search(r'Wrote (\d+) BAT cold-to-hot entries', log)
    if cold and int(cold.group(1)) != len(dump['ColdLinks']):
        sys.exit('BOLT wrote %s cold-to-hot entries, bbmap-dump decoded %d' %
                 (cold.group(1), len(dump['ColdLinks'])))
    size = re.search(r'BAT section size \(bytes\): (\d+)', log)
    end = dump['DescriptorOffset'] + dump['DescriptorSize']
    if size and int(size.group(1)) != (end + 3) // 4 * 4:
        sys.exit('BOLT wrote a %s-byte section, bbmap-dump read %d bytes' %
                 (size.group(1), end))
    entries = sum(len(fn['Entries']) for fn in dump['Functions'])
    print('format: %s, maps: %d, cold: %d, entries: %d' %
          (dump['Format'], maps, len(dump['ColdLinks']), entries))


def probes(dump, syms):
    """Yields (address, is_from, function name, input offset)."""
    links = parents(dump)
    for addr, (fn, entries) in sorted(bolt_tables(dump).items()):
        size, _ = syms[addr]
        name = syms[links.get(addr, addr)][1]
        for i, e in enumerate(entries):
            out, inp = e['OutputOffset'], e['InputOffset']
            nxt = entries[i + 1]['OutputOffset'] if i + 1 < len(entries) else size
            # Entries at the fragment's end (deleted blocks) belong to
            # whatever follows it.
            if out >= size:
                continue
            yield addr + out, False, name, inp
            yield addr + out, True, name, inp
            if out + 1 < min(nxt, size):
                yield addr + out + 1, False, name, inp + 1
                yield addr + out + 1, True, name, inp


def roundtrip(dump_path, nm_path, addrs_path, expected_path):
    dump = load_dump(dump_path)
    syms = function_symbols(nm_path)
    n = 0
    with open(addrs_path, 'w') as addrs, open(expected_path, 'w') as exp:
        exp.write('Translating addresses according to parsed BAT tables:\n')
        for addr, is_from, name, inp in probes(dump, syms):
            suffix = ':from' if is_from else ''
            addrs.write('0x%x%s\n' % (addr, suffix))
            exp.write('0x%x%s -> %s + 0x%x\n' % (addr, suffix, name, inp))
            n += 1
    print('probes: %d' % n)


def branch_pairs(dump):
    """(source address, target address) for entry pairs of each fragment."""
    for addr, (fn, entries) in sorted(bolt_tables(dump).items()):
        outs = [e['OutputOffset'] for e in entries]
        for i, src in enumerate(outs):
            dst = outs[(i + 1) % len(outs)]
            yield addr + src, addr + dst


def preagg(dump_path, nm_path, preagg_path, addrs_path):
    dump = load_dump(dump_path)
    pairs = list(branch_pairs(dump))
    # Counts are distinct bits of an int64: spread 62 branches over the table.
    pairs = pairs[::max(1, len(pairs) // 62)][:62]
    with open(preagg_path, 'w') as pa, open(addrs_path, 'w') as addrs:
        for i, (src, dst) in enumerate(pairs):
            pa.write('B %x %x %d 0\n' % (src, dst, 1 << i))
            addrs.write('0x%x:from\n0x%x\n' % (src, dst))
    print('branches: %d' % len(pairs))


def location(t):
    return (t.get('Function'), t.get('InputOffset'))


def compare(fdata_path, translated_path):
    results = load_dump(translated_path)['Translations']
    pairs = [(location(results[2 * i]), location(results[2 * i + 1]))
             for i in range(len(results) // 2)]
    kept = 0
    with open(fdata_path) as f:
        for line in f:
            parts = line.split()
            if len(parts) != 8:
                continue
            # perf2bolt names local functions "name/file/N".
            src = (parts[1].split('/')[0], int(parts[2], 16))
            dst = (parts[4].split('/')[0], int(parts[5], 16))
            count = int(parts[7])
            if count >> len(pairs):
                sys.exit('count %d names branches that were not written' % count)
            for i, (ours_src, ours_dst) in enumerate(pairs):
                if not count >> i & 1:
                    continue
                kept += 1
                if (ours_src, ours_dst) != (src, dst):
                    sys.exit('branch %d: perf2bolt %s -> %s, bbmap-dump %s -> %s'
                             % (i, src, dst, ours_src, ours_dst))
    print('branches kept by perf2bolt and matching: %d of %d' %
          (kept, len(pairs)))


def readobj_blocks(path):
    """(start, end, function, id) of every block of llvm-readobj's JSON."""
    with open(path) as f:
        dump = json.load(f)
    for file_obj in dump:
        for entry in file_obj['BBAddrMap']:
            fn = entry['Function']
            for rng in fn['BB Ranges']:
                for b in rng['BB Entries']:
                    start = rng['Base Address'] + b['Offset']
                    yield start, start + b['Size'], fn['Name'], b['ID']


def expected_block(blocks, addr, is_from):
    if not is_from:
        for start, end, name, bid in blocks:
            if start == addr:
                return name, bid, 0
    for start, end, name, bid in blocks:
        if start <= addr < end:
            return name, bid, addr - start
    return None


def chain(translated_path, readobj_path, nm_path):
    results = load_dump(translated_path)['Translations']
    blocks = list(readobj_blocks(readobj_path))
    names = {}
    for addr, (size, name) in function_symbols(nm_path).items():
        names.setdefault(name, addr)
    in_blocks = 0
    for t in results:
        if 'Function' not in t:
            continue
        got = t['Input']
        addr = names[t['Function']] + t['InputOffset']
        if got.get('Address') != addr:
            sys.exit('0x%x: input address %s, expected 0x%x' %
                     (t['Address'], got.get('Address'), addr))
        exp = expected_block(blocks, addr, t['BranchSource'])
        ours = None
        if 'BlockID' in got:
            ours = (got['Function'], got['BlockID'], got['BlockOffset'])
            in_blocks += 1
        if ours != exp:
            sys.exit('0x%x: input block %s, expected %s' %
                     (t['Address'], ours, exp))
    print('chained: %d, in blocks: %d' % (len(results), in_blocks))


def main():
    cmds = {'bolt-log': bolt_log, 'roundtrip': roundtrip, 'preagg': preagg,
            'compare': compare, 'chain': chain}
    cmds[sys.argv[1]](*sys.argv[2:])


if __name__ == '__main__':
    main()
