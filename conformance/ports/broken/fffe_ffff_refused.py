#!/usr/bin/env python3
# BROKEN: refuses U+FFFE and U+FFFF in strings (raw or escaped), as a check of XML's Char production does; other noncharacters such as U+FDD0 and U+10FFFE pass (catalog_port.decode).
import sys

sys.dont_write_bytecode = True
from _patch import catalog_port, serve  # noqa: E402

_real = catalog_port.decode


def _has(v):
    stack = [v]
    while stack:
        x = stack.pop()
        if type(x) is str:
            if "\ufffe" in x or "\uffff" in x:
                return True
        elif type(x) is dict:
            stack.extend(x.keys())
            stack.extend(x.values())
        elif type(x) is list:
            stack.extend(x)
    return False


def decode(raw):
    value, problems = _real(raw)
    if not problems and _has(value):
        problems.append("not an XML character")
    return value, problems


catalog_port.decode = decode
serve(__name__)
