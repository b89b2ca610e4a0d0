#!/usr/bin/env python3
# BROKEN: treats 1.0 and 1e2 (integral value, fraction or exponent) as integers.
"""A deliberately broken Python port: the real one with one behaviour changed.

The conformance cases must catch it; see README.md in this directory.
"""

import decimal
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import catalog_port  # noqa: E402
import catalogkit  # noqa: E402

real_is_json_integer = catalogkit.is_json_integer


def is_json_integer(v):
    if type(v) is catalog_port.Number:
        try:
            d = decimal.Decimal(v.literal)
            return d == d.to_integral_value()
        except ArithmeticError:
            return False
    return real_is_json_integer(v)


catalogkit.is_json_integer = is_json_integer


if __name__ == "__main__":
    sys.exit(catalog_port.main())
