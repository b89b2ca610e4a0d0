#!/usr/bin/env python3
# BROKEN: compares a tool definition's and a field spec's keys after trimming white space, so "name " or " type" count as name and type (validate_catalog, validate_fields).
import sys

sys.dont_write_bytecode = True
from _patch import catalog_keys, serve  # noqa: E402


def _trim(d):
    out = {}
    for k, v in d.items():
        t = k.strip(" \t\r\n")
        out[k if t in out else t] = v
    return out


catalog_keys(_trim)
serve(__name__)
