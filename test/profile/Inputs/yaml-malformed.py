#!/usr/bin/env python3
"""yaml-malformed.py - malformed copies of a BOLT YAML profile.

Usage: yaml-malformed.py GOOD.yaml OUT_DIR
Writes OUT_DIR/<case>.yaml for each case below: an edit of GOOD.yaml (a
profile whose function `main` has fid 1, nblocks 2 and blocks 0 and 1, and
whose function `f/file.c/1` has fid 2), or a file of its own.
"""
import os
import sys

EDITS = {
    'unknown-key': ('        insns:           4\n',
                    '        insns:           4\n        foo:             1\n'),
    'missing-key': ('    nblocks:         2\n', ''),
    'bid-past-nblocks': ('{ bid: 1, insns: 2, exec: 1 }',
                         '{ bid: 2, insns: 2, exec: 1 }'),
    'succ-past-nblocks': ('succ:            [ { bid: 1,',
                          'succ:            [ { bid: 7,'),
    'duplicate-bid': ('{ bid: 1, insns: 2, exec: 1 }',
                      '{ bid: 0, insns: 2, exec: 1 }'),
    'huge-nblocks': ('    nblocks:         2\n',
                     '    nblocks:         4294967295\n'),
    'nblocks-too-big': ('    nblocks:         2\n',
                        '    nblocks:         4294967296\n'),
    'duplicate-fid': ('    fid:             2\n', '    fid:             1\n'),
    'unknown-hash-func': ('hash-func:       std-hash', 'hash-func:       md5'),
    'profile-version': ('profile-version: 1', 'profile-version: 2'),
    'unknown-flag': ('[ sample ]', '[ sample, branch ]'),
    'negative-count': ('        exec:            3\n',
                       '        exec:            -3\n'),
    'duplicate-key': ('    exec:            3\n',
                      '    exec:            3\n    exec:            4\n'),
    'not-a-list': ('functions:\n', 'functions: 3\n'),
}


def main():
    good, out = sys.argv[1], sys.argv[2]
    text = open(good).read()
    os.makedirs(out, exist_ok=True)

    def write(name, data):
        mode = 'wb' if isinstance(data, bytes) else 'w'
        with open(os.path.join(out, name + '.yaml'), mode) as f:
            f.write(data)

    for name, (old, new) in EDITS.items():
        assert text.count(old) >= 1, name
        write(name, text.replace(old, new, 1))
    write('truncated', text[:text.index('succ:') + 22])
    write('empty', '')
    write('empty-document', '---\n...\n')
    write('garbage', bytes(range(256)) * 4)
    write('deep', '---\n' + '[' * 200000 + '\n')
    write('deep-block', '---\n' + '- ' * 100000 + 'x\n')


if __name__ == '__main__':
    main()
