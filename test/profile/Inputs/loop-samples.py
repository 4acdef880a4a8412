#!/usr/bin/env python3
"""loop-samples.py - IP samples (pre-aggregated `S ADDRESS COUNT` lines) in
every block of FUNCTION that does not return, from `bbmap-dump
--bb-addr-map --output-style=json` of the binary.

Usage: loop-samples.py MAP.json FUNCTION COUNT
"""
import json
import sys

maps, name, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
for f in json.load(open(maps))[0]["BBAddrMap"]:
    f = f["Function"]
    if f["Name"] != name:
        continue
    for r in f["BB Ranges"]:
        for b in r["BB Entries"]:
            if not b["HasReturn"] and b["Offset"]:
                print("S %x %d" % (r["Base Address"] + b["Offset"], count))
