#!/usr/bin/env python3
# BROKEN: counts nesting from the call object instead of the message, so a line nested 65 deep is read: the depth limit is off by one.
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
    value, problems = _decode(raw)
    problems = [p for p in problems if not p.startswith("nesting deeper")]
    if type(value) is dict and catalog_port.depth(value.get("call")) > catalog_port.MAX_DEPTH:
        problems.append("nesting deeper than %d" % catalog_port.MAX_DEPTH)
    return value, problems


catalog_port.decode = decode


if __name__ == "__main__":
    sys.exit(catalog_port.main())
