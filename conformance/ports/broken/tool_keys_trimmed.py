#!/usr/bin/env python3
# BROKEN: compares a tool definition's and a field spec's keys after trimming white space, so "name " or " type" count as name and type (validate_catalog, validate_fields).
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve  # noqa: E402

_real = catalogkit.validate_catalog


def _trim(o):
    if type(o) is not dict:
        return o
    out = {}
    for k, v in o.items():
        out[k.strip(" \t\r\n") if k.strip(" \t\r\n") not in out else k] = v
    return out


def validate_catalog(catalog):
    if type(catalog) is list:
        fixed = []
        for d in catalog:
            d = _trim(d)
            if type(d) is dict and type(d.get("fields")) is dict:
                d = dict(d, fields={n: _trim(s) for n, s in d["fields"].items()})
            fixed.append(d)
        catalog = fixed
    return _real(catalog)


catalogkit.validate_catalog = validate_catalog
serve(__name__)
