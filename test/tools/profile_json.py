"""profile_json.py - read `bbmap-profile --format=json` output: the blocks,
edges and calls of every function as dictionaries keyed the same way by
every script that compares two profiles (compare-block-profiles.py,
inference-quality.py)."""


def blocks(profile, fields):
    """(function, block address, block ID) -> the block's FIELDS values."""
    return {(f["Name"], b["Address"], b["ID"]): tuple(b[k] for k in fields)
            for f in profile["Functions"] for b in f["Blocks"]}


def edges(profile):
    """(function, from ID, to ID) -> count."""
    return {(f["Name"], e["From"], e["To"]): e["Count"]
            for f in profile["Functions"] for e in f["Edges"]}


def calls(profile):
    """(function, site, callee, tail call) -> count."""
    return {(f["Name"], hex(c["Site"]), c["Callee"], c["TailCall"]): c["Count"]
            for f in profile["Functions"] for c in f["Calls"]}
