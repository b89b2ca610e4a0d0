#!/usr/bin/env python3
# BROKEN: skips a byte order mark before the message, as decoding with "utf-8-sig" does.
"""A deliberately broken Python port: the real one with one behaviour changed.

The conformance cases must catch it; see README.md in this directory.
"""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import catalog_port  # noqa: E402

_decode = catalog_port.decode


def decode(raw):
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    return _decode(raw)


catalog_port.decode = decode


if __name__ == "__main__":
    sys.exit(catalog_port.main())
