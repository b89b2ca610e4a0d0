#!/usr/bin/env python3
# BROKEN: measures the 32 MiB line limit in characters, not bytes, so a line of multibyte text over 33554432 bytes but not characters is read.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, serve  # noqa: E402

_handle = catalog_port.Session.handle


def handle(self, raw):
    limit = catalog_port.MAX_INPUT_BYTES
    if len(raw.decode("utf-8", "surrogateescape")) <= limit < len(raw):
        catalog_port.MAX_INPUT_BYTES = len(raw)
    try:
        return _handle(self, raw)
    finally:
        catalog_port.MAX_INPUT_BYTES = limit


catalog_port.Session.handle = handle


serve(__name__)
