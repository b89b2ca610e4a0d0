#!/usr/bin/env python3
# BROKEN: refuses a number beyond float64 (1e400) as INVALID_JSON, as a reader built on strtod or strconv.ParseFloat does, instead of reading a non-integer.
"""A deliberately broken Python port: the real one with one behaviour changed.

The conformance cases must catch it; see README.md in this directory.
"""

import math
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import catalog_port  # noqa: E402


def decode_float(literal):
    if math.isinf(float(literal)):
        raise ValueError("number %s out of range" % literal)
    return catalog_port.Number(literal)


catalog_port.decode_float = decode_float


if __name__ == "__main__":
    sys.exit(catalog_port.main())
