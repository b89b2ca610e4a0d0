#!/usr/bin/env python3
# BROKEN: refuses an exponent written with a leading zero (1e05, 2E-007) as INVALID_JSON: the reader applies the integer part's no-leading-zero rule to the exponent.
#
# RFC 8259: exp = e [ minus / plus ] 1*DIGIT; leading zeros are refused only
# in the integer part (int = zero / digit1-9 *DIGIT).

import re
import sys

sys.dont_write_bytecode = True
from _patch import catalog_port, serve  # noqa: E402

_decode = catalog_port.decode
_EXP0 = re.compile(rb"[0-9][eE][+-]?0[0-9]")


def _outside_strings(raw):
    out = bytearray()
    in_string = escaped = False
    for c in raw:
        if in_string:
            if escaped:
                escaped = False
            elif c == 0x5C:
                escaped = True
            elif c == 0x22:
                in_string = False
            out.append(0x20)
        elif c == 0x22:
            in_string = True
            out.append(0x20)
        else:
            out.append(c)
    return bytes(out)


def decode(raw):
    if _EXP0.search(_outside_strings(raw)):
        raise ValueError("a number's exponent has a leading zero")
    return _decode(raw)


catalog_port.decode = decode
serve(__name__)
