#!/usr/bin/env python3
"""icache-attribute.py - charge the per-line fetches and misses of
icache-plugin.c's output to functions (or cache sets), side by side for
several runs.

Usage: icache-attribute.py [--top N] [--by part|function|set] [--nm NM]
                           LABEL=RUN.ic [LABEL=RUN.ic ...]

Each row's code address (where the line was entered) is looked up in the
file mappings the run recorded
(`# map`): the mapped file's symbols (its own symbol table, or for a
stripped library the detached debug file of its build ID under
/usr/lib/debug/.build-id) give the function, the nearest symbol at or below
the address. An ELF executable's addresses are its symbols' addresses; a
shared object's are taken relative to its mapping at file offset 0.

--by part (default) keeps a function's parts apart (clang's `f.cold` and
`f.__part.N`, BOLT's `f.cold.N`); --by function adds them up under `f`;
--by set charges each line to its cache set instead (the line number as
placed, modulo the number of sets of the run's `# cache` geometry): where
misses concentrate in a few sets, lines that run together conflict there.
Prints a Markdown table: per function (or set), each run's misses (and its
share of that run's total), the N with most misses in any run first, then
one row for the rest and the totals.
"""
import argparse
import bisect
import os
import re
import subprocess
import sys


def parse_run(path):
    maps, lines = [], []
    totals, cache = {}, None
    with open(path) as f:
        first = f.readline()
        if not first.startswith("# icache-sim 1"):
            sys.exit(f"icache-attribute.py: {path}: not an icache-sim 1 file")
        for text in f:
            if text.startswith("# map "):
                rng, off, file = text.split()[2:5]
                lo, hi = (int(x, 16) for x in rng.split("-"))
                maps.append((lo, hi, int(off, 16), file))
            elif text.startswith("# cache "):
                cache = tuple(int(x) for x in text.split()[2:5])
            elif text.startswith("# error"):
                sys.exit(f"icache-attribute.py: {path}: {text[2:].strip()}")
            elif text.startswith("#"):
                parts = text.split()
                if len(parts) == 3 and parts[2].isdigit():
                    totals[parts[1]] = int(parts[2])
            else:
                line, addr, fetches, misses = text.split()
                lines.append((int(line, 16), int(addr, 16), int(fetches),
                              int(misses)))
    if cache is None:
        sys.exit(f"icache-attribute.py: {path}: no '# cache' line")
    maps.sort()
    return maps, lines, totals, cache


def build_id(path):
    with open(path, "rb") as f:
        data = f.read()
    # The GNU build-ID note: namesz 4, type 3, name "GNU\0", then the ID.
    m = re.search(rb"\x04\x00\x00\x00(.)\x00\x00\x00\x03\x00\x00\x00GNU\x00",
                  data, re.S)
    if not m:
        return None
    n = m.group(1)[0]
    return data[m.end():m.end() + n].hex()


class Symbols:
    """Sorted (address, name) of one file, and whether it is ET_EXEC."""

    def __init__(self, path, nm):
        with open(path, "rb") as f:
            head = f.read(18)
        self.exec = head[:4] == b"\x7fELF" and head[16] == 2
        self.addrs, self.names = [], []
        for source in self.sources(path):
            out = subprocess.run([nm, "-n", "--defined-only", source],
                                 capture_output=True, text=True).stdout
            for text in out.splitlines():
                parts = text.split()
                if len(parts) == 3 and parts[1] in "tTwWiI":
                    self.addrs.append(int(parts[0], 16))
                    self.names.append(parts[2])
            if self.addrs:
                break

    @staticmethod
    def sources(path):
        yield path
        bid = build_id(path)
        if bid:
            yield f"/usr/lib/debug/.build-id/{bid[:2]}/{bid[2:]}.debug"

    def name(self, vaddr):
        i = bisect.bisect_right(self.addrs, vaddr) - 1
        return self.names[i] if i >= 0 else "???"


def attribute(run, symbols, nm, by):
    maps, lines, totals, (size, assoc, line_size) = run
    starts = [m[0] for m in maps]
    per = {}
    for line, addr, fetches, misses in lines:
        i = bisect.bisect_right(starts, addr) - 1
        if by == "set":
            name = f"set {line // line_size % (size // (assoc * line_size))}"
        elif i < 0 or addr >= maps[i][1]:
            name = "??? (unmapped)"
        else:
            lo, _, off, file = maps[i]
            if file not in symbols:
                symbols[file] = Symbols(file, nm)
            syms = symbols[file]
            if syms.exec:
                vaddr = addr
            else:  # relative to the file's mapping at offset 0 below addr
                base = max((m[0] for m in maps[:i + 1]
                            if m[3] == file and m[2] == 0), default=lo - off)
                vaddr = addr - base
            name = syms.name(vaddr)
            if not syms.exec:
                name += " [" + os.path.basename(file) + "]"
        if by == "function":
            name = re.sub(r"\.(cold(\.\d+)?|__part\.\d+)$", "", name)
        f, m = per.get(name, (0, 0))
        per[name] = (f + fetches, m + misses)
    return per, totals


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--by", choices=["part", "function", "set"],
                    default="part")
    ap.add_argument("--nm", default="llvm-nm-22")
    ap.add_argument("runs", nargs="+", metavar="LABEL=RUN.ic")
    args = ap.parse_args(argv)
    symbols, labels, results = {}, [], []
    for spec in args.runs:
        label, _, path = spec.rpartition("=")
        if not label:
            ap.error(f"'{spec}': want LABEL=RUN.ic")
        labels.append(label)
        results.append(attribute(parse_run(path), symbols, args.nm, args.by))
    names = set()
    for per, _ in results:
        names.update(per)
    ranked = sorted(names, key=lambda n: -max(p.get(n, (0, 0))[1]
                                              for p, _ in results))
    key = "set" if args.by == "set" else "function"
    print(f"| {key} | " + " | ".join(f"{l} misses" for l in labels) + " |")
    print("|---|" + "---:|" * len(labels))

    def cells(values, totals):
        return " | ".join(f"{v:,} ({100 * v / max(t, 1):.1f}%)"
                          for v, t in zip(values, totals))
    grand = [t.get("misses", 0) for _, t in results]
    for n in ranked[:args.top]:
        print(f"| {n} | " + cells([p.get(n, (0, 0))[1] for p, _ in results],
                                  grand) + " |")
    rest = [sum(p.get(n, (0, 0))[1] for n in ranked[args.top:])
            for p, _ in results]
    print(f"| (the other {max(len(ranked) - args.top, 0)}) | "
          + cells(rest, grand) + " |")
    print("| **total** | " + " | ".join(f"**{g:,}**" for g in grand) + " |")


if __name__ == "__main__":
    main()
