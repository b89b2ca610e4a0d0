#!/usr/bin/env python3
# BROKEN: replaces invalid UTF-8 with U+FFFD, as bytes.decode(errors="replace") does, instead of refusing it.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, serve  # noqa: E402


_decode = catalog_port.decode


def decode(raw):
    return _decode(raw.decode("utf-8", "replace").encode("utf-8"))


catalog_port.decode = decode


serve(__name__)
