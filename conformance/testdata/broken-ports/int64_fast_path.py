#!/usr/bin/env python3
# BROKEN: reads an integer of at most 19 digits as an int64 with the range error ignored (Go's n, _ := strconv.ParseInt(s, 10, 64), which clamps), so 9999999999999999999 is echoed as 9223372036854775807.
import sys

sys.dont_write_bytecode = True
from _patch import catalog_port, serve  # noqa: E402

INT64_MAX, INT64_MIN = (1 << 63) - 1, -(1 << 63)
_parse_int = catalog_port._parse_int


def parse_int(literal):
    if len(literal.lstrip("-")) <= 19:  # "fits in an int64": 19 digits
        return max(INT64_MIN, min(INT64_MAX, _parse_int(literal)))
    return _parse_int(literal)


catalog_port._parse_int = parse_int
serve(__name__)
