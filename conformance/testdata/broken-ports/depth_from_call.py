#!/usr/bin/env python3
# BROKEN: counts nesting from the call object instead of the message, so a line nested 65 deep is read: the depth limit is off by one.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, serve  # noqa: E402


_decode = catalog_port.decode


def decode(raw):
    value, problems = _decode(raw)
    problems = [p for p in problems if not p.startswith("nesting deeper")]
    if type(value) is dict and catalog_port.depth(value.get("call")) > catalog_port.MAX_DEPTH:
        problems.append("nesting deeper than %d" % catalog_port.MAX_DEPTH)
    return value, problems


catalog_port.decode = decode


serve(__name__)
