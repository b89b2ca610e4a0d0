#!/usr/bin/env python3
# BROKEN: finds a duplicate key by looking up the value already read under it, so a key whose first value is null is not seen as given twice: {"format":null,"format":"a"} is read, the last value kept (catalog_port.decode).
import json
import sys

sys.dont_write_bytecode = True
from _patch import catalog_port, serve  # noqa: E402

_real = catalog_port.decode
_NONE = object()


def _null_first_only(raw):
    # True when every duplicate key of raw has null as its first value.
    found = []

    def pairs(items):
        o = {}
        for k, v in items:
            if k in o:
                found.append(o[k] is None)
            o[k] = v
        return o

    json.JSONDecoder(object_pairs_hook=pairs, parse_float=catalog_port.decode_float,
                     parse_int=catalog_port._parse_int).decode(raw.decode("utf-8", "surrogateescape"))
    return found and all(found)


def decode(raw):
    value, problems = _real(raw)
    dup = [p for p in problems if p.startswith("duplicate object key")]
    if dup and len(dup) == len(problems):
        try:
            if _null_first_only(raw):
                return value, []
        except Exception:
            pass
    return value, problems


catalog_port.decode = decode
serve(__name__)
