#!/usr/bin/env python3
# BROKEN: a hand-written UTF-8 check refuses the overlong lead byte C0 (the spec's example) but not C1, so C1 A1 is read as "a".
#
# Its decoder takes 110xxxxx 10yyyyyy for a two-byte sequence and only
# blacklists 0xC0; the lead byte 0xC1 (as overlong as 0xC0) decodes to
# U+0040..U+007F. ../../SPEC.md J1 refuses every overlong form.

import re
import sys

sys.dont_write_bytecode = True
from _patch import catalog_port, serve  # noqa: E402

_decode = catalog_port.decode
_C1 = re.compile(rb"\xc1([\x80-\xbf])")


def _ascii(m):
    c = 0x40 | (m.group(1)[0] & 0x3F)
    if c in (0x22, 0x5C):  # a quote or backslash from an overlong form stays refused
        return m.group(0)
    return bytes([c])


def decode(raw):
    return _decode(_C1.sub(_ascii, raw))


catalog_port.decode = decode
serve(__name__)
