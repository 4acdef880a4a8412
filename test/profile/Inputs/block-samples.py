#!/usr/bin/env python3
"""block-samples.py - IP samples (pre-aggregated `S ADDRESS COUNT` lines),
one per execution of each block, at the block's start, from the block
counts of `bbmap-profile --format=json` (a profile of executions).

Usage: block-samples.py PROFILE.json
"""
import json
import sys

for f in json.load(open(sys.argv[1]))["Functions"]:
    for b in f["Blocks"]:
        if b["Count"]:
            print("S %x %d" % (b["Address"], b["Count"]))
