#!/usr/bin/env python3
# BROKEN: reads CESU-8, a surrogate pair written as two 3-byte sequences (ED A0 BD ED B8 80), as the astral character it pairs to, as Java's modified UTF-8 does.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, serve  # noqa: E402

import re  # noqa: E402

# The two encoded surrogates of a pair: ED A0-AF xx, then ED B0-BF xx.
_PAIR = re.compile(rb"\xed([\xa0-\xaf])([\x80-\xbf])\xed([\xb0-\xbf])([\x80-\xbf])")


def _astral(m):
    hi = 0xD000 | (m.group(1)[0] & 0x3F) << 6 | m.group(2)[0] & 0x3F
    lo = 0xD000 | (m.group(3)[0] & 0x3F) << 6 | m.group(4)[0] & 0x3F
    return chr(0x10000 + (hi - 0xD800 << 10) + (lo - 0xDC00)).encode("utf-8")


_decode = catalog_port.decode


def decode(raw):
    return _decode(_PAIR.sub(_astral, raw))


catalog_port.decode = decode


serve(__name__)
