#!/usr/bin/env python3
# BROKEN: measures nesting with a byte scan that takes any quote after a backslash for an escaped quote, so after "a\\" it is out of step and misses a 65-deep array.
#
# The scan tracks strings, but decides "escaped quote" by looking at the one
# byte before the quote: the string "a\\" (ending in an escaped backslash)
# seems still open, strings and structure swap, and brackets that follow are
# not counted. The port's own depth check of the parsed value is replaced by
# this scan.

import sys

sys.dont_write_bytecode = True
from _patch import catalog_port, serve  # noqa: E402

_decode = catalog_port.decode


def _scan_depth(raw):
    d = best = 0
    in_string = False
    prev = 0
    for c in raw:
        if c == 0x22 and prev != 0x5C:
            in_string = not in_string
        elif not in_string:
            if c in (0x5B, 0x7B):
                d += 1
                best = max(best, d)
            elif c in (0x5D, 0x7D):
                d -= 1
        prev = c
    return best


def decode(raw):
    real_depth = catalog_port.depth
    catalog_port.depth = lambda v, limit=catalog_port.MAX_DEPTH: 0
    try:
        value, problems = _decode(raw)
    finally:
        catalog_port.depth = real_depth
    if _scan_depth(raw) > catalog_port.MAX_DEPTH:
        problems.append("nesting deeper than %d" % catalog_port.MAX_DEPTH)
    return value, problems


catalog_port.decode = decode
serve(__name__)
