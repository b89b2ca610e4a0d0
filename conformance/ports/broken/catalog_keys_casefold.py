#!/usr/bin/env python3
# BROKEN: tool and field-spec keys are matched case-insensitively, as Go's encoding/json matches struct fields (last of two spellings wins), so {"Name": ...} or {"Max_Length": ...} is accepted instead of INVALID_FIELDS.
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve  # noqa: E402

_validate_catalog = catalogkit.validate_catalog


def _fold(d):
    return {k.lower(): v for k, v in d.items()} if type(d) is dict else d


def validate_catalog(catalog):
    if type(catalog) is list:
        out = []
        for d in catalog:
            d = _fold(d)
            if type(d) is dict and type(d.get("fields")) is dict:
                d = dict(d, fields={n: _fold(s) for n, s in d["fields"].items()})
            out.append(d)
        catalog = out
    return _validate_catalog(catalog)


catalogkit.validate_catalog = validate_catalog

serve(__name__)
