#!/usr/bin/env python3
# BROKEN: a hand-written UTF-8 check refuses encoded surrogates by their lead byte ED alone, without looking at the next byte, so U+D000 to U+D7FF (Hangul syllables among them) are refused as invalid UTF-8 (catalog_port.decode).
import sys

sys.dont_write_bytecode = True
from _patch import catalog_port, serve  # noqa: E402

_real = catalog_port.decode


def decode(raw):
    value, problems = _real(raw)
    if b"\xed" in raw:
        problems.append("invalid UTF-8 at byte %d (surrogate)" % raw.index(b"\xed"))
    return value, problems


catalog_port.decode = decode
serve(__name__)
