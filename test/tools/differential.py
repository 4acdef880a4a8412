#!/usr/bin/env python3
"""differential.py - build one input three ways and compare.

  in-tree: the compiler's own map (-fbasic-block-address-map, or llc's
           -basic-block-address-map)
  plugin:  bbmap-plugin.so loaded into the same compiler
  plain:   no map at all

The plugin's map, decoded by llvm-readobj, must equal the in-tree one (block
IDs included, see compare-maps.py) and be byte-equal to it, relocations
included (text-digest.py --maps; not with --mask-instr-hash or a build with
every block in a section, whose maps differ by design), and the plugin's
code and code relocations must equal the plain build's (see text-digest.py).

Usage: differential.py --mode clang|llc --compiler CC --plugin SO
                       --readobj READOBJ --out PREFIX SRC [FLAG ...]
Unknown flags go to every build; --plugin-flag adds one to the plugin build
only (for example -bbmap-pgo-analysis=all), --intree-flag to the in-tree one.
"""
import argparse
import difflib
import os
import subprocess
import sys

TOOLS = os.path.dirname(os.path.abspath(__file__))


def run(cmd, out=None):
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    if res.returncode != 0:
        sys.stderr.write('$ %s\n%s%s' % (' '.join(cmd), res.stdout,
                                         res.stderr))
        raise SystemExit('differential: command failed (exit %d)' %
                         res.returncode)
    if out:
        with open(out, 'w') as f:
            f.write(res.stdout)
    return res.stdout


def build(args, extra, obj):
    if args.mode == 'clang':
        cmd = [args.compiler, '-c', args.src, '-o', obj]
    else:
        cmd = [args.compiler, '-filetype=obj', args.src, '-o', obj]
    run(cmd + args.flags + extra)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0],
                                 allow_abbrev=False)
    ap.add_argument('--mode', choices=('clang', 'llc'), required=True)
    ap.add_argument('--compiler', required=True)
    ap.add_argument('--plugin', required=True)
    ap.add_argument('--readobj', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--plugin-flag', action='append', default=[])
    ap.add_argument('--intree-flag', action='append', default=[])
    ap.add_argument('--mask-instr-hash', action='store_true')
    ap.add_argument('--link', action='store_true',
                    help='decode maps after linking with ld.lld (for targets '
                    'whose .o relocations llvm-readobj cannot apply)')
    ap.add_argument('src')
    # Everything this script does not know is a compiler flag, in order.
    args, args.flags = ap.parse_known_args()

    if args.mode == 'clang':
        load = ['-fpass-plugin=' + args.plugin]
        if args.plugin_flag:  # clang-19 parses -mllvm before -fpass-plugin
            load += ['-fplugin=' + args.plugin]
        load += [w for f in args.plugin_flag for w in ('-mllvm', f)]
        intree = ['-fbasic-block-address-map']
        intree += [w for f in args.intree_flag for w in ('-mllvm', f)]
    else:
        load = ['-load=' + args.plugin] + args.plugin_flag
        intree = ['-basic-block-address-map'] + args.intree_flag

    objs = {k: '%s.%s.o' % (args.out, k) for k in ('intree', 'plugin',
                                                   'plain')}
    build(args, intree, objs['intree'])
    build(args, load, objs['plugin'])
    build(args, [], objs['plain'])

    maps = {}
    for k in ('intree', 'plugin'):
        mapped = objs[k]
        if args.link:
            mapped = objs[k] + '.exe'
            run([os.path.join(os.path.dirname(args.compiler), 'ld.lld'),
                 '--unresolved-symbols=ignore-all', '-o', mapped, objs[k]])
        maps[k] = '%s.%s.map.txt' % (args.out, k)
        run([args.readobj, '--bb-addr-map', mapped], maps[k])
    cmp = [sys.executable, os.path.join(TOOLS, 'compare-maps.py'),
           maps['intree'], maps['plugin']]
    if args.mask_instr_hash:
        cmp.append('--mask-instr-hash')
    # With all blocks in sections and no map flag, the compiler assigns no
    # block IDs the plugin could take (docs/plugin.md).
    if any(f in ('-fbasic-block-sections=all', '-basic-block-sections=all')
           for f in args.flags):
        cmp.append('--renumber')
    res = subprocess.run(cmp, stdout=subprocess.PIPE, text=True)
    sys.stdout.write(res.stdout)

    digest = os.path.join(TOOLS, 'text-digest.py')
    bytes_equal = True
    if '--renumber' not in cmp and not args.mask_instr_hash:
        bytes_equal = same_digest(
            'bytes', 'map sections',
            *(run([sys.executable, digest, '--maps', objs[k]])
              for k in ('intree', 'plugin')))
    text_equal = same_digest(
        'text', 'code sections',
        run([sys.executable, digest, objs['plain']]),
        run([sys.executable, digest, objs['plugin']]))
    return 0 if res.returncode == 0 and bytes_equal and text_equal else 1


def same_digest(what, unit, want, got):
    """Prints whether two text-digest.py outputs are equal (a diff if not)."""
    count = sum(1 for l in want.splitlines() if not l.startswith(' '))
    if want == got:
        print('%s: identical (%d %s)' % (what, count, unit))
        return True
    print('%s: DIFFERENT' % what)
    sys.stdout.writelines(difflib.unified_diff(
        want.splitlines(True), got.splitlines(True), 'expected', 'plugin'))
    return False


if __name__ == '__main__':
    sys.exit(main())
