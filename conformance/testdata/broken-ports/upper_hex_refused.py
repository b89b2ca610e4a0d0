#!/usr/bin/env python3
# BROKEN: refuses a \u escape written with upper-case hex digits (\u00E9), as a decoder that only knows a-f does.

import re
import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, serve  # noqa: E402


_decode = catalog_port.decode
_UPPER = re.compile(rb"(?<!\\)((?:\\\\)*)\\u[0-9a-fA-F]{0,3}[A-F]")


def decode(raw):
    if _UPPER.search(raw):
        raise ValueError("invalid \\u escape: hex digits must be 0-9 or a-f")
    return _decode(raw)


catalog_port.decode = decode


serve(__name__)
