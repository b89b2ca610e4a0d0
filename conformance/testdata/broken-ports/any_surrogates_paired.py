#!/usr/bin/env python3
# BROKEN: takes any two surrogate escapes in a row for a pair, "\ude00\ud83d" and "\ud83d\ud83d" included.

import re
import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, serve  # noqa: E402


_decode = catalog_port.decode
_TWO = re.compile(rb"(?<!\\)((?:\\\\)*)\\u([dD][89a-fA-F][0-9a-fA-F]{2})\\u([dD][89a-fA-F][0-9a-fA-F]{2})")


def _pair(m):
    hi, lo = int(m.group(2), 16), int(m.group(3), 16)
    cp = 0x10000 + ((hi & 0x3FF) << 10) + (lo & 0x3FF)
    return m.group(1) + chr(cp).encode("utf-8")


def decode(raw):
    return _decode(_TWO.sub(_pair, raw))


catalog_port.decode = decode


serve(__name__)
