#!/usr/bin/env python3
# BROKEN: reads the escape \x as the letter x, as some lenient decoders do with an unknown escape.

import re
import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, serve  # noqa: E402


_decode = catalog_port.decode
# A backslash that is not itself escaped, before an x.
_ESCAPED_X = re.compile(rb"(?<!\\)((?:\\\\)*)\\x")


def decode(raw):
    return _decode(_ESCAPED_X.sub(rb"\1x", raw))


catalog_port.decode = decode


serve(__name__)
