#!/usr/bin/env python3
# BROKEN: skips a byte order mark before the message, as decoding with "utf-8-sig" does.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, serve  # noqa: E402


_decode = catalog_port.decode


def decode(raw):
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    return _decode(raw)


catalog_port.decode = decode


serve(__name__)
