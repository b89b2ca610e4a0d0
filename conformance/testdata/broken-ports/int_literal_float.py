#!/usr/bin/env python3
# BROKEN: reads integer literals beyond 2^53 as floats at the text level, as JSON.parse does, so a 41-digit or 400-digit integer is no longer an integer.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, serve  # noqa: E402


_parse_int = catalog_port._parse_int


def parse_int(literal):
    v = _parse_int(literal)
    if abs(v) > 2 ** 53:
        try:
            return catalog_port.Number(repr(float(v)))
        except OverflowError:
            return catalog_port.Number("1e999")  # Infinity
    return v


catalog_port._parse_int = parse_int


serve(__name__)
