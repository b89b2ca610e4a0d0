#!/usr/bin/env python3
# BROKEN: unescapes strings in two passes, \uXXXX first, so "\u005cn" (an escaped backslash, then n) becomes a newline instead of the two characters \ and n.
#
# The first pass turns \u005c into a backslash; the second pass then reads
# that backslash as the start of another escape.

import sys

sys.dont_write_bytecode = True
from _patch import catalog_port, serve  # noqa: E402

_decode = catalog_port.decode


def _reescape(raw):
    out = bytearray()
    i, n = 0, len(raw)
    in_string = False
    while i < n:
        c = raw[i]
        if not in_string:
            if c == 0x22:
                in_string = True
            out.append(c)
            i += 1
        elif c == 0x22:
            in_string = False
            out.append(c)
            i += 1
        elif c == 0x5C and i + 1 < n:
            if raw[i + 1:i + 6].lower() == b"u005c" and i + 6 < n and raw[i + 6] != 0x22:
                out.append(0x5C)  # the decoded backslash, which escapes what follows
                i += 6
            else:
                out += raw[i:i + 2]
                i += 2
        else:
            out.append(c)
            i += 1
    return bytes(out)


def decode(raw):
    return _decode(_reescape(raw))


catalog_port.decode = decode
serve(__name__)
