#!/usr/bin/env python3
# BROKEN: refuses an integer literal of more than 4300 digits as not JSON, as int() does since Python 3.11 unless sys.set_int_max_str_digits(0) lifts the limit.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, serve  # noqa: E402

_parse_int = catalog_port._parse_int


def parse_int(literal):
    if len(literal.lstrip("-")) > 4300:
        raise ValueError("Exceeds the limit (4300 digits) for integer string conversion")
    return _parse_int(literal)


catalog_port._parse_int = parse_int


serve(__name__)
