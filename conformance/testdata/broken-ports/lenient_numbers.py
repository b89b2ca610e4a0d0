#!/usr/bin/env python3
# BROKEN: reads numbers with a lenient grammar: 01, +1, .5, a lone -, 1e and 1E+ are accepted.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, serve  # noqa: E402


import json.scanner  # noqa: E402
import re  # noqa: E402

# The pure-Python scanner, with a number pattern that takes any run of
# signs, digits, a dot and an exponent.
json.scanner.NUMBER_RE = re.compile(r"(?=[-+.0-9])([-+]?[0-9]*)(\.[0-9]*)?([eE][-+]?[0-9]*)?")
json.scanner.make_scanner = json.scanner.py_make_scanner


def _parse_int(literal):
    digits = literal.lstrip("+-")
    return -int(digits) if literal.startswith("-") and digits else int(digits or "0")


catalog_port._parse_int = _parse_int


serve(__name__)
