#!/usr/bin/env python3
# BROKEN: refuses an exponent written with a leading zero (1e05, 2E-007) as INVALID_JSON: the reader applies the integer part's no-leading-zero rule to the exponent.
#
# RFC 8259: exp = e [ minus / plus ] 1*DIGIT; leading zeros are refused only
# in the integer part (int = zero / digit1-9 *DIGIT).

import re
import sys

sys.dont_write_bytecode = True
from _patch import catalog_port, rewrite_bytes, serve  # noqa: E402

_decode = catalog_port.decode
_EXP0 = re.compile(rb"[0-9][eE][+-]?0[0-9]")


def decode(raw):
    if _EXP0.search(rewrite_bytes(raw, inside=lambda c: b" ")):  # strings blanked out
        raise ValueError("a number's exponent has a leading zero")
    return _decode(raw)


catalog_port.decode = decode
serve(__name__)
