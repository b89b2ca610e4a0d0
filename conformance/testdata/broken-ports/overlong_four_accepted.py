#!/usr/bin/env python3
# BROKEN: refuses overlong two- and three-byte UTF-8 forms but not four-byte ones: F0 80 81 81 is read as "A".
#
# Its decoder checks the second byte of E0 (A0..BF) but forgets the same rule
# for F0 (90..BF), so a four-byte sequence can encode a BMP character.

import re
import sys

sys.dont_write_bytecode = True
from _patch import catalog_port, serve  # noqa: E402

_decode = catalog_port.decode
_F0 = re.compile(rb"\xf0([\x80-\x8f])([\x80-\xbf])([\x80-\xbf])")


def _bmp(m):
    v = ((m.group(1)[0] & 0x3F) << 12) | ((m.group(2)[0] & 0x3F) << 6) | (m.group(3)[0] & 0x3F)
    if v in (0x22, 0x5C):
        return m.group(0)
    return chr(v).encode("utf-8", "surrogatepass")


def decode(raw):
    return _decode(_F0.sub(_bmp, raw))


catalog_port.decode = decode
serve(__name__)
