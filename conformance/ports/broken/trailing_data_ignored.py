#!/usr/bin/env python3
# BROKEN: ignores data after the message, as JSONDecoder.raw_decode does.
"""A deliberately broken Python port: the real one with one behaviour changed.

The conformance cases must catch it; see README.md in this directory.
"""

import json
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import catalog_port  # noqa: E402

_decode = catalog_port.decode


def decode(raw):
    try:
        return _decode(raw)
    except json.JSONDecodeError as e:
        if e.msg != "Extra data":
            raise
        # Keep what was read; drop the rest.
        return _decode(e.doc[:e.pos].encode("utf-8"))


catalog_port.decode = decode


if __name__ == "__main__":
    sys.exit(catalog_port.main())
