#!/usr/bin/env python3
"""validate-json.py - checks bbmap-dump or bbmap-profile JSON output against
its schema.

Usage: validate-json.py SCHEMA FILE...

Each FILE must hold one JSON document valid under SCHEMA
(docs/bbmap-dump.schema.json or docs/bbmap-profile.schema.json).
llvm-readobj's layout repeats the "BBAddrMap"
member once per map section; the repeats are concatenated before checking.
Any other repeated member is an error. Prints one line per file; the exit
status is 1 if any file is invalid.
"""

import json
import sys

import jsonschema


def merge_pairs(pairs):
    obj = {}
    for key, value in pairs:
        if key not in obj:
            obj[key] = value
        elif key == 'BBAddrMap':
            obj[key] = obj[key] + value
        else:
            raise ValueError('repeated member "%s"' % key)
    return obj


def main():
    with open(sys.argv[1]) as f:
        schema = json.load(f)
    validator = jsonschema.Draft202012Validator(schema)
    failed = False
    for path in sys.argv[2:]:
        try:
            with open(path) as f:
                doc = json.load(f, object_pairs_hook=merge_pairs)
        except ValueError as e:
            print('%s: invalid JSON: %s' % (path, e))
            failed = True
            continue
        errors = sorted(validator.iter_errors(doc), key=lambda e: e.path)
        for e in errors[:5]:
            message = e.message if len(e.message) < 200 else \
                e.message[:200] + '...'
            print('%s: %s: %s' % (path, '/'.join(map(str, e.absolute_path)),
                                  message))
        if errors:
            failed = True
        else:
            print('%s: valid, %d files' % (path, len(doc)))
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
