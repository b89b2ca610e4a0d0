#!/usr/bin/env python3
# BROKEN: ignores data after the message, as JSONDecoder.raw_decode does.

import sys
import json

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, serve  # noqa: E402


_decode = catalog_port.decode


def decode(raw):
    try:
        return _decode(raw)
    except json.JSONDecodeError as e:
        if e.msg != "Extra data":
            raise
        # Keep what was read; drop the rest.
        return _decode(e.doc[:e.pos].encode("utf-8"))


catalog_port.decode = decode


serve(__name__)
