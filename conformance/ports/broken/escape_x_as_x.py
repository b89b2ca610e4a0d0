#!/usr/bin/env python3
# BROKEN: reads the escape \x as the letter x, as some lenient decoders do with an unknown escape.
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
# A backslash that is not itself escaped, before an x.
_ESCAPED_X = re.compile(rb"(?<!\\)((?:\\\\)*)\\x")


def decode(raw):
    return _decode(_ESCAPED_X.sub(rb"\1x", raw))


catalog_port.decode = decode

if __name__ == "__main__":
    sys.exit(catalog_port.main())
