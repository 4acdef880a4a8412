#!/usr/bin/env python3
"""perf-phases.py - where bbmap-dump --perf-data spends its CPU time, by
phase, from a cpu-clock profile of one run.

Usage: perf-phases.py PROFILE HZ

PROFILE is `perf record -e cpu-clock -F HZ -o PROFILE -- bbmap-dump
--perf-data ...` (no call graphs). Each sample is charged by its thread and
function to one phase:

  read    the reading thread walking the records (PerfFile::forEachRecord,
          zstd) and its kernel time (page faults of the mapped file, pages
          given back);
  order   the reading thread's EventQueue and timestamps (perf's order);
  decode  the rest of the reading thread: samples and other records
          decoded and checked, lines and batches made;
  format  the workers' batches formatted into text;
  write   the text written out (OrderedOutput, raw_ostream, write());
  other   start-up, the thread pool, locks and waits, the rest.

Prints one line per phase: CPU seconds (samples / HZ) and share of all.
"""
import re
import subprocess
import sys

RULES = [
    # (thread, pattern on symbol or DSO, phase); the first match wins.
    ('main', r'forEachRecord|decompress|ZSTD_|zstd', 'read'),
    ('main', r'EventQueue|deliverInOrder|PerfFile::timestamp|stable_sort'
             r'|__merge|is_sorted', 'order'),
    ('main', r'futex|schedule|finish_task_switch|__lll_lock|pthread_cond'
             r'|ThreadPool|_M_complete_async', 'other'),
    ('main', r'\[kernel', 'read'),
    ('main', r'bbmap::perf::|bbmap-dump\)|libc\.so|_M_realloc_insert', 'decode'),
    ('worker', r'OrderedOutput|raw_fd_ostream|raw_ostream::write|write_null'
               r'|ksys_write|vfs_write|__libc_write|\bwrite\b', 'write'),
    ('worker', r'ScriptPrinter::submit\(\)::\{lambda|formatBatch|formatLine'
               r'|putBranch|memcpy|memmove', 'format'),
]
PHASES = ['read', 'order', 'decode', 'format', 'write', 'other']


def main():
    profile, hz = sys.argv[1], float(sys.argv[2])
    text = subprocess.run(['perf', 'script', '-i', profile, '-F',
                           'pid,tid,ip,sym,dso'], check=True,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          universal_newlines=True).stdout
    rules = [(t, re.compile(p), ph) for t, p, ph in RULES]
    counts = dict.fromkeys(PHASES, 0)
    for line in text.splitlines():
        m = re.match(r'\s*(\d+)/(\d+)\s+[0-9a-f]+\s+(.*)$', line)
        if not m:
            continue
        thread = 'main' if m.group(1) == m.group(2) else 'worker'
        what = m.group(3)
        phase = next((ph for t, p, ph in rules
                      if t == thread and p.search(what)), 'other')
        counts[phase] += 1
    total = sum(counts.values()) or 1
    for ph in PHASES:
        print('%-7s %6.3f s  %5.1f %%' % (ph, counts[ph] / hz,
                                          100.0 * counts[ph] / total))
    print('%-7s %6.3f s' % ('total', total / hz))


if __name__ == '__main__':
    main()
