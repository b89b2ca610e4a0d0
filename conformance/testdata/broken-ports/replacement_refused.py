#!/usr/bin/env python3
# BROKEN: decodes lines with errors="replace" and then takes any U+FFFD for a sign of malformed bytes, so a valid "\ufffd", raw or escaped, is refused as invalid UTF-8 (catalog_port.decode).
import sys

sys.dont_write_bytecode = True
from _patch import catalog_port, serve  # noqa: E402

_real = catalog_port.decode


def _has_fffd(v):
    if type(v) is str:
        return "\ufffd" in v
    if type(v) is list:
        return any(_has_fffd(x) for x in v)
    if type(v) is dict:
        return any(_has_fffd(k) or _has_fffd(x) for k, x in v.items())
    return False


def decode(raw):
    value, problems = _real(raw)
    if not problems and _has_fffd(value):
        problems = ["invalid UTF-8 (a replacement character)"]
    return value, problems


catalog_port.decode = decode
serve(__name__)
