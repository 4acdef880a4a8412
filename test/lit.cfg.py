# lit.cfg.py - bbmap's lit suite, run once per LLVM major.
#
# The Debian tool directory of the build's major comes first on PATH, so
# `clang`, `llc`, `llvm-readobj`, `FileCheck`, `not`, `yaml2obj` and `ld.lld`
# in RUN lines are that major's. Tools of the other supported majors are
# reachable as %llvm19/<tool> and %llvm22/<tool> when installed (features
# have-llvm-19, have-llvm-22).
import os
import shutil
import sys

import lit.formats

config.name = 'bbmap-llvm-%d' % config.llvm_major
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = ['.c', '.cpp', '.ll', '.test', '.s']
config.excludes = ['Inputs', 'tools', 'CMakeLists.txt', 'lit.cfg.py',
                   'lit.site.cfg.py.in']
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.bbmap_obj_root, 'test')

config.environment['PATH'] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get('PATH', os.environ['PATH'])])
config.environment.pop('BBMAP_OPTIONS', None)

config.available_features.add('llvm-%d' % config.llvm_major)
tools = os.path.join(config.test_source_root, 'tools')
py = sys.executable

# Sanitizer builds (BBMAP_SANITIZE): every process runs with the sanitizer
# runtime preloaded, since the plugin's hosts (clang, llc, ld.lld) are not
# instrumented. A report aborts the process: lit fails the test, and `not`
# counts the abort as a crash, not as the expected failure. The hosts leak
# by design, so leaks are checked in bbmap-dump only. With
# BBMAP_SANITIZER_LOG=PREFIX in the environment, reports go to PREFIX.PID
# files instead of stderr, so that scripts/test-sanitize.sh also sees those
# a RUN line discards (`2>/dev/null || true`).
bbmap_dump = config.bbmap_dump
if config.bbmap_sanitizer_runtime:
    config.available_features.add('sanitizer')
    fatal = 'abort_on_error=1:halt_on_error=1:print_stacktrace=1'
    if os.environ.get('BBMAP_SANITIZER_LOG'):
        fatal += ':log_path=' + os.environ['BBMAP_SANITIZER_LOG']
    config.environment['LD_PRELOAD'] = config.bbmap_sanitizer_runtime
    # Debian's mawk reads past its strings in memcmp (ASan reports it
    # depending on where its heap lands): awk runs without the runtime.
    shims = os.path.join(config.test_exec_root, 'sanitizer-shims')
    os.makedirs(shims, exist_ok=True)
    awk = os.path.join(shims, 'awk')
    with open(awk, 'w') as f:
        f.write('#!/bin/sh\nexec env -u LD_PRELOAD %s "$@"\n'
                % shutil.which('awk', path=os.environ['PATH']))
    os.chmod(awk, 0o755)
    config.environment['PATH'] = os.pathsep.join(
        [shims, config.environment['PATH']])
    config.environment['ASAN_OPTIONS'] = fatal + ':detect_leaks=0'
    config.environment['UBSAN_OPTIONS'] = fatal
    bbmap_dump = 'env ASAN_OPTIONS=%s:detect_leaks=1 %s' % (fatal, bbmap_dump)
    config.substitutions.extend([
        ('%sanitize-flags', '-fsanitize=%s -fno-sanitize-recover=all '
         '-shared-libsan' % config.bbmap_sanitize),
        ('%sanitizer-stderr', 'env ASAN_OPTIONS="$ASAN_OPTIONS:log_path=stderr"'
         ' UBSAN_OPTIONS="$UBSAN_OPTIONS:log_path=stderr"')])

subs = [
    ('%plugin', config.bbmap_plugin),
    ('%bbmap-dump-path', config.bbmap_dump),
    ('%bbmap-dump', bbmap_dump),
    ('%python', py),
    ('%compare-maps', '%s %s' % (py, os.path.join(tools, 'compare-maps.py'))),
    ('%text-digest', '%s %s' % (py, os.path.join(tools, 'text-digest.py'))),
    ('%run-each', '%s %s' % (py, os.path.join(tools, 'run-each.py'))),
    ('%inputs', os.path.join(config.test_source_root, 'Inputs')),
    ('%bbmap-profile', config.bbmap_profile),
    ('%exact-trace', os.path.join(tools, 'exact-trace')),
    ('%fdata-diff', '%s %s' % (py, os.path.join(tools, 'fdata-diff.py'))),
    ('%yaml-compare', '%s %s' % (py, os.path.join(tools, 'yaml-compare.py'))),
    ('%summary-diff', '%s %s' % (py, os.path.join(tools, 'summary-diff.py'))),
    ('%perf-data-gen', '%s %s' % (py, os.path.join(tools, 'perf-data-gen.py'))),
    # ARM SPE perf.data (perf record -e arm_spe_0/branch_filter=1/u) from
    # an exact trace, and the `perf` that serves its perf 6.14 brstack text
    # to perf2bolt --spe; seeded random SPE scenarios for the dumper.
    ('%spe-data-gen', '%s %s' % (py, os.path.join(tools, 'spe-data-gen.py'))),
    ('%fake-perf-spe', os.path.join(tools, 'fake-perf-spe')),
    ('%spe-scenario', '%s %s' % (py, os.path.join(tools, 'spe-scenario.py'))),
    # The I-cache simulator of the benches (a qemu plugin), as an oracle.
    ('%icache-plugin-src', os.path.join(os.path.dirname(
        config.test_source_root), 'bench', 'tools', 'icache-plugin.c')),
    ('%perf-malformed', '%s %s' % (py, os.path.join(tools,
                                                   'perf-malformed.py'))),
    # test/install: installs and packages this build tree and builds
    # examples/consumer.
    ('%cmake', config.cmake),
    ('%cpack', config.cpack),
    ('%bbmap-obj-root', config.bbmap_obj_root),
    ('%bbmap-src-root', config.bbmap_src_root),
    ('%llvm-major', str(config.llvm_major)),
]
for major in (19, 22):
    bindir = '/usr/lib/llvm-%d/bin' % major
    if os.path.exists(os.path.join(bindir, 'llvm-readobj')):
        config.available_features.add('have-llvm-%d' % major)
    subs.append(('%%llvm%d' % major, bindir))
# Instrumentation profiles (test/instrprof): clang-N with its profile
# runtime and llvm-profdata-N, for N = 14 (raw version 8), 19 and 22
# (version 10); features instrprof-N.
for major in (14, 19, 22):
    bindir = '/usr/lib/llvm-%d/bin' % major
    if (os.path.exists(os.path.join(bindir, 'clang')) and
            os.path.exists(os.path.join(bindir, 'llvm-profdata'))):
        config.available_features.add('instrprof-%d' % major)
for tool in ('instrprof-variants', 'instrprof-indexed'):
    subs.append(('%' + tool,
                 '%s %s --bbmap-dump %s --inputs %s' %
                 (py, os.path.join(tools, tool + '.py'), config.bbmap_dump,
                  os.path.join(config.test_source_root, 'instrprof',
                               'Inputs'))))
subs.append(('%profraw', '%s %s' % (py, os.path.join(tools, 'profraw.py'))))
subs.append(('%profdata', '%s %s' % (py, os.path.join(tools, 'profdata.py'))))
# BOLT tools (features bolt-16, bolt-19, bolt-22, bat-dump-16). perf2bolt up
# to 19 must run under the exact name "perf2bolt" (Debian's perf2bolt-19 runs
# as llvm-bolt), so %perf2bolt-N names the one in the LLVM bin directory.
for major in (16, 19, 22):
    if shutil.which('llvm-bolt-%d' % major):
        config.available_features.add('bolt-%d' % major)
    perf2bolt = '/usr/lib/llvm-%d/bin/perf2bolt' % major
    if os.path.exists(perf2bolt):
        config.available_features.add('perf2bolt-%d' % major)
        subs.append(('%%perf2bolt-%d' % major, perf2bolt))
        # The perf2bolt bbmap-profile's perf2bolt mode stands in for
        # (test/profile/dropin-*.test).
        if major == config.llvm_major:
            config.available_features.add('perf2bolt-this-major')
            subs.append(('%perf2bolt-this-major', perf2bolt))
# perf-record: `perf record` of a software event works here (the kernel's
# perf_event_paranoid and the container allow it); probed once.
# make: the recipe of per-unit profiles (profile/layout-units.test).
if shutil.which('make'):
    config.available_features.add('make')

perf = shutil.which('perf')
if perf:
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        probe = subprocess.run(
            [perf, 'record', '-q', '-e', 'cpu-clock', '-o',
             os.path.join(tmp, 'probe.data'), '--', 'true'],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if probe.returncode == 0:
            config.available_features.add('perf-record')
    # perf-6.1: the perf script the perf.data tests compare with.
    version = subprocess.run([perf, '--version'], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True).stdout
    if version.startswith('perf version 6.1.'):
        config.available_features.add('perf-6.1')
if shutil.which('llvm-bat-dump-16'):
    config.available_features.add('bat-dump-16')
subs.append(('%bat-check', '%s %s' % (py, os.path.join(tools, 'bat-check.py'))))
# arm64 (test/aarch64): programs cross-built by this major's clang with lld
# against Debian's arm64 sysroot and run under qemu-aarch64 -L (feature
# aarch64-run when both are installed: scripts/bootstrap.sh).
a64_sysroot = config.aarch64_sysroot
if (os.path.exists(os.path.join(a64_sysroot, 'lib', 'crt1.o')) and
        os.path.exists(config.qemu_aarch64)):
    config.available_features.add('aarch64-run')
subs.extend([
    ('%a64-clangxx', 'clang++ --target=aarch64-linux-gnu -fuse-ld=lld'),
    ('%a64-clang', 'clang --target=aarch64-linux-gnu -fuse-ld=lld'),
    ('%qemu-a64', '%s -L %s' % (config.qemu_aarch64, a64_sysroot)),
])
# The in-tree map version of this host: 2 on LLVM 19, 5 on LLVM 22.
config.available_features.add(
    'native-v%d' % (5 if config.llvm_major >= 22 else 2))

# %differential-clang SRC FLAGS... / %differential-llc SRC FLAGS...
for mode, compiler in (('clang', 'clang'), ('llc', 'llc')):
    subs.append(('%%differential-%s' % mode,
                 '%s %s --mode %s --compiler %s --plugin %s '
                 '--readobj llvm-readobj --out %%t' %
                 (py, os.path.join(tools, 'differential.py'), mode,
                  os.path.join(config.llvm_tools_dir, compiler),
                  config.bbmap_plugin)))
# clang-19 loads pass plugins after parsing -mllvm; -fplugin loads it first.
subs.append(('%clang_plugin_opts',
             '-fplugin=%s -fpass-plugin=%s' % (config.bbmap_plugin,
                                              config.bbmap_plugin)))
config.substitutions.extend(subs)
