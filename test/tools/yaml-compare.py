#!/usr/bin/env python3
"""Compares two BOLT YAML profiles canonically (python3-yaml).

Functions are matched by name, blocks by `bid`; the header's
`binary-name` is left out (perf2bolt writes the path it was given). Prints
`identical: N functions, M blocks` or one line per difference and exits 1.
With --stats it prints, instead, the share of functions whose `hash` and
`nblocks` match and of blocks (listed in both) whose `hash` and `insns`
match, and which parts of BOLT's blended block hash differ.

Usage: yaml-compare.py EXPECTED ACTUAL [--stats] [--ignore KEY...]
"""

import argparse
import signal
import re
import sys

import yaml


class Loader(yaml.SafeLoader):
    """YAML 1.1 without `off`, `on`, `yes` and `no` as booleans: BOLT's
    call sites have an `off` key."""


Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers
            if tag != 'tag:yaml.org,2002:bool']
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}
Loader.add_implicit_resolver('tag:yaml.org,2002:bool',
                             re.compile(r'^(?:true|True|TRUE|false|False|FALSE)$'),
                             list('tTfF'))

FUNCTION_KEYS = ('fid', 'hash', 'exec', 'nblocks')
BLOCK_KEYS = ('insns', 'hash', 'exec', 'events')
# BlendedBlockHash: (name, shift, bits)
HASH_PARTS = (('offset', 0, 16), ('opcode', 16, 16), ('instr', 32, 16),
              ('pred', 48, 8), ('succ', 56, 8))


def load(path):
    with open(path) as f:
        doc = yaml.load(f, Loader=Loader)
    functions = {}
    for fn in doc.get('functions') or []:
        fn['blocks'] = {b['bid']: b for b in fn.get('blocks') or []}
        functions[fn['name']] = fn
    return doc.get('header') or {}, functions


def edges(block, key, fields):
    return sorted(tuple(e.get(f, 0) for f in fields)
                  for e in block.get(key) or [])


def compare_block(name, bid, a, b, ignore, out):
    for key in BLOCK_KEYS:
        if key not in ignore and a.get(key, 0) != b.get(key, 0):
            out.append('%s bid %d: %s %s != %s' %
                       (name, bid, key, fmt(a.get(key, 0)),
                        fmt(b.get(key, 0))))
    for key, fields in (('succ', ('bid', 'cnt', 'mis')),
                        ('calls', ('off', 'fid', 'disc', 'cnt', 'mis'))):
        if key not in ignore and edges(a, key, fields) != edges(b, key, fields):
            out.append('%s bid %d: %s %s != %s' %
                       (name, bid, key, edges(a, key, fields),
                        edges(b, key, fields)))


def fmt(v):
    return hex(v) if isinstance(v, int) and v > 0xffff else str(v)


def compare(exp, act, ignore):
    out = []
    (hexp, fexp), (hact, fact) = exp, act
    for key in sorted(set(hexp) | set(hact)):
        if key != 'binary-name' and key not in ignore and \
                hexp.get(key) != hact.get(key):
            out.append('header %s: %r != %r' % (key, hexp.get(key),
                                                hact.get(key)))
    for name in sorted(set(fexp) - set(fact)):
        out.append('only in expected: %s' % name)
    for name in sorted(set(fact) - set(fexp)):
        out.append('only in actual: %s' % name)
    blocks = 0
    for name in sorted(set(fexp) & set(fact)):
        a, b = fexp[name], fact[name]
        for key in FUNCTION_KEYS:
            if key not in ignore and a.get(key, 0) != b.get(key, 0):
                out.append('%s: %s %s != %s' % (name, key, fmt(a.get(key, 0)),
                                                fmt(b.get(key, 0))))
        for bid in sorted(set(a['blocks']) ^ set(b['blocks'])):
            where = 'expected' if bid in a['blocks'] else 'actual'
            out.append('%s bid %d: only in %s' % (name, bid, where))
        for bid in sorted(set(a['blocks']) & set(b['blocks'])):
            blocks += 1
            compare_block(name, bid, a['blocks'][bid], b['blocks'][bid],
                          ignore, out)
    return out, len(set(fexp) & set(fact)), blocks


def share(n, total):
    return '%d/%d (%.1f%%)' % (n, total, 100.0 * n / total if total else 100)


def stats(exp, act):
    (_, fexp), (_, fact) = exp, act
    names = sorted(n for n in set(fexp) & set(fact) if fexp[n].get('nblocks'))
    fhash = sum(fexp[n].get('hash') == fact[n].get('hash') for n in names)
    fnb = sum(fexp[n].get('nblocks') == fact[n].get('nblocks') for n in names)
    pairs = [(fexp[n]['blocks'][i], fact[n]['blocks'][i]) for n in names
             for i in sorted(set(fexp[n]['blocks']) & set(fact[n]['blocks']))]
    bhash = sum(a.get('hash') == b.get('hash') for a, b in pairs)
    binsns = sum(a.get('insns') == b.get('insns') for a, b in pairs)
    print('functions: hash %s, nblocks %s' % (share(fhash, len(names)),
                                               share(fnb, len(names))))
    print('blocks: hash %s, insns %s' % (share(bhash, len(pairs)),
                                          share(binsns, len(pairs))))
    for part, shift, bits in HASH_PARTS:
        mask = (1 << bits) - 1
        same = sum((a.get('hash', 0) >> shift) & mask ==
                   (b.get('hash', 0) >> shift) & mask for a, b in pairs)
        print('  block hash %s: %s' % (part, share(same, len(pairs))))


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('expected')
    p.add_argument('actual')
    p.add_argument('--stats', action='store_true')
    p.add_argument('--ignore', nargs='*', default=[],
                   help='keys left out of the comparison')
    args = p.parse_args()
    exp, act = load(args.expected), load(args.actual)
    if args.stats:
        stats(exp, act)
        return 0
    out, functions, blocks = compare(exp, act, set(args.ignore))
    for line in out:
        print(line)
    if out:
        return 1
    print('identical: %d functions, %d blocks' % (functions, blocks))
    return 0


if __name__ == '__main__':
    sys.exit(main())
