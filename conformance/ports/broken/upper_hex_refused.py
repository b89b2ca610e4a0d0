#!/usr/bin/env python3
# BROKEN: refuses a \u escape written with upper-case hex digits (\u00E9), as a decoder that only knows a-f does.
"""A deliberately broken Python port: the real one with one behaviour changed.

The conformance cases must catch it; see README.md in this directory.
"""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import catalog_port  # noqa: E402
import catalogkit  # noqa: E402,F401

import re  # noqa: E402

_decode = catalog_port.decode
_UPPER = re.compile(rb"(?<!\\)((?:\\\\)*)\\u[0-9a-fA-F]{0,3}[A-F]")


def decode(raw):
    if _UPPER.search(raw):
        raise ValueError("invalid \\u escape: hex digits must be 0-9 or a-f")
    return _decode(raw)


catalog_port.decode = decode

if __name__ == "__main__":
    sys.exit(catalog_port.main())
