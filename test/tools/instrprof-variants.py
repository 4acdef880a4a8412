#!/usr/bin/env python3
"""instrprof-variants.py - real raw profiles of every instrumentation variant
of one clang, each compared with llvm-profdata show.

Usage: instrprof-variants.py --producer N --bbmap-dump PATH --inputs DIR
                             --out DIR [--reader M]...

Builds test/instrprof/Inputs/calls.c (and vtables.cpp for LLVM 19+) with
/usr/lib/llvm-N/bin/clang in each variant the producer accepts, runs it to
write a raw profile, and makes its big-endian twin with profraw.py swap.
For each reader major M, both files must print the same text from
`llvm-profdata-M show --all-functions --counts --ic-targets --memop-sizes`
(with --show-vtables from LLVM 19 on; context-sensitive profiles also with
--showcs) as from `bbmap-dump --instr-profile --instr-style=M` with the same
options; without --instr-style, bbmap-dump must pick the first reader's
style (22 for LLVM 22's loop-entries flag). Prints one line per variant and reader, and the diff of a mismatch
(exit status 1).
"""
import argparse
import difflib
import os
import subprocess
import sys

TOOLS = os.path.dirname(os.path.abspath(__file__))


def variants(major):
    """(name, flags, source) of each variant clang-MAJOR accepts."""
    v = [('fe', ['-fprofile-instr-generate'], 'calls.c'),
         ('fe-value-profiling', ['-fprofile-instr-generate', '-mllvm',
                                 '-enable-value-profiling'], 'calls.c'),
         ('ir', ['-fprofile-generate'], 'calls.c'),
         ('ir-entry-first', ['-fprofile-generate', '-mllvm',
                             '-pgo-instrument-entry'], 'calls.c'),
         ('ir-function-entry-only', ['-fprofile-generate', '-mllvm',
                                     '-pgo-function-entry-coverage'],
          'calls.c'),
         ('ir-plain-names', ['-fprofile-generate', '-mllvm',
                             '-enable-name-compression=false'], 'calls.c'),
         ('ir-atomic', ['-fprofile-generate', '-fprofile-update=atomic'],
          'calls.c'),
         ('cs', None, 'calls.c')]
    if major >= 19:
        v += [('ir-block-coverage', ['-fprofile-generate', '-mllvm',
                                     '-pgo-block-coverage'], 'calls.c'),
              ('fe-single-byte', ['-fprofile-instr-generate', '-mllvm',
                                  '-enable-single-byte-coverage'], 'calls.c'),
              ('ir-temporal', ['-fprofile-generate', '-mllvm',
                               '-pgo-temporal-instrumentation'], 'calls.c'),
              ('fe-mcdc', ['-fprofile-instr-generate', '-fcoverage-mapping',
                           '-fcoverage-mcdc'], 'calls.c'),
              ('ir-vtables', ['-fprofile-generate', '-mllvm',
                              '-enable-vtable-value-profiling'],
               'vtables.cpp')]
    if major >= 22:
        v.append(('ir-loop-entries', ['-fprofile-generate', '-mllvm',
                                      '-pgo-instrument-loop-entries'],
                  'calls.c'))
    return v


def program_env(**extra):
    """The environment for an instrumented test program: without the
    sanitizer runtime the sanitizer suite preloads into every process (the
    programs have profile runtimes of their own, and the memory profiler's
    hangs beside ASan's), plus EXTRA."""
    env = {k: v for k, v in os.environ.items() if k != 'LD_PRELOAD'}
    env.update(extra)
    return env


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, **kw).stdout


def build_and_run(args, name, flags, source):
    bindir = '/usr/lib/llvm-%d/bin' % args.producer
    out = os.path.join(args.out, name)
    clang = os.path.join(bindir, 'clang++' if source.endswith('.cpp')
                         else 'clang')
    inputs = [os.path.join(args.inputs, source)]
    if source == 'calls.c':
        ext = out + '.ext.o'
        run([os.path.join(bindir, 'clang'), '-O2', '-c',
             os.path.join(args.inputs, 'ext.c'), '-o', ext])
        inputs.append(ext)
    if flags is None:
        # Context-sensitive: an IR profile first, then -fcs-profile-generate
        # on top of its use.
        first = os.path.join(args.out, 'ir.profraw')
        run([os.path.join(bindir, 'llvm-profdata'), 'merge', '-o',
             out + '.first.profdata', first])
        flags = ['-fprofile-use=' + out + '.first.profdata',
                 '-fcs-profile-generate']
    run([clang, '-O2', '-w'] + flags + inputs + ['-o', out + '.exe'])
    env = program_env(LLVM_PROFILE_FILE=out + '.profraw')
    subprocess.run([out + '.exe'], env=env, stdout=subprocess.DEVNULL,
                   check=False)
    run([sys.executable, os.path.join(TOOLS, 'profraw.py'), 'swap',
         out + '.profraw', out + '.be.profraw'])
    return out + '.profraw', out + '.be.profraw'


def compare(args, label, profdata_cmd, bbmap_cmd):
    expected = run(profdata_cmd)
    actual = run(bbmap_cmd)
    if expected == actual:
        return True
    print('MISMATCH %s' % label)
    sys.stdout.writelines(difflib.unified_diff(
        expected.splitlines(True), actual.splitlines(True),
        'llvm-profdata', 'bbmap-dump'))
    return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--producer', type=int, required=True)
    ap.add_argument('--reader', type=int, action='append', required=True)
    ap.add_argument('--bbmap-dump', required=True)
    ap.add_argument('--inputs', required=True)
    ap.add_argument('--out', required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    ok = True
    for name, flags, source in variants(args.producer):
        files = build_and_run(args, name, flags, source)
        for reader in args.reader:
            opts = ['--counts', '--ic-targets', '--memop-sizes']
            if reader >= 19:
                opts.append('--show-vtables')
            option_sets = [opts] + ([opts + ['--showcs']] if name == 'cs'
                                    else [])
            same = True
            for o in option_sets:
                for f in files:
                    profdata = ['/usr/lib/llvm-%d/bin/llvm-profdata' % reader,
                                'show', '--all-functions'] + o + [f]
                    bbmap = [args.bbmap_dump, '--instr-profile',
                             '--instr-style=%d' % reader] + o + [f]
                    label = '%s %s llvm-profdata-%d %s' % (
                        name, os.path.basename(f), reader, ' '.join(o))
                    same &= compare(args, label, profdata, bbmap)
                    # LLVM 22's loop-entries flag makes the default the
                    # style of 22, else the first reader's.
                    default = (22 if name == 'ir-loop-entries'
                               else args.reader[0])
                    if reader == default:
                        same &= compare(args, label + ' (default style)',
                                        profdata, bbmap[:2] + bbmap[3:])
            print('%s: llvm-profdata-%d %s' % (name, reader,
                                               'same' if same else 'DIFFERS'))
            ok &= same
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
