#!/usr/bin/env python3
"""compare-maps.py - compare two `llvm-readobj --bb-addr-map` outputs.

Everything must match exactly: block IDs (the plugin makes the compiler
assign its own IDs, the ones a basic-block-sections profile names), PGO
successor IDs, offsets, sizes, metadata, callsites, features and PGO values.
Each function's IDs are checked to be unique and its successor IDs to name
its blocks. With --renumber, IDs are replaced by the block's position in
its function first: for -fbasic-block-sections=all, where the compiler
assigns IDs only if its own map is on (docs/plugin.md). With --mask-instr-hash, bits 32-47 of each block hash
(the operand hash, which LLVM 22 computes from pointers) are ignored.

Exit status: 0 identical, 1 different, 2 bad input.
"""
import argparse
import difflib
import re
import sys

ID_RE = re.compile(r'^(\s*)ID: (\d+)$')
HASH_RE = re.compile(r'^(\s*)Hash: 0x([0-9A-Fa-f]+)$')


def split_functions(lines):
    """Yields lists of lines, one per `Function {` block, plus other lines."""
    out, cur, depth = [], None, 0
    for line in lines:
        if cur is None and line.strip() == 'Function {':
            cur, depth = [line], 1
            continue
        if cur is None:
            out.append([line])
            continue
        cur.append(line)
        depth += line.count('{') + line.count('[')
        depth -= line.count('}') + line.count(']')
        if depth == 0:
            out.append(cur)
            cur = None
    if cur is not None:
        raise ValueError('unterminated Function block')
    return out


def normalize_function(lines, mask_hash, renumber):
    """Checks the IDs of one function; renumbers them by block position and
    masks block hashes if asked."""
    in_pgo = False
    position = {}
    for line in lines:
        if line.strip() == 'PGO analyses {':
            in_pgo = True
        m = ID_RE.match(line)
        if m and not in_pgo:
            if m.group(2) in position:
                raise ValueError('duplicate block ID %s' % m.group(2))
            position[m.group(2)] = len(position)
    result = []
    for line in lines:
        m = ID_RE.match(line)
        if m:
            if m.group(2) not in position:
                raise ValueError('successor ID %s names no block' % m.group(2))
            if renumber:
                line = '%sID: #%d' % (m.group(1), position[m.group(2)])
        h = HASH_RE.match(line)
        if h and mask_hash:
            v = int(h.group(2), 16) & ~(0xffff << 32)
            line = '%sHash: 0x%X (operand part masked)' % (h.group(1), v)
        result.append(line)
    return result, len(position)


def normalize(path, mask_hash, renumber):
    with open(path) as f:
        lines = [l.rstrip('\n') for l in f if not l.startswith('File: ')]
    text, functions, blocks = [], 0, 0
    for chunk in split_functions(lines):
        if chunk[0].strip() == 'Function {':
            norm, n = normalize_function(chunk, mask_hash, renumber)
            functions += 1
            blocks += n
            text.extend(norm)
        else:
            text.extend(chunk)
    return text, functions, blocks


def print_first_difference(exp, act, exp_name, act_name, context=40):
    """Diffs a window around the first differing line: a full diff of two
    large maps that differ everywhere is quadratic."""
    first = next((i for i, (a, b) in enumerate(zip(exp, act)) if a != b),
                 min(len(exp), len(act)))
    lo = max(0, first - context)
    hi = first + context
    mismatches = sum(a != b for a, b in zip(exp, act)) + abs(len(exp) -
                                                             len(act))
    print('first difference at line %d of %d; %d lines differ' %
          (first + 1, len(exp), mismatches))
    sys.stdout.writelines(l + '\n' for l in difflib.unified_diff(
        exp[lo:hi], act[lo:hi], exp_name, act_name, lineterm=''))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('expected')
    ap.add_argument('actual')
    ap.add_argument('--mask-instr-hash', action='store_true')
    ap.add_argument('--renumber', action='store_true')
    args = ap.parse_args()
    try:
        exp, nf, nb = normalize(args.expected, args.mask_instr_hash,
                                args.renumber)
        act, af, ab = normalize(args.actual, args.mask_instr_hash,
                                args.renumber)
    except (OSError, ValueError) as e:
        print('compare-maps: error: %s' % e, file=sys.stderr)
        return 2
    if exp != act:
        print_first_difference(exp, act, args.expected, args.actual)
        print('map: DIFFERENT')
        return 1
    print('map: identical (%d functions, %d blocks)' % (nf, nb))
    return 0


if __name__ == '__main__':
    sys.exit(main())
