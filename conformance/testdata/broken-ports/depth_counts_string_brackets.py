#!/usr/bin/env python3
# BROKEN: checks nesting with a byte scan that also counts [ and { inside strings, so a string of 70 "[" is refused as too deep.
#
# A pre-scan written to refuse deep lines before parsing them (to bound the
# recursion) counts every bracket byte, whether or not it is inside a string.

import sys

sys.dont_write_bytecode = True
from _patch import catalog_port, serve  # noqa: E402

_decode = catalog_port.decode


def _scan_depth(raw):
    d = best = 0
    for c in raw:
        if c in (0x5B, 0x7B):
            d += 1
            best = max(best, d)
        elif c in (0x5D, 0x7D):
            d -= 1
    return best


def decode(raw):
    value, problems = _decode(raw)
    if not problems and _scan_depth(raw) > catalog_port.MAX_DEPTH:
        problems.append("nesting deeper than %d" % catalog_port.MAX_DEPTH)
    return value, problems


catalog_port.decode = decode
serve(__name__)
