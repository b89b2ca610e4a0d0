#!/usr/bin/env python3
# BROKEN: reads 1.0 and 1e2 (integral value, fraction or exponent) as integers.

import sys
import decimal

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, serve  # noqa: E402


def decode_float(literal):
    try:
        d = decimal.Decimal(literal)
        if d.adjusted() < 100 and d == d.to_integral_value():
            return int(d)
    except ArithmeticError:
        pass
    return catalog_port.Number(literal)


catalog_port.decode_float = decode_float


serve(__name__)
