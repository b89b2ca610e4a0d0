#!/usr/bin/env python3
# BROKEN: accepts a raw TAB inside a string, as a decoder with strict=False does.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, rewrite_bytes, serve  # noqa: E402


_decode = catalog_port.decode


def decode(raw):
    # every raw TAB inside a JSON string written as the escape \t first
    return _decode(rewrite_bytes(raw, inside=lambda c: b"\\t" if c == 0x09 else None))


catalog_port.decode = decode


serve(__name__)
