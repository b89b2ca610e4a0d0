#!/usr/bin/env python3
# BROKEN: keeps its nesting counter across lines: a refused line leaves the message it was reading counted as open, so every later line reaches the depth limit one level sooner.
#
# Its reader counts open containers in a module-level counter that is reset
# only when a line has been read to its end; a line refused part way leaves
# the message object it had opened counted. Every call alone, on a fresh
# port, is answered right: only a run of calls shows the bug, which is what
# conform --fuzz's sequence cases are for. See README.md in this directory.

import sys

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, serve  # noqa: E402


_decode = catalog_port.decode
_left_open = 0  # containers still counted from the lines refused so far


def decode(raw):
    global _left_open
    try:
        value, problems = _decode(raw)
    except ValueError:
        _left_open += 1
        raise
    if not problems and catalog_port.depth(value) + _left_open > catalog_port.MAX_DEPTH:
        problems.append("nesting deeper than %d" % catalog_port.MAX_DEPTH)
    if problems:
        _left_open += 1
    return value, problems


catalog_port.decode = decode


serve(__name__)
