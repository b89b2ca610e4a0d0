#!/usr/bin/env python3
# BROKEN: keeps non-integer numbers as a decimal with a 32-bit exponent (Java's new BigDecimal(text)), which throws for an exponent beyond the int range, so 1e9999999999 is refused as INVALID_JSON instead of being read as a number that is not an integer (catalog_port.decode_float).
import re
import sys

sys.dont_write_bytecode = True
from _patch import catalog_port, serve  # noqa: E402

_real = catalog_port.decode_float
_EXP = re.compile(r"[eE]([+-]?[0-9]+)$")


def decode_float(literal):
    m = _EXP.search(literal)
    if m and not -2**31 <= int(m.group(1)) < 2**31:
        raise ValueError("exponent overflow in %s" % literal[:40])
    return _real(literal)


catalog_port.decode_float = decode_float
serve(__name__)
