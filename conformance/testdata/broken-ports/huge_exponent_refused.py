#!/usr/bin/env python3
# BROKEN: refuses a number beyond float64 (1e400) as INVALID_JSON, as a reader built on strtod or strconv.ParseFloat does, instead of reading a non-integer.

import sys
import math

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, serve  # noqa: E402


def decode_float(literal):
    if math.isinf(float(literal)):
        raise ValueError("number %s out of range" % literal)
    return catalog_port.Number(literal)


catalog_port.decode_float = decode_float


serve(__name__)
