#!/usr/bin/env python3
# BROKEN: replaces invalid UTF-8 with U+FFFD, as bytes.decode(errors="replace") does, instead of refusing it.
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
    return _decode(raw.decode("utf-8", "replace").encode("utf-8"))


catalog_port.decode = decode


if __name__ == "__main__":
    sys.exit(catalog_port.main())
