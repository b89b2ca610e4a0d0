#!/usr/bin/env python3
# BROKEN: refuses raw C1 control characters (U+0080 to U+009F) inside strings, as a check written with Java's Character.isISOControl does, instead of only U+0000 to U+001F (catalog_port.decode).
import re
import sys

sys.dont_write_bytecode = True
from _patch import catalog_port, serve  # noqa: E402

_real = catalog_port.decode
_RAW_C1 = re.compile(rb"\xc2[\x80-\x9f]")


def decode(raw):
    value, problems = _real(raw)
    if _RAW_C1.search(raw):
        problems.append("unescaped control character")
    return value, problems


catalog_port.decode = decode
serve(__name__)
