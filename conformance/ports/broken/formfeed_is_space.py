#!/usr/bin/env python3
# BROKEN: takes form feed and vertical tab, between tokens, for white space.
"""A deliberately broken Python port: the real one with one behaviour changed.

The conformance cases must catch it; see README.md in this directory.
"""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import catalog_port  # noqa: E402
import catalogkit  # noqa: E402,F401

_decode = catalog_port.decode


def blank_ff_vt(raw):
    """blank_ff_vt writes every form feed and vertical tab outside a JSON
    string as a space."""
    out = bytearray()
    in_string = escaped = False
    for c in raw:
        if in_string:
            if escaped:
                escaped = False
            elif c == 0x5C:
                escaped = True
            elif c == 0x22:
                in_string = False
        elif c == 0x22:
            in_string = True
        elif c in (0x0B, 0x0C):
            c = 0x20
        out.append(c)
    return bytes(out)


def decode(raw):
    return _decode(blank_ff_vt(raw))


catalog_port.decode = decode

if __name__ == "__main__":
    sys.exit(catalog_port.main())
