#!/usr/bin/env python3
# BROKEN: keeps the last of duplicate object keys, as json.loads does, so a second "enabled" smuggles its value in.
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
    # Duplicate keys are not a problem: the dict keeps the last value.
    return value, [p for p in problems if not p.startswith("duplicate object key")]


catalog_port.decode = decode


if __name__ == "__main__":
    sys.exit(catalog_port.main())
