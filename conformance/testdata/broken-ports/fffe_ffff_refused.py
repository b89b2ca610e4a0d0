#!/usr/bin/env python3
# BROKEN: refuses U+FFFE and U+FFFF in strings (raw or escaped), as a check of XML's Char production does; other noncharacters such as U+FDD0 and U+10FFFE pass (catalog_port.decode).
import sys

sys.dont_write_bytecode = True
from _patch import catalog_port, serve, values_in  # noqa: E402

_real = catalog_port.decode


def _bad(s):
    return "\ufffe" in s or "\uffff" in s


def _has(value):
    return any(type(v) is str and _bad(v) or type(v) is dict and any(_bad(k) for k in v) for v in values_in(value))


def decode(raw):
    value, problems = _real(raw)
    if not problems and _has(value):
        problems.append("not an XML character")
    return value, problems


catalog_port.decode = decode
serve(__name__)
