#!/usr/bin/env python3
# BROKEN: reads numbers with a lenient grammar: 01, +1, .5, a lone -, 1e and 1E+ are accepted.
"""A deliberately broken Python port: the real one with one behaviour changed.

The conformance cases must catch it; see README.md in this directory.
"""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import catalog_port  # noqa: E402
import catalogkit  # noqa: E402,F401

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

if __name__ == "__main__":
    sys.exit(catalog_port.main())
