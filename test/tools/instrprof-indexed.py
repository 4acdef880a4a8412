#!/usr/bin/env python3
"""instrprof-indexed.py - real indexed profiles of every instrumentation
variant of one clang, merged by each llvm-profdata that reads its raw
profiles, each compared with the llvm-profdata show of every major that
reads the indexed file.

Usage: instrprof-indexed.py --producer N --bbmap-dump PATH --inputs DIR
                            --out DIR
       instrprof-indexed.py --versions FILE --bbmap-dump PATH --inputs DIR
                            --out DIR

Builds and runs the variants of instrprof-variants.py (the same programs
and flags) with /usr/lib/llvm-N/bin/clang, and indexes each raw profile
with llvm-profdata-M for every M that reads clang-N's raw version (14 for
14; 19 and 22 for 19 and 22): indexed version 7, 12 or 13. Some indexed
files hold more than the variant's one run: `cs` merges the
context-sensitive profile with the profile it was built on (a
context-sensitive and a plain record per name), `ir-temporal` two runs
into temporal traces (--temporal-profile-trace-reservoir-size), `ir` also
calls-other.c's profile (two CFG hashes for `mul` and `main`),
`ir-vtables` is also written with the raw profile's vtable names (which
llvm-profdata leaves out) added, plain and zlib-compressed, and
`memprof` (LLVM 19 and 22) a memory profile of alloc.c in every memory
profile version M writes (--memprof-version), with the IR profile of the
same program (clang-22's raw memory profiles only by llvm-profdata-22).
For each reader R that reads the indexed file (14 up to version 7, 19 up
to 12, 22 up to 13; 22 reads no memory profile of version 0 or 1),
`llvm-profdata-R show --all-functions --counts --ic-targets
--memop-sizes` (--show-vtables from 19 on; --showcs too for `cs`) must
print what `bbmap-dump --instr-profile --instr-style=R` prints, and
bbmap-dump without --instr-style the first reader's text. The memory
profile section must be found with the version asked for, ending where
the binary IDs begin. Prints one line per variant, indexer and reader,
and the diff of a mismatch (exit status 1).

With --versions, FILE (an indexed profile) is laid out again in every
indexed version from 1 to 13 (profdata.py version) and each is compared
in the same way with the llvm-profdata majors that read it (14 up to
version 7, 19 up to 12, 22 all).
"""
import argparse
import importlib.util
import json
import os
import subprocess
import sys

TOOLS = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    'instrprof_variants', os.path.join(TOOLS, 'instrprof-variants.py'))
variants = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(variants)


def profdata(major):
    return '/usr/lib/llvm-%d/bin/llvm-profdata' % major


def indexers(producer):
    """The llvm-profdata majors that read clang-`producer`'s raw profiles
    (raw version 8 for 14, 10 for 19 and 22)."""
    return [14] if producer == 14 else [19, 22]


def readers(indexer, memprof_version=None):
    """The llvm-profdata majors that read what llvm-profdata-`indexer`
    writes."""
    r = {14: [14, 19, 22], 19: [19, 22], 22: [22]}[indexer]
    if memprof_version is not None and memprof_version < 2:
        r = [m for m in r if m != 22]
    return r


def build_memprof(args):
    """The raw memory profile and the raw IR profile of alloc.c, and the
    program the memory profile was taken from."""
    bindir = '/usr/lib/llvm-%d/bin' % args.producer
    src = os.path.join(args.inputs, 'alloc.c')
    out = os.path.join(args.out, 'memprof')
    variants.run([os.path.join(bindir, 'clang'), '-O1', '-g',
                  '-fmemory-profile', '-fno-omit-frame-pointer', src,
                  '-o', out + '.exe'])
    env = variants.program_env(MEMPROF_OPTIONS='log_path=' + out + '.memprofraw')
    subprocess.run([out + '.exe'], env=env, check=False)
    raw = [f for f in os.listdir(args.out)
           if f.startswith('memprof.memprofraw')]
    variants.run([os.path.join(bindir, 'clang'), '-O1', '-fprofile-generate',
                  src, '-o', out + '.ir.exe'])
    env = variants.program_env(LLVM_PROFILE_FILE=out + '.profraw')
    subprocess.run([out + '.ir.exe'], env=env, check=False)
    return os.path.join(args.out, raw[0]), out + '.profraw', out + '.exe'


def check_memprof(args, path, version):
    """The memory profile section of `path`: its version and its end."""
    text = variants.run([args.bbmap_dump, '--instr-profile',
                         '--output-style=json', path])
    sections = json.loads(text)[0]['Profiles'][0]['Sections']
    by_name = {s['Name']: s for s in sections}
    memprof = by_name.get('memory profile')
    ok = (memprof is not None and memprof.get('Version') == version and
          memprof['Offset'] + memprof['Size'] ==
          by_name['binary IDs']['Offset'])
    if not ok:
        print('MISMATCH memory profile section of %s: %s' % (path, sections))
    return ok


def compare_readers(args, name, label, path, rs):
    """`path` printed by bbmap-dump and by each llvm-profdata of `rs`; one
    line per reader, starting with `label`."""
    ok = True
    for reader in rs:
        opts = ['--counts', '--ic-targets', '--memop-sizes']
        if reader >= 19:
            opts.append('--show-vtables')
        same = True
        for o in [opts] + ([opts + ['--showcs']] if name == 'cs' else []):
            bbmap = [args.bbmap_dump, '--instr-profile',
                     '--instr-style=%d' % reader] + o + [path]
            expected = [profdata(reader), 'show', '--all-functions'] + o + \
                [path]
            what = '%s, llvm-profdata-%d %s' % (label, reader, ' '.join(o))
            same &= variants.compare(args, what, expected, bbmap)
            if reader == rs[0]:
                same &= variants.compare(args, what + ' (default style)',
                                         expected, bbmap[:2] + bbmap[3:])
        print('%s: llvm-profdata-%d %s' % (label, reader,
                                           'same' if same else 'DIFFERS'))
        ok &= same
    return ok


def compare_vtable_names(args, raw, path, indexer):
    """llvm-profdata 19 and 22 write no vtable names into indexed profiles:
    `path` with the raw profile's vtable names added (profdata.py
    vtable-names), plain and zlib-compressed."""
    text = variants.run([args.bbmap_dump, '--instr-profile',
                         '--output-style=json', raw])
    names = json.loads(text)[0]['Profiles'][0]['VTableNames']
    ok = bool(names)
    for mode in ('plain', 'zlib'):
        out = '%s.%s-vtable-names.profdata' % (path[:-len('.profdata')], mode)
        variants.run([sys.executable, os.path.join(TOOLS, 'profdata.py'),
                      'vtable-names', mode, path, out] + names)
        ok &= compare_readers(args, 'ir-vtables', 'ir-vtables with %s vtable '
                              'names indexed by %d' % (mode, indexer), out,
                              readers(indexer))
    return ok


def compare_versions(args):
    ok = True
    for version in range(1, 14):
        out = os.path.join(args.out, 'v%d.profdata' % version)
        variants.run([sys.executable, os.path.join(TOOLS, 'profdata.py'),
                      'version', str(version), args.versions, out])
        indexer = 14 if version <= 7 else 19 if version <= 12 else 22
        ok &= compare_readers(args, '', 'version %d' % version, out,
                              readers(indexer))
    return ok


def main():
    ap = argparse.ArgumentParser()
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument('--producer', type=int)
    mode.add_argument('--versions')
    ap.add_argument('--bbmap-dump', required=True)
    ap.add_argument('--inputs', required=True)
    ap.add_argument('--out', required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.versions:
        sys.exit(0 if compare_versions(args) else 1)
    ok = True
    raw = {}
    for name, flags, source in variants.variants(args.producer):
        raw[name] = variants.build_and_run(args, name, flags, source)[0]
    other = variants.build_and_run(
        args, 'other', ['-fprofile-generate'], 'calls-other.c')[0]
    for name, _, _ in variants.variants(args.producer):
        inputs, extra = [raw[name]], []
        if name == 'cs':
            inputs.append(raw['ir'])
        elif name == 'ir':
            inputs.append(other)
        elif name == 'ir-temporal':
            inputs.append(raw[name])
            extra = ['--temporal-profile-trace-reservoir-size=4']
        for indexer in indexers(args.producer):
            out = os.path.join(args.out, '%s.%d.profdata' % (name, indexer))
            variants.run([profdata(indexer), 'merge', '-o', out] + extra +
                         inputs)
            ok &= compare_readers(args, name,
                                  '%s indexed by %d' % (name, indexer), out,
                                  readers(indexer))
            if name == 'ir-vtables':
                ok &= compare_vtable_names(args, raw[name], out, indexer)
    if args.producer >= 19:
        memraw, irraw, exe = build_memprof(args)
        # clang-22 writes raw memory profiles of version 5, which
        # llvm-profdata-19 does not read.
        for indexer in [19, 22] if args.producer == 19 else [22]:
            for version in {19: [0, 1, 2, 3], 22: [2, 3, 4]}[indexer]:
                name = 'memprof-v%d' % version
                out = os.path.join(args.out, '%s.%d.profdata' % (name,
                                                                 indexer))
                variants.run([profdata(indexer), 'merge', '-o', out,
                              '--memprof-version=%d' % version,
                              '--profiled-binary=' + exe, memraw, irraw])
                ok &= check_memprof(args, out, version)
                ok &= compare_readers(args, name,
                                      '%s indexed by %d' % (name, indexer),
                                      out, readers(indexer, version))
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
