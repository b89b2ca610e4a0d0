#!/usr/bin/env python3
# BROKEN: reads a lone surrogate escape ("\ud83d") as U+FFFD, as Go's encoding/json does, instead of refusing it.

import sys
import re

sys.dont_write_bytecode = True  # before the import below, so that no __pycache__ is written
from _patch import catalog_port, serve  # noqa: E402


_decode = catalog_port.decode
_SURROGATE = re.compile("[\ud800-\udfff]")


def replace(v):
    if type(v) is str:
        return _SURROGATE.sub("\ufffd", v)
    if type(v) is dict:
        return {replace(k): replace(x) for k, x in v.items()}
    if type(v) is list:
        return [replace(x) for x in v]
    return v


def decode(raw):
    value, problems = _decode(raw)
    if problems and all("lone surrogate" in p for p in problems):
        return replace(value), []
    return value, problems


catalog_port.decode = decode


serve(__name__)
