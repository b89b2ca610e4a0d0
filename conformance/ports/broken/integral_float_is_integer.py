#!/usr/bin/env python3
# BROKEN: reads 1.0 and 1e2 (integral value, fraction or exponent) as integers.
"""A deliberately broken Python port: the real one with one behaviour changed.

The conformance cases must catch it; see README.md in this directory.
"""

import decimal
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import catalog_port  # noqa: E402


def decode_float(literal):
    try:
        d = decimal.Decimal(literal)
        if d.adjusted() < 100 and d == d.to_integral_value():
            return int(d)
    except ArithmeticError:
        pass
    return catalog_port.Number(literal)


catalog_port.decode_float = decode_float


if __name__ == "__main__":
    sys.exit(catalog_port.main())
