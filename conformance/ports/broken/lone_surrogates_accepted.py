#!/usr/bin/env python3
# BROKEN: reads a lone surrogate escape ("\ud83d") as U+FFFD, as Go's encoding/json does, instead of refusing it.
"""A deliberately broken Python port: the real one with one behaviour changed.

The conformance cases must catch it; see README.md in this directory.
"""

import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import catalog_port  # noqa: E402

_decode = catalog_port.decode
_SURROGATE = re.compile("[\ud800-\udfff]")


def replace(v):
    if type(v) is str:
        return _SURROGATE.sub("\ufffd", v)
    if type(v) is dict:
        return {replace(k): replace(x) for k, x in v.items()}
    if type(v) is list:
        return [replace(x) for x in v]
    return v


def decode(raw):
    value, problems = _decode(raw)
    if problems and all("lone surrogate" in p for p in problems):
        return replace(value), []
    return value, problems


catalog_port.decode = decode

if __name__ == "__main__":
    sys.exit(catalog_port.main())
