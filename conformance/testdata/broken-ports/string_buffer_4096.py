#!/usr/bin/env python3
# BROKEN: reads each string into a buffer of 4096 bytes (strncpy-style) and drops the rest, so a long string is echoed cut, and one over max_length but cut under it is accepted.
import sys

sys.dont_write_bytecode = True
from _patch import catalog_port, serve  # noqa: E402

BUFFER = 4096  # bytes of UTF-8, cut at a character boundary
_decode = catalog_port.decode


def cut(v):
    if type(v) is str:
        b = v.encode("utf-8", "surrogatepass")
        return v if len(b) <= BUFFER else b[:BUFFER].decode("utf-8", "ignore")
    if type(v) is dict:
        return {k: cut(x) for k, x in v.items()}
    if type(v) is list:
        return [cut(x) for x in v]
    return v


def decode(raw):
    value, problems = _decode(raw)
    return cut(value), problems


catalog_port.decode = decode
serve(__name__)
