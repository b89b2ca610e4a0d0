#!/usr/bin/env python3
# BROKEN: accepts a raw TAB inside a string, as a decoder with strict=False does.
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


def escape_tabs_in_strings(raw):
    """escape_tabs_in_strings writes every raw TAB inside a JSON string as
    the escape \t, so that the decoder accepts it."""
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
            elif c == 0x09:
                out += b"\\t"
                continue
        elif c == 0x22:
            in_string = True
        out.append(c)
    return bytes(out)


def decode(raw):
    return _decode(escape_tabs_in_strings(raw))


catalog_port.decode = decode

if __name__ == "__main__":
    sys.exit(catalog_port.main())
